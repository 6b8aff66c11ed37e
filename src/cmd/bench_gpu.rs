//! `expanse bench gpu`: throughput of the GPU search kernels (Hénon iterations per second for
//! N = 1..8 with f64 terms and N = 2, 4, 8 with f32 terms), their FP64 instructions per
//! iteration (counted from the source, see [`expanse_search::op_count::fp64_per_step`]) and the fraction of the FP64
//! instruction ceiling reached; `--check` instead runs the CPU/GPU identity check; hidden
//! `--experiment` runs seed 001's search experiment; hidden `--profile-launches` makes one
//! small launch per kernel for a profiler.
//!
//! Without a usable GPU every mode fails with the probe's reason (exit code 2).

use super::{bench::Args, CliError, CmdResult, Outcome};
use expanse_core::Expansion;
use expanse_gpu::{
    check_batch, reference_batch, DeviceSelection, GpuContext, GpuTerm, OrbitBatch, OrbitRecord,
    OrbitStatus, SearchSettings,
};
use std::collections::BTreeMap;
use std::time::Instant;

/// FP64 instruction ceiling of an H100/H200 (132 SMs × 64 lanes × 1.98 GHz; MATH.md §3).
const FP64_CEILING: f64 = 1.67e13;

/// Runs `expanse bench gpu`.
pub fn run(args: &Args) -> CmdResult {
    let sel: DeviceSelection = args.devices.parse().map_err(CliError::usage)?;
    let ctx = GpuContext::probe_devices(&sel).map_err(|u| {
        CliError::usage(format!(
            "bench gpu: {u}; `expanse bench cpu` measures the CPU backend"
        ))
    })?;
    eprintln!("bench gpu: using {}", ctx.describe());
    if args.check {
        return check(&ctx);
    }
    if args.experiment {
        return experiment(&ctx, args.scale);
    }
    if args.profile_launches {
        return profile_launches(&ctx);
    }
    bench(&ctx, args)
}

fn gpu_err(e: expanse_gpu::GpuError) -> CliError {
    CliError::failed(format!("bench gpu: {e}"))
}

// ---- identity check ------------------------------------------------------------------------

fn check_one<T: GpuTerm, const N: usize>(
    ctx: &GpuContext,
    threads: usize,
) -> Result<bool, CliError> {
    let batch = check_batch::<T, N>(24, 64, 5000, 64);
    let range = 0..batch.len();
    let t0 = Instant::now();
    let gpu = ctx.run_orbits(&batch, range.clone()).map_err(gpu_err)?;
    let t_gpu = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let cpu = reference_batch(&batch, range.clone(), threads);
    let t_cpu = t0.elapsed().as_secs_f64();
    let mut first_diff = None;
    let mut diffs = 0usize;
    for (g, (a, b)) in gpu.iter().zip(cpu.iter()).enumerate() {
        if !a.bit_eq(b) {
            diffs += 1;
            first_diff.get_or_insert((g, *a, *b));
        }
    }
    let mut counts = [0u64; 4];
    for r in &cpu {
        counts[r.status as usize] += 1;
    }
    // The compact path must keep exactly the cycle-like records, with the same counts.
    let compact = ctx.run_orbits_compact(&batch, range).map_err(gpu_err)?;
    let want: Vec<(u64, OrbitRecord<T, N>)> = cpu
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.status, OrbitStatus::Cycle | OrbitStatus::Unconfirmed))
        .map(|(g, r)| (g as u64, *r))
        .collect();
    let compact_ok = compact.counts == counts
        && compact.kept.len() == want.len()
        && compact
            .kept
            .iter()
            .zip(want.iter())
            .all(|((g1, r1), (g2, r2))| g1 == g2 && r1.bit_eq(r2));
    let periods: BTreeMap<u32, usize> =
        cpu.iter()
            .filter(|r| r.status == OrbitStatus::Cycle)
            .fold(BTreeMap::new(), |mut m, r| {
                *m.entry(r.period).or_default() += 1;
                m
            });
    let ok = diffs == 0 && gpu.len() == cpu.len() && compact_ok;
    println!(
        "check {} N={N}: {} orbits (escaped {}, no-cycle {}, unconfirmed {}, cycle {} by period {:?}): {} (compact {}), GPU {:.2} s, CPU {:.2} s",
        T::NAME,
        cpu.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        periods,
        if ok { "IDENTICAL" } else { "DIFFERENT" },
        if compact_ok { "identical" } else { "DIFFERENT" },
        t_gpu,
        t_cpu
    );
    if let Some((g, a, b)) = first_diff {
        println!("  {diffs} records differ; first, orbit {g}:\n  gpu {a:?}\n  cpu {b:?}");
    }
    Ok(ok)
}

fn check(ctx: &GpuContext) -> CmdResult {
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let mut ok = true;
    ok &= check_one::<f64, 1>(ctx, threads)?;
    ok &= check_one::<f64, 2>(ctx, threads)?;
    ok &= check_one::<f64, 3>(ctx, threads)?;
    ok &= check_one::<f64, 4>(ctx, threads)?;
    ok &= check_one::<f64, 5>(ctx, threads)?;
    ok &= check_one::<f64, 6>(ctx, threads)?;
    ok &= check_one::<f64, 7>(ctx, threads)?;
    ok &= check_one::<f64, 8>(ctx, threads)?;
    ok &= check_one::<f32, 1>(ctx, threads)?;
    ok &= check_one::<f32, 2>(ctx, threads)?;
    ok &= check_one::<f32, 3>(ctx, threads)?;
    ok &= check_one::<f32, 4>(ctx, threads)?;
    ok &= check_one::<f32, 5>(ctx, threads)?;
    ok &= check_one::<f32, 6>(ctx, threads)?;
    ok &= check_one::<f32, 7>(ctx, threads)?;
    ok &= check_one::<f32, 8>(ctx, threads)?;
    println!(
        "check: {}",
        if ok {
            "GPU and CPU records identical for every N and both term types"
        } else {
            "GPU and CPU records DIFFER"
        }
    );
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::NotEstablished
    })
}

// ---- throughput ----------------------------------------------------------------------------

/// Initial points on the classical attractor (f64 orbit of (0, 0) after 1000 steps), so no
/// orbit of the benchmark escapes.
fn attractor_points(n: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut x, mut y) = (0.0f64, 0.0f64);
    for _ in 0..1000 {
        (x, y) = (1.0 + y - 1.4 * x * x, 0.3 * x);
    }
    let mut xs = Vec::with_capacity(n);
    let mut ys = Vec::with_capacity(n);
    for _ in 0..n {
        for _ in 0..7 {
            (x, y) = (1.0 + y - 1.4 * x * x, 0.3 * x);
        }
        xs.push(x);
        ys.push(y);
    }
    (xs, ys)
}

struct Rate {
    term: &'static str,
    n: usize,
    orbits: u64,
    steps: u64,
    seconds: f64,
    rate: f64,
    fp64: u64,
}

fn bench_batch<T: GpuTerm, const N: usize>(
    orbits_per_param: usize,
    params: usize,
    steps: u64,
) -> OrbitBatch<T, N> {
    let (x0, y0) = attractor_points(orbits_per_param);
    let a: Vec<Expansion<T, N>> = (0..params)
        .map(|p| Expansion::from_f64(1.3999 + 0.0002 * p as f64 / params as f64))
        .collect();
    let b = vec![Expansion::from_f64(0.3); params];
    OrbitBatch {
        a,
        b,
        x0,
        y0,
        settings: SearchSettings {
            transient: steps,
            pmax: 1,
            tol: 1e-300,
            escape: 1e3,
        },
    }
}

fn bench_one<T: GpuTerm, const N: usize>(ctx: &GpuContext, scale: f64) -> Result<Rate, CliError> {
    let sms: u64 = ctx
        .devices()
        .iter()
        .map(|d| d.multiprocessors.max(1) as u64)
        .sum();
    // Enough threads to fill every SM several times over.
    let params = (sms * 2048 * 4 / 1024) as usize;
    let time = |steps: u64| -> Result<(f64, OrbitBatch<T, N>), CliError> {
        let batch = bench_batch::<T, N>(1024, params, steps);
        let t0 = Instant::now();
        let r = ctx
            .run_orbits_compact(&batch, 0..batch.len())
            .map_err(gpu_err)?;
        let dt = t0.elapsed().as_secs_f64();
        if r.counts[0] > 0 {
            eprintln!(
                "bench gpu: warning: {} of {} orbits escaped ({} N={N}); the rate counts them as full",
                r.counts[0],
                batch.len(),
                T::NAME
            );
        }
        Ok((dt, batch))
    };
    ctx.prepare::<T, N>().map_err(gpu_err)?;
    // Calibrate: grow the run until it takes 0.1 s, then time about 0.6 s × scale.
    let orbits = (params * 1024) as u64;
    let mut steps = 1024u64;
    let mut dt;
    loop {
        dt = time(steps)?.0;
        if dt > 0.1 || steps >= 5_000_000 {
            break;
        }
        steps *= 4;
    }
    let steps = ((steps as f64 * 0.6 * scale / dt) as u64).clamp(1024, 20_000_000);
    let (dt, batch) = time(steps)?;
    let its = batch.len() as f64 * (steps + 1) as f64;
    let single = batch.a.iter().all(Expansion::is_single_term) && batch.b[0].is_single_term();
    Ok(Rate {
        term: T::NAME,
        n: N,
        orbits,
        steps,
        seconds: dt,
        rate: its / dt,
        fp64: expanse_search::op_count::fp64_per_step(N, single),
    })
}

fn bench(ctx: &GpuContext, args: &Args) -> CmdResult {
    let s = args.scale;
    let rates = vec![
        bench_one::<f64, 1>(ctx, s)?,
        bench_one::<f64, 2>(ctx, s)?,
        bench_one::<f64, 3>(ctx, s)?,
        bench_one::<f64, 4>(ctx, s)?,
        bench_one::<f64, 5>(ctx, s)?,
        bench_one::<f64, 6>(ctx, s)?,
        bench_one::<f64, 7>(ctx, s)?,
        bench_one::<f64, 8>(ctx, s)?,
        bench_one::<f32, 2>(ctx, s)?,
        bench_one::<f32, 4>(ctx, s)?,
        bench_one::<f32, 8>(ctx, s)?,
    ];
    let ceiling = FP64_CEILING * ctx.devices().len() as f64;
    if args.json {
        let v: Vec<serde_json::Value> = rates
            .iter()
            .map(|r| {
                serde_json::json!({
                    "term": r.term, "n": r.n, "orbits": r.orbits, "steps": r.steps,
                    "seconds": r.seconds, "iterations_per_second": r.rate,
                    "fp_instructions_per_iteration": r.fp64,
                    "fp64_ceiling_fraction": if r.term == "f64" { Some(r.rate * r.fp64 as f64 / ceiling) } else { None },
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"devices": ctx.describe(), "results": v})
        );
        return Ok(Outcome::Success);
    }
    println!("devices: {}", ctx.describe());
    println!("term  N   orbits      steps     seconds  iterations/s  FP ops/it  of FP64 ceiling");
    for r in &rates {
        let frac = if r.term == "f64" {
            format!("{:.1} %", 100.0 * r.rate * r.fp64 as f64 / ceiling)
        } else {
            "(f32 pipe)".into()
        };
        println!(
            "{:<4}  {}  {:>9}  {:>9}  {:>8.3}  {:>12.3e}  {:>9}  {}",
            r.term, r.n, r.orbits, r.steps, r.seconds, r.rate, r.fp64, frac
        );
    }
    println!("FP ops/it: add, sub, mul and FMA instructions per Hénon step, counted by running one step of the (branch-free) source arithmetic on a counting lane type; ceiling {ceiling:.3e} FP64 instr/s");
    Ok(Outcome::Success)
}

fn profile_one<T: GpuTerm, const N: usize>(ctx: &GpuContext) -> Result<(), CliError> {
    let batch = bench_batch::<T, N>(1024, 16, 4096);
    ctx.run_orbits_compact(&batch, 0..batch.len())
        .map_err(gpu_err)?;
    println!(
        "profile-launch {} N={N}: {} orbits x {} steps (+1)",
        T::NAME,
        batch.len(),
        4096
    );
    Ok(())
}

fn profile_launches(ctx: &GpuContext) -> CmdResult {
    profile_one::<f64, 1>(ctx)?;
    profile_one::<f64, 2>(ctx)?;
    profile_one::<f64, 3>(ctx)?;
    profile_one::<f64, 4>(ctx)?;
    profile_one::<f64, 5>(ctx)?;
    profile_one::<f64, 6>(ctx)?;
    profile_one::<f64, 7>(ctx)?;
    profile_one::<f64, 8>(ctx)?;
    profile_one::<f32, 2>(ctx)?;
    profile_one::<f32, 4>(ctx)?;
    profile_one::<f32, 8>(ctx)?;
    Ok(Outcome::Success)
}

// ---- seed 001's experiment -----------------------------------------------------------------

fn experiment(ctx: &GpuContext, scale: f64) -> CmdResult {
    let n_param = ((1e6 * scale.min(1.0)) as usize).max(1);
    let (lo, hi) = (1.3999f64, 1.4001f64);
    let a: Vec<Expansion<f64, 1>> = (0..n_param)
        .map(|p| {
            let t = if n_param == 1 {
                0.0
            } else {
                p as f64 / (n_param - 1) as f64
            };
            Expansion::from_f64(lo + (hi - lo) * t)
        })
        .collect();
    let b = vec![Expansion::from_f64(0.3); n_param];
    let (x0, y0) = attractor_points(1024);
    let batch = OrbitBatch {
        a,
        b,
        x0,
        y0,
        settings: SearchSettings {
            transient: 1_000_000,
            pmax: 1000,
            tol: 1e-8,
            escape: 1e3,
        },
    };
    println!(
        "experiment: {} values of a in [{lo}, {hi}], b = 0.3, 1024 initial points on the classical attractor, transient {} + up to {} close-return steps, tol {:e}, N = 1 (f64)",
        n_param, batch.settings.transient, batch.settings.pmax, batch.settings.tol
    );
    ctx.prepare::<f64, 1>().map_err(gpu_err)?;
    let t0 = Instant::now();
    let r = ctx
        .run_orbits_compact(&batch, 0..batch.len())
        .map_err(gpu_err)?;
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "experiment: {} orbits in {:.1} s ({:.3e} iterations/s counting 10^6 per orbit): escaped {}, no-cycle {}, unconfirmed {}, cycle {}",
        batch.len(),
        dt,
        batch.len() as f64 * 1e6 / dt,
        r.counts[0],
        r.counts[1],
        r.counts[2],
        r.counts[3]
    );
    // Distinct cycles per parameter: (parameter, period, canonical x to 1e-6).
    let mut distinct: BTreeMap<(usize, u32, i64), (OrbitRecord<f64, 1>, usize)> = BTreeMap::new();
    for (g, rec) in r
        .kept
        .iter()
        .filter(|(_, r)| r.status == OrbitStatus::Cycle)
    {
        let (p, _) = batch.split_index(*g);
        let key = (p, rec.period, (rec.x[0] * 1e6).round() as i64);
        distinct.entry(key).or_insert((*rec, 0)).1 += 1;
    }
    let mut by_period: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut sink_params = std::collections::BTreeSet::new();
    for ((p, period, _), (rec, _)) in &distinct {
        let e = by_period.entry(*period).or_default();
        e.0 += 1;
        if rec.looks_attracting() {
            e.1 += 1;
            sink_params.insert(*p);
        }
    }
    println!(
        "experiment: distinct candidate cycles by period (candidates, passing |tr| < 1 + det):"
    );
    for (period, (c, att)) in &by_period {
        println!("  period {period}: {c} candidates, {att} attracting");
    }
    println!(
        "experiment: {} parameters with an attracting candidate cycle (seed 001 reported 57)",
        sink_params.len()
    );
    for ((p, period, _), (rec, hits)) in distinct.iter().take(400) {
        println!(
            "  cand a={:.16e} ({:?}) period={} x={:.17e} y={:.17e} trace={:.6e} det={:.6e} attracting={} inits={}",
            batch.a[*p].hi(),
            batch.a[*p].hi().to_bits(),
            period,
            rec.x[0],
            rec.y[0],
            rec.trace,
            rec.det,
            rec.looks_attracting(),
            hits
        );
    }
    Ok(Outcome::Success)
}
