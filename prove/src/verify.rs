//! Independent re-checking of certificates: every inclusion is recomputed from the stored
//! parameter box, period, arithmetic and boxes; stored conclusions (status, contraction,
//! trace) are only compared with what is recomputed, never trusted.
//!
//! Checks, in order: schema and map; parameters (the stored box contains the given value ± the
//! radius, exactly, and `exact` is true only for a one-point box equal to the value); every
//! stored number is representable in the stated arithmetic (so a lowered precision is caught);
//! one centre and one positive radius per orbit point; K(X) ⊂ int X recomputed; minimal period
//! recomputed; the Jury decision recomputed and equal to the status; the stored trace contains
//! the recomputed one; the MPFR cross-check re-run (when the certificate has one) and agreeing.

use crate::cert::SCHEMA;
use crate::crosscheck::cross_check;
use crate::engine::Status;
use crate::error::{Error, ErrorKind};
use crate::ivl::{ExpIv, F64Iv, Ivl, MpIv};
use crate::krawczyk::eval;
use crate::numfmt::{parse_exact, parse_hex};
use crate::params::{Param, ParamBox};
use crate::stability::{minimal_period, stability, Stability};
use rug::{Float, Integer, Rational};
use serde_json::Value;

/// The verdict on a certificate that could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every claim was re-established.
    Valid {
        /// The status re-established.
        status: Status,
        /// Notes (e.g. "cross-check skipped").
        notes: Vec<String>,
    },
    /// Some claim failed to re-establish.
    NotValid {
        /// What failed.
        reasons: Vec<String>,
    },
}

/// Largest period and precision verify accepts (beyond: unusable, to bound the work).
pub const MAX_PERIOD: u64 = 10_000_000;
/// Largest precision in bits.
pub const MAX_BITS: u64 = 1 << 20;

fn unusable(m: impl Into<String>) -> Error {
    Error::new(ErrorKind::BadCertificate, m)
}

fn field<'a>(v: &'a Value, path: &str) -> Result<&'a Value, Error> {
    let mut cur = v;
    for k in path.split('.') {
        cur = cur
            .get(k)
            .ok_or_else(|| unusable(format!("missing field `{path}`")))?;
    }
    Ok(cur)
}

fn str_field<'a>(v: &'a Value, path: &str) -> Result<&'a str, Error> {
    field(v, path)?
        .as_str()
        .ok_or_else(|| unusable(format!("field `{path}` must be a string")))
}

fn hex_field(v: &Value, path: &str) -> Result<Float, Error> {
    let s = str_field(v, path)?;
    parse_hex(s).ok_or_else(|| unusable(format!("field `{path}`: {s:?} is not a finite hex float")))
}

fn rat_field(v: &Value, path: &str) -> Result<Rational, Error> {
    let s = str_field(v, path)?;
    let (n, d) = s
        .split_once('/')
        .ok_or_else(|| unusable(format!("field `{path}`: {s:?} is not a rational n/d")))?;
    let n = Integer::from_str_radix(n.trim(), 10)
        .map_err(|_| unusable(format!("field `{path}`: bad numerator")))?;
    let d = Integer::from_str_radix(d.trim(), 10)
        .map_err(|_| unusable(format!("field `{path}`: bad denominator")))?;
    if d <= 0 {
        return Err(unusable(format!(
            "field `{path}`: denominator must be positive"
        )));
    }
    Ok(Rational::from((n, d)))
}

/// True when `v` is exactly representable in the arithmetic (`bits` bits; f64 range for f64).
fn representable(v: &Float, kind: &str, bits: u32) -> bool {
    if !v.is_finite() {
        return false;
    }
    if v.is_zero() {
        return true;
    }
    let sig = v.to_integer_exp().map(|(m, _)| {
        let m = m.abs();
        let tz = m.find_one(0).unwrap_or(0);
        m.significant_bits() - tz
    });
    let Some(sig) = sig else { return false };
    if sig > bits {
        return false;
    }
    if kind == F64Iv::KIND {
        let f = v.to_f64();
        return f.is_finite() && Float::with_val(64, f) == *v && f.abs() >= f64::MIN_POSITIVE;
    }
    true
}

fn read_param(
    v: &Value,
    name: &str,
    kind: &str,
    bits: u32,
    bad: &mut Vec<String>,
) -> Result<Param, Error> {
    let given = str_field(v, &format!("{name}.given"))?.to_string();
    let value = rat_field(v, &format!("{name}.value"))?;
    let radius = rat_field(v, &format!("{name}.radius"))?;
    let exact = field(v, &format!("{name}.exact"))?
        .as_bool()
        .ok_or_else(|| unusable(format!("field `{name}.exact` must be true or false")))?;
    let lo = hex_field(v, &format!("{name}.lo"))?;
    let hi = hex_field(v, &format!("{name}.hi"))?;
    let centre = hex_field(v, &format!("{name}.centre"))?;
    match parse_exact(&given) {
        Ok(q) if q == value => {}
        Ok(_) => bad.push(format!(
            "{name}: `value` is not the value of `given` {given:?}"
        )),
        Err(e) => bad.push(format!("{name}: `given` unreadable: {e}")),
    }
    if radius < 0 {
        bad.push(format!("{name}: negative radius"));
    }
    let (lq, hq) = (
        lo.to_rational().expect("finite"),
        hi.to_rational().expect("finite"),
    );
    if !(lq <= Rational::from(&value - &radius) && Rational::from(&value + &radius) <= hq) {
        bad.push(format!(
            "{name}: the box [lo, hi] does not contain {given} ± radius"
        ));
    }
    if exact && !(lq == value && hq == value && radius == 0) {
        bad.push(format!(
            "{name}: marked exact but the box is not the single value {given}"
        ));
    }
    for (what, x) in [("lo", &lo), ("hi", &hi), ("centre", &centre)] {
        if !representable(x, kind, bits) {
            bad.push(format!(
                "{name}.{what} is not representable in {kind} at {bits} bits"
            ));
        }
    }
    Ok(Param {
        given,
        value,
        radius,
        lo,
        hi,
        centre,
    })
}

/// Verifies a certificate given as text. `Err` means unusable input (not JSON, unknown schema,
/// missing or malformed fields).
pub fn verify_text(text: &str) -> Result<Verdict, Error> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| unusable(format!("not a JSON certificate: {e}")))?;
    verify_value(&v)
}

/// Verifies a parsed certificate.
pub fn verify_value(v: &Value) -> Result<Verdict, Error> {
    let schema = str_field(v, "schema")?;
    if schema != SCHEMA {
        return Err(unusable(format!(
            "unknown schema {schema:?} (this version reads {SCHEMA:?})"
        )));
    }
    let map = str_field(v, "map")?;
    if map != "henon" {
        return Err(unusable(format!("unknown map {map:?}")));
    }
    let status_s = str_field(v, "status")?;
    let status =
        Status::parse(status_s).ok_or_else(|| unusable(format!("unknown status {status_s:?}")))?;
    let period = field(v, "period")?
        .as_u64()
        .ok_or_else(|| unusable("field `period` must be a positive integer"))?;
    if period == 0 || period > MAX_PERIOD {
        return Err(unusable(format!(
            "period {period} out of range 1..={MAX_PERIOD}"
        )));
    }
    let p = period as usize;
    let kind = str_field(v, "arithmetic.kind")?;
    let bits = field(v, "arithmetic.bits")?
        .as_u64()
        .ok_or_else(|| unusable("field `arithmetic.bits` must be an integer"))?;
    let kind: &'static str = match kind {
        k if k == F64Iv::KIND => F64Iv::KIND,
        k if k == MpIv::KIND => MpIv::KIND,
        k if k == <ExpIv<2> as Ivl>::KIND => <ExpIv<2> as Ivl>::KIND,
        k => return Err(unusable(format!("unknown arithmetic {k:?}"))),
    };
    let exp_ok = [106, 159, 212].contains(&bits);
    if !(2..=MAX_BITS).contains(&bits)
        || (kind == F64Iv::KIND && bits != 53)
        || (kind == <ExpIv<2> as Ivl>::KIND && !exp_ok)
    {
        return Err(unusable(format!(
            "arithmetic bits {bits} not valid for {kind}"
        )));
    }
    let bits = bits as u32;
    if status == Status::NotProven {
        return Ok(Verdict::NotValid {
            reasons: vec!["the certificate claims nothing (status not-proven)".into()],
        });
    }
    let mut bad = Vec::new();
    let a = read_param(v, "a", kind, bits, &mut bad)?;
    let b = read_param(v, "b", kind, bits, &mut bad)?;
    let pb = ParamBox { a, b };
    let arr = |path: &str| -> Result<Vec<Float>, Error> {
        let items = field(v, path)?
            .as_array()
            .ok_or_else(|| unusable(format!("field `{path}` must be a list")))?;
        items
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let s = s
                    .as_str()
                    .ok_or_else(|| unusable(format!("`{path}`[{i}] must be a string")))?;
                parse_hex(s).ok_or_else(|| {
                    unusable(format!("`{path}`[{i}]: {s:?} is not a finite hex float"))
                })
            })
            .collect()
    };
    let centres = arr("orbit.centres")?;
    let radii = arr("orbit.radii")?;
    if centres.len() != p || radii.len() != p {
        bad.push(format!(
            "period {p} but {} centres and {} radii",
            centres.len(),
            radii.len()
        ));
        return Ok(Verdict::NotValid { reasons: bad });
    }
    for (i, c) in centres.iter().enumerate() {
        if !representable(c, kind, bits) {
            bad.push(format!(
                "centre {i} is not representable in {kind} at {bits} bits"
            ));
            break;
        }
    }
    if radii.iter().any(|r| !(r.is_finite() && *r > 0)) {
        bad.push("every radius must be positive and finite".into());
    }
    if !bad.is_empty() {
        return Ok(Verdict::NotValid { reasons: bad });
    }
    // Existence and uniqueness.
    macro_rules! by_kind {
        ($f:ident ( $($arg:expr),* )) => {
            match (kind, bits) {
                (k, _) if k == F64Iv::KIND => $f::<F64Iv>($($arg),*),
                (k, 106) if k == <ExpIv<2> as Ivl>::KIND => $f::<ExpIv<2>>($($arg),*),
                (k, 159) if k == <ExpIv<2> as Ivl>::KIND => $f::<ExpIv<3>>($($arg),*),
                (k, 212) if k == <ExpIv<2> as Ivl>::KIND => $f::<ExpIv<4>>($($arg),*),
                _ => $f::<MpIv>($($arg),*),
            }
        };
    }
    let ke = by_kind!(eval(&centres, &radii, &pb, bits));
    match ke {
        Ok(k) if k.inside => {}
        Ok(k) => bad.push(format!(
            "K(X) is not inside X (worst ratio {:.3e})",
            k.worst_ratio
        )),
        Err(e) => bad.push(format!("Krawczyk enclosure failed: {e:?}")),
    }
    if !bad.is_empty() {
        return Ok(Verdict::NotValid { reasons: bad });
    }
    // Minimal period.
    let mp = by_kind!(minimal_period(&centres, &radii, bits));
    if let Err(d) = mp {
        bad.push(format!(
            "minimal period not shown: X_i and X_(i+{d}) overlap for every i"
        ));
    }
    // Stability.
    fn stab<S: Ivl>(
        c: &[Float],
        r: &[Float],
        pb: &ParamBox,
        bits: u32,
    ) -> (Stability, (Float, Float)) {
        let s = stability::<S>(c, r, pb, bits);
        (s.decision, (s.trace.lo(), s.trace.hi()))
    }
    let (decision, tr) = by_kind!(stab(&centres, &radii, &pb, bits));
    let want = if status == Status::Sink {
        Stability::Attracting
    } else {
        Stability::NotAttracting
    };
    if decision != want {
        bad.push(format!(
            "status {status_s} but the recomputed stability is {decision:?}"
        ));
    }
    match (hex_field(v, "trace.lo"), hex_field(v, "trace.hi")) {
        (Ok(lo), Ok(hi)) => {
            if !(lo <= tr.0 && tr.1 <= hi) {
                bad.push("the stored trace enclosure does not contain the recomputed one".into());
            }
        }
        _ => bad.push("trace enclosure missing or malformed".into()),
    }
    // Cross-check.
    let mut notes = Vec::new();
    let cc = field(v, "cross_check")?;
    if cc.get("skipped").and_then(|s| s.as_bool()) == Some(true) {
        notes.push("the certificate has no cross-check (skipped when proved)".into());
    } else {
        let ccbits = field(cc, "bits")?
            .as_u64()
            .filter(|b| (64..=MAX_BITS).contains(b))
            .ok_or_else(|| unusable("field `cross_check.bits` must be an integer in 64..2^20"))?
            as u32;
        let pbc = ParamBox {
            a: Param::from_exact(&pb.a.given, pb.a.value.clone(), pb.a.radius.clone(), ccbits),
            b: Param::from_exact(&pb.b.given, pb.b.value.clone(), pb.b.radius.clone(), ccbits),
        };
        // Endpoint intervals here, whatever the prover used (a second implementation).
        let r = cross_check::<MpIv>(&centres[0], &centres[p - 1], p, &pbc, ccbits);
        if !r.proved {
            bad.push(format!(
                "the MPFR cross-check does not prove a fixed point of h^p: {}",
                r.reason.unwrap_or_default()
            ));
        } else if r.decision != want {
            bad.push(format!("the MPFR cross-check decides {:?}", r.decision));
        }
    }
    if bad.is_empty() {
        Ok(Verdict::Valid { status, notes })
    } else {
        Ok(Verdict::NotValid { reasons: bad })
    }
}
