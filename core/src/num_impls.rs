//! `num-traits` for [`Expansion`]: `Zero`, `One`, `Num`, `NumCast`, `ToPrimitive`,
//! `FromPrimitive`, `Signed`, `Bounded`, `FloatConst` and `Float`, so that code generic over
//! `num_traits::Float` runs in n-double / n-float.
//!
//! Semantics, where an expansion differs from a machine number:
//! - arithmetic is the accurate tier (the operators of [`crate::ops`]); `floor`, `ceil`,
//!   `round`, `trunc`, `fract` are exact; `mul_add` rounds the exact x·a + b once;
//! - the transcendental methods (`exp`, `ln`, `sin`, `powf`, `powi`, `hypot`, …) forward to
//!   the elementary functions of [`crate::functions`], with the error bounds stated there;
//! - the classification (`classify`, `is_normal`, `is_subnormal`) and `integer_decode` look
//!   at the leading term, which is the value rounded to one machine number (up to one ulp);
//! - `max_value` / `min_value` are ±`T::MAX` (one term: a larger expansion would overflow in
//!   the operations), `min_positive_value` is `T::MIN_POSITIVE` (the smallest normal term),
//!   `epsilon` is (2u)^N = 2^(−N·(p−1)), the N-fold machine epsilon (f64: 2^-52, 2^-104,
//!   …, 2^-208 for quad-double; for f32 with N ≥ 6 it is clamped to `f32::MIN_POSITIVE`, the
//!   precision f32 expansions of that length actually reach near 1);
//! - conversions from and to integers and `to_f32`/`to_f64` are exact or correctly rounded
//!   (through MPFR); `NumCast::from` of an integer beyond 2^53 keeps every bit that fits.
//!
//! ```
//! use expanse_core::QuadDouble;
//! use num_traits::{Float, FloatConst};
//!
//! fn norm<F: Float>(v: &[F]) -> F {
//!     v.iter().fold(F::zero(), |a, &x| a + x * x).sqrt()
//! }
//! let v = [QuadDouble::from_term(3.0), QuadDouble::from_term(4.0)];
//! assert_eq!(norm(&v), QuadDouble::from_term(5.0));
//! assert_eq!(QuadDouble::PI().hi(), std::f64::consts::PI);
//! ```

use crate::decimal::{ParseExpansionError, PARSE_PRECISION};
use crate::expansion::Expansion;
use crate::float::FloatTerm;
use crate::functions::constants::{constant, constant_terms, Constant, TABLE_TERMS};
use core::num::FpCategory;
use num_traits::{
    Bounded, Float, FloatConst, FromPrimitive, Num, NumCast, One, Signed, ToPrimitive, Zero,
};
use rug::float::Round;

type E<T, const N: usize> = Expansion<T, N>;

fn nan<T: FloatTerm, const N: usize>() -> E<T, N> {
    E::from_term(T::from_f64(f64::NAN))
}

/// Precision of the derived constants' MPFR evaluation (the 12-term tables hold ≥ 280 bits).
const CONST_PREC: u32 = 1024;

/// A table constant as an exact MPFR number (its 12 stored terms summed exactly).
fn table_rug<T: FloatTerm>(c: Constant) -> rug::Float {
    let terms = constant_terms::<T>(c);
    let mut acc = rug::Float::with_val(4 * CONST_PREC, 0);
    for t in terms.iter().take(TABLE_TERMS) {
        acc += t.to_f64();
    }
    rug::Float::with_val(CONST_PREC, acc)
}

fn pi_rug<T: FloatTerm>() -> rug::Float {
    table_rug::<T>(Constant::Pi)
}

fn rug_from_f64(v: f64) -> rug::Float {
    rug::Float::with_val(CONST_PREC, v)
}

impl<T: FloatTerm, const N: usize> Zero for Expansion<T, N> {
    #[inline]
    fn zero() -> Self {
        E::zero()
    }
    #[inline]
    fn is_zero(&self) -> bool {
        E::is_zero(self)
    }
}

impl<T: FloatTerm, const N: usize> One for Expansion<T, N> {
    #[inline]
    fn one() -> Self {
        E::one()
    }
}

impl<T: FloatTerm, const N: usize> Num for Expansion<T, N> {
    type FromStrRadixErr = ParseExpansionError;

    /// Radix 10: as [`core::str::FromStr`] (`"1.25e-3"`). Radix 2..=36: MPFR's syntax
    /// (`"-1.1p3"` style mantissa digits, exponent after `@`), parsed at
    /// [`PARSE_PRECISION`] bits and rounded to the nearest expansion. Other radices are an
    /// error.
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, ParseExpansionError> {
        if radix == 10 {
            return s.parse();
        }
        let err = |reason| ParseExpansionError {
            input: s.to_string(),
            reason,
        };
        if !(2..=36).contains(&radix) {
            return Err(err("radix must be in 2..=36"));
        }
        let trimmed = s.trim();
        if trimmed.is_empty() {
            return Err(err("empty string"));
        }
        let parsed = rug::Float::parse_radix(trimmed, radix as i32)
            .map_err(|_| err("not a number in this radix"))?;
        Ok(E::from_rug(&rug::Float::with_val(PARSE_PRECISION, parsed)))
    }
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// The value truncated toward zero as an MPFR integer; `None` for NaN and ±∞.
    fn trunc_integer(&self) -> Option<rug::Integer> {
        if !self.is_finite() {
            return None;
        }
        self.to_rug().to_integer_round(Round::Zero).map(|(i, _)| i)
    }

    fn from_integer(i: rug::Integer) -> Self {
        E::from_rug(&rug::Float::with_val(256, i))
    }
}

impl<T: FloatTerm, const N: usize> ToPrimitive for Expansion<T, N> {
    /// The value truncated toward zero, if it fits (as for `f64`); `None` for NaN and ±∞.
    fn to_i64(&self) -> Option<i64> {
        self.trunc_integer()?.to_i64()
    }
    /// The value truncated toward zero, if it fits.
    fn to_u64(&self) -> Option<u64> {
        self.trunc_integer()?.to_u64()
    }
    /// The value truncated toward zero, if it fits.
    fn to_i128(&self) -> Option<i128> {
        self.trunc_integer()?.to_i128()
    }
    /// The value truncated toward zero, if it fits.
    fn to_u128(&self) -> Option<u128> {
        self.trunc_integer()?.to_u128()
    }
    /// The value correctly rounded to `f64` (±∞ beyond its range, NaN for NaN).
    fn to_f64(&self) -> Option<f64> {
        Some(self.to_rug().to_f64_round(Round::Nearest))
    }
    /// The value correctly rounded to `f32`.
    fn to_f32(&self) -> Option<f32> {
        Some(self.to_rug().to_f32_round(Round::Nearest))
    }
}

impl<T: FloatTerm, const N: usize> FromPrimitive for Expansion<T, N> {
    fn from_i64(n: i64) -> Option<Self> {
        Some(Self::from_integer(rug::Integer::from(n)))
    }
    fn from_u64(n: u64) -> Option<Self> {
        Some(Self::from_integer(rug::Integer::from(n)))
    }
    fn from_i128(n: i128) -> Option<Self> {
        Some(Self::from_integer(rug::Integer::from(n)))
    }
    fn from_u128(n: u128) -> Option<Self> {
        Some(Self::from_integer(rug::Integer::from(n)))
    }
    fn from_f64(n: f64) -> Option<Self> {
        Some(E::from_f64(n))
    }
    fn from_f32(n: f32) -> Option<Self> {
        Some(E::from_f64(n as f64))
    }
}

impl<T: FloatTerm, const N: usize> NumCast for Expansion<T, N> {
    /// Floats convert through `to_f64`; integers beyond 2^53 through `to_i128`/`to_u128`, so
    /// every bit that fits in N terms is kept. (From another expansion type this rounds to
    /// `f64` first unless the value is an integer: convert through `to_rug`/`from_rug` for
    /// full precision.)
    fn from<P: ToPrimitive>(n: P) -> Option<Self> {
        let f = n.to_f64()?;
        if f.is_finite() && f.fract() == 0.0 && f.abs() >= 9007199254740992.0 {
            if let Some(i) = n.to_i128() {
                return <Self as FromPrimitive>::from_i128(i);
            }
            if let Some(u) = n.to_u128() {
                return <Self as FromPrimitive>::from_u128(u);
            }
        }
        Some(E::from_f64(f))
    }
}

impl<T: FloatTerm, const N: usize> Signed for Expansion<T, N> {
    #[inline]
    fn abs(&self) -> Self {
        E::abs(self)
    }
    /// max(x − y, 0).
    fn abs_sub(&self, other: &Self) -> Self {
        if self <= other {
            E::zero()
        } else {
            E::sub(self, other)
        }
    }
    /// 1 for positive values and +0, −1 for negative values and −0, NaN for NaN (as `f64`).
    fn signum(&self) -> Self {
        <Self as Float>::signum(*self)
    }
    /// True for positive values including +0 and +∞ (as `f64`).
    fn is_positive(&self) -> bool {
        <Self as Float>::is_sign_positive(*self)
    }
    /// True for negative values including −0 and −∞ (as `f64`).
    fn is_negative(&self) -> bool {
        <Self as Float>::is_sign_negative(*self)
    }
}

impl<T: FloatTerm, const N: usize> Bounded for Expansion<T, N> {
    /// −`T::MAX`.
    fn min_value() -> Self {
        E::from_term(-T::MAX)
    }
    /// `T::MAX` (one term).
    fn max_value() -> Self {
        E::from_term(T::MAX)
    }
}

/// Constants to N terms: π, e, ln 2, ln 10, log₂ e, log₁₀ e are the first N terms of the
/// tables of [`crate::functions::constants`]; π/2, π/4, π/8, 2π are those scaled (exact); the
/// others are evaluated by MPFR at 1024 bits from the tables and rounded to the nearest
/// expansion.
impl<T: FloatTerm, const N: usize> FloatConst for Expansion<T, N> {
    fn PI() -> Self {
        constant(Constant::Pi)
    }
    fn E() -> Self {
        constant(Constant::E)
    }
    fn LN_2() -> Self {
        constant(Constant::Ln2)
    }
    fn LN_10() -> Self {
        constant(Constant::Ln10)
    }
    fn LOG2_E() -> Self {
        constant(Constant::Log2E)
    }
    fn LOG10_E() -> Self {
        constant(Constant::Log10E)
    }
    fn FRAC_PI_2() -> Self {
        Self::PI().ldexp(-1)
    }
    fn FRAC_PI_4() -> Self {
        Self::PI().ldexp(-2)
    }
    fn FRAC_PI_8() -> Self {
        Self::PI().ldexp(-3)
    }
    fn TAU() -> Self {
        Self::PI().ldexp(1)
    }
    fn FRAC_PI_3() -> Self {
        E::from_rug(&(pi_rug::<T>() / 3))
    }
    fn FRAC_PI_6() -> Self {
        E::from_rug(&(pi_rug::<T>() / 6))
    }
    fn FRAC_1_PI() -> Self {
        E::from_rug(&(1 / pi_rug::<T>()))
    }
    fn FRAC_2_PI() -> Self {
        E::from_rug(&(2 / pi_rug::<T>()))
    }
    fn FRAC_2_SQRT_PI() -> Self {
        E::from_rug(&(2 / pi_rug::<T>().sqrt()))
    }
    fn SQRT_2() -> Self {
        E::from_rug(&rug_from_f64(2.0).sqrt())
    }
    fn FRAC_1_SQRT_2() -> Self {
        E::from_rug(&rug_from_f64(0.5).sqrt())
    }
    fn LOG10_2() -> Self {
        E::from_rug(&(table_rug::<T>(Constant::Ln2) / table_rug::<T>(Constant::Ln10)))
    }
    fn LOG2_10() -> Self {
        E::from_rug(&(table_rug::<T>(Constant::Ln10) / table_rug::<T>(Constant::Ln2)))
    }
}

/// Sign bit of a machine number (f32 widens to f64 keeping its sign).
#[inline]
fn sign_bit<T: FloatTerm>(t: T) -> bool {
    t.to_f64().is_sign_negative()
}

impl<T: FloatTerm, const N: usize> Float for Expansion<T, N> {
    fn nan() -> Self {
        nan()
    }
    fn infinity() -> Self {
        E::from_term(T::from_f64(f64::INFINITY))
    }
    fn neg_infinity() -> Self {
        E::from_term(T::from_f64(f64::NEG_INFINITY))
    }
    fn neg_zero() -> Self {
        E::from_term(-T::ZERO)
    }
    /// −`T::MAX` (see [`Bounded`]).
    fn min_value() -> Self {
        <Self as Bounded>::min_value()
    }
    /// `T::MIN_POSITIVE`, the smallest positive normal term (below it expansions lose their
    /// lower terms: see [`crate::bounds`]).
    fn min_positive_value() -> Self {
        E::from_term(T::MIN_POSITIVE)
    }
    /// (2u)^N = 2^(−N·(p−1)), clamped to `T::MIN_POSITIVE` (f32 with N ≥ 6).
    fn epsilon() -> Self {
        let e = T::ONE.ldexp(-(N as i32) * (T::PRECISION as i32 - 1));
        E::from_term(if e < T::MIN_POSITIVE {
            T::MIN_POSITIVE
        } else {
            e
        })
    }
    /// `T::MAX` (see [`Bounded`]).
    fn max_value() -> Self {
        <Self as Bounded>::max_value()
    }
    fn is_nan(self) -> bool {
        E::is_nan(&self)
    }
    fn is_infinite(self) -> bool {
        !E::is_nan(&self) && !E::is_finite(&self)
    }
    fn is_finite(self) -> bool {
        E::is_finite(&self)
    }
    /// Finite with a normal leading term (lower terms may be subnormal or zero).
    fn is_normal(self) -> bool {
        self.classify() == FpCategory::Normal
    }
    /// The category of the leading term (NaN if any term is NaN).
    fn classify(self) -> FpCategory {
        let h = self.hi();
        if E::is_nan(&self) {
            FpCategory::Nan
        } else if !E::is_finite(&self) {
            FpCategory::Infinite
        } else if h == T::ZERO {
            FpCategory::Zero
        } else if h.abs() < T::MIN_POSITIVE {
            FpCategory::Subnormal
        } else {
            FpCategory::Normal
        }
    }
    /// Exact ([`Expansion::floor`]).
    fn floor(self) -> Self {
        E::floor(&self)
    }
    /// Exact ([`Expansion::ceil`]).
    fn ceil(self) -> Self {
        E::ceil(&self)
    }
    /// Exact, halfway cases away from zero ([`Expansion::round`]).
    fn round(self) -> Self {
        E::round(&self)
    }
    /// Exact ([`Expansion::trunc`]).
    fn trunc(self) -> Self {
        E::trunc(&self)
    }
    /// Exact ([`Expansion::fract`]).
    fn fract(self) -> Self {
        E::fract(&self)
    }
    fn abs(self) -> Self {
        E::abs(&self)
    }
    /// 1 for positive values and +0, −1 for negative values and −0, NaN for NaN.
    fn signum(self) -> Self {
        if E::is_nan(&self) {
            nan()
        } else if sign_bit(self.hi()) {
            E::from_term(-T::ONE)
        } else {
            E::one()
        }
    }
    fn is_sign_positive(self) -> bool {
        !sign_bit(self.hi())
    }
    fn is_sign_negative(self) -> bool {
        sign_bit(self.hi())
    }
    /// x·a + b rounded once ([`Expansion::mul_add`]).
    fn mul_add(self, a: Self, b: Self) -> Self {
        E::mul_add(&self, &a, &b)
    }
    fn recip(self) -> Self {
        E::recip(&self)
    }
    fn powi(self, n: i32) -> Self {
        E::powi(&self, n)
    }
    fn powf(self, n: Self) -> Self {
        E::pow(&self, &n)
    }
    fn sqrt(self) -> Self {
        E::sqrt(&self)
    }
    fn exp(self) -> Self {
        E::exp(&self)
    }
    /// 2ˣ: exact for integers x in the exponent range, else exp(x·ln 2).
    fn exp2(self) -> Self {
        let i = E::trunc(&self);
        if i == self && self.is_finite() && self.hi().abs() <= T::from_f64(2048.0) {
            let n = self.hi().to_f64() as i32;
            // 2^n in two exact steps (2^±1100 would not fit one ldexp argument range of T).
            return E::one().ldexp(n / 2).ldexp(n - n / 2);
        }
        E::exp(&E::mul(&self, &Self::LN_2()))
    }
    fn ln(self) -> Self {
        E::ln(&self)
    }
    /// ln x / ln base.
    fn log(self, base: Self) -> Self {
        E::div(&E::ln(&self), &E::ln(&base))
    }
    fn log2(self) -> Self {
        E::log2(&self)
    }
    fn log10(self) -> Self {
        E::log10(&self)
    }
    /// x·180/π (accurate tier).
    fn to_degrees(self) -> Self {
        E::div(&self.mul_term(T::from_f64(180.0)), &Self::PI())
    }
    /// x·π/180 (accurate tier).
    fn to_radians(self) -> Self {
        E::mul(&self, &Self::PI()).div_term(T::from_f64(180.0))
    }
    /// The larger value; NaN only if both are NaN (as `f64::max`).
    fn max(self, other: Self) -> Self {
        if E::is_nan(&self) || self < other {
            other
        } else {
            self
        }
    }
    /// The smaller value; NaN only if both are NaN (as `f64::min`).
    fn min(self, other: Self) -> Self {
        if E::is_nan(&self) || self > other {
            other
        } else {
            self
        }
    }
    /// `min` if x < min, `max` if x > max, else x; NaN (no panic, unlike `f64::clamp`) when
    /// min > max or a bound is NaN.
    fn clamp(self, min: Self, max: Self) -> Self {
        if !matches!(
            min.partial_cmp(&max),
            Some(core::cmp::Ordering::Less | core::cmp::Ordering::Equal)
        ) {
            return nan();
        }
        if self < min {
            min
        } else if self > max {
            max
        } else {
            self
        }
    }
    /// max(x − y, 0).
    fn abs_sub(self, other: Self) -> Self {
        <Self as Signed>::abs_sub(&self, &other)
    }
    fn cbrt(self) -> Self {
        E::cbrt(&self)
    }
    fn hypot(self, other: Self) -> Self {
        E::hypot(&self, &other)
    }
    fn sin(self) -> Self {
        E::sin(&self)
    }
    fn cos(self) -> Self {
        E::cos(&self)
    }
    fn tan(self) -> Self {
        E::tan(&self)
    }
    fn asin(self) -> Self {
        E::asin(&self)
    }
    fn acos(self) -> Self {
        E::acos(&self)
    }
    fn atan(self) -> Self {
        E::atan(&self)
    }
    /// atan2(self, other): the angle of the point (other, self).
    fn atan2(self, other: Self) -> Self {
        E::atan2(&self, &other)
    }
    fn sin_cos(self) -> (Self, Self) {
        E::sin_cos(&self)
    }
    fn exp_m1(self) -> Self {
        E::exp_m1(&self)
    }
    fn ln_1p(self) -> Self {
        E::ln_1p(&self)
    }
    fn sinh(self) -> Self {
        E::sinh(&self)
    }
    fn cosh(self) -> Self {
        E::cosh(&self)
    }
    fn tanh(self) -> Self {
        E::tanh(&self)
    }
    fn asinh(self) -> Self {
        E::asinh(&self)
    }
    fn acosh(self) -> Self {
        E::acosh(&self)
    }
    fn atanh(self) -> Self {
        E::atanh(&self)
    }
    /// (mantissa, exponent, sign) of the leading term, as `f64::integer_decode` /
    /// `f32::integer_decode` (the lower terms are not represented).
    fn integer_decode(self) -> (u64, i16, i8) {
        let h = self.hi();
        if T::PRECISION == 53 {
            Float::integer_decode(h.to_f64())
        } else {
            Float::integer_decode(h.to_f64() as f32)
        }
    }
    /// |x| with the sign of `sign` (exact).
    fn copysign(self, sign: Self) -> Self {
        if sign_bit(self.hi()) != sign_bit(sign.hi()) {
            E::neg(&self)
        } else {
            self
        }
    }
}
