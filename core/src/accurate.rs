//! The *accurate* tier: every operation has a proven relative error bound (see
//! [`crate::bounds`], where the proofs are written out) and returns an ulp-nonoverlapping
//! expansion. This is the arithmetic the interval crate builds on.
//!
//! Algorithms, by N:
//! - N = 1: the IEEE operation itself (correctly rounded).
//! - N = 2: the double-word algorithms of Joldes, Muller, Popescu (ACM TOMS 2017):
//!   AccurateDWPlusDW (their Alg. 6) for add/sub/add_term, DWTimesDW with FMA (their Alg. 12)
//!   for mul/sqr, DWTimesFP with FMA (Alg. 9) for mul_term; see [`crate::dw`]. Division and
//!   square root use the generic algorithms below.
//! - N ≥ 3 (and div/sqrt for N = 2): every exact intermediate is a list of machine numbers
//!   produced by error-free transforms (2Sum, 2ProdFMA), renormalised to N terms by VecSum and
//!   VecSumErrBranch with 2Sum (JMMP 2016 Alg. 6) in [`certified_round`]. Every 2Sum there is
//!   exact, so the only loss is the dropped tail; the facts the bounds need (output
//!   ulp-nonoverlapping, dropped tail < ulp of the last kept term) are *checked at run time*
//!   (a few comparisons), with up to three VecSum passes. When the check fails (rare: see
//!   `tests/it/fast_paths.rs`) the operation runs its exact reference (`reference_add`,
//!   `reference_mul`, `reference_mul_term`, `reference_div`, `reference_sqrt`: the exact value
//!   or remainder accumulated in an [`ExactSum`], a Shewchuk nonoverlapping expansion, and
//!   rounded by VecSumErrBranch), which satisfies the same facts by proof. Addition: JMMP
//!   Alg. 4 with the terms interleaved. Multiplication: products of order ≤ N − 2 exact, the
//!   leading parts of order N − 1 exact, the errors of order N − 1 and the products of order N
//!   accumulated into one term, the rest dropped; the list gets one extra VecSum before the
//!   certified renormalisation (see `fast_mul`). Squaring: the same with each symmetric
//!   product 2x_i·x_j taken once (`sqr_list`). Division: long division with N + 1 digits,
//!   each remainder R − d·y formed exactly and rounded to N terms. Square root: N corrections
//!   of the f64 square root, each remainder x − s² updated exactly and rounded to N terms. No
//!   heap, fixed-size arrays.
//!
//! Non-finite values follow IEEE: if the operation on the leading terms is ±∞ or NaN, that is
//! the result; a NaN or ∞ in a lower term propagates as NaN; an intermediate overflow that IEEE
//! would not see yields NaN, never a finite wrong value.

use crate::batch::Lane;
use crate::dw;
use crate::eft::{two_prod, two_sqr, two_sum, vec_sum};
use crate::expansion::Expansion;
use crate::float::ulp;
use crate::float::FloatTerm;

/// Room for the exact accumulators below: the most terms ever added to one accumulator is
/// N + 2N(N+1) = 152 (division, N = 8); each addition grows the accumulator by at most one.
const EXACT_CAP: usize = 160;

/// An exact sum of machine numbers kept as a Shewchuk nonoverlapping expansion in increasing
/// order of magnitude, zero-eliminated. Adding a term is exact (Shewchuk 1997, Thm. 10; 2Sum is
/// exact in binary arithmetic even when the result is subnormal). Overflow is the only way to
/// lose exactness; callers check for non-finite results.
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
        debug_assert!(out <= EXACT_CAP);
        self.len = out;
    }

    /// Adds the exact product a·b (two terms, by 2ProdFMA; exact unless the error term
    /// underflows).
    #[inline(always)]
    pub(crate) fn add_prod(&mut self, a: T, b: T) {
        let (p, e) = two_prod(a, b);
        self.add(e);
        self.add(p);
    }

    /// True when the exact sum is zero.
    #[inline(always)]
    pub(crate) fn is_zero(&self) -> bool {
        self.len == 0
    }

    /// True when every stored term is finite.
    #[inline(always)]
    fn is_finite(&self) -> bool {
        self.terms[..self.len].iter().all(|t| t.is_finite())
    }

    /// Rounds the exact sum S to `out.len()` terms by VecSumErrBranch (JMMP 2016 Alg. 7 with
    /// 2Sum) run on the terms in decreasing order. Returns the number of non-zero terms.
    ///
    /// Claim (proved in [`crate::bounds`], "rounding an exact sum"): the output y is
    /// ulp-nonoverlapping, |y_{k+1}| ≤ ulp(y_k), zeros only at the end, and
    /// |S − Σ y| < ulp(y_{m−1}) for the last kept term (0 when nothing is dropped).
    #[inline(always)]
    fn round_into(&self, out: &mut [T]) -> usize {
        let m = out.len();
        for o in out.iter_mut() {
            *o = T::ZERO;
        }
        if self.len == 0 {
            return 0;
        }
        let mut j = 0usize;
        let mut eps = self.terms[self.len - 1];
        for i in (0..self.len - 1).rev() {
            let (r, err) = two_sum(eps, self.terms[i]);
            if err != T::ZERO {
                out[j] = r;
                j += 1;
                if j >= m {
                    return m;
                }
                eps = err;
            } else {
                eps = r;
            }
        }
        if eps != T::ZERO {
            out[j] = eps;
            j += 1;
        }
        j
    }

    /// The N-term ulp-nonoverlapping rounding of the exact sum (see [`Self::round_into`]).
    #[inline(always)]
    pub(crate) fn round<const N: usize>(&self) -> [T; N] {
        let mut out = [T::ZERO; N];
        self.round_into(&mut out);
        out
    }

    /// One machine number approximating the exact sum S with |S − lead| < ulp(lead), hence
    /// relative error below 2u/(1 − 2u) in the normal range.
    #[inline(always)]
    pub(crate) fn lead(&self) -> T {
        let mut out = [T::ZERO; 1];
        self.round_into(&mut out);
        out[0]
    }
}

/// NaN of type T.
#[inline(always)]
fn nan<T: FloatTerm>() -> T {
    T::from_f64(f64::NAN)
}

/// The leading term, or — when some term is not finite — the IEEE sum of all terms (NaN if any
/// term is NaN), so that a non-finite lower term is never hidden behind a finite leading term.
#[inline(always)]
pub(crate) fn lead_or_nonfinite<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> T {
    if x.terms.iter().all(|t| t.is_finite()) {
        x.terms[0]
    } else {
        x.terms.iter().fold(T::ZERO, |a, &t| a + t)
    }
}

/// IEEE semantics for non-finite values and signed zeros. `naive` is the operation on the
/// leading terms. If it is not finite it is the result. If the expansion result is not finite
/// while `naive` is, an intermediate overflowed and the result is NaN. A zero result takes the
/// sign IEEE gives (`naive` when it is zero, +0 after exact cancellation).
#[inline(always)]
pub(crate) fn settle<T: FloatTerm, const N: usize>(result: [T; N], naive: T) -> Expansion<T, N> {
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    if !result.iter().all(|t| t.is_finite()) {
        return Expansion::from_term(nan());
    }
    if result[0] == T::ZERO {
        return Expansion::from_term(if naive == T::ZERO { naive } else { T::ZERO });
    }
    Expansion::from_normalized(result)
}

/// Rounds an exact accumulator to N terms and settles non-finite cases. For N = 2 the two terms
/// are finally passed through Fast2Sum (exact) so every accurate N = 2 result is a normalised
/// double-word (|lo| ≤ ½ ulp(hi)), as the double-word algorithms assume.
#[inline(always)]
fn finish<T: FloatTerm, const N: usize>(acc: &ExactSum<T>, naive: T) -> Expansion<T, N> {
    if !acc.is_finite() {
        return settle([nan(); N], naive);
    }
    let mut out = acc.round::<N>();
    if N == 2 {
        let (h, l) = crate::eft::fast_two_sum(out[0], out[1]);
        out[0] = h;
        out[1] = l;
    }
    settle(out, naive)
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// Accurate addition. Relative error ≤ [`crate::bounds::add_rel_bound`] (N = 1: IEEE;
    /// N = 2: AccurateDWPlusDW; N ≥ 3: exact sum rounded to N terms).
    #[inline]
    pub fn add(&self, other: &Self) -> Self {
        let naive = lead_or_nonfinite(self) + lead_or_nonfinite(other);
        if !naive.is_finite() {
            return Self::from_term(naive);
        }
        if N == 1 {
            return Self::from_term(naive);
        }
        if N == 2 {
            let (h, l) = dw::add_dw(
                (self.terms[0], self.terms[1]),
                (other.terms[0], other.terms[1]),
            );
            let mut out = [T::ZERO; N];
            out[0] = h;
            out[1] = l;
            return settle(out, naive);
        }
        // JMMP 2016 Alg. 4 (terms interleaved), VecSum, VecSumErrBranch, with the run-time
        // certificate of `certified_round`; the exact reference when it fails (rare).
        match fast_add(&self.terms, &other.terms) {
            Some(out) => settle(out, naive),
            None => reference_add(self, other),
        }
    }

    /// Accurate subtraction: `self + (−other)`, same bound as [`Self::add`].
    #[inline]
    pub fn sub(&self, other: &Self) -> Self {
        self.add(&other.neg())
    }

    /// Accurate addition of a machine number; bound [`crate::bounds::add_rel_bound`]. The
    /// same result, bit for bit, as `self.add(&Self::from_term(t))` (see [`fast_add_term`]).
    #[inline]
    pub fn add_term(&self, t: T) -> Self {
        // lead_or_nonfinite of the one-term expansion t is t.
        let naive = lead_or_nonfinite(self) + t;
        if !naive.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        if N == 2 {
            let (h, l) = dw::add_dw((self.terms[0], self.terms[1]), (t, T::ZERO));
            let mut out = [T::ZERO; N];
            out[0] = h;
            out[1] = l;
            return settle(out, naive);
        }
        match fast_add_term(&self.terms, t) {
            Some(out) => settle(out, naive),
            None => reference_add(self, &Self::from_term(t)),
        }
    }

    /// `self + c − y`. For N ≥ 3 the exact sum of the 2N + 1 terms is renormalised once, as
    /// [`Self::add`] renormalises its 2N (relative error ≤ [`crate::bounds::add_rel_bound`]);
    /// for N ≤ 2 it is `self.add_term(c).sub(y)` (two roundings). This is the Hénon map's
    /// x' = 1 + y − a·x² in one operation instead of two (`crate::henon`).
    ///
    /// ```
    /// use expanse_core::Expansion;
    /// let y: Expansion<f64, 4> = "0.3".parse().unwrap();
    /// let t: Expansion<f64, 4> = "1.4".parse().unwrap();
    /// let x = y.add_term_sub(1.0, &t); // 1 + 0.3 − 1.4
    /// let want: Expansion<f64, 4> = "-0.1".parse().unwrap();
    /// assert!(x.sub(&want).hi().abs() < 1e-60);
    /// ```
    #[inline]
    pub fn add_term_sub(&self, c: T, y: &Self) -> Self {
        if N <= 2 {
            return self.add_term(c).sub(y);
        }
        // The leading terms' IEEE value in the order of `add_term` then `sub` (for the sign of
        // a zero result and for non-finite operands, as those two operations settle them).
        let naive = (lead_or_nonfinite(self) + c) - lead_or_nonfinite(y);
        if !naive.is_finite() {
            return Self::from_term(naive);
        }
        match fast_add_term_sub(&self.terms, c, &y.terms) {
            Some(out) => settle(out, naive),
            None => reference_add_term_sub(self, c, y),
        }
    }

    /// Accurate multiplication. Relative error ≤ [`crate::bounds::mul_rel_bound`].
    #[inline]
    pub fn mul(&self, other: &Self) -> Self {
        let naive = lead_or_nonfinite(self) * lead_or_nonfinite(other);
        if !naive.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        let x = &self.terms;
        let y = &other.terms;
        if N == 2 {
            let (h, l) = dw::mul_dw((x[0], x[1]), (y[0], y[1]));
            let mut out = [T::ZERO; N];
            out[0] = h;
            out[1] = l;
            return settle(out, naive);
        }
        match fast_mul(x, y) {
            Some(out) => settle(out, naive),
            None => reference_mul(self, other),
        }
    }

    /// Accurate square, same bound as [`Self::mul`] ([`crate::bounds::mul_rel_bound`]). For
    /// N ≤ 2 it is `self.mul(self)`; for N ≥ 3 its term list takes each symmetric product
    /// 2x_i·x_j once ([`sqr_list`]: 37 terms instead of the product's 65 at N = 8), so it
    /// costs about 60% of a multiplication and may differ from `self.mul(self)` in the last
    /// bits (both within the bound).
    #[inline]
    pub fn sqr(&self) -> Self {
        if N <= 2 {
            return self.mul(self);
        }
        let naive = lead_or_nonfinite(self) * lead_or_nonfinite(self);
        if !naive.is_finite() {
            return Self::from_term(naive);
        }
        match fast_sqr(&self.terms) {
            Some(out) => settle(out, naive),
            None => reference_mul(self, self),
        }
    }

    /// Accurate multiplication by a machine number; relative error ≤
    /// [`crate::bounds::mul_term_rel_bound`] (≤ [`crate::bounds::mul_rel_bound`]).
    #[inline]
    pub fn mul_term(&self, t: T) -> Self {
        let naive = lead_or_nonfinite(self) * t;
        if !naive.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        if N == 2 {
            let (h, l) = dw::mul_fp((self.terms[0], self.terms[1]), t);
            let mut out = [T::ZERO; N];
            out[0] = h;
            out[1] = l;
            return settle(out, naive);
        }
        match fast_mul_term(&self.terms, t) {
            Some(out) => settle(out, naive),
            None => reference_mul_term(self, t),
        }
    }

    /// Accurate division: long division with N + 1 quotient digits; each remainder update
    /// R − d·y is formed exactly (2ProdFMA) and rounded to N terms by the certified
    /// renormalisation. Relative error ≤ [`crate::bounds::div_rel_bound`]. Division by zero
    /// gives ±∞ or NaN as IEEE.
    pub fn div(&self, other: &Self) -> Self {
        let y0 = lead_or_nonfinite(other);
        let naive = lead_or_nonfinite(self) / y0;
        if !naive.is_finite() || !y0.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        if self.terms[0] == T::ZERO {
            return Self::from_term(naive);
        }
        match fast_div(&self.terms, &other.terms) {
            Some(mut out) => {
                if N == 2 {
                    let (h, l) = crate::eft::fast_two_sum(out[0], out[1]);
                    out[0] = h;
                    out[1] = l;
                }
                settle(out, naive)
            }
            None => reference_div(self, other),
        }
    }

    /// Accurate division by a machine number; bound [`crate::bounds::div_rel_bound`].
    pub fn div_term(&self, t: T) -> Self {
        self.div(&Self::from_term(t))
    }

    /// Accurate reciprocal 1/x; bound [`crate::bounds::div_rel_bound`].
    pub fn recip(&self) -> Self {
        Self::one().div(self)
    }

    /// Accurate square root: the correctly rounded square root t of the leading term, then N
    /// correction digits d = lead(x − s²)/(2t), each remainder x − s² held exactly.
    /// Relative error ≤ [`crate::bounds::sqrt_rel_bound`]. √(±0) = ±0; negative input gives
    /// NaN; √∞ = ∞.
    pub fn sqrt(&self) -> Self {
        let x0 = lead_or_nonfinite(self);
        if x0 <= T::ZERO || !x0.is_finite() || N == 1 {
            return Self::from_term(x0.sqrt());
        }
        let t = x0.sqrt();
        match fast_sqrt(&self.terms, t) {
            Some(mut out) => {
                if N == 2 {
                    let (h, l) = crate::eft::fast_two_sum(out[0], out[1]);
                    out[0] = h;
                    out[1] = l;
                }
                settle(out, t)
            }
            None => reference_sqrt(self),
        }
    }
}

/// Square root by N corrections of t = RN(√x₀) (see [`crate::bounds::sqrt_rel_bound`]):
/// digits d = RN(R̂_{k,0}/(2t)); the remainder R̂ ≈ x − s² (s the digits so far) is updated
/// as R̂ − 2·s·d − d², formed exactly (2ProdFMA on 2d, exact) and rounded to N terms by
/// [`certified_round`]; finally the N + 1 digits are rounded to N terms, certified. `None`
/// when a certificate fails or a digit is not finite.
#[inline(always)]
fn fast_sqrt<T: FloatTerm, const N: usize>(x: &[T; N], t: T) -> Option<[T; N]> {
    let two_t = t + t;
    let mut digits = [T::ZERO; 9];
    digits[0] = t;
    let mut count = 1usize;
    // R̂₁ = round_N(x − t²).
    let mut v = [T::ZERO; 32];
    let (p, e) = two_sqr(t);
    let (c, ce) = two_sum(x[0], -p);
    v[0] = c;
    v[1] = ce;
    v[2] = -e;
    let mut len = 3usize;
    for &xi in &x[1..] {
        v[len] = xi;
        len += 1;
    }
    let mut r = certified_round::<T, N>(&mut v[..len])?;
    for step in 0..N {
        if r[0] == T::ZERO {
            break;
        }
        let d = r[0] / two_t;
        if !d.is_finite() {
            return None;
        }
        digits[count] = d;
        count += 1;
        if step + 1 == N {
            break;
        }
        // R̂ − 2·s·d − d², with 2·d_i·d = 2Prod(d_i, 2d) exactly.
        let two_d = d + d;
        let (p0, e0) = two_prod(-t, two_d);
        let (c, ce) = two_sum(r[0], p0);
        v[0] = c;
        v[1] = ce;
        let mut len = 2usize;
        // Level by level (the product of digit j and 2d, the error of level j − 1's
        // product, the remainder's term j), so that VecSum sees near-decreasing magnitudes.
        let mut prev_e = e0;
        for j in 1..N {
            if j + 1 < count {
                let (p, e) = two_prod(-digits[j], two_d);
                v[len] = p;
                v[len + 1] = prev_e;
                len += 2;
                prev_e = e;
            } else {
                v[len] = prev_e;
                len += 1;
                prev_e = T::ZERO;
            }
            v[len] = r[j];
            len += 1;
        }
        v[len] = prev_e;
        len += 1;
        let (p, e) = two_sqr(d);
        v[len] = -p;
        v[len + 1] = -e;
        len += 2;
        r = certified_round::<T, N>(&mut v[..len])?;
    }
    certified_round::<T, N>(&mut digits[..count])
}

/// Reference accurate square root (N ≥ 2): the same corrections with the remainder held
/// exactly in a Shewchuk accumulator (the previous algorithm; within
/// [`crate::bounds::sqrt_rel_bound`]). Slow; fallback of [`Expansion::sqrt`].
pub fn reference_sqrt<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Expansion<T, N> {
    let x0 = lead_or_nonfinite(x);
    if x0 <= T::ZERO || !x0.is_finite() || N == 1 {
        return Expansion::from_term(x0.sqrt());
    }
    let t = x0.sqrt();
    let two_t = t + t;
    let mut digits = [T::ZERO; 9];
    digits[0] = t;
    let mut rem = ExactSum::<T>::new();
    for &xi in x.terms.iter().rev() {
        rem.add(xi);
    }
    let (p, e) = two_sqr(t);
    rem.add(-e);
    rem.add(-p);
    let mut count = 1usize;
    for _ in 0..N {
        if rem.is_zero() {
            break;
        }
        let d = rem.lead() / two_t;
        if !d.is_finite() {
            return settle([nan(); N], t);
        }
        // x − (s + d)² = (x − s²) − 2·s·d − d², with s = Σ digits so far; 2·d_i·d is
        // computed exactly as 2Prod(d_i, 2d) (2d is exact).
        let two_d = d + d;
        for &di in digits[..count].iter() {
            rem.add_prod(-di, two_d);
        }
        let (p, e) = two_sqr(d);
        rem.add(-e);
        rem.add(-p);
        digits[count] = d;
        count += 1;
    }
    let mut s = ExactSum::<T>::new();
    for &d in digits[..count].iter().rev() {
        s.add(d);
    }
    finish(&s, t)
}

/// Fast path of [`Expansion::add`] for N ≥ 3 (JMMP 2016 Alg. 4, with the terms interleaved
/// rather than merged, and the certified renormalisation); `None` when the certificate fails.
#[inline(always)]
fn fast_add<T: FloatTerm, const N: usize>(x: &[T; N], y: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 16];
    // Interleaved by term index (the larger of each pair first) instead of JMMP's full merge
    // by magnitude: measured 2.8× faster on this machine (the merge's comparisons are data
    // dependent), and the order only affects how often the certificate needs a second VecSum
    // pass, never the correctness (every 2Sum is exact whatever the order).
    for i in 0..N {
        (v[2 * i], v[2 * i + 1]) = larger_first(x[i], y[i]);
    }
    certified_round::<T, N>(&mut v[..2 * N])
}

/// [`fast_add`] of x and the one-term expansion (t, 0, …, 0), with the N − 1 zeros left out
/// of the list: v = (larger of x₀ and t, the other, x₁, …, x_{N−1}) instead of
/// (…, x₁, 0, x₂, 0, …, x_{N−1}, 0). The result is the same, bit for bit: a zero entry is a
/// no-op in every step of [`certified_round`]. In VecSum 2Sum(0, s) = (s, 0) and
/// 2Sum(x, ±0) = (x, 0), so the pass maps the list to one with the same non-zero entries in
/// the same order, zeros (of either sign) between them; in VecSumErrBranch 2Sum(ε, ±0) has
/// error 0 and sum ε (a zero ε is never emitted, and 2Sum(±0, v) = (v, 0)), so the emitted
/// terms, the stopping point and the certificate's in-order tail sum (a + |0| = a for a ≥ 0)
/// are unchanged; zeros never become output terms, so their signs do not matter.
#[inline(always)]
fn fast_add_term<T: FloatTerm, const N: usize>(x: &[T; N], t: T) -> Option<[T; N]> {
    let mut v = [T::ZERO; 9];
    // The pair order of `fast_add` (x first on ties); for i ≥ 1 the pair is (x_i, 0).
    (v[0], v[1]) = larger_first(x[0], t);
    v[2..N + 1].copy_from_slice(&x[1..N]);
    certified_round::<T, N>(&mut v[..N + 1])
}

/// The pair (a, b) with the larger magnitude first, `a` on ties and when the comparison is
/// unordered: the pair order of the addition lists ([`fast_add`], [`fast_add_term`],
/// [`fast_add_term_sub`]).
#[inline(always)]
fn larger_first<T: FloatTerm>(a: T, b: T) -> (T, T) {
    if a.abs() >= b.abs() {
        (a, b)
    } else {
        (b, a)
    }
}

/// Fast path of [`Expansion::add_term_sub`] for N ≥ 3: the list of [`fast_add`] for x and −y
/// with c among the leading terms, v = (x₀, c, −y₀ by decreasing magnitude, then the pairs
/// (x_i, −y_i), the larger first), 2N + 1 terms, then the certified renormalisation. The
/// order only affects how often the certificate needs a second pass, never the result's
/// bound: every 2Sum is exact. Mirrored on lanes in `accurate_batch::add_term_sub_lanes`.
#[inline(always)]
fn fast_add_term_sub<T: FloatTerm, const N: usize>(x: &[T; N], c: T, y: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 17];
    // Three compare-exchanges sort the leading three by magnitude.
    let (a, b) = larger_first(x[0], c);
    let (b, d) = larger_first(b, -y[0]);
    let (a, b) = larger_first(a, b);
    v[0] = a;
    v[1] = b;
    v[2] = d;
    for i in 1..N {
        let (p, q) = larger_first(x[i], -y[i]);
        v[2 * i + 1] = p;
        v[2 * i + 2] = q;
    }
    certified_round::<T, N>(&mut v[..2 * N + 1])
}

/// The exact term list of [`Expansion::mul`]'s fast path for N ≥ 3, into `v`; returns its
/// length. Products of order i + j ≤ N − 2 exactly by 2ProdFMA (both parts, in order of
/// magnitude: the products of order k, then the errors of order k − 1); the leading parts of
/// order N − 1 exactly; the errors of order N − 1 and the products of order N accumulated
/// into one machine number t by additions and FMAs (error bounded in
/// `bounds::mul_rel_bound`); orders > N dropped. Written over lanes: the scalar path and
/// [`crate::accurate_batch`] build the same list.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub(crate) fn mul_list<L: Lane, const N: usize>(x: &[L; N], y: &[L; N], v: &mut [L; 65]) -> usize {
    // Step k puts the products of order k at k², …, k² + k and, for k ≥ 1, the errors of order
    // k − 1 right after them (k² + k + 1, …, k² + 2k): k² + 2k + 1 = (k + 1)² entries so far.
    // Each error is written straight to its place (no copy of the previous order's errors: at
    // eight lanes × two registers per term that copy was a 1 KB memmove per order).
    let mut errs = [L::splat(<L::Scalar as FloatTerm>::ZERO); 8];
    for k in 0..N {
        let base = k * k;
        let next_errs = (k + 1) * (k + 1) + k + 2;
        for i in 0..=k {
            let (p, e) = two_prod(x[i], y[k - i]);
            v[base + i] = p;
            if k + 1 < N {
                v[next_errs + i] = e;
            } else {
                errs[i] = e;
            }
        }
    }
    let len = N * N;
    // errs[..N] now holds the errors of order N − 1.
    let mut t = errs[0];
    for i in 1..N {
        t = t + errs[i];
    }
    for i in 1..N {
        t = x[i].mul_add(y[N - i], t);
    }
    v[len] = t;
    len + 1
}

/// Number of symmetric products of order k in a square: x_i·x_{k−i} for i ≤ k − i.
const fn sqr_products(k: usize) -> usize {
    k / 2 + 1
}

/// The exact term list of [`Expansion::sqr`]'s fast path for N ≥ 3, into `v`; returns its
/// length. [`mul_list`] with each symmetric pair x_i·x_j + x_j·x_i (i < j) taken once as
/// 2ProdFMA(2x_i, x_j) (the doubling exact: when x₀² is finite no |2x_i| overflows) and x_i²
/// for i = j: products of order k ≤ N − 2 exact (both parts: the k/2 + 1 leading parts of
/// order k, then the errors of order k − 1), the leading parts of order N − 1 exact, the
/// errors of order N − 1 and the products of order N accumulated into one machine number t,
/// orders > N dropped. The same exact values as the product's list, grouped, so the same
/// proof and bound (`bounds::mul_rel_bound`, "Squaring"). 7, 11, 16, 22, 29, 37 terms for
/// N = 3..8 (the product's N² + 1: 10 … 65). Written over lanes like [`mul_list`].
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub(crate) fn sqr_list<L: Lane, const N: usize>(x: &[L; N], v: &mut [L; 65]) -> usize {
    let mut d = [L::splat(<L::Scalar as FloatTerm>::ZERO); N]; // d[i] = 2·x[i] (exact)
    for i in 0..N {
        d[i] = x[i] + x[i];
    }
    let mut errs = [L::splat(<L::Scalar as FloatTerm>::ZERO); 4];
    // Block k (order k) starts at `base`: its leading parts, then the errors of order k − 1.
    // Each error is written straight to its place in the next block (see `mul_list`).
    let mut base = 0;
    for k in 0..N {
        let prev = if k == 0 { 0 } else { sqr_products(k - 1) };
        let next_base = base + sqr_products(k) + prev;
        let next_errs = next_base + sqr_products(k + 1);
        for i in 0..sqr_products(k) {
            let j = k - i;
            let (p, e) = if i < j {
                two_prod(d[i], x[j])
            } else {
                two_prod(x[i], x[i])
            };
            v[base + i] = p;
            if k + 1 < N {
                v[next_errs + i] = e;
            } else {
                errs[i] = e;
            }
        }
        base = next_base;
    }
    // errs[..q] now holds the errors of order N − 1; then the products of order N.
    let q = sqr_products(N - 1);
    let mut t = errs[0];
    for i in 1..q {
        t = t + errs[i];
    }
    for i in 1..=N / 2 {
        let j = N - i;
        t = if i < j { d[i] } else { x[i] }.mul_add(x[j], t);
    }
    v[base] = t;
    base + 1
}

/// Fast path of [`Expansion::sqr`] for N ≥ 3 ([`sqr_list`], then as [`fast_mul`]); `None`
/// when the certificate fails.
#[inline(always)]
fn fast_sqr<T: FloatTerm, const N: usize>(x: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 65];
    let len = sqr_list(x, &mut v);
    vec_sum(&mut v[..len]);
    certified_round::<T, N>(&mut v[..len])
}

/// Fast path of [`Expansion::mul`] for N ≥ 3 ([`mul_list`], one VecSum pass, then the
/// certified renormalisation); `None` when the certificate fails.
///
/// The extra VecSum before [`certified_round`] (whose first pass is then the list's second
/// VecSum) is exact like every other, so the bounds are untouched; it changes which pass
/// certifies. Measured on the Hénon step (f64, a = 1.4, b = 0.3 as N-term expansions): with
/// one VecSum the first certificate failed for 18–21% of the products at N = 3, 27% at N = 4,
/// 36% at N = 5 and about 50% at N = 8 (mostly the tail test, then overlapping terms), so
/// nearly every batch of lanes ran two whole passes; with two VecSums before the first
/// VecSumErrBranch it fails for fewer than 0.01% at every N, and that VecSumErrBranch consumes
/// fewer items before its N-th term (5.7 instead of 9.0 of 10 at N = 3, 10.5 instead of 15 of
/// 17 at N = 4, 50 instead of 58 of 65 at N = 8). Mirrored in `gpu/src/cuda/accurate.cu`
/// (`ac_fast_mul`, `ar_fast_mul`) and [`crate::accurate_batch`].
#[inline(always)]
fn fast_mul<T: FloatTerm, const N: usize>(x: &[T; N], y: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 65];
    let len = mul_list(x, y, &mut v);
    vec_sum(&mut v[..len]);
    certified_round::<T, N>(&mut v[..len])
}

/// The exact term list of [`Expansion::mul_term`]'s fast path for N ≥ 3, into `v[..2N]`: all
/// N products exact by 2ProdFMA, ordered by magnitude (p₀, p₁, e₀, p₂, e₁, …). Written over
/// lanes, as [`mul_list`].
#[inline(always)]
pub(crate) fn mul_term_list<L: Lane, const N: usize>(x: &[L; N], t: L, v: &mut [L; 16]) {
    let mut prev_e = t;
    for i in 0..N {
        let (p, e) = two_prod(x[i], t);
        if i == 0 {
            v[0] = p;
        } else {
            v[2 * i - 1] = p;
            v[2 * i] = prev_e;
        }
        prev_e = e;
    }
    v[2 * N - 1] = prev_e;
}

/// Fast path of [`Expansion::mul_term`] for N ≥ 3 ([`mul_term_list`], then the certified
/// renormalisation); `None` when the certificate fails.
#[inline(always)]
fn fast_mul_term<T: FloatTerm, const N: usize>(x: &[T; N], t: T) -> Option<[T; N]> {
    let mut v = [T::ZERO; 16];
    mul_term_list(x, t, &mut v);
    certified_round::<T, N>(&mut v[..2 * N])
}

/// The fast path alone of the accurate operation `op` (`"add"`, `"mul"`, `"sqr"` of x,
/// `"add_term_sub"` (x + 1 − y), `"mul_term"` with
/// `y`'s leading term, `"div"`, `"sqrt"` of a positive `x`) on finite operands with N ≥ 3 (N ≥ 2 for `"div"` and `"sqrt"`): `None`
/// when its run-time certificate fails and the operation would use its exact reference.
/// For tests and statistics (how often the fallback runs); the results of `Some` are not
/// settled for signed zeros.
pub fn fast_path_only<T: FloatTerm, const N: usize>(
    op: &str,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Option<Expansion<T, N>> {
    let out = match op {
        "add" => fast_add(&x.terms, &y.terms),
        "mul" => fast_mul(&x.terms, &y.terms),
        "sqr" => fast_sqr(&x.terms),
        "add_term_sub" => fast_add_term_sub(&x.terms, T::ONE, &y.terms),
        "mul_term" => fast_mul_term(&x.terms, y.terms[0]),
        "div" => fast_div(&x.terms, &y.terms),
        "sqrt" if x.terms[0] > T::ZERO => fast_sqrt(&x.terms, x.terms[0].sqrt()),
        _ => None,
    }?;
    Some(Expansion::from_normalized(out))
}

/// VecSum then VecSumErrBranch (JMMP 2016 Alg. 6 with 2Sum) on `v`, with a run-time
/// certificate of the claim the bounds use. Every 2Sum is exact, so the exact sum S of `v` is
/// preserved and the only loss is the tail D left when N terms have been emitted. The result
/// y is returned only when it is finite, ulp-nonoverlapping (|y_{i+1}| ≤ ulp(y_i), zeros only
/// at the end) and |D| < ulp(y_{N−1}); otherwise `None` and the caller uses its exact
/// reference. These are exactly the facts proved for the exact accumulator in
/// [`crate::bounds`] ("Rounding an exact sum"), so the result has relative error ≤ ρ_N
/// with respect to S. The tail test: the float sum a of |D|'s pieces (m ≤ 80 non-negative
/// terms) satisfies a ≥ Σ|pieces|·(1 − u)^{m−1} (each rounding of a non-negative sum loses
/// at most a factor 1 − u, sums in the subnormal range are exact), and 4a ≤ 3·ulp(y_{N−1})
/// (both sides exact products by powers of two and 3) then gives
/// |D| ≤ 0.75·ulp/(1 − u)^{79} < ulp(y_{N−1}).
#[inline(always)]
pub(crate) fn certified_round<T: FloatTerm, const N: usize>(v: &mut [T]) -> Option<[T; N]> {
    // Up to three VecSum passes (each exact, so the sum of v is unchanged): when the first
    // pass leaves overlapping terms the certificate fails and another pass usually cures it.
    for _ in 0..3 {
        vec_sum(v);
        if let Some(out) = err_branch_certified::<T, N>(v) {
            return Some(out);
        }
    }
    None
}

/// VecSumErrBranch on `v` (left unchanged) with the certificate of [`certified_round`].
// `!(a <= b)` on purpose: a NaN must fail the certificate.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn err_branch_certified<T: FloatTerm, const N: usize>(v: &[T]) -> Option<[T; N]> {
    let len = v.len();
    let mut out = [T::ZERO; N];
    let mut j = 0usize;
    let mut eps = v[0];
    let mut k = 1usize;
    while k < len {
        let (r, err) = two_sum(eps, v[k]);
        k += 1;
        if err != T::ZERO {
            out[j] = r;
            j += 1;
            eps = err;
            if j == N {
                break;
            }
        } else {
            eps = r;
        }
    }
    if j < N {
        // Everything consumed: the result is exact.
        if eps != T::ZERO {
            out[j] = eps;
        }
    } else {
        let mut a = eps.abs();
        for &d in &v[k..len] {
            a = a + d.abs();
        }
        let four = T::ONE + T::ONE + T::ONE + T::ONE;
        let three = T::ONE + T::ONE + T::ONE;
        if !(a * four <= ulp(out[N - 1]) * three) {
            return None;
        }
    }
    if !out[0].is_finite() {
        return None;
    }
    for i in 1..N {
        let ok = out[i] == T::ZERO || (out[i - 1] != T::ZERO && out[i].abs() <= ulp(out[i - 1]));
        if !ok {
            return None;
        }
    }
    Some(out)
}

/// Long division (see [`crate::bounds::div_rel_bound`]): digits d_k = RN(R̂_k,0 / y₀),
/// R̂_0 = x, R̂_{k+1} = round_N(R̂_k − d_k·y) where R̂_k − d_k·y is the exact sum of 3N machine
/// numbers (the leading pair R̂_k,0 − RN(d_k y₀) by 2Sum, the rest by 2ProdFMA) and round_N is
/// [`certified_round`]. Then the N + 1 digits are rounded to N terms, certified too. `None`
/// when a certificate fails or a digit is not finite (the caller uses [`reference_div`]).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn fast_div<T: FloatTerm, const N: usize>(x: &[T; N], y: &[T; N]) -> Option<[T; N]> {
    let y0 = y[0];
    let mut r = *x;
    let mut digits = [T::ZERO; 9];
    let mut nd = 0usize;
    for k in 0..=N {
        if r[0] == T::ZERO {
            break;
        }
        let d = r[0] / y0;
        if !d.is_finite() {
            return None;
        }
        digits[k] = d;
        nd = k + 1;
        if k == N {
            break;
        }
        let mut v = [T::ZERO; 24];
        let (p0, e0) = two_prod(-d, y0);
        let (c, ce) = two_sum(r[0], p0);
        v[0] = c;
        v[1] = ce;
        let mut len = 2usize;
        let mut prev_e = e0;
        for i in 1..N {
            let (p, e) = two_prod(-d, y[i]);
            v[len] = r[i];
            v[len + 1] = p;
            v[len + 2] = prev_e;
            len += 3;
            prev_e = e;
        }
        v[len] = prev_e;
        len += 1;
        r = certified_round::<T, N>(&mut v[..len])?;
    }
    certified_round::<T, N>(&mut digits[..nd])
}

/// Reference accurate division (N ≥ 2): long division with N + 1 digits and an exact
/// remainder in a Shewchuk accumulator (the previous algorithm; its error is within
/// [`crate::bounds::div_rel_bound`] as well, see there). Slow; fallback of [`Expansion::div`].
pub fn reference_div<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    let y0 = lead_or_nonfinite(y);
    let naive = lead_or_nonfinite(x) / y0;
    if !naive.is_finite() || !y0.is_finite() || N == 1 || x.terms[0] == T::ZERO {
        return Expansion::from_term(naive);
    }
    // Remainder R = x − q·y, held exactly.
    let mut rem = ExactSum::<T>::new();
    for &t in x.terms.iter().rev() {
        rem.add(t);
    }
    let mut q = ExactSum::<T>::new();
    for _ in 0..=N {
        if rem.is_zero() {
            break;
        }
        let digit = rem.lead() / y0;
        if !digit.is_finite() {
            return settle([nan(); N], naive);
        }
        q.add(digit);
        for &yj in y.terms.iter().rev() {
            rem.add_prod(-digit, yj);
        }
    }
    finish(&q, naive)
}

/// Reference accurate addition (N ≥ 3): the exact sum in a Shewchuk accumulator rounded to N
/// terms; relative error ≤ [`crate::bounds::round_rel_bound`]. Slow; the fallback of
/// [`Expansion::add`] and the oracle its fast path is tested against.
pub fn reference_add<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    let naive = lead_or_nonfinite(x) + lead_or_nonfinite(y);
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    let mut acc = ExactSum::<T>::new();
    for i in (0..N).rev() {
        acc.add(x.terms[i]);
        acc.add(y.terms[i]);
    }
    finish(&acc, naive)
}

/// Reference of [`Expansion::add_term_sub`] (N ≥ 3): x + c − y accumulated exactly and
/// rounded to N terms. Slow; its fallback.
pub fn reference_add_term_sub<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    c: T,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    let naive = (lead_or_nonfinite(x) + c) - lead_or_nonfinite(y);
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    let mut acc = ExactSum::<T>::new();
    for i in (0..N).rev() {
        acc.add(x.terms[i]);
        acc.add(-y.terms[i]);
    }
    acc.add(c);
    finish(&acc, naive)
}

/// Reference accurate multiplication (N ≥ 3): products of order < N exact, of order N rounded,
/// the rest dropped, accumulated exactly and rounded to N terms; the bound of
/// [`crate::bounds::mul_rel_bound`] covers it. Slow; fallback of [`Expansion::mul`].
pub fn reference_mul<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    let naive = lead_or_nonfinite(x) * lead_or_nonfinite(y);
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    let (x, y) = (&x.terms, &y.terms);
    let mut acc = ExactSum::<T>::new();
    // Orders i + j = N (rounded) first, then exact orders from the smallest up: small terms
    // first keeps the accumulator short.
    for i in 1..N {
        acc.add(x[i] * y[N - i]);
    }
    for k in (0..N).rev() {
        for i in 0..=k {
            acc.add_prod(x[i], y[k - i]);
        }
    }
    finish(&acc, naive)
}

/// Reference accurate multiplication by a machine number (N ≥ 3): all products exact, rounded
/// to N terms (ρ_N). Slow; fallback of [`Expansion::mul_term`].
pub fn reference_mul_term<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    t: T,
) -> Expansion<T, N> {
    let naive = lead_or_nonfinite(x) * t;
    if !naive.is_finite() {
        return Expansion::from_term(naive);
    }
    let mut acc = ExactSum::<T>::new();
    for i in (0..N).rev() {
        acc.add_prod(x.terms[i], t);
    }
    finish(&acc, naive)
}

/// The exact sum of `terms` rounded to N terms (relative error ≤
/// [`crate::bounds::round_rel_bound`]); the terms must be finite.
pub(crate) fn round_exact_sum<T: FloatTerm, const N: usize>(terms: &[T]) -> Expansion<T, N> {
    let mut acc = ExactSum::<T>::new();
    for &t in terms.iter().rev() {
        acc.add(t);
    }
    let naive = terms.iter().fold(T::ZERO, |a, &t| a + t);
    finish(&acc, if naive.is_finite() { naive } else { T::ONE })
}
