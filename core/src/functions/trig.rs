//! Trigonometric and inverse trigonometric functions of expansions: sin, cos, tan, atan,
//! asin, acos and atan2, for `Expansion<T, N>` (T = f64, f32; N = 1..8), each with a stated
//! relative error bound derived here from the algorithm and the accurate tier's proven bounds
//! ([`crate::bounds`]).
//!
//! Notation: δ_add, δ_mul, δ_div, δ_sqrt are the accurate tier's bounds
//! ([`bounds::add_rel_bound`], [`bounds::mul_rel_bound`] (also for sqr and, being larger
//! than [`bounds::mul_term_rel_bound`], for mul_term), [`bounds::div_rel_bound`] (div,
//! div_term, recip), [`bounds::sqrt_rel_bound`]); ρ_N = [`bounds::round_rel_bound`];
//! π_N is the rounding of π to the first N table terms, relative error
//! π_err = ½(2u)^N(1 + 4u) (|π − π_N| ≤ ½ulp(t_{N−1}) ≤ ½(2u)^N|t₀|, |t₀| ≤ π(1 + u));
//! π/2 and π/4 are π_N scaled exactly. a ⊕ b = (1 + a)(1 + b) − 1 composes relative errors.
//! Every bound is finally multiplied by 1.01: this covers the second-order terms written
//! below as (1 + O(δ)) (all below 2^−40 relatively), and the rounding of the f64 evaluation
//! of the bound formulas.
//!
//! # sin, cos, tan
//!
//! 1. *Reduction* (`trig_reduce.rs`; |x| ≤ 0.78 is kept as r = x exactly, k = 0):
//!    x = kπ/2 + r, k mod 4 exact, |r| ≤ π/4(1 + 2^−20) < R_MAX = 0.785399, and the computed
//!    r̂ = r(1 + δ_r) with δ_r = max(δ_ph, δ_cw) (`reduction_rel_bound`; derivations in
//!    `trig_reduce.rs`). First the *Cody–Waite* path for moderate |x| (f64: |x| ≲ 2^16·π/2,
//!    every N; f32: |x| ≲ 2^8·π/2, N ≤ 4): q = round(x₀·2/π), r = x − q·C₀ − … − q·C_{m−1}
//!    with chunks C_i of π/2 of p − 16 (f64) or p − 8 (f32) bits, every product exact, all
//!    terms summed exactly and rounded once: δ_cw ≤ 2^{−(pN+8)} ⊕ ρ_N, guarded by run-time
//!    checks 2^{−c} ≤ |r̂₀| ≤ 0.785398 (x not too close to a multiple of π/2, c from the
//!    plan: 15..46 for f64). Where it does not apply or a check fails, *Payne–Hanek* with the
//!    bits of 2/π in integer arithmetic: δ_ph ≤ 2^{−(pN+61)} ⊕ 2^{1−p(N+2)} ⊕ ρ_N ⊕ π_err ⊕
//!    δ_mul. Relative accuracy of r is kept however close x is to a multiple of π/2: the
//!    fixed-point precision grows at run time until r has pN + 66 significant bits (up to
//!    1982 fraction bits, far beyond the range where any bound is stated). δ_cw < δ_ph (π_err
//!    alone is ½(2u)^N), so the Cody–Waite path left the stated bounds unchanged.
//! 2. *Triple-angle reduction*: with k_max, J_max from a cost plan (`sin_plan`, chosen from
//!    (p, N) only) and a_lim = R_MAX/3^{k_max}, the smallest k ≤ k_max with |r̂|/3^k ≤ a_lim
//!    is used and a₀ = r̂·P_k with P_k the first N terms of the greedy 12-term table of
//!    3^{−k} (relative δ_c = u^N(1 + u), see step 3; a multiplication instead of a long
//!    division): a₀ = (r̂/3^k)(1 + δ_mul)(1 + δ_c), an argument perturbation. Together
//!    δ_arg = δ_r ⊕ δ_mul ⊕ δ_c.
//! 3. *Taylor*: with J ≤ J_max Horner steps t_J = 1, t_j = 1 − a₀²·t_{j+1}·C_j, C_j the
//!    first N terms of the greedy 12-term table of 1/((2j+2)(2j+3)) (generated with mpmath,
//!    [`super::constants::series_coef`]; relative error δ_c = u^N(1 + u): each greedy term is
//!    at most ½ulp ≤ u times the previous, the tail at most ½ulp of the last kept term; a
//!    multiplication instead of a long division), and s₀ = a₀·t₀: the sum of the first J + 1 terms of sin a₀ / a₀, an alternating series
//!    with decreasing terms (|a₀| < 1), so the truncation is at most the first omitted term
//!    a^{2J+2}/(2J+3)! and relatively at most that over 1 − a²/6; J is the smallest with this
//!    below τ = 2^{−(pN+4)} (checked at run time with a margin on |a₀|, and by the plan for
//!    a ≤ a_b = 1.001·a_lim). Rounding: exact T_j satisfy 0 ≤ T_{j+1} ≤ 1 and
//!    T_j ≥ 1 − q_j, q_j = a²/((2j+2)(2j+3)); the computed t_j = T_j(1 + η_j) with η_J = 0
//!    and, since the product a₀²t_{j+1}C_j carries E_j = η_{j+1} ⊕ δ_mul ⊕ δ_mul ⊕ δ_mul ⊕
//!    δ_c (sqr, mul, mul by the coefficient and its table error) and enters T_j with weight
//!    ≤ q_j/(1 − q_j),
//!    η_j ≤ (q_j E_j/(1 − q_j)) ⊕ δ_add. So ŝ₀ = sin(a₀)(1 + σ₀), σ₀ ≤ η₀ ⊕ δ_mul ⊕ τ. The
//!    bound is evaluated at a = a_b and J = J_max; it increases with a and with J, so it
//!    covers every run-time choice. *One-term steps* (f64, N = 2: j ≥ 4,
//!    `SIN_DD_F64_FROM`, `sin_step_one_term`): t_j = 1 − (a²₀·t_{j+1})·C_{j,0} in IEEE
//!    arithmetic (t_{j+1} is then one term, exactly; the first two-term step takes (t, 0)):
//!    the same recurrence with E_j = η_{j+1} ⊕ u/(1 − u) ⊕ u ⊕ u ⊕ u(1 + u) (a² cut to its
//!    leading term, two products, the coefficient's leading term) and δ_add → u. Such an
//!    error reaches t₀ with weight ≤ Π_{i<4} q_i/(1 − q_i) ≈ 2^−59.3 (a_b = 0.0291; the
//!    bound at f64 N = 2 goes from 66.86u² to 66.87u²), while those steps cost a few flops
//!    instead of two double-word products and a sum each.
//! 4. *Tripling*: s_{i+1} = s_i(3 − 4s_i²) (exact identity sin 3a = sin a(3 − 4 sin² a)),
//!    computed by sqr, exact scaling by −4, add_term(3), mul. With ŝ_i = s_i(1 + σ_i),
//!    ŝ_i² = s_i²(1 + E), E ≤ σ_i ⊕ σ_i ⊕ δ_mul, and 3 − 4s²(1 + E) = (3 − 4s²)(1 − hE),
//!    h = 4s²/(3 − 4s²) (s ≤ a_b·3^i, as sin a ≤ a), so
//!    σ_{i+1} ≤ σ_i ⊕ hE ⊕ δ_add ⊕ δ_mul. Fewer steps (small |r|) only lower the bound.
//! 5. *cos r* = √(1 − ŝ²) (computed only where the quadrant needs it) (no cancellation: ŝ² ≤ ½(1 + 2^−19)): 1 − s²(1 + E) =
//!    (1 − s²)(1 − E·s²/(1 − s²)), s²/(1 − s²) ≤ 1.0001, so κ ≤ 1.0001E ⊕ δ_add and the
//!    square root gives σ_c ≤ ½κ(1 + κ) ⊕ δ_sqrt.
//! 6. *Argument perturbation*: sin(r(1 + δ)) = sin r·(1 + θ) with |θ| ≤ |δ|(1 + 2|δ|)
//!    (mean value theorem, |r cot r| ≤ 1 for |r| ≤ π/4); for cos |θ| ≤ 0.79|δ| (r tan r ≤
//!    π/4·1.0001); for tan |θ| ≤ 1.571|δ| (2r/sin 2r ≤ π/2).
//! 7. *Quadrant*: sin x = ±sin r or ±cos r, cos x likewise, tan x = sin r/cos r or
//!    −cos r/sin r (one div).
//!
//! Stated: sin and cos: max(σ_k ⊕ δ_arg(1 + 2δ_arg), σ_c ⊕ 0.79δ_arg); tan:
//! σ_k ⊕ σ_c/(1 − σ_c) ⊕ δ_div ⊕ 1.571δ_arg(1 + 2δ_arg).
//!
//! ## Table reduction at N = 2 (both term types; `sin_table.rs`, replacing steps 2–5)
//!
//! After step 1, with K = 256: sin is odd and cos even, so we work with ρ = |r̂| (exact
//! negation; sin r = −sin ρ for r̂ < 0). j = ⌊ρ₀·K⌋ (ρ₀·K exact; j ≤ 201 as
//! ρ₀ ≤ R_MAX), c = j/K (exact), and s = ρ − c.
//! - *s exact*: for j ≥ 1, c ≤ ρ₀ < c + 1/K ≤ 2c, so ρ₀ − c is exact (Sterbenz) and
//!   2Sum(ρ₀ − c, ρ₁) = (s₀, s₁) is s exactly, normalised; s < 1/K + u·ρ₀ < s_b = 1.001/K.
//!   s < 0 only where ρ₀ = c (ρ₀ > c gives ρ₀ − c ≥ ulp(c) ≥ ½ulp(ρ₀) ≥ |ρ₁|), and then
//!   |s| = |ρ₁| ≤ u·c. s₀ = 0 means ρ = c: the result is the table pair. For j = 0, s = ρ.
//! - *Series*: z = s² (sqr, δ_mul). sin s = s·t₀ with the Horner recurrence of step 3
//!   (coefficients C_j = 1/((2j+2)(2j+3)), q_j = s_b²C_j) and cos s = u₀ with
//!   u_J = 1, u_j = 1 − z·u_{j+1}·D_j, D_j = 1/((2j+1)(2j+2)) (the first two greedy terms,
//!   `COS_DEN_INV`, relative error δ_c; D₀ = ½ is applied exactly by ldexp), q_j = s_b²D_j:
//!   the first J + 1 terms of cos s = Σ(−z)^k/(2k)!, alternating and decreasing, so the
//!   truncation is at most z^{J+1}/(2J+2)!, relatively that over 1 − z/2. J is fixed per
//!   term type (`sin_tab_plan`: the smallest with the truncation at s_b below τ; f64: 5 and
//!   5, f32: 2 and 2), so no run-time plan. The rounding analysis of step 3 holds for both
//!   recurrences (T_{j+1} ∈ [0, 1], T_j ≥ 1 − q_j) with three step kinds: steps j < H with
//!   the accurate operations (E_j and δ_add as in step 3); the *half step* j = H:
//!   p = RN(RN(z₀·t_{j+1})·c_{j,0}) (t_{j+1} is one term) and t_j = Fast2Sum(1, −p), exact
//!   (|p| < 1), so E_j = η_{j+1} ⊕ δ_mul ⊕ u/(1 − u) ⊕ u ⊕ u ⊕ u(1 + u) (z's rounding, z cut
//!   to z₀, two products, the coefficient's leading term) and no subtraction error; steps
//!   j > H at one term (step 3's one-term step, with the same E_j, δ_add → u). H = 2 for f64
//!   (weights with s_b ≈ 2^−8: an error of the one-term t₃ reaches t₀ with ≤ q₀q₁q₂ ≤ 2^−60,
//!   the half step's product error (≈ 4u relative on a product of size q₂ ≤ 2^−21.4) with
//!   ≤ q₀q₁ ≤ 2^−38.9), H = 1 for f32. So ŝs = sin s(1 + σ_s), σ_s ≤ η₀ ⊕ δ_mul ⊕ τ, and ĉs = cos s(1 + σ_c),
//!   σ_c ≤ η₀ ⊕ τ (η₀ of each recurrence, evaluated at s_b and J). *f64*: both series are
//!   instead the fixed ones of "Series at f64 N = 2" (under atan below; `sin_series_dd`,
//!   `cos_series_dd`), with σ_s and σ_c their β_series (Z ≤ s_b²): three and two
//!   double-word products instead of five and three (after the common z); the stated sin
//!   and cos bound at f64 N = 2 falls from 31.4 to 25.4u², tan from 61.7 to 49.8u²; f32
//!   keeps the recurrences.
//! - *Table*: S_j, C_j = sin c, cos c as their two greedy terms (`SIN_TAB`, generated with
//!   mpmath, checked against MPFR by `functions_trig::sin_table_against_mpfr`): relative
//!   α = u²(1 + u) = δ_c each.
//! - *Combination* (j ≥ 1): sin ρ = S_j·cos s + C_j·sin s, cos ρ = C_j·cos s − S_j·sin s
//!   (exact identities), two products (δ_mul) and one sum (δ_add): the products carry
//!   a = δ_c ⊕ σ_c ⊕ δ_mul (with cos s) and b = δ_c ⊕ σ_s ⊕ δ_mul (with sin s). The terms
//!   A = S_j cos s ≥ 0 and C_j cos s > 0, while B = ±sin s·(C_j or S_j) has the sign of s
//!   (or the opposite). Same signs: relative error ≤ max(a, b). Opposite signs, with
//!   m = A/(A ± B) the relative error is ≤ m·a + (m − 1)·b: sin (s < 0, so ρ₀ = c and
//!   |B| ≤ |s| ≤ u·c): m − 1 ≤ u·c/sin(c(1 − u)) ≤ 1.12u (M_SIN = 1 + 2^−20) — the floor in j
//!   keeps sin free of cancellation (round(ρ₀·K) with |s| ≤ 1/(2K) would give m up to 2);
//!   cos (s > 0): m = C_j cos s/cos ρ ≤ cos c/cos(min(c + s_b, π/4(1 + 2^−20))) ≤ 1.00391
//!   (M_COS = 1.0041).
//!   Then ⊕ δ_add. For j = 0, sin ρ = ŝs and cos ρ = ĉs. σ_sin (σ_cos) is the largest of
//!   these (`sin_cos_table_parts`).
//! - The argument perturbation (step 6) now has δ_arg = δ_r (no scaling by 3^−k), and tan
//!   is sin ρ/cos ρ or −cos ρ/sin ρ (one div) from the same pair. Stated at N = 2: sin and
//!   cos: max(σ_sin ⊕ δ_r(1 + 2δ_r), σ_cos ⊕ 0.79δ_r); tan: max(σ_sin ⊕ σ_cos/(1 − σ_cos),
//!   σ_cos ⊕ σ_sin/(1 − σ_sin)) ⊕ δ_div ⊕ 1.571δ_r(1 + 2δ_r). The triple-angle steps (three
//!   sqr, add, mul each, whose errors grow by up to 3× per step) and cos r = √(1 − s²) are
//!   gone; cos r and sin r cost the same.
//!
//! ## Fixed-point path at f64 N ≥ 3 (`sin_fixed.rs`, replacing steps 2–5)
//!
//! After step 1, sin r and cos r (those the quadrant needs) come from the fixed-point module
//! [`super::sin_fixed`]: |r̂| on u64 limbs, a table step j/256, the series of sin and cos in
//! s² with a limb plan, the table combination, and the rounding to N terms, with relative
//! errors σ_sin, σ_cos against sin and cos of the computed r̂ derived there
//! (`sin_cos_fixed_parts`; every truncation counted, as for exp in `fixed.rs`). Step 6 and
//! the stated formulas are those of the N = 2 table reduction above, with these σ; tan is
//! one accurate division of the two N-term results (δ_div). Integer arithmetic, so the CUDA
//! mirror (`functions_sin_fixed.cu`) is bit-identical by construction.
//!
//! # atan, asin, acos, atan2
//!
//! `atan_unit(z)`, 0 ≤ z ≤ 1 exact (N = 1 and f32 N ≥ 5; f64 N ≥ 2 and f32 N = 2..4 take the
//! table reduction below): h ≤ h_max
//! *halvings* z ← z/(1 + √(1 + z²)) (exact
//! identity atan z = 2 atan(z/(1 + √(1 + z²)))), until z ≤ z_lim = tan(π/2^{h_max+2}).
//! One halving computes the exact map of its computed input times (1 + ε): sqr (δ_mul),
//! 1 + z² (weight of z² ≤ ½: κ₁ ≤ ½δ_mul ⊕ δ_add), √ (κ₂ ≤ ½κ₁(1 + κ₁) ⊕ δ_sqrt), 1 + √
//! (weight of √ ≤ √2/(1 + √2) < 0.586: κ₃ ≤ 0.586κ₂ ⊕ δ_add), div (ε ≤ δ_div ⊕ κ₃/(1 − κ₃)).
//! As w·atan'(w)/atan(w) ≤ 1, atan(w(1 + ε)) = atan(w)(1 + θ), |θ| ≤ |ε|(1 + 3|ε|), so
//! 2^h atan(ẑ_h) = atan(z)·Π(1 + θ_i) exactly in terms of the computed ẑ_h. *Series*:
//! Horner t_J = 1, t_j = 1 − z²·t_{j+1}·R_j with R_j the first N terms of the greedy table
//! of (2j+1)/(2j+3) (relative δ_c = u^N(1 + u) as for sin; mul, mul, sub), result
//! 2^h·z·t₀: the first J + 1 terms of atan z / z = Σ(−z²)^j/(2j+1), alternating and
//! decreasing, truncation ≤ z^{2J+2}/(2J+3)/(1 − z²/3) ≤ τ; rounding as for sin with
//! q_j = z²(2j+1)/(2j+3) and E_j = η_{j+1} ⊕ δ_mul ⊕ δ_mul ⊕ δ_mul ⊕ δ_c, evaluated at
//! z_b = 1.002·z_lim. So atan_unit has relative error A ≤ Πθ ⊕ η₀ ⊕ δ_mul ⊕ τ.
//! *One-term steps* (f64, N = 2: j ≥ 8, `ATAN_DD_F64_FROM`, `atan_step_one_term`): t_j =
//! 1 − (z²₀·t_{j+1})·R_{j,0} in IEEE arithmetic, with the one-term E_j and δ_add → u of sin
//! (step 3 above); with h_max = 3 (z_b = 0.0987, q_j ≤ 0.0098) such an error reaches t₀
//! with weight ≤ Π_{i<8} q_i/(1 − q_i) ≈ 2^−57.5 (the bound at f64 N = 2 goes from
//! 53.98u² to 54.02u²), while those steps cost a few flops instead of two double-word
//! products and a sum each.
//!
//! *Table reduction* (f64 N ≥ 2, f32 N = 2..4; `atan_unit_table`, replacing the halvings):
//! for 0 < z ≤ 1(1 + 2^−19) (atan_unit's inputs), j = round(z₀·K), K = 256 (z₀·K exact;
//! j ≤ K), c = j/K (exact), and atan z = atan c + atan t, t = (z − c)/(1 + zc) (exact
//! identity, zc ≥ 0). For j = 0, t = z and the table term is absent.
//! - *Numerator*: |z₀ − c| ≤ 1/(2K) and c ≥ 1/K give c/2 ≤ z₀ ≤ 2c, so z₀ − c is exact
//!   (Sterbenz). N = 2: 2Sum(z₀ − c, z₁) = (s, e) is z − c exactly (normalised, as 2Sum's
//!   output is); s = 0 means z = c: the result is the table pair. N ≥ 3: the other terms
//!   still have to be added and the exact difference may need more than N terms, so the
//!   numerator is the accurate add_term z + (−c), within δ_add of z − c (relative to the
//!   exact difference: no cancellation loss); a zero result means z = c (the table pair).
//!   Write ν = 0 (N = 2) or δ_add (N ≥ 3) for the numerator's relative error.
//! - *Denominator*: z·c by mul_term (δ_mul), then + 1 (add_term): zc/(1 + zc) ≤ ½ + 2^−20
//!   (zc ≤ z ≤ 1 + 2^−19), so d̂ = (1 + zc)(1 + κ_d), κ_d ≤ (½ + 2^−20)δ_mul ⊕ δ_add; the
//!   division gives t̂ = t(1 + ε),
//!   ε ≤ ν ⊕ δ_div ⊕ κ_d/(1 − κ_d); as t·atan′(t)/atan(t) ≤ 1, atan(t̂) = atan(t)(1 + θ),
//!   |θ| ≤ ε(1 + 3ε) (as for the halvings).
//! - *f64 N ≥ 3*: everything after t̂ (the series, the table value and the sum, below) runs
//!   in fixed-point integer arithmetic instead, with its own derivation and bound in
//!   [`super::atan_fixed`] (θ below enters it unchanged); the rest of this list describes f64
//!   N = 2 and f32 N = 2..4.
//! - *Series* of atan t̂: J from the thresholds at t_est = |t̂₀|(1 + 2^−20)², at most
//!   J_T = steps(t_b) with t_b = 1.001/(2K) ≥ |t̂| (|z − c| ≤ 1/(2K) + u·z₀ times 1 + ν,
//!   1 + zc ≥ 1; J_T = 5, 8, 11, 14, 17, 20, 23 for f64 N = 2..8, 2, 4, 5 for f32
//!   N = 2, 3, 4), the first J + 1 terms of atan t̂/t̂, truncation ≤ τ as above.
//!   *N = 2*: as in the series above (Horner with R_j), the rounding η₀ by the same
//!   recurrence with q_j = t_b²(2j+1)/(2j+3) ≤ 2^−15.6 and *one-term steps* for j ≥ 3
//!   (`ATAN_TAB_ONE_FROM`): their error reaches t₀ with weight ≤ q₀q₁q₂ ≈ 2^−56.8 (f32
//!   never takes them, J_T = 2). *N ≥ 3* (`atan_tab_series`): Horner on the coefficients
//!   c_j = 1/(2j+1) themselves (one mul and one add per step instead of two muls and a
//!   sub): p_J = c_J, p_j = c_j − s·p_{j+1} (j = J − 1, …, 1), p₀ = 1 − s·p₁, s = t̂² (sqr,
//!   δ_sq = δ_mul), with c_j the first M greedy terms of 1/(2j+1) (`ATAN_INV_ODD`,
//!   relative γ_M = u^M(1 + u); c₀ = 1 exact). Exact recurrence P_j (same s): alternating
//!   and decreasing, so 0 < c_j − s·c_{j+1} ≤ P_j ≤ c_j, hence c_j/P_j ≤ 1/(1 − s) and
//!   s·P_{j+1}/P_j ≤ w = s/(1 − s) ≤ t_b²/(1 − t_b²) ≤ 2^−17.99. With p̂_{j+1} =
//!   P_{j+1}(1 + η_{j+1}), the product ŝ·p̂_{j+1} carries E_j = δ_sq ⊕ κ_j ⊕ η_{j+1} ⊕ δ_mul,
//!   and ĉ_j − s·P_{j+1}(1 + E_j) = P_j + c_jγ − s·P_{j+1}E_j, so
//!   η_j ≤ (γ_{M_j}/(1 − s) + w·E_j) ⊕ δ_add, η_J = γ_{M_J} (J = 0: p₀ = 1, η₀ = 0).
//!   *Staged precision* (as exp's `horner_terms`): an error of step j reaches p₀ with weight
//!   ≤ w^j, so step j runs at M_j = N − ⌊(17j − 4)/(p − 1)⌋ terms (clamped to [1, N];
//!   `atan_tab_terms`, `ATAN_TAB_SIG` = 17): p̂_{j+1} (M_{j+1} ≤ M_j terms) padded with
//!   zeros (exact), ŝ cut to its first M_j terms (κ_j ≤ 1.01(2u)^{M_j} for M_j < N, 0 for
//!   M_j = N; a normalised double-word by an exact Fast2Sum at M_j = 2), and δ_mul, δ_add,
//!   γ at M_j terms in the recurrence above, which holds for any plan (f64 N = 8, J = 23:
//!   steps 0–3 at 8 terms, 4–6 at 7, …, 22 at 1). The recurrence increases with s, with
//!   each η_{j+1}, and from j = J_T down it dominates a start at any J ≤ J_T (η_J = γ ≤
//!   the value the longer recurrence carries there), so `atan_tab_series_bound` evaluates it
//!   at s = t_b², J = J_T with the plan the code runs. Then B̂ = t̂·p̂₀ (δ_mul):
//!   B̂ = atan(t)(1 + β), β ≤ θ ⊕ η₀ ⊕ δ_mul ⊕ τ.
//! - *Table*: atan c as its first N greedy terms (`atan_table.rs`, 8 stored; generated with
//!   mpmath and checked against MPFR by `functions_trig::atan_table_against_mpfr`):
//!   Â = atan c·(1 + α), α ≤ u^N(1 + u) = δ_c (each term ≤ u times the previous, the rest
//!   after term N − 1 ≤ u|term N − 1|, term 0 ≤ (1 + u)atan c; f32 N ≤ 4: no term cut).
//! - *Sum* S = Â + B̂ (add, δ_add). With A = atan c, B = atan t, S = A + B = atan z: for
//!   t ≥ 0 (same signs, no cancellation) the relative error of Â + B̂ is
//!   (Aα + Bβ)/(A + B) ≤ max(α, β); for t < 0 (z < c), m = A/S = atan c/atan z ≤ c/z (atan x/x
//!   decreasing) ≤ j/(j − ½)/(1 − u) ≤ 2.0001 (z ≥ z₀(1 − u), z₀ ≥ (j − ½)/K) and |B|/S = m − 1,
//!   so it is ≤ mα + (m − 1)β. Hence A_T ≤ max(α, β, 2.0001α + 1.0001β) ⊕ δ_add replaces A
//!   in everything below (`atan_table_bound`). Three halvings each carried δ_div and a
//!   square root's error; the table path has one division: the stated atan bound at f64
//!   N = 2 falls from 54.0u² to 35.5u² (atan2 42.6u², asin 45.6u², acos 52.7u²; f32 N = 2:
//!   35.4, 42.5, 45.5, 52.6u²); at N ≥ 3 (argument halvings before) atan falls
//!   from 138.3 to 78.8u³ (f64 N = 3), 325.3 to 155.6u⁴ (N = 4), 6768.8 to 2458.5u⁸
//!   (N = 8) (atan2 / asin / acos at N = 4: 187.9 / 196.0 / 228.3u⁴, were 357.7 / 365.7 /
//!   398.1; f32 N = 3, 4: atan 113.9 → 78.9u³, 227.8 → 155.7u⁴).
//!
//! *Division at N = 2*: the quotient t = num/d above is `fast2::div_newton` (one correction
//! of the leading quotient, derivation in `fast2.rs`), relative error δ_nd = 13u² + 50u³
//! instead of the long division's δ_div (it falls back to that one off its main path, and
//! δ_nd ≥ δ_div): ε ≤ ν ⊕ δ_nd ⊕ κ_d/(1 − κ_d) at N = 2 (`atan_table_bound_with`). Two
//! IEEE divisions and a few operations instead of three divisions and three certified
//! renormalisations; the stated bounds at f64 N = 2 rose by about 9u²: atan 35.5 → 44.6u², atan2 42.6 → 51.6u², asin 45.6 → 54.7u², acos 52.7 →
//! 61.7u² (f32 N = 2: 44.5, 51.6, 54.6, 61.7u²).
//!
//! *atan of a reciprocal at N = 2* (`atan_recip_table`, both term types; `functions.cu`
//! `tr_atan_recip_table`): for x > 1 (x = |x|, a finite normalised double-word), 1/x is not
//! formed. ẑ₀ = RN(1/x₀), j = round(K·ẑ₀) (K·ẑ₀ exact), c = j/K; taken when j ≥ 1, x₁ = 0 or
//! |x₁| ≥ 2^−960 (f32 2^−93), and ½ ≤ p ≤ 2 for p = RN(c·x₀) (run-time checks; else the
//! reciprocal is divided as below). With z = 1/x exactly, t = (z − c)/(1 + zc) =
//! (1 − c·x)/(x + c) (both multiplied by x > 0).
//! - *Numerator*: 2ProdFMA gives c·x₀ = p + e and c·x₁ = q + f exactly (c·x₀ ≥ ½(1 − u);
//!   c ≥ 2^−8 and the check on x₁ keep |c·x₁| ≥ 2^{e_min+p+1}, so both error terms are
//!   representable; x₁ = 0 gives q = f = 0), 1 − p is exact (Sterbenz: ½ ≤ p ≤ 2), so
//!   1 − c·x = (1 − p) − e − q − f exactly, four machine numbers rounded once
//!   (`round_sum_list`): ν = ρ₂ relative to the exact numerator (no cancellation loss); zero
//!   means z = c, and the result is the table value.
//! - *Denominator* x + c (add_term, both positive): κ_d = δ_add; then the division (δ_nd).
//! - *Reduction range*: x = x₀(1 + ξ), |ξ| ≤ 2u (ulp-nonoverlapping terms), and
//!   ẑ₀ = (1/x₀)(1 + δ), |δ| ≤ u, so |z − ẑ₀| ≤ 3.01u·z and |z − c| ≤ 1/(2K) + 3.01u·z:
//!   |t̂| ≤ t_b = 1.001/(2K) as before; c/z ≤ j/(j − ½)·(1 + 3.01u) ≤ 2.0001 for j ≥ 1, so
//!   the sum's m ≤ 2.0001 as before.
//!
//! So the table path's A_T holds with ν = ρ₂ and κ_d = δ_add, and π/2 − (Â + B̂) is rounded
//! as in atan_ratio's second branch with no quotient: (A_T' + 2π_err) ⊕ δ_add. The stated
//! atan bound at N = 2 is the larger of this and ratio(0) below (for the arguments the checks
//! send back). One division, one reciprocal and one multiplication
//! fewer: atan f64 N = 2 392 → 262 ns per call with the division above (the same VM, `bench
//! functions`).
//!
//! *Series at f64 N = 2* (`atan_series_dd`; `functions.cu` `tr_atan_series_dd`; replaces the
//! Horner recurrence with R_j above there, f32 N = 2 keeps it; the same scheme gives sin s
//! and cos s of the sine's table reduction, "Table reduction at N = 2" above). A series
//! whose terms fall by a factor ≈ Z per step (Z = t̂² ≤ t_b² ≤ 2^−17.99 here; Z = s² ≤
//! s_b² ≤ 2^−15.99 for sin and cos) needs double-word precision only in its first three
//! coefficients: it is written 1 − Z·P (cos; t̂·(1 − Z·P) for atan and sin) with
//! P = a − Z·I, I = b − Q, Q = Z(c₁ − Z(c₂ − Z·c₃)): atan (a, b, c₁, c₂, c₃) = (1/3, 1/5,
//! 1/7, 1/9, 1/11), sin (1/3!, 1/5!, 1/7!, 1/9!, 1/11!), cos (1/2!, 1/4!, 1/6!, 1/8!,
//! 1/10!): the series through Z⁵, remainder at most the Z⁶ term (alternating, decreasing),
//! relatively τ ≤ Z⁶·d/(1 − Z·a) with d = 1/13, 1/13!, 1/12! (atan: 2^−111.7). Computed
//! (`series_p_dd`, bound `series_dd_bound`):
//! - ẑ = sqr(t̂) = Z(1 + δ_s), δ_s ≤ δ_mul; its leading term z₀ is within σ = u + δ_s
//!   (relative, to first order) of Z.
//! - Q̂ = RN(z₀·RN(fma(−z₀, RN(fma(−z₀, C₃, C₂)), C₁))), C_k = RN(c_k): the inner values are
//!   within 2u·c₂ and 2u·c₁ (absolute; the constant's and the fma's roundings, Z ≪ 1) of
//!   c₂ − Z·c₃ and c₁ − Z·c₂ + Z²c₃, so Q̂ is within (σ + 2u + u)·Q ≤ (4u + 2δ_s)Q, Q ≤ Z·c₁.
//! - Î: (h, e) = Fast2Sum(b₀, −Q̂) (exact: |Q̂| < b₀; (b₀, b₁) the first two greedy terms of
//!   b, within δ_c·b), ℓ = RN(b₁ + e) (|b₁|, |e| ≤ u·b: one rounding ≤ 2.01u²·b),
//!   Î = Fast2Sum(h, ℓ) exactly: |Î − I| ≤ (4u + 2δ_s)Z·c₁ + 2.01u²·b + δ_c·b, relative ε_I
//!   to I ≥ b − Z·c₁.
//! - X = ẑ·Î (mul): ε_X = δ_s ⊕ ε_I ⊕ δ_mul relative to Z·I. P̂ = a_dd − X (`fast2::sub_small`,
//!   the sum of a dominant value and a small correction, α_s(κ) ≈ 3u² for |X| ≤ κ·a,
//!   κ = 1.01·Z·b/a; a_dd within δ_c·a, exact for cos's ½): the exact difference of the
//!   operands is within δ_c·a + Z·b·ε_X of P ≥ a − Z·b; relative to P that, then α_s: η_P.
//! - W = (t̂·ẑ)·P̂ (two muls; cos: ẑ·P̂, one): ε_W = δ_s ⊕ δ_mul ⊕ η_P ⊕ δ_mul (cos:
//!   δ_s ⊕ η_P ⊕ δ_mul) relative to t̂·Z·P (Z·P). The result t̂ − W (`sub_small`, κ = 1.01·Z·a;
//!   cos: 1 − W): the exact difference is t̂(1 − ZP) − t̂ZP·ε_W, relative error
//!   ε_W·Z·a/(1 − Z·a) (atan: ≤ 2^−19.6·ε_W), then α_s.
//!
//! So β_series = (ε_W·Z·a/(1 − Z·a)) ⊕ α_s ⊕ τ (evaluated at the largest Z), about
//! 3u² + 0.02u² for atan: every error before the last subtraction is damped by Z·a or
//! more. (`fast2::add_small`, derived in `fast2.rs`: Fast2Sum of the leading terms, the low
//! terms summed once, a Fast2Sum — about half the dependent operations of the accurate add,
//! whose bound 3u² + 13u³ it matches to within a factor 1 + 2κ.) For atan it replaces η₀ ⊕ δ_mul ⊕ τ in β = θ ⊕ β_series (the Horner recurrence
//! ended in a sum and a product, δ_add ⊕ δ_mul): four double-word products and two sums
//! instead of eight products and three sums; the stated bounds at f64 N = 2 fall from 44.6
//! to 38.7u² (atan), 51.6 → 45.8 (atan2), 54.7 → 48.8 (asin), 61.7 → 55.9 (acos). For sin
//! and cos it replaces the two Horner recurrences' σ_s and σ_c (`sin_cos_table_parts`).

//! `atan_ratio(a, b)` for a, b ≥ 0, b or a non-zero: atan(a/b) if a ≤ b, else
//! π/2 − atan(b/a). The quotient's relative error δ_q (δ_div plus any error of a or b)
//! passes through atan with factor ≤ 1 + 3δ_q (above). In the second branch the subtracted
//! B ≤ π/4 and the result R ≥ max(B, π/4), so B's error contributes ≤ its relative error,
//! the rounding of π/2 at most 2π_err, and the subtraction δ_add:
//! ratio(δ_q) = (A ⊕ δ_q(1 + 3δ_q) + 2π_err) ⊕ δ_add.
//!
//! - atan x: |x| ≤ 1: atan_unit(|x|) (no quotient, error A); |x| > 1:
//!   π/2 − atan_unit(1/|x|) (the reciprocal carries δ_div). Both within ratio(0). (N = 2:
//!   |x| > 1 takes the reciprocal path above where its checks pass.)
//! - atan2(y, x): A' = atan_ratio(|y|, |x|) ∈ [0, π/2]; for x < 0, π − A' ≥ π/2, so A''s
//!   error counts at most once more, π's rounding at most 2π_err: bound
//!   (ratio(0) + 2π_err) ⊕ δ_add.
//! - asin x = sign(x)·atan_ratio(|x|, c), acos x = atan_ratio(c, |x|) (x ≥ 0) or
//!   π − atan_ratio(c, |x|) (x < 0), with c = √((1 − |x|)(1 + |x|)): both factors are
//!   accurate sums (δ_add each, relative to the exact difference, so no cancellation loss
//!   near ±1), their product δ_mul, then the root: γ_c ≤ ½κ(1 + κ) ⊕ δ_sqrt,
//!   κ = δ_add ⊕ δ_add ⊕ δ_mul. The quotient then carries δ_q = δ_div ⊕ γ_c/(1 − γ_c):
//!   asin: ratio(γ_c); acos: (ratio(γ_c) + 2π_err) ⊕ δ_add.
//!
//! # Domain of the stated bounds
//!
//! f64: finite arguments with |x| ≤ [`bounds::max_normal_result`] whose result (and, for
//! atan2, the quotient of the smaller by the larger of |y|, |x|) is zero or at least
//! [`bounds::min_normal_result`]`(N)` in magnitude; for tan also |tan x| ≤
//! 1/min_normal_result(N) (cot x in range: r = x − kπ/2 is then in range). Since |sin x|,
//! |cos x| ≥ 2|r|/π, a result in range keeps r in range. Intermediates: the Taylor and Horner
//! values t_j lie in [0.8, 1]; a subnormal absolute error in a₀² or z² (below
//! 2^12σ per operation, [`crate::bounds`]) reaches them with weight ≤ 1/6, far below
//! 2^−31(2u)^N relative, inside the slack. Arguments below the range of the accurate tier
//! are not claimed.
//!
//! f32: the same for N ≤ 4. For N ≥ 5 an f32 expansion near 1 has terms below 2^−126
//! (subnormal, or cut from the π table): the relative part still holds for the computation
//! but each of the fewer than 2^8 operations may add an absolute error ≤ 2^12σ = 2^−137
//! (amplified at most 4×), and π_N and the series coefficients C_j, R_j (values ≥ 2^−14,
//! terms cut below 2^−126, weight ≤ 1 in fewer than 60 steps) are exact only to about
//! 2^−125 absolutely; the stated bound carries
//! abs = 2^−112 for f32 with N ≥ 5 (a generous cover of 2^−123). For tan = s/c (or −c/s)
//! these absolute errors A of s and c give |Δtan| ≲ A(1 + |tan|)/min(|c|, |s|), so for f32
//! with N ≥ 5 tan is stated only for |tan x| ≤ 2^8, with abs = 2^−95 ≥ 2^17·2^−112. Likewise
//! asin and acos, whose slope 1/√(1 − x²) multiplies the absolute error of 1 − |x|, are
//! stated for f32 with N ≥ 5 only on |x| ≤ 1 − 2^−40 (where the slope is below 2^20) and at
//! ±1; atan2(y, x) for f32 with N ≥ 5 only where max(|y|, |x|) ≥ 2^−20 (the quotient's
//! absolute error is then below 2^−117).
//!
//! Special values (IEEE/C99 as `f64`): sin, tan of ±0 are ±0, cos ±0 = 1; sin, cos, tan of
//! ±∞ and NaN are NaN; atan(±∞) = ±π/2 (π/2 rounded to N terms), atan(±0) = ±0; asin, acos
//! outside [−1, 1] are NaN, asin(±0) = ±0, asin(±1) = ±π/2, acos(1) = +0, acos(−1) = π;
//! atan2 of zeros and infinities as `f64::atan2` (values ±0, ±π/4, ±π/2, ±3π/4, ±π rounded
//! to N terms).

use super::constants::{constant, series_coef, Constant, Series};
use super::fast2;
use super::{Binary, ErrorBound, Unary};
use crate::bounds;
use crate::expansion::Expansion;
use crate::float::FloatTerm;

#[path = "trig_reduce.rs"]
pub(crate) mod trig_reduce;

#[path = "atan_table.rs"]
pub(crate) mod atan_table;

#[path = "sin_table.rs"]
pub(crate) mod sin_table;

use atan_table::{ATAN_INV_ODD_F32, ATAN_INV_ODD_F64, ATAN_TAB_F32, ATAN_TAB_F64, ATAN_TAB_K};

/// First Horner step of the table path's series (N = 2, module doc "atan") that runs at one
/// term.
pub(crate) const ATAN_TAB_ONE_FROM: usize = 3;

/// σ of the table path's staged Horner plan at N ≥ 3 ([`atan_tab_terms`]; module doc,
/// "atan"): an error of step j reaches the result with weight ≤ w^j, w = t_b²/(1 − t_b²)
/// ≤ 2^−17.99.
pub(crate) const ATAN_TAB_SIG: i32 = 17;

/// True when atan takes the table reduction (module doc, "atan"): f64 for N ≥ 2, f32 for
/// N = 2, 3, 4 (f32 N ≥ 5 and N = 1 keep the halvings).
#[inline(always)]
pub(crate) fn atan_table_path<T: FloatTerm>(n: usize) -> bool {
    n >= 2 && (T::PRECISION == 53 || n <= 4)
}

/// M_j, the terms of Horner step j of the table path's series at N ≥ 3 (module doc, "atan"):
/// N − ⌊(jσ − 4)/(p − 1)⌋ clamped to [1, N], σ = [`ATAN_TAB_SIG`] (non-increasing in j).
pub(crate) fn atan_tab_terms<T: FloatTerm>(n: usize, j: usize) -> usize {
    let drop = (j as i32 * ATAN_TAB_SIG - 4).max(0) / (T::PRECISION as i32 - 1);
    (n as i32 - drop).clamp(1, n as i32) as usize
}

/// Bound t_b on |t̂| of the table path: |z − c_j| ≤ 1/(2K) + u·z₀ and 1 + z·c_j ≥ 1, times
/// 1 + ε and the run-time margin (1 + 2^−20)², covered by 1.001.
fn atan_tab_t_bound() -> f64 {
    1.001 / (2 * ATAN_TAB_K) as f64
}

/// Most series steps of the table path at (p, N): the truncation at t_b below τ.
pub(crate) fn atan_tab_steps(p: u32, n: usize) -> usize {
    atan_steps(atan_tab_t_bound(), trunc_target(p, n))
}

/// First Horner step of the sine series that runs at one term at (f64, N = 2)
/// ([`sin_step_one_term`]; module doc, step 3).
pub(crate) const SIN_DD_F64_FROM: usize = 4;

/// True when Horner step j of the sine series at N terms of T runs at one term (plain f64):
/// j ≥ [`SIN_DD_F64_FROM`] at (f64, N = 2).
#[inline]
pub(crate) fn sin_step_one_term<T: FloatTerm>(n: usize, j: usize) -> bool {
    n == 2 && T::PRECISION == 53 && j >= SIN_DD_F64_FROM
}

/// First Horner step of the arctangent series that runs at one term at (f64, N = 2)
/// ([`atan_step_one_term`]; module doc, "atan").
pub(crate) const ATAN_DD_F64_FROM: usize = 8;

/// True when Horner step j of the arctangent series at N terms of T runs at one term
/// (plain f64): j ≥ [`ATAN_DD_F64_FROM`] at (f64, N = 2).
#[inline]
pub(crate) fn atan_step_one_term<T: FloatTerm>(n: usize, j: usize) -> bool {
    n == 2 && T::PRECISION == 53 && j >= ATAN_DD_F64_FROM
}

/// Upper bound of |r| after reduction: π/4·(1 + 2^−20) < R_MAX.
pub(crate) const R_MAX: f64 = 0.785_399;
/// Most triple-angle steps (3^12 < 2^24 is exact in f32).
const K_CAP: usize = 12;
/// Most halvings of atan's argument.
const H_CAP: usize = 12;
/// Final safety factor of every bound (module doc).
const SAFETY: f64 = 1.01;

/// a ⊕ b = (1 + a)(1 + b) − 1.
fn cat(a: f64, b: f64) -> f64 {
    a + b + a * b
}

/// Truncation target τ = 2^{−(pN+4)}.
fn trunc_target(p: u32, n: usize) -> f64 {
    <f64 as FloatTerm>::ldexp(1.0, -((p as i32) * n as i32 + 4))
}

/// Smallest J ≤ 60 with a^{2J+2}/(2J+3)!/(1 − a²/6), the relative truncation of J Horner
/// steps of sin a / a, below τ (with a 1% margin for the f64 evaluation).
fn sin_steps(a: f64, tau: f64) -> usize {
    let a2 = a * a;
    let mut t = a2 / (6.0 * (1.0 - a2 / 6.0));
    for j in 0..60 {
        if t * 1.01 <= tau {
            return j;
        }
        t *= a2 / ((2 * j + 4) * (2 * j + 5)) as f64;
    }
    60
}

/// Smallest J ≤ 60 with z^{2J+2}/(2J+3)/(1 − z²/3), the relative truncation of J Horner
/// steps of atan z / z, below τ (1% margin).
fn atan_steps(z: f64, tau: f64) -> usize {
    let z2 = z * z;
    let mut t = z2 / (3.0 * (1.0 - z2 / 3.0));
    for j in 0..60 {
        if t * 1.01 <= tau {
            return j;
        }
        t *= z2 * (2 * j + 3) as f64 / (2 * j + 5) as f64;
    }
    60
}

/// `steps(a, τ)` ([`sin_steps`] or [`atan_steps`]) capped at `cap`, from thresholds: both
/// compute t_j(a) by rounded operations that are non-decreasing in a ≥ 0 (squares,
/// quotients by a decreasing positive denominator, products of non-negative factors) and
/// non-increasing in j (each step multiplies by a rounded factor ≤ 1), both for 0 ≤ a ≤ 1,
/// so there "t_j(a)·1.01 ≤ τ" holds exactly for a ≤ A_j (A_j the largest such f64, found
/// once by bisection on the bits of a ∈ [0, 1]) and from the first such j on:
/// steps(a).min(cap) = #{j < cap : a > A_j}, the same integer without the per-call loop of
/// divisions. The callers' a (sin: ≤ 0.786; atan: z ≤ 1 times 1 + 2^−19) stay in [0, 1]
/// except atan's z ∈ (1, 1 + 2^−19], where steps(a) ≥ steps(1) ≥ cap (the series at z ≈ 1
/// needs far more than cap steps) and the count is cap as well (debug builds check every
/// call against the loop).
fn steps_by_thresholds(thresholds: &[f64], a: f64) -> usize {
    thresholds.iter().filter(|&&t| a > t).count()
}

/// The thresholds A_j (j < cap) of [`steps_by_thresholds`] for `steps` at τ.
fn step_thresholds(steps: fn(f64, f64) -> usize, tau: f64, cap: usize) -> Vec<f64> {
    (0..cap)
        .map(|j| {
            // Largest a in [0, 1] (as bits) with steps(a) ≤ j; −∞ when none.
            let ok = |b: u64| steps(f64::from_bits(b), tau) <= j;
            if !ok(0) {
                return f64::NEG_INFINITY;
            }
            let (mut lo, mut hi) = (0u64, 1.0f64.to_bits());
            if ok(hi) {
                return 1.0;
            }
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if ok(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            f64::from_bits(lo)
        })
        .collect()
}

/// Cached thresholds of [`sin_steps`] (`atan` false) or [`atan_steps`] (true) at the
/// truncation target of (p, N), for j below the plan's J_max.
fn cached_thresholds(atan: bool, p: u32, n: usize) -> &'static [f64] {
    type Table = [[Vec<f64>; crate::expansion::MAX_TERMS]; 4];
    static CELL: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let t = CELL.get_or_init(|| {
        core::array::from_fn(|i| {
            let p = if i & 1 == 1 { 53 } else { 24 };
            core::array::from_fn(|k| {
                let n = k + 1;
                let tau = trunc_target(p, n);
                if i & 2 == 2 {
                    // The halvings' J_max, or the table path's J_T where larger.
                    let cap = atan_plan(p, n).1.max(atan_tab_steps(p, n));
                    step_thresholds(atan_steps, tau, cap)
                } else {
                    step_thresholds(sin_steps, tau, sin_plan(p, n).1)
                }
            })
        })
    });
    &t[usize::from(p == 53) + if atan { 2 } else { 0 }][n.clamp(1, crate::expansion::MAX_TERMS) - 1]
}

/// 3^k for k ≤ 12 (exact in f64, as `3f64.powi(k)` returns).
const POW3: [f64; 13] = [
    1.0, 3.0, 9.0, 27.0, 81.0, 243.0, 729.0, 2187.0, 6561.0, 19683.0, 59049.0, 177147.0, 531441.0,
];

/// Plans per (term type, N), computed once: index [f32 = 0 / f64 = 1][N − 1].
type Plans = [[(usize, usize); crate::expansion::MAX_TERMS]; 2];

fn plan_table(plan: fn(u32, usize) -> (usize, usize)) -> Plans {
    let mut t = [[(0, 0); crate::expansion::MAX_TERMS]; 2];
    for (i, p) in [24u32, 53].into_iter().enumerate() {
        for n in 1..=crate::expansion::MAX_TERMS {
            t[i][n - 1] = plan(p, n);
        }
    }
    t
}

fn cached(
    cell: &'static std::sync::OnceLock<Plans>,
    plan: fn(u32, usize) -> (usize, usize),
    p: u32,
    n: usize,
) -> (usize, usize) {
    let t = cell.get_or_init(|| plan_table(plan));
    t[usize::from(p == 53)][n.clamp(1, crate::expansion::MAX_TERMS) - 1]
}

/// (k_max, J_max) of sin for (p, N), cached.
pub(crate) fn sin_plan(p: u32, n: usize) -> (usize, usize) {
    static CELL: std::sync::OnceLock<Plans> = std::sync::OnceLock::new();
    cached(&CELL, sin_plan_compute, p, n)
}

/// (h_max, J_max) of atan for (p, N), cached.
pub(crate) fn atan_plan(p: u32, n: usize) -> (usize, usize) {
    static CELL: std::sync::OnceLock<Plans> = std::sync::OnceLock::new();
    cached(&CELL, atan_plan_compute, p, n)
}

/// (k_max, J_max): triple-angle steps and Taylor steps minimising 3k + 3J (cost in
/// accurate operations: sqr, add, mul per tripling; mul, mul, sub per Horner step) for p-bit
/// terms and N terms, among the plans whose truncation reaches τ (J < 60).
fn sin_plan_compute(p: u32, n: usize) -> (usize, usize) {
    let tau = trunc_target(p, n);
    (0..=K_CAP)
        .map(|k| (k, sin_steps(sin_a_bound(k), tau)))
        .filter(|&(_, j)| j < 60)
        .min_by_key(|&(k, j)| 3 * k + 3 * j)
        .unwrap_or((K_CAP, 60))
}

/// a_b = 1.001·R_MAX/3^k: bound on |a₀| with k_max = k.
fn sin_a_bound(k: usize) -> f64 {
    1.001 * R_MAX / 3f64.powi(k as i32)
}

/// z_lim = tan(π/2^{h+2}).
pub(crate) fn atan_z_lim(h: usize) -> f64 {
    (core::f64::consts::PI / (1u64 << (h + 2)) as f64).tan()
}

/// [`atan_z_lim`] of the plan's h_max for (p, N), cached (the same f64 values).
fn cached_atan_z_lim(p: u32, n: usize) -> f64 {
    static CELL: std::sync::OnceLock<[[f64; crate::expansion::MAX_TERMS]; 2]> =
        std::sync::OnceLock::new();
    let t = CELL.get_or_init(|| {
        let mut t = [[0.0; crate::expansion::MAX_TERMS]; 2];
        for (i, p) in [24u32, 53].into_iter().enumerate() {
            for n in 1..=crate::expansion::MAX_TERMS {
                t[i][n - 1] = atan_z_lim(atan_plan(p, n).0);
            }
        }
        t
    });
    t[usize::from(p == 53)][n.clamp(1, crate::expansion::MAX_TERMS) - 1]
}

/// (h_max, J_max) for atan: halvings cost about 12 operations (sqrt and div), series steps 3
/// (mul, mul, sub), among the plans whose truncation reaches τ (J < 60).
fn atan_plan_compute(p: u32, n: usize) -> (usize, usize) {
    let tau = trunc_target(p, n);
    (0..=H_CAP)
        .map(|h| (h, atan_steps(1.002 * atan_z_lim(h), tau)))
        .filter(|&(_, j)| j < 60)
        // N = 1 keeps the earlier weights (5 per step): its results on the special values
        // (atan2 of ±1, ±∞) then round as f64's, which the tests check.
        .min_by_key(|&(h, j)| 12 * h + if n == 1 { 5 } else { 3 } * j)
        .unwrap_or((H_CAP, 60))
}

/// The accurate tier's bounds at (T, N).
struct Ops {
    add: f64,
    mul: f64,
    div: f64,
    sqrt: f64,
    /// relative error of π_N
    pi: f64,
    /// relative error of a series coefficient from the tables, u^N(1 + u)
    coef: f64,
}

fn ops<T: FloatTerm>(n: usize) -> Ops {
    Ops {
        add: bounds::add_rel_bound::<T>(n),
        mul: bounds::mul_rel_bound::<T>(n).max(bounds::mul_term_rel_bound::<T>(n)),
        div: bounds::div_rel_bound::<T>(n),
        sqrt: bounds::sqrt_rel_bound::<T>(n),
        pi: 0.5 * bounds::two_u_pow::<T>(n) * (1.0 + 4.0 * T::UNIT_ROUNDOFF),
        coef: T::UNIT_ROUNDOFF.powi(n as i32) * (1.0 + T::UNIT_ROUNDOFF),
    }
}

/// Rounding bound η₀ of a series' Horner evaluation t_j = 1 − q_j-like product (module doc,
/// step 3): steps j = `j_max` − 1, …, 0 with ratios `q(j)`; `e_step` the relative error the
/// product picks up per step and `add` the subtraction's, or the one-term step's where
/// `one_term(j)`.
fn horner_bound<T: FloatTerm>(
    j_max: usize,
    q: impl Fn(usize) -> f64,
    e_step: f64,
    add: f64,
    one_term: impl Fn(usize) -> bool,
) -> f64 {
    // A one-term step (module doc, step 3): s cut to its leading term (u/(1 − u)), two IEEE
    // products (u each), the coefficient's leading term (u(1 + u)), then 1 − q (u).
    let u = T::UNIT_ROUNDOFF;
    let step1 = cat(cat(u / (1.0 - u), cat(u, u)), u * (1.0 + u));
    let mut eta = 0.0;
    for j in (0..j_max).rev() {
        let (e_j, add_j) = if one_term(j) {
            (step1, u)
        } else {
            (e_step, add)
        };
        let q = q(j);
        let e = cat(eta, e_j);
        eta = cat(q * e / (1.0 - q), add_j);
    }
    eta
}

/// δ_r: relative error of the reduced argument, the larger of the Payne–Hanek and the
/// Cody–Waite paths' (`trig_reduce.rs`).
fn reduction_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let o = ops::<T>(n);
    let p = T::PRECISION;
    let trunc = <f64 as FloatTerm>::ldexp(1.0, 1 - (p as i32) * (n as i32 + 2));
    let fix = trig_reduce::fix_rel_bound(p, n);
    let ph = cat(
        cat(cat(fix, trunc), bounds::round_rel_bound::<T>(n)),
        cat(o.pi, o.mul),
    );
    ph.max(trig_reduce::cw_rel_bound::<T>(n))
}

/// (σ_sin, σ_cos, δ_arg) of the sin/cos kernel at (T, N) (module doc, steps 1–5).
fn sin_cos_parts<T: FloatTerm>(n: usize) -> (f64, f64, f64) {
    let o = ops::<T>(n);
    let (k_max, j_max) = sin_plan(T::PRECISION, n);
    let a = sin_a_bound(k_max);
    let step = cat(cat(o.mul, o.mul), cat(o.mul, o.coef));
    let eta = horner_bound::<T>(
        j_max,
        |j| a * a / ((2 * j + 2) * (2 * j + 3)) as f64,
        step,
        o.add,
        |j| sin_step_one_term::<T>(n, j),
    );
    let mut sigma = cat(cat(eta, o.mul), trunc_target(T::PRECISION, n));
    for i in 0..k_max {
        let s = (a * 3f64.powi(i as i32)).min(1.0);
        let h = 4.0 * s * s / (3.0 - 4.0 * s * s);
        let e = cat(cat(sigma, sigma), o.mul);
        sigma = cat(cat(sigma, h * e), cat(o.add, o.mul));
    }
    let e = cat(cat(sigma, sigma), o.mul);
    let kappa = cat(1.0001 * e, o.add);
    let sigma_c = cat(0.5 * kappa * (1.0 + kappa), o.sqrt);
    let arg = cat(reduction_rel_bound::<T>(n), cat(o.mul, o.coef));
    (sigma, sigma_c, arg)
}

/// A: relative error of `atan_unit` (module doc).
fn atan_unit_bound<T: FloatTerm>(n: usize) -> f64 {
    if atan_table_path::<T>(n) {
        return atan_table_bound::<T>(n);
    }
    let o = ops::<T>(n);
    let (h_max, j_max) = atan_plan(T::PRECISION, n);
    let k1 = cat(0.5 * o.mul, o.add);
    let k2 = cat(0.5 * k1 * (1.0 + k1), o.sqrt);
    let k3 = cat(0.586 * k2, o.add);
    let eps = cat(o.div, k3 / (1.0 - k3));
    let theta = eps * (1.0 + 3.0 * eps);
    let mut total = 0.0;
    for _ in 0..h_max {
        total = cat(total, theta);
    }
    let z = 1.002 * atan_z_lim(h_max);
    let step = cat(cat(o.mul, o.mul), cat(o.mul, o.coef));
    let eta = horner_bound::<T>(
        j_max,
        |j| z * z * (2 * j + 1) as f64 / (2 * j + 3) as f64,
        step,
        o.add,
        |j| atan_step_one_term::<T>(n, j),
    );
    cat(total, cat(cat(eta, o.mul), trunc_target(T::PRECISION, n)))
}

/// A of the table path (module doc, "atan").
fn atan_table_bound<T: FloatTerm>(n: usize) -> f64 {
    let o = ops::<T>(n);
    // t = (z − c)/(1 + z·c): numerator exact at N = 2, within δ_add at N ≥ 3; 1 + z·c with
    // mul_term (δ_mul) of weight zc/(1 + zc) ≤ ½ + 2^−20 (zc ≤ z ≤ 1 + 2^−19) and the
    // addition; then the division.
    let num = if n == 2 { 0.0 } else { o.add };
    let kd = cat((0.5 + 1.0 / (1u64 << 20) as f64) * o.mul, o.add);
    atan_table_bound_with::<T>(n, num, kd)
}

/// The stated bound of atan: ratio(0) (module doc), and at N = 2 also the reciprocal path
/// (module doc, "atan of a reciprocal at N = 2": A_T with ν = ρ₂ and κ_d = δ_add, no
/// quotient, then π/2 − as in ratio).
fn atan_bound<T: FloatTerm>(n: usize) -> f64 {
    let divided = ratio_bound::<T>(n, 0.0);
    if n != 2 {
        return divided;
    }
    let o = ops::<T>(n);
    let recip = atan_table_bound_with::<T>(n, bounds::round_rel_bound::<T>(n), o.add);
    divided.max(cat(recip + 2.0 * o.pi, o.add))
}

/// A_T for a reduced argument t̂ whose numerator carries ν (`num`) and denominator κ_d (`kd`)
/// relative error, before the division (module doc, "atan").
fn atan_table_bound_with<T: FloatTerm>(n: usize, num: f64, kd: f64) -> f64 {
    let o = ops::<T>(n);
    // The division: `div_newton` (δ_nd, which also bounds its fallback) at N = 2.
    let div = if n == 2 {
        fast2::div_newton_rel_bound::<T>().max(o.div)
    } else {
        o.div
    };
    let eps = cat(cat(num, div), kd / (1.0 - kd));
    let theta = eps * (1.0 + 3.0 * eps);
    if atan_fixed_path::<T>(n) {
        // Series, table and sum in fixed point: its own derivation (`atan_fixed.rs`).
        return super::atan_fixed::atan_fixed_bound(n, theta);
    }
    // β: atan(t̂) = atan(t)(1 + θ), then the series: at f64 N = 2 the fixed series' own
    // β_series (module doc, "Series at f64 N = 2"), else η₀, the product t·p₀, truncation τ.
    let beta = if atan_dd_series_path::<T>(n) {
        cat(theta, atan_series_dd_bound())
    } else {
        let tb = atan_tab_t_bound();
        let eta = if n == 2 {
            let step = cat(cat(o.mul, o.mul), cat(o.mul, o.coef));
            horner_bound::<T>(
                atan_tab_steps(T::PRECISION, n),
                |j| tb * tb * (2 * j + 1) as f64 / (2 * j + 3) as f64,
                step,
                o.add,
                |j| j >= ATAN_TAB_ONE_FROM,
            )
        } else {
            atan_tab_series_bound::<T>(n)
        };
        cat(theta, cat(cat(eta, o.mul), trunc_target(T::PRECISION, n)))
    };
    // α: the table's first N terms, u^N(1 + u). Sum: same signs ≤ max(α, β); opposite signs
    // (z < c_j) ≤ m·α + (m − 1)·β with m = atan(c_j)/atan(z) ≤ j/(j − ½)/(1 − u) ≤ 2.0001.
    let alpha = o.coef;
    let m = 2.0001;
    let sum = alpha.max(beta).max(m * alpha + (m - 1.0) * beta);
    cat(sum, o.add)
}

/// η₀ of the table path's staged series at N ≥ 3 (module doc, "atan"), replayed with the
/// plan the code runs ([`atan_tab_terms`]) at J = J_T and s = t_b².
fn atan_tab_series_bound<T: FloatTerm>(n: usize) -> f64 {
    let jt = atan_tab_steps(T::PRECISION, n);
    if jt == 0 {
        return 0.0;
    }
    let u = T::UNIT_ROUNDOFF;
    let tb = atan_tab_t_bound();
    let s = tb * tb;
    let w = s / (1.0 - s);
    let sq = ops::<T>(n).mul;
    // γ_M: the first M greedy terms of 1/(2j+1); the cut of ŝ to M < N terms.
    let gamma = |m: usize| u.powi(m as i32) * (1.0 + u);
    let cut = |m: usize| {
        if m < n {
            1.01 * bounds::two_u_pow::<T>(m)
        } else {
            0.0
        }
    };
    let mut eta = gamma(atan_tab_terms::<T>(n, jt));
    for j in (0..jt).rev() {
        let m = atan_tab_terms::<T>(n, j);
        let om = ops::<T>(m);
        let e = cat(cat(sq, cut(m)), cat(eta, om.mul));
        let g = if j == 0 { 0.0 } else { gamma(m) };
        eta = cat(g / (1.0 - s) + w * e, om.add);
    }
    eta
}

/// ratio(δ_q) of `atan_ratio` (module doc).
fn ratio_bound<T: FloatTerm>(n: usize, extra: f64) -> f64 {
    let o = ops::<T>(n);
    let dq = cat(o.div, extra);
    let branch = cat(atan_unit_bound::<T>(n), dq * (1.0 + 3.0 * dq));
    cat(branch + 2.0 * o.pi, o.add)
}

/// γ_c: relative error of √((1 − |x|)(1 + |x|)).
fn cofactor_bound<T: FloatTerm>(n: usize) -> f64 {
    let o = ops::<T>(n);
    let kappa = cat(cat(o.add, o.add), o.mul);
    cat(0.5 * kappa * (1.0 + kappa), o.sqrt)
}

/// Absolute part: for f32 with N ≥ 5, 2^−112, and 2^−95 for tan (module doc, domain);
/// else 0.
fn abs_part<T: FloatTerm>(f: Unary, n: usize) -> f64 {
    if T::PRECISION < 53 && n >= 5 {
        <f64 as FloatTerm>::ldexp(1.0, if f == Unary::Tan { -95 } else { -112 })
    } else {
        0.0
    }
}

/// The double-word division of atan's table path at N = 2 (`fast2::div_newton`, not the
/// accurate tier's long division), exposed for the oracle tests: (n₀, n₁)/(d₀, d₁) and its
/// stated relative bound 13u² + 50u³ (derivation in `fast2.rs`).
#[doc(hidden)]
pub fn div_newton_pair<T: FloatTerm>(n: [T; 2], d: [T; 2]) -> ([T; 2], f64) {
    let q = fast2::div_newton(
        &Expansion::<T, 2>::from_normalized(n),
        &Expansion::from_normalized(d),
    );
    let t = q.terms();
    ([t[0], t[1]], fast2::div_newton_rel_bound::<T>())
}

/// The stated error bound of `f` at `n` terms of `T` (derivation and domain in the module
/// doc): |ŷ − y| ≤ rel·|y| + abs.
pub fn error_bound<T: FloatTerm>(f: Unary, n: usize) -> ErrorBound {
    let o = ops::<T>(n);
    let rel = match f {
        Unary::Sin | Unary::Cos | Unary::Tan
            if sin_table::sin_table_path(n) || sin_fixed_path::<T>(n) =>
        {
            // Table reduction (module doc) or the fixed-point path (`sin_fixed.rs`): r̂
            // carries δ_r only (no scaling by 3^−k).
            let (s, c) = if sin_fixed_path::<T>(n) {
                super::sin_fixed::sin_cos_fixed_parts(n)
            } else {
                sin_table::sin_cos_table_parts::<T>(n)
            };
            let arg = reduction_rel_bound::<T>(n);
            if f == Unary::Tan {
                cat(
                    cat(cat(s, c / (1.0 - c)).max(cat(c, s / (1.0 - s))), o.div),
                    1.571 * arg * (1.0 + 2.0 * arg),
                )
            } else {
                cat(s, arg * (1.0 + 2.0 * arg)).max(cat(c, 0.79 * arg))
            }
        }
        Unary::Sin | Unary::Cos => {
            let (s, c, arg) = sin_cos_parts::<T>(n);
            cat(s, arg * (1.0 + 2.0 * arg)).max(cat(c, 0.79 * arg))
        }
        Unary::Tan => {
            let (s, c, arg) = sin_cos_parts::<T>(n);
            cat(
                cat(cat(s, c / (1.0 - c)), o.div),
                1.571 * arg * (1.0 + 2.0 * arg),
            )
        }
        Unary::Atan => atan_bound::<T>(n),
        Unary::Asin => {
            let g = cofactor_bound::<T>(n);
            ratio_bound::<T>(n, g / (1.0 - g))
        }
        Unary::Acos => {
            let g = cofactor_bound::<T>(n);
            cat(ratio_bound::<T>(n, g / (1.0 - g)) + 2.0 * o.pi, o.add)
        }
        _ => f64::INFINITY,
    };
    ErrorBound {
        rel: rel * SAFETY * bounds::SLACK,
        abs: abs_part::<T>(f, n),
    }
}

/// The stated error bound of atan2 at `n` terms of `T` (module doc).
pub fn error_bound_binary<T: FloatTerm>(f: Binary, n: usize) -> ErrorBound {
    match f {
        Binary::Atan2 => {
            let o = ops::<T>(n);
            let rel = cat(ratio_bound::<T>(n, 0.0) + 2.0 * o.pi, o.add);
            ErrorBound {
                rel: rel * SAFETY * bounds::SLACK,
                abs: abs_part::<T>(Unary::Atan, n),
            }
        }
        _ => ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        },
    }
}

fn nan<T: FloatTerm, const N: usize>() -> Expansion<T, N> {
    Expansion::from_term(T::from_f64(f64::NAN))
}

fn pi<T: FloatTerm, const N: usize>() -> Expansion<T, N> {
    constant(Constant::Pi)
}

/// One Horner step t ← 1 − (s·t)·c of the sine and arctangent series (s = a² or z², c the
/// step's coefficient; module doc, step 3 and "atan"): with the accurate operations, or where
/// `one_term`, 1 − (s₀·t₀)·c₀ in IEEE arithmetic (the result one term).
#[inline(always)]
fn series_step<T: FloatTerm, const N: usize>(
    s: &Expansion<T, N>,
    t: &Expansion<T, N>,
    c: &Expansion<T, N>,
    one_term: bool,
) -> Expansion<T, N> {
    if one_term {
        let mut v = [T::ZERO; N];
        v[0] = T::ONE - (s.hi() * t.hi()) * c.hi();
        return Expansion::from_normalized(v);
    }
    fast2::one_minus(&fast2::mul(&fast2::mul(s, t), c))
}

/// sin r for |r| ≤ R_MAX (module doc, steps 2–4).
fn sin_kernel<T: FloatTerm, const N: usize>(r: &Expansion<T, N>) -> Expansion<T, N> {
    let one = Expansion::<T, N>::one();
    let (k, j) = sin_kernel_plan(r);
    let a = if k > 0 {
        // ·3^{−k} from the table: a multiplication instead of a long division.
        fast2::mul(r, &series_coef::<T, N>(Series::InvPow3, k))
    } else {
        *r
    };
    let a2 = fast2::sqr(&a);
    let mut t = one;
    for i in (0..j).rev() {
        // ·1/((2i+2)(2i+3)) from the table: a multiplication instead of a long division.
        let c = series_coef::<T, N>(Series::SinDenInv, i);
        t = series_step(&a2, &t, &c, sin_step_one_term::<T>(N, i));
    }
    let mut s = fast2::mul(&a, &t);
    let three = T::from_f64(3.0);
    for _ in 0..k {
        let w = fast2::add_dominant_term(&fast2::sqr(&s).ldexp(2).neg(), three);
        s = fast2::mul(&s, &w);
    }
    s
}

/// The run-time plan of [`sin_kernel`] for r (module doc, steps 2–3): (k, J), the number
/// of triple-angle steps and of Horner steps.
pub(crate) fn sin_kernel_plan<T: FloatTerm, const N: usize>(r: &Expansion<T, N>) -> (usize, usize) {
    let (k_max, j_max) = sin_plan(T::PRECISION, N);
    let a_lim = R_MAX / POW3[k_max.min(K_CAP)];
    let margin = 1.0 + 1.0 / (1u64 << 20) as f64;
    let r0 = r.hi().to_f64().abs() * margin;
    let mut k = 0;
    let mut scale = 1.0f64;
    while k < k_max && r0 / scale > a_lim {
        k += 1;
        scale *= 3.0;
    }
    let a_est = r0 / scale * margin;
    let j = steps_by_thresholds(cached_thresholds(false, T::PRECISION, N), a_est);
    debug_assert_eq!(
        j,
        sin_steps(a_est, trunc_target(T::PRECISION, N)).min(j_max)
    );
    (k, j)
}

/// cos r = √(1 − sin² r) from the kernel's sin r (module doc, step 5).
fn cos_from_sin<T: FloatTerm, const N: usize>(s: &Expansion<T, N>) -> Expansion<T, N> {
    fast2::sqrt(&fast2::one_minus(&fast2::sqr(s)))
}

/// atan(j/K) from the table, the first N terms (N ≥ 2).
fn atan_tab<T: FloatTerm, const N: usize>(j: usize) -> Expansion<T, N> {
    let mut v = [T::ZERO; N];
    for (k, t) in v.iter_mut().enumerate() {
        *t = super::constants::term_from_bits(ATAN_TAB_F64[j][k], ATAN_TAB_F32[j][k]);
    }
    Expansion::from_normalized(v)
}

/// 1/(2j+1) from the table, the first M terms.
#[inline(always)]
fn atan_inv_odd<T: FloatTerm, const M: usize>(j: usize) -> Expansion<T, M> {
    let mut v = [T::ZERO; M];
    for (k, t) in v.iter_mut().enumerate() {
        *t = super::constants::term_from_bits(ATAN_INV_ODD_F64[j][k], ATAN_INV_ODD_F32[j][k]);
    }
    Expansion::from_normalized(v)
}

/// Horner steps p ← c_j − s·p for j = `hi`, …, `lo` (descending; c_j = 1/(2j+1) to M terms)
/// at M terms, on padded term arrays: p's terms beyond M are zeros, s is cut to its first M
/// terms (renormalised by an exact Fast2Sum at M = 2, as exp's `horner_stage`).
#[inline(never)]
fn atan_tab_stage<T: FloatTerm, const M: usize>(
    p: &mut [T; crate::expansion::MAX_TERMS],
    s: &[T; crate::expansion::MAX_TERMS],
    lo: usize,
    hi: usize,
) {
    let mut st = [T::ZERO; M];
    st.copy_from_slice(&s[..M]);
    if M == 2 {
        let (h, l) = crate::eft::fast_two_sum(st[0], st[1]);
        st[0] = h;
        st[1] = l;
    }
    let sm = Expansion::<T, M>::from_normalized(st);
    let mut pt = [T::ZERO; M];
    pt.copy_from_slice(&p[..M]);
    let mut pm = Expansion::<T, M>::from_normalized(pt);
    for j in (lo..=hi).rev() {
        pm = fast2::sub(&atan_inv_odd::<T, M>(j), &fast2::mul(&sm, &pm));
    }
    p[..M].copy_from_slice(pm.terms());
}

/// atan t / t to the first `steps` + 1 terms of its series at N ≥ 3 (module doc, "atan"):
/// p_J = c_J, p_j = c_j − t²·p_{j+1} with step j at M_j = [`atan_tab_terms`] terms, and
/// p₀ = 1 − t²·p₁ at N terms.
fn atan_tab_series<T: FloatTerm, const N: usize>(
    t2: &Expansion<T, N>,
    steps: usize,
) -> Expansion<T, N> {
    if steps == 0 {
        return Expansion::one();
    }
    use crate::expansion::MAX_TERMS;
    let mut sa = [T::ZERO; MAX_TERMS];
    sa[..N].copy_from_slice(t2.terms());
    let mut pa = [T::ZERO; MAX_TERMS];
    let m_top = atan_tab_terms::<T>(N, steps);
    for (k, t) in pa.iter_mut().enumerate().take(m_top) {
        *t = super::constants::term_from_bits(
            ATAN_INV_ODD_F64[steps][k],
            ATAN_INV_ODD_F32[steps][k],
        );
    }
    // Steps j = steps − 1, …, 1, grouped by M_j.
    let mut hi = steps - 1;
    while hi >= 1 {
        let m = atan_tab_terms::<T>(N, hi);
        let mut lo = hi;
        while lo > 1 && atan_tab_terms::<T>(N, lo - 1) == m {
            lo -= 1;
        }
        match m {
            1 => atan_tab_stage::<T, 1>(&mut pa, &sa, lo, hi),
            2 => atan_tab_stage::<T, 2>(&mut pa, &sa, lo, hi),
            3 => atan_tab_stage::<T, 3>(&mut pa, &sa, lo, hi),
            4 => atan_tab_stage::<T, 4>(&mut pa, &sa, lo, hi),
            5 => atan_tab_stage::<T, 5>(&mut pa, &sa, lo, hi),
            6 => atan_tab_stage::<T, 6>(&mut pa, &sa, lo, hi),
            7 => atan_tab_stage::<T, 7>(&mut pa, &sa, lo, hi),
            _ => atan_tab_stage::<T, 8>(&mut pa, &sa, lo, hi),
        }
        hi = lo - 1;
    }
    let mut pt = [T::ZERO; N];
    pt.copy_from_slice(&pa[..N]);
    let p1 = Expansion::<T, N>::from_normalized(pt);
    fast2::one_minus(&fast2::mul(t2, &p1))
}

/// atan z for 0 < z ≤ 1 (times 1 + 2^−19) by the table reduction (module doc, "atan"): f64
/// N ≥ 2, f32 N = 2..4.
fn atan_unit_table<T: FloatTerm, const N: usize>(z: &Expansion<T, N>) -> Expansion<T, N> {
    let z0 = z.hi();
    let k = ATAN_TAB_K as f64;
    // Nearest c_j = j/K to z₀ (z₀·K exact; half away from zero, as CUDA's round).
    let j = ((z0.to_f64() * k).round() as usize).min(ATAN_TAB_K);
    let t = if j == 0 {
        *z
    } else {
        let c = T::from_f64(j as f64 / k);
        let num = if N == 2 {
            // z₀ − c is exact (Sterbenz: c/2 ≤ z₀ ≤ 2c), the 2Sum with z₁ too: z − c exactly.
            let (s, e) = crate::eft::two_sum(z0 - c, z.terms()[1]);
            if s == T::ZERO {
                return atan_tab(j);
            }
            let mut v = [T::ZERO; N];
            v[0] = s;
            v[1] = e;
            Expansion::from_normalized(v)
        } else {
            // N ≥ 3: z − c by the accurate add (δ_add relative to the exact difference).
            let num = fast2::add_term(z, -c);
            if num.is_zero() {
                return atan_tab(j);
            }
            num
        };
        let d = fast2::add_dominant_term(&z.mul_term(c), T::ONE);
        fast2::div_newton(&num, &d)
    };
    atan_table_finish(&t, j)
}

/// atan c_j + atan t̂ from the reduced argument t̂ of the table path (module doc, "atan": the
/// series, the table value and the sum; j = 0: the series alone).
fn atan_table_finish<T: FloatTerm, const N: usize>(
    t: &Expansion<T, N>,
    j: usize,
) -> Expansion<T, N> {
    let t = *t;
    if atan_fixed_path::<T>(N) {
        // f64 N ≥ 3: series, table and sum in fixed point (`atan_fixed.rs`).
        let mut tt = [0.0f64; N];
        for (o, v) in tt.iter_mut().zip(t.terms()) {
            *o = v.to_f64();
        }
        if let Some(y) = super::atan_fixed::atan_finish_terms(&tt, j) {
            let mut out = [T::ZERO; N];
            for (o, v) in out.iter_mut().zip(&y) {
                *o = T::from_f64(*v);
            }
            return Expansion::from_normalized(out);
        }
        debug_assert!(false, "atan: |t| above the fixed-point path's bound");
    }
    if atan_dd_series_path::<T>(N) {
        // f64 N = 2: the fixed series t − (t·s)·(1/3 − s·(1/5 − Q)) (module doc, "Series at
        // f64 N = 2").
        let b = atan_series_dd(&t);
        return if j == 0 {
            b
        } else {
            fast2::add(&atan_tab(j), &b)
        };
    }
    let margin = 1.0 + 1.0 / (1u64 << 20) as f64;
    let t_est = t.hi().to_f64().abs() * margin * margin;
    let j_max = atan_tab_steps(T::PRECISION, N);
    let steps = steps_by_thresholds(cached_thresholds(true, T::PRECISION, N), t_est).min(j_max);
    debug_assert_eq!(
        steps,
        atan_steps(t_est, trunc_target(T::PRECISION, N)).min(j_max)
    );
    let t2 = fast2::sqr(&t);
    let h = if N == 2 {
        let mut h = Expansion::<T, N>::one();
        for i in (0..steps).rev() {
            let c = series_coef::<T, N>(Series::AtanRatio, i);
            h = series_step(&t2, &h, &c, i >= ATAN_TAB_ONE_FROM);
        }
        h
    } else {
        atan_tab_series(&t2, steps)
    };
    let b = fast2::mul(&t, &h);
    if j == 0 {
        b
    } else {
        fast2::add(&atan_tab(j), &b)
    }
}

/// Whether the table path's series of (T, N) is [`atan_series_dd`]: f64 N = 2.
pub(crate) fn atan_dd_series_path<T: FloatTerm>(n: usize) -> bool {
    T::PRECISION == 53 && n == 2
}

/// P = a − z·(b − Q), Q = z₀(c₁ − z₀(c₂ − z₀c₃)) at f64 N = 2, the shared core of the fixed
/// series of atan, sin and cos (module doc, "Series at f64 N = 2"): Q in IEEE arithmetic
/// (z₀ the leading term of z), b − Q by two exact Fast2Sums around one rounding (|Q| < b₀),
/// then one double-word product and sum. `c` = (c₁, c₂, c₃) as f64 (rounded to nearest).
#[inline(always)]
pub(crate) fn series_p_dd<T: FloatTerm, const N: usize>(
    z: &Expansion<T, N>,
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    c: [f64; 3],
) -> Expansion<T, N> {
    let z0 = z.hi();
    let inner = (-z0).mul_add(T::from_f64(c[2]), T::from_f64(c[1]));
    let q = z0 * (-z0).mul_add(inner, T::from_f64(c[0]));
    let (h, e) = crate::eft::fast_two_sum(b.terms()[0], -q);
    let (ih, il) = crate::eft::fast_two_sum(h, b.terms()[1] + e);
    let mut iv = [T::ZERO; N];
    iv[0] = ih;
    iv[1] = il;
    let i = Expansion::<T, N>::from_normalized(iv);
    fast2::sub_small(a, &fast2::mul(z, &i))
}

/// Relative error of a fixed series of [`series_p_dd`] at f64 N = 2 (module doc, "Series at
/// f64 N = 2"), for Z ≤ `z_max` (the exact square of the reduced argument): `a`, `b`, `c1`
/// the values of the coefficients a, b, c₁; `a_exact` when a is exact (cos: ½); `odd`: the
/// result is t − (t·ẑ)·P̂ (atan, sin), else 1 − ẑ·P̂ (cos); `next` the coefficient of the
/// first omitted term Z⁶ of the series (relative to its value; alternating, decreasing).
pub(crate) fn series_dd_bound(
    z_max: f64,
    (a, b, c1): (f64, f64, f64),
    a_exact: bool,
    odd: bool,
    next: f64,
) -> f64 {
    let o = ops::<f64>(2);
    let u = f64::EPSILON / 2.0;
    let z = z_max;
    // ẑ = Z(1 + δ_s); z₀ within u(1 + δ_s) + δ_s of Z.
    let ds = o.mul;
    // Q̂ within (4u + 2δ_s)·Q, Q ≤ Z·c₁; the rounding of ℓ (|ℓ| ≤ 2u·b) ≤ 2.01u²·b; b_dd
    // within δ_c·b; I ≥ b − Z·c₁.
    let q_abs = (4.0 * u + 2.0 * ds) * 1.0001 * z * c1;
    let i_abs = q_abs + 2.01 * u * u * b + o.coef * b;
    let eps_i = i_abs / (b - z * c1);
    // X = ẑ·Î; P̂ = a_dd − X with P ≥ a − Z·b.
    let eps_x = cat(cat(ds, eps_i), o.mul);
    let a_err = if a_exact { 0.0 } else { o.coef * a };
    // The two subtractions are `fast2::sub_small` with ratios |X|/a and |W|/|t̂| (1 − W: /1).
    let small = |kappa: f64| fast2::add_small_rel_bound::<f64>(kappa);
    let eta_p = cat(
        (a_err + z * b * eps_x) / (a - z * b),
        small(z * b * 1.01 / a),
    );
    // W = (t̂·ẑ)·P̂ (odd) or ẑ·P̂ (even), relative to its exact value; its weight in the final
    // difference ≤ Z·a/(1 − Z·a).
    let eps_w = if odd {
        cat(cat(cat(ds, o.mul), eta_p), o.mul)
    } else {
        cat(cat(ds, eta_p), o.mul)
    };
    let weight = z * a / (1.0 - z * a);
    let tau = z.powi(6) * next / (1.0 - z * a);
    cat(cat(weight * eps_w, small(z * a * 1.01)), tau)
}

/// atan t̂ for |t̂| ≤ t_b at f64 N = 2 (module doc, "Series at f64 N = 2"): s = t̂²,
/// P = 1/3 − s·(1/5 − s₀(1/7 − s₀(1/9 − s₀/11))) ([`series_p_dd`]), result t̂ − (t̂·s)·P:
/// four double-word products and two sums instead of the Horner recurrence's eight products
/// and three sums.
fn atan_series_dd<T: FloatTerm, const N: usize>(t: &Expansion<T, N>) -> Expansion<T, N> {
    let s = fast2::sqr(t);
    let p = series_p_dd(
        &s,
        &atan_inv_odd::<T, N>(1),
        &atan_inv_odd::<T, N>(2),
        [1.0 / 7.0, 1.0 / 9.0, 1.0 / 11.0],
    );
    let w = fast2::mul(&fast2::mul(t, &s), &p);
    fast2::sub_small(t, &w)
}

/// β_series of [`atan_series_dd`] (module doc, "Series at f64 N = 2"): the relative error of
/// the computed atan t̂ against the exact atan t̂, truncation included.
fn atan_series_dd_bound() -> f64 {
    let tb = atan_tab_t_bound();
    series_dd_bound(
        tb * tb,
        (1.0 / 3.0, 1.0 / 5.0, 1.0 / 7.0),
        false,
        true,
        1.0 / 13.0,
    )
}

/// Below this |x₁| the reciprocal path [`atan_recip_table`] is not taken (f64 2^−960, f32
/// 2^−93): above it, with c ≥ 2^−8, the product c·x₁ is at least 2^{e_min + p + 1}, so its
/// 2ProdFMA error term is exact (module doc, "atan of a reciprocal at N = 2").
fn atan_recip_tiny<T: FloatTerm>() -> f64 {
    <f64 as FloatTerm>::ldexp(1.0, if T::PRECISION == 53 { -960 } else { -93 })
}

/// atan(1/x) for x > 1 at N = 2 by the table reduction without the reciprocal (module doc,
/// "atan of a reciprocal at N = 2"): j = round(K·RN(1/x₀)), c = j/K, t = (1 − c·x)/(x + c)
/// = (1/x − c)/(1 + c/x), the numerator the exact sum of 1 − RN(c·x₀) (Sterbenz) and the
/// 2ProdFMA errors rounded once, then [`atan_table_finish`]. `None` (the caller divides)
/// where j = 0, RN(c·x₀) ∉ [½, 2] or 0 < |x₁| below [`atan_recip_tiny`].
fn atan_recip_table<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Option<Expansion<T, N>> {
    let (x0, x1) = (x.terms()[0], x.terms()[1]);
    let k = ATAN_TAB_K as f64;
    let z0 = T::ONE / x0;
    let j = ((z0.to_f64() * k).round() as usize).min(ATAN_TAB_K);
    if j == 0 || !(x1 == T::ZERO || x1.abs().to_f64() >= atan_recip_tiny::<T>()) {
        return None;
    }
    let c = T::from_f64(j as f64 / k);
    let (p, e) = crate::eft::two_prod(c, x0);
    if !(p.to_f64() >= 0.5 && p.to_f64() <= 2.0) {
        return None;
    }
    // 1 − p is exact (Sterbenz), c·x₁ = q + f exactly: 1 − c·x = a − e − q − f.
    let a = T::ONE - p;
    let (q, f) = crate::eft::two_prod(c, x1);
    let num = fast2::round_sum_list::<T, N, 4>([a, -e, -q, -f]);
    if num.is_zero() {
        return Some(atan_tab(j));
    }
    let d = fast2::add_term(x, c);
    Some(atan_table_finish(&fast2::div_newton(&num, &d), j))
}

/// atan z for 0 ≤ z ≤ 1 (module doc).
fn atan_unit<T: FloatTerm, const N: usize>(z: &Expansion<T, N>) -> Expansion<T, N> {
    if z.is_zero() {
        return Expansion::zero();
    }
    if atan_table_path::<T>(N) {
        return atan_unit_table(z);
    }
    let one = T::ONE;
    let (h_max, j_max) = atan_plan(T::PRECISION, N);
    let z_lim = cached_atan_z_lim(T::PRECISION, N);
    let margin = 1.0 + 1.0 / (1u64 << 20) as f64;
    let mut z = *z;
    let mut h = 0;
    while h < h_max && z.hi().to_f64() * margin > z_lim {
        let d = fast2::add_term(
            &fast2::sqrt(&fast2::add_dominant_term(&fast2::sqr(&z), one)),
            one,
        );
        z = fast2::div(&z, &d);
        h += 1;
    }
    let z_est = z.hi().to_f64() * margin * margin;
    let j = steps_by_thresholds(cached_thresholds(true, T::PRECISION, N), z_est).min(j_max);
    debug_assert_eq!(
        j,
        atan_steps(z_est, trunc_target(T::PRECISION, N)).min(j_max)
    );
    let z2 = fast2::sqr(&z);
    let mut t = Expansion::<T, N>::one();
    for i in (0..j).rev() {
        // ·(2i+1)/(2i+3) from the table: one multiplication instead of mul_term and div.
        let c = series_coef::<T, N>(Series::AtanRatio, i);
        t = series_step(&z2, &t, &c, atan_step_one_term::<T>(N, i));
    }
    fast2::mul(&z, &t).ldexp(h as i32)
}

/// atan(a/b) for a, b ≥ 0 finite, not both zero (module doc).
fn atan_ratio<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
) -> Expansion<T, N> {
    if a.cmp_value(b) != Some(core::cmp::Ordering::Greater) {
        atan_unit(&fast2::div(a, b))
    } else {
        fast2::sub(&pi::<T, N>().ldexp(-1), &atan_unit(&fast2::div(b, a)))
    }
}

/// The value of an expansion as f64 with non-finite lower terms visible.
fn lead<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> f64 {
    if x.is_finite() {
        x.hi().to_f64()
    } else {
        x.terms().iter().fold(0.0, |a, t| a + t.to_f64())
    }
}

/// √((1 − |x|)(1 + |x|)) for |x| ≤ 1.
fn cofactor<T: FloatTerm, const N: usize>(ax: &Expansion<T, N>) -> Expansion<T, N> {
    Expansion::one().sub(ax).mul(&ax.add_term(T::ONE)).sqrt()
}

/// sin x, cos x or tan x from the quadrant k of x = kπ/2 + r and s = sin r (module doc,
/// steps 5 and 7).
pub(crate) fn quadrant<T: FloatTerm, const N: usize>(
    f: Unary,
    k: u32,
    s: &Expansion<T, N>,
) -> Expansion<T, N> {
    let s = *s;
    // cos r only where the quadrant needs it (same values as computing both).
    match (f, k) {
        (Unary::Sin, 0) | (Unary::Cos, 3) => s,
        (Unary::Sin, 1) | (Unary::Cos, 0) => cos_from_sin(&s),
        (Unary::Sin, 2) | (Unary::Cos, 1) => s.neg(),
        (Unary::Sin, _) | (Unary::Cos, _) => cos_from_sin(&s).neg(),
        (_, 0) | (_, 2) => s.div(&cos_from_sin(&s)),
        _ => cos_from_sin(&s).div(&s).neg(),
    }
}

/// Whether atan's table path ends in fixed point (`atan_fixed.rs`): f64 N ≥ 3.
pub(crate) fn atan_fixed_path<T: FloatTerm>(n: usize) -> bool {
    T::PRECISION == 53 && n >= 3
}

/// Whether sin, cos and tan of (T, N) take the fixed-point path (`sin_fixed.rs`): f64 N ≥ 3.
pub(crate) fn sin_fixed_path<T: FloatTerm>(n: usize) -> bool {
    T::PRECISION == 53 && n >= 3
}

/// sin x, cos x or tan x at f64 N ≥ 3 from the quadrant k and the reduced r (step 7), with
/// sin r and cos r (those the quadrant needs) from the fixed-point module
/// ([`super::sin_fixed`], which derives their bounds).
fn quadrant_fixed<T: FloatTerm, const N: usize>(
    f: Unary,
    k: u32,
    r: &Expansion<T, N>,
) -> Expansion<T, N> {
    let (want_sin, want_cos) = match (f, k & 1) {
        (Unary::Sin, 0) | (Unary::Cos, 1) => (true, false),
        (Unary::Sin, _) | (Unary::Cos, _) => (false, true),
        _ => (true, true),
    };
    let mut rt = [0.0f64; N];
    for (o, t) in rt.iter_mut().zip(r.terms()) {
        *o = t.to_f64();
    }
    let (st, ct) = super::sin_fixed::sin_cos_terms(&rt, want_sin, want_cos);
    let expansion = |t: &[f64; 8]| {
        let mut out = [T::ZERO; N];
        for (o, v) in out.iter_mut().zip(t) {
            *o = T::from_f64(*v);
        }
        Expansion::from_normalized(out)
    };
    let (s, c) = (expansion(&st), expansion(&ct));
    match (f, k) {
        (Unary::Sin, 0) | (Unary::Cos, 3) => s,
        (Unary::Sin, 1) | (Unary::Cos, 0) => c,
        (Unary::Sin, 2) | (Unary::Cos, 1) => s.neg(),
        (Unary::Sin, _) | (Unary::Cos, _) => c.neg(),
        (_, 0) | (_, 2) => s.div(&c),
        _ => c.div(&s).neg(),
    }
}

/// The special arguments of sin, cos and tan (NaN, ±∞, ±0) and their results; `None` for
/// the regular path (reduction, kernel, quadrant).
pub(crate) fn sin_cos_special<T: FloatTerm, const N: usize>(
    f: Unary,
    x: &Expansion<T, N>,
) -> Option<Expansion<T, N>> {
    let v = lead(x);
    if !v.is_finite() {
        return Some(nan());
    }
    if x.is_zero() {
        return Some(if f == Unary::Cos {
            Expansion::one()
        } else {
            *x
        });
    }
    None
}

pub(crate) fn eval<T: FloatTerm, const N: usize>(f: Unary, x: &Expansion<T, N>) -> Expansion<T, N> {
    let v = lead(x);
    if v.is_nan() {
        return nan();
    }
    let negative = v < 0.0;
    let sign = |y: Expansion<T, N>| if negative { y.neg() } else { y };
    match f {
        Unary::Sin | Unary::Cos | Unary::Tan => {
            if let Some(y) = sin_cos_special(f, x) {
                return y;
            }
            let (k, r) = trig_reduce::reduce(x);
            // f64 N ≥ 3: fixed-point series and table (an inline const: not instantiated
            // elsewhere).
            if const { N >= 3 && T::PRECISION == 53 } {
                return quadrant_fixed(f, k, &r);
            }
            if sin_table::sin_table_path(N) {
                return sin_table::quadrant_table(f, k, &r);
            }
            quadrant(f, k, &sin_kernel(&r))
        }
        Unary::Atan => {
            if x.is_zero() {
                return *x;
            }
            if v.is_infinite() {
                return sign(pi::<T, N>().ldexp(-1));
            }
            let ax = x.abs();
            let one = Expansion::<T, N>::one();
            if ax.cmp_value(&one) != Some(core::cmp::Ordering::Greater) {
                sign(atan_unit(&ax))
            } else {
                if N == 2 {
                    if let Some(a) = atan_recip_table(&ax) {
                        return sign(fast2::sub(&pi::<T, N>().ldexp(-1), &a));
                    }
                }
                sign(fast2::sub(
                    &pi::<T, N>().ldexp(-1),
                    &atan_unit(&fast2::div(&one, &ax)),
                ))
            }
        }
        Unary::Asin | Unary::Acos => {
            if !v.is_finite() {
                return nan();
            }
            let ax = x.abs();
            if ax.cmp_value(&Expansion::one()) == Some(core::cmp::Ordering::Greater) {
                return nan();
            }
            if f == Unary::Asin {
                if x.is_zero() {
                    return *x;
                }
                sign(atan_ratio(&ax, &cofactor(&ax)))
            } else {
                let a = atan_ratio(&cofactor(&ax), &ax);
                if negative {
                    pi::<T, N>().sub(&a)
                } else {
                    a
                }
            }
        }
        _ => nan(),
    }
}

/// IEEE atan2(y, x) where y or x is ±0 or ±∞ (neither NaN), as (m, negative) with the result
/// ±m·π/4 (C99 F.9.1.4): the cases written out rather than a libm call, so that the GPU port
/// repeats them exactly.
fn atan2_special(vy: f64, vx: f64) -> (i32, bool) {
    let m = if vy == 0.0 {
        // ±0 for x = +0, x > 0 (+∞ included); ±π for x = −0, x < 0.
        if vx.is_sign_negative() {
            4
        } else {
            0
        }
    } else if vy.is_infinite() {
        if vx == f64::INFINITY {
            1
        } else if vx == f64::NEG_INFINITY {
            3
        } else {
            2
        }
    } else if vx == 0.0 {
        2
    } else if vx == f64::INFINITY {
        0
    } else {
        4
    };
    (m, vy.is_sign_negative())
}

/// atan2(y, x) (first argument y, as `f64::atan2`).
pub(crate) fn eval_binary<T: FloatTerm, const N: usize>(
    f: Binary,
    y: &Expansion<T, N>,
    x: &Expansion<T, N>,
) -> Expansion<T, N> {
    if f != Binary::Atan2 {
        return nan();
    }
    let (vy, vx) = (lead(y), lead(x));
    if vy.is_nan() || vx.is_nan() {
        return nan();
    }
    if vy == 0.0 || vx == 0.0 || vy.is_infinite() || vx.is_infinite() {
        // The IEEE result is 0 or m·π/4 (m = 1..4), with the sign of y.
        let (m, negative) = atan2_special(vy, vx);
        if m == 0 {
            return Expansion::from_term(T::from_f64(if negative { -0.0 } else { 0.0 }));
        }
        let p = pi::<T, N>();
        let res = match m {
            1 => p.ldexp(-2),
            2 => p.ldexp(-1),
            3 => p.sub(&p.ldexp(-2)),
            _ => p,
        };
        return if negative { res.neg() } else { res };
    }
    let a = atan_ratio(&y.abs(), &x.abs());
    let a = if vx < 0.0 { pi::<T, N>().sub(&a) } else { a };
    if vy < 0.0 {
        a.neg()
    } else {
        a
    }
}
