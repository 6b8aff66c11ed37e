//! Reading what `expanse search`, `expanse prove` and `expanse bench --json` write.
//!
//! The readers are lenient about spelling (an interval may be `{"lo","hi"}` or `[lo, hi]`, a
//! status may be a string or a serialised enum with its evidence, a field may sit at the top
//! level or one object down) because those formats evolve on their own branches, but strict
//! about meaning: a record that lacks a required field, a file that is not JSON, a certificate
//! inside a candidates file, or certificates of two different `schema` versions are refused
//! with an error naming the file and line ([`ErrorKind::Parse`], [`ErrorKind::MixedSchema`]).

use crate::error::{Error, ErrorKind, Result};
use crate::num::{bad_number, exact_sum, interval_from_value, number_from_value, Interval};
use rug::float::Round;
use rug::Float;
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// One candidate orbit found by the search (one JSON Lines record).
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Parameter a (the exact binary value used, as f64 for plotting).
    pub a: f64,
    /// Parameter a as the user wrote it (decimal), or the f64 value printed.
    pub a_text: String,
    /// Parameter b.
    pub b: f64,
    /// Parameter b as written.
    pub b_text: String,
    /// Detected period.
    pub period: u64,
    /// One orbit point (leading part).
    pub x: f64,
    /// One orbit point (leading part).
    pub y: f64,
    /// Estimated trace of the monodromy matrix, if given.
    pub trace_estimate: Option<f64>,
    /// The search's guess whether the cycle attracts, if given.
    pub attracting: Option<bool>,
    /// Where it came from.
    pub source: PathBuf,
    /// 1-based line in `source`.
    pub line: usize,
}

/// Proof status of a certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// A stable periodic orbit, proved.
    Sink,
    /// A periodic orbit, proved to exist, not attracting.
    PeriodicUnstable,
    /// The proof did not succeed.
    NotProven,
}

impl Status {
    /// The spelling used in files and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sink => "sink",
            Status::PeriodicUnstable => "periodic-unstable",
            Status::NotProven => "not-proven",
        }
    }

    /// Parses `sink`, `periodic-unstable`, `not-proven` in any case, with `_` or `-` or none.
    pub fn parse(s: &str) -> Option<Self> {
        let k: String = s
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match k.as_str() {
            "sink" | "provensink" => Some(Status::Sink),
            "periodicunstable" | "unstable" | "unstableperiodic" => Some(Status::PeriodicUnstable),
            "notproven" | "notproved" | "failed" | "unproven" => Some(Status::NotProven),
            _ => None,
        }
    }
}

/// One proof certificate (the fields the report uses).
#[derive(Clone, Debug)]
pub struct Certificate {
    /// Schema version string.
    pub schema: String,
    /// Parameter box in a.
    pub a: Interval,
    /// Parameter box in b.
    pub b: Interval,
    /// Period.
    pub period: u64,
    /// Status as recorded (the report does not re-prove; `expanse verify` does).
    pub status: Status,
    /// Enclosure of tr Dh^p, if present.
    pub trace: Option<Interval>,
    /// Enclosure of det Dh^p, if present.
    pub det: Option<Interval>,
    /// Orbit boxes (x, y), one per orbit point.
    pub boxes: Vec<(Interval, Interval)>,
    /// Precision used, compactly described.
    pub precision: String,
    /// Total proof time in seconds, if recorded.
    pub seconds: Option<f64>,
    /// The file it came from.
    pub source: PathBuf,
}

/// One throughput measurement from `expanse bench cpu|gpu --json`.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRate {
    /// Backend (`cpu`, `gpu`, `mpfr`, …).
    pub backend: String,
    /// Precision label (`f64`, `dd`, `qd`, `8`, …).
    pub precision: String,
    /// Hénon iterations per second.
    pub iters_per_s: f64,
}

/// One proof timing from `expanse bench prove --json`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofTiming {
    /// Period of the orbit proved.
    pub period: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Method or precision label.
    pub label: String,
}

/// Everything read for one report.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Candidate orbits.
    pub candidates: Vec<Candidate>,
    /// Certificates.
    pub certificates: Vec<Certificate>,
    /// Throughput measurements.
    pub rates: Vec<BenchRate>,
    /// Proof timings.
    pub proof_timings: Vec<ProofTiming>,
    /// Strips followed by `expanse continue` and segments certified by `expanse window`.
    pub strips: Vec<crate::near::Strip>,
}

impl Inputs {
    /// True if there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
            && self.certificates.is_empty()
            && self.rates.is_empty()
            && self.proof_timings.is_empty()
            && self.strips.is_empty()
    }
}

/// What a JSON record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Candidate,
    Certificate,
    Other,
}

fn classify(v: &Value) -> Kind {
    let Some(m) = v.as_object() else {
        return Kind::Other;
    };
    let has = |k: &str| m.contains_key(k);
    if has("status") && (has("schema") || has("trace") || has("boxes") || has("orbit")) {
        Kind::Certificate
    } else if has("period") && has("x") && has("y") {
        Kind::Candidate
    } else {
        Kind::Other
    }
}

/// Breadth-first search for the first of `keys` in `v`, skipping subtrees named in `skip`
/// (the cross-check holds its own copies of trace etc.).
fn find<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    let skip = ["cross_check", "crosscheck", "mpfr_check"];
    let mut queue: VecDeque<(&Value, usize)> = VecDeque::from([(v, 0)]);
    while let Some((cur, depth)) = queue.pop_front() {
        if let Value::Object(m) = cur {
            for k in keys {
                if let Some(x) = m.get(*k) {
                    return Some(x);
                }
            }
            if depth < 3 {
                for (k, child) in m {
                    if child.is_object() && !skip.contains(&k.as_str()) {
                        queue.push_back((child, depth + 1));
                    }
                }
            }
        }
    }
    None
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Object(m) => m.get("decimal").and_then(text_of),
        _ => None,
    }
}

fn parse_candidate(v: &Value, source: &Path, line: usize) -> Result<Candidate> {
    let loc = |e: Error| e.at(source, Some(line));
    let m = v
        .as_object()
        .ok_or_else(|| loc(Error::new(ErrorKind::Parse, "expected a JSON object")))?;
    let num = |key: &str| -> Result<f64> {
        let x = m.get(key).ok_or_else(|| {
            loc(Error::new(
                ErrorKind::Parse,
                format!("missing field `{key}`"),
            ))
        })?;
        number_from_value(x, Round::Nearest)
            .map(|f| f.to_f64())
            .ok_or_else(|| loc(bad_number(key)))
    };
    let a = num("a")?;
    let b = num("b")?;
    let x = num("x")?;
    let y = num("y")?;
    let period = m
        .get("period")
        .and_then(Value::as_u64)
        .filter(|&p| p > 0)
        .ok_or_else(|| {
            loc(Error::new(
                ErrorKind::Parse,
                "field `period` must be a positive integer",
            ))
        })?;
    let trace_estimate = m
        .get("trace_estimate")
        .and_then(|t| number_from_value(t, Round::Nearest))
        .map(|f| f.to_f64());
    let attracting = m
        .get("attracting_estimate")
        .or_else(|| m.get("attracting"))
        .and_then(Value::as_bool);
    Ok(Candidate {
        a,
        a_text: m
            .get("a")
            .and_then(text_of)
            .unwrap_or_else(|| format!("{a:e}")),
        b,
        b_text: m
            .get("b")
            .and_then(text_of)
            .unwrap_or_else(|| format!("{b:e}")),
        period,
        x,
        y,
        trace_estimate,
        attracting,
        source: source.to_path_buf(),
        line,
    })
}

fn parse_status(v: &Value) -> Option<Status> {
    match v {
        Value::String(s) => Status::parse(s),
        Value::Object(m) => {
            for k in ["kind", "status", "type", "outcome"] {
                if let Some(s) = m.get(k).and_then(Value::as_str) {
                    return Status::parse(s);
                }
            }
            if m.len() == 1 {
                return m.keys().next().and_then(|k| Status::parse(k));
            }
            None
        }
        _ => None,
    }
}

fn parse_box(v: &Value) -> Option<(Interval, Interval)> {
    match v {
        Value::Object(m) => Some((
            interval_from_value(m.get("x")?)?,
            interval_from_value(m.get("y")?)?,
        )),
        Value::Array(items) if items.len() == 2 => Some((
            interval_from_value(&items[0])?,
            interval_from_value(&items[1])?,
        )),
        _ => None,
    }
}

/// x ± r as an exact interval.
fn centre_radius(c: &Value, r: &Value) -> Option<Interval> {
    let c = number_from_value(c, Round::Nearest)?;
    let r = number_from_value(r, Round::Up)?;
    if r.is_sign_negative() && !r.is_zero() {
        return None;
    }
    let neg_r = Float::with_val(r.prec(), -&r);
    Some(Interval {
        lo: exact_sum(&[c.clone(), neg_r]),
        hi: exact_sum(&[c, r]),
    })
}

/// The product of two intervals, rounded outward at 256 bits.
fn mul_interval(p: &Interval, q: &Interval) -> Interval {
    let prods = |round: Round| {
        [
            (&p.lo, &q.lo),
            (&p.lo, &q.hi),
            (&p.hi, &q.lo),
            (&p.hi, &q.hi),
        ]
        .map(|(u, v)| Float::with_val_round(256, u * v, round).0)
    };
    let lo = prods(Round::Down)
        .into_iter()
        .reduce(|a, b| if b < a { b } else { a })
        .unwrap_or_else(|| Float::new(53));
    let hi = prods(Round::Up)
        .into_iter()
        .reduce(|a, b| if b > a { b } else { a })
        .unwrap_or_else(|| Float::new(53));
    Interval { lo, hi }
}

/// Orbit boxes in the forms the prover may write: a list of `{"x", "y"}` or `[x, y]` boxes; a
/// struct of arrays `{"x": [..], "y": [..]}`; or centres and radii `{"centres": [..],
/// "radii": [..]}`, where a scalar centre is x_i alone (the scalar form of the cyclic system,
/// MATH.md §4) and y_i = b·x_{i−1} is enclosed from the box of b.
fn parse_boxes(v: &Value, b: &Interval) -> Option<Vec<(Interval, Interval)>> {
    match v {
        Value::Array(items) => items.iter().map(parse_box).collect(),
        Value::Object(m) => {
            if let (Some(Value::Array(xs)), Some(Value::Array(ys))) = (m.get("x"), m.get("y")) {
                if xs.len() == ys.len() {
                    return xs
                        .iter()
                        .zip(ys)
                        .map(|(x, y)| Some((interval_from_value(x)?, interval_from_value(y)?)))
                        .collect();
                }
            }
            let centres = m.get("centres").or_else(|| m.get("centers"));
            if let (Some(Value::Array(cs)), Some(Value::Array(rs))) = (centres, m.get("radii")) {
                if cs.len() != rs.len() || cs.is_empty() {
                    return None;
                }
                if cs.iter().all(|c| c.is_array()) {
                    // Pairs (x, y) with radii pairs or one radius per point.
                    return cs
                        .iter()
                        .zip(rs)
                        .map(|(c, r)| {
                            let c = c.as_array().filter(|c| c.len() == 2)?;
                            let (rx, ry) = match r {
                                Value::Array(r) if r.len() == 2 => (&r[0], &r[1]),
                                r => (r, r),
                            };
                            Some((centre_radius(&c[0], rx)?, centre_radius(&c[1], ry)?))
                        })
                        .collect();
                }
                let xs: Vec<Interval> = cs
                    .iter()
                    .zip(rs)
                    .map(|(c, r)| centre_radius(c, r))
                    .collect::<Option<_>>()?;
                let p = xs.len();
                return Some(
                    (0..p)
                        .map(|i| (xs[i].clone(), mul_interval(b, &xs[(i + p - 1) % p])))
                        .collect(),
                );
            }
            for k in ["boxes", "points", "z"] {
                if let Some(bx) = m.get(k).and_then(|x| parse_boxes(x, b)) {
                    return Some(bx);
                }
            }
            None
        }
        _ => None,
    }
}

/// One precision entry: a string, a number of bits, or `{"kind", "bits"}`.
fn describe_one(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(format!("{n} bits")),
        Value::Object(m) => {
            let kind = m.get("kind").and_then(Value::as_str);
            let bits = m.get("bits").and_then(Value::as_u64);
            match (kind, bits) {
                (Some(k), Some(b)) => Some(format!("{k} {b} bits")),
                (Some(k), None) => Some(k.to_string()),
                (None, Some(b)) => Some(format!("{b} bits")),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A compact description of the precision used: the whole value if it is simple, else the
/// steps that decide the proof (existence, stability, cross-check) in that order, then others.
fn describe_precision(v: &Value) -> String {
    if let Some(s) = describe_one(v) {
        return s;
    }
    let Value::Object(m) = v else {
        return String::new();
    };
    let order = ["existence", "stability", "cross_check"];
    // (step names, description); steps with the same description share one entry.
    let mut parts: Vec<(String, String)> = Vec::new();
    for k in order {
        if let Some(s) = m.get(k).and_then(describe_one) {
            let name = k.replace('_', "-");
            match parts.iter_mut().find(|(_, d)| *d == s) {
                Some(p) => p.0 = format!("{} + {name}", p.0),
                None => parts.push((name, s)),
            }
        }
    }
    let mut parts: Vec<String> = parts
        .into_iter()
        .map(|(n, d)| format!("{n}: {d}"))
        .collect();
    if parts.is_empty() {
        for (k, x) in m {
            if let Some(s) = describe_one(x) {
                parts.push(format!("{k}: {s}"));
            }
        }
    }
    parts.join("; ")
}

fn total_seconds(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Object(m) => {
            for k in ["total_s", "total", "total_seconds", "seconds", "wall_s"] {
                if let Some(x) = m.get(k).and_then(Value::as_f64) {
                    return Some(x);
                }
            }
            let vals: Vec<f64> = m.values().filter_map(Value::as_f64).collect();
            (!vals.is_empty()).then(|| vals.iter().sum())
        }
        _ => None,
    }
}

fn parse_certificate(v: &Value, source: &Path, line: Option<usize>) -> Result<Certificate> {
    let loc = |e: Error| e.at(source, line);
    let missing = |k: &str| loc(Error::new(ErrorKind::Parse, format!("missing field `{k}`")));
    let m: &Map<String, Value> = v
        .as_object()
        .ok_or_else(|| loc(Error::new(ErrorKind::Parse, "expected a JSON object")))?;
    let schema = match m.get("schema") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => {
            return Err(loc(Error::new(
                ErrorKind::Parse,
                "field `schema` must be a string",
            )))
        }
        None => return Err(missing("schema")),
    };
    let interval = |keys: &[&str], name: &str| -> Result<Interval> {
        let x = find(v, keys).ok_or_else(|| missing(name))?;
        interval_from_value(x).ok_or_else(|| {
            loc(Error::new(
                ErrorKind::Parse,
                format!("field `{name}` is not an interval (expected {{\"lo\": …, \"hi\": …}} or [lo, hi] with hex-float endpoints)"),
            ))
        })
    };
    let a = interval(&["a", "a_box", "a_interval"], "a")?;
    let b = interval(&["b", "b_box", "b_interval"], "b")?;
    for (name, i) in [("a", &a), ("b", &b)] {
        if !(i.lo <= i.hi) {
            return Err(loc(Error::new(
                ErrorKind::Parse,
                format!("field `{name}`: lower endpoint above upper endpoint"),
            )));
        }
    }
    let period = m
        .get("period")
        .and_then(Value::as_u64)
        .filter(|&p| p > 0)
        .ok_or_else(|| {
            loc(Error::new(
                ErrorKind::Parse,
                "field `period` must be a positive integer",
            ))
        })?;
    let status =
        parse_status(m.get("status").ok_or_else(|| missing("status"))?).ok_or_else(|| {
            loc(Error::new(
                ErrorKind::Parse,
                "field `status` must be one of sink, periodic-unstable, not-proven",
            ))
        })?;
    let opt_interval = |keys: &[&str]| find(v, keys).and_then(interval_from_value);
    let trace = opt_interval(&["trace", "trace_enclosure", "tr"]);
    let det = opt_interval(&["det", "det_enclosure"]);
    let boxes = find(
        v,
        &[
            "boxes",
            "orbit_boxes",
            "orbit_enclosure",
            "enclosure",
            "orbit",
        ],
    )
    .and_then(|x| parse_boxes(x, &b))
    .unwrap_or_default();
    let precision = find(v, &["precision", "prec", "bits"])
        .map(describe_precision)
        .unwrap_or_default();
    let seconds = find(v, &["timings", "timing", "time_s", "seconds"])
        .and_then(total_seconds)
        .or_else(|| {
            find(v, &["timings_us"])
                .and_then(total_seconds)
                .map(|us| us * 1e-6)
        });
    Ok(Certificate {
        schema,
        a,
        b,
        period,
        status,
        trace,
        det,
        boxes,
        precision,
        seconds,
        source: source.to_path_buf(),
    })
}

/// Collects the files to read: files as given, directories searched recursively for
/// `*.json` and `*.jsonl` (sorted; files named `manifest*`, `checkpoint*` or `*.tmp` skipped).
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<(PathBuf, bool)>> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, bool)>) -> Result<()> {
        let rd = std::fs::read_dir(dir).map_err(|e| {
            Error::new(ErrorKind::Io, format!("cannot read directory: {e}")).at(dir, None)
        })?;
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let ext_ok = name.ends_with(".json") || name.ends_with(".jsonl");
            let skipped = name.starts_with("manifest") || name.starts_with("checkpoint");
            if ext_ok && !skipped {
                out.push((p, false));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push((p.clone(), true));
        } else {
            return Err(Error::new(ErrorKind::Io, "no such file or directory").at(p, None));
        }
    }
    Ok(out)
}

/// Reads candidate files (JSON Lines) and certificate files (JSON: one object or a list), given
/// as files or directories. Refuses unreadable files, malformed records and mixed schemas.
pub fn load(paths: &[PathBuf]) -> Result<Inputs> {
    let mut inputs = Inputs::default();
    let mut cert_schema: Option<(String, PathBuf)> = None;
    let mut cand_schema: Option<(String, PathBuf)> = None;
    for (path, explicit) in collect_files(paths)? {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read: {e}")).at(&path, None))?;
        // A whole-file JSON document (a certificate or a list of them), else JSON Lines.
        let records: Vec<(Value, Option<usize>)> = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Array(items)) => items.into_iter().map(|v| (v, None)).collect(),
            Ok(v) => vec![(v, Some(1))],
            Err(whole_err) if path.extension().is_some_and(|e| e == "json") => {
                // A certificate file: report where the JSON breaks.
                return Err(
                    Error::new(ErrorKind::Parse, format!("not valid JSON: {whole_err}"))
                        .at(&path, Some(whole_err.line())),
                );
            }
            Err(whole_err) => {
                let mut recs = Vec::new();
                let mut any = false;
                for (i, l) in text.lines().enumerate() {
                    if l.trim().is_empty() {
                        continue;
                    }
                    any = true;
                    let v: Value = serde_json::from_str(l).map_err(|e| {
                        Error::new(ErrorKind::Parse, format!("not valid JSON: {e}"))
                            .at(&path, Some(i + 1))
                    })?;
                    recs.push((v, Some(i + 1)));
                }
                if !any {
                    return Err(Error::new(
                        ErrorKind::Parse,
                        format!("not valid JSON: {whole_err}"),
                    )
                    .at(&path, None));
                }
                recs
            }
        };
        let mut file_kind: Option<Kind> = None;
        for (v, line) in records {
            let kind = classify(&v);
            if kind == Kind::Other {
                // `expanse continue` and `expanse window` records: strips for the figure near a
                // target.
                if crate::near::is_strip_record(&v) {
                    inputs.strips.extend(crate::near::parse_strip(&v, &path)?);
                    continue;
                }
                if !explicit {
                    // A directory may hold other JSON (manifests, bench output): skip the file.
                    break;
                }
                return Err(Error::new(
                    ErrorKind::Parse,
                    "neither a candidate (needs `period`, `x`, `y`) nor a certificate (needs `schema`, `status`)",
                )
                .at(&path, line));
            }
            if let Some(k) = file_kind {
                if k != kind {
                    return Err(Error::new(
                        ErrorKind::MixedSchema,
                        "candidates and certificates mixed in one file",
                    )
                    .at(&path, line));
                }
            }
            file_kind = Some(kind);
            match kind {
                Kind::Candidate => {
                    // Candidates that carry a schema version must all carry the same one.
                    if let Some(sch) = v.get("schema").and_then(Value::as_str) {
                        match &cand_schema {
                            None => cand_schema = Some((sch.to_string(), path.clone())),
                            Some((s0, first)) if s0 != sch => {
                                return Err(Error::new(
                                    ErrorKind::MixedSchema,
                                    format!(
                                        "candidate schema {:?} differs from schema {:?} of {}",
                                        sch,
                                        s0,
                                        first.display()
                                    ),
                                )
                                .at(&path, line));
                            }
                            _ => {}
                        }
                    }
                    inputs
                        .candidates
                        .push(parse_candidate(&v, &path, line.unwrap_or(1))?);
                }
                Kind::Certificate => {
                    let c = parse_certificate(&v, &path, line)?;
                    match &cert_schema {
                        None => cert_schema = Some((c.schema.clone(), path.clone())),
                        Some((s, first)) if *s != c.schema => {
                            return Err(Error::new(
                                ErrorKind::MixedSchema,
                                format!(
                                    "certificate schema {:?} differs from schema {:?} of {}",
                                    c.schema,
                                    s,
                                    first.display()
                                ),
                            )
                            .at(&path, line));
                        }
                        _ => {}
                    }
                    inputs.certificates.push(c);
                }
                Kind::Other => unreachable!(),
            }
        }
    }
    Ok(inputs)
}

/// Reads `expanse bench … --json` output. Every object carrying a rate
/// (`iters_per_s`, `iterations_per_s`, `rate`, …) becomes a [`BenchRate`]; every object with a
/// `period` and a time (`seconds`, `time_s`, `median_s`, …) a [`ProofTiming`]. `backend` and
/// `precision` are inherited from enclosing objects when a record lacks them.
pub fn load_bench(path: &Path, inputs: &mut Inputs) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read: {e}")).at(path, None))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Error::new(ErrorKind::Parse, format!("not valid JSON: {e}")).at(path, Some(e.line()))
    })?;
    let before = (inputs.rates.len(), inputs.proof_timings.len());
    walk_bench(&v, &Ctx::default(), inputs);
    if (inputs.rates.len(), inputs.proof_timings.len()) == before {
        return Err(Error::new(
            ErrorKind::Parse,
            "no measurement found (expected objects with `iters_per_s` or `period` and `seconds`)",
        )
        .at(path, None));
    }
    Ok(())
}

#[derive(Clone, Default)]
struct Ctx {
    backend: Option<String>,
    precision: Option<String>,
}

fn str_field(m: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match m.get(*k) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// The name of an n-term precision: f64, dd, td, qd, 5-double …; f32 terms: f32, df32 (2),
/// qf32 (4), n×f32.
fn precision_label(term: &str, n: &str) -> String {
    match (term, n) {
        ("f64", "1") => "f64".into(),
        ("f64", "2") => "dd".into(),
        ("f64", "3") => "td".into(),
        ("f64", "4") => "qd".into(),
        ("f64", n) => format!("{n}-double"),
        ("f32", "1") => "f32".into(),
        ("f32", n) => format!("{n}×f32"),
        (t, n) => format!("{n}×{t}"),
    }
}

/// A number given as a JSON number or a numeric string.
fn as_num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
}

fn walk_bench(v: &Value, ctx: &Ctx, out: &mut Inputs) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| walk_bench(i, ctx, out)),
        Value::Object(m) => {
            let mut ctx = ctx.clone();
            if let Some(b) = str_field(m, &["backend", "device_kind", "target"]) {
                ctx.backend = Some(b);
            } else if let Some(b) = str_field(m, &["bench"]).filter(|b| b == "cpu" || b == "gpu") {
                ctx.backend = Some(b);
            } else if m.contains_key("devices") && ctx.backend.is_none() {
                // `expanse bench gpu --json` names its devices and not its backend.
                ctx.backend = Some("gpu".into());
            }
            if let Some(p) = str_field(m, &["precision", "prec", "format"]) {
                ctx.precision = Some(p);
            } else if let Some(n) = str_field(m, &["n", "terms"]) {
                let term = str_field(m, &["term", "base"]).unwrap_or_else(|| "f64".into());
                ctx.precision = Some(precision_label(&term, &n));
            }
            let rate = [
                "iters_per_s",
                "iterations_per_s",
                "iterations_per_second",
                "iter_per_s",
                "rate",
                "its_per_s",
            ]
            .iter()
            .find_map(|k| m.get(*k).and_then(as_num));
            let time = ["seconds", "time_s", "median_s", "mean_s", "secs", "wall_s"]
                .iter()
                .find_map(|k| m.get(*k).and_then(as_num))
                .or_else(|| {
                    ["total_ms", "time_ms", "median_ms", "ms"]
                        .iter()
                        .find_map(|k| m.get(*k).and_then(as_num))
                        .map(|ms| ms * 1e-3)
                })
                .or_else(|| {
                    ["total_us", "time_us", "us"]
                        .iter()
                        .find_map(|k| m.get(*k).and_then(as_num))
                        .map(|us| us * 1e-6)
                });
            if let Some(r) = rate.filter(|r| r.is_finite() && *r > 0.0) {
                out.rates.push(BenchRate {
                    backend: ctx.backend.clone().unwrap_or_else(|| "cpu".into()),
                    precision: ctx.precision.clone().unwrap_or_else(|| "?".into()),
                    iters_per_s: r,
                });
            } else if let (Some(p), Some(t)) = (m.get("period").and_then(Value::as_u64), time) {
                if t.is_finite() && t > 0.0 {
                    out.proof_timings.push(ProofTiming {
                        period: p,
                        seconds: t,
                        label: str_field(
                            m,
                            &["method", "label", "arithmetic", "precision", "prec"],
                        )
                        .or(ctx.precision.clone())
                        .unwrap_or_else(|| "proof".into()),
                    });
                }
            }
            for (_, child) in m {
                if child.is_object() || child.is_array() {
                    walk_bench(child, &ctx, out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centres_and_radii_give_x_boxes_and_y_from_b() {
        // Scalar form: x_i = c_i ± r_i and y_i = b·x_{i−1}.
        let v =
            serde_json::json!({"centres": ["0x1p+0", "-0x1p-1"], "radii": ["0x1p-10", "0x1p-10"]});
        let b = Interval::point(Float::with_val(53, 0.25));
        let boxes = parse_boxes(&v, &b).unwrap();
        let f = |i: &Interval| (i.lo.to_f64(), i.hi.to_f64());
        let r = 2f64.powi(-10);
        assert_eq!(f(&boxes[0].0), (1.0 - r, 1.0 + r));
        assert_eq!(f(&boxes[1].0), (-0.5 - r, -0.5 + r));
        // y_0 = b·x_1 = 0.25·[−0.5 − r, −0.5 + r].
        assert_eq!(f(&boxes[0].1), (-0.125 - r / 4.0, -0.125 + r / 4.0));
        assert_eq!(f(&boxes[1].1), (0.25 * (1.0 - r), 0.25 * (1.0 + r)));
    }

    #[test]
    fn bench_outputs_of_the_gpu_and_prove_benches() {
        // The shapes `expanse bench gpu --json` and `expanse bench prove --json` print.
        let gpu = serde_json::json!({"devices": "1 × H100", "results": [
            {"term": "f64", "n": 2, "seconds": 0.5, "iterations_per_second": 2.0e10},
            {"term": "f32", "n": 2, "seconds": 0.5, "iterations_per_second": 3.0e10}]});
        let prove = serde_json::json!({"bench": "prove", "rows": [
            {"period": 7, "arithmetic": "f64-interval", "bits": 53, "total_ms": "1.500"}]});
        let mut inputs = Inputs::default();
        walk_bench(&gpu, &Ctx::default(), &mut inputs);
        walk_bench(&prove, &Ctx::default(), &mut inputs);
        let rates: Vec<(&str, &str, f64)> = inputs
            .rates
            .iter()
            .map(|r| (r.backend.as_str(), r.precision.as_str(), r.iters_per_s))
            .collect();
        assert_eq!(rates, vec![("gpu", "dd", 2.0e10), ("gpu", "2×f32", 3.0e10)]);
        assert_eq!(
            inputs.proof_timings,
            vec![ProofTiming {
                period: 7,
                seconds: 1.5e-3,
                label: "f64-interval".into()
            }]
        );
    }

    #[test]
    fn statuses_parse_in_several_spellings() {
        assert_eq!(
            Status::parse("periodic-unstable"),
            Some(Status::PeriodicUnstable)
        );
        assert_eq!(Status::parse("NotProven"), Some(Status::NotProven));
        assert_eq!(
            parse_status(&serde_json::json!({"Sink": {"margin": 1}})),
            Some(Status::Sink)
        );
        assert_eq!(Status::parse("stable?"), None);
    }

    #[test]
    fn precision_descriptions_merge_equal_steps() {
        let v = serde_json::json!({
            "existence": {"kind": "f64-interval", "bits": 53},
            "stability": {"kind": "f64-interval", "bits": 53},
            "cross_check": {"kind": "mpfr-interval", "bits": 146},
            "refine": {"kind": "mpfr-float", "bits": 88}
        });
        assert_eq!(
            describe_precision(&v),
            "existence + stability: f64-interval 53 bits; cross-check: mpfr-interval 146 bits"
        );
    }
}
