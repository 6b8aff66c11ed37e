//! Elementary functions on [`LimbFloat`]: exp, ln, sin and cos, built only from the type's
//! correctly rounded add, mul, fma, div and sqrt at a working precision with guard bits, so
//! that the CUDA twin (`gpu/src/cuda/limb_functions.cu`) repeats them operation for
//! operation and returns bit-identical results.
//!
//! They are **not** correctly rounded, but deterministic (a fixed sequence of correctly
//! rounded operations, every choice made by integer logic on exponents and limbs) and
//! accurate: with p the precision of the argument (and of the result) and
//! wp = [`working_prec`]\(p) = p + 64 + ⌊√p⌋ the precision of every intermediate, the result
//! is the working value rounded to nearest at p, and the working value is within
//! 2^(48 − (wp − p)) ≤ 2^−16 ulp(p) of the exact value. Stated bounds (checked against MPFR
//! at much higher precision in the core tests, `limb_functions`):
//!
//! | function | argument range | error |
//! | --- | --- | --- |
//! | [`exp`] | \|x\| < 2^21 | ≤ (0.5 + 2^−16) ulp; x ≥ 2^21: +∞, x ≤ −2^21: +0 (true value < 2^−3·10^6) |
//! | [`ln`] | x > 0 (any exponent) | ≤ (0.5 + 2^−16) ulp; ln 1 = +0 exactly |
//! | [`sin`], [`cos`] | \|x\| < 2^21 | ≤ (0.5 + 2^−16) ulp + 2^−(p+40) absolute; NaN beyond |
//!
//! ("ulp" is the unit in the last place, at precision p, of the exact value.) Special values:
//! exp(±∞) = +∞, +0; ln(±0) = −∞, ln(x < 0) = NaN, ln(+∞) = +∞; sin/cos(±∞) = NaN;
//! sin(±0) = ±0, cos(±0) = 1; NaN in, NaN out.
//!
//! ## Algorithms (all operations at wp, to nearest)
//!
//! - **exp**: k = nearest integer to x·log₂e (a 64-bit product), r = x − k·ln 2 (one fma, |r| ≤
//!   0.35), y = r·2^−s with s = ⌊√wp/3⌋ + 1, m = expm1(y) = y·Σ_{j<n} y^j/(j+1)! (n the least
//!   multiple of 8 at or above the least n with n(s+1) + Σ⌊log₂(j+1)⌋ ≥ wp + 8) by
//!   rectangular splitting in blocks of 8 terms (Smith 1989; Brent–Zimmermann, *Modern
//!   Computer Arithmetic* §4.4.3: n/8 + 7 full multiplications, the rest by 64-bit integers,
//!   whose products of 8 consecutive integers stay below 2^63), then s doublings
//!   m ← m(m + 2) (expm1(2y) = expm1(y)(expm1(y) + 2): relative errors do not grow), and
//!   e^x = (1 + m)·2^k (exact scaling). The error of r is at most 2^(22 − wp) absolute
//!   (|k| < 2^22, ln 2 within 2^−wp relative), hence 2^(22 − wp) relative in the result.
//! - **ln**: x = m·2^e with m ∈ [1/√2, √2) (decided on the top limb); m ← √m while
//!   |m − 1| ≥ 2^−T (T = ⌊√wp/4⌋ + 4; s square roots), z = (m − 1)/(m + 1) (m − 1 exact by
//!   Sterbenz), ln m = 2^(s+1)·atanh z by its series z·Σ z^2j/(2j+1) (⌈(wp + 8)/2T⌉ terms
//!   rounded up to a multiple of 8, summed in blocks of 8 over the block's common denominator,
//!   an integer below 2^63), and ln x = e·ln 2 + ln m in one fma. The square roots cost at most T + 2 bits relative
//!   (Brent, "Fast multiple-precision evaluation of elementary functions", 1976, §6).
//! - **sin, cos**: k = nearest integer to x·2/π (a 64-bit product), r = x − k·π/2 (one fma,
//!   |r| ≤ π/4 + 2^−50), y = r·2^−s with s = ⌊√wp/3⌋, v = 1 − cos y from its Taylor series
//!   in z = y² (rectangular splitting in blocks of 4, as exp), then s doublings of the
//!   versine, v ← 2v(2 − v) (1 − cos 2y =
//!   2 sin²y; no cancellation), and cos r = 1 − v, sin r = sign(r)·√(v(2 − v)), placed by the
//!   quadrant k mod 4. For |x| < 2^−(wp/2 + 2): sin x = x, cos x = 1 (the next term is below
//!   2^−wp relative). The reduction's error is |k|·2^−wp·π/2 ≤ 2^(22 − wp) absolute.
//!
//! π and ln 2 at wp, and log₂e and 2/π at 64 bits, are MPFR's correctly rounded constants
//! ([`LimbConsts`]); the GPU receives the same numbers as kernel arguments.

use super::{Kind, LimbFloat, Round, EMIN};

const RN: Round = Round::Nearest;

/// Guard bits of the working precision for results of precision p: 64 + ⌊√p⌋.
pub fn guard_bits(p: u32) -> u32 {
    64 + isqrt(p)
}

/// The working precision of the functions for results of precision p: p + [`guard_bits`]\(p).
/// A `LimbFloat<L>` used with the functions must hold it (64·L ≥ wp).
pub fn working_prec(p: u32) -> u32 {
    p + guard_bits(p)
}

/// ⌊√v⌋ by integer steps (the CUDA source repeats it).
pub fn isqrt(v: u32) -> u32 {
    let mut r = 0u32;
    while (r + 1) * (r + 1) <= v {
        r += 1;
    }
    r
}

/// ⌊log₂ j⌋ for j ≥ 1.
fn ilog2(j: u64) -> u32 {
    63 - j.leading_zeros()
}

/// Number of Taylor terms of expm1 at working precision wp with |y| ≤ 2^−(s+1).
pub fn exp_terms(wp: u32, s: u32) -> u32 {
    let (mut n, mut acc) = (0u32, 0u32);
    while acc < wp + 8 {
        n += 1;
        acc += s + 1 + ilog2(u64::from(n) + 1);
    }
    n
}

/// Number of terms of the versine series (in z = y², |y| ≤ 2^−s) at working precision wp.
pub fn versine_terms(wp: u32, s: u32) -> u32 {
    let (mut n, mut acc) = (0u32, 0u32);
    while acc < wp + 8 {
        n += 1;
        let j = u64::from(n);
        acc += 2 * s + ilog2((2 * j + 1) * (2 * j + 2));
    }
    n
}

/// The reduction parameters (s for exp, s for sin/cos, T for ln) at working precision wp.
pub fn reduction_params(wp: u32) -> (u32, u32, u32) {
    let r = isqrt(wp);
    (r / 3 + 1, r / 3, r / 4 + 4)
}

/// Block lengths of the rectangular splittings of the series (exp, versine, atanh).
const EXP_BLOCK: u32 = 8;
const VERSINE_BLOCK: u32 = 4;
const LN_BLOCK: u32 = 8;

/// The constants the functions need, for results of precision `prec`: π and ln 2 at the
/// working precision, log₂e and 2/π at 64 bits, all correctly rounded by MPFR.
#[derive(Clone, Copy, Debug)]
pub struct LimbConsts<const L: usize> {
    prec: u32,
    wp: u32,
    /// π at wp.
    pub pi: LimbFloat<L>,
    /// ln 2 at wp.
    pub ln2: LimbFloat<L>,
    /// log₂e at 64 bits.
    pub log2e: LimbFloat<L>,
    /// 2/π at 64 bits.
    pub two_over_pi: LimbFloat<L>,
    /// π/2 at the result precision (π rounded to it, halved: as MPFR's `Constant::Pi / 2`),
    /// for callers that need the upper end of [0, π/2] (not used by the functions).
    pub half_pi: LimbFloat<L>,
}

impl<const L: usize> LimbConsts<L> {
    /// The constants for results of precision `prec`; `None` when the working precision
    /// does not fit in L limbs (or `prec` < 2).
    pub fn new(prec: u32) -> Option<Self> {
        Self::with_working_prec(prec, working_prec(prec))
    }

    /// The constants with another working precision wp ≥ prec (the error bounds of the
    /// [module docs](self) hold only for [`working_prec`]): identity checks with wp = prec
    /// see every intermediate rounding in the results.
    pub fn with_working_prec(prec: u32, wp: u32) -> Option<Self> {
        if prec < super::MIN_PREC || wp < prec || wp > LimbFloat::<L>::MAX_PREC {
            return None;
        }
        use rug::float::Constant;
        use rug::Float;
        let hi = wp + 64;
        let pi = Float::with_val(hi, Constant::Pi);
        let ln2 = Float::with_val(hi, Constant::Log2);
        let log2e = Float::with_val(hi, 1u32) / &ln2;
        let two_over_pi = Float::with_val(hi, 2u32) / &pi;
        Some(LimbConsts {
            prec,
            wp,
            pi: LimbFloat::from_rug(&Float::with_val(wp, Constant::Pi), wp, RN).0,
            ln2: LimbFloat::from_rug(&Float::with_val(wp, Constant::Log2), wp, RN).0,
            log2e: LimbFloat::from_rug(&log2e, 64, RN).0,
            two_over_pi: LimbFloat::from_rug(&two_over_pi, 64, RN).0,
            half_pi: LimbFloat::from_rug(&(Float::with_val(prec, Constant::Pi) / 2u32), prec, RN).0,
        })
    }

    /// The result precision these constants serve.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// The working precision.
    pub fn working_prec(&self) -> u32 {
        self.wp
    }
}

// ----- operations at an explicit precision, to nearest -------------------------------------

type F<const L: usize> = LimbFloat<L>;

#[inline]
fn add<const L: usize>(a: &F<L>, b: &F<L>, p: u32) -> F<L> {
    F::add_num(a.num(), b.num(), p, RN).0
}
#[inline]
fn sub<const L: usize>(a: &F<L>, b: &F<L>, p: u32) -> F<L> {
    F::add_num(a.num(), b.num().negated(), p, RN).0
}
#[inline]
fn mul<const L: usize>(a: &F<L>, b: &F<L>, p: u32) -> F<L> {
    F::mul_num(a.num(), b.num(), p, RN).0
}
#[inline]
fn div<const L: usize>(a: &F<L>, b: &F<L>, p: u32) -> F<L> {
    F::div_num(a.num(), b.num(), p, RN).0
}
#[inline]
fn fma<const L: usize>(a: &F<L>, b: &F<L>, c: &F<L>, p: u32) -> F<L> {
    F::fma_num(a.num(), b.num(), c.num(), p, RN).0
}
#[inline]
fn sqrt<const L: usize>(a: &F<L>, p: u32) -> F<L> {
    F::sqrt_num(a.num(), p, RN).0
}
#[inline]
fn round<const L: usize>(a: &F<L>, p: u32) -> F<L> {
    F::round_num(a.num(), p, RN).0
}

/// The integer k exactly, at 64 bits.
fn int<const L: usize>(k: i64) -> F<L> {
    if k == 0 {
        return F::zero(64, false);
    }
    let u = k.unsigned_abs();
    let z = u.leading_zeros();
    let mut x = F::zero(64, k < 0);
    x.kind = Kind::Normal;
    x.m[0] = u << z;
    x.exp = 64 - z as i32;
    x
}

/// x·2^s exactly (finite non-zero x; the callers keep the exponent in range).
fn scale<const L: usize>(x: &F<L>, s: i32) -> F<L> {
    let mut y = *x;
    if y.kind == Kind::Normal {
        y.exp += s;
    }
    y
}

/// The integer nearest to q (ties away from zero) for |q| < 2^62, from the top limb.
fn nearest_int<const L: usize>(q: &F<L>) -> i64 {
    if q.kind != Kind::Normal || q.exp < 0 {
        return 0;
    }
    let top = q.m[super::round::limbs(q.prec) - 1];
    let e = q.exp as u32;
    let k = if e == 0 {
        1
    } else {
        (top >> (64 - e)) + ((top >> (63 - e)) & 1)
    } as i64;
    if q.neg {
        -k
    } else {
        k
    }
}

/// Σ_{j<n} u^j / Π_{m<j} fac(m) at wp by rectangular splitting in blocks of `b` ≤ 8 terms
/// (n a multiple of b): with H_k the tail from term kb, normalised by its first coefficient,
/// H_k = (Σ_{i<b} u^i·Q_i + u^b·H_{k+1}) / Q_0, Q_i = fac(kb+i)·…·fac(kb+b−1), integers below
/// 2^63 for the callers' n; the result is H_0 (b − 1 + n/b full multiplications, the rest by
/// 64-bit integers). Smith 1989; Brent–Zimmermann, *Modern Computer Arithmetic* §4.4.3.
fn nested_series<const L: usize>(
    u: &F<L>,
    n: u32,
    b: u32,
    fac: impl Fn(i64) -> i64,
    wp: u32,
) -> F<L> {
    let one = int::<L>(1);
    let mut pw = [one; 9];
    for i in 1..=b as usize {
        pw[i] = mul(&pw[i - 1], u, wp);
    }
    let blocks = n / b;
    let mut h = F::zero(wp, false);
    for k in (0..blocks).rev() {
        let base = i64::from(k * b);
        let mut acc = if k + 1 == blocks {
            F::zero(wp, false)
        } else {
            mul(&pw[b as usize], &h, wp)
        };
        let mut qi: i64 = 1;
        for i in (0..b as usize).rev() {
            qi *= fac(base + i as i64);
            acc = add(&acc, &mul(&pw[i], &int(qi), wp), wp);
        }
        h = div(&acc, &int(qi), wp);
    }
    h
}

/// e^x (see the [module docs](self) for the error bound and range); the result has x's
/// precision, `c` must serve it (`c.prec() == x.prec()`).
pub fn exp<const L: usize>(x: &F<L>, c: &LimbConsts<L>) -> F<L> {
    let p = x.prec;
    let wp = c.wp;
    match x.kind {
        Kind::Nan => return F::nan(p),
        Kind::Inf => return if x.neg { F::zero(p, false) } else { *x },
        Kind::Zero => return round(&int(1), p),
        Kind::Normal => {}
    }
    if x.exp > 21 {
        return if x.neg {
            F::zero(p, false)
        } else {
            F::infinity(p, false)
        };
    }
    if x.exp < -(wp as i32) - 2 {
        return round(&int(1), p);
    }
    let (s, _, _) = reduction_params(wp);
    let q = mul(x, &c.log2e, 64);
    let k = nearest_int(&q);
    let r = fma(&int(-k), &c.ln2, x, wp);
    let one = int::<L>(1);
    let m = if r.kind == Kind::Zero {
        r
    } else {
        let y = scale(&r, -(s as i32));
        // expm1(y)/y = Σ_{j<n} y^j/(j+1)!: fac(m) = m + 2.
        let n = exp_terms(wp, s).div_ceil(EXP_BLOCK) * EXP_BLOCK;
        let h = nested_series(&y, n, EXP_BLOCK, |m| m + 2, wp);
        let mut m = mul(&h, &y, wp);
        let two = int::<L>(2);
        for _ in 0..s {
            let u = add(&m, &two, wp);
            m = mul(&m, &u, wp);
        }
        m
    };
    let e = add(&m, &one, wp);
    round(&scale(&e, k as i32), p)
}

/// ln x (see the [module docs](self)); the result has x's precision.
pub fn ln<const L: usize>(x: &F<L>, c: &LimbConsts<L>) -> F<L> {
    let p = x.prec;
    let wp = c.wp;
    match x.kind {
        Kind::Nan => return F::nan(p),
        Kind::Zero => return F::infinity(p, true),
        Kind::Inf if !x.neg => return *x,
        _ if x.neg => return F::nan(p),
        _ => {}
    }
    // x = 0.M·2^E with 0.M ∈ [1/2, 1); m ∈ [1/√2, √2).
    const SQRT_HALF_TOP: u64 = 0xB504_F333_F9DE_6484; // ⌊2^64/√2⌋
    let top = x.m[super::round::limbs(p) - 1];
    let mut m = *x;
    let e: i64 = if top >= SQRT_HALF_TOP {
        m.exp = 0;
        i64::from(x.exp)
    } else {
        m.exp = 1;
        i64::from(x.exp) - 1
    };
    let (_, _, tt) = reduction_params(wp);
    let one = int::<L>(1);
    let mut d = sub(&m, &one, wp);
    let mut s = 0i32;
    while d.kind == Kind::Normal && d.exp > -(tt as i32) {
        m = sqrt(&m, wp);
        d = sub(&m, &one, wp);
        s += 1;
    }
    let sum = if d.kind == Kind::Zero {
        d
    } else {
        let z = div(&d, &add(&m, &one, wp), wp);
        let z2 = mul(&z, &z, wp);
        // atanh z = z·Σ_{j<n} z2^j/(2j+1), in blocks of LN_BLOCK terms over a common
        // denominator D (the product of the block's 2j+1, below 2^63): block k is
        // (Σ_i z2^i·D/(2(k·LN_BLOCK+i)+1))/D, and the blocks are combined by Horner's rule in
        // z2^LN_BLOCK.
        let n = (wp + 8).div_ceil(2 * tt).div_ceil(LN_BLOCK) * LN_BLOCK;
        let one = int::<L>(1);
        let mut pw = [one; LN_BLOCK as usize + 1];
        for i in 1..=LN_BLOCK as usize {
            pw[i] = mul(&pw[i - 1], &z2, wp);
        }
        let blocks = n / LN_BLOCK;
        let mut acc = F::zero(wp, false);
        for k in (0..blocks).rev() {
            let odd = |i: i64| 2 * (i64::from(k * LN_BLOCK) + i) + 1;
            let mut t = F::zero(wp, false);
            let mut den: i64 = 1;
            for i in (0..i64::from(LN_BLOCK)).rev() {
                let qi: i64 = (0..i64::from(LN_BLOCK))
                    .filter(|&i2| i2 != i)
                    .map(odd)
                    .product();
                t = add(&t, &mul(&pw[i as usize], &int(qi), wp), wp);
                den *= odd(i);
            }
            let t = div(&t, &int(den), wp);
            acc = if k + 1 == blocks {
                t
            } else {
                fma(&acc, &pw[LN_BLOCK as usize], &t, wp)
            };
        }
        let sum = mul(&z, &acc, wp);
        scale(&sum, s + 1)
    };
    round(&fma(&int(e), &c.ln2, &sum, wp), p)
}

/// (sin r, cos r) at wp for the reduced |r| ≤ π/4 + 2^−50 (finite).
fn sin_cos_reduced<const L: usize>(r: &F<L>, wp: u32) -> (F<L>, F<L>) {
    let one = int::<L>(1);
    if r.kind == Kind::Zero {
        return (*r, one);
    }
    if r.exp < -((wp / 2) as i32) - 2 {
        return (*r, one);
    }
    let (_, s, _) = reduction_params(wp);
    let y = scale(r, -(s as i32));
    let z = mul(&y, &y, wp);
    // (1 − cos y)/z = Σ_j (−z)^j/(2j+2)! = ½·Σ_j (−z)^j / Π_{m<j} (2m+3)(2m+4).
    let n = versine_terms(wp, s).div_ceil(VERSINE_BLOCK) * VERSINE_BLOCK;
    let h = nested_series(
        &z.neg(),
        n,
        VERSINE_BLOCK,
        |m| (2 * m + 3) * (2 * m + 4),
        wp,
    );
    let mut v = scale(&mul(&h, &z, wp), -1);
    let two = int::<L>(2);
    for _ in 0..s {
        let u = sub(&two, &v, wp);
        v = scale(&mul(&v, &u, wp), 1);
    }
    let cr = sub(&one, &v, wp);
    let u = sub(&two, &v, wp);
    let mut sr = sqrt(&mul(&v, &u, wp), wp);
    sr.neg = r.neg;
    (sr, cr)
}

/// Reduces x by π/2: (r, k mod 4), or `None` outside |x| < 2^21 or for non-finite x.
fn reduce<const L: usize>(x: &F<L>, c: &LimbConsts<L>) -> Option<(F<L>, i64)> {
    if x.kind != Kind::Normal || x.exp > 21 {
        return None;
    }
    let q = mul(x, &c.two_over_pi, 64);
    let k = nearest_int(&q);
    let half_pi = scale(&c.pi, -1);
    let r = fma(&int(-k), &half_pi, x, c.wp);
    Some((r, k.rem_euclid(4)))
}

/// sin x (see the [module docs](self)); the result has x's precision.
pub fn sin<const L: usize>(x: &F<L>, c: &LimbConsts<L>) -> F<L> {
    let p = x.prec;
    if x.kind == Kind::Zero {
        return *x;
    }
    let Some((r, quad)) = reduce(x, c) else {
        return F::nan(p);
    };
    let (s, co) = sin_cos_reduced(&r, c.wp);
    let v = match quad {
        0 => s,
        1 => co,
        2 => s.neg(),
        _ => co.neg(),
    };
    round(&v, p)
}

/// cos x (see the [module docs](self)); the result has x's precision.
pub fn cos<const L: usize>(x: &F<L>, c: &LimbConsts<L>) -> F<L> {
    let p = x.prec;
    if x.kind == Kind::Zero {
        return round(&int(1), p);
    }
    let Some((r, quad)) = reduce(x, c) else {
        return F::nan(p);
    };
    let (s, co) = sin_cos_reduced(&r, c.wp);
    let v = match quad {
        0 => co,
        1 => s.neg(),
        2 => co.neg(),
        _ => s,
    };
    round(&v, p)
}

// EMIN is far below every exponent these functions form (|x| ≥ 2^−wp/2 before squaring).
const _: () = assert!(EMIN < -(1 << 20));
