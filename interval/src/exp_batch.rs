//! Batched [`ExpInterval`] operations over slices (issue 18): `add_slices`, `sub_slices`,
//! `mul_slices`, `sqr_slices`, with results **identical** to the scalar operations of
//! [`IntervalArith`] interval by interval (same endpoint values, same widening).
//!
//! Why: one interval operation costs 2 (add) or 2–4 (mul) accurate endpoint operations plus
//! the outward widening; one at a time these are bound by latency and by the branches of the
//! core's certified rounding. Here the endpoint operations of many intervals are gathered into
//! buffers and computed by one batched call per chunk: for N ≥ 3 the core's SIMD-lane accurate
//! tier ([`expanse_core::accurate_batch`], bit for bit the scalar `Expansion` operations), for
//! N = 2 a straight-line double-word loop here (the operations of `expanse_core::dw` plus the
//! scalar `settle`, which the compiler vectorises), for N = 1 the core's batch entry (scalar).
//! Then each endpoint is widened as the scalar `outward` does: the same checks and fast step
//! per endpoint, and its slow step (the accurate `add_term` of ∓w, which the benchmark's
//! endpoints with spread-out terms take often) batched too (`add_term_batch`).
//!
//! Identity with the scalar code, case by case: an interval whose operation could leave the
//! scalar code's main path (an empty or non-finite operand, an operand endpoint out of the
//! trusted range, an endpoint result that is zero, non-finite or out of range — i.e. every
//! `None` of `outward`, the `bad` flag of the product) is recomputed by the scalar operation
//! itself. Every other interval takes exactly the scalar main path: the batched endpoint
//! values equal the scalar ones bit for bit, the widening is the same function, and the
//! product's sign-class table (`mul_table`) and the square's case split are transcribed
//! with the same endpoint pairs and the same exact comparisons. Checked against the scalar
//! operations in `tests/it/exp_batch.rs`.

use super::{consts, in_range, lt, operand_ok, sgn, widen_last_term, ExpInterval, E};
use crate::endpoint::{classify, Class};
use crate::IntervalArith;
use expanse_core::accurate_batch::{add_batch, add_term_batch, mul_batch, sqr_batch};
use expanse_core::dw;
use expanse_core::runtime::{terms_of, terms_of_mut};

/// Intervals per chunk: the endpoint buffers live on the stack (4 products per interval at
/// most, N ≤ 8 terms: 4·64·3 expansions of 64 bytes, 48 KiB).
const CHUNK: usize = 64;

/// N = 2 endpoint sums: the core's `dw::add_dw` (AccurateDWPlusDW with input renormalisation,
/// the scalar `Expansion::add` at N = 2) over flat term slices (inlined, so the loop
/// vectorises). Only the main-path result is produced; the caller checks finite and non-zero
/// (where the scalar `settle` would change the terms, the interval is recomputed by the
/// scalar operation).
#[inline(always)]
fn dw_add(a: &[f64], b: &[f64], r: &mut [f64]) {
    for ((x, y), o) in a
        .chunks_exact(2)
        .zip(b.chunks_exact(2))
        .zip(r.chunks_exact_mut(2))
    {
        let (h, l) = dw::add_dw((x[0], x[1]), (y[0], y[1]));
        o[0] = h;
        o[1] = l;
    }
}

/// N = 2 endpoint products: the core's `dw::mul_dw` (DWTimesDW3 with input renormalisation),
/// as [`dw_add`].
#[inline(always)]
fn dw_mul(a: &[f64], b: &[f64], r: &mut [f64]) {
    for ((x, y), o) in a
        .chunks_exact(2)
        .zip(b.chunks_exact(2))
        .zip(r.chunks_exact_mut(2))
    {
        let (h, l) = dw::mul_dw((x[0], x[1]), (y[0], y[1]));
        o[0] = h;
        o[1] = l;
    }
}

/// `r[k] = a[k].add(&b[k])` where the result is finite and non-zero; elsewhere (N = 2 only)
/// a value whose leading term is zero or non-finite, which `outward` rejects.
#[inline(always)]
fn add_endpoints<const N: usize>(a: &[E<N>], b: &[E<N>], r: &mut [E<N>]) {
    if N == 2 {
        dw_add(terms_of(a), terms_of(b), terms_of_mut(r));
        dw_settle(r);
    } else {
        add_batch(a, b, r);
    }
}

/// `r[k] = a[k].mul(&b[k])`, as [`add_endpoints`].
#[inline(always)]
fn mul_endpoints<const N: usize>(a: &[E<N>], b: &[E<N>], r: &mut [E<N>]) {
    if N == 2 {
        dw_mul(terms_of(a), terms_of(b), terms_of_mut(r));
        dw_settle(r);
    } else {
        mul_batch(a, b, r);
    }
}

/// Marks the N = 2 results where the scalar `settle` would differ from the raw double-word
/// (a non-finite term, or a zero leading term): their leading term is made NaN, so `outward`
/// returns None and the interval is recomputed by the scalar operation.
#[inline(always)]
fn dw_settle<const N: usize>(r: &mut [E<N>]) {
    for t in terms_of_mut(r).chunks_exact_mut(2) {
        if !(t[0].is_finite() && t[1].is_finite()) || t[0] == 0.0 {
            t[0] = f64::NAN;
        }
    }
}

/// `outward(r[i], c, up[i])` of every endpoint, in place, with `ok[i]` false where it gives
/// None: the same checks and the same fast step (`widen_last_term`) per endpoint, and the
/// slow step (the accurate `add_term` of ∓w, taken when the fast step would break the
/// expansion invariant, e.g. for endpoints whose terms are spread out) batched as well
/// (`add_term_batch`, bit for bit the scalar `add_term`).
#[inline(always)]
fn outward_all<const N: usize>(r: &mut [E<N>], up: &[bool], c: f64, ok: &mut [bool]) {
    let mut at = [0usize; 4 * CHUNK];
    let mut pt = [0.0f64; 4 * CHUNK];
    let mut p = 0;
    for (i, x) in r.iter_mut().enumerate() {
        let r0 = x.hi();
        if r0 == 0.0 || !x.is_finite() || !in_range(x) {
            ok[i] = false;
            continue;
        }
        ok[i] = true;
        let w = r0.abs() * c;
        // In place; on failure r[i] stays the unwidened value until the batched slow step
        // below.
        if !widen_last_term(x, w, up[i]) {
            at[p] = i;
            pt[p] = if up[i] { w } else { -w };
            p += 1;
        }
    }
    if p > 0 {
        // The buffers only when needed (zeroing them costs more than a chunk's fast steps).
        let mut px = buf::<N, { 4 * CHUNK }>();
        for (q, &i) in at[..p].iter().enumerate() {
            px[q] = r[i];
        }
        let mut o = buf::<N, { 4 * CHUNK }>();
        add_term_batch(&px[..p], &pt[..p], &mut o[..p]);
        for (&i, v) in at[..p].iter().zip(&o[..p]) {
            r[i] = *v;
        }
    }
}

/// Zero-initialised endpoint buffer of `M` expansions.
#[inline(always)]
fn buf<const N: usize, const M: usize>() -> [E<N>; M] {
    [E::<N>::zero(); M]
}

/// One endpoint of a product: an exact zero (a zero factor) or batch operation `i`.
#[derive(Clone, Copy)]
enum Slot {
    Zero,
    Op(usize),
}

impl Slot {
    /// The endpoint: `zero`, or batch result `i` where its outward rounding succeeded
    /// (`ok[i]`). A reference, not a copy: the caller copies it once, into the output
    /// interval. (Copies through temporaries built piece by piece and read back at once with
    /// wider loads stalled on store forwarding: about a quarter of `mul_slices` at N = 3.)
    #[inline(always)]
    fn value<'a, const N: usize>(
        self,
        r: &'a [E<N>],
        ok: &[bool],
        zero: &'a E<N>,
    ) -> Option<&'a E<N>> {
        match self {
            Slot::Zero => Some(zero),
            Slot::Op(i) => ok[i].then_some(&r[i]),
        }
    }
}

/// The endpoint products r = a·b of a batch, each rounded outward in the direction `up`;
/// `ok[i]` false where that failed (the caller takes the scalar interval operation).
#[inline(always)]
fn products_outward<const N: usize>(
    a: &[E<N>],
    b: &[E<N>],
    r: &mut [E<N>],
    up: &[bool],
    ok: &mut [bool],
) {
    mul_endpoints(a, b, r);
    outward_all(r, up, consts::<N>().mul_c, ok);
}

/// [`products_outward`] of the squares a[i]² (`Expansion::sqr`: for N ≥ 3 its own term list,
/// so not `a[i]·a[i]` bit for bit; same bound).
fn squares_outward<const N: usize>(a: &[E<N>], r: &mut [E<N>], up: &[bool], ok: &mut [bool]) {
    if N == 2 {
        mul_endpoints(a, a, r);
    } else {
        sqr_batch(a, r);
    }
    outward_all(r, up, consts::<N>().mul_c, ok);
}

impl<const N: usize> ExpInterval<N> {
    /// `out[k] = xs[k] + ys[k]` for every k, identical to [`IntervalArith::add`] (see the
    /// module doc), with the endpoint sums computed in batches.
    ///
    /// Panics when the slices differ in length.
    pub fn add_slices(xs: &[Self], ys: &[Self], out: &mut [Self]) {
        assert!(
            xs.len() == ys.len() && xs.len() == out.len(),
            "add_slices: xs, ys and out differ in length"
        );
        for ((x, y), o) in xs
            .chunks(CHUNK)
            .zip(ys.chunks(CHUNK))
            .zip(out.chunks_mut(CHUNK))
        {
            Self::add_chunk(x, y, o);
        }
    }

    /// `out[k] = xs[k] − ys[k]` for every k, identical to [`IntervalArith::sub`] (which is
    /// `x + (−y)`).
    ///
    /// Panics when the slices differ in length.
    pub fn sub_slices(xs: &[Self], ys: &[Self], out: &mut [Self]) {
        assert!(
            xs.len() == ys.len() && xs.len() == out.len(),
            "sub_slices: xs, ys and out differ in length"
        );
        let mut neg = [Self::raw(E::<N>::zero(), E::<N>::zero()); CHUNK];
        for ((x, y), o) in xs
            .chunks(CHUNK)
            .zip(ys.chunks(CHUNK))
            .zip(out.chunks_mut(CHUNK))
        {
            for (n, y) in neg.iter_mut().zip(y) {
                *n = IntervalArith::neg(y);
            }
            Self::add_chunk(x, &neg[..y.len()], o);
        }
    }

    /// `out[k] = xs[k] · ys[k]` for every k, identical to [`IntervalArith::mul`] (see the
    /// module doc), with the endpoint products computed in batches.
    ///
    /// Panics when the slices differ in length.
    pub fn mul_slices(xs: &[Self], ys: &[Self], out: &mut [Self]) {
        assert!(
            xs.len() == ys.len() && xs.len() == out.len(),
            "mul_slices: xs, ys and out differ in length"
        );
        for ((x, y), o) in xs
            .chunks(CHUNK)
            .zip(ys.chunks(CHUNK))
            .zip(out.chunks_mut(CHUNK))
        {
            Self::mul_chunk(x, y, o);
        }
    }

    /// `out[k] = xs[k]²` for every k, identical to [`IntervalArith::sqr`], with the endpoint
    /// squares computed in batches.
    ///
    /// Panics when the slices differ in length.
    pub fn sqr_slices(xs: &[Self], out: &mut [Self]) {
        assert_eq!(
            xs.len(),
            out.len(),
            "sqr_slices: xs and out differ in length"
        );
        for (x, o) in xs.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            Self::sqr_chunk(x, o);
        }
    }

    fn add_chunk(xs: &[Self], ys: &[Self], out: &mut [Self]) {
        let mut a = buf::<N, { 2 * CHUNK }>();
        let mut b = buf::<N, { 2 * CHUNK }>();
        let mut r = buf::<N, { 2 * CHUNK }>();
        let mut idx = [0usize; CHUNK];
        let mut m = 0;
        for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
            // The scalar main path's condition (non-empty: lo ≠ +∞ and no NaN follow from
            // finite).
            let main = x.finite()
                && y.finite()
                && !x.is_empty()
                && !y.is_empty()
                && operand_ok(&x.lo)
                && operand_ok(&x.hi)
                && operand_ok(&y.lo)
                && operand_ok(&y.hi);
            if main {
                a[2 * m] = x.lo;
                b[2 * m] = y.lo;
                a[2 * m + 1] = x.hi;
                b[2 * m + 1] = y.hi;
                idx[m] = k;
                m += 1;
            } else {
                out[k] = IntervalArith::add(x, y);
            }
        }
        add_endpoints(&a[..2 * m], &b[..2 * m], &mut r[..2 * m]);
        let mut up = [false; 2 * CHUNK];
        for u in up.iter_mut().skip(1).step_by(2) {
            *u = true;
        }
        let mut ok = [false; 2 * CHUNK];
        outward_all(
            &mut r[..2 * m],
            &up[..2 * m],
            consts::<N>().add_c,
            &mut ok[..2 * m],
        );
        for (j, &k) in idx[..m].iter().enumerate() {
            if ok[2 * j] && ok[2 * j + 1] {
                // Field by field, straight from the buffer (see `Slot::value`).
                out[k].lo = r[2 * j];
                out[k].hi = r[2 * j + 1];
            } else {
                // A zero or untrusted endpoint sum: the scalar operation (exact zero check or
                // fallback).
                out[k] = IntervalArith::add(&xs[k], &ys[k]);
            }
        }
    }

    fn mul_chunk(xs: &[Self], ys: &[Self], out: &mut [Self]) {
        let mut a = buf::<N, { 4 * CHUNK }>();
        let mut b = buf::<N, { 4 * CHUNK }>();
        let mut r = buf::<N, { 4 * CHUNK }>();
        // Per interval: its index, its endpoint slots (lo, hi; for M×M the table's l1, l2,
        // h1, h2) and whether it is M×M.
        let mut idx = [0usize; CHUNK];
        let mut slots = [[Slot::Zero; 4]; CHUNK];
        let mut mm = [false; CHUNK];
        let mut ups = [false; 4 * CHUNK];
        let mut m = 0;
        let mut ops = 0;
        for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
            if x.is_empty() || y.is_empty() || !x.finite() || !y.finite() {
                out[k] = IntervalArith::mul(x, y);
                continue;
            }
            let xe = [&x.lo, &x.hi];
            let ye = [&y.lo, &y.hi];
            // The endpoint pairs of `mul_table` (x index, y index): a = 0, b = 1; c = 0, d = 1.
            let (pairs, n): ([(usize, usize); 4], usize) = match (x.class(), y.class()) {
                (Class::P, Class::P) => ([(0, 0), (1, 1), (0, 0), (0, 0)], 2),
                (Class::P, Class::M) => ([(1, 0), (1, 1), (0, 0), (0, 0)], 2),
                (Class::P, Class::N) => ([(1, 0), (0, 1), (0, 0), (0, 0)], 2),
                (Class::M, Class::P) => ([(0, 1), (1, 1), (0, 0), (0, 0)], 2),
                (Class::M, Class::M) => ([(0, 1), (1, 0), (0, 0), (1, 1)], 4),
                (Class::M, Class::N) => ([(1, 0), (0, 0), (0, 0), (0, 0)], 2),
                (Class::N, Class::P) => ([(0, 1), (1, 0), (0, 0), (0, 0)], 2),
                (Class::N, Class::M) => ([(0, 1), (0, 0), (0, 0), (0, 0)], 2),
                (Class::N, Class::N) => ([(1, 1), (0, 0), (0, 0), (0, 0)], 2),
            };
            // Written in place (see `Slot::value`); kept only when the interval is.
            let s = &mut slots[m];
            *s = [Slot::Zero; 4];
            let mut bad = false;
            let start = ops;
            for (q, (slot, &(i, j))) in s.iter_mut().zip(&pairs[..n]).enumerate() {
                let (u, v) = (xe[i], ye[j]);
                if u.is_zero() || v.is_zero() {
                    *slot = Slot::Zero;
                } else if !in_range(u) || !in_range(v) {
                    bad = true;
                    break;
                } else {
                    a[ops] = *u;
                    b[ops] = *v;
                    // lo then hi; for M×M two of each.
                    ups[ops] = q >= n / 2;
                    *slot = Slot::Op(ops);
                    ops += 1;
                }
            }
            if bad {
                ops = start;
                out[k] = IntervalArith::mul(x, y);
                continue;
            }
            idx[m] = k;
            mm[m] = n == 4;
            m += 1;
        }
        let mut ok = [false; 4 * CHUNK];
        products_outward(
            &a[..ops],
            &b[..ops],
            &mut r[..ops],
            &ups[..ops],
            &mut ok[..ops],
        );
        let zero = E::<N>::zero();
        let end = |s: Slot| s.value(&r, &ok, &zero);
        for j in 0..m {
            let k = idx[j];
            let s = slots[j];
            let res = if mm[j] {
                match (end(s[0]), end(s[1]), end(s[2]), end(s[3])) {
                    (Some(l1), Some(l2), Some(h1), Some(h2)) => {
                        let lo = if lt(l2, l1) { l2 } else { l1 };
                        let hi = if lt(h1, h2) { h2 } else { h1 };
                        Some((lo, hi))
                    }
                    _ => None,
                }
            } else {
                match (end(s[0]), end(s[1])) {
                    (Some(lo), Some(hi)) => Some((lo, hi)),
                    _ => None,
                }
            };
            match res {
                Some((lo, hi)) => {
                    out[k].lo = *lo;
                    out[k].hi = *hi;
                }
                // `bad` in the scalar product: its fallback.
                None => out[k] = IntervalArith::mul(&xs[k], &ys[k]),
            }
        }
    }

    fn sqr_chunk(xs: &[Self], out: &mut [Self]) {
        let mut a = buf::<N, { 2 * CHUNK }>();
        let mut r = buf::<N, { 2 * CHUNK }>();
        let mut idx = [0usize; CHUNK];
        let mut slots = [[Slot::Zero; 2]; CHUNK];
        let mut ups = [false; 2 * CHUNK];
        let mut m = 0;
        let mut ops = 0;
        for (k, x) in xs.iter().enumerate() {
            if x.is_empty() || !x.finite() {
                out[k] = IntervalArith::sqr(x);
                continue;
            }
            // The endpoints squared for lo and hi (None: the exact zero of the M case).
            let (l, h) = match classify(sgn(&x.lo), sgn(&x.hi)) {
                Class::P => (Some(&x.lo), &x.hi),
                Class::N => (Some(&x.hi), &x.lo),
                Class::M => {
                    let big = if lt(&x.lo.abs(), &x.hi.abs()) {
                        &x.hi
                    } else {
                        &x.lo
                    };
                    (None, big)
                }
            };
            // Written in place (see `Slot::value`); kept only when the interval is.
            let s = &mut slots[m];
            *s = [Slot::Zero; 2];
            let mut bad = false;
            let start = ops;
            for (q, (slot, e)) in s.iter_mut().zip([l, Some(h)]).enumerate() {
                match e {
                    None => *slot = Slot::Zero,
                    Some(e) if e.is_zero() => *slot = Slot::Zero,
                    Some(e) if !in_range(e) => {
                        bad = true;
                        break;
                    }
                    Some(e) => {
                        a[ops] = *e;
                        ups[ops] = q == 1;
                        *slot = Slot::Op(ops);
                        ops += 1;
                    }
                }
            }
            if bad {
                ops = start;
                out[k] = IntervalArith::sqr(x);
                continue;
            }
            idx[m] = k;
            m += 1;
        }
        let mut ok = [false; 2 * CHUNK];
        squares_outward(&a[..ops], &mut r[..ops], &ups[..ops], &mut ok[..ops]);
        let zero = E::<N>::zero();
        let end = |s: Slot| s.value(&r, &ok, &zero);
        for j in 0..m {
            let k = idx[j];
            match (end(slots[j][0]), end(slots[j][1])) {
                (Some(lo), Some(hi)) => {
                    out[k].lo = *lo;
                    out[k].hi = *hi;
                }
                _ => out[k] = IntervalArith::sqr(&xs[k]),
            }
        }
    }
}
