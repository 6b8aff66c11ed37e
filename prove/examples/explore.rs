//! Scratch exploration (not part of the test suite).
use expanse_prove::bench::periodic_orbit;
use expanse_prove::engine::{prove, Candidate, Options};
use rug::{Float, Rational};
use std::time::Instant;
fn main() {
    let p: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let cc = std::env::args().nth(2).is_some();
    let a = Float::with_val(53, 1.4);
    let b = Float::with_val(53, 0.3);
    let t = Instant::now();
    let o = periodic_orbit(&a, &b, p, 256).expect("newton");
    eprintln!("orbit in {:?}", t.elapsed());
    let c = Candidate {
        source: "x".into(),
        a: "1.4".into(),
        b: "0.3".into(),
        radius: Rational::from(0),
        period: p,
        x: o[0].clone(),
        y: Float::with_val(53, &b * &o[p - 1]),
        orbit: Some(o),
    };
    let opts = Options {
        max_shift: 1e-3,
        cross_check: cc,
        ..Default::default()
    };
    let t = Instant::now();
    let pr = prove(&c, &opts).unwrap();
    eprintln!(
        "prove in {:?}: {:?} {:?} {:?} {:?} timings {:?} refine {:?}",
        t.elapsed(),
        pr.status,
        pr.reason,
        pr.growth,
        pr.attempts,
        pr.timings,
        pr.refine
    );
}
