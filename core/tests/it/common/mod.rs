//! Shared helpers of the oracle tests: a seeded SplitMix64 generator, adversarial expansion
//! generators built term by term, exact MPFR values and relative errors.
#![allow(dead_code)]

use expanse_core::{bounds, float::ulp, Expansion, FloatTerm};
use rug::Float;

pub mod functions;

/// Oracle precision (bits).
pub const PREC: u32 = 2400;

/// Bit patterns, with every NaN mapped to one value (NaN sign and payload are not specified
/// by IEEE-754 and the compiler may commute operands of + and ·): the identity tests of the
/// batched (SIMD lane) code against the scalar code compare these.
pub fn bits<T: FloatTerm>(terms: &[T]) -> Vec<u64> {
    terms
        .iter()
        .map(|t| {
            if t.is_nan() {
                u64::MAX
            } else {
                t.to_bits_u64()
            }
        })
        .collect()
}

/// The SIMD levels this CPU has (the baseline, and AVX-512 where detected), for the tests
/// that run the lane code at each.
pub fn levels() -> Vec<expanse_core::batch::SimdLevel> {
    use expanse_core::batch::SimdLevel;
    let mut v = vec![SimdLevel::Baseline];
    if SimdLevel::detect() == SimdLevel::Avx512 {
        v.push(SimdLevel::Avx512);
    }
    v
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, seeded, good enough for test inputs.
pub struct SplitMix(pub u64);
impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
    pub fn sign(&mut self) -> f64 {
        if self.next() & 1 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// 2^e as f64.
pub fn pow2(e: i32) -> f64 {
    <f64 as FloatTerm>::ldexp(1.0, e)
}

/// ⌊log₂|v|⌋ of a finite non-zero f64.
pub fn log2i(v: f64) -> i32 {
    v.abs().log2().floor() as i32
}

/// A random p-bit number ±m·2^(e−p+1) with 2^e ≤ |value| < 2^(e+1).
pub fn rand_term<T: FloatTerm>(rng: &mut SplitMix, e: i32) -> T {
    let p = T::PRECISION;
    let m = (1u64 << (p - 1)) | (rng.next() >> (64 - (p - 1)));
    let v = rng.sign() * <f64 as FloatTerm>::ldexp(m as f64, e - (p as i32 - 1));
    T::from_f64(v)
}

/// A random ulp-nonoverlapping expansion with leading exponent `e0`, built term by term with
/// adversarial tails: terms exactly ulp or half an ulp of their predecessor, random terms just
/// below ulp, gaps, zero tails.
pub fn rand_expansion<T: FloatTerm, const N: usize>(
    rng: &mut SplitMix,
    e0: i32,
) -> Expansion<T, N> {
    let mut t = [T::ZERO; N];
    t[0] = rand_term::<T>(rng, e0);
    for i in 1..N {
        let u = ulp(t[i - 1]).to_f64();
        let s = rng.sign();
        let v = match rng.below(10) {
            0 => s * u,
            1 => s * u / 2.0,
            2 => break,
            3 => {
                let gap = rng.range(1, 40);
                rand_term::<T>(rng, log2i(u) - 1 - gap).to_f64()
            }
            4 => {
                // Just below ulp: all ones.
                s * (u - ulp(T::from_f64(u / 2.0)).to_f64())
            }
            _ => rand_term::<T>(rng, log2i(u) - 1).to_f64(),
        };
        let tv = T::from_f64(v);
        if tv.to_f64() != v || tv == T::ZERO {
            break;
        }
        t[i] = tv;
    }
    Expansion::try_from_normalized(t).expect("generator keeps the invariant")
}

/// The exact value.
pub fn exact<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Float {
    Float::with_val(PREC, x.to_rug())
}

/// |got − exact| / |exact| as f64 (exact ≠ 0).
pub fn rel_err<T: FloatTerm, const N: usize>(got: &Expansion<T, N>, exact: &Float) -> f64 {
    let d = Float::with_val(PREC, &got.to_rug() - exact);
    Float::with_val(PREC, d / exact).to_f64().abs()
}

/// True when a non-zero magnitude lies in the bounds' range of validity.
pub fn in_range<T: FloatTerm>(n: usize, v: &Float) -> bool {
    if v.is_zero() {
        return true;
    }
    let a = Float::with_val(64, v.abs_ref());
    a >= bounds::min_normal_result::<T>(n) && a <= bounds::max_normal_result::<T>(n)
}

/// log₂ of the range limits of operands for (T, N), with a margin.
pub fn exponent_band<T: FloatTerm>(n: usize) -> (i32, i32) {
    let lo = log2i(bounds::min_normal_result::<T>(n)) + 2;
    let hi = log2i(bounds::max_normal_result::<T>(n)) - 2;
    (lo, hi)
}

/// Worst-error statistics of one operation.
#[derive(Default)]
pub struct Stats {
    pub cases: u64,
    pub worst: f64,
}

impl Stats {
    pub fn record(&mut self, e: f64) {
        self.cases += 1;
        if e > self.worst {
            self.worst = e;
        }
    }
}
