//! Quick probe: nanoseconds per orbit step of the batched fast tier (development aid).
use expanse_core::batch::{henon_iterate_batch, F64Lanes, F64x4, Lane, Lanes, Wide};
use expanse_core::Expansion;
use std::time::Instant;

fn probe<L: Lane<Scalar = f64>, const N: usize>() {
    let w = L::WIDTH;
    let a: Expansion<f64, N> = "1.4".parse().unwrap();
    let b: Expansion<f64, N> = "0.3".parse().unwrap();
    let m = 4 * w;
    let mut xs: Vec<_> = (0..m)
        .map(|k| Expansion::from_f64(0.001 * k as f64))
        .collect();
    let mut ys = vec![Expansion::zero(); m];
    let steps = 2_000_000 / (N * N) as u64;
    let t = Instant::now();
    let c0 = oncpu();
    henon_iterate_batch::<L, N>(&a, &b, &mut xs, &mut ys, steps);
    let _wall = t.elapsed().as_secs_f64();
    let dt = oncpu() - c0;
    println!(
        "N={N} W={w}: {:.2} ns/orbit-step",
        dt * 1e9 / (m as f64 * steps as f64)
    );
}

/// Seconds this thread has spent on a CPU (Linux schedstat), immune to time-sharing.
fn oncpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse::<f64>().unwrap() * 1e-9
}

fn main() {
    for n in [1, 2, 4, 8] {
        mpfr_probe(n);
    }
    if std::env::args().nth(1).as_deref() == Some("n4") {
        for _ in 0..5 {
            probe::<F64x4, 4>();
        }
        return;
    }
    probe::<F64Lanes, 1>();
    probe::<Lanes<f64, 4>, 2>();
    probe::<F64x4, 2>();
    probe::<Wide<F64x4, 2>, 2>();
    probe::<Wide<F64x4, 4>, 2>();
    probe::<F64x4, 4>();
    probe::<Wide<F64x4, 2>, 4>();
    probe::<Wide<F64x4, 4>, 4>();
    probe::<F64x4, 8>();
    probe::<Wide<F64x4, 2>, 8>();
    probe::<Wide<F64x4, 4>, 8>();
}

/// MPFR at 53·N bits, on-CPU ns per step.
pub fn mpfr_probe(n: u32) {
    use rug::{Assign, Float};
    let prec = 53 * n;
    let a = Float::with_val(prec, Float::parse("1.4").unwrap());
    let b = Float::with_val(prec, Float::parse("0.3").unwrap());
    let mut x = Float::with_val(prec, 0.01);
    let mut y = Float::new(prec);
    let (mut x2, mut t, mut ny) = (Float::new(prec), Float::new(prec), Float::new(prec));
    let steps = 300_000;
    let c0 = oncpu();
    for _ in 0..steps {
        x2.assign(x.square_ref());
        t.assign(&a * &x2);
        ny.assign(&b * &x);
        y += 1u32;
        x.assign(&y - &t);
        std::mem::swap(&mut y, &mut ny);
    }
    let dt = oncpu() - c0;
    println!("MPFR {prec} bits: {:.2} ns/step", dt * 1e9 / steps as f64);
}
