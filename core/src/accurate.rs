//! The *accurate* tier: every operation has a proven relative error bound (see
//! [`crate::bounds`]) and returns an ulp-nonoverlapping expansion. This is the arithmetic the
//! interval crate builds on.
//!
//! Algorithms:
//! - addition: JMMP 2016 Alg. 4: merge the terms of both operands by magnitude, VecSum,
//!   VecSumErrBranch to N terms;
//! - multiplication: all products x_i·y_j with i + j < N by 2ProdFMA (exact), those with
//!   i + j = N rounded, accumulated *exactly* into a nonoverlapping expansion (Shewchuk's
//!   GrowExpansion with zero elimination), then VecSumErrBranch to N terms;
//! - division: long division with N + 1 quotient digits, each remainder computed exactly by
//!   the same exact accumulation;
//! - square root: Newton's iteration s ← s + (x − s²)/(2s) from the f64 square root.
//!
//! Non-finite results follow IEEE: if the operation on the leading terms is ±∞ or NaN, that is
//! the result; an intermediate overflow that IEEE would not see yields NaN, never a finite
//! wrong value.

use crate::eft::{two_prod, two_sum, vec_sum, vec_sum_err_branch};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

/// Room for the exact accumulators below: at most 2·N(N+1)/2 + N + 1 + 1 terms for N ≤ 8.
const EXACT_CAP: usize = 96;

/// An exact sum of machine numbers kept as a Shewchuk nonoverlapping expansion in increasing
/// order of magnitude (zero-eliminated). Adding a term is exact (Shewchuk 1997, Thm. 10,
/// round-to-nearest-even).
pub(crate) struct ExactSum<T: FloatTerm> {
    terms: [T; EXACT_CAP],
    len: usize,
}

impl<T: FloatTerm> ExactSum<T> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            terms: [T::ZERO; EXACT_CAP],
            len: 0,
        }
    }

    /// Adds `b` exactly (GrowExpansion with zero elimination).
    #[inline(always)]
    pub(crate) fn add(&mut self, b: T) {
        if b == T::ZERO {
            return;
        }
        let mut q = b;
        let mut out = 0;
        for i in 0..self.len {
            let (s, h) = two_sum(q, self.terms[i]);
            if h != T::ZERO {
                self.terms[out] = h;
                out += 1;
            }
            q = s;
        }
        if q != T::ZERO {
            self.terms[out] = q;
            out += 1;
        }
        self.len = out;
    }

    /// The N-term ulp-nonoverlapping expansion nearest the exact sum (JMMP VecSumErrBranch on
    /// the decreasing sequence; the truncated tail is below ulp of the last kept term).
    #[inline(always)]
    pub(crate) fn round<const N: usize>(&self) -> [T; N] {
        let mut dec = [T::ZERO; EXACT_CAP];
        for i in 0..self.len {
            dec[i] = self.terms[self.len - 1 - i];
        }
        let mut out = [T::ZERO; N];
        vec_sum_err_branch(&dec[..self.len.max(1)], &mut out);
        out
    }

    /// The sum rounded to one machine number with relative error below about 2u (recursive
    /// summation from the smallest term up; the top term alone can be off by a factor of 2,
    /// since Shewchuk-nonoverlapping terms may be adjacent powers of two of opposite signs).
    #[inline(always)]
    pub(crate) fn approx(&self) -> T {
        let mut s = T::ZERO;
        for i in 0..self.len {
            s = s + self.terms[i];
        }
        s
    }
}

/// IEEE semantics for non-finite values: if `naive` (the operation on leading terms) is not
/// finite it is the result; if the expansion result is not finite while `naive` is, an
/// intermediate overflowed and the result is NaN.
#[inline(always)]
fn settle_nonfinite<T: FloatTerm, const N: usize>(result: [T; N], naive: T) -> Expansion<T, N> {
    let finite = result.iter().all(|t| t.is_finite());
    if finite && naive.is_finite() {
        return Expansion::from_normalized(result);
    }
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    if finite {
        // naive overflowed but the exact computation did not: keep the exact result.
        return Expansion::from_normalized(result);
    }
    Expansion::from_term(T::ZERO * T::MAX.mul_add(T::MAX, T::ZERO)) // NaN: 0·∞
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// Accurate addition (JMMP Alg. 4). Relative error ≤ [`crate::bounds::add_rel_bound`].
    #[inline]
    pub fn add(&self, other: &Self) -> Self {
        let x = &self.terms;
        let y = &other.terms;
        // Merge by decreasing magnitude.
        let mut merged = [[T::ZERO; N]; 2];
        {
            let flat: &mut [T] = merged.as_flattened_mut();
            let (mut i, mut j) = (0, 0);
            for slot in flat.iter_mut() {
                let take_x = j >= N || (i < N && x[i].abs() >= y[j].abs());
                if take_x {
                    *slot = x[i];
                    i += 1;
                } else {
                    *slot = y[j];
                    j += 1;
                }
            }
        }
        let flat: &mut [T] = merged.as_flattened_mut();
        vec_sum(flat);
        let mut out = [T::ZERO; N];
        vec_sum_err_branch(flat, &mut out);
        settle_nonfinite(out, x[0] + y[0])
    }

    /// Accurate subtraction: `self + (−other)`, same bound as [`Self::add`].
    #[inline]
    pub fn sub(&self, other: &Self) -> Self {
        self.add(&other.neg())
    }

    /// Accurate addition of a machine number.
    #[inline]
    pub fn add_term(&self, t: T) -> Self {
        self.add(&Self::from_term(t))
    }

    /// Accurate multiplication. Relative error ≤ [`crate::bounds::mul_rel_bound`].
    #[inline]
    pub fn mul(&self, other: &Self) -> Self {
        let x = &self.terms;
        let y = &other.terms;
        let mut acc = ExactSum::<T>::new();
        // Smallest orders first keeps the exact accumulator short.
        for k in (0..=N).rev() {
            for i in 0..=k {
                let j = k - i;
                if i >= N || j >= N {
                    continue;
                }
                if k == N {
                    acc.add(x[i] * y[j]);
                } else {
                    let (p, e) = two_prod(x[i], y[j]);
                    acc.add(e);
                    acc.add(p);
                }
            }
        }
        settle_nonfinite(acc.round::<N>(), x[0] * y[0])
    }

    /// Accurate square, same bound as [`Self::mul`].
    #[inline]
    pub fn sqr(&self) -> Self {
        self.mul(self)
    }

    /// Accurate multiplication by a machine number.
    #[inline]
    pub fn mul_term(&self, t: T) -> Self {
        let mut acc = ExactSum::<T>::new();
        for i in (0..N).rev() {
            let (p, e) = two_prod(self.terms[i], t);
            acc.add(e);
            acc.add(p);
        }
        settle_nonfinite(acc.round::<N>(), self.terms[0] * t)
    }

    /// Accurate division by long division with N + 1 quotient digits; each remainder is
    /// exact. Relative error ≤ [`crate::bounds::div_rel_bound`]. Division by zero gives ±∞ or
    /// NaN as IEEE.
    pub fn div(&self, other: &Self) -> Self {
        let y0 = other.terms[0];
        let naive = self.terms[0] / y0;
        if !naive.is_finite() || y0 == T::ZERO {
            return Expansion::from_term(naive);
        }
        // Remainder r = x − q·y, held exactly.
        let mut rem = ExactSum::<T>::new();
        for &t in self.terms.iter().rev() {
            rem.add(t);
        }
        let mut q = [[T::ZERO; N]; 2];
        let qf = q.as_flattened_mut();
        for qi in qf.iter_mut().take(N + 1) {
            let digit = rem.approx() / y0;
            *qi = digit;
            if digit == T::ZERO || !digit.is_finite() {
                break;
            }
            for &yj in other.terms.iter().rev() {
                let (p, e) = two_prod(digit, yj);
                rem.add(-e);
                rem.add(-p);
            }
        }
        let mut sum = ExactSum::<T>::new();
        for &d in qf.iter().take(N + 1).rev() {
            sum.add(d);
        }
        settle_nonfinite(sum.round::<N>(), naive)
    }

    /// Accurate division by a machine number.
    pub fn div_term(&self, t: T) -> Self {
        self.div(&Self::from_term(t))
    }

    /// Accurate reciprocal 1/x.
    pub fn recip(&self) -> Self {
        Self::one().div(self)
    }

    /// Accurate square root by Newton's iteration s ← s + (x − s²)/(2s), starting from the
    /// correctly rounded square root of the leading term; each step doubles the correct bits.
    /// Relative error ≤ [`crate::bounds::sqrt_rel_bound`]. √(−0) = −0; negative input gives
    /// NaN.
    pub fn sqrt(&self) -> Self {
        let x0 = self.terms[0];
        if x0 == T::ZERO {
            return *self;
        }
        if x0 < T::ZERO || !x0.is_finite() {
            return Expansion::from_term(x0.sqrt());
        }
        let mut s = Self::from_term(x0.sqrt());
        // Correct bits: about p after the start, doubling per step, N·p needed, plus one
        // step of margin.
        let mut bits = T::PRECISION as usize;
        let need = N * T::PRECISION as usize + 8;
        while bits < need {
            let resid = self.sub(&s.sqr());
            s = s.add(&resid.div(&s.mul_term(T::ONE + T::ONE)));
            bits *= 2;
        }
        let resid = self.sub(&s.sqr());
        s.add(&resid.div(&s.mul_term(T::ONE + T::ONE)))
    }
}
