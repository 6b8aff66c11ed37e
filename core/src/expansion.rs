//! The expansion type `Expansion<T, N>`: an unevaluated sum of `N` machine numbers.
//!
//! Invariant kept by every constructor and operation (the *accurate* tier): the terms are
//! ordered by decreasing magnitude and *ulp-nonoverlapping*, |x_{i+1}| ≤ ulp(x_i), with zero
//! terms only at the end (JMMP 2016, Def. 2.4). The terms are private so callers cannot break
//! this; [`Expansion::from_terms`] renormalises whatever it is given.
//!
//! Non-finite values: an expansion whose leading term is ±∞ or NaN has zeros below it (or NaN);
//! [`Expansion::is_finite`] checks every term, so an intermediate NaN is never hidden.

use crate::eft::two_sum;
use crate::float::FloatTerm;
use core::cmp::Ordering;

/// A floating-point expansion x = x₀ + x₁ + … + x_{N−1} of `N` terms of type `T` (`f64` or
/// `f32`), 1 ≤ N ≤ 8.
///
/// `repr(transparent)`: the layout is that of `[T; N]`, so a slice of expansions is a slice of
/// terms ([`crate::runtime::terms_of`]).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct Expansion<T: FloatTerm, const N: usize> {
    pub(crate) terms: [T; N],
}

/// Largest supported number of terms.
pub const MAX_TERMS: usize = 8;

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    const CHECK_N: () = assert!(N >= 1 && N <= MAX_TERMS, "Expansion supports 1..=8 terms");

    /// Builds from terms already known to satisfy the invariant (internal use).
    #[inline(always)]
    pub(crate) fn from_normalized(terms: [T; N]) -> Self {
        #[allow(clippy::let_unit_value)]
        let _ = Self::CHECK_N;
        Self { terms }
    }

    /// Zero.
    #[inline(always)]
    pub fn zero() -> Self {
        Self::from_normalized([T::ZERO; N])
    }

    /// One.
    #[inline(always)]
    pub fn one() -> Self {
        Self::from_term(T::ONE)
    }

    /// The expansion holding one machine number exactly.
    #[inline(always)]
    pub fn from_term(v: T) -> Self {
        let mut terms = [T::ZERO; N];
        terms[0] = v;
        Self::from_normalized(terms)
    }

    /// Builds an expansion equal to the exact sum of `terms` (in any order), or, when the sum
    /// needs more than `N` ulp-nonoverlapping terms, its rounding to N terms with relative
    /// error ≤ [`crate::bounds::round_rel_bound`]. Non-finite input yields a non-finite
    /// result.
    pub fn from_terms(terms: [T; N]) -> Self {
        if terms.iter().any(|t| !t.is_finite()) {
            let s = terms.iter().fold(T::ZERO, |acc, &t| acc + t);
            return Self::from_term(s);
        }
        crate::accurate::round_exact_sum(&terms)
    }

    /// Builds an expansion from terms that already satisfy the invariant (finite,
    /// ulp-nonoverlapping, zeros only at the end), keeping them verbatim; `None` otherwise.
    /// Useful for tests and for reading stored expansions bit for bit.
    pub fn try_from_normalized(terms: [T; N]) -> Option<Self> {
        if is_ulp_nonoverlapping(&terms) {
            Some(Self::from_normalized(terms))
        } else {
            None
        }
    }

    /// The expansion t₀ … t_{j−1}, v, 0 … 0 (this one's first j terms, then `v`, then zeros)
    /// when those terms satisfy the invariant, kept verbatim; `None` otherwise (as
    /// [`Self::try_from_normalized`] of that array, but checked in place: the terms' pairs up
    /// to t_{j−1}, then the pair (t_{j−1}, v); the pairs after v always hold). The interval
    /// crate's outward rounding replaces the tail of an endpoint this way
    /// ([`Self::set_tail`] in place).
    ///
    /// Panics when j ≥ N.
    ///
    /// ```
    /// use expanse_core::Expansion;
    /// let x = Expansion::<f64, 3>::from_f64(1.0).add_term(1e-20);
    /// let y = x.with_tail(1, 2e-20).unwrap();
    /// assert_eq!(y.terms(), &[1.0, 2e-20, 0.0]);
    /// assert!(x.with_tail(1, 0.5).is_none()); // 0.5 overlaps 1.0
    /// ```
    #[inline(always)]
    pub fn with_tail(&self, j: usize, v: T) -> Option<Self> {
        let mut r = *self;
        r.set_tail(j, v).then_some(r)
    }

    /// [`Self::with_tail`] in place: replaces t_j, t_{j+1}, … by v, 0, … and returns true when
    /// the result satisfies the invariant; otherwise leaves `self` unchanged and returns false.
    /// (In place because a caller that copies a returned expansion right away reads terms
    /// just written one by one, and that load stalls on store forwarding.)
    ///
    /// Panics when j ≥ N.
    #[inline(always)]
    pub fn set_tail(&mut self, j: usize, v: T) -> bool {
        assert!(j < N, "set_tail: term index {j} out of 0..{N}");
        let t = &mut self.terms;
        let pair_ok = ulp_nonoverlapping_pair::<T>;
        let mut ok = v.is_finite();
        for i in 0..j {
            ok &= t[i].is_finite();
            if i + 1 < j {
                ok &= pair_ok(t[i], t[i + 1]);
            }
        }
        if j > 0 {
            ok &= pair_ok(t[j - 1], v);
        }
        if ok {
            t[j] = v;
            for x in &mut t[j + 1..] {
                *x = T::ZERO;
            }
        }
        ok
    }

    /// Converts an `f64` to the nearest expansion: exact for `f64` terms; for `f32` terms
    /// exact when N ≥ 3 and every term stays normal (|v| ≥ 2^-73; greedy nearest split).
    pub fn from_f64(v: f64) -> Self {
        let mut terms = [T::ZERO; N];
        let mut rest = v;
        for t in terms.iter_mut() {
            let head = T::from_f64(rest);
            *t = head;
            if !head.is_finite() {
                break;
            }
            rest -= head.to_f64();
            if rest == 0.0 {
                break;
            }
        }
        Self::from_normalized(terms)
    }

    /// The terms, leading term first.
    #[inline(always)]
    pub fn terms(&self) -> &[T; N] {
        &self.terms
    }

    /// The leading term (the value rounded to one machine number, up to one ulp).
    #[inline(always)]
    pub fn hi(&self) -> T {
        self.terms[0]
    }

    /// The value rounded to `f64` (faithfully: summed from the smallest term up).
    pub fn to_f64(&self) -> f64 {
        let mut s = 0.0f64;
        let mut c = 0.0f64;
        for t in self.terms.iter().rev() {
            let (hi, lo) = two_sum(s, t.to_f64());
            s = hi;
            c += lo;
        }
        s + c
    }

    /// The value rounded to `f32`.
    pub fn to_f32(&self) -> f32 {
        self.to_f64() as f32
    }

    /// True when every term is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.terms.iter().all(|t| t.is_finite())
    }

    /// True when any term is NaN.
    #[inline]
    pub fn is_nan(&self) -> bool {
        self.terms.iter().any(|t| t.is_nan())
    }

    /// True for ±0.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.terms[0] == T::ZERO
    }

    /// Negation (exact).
    #[inline(always)]
    pub fn neg(&self) -> Self {
        let mut t = self.terms;
        for v in t.iter_mut() {
            *v = -*v;
        }
        Self::from_normalized(t)
    }

    /// Absolute value (exact): the sign of an expansion is the sign of its leading term.
    #[inline(always)]
    pub fn abs(&self) -> Self {
        if self.terms[0] < T::ZERO {
            self.neg()
        } else {
            *self
        }
    }

    /// Multiplication by 2^e, exact unless a term overflows or becomes subnormal.
    pub fn ldexp(&self, e: i32) -> Self {
        let mut t = self.terms;
        for v in t.iter_mut() {
            *v = v.ldexp(e);
        }
        Self::from_normalized(t)
    }

    /// Sign of the exact value: `Less`, `Equal` or `Greater`; `None` for NaN.
    pub fn signum_ordering(&self) -> Option<Ordering> {
        if self.is_nan() {
            return None;
        }
        self.terms[0].partial_cmp(&T::ZERO)
    }

    /// Exact comparison of values (computed from the exact difference).
    pub fn cmp_value(&self, other: &Self) -> Option<Ordering> {
        if self.is_nan() || other.is_nan() {
            return None;
        }
        if !self.terms[0].is_finite() || !other.terms[0].is_finite() {
            return self.terms[0].partial_cmp(&other.terms[0]);
        }
        // The accurate difference's leading term has the sign of the exact difference.
        self.sub(other).signum_ordering()
    }
}

impl<T: FloatTerm, const N: usize> Default for Expansion<T, N> {
    fn default() -> Self {
        Self::zero()
    }
}

impl<T: FloatTerm, const N: usize> PartialEq for Expansion<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Some(Ordering::Equal)
    }
}

impl<T: FloatTerm, const N: usize> PartialOrd for Expansion<T, N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.cmp_value(other)
    }
}

impl<T: FloatTerm, const N: usize> From<T> for Expansion<T, N> {
    fn from(v: T) -> Self {
        Self::from_term(v)
    }
}

/// True when `terms` are finite and ulp-nonoverlapping: |t_{i+1}| ≤ ulp(t_i), with zero terms
/// only at the end (the invariant of the accurate tier; JMMP 2016, Def. 2.4).
pub fn is_ulp_nonoverlapping<T: FloatTerm>(terms: &[T]) -> bool {
    if !terms.iter().all(|t| t.is_finite()) {
        return false;
    }
    terms
        .windows(2)
        .all(|w| ulp_nonoverlapping_pair(w[0], w[1]))
}

/// The invariant's rule for neighbouring terms x, y (x first): y = 0 after a zero, else
/// |y| ≤ ulp(x). [`is_ulp_nonoverlapping`] is this on every pair, with every term finite.
#[inline(always)]
pub fn ulp_nonoverlapping_pair<T: FloatTerm>(x: T, y: T) -> bool {
    if x == T::ZERO {
        y == T::ZERO
    } else {
        y.abs() <= crate::float::ulp(x)
    }
}
