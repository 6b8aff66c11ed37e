//! Exact decimal text: parsing decimal numbers (with exponents, e.g. `1e9`, `1.3999`) into
//! exact rationals, rounding rationals to the nearest f64, and writing the exact decimal of a
//! binary value or of a rational whose denominator has only the factors 2 and 5.
//!
//! The search records each parameter as "a decimal string exact for the value it names" and
//! the exact binary value it ran with; these are the tools for both.

use rug::float::Round;
use rug::{Float, Integer, Rational};

/// Largest decimal exponent accepted (keeps exact arithmetic small).
const MAX_DECIMAL_EXPONENT: i64 = 400;

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]` exactly (at least one digit before or after
/// the point). Returns `None` for anything else, including hex, `inf`, `nan` and exponents
/// beyond ±400.
pub fn parse_decimal(s: &str) -> Option<Rational> {
    let t = s.trim();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(i) => {
            let e = &body[i + 1..];
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) || digits.len() > 6
            {
                return None;
            }
            (&body[..i], e.parse::<i64>().ok()?)
        }
        None => (body, 0),
    };
    let (ip, fp) = match mant.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mant, ""),
    };
    if ip.is_empty() && fp.is_empty() {
        return None;
    }
    if !ip.bytes().chain(fp.bytes()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let e10 = exp - fp.len() as i64;
    if e10.abs() > MAX_DECIMAL_EXPONENT + 64 || exp.abs() > MAX_DECIMAL_EXPONENT {
        return None;
    }
    let digits: Integer = format!("0{ip}{fp}").parse().ok()?;
    let p10 = Integer::from(Integer::u_pow_u(10, e10.unsigned_abs() as u32));
    let mut r = if e10 >= 0 {
        Rational::from(digits * p10)
    } else {
        Rational::from((digits, p10))
    };
    if neg {
        r = -r;
    }
    Some(r)
}

/// The nearest f64 to `r` (ties to even, IEEE subnormals, overflow to ±∞).
pub fn rational_to_f64(r: &Rational) -> f64 {
    // Both integers are held exactly; MPFR rounds their quotient correctly once, and the
    // subnormalisation uses that rounding's direction, so there is no double rounding.
    let num = Float::with_val(r.numer().significant_bits().max(64), r.numer());
    let den = Float::with_val(r.denom().significant_bits().max(64), r.denom());
    let (mut q, dir) = Float::with_val_round(53, &num / &den, Round::Nearest);
    q.subnormalize_ieee_round(dir, Round::Nearest);
    q.to_f64()
}

/// The exact decimal text of a rational whose reduced denominator is 2^i·5^j, or `None`.
pub fn terminating_decimal(r: &Rational) -> Option<String> {
    let mut den = r.denom().clone();
    let twos = den.find_one(0).unwrap_or(0);
    den >>= twos;
    let mut fives = 0u32;
    while den.is_divisible_u(5) {
        den /= 5u32;
        fives += 1;
    }
    if den != 1 {
        return None;
    }
    let k = twos.max(fives);
    let scaled = Integer::from(r.numer().abs_ref()) * Integer::from(Integer::u_pow_u(10, k))
        / r.denom().clone();
    let mut digits = scaled.to_string();
    let neg = *r < 0;
    let k = k as usize;
    if k > 0 {
        if digits.len() <= k {
            digits = format!("{}{}", "0".repeat(k + 1 - digits.len()), digits);
        }
        let point = digits.len() - k;
        let (ip, fp) = digits.split_at(point);
        let fp = fp.trim_end_matches('0');
        digits = if fp.is_empty() {
            ip.to_string()
        } else {
            format!("{ip}.{fp}")
        };
    }
    Some(if neg { format!("-{digits}") } else { digits })
}

/// The exact decimal text of a finite f64 (every binary value has one).
pub fn exact_decimal_f64(v: f64) -> String {
    match Rational::from_f64(v) {
        Some(r) => {
            let s = terminating_decimal(&r).expect("a binary fraction has a terminating decimal");
            if v == 0.0 && v.is_sign_negative() {
                format!("-{s}")
            } else {
                s
            }
        }
        None => crate::hexfloat::format_f64(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_exactly() {
        assert_eq!(parse_decimal("1.25").unwrap(), Rational::from((5, 4)));
        assert_eq!(parse_decimal("1e9").unwrap(), Rational::from(1_000_000_000));
        assert_eq!(parse_decimal("-0.3").unwrap(), Rational::from((-3, 10)));
        assert_eq!(parse_decimal("2.5E-1").unwrap(), Rational::from((1, 4)));
        assert_eq!(parse_decimal(".5").unwrap(), Rational::from((1, 2)));
        assert_eq!(parse_decimal("5.").unwrap(), Rational::from(5));
        for bad in [
            "", ".", "1.2.3", "abc", "1e", "1e+", "0x1p0", "inf", "nan", "1,5", "1e999",
        ] {
            assert!(parse_decimal(bad).is_none(), "{bad:?} accepted");
        }
    }

    #[test]
    fn rounds_to_nearest_like_the_standard_library() {
        // Rust's own float parser is correctly rounded: an independent oracle.
        for s in [
            "1.4",
            "0.3",
            "1.3999",
            "1.4001",
            "0.1",
            "123456789.123456789",
            "1e-310",
        ] {
            let r = parse_decimal(s).unwrap();
            assert_eq!(rational_to_f64(&r), s.parse::<f64>().unwrap(), "{s}");
        }
        let third = Rational::from((1, 3));
        assert_eq!(rational_to_f64(&third), 1.0 / 3.0);
    }

    #[test]
    fn exact_decimals() {
        assert_eq!(exact_decimal_f64(1.25), "1.25");
        assert_eq!(exact_decimal_f64(-3.0), "-3");
        assert_eq!(
            exact_decimal_f64(0.1),
            "0.1000000000000000055511151231257827021181583404541015625"
        );
        assert_eq!(terminating_decimal(&Rational::from((1, 3))), None);
        assert_eq!(
            terminating_decimal(&Rational::from((7, 40))).unwrap(),
            "0.175"
        );
        // The decimal of an f64 parses back to the same f64 and the same rational.
        for v in [1.4f64, 0.3, 1e-20, 12345.678] {
            let d = exact_decimal_f64(v);
            assert_eq!(parse_decimal(&d).unwrap(), Rational::from_f64(v).unwrap());
        }
    }
}
