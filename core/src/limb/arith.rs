//! The correctly rounded operations on limb mantissas, independent of the capacity: each
//! kernel reads its operands as [`Num`] views (any number of limbs), writes the rounded
//! mantissa to an output slice, uses a caller-provided scratch slice, and returns [`Res`].
//!
//! Each computes its exact result, or enough of it (at least p + 1 bits) together with an
//! exact sticky bit, and rounds once (see `round.rs`):
//! - add/sub: both operands aligned in a window of max(limbs) + 2 limbs; a subtrahend that
//!   reaches below the window contributes a sticky bit and one borrow (the window then holds
//!   ⌊exact⌋ and the sticky bit the non-zero fraction; its ≥ 64 guard bits make the cancellation
//!   of at most one bit harmless);
//! - mul: the full schoolbook product;
//! - fma: the full product, then the addition above (one rounding);
//! - div: a quotient of ≥ p + 1 bits by Knuth's Algorithm D, sticky = remainder ≠ 0;
//! - sqrt: an integer square root with remainder ([`mpn::sqrtrem`]), sticky = remainder ≠ 0.
//!
//! Special values follow MPFR (and IEEE 754): NaN in, NaN out; ∞ − ∞, 0·∞, 0/0, ∞/∞, and
//! √(negative) are NaN; x/±0 = ±∞ for x ≠ 0; an exact zero sum is +0 except when rounding
//! down (−0), and keeps the common sign of two equal-signed zeros; √(−0) = −0.

use super::mpn;
use super::round::{finish, limbs, round_mant, Kind, Res, Round};
use core::cmp::Ordering;

/// A read-only view of a number: for `Normal`, `m` holds the mantissa (top bit of the last
/// limb set, as many limbs as its precision needs) and value = 0.m·2^exp.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num<'a> {
    pub kind: Kind,
    pub neg: bool,
    pub exp: i64,
    pub m: &'a [u64],
}

impl<'a> Num<'a> {
    /// The same number with the sign flipped.
    #[inline]
    pub(crate) fn negated(self) -> Self {
        Num {
            neg: !self.neg,
            ..self
        }
    }
}

/// Rounds a number (of any precision) to p bits.
#[inline]
pub(crate) fn round_num(a: Num, p: u32, rnd: Round, out: &mut [u64]) -> Res {
    match a.kind {
        Kind::Nan => Res::nan(),
        Kind::Inf => Res::inf(a.neg),
        Kind::Zero => Res::zero(a.neg),
        Kind::Normal => {
            let r = round_mant(a.m, false, a.neg, p, rnd, out);
            finish(a.neg, a.exp, r, p, rnd, out)
        }
    }
}

/// Compares |a| and |b| for finite non-zero a, b.
#[inline]
fn cmp_abs_normal(a: &Num, b: &Num) -> Ordering {
    if a.exp != b.exp {
        return a.exp.cmp(&b.exp);
    }
    mpn::cmp_top_aligned(a.m, b.m)
}

/// Numerical comparison (None when either is NaN; −0 = +0).
pub(crate) fn cmp(a: Num, b: Num) -> Option<Ordering> {
    use Kind::*;
    if a.kind == Nan || b.kind == Nan {
        return None;
    }
    // Signed rank: −∞ < negative < 0 < positive < +∞.
    let rank = |x: &Num| -> i8 {
        match x.kind {
            Zero => 0,
            Inf => {
                if x.neg {
                    -2
                } else {
                    2
                }
            }
            _ => {
                if x.neg {
                    -1
                } else {
                    1
                }
            }
        }
    };
    let (ra, rb) = (rank(&a), rank(&b));
    if ra != rb {
        return Some(ra.cmp(&rb));
    }
    if ra == 1 {
        return Some(cmp_abs_normal(&a, &b));
    }
    if ra == -1 {
        return Some(cmp_abs_normal(&b, &a));
    }
    Some(Ordering::Equal)
}

/// a + b rounded to p bits. Scratch: 2·(max(limbs) + 2) limbs.
pub(crate) fn add(a: Num, b: Num, p: u32, rnd: Round, out: &mut [u64], w: &mut [u64]) -> Res {
    use Kind::*;
    match (a.kind, b.kind) {
        (Nan, _) | (_, Nan) => Res::nan(),
        (Inf, Inf) => {
            if a.neg == b.neg {
                Res::inf(a.neg)
            } else {
                Res::nan()
            }
        }
        (Inf, _) => Res::inf(a.neg),
        (_, Inf) => Res::inf(b.neg),
        (Zero, Zero) => Res::zero(if a.neg == b.neg {
            a.neg
        } else {
            rnd == Round::Down
        }),
        (Zero, Normal) => round_num(b, p, rnd, out),
        (Normal, Zero) => round_num(a, p, rnd, out),
        (Normal, Normal) => add_normal(a, b, p, rnd, out, w),
    }
}

fn add_normal(a: Num, b: Num, p: u32, rnd: Round, out: &mut [u64], w: &mut [u64]) -> Res {
    let (a, b) = match cmp_abs_normal(&a, &b) {
        Ordering::Less => (b, a),
        Ordering::Equal if a.neg != b.neg => return Res::zero(rnd == Round::Down),
        _ => (a, b),
    };
    // |a| ≥ |b|; d ≥ 0 is the exponent difference.
    let d = (a.exp - b.exp) as u64;
    let (na, nb, n) = (a.m.len(), b.m.len(), limbs(p));
    // The window: k limbs, a's top limb at k − 2 (limb k − 1 is room for a carry), b at the
    // same place shifted right by d bits; what leaves the window at the bottom is sticky.
    let k = na.max(nb).max(n) + 2;
    let wa = &mut w[..k];
    let a_off = k - 1 - na;
    // b.m[i] shifted by whole limbs sits at window limb i + b_off (b_off may be negative).
    let b_off = (k - 1 - nb) as i64 - (d / 64).min(1 << 40) as i64;
    let dr = (d % 64) as u32;
    let bl = |i: i64| -> u64 {
        if (0..nb as i64).contains(&i) {
            b.m[i as usize]
        } else {
            0
        }
    };
    // Limb j of the shifted b: the top 64 − dr bits of b.m[j − b_off] and the low dr bits of
    // the limb above (`<< (63 − dr) << 1` is `<< (64 − dr)`, and 0 for dr = 0).
    let bs = |j: usize| -> u64 {
        let i = j as i64 - b_off;
        (bl(i) >> dr) | ((bl(i + 1) << (63 - dr)) << 1)
    };
    let below = (-b_off).clamp(0, nb as i64) as usize;
    let mut sticky = b.m[..below].iter().any(|&x| x != 0);
    if below < nb && b_off + below as i64 == 0 {
        // b's limb at window limb 0 loses its low dr bits.
        sticky |= (b.m[below] << (63 - dr)) << 1 != 0;
    }
    let ax = |j: usize| -> u64 {
        if j >= a_off && j < a_off + na {
            a.m[j - a_off]
        } else {
            0
        }
    };
    let mut c = 0u64;
    if a.neg == b.neg {
        for (j, r) in wa.iter_mut().enumerate() {
            let (s1, c1) = ax(j).overflowing_add(bs(j));
            let (s2, c2) = s1.overflowing_add(c);
            *r = s2;
            c = (c1 | c2) as u64;
        }
    } else {
        for (j, r) in wa.iter_mut().enumerate() {
            let (s1, c1) = ax(j).overflowing_sub(bs(j));
            let (s2, c2) = s1.overflowing_sub(c);
            *r = s2;
            c = (c1 | c2) as u64;
        }
        if sticky {
            // exact = window − (fraction in (0, 1) of a window unit) = (window − 1) + (1 − f).
            mpn::sub_1(wa, 1);
        }
    }
    debug_assert_eq!(c, 0);
    // Normalize: the value is W·2^(a.exp + 64 − 64k).
    let mut t = k - 1;
    while wa[t] == 0 {
        t -= 1;
    }
    let c = wa[t].leading_zeros();
    let lz = ((k - 1 - t) * 64) as i64 + c as i64;
    let buf = &mut wa[..=t];
    mpn::lshift(buf, c);
    let exp = a.exp + 64 - lz;
    let r = round_mant(buf, sticky, a.neg, p, rnd, out);
    finish(a.neg, exp, r, p, rnd, out)
}

/// Exact product of two normal numbers into `prod` (na + nb limbs, normalized); returns the
/// exponent.
#[inline]
fn exact_mul(a: &Num, b: &Num, prod: &mut [u64]) -> i64 {
    if a.m.len() >= b.m.len() {
        mpn::mul(prod, a.m, b.m);
    } else {
        mpn::mul(prod, b.m, a.m);
    }
    let mut exp = a.exp + b.exp;
    if prod[prod.len() - 1] >> 63 == 0 {
        mpn::lshift(prod, 1);
        exp -= 1;
    }
    exp
}

/// a·b rounded to p bits. Scratch: limbs(a) + limbs(b).
pub(crate) fn mul(a: Num, b: Num, p: u32, rnd: Round, out: &mut [u64], w: &mut [u64]) -> Res {
    use Kind::*;
    let neg = a.neg != b.neg;
    match (a.kind, b.kind) {
        (Nan, _) | (_, Nan) => Res::nan(),
        (Inf, Zero) | (Zero, Inf) => Res::nan(),
        (Inf, _) | (_, Inf) => Res::inf(neg),
        (Zero, _) | (_, Zero) => Res::zero(neg),
        (Normal, Normal) => {
            let prod = &mut w[..a.m.len() + b.m.len()];
            let exp = exact_mul(&a, &b, prod);
            let r = round_mant(prod, false, neg, p, rnd, out);
            finish(neg, exp, r, p, rnd, out)
        }
    }
}

/// a·b + c with one rounding to p bits. Scratch: la + lb + 2·(max(la + lb, lc, n) + 2).
pub(crate) fn fma(
    a: Num,
    b: Num,
    c: Num,
    p: u32,
    rnd: Round,
    out: &mut [u64],
    w: &mut [u64],
) -> Res {
    use Kind::*;
    let neg = a.neg != b.neg;
    if a.kind == Nan || b.kind == Nan || c.kind == Nan {
        return Res::nan();
    }
    if a.kind == Inf || b.kind == Inf {
        if a.kind == Zero || b.kind == Zero {
            return Res::nan();
        }
        if c.kind == Inf && c.neg != neg {
            return Res::nan();
        }
        return Res::inf(neg);
    }
    if c.kind == Inf {
        return Res::inf(c.neg);
    }
    if a.kind == Zero || b.kind == Zero {
        let z = Num {
            kind: Zero,
            neg,
            exp: 0,
            m: &[],
        };
        return add(z, c, p, rnd, out, w);
    }
    if c.kind == Zero {
        return mul(a, b, p, rnd, out, w);
    }
    let (prod, rest) = w.split_at_mut(a.m.len() + b.m.len());
    let exp = exact_mul(&a, &b, prod);
    let ab = Num {
        kind: Normal,
        neg,
        exp,
        m: prod,
    };
    add_normal(ab, c, p, rnd, out, rest)
}

/// a / b rounded to p bits. Scratch: 2·max(la, max(lb, 2) + limbs(p + 1)) + 1 limbs.
pub(crate) fn div(a: Num, b: Num, p: u32, rnd: Round, out: &mut [u64], w: &mut [u64]) -> Res {
    use Kind::*;
    let neg = a.neg != b.neg;
    match (a.kind, b.kind) {
        (Nan, _) | (_, Nan) => return Res::nan(),
        (Inf, Inf) | (Zero, Zero) => return Res::nan(),
        (Inf, _) => return Res::inf(neg),
        (_, Inf) => return Res::zero(neg),
        (Zero, _) => return Res::zero(neg),
        (_, Zero) => return Res::inf(neg),
        (Normal, Normal) => {}
    }
    let (na, nb) = (a.m.len(), b.m.len());
    let nq = limbs(p + 1);
    // Divisor of at least two limbs (a zero limb below a one-limb divisor keeps its value as a
    // fraction 0.d).
    let dn = nb.max(2);
    let nu = na.max(dn + nq);
    let (dv, rest) = w.split_at_mut(dn);
    dv[..dn - nb].fill(0);
    dv[dn - nb..].copy_from_slice(b.m);
    let (u, rest) = rest.split_at_mut(nu);
    u[..nu - na].fill(0);
    u[nu - na..].copy_from_slice(a.m);
    let ql = nu - dn;
    let q = &mut rest[..ql + 1];
    let v = mpn::invert_3by2(dv[dn - 1], dv[dn - 2]);
    let qh = mpn::div_qr(&mut q[..ql], u, dv, v);
    let sticky = !mpn::is_zero(&u[..dn]);
    // Q = ⌊(a/b)·B^ql⌋ with a/b ∈ (1/2, 2): qh = 1 when a/b ≥ 1.
    let (buf, exp) = if qh == 1 {
        q[ql] = 1;
        mpn::lshift(q, 63);
        (&q[..], a.exp - b.exp + 1)
    } else {
        (&q[..ql], a.exp - b.exp)
    };
    let r = round_mant(buf, sticky, neg, p, rnd, out);
    finish(neg, exp, r, p, rnd, out)
}

/// √a rounded to p bits. Scratch: 4·k + 2 limbs, k = max(limbs(p + 1), ⌈(la + 1)/2⌉).
pub(crate) fn sqrt(a: Num, p: u32, rnd: Round, out: &mut [u64], w: &mut [u64]) -> Res {
    use Kind::*;
    match a.kind {
        Nan => return Res::nan(),
        Zero => return Res::zero(a.neg),
        Inf => return if a.neg { Res::nan() } else { Res::inf(false) },
        Normal => {
            if a.neg {
                return Res::nan();
            }
        }
    }
    let na = a.m.len();
    let k = limbs(p + 1).max((na + 1).div_ceil(2));
    let (r, rest) = w.split_at_mut(2 * k);
    let (s, rest) = rest.split_at_mut(k);
    let t = &mut rest[..k + 2];
    r[..2 * k - na].fill(0);
    r[2 * k - na..].copy_from_slice(a.m);
    // a = 0.m·2^e: for even e, √a = √(0.m)·2^(e/2); for odd e, √a = √(0.m/2)·2^((e+1)/2).
    let exp = if a.exp % 2 == 0 {
        a.exp / 2
    } else {
        mpn::rshift(r, 1);
        (a.exp + 1) / 2
    };
    let sticky = mpn::sqrtrem(s, r, t);
    let res = round_mant(s, sticky, false, p, rnd, out);
    finish(false, exp, res, p, rnd, out)
}
