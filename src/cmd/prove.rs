//! `expanse prove` and `expanse verify`: the command-line side of the prove stage. Parsing,
//! printing and exit codes live here; the mathematics is in `expanse-prove`.
//!
//! `prove` exit codes: 0 every candidate was proved a sink; 1 some candidate was not (proved
//! unstable, or not proved); 2 bad input (a bad candidate line is reported with its number,
//! the other candidates still run, and the exit code is 2 at the end).
//! `verify` exit codes: 0 every certificate valid; 1 some certificate not valid; 2 some file
//! unusable (unreadable, not JSON, unknown schema, missing fields).
use super::{CliError, CmdResult, Outcome};
use expanse_prove::candidates::{parse_file, parse_line};
use expanse_prove::cert::{certificate, write_atomic};
use expanse_prove::engine::{prove, Candidate, Options, Proof, Status};
use expanse_prove::numfmt::{parse_decimal, to_short_decimal};
use expanse_prove::verify::{verify_text, Verdict};
use rug::Rational;
use std::path::PathBuf;

/// Arguments of `expanse prove`.
#[derive(clap::Args)]
pub struct Args {
    /// Candidates file (JSON Lines from `expanse search`). Omit to give one candidate with
    /// --a --b --period --x --y.
    pub candidates: Option<PathBuf>,
    /// Parameter a of a single candidate (decimal string, e.g. 1.25).
    #[arg(long, allow_hyphen_values = true)]
    pub a: Option<String>,
    /// Parameter b of a single candidate (decimal string, e.g. 0.3).
    #[arg(long, allow_hyphen_values = true)]
    pub b: Option<String>,
    /// Period of a single candidate.
    #[arg(long)]
    pub period: Option<String>,
    /// x of one orbit point of a single candidate (decimal string).
    #[arg(long, allow_hyphen_values = true)]
    pub x: Option<String>,
    /// y of one orbit point of a single candidate (decimal string).
    #[arg(long, allow_hyphen_values = true)]
    pub y: Option<String>,
    /// Prove for the whole box [a − r, a + r] × [b − r, b + r] (decimal, ≥ 0).
    #[arg(long, allow_hyphen_values = true)]
    pub param_radius: Option<String>,
    /// Folder for the certificates (one JSON file per candidate). Without it nothing is written.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite existing certificates.
    #[arg(long)]
    pub force: bool,
    /// Largest allowed distance between the candidate point and the refined orbit point.
    #[arg(long, default_value_t = 1e-6)]
    pub max_shift: f64,
    /// Skip the independent MPFR cross-check (the certificate then says so).
    #[arg(long)]
    pub no_cross_check: bool,
}

/// Arguments of `expanse verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Certificate files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

fn describe(pr: &Proof) -> String {
    let mut s = format!(
        "{}: {} (period {}",
        pr.candidate.source,
        pr.status.as_str(),
        pr.candidate.period
    );
    let pa = &pr.params.a;
    let pb = &pr.params.b;
    let show = |p: &expanse_prove::params::Param| {
        if p.radius > 0 {
            format!(
                "{} ± {}",
                p.given,
                to_short_decimal(&rug::Float::with_val(53, &p.radius))
            )
        } else if p.is_exact() {
            format!("{} (exact)", p.given)
        } else {
            format!("{} (enclosed)", p.given)
        }
    };
    s += &format!(", a = {}, b = {}", show(pa), show(pb));
    if pr.status != Status::NotProven {
        s += &format!(", {} {} bits", pr.kind, pr.bits);
        if let Some((lo, hi)) = &pr.trace {
            s += &format!(
                ", tr in [{}, {}]",
                to_short_decimal(lo),
                to_short_decimal(hi)
            );
        }
    }
    s += ")";
    if let Some(r) = &pr.reason {
        s += &format!(": {r}");
    }
    s
}

fn single_candidate(args: &Args, radius: &Rational) -> Result<Candidate, CliError> {
    let need = |v: &Option<String>, flag: &str| {
        v.clone().ok_or_else(|| {
            CliError::usage(format!(
                "prove: give a candidates file or all of --a --b --period --x --y (missing {flag})"
            ))
        })
    };
    let line = serde_json::json!({
        "a": need(&args.a, "--a")?,
        "b": need(&args.b, "--b")?,
        "period": need(&args.period, "--period")?,
        "x": need(&args.x, "--x")?,
        "y": need(&args.y, "--y")?,
    });
    parse_line(&line.to_string(), "command line", Some(radius))
        .map_err(|e| CliError::usage(e.message))
}

/// File name of a certificate: `<candidates stem>-<line>-p<period>.json` for a candidates file
/// (unique across files proved into one folder), `cert-p<period>-<k>.json` otherwise.
fn cert_name(c: &Candidate, k: usize) -> String {
    match c.source.rsplit_once(':') {
        Some((file, line)) if line.chars().all(|ch| ch.is_ascii_digit()) => {
            let stem = std::path::Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| "cands".into());
            let stem: String = stem
                .chars()
                .map(|ch| {
                    if ch.is_ascii_alphanumeric() || "-_.".contains(ch) {
                        ch
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{stem}-{:0>5}-p{}.json", line, c.period)
        }
        _ => format!("cert-p{}-{}.json", c.period, k + 1),
    }
}

/// Runs `expanse prove`.
pub fn run(args: Args) -> CmdResult {
    let radius = match &args.param_radius {
        None => None,
        Some(t) => {
            let r =
                parse_decimal(t).map_err(|e| CliError::usage(format!("--param-radius: {e}")))?;
            if r < 0 {
                return Err(CliError::usage(format!(
                    "--param-radius must be >= 0, got {t}"
                )));
            }
            Some(r)
        }
    };
    if !(args.max_shift.is_finite() && args.max_shift > 0.0) {
        return Err(CliError::usage("--max-shift must be a positive number"));
    }
    let mut items: Vec<Result<Candidate, String>> = Vec::new();
    match &args.candidates {
        Some(path) => {
            if args.a.is_some()
                || args.b.is_some()
                || args.period.is_some()
                || args.x.is_some()
                || args.y.is_some()
            {
                return Err(CliError::usage(
                    "prove: give either a candidates file or --a --b --period --x --y, not both",
                ));
            }
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
            for r in parse_file(&text, &path.display().to_string(), radius.as_ref()) {
                items.push(r.map_err(|e| e.message));
            }
            if items.is_empty() {
                return Err(CliError::usage(format!(
                    "{}: no candidates",
                    path.display()
                )));
            }
        }
        None => items.push(Ok(single_candidate(
            &args,
            &radius.clone().unwrap_or_default(),
        )?)),
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::usage(format!("--out {}: {e}", dir.display())))?;
    }
    let opts = Options {
        max_shift: args.max_shift,
        cross_check: !args.no_cross_check,
        ..Options::default()
    };
    let (mut bad_input, mut all_sinks) = (false, true);
    for (k, item) in items.into_iter().enumerate() {
        let c = match item {
            Ok(c) => c,
            Err(m) => {
                eprintln!("expanse: error: {m}");
                bad_input = true;
                continue;
            }
        };
        let pr = match prove(&c, &opts) {
            Ok(pr) => pr,
            Err(e) => {
                eprintln!("expanse: error: {}", e.message);
                bad_input = true;
                continue;
            }
        };
        if pr.status != Status::Sink {
            all_sinks = false;
        }
        let mut line = describe(&pr);
        if let Some(dir) = &args.out {
            let path = dir.join(cert_name(&c, k));
            write_atomic(&path, &certificate(&pr), args.force)
                .map_err(|e| CliError::usage(e.message))?;
            line += &format!(" -> {}", path.display());
        }
        println!("{line}");
    }
    if bad_input {
        return Err(CliError::usage(
            "some candidates were unusable (see above); the others ran",
        ));
    }
    Ok(if all_sinks {
        Outcome::Success
    } else {
        Outcome::NotEstablished
    })
}

/// Runs `expanse verify`.
pub fn run_verify(args: VerifyArgs) -> CmdResult {
    let (mut unusable, mut invalid) = (false, false);
    for f in &args.files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("expanse: error: {}: {e}", f.display());
                unusable = true;
                continue;
            }
        };
        match verify_text(&text) {
            Err(e) => {
                eprintln!(
                    "expanse: error: {}: unusable certificate: {}",
                    f.display(),
                    e.message
                );
                unusable = true;
            }
            Ok(Verdict::NotValid { reasons }) => {
                println!("{}: NOT VALID: {}", f.display(), reasons.join("; "));
                invalid = true;
            }
            Ok(Verdict::Valid { status, notes }) => {
                let extra = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                };
                println!("{}: valid: {}{extra}", f.display(), status.as_str());
            }
        }
    }
    if unusable {
        return Err(CliError::usage(
            "some certificates were unusable (see above)",
        ));
    }
    Ok(if invalid {
        Outcome::NotEstablished
    } else {
        Outcome::Success
    })
}
