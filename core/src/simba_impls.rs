//! The scalar traits of nalgebra (`simba::scalar::{ComplexField, RealField}`, with their
//! supertraits from simba and `approx`) for [`Expansion`], so that nalgebra's decompositions
//! (LU, QR, Cholesky, …) run in n-double:
//!
//! ```
//! use expanse_core::QuadDouble;
//! use nalgebra::{DMatrix, DVector};
//! let q = |v: f64| QuadDouble::from_term(v);
//! let a = DMatrix::from_row_slice(2, 2, &[q(4.0), q(1.0), q(2.0), q(3.0)]);
//! let b = DVector::from_vec(vec![q(1.0), q(2.0)]);
//! let x = a.lu().solve(&b).unwrap();
//! assert_eq!(x[0], q(1.0) / 10.0); // 1/10 to quad-double accuracy
//! ```
//!
//! (nalgebra is a dev-dependency of this crate; depend on it in yours.) An expansion is a
//! real field (`RealField = Self`, one SIMD lane). Its operations are the accurate tier;
//! `floor`… `fract` are exact; the transcendental methods forward to [`crate::functions`].
//! Conversions from `f32`/`f64` ([`SubsetOf`]) are exact for f64 terms; back to them they
//! round to nearest and, as simba's own `f64 → f32`, always succeed (`is_in_subset` is true).
//! `RealField::min_value` is −`T::MAX`, as simba's `f64` impl returns `f64::MIN`.
//!
//! The `approx` comparisons use the N-fold epsilon of [`num_traits::Float::epsilon`]:
//! `default_epsilon` is it, and `ulps_eq` with `max_ulps` k means
//! |x − y| ≤ k·ε·max(|x|, |y|) (an expansion has no integer ulp distance).

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use approx::{AbsDiffEq, RelativeEq, UlpsEq};
use num_traits::{Float, FloatConst};
use simba::scalar::{ComplexField, Field, RealField, SubsetOf};
use simba::simd::{PrimitiveSimdValue, SimdValue};

type E<T, const N: usize> = Expansion<T, N>;

impl<T: FloatTerm, const N: usize> SimdValue for Expansion<T, N> {
    const LANES: usize = 1;
    type Element = Self;
    type SimdBool = bool;

    #[inline(always)]
    fn splat(val: Self) -> Self {
        val
    }
    #[inline(always)]
    fn extract(&self, _: usize) -> Self {
        *self
    }
    #[inline(always)]
    unsafe fn extract_unchecked(&self, _: usize) -> Self {
        *self
    }
    #[inline(always)]
    fn replace(&mut self, _: usize, val: Self) {
        *self = val
    }
    #[inline(always)]
    unsafe fn replace_unchecked(&mut self, _: usize, val: Self) {
        *self = val
    }
    #[inline(always)]
    fn select(self, cond: bool, other: Self) -> Self {
        if cond {
            self
        } else {
            other
        }
    }
}

impl<T: FloatTerm, const N: usize> PrimitiveSimdValue for Expansion<T, N> {}

impl<T: FloatTerm, const N: usize> Field for Expansion<T, N> {}

impl<T: FloatTerm, const N: usize> SubsetOf<Expansion<T, N>> for Expansion<T, N> {
    #[inline]
    fn to_superset(&self) -> Self {
        *self
    }
    #[inline]
    fn from_superset_unchecked(element: &Self) -> Self {
        *element
    }
    #[inline]
    fn is_in_subset(_: &Self) -> bool {
        true
    }
}

macro_rules! subset_of_expansion {
    ($($t:ty),*) => {$(
        /// Exact inclusion (f64 terms; for f32 terms rounded as [`Expansion::from_f64`]);
        /// back by rounding to nearest (`is_in_subset` is always true, as simba's `f64 → f32`).
        impl<T: FloatTerm, const N: usize> SubsetOf<Expansion<T, N>> for $t {
            #[inline]
            fn to_superset(&self) -> Expansion<T, N> {
                Expansion::from_f64(*self as f64)
            }
            #[inline]
            fn from_superset_unchecked(element: &Expansion<T, N>) -> $t {
                num_traits::ToPrimitive::to_f64(element).unwrap_or(f64::NAN) as $t
            }
            #[inline]
            fn is_in_subset(_: &Expansion<T, N>) -> bool {
                true
            }
        }
    )*};
}

subset_of_expansion!(f64);

/// f32 from an expansion: correctly rounded (not through f64, which would round twice).
impl<T: FloatTerm, const N: usize> SubsetOf<Expansion<T, N>> for f32 {
    #[inline]
    fn to_superset(&self) -> Expansion<T, N> {
        Expansion::from_f64(*self as f64)
    }
    #[inline]
    fn from_superset_unchecked(element: &Expansion<T, N>) -> f32 {
        num_traits::ToPrimitive::to_f32(element).unwrap_or(f32::NAN)
    }
    #[inline]
    fn is_in_subset(_: &Expansion<T, N>) -> bool {
        true
    }
}

impl<T: FloatTerm, const N: usize> AbsDiffEq for Expansion<T, N> {
    type Epsilon = Self;
    fn default_epsilon() -> Self {
        <Self as Float>::epsilon()
    }
    fn abs_diff_eq(&self, other: &Self, epsilon: Self) -> bool {
        E::abs(&E::sub(self, other)) <= epsilon
    }
}

impl<T: FloatTerm, const N: usize> RelativeEq for Expansion<T, N> {
    fn default_max_relative() -> Self {
        <Self as Float>::epsilon()
    }
    /// As approx's `f64` impl: equal, or |x − y| ≤ epsilon, or |x − y| ≤ max_relative·max(|x|, |y|).
    fn relative_eq(&self, other: &Self, epsilon: Self, max_relative: Self) -> bool {
        if self == other {
            return true;
        }
        if !E::is_finite(self) || !E::is_finite(other) {
            return false;
        }
        let d = E::abs(&E::sub(self, other));
        if d <= epsilon {
            return true;
        }
        let (a, b) = (E::abs(self), E::abs(other));
        let largest = if a > b { a } else { b };
        d <= E::mul(&largest, &max_relative)
    }
}

impl<T: FloatTerm, const N: usize> UlpsEq for Expansion<T, N> {
    fn default_max_ulps() -> u32 {
        4
    }
    /// |x − y| ≤ epsilon, or |x − y| ≤ max_ulps·ε·max(|x|, |y|) with ε the N-fold epsilon.
    fn ulps_eq(&self, other: &Self, epsilon: Self, max_ulps: u32) -> bool {
        let rel = <Self as Float>::epsilon().mul_term(T::from_f64(max_ulps as f64));
        self.relative_eq(other, epsilon, rel)
    }
}

impl<T: FloatTerm, const N: usize> RealField for Expansion<T, N> {
    fn is_sign_positive(&self) -> bool {
        <Self as Float>::is_sign_positive(*self)
    }
    fn is_sign_negative(&self) -> bool {
        <Self as Float>::is_sign_negative(*self)
    }
    fn copysign(self, sign: Self) -> Self {
        <Self as Float>::copysign(self, sign)
    }
    fn max(self, other: Self) -> Self {
        <Self as Float>::max(self, other)
    }
    fn min(self, other: Self) -> Self {
        <Self as Float>::min(self, other)
    }
    fn clamp(self, min: Self, max: Self) -> Self {
        <Self as Float>::clamp(self, min, max)
    }
    fn atan2(self, other: Self) -> Self {
        E::atan2(&self, &other)
    }
    /// −`T::MAX` (simba's `f64` returns `f64::MIN`).
    fn min_value() -> Option<Self> {
        Some(<Self as Float>::min_value())
    }
    fn max_value() -> Option<Self> {
        Some(<Self as Float>::max_value())
    }
    fn pi() -> Self {
        Self::PI()
    }
    fn two_pi() -> Self {
        Self::TAU()
    }
    fn frac_pi_2() -> Self {
        Self::FRAC_PI_2()
    }
    fn frac_pi_3() -> Self {
        Self::FRAC_PI_3()
    }
    fn frac_pi_4() -> Self {
        Self::FRAC_PI_4()
    }
    fn frac_pi_6() -> Self {
        Self::FRAC_PI_6()
    }
    fn frac_pi_8() -> Self {
        Self::FRAC_PI_8()
    }
    fn frac_1_pi() -> Self {
        Self::FRAC_1_PI()
    }
    fn frac_2_pi() -> Self {
        Self::FRAC_2_PI()
    }
    fn frac_2_sqrt_pi() -> Self {
        Self::FRAC_2_SQRT_PI()
    }
    fn e() -> Self {
        Self::E()
    }
    fn log2_e() -> Self {
        Self::LOG2_E()
    }
    fn log10_e() -> Self {
        Self::LOG10_E()
    }
    fn ln_2() -> Self {
        Self::LN_2()
    }
    fn ln_10() -> Self {
        Self::LN_10()
    }
}

impl<T: FloatTerm, const N: usize> ComplexField for Expansion<T, N> {
    type RealField = Self;

    fn from_real(re: Self) -> Self {
        re
    }
    fn real(self) -> Self {
        self
    }
    fn imaginary(self) -> Self {
        Self::zero()
    }
    fn modulus(self) -> Self {
        E::abs(&self)
    }
    fn modulus_squared(self) -> Self {
        E::sqr(&self)
    }
    /// 0 for x ≥ 0, π for x < 0.
    fn argument(self) -> Self {
        if self >= Self::zero() {
            Self::zero()
        } else {
            Self::PI()
        }
    }
    fn norm1(self) -> Self {
        E::abs(&self)
    }
    fn scale(self, factor: Self) -> Self {
        E::mul(&self, &factor)
    }
    fn unscale(self, factor: Self) -> Self {
        E::div(&self, &factor)
    }
    fn to_exp(self) -> (Self, Self) {
        if self >= Self::zero() {
            (self, Self::one())
        } else {
            (E::neg(&self), E::neg(&Self::one()))
        }
    }
    fn signum(self) -> Self {
        <Self as Float>::signum(self)
    }
    fn floor(self) -> Self {
        E::floor(&self)
    }
    fn ceil(self) -> Self {
        E::ceil(&self)
    }
    fn round(self) -> Self {
        E::round(&self)
    }
    fn trunc(self) -> Self {
        E::trunc(&self)
    }
    fn fract(self) -> Self {
        E::fract(&self)
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        E::mul_add(&self, &a, &b)
    }
    fn abs(self) -> Self {
        E::abs(&self)
    }
    fn hypot(self, other: Self) -> Self {
        E::hypot(&self, &other)
    }
    fn recip(self) -> Self {
        E::recip(&self)
    }
    fn conjugate(self) -> Self {
        self
    }
    fn sin(self) -> Self {
        E::sin(&self)
    }
    fn cos(self) -> Self {
        E::cos(&self)
    }
    fn sin_cos(self) -> (Self, Self) {
        E::sin_cos(&self)
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
    fn log(self, base: Self) -> Self {
        <Self as Float>::log(self, base)
    }
    fn log2(self) -> Self {
        E::log2(&self)
    }
    fn log10(self) -> Self {
        E::log10(&self)
    }
    fn ln(self) -> Self {
        E::ln(&self)
    }
    fn ln_1p(self) -> Self {
        E::ln_1p(&self)
    }
    fn sqrt(self) -> Self {
        E::sqrt(&self)
    }
    fn exp(self) -> Self {
        E::exp(&self)
    }
    fn exp2(self) -> Self {
        <Self as Float>::exp2(self)
    }
    fn exp_m1(self) -> Self {
        E::exp_m1(&self)
    }
    fn powi(self, n: i32) -> Self {
        E::powi(&self, n)
    }
    fn powf(self, n: Self) -> Self {
        E::pow(&self, &n)
    }
    fn powc(self, n: Self) -> Self {
        E::pow(&self, &n)
    }
    fn cbrt(self) -> Self {
        E::cbrt(&self)
    }
    fn is_finite(&self) -> bool {
        E::is_finite(self)
    }
    /// √x for x ≥ 0, `None` for negative x or NaN.
    fn try_sqrt(self) -> Option<Self> {
        if self >= Self::zero() {
            Some(E::sqrt(&self))
        } else {
            None
        }
    }
}
