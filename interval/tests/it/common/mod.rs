//! Shared strategies for the interval tests: a seeded RNG, generators of random and
//! adversarial intervals (given by exact endpoints as MPFR numbers), sample points inside an
//! interval, and the MPFR oracle at 4096 bits.
//!
//! The oracle never looks at the code under test: exact results are computed by MPFR from
//! sample points of the *input* intervals, rounded down and up at 4096 bits (if the exact
//! value is in an output interval whose endpoints have fewer bits, both of its 4096-bit
//! directed roundings are too, by monotonicity of rounding).
#![allow(dead_code)]

use expanse_interval::IntervalArith;
use rug::float::Round;
use rug::{Float, Integer};

/// Oracle precision.
pub const ORACLE: u32 = 4096;

/// SplitMix64: small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
    /// A random Float in [1, 2) with `bits` random bits.
    pub fn significand(&mut self, bits: u32) -> Float {
        let words = bits.div_ceil(64);
        let mut m = Integer::from(1);
        for _ in 0..words {
            m <<= 64;
            m += self.next_u64();
        }
        let mut f = Float::with_val(words * 64 + 64, m);
        f >>= (words * 64) as i32;
        // Keep only `bits` bits below the leading one.
        Float::with_val_round(bits + 1, &f, Round::Zero).0
    }
}

/// Exponent ranges a value may come from.
#[derive(Clone, Copy, Debug)]
pub enum Scale {
    Unit,
    /// Exponents in ±120: products and quotients of two such stay in every kind's exact range.
    Mid,
    Moderate,
    Huge,
    Tiny,
}

/// A random non-zero value of random sign, with a random number of significant bits (a
/// plain f64, a multi-word expansion-like number, or a long MPFR number).
pub fn value(rng: &mut Rng, scale: Scale) -> Float {
    let bits = match rng.below(4) {
        0 => 52,
        1 => 105,
        2 => rng.range(1, 400) as u32,
        _ => 1000,
    };
    let e = match scale {
        Scale::Unit => rng.range(-3, 3),
        Scale::Mid => rng.range(-120, 120),
        Scale::Moderate => rng.range(-300, 300),
        Scale::Huge => rng.range(900, 1023),
        Scale::Tiny => rng.range(-1074, -900),
    } as i32;
    let mut v = rng.significand(bits);
    v <<= e;
    if rng.coin() {
        v = -v;
    }
    v
}

pub fn random_scale(rng: &mut Rng) -> Scale {
    match rng.below(10) {
        0 => Scale::Huge,
        1 => Scale::Tiny,
        2 | 3 => Scale::Moderate,
        _ => Scale::Unit,
    }
}

/// Decimal inputs that are (mostly) not binary numbers.
pub const DECIMALS: &[&str] = &[
    "0.1",
    "-0.1",
    "1.399999486944",
    "0.2999999774905",
    "0.3",
    "1.4",
    "-1.25",
    "1e-300",
    "-2.5e300",
    "3.14159265358979323846264338327950288419716939937510",
    "0",
    "7",
    "1e-320",
    "1.7976931348623157e308",
];

/// An interval given by exact endpoints (None = empty). Infinite endpoints are allowed.
pub type Spec = Option<(Float, Float)>;

fn inf(neg: bool) -> Float {
    Float::with_val(
        53,
        if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        },
    )
}

/// A random or adversarial interval specification.
pub fn spec(rng: &mut Rng) -> Spec {
    let sorted = |a: Float, b: Float| if a <= b { (a, b) } else { (b, a) };
    let s = random_scale(rng);
    Some(match rng.below(16) {
        0 | 1 => {
            let v = value(rng, s);
            (v.clone(), v)
        }
        2..=4 => {
            // thin: relative width 2^-k
            let v = value(rng, s);
            let k = rng.range(1, 900) as i32;
            let w = Float::with_val(ORACLE, v.clone().abs() >> k);
            let hi = Float::with_val(ORACLE, &v + &w);
            (v, hi)
        }
        5 | 6 => sorted(value(rng, s), value(rng, s)),
        7 | 8 => {
            // straddling zero
            let a = value(rng, s).abs();
            let s2 = random_scale(rng);
            let b = value(rng, s2).abs();
            (-a, b)
        }
        9 => {
            let v = value(rng, s).abs();
            if rng.coin() {
                (Float::with_val(53, 0), v)
            } else {
                (-v, Float::with_val(53, -0.0))
            }
        }
        10 => (Float::with_val(53, 0), Float::with_val(53, 0)),
        11 => {
            let v = value(rng, s);
            if rng.coin() {
                (inf(true), v)
            } else {
                (v, inf(false))
            }
        }
        12 => {
            if rng.below(4) == 0 {
                return None;
            }
            (inf(true), inf(false))
        }
        13 => {
            // decimal point or thin decimal interval
            let d = DECIMALS[rng.below(DECIMALS.len() as u64) as usize];
            let q = Float::with_val(ORACLE, Float::parse(d).unwrap());
            (q.clone(), q)
        }
        _ => {
            // mixed magnitudes: huge and tiny endpoints in one interval
            let a = value(rng, Scale::Tiny);
            let b = value(rng, Scale::Huge);
            sorted(a, b)
        }
    })
}

/// Builds the interval of kind I enclosing the spec (outward).
pub fn build<I: IntervalArith>(ctx: &I::Ctx, s: &Spec) -> I {
    match s {
        None => I::empty(ctx),
        Some((lo, hi)) => I::from_rug_bounds(ctx, lo, hi).expect("valid spec"),
    }
}

/// Finite sample points of a non-empty interval: its finite endpoints, a midpoint, random
/// interior points, zero when inside, and large finite points on unbounded sides.
pub fn samples<I: IntervalArith>(rng: &mut Rng, x: &I, extra: usize) -> Vec<Float> {
    let mut v = Vec::new();
    if x.is_empty() {
        return v;
    }
    let lo = x.inf_rug();
    let hi = x.sup_rug();
    let lo_f = lo.is_finite();
    let hi_f = hi.is_finite();
    if lo_f {
        v.push(Float::with_val(ORACLE, &lo));
    }
    if hi_f {
        v.push(Float::with_val(ORACLE, &hi));
    }
    if lo_f && hi_f {
        let d = Float::with_val(ORACLE, &hi - &lo);
        for _ in 0..extra {
            let t = Float::with_val(64, rng.next_u64()) >> 64i32;
            let mut p = Float::with_val(ORACLE, &d * &t);
            p += &lo;
            if p > hi {
                p = Float::with_val(ORACLE, &hi);
            }
            if p < lo {
                p = Float::with_val(ORACLE, &lo);
            }
            v.push(p);
        }
    } else {
        let anchor = if lo_f {
            Float::with_val(ORACLE, &lo)
        } else if hi_f {
            Float::with_val(ORACLE, &hi)
        } else {
            Float::with_val(ORACLE, 0)
        };
        for k in [0i32, 1, 40, 1100] {
            let step = Float::with_val(ORACLE, 1) << k;
            if !lo_f {
                v.push(Float::with_val(ORACLE, &anchor - &step));
            }
            if !hi_f {
                v.push(Float::with_val(ORACLE, &anchor + &step));
            }
        }
    }
    if x.contains_f64(0.0) {
        v.push(Float::with_val(ORACLE, 0));
    }
    v
}

/// Checks that both directed 4096-bit roundings of an exact value lie in `out`; returns the
/// number of cases checked (1) or panics with the failing case.
pub fn assert_in<I: IntervalArith>(out: &I, dn: &Float, up: &Float, what: &dyn Fn() -> String) {
    assert!(
        out.contains_rug(dn) && out.contains_rug(up),
        "CONTAINMENT VIOLATION: {} gives {:?} = [{}, {}], exact ∈ [{}, {}]",
        what(),
        out,
        out.inf_rug(),
        out.sup_rug(),
        dn,
        up
    );
}

/// Both directed 4096-bit roundings of an MPFR expression.
#[macro_export]
macro_rules! exact2 {
    ($e:expr) => {{
        let dn = rug::Float::with_val_round($crate::common::ORACLE, $e, rug::float::Round::Down).0;
        let up = rug::Float::with_val_round($crate::common::ORACLE, $e, rug::float::Round::Up).0;
        (dn, up)
    }};
}
