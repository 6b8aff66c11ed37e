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
//!
//! With `--gpu --kernel` and/or `--gpu --gemv` (only those sections run; program
//! `expanse_gpu::limb_blas::LIMB_EXT_PROGRAM`): kernel-only rates of add, mul and div on
//! device-resident operands (2^20 elements, repeated launches, no transfers), one thread per
//! number against groups of G threads per number (mul, add), beside the CPU reference and MPFR
//! on all cores, and which layout wins; GEMV y = A·x at M = N = 1000 (848 and 1696 bits by
//! default) in the fixed operation order of `expanse_gpu::limb_blas::gemv_reference`, time
//! per call against the CPU reference and MPFR (same order) on all cores, all three compared
//! bit for bit. With `--check` as well: the group kernels (mul, add, sub) through every
//! rounding mode on the MPFR-check operand sets (`--count`, default 10^5) against the CPU
//! reference, and the GEMV, dot and sum in every rounding mode on a 40×257 instance with zeros
//! and a cancelling row against the CPU reference and MPFR.

use super::bench::Args;
use super::{CliError, CmdResult, Outcome};
use expanse_core::limb::check::{check, operand_set, Op, Report};
use expanse_core::limb::{AnyLimbFloat, LimbFloat, Round};
use expanse_gpu::limb::{limb_reference, LimbArrays, LimbOp};
use expanse_gpu::limb_blas::{dot_reference, gemv_reference, sum_reference, LimbLayout};
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
    if args.henon {
        return super::bench_limb_henon::run(args);
    }
    if args.functions {
        return super::bench_limb_functions::run(args);
    }
    if args.gpu && (args.kernel || args.gemv) {
        return run_gpu_kernel_gemv(args);
    }
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

// ---- GPU: kernel-only rates, cooperative groups, GEMV (--kernel, --gemv) --------------------

/// Precisions of the kernel-only table.
const KERNEL_PRECS: [u32; 6] = [128, 256, 512, 1024, 2048, 4096];
/// Precisions of the GEMV table.
const GEMV_PRECS: [u32; 2] = [848, 1696];
/// Group sizes tried for the cooperative multiplication.
const GROUPS: [u32; 5] = [1, 4, 8, 16, 32];

/// `count` typical operands at precision p: random mantissas, values in [1/8, 4), both signs
/// (half the additions subtract).
fn typical_limbs(p: u32, seed: u64, count: usize) -> Vec<AnyLimbFloat> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..count)
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
            f >>= 64 * digits.len() as i32 - 2 + (s % 5) as i32;
            if s & 8 == 0 {
                f = -f;
            }
            AnyLimbFloat::from_rug(&f, p, Round::Nearest).0
        })
        .collect()
}

/// `a` repeated to `count` elements (interleaved layout).
fn tile(a: &LimbArrays, count: usize) -> LimbArrays {
    let n = a.prec.div_ceil(64) as usize;
    let mut t = LimbArrays {
        prec: a.prec,
        count,
        limbs: vec![0; n * count],
        exps: (0..count).map(|i| a.exps[i % a.count]).collect(),
        kinds: (0..count).map(|i| a.kinds[i % a.count]).collect(),
    };
    for j in 0..n {
        let src = &a.limbs[j * a.count..(j + 1) * a.count];
        for (i, d) in t.limbs[j * count..(j + 1) * count].iter_mut().enumerate() {
            *d = src[i % a.count];
        }
    }
    t
}

/// Elements where two result arrays differ (NaN: class only).
fn count_diff(x: &LimbArrays, xo: &[i8], y: &LimbArrays, yo: &[i8]) -> u64 {
    let n = x.prec.div_ceil(64) as usize;
    (0..x.count)
        .filter(|&i| {
            let nan = x.kinds[i] & 3 == 3;
            let parts = if nan {
                y.kinds[i] & 3 == 3
            } else {
                x.kinds[i] == y.kinds[i]
                    && x.exps[i] == y.exps[i]
                    && (0..n).all(|j| x.limbs[j * x.count + i] == y.limbs[j * y.count + i])
            };
            !(parts && (nan || xo[i] == yo[i]))
        })
        .count() as u64
}

/// Results of `op` on the CPU reference for every element of `operands`.
fn reference_arrays(
    op: LimbOp,
    rnd: Round,
    p: u32,
    operands: &[LimbArrays],
) -> (LimbArrays, Vec<i8>) {
    let count = operands[0].count;
    let res: Vec<(AnyLimbFloat, i8)> = (0..count)
        .into_par_iter()
        .map(|i| {
            let xs: Vec<AnyLimbFloat> = operands.iter().map(|a| a.get(i).expect("valid")).collect();
            let (r, o) = limb_reference(op, rnd, p, &xs);
            (r, o as i8)
        })
        .collect();
    let vals: Vec<AnyLimbFloat> = res.iter().map(|r| r.0).collect();
    (
        LimbArrays::pack(&vals, p),
        res.iter().map(|r| r.1).collect(),
    )
}

/// Seconds per launch with enough launches for about `budget` seconds.
fn timed_launches(
    ctx: &GpuContext,
    op: LimbOp,
    p: u32,
    refs: &[&LimbArrays],
    layout: LimbLayout,
    budget: f64,
) -> Result<(LimbArrays, Vec<i8>, f64), CliError> {
    let (_, _, t1) = ctx
        .limb_op_resident(op, Round::Nearest, p, refs, layout, 1)
        .map_err(gpu_err)?;
    let launches = ((budget / t1.max(1e-6)) as usize).clamp(1, 200);
    ctx.limb_op_resident(op, Round::Nearest, p, refs, layout, launches)
        .map_err(gpu_err)
}

/// Operations per second of `op` on all cores: the CPU reference, then MPFR.
fn cpu_rates(op: LimbOp, p: u32, xs: &[Vec<AnyLimbFloat>], budget: f64) -> (f64, f64) {
    let threads = rayon::current_num_threads();
    let per = |f: &(dyn Fn() + Sync)| -> f64 {
        let mut reps = 1usize;
        loop {
            let t0 = Instant::now();
            (0..threads * reps).into_par_iter().for_each(|_| f());
            let t = t0.elapsed().as_secs_f64();
            if t > budget || reps > 1 << 20 {
                return (threads * reps * xs.len()) as f64 / t;
            }
            reps *= 2;
        }
    };
    let ours = per(&|| {
        for x in xs {
            black_box(limb_reference(op, Round::Nearest, p, x));
        }
    });
    let rx: Vec<Vec<Float>> = xs
        .iter()
        .map(|v| v.iter().map(|x| x.to_rug()).collect())
        .collect();
    let mpfr = per(&|| {
        let mut out = Float::new(p);
        for x in &rx {
            match op {
                LimbOp::Add => out.assign(&x[0] + &x[1]),
                LimbOp::Mul => out.assign(&x[0] * &x[1]),
                _ => out.assign(&x[0] / &x[1]),
            }
            black_box(&out);
        }
    });
    (ours, mpfr)
}

fn run_kernel_section(ctx: &GpuContext, args: &Args) -> Result<u64, CliError> {
    let precs = parse_precs(args, &KERNEL_PRECS)?;
    let budget = 0.15 * args.scale;
    let count = 1usize << 20;
    let mut bad = 0u64;
    println!(
        "\nkernel-only rates: {count} device-resident elements, repeated launches timed by synchronize + wall clock (no transfers), round to nearest; CPU reference and MPFR on all {} cores; Gop/s",
        rayon::current_num_threads()
    );
    let gcols: Vec<String> = GROUPS.iter().map(|g| format!("G={g}")).collect();
    println!(
        "| op | bits | 1 thread | {} | best GPU | CPU ref | MPFR | best / MPFR |",
        gcols.join(" | ")
    );
    println!("|{}", " --- |".repeat(8 + GROUPS.len()));
    for &p in &precs {
        for op in [LimbOp::Add, LimbOp::Mul, LimbOp::Div] {
            let ops: Vec<Vec<AnyLimbFloat>> = (0..2)
                .map(|k| typical_limbs(p, 11 + k as u64 + 7 * p as u64, 4096))
                .collect();
            let packed: Vec<LimbArrays> = ops.iter().map(|v| LimbArrays::pack(v, p)).collect();
            let tiled: Vec<LimbArrays> = packed.iter().map(|a| tile(a, count)).collect();
            let refs: Vec<&LimbArrays> = tiled.iter().collect();
            let (r1, o1, t1) = timed_launches(ctx, op, p, &refs, LimbLayout::Thread, budget)?;
            // The one-thread results against the CPU reference on the distinct operands.
            let (want, wo) = reference_arrays(op, Round::Nearest, p, &packed);
            let head = LimbArrays {
                prec: p,
                count: 4096,
                limbs: (0..p.div_ceil(64) as usize)
                    .flat_map(|j| r1.limbs[j * count..j * count + 4096].to_vec())
                    .collect(),
                exps: r1.exps[..4096].to_vec(),
                kinds: r1.kinds[..4096].to_vec(),
            };
            let miss = count_diff(&head, &o1[..4096], &want, &wo);
            if miss > 0 {
                eprintln!(
                    "{op:?} at {p} bits: {miss} one-thread results differ from the CPU reference"
                );
            }
            bad += miss;
            let rate = |t: f64| count as f64 / t / 1e9;
            let mut best = ("1 thread".to_string(), rate(t1));
            let mut cells = Vec::new();
            for &g in &GROUPS {
                if op == LimbOp::Div {
                    cells.push("–".to_string());
                    continue;
                }
                let (rg, og, tg) = timed_launches(ctx, op, p, &refs, LimbLayout::Group(g), budget)?;
                let miss = count_diff(&rg, &og, &r1, &o1);
                if miss > 0 {
                    eprintln!("{op:?} at {p} bits, G = {g}: {miss} results differ from the one-thread kernel");
                }
                bad += miss;
                if rate(tg) > best.1 {
                    best = (format!("G={g}"), rate(tg));
                }
                cells.push(format!("{:.3}", rate(tg)));
            }
            let sets: Vec<Vec<AnyLimbFloat>> =
                (0..256).map(|i| vec![ops[0][i], ops[1][i]]).collect();
            let (cpu, mpfr) = cpu_rates(op, p, &sets, 0.1 * args.scale);
            println!(
                "| {op:?} | {p} | {:.3} | {} | {} | {:.4} | {:.4} | {:.0} |",
                rate(t1),
                cells.join(" | "),
                best.0,
                cpu / 1e9,
                mpfr / 1e9,
                best.1 * 1e9 / mpfr
            );
            let _ = std::io::stdout().flush();
        }
    }
    if args.check {
        let n = args.count.unwrap_or(100_000);
        println!("\ngroup kernels against the CPU reference: {n} MPFR-check operand sets per operation and precision, 5 rounding modes, every group size {GROUPS:?}");
        println!("| op | bits | checks | mismatches |");
        println!("| --- | --- | --- | --- |");
        for &p in &precs {
            for op in [LimbOp::Mul, LimbOp::Add, LimbOp::Sub] {
                let operands = gpu_operands(op, p, n);
                let refs: Vec<&LimbArrays> = operands.iter().collect();
                let mut miss = 0u64;
                let mut checks = 0u64;
                for rnd in Round::ALL {
                    let (want, wo) = reference_arrays(op, rnd, p, &operands);
                    for &g in &GROUPS {
                        let (got, go, _) = ctx
                            .limb_op_resident(op, rnd, p, &refs, LimbLayout::Group(g), 1)
                            .map_err(gpu_err)?;
                        miss += count_diff(&got, &go, &want, &wo);
                        checks += n;
                    }
                }
                bad += miss;
                println!("| {op:?} | {p} | {checks} | {miss} |");
                let _ = std::io::stdout().flush();
            }
        }
    }
    Ok(bad)
}

/// The GEMV order in MPFR on all cores: rounded products, then the pairwise sum.
fn gemv_mpfr(p: u32, m: usize, n: usize, a: &[Float], x: &[Float]) -> Vec<Float> {
    (0..m)
        .into_par_iter()
        .map(|i| {
            let mut v: Vec<Float> = (0..n)
                .map(|j| Float::with_val(p, &a[i * n + j] * &x[j]))
                .collect();
            let mut s = 1;
            while s < n {
                let mut k = 0;
                while k + s < n {
                    let t = Float::with_val(p, &v[k] + &v[k + s]);
                    v[k] = t;
                    k += 2 * s;
                }
                s *= 2;
            }
            v.swap_remove(0)
        })
        .collect()
}

fn run_gemv_section(ctx: &GpuContext, args: &Args) -> Result<u64, CliError> {
    let precs = match &args.precs {
        Some(_) => parse_precs(args, &GEMV_PRECS)?,
        None => GEMV_PRECS.to_vec(),
    };
    let (m, n) = (1000usize, 1000usize);
    let mut bad = 0u64;
    println!(
        "\nGEMV y = A·x, M = N = {m}, round to nearest, every product and sum rounded, pairwise sums in a fixed order (GPU: one block of ≤ 128 threads per row, kernel only; CPU reference and MPFR: the same operations on all {} cores); results compared bit for bit; Gop/s counts the 2·M·N multiplications and additions, to set beside the kernel-only mul and add rates",
        rayon::current_num_threads()
    );
    println!("| bits | GPU ms/call | GPU Gop/s | CPU ref ms | MPFR ms | GPU / MPFR | GPU / CPU | A + scratch GB/s | GPU = CPU | CPU = MPFR |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for &p in &precs {
        let a = typical_limbs(p, 0xa11 + p as u64, m * n);
        let x = typical_limbs(p, 0x7e + p as u64, n);
        let (pa, px) = (LimbArrays::pack(&a, p), LimbArrays::pack(&x, p));
        let (_, t1) = ctx
            .limb_gemv(Round::Nearest, m, n, &pa, &px, 1)
            .map_err(gpu_err)?;
        let launches = ((0.3 * args.scale / t1.max(1e-6)) as usize).clamp(1, 100);
        let (y, t) = ctx
            .limb_gemv(Round::Nearest, m, n, &pa, &px, launches)
            .map_err(gpu_err)?;
        let t0 = Instant::now();
        let cpu = gemv_reference(Round::Nearest, p, m, n, &a, &x);
        let tc = t0.elapsed().as_secs_f64();
        let ra: Vec<Float> = a.iter().map(|v| v.to_rug()).collect();
        let rx: Vec<Float> = x.iter().map(|v| v.to_rug()).collect();
        let t0 = Instant::now();
        let mp = gemv_mpfr(p, m, n, &ra, &rx);
        let tm = t0.elapsed().as_secs_f64();
        let cpu_packed = LimbArrays::pack(&cpu, p);
        let gpu_eq = (0..m).filter(|&i| y.get(i) != cpu_packed.get(i)).count();
        let mp_eq = (0..m)
            .filter(|&i| {
                let v = AnyLimbFloat::from_rug(&mp[i], p, Round::Nearest).0;
                LimbArrays::pack(&[v], p) != LimbArrays::pack(&[cpu[i]], p)
            })
            .count();
        bad += (gpu_eq + mp_eq) as u64;
        // Bytes: A read once, the scratch (M·N/2 numbers) written and read about twice.
        let bytes = (m * n) as f64 * (p.div_ceil(64) as f64 * 8.0 + 5.0) * 3.0;
        let show = |k: usize| {
            if k == 0 {
                "identical".to_string()
            } else {
                format!("{k} rows differ")
            }
        };
        println!(
            "| {p} | {:.3} | {:.2} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | {} | {} |",
            t * 1e3,
            2.0 * (m * n) as f64 / t / 1e9,
            tc * 1e3,
            tm * 1e3,
            tm / t,
            tc / t,
            bytes / t / 1e9,
            show(gpu_eq),
            show(mp_eq)
        );
        let _ = std::io::stdout().flush();
    }
    if args.check {
        // Every rounding mode on a smaller instance with zeros and a cancelling row.
        let (m, n) = (40usize, 257usize);
        let mut miss = 0u64;
        for &p in &[64u32, 200, 848, 1696, 4096] {
            let mut a = typical_limbs(p, 5 + p as u64, m * n);
            let x = typical_limbs(p, 6 + p as u64, n);
            for j in (1..n).step_by(2) {
                a[n + j] = a[n + j - 1].neg();
            }
            for k in (0..m * n).step_by(13) {
                a[k] = AnyLimbFloat::zero(p, k % 2 == 1);
            }
            let (pa, px) = (LimbArrays::pack(&a, p), LimbArrays::pack(&x, p));
            let ra: Vec<Float> = a.iter().map(|v| v.to_rug()).collect();
            let rx: Vec<Float> = x.iter().map(|v| v.to_rug()).collect();
            for rnd in Round::ALL {
                let (y, _) = ctx.limb_gemv(rnd, m, n, &pa, &px, 1).map_err(gpu_err)?;
                let cpu = gemv_reference(rnd, p, m, n, &a, &x);
                let r = rug_round(rnd);
                for i in 0..m {
                    let mut v: Vec<Float> = (0..n)
                        .map(|j| Float::with_val_round(p, &ra[i * n + j] * &rx[j], r).0)
                        .collect();
                    let mut s = 1;
                    while s < n {
                        let mut k = 0;
                        while k + s < n {
                            let t = Float::with_val_round(p, &v[k] + &v[k + s], r).0;
                            v[k] = t;
                            k += 2 * s;
                        }
                        s *= 2;
                    }
                    let want = LimbArrays::pack(&[cpu[i]], p);
                    let mpv = AnyLimbFloat::from_rug(&v[0], p, Round::Nearest).0;
                    let ok = y.get(i).map(|g| LimbArrays::pack(&[g], p)) == Some(want.clone())
                        && LimbArrays::pack(&[mpv], p) == want;
                    if !ok {
                        miss += 1;
                    }
                }
                // dot (a 1-row GEMV) and sum (dot with ones) of row 1 (the cancelling row).
                let row = LimbArrays::pack(&a[n..2 * n], p);
                let dot = ctx.limb_dot(rnd, &row, &px).map_err(gpu_err)?;
                let sum = ctx.limb_sum(rnd, &row).map_err(gpu_err)?;
                let want_dot = dot_reference(rnd, p, &a[n..2 * n], &x);
                let want_sum = sum_reference(rnd, p, a[n..2 * n].to_vec());
                let same = |u: AnyLimbFloat, v: AnyLimbFloat| {
                    LimbArrays::pack(&[u], p) == LimbArrays::pack(&[v], p)
                };
                if !same(dot, want_dot) || !same(sum, want_sum) || !same(want_dot, cpu[1]) {
                    miss += 1;
                }
            }
        }
        println!(
            "GEMV check ({m}×{n}, 64 … 4096 bits, 5 rounding modes, zeros and a cancelling row; and dot, sum of that row): GPU = CPU = MPFR: {}",
            if miss == 0 {
                "identical".to_string()
            } else {
                format!("{miss} rows differ")
            }
        );
        bad += miss;
    }
    Ok(bad)
}

fn rug_round(r: Round) -> rug::float::Round {
    match r {
        Round::Nearest => rug::float::Round::Nearest,
        Round::Zero => rug::float::Round::Zero,
        Round::Up => rug::float::Round::Up,
        Round::Down => rug::float::Round::Down,
        Round::Away => rug::float::Round::AwayZero,
    }
}

fn run_gpu_kernel_gemv(args: &Args) -> CmdResult {
    let ctx = GpuContext::probe_devices(&DeviceSelection::All).map_err(|u| {
        CliError::usage(format!(
            "bench limb --gpu: {u}; `expanse bench limb` measures the CPU reference"
        ))
    })?;
    println!("bench limb --gpu: using {}", ctx.describe());
    let t0 = Instant::now();
    // Compiles the program (NVRTC) once, outside the timings.
    let one = LimbArrays::pack(&typical_limbs(128, 1, 1), 128);
    ctx.limb_op_resident(
        LimbOp::Add,
        Round::Nearest,
        128,
        &[&one, &one],
        LimbLayout::Thread,
        1,
    )
    .map_err(gpu_err)?;
    println!(
        "(program limb_ext compiled and loaded in {:.1} s)",
        t0.elapsed().as_secs_f64()
    );
    let mut bad = 0;
    if args.kernel {
        bad += run_kernel_section(&ctx, args)?;
    }
    if args.gemv {
        bad += run_gemv_section(&ctx, args)?;
    }
    if bad > 0 {
        eprintln!("{bad} GPU results differ from the CPU reference or MPFR");
        Ok(Outcome::NotEstablished)
    } else {
        println!("all GPU results checked: identical");
        Ok(Outcome::Success)
    }
}
