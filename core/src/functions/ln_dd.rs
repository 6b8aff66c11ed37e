//! ln at f64 N = 2 (double-word) by two reciprocal-table steps and a short series: the
//! public ln at that precision (and, through it, at N = 1), with its own stated bound
//! ([`ln_dd_rel`]). The ln_1p-core path of [`super::exp_log`] (a Newton step on exp_m1) stays
//! for ln_1p, log2, log10, pow and the inverse hyperbolic functions.
//!
//! Why: the Newton step costs about one exp; this path costs a few dozen error-free
//! transforms, two table rows and seven double-word operations (issue 13's N = 2 target is
//! twice the speed of QD's dd log).
//!
//! # Algorithm (x finite, x > 0; special values are [`super::exp_log::ln_special`]'s)
//!
//! Notation: u = 2^−53; (h, l) double-words; RN the IEEE rounding; 2Sum, Fast2Sum, 2ProdFMA
//! the error-free transforms of [`crate::eft`].
//! 1. *Scaling.* If x₀ < 2^−1000, x ← x·2^128 (exact, also for subnormal terms) and
//!    s = 128, else s = 0. k = `ln_exponent`(x₀) (x₀·2^−k ∈ [1/√2, √2)), t = x·2^−k
//!    (t₀ exact; t₁ exact unless it falls below 2^−1074, an absolute error ≤ 2^−1074 on
//!    t ≥ 0.7). K = k − s, |K| ≤ 1074, and ln x = K·ln 2 + ln t.
//! 2. *First table step.* j₁ = round(128·t₀) ∈ [90, 182], r₁ = RN(128/j₁) (table), and
//!    v₁ = t·r₁ − 1 formed from exact pieces: (p, e) = 2Prod(t₀, r₁), (q, f) = 2Prod(t₁, r₁),
//!    d = p − 1 (exact by Sterbenz: p ∈ [½, 2]), (a, b) = 2Sum(e, q), (h, l₁) = 2Sum(d, a),
//!    ℓ = RN(l₁ + RN(b + f)), v̂₁ = 2Sum(h, ℓ). Only the two roundings in ℓ are errors: E₁
//!    below (0 when j₁ = 128: r₁ = 1, e = f = b = 0). |v₁| ≤ V₁ ≈ 2^−7.49.
//! 3. *Second table step.* j₂ = round(2^14·v̂₁₀) ∈ [−91, 91], r₂ = RN(1/(1 + j₂2^−14)),
//!    v₂ = (1 + v̂₁)r₂ − 1 = (r₂ − 1) + v̂₁₀r₂ + v̂₁₁r₂: (p₂, e₂) = 2Prod(v̂₁₀, r₂),
//!    (q₂, f₂) = 2Prod(v̂₁₁, r₂), (σ, σ_e) = 2Sum(r₂ − 1, p₂) (r₂ − 1 exact by Sterbenz),
//!    (a₂, b₂) = 2Sum(e₂, q₂), (h₂, l₂) = 2Sum(σ, a₂), ℓ₂ = RN(l₂ + RN(σ_e + RN(b₂ + f₂))),
//!    v̂₂ = 2Sum(h₂, ℓ₂): error E₂ below (0 when j₂ = 0). |v₂| ≤ V ≈ 2^−14.99.
//! 4. *Series* ln(1 + v) = v + v²Q(v), Q(v) = Σ_{i=2}^{8} (−1)^{i+1} v^{i−2}/i, truncated after
//!    v⁸ (relative ≤ V⁸/(9(1 − V)(1 − V/2)) ≈ 2^−123): τ = 1/5 − v/6 + v²/7 − v³/8 by three
//!    FMAs on v̂₀ (f64 coefficients), a = −¼ + RN(v̂₀τ) (Fast2Sum, exact), then by Estrin's
//!    scheme s = v², A = v·⅓ − ½, Q = A + s·a, w = s·Q, P = v + w (the chain s → s·a → Q → w
//!    → P is one operation shorter than Horner's), with the accurate tier's double-word products
//!    (mul/sqr μ = 6u² + 24u³: [`crate::bounds`]), the three sums by `fast2::add_small` (each
//!    adds a correction at most 2^−12 of the other operand: |v/3| ≤ 2^−16.5 against ½,
//!    |v²a| ≤ 2^−31 against |A| ≥ 0.49, |w| ≤ 2^−15.9|v|; relative α_s(2^−12) ≤ 3.0008u²,
//!    derived in `fast2.rs`, at about half the accurate add's dependent operations; α below
//!    is the larger of that and the accurate add's 3u² + 13u³) and ⅓ as the
//!    double-word (RN(⅓), RN(⅓)·2^−54) (error 2^−108/3).
//! 5. *Sum.* ln x = K·C₀ + K·C₁ + K·C₂ + T₁ + T₂ + P, with C_i the three 42-bit chunks of
//!    ln 2 of [`super::exp_log::sub_k_ln2`] (C₀ a multiple of 2^−42, C₁ of 2^−84 with
//!    C₁ < 2^−44, C₂ < 2^−86; products exact for |K| < 2^11; 0 ≤ ln 2 − ΣC_i < 2^−126) and
//!    T_i = −ln r_i in three *quantised* terms (`core/tools/gen_ln_table.py`, mpmath; checked
//!    against MPFR by `ln_dd_tables_against_mpfr`): t₀ the nearest multiple of 2^−42, t₁ the
//!    nearest multiple of 2^−84 of the rest (|t₁| ≤ 2^−43), t₂ the rest of that rounded to
//!    nearest (|t₂| ≤ 2^−85), so |T − (t₀ + t₁ + t₂)| ≤ 2^−138. Then
//!    A = K·C₀ + T₁,₀ + T₂,₀ and B = K·C₁ + T₁,₁ + T₂,₁ are computed *exactly* by plain
//!    additions: every partial sum of A is a multiple of 2^−42 below 2^10 in magnitude, every
//!    partial sum of B a multiple of 2^−84 below 2^−31 (|K·C₁| < 2^−33.9), both within 53 bits;
//!    c = RN(RN(K·C₂ + T₁,₂) + T₂,₂) errs by ≤ 2^−125.8 (K ≠ 0; |c| < 2^−75) or ≤ 2^−137
//!    (K = 0). *Step 5's sum*: (s₁, e₁) = 2Sum(A, P₀), (s₂, e₂) = 2Sum(s₁, B),
//!    (u₁, u₁′) = 2Sum(e₁, e₂), (u₂, u₂′) = 2Sum(u₁, P₁), ρ̃ = RN(u₂′ + RN(u₁′ + c)),
//!    (h₀, l₀) = Fast2Sum(s₂, u₂), (h, l) = Fast2Sum(h₀, RN(l₀ + ρ̃)). With S the exact sum,
//!    |P| ≤ 2.03|S| and |A|, |s₁|, |s₂|, |h₀| ≤ 3.1|S| in every case below (case B is the
//!    largest: |S| ≥ L_B, |P| ≤ V), so |e_i| ≤ 3.1u|S|, |P₁| ≤ 2.03u|S|, |u₁′| ≤ 6.3u²|S|,
//!    |u₂′| ≤ 8.4u²|S|; everything up to (h₀, l₀, u₁′, u₂′, c) is exact, and the three roundings
//!    left err by ≤ u|l₀ + ρ̃| + u|u₂′ + r₁| + u|u₁′ + c| (r₁ = RN(u₁′ + c)) ≤ u²|h₀| +
//!    37u³|S| + 3.1u|c|, with
//!    |h₀| ≤ |S|(1 + 12u): relative ≤ 1.0001u² + (c's error + 3.1u|c|)/|S| ≤ 1.0001u² +
//!    2^−125.6/0.3465 (K ≠ 0) or 2^−135/L_B (K = 0: c = RN(T₁,₂ + T₂,₂)) ≤ ρ′ = 1.01u². (It was the certified
//!    rounding of the eleven machine numbers, ρ = 4u²(1 + 8u), with greedy table terms;
//!    eleven dependent 2Sums and a certificate against three 2Sums here.)
//!
//! # Error bound
//!
//! The exact identity ln x = K·ln 2 + T₁ + T₂ + ln(1 + v₂*) with v₂* = t·r₁·r₂ − 1 holds for
//! the exact tables. The sum rounded in step 5 differs from ln x by
//! Δ = |K|·2^−126 + ε_{T₁} + ε_{T₂} + |P̂ − ln(1 + v₂*)| (ε_{T_i} ≤ 2^−138), and
//! |P̂ − ln(1 + v₂*)| ≤ B_P·V(1 + V) + (1.0057·E₁ + E₂)/(1 − 1.01V) (B_P the series' relative
//! error, the second term the error of v̂₂ seen through ln(1 + ·)). Lower bounds of |ln x| by
//! case: K ≠ 0: 0.3465 (and Δ's K-term over |ln x| ≤ 2^−126/0.3465); K = 0, j₁ ≠ 128:
//! |t − 1| ≥ 2^−8 − 3u, so |ln x| ≥ L_A = d − d²/2 for that d; K = 0, j₁ = 128, j₂ ≠ 0:
//! v₁ = t − 1 exactly (E₁ = 0, T₁ = 0) and |v₁| ≥ 2^−15(1 − u), |ln x| ≥ L_B (likewise);
//! j₁ = 128, j₂ = 0: P̂ alone, relative B_P. The stated bound is
//! (ρ′ + (1 + ρ′)·max_cases(Δ/L) + 2^−1000)·FIN ([`ln_dd_rel`], about 7u²; the 2^−1000
//! covers t₁'s underflow in step 1).

use super::exp_log::{ln_exponent, LN2_CHUNKS_F64};
use super::fast2;
use super::ln_table::{LN_J1_MIN, LN_J2_MIN, LN_R1, LN_R2};
use crate::eft::{fast_two_sum, two_prod, two_sum};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

type E2 = Expansion<f64, 2>;

/// Below this leading term the argument is scaled by 2^[`LN_DD_SCALE`] first (step 1).
const LN_DD_TINY: f64 = 9.332_636_185_032_189e-302; // 2^−1000
const LN_DD_SCALE: i32 = 128;

/// The series coefficients of step 4 (f64; ⅓ as a double-word).
const C5: f64 = 0.2;
const C6: f64 = -1.0 / 6.0;
const C7: f64 = 1.0 / 7.0;
const C8: f64 = -0.125;
const C3_HI: f64 = 1.0 / 3.0;
const C3_LO: f64 = C3_HI * 5.551_115_123_125_783e-17; // RN(⅓)·2^−54

/// ln x for finite x > 0 at f64 N = 2 (module doc). `None` only for an argument that is not
/// an ulp-nonoverlapping double-word (a table index outside the proven range).
pub(crate) fn ln_dd(x: &E2) -> Option<E2> {
    let (mut x0, mut x1) = (x.terms()[0], x.terms()[1]);
    let mut s = 0;
    if x0 < LN_DD_TINY {
        x0 = x0.ldexp(LN_DD_SCALE);
        x1 = x1.ldexp(LN_DD_SCALE);
        s = LN_DD_SCALE;
    }
    let k = ln_exponent(x0);
    let (t0, t1) = (x0.ldexp(-k), x1.ldexp(-k));
    // Step 2.
    let row1 = LN_R1.get(usize::try_from((t0 * 128.0).round() as i32 - LN_J1_MIN).ok()?)?;
    let r1 = f64::from_bits(row1[0]);
    let (p, e) = two_prod(t0, r1);
    let (q, f) = two_prod(t1, r1);
    let (a, b) = two_sum(e, q);
    let (h, l1) = two_sum(p - 1.0, a);
    let (v1h, v1l) = two_sum(h, l1 + (b + f));
    // Step 3.
    let row2 = LN_R2.get(usize::try_from((v1h * 16384.0).round() as i32 - LN_J2_MIN).ok()?)?;
    let r2 = f64::from_bits(row2[0]);
    let (p2, e2) = two_prod(v1h, r2);
    let (q2, f2) = two_prod(v1l, r2);
    let (sg, sg_e) = two_sum(r2 - 1.0, p2);
    let (a2, b2) = two_sum(e2, q2);
    let (h2, l2) = two_sum(sg, a2);
    let (vh, vl) = two_sum(h2, l2 + (sg_e + (b2 + f2)));
    // Step 4.
    let v = E2::from_normalized([vh, vl]);
    let tau = C8.mul_add(vh, C7).mul_add(vh, C6).mul_add(vh, C5);
    let (ah, al) = fast_two_sum(-0.25, vh * tau);
    let a = E2::from_normalized([ah, al]);
    let c3 = E2::from_normalized([C3_HI, C3_LO]);
    // Estrin: Q = (−½ + v·⅓) + v²·a, so that the chain v² → v²a → Q → v²Q → P is one
    // operation shorter than Horner's.
    // The three sums add a correction at most 2^−12 of the other operand: `add_small`.
    let s2 = fast2::sqr(&v);
    let lin = fast2::add_small(&E2::from_term(-0.5), &fast2::mul(&v, &c3));
    let q = fast2::add_small(&lin, &fast2::mul(&s2, &a));
    let w = fast2::mul(&s2, &q);
    let pv = fast2::add_small(&v, &w);
    // Step 5: A and B exact (quantised tables), three 2Sums, two Fast2Sums.
    let kt = (k - s) as f64;
    let c = |i: usize| f64::from_bits(LN2_CHUNKS_F64[i]);
    let t1r = |i: usize| f64::from_bits(row1[i]);
    let t2r = |i: usize| f64::from_bits(row2[i]);
    let (ph, pl) = (pv.terms()[0], pv.terms()[1]);
    let big = kt * c(0) + t1r(1) + t2r(1);
    let mid = kt * c(1) + t1r(2) + t2r(2);
    let small = (kt * c(2) + t1r(3)) + t2r(3);
    let (s1, e1) = two_sum(big, ph);
    let (s2, e2) = two_sum(s1, mid);
    let (u1, u1e) = two_sum(e1, e2);
    let (u2, u2e) = two_sum(u1, pl);
    let rest = u2e + (u1e + small);
    let (h0, l0) = fast_two_sum(s2, u2);
    let (h, l) = fast_two_sum(h0, l0 + rest);
    Some(E2::from_normalized([h, l]))
}

/// The stated relative bound of [`ln_dd`] (module doc, "Error bound"), evaluated in f64 on
/// positive quantities (relative error < 2^−45 in all) and multiplied by `fin`.
pub(crate) fn ln_dd_rel(fin: f64) -> f64 {
    let u = f64::EPSILON / 2.0;
    let p2 = |e: i32| (e as f64).exp2();
    // The series' three sums are `fast2::add_small` with ratios below 2^−12 (module doc,
    // step 4): α_s(2^−12), which also covers the accurate add's α.
    let alpha = crate::bounds::add_rel_bound::<f64>(2)
        .max(super::fast2::add_small_rel_bound::<f64>(p2(-12)));
    let mu = crate::bounds::mul_rel_bound::<f64>(2);
    // ρ′: the final sum of step 5 (module doc, "Step 5's sum").
    let rho = 1.01 * u * u;
    // Ranges: |t₁| ≤ 2u|t₀| (ulp-nonoverlapping input), r₁ ≤ 128/90·(1 + u), v₁ and v₂.
    let r1_max = 128.0 / 90.0 * (1.0 + u);
    let v1_max = (p2(-8) + 2.0 * u * 1.4143) * r1_max + r1_max * u;
    let r2_max = 1.0 / (1.0 - 91.0 * p2(-14)) * (1.0 + u);
    let v = (p2(-15) + u * v1_max) * r2_max + 1.01 * u;
    // E₁: |e| ≤ u|p|, |q| ≤ 2u|t₀r₁|(1 + u), |f| ≤ u|q|, |a| ≤ (|e| + |q|)(1 + u), |b| ≤ u|a|.
    let pm = 1.0 + v1_max + u;
    let (em, qm) = (u * pm, 2.0 * u * pm * (1.0 + 2.0 * u));
    let fm = u * qm;
    let am = (em + qm) * (1.0 + u);
    let bf = u * am + fm;
    let err1 = u * bf;
    let hm = (v1_max + u * am + fm) * (1.0 + u);
    let lm = (u * hm + bf + err1) * (1.0 + u);
    let e1 = err1 + u * lm;
    // E₂: |e₂| ≤ u|p₂|, |q₂| ≤ u|v̂₁₀|r₂(1 + u), |f₂| ≤ u|q₂|, |σ_e| ≤ u|σ|, σ ≤ V + |a₂|.
    let p2m = v1_max * r2_max * (1.0 + u);
    let (e2m, q2m) = (u * p2m, u * v1_max * r2_max * (1.0 + u));
    let a2m = (e2m + q2m) * (1.0 + u);
    let bf2 = u * a2m + u * q2m;
    let inner = bf2 * (1.0 + u);
    let sgm = (v + a2m) * (1.0 + u);
    let mid = (u * sgm + inner) * (1.0 + u);
    let h2m = (v + mid + a2m) * (1.0 + u);
    let l2m = (u * h2m + mid) * (1.0 + u);
    let e2 = u * bf2 + u * (u * sgm + inner) + u * l2m;
    // The series (step 4): τ, a, b, Q, w, P.
    let e_tau = u * (0.41 + v);
    let e_a = v * (e_tau + 0.41 * u);
    // Â = (v·⅓(1 + ε₃)(1 + μ) − ½)(1 + α) against A = v/3 − ½; ĝ = v²(1 + μ)·â(1 + μ)
    // against v²a; Q̂ = (Â + ĝ)(1 + α) against Q = A + v²a.
    let e_lin =
        v * (1.01 * u * u / 12.0 + 0.3334 * mu) * (1.0 + alpha) + alpha * (0.5 + 0.3334 * v);
    let e_g = v * v * (1.0001 * e_a + 0.5003 * mu);
    let e_q = e_lin + e_g + alpha * (0.5 + 0.3334 * v + 0.2502 * v * v + e_lin + e_g);
    let trunc = v.powi(8) / (9.0 * (1.0 - v));
    let b_p = (alpha * (1.0 + 0.51 * v) + v * (e_q + (0.501 + e_q) * (2.0 * mu + mu * mu)) + trunc)
        / (1.0 - v / 2.0);
    // Absolute error of P̂ against ln(1 + v₂*), the table and ln 2 truncations.
    let d_p = b_p * v * (1.0 + v) + (1.0057 * e1 + e2) / (1.0 - 1.01 * v);
    // The quantised tables: |−ln r − (t₀ + t₁ + t₂)| ≤ 2^−138 each.
    let eps_t1 = p2(-138);
    let eps_t2 = p2(-138);
    // Cases (module doc): K ≠ 0; K = 0 with j₁ ≠ 128; K = 0, j₁ = 128, j₂ ≠ 0; all zero.
    let case_k = p2(-126) / 0.3465 + (eps_t1 + eps_t2 + d_p) / 0.3465;
    let da = p2(-8) - 3.0 * u;
    let case_a = (eps_t1 + eps_t2 + d_p) / (da - da * da / 2.0);
    let db = p2(-15) * (1.0 - u);
    let d_pb = b_p * v * (1.0 + v) + e2 / (1.0 - 1.01 * v);
    let case_b = (eps_t2 + d_pb) / (db - db * db / 2.0);
    let r = case_k.max(case_a).max(case_b).max(b_p);
    (rho + (1.0 + rho) * r + p2(-1000)) * fin
}
