//! `expanse search` and `expanse merge`: parse the flags into an `expanse_search` spec, pick a
//! backend, run, show progress (a bar on a terminal, plain lines otherwise, nothing with
//! `--quiet`) and print the summary. All the work and all file handling is in the library.
use super::{CliError, CmdResult, Outcome};
use expanse_search::backend::{select_backend, BackendChoice, RunBreakdown};
use expanse_search::engine::{merge, run_search, Progress, RunOptions, Shard};
use expanse_search::files::Summary;
use expanse_search::spec::{RawSpec, SearchSpec};
use expanse_search::{Error, ErrorKind};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `expanse search`.
#[derive(clap::Args)]
pub struct Args {
    /// Parameter a: a value (1.25), a list (1.0,1.25) or a range lo..hi with --a-steps.
    #[arg(long, allow_hyphen_values = true)]
    pub a: String,
    /// Parameter b: a value, a list or a range lo..hi with --b-steps.
    #[arg(long, allow_hyphen_values = true)]
    pub b: String,
    /// Number of grid points of an a range (≥ 2).
    #[arg(long)]
    pub a_steps: Option<u64>,
    /// Number of grid points of a b range (≥ 2).
    #[arg(long)]
    pub b_steps: Option<u64>,
    /// Random initial points per parameter (uniform in [−1.3, 1.3] × [−0.4, 0.4], seeded).
    #[arg(long, default_value_t = 8)]
    pub inits: u64,
    /// An initial point x,y tried first for every parameter (repeatable).
    #[arg(long = "init-point", allow_hyphen_values = true)]
    pub init_point: Vec<String>,
    /// Transient length N_t (a whole number; 1e9 is accepted).
    #[arg(long, default_value = "1e5")]
    pub transient: String,
    /// Largest period looked for.
    #[arg(long, default_value_t = 64)]
    pub pmax: u64,
    /// Return tolerance (default 1e-10 for f64 terms, 1e-5 for f32).
    #[arg(long)]
    pub tol: Option<String>,
    /// Precision: f64, dd, td, qd, a number of terms 1..8, or bits NNNb (64..4096, e.g.
    /// 848b: the correctly rounded multi-limb float, on the CPU and the GPU alike).
    #[arg(long, default_value = "dd")]
    pub prec: String,
    /// Term type of the expansions: f64 or f32.
    #[arg(long, default_value = "f64")]
    pub base: String,
    /// Escape bound: an orbit with |x| or |y| above it has escaped.
    #[arg(long, default_value = "1e3")]
    pub escape: String,
    /// Backend: auto (GPU when usable, else CPU), cpu or gpu.
    #[arg(long, default_value = "auto")]
    pub backend: String,
    /// GPUs to use: all, or a list of device indices (0,1).
    #[arg(long, default_value = "all")]
    pub devices: String,
    /// Seed of the random initial points.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Candidates file (JSON Lines); FILE.manifest.json and FILE.checkpoint go with it.
    #[arg(long, default_value = "candidates.jsonl")]
    pub out: PathBuf,
    /// Continue an interrupted run of the same search.
    #[arg(long)]
    pub resume: bool,
    /// Overwrite existing output.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Run shard I of N (0-based, I/N) of the parameter set.
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
    /// Parameters per chunk (the unit of checkpointing); default about 2^30 iterations.
    #[arg(long)]
    pub chunk_size: Option<u64>,
    /// Print where the time went: kernel compile, uploads, kernels (split into transient,
    /// close-return and confirmation by the threads' cycles), downloads, host work, the
    /// engine's files; and the kernel-only rate beside the end-to-end one.
    #[arg(long)]
    pub profile: bool,
}

/// Arguments of `expanse merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Candidate files of the shards (each with its .manifest.json).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The merged candidates file.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite existing output.
    #[arg(long)]
    pub force: bool,
}

fn to_cli(e: Error) -> CliError {
    match e.kind {
        ErrorKind::Io => CliError::failed(e.message),
        _ => CliError::usage(e.message),
    }
}

/// Renders progress on stderr: a bar on a terminal, plain lines (at most every 5 s) otherwise.
struct ProgressView {
    tty: bool,
    last: Option<Instant>,
}

impl ProgressView {
    fn show(&mut self, p: &Progress) {
        if let Some(pid) = p.took_over_lock_of {
            eprintln!(
                "expanse search: note: took over the lock file left by process {pid}, which no longer holds it (a killed run)"
            );
            return;
        }
        let rate = p.iterations as f64 / p.elapsed.as_secs_f64().max(1e-9);
        let frac = p.chunks_done as f64 / p.chunks_total.max(1) as f64;
        let run = p.chunks_done - p.chunks_resumed;
        let left = p.chunks_total - p.chunks_done;
        let eta = if run > 0 {
            Duration::from_secs_f64(p.elapsed.as_secs_f64() / run as f64 * left as f64)
        } else {
            Duration::ZERO
        };
        let eta = format!(
            "{}:{:02}:{:02}",
            eta.as_secs() / 3600,
            eta.as_secs() / 60 % 60,
            eta.as_secs() % 60
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let width = 30usize;
            let fill = ((frac * width as f64) as usize).min(width);
            let _ = write!(
                err,
                "\r[{}{}] {:5.1}%  chunk {}/{}  {:.3e} it/s  ETA {eta} ",
                "#".repeat(fill),
                ".".repeat(width - fill),
                100.0 * frac,
                p.chunks_done,
                p.chunks_total,
                rate
            );
            if p.chunks_done == p.chunks_total {
                let _ = writeln!(err);
            }
        } else {
            let due = self
                .last
                .is_none_or(|t| t.elapsed() >= Duration::from_secs(5));
            if due || p.chunks_done == p.chunks_total {
                self.last = Some(Instant::now());
                let _ = writeln!(
                    err,
                    "search: chunk {}/{} ({:.1}%), parameters {}/{}, {:.3e} it/s, ETA {eta}",
                    p.chunks_done,
                    p.chunks_total,
                    100.0 * frac,
                    p.params_done,
                    p.params_total,
                    rate
                );
            }
        }
    }
}

fn print_summary(s: &Summary) {
    println!(
        "parameters scanned: {}; orbits iterated: {} (escaped {}, no cycle {}, unconfirmed {}, cycle {})",
        s.params, s.orbits, s.escaped, s.no_cycle, s.unconfirmed, s.cycle
    );
    let by: Vec<String> = s
        .by_period
        .iter()
        .map(|(k, v)| format!("period {k}: {v}"))
        .collect();
    println!(
        "candidates: {} ({} attracting by the estimate){}{}",
        s.candidates,
        s.attracting,
        if by.is_empty() { "" } else { "; " },
        by.join(", ")
    );
}

/// Runs `expanse search`.
pub fn run(args: Args) -> CmdResult {
    let raw = RawSpec {
        a: args.a.clone(),
        b: args.b.clone(),
        a_steps: args.a_steps,
        b_steps: args.b_steps,
        inits: args.inits,
        init_points: args.init_point.clone(),
        seed: args.seed,
        transient: args.transient.clone(),
        pmax: args.pmax,
        tol: args.tol.clone(),
        escape: args.escape.clone(),
        prec: args.prec.clone(),
        base: args.base.clone(),
    };
    let spec = SearchSpec::from_raw(&raw).map_err(to_cli)?;
    let shard = Shard::parse(&args.shard).map_err(to_cli)?;
    let choice = BackendChoice::parse(&args.backend).map_err(to_cli)?;
    let selected = select_backend(choice, &args.devices).map_err(to_cli)?;
    if let Some(note) = &selected.note {
        if !args.quiet {
            eprintln!("search: {note}");
        }
    }
    let opts = RunOptions {
        out: args.out.clone(),
        resume: args.resume,
        force: args.force,
        shard,
        chunk_size: args.chunk_size,
        backend: selected.backend.describe(),
    };
    let mut view = ProgressView {
        tty: std::io::stderr().is_terminal(),
        last: None,
    };
    let quiet = args.quiet;
    // One-time work (the GPU's kernel compile and load) before the run, as `expanse bench gpu`
    // does before timing: the run's rate is that of the search, the setup is printed apart.
    let t = Instant::now();
    selected.backend.prepare(&spec.job).map_err(to_cli)?;
    let setup_s = t.elapsed().as_secs_f64();
    let report = run_search(&spec, &opts, selected.backend.as_ref(), &mut |p| {
        if !quiet || p.took_over_lock_of.is_some() {
            view.show(p)
        }
    })
    .map_err(to_cli)?;
    print_summary(&report.summary);
    println!(
        "rate: {:.3e} iterations/s ({} iterations in {:.3} s on {}){}",
        report.rate(),
        report.session_iterations,
        report.elapsed.as_secs_f64(),
        opts.backend,
        if report.chunks_resumed > 0 {
            format!(
                "; resumed after {} of {} chunks",
                report.chunks_resumed, report.chunks_total
            )
        } else {
            String::new()
        }
    );
    if setup_s >= 0.001 {
        println!("setup: {setup_s:.3} s before the run (kernel compile and load)");
    }
    if args.profile {
        match selected.backend.profile() {
            Some(p) => print_breakdown(&RunBreakdown::new(
                report.elapsed.as_secs_f64(),
                report.session_iterations,
                &p,
            )),
            None => println!("profile: this backend keeps no account of its time"),
        }
    }
    println!("wrote {}", args.out.display());
    Ok(Outcome::Success)
}

/// Prints `--profile`'s account of the run.
fn print_breakdown(b: &RunBreakdown) {
    let pct = |s: f64| 100.0 * s / b.wall_s.max(1e-9);
    println!(
        "profile: wall {:.3} s in {} chunks, {} launches; largest launch {:.2} warps per SM sub-partition",
        b.wall_s, b.chunks, b.launches, b.warps_per_scheduler
    );
    let rows = [
        ("kernel compile + load in the run", b.setup_s),
        ("uploads", b.upload_s),
        ("kernels", b.kernel_s),
        ("  transient (thread-cycle share)", b.phases_s[0]),
        ("  close-return search", b.phases_s[1]),
        ("  confirmation", b.phases_s[2]),
        ("downloads", b.download_s),
        ("host work on records", b.host_s),
        ("backend, other", b.backend_other_s),
        ("engine (files, lines; not overlapped)", b.engine_s),
    ];
    for (what, s) in rows {
        println!("profile:   {what:<40} {s:>9.3} s  {:>5.1} %", pct(s));
    }
    let k = b.kernel_rate();
    let e = b.end_to_end_rate();
    println!(
        "profile: kernel-only rate {k:.3e} iterations/s; end-to-end {e:.3e} ({:.1} % of kernel-only)",
        if k > 0.0 { 100.0 * e / k } else { 0.0 }
    );
}

/// Runs `expanse merge`.
pub fn run_merge(args: MergeArgs) -> CmdResult {
    let total = merge(&args.inputs, &args.out, args.force).map_err(to_cli)?;
    print_summary(&total);
    println!(
        "merged {} shard files into {}",
        args.inputs.len(),
        args.out.display()
    );
    Ok(Outcome::Success)
}
