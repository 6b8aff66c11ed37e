//! Scratch: does Newton converge from near-returns for long periods? (not part of the tests)
use expanse_prove::bench::near_return;
use expanse_prove::orbit::{growth, refine};
use rug::Float;
fn main() {
    let p: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let a = Float::with_val(4096, Float::parse("1.4").unwrap());
    let b = Float::with_val(4096, Float::parse("0.3").unwrap());
    for (tr, search) in [
        (1000, 200_000),
        (5000, 200_000),
        (20000, 400_000),
        (50000, 1_000_000),
    ] {
        let (guess, d) = near_return(1.4, 0.3, p, tr, search);
        let gr = growth(&guess, 1.4, 0.3);
        let extra = (2.0 * gr.l1).ceil() as u32 + 64;
        let g: Vec<Float> = guess.iter().map(|v| Float::with_val(53, *v)).collect();
        let t = std::time::Instant::now();
        let r = refine(&g, &a, &b, extra + 128, extra);
        eprintln!(
            "p={p} tr={tr} dist={d:.2e} l1={:.0} -> {:?} {:?}",
            gr.l1,
            r.as_ref()
                .map(|r| (r.converged, r.iterations, r.last_step_log2)),
            t.elapsed()
        );
    }
}
