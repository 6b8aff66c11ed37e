//! `ExpInterval<N>`: endpoints are `Expansion<f64, N>` (N = 1..=8), outward rounding derived
//! from the core crate's proven relative error bounds. No global rounding mode is touched.
//!
//! ## How an endpoint is rounded outward
//!
//! Each endpoint is first computed by the core's *accurate* operation, which returns r with
//! |r − e| ≤ ε·|e| for the exact value e, where ε is the operation's bound from
//! `expanse_core::bounds` (`add_rel_bound`, `mul_rel_bound`, …, read at run time, so a change
//! of the core's bounds is picked up). Then r is moved outward by one machine number w:
//!
//! ```text
//! w = fl(c·|r₀|),   c = 2·(ε + δ),   δ = add_rel_bound(N)
//! ```
//!
//! with r₀ the leading term of r. Fast path: w is folded into the last term of r with one f64
//! operation whose result is stepped outward by `next_down`/`next_up` (round-to-nearest is
//! within half an ulp, so one step lands beyond the exact value), or appended as a new term
//! when r has a trailing zero slot; the new value is then ≤ r − w (resp. ≥ r + w) *exactly*. It is taken only when the terms keep the expansion
//! invariant (new last term non-zero and at most ulp of the one before). Second fast path,
//! when the terms below some t_j are smaller than w (`widen_truncating`): t_j ∓ s rounded
//! outward with s ≥ w + Σ_{i>j}|t_i|, s ≤ 4w, zeros after it; again ≤ r − w (resp. ≥ r + w)
//! exactly. Slow path: the core's accurate add of −w (resp. +w), with relative error δ.
//!
//! Why this suffices (Down case; Up is symmetric): r is ulp-nonoverlapping, so
//! |r| ≤ |r₀|(1 + 3u) and |e| ≤ |r|/(1 − ε) ≤ 1.01|r₀|, hence e ≥ r − 1.01·ε|r₀|. The computed
//! lo is ≤ r − w + δ(|r| + w) on either path, and fl(c|r₀|) ≥ (1 − u)c|r₀|, so
//! w(1 − δ) ≥ 1.99(ε + δ)|r₀| ≥ 1.01(ε + δ)|r₀| ≥ 1.01ε|r₀| + δ|r|: lo ≤ e. The factor 2 in c
//! is the margin that absorbs the "1.01"s.
//!
//! ## Where the bounds hold, and what happens elsewhere
//!
//! The core states its bounds for operands and exact results that are zero or have magnitude
//! in [`min_normal_result(N)`, `max_normal_result(N)`], on invariant-satisfying operands. An
//! operation is done by the bound-based path only when every operand endpoint it uses is zero
//! or in [2·min_normal_result, min(2^1000, max_normal_result/2)] and so is the computed
//! result (the factor 2 keeps the *exact* result in range too); a zero result is trusted when
//! it is exact (a product with a zero factor; a sum checked exactly to be 0). Otherwise (an
//! infinite endpoint, huge or tiny magnitudes) the whole operation is recomputed soundly in f64
//! interval arithmetic (inari) from outward f64 enclosures of the operands, and the result
//! converted back exactly. That loses relative precision but never containment. In a proof
//! near the classical parameters the quantities are O(1) and it triggers only for tiny
//! products (e.g. squares of box widths below 2^-270 for N = 8), where the f64 enclosure's
//! absolute error (about 2^-53 of a number below 2^-540, or a few subnormals) is negligible
//! next to the O(1) terms it is added to. (The containment tests found the need for the
//! operand condition: sqrt of 1e-304 was wrong when only the result was checked.)
//!
//! Endpoint comparisons (for min/max in products, hull, predicates) are exact: the sign of
//! the difference of two expansions is read off an exact Shewchuk expansion of it.

use crate::endpoint::{classify, div_table, mul_table, Class};
use crate::error::Error;
use crate::f64i::{bounds_error, valid_bounds, F64Interval};
use crate::{Enclosed, IntervalArith};
use core::cell::Cell;
use core::cmp::Ordering;
use expanse_core::bounds;
use expanse_core::eft::two_sum;
use expanse_core::{ulp_nonoverlapping_pair, Expansion};
use rug::float::Round;
use rug::ops::SubAssignRound;
use rug::{Float, Rational};
use std::sync::OnceLock;

type E<const N: usize> = Expansion<f64, N>;

// Batched slice operations (`add_slices`, `mul_slices`, …): a child module, so it uses the
// private endpoint helpers below unchanged.
#[path = "exp_batch.rs"]
mod batch;

/// An interval whose endpoints are N-term f64 expansions.
#[derive(Clone, Copy, Debug)]
pub struct ExpInterval<const N: usize> {
    // Non-empty: lo ≤ hi, lo ≠ +∞, hi ≠ −∞. Empty: lo = +∞, hi = −∞.
    lo: E<N>,
    hi: E<N>,
}

/// Largest endpoint leading-term magnitude trusted by the bound-based path.
const BIG: f64 = 1.0715086071862673e301; // 2^1000

/// Exact sign (−1, 0, +1) of a sum of f64 values, via Shewchuk's GrowExpansion with zero
/// elimination (every step is an exact 2Sum; the largest term of a nonoverlapping expansion
/// carries the sign). Inputs must be finite and below 2^1000 in magnitude (no overflow).
fn exact_sign_of_sum(xs: &[f64]) -> i8 {
    let mut h = [0.0f64; 2 * expanse_core::MAX_TERMS];
    let mut len = 0usize;
    for &b in xs {
        if b == 0.0 {
            continue;
        }
        let mut q = b;
        let mut out = 0usize;
        for i in 0..len {
            let (s, e) = two_sum(q, h[i]);
            if e != 0.0 {
                h[out] = e;
                out += 1;
            }
            q = s;
        }
        if q != 0.0 {
            h[out] = q;
            out += 1;
        }
        len = out;
    }
    if len == 0 {
        0
    } else if h[len - 1] > 0.0 {
        1
    } else {
        -1
    }
}

/// Exact comparison of two expansions (None when either is NaN).
pub(crate) fn cmp_exact<const N: usize>(a: &E<N>, b: &E<N>) -> Option<Ordering> {
    if a.is_nan() || b.is_nan() {
        return None;
    }
    let (a0, b0) = (a.hi(), b.hi());
    if !a0.is_finite() || !b0.is_finite() {
        return a0.partial_cmp(&b0);
    }
    if a0.abs() > BIG || b0.abs() > BIG {
        return a.to_rug().partial_cmp(&b.to_rug());
    }
    let mut xs = [0.0f64; 2 * expanse_core::MAX_TERMS];
    for (i, t) in a.terms().iter().enumerate() {
        xs[i] = *t;
    }
    for (i, t) in b.terms().iter().enumerate() {
        xs[N + i] = -*t;
    }
    Some(exact_sign_of_sum(&xs[..2 * N]).cmp(&0))
}

/// Zero when x + y is exactly zero (checked exactly; the rare path when a computed sum is
/// zero or untrusted), None otherwise.
#[cold]
fn exact_zero_sum<const N: usize>(x: &E<N>, y: &E<N>) -> Option<E<N>> {
    (cmp_exact(x, &y.neg()) == Some(Ordering::Equal)).then(E::<N>::zero)
}

#[inline]
fn lt<const N: usize>(a: &E<N>, b: &E<N>) -> bool {
    cmp_exact(a, b) == Some(Ordering::Less)
}

#[inline]
fn le<const N: usize>(a: &E<N>, b: &E<N>) -> bool {
    matches!(cmp_exact(a, b), Some(Ordering::Less | Ordering::Equal))
}

#[inline]
fn sgn<const N: usize>(x: &E<N>) -> i8 {
    let h = x.hi();
    if h > 0.0 {
        1
    } else if h < 0.0 {
        -1
    } else {
        0
    }
}

/// Per-N constants, read from the core's bound functions once (they are plain functions
/// whose values may change as the core is hardened, so they are not copied here) and cached:
/// evaluating them costs several `powi` calls, more than an N = 2 addition.
#[derive(Clone, Copy, Debug)]
struct Consts {
    /// Widening factors c = 2·(ε + δ) for add, mul, div, sqrt.
    add_c: f64,
    mul_c: f64,
    div_c: f64,
    sqrt_c: f64,
    /// Trusted magnitudes: [2·min_normal_result, min(2^1000, max_normal_result/2)].
    min_ok: f64,
    max_ok: f64,
}

fn consts_for(n: usize) -> Consts {
    let n = n.max(1);
    let d = bounds::add_rel_bound::<f64>(n);
    let c = |eps: f64| 2.0 * (eps + d);
    Consts {
        add_c: c(d),
        mul_c: c(bounds::mul_rel_bound::<f64>(n)),
        div_c: c(bounds::div_rel_bound::<f64>(n)),
        sqrt_c: c(bounds::sqrt_rel_bound::<f64>(n)),
        min_ok: 2.0 * bounds::min_normal_result::<f64>(n),
        max_ok: BIG.min(bounds::max_normal_result::<f64>(n) / 2.0),
    }
}

#[inline(always)]
fn consts<const N: usize>() -> &'static Consts {
    static TABLE: OnceLock<[Consts; expanse_core::MAX_TERMS + 1]> = OnceLock::new();
    &TABLE.get_or_init(|| core::array::from_fn(consts_for))[N]
}

/// Moves the computed endpoint r outward (down when `up` is false) by w = fl(c·|r₀|), or
/// returns None when r is zero or outside the range where the core's bounds hold (the caller
/// then handles exact zeros or falls back).
#[inline(always)]
fn outward<const N: usize>(r: E<N>, c: f64, up: bool) -> Option<E<N>> {
    let r0 = r.hi();
    if r0 == 0.0 {
        return None;
    }
    if !r.is_finite() {
        return None;
    }
    if !in_range(&r) {
        return None;
    }
    let w = r0.abs() * c;
    Some(widened(r, w, up))
}

/// r moved outward by w: the fast steps ([`widen_last_term`]) when they keep the invariant,
/// else the core's accurate addition of ∓w.
#[inline(always)]
fn widened<const N: usize>(r: E<N>, w: f64, up: bool) -> E<N> {
    let mut x = r;
    if widen_last_term(&mut x, w, up) {
        x
    } else if up {
        r.add_term(w)
    } else {
        r.add_term(-w)
    }
}

/// Moves a computed value r outward past the exact value e when |r − e| ≤ rel·|e| + abs (the
/// stated bound of an elementary function): the widening of [`outward`] with ε = rel, plus
/// 2·abs. Why it suffices: as in the module doc, e ≥ r − 1.01·rel·|r₀| − abs, the computed
/// endpoint is ≤ r − w + δ(|r| + w), and w(1 − δ) ≥ 1.01(rel + δ)|r₀| + abs once
/// w ≥ fl(c·|r₀|) + 2·abs·(1 − 2^-50). None when r is zero (with abs = 0), non-finite or out of
/// the trusted range, or when the bound is not small (rel ≥ 2^-20): the caller falls back.
pub(crate) fn outward_with<const N: usize>(r: E<N>, rel: f64, abs: f64, up: bool) -> Option<E<N>> {
    if !(rel >= 0.0 && rel < 1.0 / (1u64 << 20) as f64 && abs >= 0.0 && abs.is_finite()) {
        return None;
    }
    let c = 2.0 * (rel + bounds::add_rel_bound::<f64>(N));
    if abs == 0.0 {
        return outward(r, c, up);
    }
    if !r.is_finite() || (r.hi() != 0.0 && !in_range(&r)) {
        return None;
    }
    // Rounded up twice: the sum of two non-negative terms, then one step up.
    let w = (r.hi().abs() * c + 2.0 * abs).next_up();
    if !w.is_finite() || w > consts::<N>().max_ok {
        return None;
    }
    Some(widened(r, w, up))
}

/// The fast outward step, in place: fold ∓w into the last term and round that one f64
/// operation outward with `next_down`/`next_up` (round-to-nearest is within half an ulp, so
/// one step lands on the far side of the exact value: the new value is ≤ r − w, resp.
/// ≥ r + w, exactly); or, when r has trailing zero terms, append ∓w itself (exactly r ∓ w);
/// else [`widen_truncating`]. Taken only when the result keeps the expansion invariant (the
/// core's `set_tail`, which checks it and keeps the terms verbatim): then `r` is replaced and
/// the result is true; otherwise false, `r` unchanged, and the caller uses the core's accurate
/// addition. (In place and checked without building the new terms first: the copies of a
/// returned expansion, read right after its terms were written one by one, stalled on store
/// forwarding, about a third of an interval addition at N = 8.)
#[inline(always)]
fn widen_last_term<const N: usize>(r: &mut E<N>, w: f64, up: bool) -> bool {
    let t = r.terms();
    let last = t[N - 1];
    if N > 1 && last == 0.0 {
        // Trailing zero slots: put ∓w (an f64, so exactly r ∓ w) after the last non-zero term.
        let Some(j) = t.iter().rposition(|&x| x != 0.0) else {
            return false;
        };
        let v = if up { w } else { -w };
        // The one new pair first (O(1)); `set_tail` then checks them all.
        return (ulp_nonoverlapping_pair(t[j], v) && r.set_tail(j + 1, v))
            || widen_truncating(r, w, up);
    }
    let nl = if up {
        (last + w).next_up()
    } else {
        (last - w).next_down()
    };
    if nl == 0.0 || !nl.is_finite() {
        return false;
    }
    // Kept verbatim (so the value is exactly the one argued above) when the invariant holds.
    ((N == 1 || ulp_nonoverlapping_pair(t[N - 2], nl)) && r.set_tail(N - 1, nl))
        || widen_truncating(r, w, up)
}

/// The length of the longest prefix of `t` that is ulp-nonoverlapping (finite terms, every
/// neighbouring pair by [`pair_ok`]); computed once per endpoint, so that each tail tried by
/// the widening costs one pair check ([`tail_fits`]).
#[inline(always)]
fn valid_prefix<const N: usize>(t: &[f64; N]) -> usize {
    // Every pair tested, the first failure kept (no early exit: selects, not branches).
    let mut valid = N;
    for k in (1..N).rev() {
        if !(t[k].is_finite() && ulp_nonoverlapping_pair(t[k - 1], t[k])) {
            valid = k;
        }
    }
    if t[0].is_finite() {
        valid
    } else {
        0
    }
}

/// True exactly when `r.with_tail(j, v)` is `Some` (t₀ … t_{j−1}, v, zeros is a valid
/// expansion), given `valid` = [`valid_prefix`]`(t)`: the prefix is valid (j ≤ `valid`), v is
/// finite and the pair (t_{j−1}, v) holds; the pairs after v always do.
#[inline(always)]
fn tail_fits<const N: usize>(t: &[f64; N], valid: usize, j: usize, v: f64) -> bool {
    j <= valid && v.is_finite() && (j == 0 || ulp_nonoverlapping_pair(t[j - 1], v))
}

/// The second fast outward step, for results whose lowest terms lie below w (the last-term
/// fold or the appended ∓w then breaks the invariant; at N ≥ 6 the benchmark's sums and
/// products of thin intervals took the accurate addition for every endpoint): replace the tail
/// t_j, t_{j+1}, … by one term t'_j = t_j ∓ s rounded outward, with
/// s ≥ w + Σ_{i>j} |t_i| (each partial sum rounded up by `next_up`), and zeros after it. The
/// new value is ≤ r − w (resp. ≥ r + w) exactly: prefix + t'_j ≤ prefix + t_j − s ≤
/// prefix + t_j + Σ_{i>j} t_i − w. Tried for j = N − 2 down to 1; taken only when s ≤ 4w (so
/// the endpoint moves by at most about 5w instead of w) and the terms keep the invariant
/// (then `r` is replaced and the result is true); otherwise false, `r` unchanged (the caller
/// uses the accurate addition).
#[inline(always)]
fn widen_truncating<const N: usize>(r: &mut E<N>, w: f64, up: bool) -> bool {
    if N < 3 {
        return false;
    }
    // A copy: `r` is replaced in place below.
    let terms = *r.terms();
    let t = &terms;
    // The prefix checked once; each tail tried then costs one pair check (`tail_fits`) before
    // `set_tail` checks it all.
    let valid = valid_prefix(t);
    // Zero terms after the last non-zero one add nothing to the tail sum.
    let Some(last) = t.iter().rposition(|&x| x != 0.0) else {
        return false;
    };
    let mut s = w;
    let mut j = last;
    if last == N - 1 {
        s = (s + t[N - 1].abs()).next_up();
        j = N - 2;
    }
    while j >= 1 {
        if s > 4.0 * w {
            return false;
        }
        let nj = if up {
            (t[j] + s).next_up()
        } else {
            (t[j] - s).next_down()
        };
        if nj != 0.0 && tail_fits(t, valid, j, nj) && r.set_tail(j, nj) {
            return true;
        }
        s = (s + t[j].abs()).next_up();
        j -= 1;
    }
    false
}

/// True when the leading term's magnitude is in the trusted range (module doc).
#[inline(always)]
fn in_range<const N: usize>(x: &E<N>) -> bool {
    let k = consts::<N>();
    (k.min_ok..=k.max_ok).contains(&x.hi().abs())
}

/// An operand the bound-based path may use: zero or in range.
#[inline]
fn operand_ok<const N: usize>(x: &E<N>) -> bool {
    x.is_zero() || in_range(x)
}

/// The expansion nearest below (`Round::Down`) or above (`Round::Up`) the exact value `v`,
/// built greedily: N − 1 nearest terms, then the last rounded in the wanted direction.
/// Verified exactly; falls back to a single directed f64 term if anything is off.
fn exp_from_rug_dir<const N: usize>(v: &Float, dir: Round) -> E<N> {
    let single = || E::<N>::from_term(v.to_f64_round(dir));
    if !v.is_finite() || v.is_zero() {
        return single();
    }
    let first = v.to_f64_round(Round::Nearest);
    if !first.is_finite() || first.abs() > BIG {
        return single();
    }
    let mut terms = [0.0f64; N];
    let mut rest = Float::with_val(v.prec().max(53) + 64, v);
    let mut i = 0;
    while i + 1 < N {
        let t = rest.to_f64_round(Round::Nearest);
        if t == 0.0 {
            break;
        }
        terms[i] = t;
        i += 1;
        let o = rest.sub_assign_round(t, Round::Nearest);
        if o != Ordering::Equal {
            return single();
        }
        if rest.is_zero() {
            break;
        }
    }
    if !rest.is_zero() {
        terms[i] = rest.to_f64_round(dir);
    }
    // Greedy nearest terms are ulp-nonoverlapping, so normally they are kept verbatim; the
    // renormalising constructor is the second choice. Either way the direction is verified
    // exactly.
    let ok = |e: &E<N>| {
        let ev = e.to_rug();
        match dir {
            Round::Down => ev <= *v,
            Round::Up => ev >= *v,
            _ => ev == *v,
        }
    };
    if let Some(e) = E::<N>::try_from_normalized(terms) {
        if ok(&e) {
            return e;
        }
    }
    let e = E::<N>::from_terms(terms);
    if ok(&e) {
        e
    } else {
        single()
    }
}

impl<const N: usize> ExpInterval<N> {
    /// [lo, hi] from two expansions (IEEE 1788 validity rules).
    pub fn new(lo: E<N>, hi: E<N>) -> Result<Self, Error> {
        let (l, h) = (lo.to_rug(), hi.to_rug());
        if !valid_bounds(&l, &h) {
            return Err(bounds_error(&l, &h));
        }
        Ok(Self { lo, hi })
    }

    /// The point interval [v, v]; empty when `v` is not finite.
    pub fn point(v: E<N>) -> Self {
        if !v.is_finite() {
            return Self::empty(&());
        }
        Self { lo: v, hi: v }
    }

    /// The lower endpoint (exact; +∞ when empty).
    pub fn lo(&self) -> E<N> {
        self.lo
    }

    /// The upper endpoint (exact; −∞ when empty).
    pub fn hi(&self) -> E<N> {
        self.hi
    }

    fn raw(lo: E<N>, hi: E<N>) -> Self {
        Self { lo, hi }
    }

    fn class(&self) -> Class {
        classify(sgn(&self.lo), sgn(&self.hi))
    }

    fn finite(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// Outward f64 enclosure (the fallback path's input).
    pub fn to_f64_interval(&self) -> F64Interval {
        self.convert::<F64Interval>(&())
    }

    /// Exact conversion of an f64 interval (every f64 is an expansion).
    pub fn from_f64_interval(x: &F64Interval) -> Self {
        if x.is_empty() {
            return Self::empty(&());
        }
        Self::raw(E::<N>::from_term(x.inf()), E::<N>::from_term(x.sup()))
    }

    /// The sound fallback: the operation in inari from outward f64 enclosures.
    #[cold]
    fn fallback2(
        &self,
        other: &Self,
        op: impl Fn(&F64Interval, &F64Interval) -> F64Interval,
    ) -> Self {
        Self::from_f64_interval(&op(&self.to_f64_interval(), &other.to_f64_interval()))
    }

    #[cold]
    fn fallback1(&self, op: impl Fn(&F64Interval) -> F64Interval) -> Self {
        Self::from_f64_interval(&op(&self.to_f64_interval()))
    }
}

impl<const N: usize> PartialEq for ExpInterval<N> {
    /// Set equality (exact comparison of endpoint values).
    fn eq(&self, other: &Self) -> bool {
        (self.is_empty() && other.is_empty())
            || (cmp_exact(&self.lo, &other.lo) == Some(Ordering::Equal)
                && cmp_exact(&self.hi, &other.hi) == Some(Ordering::Equal))
    }
}

impl<const N: usize> IntervalArith for ExpInterval<N> {
    type Ctx = ();

    fn kind_name(&self) -> String {
        format!("exp{N}")
    }

    fn ctx(&self) -> Self::Ctx {}

    fn empty(_: &()) -> Self {
        Self::raw(
            E::<N>::from_term(f64::INFINITY),
            E::<N>::from_term(f64::NEG_INFINITY),
        )
    }

    fn entire(_: &()) -> Self {
        Self::raw(
            E::<N>::from_term(f64::NEG_INFINITY),
            E::<N>::from_term(f64::INFINITY),
        )
    }

    fn from_f64(_: &(), v: f64) -> Self {
        Self::point(E::<N>::from_term(v))
    }

    fn from_f64_bounds(_: &(), lo: f64, hi: f64) -> Result<Self, Error> {
        F64Interval::new(lo, hi).map(|x| Self::from_f64_interval(&x))
    }

    fn from_rug_bounds(_: &(), lo: &Float, hi: &Float) -> Result<Self, Error> {
        if !valid_bounds(lo, hi) {
            return Err(bounds_error(lo, hi));
        }
        Ok(Self::raw(
            exp_from_rug_dir::<N>(lo, Round::Down),
            exp_from_rug_dir::<N>(hi, Round::Up),
        ))
    }

    fn from_rational(_: &(), q: &Rational) -> Enclosed<Self> {
        // Enough bits that the directed N-term rounding of the Float is a directed rounding
        // of q: round q outward at high precision first (two directed roundings compose).
        let p = 64 * N as u32 + 1200;
        let (fl, ol) = Float::with_val_round(p, q, Round::Down);
        let (fh, oh) = Float::with_val_round(p, q, Round::Up);
        let lo = exp_from_rug_dir::<N>(&fl, Round::Down);
        let hi = exp_from_rug_dir::<N>(&fh, Round::Up);
        let exact = ol.is_eq() && oh.is_eq() && lo.to_rug() == *q && hi.to_rug() == *q;
        Enclosed {
            interval: Self::raw(lo, hi),
            exact,
        }
    }

    fn inf_rug(&self) -> Float {
        self.lo.to_rug()
    }

    fn sup_rug(&self) -> Float {
        self.hi.to_rug()
    }

    fn mid(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let (l, h) = (self.lo.hi(), self.hi.hi());
        let m = match (l.is_infinite(), h.is_infinite()) {
            (false, false) => {
                let s = self.lo.add(&self.hi);
                let m = if s.is_finite() {
                    s.ldexp(-1)
                } else {
                    self.lo.ldexp(-1).add(&self.hi.ldexp(-1))
                };
                // Any representable point inside will do; guard against rounding outside.
                if le(&self.lo, &m) && le(&m, &self.hi) {
                    m
                } else {
                    self.lo
                }
            }
            (false, true) => E::<N>::from_term(f64::MAX),
            (true, false) => E::<N>::from_term(f64::MIN),
            (true, true) => E::<N>::zero(),
        };
        Self::raw(m, m)
    }

    fn summary_prec(&self) -> u32 {
        64 * N as u32
    }

    fn is_empty(&self) -> bool {
        // Every constructor keeps the empty interval canonical (lo = +∞), and a non-empty
        // interval never has lo = +∞.
        self.lo.hi() == f64::INFINITY || self.lo.is_nan() || self.hi.is_nan()
    }

    fn is_entire(&self) -> bool {
        self.lo.hi() == f64::NEG_INFINITY && self.hi.hi() == f64::INFINITY
    }

    fn is_bounded(&self) -> bool {
        !self.is_empty() && self.finite()
    }

    fn is_point(&self) -> bool {
        !self.is_empty() && cmp_exact(&self.lo, &self.hi) == Some(Ordering::Equal)
    }

    fn contains_f64(&self, v: f64) -> bool {
        if !v.is_finite() || self.is_empty() {
            return false;
        }
        let p = E::<N>::from_term(v);
        le(&self.lo, &p) && le(&p, &self.hi)
    }

    fn subset(&self, other: &Self) -> bool {
        self.is_empty() || (!other.is_empty() && le(&other.lo, &self.lo) && le(&self.hi, &other.hi))
    }

    fn subset_of_interior(&self, other: &Self) -> bool {
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let inf = |x: &E<N>| x.hi().is_infinite();
        let lo_ok = lt(&other.lo, &self.lo) || (inf(&other.lo) && inf(&self.lo));
        let hi_ok = lt(&self.hi, &other.hi) || (inf(&other.hi) && inf(&self.hi));
        lo_ok && hi_ok
    }

    fn certainly_lt(&self, other: &Self) -> bool {
        !self.is_empty() && !other.is_empty() && lt(&self.hi, &other.lo)
    }

    fn certainly_le(&self, other: &Self) -> bool {
        !self.is_empty() && !other.is_empty() && le(&self.hi, &other.lo)
    }

    fn disjoint(&self, other: &Self) -> bool {
        self.is_empty() || other.is_empty() || lt(&self.hi, &other.lo) || lt(&other.hi, &self.lo)
    }

    fn hull(&self, other: &Self) -> Self {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        let lo = if lt(&other.lo, &self.lo) {
            other.lo
        } else {
            self.lo
        };
        let hi = if lt(&self.hi, &other.hi) {
            other.hi
        } else {
            self.hi
        };
        Self::raw(lo, hi)
    }

    fn intersection(&self, other: &Self) -> Self {
        if self.disjoint(other) {
            return Self::empty(&());
        }
        let lo = if lt(&self.lo, &other.lo) {
            other.lo
        } else {
            self.lo
        };
        let hi = if lt(&other.hi, &self.hi) {
            other.hi
        } else {
            self.hi
        };
        Self::raw(lo, hi)
    }

    fn neg(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        Self::raw(self.hi.neg(), self.lo.neg())
    }

    fn add(&self, other: &Self) -> Self {
        if self.is_empty() || other.is_empty() {
            return Self::empty(&());
        }
        if self.finite()
            && other.finite()
            && operand_ok(&self.lo)
            && operand_ok(&self.hi)
            && operand_ok(&other.lo)
            && operand_ok(&other.hi)
        {
            let c = consts::<N>().add_c;
            let lo = outward(self.lo.add(&other.lo), c, false)
                .or_else(|| exact_zero_sum(&self.lo, &other.lo));
            let hi = outward(self.hi.add(&other.hi), c, true)
                .or_else(|| exact_zero_sum(&self.hi, &other.hi));
            if let (Some(lo), Some(hi)) = (lo, hi) {
                return Self::raw(lo, hi);
            }
        }
        self.fallback2(other, |x, y| x.add(y))
    }

    fn sub(&self, other: &Self) -> Self {
        self.add(&other.neg())
    }

    fn mul(&self, other: &Self) -> Self {
        if self.is_empty() || other.is_empty() {
            return Self::empty(&());
        }
        if self.finite() && other.finite() {
            let c = consts::<N>().mul_c;
            // An untrusted endpoint product sets `bad`; the whole product then falls back.
            let bad = Cell::new(false);
            let prod = |x: &E<N>, y: &E<N>, up: bool| -> E<N> {
                if x.is_zero() || y.is_zero() {
                    return E::<N>::zero();
                }
                if !in_range(x) || !in_range(y) {
                    bad.set(true);
                    return E::<N>::zero();
                }
                outward(x.mul(y), c, up).unwrap_or_else(|| {
                    bad.set(true);
                    E::<N>::zero()
                })
            };
            let (lo, hi) = mul_table(
                (&self.lo, &self.hi),
                (&other.lo, &other.hi),
                self.class(),
                other.class(),
                |x, y| prod(x, y, false),
                |x, y| prod(x, y, true),
                lt,
            );
            if !bad.get() {
                return Self::raw(lo, hi);
            }
        }
        self.fallback2(other, |x, y| x.mul(y))
    }

    fn sqr(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        if self.finite() {
            let c = consts::<N>().mul_c;
            let sq = |x: &E<N>, up: bool| -> Option<E<N>> {
                if x.is_zero() {
                    return Some(E::<N>::zero());
                }
                if !in_range(x) {
                    return None;
                }
                outward(x.sqr(), c, up)
            };
            let r = match self.class() {
                Class::P => (sq(&self.lo, false), sq(&self.hi, true)),
                Class::N => (sq(&self.hi, false), sq(&self.lo, true)),
                Class::M => {
                    let m = if lt(&self.lo.abs(), &self.hi.abs()) {
                        self.hi
                    } else {
                        self.lo
                    };
                    (Some(E::<N>::zero()), sq(&m, true))
                }
            };
            if let (Some(lo), Some(hi)) = r {
                return Self::raw(lo, hi);
            }
        }
        self.fallback1(|x| x.sqr())
    }

    fn div(&self, other: &Self) -> Self {
        if self.is_empty() || other.is_empty() {
            return Self::empty(&());
        }
        let pos = sgn(&other.lo) > 0;
        let neg = sgn(&other.hi) < 0;
        if !pos && !neg {
            if other.lo.is_zero() && other.hi.is_zero() {
                return Self::empty(&());
            }
            if self.lo.is_zero() && self.hi.is_zero() {
                return Self::from_f64(&(), 0.0);
            }
            return Self::entire(&());
        }
        if self.finite() && other.finite() {
            let c = consts::<N>().div_c;
            let bad = Cell::new(false);
            let q = |x: &E<N>, y: &E<N>, up: bool| -> E<N> {
                if x.is_zero() {
                    return E::<N>::zero();
                }
                if !in_range(x) || !in_range(y) {
                    bad.set(true);
                    return E::<N>::zero();
                }
                outward(x.div(y), c, up).unwrap_or_else(|| {
                    bad.set(true);
                    E::<N>::zero()
                })
            };
            let (lo, hi) = div_table(
                (&self.lo, &self.hi),
                (&other.lo, &other.hi),
                self.class(),
                pos,
                |x, y| q(x, y, false),
                |x, y| q(x, y, true),
            );
            if !bad.get() {
                return Self::raw(lo, hi);
            }
        }
        self.fallback2(other, |x, y| x.div(y))
    }

    fn sqrt(&self) -> Self {
        if self.is_empty() || sgn(&self.hi) < 0 {
            return Self::empty(&());
        }
        if self.finite() {
            let c = consts::<N>().sqrt_c;
            let s = |x: &E<N>, up: bool| -> Option<E<N>> {
                if x.is_zero() || sgn(x) < 0 {
                    return Some(E::<N>::zero());
                }
                if !in_range(x) {
                    return None;
                }
                outward(x.sqrt(), c, up)
            };
            if let (Some(lo), Some(hi)) = (s(&self.lo, false), s(&self.hi, true)) {
                // √ is increasing and ≥ 0; the downward widening may dip below 0 only for
                // results that are not trusted anyway.
                return Self::raw(lo, hi);
            }
        }
        self.fallback1(|x| x.sqrt())
    }

    fn powi(&self, n: i32) -> Self {
        if self.is_empty() {
            return *self;
        }
        if n == 0 {
            return Self::from_f64(&(), 1.0);
        }
        if n == i32::MIN {
            return self.powi(-(1 << 30)).sqr();
        }
        if n < 0 {
            return Self::from_f64(&(), 1.0).div(&self.powi(-n));
        }
        // Endpoint powers by binary exponentiation over point intervals (each step outward),
        // then monotonicity: odd powers increase; even powers increase in |x|.
        let pow_point = |x: &E<N>| -> Self {
            let mut base = Self::point(*x);
            let mut acc = Self::from_f64(&(), 1.0);
            let mut k = n as u32;
            while k > 0 {
                if k & 1 == 1 {
                    acc = acc.mul(&base);
                }
                k >>= 1;
                if k > 0 {
                    base = base.sqr();
                }
            }
            acc
        };
        if !self.finite() {
            return self.fallback1(|x| x.powi(n));
        }
        if n % 2 == 1 {
            let l = pow_point(&self.lo);
            let h = pow_point(&self.hi);
            return Self::raw(l.lo, h.hi);
        }
        match self.class() {
            Class::P => Self::raw(pow_point(&self.lo).lo, pow_point(&self.hi).hi),
            Class::N => Self::raw(pow_point(&self.hi).lo, pow_point(&self.lo).hi),
            Class::M => {
                let m = if lt(&self.lo.abs(), &self.hi.abs()) {
                    self.hi
                } else {
                    self.lo
                };
                Self::raw(E::<N>::zero(), pow_point(&m).hi)
            }
        }
    }
}
