//! Batch iteration of many independent Hénon orbits in the *fast* tier, W orbits at a time in
//! struct-of-arrays form so that every arithmetic operation acts on W lanes at once.
//!
//! Following one orbit at a time is bound by latency: each operation of a step depends on the
//! previous one. Here term i of the x coordinate of W orbits is one lane value (a [`Lane`]:
//! [`F64x4`] is one AVX2 register of 4 f64, [`Wide`] groups several), and the fast-tier
//! algorithms of [`crate::fast`] are written once over lanes (a machine number is a lane type
//! of width 1, which is how the scalar fast tier runs them) and have no data-dependent branch.
//! Every lane performs exactly the operations the scalar [`crate::Fast`] performs, in the same
//! order, so results agree bit for bit with
//! `henon_step` on `Fast<T, N>` (tested in `tests/it/batch.rs`); the search can therefore use
//! this and still match the GPU kernels.
//!
//! The instances the search and the benchmarks run (f64 on AVX2 or AVX-512 lanes, f32 one
//! orbit at a time, N = 1..8) are compiled once, in [`crate::runtime`], behind a run-time N;
//! the typed entry points here forward to them, so other crates do not compile the matrix
//! again.

use crate::eft::{fast_two_sum, two_prod, two_sum};
use crate::expansion::Expansion;
use crate::fast::{henon_x, sqr, Param};
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
    /// Lane `l`.
    fn get(&self, l: usize) -> Self::Scalar;
    /// Sets lane `l`.
    fn set(&mut self, l: usize, v: Self::Scalar);
    /// `self + o`, bit for bit, issued where the lane type can as the FMA `self·1 + o` (one
    /// rounding of the same exact sum, so the same result, signed zeros included). The fast
    /// tier's level sums are almost all additions: x86 cores run additions on two pipes and
    /// FMAs on two others, so sending part of the additions to the FMA pipes shortens a step.
    /// (Only the instruction changes, never an operation or its order.)
    #[inline(always)]
    fn add_on_fma(self, o: Self) -> Self {
        self + o
    }
    /// `self − o`, bit for bit, as the FMA `o·(−1) + self` where the lane type can (see
    /// [`Lane::add_on_fma`]).
    #[inline(always)]
    fn sub_on_fma(self, o: Self) -> Self {
        self - o
    }
}

/// One machine number is a lane type of width 1: the scalar fast tier
/// ([`Expansion::add_fast`] and the rest) runs the lane algorithms of [`crate::fast`] on it.
macro_rules! scalar_lane {
    ($t:ty) => {
        impl Lane for $t {
            type Scalar = $t;
            const WIDTH: usize = 1;
            #[inline(always)]
            fn splat(v: $t) -> Self {
                v
            }
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self {
                <$t>::mul_add(self, a, b)
            }
            #[inline(always)]
            fn get(&self, _l: usize) -> $t {
                *self
            }
            #[inline(always)]
            fn set(&mut self, _l: usize, v: $t) {
                *self = v;
            }
        }
    };
}
scalar_lane!(f64);
scalar_lane!(f32);

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

/// One boolean per lane: the result of a lane comparison ([`MaskedLane`]).
pub trait LaneMask: Copy {
    /// Number of lanes.
    const WIDTH: usize;
    /// Lane-wise `self && o`.
    fn and(self, o: Self) -> Self;
    /// Lane-wise `self || o`.
    fn or(self, o: Self) -> Self;
    /// Lane-wise `!self`.
    fn not(self) -> Self;
    /// True when every lane is set.
    fn all(self) -> bool;
    /// Lane `l`.
    fn test(self, l: usize) -> bool;
    /// True when some lane is set. Branch-free in the SIMD masks (one reduction, no early
    /// exit), for decisions computed off the loop-carried chain
    /// (`crate::accurate_batch`'s list compaction).
    #[inline(always)]
    fn any(self) -> bool {
        !self.not().all()
    }
}

/// A [`Lane`] with comparisons, selection and the bit-level helpers that the branch-free
/// accurate tier on lanes ([`crate::accurate_batch`]) needs. Every operation is the lane-wise
/// version of the scalar one, with the scalar comparison semantics on NaN (`mask_ne` is true,
/// the other comparisons false), so each lane decides exactly what the scalar code decides.
/// (A separate trait rather than more methods of [`Lane`], so that lane types outside this
/// crate, such as the operation counter of `expanse bench gpu`, need not implement it.)
pub trait MaskedLane: Lane {
    /// One boolean per lane.
    type Mask: LaneMask;
    /// Lane-wise |x| (clears the sign bit).
    fn lane_abs(self) -> Self;
    /// Lane-wise `self == o` (false on NaN).
    fn mask_eq(self, o: Self) -> Self::Mask;
    /// Lane-wise `self != o` (true on NaN, like the scalar `!=`).
    fn mask_ne(self, o: Self) -> Self::Mask;
    /// Lane-wise `self <= o` (false on NaN).
    fn mask_le(self, o: Self) -> Self::Mask;
    /// Lane-wise `self >= o` (false on NaN).
    fn mask_ge(self, o: Self) -> Self::Mask;
    /// Lane-wise `is_finite`.
    fn finite_mask(self) -> Self::Mask;
    /// Lane-wise `if m { a } else { b }`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Lane-wise [`crate::float::ulp`], bit for bit (subnormals, zero and non-finite values
    /// included).
    fn lane_ulp(self) -> Self;
    /// Lanes `0..WIDTH` from `src[..WIDTH]`.
    fn load(src: &[Self::Scalar]) -> Self {
        let mut r = Self::splat(<Self::Scalar as FloatTerm>::ZERO);
        for (l, &v) in src[..Self::WIDTH].iter().enumerate() {
            r.set(l, v);
        }
        r
    }
    /// Stores lanes `0..WIDTH` into `dst[..WIDTH]`.
    fn store(self, dst: &mut [Self::Scalar]) {
        for (l, d) in dst[..Self::WIDTH].iter_mut().enumerate() {
            *d = self.get(l);
        }
    }
}

impl LaneMask for bool {
    const WIDTH: usize = 1;
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
    #[inline(always)]
    fn all(self) -> bool {
        self
    }
    #[inline(always)]
    fn test(self, _l: usize) -> bool {
        self
    }
}

macro_rules! scalar_masked_lane {
    ($t:ty) => {
        impl MaskedLane for $t {
            type Mask = bool;
            #[inline(always)]
            fn lane_abs(self) -> Self {
                self.abs()
            }
            #[inline(always)]
            fn mask_eq(self, o: Self) -> bool {
                self == o
            }
            #[inline(always)]
            fn mask_ne(self, o: Self) -> bool {
                self != o
            }
            #[inline(always)]
            fn mask_le(self, o: Self) -> bool {
                self <= o
            }
            #[inline(always)]
            fn mask_ge(self, o: Self) -> bool {
                self >= o
            }
            #[inline(always)]
            fn finite_mask(self) -> bool {
                self.is_finite()
            }
            #[inline(always)]
            fn select(m: bool, a: Self, b: Self) -> Self {
                if m {
                    a
                } else {
                    b
                }
            }
            #[inline(always)]
            fn lane_ulp(self) -> Self {
                crate::float::ulp(self)
            }
        }
    };
}
scalar_masked_lane!(f64);
scalar_masked_lane!(f32);

/// W booleans: the mask of [`Lanes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoolMask<const W: usize>(pub [bool; W]);

impl<const W: usize> LaneMask for BoolMask<W> {
    const WIDTH: usize = W;
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Self(core::array::from_fn(|l| self.0[l] & o.0[l]))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Self(core::array::from_fn(|l| self.0[l] | o.0[l]))
    }
    #[inline(always)]
    fn not(self) -> Self {
        Self(core::array::from_fn(|l| !self.0[l]))
    }
    #[inline(always)]
    fn all(self) -> bool {
        self.0.iter().all(|&b| b)
    }
    #[inline(always)]
    fn test(self, l: usize) -> bool {
        self.0[l]
    }
}

impl<T: FloatTerm, const W: usize> MaskedLane for Lanes<T, W> {
    type Mask = BoolMask<W>;
    #[inline(always)]
    fn lane_abs(self) -> Self {
        Self(core::array::from_fn(|l| self.0[l].abs()))
    }
    #[inline(always)]
    fn mask_eq(self, o: Self) -> BoolMask<W> {
        BoolMask(core::array::from_fn(|l| self.0[l] == o.0[l]))
    }
    #[inline(always)]
    fn mask_ne(self, o: Self) -> BoolMask<W> {
        BoolMask(core::array::from_fn(|l| self.0[l] != o.0[l]))
    }
    #[inline(always)]
    fn mask_le(self, o: Self) -> BoolMask<W> {
        BoolMask(core::array::from_fn(|l| self.0[l] <= o.0[l]))
    }
    #[inline(always)]
    fn mask_ge(self, o: Self) -> BoolMask<W> {
        BoolMask(core::array::from_fn(|l| self.0[l] >= o.0[l]))
    }
    #[inline(always)]
    fn finite_mask(self) -> BoolMask<W> {
        BoolMask(core::array::from_fn(|l| self.0[l].is_finite()))
    }
    #[inline(always)]
    fn select(m: BoolMask<W>, a: Self, b: Self) -> Self {
        Self(core::array::from_fn(
            |l| if m.0[l] { a.0[l] } else { b.0[l] },
        ))
    }
    #[inline(always)]
    fn lane_ulp(self) -> Self {
        Self(core::array::from_fn(|l| crate::float::ulp(self.0[l])))
    }
    #[inline(always)]
    fn load(src: &[T]) -> Self {
        Self(core::array::from_fn(|l| src[l]))
    }
    #[inline(always)]
    fn store(self, dst: &mut [T]) {
        dst[..W].copy_from_slice(&self.0);
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

    /// The mask of [`F64x4`]: all-ones or all-zeros per lane, as AVX comparisons give.
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub struct M64x4(__m256d);

    impl super::LaneMask for M64x4 {
        const WIDTH: usize = 4;
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Self(unsafe { _mm256_and_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Self(unsafe { _mm256_or_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn not(self) -> Self {
            Self(unsafe { _mm256_xor_pd(self.0, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))) })
        }
        #[inline(always)]
        fn all(self) -> bool {
            unsafe { _mm256_movemask_pd(self.0) == 0xF }
        }
        #[inline(always)]
        fn test(self, l: usize) -> bool {
            unsafe { (_mm256_movemask_pd(self.0) >> l) & 1 == 1 }
        }
        #[inline(always)]
        fn any(self) -> bool {
            unsafe { _mm256_movemask_pd(self.0) != 0 }
        }
    }

    impl super::MaskedLane for F64x4 {
        type Mask = M64x4;
        #[inline(always)]
        fn lane_abs(self) -> Self {
            Self(unsafe { _mm256_andnot_pd(_mm256_set1_pd(-0.0), self.0) })
        }
        #[inline(always)]
        fn mask_eq(self, o: Self) -> M64x4 {
            M64x4(unsafe { _mm256_cmp_pd::<_CMP_EQ_OQ>(self.0, o.0) })
        }
        #[inline(always)]
        fn mask_ne(self, o: Self) -> M64x4 {
            M64x4(unsafe { _mm256_cmp_pd::<_CMP_NEQ_UQ>(self.0, o.0) })
        }
        #[inline(always)]
        fn mask_le(self, o: Self) -> M64x4 {
            M64x4(unsafe { _mm256_cmp_pd::<_CMP_LE_OQ>(self.0, o.0) })
        }
        #[inline(always)]
        fn mask_ge(self, o: Self) -> M64x4 {
            M64x4(unsafe { _mm256_cmp_pd::<_CMP_GE_OQ>(self.0, o.0) })
        }
        #[inline(always)]
        fn finite_mask(self) -> M64x4 {
            let a = self.lane_abs();
            M64x4(unsafe { _mm256_cmp_pd::<_CMP_LT_OQ>(a.0, _mm256_set1_pd(f64::INFINITY)) })
        }
        #[inline(always)]
        fn select(m: M64x4, a: Self, b: Self) -> Self {
            Self(unsafe { _mm256_blendv_pd(b.0, a.0, m.0) })
        }
        #[inline(always)]
        fn lane_ulp(self) -> Self {
            // For finite x: |x| with the fraction cleared is 2^e (0 for zero and subnormals);
            // 2^e · 2^−52 is exact (a power of two ≥ 2^−1074), which is ulp for normal x; the
            // max with 2^−1074 gives the ulp of zero and subnormals. Non-finite: the scalar
            // formula's value, ulp(∞).
            unsafe {
                let exp = _mm256_and_pd(self.0, _mm256_set1_pd(f64::INFINITY));
                let u = _mm256_max_pd(
                    _mm256_mul_pd(exp, _mm256_set1_pd(f64::EPSILON)),
                    _mm256_set1_pd(f64::from_bits(1)),
                );
                let fin = _mm256_cmp_pd::<_CMP_LT_OQ>(exp, _mm256_set1_pd(f64::INFINITY));
                Self(_mm256_blendv_pd(
                    _mm256_set1_pd(crate::float::ulp(f64::INFINITY)),
                    u,
                    fin,
                ))
            }
        }
        #[inline(always)]
        fn load(src: &[f64]) -> Self {
            assert!(src.len() >= 4);
            // SAFETY: four f64 are readable at `src` (checked above).
            Self(unsafe { _mm256_loadu_pd(src.as_ptr()) })
        }
        #[inline(always)]
        fn store(self, dst: &mut [f64]) {
            assert!(dst.len() >= 4);
            // SAFETY: four f64 are writable at `dst` (checked above).
            unsafe { _mm256_storeu_pd(dst.as_mut_ptr(), self.0) }
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
        // Inline assembly, because LLVM folds an FMA by the constant 1 back into an addition
        // (the point is the other execution unit); the ±1 come from memory operands, so they
        // take no register. The instructions read only the constant statics below.
        #[inline(always)]
        fn add_on_fma(self, o: Self) -> Self {
            let mut r = o.0;
            // SAFETY: AVX2/FMA are enabled (see the module cfg); reads only `PLUS_ONE`.
            unsafe {
                core::arch::asm!(
                    "vfmadd231pd {r}, {a}, ymmword ptr [rip + {one}]",
                    r = inout(ymm_reg) r,
                    a = in(ymm_reg) self.0,
                    one = sym PLUS_ONE,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
            Self(r)
        }
        #[inline(always)]
        fn sub_on_fma(self, o: Self) -> Self {
            let mut r = self.0;
            // SAFETY: as in `add_on_fma`; reads only `MINUS_ONE`.
            unsafe {
                core::arch::asm!(
                    "vfmadd231pd {r}, {b}, ymmword ptr [rip + {m}]",
                    r = inout(ymm_reg) r,
                    b = in(ymm_reg) o.0,
                    m = sym MINUS_ONE,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
            Self(r)
        }
    }

    /// Four 1.0 for [`Lane::add_on_fma`] (32-byte aligned for the memory operand).
    #[repr(C, align(32))]
    struct Ones([f64; 4]);
    static PLUS_ONE: Ones = Ones([1.0; 4]);
    static MINUS_ONE: Ones = Ones([-1.0; 4]);
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
pub use avx2::{F64x4, M64x4};

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

/// `$body` for `$k` = 0, 1, …, K − 1, written out instead of looped (K ≤ 4). Every `Wide`
/// operation is inlined thousands of times into the Hénon step functions, and LLVM runs its
/// loop passes (rotation, full unrolling) on each of those two-iteration loops before it
/// unrolls them, at about 10 ms a loop in functions that size: the fast tier's N = 3..8
/// per-orbit instances alone held ~1900 such loops and took over a minute of the release
/// build. The dead copies (k ≥ K) are dropped at monomorphisation (`if const`).
macro_rules! each_group {
    ($K:ident, $k:ident => $body:block) => {{
        const { assert!($K >= 1 && $K <= 4, "Wide has 1..=4 lane groups") };
        {
            let $k = 0usize;
            $body
        }
        if const { $K > 1 } {
            let $k = 1usize;
            $body
        }
        if const { $K > 2 } {
            let $k = 2usize;
            $body
        }
        if const { $K > 3 } {
            let $k = 3usize;
            $body
        }
    }};
}

macro_rules! wide_binop {
    ($tr:ident, $f:ident) => {
        impl<L: Lane, const K: usize> $tr for Wide<L, K> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                each_group!(K, k => { r[k] = $tr::$f(self.0[k], o.0[k]); });
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
        let mut r = self.0;
        each_group!(K, k => { r[k] = -r[k]; });
        Self(r)
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
        each_group!(K, k => { r[k] = self.0[k].mul_add(a.0[k], b.0[k]); });
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
    #[inline(always)]
    fn add_on_fma(self, o: Self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = self.0[k].add_on_fma(o.0[k]); });
        Self(r)
    }
    #[inline(always)]
    fn sub_on_fma(self, o: Self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = self.0[k].sub_on_fma(o.0[k]); });
        Self(r)
    }
}

/// The mask of [`Wide`]: one mask per lane group.
#[derive(Clone, Copy, Debug)]
pub struct WideMask<M: LaneMask, const K: usize>(pub [M; K]);

// Written-out groups (`each_group!`), no `core::array::from_fn`: its closure is compiled
// without the AVX-512 target feature of the caller (`crate::accurate_batch::avx512`), so the
// lane operations inside would not be inlined (measured: the AVX-512 accurate lanes ran 4x
// slower).
impl<M: LaneMask, const K: usize> LaneMask for WideMask<M, K> {
    const WIDTH: usize = K * M::WIDTH;
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = r[k].and(o.0[k]); });
        Self(r)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = r[k].or(o.0[k]); });
        Self(r)
    }
    #[inline(always)]
    fn not(self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = r[k].not(); });
        Self(r)
    }
    #[inline(always)]
    fn all(self) -> bool {
        // One test of the groups' conjunction: no short-circuit branch per group (the
        // accurate lanes' emission loop tests this at every item).
        let mut r = self.0[0];
        each_group!(K, k => { if k > 0 { r = r.and(self.0[k]); } });
        r.all()
    }
    #[inline(always)]
    fn test(self, l: usize) -> bool {
        self.0[l / M::WIDTH].test(l % M::WIDTH)
    }
    #[inline(always)]
    fn any(self) -> bool {
        let mut r = self.0[0];
        each_group!(K, k => { if k > 0 { r = r.or(self.0[k]); } });
        r.any()
    }
}

// Written-out groups (`each_group!`), no `core::array::from_fn`: its closure is compiled
// without the AVX-512 target feature of the caller (`crate::accurate_batch::avx512`), so the
// lane operations inside would not be inlined (measured: the AVX-512 accurate lanes ran 4x
// slower).
impl<L: MaskedLane, const K: usize> MaskedLane for Wide<L, K> {
    type Mask = WideMask<L::Mask, K>;
    #[inline(always)]
    fn lane_abs(self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = r[k].lane_abs(); });
        Self(r)
    }
    #[inline(always)]
    fn mask_eq(self, o: Self) -> Self::Mask {
        let mut r = [self.0[0].mask_eq(o.0[0]); K];
        each_group!(K, k => { if k > 0 { r[k] = self.0[k].mask_eq(o.0[k]); } });
        WideMask(r)
    }
    #[inline(always)]
    fn mask_ne(self, o: Self) -> Self::Mask {
        let mut r = [self.0[0].mask_ne(o.0[0]); K];
        each_group!(K, k => { if k > 0 { r[k] = self.0[k].mask_ne(o.0[k]); } });
        WideMask(r)
    }
    #[inline(always)]
    fn mask_le(self, o: Self) -> Self::Mask {
        let mut r = [self.0[0].mask_le(o.0[0]); K];
        each_group!(K, k => { if k > 0 { r[k] = self.0[k].mask_le(o.0[k]); } });
        WideMask(r)
    }
    #[inline(always)]
    fn mask_ge(self, o: Self) -> Self::Mask {
        let mut r = [self.0[0].mask_ge(o.0[0]); K];
        each_group!(K, k => { if k > 0 { r[k] = self.0[k].mask_ge(o.0[k]); } });
        WideMask(r)
    }
    #[inline(always)]
    fn finite_mask(self) -> Self::Mask {
        let mut r = [self.0[0].finite_mask(); K];
        each_group!(K, k => { if k > 0 { r[k] = self.0[k].finite_mask(); } });
        WideMask(r)
    }
    #[inline(always)]
    fn select(m: Self::Mask, a: Self, b: Self) -> Self {
        let mut r = b.0;
        each_group!(K, k => { r[k] = L::select(m.0[k], a.0[k], b.0[k]); });
        Self(r)
    }
    #[inline(always)]
    fn lane_ulp(self) -> Self {
        let mut r = self.0;
        each_group!(K, k => { r[k] = r[k].lane_ulp(); });
        Self(r)
    }
    #[inline(always)]
    fn load(src: &[L::Scalar]) -> Self {
        let mut r = [L::load(src); K];
        each_group!(K, k => { if k > 0 { r[k] = L::load(&src[k * L::WIDTH..]); } });
        Self(r)
    }
    #[inline(always)]
    fn store(self, dst: &mut [L::Scalar]) {
        each_group!(K, k => { self.0[k].store(&mut dst[k * L::WIDTH..]); });
    }
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
    a: Param<L, N>,
    b: Param<L, N>,
}

impl<L: Lane, const N: usize> Params<L, N> {
    /// Broadcasts (a, b).
    pub fn new(a: &Expansion<L::Scalar, N>, b: &Expansion<L::Scalar, N>) -> Self {
        Self {
            a: Param::new(a),
            b: Param::new(b),
        }
    }

    /// Lane l iterates at (a[l], b[l]) (`a.len() == b.len() == L::WIDTH`); `None` when the
    /// lanes cannot share one instruction sequence (see [`Param::per_lane`]).
    #[inline(always)]
    pub fn per_lane(a: &[Expansion<L::Scalar, N>], b: &[Expansion<L::Scalar, N>]) -> Option<Self> {
        Some(Self {
            a: Param::per_lane(a)?,
            b: Param::per_lane(b)?,
        })
    }
}

impl<L: Lane, const N: usize> Block<L, N> {
    /// Loads `L::WIDTH` orbits (`xs.len() == ys.len() == L::WIDTH`).
    #[inline(always)]
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
    #[inline(always)]
    pub fn get(&self, l: usize) -> (Expansion<L::Scalar, N>, Expansion<L::Scalar, N>) {
        let x = core::array::from_fn(|i| self.x[i].get(l));
        let y = core::array::from_fn(|i| self.y[i].get(l));
        (Expansion::from_normalized(x), Expansion::from_normalized(y))
    }

    /// One Hénon step of every orbit, in the documented order of operations
    /// (x² = sqr(x); x' = henon_x(y, a, x²); y' = b·x) with the fast tier.
    #[inline(always)]
    pub fn step(&mut self, p: &Params<L, N>) {
        let x2 = sqr(&self.x);
        let nx = henon_x(&self.y, &p.a, &x2);
        let ny = p.b.mul(&self.x);
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
    iterate_blocks::<L, N>(a, b, xs, ys, steps);
}

/// The body of [`henon_iterate_batch`], always inlined so that the AVX-512 entry point (a
/// `#[target_feature]` function) compiles all of it with AVX-512 enabled.
#[inline(always)]
fn iterate_blocks<L: Lane, const N: usize>(
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
        iterate_two_blocks(&p, &p, cx, cy, steps);
    }
    for k in full..xs.len() {
        (xs[k], ys[k]) = iterate_one_scalar(a, b, &xs[k], &ys[k], steps);
    }
}

/// Iterates the 2·`L::WIDTH` orbits of `cx`, `cy` `steps` times: the first `L::WIDTH` as one
/// block with parameters `p0`, the rest as another with `p1`, interleaved (two independent
/// blocks per loop iteration keep more operations in flight).
#[inline(always)]
fn iterate_two_blocks<L: Lane, const N: usize>(
    p0: &Params<L, N>,
    p1: &Params<L, N>,
    cx: &mut [Expansion<L::Scalar, N>],
    cy: &mut [Expansion<L::Scalar, N>],
    steps: u64,
) {
    let w = L::WIDTH;
    let mut b0 = Block::<L, N>::load(&cx[..w], &cy[..w]);
    let mut b1 = Block::<L, N>::load(&cx[w..], &cy[w..]);
    for _ in 0..steps {
        b0.step(p0);
        b1.step(p1);
    }
    for l in 0..w {
        (cx[l], cy[l]) = b0.get(l);
        (cx[w + l], cy[w + l]) = b1.get(l);
    }
}

/// One orbit through the scalar fast tier (the same results as the lanes).
fn iterate_one_scalar<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
    steps: u64,
) -> (Expansion<T, N>, Expansion<T, N>) {
    let (x, y) = crate::henon_iterate(a, b, &crate::Fast(*x), &crate::Fast(*y), steps);
    (x.0, y.0)
}

/// Iterates orbit k at its own parameters (a[k], b[k]) `steps` times, `B`·`L::WIDTH` orbits
/// at a time (`B` = 1 or 2 blocks per loop iteration); a group whose lanes cannot share one
/// instruction sequence (see [`Param::per_lane`]), and the orbits left over, go through the
/// scalar fast tier (same results).
#[inline(always)]
fn iterate_blocks_per_orbit<L: Lane, const N: usize, const B: usize>(
    a: &[Expansion<L::Scalar, N>],
    b: &[Expansion<L::Scalar, N>],
    xs: &mut [Expansion<L::Scalar, N>],
    ys: &mut [Expansion<L::Scalar, N>],
    steps: u64,
) {
    assert!(
        a.len() == xs.len() && b.len() == xs.len() && ys.len() == xs.len(),
        "henon_iterate_per_orbit: a, b, xs and ys differ in length"
    );
    let w = L::WIDTH;
    let g = B * w;
    let full = xs.len() / g * g;
    let mut k = 0;
    while k < full {
        let p0 = Params::<L, N>::per_lane(&a[k..k + w], &b[k..k + w]);
        let p1 = if B == 2 {
            Params::<L, N>::per_lane(&a[k + w..k + 2 * w], &b[k + w..k + 2 * w])
        } else {
            p0
        };
        match (p0, p1) {
            (Some(p0), Some(p1)) => {
                if B == 2 {
                    iterate_two_blocks(&p0, &p1, &mut xs[k..k + g], &mut ys[k..k + g], steps)
                } else {
                    iterate_one_block(&p0, &mut xs[k..k + g], &mut ys[k..k + g], steps)
                }
            }
            _ => {
                let r = k..k + g;
                per_orbit_scalar_impl(
                    &a[r.clone()],
                    &b[r.clone()],
                    &mut xs[r.clone()],
                    &mut ys[r],
                    steps,
                )
            }
        }
        k += g;
    }
    per_orbit_scalar_impl(
        &a[full..],
        &b[full..],
        &mut xs[full..],
        &mut ys[full..],
        steps,
    );
}

/// Iterates the `L::WIDTH` orbits of `cx`, `cy` `steps` times as one block with parameters `p`.
#[inline(always)]
fn iterate_one_block<L: Lane, const N: usize>(
    p: &Params<L, N>,
    cx: &mut [Expansion<L::Scalar, N>],
    cy: &mut [Expansion<L::Scalar, N>],
    steps: u64,
) {
    let mut b0 = Block::<L, N>::load(cx, cy);
    for _ in 0..steps {
        b0.step(p);
    }
    for l in 0..L::WIDTH {
        (cx[l], cy[l]) = b0.get(l);
    }
}

/// Orbit k at (a[k], b[k]) through the scalar fast tier, one orbit at a time (instantiated in
/// [`crate::runtime`]).
pub(crate) fn per_orbit_scalar_impl<T: FloatTerm, const N: usize>(
    a: &[Expansion<T, N>],
    b: &[Expansion<T, N>],
    xs: &mut [Expansion<T, N>],
    ys: &mut [Expansion<T, N>],
    steps: u64,
) {
    assert!(
        a.len() == xs.len() && b.len() == xs.len() && ys.len() == xs.len(),
        "henon_iterate_per_orbit: a, b, xs and ys differ in length"
    );
    for j in 0..xs.len() {
        (xs[j], ys[j]) = iterate_one_scalar(&a[j], &b[j], &xs[j], &ys[j], steps);
    }
}

/// Iterates orbit k at (a[k], b[k]), f64 terms, on the widest SIMD this CPU has (the search's
/// CPU backend: every orbit has its own parameters). The same results, bit for bit, as
/// `henon_iterate` on [`crate::Fast`] per orbit. Compiled once, in this crate, for every N
/// ([`crate::runtime::henon_iterate_per_orbit_f64`]); this typed entry point only forwards.
#[inline]
pub fn henon_iterate_per_orbit_f64<const N: usize>(
    a: &[Expansion<f64, N>],
    b: &[Expansion<f64, N>],
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) {
    use crate::runtime::{terms_of, terms_of_mut};
    crate::runtime::henon_iterate_per_orbit_f64(
        N,
        terms_of(a),
        terms_of(b),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    )
}

/// Baseline (AVX2) block shape of the fast tier's per-orbit iteration, shared by
/// `per_orbit_f64_impl` and [`SimdLevel::orbits_per_iteration`]: two blocks of two registers
/// per term up to this N, …
const BASELINE_TWO_BLOCKS_UP_TO: usize = 4;
/// … one block of one register per term from this N (one block of two registers between).
const BASELINE_ONE_REGISTER_FROM: usize = 7;

/// The body of [`henon_iterate_per_orbit_f64`] for one N at SIMD `level` (instantiated in
/// [`crate::runtime`], the only instances of the f64 lane matrix); refuses a level this CPU
/// lacks.
pub(crate) fn per_orbit_f64_impl<const N: usize>(
    level: SimdLevel,
    a: &[Expansion<f64, N>],
    b: &[Expansion<f64, N>],
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    match level {
        SimdLevel::Baseline => {
            // Two AVX2 registers per term (`Wide`: every operation issues two independent
            // instructions back to back, which the out-of-order window needs to overlap the
            // long 2Sum chains of the level sums). Up to N = 4 also two blocks per loop
            // iteration (13 against 14 ns per orbit step at N = 4 when measured). Past N = 4
            // one block: two blocks of `Wide` (4·N registers per block) took LLVM about 140 s
            // of the build for N = 5..8; one block of `Wide` has the register demand of two
            // blocks of one register per term (what ran before) and was 10–23% faster at
            // N = 5..8 on Zen 5 (measured: in-order issue of one block's step, then the
            // other's, leaves the window with too little independent work). `N` is a
            // constant, and the condition an inline const: only the taken branch is
            // instantiated (a plain `if N <= 4` still made rustc emit the two-block instances
            // for N = 5..8 and LLVM optimise them, dead, for about a minute of the build).
            // From N = 7 one register per term (4 orbits per block): the level sums, the
            // operands and the products of `Wide` need over twice the 16 ymm registers there,
            // and the spills cost more than the second chain gains. Measured with `expanse
            // bench cpu --scale 0.5`, five alternating runs on a 2-vCPU Intel Xeon
            // (2026-11-30): N = 8 1.06–1.27e7 → 1.23–1.70e7 it/s (best 1.27 → 1.70), N = 7
            // unchanged within noise (2.3e7), N = 5, 6 20% slower (so not there).
            if const { N <= BASELINE_TWO_BLOCKS_UP_TO } {
                iterate_blocks_per_orbit::<Wide<F64Lanes, 2>, N, 2>(a, b, xs, ys, steps);
            } else if const { N >= BASELINE_ONE_REGISTER_FROM } {
                iterate_blocks_per_orbit::<F64Lanes, N, 1>(a, b, xs, ys, steps);
            } else {
                iterate_blocks_per_orbit::<Wide<F64Lanes, 2>, N, 1>(a, b, xs, ys, steps);
            }
            Ok(())
        }
        SimdLevel::Avx512 => {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: AVX-512F was detected just above.
                    unsafe { iterate_per_orbit_avx512::<N>(a, b, xs, ys, steps) };
                    return Ok(());
                }
            }
            Err(SimdUnavailable(level))
        }
    }
}

/// [`henon_iterate_per_orbit_f64`] for f32 terms: one orbit at a time through the scalar fast
/// tier. (f32 terms are for consumer GPUs. On portable lanes, `Lanes<f32, 8>`, the compiler
/// needed minutes per N to vectorise the unrolled N = 8 step, for a CPU search rate of only
/// 2–5× the scalar one; explicit f32 SIMD lanes are left for later.)
#[inline]
pub fn henon_iterate_per_orbit_f32<const N: usize>(
    a: &[Expansion<f32, N>],
    b: &[Expansion<f32, N>],
    xs: &mut [Expansion<f32, N>],
    ys: &mut [Expansion<f32, N>],
    steps: u64,
) {
    use crate::runtime::{terms_of, terms_of_mut};
    crate::runtime::henon_iterate_per_orbit_f32(
        N,
        terms_of(a),
        terms_of(b),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    )
}

/// The SIMD instruction sets [`henon_iterate_batch_f64`] can use, widest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLevel {
    /// [`F64Lanes`] (AVX2 in this project's x86-64-v3 build), two registers per lane group.
    Baseline,
    /// AVX-512F: eight f64 per register (detected at run time).
    Avx512,
}

impl SimdLevel {
    /// The widest level this CPU supports.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return SimdLevel::Avx512;
            }
        }
        SimdLevel::Baseline
    }

    /// Lanes (orbits) per lane group at this level (at the baseline level two registers of 4,
    /// one register from N = 7: see `per_orbit_f64_impl`; the larger count is given, a
    /// multiple of the other).
    pub fn lanes(self) -> usize {
        match self {
            SimdLevel::Baseline => <Wide<F64Lanes, 2> as Lane>::WIDTH,
            SimdLevel::Avx512 => 8,
        }
    }

    /// Orbits iterated together per loop iteration at this level for `n` terms (blocks ×
    /// lanes, as `per_orbit_f64_impl` picks them): AVX-512 two blocks of eight; the baseline
    /// two blocks of two registers up to N = 4, one block of two registers at N = 5, 6 and of
    /// one register from N = 7.
    pub fn orbits_per_iteration(self, n: usize) -> usize {
        match self {
            SimdLevel::Baseline if n <= BASELINE_TWO_BLOCKS_UP_TO => {
                2 * <Wide<F64Lanes, 2> as Lane>::WIDTH
            }
            SimdLevel::Baseline if n >= BASELINE_ONE_REGISTER_FROM => <F64Lanes as Lane>::WIDTH,
            SimdLevel::Baseline => <Wide<F64Lanes, 2> as Lane>::WIDTH,
            SimdLevel::Avx512 => 16,
        }
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Baseline => {
                if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
                    "avx2"
                } else {
                    "portable"
                }
            }
            SimdLevel::Avx512 => "avx512",
        }
    }
}

/// The requested [`SimdLevel`] is not supported by this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimdUnavailable(pub SimdLevel);

impl core::fmt::Display for SimdUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "this CPU does not support {}", self.0.name())
    }
}

impl std::error::Error for SimdUnavailable {}

/// [`henon_iterate_batch`] on f64 expansions with the widest SIMD this CPU has
/// ([`SimdLevel::detect`]): the same results, bit for bit, at every level.
pub fn henon_iterate_batch_f64<const N: usize>(
    a: &Expansion<f64, N>,
    b: &Expansion<f64, N>,
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) {
    // The detected level is always available.
    let _ = henon_iterate_batch_f64_at::<N>(SimdLevel::detect(), a, b, xs, ys, steps);
}

/// [`henon_iterate_batch_f64`] at a chosen level (for tests and benchmarks); refuses a level
/// this CPU lacks. It runs the per-orbit code of [`henon_iterate_per_orbit_f64`] with (a, b)
/// given to every orbit (the same instructions per step as a shared parameter, and one lane
/// matrix to compile instead of two), compiled once, in this crate, for every N
/// ([`crate::runtime::henon_iterate_batch_f64_at`]); this typed entry point only forwards.
#[inline]
pub fn henon_iterate_batch_f64_at<const N: usize>(
    level: SimdLevel,
    a: &Expansion<f64, N>,
    b: &Expansion<f64, N>,
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    use crate::runtime::terms_of_mut;
    crate::runtime::henon_iterate_batch_f64_at(
        level,
        N,
        a.terms(),
        b.terms(),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    )
}

/// The AVX-512 path of [`henon_iterate_per_orbit_f64`]: every operation of the iteration
/// inlined into one function compiled with AVX-512F, on [`crate::avx512::F64x8`] lanes.
///
/// # Safety
/// The CPU must support AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn iterate_per_orbit_avx512<const N: usize>(
    a: &[Expansion<f64, N>],
    b: &[Expansion<f64, N>],
    xs: &mut [Expansion<f64, N>],
    ys: &mut [Expansion<f64, N>],
    steps: u64,
) {
    iterate_blocks_per_orbit::<crate::avx512::F64x8, N, 2>(a, b, xs, ys, steps);
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
