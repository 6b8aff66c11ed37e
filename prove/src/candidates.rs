//! Reading candidates: JSON Lines from `expanse search` (one object per line), parsed leniently
//! so that a bad line is reported with its number and the others still run.
//!
//! Accepted per line: `map` (if present, `"henon"`); `a`, `b` as `{"decimal": …, "hex": …}`
//! (the decimal is what the proof encloses; the hex is used when there is no decimal), or as a
//! string or JSON number; `period` (positive integer, or a string of digits); `x`, `y` as a list
//! of expansion terms (hex floats or decimals, summed exactly), a string or a number; optional
//! `radius` (decimal string); `schema`, if present, must be `expanse-candidate/1`. Other
//! fields are ignored.

use crate::engine::Candidate;
use crate::error::{Error, ErrorKind};
use crate::numfmt::{parse_decimal, parse_exact};
use rug::{Float, Rational};
use serde_json::Value;

/// The candidate schema this version reads (lines without `schema` are read too).
pub const CANDIDATE_SCHEMA: &str = "expanse-candidate/1";

fn bad(source: &str, m: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::BadCandidate, format!("{source}: {m}"))
}

fn number_text(v: &Value, name: &str, source: &str) -> Result<String, Error> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Object(o) => {
            for k in ["decimal", "hex"] {
                if let Some(Value::String(s)) = o.get(k) {
                    return Ok(s.clone());
                }
            }
            Err(bad(
                source,
                format!("`{name}` needs a \"decimal\" or \"hex\" string"),
            ))
        }
        _ => Err(bad(
            source,
            format!("`{name}` must be a number, a string or {{\"decimal\", \"hex\"}}"),
        )),
    }
}

/// An exact point coordinate from a list of expansion terms, a string or a number.
fn coordinate(v: &Value, name: &str, source: &str) -> Result<Float, Error> {
    let terms: Vec<String> = match v {
        Value::Array(items) => items
            .iter()
            .map(|t| number_text(t, name, source))
            .collect::<Result<_, _>>()?,
        other => vec![number_text(other, name, source)?],
    };
    if terms.is_empty() {
        return Err(bad(source, format!("`{name}` has no terms")));
    }
    let mut sum = Rational::new();
    for t in &terms {
        let q = parse_exact(t).map_err(|e| bad(source, format!("`{name}`: {e}")))?;
        sum += q;
    }
    Ok(Float::with_val(4096, &sum))
}

/// Parses one candidate line. `radius` (the command line's `--param-radius`) overrides the
/// line's own `radius` when given.
pub fn parse_line(line: &str, source: &str, radius: Option<&Rational>) -> Result<Candidate, Error> {
    let v: Value =
        serde_json::from_str(line).map_err(|e| bad(source, format!("not a JSON object: {e}")))?;
    if !v.is_object() {
        return Err(bad(source, "not a JSON object"));
    }
    if let Some(sc) = v.get("schema") {
        if sc.as_str() != Some(CANDIDATE_SCHEMA) {
            return Err(bad(
                source,
                format!("unknown schema {sc} (this version reads {CANDIDATE_SCHEMA:?})"),
            ));
        }
    }
    if let Some(m) = v.get("map") {
        if m.as_str() != Some("henon") {
            return Err(bad(source, format!("unknown map {m}")));
        }
    }
    let get = |k: &str| {
        v.get(k)
            .ok_or_else(|| bad(source, format!("missing field `{k}`")))
    };
    let a = number_text(get("a")?, "a", source)?;
    let b = number_text(get("b")?, "b", source)?;
    for (n, t) in [("a", &a), ("b", &b)] {
        parse_exact(t).map_err(|e| bad(source, format!("`{n}`: {e}")))?;
    }
    let period = match get("period")? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
    .ok_or_else(|| bad(source, "`period` must be a positive integer"))?;
    if period == 0 {
        return Err(bad(source, "`period` must be at least 1"));
    }
    if period > 10_000_000 {
        return Err(bad(source, "`period` larger than 10^7"));
    }
    let x = coordinate(get("x")?, "x", source)?;
    let y = coordinate(get("y")?, "y", source)?;
    let radius = match (radius, v.get("radius")) {
        (Some(r), _) => r.clone(),
        (None, Some(r)) => {
            let t = number_text(r, "radius", source)?;
            parse_decimal(&t).map_err(|e| bad(source, format!("`radius`: {e}")))?
        }
        (None, None) => Rational::new(),
    };
    if radius < 0 {
        return Err(bad(source, "negative parameter radius"));
    }
    Ok(Candidate {
        source: source.to_string(),
        a,
        b,
        radius,
        period: period as usize,
        x,
        y,
        orbit: None,
    })
}

/// Parses a whole candidates file: one result per non-blank line, tagged `file:line`.
pub fn parse_file(
    text: &str,
    file: &str,
    radius: Option<&Rational>,
) -> Vec<Result<Candidate, Error>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l, &format!("{file}:{}", i + 1), radius))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_lines_parse_and_bad_lines_name_their_line() {
        let text = r#"{"map":"henon","a":{"decimal":"1.25","hex":"0x1.4p+0"},"b":{"decimal":"0.3","hex":"0x1.3333333333333p-2"},"period":7,"x":["0x1.8p-1","0x1p-60"],"y":["0x1.3333333333333p-3"],"prec":"dd","residual":"1e-20"}
{"a":"1.25","b":"0.3","period":0,"x":"0.5","y":"0.1"}

{"a":"nan","b":"0.3","period":7,"x":"0.5","y":"0.1"}
not json
{"a":1.25,"b":0.3,"period":"7","x":0.5,"y":[0.1]}
{"a":"1.25","b":"0.3","period":7,"x":"0.5","y":"0.1","radius":"-1e-8"}
{"schema":"expanse-candidate/9","a":"1.25","b":"0.3","period":7,"x":"0.5","y":"0.1"}"#;
        let r = parse_file(text, "c.jsonl", None);
        assert_eq!(r.len(), 7);
        let c = r[0].as_ref().unwrap();
        assert_eq!(c.period, 7);
        assert_eq!(c.a, "1.25");
        let want = Float::with_val(200, 0.75) + Float::with_val(200, 2f64.powi(-60));
        assert_eq!(c.x, want);
        let msg = |i: usize| r[i].as_ref().unwrap_err().message.clone();
        assert!(msg(1).starts_with("c.jsonl:2:") && msg(1).contains("period"));
        assert!(msg(2).starts_with("c.jsonl:4:") && msg(2).contains("not finite"));
        assert!(msg(3).starts_with("c.jsonl:5:"));
        assert!(r[4].is_ok());
        assert!(msg(5).starts_with("c.jsonl:7:") && msg(5).contains("negative"));
        assert!(msg(6).starts_with("c.jsonl:8:") && msg(6).contains("unknown schema"));
    }
}
