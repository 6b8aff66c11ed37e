//! exp, exp_m1, ln, ln_1p, log2, log10, cbrt, pow, powi and hypot against MPFR (the exact
//! function of the exact input expansion, at 4·p·N + 64 bits), for every N = 1..8 and both
//! term types: random arguments over the whole exponent range and the hard cases (exp near
//! k·ln 2 and the overflow/underflow thresholds, ln and log near 1 and near √2·2^k, ln_1p near
//! −1, pow with large exponents and x near 1, hypot with far-apart operands). Asserts the
//! stated bound ([`expanse_core::functions::error_bound`]) and prints the worst error in
//! units of u^N. Also: IEEE/C99 special values, monotonicity on adjacent arguments, powi.
//! `EXPANSE_FULL_TESTS=1` runs 10^5 cases per (function, N, T) instead of a few hundred.

use crate::common::functions::*;
use crate::common::{exponent_band, SplitMix};
use expanse_core::functions::exp_log::powi_error_bound;
use expanse_core::functions::{Binary, Unary};
use expanse_core::{bounds, Expansion, FloatTerm, MAX_TERMS};
use rug::float::Constant as RugConst;
use rug::ops::Pow;
use rug::Float;

/// ln 2 at `prec` bits.
fn ln2(prec: u32) -> Float {
    Float::with_val(prec, RugConst::Log2)
}

fn uniform(rng: &mut SplitMix, lo: f64, hi: f64) -> Float {
    let r = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    let v = Float::with_val(600, lo + (hi - lo) * r);
    // random tail below the f64 value
    v + rand_mag(rng, -60) * (lo.abs().max(hi.abs()))
}

/// Arguments of `f` for (T, n), `count` of them.
fn inputs<T: FloatTerm>(f: Unary, n: usize, count: usize, seed: u64) -> Vec<Terms<T>> {
    let mut rng = SplitMix(seed ^ (n as u64) << 32 ^ T::PRECISION as u64);
    let p = T::PRECISION as i32 * n as i32;
    let (lo, hi) = exponent_band::<T>(n);
    let f64t = T::PRECISION == 53;
    let (xmax, xmin) = if f64t {
        (709.7, -745.0)
    } else {
        (88.6, -103.0)
    };
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let s = rng.below(6);
        let v: Float = match f {
            Unary::Exp => match s {
                0 => {
                    let e = -rng.range(1, p + 20);
                    rand_mag(&mut rng, e)
                }
                1 => {
                    let e = rng.range(-10, 5);
                    rand_mag(&mut rng, e)
                }
                2 => {
                    let k = if f64t {
                        rng.range(-1070, 1020)
                    } else {
                        rng.range(-148, 126)
                    };
                    let d = {
                        let e = -rng.range(1, p + 10);
                        rand_mag(&mut rng, e)
                    };
                    ln2(700) * k + d
                }
                3 => uniform(&mut rng, xmin, xmax),
                4 => {
                    let edge = if rng.next() & 1 == 0 {
                        xmax + 0.08
                    } else {
                        xmin - 0.1
                    };
                    uniform(&mut rng, edge - 0.5, edge + 0.5)
                }
                _ => {
                    let e = rng.range(lo, 9);
                    rand_mag(&mut rng, e)
                }
            },
            Unary::ExpM1 => match s {
                0 => {
                    let e = -rng.range(1, p + 20);
                    rand_mag(&mut rng, e)
                }
                1 => uniform(&mut rng, -0.52, 0.52),
                2 => uniform(&mut rng, -40.0, 40.0),
                3 => {
                    let e = rng.range(-p - 5, 6);
                    rand_mag(&mut rng, e)
                }
                4 => uniform(
                    &mut rng,
                    -(p as f64 + 8.0) * core::f64::consts::LN_2,
                    -(p as f64 + 2.0) * core::f64::consts::LN_2,
                ),
                _ => uniform(&mut rng, xmin, xmax),
            },
            Unary::Ln | Unary::Log2 | Unary::Log10 => match s {
                0 | 1 => {
                    let e = rng.range(lo, hi);
                    rand_mag(&mut rng, e)
                }
                .abs(),
                2 => {
                    Float::with_val(600, 1) + {
                        let e = -rng.range(1, p + 30);
                        rand_mag(&mut rng, e)
                    }
                }
                3 => {
                    let k = rng.range(lo / 2, hi / 2);
                    (Float::with_val(600, 1) + {
                        let e = -rng.range(1, p + 10);
                        rand_mag(&mut rng, e)
                    }) << k.max(0) as u32
                        >> (-k).max(0) as u32
                }
                4 => {
                    let k = rng.range(-60, 60);
                    let b = Float::with_val(600, 2).sqrt()
                        * (Float::with_val(600, 1) + {
                            let e = -rng.range(1, 60);
                            rand_mag(&mut rng, e)
                        });
                    b << k.max(0) as u32 >> (-k).max(0) as u32
                }
                _ => {
                    let e = rng.range(-3, 3);
                    rand_mag(&mut rng, e)
                }
                .abs(),
            },
            Unary::Ln1p => match s {
                0 => {
                    let e = -rng.range(1, p + 30);
                    rand_mag(&mut rng, e)
                }
                1 => {
                    Float::with_val(600, -1) + {
                        let e = -rng.range(1, p + 30);
                        rand_mag(&mut rng, e)
                    }
                    .abs()
                }
                2 => {
                    let e = rng.range(0, hi);
                    rand_mag(&mut rng, e)
                }
                .abs(),
                3 => uniform(&mut rng, -0.999, 10.0),
                4 => {
                    let c = if rng.next() & 1 == 0 {
                        0.41421356
                    } else {
                        -0.29289322
                    };
                    uniform(&mut rng, c - 0.01, c + 0.01)
                }
                _ => {
                    let e = rng.range(-p, -1);
                    rand_mag(&mut rng, e)
                }
            },
            Unary::Cbrt => match s {
                0..=2 => {
                    let e = rng.range(lo, hi);
                    rand_mag(&mut rng, e)
                }
                3 => {
                    let e = rng.range(-4, 4);
                    rand_mag(&mut rng, e)
                }
                4 => {
                    let c = Float::with_val(600, rng.range(1, 1000));
                    let c3 = Float::with_val(600, c.pow(3u32));
                    c3 * (Float::with_val(600, 1) + {
                        let e = -rng.range(20, p + 10);
                        rand_mag(&mut rng, e)
                    })
                }
                _ => {
                    Float::with_val(600, 1) + {
                        let e = -rng.range(1, p + 10);
                        rand_mag(&mut rng, e)
                    }
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
            Unary::Exp => x.exp(),
            Unary::ExpM1 => x.exp_m1(),
            Unary::Ln => x.ln(),
            Unary::Ln1p => x.ln_1p(),
            Unary::Log2 => x.log2(),
            Unary::Log10 => x.log10(),
            Unary::Cbrt => x.cbrt(),
            _ => unreachable!(),
        }
    }
}

const UNARY: [Unary; 7] = [
    Unary::Exp,
    Unary::ExpM1,
    Unary::Ln,
    Unary::Ln1p,
    Unary::Log2,
    Unary::Log10,
    Unary::Cbrt,
];

fn unary_suite<T: FloatTerm>() {
    for f in UNARY {
        if !selected_function(f.name()) {
            continue;
        }
        for n in 1..=MAX_TERMS {
            if !selected_n(n) {
                continue;
            }
            let count = cases(if n <= 4 { 300 } else { 150 });
            let xs = inputs::<T>(f, n, count, 0x5EED_0001 + f as u64);
            let r = run_unary::<T>(f, n, &xs, &oracle(f));
            print_report::<T>(f.name(), n, &r);
            if error_bound_finite::<T>(f, n) {
                assert!(r.cases > count as u64 / 4, "too few cases in range");
            }
        }
    }
}

fn error_bound_finite<T: FloatTerm>(f: Unary, n: usize) -> bool {
    expanse_core::functions::error_bound::<T>(f, n)
        .rel
        .is_finite()
}

#[test]
fn exp_log_vs_mpfr_f64() {
    unary_suite::<f64>();
}

#[test]
fn exp_log_vs_mpfr_f32() {
    unary_suite::<f32>();
}

fn binary_inputs<T: FloatTerm>(f: Binary, n: usize, count: usize) -> Vec<(Terms<T>, Terms<T>)> {
    let mut rng = SplitMix(0xB1_0000 ^ (n as u64) << 32 ^ T::PRECISION as u64 ^ f as u64);
    let p = T::PRECISION as i32 * n as i32;
    let (lo, hi) = exponent_band::<T>(n);
    let zmax = if T::PRECISION == 53 { 700.0 } else { 85.0 };
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let s = rng.below(6);
        let (x, y): (Float, Float) = match f {
            Binary::Pow => match s {
                0 => (
                    {
                        let e = rng.range(-30, 30);
                        rand_mag(&mut rng, e)
                    }
                    .abs(),
                    {
                        let e = rng.range(-8, 4);
                        rand_mag(&mut rng, e)
                    },
                ),
                1 => {
                    // x near 1, y large: |y·ln x| up to zmax.
                    let a = rng.range(4, p.min(200));
                    let x = Float::with_val(600, 1) + rand_mag(&mut rng, -a);
                    let y = uniform(&mut rng, -zmax, zmax) << a as u32;
                    (x, y)
                }
                2 => (
                    {
                        let e = rng.range(-20, 20);
                        rand_mag(&mut rng, e)
                    }
                    .abs(),
                    Float::with_val(600, rng.range(-16, 16)),
                ),
                3 => (
                    -{
                        let e = rng.range(-3, 3);
                        rand_mag(&mut rng, e)
                    }
                    .abs(),
                    Float::with_val(600, rng.range(-300, 300)),
                ),
                4 => {
                    // large integer exponents
                    let y = Float::with_val(600, rng.range(1, 1 << 20)) * rng.sign();
                    let x = Float::with_val(600, 1) + {
                        let e = -rng.range(20, 40);
                        rand_mag(&mut rng, e)
                    };
                    (x, y)
                }
                _ => (
                    {
                        let e = rng.range(lo / 4, hi / 4);
                        rand_mag(&mut rng, e)
                    }
                    .abs(),
                    uniform(&mut rng, -3.0, 3.0),
                ),
            },
            Binary::Hypot => {
                let e = rng.range(lo + p + 20, hi - 2);
                let d = match s {
                    0 => 0,
                    1 => rng.range(0, 4),
                    2 => rng.range(0, p + 20),
                    _ => rng.range(0, 60),
                };
                (rand_mag(&mut rng, e), rand_mag(&mut rng, e - d))
            }
            Binary::Atan2 => unreachable!(),
        };
        let (xt, yt) = (
            input_near::<T>(&mut rng, &x, n),
            input_near::<T>(&mut rng, &y, n),
        );
        if rng.next() & 1 == 0 || f == Binary::Pow {
            out.push((xt, yt));
        } else {
            out.push((yt, xt));
        }
    }
    out
}

fn binary_suite<T: FloatTerm>() {
    for f in [Binary::Pow, Binary::Hypot] {
        for n in 1..=MAX_TERMS {
            let count = cases(if n <= 4 { 300 } else { 150 });
            let xs = binary_inputs::<T>(f, n, count);
            let r = run_binary::<T>(f, n, &xs, &|x: &Float, y: &Float, prec: u32| {
                let x = Float::with_val(prec, x);
                match f {
                    Binary::Pow => x.pow(y),
                    _ => x.hypot(y),
                }
            });
            print_report::<T>(f.name(), n, &r);
        }
    }
}

#[test]
fn pow_hypot_vs_mpfr() {
    binary_suite::<f64>();
    binary_suite::<f32>();
}

/// powi at a few typed N against MPFR, with the bound of `powi_error_bound`.
fn powi_case<T: FloatTerm, const N: usize>(rng: &mut SplitMix) -> f64 {
    let mut worst = 0.0f64;
    for _ in 0..cases(200) {
        let k = match rng.below(3) {
            0 => rng.range(-20, 20),
            1 => rng.range(-2000, 2000),
            _ => rng.range(-70000, 70000),
        };
        let e = rng.range(-2, 2);
        let a = -rng.range(1, 30);
        let xv = Float::with_val(600, 1) + rand_mag(rng, a);
        let xv = xv << e.max(0) as u32 >> (-e).max(0) as u32;
        let x: Expansion<T, N> = Expansion::from_rug(&xv);
        let xe = x.to_rug();
        let want = Float::with_val(oracle_prec::<T>(N), xe.pow(k));
        if !crate::common::in_range::<T>(N, &want) {
            continue;
        }
        let got = x.powi(k);
        let e = (Float::with_val(3000, &got.to_rug() - &want) / &want)
            .to_f64()
            .abs();
        let b = powi_error_bound::<T>(N, k);
        assert!(
            e <= b.rel,
            "powi {}x{N} x={:?} k={k}: {e:e} > {:e}",
            T::NAME,
            x,
            b.rel
        );
        worst = worst.max(e / b.rel);
    }
    worst
}

#[test]
fn powi_vs_mpfr_and_special() {
    let mut rng = SplitMix(77);
    let w = [
        powi_case::<f64, 1>(&mut rng),
        powi_case::<f64, 2>(&mut rng),
        powi_case::<f64, 4>(&mut rng),
        powi_case::<f64, 8>(&mut rng),
        powi_case::<f32, 1>(&mut rng),
        powi_case::<f32, 2>(&mut rng),
        powi_case::<f32, 4>(&mut rng),
    ];
    eprintln!("powi: worst error / bound at f64 N=1,2,4,8, f32 N=1,2,4: {w:.3?}");
    type D = Expansion<f64, 2>;
    let nan = D::from_f64(f64::NAN);
    assert_eq!(nan.powi(0).to_f64(), 1.0);
    assert!(nan.powi(3).is_nan());
    assert_eq!(D::from_f64(0.0).powi(-1).hi(), f64::INFINITY);
    assert_eq!(D::from_f64(-0.0).powi(-3).hi(), f64::NEG_INFINITY);
    assert_eq!(D::from_f64(-0.0).powi(2).hi().to_bits(), 0.0f64.to_bits());
    assert_eq!(D::from_f64(1e200).powi(2).hi(), f64::INFINITY);
    assert_eq!(D::from_f64(-1e200).powi(3).hi(), f64::NEG_INFINITY);
    assert_eq!(D::from_f64(1e-200).powi(-2).hi(), f64::INFINITY);
    assert_eq!(D::from_f64(3.0).powi(4).to_f64(), 81.0);
}

/// The unary function through the dispatch on an n-term expansion holding an f64 value.
fn f_of<T: FloatTerm>(f: Unary, n: usize, v: f64) -> Terms<T> {
    let t = truncate(Expansion::<T, MAX_TERMS>::from_f64(v).terms(), n);
    T::eval_unary_terms(f, n, &t)
}

fn same_special(got: f64, want: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    got == want && got.is_sign_negative() == want.is_sign_negative()
}

#[test]
fn exp_log_special_values() {
    let xs = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        -2.0,
        0.5,
        1000.0,
        -1000.0,
        f64::MAX,
        -f64::MAX,
    ];
    type Std = (Unary, fn(f64) -> f64);
    let std: [Std; 7] = [
        (Unary::Exp, f64::exp),
        (Unary::ExpM1, f64::exp_m1),
        (Unary::Ln, f64::ln),
        (Unary::Ln1p, f64::ln_1p),
        (Unary::Log2, f64::log2),
        (Unary::Log10, f64::log10),
        (Unary::Cbrt, f64::cbrt),
    ];
    for (f, g) in std {
        for &x in &xs {
            let want = g(x);
            let exact_case = !want.is_finite() || want == 0.0 || want.abs() == 1.0;
            if !exact_case {
                continue;
            }
            for n in 1..=MAX_TERMS {
                let got = f_of::<f64>(f, n, x)[0];
                assert!(
                    same_special(got, want),
                    "{} f64x{n}({x}) = {got}, want {want}",
                    f.name()
                );
                let x32 = x as f32 as f64;
                let want32 = g(x32) as f32 as f64;
                if !want32.is_finite() || want32 == 0.0 || want32.abs() == 1.0 {
                    let got = f_of::<f32>(f, n, x32)[0] as f64;
                    assert!(
                        same_special(got, want32),
                        "{} f32x{n}({x32}) = {got}, want {want32}",
                        f.name()
                    );
                }
            }
        }
    }
    // Threshold behaviour: overflow to +∞ just above ln(MAX), underflow to 0.
    for n in 1..=MAX_TERMS {
        assert_eq!(f_of::<f64>(Unary::Exp, n, 709.8)[0], f64::INFINITY);
        assert!(f_of::<f64>(Unary::Exp, n, 709.7)[0].is_finite());
        assert_eq!(f_of::<f64>(Unary::Exp, n, -746.0)[0], 0.0);
        assert!(f_of::<f64>(Unary::Exp, n, -744.0)[0] > 0.0);
        assert_eq!(f_of::<f32>(Unary::Exp, n, 88.8)[0], f32::INFINITY);
        assert_eq!(f_of::<f64>(Unary::Ln1p, n, -1.0)[0], f64::NEG_INFINITY);
        assert!(f_of::<f64>(Unary::Ln, n, -1e-300)[0].is_nan());
        assert_eq!(f_of::<f64>(Unary::Log2, n, 0.125)[0], -3.0);
    }
}

#[test]
fn pow_hypot_special_values() {
    let vals = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        2.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for &x in &vals {
        for &y in &vals {
            let want = x.powf(y);
            let wanth = x.hypot(y);
            for n in [1usize, 2, 3, 8] {
                let tx = truncate(Expansion::<f64, MAX_TERMS>::from_f64(x).terms(), n);
                let ty = truncate(Expansion::<f64, MAX_TERMS>::from_f64(y).terms(), n);
                let got = f64::eval_binary_terms(Binary::Pow, n, &tx, &ty)[0];
                if !want.is_finite() || want == 0.0 || want.abs() == 1.0 || want.is_nan() {
                    assert!(
                        same_special(got, want),
                        "pow f64x{n}({x}, {y}) = {got}, want {want}"
                    );
                } else {
                    assert!(
                        (got - want).abs() <= 1e-15 * want.abs(),
                        "pow({x}, {y}) = {got}"
                    );
                }
                let goth = f64::eval_binary_terms(Binary::Hypot, n, &tx, &ty)[0];
                if !wanth.is_finite() || wanth == 0.0 {
                    assert!(same_special(goth, wanth), "hypot({x}, {y}) = {goth}");
                } else {
                    assert!(
                        (goth - wanth).abs() <= 1e-15 * wanth,
                        "hypot({x}, {y}) = {goth}"
                    );
                }
            }
        }
    }
    // y not an integer only in a lower term: x < 0 gives NaN; an integer y gives the sign.
    type D = Expansion<f64, 2>;
    let y = D::from_f64(3.0).add(&D::from_f64(2f64.powi(-60)));
    assert!(D::from_f64(-2.0).pow(&y).is_nan());
    let y = D::from_f64(2f64.powi(60)).add(&D::from_f64(1.0));
    assert!(D::from_f64(-1.0).pow(&y).to_f64() == -1.0);
    assert_eq!(
        D::from_f64(-0.0).pow(&y).hi().to_bits(),
        (-0.0f64).to_bits()
    );
    // Overflow, underflow.
    assert_eq!(
        D::from_f64(10.0).pow(&D::from_f64(400.0)).hi(),
        f64::INFINITY
    );
    assert_eq!(D::from_f64(10.0).pow(&D::from_f64(-400.0)).to_f64(), 0.0);
    assert_eq!(
        D::from_f64(f64::MAX).hypot(&D::from_f64(f64::MAX)).hi(),
        f64::INFINITY
    );
    let h = D::from_f64(3e300).hypot(&D::from_f64(4e300)).to_f64();
    assert!((h - 5e300).abs() <= 1e286);
}

#[test]
fn exp_log_monotone() {
    let mut rng = SplitMix(4242);
    let cases: [(Unary, &[f64]); 7] = [
        (Unary::Exp, &[-700.3, -3.1, -1e-9, 0.34657, 1.5, 300.0]),
        (Unary::ExpM1, &[-0.5, -1e-20, 0.49999999, 2.0]),
        (
            Unary::Ln,
            &[
                1e-300,
                core::f64::consts::FRAC_1_SQRT_2,
                0.99999999,
                1.0,
                core::f64::consts::SQRT_2,
                1e250,
            ],
        ),
        (Unary::Ln1p, &[-0.9999, -1e-30, 0.41421356, 1e10]),
        (Unary::Log2, &[0.99999999, 1.0, 3.0]),
        (Unary::Log10, &[0.99999999, 10.0]),
        (
            Unary::Cbrt,
            &[-8.0, -1e-100, 1e-100, 0.999999999, 27.0, 1e300],
        ),
    ];
    for (f, starts) in cases {
        for &s in starts {
            for n in [1usize, 2, 3, 4, 8] {
                monotone::<f64>(f, n, s, &mut rng);
            }
            let s32 = s as f32 as f64;
            if s32.is_finite() && (s32 == 0.0 || s32.abs() > 1e-30) && s32.abs() < 1e30 {
                for n in [1usize, 2, 4] {
                    monotone::<f32>(f, n, s32, &mut rng);
                }
            }
        }
    }
}

/// Stated bounds, printed for the report, and sanity: finite where proven, growing with N in
/// absolute terms no faster than the tier's.
#[test]
fn exp_log_stated_bounds() {
    for f in UNARY {
        let mut line = format!("{:>7}:", f.name());
        for n in [1usize, 2, 4, 8] {
            let b = expanse_core::functions::error_bound::<f64>(f, n);
            assert!(b.rel.is_finite() && b.rel > 0.0);
            assert!(b.rel < 1e5 * bounds::u_pow::<f64>(n) * (1u64 << n) as f64);
            line += &format!(" f64x{n} {:.1}", b.rel / bounds::u_pow::<f64>(n));
        }
        for n in [1usize, 2, 4] {
            let b = expanse_core::functions::error_bound::<f32>(f, n);
            assert!(b.rel.is_finite());
            line += &format!(" f32x{n} {:.1}", b.rel / bounds::u_pow::<f32>(n));
        }
        eprintln!("{line}  (u^N)");
    }
}

/// Timing of exp, ln, sin, atan (f64, N = 2, 4, 8) against MPFR at the same precision, on the
/// arguments of `expanse bench functions` (best of 5 runs; run with `--ignored --nocapture`).
#[test]
#[ignore]
fn functions_timing() {
    use std::hint::black_box;
    use std::time::Instant;
    let third: Expansion<f64, 8> = "0.333333333333333333333333333333333333333333333333333333"
        .parse()
        .unwrap();
    let fs = [Unary::Exp, Unary::Ln, Unary::Sin, Unary::Atan];
    let only = std::env::var("TIMING_ONLY").ok();
    for f in fs {
        if let Some(o) = &only {
            if !o.split(',').any(|s| s == f.name()) {
                continue;
            }
        }
        let (lo, hi) = match f {
            Unary::Exp => (-20.0, 20.0),
            Unary::Ln => (1e-3, 1e3),
            _ => (-10.0, 10.0),
        };
        let args: Vec<f64> = (0..64)
            .map(|k| {
                let t = (k as f64 + 0.5) / 64.0 + 1e-3 * ((k * 7919) % 61) as f64;
                lo + (hi - lo) * t.min(1.0)
            })
            .collect();
        for n in [1usize, 2, 4, 8] {
            let xs: Vec<[f64; MAX_TERMS]> = args
                .iter()
                .map(|&a| {
                    let v = third.mul_term(a).add_term(a);
                    let mut out = [0.0; MAX_TERMS];
                    out[..n].copy_from_slice(&v.terms()[..n]);
                    out
                })
                .collect();
            let time = |g: &mut dyn FnMut()| {
                let mut reps = 1;
                loop {
                    let t0 = Instant::now();
                    for _ in 0..reps {
                        g();
                    }
                    if t0.elapsed().as_secs_f64() > 0.01 {
                        break;
                    }
                    reps *= 2;
                }
                let mut best = f64::INFINITY;
                for _ in 0..5 {
                    let t0 = Instant::now();
                    for _ in 0..reps {
                        g();
                    }
                    best = best.min(t0.elapsed().as_secs_f64() / (reps * 64) as f64 * 1e9);
                }
                best
            };
            let ns = time(&mut || {
                for x in &xs {
                    black_box(expanse_core::functions::eval_unary_f64(f, n, black_box(x)));
                }
            });
            let bits = 53 * n as u32;
            let mp: Vec<Float> = args.iter().map(|&a| Float::with_val(bits, a)).collect();
            let mut out = Float::new(bits);
            let mns = time(&mut || {
                for x in &mp {
                    use rug::Assign;
                    match f {
                        Unary::Exp => out.assign(x.exp_ref()),
                        Unary::Ln => out.assign(x.ln_ref()),
                        Unary::Sin => out.assign(x.sin_ref()),
                        _ => out.assign(x.atan_ref()),
                    }
                    black_box(&out);
                }
            });
            println!(
                "TIMING {:5} N={} {:8.0} ns  MPFR-{} {:8.0} ns  ratio {:.2}",
                f.name(),
                n,
                ns,
                bits,
                mns,
                mns / ns
            );
        }
    }
}

/// Timing of the accurate tier's operations at N = 2, 4, 8 (f64), for the cost models of the
/// elementary functions (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn functions_op_timing() {
    fn one<const N: usize>() {
        use std::hint::black_box;
        use std::time::Instant;
        let third: Expansion<f64, 8> = "0.333333333333333333333333333333333333333333333333333333"
            .parse()
            .unwrap();
        let mut t = [0.0; N];
        t.copy_from_slice(&third.terms()[..N]);
        let a = Expansion::<f64, N>::from_terms(t);
        let b = a.mul_term(1.7).add_term(0.1);
        let time = |name: &str, g: &dyn Fn() -> Expansion<f64, N>| {
            let reps = 200_000;
            let mut best = f64::INFINITY;
            for _ in 0..5 {
                let t0 = Instant::now();
                for _ in 0..reps {
                    black_box(g());
                }
                best = best.min(t0.elapsed().as_secs_f64() / reps as f64 * 1e9);
            }
            println!("OPTIME N={N} {name:9} {best:7.1} ns");
        };
        time("mul", &|| black_box(a).mul(&black_box(b)));
        time("add", &|| black_box(a).add(&black_box(b)));
        time("add_term", &|| black_box(a).add_term(black_box(3.0)));
        time("mul_term", &|| black_box(a).mul_term(black_box(3.0)));
        time("div", &|| black_box(a).div(&black_box(b)));
    }
    one::<2>();
    one::<3>();
    one::<4>();
    one::<8>();
}

/// The chunks of ln 2 of ln's N = 2 combination (`functions::device::term_tables`,
/// `LN2_CHUNKS`) against MPFR's ln 2: chunk i·2^{w(i+1)} is an integer below 2^w (w = 42 for
/// f64, 16 for f32, so that k·C_i is exact for |k| < 2^b), and the chunks used are the
/// truncation of ln 2: 0 ≤ ln 2 − ΣC_i < 2^{−w(i+1)}.
#[test]
fn ln2_chunks_against_mpfr() {
    use expanse_core::functions::device::term_tables;
    fn check<T: FloatTerm>(w: i32, m: usize) {
        let t = term_tables::<T>()
            .into_iter()
            .find(|t| t.name == "LN2_CHUNKS")
            .expect("LN2_CHUNKS table");
        let ln2 = Float::with_val(1000, rug::float::Constant::Log2);
        let mut sum = Float::with_val(1000, 0);
        for i in 0..t.cols {
            let c = T::from_bits_u64(t.bits[i]).to_f64();
            if i >= m {
                assert_eq!(c, 0.0, "{} chunk {i} past the {m} used", T::NAME);
                continue;
            }
            let scaled = Float::with_val(1000, c) << (w * (i as i32 + 1));
            assert!(
                scaled.is_integer(),
                "{} chunk {i} has more than {w} bits",
                T::NAME
            );
            assert!(scaled >= 0 && scaled < (1u64 << w), "{} chunk {i}", T::NAME);
            sum += c;
            let rest = Float::with_val(1000, &ln2 - &sum);
            let lim = Float::with_val(1000, 1) >> (w * (i as i32 + 1));
            assert!(
                rest >= 0 && rest < lim,
                "{} chunks 0..={i} not ln 2 truncated",
                T::NAME
            );
        }
    }
    check::<f64>(42, 3);
    check::<f32>(16, 4);
}

/// The reciprocal tables of ln at f64 N = 2 (`ln_dd.rs`, through `device::f64_params`, the
/// data the CPU reads and the GPU program is generated from), against MPFR at 1000 bits: r is
/// the f64 nearest 128/j (j = 90..=182) or 1/(1 + j·2^−14) (j = −91..=91), and the three
/// terms are a greedy expansion of −ln r (each term the f64 nearest the rest) whose sum is
/// within 1.01·u³·|ln r| of it (the bound `ln_dd_rel` uses); the rows for r = 1 are zero.
#[test]
fn ln_dd_tables_against_mpfr() {
    use expanse_core::functions::device;
    let prec = 1000;
    let params = device::f64_params::<f64>();
    let get = |name: &str| {
        params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no table {name}"))
    };
    let u = f64::EPSILON / 2.0;
    let check = |table: &[f64], js: std::ops::RangeInclusive<i32>, recip: &dyn Fn(i32) -> Float| {
        assert_eq!(table.len(), 4 * js.clone().count());
        for (row, j) in table.chunks(4).zip(js) {
            let want_r = recip(j).to_f64();
            assert_eq!(row[0].to_bits(), want_r.to_bits(), "r for j = {j}");
            let want = -Float::with_val(prec, Float::with_val(prec, row[0]).ln_ref());
            // Quantised terms (ln_dd.rs, step 5): t₀ the nearest multiple of 2^−42, t₁ the
            // nearest multiple of 2^−84 of the rest, t₂ the rest of that to nearest.
            let mut rest = want.clone();
            for (i, q) in [(0usize, 42i32), (1, 84)] {
                let scaled = Float::with_val(prec, &rest << q);
                let nearest = Float::with_val(prec, scaled.round_ref()) >> q;
                let t = row[1 + i];
                assert_eq!(
                    Float::with_val(prec, t),
                    nearest,
                    "term {i} of -ln r, j = {j}: {t:e}"
                );
                assert_eq!(
                    Float::with_val(prec, Float::with_val(prec, t) << q).fract(),
                    0,
                    "j = {j}"
                );
                rest -= t;
            }
            let t2 = row[3];
            assert!(t2 == rest.to_f64(), "term 2, j = {j}: {t2:e}");
            assert!(t2.abs() <= 2f64.powi(-85), "j = {j}");
            rest -= t2;
            let err = rest.to_f64().abs();
            assert!(err <= 2f64.powi(-138), "j = {j}: tail {err:e}");
            let _ = u;
            if want_r == 1.0 {
                assert!(row[1..].iter().all(|&t| t == 0.0), "j = {j}");
            }
        }
    };
    check(&get("LN_R1"), 90..=182, &|j| {
        Float::with_val(prec, Float::with_val(prec, 128) / j)
    });
    check(&get("LN_R2"), -91..=91, &|j| {
        let d = Float::with_val(prec, 1) + Float::with_val(prec, j) / 16384u32;
        Float::with_val(prec, Float::with_val(prec, 1) / d)
    });
}
