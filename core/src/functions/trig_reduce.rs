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

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use crate::functions::constants::{constant, two_over_pi_words, Constant};

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
