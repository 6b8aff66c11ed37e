//! Criterion benchmarks of the accurate tier (add, mul, div, sqrt) for every N = 1..8 of f64
//! against MPFR (`rug::Float`) at the same precision (53·N bits), in the same run, on seeded
//! random operands near 1 (SplitMix64). Each measurement applies the operation to a batch of
//! 64 operand pairs so loop overhead is negligible; compare the `expansion/N` and `mpfr/N`
//! lines of one group. Run: `cargo bench -p expanse-core`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use expanse_core::Expansion;
use rug::Float;
use std::hint::black_box;

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const BATCH: usize = 64;

/// Seeded operands in [0.5, 2) with all N·53 bits populated.
fn operands<const N: usize>(seed: u64) -> Vec<Float> {
    let mut rng = SplitMix(seed);
    (0..BATCH)
        .map(|_| {
            let mut v = Float::with_val(1000, 0.5 + 1.5 * rng.unit());
            for k in 1..(N as i32 * 2 + 2) {
                v += Float::with_val(1000, rng.unit() - 0.5)
                    * Float::with_val(64, 2.0f64.powi(-30 * k));
            }
            v
        })
        .collect()
}

fn bench_n<const N: usize>(c: &mut Criterion) {
    let prec = 53 * N as u32;
    let xr = operands::<N>(1 + N as u64);
    let yr = operands::<N>(100 + N as u64);
    let xe: Vec<Expansion<f64, N>> = xr.iter().map(Expansion::from_rug).collect();
    let ye: Vec<Expansion<f64, N>> = yr.iter().map(Expansion::from_rug).collect();
    let xm: Vec<Float> = xr.iter().map(|v| Float::with_val(prec, v)).collect();
    let ym: Vec<Float> = yr.iter().map(|v| Float::with_val(prec, v)).collect();
    let mut out = Float::new(prec);

    macro_rules! pair {
        ($name:expr, $exp:expr, $mp:expr) => {{
            let mut g = c.benchmark_group($name);
            g.bench_function(BenchmarkId::new("expansion", N), |b| {
                b.iter(|| {
                    for i in 0..BATCH {
                        black_box($exp(&xe[i], &ye[i]));
                    }
                })
            });
            g.bench_function(BenchmarkId::new("mpfr", N), |b| {
                b.iter(|| {
                    for i in 0..BATCH {
                        $mp(&mut out, &xm[i], &ym[i]);
                        black_box(&out);
                    }
                })
            });
            g.finish();
        }};
    }
    use rug::Assign;
    pair!(
        "add",
        |x: &Expansion<f64, N>, y: &Expansion<f64, N>| x.add(y),
        |o: &mut Float, x: &Float, y: &Float| o.assign(x + y)
    );
    pair!(
        "mul",
        |x: &Expansion<f64, N>, y: &Expansion<f64, N>| x.mul(y),
        |o: &mut Float, x: &Float, y: &Float| o.assign(x * y)
    );
    pair!(
        "div",
        |x: &Expansion<f64, N>, y: &Expansion<f64, N>| x.div(y),
        |o: &mut Float, x: &Float, y: &Float| o.assign(x / y)
    );
    pair!(
        "sqrt",
        |x: &Expansion<f64, N>, _y: &Expansion<f64, N>| x.sqrt(),
        |o: &mut Float, x: &Float, _y: &Float| o.assign(x.sqrt_ref())
    );
}

fn all(c: &mut Criterion) {
    bench_n::<1>(c);
    bench_n::<2>(c);
    bench_n::<3>(c);
    bench_n::<4>(c);
    bench_n::<5>(c);
    bench_n::<6>(c);
    bench_n::<7>(c);
    bench_n::<8>(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(200))
        .measurement_time(std::time::Duration::from_millis(600));
    targets = all
}
criterion_main!(benches);
