//! sin and cos of the reduced argument at f64 N ≥ 3 in fixed-point integer arithmetic: the
//! table step j/256, the two Taylor series in z = s² on u64 limbs, the table combination and the
//! rounding to N terms, with the stated bound derived below.
//!
//! Why: the expansion kernel (`trig.rs`, steps 2–5) spends two accurate products and a sum per
//! Horner step, three triple-angle steps and a square root; at N = 4 sin cost 2.1× MPFR. The
//! limb primitives of [`super::fixed`] (exp at f64 N ≥ 3) make every step a schoolbook product
//! with plainly counted truncation errors, and integer arithmetic is reproducible, so the CUDA
//! mirror (`gpu/src/cuda/functions_fixed.cu`, `fx_sin_cos`) is bit-identical by construction.
//!
//! Notation as in [`super::fixed`]: W = ⌈(53N + 16)/64⌉ fraction limbs, F = 64W, ulp_F = 2^−F,
//! "truncated" = rounded toward −∞ (all values here are ≥ 0). The input is the reduced r̂ of
//! `trig.rs` step 1 (its error δ_r is accounted there, as an argument perturbation), and
//! ρ = |r̂| ≤ π/4·(1 + 2^−20) (sin r̂ = −sin ρ for r̂ < 0, cos even). All bounds below are
//! absolute, in units of ulp_F, unless said otherwise.
//!
//! # Series (both paths)
//!
//! For z ∈ [0, Z], Z = 2^−16(1 + 2^−10): S(z) = Σ_k (−z)^k/(2k+1)! (sin s = s·S(s²)) and
//! C(z) = Σ_k (−z)^k/(2k)! (cos s = C(s²)), by Horner p_d = a_d, p_k = a_k − ẑ·p_{k+1} with
//! a_k = ⌊2^F/(2k+1)!⌋·2^−F (S) or ⌊2^F/(2k)!⌋·2^−F (C) (the factorial table of
//! [`super::fixed`]). *Degree* ([`sc_degree`]): the least d with Z^{d+1}/(2d+2+o)! ≤ 2^{−F−8}
//! (o = 1 for S, 0 for C): both series alternate with decreasing terms (z < 1), so the tail is
//! below its first omitted term, t_S or t_C. Tested in integers: 16(d + 1) − 1 +
//! Σ_{i=2}^{2d+2+o} ⌊log₂ i⌋ ≥ F + 8 (the −1 absorbs (1 + 2^−10)^{d+1} ≤ 2). *Limb plan*
//! ([`sc_step_limbs`]): step k runs at w_k = W − ⌊(16k − 8)/64⌋ fraction limbs (clamped to
//! [1, W]), so that Z^k·2^{−64w_k} ≤ (1 + 2^−10)^k·2^{−F−8}: a_k truncated to w_k limbs
//! (< 2^{−64w_k}),
//! ẑ cut to its top w_k limbs (< 2^{−64w_k}, times p_{k+1} ≤ 1), the product by
//! [`super::fixed::mul_lo`] (< (w_k + 1.01)·2^{−64w_k}), then subtracted: no borrow, since
//! ẑ·p_{k+1} ≤ 2^−16·a_{k+1} < a_k truncated (checked for every W and k by the test
//! `functions_fixed::sin_cos_series_never_borrows`, exhaustively). The error made at step k,
//! e_k < (w_k + 2.01 + [w_k < W])·2^{−64w_k}, reaches p₀ multiplied by at most Z^k (every
//! later step multiplies by ẑ ≤ Z and subtracts), so the Horner error is ε_H = Σ_k Z^k e_k.
//! With |S′|, |C′| ≤ 1/6, 1/2 on [0, Z] and ẑ within δ_z of the exact z:
//! |Ŝ − S(z)| ≤ ε_H,S + t_S + δ_z/6 =: ε_S, |Ĉ − C(z)| ≤ ε_H,C + t_C + δ_z/2 =: ε_C.
//!
//! # Path A: ρ₀ ≥ 2^−8 (table)
//!
//! 1. *Conversion*: the terms of ρ, each truncated to a multiple of 2^{−F−64} into an
//!    accumulator of W + 1 fraction limbs ([`super::fixed::acc_add_f64`]), then truncated to F
//!    bits: ρ̂ ∈ (ρ − ulp_F(1 + 2^−60), ρ]. As an argument perturbation ρ̂ = ρ(1 − θ) with
//!    θ < ulp_F(1 + 2^−60)/ρ_min, ρ_min = 2^−8(1 − 2^−45) (ρ ≥ ρ₀ − 2ulp(ρ₀)): the relative
//!    effect on sin is at most θ(1 + 2θ) (|ρ cot ρ| ≤ 1, as `trig.rs` step 6), on cos at most
//!    sin ρ·|ρ − ρ̂|/cos ρ ≤ 1.0002·ulp_F(1 + 2^−60) (ρ ≤ π/4(1 + 2^−20)).
//! 2. *Split*: j = ⌊256ρ̂⌋ (the top 8 bits of the top fraction limb; j ≤ 201), s = ρ̂ − j/256
//!    exactly (those bits cleared), 0 ≤ s < 2^−8; ẑ = s² by [`super::fixed::mul_lo`] (the
//!    truncated product, within t := W + 1.01 below the exact one; its first operand's
//!    integer limb is ignored, here and below always 0): δ_z < t.
//! 3. *sin s* = mul_lo(s, Ŝ): error < t + s·ε_S ≤ t + 2^−8ε_S (0 ≤ Ŝ ≤ 1: p₀ = 1 − ẑ·p₁).
//! 4. *Combination* (j ≥ 1; for j = 0, sin ρ̂ = sin s and cos ρ̂ = Ĉ): with the tables
//!    T_S = ⌊sin(j/256)·2^F⌋, T_C = ⌊cos(j/256)·2^F⌋ (error < 1 each, integer limb 0 for
//!    j ≥ 1; [`super::fixed_table`], generated with mpmath, checked against MPFR by the
//!    tests), sin ρ̂ = sin c·cos s + cos c·sin s ≈ T_S·Ĉ + T_C·ŝin s and cos ρ̂ = cos c·cos s −
//!    sin c·sin s ≈ T_C·Ĉ − T_S·ŝin s (exact identities; the difference is ≥ 0.70, no
//!    borrow), each product by mul_lo with the table first. Each product: its truncation
//!    (< t), the table's error times the other factor (≤ 1 with Ĉ ≤ 1, ≤ 2^−8 with ŝin s),
//!    the factor's error times the table value (≤ 1). So both results are within
//!    E = 3t + 1.01 + ε_C + 2^−8ε_S of sin ρ̂ and cos ρ̂ (j = 0: E_sin = t + 2^−8ε_S,
//!    E_cos = ε_C, smaller).
//!    Relative: sin ρ̂ ≥ sin(ρ_min − 1.01ulp_F) ≥ s_min (computed in [`sin_cos_fixed_parts`]),
//!    cos ρ̂ ≥ cos(π/4(1 + 2^−20)) ≥ 0.70710: ε_A,sin = E/s_min ⊕ θ(1 + 2θ),
//!    ε_A,cos = E/0.70710 ⊕ 1.0003·ulp_F.
//!
//! # Path B: 2^−240 ≤ ρ₀ < 2^−8 (scaled)
//!
//! With e the exponent of ρ₀ (2^{e−1} ≤ ρ₀ < 2^e, e ≤ −8) and σ = −e, m = ρ·2^σ ∈ [0.4999,
//! 1.0001] (the terms scaled exactly). *Conversion* as in path A: m̂ ∈ (m − ulp_F(1 + 2^−60),
//! m]. *Square*: ẑ = ⌊⌊m̂²⌋·2^{−2σ}⌋ (2σ ≥ 16; a shift): |m̂² − m²| ≤ 2.0003(1 + 2^−60), one
//! truncation before and one after the shift, so δ_z ≤ 3.001·2^−16 + 1 < 1.0001 against
//! z = ρ². *sin* ρ = 2^{−σ}·m·S(z) ≈ 2^{−σ}·⌊m̂·Ŝ⌋: error < 1 + m·ε_S + Ŝ·1.0001 ≤ 2.0002 +
//! 1.0001ε_S, relative to m·S ≥ 0.4999·(1 − Z/6) ≥ 0.4998: ε_B,sin = (2.0002 + 1.0001ε_S)/0.4998.
//! *cos* ρ = C(z) ≈ Ĉ, relative to C ≥ 1 − Z/2: ε_B,cos = ε_C/(1 − Z/2).
//!
//! # Path C: ρ₀ < 2^−240
//!
//! sin ρ = ρ and cos ρ = 1 are returned: relative errors ρ²/6 and ρ²/2 below 2^−479.
//!
//! # Rounding
//!
//! Paths A and B round the fixed-point value Y to N terms (scaled by 2^{−σ} in path B) with
//! [`super::fixed::to_terms`]: relative u^N, no underflow (|Y| ≥ 2^{−9}·2^{−240} and its lowest
//! bit is ≥ 2^{−F−240} ≥ 2^−688). Stated ([`sin_cos_fixed_parts`]): σ = max over the paths of
//! (1 + ε)(1 + u^N) − 1, times 1 + 2^−40 for the f64 evaluation.

use super::fixed::{
    acc_add_f64, frac_limbs, mul_lo, mul_trunc, sub, to_terms, INV_FACT, L, LA, MAX_DEG, MAX_W,
};
use super::fixed_table::{COS_J256_FX, SIN_J256_FX};

/// Largest table index: ⌊256·π/4·(1 + 2^−20)⌋.
pub const SIN_TAB_MAX: usize = 201;
/// Path B below ρ₀ < 2^PATH_A_EXP, path C below 2^PATH_C_EXP (module doc).
const PATH_A_EXP: i32 = -8;
const PATH_C_EXP: i32 = -240;

/// d, the degree of S (`odd`) or C at W fraction limbs (module doc, "Series").
pub const fn sc_degree(w: usize, odd: bool) -> usize {
    let target = 64 * w as i64 + 8;
    let o = if odd { 1 } else { 0 };
    let mut d: usize = 1;
    loop {
        let mut lf: i64 = 0;
        let mut i = 2;
        while i <= 2 * d + 2 + o {
            lf += (usize::BITS - 1 - i.leading_zeros()) as i64;
            i += 1;
        }
        if 16 * (d as i64 + 1) - 1 + lf >= target {
            return d;
        }
        d += 1;
    }
}

/// w_k, the fraction limbs of Horner step k of S and C at W fraction limbs: W − ⌊(16k − 8)/64⌋
/// in [1, W].
pub const fn sc_step_limbs(w: usize, k: usize) -> usize {
    let drop = if 16 * k >= 8 { (16 * k - 8) / 64 } else { 0 };
    if drop + 1 >= w {
        1
    } else {
        w - drop
    }
}

const _: () = assert!(2 * sc_degree(MAX_W, false) + 1 <= MAX_DEG);

/// ⌊sin(j/256)·2^512⌋ for 0 ≤ j ≤ 201 (eight fraction limbs and the integer limb).
pub fn sin_j256_fx(j: usize) -> [u64; 9] {
    SIN_J256_FX[j.min(SIN_TAB_MAX)]
}

/// ⌊cos(j/256)·2^512⌋ for 0 ≤ j ≤ 201 (eight fraction limbs and the integer limb).
pub fn cos_j256_fx(j: usize) -> [u64; 9] {
    COS_J256_FX[j.min(SIN_TAB_MAX)]
}

/// Horner steps k = `hi`, …, `lo_k` (descending) of an alternating series at WK fraction
/// limbs: p ← a_k − ẑ·p with a_k = `coefs[stride·k + offset]` (MAX_W fraction limbs, cut to
/// WK); one instance per (W, WK), so the limb loops are unrolled. S and C here (1/(2k+1)! and
/// 1/(2k)!: stride 2), atan's H ([`super::atan_fixed`], 1/(2k+1): stride 1).
#[inline(never)]
fn alt_stage<const W: usize, const WK: usize>(
    p: &mut [u64; L],
    z: &[u64; L],
    (coefs, stride, offset): (&[[u64; L]], usize, usize),
    hi: usize,
    lo_k: usize,
) {
    let lo = W - WK.min(W);
    let mut k = hi;
    loop {
        let zp = mul_lo::<W>(z, p, lo);
        let mut c = [0u64; L];
        c[lo..=W].copy_from_slice(&coefs[stride * k + offset][MAX_W - W + lo..=MAX_W]);
        *p = sub::<W>(&c, &zp, lo);
        if k == lo_k {
            break;
        }
        k -= 1;
    }
}

/// The alternating series Σ_k (−ẑ)^k a_k to degree d by Horner at W fraction limbs, step k at
/// `plan(W, k)` limbs, the steps grouped by their limb count ([`alt_stage`] for the
/// coefficients).
#[inline(always)]
pub(crate) fn alt_series<const W: usize>(
    z: &[u64; L],
    coefs: (&[[u64; L]], usize, usize),
    d: usize,
    plan: fn(usize, usize) -> usize,
) -> [u64; L] {
    let (table, stride, offset) = coefs;
    let lo_d = W - plan(W, d);
    let mut p = [0u64; L];
    p[lo_d..=W].copy_from_slice(&table[stride * d + offset][MAX_W - W + lo_d..=MAX_W]);
    let mut k = d;
    while k > 0 {
        let wk = plan(W, k - 1);
        let mut lo_k = k - 1;
        while lo_k > 0 && plan(W, lo_k - 1) == wk {
            lo_k -= 1;
        }
        let hi = k - 1;
        match wk {
            1 => alt_stage::<W, 1>(&mut p, z, coefs, hi, lo_k),
            2 => alt_stage::<W, 2>(&mut p, z, coefs, hi, lo_k),
            3 => alt_stage::<W, 3>(&mut p, z, coefs, hi, lo_k),
            4 if W >= 4 => alt_stage::<W, 4>(&mut p, z, coefs, hi, lo_k),
            5 if W >= 5 => alt_stage::<W, 5>(&mut p, z, coefs, hi, lo_k),
            6 if W >= 6 => alt_stage::<W, 6>(&mut p, z, coefs, hi, lo_k),
            _ => alt_stage::<W, 7>(&mut p, z, coefs, hi, lo_k),
        }
        k = lo_k;
    }
    p
}

/// The Horner error of [`alt_series`] to degree d at W = `w` (absolute, not in ulp_F):
/// Σ_k z_max^k·e_k with e_k = (w_k + 2.01 + [w_k < W]·cut)·2^{−64w_k}, w_k = `plan(w, k)` (the
/// product, the coefficient's cut and, below W limbs, the cut of ẑ times `cut` ≥ |p|).
pub(crate) fn alt_horner_error(
    w: usize,
    d: usize,
    z_max: f64,
    plan: fn(usize, usize) -> usize,
    cut: f64,
) -> f64 {
    let mut eh = 0.0f64;
    for k in 0..=d {
        let wk = plan(w, k);
        let c = if wk < w { cut } else { 0.0 };
        let e_k = (wk as f64 + 2.01 + c) * (-64.0 * wk as f64).exp2();
        eh += z_max.powi(k as i32) * e_k;
    }
    eh
}

/// S(ẑ) (`odd`) or C(ẑ) for 0 ≤ ẑ ≤ Z by the Horner scheme of the module doc at W fraction
/// limbs.
pub fn sc_series<const W: usize>(z: &[u64; L], odd: bool) -> [u64; L] {
    // Inline consts: evaluated at compile time, not per call.
    let d = if odd {
        const { sc_degree(W, true) }
    } else {
        const { sc_degree(W, false) }
    };
    alt_series::<W>(z, (&INV_FACT[..], 2, odd as usize), d, sc_step_limbs)
}

/// The terms of ρ·2^σ (ρ = |r|, r's terms in `r`) truncated to W fraction limbs (module doc,
/// "Conversion").
pub(crate) fn to_fixed<const W: usize>(r: &[f64], negative: bool, sigma: i32) -> [u64; L] {
    let fr = W + 1;
    let mut acc = [0u64; LA];
    for &t in r {
        let v = if negative { -t } else { t };
        acc_add_f64(&mut acc, fr, crate::float::FloatTerm::ldexp(v, sigma));
    }
    let mut out = [0u64; L];
    out[..=W].copy_from_slice(&acc[1..=W + 1]);
    out
}

/// v·2^{−bits}, truncated (limbs 0..=W).
pub(crate) fn shift_right<const W: usize>(v: &[u64; L], bits: u32) -> [u64; L] {
    let mut out = [0u64; L];
    let q = (bits / 64) as usize;
    let b = bits % 64;
    for i in 0..=W {
        let src = i + q;
        if src > W {
            break;
        }
        let lo = v[src] >> b;
        let hi = if b != 0 && src < W {
            v[src + 1] << (64 - b)
        } else {
            0
        };
        out[i] = lo | hi;
    }
    out
}

/// A table row at W fraction limbs (the top W fraction limbs and the integer limb).
pub(crate) fn table<const W: usize>(row: &[u64; 9]) -> [u64; L] {
    let mut t = [0u64; L];
    t[..=W].copy_from_slice(&row[8 - W..]);
    t
}

/// (sin r, cos r) as the terms of N-term expansions for the reduced r (its N = `r.len()` f64
/// terms, |r| ≤ π/4(1 + 2^−20), r ≠ 0), each computed only where `want_sin` (`want_cos`)
/// asks (else zeros) — module doc.
pub(crate) fn sin_cos_terms(r: &[f64], want_sin: bool, want_cos: bool) -> ([f64; 8], [f64; 8]) {
    match frac_limbs(r.len()) {
        3 => sin_cos_w::<3>(r, want_sin, want_cos),
        4 => sin_cos_w::<4>(r, want_sin, want_cos),
        5 => sin_cos_w::<5>(r, want_sin, want_cos),
        6 => sin_cos_w::<6>(r, want_sin, want_cos),
        _ => sin_cos_w::<7>(r, want_sin, want_cos),
    }
}

/// The exponent e of v > 0 with 2^{e−1} ≤ v < 2^e.
pub(crate) fn exponent(v: f64) -> i32 {
    let bits = v.to_bits();
    let ex = ((bits >> 52) & 0x7ff) as i32;
    if ex == 0 {
        // Subnormal: 2^{−1074}·mantissa.
        -1074 + (64 - (bits & ((1u64 << 52) - 1)).leading_zeros() as i32)
    } else {
        ex - 1022
    }
}

#[inline(never)]
fn sin_cos_w<const W: usize>(r: &[f64], want_sin: bool, want_cos: bool) -> ([f64; 8], [f64; 8]) {
    let n = r.len();
    let negative = r[0] < 0.0;
    let signed = |mut t: [f64; 8]| {
        if negative {
            for v in t.iter_mut() {
                *v = -*v;
            }
        }
        t
    };
    let mut sin_out = [0.0f64; 8];
    let mut cos_out = [0.0f64; 8];
    let e = exponent(r[0].abs());
    if e <= PATH_C_EXP {
        // Path C: sin r = r, cos r = 1.
        if want_sin {
            sin_out[..n].copy_from_slice(r);
        }
        cos_out[0] = 1.0;
        return (sin_out, cos_out);
    }
    // to_terms declines only on overflow, impossible for values ≤ 1.0001.
    let round = |y: &[u64; L], scale: i32| to_terms::<W>(y, n, scale).unwrap_or([0.0; 8]);
    if e <= PATH_A_EXP {
        // Path B: ρ = 2^{−σ}·m.
        let sigma = -e;
        let m = to_fixed::<W>(r, negative, sigma);
        let z = shift_right::<W>(&mul_trunc::<W>(&m, &m, 0), 2 * sigma as u32);
        if want_sin {
            let s = sc_series::<W>(&z, true);
            sin_out = signed(round(&mul_trunc::<W>(&m, &s, 0), e));
        }
        if want_cos {
            cos_out = round(&sc_series::<W>(&z, false), 0);
        }
        return (sin_out, cos_out);
    }
    // Path A.
    let rho = to_fixed::<W>(r, negative, 0);
    let j = (rho[W - 1] >> 56) as usize;
    let mut s = rho;
    s[W - 1] &= (1u64 << 56) - 1;
    let z = mul_lo::<W>(&s, &s, 0);
    let need_s = j != 0 || want_sin;
    let need_c = j != 0 || want_cos;
    let sin_s = if need_s {
        mul_lo::<W>(&s, &sc_series::<W>(&z, true), 0)
    } else {
        [0u64; L]
    };
    let cos_s = if need_c {
        sc_series::<W>(&z, false)
    } else {
        [0u64; L]
    };
    let (ys, yc) = if j == 0 {
        (sin_s, cos_s)
    } else {
        let ts = table::<W>(&sin_j256_fx(j));
        let tc = table::<W>(&cos_j256_fx(j));
        let ys = if want_sin {
            super::fixed::add::<W>(
                &mul_lo::<W>(&ts, &cos_s, 0),
                &mul_lo::<W>(&tc, &sin_s, 0),
                0,
            )
        } else {
            [0u64; L]
        };
        let yc = if want_cos {
            sub::<W>(
                &mul_lo::<W>(&tc, &cos_s, 0),
                &mul_lo::<W>(&ts, &sin_s, 0),
                0,
            )
        } else {
            [0u64; L]
        };
        (ys, yc)
    };
    if want_sin {
        sin_out = signed(round(&ys, 0));
    }
    if want_cos {
        cos_out = round(&yc, 0);
    }
    (sin_out, cos_out)
}

/// (σ_sin, σ_cos): the relative errors of [`sin_cos_terms`] against sin ρ and cos ρ of the
/// exact value of its input, at f64 N (module doc; stated bound of every path, maximised).
pub fn sin_cos_fixed_parts(n: usize) -> (f64, f64) {
    let w = frac_limbs(n);
    let f = 64 * w as i32;
    let p2 = |e: i32| (e as f64).exp2();
    let ulp = p2(-f);
    let z_max = p2(-16) * (1.0 + p2(-10));
    // Horner error and tail of S (odd) or C, in ulp_F.
    let series = |odd: bool| {
        let d = sc_degree(w, odd);
        let eh = alt_horner_error(w, d, z_max, sc_step_limbs, 1.0);
        let mut tail = z_max.powi(d as i32 + 1);
        for i in 1..=(2 * d + 2 + odd as usize) {
            tail /= i as f64;
        }
        (eh + tail) / ulp
    };
    let (hs, hc) = (series(true), series(false));
    // Path A: δ_z < W + 1.01 (mul_lo), and four products and s·Ŝ by mul_lo.
    let t = w as f64 + 1.01;
    let (eps_s, eps_c) = (hs + t / 6.0, hc + t / 2.0);
    let big_e = 3.0 * t + 1.01 + eps_c + p2(-8) * eps_s;
    let rho_min = p2(-8) * (1.0 - p2(-45));
    let x = rho_min - 1.01 * ulp;
    let s_min = x * (1.0 - x * x / 6.0);
    let theta = ulp * (1.0 + p2(-60)) / rho_min;
    let cat = |a: f64, b: f64| a + b + a * b;
    let a_sin = cat(big_e * ulp / s_min, theta * (1.0 + 2.0 * theta));
    let a_cos = cat(big_e * ulp / 0.70710, 1.0003 * ulp);
    // Path B: δ_z < 1.0001.
    let (eps_s, eps_c) = (hs + 1.0001 / 6.0, hc + 1.0001 / 2.0);
    let b_sin = (2.0002 + 1.0001 * eps_s) * ulp / 0.4998;
    let b_cos = eps_c * ulp / (1.0 - z_max / 2.0);
    // Path C.
    let c_rel = p2(-479);
    let u_n = p2(-53 * n as i32);
    let round = |eps: f64| eps * (1.0 + u_n) + u_n;
    let sin = round(a_sin.max(b_sin)).max(c_rel);
    let cos = round(a_cos.max(b_cos)).max(c_rel);
    (sin * (1.0 + p2(-40)), cos * (1.0 + p2(-40)))
}
