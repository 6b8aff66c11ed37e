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
//! chunks summed separately, then added (k = 1, 2, 4, 8). They differ from each other and from
//! the exact sum, as seed 000 Table 3's native double does.
//!
//! **dd and qd**: accurate-tier `Expansion<f64, 2 | 4>` additions in a reduction tree fixed by
//! the data alone: blocks of [`BLOCK`] consecutive values summed left to right, then the block
//! sums combined by a binary tree over block indices (split at the midpoint). Rayon only
//! decides who computes which node, never what is added to what, so the result is bit-for-bit
//! the same on 1, 2, 4 or 8 threads (checked). Every addition has relative error at most
//! ε = [`expanse_core::bounds::add_rel_bound`], so |computed − exact| ≤ ε/(1 − ε)·Σ|partial
//! results| (errors of a sum add up); that rigorous bound is accumulated alongside.
//!
//! **Exact sum** (the known answer): every finite f64 is an integer multiple of 2^−1074, so
//! each value is added as the integer m·2^(e+1074) into a 2176-bit fixed-point accumulator
//! (positive and negative parts separately, per chunk, in parallel); the chunk totals are
//! combined as GMP integers. No floating-point rounding is involved.
//!
//! The check: dd and qd are identical across thread counts and within their bounds of the
//! exact sum; whether each, rounded to f64, equals the exact sum rounded to f64 is reported
//! (and certified when the bound interval rounds to a single f64).

use crate::cli::Report;
use expanse_core::bounds::add_rel_bound;
use expanse_core::Expansion;
use rayon::prelude::*;
use rug::{Float, Integer};
use std::time::Instant;

/// Values per leaf block of the fixed dd/qd reduction tree.
pub const BLOCK: u64 = 1 << 12;

/// Values per chunk of the exact accumulation.
const EXACT_CHUNK: u64 = 1 << 16;

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 2^k for −1022 ≤ k ≤ 1023, exactly.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// ±m·2^(e−52) with a 53-bit m from `h`, e in [lo, hi].
fn draw(h: u64, lo: i32, hi: i32) -> f64 {
    let m = (h >> 11) | (1u64 << 52);
    let span = (hi - lo + 1) as u64;
    let e = lo + (splitmix(h) % span) as i32;
    let v = m as f64 * pow2(e - 52);
    if h & 1 == 1 {
        -v
    } else {
        v
    }
}

/// True when pair `p` is a signal pair (else cancelling).
fn is_signal_pair(seed: u64, p: u64) -> bool {
    splitmix(seed ^ p.wrapping_mul(0xD1B5_4A32_D192_ED03)) % 4 == 3
}

/// A signal value, independent per index.
fn signal(seed: u64, i: u64) -> f64 {
    draw(
        splitmix(seed.rotate_left(17) ^ i.wrapping_mul(0xA24B_AED4_963E_E407)),
        -600,
        0,
    )
}

/// The i-th of n values of the data set of `seed` (see the module doc).
pub fn value(seed: u64, n: u64, i: u64) -> f64 {
    let half = n / 2;
    if i >= 2 * half {
        return signal(seed, i);
    }
    let p = i % half;
    if is_signal_pair(seed, p) {
        return signal(seed, i);
    }
    let x = draw(
        splitmix(seed ^ p.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        -30,
        20,
    );
    if i >= half {
        -x
    } else {
        x
    }
}

/// True when `value(seed, n, i)` is a signal value (for the independent check of the exact
/// sum: the cancelling pairs contribute exactly zero).
pub fn is_signal(seed: u64, n: u64, i: u64) -> bool {
    let half = n / 2;
    i >= 2 * half || is_signal_pair(seed, i % half)
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
// The application

/// Outcome of one size.
#[derive(Debug)]
pub struct SizeRun {
    /// Number of values.
    pub n: u64,
    /// The exact sum.
    pub exact: Float,
    /// Named f64 sums.
    pub f64_sums: Vec<(String, f64)>,
    /// dd sum per thread count.
    pub dd: Vec<(usize, BoundedSum<2>)>,
    /// qd sum per thread count.
    pub qd: Vec<(usize, BoundedSum<4>)>,
    /// Seconds: f64 forward, exact, dd and qd (fastest thread count).
    pub seconds: [f64; 4],
}

/// Thread counts compared for dd and qd.
pub const THREADS: [usize; 4] = [1, 2, 4, 8];

fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

/// Runs every summation for one size.
pub fn run_size(seed: u64, n: u64) -> SizeRun {
    let (fwd, t_fwd) = timed(|| f64_forward(seed, n));
    let mut f64_sums = vec![
        ("forward".to_string(), fwd),
        ("reverse".to_string(), f64_reverse(seed, n)),
        ("pairwise".to_string(), f64_pairwise(seed, n)),
    ];
    for k in [1u64, 2, 4, 8] {
        f64_sums.push((format!("{k} chunks"), f64_chunks(seed, n, k)));
    }
    let (exact, t_exact) = timed(|| exact_sum(seed, n));
    let mut dd = Vec::new();
    let mut qd = Vec::new();
    let mut t_dd = f64::INFINITY;
    let mut t_qd = f64::INFINITY;
    for &t in &THREADS {
        let (d, s) = timed(|| expansion_sum_on::<2>(seed, n, t));
        t_dd = t_dd.min(s);
        dd.push((t, d));
        let (q, s) = timed(|| expansion_sum_on::<4>(seed, n, t));
        t_qd = t_qd.min(s);
        qd.push((t, q));
    }
    SizeRun {
        n,
        exact,
        f64_sums,
        dd,
        qd,
        seconds: [t_fwd, t_exact, t_dd, t_qd],
    }
}

/// |a − exact| ≤ bound, evaluated exactly in MPFR.
fn within<const N: usize>(s: &BoundedSum<N>, exact: &Float) -> bool {
    let v = s.sum.to_rug();
    let prec = v.prec().max(exact.prec()) + 8;
    let d = Float::with_val(prec, &v - exact).abs();
    d <= s.bound()
}

/// True when every value within `bound` of the sum rounds to the same f64.
fn certified_rounding<const N: usize>(s: &BoundedSum<N>) -> bool {
    let v = s.sum.to_rug();
    let prec = v.prec() + 64;
    let b = Float::with_val(prec, s.bound());
    let lo = Float::with_val(prec, &v - &b).to_f64();
    let hi = Float::with_val(prec, &v + &b).to_f64();
    lo == hi
}

fn identical<const N: usize>(v: &[(usize, BoundedSum<N>)]) -> bool {
    v.windows(2).all(|w| {
        let a = w[0].1.sum.terms();
        let b = w[1].1.sum.terms();
        a.iter()
            .zip(b.iter())
            .all(|(x, y)| x.to_bits() == y.to_bits())
    })
}

fn check_size(rep: &mut Report, r: &SizeRun) {
    let exact_f64 = r.exact.to_f64();
    let n = r.n;
    rep.line(format!("\nn = {n}"));
    rep.line(format!(
        "  exact (integer accumulation)   {:.17e}   (rounded to f64; exact value has {} bits)",
        exact_f64,
        r.exact.prec()
    ));
    let mut distinct: Vec<u64> = Vec::new();
    for (name, v) in &r.f64_sums {
        rep.line(format!("  f64 {name:<26} {v:.17e}"));
        if !distinct.contains(&v.to_bits()) {
            distinct.push(v.to_bits());
        }
        rep.result(format!("n={n} f64 {name}"), format!("{v:e}"));
    }
    rep.line(format!(
        "  ({} distinct f64 results from {} orders)",
        distinct.len(),
        r.f64_sums.len()
    ));
    let dd = &r.dd[0].1;
    let qd = &r.qd[0].1;
    let dd_r = dd.sum.to_rug().to_f64();
    let qd_r = qd.sum.to_rug().to_f64();
    rep.line(format!(
        "  dd  (fixed tree, 1/2/4/8 thr.) {dd_r:.17e}   bound {:.2e}, rounds to exact: {}, certified: {}",
        dd.bound(),
        dd_r == exact_f64,
        certified_rounding(dd)
    ));
    rep.line(format!(
        "  qd  (fixed tree, 1/2/4/8 thr.) {qd_r:.17e}   bound {:.2e}, rounds to exact: {}, certified: {}",
        qd.bound(),
        qd_r == exact_f64,
        certified_rounding(qd)
    ));
    let [t_fwd, t_exact, t_dd, t_qd] = r.seconds;
    let rate = |t: f64| n as f64 / t.max(1e-9);
    rep.line(format!(
        "  rates (values/s): f64 forward (1 thread) {:.3e}, exact {:.3e}, dd {:.3e}, qd {:.3e} (best of 1/2/4/8 threads)",
        rate(t_fwd),
        rate(t_exact),
        rate(t_dd),
        rate(t_qd)
    ));
    rep.result(format!("n={n} exact"), r.exact.to_string_radix(10, None));
    rep.result(format!("n={n} dd"), dd.sum.to_string());
    rep.result(format!("n={n} qd"), qd.sum.to_string());
    rep.check(
        &format!("n = {n}: dd and qd bit-identical on 1, 2, 4 and 8 threads"),
        identical(&r.dd) && identical(&r.qd),
    );
    rep.check(
        &format!("n = {n}: dd and qd within their error bounds of the exact sum"),
        within(dd, &r.exact) && within(qd, &r.exact),
    );
    rep.check(
        &format!("n = {n}: qd rounded to f64 equals the exact sum rounded to f64"),
        qd_r == exact_f64,
    );
}

/// Runs the application for the given sizes and seed.
pub fn report(seed: u64, sizes: &[u64]) -> Report {
    let mut rep = Report::new("summation");
    rep.line(format!(
        "Summation with cancellation (seed {seed}): pairs ±x, |x| in [2^-30, 2^21), far apart; \
         signal values down to 2^-600; {} threads",
        rayon::current_num_threads()
    ));
    for &n in sizes {
        let r = run_size(seed, n);
        check_size(&mut rep, &r);
    }
    rep
}
