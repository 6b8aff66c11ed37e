//! `expanse bench limb`: the fixed-limb floats of `expanse_core::limb`.
//!
//! Without `--check`: operations per second of add, mul, div and sqrt (and fma) at 128 … 4096
//! bits on one thread, next to MPFR's (`rug`, results written to a preallocated number, so
//! no allocation is timed) at the same precision in the same run. 64 random operand pairs per
//! precision, the same values on both sides; each figure is the best of three runs of about
//! `0.2 s × --scale`, time being this process's on-CPU time where the kernel reports it.
//!
//! With `--check`: `--count` operand sets (default 10^6) per operation and precision, each in
//! all five rounding modes, compared bit for bit with MPFR by `expanse_core::limb::check`,
//! spread over all cores; exit 1 on any difference. `--precs 128,848` picks precisions.
//!
//! With `--gpu` (GPU 0, kernels `limb_op_<L>` of `expanse_gpu::limb`): with `--check`, the
//! same operand sets (`--count`, default 10^5) through every operation and rounding mode on the
//! device, compared bit for bit with the CPU reference (exit 1 on any difference); without,
//! elements per second of add, mul, fma, div and sqrt over 2^20 elements (one thread per
//! element), upload and download included, next to the CPU reference on all cores.

use super::bench::Args;
use super::{CliError, CmdResult, Outcome};
use expanse_core::limb::check::{check, operand_set, Op, Report};
use expanse_core::limb::{AnyLimbFloat, LimbFloat, Round};
use expanse_gpu::limb::{limb_reference, LimbArrays, LimbOp};
use expanse_gpu::{DeviceSelection, GpuContext};
use rayon::prelude::*;
use rug::{Assign, Float};
use serde::Serialize;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

/// Precisions of the throughput table.
const BENCH_PRECS: [u32; 7] = [128, 256, 512, 848, 1024, 2048, 4096];
/// Precisions of the check (two not multiples of 64).
const CHECK_PRECS: [u32; 8] = [113, 128, 256, 512, 848, 1024, 2048, 4096];

fn parse_precs(args: &Args, default: &[u32]) -> Result<Vec<u32>, CliError> {
    let Some(list) = &args.precs else {
        return Ok(default.to_vec());
    };
    list.split(',')
        .map(|s| {
            let t = s.trim().trim_end_matches('b');
            match t.parse::<u32>() {
                Ok(p) if (3..=4096).contains(&p) => Ok(p),
                _ => Err(CliError::usage(format!(
                    "--precs: {s:?} is not a precision in 3..=4096 bits"
                ))),
            }
        })
        .collect()
}

/// Runs `expanse bench limb`.
pub fn run(args: &Args) -> CmdResult {
    if args.gpu {
        return run_gpu(args);
    }
    if args.check {
        run_check(args)
    } else {
        run_bench(args)
    }
}

#[derive(Serialize)]
struct CheckRow {
    op: &'static str,
    prec: u32,
    sets: u64,
    checks: u64,
    mismatches: u64,
    exact: u64,
    ties: u64,
    zeros: u64,
    overflows: u64,
    underflows: u64,
    seconds: f64,
}

fn run_check(args: &Args) -> CmdResult {
    let count = args.count.unwrap_or(1_000_000);
    let precs = parse_precs(args, &CHECK_PRECS)?;
    let seed = 0x11b_f10a7;
    let chunk = 2000u64;
    let mut rows = Vec::new();
    let mut total_bad = 0;
    if !args.json {
        println!(
            "expanse bench limb --check: {count} operand sets per case, 5 rounding modes each, against MPFR ({} threads)",
            rayon::current_num_threads()
        );
        println!("(coverage columns count round-to-nearest results by MPFR: exact, exact ties, zero, overflow, underflow)");
        println!("| op | bits | sets | checks | mismatches | exact | ties | zero | overflow | underflow | seconds |");
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    }
    for &p in &precs {
        for op in Op::ALL {
            let t0 = Instant::now();
            let chunks = count.div_ceil(chunk);
            let rep = (0..chunks)
                .into_par_iter()
                .map(|c| {
                    let start = c * chunk;
                    check(op, p, seed, start, chunk.min(count - start))
                })
                .reduce(Report::default, |mut a, b| {
                    a.merge(b);
                    a
                });
            let secs = t0.elapsed().as_secs_f64();
            total_bad += rep.mismatches;
            for m in &rep.first {
                eprintln!("mismatch: {m}");
            }
            if !args.json {
                println!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
                    op.name(),
                    p,
                    rep.sets,
                    rep.checks,
                    rep.mismatches,
                    rep.exact,
                    rep.ties,
                    rep.zeros,
                    rep.overflows,
                    rep.underflows,
                    secs
                );
                let _ = std::io::stdout().flush();
            }
            rows.push(CheckRow {
                op: op.name(),
                prec: p,
                sets: rep.sets,
                checks: rep.checks,
                mismatches: rep.mismatches,
                exact: rep.exact,
                ties: rep.ties,
                zeros: rep.zeros,
                overflows: rep.overflows,
                underflows: rep.underflows,
                seconds: secs,
            });
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"bench": "limb-check", "rows": rows}))
                .expect("rows serialise")
        );
    }
    if total_bad > 0 {
        eprintln!("{total_bad} results differ from MPFR");
        Ok(Outcome::NotEstablished)
    } else {
        Ok(Outcome::Success)
    }
}

#[derive(Serialize)]
struct BenchRow {
    op: &'static str,
    prec: u32,
    limbs: usize,
    mops: f64,
    mpfr_mops: f64,
    /// Our rate / MPFR's (> 1: faster than MPFR).
    ratio: f64,
}

/// Best ns per call of `call_all` (which makes `calls` calls), repeated to fill `budget` s.
fn ns_per_call(calls: usize, budget: f64, call_all: impl FnMut()) -> f64 {
    super::bench_functions::ns_per_call_capped(calls, budget, 1 << 24, call_all)
}

/// Random operands at precision p: values in [1/4, 4), both signs for add (so that half the
/// additions subtract).
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
            let bits = 64 * digits.len() as i32;
            f >>= bits - (s % 3) as i32;
            if s & 8 == 0 {
                f = -f;
            }
            f
        })
        .collect()
}

fn measure<const L: usize>(p: u32, budget: f64, rows: &mut Vec<BenchRow>) {
    let xa = operands(p, 1);
    let xb = operands(p, 2);
    let xc = operands(p, 3);
    let conv = |v: &[Float]| -> Vec<LimbFloat<L>> {
        v.iter()
            .map(|f| LimbFloat::<L>::from_rug(f, p, Round::Nearest).0)
            .collect()
    };
    let (a, b, c) = (conv(&xa), conv(&xb), conv(&xc));
    let pos: Vec<LimbFloat<L>> = a.iter().map(|x| x.abs()).collect();
    let xpos: Vec<Float> = xa.iter().map(|x| x.clone().abs()).collect();
    let n = a.len();
    let mut out = Float::new(p);
    let mut row = |op: &'static str, ours: f64, mpfr: f64| {
        rows.push(BenchRow {
            op,
            prec: p,
            limbs: p.div_ceil(64) as usize,
            mops: 1e3 / ours,
            mpfr_mops: 1e3 / mpfr,
            ratio: mpfr / ours,
        })
    };
    let r = Round::Nearest;
    let ours = ns_per_call(n, budget, || {
        for i in 0..n {
            black_box(black_box(&a[i]).add_round(black_box(&b[i]), r));
        }
    });
    let mpfr = ns_per_call(n, budget, || {
        for i in 0..n {
            out.assign(black_box(&xa[i]) + black_box(&xb[i]));
            black_box(&out);
        }
    });
    row("add", ours, mpfr);
    let ours = ns_per_call(n, budget, || {
        for i in 0..n {
            black_box(black_box(&a[i]).mul_round(black_box(&b[i]), r));
        }
    });
    let mpfr = ns_per_call(n, budget, || {
        for i in 0..n {
            out.assign(black_box(&xa[i]) * black_box(&xb[i]));
            black_box(&out);
        }
    });
    row("mul", ours, mpfr);
    let ours = ns_per_call(n, budget, || {
        for i in 0..n {
            black_box(black_box(&a[i]).fma_round(black_box(&b[i]), black_box(&c[i]), r));
        }
    });
    let mpfr = ns_per_call(n, budget, || {
        for i in 0..n {
            out.assign(black_box(&xa[i]).mul_add_ref(black_box(&xb[i]), black_box(&xc[i])));
            black_box(&out);
        }
    });
    row("fma", ours, mpfr);
    let ours = ns_per_call(n, budget, || {
        for i in 0..n {
            black_box(black_box(&a[i]).div_round(black_box(&b[i]), r));
        }
    });
    let mpfr = ns_per_call(n, budget, || {
        for i in 0..n {
            out.assign(black_box(&xa[i]) / black_box(&xb[i]));
            black_box(&out);
        }
    });
    row("div", ours, mpfr);
    let ours = ns_per_call(n, budget, || {
        for x in &pos {
            black_box(black_box(x).sqrt_round(r));
        }
    });
    let mpfr = ns_per_call(n, budget, || {
        for x in &xpos {
            out.assign(black_box(x).sqrt_ref());
            black_box(&out);
        }
    });
    row("sqrt", ours, mpfr);
}

fn run_bench(args: &Args) -> CmdResult {
    let precs = parse_precs(args, &BENCH_PRECS)?;
    let budget = 0.2 * args.scale;
    let mut rows = Vec::new();
    for &p in &precs {
        match p.div_ceil(64) {
            0..=2 => measure::<2>(p, budget, &mut rows),
            3..=4 => measure::<4>(p, budget, &mut rows),
            5..=8 => measure::<8>(p, budget, &mut rows),
            9..=16 => measure::<16>(p, budget, &mut rows),
            17..=32 => measure::<32>(p, budget, &mut rows),
            _ => measure::<64>(p, budget, &mut rows),
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"bench": "limb", "rows": rows}))
                .expect("rows serialise")
        );
    } else {
        println!("expanse bench limb (one thread; millions of operations per second, round to nearest; MPFR at the same precision in the same run)");
        println!("| op | bits | limbs | Mop/s | MPFR Mop/s | limb / MPFR |");
        println!("| --- | --- | --- | --- | --- | --- |");
        for r in &rows {
            println!(
                "| {} | {} | {} | {:.2} | {:.2} | {:.2} |",
                r.op, r.prec, r.limbs, r.mops, r.mpfr_mops, r.ratio
            );
        }
    }
    Ok(Outcome::Success)
}

// ---- GPU -----------------------------------------------------------------------------------

fn gpu_err(e: expanse_gpu::GpuError) -> CliError {
    CliError::failed(format!("bench limb --gpu: {e}"))
}

fn check_op(op: LimbOp) -> Op {
    match op {
        LimbOp::Add => Op::Add,
        LimbOp::Sub => Op::Sub,
        LimbOp::Mul => Op::Mul,
        LimbOp::Fma => Op::Fma,
        LimbOp::Div => Op::Div,
        LimbOp::Sqrt => Op::Sqrt,
    }
}

/// Operand arrays of `count` sets of `op` at precision p (the MPFR check's generator).
fn gpu_operands(op: LimbOp, p: u32, count: u64) -> Vec<LimbArrays> {
    let sets: Vec<Vec<AnyLimbFloat>> = (0..count)
        .into_par_iter()
        .map(|i| operand_set(check_op(op), p, 0x6b1, i))
        .collect();
    (0..op.arity())
        .map(|k| {
            let xs: Vec<AnyLimbFloat> = sets.iter().map(|s| s[k]).collect();
            LimbArrays::pack(&xs, p)
        })
        .collect()
}

fn run_gpu(args: &Args) -> CmdResult {
    let ctx = GpuContext::probe_devices(&DeviceSelection::All).map_err(|u| {
        CliError::usage(format!(
            "bench limb --gpu: {u}; `expanse bench limb` measures the CPU reference"
        ))
    })?;
    eprintln!("bench limb --gpu: using {}", ctx.describe());
    let precs = parse_precs(args, &CHECK_PRECS)?;
    if args.check {
        let count = args.count.unwrap_or(100_000);
        let mut bad = 0u64;
        println!("| op | bits | elements | modes | mismatches |");
        println!("| --- | --- | --- | --- | --- |");
        for &p in &precs {
            for op in LimbOp::ALL {
                let operands = gpu_operands(op, p, count);
                let refs: Vec<&LimbArrays> = operands.iter().collect();
                let mut miss = 0u64;
                for rnd in Round::ALL {
                    let (got, ord) = ctx.eval_limb(op, rnd, p, &refs).map_err(gpu_err)?;
                    let wrong: Vec<usize> = (0..count as usize)
                        .into_par_iter()
                        .filter(|&i| {
                            let xs: Vec<AnyLimbFloat> =
                                operands.iter().map(|a| a.get(i).expect("valid")).collect();
                            let (want, wo) = limb_reference(op, rnd, p, &xs);
                            let w = LimbArrays::pack(&[want], p);
                            let g = got.get(i);
                            let same_parts = g.is_some_and(|g| {
                                let gp = LimbArrays::pack(&[g], p);
                                if want.is_nan() {
                                    g.is_nan()
                                } else {
                                    gp == w
                                }
                            });
                            !(same_parts && (want.is_nan() || ord[i] == wo as i8))
                        })
                        .collect();
                    if let Some(&i) = wrong.first() {
                        let xs: Vec<String> = operands
                            .iter()
                            .map(|a| a.get(i).map(|x| x.to_hex()).unwrap_or_default())
                            .collect();
                        eprintln!(
                            "mismatch: {op:?} {rnd:?} at {p} bits, element {i}: operands {xs:?}, GPU {:?}",
                            got.get(i).map(|g| g.to_hex())
                        );
                    }
                    miss += wrong.len() as u64;
                }
                bad += miss;
                println!("| {op:?} | {p} | {count} | 5 | {miss} |");
            }
        }
        return if bad > 0 {
            eprintln!("{bad} GPU results differ from the CPU reference");
            Ok(Outcome::NotEstablished)
        } else {
            Ok(Outcome::Success)
        };
    }
    let count = 1u64 << 20;
    println!("expanse bench limb --gpu: {count} elements per launch, round to nearest; GPU times include upload and download; CPU reference on {} threads", rayon::current_num_threads());
    println!("| op | bits | GPU Mop/s | CPU Mop/s | GPU / CPU |");
    println!("| --- | --- | --- | --- | --- |");
    for &p in &precs {
        for op in [
            LimbOp::Add,
            LimbOp::Mul,
            LimbOp::Fma,
            LimbOp::Div,
            LimbOp::Sqrt,
        ] {
            let operands = gpu_operands(op, p, 4096);
            // Tile the 4096 sets to `count` elements.
            let tiled: Vec<LimbArrays> = operands
                .iter()
                .map(|a| {
                    let xs: Vec<AnyLimbFloat> = (0..count as usize)
                        .map(|i| a.get(i % 4096).expect("valid"))
                        .collect();
                    LimbArrays::pack(&xs, p)
                })
                .collect();
            let refs: Vec<&LimbArrays> = tiled.iter().collect();
            // First call compiles the program.
            ctx.eval_limb(op, Round::Nearest, p, &refs)
                .map_err(gpu_err)?;
            let t0 = Instant::now();
            ctx.eval_limb(op, Round::Nearest, p, &refs)
                .map_err(gpu_err)?;
            let gpu = count as f64 / t0.elapsed().as_secs_f64();
            let xs: Vec<Vec<AnyLimbFloat>> = (0..4096)
                .map(|i| operands.iter().map(|a| a.get(i).expect("valid")).collect())
                .collect();
            let t0 = Instant::now();
            let reps = 16;
            (0..reps).into_par_iter().for_each(|_| {
                for x in &xs {
                    black_box(limb_reference(op, Round::Nearest, p, x));
                }
            });
            let cpu = (reps * xs.len()) as f64 / t0.elapsed().as_secs_f64();
            println!(
                "| {op:?} | {p} | {:.1} | {:.2} | {:.1} |",
                gpu / 1e6,
                cpu / 1e6,
                gpu / cpu
            );
        }
    }
    Ok(Outcome::Success)
}
