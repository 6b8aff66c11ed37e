//! The last part of atan at f64 N ≥ 3 in fixed-point integer arithmetic: the series of
//! atan t for the reduced t, the table value atan(j/256) and their sum, rounded to N terms,
//! with the stated bound derived below.
//!
//! Why: after the table reduction t = (z − c)/(1 + zc), c = j/256 (`trig.rs`, "atan"), the
//! expansion kernel ran up to 23 Horner steps of accurate products and sums at f64 N = 8, then
//! a product and a sum: about 60 % of atan's time there (1.8× MPFR at N = 8). On W fraction
//! limbs each step is a truncated schoolbook product and a subtraction ([`super::fixed`]),
//! and integer arithmetic is reproducible, so the CUDA mirror
//! (`gpu/src/cuda/functions_atan_fixed.cu`, `fx_atan_finish`) is bit-identical by construction.
//! The reduction itself (numerator, denominator, division) stays in the accurate tier, with
//! its relative error ε of t̂ and θ = ε(1 + 3ε) of atan t̂ as derived in `trig.rs`.
//!
//! Notation as in [`super::fixed`] and [`super::sin_fixed`]: W = ⌈(53N + 16)/64⌉ fraction
//! limbs, F = 64W, ulp_F = 2^−F; bounds in units of ulp_F unless said otherwise.
//!
//! # Input
//!
//! t̂ (N f64 terms, the accurate division's result, or t̂ = z exactly when j = 0) with
//! |t̂| ≤ t_b = 1.001/512 (`trig.rs`; checked at run time: a larger |t̂₀| returns `None` and
//! the caller keeps the expansion series) and the table index j ∈ [0, 256] (j = 0: no table
//! term, z₀ < 2^−9). With e the exponent of |t̂₀| (2^{e−1} ≤ |t̂₀| < 2^e) and σ = −e ≥ 8:
//! m = |t̂|·2^σ ∈ [0.4999, 1 + 2^−51] (the terms scaled exactly).
//!
//! # Series
//!
//! atan τ = τ·H(τ²), H(z) = Σ_k (−z)^k/(2k+1), alternating with decreasing terms for z < 1.
//! *Conversion*: m̂ = the terms of m truncated into an accumulator of W + 1 fraction limbs and
//! then to W ([`super::sin_fixed::to_fixed`]): m̂ ∈ (m − 1.0001, m]. *Square*: ẑ =
//! ⌊⌊m̂²⌋·2^{−2σ}⌋, so |ẑ − m²2^{−2σ}| ≤ 1 + 2^−16·(1 + 2.0003) < δ_z := 1.0001 (the exact z =
//! t̂² = m²2^{−2σ}). ẑ ≤ Z := min(2^{−2σ}(1 + 2^−49), t_b²(1 + 2^−40)) ≤ 2^−17.99.
//! *Degree* ([`atan_degree`]): the least d with b(d + 1) + ⌊log₂(2d + 3)⌋ ≥ F + 8, b =
//! max(2σ − 1, 17): then Z^{d+1} ≤ 2^{−b(d+1)} and the tail, below its first omitted term
//! Z^{d+1}/(2d + 3), is t_H ≤ 2^−8. *Horner*: p_d = c_d, p_k = c_k − ẑ·p_{k+1} with c_k =
//! ⌊2^F/(2k+1)⌋·2^−F ([`inv_odd_fx`], exact integer long division at compile time), step k
//! at w_k = W − ⌊(17k − 8)/64⌋ fraction limbs (exp's plan, [`super::fixed::step_limbs`]):
//! c_k cut to w_k limbs (< 2^{−64w_k}), ẑ cut to its top w_k limbs (< 2^{−64w_k} times
//! p_{k+1} ≤ 1), the product by [`super::fixed::mul_lo`] (< (w_k + 1.01)·2^{−64w_k}), then
//! subtracted: no borrow, as ẑ·p_{k+1} ≤ 2^−17 < c_k − 2^{−64} for every k ≤ 60 (all p_k lie
//! in (0, c_k]). The error of step k, e_k < (w_k + 2.01 + [w_k < W]·1.02)·2^{−64w_k}, reaches
//! p₀ multiplied by at most Z^k. With |H′| ≤ 1/3 on [0, Z]:
//! |Ĥ − H(z)| ≤ Σ_k Z^k e_k + t_H + δ_z/3 =: ε_H (evaluated at the largest degree and Z, which
//! dominate every σ: [`atan_fixed_bound`]).
//! *Scaled arctangent*: B̂ = ⌊m̂·Ĥ⌋ ([`super::fixed::mul_trunc`], exact floor): |B̂ − m·H(z)|
//! ≤ 1 + 1.0001·Ĥ + m·ε_H ≤ 2.0002 + 1.0001ε_H =: E_B (Ĥ ≤ 1, m ≤ 1 + 2^−51), and m·H(z) =
//! 2^σ·atan|t̂|.
//!
//! # Result
//!
//! - *j = 0* (t̂ = z, no division, θ = 0): for σ ≥ 240, atan z = z is returned (relative error
//!   below z²/3 ≤ 2^−479). Otherwise Y = B̂ rounded to N terms with the scale 2^{−σ}
//!   ([`super::fixed::to_terms`], relative u^N, no underflow: Y ≥ 2^−2, its lowest bit ≥
//!   2^{−F−240}): relative to m·H ≥ 0.4999·(1 − Z/3) ≥ 0.4998, ε₀ = E_B·ulp_F/0.4998.
//! - *j ≥ 1*: Y = A ± ⌊B̂·2^{−σ}⌋ (the sign of t̂), A = ⌊atan(j/256)·2^F⌋ (the table
//!   [`super::fixed_table`], generated with mpmath, checked against MPFR by the tests). No
//!   borrow: A ≥ atan(1/256) − ulp_F > 2^−8·0.99 and the subtrahend ≤ atan t_b < 2^−9·1.001.
//!   |Y − (atan c + atan t̂)| ≤ 1 (table) + 1 (shift) + 2^{−σ}E_B ≤ 2 + 2^−8E_B =: E_A. The
//!   true result R = atan z ≥ atan(2^−9(1 − 2u)) ≥ 2^−9(1 − 2^−17) (j ≥ 1 means z₀ ≥ 2^−9),
//!   and atan t̂ = atan t·(1 + θ) with |atan t| ≤ 1.0001·R (`trig.rs`: t ≥ 0 gives atan t ≤ R;
//!   t < 0 gives |atan t|/R = m − 1 ≤ 1.0001 there), so the relative error of Y is
//!   ε_A = E_A·ulp_F/(2^−9(1 − 2^−17)) + 1.0001·θ.
//! - Rounding to N terms: (1 + ε)(1 + u^N) − 1, times 1 + 2^−40 for the f64 evaluation
//!   ([`atan_fixed_bound`]). The table term dominates where it exists, so the stated bound is
//!   about 2^{9−F+2} + θ: at f64 N = 8 θ (the division's) is the main part.

use super::fixed::{add, frac_limbs, mul_trunc, step_limbs, sub, to_terms, L, MAX_W};
use super::fixed_table::ATAN_J256_FX;
use super::sin_fixed::{alt_horner_error, alt_series, exponent, shift_right, table, to_fixed};

/// Largest table index: 256 (c = 1).
pub const ATAN_TAB_MAX: usize = 256;
/// Highest series degree (W = 7, σ ≤ 9: [`atan_degree`]).
pub const ATAN_MAX_DEG: usize = 27;
/// j = 0 returns z itself from σ ≥ this (module doc, "Result").
const PATH_C_SIGMA: i32 = 240;
/// Largest |t̂₀| the series takes: t_b = 1.001/512 with room for the rounding of t̂₀.
const T_MAX: f64 = 1.002 / 512.0;

/// d, the series degree at W fraction limbs for the scale σ (module doc, "Series"): the
/// least d with b(d + 1) + ⌊log₂(2d + 3)⌋ ≥ 64W + 8, b = max(2σ − 1, 17).
pub const fn atan_degree(w: usize, sigma: i32) -> usize {
    let target = 64 * w as i64 + 8;
    let b = if 2 * sigma as i64 - 1 > 17 {
        2 * sigma as i64 - 1
    } else {
        17
    };
    let mut d: usize = 0;
    loop {
        let lg = (usize::BITS - 1 - (2 * d + 3).leading_zeros()) as i64;
        if b * (d as i64 + 1) + lg >= target {
            return d;
        }
        d += 1;
    }
}

const _: () = assert!(atan_degree(MAX_W, 8) <= ATAN_MAX_DEG);

/// ⌊2^{64·MAX_W}/(2k+1)⌋ for k = 0..=ATAN_MAX_DEG as MAX_W fraction limbs and the integer
/// limb, by exact long division at compile time. The value at W < MAX_W limbs is the top W
/// fraction limbs (truncation again: ⌊⌊a·2^s⌋·2^−s'⌋ = ⌊a·2^{s−s'}⌋).
const fn inv_odd_table() -> [[u64; L]; ATAN_MAX_DEG + 1] {
    let mut t = [[0u64; L]; ATAN_MAX_DEG + 1];
    let mut k = 0;
    while k <= ATAN_MAX_DEG {
        let q = 2 * k as u128 + 1;
        let mut rem: u128 = 0;
        let mut i = L;
        while i > 0 {
            i -= 1;
            let limb = if i == MAX_W { 1u128 } else { 0 };
            let cur = (rem << 64) | limb;
            t[k][i] = (cur / q) as u64;
            rem = cur % q;
        }
        k += 1;
    }
    t
}

static INV_ODD: [[u64; L]; ATAN_MAX_DEG + 1] = inv_odd_table();

/// ⌊2^{64·MAX_W}/(2k+1)⌋ (limbs, little-endian, integer limb MAX_W): the coefficients of H
/// (module doc, "Series"); the device port reads them.
pub fn inv_odd_fx(k: usize) -> [u64; L] {
    INV_ODD[k.min(ATAN_MAX_DEG)]
}

/// ⌊atan(j/256)·2^512⌋ for 0 ≤ j ≤ 256 (eight fraction limbs and the integer limb).
pub fn atan_j256_fx(j: usize) -> [u64; 9] {
    ATAN_J256_FX[j.min(ATAN_TAB_MAX)]
}

/// H(ẑ) to degree d by the Horner scheme of the module doc at W fraction limbs (the shared
/// driver of [`super::sin_fixed`], with exp's limb plan).
pub fn atan_series<const W: usize>(z: &[u64; L], d: usize) -> [u64; L] {
    alt_series::<W>(z, (&INV_ODD[..], 1, 0), d.min(ATAN_MAX_DEG), step_limbs)
}

/// atan(j/256) + atan t̂ as N f64 terms (N = `t.len()` ≥ 3; t̂ ≠ 0 with |t̂| ≤ t_b, t̂ = z
/// exactly when j = 0), or `None` when |t̂₀| exceeds the bound the derivation assumes (the
/// caller then keeps the expansion series). Module doc.
pub(crate) fn atan_finish_terms(t: &[f64], j: usize) -> Option<[f64; 8]> {
    if !(t[0].abs() <= T_MAX) || t[0] == 0.0 || j > ATAN_TAB_MAX {
        return None;
    }
    match frac_limbs(t.len()) {
        3 => atan_finish_w::<3>(t, j),
        4 => atan_finish_w::<4>(t, j),
        5 => atan_finish_w::<5>(t, j),
        6 => atan_finish_w::<6>(t, j),
        _ => atan_finish_w::<7>(t, j),
    }
}

#[inline(never)]
fn atan_finish_w<const W: usize>(t: &[f64], j: usize) -> Option<[f64; 8]> {
    let n = t.len();
    let negative = t[0] < 0.0;
    let e = exponent(t[0].abs());
    let sigma = -e;
    if j == 0 && sigma >= PATH_C_SIGMA {
        let mut out = [0.0f64; 8];
        out[..n].copy_from_slice(t);
        return Some(out);
    }
    let m = to_fixed::<W>(t, negative, sigma);
    // 2σ < 2^11 for any f64 t̂ ≠ 0; shift_right clears everything from 64(W + 1) bits on.
    let z = shift_right::<W>(&mul_trunc::<W>(&m, &m, 0), 2 * sigma as u32);
    let h = atan_series::<W>(&z, atan_degree(W, sigma));
    let b = mul_trunc::<W>(&m, &h, 0);
    // to_terms declines only on overflow, impossible for values ≤ 1 (as in sin_fixed.rs).
    let round = |y: &[u64; L], scale: i32| to_terms::<W>(y, n, scale).unwrap_or([0.0; 8]);
    let mut out = if j == 0 {
        round(&b, e)
    } else {
        let a = table::<W>(&atan_j256_fx(j));
        let bs = shift_right::<W>(&b, sigma as u32);
        let y = if negative {
            sub::<W>(&a, &bs, 0)
        } else {
            add::<W>(&a, &bs, 0)
        };
        return Some(round(&y, 0));
    };
    if negative {
        for v in out.iter_mut() {
            *v = -*v;
        }
    }
    Some(out)
}

/// The relative error of [`atan_finish_terms`] against atan(c) + atan(t) (t the exact
/// reduced argument) at f64 N, where atan t̂ = atan t·(1 + θ) (module doc; every path
/// maximised; the j = 0 path has θ = 0).
pub fn atan_fixed_bound(n: usize, theta: f64) -> f64 {
    let w = frac_limbs(n);
    let f = 64 * w as i32;
    let p2 = |e: i32| (e as f64).exp2();
    let ulp = p2(-f);
    let tb = 1.001 / 512.0;
    let z_max = tb * tb * (1.0 + p2(-40));
    // Horner error (the largest degree, σ ≤ 9, dominates) and the tail, in ulp_F.
    let eh = alt_horner_error(w, atan_degree(w, 8), z_max, step_limbs, 1.02);
    let eps_h = eh / ulp + p2(-8) + 1.0001 / 3.0;
    let e_b = 2.0002 + 1.0001 * eps_h;
    let eps0 = (e_b * ulp / 0.4998).max(p2(-479));
    let e_a = 2.0 + p2(-8) * e_b;
    let eps_a = e_a * ulp / (p2(-9) * (1.0 - p2(-17))) + 1.0001 * theta;
    let u_n = p2(-53 * n as i32);
    let eps = eps0.max(eps_a);
    (eps * (1.0 + u_n) + u_n) * (1.0 + p2(-40))
}
