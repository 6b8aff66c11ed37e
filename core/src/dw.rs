//! Double-word (N = 2) building blocks of the accurate tier, from Joldes, Muller, Popescu,
//! "Tight and rigorous error bounds for basic building blocks of double-word arithmetic",
//! ACM TOMS 44(2), 2017 ("JMP"), and the error bounds stated in [`crate::bounds`].
//!
//! A double-word (hi, lo) is *normalised* when hi = RN(hi + lo), i.e. |lo| ≤ ½ ulp(hi). The JMP
//! algorithms assume normalised inputs; an ulp-nonoverlapping pair (|lo| ≤ ulp(hi)) may miss
//! this by one bit, so every entry point first renormalises its operands with Fast2Sum (exact,
//! 3 operations; its precondition holds because |lo| ≤ ulp(hi) ≤ |hi|). Outputs come from a
//! final Fast2Sum and are therefore normalised.
//!
//! Inputs must be finite; the caller handles ∞ and NaN.

use crate::batch::Lane;
use crate::eft::{fast_two_sum, two_prod, two_sum};

/// AccurateDWPlusDW (JMP Alg. 6; the "IEEE" addition of QD): relative error
/// ≤ 3u²/(1 − 4u) ≤ 3u² + 13u³ (JMP Thm. 3.3; Coq-checked by Muller and Rideau, ACM TOMS 2022).
#[inline(always)]
pub fn add_dw<T: Lane>(x: (T, T), y: (T, T)) -> (T, T) {
    let (xh, xl) = fast_two_sum(x.0, x.1);
    let (yh, yl) = fast_two_sum(y.0, y.1);
    let (sh, sl) = two_sum(xh, yh);
    let (th, tl) = two_sum(xl, yl);
    let c = sl + th;
    let (vh, vl) = fast_two_sum(sh, c);
    let w = tl + vl;
    fast_two_sum(vh, w)
}

/// DWTimesDW with FMA (JMP Alg. 12, "DWTimesDW3"):
///
/// ```text
/// (ch, cl1) = 2ProdFMA(xh, yh); tl0 = RN(xl·yl); tl1 = RN(xh·yl + tl0);
/// cl2 = RN(xl·yh + tl1); cl3 = RN(cl1 + cl2); (zh, zl) = Fast2Sum(ch, cl3)
/// ```
///
/// Relative error ≤ 6u² + 24u³ by the elementary argument in [`crate::bounds::mul_rel_bound`]
/// (JMP and Muller–Rideau prove a tighter ≈ 4u²; we state the bound we derive ourselves).
#[inline(always)]
pub fn mul_dw<T: Lane>(x: (T, T), y: (T, T)) -> (T, T) {
    let (xh, xl) = fast_two_sum(x.0, x.1);
    let (yh, yl) = fast_two_sum(y.0, y.1);
    let (ch, cl1) = two_prod(xh, yh);
    let tl0 = xl * yl;
    let tl1 = xh.mul_add(yl, tl0);
    let cl2 = xl.mul_add(yh, tl1);
    let cl3 = cl1 + cl2;
    fast_two_sum(ch, cl3)
}

/// DWTimesFP with FMA (JMP Alg. 9, "DWTimesFP3"):
/// `(ch, cl1) = 2ProdFMA(xh, y); cl3 = RN(xl·y + cl1); (zh, zl) = Fast2Sum(ch, cl3)`.
/// Relative error ≤ 2u² + 4u³ (see [`crate::bounds::mul_term_rel_bound`]).
#[inline(always)]
pub fn mul_fp<T: Lane>(x: (T, T), y: T) -> (T, T) {
    let (xh, xl) = fast_two_sum(x.0, x.1);
    let (ch, cl1) = two_prod(xh, y);
    let cl3 = xl.mul_add(y, cl1);
    fast_two_sum(ch, cl3)
}
