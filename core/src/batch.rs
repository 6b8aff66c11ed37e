//! Batch iteration of many independent Hénon orbits in the *fast* tier, W orbits at a time in
//! struct-of-arrays form so that every arithmetic operation acts on W lanes at once.
//!
//! Following one orbit at a time is bound by latency: each operation of a step depends on the
//! previous one. Here term i of the x coordinate of W orbits is one `Lanes<T, W>` (an array the
//! compiler keeps in SIMD registers: AVX2 holds 4 f64 lanes), and the fast-tier algorithms
//! of [`crate::fast`] (plain IEEE at N = 1, double-word at N = 2, truncated products and merged
//! additions renormalised by VecSum and VecSumErrBranch for N ≥ 3) are written once over lanes. The data-dependent branch of the
//! renormalisation becomes per-lane selects. Every lane performs exactly the operations the
//! scalar [`crate::Fast`] performs, in the same order, so results agree bit for bit with
//! `henon_step` on `Fast<T, N>` (tested in `tests/batch.rs`); the search can therefore use
//! this and still match the GPU kernels.

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use core::ops::{Add, Mul, Neg, Sub};

/// A group of lanes of one term type with the operations the fast tier needs. Every
/// operation is the lane-wise IEEE operation (round to nearest), so each lane computes exactly
/// what the scalar code computes.
pub trait Lane:
    Copy
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    /// The term type of every lane.
    type Scalar: FloatTerm;
    /// Number of lanes.
    const WIDTH: usize;
    /// Every lane equal to `v`.
    fn splat(v: Self::Scalar) -> Self;
    /// Lane-wise fused multiply-add self·a + b.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// Lane-wise `if c != 0 (or NaN) { a } else { b }`.
    fn select_nonzero(c: Self, a: Self, b: Self) -> Self;
    /// Lane-wise `if j == k { a } else { b }`.
    fn select_eq(j: Self, k: Self, a: Self, b: Self) -> Self;
    /// Lane-wise `if j < k { a } else { b }`.
    fn select_lt(j: Self, k: Self, a: Self, b: Self) -> Self;
    /// Lane `l`.
    fn get(&self, l: usize) -> Self::Scalar;
    /// Sets lane `l`.
    fn set(&mut self, l: usize, v: Self::Scalar);
}

/// W values of type T processed together: the portable lane type (the compiler may or may not
/// vectorise it; [`F64x4`] is the explicit AVX2 one).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Lanes<T: FloatTerm, const W: usize>(pub [T; W]);

impl<T: FloatTerm, const W: usize> Lane for Lanes<T, W> {
    type Scalar = T;
    const WIDTH: usize = W;
    #[inline(always)]
    fn splat(v: T) -> Self {
        Self([v; W])
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        let mut r = self.0;
        for l in 0..W {
            r[l] = self.0[l].mul_add(a.0[l], b.0[l]);
        }
        Self(r)
    }
    #[inline(always)]
    fn select_nonzero(c: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for l in 0..W {
            if c.0[l] != T::ZERO {
                r[l] = a.0[l];
            }
        }
        Self(r)
    }
    #[inline(always)]
    fn select_eq(j: Self, k: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for l in 0..W {
            if j.0[l] == k.0[l] {
                r[l] = a.0[l];
            }
        }
        Self(r)
    }
    #[inline(always)]
    fn select_lt(j: Self, k: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for l in 0..W {
            if j.0[l] < k.0[l] {
                r[l] = a.0[l];
            }
        }
        Self(r)
    }
    #[inline(always)]
    fn get(&self, l: usize) -> T {
        self.0[l]
    }
    #[inline(always)]
    fn set(&mut self, l: usize, v: T) {
        self.0[l] = v;
    }
}

macro_rules! lane_binop {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: FloatTerm, const W: usize> $tr for Lanes<T, W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                for l in 0..W {
                    r[l] = self.0[l] $op o.0[l];
                }
                Self(r)
            }
        }
    };
}
lane_binop!(Add, add, +);
lane_binop!(Sub, sub, -);
lane_binop!(Mul, mul, *);

impl<T: FloatTerm, const W: usize> Neg for Lanes<T, W> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        let mut r = self.0;
        for v in r.iter_mut() {
            *v = -*v;
        }
        Self(r)
    }
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
mod avx2 {
    //! Four f64 lanes in one AVX2 register. The crate is built with `target-cpu=x86-64-v3`
    //! (see `.cargo/config.toml`), and this module exists only when AVX2 and FMA are enabled at
    //! compile time, which is what makes the intrinsics below sound to call.
    use super::Lane;
    use core::arch::x86_64::*;
    use core::ops::{Add, Mul, Neg, Sub};

    /// Four f64 lanes in an AVX2 register.
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub struct F64x4(__m256d);

    // SAFETY (every `unsafe` block in this module): the intrinsics need AVX2/FMA, which the
    // cfg on this module guarantees are enabled for the whole build; they touch no memory
    // except through `storeu`/`loadu` on a local `[f64; 4]`.
    macro_rules! binop {
        ($tr:ident, $f:ident, $intr:ident) => {
            impl $tr for F64x4 {
                type Output = Self;
                #[inline(always)]
                fn $f(self, o: Self) -> Self {
                    Self(unsafe { $intr(self.0, o.0) })
                }
            }
        };
    }
    binop!(Add, add, _mm256_add_pd);
    binop!(Sub, sub, _mm256_sub_pd);
    binop!(Mul, mul, _mm256_mul_pd);

    impl Neg for F64x4 {
        type Output = Self;
        #[inline(always)]
        fn neg(self) -> Self {
            Self(unsafe { _mm256_xor_pd(self.0, _mm256_set1_pd(-0.0)) })
        }
    }

    impl Lane for F64x4 {
        type Scalar = f64;
        const WIDTH: usize = 4;
        #[inline(always)]
        fn splat(v: f64) -> Self {
            Self(unsafe { _mm256_set1_pd(v) })
        }
        #[inline(always)]
        fn mul_add(self, a: Self, b: Self) -> Self {
            Self(unsafe { _mm256_fmadd_pd(self.0, a.0, b.0) })
        }
        #[inline(always)]
        fn select_nonzero(c: Self, a: Self, b: Self) -> Self {
            unsafe {
                let m = _mm256_cmp_pd::<_CMP_NEQ_UQ>(c.0, _mm256_setzero_pd());
                Self(_mm256_blendv_pd(b.0, a.0, m))
            }
        }
        #[inline(always)]
        fn select_eq(j: Self, k: Self, a: Self, b: Self) -> Self {
            unsafe {
                let m = _mm256_cmp_pd::<_CMP_EQ_OQ>(j.0, k.0);
                Self(_mm256_blendv_pd(b.0, a.0, m))
            }
        }
        #[inline(always)]
        fn select_lt(j: Self, k: Self, a: Self, b: Self) -> Self {
            unsafe {
                let m = _mm256_cmp_pd::<_CMP_LT_OQ>(j.0, k.0);
                Self(_mm256_blendv_pd(b.0, a.0, m))
            }
        }
        #[inline(always)]
        fn get(&self, l: usize) -> f64 {
            let mut a = [0.0f64; 4];
            unsafe { _mm256_storeu_pd(a.as_mut_ptr(), self.0) };
            a[l]
        }
        #[inline(always)]
        fn set(&mut self, l: usize, v: f64) {
            let mut a = [0.0f64; 4];
            unsafe {
                _mm256_storeu_pd(a.as_mut_ptr(), self.0);
                a[l] = v;
                self.0 = _mm256_loadu_pd(a.as_ptr());
            }
        }
    }
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
pub use avx2::F64x4;

/// The fastest f64 lane type of this build: [`F64x4`] (AVX2) where available, else four
/// portable lanes.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
pub type F64Lanes = F64x4;
/// The fastest f64 lane type of this build: [`F64x4`] (AVX2) where available, else four
/// portable lanes.
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
)))]
pub type F64Lanes = Lanes<f64, 4>;

/// K lane groups of type `L` used as one lane type of K·`L::WIDTH` lanes: every operation
/// issues K independent instructions back to back, which hides the latency of the long
/// dependency chains of VecSum and renormalisation (one AVX2 register alone leaves the FP
/// units mostly idle).
#[derive(Clone, Copy, Debug)]
pub struct Wide<L: Lane, const K: usize>(pub [L; K]);

macro_rules! wide_binop {
    ($tr:ident, $f:ident) => {
        impl<L: Lane, const K: usize> $tr for Wide<L, K> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                for k in 0..K {
                    r[k] = $tr::$f(self.0[k], o.0[k]);
                }
                Self(r)
            }
        }
    };
}
wide_binop!(Add, add);
wide_binop!(Sub, sub);
wide_binop!(Mul, mul);

impl<L: Lane, const K: usize> Neg for Wide<L, K> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self(self.0.map(|v| -v))
    }
}

impl<L: Lane, const K: usize> Lane for Wide<L, K> {
    type Scalar = L::Scalar;
    const WIDTH: usize = K * L::WIDTH;
    #[inline(always)]
    fn splat(v: L::Scalar) -> Self {
        Self([L::splat(v); K])
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        let mut r = self.0;
        for k in 0..K {
            r[k] = self.0[k].mul_add(a.0[k], b.0[k]);
        }
        Self(r)
    }
    #[inline(always)]
    fn select_nonzero(c: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for k in 0..K {
            r[k] = L::select_nonzero(c.0[k], a.0[k], b.0[k]);
        }
        Self(r)
    }
    #[inline(always)]
    fn select_eq(j: Self, kk: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for k in 0..K {
            r[k] = L::select_eq(j.0[k], kk.0[k], a.0[k], b.0[k]);
        }
        Self(r)
    }
    #[inline(always)]
    fn select_lt(j: Self, kk: Self, a: Self, b: Self) -> Self {
        let mut r = b.0;
        for k in 0..K {
            r[k] = L::select_lt(j.0[k], kk.0[k], a.0[k], b.0[k]);
        }
        Self(r)
    }
    #[inline(always)]
    fn get(&self, l: usize) -> L::Scalar {
        self.0[l / L::WIDTH].get(l % L::WIDTH)
    }
    #[inline(always)]
    fn set(&mut self, l: usize, v: L::Scalar) {
        self.0[l / L::WIDTH].set(l % L::WIDTH, v)
    }
}

/// 2Sum on lanes (same operations as [`crate::eft::two_sum`]).
#[inline(always)]
fn two_sum<L: Lane>(a: L, b: L) -> (L, L) {
    let s = a + b;
    let a_virtual = s - b;
    let b_virtual = s - a_virtual;
    let a_err = a - a_virtual;
    let b_err = b - b_virtual;
    (s, a_err + b_err)
}

/// Fast2Sum on lanes (as [`crate::eft::fast_two_sum`]).
#[inline(always)]
fn fast_two_sum<L: Lane>(a: L, b: L) -> (L, L) {
    let s = a + b;
    let z = s - a;
    (s, b - z)
}

/// 2ProdFMA on lanes (as [`crate::eft::two_prod`]).
#[inline(always)]
fn two_prod<L: Lane>(a: L, b: L) -> (L, L) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// VecSum on lanes (as [`crate::eft::vec_sum`]).
#[inline(always)]
fn vec_sum<L: Lane>(x: &mut [L]) {
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

/// VecSumErrBranch on lanes (as `err_branch` in [`crate::fast`]; `EXACT` selects 2Sum or
/// Fast2Sum): the scalar version's branch (emit a term when the error is non-zero, stop after N
/// terms) becomes per-lane selects on a per-lane term count `j`, kept as a float so that
/// compares and blends vectorise.
#[inline(always)]
fn err_branch<L: Lane, const N: usize, const EXACT: bool>(e: &[L]) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let one = L::splat(<L::Scalar as FloatTerm>::ONE);
    let n_l = L::splat(<L::Scalar as FloatTerm>::from_f64(N as f64));
    let ks: [L; N] =
        core::array::from_fn(|k| L::splat(<L::Scalar as FloatTerm>::from_f64(k as f64)));
    let mut out = [zero; N];
    let mut j = zero;
    let mut eps = e[0];
    for &next in &e[1..] {
        let (r, err) = if EXACT {
            two_sum(eps, next)
        } else {
            fast_two_sum(eps, next)
        };
        for k in 0..N {
            out[k] = L::select_eq(j, ks[k], L::select_nonzero(err, r, out[k]), out[k]);
        }
        let next_eps = L::select_nonzero(err, err, r);
        let next_j = L::select_nonzero(err, j + one, j);
        eps = L::select_lt(j, n_l, next_eps, eps);
        j = L::select_lt(j, n_l, next_j, j);
    }
    for k in 0..N {
        out[k] = L::select_eq(j, ks[k], eps, out[k]);
    }
    out
}

/// VecSum then VecSumErrBranch (as `renorm` in [`crate::fast`]).
#[inline(always)]
fn renorm<L: Lane, const N: usize, const EXACT: bool>(list: &mut [L]) -> [L; N] {
    vec_sum(list);
    err_branch::<L, N, EXACT>(list)
}

/// Longest list a fast operation renormalises (as in [`crate::fast`]).
const LIST: usize = 65;

/// Fast addition on lanes: the same operations as [`Expansion::add_fast`].
#[inline(always)]
pub fn add_fast<L: Lane, const N: usize>(a: &[L; N], b: &[L; N]) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    if N == 1 {
        out[0] = a[0] + b[0];
    } else if N == 2 {
        let (s, e) = two_sum(a[0], b[0]);
        let v = a[1] + b[1];
        let w = e + v;
        let (z0, z1) = fast_two_sum(s, w);
        out[0] = z0;
        out[1] = z1;
    } else {
        let mut list = [zero; LIST];
        for i in 0..N {
            list[2 * i] = a[i];
            list[2 * i + 1] = b[i];
        }
        out = renorm::<L, N, true>(&mut list[..2 * N]);
    }
    out
}

/// Fast multiplication on lanes: the same operations as [`Expansion::mul_fast`].
#[inline(always)]
pub fn mul_fast<L: Lane, const N: usize>(a: &[L; N], b: &[L; N]) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    if N == 1 {
        out[0] = a[0] * b[0];
    } else if N == 2 {
        let (p, e) = two_prod(a[0], b[0]);
        let t = a[0] * b[1];
        let c = a[1].mul_add(b[0], t);
        let w = e + c;
        let (z0, z1) = fast_two_sum(p, w);
        out[0] = z0;
        out[1] = z1;
    } else {
        let mut list = [zero; LIST];
        let mut len = 0usize;
        let mut prev = [zero; 8];
        for n in 0..N {
            let mut cur = [zero; 8];
            for i in 0..=n {
                let (p, e) = two_prod(a[i], b[n - i]);
                list[len] = p;
                len += 1;
                cur[i] = e;
            }
            for &e in prev.iter().take(n) {
                list[len] = e;
                len += 1;
            }
            prev = cur;
        }
        let mut last = zero;
        for i in 1..N {
            last = last + a[i] * b[N - i];
        }
        for &e in prev.iter().take(N) {
            last = last + e;
        }
        list[len] = last;
        len += 1;
        out = renorm::<L, N, false>(&mut list[..len]);
    }
    out
}

/// Fast square on lanes: the same operations as [`Expansion::sqr_fast`].
#[inline(always)]
pub fn sqr_fast<L: Lane, const N: usize>(a: &[L; N]) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    if N == 1 {
        out[0] = a[0] * a[0];
    } else if N == 2 {
        let (p, e) = two_prod(a[0], a[0]);
        let w = (a[0] + a[0]).mul_add(a[1], e);
        let (z0, z1) = fast_two_sum(p, w);
        out[0] = z0;
        out[1] = z1;
    } else {
        let mut d = [zero; 8];
        for i in 0..N {
            d[i] = a[i] + a[i];
        }
        let mut list = [zero; LIST];
        let mut len = 0usize;
        let mut prev = [zero; 8];
        let mut prev_len = 0usize;
        for n in 0..N {
            let mut cur = [zero; 8];
            let mut cur_len = 0usize;
            for i in 0..=n / 2 {
                let j = n - i;
                let (p, e) = if i < j {
                    two_prod(d[i], a[j])
                } else {
                    two_prod(a[i], a[i])
                };
                list[len] = p;
                len += 1;
                cur[cur_len] = e;
                cur_len += 1;
            }
            for &e in prev.iter().take(prev_len) {
                list[len] = e;
                len += 1;
            }
            prev = cur;
            prev_len = cur_len;
        }
        let mut last = zero;
        for i in 1..=N / 2 {
            let j = N - i;
            last = last + if i < j { d[i] * a[j] } else { a[i] * a[i] };
        }
        for &e in prev.iter().take(prev_len) {
            last = last + e;
        }
        list[len] = last;
        len += 1;
        out = renorm::<L, N, false>(&mut list[..len]);
    }
    out
}

/// Fast multiplication by one machine number on lanes: the same operations as
/// [`Expansion::mul_term_fast`].
#[inline(always)]
pub fn mul_term_fast<L: Lane, const N: usize>(a: &[L; N], t: L) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    if N == 1 {
        out[0] = a[0] * t;
    } else if N == 2 {
        let (p, e) = two_prod(a[0], t);
        let w = a[1].mul_add(t, e);
        let (z0, z1) = fast_two_sum(p, w);
        out[0] = z0;
        out[1] = z1;
    } else {
        let mut list = [zero; LIST];
        let (p0, mut e_prev) = two_prod(a[0], t);
        list[0] = p0;
        let mut len = 1usize;
        for i in 1..N {
            let (p, e) = if i + 1 < N {
                two_prod(a[i], t)
            } else {
                (a[i] * t, zero)
            };
            list[len] = p;
            list[len + 1] = e_prev;
            len += 2;
            e_prev = e;
        }
        out = renorm::<L, N, false>(&mut list[..len]);
    }
    out
}

/// Fast addition of one machine number on lanes: the same operations as
/// [`Expansion::add_term_fast`].
#[inline(always)]
pub fn add_term_fast<L: Lane, const N: usize>(a: &[L; N], t: L) -> [L; N] {
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let mut out = [zero; N];
    if N == 1 {
        out[0] = a[0] + t;
    } else if N == 2 {
        let (s, e) = two_sum(a[0], t);
        let v = a[1] + e;
        let (z0, z1) = fast_two_sum(s, v);
        out[0] = z0;
        out[1] = z1;
    } else {
        let mut list = [zero; LIST];
        list[0] = a[0];
        list[1] = t;
        list[2..N + 1].copy_from_slice(&a[1..N]);
        out = renorm::<L, N, true>(&mut list[..N + 1]);
    }
    out
}

/// `L::WIDTH` Hénon orbits in struct-of-arrays form: lane l of `x[i]` is term i of orbit l's x.
#[derive(Clone, Copy, Debug)]
pub struct Block<L: Lane, const N: usize> {
    /// Terms of the x coordinates.
    pub x: [L; N],
    /// Terms of the y coordinates.
    pub y: [L; N],
}

/// The map's parameters broadcast to lanes, ready for [`Block::step`].
#[derive(Clone, Copy, Debug)]
pub struct Params<L: Lane, const N: usize> {
    a: [L; N],
    b: [L; N],
    one: L,
    a_single: bool,
    b_single: bool,
}

impl<L: Lane, const N: usize> Params<L, N> {
    /// Broadcasts (a, b).
    pub fn new(a: &Expansion<L::Scalar, N>, b: &Expansion<L::Scalar, N>) -> Self {
        Self {
            a: core::array::from_fn(|i| L::splat(a.terms()[i])),
            b: core::array::from_fn(|i| L::splat(b.terms()[i])),
            one: L::splat(<L::Scalar as FloatTerm>::ONE),
            a_single: a.is_single_term(),
            b_single: b.is_single_term(),
        }
    }
}

impl<L: Lane, const N: usize> Block<L, N> {
    /// Loads `L::WIDTH` orbits (`xs.len() == ys.len() == L::WIDTH`).
    pub fn load(xs: &[Expansion<L::Scalar, N>], ys: &[Expansion<L::Scalar, N>]) -> Self {
        assert!(
            xs.len() == L::WIDTH && ys.len() == L::WIDTH,
            "Block::load needs exactly one orbit per lane"
        );
        let mut x = [L::splat(<L::Scalar as FloatTerm>::ZERO); N];
        let mut y = x;
        for l in 0..L::WIDTH {
            for i in 0..N {
                x[i].set(l, xs[l].terms()[i]);
                y[i].set(l, ys[l].terms()[i]);
            }
        }
        Self { x, y }
    }

    /// Orbit `l` as fast-tier expansions (terms verbatim).
    pub fn get(&self, l: usize) -> (Expansion<L::Scalar, N>, Expansion<L::Scalar, N>) {
        let x = core::array::from_fn(|i| self.x[i].get(l));
        let y = core::array::from_fn(|i| self.y[i].get(l));
        (Expansion::from_normalized(x), Expansion::from_normalized(y))
    }

    /// One Hénon step of every orbit, in the documented order of operations
    /// (x² = sqr(x); t = a·x²; u = y + 1; x' = u − t; y' = b·x) with the fast tier.
    #[inline(always)]
    pub fn step(&mut self, p: &Params<L, N>) {
        // As `Fast::mul_param`: a parameter held as one term is multiplied with mul_term_fast.
        let x2 = sqr_fast(&self.x);
        let t = if p.a_single {
            mul_term_fast(&x2, p.a[0])
        } else {
            mul_fast(&x2, &p.a)
        };
        let u = add_term_fast(&self.y, p.one);
        let neg_t = t.map(|v| -v);
        let nx = add_fast(&u, &neg_t);
        let ny = if p.b_single {
            mul_term_fast(&self.x, p.b[0])
        } else {
            mul_fast(&self.x, &p.b)
        };
        self.x = nx;
        self.y = ny;
    }
}

/// Iterates every orbit (xs[k], ys[k]) `steps` times with the fast tier, `2·L::WIDTH` orbits at
/// a time (two independent blocks per loop iteration keep more operations in flight); the
/// remaining orbits go through the scalar [`crate::Fast`] (same results).
pub fn henon_iterate_batch<L: Lane, const N: usize>(
    a: &Expansion<L::Scalar, N>,
    b: &Expansion<L::Scalar, N>,
    xs: &mut [Expansion<L::Scalar, N>],
    ys: &mut [Expansion<L::Scalar, N>],
    steps: u64,
) {
    assert_eq!(
        xs.len(),
        ys.len(),
        "henon_iterate_batch: xs and ys differ in length"
    );
    let p = Params::<L, N>::new(a, b);
    let w = L::WIDTH;
    let full = xs.len() / (2 * w) * (2 * w);
    for (cx, cy) in xs[..full]
        .chunks_mut(2 * w)
        .zip(ys[..full].chunks_mut(2 * w))
    {
        let mut b0 = Block::<L, N>::load(&cx[..w], &cy[..w]);
        let mut b1 = Block::<L, N>::load(&cx[w..], &cy[w..]);
        for _ in 0..steps {
            b0.step(&p);
            b1.step(&p);
        }
        for l in 0..w {
            (cx[l], cy[l]) = b0.get(l);
            (cx[w + l], cy[w + l]) = b1.get(l);
        }
    }
    for k in full..xs.len() {
        let (x, y) = crate::henon_iterate(a, b, &crate::Fast(xs[k]), &crate::Fast(ys[k]), steps);
        xs[k] = x.0;
        ys[k] = y.0;
    }
}

/// Double-word (N = 2) accurate-tier operations on lanes: the same operations as
/// [`crate::dw`] minus the input renormalisation, which is the identity on the normalised
/// double-words these functions receive (they produce normalised double-words, and the batch
/// entry point normalises its inputs once). Bounds: see [`crate::bounds`] (N = 2).
mod dw_lanes {
    use super::{fast_two_sum, two_prod, two_sum, Lane};

    /// AccurateDWPlusDW (JMP Alg. 6).
    #[inline(always)]
    pub fn add<L: Lane>(x: (L, L), y: (L, L)) -> (L, L) {
        let (sh, sl) = two_sum(x.0, y.0);
        let (th, tl) = two_sum(x.1, y.1);
        let c = sl + th;
        let (vh, vl) = fast_two_sum(sh, c);
        let w = tl + vl;
        fast_two_sum(vh, w)
    }

    /// DWTimesDW with FMA (JMP Alg. 12).
    #[inline(always)]
    pub fn mul<L: Lane>(x: (L, L), y: (L, L)) -> (L, L) {
        let (ch, cl1) = two_prod(x.0, y.0);
        let tl0 = x.1 * y.1;
        let tl1 = x.0.mul_add(y.1, tl0);
        let cl2 = x.1.mul_add(y.0, tl1);
        let cl3 = cl1 + cl2;
        fast_two_sum(ch, cl3)
    }
}

/// Iterates every orbit `steps` times with the *accurate* tier for N = 2 (double-word
/// arithmetic with proven bounds, JMP 2017), `2·L::WIDTH` orbits at a time. For finite orbits
/// the results equal `henon_step` on `Expansion<_, 2>` (the accurate tier) term for term; the
/// inputs are first normalised (exactly) as the accurate tier does. Non-finite values stay
/// non-finite (their NaN/∞ pattern may differ from the scalar code's).
pub fn henon_iterate_batch_dw<L: Lane>(
    a: &Expansion<L::Scalar, 2>,
    b: &Expansion<L::Scalar, 2>,
    xs: &mut [Expansion<L::Scalar, 2>],
    ys: &mut [Expansion<L::Scalar, 2>],
    steps: u64,
) {
    assert_eq!(
        xs.len(),
        ys.len(),
        "henon_iterate_batch_dw: xs and ys differ in length"
    );
    let norm = |v: (L, L)| fast_two_sum(v.0, v.1);
    let pa = norm((L::splat(a.terms()[0]), L::splat(a.terms()[1])));
    let pb = norm((L::splat(b.terms()[0]), L::splat(b.terms()[1])));
    let zero = L::splat(<L::Scalar as FloatTerm>::ZERO);
    let one = (L::splat(<L::Scalar as FloatTerm>::ONE), zero);
    let w = L::WIDTH;
    let step = |x: (L, L), y: (L, L)| {
        let x2 = dw_lanes::mul(x, x);
        let t = dw_lanes::mul(x2, pa);
        let u = dw_lanes::add(y, one);
        let nx = dw_lanes::add(u, (-t.0, -t.1));
        let ny = dw_lanes::mul(x, pb);
        (nx, ny)
    };
    let full = xs.len() / (2 * w) * (2 * w);
    for (cx, cy) in xs[..full]
        .chunks_mut(2 * w)
        .zip(ys[..full].chunks_mut(2 * w))
    {
        let load = |v: &[Expansion<L::Scalar, 2>], off: usize| {
            let (mut h, mut l) = (zero, zero);
            for k in 0..w {
                h.set(k, v[off + k].terms()[0]);
                l.set(k, v[off + k].terms()[1]);
            }
            norm((h, l))
        };
        let (mut x0, mut y0, mut x1, mut y1) = (load(cx, 0), load(cy, 0), load(cx, w), load(cy, w));
        for _ in 0..steps {
            (x0, y0) = step(x0, y0);
            (x1, y1) = step(x1, y1);
        }
        for k in 0..w {
            cx[k] = Expansion::from_normalized([x0.0.get(k), x0.1.get(k)]);
            cy[k] = Expansion::from_normalized([y0.0.get(k), y0.1.get(k)]);
            cx[w + k] = Expansion::from_normalized([x1.0.get(k), x1.1.get(k)]);
            cy[w + k] = Expansion::from_normalized([y1.0.get(k), y1.1.get(k)]);
        }
    }
    for k in full..xs.len() {
        let (x, y) = crate::henon_iterate(a, b, &xs[k], &ys[k], steps);
        xs[k] = x;
        ys[k] = y;
    }
}
