//! `expanse window`: the parameter window of a sink along a line through its parameter point —
//! a certified inner interval (a union of proved parameter segments, each with a certificate
//! `expanse verify` re-checks) and the estimated ends (saddle-node / period-doubling), as JSON.
//! The mathematics is in `expanse_prove::window`; parsing, files, progress and exit codes here.
//!
//! Exit codes: 0 a certified inner interval was found and both ends were estimated; 1 ran but
//! one of them was not established; 2 usage error or unusable input (naming the flag or file),
//! including a point that Newton's method does not bring onto a periodic orbit of the period
//! given (nothing to compute a window of).
use super::{CliError, CmdResult, Outcome};
use expanse_prove::candidates::{parse_file, parse_line};
use expanse_prove::cert::{certificate, write_atomic};
use expanse_prove::engine::Options;
use expanse_prove::numfmt::parse_decimal;
use expanse_prove::window::{window, window_json, EndKind, Start, WindowOptions};
use rug::Rational;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `expanse window`.
#[derive(clap::Args)]
pub struct Args {
    /// A certificate (JSON from `expanse prove`), a candidates file (JSON Lines, as
    /// `expanse prove` reads; see --line), or one candidate line given inline (`{"a": …}`).
    pub input: String,
    /// Direction of the line (a₀, b₀) + t·(DX, DY): `a` (1,0), `b` (0,1) or `DX,DY` (decimals).
    #[arg(long, default_value = "a", allow_hyphen_values = true)]
    pub along: String,
    /// Which candidate of a candidates file (1-based line number; needed when it has several).
    #[arg(long)]
    pub line: Option<usize>,
    /// Write the JSON here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the certificate of every proved segment into this folder.
    #[arg(long)]
    pub certs: Option<PathBuf>,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Relative tolerance of the certified interval: each end is extended until a segment
    /// shorter than this × the certified length would be needed.
    #[arg(long, default_value = "1e-6", allow_hyphen_values = true)]
    pub cert_tol: String,
    /// Relative accuracy in t of the estimated ends.
    #[arg(long, default_value = "1e-12", allow_hyphen_values = true)]
    pub est_tol: String,
    /// MPFR bits of the estimation.
    #[arg(long, default_value_t = 256)]
    pub bits: u32,
    /// Most proofs attempted for the certified interval.
    #[arg(long, default_value_t = 20_000)]
    pub max_proofs: usize,
    /// Skip the MPFR cross-check of each segment's proof (the certificates then say so).
    #[arg(long)]
    pub no_cross_check: bool,
    /// Only estimate the ends (no certified interval).
    #[arg(long)]
    pub estimates_only: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// A direction: the exact (dx, dy) and the text of each.
type Direction = ((Rational, Rational), (String, String));

fn direction(s: &str) -> Result<Direction, CliError> {
    let bad = |m: String| CliError::usage(format!("--along: {m}"));
    let (dx, dy) = match s.trim() {
        "a" => ("1".to_string(), "0".to_string()),
        "b" => ("0".to_string(), "1".to_string()),
        t => {
            let (x, y) = t
                .split_once(',')
                .ok_or_else(|| bad(format!("{t:?} is not a, b or DX,DY")))?;
            (x.trim().to_string(), y.trim().to_string())
        }
    };
    let qx = parse_decimal(&dx).map_err(|e| bad(e.message))?;
    let qy = parse_decimal(&dy).map_err(|e| bad(e.message))?;
    if qx == 0 && qy == 0 {
        return Err(bad("the direction must not be (0, 0)".into()));
    }
    Ok(((qx, qy), (dx, dy)))
}

fn tolerance(s: &str, flag: &str) -> Result<f64, CliError> {
    let q = parse_decimal(s).map_err(|e| CliError::usage(format!("{flag}: {}", e.message)))?;
    let v = q.to_f64();
    if !(v > 0.0 && v < 1.0) {
        return Err(CliError::usage(format!(
            "{flag} must be in (0, 1), got {s}"
        )));
    }
    Ok(v)
}

fn read_start(args: &Args) -> Result<Start, CliError> {
    let inp = args.input.trim();
    if inp.starts_with('{') && !std::path::Path::new(inp).exists() {
        let c = parse_line(inp, "command line", None).map_err(|e| CliError::usage(e.message))?;
        return Start::from_candidate(&c).map_err(|e| CliError::usage(e.message));
    }
    let path = &args.input;
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError::usage(format!("{path}: {e}")))?;
    // A certificate is one JSON object with a `schema` of certificates.
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
        if v.get("schema").and_then(|s| s.as_str()) == Some(expanse_prove::cert::SCHEMA) {
            if args.line.is_some() {
                return Err(CliError::usage(format!(
                    "--line: {path} is a certificate, not a candidates file"
                )));
            }
            return Start::from_certificate(&v, path).map_err(|e| CliError::usage(e.message));
        }
    }
    let items = parse_file(&text, path, None);
    if items.is_empty() {
        return Err(CliError::usage(format!("{path}: no candidates")));
    }
    let item = match args.line {
        None if items.len() > 1 => {
            return Err(CliError::usage(format!(
                "{path} has {} candidates: choose one with --line N",
                items.len()
            )))
        }
        None => items.into_iter().next(),
        Some(n) => {
            let want = format!("{path}:{n}");
            items.into_iter().find(|r| match r {
                Ok(c) => c.source == want,
                Err(e) => e.message.starts_with(&format!("{want}:")),
            })
        }
    }
    .ok_or_else(|| CliError::usage(format!("--line: {path} has no candidate on that line")))?;
    let c = item.map_err(|e| CliError::usage(e.message))?;
    Start::from_candidate(&c).map_err(|e| CliError::usage(e.message))
}

/// Runs `expanse window`.
pub fn run(args: Args) -> CmdResult {
    let (dir, dir_text) = direction(&args.along)?;
    let cert_tol = tolerance(&args.cert_tol, "--cert-tol")?;
    let est_tol = tolerance(&args.est_tol, "--est-tol")?;
    if !(64..=1 << 16).contains(&args.bits) {
        return Err(CliError::usage("--bits must be in 64..=65536"));
    }
    if let Some(out) = &args.out {
        if out.exists() && !args.force {
            return Err(CliError::usage(format!(
                "--out {} exists (use --force to overwrite)",
                out.display()
            )));
        }
    }
    let start = read_start(&args)?;
    if let Some(d) = &args.certs {
        std::fs::create_dir_all(d)
            .map_err(|e| CliError::usage(format!("--certs {}: {e}", d.display())))?;
    }
    let opts = WindowOptions {
        cert_rel_tol: cert_tol,
        est_rel_tol: est_tol,
        bits: args.bits,
        max_proofs: args.max_proofs,
        prove: Options {
            cross_check: !args.no_cross_check,
            ..Options::default()
        },
        estimates_only: args.estimates_only,
    };
    let quiet = args.quiet;
    let mut progress = |m: &str| {
        if !quiet {
            eprintln!("window: {m}");
        }
    };
    let w = window(&start, dir, dir_text, &opts, &mut progress)
        .map_err(|e| CliError::usage(e.message))?;
    let mut names = Vec::new();
    if let Some(d) = &args.certs {
        for (k, seg) in w.segments.iter().enumerate() {
            let path = d.join(format!("window-p{}-seg{:05}.json", start.period, k + 1));
            write_atomic(&path, &certificate(&seg.proof), args.force)
                .map_err(|e| CliError::usage(format!("--certs: {}", e.message)))?;
            names.push(Some(path.display().to_string()));
        }
    }
    let json = window_json(&w, &names);
    let text = serde_json::to_string_pretty(&json).map_err(|e| CliError::failed(e.to_string()))?;
    match &args.out {
        Some(out) => write_atomic(out, &json, args.force)
            .map_err(|e| CliError::usage(format!("--out: {}", e.message)))?,
        None => {
            let mut so = std::io::stdout().lock();
            writeln!(so, "{text}").map_err(|e| CliError::failed(e.to_string()))?;
        }
    }
    if !quiet {
        match w.certified() {
            Some((lo, hi)) => eprintln!(
                "window: certified t in [{}, {}] ({} segments, {} proofs)",
                expanse_prove::window::exact_decimal(&lo).unwrap_or_default(),
                expanse_prove::window::exact_decimal(&hi).unwrap_or_default(),
                w.segments.len(),
                w.proofs_tried
            ),
            None if !args.estimates_only => eprintln!("window: no segment was proved"),
            None => {}
        }
    }
    let ends_ok = w.ends.iter().all(|e| e.kind != EndKind::NotFound);
    let cert_ok = args.estimates_only || w.certified().is_some();
    Ok(if ends_ok && cert_ok {
        Outcome::Success
    } else {
        Outcome::NotEstablished
    })
}
