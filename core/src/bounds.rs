//! Relative error bounds of the accurate tier, as functions of N and u = 2^-p, with their
//! proofs. These are the numbers the interval crate widens by, so they must be *upper* bounds.
//!
//! # Range of validity
//!
//! Every bound holds when each operand and the exact result is zero or has magnitude in
//! [[`min_normal_result`]`(N)`, [`max_normal_result`]`(N)`], and the operands satisfy the
//! expansion invariant (ulp-nonoverlapping, |x_{i+1}| ≤ ulp(x_i)). Below the normal range the
//! proofs' relative facts (ulp(y) ≤ 2u|y|, exact 2ProdFMA errors, relative accuracy of a
//! remainder's lead) turn into *absolute* errors of at most the smallest subnormal σ per
//! operation; an operation performs fewer than 2^12 of them, and the lower limit
//! σ·2^{43}/(2u)^N makes their total below 2^-31·(2u)^N relative, which the factor [`SLACK`]
//! (and every bound being ≥ ½(2u)^N) absorbs. The upper limit, MAX·2^-8, keeps 2Sum, 2ProdFMA
//! and the quotient digits away from overflow (an overflow that does happen gives NaN or ∞,
//! never a finite wrong value). For f64 the range at N = 8 is [2^-615, 2^1016]; for f32 it is
//! [2^-14, 2^120] at N = 4 and [2^78, 2^120] at N = 8.
//!
//! # Notation and facts used
//!
//! In the normal range ulp(y) ≤ 2u|y|, and for round-to-nearest |z − RN(z)| ≤ ½ ulp(RN(z))
//! and |z − RN(z)| ≤ u|z|. For an ulp-nonoverlapping x: |x_i| ≤ (2u)^i |x₀| and
//! |x − x₀| ≤ γ|x₀| with γ = 2u/(1 − 2u).
//!
//! # Rounding an exact sum (used by every N ≥ 3 operation)
//!
//! `ExactSum` holds the exact value S as a Shewchuk nonoverlapping expansion h₀, h₁, …, h_m
//! (decreasing magnitude): all bits of h_{k+1}, …, h_m lie below the lowest set bit 2^{L_k} of
//! h_k, so |h_{k+1} + … + h_m| < 2^{L_k}. VecSumErrBranch (2Sum version) runs
//! ε ← h₀; for k ≥ 1: (r, e) = 2Sum(ε, h_k); if e ≠ 0 emit r and set ε ← e, else ε ← r;
//! finally emit ε if non-zero; it stops after N emissions.
//! *Claim*: each emitted y_{j+1} satisfies |y_{j+1}| ≤ ulp(y_j), and after emitting y_j the
//! exact remainder V (everything not yet emitted) satisfies |V| < ulp(y_j).
//! *Proof*: when step k emits r with e ≠ 0, all of ε, h_k, r and e are multiples of 2^{L_k}
//! (everything summed so far is, and RN of a multiple of 2^L is one), so |e| ≥ 2^{L_k}, and
//! |e| ≤ ½ ulp(r). Any partial sum P of what remains, P = e + h_{k+1} + … + h_l, satisfies
//! |P| < |e| + 2^{L_k} ≤ 2|e| ≤ ulp(r); the next emitted value is either RN(P) for such a P or
//! the exact final remainder, and rounding is monotone and ulp(r) is a power of two, so it is
//! at most ulp(r) in magnitude. Emitted values are non-zero (e ≠ 0 implies r ≠ 0). ∎
//! Hence, with y_{N−1} the last kept term, |S − Σy| < ulp(y_{N−1}) ≤ (2u)^N |y₀|, and
//! |Σy| ≥ |y₀|(1 − γ), so relative to S the rounding error is at most
//! ρ_N = (2u)^N (1 − 2u)/(1 − 4u − (2u)^N(1 − 2u)) ≤ (2u)^N (1 + 8u)  ([`round_rel_bound`]).
//!
//! *Fast path*: the accurate operations normally do not build an `ExactSum`. They hand a list
//! of machine numbers with the exact sum S (from 2Sum/2ProdFMA) to `certified_round`
//! (`accurate.rs`): VecSum and VecSumErrBranch with 2Sum, all exact, and then a run-time check
//! that the output is finite and ulp-nonoverlapping and that the dropped tail D (the last ε
//! plus the unprocessed terms) satisfies 4·fl(Σ|pieces|) ≤ 3·ulp(y_{N−1}); since a float sum
//! of m ≤ 80 non-negative numbers is at least (1 − u)^{m−1} times the exact one (sums in the
//! subnormal range are exact), this gives |D| < ulp(y_{N−1}). These are exactly the two facts
//! used above, so ρ_N holds for its output too; if the check fails the exact `ExactSum`
//! reference is used.
//!
//! The other bounds are derived at their functions.

use crate::float::FloatTerm;

/// Multiplicative slack applied to every bound: covers the rounding of the f64 evaluation of
/// the formulas below (a few operations of relative error 2^-53) and, inside the stated range,
/// the absolute errors of gradual underflow (fewer than 2^12 operations each off by at most the
/// smallest subnormal, i.e. below 2^-31·(2u)^N relative at min_normal_result).
pub const SLACK: f64 = 1.0 + 1.0 / (1u64 << 30) as f64;

/// u = 2^-p as f64.
#[inline]
fn unit<T: FloatTerm>() -> f64 {
    T::UNIT_ROUNDOFF
}

/// (2u)^N as f64 for term type `T` (exact: a power of two).
pub fn two_u_pow<T: FloatTerm>(n: usize) -> f64 {
    let e = -((T::PRECISION as i32 - 1) * n as i32);
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// u^N as f64 (the unit the tests report worst errors in).
pub fn u_pow<T: FloatTerm>(n: usize) -> f64 {
    let e = -(T::PRECISION as i32 * n as i32);
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// ρ_N = (2u)^N·(1 + 8u): relative error of rounding an exact value to N ulp-nonoverlapping
/// terms (module doc, "Rounding an exact sum"). Also the bound of
/// [`crate::Expansion::from_terms`]. For N = 1 the result is the leading term of
/// VecSumErrBranch, within 2u(1 + 8u).
pub fn round_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    two_u_pow::<T>(n) * (1.0 + 8.0 * unit::<T>()) * SLACK
}

/// Relative error bound of accurate add/sub/add_term.
///
/// - N = 1: IEEE addition, u.
/// - N = 2: AccurateDWPlusDW, 3u²/(1 − 4u) ≤ 3u² + 13u³ (JMP 2017, Thm. 3.3 for u ≤ 1/64).
/// - N ≥ 3: JMMP 2016 Alg. 4 (terms interleaved by index instead of merged, VecSum,
///   VecSumErrBranch; every 2Sum is exact, so the exact sum is preserved up to the dropped
///   tail whatever the order), with the run-time
///   certificate of `certified_round` in `accurate.rs` (output ulp-nonoverlapping, dropped
///   tail < ulp of the last term) or, when that fails, the exact reference `reference_add`.
///   Both satisfy the claim of "Rounding an exact sum": ρ_N.
pub fn add_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let u = unit::<T>();
    match n {
        1 => u * SLACK,
        2 => (3.0 * u * u + 13.0 * u * u * u) * SLACK,
        _ => round_rel_bound::<T>(n),
    }
}

/// Relative error bound of accurate mul/sqr.
///
/// - N = 1: IEEE multiplication, u.
/// - N = 2: DWTimesDW with FMA (JMP Alg. 12) on normalised inputs (|xl| ≤ u|xh|,
///   |yl| ≤ u|yh|), P = |xh·yh|. The only errors are four roundings: of xl·yl (≤ u³P), of
///   xh·yl + tl0 (≤ u²P + u³P(1+u)), of xl·yh + tl1 (≤ u²P(2 + 2u + 3u²)) and of cl1 + cl2
///   (|cl1| ≤ uP(1+u), |cl2| ≤ uP(2 + 4u + 6u²), so ≤ u²P(3 + 5u + 6u²)); 2ProdFMA and the
///   final Fast2Sum are exact. Total ≤ 6u²P + 11u³P, and |xy| ≥ P(1 − u)², so the relative
///   error is ≤ (6u² + 11u³)/(1 − u)² ≤ 6u² + 24u³. (JMP and Muller–Rideau prove ≈ 4u²; we
///   use the bound derived here.)
/// - N ≥ 3 (the fast algorithm in `Expansion::mul`): with P = |x₀y₀| and |x_i| ≤ (2u)^i|x₀|,
///   the products x_i·y_j of order i + j ≤ N − 2 are split exactly by 2ProdFMA (p + e), and
///   so are the leading parts p of order N − 1. The N errors e of order N − 1
///   (|e| ≤ u|x_i y_j| ≤ u(2u)^{N−1}P) and the N − 1 exact products of order N
///   (≤ (2u)^N P each) are accumulated into one machine number t by N − 1 additions and
///   N − 1 FMAs: a recursive sum of m = 2N − 1 quantities whose magnitudes total at most
///   (N/2 + N − 1)(2u)^N P ≤ 1.5N(2u)^N P, so by the classical bound for recursive summation, each step one rounding
///   of an exact real sum (Higham, *Accuracy and Stability*, 2nd ed., §4.2, (4.4);
///   γ_{m−1} = (m−1)u/(1 − (m−1)u) ≤ 2Nu(1 + 2^-40)) its error is ≤ 3N²u(2u)^N P(1 + 2^-40).
///   The products of order > N are dropped: ≤ Σ_{k>N}(2N − 1 − k)(2u)^k P
///   ≤ (N − 2)(2u)^{N+1}P/(1 − 2u) ≤ 2Nu(2u)^N P. So the terms handed to the
///   renormalisation sum exactly to a value within ε_p = (2u)^N·3N(N+1)u·(1 + 5u) of xy
///   relatively (using |xy| ≥ P(1 − γ)²). The renormalisation (`certified_round` in
///   `accurate.rs`: VecSum and VecSumErrBranch, every 2Sum exact) certifies at run time the
///   two facts of "Rounding an exact sum" above (ulp-nonoverlapping output, dropped tail
///   < ulp of the last term), or falls back to the exact reference `reference_mul` (orders
///   < N exact, order N rounded: error ≤ (N − 1)u(2u)^N P + 2Nu(2u)^N P, within the same
///   ε_p); either way it adds ρ_N: bound ρ_N + ε_p(1 + ρ_N).
/// - Squaring, N ≥ 3 (`Expansion::sqr`, `accurate::sqr_list`): the same split of x·x with
///   each symmetric pair x_i·x_j + x_j·x_i (i < j) taken once as 2ProdFMA(2x_i, x_j). The
///   doubling is exact (x₀² finite, so |2x_i| ≤ 2|x₀| does not overflow) and 2ProdFMA splits
///   2x_i·x_j exactly as it splits x_i·x_j, so the exact orders are the same values, grouped.
///   The accumulated term t now sums ⌈N/2⌉ errors of order N − 1 and ⌊N/2⌋ products of
///   order N: m ≤ N + 1 ≤ 2N − 1 quantities whose magnitudes total no more than the product's
///   (|2x_i x_j| = |x_i y_j| + |x_j y_i| with y = x), so γ_{m−1} ≤ γ_{2N−2} keeps the error of
///   t within the product's 3N²u(2u)^N P; the dropped orders > N are the same. The
///   renormalisation and its fallback (`reference_mul(x, x)`) are the product's. Same bound.
pub fn mul_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let u = unit::<T>();
    match n {
        1 => u * SLACK,
        2 => (6.0 * u * u + 24.0 * u * u * u) * SLACK,
        _ => {
            let rho = round_rel_bound::<T>(n);
            let eps_p = two_u_pow::<T>(n) * 3.0 * (n * (n + 1)) as f64 * u * (1.0 + 5.0 * u);
            (rho + eps_p * (1.0 + rho)) * SLACK
        }
    }
}

/// Relative error bound of accurate mul_term (expansion × machine number).
///
/// - N = 1: u.
/// - N = 2: DWTimesFP with FMA (JMP Alg. 9): the only rounding is cl3 = RN(xl·y + cl1) with
///   |xl·y + cl1| ≤ uP + uP(1 + u), P = |xh·y|, so the error is ≤ u²P(2 + u) and the relative
///   error ≤ u²(2 + u)/(1 − u) ≤ 2u² + 4u³.
/// - N ≥ 3: all N products exact (2ProdFMA), then the certified renormalisation (or the
///   exact reference `reference_mul_term`): ρ_N.
pub fn mul_term_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let u = unit::<T>();
    match n {
        1 => u * SLACK,
        2 => (2.0 * u * u + 4.0 * u * u * u) * SLACK,
        _ => round_rel_bound::<T>(n),
    }
}

/// θ = 5u/(1 − 4u): contraction of the remainder per quotient digit (see
/// [`div_rel_bound`]).
fn div_theta<T: FloatTerm>() -> f64 {
    let u = unit::<T>();
    5.0 * u / (1.0 - 4.0 * u)
}

/// Relative error bound of accurate div/recip/div_term.
///
/// - N = 1: IEEE division, u.
/// - N ≥ 2: long division (`Expansion::div`). R̂₀ = x; digit d_k = RN(R̂_{k,0}/y₀) from the
///   leading term of the N-term remainder R̂_k; R̂_{k+1} = R̂_k − d_k·y formed exactly (3N
///   machine numbers: 2Sum and 2ProdFMA) and rounded to N terms by the certified
///   renormalisation, R̂_{k+1} = (R̂_k − d_k y)(1 + α_k), |α_k| ≤ ρ_N ("Rounding an exact
///   sum"); digits d₀, …, d_N.
///   *Contraction*: R̂_k is ulp-nonoverlapping, so R̂_{k,0} = R̂_k(1 + a) with
///   |a| ≤ γ/(1 − γ) = 2u/(1 − 4u); the division's RN is (1 + δ), |δ| ≤ u; y = y₀(1 + η),
///   |η| ≤ γ = 2u/(1 − 2u). So d_k·y = R̂_k(1 + a)(1 + δ)(1 + η) and
///   |R̂_k − d_k y| ≤ θ|R̂_k| with θ = (1 − 2u)/(1 − 4u)·(1 + u)/(1 − 2u) − 1 = 5u/(1 − 4u)
///   (the lower side is smaller); with the rounding, |R̂_{k+1}| ≤ θ'|R̂_k|, θ' = θ(1 + ρ_N),
///   so |R̂_k| ≤ θ'^k|x|.
///   *Drift of the rounded remainders*: with the exact remainder R*_k = x − (d₀ + … +
///   d_{k−1})y and Δ_k = R̂_k − R*_k: Δ₀ = 0, Δ_{k+1} = Δ_k + α_k R̂_{k+1}/(1 + α_k), so
///   |Δ_N| ≤ ρ_N/(1 − ρ_N)·Σ_{j=1..N}|R̂_j| ≤ ρ_N θ'/((1 − ρ_N)(1 − θ'))·|x|.
///   *Result*: with q = d₀ + … + d_N, x − q·y = (R̂_N − d_N y) − Δ_N, so
///   |x/y − q| ≤ τ|x/y| with τ = θ·θ'^N + ρ_N θ'/((1 − ρ_N)(1 − θ')). (If some R̂_k is 0 the
///   loop stops; then x − qy = −Δ_k, within the same τ.) The N + 1 digits are rounded to N
///   terms by the certified renormalisation, adding ρ_N: bound ρ_N + τ(1 + ρ_N). When a
///   certificate fails the exact reference `reference_div` is used: the same long division
///   with exact remainders (Δ = 0), whose error ρ_N + θ_r^{N+1}(1 + ρ_N), with
///   θ_r = (1 + u)/(1 − 2u)² − 1 ≤ θ (its remainder's lead is within 2u/(1 − 2u)), is
///   smaller.
pub fn div_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let u = unit::<T>();
    if n == 1 {
        return u * SLACK;
    }
    let rho = round_rel_bound::<T>(n);
    let theta = div_theta::<T>();
    let theta1 = theta * (1.0 + rho);
    let tau = theta * theta1.powi(n as i32) + rho * theta1 / ((1.0 - rho) * (1.0 - theta1));
    (rho + tau * (1.0 + rho)) * SLACK
}

/// Relative error bound of accurate sqrt.
///
/// - N = 1: IEEE square root, u.
/// - N ≥ 2 (`Expansion::sqrt`): t = RN(√x₀), r = √x. Since x = x₀(1 + ξ), |ξ| ≤ γ, and
///   |√(1 + ξ) − 1| ≤ |ξ|, the first error e₁ = r − t satisfies |e₁| ≤ ε₀|t| with
///   ε₀ = (γ + u)/(1 − u). With s_k the digits so far (s₁ = t), e_k = r − s_k, the exact
///   remainder R*_k = x − s_k² = e_k(r + s_k), and the computed one R̂_k (rounded to N terms
///   by the certified renormalisation after each exact update R̂ − 2s·d − d²) differs by
///   Δ_k with |Δ_k| ≤ ρ'Σ_{j≤k}|R̂_j|, ρ' = ρ_N/(1 − ρ_N) (as for division).
///   *One correction*: d_k = RN(R̂_{k,0}/(2t)) = (R*_k + Δ_k)(1 + a)(1 + δ)/(2t) with
///   |a| ≤ α = 2u/(1 − 4u) (lead of an ulp-nonoverlapping expansion), |δ| ≤ u, and
///   (r + s_k)/(2t) = 1 + e₁/t − e_k/(2t), so
///   e_{k+1} = e_k − d_k = e_k·β − Δ_k(1 + a)(1 + δ)/(2t) with
///   |β| ≤ θ_s = (1 + α)(1 + u)(1 + 1.5ε₀) − 1 (≈ 7.5u) while |e_k| ≤ |e₁|.
///   *Induction*, in units E_k = |e_k|/|t|, D_k = |Δ_k|/(2t²), c = (1 + α)(1 + u),
///   λ = 1 + 1.5ε₀ (so |r + s_k| ≤ 2|t|λ and |R̂_j|/(2t²) ≤ λE_j + D_j): with
///   D_max = 2ρ'λε₀ and κ = c·D_max/(1 − θ_s), E_k ≤ θ_s^{k−1}ε₀ + κ and D_k ≤ D_max for
///   k ≤ N + 1. Indeed D_k ≤ ρ'(λε₀/(1 − θ_s) + k(λκ + D_max))/(1 − ρ') ≤ D_max because
///   ρ' ≤ (2u)² makes the k(…) term and 1/(1 − θ_s) − 1 negligible against the factor 2,
///   and E_{k+1} ≤ θ_s E_k + c D_k ≤ θ_s^k ε₀ + θ_s κ + (1 − θ_s)κ. (If some R̂_k is 0 the
///   loop stops with E_k ≤ D_k/(1 − 1.5ε₀) ≤ κ.)
///   After N corrections the N + 1 digits' exact sum has relative error
///   ε_s = (θ_s^N ε₀ + κ)/(1 − ε₀); rounding them to N terms (certified) adds ρ_N: bound
///   ρ_N + ε_s(1 + ρ_N). The exact reference `reference_sqrt` (Δ = 0, κ = 0, its remainder's
///   lead within 2u/(1 − 2u) ≤ α) is within the same bound.
pub fn sqrt_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let u = unit::<T>();
    if n == 1 {
        return u * SLACK;
    }
    let gamma = 2.0 * u / (1.0 - 2.0 * u);
    let alpha = 2.0 * u / (1.0 - 4.0 * u);
    let eps0 = (gamma + u) / (1.0 - u);
    let theta = (1.0 + alpha) * (1.0 + u) * (1.0 + 1.5 * eps0) - 1.0;
    let rho = round_rel_bound::<T>(n);
    let rho1 = rho / (1.0 - rho);
    let lambda = 1.0 + 1.5 * eps0;
    let c = (1.0 + alpha) * (1.0 + u);
    let kappa = c * 2.0 * rho1 * lambda * eps0 / (1.0 - theta);
    let eps_s = (theta.powi(n as i32) * eps0 + kappa) / (1.0 - eps0);
    (rho + eps_s * (1.0 + rho)) * SLACK
}

/// Smallest magnitude of a non-zero operand or exact result for which the bounds above hold,
/// for an N-term expansion of `T`: σ·2^{43}·(2u)^{-N} with σ the smallest subnormal of `T`
/// (f64: 2^{-1031+52N}, e.g. 2^-615 at N = 8; f32: 2^{-106+23N}). See the module doc, "Range
/// of validity".
pub fn min_normal_result<T: FloatTerm>(n: usize) -> f64 {
    let sigma_exp = if T::PRECISION == 53 { -1074 } else { -149 };
    let e = sigma_exp + 43 + (T::PRECISION as i32 - 1) * n as i32;
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// Largest magnitude of an operand or exact result for which the bounds above hold:
/// MAX·2^-8.
pub fn max_normal_result<T: FloatTerm>(_n: usize) -> f64 {
    T::MAX.to_f64() / 256.0
}
