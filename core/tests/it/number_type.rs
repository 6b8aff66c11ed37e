//! `Expansion` as a number type: the operators are the accurate tier's named methods bit for
//! bit (also mixed with the term type, by reference, `*Assign`, `Sum`, `Product`); `floor`,
//! `ceil`, `round`, `trunc`, `fract` are exact against MPFR on adversarial expansions (integer
//! leading terms with lower terms of either sign, half-integers, tails that push across an
//! integer); `%` and `mul_add` against exact MPFR values; the num-traits conversions and
//! constants against MPFR; generic code over `num_traits::Float` runs; and nalgebra's LU, QR
//! and Cholesky solve the order-12 Hilbert system in quad-double to ~1e-45 against the exact
//! rational solution, where f64 gets no digit right.

// The operators are tested by value and by reference on purpose.
#![allow(clippy::op_ref)]

use crate::common::*;
use expanse_core::{bounds, DoubleDouble, Expansion, FloatTerm, QuadDouble};
use nalgebra::{DMatrix, DVector};
use num_traits::{
    Bounded, Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive, Zero,
};
use rug::ops::Pow;
use rug::{Float as MpFloat, Rational};
use std::num::FpCategory;

fn bits<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Vec<u64> {
    x.terms().iter().map(|t| t.to_bits_u64()).collect()
}

fn same<T: FloatTerm, const N: usize>(a: &Expansion<T, N>, b: &Expansion<T, N>, what: &str) {
    assert_eq!(
        bits(a),
        bits(b),
        "{what}: {:?} vs {:?}",
        a.terms(),
        b.terms()
    );
}

fn operators_case<T, const N: usize>(seed: u64)
where
    T: FloatTerm
        + core::ops::Add<Expansion<T, N>, Output = Expansion<T, N>>
        + core::ops::Sub<Expansion<T, N>, Output = Expansion<T, N>>
        + core::ops::Mul<Expansion<T, N>, Output = Expansion<T, N>>
        + core::ops::Div<Expansion<T, N>, Output = Expansion<T, N>>,
{
    let mut rng = SplitMix(seed);
    for _ in 0..300 {
        let x: Expansion<T, N> = {
            let e = rng.range(-20, 20);
            rand_expansion(&mut rng, e)
        };
        let y: Expansion<T, N> = {
            let e = rng.range(-20, 20);
            rand_expansion(&mut rng, e)
        };
        let t: T = {
            let e = rng.range(-10, 10);
            rand_term(&mut rng, e)
        };
        same(&(x + y), &x.add(&y), "x + y");
        same(&(&x + &y), &x.add(&y), "&x + &y");
        same(&(x + &y), &x.add(&y), "x + &y");
        same(&(&x + y), &x.add(&y), "&x + y");
        same(&(x - y), &x.sub(&y), "x - y");
        same(&(x * y), &x.mul(&y), "x * y");
        same(&(&x * &y), &x.mul(&y), "&x * &y");
        same(&(x / y), &x.div(&y), "x / y");
        same(&(-x), &x.neg(), "-x");
        same(&(-&x), &x.neg(), "-&x");
        same(&(x % y), &x.rem(&y), "x % y");
        let mut z = x;
        z += y;
        same(&z, &x.add(&y), "+=");
        z = x;
        z -= &y;
        same(&z, &x.sub(&y), "-=");
        z = x;
        z *= y;
        same(&z, &x.mul(&y), "*=");
        z = x;
        z /= y;
        same(&z, &x.div(&y), "/=");
        z = x;
        z %= y;
        same(&z, &x.rem(&y), "%=");
        // Mixed with the term type.
        same(&(x + t), &x.add_term(t), "x + t");
        same(&(x - t), &x.add_term(-t), "x - t");
        same(&(x * t), &x.mul_term(t), "x * t");
        same(&(x / t), &x.div_term(t), "x / t");
        same(&(&x * t), &x.mul_term(t), "&x * t");
        same(&(t + x), &x.add_term(t), "t + x");
        same(&(t - x), &x.neg().add_term(t), "t - x");
        same(&(t * x), &x.mul_term(t), "t * x");
        same(&(t / x), &Expansion::from_term(t).div(&x), "t / x");
        z = x;
        z += t;
        same(&z, &x.add_term(t), "+= t");
        z = x;
        z *= t;
        same(&z, &x.mul_term(t), "*= t");
        z = x;
        z /= t;
        same(&z, &x.div_term(t), "/= t");
        // t − x is exact negation then the accurate add: check the value too.
        let want = MpFloat::with_val(PREC, t.to_f64()) - exact(&x);
        assert!(rel_err(&(t - x), &want) <= bounds::add_rel_bound::<T>(N));
    }
    let v: Vec<Expansion<T, N>> = (0..20)
        .map(|i| rand_expansion(&mut rng, i % 7 - 3))
        .collect();
    let s = v.iter().fold(Expansion::zero(), |a, b| a.add(b));
    same(&v.iter().sum::<Expansion<T, N>>(), &s, "Sum<&>");
    same(&v.iter().copied().sum::<Expansion<T, N>>(), &s, "Sum");
    let p = v.iter().fold(Expansion::one(), |a, b| a.mul(b));
    same(&v.iter().product::<Expansion<T, N>>(), &p, "Product<&>");
    same(&v.into_iter().product::<Expansion<T, N>>(), &p, "Product");
}

#[test]
fn operators_are_the_named_methods_bit_for_bit() {
    operators_case::<f64, 1>(11);
    operators_case::<f64, 2>(12);
    operators_case::<f64, 3>(13);
    operators_case::<f64, 4>(14);
    operators_case::<f32, 2>(15);
    operators_case::<f32, 4>(16);
    // Literals of the term type.
    let x = QuadDouble::from_term(3.0);
    assert_eq!(x + 1.5, QuadDouble::from_term(4.5));
    assert_eq!(x * 2.0f64, QuadDouble::from_term(6.0));
    assert_eq!(1.0 - x, QuadDouble::from_term(-2.0));
    assert_eq!(
        Expansion::<f32, 2>::from_term(3.0) / 2.0f32,
        Expansion::from_term(1.5f32)
    );
    assert_eq!(
        Vec::<QuadDouble>::new().into_iter().sum::<QuadDouble>(),
        QuadDouble::zero()
    );
}

/// Adversarial inputs for the roundings: a value near an integer or half-integer, with lower
/// terms of either sign (including the largest tails the invariant allows), plus random ones.
fn rounding_inputs<T: FloatTerm, const N: usize>(
    rng: &mut SplitMix,
    count: usize,
) -> Vec<Expansion<T, N>> {
    let p = T::PRECISION as i32;
    let mut out = Vec::new();
    for i in 0..count {
        let mut t = [T::ZERO; N];
        let e = rng.range(-3, p + 30);
        let base = rand_term::<T>(rng, e).to_f64();
        // An integer, a half-integer, or a number with a small fraction.
        let lead = match i % 4 {
            0 => base.trunc(),
            1 => base.trunc() + 0.5 * rng.sign(),
            2 => base,
            _ => base.trunc() + rng.sign() * pow2(-rng.range(1, p - 1)),
        };
        t[0] = T::from_f64(lead);
        if !t[0].is_finite() || t[0].to_f64() != lead {
            t[0] = T::from_f64(base.trunc());
        }
        for k in 1..N {
            let u = expanse_core::float::ulp(t[k - 1]).to_f64();
            let s = rng.sign();
            let v = match rng.below(6) {
                0 => s * u,
                1 => s * u / 2.0,
                2 => break,
                3 => s * pow2(log2i(u) - rng.range(1, 30)),
                _ => rand_term::<T>(rng, log2i(u) - 1).to_f64(),
            };
            t[k] = T::from_f64(v);
        }
        let x = Expansion::try_from_normalized(t).unwrap_or_else(|| Expansion::from_terms(t));
        out.push(x);
    }
    // Tails that push across an integer: t0 = ±2^k(1 + 2u) is not an integer, t0 + t1 = ±2^k
    // is, and t2 = ±ulp(t1) decides on which side of it the value lies.
    if N >= 3 {
        for s in [T::ONE, -T::ONE] {
            for k in [0, 5, 10] {
                for s2 in [T::ONE, -T::ONE] {
                    let mut t = [T::ZERO; N];
                    t[0] = s * (T::ONE.ldexp(k) + T::ONE.ldexp(k + 1 - p));
                    t[1] = -s * expanse_core::float::ulp(t[0]);
                    t[2] = s2 * expanse_core::float::ulp(t[1]);
                    out.push(Expansion::try_from_normalized(t).expect("valid expansion"));
                }
            }
        }
    }
    out
}

fn rounding_case<T: FloatTerm, const N: usize>(seed: u64) {
    let mut rng = SplitMix(seed);
    let xs = rounding_inputs::<T, N>(&mut rng, 400);
    let mut crossed = 0;
    for x in &xs {
        let v = exact(x);
        let check = |got: Expansion<T, N>, want: MpFloat, what: &str| {
            assert!(got.is_finite(), "{what}({:?}) not finite", x.terms());
            assert_eq!(
                exact(&got),
                want,
                "{} N={N} {what}({:?}) = {:?}",
                T::NAME,
                x.terms(),
                got.terms()
            );
        };
        let fl = MpFloat::with_val(PREC, v.floor_ref());
        if fl != MpFloat::with_val(PREC, x.hi().to_f64()).floor() {
            crossed += 1;
        }
        check(x.floor(), fl, "floor");
        check(x.ceil(), MpFloat::with_val(PREC, v.ceil_ref()), "ceil");
        check(x.trunc(), MpFloat::with_val(PREC, v.trunc_ref()), "trunc");
        // MPFR's round: halfway cases away from zero, as f64::round.
        check(x.round(), MpFloat::with_val(PREC, v.round_ref()), "round");
        check(
            x.fract(),
            MpFloat::with_val(PREC, &v - MpFloat::with_val(PREC, v.trunc_ref())),
            "fract",
        );
        // The num-traits forms are the same methods.
        same(&Float::floor(*x), &x.floor(), "Float::floor");
        same(&Float::round(*x), &x.round(), "Float::round");
        same(&Float::fract(*x), &x.fract(), "Float::fract");
    }
    // The inputs do exercise the case where the leading term alone gives the wrong answer.
    assert!(
        crossed > 10,
        "{} N={N}: only {crossed} cases where the lower terms matter",
        T::NAME
    );
}

#[test]
fn roundings_are_exact_against_mpfr() {
    rounding_case::<f64, 2>(21);
    rounding_case::<f64, 3>(22);
    rounding_case::<f64, 4>(23);
    rounding_case::<f64, 8>(24);
    rounding_case::<f32, 2>(25);
    rounding_case::<f32, 4>(26);
    // Signs of zero as IEEE: ceil(−0.25) = −0, floor(0.25) = +0, round(−0.25) = −0.
    let q = |v: f64| DoubleDouble::from_term(v);
    assert!(q(-0.25).ceil().hi().is_sign_negative());
    assert!(q(0.25).floor().hi().is_sign_positive());
    assert!(q(-0.25).round().hi().is_sign_negative());
    assert!(q(f64::INFINITY).fract().is_nan());
    assert_eq!(q(f64::NEG_INFINITY).floor().hi(), f64::NEG_INFINITY);
}

fn rem_mul_add_case<T: FloatTerm, const N: usize>(seed: u64) {
    let mut rng = SplitMix(seed);
    let rho = bounds::round_rel_bound::<T>(N);
    for _ in 0..300 {
        let x: Expansion<T, N> = {
            let e = rng.range(-5, 40);
            rand_expansion(&mut rng, e)
        };
        let y: Expansion<T, N> = {
            let e = rng.range(-5, 10);
            rand_expansion(&mut rng, e)
        };
        // x % y: exact remainder of the truncated quotient, rounded once.
        let (xv, yv) = (exact(&x), exact(&y));
        let q = MpFloat::with_val(PREC, &xv / &yv).trunc();
        let r = MpFloat::with_val(PREC, &xv - MpFloat::with_val(PREC, &q * &yv));
        let got = x % y;
        if r.is_zero() {
            assert!(got.is_zero());
        } else {
            assert!(
                rel_err(&got, &r) <= rho,
                "{} N={N} {:?} % {:?}",
                T::NAME,
                x.terms(),
                y.terms()
            );
        }
        // Quotients within the division's error of an integer: x = RN_N(k·y) for a random y,
        // so x/y = k(1 + δ) with δ of the order of the rounding error; the quotient can round
        // to k where the exact one is just below it, and the correction by ±y must happen.
        let k = T::from_f64(rng.range(1, 1000) as f64);
        let y2: Expansion<T, N> = {
            let e = rng.range(-5, 10);
            rand_expansion(&mut rng, e)
        };
        let x2 = y2.mul_term(k);
        let (xv, yv2) = (exact(&x2), exact(&y2));
        let q2 = MpFloat::with_val(PREC, &xv / &yv2).trunc();
        let r2 = MpFloat::with_val(PREC, &xv - MpFloat::with_val(PREC, &q2 * &yv2));
        let got2 = x2 % y2;
        if r2.is_zero() {
            assert!(got2.is_zero());
        } else {
            assert!(
                rel_err(&got2, &r2) <= rho,
                "{} N={N} near-integer {:?} % {:?}: {:?}",
                T::NAME,
                x2.terms(),
                y2.terms(),
                got2.terms()
            );
        }
        // mul_add: x·y + b rounded once (operands large enough that no partial product's
        // error term underflows: f32 N = 3 terms reach 2^-72 relative).
        let x: Expansion<T, N> = {
            let e = rng.range(10, 30);
            rand_expansion(&mut rng, e)
        };
        let y: Expansion<T, N> = {
            let e = rng.range(10, 30);
            rand_expansion(&mut rng, e)
        };
        let yv = exact(&y);
        let b: Expansion<T, N> = {
            let e = rng.range(10, 60);
            rand_expansion(&mut rng, e)
        };
        let want = MpFloat::with_val(PREC, &exact(&x) * &yv) + exact(&b);
        let fma = Expansion::mul_add(&x, &y, &b);
        assert!(rel_err(&fma, &want) <= rho, "{} N={N} mul_add", T::NAME);
        same(&Float::mul_add(x, y, b), &fma, "Float::mul_add");
        // Cancellation: x·y − RN(x·y) is the product's rounding error, which only a single
        // rounding of the exact value gets right.
        let nb = x.mul(&y).neg();
        let want = MpFloat::with_val(PREC, &exact(&x) * &yv) + exact(&nb);
        let fma = Expansion::mul_add(&x, &y, &nb);
        if want.is_zero() {
            assert!(fma.is_zero());
        } else {
            assert!(
                rel_err(&fma, &want) <= rho,
                "{} N={N} mul_add cancellation {:?} {:?}: {:?}",
                T::NAME,
                x.terms(),
                y.terms(),
                fma.terms()
            );
        }
    }
}

#[test]
fn rem_and_mul_add_against_mpfr() {
    rem_mul_add_case::<f64, 1>(30);
    rem_mul_add_case::<f64, 2>(31);
    rem_mul_add_case::<f64, 4>(32);
    rem_mul_add_case::<f32, 3>(33);
    let q = |v: f64| QuadDouble::from_term(v);
    assert!((q(1.0) % q(0.0)).is_nan());
    assert!((q(f64::INFINITY) % q(2.0)).is_nan());
    assert_eq!(q(5.0) % q(f64::INFINITY), q(5.0));
    assert_eq!(q(-7.0) % 2.0, q(-1.0));
}

/// Generic code over `num_traits::Float`: Newton's iteration for √a and Horner's scheme, in
/// f64 and in quad-double.
fn newton_sqrt<F: Float>(a: F) -> F {
    let two = F::from(2.0).unwrap();
    let mut x = F::from(a.to_f64().unwrap().sqrt()).unwrap();
    for _ in 0..4 {
        x = (x + a / x) / two;
    }
    x
}

fn horner<F: Float + FromPrimitive>(coef: &[i64], x: F) -> F {
    coef.iter()
        .fold(F::zero(), |acc, &c| acc.mul_add(x, F::from_i64(c).unwrap()))
}

fn clamp_unit<F: Float>(x: F) -> F {
    x.max(-F::one())
        .min(F::one())
        .abs()
        .max(F::min_positive_value())
}

#[test]
fn generic_float_code_runs() {
    let two = MpFloat::with_val(PREC, 2).sqrt();
    let s64 = newton_sqrt(2.0f64);
    assert!((s64 - std::f64::consts::SQRT_2).abs() <= f64::EPSILON);
    let sq = newton_sqrt(QuadDouble::from_term(2.0));
    assert!(rel_err(&sq, &two) < 1e-62, "{:?}", sq.terms());
    // The same constant through FloatConst (MPFR-rounded) agrees.
    assert!(rel_err(&QuadDouble::SQRT_2(), &two) < 1e-63);
    // (x − 1)^3 expanded, at x = 1 + 2^-40: exactly 2^-120, which f64 cannot see.
    let c = [1, -3, 3, -1];
    let x = QuadDouble::from_term(1.0 + 2f64.powi(-40));
    assert_eq!(horner(&c, x), QuadDouble::from_term(2f64.powi(-120)));
    assert_eq!(clamp_unit(QuadDouble::from_term(-3.0)), QuadDouble::one());
    assert_eq!(clamp_unit(-3.0f64), 1.0);
}

#[test]
fn num_traits_conversions_constants_and_classification() {
    type Q = QuadDouble;
    type F4 = Expansion<f32, 4>;
    // Integers beyond 2^53 keep every bit.
    let big = u64::MAX - 2;
    let x: Q = NumCast::from(big).unwrap();
    assert_eq!(exact(&x), MpFloat::with_val(PREC, big));
    assert_eq!(x.to_u64(), Some(big));
    let i = i128::MIN + 12345;
    let y = Q::from_i128(i).unwrap();
    assert_eq!(exact(&y), MpFloat::with_val(PREC, i));
    assert_eq!(y.to_i128(), Some(i));
    assert_eq!(y.to_i64(), None);
    let z: Q = NumCast::from(2.5f32).unwrap();
    assert_eq!(z, Q::from_term(2.5));
    // Truncation toward zero, decided by the lower terms.
    let w = Q::from_terms([3.0, -2f64.powi(-70), 0.0, 0.0]);
    assert_eq!(w.to_i64(), Some(2));
    assert_eq!((-w).to_i64(), Some(-2));
    assert_eq!(Q::nan().to_i64(), None);
    // to_f32 rounds once (through f64 it would round twice): 1 + 2^-24 + 2^-60 → 1 + 2^-23.
    let t = Q::from_terms([1.0 + 2f64.powi(-24), 2f64.powi(-60), 0.0, 0.0]);
    assert_eq!(ToPrimitive::to_f32(&t), Some(1.0 + 2f32.powi(-23)));
    // `{:.k}`: k significant digits, correctly rounded (checked against the exact value:
    // within half a unit of the k-th digit, and the digit count).
    let mut rng = SplitMix(41);
    for i in 0..200 {
        let x: Q = {
            let e = rng.range(-60, 60);
            rand_expansion(&mut rng, e)
        };
        let k = 1 + i % 40;
        let s = format!("{x:.k$}");
        let printed = MpFloat::with_val(PREC, MpFloat::parse(&s).unwrap());
        let v = exact(&x);
        let e10 = v.clone().abs().log10().floor().to_f64() as i32;
        let half_unit = MpFloat::with_val(PREC, 10).pow(e10 - k as i32 + 1) / 2;
        let diff = MpFloat::with_val(PREC, &printed - &v).abs();
        assert!(diff <= half_unit, "{s} for {:?}", x.terms());
        let digits = s
            .trim_start_matches('-')
            .split('e')
            .next()
            .unwrap()
            .replace('.', "");
        assert_eq!(digits.trim_start_matches('0').len().max(1), k, "{s}");
    }
    // Parsing in several radices.
    assert_eq!(
        Q::from_str_radix("0.1", 10).unwrap(),
        "0.1".parse::<Q>().unwrap()
    );
    assert_eq!(
        Q::from_str_radix("-101.01", 2).unwrap(),
        Q::from_term(-5.25)
    );
    assert_eq!(Q::from_str_radix("ff.8", 16).unwrap(), Q::from_term(255.5));
    assert!(Q::from_str_radix("12", 1).is_err());
    assert!(Q::from_str_radix("", 16).is_err());
    assert!(Q::from_str_radix("zz", 10).is_err());
    // Constants: the table ones bit for bit with the table; derived ones against MPFR.
    let pi = MpFloat::with_val(PREC, rug::float::Constant::Pi);
    assert_eq!(
        Q::PI().terms(),
        expanse_core::functions::constants::pi::<f64, 4>().terms()
    );
    assert!(rel_err(&Q::PI(), &pi) < 1e-63);
    assert!(rel_err(&Q::FRAC_PI_3(), &MpFloat::with_val(PREC, &pi / 3)) < 1e-63);
    assert!(rel_err(&Q::FRAC_1_PI(), &MpFloat::with_val(PREC, 1 / &pi)) < 1e-63);
    assert!(rel_err(&Q::TAU(), &MpFloat::with_val(PREC, &pi * 2)) < 1e-63);
    let ln2 = MpFloat::with_val(PREC, rug::float::Constant::Log2);
    let ln10 = MpFloat::with_val(PREC, 10).ln();
    assert!(rel_err(&Q::LOG10_2(), &MpFloat::with_val(PREC, &ln2 / &ln10)) < 1e-63);
    assert!(rel_err(&F4::FRAC_PI_6(), &MpFloat::with_val(PREC, &pi / 6)) < 1e-27);
    assert!(
        rel_err(
            &<Q as simba::scalar::RealField>::frac_2_sqrt_pi(),
            &MpFloat::with_val(PREC, 2 / pi.clone().sqrt())
        ) < 1e-63
    );
    // Limits and classification.
    assert_eq!(<Q as Float>::epsilon(), Q::from_term(2f64.powi(-208)));
    assert_eq!(
        <DoubleDouble as Float>::epsilon(),
        DoubleDouble::from_term(2f64.powi(-104))
    );
    assert_eq!(<Expansion<f64, 1> as Float>::epsilon().hi(), f64::EPSILON);
    assert_eq!(
        <Expansion<f32, 8> as Float>::epsilon().hi(),
        f32::MIN_POSITIVE
    );
    assert_eq!(<Q as Float>::max_value().hi(), f64::MAX);
    assert_eq!(<Q as Bounded>::min_value().hi(), f64::MIN);
    assert_eq!(<Q as Float>::min_positive_value().hi(), f64::MIN_POSITIVE);
    assert_eq!(Q::from_term(1e-310).classify(), FpCategory::Subnormal);
    assert_eq!(Q::from_term(-0.0).classify(), FpCategory::Zero);
    assert_eq!(Q::infinity().classify(), FpCategory::Infinite);
    assert_eq!(
        Q::from_terms([1.0, f64::NAN, 0.0, 0.0]).classify(),
        FpCategory::Nan
    );
    assert!(Q::from_term(1.0).is_normal());
    assert_eq!(
        Q::from_term(-6.5).integer_decode(),
        (-6.5f64).integer_decode()
    );
    assert_eq!(
        F4::from_term(0.1f32).integer_decode(),
        0.1f32.integer_decode()
    );
    // Signs as f64: signum(±0) = ±1, copysign exact.
    assert_eq!(Float::signum(Q::neg_zero()), Q::from_term(-1.0));
    assert_eq!(Float::signum(Q::zero()), Q::one());
    assert!(Float::signum(Q::nan()).is_nan());
    assert_eq!(Float::copysign(w, Q::neg_zero()), -w);
    assert!(Signed::is_negative(&Q::neg_zero()));
    assert_eq!(Float::max(Q::nan(), w), w);
    assert_eq!(Float::min(w, Q::nan()), w);
    assert!(Float::clamp(w, Q::one(), Q::zero()).is_nan());
    assert_eq!(Float::exp2(Q::from_term(-1074.0)).hi(), f64::from_bits(1));
    assert_eq!(Float::exp2(Q::from_term(10.0)), Q::from_term(1024.0));
    assert_eq!(<Q as Zero>::zero(), Q::from_term(0.0));
    // Mirrors of the transcendental functions are wired (their values are tested with the
    // functions; here only that the trait reaches the same method).
    let a = Q::from_term(0.5);
    same(&Float::exp(a), &a.exp(), "Float::exp");
    same(&Float::sin(a), &a.sin(), "Float::sin");
    same(&Float::powi(a, 3), &a.powi(3), "Float::powi");
    same(&Float::powf(a, a), &a.pow(&a), "Float::powf");
    same(
        &<Q as simba::scalar::ComplexField>::ln(a),
        &a.ln(),
        "ComplexField::ln",
    );
    same(&Float::sqrt(a), &a.sqrt(), "Float::sqrt");
}

/// Exact Gaussian elimination in rationals.
#[allow(clippy::needless_range_loop)]
fn solve_exact(mut a: Vec<Vec<Rational>>, mut b: Vec<Rational>) -> Vec<Rational> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n).find(|&i| a[i][k] != 0).unwrap();
        a.swap(k, p);
        b.swap(k, p);
        for i in k + 1..n {
            let f = Rational::from(&a[i][k] / &a[k][k]);
            for j in k..n {
                let d = Rational::from(&f * &a[k][j]);
                a[i][j] -= d;
            }
            let d = Rational::from(&f * &b[k]);
            b[i] -= d;
        }
    }
    let mut x = vec![Rational::new(); n];
    for i in (0..n).rev() {
        let mut s = b[i].clone();
        for j in i + 1..n {
            s -= Rational::from(&a[i][j] * &x[j]);
        }
        x[i] = s / &a[i][i];
    }
    x
}

/// max_i |x̂_i − x_i| / max_i |x_i|, exactly, as f64.
fn rel_err_inf(got: &[Rational], want: &[Rational]) -> f64 {
    let num = got
        .iter()
        .zip(want)
        .map(|(g, w)| Rational::from(g - w).abs())
        .max()
        .unwrap();
    let den = want.iter().map(|w| w.clone().abs()).max().unwrap();
    (num / den).to_f64()
}

fn to_rational<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Rational {
    exact(x).to_rational().expect("finite solution")
}

#[test]
fn hilbert_12_in_quad_double_with_nalgebra() {
    const N: usize = 12;
    let h = |i: usize, j: usize| Rational::from((1, (i + j + 1) as u32));
    // b = H·1 computed exactly, rounded to f64: exact machine numbers, so the exact solution
    // of H x = b is H⁻¹b in rationals (close to, not equal to, the all-ones vector).
    let b64: Vec<f64> = (0..N)
        .map(|i| {
            (0..N)
                .map(|j| h(i, j))
                .fold(Rational::new(), |a, v| a + v)
                .to_f64()
        })
        .collect();
    let a_exact: Vec<Vec<Rational>> = (0..N).map(|i| (0..N).map(|j| h(i, j)).collect()).collect();
    let b_exact: Vec<Rational> = b64
        .iter()
        .map(|&v| Rational::from_f64(v).unwrap())
        .collect();
    let x_exact = solve_exact(a_exact, b_exact);

    // Quad-double: H's entries rounded to nearest (1/k is not a binary number).
    let hq = DMatrix::<QuadDouble>::from_fn(N, N, |i, j| {
        QuadDouble::from_rug(&MpFloat::with_val(PREC, h(i, j)))
    });
    let bq = DVector::<QuadDouble>::from_iterator(N, b64.iter().map(|&v| QuadDouble::from_term(v)));
    let err_q = |x: &DVector<QuadDouble>| {
        let got: Vec<Rational> = x.iter().map(to_rational).collect();
        rel_err_inf(&got, &x_exact)
    };
    let x_lu = hq.clone().lu().solve(&bq).expect("LU solve");
    let x_qr = hq.clone().qr().solve(&bq).expect("QR solve");
    let x_ch = hq.clone().cholesky().expect("H is SPD").solve(&bq);
    let (e_lu, e_qr, e_ch) = (err_q(&x_lu), err_q(&x_qr), err_q(&x_ch));

    // Quad-float (four f32 terms, about 96 bits) through the same generic impls.
    type QF = Expansion<f32, 4>;
    let hf = DMatrix::<QF>::from_fn(N, N, |i, j| QF::from_rug(&MpFloat::with_val(PREC, h(i, j))));
    let bf = DVector::<QF>::from_iterator(N, b64.iter().map(|&v| QF::from_f64(v)));
    let x_f = hf.lu().solve(&bf).expect("quad-float LU solve");
    let got_f: Vec<Rational> = x_f.iter().map(to_rational).collect();
    let e_qf = rel_err_inf(&got_f, &x_exact);

    // f64: the same solver, the same right-hand side.
    let h64 = DMatrix::<f64>::from_fn(N, N, |i, j| h(i, j).to_f64());
    let b_64 = DVector::from_vec(b64.clone());
    let x64 = h64.lu().solve(&b_64).expect("f64 LU solve");
    let got64: Vec<Rational> = x64
        .iter()
        .map(|&v| Rational::from_f64(v).unwrap())
        .collect();
    let e64 = rel_err_inf(&got64, &x_exact);
    eprintln!("Hilbert-12 relative error (inf-norm): qd LU {e_lu:.2e}, qd QR {e_qr:.2e}, qd Cholesky {e_ch:.2e}, qf128 LU {e_qf:.2e}, f64 LU {e64:.2e}");
    assert!(e_lu < 1e-40, "qd LU error {e_lu:e}");
    assert!(e_qr < 1e-40, "qd QR error {e_qr:e}");
    assert!(e_ch < 1e-40, "qd Cholesky error {e_ch:e}");
    assert!(
        e64 > 1e-6,
        "f64 LU error {e64:e}: the test would not tell f64 from qd"
    );
}
