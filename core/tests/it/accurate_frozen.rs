//! A frozen copy of the accurate tier (`core/src/accurate.rs`) as it was before the speed work
//! of issue 18 (the *pre-optimisation reference*), with the error-free transforms and `ulp` it
//! used, and a test that today's accurate operations return the same bits as this copy.
//!
//! The speed work promised not to change a single result bit (no bound, proof, or CUDA mirror
//! in `gpu/src/cuda/accurate.cu` had to change), and this is the check: every accurate
//! operation (add, sub, add_term, mul, sqr, mul_term, div, div_term, recip, sqrt, and
//! `Expansion::from_terms`, which rounds an exact sum) is run by the library and by this copy
//! on at least 10^5 operand pairs per (term type, N), N = 1..8, f64 and f32, and the terms are
//! compared bit for bit. Operands: random expansions with adversarial tails over the whole
//! exponent range (down to the subnormals and up to overflow), near-total and exact
//! cancellation, operands that differ by a few exponents, single-term operands, signed zeros,
//! ±∞ and NaN. `EXPANSE_FROZEN_COUNT` sets the number of pairs per (type, N) (default 10^5).
//!
//! The copy below is `accurate.rs` verbatim except: it acts on a local `E<T, N>` (the terms in
//! the open) instead of `Expansion`, and it carries its own copies of `two_sum`,
//! `fast_two_sum`, `two_prod`, `two_sqr`, `vec_sum` and `ulp`. Do not "fix" or speed it up: it
//! is the specification the library is held to. Two deliberate result changes since: the
//! multiplication's fast path runs one VecSum before its certified renormalisation (see
//! `fast_mul` below and in `accurate.rs`), and N ≥ 3 squares by their own shorter list
//! (`fast_sqr` below, written independently of the library's `sqr_list`).
#![allow(clippy::all, dead_code)]

use crate::common::*;
use expanse_core::{Expansion, FloatTerm};

// ---------------------------------------------------------------------------------------
// Frozen copies of the building blocks (core/src/eft.rs, core/src/float.rs).

#[inline(always)]
fn two_sum<T: FloatTerm>(a: T, b: T) -> (T, T) {
    let s = a + b;
    let a_virtual = s - b;
    let b_virtual = s - a_virtual;
    let a_err = a - a_virtual;
    let b_err = b - b_virtual;
    (s, a_err + b_err)
}

#[inline(always)]
fn fast_two_sum<T: FloatTerm>(a: T, b: T) -> (T, T) {
    let s = a + b;
    let z = s - a;
    (s, b - z)
}

#[inline(always)]
fn two_prod<T: FloatTerm>(a: T, b: T) -> (T, T) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

#[inline(always)]
fn two_sqr<T: FloatTerm>(a: T) -> (T, T) {
    let p = a * a;
    (p, a.mul_add(a, -p))
}

#[inline(always)]
fn vec_sum<T: FloatTerm>(x: &mut [T]) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let mut s = x[n - 1];
    for i in (0..n - 1).rev() {
        let (hi, lo) = two_sum(x[i], s);
        x[i + 1] = lo;
        s = hi;
    }
    x[0] = s;
}

#[inline(always)]
fn ulp<T: FloatTerm>(x: T) -> T {
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

/// The expansion with its terms in the open (what `Expansion` is inside the crate).
#[derive(Clone, Copy, Debug)]
pub struct E<T: FloatTerm, const N: usize> {
    pub terms: [T; N],
}

impl<T: FloatTerm, const N: usize> E<T, N> {
    fn from_normalized(terms: [T; N]) -> Self {
        Self { terms }
    }
    fn from_term(v: T) -> Self {
        let mut terms = [T::ZERO; N];
        terms[0] = v;
        Self { terms }
    }
    fn one() -> Self {
        Self::from_term(T::ONE)
    }
    fn neg(&self) -> Self {
        let mut t = self.terms;
        for v in t.iter_mut() {
            *v = -*v;
        }
        Self { terms: t }
    }
    fn of(x: &Expansion<T, N>) -> Self {
        Self { terms: *x.terms() }
    }
    /// `Expansion::from_terms`, frozen.
    fn from_terms(terms: [T; N]) -> Self {
        if terms.iter().any(|t| !t.is_finite()) {
            let s = terms.iter().fold(T::ZERO, |acc, &t| acc + t);
            return Self::from_term(s);
        }
        round_exact_sum(&terms)
    }
}

// ---------------------------------------------------------------------------------------
// Frozen copy of core/src/accurate.rs (from `EXACT_CAP` on).

/// Room for the exact accumulators below: the most terms ever added to one accumulator is
/// N + 2N(N+1) = 152 (division, N = 8); each addition grows the accumulator by at most one.
const EXACT_CAP: usize = 160;

/// An exact sum of machine numbers kept as a Shewchuk nonoverlapping expansion in increasing
/// order of magnitude, zero-eliminated. Adding a term is exact (Shewchuk 1997, Thm. 10; 2Sum is
/// exact in binary arithmetic even when the result is subnormal). Overflow is the only way to
/// lose exactness; callers check for non-finite results.
pub struct ExactSum<T: FloatTerm> {
    terms: [T; EXACT_CAP],
    len: usize,
}

impl<T: FloatTerm> ExactSum<T> {
    #[inline(always)]
    pub fn new() -> Self {
        Self {
            terms: [T::ZERO; EXACT_CAP],
            len: 0,
        }
    }

    /// Adds `b` exactly (GrowExpansion with zero elimination).
    #[inline(always)]
    pub fn add(&mut self, b: T) {
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
    pub fn add_prod(&mut self, a: T, b: T) {
        let (p, e) = two_prod(a, b);
        self.add(e);
        self.add(p);
    }

    /// True when the exact sum is zero.
    #[inline(always)]
    pub fn is_zero(&self) -> bool {
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
    /// Claim (proved in `expanse_core::bounds`, "rounding an exact sum"): the output y is
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
    pub fn round<const N: usize>(&self) -> [T; N] {
        let mut out = [T::ZERO; N];
        self.round_into(&mut out);
        out
    }

    /// One machine number approximating the exact sum S with |S − lead| < ulp(lead), hence
    /// relative error below 2u/(1 − 2u) in the normal range.
    #[inline(always)]
    pub fn lead(&self) -> T {
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
pub fn lead_or_nonfinite<T: FloatTerm, const N: usize>(x: &E<T, N>) -> T {
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
pub fn settle<T: FloatTerm, const N: usize>(result: [T; N], naive: T) -> E<T, N> {
    if !naive.is_finite() {
        return E::from_term(naive);
    }
    if !result.iter().all(|t| t.is_finite()) {
        return E::from_term(nan());
    }
    if result[0] == T::ZERO {
        return E::from_term(if naive == T::ZERO { naive } else { T::ZERO });
    }
    E::from_normalized(result)
}

/// Rounds an exact accumulator to N terms and settles non-finite cases. For N = 2 the two terms
/// are finally passed through Fast2Sum (exact) so every accurate N = 2 result is a normalised
/// double-word (|lo| ≤ ½ ulp(hi)), as the double-word algorithms assume.
#[inline(always)]
fn finish<T: FloatTerm, const N: usize>(acc: &ExactSum<T>, naive: T) -> E<T, N> {
    if !acc.is_finite() {
        return settle([nan(); N], naive);
    }
    let mut out = acc.round::<N>();
    if N == 2 {
        let (h, l) = fast_two_sum(out[0], out[1]);
        out[0] = h;
        out[1] = l;
    }
    settle(out, naive)
}

impl<T: FloatTerm, const N: usize> E<T, N> {
    /// Accurate addition. Relative error ≤ [`expanse_core::bounds::add_rel_bound`] (N = 1: IEEE;
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
            let (h, l) = expanse_core::dw::add_dw(
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

    /// Accurate addition of a machine number; bound [`expanse_core::bounds::add_rel_bound`].
    #[inline]
    pub fn add_term(&self, t: T) -> Self {
        self.add(&Self::from_term(t))
    }

    /// Accurate multiplication. Relative error ≤ [`expanse_core::bounds::mul_rel_bound`].
    #[inline]
    pub fn mul(&self, other: &Self) -> Self {
        let naive = lead_or_nonfinite(self) * lead_or_nonfinite(other);
        if !naive.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        let x = &self.terms;
        let y = &other.terms;
        if N == 2 {
            let (h, l) = expanse_core::dw::mul_dw((x[0], x[1]), (y[0], y[1]));
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

    /// Accurate square, same bound as [`Self::mul`]. (Deliberate result change of the
    /// fifteenth session: N ≥ 3 squares by their own list, `fast_sqr` below; it was
    /// `self.mul(self)`.)
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
    /// [`expanse_core::bounds::mul_term_rel_bound`] (≤ [`expanse_core::bounds::mul_rel_bound`]).
    #[inline]
    pub fn mul_term(&self, t: T) -> Self {
        let naive = lead_or_nonfinite(self) * t;
        if !naive.is_finite() || N == 1 {
            return Self::from_term(naive);
        }
        if N == 2 {
            let (h, l) = expanse_core::dw::mul_fp((self.terms[0], self.terms[1]), t);
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
    /// renormalisation. Relative error ≤ [`expanse_core::bounds::div_rel_bound`]. Division by zero
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
                    let (h, l) = fast_two_sum(out[0], out[1]);
                    out[0] = h;
                    out[1] = l;
                }
                settle(out, naive)
            }
            None => reference_div(self, other),
        }
    }

    /// Accurate division by a machine number; bound [`expanse_core::bounds::div_rel_bound`].
    pub fn div_term(&self, t: T) -> Self {
        self.div(&Self::from_term(t))
    }

    /// Accurate reciprocal 1/x; bound [`expanse_core::bounds::div_rel_bound`].
    pub fn recip(&self) -> Self {
        Self::one().div(self)
    }

    /// Accurate square root: the correctly rounded square root t of the leading term, then N
    /// correction digits d = lead(x − s²)/(2t), each remainder x − s² held exactly.
    /// Relative error ≤ [`expanse_core::bounds::sqrt_rel_bound`]. √(±0) = ±0; negative input gives
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
                    let (h, l) = fast_two_sum(out[0], out[1]);
                    out[0] = h;
                    out[1] = l;
                }
                settle(out, t)
            }
            None => reference_sqrt(self),
        }
    }
}

/// Square root by N corrections of t = RN(√x₀) (see [`expanse_core::bounds::sqrt_rel_bound`]):
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
/// [`expanse_core::bounds::sqrt_rel_bound`]). Slow; fallback of [`E::sqrt`].
pub fn reference_sqrt<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    let x0 = lead_or_nonfinite(x);
    if x0 <= T::ZERO || !x0.is_finite() || N == 1 {
        return E::from_term(x0.sqrt());
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

/// Fast path of [`E::add`] for N ≥ 3 (JMMP 2016 Alg. 4, with the terms interleaved
/// rather than merged, and the certified renormalisation); `None` when the certificate fails.
#[inline(always)]
fn fast_add<T: FloatTerm, const N: usize>(x: &[T; N], y: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 16];
    // Interleaved by term index (the larger of each pair first) instead of JMMP's full merge
    // by magnitude: measured 2.8× faster on this machine (the merge's comparisons are data
    // dependent), and the order only affects how often the certificate needs a second VecSum
    // pass, never the correctness (every 2Sum is exact whatever the order).
    for i in 0..N {
        let (a, b) = if x[i].abs() >= y[i].abs() {
            (x[i], y[i])
        } else {
            (y[i], x[i])
        };
        v[2 * i] = a;
        v[2 * i + 1] = b;
    }
    certified_round::<T, N>(&mut v[..2 * N])
}

/// Fast path of [`E::mul`] for N ≥ 3; `None` when the certificate fails.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn fast_mul<T: FloatTerm, const N: usize>(x: &[T; N], y: &[T; N]) -> Option<[T; N]> {
    // Products of order i + j ≤ N − 2 exactly by 2ProdFMA (both parts, in order of
    // magnitude: the products of order k, then the errors of order k − 1); the leading
    // parts of order N − 1 exactly; the errors of order N − 1 and the products of order N
    // accumulated into one machine number t by additions and FMAs (error bounded in
    // `bounds::mul_rel_bound`); orders > N dropped. Then the certified renormalisation.
    let mut v = [T::ZERO; 65];
    let mut len = 0usize;
    let mut errs = [T::ZERO; 8];
    for k in 0..N {
        // The errors of order k − 1 (k of them); a fixed-size copy, no memcpy call.
        let prev = errs;
        for i in 0..=k {
            let (p, e) = two_prod(x[i], y[k - i]);
            v[len] = p;
            len += 1;
            errs[i] = e;
        }
        for &e in &prev[..k] {
            v[len] = e;
            len += 1;
        }
    }
    // errs[..N] now holds the errors of order N − 1.
    let mut t = errs[0];
    for i in 1..N {
        t = t + errs[i];
    }
    for i in 1..N {
        t = x[i].mul_add(y[N - i], t);
    }
    v[len] = t;
    len += 1;
    // Changed on purpose (issue 18, 2026-11-25): one VecSum before the certified
    // renormalisation, so that its first pass nearly always certifies (a result change
    // the lead approved; the bounds and their proofs are unchanged). The only change to
    // this copy.
    vec_sum(&mut v[..len]);
    certified_round::<T, N>(&mut v[..len])
}

/// Fast path of [`E::mul_term`] for N ≥ 3; `None` when the certificate fails.
#[inline(always)]
/// The square's fast path, written here independently of the library's `sqr_list` (which
/// places each term at a computed index): order by order, the symmetric products 2x_i·x_j
/// (i < j) as 2ProdFMA(2x_i, x_j) and x_i² (i = j), i ascending, then the errors of the
/// previous order; order N − 1's errors and the products of order N summed into one term.
fn fast_sqr<T: FloatTerm, const N: usize>(x: &[T; N]) -> Option<[T; N]> {
    let mut v = [T::ZERO; 65];
    let mut len = 0usize;
    let mut errs: Vec<T> = Vec::new();
    for k in 0..N {
        let prev = std::mem::take(&mut errs);
        let mut i = 0;
        while 2 * i <= k {
            let j = k - i;
            let (p, e) = if i < j {
                two_prod(x[i] + x[i], x[j])
            } else {
                two_prod(x[i], x[i])
            };
            v[len] = p;
            len += 1;
            errs.push(e);
            i += 1;
        }
        for e in prev {
            v[len] = e;
            len += 1;
        }
    }
    let mut t = errs[0];
    for &e in &errs[1..] {
        t = t + e;
    }
    for i in 1..=N / 2 {
        let j = N - i;
        let f = if i < j { x[i] + x[i] } else { x[i] };
        t = f.mul_add(x[j], t);
    }
    v[len] = t;
    len += 1;
    vec_sum(&mut v[..len]);
    certified_round::<T, N>(&mut v[..len])
}

fn fast_mul_term<T: FloatTerm, const N: usize>(x: &[T; N], t: T) -> Option<[T; N]> {
    // All N products exact by 2ProdFMA, ordered by magnitude (p₀, p₁, e₀, p₂, e₁, …),
    // then the certified renormalisation.
    let mut v = [T::ZERO; 16];
    let mut prev_e = T::ZERO;
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
    certified_round::<T, N>(&mut v[..2 * N])
}

/// The fast path alone of the accurate operation `op` (`"add"`, `"mul"`, `"mul_term"` with
/// `y`'s leading term, `"div"`, `"sqrt"` of a positive `x`) on finite operands with N ≥ 3 (N ≥ 2 for `"div"` and `"sqrt"`): `None`
/// when its run-time certificate fails and the operation would use its exact reference.
/// For tests and statistics (how often the fallback runs); the results of `Some` are not
/// settled for signed zeros.
pub fn fast_path_only<T: FloatTerm, const N: usize>(
    op: &str,
    x: &E<T, N>,
    y: &E<T, N>,
) -> Option<E<T, N>> {
    let out = match op {
        "add" => fast_add(&x.terms, &y.terms),
        "mul" => fast_mul(&x.terms, &y.terms),
        "mul_term" => fast_mul_term(&x.terms, y.terms[0]),
        "div" => fast_div(&x.terms, &y.terms),
        "sqrt" if x.terms[0] > T::ZERO => fast_sqrt(&x.terms, x.terms[0].sqrt()),
        _ => None,
    }?;
    Some(E::from_normalized(out))
}

/// VecSum then VecSumErrBranch (JMMP 2016 Alg. 6 with 2Sum) on `v`, with a run-time
/// certificate of the claim the bounds use. Every 2Sum is exact, so the exact sum S of `v` is
/// preserved and the only loss is the tail D left when N terms have been emitted. The result
/// y is returned only when it is finite, ulp-nonoverlapping (|y_{i+1}| ≤ ulp(y_i), zeros only
/// at the end) and |D| < ulp(y_{N−1}); otherwise `None` and the caller uses its exact
/// reference. These are exactly the facts proved for the exact accumulator in
/// [`expanse_core::bounds`] ("Rounding an exact sum"), so the result has relative error ≤ ρ_N
/// with respect to S. The tail test: the float sum a of |D|'s pieces (m ≤ 80 non-negative
/// terms) satisfies a ≥ Σ|pieces|·(1 − u)^{m−1} (each rounding of a non-negative sum loses
/// at most a factor 1 − u, sums in the subnormal range are exact), and 4a ≤ 3·ulp(y_{N−1})
/// (both sides exact products by powers of two and 3) then gives
/// |D| ≤ 0.75·ulp/(1 − u)^{79} < ulp(y_{N−1}).
#[inline(always)]
fn certified_round<T: FloatTerm, const N: usize>(v: &mut [T]) -> Option<[T; N]> {
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

/// Long division (see [`expanse_core::bounds::div_rel_bound`]): digits d_k = RN(R̂_k,0 / y₀),
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
/// [`expanse_core::bounds::div_rel_bound`] as well, see there). Slow; fallback of [`E::div`].
pub fn reference_div<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    let y0 = lead_or_nonfinite(y);
    let naive = lead_or_nonfinite(x) / y0;
    if !naive.is_finite() || !y0.is_finite() || N == 1 || x.terms[0] == T::ZERO {
        return E::from_term(naive);
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
/// terms; relative error ≤ [`expanse_core::bounds::round_rel_bound`]. Slow; the fallback of
/// [`E::add`] and the oracle its fast path is tested against.
pub fn reference_add<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    let naive = lead_or_nonfinite(x) + lead_or_nonfinite(y);
    if !naive.is_finite() {
        return E::from_term(naive);
    }
    let mut acc = ExactSum::<T>::new();
    for i in (0..N).rev() {
        acc.add(x.terms[i]);
        acc.add(y.terms[i]);
    }
    finish(&acc, naive)
}

/// Reference accurate multiplication (N ≥ 3): products of order < N exact, of order N rounded,
/// the rest dropped, accumulated exactly and rounded to N terms; the bound of
/// [`expanse_core::bounds::mul_rel_bound`] covers it. Slow; fallback of [`E::mul`].
pub fn reference_mul<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    let naive = lead_or_nonfinite(x) * lead_or_nonfinite(y);
    if !naive.is_finite() {
        return E::from_term(naive);
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
/// to N terms (ρ_N). Slow; fallback of [`E::mul_term`].
pub fn reference_mul_term<T: FloatTerm, const N: usize>(x: &E<T, N>, t: T) -> E<T, N> {
    let naive = lead_or_nonfinite(x) * t;
    if !naive.is_finite() {
        return E::from_term(naive);
    }
    let mut acc = ExactSum::<T>::new();
    for i in (0..N).rev() {
        acc.add_prod(x.terms[i], t);
    }
    finish(&acc, naive)
}

/// The exact sum of `terms` rounded to N terms (relative error ≤
/// [`expanse_core::bounds::round_rel_bound`]); the terms must be finite.
pub fn round_exact_sum<T: FloatTerm, const N: usize>(terms: &[T]) -> E<T, N> {
    let mut acc = ExactSum::<T>::new();
    for &t in terms.iter().rev() {
        acc.add(t);
    }
    let naive = terms.iter().fold(T::ZERO, |a, &t| a + t);
    finish(&acc, if naive.is_finite() { naive } else { T::ONE })
}

// ---------------------------------------------------------------------------------------
// The comparison.

/// Number of operand pairs per (term type, N).
fn count() -> usize {
    std::env::var("EXPANSE_FROZEN_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

/// Exponent limits of finite values of `T` (smallest subnormal, largest finite).
fn exp_limits<T: FloatTerm>() -> (i32, i32) {
    // One above the smallest subnormal's exponent, so that a random leading term is never 0.
    if T::PRECISION == 53 {
        (-1073, 1023)
    } else {
        (-148, 127)
    }
}

/// A leading exponent: mostly moderate, sometimes anywhere in the finite range, sometimes at
/// its ends (overflow of products and squares, subnormal results).
fn rand_exp<T: FloatTerm>(rng: &mut SplitMix) -> i32 {
    let (lo, hi) = exp_limits::<T>();
    match rng.below(8) {
        0 => rng.range(lo, hi),
        1 => rng.range(hi - 70, hi),
        2 => rng.range(lo, lo + 200),
        _ => rng.range(-60, 60),
    }
}

/// Special single-term values.
fn special<T: FloatTerm>(rng: &mut SplitMix) -> T {
    let s = if rng.next() & 1 == 0 { T::ONE } else { -T::ONE };
    let v = match rng.below(9) {
        0 => T::ZERO,
        1 => T::from_f64(f64::INFINITY),
        2 => T::from_f64(f64::NAN),
        3 => T::MAX,
        4 => T::MIN_POSITIVE,
        5 => T::from_bits_u64(1),
        6 => T::ONE,
        7 => T::from_f64(0.5),
        _ => T::from_f64(3.0),
    };
    v * s
}

/// `x` with its terms from index k on replaced by a random ulp-nonoverlapping tail (a value
/// within a few ulps of x's k-term prefix); x itself when the splice breaks the invariant.
fn splice<T: FloatTerm, const N: usize>(
    rng: &mut SplitMix,
    x: &Expansion<T, N>,
    k: usize,
) -> Expansion<T, N> {
    let mut t = *x.terms();
    if k == 0 || k >= N || t[k - 1] == T::ZERO {
        return *x;
    }
    let e = (log2i(ulp(t[k - 1]).to_f64()) - rng.range(0, 3)).max(exp_limits::<T>().0);
    let z: Expansion<T, N> = rand_expansion(rng, e);
    for i in k..N {
        t[i] = z.terms()[i - k];
    }
    Expansion::try_from_normalized(t).unwrap_or(*x)
}

/// The first operand.
fn first<T: FloatTerm, const N: usize>(rng: &mut SplitMix) -> Expansion<T, N> {
    match rng.below(16) {
        0 => Expansion::from_term(special::<T>(rng)),
        1 => {
            let e = rand_exp::<T>(rng);
            Expansion::from_term(rand_term::<T>(rng, e))
        }
        _ => {
            let e = rand_exp::<T>(rng);
            rand_expansion(rng, e)
        }
    }
}

/// The second operand, often related to the first (cancellation, nearby exponents, equal).
fn second<T: FloatTerm, const N: usize>(
    rng: &mut SplitMix,
    x: &Expansion<T, N>,
) -> Expansion<T, N> {
    let e0 = if x.hi() != T::ZERO && x.hi().is_finite() {
        log2i(x.hi().to_f64())
    } else {
        0
    };
    let (lo, hi) = exp_limits::<T>();
    match rng.below(12) {
        0 => Expansion::from_term(special::<T>(rng)),
        1 => {
            let e = (e0 + rng.range(-5, 5)).clamp(lo, hi);
            Expansion::from_term(rand_term::<T>(rng, e))
        }
        2 => -*x,
        3 => *x,
        4 | 5 => {
            // Near-total cancellation: −x with a new tail from term k on.
            let k = rng.range(1, N as i32) as usize;
            -splice(rng, x, k)
        }
        6 | 7 => {
            let e = (e0 + rng.range(-4, 4)).clamp(lo, hi);
            rand_expansion(rng, e)
        }
        _ => {
            let e = rand_exp::<T>(rng);
            rand_expansion(rng, e)
        }
    }
}

/// Bitwise equality of the terms, except that any NaN equals any NaN: the sign and payload of
/// a NaN are not specified by Rust (LLVM may swap the operands of a commutative operation,
/// and x86 returns the first operand's NaN), nor by CUDA, and no result depends on them.
fn same<T: FloatTerm, const N: usize>(got: &Expansion<T, N>, want: &E<T, N>) -> bool {
    got.terms()
        .iter()
        .zip(want.terms.iter())
        .all(|(a, b)| a.to_bits_u64() == b.to_bits_u64() || (a.is_nan() && b.is_nan()))
}

const OPS: [&str; 12] = [
    "add",
    "sub",
    "add_term",
    "mul",
    "sqr",
    "mul_term",
    "div",
    "div_term",
    "recip",
    "sqrt",
    "sqrt_abs",
    "from_terms",
];

fn check<T: FloatTerm, const N: usize>() {
    let mut rng = SplitMix(0xF202_E000 + 97 * N as u64 + T::PRECISION as u64);
    let mut mismatches = [0u64; OPS.len()];
    let mut shown = 0;
    let pairs = count();
    for _ in 0..pairs {
        let x: Expansion<T, N> = first(&mut rng);
        let y: Expansion<T, N> = second(&mut rng, &x);
        let (fx, fy) = (E::of(&x), E::of(&y));
        let t = y.hi();
        // Arbitrary terms (any order, overlapping) for `from_terms`.
        let mut raw = [T::ZERO; N];
        for (i, r) in raw.iter_mut().enumerate() {
            *r = if i % 2 == 0 {
                x.terms()[i / 2]
            } else {
                y.terms()[N - 1 - i / 2]
            };
        }
        let xa = x.abs();
        let results: [(Expansion<T, N>, E<T, N>); OPS.len()] = [
            (x.add(&y), fx.add(&fy)),
            (x.sub(&y), fx.sub(&fy)),
            (x.add_term(t), fx.add_term(t)),
            (x.mul(&y), fx.mul(&fy)),
            (x.sqr(), fx.sqr()),
            (x.mul_term(t), fx.mul_term(t)),
            (x.div(&y), fx.div(&fy)),
            (x.div_term(t), fx.div_term(t)),
            (x.recip(), fx.recip()),
            (x.sqrt(), fx.sqrt()),
            (xa.sqrt(), E::of(&xa).sqrt()),
            (Expansion::from_terms(raw), E::from_terms(raw)),
        ];
        for (k, (got, want)) in results.iter().enumerate() {
            if !same(got, want) {
                mismatches[k] += 1;
                if shown < 10 {
                    shown += 1;
                    eprintln!(
                        "{} N={N} {}: x={:?} y={:?} got {:?} frozen {:?}",
                        T::NAME,
                        OPS[k],
                        x.terms(),
                        y.terms(),
                        got.terms(),
                        want.terms
                    );
                }
            }
        }
    }
    let total: u64 = mismatches.iter().sum();
    assert_eq!(
        total,
        0,
        "{} N={N}: results differ from the pre-optimisation reference ({:?})",
        T::NAME,
        OPS.iter().zip(mismatches.iter()).collect::<Vec<_>>()
    );
}

#[test]
fn accurate_ops_match_the_pre_optimisation_reference_f64() {
    check::<f64, 1>();
    check::<f64, 2>();
    check::<f64, 3>();
    check::<f64, 4>();
    check::<f64, 5>();
    check::<f64, 6>();
    check::<f64, 7>();
    check::<f64, 8>();
}

#[test]
fn accurate_ops_match_the_pre_optimisation_reference_f32() {
    check::<f32, 1>();
    check::<f32, 2>();
    check::<f32, 3>();
    check::<f32, 4>();
    check::<f32, 5>();
    check::<f32, 6>();
    check::<f32, 7>();
    check::<f32, 8>();
}
