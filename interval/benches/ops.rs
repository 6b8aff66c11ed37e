//! Criterion benchmark of interval add, mul and the 2×2 interval matrix product, per kind, in
//! one run so the ratios between kinds are measured under the same conditions:
//! F64 (inari), Exp N = 2, 4, 8 (core's accurate tier + outward widening), MPFR at 106, 159,
//! 212, 318 and 424 bits (53·N: the precisions the expansions roughly match), and the batched
//! Exp slice operations (`exp{N}_batch`: `add_slices`/`mul_slices`, N = 2, 3, 4, 6, 8; scalar
//! rows for N = 3, 6 beside them), and `endpoints_2x/{add,mul}_batch{N}`: the core's batched
//! accurate operations alone on the 2·256 endpoint pairs (the floor of the batched rows).
//! The rows run N by N, each N's MPFR rows right after its Exp rows.
//!
//! Inputs are seeded (SplitMix64): 256 random intervals around values in [−2, 2] with
//! relative widths 2^-40, thin enough to be typical of proofs. Each measured iteration runs
//! the operation over the whole batch; throughput is reported per operation.
//!
//! Run: `cargo bench -p expanse-interval --bench ops` (add `-- --quick` for a short run).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use expanse_core::Expansion;
use expanse_interval::{ExpInterval, F64Interval, IMat2, IntervalArith, MpCtx, MpInterval};
use std::hint::black_box;
use std::time::Duration;

const BATCH: usize = 256;

struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Seeded intervals of kind I: a random centre in [−2, 2] (converted exactly, then made a
/// multi-term value by adding a tiny random offset), radius 2^-40 relative.
fn inputs<I: IntervalArith>(ctx: &I::Ctx, seed: u64) -> Vec<I> {
    let mut rng = Rng(seed);
    (0..BATCH)
        .map(|_| {
            let c = 4.0 * rng.next_f64() - 2.0;
            let tail = rng.next_f64() * c.abs() * 2f64.powi(-60);
            let x = I::from_f64(ctx, c).add(&I::from_f64(ctx, tail));
            x.inflate(c.abs() * 2f64.powi(-40))
        })
        .collect()
}

fn matrices<I: IntervalArith>(ctx: &I::Ctx, seed: u64) -> Vec<IMat2<I>> {
    let v = inputs::<I>(ctx, seed);
    v.chunks(4)
        .map(|c| IMat2::new(c[0].clone(), c[1].clone(), c[2].clone(), c[3].clone()))
        .collect()
}

fn bench_kind<I: IntervalArith>(c: &mut Criterion, ctx: &I::Ctx, name: &str) {
    let xs = inputs::<I>(ctx, 1);
    let ys = inputs::<I>(ctx, 2);
    let ms = matrices::<I>(ctx, 3);
    let ns = matrices::<I>(ctx, 4);

    let mut g = c.benchmark_group("interval_add");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(ys.iter()) {
                black_box(black_box(x).add(black_box(y)));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("interval_mul");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(ys.iter()) {
                black_box(black_box(x).mul(black_box(y)));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("interval_mat2_mul");
    g.throughput(Throughput::Elements(ms.len() as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            for (m, n) in ms.iter().zip(ns.iter()) {
                black_box(black_box(m).mul(black_box(n)));
            }
        })
    });
    g.finish();
}

/// Baseline in the same run: the core's accurate add and mul on point expansions (what an
/// Exp interval endpoint costs before outward rounding).
fn bench_core<const N: usize>(c: &mut Criterion) {
    let mut rng = Rng(5);
    let xs: Vec<Expansion<f64, N>> = (0..BATCH)
        .map(|_| Expansion::from_f64(4.0 * rng.next_f64() - 2.0).add_term(rng.next_f64() * 1e-20))
        .collect();
    let ys: Vec<Expansion<f64, N>> = xs.iter().rev().cloned().collect();
    let mut g = c.benchmark_group("core_add");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function(BenchmarkId::from_parameter(format!("exp{N}")), |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(ys.iter()) {
                black_box(black_box(x).add(black_box(y)));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("core_mul");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function(BenchmarkId::from_parameter(format!("exp{N}")), |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(ys.iter()) {
                black_box(black_box(x).mul(black_box(y)));
            }
        })
    });
    g.finish();
}

/// The batched slice operations of `ExpInterval<N>` (`add_slices`, `mul_slices`) over the
/// same batch, beside the scalar operations (`exp{N}` rows; scalar rows for N = 3, 6 come
/// from here, the others from `bench_kind`).
fn bench_batched<const N: usize>(c: &mut Criterion, scalar_rows: bool) {
    let xs = inputs::<ExpInterval<N>>(&(), 1);
    let ys = inputs::<ExpInterval<N>>(&(), 2);
    let mut out = xs.clone();
    let name = format!("exp{N}");
    for (group, mul) in [("interval_add", false), ("interval_mul", true)] {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(BATCH as u64));
        if scalar_rows {
            g.bench_function(BenchmarkId::from_parameter(&name), |b| {
                b.iter(|| {
                    for (x, y) in xs.iter().zip(ys.iter()) {
                        let r = if mul {
                            black_box(x).mul(black_box(y))
                        } else {
                            black_box(x).add(black_box(y))
                        };
                        black_box(r);
                    }
                })
            });
        }
        g.bench_function(BenchmarkId::from_parameter(format!("{name}_batch")), |b| {
            b.iter(|| {
                if mul {
                    ExpInterval::<N>::mul_slices(black_box(&xs), black_box(&ys), &mut out);
                } else {
                    ExpInterval::<N>::add_slices(black_box(&xs), black_box(&ys), &mut out);
                }
                black_box(&out);
            })
        });
        g.finish();
    }
    // The endpoint operations alone (2 per interval, no widening): the batched core calls.
    let ends = |v: &[ExpInterval<N>]| -> Vec<Expansion<f64, N>> {
        v.iter().flat_map(|x| [x.lo(), x.hi()]).collect()
    };
    let (ex, ey) = (ends(&xs), ends(&ys));
    let mut eo = ex.clone();
    let mut g = c.benchmark_group("endpoints_2x");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function(BenchmarkId::from_parameter(format!("add_batch{N}")), |b| {
        b.iter(|| expanse_core::accurate_batch::add_batch(black_box(&ex), black_box(&ey), &mut eo))
    });
    g.bench_function(BenchmarkId::from_parameter(format!("mul_batch{N}")), |b| {
        b.iter(|| expanse_core::accurate_batch::mul_batch(black_box(&ex), black_box(&ey), &mut eo))
    });
    g.finish();
}

/// MPFR intervals at 53·N bits, the baseline of the Exp rows of that N.
fn bench_mpfr(c: &mut Criterion, bits: u32) {
    let ctx = MpCtx::new(bits).expect("valid precision");
    bench_kind::<MpInterval>(c, &ctx, &format!("mpfr{bits}"));
}

fn all(c: &mut Criterion) {
    bench_core::<2>(c);
    bench_core::<4>(c);
    bench_core::<8>(c);
    bench_kind::<F64Interval>(c, &(), "f64");
    // Each N's rows, then MPFR at 53·N bits right after them: on a shared machine whose speed
    // drifts over a run, the ratio of each pair is then measured within a minute.
    bench_kind::<ExpInterval<2>>(c, &(), "exp2");
    bench_batched::<2>(c, false);
    bench_mpfr(c, 106);
    bench_batched::<3>(c, true);
    bench_mpfr(c, 159);
    bench_kind::<ExpInterval<4>>(c, &(), "exp4");
    bench_batched::<4>(c, false);
    bench_mpfr(c, 212);
    bench_batched::<6>(c, true);
    bench_mpfr(c, 318);
    bench_kind::<ExpInterval<8>>(c, &(), "exp8");
    bench_batched::<8>(c, false);
    bench_mpfr(c, 424);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = all
}
criterion_main!(benches);
