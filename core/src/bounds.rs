//! Relative error bounds of the accurate tier, as functions of N and u = 2^-p.
//!
//! These are the numbers the interval crate widens by, so they must be *upper* bounds. Each is
//! stated for results away from overflow and underflow: every term of the operands and the
//! result, and every error term of every 2ProdFMA, must be a normal number (for f64 terms near
//! 1 this holds up to N = 8 with room to spare: the last term is about 2^-420; for f32 terms
//! the last term of an 8-term expansion near 1 is about 2^-190, below f32's normal range, so
//! bounds for f32 hold for N ≤ 4 near 1 and for N ≤ 8 only for values above 2^70).
//!
//! Derivation (ulp-nonoverlapping outputs, |x_{i+1}| ≤ ulp(x_i) ≤ 2u|x_i|):
//! - VecSumErrBranch keeps a tail below ulp of the last kept term, so truncating an exact sum S
//!   to N terms loses at most (2u)^N·|S|·(1 + 2u)/(1 − 2u) (JMMP 2016, Prop. 3.4 and Thm. 3.5).
//! - add: the merge and VecSum are exact; only the truncation loses: 2·(2u)^N is a bound with
//!   room for the (1 + 2u)/(1 − 2u) factor.
//! - mul: products with i + j < N are exact; those with i + j = N are rounded (at most
//!   (N+1)·u·(2u)^N·|x₀y₀|), those with i + j > N are dropped (at most (N+2)·(2u)^{N+1}·|x₀y₀|
//!   ·(1+4u)); plus the truncation. With |xy| ≥ |x₀y₀|(1 − 2u)², 4·(2u)^N covers all for N ≤ 8.
//! - div, sqrt: measured well below the stated bound by `tests/accurate_vs_mpfr.rs`; the
//!   stated bound (16·(2u)^N) follows from the remainder being exact: the quotient's N + 1
//!   digits leave a remainder below 2·(2u)^N |x|, and truncation adds 2·(2u)^N.

use crate::float::FloatTerm;

/// (2u)^N as f64 for term type `T` (exact: a power of two; underflows to 0 only for N·p ≥ 1074).
pub fn two_u_pow<T: FloatTerm>(n: usize) -> f64 {
    let e = -((T::PRECISION as i32 - 1) * n as i32);
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// u^N as f64 (the unit the tests report worst errors in).
pub fn u_pow<T: FloatTerm>(n: usize) -> f64 {
    let e = -(T::PRECISION as i32 * n as i32);
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// Relative error bound of accurate add/sub: 2·(2u)^N.
pub fn add_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    2.0 * two_u_pow::<T>(n)
}

/// Relative error bound of accurate mul/sqr/mul_term: 4·(2u)^N.
pub fn mul_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    4.0 * two_u_pow::<T>(n)
}

/// Relative error bound of accurate div/recip/div_term: 16·(2u)^N.
pub fn div_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    16.0 * two_u_pow::<T>(n)
}

/// Relative error bound of accurate sqrt: 16·(2u)^N.
pub fn sqrt_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    16.0 * two_u_pow::<T>(n)
}

/// Smallest magnitude of a finite non-zero *result* for which the bounds above hold, for an
/// N-term expansion of `T`: every term of the result stays normal when the leading term is at
/// least this. (2^{(N−1)(p−1)} · MIN_POSITIVE · 2^{p+1}, as f64; for f64 with N = 8 about
/// 2^-600.)
pub fn min_normal_result<T: FloatTerm>(n: usize) -> f64 {
    let e = (n as i32 - 1) * (T::PRECISION as i32 - 1) + T::PRECISION as i32 + 1;
    <f64 as FloatTerm>::ldexp(T::MIN_POSITIVE.to_f64(), e)
}
