//! `expanse bench functions`: the elementary functions of expansions (`expanse_core::functions`)
//! on one thread, in nanoseconds per call, against MPFR (`rug`) at the same precision (53·N
//! bits for f64 terms, 24·N for f32) in the same run.
//!
//! Every function is called on a fixed set of 64 arguments spread over a typical part of its
//! domain (the same values for the expansion and for MPFR, which gets each argument's exact
//! value), through the run-time entry points `eval_unary_f64`/`eval_unary_f32` that the methods
//! on `Expansion` forward to. Each measurement runs about `0.02 s × --scale`, the two sides in
//! alternation, three times each, and keeps the best (the machine may be shared); time is this
//! process's on-CPU time when the kernel reports it, else wall-clock time.
//!
//! Reference numbers for the targets (QD 2.3.23 and MPFR 4.2 on the 2-core development
//! machine, ns per call, issue 13): dd exp 290, log 330, sin 298, atan 427; qd exp 2920,
//! log 8881, sin 2708, atan 10553; MPFR-106 exp 1329; MPFR-212 exp 1891; MPFR-424 exp 3368.

use super::bench::Args;
use super::bench_cpu::cpu_seconds;
use super::{CmdResult, Outcome};
use expanse_core::functions::{eval_unary_f32, eval_unary_f64, Unary};
use expanse_core::{Expansion, MAX_TERMS};
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
    mpfr_ns_per_call: f64,
    /// MPFR time / expansion time (> 1: the expansion is faster).
    speedup_vs_mpfr: f64,
}

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

/// Seconds of on-CPU time (or wall time) of one run of `work`.
fn seconds(work: &mut impl FnMut()) -> f64 {
    let c0 = cpu_seconds();
    let t0 = Instant::now();
    work();
    let wall = t0.elapsed().as_secs_f64();
    match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    }
}

/// Best ns per call of `call_all` (which makes `calls` calls), repeated to fill `budget` s.
fn ns_per_call(calls: usize, budget: f64, mut call_all: impl FnMut()) -> f64 {
    // Calibrate the repetitions.
    let mut reps = 1usize;
    loop {
        let s = seconds(&mut || {
            for _ in 0..reps {
                call_all()
            }
        });
        if s > budget / 4.0 || reps > 1 << 20 {
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

fn measure(f: Unary, term: &'static str, n: usize, budget: f64) -> Row {
    let args = arguments(f);
    let bits = if term == "f64" {
        53 * n as u32
    } else {
        24 * n as u32
    };
    let ns = if term == "f64" {
        let xs: Vec<[f64; MAX_TERMS]> = args.iter().map(|&a| expansion_terms_f64(a, n)).collect();
        ns_per_call(xs.len(), budget, || {
            for x in &xs {
                black_box(eval_unary_f64(f, n, black_box(x)));
            }
        })
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
        ns_per_call(xs.len(), budget, || {
            for x in &xs {
                black_box(eval_unary_f32(f, n, black_box(x)));
            }
        })
    };
    let mp_args: Vec<Float> = args.iter().map(|&a| Float::with_val(bits, a)).collect();
    let mut out = Float::new(bits);
    let mp_ns = ns_per_call(mp_args.len(), budget, || {
        for x in &mp_args {
            mpfr_apply(f, black_box(x), &mut out);
            black_box(&out);
        }
    });
    Row {
        function: f.name(),
        term,
        n,
        mpfr_bits: bits,
        ns_per_call: ns,
        mpfr_ns_per_call: mp_ns,
        speedup_vs_mpfr: mp_ns / ns,
    }
}

/// Runs `expanse bench functions`.
pub fn run(args: &Args) -> CmdResult {
    let budget = 0.02 * args.scale;
    let mut rows = Vec::new();
    let cases: [(&'static str, &[usize]); 2] = [("f64", &[1, 2, 3, 4, 8]), ("f32", &[2, 4])];
    if !args.json {
        println!("expanse bench functions (one thread; ns per call, best of 3; MPFR at the same precision in the same run)");
        println!(
            "| function | terms | N | ns/call | MPFR bits | MPFR ns/call | MPFR / expansion |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- |");
    }
    for f in Unary::ALL {
        for (term, ns) in cases {
            for &n in ns {
                let r = measure(f, term, n, budget);
                if !args.json {
                    println!(
                        "| {} | {} | {} | {:.0} | {} | {:.0} | {:.2} |",
                        r.function,
                        r.term,
                        r.n,
                        r.ns_per_call,
                        r.mpfr_bits,
                        r.mpfr_ns_per_call,
                        r.speedup_vs_mpfr
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
