//! `expanse report` (figures and tables from candidates, certificates and benchmark output) and
//! `expanse orbit` (iterate one orbit in a chosen precision, print or plot it).
use super::{CliError, CmdResult, Outcome};
use expanse_reports::figures::{self, OrbitFigure};
use expanse_reports::orbit::{self, OrbitSpec};
use expanse_reports::{Error, ErrorKind};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `expanse report`.
#[derive(clap::Args)]
pub struct Args {
    /// Candidate files (JSON Lines from `expanse search`), certificate files (JSON from
    /// `expanse prove`), or folders holding them (searched recursively).
    #[arg(required = true, value_name = "FILE_OR_DIR")]
    pub inputs: Vec<PathBuf>,
    /// Output folder for figures (PNG + SVG), tables (Markdown + LaTeX) and `index.md`.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Output of `expanse bench cpu|gpu|prove --json` to chart (may be repeated).
    #[arg(long, value_name = "FILE")]
    pub bench: Vec<PathBuf>,
    /// Write into an output folder that already holds files.
    #[arg(long)]
    pub force: bool,
    /// Also rank certified sinks and candidates by exact distance to the point A,B (e.g.
    /// 1.4,0.3) and draw the plane around it (closest_sinks.md/.tex,
    /// candidates_by_distance.md, near_target.png/.svg).
    #[arg(long, value_name = "A,B", allow_hyphen_values = true)]
    pub target: Option<String>,
}

/// Arguments of `expanse orbit`.
#[derive(clap::Args)]
pub struct OrbitArgs {
    /// Parameter a (decimal, rounded to the nearest expansion of the chosen precision).
    #[arg(long, allow_hyphen_values = true)]
    pub a: String,
    /// Parameter b.
    #[arg(long, allow_hyphen_values = true)]
    pub b: String,
    /// Iterations performed before the first recorded point.
    #[arg(long, default_value_t = 1000)]
    pub skip: u64,
    /// Points recorded after the skip.
    #[arg(long, default_value_t = 10_000)]
    pub count: usize,
    /// Precision: f64, dd, td, qd, or a number of f64 terms 1..8.
    #[arg(long, default_value = "dd")]
    pub prec: String,
    /// Initial x.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub x0: String,
    /// Initial y.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub y0: String,
    /// Draw the points to FILE.png and FILE.svg (an extension .png or .svg is dropped).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Write the points (exact decimals of the full expansions) to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

/// Maps a library error to the CLI's: input problems exit 2, drawing failures exit 1.
pub fn cli_error(e: Error) -> CliError {
    if e.is_input_error() {
        CliError::usage(e.to_string())
    } else {
        CliError::failed(e.to_string())
    }
}

/// True if `dir` exists and holds at least one entry.
fn non_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|mut r| r.next().is_some())
        .unwrap_or(false)
}

/// Loads inputs and bench files, and writes the report; shared with `expanse demo`.
pub fn make_report(
    inputs: &[PathBuf],
    bench: &[PathBuf],
    out: &Path,
) -> Result<expanse_reports::Report, CliError> {
    make_report_near(inputs, bench, out, None)
}

/// [`make_report`] with an optional target point for the rankings and the figure near it.
pub fn make_report_near(
    inputs: &[PathBuf],
    bench: &[PathBuf],
    out: &Path,
    target: Option<&expanse_reports::near::Target>,
) -> Result<expanse_reports::Report, CliError> {
    let mut loaded = expanse_reports::load(inputs).map_err(cli_error)?;
    for b in bench {
        expanse_reports::load_bench(b, &mut loaded).map_err(cli_error)?;
    }
    expanse_reports::write_report_near(&loaded, out, target).map_err(cli_error)
}

/// Runs `expanse report`.
pub fn run(args: Args) -> CmdResult {
    if out_exists_and_not_dir(&args.out) {
        return Err(CliError::usage(format!(
            "--out {}: exists and is not a folder",
            args.out.display()
        )));
    }
    if non_empty_dir(&args.out) && !args.force {
        return Err(CliError::usage(format!(
            "--out {}: folder is not empty (use --force to write into it)",
            args.out.display()
        )));
    }
    let target = match &args.target {
        Some(t) => Some(
            expanse_reports::near::Target::parse(t)
                .map_err(|e| CliError::usage(format!("--{}", e.message)))?,
        ),
        None => None,
    };
    let rep = make_report_near(&args.inputs, &args.bench, &args.out, target.as_ref())?;
    println!(
        "expanse report: wrote {} files to {} (see {}/index.md)",
        rep.entries.len(),
        args.out.display(),
        args.out.display()
    );
    Ok(Outcome::Success)
}

fn out_exists_and_not_dir(p: &Path) -> bool {
    p.exists() && !p.is_dir()
}

/// The stem of a --plot path: `fig.png` → `fig`.
fn plot_stem(p: &Path) -> PathBuf {
    match p.extension().and_then(|e| e.to_str()) {
        Some("png") | Some("svg") | Some("PNG") | Some("SVG") => p.with_extension(""),
        _ => p.to_path_buf(),
    }
}

/// Runs `expanse orbit`.
pub fn run_orbit(args: OrbitArgs) -> CmdResult {
    let terms = orbit::parse_prec(&args.prec)
        .map_err(|e| CliError::usage(format!("--prec: {}", e.message)))?;
    if args.count == 0 {
        return Err(CliError::usage("--count must be at least 1"));
    }
    let stem = args.plot.as_deref().map(plot_stem);
    if !args.force {
        let mut existing: Vec<PathBuf> = Vec::new();
        if let Some(s) = &stem {
            for ext in ["png", "svg"] {
                let p = s.with_extension(ext);
                if p.exists() {
                    existing.push(p);
                }
            }
        }
        if let Some(o) = &args.out {
            if o.exists() {
                existing.push(o.clone());
            }
        }
        if let Some(p) = existing.first() {
            return Err(CliError::usage(format!(
                "{} exists (use --force to overwrite)",
                p.display()
            )));
        }
    }
    let spec = OrbitSpec {
        a: args.a.clone(),
        b: args.b.clone(),
        x0: args.x0.clone(),
        y0: args.y0.clone(),
        skip: args.skip,
        count: args.count,
        terms,
    };
    let want_text = args.plot.is_none() || args.out.is_some();
    let o = orbit::iterate(&spec, want_text).map_err(|e| match e.kind {
        ErrorKind::InvalidArgument => CliError::usage(format!("--{}", e.message)),
        _ => cli_error(e),
    })?;
    let name = orbit::prec_name(terms);
    if want_text {
        let mut text = format!(
            "# expanse orbit: a = {}, b = {}, (x0, y0) = ({}, {}), skip = {}, precision = {}\n# x y\n",
            args.a, args.b, args.x0, args.y0, args.skip, name
        );
        for (x, y) in &o.text {
            text.push_str(x);
            text.push(' ');
            text.push_str(y);
            text.push('\n');
        }
        match &args.out {
            Some(path) => expanse_reports::report::write_atomic(path, &text).map_err(cli_error)?,
            None => {
                let mut stdout = std::io::stdout().lock();
                // A closed pipe (e.g. `| head`) is not an error worth reporting.
                let _ = stdout.write_all(text.as_bytes());
            }
        }
    }
    if let Some(stem) = &stem {
        if o.points.is_empty() {
            return Err(CliError::failed(format!(
                "the orbit escaped after {} iterations; nothing to plot",
                o.escaped_at.unwrap_or(0)
            )));
        }
        let fig = OrbitFigure {
            points: o.points.clone(),
            title: format!("Hénon map, a = {}, b = {}", args.a, args.b),
            label: format!(
                "{} iterates after skipping {} ({})",
                group_thousands(o.points.len() as u64),
                group_thousands(args.skip),
                name
            ),
        };
        let files = figures::render(&fig, stem).map_err(cli_error)?;
        if args.out.is_some() || args.plot.is_some() {
            eprintln!(
                "expanse orbit: wrote {}",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if let Some(at) = o.escaped_at {
        eprintln!("expanse orbit: the orbit escaped (|x| or |y| > 1e6) at iteration {at}");
        return Ok(Outcome::NotEstablished);
    }
    Ok(Outcome::Success)
}

/// 10000 → "10 000".
pub fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}
