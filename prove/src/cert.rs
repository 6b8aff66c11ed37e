//! Certificates: the versioned JSON record of a proof, written atomically.
//!
//! Schema `expanse-certificate/1` (every binary number is an exact C99 hex float string;
//! rationals are `"num/den"` strings; times are integer microseconds):
//!
//! | field | meaning |
//! | --- | --- |
//! | `schema` | `"expanse-certificate/1"` |
//! | `map` | `"henon"`: h(x, y) = (1 + y − a·x², b·x) |
//! | `tool` | `{name, version}` of the program that wrote it |
//! | `source` | where the candidate came from (`file:line` or `command line`) |
//! | `status` | `sink`, `periodic-unstable` or `not-proven` |
//! | `reason` | why not proven (null otherwise) |
//! | `period` | p |
//! | `a`, `b` | `{given, value, radius, exact, lo, hi, centre}`: the text given, its exact value and radius (rationals), whether the box is exactly that binary number, the box endpoints, and the centre used for the preconditioner |
//! | `arithmetic` | `{kind, bits}`: `f64-interval` (53), `exp-interval` (106, 159, 212) or `mpfr-interval` (bits) of the main proof: the numbers every stored value fits; the prover encloses MPFR as midpoint-radius balls, `verify` recomputes with endpoint intervals |
//! | `orbit` | `{centres, radii}`: x̌_i and r_i, X_i = [x̌_i − r_i, x̌_i + r_i], y_i = b·x_{i−1} |
//! | `boxes` | `{x: [{lo, hi}], y: [{lo, hi}]}`: the orbit boxes rounded outward to f64, for plotting (not read by verify) |
//! | `point` | z_0 in short decimal, for humans only |
//! | `existence` | `{method: "krawczyk-cyclic", result, contraction, inflations}` |
//! | `minimal_period` | `{witnesses: [[d, i], …]}`: X_i ∩ X_{i+d} = ∅ |
//! | `trace`, `det` | `{lo, hi}` enclosures of tr Dh^p and det Dh^p over the boxes |
//! | `stability` | `attracting`, `not-attracting`, `undecided` |
//! | `cross_check` | `{method: "krawczyk-2d-direct", bits, proved, centre, radii, trace, stability, agrees}` or `{skipped: true}` |
//! | `precision` | `{summary, growth_bits: {l1, l2}, refine: {kind, bits, iterations}, existence: {kind, bits, solve_bits}, stability: {kind, bits}, cross_check: {kind, bits, jacobian_bits}, attempts: [{kind, bits, outcome, us}]}` (informative: what ran at which precision; not read by verify) |
//! | `timings_us` | `{refine, existence, stability, cross_check, total}`; `timings.total_s` the total in seconds |
//!
//! `expanse verify` ([`crate::verify`]) recomputes every inclusion from `a`, `b`, `period`,
//! `arithmetic` and `orbit` alone; the stored conclusions are only compared with the
//! recomputed ones.

use crate::engine::Proof;
use crate::error::{Error, ErrorKind};
use crate::numfmt::{to_hex, to_short_decimal};
use crate::params::Param;
use crate::stability::Stability;
use rug::{Float, Rational};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

/// The schema string this version writes and reads.
pub const SCHEMA: &str = "expanse-certificate/1";

fn rat(q: &Rational) -> String {
    format!("{}/{}", q.numer(), q.denom())
}

fn param_json(p: &Param) -> Value {
    json!({
        "given": p.given,
        "value": rat(&p.value),
        "radius": rat(&p.radius),
        "exact": p.is_exact(),
        "lo": to_hex(&p.lo),
        "hi": to_hex(&p.hi),
        "centre": to_hex(&p.centre),
    })
}

fn stab_str(s: Stability) -> &'static str {
    match s {
        Stability::Attracting => "attracting",
        Stability::NotAttracting => "not-attracting",
        Stability::Undecided => "undecided",
    }
}

fn us(ms: f64) -> u64 {
    (ms * 1e3).round().max(0.0) as u64
}

fn iv_json(v: &Option<(Float, Float)>) -> Value {
    match v {
        Some((lo, hi)) => json!({"lo": to_hex(lo), "hi": to_hex(hi)}),
        None => Value::Null,
    }
}

/// Builds the certificate JSON of a proof.
pub fn certificate(pr: &Proof) -> Value {
    use crate::krawczyk::Existence;
    let p = pr.candidate.period;
    let existence = match &pr.existence {
        Some(Existence::Proved {
            contraction,
            inflations,
            ..
        }) => json!({
            "method": "krawczyk-cyclic",
            "result": "proved",
            "contraction": format!("{contraction:.6e}"),
            "inflations": inflations,
        }),
        Some(Existence::NoZero { reason }) => {
            json!({"method": "krawczyk-cyclic", "result": "no-zero", "detail": reason})
        }
        Some(Existence::Undecided { reason }) => {
            json!({"method": "krawczyk-cyclic", "result": "undecided", "detail": reason})
        }
        None => json!({"method": "krawczyk-cyclic", "result": "not-run"}),
    };
    let witnesses: Value = match &pr.min_period {
        Ok(w) => json!(w.iter().map(|(d, i)| json!([d, i])).collect::<Vec<_>>()),
        Err(_) => Value::Null,
    };
    let cross = match &pr.cross {
        Some(cc) => json!({
            "method": "krawczyk-2d-direct",
            "kind": "mpfr-interval",
            "bits": cc.bits,
            "proved": cc.proved,
            "centre": [to_hex(&cc.centre[0]), to_hex(&cc.centre[1])],
            "radii": [to_hex(&cc.radii[0]), to_hex(&cc.radii[1])],
            "trace": iv_json(&cc.trace),
            "stability": stab_str(cc.decision),
            "contraction": format!("{:.6e}", cc.contraction),
            "agrees": cc.proved && cc.decision == pr.stability,
            "detail": cc.reason,
        }),
        None => json!({"skipped": true}),
    };
    let point = if pr.centres.is_empty() {
        Value::Null
    } else {
        let y = Float::with_val(pr.bits.max(53), &pr.params.b.centre * &pr.centres[p - 1]);
        json!({"x": to_short_decimal(&pr.centres[0]), "y": to_short_decimal(&y)})
    };
    // Orbit boxes rounded outward to f64, for readers that draw them (verify ignores them).
    let boxes = if pr.centres.is_empty() || pr.radii.len() != p {
        Value::Null
    } else {
        use crate::ivl::{F64Iv, Ivl, MpIv};
        use crate::stability::box_of;
        let f64box = |iv: &MpIv| {
            let f = F64Iv::from_bounds(&iv.lo(), &iv.hi(), 53);
            json!({"lo": to_hex(&f.lo()), "hi": to_hex(&f.hi())})
        };
        let ib = MpIv::from_bounds(&pr.params.b.lo, &pr.params.b.hi, 64);
        let xb: Vec<MpIv> = (0..p)
            .map(|i| box_of::<MpIv>(&pr.centres[i], &pr.radii[i], 64))
            .collect();
        json!({
            "x": xb.iter().map(f64box).collect::<Vec<_>>(),
            "y": (0..p).map(|i| f64box(&ib.mul(&xb[(i + p - 1) % p]))).collect::<Vec<_>>(),
        })
    };
    json!({
        "boxes": boxes,
        "timings": {"total_s": pr.timings[4] / 1e3},
        "schema": SCHEMA,
        "map": "henon",
        "tool": {"name": "expanse", "version": env!("CARGO_PKG_VERSION")},
        "source": pr.candidate.source,
        "status": pr.status.as_str(),
        "reason": pr.reason,
        "period": p,
        "a": param_json(&pr.params.a),
        "b": param_json(&pr.params.b),
        "arithmetic": {"kind": pr.kind, "bits": pr.bits},
        "orbit": {
            "centres": pr.centres.iter().map(to_hex).collect::<Vec<_>>(),
            "radii": pr.radii.iter().map(to_hex).collect::<Vec<_>>(),
        },
        "point": point,
        "existence": existence,
        "minimal_period": {"witnesses": witnesses},
        "trace": iv_json(&pr.trace),
        "det": iv_json(&pr.det),
        "stability": stab_str(pr.stability),
        "cross_check": cross,
        "precision": {
            "summary": format!("{} {} bits", pr.kind, pr.bits),
            "growth_bits": {"l1": format!("{:.3}", pr.growth.l1), "l2": format!("{:.3}", pr.growth.l2)},
            "refine": {"kind": "mpfr-float", "bits": pr.refine.0, "iterations": pr.refine.1},
            "existence": {"kind": pr.kind, "bits": pr.bits, "solve_bits": pr.solve_bits},
            "stability": {"kind": pr.kind, "bits": pr.stab_bits},
            "cross_check": pr.cross.as_ref().map(|c| json!({"kind": "mpfr-interval", "bits": c.bits, "jacobian_bits": c.jacobian_bits})),
            "attempts": pr.attempts.iter().map(|a| json!({"kind": a.kind, "bits": a.bits, "outcome": a.outcome, "us": us(a.ms)})).collect::<Vec<_>>(),
        },
        "timings_us": {
            "refine": us(pr.timings[0]),
            "existence": us(pr.timings[1]),
            "stability": us(pr.timings[2]),
            "cross_check": us(pr.timings[3]),
            "total": us(pr.timings[4]),
        },
    })
}

/// Writes `value` to `path` atomically (temporary file in the same folder, fsync, rename).
/// Refuses to replace an existing file unless `force`.
pub fn write_atomic(path: &Path, value: &Value, force: bool) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("{}: {e}", path.display()));
    if path.exists() && !force {
        return Err(Error::new(
            ErrorKind::Io,
            format!("{} exists (use --force to overwrite)", path.display()),
        ));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
    {
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(text.as_bytes()).map_err(io)?;
        f.write_all(b"\n").map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(())
}
