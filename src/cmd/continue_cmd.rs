//! `expanse continue`: follow a sink's strip in the (a, b) plane along its centre line
//! (tr Dh^p = 0) to the point nearest a target (default the classical (1.4, 0.3)), prove a sink
//! there (point parameters and a small parameter box) and at the strip's edge on the target's
//! side, and write the certificates and the continuation's JSON. The mathematics is in
//! `expanse_prove::continuation`; parsing, files, progress and exit codes here.
//!
//! Exit codes: 0 the nearest point was reached and every proof asked for established a sink;
//! 1 ran but something was not established (a proof failed, or the continuation stalled);
//! 2 usage error or unusable input (naming the flag or file), including a start that Newton's
//! method does not bring onto an attracting periodic orbit of the period given.
use super::{CliError, CmdResult, Outcome};
use expanse_prove::candidates::{parse_file, parse_line};
use expanse_prove::cert::{certificate, write_atomic};
use expanse_prove::continuation::{
    continuation_json, distance2, follow, ContinueOptions, FollowError,
};
use expanse_prove::engine::{Options, Status};
use expanse_prove::numfmt::{parse_decimal, parse_exact};
use expanse_prove::window::Start;
use rug::Rational;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `expanse continue`.
#[derive(clap::Args)]
pub struct Args {
    /// A certificate (JSON from `expanse prove`), a candidates file (JSON Lines; see --line),
    /// or one candidate line given inline (`{"a": …}`).
    pub input: String,
    /// The target point A,B (decimals).
    #[arg(long, default_value = "1.4,0.3", allow_hyphen_values = true)]
    pub target: String,
    /// Which candidate of a candidates file: a 1-based line number, or `nearest` (the
    /// candidate whose parameters lie nearest the target); needed when the file has several.
    #[arg(long)]
    pub line: Option<String>,
    /// Folder for `continuation.json` and the certificates (`continue-pP-centre.json`,
    /// `-box.json`, `-edge.json`). Without it no file is written.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the continuation's JSON on stdout (otherwise a summary).
    #[arg(long)]
    pub json: bool,
    /// Overwrite existing files in --out.
    #[arg(long)]
    pub force: bool,
    /// Least MPFR bits of the continuation (raised for long orbits).
    #[arg(long, default_value_t = 256)]
    pub bits: u32,
    /// The edge point is proved at this fraction of the way from the centre line to the
    /// strip's end on the target's side (a decimal in (0, 1)).
    #[arg(long, default_value = "0.999")]
    pub edge_fraction: String,
    /// Most predictor–corrector steps.
    #[arg(long, default_value_t = 2000)]
    pub max_steps: usize,
    /// Do not prove a parameter box around the centre-line point.
    #[arg(long)]
    pub no_box: bool,
    /// Only follow the strip (no proofs, no certificates).
    #[arg(long)]
    pub no_proofs: bool,
    /// Skip the MPFR cross-check of each proof (the certificates then say so).
    #[arg(long)]
    pub no_cross_check: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// A point: exact (a, b) and the text of each.
type Point = ((Rational, Rational), (String, String));

fn parse_target(s: &str) -> Result<Point, CliError> {
    let bad = |m: String| CliError::usage(format!("--target: {m}"));
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| bad(format!("{s:?} is not A,B")))?;
    let (a, b) = (a.trim().to_string(), b.trim().to_string());
    let qa = parse_decimal(&a).map_err(|e| bad(e.message))?;
    let qb = parse_decimal(&b).map_err(|e| bad(e.message))?;
    Ok(((qa, qb), (a, b)))
}

/// The starting point: a certificate, one candidate of a candidates file, or an inline line.
fn read_start(args: &Args, target: &(Rational, Rational)) -> Result<Start, CliError> {
    let inp = args.input.trim();
    let usage = |e: expanse_prove::Error| CliError::usage(e.message);
    if inp.starts_with('{') && !Path::new(inp).exists() {
        let c = parse_line(inp, "command line", None).map_err(usage)?;
        return Start::from_candidate(&c).map_err(usage);
    }
    let path = &args.input;
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError::usage(format!("{path}: {e}")))?;
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
        if v.get("schema").and_then(|s| s.as_str()) == Some(expanse_prove::cert::SCHEMA) {
            if args.line.is_some() {
                return Err(CliError::usage(format!(
                    "--line: {path} is a certificate, not a candidates file"
                )));
            }
            return Start::from_certificate(&v, path).map_err(usage);
        }
    }
    let items = parse_file(&text, path, None);
    if items.is_empty() {
        return Err(CliError::usage(format!("{path}: no candidates")));
    }
    let item = match args.line.as_deref().map(str::trim) {
        None if items.len() > 1 => {
            return Err(CliError::usage(format!(
                "{path} has {} candidates: choose one with --line N or --line nearest",
                items.len()
            )))
        }
        None => items.into_iter().next(),
        Some("nearest") => {
            // The readable candidate with the least exact distance to the target.
            let mut best: Option<(Rational, expanse_prove::engine::Candidate)> = None;
            for c in items.into_iter().flatten() {
                let (Ok(a), Ok(b)) = (parse_exact(&c.a), parse_exact(&c.b)) else {
                    continue;
                };
                let d = distance2(&a, &b, target);
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, c));
                }
            }
            let (_, c) = best.ok_or_else(|| {
                CliError::usage(format!("--line nearest: {path} has no readable candidate"))
            })?;
            Some(Ok(c))
        }
        Some(n) => {
            let n: usize = n.parse().map_err(|_| {
                CliError::usage(format!("--line: {n:?} is not a line number or `nearest`"))
            })?;
            let want = format!("{path}:{n}");
            items.into_iter().find(|r| match r {
                Ok(c) => c.source == want,
                Err(e) => e.message.starts_with(&format!("{want}:")),
            })
        }
    }
    .ok_or_else(|| CliError::usage(format!("--line: {path} has no candidate on that line")))?;
    let c = item.map_err(usage)?;
    Start::from_candidate(&c).map_err(usage)
}

/// Runs `expanse continue`.
pub fn run(args: Args) -> CmdResult {
    let (target, target_text) = parse_target(&args.target)?;
    let fraction = parse_decimal(&args.edge_fraction)
        .map_err(|e| CliError::usage(format!("--edge-fraction: {}", e.message)))?;
    if !(fraction > 0 && fraction < 1) {
        return Err(CliError::usage(format!(
            "--edge-fraction must lie in (0, 1), got {}",
            args.edge_fraction
        )));
    }
    if !(64..=1 << 16).contains(&args.bits) {
        return Err(CliError::usage("--bits must be in 64..=65536"));
    }
    if args.max_steps == 0 {
        return Err(CliError::usage("--max-steps must be at least 1"));
    }
    let start = read_start(&args, &target)?;
    let p = start.period;
    // Every file this run may write, refused up front (before the work) unless --force.
    let files = args.out.as_ref().map(|d| {
        (
            d.join("continuation.json"),
            [
                d.join(format!("continue-p{p}-centre.json")),
                d.join(format!("continue-p{p}-box.json")),
                d.join(format!("continue-p{p}-edge.json")),
            ],
        )
    });
    if let Some((json_path, certs)) = &files {
        if out_is_file(args.out.as_deref()) {
            return Err(CliError::usage(format!(
                "--out {}: exists and is not a folder",
                json_path.parent().unwrap_or(Path::new(".")).display()
            )));
        }
        if !args.force {
            if let Some(f) = std::iter::once(json_path)
                .chain(certs.iter())
                .find(|f| f.exists())
            {
                return Err(CliError::usage(format!(
                    "--out: {} exists (use --force to overwrite)",
                    f.display()
                )));
            }
        }
        let d = args.out.as_ref().expect("--out");
        std::fs::create_dir_all(d)
            .map_err(|e| CliError::usage(format!("--out {}: {e}", d.display())))?;
    }
    let opts = ContinueOptions {
        bits: args.bits,
        max_steps: args.max_steps,
        prove: Options {
            cross_check: !args.no_cross_check,
            ..Options::default()
        },
        prove_box: !args.no_box,
        no_proofs: args.no_proofs,
        edge_fraction: fraction,
        ..ContinueOptions::default()
    };
    let quiet = args.quiet;
    let mut progress = |m: &str| {
        if !quiet {
            eprintln!("continue: {m}");
        }
    };
    let c = match follow(&start, target, target_text, &opts, &mut progress) {
        Ok(c) => c,
        // A stalled continuation ran but did not establish what was asked.
        Err(FollowError::Stalled(m)) => return Err(CliError::failed(m)),
        Err(FollowError::Input(e)) => return Err(CliError::usage(e.message)),
    };
    // Certificates: the centre-line point, the widest proved box (or the last tried), the
    // edge point.
    let mut names: [Option<String>; 3] = [None, None, None];
    if let Some((json_path, paths)) = &files {
        let box_proof = c.box_proof().or(c.box_proofs.last()).map(|(_, pr)| pr);
        let edge_proof = c.edge.as_ref().and_then(|e| e.point.proof.as_ref());
        let proofs = [c.centre.proof.as_ref(), box_proof, edge_proof];
        for (k, (pr, path)) in proofs.iter().zip(paths).enumerate() {
            if let Some(pr) = pr {
                write_atomic(path, &certificate(pr), args.force)
                    .map_err(|e| CliError::usage(format!("--out: {}", e.message)))?;
                names[k] = Some(path.display().to_string());
            }
        }
        let json = continuation_json(&c, &names);
        write_atomic(json_path, &json, args.force)
            .map_err(|e| CliError::usage(format!("--out: {}", e.message)))?;
    }
    let json = continuation_json(&c, &names);
    let mut so = std::io::stdout().lock();
    if args.json {
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::failed(e.to_string()))?;
        writeln!(so, "{text}").map_err(|e| CliError::failed(e.to_string()))?;
    } else {
        let s = |v: &serde_json::Value| v.as_str().unwrap_or("—").to_string();
        let status = |k: &str| {
            json["proofs"][k]["status"]
                .as_str()
                .unwrap_or("not run")
                .to_string()
        };
        let _ = writeln!(
            so,
            "start:   a = {}, b = {}, distance {}",
            s(&json["start"]["a"]),
            s(&json["start"]["b"]),
            s(&json["start"]["distance"])
        );
        let _ = writeln!(
            so,
            "centre:  a = {}, b = {}, distance {} ({})",
            s(&json["centre"]["a"]),
            s(&json["centre"]["b"]),
            s(&json["centre"]["distance"]),
            status("centre")
        );
        if !json["proofs"]["box"].is_null() {
            let _ = writeln!(
                so,
                "box:     radius {} ({})",
                s(&json["proofs"]["box"]["radius"]),
                status("box")
            );
        }
        if !json["edge"].is_null() {
            let _ = writeln!(
                so,
                "edge:    a = {}, b = {}, distance {} ({}; the {} is at distance {})",
                s(&json["edge"]["a"]),
                s(&json["edge"]["b"]),
                s(&json["edge"]["distance"]),
                status("edge"),
                s(&json["edge"]["boundary"]["kind"]),
                s(&json["edge"]["boundary"]["distance"])
            );
        }
        if let Some(w) = json["strip"]["width"].as_str() {
            let _ = writeln!(so, "strip width across (estimate): {w}");
        }
        match json["closest_proved"].as_object() {
            Some(cl) => {
                let _ = writeln!(
                    so,
                    "closest proved sink: {} (period {}), distance ≥ {}",
                    cl["which"].as_str().unwrap_or(""),
                    p,
                    cl["distance"].as_str().unwrap_or("")
                );
            }
            None if !args.no_proofs => {
                let _ = writeln!(so, "no sink was proved");
            }
            None => {}
        }
        if let Some((json_path, _)) = &files {
            let _ = writeln!(so, "wrote {}", json_path.display());
        }
    }
    let proved =
        |pr: Option<&expanse_prove::engine::Proof>| pr.is_some_and(|pr| pr.status == Status::Sink);
    // Established: the centre-line point, the box (unless --no-box) and the edge point (whose
    // absence, when the strip's end was not located, counts as not established).
    let ok = args.no_proofs
        || (proved(c.centre.proof.as_ref())
            && (args.no_box || c.box_proof().is_some())
            && proved(c.edge.as_ref().and_then(|e| e.point.proof.as_ref())));
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::NotEstablished
    })
}

fn out_is_file(p: Option<&Path>) -> bool {
    p.is_some_and(|p| p.exists() && !p.is_dir())
}
