//! Exact numbers read from the JSON files, and their printing with directed rounding.
//!
//! The files of search and prove store numbers as strings: C99 hex floats (`0x1.8p+0`, exact
//! binary values, possibly with more than 53 bits when an endpoint comes from MPFR), lists of
//! hex-float terms (expansions, summed exactly here), or decimal strings. They are read into
//! `rug::Float`s that hold them exactly (decimals, which are generally not binary numbers, are
//! rounded in a stated direction). Tables print interval endpoints rounded *outward* (lower end
//! down, upper end up), so a printed enclosure still contains what the certificate proved.

use crate::error::{Error, ErrorKind};
use rug::float::Round;
use rug::{Float, Integer};
use serde_json::Value;

/// Precision used when a decimal string has to be rounded (far above any expansion's).
const DECIMAL_PREC: u32 = 1024;

/// Parses a C99 hex float (`-0x1.8p+3`, `0x0p+0`, `inf`, `-inf`, `nan`) exactly, whatever the
/// number of hex digits.
pub fn parse_hex(s: &str) -> Option<Float> {
    let t = s.trim();
    let (neg, body) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    match body.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => {
            let v = Float::with_val(53, f64::INFINITY);
            return Some(if neg { -v } else { v });
        }
        "nan" => return Some(Float::with_val(53, f64::NAN)),
        _ => {}
    }
    let body = body
        .strip_prefix("0x")
        .or_else(|| body.strip_prefix("0X"))?;
    let (mant, exp) = match body.find(['p', 'P']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    let digits: String = format!("{int_part}{frac_part}");
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let m = Integer::from_str_radix(&digits, 16).ok()?;
    let shift = exp.checked_sub(4 * frac_part.len() as i64)?;
    let shift = i32::try_from(shift).ok()?;
    // Enough bits to hold the integer mantissa exactly.
    let prec = (m.significant_bits().max(1) + 1).max(53);
    let mut v = Float::with_val(prec, &m);
    v <<= shift;
    if neg {
        v = -v;
    }
    Some(v)
}

/// Parses a decimal string, rounding in direction `round` at high precision.
pub fn parse_decimal(s: &str, round: Round) -> Option<Float> {
    let t = s.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
        return None;
    }
    let p = Float::parse(t).ok()?;
    Some(Float::with_val_round(DECIMAL_PREC, p, round).0)
}

/// Parses a number string: hex float if it looks like one, else decimal rounded by `round`.
pub fn parse_number_str(s: &str, round: Round) -> Option<Float> {
    let t = s.trim().to_ascii_lowercase();
    if t.contains("0x") || t.ends_with("inf") || t.ends_with("infinity") || t == "nan" {
        parse_hex(s)
    } else {
        parse_decimal(s, round)
    }
}

/// Reads a number from the JSON forms the tools write: a hex or decimal string, a JSON number,
/// a list of hex-float terms (an expansion, summed exactly), or an object with `hex`, `terms`,
/// `value` or `decimal` (tried in that order, preferring exact forms).
pub fn number_from_value(v: &Value, round: Round) -> Option<Float> {
    match v {
        Value::String(s) => parse_number_str(s, round),
        Value::Number(n) => {
            // Integers of at most 53 bits are exact; any other JSON number reached us as the
            // f64 nearest to its text, so the text lies within one ulp of it: step one ulp in
            // the requested direction to keep enclosures sound.
            if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= 1 << 53) {
                return Some(Float::with_val(64, i));
            }
            let mut f = Float::with_val(53, n.as_f64()?);
            match round {
                Round::Down => f.next_down(),
                Round::Up => f.next_up(),
                _ => {}
            }
            Some(f)
        }
        Value::Array(items) => {
            if items.is_empty() {
                return None;
            }
            let mut terms = Vec::with_capacity(items.len());
            for it in items {
                terms.push(number_from_value(it, round)?);
            }
            Some(exact_sum(&terms))
        }
        Value::Object(m) => {
            for key in ["hex", "terms", "value", "exact", "decimal", "mid", "center"] {
                if let Some(x) = m.get(key) {
                    if let Some(f) = number_from_value(x, round) {
                        return Some(f);
                    }
                }
            }
            None
        }
        _ => None,
    }
}

/// Exact sum of a few floats (precision grown to hold every bit).
pub fn exact_sum(terms: &[Float]) -> Float {
    let finite = terms.iter().all(|t| t.is_finite());
    if !finite {
        let mut s = Float::with_val(53, 0);
        for t in terms {
            s += t;
        }
        return s;
    }
    // The exact sum spans from the largest exponent to the smallest bit of any term.
    let mut hi = i64::MIN;
    let mut lo = i64::MAX;
    for t in terms.iter().filter(|t| !t.is_zero()) {
        let e = t.get_exp().unwrap_or(0) as i64;
        hi = hi.max(e);
        lo = lo.min(e - t.prec() as i64);
    }
    if hi == i64::MIN {
        return Float::with_val(53, 0);
    }
    let prec = ((hi - lo + 2 + terms.len() as i64) as u32).clamp(53, 1 << 20);
    let mut s = Float::with_val(prec, 0);
    for t in terms {
        s += t;
    }
    s
}

/// A closed interval [lo, hi] with exact endpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    /// Lower endpoint.
    pub lo: Float,
    /// Upper endpoint.
    pub hi: Float,
}

impl Interval {
    /// The point interval [v, v].
    pub fn point(v: Float) -> Self {
        Self {
            lo: v.clone(),
            hi: v,
        }
    }
    /// Midpoint as f64 (for plotting).
    pub fn mid_f64(&self) -> f64 {
        let s = Float::with_val(self.lo.prec().max(self.hi.prec()) + 1, &self.lo + &self.hi);
        (s / 2u32).to_f64()
    }
    /// True if lo == hi.
    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }
    /// Width hi − lo rounded up, as f64.
    pub fn width_f64(&self) -> f64 {
        let w = Float::with_val_round(64, &self.hi - &self.lo, Round::Up).0;
        w.to_f64_round(Round::Up)
    }
}

/// Reads an interval from the JSON forms the tools may write: `{"lo","hi"}`,
/// `{"inf","sup"}`, `{"lower","upper"}`, `{"min","max"}`, a two-element list `[lo, hi]`
/// (refused if lo > hi), or a single number (a point interval; decimal strings are widened to the two nearest binary
/// numbers so the interval still contains the decimal value).
pub fn interval_from_value(v: &Value) -> Option<Interval> {
    if let Value::Object(m) = v {
        for (l, h) in [
            ("lo", "hi"),
            ("inf", "sup"),
            ("lower", "upper"),
            ("min", "max"),
            ("low", "high"),
        ] {
            if let (Some(a), Some(b)) = (m.get(l), m.get(h)) {
                let lo = number_from_value(a, Round::Down)?;
                let hi = number_from_value(b, Round::Up)?;
                return Some(Interval { lo, hi });
            }
        }
        for key in ["interval", "enclosure", "box", "range"] {
            if let Some(x) = m.get(key) {
                if let Some(i) = interval_from_value(x) {
                    return Some(i);
                }
            }
        }
    }
    if let Value::Array(items) = v {
        // In an interval field a two-element list is always [lo, hi] (an expansion there must
        // be spelled {"terms": [...]}); lo > hi is refused rather than guessed at.
        if items.len() == 2 && items.iter().all(|i| !i.is_array()) {
            let lo = number_from_value(&items[0], Round::Down)?;
            let hi = number_from_value(&items[1], Round::Up)?;
            return (lo <= hi).then_some(Interval { lo, hi });
        }
    }
    let lo = number_from_value(v, Round::Down)?;
    let hi = number_from_value(v, Round::Up)?;
    Some(Interval { lo, hi })
}

/// Formats `v` with `digits` significant decimal digits, rounded in direction `round`, in plain
/// notation for moderate exponents and scientific notation otherwise.
pub fn fmt_directed(v: &Float, digits: usize, round: Round) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v.is_sign_negative() { "-inf" } else { "inf" }.into();
    }
    if v.is_zero() {
        return "0".into();
    }
    let s = v.to_string_radix_round(10, Some(digits), round);
    tidy_scientific(&s)
}

/// Rewrites MPFR's `d.ddde±x` output in plain notation when −5 ≤ x < 7, trimming trailing
/// zeros of the fraction.
fn tidy_scientific(s: &str) -> String {
    let (mant, exp) = match s.find(['e', '@']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (s, 0),
    };
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant),
    };
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let int_len = mant.find('.').unwrap_or(mant.len()) as i32;
    let point = int_len + exp; // position of the decimal point within `digits`
    let sign = if neg { "-" } else { "" };
    if (-5..7).contains(&(point - 1)) {
        let mut out = String::new();
        if point <= 0 {
            out.push_str("0.");
            out.push_str(&"0".repeat((-point) as usize));
            out.push_str(&digits);
        } else if point as usize >= digits.len() {
            out.push_str(&digits);
            out.push_str(&"0".repeat(point as usize - digits.len()));
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
        if out.contains('.') {
            while out.ends_with('0') {
                out.pop();
            }
            if out.ends_with('.') {
                out.pop();
            }
        }
        format!("{sign}{out}")
    } else {
        let mut frac = digits[1..].to_string();
        while frac.ends_with('0') {
            frac.pop();
        }
        let e = point - 1;
        if frac.is_empty() {
            format!("{sign}{}e{e}", &digits[..1])
        } else {
            format!("{sign}{}.{frac}e{e}", &digits[..1])
        }
    }
}

/// Formats an interval as `[lo, hi]` rounded outward to `digits` significant digits.
pub fn fmt_interval(i: &Interval, digits: usize) -> String {
    format!(
        "[{}, {}]",
        fmt_directed(&i.lo, digits, Round::Down),
        fmt_directed(&i.hi, digits, Round::Up)
    )
}

/// Formats a number string error for a field.
pub(crate) fn bad_number(field: &str) -> Error {
    Error::new(
        ErrorKind::Parse,
        format!("field `{field}` is not a number (expected a hex float such as 0x1.4p+0, a decimal string, or a list of hex-float terms)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_floats_parse_exactly() {
        assert_eq!(parse_hex("0x1.8p+0").unwrap().to_f64(), 1.5);
        assert_eq!(parse_hex("-0x1.4p-2").unwrap().to_f64(), -0.3125);
        assert_eq!(parse_hex("0x0p+0").unwrap().to_f64(), 0.0);
        // 0.3 as f64, written by C's %a.
        assert_eq!(parse_hex("0x1.3333333333333p-2").unwrap().to_f64(), 0.3);
        // More bits than an f64 holds: 1 + 2^-80 exactly.
        let v = parse_hex("0x1.00000000000000000001p+0").unwrap();
        let expect = Float::with_val(200, 1) + Float::with_val(200, Float::i_exp(1, -80));
        assert_eq!(v, expect);
        assert!(parse_hex("0x1.g").is_none());
        assert!(parse_hex("1.5").is_none());
    }

    #[test]
    fn expansions_sum_exactly() {
        let v = serde_json::json!(["0x1p+0", "0x1p-80"]);
        let s = number_from_value(&v, Round::Nearest).unwrap();
        assert!(s > 1);
        assert_eq!(
            Float::with_val(300, &s - 1u32),
            Float::with_val(10, Float::i_exp(1, -80))
        );
    }

    #[test]
    fn json_numbers_are_widened_in_the_asked_direction() {
        // 0.1 is not binary: the enclosure must contain it.
        let v = serde_json::json!(0.1);
        let tenth = rug::Rational::from((1, 10));
        assert!(number_from_value(&v, Round::Down).unwrap() < tenth);
        assert!(number_from_value(&v, Round::Up).unwrap() > tenth);
        // Small integers stay exact.
        let v = serde_json::json!(7);
        assert_eq!(number_from_value(&v, Round::Down).unwrap(), 7);
    }

    #[test]
    fn directed_formatting_encloses() {
        // 1/3 rounded down and up to 4 digits.
        let third = Float::with_val(200, 1) / 3u32;
        assert_eq!(fmt_directed(&third, 4, Round::Down), "0.3333");
        assert_eq!(fmt_directed(&third, 4, Round::Up), "0.3334");
        let big = Float::with_val(53, -1.25e9);
        assert_eq!(fmt_directed(&big, 3, Round::Down), "-1.25e9");
        assert_eq!(fmt_directed(&Float::with_val(53, 1.0), 6, Round::Up), "1");
        assert_eq!(
            fmt_directed(&Float::with_val(53, 0.000123), 3, Round::Nearest),
            "0.000123"
        );
    }

    #[test]
    fn intervals_in_several_spellings() {
        for v in [
            serde_json::json!({"lo": "0x1p+0", "hi": "0x1.8p+0"}),
            serde_json::json!({"inf": "0x1p+0", "sup": "0x1.8p+0"}),
            serde_json::json!(["0x1p+0", "0x1.8p+0"]),
        ] {
            let i = interval_from_value(&v).unwrap();
            assert_eq!((i.lo.to_f64(), i.hi.to_f64()), (1.0, 1.5));
        }
        // A decimal point is widened so that it contains 0.3.
        assert!(interval_from_value(&serde_json::json!(["0x1.8p+0", "0x1p+0"])).is_none());
        let i = interval_from_value(&serde_json::json!("0.3")).unwrap();
        let exact = rug::Rational::from((3, 10));
        assert!(i.lo < exact && i.hi > exact);
    }
}
