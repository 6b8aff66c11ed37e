//! Eight f64 lanes in one AVX-512 register ([`F64x8`]), for the batched fast tier on CPUs that
//! have AVX-512F (this project's CI and development machines, AMD Zen 5, execute 512-bit
//! operations at full width: twice the f64 operations per instruction of AVX2, and 32 vector
//! registers instead of 16, which matters for the N = 8 state of 16 terms per orbit).
//!
//! The build targets x86-64-v3 (AVX2, FMA; see `.cargo/config.toml`), so AVX-512 is used only
//! after a run-time check: the type is private to the crate and created only inside
//! [`crate::batch::henon_iterate_batch_f64`]'s AVX-512 path, a `#[target_feature(enable =
//! "avx512f")]` function entered after `is_x86_feature_detected!("avx512f")` returned true.
//! Every operation is the lane-wise IEEE operation in round-to-nearest, so each lane computes
//! what the scalar code computes, bit for bit (checked by `tests/it/batch.rs`).

use crate::batch::Lane;
use core::arch::x86_64::*;
use core::ops::{Add, Mul, Neg, Sub};

/// Eight f64 lanes in an AVX-512 register. Only valid where AVX-512F is present (see the
/// module doc).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct F64x8(__m512d);

// SAFETY (every `unsafe` block in this module): the intrinsics need AVX-512F; an `F64x8` exists
// only inside the AVX-512 path of `henon_iterate_batch_f64`, which is entered only after the
// run-time check found AVX-512F. They touch no memory except through `storeu`/`loadu` on a
// local `[f64; 8]`.
macro_rules! binop {
    ($tr:ident, $f:ident, $intr:ident) => {
        impl $tr for F64x8 {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Self(unsafe { $intr(self.0, o.0) })
            }
        }
    };
}
binop!(Add, add, _mm512_add_pd);
binop!(Sub, sub, _mm512_sub_pd);
binop!(Mul, mul, _mm512_mul_pd);

impl Neg for F64x8 {
    type Output = Self;
    /// Flips the sign bits (exact, like scalar negation; `0 − x` would turn −0 into +0).
    #[inline(always)]
    fn neg(self) -> Self {
        Self(unsafe {
            _mm512_castsi512_pd(_mm512_xor_si512(
                _mm512_castpd_si512(self.0),
                _mm512_set1_epi64(i64::MIN),
            ))
        })
    }
}

impl Lane for F64x8 {
    type Scalar = f64;
    const WIDTH: usize = 8;
    #[inline(always)]
    fn splat(v: f64) -> Self {
        Self(unsafe { _mm512_set1_pd(v) })
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Self(unsafe { _mm512_fmadd_pd(self.0, a.0, b.0) })
    }
    #[inline(always)]
    fn get(&self, l: usize) -> f64 {
        let mut a = [0.0f64; 8];
        unsafe { _mm512_storeu_pd(a.as_mut_ptr(), self.0) };
        a[l]
    }
    #[inline(always)]
    fn set(&mut self, l: usize, v: f64) {
        let mut a = [0.0f64; 8];
        unsafe {
            _mm512_storeu_pd(a.as_mut_ptr(), self.0);
            a[l] = v;
            self.0 = _mm512_loadu_pd(a.as_ptr());
        }
    }
}

/// The mask of [`F64x8`]: an AVX-512 mask register (bit l = lane l). Like [`F64x8`] (and for
/// the same safety argument) it is created only inside functions entered after the run-time
/// AVX-512F check: the fast tier's AVX-512 path and `crate::accurate_batch::avx512`.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct M8(__mmask8);

impl crate::batch::LaneMask for M8 {
    const WIDTH: usize = 8;
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Self(self.0 & o.0)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Self(self.0 | o.0)
    }
    #[inline(always)]
    fn not(self) -> Self {
        Self(!self.0)
    }
    #[inline(always)]
    fn all(self) -> bool {
        self.0 == 0xFF
    }
    #[inline(always)]
    fn test(self, l: usize) -> bool {
        (self.0 >> l) & 1 == 1
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.0 != 0
    }
}

impl crate::batch::MaskedLane for F64x8 {
    type Mask = M8;
    #[inline(always)]
    fn lane_abs(self) -> Self {
        Self(unsafe {
            _mm512_castsi512_pd(_mm512_and_si512(
                _mm512_castpd_si512(self.0),
                _mm512_set1_epi64(i64::MAX),
            ))
        })
    }
    #[inline(always)]
    fn mask_eq(self, o: Self) -> M8 {
        M8(unsafe { _mm512_cmp_pd_mask::<_CMP_EQ_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn mask_ne(self, o: Self) -> M8 {
        M8(unsafe { _mm512_cmp_pd_mask::<_CMP_NEQ_UQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn mask_le(self, o: Self) -> M8 {
        M8(unsafe { _mm512_cmp_pd_mask::<_CMP_LE_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn mask_ge(self, o: Self) -> M8 {
        M8(unsafe { _mm512_cmp_pd_mask::<_CMP_GE_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn finite_mask(self) -> M8 {
        let a = self.lane_abs();
        M8(unsafe { _mm512_cmp_pd_mask::<_CMP_LT_OQ>(a.0, _mm512_set1_pd(f64::INFINITY)) })
    }
    #[inline(always)]
    fn select(m: M8, a: Self, b: Self) -> Self {
        Self(unsafe { _mm512_mask_blend_pd(m.0, b.0, a.0) })
    }
    #[inline(always)]
    fn lane_ulp(self) -> Self {
        // As for `F64x4` (batch.rs): the exponent bits alone are 2^e for finite x (0 for zero
        // and subnormals); times 2^−52 exactly, at least 2^−1074; non-finite: ulp(∞).
        unsafe {
            let exp = _mm512_castsi512_pd(_mm512_and_si512(
                _mm512_castpd_si512(self.0),
                _mm512_set1_epi64(0x7FF0_0000_0000_0000),
            ));
            let u = _mm512_max_pd(
                _mm512_mul_pd(exp, _mm512_set1_pd(f64::EPSILON)),
                _mm512_set1_pd(f64::from_bits(1)),
            );
            let fin = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(exp, _mm512_set1_pd(f64::INFINITY));
            Self(_mm512_mask_blend_pd(
                fin,
                _mm512_set1_pd(crate::float::ulp(f64::INFINITY)),
                u,
            ))
        }
    }
    #[inline(always)]
    fn load(src: &[f64]) -> Self {
        assert!(src.len() >= 8);
        // SAFETY: eight f64 are readable at `src` (checked above).
        Self(unsafe { _mm512_loadu_pd(src.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f64]) {
        assert!(dst.len() >= 8);
        // SAFETY: eight f64 are writable at `dst` (checked above).
        unsafe { _mm512_storeu_pd(dst.as_mut_ptr(), self.0) }
    }
}
