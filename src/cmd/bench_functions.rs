//! `expanse bench functions`: the elementary functions of expansions (`expanse_core::functions`)
//! on one thread, in nanoseconds per call, against MPFR (`rug`) at the same precision (53·N
//! bits for f64 terms, 24·N for f32) in the same run.
//!
//! Every function is called on a fixed set of 64 arguments spread over a typical part of its
//! domain (the same values for the expansion and for MPFR, which gets each argument's exact
//! value), through the run-time entry points `eval_unary_f64`/`eval_unary_f32` that the methods
//! on `Expansion` forward to. Each timing runs about `0.005 s × --scale` (a quarter of the
//! row budget `0.02 s × --scale`); the per-call, batched and MPFR timings of a row run in
//! alternation, five rounds, and each keeps its best (the machine may be shared: a slow phase
//! then slows all three alike instead of one side of a ratio); time is the calling thread's
//! on-CPU time (`CLOCK_THREAD_CPUTIME_ID`), else wall-clock time. MPFR's argument is the
//! expansion's own value (its terms summed exactly, rounded to MPFR's precision).
//!
//! Batched columns: the same 64 arguments tiled to a slice of 4096, evaluated at once by
//! `functions::eval_unary_batch_f64`/`_f32` (SIMD lanes where the function is vectorised, see
//! `expanse_core::functions::batch`; the scalar functions in a loop elsewhere, same results),
//! in ns per element, with the per-call time and MPFR's over it.
//!
//! GPU columns (when a GPU is usable, else said once and left empty): the same function and N
//! evaluated by the CUDA kernels of `expanse_gpu::functions` on GPU 0 over about 4·10⁶
//! arguments (the 64 arguments tiled, `× --scale`), kernel time only (arguments on the device),
//! in evaluations per second, and that rate over the one-thread CPU rate.
//!
//! `--check` instead runs the device identity check: on a usable GPU, every function (and pow,
//! atan2, hypot, powi, and the accurate tier's operations) for N = 1..8 (or the `--terms`
//! given) and both term types on ≥ 10⁴ random and edge arguments each (`expanse_gpu::fn_check`), GPU against CPU bit for bit
//! (NaN payloads and the sign of a zero lower term aside: `same_expansion`); prints a table of
//! mismatches and exits 1 on any (2 when no GPU is usable).
//!
//! Reference numbers for the targets (QD 2.3.23 and MPFR 4.2 on the 2-core development
//! machine, ns per call, issue 13): dd exp 290, log 330, sin 298, atan 427; qd exp 2920,
//! log 8881, sin 2708, atan 10553; MPFR-106 exp 1329; MPFR-212 exp 1891; MPFR-424 exp 3368.

use super::bench::Args;
use super::{CliError, CmdResult, Outcome};
use expanse_core::functions::{eval_binary, eval_unary, eval_unary_f32, eval_unary_f64};
use expanse_core::functions::{eval_unary_batch_f32, eval_unary_batch_f64};
use expanse_core::functions::{Binary, Unary};
use expanse_core::{Expansion, FloatTerm, MAX_TERMS};
use expanse_gpu::fn_check::{
    accurate_operands, binary_arguments, powi_arguments, unary_arguments, POWI_EXPONENTS,
};
use expanse_gpu::functions::{acc_reference, same_expansion};
use expanse_gpu::par;
use expanse_gpu::{AccOp, DeviceSelection, GpuContext, GpuTerm};
use rug::{Assign, Float};
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// One row: a function at N terms of one term type.
#[derive(Serialize)]
struct Row {
    function: &'static str,
    term: &'static str,
    n: usize,
    mpfr_bits: u32,
    ns_per_call: f64,
    /// ns per element of the batched evaluation (`functions::eval_unary_batch_f64`/`_f32`)
    /// over a slice of [`BATCH_LEN`] arguments (the same 64, tiled).
    batch_ns_per_elem: f64,
    /// Per-call time / batched time per element (> 1: the batch is faster).
    batch_speedup: f64,
    mpfr_ns_per_call: f64,
    /// MPFR time / expansion time (> 1: the expansion is faster).
    speedup_vs_mpfr: f64,
    /// Evaluations per second on GPU 0 (kernel time), when a GPU is usable.
    gpu_evals_per_s: Option<f64>,
    /// The GPU rate over the one-thread CPU rate.
    gpu_vs_cpu_thread: Option<f64>,
}

/// Length of the slice of the batched measurement.
const BATCH_LEN: usize = 4096;

/// Arguments for `f`: 64 values spread over a typical part of its domain.
fn arguments(f: Unary) -> Vec<f64> {
    let (lo, hi) = match f {
        Unary::Exp | Unary::ExpM1 | Unary::Sinh | Unary::Cosh | Unary::Tanh => (-20.0, 20.0),
        Unary::Ln | Unary::Log2 | Unary::Log10 => (1e-3, 1e3),
        Unary::Ln1p => (-0.5, 10.0),
        Unary::Asin | Unary::Acos | Unary::Atanh => (-0.99, 0.99),
        Unary::Acosh => (1.01, 1e3),
        _ => (-10.0, 10.0),
    };
    (0..64)
        .map(|k| {
            // An irrational-looking step so that arguments are not round numbers.
            let t = (k as f64 + 0.5) / 64.0 + 1e-3 * ((k * 7919) % 61) as f64;
            lo + (hi - lo) * t.min(1.0)
        })
        .collect()
}

/// The argument as an n-term expansion with non-trivial lower terms (x·(1 + 1/3 + …)).
fn expansion_terms_f64(x: f64, n: usize) -> [f64; MAX_TERMS] {
    let third: Expansion<f64, 8> = "0.333333333333333333333333333333333333333333333333333333"
        .parse()
        .expect("constant parses");
    let v = third.mul_term(x).add_term(x);
    let mut out = [0.0; MAX_TERMS];
    out[..n].copy_from_slice(&v.terms()[..n]);
    // The first n terms of an ulp-nonoverlapping expansion are one too.
    out
}

fn mpfr_apply(f: Unary, x: &Float, out: &mut Float) {
    match f {
        Unary::Exp => out.assign(x.exp_ref()),
        Unary::ExpM1 => out.assign(x.exp_m1_ref()),
        Unary::Ln => out.assign(x.ln_ref()),
        Unary::Ln1p => out.assign(x.ln_1p_ref()),
        Unary::Log2 => out.assign(x.log2_ref()),
        Unary::Log10 => out.assign(x.log10_ref()),
        Unary::Cbrt => out.assign(x.cbrt_ref()),
        Unary::Sin => out.assign(x.sin_ref()),
        Unary::Cos => out.assign(x.cos_ref()),
        Unary::Tan => out.assign(x.tan_ref()),
        Unary::Atan => out.assign(x.atan_ref()),
        Unary::Asin => out.assign(x.asin_ref()),
        Unary::Acos => out.assign(x.acos_ref()),
        Unary::Sinh => out.assign(x.sinh_ref()),
        Unary::Cosh => out.assign(x.cosh_ref()),
        Unary::Tanh => out.assign(x.tanh_ref()),
        Unary::Asinh => out.assign(x.asinh_ref()),
        Unary::Acosh => out.assign(x.acosh_ref()),
        Unary::Atanh => out.assign(x.atanh_ref()),
    }
}

/// The calling thread's CPU time in seconds (`CLOCK_THREAD_CPUTIME_ID`: the kernel brings the
/// running thread's time up to date when it is read, so it resolves nanoseconds; the
/// per-process sum of `/proc/self/task/*/schedstat` that `bench cpu` reads can lag by a
/// scheduler tick, which quantised these single-thread timings to multiples of ~4 ms per
/// repetition, i.e. of ~61 ns per call at `--scale 2`).
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// Seconds of the calling thread's on-CPU time (or wall time, where the clock is missing) of
/// one run of `work` (which runs on this thread).
fn seconds(work: &mut impl FnMut()) -> f64 {
    let c0 = thread_cpu_seconds();
    let t0 = Instant::now();
    work();
    let wall = t0.elapsed().as_secs_f64();
    match (c0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    }
}

/// [`ns_per_call`] with at most about `max_reps` repetitions per timing (also used by
/// `bench limb`).
pub(super) fn ns_per_call_capped(
    calls: usize,
    budget: f64,
    max_reps: usize,
    mut call_all: impl FnMut(),
) -> f64 {
    // Calibrate the repetitions.
    let mut reps = 1usize;
    loop {
        let s = seconds(&mut || {
            for _ in 0..reps {
                call_all()
            }
        });
        if s > budget / 4.0 || reps > max_reps {
            break;
        }
        reps *= 2;
    }
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let s = seconds(&mut || {
            for _ in 0..reps {
                call_all()
            }
        });
        best = best.min(s / (reps * calls) as f64 * 1e9);
    }
    best
}

/// Repetitions of `work` that fill about a quarter of `budget` seconds.
fn calibrate(budget: f64, work: &mut dyn FnMut()) -> usize {
    let mut reps = 1usize;
    loop {
        let s = seconds(&mut || {
            for _ in 0..reps {
                work()
            }
        });
        if s > budget / 4.0 || reps > 1 << 20 {
            return reps;
        }
        reps *= 2;
    }
}

/// Rounds of [`best_interleaved`].
const ROUNDS: usize = 5;

/// Best ns per call of each job (`calls` calls per run of its closure), the jobs timed in
/// alternation, [`ROUNDS`] rounds, so that a slow phase of a shared machine slows all of them
/// alike instead of one side of a ratio.
fn best_interleaved(budget: f64, jobs: &mut [(usize, &mut dyn FnMut())]) -> Vec<f64> {
    let reps: Vec<usize> = jobs
        .iter_mut()
        .map(|(_, w)| calibrate(budget, *w))
        .collect();
    let mut best = vec![f64::INFINITY; jobs.len()];
    for _ in 0..ROUNDS {
        for ((calls, work), (r, b)) in jobs.iter_mut().zip(reps.iter().zip(best.iter_mut())) {
            let s = seconds(&mut || {
                for _ in 0..*r {
                    work()
                }
            });
            *b = b.min(s / (*r * *calls) as f64 * 1e9);
        }
    }
    best
}

/// (per call, batched, MPFR) ns of one row: [`best_interleaved`] over the two expansion
/// closures (`per_call` makes `calls` calls, `batch` [`BATCH_LEN`]) and `f` in MPFR on `mp`.
fn time_sides(
    budget: f64,
    calls: usize,
    per_call: &mut dyn FnMut(),
    batch: &mut dyn FnMut(),
    (f, mp, out): (Unary, &[Float], &mut Float),
) -> (f64, f64, f64) {
    let t = best_interleaved(
        budget,
        &mut [
            (calls, per_call),
            (BATCH_LEN, batch),
            (mp.len(), &mut || {
                for x in mp {
                    mpfr_apply(f, black_box(x), out);
                    black_box(&*out);
                }
            }),
        ],
    );
    (t[0], t[1], t[2])
}

/// The exact value of an expansion's terms, rounded to `bits` (MPFR's argument).
fn mpfr_value(terms: &[f64], bits: u32) -> Float {
    let mut v = Float::with_val(bits + 1200, 0);
    for &t in terms {
        v += t;
    }
    Float::with_val(bits, &v)
}

fn measure(f: Unary, term: &'static str, n: usize, budget: f64) -> Row {
    let args = arguments(f);
    let bits = if term == "f64" {
        53 * n as u32
    } else {
        24 * n as u32
    };
    let mut out_mp = Float::new(bits);
    let (ns, batch_ns, mp_ns) = if term == "f64" {
        let xs: Vec<[f64; MAX_TERMS]> = args.iter().map(|&a| expansion_terms_f64(a, n)).collect();
        let flat: Vec<f64> = xs
            .iter()
            .cycle()
            .take(BATCH_LEN)
            .flat_map(|x| x[..n].iter().copied())
            .collect();
        let mut out = vec![0.0f64; flat.len()];
        let mp_args: Vec<Float> = xs.iter().map(|x| mpfr_value(&x[..n], bits)).collect();
        time_sides(
            budget,
            xs.len(),
            &mut || {
                for x in &xs {
                    black_box(eval_unary_f64(f, n, black_box(x)));
                }
            },
            &mut || {
                eval_unary_batch_f64(f, n, black_box(&flat), &mut out);
                black_box(&out);
            },
            (f, &mp_args, &mut out_mp),
        )
    } else {
        let xs: Vec<[f32; MAX_TERMS]> = args
            .iter()
            .map(|&a| {
                let e: Expansion<f32, 8> = Expansion::from_f64(a);
                let mut t = [0.0f32; MAX_TERMS];
                t[..n].copy_from_slice(&e.terms()[..n]);
                t
            })
            .collect();
        let flat: Vec<f32> = xs
            .iter()
            .cycle()
            .take(BATCH_LEN)
            .flat_map(|x| x[..n].iter().copied())
            .collect();
        let mut out = vec![0.0f32; flat.len()];
        let mp_args: Vec<Float> = xs
            .iter()
            .map(|x| {
                let t: Vec<f64> = x[..n].iter().map(|&v| v as f64).collect();
                mpfr_value(&t, bits)
            })
            .collect();
        time_sides(
            budget,
            xs.len(),
            &mut || {
                for x in &xs {
                    black_box(eval_unary_f32(f, n, black_box(x)));
                }
            },
            &mut || {
                eval_unary_batch_f32(f, n, black_box(&flat), &mut out);
                black_box(&out);
            },
            (f, &mp_args, &mut out_mp),
        )
    };
    Row {
        function: f.name(),
        term,
        n,
        mpfr_bits: bits,
        ns_per_call: ns,
        batch_ns_per_elem: batch_ns,
        batch_speedup: ns / batch_ns,
        mpfr_ns_per_call: mp_ns,
        speedup_vs_mpfr: mp_ns / ns,
        gpu_evals_per_s: None,
        gpu_vs_cpu_thread: None,
    }
}

/// The 64 arguments of `f` as N-term expansions of T (as the CPU measurement uses them).
fn gpu_arguments<T: FloatTerm, const N: usize>(f: Unary) -> Vec<Expansion<T, N>> {
    arguments(f)
        .iter()
        .map(|&a| {
            let t = expansion_terms_f64(a, N);
            let mut terms = [T::ZERO; N];
            if T::PRECISION == 53 {
                for (o, v) in terms.iter_mut().zip(t.iter()) {
                    *o = T::from_f64(*v);
                }
                Expansion::try_from_normalized(terms)
                    .unwrap_or_else(|| Expansion::from_terms(terms))
            } else {
                Expansion::from_f64(a)
            }
        })
        .collect()
}

/// Arguments per GPU launch: the 64 tiled to about 4·10⁶·`scale`.
fn gpu_count(scale: f64) -> usize {
    ((4u64 << 20) as f64 * scale).max(64.0) as usize
}

/// Evaluations per second of `f` at N terms of T on GPU 0: the 64 arguments tiled to about
/// 4·10⁶·`scale`, launches repeated to fill about 0.2 s·`scale`.
fn gpu_rate<T: GpuTerm, const N: usize>(
    ctx: &GpuContext,
    f: Unary,
    scale: f64,
    profile: bool,
) -> Result<f64, expanse_gpu::GpuError> {
    let base = gpu_arguments::<T, N>(f);
    let count = gpu_count(scale);
    let xs: Vec<Expansion<T, N>> = base.iter().cycle().take(count).copied().collect();
    ctx.prepare_functions::<T, N>()?;
    let once = ctx.time_unary(f, &xs, 1)?;
    // For a profiler: exactly two launches per measurement (`gpu/tools/ncu_functions.sh`
    // counts the second).
    let launches = if profile {
        1
    } else {
        ((0.2 * scale / once.max(1e-6)).round() as usize).clamp(1, 50)
    };
    let secs = ctx.time_unary(f, &xs, launches)?;
    Ok(xs.len() as f64 / secs)
}

/// [`gpu_rate`] at a run-time (term type, N) among those of the table.
fn gpu_rate_dyn(
    ctx: &GpuContext,
    f: Unary,
    term: &str,
    n: usize,
    scale: f64,
    profile: bool,
) -> Result<f64, expanse_gpu::GpuError> {
    match (term, n) {
        ("f64", 1) => gpu_rate::<f64, 1>(ctx, f, scale, profile),
        ("f64", 2) => gpu_rate::<f64, 2>(ctx, f, scale, profile),
        ("f64", 3) => gpu_rate::<f64, 3>(ctx, f, scale, profile),
        ("f64", 4) => gpu_rate::<f64, 4>(ctx, f, scale, profile),
        ("f64", 8) => gpu_rate::<f64, 8>(ctx, f, scale, profile),
        ("f32", 2) => gpu_rate::<f32, 2>(ctx, f, scale, profile),
        ("f32", 4) => gpu_rate::<f32, 4>(ctx, f, scale, profile),
        _ => Ok(f64::NAN),
    }
}

/// Runs `expanse bench functions`.
pub fn run(args: &Args) -> CmdResult {
    if args.check {
        return check(args);
    }
    let budget = 0.02 * args.scale;
    let terms = super::bench::parse_terms(args.terms.as_deref())?;
    let functions = selected_functions(args.select.as_deref())?;
    let mut rows = Vec::new();
    let sel: DeviceSelection = args.devices.parse().map_err(CliError::usage)?;
    let gpu = match GpuContext::probe_devices(&sel) {
        Ok(ctx) => {
            eprintln!(
                "bench functions: GPU columns on {} (GPU 0 only)",
                ctx.describe()
            );
            Some(ctx)
        }
        Err(u) => {
            eprintln!("bench functions: no GPU is usable ({u}); GPU columns left empty");
            None
        }
    };
    let cases: [(&'static str, &[usize]); 2] = [("f64", &[1, 2, 3, 4, 8]), ("f32", &[2, 4])];
    if !args.json {
        println!("expanse bench functions (one thread; ns per call, best of 5 rounds in alternation with MPFR; batched: ns per element over {BATCH_LEN} arguments; MPFR at the same precision in the same run)");
        println!(
            "| function | terms | N | ns/call | batched ns/elem | call / batched | MPFR bits | MPFR ns/call | MPFR / expansion | MPFR / batched | GPU eval/s | GPU / CPU thread |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    }
    if args.profile_launches {
        eprintln!(
            "bench functions: profile launches: 2 GPU launches of {} arguments per row",
            gpu_count(args.scale)
        );
    }
    for &f in &functions {
        for (term, ns) in cases {
            for &n in ns.iter().filter(|n| terms.contains(n)) {
                let mut r = measure(f, term, n, budget);
                if let Some(ctx) = &gpu {
                    match gpu_rate_dyn(ctx, f, term, n, args.scale, args.profile_launches) {
                        Ok(rate) if rate.is_finite() => {
                            r.gpu_evals_per_s = Some(rate);
                            r.gpu_vs_cpu_thread = Some(rate * r.ns_per_call * 1e-9);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            return Err(CliError::failed(format!("bench functions: GPU: {e}")))
                        }
                    }
                }
                if !args.json {
                    let (g, gr) = match (r.gpu_evals_per_s, r.gpu_vs_cpu_thread) {
                        (Some(g), Some(gr)) => (format!("{g:.3e}"), format!("{gr:.0}")),
                        _ => ("—".to_string(), "—".to_string()),
                    };
                    println!(
                        "| {} | {} | {} | {:.0} | {:.0} | {:.2} | {} | {:.0} | {:.2} | {:.2} | {g} | {gr} |",
                        r.function,
                        r.term,
                        r.n,
                        r.ns_per_call,
                        r.batch_ns_per_elem,
                        r.batch_speedup,
                        r.mpfr_bits,
                        r.mpfr_ns_per_call,
                        r.speedup_vs_mpfr,
                        r.mpfr_ns_per_call / r.batch_ns_per_elem
                    );
                }
                rows.push(r);
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"bench": "functions", "rows": rows}))
                .expect("rows serialise")
        );
    }
    Ok(Outcome::Success)
}

// ---- device identity check ---------------------------------------------------------------

/// One line of the check's table.
#[derive(Serialize)]
struct CheckRow {
    what: String,
    term: &'static str,
    n: usize,
    compared: usize,
    mismatches: usize,
    first: Option<String>,
}

fn terms_hex<T: FloatTerm>(t: &[T]) -> String {
    let v: Vec<String> = t
        .iter()
        .map(|x| format!("{:#x}", x.to_bits_u64()))
        .collect();
    format!("[{}]", v.join(" "))
}

/// Compares GPU and CPU results (`args` describes each input for the report).
fn tally<T: FloatTerm, const N: usize>(
    what: String,
    gpu: &[Expansion<T, N>],
    cpu: &[Expansion<T, N>],
    args: impl Fn(usize) -> String,
) -> CheckRow {
    let mut row = CheckRow {
        what,
        term: T::NAME,
        n: N,
        compared: gpu.len(),
        mismatches: 0,
        first: None,
    };
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        if !same_expansion(g.terms(), c.terms()) {
            row.mismatches += 1;
            row.first.get_or_insert_with(|| {
                format!(
                    "{}: gpu {} cpu {}",
                    args(i),
                    terms_hex(g.terms()),
                    terms_hex(c.terms())
                )
            });
        }
    }
    if gpu.len() != cpu.len() {
        row.mismatches += 1;
        row.first = Some(format!(
            "{} GPU results for {} inputs",
            gpu.len(),
            cpu.len()
        ));
    }
    row
}

fn gpu_err(e: expanse_gpu::GpuError) -> CliError {
    CliError::failed(format!("bench functions --check: {e}"))
}

/// Every check at N terms of T: the accurate tier's operations, the unary functions, the
/// binary ones and powi.
fn check_one<T: GpuTerm, const N: usize>(
    ctx: &GpuContext,
    random: usize,
) -> Result<Vec<CheckRow>, CliError> {
    let mut rows = Vec::new();
    let seed = 0x00C0_FFEE + 97 * N as u64 + T::PRECISION as u64;
    let pairs = accurate_operands::<T, N>(random, seed);
    for op in AccOp::ALL {
        let gpu = ctx.eval_accurate(op, &pairs).map_err(gpu_err)?;
        let cpu: Vec<(Expansion<T, N>, i32)> =
            par::map(&pairs, |p| acc_reference(op, &p[0], &p[1]));
        let g: Vec<Expansion<T, N>> = gpu.iter().map(|r| r.0).collect();
        let c: Vec<Expansion<T, N>> = cpu.iter().map(|r| r.0).collect();
        let mut row = tally(format!("acc {op:?}"), &g, &c, |i| {
            format!(
                "a = {} b = {}",
                terms_hex(pairs[i][0].terms()),
                terms_hex(pairs[i][1].terms())
            )
        });
        if op == AccOp::Add {
            for (i, (gr, cr)) in gpu.iter().zip(&cpu).enumerate() {
                if gr.1 != cr.1 {
                    row.mismatches += 1;
                    row.first.get_or_insert_with(|| {
                        format!("acc_cmp element {i}: gpu {} cpu {}", gr.1, cr.1)
                    });
                }
            }
        }
        rows.push(row);
    }
    for (k, f) in Unary::ALL.into_iter().enumerate() {
        let xs = unary_arguments::<T, N>(f, random, seed + 1 + k as u64);
        let gpu = ctx.eval_unary(f, &xs).map_err(gpu_err)?;
        let cpu: Vec<Expansion<T, N>> = par::map(&xs, |x| eval_unary(f, x));
        rows.push(tally(f.name().to_string(), &gpu, &cpu, |i| {
            format!("x = {}", terms_hex(xs[i].terms()))
        }));
    }
    for (k, f) in Binary::ALL.into_iter().enumerate() {
        let ps = binary_arguments::<T, N>(f, random, seed + 50 + k as u64);
        let (a, b): (Vec<Expansion<T, N>>, Vec<Expansion<T, N>>) =
            ps.iter().map(|p| (p[0], p[1])).unzip();
        let gpu = ctx.eval_binary(f, &a, &b).map_err(gpu_err)?;
        let cpu: Vec<Expansion<T, N>> = par::map(&ps, |p| eval_binary(f, &p[0], &p[1]));
        rows.push(tally(f.name().to_string(), &gpu, &cpu, |i| {
            format!(
                "x = {} y = {}",
                terms_hex(a[i].terms()),
                terms_hex(b[i].terms())
            )
        }));
    }
    let xs = powi_arguments::<T, N>(random / 4, seed + 80);
    let mut all_gpu = Vec::new();
    let mut all_cpu = Vec::new();
    let mut labels = Vec::new();
    for e in POWI_EXPONENTS {
        all_gpu.extend(ctx.eval_powi(&xs, e).map_err(gpu_err)?);
        all_cpu.extend(par::map(&xs, |x| x.powi(e)));
        labels.extend(xs.iter().map(|x| (e, *x)));
    }
    rows.push(tally("powi".to_string(), &all_gpu, &all_cpu, |i| {
        format!("x = {} n = {}", terms_hex(labels[i].1.terms()), labels[i].0)
    }));
    Ok(rows)
}

/// The functions of `--select` (comma-separated names as [`Unary::name`] spells them; default
/// all, in [`Unary::ALL`]'s order).
fn selected_functions(spec: Option<&str>) -> Result<Vec<Unary>, CliError> {
    let Some(spec) = spec else {
        return Ok(Unary::ALL.to_vec());
    };
    spec.split(',')
        .map(|name| {
            let name = name.trim();
            Unary::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = Unary::ALL.iter().map(|f| f.name()).collect();
                    CliError::usage(format!(
                        "--select: unknown function {name:?} in {spec:?}; expected names among {}",
                        known.join(", ")
                    ))
                })
        })
        .collect()
}

fn check(args: &Args) -> CmdResult {
    let terms = super::bench::parse_terms(args.terms.as_deref())?;
    let sel: DeviceSelection = args.devices.parse().map_err(CliError::usage)?;
    let ctx = GpuContext::probe_devices(&sel).map_err(|u| {
        CliError::usage(format!(
            "bench functions --check: {u}; without a GPU, `cargo test -p expanse-gpu` checks the \
             CUDA source on the host instead"
        ))
    })?;
    eprintln!("bench functions --check: using {}", ctx.describe());
    let random = ((10_000.0 * args.scale) as usize).max(100);
    let t0 = std::time::Instant::now();
    let mut rows = Vec::new();
    macro_rules! each {
        ($($t:ty, $n:literal;)*) => {
            $(
                if terms.contains(&$n) {
                    let r = check_one::<$t, $n>(&ctx, random)?;
                    let bad: usize = r.iter().map(|x| x.mismatches).sum();
                    eprintln!(
                        "  {} N={}: {} results compared, {} mismatches ({:.0} s)",
                        <$t as FloatTerm>::NAME,
                        $n,
                        r.iter().map(|x| x.compared).sum::<usize>(),
                        bad,
                        t0.elapsed().as_secs_f64()
                    );
                    rows.extend(r);
                }
            )*
        };
    }
    each! {
        f64, 1; f64, 2; f64, 3; f64, 4; f64, 5; f64, 6; f64, 7; f64, 8;
        f32, 1; f32, 2; f32, 3; f32, 4; f32, 5; f32, 6; f32, 7; f32, 8;
    }
    let total: usize = rows.iter().map(|r| r.compared).sum();
    let bad: usize = rows.iter().map(|r| r.mismatches).sum();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "bench": "functions-check",
                "devices": ctx.describe(),
                "compared": total,
                "mismatches": bad,
                "rows": rows,
            }))
            .expect("rows serialise")
        );
    } else {
        println!(
            "expanse bench functions --check on {}: GPU against CPU, bit for bit",
            ctx.describe()
        );
        println!("| function | terms | N | compared | mismatches | first mismatch |");
        println!("| --- | --- | --- | --- | --- | --- |");
        for r in &rows {
            if r.mismatches > 0 {
                println!(
                    "| {} | {} | {} | {} | {} | {} |",
                    r.what,
                    r.term,
                    r.n,
                    r.compared,
                    r.mismatches,
                    r.first.as_deref().unwrap_or("")
                );
            }
        }
        let ns: Vec<String> = terms.iter().map(|n| n.to_string()).collect();
        println!(
            "| all ({} checks) | f64, f32 | {} | {total} | {bad} | |",
            rows.len(),
            ns.join(", ")
        );
    }
    if bad > 0 {
        eprintln!("bench functions --check: {bad} of {total} results differ");
        Ok(Outcome::NotEstablished)
    } else {
        eprintln!("bench functions --check: all {total} results identical");
        Ok(Outcome::Success)
    }
}
