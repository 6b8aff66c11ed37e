//! Measured accuracy of the fast tier (`Fast<f64, N>`, the search arithmetic) along a Hénon
//! orbit: from (0, 0) at (1.4, 0.3) for 100 steps, against a 3000-bit MPFR orbit with the same
//! parameters (the exact values of the expansions nearest 1.4 and 0.3). The error of a chaotic
//! orbit grows like e^{λk}, λ ≈ 0.42 (about 2^{0.6k}); the fast tier is not proven, so the test
//! asserts the measured behaviour with a margin: after 100 steps the error is below
//! 2^{80}·u^N (observed: 2^54 to 2^60 times u^N, the Lyapunov growth times a few u^N per step), and it
//! prints the error at steps 25, 50 and 100 in units of u^N. The per-operation accuracy of the
//! fast tier is measured in `src/fast.rs`'s tests.

use expanse_core::{bounds, henon_step, Expansion, Fast};
use rug::Float;

const PREC: u32 = 3000;

fn check<const N: usize>() {
    let a: Expansion<f64, N> = "1.4".parse().unwrap();
    let b: Expansion<f64, N> = "0.3".parse().unwrap();
    let (ar, br) = (
        Float::with_val(PREC, a.to_rug()),
        Float::with_val(PREC, b.to_rug()),
    );
    let (mut x, mut y) = (
        Fast(Expansion::<f64, N>::zero()),
        Fast(Expansion::<f64, N>::zero()),
    );
    let (mut xr, mut yr) = (Float::with_val(PREC, 0), Float::with_val(PREC, 0));
    let un = bounds::u_pow::<f64>(N);
    let mut line = format!("fast tier N={N}: |x − X| / u^N at steps");
    for k in 1..=100 {
        (x, y) = henon_step(&a, &b, &x, &y);
        let x2 = Float::with_val(PREC, xr.square_ref());
        let nxr = Float::with_val(PREC, &yr + 1u32) - Float::with_val(PREC, &ar * &x2);
        yr = Float::with_val(PREC, &br * &xr);
        xr = nxr;
        let dx = Float::with_val(PREC, &x.0.to_rug() - &xr).to_f64().abs();
        let dy = Float::with_val(PREC, &y.0.to_rug() - &yr).to_f64().abs();
        let e = dx.max(dy) / un;
        if [25, 50, 100].contains(&k) {
            line += &format!(" {k}: 2^{:.1};", e.log2());
        }
        if N >= 2 {
            assert!(
                e < 2f64.powi(80),
                "N={N} step {k}: error 2^{:.1} u^N",
                e.log2()
            );
        }
    }
    eprintln!("{line}");
}

#[test]
fn fast_tier_henon_orbit_tracks_mpfr() {
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
    check::<6>();
    check::<7>();
    check::<8>();
}
