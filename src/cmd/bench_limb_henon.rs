//! `expanse bench limb --henon`: the Hénon iteration in fixed-limb floats (the arithmetic of
//! `expanse search --prec NNNb`, `expanse_gpu::henon_limb`) against MPFR.
//!
//! Rates: map iterations per second at 424, 848 and 1696 bits (or `--precs`) of the CPU limb
//! type on all cores (rayon, one orbit per item), of MPFR (`rug`) on all cores of the same
//! host in the same run, with the same operation sequence at the same precisions
//! (x2 = x·x, t = a·x2, u = 1 + y, x' = u − t, y' = b·x, round to nearest, a and b as 53-bit
//! numbers, every result at p bits), and with `--gpu` of the GPU kernel (one thread per orbit,
//! upload and download included, compilation excluded); ratios GPU / MPFR and CPU limb / MPFR.
//! Orbits start on the Hénon attractor region (a = 1.4, b = 0.3); each figure is one run of
//! about `0.6 s × --scale` after a calibration run.
//!
//! With `--check` as well: for every precision, the final points of 2048 orbits after 1000
//! steps from the CPU limb type and from MPFR must be equal bit for bit (each operation is
//! correctly rounded, so MPFR with the same sequence is an exact oracle), and with `--gpu`
//! the GPU's too; and the search kernel's records (sinks, chaos, escapes) must equal the CPU
//! reference's bit for bit. Prints the mismatches ("identical" when none); exit 1 on any.

use super::bench::Args;
use super::{CliError, CmdResult, Outcome};
use expanse_core::limb::AnyLimbFloat;
use expanse_gpu::henon_limb::{
    limb_iterate, reference_limb_iterate, LimbOrbitBatch, LimbOrbitRecord, MAX_SEARCH_PREC,
    MIN_SEARCH_PREC,
};
use expanse_gpu::limb::LimbArrays;
use expanse_gpu::{DeviceSelection, GpuContext, SearchSettings};
use rayon::prelude::*;
use rug::{Assign, Float};
use serde::Serialize;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

/// Precisions of the Hénon table.
const HENON_PRECS: [u32; 3] = [424, 848, 1696];
/// Orbits and steps of the identity check of the iteration.
const CHECK_ORBITS: usize = 2048;
const CHECK_STEPS: u64 = 1000;

#[derive(Serialize)]
struct RateRow {
    prec: u32,
    limbs: usize,
    threads: usize,
    /// CPU limb type, all cores: iterations per second.
    cpu_its: f64,
    /// MPFR, all cores: iterations per second.
    mpfr_its: f64,
    /// GPU kernel (with `--gpu`): iterations per second.
    gpu_its: Option<f64>,
    /// cpu_its / mpfr_its.
    cpu_over_mpfr: f64,
    /// gpu_its / mpfr_its.
    gpu_over_mpfr: Option<f64>,
}

#[derive(Serialize)]
struct CheckRow {
    prec: u32,
    orbits: usize,
    steps: u64,
    /// Final points where the CPU limb type and MPFR differ.
    cpu_vs_mpfr: u64,
    /// Final points where the GPU and the CPU limb type differ (with `--gpu`).
    gpu_vs_cpu: Option<u64>,
    /// Search records compared (with `--gpu`).
    search_records: u64,
    /// Search records that differ (with `--gpu`).
    search_mismatches: Option<u64>,
}

fn parse_henon_precs(args: &Args) -> Result<Vec<u32>, CliError> {
    let Some(list) = &args.precs else {
        return Ok(HENON_PRECS.to_vec());
    };
    list.split(',')
        .map(|s| {
            let t = s.trim().trim_end_matches('b');
            match t.parse::<u32>() {
                Ok(p) if (MIN_SEARCH_PREC..=MAX_SEARCH_PREC).contains(&p) => Ok(p),
                _ => Err(CliError::usage(format!(
                    "--precs: {s:?} is not a precision in {MIN_SEARCH_PREC}..={MAX_SEARCH_PREC} bits (limb Hénon search)"
                ))),
            }
        })
        .collect()
}

/// Initial points of the rate and check orbits: (x0, 0) with x0 in [0, 0.1), a = 1.4, b = 0.3
/// (all on the attractor's basin; chaotic, so every bit of the iterates is exercised).
fn inputs(count: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let x0: Vec<f64> = (0..count).map(|i| 0.1 * i as f64 / count as f64).collect();
    (vec![1.4; count], vec![0.3; count], x0, vec![0.0; count])
}

/// The contract's operation sequence in MPFR at `prec` bits (a, b as 53-bit numbers).
fn mpfr_iterate(prec: u32, a: f64, b: f64, x0: f64, y0: f64, steps: u64) -> (Float, Float) {
    let a = Float::with_val(53, a);
    let b = Float::with_val(53, b);
    let mut x = Float::with_val(prec, x0);
    let mut y = Float::with_val(prec, y0);
    let (mut x2, mut t, mut u, mut nx) = (
        Float::new(prec),
        Float::new(prec),
        Float::new(prec),
        Float::new(prec),
    );
    for _ in 0..steps {
        x2.assign(x.square_ref());
        t.assign(&a * &x2);
        u.assign(&y + 1u32);
        nx.assign(&u - &t);
        y.assign(&b * &x);
        std::mem::swap(&mut x, &mut nx);
    }
    (x, y)
}

fn cpu_limb_run<const L: usize>(prec: u32, orbits: usize, steps: u64) -> f64 {
    let (a, b, x0, y0) = inputs(orbits);
    let t0 = Instant::now();
    (0..orbits).into_par_iter().with_max_len(1).for_each(|i| {
        black_box(limb_iterate::<L>(prec, a[i], b[i], x0[i], y0[i], steps));
    });
    t0.elapsed().as_secs_f64()
}

/// Seconds for `orbits` orbits of `steps` steps of the CPU limb type on all cores.
fn cpu_limb_seconds(prec: u32, orbits: usize, steps: u64) -> f64 {
    match prec.div_ceil(64) {
        0..=2 => cpu_limb_run::<2>(prec, orbits, steps),
        3..=4 => cpu_limb_run::<4>(prec, orbits, steps),
        5..=8 => cpu_limb_run::<8>(prec, orbits, steps),
        9..=16 => cpu_limb_run::<16>(prec, orbits, steps),
        17..=32 => cpu_limb_run::<32>(prec, orbits, steps),
        _ => cpu_limb_run::<64>(prec, orbits, steps),
    }
}

/// Seconds for the same work in MPFR on all cores.
fn mpfr_seconds(prec: u32, orbits: usize, steps: u64) -> f64 {
    let (a, b, x0, y0) = inputs(orbits);
    let t0 = Instant::now();
    (0..orbits).into_par_iter().with_max_len(1).for_each(|i| {
        black_box(mpfr_iterate(prec, a[i], b[i], x0[i], y0[i], steps));
    });
    t0.elapsed().as_secs_f64()
}

/// Iterations per second of `run(steps)` (which runs `orbits` orbits), after a probe of
/// `probe` steps sets the steps for about `target` seconds.
fn rate(orbits: usize, probe: u64, target: f64, mut run: impl FnMut(u64) -> f64) -> f64 {
    let t = run(probe).max(1e-6);
    let steps = ((probe as f64 * target / t) as u64).clamp(probe, 1 << 40);
    let secs = run(steps).max(1e-9);
    (orbits as f64 * steps as f64) / secs
}

fn gpu_err(e: expanse_gpu::GpuError) -> CliError {
    CliError::failed(format!("bench limb --henon --gpu: {e}"))
}

/// Final points of the GPU as limb numbers.
fn unpack(a: &LimbArrays) -> Vec<Option<AnyLimbFloat>> {
    (0..a.count).map(|i| a.get(i)).collect()
}

fn same(a: &AnyLimbFloat, b: &AnyLimbFloat) -> bool {
    a.prec() == b.prec()
        && a.kind() == b.kind()
        && a.is_sign_negative() == b.is_sign_negative()
        && a.exponent() == b.exponent()
        && a.mantissa() == b.mantissa()
}

/// The search kernel's records against the CPU reference: (records, mismatches).
fn check_search(ctx: &GpuContext, prec: u32) -> Result<(u64, u64), CliError> {
    // Sinks (0.3: fixed point, 1.0: period 4, 1.25: period 7), chaos (1.4), escapes (2.0).
    let a = vec![0.3, 1.0, 1.25, 1.4, 2.0, 1.05, 1.27];
    let n_inits = 64;
    let x0: Vec<f64> = (0..n_inits)
        .map(|i| -1.3 + 2.6 * (i as f64 + 0.5) / n_inits as f64)
        .collect();
    let y0: Vec<f64> = (0..n_inits)
        .map(|i| -0.4 + 0.8 * ((i * 37 % n_inits) as f64 + 0.5) / n_inits as f64)
        .collect();
    let batch = LimbOrbitBatch {
        prec,
        b: vec![0.3; a.len()],
        a,
        x0,
        y0,
        settings: SearchSettings {
            transient: 3000,
            pmax: 32,
            tol: 1e-10,
            escape: 1e3,
        },
    };
    let got = ctx
        .run_limb_orbits(&batch, 0..batch.len())
        .map_err(gpu_err)?;
    let want: Vec<LimbOrbitRecord> =
        expanse_gpu::henon_limb::reference_limb_batch(&batch, 0..batch.len(), |_, r| r);
    let mut bad = 0u64;
    let mut counts = [0u64; 4];
    for r in &want {
        counts[r.status as usize] += 1;
    }
    if counts != got.counts {
        eprintln!(
            "mismatch: {prec} bits: status counts GPU {:?}, CPU {counts:?}",
            got.counts
        );
        bad += 1;
    }
    let kept_want: Vec<(u64, &LimbOrbitRecord)> = want
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status != expanse_gpu::OrbitStatus::NoCycle)
        .map(|(g, r)| (g as u64, r))
        .collect();
    if kept_want.len() != got.kept.len() {
        eprintln!(
            "mismatch: {prec} bits: GPU kept {} records, CPU {}",
            got.kept.len(),
            kept_want.len()
        );
        bad += 1;
    }
    for ((gw, w), (gg, g)) in kept_want.iter().zip(got.kept.iter()) {
        if gw != gg || !w.bit_eq(g) {
            if bad < 3 {
                eprintln!("mismatch: {prec} bits, orbit {gw}: CPU {w:?}, GPU (orbit {gg}) {g:?}");
            }
            bad += 1;
        }
    }
    Ok((batch.len(), bad))
}

/// Runs `expanse bench limb --henon`.
pub fn run(args: &Args) -> CmdResult {
    let precs = parse_henon_precs(args)?;
    let ctx = if args.gpu {
        let c = GpuContext::probe_devices(&DeviceSelection::List(vec![0])).map_err(|u| {
            CliError::usage(format!(
                "bench limb --henon --gpu: {u}; without --gpu the CPU limb type and MPFR are measured"
            ))
        })?;
        eprintln!("bench limb --henon --gpu: using {}", c.describe());
        Some(c)
    } else {
        None
    };
    let threads = rayon::current_num_threads();
    let target = 0.6 * args.scale;
    let cpu_orbits = 4 * threads;
    let mut rates = Vec::new();
    if !args.json {
        println!("expanse bench limb --henon: Hénon map iterations per second (x2 = x·x, t = a·x2, u = 1 + y, x' = u − t, y' = b·x, round to nearest); CPU limb type and MPFR on {threads} threads in the same run{}", if ctx.is_some() { "; GPU 0 one thread per orbit, transfers included" } else { "" });
        println!("| bits | limbs | CPU limb it/s | MPFR it/s | GPU it/s | CPU limb / MPFR | GPU / MPFR |");
        println!("| --- | --- | --- | --- | --- | --- | --- |");
    }
    for &p in &precs {
        let cpu = rate(cpu_orbits, 20, target, |s| {
            cpu_limb_seconds(p, cpu_orbits, s)
        });
        let mpfr = rate(cpu_orbits, 20, target, |s| mpfr_seconds(p, cpu_orbits, s));
        let gpu = match &ctx {
            None => None,
            Some(c) => {
                let sms = c.devices()[0].multiprocessors.max(1) as usize;
                let count = sms * 2048;
                let (a, b, x0, y0) = inputs(count);
                // The first call compiles the program (NVRTC, once per process).
                let t0 = Instant::now();
                c.iterate_limb(p, &a[..64], &b[..64], &x0[..64], &y0[..64], 1)
                    .map_err(gpu_err)?;
                if p == precs[0] {
                    eprintln!(
                        "bench limb --henon --gpu: program compiled and loaded in {:.1} s",
                        t0.elapsed().as_secs_f64()
                    );
                }
                let mut err = None;
                let r = rate(count, 4, target, |s| {
                    let t0 = Instant::now();
                    if let Err(e) = c.iterate_limb(p, &a, &b, &x0, &y0, s) {
                        err = Some(e);
                    }
                    t0.elapsed().as_secs_f64()
                });
                if let Some(e) = err {
                    return Err(gpu_err(e));
                }
                Some(r)
            }
        };
        let row = RateRow {
            prec: p,
            limbs: p.div_ceil(64) as usize,
            threads,
            cpu_its: cpu,
            mpfr_its: mpfr,
            gpu_its: gpu,
            cpu_over_mpfr: cpu / mpfr,
            gpu_over_mpfr: gpu.map(|g| g / mpfr),
        };
        if !args.json {
            let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map(f).unwrap_or("–".into());
            println!(
                "| {} | {} | {:.3e} | {:.3e} | {} | {:.2} | {} |",
                row.prec,
                row.limbs,
                row.cpu_its,
                row.mpfr_its,
                opt(row.gpu_its, &|g| format!("{g:.3e}")),
                row.cpu_over_mpfr,
                opt(row.gpu_over_mpfr, &|g| format!("{g:.1}")),
            );
            let _ = std::io::stdout().flush();
        }
        rates.push(row);
    }
    let mut checks = Vec::new();
    let mut bad = 0u64;
    if args.check {
        if !args.json {
            println!();
            println!("identity check: final points of {CHECK_ORBITS} orbits after {CHECK_STEPS} steps (CPU limb vs MPFR{}), and search records (GPU vs CPU)", if ctx.is_some() { ", GPU vs CPU limb" } else { "" });
            println!(
                "| bits | CPU limb ≠ MPFR | GPU ≠ CPU limb | search records | search records ≠ |"
            );
            println!("| --- | --- | --- | --- | --- |");
        }
        for &p in &precs {
            let (a, b, x0, y0) = inputs(CHECK_ORBITS);
            let cpu: Vec<(AnyLimbFloat, AnyLimbFloat)> = (0..CHECK_ORBITS)
                .into_par_iter()
                .with_max_len(1)
                .map(|i| reference_limb_iterate(p, a[i], b[i], x0[i], y0[i], CHECK_STEPS))
                .collect();
            let cpu_vs_mpfr = (0..CHECK_ORBITS)
                .into_par_iter()
                .with_max_len(1)
                .filter(|&i| {
                    let (mx, my) = mpfr_iterate(p, a[i], b[i], x0[i], y0[i], CHECK_STEPS);
                    let (cx, cy) = &cpu[i];
                    // Same precision and value (rug's == compares values; no NaN here).
                    !(cx.to_rug() == mx
                        && cy.to_rug() == my
                        && mx.prec() == p
                        && cx.prec() == p
                        && cx.is_finite())
                })
                .count() as u64;
            let (gpu_vs_cpu, search) = match &ctx {
                None => (None, None),
                Some(c) => {
                    let (gx, gy) = c
                        .iterate_limb(p, &a, &b, &x0, &y0, CHECK_STEPS)
                        .map_err(gpu_err)?;
                    let (gx, gy) = (unpack(&gx), unpack(&gy));
                    let miss = (0..CHECK_ORBITS)
                        .filter(|&i| match (&gx[i], &gy[i]) {
                            (Some(x), Some(y)) => !(same(x, &cpu[i].0) && same(y, &cpu[i].1)),
                            _ => true,
                        })
                        .count() as u64;
                    if let Some(i) = (0..CHECK_ORBITS).find(|&i| match (&gx[i], &gy[i]) {
                        (Some(x), Some(y)) => !(same(x, &cpu[i].0) && same(y, &cpu[i].1)),
                        _ => true,
                    }) {
                        eprintln!(
                            "mismatch: {p} bits, orbit {i}: GPU x {:?}, CPU x {}",
                            gx[i].map(|v| v.to_hex()),
                            cpu[i].0.to_hex()
                        );
                    }
                    (Some(miss), Some(check_search(c, p)?))
                }
            };
            let row = CheckRow {
                prec: p,
                orbits: CHECK_ORBITS,
                steps: CHECK_STEPS,
                cpu_vs_mpfr,
                gpu_vs_cpu,
                search_records: search.map(|s| s.0).unwrap_or(0),
                search_mismatches: search.map(|s| s.1),
            };
            bad +=
                row.cpu_vs_mpfr + row.gpu_vs_cpu.unwrap_or(0) + row.search_mismatches.unwrap_or(0);
            if !args.json {
                let opt = |v: Option<u64>| v.map(|m| m.to_string()).unwrap_or("–".into());
                println!(
                    "| {} | {} | {} | {} | {} |",
                    row.prec,
                    row.cpu_vs_mpfr,
                    opt(row.gpu_vs_cpu),
                    if ctx.is_some() {
                        row.search_records.to_string()
                    } else {
                        "–".into()
                    },
                    opt(row.search_mismatches),
                );
                let _ = std::io::stdout().flush();
            }
            checks.push(row);
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "bench": "limb-henon",
                "rows": rates,
                "check": if args.check { serde_json::to_value(&checks).expect("rows serialise") } else { serde_json::Value::Null },
            }))
            .expect("rows serialise")
        );
    }
    if bad > 0 {
        eprintln!("bench limb --henon --check: {bad} mismatches");
        Ok(Outcome::NotEstablished)
    } else {
        if args.check {
            eprintln!(
                "bench limb --henon --check: identical (CPU limb = MPFR{} at every precision)",
                if ctx.is_some() {
                    " = GPU, and GPU search records = CPU"
                } else {
                    ""
                }
            );
        }
        Ok(Outcome::Success)
    }
}
