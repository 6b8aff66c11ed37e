//! Exact text forms of numbers: C99 hex floats for MPFR values (every bit kept), and decimal
//! strings parsed as exact rationals so that parameters given in decimal can be enclosed by
//! intervals with outward-rounded endpoints (and we can say whether the decimal was exact).

use crate::error::{Error, ErrorKind};
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};

/// Formats a finite MPFR value exactly as a normalised C99 hex float (`0x1.8p+0`, `-0x0p+0`).
/// Non-finite values print as `nan`, `inf`, `-inf`.
pub fn to_hex(v: &Float) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v.is_sign_negative() {
            "-inf".into()
        } else {
            "inf".into()
        };
    }
    if v.is_zero() {
        return if v.is_sign_negative() {
            "-0x0p+0".into()
        } else {
            "0x0p+0".into()
        };
    }
    let (m, e) = v.to_integer_exp().expect("finite");
    let neg = m < 0;
    let mut m = m.abs();
    // Drop trailing zero bits so the text is as short as possible.
    let tz = m.find_one(0).unwrap_or(0);
    m >>= tz;
    let e = e as i64 + tz as i64;
    let n = m.significant_bits() as i64; // m = 1.xxx · 2^(n-1)
    let frac_bits = n - 1;
    let pad = (4 - frac_bits % 4) % 4;
    let digits = (frac_bits + pad) / 4;
    let shifted = Integer::from(&m << pad as u32);
    let lead = Integer::from(1) << (frac_bits + pad) as u32;
    let frac = Integer::from(&shifted - &lead);
    let exp = e + n - 1;
    let sign = if neg { "-" } else { "" };
    if digits == 0 {
        format!("{sign}0x1p{exp:+}")
    } else {
        let hex = frac.to_string_radix(16);
        let zeros = "0".repeat(digits as usize - hex.len());
        format!("{sign}0x1.{zeros}{hex}p{exp:+}")
    }
}

/// Parses a C99 hex float (`[-]0xH[.H]p[+-]D`, also without the `p` part) exactly. The result
/// has exactly as many bits of precision as the mantissa needs (at least 2).
pub fn parse_hex(s: &str) -> Option<Float> {
    let t = s.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    let (mant, exp) = match t.find(['p', 'P']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (ip, fp) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if ip.is_empty() && fp.is_empty() {
        return None;
    }
    let all: String = format!("{ip}{fp}");
    if !all.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let m = Integer::from_str_radix(&all, 16).ok()?;
    let e = exp.checked_sub(4 * fp.len() as i64)?;
    if e.abs() > (1 << 40) {
        return None;
    }
    let bits = m.significant_bits().max(2);
    let mut f = Float::with_val(bits, &m);
    if e >= 0 {
        f <<= e as u32;
    } else {
        f >>= (-e) as u32;
    }
    if neg {
        f = -f;
    }
    if !f.is_finite() {
        return None;
    }
    Some(f)
}

/// Parses a decimal number (`1.25`, `-3e-4`, `.5`) as an exact rational.
pub fn parse_decimal(s: &str) -> Result<Rational, Error> {
    let bad = |why: &str| {
        Error::new(
            ErrorKind::BadNumber,
            format!("{s:?} is not a decimal number: {why}"),
        )
    };
    let t = s.trim();
    if t.is_empty() {
        return Err(bad("empty"));
    }
    let lower = t.to_ascii_lowercase();
    if lower.contains("nan") || lower.contains("inf") {
        return Err(bad("not finite"));
    }
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (
            &t[..i],
            t[i + 1..].parse::<i64>().map_err(|_| bad("bad exponent"))?,
        ),
        None => (t, 0),
    };
    let (ip, fp) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if ip.is_empty() && fp.is_empty() {
        return Err(bad("no digits"));
    }
    if !ip.chars().chain(fp.chars()).all(|c| c.is_ascii_digit()) {
        return Err(bad("unexpected character"));
    }
    let e = exp
        .checked_sub(fp.len() as i64)
        .filter(|e| e.abs() <= 100_000)
        .ok_or_else(|| bad("exponent out of range"))?;
    let digits = format!("{ip}{fp}");
    let m = Integer::from_str_radix(if digits.is_empty() { "0" } else { &digits }, 10)
        .map_err(|_| bad("no digits"))?;
    let ten = Integer::from(10);
    let p: Integer = ten.pow(e.unsigned_abs() as u32);
    let mut r = if e >= 0 {
        Rational::from(m * p)
    } else {
        Rational::from((m, p))
    };
    if neg {
        r = -r;
    }
    Ok(r)
}

/// Parses a number given either as a hex float or as a decimal, as an exact rational.
pub fn parse_exact(s: &str) -> Result<Rational, Error> {
    let t = s.trim();
    if t.contains("0x") || t.contains("0X") {
        let f = parse_hex(t)
            .ok_or_else(|| Error::new(ErrorKind::BadNumber, format!("{s:?} is not a hex float")))?;
        return Ok(f.to_rational().expect("finite"));
    }
    parse_decimal(t)
}

/// Rounds an exact rational to `prec` bits in the given direction.
pub fn round_rational(q: &Rational, prec: u32, round: Round) -> Float {
    Float::with_val_round(prec, q, round).0
}

/// Exact value of a float as a rational (finite values only).
pub fn to_rational(v: &Float) -> Option<Rational> {
    v.to_rational()
}

/// A short decimal rendering for humans (17 significant digits), never used for round trips.
pub fn to_short_decimal(v: &Float) -> String {
    let s = v.to_string_radix(10, Some(17));
    s.replace('@', "e")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_exactly() {
        let vals = [
            Float::with_val(53, 1.5),
            Float::with_val(53, -0.1),
            Float::with_val(
                200,
                Float::parse("1.2345678901234567890123456789e-30").unwrap(),
            ),
            Float::with_val(300, Float::parse("-98765.4321").unwrap()),
            Float::with_val(53, 1.0),
        ];
        for v in vals {
            let s = to_hex(&v);
            let back = parse_hex(&s).unwrap();
            assert_eq!(back, v, "{s}");
        }
        assert_eq!(to_hex(&Float::with_val(53, 1.5)), "0x1.8p+0");
        assert_eq!(to_hex(&Float::with_val(53, 0.3)), "0x1.3333333333333p-2");
        assert_eq!(parse_hex("0x1.8p+1").unwrap(), 3.0);
        assert!(parse_hex("0x1.8q+1").is_none());
    }

    #[test]
    fn decimals_are_exact_rationals() {
        assert_eq!(parse_decimal("1.25").unwrap(), Rational::from((5, 4)));
        assert_eq!(parse_decimal("-3e-4").unwrap(), Rational::from((-3, 10000)));
        assert_eq!(parse_decimal("0.3").unwrap(), Rational::from((3, 10)));
        assert!(parse_decimal("nan").is_err());
        assert!(parse_decimal("1.2.3").is_err());
        assert!(parse_decimal("").is_err());
        assert!(parse_decimal("1e").is_err());
    }
}
