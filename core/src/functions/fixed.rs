//! Fixed-point integer arithmetic for exp at f64 N ≥ 3: the argument reduction, the Taylor
//! series and the table step on u64 limbs, and the rounding of the fixed-point result to an
//! N-term expansion.
//!
//! Why: after the reduction, the accurate tier spends ~80 ns per Horner step of exp at N = 4
//! (an expansion product and sum, each with its renormalisation). On W fraction limbs a step
//! is a schoolbook product of at most W × (W + 1) 64×64→128-bit multiplications and a carry
//! chain, the errors are plain absolute truncations (counted below), and integer arithmetic is
//! exactly reproducible, so the CUDA mirror (`gpu/src/cuda/functions_fixed.cu`) is
//! bit-identical by construction. This is what MPFR (and GARPREC) do inside.
//!
//! # Format
//!
//! A fixed-point number of W fraction limbs is an array of little-endian u64 limbs `a[0..=W]`
//! with value Σ a_i·2^{64(i−W)}: limb W is the integer part (here 0 or 1; the reduction's
//! accumulator, below, is signed two's complement). W = ⌈(53N + 16)/64⌉ ([`frac_limbs`]):
//! F = 64W ≥ 53N + 16 bits (N = 3..8: W = 3, 4, 5, 6, 7, 7; guard bits F − 53N = 33, 44, 55,
//! 66, 77, 24). ulp_F = 2^{−F}.
//!
//! # exp(x), f64 terms, N ≥ 3 (module [`super::exp_log`] keeps the special values, the
//! thresholds, k and j)
//!
//! 1. *Reduction.* k = round(x₀ log₂ e) and j = round(256·r̃) exactly as
//!    [`super::exp_log::exp_reduce`] picks them (|j| ≤ 90, and for f64 |x − k ln 2 − j/256|
//!    ≤ 2^−9 + 2^−40). In a signed accumulator of W + 1 fraction limbs (G = F + 64 bits):
//!    the N terms of x, each truncated toward −∞ to a multiple of 2^−G (error in (−2^−G, 0]
//!    each), minus k·L with L = ⌊ln 2·2^G⌋·2^−G (0 ≤ ln 2 − L < 2^−G, the table
//!    [`super::fixed_table::LN2_FX`]; |k| ≤ 1078), minus j/256 (exact). So the accumulator
//!    holds r + e₁ with |e₁| < (N + 1078)·2^−G < 2^{−F−53}. Its magnitude is truncated toward
//!    zero to F bits: r̂₁ with |r̂₁ − r| < 2^−F(1 + 2^−53) =: δ_r. A run-time check |r̂₁| ≤
//!    2^−9(1 + 2^−10) (always true; else the caller takes the expansion path). *Second table
//!    step* ([`split2`]): j₂ = the rounding of 65536·|r̂₁| from its top limb, with r̂₁'s sign
//!    (|j₂| ≤ 128), and r̂₂ = r̂₁ − j₂/65536 exactly (integers), |r̂₂| ≤ 2^−17 + 2^−64 ≤ η :=
//!    2^−17(1 + 2^−20).
//! 2. *Series.* e^{r̂₂} ≈ P = Σ_{k=0}^{d} r̂₂^k/k! by Horner, p_d = c_d, p_k = c_k + r̂₂·p_{k+1},
//!    P = p₀, with c_k = ⌊2^F/k!⌋·2^−F ([`inv_fact_fx`], exact integer long division at compile
//!    time). d ([`exp_degree`]) is the least with η^{d+1}/(d+1)!·(1 + η) ≤ 2^{−F−8}
//!    (truncation of the series, t_P; N = 3..8: d = 10, 13, 16, 19, 22, 22). *Limb plan:*
//!    step k runs at w_k = W − ⌊(17k − 8)/64⌋ fraction limbs (clamped to [1, W];
//!    [`step_limbs`]): c_k truncated to w_k limbs (error < 2^{−64w_k}), r̂₂ cut to its top w_k
//!    limbs (error < 2^{−64w_k}, times |p_{k+1}| ≤ 1.02), the product r̂₂·p_{k+1} (p_{k+1} has
//!    w_{k+1} ≤ w_k limbs) truncated by [`mul_lo`] (error < (w_k + 1.01)·2^{−64w_k}), then
//!    added or subtracted (sign of r̂₂; no overflow or borrow: |r̂₂p_{k+1}| < c_k/2^16). So
//!    the error e_k made at step k is below (w_k + 2.01 + [w_k < W]·1.02)·2^{−64w_k}. An
//!    error in p_k reaches P multiplied by r̂₂^k, so |P − Σ r̂₂^k/k!| ≤ Σ_k η^k e_k =: ε_P;
//!    the plan keeps each term near (w_k + 3)·2^{−F−8}.
//! 3. *Tables.* T₂ = ⌊e^{j₂/65536}·2^F⌋·2^−F and T₁ = ⌊e^{j/256}·2^F⌋·2^−F
//!    ([`super::fixed_table`], generated with mpmath, checked against MPFR by the tests;
//!    exactly 1 for a zero index, and then the product is skipped), Y = T₁·(T₂·P), each product
//!    truncated to F bits ([`mul_trunc`], exact floor): with T₁ ≤ 1.43, T₂ ≤ 1.002,
//!    P ≤ 1.0001, |Y − e^{j/256}e^{j₂/65536}e^{r̂₂}| ≤ T₁T₂(ε_P + t_P) + 4.87·ulp_F (the
//!    four truncations: 1.43·1.0001, 1.43, 1.003 and 1 ulp_F), and relative to
//!    e^{r̂₁ + j/256} ≥ 0.70:
//!    ε_Y = e^η(ε_P + t_P) + 7·ulp_F.
//! 4. *Rounding to N terms* ([`to_terms`]): the greedy nearest expansion of Y·2^{k}: t₀ =
//!    RN₅₃(Y), t₁ = RN₅₃(Y − t₀), …, every remainder exact in integers (round the top 53 bits
//!    to nearest even, subtract). With R₀ = Y and R_{i+1} = R_i − t_i, |R_{i+1}| ≤
//!    ½ulp(t_i) ≤ u|R_i| (u = 2^−53; if R_i ∈ [2^e, 2^{e+1}), then ½ulp(t_i) ≤ 2^{e−53}, also
//!    when t_i rounds up to 2^{e+1}), so |R_N| ≤ u^N|Y|: relative error ≤ u^N. The terms are
//!    ulp-nonoverlapping (|t_{i+1}| ≤ ½ulp(t_i)). Scaled by 2^k exactly, except that a term that
//!    would fall below 2^−1022 is rounded to nearest at the granularity 2^−1074 (σ) instead
//!    (error ≤ σ/2 once; the remainder then stays below σ/2 and the following terms are 0):
//!    absolute error ≤ σ/2 (inside exp's `abs` = N·σ). A leading term ≥ 2^1024 gives +∞.
//!
//! *Bound* ([`exp_rel_bound`]): (1 + ε_Y)·e^{δ_r}·(1 + u^N) − 1, times 1 + 2^−40 for its f64
//! evaluation: f64 N = 3..8 below 1.0001·u^N (the fixed-point part is about 10·2^{−F},
//! 2^{−F} ≤ 2^{−16}u^N); no hypothesis on the range of intermediates (everything is integer)
//! beyond the final scaling.

use super::fixed_table::{EXP_J256_FX, EXP_J65536_FX, LN2_FX};

/// Most fraction limbs (N = 7, 8).
pub const MAX_W: usize = 7;
/// Limbs of a value (W fraction limbs and the integer limb) at most: the array length of
/// every fixed-point value here.
pub const L: usize = MAX_W + 1;
/// Limbs of the reduction's accumulator (W + 1 fraction limbs and the integer limb) at most.
pub(crate) const LA: usize = MAX_W + 2;
/// Highest Taylor degree of any N (N = 8, [`exp_degree`]).
pub const MAX_DEG: usize = 40;

/// W, the fraction limbs for N f64 terms: ⌈(53N + 16)/64⌉.
pub const fn frac_limbs(n: usize) -> usize {
    (53 * n + 16).div_ceil(64)
}

/// d, the Taylor degree at W fraction limbs: the least d with
/// η^{d+1}/(d+1)!·(1 + η) ≤ 2^{−64W−8} for η = 2^−17(1 + 2^−20) (the bound on |r̂₂|), tested
/// conservatively in integers: 17(d + 1) − 1 + Σ_{i=2}^{d+1} ⌊log₂ i⌋ ≥ 64W + 8 (the −1
/// absorbs (1 + 2^−20)^{d+1}(1 + η) ≤ 2 for d < 10^5).
pub const fn exp_degree(w: usize) -> usize {
    let target = 64 * w as i64 + 8;
    let mut d: usize = 1;
    loop {
        let mut lf: i64 = 0;
        let mut i = 2;
        while i <= d + 1 {
            lf += (usize::BITS - 1 - i.leading_zeros()) as i64;
            i += 1;
        }
        if 17 * (d as i64 + 1) - 1 + lf >= target {
            return d;
        }
        d += 1;
    }
}

/// w_k, the fraction limbs of Horner step k at W fraction limbs: W − ⌊(17k − 8)/64⌋ in
/// [1, W].
pub const fn step_limbs(w: usize, k: usize) -> usize {
    let drop = if 17 * k >= 8 { (17 * k - 8) / 64 } else { 0 };
    if drop + 1 >= w {
        1
    } else {
        w - drop
    }
}

/// ⌊2^{64·MAX_W}/k!⌋ for k = 0..=MAX_DEG as MAX_W fraction limbs and the integer limb
/// (exact: ⌊⌊a/b⌋/c⌋ = ⌊a/(bc)⌋), computed at compile time. The value at W < MAX_W limbs is
/// the top W fraction limbs (truncation again).
const fn inv_fact_table() -> [[u64; L]; MAX_DEG + 1] {
    let mut t = [[0u64; L]; MAX_DEG + 1];
    t[0][MAX_W] = 1;
    t[1][MAX_W] = 1;
    let mut k = 2;
    while k <= MAX_DEG {
        let mut rem: u128 = 0;
        let mut i = L;
        while i > 0 {
            i -= 1;
            let cur = (rem << 64) | t[k - 1][i] as u128;
            t[k][i] = (cur / k as u128) as u64;
            rem = cur % k as u128;
        }
        k += 1;
    }
    t
}

pub(crate) static INV_FACT: [[u64; L]; MAX_DEG + 1] = inv_fact_table();

/// ⌊2^{64·MAX_W}/k!⌋ (limbs, little-endian, integer limb MAX_W): the coefficients of the
/// series (module doc, step 2); the device port reads them.
pub fn inv_fact_fx(k: usize) -> [u64; L] {
    INV_FACT[k]
}

/// The fraction limbs of ⌊ln 2·2^576⌋ (little-endian; table of the module doc).
pub fn ln2_fx() -> [u64; 9] {
    LN2_FX
}

/// ⌊e^{j/256}·2^512⌋ for |j| ≤ 90 (eight fraction limbs and the integer limb).
pub fn exp_j256_fx(j: i32) -> [u64; 9] {
    EXP_J256_FX[(j.clamp(-90, 90) + 90) as usize]
}

/// ⌊e^{j/65536}·2^512⌋ for |j| ≤ 128 (eight fraction limbs and the integer limb).
pub fn exp_j65536_fx(j: i32) -> [u64; 9] {
    EXP_J65536_FX[(j.clamp(-128, 128) + 128) as usize]
}

// ---------------------------------------------------------------------------------------
// Limb arithmetic (W fraction limbs, value limbs 0..=W).

/// acc + x·y + carry (< 2^128): the low word into `acc`, the high word into `carry`; one step
/// of the schoolbook products below.
#[inline(always)]
fn mac(x: u64, y: u64, acc: &mut u64, carry: &mut u64) {
    let t = x as u128 * y as u128 + *acc as u128 + *carry as u128;
    *acc = t as u64;
    *carry = (t >> 64) as u64;
}

/// ⌊a·b⌋ truncated to fraction limbs lo..W (limbs below lo zero): a and b with limbs lo..=W
/// (only those are read), the exact schoolbook product (a·b < 2^64 assumed).
#[inline(always)]
pub fn mul_trunc<const W: usize>(a: &[u64; L], b: &[u64; L], lo: usize) -> [u64; L] {
    let mut acc = [0u64; 2 * L + 1];
    for i in lo..=W {
        if a[i] == 0 {
            continue;
        }
        let mut carry = 0u64;
        for j in lo..=W {
            mac(a[i], b[j], &mut acc[i + j], &mut carry);
        }
        acc[i + W + 1] = carry;
    }
    let mut out = [0u64; L];
    out[lo..=W].copy_from_slice(&acc[lo + W..=2 * W]);
    out
}

/// The truncated product of the Horner steps: a·b from the partial products a_i·b_j with
/// i + j ≥ W + lo − 1 only (a: fraction limbs lo..W, its integer limb ignored; b: limbs
/// lo..=W), cut to the limbs lo..=W. The products left out sum to less than
/// w·(1 + 2^−63) units of 2^{−64w} (w = W − lo: at most w products per column, each below
/// 2^128 at its column's weight), so the result lies in (a·b − (w + 1.01)·2^{−64w}, a·b].
#[inline(always)]
pub fn mul_lo<const W: usize>(a: &[u64; L], b: &[u64; L], lo: usize) -> [u64; L] {
    let c = W + lo - 1;
    let mut acc = [0u64; 2 * L + 1];
    for i in lo..W {
        let j0 = if c > i + lo { c - i } else { lo };
        let mut carry = 0u64;
        for j in j0..=W {
            mac(a[i], b[j], &mut acc[i + j], &mut carry);
        }
        acc[i + W + 1] = carry;
    }
    let mut out = [0u64; L];
    out[lo..=W].copy_from_slice(&acc[lo + W..=2 * W]);
    out
}

/// a + b (limbs lo..=W; no overflow of the integer limb assumed).
#[inline(always)]
pub(crate) fn add<const W: usize>(a: &[u64; L], b: &[u64; L], lo: usize) -> [u64; L] {
    let mut out = [0u64; L];
    let mut c = false;
    for i in lo..=W {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(c as u64);
        out[i] = s2;
        c = c1 | c2;
    }
    out
}

/// a − b (limbs lo..=W; a ≥ b assumed).
#[inline(always)]
pub(crate) fn sub<const W: usize>(a: &[u64; L], b: &[u64; L], lo: usize) -> [u64; L] {
    let mut out = [0u64; L];
    let mut c = false;
    for i in lo..=W {
        let (s1, c1) = a[i].overflowing_sub(b[i]);
        let (s2, c2) = s1.overflowing_sub(c as u64);
        out[i] = s2;
        c = c1 | c2;
    }
    out
}

/// An f64 truncated toward −∞ to a multiple of 2^{−64·fr}, added to the signed accumulator
/// `acc` (limbs 0..=fr, two's complement). |v| < 2^63.
pub(crate) fn acc_add_f64(acc: &mut [u64; LA], fr: usize, v: f64) {
    if v == 0.0 {
        return;
    }
    let bits = v.to_bits();
    let ex = ((bits >> 52) & 0x7ff) as i64;
    let man = if ex == 0 {
        (bits & ((1u64 << 52) - 1)) << 1
    } else {
        (bits & ((1u64 << 52) - 1)) | (1u64 << 52)
    };
    // |v| = man·2^{ex − 1075}; in units of 2^{−64·fr}: man·2^{sh}.
    let sh = if ex == 0 { -1075 } else { ex - 1075 } + 64 * fr as i64;
    // The magnitude as limbs 0..=fr, truncated (toward 0).
    let mut m = [0u64; LA];
    let truncated = if sh >= 0 {
        let q = (sh / 64) as usize;
        let r = (sh % 64) as u32;
        let wide = (man as u128) << r;
        if q <= fr {
            m[q] = wide as u64;
        }
        if q < fr {
            m[q + 1] = (wide >> 64) as u64;
        }
        false
    } else if sh > -64 {
        let s = (-sh) as u32;
        m[0] = man >> s;
        man & ((1u64 << s) - 1) != 0
    } else {
        true
    };
    if v > 0.0 {
        let mut c = false;
        for i in 0..=fr {
            let (s1, c1) = acc[i].overflowing_add(m[i]);
            let (s2, c2) = s1.overflowing_add(c as u64);
            acc[i] = s2;
            c = c1 | c2;
        }
    } else {
        // −(|v| truncated toward 0) − [inexact]: truncation of v toward −∞.
        let mut c = truncated;
        for i in 0..=fr {
            let (s1, c1) = acc[i].overflowing_sub(m[i]);
            let (s2, c2) = s1.overflowing_sub(c as u64);
            acc[i] = s2;
            c = c1 | c2;
        }
    }
}

/// acc −= k·c for a small signed k and c given by its fraction limbs (limbs 0..fr of acc's
/// fraction, c[0..fr] little-endian, c < 1).
fn acc_sub_kc(acc: &mut [u64; LA], fr: usize, k: i64, c: &[u64]) {
    if k == 0 {
        return;
    }
    let ka = k.unsigned_abs();
    let mut prod = [0u64; LA];
    let mut carry = 0u64;
    for i in 0..fr {
        let t = c[i] as u128 * ka as u128 + carry as u128;
        prod[i] = t as u64;
        carry = (t >> 64) as u64;
    }
    prod[fr] = carry;
    let mut c = false;
    for i in 0..=fr {
        let (s1, c1) = if k > 0 {
            acc[i].overflowing_sub(prod[i])
        } else {
            acc[i].overflowing_add(prod[i])
        };
        let (s2, c2) = if k > 0 {
            s1.overflowing_sub(c as u64)
        } else {
            s1.overflowing_add(c as u64)
        };
        acc[i] = s2;
        c = c1 | c2;
    }
}

/// The reduction (module doc, step 1): (|r̂| as W fraction limbs and a zero integer limb,
/// r̂ < 0), or `None` when |r̂| > η (never, for arguments inside exp's thresholds).
pub fn reduce<const W: usize>(x: &[f64], k: i32, j: i32) -> Option<([u64; L], bool)> {
    let fr = W + 1;
    let mut acc = [0u64; LA];
    for &t in x {
        acc_add_f64(&mut acc, fr, t);
    }
    // ln 2's top W + 1 fraction limbs (limbs 8 − W ..= 8 of the 9-limb table).
    acc_sub_kc(&mut acc, fr, k as i64, &LN2_FX[9 - fr..]);
    // j/256: j·2^{56} in the top fraction limb.
    let jl = (j as i64).unsigned_abs() << 56;
    let jv = [jl, 0];
    let mut c = false;
    for (i, &add_limb) in jv.iter().enumerate() {
        let i = fr - 1 + i;
        let (s1, c1, s2, c2);
        if j > 0 {
            (s1, c1) = acc[i].overflowing_sub(add_limb);
            (s2, c2) = s1.overflowing_sub(c as u64);
        } else {
            (s1, c1) = acc[i].overflowing_add(add_limb);
            (s2, c2) = s1.overflowing_add(c as u64);
        }
        acc[i] = s2;
        c = c1 | c2;
    }
    let neg = acc[fr] >> 63 == 1;
    if neg {
        // Two's complement negation (limbs 0..=fr).
        let mut c = true;
        for a in acc.iter_mut().take(fr + 1) {
            let (s, c1) = (!*a).overflowing_add(c as u64);
            *a = s;
            c = c1;
        }
    }
    // |r̂| ≤ η = 2^−9(1 + 2^−10): integer limb 0 and top fraction limb ≤ 2^55 + 2^45.
    if acc[fr] != 0 || acc[fr - 1] >= (1u64 << 55) + (1u64 << 45) {
        return None;
    }
    // Truncate toward zero to W fraction limbs: drop limb 0.
    let mut r = [0u64; L];
    r[..W].copy_from_slice(&acc[1..=W]);
    Some((r, neg))
}

/// Horner steps k = `hi`, …, `lo_k` (descending) at WK fraction limbs: p ← c_k ± r·p
/// (module doc, step 2); one instance per (W, WK), so the limb loops are unrolled.
#[inline(never)]
fn horner_stage<const W: usize, const WK: usize>(
    p: &mut [u64; L],
    r: &[u64; L],
    neg: bool,
    hi: usize,
    lo_k: usize,
) {
    let lo = W - WK.min(W);
    let mut k = hi;
    loop {
        let rp = mul_lo::<W>(r, p, lo);
        let mut c = [0u64; L];
        c[lo..=W].copy_from_slice(&INV_FACT[k][MAX_W - W + lo..=MAX_W]);
        *p = if neg {
            sub::<W>(&c, &rp, lo)
        } else {
            add::<W>(&c, &rp, lo)
        };
        if k == lo_k {
            break;
        }
        k -= 1;
    }
}

/// e^{r̂₂} for |r̂₂| ≤ η: the Horner scheme of the module doc (step 2) at W fraction limbs,
/// the steps grouped by their limb count.
pub fn exp_series<const W: usize>(r: &[u64; L], neg: bool) -> [u64; L] {
    let d = const { exp_degree(W) };
    let lo_d = W - step_limbs(W, d);
    let mut p = [0u64; L];
    p[lo_d..=W].copy_from_slice(&INV_FACT[d][MAX_W - W + lo_d..=MAX_W]);
    let mut k = d; // steps k − 1, … remain
    while k > 0 {
        let wk = step_limbs(W, k - 1);
        let mut lo_k = k - 1;
        while lo_k > 0 && step_limbs(W, lo_k - 1) == wk {
            lo_k -= 1;
        }
        let hi = k - 1;
        match wk {
            1 => horner_stage::<W, 1>(&mut p, r, neg, hi, lo_k),
            2 => horner_stage::<W, 2>(&mut p, r, neg, hi, lo_k),
            3 => horner_stage::<W, 3>(&mut p, r, neg, hi, lo_k),
            4 if W >= 4 => horner_stage::<W, 4>(&mut p, r, neg, hi, lo_k),
            5 if W >= 5 => horner_stage::<W, 5>(&mut p, r, neg, hi, lo_k),
            6 if W >= 6 => horner_stage::<W, 6>(&mut p, r, neg, hi, lo_k),
            _ => horner_stage::<W, 7>(&mut p, r, neg, hi, lo_k),
        }
        k = lo_k;
    }
    p
}

/// The second table step (module doc, step 1): r̂₁ (|r̂₁| as W fraction limbs, sign) =
/// j₂/65536 + r̂₂ exactly, j₂ = round(65536·|r̂₁|) with the sign of r̂₁ (|j₂| ≤ 128):
/// (j₂, |r̂₂|, r̂₂ < 0).
pub fn split2<const W: usize>(r1: &[u64; L], neg: bool) -> (i32, [u64; L], bool) {
    // Top fraction limb = ⌊|r̂₁|·2^64⌋; j₂ = its rounding at 2^48 (|r̂₁| < 2^−8: < 2^56).
    let top = r1[W - 1];
    let jm = (top + (1u64 << 47)) >> 48;
    let q = jm << 48;
    let mut r = *r1;
    let rneg;
    if top >= q {
        r[W - 1] = top - q;
        rneg = neg;
    } else {
        // q − |r̂₁| over all W fraction limbs (q has only the top limb).
        let mut c = false;
        for i in 0..W {
            let qi = if i == W - 1 { q } else { 0 };
            let (s1, c1) = qi.overflowing_sub(r1[i]);
            let (s2, c2) = s1.overflowing_sub(c as u64);
            r[i] = s2;
            c = c1 | c2;
        }
        rneg = !neg;
    }
    let j2 = if neg { -(jm as i32) } else { jm as i32 };
    (j2, r, rneg)
}

/// The terms of Y·2^e rounded to `n` terms (module doc, step 4), Y with W fraction limbs;
/// `None` when the leading term overflows.
pub fn to_terms<const W: usize>(y: &[u64; L], n: usize, e: i32) -> Option<[f64; 8]> {
    let mut out = [0.0f64; 8];
    let mut mag = *y;
    let mut neg = false;
    let f = 64 * W as i64;
    // Bit index (in Y) of 2^−1074 after the scaling.
    let pos_sigma = -1074 - e as i64 + f;
    for (i, o) in out.iter_mut().enumerate().take(n) {
        // Top bit.
        let mut top = -1i64;
        for li in (0..=W).rev() {
            if mag[li] != 0 {
                top = 64 * li as i64 + 63 - mag[li].leading_zeros() as i64;
                break;
            }
        }
        if top < 0 {
            break;
        }
        let s = (top - 52).max(pos_sigma);
        if s - 1 > top {
            break; // the remainder is below σ/2 after the scaling: rounds to 0
        }
        let m: u64;
        let mut flip = false;
        if s <= 0 {
            // Exact: fewer than 54 bits left above bit 0 (s ≤ 0 ⇒ mag < 2^53).
            m = mag[0] << (-s);
            mag = [0u64; L];
        } else {
            let su = s as usize;
            let (q, b) = (su / 64, (su % 64) as u32);
            // Bits s.. of mag (fewer than 54 of them are non-zero).
            let m0 = if q <= W {
                let lo = mag[q] as u128;
                let hi = if q < W { mag[q + 1] as u128 } else { 0 };
                (((hi << 64) | lo) >> b) as u64
            } else {
                0
            };
            // Round bit s − 1 and the sticky bits below it.
            let rb = su - 1;
            let round = q_bit(&mag, rb);
            let sticky = (0..rb / 64).any(|li| mag[li] != 0)
                || mag[rb / 64] & ((1u64 << (rb % 64)) - 1) != 0;
            // low = mag mod 2^s.
            for (li, limb) in mag.iter_mut().enumerate() {
                let base = 64 * li;
                if base >= su {
                    *limb = 0;
                } else if base + 64 > su {
                    *limb &= (1u64 << (su - base)) - 1;
                }
            }
            if round && (sticky || m0 & 1 == 1) {
                m = m0 + 1;
                // 2^s − low (low ≠ 0: its bit s − 1 is set).
                let mut c = true;
                for (li, limb) in mag.iter_mut().enumerate() {
                    let base = 64 * li;
                    if base >= su {
                        break;
                    }
                    let (v, c1) = (!*limb).overflowing_add(c as u64);
                    *limb = if base + 64 > su {
                        v & ((1u64 << (su - base)) - 1)
                    } else {
                        v
                    };
                    c = c1;
                }
                flip = true;
            } else {
                m = m0;
            }
        }
        if m == 0 {
            break; // only bits below σ/2 are left (the remainder is then cut)
        }
        let ex = s - f + e as i64;
        let v = <f64 as crate::float::FloatTerm>::ldexp(m as f64, ex.clamp(-4000, 4000) as i32);
        if i == 0 && !v.is_finite() {
            return None;
        }
        *o = if neg { -v } else { v };
        if flip {
            neg = !neg;
        }
        if s <= 0 {
            break;
        }
    }
    Some(out)
}

/// Bit `b` of the limbs.
#[inline(always)]
fn q_bit(v: &[u64; L], b: usize) -> bool {
    (v[b / 64] >> (b % 64)) & 1 == 1
}

/// exp(x)·2^{shift} at f64 N ≥ 3 for x (its N terms) inside exp's thresholds, with k and j
/// picked by the caller: the terms of the result (leading +∞ on overflow), or `None` when the
/// caller must take its expansion path (|r̂| > η, never expected).
pub(crate) fn exp_terms(x: &[f64], k: i32, j: i32, shift: i32) -> Option<[f64; 8]> {
    match frac_limbs(x.len()) {
        3 => exp_terms_w::<3>(x, k, j, shift),
        4 => exp_terms_w::<4>(x, k, j, shift),
        5 => exp_terms_w::<5>(x, k, j, shift),
        6 => exp_terms_w::<6>(x, k, j, shift),
        _ => exp_terms_w::<7>(x, k, j, shift),
    }
}

#[inline(never)]
fn exp_terms_w<const W: usize>(x: &[f64], k: i32, j: i32, shift: i32) -> Option<[f64; 8]> {
    let (r1, neg1) = reduce::<W>(x, k, j)?;
    let (j2, r, neg) = split2::<W>(&r1, neg1);
    let mut y = exp_series::<W>(&r, neg);
    let table = |row: [u64; 9]| {
        let mut t = [0u64; L];
        t[..=W].copy_from_slice(&row[8 - W..]);
        t
    };
    if j2 != 0 {
        y = mul_trunc::<W>(&table(exp_j65536_fx(j2)), &y, 0);
    }
    if j != 0 {
        y = mul_trunc::<W>(&table(exp_j256_fx(j)), &y, 0);
    }
    match to_terms::<W>(&y, x.len(), k + shift) {
        Some(t) => Some(t),
        None => {
            let mut t = [0.0; 8];
            t[0] = f64::INFINITY;
            Some(t)
        }
    }
}

/// The stated relative bound of exp at f64 N ≥ 3 through this module (module doc, "Bound").
pub fn exp_rel_bound(n: usize) -> f64 {
    let w = frac_limbs(n);
    let f = 64 * w as i32;
    let p2 = |e: i32| (e as f64).exp2();
    let ulp = p2(-f);
    let eta = p2(-17) * (1.0 + p2(-20));
    let d = exp_degree(w);
    // Truncation of the series.
    let mut tp = 1.0f64;
    for i in 1..=d + 1 {
        tp *= eta / i as f64;
    }
    let tp = tp * (1.0 + eta);
    // Horner errors, weighted by η^k: c_k's truncation (1), the truncated product
    // (w_k + 1.01), r̂₂ cut to w_k limbs (1.02, where w_k < W), in units of 2^{−64w_k}.
    let mut ep = 0.0f64;
    for k in 0..=d {
        let wk = step_limbs(w, k);
        let cut = if wk < w { 1.02 } else { 0.0 };
        let e_k = (1.0 + wk as f64 + 1.01 + cut) * p2(-64 * wk as i32);
        ep += eta.powi(k as i32) * e_k;
    }
    // Two tables and two full products (each below one ulp), relative to e^{r₁} ≥ 0.70.
    let ey = eta.exp() * (ep + tp) + 7.0 * ulp;
    let dr = ulp * (1.0 + p2(-53));
    // (1 + ε_Y)(1 + (e^{δ_r} − 1))(1 + u^N) − 1, with e^{δ_r} − 1 ≤ δ_r(1 + δ_r), expanded so
    // that nothing cancels in f64.
    let dre = dr * (1.0 + dr);
    let u_n = p2(-53 * n as i32);
    let before = ey + dre * (1.0 + ey);
    let rel = before * (1.0 + u_n) + u_n;
    rel * (1.0 + p2(-40))
}

const _: () = assert!(exp_degree(MAX_W) <= MAX_DEG);
