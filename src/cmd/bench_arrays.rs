//! `expanse bench arrays`: the array layer (`expanse_gpu::array`) on the GPU when one is usable
//! and on the CPU backend always: bandwidth of map (one add, `add_into`), reduce (sum) and scan
//! (`scan_into`) into preallocated outputs against a copy into a preallocated array measured in
//! the same run (N = 2 and 4, 10^8 elements on the GPU), and the allocating forms beside them
//! (rows marked "(alloc)");
//! GEMV time per call at M = N = 1000 for N = 2, 4, 8; GEMM at n = 4096 (GPU; a smaller n on
//! the CPU) for N = 2 and 4 with the fraction of the FP64 instruction ceiling; sort rate
//! (N = 2, 10^8 keys on the GPU). `--scale` shrinks every size, `--json` prints the rows.
//!
//! `--check` instead runs the GPU/CPU identity check of every primitive and BLAS routine for
//! every N = 1..8 (or the N of `--terms`, e.g. `2,4`) and both term types
//! (`expanse_gpu::array::check::compare`; `map` with
//! elementary functions at N = 2 only: the functions' own identity for every N is `bench
//! functions --check`, and their programs are slow to compile) and exits 1 on any difference;
//! it needs a GPU (exit 2 without one).

use super::{bench::Args, CliError, CmdResult, Outcome};
use expanse_core::Expansion;
use expanse_gpu::array::{blas, Arrays, ExpArray, ScanKind, TermKind, Transpose};
use expanse_gpu::par;
use expanse_gpu::{DeviceSelection, GpuContext, GpuError};
use std::time::Instant;

/// FP64 instruction ceiling of an H100/H200 (132 SMs × 64 FP64 lanes × 1.98 GHz), as in
/// `bench gpu`.
const FP64_CEILING: f64 = 1.67e13;

/// FP64 instructions per multiply-add of the GEMM fold as *executed* on the device: Nsight
/// Compute's thread-level counts of DADD + DFMA + DMUL (predicated on) over one whole GEMM
/// launch, divided by n³ (H100, n = 1888, the bench's data; `gpu/tools/ncu_arrays.sh`):
/// N = 2: 50.98 (the source count of the nominal path is 47: DWTimesDW with its input
/// Fast2Sums, AccurateDWPlusDW, the two bound sums); N = 4: 373.2 (the nominal path's source
/// count is ≈ 312; the rest is second VecSum passes of certified renormalisations that the
/// bench's operands need). The fraction of the ceiling printed is these counts times the
/// multiply-adds per second over [`FP64_CEILING`].
fn fp64_per_madd(n: usize) -> Option<f64> {
    match n {
        2 => Some(50.98),
        4 => Some(373.2),
        _ => None,
    }
}

fn gpu_err(e: GpuError) -> CliError {
    CliError::failed(format!("bench arrays: {e}"))
}

/// Runs `expanse bench arrays`.
pub fn run(args: &Args) -> CmdResult {
    let sel: DeviceSelection = args.devices.parse().map_err(CliError::usage)?;
    let gpu = match GpuContext::probe_devices(&sel) {
        Ok(ctx) => {
            let a = Arrays::gpu(ctx);
            eprintln!("bench arrays: using {}", a.describe());
            Some(a)
        }
        Err(u) => {
            if args.check {
                return Err(CliError::usage(format!(
                    "bench arrays --check: {u}; the identity check needs a GPU"
                )));
            }
            eprintln!("bench arrays: {u}; measuring the CPU backend only");
            None
        }
    };
    if args.check {
        let terms = super::bench::parse_terms(args.terms.as_deref())?;
        return check(gpu.as_ref().expect("checked above"), args.scale, &terms);
    }
    bench(gpu.as_ref(), args)
}

// ---- identity check ------------------------------------------------------------------------

fn check(gpu: &Arrays, scale: f64, terms: &[usize]) -> CmdResult {
    let mut bad = 0usize;
    for kind in [TermKind::F64, TermKind::F32] {
        for &n in terms {
            // Hundreds of reduction and scan tiles (the scan's lookback under real concurrency),
            // many sort merge passes; smaller at large N, where the host side is slow.
            let base = if n <= 4 { 1 << 20 } else { 1 << 18 };
            let len = ((base as f64 + 12345.0) * scale.min(1.0)).max(8000.0) as usize;
            let t0 = Instant::now();
            let diffs =
                expanse_gpu::array::check::compare(gpu, kind, n, len, 1000 + n as u64, n == 2)
                    .map_err(gpu_err)?;
            let what = format!(
                "N={n} {}",
                if kind == TermKind::F64 { "f64" } else { "f32" }
            );
            if diffs.is_empty() {
                println!(
                    "{what}: identical ({len} elements, every primitive and BLAS routine{}, {:.1} s)",
                    if n == 2 { ", map with exp/ln/sin/atan" } else { "" },
                    t0.elapsed().as_secs_f64()
                );
            } else {
                bad += diffs.len();
                for d in diffs {
                    println!("MISMATCH {d}");
                }
            }
        }
    }
    if bad == 0 {
        println!(
            "bench arrays --check: GPU and CPU backends identical for N = {terms:?} and both term types"
        );
        Ok(Outcome::Success)
    } else {
        println!("bench arrays --check: {bad} routines differ");
        Ok(Outcome::NotEstablished)
    }
}

// ---- data --------------------------------------------------------------------------------------

/// A fast deterministic generator for benchmark data.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

/// A random value in [−1, 1) with a full N-term tail.
fn value<const N: usize>(i: u64) -> Expansion<f64, N> {
    let mut t = [0.0f64; N];
    for (k, v) in t.iter_mut().enumerate() {
        let r = mix(i * 8 + k as u64);
        *v = ((r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * 2f64.powi(-53 * k as i32);
    }
    Expansion::from_terms(t)
}

/// `len` elements, interleaved: a block of `distinct` values repeated (all distinct for the
/// sort; a block of 2^16 is enough for the bandwidth timings).
fn array_of<const N: usize>(
    arrays: &Arrays,
    len: usize,
    distinct: usize,
) -> Result<ExpArray<f64, N>, CliError> {
    let distinct = distinct.clamp(1, len.max(1));
    let block: Vec<Expansion<f64, N>> = par::map_index(distinct, 4096, |i| value::<N>(i as u64));
    let mut terms = vec![0.0f64; len * N];
    par::for_each_chunk(&mut terms, len.max(1), |k, plane| {
        for (i, t) in plane.iter_mut().enumerate() {
            *t = block[i % block.len()].terms()[k];
        }
    });
    arrays.array_from_interleaved(len, terms).map_err(gpu_err)
}

/// Best of `reps` timings of `f` (seconds), after one warm-up run (which compiles kernels).
fn time(
    arrays: &Arrays,
    reps: usize,
    mut f: impl FnMut() -> Result<(), GpuError>,
) -> Result<f64, CliError> {
    f().map_err(gpu_err)?;
    arrays.synchronize().map_err(gpu_err)?;
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let t0 = Instant::now();
        f().map_err(gpu_err)?;
        arrays.synchronize().map_err(gpu_err)?;
        best = best.min(t0.elapsed().as_secs_f64());
    }
    Ok(best)
}

#[derive(serde::Serialize)]
struct Row {
    table: &'static str,
    backend: String,
    n: usize,
    size: usize,
    op: &'static str,
    seconds: f64,
    /// GB/s (bandwidth rows), multiply-adds per second (GEMM), keys per second (sort).
    rate: f64,
    /// Fraction of the copy bandwidth (bandwidth rows, GEMV) or of the FP64 ceiling (GEMM).
    fraction: Option<f64>,
    note: String,
}

// ---- the benchmark -----------------------------------------------------------------------------

fn bench(gpu: Option<&Arrays>, args: &Args) -> CmdResult {
    let cpu = Arrays::cpu();
    let s = args.scale;
    let mut rows: Vec<Row> = Vec::new();
    let mut backends: Vec<(&Arrays, bool)> = Vec::new();
    if let Some(g) = gpu {
        backends.push((g, true));
    }
    backends.push((&cpu, false));
    for &(arrays, is_gpu) in &backends {
        let name = if is_gpu { "GPU" } else { "CPU" };
        let len = ((if is_gpu { 1e8 } else { 4e6 }) * s).max(4096.0) as usize;
        bandwidth::<2>(arrays, name, len, &mut rows)?;
        bandwidth::<4>(arrays, name, len, &mut rows)?;
        let copy_gbps = rows
            .iter()
            .rev()
            .find(|r| r.backend == name && r.op == "copy")
            .map(|r| r.rate)
            .unwrap_or(f64::NAN);
        let side = ((1000.0 * s.sqrt().min(1.0)) as usize).max(64);
        gemv::<2>(arrays, name, side, copy_gbps, &mut rows)?;
        gemv::<4>(arrays, name, side, copy_gbps, &mut rows)?;
        gemv::<8>(arrays, name, side, copy_gbps, &mut rows)?;
        let n = if is_gpu {
            ((4096.0 * s.cbrt()) as usize / 32 * 32).max(64)
        } else {
            ((256.0 * s.cbrt()) as usize).max(32)
        };
        gemm::<2>(arrays, name, n, is_gpu, &mut rows)?;
        gemm::<4>(
            arrays,
            name,
            if is_gpu { n } else { n / 2 },
            is_gpu,
            &mut rows,
        )?;
        let keys = ((if is_gpu { 1e8 } else { 4e6 }) * s).max(4096.0) as usize;
        sort(arrays, name, keys, &mut rows)?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"bench": "arrays", "rows": rows}))
                .map_err(|e| CliError::failed(format!("bench arrays: {e}")))?
        );
    } else {
        print_tables(&rows);
    }
    Ok(Outcome::Success)
}

fn bandwidth<const N: usize>(
    arrays: &Arrays,
    name: &str,
    len: usize,
    rows: &mut Vec<Row>,
) -> Result<(), CliError> {
    let x = array_of::<N>(arrays, len, 1 << 16)?;
    let y = x.try_clone().map_err(gpu_err)?;
    // Preallocated outputs: the kernel rows time the kernels, not the allocator.
    let mut z = arrays.zeros::<f64, N>(len).map_err(gpu_err)?;
    let mut c = arrays.zeros::<f64, N>(len).map_err(gpu_err)?;
    let bytes = (len * N * 8) as f64;
    let reps = 3;
    let t_copy = time(arrays, reps, || c.copy_from(&x))?;
    let t_add = time(arrays, reps, || x.add_into(&y, &mut z))?;
    let t_sum = time(arrays, reps, || x.sum().map(|_| ()))?;
    let t_scan = time(arrays, reps, || x.scan_into(ScanKind::Inclusive, &mut z))?;
    // The allocating forms (a new output array per call), for comparison.
    let t_copy_alloc = time(arrays, reps, || x.try_clone().map(|_| ()))?;
    let t_add_alloc = time(arrays, reps, || x.add(&y).map(|_| ()))?;
    let t_scan_alloc = time(arrays, reps, || x.scan(ScanKind::Inclusive).map(|_| ()))?;
    let copy = 2.0 * bytes / t_copy / 1e9;
    for (op, t, moved, note) in [
        (
            "copy",
            t_copy,
            2.0 * bytes,
            "copy into a preallocated array (device-to-device; read + write)",
        ),
        (
            "map add",
            t_add,
            3.0 * bytes,
            "add_into, z = x + y preallocated: reads 2, writes 1",
        ),
        (
            "reduce sum",
            t_sum,
            bytes,
            "reads 1 (partials: one per 2048)",
        ),
        (
            "scan",
            t_scan,
            2.0 * bytes,
            "scan_into, single pass: reads 1, writes 1 (scratch of 2 nodes per 2048 allocated)",
        ),
        (
            "copy (alloc)",
            t_copy_alloc,
            2.0 * bytes,
            "try_clone: allocates its output per call",
        ),
        (
            "map add (alloc)",
            t_add_alloc,
            3.0 * bytes,
            "add: allocates its output per call",
        ),
        (
            "scan (alloc)",
            t_scan_alloc,
            2.0 * bytes,
            "scan: allocates its output per call",
        ),
    ] {
        let gbps = moved / t / 1e9;
        rows.push(Row {
            table: "bandwidth",
            backend: name.into(),
            n: N,
            size: len,
            op,
            seconds: t,
            rate: gbps,
            fraction: Some(gbps / copy),
            note: note.into(),
        });
    }
    Ok(())
}

fn gemv<const N: usize>(
    arrays: &Arrays,
    name: &str,
    side: usize,
    copy_gbps: f64,
    rows: &mut Vec<Row>,
) -> Result<(), CliError> {
    let a_data: Vec<Expansion<f64, N>> =
        par::map_index(side * side, 4096, |i| value::<N>(i as u64));
    let x_data: Vec<Expansion<f64, N>> = (0..side as u64)
        .map(|i| value::<N>(i + (1 << 40)))
        .collect();
    let a = arrays.matrix(side, side, &a_data).map_err(gpu_err)?;
    let x = arrays.array(&x_data).map_err(gpu_err)?;
    let reps = if arrays.is_device() { 50 } else { 3 };
    for (trans, op) in [
        (Transpose::No, "gemv"),
        (Transpose::Yes, "gemv (transposed)"),
    ] {
        let t = time(arrays, reps, || {
            blas::gemv(trans, None, &a, &x, None, None).map(|_| ())
        })?;
        let gbps = (side * side * N * 8) as f64 / t / 1e9;
        let frac = gbps / copy_gbps;
        rows.push(Row {
            table: "gemv",
            backend: name.into(),
            n: N,
            size: side,
            op,
            seconds: t,
            rate: gbps,
            fraction: Some(frac),
            note: if frac > 0.5 {
                "bound by memory".into()
            } else {
                "bound by FP64 work and launch latency".into()
            },
        });
    }
    Ok(())
}

fn gemm<const N: usize>(
    arrays: &Arrays,
    name: &str,
    n: usize,
    is_gpu: bool,
    rows: &mut Vec<Row>,
) -> Result<(), CliError> {
    let a_data: Vec<Expansion<f64, N>> = par::map_index(n * n, 4096, |i| value::<N>(i as u64));
    let b_data: Vec<Expansion<f64, N>> =
        par::map_index(n * n, 4096, |i| value::<N>(i as u64 + (1 << 41)));
    let a = arrays.matrix(n, n, &a_data).map_err(gpu_err)?;
    let b = arrays.matrix(n, n, &b_data).map_err(gpu_err)?;
    let t = time(arrays, 1, || {
        blas::gemm(None, &a, &b, None, None).map(|_| ())
    })?;
    let madds = (n as f64).powi(3) / t;
    let fraction = if is_gpu {
        fp64_per_madd(N).map(|c| madds * c / FP64_CEILING)
    } else {
        None
    };
    rows.push(Row {
        table: "gemm",
        backend: name.into(),
        n: N,
        size: n,
        op: "gemm",
        seconds: t,
        rate: madds,
        fraction,
        note: match fp64_per_madd(N) {
            Some(c) if is_gpu => format!(
                "{c} FP64 instructions per multiply-add (executed, ncu count) vs {FP64_CEILING:.3e}/s"
            ),
            _ => String::new(),
        },
    });
    Ok(())
}

fn sort(arrays: &Arrays, name: &str, len: usize, rows: &mut Vec<Row>) -> Result<(), CliError> {
    let x = array_of::<2>(arrays, len, len)?;
    let t = time(arrays, 1, || x.sort().map(|_| ()))?;
    rows.push(Row {
        table: "sort",
        backend: name.into(),
        n: 2,
        size: len,
        op: "sort",
        seconds: t,
        rate: len as f64 / t,
        fraction: None,
        note: "stable, by exact value".into(),
    });
    Ok(())
}

fn print_tables(rows: &[Row]) {
    println!(
        "Bandwidth (GB/s; fraction of the copy into a preallocated array measured in the same \
         run; \"(alloc)\": the form that allocates its output per call)"
    );
    println!(
        "{:<4} {:>2} {:>11} {:<16} {:>10} {:>9} {:>8}",
        "", "N", "elements", "op", "time", "GB/s", "of copy"
    );
    for r in rows.iter().filter(|r| r.table == "bandwidth") {
        println!(
            "{:<4} {:>2} {:>11} {:<16} {:>8.3}ms {:>9.1} {:>7.1}%",
            r.backend,
            r.n,
            r.size,
            r.op,
            r.seconds * 1e3,
            r.rate,
            100.0 * r.fraction.unwrap_or(f64::NAN)
        );
    }
    println!();
    println!("GEMV, y = A·x with bounds, M = N = size (matrix GB/s; fraction of copy bandwidth)");
    for r in rows.iter().filter(|r| r.table == "gemv") {
        println!(
            "{:<4} N={} {:>5} {:<18} {:>9.4} ms {:>8.1} GB/s {:>6.1}%  {}",
            r.backend,
            r.n,
            r.size,
            r.op,
            r.seconds * 1e3,
            r.rate,
            100.0 * r.fraction.unwrap_or(f64::NAN),
            r.note
        );
    }
    println!();
    println!("GEMM, C = A·B with bounds, n × n");
    for r in rows.iter().filter(|r| r.table == "gemm") {
        let frac = r
            .fraction
            .map(|f| format!("{:.1}% of the FP64 ceiling", 100.0 * f))
            .unwrap_or_default();
        println!(
            "{:<4} N={} n={:<5} {:>9.3} s {:>10.3e} multiply-adds/s  {frac}",
            r.backend, r.n, r.size, r.seconds, r.rate
        );
    }
    println!();
    println!("Sort (N = 2, stable by exact value)");
    for r in rows.iter().filter(|r| r.table == "sort") {
        println!(
            "{:<4} {:>11} keys {:>9.3} s {:>10.3e} keys/s",
            r.backend, r.size, r.seconds, r.rate
        );
    }
}
