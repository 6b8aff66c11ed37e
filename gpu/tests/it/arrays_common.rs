//! Shared helpers of the array-layer tests: a seeded generator, random expansions (benign,
//! cancelling, wide dynamic range), and exact values as rationals (the oracle: every
//! expansion is a finite sum of binary floats, so its value and any sum or product of such
//! values is an exact rational).
#![allow(dead_code)]

use expanse_core::{Expansion, FloatTerm};
use rug::Rational;

/// SplitMix64 (Steele, Lea, Flood 2014).
pub struct Rng(pub u64);

impl Rng {
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
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A random p-bit term of magnitude in [2^e, 2^(e+1)), random sign.
pub fn term<T: FloatTerm>(rng: &mut Rng, e: i32) -> T {
    let p = T::PRECISION as i32;
    let m = (1u64 << (p - 1)) | (rng.next() >> (64 - (p - 1)));
    T::from_f64(rng.sign() * <f64 as FloatTerm>::ldexp(m as f64, e - (p - 1)))
}

/// A random expansion with leading exponent about `e0` and a full tail (each term about p bits
/// below the previous, random signs; renormalised exactly by `from_terms`).
pub fn rand_exp<T: FloatTerm, const N: usize>(rng: &mut Rng, e0: i32) -> Expansion<T, N> {
    let p = T::PRECISION as i32;
    let mut t = [T::ZERO; N];
    for (k, v) in t.iter_mut().enumerate() {
        let e = e0 - k as i32 * p - rng.range(0, 3);
        // Stay inside the normal range of T (a subnormal or zero tail is fine too).
        let lo = if T::PRECISION == 53 { -1000 } else { -120 };
        *v = if e > lo { term::<T>(rng, e) } else { T::ZERO };
    }
    Expansion::from_terms(t)
}

/// Benign data: leading exponents in [−3, 3].
pub fn benign<T: FloatTerm, const N: usize>(rng: &mut Rng, len: usize) -> Vec<Expansion<T, N>> {
    (0..len)
        .map(|_| {
            let e = rng.range(-3, 3);
            rand_exp(rng, e)
        })
        .collect()
}

/// Adversarial data: wide dynamic range (exponents over ±`span`), exact cancelling pairs
/// (x and −x + tiny), zeros.
pub fn adversarial<T: FloatTerm, const N: usize>(
    rng: &mut Rng,
    len: usize,
    span: i32,
) -> Vec<Expansion<T, N>> {
    let mut v: Vec<Expansion<T, N>> = Vec::with_capacity(len);
    while v.len() < len {
        match rng.below(6) {
            0 => v.push(Expansion::zero()),
            1 | 2 => {
                let e = rng.range(-span, span);
                let x: Expansion<T, N> = rand_exp(rng, e);
                v.push(x);
                if v.len() < len {
                    let d = rng.range(20, 200);
                    let tiny: Expansion<T, N> = rand_exp(rng, e - d);
                    v.push(x.neg().add(&tiny));
                }
            }
            _ => {
                let e = rng.range(-span, span);
                v.push(rand_exp(rng, e));
            }
        }
    }
    v
}

/// The exact value of an expansion.
pub fn exact<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Rational {
    let mut s = Rational::new();
    for t in x.terms() {
        s += Rational::from_f64(t.to_f64()).expect("finite term");
    }
    s
}

/// |computed − exact| ≤ err, decided exactly (+∞ always holds).
pub fn within<T: FloatTerm, const N: usize>(
    computed: &Expansion<T, N>,
    exact_v: &Rational,
    err: f64,
) -> bool {
    if err == f64::INFINITY {
        return true;
    }
    if !err.is_finite() || !computed.is_finite() {
        return false;
    }
    let d = (exact(computed) - exact_v).abs();
    d <= Rational::from_f64(err).expect("finite bound")
}

/// |computed − exact| as f64 (rounded; for reporting ratios).
pub fn abs_err<T: FloatTerm, const N: usize>(
    computed: &Expansion<T, N>,
    exact_v: &Rational,
) -> f64 {
    (exact(computed) - exact_v).abs().to_f64()
}

/// The bits of an expansion's terms (for bit-identity checks).
pub fn bits<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> [u64; N] {
    let mut b = [0u64; N];
    for (k, t) in x.terms().iter().enumerate() {
        b[k] = t.to_bits_u64();
    }
    b
}

/// Bits of every element.
pub fn all_bits<T: FloatTerm, const N: usize>(xs: &[Expansion<T, N>]) -> Vec<[u64; N]> {
    xs.iter().map(bits).collect()
}
