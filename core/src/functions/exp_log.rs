//! exp, exp_m1, ln, ln_1p, log2, log10, cube root, pow, powi and hypot of expansions, built
//! only from the accurate tier (`add`, `mul`, `div`, `sqrt`, … of [`crate::accurate`], whose
//! proven relative bounds are in [`crate::bounds`]) and exact operations (ldexp, negation,
//! error-free transforms), with a stated error bound per function derived below.
//!
//! # Notation
//!
//! p = 53 (f64) or 24 (f32), u = 2^-p, P = p·N. α, μ, μ_t, δ, ς, ρ are the accurate tier's
//! relative bounds at N for add (and sub, add_term), mul (and sqr), mul_term, div (and
//! div_term, recip), sqrt, and the rounding of an exact sum to N terms
//! ([`crate::bounds::add_rel_bound`], …, [`crate::bounds::round_rel_bound`]; all about (2u)^N
//! for N ≥ 3). Errors are combined in *log space*: a computed value v̂ = v·(1 + θ) is tracked
//! by a number S with |ln(1 + θ)| ≤ S. A factor (1 ± e) contributes lg(e) = e/(1 − e)
//! (≥ −ln(1 − e) ≥ ln(1 + e)); a factor whose log-sensitivity is at most L contributes L·S;
//! and at the end |θ| ≤ ex(S) = S(1 + S) (valid for S ≤ 1: e^S − 1 ≤ S + S²). The code of the
//! bounds ([`error_bound`]) replays exactly these recurrences in f64 (only +, ×, ÷ on
//! positive numbers, relative error < 2^-45 in all) and multiplies the result by
//! `FIN` = 1 + 2^-40.
//!
//! # Range of validity
//!
//! The bounds hold when the argument, the result, and the *anchor* intermediates named below
//! (reduced arguments r, 1 + m, the Horner values, …) lie in the accurate tier's range
//! [[`crate::bounds::min_normal_result`]`(N)`, [`crate::bounds::max_normal_result`]`(N)`]
//! (f64: [2^-979, 2^1016] at N = 1 to [2^-615, 2^1016] at N = 8; f32 N ≤ 4: down to 2^-14 at
//! N = 4). Small intermediates below that range (a tiny reduced argument r, a tiny
//! correction) only feed *absolute* errors of at most 2^12 σ per operation (σ the smallest
//! subnormal; [`crate::bounds`], "Range of validity") into quantities of magnitude at least
//! `min_normal_result(N)`/2; fewer than 2^8 operations are involved, so every bound carries
//! the extra relative term ε_sub = 2^20·σ/min_normal_result(N), which is 2^{N−23}·u^N for
//! both term types (a hypothesis-level argument resting on the statement of
//! [`crate::bounds`]; it is not separately proven here).
//!
//! **f32 with N ≥ 5**: the range starts at 2^9 (N = 5) and goes up with N, so the reduced
//! arguments and values near 1 that every algorithm here passes through are outside it; *no
//! bound is proven* and [`error_bound`] returns an infinite relative bound (the functions
//! still return their results, special values exact; the tests report the errors observed).
//!
//! # N = 1
//!
//! Every function of this module and of [`super::hyperbolic`] at N = 1 is computed at N = 2
//! and rounded to one term (RN of the double-word's sum): bound u + B₂(1 + u) + ε₁ with B₂
//! the N = 2 bound and ε₁ = 2^20σ/min_normal_result(1) (results below the N = 2 range
//! lose only absolute errors of 2^12σ per operation there); this makes the N = 1 results
//! nearly correctly rounded, hence monotone in practice, at twice the cost.
//!
//! # exp (and the core shared by exp_m1, ln, sinh, …)
//!
//! *Reduction.* k = round(x₀·log₂e) (f64, from the leading term), so x − k·ln 2
//! has magnitude ≤ 0.3466 + 2^-16 < 0.35 (rounding of x₀·log₂e, and |x − x₀| ≤ 2u|x₀|).
//! *Table step* (exp only): j = round(256·r̃), r̃ = fma(−k, ln 2_hi, x₀) − k·ln 2_lo in f64
//! (|r̃ − (x − k ln 2)| < 2^−16 for f32 terms, far less for f64), so |j| ≤ 90 and the exact
//! r = x − k·ln 2 − j/256 has |r| ≤ 2^−9 + 2^−16 < 2^−8 (the general core, exp_m1 and ln's
//! Newton steps, has no table step: j = 0, |r| < 0.35). r is
//! formed as the exact sum of x's terms, −j/256 (exact) and the exact
//! products −k·c_i (2ProdFMA) of the first M = N + 2 terms of ln 2 from the 12-term table
//! ([`super::constants::constant_terms`]), rounded once to N terms: r̂ = r(1 + ρ₁),
//! |ρ₁| ≤ ρ. The table is greedy, so |ln 2 − L_M| ≤ ½ulp(c_{M−1}) ≤ u|c_{M−1}| =: t_L, and
//! |k| ≤ K (f64: K = 1078, f32: K = 152, from the thresholds below). So the absolute error
//! of r̂ is Δ_r ≤ 0.0040ρ + K·t_L (≈ 1100·u²(2u)^N: the guard terms make k·ln 2 exact
//! enough), and e^{r̂} = e^r·e^{θ}, |θ| ≤ Δ_r: log-space contribution Δ_r.
//!
//! *Reduction at f64 N = 2* (`sub_k_ln2_j_dd`; it replaces the rounded sum above there): with
//! the three 42-bit chunks C₀, C₁, C₂ of ln 2 of [`sub_k_ln2`] (every k·C_i exact for |k| < 2^11;
//! 0 ≤ ln 2 − ΣC_i < 2^−126): d₀ = x₀ − k·C₀ is exact by Sterbenz (k = 0: d₀ = x₀; k = ±1
//! needs |x₀| ≥ ln 2/2 − 2^−53 ≥ C₀/2, true since ln 2 − C₀ = 2^−44.05; |k| ≥ 2:
//! x₀/(kC₀) ∈ [0.74, 1.26]); (s₁, e₁) = 2Sum(d₀, −j/256), (s₂, e₂) = 2Sum(x₁, −k·C₁),
//! (s₃, e₃) = 2Sum(s₁, s₂), ℓ = RN(RN(RN(e₃ + e₁) + e₂) − k·C₂), r̂ = 2Sum(s₃, ℓ). So
//! r = r̂ + (the three roundings of ℓ) − k(ln 2 − ΣC_i), and with |s₁| ≤ 2^−8 + 2^−31,
//! |x₁| ≤ 2u·746, |k| ≤ 1076: |e₁|, |e₃| ≤ u·2^−7.99, |e₂| ≤ u·2^−31.8, |k·C₂| ≤ 2^−73.9, so
//! Δ_r ≤ 3u·2^−59.99·(1 + 2^−20) + 1076·2^−126 ≈ 2^−111.3 (`sub_k_ln2_j_dd_err`; before, the
//! rounded sum's 0.0040ρ ≈ 2^−112; exp's bound 4.094 → 4.102 u²) for about a fifth of the
//! operations of the certified rounding of the eleven-term sum.
//!
//! *Rounding a sum once* (here, and for w and ln x below; also the Payne–Hanek chunks of
//! [`super::trig`]): at N ≥ 3 the exact Shewchuk accumulation and VecSumErrBranch of the
//! accurate tier; at N = 2 its *certified* renormalisation instead (`fast2.rs` `round_sum`:
//! up to three VecSum passes, each followed by VecSumErrBranch and the run-time certificate
//! that the output is ulp-nonoverlapping and the dropped tail is below ulp of its last term,
//! with the exact accumulation when the certificate fails). Both give the two facts from
//! which [`crate::bounds`] ("Rounding an exact sum") derives ρ, so the bound ρ is the same;
//! only which of the admissible roundings is returned can differ (in the last bits of the
//! low term, rarely), and the terms are listed in near-decreasing magnitude (x₀, k·c₀,
//! j/256, x₁, the rest) so that one pass usually suffices.
//!
//! *Scaling.* With |r̂₀| < 2^{e_r}, r′ = r̂·2^{−s} for s = max(0, e_r + σ_N) (exact), so
//! η := |r′| ≤ 2^{−σ_N}(1 + 2u): the parameters (d, σ_N) below make a degree-d Taylor
//! polynomial accurate to P + 6 bits. For the general core (e_r ≤ e_max = −1) they minimise
//! d + σ_N; after exp's table step (e_max = −8) they minimise the work actually done,
//! d + max(0, σ_N − 8), with σ_N raised to 8 where smaller (then s = 0 always): e.g. f64
//! N = 2: d = 10, no doubling (was 19 Horner steps and doublings in all); N = 4: d = 18, no
//! doubling (was 27); N = 8: d = 18, at most 13 doublings (was 39 in all).
//!
//! *Taylor polynomial* (classical reduction and evaluation, as in J.-M. Muller,
//! *Elementary Functions*; here in integer-coefficient Horner form): with c_k = d!/k!
//! (integers, exact in T because d ≤ 18 for f64, d ≤ 10 for f32, 18! < 2^53, 10! < 2^24),
//! q_d = 1, q_k = q_{k+1}·r′ + c_k (k = d − 1, …, 1), m₀ = q₁·r′·F_d ≈ Σ_{k=1}^{d} r′^k/k!
//! with F_d the first N terms of the greedy 12-term table of 1/d!
//! ([`super::constants::inv_fact`], generated with mpmath): each greedy term is at most
//! ½ulp ≤ u times the previous and the tail at most ½ulp of the last kept term, so
//! F_d = (1/d!)(1 + τ_F), |τ_F| ≤ u^N(1 + u) (f64; f32 for N ≤ 4, where no term of 1/d!,
//! d ≤ 10, is cut below 2^−126): a multiplication instead of a long division by d!. Truncation: |expm1(r′) − m₀| ≤
//! η^{d+1}/((d+1)!(1 − η)) and |expm1(r′)| ≥ η(1 − η), so the relative truncation error is
//! t ≤ η^d/((d+1)!(1 − η)²). Rounding: |q_{k+1}| ≤ c_{k+1}/(1 − η) and c_{k+1} = c_k/(k+1),
//! so the product q_{k+1}·r′ is at most a fraction θ = η/(2(1 − η)) of c_k and the sum has
//! no cancellation: an error S in q_{k+1}r′ moves q_k by at most ω = θ/(1 − θ) of it in log
//! space, so S_k ≤ lg(α) + ω·ex(S_{k+1} + lg(μ)), S_{d} = 0, and m₀ has
//! S ≤ S₁ + 2lg(μ) + lg(u^N(1 + u)) + lg(t).
//! *Precision of the Horner steps*: since an error at step k reaches m₀ with weight
//! ω^{k−1} ≤ 2^{−(σ_N+1)(k−1)}, step k runs at M_k = N − ⌊((k − 1)σ_N − 4)/(p − 1)⌋ terms
//! (clamped to [1, N]; `horner_terms`): q_{k+1} (M_{k+1} ≤ M_k terms) is padded with zeros
//! (exact), r′ is cut to its first M_k terms (a normalised double-word for M_k = 2, by an
//! exact Fast2Sum), relative error ≤ 1.01(2u)^{M_k} (the tail of an ulp-nonoverlapping
//! expansion after M terms is below (2u)^M/(1 − 2u) of its leading term), and the mul and
//! add have the tier's bounds at M_k: S_k ≤ lg(α_{M_k}) + ω·ex(S_{k+1} + lg(μ_{M_k}) +
//! lg(1.01(2u)^{M_k})) (the cut term only where M_k < N). Each such error is at most
//! 2^{−(k−1)−4} of a full-precision one after weighting, so the bound grows by a few percent
//! while the high-order steps cost a fraction (e.g. f64 N = 4, exp: steps 1–7 at 4 terms,
//! 8–14 at 3, 15–17 at 2). The recurrence holds for *any* plan with 1 ≤ M_{k+1} ≤ M_k ≤ N
//! (nothing above used the rule for M_k), and [`error_bound`] replays it with the plan the
//! code runs.
//! (Until the fourteenth session exp had its own plan at f64 N = 2, steps k ≥ 6 at one term,
//! justified by exp's weighting of the core's error; the Estrin core below replaced it.) The
//! straight-line `expm1_exp_dd` runs the general plan at (f64, N = 2) operation for
//! operation as the generic loop.
//!
//! *exp's core at f64 N = 2* (`expm1_exp_estrin`; CUDA `el_expm1_exp_estrin`; the batched
//! lanes `expm1_exp_estrin_lanes`; replaces the Horner plan above there, which stays for f32 and for
//! the general core). The Horner plan is a chain of five dependent double-word steps and two
//! products; here, for |R| ≤ ρ = 2^−9 + 2^−16 (R the exact value of r̂: the table step's
//! bound), e^R − 1 = R + R²·A + R⁴·B exactly with A = ½ + R/6, B = 1/24 + R·C,
//! C = 1/120 + R·H(R), H(R) = Σ_{k≥6} R^{k−6}/k!, and the pieces are computed side by side
//! (Estrin's scheme): r² = sqr(r̂), r⁴ = sqr(r²), a = ½ + r̂·(1/6)_dd (mul, add_small),
//! h = ((((C₁₀r₀ + C₉)r₀ + C₈)r₀ + C₇)r₀ + C₆ by fmas (C_k = RN(1/k!)), d = RN(r₀·h),
//! ĉ = (1/120)_dd + d by two exact Fast2Sums around one rounding (|d| < 1/120),
//! b = (1/24)_dd + r̂·ĉ (mul, add_small), then m̂ = (r̂ + r²·a) + r⁴·b (two muls, two
//! add_small). Every sum adds a correction at most 2^−8 of its other operand, so it is
//! `fast2::add_small` (derived in `fast2.rs`; α_s(κ) ≈ 3u² for the ratio κ, like the accurate
//! add's α, at about half its dependent operations); α below stands for α_s at each sum's κ
//! (1.01 times 24ρC_max, ρ/3, ρA_max, ρ³B_max/(1 − ρA_max)). Error
//! (`expm1_exp_estrin_rel`; γ = u²(1 + u) for each greedy pair of 1/k!; ⊕ composes relative
//! errors): d against R·H(R) within 5.02u (r₀ against R, the fmas and constants 3u, the
//! product u) plus H's truncation after r₀⁴/10! (≤ ρ⁵/11!·1.01 against H ≥ (1 − ρ)/720);
//! ĉ within |R|H·that + 2.01u²/120 + γ/120 of C, relative ε_c to C ≥ 1/120 − ρH_max;
//! b: ε_b = (γ/24 + ρC_max(ε_c ⊕ μ))/(1/24 − ρC_max) ⊕ α; a: ε_a = (ρ/6)(γ ⊕ μ)/(½ − ρ/6) ⊕ α;
//! r²·a and r⁴·b carry ε₁ = μ ⊕ ε_a ⊕ μ and ε₂ = μ⊕μ⊕μ ⊕ ε_b ⊕ μ; r̂ + r²a:
//! ε_m₁ = ρA_max/(1 − ρA_max)·ε₁ ⊕ α against R + R²A; and m̂ against M = e^R − 1
//! (|M| ≥ |R|(1 − ρ/2)): ((1 + ρA_max)ε_m₁ + ρ³B_max·ε₂)/(1 − ρ/2) ⊕ α. This replaces ex(S_s)
//! in exp's bound below (weighted there by 0.0040 or 0.00198): f64 N = 2 4.102 → 4.052u². The
//! dependent chain is about half as long (r², r⁴ and b's chain overlap), with no product by
//! 1/10! and no doubling.
//!
//! *Doubling* (exp_m1 form, to keep relative accuracy near 0): m_{j+1} = m_j·(m_j + 2),
//! since e^{2a} − 1 = (e^a − 1)(e^a + 1). If m̂_j = m_j(1 + θ_j), then
//! m̂_j + 2 = (m_j + 2)(1 + τ_jθ_j) with τ_j = |m_j|/(m_j + 2) = tanh(|r′_j|/2) ≤ |r′_j|/2,
//! where r′_j = r̂·2^{j−s} has |r′_j| ≤ 2^{j−σ_N}(1 + 2u); so
//! S_{j+1} = S_j + lg(τ_j ex(S_j)) + lg(α) + lg(μ), for j < s ≤ s_max = σ_N + e_r,max
//! (e_r,max = −1 since |r̂₀| < 1/2). The τ_j sum to at most 2^{−σ_N}·2^{s}: the doublings
//! amplify earlier errors by at most e^{|r|} in total and each adds lg(α) + lg(μ).
//!
//! *exp.* e^x = 2^k·e^{j/256}·e^{r}, m̂ the core on r̂ with exp's own Horner plan (S_s
//! replayed with that plan, above). j = 0: 1 + m̂ by add_term (α), the error of m̂ weighted
//! by |m|/(1 + m) ≤ 0.0040: ex(Δ_r + lg(α) + 0.0040·ex(S_s)). j ≠ 0: T = the first N
//! terms of the greedy 8-term table of e^{j/256} ([`super::constants::exp_j256`], relative
//! error ≤ u^N(1 + u) as for F_d), then T + T·m̂ (mul μ, add α): the product's error
//! ex(lg(ex(S_s)) + lg μ) is weighted by |m|/(1 + m) ≤ 0.00198 (|r| < 2^−9 + 2^−16):
//! ex(Δ_r + lg(u^N(1 + u)) + lg(α) + lg(0.00198·ex(lg(ex(S_s)) + lg μ))). The bound is the
//! larger of the two; then ·2^k exactly (in range).
//! Below `min_normal_result(N)` the final ldexp rounds each of the N terms to a multiple of
//! σ (error ≤ σ/2 each; the result is then renormalised exactly), hence `abs` = N·σ.
//! Thresholds (IEEE behaviour): x₀ ≥ 710 (f32: 89) gives +∞, x₀ ≤ −746 (f32: −104) gives +0;
//! an ldexp that overflows gives +∞.
//! *f64 with N ≥ 3*: after the same special values, thresholds, k and j, exp runs in
//! fixed-point integer arithmetic instead ([`super::fixed`]: reduction, Taylor series and table
//! step on u64 limbs, then the greedy nearest N-term expansion of the result): its own bound,
//! derived there, about u^N (`exp_rel` returns it); everything above stays for f32, N ≤ 2, and
//! the cores that exp_m1, ln and the batched lanes share.
//!
//! # exp_m1
//!
//! |x₀| < 2^{−(P+3)}: x itself (|expm1(x) − x| ≤ x²/2·(1 + |x|), relative ≤ 2^{−P−4}·1.01).
//! |x₀| < 1/2: no reduction (k = 0, r = x exact), the core above with s_max = σ_N − 1:
//! bound ex(S_s). |x₀| ≥ 1/2: e^x − 1 = (1 + m̂)2^k − 1 by one accurate add; the relative
//! error of e^x is amplified by e^x/|e^x − 1| ≤ 2.55 (|x| ≥ 1/2): bound
//! ex(lg(α) + 2.55·B_exp). x₀ < −(P + 5)·ln 2: −1 (relative error ≤ e^x ≤ 2^{−P−5}).
//!
//! # ln_1p core (Newton on exp_m1) and ln, ln_1p, log2, log10
//!
//! For w with 1 + w ∈ [0.707, 1.415] (so |y*| = |ln1p(w)| ≤ 0.3467): a seed y, then Newton
//! steps y ← y + c, c = (w − expm1(y))/(1 + expm1(y)) = e^{y*−y} − 1, each at full
//! precision, until the computed correction satisfies |ĉ₀| ≤ 2^{−h}|y₀| with h = ⌈P/2⌉ for
//! N ≥ 3 and h = ⌈P/2⌉ − 2 for N ≤ 2 (a run-time check, so the proof does not rely on the
//! seed's accuracy; at most 8 steps). *Seed* (precision doubling): for N ≤ 2 an f64
//! ln_1p(w₀) from IEEE operations only (`functions/seeds.rs`, so the GPU repeats it; 53 bits:
//! h = ⌈P/2⌉ − 2 lets one step pass the check for a seed within 4
//! units of 2^{−53}); for N ≥ 3 this same core at M = ⌊N/2⌋ + 1 terms on w's first M terms
//! (about pM − 8 > P/2 + 16 bits, so one full-precision step passes the check), recursively
//! (8 → 5 → 3 → 2, 4 → 3 → 2, …): the costly full-precision steps drop from 2–4 to 1.
//! *E = expm1(y)* in each step uses exp's table step (`expm1_table`): j = round(256y₀);
//! j = 0 (|y| < 2^−8): the core with e_max = −8, relative ex(S_s); 0 < |j| ≤ 90: r̂₂ =
//! (y − j/256)(1 + α) (add_term; |r₂| ≤ 2^−9 + 2^−16), m̂ = the core on r̂₂, and
//! Ê = (D + T·m̂) with D, T the first N terms of the greedy tables of e^{j/256} − 1 and
//! e^{j/256} (relative u^N(1 + u) each), mul (μ), add (α). With P = T·expm1(r₂), E = D + P:
//! |D| ≤ 2.02|E| and |P| ≤ 1.02|E| on this range (checked on a fine grid with margin:
//! 2.03 and 1.03 used), the product's relative error is ex3 = ex(lg(u^N(1 + u)) +
//! lg(ex(S_s)) + lg μ), and the rounding of r₂ moves expm1(r₂) by at most
//! 1.0021·0.00197·α, times |T| ≤ 1.4213, relative to |E| ≥ 0.00195: ≤ 1.45α|E|. So
//! δ_E ≤ ex(lg(2.03u^N(1 + u) + 1.03·ex3 + 1.45α) + lg α); |j| > 90 (never in the last step
//! below, |y_b| < 0.35) takes the general core. The bound uses the largest δ_E of the three
//! branches.
//! For the last step, with E = expm1(y_b) computed to relative δ_E
//! (the exp_m1 bound, |y_b| < 1/2), g = E/(1 + E) = 1 − e^{−y_b} (|g| ≤ 1.2|y_b|):
//! ĉ = (c − gθ_E)(1 + a₁)(1 + a₃)/((1 + gθ_E)(1 + a₂)) (sub, div, add), so
//! |ĉ − c| ≤ 1.2|y_b|δ_E(1 + κ) + |c|κ with κ = ex(lg α + lg α + lg δ + lg(1.2·0.36·δ_E)).
//! At (f64, N = 2) the division is the IEEE quotient of the leading terms of the computed
//! numerator and denominator (`newton_quotient`; c is then one term): the leading term of a
//! normalised double-word v is v(1 + t) with |t| ≤ u/(1 − u) (|lo| ≤ ½ulp(hi) ≤ u|hi|),
//! and the quotient rounds once, so lg δ is replaced by 3·lg(u/(1 − u)): κ ≈ 3u instead of
//! ≈ 3u², which |c| ≤ c_r|y_b| (c_r ≈ 2^{−h}, h = 51) turns into about 12u² more in the
//! relative bound (ln f64 N = 2: 102u² → 114u²) for one long division less per step.
//! Exact Newton: y_b + c = y* + ν with ε = y_b − y*, 0 ≤ ν = e^{−ε} − 1 + ε ≤ ε²e^{|ε|}/2.
//! The check gives |c| ≤ c_r|y_b| with c_r = (2^{−h}(1 + 4u) + 1.2δ_E(1 + κ))/(1 − κ),
//! |ε| = |ln(1 + c)| ≤ ε_r|y_b|, ε_r = c_r/(1 − c_r), and |y*| ≥ |y_b|(1 − ε_r); so the
//! result ŷ = (y* + ν + (ĉ − c))(1 + a₄) has relative error
//! ex(lg α + lg((0.18·ε_r²·1.01 + 1.2δ_E(1 + κ) + c_r κ)/(1 − ε_r))).
//! Tiny |w₀| < 2^{−(P+3)}: w itself (relative ≤ 2^{−P−4}·1.01).
//!
//! *ln x*: k from x₀ (x₀·2^{−k} ∈ [1/√2, √2)), w = x·2^{−k} − 1 formed as an exact sum and
//! rounded once (ρ), ℓ = core(ŵ), whose sensitivity to w is w/((1 + w)ln(1 + w)) ≤ 1.25 on
//! the range; ln x = ℓ + k·ln 2 formed, as in exp's reduction, as one exact sum of ℓ's terms
//! and k·c_i (M = N + 2 terms of ln 2) rounded once (ρ). |ℓ|/|ln x| ≤ 1.001 (ℓ and k·ln 2
//! never cancel below |ln x| ≥ 0.346 when k ≠ 0), and the truncation K·t_L relative to
//! |ln x| ≥ 0.346: bound ex(lg ρ + 1.001·(1.25·lg ρ + S_core) + K·t_L/0.346).
//! *At N = 2* (|k| < 2^b: always, as K < 2^b) the final combination is shorter (one
//! double-word addition instead of a 10-term rounded sum): with chunks C_i of ln 2 of w = p − b
//! bits (f64: b = 11, w = 42, m = 3; f32: b = 8, w = 16, m = 4; C_i the bits of weights
//! 2^{−1−wi} … 2^{−w(i+1)}, truncated, so 0 ≤ ln 2 − ΣC_i < 2^{−wm}), every product k·C_i is
//! exact; (s, e) = Fast2Sum(kC₀, kC₁) exactly, then e ← RN(e + kC_i) for i ≥ 2 (each
//! rounding at most u times |e + …| ≤ (u + Σ_{j≤i} 2^{−wj}/0.68)|s|, as |kC_j| < |k|2^{−wj}
//! and |s| ≥ 0.68|k|: η = Σ_i u(u + Σ_{j=2..i} 2^{−wj}/0.68), times 1 + 4u), Fast2Sum (exact)
//! to a normalised K̂ = k·ΣC_i + ε_K, |ε_K| ≤ η|K̂|; then ŷ = (ℓ̂ + K̂)(1 + δ_add) (the accurate
//! addition's bound holds whatever the cancellation). Relative to |ln x| ≥ 0.346 (k ≠ 0):
//! ℓ̂'s error with weight ≤ 1.001, |K|/|ln x| ≤ 2.001 (K = ln x − ℓ), the chunks' truncation
//! |k|·2^{−wm} ≤ K·2^{−wm}: bound ex(lg δ_add + 1.001·(1.25·lg ρ + S_core) +
//! K·2^{−wm}/0.346 + 2.001η) (f64: K·2^{−126}/0.346 ≈ 0.006u², η ≈ u²), the larger of it and
//! the sum's.
//! *ln_1p x*: if 1 + x₀ ∈ [1/√2, √2), core(x) directly; else the same as ln with
//! w = (1 + x)2^{−k} − 1 = Σx_i2^{−k} + 2^{−k} − 1 as one exact sum (no 1 + x is ever
//! rounded): the ln bound. *log2 x* = k + ℓ·log₂e (constant to N terms, relative error
//! ≤ ρ, one mul; |ℓ·log₂e|/|log₂ x| ≤ 1.001; one add_term): ex(lg α + 1.001(1.25 lg ρ +
//! S_core + lg ρ + lg μ)) (exact for powers of two). *log10 x* = ln x · log₁₀e:
//! ex(B_ln-log + lg ρ + lg μ).
//!
//! ## ln at f64 N ≥ 3 (`ln_newton`, through `ln_public`, the public ln)
//!
//! For x₀ with |x₀ − 1| ≥ 1/16 and 2^−500 ≤ x₀ ≤ 2^500 (else the path above): one Newton
//! step for y ↦ x·e^{−y} − 1 on a seed, with the N-term exp of the fixed-point module
//! (bound ε_E = 1.0001u^N), which is much cheaper than the ln_1p core at these N.
//! - *Seed*: M = max(2, ⌈N/2⌉), x_t = the first M terms of x (`truncated`),
//!   x_t = x(1 + τ'), |τ'| ≤ τ = 1.1(2u)^M (the dropped terms of a ulp-nonoverlapping
//!   expansion), y = the public ln at M terms of x_t (either path; its stated bound b_M,
//!   relative), padded with zeros. With |ln x| ≤ L_max = 500 ln 2 + 0.35 (x₀ ≤ 2^500):
//!   |y − ln x| ≤ b_M|ln x_t| + |ln(1 + τ')| ≤ 1.01τ(1 + b_M) + b_M·L_max =: ε_y (absolute).
//!   The seed's error only enters quadratically below: it need not be proven small, just
//!   bounded.
//! - *Residual*: w = x·e^{−y} − 1 exactly; x·e^{−y} = e^{ln x − y}, so |w| ≤ e^{ε_y} − 1 ≤
//!   w_b = 1.01ε_y·e^{ε_y}. ê = e^{−y}(1 + ε), |ε| ≤ ε_E (−y is within exp's range), the
//!   accurate product P̂ = x·ê(1 + μ) (δ_mul), so |P̂ − (1 + w)| ≤ (1 + w_b)(ε_E + δ_mul +
//!   ε_E·δ_mul) =: d_P; ŵ = add_term(P̂, −1) = (P̂ − 1)(1 + α) (δ_add, relative to the exact
//!   sum), so |ŵ − w| ≤ d_P + δ_add(w_b + d_P) =: d_w and |ŵ| ≤ w_h = w_b + d_w.
//! - *Quadratic term*: h = RN(½ŵ₀·ŵ₀) (IEEE, ½ exact): against w²/2 it errs by the rounding
//!   (≤ ½u·ŵ₀² + 2^−1075 if it underflows), ŵ₀ for ŵ (|ŵ − ŵ₀| ≤ u|ŵ₀|, so |ŵ₀² − ŵ²|/2 ≤
//!   u(1 + u)ŵ₀²) and ŵ for w (|ŵ² − w²|/2 ≤ d_w(w_b + w_h)/2): |h − w²/2| ≤ 2u·w_h² +
//!   d_w(w_b + w_h)/2 + 2^−1070 =: d_h.
//! - *Correction*: c = add_term(ŵ, −h) = (ŵ − h)(1 + α′); ln(1 + w) = w − w²/2 + R with
//!   |R| ≤ |w|³/(3(1 − |w|)) ≤ r₃ = w_b³/(3(1 − w_b)). So |c − (ln x − y)| ≤ δ_add(w_h + w_h²)
//!   + d_w + d_h + r₃ =: a (absolute; |ŵ − h| ≤ w_h + w_h²).
//! - *Result*: ŷ = add(y, c) = (y + c)(1 + α″) with y + c = ln x + e, |e| ≤ a. Outside the
//!   band |ln x| ≥ ln(17/16)(1 − 2^−40) > 0.0606 = ℓ_min (x = x₀(1 + θ), |θ| ≤ 2u), so with
//!   q = a/ℓ_min: rel ≤ δ_add + (1 + δ_add)q (+ the tier's subnormal slack), times FIN
//!   (`ln_newton_rel`). f64 N = 3, 4 (M = 2): ε_y ≈ 115u²·347 ≈ 2^−91, so w² ≈ 2^−182 is
//!   kept and the neglected w³ ≈ 2^−273 is far below u^N; N = 5, 6 (M = 3) and 7, 8 (M = 4)
//!   likewise (w³ ≈ 2^−435 and 2^−576). The stated bound of ln at these N is the larger of
//!   this one and the ln_1p-core path's, as either may run.
//!
//! # cbrt
//!
//! |x| = 2^{3j}·a with a ∈ [1, 8) (exact scaling), y ← an f64 cbrt(a₀) from IEEE
//! operations only (`functions/seeds.rs`, half an ulp, so the GPU repeats it), Newton
//! y ← y − (y³ − a)/(3y²) at full precision until |ĉ₀| ≤ 2^{−h}|y₀| (h = ⌈P/2⌉, at most 8
//! steps). Exact Newton from y_b = y*(1 + ε): relative error ν = ε²(1 + 2ε/3)/(1 + ε)² ≤
//! 1.1ε² (|ε| ≤ 0.01). Computed: ŷ³ = y_b³(1 + η₃), |ln(1 + η₃)| ≤ 2 lg μ, the difference
//! (α), 3ŷ² (μ, μ_t), the division (δ) and the final sub (α): ĉ = (c + y_bη₃/3)(1 + κ′),
//! κ′ = ex(lg α + lg δ + lg μ + lg μ_t), so the result has relative error
//! ex(lg α + lg(1.1ε_r² + 1.01(ex(2 lg μ)/3 + c_r κ′))) with c_r = 2^{−h}(1 + 4u)(1 + κ′) +
//! ex(2 lg μ)/3 and ε_r = 1.1·c_r.
//!
//! # powi, pow
//!
//! *powi* by binary powering: by induction every computed power x^a has log-error
//! ≤ (a − 1)·lg μ (a square of x^a: 2(a − 1) + 1; a product of x^a and x^b:
//! (a − 1) + (b − 1) + 1); a negative n takes the reciprocal first (so that every
//! intermediate power lies between x⁻¹ and the result), whose error the powering multiplies
//! by |n|: [`powi_error_bound`] = ex((|n| − 1)lg μ + [n < 0]·|n|·lg δ).
//! *pow* (domain: x, y, the result and ln x in range) for x > 0: if y is an integer of magnitude ≤ 16 (y = y₀ exactly), powi; otherwise
//! e^{y·ln x}: z = y·ln x has log-error lg B_ln + lg μ (B_ln the ln bound), so
//! e^{ẑ} = e^z·e^{zθ}, and |z| ≤ Z = 745 (f64) or 104 (f32) for a result in range: bound
//! ex(Z·ex(lg B_ln + lg μ) + lg B_exp) (this grows with |z|: the error of ln x is amplified
//! by |y|; the tests measure how pessimistic the worst case is), and the max with the
//! powi case (|n| ≤ 16). x < 0 with y an integer: |x|^y with the sign of (−1)^y; x < 0 with
//! y not an integer: NaN. Special values as C99 F.9.4.4 (pow(x, ±0) = 1, pow(1, y) = 1,
//! pow(±0, y), pow(±∞, y), pow(x, ±∞), pow(−1, ±∞) = 1). `abs` = N·σ (underflow).
//!
//! # hypot
//!
//! a = max(|x|, |y|), b = min, e = ⌊log₂ a₀⌋: √((a·2^{−e})² + (b·2^{−e})²)·2^e (scalings exact
//! up to underflow of terms of b far below a, which moves the result by at most N·σ
//! relative). Two squares (μ), one add of non-negative numbers (α), both seen through the
//! square root with weight ½, and the sqrt (ς): ex(½lg μ + ½lg α + lg ς + lg(2^13 Nσ)).
//! hypot(±∞, anything) = +∞ (also with NaN), otherwise NaN propagates.

use super::constants::{
    constant, constant_terms, exp_j256, expm1_j256, inv_fact, term_from_bits, Constant,
    EXP_TABLE_J, TABLE_TERMS,
};
use super::fast2::{self, round_sum};
use super::seeds::{cbrt_seed, ln_1p_seed, pow2};
use super::{Binary, ErrorBound, Unary};
use crate::bounds;
use crate::eft::{fast_two_sum, two_prod};
use crate::expansion::{Expansion, MAX_TERMS};
use crate::float::FloatTerm;

type E<T, const N: usize> = Expansion<T, N>;

/// Final factor on every computed bound: covers the f64 evaluation of the recurrences.
const FIN: f64 = 1.0 + 1.0 / (1u64 << 40) as f64;

/// Most Newton steps of ln_1p and cbrt (the run-time check stops them after 1 to 3).
pub(crate) const MAX_NEWTON: usize = 8;

// ---------------------------------------------------------------------------------------
// Small helpers.

/// ⌊log₂|v|⌋ for a finite non-zero f64 (subnormals included).
pub(crate) fn ilogb(v: f64) -> i32 {
    let b = v.abs().to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    if e == 0 {
        -1074 + (63 - b.leading_zeros() as i32)
    } else {
        e - 1023
    }
}

/// The leading term as f64 (exact).
#[inline]
pub(crate) fn hi<T: FloatTerm, const N: usize>(x: &E<T, N>) -> f64 {
    x.hi().to_f64()
}

/// An expansion holding the f64 value `v` rounded to T (NaN, ±∞, ±0 and such results).
#[inline]
pub(crate) fn special<T: FloatTerm, const N: usize>(v: f64) -> E<T, N> {
    E::from_term(T::from_f64(v))
}

/// P = p·N, the working precision in bits.
#[inline]
pub(crate) fn prec_bits<T: FloatTerm>(n: usize) -> i32 {
    T::PRECISION as i32 * n as i32
}

/// True when |x| < 2^e (x finite).
#[inline]
pub(crate) fn below_pow2<T: FloatTerm, const N: usize>(x: &E<T, N>, e: i32) -> bool {
    let v = hi(x);
    v == 0.0 || ilogb(v) < e
}

/// The smallest subnormal of T as f64.
fn sigma<T: FloatTerm>() -> f64 {
    if T::PRECISION == 53 {
        f64::from_bits(1)
    } else {
        f32::from_bits(1) as f64
    }
}

// ---------------------------------------------------------------------------------------
// Core algorithms (generic, instantiated once per (T, N) through mod.rs).

/// Largest ilogb(r̂₀) + 1 of exp's reduced argument after the table step (|r̂| < 2^−8).
pub(crate) const EXP_EMAX: i32 = -8;

/// (d, σ_N): Taylor degree and scaling exponent of e^r − 1 on |r′| ≤ 2^{−σ_N}, truncation
/// below 2^{−P−6} (module doc), for arguments with ilogb(r₀) + 1 ≤ `emax` (−1: |r₀| < 1/2, the general core;
/// [`EXP_EMAX`]: exp after its table step), cached per (T, N).
pub(crate) fn cached_params<T: FloatTerm>(n: usize, emax: i32) -> (usize, i32) {
    type Table = [[(usize, i32); crate::expansion::MAX_TERMS]; 4];
    static CELL: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let t = CELL.get_or_init(|| {
        let mut t = [[(0, 0); crate::expansion::MAX_TERMS]; 4];
        for (i, row) in t.iter_mut().enumerate() {
            let p = if i & 1 == 1 { 53 } else { 24 };
            let e = if i & 2 == 2 { EXP_EMAX } else { -1 };
            for (k, v) in row.iter_mut().enumerate() {
                *v = compute_params(p, k + 1, e);
            }
        }
        t
    });
    let i = usize::from(T::PRECISION == 53) + if emax == -1 { 0 } else { 2 };
    t[i][n.clamp(1, crate::expansion::MAX_TERMS) - 1]
}

/// (d, σ_N) for p-bit terms, n terms, emax as in [`cached_params`]: for emax = −1 the d
/// minimising d + σ_N; otherwise the d minimising d + max(0, σ_N + emax) (the doublings
/// actually done), with σ_N raised to −emax where it is smaller (no doubling is then done,
/// and |r′| = |r̂| < 2^{emax} bounds η).
fn compute_params(p: u32, n: usize, emax: i32) -> (usize, i32) {
    let target = (p as i32 * n as i32 + 6) as f64;
    let dmax = if p == 53 { 18 } else { 10 };
    let mut best = (dmax, i32::MAX);
    let mut best_cost = i32::MAX;
    let mut fact = 1.0f64; // (d+1)!
    for d in 1..=dmax {
        fact *= (d + 1) as f64;
        let sig = ((target - fact.log2()) / d as f64).ceil().max(1.0) as i32;
        let cost = if emax == -1 {
            d as i32 + sig
        } else {
            d as i32 + (sig + emax).max(0)
        };
        if cost <= best_cost {
            best_cost = cost;
            best = (d, sig.max(-emax));
        }
    }
    if emax != -1 {
        // Ties: the smallest d of the least cost (the loop kept the largest).
        for d in 1..=dmax {
            let f: f64 = (2..=d + 1).map(|k| k as f64).product();
            let sig = ((target - f.log2()) / d as f64).ceil().max(1.0) as i32;
            if d as i32 + (sig + emax).max(0) == best_cost {
                return (d, sig.max(-emax));
            }
        }
    }
    best
}

/// e^r − 1 for |r₀| < 1/2 (no reduction): Taylor polynomial of r·2^{−s}, then s doublings
/// m ← m(m + 2).
pub(crate) fn expm1_reduced<T: FloatTerm, const N: usize>(r: &E<T, N>) -> E<T, N> {
    expm1_reduced_with(r, -1)
}

/// As [`expm1_reduced`] for ilogb(r₀) + 1 ≤ `emax` (−1 or [`EXP_EMAX`]).
fn expm1_reduced_with<T: FloatTerm, const N: usize>(r: &E<T, N>, emax: i32) -> E<T, N> {
    expm1_core_plan(r, emax, false)
}

/// The core; `exp_plan`: as exp calls it (after its table step), which at (f64, N = 2) is
/// [`expm1_exp_estrin`]; otherwise the Horner plan [`horner_terms`].
fn expm1_core_plan<T: FloatTerm, const N: usize>(
    r: &E<T, N>,
    emax: i32,
    exp_plan: bool,
) -> E<T, N> {
    let r0 = hi(r);
    if r0 == 0.0 {
        return *r;
    }
    if N == 2 && T::PRECISION == 53 && emax == EXP_EMAX {
        return if exp_plan {
            expm1_exp_estrin(r)
        } else {
            expm1_exp_dd::<T, N>(r, r0)
        };
    }
    let (d, sig) = cached_params::<T>(N, emax);
    let s = doublings(sig, r0);
    let rp = r.ldexp(-s);
    // c_k = d!/k!, built from k = d down.
    let mut c = [0.0f64; 20];
    c[d] = 1.0;
    for k in (1..d).rev() {
        c[k] = c[k + 1] * (k + 1) as f64;
    }
    // Horner steps k = d − 1, …, 1 at M_k ≤ N terms (module doc), grouped by M_k.
    let mut qa = [T::ZERO; MAX_TERMS];
    qa[0] = T::ONE;
    let mut ra = [T::ZERO; MAX_TERMS];
    ra[..N].copy_from_slice(rp.terms());
    let mut k = d - 1;
    while k >= 1 {
        let m = horner_terms::<T>(N, sig, k);
        let mut lo = k;
        while lo > 1 && horner_terms::<T>(N, sig, lo - 1) == m {
            lo -= 1;
        }
        let cs = &c[lo..=k];
        match m {
            1 => horner_stage::<T, 1>(&mut qa, &ra, cs),
            2 => horner_stage::<T, 2>(&mut qa, &ra, cs),
            3 => horner_stage::<T, 3>(&mut qa, &ra, cs),
            4 => horner_stage::<T, 4>(&mut qa, &ra, cs),
            5 => horner_stage::<T, 5>(&mut qa, &ra, cs),
            6 => horner_stage::<T, 6>(&mut qa, &ra, cs),
            7 => horner_stage::<T, 7>(&mut qa, &ra, cs),
            _ => horner_stage::<T, 8>(&mut qa, &ra, cs),
        }
        k = lo - 1;
    }
    let mut qt = [T::ZERO; N];
    qt.copy_from_slice(&qa[..N]);
    let q = E::<T, N>::from_normalized(qt);
    // ·(1/d!) from the table (a multiplication instead of a long division).
    let mut m = fast2::mul(&fast2::mul(&q, &rp), &inv_fact::<T, N>(d));
    let two = T::from_f64(2.0);
    for _ in 0..s {
        m = fast2::mul(&m, &fast2::add_dominant_term(&m, two));
    }
    m
}

/// The general core at (f64, N = 2, [`EXP_EMAX`]) (ln's Newton steps) as straight-line
/// code: the same operations in the same order as the generic loop of [`expm1_core_plan`]
/// (d = 10, σ_N = 9; Horner steps k ≥ 8 at one term, the others at two, as
/// [`horner_terms`]), so the same bits, without the generic loops and tables.
#[inline(always)]
fn expm1_exp_dd<T: FloatTerm, const N: usize>(r: &E<T, N>, r0: f64) -> E<T, N> {
    const F: usize = 8;
    const SIG: i32 = 9;
    const D: usize = 10;
    // c_k = 10!/k! for k = 9, …, 1.
    const C: [f64; 9] = [
        10.0, 90.0, 720.0, 5040.0, 30240.0, 151200.0, 604800.0, 1814400.0, 3628800.0,
    ];
    debug_assert_eq!(cached_params::<T>(N, EXP_EMAX), (D, SIG));
    let s = doublings(SIG, r0);
    let rp = if s == 0 { *r } else { r.ldexp(-s) };
    let t = rp.terms();
    // Steps 9, …, F at one term (IEEE operations: the N = 1 tier); q_10 = 1.
    let mut q1 = T::ONE;
    for &ck in &C[..D - F] {
        q1 = q1 * t[0] + T::from_f64(ck);
    }
    // Steps F − 1, …, 1 at two terms; r′ cut to a normalised double-word by Fast2Sum.
    let (h, l) = fast_two_sum(t[0], t[1]);
    let mut rt = [T::ZERO; N];
    rt[0] = h;
    rt[1] = l;
    let r2 = E::<T, N>::from_normalized(rt);
    let mut qt = [T::ZERO; N];
    qt[0] = q1;
    let mut q = E::<T, N>::from_normalized(qt);
    for &ck in &C[D - F..] {
        q = fast2::add_dominant_term(&fast2::mul(&q, &r2), T::from_f64(ck));
    }
    let mut m = fast2::mul(&fast2::mul(&q, &rp), &inv_fact::<T, N>(D));
    let two = T::from_f64(2.0);
    for _ in 0..s {
        m = fast2::mul(&m, &fast2::add_dominant_term(&m, two));
    }
    m
}

/// (c₀, …, c₄) of H(r₀) = Σ c_i·r₀^i in exp's core at f64 N = 2 ([`expm1_exp_estrin`]): 1/6!,
/// 1/7!, 1/8!, 1/9!, 1/10! rounded to nearest.
pub(crate) const EXP_ESTRIN_H: [f64; 5] = [
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
    1.0 / 362880.0,
    1.0 / 3628800.0,
];

/// e^r − 1 for |r| < 2^−8 at f64 N = 2, exp's own core (module doc, "exp's core at f64
/// N = 2"): M = r + r²·A + r⁴·B with A = ½ + r/6, B = 1/24 + r·C, C = 1/120 + r₀·H(r₀), H in
/// IEEE arithmetic, by Estrin's scheme (r², r⁴, A and B in parallel): about half the
/// dependent double-word operations of the Horner plan, no 1/10! product, no doubling.
#[inline(always)]
pub(crate) fn expm1_exp_estrin<T: FloatTerm, const N: usize>(r: &E<T, N>) -> E<T, N> {
    let r0 = r.hi();
    // (NaN lower terms reach here and propagate.)
    debug_assert!(
        !(r0.to_f64().abs() > p2(-9) + p2(-16)),
        "r0 = {:e}",
        r0.to_f64()
    );
    let hc = |i: usize| T::from_f64(EXP_ESTRIN_H[i]);
    let h = hc(4)
        .mul_add(r0, hc(3))
        .mul_add(r0, hc(2))
        .mul_add(r0, hc(1))
        .mul_add(r0, hc(0));
    let d = r0 * h;
    // C = (1/120)_dd + d: |d| < 2^−8/720·1.01 < 1/120, two exact Fast2Sums around one
    // rounding.
    let f5 = inv_fact::<T, N>(5);
    let (ch, ce) = fast_two_sum(f5.terms()[0], d);
    let (c0, c1) = fast_two_sum(ch, f5.terms()[1] + ce);
    let mut cv = [T::ZERO; N];
    cv[0] = c0;
    cv[1] = c1;
    let c = E::<T, N>::from_normalized(cv);
    // Every sum adds a correction at most 2^−8 of the value it is added to: `add_small`.
    let b = fast2::add_small(&inv_fact::<T, N>(4), &fast2::mul(r, &c));
    let half = E::<T, N>::from_term(T::from_f64(0.5));
    let a = fast2::add_small(&half, &fast2::mul(r, &inv_fact::<T, N>(3)));
    let r2 = fast2::sqr(r);
    let r4 = fast2::sqr(&r2);
    let m1 = fast2::add_small(r, &fast2::mul(&r2, &a));
    fast2::add_small(&m1, &fast2::mul(&r4, &b))
}

/// Relative error bound of [`expm1_exp_estrin`] against e^R − 1 for the exact value R of its
/// argument, |R| ≤ 2^−9 + 2^−16 (exp's reduction, module doc "Table step"; module doc, "exp's
/// core at f64 N = 2").
fn expm1_exp_estrin_rel(t: &Tier) -> f64 {
    let (u, mu) = (t.u, t.m);
    let cat = |a: f64, b: f64| a + b + a * b;
    let rho = p2(-9) + p2(-16);
    // The greedy pairs of 1/k! (inv_fact): relative γ = u²(1 + u).
    let gamma = u * u * (1.0 + u);
    // d = RN(r₀·h) against R·H(R): r₀ vs R (u), h's four fmas and rounded constants (3u),
    // the product (u), second order (0.02u); H cut after r₀⁴/10! (remainder ≤ ρ⁵/11!·1.01
    // against H ≥ (1/720)(1 − ρ)).
    let tr_h = rho.powi(5) / 39916800.0 * 1.01 * 720.0 / (1.0 - rho);
    let h_max = (1.0 / 720.0) * (1.0 + rho);
    let e_d = rho * h_max * (5.02 * u + tr_h);
    // ĉ: the rounding of ℓ (|ℓ| ≤ 2.01u/120), the pair of 1/120; C ≥ 1/120 − ρ·h_max.
    let c_min = 1.0 / 120.0 - rho * h_max;
    let eps_c = (e_d + 2.01 * u * u / 120.0 + gamma / 120.0) / c_min;
    let eps_rc = cat(eps_c, mu);
    // The four sums are `fast2::add_small`, α_s(κ) for the ratio κ of each (1.01: the
    // operands' own errors).
    let small = |kappa: f64| fast2::add_small_rel_bound::<f64>(kappa);
    // b = (1/24)_dd + R·ĉ against B ≥ 1/24 − ρ·C_max.
    let c_max = 1.0 / 120.0 + rho * h_max;
    let eps_b = cat(
        (gamma / 24.0 + rho * c_max * eps_rc) / (1.0 / 24.0 - rho * c_max),
        small(rho * c_max * 24.0 * 1.01),
    );
    // a = ½ + R·(1/6)_dd against A ≥ ½ − ρ/6.
    let eps_a = cat(
        (rho / 6.0) * cat(gamma, mu) / (0.5 - rho / 6.0),
        small(rho / 3.0 * 1.01),
    );
    // r² (μ), r⁴ (μ on the square of r²'s).
    let eps_r4 = cat(cat(mu, mu), mu);
    let eps_u1 = cat(cat(mu, eps_a), mu);
    let eps_u2 = cat(cat(eps_r4, eps_b), mu);
    // m₁ = R + u₁ against R + R²A (|R²A| ≤ ρA_max|R|/(1 − ρA_max) of it), then m = m₁ + u₂
    // against M = e^R − 1, |M| ≥ |R|(1 − ρ/2), |R + R²A| ≤ |R|(1 + ρA_max), |R⁴B| ≤ ρ³B_max|R|.
    let a_max = 0.5 + rho / 6.0;
    let b_max = 1.0 / 24.0 + rho * c_max;
    let eps_m1 = cat(
        rho * a_max / (1.0 - rho * a_max) * eps_u1,
        small(rho * a_max * 1.01),
    );
    let m = ((1.0 + rho * a_max) * eps_m1 + rho.powi(3) * b_max * eps_u2) / (1.0 - rho / 2.0);
    cat(m, small(rho.powi(3) * b_max * 1.01 / (1.0 - rho * a_max)))
}

/// s, the doublings of the exp_m1 core for a reduced argument with leading term r₀ ≠ 0 at
/// scaling exponent σ_N (module doc, "Scaling").
#[inline]
pub(crate) fn doublings(sig: i32, r0: f64) -> i32 {
    (ilogb(r0) + 1 + sig).max(0)
}

/// M_k, the terms of Horner step k (q_k = q_{k+1}·r′ + c_k) of the exp_m1 core at N terms:
/// N − ⌊((k − 1)σ_N − 4)/(p − 1)⌋ clamped to [1, N] (module doc: an error at step k reaches
/// m₀ with weight ω^{k−1} ≤ 2^{−(σ_N+1)(k−1)}).
pub(crate) fn horner_terms<T: FloatTerm>(n: usize, sig: i32, k: usize) -> usize {
    let drop = ((k as i32 - 1) * sig - 4).max(0) / (T::PRECISION as i32 - 1);
    (n as i32 - drop).clamp(1, n as i32) as usize
}

/// Horner steps q ← q·r′ + c (c over `cs` from the last to the first) at M terms; q and r′
/// as padded term arrays (q's terms beyond its own precision are zeros; r′ is cut to its
/// first M terms, a normalised double-word for M = 2).
#[inline(never)]
fn horner_stage<T: FloatTerm, const M: usize>(
    q: &mut [T; MAX_TERMS],
    rp: &[T; MAX_TERMS],
    cs: &[f64],
) {
    let mut qt = [T::ZERO; M];
    qt.copy_from_slice(&q[..M]);
    let mut rt = [T::ZERO; M];
    rt.copy_from_slice(&rp[..M]);
    if M == 2 {
        let (h, l) = fast_two_sum(rt[0], rt[1]);
        rt[0] = h;
        rt[1] = l;
    }
    let r = E::<T, M>::from_normalized(rt);
    let mut qm = E::<T, M>::from_normalized(qt);
    for &ck in cs.iter().rev() {
        qm = fast2::add_dominant_term(&fast2::mul(&qm, &r), T::from_f64(ck));
    }
    q[..M].copy_from_slice(qm.terms());
}

/// Chunks of ln 2 for [`sub_k_ln2`] at N = 2 (module doc, "ln x"): f64, 42 bits each (chunk i
/// holds the bits of weights 2^{−1−42i} … 2^{−42(i+1)} of ln 2, truncated; generated with
/// mpmath, checked against MPFR by the tests).
pub(crate) const LN2_CHUNKS_F64: [u64; LN2_CHUNKS_MAX] = [
    0x3fe62e42fefa3800,
    0x3d2ef35793c76000,
    0x3a8cc01f97b56000,
    0,
];

/// The same for f32 terms: 16 bits each.
pub(crate) const LN2_CHUNKS_F32: [u32; LN2_CHUNKS_MAX] =
    [0x3f317200, 0x35bfb800, 0x2f51cf00, 0x26f35600];

/// Most chunks of ln 2 used.
pub(crate) const LN2_CHUNKS_MAX: usize = 4;

/// (m, b) of the N = 2 combination ℓ + k·ln 2: m chunks of p − b bits, for |k| < 2^b.
pub(crate) fn ln2_chunk_plan<T: FloatTerm>() -> (usize, i32) {
    if T::PRECISION == 53 {
        (3, 11)
    } else {
        (4, 8)
    }
}

/// x − k·ln 2. N = 2 with |k| < 2^b: the double-word K = −k·(C₀ + … + C_{m−1}) (chunks of
/// ln 2 with p − b bits: every product exact; Fast2Sum of the first two, the rest added to the
/// low part, Fast2Sum) and one accurate addition x + K (module doc, "ln x"). Otherwise k·ln 2
/// from N + 2 terms of ln 2 and x as one exact sum rounded to N terms.
pub(crate) fn sub_k_ln2<T: FloatTerm, const N: usize>(x: &E<T, N>, k: i32) -> E<T, N> {
    if k == 0 {
        return *x;
    }
    let (m, b) = ln2_chunk_plan::<T>();
    if N == 2 && k.unsigned_abs() < 1u32 << b {
        let kt = T::from_f64(-(k as f64));
        let c = |i: usize| term_from_bits::<T>(LN2_CHUNKS_F64[i], LN2_CHUNKS_F32[i]);
        let (s, mut e) = fast_two_sum(kt * c(0), kt * c(1));
        for i in 2..m {
            e = e + kt * c(i);
        }
        let (h, l) = fast_two_sum(s, e);
        let mut t = [T::ZERO; N];
        t[0] = h;
        t[1] = l;
        return fast2::add(x, &E::from_normalized(t));
    }
    sub_k_ln2_j(x, k, 0)
}

/// x − k·ln 2 − j/256 (k·ln 2 from N + 2 terms of ln 2, j/256 exact), as one exact sum
/// rounded to N terms.
fn sub_k_ln2_j<T: FloatTerm, const N: usize>(x: &E<T, N>, k: i32, j: i32) -> E<T, N> {
    let c = constant_terms::<T>(Constant::Ln2);
    let m = (N + 2).min(TABLE_TERMS);
    let kt = T::from_f64(-(k as f64));
    if N == 2 {
        // Near-decreasing magnitudes, so that one VecSum pass of the certified rounding
        // usually suffices: x₀, k·c₀, j/256, x₁, then the products' errors and the small
        // products by level (module doc, "Reduction").
        let t = x.terms();
        let (p0, e0) = two_prod(kt, c[0]);
        let (p1, e1) = two_prod(kt, c[1]);
        let (p2, e2) = two_prod(kt, c[2]);
        let (p3, e3) = two_prod(kt, c[3]);
        let jt = T::from_f64(-(j as f64) / 256.0);
        return if j != 0 {
            fast2::round_sum_list::<T, N, 11>([t[0], p0, jt, t[1], e0, p1, e1, p2, e2, p3, e3])
        } else {
            fast2::round_sum_list::<T, N, 10>([t[0], p0, t[1], e0, p1, e1, p2, e2, p3, e3])
        };
    }
    let mut list = [T::ZERO; 9 + 2 * TABLE_TERMS];
    list[..N].copy_from_slice(x.terms());
    let mut len = N;
    for &ci in c[..m].iter() {
        let (p, e) = two_prod(kt, ci);
        list[len] = p;
        list[len + 1] = e;
        len += 2;
    }
    if j != 0 {
        list[len] = T::from_f64(-(j as f64) / 256.0);
        len += 1;
    }
    round_sum::<T, N>(&list[..len])
}

/// ln 2 = LN2_HI + LN2_LO + O(2^−106) (f64 leading terms of the table; for picking j only).
pub(crate) const LN2_HI: f64 = core::f64::consts::LN_2;
pub(crate) const LN2_LO: f64 = 2.319_046_813_846_299_6e-17;

/// Overflow/underflow thresholds of exp on the leading term (f64 or f32).
fn exp_limits<T: FloatTerm>() -> (f64, f64) {
    if T::PRECISION == 53 {
        (710.0, -746.0)
    } else {
        (89.0, -104.0)
    }
}

/// e^x·2^{shift} for finite x with x₀ inside the thresholds: reduction, core, exact scaling.
pub(crate) fn exp_scaled<T: FloatTerm, const N: usize>(x: &E<T, N>, shift: i32) -> E<T, N> {
    if T::PRECISION == 53 && N >= 3 {
        // f64 N ≥ 3: the fixed-point path (module `fixed`; its own bound).
        if let Some(y) = exp_fixed(x, shift) {
            return y;
        }
    }
    let (k, j, r) = exp_reduce(x);
    let m = expm1_core_plan(&r, EXP_EMAX, true);
    let t = exp_j256::<T, N>(j);
    let e = if j == 0 {
        fast2::add_dominant_term(&m, T::ONE)
    } else {
        fast2::add(&t, &fast2::mul(&t, &m))
    };
    scale(&e, k + shift)
}

/// The reduction of [`exp_scaled`]: (k, j, r̂) with r̂ = x − k·ln 2 − j/256 rounded to N
/// terms (module doc, "Reduction" and "Table step").
pub(crate) fn exp_reduce<T: FloatTerm, const N: usize>(x: &E<T, N>) -> (i32, i32, E<T, N>) {
    let (k, j) = exp_kj(hi(x));
    // An inline const: `sub_k_ln2_j_dd` is instantiated for f64 N = 2 only.
    if const { T::PRECISION == 53 && N == 2 } {
        return (k, j, sub_k_ln2_j_dd(x, k, j));
    }
    (k, j, sub_k_ln2_j(x, k, j))
}

/// x − k·ln 2 − j/256 at f64 N = 2 (module doc, "Reduction at f64 N = 2"): x₀ − k·C₀ exact
/// (Sterbenz), three 2Sums, the small rest summed in f64 (three roundings), a final 2Sum.
#[inline(always)]
fn sub_k_ln2_j_dd<T: FloatTerm, const N: usize>(x: &E<T, N>, k: i32, j: i32) -> E<T, N> {
    let t = x.terms();
    let kt = T::from_f64(-(k as f64));
    let c = |i: usize| term_from_bits::<T>(LN2_CHUNKS_F64[i], LN2_CHUNKS_F32[i]);
    let d0 = t[0] + kt * c(0);
    let (s1, e1) = crate::eft::two_sum(d0, T::from_f64(-(j as f64) / 256.0));
    let (s2, e2) = crate::eft::two_sum(t[1], kt * c(1));
    let (s3, e3) = crate::eft::two_sum(s1, s2);
    let lo = ((e3 + e1) + e2) + kt * c(2);
    let (h, l) = crate::eft::two_sum(s3, lo);
    let mut out = [T::ZERO; N];
    out[0] = h;
    out[1] = l;
    E::from_normalized(out)
}

/// The absolute error bound Δ_r of [`sub_k_ln2_j_dd`] (module doc, "Reduction at f64 N = 2").
fn sub_k_ln2_j_dd_err() -> f64 {
    let u = f64::EPSILON / 2.0;
    let k_max = 1076.0;
    let s1 = p2(-8) + p2(-31);
    let s2 = (2.0 * u * 746.0 + k_max * p2(-42)) * (1.0 + u);
    let s3 = (s1 + s2) * (1.0 + u);
    let (e1, e2, e3) = (u * s1, u * s2, u * s3);
    let kc2 = k_max * p2(-84);
    let a1 = e3 + e1;
    let a2 = a1 * (1.0 + u) + e2;
    let a3 = a2 * (1.0 + u) + kc2;
    u * (a1 + a2 + a3) + k_max * p2(-126)
}

/// (k, j) of exp's reduction from the leading term x₀ (module doc, "Reduction").
#[inline]
pub(crate) fn exp_kj(x0: f64) -> (i32, i32) {
    let k = (x0 * core::f64::consts::LOG2_E).round() as i32;
    // An f64 approximation of x − k·ln 2 (error < 2^−15 for f32 terms, far less for f64)
    // picks j; |r̂| ≤ 2^−9 + 2^−15 < 2^−8 (module doc).
    let kf = k as f64;
    let ra = (-kf).mul_add(LN2_HI, x0) - kf * LN2_LO;
    let j = ((ra * 256.0).round() as i32).clamp(-EXP_TABLE_J, EXP_TABLE_J);
    (k, j)
}

/// e^x·2^{shift} at f64 N ≥ 3 through the fixed-point module [`super::fixed`] (x inside the
/// thresholds); `None` where that module declines (never expected).
fn exp_fixed<T: FloatTerm, const N: usize>(x: &E<T, N>, shift: i32) -> Option<E<T, N>> {
    let (k, j) = exp_kj(hi(x));
    let mut xt = [0.0f64; N];
    for (o, t) in xt.iter_mut().zip(x.terms()) {
        *o = t.to_f64();
    }
    let y = super::fixed::exp_terms(&xt, k, j, shift)?;
    let mut out = [T::ZERO; N];
    for (o, t) in out.iter_mut().zip(&y) {
        *o = T::from_f64(*t);
    }
    Some(E::from_normalized(out))
}

/// y·2^k, with overflow to +∞ and underflow renormalised exactly.
pub(crate) fn scale<T: FloatTerm, const N: usize>(y: &E<T, N>, k: i32) -> E<T, N> {
    let z = y.ldexp(k);
    let h = z.hi();
    if !h.is_finite() {
        return E::from_term(h);
    }
    // Terms rounded into the subnormal range keep the invariant (rounding is monotone and
    // ulp(t_i·2^k) ≥ the rounded t_{i+1}·2^k); a double-word is renormalised (exactly: two
    // multiples of σ) so that |lo| ≤ ½ulp(hi) as the N = 2 algorithms assume.
    if N == 2 && z.terms()[1] != T::ZERO && z.terms()[1].abs() < T::MIN_POSITIVE {
        return E::from_terms(*z.terms());
    }
    z
}

/// e^x with IEEE special values.
pub(crate) fn exp<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    exp_shifted(x, 0)
}

/// e^x·2^{shift} with IEEE special values (shift ≤ 0 keeps e^x's thresholds meaningful).
pub(crate) fn exp_shifted<T: FloatTerm, const N: usize>(x: &E<T, N>, shift: i32) -> E<T, N> {
    match exp_special(x, shift) {
        Some(v) => v,
        None => exp_scaled(x, shift),
    }
}

/// The special values of [`exp_shifted`] (NaN, overflow, underflow, e⁰ = 1); `None` when x
/// takes the regular path [`exp_scaled`].
pub(crate) fn exp_special<T: FloatTerm, const N: usize>(
    x: &E<T, N>,
    shift: i32,
) -> Option<E<T, N>> {
    if x.is_nan() {
        return Some(special(f64::NAN));
    }
    let x0 = hi(x);
    let (over, under) = exp_limits::<T>();
    // e^x·2^shift stays finite a little further when shift < 0 (sinh, cosh).
    let over = over - shift.min(0) as f64 * core::f64::consts::LN_2;
    if x0 == f64::INFINITY || x0 >= over {
        return Some(special(f64::INFINITY));
    }
    if x0 <= under {
        return Some(E::zero());
    }
    if x0 == 0.0 && shift == 0 {
        return Some(E::one());
    }
    None
}

/// e^x − 1 with IEEE special values.
pub(crate) fn expm1<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if let Some(y) = expm1_special(x) {
        return y;
    }
    let x0 = hi(x);
    if x0.abs() < 0.5 {
        return expm1_reduced(x);
    }
    exp(x).add_term(-T::ONE)
}

/// The special values of exp_m1 (NaN, −1 below −(P + 5)·ln 2, x itself when tiny); `None`
/// for the regular paths (the core for |x₀| < 1/2, else e^x − 1).
pub(crate) fn expm1_special<T: FloatTerm, const N: usize>(x: &E<T, N>) -> Option<E<T, N>> {
    if x.is_nan() {
        return Some(special(f64::NAN));
    }
    let x0 = hi(x);
    let pn = prec_bits::<T>(N);
    if x0 == f64::NEG_INFINITY || x0 < -((pn + 5) as f64) * core::f64::consts::LN_2 {
        return Some(special(-1.0));
    }
    if below_pow2(x, -(pn + 3)) {
        return Some(*x);
    }
    None
}

/// k with v·2^{−k} ∈ [1/√2, √2) for a positive finite f64 v.
pub(crate) fn ln_exponent(v: f64) -> i32 {
    let e = ilogb(v);
    let m = v * pow2(-e);
    if m >= core::f64::consts::SQRT_2 {
        e + 1
    } else {
        e
    }
}

/// ln(1 + w) for 1 + w ∈ [0.707, 1.415]: Newton on exp_m1 with a run-time convergence check.
pub(crate) fn ln1p_core<T: FloatTerm, const N: usize>(w: &E<T, N>) -> E<T, N> {
    let pn = prec_bits::<T>(N);
    if w.is_zero() || below_pow2(w, -(pn + 3)) {
        return *w;
    }
    let mut y = ln1p_seed(w);
    let h = newton_h::<T>(N);
    for _ in 0..MAX_NEWTON {
        let e = expm1_table(&y);
        let c = newton_quotient(&fast2::sub(w, &e), &fast2::add_dominant_term(&e, T::ONE));
        let yb = hi(&y);
        y = fast2::add(&y, &c);
        let c0 = hi(&c);
        if c0 == 0.0 || c0.abs() <= yb.abs() * pow2(-h) {
            break;
        }
        if !c0.is_finite() {
            break;
        }
    }
    y
}

/// The Newton correction c = num/den of the ln_1p core: at (f64, N = 2) the IEEE quotient
/// of the leading terms (c is below 2^−h|y| when the step is accepted, so its own relative
/// accuracy of about 3u suffices; module doc, "ln_1p core"), elsewhere the accurate
/// division.
#[inline(always)]
pub(crate) fn newton_quotient<T: FloatTerm, const N: usize>(
    num: &E<T, N>,
    den: &E<T, N>,
) -> E<T, N> {
    if N == 2 && T::PRECISION == 53 {
        return E::from_term(num.hi() / den.hi());
    }
    fast2::div(num, den)
}

/// e^y − 1 for the Newton steps of ln_1p by exp's table step (module doc): j = round(256y₀);
/// j = 0: the core with σ for |y| < 2^−8; 0 < |j| ≤ 90: r₂ = y − j/256 (one add),
/// m = expm1(r₂), (e^{j/256} − 1) + e^{j/256}·m from the tables; |j| > 90 (only far from
/// convergence): the general core.
fn expm1_table<T: FloatTerm, const N: usize>(y: &E<T, N>) -> E<T, N> {
    let y0 = hi(y);
    let j = (y0 * 256.0).round();
    if j == 0.0 {
        return expm1_reduced_with(y, EXP_EMAX);
    }
    if j.is_nan() || j.abs() > EXP_TABLE_J as f64 {
        return expm1_reduced(y);
    }
    let j = j as i32;
    let r = fast2::add_term(y, T::from_f64(-(j as f64) / 256.0));
    let m = expm1_reduced_with(&r, EXP_EMAX);
    fast2::add(
        &expm1_j256::<T, N>(j),
        &fast2::mul(&exp_j256::<T, N>(j), &m),
    )
}

/// The convergence threshold h of the last Newton step of ln_1p (module doc): ⌈P/2⌉, less 2
/// for N ≤ 2 (where the seed is an f64 one, about 53 bits, so that one step usually suffices).
pub(crate) fn newton_h<T: FloatTerm>(n: usize) -> i32 {
    let h = (prec_bits::<T>(n) + 1) / 2;
    if n <= 2 {
        h - 2
    } else {
        h
    }
}

/// The first M terms of `x` (ulp-nonoverlapping again) as an M-term expansion, M ≤ N.
fn truncated<T: FloatTerm, const N: usize, const M: usize>(x: &E<T, N>) -> E<T, M> {
    let mut t = [T::ZERO; M];
    t.copy_from_slice(&x.terms()[..M]);
    if M == 2 {
        // A normalised double-word (|lo| ≤ ½ulp(hi)), as the N = 2 algorithms assume.
        let (h, l) = fast_two_sum(t[0], t[1]);
        t[0] = h;
        t[1] = l;
    }
    E::from_normalized(t)
}

/// `x` (M ≤ N terms) padded with zeros to N terms.
fn padded<T: FloatTerm, const M: usize, const N: usize>(x: &E<T, M>) -> E<T, N> {
    let mut t = [T::ZERO; N];
    t[..M].copy_from_slice(x.terms());
    E::from_normalized(t)
}

/// ln(1 + w) at M terms, padded to N: a seed of the Newton iteration.
fn seed_at<T: FloatTerm, const N: usize, const M: usize>(w: &E<T, N>) -> E<T, N> {
    let y = ln1p_core::<T, M>(&truncated::<T, N, M>(w));
    if y.is_finite() {
        padded(&y)
    } else {
        E::from_f64(ln_1p_seed(w.to_f64()))
    }
}

/// Starting value of the Newton iteration of ln_1p (precision doubling): an f64 ln_1p
/// ([`super::seeds::ln_1p_seed`], IEEE operations only) for N ≤ 2, else the core at
/// M = ⌊N/2⌋ + 1 terms (which carries more than P/2 + 40 bits, so
/// that one full-precision step usually passes the convergence check). Only a heuristic: the
/// bound rests on the check of the last step alone.
fn ln1p_seed<T: FloatTerm, const N: usize>(w: &E<T, N>) -> E<T, N> {
    match N {
        3 => seed_at::<T, N, 2>(w),
        4 | 5 => seed_at::<T, N, 3>(w),
        6 | 7 => seed_at::<T, N, 4>(w),
        8 => seed_at::<T, N, 5>(w),
        _ => E::from_f64(ln_1p_seed(w.to_f64())),
    }
}

/// The exact sum of x·2^{−k} and the machine numbers `extra`, rounded to N terms.
pub(crate) fn scaled_sum<T: FloatTerm, const N: usize>(
    x: &E<T, N>,
    k: i32,
    extra: &[T],
) -> E<T, N> {
    let mut list = [T::ZERO; 10];
    let xs = x.ldexp(-k);
    if N == 2 {
        // The same list as below, of fixed length (fast2::round_sum_list: same operations).
        let t = xs.terms();
        match extra {
            [a] => return fast2::round_sum_list::<T, N, 3>([t[0], t[1], *a]),
            [a, b] => return fast2::round_sum_list::<T, N, 4>([t[0], t[1], *a, *b]),
            _ => {}
        }
    }
    list[..N].copy_from_slice(xs.terms());
    list[N..N + extra.len()].copy_from_slice(extra);
    round_sum::<T, N>(&list[..N + extra.len()])
}

/// (k, ℓ) with ln x = k·ln 2 + ℓ for finite x > 0.
fn ln_parts<T: FloatTerm, const N: usize>(x: &E<T, N>) -> (i32, E<T, N>) {
    let k = ln_exponent(hi(x));
    let w = if N == 2 {
        ln_w2(x, k)
    } else {
        scaled_sum(x, k, &[-T::ONE])
    };
    (k, ln1p_core(&w))
}

/// w = x·2^{−k} − 1 at N = 2, bit for bit `scaled_sum(x, k, &[−1])`: with t = x·2^{−k} (the
/// same scaled terms), t₀ ∈ [1/√2, √2)(1 ± u) ⊂ [½, 2], so t₀ − 1 is exact (Sterbenz) and
/// 2Sum(t₀ − 1, t₁) = (s, e) is the exact sum t₀ + t₁ − 1 as a normalised pair with
/// s = RN(sum), the pair that the certified rounding (or the exact accumulation) of the
/// list [t₀, t₁, −1] returns for an exactly representable sum; a zero sum is +0 as there
/// (the naive sum (t₀ + t₁) − 1 is then +0 in round-to-nearest). No VecSum passes.
#[inline(always)]
fn ln_w2<T: FloatTerm, const N: usize>(x: &E<T, N>, k: i32) -> E<T, N> {
    let t = x.ldexp(-k);
    let (t0, t1) = (t.terms()[0], t.terms()[1]);
    let (s, e) = crate::eft::two_sum(t0 - T::ONE, t1);
    if s == T::ZERO {
        return E::from_term(T::ZERO);
    }
    let mut v = [T::ZERO; N];
    v[0] = s;
    v[1] = e;
    E::from_normalized(v)
}

/// ln x·(or with `extra` added to the exponent: ln(x·2^{extra})) with IEEE special values.
pub(crate) fn ln_shifted<T: FloatTerm, const N: usize>(x: &E<T, N>, extra: i32) -> E<T, N> {
    if let Some(y) = ln_special(x) {
        return y;
    }
    let (k, l) = ln_parts(x);
    sub_k_ln2(&l, -(k + extra))
}

/// The public ln (`Unary::Ln`): at f64 N = 2 the table path of [`super::ln_dd`], at f64
/// N ≥ 3 one Newton step on the fixed-point exp ([`ln_newton`]) away from 1, else
/// [`ln_shifted`] (module doc, "ln at f64 N ≥ 3").
pub(crate) fn ln_public<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    // At f64 N = 2 the table path of `ln_dd` (its module doc).
    if const { T::PRECISION == 53 && N == 2 } {
        if let Some(y) = ln_special(x) {
            return y;
        }
        let t = x.terms();
        let x2 = Expansion::<f64, 2>::from_normalized([t[0].to_f64(), t[1].to_f64()]);
        if let Some(y) = super::ln_dd::ln_dd(&x2) {
            let mut out = [T::ZERO; N];
            out[0] = T::from_f64(y.terms()[0]);
            out[1] = T::from_f64(y.terms()[1]);
            return E::from_normalized(out);
        }
    }
    // An inline const: `ln_newton` is not instantiated for f32 or N ≤ 2.
    if const { T::PRECISION == 53 && N >= 3 } {
        if let Some(y) = ln_newton(x) {
            return y;
        }
    }
    ln_shifted(x, 0)
}

/// Band |x₀ − 1| < 1/16 left to the ln_1p-core path, and the range 2^−500 ≤ x₀ ≤ 2^500 of
/// [`ln_newton`] (module doc, "ln at f64 N ≥ 3").
const LN_NEWTON_BAND: f64 = 1.0 / 16.0;
const LN_NEWTON_EMAX: i32 = 500;

/// ln x at f64 N ≥ 3 for x₀ outside the band and inside the range (`None` elsewhere, and
/// for special values): seed y = ln at M = max(2, ⌈N/2⌉) terms of x's first M terms,
/// ŵ = x·e^{−y} − 1, ln x ≈ y + (ŵ − ŵ₀²/2) (module doc, "ln at f64 N ≥ 3").
fn ln_newton<T: FloatTerm, const N: usize>(x: &E<T, N>) -> Option<E<T, N>> {
    if x.is_nan() {
        return None;
    }
    let x0 = hi(x);
    if !(x0 >= p2(-LN_NEWTON_EMAX) && x0 <= p2(LN_NEWTON_EMAX)) || (x0 - 1.0).abs() < LN_NEWTON_BAND
    {
        return None;
    }
    let y: E<T, N> = match N {
        3 | 4 => padded(&ln_public::<T, 2>(&truncated::<T, N, 2>(x))),
        5 | 6 => padded(&ln_public::<T, 3>(&truncated::<T, N, 3>(x))),
        7 | 8 => padded(&ln_public::<T, 4>(&truncated::<T, N, 4>(x))),
        _ => return None,
    };
    if !y.is_finite() {
        return None;
    }
    let e = exp(&y.neg());
    let w = fast2::add_term(&fast2::mul(x, &e), -T::ONE);
    let w0 = hi(&w);
    let h = T::from_f64(0.5 * w0 * w0);
    Some(fast2::add(&y, &fast2::add_term(&w, -h)))
}

/// The special values of ln (NaN, x < 0, ±0, +∞); `None` for the regular path.
pub(crate) fn ln_special<T: FloatTerm, const N: usize>(x: &E<T, N>) -> Option<E<T, N>> {
    if x.is_nan() {
        return Some(special(f64::NAN));
    }
    let x0 = hi(x);
    if x0 < 0.0 {
        return Some(special(f64::NAN));
    }
    if x0 == 0.0 {
        return Some(special(f64::NEG_INFINITY));
    }
    if x0 == f64::INFINITY {
        return Some(special(f64::INFINITY));
    }
    None
}

/// ln(1 + x) with IEEE special values; never rounds 1 + x.
pub(crate) fn ln1p<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    match ln1p_reduce(x) {
        Err(y) => y,
        Ok((0, _)) => ln1p_core(x),
        Ok((k, w)) => sub_k_ln2(&ln1p_core(&w), -k),
    }
}

/// The special values of ln_1p (`Err`: the result) or its reduction (`Ok((k, w))`:
/// ln(1 + x) = k·ln 2 + ln(1 + w), w = (1 + x)·2^{−k} − 1 as one exact sum rounded once;
/// w = x when k = 0).
pub(crate) fn ln1p_reduce<T: FloatTerm, const N: usize>(
    x: &E<T, N>,
) -> Result<(i32, E<T, N>), E<T, N>> {
    if x.is_nan() {
        return Err(special(f64::NAN));
    }
    let x0 = hi(x);
    if x0 == f64::INFINITY {
        return Err(special(f64::INFINITY));
    }
    if x0 == f64::NEG_INFINITY {
        return Err(special(f64::NAN));
    }
    let opx = x.add_term(T::ONE);
    let v = hi(&opx);
    if v == 0.0 {
        return Err(special(f64::NEG_INFINITY));
    }
    if v < 0.0 {
        return Err(special(f64::NAN));
    }
    let k = ln_exponent(v);
    if k == 0 {
        return Ok((0, *x));
    }
    Ok((k, scaled_sum(x, k, &[T::ONE.ldexp(-k), -T::ONE])))
}

fn log2<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    let x0 = hi(x);
    if x.is_nan() || x0 < 0.0 || x0 == 0.0 || x0 == f64::INFINITY {
        return ln_shifted(x, 0);
    }
    let (k, l) = ln_parts(x);
    l.mul(&constant::<T, N>(Constant::Log2E))
        .add_term(T::from_f64(k as f64))
}

fn log10<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    let y = ln_shifted(x, 0);
    if !y.is_finite() {
        return y;
    }
    y.mul(&constant::<T, N>(Constant::Log10E))
}

fn cbrt<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    let x0 = hi(x);
    if !x.is_finite() || x0 == 0.0 {
        return special(if x.is_nan() { f64::NAN } else { cbrt_seed(x0) });
    }
    let j = ilogb(x0).div_euclid(3);
    let a = x.abs().ldexp(-3 * j);
    let mut y = E::<T, N>::from_f64(cbrt_seed(a.to_f64()));
    let h = (prec_bits::<T>(N) + 1) / 2;
    let three = T::from_f64(3.0);
    for _ in 0..MAX_NEWTON {
        let y2 = y.sqr();
        let d = y2.mul(&y).sub(&a);
        let c = d.div(&y2.mul_term(three));
        let yb = hi(&y);
        y = y.sub(&c);
        let c0 = hi(&c);
        if c0 == 0.0 || c0.abs() <= yb.abs() * pow2(-h) || !c0.is_finite() {
            break;
        }
    }
    let y = y.ldexp(j);
    if x0 < 0.0 {
        y.neg()
    } else {
        y
    }
}

/// N = 1: the function at N = 2, rounded to one term (module doc, "N = 1").
pub(crate) fn via_two<T: FloatTerm, const N: usize>(
    x: &E<T, N>,
    g: impl Fn(&E<T, 2>) -> E<T, 2>,
) -> E<T, N> {
    let y = g(&E::<T, 2>::from_term(x.hi()));
    // A double-word result of the accurate tier is normalised (|lo| ≤ ½ulp(hi)), so hi is
    // its rounding to nearest (up to the tie); non-finite results are returned as they are.
    let h = y.hi();
    if !h.is_finite() {
        return E::from_term(if y.is_nan() { T::from_f64(f64::NAN) } else { h });
    }
    let l = y.terms()[1];
    if l == T::ZERO {
        return E::from_term(h); // keeps the sign of a zero result
    }
    E::from_term(h + l)
}

/// Evaluates a function of this family (see the module doc).
pub(crate) fn eval<T: FloatTerm, const N: usize>(f: Unary, x: &E<T, N>) -> E<T, N> {
    if N == 1 {
        return via_two(x, |x2| eval(f, x2));
    }
    match f {
        Unary::Exp => exp(x),
        Unary::ExpM1 => expm1(x),
        Unary::Ln => ln_public(x),
        Unary::Ln1p => ln1p(x),
        Unary::Log2 => log2(x),
        Unary::Log10 => log10(x),
        Unary::Cbrt => cbrt(x),
        _ => special(f64::NAN),
    }
}

/// xⁿ by binary powering (negative n: reciprocal of x^|n|); powi(x, 0) = 1 for every x.
pub fn powi<T: FloatTerm, const N: usize>(x: &E<T, N>, n: i32) -> E<T, N> {
    if n == 0 {
        return E::one();
    }
    let x0 = hi(x);
    if !x.is_finite() || x0 == 0.0 {
        return special(if x.is_nan() { f64::NAN } else { x0.powi(n) });
    }
    let mut e = n.unsigned_abs();
    // Negative n: the reciprocal first, so every intermediate power lies between x⁻¹ and
    // the result (in range whenever the result is).
    let mut base = if n < 0 { x.recip() } else { *x };
    let mut acc: Option<E<T, N>> = None;
    loop {
        if e & 1 == 1 {
            acc = Some(match acc {
                None => base,
                Some(a) => a.mul(&base),
            });
        }
        e >>= 1;
        if e == 0 {
            break;
        }
        base = base.sqr();
    }
    let r = acc.unwrap_or_else(E::one);
    if r.is_nan() {
        // An intermediate overflowed in a lower term: the leading-term power decides.
        let s = if x0 < 0.0 && n % 2 != 0 { -1.0 } else { 1.0 };
        let big = n > 0 && x0.abs() > 1.0 || n < 0 && x0.abs() < 1.0;
        return special(if big { s * f64::INFINITY } else { s * 0.0 });
    }
    r
}

/// (is an integer, is an odd integer) for a finite expansion, exactly.
fn integer_parity<T: FloatTerm, const N: usize>(y: &E<T, N>) -> (bool, bool) {
    let v = y.to_rug();
    if !v.is_integer() {
        return (false, false);
    }
    let half = rug::Float::with_val(v.prec(), &v / 2u32);
    (true, !half.is_integer())
}

fn pow<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    if y.is_zero() && !y.is_nan() {
        return E::one();
    }
    let x0 = hi(x);
    if x0 == 1.0 && x.is_finite() && x.terms()[1..].iter().all(|t| *t == T::ZERO) {
        return E::one();
    }
    if x.is_nan() || y.is_nan() {
        return special(f64::NAN);
    }
    let y0 = hi(y);
    if !y0.is_finite() {
        // y = ±∞.
        let c = x.abs().cmp_value(&E::one());
        return special(match c {
            Some(core::cmp::Ordering::Equal) => 1.0,
            Some(core::cmp::Ordering::Less) => {
                if y0 > 0.0 {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
            _ => {
                if y0 > 0.0 {
                    f64::INFINITY
                } else {
                    0.0
                }
            }
        });
    }
    let x_special = x0 == 0.0 || !x0.is_finite();
    if x_special || x0 < 0.0 {
        let (int, odd) = integer_parity(y);
        if x_special {
            let neg = x0.is_sign_negative() && odd;
            let mag = if (x0 == 0.0) == (y0 < 0.0) {
                f64::INFINITY
            } else {
                0.0
            };
            return special(if neg { -mag } else { mag });
        }
        if !int {
            return special(f64::NAN);
        }
        let r = pow_positive(&x.abs(), y);
        return if odd { r.neg() } else { r };
    }
    pow_positive(x, y)
}

/// xʸ for finite x > 0 and finite y ≠ 0.
fn pow_positive<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    let y0 = hi(y);
    if y0.abs() <= 16.0 && y0 == y0.trunc() && y.terms()[1..].iter().all(|t| *t == T::ZERO) {
        return powi(x, y0 as i32);
    }
    let l = ln_shifted(x, 0);
    let z = l.mul(y);
    if z.is_nan() {
        // y·ln x overflowed in a lower term: the result is 0 or +∞.
        return special(if hi(&l) * y0 > 0.0 {
            f64::INFINITY
        } else {
            0.0
        });
    }
    exp(&z)
}

fn hypot<T: FloatTerm, const N: usize>(x: &E<T, N>, y: &E<T, N>) -> E<T, N> {
    let (x0, y0) = (hi(x), hi(y));
    if x0.is_infinite() || y0.is_infinite() {
        return special(f64::INFINITY);
    }
    if x.is_nan() || y.is_nan() || !x.is_finite() || !y.is_finite() {
        return special(f64::NAN);
    }
    let (a, b) = if x0.abs() >= y0.abs() {
        (x.abs(), y.abs())
    } else {
        (y.abs(), x.abs())
    };
    if b.is_zero() {
        return if a.is_zero() { E::zero() } else { a };
    }
    let e = ilogb(hi(&a));
    let (sa, sb) = (a.ldexp(-e), b.ldexp(-e));
    scale(&sa.sqr().add(&sb.sqr()).sqrt(), e)
}

/// Evaluates a binary function of this family.
pub(crate) fn eval_binary<T: FloatTerm, const N: usize>(
    f: Binary,
    x: &E<T, N>,
    y: &E<T, N>,
) -> E<T, N> {
    if N == 1 {
        let y2 = E::<T, 2>::from_term(y.hi());
        return via_two(x, |x2| eval_binary(f, x2, &y2));
    }
    match f {
        Binary::Pow => pow(x, y),
        Binary::Hypot => hypot(x, y),
        Binary::Atan2 => special(f64::NAN),
    }
}

// ---------------------------------------------------------------------------------------
// Error bounds (the module doc derives each).

/// The accurate tier's bounds at N, in one place.
pub(crate) struct Tier {
    pub(crate) n: usize,
    pub(crate) u: f64,
    pub(crate) a: f64,
    pub(crate) m: f64,
    pub(crate) mt: f64,
    pub(crate) d: f64,
    pub(crate) s: f64,
    pub(crate) r: f64,
    pub(crate) sub: f64,
    pub(crate) p: i32,
}

pub(crate) fn tier<T: FloatTerm>(n: usize) -> Tier {
    Tier {
        n,
        u: T::UNIT_ROUNDOFF,
        a: bounds::add_rel_bound::<T>(n),
        m: bounds::mul_rel_bound::<T>(n),
        mt: bounds::mul_term_rel_bound::<T>(n),
        d: bounds::div_rel_bound::<T>(n),
        s: bounds::sqrt_rel_bound::<T>(n),
        r: bounds::round_rel_bound::<T>(n),
        sub: (1u64 << 20) as f64 * sigma::<T>() / bounds::min_normal_result::<T>(n),
        p: prec_bits::<T>(n),
    }
}

/// Log-space contribution of a factor (1 ± e).
pub(crate) fn lg(e: f64) -> f64 {
    e / (1.0 - e)
}

/// Relative bound from a log-space bound S (S ≤ 1).
pub(crate) fn ex(s: f64) -> f64 {
    s * (1.0 + s)
}

/// True when no bound is proven (f32 with N ≥ 5: module doc).
pub(crate) fn unproven<T: FloatTerm>(n: usize) -> bool {
    T::PRECISION != 53 && n >= 5
}

/// 2^e as f64.
fn p2(e: i32) -> f64 {
    (e as f64).exp2()
}

/// Log-space bound S of the core e^r − 1 (Taylor and doublings) relative to expm1(r̂),
/// for |r̂₀| < 1/2.
pub(crate) fn expm1_core_log<T: FloatTerm>(t: &Tier) -> f64 {
    expm1_core_log_with::<T>(t, -1)
}

/// As [`expm1_core_log`] for ilogb(r̂₀) + 1 ≤ `emax` (at most σ_N + emax doublings).
fn expm1_core_log_with<T: FloatTerm>(t: &Tier, emax: i32) -> f64 {
    let (d, sig) = cached_params::<T>(t.n, emax);
    let eta = p2(-sig) * (1.0 + 4.0 * t.u);
    // Truncation.
    let mut fact = 1.0f64;
    for k in 2..=d + 1 {
        fact *= k as f64;
    }
    let trunc = eta.powi(d as i32) / (fact * (1.0 - eta) * (1.0 - eta));
    // Horner.
    let theta = eta / (2.0 * (1.0 - eta));
    let omega = theta / (1.0 - theta);
    let mut s = 0.0;
    for k in (1..d).rev() {
        // Step k at M_k terms: its add and mul, and r′ cut to M_k terms (the tail of an
        // ulp-nonoverlapping expansion after M terms is below (2u)^M/(1 − 2u) of the lead).
        let m = horner_terms::<T>(t.n, sig, k);
        let cut = if m < t.n {
            1.01 * (2.0 * t.u).powi(m as i32)
        } else {
            0.0
        };
        let (am, mm) = (bounds::add_rel_bound::<T>(m), bounds::mul_rel_bound::<T>(m));
        s = lg(am) + omega * ex(s + lg(mm) + lg(cut));
    }
    // ·r′ (μ) and ·(1/d!) from the table (μ and the table's u^N(1 + u)).
    s += 2.0 * lg(t.m) + lg(t.u.powi(t.n as i32) * (1.0 + t.u)) + lg(trunc);
    // Doublings: s_max = σ + emax, τ_j ≤ 2^{j−σ}(1 + 4u)/2.
    let smax = sig + emax;
    for j in 0..smax.max(0) {
        let tau = p2(j - sig - 1) * (1.0 + 4.0 * t.u);
        s += lg(tau * ex(s)) + lg(t.a) + lg(t.m);
    }
    s + t.sub
}

/// |ln 2 − (first N + 2 table terms)| bound t_L and K·t_L.
fn ln2_trunc<T: FloatTerm>(t: &Tier) -> f64 {
    let c = constant_terms::<T>(Constant::Ln2);
    let m = (t.n + 2).min(TABLE_TERMS);
    let mut last = 0.0;
    for ci in c[..m].iter() {
        if *ci != T::ZERO {
            last = ci.to_f64().abs();
        }
    }
    ln_k_max::<T>() * t.u * last
}

/// Largest |k| of ln's reduction x = 2^k·y (subnormal arguments included).
fn ln_k_max<T: FloatTerm>() -> f64 {
    if T::PRECISION == 53 {
        1078.0
    } else {
        152.0
    }
}

/// Relative bound of exp (in range).
pub(crate) fn exp_rel<T: FloatTerm>(t: &Tier) -> f64 {
    if T::PRECISION == 53 && t.n >= 3 {
        // The fixed-point path (module `fixed`, which derives it).
        return super::fixed::exp_rel_bound(t.n);
    }
    // j = 0: r̂ = x − k·ln 2 rounded once, |r| < 2^−8, and 1 + m̂ by add_term (at f64 N = 2
    // the reduction of `sub_k_ln2_j_dd`, with its own Δ_r).
    let dr0 = if T::PRECISION == 53 && t.n == 2 {
        sub_k_ln2_j_dd_err()
    } else {
        0.0040 * t.r + ln2_trunc::<T>(t)
    };
    let core = if T::PRECISION == 53 && t.n == 2 {
        // exp's own core at f64 N = 2 (`expm1_exp_estrin`).
        expm1_exp_estrin_rel(t)
    } else {
        ex(expm1_core_log_with::<T>(t, EXP_EMAX))
    };
    let j0 = dr0 + lg(t.a) + 0.0040 * core;
    // j ≠ 0: r̂₂ rounded once (|r₂| ≤ 0.00197), the table (u^N(1 + u)), T·m̂ (μ) weighted by
    // |m|/(1 + m) ≤ 0.00198, the add (α).
    let tab = t.u.powi(t.n as i32) * (1.0 + t.u);
    let j1 = dr0 + lg(tab) + lg(t.a) + lg(0.00198 * ex(lg(core) + lg(t.m)));
    ex(j0.max(j1)) * FIN
}

/// Relative bound of exp_m1.
pub(crate) fn expm1_rel<T: FloatTerm>(t: &Tier) -> f64 {
    let small = ex(expm1_core_log::<T>(t));
    let large = ex(lg(t.a) + 2.55 * exp_rel::<T>(t));
    let tiny = p2(-t.p - 4) * 1.02;
    small.max(large).max(tiny) * FIN
}

/// Log-space bound of the ln_1p core (Newton on exp_m1) relative to ln1p(ŵ).
pub(crate) fn ln1p_core_log<T: FloatTerm>(t: &Tier) -> f64 {
    let de = ex(expm1_core_log::<T>(t))
        .max(expm1_table_rel::<T>(t))
        .max(p2(-t.p - 4) * 1.02);
    let h = newton_h::<T>(t.n);
    // The quotient: the accurate division, or at (f64, N = 2) the IEEE quotient of the
    // leading terms (two cuts to one term and one rounding, each ≤ u/(1 − u)).
    let quot = if t.n == 2 && T::PRECISION == 53 {
        3.0 * lg(t.u / (1.0 - t.u))
    } else {
        lg(t.d)
    };
    let kappa = ex(2.0 * lg(t.a) + quot + lg(1.2 * 0.36 * de));
    let cr = (p2(-h) * (1.0 + 4.0 * t.u) + 1.2 * de * (1.0 + kappa)) / (1.0 - kappa);
    let er = cr / (1.0 - cr);
    let rest = (0.18 * er * er * 1.01 + 1.2 * de * (1.0 + kappa) + cr * kappa) / (1.0 - er);
    let newton = lg(t.a) + lg(rest);
    let tiny = lg(p2(-t.p - 4) * 1.02);
    newton.max(tiny) + t.sub
}

/// Relative bound δ_E of [`expm1_table`] on |y| ≤ 0.35 (module doc, "ln_1p core").
fn expm1_table_rel<T: FloatTerm>(t: &Tier) -> f64 {
    let core = ex(expm1_core_log_with::<T>(t, EXP_EMAX));
    let tab = t.u.powi(t.n as i32) * (1.0 + t.u);
    let ex3 = ex(lg(tab) + lg(core) + lg(t.m));
    let j_ne_0 = ex(lg(2.03 * tab + 1.03 * ex3 + 1.45 * t.a) + lg(t.a));
    core.max(j_ne_0)
}

/// Log-space bound of ln x (also ln_1p x beyond the core's range).
fn ln_log<T: FloatTerm>(t: &Tier) -> f64 {
    let core = 1.001 * (1.25 * lg(t.r) + ln1p_core_log::<T>(t));
    let sum = lg(t.r) + core + ln2_trunc::<T>(t) / 0.346;
    if t.n != 2 {
        return sum;
    }
    // N = 2: ℓ + K by one accurate addition (module doc, "ln x"; the exact sum remains for
    // |k| ≥ 2^b, so both are covered).
    let (m, b) = ln2_chunk_plan::<T>();
    let w = T::PRECISION as i32 - b;
    let trunc = ln_k_max::<T>() * p2(-w * m as i32);
    let mut part = t.u;
    let mut eta = 0.0;
    for i in 2..m {
        part += p2(-w * i as i32) / 0.68;
        eta += t.u * part;
    }
    let eta = eta * (1.0 + 4.0 * t.u);
    sum.max(lg(t.a) + core + trunc / 0.346 + 2.001 * eta)
}

/// Relative bound of the public ln (`ln_public`): at f64 N = 2 the table path's
/// ([`super::ln_dd::ln_dd_rel`], the only path taken there), at f64 N ≥ 3 the larger of the
/// two paths' bounds (both are taken), elsewhere [`ln_shifted_rel`].
pub(crate) fn ln_rel<T: FloatTerm>(t: &Tier) -> f64 {
    if T::PRECISION == 53 && t.n == 2 {
        return super::ln_dd::ln_dd_rel(FIN);
    }
    let old = ln_shifted_rel::<T>(t);
    if T::PRECISION == 53 && t.n >= 3 {
        return old.max(ln_newton_rel::<T>(t));
    }
    old
}

/// Relative bound of [`ln_shifted`] (the ln_1p-core path: pow and the inverse hyperbolic
/// functions call it directly).
pub(crate) fn ln_shifted_rel<T: FloatTerm>(t: &Tier) -> f64 {
    ex(ln_log::<T>(t)) * FIN
}

/// Relative bound of [`ln_newton`] (module doc, "ln at f64 N ≥ 3").
fn ln_newton_rel<T: FloatTerm>(t: &Tier) -> f64 {
    let u = t.u;
    let m = (t.n + 1) / 2;
    let m = m.max(2);
    // The seed: ln at M terms (its stated bound, either path) of x(1 + τ).
    let bm = ln_rel::<T>(&tier::<T>(m));
    let tau = 1.1 * (2.0 * u).powi(m as i32);
    let l_max = LN_NEWTON_EMAX as f64 * core::f64::consts::LN_2 * (1.0 + 1e-10) + 0.35;
    let eps_y = 1.01 * tau * (1.0 + bm) + bm * l_max;
    let wb = 1.01 * eps_y * eps_y.exp();
    // ŵ: P̂ = (1 + w)(1 + ε_E)(1 + μ), then add_term (α).
    let ee = exp_rel::<T>(t);
    let dp = (1.0 + wb) * (ee + t.m + ee * t.m);
    let dw = dp + t.a * (wb + dp);
    let wh = wb + dw;
    // h = RN(ŵ₀²/2) against w²/2, with an absolute 2^−1070 for an underflowing ŵ₀².
    let dh = 2.0 * u * wh * wh + dw * (wb + wh) / 2.0 + p2(-1070);
    let r3 = wb * wb * wb / (3.0 * (1.0 - wb));
    let a_err = t.a * (wh + wh * wh) + dw + dh + r3;
    let l_min = 0.0606;
    let q = a_err / l_min;
    (t.a + (1.0 + t.a) * q + t.sub) * FIN
}

/// Relative bound of ln_1p (core alone on its range, else as ln).
pub(crate) fn ln1p_rel<T: FloatTerm>(t: &Tier) -> f64 {
    ex(ln_log::<T>(t).max(ln1p_core_log::<T>(t))) * FIN
}

fn cbrt_rel(t: &Tier) -> f64 {
    let h = (t.p + 1) / 2;
    let eta3 = ex(2.0 * lg(t.m));
    let kap = ex(lg(t.a) + lg(t.d) + lg(t.m) + lg(t.mt));
    let cr = p2(-h) * (1.0 + 4.0 * t.u) * (1.0 + kap) + eta3 / 3.0;
    let er = 1.1 * cr;
    ex(lg(t.a) + lg(1.1 * er * er + 1.01 * (eta3 / 3.0 + cr * kap)) + t.sub) * FIN
}

/// The stated error bound of powi(·, n) at `terms` terms (module doc, "powi").
pub fn powi_error_bound<T: FloatTerm>(terms: usize, n: i32) -> ErrorBound {
    if unproven::<T>(terms) {
        return ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        };
    }
    let t = tier::<T>(terms);
    let a = n.unsigned_abs().max(1) as f64;
    let s = (a - 1.0) * lg(t.m) + if n < 0 { a * lg(t.d) } else { 0.0 } + t.sub;
    ErrorBound {
        rel: ex(s) * FIN,
        abs: terms as f64 * sigma::<T>(),
    }
}

/// The N = 1 bound from the N = 2 one (module doc, "N = 1").
pub(crate) fn from_two<T: FloatTerm>(b2: ErrorBound) -> ErrorBound {
    let u = T::UNIT_ROUNDOFF;
    let e1 = (1u64 << 20) as f64 * sigma::<T>() / bounds::min_normal_result::<T>(1);
    ErrorBound {
        rel: (u + b2.rel * (1.0 + u) + e1) * FIN,
        abs: if b2.abs > 0.0 {
            b2.abs + sigma::<T>()
        } else {
            0.0
        },
    }
}

/// The stated error bound of `f` at `n` terms (module doc; relative, `abs` for underflow).
pub fn error_bound<T: FloatTerm>(f: Unary, n: usize) -> ErrorBound {
    if n == 1 {
        return from_two::<T>(error_bound::<T>(f, 2));
    }
    if unproven::<T>(n) {
        return ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        };
    }
    let t = tier::<T>(n);
    let (rel, abs) = match f {
        Unary::Exp => (exp_rel::<T>(&t), n as f64 * sigma::<T>()),
        Unary::ExpM1 => (expm1_rel::<T>(&t), 0.0),
        Unary::Ln => (ln_rel::<T>(&t), 0.0),
        Unary::Ln1p => (ln1p_rel::<T>(&t), 0.0),
        Unary::Log2 => {
            let core = 1.25 * lg(t.r) + ln1p_core_log::<T>(&t) + lg(t.r) + lg(t.m);
            (ex(lg(t.a) + 1.001 * core) * FIN, 0.0)
        }
        Unary::Log10 => (ex(ln_log::<T>(&t) + lg(t.r) + lg(t.m)) * FIN, 0.0),
        Unary::Cbrt => (cbrt_rel(&t), 0.0),
        _ => (f64::INFINITY, f64::INFINITY),
    };
    ErrorBound { rel, abs }
}

/// The stated error bound of the binary function `f` at `n` terms.
pub fn error_bound_binary<T: FloatTerm>(f: Binary, n: usize) -> ErrorBound {
    if n == 1 {
        return from_two::<T>(error_bound_binary::<T>(f, 2));
    }
    if unproven::<T>(n) {
        return ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        };
    }
    let t = tier::<T>(n);
    match f {
        Binary::Pow => {
            let z = if T::PRECISION == 53 { 745.0 } else { 104.0 };
            let via_exp =
                ex(z * ex(lg(ln_shifted_rel::<T>(&t)) + lg(t.m)) + lg(exp_rel::<T>(&t))) * FIN;
            let via_powi = powi_error_bound::<T>(n, -16).rel;
            ErrorBound {
                rel: via_exp.max(via_powi),
                abs: n as f64 * sigma::<T>(),
            }
        }
        Binary::Hypot => {
            let s = 0.5 * lg(t.m)
                + 0.5 * lg(t.a)
                + lg(t.s)
                + lg(8192.0 * n as f64 * sigma::<T>())
                + t.sub;
            ErrorBound {
                rel: ex(s) * FIN,
                abs: 0.0,
            }
        }
        Binary::Atan2 => ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        },
    }
}
