//! Reproducible summation with heavy cancellation (seed 000 §5.1, the climate model's global
//! sum): f64 in several orders, double-double and quad-double with a fixed reduction tree, and
//! the exact sum.
//!
//! **The data** ([`value`]) are generated on the fly from a seed and the index (no files), in
//! the spirit of the sea-surface-height sum: index i < n/2 and its partner i + n/2 form a pair.
//! Three pairs in four are *cancelling*: x and −x with x = ±m·2^e, m a 53-bit mantissa and
//! |x| ∈ [2^−30, 2^21); they contribute nothing to the sum but dominate every partial sum,
//! and the two halves are far apart, so no summation order gets them to cancel early. The
//! fourth pair is two independent *signal* values ±m·2^e with |x| ∈ [2^−600, 2^1) (exponents
//! spread over 600 binades). The exact sum is the sum of the signal values, of order 1 to
//! 10³, while Σ|x_i| is about 10^4.8·n: condition numbers Σ|x_i|/|Σx_i| from about 10^8
//! (n = 10^4) up.
//!
//! **f64**: forward, reverse, pairwise (a fixed binary tree), and "k processors": k contiguous
//! chunks summed separately, then added (k = 1, 2, 4, 8), on the CPU; and the array layer's
//! fixed-order tree at N = 1 (on the GPU and the CPU: reproducible, but as wrong). They differ
//! from each other and from the exact sum, as seed 000 Table 3's native double does.
//!
//! **dd and qd on the array layer** ([`array_sums`]): `Arrays::indexed_sum` and
//! `indexed_sum_accurate` of `expanse_gpu::array` at N = 2 and 4. The values are generated
//! where they are summed ([`value`] is the array layer's generator, and its CUDA port makes
//! the same values on the device: no upload and no storage, 10⁹ values fit any GPU), and
//! reduced in the array layer's fixed order (tiles of 2048 values, a fixed pairwise tree
//! within and across tiles), which depends on n alone: the GPU and the host backend on any
//! number of threads give the same bits (checked; a mismatch fails the run). Each sum comes
//! with the array layer's rigorous error bound; the accurate variant accumulates in 2N terms
//! (8 for qd) and is right far beyond the condition number 1/u^N.
//!
//! **dd and qd with the application's own tree** ([`expansion_sum`], CPU only, kept as an
//! independent route): blocks of [`BLOCK`] consecutive values summed left to right, then the
//! block sums combined by a binary tree over block indices; identical on 1, 2, 4 or 8 threads.
//! Every addition has relative error at most ε = [`expanse_core::bounds::add_rel_bound`], so
//! |computed − exact| ≤ ε/(1 − ε)·Σ|partial results|, accumulated alongside.
//!
//! **Exact sum** (the known answer): every finite f64 is an integer multiple of 2^−1074, so
//! each value is added as the integer m·2^(e+1074) into a 2176-bit fixed-point accumulator
//! (positive and negative parts separately, per chunk, in parallel); the chunk totals are
//! combined as GMP integers. No floating-point rounding is involved.
//!
//! The check: the array-layer sums are identical across backends and thread counts and within
//! their bounds of the exact sum, and the accurate qd sum rounded to f64 equals the exact sum
//! rounded to f64; for each sum, whether it rounds to the exact f64 is reported (and certified
//! when its bound interval rounds to a single f64). Rates are values per second, generation
//! included, on the GPU and the CPU, with their ratio.

use crate::cli::Report;
use expanse_core::bounds::add_rel_bound;
use expanse_core::Expansion;
use expanse_gpu::array::{indexed, Arrays, Bounded, IndexMap};
use expanse_gpu::GpuError;
use rayon::prelude::*;
use rug::{Float, Integer};
use std::time::Instant;

/// Values per leaf block of the fixed dd/qd reduction tree.
pub const BLOCK: u64 = 1 << 12;

/// Values per chunk of the exact accumulation.
const EXACT_CHUNK: u64 = 1 << 16;

/// The i-th of n values of the data set of `seed` (see the module doc). One definition for
/// every backend: the array layer's generator ([`expanse_gpu::array::indexed::summation_value`]),
/// whose CUDA port generates the same values on the device.
pub fn value(seed: u64, n: u64, i: u64) -> f64 {
    indexed::summation_value(seed, n, i)
}

/// True when `value(seed, n, i)` is a signal value (for the independent check of the exact
/// sum: the cancelling pairs contribute exactly zero).
pub fn is_signal(seed: u64, n: u64, i: u64) -> bool {
    let half = n / 2;
    i >= 2 * half || indexed::summation_is_signal_pair(seed, i % half)
}

// ---------------------------------------------------------------------------------------------
// Exact sum

/// Limbs of the fixed-point accumulator: unit 2^−1074, 34·64 = 2176 bits.
const LIMBS: usize = 34;

/// A non-negative fixed-point integer in units of 2^−1074.
#[derive(Clone)]
struct Wide([u64; LIMBS]);

impl Wide {
    fn add_shifted(&mut self, m: u64, shift: u32) {
        let limb = (shift / 64) as usize;
        let off = shift % 64;
        let v = u128::from(m) << off;
        let (lo, hi) = (v as u64, (v >> 64) as u64);
        let (s0, c0) = self.0[limb].overflowing_add(lo);
        self.0[limb] = s0;
        let (s1, c1) = self.0[limb + 1].overflowing_add(hi);
        let (s1, c2) = s1.overflowing_add(u64::from(c0));
        self.0[limb + 1] = s1;
        let mut carry = c1 || c2;
        let mut k = limb + 2;
        while carry && k < LIMBS {
            let (s, c) = self.0[k].overflowing_add(1);
            self.0[k] = s;
            carry = c;
            k += 1;
        }
    }

    fn to_integer(&self) -> Integer {
        Integer::from_digits(&self.0, rug::integer::Order::Lsf)
    }
}

/// Adds a finite f64 to the positive or negative accumulator.
fn add_exact(pos: &mut Wide, neg: &mut Wide, x: f64) {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as u32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, shift) = if e == 0 {
        (frac, 0)
    } else {
        (frac | (1u64 << 52), e - 1)
    };
    if m == 0 {
        return;
    }
    if bits >> 63 == 1 {
        neg.add_shifted(m, shift);
    } else {
        pos.add_shifted(m, shift);
    }
}

/// The exact sum of the values i in [0, n) with `keep(i)`, as an integer in units of 2^−1074.
fn exact_units(seed: u64, n: u64, keep: &(dyn Fn(u64) -> bool + Sync)) -> Integer {
    let chunks = n.div_ceil(EXACT_CHUNK);
    let parts: Vec<Integer> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut pos = Wide([0; LIMBS]);
            let mut neg = Wide([0; LIMBS]);
            for i in c * EXACT_CHUNK..n.min((c + 1) * EXACT_CHUNK) {
                if keep(i) {
                    add_exact(&mut pos, &mut neg, value(seed, n, i));
                }
            }
            pos.to_integer() - neg.to_integer()
        })
        .collect();
    parts.iter().fold(Integer::new(), |acc, p| acc + p)
}

/// The exact sum of the data set as an MPFR number (exact: enough bits).
pub fn exact_sum(seed: u64, n: u64) -> Float {
    units_to_float(exact_units(seed, n, &|_| true))
}

/// The exact sum of the signal values only (equal to [`exact_sum`], since the other pairs
/// cancel exactly; an independent check of the accumulator).
pub fn exact_signal_sum(seed: u64, n: u64) -> Float {
    units_to_float(exact_units(seed, n, &|i| is_signal(seed, n, i)))
}

fn units_to_float(u: Integer) -> Float {
    let bits = u.significant_bits().max(1) + 1;
    Float::with_val(bits, u) >> 1074u32
}

// ---------------------------------------------------------------------------------------------
// f64 sums

/// Left to right.
pub fn f64_forward(seed: u64, n: u64) -> f64 {
    (0..n).fold(0.0, |s, i| s + value(seed, n, i))
}

/// Right to left.
pub fn f64_reverse(seed: u64, n: u64) -> f64 {
    (0..n).rev().fold(0.0, |s, i| s + value(seed, n, i))
}

/// Pairwise: a binary tree split at the midpoint, leaves of at most 8 values.
pub fn f64_pairwise(seed: u64, n: u64) -> f64 {
    fn rec(seed: u64, n: u64, lo: u64, hi: u64) -> f64 {
        if hi - lo <= 8 {
            return (lo..hi).fold(0.0, |s, i| s + value(seed, n, i));
        }
        let mid = lo + (hi - lo) / 2;
        if hi - lo > 1 << 16 {
            let (a, b) = rayon::join(|| rec(seed, n, lo, mid), || rec(seed, n, mid, hi));
            a + b
        } else {
            rec(seed, n, lo, mid) + rec(seed, n, mid, hi)
        }
    }
    rec(seed, n, 0, n)
}

/// "k processors": k contiguous chunks summed left to right (in parallel), then the k
/// partial sums added left to right.
pub fn f64_chunks(seed: u64, n: u64, k: u64) -> f64 {
    let parts: Vec<f64> = (0..k)
        .into_par_iter()
        .map(|c| {
            let lo = n * c / k;
            let hi = n * (c + 1) / k;
            (lo..hi).fold(0.0, |s, i| s + value(seed, n, i))
        })
        .collect();
    parts.iter().fold(0.0, |s, p| s + p)
}

// ---------------------------------------------------------------------------------------------
// dd / qd sums with a fixed reduction tree

/// An expansion sum and the rigorous bound on its distance to the exact sum.
#[derive(Clone, Copy, Debug)]
pub struct BoundedSum<const N: usize> {
    /// The sum.
    pub sum: Expansion<f64, N>,
    /// Σ|partial results| of every addition (f64, rounded to nearest).
    pub abs_partials: f64,
}

impl<const N: usize> BoundedSum<N> {
    /// The bound ε/(1 − ε)·Σ|partials|, inflated to cover the f64 rounding of Σ|partials|
    /// (relative ≤ (BLOCK + 64)·2^−53 ≪ 2^−30) and of the leading term (2^−52).
    pub fn bound(&self) -> f64 {
        let eps = add_rel_bound::<f64>(N);
        eps / (1.0 - eps) * self.abs_partials * (1.0 + 1e-9)
    }
}

fn tree_sum<const N: usize>(seed: u64, n: u64, lo_block: u64, hi_block: u64) -> BoundedSum<N> {
    if hi_block - lo_block == 1 {
        let mut s = Expansion::<f64, N>::zero();
        let mut abs = 0.0;
        for i in lo_block * BLOCK..n.min((lo_block + 1) * BLOCK) {
            s = s.add_term(value(seed, n, i));
            abs += s.hi().abs() * (1.0 + f64::EPSILON);
        }
        return BoundedSum {
            sum: s,
            abs_partials: abs,
        };
    }
    let mid = lo_block + (hi_block - lo_block) / 2;
    let (a, b) = rayon::join(
        || tree_sum::<N>(seed, n, lo_block, mid),
        || tree_sum::<N>(seed, n, mid, hi_block),
    );
    let sum = a.sum.add(&b.sum);
    BoundedSum {
        sum,
        abs_partials: a.abs_partials + b.abs_partials + sum.hi().abs() * (1.0 + f64::EPSILON),
    }
}

/// The sum in `Expansion<f64, N>` (accurate tier) with the fixed reduction tree, on the
/// current rayon pool.
pub fn expansion_sum<const N: usize>(seed: u64, n: u64) -> BoundedSum<N> {
    if n == 0 {
        return BoundedSum {
            sum: Expansion::zero(),
            abs_partials: 0.0,
        };
    }
    tree_sum::<N>(seed, n, 0, n.div_ceil(BLOCK))
}

/// [`expansion_sum`] on a pool of `threads` threads.
pub fn expansion_sum_on<const N: usize>(seed: u64, n: u64, threads: usize) -> BoundedSum<N> {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| expansion_sum::<N>(seed, n)),
        Err(_) => expansion_sum::<N>(seed, n),
    }
}

// ---------------------------------------------------------------------------------------------
// The sums on the array layer (GPU or host backend)

/// Names of the sums computed through the array layer, in the order of [`ArraySums::list`].
pub const ARRAY_SUMS: [&str; 5] = ["f64 tree", "dd", "dd accurate", "qd", "qd accurate"];

/// The sums of the data set through the array layer on one backend: the values are generated
/// where they are summed (`Arrays::indexed_sum`: on the GPU by the CUDA port of [`value`], no
/// upload, no storage) and reduced in the array layer's fixed order (tiles of 2048, a fixed
/// pairwise tree), so every backend and thread count gives the same bits.
#[derive(Clone, Copy, Debug)]
pub struct ArraySums {
    /// f64 (N = 1) in the fixed order: reproducible, but wrong.
    pub f64_tree: Bounded<Expansion<f64, 1>>,
    /// dd (`sum_bounded`'s accumulation).
    pub dd: Bounded<Expansion<f64, 2>>,
    /// dd from qd accumulators (`sum_accurate`).
    pub dd_acc: Bounded<Expansion<f64, 2>>,
    /// qd.
    pub qd: Bounded<Expansion<f64, 4>>,
    /// qd from 8-term accumulators (`sum_accurate`).
    pub qd_acc: Bounded<Expansion<f64, 4>>,
    /// Seconds of each (the GPU's include the download of the result).
    pub seconds: [f64; 5],
}

impl ArraySums {
    /// (name, the sum as an MPFR number (exact), its bound, the terms' bits) in the order of
    /// [`ARRAY_SUMS`].
    pub fn list(&self) -> Vec<(&'static str, Float, f64, Vec<u64>)> {
        fn item<const N: usize>(
            name: &'static str,
            b: &Bounded<Expansion<f64, N>>,
        ) -> (&'static str, Float, f64, Vec<u64>) {
            (
                name,
                b.value.to_rug(),
                b.err,
                b.value.terms().iter().map(|t| t.to_bits()).collect(),
            )
        }
        vec![
            item(ARRAY_SUMS[0], &self.f64_tree),
            item(ARRAY_SUMS[1], &self.dd),
            item(ARRAY_SUMS[2], &self.dd_acc),
            item(ARRAY_SUMS[3], &self.qd),
            item(ARRAY_SUMS[4], &self.qd_acc),
        ]
    }

    /// The names of the sums whose bits (value or bound) differ from `other`'s.
    pub fn differences(&self, other: &ArraySums) -> Vec<&'static str> {
        self.list()
            .into_iter()
            .zip(other.list())
            .filter(|(a, b)| a.3 != b.3 || a.2.to_bits() != b.2.to_bits())
            .map(|(a, _)| a.0)
            .collect()
    }
}

fn timed_sum<R>(
    arrays: &Arrays,
    f: impl FnOnce() -> Result<R, GpuError>,
) -> Result<(R, f64), GpuError> {
    let t = Instant::now();
    let r = f()?;
    arrays.synchronize()?;
    Ok((r, t.elapsed().as_secs_f64()))
}

/// The five sums of the data set (`seed`, `n`) on `arrays`.
pub fn array_sums(arrays: &Arrays, seed: u64, n: u64) -> Result<ArraySums, GpuError> {
    let map = IndexMap::summation(seed, n);
    let (f64_tree, t0) = timed_sum(arrays, || arrays.indexed_sum::<f64, 1>(&map))?;
    let (dd, t1) = timed_sum(arrays, || arrays.indexed_sum::<f64, 2>(&map))?;
    let (dd_acc, t2) = timed_sum(arrays, || arrays.indexed_sum_accurate::<f64, 2>(&map))?;
    let (qd, t3) = timed_sum(arrays, || arrays.indexed_sum::<f64, 4>(&map))?;
    let (qd_acc, t4) = timed_sum(arrays, || arrays.indexed_sum_accurate::<f64, 4>(&map))?;
    Ok(ArraySums {
        f64_tree,
        dd,
        dd_acc,
        qd,
        qd_acc,
        seconds: [t0, t1, t2, t3, t4],
    })
}

/// [`array_sums`] on the host backend in a pool of `threads` threads.
pub fn array_sums_on_threads(seed: u64, n: u64, threads: usize) -> Result<ArraySums, GpuError> {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| array_sums(&Arrays::cpu(), seed, n)),
        Err(_) => array_sums(&Arrays::cpu(), seed, n),
    }
}

// ---------------------------------------------------------------------------------------------
// The application

/// What a run computes.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The data set's seed.
    pub seed: u64,
    /// Sizes (numbers of values).
    pub sizes: Vec<u64>,
    /// The GPU backend, when the run uses one.
    pub gpu: Option<Arrays>,
    /// Largest size run on the CPU (the f64 orders and the host backend of the array layer);
    /// the exact sum is computed at every size.
    pub cpu_max: u64,
    /// Largest size at which the host backend is also run on 1, 2 and 4 threads.
    pub threads_max: u64,
}

/// Outcome of one size.
#[derive(Debug)]
pub struct SizeRun {
    /// Number of values.
    pub n: u64,
    /// The exact sum.
    pub exact: Float,
    /// Seconds of the exact sum.
    pub seconds_exact: f64,
    /// Named f64 sums in classical orders (CPU; empty above `cpu_max`), with seconds.
    pub f64_sums: Vec<(String, f64, f64)>,
    /// The array-layer sums on the GPU.
    pub gpu: Option<ArraySums>,
    /// The array-layer sums on the CPU (all threads; above `cpu_max` none).
    pub cpu: Option<ArraySums>,
    /// The host backend on 1, 2 and 4 threads (up to `threads_max`).
    pub threads: Vec<(usize, ArraySums)>,
}

fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

/// Runs every summation for one size.
pub fn run_size(setup: &Setup, n: u64) -> Result<SizeRun, GpuError> {
    let seed = setup.seed;
    let (exact, seconds_exact) = timed(|| exact_sum(seed, n));
    let mut f64_sums = Vec::new();
    if n <= setup.cpu_max {
        let (v, t) = timed(|| f64_forward(seed, n));
        f64_sums.push(("forward".to_string(), v, t));
        let (v, t) = timed(|| f64_reverse(seed, n));
        f64_sums.push(("reverse".to_string(), v, t));
        let (v, t) = timed(|| f64_pairwise(seed, n));
        f64_sums.push(("pairwise".to_string(), v, t));
        for k in [1u64, 2, 4, 8] {
            let (v, t) = timed(|| f64_chunks(seed, n, k));
            f64_sums.push((format!("{k} chunks"), v, t));
        }
    }
    let gpu = match &setup.gpu {
        Some(g) => Some(array_sums(g, seed, n)?),
        None => None,
    };
    let cpu = if n <= setup.cpu_max {
        Some(array_sums(&Arrays::cpu(), seed, n)?)
    } else {
        None
    };
    let mut threads = Vec::new();
    if n <= setup.threads_max {
        for t in [1usize, 2, 4] {
            threads.push((t, array_sums_on_threads(seed, n, t)?));
        }
    }
    Ok(SizeRun {
        n,
        exact,
        seconds_exact,
        f64_sums,
        gpu,
        cpu,
        threads,
    })
}

/// |v − exact| ≤ bound, evaluated exactly in MPFR.
fn within_bound(v: &Float, bound: f64, exact: &Float) -> bool {
    let prec = v.prec().max(exact.prec()) + 8;
    let d = Float::with_val(prec, v - exact).abs();
    d <= bound
}

/// True when every value within `bound` of `v` rounds to the same f64.
fn rounding_certified(v: &Float, bound: f64) -> bool {
    let prec = v.prec() + 64;
    let b = Float::with_val(prec, bound);
    let lo = Float::with_val(prec, v - &b).to_f64();
    let hi = Float::with_val(prec, v + &b).to_f64();
    lo == hi
}

fn check_size(rep: &mut Report, r: &SizeRun, cpu_threads: usize) {
    let exact_f64 = r.exact.to_f64();
    let n = r.n;
    let rate = |t: f64| n as f64 / t.max(1e-9);
    rep.line(format!("\nn = {n}"));
    rep.line(format!(
        "  exact (integer accumulation, CPU)      {exact_f64:.17e}   (rounded to f64; {:.3e} values/s)",
        rate(r.seconds_exact)
    ));
    rep.result(format!("n={n} exact"), r.exact.to_string_radix(10, None));
    let mut distinct: Vec<u64> = Vec::new();
    for (name, v, _) in &r.f64_sums {
        rep.line(format!("  f64 {name:<34} {v:.17e}"));
        if !distinct.contains(&v.to_bits()) {
            distinct.push(v.to_bits());
        }
        rep.result(format!("n={n} f64 {name}"), format!("{v:e}"));
    }
    // The array-layer sums: one row per sum, the backends side by side.
    let primary = r.gpu.as_ref().or(r.cpu.as_ref());
    let on = if r.gpu.is_some() { "GPU" } else { "CPU" };
    if let Some(p) = primary {
        let f64_tree = p.f64_tree.value.hi();
        if !distinct.contains(&f64_tree.to_bits()) && !r.f64_sums.is_empty() {
            distinct.push(f64_tree.to_bits());
        }
        if !r.f64_sums.is_empty() {
            rep.line(format!(
                "  ({} distinct f64 results from {} orders, the array layer's fixed tree included)",
                distinct.len(),
                r.f64_sums.len() + 1
            ));
        }
        for (name, v, bound, _) in p.list() {
            let rounded = v.to_f64();
            let ok = within_bound(&v, bound, &r.exact);
            let cert = rounding_certified(&v, bound);
            rep.line(format!(
                "  {name:<12} (array layer, {on})      {rounded:.17e}   bound {bound:.2e}, rounds to exact: {}, certified: {}",
                rounded == exact_f64,
                cert
            ));
            rep.result(format!("n={n} {name}"), v.to_string_radix(10, None));
            rep.result(format!("n={n} {name} bound"), format!("{bound:e}"));
            if name != "f64 tree" {
                rep.check(
                    &format!("n = {n}: {name} within its error bound of the exact sum"),
                    ok,
                );
            }
        }
        let qd_acc = &p.qd_acc;
        let v = qd_acc.value.to_rug();
        rep.check(
            &format!("n = {n}: qd accurate rounded to f64 equals the exact sum rounded to f64"),
            v.to_f64() == exact_f64,
        );
    }
    // Identity across backends and thread counts.
    if let (Some(g), Some(c)) = (&r.gpu, &r.cpu) {
        let diff = g.differences(c);
        rep.check(
            &format!(
                "n = {n}: GPU and CPU backends bit-identical (5 sums and bounds){}",
                if diff.is_empty() {
                    String::new()
                } else {
                    format!(": MISMATCH in {}", diff.join(", "))
                }
            ),
            diff.is_empty(),
        );
        rep.result(
            format!("n={n} GPU==CPU"),
            if diff.is_empty() {
                "identical"
            } else {
                "MISMATCH"
            },
        );
    }
    if let Some(reference) = r.cpu.as_ref().or(r.gpu.as_ref()) {
        if !r.threads.is_empty() {
            let bad: Vec<String> = r
                .threads
                .iter()
                .filter(|(_, s)| !s.differences(reference).is_empty())
                .map(|(t, _)| t.to_string())
                .collect();
            rep.check(
                &format!(
                    "n = {n}: host backend on 1, 2, 4 and {cpu_threads} threads bit-identical{}",
                    if bad.is_empty() {
                        String::new()
                    } else {
                        format!(": differs on {} threads", bad.join(", "))
                    }
                ),
                bad.is_empty(),
            );
        }
    }
    // Rates.
    let rates = |s: &ArraySums| -> String {
        ARRAY_SUMS
            .iter()
            .zip(s.seconds)
            .map(|(k, t)| format!("{k} {:.3e}", rate(t)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(g) = &r.gpu {
        rep.line(format!(
            "  rates GPU (values/s, generated on the device): {}",
            rates(g)
        ));
        for (k, t) in ARRAY_SUMS.iter().zip(g.seconds) {
            rep.result(format!("n={n} rate GPU {k}"), format!("{:.4e}", rate(t)));
        }
    }
    if let Some(c) = &r.cpu {
        rep.line(format!(
            "  rates CPU ({cpu_threads} threads, values/s): {}",
            rates(c)
        ));
        for (k, t) in ARRAY_SUMS.iter().zip(c.seconds) {
            rep.result(format!("n={n} rate CPU {k}"), format!("{:.4e}", rate(t)));
        }
    }
    if let (Some(g), Some(c)) = (&r.gpu, &r.cpu) {
        let ratios: Vec<String> = ARRAY_SUMS
            .iter()
            .zip(g.seconds.iter().zip(c.seconds))
            .map(|(k, (tg, tc))| format!("{k} {:.1}x", tc / tg.max(1e-12)))
            .collect();
        rep.line(format!("  GPU/CPU rate ratio: {}", ratios.join(", ")));
        for (k, (tg, tc)) in ARRAY_SUMS.iter().zip(g.seconds.iter().zip(c.seconds)) {
            rep.result(
                format!("n={n} GPU/CPU {k}"),
                format!("{:.3}", tc / tg.max(1e-12)),
            );
        }
    }
}

/// Runs the application.
pub fn report(setup: &Setup) -> Report {
    let mut rep = Report::new("summation");
    let cpu_threads = rayon::current_num_threads();
    rep.line(format!(
        "Summation with cancellation (seed {}): pairs ±x, |x| in [2^-30, 2^21), far apart; \
         signal values down to 2^-600",
        setup.seed
    ));
    rep.line(format!(
        "Array layer on {}{}; CPU ({cpu_threads} threads) up to n = {}",
        setup
            .gpu
            .as_ref()
            .map(|g| format!("the GPU ({}) and ", g.describe()))
            .unwrap_or_default(),
        "the host backend",
        setup.cpu_max
    ));
    if let Some(g) = &setup.gpu {
        // Compile the kernels (N = 1, 2, 4) before anything is timed.
        if let Err(e) = array_sums(g, setup.seed, 5000) {
            rep.check(&format!("GPU usable: {e}"), false);
            return rep;
        }
    }
    for &n in &setup.sizes {
        match run_size(setup, n) {
            Ok(r) => check_size(&mut rep, &r, cpu_threads),
            Err(e) => {
                rep.check(&format!("n = {n}: the array layer ran ({e})"), false);
                return rep;
            }
        }
    }
    rep
}
