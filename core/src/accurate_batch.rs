//! The *accurate* tier (proven error bounds, [`crate::accurate`]) on SIMD lanes, for N ≥ 3:
//! many independent operations at once, each lane computing exactly what the scalar
//! [`Expansion`] operation computes, bit for bit.
//!
//! Why: the scalar accurate operations are bound by latency and by the data-dependent branches
//! of VecSumErrBranch, so one orbit at a time the accurate tier ran 3–5× slower than MPFR
//! (issue 18). Here lane l of a [`MaskedLane`] value is operation l.
//!
//! How, and why the results are identical: every scalar operation for N ≥ 3 (`fast_add`,
//! `fast_add_term`, `fast_mul`, `fast_sqr`, `fast_mul_term` in [`crate::accurate`])
//! builds a list of machine numbers with error-free transforms (`fast_mul` then runs one
//! VecSum over it), then `certified_round`: up to
//! three passes of VecSum + VecSumErrBranch, each followed by a run-time certificate, and the
//! exact reference when all three fail. Here the same list is built on lanes in the same order
//! (the add's pair order `|x_i| ≥ |y_i|` by a lane select), VecSum runs on lanes (it is
//! branch-free), and VecSumErrBranch runs without data-dependent control flow: the terms a
//! lane emits go through a shift register (a 2Sum with non-zero error moves `out` down one
//! slot in that lane, by one select per slot, and its sum enters at the end), and a lane is
//! "done" (has emitted N terms) exactly when `out[0]` is non-zero, since an emitted sum never
//! is zero; once a lane is done, the magnitudes of the rest of the list are added to its tail
//! sum `a` in the scalar order (so the rounding of that float sum is the scalar one). The
//! certificate (finite, ulp-nonoverlapping with zeros only at the end, 4a ≤ 3·ulp(out[N−1]))
//! is a lane mask, computed with the scalar comparisons' NaN semantics. Passes 2 and 3 run on
//! lanes too, only while some lane's certificate has failed, and each lane keeps the result of its first
//! certified pass, as the scalar loop does (one pass alone failed often enough, about one
//! multiplication in ten at N = 8, that recomputing those lanes in scalar made the batch
//! slower than the scalar code). A lane whose inputs are not all finite, whose leading-term
//! result (`naive`) is not finite, or whose three certificates fail is recomputed by the
//! scalar operation (which then runs its exact reference), so every lane's result equals the
//! scalar operation's by construction. A lane that passes gets the scalar `settle` of a
//! certified result: the terms verbatim, or when the sum is zero the signed zero IEEE gives
//! (`naive` when it is zero, else +0).
//!
//! (A Fast2Sum in VecSumErrBranch, with its precondition |eps| ≥ |v_k| checked per lane and
//! the lanes where it failed recomputed in scalar, was tried and dropped: on the Hénon step it
//! almost never fails, but on the interval benchmark's endpoints, whose terms are spread out,
//! it failed so often at N ≥ 6 that `mul_batch` ran at scalar speed, 2.6–4.9× slower.)
//!
//! Only uniform branches remain: the emission loop stops once every lane is done (the rest of
//! the list only feeds the tail sums), lanes that consumed the list with fewer than N terms
//! are moved into place only when there are any, and passes 2–3 run only while a lane needs
//! them; they change no result.
//!
//! Speed (issue 18): the batched step is bound by latency, not by the count of operations.
//! Profiles (perf, on-CPU samples by source line, AVX2, N = 3) put about 55% of the time in
//! the emission loop, whose loop-carried chain per list item is a whole 2Sum, a compare and a
//! select, and 16% in VecSum. So each lane type here is two registers per term
//! ([`crate::batch::Wide`]: 8 orbits on AVX2, 16 on AVX-512), which gives the core two
//! independent chains to overlap; the emission by shift register takes the old per-lane count
//! (an add, a compare and mask moves per item) off the loop-carried path and needs one select
//! per slot instead of a compare, an and and a select; VecSum sends its two error
//! subtractions to the FMA pipes; and the first N − 1 items, where no lane can be done yet,
//! skip the done state, the tail sum and the exit test. Measured with `expanse bench cpu
//! --scale 0.5` on a 2-vCPU Zen 5 (Hénon it/s, lanes / MPFR, before → after): AVX-512
//! 1.31 → 1.82 at N = 3, 1.35 → 2.03 at N = 4, 0.97 → 1.62 at N = 5, 0.48 → 0.85 at N = 8;
//! AVX2 0.91 → 1.19, 0.94 → 1.26, 0.70 → 0.96, 0.34 → 0.47. (Four registers per term made
//! AVX-512 another 7–18% faster but doubled the compile time of these instances again.)
//! Writing `accurate::mul_list`'s term list in place (no 1 KB copy of each order's
//! errors at 16 lanes) then added 6–18% (`bench cpu`, scale 1: AVX-512 2.10 at N = 3, 0.90 at
//! N = 8; AVX2 1.36, 0.47). Then (2026-11-25) the multiplication's extra VecSum
//! (`accurate::fast_mul`: its first certificate failed for 18–50% of the products, so nearly
//! every batch ran two passes) and `done` read from `out[0]` with one select fewer for the
//! tail sum: `bench cpu --scale 0.5`, lanes / MPFR, interleaved runs, N = 3..8, AVX2
//! 1.32–1.36 1.42–1.49 1.03 0.77–0.78 0.55–0.56 0.46 → 2.08–2.11 2.40–2.42 1.64–1.71
//! 1.25–1.29 0.94–0.97 0.81–0.85, AVX-512 2.04–2.11 2.23–2.32 1.73–1.74 1.35–1.36 1.02
//! 0.89 → 3.12–3.14 3.59 2.72–2.77 2.23–2.24 1.70–1.74 1.37–1.47 (nearly all of it from the
//! extra VecSum).
//!
//! Entry points: batched operations over slices ([`add_batch`], [`sub_batch`], [`mul_batch`],
//! [`sqr_batch`], [`add_term_batch`], [`mul_term_batch`]) for f64 and f32 terms, and the
//! batched accurate Hénon iteration [`henon_iterate_accurate_batch_f64`] (the op sequence of
//! [`crate::henon_iterate`] on `Expansion<f64, N>`). They forward to the instances compiled
//! once in [`crate::runtime`] behind a run-time N (f64 on AVX-512 or AVX2 lanes, two registers
//! per term; f32 on one lane, the same algorithm without the SIMD speed-up). For N < 3 they
//! run the scalar operations (same results; the N = 2 double-word lanes are
//! [`crate::batch::henon_iterate_batch_dw`]).
//! Checked bit for bit against the scalar operations in `tests/it/accurate_batch.rs`.

use crate::batch::{Lane, LaneMask, MaskedLane, SimdLevel, SimdUnavailable};
use crate::eft::two_sum;
use crate::expansion::Expansion;
// VecSum's 2Sum below: `two_sum` bit for bit, with the two error subtractions (off the chain
// from one running sum to the next) issued as FMAs by −1 where the lane type can
// (`Lane::sub_on_fma`): VecSum is nearly all additions, which x86 cores run on two pipes, with
// the FMA pipes idle. The fast tier's function, shared.
use crate::fast::two_sum_split;
use crate::float::FloatTerm;

/// The batched accurate operations (the argument of the run-time entry points in
/// [`crate::runtime`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccOp {
    /// `x.add(y)`
    Add,
    /// `x.sub(y)`
    Sub,
    /// `x.mul(y)`
    Mul,
    /// `x.sqr()` (`y` unused)
    Sqr,
    /// `x.add_term(t)` (one term per operation)
    AddTerm,
    /// `x.mul_term(t)` (one term per operation)
    MulTerm,
    /// `x.add_term_sub(1, y)`: 1 + x − y, one renormalisation for N ≥ 3 (the Hénon map's x')
    OnePlusSub,
}

/// Largest lane width of the lane types used here (`Wide<F64x8, 2>`), for transposing
/// buffers.
const MAX_WIDTH: usize = 16;

/// Length of the term-list buffer: the longest list, the multiplication's at N = 8
/// (N² + 1 = 65; `accurate::mul_list`).
pub(crate) const LIST_CAP: usize = 65;

/// VecSum (JMMP 2016 Alg. 1) on lanes: the scalar [`crate::eft::vec_sum`], lane-wise.
#[inline(always)]
fn vec_sum_lanes<L: Lane>(v: &mut [L]) {
    let n = v.len();
    let mut s = v[n - 1];
    for i in (0..n - 1).rev() {
        let (hi, lo) = two_sum_split(v[i], s);
        v[i + 1] = lo;
        s = hi;
    }
    v[0] = s;
}

/// `certified_round` (accurate.rs) on lanes: up to three passes of VecSum then
/// VecSumErrBranch with per-lane state instead of branches, each with the certificate as a
/// mask (see the module doc). Lanes whose mask is false (all three passes failed: the scalar
/// operation runs its exact reference) hold unspecified terms.
#[inline(always)]
fn certified_round_lanes<L: MaskedLane, const N: usize>(v: &mut [L]) -> ([L; N], L::Mask) {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    let mut ok = zero.mask_ne(zero);
    // Up to three passes, as the scalar loop; passes 2 and 3 run only while some lane still
    // fails (a uniform branch), and each lane keeps the result of the first pass that
    // certifies it, as the scalar loop returns at that pass. One loop body, not unrolled
    // copies: the code of an operation is compiled once per call site.
    let mut pass = 0;
    while pass < 3 && !ok.all() {
        vec_sum_lanes(v);
        let (o, ok_p) = err_branch_lanes::<L, N>(v);
        for i in 0..N {
            out[i] = L::select(ok, out[i], o[i]);
        }
        ok = ok.or(ok_p);
        pass += 1;
    }
    (out, ok)
}

/// One VecSumErrBranch pass of `certified_round` on lanes (`v` unchanged), branch-free per
/// lane, with the certificate as a mask (see the module doc).
///
/// The emitted terms of each lane go through a shift register: when a lane emits (a 2Sum with
/// non-zero error, the lane not yet done), `out` moves down one slot in that lane and the sum
/// enters at `out[N − 1]`, so after N emissions `out` holds the lane's terms in order, and
/// one select per slot per item does the writing (instead of comparing each slot with a
/// per-lane emission count). An emitted sum is never zero (a zero sum is exact, its error
/// zero), so a lane has emitted N terms ("done") exactly when `out[0] ≠ 0`: the loop-carried
/// state is the register itself, one compare from the next decision. Lanes that consume the
/// whole list with fewer than N terms (exact results) are moved up to slot 0 at the end,
/// only when such a lane exists (a uniform branch).
#[inline(always)]
fn err_branch_lanes<L: MaskedLane, const N: usize>(v: &[L]) -> ([L; N], L::Mask) {
    let len = v.len();
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    let mut eps = v[0];
    let mut a = zero;
    // Items 1..N − 1 (or to the end of a shorter list, see `trailing_zero_pairs`): no lane
    // can be done before item N (each emission takes one item), so these steps need neither
    // the done state nor the tail sum nor the exit test. Before item k at most k − 1 terms
    // were emitted, so slots below N − k + 1 are zero in every lane and shifting them is a
    // no-op: item k shifts only slots N − k .. N − 1 (k selects instead of N).
    for k in 1..N.min(len) {
        let (r, err) = two_sum(eps, v[k]);
        let nz = err.mask_ne(zero);
        for i in N - k..N - 1 {
            out[i] = L::select(nz, out[i + 1], out[i]);
        }
        out[N - 1] = L::select(nz, r, out[N - 1]);
        eps = L::select(nz, err, r);
    }
    // `done` (N terms emitted) is `out[0] ≠ 0`, read from the register at the top of each
    // step: no separate state to update.
    let mut k = N;
    let mut done = out[0].mask_ne(zero);
    while k < len && !done.all() {
        let vk = v[k];
        let (r, err) = two_sum(eps, vk);
        let nz = err.mask_ne(zero);
        let emit = nz.and(done.not());
        for i in 0..N - 1 {
            out[i] = L::select(emit, out[i + 1], out[i]);
        }
        out[N - 1] = L::select(emit, r, out[N - 1]);
        // Done before this step: the scalar loop has stopped and sums |v[k]| into a; done
        // at this step: a starts at |eps| = |err|. A lane not done yet holds |err| too (no
        // separate "done now" mask): it is overwritten at the step that makes the lane done,
        // and never read for a lane that is not done.
        a = L::select(done, a + vk.lane_abs(), err.lane_abs());
        eps = L::select(nz, err, r);
        done = out[0].mask_ne(zero);
        k += 1;
    }
    // Every lane is done (or the list is consumed): the rest feeds the tail sums.
    while k < len {
        a = a + v[k].lane_abs();
        k += 1;
    }
    if !done.all() {
        // Lanes that consumed everything: the last eps, when non-zero, is the next term; then
        // their j < N terms (in out[N − j..]) move up to out[..j], zeros after (the scalar
        // out[j..] stay zero). Every emitted term is non-zero, so a lane is in place when
        // out[0] ≠ 0 (or it has no term at all, and shifting zeros changes nothing).
        let last = eps.mask_ne(zero).and(done.not());
        for i in 0..N - 1 {
            out[i] = L::select(last, out[i + 1], out[i]);
        }
        out[N - 1] = L::select(last, eps, out[N - 1]);
        for _ in 0..N - 1 {
            let up = out[0].mask_eq(zero).and(done.not());
            for i in 0..N - 1 {
                out[i] = L::select(up, out[i + 1], out[i]);
            }
            out[N - 1] = L::select(up, zero, out[N - 1]);
        }
    }
    let four = L::splat(<L::Scalar as FloatTerm>::from_f64(4.0));
    let three = L::splat(<L::Scalar as FloatTerm>::from_f64(3.0));
    let tail_ok = (a * four).mask_le(out[N - 1].lane_ulp() * three);
    let mut ok = done.not().or(tail_ok).and(out[0].finite_mask());
    for i in 1..N {
        let ok_i = out[i].mask_eq(zero).or(out[i - 1]
            .mask_ne(zero)
            .and(out[i].lane_abs().mask_le(out[i - 1].lane_ulp())));
        ok = ok.and(ok_i);
    }
    (out, ok)
}

/// The scalar `settle` of a certified (finite) result: a zero sum becomes the signed zero
/// IEEE gives, `naive` when it is zero, else +0; the lower terms of a zero result are +0
/// already (an emitted sum is never zero).
#[inline(always)]
fn settle_lanes<L: MaskedLane, const N: usize>(mut out: [L; N], naive: L) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let z = L::select(naive.mask_eq(zero), naive, zero);
    out[0] = L::select(out[0].mask_eq(zero), z, out[0]);
    out
}

/// −x term by term (a loop, not `map`: see [`and_finite`]).
#[inline(always)]
fn neg_lanes<L: Lane, const N: usize>(x: &[L; N]) -> [L; N] {
    let mut r = *x;
    for t in r.iter_mut() {
        *t = -*t;
    }
    r
}

/// Mask of the lanes where every term of `x` is finite, and-ed into `m`.
#[inline(always)]
fn and_finite<L: MaskedLane, const N: usize>(m: L::Mask, x: &[L; N]) -> L::Mask {
    // A plain loop, no closure: a closure is compiled without the AVX-512 target feature of
    // the caller, and its lane operations would become calls.
    let mut m = m;
    for t in x {
        m = m.and(t.finite_mask());
    }
    m
}

/// The number of trailing term positions i (at most N − 1) where x_i and y_i are zero in
/// every lane. The addition's list (pairs x_i, y_i) and `add_term`'s (x_i at i + 1) leave
/// those positions out: a zero item is a no-op in every step of `certified_round` (the
/// argument at `accurate::fast_add_term`), so the results are the scalar ones, bit for bit,
/// and operands with trailing zero terms (interval endpoints of few terms, values read from
/// f64) walk a shorter list. A uniform test from the end, which stops at once on full
/// expansions.
#[inline(always)]
fn trailing_zeros<L: MaskedLane, const N: usize>(x: &[L; N], y: &[L; N]) -> usize {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut z = 0;
    while z < N - 1
        && x[N - 1 - z]
            .mask_eq(zero)
            .and(y[N - 1 - z].mask_eq(zero))
            .all()
    {
        z += 1;
    }
    z
}

/// Moves the items of `v` that are non-zero in some lane to the front, in order, and returns
/// their count (at least 1: an all-zero list keeps one zero item). A zero item is a no-op in
/// every step of `certified_round` (see [`trailing_zeros`]), so in every lane the shorter list
/// gives the scalar result bit for bit. Used for the multiplication when an operand ends in
/// zero terms in every lane: the products of those terms are then zero in every lane (with
/// 3-term interval endpoints at N = 8, 46 of the 65 items), and the VecSums and the
/// emission, which for results of fewer than N terms walks the whole list, skip them. The
/// index update is arithmetic on the mask test (no per-item branch).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn drop_zero_items<L: MaskedLane>(v: &mut [L]) -> usize {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut w = 0;
    for k in 0..v.len() {
        let t = v[k];
        v[w] = t;
        w += usize::from(t.mask_ne(zero).any());
    }
    w.max(1)
}

/// Lane version of `Expansion::add` for N ≥ 3 (`fast_add`); the mask marks the
/// lanes whose result is final.
#[inline(always)]
pub(crate) fn add_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    y: &[L; N],
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let naive = x[0] + y[0];
    let ok = and_finite(and_finite(naive.finite_mask(), x), y);
    for i in 0..N {
        (v[2 * i], v[2 * i + 1]) = larger_first_lanes(x[i], y[i]);
    }
    let m = N - trailing_zeros(x, y);
    let (out, cert) = certified_round_lanes::<L, N>(&mut v[..2 * m]);
    (settle_lanes(out, naive), ok.and(cert))
}

/// Lane version of `Expansion::add_term` for N ≥ 3 (`fast_add_term`).
#[inline(always)]
pub(crate) fn add_term_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    t: L,
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let naive = x[0] + t;
    let ok = and_finite(naive.finite_mask().and(t.finite_mask()), x);
    (v[0], v[1]) = larger_first_lanes(x[0], t);
    v[2..N + 1].copy_from_slice(&x[1..N]);
    let m = N - trailing_zeros(x, x);
    let (out, cert) = certified_round_lanes::<L, N>(&mut v[..m + 1]);
    (settle_lanes(out, naive), ok.and(cert))
}

/// Lane version of `Expansion::mul` for N ≥ 3 (`fast_mul`: the same list,
/// [`crate::accurate::mul_list`]).
#[inline(always)]
pub(crate) fn mul_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    y: &[L; N],
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let naive = x[0] * y[0];
    let ok = and_finite(and_finite(naive.finite_mask(), x), y);
    let len = crate::accurate::mul_list(x, y, v);
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    // A uniform test, false on full expansions (the Hénon step, most operands).
    let trailing_zero = x[N - 1].mask_eq(zero).all() || y[N - 1].mask_eq(zero).all();
    round_product_lanes(&mut v[..len], trailing_zero, naive, ok)
}

/// The common end of [`mul_lanes`] and [`sqr_lanes`] on the product's term list `v`: the
/// items zero in every lane dropped when an operand ends in zero terms in every lane
/// (`trailing_zero`), the scalar `fast_mul`'s VecSum before `certified_round`, then the
/// certified round and `settle`.
#[inline(always)]
fn round_product_lanes<L: MaskedLane, const N: usize>(
    v: &mut [L],
    trailing_zero: bool,
    naive: L,
    ok: L::Mask,
) -> ([L; N], L::Mask) {
    let len = if trailing_zero {
        drop_zero_items(v)
    } else {
        v.len()
    };
    vec_sum_lanes(&mut v[..len]);
    let (out, cert) = certified_round_lanes::<L, N>(&mut v[..len]);
    (settle_lanes(out, naive), ok.and(cert))
}

/// Lane version of `Expansion::sqr` for N ≥ 3 (`fast_sqr`: the same list,
/// [`crate::accurate::sqr_list`]).
#[inline(always)]
pub(crate) fn sqr_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let naive = x[0] * x[0];
    let ok = and_finite(naive.finite_mask(), x);
    let len = crate::accurate::sqr_list(x, v);
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let trailing_zero = x[N - 1].mask_eq(zero).all();
    round_product_lanes(&mut v[..len], trailing_zero, naive, ok)
}

/// The larger-magnitude-first order of a pair on lanes (`a` on ties and unordered
/// comparisons), as `accurate::larger_first`.
#[inline(always)]
fn larger_first_lanes<L: MaskedLane>(a: L, b: L) -> (L, L) {
    let c = a.lane_abs().mask_ge(b.lane_abs());
    (L::select(c, a, b), L::select(c, b, a))
}

/// Lane version of `Expansion::add_term_sub(1, y)` for N ≥ 3 (`fast_add_term_sub`: the same
/// list).
#[inline(always)]
pub(crate) fn one_plus_sub_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    y: &[L; N],
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let one = L::splat(<L::Scalar as FloatTerm>::ONE);
    let naive = (x[0] + one) - y[0];
    let ok = and_finite(and_finite(naive.finite_mask(), x), y);
    let (a, b) = larger_first_lanes(x[0], one);
    let (b, d) = larger_first_lanes(b, -y[0]);
    let (a, b) = larger_first_lanes(a, b);
    v[0] = a;
    v[1] = b;
    v[2] = d;
    for i in 1..N {
        let (p, q) = larger_first_lanes(x[i], -y[i]);
        v[2 * i + 1] = p;
        v[2 * i + 2] = q;
    }
    let (out, cert) = certified_round_lanes::<L, N>(&mut v[..2 * N + 1]);
    (settle_lanes(out, naive), ok.and(cert))
}

/// Lane version of `Expansion::mul_term` for N ≥ 3 (`fast_mul_term`: the same list,
/// [`crate::accurate::mul_term_list`]).
#[inline(always)]
pub(crate) fn mul_term_lanes<L: MaskedLane, const N: usize>(
    x: &[L; N],
    t: L,
    v: &mut [L; LIST_CAP],
) -> ([L; N], L::Mask) {
    let naive = x[0] * t;
    let ok = and_finite(naive.finite_mask().and(t.finite_mask()), x);
    let head: &mut [L; 16] = (&mut v[..16]).try_into().expect("LIST_CAP >= 16");
    crate::accurate::mul_term_list(x, t, head);
    let (out, cert) = certified_round_lanes::<L, N>(&mut v[..2 * N]);
    (settle_lanes(out, naive), ok.and(cert))
}

/// The scalar operation `op` on one pair (the reference, and the path of lanes that fail).
/// For the term operations the term is `y`'s leading term.
#[inline(never)]
#[cold]
fn scalar_op<T: FloatTerm, const N: usize>(
    op: AccOp,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    match op {
        AccOp::Add => x.add(y),
        AccOp::Sub => x.sub(y),
        AccOp::Mul => x.mul(y),
        AccOp::Sqr => x.sqr(),
        AccOp::AddTerm => x.add_term(y.terms[0]),
        AccOp::MulTerm => x.mul_term(y.terms[0]),
        AccOp::OnePlusSub => x.add_term_sub(T::ONE, y),
    }
}

/// Recomputes with the scalar operation the lanes of `res` whose mask is false (rare: a
/// failed first-pass certificate or a non-finite value). For the term operations `y[0]` holds
/// the terms.
#[inline(always)]
fn fix_lanes<L: MaskedLane, const N: usize>(
    op: AccOp,
    ok: L::Mask,
    res: &mut [L; N],
    x: &[L; N],
    y: &[L; N],
) {
    if ok.all() {
        return;
    }
    for l in 0..L::WIDTH {
        if !ok.test(l) {
            let xe =
                Expansion::<L::Scalar, N>::from_normalized(core::array::from_fn(|i| x[i].get(l)));
            let ye =
                Expansion::<L::Scalar, N>::from_normalized(core::array::from_fn(|i| y[i].get(l)));
            let r = scalar_op(op, &xe, &ye);
            for (v, &t) in res.iter_mut().zip(&r.terms) {
                v.set(l, t);
            }
        }
    }
}

/// `op` on lanes with the failing lanes fixed: the scalar operation's result in every lane.
#[inline(always)]
pub(crate) fn op_lanes<L: MaskedLane, const N: usize>(op: AccOp, x: &[L; N], y: &[L; N]) -> [L; N] {
    let mut v = [x[0]; LIST_CAP];
    op_lanes_in(op, x, y, &mut v)
}

/// [`op_lanes`] with the term list in `v`, a buffer the caller keeps across operations: a
/// fresh list array per operation was initialised in full (65 items of two registers, 130
/// stores per multiplication at N = 3 where 10 items are used), since the compiler cannot
/// see that the list is written before it is read. The contents of `v` never matter.
#[inline(always)]
pub(crate) fn op_lanes_in<L: MaskedLane, const N: usize>(
    op: AccOp,
    x: &[L; N],
    y: &[L; N],
    v: &mut [L; LIST_CAP],
) -> [L; N] {
    let (mut res, ok) = match op {
        AccOp::Add => add_lanes(x, y, v),
        AccOp::Mul => mul_lanes(x, y, v),
        AccOp::Sqr => sqr_lanes(x, v),
        AccOp::AddTerm => add_term_lanes(x, y[0], v),
        AccOp::MulTerm => mul_term_lanes(x, y[0], v),
        AccOp::OnePlusSub => one_plus_sub_lanes(x, y, v),
        // Not reached: callers pass Add with −y (see `op_slices`).
        AccOp::Sub => unreachable!("op_lanes: Sub is mapped to Add"),
    };
    fix_lanes(op, ok, &mut res, x, y);
    res
}

/// Loads expansions `k0 .. k0 + WIDTH` of the flat `terms` (N terms each) into lanes.
#[inline(always)]
fn load_block<L: MaskedLane, const N: usize>(terms: &[L::Scalar], k0: usize) -> [L; N] {
    let w = L::WIDTH;
    let mut buf = [<L::Scalar as FloatTerm>::ZERO; MAX_WIDTH];
    let mut x = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
    for (i, xi) in x.iter_mut().enumerate() {
        for l in 0..w {
            buf[l] = terms[(k0 + l) * N + i];
        }
        *xi = L::load(&buf[..w]);
    }
    x
}

/// Stores lanes into expansions `k0 .. k0 + WIDTH` of the flat `terms`.
#[inline(always)]
fn store_block<L: MaskedLane, const N: usize>(v: &[L; N], terms: &mut [L::Scalar], k0: usize) {
    let w = L::WIDTH;
    let mut buf = [<L::Scalar as FloatTerm>::ZERO; MAX_WIDTH];
    for i in 0..N {
        v[i].store(&mut buf[..w]);
        for l in 0..w {
            terms[(k0 + l) * N + i] = buf[l];
        }
    }
}

/// Checks the slice lengths of a batched operation: `xs` and `out` hold the same number of
/// N-term expansions; `ys` as many expansions (binary operations), as many terms (term
/// operations), or anything (`Sqr`). Returns the number of operations.
fn check_lengths<T>(op: AccOp, n: usize, xs: &[T], ys: &[T], out: &[T]) -> usize {
    assert!(
        xs.len().is_multiple_of(n) && out.len() == xs.len(),
        "accurate batch: xs and out must hold the same number of {n}-term expansions"
    );
    let count = xs.len() / n;
    match op {
        AccOp::Add | AccOp::Sub | AccOp::Mul | AccOp::OnePlusSub => assert_eq!(
            ys.len(),
            xs.len(),
            "accurate batch: xs and ys differ in length"
        ),
        AccOp::AddTerm | AccOp::MulTerm => assert_eq!(
            ys.len(),
            count,
            "accurate batch: one term per operation expected"
        ),
        AccOp::Sqr => {}
    }
    count
}

/// Operand y of operation k as an expansion (the term in the leading place for the term
/// operations; `x` itself for `Sqr`, unused).
#[inline(always)]
fn operand_y<T: FloatTerm, const N: usize>(op: AccOp, xs: &[T], ys: &[T], k: usize) -> [T; N] {
    match op {
        AccOp::Sqr => core::array::from_fn(|i| xs[k * N + i]),
        AccOp::AddTerm | AccOp::MulTerm => {
            let mut t = [T::ZERO; N];
            t[0] = ys[k];
            t
        }
        _ => core::array::from_fn(|i| ys[k * N + i]),
    }
}

/// The body of the batched operations for one (lane type, N): flat slices as in
/// [`crate::runtime`] (expansion k at `k·N .. (k+1)·N`; for the term operations `ys[k]` is the
/// term). Whole lane groups on lanes, the rest (and every operation for N < 3) scalar. A
/// function of its own for each (lane type, N), called by the run-time dispatchers of
/// [`crate::runtime`]: inlined there, the eight N of a term type made one function that LLVM
/// took about 28 s to optimise.
#[inline(never)]
pub(crate) fn op_slices<L: MaskedLane, const N: usize>(
    op: AccOp,
    xs: &[L::Scalar],
    ys: &[L::Scalar],
    out: &mut [L::Scalar],
) {
    op_slices_with::<L, N>(op, xs, ys, out, op_lanes_in::<L, N>)
}

/// The lane operation as [`op_slices_with`] and [`henon_slices_with`] take it: `op_lanes_in`
/// itself, or (SIMD instances) one out-of-line copy of it per (lane type, N).
pub(crate) trait LaneOp<L, const N: usize>:
    Fn(AccOp, &[L; N], &[L; N], &mut [L; LIST_CAP]) -> [L; N]
{
}

impl<L, const N: usize, F: Fn(AccOp, &[L; N], &[L; N], &mut [L; LIST_CAP]) -> [L; N]> LaneOp<L, N>
    for F
{
}

/// [`op_slices`] with the lane operation given: the SIMD instances pass their out-of-line
/// copy, so that the operation bodies are compiled once per (lane type, N) and shared with
/// the Hénon iteration.
#[inline(always)]
pub(crate) fn op_slices_with<L: MaskedLane, const N: usize>(
    op: AccOp,
    xs: &[L::Scalar],
    ys: &[L::Scalar],
    out: &mut [L::Scalar],
    lane_op: impl LaneOp<L, N>,
) {
    let count = check_lengths(op, N, xs, ys, out);
    let w = L::WIDTH;
    let full = if N >= 3 { count / w * w } else { 0 };
    let mut list = [L::splat(<L::Scalar as FloatTerm>::ZERO); LIST_CAP];
    let mut k0 = 0;
    while k0 < full {
        let x = load_block::<L, N>(xs, k0);
        let y = match op {
            AccOp::Sqr => x,
            AccOp::AddTerm | AccOp::MulTerm => {
                let mut y = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
                y[0] = L::load(&ys[k0..k0 + w]);
                y
            }
            _ => load_block::<L, N>(ys, k0),
        };
        // x.sub(y) is x.add(−y), bit for bit (accurate.rs): one lane body for both keeps
        // the compiled code small.
        let (op_on_lanes, y) = match op {
            AccOp::Sub => (AccOp::Add, neg_lanes(&y)),
            other => (other, y),
        };
        let r = lane_op(op_on_lanes, &x, &y, &mut list);
        store_block(&r, out, k0);
        k0 += w;
    }
    for k in full..count {
        let x = Expansion::<L::Scalar, N>::from_normalized(core::array::from_fn(|i| xs[k * N + i]));
        let y = Expansion::<L::Scalar, N>::from_normalized(operand_y::<_, N>(op, xs, ys, k));
        let r = scalar_op(op, &x, &y);
        out[k * N..(k + 1) * N].copy_from_slice(&r.terms);
    }
}

/// One accurate Hénon step of every lane, in the order of [`crate::henon_step`] on
/// `Expansion<_, N>`: x² = x.sqr(); t = x².mul(a); x' = y.add_term_sub(1, t); y' = x.mul(b).
#[inline(always)]
fn henon_step_lanes<L: MaskedLane, const N: usize>(
    pa: &[L; N],
    pb: &[L; N],
    x: &mut [L; N],
    y: &mut [L; N],
    v: &mut [L; LIST_CAP],
    lane_op: &impl LaneOp<L, N>,
) {
    let x2 = lane_op(AccOp::Sqr, x, x, v);
    let t = lane_op(AccOp::Mul, &x2, pa, v);
    let nx = lane_op(AccOp::OnePlusSub, y, &t, v);
    let ny = lane_op(AccOp::Mul, x, pb, v);
    *x = nx;
    *y = ny;
}

/// The body of the batched accurate Hénon iteration for one (lane type, N ≥ 3), with the lane
/// operation given (see [`op_slices_with`]): flat slices, every orbit at (a, b); whole lane
/// groups on lanes, the rest through [`henon_scalar_slices`] (same results).
#[inline(always)]
pub(crate) fn henon_slices_with<L: MaskedLane, const N: usize>(
    a: &[L::Scalar],
    b: &[L::Scalar],
    xs: &mut [L::Scalar],
    ys: &mut [L::Scalar],
    steps: u64,
    lane_op: impl LaneOp<L, N>,
) {
    assert!(
        a.len() == N && b.len() == N && xs.len().is_multiple_of(N) && ys.len() == xs.len(),
        "accurate Hénon batch: a and b are one {N}-term expansion, xs and ys as many each"
    );
    let count = xs.len() / N;
    let w = L::WIDTH;
    let full = if N >= 3 { count / w * w } else { 0 };
    let pa: [L; N] = core::array::from_fn(|i| L::splat(a[i]));
    let pb: [L; N] = core::array::from_fn(|i| L::splat(b[i]));
    let mut list = [L::splat(<L::Scalar as FloatTerm>::ZERO); LIST_CAP];
    let mut k0 = 0;
    while k0 < full {
        let mut x = load_block::<L, N>(xs, k0);
        let mut y = load_block::<L, N>(ys, k0);
        for _ in 0..steps {
            henon_step_lanes(&pa, &pb, &mut x, &mut y, &mut list, &lane_op);
        }
        store_block(&x, xs, k0);
        store_block(&y, ys, k0);
        k0 += w;
    }
    henon_scalar_slices::<L::Scalar, N>(a, b, &mut xs[full * N..], &mut ys[full * N..], steps);
}

/// The scalar accurate Hénon iteration of every orbit in turn (flat slices as in
/// [`henon_slices_with`]): the one-orbit-at-a-time reference of the batched iteration, its
/// path for N < 3, and the run-time entry point
/// [`crate::runtime::henon_iterate_accurate_scalar_f64`].
pub(crate) fn henon_scalar_slices<T: FloatTerm, const N: usize>(
    a: &[T],
    b: &[T],
    xs: &mut [T],
    ys: &mut [T],
    steps: u64,
) {
    assert!(
        a.len() == N && b.len() == N && xs.len().is_multiple_of(N) && ys.len() == xs.len(),
        "accurate Hénon iteration: a and b are one {N}-term expansion, xs and ys as many each"
    );
    let ae = Expansion::<T, N>::from_normalized(core::array::from_fn(|i| a[i]));
    let be = Expansion::<T, N>::from_normalized(core::array::from_fn(|i| b[i]));
    for (xk, yk) in xs.chunks_exact_mut(N).zip(ys.chunks_exact_mut(N)) {
        let x = Expansion::<T, N>::from_normalized(core::array::from_fn(|i| xk[i]));
        let y = Expansion::<T, N>::from_normalized(core::array::from_fn(|i| yk[i]));
        let (nx, ny) = scalar_henon(&ae, &be, &x, &y, steps);
        xk.copy_from_slice(&nx.terms);
        yk.copy_from_slice(&ny.terms);
    }
}

/// [`crate::henon_iterate`] on `Expansion<f64, N>` for every orbit (xs[k], ys[k]) in turn at
/// (a, b): the accurate tier one orbit at a time, through the run-time-N instance compiled in
/// this crate (so that a caller measuring it does not compile the tier again).
pub fn henon_iterate_accurate_scalar_f64<const N: usize>(
    a: &Expansion<f64, N>,
    b: &Expansion<f64, N>,
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) {
    use crate::runtime::terms_of_mut;
    crate::runtime::henon_iterate_accurate_scalar_f64(
        N,
        a.terms(),
        b.terms(),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    )
}

/// The scalar accurate Hénon iteration of one orbit (kept out of line).
#[inline(never)]
fn scalar_henon<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
    steps: u64,
) -> (Expansion<T, N>, Expansion<T, N>) {
    crate::henon_iterate(a, b, x, y, steps)
}

/// Term types with batched accurate operations (f64 and f32): the hook to the instances in
/// [`crate::runtime`].
pub trait AccurateBatchTerm: FloatTerm {
    /// `op` on `n`-term expansions given as flat slices (see [`crate::runtime`]).
    fn accurate_op_terms(op: AccOp, n: usize, xs: &[Self], ys: &[Self], out: &mut [Self]);
}

impl AccurateBatchTerm for f64 {
    fn accurate_op_terms(op: AccOp, n: usize, xs: &[f64], ys: &[f64], out: &mut [f64]) {
        crate::runtime::accurate_op_f64(op, n, xs, ys, out)
    }
}

impl AccurateBatchTerm for f32 {
    fn accurate_op_terms(op: AccOp, n: usize, xs: &[f32], ys: &[f32], out: &mut [f32]) {
        crate::runtime::accurate_op_f32(op, n, xs, ys, out)
    }
}

fn typed<T: AccurateBatchTerm, const N: usize>(
    op: AccOp,
    xs: &[Expansion<T, N>],
    ys: &[T],
    out: &mut [Expansion<T, N>],
) {
    use crate::runtime::{terms_of, terms_of_mut};
    T::accurate_op_terms(op, N, terms_of(xs), ys, terms_of_mut(out))
}

/// `out[k] = xs[k].add(&ys[k])`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn add_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    ys: &[Expansion<T, N>],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::Add, xs, crate::runtime::terms_of(ys), out)
}

/// `out[k] = xs[k].sub(&ys[k])`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn sub_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    ys: &[Expansion<T, N>],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::Sub, xs, crate::runtime::terms_of(ys), out)
}

/// `out[k] = xs[k].mul(&ys[k])`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn mul_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    ys: &[Expansion<T, N>],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::Mul, xs, crate::runtime::terms_of(ys), out)
}

/// `out[k] = xs[k].sqr()`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn sqr_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::Sqr, xs, &[], out)
}

/// `out[k] = xs[k].add_term(ts[k])`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn add_term_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    ts: &[T],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::AddTerm, xs, ts, out)
}

/// `out[k] = xs[k].mul_term(ts[k])`, bit for bit, on SIMD lanes (N ≥ 3).
pub fn mul_term_batch<T: AccurateBatchTerm, const N: usize>(
    xs: &[Expansion<T, N>],
    ts: &[T],
    out: &mut [Expansion<T, N>],
) {
    typed(AccOp::MulTerm, xs, ts, out)
}

/// Iterates every orbit (xs[k], ys[k]) `steps` times at (a, b) with the accurate tier, on the
/// widest SIMD this CPU has: the same results, bit for bit, as [`crate::henon_iterate`] on
/// `Expansion<f64, N>` per orbit.
pub fn henon_iterate_accurate_batch_f64<const N: usize>(
    a: &Expansion<f64, N>,
    b: &Expansion<f64, N>,
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) {
    // The detected level is always available.
    let _ = henon_iterate_accurate_batch_f64_at(SimdLevel::detect(), a, b, xs, ys, steps);
}

/// [`henon_iterate_accurate_batch_f64`] at a chosen SIMD level (tests and benchmarks);
/// refuses a level this CPU lacks.
pub fn henon_iterate_accurate_batch_f64_at<const N: usize>(
    level: SimdLevel,
    a: &Expansion<f64, N>,
    b: &Expansion<f64, N>,
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    use crate::runtime::terms_of_mut;
    crate::runtime::henon_iterate_accurate_batch_f64_at(
        level,
        N,
        a.terms(),
        b.terms(),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    )
}

/// The AVX2 instances (two registers per term), one function per N: kept out of line so that
/// LLVM optimises each N on its own instead of all six inlined into the run-time dispatcher
/// (`crate::runtime`), which cost far more build time for the same code.
pub(crate) mod wide {
    use super::{AccOp, LIST_CAP};
    use crate::batch::{F64Lanes, Wide};

    type W = Wide<F64Lanes, 2>;

    /// The lane operation, out of line: one compiled copy per N, called by the batched
    /// operations and (five times per step) by the Hénon iteration. Inlined into both, with
    /// the operation a constant at each Hénon call site, it cost LLVM minutes of the build
    /// (its loop passes run over the whole inlined body once per small loop) for a call
    /// per 8 lanes' N-term operation.
    #[inline(never)]
    fn lane_op<const N: usize>(op: AccOp, x: &[W; N], y: &[W; N], v: &mut [W; LIST_CAP]) -> [W; N] {
        super::op_lanes_in(op, x, y, v)
    }

    #[inline(never)]
    pub(crate) fn op_slices<const N: usize>(op: AccOp, xs: &[f64], ys: &[f64], out: &mut [f64]) {
        super::op_slices_with::<W, N>(op, xs, ys, out, lane_op::<N>)
    }

    #[inline(never)]
    pub(crate) fn henon_slices<const N: usize>(
        a: &[f64],
        b: &[f64],
        xs: &mut [f64],
        ys: &mut [f64],
        steps: u64,
    ) {
        super::henon_slices_with::<W, N>(a, b, xs, ys, steps, lane_op::<N>)
    }
}

/// The AVX-512 instances: everything inlined into functions compiled with AVX-512F.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use super::{AccOp, LIST_CAP};
    use crate::avx512::F64x8;
    use crate::batch::Wide;

    type W = Wide<F64x8, 2>;

    /// The lane operation, out of line and compiled with AVX-512F (see `wide::lane_op`).
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    unsafe fn lane_op<const N: usize>(
        op: AccOp,
        x: &[W; N],
        y: &[W; N],
        v: &mut [W; LIST_CAP],
    ) -> [W; N] {
        super::op_lanes_in(op, x, y, v)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(crate) unsafe fn op_slices<const N: usize>(
        op: AccOp,
        xs: &[f64],
        ys: &[f64],
        out: &mut [f64],
    ) {
        // SAFETY: this function's own precondition (AVX-512F).
        super::op_slices_with::<W, N>(op, xs, ys, out, |o, x, y, v| unsafe {
            lane_op::<N>(o, x, y, v)
        })
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(crate) unsafe fn henon_slices<const N: usize>(
        a: &[f64],
        b: &[f64],
        xs: &mut [f64],
        ys: &mut [f64],
        steps: u64,
    ) {
        // SAFETY: this function's own precondition (AVX-512F).
        super::henon_slices_with::<W, N>(a, b, xs, ys, steps, |o, x, y, v| unsafe {
            lane_op::<N>(o, x, y, v)
        })
    }
}
