//! The bit-for-bit check of the limb arithmetic against MPFR (through `rug`), shared by the
//! test suite (a small sample) and `expanse bench limb --check` (10^6 operand sets per case).
//!
//! For an operation and a precision, operand set i is drawn from a generator seeded by
//! (seed, op, precision, i), so any range of indices can run on any thread and a mismatch is
//! reproducible from its index. The operands are built as MPFR numbers directly from random
//! limbs and exponents (`rug::Integer` shifted by the exponent: a path independent of the code
//! under test), converted exactly to [`AnyLimbFloat`], and every operation is run in all five
//! rounding modes on both sides; result class, sign, exponent, every mantissa limb and the
//! ternary value must agree.
//!
//! The generators aim at the hard cases, in rotation: random operands; cancellation (a − b
//! with a ≈ b, equal or adjacent exponents); alignment across every limb (exponent
//! differences from 0 to beyond 3p); carries and borrows across every limb (all-ones
//! mantissas, long runs of ones and zeros, powers of two against tiny operands); exact ties
//! (sums, products and fused products built to lie exactly halfway between two p-bit
//! numbers) and exact results (quotients, perfect squares, zero sums); huge and tiny
//! exponents around MPFR's overflow and underflow thresholds; mixed operand and result
//! precisions; signed zeros, infinities and NaN.

use super::round::{limbs, EMAX, EMIN};
use super::{AnyLimbFloat, Round};
use core::cmp::Ordering;
use rug::float::Round as RRound;
use rug::{Float, Integer};

/// What is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// a + b
    Add,
    /// a − b
    Sub,
    /// a · b
    Mul,
    /// a · b + c, one rounding
    Fma,
    /// a / b
    Div,
    /// √a
    Sqrt,
    /// a rounded from a longer precision (`mpfr_set`)
    Round,
    /// a to f64 (`mpfr_get_d`)
    ToF64,
    /// comparison and total order (`mpfr_cmp`, `mpfr_total_order_p`)
    Cmp,
}

impl Op {
    /// Every checked operation.
    pub const ALL: [Op; 9] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Fma,
        Op::Div,
        Op::Sqrt,
        Op::Round,
        Op::ToF64,
        Op::Cmp,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Fma => "fma",
            Op::Div => "div",
            Op::Sqrt => "sqrt",
            Op::Round => "round",
            Op::ToF64 => "to_f64",
            Op::Cmp => "cmp",
        }
    }
}

/// The outcome of checking one range of operand sets.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Operand sets run.
    pub sets: u64,
    /// Individual comparisons made (sets × rounding modes, for most operations).
    pub checks: u64,
    /// Comparisons that differed.
    pub mismatches: u64,
    /// Coverage, from MPFR's round-to-nearest results: exact results (non-zero, finite).
    pub exact: u64,
    /// Exact ties: the exact result lies halfway between two p-bit numbers.
    pub ties: u64,
    /// Zero results.
    pub zeros: u64,
    /// Results that overflowed (MPFR's overflow flag).
    pub overflows: u64,
    /// Results that underflowed (MPFR's underflow flag).
    pub underflows: u64,
    /// NaN or infinite results from special operands.
    pub specials: u64,
    /// The first few mismatches, described.
    pub first: Vec<String>,
}

impl Report {
    /// Adds another range's counts.
    pub fn merge(&mut self, other: Report) {
        self.sets += other.sets;
        self.checks += other.checks;
        self.mismatches += other.mismatches;
        self.exact += other.exact;
        self.ties += other.ties;
        self.zeros += other.zeros;
        self.overflows += other.overflows;
        self.underflows += other.underflows;
        self.specials += other.specials;
        for s in other.first {
            if self.first.len() < 5 {
                self.first.push(s);
            }
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014).
struct Rng(core::cell::Cell<u64>);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(core::cell::Cell::new(seed))
    }
    fn next(&self) -> u64 {
        let s = self.0.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.0.set(s);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn coin(&self) -> bool {
        self.next() & 1 == 1
    }
}

/// Mantissa shapes.
#[derive(Clone, Copy)]
enum Style {
    Random,
    AllOnes,
    Runs,
    Sparse,
    Pow2,
    /// Only the top k bits may be non-zero.
    Short(u32),
}

fn any_style(rng: &Rng, p: u32) -> Style {
    match rng.below(8) {
        0 => Style::AllOnes,
        1 | 2 => Style::Runs,
        3 => Style::Sparse,
        4 => Style::Pow2,
        5 => Style::Short(1 + rng.below(p as u64) as u32),
        _ => Style::Random,
    }
}

/// A p-bit mantissa as limbs (top bit set, bits below p clear).
fn mantissa(rng: &Rng, p: u32, style: Style) -> Vec<u64> {
    let n = limbs(p);
    let mut m = vec![0u64; n];
    match style {
        Style::Random => m.iter_mut().for_each(|x| *x = rng.next()),
        Style::AllOnes => m.fill(u64::MAX),
        Style::Pow2 => {}
        Style::Sparse => {
            for _ in 0..rng.range(1, 3) {
                let b = rng.below(64 * n as u64) as usize;
                m[b / 64] |= 1 << (b % 64);
            }
        }
        Style::Runs => {
            let mut pos = 64 * n as i64 - 1;
            let mut one = rng.coin();
            while pos >= 0 {
                let len = if rng.coin() {
                    rng.range(1, 8)
                } else {
                    rng.range(1, 2 * p as i64)
                };
                for _ in 0..len {
                    if pos < 0 {
                        break;
                    }
                    if one {
                        m[pos as usize / 64] |= 1 << (pos % 64);
                    }
                    pos -= 1;
                }
                one = !one;
            }
        }
        Style::Short(k) => {
            m.iter_mut().for_each(|x| *x = rng.next());
            clear_below(&mut m, 64 * n as u32 - k.min(p));
        }
    }
    m[n - 1] |= 1 << 63;
    clear_below(&mut m, 64 * n as u32 - p);
    m
}

/// Clears the lowest `bits` bits.
fn clear_below(m: &mut [u64], bits: u32) {
    for (i, x) in m.iter_mut().enumerate() {
        let lo = 64 * i as u32;
        if lo + 64 <= bits {
            *x = 0;
        } else if lo < bits {
            *x &= !((1u64 << (bits - lo)) - 1);
        }
    }
}

/// ±0.m·2^exp at precision p, built by MPFR from the integer m (independent of our code).
fn build(neg: bool, exp: i64, m: &[u64], p: u32) -> Float {
    let int = Integer::from_digits(m, rug::integer::Order::Lsf);
    let mut f = Float::with_val(p, int);
    let sh = exp - 64 * m.len() as i64;
    f <<= sh as i32;
    if neg {
        f = -f;
    }
    debug_assert!(f.is_normal() || f.is_zero());
    f
}

fn random_num(rng: &Rng, p: u32, exp: i64) -> Float {
    let style = any_style(rng, p);
    let m = mantissa(rng, p, style);
    build(rng.coin(), exp, &m, p)
}

fn special(rng: &Rng, p: u32) -> Float {
    match rng.below(5) {
        0 => Float::with_val(p, 0.0),
        1 => Float::with_val(p, -0.0),
        2 => Float::with_val(p, f64::INFINITY),
        3 => Float::with_val(p, f64::NEG_INFINITY),
        _ => Float::with_val(p, f64::NAN),
    }
}

/// 2^e exactly (within MPFR's range).
fn pow2(p: u32, e: i64, neg: bool) -> Float {
    let mut f = Float::with_val(p, 1);
    f <<= (e - 1) as i32;
    if neg {
        -f
    } else {
        f
    }
}

fn exp_of(f: &Float) -> i64 {
    f.get_exp().map(|e| e as i64).unwrap_or(0)
}

/// A number close to `a`: equal, a few ulps away, or with its lower bits replaced; half
/// the time with the same exponent, else possibly the adjacent one.
fn near(rng: &Rng, a: &Float, p: u32) -> Float {
    if !a.is_normal() {
        return Float::with_val(p, a);
    }
    // Near the bottom of the exponent range, perturb a scaled copy (the perturbations are
    // below a) and scale back: exact, the result being about a.
    let lift = if exp_of(a) < EMIN + 3 * p as i64 + 200 {
        3 * p as i32 + 200
    } else {
        0
    };
    let a = &(Float::with_val(p, a) << lift);
    let ea = exp_of(a);
    let mut f = match rng.below(4) {
        0 | 1 => {
            // a ± 2^k ulps, k mostly small.
            let k = if rng.coin() {
                rng.below(8) as i64
            } else {
                rng.below(p as u64) as i64
            };
            let delta = pow2(p, ea - p as i64 + k + 1, rng.coin());
            Float::with_val_round(p, a + &delta, RRound::Zero).0
        }
        2 => Float::with_val(p, a),
        _ => {
            // The lower half or so of the bits replaced by random ones.
            let low = random_num(rng, p, ea - rng.range(p as i64 / 2, p as i64));
            Float::with_val_round(p, a + &low, RRound::Zero).0
        }
    };
    if rng.below(4) == 0 {
        f <<= if rng.coin() { 1 } else { -1 };
    }
    f >> lift
}

/// Exponent of a moderate random number.
fn small_exp(rng: &Rng) -> i64 {
    rng.range(-8, 8)
}

/// Operands and the result precision for operand set i of `op` at precision p.
fn operands(op: Op, p: u32, i: u64, rng: &Rng) -> (Vec<Float>, u32) {
    let cat = i % 12;
    let mut out_p = p;
    let mut v: Vec<Float> = Vec::with_capacity(3);
    let arity = match op {
        Op::Sqrt | Op::Round | Op::ToF64 => 1,
        Op::Fma => 3,
        _ => 2,
    };
    match op {
        Op::Add | Op::Sub | Op::Cmp => {
            let a = random_num(rng, p, small_exp(rng));
            let ea = exp_of(&a);
            let b = match cat {
                0 => random_num(rng, p, small_exp(rng)),
                1 | 2 => near(rng, &a, p),
                3 => {
                    let d = rng.below(3 * p as u64 + 130) as i64;
                    random_num(rng, p, ea - d)
                }
                4 => {
                    // Carries and borrows across every limb.
                    let m = mantissa(rng, p, Style::AllOnes);
                    let big = build(a.is_sign_negative(), ea, &m, p);
                    v.push(big);
                    let d = rng.range(p as i64 - 2, p as i64 + 130);
                    let b = random_num(rng, p, ea - d);
                    return finish_ops(op, rng, v, b, arity, p, out_p);
                }
                5 => {
                    // An exact tie (or just off one): b = ±ulp(a)/2·(1 or 3), maybe plus a hair.
                    let half = pow2(p, ea - p as i64, rng.coin());
                    let mut b = if rng.coin() {
                        half
                    } else {
                        Float::with_val(p, &half * 3u32) >> 1u32
                    };
                    if rng.below(3) == 0 {
                        let hair = pow2(p, ea - 2 * p as i64 - 5, rng.coin());
                        b = Float::with_val_round(p + 64, &b + &hair, RRound::Zero).0;
                        b = Float::with_val_round(p, &b, RRound::Zero).0;
                    }
                    b
                }
                6 => {
                    // Mixed operand precision.
                    let q = 2 + rng.below(p as u64 - 1) as u32;
                    let e = ea - rng.range(-2, q as i64 + 70);
                    random_num(rng, q, e)
                }
                7 => {
                    // Result precision below the operands'.
                    out_p = 2 + rng.below(p as u64 - 1) as u32;
                    if rng.coin() {
                        near(rng, &a, p)
                    } else {
                        random_num(rng, p, ea - rng.range(0, p as i64 + 70))
                    }
                }
                8 => {
                    // Overflow: both near EMAX.
                    let a = random_num(rng, p, EMAX - rng.range(0, 2));
                    v.push(a);
                    let b = random_num(rng, p, EMAX - rng.range(0, 3));
                    return finish_ops(op, rng, v, b, arity, p, out_p);
                }
                9 => {
                    // Underflow: cancellation below EMIN.
                    let a = random_num(rng, p, EMIN + rng.range(0, 3));
                    let b = -near(rng, &a, p);
                    v.push(a);
                    return finish_ops(op, rng, v, b, arity, p, out_p);
                }
                10 => Float::with_val(p, -&a), // exact zero sum for add
                _ => special(rng, p),
            };
            v.push(a);
            if cat == 11 && rng.coin() {
                v[0] = special(rng, p);
            }
            return finish_ops(op, rng, v, b, arity, p, out_p);
        }
        Op::Mul | Op::Div => {
            let (a, b) = match cat {
                0 | 1 => (
                    random_num(rng, p, small_exp(rng)),
                    random_num(rng, p, small_exp(rng)),
                ),
                2 | 3 if op == Op::Mul => {
                    // Ties: a k-bit odd times a (p + 2 − k)-bit odd has p + 1 or p + 2 bits.
                    let k = rng.range(2, p as i64 - 1) as u32;
                    let ma = mantissa(rng, p, Style::Short(k));
                    let mb = mantissa(rng, p, Style::Short(p + 2 - k));
                    (
                        build(rng.coin(), small_exp(rng), &odd_top(&ma, k), p),
                        build(rng.coin(), small_exp(rng), &odd_top(&mb, p + 2 - k), p),
                    )
                }
                2 | 3 => {
                    // Exact quotients: a = b·q with b, q short.
                    let k = rng.range(1, p as i64 / 2) as u32;
                    let b = build(
                        rng.coin(),
                        small_exp(rng),
                        &mantissa(rng, p, Style::Short(k)),
                        p,
                    );
                    let q = build(
                        rng.coin(),
                        small_exp(rng),
                        &mantissa(rng, p, Style::Short(p - k)),
                        p,
                    );
                    (Float::with_val(p, &b * &q), b)
                }
                4 => {
                    let sa = if rng.coin() {
                        Style::AllOnes
                    } else {
                        Style::Runs
                    };
                    let sb = any_style(rng, p);
                    (
                        build(rng.coin(), small_exp(rng), &mantissa(rng, p, sa), p),
                        build(rng.coin(), small_exp(rng), &mantissa(rng, p, sb), p),
                    )
                }
                5 | 6 => {
                    // Near overflow (5) or underflow (6).
                    let target = if cat == 5 { EMAX } else { EMIN };
                    let ea = if cat == 5 {
                        EMAX - rng.range(0, 1000)
                    } else {
                        EMIN + rng.range(0, 1000)
                    };
                    let d = rng.range(-2, 2);
                    let eb = if op == Op::Mul {
                        target - ea + d
                    } else {
                        ea - target + d
                    };
                    let sa = any_style(rng, p);
                    let sb = any_style(rng, p);
                    (
                        build(rng.coin(), ea, &mantissa(rng, p, sa), p),
                        build(rng.coin(), eb.clamp(EMIN, EMAX), &mantissa(rng, p, sb), p),
                    )
                }
                7 => {
                    let a = random_num(rng, p, small_exp(rng));
                    (a.clone(), near(rng, &a, p))
                }
                8 => {
                    let q = 2 + rng.below(p as u64 - 1) as u32;
                    (
                        random_num(rng, p, small_exp(rng)),
                        random_num(rng, q, small_exp(rng)),
                    )
                }
                9 => {
                    out_p = 2 + rng.below(p as u64 - 1) as u32;
                    (
                        random_num(rng, p, small_exp(rng)),
                        random_num(rng, p, small_exp(rng)),
                    )
                }
                10 => (random_num(rng, p, small_exp(rng)), special(rng, p)),
                _ => (special(rng, p), random_num(rng, p, small_exp(rng))),
            };
            let (a, b) = if cat == 8 && rng.coin() {
                (b, a)
            } else {
                (a, b)
            };
            v.push(a);
            v.push(b);
        }
        Op::Fma => {
            let a = random_num(rng, p, small_exp(rng));
            let b = random_num(rng, p, small_exp(rng));
            let ab = Float::with_val(2 * p, &a * &b);
            let eab = exp_of(&ab);
            let c = match cat {
                0 => random_num(rng, p, small_exp(rng)),
                1 | 2 => {
                    // Cancellation: c ≈ −a·b.
                    let r = Float::with_val(p, -&ab);
                    near(rng, &r, p)
                }
                3 => {
                    // Exact zero: a, b short so that a·b fits p bits; c = −a·b.
                    let k = rng.range(1, p as i64 / 2) as u32;
                    let a2 = build(
                        rng.coin(),
                        small_exp(rng),
                        &mantissa(rng, p, Style::Short(k)),
                        p,
                    );
                    let b2 = build(
                        rng.coin(),
                        small_exp(rng),
                        &mantissa(rng, p, Style::Short(p - k)),
                        p,
                    );
                    let c = Float::with_val(p, -Float::with_val(p, &a2 * &b2));
                    v.push(a2);
                    v.push(b2);
                    v.push(c);
                    return (v, out_p);
                }
                4 => {
                    // Ties: a·b = ±(1 or 3)·2^k lands on half an ulp of c.
                    let c = random_num(rng, p, small_exp(rng));
                    let ec = exp_of(&c);
                    let x = rng.range(-8, 8);
                    let a2 = pow2(p, x, rng.coin());
                    let t = if rng.coin() { 1u32 } else { 3 };
                    let b2 = Float::with_val(p, pow2(p, ec - p as i64 - x + 1, rng.coin()) * t)
                        >> (t / 2);
                    v.push(a2);
                    v.push(b2);
                    v.push(c);
                    return (v, out_p);
                }
                5 => {
                    let d = rng.range(-(2 * p as i64) - 70, 2 * p as i64 + 70);
                    random_num(rng, p, eab - d)
                }
                6 => {
                    // Carries: a·b just below a power of two plus a tiny c.
                    let m = mantissa(rng, p, Style::AllOnes);
                    let a2 = build(false, 0, &m, p);
                    let b2 = build(false, 0, &m, p);
                    let e2 = exp_of(&Float::with_val(3 * p, &a2 * &b2));
                    v.push(a2);
                    v.push(b2);
                    v.push(random_num(
                        rng,
                        p,
                        e2 - rng.range(p as i64 - 4, 2 * p as i64 + 4),
                    ));
                    return (v, out_p);
                }
                7 => {
                    // Product beyond the range, c in range (or the reverse).
                    let a2 = random_num(rng, p, EMAX - rng.range(0, 4));
                    let b2 = random_num(rng, p, rng.range(-2, 3));
                    let c = random_num(rng, p, EMAX - rng.range(0, 3));
                    v.push(a2);
                    v.push(b2);
                    v.push(c);
                    return (v, out_p);
                }
                8 => {
                    // Results near the underflow threshold.
                    let a2 = random_num(rng, p, EMIN + rng.range(0, 4));
                    let b2 = random_num(rng, p, rng.range(-3, 1));
                    let ab2 = Float::with_val(2 * p, &a2 * &b2);
                    let c = if rng.coin() {
                        near(rng, &Float::with_val(p, -&ab2), p)
                    } else {
                        random_num(rng, p, EMIN + rng.range(0, 2))
                    };
                    v.push(a2);
                    v.push(b2);
                    v.push(c);
                    return (v, out_p);
                }
                9 => {
                    let q = 2 + rng.below(p as u64 - 1) as u32;
                    out_p = 2 + rng.below(p as u64 - 1) as u32;
                    random_num(rng, q, eab - rng.range(-4, 40))
                }
                10 => Float::with_val(p, 0.0) * if rng.coin() { 1 } else { -1 },
                _ => special(rng, p),
            };
            v.push(a);
            v.push(b);
            v.push(c);
            if cat == 11 {
                let k = rng.below(3) as usize;
                v[k] = special(rng, p);
            }
        }
        Op::Sqrt => {
            let a = match cat {
                0 | 1 => random_num(rng, p, rng.range(-9, 9)),
                2 | 3 => {
                    // Perfect squares and their neighbours.
                    let k = rng.range(1, (p as i64 + 1) / 2) as u32;
                    let q = build(
                        false,
                        rng.range(-9, 9),
                        &mantissa(rng, p, Style::Short(k)),
                        p,
                    );
                    let sq = Float::with_val(p, q.square_ref());
                    if cat == 3 {
                        near(rng, &sq, p)
                    } else {
                        sq
                    }
                }
                4 => build(
                    false,
                    rng.range(-9, 9),
                    &mantissa(rng, p, Style::AllOnes),
                    p,
                ),
                5 => build(false, rng.range(-9, 9), &mantissa(rng, p, Style::Pow2), p),
                6 => random_num(rng, p, EMAX - rng.range(0, 3)),
                7 => random_num(rng, p, EMIN + rng.range(0, 3)),
                8 => {
                    out_p = 2 + rng.below(2 * p as u64) as u32;
                    out_p = out_p.min(super::MAX_PREC);
                    random_num(rng, p, rng.range(-9, 9))
                }
                9 => {
                    let q = 2 + rng.below(p as u64 - 1) as u32;
                    random_num(rng, q, rng.range(-9, 9))
                }
                10 => build(false, rng.range(-9, 9), &mantissa(rng, p, Style::Runs), p),
                _ => special(rng, p),
            };
            // Mostly positive.
            let a = if cat != 11 && rng.below(8) != 0 {
                a.abs()
            } else {
                a
            };
            v.push(a);
        }
        Op::Round => {
            let extra = rng.range(1, 2 * p as i64 + 64) as u32;
            let q = p + extra;
            let e = match cat {
                9 => EMAX - rng.range(0, 2),
                10 => EMIN + rng.range(0, 2),
                _ => small_exp(rng),
            };
            let m = match cat {
                0..=2 => mantissa(rng, q, Style::Random),
                3 | 4 => {
                    // A tie at p bits (3), or just above or below one (4).
                    let mut m = mantissa(rng, q, Style::Random);
                    let nb = 64 * m.len() as u32;
                    let pos = nb - p - 1; // the round bit, counted from the bottom
                    m[(pos / 64) as usize] |= 1 << (pos % 64);
                    clear_below(&mut m, pos);
                    if cat == 4 && pos > nb - q {
                        if rng.coin() {
                            let b = (nb - q) + rng.below((pos - (nb - q)) as u64) as u32;
                            m[(b / 64) as usize] |= 1 << (b % 64);
                        } else {
                            m[(pos / 64) as usize] &= !(1 << (pos % 64));
                            for b in (nb - q)..pos {
                                m[(b / 64) as usize] |= 1 << (b % 64);
                            }
                        }
                    }
                    m
                }
                5 | 6 => mantissa(rng, q, Style::AllOnes),
                7 => mantissa(rng, q, Style::Runs),
                8 => mantissa(rng, q, Style::Sparse),
                _ => mantissa(rng, q, any_style(rng, q)),
            };
            v.push(build(rng.coin(), e, &m, q));
            if cat == 11 && rng.coin() {
                v[0] = special(rng, p);
            }
        }
        Op::ToF64 => {
            let e = match cat {
                0..=3 => rng.range(-1080, 1030),
                4 | 5 => rng.range(-1080, -1015),
                6 => rng.range(1020, 1030),
                7 | 10 => rng.range(-1100, -1020),
                _ => small_exp(rng),
            };
            let style = match cat {
                8 => Style::Short(54),
                9 => Style::AllOnes,
                10 => Style::Short(rng.range(1, 60) as u32),
                _ => any_style(rng, p),
            };
            let mut m = mantissa(rng, p, style);
            if cat == 8 && p >= 54 {
                // A tie at 53 bits.
                let n = m.len();
                let pos = 64 * n as u32 - 54;
                m[(pos / 64) as usize] |= 1 << (pos % 64);
            }
            v.push(build(rng.coin(), e, &m, p));
            if cat == 11 {
                v[0] = special(rng, p);
            }
        }
    }
    (v, out_p)
}

/// Keeps the top k bits of m and makes the k-th one (the lowest kept) 1.
fn odd_top(m: &[u64], k: u32) -> Vec<u64> {
    let mut m = m.to_vec();
    let n = m.len() as u32;
    clear_below(&mut m, 64 * n - k);
    let pos = 64 * n - k;
    m[(pos / 64) as usize] |= 1 << (pos % 64);
    m
}

#[allow(clippy::too_many_arguments)]
fn finish_ops(
    op: Op,
    rng: &Rng,
    mut v: Vec<Float>,
    b: Float,
    arity: usize,
    p: u32,
    out_p: u32,
) -> (Vec<Float>, u32) {
    v.push(b);
    if op == Op::Sub && rng.coin() {
        // Sub sees the same pairs with the other sign, so cancellation happens there too.
        let n = v.len();
        v[n - 1] = -v[n - 1].clone();
    }
    if rng.below(2) == 0 {
        v.swap(0, 1);
    }
    let _ = (arity, p);
    (v, out_p)
}

/// Compares our result with MPFR's; returns a description of any difference.
fn compare(got: &AnyLimbFloat, go: Ordering, want: &Float, wo: Ordering) -> Option<String> {
    let same = if want.is_nan() {
        got.is_nan()
    } else if got.is_nan() {
        false
    } else {
        let (mine, _) = AnyLimbFloat::from_rug(want, got.prec().max(2), Round::Nearest);
        got.kind() == mine.kind()
            && got.is_sign_negative() == want.is_sign_negative()
            && got.exponent() == mine.exponent()
            && got.mantissa() == mine.mantissa()
            && go == wo
            && want.prec() == got.prec()
            && got.to_rug() == *want
    };
    if same {
        None
    } else {
        Some(format!(
            "got {} ({:?}), MPFR {} ({:?})",
            got.to_hex(),
            go,
            AnyLimbFloat::from_rug(want, want.prec().clamp(2, super::MAX_PREC), Round::Nearest)
                .0
                .to_hex(),
            wo
        ))
    }
}

fn describe(op: Op, p: u32, out_p: u32, i: u64, rnd: Option<Round>, ops: &[Float]) -> String {
    let args: Vec<String> = ops
        .iter()
        .map(|f| {
            AnyLimbFloat::from_rug(f, f.prec().clamp(2, super::MAX_PREC), Round::Nearest)
                .0
                .to_hex()
        })
        .collect();
    format!(
        "{} at {p} bits (result {out_p} bits), set {i}, mode {}: operands [{}]",
        op.name(),
        rnd.map(|r| r.letter()).unwrap_or('-'),
        args.join(", ")
    )
}

/// Operand set i of `op` at precision p (as [`check`] draws it), every operand rounded to
/// nearest at p bits: inputs for other implementations of the same arithmetic (the GPU
/// kernels), compared with this crate's results at one uniform precision. One operand for
/// `Sqrt`, `Round` and `ToF64`, three for `Fma`, two otherwise.
pub fn operand_set(op: Op, p: u32, seed: u64, i: u64) -> Vec<AnyLimbFloat> {
    let rng = Rng::new(set_seed(seed, op, p, i));
    let (ops, _) = operands(op, p, i, &rng);
    ops.iter()
        .map(|f| AnyLimbFloat::from_rug(f, p, Round::Nearest).0)
        .collect()
}

/// The seed of operand set i.
fn set_seed(seed: u64, op: Op, p: u32, i: u64) -> u64 {
    let r = Rng::new(
        seed ^ ((op as u64) << 56) ^ ((p as u64) << 32) ^ i.wrapping_mul(0x2545_F491_4F6C_DD1D),
    );
    r.next() ^ i
}

/// Checks operand sets `start .. start + count` of `op` at precision `p` (113..=4096 bits or
/// any precision ≥ 3 the generators accept) against MPFR.
///
/// # Panics
/// When `p` is outside 3..=4096.
pub fn check(op: Op, p: u32, seed: u64, start: u64, count: u64) -> Report {
    assert!(
        (3..=super::MAX_PREC).contains(&p),
        "check precision {p} outside 3..=4096"
    );
    // SAFETY: reading MPFR's global exponent range has no preconditions.
    let range = unsafe {
        (
            gmp_mpfr_sys::mpfr::get_emin(),
            gmp_mpfr_sys::mpfr::get_emax(),
        )
    };
    assert_eq!(
        (range.0 as i64, range.1 as i64),
        (EMIN, EMAX),
        "MPFR's exponent range is not the default one"
    );
    let mut rep = Report::default();
    let fail = |rep: &mut Report, s: String| {
        rep.mismatches += 1;
        if rep.first.len() < 5 {
            rep.first.push(s);
        }
    };
    for i in start..start + count {
        let rng = Rng::new(set_seed(seed, op, p, i));
        let (ops, out_p) = operands(op, p, i, &rng);
        // Exact copies (operands longer than 4096 bits occur only for `Round`, whose
        // second check then is skipped).
        let mine: Vec<AnyLimbFloat> = ops
            .iter()
            .map(|f| AnyLimbFloat::from_rug(f, f.prec().min(super::MAX_PREC), Round::Nearest).0)
            .collect();
        rep.sets += 1;
        match op {
            Op::Cmp => {
                rep.checks += 1;
                let (a, b) = (&mine[0], &mine[1]);
                let ok = a.cmp_value(b) == ops[0].partial_cmp(&ops[1])
                    && a.total_cmp(b) == ops[0].total_cmp(&ops[1])
                    && b.total_cmp(a) == ops[1].total_cmp(&ops[0]);
                if !ok {
                    fail(&mut rep, describe(op, p, p, i, None, &ops));
                }
            }
            Op::ToF64 => {
                for rnd in Round::ALL {
                    rep.checks += 1;
                    let got = mine[0].to_f64(rnd);
                    let want = ops[0].to_f64_round(rnd.to_rug());
                    let same = (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits();
                    if !same {
                        fail(
                            &mut rep,
                            format!(
                                "{}: got {got:e}, MPFR {want:e}",
                                describe(op, p, p, i, Some(rnd), &ops)
                            ),
                        );
                    }
                }
            }
            _ => {
                for rnd in Round::ALL {
                    rep.checks += 1;
                    let r = rnd.to_rug();
                    // SAFETY: MPFR's (thread-local) exception flags, no preconditions.
                    unsafe { gmp_mpfr_sys::mpfr::clear_flags() };
                    let (got, go, (want, wo)) = match op {
                        Op::Add => {
                            let (g, o) = AnyLimbFloat::add_prec(&mine[0], &mine[1], out_p, rnd);
                            (g, o, Float::with_val_round(out_p, &ops[0] + &ops[1], r))
                        }
                        Op::Sub => {
                            let (g, o) = AnyLimbFloat::sub_prec(&mine[0], &mine[1], out_p, rnd);
                            (g, o, Float::with_val_round(out_p, &ops[0] - &ops[1], r))
                        }
                        Op::Mul => {
                            let (g, o) = AnyLimbFloat::mul_prec(&mine[0], &mine[1], out_p, rnd);
                            (g, o, Float::with_val_round(out_p, &ops[0] * &ops[1], r))
                        }
                        Op::Div => {
                            let (g, o) = AnyLimbFloat::div_prec(&mine[0], &mine[1], out_p, rnd);
                            (g, o, Float::with_val_round(out_p, &ops[0] / &ops[1], r))
                        }
                        Op::Fma => {
                            let (g, o) =
                                AnyLimbFloat::fma_prec(&mine[0], &mine[1], &mine[2], out_p, rnd);
                            (
                                g,
                                o,
                                Float::with_val_round(
                                    out_p,
                                    ops[0].mul_add_ref(&ops[1], &ops[2]),
                                    r,
                                ),
                            )
                        }
                        Op::Sqrt => {
                            let (g, o) = AnyLimbFloat::sqrt_prec(&mine[0], out_p, rnd);
                            (g, o, Float::with_val_round(out_p, ops[0].sqrt_ref(), r))
                        }
                        Op::Round => {
                            let (g, o) = AnyLimbFloat::from_rug(&ops[0], p, rnd);
                            let (g2, o2) = mine[0].with_prec_round(p, rnd);
                            let want = Float::with_val_round(p, &ops[0], r);
                            let exact = ops[0].prec() <= super::MAX_PREC;
                            if exact && compare(&g2, o2, &want.0, want.1).is_some() {
                                fail(
                                    &mut rep,
                                    format!(
                                        "{} (with_prec_round)",
                                        describe(op, p, p, i, Some(rnd), &ops)
                                    ),
                                );
                            }
                            (g, o, want)
                        }
                        Op::Cmp | Op::ToF64 => unreachable!(),
                    };
                    if rnd == Round::Nearest {
                        // SAFETY: as above.
                        let (under, over) = unsafe {
                            (
                                gmp_mpfr_sys::mpfr::underflow_p() != 0,
                                gmp_mpfr_sys::mpfr::overflow_p() != 0,
                            )
                        };
                        rep.underflows += under as u64;
                        rep.overflows += over as u64;
                        if want.is_zero() {
                            rep.zeros += 1;
                        } else if !want.is_finite() {
                            rep.specials += (!over) as u64;
                        } else if wo == Ordering::Equal {
                            rep.exact += 1;
                        } else if !under && !over && is_tie(op, &ops, out_p) {
                            rep.ties += 1;
                        }
                    }
                    if let Some(d) = compare(&got, go, &want, wo) {
                        fail(
                            &mut rep,
                            format!("{}: {d}", describe(op, p, out_p, i, Some(rnd), &ops)),
                        );
                    }
                }
            }
        }
    }
    rep
}

/// True when the exact result of an inexact operation is a midpoint at `q` bits: it is exact
/// at q + 1 bits.
fn is_tie(op: Op, ops: &[Float], q: u32) -> bool {
    let z = RRound::Zero;
    let (_, o) = match op {
        Op::Add => Float::with_val_round(q + 1, &ops[0] + &ops[1], z),
        Op::Sub => Float::with_val_round(q + 1, &ops[0] - &ops[1], z),
        Op::Mul => Float::with_val_round(q + 1, &ops[0] * &ops[1], z),
        Op::Div => Float::with_val_round(q + 1, &ops[0] / &ops[1], z),
        Op::Fma => Float::with_val_round(q + 1, ops[0].mul_add_ref(&ops[1], &ops[2]), z),
        Op::Sqrt => Float::with_val_round(q + 1, ops[0].sqrt_ref(), z),
        Op::Round => Float::with_val_round(q + 1, &ops[0], z),
        Op::ToF64 | Op::Cmp => return false,
    };
    o == Ordering::Equal
}
