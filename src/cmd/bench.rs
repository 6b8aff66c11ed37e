//! `expanse bench cpu|gpu|prove|functions|limb`: dispatches to one module per target, each owning its
//! own measurements (`bench_cpu.rs`, `bench_gpu.rs`, `bench_prove.rs`, `bench_functions.rs`,
//! `bench_limb.rs`).
use super::{
    bench_arrays, bench_cpu, bench_functions, bench_gpu, bench_limb, bench_prove, CliError,
    CmdResult,
};

/// Arguments of `expanse bench`.
#[derive(clap::Args)]
pub struct Args {
    /// What to measure: `cpu`, `gpu`, `prove`, `functions` (elementary functions, one
    /// thread, against MPFR), `limb` (fixed-limb floats, one thread, against MPFR) or `arrays`
    /// (the array layer: bandwidth, GEMV, GEMM, sort; GPU when usable, and CPU).
    pub target: String,
    /// Print the results as JSON (for `expanse report`).
    #[arg(long)]
    pub json: bool,
    /// Scale factor for the amount of work (1.0 = default; smaller is quicker, noisier).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// `gpu` only: which GPUs to use, `all` or a list of ordinals such as `0,1`.
    #[arg(long, default_value = "all")]
    pub devices: String,
    /// `gpu` only: run the CPU/GPU identity check (every N, both term types) instead of the
    /// throughput benchmark; exit 1 if any record differs. `functions`: the same for the
    /// elementary functions and the accurate tier on the GPU against the CPU, bit for bit
    /// (every function, N = 1..8, both term types). `limb`: check every operation and
    /// rounding mode against MPFR bit for bit instead; exit 1 on any difference. `arrays`:
    /// GPU/CPU identity of every primitive and BLAS routine (N = 1..8, both term types).
    #[arg(long)]
    pub check: bool,
    /// `limb --check` only: operand sets per operation and precision (default 1000000).
    #[arg(long)]
    pub count: Option<u64>,
    /// `limb` only: the precisions in bits, comma-separated (e.g. `128,848b`).
    #[arg(long)]
    pub precs: Option<String>,
    /// `limb` only: run the GPU kernels on GPU 0 (with `--check`: against the CPU reference,
    /// bit for bit; without: element rates).
    #[arg(long)]
    pub gpu: bool,
    /// `limb` only: the Hénon iteration of `search --prec NNNb` at 424, 848 and 1696 bits (or
    /// `--precs`): CPU limb type and MPFR on all cores, and the GPU with `--gpu`; with
    /// `--check` also their final points and the search records compared bit for bit.
    #[arg(long)]
    pub henon: bool,
    /// `limb` only: exp, ln, sin and cos of the limb floats at 1330 and 3330 bits (or
    /// `--precs`): CPU limb type and MPFR on all cores, the GPU with `--gpu` (compared bit for
    /// bit with the CPU); with `--check` every result against its stated error bound.
    #[arg(long)]
    pub functions: bool,
    /// `limb --gpu` only: kernel-only rates (operands uploaded once, repeated launches) of
    /// add, mul and div, one thread per number against cooperative groups (mul, add), beside
    /// the CPU reference and MPFR on all cores; with `--check`, the group kernels against the
    /// CPU reference bit for bit.
    #[arg(long)]
    pub kernel: bool,
    /// `limb --gpu` only: GEMV y = A·x at M = N = 1000 (848 and 1696 bits, or `--precs`),
    /// time per call on the GPU against the CPU reference and MPFR (same operation order) on
    /// all cores; results compared bit for bit.
    #[arg(long)]
    pub gemv: bool,
    /// `functions`: the term counts N, comma-separated (e.g. `1,2`). With `--check`, the N
    /// checked for both term types (default every N = 1..8); without, the table's rows kept
    /// (default f64 N = 1, 2, 3, 4, 8 and f32 N = 2, 4). `arrays --check`: the N checked.
    #[arg(long)]
    pub terms: Option<String>,
    /// `functions` only: the functions measured, comma-separated names as the methods spell
    /// them (e.g. `exp,ln,sin,atan`; default all).
    #[arg(long)]
    pub select: Option<String>,
    /// `gpu` only (hidden): run seed 001's experiment (10^6 values of a in [1.3999, 1.4001],
    /// b = 0.3, 1024 initial points, 10^6 iterations, N = 1); `--scale` shrinks the a-grid.
    #[arg(long, hide = true)]
    pub experiment: bool,
    /// `gpu` and `functions` only (hidden): one small launch per kernel (`gpu`), or one
    /// warm-up and one timed launch per GPU measurement (`functions`), for a profiler (ncu) to
    /// count FP64 instructions (`gpu/tools/ncu_functions.sh`).
    #[arg(long, hide = true)]
    pub profile_launches: bool,
}

/// The term counts of `--terms` (comma-separated, each 1..=8; default all), for `functions`
/// and `arrays --check`.
pub(super) fn parse_terms(spec: Option<&str>) -> Result<Vec<usize>, CliError> {
    let Some(spec) = spec else {
        return Ok((1..=8).collect());
    };
    spec.split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if (1..=8).contains(&n) => Ok(n),
            _ => Err(CliError::usage(format!(
                "--terms: expected term counts 1..8 separated by commas (e.g. 2,4), got {t:?} in {spec:?}"
            ))),
        })
        .collect()
}

/// Runs `expanse bench`.
pub fn run(args: Args) -> CmdResult {
    if !(args.scale.is_finite() && args.scale > 0.0) {
        return Err(CliError::usage(format!(
            "--scale must be a positive number, got {}",
            args.scale
        )));
    }
    match args.target.as_str() {
        "cpu" => bench_cpu::run(&args),
        "gpu" => bench_gpu::run(&args),
        "prove" => bench_prove::run(&args),
        "functions" => bench_functions::run(&args),
        "limb" => bench_limb::run(&args),
        "arrays" => bench_arrays::run(&args),
        other => Err(CliError::usage(format!(
            "bench: unknown target {other:?}; expected cpu, gpu, prove, functions, limb or arrays"
        ))),
    }
}
