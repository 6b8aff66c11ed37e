//! N = 2 shortcuts for the hot loops of the elementary functions, and the one-time rounding
//! of a sum of machine numbers ([`round_sum`]).
//!
//! *Bit-identical shortcuts*: [`mul`], [`sqr`], [`add`], [`sub`], [`add_term`] (and
//! [`add_dominant_term`]), [`one_minus`], [`div`] and [`sqrt`] return exactly what
//! `Expansion::mul`, `sqr`, `add`, `sub`, `add_term`, `one().sub(q)`, `div`, `sqrt` of
//! [`crate::accurate`] return, for every N and every input (bit for bit, signs of zeros
//! included); for N ≠ 2 they are those operations. At N = 2:
//! - the double-word algorithms ([`crate::dw`]) first renormalise each operand by Fast2Sum,
//!   three dependent additions on the critical path of a chain of operations. For a
//!   *normalised* operand (h, l) — h finite and non-zero with RN(h + l) = h — that Fast2Sum
//!   is the identity: s = RN(h + l) = h, z = RN(s − h) = +0 (h finite), and
//!   e = RN(l − (+0)) = l exactly (also for l = −0). Every output of the N = 2 accurate tier
//!   comes from a final Fast2Sum and is normalised, so along a chain the check (made on the
//!   inputs as they are: a predicted branch beside the dependency chain) succeeds and the
//!   Fast2Sums are skipped; when it fails, the accurate tier's own operation is called;
//! - where the added term dominates (|x₀| ≤ |t|, checked), the leading 2Sum of the addition
//!   is a Fast2Sum, exact with the same bits ([`add_dominant_term`]);
//! - division and square root run the accurate tier's N = 2 long division and square root
//!   (`fast_div`, `fast_sqrt`, `certified_round` of `accurate.rs`) operation for operation on
//!   fixed-size lists instead of slices of run-time length;
//! - the outputs repeat the accurate tier's `settle`: wherever its main path would not return
//!   the two computed terms unchanged (a zero or non-finite result, a non-finite leading-term
//!   result, a failed certificate), the accurate tier's own operation is called and its
//!   result returned.
//!
//! The tests compare every function with MPFR and the CUDA port bit for bit; the shortcuts
//! were also checked against the accurate tier's operations on 5·10⁶ result words of all
//! functions (f64 N = 1, 2, 3, f32 N = 1, 2: identical).
//!
//! *[`add_small`]* (and [`sub_small`]) is not a shortcut of the accurate tier: a cheaper sum
//! for a correction proven small against the value it is added to, with its own derived
//! bound ([`add_small_rel_bound`]).
//!
//! *[`round_sum`]* is the rounding of an exact sum that the reductions of exp, ln and the
//! trigonometric functions use; at N = 2 it is the certified renormalisation (not bit for bit
//! the exact accumulation; the same proven bound ρ: see its doc and
//! [`crate::functions::exp_log`], "Rounding a sum once").

use crate::eft::{fast_two_sum, two_prod, two_sqr, two_sum};
use crate::expansion::Expansion;
use crate::float::ulp;
use crate::float::FloatTerm;

type E<T, const N: usize> = Expansion<T, N>;

/// (h, l) is a normalised double-word with h finite and non-zero: its Fast2Sum is the identity.
#[inline(always)]
fn normalised<T: FloatTerm>(h: T, l: T) -> bool {
    h != T::ZERO && h.is_finite() && h + l == h
}

/// The two computed terms as the accurate tier's `settle` returns them on its main path
/// (finite, non-zero leading term, leading-term result `naive` finite), else `None`.
#[inline(always)]
fn settled<T: FloatTerm, const N: usize>(h: T, l: T, naive: T) -> Option<E<T, N>> {
    if naive.is_finite() && h.is_finite() && l.is_finite() && h != T::ZERO {
        let mut t = [T::ZERO; N];
        t[0] = h;
        t[1] = l;
        Some(E::from_normalized(t))
    } else {
        None
    }
}

/// `x.mul(y)`, bit for bit.
#[inline(always)]
pub(crate) fn mul<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    if N == 2 {
        let (xh, xl) = (x.terms()[0], x.terms()[1]);
        let (yh, yl) = (y.terms()[0], y.terms()[1]);
        if normalised(xh, xl) && normalised(yh, yl) {
            // DWTimesDW3 (crate::dw::mul_dw) after its identity renormalisations.
            let (ch, cl1) = two_prod(xh, yh);
            let tl0 = xl * yl;
            let tl1 = xh.mul_add(yl, tl0);
            let cl2 = xl.mul_add(yh, tl1);
            let cl3 = cl1 + cl2;
            let (h, l) = fast_two_sum(ch, cl3);
            if let Some(r) = settled(h, l, xh * yh) {
                return r;
            }
        }
    }
    x.mul(y)
}

/// `x.sqr()`, bit for bit (at N = 2 that is `x.mul(x)`; from N = 3 the square has its own
/// term list).
#[inline(always)]
pub(crate) fn sqr<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if N == 2 {
        mul(x, x)
    } else {
        x.sqr()
    }
}

/// AccurateDWPlusDW (crate::dw::add_dw) after its identity renormalisations, with the
/// accurate tier's `settle`.
#[inline(always)]
fn add_pairs<T: FloatTerm, const N: usize>(xh: T, xl: T, yh: T, yl: T) -> Option<E<T, N>> {
    let (sh, sl) = two_sum(xh, yh);
    let (th, tl) = two_sum(xl, yl);
    let c = sl + th;
    let (vh, vl) = fast_two_sum(sh, c);
    let w = tl + vl;
    let (h, l) = fast_two_sum(vh, w);
    settled(h, l, xh + yh)
}

/// `x.add(y)`, bit for bit.
#[inline(always)]
pub(crate) fn add<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    if N == 2 {
        let (xh, xl) = (x.terms()[0], x.terms()[1]);
        let (yh, yl) = (y.terms()[0], y.terms()[1]);
        if normalised(xh, xl) && normalised(yh, yl) {
            if let Some(r) = add_pairs(xh, xl, yh, yl) {
                return r;
            }
        }
    }
    x.add(y)
}

/// `x.sub(y)` (= `x.add(&y.neg())`), bit for bit.
#[inline(always)]
pub(crate) fn sub<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    add(x, &y.neg())
}

/// `x.add_term(t)`, bit for bit, for a term t that usually dominates x (Horner steps
/// q·r′ + c_k, 1 − q, 3 − 4s²): when |x₀| ≤ |t| the leading 2Sum(x₀, t) of AccurateDWPlusDW
/// is replaced by Fast2Sum(t, x₀), whose precondition then holds; both are exact and return
/// RN(x₀ + t) and the exact error (+0 when it is zero, for both), so the bits are the same.
/// The low 2Sum(x₁, +0) is (x₁ + 0, +0) exactly (also for x₁ = −0).
#[inline(always)]
pub(crate) fn add_dominant_term<T: FloatTerm, const N: usize>(x: &E<T, N>, t: T) -> E<T, N> {
    if N == 2 {
        let (xh, xl) = (x.terms()[0], x.terms()[1]);
        if normalised(xh, xl) && normalised(t, T::ZERO) && xh.abs() <= t.abs() {
            let (sh, sl) = fast_two_sum(t, xh);
            let th = xl + T::ZERO;
            let c = sl + th;
            let (vh, vl) = fast_two_sum(sh, c);
            let w = T::ZERO + vl;
            let (h, l) = fast_two_sum(vh, w);
            if let Some(r) = settled(h, l, xh + t) {
                return r;
            }
        }
    }
    x.add_term(t)
}

/// `one.sub(q)` for the expansion one = 1, bit for bit: `add` of (1, 0) and (−q₀, −q₁). When
/// |q₀| ≤ 1 the leading 2Sum(1, −q₀) is replaced by Fast2Sum(1, −q₀) (exact, same bits as
/// in [`add_dominant_term`]); the low 2Sum(+0, −q₁) is (+0 + (−q₁), +0) exactly.
#[inline(always)]
pub(crate) fn one_minus<T: FloatTerm, const N: usize>(q: &E<T, N>) -> E<T, N> {
    let one = E::<T, N>::one();
    if N == 2 {
        let (yh, yl) = (-q.terms()[0], -q.terms()[1]);
        if normalised(yh, yl) && yh.abs() <= T::ONE {
            let (sh, sl) = fast_two_sum(T::ONE, yh);
            let th = T::ZERO + yl;
            let c = sl + th;
            let (vh, vl) = fast_two_sum(sh, c);
            let w = T::ZERO + vl;
            let (h, l) = fast_two_sum(vh, w);
            if let Some(r) = settled(h, l, T::ONE + yh) {
                return r;
            }
        }
    }
    one.sub(q)
}

/// `x.add_term(t)`, bit for bit.
#[inline(always)]
pub(crate) fn add_term<T: FloatTerm, const N: usize>(x: &E<T, N>, t: T) -> E<T, N> {
    if N == 2 {
        let (xh, xl) = (x.terms()[0], x.terms()[1]);
        // (t, +0) is normalised when t is finite and non-zero.
        if normalised(xh, xl) && normalised(t, T::ZERO) {
            if let Some(r) = add_pairs(xh, xl, t, T::ZERO) {
                return r;
            }
        }
    }
    x.add_term(t)
}

/// Most terms [`round_exact_sum`] takes without falling back to the accurate tier's.
const SUM_CAP: usize = 40;

/// `crate::accurate::round_exact_sum`, bit for bit: the same GrowExpansion with zero
/// elimination (Shewchuk) on the terms from the last to the first, in a small fixed buffer,
/// then the same VecSumErrBranch rounding, Fast2Sum (N = 2) and `settle`. The terms must be
/// finite (as there).
pub(crate) fn round_exact_sum<T: FloatTerm, const N: usize>(terms: &[T]) -> E<T, N> {
    if terms.len() >= SUM_CAP {
        return crate::accurate::round_exact_sum(terms);
    }
    let mut acc = [T::ZERO; SUM_CAP];
    let mut len = 0usize;
    for &b in terms.iter().rev() {
        if b == T::ZERO {
            continue;
        }
        let mut q = b;
        let mut out = 0usize;
        for i in 0..len {
            let (s, h) = two_sum(q, acc[i]);
            if h != T::ZERO {
                acc[out] = h;
                out += 1;
            }
            q = s;
        }
        if q != T::ZERO {
            acc[out] = q;
            out += 1;
        }
        len = out;
    }
    let naive = terms.iter().fold(T::ZERO, |a, &t| a + t);
    let naive = if naive.is_finite() { naive } else { T::ONE };
    if !acc[..len].iter().all(|t| t.is_finite()) {
        return E::from_term(T::from_f64(f64::NAN));
    }
    // VecSumErrBranch from the largest term down (ExactSum::round_into).
    let mut out = [T::ZERO; N];
    if len > 0 {
        let mut j = 0usize;
        let mut eps = acc[len - 1];
        let mut full = false;
        for i in (0..len - 1).rev() {
            let (r, err) = two_sum(eps, acc[i]);
            if err != T::ZERO {
                out[j] = r;
                j += 1;
                if j >= N {
                    full = true;
                    break;
                }
                eps = err;
            } else {
                eps = r;
            }
        }
        if !full && eps != T::ZERO {
            out[j] = eps;
        }
    }
    if N == 2 {
        let (h, l) = fast_two_sum(out[0], out[1]);
        out[0] = h;
        out[1] = l;
    }
    // settle(out, naive) with naive finite.
    if !out.iter().all(|t| t.is_finite()) {
        return E::from_term(T::from_f64(f64::NAN));
    }
    if out[0] == T::ZERO {
        return E::from_term(if naive == T::ZERO { naive } else { T::ZERO });
    }
    E::from_normalized(out)
}

/// `certified_round::<T, 2>` of [`crate::accurate`] on a fixed-size list, operation for
/// operation (a copy on purpose: with the length a constant this inlined loop is measurably
/// faster, exp at N = 2 about 5 % per call, than the slice version that [`round_sum`] calls): up to three VecSum passes, each followed by VecSumErrBranch to two terms with
/// the run-time certificate (tail below ¾ ulp of the last kept term, ulp-nonoverlapping
/// output); `None` when it fails.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn certified_round2<T: FloatTerm, const L: usize>(v: &mut [T; L]) -> Option<[T; 2]> {
    'pass: for _ in 0..3 {
        crate::eft::vec_sum(v);
        let mut out = [T::ZERO; 2];
        let mut j = 0usize;
        let mut eps = v[0];
        let mut k = 1usize;
        while k < L {
            let (r, err) = two_sum(eps, v[k]);
            k += 1;
            if err != T::ZERO {
                out[j] = r;
                j += 1;
                eps = err;
                if j == 2 {
                    break;
                }
            } else {
                eps = r;
            }
        }
        if j < 2 {
            if eps != T::ZERO {
                out[j] = eps;
            }
        } else {
            let mut a = eps.abs();
            for &d in &v[k..L] {
                a = a + d.abs();
            }
            let four = T::ONE + T::ONE + T::ONE + T::ONE;
            let three = T::ONE + T::ONE + T::ONE;
            if !(a * four <= ulp(out[1]) * three) {
                continue 'pass;
            }
        }
        if !out[0].is_finite() {
            continue 'pass;
        }
        let ok = out[1] == T::ZERO || (out[0] != T::ZERO && out[1].abs() <= ulp(out[0]));
        if !ok {
            continue 'pass;
        }
        return Some(out);
    }
    None
}

/// The long division of the accurate tier at N = 2 (`fast_div::<T, 2>`), operation for
/// operation on fixed-size lists.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn fast_div2<T: FloatTerm>(x: [T; 2], y: [T; 2]) -> Option<[T; 2]> {
    let y0 = y[0];
    let mut r = x;
    let mut digits = [T::ZERO; 3];
    let mut nd = 0usize;
    for k in 0..=2 {
        if r[0] == T::ZERO {
            break;
        }
        let d = r[0] / y0;
        if !d.is_finite() {
            return None;
        }
        digits[k] = d;
        nd = k + 1;
        if k == 2 {
            break;
        }
        let (p0, e0) = two_prod(-d, y0);
        let (c, ce) = two_sum(r[0], p0);
        let (p1, e1) = two_prod(-d, y[1]);
        let mut v = [c, ce, r[1], p1, e0, e1];
        r = certified_round2(&mut v)?;
    }
    match nd {
        1 => certified_round2(&mut [digits[0]]),
        2 => certified_round2(&mut [digits[0], digits[1]]),
        _ => certified_round2(&mut digits),
    }
}

/// `x.div(y)`, bit for bit (N = 2: the accurate tier's long division on fixed-size lists;
/// any case off its main path is left to `Expansion::div`).
#[inline(always)]
pub(crate) fn div<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    if N == 2 {
        let (xt, yt) = (x.terms(), y.terms());
        let finite =
            xt[0].is_finite() && xt[1].is_finite() && yt[0].is_finite() && yt[1].is_finite();
        if finite && xt[0] != T::ZERO {
            let naive = xt[0] / yt[0];
            if naive.is_finite() {
                if let Some(out) = fast_div2([xt[0], xt[1]], [yt[0], yt[1]]) {
                    let (h, l) = fast_two_sum(out[0], out[1]);
                    if let Some(r) = settled(h, l, naive) {
                        return r;
                    }
                }
            }
        }
    }
    x.div(y)
}

/// Smallest |n₀| and |q₀| of [`div_newton`]'s main path: 2^{e_min + 3p} (f64 2^−863, f32
/// 2^−54).
fn div_newton_tiny<T: FloatTerm>() -> f64 {
    <f64 as FloatTerm>::ldexp(1.0, if T::PRECISION == 53 { -863 } else { -54 })
}

/// x + y at N = 2 for normalised double-words with |y| ≤ κ|x|, κ ≤ 2^−6 (a ratio the caller
/// has proven; used where a small correction is added to a dominant value: the fixed series
/// of atan, sin and cos, exp's core and ln's series at f64 N = 2, the table combination of
/// sin and cos there). *Not* the accurate tier's add (which makes
/// no assumption on the ratio and costs about twice the dependent operations): relative error
/// ≤ α_s(κ) = u²(3 + 4u)(1 + κ)/((1 − u)(1 − κ)) ([`add_small_rel_bound`]).
///
/// Algorithm: (s, e) = Fast2Sum(x₀, y₀), t = RN(x₁ + y₁), (h, l) = Fast2Sum(s, RN(e + t)).
/// Derivation: |y₀| ≤ |y|/(1 − u) ≤ κ(1 + u)|x₀|/(1 − u) < |x₀|, so the first Fast2Sum is exact
/// (s + e = x₀ + y₀, |e| ≤ u|s|); the last one is exact too (|s| ≥ |x₀|(1 − 2κ) far above
/// |RN(e + t)| ≈ u|s|). So h + l = x + y + (x₁ + y₁)δ₁ + (e + t)δ₂ with |δ_i| ≤ u; with
/// |x₁| + |y₁| ≤ u(|x₀| + |y₀|), |t| ≤ u(1 + u)(|x₀| + |y₀|) and |e| ≤ u|s| ≤ u(1 + u)²(|x₀| +
/// |y₀|)/(1 + u)… ≤ u(1 + u)²(|x₀| + |y₀|), the error is at most u²(3 + 3u + u²)(|x₀| + |y₀|)
/// ≤ u²(3 + 4u)(1 + κ)|x|/(1 − u), and
/// |x + y| ≥ (1 − κ)|x|. The output is normalised (a Fast2Sum's). Finite inputs only (the
/// callers' values are bounded), y = 0 returns x.
#[inline(always)]
pub(crate) fn add_small<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    debug_assert!(N == 2);
    let (s, e) = fast_two_sum(x.terms()[0], y.terms()[0]);
    let t = x.terms()[1] + y.terms()[1];
    let (h, l) = fast_two_sum(s, e + t);
    let mut v = [T::ZERO; N];
    v[0] = h;
    v[1] = l;
    E::from_normalized(v)
}

/// `x − y` by [`add_small`] (|y| ≤ κ|x|).
#[inline(always)]
pub(crate) fn sub_small<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    add_small(x, &y.neg())
}

/// α_s(κ), the relative error bound of [`add_small`] for |y| ≤ κ|x| (derivation in its doc).
pub(crate) fn add_small_rel_bound<T: FloatTerm>(kappa: f64) -> f64 {
    let u = T::UNIT_ROUNDOFF;
    assert!((0.0..=1.0 / 64.0).contains(&kappa));
    u * u * (3.0 + 4.0 * u) * (1.0 + kappa) / ((1.0 - u) * (1.0 - kappa))
}

/// The relative error bound of [`div_newton`] at N = 2, δ_nd = 13u² + 50u³ (derivation in
/// its doc); it is above the accurate division's (which its fallback calls), so it bounds
/// both.
pub(crate) fn div_newton_rel_bound<T: FloatTerm>() -> f64 {
    let u = T::UNIT_ROUNDOFF;
    13.0 * u * u + 50.0 * u * u * u
}

/// n/d at N = 2 by one correction of the leading quotient, *not* bit for bit the accurate
/// tier's long division: relative error ≤ δ_nd = 13u² + 50u³ ([`div_newton_rel_bound`]);
/// N ≠ 2, and inputs off the main path, go to [`div`] (error ≤ δ_div ≤ δ_nd in the accurate
/// tier's range: operands and quotient at least [`crate::bounds::min_normal_result`]).
///
/// Main path (n = n₀ + n₁, d = d₀ + d₁ normalised, so |n₁| ≤ u|n₀|, |d₁| ≤ u|d₀|; run-time
/// checks: |n₀| ≥ 2^{e_min+3p}, q₀ finite with |q₀| ≥ 2^{e_min+3p}, every result finite):
/// q₀ = RN(n₀/d₀), (P, E) = 2ProdFMA(q₀, d₀), A = n₀ − P, s₁ = RN(A − E),
/// g = RN(q₀·d₁), s₂ = RN(n₁ − g), r = RN(s₁ + s₂), q₁ = RN(r/d₀), Fast2Sum(q₀, q₁).
/// With U = |n₀|, Q = n/d and R = n − q₀·d = (A − E) + n₁ − q₀d₁ exactly:
/// 1. q₀ = (n₀/d₀)(1 + δ₁), |δ₁| ≤ u; q₀d₀ ≥ 2^{e_min+3p}(1 − u) makes the product's error
///    term representable, so P + E = q₀d₀ exactly, and P = n₀(1 + δ₁)(1 + δ₂) ∈ [½n₀, 2n₀]:
///    A = n₀ − P is exact (Sterbenz) and A − E = −n₀δ₁, |A − E| ≤ uU.
/// 2. Sums and differences of machine numbers are exact when the result is subnormal, so
///    each RN of a sum errs by at most u times its argument: s₁ by ≤ u²U; |q₀d₁| ≤ u(1 + u)U,
///    g by ≤ u²(1 + u)U + 2^{e_min−p} (a product may be subnormal; 2^{e_min−p} ≤ u⁴U);
///    |n₁ − g| ≤ uU(2 + 2u + u²), s₂ by ≤ u²U(2 + 2u + u²); |s₁ + s₂| ≤
///    uU(1 + u)(3 + 2u + u²), r by ≤ u²U(1 + u)(3 + 2u + u²). So |r − R| ≤ u²U(7 + 9u) + u⁴U
///    and, with |R| ≤ uU(3 + u), |r| ≤ uU(3 + 9u).
/// 3. q₁ = (r/d₀)(1 + δ₃) + η₃, |δ₃| ≤ u, |η₃| ≤ 2^{e_min−p} ≤ u⁴(1 + u)|Q|; d = d₀(1 + η),
///    |η| ≤ u; Q = q₀ + R/d, so q₀ + q₁ − Q = [(r − R) + r((1 + δ₃)(1 + η) − 1)]/d + η₃,
///    |…| ≤ [u²U(7 + 9u) + u⁴U + uU(3 + 9u)(2u + u²)]/|d| + |η₃| ≤ u²(13 + 31u)U/|d| + 2u⁴|Q|,
///    and U ≤ |n|/(1 − u), so the relative error is ≤ u²(13 + 31u)/(1 − u) + 3u⁴ ≤ 13u² + 50u³
///    (u ≤ 2^−24).
/// 4. |q₁| ≤ (3 + 9u)u(1 + u)U/|d₀| ≤ |q₀|, so Fast2Sum(q₀, q₁) is exact and normalised.
#[inline(always)]
pub(crate) fn div_newton<T: FloatTerm, const N: usize>(n: &E<T, N>, d: &E<T, N>) -> E<T, N> {
    if N == 2 {
        let (n0, n1) = (n.terms()[0], n.terms()[1]);
        let (d0, d1) = (d.terms()[0], d.terms()[1]);
        let tiny = div_newton_tiny::<T>();
        if normalised(n0, n1) && normalised(d0, d1) && n0.abs().to_f64() >= tiny {
            let q0 = n0 / d0;
            if q0.is_finite() && q0.abs().to_f64() >= tiny {
                let (p, e) = two_prod(q0, d0);
                let s1 = (n0 - p) - e;
                let s2 = n1 - q0 * d1;
                let q1 = (s1 + s2) / d0;
                let (h, l) = fast_two_sum(q0, q1);
                if h.is_finite() && l.is_finite() {
                    let mut t = [T::ZERO; N];
                    t[0] = h;
                    t[1] = l;
                    return E::from_normalized(t);
                }
            }
        }
    }
    div(n, d)
}

/// The square root of the accurate tier at N = 2 (`fast_sqrt::<T, 2>`), operation for
/// operation on fixed-size lists; t = RN(√x₀).
#[inline(always)]
fn fast_sqrt2<T: FloatTerm>(x: [T; 2], t: T) -> Option<[T; 2]> {
    let two_t = t + t;
    let mut digits = [t, T::ZERO, T::ZERO];
    let mut count = 1usize;
    let (p, e) = two_sqr(t);
    let (c, ce) = two_sum(x[0], -p);
    let mut r = certified_round2(&mut [c, ce, -e, x[1]])?;
    for step in 0..2 {
        if r[0] == T::ZERO {
            break;
        }
        let d = r[0] / two_t;
        if !d.is_finite() {
            return None;
        }
        digits[count] = d;
        count += 1;
        if step + 1 == 2 {
            break;
        }
        // count = 2 here: the generic level loop stores [c, ce, e0, r₁, 0, −p, −e].
        let two_d = d + d;
        let (p0, e0) = two_prod(-t, two_d);
        let (c, ce) = two_sum(r[0], p0);
        let (p, e) = two_sqr(d);
        r = certified_round2(&mut [c, ce, e0, r[1], T::ZERO, -p, -e])?;
    }
    match count {
        1 => certified_round2(&mut [digits[0]]),
        2 => certified_round2(&mut [digits[0], digits[1]]),
        _ => certified_round2(&mut digits),
    }
}

/// `x.sqrt()`, bit for bit (N = 2: the accurate tier's square root on fixed-size lists; any
/// case off its main path is left to `Expansion::sqrt`).
#[inline(always)]
pub(crate) fn sqrt<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if N == 2 {
        let xt = x.terms();
        let x0 = xt[0];
        if x0.is_finite() && xt[1].is_finite() && x0 > T::ZERO {
            let t = x0.sqrt();
            if let Some(out) = fast_sqrt2([x0, xt[1]], t) {
                let (h, l) = fast_two_sum(out[0], out[1]);
                if let Some(r) = settled(h, l, t) {
                    return r;
                }
            }
        }
    }
    x.sqrt()
}

/// Longest list [`round_sum`] rounds by the certified path at N = 2 (functions.cu mirrors it;
/// the lists at N = 2 have at most 11 terms).
const ROUND_SUM_CAP: usize = 16;

/// [`round_sum`] of a list of fixed length L (the same operations, bit for bit, without
/// copying a run-time-length slice).
#[inline(always)]
pub(crate) fn round_sum_list<T: FloatTerm, const N: usize, const L: usize>(
    terms: [T; L],
) -> E<T, N> {
    if N == 2 && L <= ROUND_SUM_CAP {
        let naive = terms.iter().fold(T::ZERO, |a, &t| a + t);
        if naive.is_finite() {
            let mut v = terms;
            if let Some(out) = certified_round2(&mut v) {
                let (h, l) = fast_two_sum(out[0], out[1]);
                if h == T::ZERO {
                    return E::from_term(if naive == T::ZERO { naive } else { T::ZERO });
                }
                let mut t = [T::ZERO; N];
                t[0] = h;
                t[1] = l;
                return E::from_normalized(t);
            }
        }
    }
    round_exact_sum(&terms)
}

/// The sum of finite machine numbers rounded to N terms within ρ_N
/// ([`crate::bounds::round_rel_bound`]) of the exact sum S. N = 2: the certified
/// renormalisation of the accurate tier (VecSum passes and VecSumErrBranch with the run-time
/// certificate: output ulp-nonoverlapping, dropped tail below ¾ ulp of the last kept term —
/// the facts the bound rests on, [`crate::bounds`], "Rounding an exact sum"), then Fast2Sum
/// (exact) to a normalised double-word; when the certificate fails, and for N ≠ 2, the exact
/// accumulation [`round_exact_sum`] (the same facts by proof).
pub(crate) fn round_sum<T: FloatTerm, const N: usize>(terms: &[T]) -> E<T, N> {
    if N == 2 && terms.len() <= ROUND_SUM_CAP {
        let mut v = [T::ZERO; ROUND_SUM_CAP];
        v[..terms.len()].copy_from_slice(terms);
        let naive = terms.iter().fold(T::ZERO, |a, &t| a + t);
        if naive.is_finite() {
            if let Some(out) = crate::accurate::certified_round::<T, 2>(&mut v[..terms.len()]) {
                let (h, l) = fast_two_sum(out[0], out[1]);
                let mut t = [T::ZERO; N];
                t[0] = h;
                t[1] = l;
                if h == T::ZERO {
                    // S = 0 exactly (everything consumed): as the exact path's `settle`.
                    return E::from_term(if naive == T::ZERO { naive } else { T::ZERO });
                }
                return E::from_normalized(t);
            }
        }
    }
    round_exact_sum(terms)
}
