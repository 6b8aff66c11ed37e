//! Complex FFT in extended precision (seed 002, Thall's df64/qf128 FFT): an iterative radix-2
//! decimation-in-time transform of sizes 2^10..2^24 in f64, df64 (`Expansion<f32, 2>`), qf128
//! (`Expansion<f32, 4>`), double-double (`Expansion<f64, 2>`) and quad-double
//! (`Expansion<f64, 4>`), on all CPU cores.
//!
//! **The transform.** Bit-reversal permutation, then log2(n) stages of butterflies
//! (x, y) ← (x + w·y, x − w·y). The butterflies use the *fast tier* of the expansions
//! (`add_fast`, `sub_fast`, `mul_fast`: the arithmetic the GPU kernels run; plain IEEE
//! operations for f64). A stage's butterflies are independent, so rayon splits them (by block
//! for the early stages, inside the blocks for the late ones) without changing any operation:
//! the result does not depend on the number of threads. The inverse uses conjugated twiddles
//! and a final exact scaling by 1/n.
//!
//! **Twiddles** w^k = e^(−2πik/N) for k < N/2 are computed once per format for the largest N
//! by the library's own `sin_cos` in that format (`expanse_core::functions`, N = 1 for f64) on
//! the first octant, θ = π·k/(N/2) with π from the library's constant table (accurate tier),
//! and extended to the half circle by the exact symmetries cos(π/2 − θ) = sin θ,
//! cos(π/2 + θ) = −sin θ; smaller sizes take every (N/n)-th entry.
//!
//! **Inputs** are exactly representable in every format: real and imaginary parts k/2^23 − 1
//! with k a 24-bit pseudo-random integer (a fixed seed), so all formats and the MPFR reference
//! transform the same numbers.
//!
//! **Known answers**, each independent of the transform being checked:
//! - (a) *round trip*: the inverse of the forward transform is the input (exactly known);
//! - (b) *MPFR*: a recursive radix-2 transform in MPFR at 848 bits (4 × quad-double's 212;
//!   twiddles from MPFR's `sin_cos`) on the same inputs, at the smaller sizes;
//! - (c) *analytic*: x_j = e^(2πi·m·j/n) (m odd, coprime to n, built from the twiddle table)
//!   has the transform X_k = n·δ(k, m) exactly, at every size.
//!
//! Errors are normwise, ‖X̂ − X‖/‖X‖, in the 2-norm (the norm of Higham's bound for the FFT,
//! *Accuracy and Stability of Numerical Algorithms* Thm. 24.2: log2(n)·η/(1 − log2(n)·η) with
//! η ≈ (4√2 + 1)·u) and in the max-norm. The check asserts both ≤ [`C_BOUND`]·log2(n)·u, u the
//! format's unit roundoff: 2^−53 (f64), 2^−48 (df64), 2^−96 (qf128), 2^−106 (dd), 2^−212 (qd).
//!
//! **GPU.** With a GPU ([`run_all_on`]), every size of every format is also transformed there
//! (`expanse_gpu::apps::fft`: the same permutation, butterflies, arithmetic and twiddle table,
//! so the same operations in the same order), forward and back, and both results are compared
//! bit for bit with the CPU's; the rates are transforms per second on each.

use crate::cli::Report;
use expanse_core::functions::constants::pi;
use expanse_core::{Expansion, FloatTerm};
use expanse_gpu::apps::fft::FftGpu;
use expanse_gpu::{GpuContext, GpuError, GpuTerm};
use rayon::prelude::*;
use rug::Float;
use std::time::Instant;

/// The constant c of the asserted error level c·log2(n)·u (round trip: 2c, two transforms).
pub const C_BOUND: f64 = 2.0;

/// Bits of the MPFR reference transform (4 × 212).
pub const MPFR_BITS: u32 = 848;

/// Seed of the pseudo-random input.
pub const SEED: u64 = 0x5EED_0002;

/// A real format the FFT runs in.
pub trait Real: Copy + Send + Sync + 'static {
    /// Short name (`f64`, `df64`, `qf128`, `dd`, `qd`).
    const NAME: &'static str;
    /// Unit roundoff of the format.
    const UNIT: f64;
    /// An exactly representable f32.
    fn from_f32(x: f32) -> Self;
    /// Fast-tier addition.
    fn add(self, o: Self) -> Self;
    /// Fast-tier subtraction.
    fn sub(self, o: Self) -> Self;
    /// Fast-tier multiplication.
    fn mul(self, o: Self) -> Self;
    /// Exact negation.
    fn neg(self) -> Self;
    /// Exact multiplication by 2^e.
    fn ldexp(self, e: i32) -> Self;
    /// (cos θ, sin θ) for θ = π·k/2^e, by the library's functions in this format.
    fn cos_sin_pi(k: u64, e: i32) -> (Self, Self);
    /// |self − o| to f64 (the difference in the accurate tier).
    fn dist(self, o: Self) -> f64;
    /// The nearest f64.
    fn to_f64(self) -> f64;
    /// The exact value in MPFR.
    fn to_rug(self) -> Float;
    /// The term type on the GPU.
    type Term: GpuTerm;
    /// Terms per value on the GPU.
    const TERMS: usize;
    /// Writes the terms: term k at `out[k·stride + i]`.
    fn put(self, out: &mut [Self::Term], stride: usize, i: usize);
}

impl Real for f64 {
    const NAME: &'static str = "f64";
    const UNIT: f64 = f64::EPSILON / 2.0;
    fn from_f32(x: f32) -> Self {
        f64::from(x)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn neg(self) -> Self {
        -self
    }
    fn ldexp(self, e: i32) -> Self {
        FloatTerm::ldexp(self, e)
    }
    fn cos_sin_pi(k: u64, e: i32) -> (Self, Self) {
        let (c, s) = <Expansion<f64, 1> as Real>::cos_sin_pi(k, e);
        (c.hi(), s.hi())
    }
    fn dist(self, o: Self) -> f64 {
        (self - o).abs()
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn to_rug(self) -> Float {
        Float::with_val(53, self)
    }
    type Term = f64;
    const TERMS: usize = 1;
    fn put(self, out: &mut [f64], _stride: usize, i: usize) {
        out[i] = self;
    }
}

/// Names and units of the expansion formats.
trait ExpansionFormat {
    const NAME: &'static str;
    const UNIT: f64;
}
impl ExpansionFormat for Expansion<f64, 1> {
    const NAME: &'static str = "f64 (1 term)";
    const UNIT: f64 = f64::EPSILON / 2.0;
}
impl ExpansionFormat for Expansion<f32, 2> {
    const NAME: &'static str = "df64";
    const UNIT: f64 = 1.0 / (1u64 << 48) as f64;
}
impl ExpansionFormat for Expansion<f32, 4> {
    const NAME: &'static str = "qf128";
    const UNIT: f64 = 1.0 / (1u128 << 96) as f64;
}
impl ExpansionFormat for Expansion<f64, 2> {
    const NAME: &'static str = "dd";
    const UNIT: f64 = 1.0 / (1u128 << 106) as f64;
}
impl ExpansionFormat for Expansion<f64, 4> {
    const NAME: &'static str = "qd";
    // 2^-212 = (2^-106)^2
    const UNIT: f64 = 1.0 / (1u128 << 106) as f64 / (1u128 << 106) as f64;
}

impl<T: GpuTerm, const N: usize> Real for Expansion<T, N>
where
    Expansion<T, N>: ExpansionFormat,
{
    const NAME: &'static str = <Self as ExpansionFormat>::NAME;
    const UNIT: f64 = <Self as ExpansionFormat>::UNIT;
    fn from_f32(x: f32) -> Self {
        Expansion::from_term(T::from_f64(f64::from(x)))
    }
    fn add(self, o: Self) -> Self {
        self.add_fast(&o)
    }
    fn sub(self, o: Self) -> Self {
        self.sub_fast(&o)
    }
    fn mul(self, o: Self) -> Self {
        self.mul_fast(&o)
    }
    fn neg(self) -> Self {
        Expansion::neg(&self)
    }
    fn ldexp(self, e: i32) -> Self {
        Expansion::ldexp(&self, e)
    }
    fn cos_sin_pi(k: u64, e: i32) -> (Self, Self) {
        // k < 2^22 is exact in either term type; π·k in the accurate tier, then exact scaling.
        let theta = pi::<T, N>().mul_term(T::from_f64(k as f64)).ldexp(-e);
        let (s, c) = theta.sin_cos();
        (c, s)
    }
    fn dist(self, o: Self) -> f64 {
        Expansion::sub(&self, &o).to_f64().abs()
    }
    fn to_f64(self) -> f64 {
        Expansion::to_f64(&self)
    }
    fn to_rug(self) -> Float {
        Expansion::to_rug(&self)
    }
    type Term = T;
    const TERMS: usize = N;
    fn put(self, out: &mut [T], stride: usize, i: usize) {
        for (k, t) in self.terms().iter().enumerate() {
            out[k * stride + i] = *t;
        }
    }
}

/// A complex number (re, im).
pub type Complex<R> = [R; 2];

/// The twiddle table w^k = e^(−2πik/N), k < N/2, of the largest size N.
pub struct Twiddles<R> {
    log2_max: u32,
    w: Vec<Complex<R>>,
}

impl<R: Real> Twiddles<R> {
    /// The table for sizes up to 2^log2_max (log2_max ≥ 3): the first octant by the
    /// library's `sin_cos`, the rest by exact symmetries.
    pub fn new(log2_max: u32) -> Self {
        let n = 1usize << log2_max;
        let eighth = n / 8;
        // θ_k = 2πk/N = π·k/2^(log2_max − 1), k ≤ N/8: (cos θ_k, sin θ_k).
        let oct: Vec<(R, R)> = (0..eighth + 1)
            .into_par_iter()
            .with_min_len(256)
            .map(|k| R::cos_sin_pi(k as u64, log2_max as i32 - 1))
            .collect();
        let w = (0..n / 2)
            .into_par_iter()
            .with_min_len(4096)
            .map(|k| {
                // (cos θ, sin θ) of θ = 2πk/N, then w = cos θ − i sin θ.
                let (c, s) = if k <= eighth {
                    oct[k]
                } else if k <= 2 * eighth {
                    let (c, s) = oct[2 * eighth - k];
                    (s, c)
                } else if k <= 3 * eighth {
                    let (c, s) = oct[k - 2 * eighth];
                    (s.neg(), c)
                } else {
                    let (c, s) = oct[4 * eighth - k];
                    (c.neg(), s)
                };
                [c, s.neg()]
            })
            .collect();
        Twiddles { log2_max, w }
    }

    /// The table in the GPU's layout: term k of the real part of entry i at `k·h + i`, of the
    /// imaginary part at `(TERMS + k)·h + i` (h = N/2 entries).
    pub fn device_layout(&self) -> Vec<R::Term> {
        device_layout(&self.w)
    }

    /// log2 of the largest size.
    pub fn log2_max(&self) -> u32 {
        self.log2_max
    }

    /// The largest size.
    pub fn max_len(&self) -> usize {
        1 << self.log2_max
    }

    /// e^(−2πik/n) for size n = 2^log2n, 0 ≤ k < n (using w^(k + n/2) = −w^k).
    pub fn get(&self, log2n: u32, k: usize) -> Complex<R> {
        let half = 1usize << (log2n - 1);
        let shift = self.log2_max - log2n;
        if k < half {
            self.w[k << shift]
        } else {
            let [a, b] = self.w[(k - half) << shift];
            [a.neg(), b.neg()]
        }
    }
}

#[inline(always)]
fn butterfly<R: Real>(x: &mut Complex<R>, y: &mut Complex<R>, w: Complex<R>) {
    let tr = y[0].mul(w[0]).sub(y[1].mul(w[1]));
    let ti = y[0].mul(w[1]).add(y[1].mul(w[0]));
    *y = [x[0].sub(tr), x[1].sub(ti)];
    *x = [x[0].add(tr), x[1].add(ti)];
}

/// Sizes below this run on one thread.
const PAR_MIN: usize = 1 << 13;
/// Butterflies per parallel task inside one block.
const PAR_CHUNK: usize = 1 << 11;

/// In-place transform of `a` (length a power of two, 2 ≤ len ≤ the table's size):
/// X_k = Σ_j a_j·e^(∓2πijk/n) (− forward, + `inverse`, which also divides by n).
pub fn fft<R: Real>(a: &mut [Complex<R>], tw: &Twiddles<R>, inverse: bool) {
    let n = a.len();
    assert!(
        n.is_power_of_two() && n >= 2 && n <= tw.max_len(),
        "fft size {n} not a power of two within the twiddle table"
    );
    let log2n = n.trailing_zeros();
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - log2n);
        if j > i {
            a.swap(i, j);
        }
    }
    let shift_all = tw.log2_max;
    let twiddle = |h: usize, j: usize| -> Complex<R> {
        // w_{2h}^j = W[j·N/(2h)], j < h.
        let s = shift_all - (h.trailing_zeros() + 1);
        let [c, s] = tw.w[j << s];
        if inverse {
            [c, s.neg()]
        } else {
            [c, s]
        }
    };
    let mut h = 1usize;
    while h < n {
        let block = |blk: &mut [Complex<R>]| {
            let (lo, hi) = blk.split_at_mut(h);
            for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                butterfly(x, y, twiddle(h, j));
            }
        };
        if n < PAR_MIN {
            a.chunks_mut(2 * h).for_each(block);
        } else if n / (2 * h) >= 16 {
            a.par_chunks_mut(2 * h).for_each(block);
        } else {
            for blk in a.chunks_mut(2 * h) {
                let (lo, hi) = blk.split_at_mut(h);
                lo.par_chunks_mut(PAR_CHUNK)
                    .zip(hi.par_chunks_mut(PAR_CHUNK))
                    .enumerate()
                    .for_each(|(c, (xs, ys))| {
                        for (j, (x, y)) in xs.iter_mut().zip(ys.iter_mut()).enumerate() {
                            butterfly(x, y, twiddle(h, c * PAR_CHUNK + j));
                        }
                    });
            }
        }
        h *= 2;
    }
    if inverse {
        let e = -(log2n as i32);
        a.par_iter_mut()
            .with_min_len(4096)
            .for_each(|z| *z = [z[0].ldexp(e), z[1].ldexp(e)]);
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The j-th input value: real and imaginary parts k/2^23 − 1, k a 24-bit integer (exact in
/// f32 and so in every format).
pub fn input(seed: u64, j: usize) -> [f32; 2] {
    let h = splitmix(seed ^ (j as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let re = (h >> 40) as f32 / (1u32 << 23) as f32 - 1.0;
    let im = ((h >> 8) & 0xFF_FFFF) as f32 / (1u32 << 23) as f32 - 1.0;
    [re, im]
}

/// The input of size n in format R.
pub fn input_vec<R: Real>(seed: u64, n: usize) -> Vec<Complex<R>> {
    (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|j| {
            let [a, b] = input(seed, j);
            [R::from_f32(a), R::from_f32(b)]
        })
        .collect()
}

/// Normwise errors of a computed vector against a known one: (2-norm, max-norm), relative.
#[derive(Clone, Copy, Debug, Default)]
pub struct Errors {
    /// ‖X̂ − X‖₂ / ‖X‖₂.
    pub l2: f64,
    /// max|X̂ − X| / max|X|.
    pub max: f64,
}

/// Errors from per-element (|difference|, |known|) pairs.
fn errors(pairs: impl ParallelIterator<Item = (f64, f64)>) -> Errors {
    let (d2, x2, dm, xm) = pairs.map(|(d, x)| (d * d, x * x, d, x)).reduce(
        || (0.0, 0.0, 0.0, 0.0),
        |a, b| (a.0 + b.0, a.1 + b.1, a.2.max(b.2), a.3.max(b.3)),
    );
    Errors {
        l2: (d2 / x2).sqrt(),
        max: dm / xm,
    }
}

/// (a) Round trip: inverse(forward(x)) against x. Returns the errors and the seconds of the
/// forward transform.
pub fn round_trip<R: Real>(tw: &Twiddles<R>, seed: u64, log2n: u32) -> (Errors, f64) {
    let (e, secs, _, _) = round_trip_impl(tw, seed, log2n, false);
    (e, secs)
}

/// [`round_trip`], also returning the forward transform and the round trip's result.
pub fn round_trip_vectors<R: Real>(
    tw: &Twiddles<R>,
    seed: u64,
    log2n: u32,
) -> (Errors, f64, Vec<Complex<R>>, Vec<Complex<R>>) {
    round_trip_impl(tw, seed, log2n, true)
}

fn round_trip_impl<R: Real>(
    tw: &Twiddles<R>,
    seed: u64,
    log2n: u32,
    keep: bool,
) -> (Errors, f64, Vec<Complex<R>>, Vec<Complex<R>>) {
    let n = 1usize << log2n;
    let mut a = input_vec::<R>(seed, n);
    let t = Instant::now();
    fft(&mut a, tw, false);
    let secs = t.elapsed().as_secs_f64();
    let fwd = if keep { a.clone() } else { Vec::new() };
    fft(&mut a, tw, true);
    let e = errors(a.par_iter().enumerate().map(|(j, z)| {
        let [x, y] = input(seed, j);
        let d = z[0].dist(R::from_f32(x)).hypot(z[1].dist(R::from_f32(y)));
        (d, f64::from(x).hypot(f64::from(y)))
    }));
    (e, secs, fwd, if keep { a } else { Vec::new() })
}

/// The frequency m of the analytic test at size n: the largest odd m ≤ n/3.
pub fn analytic_frequency(n: usize) -> usize {
    let m = (n / 3).max(1);
    if m.is_multiple_of(2) {
        m - 1
    } else {
        m
    }
}

/// (c) Analytic: x_j = e^(2πi·m·j/n) (from the twiddle table), whose transform is n·δ(k, m).
pub fn analytic<R: Real>(tw: &Twiddles<R>, log2n: u32) -> Errors {
    let n = 1usize << log2n;
    let m = analytic_frequency(n);
    let mut a: Vec<Complex<R>> = (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|j| {
            let [c, s] = tw.get(log2n, (m * j) & (n - 1));
            [c, s.neg()]
        })
        .collect();
    fft(&mut a, tw, false);
    let zero = R::from_f32(0.0);
    let nn = R::from_f32(1.0).ldexp(log2n as i32);
    errors(a.par_iter().enumerate().map(|(k, z)| {
        let want = if k == m { nn } else { zero };
        let d = z[0].dist(want).hypot(z[1].dist(zero));
        (d, want.to_f64())
    }))
}

/// (b) The MPFR reference: a recursive radix-2 transform at `prec` bits of the input of size
/// 2^log2n, twiddles from MPFR's `sin_cos`.
pub fn mpfr_reference(seed: u64, log2n: u32, prec: u32) -> Vec<[Float; 2]> {
    let n = 1usize << log2n;
    let x: Vec<[Float; 2]> = (0..n)
        .map(|j| {
            let [a, b] = input(seed, j);
            [Float::with_val(prec, a), Float::with_val(prec, b)]
        })
        .collect();
    // w^k = e^(−2πik/n), k < n/2, each from MPFR's sin_cos.
    let tw: Vec<[Float; 2]> = (0..n / 2)
        .into_par_iter()
        .map(|k| {
            let pi = Float::with_val(prec, rug::float::Constant::Pi);
            let theta = Float::with_val(prec, pi * (2 * k) as u64) / n as u64;
            let (s, c) = theta.sin_cos(Float::new(prec));
            [c, -s]
        })
        .collect();
    fn rec(x: &[&[Float; 2]], tw: &[[Float; 2]], stride: usize, prec: u32) -> Vec<[Float; 2]> {
        let n = x.len();
        if n == 1 {
            return vec![x[0].clone()];
        }
        let even: Vec<&[Float; 2]> = x.iter().step_by(2).copied().collect();
        let odd: Vec<&[Float; 2]> = x.iter().skip(1).step_by(2).copied().collect();
        let (e, o) = if n >= 256 {
            rayon::join(
                || rec(&even, tw, stride * 2, prec),
                || rec(&odd, tw, stride * 2, prec),
            )
        } else {
            (
                rec(&even, tw, stride * 2, prec),
                rec(&odd, tw, stride * 2, prec),
            )
        };
        let mut out: Vec<[Float; 2]> = vec![[Float::new(prec), Float::new(prec)]; n];
        for k in 0..n / 2 {
            let w = &tw[k * stride];
            let tr =
                Float::with_val(prec, &o[k][0] * &w[0]) - Float::with_val(prec, &o[k][1] * &w[1]);
            let ti =
                Float::with_val(prec, &o[k][0] * &w[1]) + Float::with_val(prec, &o[k][1] * &w[0]);
            out[k] = [
                Float::with_val(prec, &e[k][0] + &tr),
                Float::with_val(prec, &e[k][1] + &ti),
            ];
            out[k + n / 2] = [
                Float::with_val(prec, &e[k][0] - &tr),
                Float::with_val(prec, &e[k][1] - &ti),
            ];
        }
        out
    }
    let refs: Vec<&[Float; 2]> = x.iter().collect();
    rec(&refs, &tw, 1, prec)
}

/// (b) The forward transform in R against the MPFR reference.
pub fn against_mpfr<R: Real>(tw: &Twiddles<R>, seed: u64, reference: &[[Float; 2]]) -> Errors {
    let n = reference.len();
    let mut a = input_vec::<R>(seed, n);
    fft(&mut a, tw, false);
    errors(a.par_iter().zip(reference.par_iter()).map(|(z, r)| {
        let prec = r[0].prec() + 8;
        let dr = Float::with_val(prec, z[0].to_rug() - &r[0]).to_f64();
        let di = Float::with_val(prec, z[1].to_rug() - &r[1]).to_f64();
        (dr.hypot(di), r[0].to_f64().hypot(r[1].to_f64()))
    }))
}

/// A complex vector in the GPU's layout (term k of the real part of element i at `k·n + i`, of
/// the imaginary part at `(TERMS + k)·n + i`).
pub fn device_layout<R: Real>(a: &[Complex<R>]) -> Vec<R::Term> {
    let n = a.len();
    let mut out = vec![<R::Term as FloatTerm>::ZERO; 2 * R::TERMS * n];
    {
        let (re, im) = out.split_at_mut(R::TERMS * n);
        for (i, z) in a.iter().enumerate() {
            z[0].put(re, n, i);
            z[1].put(im, n, i);
        }
    }
    out
}

/// Elements (complex numbers) of two vectors in the GPU's layout whose terms differ in any bit.
pub fn differing_elements<U: FloatTerm>(a: &[U], b: &[U], terms: usize) -> usize {
    if a.len() != b.len() || terms == 0 {
        return a.len().max(b.len()) / (2 * terms.max(1));
    }
    let n = a.len() / (2 * terms);
    (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .filter(|&i| {
            (0..2 * terms).any(|k| a[k * n + i].to_bits_u64() != b[k * n + i].to_bits_u64())
        })
        .count()
}

/// The GPU/CPU comparison at one size.
#[derive(Clone, Debug)]
pub struct GpuRow {
    /// log2 of the size.
    pub log2n: u32,
    /// Seconds of one transform on the GPU (kernels only, averaged over repetitions).
    pub gpu_seconds: f64,
    /// Elements of the forward transform and of the round trip that differ from the CPU's.
    pub mismatches: usize,
}

/// Transforms the input of size 2^log2n forward and back on the GPU, compares both with the
/// CPU's vectors `fwd` and `back` (the CPU's forward transform and its inverse), then times
/// forward/inverse pairs.
fn gpu_row<R: Real>(
    g: &FftGpu<R::Term>,
    seed: u64,
    log2n: u32,
    fwd: &[Complex<R>],
    back: &[Complex<R>],
) -> Result<GpuRow, GpuError> {
    let n = 1usize << log2n;
    let mut d = g.upload(&device_layout(&input_vec::<R>(seed, n)))?;
    let mut scratch = g.zeros(2 * R::TERMS * n)?;
    g.transform(&mut d, &mut scratch, log2n, false)?;
    let got_fwd = g.download(&d)?;
    g.transform(&mut d, &mut scratch, log2n, true)?;
    let got_back = g.download(&d)?;
    let mismatches = differing_elements(&got_fwd, &device_layout(fwd), R::TERMS)
        + differing_elements(&got_back, &device_layout(back), R::TERMS);
    // About 2^24 points transformed per timing, at least one pair.
    let reps = (1usize << 24 >> log2n).clamp(1, 256);
    g.synchronize()?;
    let t = Instant::now();
    for _ in 0..reps {
        g.transform(&mut d, &mut scratch, log2n, false)?;
        g.transform(&mut d, &mut scratch, log2n, true)?;
    }
    g.synchronize()?;
    Ok(GpuRow {
        log2n,
        gpu_seconds: t.elapsed().as_secs_f64() / (2 * reps) as f64,
        mismatches,
    })
}

/// One size of one format.
#[derive(Clone, Debug)]
pub struct SizeRow {
    /// log2 of the size.
    pub log2n: u32,
    /// (a) round trip.
    pub round_trip: Errors,
    /// (c) analytic transform.
    pub analytic: Errors,
    /// (b) against MPFR, at the reference sizes.
    pub mpfr: Option<Errors>,
    /// Seconds of one forward transform.
    pub seconds: f64,
}

/// All sizes of one format.
#[derive(Clone, Debug)]
pub struct FormatRun {
    /// Format name.
    pub name: &'static str,
    /// Its unit roundoff.
    pub unit: f64,
    /// Seconds to build the twiddle table of the largest size.
    pub twiddle_seconds: f64,
    /// Per size.
    pub rows: Vec<SizeRow>,
    /// Per size, the GPU's rate and identity (empty without a GPU).
    pub gpu: Vec<GpuRow>,
}

/// Runs the three checks of format R at sizes 2^lo..2^hi, with MPFR references for some.
pub fn run_format<R: Real>(
    seed: u64,
    lo: u32,
    hi: u32,
    references: &[(u32, Vec<[Float; 2]>)],
) -> FormatRun {
    match run_format_on::<R>(None, seed, lo, hi, references) {
        Ok(r) => r,
        // Without a GPU nothing fails.
        Err(_) => unreachable!("the CPU run does not fail"),
    }
}

/// [`run_format`], and with `gpu` every size also on the GPU, compared with the CPU.
pub fn run_format_on<R: Real>(
    gpu: Option<&GpuContext>,
    seed: u64,
    lo: u32,
    hi: u32,
    references: &[(u32, Vec<[Float; 2]>)],
) -> Result<FormatRun, GpuError> {
    let t = Instant::now();
    let tw = Twiddles::<R>::new(hi.max(3));
    let twiddle_seconds = t.elapsed().as_secs_f64();
    let dev = match gpu {
        Some(ctx) => Some(FftGpu::<R::Term>::new(
            ctx,
            R::TERMS,
            tw.log2_max(),
            &tw.device_layout(),
        )?),
        None => None,
    };
    let mut gpu_rows = Vec::new();
    let rows = (lo..=hi)
        .map(|log2n| {
            let (round_trip, seconds) = match &dev {
                Some(g) => {
                    let (e, secs, fwd, back) = round_trip_vectors(&tw, seed, log2n);
                    gpu_rows.push(gpu_row::<R>(g, seed, log2n, &fwd, &back)?);
                    (e, secs)
                }
                None => round_trip(&tw, seed, log2n),
            };
            let analytic = analytic(&tw, log2n);
            let mpfr = references
                .iter()
                .find(|(l, _)| *l == log2n)
                .map(|(_, r)| against_mpfr(&tw, seed, r));
            Ok(SizeRow {
                log2n,
                round_trip,
                analytic,
                mpfr,
                seconds,
            })
        })
        .collect::<Result<Vec<_>, GpuError>>()?;
    Ok(FormatRun {
        name: R::NAME,
        unit: R::UNIT,
        twiddle_seconds,
        rows,
        gpu: gpu_rows,
    })
}

/// Every format at sizes 2^lo..2^hi; MPFR references at 2^lo..2^ref_hi.
pub fn run_all(seed: u64, lo: u32, hi: u32, ref_hi: u32) -> Vec<FormatRun> {
    match run_all_on(None, seed, lo, hi, ref_hi) {
        Ok(r) => r,
        Err(_) => unreachable!("the CPU run does not fail"),
    }
}

/// [`run_all`], and with `gpu` every size of every format also on the GPU.
pub fn run_all_on(
    gpu: Option<&GpuContext>,
    seed: u64,
    lo: u32,
    hi: u32,
    ref_hi: u32,
) -> Result<Vec<FormatRun>, GpuError> {
    let references: Vec<(u32, Vec<[Float; 2]>)> = (lo..=ref_hi.min(hi))
        .map(|l| (l, mpfr_reference(seed, l, MPFR_BITS)))
        .collect();
    Ok(vec![
        run_format_on::<f64>(gpu, seed, lo, hi, &references)?,
        run_format_on::<Expansion<f32, 2>>(gpu, seed, lo, hi, &references)?,
        run_format_on::<Expansion<f32, 4>>(gpu, seed, lo, hi, &references)?,
        run_format_on::<Expansion<f64, 2>>(gpu, seed, lo, hi, &references)?,
        run_format_on::<Expansion<f64, 4>>(gpu, seed, lo, hi, &references)?,
    ])
}

/// The asserted level C_BOUND·log2(n)·u (times 2 for the round trip's two transforms).
pub fn level(unit: f64, log2n: u32, transforms: f64) -> f64 {
    transforms * C_BOUND * f64::from(log2n) * unit
}

/// True when every error of the run is at the level the precision predicts.
pub fn within_level(run: &FormatRun) -> bool {
    run.rows.iter().all(|r| {
        let one = level(run.unit, r.log2n, 1.0);
        let ok = |e: &Errors, lim: f64| e.l2 <= lim && e.max <= lim && e.l2.is_finite();
        ok(&r.round_trip, 2.0 * one)
            && ok(&r.analytic, one)
            && r.mpfr.as_ref().is_none_or(|m| ok(m, one))
    })
}

/// Runs the application and checks it.
/// With `gpu`, every transform also runs on the GPU and must be bit-identical to the CPU's.
pub fn report(seed: u64, lo: u32, hi: u32, ref_hi: u32, gpu: Option<&GpuContext>) -> Report {
    let mut rep = Report::new("fft");
    let t0 = Instant::now();
    rep.line(format!(
        "Complex radix-2 FFT, sizes 2^{lo}..2^{hi}, {} threads{}; inputs k/2^23 - 1 (exact in every \
         format); twiddles from the library's sin_cos in each format; MPFR reference at {MPFR_BITS} \
         bits for 2^{lo}..2^{}",
        rayon::current_num_threads(),
        gpu.map_or(String::new(), |g| format!(" and {}", g.describe())),
        ref_hi.min(hi)
    ));
    rep.line(format!(
        "errors: normwise relative, 2-norm / max-norm, in units of u; asserted <= {C_BOUND}*log2(n) \
         (round trip: 2x that)"
    ));
    let runs = match run_all_on(gpu, seed, lo, hi, ref_hi) {
        Ok(r) => r,
        Err(e) => {
            rep.check(&format!("the GPU run failed: {e}"), false);
            return rep;
        }
    };
    for run in &runs {
        let u = run.unit;
        rep.line(format!(
            "\n{} (u = 2^{:.0}), twiddle table for 2^{hi}: {:.2} s",
            run.name,
            u.log2(),
            run.twiddle_seconds
        ));
        rep.line(
            "  log2 n | round trip (l2/max) | analytic (l2/max) | vs MPFR (l2/max) | forward s | butterflies/s"
                .to_string(),
        );
        for r in &run.rows {
            let f = |e: &Errors| format!("{:>6.3} / {:>6.3}", e.l2 / u, e.max / u);
            let bfs = (1u64 << (r.log2n - 1)) as f64 * f64::from(r.log2n) / r.seconds.max(1e-9);
            rep.line(format!(
                "  {:>6} | {:>19} | {:>17} | {:>16} | {:>9.4} | {:.3e}",
                r.log2n,
                f(&r.round_trip),
                f(&r.analytic),
                r.mpfr.as_ref().map_or("-".to_string(), f),
                r.seconds,
                bfs
            ));
            let key = format!("{} n=2^{}", run.name, r.log2n);
            rep.result(
                format!("{key} round trip max rel"),
                format!("{:e}", r.round_trip.max),
            );
            rep.result(
                format!("{key} round trip l2 rel"),
                format!("{:e}", r.round_trip.l2),
            );
            rep.result(
                format!("{key} analytic l2 rel"),
                format!("{:e}", r.analytic.l2),
            );
            if let Some(m) = &r.mpfr {
                rep.result(format!("{key} vs MPFR l2 rel"), format!("{:e}", m.l2));
                rep.result(format!("{key} vs MPFR max rel"), format!("{:e}", m.max));
            }
            rep.result(format!("{key} butterflies/s"), format!("{bfs:e}"));
            let cpu_rate = 1.0 / r.seconds.max(1e-12);
            rep.result(format!("{key} CPU transforms/s"), format!("{cpu_rate:e}"));
            if let Some(g) = run.gpu.iter().find(|g| g.log2n == r.log2n) {
                let gpu_rate = 1.0 / g.gpu_seconds.max(1e-12);
                let same = if g.mismatches == 0 {
                    "yes".to_string()
                } else {
                    format!("no ({} mismatches)", g.mismatches)
                };
                rep.line(format!(
                    "         GPU {:.3e} transforms/s ({:.3e} points/s), CPU {:.3e} transforms/s, \
                     GPU/CPU {:.1}x; GPU and CPU results identical: {same}",
                    gpu_rate,
                    gpu_rate * (1u64 << r.log2n) as f64,
                    cpu_rate,
                    gpu_rate / cpu_rate
                ));
                rep.result(format!("{key} GPU transforms/s"), format!("{gpu_rate:e}"));
                rep.result(
                    format!("{key} GPU points/s"),
                    format!("{:e}", gpu_rate * (1u64 << r.log2n) as f64),
                );
                rep.result(
                    format!("{key} GPU/CPU"),
                    format!("{:e}", gpu_rate / cpu_rate),
                );
                rep.result(format!("{key} GPU and CPU results identical"), same);
            }
        }
        if !run.gpu.is_empty() {
            let bad: usize = run.gpu.iter().map(|g| g.mismatches).sum();
            rep.check(
                &format!(
                    "{}: GPU and CPU transforms (forward and round trip) identical at every size \
                     ({bad} elements differ)",
                    run.name
                ),
                bad == 0 && run.gpu.len() == run.rows.len(),
            );
        }
        rep.check(
            &format!(
                "{}: round trip, analytic and MPFR errors <= {C_BOUND}*log2(n)*u at every size",
                run.name
            ),
            within_level(run),
        );
    }
    // The formats must be ordered as their precisions are: each error above u/8 of its
    // format's unit and the extended formats far below f64 (guards against a check that
    // passes because, say, everything ran in f64).
    let mut ordered = true;
    for run in &runs {
        for r in &run.rows {
            ordered &= r.round_trip.l2 > run.unit / 64.0;
        }
    }
    rep.check(
        "every format's round-trip error is at its own precision (above u/64: the transform really \
         ran in that format)",
        ordered,
    );
    rep.line(format!("\ntotal {:.1} s", t0.elapsed().as_secs_f64()));
    rep
}
