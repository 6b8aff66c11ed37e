//! Criterion benchmarks of the fixed-limb floats (`expanse_core::limb`): add, mul, div and
//! sqrt rounded to nearest at 128, 848 and 4096 bits against MPFR (`rug::Float`, results
//! assigned to a preallocated number) at the same precision, in the same run, on 64 seeded
//! random operand pairs in [1/4, 4) of both signs. Run: `cargo bench -p expanse-core --bench
//! limb`. `expanse bench limb` prints the same comparison as a table.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use expanse_core::limb::{LimbFloat, Round};
use rug::{Assign, Float};
use std::hint::black_box;

fn operands(p: u32, seed: u64) -> Vec<Float> {
    let mut s = seed;
    (0..64)
        .map(|_| {
            let mut digits = Vec::new();
            for _ in 0..p.div_ceil(64) {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                digits.push(s ^ (s >> 29));
            }
            let int = rug::Integer::from_digits(&digits, rug::integer::Order::Lsf);
            let mut f = Float::with_val(p, int);
            f >>= 64 * digits.len() as i32 - (s % 3) as i32;
            if s & 8 == 0 {
                f = -f;
            }
            f
        })
        .collect()
}

fn bench_prec<const L: usize>(c: &mut Criterion, p: u32) {
    let xa = operands(p, 1);
    let xb = operands(p, 2);
    let a: Vec<LimbFloat<L>> = xa
        .iter()
        .map(|f| LimbFloat::from_rug(f, p, Round::Nearest).0)
        .collect();
    let b: Vec<LimbFloat<L>> = xb
        .iter()
        .map(|f| LimbFloat::from_rug(f, p, Round::Nearest).0)
        .collect();
    let pa: Vec<LimbFloat<L>> = a.iter().map(|x| x.abs()).collect();
    let xpa: Vec<Float> = xa.iter().map(|x| x.clone().abs()).collect();
    let r = Round::Nearest;
    let mut g = c.benchmark_group(format!("limb{p}"));
    g.bench_function(BenchmarkId::new("add", "limb"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                black_box(a[i].add_round(&b[i], r));
            }
        })
    });
    g.bench_function(BenchmarkId::new("mul", "limb"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                black_box(a[i].mul_round(&b[i], r));
            }
        })
    });
    g.bench_function(BenchmarkId::new("div", "limb"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                black_box(a[i].div_round(&b[i], r));
            }
        })
    });
    g.bench_function(BenchmarkId::new("sqrt", "limb"), |bn| {
        bn.iter(|| {
            for x in &pa {
                black_box(x.sqrt_round(r));
            }
        })
    });
    let mut out = Float::new(p);
    g.bench_function(BenchmarkId::new("add", "mpfr"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                out.assign(&xa[i] + &xb[i]);
                black_box(&out);
            }
        })
    });
    g.bench_function(BenchmarkId::new("mul", "mpfr"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                out.assign(&xa[i] * &xb[i]);
                black_box(&out);
            }
        })
    });
    g.bench_function(BenchmarkId::new("div", "mpfr"), |bn| {
        bn.iter(|| {
            for i in 0..64 {
                out.assign(&xa[i] / &xb[i]);
                black_box(&out);
            }
        })
    });
    g.bench_function(BenchmarkId::new("sqrt", "mpfr"), |bn| {
        bn.iter(|| {
            for x in &xpa {
                out.assign(x.sqrt_ref());
                black_box(&out);
            }
        })
    });
    g.finish();
}

fn limb(c: &mut Criterion) {
    bench_prec::<2>(c, 128);
    bench_prec::<16>(c, 848);
    bench_prec::<64>(c, 4096);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_millis(800));
    targets = limb
}
criterion_main!(benches);
