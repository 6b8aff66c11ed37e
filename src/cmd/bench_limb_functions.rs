//! `expanse bench limb --functions`: exp, ln, sin and cos of the fixed-limb floats
//! (`expanse_core::limb::functions`; on the GPU `expanse_gpu::limb_quad`, kernels
//! `limb_fn_<L>`) at 1330 and 3330 bits (or `--precs`), against MPFR.
//!
//! Rates: function values per second of the CPU limb type on all cores (rayon), of MPFR
//! (`rug`, correctly rounded, results allocated) on all cores of the same host in the same run
//! on the same arguments, and with `--gpu` of the GPU kernel (one thread per value, upload and
//! download included, compilation excluded), with the GPU results compared bit for bit with
//! the CPU's. Arguments: random full-precision numbers, exp and sin/cos in (−8, 8), ln in
//! (2^−20, 2^20). Each CPU figure is the best of three runs of about `0.3 s × --scale`.
//!
//! Also counted: results that differ from MPFR's correctly rounded value (the functions are
//! accurate to (0.5 + 2^−16) ulp, not correctly rounded: a few per 10^5 may differ), and with
//! `--check` every result is checked against its stated bound with MPFR at p + 256 bits. Exit
//! 1 when a GPU result differs from the CPU's or (`--check`) a bound is exceeded.

use super::bench::Args;
use super::{CliError, CmdResult, Outcome};
use expanse_core::limb::functions::working_prec;
use expanse_core::limb::{AnyLimbFloat, Kind};
use expanse_gpu::limb::LimbArrays;
use expanse_gpu::limb_quad::{cpu_fn, fn_capacity, LimbFn};
use expanse_gpu::{DeviceSelection, GpuContext};
use rayon::prelude::*;
use rug::Float;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// Default precisions (about 400 and 1000 digits).
const FN_PRECS: [u32; 2] = [1330, 3330];

#[derive(Serialize)]
struct Row {
    function: &'static str,
    prec: u32,
    limbs: usize,
    threads: usize,
    elements: usize,
    /// CPU limb type, all cores: values per second.
    cpu_per_s: f64,
    /// MPFR, all cores: values per second.
    mpfr_per_s: f64,
    /// GPU (with `--gpu`): values per second, transfers included.
    gpu_per_s: Option<f64>,
    /// GPU results that differ from the CPU's in any bit (with `--gpu`).
    gpu_vs_cpu: Option<u64>,
    /// Results that differ from MPFR's correctly rounded value.
    not_correctly_rounded: u64,
    /// Results outside the stated bound (with `--check`).
    bound_violations: Option<u64>,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `count` random p-bit arguments of `f` (see the module docs for the ranges).
fn arguments(f: LimbFn, p: u32, count: usize) -> Vec<AnyLimbFloat> {
    let mut rng = Rng(0xf00d ^ u64::from(p) ^ (f as u64) << 32);
    let n = p.div_ceil(64) as usize;
    (0..count)
        .map(|_| {
            let mut m: Vec<u64> = (0..n).map(|_| rng.next()).collect();
            m[n - 1] |= 1 << 63;
            let sh = 64 * n as u32 - p;
            if sh > 0 {
                m[0] &= !((1u64 << sh) - 1);
            }
            let r = rng.next();
            let (neg, e) = match f {
                LimbFn::Ln => (false, (r % 41) as i32 - 20),
                _ => (r & 1 == 1, 3 - ((r >> 1) % 12) as i32),
            };
            AnyLimbFloat::from_parts(Kind::Normal, neg, e, &m, p).expect("a valid number")
        })
        .collect()
}

fn mpfr_value(f: LimbFn, x: &Float, p: u32) -> Float {
    match f {
        LimbFn::Exp => Float::with_val(p, x.exp_ref()),
        LimbFn::Ln => Float::with_val(p, x.ln_ref()),
        LimbFn::Sin => Float::with_val(p, x.sin_ref()),
        LimbFn::Cos => Float::with_val(p, x.cos_ref()),
    }
}

/// Best of three runs of about `target` seconds: calls per second of `run` (one call = `n`
/// values).
fn rate(n: usize, target: f64, mut run: impl FnMut()) -> f64 {
    let t0 = Instant::now();
    run();
    let one = t0.elapsed().as_secs_f64().max(1e-6);
    let reps = ((target / one).ceil() as usize).clamp(1, 1000);
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..reps {
            run();
        }
        best = best.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    n as f64 / best
}

/// Whether element i of two arrays is the same number bit for bit.
fn same_element(a: &LimbArrays, b: &LimbArrays, i: usize) -> bool {
    let n = a.prec.div_ceil(64) as usize;
    a.prec == b.prec
        && a.kinds[i] == b.kinds[i]
        && a.exps[i] == b.exps[i]
        && (0..n).all(|j| a.limbs[j * a.count + i] == b.limbs[j * b.count + i])
}

fn gpu_err(e: expanse_gpu::GpuError) -> CliError {
    CliError::usage(format!("bench limb --functions --gpu: {e}"))
}

/// Whether `got` is within the stated bound of f(x): (0.5 + 2^−16) ulp, plus 2^−(p+40) for
/// sin and cos (`expanse_core::limb::functions`).
fn within_bound(f: LimbFn, x: &Float, got: &Float, p: u32) -> bool {
    let hi = working_prec(p) + 256;
    let xr = Float::with_val(hi, x);
    let exact = mpfr_value(f, &xr, hi);
    if exact.is_zero() {
        return got.is_zero();
    }
    let Some(e) = exact.get_exp() else {
        return false;
    };
    let err = Float::with_val(hi, got - &exact).abs();
    let ulp = Float::with_val(hi, Float::i_exp(1, e - p as i32));
    let mut allowed = Float::with_val(hi, &ulp * (0.5 + 2f64.powi(-16)));
    if matches!(f, LimbFn::Sin | LimbFn::Cos) {
        allowed += Float::with_val(hi, Float::i_exp(1, -(p as i32) - 40));
    }
    got.is_finite() && err <= allowed
}

/// Runs `expanse bench limb --functions`.
pub fn run(args: &Args) -> CmdResult {
    let precs: Vec<u32> = match &args.precs {
        None => FN_PRECS.to_vec(),
        Some(list) => list
            .split(',')
            .map(|s| {
                let t = s.trim().trim_end_matches('b');
                match t.parse::<u32>() {
                    Ok(p) if fn_capacity(p).is_some() => Ok(p),
                    _ => Err(CliError::usage(format!(
                        "--precs: {s:?} is not a precision of the limb functions (2..≈3960 bits)"
                    ))),
                }
            })
            .collect::<Result<_, _>>()?,
    };
    let ctx = if args.gpu {
        let c = GpuContext::probe_devices(&DeviceSelection::List(vec![0])).map_err(|u| {
            CliError::usage(format!(
                "bench limb --functions --gpu: {u}; without --gpu the CPU limb type and MPFR are measured"
            ))
        })?;
        eprintln!("bench limb --functions --gpu: using {}", c.describe());
        Some(c)
    } else {
        None
    };
    let threads = rayon::current_num_threads();
    let target = 0.3 * args.scale;
    let count = 32 * threads;
    if !args.json {
        println!("expanse bench limb --functions: values per second of exp, ln, sin, cos (limb floats: expanse_core::limb::functions; MPFR correctly rounded); CPU limb type and MPFR on {threads} threads in the same run{}", if ctx.is_some() { "; GPU 0 one thread per value, transfers included" } else { "" });
        println!("| fn | bits | limbs | CPU limb /s | MPFR /s | CPU limb / MPFR | GPU /s | GPU / CPU | GPU ≠ CPU | ≠ MPFR (correctly rounded) | bound violations |");
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    }
    let mut rows = Vec::new();
    let mut bad = 0u64;
    for &p in &precs {
        for f in LimbFn::ALL {
            let xs = arguments(f, p, count);
            let packed = LimbArrays::pack(&xs, p);
            let rug_xs: Vec<Float> = xs.iter().map(|x| x.to_rug()).collect();
            let mut cpu_out = None;
            let cpu = rate(count, target, || {
                cpu_out = Some(cpu_fn(f, &packed));
            });
            let cpu_out = cpu_out
                .expect("ran at least once")
                .map_err(|e| CliError::usage(format!("bench limb --functions: {e}")))?;
            let mpfr = rate(count, target, || {
                let v: Vec<Float> = rug_xs.par_iter().map(|x| mpfr_value(f, x, p)).collect();
                std::hint::black_box(v);
            });
            let cpu_vals: Vec<Float> = (0..count)
                .map(|i| cpu_out.get(i).map_or(Float::new(p), |v| v.to_rug()))
                .collect();
            let not_cr = (0..count)
                .into_par_iter()
                .filter(|&i| {
                    let m = mpfr_value(f, &rug_xs[i], p);
                    m != cpu_vals[i]
                })
                .count() as u64;
            let violations = args.check.then(|| {
                (0..count)
                    .into_par_iter()
                    .filter(|&i| !within_bound(f, &rug_xs[i], &cpu_vals[i], p))
                    .count() as u64
            });
            let (gpu, gpu_vs_cpu) = match &ctx {
                None => (None, None),
                Some(c) => {
                    let n = (c.devices()[0].multiprocessors.max(1) as usize) * 128;
                    let gx = arguments(f, p, n);
                    let gpacked = LimbArrays::pack(&gx, p);
                    // The first call compiles the program.
                    c.eval_limb_fn(f, &LimbArrays::pack(&gx[..64], p))
                        .map_err(gpu_err)?;
                    let t = Instant::now();
                    let out = c.eval_limb_fn(f, &gpacked).map_err(gpu_err)?;
                    let g = n as f64 / t.elapsed().as_secs_f64();
                    let want = cpu_fn(f, &gpacked)
                        .map_err(|e| CliError::usage(format!("bench limb --functions: {e}")))?;
                    let miss = (0..n).filter(|&i| !same_element(&out, &want, i)).count() as u64;
                    (Some(g), Some(miss))
                }
            };
            bad += gpu_vs_cpu.unwrap_or(0) + violations.unwrap_or(0);
            let row = Row {
                function: f.name(),
                prec: p,
                limbs: fn_capacity(p).unwrap_or(0),
                threads,
                elements: count,
                cpu_per_s: cpu,
                mpfr_per_s: mpfr,
                gpu_per_s: gpu,
                gpu_vs_cpu,
                not_correctly_rounded: not_cr,
                bound_violations: violations,
            };
            if !args.json {
                let opt = |v: Option<String>| v.unwrap_or("–".into());
                println!(
                    "| {} | {} | {} | {:.3e} | {:.3e} | {:.2} | {} | {} | {} | {} of {} | {} |",
                    row.function,
                    row.prec,
                    row.limbs,
                    row.cpu_per_s,
                    row.mpfr_per_s,
                    row.cpu_per_s / row.mpfr_per_s,
                    opt(row.gpu_per_s.map(|g| format!("{g:.3e}"))),
                    opt(row.gpu_per_s.map(|g| format!("{:.1}", g / row.cpu_per_s))),
                    opt(row.gpu_vs_cpu.map(|m| m.to_string())),
                    row.not_correctly_rounded,
                    row.elements,
                    opt(row.bound_violations.map(|m| m.to_string())),
                );
                let _ = std::io::stdout().flush();
            }
            rows.push(row);
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "bench": "limb-functions",
                "rows": rows,
            }))
            .expect("rows serialise")
        );
    } else if ctx.is_some() {
        println!(
            "GPU and CPU identical: {}",
            if rows.iter().all(|r| r.gpu_vs_cpu == Some(0)) {
                "yes"
            } else {
                "no"
            }
        );
    }
    if bad > 0 {
        eprintln!("bench limb --functions: {bad} GPU mismatches or bound violations");
        return Ok(Outcome::NotEstablished);
    }
    Ok(Outcome::Success)
}
