//! Natural-number primitives on little-endian slices of 64-bit limbs (limb 0 least
//! significant): carry-propagating add/sub, multiply-accumulate by one limb, shifts, and
//! division and square root with exact remainders.
//!
//! Written as plain loops over `u64` with `u128` products (`__umul64hi` + `*` on the GPU), no
//! heap and no recursion, so that the CUDA port is a line-by-line translation. Division uses
//! precomputed reciprocals instead of hardware 128-by-64 division (Möller and Granlund,
//! "Improved division by invariant integers", IEEE Trans. Computers 60(2), 2011: Alg. 4
//! (2/1 division), Alg. 5 (3/2 division) and the 3/2 reciprocal of §4), in the form GMP uses
//! (`udiv_qrnnd_preinv`, `udiv_qr_3by2`, `invert_pi1`, `mpn_sbpi1_div_qr`).

/// Full product a·b as (low, high).
#[inline(always)]
pub(crate) fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    let t = (a as u128) * (b as u128);
    (t as u64, (t >> 64) as u64)
}

/// r += b (same length); returns the carry out (0 or 1).
#[inline]
pub(crate) fn add_n(r: &mut [u64], b: &[u64]) -> u64 {
    debug_assert_eq!(r.len(), b.len());
    let mut c = 0u64;
    for (x, &y) in r.iter_mut().zip(b) {
        let (s1, c1) = x.overflowing_add(y);
        let (s2, c2) = s1.overflowing_add(c);
        *x = s2;
        c = (c1 | c2) as u64;
    }
    c
}

/// r −= b (same length); returns the borrow out (0 or 1).
#[inline]
pub(crate) fn sub_n(r: &mut [u64], b: &[u64]) -> u64 {
    debug_assert_eq!(r.len(), b.len());
    let mut c = 0u64;
    for (x, &y) in r.iter_mut().zip(b) {
        let (s1, c1) = x.overflowing_sub(y);
        let (s2, c2) = s1.overflowing_sub(c);
        *x = s2;
        c = (c1 | c2) as u64;
    }
    c
}

/// r += c (a single limb); returns the carry out.
#[inline]
pub(crate) fn add_1(r: &mut [u64], c: u64) -> u64 {
    let mut c = c;
    for x in r.iter_mut() {
        if c == 0 {
            return 0;
        }
        let (s, o) = x.overflowing_add(c);
        *x = s;
        c = o as u64;
    }
    c
}

/// r −= c (a single limb); returns the borrow out.
#[inline]
pub(crate) fn sub_1(r: &mut [u64], c: u64) -> u64 {
    let mut c = c;
    for x in r.iter_mut() {
        if c == 0 {
            return 0;
        }
        let (s, o) = x.overflowing_sub(c);
        *x = s;
        c = o as u64;
    }
    c
}

/// r += a·b over `a.len()` limbs of r; returns the high limb (the carry, < 2^64).
#[inline]
pub(crate) fn addmul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    debug_assert!(r.len() >= a.len());
    let mut c = 0u64;
    for (x, &y) in r.iter_mut().zip(a) {
        let t = (y as u128) * (b as u128) + (*x as u128) + (c as u128);
        *x = t as u64;
        c = (t >> 64) as u64;
    }
    c
}

/// r −= a·b over `a.len()` limbs of r; returns the borrow (what is still to subtract at
/// limb `a.len()`).
#[inline]
pub(crate) fn submul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    debug_assert!(r.len() >= a.len());
    let mut c = 0u64;
    for (x, &y) in r.iter_mut().zip(a) {
        let (lo, hi) = mul_wide(y, b);
        let (lo, c1) = lo.overflowing_add(c);
        let (v, c2) = x.overflowing_sub(lo);
        *x = v;
        c = hi + c1 as u64 + c2 as u64;
    }
    c
}

/// r = a·b (schoolbook), `r.len() == a.len() + b.len()`.
pub(crate) fn mul(r: &mut [u64], a: &[u64], b: &[u64]) {
    let na = a.len();
    debug_assert_eq!(r.len(), na + b.len());
    r[..na].fill(0);
    for (i, &bi) in b.iter().enumerate() {
        r[na + i] = addmul_1(&mut r[i..i + na], a, bi);
    }
}

/// Shifts r left by `s` bits (0 ≤ s < 64) in place; returns the bits shifted out.
#[inline]
pub(crate) fn lshift(r: &mut [u64], s: u32) -> u64 {
    if s == 0 {
        return 0;
    }
    let mut out = 0u64;
    for x in r.iter_mut() {
        let v = *x;
        *x = (v << s) | out;
        out = v >> (64 - s);
    }
    out
}

/// Shifts r right by `s` bits (0 ≤ s < 64) in place; returns the bits shifted out (in the top
/// of the returned limb).
#[inline]
pub(crate) fn rshift(r: &mut [u64], s: u32) -> u64 {
    if s == 0 {
        return 0;
    }
    let mut out = 0u64;
    for x in r.iter_mut().rev() {
        let v = *x;
        *x = (v >> s) | out;
        out = v << (64 - s);
    }
    out
}

/// Compares two equal-length numbers.
#[inline]
pub(crate) fn cmp(a: &[u64], b: &[u64]) -> core::cmp::Ordering {
    debug_assert_eq!(a.len(), b.len());
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
    }
    core::cmp::Ordering::Equal
}

/// Compares two top-aligned fractions (limb arrays read as 0.limbs, most significant limb
/// last) of possibly different lengths: the shorter is padded with zero limbs below.
pub(crate) fn cmp_top_aligned(a: &[u64], b: &[u64]) -> core::cmp::Ordering {
    let (na, nb) = (a.len(), b.len());
    let n = na.min(nb);
    for k in 1..=n {
        let (x, y) = (a[na - k], b[nb - k]);
        if x != y {
            return x.cmp(&y);
        }
    }
    if na > n && a[..na - n].iter().any(|&x| x != 0) {
        return core::cmp::Ordering::Greater;
    }
    if nb > n && b[..nb - n].iter().any(|&x| x != 0) {
        return core::cmp::Ordering::Less;
    }
    core::cmp::Ordering::Equal
}

/// True when every limb is zero.
#[inline]
pub(crate) fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&x| x == 0)
}

// ----- division -----------------------------------------------------------------------------

/// v = ⌊(2^128 − 1)/d⌋ − 2^64 for a normalized d (top bit set): the 2/1 reciprocal.
///
/// One `u128` division (the GPU port computes it by GMP's table-and-Newton `invert_limb`).
#[inline]
pub(crate) fn invert_limb(d: u64) -> u64 {
    debug_assert!(d >> 63 == 1);
    (u128::MAX / d as u128) as u64
}

/// (q, r) with q = ⌊(u1·2^64 + u0)/d⌋, r the remainder, for normalized d and u1 < d, given
/// v = [`invert_limb`]`(d)` (Möller–Granlund Alg. 4).
#[inline]
pub(crate) fn div_2by1(u1: u64, u0: u64, d: u64, v: u64) -> (u64, u64) {
    debug_assert!(u1 < d);
    let (q0, q1) = mul_wide(v, u1);
    let t = ((q1 as u128) << 64 | q0 as u128).wrapping_add(((u1 as u128) << 64) | u0 as u128);
    let mut q1 = ((t >> 64) as u64).wrapping_add(1);
    let q0 = t as u64;
    let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
    if r > q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 += 1;
        r -= d;
    }
    (q1, r)
}

/// The 3/2 reciprocal ⌊(2^192 − 1)/(d1·2^64 + d0)⌋ − 2^64 for normalized d1 (GMP's
/// `invert_pi1`).
pub(crate) fn invert_3by2(d1: u64, d0: u64) -> u64 {
    let mut v = invert_limb(d1);
    let mut p = d1.wrapping_mul(v).wrapping_add(d0);
    if p < d0 {
        v = v.wrapping_sub(1);
        let mask = if p >= d1 { u64::MAX } else { 0 };
        p = p.wrapping_sub(d1);
        v = v.wrapping_add(mask);
        p = p.wrapping_sub(mask & d1);
    }
    let (t0, t1) = mul_wide(d0, v);
    p = p.wrapping_add(t1);
    if p < t1 {
        v = v.wrapping_sub(1);
        if p >= d1 && (p > d1 || t0 >= d0) {
            v = v.wrapping_sub(1);
        }
    }
    v
}

/// 3/2 division (Möller–Granlund Alg. 5): q = ⌊(n2, n1, n0)/(d1, d0)⌋ and the two-limb
/// remainder (r1, r0), for normalized d1, (n2, n1) < (d1, d0), and v = [`invert_3by2`].
#[inline]
pub(crate) fn div_3by2(n2: u64, n1: u64, n0: u64, d1: u64, d0: u64, v: u64) -> (u64, u64, u64) {
    let (q0, q) = mul_wide(n2, v);
    let t = (((q as u128) << 64) | q0 as u128).wrapping_add(((n2 as u128) << 64) | n1 as u128);
    let mut q = (t >> 64) as u64;
    let q0 = t as u64;
    let r1 = n1.wrapping_sub(d1.wrapping_mul(q));
    let d = ((d1 as u128) << 64) | d0 as u128;
    let mut r = (((r1 as u128) << 64) | n0 as u128).wrapping_sub(d);
    let (t0, t1) = mul_wide(d0, q);
    r = r.wrapping_sub(((t1 as u128) << 64) | t0 as u128);
    q = q.wrapping_add(1);
    if (r >> 64) as u64 >= q0 {
        q = q.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q = q.wrapping_add(1);
        r -= d;
    }
    (q, (r >> 64) as u64, r as u64)
}

/// Schoolbook division (Knuth Alg. D with 3/2 quotient digits; GMP's `mpn_sbpi1_div_qr`):
/// divides n (`n.len() = nn`) by the normalized d (`d.len() = dn ≥ 2`, top bit set, nn ≥ dn),
/// writes the low nn − dn quotient limbs to `q` and returns the top quotient limb (0 or 1);
/// the remainder is left in `n[..dn]` (the rest of n is destroyed). `v` = [`invert_3by2`] of
/// d's top two limbs.
pub(crate) fn div_qr(q: &mut [u64], n: &mut [u64], d: &[u64], v: u64) -> u64 {
    let nn = n.len();
    let dn = d.len();
    debug_assert!(dn >= 2 && nn >= dn && q.len() == nn - dn);
    let qh = if cmp(&n[nn - dn..], d) != core::cmp::Ordering::Less {
        sub_n(&mut n[nn - dn..], d);
        1
    } else {
        0
    };
    let d1 = d[dn - 1];
    let d0 = d[dn - 2];
    let mut n1 = n[nn - 1];
    // Quotient limb i divides n[i .. i + dn + 1] (top limb n1 kept in a register).
    let mut i = nn - dn;
    while i > 0 {
        i -= 1;
        // The window is n[i .. i + dn], with n1 standing for n[i + dn].
        let top = i + dn;
        let qi;
        if n1 == d1 && n[top - 1] == d0 {
            // The 3/2 estimate would overflow: the digit is B − 1, and subtracting (B − 1)·d
            // cancels the top limb n1 exactly.
            qi = u64::MAX;
            submul_1(&mut n[i..top], d, qi);
            n1 = n[top - 1];
        } else {
            let (mut qq, r1, r0) = div_3by2(n1, n[top - 1], n[top - 2], d1, d0, v);
            // Subtract qq·d[.. dn − 2] from n[i .. top − 2] and propagate into (r1, r0).
            let cy = submul_1(&mut n[i..top - 2], &d[..dn - 2], qq);
            let cy1 = (r0 < cy) as u64;
            n[top - 2] = r0.wrapping_sub(cy);
            let cy2 = (r1 < cy1) as u64;
            n1 = r1.wrapping_sub(cy1);
            if cy2 != 0 {
                // One too many: add d back (the carry out of the top limb is discarded).
                n[top - 1] = n1;
                add_n(&mut n[i..top], d);
                n1 = n[top - 1];
                qq = qq.wrapping_sub(1);
            }
            qi = qq;
        }
        q[i] = qi;
    }
    n[dn - 1] = n1;
    qh
}

// ----- square root --------------------------------------------------------------------------

/// ⌊√u⌋ and the remainder u − s² for u = (u1, u0) with u1 ≥ 2^62: f64 estimate, one Newton
/// correction in f64, then exact integer fix-up.
pub(crate) fn sqrtrem_2(u1: u64, u0: u64) -> (u64, u128) {
    let u = ((u1 as u128) << 64) | u0 as u128;
    let est = (u1 as f64 * 18446744073709551616.0).sqrt();
    let mut s: u64 = if est >= 18446744073709551615.0 {
        u64::MAX
    } else {
        est as u64
    };
    // One Newton step: s += (u − s²)/(2s).
    let sq = (s as u128) * (s as u128);
    let diff = if u >= sq {
        (u - sq) as f64
    } else {
        -((sq - u) as f64)
    };
    // |delta| ≲ 2^12 here, so it converts to an integer exactly enough; adding it in integers
    // (not in f64, which would round s to 53 bits) leaves s within a few units of ⌊√u⌋.
    let delta = (diff / (2.0 * s as f64)) as i64;
    s = (s as i128 + delta as i128).clamp(1 << 63, u64::MAX as i128) as u64;
    // Exact fix-up: s² ≤ u < (s + 1)².
    loop {
        let sq = (s as u128) * (s as u128);
        if sq > u {
            s -= 1;
            continue;
        }
        let mut r = u - sq;
        // (s + 1)² − s² = 2s + 1 (as u128: no overflow).
        while r > 2 * (s as u128) {
            r -= 2 * (s as u128) + 1;
            s += 1;
        }
        return (s, r);
    }
}

/// Square root with remainder by a digit recurrence (one limb per step, each digit a 2/1 or
/// 3/2 quotient estimate of the remainder by 2s, then at most a few exact corrections of the
/// sign of the new remainder; the one-step case of Zimmermann's "Karatsuba square root",
/// INRIA RR-3805, 1999, without its recursion).
///
/// Input: `r` of 2k limbs, the radicand R with its top limb ≥ 2^62. Output: `s` (k limbs)
/// = ⌊√R⌋ with its top bit set; the remainder R − s² (≤ 2s) is left in `r[..k + 1]` and the
/// rest of r is zero. Returns whether the remainder is non-zero. `t` is scratch of k + 2
/// limbs.
pub(crate) fn sqrtrem(s: &mut [u64], r: &mut [u64], t: &mut [u64]) -> bool {
    let k = s.len();
    debug_assert!(r.len() == 2 * k && t.len() >= k + 2 && r[2 * k - 1] >= 1 << 62);
    // Step 1: the top limb of s from the top two limbs of R.
    let (s0, r0) = sqrtrem_2(r[2 * k - 1], r[2 * k - 2]);
    s[k - 1] = s0;
    r[2 * k - 2] = r0 as u64;
    r[2 * k - 1] = (r0 >> 64) as u64;
    // t holds T = 2s, top-aligned at t[k + 1] (j + 1 limbs: 2s_j has one bit more than s_j),
    // with room below for the next digit.
    t[..k + 2].fill(0);
    let twice = (s0 as u128) << 1;
    t[k] = twice as u64;
    t[k + 1] = (twice >> 64) as u64;
    let v1 = invert_limb(s0);
    let mut v2 = 0u64;
    for j in 1..k {
        // Remainder r_j (≤ 2 s_j, j + 1 limbs) sits in r[2k − 2j .. 2k − j + 1]; with the next
        // two radicand limbs it is N = r_j·B² + t in the window r[base .. base + j + 3].
        let base = 2 * k - 2 * j - 2;
        if j == 2 {
            v2 = invert_3by2(s[k - 1], s[k - 2]);
        }
        // Estimate q ≥ the true digit: ⌊Y / s_j⌋ with Y = ⌊(r_j·B + t1)/2⌋ from top limbs.
        // X = r_j·B + t1 is r[base + 1 .. base + j + 3]; Y = X >> 1 has j + 1 limbs.
        let x = |i: usize| -> u64 { r[base + 1 + i] };
        let y = |i: usize| -> u64 { (x(i) >> 1) | (x(i + 1) << 63) };
        let mut q = if j == 1 {
            let (y1, y0) = (y(1), y(0));
            if y1 >= s0 {
                u64::MAX
            } else {
                div_2by1(y1, y0, s0, v1).0
            }
        } else {
            let (y2, y1, y0) = (y(j), y(j - 1), y(j - 2));
            let (d1, d0) = (s[k - 1], s[k - 2]);
            if y2 > d1 || (y2 == d1 && y1 >= d0) {
                u64::MAX
            } else {
                div_3by2(y2, y1, y0, d1, d0, v2).0
            }
        };
        // T = 2 s_j·B + q: digit q at t[k − j], 2 s_j above it (t[k − j + 1 .. k + 2]).
        let lo = k - j;
        t[lo] = q;
        // N −= q·T over the window of j + 3 limbs (T has j + 2 limbs).
        let win = &mut r[base..base + j + 3];
        let b = submul_1(&mut win[..j + 2], &t[lo..k + 2], q);
        win[j + 2] = win[j + 2].wrapping_sub(b);
        // While negative: q −= 1, N += 2 s_j·B + 2q + 1 = T(q) + q + 1.
        while win[j + 2] >> 63 == 1 {
            q -= 1;
            t[lo] = q;
            let c1 = add_n(&mut win[..j + 2], &t[lo..k + 2]);
            let c2 = add_1(&mut win[..j + 2], q + 1);
            win[j + 2] = win[j + 2].wrapping_add(c1 + c2);
        }
        debug_assert_eq!(win[j + 2], 0);
        s[k - 1 - j] = q;
        // 2 s_{j+1} = T + q.
        add_1(&mut t[lo..k + 2], q);
    }
    !is_zero(&r[..k + 1])
}
