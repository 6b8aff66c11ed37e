//! Argument reduction of the trigonometric functions: x = k·(π/2) + r with |r| ≤ π/4 and k
//! known modulo 4, for an expansion of any finite magnitude (sin(10²²) and sin(10³⁰⁰) included),
//! with r relatively accurate even when x is extremely close to a multiple of π/2.
//!
//! # Algorithm (Payne–Hanek in integer arithmetic)
//!
//! Every non-zero term of x is a machine number x_i = ±M_i·2^{E_i}, M_i < 2^53 an integer
//! (f32 terms are converted to f64 exactly). With 2/π = Σ_{j≥1} b_j 2^{−j} (the bits of
//! [`crate::functions::constants::two_over_pi_words`]), we form V = x·(2/π) mod 4 in fixed
//! point with F = 64W − 2 fraction bits, held in W 64-bit limbs (the top two bits are the
//! integer part mod 4; arithmetic is modulo 2^{64W}, i.e. modulo 4).
//!
//! For one term, write s = E + F (the unit of the accumulator is 2^{−F}). Bit b_j contributes
//! M·b_j·2^{s−j} units; for j ≤ E − 2 that is a multiple of 2^{64W} units (= 4) and drops out
//! of V mod 4. We read the window G = Σ_{j=E−1}^{j₁} b_j 2^{j₁−j} of 64(W + 1) bits,
//! j₁ = E + 64W + 62, so the term's contribution is M·G·2^{−64} units plus the unread tail
//! M·Σ_{j>j₁} b_j 2^{s−j} < M·2^{−64} < 2^{−11} units. The product M·G is exact (W + 2 limbs);
//! dropping its lowest limb (truncation) loses less than 1 unit. So each term's contribution
//! is exact up to less than 1 + 2^{−11} units, and V is known up to
//! |ΔV| < N(1 + 2^{−11})·2^{−F}. For f64 terms E ≤ 971, so j₁ ≤ 3017 < 3072 (the stored bits)
//! for W ≤ [`W_MAX`].
//!
//! Rounding: k = ⌊V + ½⌋ mod 4 and r' = V − k ∈ [−½, ½), both read off the limbs exactly;
//! then r = r'·π/2.
//!
//! # Cancellation: relative accuracy of r'
//!
//! When x is close to a multiple of π/2, r' has leading zeros. We never assume how close an
//! expansion can come to kπ/2 (an N-term expansion with gaps spans up to ~2100 bits): the
//! bit length B of |r'|·2^F is checked at run time, and W is increased until
//! B ≥ pN + 66, so that |ΔV|/|r'| ≤ N(1 + 2^{−11})·2^{−(pN+65)} ≤ 2^{−(pN+61)}
//! ([`fix_rel_bound`]). Only if W reaches W_MAX (F = 1982 fraction bits) with B still
//! smaller is the check not met; then |r'| < 2^{pN+66−1982} ≤ 2^{−1492}, so |sin x| or
//! |cos x| < 2^{−1490}, below the range of every stated bound (`min_normal_result` is at
//! least 2^{−979} for f64 and far larger for f32), and the result is then only absolutely
//! accurate (to about 2^{−1975}).
//!
//! # From the fixed-point fraction to an expansion
//!
//! The top p(N + 2) bits of |r'|·2^F, cut into N + 2 chunks of p bits (each an exact machine
//! number), are summed and rounded to N terms (`fast2::round_sum`: the exact accumulation, or at
//! N = 2 the certified renormalisation, both within ρ_N; see [`crate::functions::exp_log`]): truncation
//! ≤ 2^{1−p(N+2)} relative, rounding ≤ ρ_N. Then r = r'·(π/2)_N by the accurate
//! multiplication, (π/2)_N the first N table terms of π halved (relative error
//! ≤ ½(2u)^N(1 + 4u) for f64 and for f32 up to N = 5; the f32 table stops before subnormal
//! terms, see [`crate::functions::constants`]). The total relative error of r is
//! [`super::reduction_rel_bound`].
//!
//! # Cody–Waite path for moderate |x| ([`reduce_cw`], tried first)
//!
//! Where the plan [`cw_plan`] allows it (f64 terms: every N; f32 terms: N ≤ 4), with
//! b = 16 (f64) or 8 (f32) and w = p − b: q = RN_f64(x₀·(2/π)) rounded to an integer (only
//! where |q| < 2^b; the value of q is any integer, its choice is checked below), and the exact
//! terms x_0, …, x_{N−1}, −q·C_0, …, −q·C_{m−1} summed and rounded once to N terms
//! (`fast2::round_sum`, within ρ_N: see [`crate::functions::exp_log`], "Rounding a sum
//! once"), where C_i are the chunks of π/2 of w bits each ([`CW_PIO2_F64`], [`CW_PIO2_F32`]:
//! C_i = the bits of π/2 of weights 2^{−wi} … 2^{−w(i+1)+1}, truncated, so 0 ≤ π/2 − P_m <
//! 2^{1−wm} with P_m = ΣC_i): each C_i·2^{w(i+1)−1} is an integer below 2^w and |q| < 2^b,
//! so every product q·C_i is exact (and a normal number: C_{m−1} ≥ 2^{−115} for f32 at
//! N ≤ 4). So the rounded sum is r̂ = (r + e)(1 + ρ) with r = x − q·π/2 exactly,
//! e = q(π/2 − P_m), |e| < 2^b·T_m, T_m = 2^{2−wm} (generous), |ρ| ≤ ρ_N.
//!
//! Run-time checks, else the exact reduction above is used: 2^{−c} ≤ |r̂₀| ≤ 0.785398 (r̂₀
//! the leading term). The upper check gives |r| ≤ 0.785398(1 + 2u)(1 + ρ) + 2^bT_m < π/4,
//! the range the kernel and the argument perturbation (trig.rs, steps 2–6) assume. The lower
//! check (x not too close to a multiple of π/2: a double-word can come arbitrarily close)
//! gives |r̂| ≥ 2^{−c}(1 − 2u) (the lower terms are below 2u|r̂₀|), so
//! |r| ≥ 2^{−c}(1 − 2u)/(1 + ρ) − 2^bT_m ≥ 2^{−c−1}, and r̂ = r(1 + e/r)(1 + ρ) with
//! |e/r| ≤ 2^{b+1+c}T_m. The plan takes m, the fewest chunks with
//! wm ≥ pN + b + c_min + 11 (c_min = 15 for f64, 8 for f32), and then the largest c with
//! wm ≥ pN + b + c + 11, so that |e/r| ≤ 2^{−(pN+8)}: δ_cw = 2^{b+3+c−wm} ⊕ ρ_N
//! ([`cw_rel_bound`]), below the exact path's δ_r (which carries π_N's ½(2u)^N and a
//! multiplication), so the stated bound does not change. k = q mod 4. For q = 0 (x₀ just
//! above 0.78) r = x exactly.
//!
//! ## f64 N = 2 ([`sum_cw_dd`]: m = 4, b = 16, c = 15)
//!
//! The six-term certified rounding is replaced by an exact transformation and a short tail,
//! within ρ' = 3.0001u² ≤ ρ₂ = 4u²(1 + 8u), so δ_cw and every stated bound stay as they are
//! (x₀, x₁ with |x₁| ≤ ulp(x₀); 0.78 < |x₀|; 1 ≤ |q| < 2^16):
//! 1. a = x₀ − qC₀ is exact: C₀ has 37 significant bits, so qC₀ is a multiple of 2^−36;
//!    |x₀| < 2^16·π/2 + 1 < 2^17, so ulp(x₀) ≤ 2^−36 divides it, and x₀ − qC₀ is a multiple
//!    of ulp(x₀); |x₀ − q·π/2| ≤ π/4 + u|x₀| and |q|(π/2 − C₀) < 2^−20, so |a| < 1 ≤ 2^{e₀+1}
//!    (2^{e₀} ≤ |x₀|, e₀ ≥ −1): a is representable.
//! 2. (b, β) = 2Sum(a, −qC₁), (c, γ) = 2Sum(x₁, −qC₂), (d, δ) = 2Sum(b, c) are exact (and
//!    every q·C_j is), so S = x − q·P₄ = d + δ + β + γ − qC₃ exactly, with |qC₁| < 2^−20,
//!    |x₁| ≤ 2^−36, |qC₂| < 2^−57, |qC₃| < 2^−94, |δ| ≤ u|d|, |β| ≤ u|b|, |γ| ≤ u|c| ≤ 2^−88.9
//!    and |b| ≤ (1 + u)|d| + |c|.
//! 3. Tail: g = RN(γ − qC₃) errs by ≤ 2^−141.8, h₁ = RN(β + g) by ≤ u(|β| + |g|),
//!    e = RN(δ + h₁) by ≤ u(|δ| + |h₁|); in all ≤ 3u²|d|(1 + 2u) + 2^−139. Fast2Sum(d, e)
//!    (|e| ≤ 2.01u|d| + 2^−88) is exact.
//! 4. |S − d| ≤ 2.01u|d| + 2^−88, and the lower check |r̂₀| ≥ 2^−15 gives |S| ≥ 2^−16, so
//!    |d| ≤ |S|(1 + 2^−72)/(1 − 2.01u) and the relative error is
//!    ≤ 3u²(1 + 2u)(1 + 2^−72)/(1 − 2.01u) + 2^−139/2^−16 ≤ 3.0001u² (2^−123 = 2^−17u²).
//!    (Where d = 0 or a check fails the result is not used: the exact path runs.)

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use crate::functions::constants::{constant, two_over_pi_words, Constant};

/// Chunks C_0, …, C_12 of π/2 for f64 terms (module doc, Cody–Waite path): 37 bits each,
/// C_i holding the bits of weights 2^{−37i} … 2^{−37i−36} of π/2, truncated (generated with
/// mpmath at 1200 bits; the tests check them against MPFR).
pub(crate) const CW_PIO2_F64: [u64; CW_M_MAX] = [
    0x3ff921fb54440000,
    0x3d868c234c4c0000,
    0x3b298a2e03700000,
    0x38ccd12902400000,
    0x36bc1114cf980000,
    0x346d0082efa90000,
    0x3211d89cd9120000,
    0x2fc14a08798e0000,
    0x2d5a026ef7c80000,
    0x2b2466cf34e90000,
    0x2898d98158500000,
    0x266b7c97c50c0000,
    0x242d3f84d5b40000,
];

/// Chunks C_0, …, C_7 of π/2 for f32 terms: 16 bits each, as [`CW_PIO2_F64`] (the rest 0).
pub(crate) const CW_PIO2_F32: [u32; CW_M_MAX] = [
    0x3fc90f00, 0x37daa200, 0x2e85a000, 0x27c23400, 0x1fc4c600, 0x17451600, 0x0f80dc00, 0x06668800,
    0, 0, 0, 0, 0,
];

/// Most chunks of π/2 a Cody–Waite plan uses.
pub(crate) const CW_M_MAX: usize = 13;

/// Upper check of the Cody–Waite path on |r̂₀| (module doc): just below π/4 on purpose.
#[allow(clippy::approx_constant)]
pub(crate) const CW_R_HI: f64 = 0.785_398;

/// The Cody–Waite plan for p-bit terms and N terms (module doc): (m, c, b), m = 0 where the
/// path is not used (f32 with N ≥ 5).
pub(crate) fn cw_plan(p: u32, n: usize) -> (usize, i32, i32) {
    let (b, c_min) = if p == 53 { (16, 15) } else { (8, 8) };
    if p != 53 && n > 4 {
        return (0, 0, b);
    }
    let w = p as i32 - b;
    let base = p as i32 * n as i32 + b + 11;
    let m = (base + c_min + w - 1) / w;
    (m as usize, w * m - base, b)
}

/// δ_cw: relative error of r̂ on the Cody–Waite path, 2^{b+3+c−wm} ⊕ ρ_N (module doc); 0
/// where the path is not used.
pub(crate) fn cw_rel_bound<T: FloatTerm>(n: usize) -> f64 {
    let p = T::PRECISION;
    let (m, c, b) = cw_plan(p, n);
    if m == 0 {
        return 0.0;
    }
    let w = p as i32 - b;
    let e = <f64 as FloatTerm>::ldexp(1.0, b + 3 + c - w * m as i32);
    let rho = crate::bounds::round_rel_bound::<T>(n);
    e + rho + e * rho
}

/// Chunk i of π/2 for T.
#[inline(always)]
fn cw_chunk<T: FloatTerm>(i: usize) -> T {
    crate::functions::constants::term_from_bits(CW_PIO2_F64[i], CW_PIO2_F32[i])
}

/// The Cody–Waite reduction (module doc): `None` where it does not apply (|q| ≥ 2^b, f32 with
/// N ≥ 5) or a run-time check fails; x finite with |x₀| > 0.78.
#[inline(always)]
pub(crate) fn reduce_cw<T: FloatTerm, const N: usize>(
    x: &Expansion<T, N>,
) -> Option<(u32, Expansion<T, N>)> {
    let p = T::PRECISION;
    let (m, c, b) = cw_plan(p, N);
    if m == 0 {
        return None;
    }
    let q = (x.hi().to_f64() * core::f64::consts::FRAC_2_PI).round();
    // q is finite (x is): the same as functions.cu's !(|q| < 2^b).
    if q.abs() >= <f64 as FloatTerm>::ldexp(1.0, b) {
        return None;
    }
    if q == 0.0 {
        // |x₀| ≤ 0.7854 here: r = x exactly, within the checked range.
        return if x.hi().to_f64().abs() <= CW_R_HI {
            Some((0, *x))
        } else {
            None
        };
    }
    let w = p as i32 - b;
    let qt = T::from_f64(q);
    let r: Expansion<T, N> = if N == 2 && p == 53 {
        // f64 N = 2: the exact sum by three 2Sums and a three-operation tail (module doc,
        // "f64 N = 2"), within 3.0001u² ≤ ρ₂.
        sum_cw_dd(x.terms()[0], x.terms()[1], qt)
    } else {
        // The terms by decreasing weight (x_i ~ 2^{−pi}, q·C_j ~ 2^{−wj} relative to |x|).
        let mut buf = [T::ZERO; crate::expansion::MAX_TERMS + CW_M_MAX];
        let xt = x.terms();
        let (mut i, mut j, mut len) = (0usize, 0usize, 0usize);
        while i < N || j < m {
            if i < N && (j >= m || (p as i32) * (i as i32) <= w * (j as i32)) {
                buf[len] = xt[i];
                i += 1;
            } else {
                buf[len] = -(qt * cw_chunk::<T>(j));
                j += 1;
            }
            len += 1;
        }
        crate::functions::fast2::round_sum(&buf[..len])
    };
    let r0 = r.hi().to_f64().abs();
    if !(r0 <= CW_R_HI && r0 >= <f64 as FloatTerm>::ldexp(1.0, -c)) {
        return None;
    }
    Some(((q as i64).rem_euclid(4) as u32, r))
}

/// x − q·(C₀ + C₁ + C₂ + C₃) for f64 N = 2 (module doc, "f64 N = 2"): a = x₀ − qC₀ (exact),
/// (b, β) = 2Sum(a, −qC₁), (c, γ) = 2Sum(x₁, −qC₂), (d, δ) = 2Sum(b, c), the tail
/// e = RN(δ + RN(β + RN(γ − qC₃))) and Fast2Sum(d, e).
#[inline(always)]
fn sum_cw_dd<T: FloatTerm, const N: usize>(x0: T, x1: T, q: T) -> Expansion<T, N> {
    use crate::eft::{fast_two_sum, two_sum};
    let a = x0 - q * cw_chunk::<T>(0);
    let (b, beta) = two_sum(a, -(q * cw_chunk::<T>(1)));
    let (c, gamma) = two_sum(x1, -(q * cw_chunk::<T>(2)));
    let (d, delta) = two_sum(b, c);
    let e = delta + (beta + (gamma - q * cw_chunk::<T>(3)));
    let (h, l) = fast_two_sum(d, e);
    let mut t = [T::ZERO; N];
    t[0] = h;
    t[1] = l;
    Expansion::from_normalized(t)
}

/// Most 64-bit limbs of the fixed-point fraction (the 2/π bits read end at index
/// E + 64W + 62 ≤ 3017 for every f64 term, within the 3072 stored bits).
pub(crate) const W_MAX: usize = 31;

/// Relative accuracy of the fixed-point r' guaranteed by the run-time check: 2^{−(pN+61)}.
pub(super) fn fix_rel_bound(p: u32, n: usize) -> f64 {
    <f64 as FloatTerm>::ldexp(1.0, -((p as i32) * n as i32 + 61))
}

/// The bits b_j, …, b_{j+63} of 2/π (b_j is the most significant; b_j = 0 for j ≤ 0 and
/// past the table).
fn window(j: i64) -> u64 {
    if j <= -63 {
        return 0;
    }
    if j < 1 {
        return window(1) >> (1 - j);
    }
    let w = two_over_pi_words();
    let i = (j - 1) as usize;
    let (q, o) = (i / 64, i % 64);
    let hi = w.get(q).copied().unwrap_or(0);
    if o == 0 {
        return hi;
    }
    let lo = w.get(q + 1).copied().unwrap_or(0);
    (hi << o) | (lo >> (64 - o))
}

/// |v| = M·2^E for a finite f64: (negative, M, E).
fn split_term(v: f64) -> (bool, u64, i64) {
    let b = v.to_bits();
    let neg = b >> 63 != 0;
    let ef = ((b >> 52) & 0x7ff) as i64;
    let fr = b & ((1u64 << 52) - 1);
    if ef == 0 {
        (neg, fr, -1074)
    } else {
        (neg, fr | (1u64 << 52), ef - 1075)
    }
}

/// acc ← acc ± c modulo 2^{64w} (limbs most significant first).
fn add_limbs(acc: &mut [u64], c: &[u64], negate: bool) {
    let mut carry = false;
    for i in (0..acc.len()).rev() {
        if negate {
            let (d1, b1) = acc[i].overflowing_sub(c[i]);
            let (d2, b2) = d1.overflowing_sub(carry as u64);
            acc[i] = d2;
            carry = b1 | b2;
        } else {
            let (s1, c1) = acc[i].overflowing_add(c[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            acc[i] = s2;
            carry = c1 | c2;
        }
    }
}

/// x·(2/π) mod 4 with 64w − 2 fraction bits into `acc[..w]` (module doc).
fn accumulate(terms: &[f64], w: usize, acc: &mut [u64; W_MAX]) {
    acc.iter_mut().for_each(|a| *a = 0);
    for &t in terms {
        if t == 0.0 {
            continue;
        }
        let (neg, m, e) = split_term(t);
        let mut p = [0u64; W_MAX + 2];
        let mut carry = 0u128;
        for i in (0..=w).rev() {
            let g = window(e - 1 + 64 * i as i64);
            let prod = (m as u128) * (g as u128) + carry;
            p[i + 1] = prod as u64;
            carry = prod >> 64;
        }
        // p[0] (multiples of 4) and p[w + 1] (below the unit) are dropped.
        add_limbs(&mut acc[..w], &p[1..=w], neg);
    }
}

/// Bits [lo, lo + 64) of the w-limb integer `mag` (zeros outside it).
fn bits_at(mag: &[u64], lo: i64) -> u64 {
    let w = mag.len();
    if lo <= -64 || lo >= 64 * w as i64 {
        return 0;
    }
    if lo < 0 {
        return bits_at(mag, 0) << (-lo);
    }
    let lo = lo as usize;
    let (q, o) = (lo / 64, lo % 64);
    let limb = |i: usize| if i < w { mag[w - 1 - i] } else { 0 };
    let a = limb(q) >> o;
    if o == 0 {
        a
    } else {
        a | (limb(q + 1) << (64 - o))
    }
}

/// Bit length of the w-limb integer `mag` (0 for zero).
fn bit_length(mag: &[u64]) -> i64 {
    let w = mag.len();
    for (i, &l) in mag.iter().enumerate() {
        if l != 0 {
            return 64 * (w - 1 - i) as i64 + (64 - l.leading_zeros() as i64);
        }
    }
    0
}

/// x = k·(π/2) + r: returns (k mod 4, r) with |r| ≤ π/4·(1 + 2^−20) and r within
/// [`super::reduction_rel_bound`] of x − k·π/2 (module doc). x must be finite; for
/// |x| ≤ 0.78 the result is (0, x) exactly.
pub(crate) fn reduce<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> (u32, Expansion<T, N>) {
    if x.hi().to_f64().abs() <= 0.78 {
        return (0, *x);
    }
    if let Some(kr) = reduce_cw(x) {
        return kr;
    }
    reduce_exact(x)
}

/// The Payne–Hanek reduction (module doc) of x with |x₀| > 0.78.
fn reduce_exact<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> (u32, Expansion<T, N>) {
    let p = T::PRECISION;
    let mut terms = [0.0f64; N];
    for (o, t) in terms.iter_mut().zip(x.terms()) {
        *o = t.to_f64();
    }
    let need = (p as i64) * N as i64 + 66;
    let mut w = (((need + 3 + 8) + 63) / 64) as usize;
    let mut acc = [0u64; W_MAX];
    let mut mag = [0u64; W_MAX];
    let (mut k, mut negative, mut blen);
    loop {
        accumulate(&terms, w, &mut acc);
        // V + 1/2: k = top two bits, r' = rest − 1/2.
        acc[0] = acc[0].wrapping_add(1u64 << 61);
        k = (acc[0] >> 62) as u32;
        acc[0] &= (1u64 << 62) - 1;
        negative = acc[0] >> 61 == 0;
        if negative {
            // |r'| = 2^{64w−3} − y.
            let mut borrow = false;
            for i in (0..w).rev() {
                let top = if i == 0 { 1u64 << 61 } else { 0 };
                let (d1, b1) = top.overflowing_sub(acc[i]);
                let (d2, b2) = d1.overflowing_sub(borrow as u64);
                mag[i] = d2;
                borrow = b1 | b2;
            }
        } else {
            mag[..w].copy_from_slice(&acc[..w]);
            mag[0] &= (1u64 << 61) - 1;
        }
        blen = bit_length(&mag[..w]);
        if blen >= need || w == W_MAX {
            break;
        }
        w = (w + ((need - blen + 63) / 64) as usize + 1).min(W_MAX);
    }
    if blen == 0 {
        return (k, Expansion::zero());
    }
    // N + 2 chunks of p bits from the top, each exact in T (module doc).
    let frac_bits = 64 * w as i64 - 2;
    let mut chunks = [T::ZERO; crate::expansion::MAX_TERMS + 2];
    let mask = (1u64 << p) - 1;
    for (i, c) in chunks[..N + 2].iter_mut().enumerate() {
        let lo = blen - (p as i64) * (i as i64 + 1);
        let bits = bits_at(&mag[..w], lo) & mask;
        let v = <f64 as FloatTerm>::ldexp(bits as f64, (lo - frac_bits) as i32);
        *c = T::from_f64(if negative { -v } else { v });
    }
    let f: Expansion<T, N> = if N == 2 {
        // The same list, of fixed length (`round_sum_list`: the same operations).
        crate::functions::fast2::round_sum_list::<T, N, 4>([
            chunks[0], chunks[1], chunks[2], chunks[3],
        ])
    } else {
        crate::functions::fast2::round_sum(&chunks[..N + 2])
    };
    let pio2 = constant::<T, N>(Constant::Pi).ldexp(-1);
    (k, f.mul(&pio2))
}
