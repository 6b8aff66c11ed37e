//! Exact parsing of decimal strings into rationals.
//!
//! A parameter such as a = 1.399999486944 is not a binary number; to enclose it we first need
//! its exact value. [`parse_decimal`] reads `[+-]digits[.digits][(e|E)[+-]digits]` (also
//! `.5` and `5.`) into a `rug::Rational` with no rounding at all; the interval kinds then
//! round that rational outward.

use crate::error::{Error, ErrorKind};
use rug::{Integer, Rational};

/// Largest accepted |decimal exponent| (10^100000 is far beyond every kind's range, and keeps
/// the exact rational small enough to build quickly).
pub const MAX_DECIMAL_EXPONENT: i64 = 100_000;

/// Parses a decimal number exactly. Leading and trailing whitespace is ignored. Errors (kind
/// [`ErrorKind::InvalidDecimal`] or [`ErrorKind::ExponentOutOfRange`]) quote the input.
pub fn parse_decimal(s: &str) -> Result<Rational, Error> {
    let bad = |why: &str| {
        Error::new(
            ErrorKind::InvalidDecimal,
            format!("invalid decimal number {s:?}: {why}"),
        )
    };
    let t = s.trim();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        Some(_) => (false, t),
        None => return Err(bad("empty string")),
    };
    let (mant, exp_str) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(bad("no digits"));
    }
    if !int_part.bytes().all(|c| c.is_ascii_digit())
        || !frac_part.bytes().all(|c| c.is_ascii_digit())
    {
        return Err(bad(
            "expected digits, one optional '.', and an optional exponent",
        ));
    }
    let mut exp10: i64 = 0;
    if let Some(e) = exp_str {
        let (eneg, edigits) = match e.as_bytes().first() {
            Some(b'-') => (true, &e[1..]),
            Some(b'+') => (false, &e[1..]),
            Some(_) => (false, e),
            None => return Err(bad("empty exponent")),
        };
        if edigits.is_empty() || !edigits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad("exponent must be an integer"));
        }
        // Saturate instead of overflowing; range is checked below.
        let mut v: i64 = 0;
        for c in edigits.bytes() {
            v = v.saturating_mul(10).saturating_add((c - b'0') as i64);
        }
        exp10 = if eneg { -v } else { v };
    }
    let exp10 = exp10.saturating_sub(frac_part.len() as i64);
    if exp10.abs() > MAX_DECIMAL_EXPONENT {
        return Err(Error::new(
            ErrorKind::ExponentOutOfRange,
            format!("decimal number {s:?}: exponent beyond ±{MAX_DECIMAL_EXPONENT}"),
        ));
    }
    let digits = format!("{int_part}{frac_part}");
    let m = Integer::from_str_radix(&digits, 10).map_err(|_| bad("expected digits"))?;
    if m == 0 {
        return Ok(Rational::new());
    }
    let p = Integer::from(Integer::u_pow_u(10, exp10.unsigned_abs() as u32));
    let mut q = if exp10 >= 0 {
        Rational::from(m * p)
    } else {
        Rational::from((m, p))
    };
    if neg {
        q = -q;
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_exact_values() {
        assert_eq!(parse_decimal("0.1").unwrap(), Rational::from((1, 10)));
        assert_eq!(parse_decimal("-2.5e-3").unwrap(), Rational::from((-1, 400)));
        assert_eq!(parse_decimal("7").unwrap(), Rational::from(7));
        assert_eq!(parse_decimal(".5").unwrap(), Rational::from((1, 2)));
        assert_eq!(parse_decimal("5.").unwrap(), Rational::from(5));
        assert_eq!(parse_decimal("+1E2").unwrap(), Rational::from(100));
        assert_eq!(
            parse_decimal("1.399999486944").unwrap(),
            Rational::from((1_399_999_486_944i64, 1_000_000_000_000i64))
        );
    }

    #[test]
    fn rejects_garbage_with_the_input_named() {
        for s in [
            "", "-", ".", "1.2.3", "abc", "1e", "1e+", "0x1p3", "1,5", "nan", "inf",
        ] {
            let e = parse_decimal(s).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidDecimal, "{s:?}");
            assert!(e.message().contains(&format!("{s:?}")));
        }
        assert_eq!(
            parse_decimal("1e999999999").unwrap_err().kind(),
            ErrorKind::ExponentOutOfRange
        );
    }
}
