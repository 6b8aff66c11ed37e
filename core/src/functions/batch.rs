//! Batched evaluation of the elementary functions over slices, on SIMD lanes: many arguments
//! at once, each result bit for bit the scalar [`super::eval_unary`] of its argument (so the
//! stated error bounds of [`super::error_bound`] carry over unchanged).
//!
//! Why: one argument at a time the functions are bound by the latency and the data-dependent
//! branches of the accurate tier's operations; a user who evaluates a function over an array
//! should get vector speed, as the batched Hénon tiers ([`crate::batch`],
//! [`crate::accurate_batch`]) do.
//!
//! How, and why the results are identical: a vectorised function is split into
//! - a *scalar prologue* per argument: the special values (NaN, ±∞, ±0, overflow, underflow:
//!   the scalar function's result, written at once) and the argument reduction with the same
//!   helpers the scalar function calls (`exp_log::exp_reduce`, `trig_reduce::reduce`,
//!   `exp_log::scaled_sum`, the plans `exp_log::doublings`, `trig::sin_kernel_plan`);
//! - a *lane core*: the polynomial and doubling/tripling steps on lanes (lane l is argument
//!   l), with the accurate tier's operations at exactly the term counts M and in exactly the
//!   order of the scalar code: M ≥ 3 by [`crate::accurate_batch`]'s lane operations (each lane
//!   the scalar operation, failing lanes recomputed in scalar), M = 2 by the double-word
//!   algorithms of [`crate::dw`] on lanes (the same functions, generic over lanes, with the
//!   scalar `settle` conditions as a mask; a lane outside them — non-finite, or a zero result
//!   — is recomputed by the scalar operation), M = 1 by the lane-wise IEEE operation (what the scalar N = 1
//!   operations are). Steps whose count depends on the argument (exp's doublings s, sin's
//!   Horner steps J and triplings k) run the largest count of the lane group and each lane
//!   keeps, by a mask select, the result after its own count, so its sequence of operations
//!   is its scalar one (likewise ln's Newton steps, and per-lane table indices);
//! - a *scalar epilogue*: exp's scaling by 2^k (`exp_log::scale`), sin/cos's quadrant
//!   (`trig::quadrant`, with its cos r = √(1 − s²) where the quadrant needs it), ln's
//!   ℓ + k·ln 2 (`exp_log::sub_k_ln2`).
//!
//! Compile time: the operations at M ≥ 3 terms, the exp_m1 core, the ln_1p core and exp of
//! a lane group are compiled once per (lane type, terms), out of line (`FnLane`); the rest
//! is inlined into one function per (lane type, N).
//!
//! Vectorised (f64 terms, on AVX2 lanes or AVX-512 lanes when the CPU has them): **exp**
//! (N = 1, 2; N = 1 is computed at N = 2 and rounded, as the scalar function does; at N ≥ 3
//! the scalar fixed-point exp of [`super::fixed`] per argument, faster than the lane core),
//! **sin**, **cos** (every N; at N = 2 the table reduction's two series and its combination
//! on lanes, `sin_cos_table_block`), **ln** and **ln_1p** (N ≥ 3: the ln_1p core with its seed at
//! fewer terms and the Newton steps on lanes, each lane stopping at its own convergence
//! check; the division of each step per lane in scalar; at N ≤ 2 the scalar functions are as
//! fast), **exp_m1**
//! (N ≥ 2: arguments with |x₀| < 1/2 through the general core on lanes, the others through
//! exp on lanes, each class gathered into full lane groups), **sinh**, **cosh**, **tanh**
//! (N ≥ 2: their exp_m1 or exp on lanes, the rest — a division — per argument in scalar,
//! `hyperbolic::hyp_plan` / `hyp_finish`; N = 1 runs at N = 2 in the scalar functions). Every
//! other function, and f32 terms (which have no SIMD lane type in the accurate tier yet, see
//! [`crate::runtime::accurate_op_f32`]), runs the scalar function in a loop: the same
//! results, without the speed-up. A partial lane group at the end of a slice
//! runs on lanes with its unused lanes idle.
//!
//! Entry points: [`eval_unary_batch_f64`] / [`eval_unary_batch_f32`] over flat term slices
//! (element i at `i·n .. i·n + n`, as [`crate::accurate_batch`]), [`eval_unary_batch_f64_at`]
//! at a chosen SIMD level (tests), and the typed [`eval_unary_batch`]. The (N, lane type)
//! instances are compiled once, here, behind the run-time N. Checked bit for bit against the
//! scalar functions in `tests/it/functions_batch.rs`.

use super::constants::{exp_j256, expm1_j256, inv_fact, series_coef, Series, EXP_TABLE_J};
use super::seeds::{ln_1p_seed, pow2};
use super::{exp_log, trig, Unary};
use crate::accurate_batch::{op_lanes, AccOp};
use crate::batch::{LaneMask, MaskedLane, SimdLevel, SimdUnavailable};
use crate::eft::fast_two_sum;
use crate::expansion::{Expansion, MAX_TERMS};
use crate::float::FloatTerm;
use crate::runtime::{expansions, expansions_mut, with_terms};

type E<T, const N: usize> = Expansion<T, N>;

/// Largest lane width used here (`F64x8`).
const MAX_WIDTH: usize = 8;

/// The accurate operations the lane cores use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `x.add(y)` (`x.sub(y)` is `x.add(−y)`, bit for bit)
    Add,
    /// `x.mul(y)`
    Mul,
    /// `x.sqr()` (`y` is `x`; at N ≤ 2 this is `x.mul(x)`, from N = 3 its own term list)
    Sqr,
    /// `x.add_term(y[0])`
    AddTerm,
}

/// The scalar operation on one lane's operands (the path of lanes the lane code leaves to
/// it).
#[cold]
#[inline(never)]
fn scalar_op<T: FloatTerm, const M: usize>(op: Op, x: &E<T, M>, y: &E<T, M>) -> E<T, M> {
    match op {
        Op::Add => x.add(y),
        Op::Mul => x.mul(y),
        Op::Sqr => x.sqr(),
        Op::AddTerm => x.add_term(y.terms()[0]),
    }
}

/// The N = 2 operation on lanes (M must be 2; written over M so that it type-checks in the
/// other instances, where it is never reached). A lane whose operands or result are not
/// finite, or whose result is zero (where the scalar `settle` would change the terms), is
/// recomputed by the scalar operation.
#[inline(always)]
fn op_dw<L: MaskedLane, const M: usize>(op: Op, x: &[L; M], y: &[L; M]) -> [L; M] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let (x0, x1) = (x[0], x[M - 1]);
    let (y0, y1) = match op {
        Op::AddTerm => (y[0], zero),
        _ => (y[0], y[M - 1]),
    };
    let (naive, (h, l)) = match op {
        Op::Mul | Op::Sqr => (x0 * y0, crate::dw::mul_dw((x0, x1), (y0, y1))),
        _ => (x0 + y0, crate::dw::add_dw((x0, x1), (y0, y1))),
    };
    let ok = x0
        .finite_mask()
        .and(x1.finite_mask())
        .and(y0.finite_mask())
        .and(y1.finite_mask())
        .and(naive.finite_mask())
        .and(h.finite_mask())
        .and(l.finite_mask())
        .and(h.mask_ne(zero));
    let mut res = [zero; M];
    res[0] = h;
    res[M - 1] = l;
    fix_lanes(op, ok, &mut res, x, y);
    res
}

/// Recomputes with the scalar operation the lanes of `res` whose mask is false.
#[inline(always)]
fn fix_lanes<L: MaskedLane, const M: usize>(
    op: Op,
    ok: L::Mask,
    res: &mut [L; M],
    x: &[L; M],
    y: &[L; M],
) {
    if ok.all() {
        return;
    }
    for l in 0..L::WIDTH {
        if !ok.test(l) {
            let xe = E::<L::Scalar, M>::from_normalized(lane_terms(x, l));
            let ye = E::<L::Scalar, M>::from_normalized(lane_terms(y, l));
            let r = scalar_op(op, &xe, &ye);
            for (v, &t) in res.iter_mut().zip(r.terms()) {
                v.set(l, t);
            }
        }
    }
}

/// The accurate operation `op` at M terms on lanes: every lane the scalar
/// `Expansion<T, M>` operation's result (module doc). For [`Op::AddTerm`] the term is `y[0]`
/// and the other terms of `y` are zero.
#[inline(always)]
fn op_m<L: FnLane, const M: usize>(op: Op, x: &[L; M], y: &[L; M]) -> [L; M] {
    if const { M == 1 } {
        // The N = 1 operations are the IEEE ones on the leading terms.
        let mut r = *x;
        r[0] = match op {
            Op::Mul | Op::Sqr => x[0] * y[0],
            Op::Add | Op::AddTerm => x[0] + y[0],
        };
        return r;
    }
    if const { M == 2 } {
        return op_dw(op, x, y);
    }
    L::op_acc::<M>(op, x, y)
}

/// The accurate operation at M ≥ 3 terms on lanes ([`crate::accurate_batch`]'s lane
/// operations, failing lanes fixed by the scalar operation).
#[inline(always)]
fn acc_op<L: MaskedLane, const M: usize>(op: Op, x: &[L; M], y: &[L; M]) -> [L; M] {
    let acc = match op {
        Op::Add => AccOp::Add,
        Op::Mul => AccOp::Mul,
        Op::Sqr => AccOp::Sqr,
        Op::AddTerm => AccOp::AddTerm,
    };
    op_lanes::<L, M>(acc, x, y)
}

/// The lane types of the batched functions, with the M ≥ 3 operations compiled once per
/// (lane type, M) out of line: inlined at every call site, the operations made the release
/// build of the library about twice as long, for no measurable speed (each operation is
/// hundreds of instructions). The same holds for the larger pieces used at several places (the exp_m1 core, the ln_1p
/// core).
pub(crate) trait FnLane: MaskedLane {
    /// [`acc_op`] at M ≥ 3 terms.
    fn op_acc<const M: usize>(op: Op, x: &[Self; M], y: &[Self; M]) -> [Self; M];
    /// [`expm1_core_lanes`].
    fn expm1_core<const N: usize>(
        rp: &[Self; N],
        s: Self,
        s_max: i32,
        zero: Self::Mask,
        emax: i32,
    ) -> [Self; N];
    /// [`ln1p_core_lanes`].
    fn ln1p_core<const N: usize>(w: &[Self; N], live: &[bool; MAX_WIDTH]) -> [Self; N];
    /// [`exp_block`].
    fn exp_block<const N: usize>(xs: &[E<Self::Scalar, N>], out: &mut [E<Self::Scalar, N>]);
    // The slice loops of the vectorised functions, one out-of-line instance per (lane type,
    // N, function family): inlined into one dispatcher per SIMD level they made it the
    // largest function of the crate (about 90 s of LLVM's time in the release build, alone
    // on one core); apart, they are optimised separately and in parallel.
    /// [`expm1_vec`].
    fn expm1_slices<const N: usize>(xs: &[E<Self::Scalar, N>], out: &mut [E<Self::Scalar, N>]);
    /// [`hyp_vec`].
    fn hyp_slices<const N: usize>(
        f: Unary,
        xs: &[E<Self::Scalar, N>],
        out: &mut [E<Self::Scalar, N>],
    );
    /// [`ln_block`] over a slice.
    fn ln_slices<const N: usize>(
        f: Unary,
        xs: &[E<Self::Scalar, N>],
        out: &mut [E<Self::Scalar, N>],
    );
    /// [`sin_cos_block`] over a slice.
    fn sin_cos_slices<const N: usize>(
        f: Unary,
        xs: &[E<Self::Scalar, N>],
        out: &mut [E<Self::Scalar, N>],
    );
    /// [`sin_cos_table_block`] over a slice.
    fn sin_cos_table_slices<const N: usize>(
        f: Unary,
        xs: &[E<Self::Scalar, N>],
        out: &mut [E<Self::Scalar, N>],
    );
}

/// `$block::<L, N>(f, chunk, out chunk)` over `xs` in groups of `L::WIDTH`. A macro, not a
/// function taking the block as `impl Fn`: the call through the `Fn` shim was compiled as a
/// function of its own, outside the AVX-512 `#[target_feature]` wrappers below.
macro_rules! by_blocks {
    ($block:ident::<$L:ty, $N:ident>($f:expr, $xs:expr, $out:expr)) => {
        for (xc, oc) in $xs
            .chunks(<$L as crate::batch::Lane>::WIDTH)
            .zip($out.chunks_mut(<$L as crate::batch::Lane>::WIDTH))
        {
            $block::<$L, $N>($f, xc, oc);
        }
    };
}

impl FnLane for crate::batch::F64Lanes {
    #[inline(never)]
    fn op_acc<const M: usize>(op: Op, x: &[Self; M], y: &[Self; M]) -> [Self; M] {
        acc_op::<Self, M>(op, x, y)
    }
    #[inline(never)]
    fn expm1_core<const N: usize>(
        rp: &[Self; N],
        s: Self,
        s_max: i32,
        zero: Self::Mask,
        emax: i32,
    ) -> [Self; N] {
        expm1_core_lanes::<Self, N>(rp, s, s_max, zero, emax)
    }
    #[inline(never)]
    fn ln1p_core<const N: usize>(w: &[Self; N], live: &[bool; MAX_WIDTH]) -> [Self; N] {
        ln1p_core_lanes::<Self, N>(w, live)
    }
    #[inline(never)]
    fn exp_block<const N: usize>(xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        exp_block::<Self, N>(xs, out)
    }
    #[inline(never)]
    fn expm1_slices<const N: usize>(xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        expm1_vec::<Self, N>(xs, out)
    }
    #[inline(never)]
    fn hyp_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        hyp_vec::<Self, N>(f, xs, out)
    }
    #[inline(never)]
    fn ln_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        by_blocks!(ln_block::<Self, N>(f, xs, out))
    }
    #[inline(never)]
    fn sin_cos_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        by_blocks!(sin_cos_block::<Self, N>(f, xs, out))
    }
    #[inline(never)]
    fn sin_cos_table_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        by_blocks!(sin_cos_table_block::<Self, N>(f, xs, out))
    }
}

// SAFETY (every method): F64x8 values exist only inside the AVX-512 instances of this
// module (`avx512::unary_slices`), which run after AVX-512F was detected.
#[cfg(target_arch = "x86_64")]
impl FnLane for crate::avx512::F64x8 {
    #[inline(always)]
    fn op_acc<const M: usize>(op: Op, x: &[Self; M], y: &[Self; M]) -> [Self; M] {
        unsafe { avx512::op_acc::<M>(op, x, y) }
    }
    #[inline(always)]
    fn expm1_core<const N: usize>(
        rp: &[Self; N],
        s: Self,
        s_max: i32,
        zero: Self::Mask,
        emax: i32,
    ) -> [Self; N] {
        unsafe { avx512::expm1_core::<N>(rp, s, s_max, zero, emax) }
    }
    #[inline(always)]
    fn ln1p_core<const N: usize>(w: &[Self; N], live: &[bool; MAX_WIDTH]) -> [Self; N] {
        unsafe { avx512::ln1p_core::<N>(w, live) }
    }
    #[inline(always)]
    fn exp_block<const N: usize>(xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::exp_block::<N>(xs, out) }
    }
    #[inline(always)]
    fn expm1_slices<const N: usize>(xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::expm1_slices::<N>(xs, out) }
    }
    #[inline(always)]
    fn hyp_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::hyp_slices::<N>(f, xs, out) }
    }
    #[inline(always)]
    fn ln_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::ln_slices::<N>(f, xs, out) }
    }
    #[inline(always)]
    fn sin_cos_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::sin_cos_slices::<N>(f, xs, out) }
    }
    #[inline(always)]
    fn sin_cos_table_slices<const N: usize>(f: Unary, xs: &[E<f64, N>], out: &mut [E<f64, N>]) {
        unsafe { avx512::sin_cos_table_slices::<N>(f, xs, out) }
    }
}

#[inline(always)]
fn add<L: FnLane, const M: usize>(x: &[L; M], y: &[L; M]) -> [L; M] {
    op_m(Op::Add, x, y)
}

#[inline(always)]
fn mul<L: FnLane, const M: usize>(x: &[L; M], y: &[L; M]) -> [L; M] {
    op_m(Op::Mul, x, y)
}

#[inline(always)]
fn sqr<L: FnLane, const M: usize>(x: &[L; M]) -> [L; M] {
    op_m(Op::Sqr, x, x)
}

#[inline(always)]
fn add_term<L: FnLane, const M: usize>(x: &[L; M], t: L::Scalar) -> [L; M] {
    op_m(Op::AddTerm, x, &term::<L, M>(t))
}

/// The expansion (t, 0, …, 0) in every lane.
#[inline(always)]
fn term<L: MaskedLane, const M: usize>(t: L::Scalar) -> [L; M] {
    let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); M];
    v[0] = L::splat(t);
    v
}

// No closures in the lane code: a closure is compiled as its own function with the features
// of its lexical parent (no AVX-512), and where LLVM does not inline it the intrinsics it
// calls stay out of line.

/// The constant expansion `c` in every lane.
#[inline(always)]
fn splat_e<L: MaskedLane, const M: usize>(c: &E<L::Scalar, M>) -> [L; M] {
    let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); M];
    for (o, &t) in v.iter_mut().zip(c.terms()) {
        *o = L::splat(t);
    }
    v
}

/// Per lane `a` where `m`, else `b`.
#[inline(always)]
fn select_e<L: MaskedLane, const M: usize>(m: L::Mask, a: &[L; M], b: &[L; M]) -> [L; M] {
    let mut v = *b;
    for i in 0..M {
        v[i] = L::select(m, a[i], b[i]);
    }
    v
}

/// −x on lanes.
#[inline(always)]
fn neg_e<L: MaskedLane, const M: usize>(x: &[L; M]) -> [L; M] {
    let mut v = *x;
    for t in v.iter_mut() {
        *t = -*t;
    }
    v
}

/// Per-lane expansions (lane l from `v[l]`; lanes beyond `v` are zero) as lanes.
#[inline(always)]
fn load_e<L: MaskedLane, const M: usize>(v: &[[L::Scalar; M]]) -> [L; M] {
    let mut buf = [<L::Scalar as FloatTerm>::ZERO; MAX_WIDTH];
    let mut out = [L::splat(<L::Scalar as FloatTerm>::ZERO); M];
    for (i, o) in out.iter_mut().enumerate() {
        for (b, e) in buf.iter_mut().zip(v) {
            *b = e[i];
        }
        *o = L::load(&buf[..L::WIDTH]);
    }
    out
}

/// Lanes of a per-lane count (as floats, for mask comparisons).
#[inline(always)]
fn load_count<L: MaskedLane>(c: &[i32; MAX_WIDTH]) -> L {
    let mut buf = [<L::Scalar as FloatTerm>::ZERO; MAX_WIDTH];
    for (b, &v) in buf.iter_mut().zip(c) {
        *b = <L::Scalar as FloatTerm>::from_f64(v as f64);
    }
    L::load(&buf[..L::WIDTH])
}

/// [`FnLane::expm1_core`] at exp's `EXP_EMAX` from the scalar prologue's per-lane doubling
/// counts `s` and zero flags `zs` (non-zero where the reduced argument is zero).
#[inline(always)]
fn expm1_core_counts<L: FnLane, const N: usize>(
    rp: &[L; N],
    s: &[i32; MAX_WIDTH],
    zs: &[i32; MAX_WIDTH],
) -> [L; N] {
    let s_max = s.iter().copied().max().unwrap_or(0);
    let zero = load_count::<L>(zs).mask_ne(L::splat(<L::Scalar as FloatTerm>::ZERO));
    L::expm1_core::<N>(rp, load_count::<L>(s), s_max, zero, exp_log::EXP_EMAX)
}

/// Lane l of `v` as terms.
#[inline(always)]
fn lane_terms<L: MaskedLane, const M: usize>(v: &[L; M], l: usize) -> [L::Scalar; M] {
    let mut t = [<L::Scalar as FloatTerm>::ZERO; M];
    for i in 0..M {
        t[i] = v[i].get(l);
    }
    t
}

/// Mask of the lanes whose count is at least `k`.
#[inline(always)]
fn count_ge<L: MaskedLane>(c: L, k: usize) -> L::Mask {
    c.mask_ge(L::splat(<L::Scalar as FloatTerm>::from_f64(k as f64)))
}

// ---------------------------------------------------------------------------------------
// exp

/// Horner steps q ← q·r′ + c at M terms on lanes: `exp_log::horner_stage` lane-wise.
#[inline(always)]
fn horner_stage_lanes<L: FnLane, const M: usize>(
    q: &mut [L; MAX_TERMS],
    rp: &[L; MAX_TERMS],
    cs: &[f64],
) {
    let mut r = [rp[0]; M];
    r.copy_from_slice(&rp[..M]);
    if const { M == 2 } {
        let (h, l) = fast_two_sum(r[0], r[M - 1]);
        r[0] = h;
        r[M - 1] = l;
    }
    let mut qm = [q[0]; M];
    qm.copy_from_slice(&q[..M]);
    for &ck in cs.iter().rev() {
        qm = add_term(&mul(&qm, &r), <L::Scalar as FloatTerm>::from_f64(ck));
    }
    q[..M].copy_from_slice(&qm);
}

/// The exp_m1 core (`exp_log::expm1_core_plan` at `emax`: `EXP_EMAX` after exp's table
/// step, −1 for the general core; exp's own core at f64 N = 2 is
/// [`expm1_exp_estrin_lanes`]) on lanes, for
/// r′ = r̂·2^{−s} (`rp`), each lane's doubling count `s` (at most `s_max`), and the lanes
/// whose r̂ is zero (`zero`: the result is r̂ itself).
#[inline(always)]
fn expm1_core_lanes<L: FnLane, const N: usize>(
    rp: &[L; N],
    s: L,
    s_max: i32,
    zero: L::Mask,
    emax: i32,
) -> [L; N] {
    let t_zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let (d, sig) = exp_log::cached_params::<L::Scalar>(N, emax);
    let mut c = [0.0f64; 20];
    c[d] = 1.0;
    for k in (1..d).rev() {
        c[k] = c[k + 1] * (k + 1) as f64;
    }
    let mut qa = [t_zero; MAX_TERMS];
    qa[0] = L::splat(<L::Scalar as FloatTerm>::ONE);
    let mut ra = [t_zero; MAX_TERMS];
    ra[..N].copy_from_slice(rp);
    let mut k = d - 1;
    while k >= 1 {
        let m = exp_log::horner_terms::<L::Scalar>(N, sig, k);
        let mut lo = k;
        while lo > 1 && exp_log::horner_terms::<L::Scalar>(N, sig, lo - 1) == m {
            lo -= 1;
        }
        let cs = &c[lo..=k];
        // M ≤ N always (horner_terms clamps); the guards keep larger M out of the instance.
        match m {
            1 => horner_stage_lanes::<L, 1>(&mut qa, &ra, cs),
            2 => horner_stage_lanes::<L, 2>(&mut qa, &ra, cs),
            3 if const { N >= 3 } => horner_stage_lanes::<L, 3>(&mut qa, &ra, cs),
            4 if const { N >= 4 } => horner_stage_lanes::<L, 4>(&mut qa, &ra, cs),
            5 if const { N >= 5 } => horner_stage_lanes::<L, 5>(&mut qa, &ra, cs),
            6 if const { N >= 6 } => horner_stage_lanes::<L, 6>(&mut qa, &ra, cs),
            7 if const { N >= 7 } => horner_stage_lanes::<L, 7>(&mut qa, &ra, cs),
            8 if const { N >= 8 } => horner_stage_lanes::<L, 8>(&mut qa, &ra, cs),
            _ => unreachable!("Horner stage at more terms than N"),
        }
        k = lo - 1;
    }
    let mut q = [qa[0]; N];
    q.copy_from_slice(&qa[..N]);
    let f = splat_e(&inv_fact::<L::Scalar, N>(d));
    let mut m = mul(&mul(&q, rp), &f);
    let two = <L::Scalar as FloatTerm>::from_f64(2.0);
    for it in 0..s_max.max(0) as usize {
        let next = mul(&m, &add_term(&m, two));
        m = select_e(count_ge(s, it + 1), &next, &m);
    }
    select_e(zero, rp, &m)
}

/// `exp_log::expm1_exp_estrin` on lanes (f64 N = 2): the same operations in the same order.
#[inline(always)]
fn expm1_exp_estrin_lanes<L: FnLane, const N: usize>(r: &[L; N]) -> [L; N] {
    let sc = |v: f64| L::splat(<L::Scalar as FloatTerm>::from_f64(v));
    let hc = exp_log::EXP_ESTRIN_H;
    let r0 = r[0];
    let h = sc(hc[4])
        .mul_add(r0, sc(hc[3]))
        .mul_add(r0, sc(hc[2]))
        .mul_add(r0, sc(hc[1]))
        .mul_add(r0, sc(hc[0]));
    let d = r0 * h;
    let f5 = inv_fact::<L::Scalar, N>(5);
    let (ch, ce) = fast_two_sum(L::splat(f5.terms()[0]), d);
    let (c0, c1) = fast_two_sum(ch, L::splat(f5.terms()[1]) + ce);
    let mut c = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
    c[0] = c0;
    c[1] = c1;
    let b = add_small_lanes(&splat_e(&inv_fact::<L::Scalar, N>(4)), &mul(r, &c));
    let half = term::<L, N>(<L::Scalar as FloatTerm>::from_f64(0.5));
    let a = add_small_lanes(&half, &mul(r, &splat_e(&inv_fact::<L::Scalar, N>(3))));
    let r2 = sqr(r);
    let r4 = sqr(&r2);
    let m1 = add_small_lanes(r, &mul(&r2, &a));
    add_small_lanes(&m1, &mul(&r4, &b))
}

/// exp of up to `L::WIDTH` arguments at N ≥ 2 terms (module doc): the scalar prologue
/// (special values, `exp_reduce`), the core and the table step on lanes, the scaling.
#[inline(always)]
fn exp_block<L: FnLane, const N: usize>(xs: &[E<L::Scalar, N>], out: &mut [E<L::Scalar, N>]) {
    if const { N >= 3 && <L::Scalar as FloatTerm>::PRECISION == 53 } {
        // f64 N ≥ 3: the scalar fixed-point exp per argument (`functions::fixed`; faster
        // than the lane core, and the same function). An inline const, so that the lane
        // core below is not instantiated for these N.
        for (o, x) in out.iter_mut().zip(xs) {
            *o = exp_log::exp_shifted(x, 0);
        }
        return;
    }
    let w = L::WIDTH;
    let (_, sig) = exp_log::cached_params::<L::Scalar>(N, exp_log::EXP_EMAX);
    // f64 N = 2: exp's own core is `exp_log::expm1_exp_estrin` (no doublings).
    let estrin = N == 2 && <L::Scalar as FloatTerm>::PRECISION == 53;
    // Idle lanes (specials, past the end) compute exp of a harmless small argument.
    let idle = E::<L::Scalar, N>::from_term(<L::Scalar as FloatTerm>::from_f64(1.0 / 512.0));
    let mut rps = [*idle.terms(); MAX_WIDTH];
    let mut s = [0i32; MAX_WIDTH];
    let mut js = [0i32; MAX_WIDTH];
    let mut ks = [0i32; MAX_WIDTH];
    let mut zs = [0i32; MAX_WIDTH];
    let mut live = [false; MAX_WIDTH];
    let (mut any_j0, mut any_j) = (false, false);
    for (l, x) in xs.iter().enumerate() {
        if let Some(v) = exp_log::exp_special(x, 0) {
            out[l] = v;
            continue;
        }
        let (k, j, r) = exp_log::exp_reduce(x);
        let r0 = exp_log::hi(&r);
        if r0 == 0.0 {
            rps[l] = *r.terms();
            zs[l] = 1;
        } else if estrin {
            rps[l] = *r.terms();
        } else {
            s[l] = exp_log::doublings(sig, r0);
            rps[l] = *r.ldexp(-s[l]).terms();
        }
        ks[l] = k;
        js[l] = j;
        live[l] = true;
        any_j0 |= j == 0;
        any_j |= j != 0;
    }
    if !any_j0 && !any_j {
        return;
    }
    let rp = load_e::<L, N>(&rps[..w]);
    let t_zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let m = if estrin {
        let zero = load_count::<L>(&zs).mask_ne(t_zero);
        select_e(zero, &rp, &expm1_exp_estrin_lanes(&rp))
    } else {
        expm1_core_counts::<L, N>(&rp, &s, &zs)
    };
    // Table step: j = 0: 1 + m; else T + T·m with T = e^{j/256}.
    let j0 = load_count::<L>(&js).mask_eq(t_zero);
    let e0 = if any_j0 {
        add_term(&m, <L::Scalar as FloatTerm>::ONE)
    } else {
        m
    };
    let e = if any_j {
        let mut ts = [[<L::Scalar as FloatTerm>::ZERO; N]; MAX_WIDTH];
        for (t, &j) in ts.iter_mut().zip(&js) {
            *t = *exp_j256::<L::Scalar, N>(j).terms();
        }
        let t = load_e::<L, N>(&ts[..w]);
        select_e(j0, &e0, &add(&t, &mul(&t, &m)))
    } else {
        e0
    };
    for l in 0..xs.len() {
        if live[l] {
            let el = E::<L::Scalar, N>::from_normalized(lane_terms(&e, l));
            out[l] = exp_log::scale(&el, ks[l]);
        }
    }
}

/// exp over a slice, in lane groups; N = 1 at N = 2 then rounded (`exp_log::via_two`).
#[inline(always)]
fn exp_slices<L: FnLane, const N: usize>(xs: &[E<L::Scalar, N>], out: &mut [E<L::Scalar, N>]) {
    let w = L::WIDTH;
    for (xc, oc) in xs.chunks(w).zip(out.chunks_mut(w)) {
        if const { N == 1 } {
            let mut x2 = [E::<L::Scalar, 2>::zero(); MAX_WIDTH];
            for (a, x) in x2.iter_mut().zip(xc) {
                *a = E::from_term(x.hi());
            }
            let mut y2 = [E::<L::Scalar, 2>::zero(); MAX_WIDTH];
            L::exp_block::<2>(&x2[..xc.len()], &mut y2[..xc.len()]);
            for ((o, x), y) in oc.iter_mut().zip(xc).zip(&y2) {
                *o = exp_log::via_two(x, |_| *y);
            }
        } else {
            L::exp_block::<N>(xc, oc);
        }
    }
}

// ---------------------------------------------------------------------------------------
// exp_m1, sinh, cosh, tanh

/// exp_m1 of up to `L::WIDTH` arguments with 0 < |x₀| < 1/2 (no reduction: the general
/// core, `exp_log::expm1_reduced`) at N ≥ 2 terms.
#[inline(always)]
fn expm1_small_block<L: FnLane, const N: usize>(
    xs: &[E<L::Scalar, N>],
    out: &mut [E<L::Scalar, N>],
) {
    let w = L::WIDTH;
    let (_, sig) = exp_log::cached_params::<L::Scalar>(N, -1);
    let idle = E::<L::Scalar, N>::from_term(<L::Scalar as FloatTerm>::from_f64(1.0 / 512.0));
    let mut rps = [*idle.terms(); MAX_WIDTH];
    let mut s = [0i32; MAX_WIDTH];
    for (l, x) in xs.iter().enumerate() {
        s[l] = exp_log::doublings(sig, exp_log::hi(x));
        rps[l] = *x.ldexp(-s[l]).terms();
    }
    let s_max = s.iter().copied().max().unwrap_or(0);
    let rp = load_e::<L, N>(&rps[..w]);
    let t0 = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let none = t0.mask_ne(t0);
    let m = L::expm1_core::<N>(&rp, load_count::<L>(&s), s_max, none, -1);
    for (l, o) in out.iter_mut().enumerate() {
        *o = E::from_normalized(lane_terms(&m, l));
    }
}

/// exp_m1 of every expansion of `xs` (N ≥ 2), bit for bit `exp_log::expm1`: the special
/// values in scalar, the arguments with |x₀| < 1/2 through the general core on lanes, the
/// others through exp on lanes then − 1; each class gathered into full lane groups.
#[inline(always)]
fn expm1_vec<L: FnLane, const N: usize>(xs: &[E<L::Scalar, N>], out: &mut [E<L::Scalar, N>]) {
    let w = L::WIDTH;
    let mut small = Vec::new();
    let mut large = Vec::new();
    for (i, x) in xs.iter().enumerate() {
        if let Some(y) = exp_log::expm1_special(x) {
            out[i] = y;
        } else if exp_log::hi(x).abs() < 0.5 {
            small.push(i);
        } else {
            large.push(i);
        }
    }
    let mut xb = [E::<L::Scalar, N>::zero(); MAX_WIDTH];
    let mut yb = [E::<L::Scalar, N>::zero(); MAX_WIDTH];
    for idx in small.chunks(w) {
        for (b, &i) in xb.iter_mut().zip(idx) {
            *b = xs[i];
        }
        expm1_small_block::<L, N>(&xb[..idx.len()], &mut yb[..idx.len()]);
        for (y, &i) in yb.iter().zip(idx) {
            out[i] = *y;
        }
    }
    let minus_one = -<L::Scalar as FloatTerm>::ONE;
    for idx in large.chunks(w) {
        for (b, &i) in xb.iter_mut().zip(idx) {
            *b = xs[i];
        }
        L::exp_block::<N>(&xb[..idx.len()], &mut yb[..idx.len()]);
        for (y, &i) in yb.iter().zip(idx) {
            out[i] = y.add_term(minus_one);
        }
    }
}

/// sinh, cosh or tanh (`f`) of every expansion of `xs` (N ≥ 2), bit for bit the scalar
/// functions: `hyperbolic::hyp_plan` per argument, the exponentials (exp_m1 or exp) of all
/// arguments that need one on lanes, `hyperbolic::hyp_finish` per argument (scalar: it
/// divides).
#[inline(always)]
fn hyp_vec<L: FnLane, const N: usize>(
    f: Unary,
    xs: &[E<L::Scalar, N>],
    out: &mut [E<L::Scalar, N>],
) {
    use super::hyperbolic::{hyp_finish, hyp_plan, HypPlan};
    let mut idx = Vec::new();
    let mut args = Vec::new();
    let mut via_exp = false;
    for (i, x) in xs.iter().enumerate() {
        match hyp_plan(f, x) {
            HypPlan::Done(y) => out[i] = y,
            HypPlan::Expm1(a) => {
                idx.push(i);
                args.push(a);
            }
            HypPlan::Exp(a) => {
                idx.push(i);
                args.push(a);
                via_exp = true;
            }
        }
    }
    let mut e = vec![E::<L::Scalar, N>::zero(); args.len()];
    if via_exp {
        // cosh: every pending argument takes exp.
        exp_slices::<L, N>(&args, &mut e);
    } else {
        expm1_vec::<L, N>(&args, &mut e);
    }
    for (&i, e) in idx.iter().zip(&e) {
        out[i] = hyp_finish(f, &xs[i], e);
    }
}

// ---------------------------------------------------------------------------------------
// ln

/// The first M terms of lane expansions of N terms (`exp_log::truncated` lane-wise: a
/// normalised double-word for M = 2).
#[inline(always)]
fn truncated_lanes<L: FnLane, const N: usize, const M: usize>(x: &[L; N]) -> [L; M] {
    let mut t = [x[0]; M];
    t.copy_from_slice(&x[..M]);
    if const { M == 2 } {
        let (h, l) = fast_two_sum(t[0], t[M - 1]);
        t[0] = h;
        t[M - 1] = l;
    }
    t
}

/// Lanes holding, in lane l, the expansion `v[l]` (M terms).
#[inline(always)]
fn set_lane<L: FnLane, const M: usize>(v: &mut [L; M], l: usize, e: &E<L::Scalar, M>) {
    for (o, &t) in v.iter_mut().zip(e.terms()) {
        o.set(l, t);
    }
}

/// e^y − 1 for the Newton steps of ln_1p (`exp_log::expm1_table` lane-wise): per lane
/// j = round(256y₀); j = 0: the core on y; 0 < |j| ≤ 90: the core on y − j/256 (one
/// add_term) and the tables; otherwise (far from convergence, rare) the scalar general core.
/// Lanes outside `active` compute something unspecified.
#[inline(always)]
fn expm1_table_lanes<L: FnLane, const N: usize>(y: &[L; N], active: &[bool; MAX_WIDTH]) -> [L; N] {
    let w = L::WIDTH;
    let t0 = <L::Scalar as FloatTerm>::ZERO;
    let (_, sig) = exp_log::cached_params::<L::Scalar>(N, exp_log::EXP_EMAX);
    let mut js = [0i32; MAX_WIDTH];
    let mut kind_c = [0i32; MAX_WIDTH];
    let mut general = [false; MAX_WIDTH];
    let mut terms = [t0; MAX_WIDTH];
    let mut any_c = false;
    for l in 0..w {
        if !active[l] {
            continue;
        }
        let j = (y[0].get(l).to_f64() * 256.0).round();
        if j == 0.0 {
            continue;
        }
        if j.is_nan() || j.abs() > EXP_TABLE_J as f64 {
            general[l] = true;
            continue;
        }
        let j = j as i32;
        js[l] = j;
        kind_c[l] = 1;
        terms[l] = <L::Scalar as FloatTerm>::from_f64(-(j as f64) / 256.0);
        any_c = true;
    }
    let is_c = load_count::<L>(&kind_c).mask_ne(L::splat(t0));
    let z = if any_c {
        let mut t = [L::splat(t0); N];
        t[0] = L::load(&terms[..w]);
        select_e(is_c, &op_m(Op::AddTerm, y, &t), y)
    } else {
        *y
    };
    // The core's scaling per lane (`expm1_reduced_with`): s doublings, r′ = z·2^{−s}.
    let mut s = [0i32; MAX_WIDTH];
    let mut zs = [0i32; MAX_WIDTH];
    let mut fac = [<L::Scalar as FloatTerm>::ONE; MAX_WIDTH];
    for l in 0..w {
        let z0 = z[0].get(l).to_f64();
        if z0 == 0.0 {
            zs[l] = 1;
        } else if z0.is_finite() {
            s[l] = exp_log::doublings(sig, z0);
            fac[l] = <L::Scalar as FloatTerm>::ONE.ldexp(-s[l]);
        }
    }
    let f = L::load(&fac[..w]);
    let mut rp = z;
    for t in rp.iter_mut() {
        *t = *t * f;
    }
    let m = expm1_core_counts::<L, N>(&rp, &s, &zs);
    let mut e = if any_c {
        let mut ds = [[t0; N]; MAX_WIDTH];
        let mut ts = [[t0; N]; MAX_WIDTH];
        for l in 0..w {
            let j = if kind_c[l] == 1 { js[l] } else { 1 };
            ds[l] = *expm1_j256::<L::Scalar, N>(j).terms();
            ts[l] = *exp_j256::<L::Scalar, N>(j).terms();
        }
        let d = load_e::<L, N>(&ds[..w]);
        let t = load_e::<L, N>(&ts[..w]);
        select_e(is_c, &add(&d, &mul(&t, &m)), &m)
    } else {
        m
    };
    for (l, _) in general.iter().enumerate().take(w).filter(|(_, &g)| g) {
        let yl = E::<L::Scalar, N>::from_normalized(lane_terms(y, l));
        set_lane(&mut e, l, &exp_log::expm1_reduced(&yl));
    }
    e
}

/// The seed of the Newton iteration at M < N terms (`exp_log::seed_at` lane-wise).
#[inline(always)]
fn seed_at_lanes<L: FnLane, const N: usize, const M: usize>(
    w: &[L; N],
    live: &[bool; MAX_WIDTH],
) -> [L; N] {
    let ym = L::ln1p_core::<M>(&truncated_lanes::<L, N, M>(w), live);
    let mut y = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
    y[..M].copy_from_slice(&ym);
    for l in 0..L::WIDTH {
        let yl = E::<L::Scalar, M>::from_normalized(lane_terms(&ym, l));
        if !yl.is_finite() {
            let wl = E::<L::Scalar, N>::from_normalized(lane_terms(w, l));
            set_lane(&mut y, l, &E::from_f64(ln_1p_seed(wl.to_f64())));
        }
    }
    y
}

/// ln(1 + w) in every lane of `live` (`exp_log::ln1p_core` lane-wise): the early return for
/// zero and tiny w, the seed (at fewer terms, recursively, as `exp_log::ln1p_seed`), and
/// Newton steps with each lane's own convergence check (a lane stops where its scalar loop
/// breaks). Lanes outside `live` hold unspecified values.
#[inline(always)]
fn ln1p_core_lanes<L: FnLane, const N: usize>(w: &[L; N], live: &[bool; MAX_WIDTH]) -> [L; N] {
    let pn = exp_log::prec_bits::<L::Scalar>(N);
    let mut active = [false; MAX_WIDTH];
    for l in 0..L::WIDTH {
        let wl = E::<L::Scalar, N>::from_normalized(lane_terms(w, l));
        active[l] = live[l] && !(wl.is_zero() || exp_log::below_pow2(&wl, -(pn + 3)));
    }
    if !active.iter().any(|&a| a) {
        return *w;
    }
    let mut y = match N {
        3 => seed_at_lanes::<L, N, 2>(w, &active),
        4 | 5 => seed_at_lanes::<L, N, 3>(w, &active),
        6 | 7 => seed_at_lanes::<L, N, 4>(w, &active),
        8 => seed_at_lanes::<L, N, 5>(w, &active),
        _ => {
            let mut y = *w;
            for l in 0..L::WIDTH {
                let wl = E::<L::Scalar, N>::from_normalized(lane_terms(w, l));
                set_lane(&mut y, l, &E::from_f64(ln_1p_seed(wl.to_f64())));
            }
            y
        }
    };
    let h = exp_log::newton_h::<L::Scalar>(N);
    let one = <L::Scalar as FloatTerm>::ONE;
    let t0 = <L::Scalar as FloatTerm>::ZERO;
    for _ in 0..exp_log::MAX_NEWTON {
        if !active.iter().any(|&a| a) {
            break;
        }
        let e = expm1_table_lanes(&y, &active);
        let num = add(w, &neg_e(&e));
        let den = add_term(&e, one);
        // The quotient in scalar (no lane division yet), lane by lane.
        let mut c = [L::splat(t0); N];
        for (l, _) in active.iter().enumerate().take(L::WIDTH).filter(|(_, &a)| a) {
            let nl = E::<L::Scalar, N>::from_normalized(lane_terms(&num, l));
            let dl = E::<L::Scalar, N>::from_normalized(lane_terms(&den, l));
            set_lane(&mut c, l, &exp_log::newton_quotient(&nl, &dl));
        }
        let yn = add(&y, &c);
        let mut upd = [0i32; MAX_WIDTH];
        for l in 0..L::WIDTH {
            if active[l] {
                upd[l] = 1;
                let yb = y[0].get(l).to_f64();
                let c0 = c[0].get(l).to_f64();
                if c0 == 0.0 || c0.abs() <= yb.abs() * pow2(-h) || !c0.is_finite() {
                    active[l] = false;
                }
            }
        }
        y = select_e(load_count::<L>(&upd).mask_ne(L::splat(t0)), &yn, &y);
    }
    // Lanes that returned early keep w.
    let mut early = [0i32; MAX_WIDTH];
    for l in 0..L::WIDTH {
        let wl = E::<L::Scalar, N>::from_normalized(lane_terms(w, l));
        early[l] = i32::from(live[l] && (wl.is_zero() || exp_log::below_pow2(&wl, -(pn + 3))));
    }
    select_e(load_count::<L>(&early).mask_ne(L::splat(t0)), w, &y)
}

/// ln or ln_1p (`f`) of up to `L::WIDTH` arguments at N ≥ 2 terms: the scalar prologue
/// (special values, k and w = x·2^{−k} − 1 or (1 + x)·2^{−k} − 1 rounded once), ln_1p's core
/// on lanes, and ℓ + k·ln 2 (scalar).
#[inline(always)]
fn ln_block<L: FnLane, const N: usize>(
    f: Unary,
    xs: &[E<L::Scalar, N>],
    out: &mut [E<L::Scalar, N>],
) {
    let w = L::WIDTH;
    let t0 = <L::Scalar as FloatTerm>::ZERO;
    let mut ws = [[t0; N]; MAX_WIDTH];
    let mut ks = [0i32; MAX_WIDTH];
    let mut live = [false; MAX_WIDTH];
    for (l, x) in xs.iter().enumerate() {
        let (k, wl) = if f == Unary::Ln1p {
            match exp_log::ln1p_reduce(x) {
                Err(v) => {
                    out[l] = v;
                    continue;
                }
                Ok(kw) => kw,
            }
        } else {
            if let Some(v) = exp_log::ln_special(x) {
                out[l] = v;
                continue;
            }
            let k = exp_log::ln_exponent(exp_log::hi(x));
            (
                k,
                exp_log::scaled_sum(x, k, &[-<L::Scalar as FloatTerm>::ONE]),
            )
        };
        ws[l] = *wl.terms();
        ks[l] = k;
        live[l] = true;
    }
    if !live.iter().any(|&a| a) {
        return;
    }
    let y = L::ln1p_core::<N>(&load_e::<L, N>(&ws[..w]), &live);
    for l in 0..xs.len() {
        if live[l] {
            let yl = E::<L::Scalar, N>::from_normalized(lane_terms(&y, l));
            // (sub_k_ln2 returns ℓ itself for k = 0, as ln_1p does.)
            out[l] = exp_log::sub_k_ln2(&yl, -ks[l]);
        }
    }
}

// ---------------------------------------------------------------------------------------
// sin, cos

/// sin and cos of up to `L::WIDTH` arguments (module doc): the scalar prologue (special
/// values, the Cody–Waite or Payne–Hanek reduction, `sin_kernel_plan`), `trig::sin_kernel` on lanes, the
/// quadrant.
#[inline(always)]
fn sin_cos_block<L: FnLane, const N: usize>(
    f: Unary,
    xs: &[E<L::Scalar, N>],
    out: &mut [E<L::Scalar, N>],
) {
    let w = L::WIDTH;
    let idle = E::<L::Scalar, N>::from_term(<L::Scalar as FloatTerm>::from_f64(0.5));
    let mut rs = [*idle.terms(); MAX_WIDTH];
    let mut ks = [0i32; MAX_WIDTH];
    let mut js = [0i32; MAX_WIDTH];
    let mut qs = [0u32; MAX_WIDTH];
    let mut live = [false; MAX_WIDTH];
    let mut any = false;
    for (l, x) in xs.iter().enumerate() {
        if let Some(v) = trig::sin_cos_special(f, x) {
            out[l] = v;
            continue;
        }
        let (q, r) = trig::trig_reduce::reduce(x);
        let (k, j) = trig::sin_kernel_plan(&r);
        rs[l] = *r.terms();
        ks[l] = k as i32;
        js[l] = j as i32;
        qs[l] = q;
        live[l] = true;
        any = true;
    }
    if !any {
        return;
    }
    let k_max = ks.iter().copied().max().unwrap_or(0) as usize;
    let j_max = js.iter().copied().max().unwrap_or(0) as usize;
    let r = load_e::<L, N>(&rs[..w]);
    let kl = load_count::<L>(&ks);
    let jl = load_count::<L>(&js);
    // a = r·3^{−k} from the table where k > 0.
    let a = if k_max > 0 {
        let mut ps = [[<L::Scalar as FloatTerm>::ZERO; N]; MAX_WIDTH];
        for (p, &k) in ps.iter_mut().zip(&ks) {
            *p = *series_coef::<L::Scalar, N>(Series::InvPow3, k as usize).terms();
        }
        let p = load_e::<L, N>(&ps[..w]);
        select_e(count_ge(kl, 1), &mul(&r, &p), &r)
    } else {
        r
    };
    let one = term::<L, N>(<L::Scalar as FloatTerm>::ONE);
    let a2 = sqr(&a);
    let mut t = one;
    for i in (0..j_max).rev() {
        let c = splat_e(&series_coef::<L::Scalar, N>(Series::SinDenInv, i));
        let next = if trig::sin_step_one_term::<L::Scalar>(N, i) {
            // One term (`trig::sin_kernel`): 1 − (a²₀·t₀)·C₀ lane-wise in IEEE arithmetic.
            let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
            v[0] = one[0] - (a2[0] * t[0]) * c[0];
            v
        } else {
            let q = mul(&mul(&a2, &t), &c);
            add(&one, &neg_e(&q))
        };
        t = select_e(count_ge(jl, i + 1), &next, &t);
    }
    let mut s = mul(&a, &t);
    let four = L::splat(<L::Scalar as FloatTerm>::from_f64(4.0));
    let three = <L::Scalar as FloatTerm>::from_f64(3.0);
    for it in 0..k_max {
        // s·(3 − 4s²); ·4 is the scalar ldexp(2) (one exact multiplication per term).
        let mut s2 = sqr(&s);
        for v in s2.iter_mut() {
            *v = -(*v * four);
        }
        let next = mul(&s, &add_term(&s2, three));
        s = select_e(count_ge(kl, it + 1), &next, &s);
    }
    for l in 0..xs.len() {
        if live[l] {
            let sl = E::<L::Scalar, N>::from_normalized(lane_terms(&s, l));
            out[l] = trig::quadrant(f, qs[l], &sl);
        }
    }
}

/// One Horner step of the N = 2 table path's series on lanes (`trig::sin_table::tab_series`,
/// step i with half step `half`; `cos`: step 0 multiplies by ½ exactly).
#[inline(always)]
fn tab_step_lanes<L: FnLane, const N: usize>(
    z: &[L; N],
    t: &[L; N],
    c: &E<L::Scalar, N>,
    i: usize,
    half: usize,
    cos: bool,
) -> [L; N] {
    let one_s = <L::Scalar as FloatTerm>::ONE;
    let one = term::<L, N>(one_s);
    if i > half {
        // One term: 1 − (z₀·t₀)·c₀ in IEEE arithmetic.
        let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
        v[0] = one[0] - (z[0] * t[0]) * L::splat(c.hi());
        v
    } else if i == half {
        // Half step: p = (z₀·t₀)·c₀, then Fast2Sum(1, −p), exact.
        let p = (z[0] * t[0]) * L::splat(c.hi());
        let (h, l) = fast_two_sum(L::splat(one_s), -p);
        let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
        v[0] = h;
        v[1] = l;
        v
    } else if cos && i == 0 {
        let mut q = mul(z, t);
        let halfc = L::splat(<L::Scalar as FloatTerm>::from_f64(0.5));
        for v in q.iter_mut() {
            *v = *v * halfc;
        }
        add(&one, &neg_e(&q))
    } else {
        let q = mul(&mul(z, t), &splat_e(c));
        add(&one, &neg_e(&q))
    }
}

/// `trig::series_p_dd` on lanes: P = a − z·(b − Q), Q = z₀(c₁ − z₀(c₂ − z₀c₃)).
#[inline(always)]
fn series_p_dd_lanes<L: FnLane, const N: usize>(
    z: &[L; N],
    a: &E<L::Scalar, N>,
    b: &E<L::Scalar, N>,
    c: [f64; 3],
) -> [L; N] {
    let sc = |v: f64| L::splat(<L::Scalar as FloatTerm>::from_f64(v));
    let z0 = z[0];
    let inner = (-z0).mul_add(sc(c[2]), sc(c[1]));
    let q = z0 * (-z0).mul_add(inner, sc(c[0]));
    let (h, e) = fast_two_sum(L::splat(b.terms()[0]), -q);
    let (ih, il) = fast_two_sum(h, L::splat(b.terms()[1]) + e);
    let mut i = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
    i[0] = ih;
    i[1] = il;
    add_small_lanes(&splat_e(a), &neg_e(&mul(z, &i)))
}

/// `fast2::add_small` on lanes (|y| ≤ κ|x|, proven by the caller): the same operations.
#[inline(always)]
fn add_small_lanes<L: FnLane, const N: usize>(x: &[L; N], y: &[L; N]) -> [L; N] {
    let (s, e) = fast_two_sum(x[0], y[0]);
    let t = x[1] + y[1];
    let (h, l) = fast_two_sum(s, e + t);
    let mut v = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
    v[0] = h;
    v[1] = l;
    v
}

/// sin and cos at N = 2 of up to `L::WIDTH` arguments: `trig::sin_table::quadrant_table`
/// with the two series and the combination on lanes (both sin r and cos r in every lane,
/// each by the scalar's operations, so the one the quadrant takes is the scalar's bit for
/// bit); the reduction, the split s = |r| − j/K and the quadrant per lane in scalar.
#[inline(always)]
fn sin_cos_table_block<L: FnLane, const N: usize>(
    f: Unary,
    xs: &[E<L::Scalar, N>],
    out: &mut [E<L::Scalar, N>],
) {
    use trig::sin_table as st;
    let w = L::WIDTH;
    let zt = <L::Scalar as FloatTerm>::ZERO;
    let idle = *E::<L::Scalar, N>::from_term(<L::Scalar as FloatTerm>::from_f64(0.5)).terms();
    let mut ss = [idle; MAX_WIDTH];
    let mut sjs = [[zt; N]; MAX_WIDTH];
    let mut cjs = [[zt; N]; MAX_WIDTH];
    let mut js = [0usize; MAX_WIDTH];
    let mut qs = [0u32; MAX_WIDTH];
    let mut negs = [false; MAX_WIDTH];
    let mut live = [false; MAX_WIDTH];
    let mut any = false;
    for (l, x) in xs.iter().enumerate() {
        if let Some(v) = trig::sin_cos_special(f, x) {
            out[l] = v;
            continue;
        }
        let (q, r) = trig::trig_reduce::reduce(x);
        let (negative, j, s) = st::table_split(&r);
        let Some(s) = s else {
            out[l] = st::quadrant_table(f, q, &r);
            continue;
        };
        // Rows for the combination (j = 0 lanes take row 1 and keep the series' values).
        let (sj, cj) = st::sin_tab::<L::Scalar, N>(j.max(1));
        ss[l] = *s.terms();
        sjs[l] = *sj.terms();
        cjs[l] = *cj.terms();
        js[l] = j;
        qs[l] = q;
        negs[l] = negative;
        live[l] = true;
        any = true;
    }
    if !any {
        return;
    }
    let (jsin, jcos, half) = st::sin_tab_plan(<L::Scalar as FloatTerm>::PRECISION);
    let s = load_e::<L, N>(&ss[..w]);
    let z = sqr(&s);
    let one = term::<L, N>(<L::Scalar as FloatTerm>::ONE);
    let (sn, cs) = if st::sin_dd_series_path(<L::Scalar as FloatTerm>::PRECISION) {
        // f64: the fixed series (`st::sin_series_dd`, `st::cos_series_dd`).
        let ps = series_p_dd_lanes(
            &z,
            &inv_fact::<L::Scalar, N>(3),
            &inv_fact::<L::Scalar, N>(5),
            st::SIN_DD_TAIL,
        );
        let half_e = E::<L::Scalar, N>::from_term(<L::Scalar as FloatTerm>::from_f64(0.5));
        let pc = series_p_dd_lanes(&z, &half_e, &inv_fact::<L::Scalar, N>(4), st::COS_DD_TAIL);
        (
            add_small_lanes(&s, &neg_e(&mul(&mul(&s, &z), &ps))),
            add_small_lanes(&one, &neg_e(&mul(&z, &pc))),
        )
    } else {
        let mut t = one;
        for i in (0..jsin).rev() {
            t = tab_step_lanes(&z, &t, &st::sin_coef::<L::Scalar, N>(i), i, half, false);
        }
        let mut cs = one;
        for i in (0..jcos).rev() {
            cs = tab_step_lanes(&z, &cs, &st::cos_coef::<L::Scalar, N>(i), i, half, true);
        }
        (mul(&s, &t), cs)
    };
    let sj = load_e::<L, N>(&sjs[..w]);
    let cj = load_e::<L, N>(&cjs[..w]);
    let (sr, cr) = if st::sin_dd_series_path(<L::Scalar as FloatTerm>::PRECISION) {
        // f64: `add_small` where the scalar takes it (sin from row SIN_SMALL_FROM, cos always).
        let (a, b) = (mul(&sj, &cs), mul(&cj, &sn));
        let mut small = [0i32; MAX_WIDTH];
        for (f, &j) in small.iter_mut().zip(&js) {
            *f = i32::from(j >= st::SIN_SMALL_FROM);
        }
        let small = load_count::<L>(&small).mask_ne(L::splat(zt));
        (
            select_e(small, &add_small_lanes(&a, &b), &add(&a, &b)),
            add_small_lanes(&mul(&cj, &cs), &neg_e(&mul(&sj, &sn))),
        )
    } else {
        (
            add(&mul(&sj, &cs), &mul(&cj, &sn)),
            add(&mul(&cj, &cs), &neg_e(&mul(&sj, &sn))),
        )
    };
    for l in 0..xs.len() {
        if live[l] {
            let (a, b) = if js[l] == 0 {
                (lane_terms(&sn, l), lane_terms(&cs, l))
            } else {
                (lane_terms(&sr, l), lane_terms(&cr, l))
            };
            let a = E::<L::Scalar, N>::from_normalized(a);
            let a = if negs[l] { a.neg() } else { a };
            let b = E::<L::Scalar, N>::from_normalized(b);
            out[l] = st::quadrant_pair(f, qs[l], &a, &b);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Slices and entry points.

/// The scalar function over a slice (functions that are not vectorised, and f32).
fn scalar_slices<T: FloatTerm, const N: usize>(f: Unary, xs: &[E<T, N>], out: &mut [E<T, N>]) {
    for (o, x) in out.iter_mut().zip(xs) {
        *o = super::unary_generic::<T, N>(f, x);
    }
}

/// The body of the batched evaluation for one (lane type, N): flat term slices.
#[inline(always)]
fn unary_slices<L: FnLane, const N: usize>(f: Unary, xs: &[L::Scalar], out: &mut [L::Scalar]) {
    let xe = expansions::<L::Scalar, N>(xs);
    let oe = expansions_mut::<L::Scalar, N>(out);
    match f {
        Unary::Exp => exp_slices::<L, N>(xe, oe),
        Unary::ExpM1 if const { N >= 2 } => L::expm1_slices::<N>(xe, oe),
        Unary::Sinh | Unary::Cosh | Unary::Tanh if const { N >= 2 } => {
            L::hyp_slices::<N>(f, xe, oe)
        }
        // At N ≤ 2 the scalar ln (f64: the table path of `ln_dd.rs`; f32: double-word
        // shortcuts, one Newton step) is as fast as the lanes, whose division stays scalar.
        // f64 N ≥ 3 ln: the scalar function (one Newton step on the fixed-point exp,
        // `exp_log::ln_newton`; faster than the lane core).
        Unary::Ln if const { N >= 3 && <L::Scalar as FloatTerm>::PRECISION == 53 } => {
            scalar_slices::<L::Scalar, N>(f, xe, oe)
        }
        Unary::Ln | Unary::Ln1p if const { N >= 3 } => L::ln_slices::<N>(f, xe, oe),
        // f64 N ≥ 3 sin, cos: the scalar function (fixed-point series and table,
        // `sin_fixed.rs`; faster than the lane core).
        Unary::Sin | Unary::Cos if const { N >= 3 && <L::Scalar as FloatTerm>::PRECISION == 53 } => {
            scalar_slices::<L::Scalar, N>(f, xe, oe)
        }
        // N = 2: the table reduction (trig.rs, `sin_table.rs`).
        Unary::Sin | Unary::Cos if const { N == 2 } => L::sin_cos_table_slices::<N>(f, xe, oe),
        Unary::Sin | Unary::Cos => L::sin_cos_slices::<N>(f, xe, oe),
        _ => scalar_slices::<L::Scalar, N>(f, xe, oe),
    }
}

fn check_lengths(n: usize, xs: usize, out: usize) {
    assert!(
        (1..=MAX_TERMS).contains(&n),
        "expansions have 1..={MAX_TERMS} terms, not {n}"
    );
    assert!(
        xs.is_multiple_of(n) && out == xs,
        "function batch: xs and out must hold the same number of {n}-term expansions"
    );
}

/// `f` of every `n`-term f64 expansion of `xs` (element i at `i·n .. i·n + n`) into `out`
/// (the same layout), on the widest SIMD this CPU has: bit for bit the scalar
/// [`super::eval_unary_f64`] of each element (module doc). Panics when n is not in 1..=8 or
/// the slices do not hold the same whole number of expansions.
pub fn eval_unary_batch_f64(f: Unary, n: usize, xs: &[f64], out: &mut [f64]) {
    // The detected level is always available.
    let _ = eval_unary_batch_f64_at(SimdLevel::detect(), f, n, xs, out);
}

/// [`eval_unary_batch_f64`] at a chosen SIMD level (tests and benchmarks); refuses a level
/// this CPU lacks.
pub fn eval_unary_batch_f64_at(
    level: SimdLevel,
    f: Unary,
    n: usize,
    xs: &[f64],
    out: &mut [f64],
) -> Result<(), SimdUnavailable> {
    check_lengths(n, xs.len(), out.len());
    match level {
        SimdLevel::Baseline => {
            with_terms!(n, N => unary_slices::<crate::batch::F64Lanes, N>(f, xs, out));
            Ok(())
        }
        SimdLevel::Avx512 => {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: AVX-512F was detected just above.
                    with_terms!(n, N => unsafe { avx512::unary_slices::<N>(f, xs, out) });
                    return Ok(());
                }
            }
            Err(SimdUnavailable(level))
        }
    }
}

/// As [`eval_unary_batch_f64`] for f32 terms: the scalar functions in a loop (no f32 lane
/// type yet; the same results).
pub fn eval_unary_batch_f32(f: Unary, n: usize, xs: &[f32], out: &mut [f32]) {
    check_lengths(n, xs.len(), out.len());
    with_terms!(n, N => scalar_slices::<f32, N>(
        f,
        expansions::<f32, N>(xs),
        expansions_mut::<f32, N>(out)
    ))
}

/// Term types with batched function evaluation (f64 and f32): the hook to the instances
/// compiled here.
pub trait FunctionBatchTerm: FloatTerm {
    /// `f` of the `n`-term expansions of `xs` into `out`, flat slices.
    fn eval_unary_batch_terms(f: Unary, n: usize, xs: &[Self], out: &mut [Self]);
}

impl FunctionBatchTerm for f64 {
    fn eval_unary_batch_terms(f: Unary, n: usize, xs: &[f64], out: &mut [f64]) {
        eval_unary_batch_f64(f, n, xs, out)
    }
}

impl FunctionBatchTerm for f32 {
    fn eval_unary_batch_terms(f: Unary, n: usize, xs: &[f32], out: &mut [f32]) {
        eval_unary_batch_f32(f, n, xs, out)
    }
}

/// `out[i] = f(xs[i])` for every i, bit for bit [`super::eval_unary`], on SIMD lanes where
/// the function is vectorised (module doc). Panics when the slices differ in length.
///
/// ```
/// use expanse_core::functions::{eval_unary_batch, Unary};
/// use expanse_core::QuadDouble;
/// let xs: Vec<QuadDouble> = (0..100).map(|i| QuadDouble::from_f64(i as f64 / 10.0)).collect();
/// let mut ys = vec![QuadDouble::zero(); xs.len()];
/// eval_unary_batch(Unary::Exp, &xs, &mut ys);
/// // The same bits as one call per element.
/// assert!(xs.iter().zip(&ys).all(|(x, y)| x.exp().terms() == y.terms()));
/// ```
pub fn eval_unary_batch<T: FunctionBatchTerm, const N: usize>(
    f: Unary,
    xs: &[Expansion<T, N>],
    out: &mut [Expansion<T, N>],
) {
    use crate::runtime::{terms_of, terms_of_mut};
    T::eval_unary_batch_terms(f, N, terms_of(xs), terms_of_mut(out))
}

/// The AVX-512 instances: everything inlined into functions compiled with AVX-512F.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Op, Unary, MAX_WIDTH};
    use crate::avx512::{F64x8, M8};

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn op_acc<const M: usize>(
        op: Op,
        x: &[F64x8; M],
        y: &[F64x8; M],
    ) -> [F64x8; M] {
        super::acc_op::<F64x8, M>(op, x, y)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn expm1_core<const N: usize>(
        rp: &[F64x8; N],
        s: F64x8,
        s_max: i32,
        zero: M8,
        emax: i32,
    ) -> [F64x8; N] {
        super::expm1_core_lanes::<F64x8, N>(rp, s, s_max, zero, emax)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn ln1p_core<const N: usize>(
        w: &[F64x8; N],
        live: &[bool; MAX_WIDTH],
    ) -> [F64x8; N] {
        super::ln1p_core_lanes::<F64x8, N>(w, live)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn exp_block<const N: usize>(
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        super::exp_block::<F64x8, N>(xs, out)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn expm1_slices<const N: usize>(
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        super::expm1_vec::<F64x8, N>(xs, out)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn hyp_slices<const N: usize>(
        f: Unary,
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        super::hyp_vec::<F64x8, N>(f, xs, out)
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn ln_slices<const N: usize>(
        f: Unary,
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        use super::ln_block;
        by_blocks!(ln_block::<F64x8, N>(f, xs, out))
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn sin_cos_slices<const N: usize>(
        f: Unary,
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        use super::sin_cos_block;
        by_blocks!(sin_cos_block::<F64x8, N>(f, xs, out))
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline(never)]
    pub(super) unsafe fn sin_cos_table_slices<const N: usize>(
        f: Unary,
        xs: &[crate::Expansion<f64, N>],
        out: &mut [crate::Expansion<f64, N>],
    ) {
        use super::sin_cos_table_block;
        by_blocks!(sin_cos_table_block::<F64x8, N>(f, xs, out))
    }

    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn unary_slices<const N: usize>(f: Unary, xs: &[f64], out: &mut [f64]) {
        super::unary_slices::<F64x8, N>(f, xs, out)
    }
}
