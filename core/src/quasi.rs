//! Seed 003's "fast quasi double-precision" pair operations (Narumi, Hamada, Nitadori,
//! Sakamaki, Yasuoka), for two-term values (hi, lo) of `T` = f32 (the paper's setting: a pair
//! of single-precision numbers) or f64. They are faster than the double-word algorithms of the
//! accurate tier because they drop the final normalisation or assume the operands' order, and
//! they have **no proven error bound**: their accuracy is measured against MPFR in
//! `tests/it/quasi.rs` (numbers in the doc of each function). Never use them in the interval
//! crate. Results are pairs, not [`crate::Expansion`]s, because they need not satisfy the
//! expansion invariant (the low part may grow past half an ulp of the high part).
//!
//! Seed 003 Fig. 3 names: `dsadd_F1`, `dsadd_F23`, `dssub_F1`, `dssub_F23`, `dsmul_F12`,
//! `dsmul_F3`. Where the paper truncates significands with a float→int bit mask (keeping the
//! top 16 bits of an f32 pattern), [`split_mask`] does the same for both formats (top 16 bits
//! of f32, top 32 of f64: 8- and 21-bit significands).

use crate::eft::{fast_two_sum, split, two_sum};
use crate::float::FloatTerm;

/// A pair (hi, lo) representing hi + lo, not necessarily normalised.
pub type Pair<T> = (T, T);

/// dsadd_F1: 2Sum of the high parts, the low parts added to the error, no final normalisation.
/// 8 operations. Measured (tests/it/quasi.rs, operands of like sign): ≈ 1.3u² relative for f64
/// and f32; unbounded relative error under cancellation (absolute ≈ u²·max(|a|, |b|)).
#[inline(always)]
pub fn add_f1<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let (h, l) = two_sum(a.0, b.0);
    (h, l + (a.1 + b.1))
}

/// dsadd_F23: as [`add_f1`] with Fast2Sum, valid only when |a.hi| ≥ |b.hi|. 5 operations.
/// Measured ≈ 2u² (like signs).
#[inline(always)]
pub fn add_f23<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let (h, l) = fast_two_sum(a.0, b.0);
    (h, (l + a.1) + b.1)
}

/// dssub_F1: a − b without the final normalisation (2Sum written out as in the paper).
/// Measured ≈ 2u² for |b| ≤ |a|/2; unbounded relative error under cancellation.
#[inline(always)]
pub fn sub_f1<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let h = a.0 - b.0;
    let e = h - a.0;
    let l = ((-b.0 - e) + (a.0 - (h - e))) + a.1 - b.1;
    (h, l)
}

/// dssub_F23: a − b with the Fast2Sum error, valid only when |a.hi| ≥ |b.hi|.
#[inline(always)]
pub fn sub_f23<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let h = a.0 - b.0;
    let e = h - a.0;
    let l = (-b.0 - e) + a.1 - b.1;
    (h, l)
}

/// dsmul_F12: Dekker's product of the high parts (no FMA), the cross products added plainly,
/// one final Fast2Sum. Measured ≈ 2.4u² relative (tests/it/quasi.rs).
#[inline(always)]
pub fn mul_f12<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let (ah, al) = split(a.0);
    let (bh, bl) = split(b.0);
    let ch = a.0 * b.0;
    let cl = (((ah * bh - ch) + ah * bl) + al * bh) + al * bl;
    let c2 = a.0 * b.1 + a.1 * b.0;
    let cl = (cl + c2) + a.1 * b.1;
    fast_two_sum(ch, cl)
}

/// Splits `x` as seed 003 does with a bit mask: the high part keeps the top 16 bits of an f32
/// pattern (8-bit significand) or the top 32 bits of an f64 pattern (21-bit significand), so
/// the product of two high parts is exact; the low part x − high is exact too.
#[inline(always)]
pub fn split_mask<T: FloatTerm>(x: T) -> (T, T) {
    let mask = if T::PRECISION == 53 {
        0xFFFF_FFFF_0000_0000u64
    } else {
        0xFFFF_0000u64
    };
    let hi = T::from_bits_u64(x.to_bits_u64() & mask);
    (hi, x - hi)
}

/// dsmul_F3: the reduced-significand product (the high parts' product exact by
/// [`split_mask`], the low parts folded into one rounded term each). Cheapest and least
/// accurate: measured about 2^-72 relative for f64 and 2^-29.7 for f32 (tests/it/quasi.rs), between
/// one and two words of precision.
#[inline(always)]
pub fn mul_f3<T: FloatTerm>(a: Pair<T>, b: Pair<T>) -> Pair<T> {
    let (sah, sal0) = split_mask(a.0);
    let (sbh, sbl0) = split_mask(b.0);
    let sal = sal0 + a.1;
    let sbl = sbl0 + b.1;
    let th = sah * sbh;
    let tl = sah * sbl + sbh * sal;
    let (dh, dl) = fast_two_sum(th, tl);
    (dh, dl + sal * sbl)
}
