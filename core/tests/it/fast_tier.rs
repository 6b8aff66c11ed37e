//! Measured accuracy of the fast tier (`Fast<T, N>`, the search arithmetic) along a Hénon
//! orbit: from (0, 0) at (1.4, 0.3) for 100 steps, against a 3000-bit MPFR orbit with the same
//! parameters (the exact values of the expansions used for 1.4 and 0.3). The error of a chaotic
//! orbit grows like e^{λk}, λ ≈ 0.42 (about 2^{0.6k}); the fast tier is not proven, so the test
//! asserts the measured behaviour with a margin: after 100 steps (f64) the error is below
//! 2^{80}·u^N (observed: 2^54 to 2^60 times u^N, the Lyapunov growth times a few u^N per step),
//! and after 25 steps below 2^{30}·u^N (observed 2^{10} to 2^{16}) for both term types, except
//! f32 N = 7, 8, where u^N is below what the f32 exponent range holds (observed 2^{34} and
//! 2^{58} times u^N: there the error is asserted below 2^{−120}); it prints the error at steps 25, 50 and 100 in units of u^N. The per-operation
//! accuracy of the fast tier is measured in `src/fast.rs`'s tests.
//!
//! The orbits run through the library's run-time-N entry points
//! (`runtime::henon_iterate_scalar_per_orbit`, and for f32 also
//! `runtime::henon_iterate_per_orbit_f32`), one step per call, so this is also the check that a
//! run-time N reaches the instance with N terms: the instance with one term fewer would miss
//! the thresholds by 2^{53} (f64) or 2^{24} (f32), one with a different N would read the slices
//! wrongly. (The generic fast tier is compiled in the library, not again in this test binary.)

use expanse_core::runtime::{henon_iterate_per_orbit_f32, henon_iterate_scalar_per_orbit};
use expanse_core::{bounds, Expansion, FloatTerm};
use rug::Float;

const PREC: u32 = 3000;

/// The first `n` terms of the 8-term expansion nearest `s` (a prefix of an ulp-nonoverlapping
/// expansion is one), and its exact value.
fn parameter<T: FloatTerm>(s: &str, n: usize) -> (Vec<T>, Float) {
    let e: Expansion<T, 8> = s.parse().unwrap();
    let terms = e.terms()[..n].to_vec();
    let v = value(&terms);
    (terms, v)
}

/// The exact value of an expansion's terms.
fn value<T: FloatTerm>(terms: &[T]) -> Float {
    let mut v = Float::with_val(PREC, 0);
    for t in terms {
        v += Float::with_val(PREC, t.to_f64());
    }
    v
}

/// One step of the orbit through the library; `via_f32` takes the f32 per-orbit entry
/// point instead of the scalar reference.
fn step<T: FloatTerm>(n: usize, a: &[T], b: &[T], x: &mut [T], y: &mut [T], via_f32: bool) {
    if via_f32 {
        // Only called with T = f32 (the slices are reinterpreted, same layout).
        let cast = |s: &[T]| s.iter().map(|t| t.to_f64() as f32).collect::<Vec<f32>>();
        let (a32, b32) = (cast(a), cast(b));
        let (mut x32, mut y32) = (cast(x), cast(y));
        henon_iterate_per_orbit_f32(n, &a32, &b32, &mut x32, &mut y32, 1);
        for (t, v) in x.iter_mut().zip(&x32) {
            *t = T::from_f64(f64::from(*v));
        }
        for (t, v) in y.iter_mut().zip(&y32) {
            *t = T::from_f64(f64::from(*v));
        }
    } else {
        henon_iterate_scalar_per_orbit(n, a, b, x, y, 1);
    }
}

fn check<T: FloatTerm>(n: usize, via_f32: bool) {
    let (a, ar) = parameter::<T>("1.4", n);
    let (b, br) = parameter::<T>("0.3", n);
    let (mut x, mut y) = (vec![T::ZERO; n], vec![T::ZERO; n]);
    let (mut xr, mut yr) = (Float::with_val(PREC, 0), Float::with_val(PREC, 0));
    let un = bounds::u_pow::<T>(n);
    let steps = if T::PRECISION == 53 { 100 } else { 25 };
    let mut line = format!("fast tier {} N={n}: |x − X| / u^N at steps", T::NAME);
    for k in 1..=steps {
        step(n, &a, &b, &mut x, &mut y, via_f32);
        let x2 = Float::with_val(PREC, xr.square_ref());
        let nxr = Float::with_val(PREC, &yr + 1u32) - Float::with_val(PREC, &ar * &x2);
        yr = Float::with_val(PREC, &br * &xr);
        xr = nxr;
        let dx = Float::with_val(PREC, value(&x) - &xr).to_f64().abs();
        let dy = Float::with_val(PREC, value(&y) - &yr).to_f64().abs();
        let err = dx.max(dy);
        let e = err / un;
        if [25, 50, 100].contains(&k) {
            line += &format!(" {k}: 2^{:.1};", e.log2());
        }
        if n >= 2 && T::PRECISION == 53 {
            assert!(
                e < 2f64.powi(80),
                "N={n} step {k}: error 2^{:.1} u^N",
                e.log2()
            );
        }
        if k == 25 {
            if T::PRECISION == 53 || n <= 6 {
                assert!(
                    e < 2f64.powi(30),
                    "{} N={n} step 25: error 2^{:.1} u^N",
                    T::NAME,
                    e.log2()
                );
            } else {
                assert!(
                    err < 2f64.powi(-120),
                    "f32 N={n} step 25: error 2^{:.1}",
                    err.log2()
                );
            }
        }
    }
    eprintln!("{line}");
}

#[test]
fn fast_tier_henon_orbit_tracks_mpfr() {
    for n in 1..=8 {
        check::<f64>(n, false);
        check::<f32>(n, false);
        check::<f32>(n, true);
    }
}
