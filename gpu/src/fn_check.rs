//! Arguments for the CPU/GPU identity checks of the accurate tier and the elementary functions
//! (the host-build tests `tests/it/accurate_on_cpu.rs`, `tests/it/functions_on_cpu.rs`, and the
//! device check `expanse bench functions --check` use the same families): random valid
//! expansions whose lower terms sit on the boundaries of the invariant (exactly ±ulp, ±½ulp, all
//! ones below ulp, large gaps, early zeros), spread over each function's domain in exponent,
//! and edge arguments (±0, ±∞, NaN, domain errors, overflow and underflow thresholds, huge
//! trigonometric arguments, π/2 and 1 ± ulp to the working precision, subnormals). Seeded and
//! deterministic.

use expanse_core::functions::{constants, Binary, Unary};
use expanse_core::{Expansion, FloatTerm};

/// SplitMix64, a small deterministic generator.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
    /// ±1.
    pub fn sign(&mut self) -> f64 {
        if self.next_u64() & 1 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// ⌊log₂|v|⌋ of a finite non-zero machine number.
pub fn ilog2<T: FloatTerm>(v: T) -> i32 {
    let b = v.to_f64().abs().to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    if e == 0 {
        -1074 + (63 - b.leading_zeros() as i32)
    } else {
        e - 1023
    }
}

/// A random machine number ±m·2^e, m ∈ [1, 2) with random bits.
pub fn rand_term<T: FloatTerm>(rng: &mut Rng, e: i32) -> T {
    let m = 1.0 + (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    T::from_f64(rng.sign() * m).ldexp(e)
}

/// A random valid expansion with leading exponent `e0`: lower terms of exactly ±ulp, ±½ulp,
/// all ones just below ulp, random below ulp, after a gap, or an early end (zeros).
pub fn rand_expansion<T: FloatTerm, const N: usize>(rng: &mut Rng, e0: i32) -> Expansion<T, N> {
    let mut t = [T::ZERO; N];
    t[0] = rand_term::<T>(rng, e0);
    for i in 1..N {
        let u = expanse_core::float::ulp(t[i - 1]);
        let s = T::from_f64(rng.sign());
        let v = match rng.below(10) {
            0 => s * u,
            1 => s * u.ldexp(-1),
            2 => break,
            3 => {
                let gap = rng.range(1, 60);
                rand_term::<T>(rng, ilog2(u) - 1 - gap)
            }
            4 => s * (u - expanse_core::float::ulp(u.ldexp(-1))),
            _ => rand_term::<T>(rng, ilog2(u) - 1),
        };
        if v == T::ZERO || !v.is_finite() {
            break;
        }
        t[i] = v;
    }
    Expansion::from_terms(t)
}

/// Largest and smallest useful leading exponents of T (huge, and tiny with subnormals).
fn exp_range<T: FloatTerm>() -> (i32, i32) {
    if T::PRECISION == 53 {
        (1020, -1070)
    } else {
        (125, -147)
    }
}

fn special_values<T: FloatTerm, const N: usize>() -> Vec<Expansion<T, N>> {
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        T::MAX.to_f64(),
        T::MIN_POSITIVE.to_f64(),
    ]
    .iter()
    .map(|&v| Expansion::from_term(T::from_f64(v)))
    .collect()
}

/// Operand pairs for the accurate tier: random near 1, over the whole exponent range, huge or
/// tiny pairs of similar magnitude, cancelling pairs (b = z − a rounded, b = −a, nearby
/// magnitudes), powers of two (ties), specials against random values, and every pair of
/// specials.
pub fn accurate_operands<T: FloatTerm, const N: usize>(
    count: usize,
    seed: u64,
) -> Vec<[Expansion<T, N>; 2]> {
    let mut rng = Rng(seed);
    let rng = &mut rng;
    let (emax, emin) = exp_range::<T>();
    let specials = special_values::<T, N>();
    let mut out = Vec::with_capacity(count + specials.len().pow(2));
    for c in 0..count {
        let pair = match c % 8 {
            0 | 1 => {
                let (ea, eb) = (rng.range(-3, 3), rng.range(-3, 3));
                [rand_expansion(rng, ea), rand_expansion(rng, eb)]
            }
            2 => {
                let (ea, eb) = (rng.range(emin, emax), rng.range(emin, emax));
                [rand_expansion(rng, ea), rand_expansion(rng, eb)]
            }
            3 => {
                let e = if rng.below(2) == 0 {
                    rng.range(emax - 8, emax)
                } else {
                    rng.range(emin, emin + 2 * T::PRECISION as i32)
                };
                let e2 = e + rng.range(-2, 2);
                [rand_expansion(rng, e), rand_expansion(rng, e2)]
            }
            4 | 5 => {
                let e = rng.range(-3, 3);
                let a: Expansion<T, N> = rand_expansion(rng, e);
                let b = match rng.below(4) {
                    0 => {
                        let k = rng.range(1, N as i32 * T::PRECISION as i32 + 10);
                        let z: Expansion<T, N> = rand_expansion(rng, e - k);
                        z.sub(&a)
                    }
                    1 => a.neg(),
                    2 => {
                        let d = rng.range(1, 40);
                        rand_expansion(rng, e - d)
                    }
                    _ => {
                        let d = rng.range(-3, 3);
                        rand_expansion(rng, e + d)
                    }
                };
                [a, b]
            }
            6 => {
                let mut t = [T::ZERO; N];
                let mut e = rng.range(-4, 4);
                for v in t.iter_mut() {
                    *v = T::from_f64(rng.sign()).ldexp(e);
                    e -= rng.range(T::PRECISION as i32 - 1, T::PRECISION as i32 + 2);
                }
                let a = Expansion::from_terms(t);
                let b: Expansion<T, N> = if rng.below(2) == 0 {
                    Expansion::from_term(T::ONE)
                } else {
                    let e = rng.range(-2, 2);
                    rand_expansion(rng, e)
                };
                [a, b]
            }
            _ => {
                let s = specials[rng.below(specials.len() as u64) as usize];
                let e = rng.range(-3, 3);
                let o = rand_expansion(rng, e);
                if rng.below(2) == 0 {
                    [s, o]
                } else {
                    [o, s]
                }
            }
        };
        out.push(pair);
    }
    for a in &specials {
        for b in &specials {
            out.push([*a, *b]);
        }
    }
    out
}

fn e<T: FloatTerm, const N: usize>(v: f64) -> Expansion<T, N> {
    Expansion::from_f64(v)
}

/// Edge arguments shared by every function (values near, not at, some constants on purpose).
#[allow(clippy::approx_constant)]
fn edges<T: FloatTerm, const N: usize>() -> Vec<Expansion<T, N>> {
    let big = if T::PRECISION == 53 { 1e300 } else { 1e37 };
    let tiny = if T::PRECISION == 53 { 1e-300 } else { 1e-37 };
    let sub = if T::PRECISION == 53 { 5e-320 } else { 1e-44 };
    let mut v: Vec<Expansion<T, N>> = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        big,
        -big,
        tiny,
        -tiny,
        sub,
        -sub,
        1e-5,
        -1e-5,
        0.999,
        1.001,
        -0.999,
        10.0,
        100.0,
        -100.0,
        0.75,
        0.78,
        0.7854,
        1e22,
        -1e22,
        1e10,
    ]
    .iter()
    .map(|&x| e(x))
    .collect();
    // Constants to the working precision: π/2 (a pole of tan), π, π/4, 10⁶π, ln 2, e, 1 ± ulp.
    let pi: Expansion<T, N> = constants::pi();
    v.push(pi.ldexp(-1));
    v.push(pi.ldexp(-1).neg());
    v.push(pi);
    v.push(pi.ldexp(-2));
    v.push(pi.mul_term(T::from_f64(1e6)));
    v.push(constants::ln2());
    v.push(constants::e());
    let one = Expansion::<T, N>::one();
    let u = T::from_f64(T::UNIT_ROUNDOFF).ldexp(-(N as i32 - 1) * T::PRECISION as i32);
    v.push(one.add_term(u));
    v.push(one.add_term(-u));
    v.push(one.neg().add_term(u));
    v
}

/// Domain edges of `f` and the exponent range of its random arguments: (edges, lowest
/// exponent, highest exponent, positive only). Values near, not at, some constants on purpose
/// (the f64 roundings of 2π, π, π/2 are what a user passes).
#[allow(clippy::approx_constant)]
fn domain<T: FloatTerm>(f: Unary) -> (Vec<f64>, i32, i32, bool) {
    let f64t = T::PRECISION == 53;
    match f {
        Unary::Exp | Unary::ExpM1 | Unary::Sinh | Unary::Cosh | Unary::Tanh => {
            let (o, u) = if f64t {
                (709.9, -745.5)
            } else {
                (88.9, -103.9)
            };
            (
                vec![o, u, o + 1.0, u - 1.0, 0.3465, -0.3466, 0.0039, 20.0, -40.0],
                -60,
                if f64t { 10 } else { 7 },
                false,
            )
        }
        Unary::Ln | Unary::Log2 | Unary::Log10 => (
            vec![0.7071, 1.4142, 1024.0, 0.125, -3.0, 1e-310],
            if f64t { -1070 } else { -140 },
            if f64t { 1020 } else { 125 },
            true,
        ),
        Unary::Ln1p => (
            vec![-0.2929, 0.4142, -0.9999, -1.5, 1e-20, 1e30],
            -60,
            if f64t { 1000 } else { 120 },
            false,
        ),
        Unary::Cbrt => (
            vec![27.0, -8.0, 0.001, 7.999, 1e-300],
            if f64t { -1070 } else { -140 },
            if f64t { 1020 } else { 125 },
            false,
        ),
        Unary::Sin | Unary::Cos | Unary::Tan => (
            vec![
                1e300,
                1e308,
                6.283185307179586,
                3.141592653589793,
                1.5707963267948966,
                1e15,
                // Around the Cody–Waite reduction's checks: q's rounding boundaries (π/4,
                // 3π/4), near π/2, |q| at 2^8 (f32) and 2^16 (f64).
                0.7853982,
                2.3561945,
                1.5707963,
                1.5708116,
                402.0,
                402.5,
                102943.0,
                102944.0,
            ],
            -40,
            if f64t { 1020 } else { 125 },
            false,
        ),
        Unary::Atan => (vec![1e20, -1e20, 0.4142, 2.4142], -40, 60, false),
        Unary::Asin | Unary::Acos | Unary::Atanh => {
            (vec![0.99999, -0.99999, 1.5, -1.5, 0.7071], -40, -1, false)
        }
        Unary::Asinh => (vec![1e20, -1e20, 2.0, 2.0001], -40, 60, false),
        Unary::Acosh => (vec![0.9, 0.5, 1.00001, 2.0, 1e20], 0, 60, true),
    }
}

fn rand_arg<T: FloatTerm, const N: usize>(
    rng: &mut Rng,
    lo: i32,
    hi: i32,
    positive: bool,
) -> Expansion<T, N> {
    let ex = rng.range(lo, hi);
    let x: Expansion<T, N> = rand_expansion(rng, ex);
    if positive {
        x.abs()
    } else {
        x
    }
}

/// Arguments of the unary function `f`: the shared edges, `f`'s domain edges (both signs),
/// `random` random arguments over its domain, `random / 8` arguments just below 1
/// (cancellation in 1 − x), and for atan `random / 2` arguments at and near the table points
/// of its table reduction.
pub fn unary_arguments<T: FloatTerm, const N: usize>(
    f: Unary,
    random: usize,
    seed: u64,
) -> Vec<Expansion<T, N>> {
    let mut rng = Rng(seed);
    let rng = &mut rng;
    let (extra, lo, hi, positive) = domain::<T>(f);
    let mut xs = edges::<T, N>();
    for &v in &extra {
        xs.push(e(v));
        xs.push(e(-v));
    }
    for _ in 0..random {
        xs.push(rand_arg(rng, lo, hi, positive));
    }
    for _ in 0..random / 8 {
        let ed = rng.range(-60, -2);
        let d: Expansion<T, N> = rand_expansion(rng, ed);
        xs.push(Expansion::one().sub(&d.abs()));
    }
    if f == Unary::Atan {
        // Near the points j/256 and (j + ½)/256 of atan's table reduction (the entry itself,
        // both sides, the switch between neighbouring entries), both signs; at N ≥ 3 offsets
        // down to the last term (cancellation in the numerator z − j/256).
        let low = if N <= 2 {
            if T::PRECISION == 53 {
                -110
            } else {
                -50
            }
        } else {
            // (f32: above the subnormal range)
            (-(T::PRECISION as i32 * N as i32 + 8)).max(if T::PRECISION == 53 {
                -1000
            } else {
                -120
            })
        };
        for _ in 0..random / 4 {
            let j = rng.below(513) as f64 / 512.0;
            let ed = rng.range(low, -9);
            let d: Expansion<T, N> = rand_expansion(rng, ed);
            let x = Expansion::<T, N>::from_f64(j).add(&d);
            xs.push(if rng.below(2) == 0 { x } else { x.neg() });
            xs.push(Expansion::from_f64(j * rng.sign()));
        }
        // The reciprocal path of N = 2 (`atan_recip_table`): near 256/j and 512/(2j − 1)
        // (its table points, where 1 − c·x cancels, and its rounding midpoints), and leading
        // terms in (1, 600) with a lower term just below or above its 2^−960 / 2^−93 limit.
        for _ in 0..random / 4 {
            let j = (1 + rng.below(512)) as f64 / 2.0;
            let ed = rng.range(low, -1);
            let d: Expansion<T, N> = rand_expansion(rng, ed);
            let base = Expansion::<T, N>::from_f64(256.0 / j);
            let x = base.add(&base.mul(&d));
            xs.push(if rng.below(2) == 0 { x } else { x.neg() });
            let lead = 1.0 + rng.below(599 << 20) as f64 / (1u64 << 20) as f64;
            let far = if T::PRECISION == 53 {
                2f64.powi(-(950 + rng.below(50) as i32))
            } else {
                2f64.powi(-(88 + rng.below(12) as i32))
            };
            xs.push(Expansion::<T, N>::from_f64(lead * rng.sign()).add(&Expansion::from_f64(far)));
        }
    }
    if f == Unary::Atan && T::PRECISION == 53 {
        // The fixed-point end of atan at f64 N ≥ 3 (`atan_fixed.rs`): around 2^−9 (the switch
        // between j = 0 and j = 1), 2^−240 (j = 0 returns z itself from there on) and tiny
        // arguments, and the reciprocals of these (|x| > 1); both signs.
        for &ex in &[-9, -10, -239, -240, -241, -600] {
            for _ in 0..random / 64 + 1 {
                let ed = rng.range(-(T::PRECISION as i32) * N as i32, -1);
                let d: Expansion<T, N> = rand_expansion(rng, ed);
                let base = Expansion::<T, N>::from_f64(2f64.powi(ex) * rng.sign());
                let x = base.add(&base.mul(&d));
                xs.push(x);
                xs.push(Expansion::one().div(&x));
                xs.push(base);
            }
        }
    }
    if matches!(f, Unary::Sin | Unary::Cos | Unary::Tan) {
        // The fixed-point sin/cos of f64 N ≥ 3 (`sin_fixed.rs`): near its table points j/256
        // (both sides; j = 1 is the edge between paths A and B), at and around the path edges
        // 2^−8 and 2^−240, and tiny arguments of path C; both signs.
        for _ in 0..random / 4 {
            let j = (1 + rng.below(201)) as f64 / 256.0;
            let ed = rng.range(-(T::PRECISION as i32) * N as i32 - 8, -9);
            let d: Expansion<T, N> = rand_expansion(rng, ed);
            let x = Expansion::<T, N>::from_f64(j).add(&d);
            xs.push(if rng.below(2) == 0 { x } else { x.neg() });
        }
        let edge_exps: &[i32] = if T::PRECISION == 53 {
            &[-8, -240, -300, -700]
        } else {
            &[-8]
        };
        for &ex in edge_exps {
            for _ in 0..random / 64 + 1 {
                let ed = rng.range(-(T::PRECISION as i32) * N as i32, -1);
                let d: Expansion<T, N> = rand_expansion(rng, ed);
                let base = Expansion::<T, N>::from_f64(2f64.powi(ex) * rng.sign());
                xs.push(base.add(&base.mul(&d)));
                xs.push(base);
            }
        }
    }
    if f == Unary::Ln && T::PRECISION == 53 {
        // The edges of ln's Newton path at f64 N ≥ 3 (|x₀ − 1| ≥ 1/16, 2^−500 ≤ x₀ ≤ 2^500):
        // at, just inside and just outside each, with random low terms.
        for &c in &[
            1.0 - 1.0 / 16.0,
            1.0 + 1.0 / 16.0,
            2f64.powi(-500),
            2f64.powi(500),
        ] {
            for _ in 0..random / 64 + 1 {
                let ed = rng.range(-(T::PRECISION as i32) * N as i32, -1);
                let d: Expansion<T, N> = rand_expansion(rng, ed);
                let base = Expansion::<T, N>::from_f64(c);
                xs.push(base.add(&base.mul(&d)));
                xs.push(base);
            }
        }
    }
    xs
}

/// Argument pairs of the binary function `f`: every pair of 14 special values, then `random`
/// random pairs (pow: mostly positive bases, integer or small exponents).
pub fn binary_arguments<T: FloatTerm, const N: usize>(
    f: Binary,
    random: usize,
    seed: u64,
) -> Vec<[Expansion<T, N>; 2]> {
    let mut rng = Rng(seed);
    let rng = &mut rng;
    let sp: Vec<Expansion<T, N>> = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        3.0,
        -3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e-300,
        1e300,
    ]
    .iter()
    .map(|&v| e(v))
    .collect();
    let mut ps = Vec::new();
    for a in &sp {
        for b in &sp {
            ps.push([*a, *b]);
        }
    }
    for _ in 0..random {
        let a = match f {
            Binary::Pow => {
                let pos = rng.below(4) != 0;
                rand_arg(rng, -20, 20, pos)
            }
            _ => rand_arg(rng, -60, 60, false),
        };
        let b = match f {
            Binary::Pow => {
                if rng.below(3) == 0 {
                    e(rng.range(-20, 20) as f64)
                } else {
                    rand_arg(rng, -8, 5, false)
                }
            }
            _ => rand_arg(rng, -60, 60, false),
        };
        ps.push([a, b]);
    }
    ps
}

/// The exponents the powi checks use.
pub const POWI_EXPONENTS: [i32; 12] = [0, 1, 2, 3, -1, -2, 7, -9, 16, 33, -64, 1000];

/// Bases of the powi checks: the shared edges and `random` random values of moderate size.
pub fn powi_arguments<T: FloatTerm, const N: usize>(
    random: usize,
    seed: u64,
) -> Vec<Expansion<T, N>> {
    let mut rng = Rng(seed);
    let mut xs = edges::<T, N>();
    for _ in 0..random {
        xs.push(rand_arg(&mut rng, -10, 10, false));
    }
    xs
}
