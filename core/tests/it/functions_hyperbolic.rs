//! sinh, cosh, tanh, asinh, acosh, atanh against MPFR (the exact function of the exact input
//! expansion at 4·p·N + 64 bits), for every N = 1..8 and both term types: tiny arguments
//! (relative accuracy of the odd functions), the switch points of the algorithms, large
//! arguments up to overflow, acosh near 1 and atanh near ±1. Asserts the stated bound and
//! prints the worst error in units of u^N; also IEEE special values and monotonicity on
//! adjacent arguments. `EXPANSE_FULL_TESTS=1`: 10^5 cases per (function, N, T).

use crate::common::functions::*;
use crate::common::SplitMix;
use expanse_core::functions::Unary;
use expanse_core::{bounds, Expansion, FloatTerm, MAX_TERMS};
use rug::Float;

const FNS: [Unary; 6] = [
    Unary::Sinh,
    Unary::Cosh,
    Unary::Tanh,
    Unary::Asinh,
    Unary::Acosh,
    Unary::Atanh,
];

fn uniform(rng: &mut SplitMix, lo: f64, hi: f64) -> Float {
    let r = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    let v = Float::with_val(600, lo + (hi - lo) * r);
    v + rand_mag(rng, -60) * (lo.abs().max(hi.abs()))
}

fn inputs<T: FloatTerm>(f: Unary, n: usize, count: usize) -> Vec<Terms<T>> {
    let mut rng = SplitMix(0x4859_0000 ^ (n as u64) << 32 ^ T::PRECISION as u64 ^ f as u64);
    let p = T::PRECISION as i32 * n as i32;
    let (lo, hi) = crate::common::exponent_band::<T>(n);
    let big = (p as f64 + 6.0) * core::f64::consts::LN_2 / 2.0;
    let xmax = if T::PRECISION == 53 { 710.6 } else { 89.5 };
    let one = || Float::with_val(600, 1);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let s = rng.below(6);
        let v: Float = match f {
            Unary::Sinh | Unary::Cosh | Unary::Tanh => match s {
                0 => {
                    let e = -rng.range(1, p + 20).min(-lo - 2);
                    rand_mag(&mut rng, e)
                }
                1 => uniform(&mut rng, -2.0, 2.0),
                2 => uniform(&mut rng, -big - 1.0, big + 1.0),
                3 => uniform(&mut rng, -xmax, xmax),
                4 => {
                    let e = -rng.range(p / 2 - 2, p / 2 + 6);
                    rand_mag(&mut rng, e)
                }
                _ => {
                    let e = rng.range(-8, 4);
                    rand_mag(&mut rng, e)
                }
            },
            Unary::Asinh => match s {
                0 => {
                    let e = -rng.range(1, p + 20).min(-lo - 2);
                    rand_mag(&mut rng, e)
                }
                1 => uniform(&mut rng, -2.5, 2.5),
                2 => {
                    let e = rng.range(lo, hi);
                    rand_mag(&mut rng, e)
                }
                3 => {
                    let e = rng.range(p / 2 - 4, p / 2 + 6);
                    rand_mag(&mut rng, e)
                }
                4 => {
                    let e = -rng.range(p / 2 - 2, p / 2 + 6);
                    rand_mag(&mut rng, e)
                }
                _ => {
                    let e = rng.range(-8, 8);
                    rand_mag(&mut rng, e)
                }
            },
            Unary::Acosh => match s {
                0 | 1 => {
                    one() + {
                        let e = -rng.range(1, p + 20);
                        rand_mag(&mut rng, e)
                    }
                    .abs()
                }
                2 => uniform(&mut rng, 1.0, 3.0),
                3 => {
                    let e = rng.range(1, hi);
                    rand_mag(&mut rng, e)
                }
                .abs(),
                4 => {
                    let e = rng.range(p / 2 - 4, p / 2 + 6);
                    rand_mag(&mut rng, e)
                }
                .abs(),
                _ => uniform(&mut rng, 1.9, 2.1),
            },
            Unary::Atanh => match s {
                0 => {
                    let e = -rng.range(1, p + 20).min(-lo - 2);
                    rand_mag(&mut rng, e)
                }
                1 | 2 => {
                    let d = {
                        let e = -rng.range(1, p + 20);
                        rand_mag(&mut rng, e)
                    }
                    .abs();
                    (one() - d) * rng.sign()
                }
                3 => uniform(&mut rng, -0.999, 0.999),
                4 => {
                    let e = -rng.range(p / 2 - 2, p / 2 + 6);
                    rand_mag(&mut rng, e)
                }
                _ => {
                    let e = -rng.range(1, 8);
                    rand_mag(&mut rng, e)
                }
            },
            _ => unreachable!(),
        };
        out.push(input_near::<T>(&mut rng, &v, n));
    }
    out
}

fn oracle(f: Unary) -> impl Fn(&Float, u32) -> Float {
    move |x: &Float, prec: u32| {
        let x = Float::with_val(prec, x);
        match f {
            Unary::Sinh => x.sinh(),
            Unary::Cosh => x.cosh(),
            Unary::Tanh => x.tanh(),
            Unary::Asinh => x.asinh(),
            Unary::Acosh => x.acosh(),
            Unary::Atanh => x.atanh(),
            _ => unreachable!(),
        }
    }
}

fn suite<T: FloatTerm>() {
    for f in FNS {
        if !selected_function(f.name()) {
            continue;
        }
        for n in 1..=MAX_TERMS {
            if !selected_n(n) {
                continue;
            }
            let count = cases(if n <= 4 { 300 } else { 150 });
            let xs = inputs::<T>(f, n, count);
            let r = run_unary::<T>(f, n, &xs, &oracle(f));
            print_report::<T>(f.name(), n, &r);
            if expanse_core::functions::error_bound::<T>(f, n)
                .rel
                .is_finite()
            {
                assert!(r.cases > count as u64 / 4, "too few cases in range");
            }
        }
    }
}

#[test]
fn hyperbolic_vs_mpfr_f64() {
    suite::<f64>();
}

#[test]
fn hyperbolic_vs_mpfr_f32() {
    suite::<f32>();
}

fn same_special(got: f64, want: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    got == want && got.is_sign_negative() == want.is_sign_negative()
}

#[test]
fn hyperbolic_special_values() {
    let xs = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        0.5,
        2.0,
        -2.0,
        800.0,
        -800.0,
    ];
    type Std = (Unary, fn(f64) -> f64);
    let std: [Std; 6] = [
        (Unary::Sinh, f64::sinh),
        (Unary::Cosh, f64::cosh),
        (Unary::Tanh, f64::tanh),
        (Unary::Asinh, f64::asinh),
        (Unary::Acosh, f64::acosh),
        (Unary::Atanh, f64::atanh),
    ];
    for (f, g) in std {
        for &x in &xs {
            let want = g(x);
            if want.is_finite() && want != 0.0 && want.abs() != 1.0 {
                continue;
            }
            for n in 1..=MAX_TERMS {
                let t = truncate(Expansion::<f64, MAX_TERMS>::from_f64(x).terms(), n);
                let got = f64::eval_unary_terms(f, n, &t)[0];
                assert!(
                    same_special(got, want),
                    "{} f64x{n}({x}) = {got}, want {want}",
                    f.name()
                );
                let x32 = x as f32 as f64;
                let want32 = g(x32) as f32 as f64;
                if !want32.is_finite() || want32 == 0.0 || want32.abs() == 1.0 {
                    let t = truncate(Expansion::<f32, MAX_TERMS>::from_f64(x32).terms(), n);
                    let got = f32::eval_unary_terms(f, n, &t)[0] as f64;
                    assert!(
                        same_special(got, want32),
                        "{} f32x{n}({x32}) = {got}",
                        f.name()
                    );
                }
            }
        }
    }
    type D = Expansion<f64, 2>;
    // At ±MAX: sinh, cosh overflow; asinh, acosh are finite (≈ 710.4758600739439).
    let m = D::from_f64(f64::MAX);
    assert_eq!(m.sinh().hi(), f64::INFINITY);
    assert_eq!(m.neg().sinh().hi(), f64::NEG_INFINITY);
    assert_eq!(m.cosh().hi(), f64::INFINITY);
    assert!((m.asinh().hi() - 710.4758600739439).abs() < 1e-12);
    assert!((m.neg().asinh().hi() + 710.4758600739439).abs() < 1e-12);
    assert!((m.acosh().hi() - 710.4758600739439).abs() < 1e-12);
    assert_eq!(m.tanh().hi(), 1.0);
    // sinh/cosh stay finite just below their own overflow threshold (above exp's).
    assert!(D::from_f64(710.4).sinh().to_f64().is_finite());
    assert!(D::from_f64(710.4).cosh().to_f64().is_finite());
    assert_eq!(D::from_f64(710.5).cosh().hi(), f64::INFINITY);
    assert!(D::from_f64(0.5).acosh().is_nan());
    assert!(D::from_f64(2.0).atanh().is_nan());
    // 1 − 2^-80 as a double-double is below 1: atanh finite; acosh of 1 + 2^-80 is finite.
    let x = D::from_f64(1.0).sub(&D::from_f64(2f64.powi(-80)));
    assert!(x.atanh().to_f64().is_finite());
    assert!(x.acosh().is_nan());
    let x = D::from_f64(1.0).add(&D::from_f64(2f64.powi(-80)));
    assert!(x.acosh().to_f64() > 0.0);
}

/// Starting points where the function changes by more than its error over a step: in flat
/// regions (tanh beyond ~5, cosh near 0) adjacent results are ordered only up to the error
/// bound, since the functions are not correctly rounded.
#[test]
fn hyperbolic_monotone() {
    let mut rng = SplitMix(99);
    let cases: [(Unary, &[f64]); 6] = [
        (Unary::Sinh, &[-3.0, -1e-10, 0.4999, 40.0]),
        (Unary::Cosh, &[1.0, 50.0]),
        (Unary::Tanh, &[-1e-10, 0.2, 3.0]),
        (Unary::Asinh, &[-1e-10, 1.999999, 1e10]),
        (Unary::Acosh, &[1.0, 1.9999999, 1e10]),
        (Unary::Atanh, &[-0.9999999, -1e-10, 0.5]),
    ];
    for (f, starts) in cases {
        for &s in starts {
            for n in [1usize, 2, 3, 4, 8] {
                monotone::<f64>(f, n, s, &mut rng);
            }
            for n in [1usize, 2, 4] {
                monotone::<f32>(f, n, s as f32 as f64, &mut rng);
            }
        }
    }
}

#[test]
fn hyperbolic_stated_bounds() {
    for f in FNS {
        let mut line = format!("{:>7}:", f.name());
        for n in [1usize, 2, 4, 8] {
            let b = expanse_core::functions::error_bound::<f64>(f, n);
            assert!(b.rel.is_finite() && b.rel > 0.0);
            line += &format!(" f64x{n} {:.1}", b.rel / bounds::u_pow::<f64>(n));
        }
        for n in [1usize, 2, 4] {
            let b = expanse_core::functions::error_bound::<f32>(f, n);
            line += &format!(" f32x{n} {:.1}", b.rel / bounds::u_pow::<f32>(n));
        }
        eprintln!("{line}  (u^N)");
    }
}
