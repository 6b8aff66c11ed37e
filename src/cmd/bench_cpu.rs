//! `expanse bench cpu`: CPU throughput of Hénon iteration over many independent orbits on all
//! cores (rayon), for N = 1..8 terms of f64, against MPFR (`rug`) at 53·N bits in the same run.
//!
//! Measured per N, as Hénon iterations per second summed over all threads:
//! - `fast`: the fast tier (`Fast<f64, N>`, the search's arithmetic) through
//!   `expanse_core::batch::henon_iterate_batch_f64`, on the widest SIMD this CPU has (AVX-512,
//!   detected at run time, else AVX2), two blocks of lanes per loop iteration (the figure of
//!   merit; the search's per-orbit lane code, compiled once in `expanse_core::runtime`, with
//!   (a, b) given to every orbit);
//! - `avx2` (only where AVX-512 is used): the same on AVX2 lanes, to show what the width buys;
//! - `fast-1`: the same arithmetic one orbit at a time (latency-bound; shows what interleaving
//!   buys);
//! - `accurate`: the accurate tier (`Expansion<f64, N>`, proven bounds), one orbit at a time;
//! - `acc-batch`: the accurate tier batched on SIMD lanes like `fast`, bit for bit the
//!   scalar accurate results: for N ≥ 3 `expanse_core::accurate_batch` (the widest SIMD;
//!   `acc-avx2` the same on AVX2 where AVX-512 is used), for N = 2 the double-word lanes;
//! - `mpfr`: `rug::Float` at 53·N bits, in-place operations, no allocation per step.
//!
//! - `search`: the search itself (`expanse_search`, the CPU backend: transient, close-return
//!   detection, confirmation) for N = 1, 2, 4, 8, in Hénon iterations per second.
//!
//! Each variant's step count is calibrated to run about `0.1 s × --scale`; then the variants
//! are timed in alternation, three times each, and the best rate of each is reported (the
//! machine may be shared). Ratios are against the MPFR rate from the same run.

use super::{bench::Args, CmdResult, Outcome};
use expanse_core::accurate_batch::{
    henon_iterate_accurate_batch_f64_at, henon_iterate_accurate_scalar_f64,
};
use expanse_core::batch::{
    henon_iterate_batch_dw, henon_iterate_batch_f64_at, F64Lanes, SimdLevel,
};
use expanse_core::runtime::{henon_iterate_scalar_per_orbit, terms_of_mut};
use expanse_core::Expansion;
use expanse_gpu::par;
use rug::{Assign, Float};
use serde::Serialize;
use std::time::Instant;

/// Orbits per thread: a multiple of every level's orbits per loop iteration (2 × 8).
const ORBITS_PER_THREAD: usize = 64;

/// One row of the table. Rates are Hénon iterations per second over all threads, from
/// on-CPU time (see [`timed`]); `*_wall` are the same from wall-clock time.
#[derive(Serialize)]
struct Row {
    n: usize,
    mpfr_bits: u32,
    fast_it_per_s: f64,
    /// The same on AVX2 lanes, measured only when `fast` used AVX-512.
    fast_avx2_it_per_s: Option<f64>,
    fast_one_orbit_it_per_s: f64,
    accurate_it_per_s: f64,
    accurate_batched_it_per_s: Option<f64>,
    /// The batched accurate tier (N ≥ 3) on AVX2 lanes, measured only when `acc-batch` used
    /// AVX-512.
    accurate_batched_avx2_it_per_s: Option<f64>,
    mpfr_it_per_s: f64,
    fast_vs_mpfr: f64,
    accurate_vs_mpfr: f64,
    accurate_batched_vs_mpfr: Option<f64>,
    fast_it_per_s_wall: f64,
    mpfr_it_per_s_wall: f64,
    fast_vs_mpfr_wall: f64,
    target_fast_vs_mpfr: Option<f64>,
}

/// Throughput of the search's CPU backend for one N.
#[derive(Serialize)]
struct SearchRow {
    n: usize,
    search_it_per_s: f64,
    search_it_per_s_wall: f64,
}

/// The whole report.
#[derive(Serialize)]
struct Report {
    threads: usize,
    /// SIMD instruction set of `fast`.
    simd: &'static str,
    /// Orbits per loop iteration of `fast` at N = 1 (fewer at N ≥ 5 on AVX2:
    /// `SimdLevel::orbits_per_iteration`).
    lanes: usize,
    orbits_per_thread: usize,
    parameters: (f64, f64),
    rows: Vec<Row>,
    search: Vec<SearchRow>,
}

/// Number of timed runs per measurement; the best is reported.
const REPEATS: usize = 3;

/// Picks a step count for which `work(steps)` (performing `orbits × steps` iterations) runs
/// for at least `min_secs`.
fn calibrate(min_secs: f64, work: &mut impl FnMut(u64)) -> u64 {
    let mut steps = 4u64;
    loop {
        let t0 = Instant::now();
        work(steps);
        let dt = t0.elapsed().as_secs_f64();
        if dt >= min_secs || steps >= 1 << 40 {
            return steps;
        }
        let factor = ((min_secs / dt.max(1e-6)) * 1.2).clamp(2.0, 64.0);
        steps = (steps as f64 * factor) as u64;
    }
}

/// Seconds all threads of this process have spent on a CPU (Linux: the first field of
/// /proc/self/task/*/schedstat, in ns); `None` where that is not available.
pub(super) fn cpu_seconds() -> Option<f64> {
    let mut total = 0.0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path().join("schedstat");
        let text = std::fs::read_to_string(path).ok()?;
        total += text.split_whitespace().next()?.parse::<f64>().ok()? * 1e-9;
    }
    Some(total)
}

/// One timed run of `work(steps)`: (iterations per wall-clock second, iterations per second
/// of on-CPU time × threads). The second is what the machine delivers when the benchmark has
/// its cores to itself; on a shared machine it is the steadier figure.
fn timed(orbits: usize, steps: u64, threads: usize, work: &mut impl FnMut(u64)) -> (f64, f64) {
    let c0 = cpu_seconds();
    let t0 = Instant::now();
    work(steps);
    let wall = t0.elapsed().as_secs_f64();
    let iters = orbits as f64 * steps as f64;
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => iters / (b - a) * threads as f64,
        _ => iters / wall,
    };
    (iters / wall, cpu)
}

/// Starting points on the attractor's basin: x spread over [0, 0.1), y = 0.
fn starts<const N: usize>(orbits: usize) -> (Vec<Expansion<f64, N>>, Vec<Expansion<f64, N>>) {
    let xs = (0..orbits)
        .map(|k| Expansion::from_f64(0.1 * k as f64 / orbits as f64))
        .collect();
    (xs, vec![Expansion::zero(); orbits])
}

fn measure<const N: usize>(threads: usize, min_secs: f64, level: SimdLevel) -> Row {
    let a: Expansion<f64, N> = "1.4".parse().expect("constant parses");
    let b: Expansion<f64, N> = "0.3".parse().expect("constant parses");
    let per_thread = ORBITS_PER_THREAD;
    let orbits = threads * per_thread;

    // Fast tier, batched, at `level` and (for comparison) at the baseline level.
    let batched = |level: SimdLevel| {
        let (mut xs, mut ys) = starts::<N>(orbits);
        move |steps: u64| {
            par::for_each_chunk_pair(&mut xs, &mut ys, per_thread, |cx, cy| {
                henon_iterate_batch_f64_at::<N>(level, &a, &b, cx, cy, steps)
                    .expect("level detected as available");
            });
        }
    };
    let mut fast = batched(level);
    let with_baseline = level != SimdLevel::Baseline;
    let mut fast_baseline = batched(SimdLevel::Baseline);

    // Fast tier, one orbit at a time (the scalar fast tier compiled in expanse-core, behind
    // its run-time N: the binary does not compile the tier again).
    let (mut xs1, mut ys1) = starts::<N>(orbits);
    let a_rep = a.terms().repeat(per_thread);
    let b_rep = b.terms().repeat(per_thread);
    let mut fast_one = |steps: u64| {
        par::for_each_chunk_pair(&mut xs1, &mut ys1, per_thread, |cx, cy| {
            let k = cx.len() * N;
            henon_iterate_scalar_per_orbit::<f64>(
                N,
                &a_rep[..k],
                &b_rep[..k],
                terms_of_mut(cx),
                terms_of_mut(cy),
                steps,
            );
        });
    };

    // Accurate tier, one orbit at a time (likewise compiled in expanse-core).
    let (mut xa, mut ya) = starts::<N>(orbits);
    let mut accurate = |steps: u64| {
        par::for_each_chunk_pair(&mut xa, &mut ya, per_thread, |cx, cy| {
            henon_iterate_accurate_scalar_f64::<N>(&a, &b, cx, cy, steps)
        });
    };

    // MPFR at 53·N bits, in-place operations.
    let prec = 53 * N as u32;
    let ar = Float::with_val(prec, Float::parse("1.4").expect("constant parses"));
    let br = Float::with_val(prec, Float::parse("0.3").expect("constant parses"));
    let mut mx: Vec<Float> = (0..orbits)
        .map(|k| Float::with_val(prec, 0.1 * k as f64 / orbits as f64))
        .collect();
    let mut my: Vec<Float> = (0..orbits).map(|_| Float::new(prec)).collect();
    let mut mpfr = |steps: u64| {
        par::for_each_chunk_pair(&mut mx, &mut my, per_thread, |cx, cy| {
            let mut x2 = Float::new(prec);
            let mut t = Float::new(prec);
            let mut ny = Float::new(prec);
            for (x, y) in cx.iter_mut().zip(cy.iter_mut()) {
                for _ in 0..steps {
                    // x² = sqr(x); t = a·x²; u = y + 1; x' = u − t; y' = b·x
                    x2.assign(x.square_ref());
                    t.assign(&ar * &x2);
                    ny.assign(&br * &*x);
                    *y += 1u32;
                    x.assign(&*y - &t);
                    std::mem::swap(y, &mut ny);
                }
            }
        });
    };

    // Accurate tier, batched double-word arithmetic (N = 2 only).
    let (mut xd, mut yd) = starts::<2>(orbits);
    let (a2, b2) = (
        "1.4".parse::<Expansion<f64, 2>>().expect("constant parses"),
        "0.3".parse::<Expansion<f64, 2>>().expect("constant parses"),
    );
    let mut acc_batch_dw = |steps: u64| {
        par::for_each_chunk_pair(&mut xd, &mut yd, per_thread, |cx, cy| {
            henon_iterate_batch_dw::<F64Lanes>(&a2, &b2, cx, cy, steps)
        });
    };
    // Accurate tier, batched on lanes (N ≥ 3), at `level` and at the baseline level.
    let acc_batched = |level: SimdLevel| {
        let (mut xs, mut ys) = starts::<N>(orbits);
        move |steps: u64| {
            par::for_each_chunk_pair(&mut xs, &mut ys, per_thread, |cx, cy| {
                henon_iterate_accurate_batch_f64_at::<N>(level, &a, &b, cx, cy, steps)
                    .expect("level detected as available");
            });
        }
    };
    let mut acc_lanes = acc_batched(level);
    let mut acc_lanes_base = acc_batched(SimdLevel::Baseline);
    let mut acc_batch = |steps: u64| {
        if N == 2 {
            acc_batch_dw(steps)
        } else {
            acc_lanes(steps)
        }
    };
    let with_acc_base = N >= 3 && with_baseline;

    // Calibrate each, then alternate timed runs (the machine is shared: alternating and
    // keeping the best of each spreads any interference over all of them).
    let per = min_secs / REPEATS as f64;
    let s_fast = calibrate(per, &mut fast);
    let s_base = if with_baseline {
        calibrate(per, &mut fast_baseline)
    } else {
        0
    };
    let s_one = calibrate(per, &mut fast_one);
    let s_acc = calibrate(per, &mut accurate);
    let s_mpfr = calibrate(per, &mut mpfr);
    let s_accb = if N >= 2 {
        calibrate(per, &mut acc_batch)
    } else {
        0
    };
    let s_accb_base = if with_acc_base {
        calibrate(per, &mut acc_lanes_base)
    } else {
        0
    };
    let best = |a: (f64, f64), b: (f64, f64)| (a.0.max(b.0), a.1.max(b.1));
    let mut accb_base_r = (0.0, 0.0);
    let (mut fast_r, mut base_r, mut one_r, mut acc_r, mut mpfr_r, mut accb_r) = (
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0, 0.0),
        (0.0, 0.0),
    );
    for _ in 0..REPEATS {
        fast_r = best(fast_r, timed(orbits, s_fast, threads, &mut fast));
        if with_baseline {
            base_r = best(base_r, timed(orbits, s_base, threads, &mut fast_baseline));
        }
        mpfr_r = best(mpfr_r, timed(orbits, s_mpfr, threads, &mut mpfr));
        one_r = best(one_r, timed(orbits, s_one, threads, &mut fast_one));
        acc_r = best(acc_r, timed(orbits, s_acc, threads, &mut accurate));
        if N >= 2 {
            accb_r = best(accb_r, timed(orbits, s_accb, threads, &mut acc_batch));
        }
        if with_acc_base {
            accb_base_r = best(
                accb_base_r,
                timed(orbits, s_accb_base, threads, &mut acc_lanes_base),
            );
        }
    }

    let target = match N {
        2 => Some(30.0),
        4 => Some(10.0),
        8 => Some(4.0),
        _ => None,
    };
    let accb = (N >= 2).then_some(accb_r.1);
    Row {
        n: N,
        mpfr_bits: prec,
        fast_it_per_s: fast_r.1,
        fast_avx2_it_per_s: with_baseline.then_some(base_r.1),
        fast_one_orbit_it_per_s: one_r.1,
        accurate_it_per_s: acc_r.1,
        accurate_batched_it_per_s: accb,
        accurate_batched_avx2_it_per_s: with_acc_base.then_some(accb_base_r.1),
        mpfr_it_per_s: mpfr_r.1,
        fast_vs_mpfr: fast_r.1 / mpfr_r.1,
        accurate_vs_mpfr: acc_r.1 / mpfr_r.1,
        accurate_batched_vs_mpfr: accb.map(|r| r / mpfr_r.1),
        fast_it_per_s_wall: fast_r.0,
        mpfr_it_per_s_wall: mpfr_r.0,
        fast_vs_mpfr_wall: fast_r.0 / mpfr_r.0,
        target_fast_vs_mpfr: target,
    }
}

/// Runs `expanse bench cpu`.
pub fn run(args: &Args) -> CmdResult {
    let threads = rayon::current_num_threads();
    let min_secs = 0.3 * args.scale;
    let level = SimdLevel::detect();
    let rows = vec![
        measure::<1>(threads, min_secs, level),
        measure::<2>(threads, min_secs, level),
        measure::<3>(threads, min_secs, level),
        measure::<4>(threads, min_secs, level),
        measure::<5>(threads, min_secs, level),
        measure::<6>(threads, min_secs, level),
        measure::<7>(threads, min_secs, level),
        measure::<8>(threads, min_secs, level),
    ];
    let mut search = Vec::new();
    for n in [1usize, 2, 4, 8] {
        let t = expanse_search::bench::search_throughput(
            n,
            expanse_search::orbit::Base::F64,
            std::time::Duration::from_secs_f64(min_secs),
        )
        .map_err(|e| super::CliError::failed(format!("bench cpu: search N={n}: {e}")))?;
        search.push(SearchRow {
            n,
            search_it_per_s: t.iterations_per_s_on_cpu(),
            search_it_per_s_wall: t.iterations_per_s(),
        });
    }
    let report = Report {
        threads,
        simd: level.name(),
        lanes: level.orbits_per_iteration(1),
        orbits_per_thread: ORBITS_PER_THREAD,
        parameters: (1.4, 0.3),
        rows,
        search,
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => println!("{s}"),
            Err(e) => return Err(super::CliError::failed(format!("bench cpu: JSON: {e}"))),
        }
        return Ok(Outcome::Success);
    }
    // Orbits per loop iteration by N, runs of equal values merged ("16 (N = 1..4), 8 (N = 5..6)").
    let mut per_iteration: Vec<String> = Vec::new();
    let mut n0 = 1;
    for n in 1..=8 {
        let k = level.orbits_per_iteration(n);
        if n == 8 || level.orbits_per_iteration(n + 1) != k {
            per_iteration.push(if n0 == 1 && n == 8 {
                k.to_string()
            } else {
                format!("{k} (N = {n0}..{n})")
            });
            n0 = n + 1;
        }
    }
    println!(
        "Hénon map at (1.4, 0.3), f64 expansions, {} threads, {} orbits, {} orbits per loop \
         iteration ({}); rates from on-CPU time (iterations/s)",
        threads,
        threads * report.orbits_per_thread,
        per_iteration.join(", "),
        report.simd
    );
    println!(
        "{:>2} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "N",
        "bits",
        "fast",
        "avx2",
        "fast-1",
        "accurate",
        "acc-batch",
        "acc-avx2",
        "MPFR",
        "fast/MPFR",
        "acc/MPFR",
        "accb/MPFR",
        "wall f/M",
        "target"
    );
    let opt = |v: Option<f64>, prec: usize| match v {
        Some(x) if prec == 0 => format!("{x:.3e}"),
        Some(x) => format!("{x:.2}"),
        None => "-".to_string(),
    };
    for r in &report.rows {
        let best = r
            .fast_vs_mpfr
            .max(r.accurate_batched_vs_mpfr.unwrap_or(0.0));
        let target = match r.target_fast_vs_mpfr {
            Some(t) if best >= t => format!("≥{t:.0} ok"),
            Some(t) => format!("≥{t:.0} MISS"),
            None => String::new(),
        };
        println!(
            "{:>2} {:>5} {:>10.3e} {:>10} {:>10.3e} {:>10.3e} {:>10} {:>10} {:>10.3e} {:>9.2} {:>9.2} {:>9} {:>9.2} {:>9}",
            r.n,
            r.mpfr_bits,
            r.fast_it_per_s,
            opt(r.fast_avx2_it_per_s, 0),
            r.fast_one_orbit_it_per_s,
            r.accurate_it_per_s,
            opt(r.accurate_batched_it_per_s, 0),
            opt(r.accurate_batched_avx2_it_per_s, 0),
            r.mpfr_it_per_s,
            r.fast_vs_mpfr,
            r.accurate_vs_mpfr,
            opt(r.accurate_batched_vs_mpfr, 2),
            r.fast_vs_mpfr_wall,
            target
        );
    }
    println!("\nSearch (CPU backend: transient, close returns, confirmation), iterations/s");
    println!("{:>2} {:>12} {:>12}", "N", "on-CPU", "wall");
    for r in &report.search {
        println!(
            "{:>2} {:>12.3e} {:>12.3e}",
            r.n, r.search_it_per_s, r.search_it_per_s_wall
        );
    }
    Ok(Outcome::Success)
}
