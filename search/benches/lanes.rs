//! Criterion benchmark of the search's transient on all cores: one orbit at a time per thread
//! (the baseline) against the search's lockstep lanes, for N = 1, 2, 4 f64 terms, at the
//! classical parameters (1.4, 0.3). Throughput is in Hénon iterations.
//! Run: `cargo bench -p expanse-search --bench lanes`.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use expanse_search::bench::{run_schedule, Schedule};
use expanse_search::orbit::{Base, OrbitJob, OrbitTask};
use expanse_search::spec::random_init_point;

fn lanes(c: &mut Criterion) {
    let orbits = 64u64;
    let tasks: Vec<OrbitTask> = (0..orbits)
        .map(|i| {
            let (x0, y0) = random_init_point(2013, i);
            OrbitTask {
                a: 1.4,
                b: 0.3,
                x0,
                y0,
            }
        })
        .collect();
    let mut g = c.benchmark_group("search_lanes");
    for n in [1usize, 2, 4] {
        let transient = match n {
            1 | 2 => 20_000,
            _ => 2_000,
        };
        let job = OrbitJob {
            transient,
            pmax: 16,
            tol: 1e-10,
            escape: 1e3,
            terms: n,
            base: Base::F64,
            limb_bits: None,
        };
        g.throughput(Throughput::Elements(orbits * transient));
        for (name, schedule) in [
            ("one_at_a_time", Schedule::OneAtATime),
            ("lockstep", Schedule::Lockstep),
        ] {
            g.bench_with_input(
                BenchmarkId::new(format!("N{n}"), name),
                &schedule,
                |b, &s| b.iter(|| run_schedule(&job, &tasks, s).unwrap()),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, lanes);
criterion_main!(benches);
