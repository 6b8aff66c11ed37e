//! `expanse demo`: the whole chain on a built-in example. It searches two small parameter
//! regions at b = 0.3 that hold sinks of different periods (a ≈ 1.0: period 4; a ≈ 1.25:
//! period 7; MATH.md §5), proves the candidates, re-checks the certificates with `verify`,
//! writes the report, and prints where everything is.
//!
//! Each step runs the same code as its subcommand, driven through the flags documented in
//! ARCHITECTURE.md (`search --a lo..hi --a-steps …`, `prove FILE --out DIR`, `verify FILES`),
//! so the demo exercises exactly what a user runs and only this file's argument lists change
//! if a flag does.
use super::{prove, report, search, CliError, CmdResult, Outcome};
use clap::Parser;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `expanse demo`.
#[derive(clap::Args)]
pub struct Args {
    /// Output folder (candidates, certificates, report).
    #[arg(long, value_name = "DIR", default_value = "out/demo")]
    pub out: PathBuf,
    /// Backend for the search: auto (GPU when usable, else all CPU cores), cpu or gpu.
    #[arg(long, default_value = "auto")]
    pub backend: String,
    /// A smaller configuration (fewer parameters and initial points), for tests.
    #[arg(long)]
    pub quick: bool,
    /// Write into an output folder that already holds files.
    #[arg(long)]
    pub force: bool,
}

/// One search region of the built-in example.
struct Region {
    /// Short name used for the candidates file.
    name: &'static str,
    /// `--a` range `lo..hi`.
    a: &'static str,
    /// Number of a values in the range.
    steps: u32,
    /// What is known to be there (MATH.md §5).
    expect: &'static str,
}

const REGIONS: [Region; 3] = [
    Region {
        name: "near-a1.0",
        a: "0.97..1.05",
        steps: 9,
        expect: "period-4 sink at a = 1.0, doubling to period 8 above a ≈ 1.03",
    },
    Region {
        name: "near-a1.25",
        a: "1.23..1.26",
        steps: 7,
        expect: "period-7 window a ∈ [1.2266, 1.2541]",
    },
    Region {
        name: "near-a1.30",
        a: "1.295..1.305",
        steps: 5,
        expect: "a second period-7 window near a ≈ 1.30",
    },
];

#[derive(Parser)]
#[command(no_binary_name = true)]
struct SearchCli {
    #[command(flatten)]
    args: search::Args,
}

#[derive(Parser)]
#[command(no_binary_name = true)]
struct ProveCli {
    #[command(flatten)]
    args: prove::Args,
}

#[derive(Parser)]
#[command(no_binary_name = true)]
struct VerifyCli {
    #[command(flatten)]
    args: prove::VerifyArgs,
}

fn parse<P: Parser>(step: &str, argv: &[String]) -> Result<P, CliError> {
    P::try_parse_from(argv).map_err(|e| {
        CliError::failed(format!(
            "demo: the {step} step could not be set up (expanse {step} {}): {}",
            argv.join(" "),
            e.to_string().lines().next().unwrap_or("")
        ))
    })
}

fn s(x: impl AsRef<std::ffi::OsStr>) -> String {
    x.as_ref().to_string_lossy().into_owned()
}

/// Runs the search over the built-in regions; returns the candidate files.
fn run_search(out: &Path, backend: &str, quick: bool) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    // The quick configuration: the first two regions, three values of a each.
    let regions = if quick { &REGIONS[..2] } else { &REGIONS[..] };
    for r in regions {
        let file = out.join(format!("candidates-{}.jsonl", r.name));
        let steps = if quick { 3 } else { r.steps };
        let argv: Vec<String> = vec![
            "--a".into(),
            r.a.into(),
            "--a-steps".into(),
            steps.to_string(),
            "--b".into(),
            "0.3".into(),
            "--inits".into(),
            if quick { "4" } else { "16" }.into(),
            "--transient".into(),
            if quick { "2000" } else { "10000" }.into(),
            "--pmax".into(),
            "64".into(),
            "--prec".into(),
            "dd".into(),
            "--backend".into(),
            backend.into(),
            "--out".into(),
            s(&file),
        ];
        println!("demo: search {} ({})", r.a, r.expect);
        let cli: SearchCli = parse("search", &argv)?;
        search::run(cli.args)?;
        files.push(file);
    }
    Ok(files)
}

/// Proves every candidate file into its own folder under `certs` (certificate names restart
/// for each candidates file).
fn run_prove(cands: &[PathBuf], certs: &Path) -> Result<(), CliError> {
    for c in cands {
        let sub = certs.join(c.file_stem().unwrap_or_default());
        let argv = vec![s(c), "--out".into(), s(&sub)];
        let cli: ProveCli = parse("prove", &argv)?;
        // Exit status 1 (some candidate not proved) is a result, not a failure of the demo.
        prove::run(cli.args)?;
    }
    Ok(())
}

/// Certificate files under `certs` (recursively), sorted.
fn cert_files(certs: &Path) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else {
            return;
        };
        for p in rd.filter_map(|e| e.ok().map(|e| e.path())) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "json") {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(certs, &mut v);
    v.sort();
    v
}

/// Runs `expanse demo`.
pub fn run(args: Args) -> CmdResult {
    let out = &args.out;
    if out.exists() && !out.is_dir() {
        return Err(CliError::usage(format!(
            "--out {}: exists and is not a folder",
            out.display()
        )));
    }
    let non_empty = std::fs::read_dir(out)
        .map(|mut r| r.next().is_some())
        .unwrap_or(false);
    if non_empty && !args.force {
        return Err(CliError::usage(format!(
            "--out {}: folder is not empty (use --force to reuse it, or --out DIR)",
            out.display()
        )));
    }
    if non_empty {
        // --force: start from a clean folder so old files do not mix into the report.
        for sub in ["certs", "report"] {
            let _ = std::fs::remove_dir_all(out.join(sub));
        }
        for r in &REGIONS {
            let _ = std::fs::remove_file(out.join(format!("candidates-{}.jsonl", r.name)));
        }
    }
    std::fs::create_dir_all(out)
        .map_err(|e| CliError::usage(format!("--out {}: cannot create: {e}", out.display())))?;
    let certs = out.join("certs");
    let report_dir = out.join("report");
    let t0 = Instant::now();

    let cands = run_search(out, &args.backend, args.quick)?;
    let t_search = t0.elapsed().as_secs_f64();

    println!("demo: prove the candidates");
    run_prove(&cands, &certs)?;
    let t_prove = t0.elapsed().as_secs_f64() - t_search;

    let files = cert_files(&certs);
    let verified = if files.is_empty() {
        false
    } else {
        println!("demo: verify {} certificates", files.len());
        let argv: Vec<String> = files.iter().map(s).collect();
        let cli: VerifyCli = parse("verify", &argv)?;
        prove::run_verify(cli.args)? == Outcome::Success
    };

    println!("demo: write the report");
    let mut inputs: Vec<PathBuf> = cands.clone();
    if certs.is_dir() {
        inputs.push(certs.clone());
    }
    let rep = report::make_report(&inputs, &[], &report_dir)?;
    let loaded = expanse_reports::load(&inputs).map_err(report::cli_error)?;
    let sink_periods: BTreeSet<u64> = loaded
        .certificates
        .iter()
        .filter(|c| c.status == expanse_reports::Status::Sink)
        .map(|c| c.period)
        .collect();
    let n_sinks = loaded
        .certificates
        .iter()
        .filter(|c| c.status == expanse_reports::Status::Sink)
        .count();
    let total = t0.elapsed().as_secs_f64();

    println!();
    println!("expanse demo: finished in {total:.1} s");
    println!(
        "  search : {} candidates in {:.1} s → {}",
        loaded.candidates.len(),
        t_search,
        cands
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  prove  : {} certificates, {} sinks of periods {:?} in {:.1} s → {}",
        loaded.certificates.len(),
        n_sinks,
        sink_periods,
        t_prove,
        certs.display()
    );
    println!(
        "  verify : {}",
        if verified {
            "every certificate re-checked and valid"
        } else {
            "NOT all certificates valid"
        }
    );
    println!(
        "  report : {} files → {}",
        rep.entries.len(),
        report_dir.join("index.md").display()
    );
    if verified && sink_periods.len() >= 2 {
        Ok(Outcome::Success)
    } else {
        eprintln!(
            "expanse demo: expected verified sinks of at least two different periods, got {sink_periods:?}"
        );
        Ok(Outcome::NotEstablished)
    }
}
