//! The machine number types an expansion is built from: `f64` and `f32`.
//!
//! [`FloatTerm`] is a small sealed trait holding exactly what the error-free transforms and the
//! expansion algorithms need (fused multiply-add, unit roundoff, exponent access). It is sealed
//! because every error bound in this crate is proven for IEEE-754 binary64 / binary32 with
//! round-to-nearest-even, and for nothing else.

use core::fmt::{Debug, Display, LowerExp};
use core::ops::{Add, Div, Mul, Neg, Sub};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for f32 {}
}

/// An IEEE-754 binary format used as the term type of an expansion (`f64` or `f32`).
pub trait FloatTerm:
    sealed::Sealed
    + Copy
    + Default
    + PartialEq
    + PartialOrd
    + Debug
    + Display
    + LowerExp
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + crate::batch::Lane<Scalar = Self>
{
    /// Significand precision p in bits (53 or 24).
    const PRECISION: u32;
    /// Unit roundoff u = 2^-p.
    const UNIT_ROUNDOFF: f64;
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Largest finite value.
    const MAX: Self;
    /// Smallest positive normal value.
    const MIN_POSITIVE: Self;
    /// Veltkamp splitting constant 2^ceil(p/2) + 1.
    const SPLITTER: Self;
    /// Short name used in files and messages (`"f64"` or `"f32"`).
    const NAME: &'static str;

    // `mul_add` (self·a + b with one rounding, hardware FMA on x86-64-v3) comes from the
    // `Lane` supertrait: a machine number is a lane type of width 1.
    /// Absolute value.
    fn abs(self) -> Self;
    /// Correctly rounded square root.
    fn sqrt(self) -> Self;
    /// True for finite values.
    fn is_finite(self) -> bool;
    /// True for NaN.
    fn is_nan(self) -> bool;
    /// Exact widening to f64.
    fn to_f64(self) -> f64;
    /// Round-to-nearest narrowing from f64 (exact for `f64`).
    fn from_f64(v: f64) -> Self;
    /// `self * 2^e`, exact unless it overflows or underflows.
    fn ldexp(self, e: i32) -> Self;
    /// Raw bit pattern widened to u64 (for hex output and bit-exact comparisons).
    fn to_bits_u64(self) -> u64;
    /// The value with raw bit pattern `b` (the low 32 bits for f32).
    fn from_bits_u64(b: u64) -> Self;
    /// Iterates orbit k at its parameters (a[k], b[k]) `steps` times with the fast tier on this
    /// CPU's SIMD lanes ([`crate::batch::henon_iterate_per_orbit_f64`] or `_f32`): the same
    /// results, bit for bit, as `henon_iterate` on [`crate::Fast`] orbit by orbit. All four
    /// slices have one entry per orbit. Forwards to [`Self::henon_iterate_per_orbit_terms`],
    /// which is compiled once, in this crate, for every N.
    #[inline]
    fn henon_iterate_per_orbit<const N: usize>(
        a: &[crate::Expansion<Self, N>],
        b: &[crate::Expansion<Self, N>],
        xs: &mut [crate::Expansion<Self, N>],
        ys: &mut [crate::Expansion<Self, N>],
        steps: u64,
    ) {
        use crate::runtime::{terms_of, terms_of_mut};
        Self::henon_iterate_per_orbit_terms(
            N,
            terms_of(a),
            terms_of(b),
            terms_of_mut(xs),
            terms_of_mut(ys),
            steps,
        )
    }
    /// [`Self::henon_iterate_per_orbit`] with a run-time number of terms `n` and the
    /// expansions as flat slices of terms (expansion k at `k·n .. (k+1)·n`).
    fn henon_iterate_per_orbit_terms(
        n: usize,
        a: &[Self],
        b: &[Self],
        xs: &mut [Self],
        ys: &mut [Self],
        steps: u64,
    );
    /// As [`Self::henon_iterate_per_orbit_terms`], one orbit at a time through the scalar fast
    /// tier (the reference the lanes are checked against).
    fn henon_iterate_scalar_per_orbit_terms(
        n: usize,
        a: &[Self],
        b: &[Self],
        xs: &mut [Self],
        ys: &mut [Self],
        steps: u64,
    );
    /// An elementary function of an expansion of `n` terms given padded to 8 terms: the
    /// instance compiled once in this crate ([`crate::functions::eval_unary_f64`]).
    fn eval_unary_terms(
        f: crate::functions::Unary,
        n: usize,
        x: &[Self; crate::MAX_TERMS],
    ) -> [Self; crate::MAX_TERMS];
    /// As [`Self::eval_unary_terms`] for a function of two arguments.
    fn eval_binary_terms(
        f: crate::functions::Binary,
        n: usize,
        x: &[Self; crate::MAX_TERMS],
        y: &[Self; crate::MAX_TERMS],
    ) -> [Self; crate::MAX_TERMS];
}

macro_rules! impl_float_term {
    ($t:ty, $p:expr, $splitter:expr, $name:expr, $per_orbit:path, $scalar:path, $unary:path, $binary:path) => {
        impl FloatTerm for $t {
            fn eval_unary_terms(
                f: crate::functions::Unary,
                n: usize,
                x: &[Self; crate::MAX_TERMS],
            ) -> [Self; crate::MAX_TERMS] {
                $unary(f, n, x)
            }
            fn eval_binary_terms(
                f: crate::functions::Binary,
                n: usize,
                x: &[Self; crate::MAX_TERMS],
                y: &[Self; crate::MAX_TERMS],
            ) -> [Self; crate::MAX_TERMS] {
                $binary(f, n, x, y)
            }
            // Not `#[inline]`: these are the only instances of the N matrix (see
            // `crate::runtime`), compiled here and called, not copied, by other crates.
            fn henon_iterate_per_orbit_terms(
                n: usize,
                a: &[Self],
                b: &[Self],
                xs: &mut [Self],
                ys: &mut [Self],
                steps: u64,
            ) {
                $per_orbit(n, a, b, xs, ys, steps)
            }
            fn henon_iterate_scalar_per_orbit_terms(
                n: usize,
                a: &[Self],
                b: &[Self],
                xs: &mut [Self],
                ys: &mut [Self],
                steps: u64,
            ) {
                $scalar(n, a, b, xs, ys, steps)
            }
            const PRECISION: u32 = $p;
            const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << $p) as f64;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const MAX: Self = <$t>::MAX;
            const MIN_POSITIVE: Self = <$t>::MIN_POSITIVE;
            const SPLITTER: Self = $splitter;
            const NAME: &'static str = $name;

            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn ldexp(self, e: i32) -> Self {
                // Fast path: 2^e is a normal number, built from its bits; one multiplication,
                // exact whenever the result is representable.
                let min_step: i32 = <$t>::MIN_EXP - 1;
                let step: i32 = (<$t>::MAX_EXP - 1) as i32;
                if (min_step..=step).contains(&e) {
                    let m = <$t>::MANTISSA_DIGITS - 1;
                    let bias = <$t>::MAX_EXP - 1;
                    return self * <$t as FloatTerm>::from_bits_u64(((e + bias) as u64) << m);
                }
                // Multiply by powers of two in steps that are themselves representable, so the
                // result is exact whenever it is representable (the final step may round
                // only when the result is subnormal).
                let mut x = self;
                let mut e = e;
                while e > step {
                    x = x * (2.0 as $t).powi(step);
                    e -= step;
                }
                while e < min_step {
                    x = x * (2.0 as $t).powi(min_step);
                    e -= min_step;
                }
                x * (2.0 as $t).powi(e)
            }
            #[inline(always)]
            fn to_bits_u64(self) -> u64 {
                self.to_bits() as u64
            }
            #[inline(always)]
            fn from_bits_u64(b: u64) -> Self {
                <$t>::from_bits(b as _)
            }
        }
    };
}

impl_float_term!(
    f64,
    53,
    134_217_729.0,
    "f64",
    crate::runtime::henon_iterate_per_orbit_f64,
    crate::runtime::scalar_per_orbit_f64,
    crate::functions::eval_unary_f64,
    crate::functions::eval_binary_f64
);
impl_float_term!(
    f32,
    24,
    4097.0,
    "f32",
    crate::runtime::henon_iterate_per_orbit_f32,
    crate::runtime::scalar_per_orbit_f32,
    crate::functions::eval_unary_f32,
    crate::functions::eval_binary_f32
);

/// ulp(x) for a finite `x` of type `T`: the spacing of `T`'s numbers at |x|, 2^{e−p+1} for
/// 2^e ≤ |x| < 2^{e+1} in the normal range and the smallest subnormal below it (and at 0).
#[inline(always)]
pub fn ulp<T: FloatTerm>(x: T) -> T {
    // Bit level: with m = p − 1 fraction bits and biased exponent E of |x|, ulp is the number
    // with biased exponent E − m when E > m (normal), else the subnormal 2^(E−1) units of the
    // smallest subnormal (E ≥ 1), or the smallest subnormal (E = 0: zero and subnormals).
    let m = T::PRECISION - 1;
    let e = x.abs().to_bits_u64() >> m;
    let bits = if e > m as u64 {
        (e - m as u64) << m
    } else if e == 0 {
        1
    } else {
        1u64 << (e - 1)
    };
    T::from_bits_u64(bits)
}
