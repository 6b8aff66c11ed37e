//! The *fast* tier: the *search arithmetic* that the CPU search backend runs and that the GPU
//! kernels (`expanse-gpu`, `gpu/src/cuda/orbits.cu`) repeat operation for operation, so CPU and GPU
//! orbits agree bit for bit. Keep the two in step: any change here must be mirrored there; the
//! host build of the kernel source (`gpu/tests/kernel_source_on_cpu.rs`) and the device check
//! (`expanse bench gpu --check`) prove they agree.
//!
//! Every algorithm is written once, over a [`Lane`] (one machine number, or several orbits'
//! terms in one SIMD register: see [`crate::batch`]), and has no data-dependent branch, so the
//! lane-batched CPU code and the GPU threads run the same straight-line code. The
//! [`Expansion`] methods below are these functions on one lane.
//!
//! These operations have no proven relative error bound; their accuracy is *measured* against
//! MPFR by the tests at the end of this file. The interval crate never uses them. By number of
//! terms:
//!
//! - **N = 1**: plain IEEE operations on T (seed 001 Alg. 4/5 with one term), except that the
//!   Hénon step's x' = (y + 1) − a·x² is one FMA (one rounding fewer than seed 001's loop): a
//!   step costs 4 instructions.
//! - **N = 2**: double-word algorithms (Joldes, Muller, Popescu, ACM TOMS 44(2) 2017):
//!   `add` is SloppyDWPlusDW (no relative bound under cancellation; absolute error about
//!   u²·max(|x|, |y|)), `add_term` is DWPlusFP (bound 2u²), `mul_term` is DWTimesFP with one
//!   FMA (DWTimesFP3, bound 2u²), `mul` is DWTimesDW with FMAs (the low×low product dropped),
//!   `sqr` is the square analogue (x₁² dropped: it lies below the double-word's last bit).
//! - **N ≥ 3**: *level accumulation*. An operation lists its *items* by level n (an item of
//!   level n is about u^n times the result): products a_i·b_j of order i + j < N by 2ProdFMA
//!   (the error joins level n + 1), those of order N as plain products, higher orders dropped
//!   (seed 001 Alg. 5's truncation); squaring computes each symmetric product once
//!   (2a_i·a_j, the doubling exact); additions have the operands' terms of each level.
//!   [`Acc`] keeps one running sum s[n] per level n < N, fed the items in ascending level
//!   order: the first value reaching level n < N − 1 starts s[n]; every later one is added
//!   with 2Sum and the error carried to level n + 1 the same way, down to level N − 1, which
//!   (with level N) is summed plainly, its rounding errors being of order u^N. So every level
//!   below N − 1 is summed exactly. The N level sums are renormalised by VecSum and one
//!   top-down 2Sum pass (both exact). Which levels have started depends only on the
//!   operation's fixed item pattern: there is no data-dependent branch (no zero-skipping as
//!   in JMMP's VecSumErrBranch), so lanes never diverge. In exchange a zero term can sit
//!   between non-zero ones after an exact cancellation; term k stays of order u^k of the
//!   operands, which is what truncation needs.
//! - The Hénon step's x' = 1 + y − a·x² is one operation ([`henon_x`]): the items of a·x²
//!   (negated), 1 and y in one level accumulation instead of three operations.

use crate::batch::Lane;
use crate::eft::{fast_two_sum, two_prod, two_sum};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

/// `unroll!(k in lo..hi => body)`: the loop `for k in lo..hi { body }` for bounds within 0..=8,
/// written out as nine guarded copies with `k` a literal, so that every index and every
/// [`Acc`] level below is a compile-time constant (LLVM leaves the nested loops of N = 8
/// rolled otherwise, with the level sums in memory).
macro_rules! unroll {
    ($k:ident in $lo:tt .. $hi:tt => $body:block) => {{
        let (lo_, hi_): (usize, usize) = ($lo, $hi);
        unroll!(@copies $k lo_ hi_ $body; 0 1 2 3 4 5 6 7 8);
    }};
    (@copies $k:ident $lo:ident $hi:ident $body:block; $($v:literal)*) => {
        $(
            {
                #[allow(clippy::identity_op, unused_comparisons)]
                let in_range = $v >= $lo && $v < $hi;
                if in_range {
                    let $k: usize = $v;
                    $body
                }
            }
        )*
    };
}

/// `−v` when `neg`, else `v`. (A function, not a closure: every call on the hot path must be
/// `inline(always)`, or inside an AVX-512 `#[target_feature]` function the compiler may leave a
/// call that passes vector registers through memory.)
#[inline(always)]
fn signed<L: Lane>(v: L, neg: bool) -> L {
    if neg {
        -v
    } else {
        v
    }
}

/// The terms of `t`, negated (see [`signed`] for why this is not `t.map(..)`).
#[inline(always)]
fn negated<L: Lane, const N: usize>(t: &[L; N]) -> [L; N] {
    let mut r = *t;
    for v in r.iter_mut() {
        *v = -*v;
    }
    r
}

/// Zero of a lane type.
#[inline(always)]
pub(crate) fn zero<L: Lane>() -> L {
    L::splat(<L::Scalar as FloatTerm>::ZERO)
}

/// [`two_sum`], bit for bit, with two of its six additions (the errors a − a_virtual and
/// b − b_virtual, off the chain from the running sum to the next one) issued as FMAs by ±1
/// ([`Lane::sub_on_fma`]: the same operation with one rounding, so the same result): the level
/// sums are nearly all additions, which x86 cores run on two pipes, with the FMA pipes mostly
/// idle. Measured on Zen 5 (AVX2, one lane group of two registers per term): +14% at N = 4,
/// +18% at N = 5 iterations/s; moving the running sum or a_virtual as well made it slower (the
/// FMA's longer latency on the critical path). A no-op on scalar lanes and AVX-512.
/// Also VecSum's 2Sum in [`crate::accurate_batch`].
#[inline(always)]
pub(crate) fn two_sum_split<L: Lane>(a: L, b: L) -> (L, L) {
    let s = a + b;
    let a_virtual = s - b;
    let b_virtual = s - a_virtual;
    let a_err = a.sub_on_fma(a_virtual);
    let b_err = b.sub_on_fma(b_virtual);
    (s, a_err + b_err)
}

/// The running level sums of one N ≥ 3 operation (see the module doc), fed item by item in
/// ascending level order by [`Acc::add`] and read out by [`Acc::finish`]. `filled` records
/// which levels below N − 1 have received a value: it depends only on the operation's fixed
/// item pattern, never on the data, so after inlining it is a compile-time constant.
struct Acc<L: Lane, const N: usize> {
    s: [L; N],
    filled: u32,
    /// The level [`Acc::push`] adds to; [`Acc::end_level`] moves to the next.
    level: usize,
}

impl<L: Lane, const N: usize> Acc<L, N> {
    #[inline(always)]
    fn new() -> Self {
        Self {
            s: [zero::<L>(); N],
            filled: 0,
            level: 0,
        }
    }

    /// Adds v at the current level.
    #[inline(always)]
    fn push(&mut self, v: L) {
        self.add(self.level, v);
    }

    /// Moves to the next level.
    #[inline(always)]
    fn end_level(&mut self) {
        self.level += 1;
    }

    /// Adds item v of level `level` (levels ≥ N − 1 are summed plainly into s[N − 1]): the
    /// first value reaching a level k < N − 1 starts its sum; later ones are added with 2Sum
    /// and the error carried to level k + 1 in the same way, down to level N − 1.
    #[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
    #[inline(always)]
    fn add(&mut self, level: usize, v: L) {
        let mut c = v;
        let mut placed = false;
        unroll!(k in level..(N - 1) => {
            if !placed {
                if self.filled & (1 << k) == 0 {
                    self.s[k] = c;
                    self.filled |= 1 << k;
                    placed = true;
                } else {
                    let (h, e) = two_sum_split(self.s[k], c);
                    self.s[k] = h;
                    c = e;
                }
            }
        });
        if !placed {
            self.s[N - 1] = self.s[N - 1] + c;
        }
    }

    /// Renormalises the N level sums: VecSum (bottom-up 2Sum), then one top-down 2Sum pass,
    /// both exact.
    #[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
    #[inline(always)]
    fn finish(self) -> [L; N] {
        let mut s = self.s;
        let mut acc = s[N - 1];
        for i in (0..N - 1).rev() {
            let (h, e) = two_sum_split(s[i], acc);
            s[i + 1] = e;
            acc = h;
        }
        s[0] = acc;
        let mut out = [zero::<L>(); N];
        let mut eps = s[0];
        for i in 1..N {
            let (r, e) = two_sum_split(eps, s[i]);
            out[i - 1] = r;
            eps = e;
        }
        out[N - 1] = eps;
        out
    }
}

/// Adds the items of the truncated product x·y: level n < N: the products x_i·y_{n−i}
/// (2ProdFMA, i ascending), then the errors of level n − 1's products; level N: the plain
/// products x_i·y_{N−i} (i = 1..N−1), then the errors of level N − 1's products. Each item is
/// negated when `neg`; with `extra = Some((lead, ys))`, `lead` comes first on level 0 and
/// `ys[n]` first on level n (the fused Hénon x').
#[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
#[inline(always)]
fn push_product<L: Lane, const N: usize>(
    it: &mut Acc<L, N>,
    x: &[L; N],
    y: &[L; N],
    neg: bool,
    extra: Option<(L, &[L; N])>,
) {
    let mut prev = [zero::<L>(); N];
    unroll!(n in 0..N => {
        if let Some((lead, ys)) = extra {
            if n == 0 {
                it.push(lead);
            }
            it.push(ys[n]);
        }
        let mut cur = [zero::<L>(); N];
        for i in 0..=n {
            let (p, e) = two_prod(x[i], y[n - i]);
            it.push(signed(p, neg));
            cur[i] = e;
        }
        for &e in prev.iter().take(n) {
            it.push(signed(e, neg));
        }
        prev = cur;
        it.end_level();
    });
    for i in 1..N {
        it.push(signed(x[i] * y[N - i], neg));
    }
    for &e in prev.iter() {
        it.push(signed(e, neg));
    }
    it.end_level();
}

/// Adds the items of x·t for one machine number t per lane (level 0: p_0; level n ≥ 1:
/// p_n, e_{n−1}, with p_{N−1} a plain product), as [`push_product`] does.
#[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
#[inline(always)]
fn push_term_product<L: Lane, const N: usize>(
    it: &mut Acc<L, N>,
    x: &[L; N],
    t: L,
    neg: bool,
    extra: Option<(L, &[L; N])>,
) {
    let mut e_prev = zero::<L>();
    unroll!(n in 0..N => {
        if let Some((lead, ys)) = extra {
            if n == 0 {
                it.push(lead);
            }
            it.push(ys[n]);
        }
        let (p, e) = if n + 1 < N {
            two_prod(x[n], t)
        } else {
            (x[n] * t, zero::<L>())
        };
        it.push(signed(p, neg));
        if n > 0 {
            it.push(signed(e_prev, neg));
        }
        #[allow(unused_assignments)] // the last copy's error is not used
        {
            e_prev = e;
        }
        it.end_level();
    });
    it.end_level();
}

/// Fast addition (see the module doc for each N). No relative error bound under
/// cancellation.
#[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
#[inline(always)]
pub fn add<L: Lane, const N: usize>(a: &[L; N], b: &[L; N]) -> [L; N] {
    let mut out = [zero::<L>(); N];
    if N == 1 {
        out[0] = a[0] + b[0];
    } else if N == 2 {
        // SloppyDWPlusDW.
        let (s, e) = two_sum(a[0], b[0]);
        let v = a[1] + b[1];
        let w = e + v;
        (out[0], out[1]) = fast_two_sum(s, w);
    } else {
        // Level n: a_n, b_n.
        let mut it = Acc::<L, N>::new();
        unroll!(n in 0..N => {
            it.push(a[n]);
            it.push(b[n]);
            it.end_level();
        });
        it.end_level();
        out = it.finish();
    }
    out
}

/// Fast addition of one machine number t per lane.
#[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
#[inline(always)]
pub fn add_term<L: Lane, const N: usize>(a: &[L; N], t: L) -> [L; N] {
    let mut out = [zero::<L>(); N];
    if N == 1 {
        out[0] = a[0] + t;
    } else if N == 2 {
        // DWPlusFP.
        let (s, e) = two_sum(a[0], t);
        let v = a[1] + e;
        (out[0], out[1]) = fast_two_sum(s, v);
    } else {
        // Level 0: a_0, t; level n: a_n.
        let mut it = Acc::<L, N>::new();
        it.push(a[0]);
        it.push(t);
        it.end_level();
        unroll!(n in 1..N => {
            it.push(a[n]);
            it.end_level();
        });
        it.end_level();
        out = it.finish();
    }
    out
}

/// Fast multiplication.
#[inline(always)]
pub fn mul<L: Lane, const N: usize>(a: &[L; N], b: &[L; N]) -> [L; N] {
    let mut out = [zero::<L>(); N];
    if N == 1 {
        out[0] = a[0] * b[0];
    } else if N == 2 {
        // DWTimesDW with FMAs; a₁·b₁ dropped.
        let (p, e) = two_prod(a[0], b[0]);
        let t = a[0] * b[1];
        let c = a[1].mul_add(b[0], t);
        let w = e + c;
        (out[0], out[1]) = fast_two_sum(p, w);
    } else {
        let mut it = Acc::<L, N>::new();
        push_product(&mut it, a, b, false, None);
        out = it.finish();
    }
    out
}

/// Fast square: each symmetric product computed once.
#[allow(arithmetic_overflow, unconditional_panic)] // in the dead copies of `unroll!`
#[inline(always)]
pub fn sqr<L: Lane, const N: usize>(a: &[L; N]) -> [L; N] {
    let mut out = [zero::<L>(); N];
    if N == 1 {
        out[0] = a[0] * a[0];
    } else if N == 2 {
        let (p, e) = two_prod(a[0], a[0]);
        let w = (a[0] + a[0]).mul_add(a[1], e);
        (out[0], out[1]) = fast_two_sum(p, w);
    } else {
        // Level n < N: the products 2a_i·a_{n−i} (i < n − i) and a_i² (2i = n), i ascending,
        // then the errors of level n − 1's products in the same order; level N: the plain
        // products of order N, then the errors of level N − 1's products.
        let mut d = [zero::<L>(); N]; // d[i] = 2·a[i] (exact)
        for i in 0..N {
            d[i] = a[i] + a[i];
        }
        let mut it = Acc::<L, N>::new();
        let mut prev = [zero::<L>(); N];
        let mut prev_len = 0usize;
        unroll!(n in 0..N => {
            let mut cur = [zero::<L>(); N];
            let mut cur_len = 0usize;
            for i in 0..=n / 2 {
                let j = n - i;
                let (p, e) = if i < j {
                    two_prod(d[i], a[j])
                } else {
                    two_prod(a[i], a[i])
                };
                it.push(p);
                cur[cur_len] = e;
                cur_len += 1;
            }
            for &e in prev.iter().take(prev_len) {
                it.push(e);
            }
            prev = cur;
            prev_len = cur_len;
            it.end_level();
        });
        for i in 1..=N / 2 {
            let j = N - i;
            it.push(if i < j { d[i] * a[j] } else { a[i] * a[i] });
        }
        for &e in prev.iter().take(prev_len) {
            it.push(e);
        }
        it.end_level();
        out = it.finish();
    }
    out
}

/// Fast multiplication by one machine number t per lane.
#[inline(always)]
pub fn mul_term<L: Lane, const N: usize>(a: &[L; N], t: L) -> [L; N] {
    let mut out = [zero::<L>(); N];
    if N == 1 {
        out[0] = a[0] * t;
    } else if N == 2 {
        // DWTimesFP3.
        let (p, e) = two_prod(a[0], t);
        let w = a[1].mul_add(t, e);
        (out[0], out[1]) = fast_two_sum(p, w);
    } else {
        let mut it = Acc::<L, N>::new();
        push_term_product(&mut it, a, t, false, None);
        out = it.finish();
    }
    out
}

/// A Hénon parameter as the search arithmetic multiplies by it: by [`mul_term`] when it is one
/// machine number (`single`: every term after the first is zero), else by [`mul`].
#[derive(Clone, Copy, Debug)]
pub struct Param<L: Lane, const N: usize> {
    /// The terms, broadcast to the lanes.
    pub terms: [L; N],
    /// True when the parameter is one machine number.
    pub single: bool,
}

impl<L: Lane, const N: usize> Param<L, N> {
    /// Broadcasts p.
    #[inline(always)]
    pub fn new(p: &Expansion<L::Scalar, N>) -> Self {
        Self {
            terms: core::array::from_fn(|i| L::splat(p.terms[i])),
            single: p.is_single_term(),
        }
    }
    /// One parameter per lane: lane l holds `ps[l]` (`ps.len() == L::WIDTH`). `None` when the
    /// lanes disagree on whether their parameter is one machine number: [`Param::mul`] must
    /// then take different instruction sequences in different lanes (the scalar code picks
    /// [`mul_term`] or [`mul`] per parameter), which one lane group cannot do.
    #[inline(always)]
    pub fn per_lane(ps: &[Expansion<L::Scalar, N>]) -> Option<Self> {
        assert_eq!(
            ps.len(),
            L::WIDTH,
            "Param::per_lane needs one parameter per lane"
        );
        let single = ps[0].is_single_term();
        if ps.iter().any(|p| p.is_single_term() != single) {
            return None;
        }
        let mut terms = [zero::<L>(); N];
        for (l, p) in ps.iter().enumerate() {
            for (i, t) in terms.iter_mut().enumerate() {
                t.set(l, p.terms[i]);
            }
        }
        Some(Self { terms, single })
    }

    /// x · p.
    #[inline(always)]
    pub fn mul(&self, x: &[L; N]) -> [L; N] {
        if self.single {
            mul_term(x, self.terms[0])
        } else {
            mul(x, &self.terms)
        }
    }
}

/// The new x of a Hénon step, `1 + y − a·x2` (`x2` = x²). N = 1: `fma(−a, x2, y + 1)`. N = 2:
/// `(y + 1) − a·x2` by [`add_term`], [`Param::mul`] and [`add`] of the negation. N ≥ 3: one level accumulation of
/// level 0: 1, y_0, then −(a·x2's level-0 items); level n: y_n, then −(a·x2's level-n items)
/// (the items of [`mul_term`] or [`mul`], in their order).
#[inline(always)]
pub fn henon_x<L: Lane, const N: usize>(y: &[L; N], a: &Param<L, N>, x2: &[L; N]) -> [L; N] {
    let one = L::splat(<L::Scalar as FloatTerm>::ONE);
    if N == 1 {
        // One FMA: (y + 1) − a·x² with a single rounding (4 instructions per step, not 5).
        let mut out = [zero::<L>(); N];
        out[0] = (-a.terms[0]).mul_add(x2[0], y[0] + one);
        return out;
    }
    if N <= 2 {
        let t = a.mul(x2);
        let u = add_term(y, one);
        return add(&u, &negated(&t));
    }
    let mut it = Acc::<L, N>::new();
    if a.single {
        push_term_product(&mut it, x2, a.terms[0], true, Some((one, y)));
    } else {
        push_product(&mut it, x2, &a.terms, true, Some((one, y)));
    }
    it.finish()
}

/// The fast tier on single expansions: the functions above on one lane.
impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// Fast addition ([`add`]).
    #[inline(always)]
    pub fn add_fast(&self, other: &Self) -> Self {
        Self::from_normalized(add(&self.terms, &other.terms))
    }

    /// Fast subtraction: [`Self::add_fast`] of the negation (exact).
    #[inline(always)]
    pub fn sub_fast(&self, other: &Self) -> Self {
        self.add_fast(&other.neg())
    }

    /// Fast multiplication ([`mul`]).
    #[inline(always)]
    pub fn mul_fast(&self, other: &Self) -> Self {
        Self::from_normalized(mul(&self.terms, &other.terms))
    }

    /// Fast square ([`sqr`]).
    #[inline(always)]
    pub fn sqr_fast(&self) -> Self {
        Self::from_normalized(sqr(&self.terms))
    }

    /// Fast multiplication by one machine number ([`mul_term`]).
    #[inline(always)]
    pub fn mul_term_fast(&self, t: T) -> Self {
        Self::from_normalized(mul_term(&self.terms, t))
    }

    /// Fast addition of one machine number ([`add_term`]).
    #[inline(always)]
    pub fn add_term_fast(&self, t: T) -> Self {
        Self::from_normalized(add_term(&self.terms, t))
    }

    /// The new x of a Hénon step, `1 + y − a·x2`, as the search arithmetic computes it
    /// ([`henon_x`]; fused for N ≥ 3).
    #[inline(always)]
    pub fn henon_x_fast(y: &Self, a: &Self, x2: &Self) -> Self {
        Self::from_normalized(henon_x(&y.terms, &Param::new(a), &x2.terms))
    }
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// True when every term after the first is zero, i.e. the value is one machine number (or
    /// the expansion is non-finite with zero tail). The search arithmetic multiplies by such a
    /// parameter with [`Expansion::mul_term_fast`].
    #[inline(always)]
    pub fn is_single_term(&self) -> bool {
        self.terms[1..].iter().all(|t| *t == T::ZERO)
    }
}
