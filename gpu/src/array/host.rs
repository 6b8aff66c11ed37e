//! The host backend of the array layer: every primitive and BLAS routine on all cores (rayon),
//! in exactly the association order of the device kernels (`cuda/arrays.cu`, `cuda/blas.cu`;
//! the orders are written out in the module doc of [`crate::array`]), so the two backends give
//! bit-identical results.
//!
//! Entry points are non-generic (term type and N are run-time values, dispatched once here by
//! [`dispatch!`]), so the N × term-type matrix of the generic code below is compiled once, in
//! this crate, and not again by every caller.

use super::bound::Consts;
use super::{
    exp_of_sc, exp_of_terms, sc_of, ArrayTerm, BinOp, Cmp, Raw, RedOp, RedOut, Sc, Store, TermKind,
    TermOp, UnOp, GEMV_CHUNK, RED_THREADS, RED_TILE, SCAN_ITEMS, SCAN_THREADS, SCAN_TILE,
};
use expanse_core::functions::{eval_unary, Unary};
use expanse_core::{Expansion, FloatTerm};
// Every parallel loop of this backend goes through this one non-generic function (and
// [`sort_perm`]): rayon's generic pipelines, instantiated for every closure and (T, N), were
// most of this crate's build time.
use crate::par::for_each_index as par_for;
use rayon::prelude::*;
use std::cmp::Ordering;

/// Runs `$body` with `const $N: usize` bound to the run-time `$n` (1..=8).
macro_rules! with_n {
    ($n:expr, $N:ident => $body:expr) => {
        match $n {
            1 => {
                const $N: usize = 1;
                $body
            }
            2 => {
                const $N: usize = 2;
                $body
            }
            3 => {
                const $N: usize = 3;
                $body
            }
            4 => {
                const $N: usize = 4;
                $body
            }
            5 => {
                const $N: usize = 5;
                $body
            }
            6 => {
                const $N: usize = 6;
                $body
            }
            7 => {
                const $N: usize = 7;
                $body
            }
            8 => {
                const $N: usize = 8;
                $body
            }
            other => panic!("expansions have 1..=8 terms, not {other}"),
        }
    };
}

/// Runs `$body` with `$T` the term type of `$kind` and `const $N` = `$n`.
macro_rules! dispatch {
    ($kind:expr, $n:expr, $T:ident, $N:ident => $body:expr) => {
        match $kind {
            TermKind::F64 => {
                type $T = f64;
                with_n!($n, $N => $body)
            }
            TermKind::F32 => {
                type $T = f32;
                with_n!($n, $N => $body)
            }
        }
    };
}

// ---- helpers --------------------------------------------------------------------------------

fn host<T: ArrayTerm>(r: &Raw) -> &[T] {
    match &r.store {
        Store::Host(h) => T::host_slice(h),
        Store::Dev(_) => unreachable!("device array given to the host backend"),
    }
}

fn raw_of<T: ArrayTerm>(n: usize, len: usize, terms: Vec<T>) -> Raw {
    Raw {
        kind: T::KIND,
        n,
        len,
        store: Store::Host(T::into_host(terms)),
    }
}

/// Element i of an interleaved array of `len` elements.
#[inline(always)]
pub(crate) fn at<T: FloatTerm, const N: usize>(d: &[T], len: usize, i: usize) -> Expansion<T, N> {
    let mut t = [T::ZERO; N];
    for (k, v) in t.iter_mut().enumerate() {
        *v = d[k * len + i];
    }
    exp_of_terms(&t)
}

/// The accurate operations used below, each compiled once per (T, N) and called (the
/// methods are `#[inline]`; inlined at every call site they made this crate's build several
/// times longer).
#[inline(never)]
pub(crate) fn add_e<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Expansion<T, N> {
    a.add(b)
}

/// See [`add_e`].
#[inline(never)]
pub(crate) fn mul_e<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Expansion<T, N> {
    a.mul(b)
}

/// See [`add_e`]. The square (its own term list at N ≥ 3, as `arr_sqr` and the
/// sum of squares on the GPU: `acc_sqr_reg`).
#[inline(never)]
pub(crate) fn sqr_e<T: FloatTerm, const N: usize>(a: &Expansion<T, N>) -> Expansion<T, N> {
    a.sqr()
}

/// See [`add_e`]. `sub`, `add_term`, `div_term` and `recip` are these operations on a negated
/// operand, `from_term` and `one()` (their definitions in expanse-core), so they call these.
#[inline(never)]
pub(crate) fn div_e<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Expansion<T, N> {
    a.div(b)
}

/// See [`add_e`] (`Expansion::cmp_value`).
#[inline(never)]
pub(crate) fn cmp_e<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Option<Ordering> {
    a.cmp_value(b)
}

/// |x₀| as f64.
#[inline(always)]
pub(crate) fn lead<T: FloatTerm, const N: usize>(e: &Expansion<T, N>) -> f64 {
    e.hi().to_f64().abs()
}

/// Writes element i of an interleaved output from several threads (distinct i only).
struct OutTerms<T> {
    ptr: *mut T,
    len: usize,
}
// SAFETY: the writers touch disjoint elements (each index once), and the vector outlives them.
unsafe impl<T: Send> Sync for OutTerms<T> {}
unsafe impl<T: Send> Send for OutTerms<T> {}

impl<T: Copy> OutTerms<T> {
    /// # Safety
    /// `i < len` (one value per element), and no other thread writes element `i`.
    #[inline(always)]
    unsafe fn put(&self, i: usize, v: T) {
        // SAFETY: i < len, the vector's length.
        unsafe { *self.ptr.add(i) = v };
    }
}

impl<T: FloatTerm> OutTerms<T> {
    /// # Safety
    /// `i < len`, and no other thread writes element `i`.
    #[inline(always)]
    unsafe fn set<const N: usize>(&self, i: usize, e: &Expansion<T, N>) {
        for k in 0..N {
            // SAFETY: k·len + i < N·len, the vector's length.
            unsafe { *self.ptr.add(k * self.len + i) = e.terms()[k] };
        }
    }
}

/// `(0..len).map(f).collect()` on all cores (through [`par_for`]).
fn par_map<V: Send + Sync>(len: usize, grain: usize, f: impl Fn(usize) -> V + Sync) -> Vec<V> {
    let mut out: Vec<Option<V>> = (0..len).map(|_| None).collect();
    let w = Slots(out.as_mut_ptr());
    // SAFETY: index i is written by this call only; `out` outlives the loop.
    par_for(len, grain, &|i| unsafe { w.write(i, Some(f(i))) });
    out.into_iter()
        .map(|v| v.expect("every slot written"))
        .collect()
}

/// Raw slots written from several threads (distinct indices).
struct Slots<V>(*mut V);
// SAFETY: writers touch distinct indices of a live vector.
unsafe impl<V: Send> Sync for Slots<V> {}

impl<V> Slots<V> {
    /// # Safety
    /// `i` is in bounds and written by one thread only.
    unsafe fn write(&self, i: usize, v: V) {
        // SAFETY: as documented; the old value (None) is dropped.
        unsafe { *self.0.add(i) = v };
    }
}

/// The stable sort of 0..len by `cmp`, on all cores (one non-generic rayon sort).
fn sort_perm(len: usize, cmp: &(dyn Fn(u64, u64) -> Ordering + Sync)) -> Vec<u64> {
    let mut perm: Vec<u64> = (0..len as u64).collect();
    perm.par_sort_by(|&i, &j| cmp(i, j));
    perm
}

/// An interleaved array of `len` elements, element i = f(i), computed on all cores.
fn fill<T: FloatTerm, const N: usize>(
    len: usize,
    f: impl Fn(usize) -> Expansion<T, N> + Sync + Send,
) -> Vec<T> {
    let mut out = vec![T::ZERO; len * N];
    fill_into(len, &mut out, f);
    out
}

/// [`fill`] into an existing interleaved array of `len` elements.
fn fill_into<T: FloatTerm, const N: usize>(
    len: usize,
    out: &mut [T],
    f: impl Fn(usize) -> Expansion<T, N> + Sync + Send,
) {
    assert_eq!(out.len(), len * N, "output of the wrong length");
    let w = OutTerms {
        ptr: out.as_mut_ptr(),
        len,
    };
    // SAFETY: index i is written by this call only; `out` holds len·N terms.
    par_for(len, 1024, &|i| unsafe { w.set(i, &f(i)) });
}

/// Like [`fill`] with an f64 beside each element (the error bounds).
fn fill2<T: FloatTerm, const N: usize>(
    len: usize,
    f: impl Fn(usize) -> (Expansion<T, N>, f64) + Sync + Send,
) -> (Vec<T>, Vec<f64>) {
    let mut out = vec![T::ZERO; len * N];
    let mut err = vec![0.0f64; len];
    let w = OutTerms {
        ptr: out.as_mut_ptr(),
        len,
    };
    let we = OutTerms {
        ptr: err.as_mut_ptr(),
        len,
    };
    par_for(len, 256, &|i| {
        let (e, b) = f(i);
        // SAFETY: index i is written by this call only.
        unsafe {
            w.set(i, &e);
            we.put(i, b);
        }
    });
    (out, err)
}

// ---- map ------------------------------------------------------------------------------------

pub(crate) fn map_binary(op: BinOp, a: &Raw, b: &Raw) -> Raw {
    dispatch!(a.kind, a.n, T, N => {
        let mut out = vec![T::ZERO; a.len * N];
        map_binary_impl::<T, N>(op, a, b, &mut out);
        raw_of::<T>(N, a.len, out)
    })
}

fn map_binary_impl<T: ArrayTerm, const N: usize>(op: BinOp, a: &Raw, b: &Raw, out: &mut [T]) {
    let (x, y, len) = (host::<T>(a), host::<T>(b), a.len);
    fill_into::<T, N>(len, out, |i| {
        let (p, q) = (at::<T, N>(x, len, i), at::<T, N>(y, len, i));
        match op {
            BinOp::Add => add_e(&p, &q),
            BinOp::Sub => add_e(&p, &q.neg()),
            BinOp::Mul => mul_e(&p, &q),
            BinOp::Div => div_e(&p, &q),
        }
    });
}

/// `out ← a op b` in place (same length).
pub(crate) fn map_binary_into(op: BinOp, a: &Raw, b: &Raw, out: &mut Raw) {
    dispatch!(a.kind, a.n, T, N => map_binary_impl::<T, N>(op, a, b, host_mut::<T>(out)))
}

fn host_mut<T: ArrayTerm>(r: &mut Raw) -> &mut [T] {
    match &mut r.store {
        Store::Host(h) => T::host_slice_mut(h),
        Store::Dev(_) => unreachable!("device array given to the host backend"),
    }
}

pub(crate) fn map_unary(op: UnOp, a: &Raw) -> Raw {
    dispatch!(a.kind, a.n, T, N => {
        let (x, len) = (host::<T>(a), a.len);
        let out = fill::<T, N>(len, |i| {
            let p = at::<T, N>(x, len, i);
            match op {
                UnOp::Neg => p.neg(),
                UnOp::Abs => p.abs(),
                UnOp::Sqr => sqr_e(&p),
                UnOp::Sqrt => p.sqrt(),
                UnOp::Recip => div_e(&Expansion::one(), &p),
            }
        });
        raw_of::<T>(N, len, out)
    })
}

pub(crate) fn map_term(op: TermOp, a: &Raw, t: f64) -> Raw {
    dispatch!(a.kind, a.n, T, N => {
        let (x, len) = (host::<T>(a), a.len);
        let t = T::from_f64(t);
        let out = fill::<T, N>(len, |i| {
            let p = at::<T, N>(x, len, i);
            match op {
                TermOp::Add => add_e(&p, &Expansion::from_term(t)),
                TermOp::Mul => p.mul_term(t),
                TermOp::Div => div_e(&p, &Expansion::from_term(t)),
            }
        });
        raw_of::<T>(N, len, out)
    })
}

pub(crate) fn map_fn(f: Unary, a: &Raw) -> Raw {
    dispatch!(a.kind, a.n, T, N => {
        let (x, len) = (host::<T>(a), a.len);
        let out = fill::<T, N>(len, |i| eval_unary(f, &at::<T, N>(x, len, i)));
        raw_of::<T>(N, len, out)
    })
}

// ---- reduce ---------------------------------------------------------------------------------

/// The value of a sum-like reduction with its bound accumulators: P = Σ|p̂₀| over products,
/// A = Σ|ŝ₀| over additions, L = Σ|x₀| over operands (module [`super::bound`]).
#[derive(Clone, Copy)]
pub(crate) struct SumV<T: FloatTerm, const N: usize> {
    pub e: Expansion<T, N>,
    pub a: f64,
    pub p: f64,
    pub l: f64,
}

/// ⊕ of sum-like reductions: the accurate addition, A += |ŝ₀| after A_l + A_r (this order),
/// P and L added. `reduce_comb_sum` in cuda/arrays.cu.
#[inline(always)]
pub(crate) fn comb_sum<T: FloatTerm, const N: usize>(x: &SumV<T, N>, y: &SumV<T, N>) -> SumV<T, N> {
    let e = add_e(&x.e, &y.e);
    SumV {
        e,
        a: (x.a + y.a) + lead(&e),
        p: x.p + y.p,
        l: x.l + y.l,
    }
}

/// The smaller by exact value, NaN-poisoning, the first of equal ones (`reduce_comb_min`).
#[inline(always)]
fn comb_min<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    if x.is_nan() {
        *x
    } else if y.is_nan() || cmp_e(y, x) == Some(Ordering::Less) {
        *y
    } else {
        *x
    }
}

/// The larger (`reduce_comb_max`).
#[inline(always)]
fn comb_max<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    if x.is_nan() {
        *x
    } else if y.is_nan() || cmp_e(y, x) == Some(Ordering::Greater) {
        *y
    } else {
        *x
    }
}

/// The pairwise tree (stride doubling) over `v`, in place; the result is `v[0]`.
#[inline]
pub(crate) fn tree<V: Copy>(v: &mut [V], comb: &impl Fn(&V, &V) -> V) {
    let m = v.len();
    let mut s = 1;
    while s < m {
        let mut i = 0;
        while i + s < m {
            v[i] = comb(&v[i], &v[i + s]);
            i += 2 * s;
        }
        s *= 2;
    }
}

/// One reduction tile: elements `base .. base + count` (count ≤ 2048).
fn reduce_tile<V: Copy>(
    base: usize,
    count: usize,
    leaf: &impl Fn(usize) -> V,
    comb: &impl Fn(&V, &V) -> V,
) -> V {
    let threads = count.min(RED_THREADS);
    let mut v: Vec<V> = Vec::with_capacity(threads);
    for j in 0..threads {
        let mut acc = leaf(base + j);
        let mut r = j + RED_THREADS;
        while r < count {
            acc = comb(&acc, &leaf(base + r));
            r += RED_THREADS;
        }
        v.push(acc);
    }
    tree(&mut v, comb);
    v[0]
}

/// The fixed-order reduction of `len` leaves (module doc of [`crate::array`]).
pub(crate) fn reduce_generic<V: Copy + Send + Sync>(
    len: usize,
    leaf: impl Fn(usize) -> V + Sync,
    comb: impl Fn(&V, &V) -> V + Sync,
) -> Option<V> {
    if len == 0 {
        return None;
    }
    let tiles = len.div_ceil(RED_TILE);
    let mut level: Vec<V> = par_map(tiles, 1, |t| {
        let base = t * RED_TILE;
        reduce_tile(base, (len - base).min(RED_TILE), &leaf, &comb)
    });
    while level.len() > 1 {
        let n = level.len();
        let prev = level;
        level = par_map(n.div_ceil(RED_TILE), 1, |t| {
            let base = t * RED_TILE;
            reduce_tile(base, (n - base).min(RED_TILE), &|i| prev[i], &comb)
        });
    }
    Some(level[0])
}

fn reduce_impl<T: ArrayTerm, const N: usize>(
    op: RedOp,
    a: &Raw,
    b: Option<&Raw>,
) -> Option<RedOut> {
    let (x, len) = (host::<T>(a), a.len);
    let out = |v: SumV<T, N>| RedOut {
        value: sc_of(&v.e),
        p: v.p,
        a: v.a,
        l: v.l,
    };
    match op {
        RedOp::Sum => reduce_generic(
            len,
            |i| {
                let e = at::<T, N>(x, len, i);
                SumV {
                    e,
                    a: 0.0,
                    p: 0.0,
                    l: lead(&e),
                }
            },
            comb_sum,
        )
        .map(out),
        RedOp::Dot => {
            let y = host::<T>(b.expect("dot needs two arrays"));
            reduce_generic(
                len,
                |i| {
                    let (p, q) = (at::<T, N>(x, len, i), at::<T, N>(y, len, i));
                    let e = mul_e(&p, &q);
                    SumV {
                        e,
                        a: 0.0,
                        p: lead(&e),
                        l: lead(&p) + lead(&q),
                    }
                },
                comb_sum,
            )
            .map(out)
        }
        RedOp::SumSq => reduce_generic(
            len,
            |i| {
                let p = at::<T, N>(x, len, i);
                let e = sqr_e(&p);
                SumV {
                    e,
                    a: 0.0,
                    p: lead(&e),
                    l: lead(&p),
                }
            },
            comb_sum,
        )
        .map(out),
        RedOp::SumAcc => unreachable!("handled by sum_acc_impl"),
        RedOp::Min | RedOp::Max => {
            let min = op == RedOp::Min;
            reduce_generic(
                len,
                |i| at::<T, N>(x, len, i),
                |p, q| if min { comb_min(p, q) } else { comb_max(p, q) },
            )
            .map(|e| RedOut {
                value: sc_of(&e),
                p: 0.0,
                a: 0.0,
                l: 0.0,
            })
        }
    }
}

/// Σ x on accumulators of M ≥ N terms (each element widened with zero terms).
fn sum_acc_impl<T: ArrayTerm, const N: usize, const M: usize>(a: &Raw) -> Option<RedOut> {
    let (x, len) = (host::<T>(a), a.len);
    reduce_generic(
        len,
        |i| {
            let e = at::<T, N>(x, len, i);
            let mut t = [T::ZERO; M];
            t[..N].copy_from_slice(e.terms());
            SumV {
                e: exp_of_terms::<T, M>(&t),
                a: 0.0,
                p: 0.0,
                l: lead(&e),
            }
        },
        comb_sum,
    )
    .map(|v: SumV<T, M>| RedOut {
        value: sc_of(&v.e),
        p: v.p,
        a: v.a,
        l: v.l,
    })
}

pub(crate) fn reduce(op: RedOp, a: &Raw, b: Option<&Raw>) -> Option<RedOut> {
    if op == RedOp::SumAcc {
        return dispatch!(a.kind, a.n, T, N => {
            const M: usize = super::acc_terms(N);
            sum_acc_impl::<T, N, M>(a)
        });
    }
    dispatch!(a.kind, a.n, T, N => reduce_impl::<T, N>(op, a, b))
}

// ---- scan -----------------------------------------------------------------------------------

#[inline(always)]
fn opt_add<T: FloatTerm, const N: usize>(
    x: Option<Expansion<T, N>>,
    y: Option<Expansion<T, N>>,
) -> Option<Expansion<T, N>> {
    match (x, y) {
        (Some(p), Some(q)) => Some(add_e(&p, &q)),
        (Some(p), None) => Some(p),
        (None, q) => q,
    }
}

/// Offsets of the levels of a tile's thread tree (level L holds 256 >> L nodes).
const fn lv_off(l: usize) -> usize {
    2 * SCAN_THREADS - ((2 * SCAN_THREADS) >> l)
}

/// Depth of a scan tile's thread tree (log2 256).
const SCAN_LEVELS: usize = 8;

/// The thread tree of scan tile `b`: level 0 the thread totals (None where the thread has no
/// element), level L node k = node(L−1, 2k) ⊕ node(L−1, 2k+1) (the left one alone when the
/// right is absent). `scan_tile_tree` in cuda/arrays.cu.
fn scan_tile_tree<T: FloatTerm, const N: usize>(
    x: &[T],
    len: usize,
    b: usize,
) -> Vec<Option<Expansion<T, N>>> {
    let base = b * SCAN_TILE;
    let count = (len - base).min(SCAN_TILE);
    let mut lv: Vec<Option<Expansion<T, N>>> = vec![None; 2 * SCAN_THREADS];
    for (t, slot) in lv.iter_mut().take(SCAN_THREADS).enumerate() {
        let first = t * SCAN_ITEMS;
        let mut acc: Option<Expansion<T, N>> = None;
        for j in 0..SCAN_ITEMS {
            if first + j < count {
                let e = at::<T, N>(x, len, base + first + j);
                acc = Some(match acc {
                    None => e,
                    Some(a) => add_e(&a, &e),
                });
            }
        }
        *slot = acc;
    }
    for l in 1..=SCAN_LEVELS {
        for k in 0..(SCAN_THREADS >> l) {
            let left = lv[lv_off(l - 1) + 2 * k];
            let right = lv[lv_off(l - 1) + 2 * k + 1];
            lv[lv_off(l) + k] = match (left, right) {
                (Some(p), Some(q)) => Some(add_e(&p, &q)),
                (p, _) => p,
            };
        }
    }
    lv
}

fn scan_impl<T: ArrayTerm, const N: usize>(a: &Raw, inclusive: bool) -> Raw {
    let mut out = vec![T::ZERO; a.len * N];
    scan_impl_into::<T, N>(a, inclusive, &mut out);
    raw_of::<T>(N, a.len, out)
}

/// The scan into an existing array (same length).
pub(crate) fn scan_into(a: &Raw, inclusive: bool, out: &mut Raw) {
    dispatch!(a.kind, a.n, T, N => scan_impl_into::<T, N>(a, inclusive, host_mut::<T>(out)))
}

fn scan_impl_into<T: ArrayTerm, const N: usize>(a: &Raw, inclusive: bool, out: &mut [T]) {
    let (x, len) = (host::<T>(a), a.len);
    assert_eq!(out.len(), len * N, "output of the wrong length");
    if len == 0 {
        return;
    }
    let tiles = len.div_ceil(SCAN_TILE);
    // Tile totals: the roots of the tiles' thread trees.
    let totals: Vec<Expansion<T, N>> = par_map(tiles, 1, |b| {
        scan_tile_tree::<T, N>(x, len, b)[lv_off(SCAN_LEVELS)].expect("non-empty tile")
    });
    // Dyadic nodes over the tile totals: level L node k covers tiles k·2^L .. (k+1)·2^L, and
    // exists when that block is complete.
    let mut nodes: Vec<Vec<Expansion<T, N>>> = vec![totals];
    let mut l = 1;
    while tiles >> l > 0 {
        let prev = &nodes[l - 1];
        let cur: Vec<Expansion<T, N>> =
            par_map(tiles >> l, 64, |k| add_e(&prev[2 * k], &prev[2 * k + 1]));
        nodes.push(cur);
        l += 1;
    }
    {
        let w = OutTerms {
            ptr: out.as_mut_ptr(),
            len,
        };
        par_for(tiles, 1, &|b| {
            // Tile prefix: left fold over the dyadic blocks of [0, b), largest first.
            let mut prefix: Option<Expansion<T, N>> = None;
            let mut s = 0usize;
            for l in (0..usize::BITS as usize).rev() {
                if b & (1usize << l) != 0 {
                    let node = nodes[l][s >> l];
                    prefix = opt_add(prefix, Some(node));
                    s += 1 << l;
                }
            }
            let lv = scan_tile_tree::<T, N>(x, len, b);
            let base = b * SCAN_TILE;
            let count = (len - base).min(SCAN_TILE);
            for t in 0..SCAN_THREADS {
                let first = t * SCAN_ITEMS;
                if first >= count {
                    break;
                }
                // Thread prefix E_t: left fold over the dyadic blocks of [0, t).
                let mut et: Option<Expansion<T, N>> = None;
                let mut s = 0usize;
                for l in (0..SCAN_LEVELS).rev() {
                    if t & (1 << l) != 0 {
                        et = opt_add(et, lv[lv_off(l) + (s >> l)]);
                        s += 1 << l;
                    }
                }
                let mut q = opt_add(prefix, et);
                for j in 0..SCAN_ITEMS {
                    if first + j >= count {
                        break;
                    }
                    let i = base + first + j;
                    let e = at::<T, N>(x, len, i);
                    let next = match q {
                        None => e,
                        Some(v) => add_e(&v, &e),
                    };
                    let o = if inclusive {
                        next
                    } else {
                        q.unwrap_or_else(Expansion::zero)
                    };
                    // SAFETY: element i belongs to this tile and thread only.
                    unsafe { w.set(i, &o) };
                    q = Some(next);
                }
            }
        });
    }
}

pub(crate) fn scan(a: &Raw, inclusive: bool) -> Raw {
    dispatch!(a.kind, a.n, T, N => scan_impl::<T, N>(a, inclusive))
}

// ---- sort and select ------------------------------------------------------------------------

/// The sort order: exact value, NaN last (NaNs equal); when the exact difference of two
/// finite expansions overflows (magnitudes near the largest float), their terms compared
/// lexicographically. `key_cmp` in cuda/arrays.cu.
pub(crate) fn key_cmp<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => match cmp_e(a, b) {
            Some(o) => o,
            None => {
                for k in 0..N {
                    let (p, q) = (a.terms()[k], b.terms()[k]);
                    if p < q {
                        return Ordering::Less;
                    }
                    if p > q {
                        return Ordering::Greater;
                    }
                }
                Ordering::Equal
            }
        },
    }
}

fn sort_impl<T: ArrayTerm, const N: usize>(a: &Raw) -> (Raw, Vec<u64>) {
    let (x, len) = (host::<T>(a), a.len);
    let xs: Vec<Expansion<T, N>> = par_map(len, 1024, |i| at::<T, N>(x, len, i));
    // Stable: equal keys keep their order, so the output is unique.
    let perm = sort_perm(len, &|i, j| key_cmp(&xs[i as usize], &xs[j as usize]));
    let out = fill::<T, N>(len, |i| xs[perm[i] as usize]);
    (raw_of::<T>(N, len, out), perm)
}

/// Sorts; with `perm` also returns the permutation (output i is input perm[i]).
pub(crate) fn sort(a: &Raw, perm: Option<()>) -> (Raw, Option<Vec<u64>>) {
    let (r, p) = dispatch!(a.kind, a.n, T, N => sort_impl::<T, N>(a));
    (r, perm.map(|_| p))
}

/// The comparison code of `x` with `t`: −1, 0, 1, or 2 when unordered (`cmp_code`).
#[inline(always)]
pub(crate) fn cmp_code<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
    t: &Expansion<T, N>,
) -> i32 {
    match cmp_e(x, t) {
        Some(Ordering::Less) => -1,
        Some(Ordering::Equal) => 0,
        Some(Ordering::Greater) => 1,
        None => 2,
    }
}

fn select_impl<T: ArrayTerm, const N: usize>(a: &Raw, cmp: Cmp, thr: &Sc) -> (Raw, Vec<u64>) {
    let (x, len) = (host::<T>(a), a.len);
    let t = exp_of_sc::<T, N>(thr);
    let keep: Vec<bool> = par_map(len, 1024, |i| {
        cmp.holds(cmp_code(&at::<T, N>(x, len, i), &t))
    });
    let idx: Vec<u64> = (0..len as u64).filter(|&i| keep[i as usize]).collect();
    let out = fill::<T, N>(idx.len(), |j| at::<T, N>(x, len, idx[j] as usize));
    (raw_of::<T>(N, idx.len(), out), idx)
}

pub(crate) fn select(a: &Raw, cmp: Cmp, thr: &Sc) -> (Raw, Vec<u64>) {
    dispatch!(a.kind, a.n, T, N => select_impl::<T, N>(a, cmp, thr))
}

// ---- BLAS -----------------------------------------------------------------------------------

/// The epilogue of GEMV and GEMM: r = α·u + β·y with its bound, from u and its error `err_u`
/// (`alpha` None: α = 1 exactly, no multiplication; `beta_y` None: β = 0). `blas_epilogue`
/// in cuda/blas.cu.
#[inline(always)]
pub(crate) fn epilogue<T: FloatTerm, const N: usize>(
    c: &Consts,
    u: Expansion<T, N>,
    err_u: f64,
    alpha: Option<&Expansion<T, N>>,
    beta_y: Option<(&Expansion<T, N>, Expansion<T, N>)>,
) -> (Expansion<T, N>, f64) {
    let (v, err_v) = match alpha {
        None => (u, err_u),
        Some(al) => {
            let v = mul_e(al, &u);
            (v, c.mul_prop(&c.mul, lead(al), lead(&u), err_u, lead(&v)))
        }
    };
    match beta_y {
        None => (v, err_v),
        Some((be, y)) => {
            let w = mul_e(be, &y);
            let err_w = c.mul_prop(&c.mul, lead(be), lead(&y), 0.0, lead(&w));
            let r = add_e(&v, &w);
            let err = super::bound::add_up(
                super::bound::add_up(err_v, err_w),
                c.add_local(lead(&v), lead(&w), lead(&r)),
            );
            (r, err)
        }
    }
}

fn axpy_impl<T: ArrayTerm, const N: usize>(alpha: &Sc, x: &Raw, y: &Raw) -> (Raw, Vec<f64>) {
    let (xd, yd, len) = (host::<T>(x), host::<T>(y), x.len);
    let al = exp_of_sc::<T, N>(alpha);
    let c = Consts::new::<T>(N);
    let (out, err) = fill2::<T, N>(len, |i| {
        let (p, q) = (at::<T, N>(xd, len, i), at::<T, N>(yd, len, i));
        let v = mul_e(&al, &p);
        let err_v = c.mul_prop(&c.mul, lead(&al), lead(&p), 0.0, lead(&v));
        let r = add_e(&v, &q);
        let e = super::bound::add_up(err_v, c.add_local(lead(&v), lead(&q), lead(&r)));
        (r, e)
    });
    (raw_of::<T>(N, len, out), err)
}

/// α·x + y with bounds.
pub(crate) fn axpy(alpha: &Sc, x: &Raw, y: &Raw) -> (Raw, Vec<f64>) {
    dispatch!(x.kind, x.n, T, N => axpy_impl::<T, N>(alpha, x, y))
}

fn scal_impl<T: ArrayTerm, const N: usize>(alpha: &Sc, x: &Raw) -> (Raw, Vec<f64>) {
    let (xd, len) = (host::<T>(x), x.len);
    let al = exp_of_sc::<T, N>(alpha);
    let c = Consts::new::<T>(N);
    let (out, err) = fill2::<T, N>(len, |i| {
        let p = at::<T, N>(xd, len, i);
        let v = mul_e(&al, &p);
        (v, c.mul_prop(&c.mul, lead(&al), lead(&p), 0.0, lead(&v)))
    });
    (raw_of::<T>(N, len, out), err)
}

/// α·x with bounds.
pub(crate) fn scal(alpha: &Sc, x: &Raw) -> (Raw, Vec<f64>) {
    dispatch!(x.kind, x.n, T, N => scal_impl::<T, N>(alpha, x))
}

/// The GEMV problem: A is `rows × cols`, column-major; `trans` computes Aᵀx.
pub(crate) struct GemvArgs<'a> {
    pub trans: bool,
    pub rows: usize,
    pub cols: usize,
    pub alpha: Option<Sc>,
    pub beta: Option<Sc>,
    pub a: &'a Raw,
    pub x: &'a Raw,
    pub y: Option<&'a Raw>,
}

fn gemv_impl<T: ArrayTerm, const N: usize>(g: &GemvArgs) -> (Raw, Vec<f64>) {
    let ad = host::<T>(g.a);
    let xd = host::<T>(g.x);
    let alen = g.rows * g.cols;
    let (out_len, red_len) = if g.trans {
        (g.cols, g.rows)
    } else {
        (g.rows, g.cols)
    };
    let rows = g.rows;
    let a_at = |o: usize, r: usize| -> Expansion<T, N> {
        if g.trans {
            at::<T, N>(ad, alen, r + o * rows)
        } else {
            at::<T, N>(ad, alen, o + r * rows)
        }
    };
    let c = Consts::new::<T>(N);
    let alpha = g.alpha.map(|s| exp_of_sc::<T, N>(&s));
    let beta = g.beta.map(|s| exp_of_sc::<T, N>(&s));
    let yd = g.y.map(host::<T>);
    let chunks = red_len.div_ceil(GEMV_CHUNK);
    let (out, err) = fill2::<T, N>(out_len, |o| {
        let leaf = |r: usize| {
            let (p, q) = (a_at(o, r), at::<T, N>(xd, red_len, r));
            let e = mul_e(&p, &q);
            SumV {
                e,
                a: 0.0,
                p: lead(&e),
                l: lead(&p) + lead(&q),
            }
        };
        let (u, err_u) = if red_len == 0 {
            (Expansion::zero(), 0.0)
        } else {
            let mut parts: Vec<SumV<T, N>> = (0..chunks)
                .map(|ch| {
                    let r0 = ch * GEMV_CHUNK;
                    let r1 = (r0 + GEMV_CHUNK).min(red_len);
                    let mut s = leaf(r0);
                    for r in r0 + 1..r1 {
                        s = comb_sum(&s, &leaf(r));
                    }
                    s
                })
                .collect();
            tree(&mut parts, &comb_sum);
            let s = parts[0];
            let n = red_len as u64;
            (s.e, c.finalize(&c.mul, s.p, n, s.a, n - 1, s.l))
        };
        let by = beta.as_ref().map(|b| {
            (
                b,
                yd.map_or_else(Expansion::zero, |y| at::<T, N>(y, out_len, o)),
            )
        });
        epilogue(&c, u, err_u, alpha.as_ref(), by)
    });
    (raw_of::<T>(N, out_len, out), err)
}

/// y ← α·op(A)·x + β·y with bounds.
pub(crate) fn gemv(g: &GemvArgs) -> (Raw, Vec<f64>) {
    dispatch!(g.a.kind, g.a.n, T, N => gemv_impl::<T, N>(g))
}

/// The GEMM problem: C (m × n) ← α·A·B + β·C, A m × k, B k × n, all column-major.
pub(crate) struct GemmArgs<'a> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: Option<Sc>,
    pub beta: Option<Sc>,
    pub a: &'a Raw,
    pub b: &'a Raw,
    pub c: Option<&'a Raw>,
}

/// The state of one C_ij's fold over k: the sum and its bound accumulators (P, A).
#[derive(Clone, Copy)]
pub(crate) struct GemmAcc<T: FloatTerm, const N: usize> {
    pub e: Expansion<T, N>,
    pub p: f64,
    pub a: f64,
}

/// One step of the GEMM fold: s ⊕ a·b (`gemm_step` in cuda/blas.cu); `None` starts it.
#[inline(always)]
pub(crate) fn gemm_step<T: FloatTerm, const N: usize>(
    s: Option<GemmAcc<T, N>>,
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> GemmAcc<T, N> {
    let pr = mul_e(a, b);
    match s {
        None => GemmAcc {
            e: pr,
            p: lead(&pr),
            a: 0.0,
        },
        Some(s) => {
            let e = add_e(&s.e, &pr);
            GemmAcc {
                e,
                p: s.p + lead(&pr),
                a: s.a + lead(&e),
            }
        }
    }
}

/// max |x₀| over an array (exact: max needs no order).
fn amax_lead<T: FloatTerm>(d: &[T], len: usize) -> f64 {
    d[..len]
        .par_iter()
        .map(|t| t.to_f64().abs())
        .reduce(|| 0.0, |p, q| if q > p { q } else { p })
}

/// Whether every operand of a GEMM is inside the bounds' range (module [`super::bound`]).
pub(crate) fn gemm_range_ok(c: &Consts, amax_a: f64, amax_b: f64) -> bool {
    c.mag(amax_a) <= c.lim && c.mag(amax_b) <= c.lim
}

/// The GEMM bound of one element from its fold state (`gemm_err` in cuda/blas.cu).
#[inline(always)]
pub(crate) fn gemm_err(c: &Consts, p: f64, a: f64, k: usize, range_ok: bool) -> f64 {
    if !range_ok {
        return f64::INFINITY;
    }
    let n = k as u64;
    c.finalize(&c.mul, p, n, a, n.saturating_sub(1), 0.0)
}

fn gemm_impl<T: ArrayTerm, const N: usize>(g: &GemmArgs) -> (Raw, Vec<f64>) {
    let (m, n, k) = (g.m, g.n, g.k);
    let ad = host::<T>(g.a);
    let bd = host::<T>(g.b);
    let c = Consts::new::<T>(N);
    let ok = gemm_range_ok(&c, amax_lead(ad, m * k), amax_lead(bd, k * n));
    // Rows of A and columns of B as contiguous expansions.
    let arow: Vec<Expansion<T, N>> = par_map(m * k, 1024, |q| {
        let (i, kk) = (q / k.max(1), q % k.max(1));
        at::<T, N>(ad, m * k, i + kk * m)
    });
    let bcol: Vec<Expansion<T, N>> = par_map(k * n, 1024, |q| at::<T, N>(bd, k * n, q));
    let alpha = g.alpha.map(|s| exp_of_sc::<T, N>(&s));
    let beta = g.beta.map(|s| exp_of_sc::<T, N>(&s));
    let cd = g.c.map(host::<T>);
    let (out, err) = fill2::<T, N>(m * n, |q| {
        let (i, j) = (q % m, q / m);
        let (u, err_u) = if k == 0 {
            (Expansion::zero(), 0.0)
        } else {
            let mut s: Option<GemmAcc<T, N>> = None;
            for kk in 0..k {
                s = Some(gemm_step(s, &arow[i * k + kk], &bcol[j * k + kk]));
            }
            let s = s.expect("k > 0");
            (s.e, gemm_err(&c, s.p, s.a, k, ok))
        };
        let by = beta.as_ref().map(|b| {
            (
                b,
                cd.map_or_else(Expansion::zero, |cc| at::<T, N>(cc, m * n, q)),
            )
        });
        epilogue(&c, u, err_u, alpha.as_ref(), by)
    });
    (raw_of::<T>(N, m * n, out), err)
}

/// C ← α·A·B + β·C with bounds.
pub(crate) fn gemm(g: &GemmArgs) -> (Raw, Vec<f64>) {
    dispatch!(g.a.kind, g.a.n, T, N => gemm_impl::<T, N>(g))
}

// ---- index-generated data (array::indexed) ----------------------------------------------------

/// The elements of `map` (f64 terms, N = `n`), on all cores.
pub(crate) fn gen_fill(map: &super::IndexMap, n: usize, len: usize) -> Raw {
    with_n!(n, N => {
        let out = fill::<f64, N>(len, |i| super::indexed::leaf::<N>(map, i as u64));
        raw_of::<f64>(N, len, out)
    })
}

/// Σ of the elements of `map` in the order of `reduce_generic` (`arr_gen_red_sum`), on
/// accumulators of N terms, or of `acc_terms(N)` with `acc` (`arr_gen_red_sumacc`).
fn gen_reduce_impl<const N: usize, const M: usize>(
    map: &super::IndexMap,
    len: usize,
) -> Option<RedOut> {
    reduce_generic(
        len,
        |i| {
            let e = super::indexed::leaf::<N>(map, i as u64);
            let mut t = [0.0f64; M];
            t[..N].copy_from_slice(e.terms());
            SumV {
                e: exp_of_terms::<f64, M>(&t),
                a: 0.0,
                p: 0.0,
                l: lead(&e),
            }
        },
        comb_sum,
    )
    .map(|v: SumV<f64, M>| RedOut {
        value: sc_of(&v.e),
        p: v.p,
        a: v.a,
        l: v.l,
    })
}

pub(crate) fn gen_reduce(map: &super::IndexMap, n: usize, len: usize, acc: bool) -> Option<RedOut> {
    with_n!(n, N => {
        if acc {
            const M: usize = super::acc_terms(N);
            gen_reduce_impl::<N, M>(map, len)
        } else {
            gen_reduce_impl::<N, N>(map, len)
        }
    })
}
