//! Exact text for binary floating-point numbers: C99 `%a`-style hexadecimal floats.
//!
//! [`format_f64`] writes the shortest exact form: `0x1.6666666666666p+0`, `-0x1.8p-3`, zeros as
//! `0x0p+0` / `-0x0p+0`, subnormals as `0x0.<52 bits>p-1022`, and `inf`, `-inf`, `nan`. An f32
//! is written by widening it to f64 (exact). [`parse_f64`] reads any C99 hex float (optional
//! sign, `0x`, hex digits with an optional point, optional `p` exponent) and rounds to the
//! nearest f64 (ties to even, with IEEE subnormals), so every string [`format_f64`] writes
//! reads back to the identical bits.

use rug::float::Round;
use rug::{Float, Integer};

/// The exact C99 hex-float text of `v`.
pub fn format_f64(v: f64) -> String {
    if v.is_nan() {
        return "nan".to_string();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let man = bits & ((1u64 << 52) - 1);
    if biased == 0 && man == 0 {
        return format!("{sign}0x0p+0");
    }
    let (lead, exp) = if biased == 0 {
        (0, -1022)
    } else {
        (1, biased - 1023)
    };
    let digits = format!("{man:013x}");
    let digits = digits.trim_end_matches('0');
    let esign = if exp < 0 { '-' } else { '+' };
    let eabs = exp.unsigned_abs();
    if digits.is_empty() {
        format!("{sign}0x{lead}p{esign}{eabs}")
    } else {
        format!("{sign}0x{lead}.{digits}p{esign}{eabs}")
    }
}

/// The exact C99 hex-float text of an f32 (written as the equal f64).
pub fn format_f32(v: f32) -> String {
    format_f64(v as f64)
}

/// Why a hex float was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseHexError {
    /// The offending text.
    pub input: String,
}

impl std::fmt::Display for ParseHexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not a hex float (expected e.g. 0x1.4p+0)",
            self.input
        )
    }
}

impl std::error::Error for ParseHexError {}

/// Parses a C99 hex float, rounding to the nearest f64 (exact for any text [`format_f64`]
/// writes).
pub fn parse_f64(s: &str) -> Result<f64, ParseHexError> {
    let err = || ParseHexError {
        input: s.to_string(),
    };
    let t = s.trim();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = body.to_ascii_lowercase();
    let signed = |v: f64| if neg { -v } else { v };
    if lower == "inf" || lower == "infinity" {
        return Ok(signed(f64::INFINITY));
    }
    if lower == "nan" {
        return Ok(f64::NAN);
    }
    let rest = lower.strip_prefix("0x").ok_or_else(err)?;
    let (mant, exp) = match rest.split_once('p') {
        Some((m, e)) => {
            let e: i64 = e.parse().map_err(|_| err())?;
            (m, e)
        }
        None => (rest, 0),
    };
    let (int_part, frac_part) = match mant.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(err());
    }
    let all = format!("{int_part}{frac_part}");
    if !all.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(err());
    }
    let m = Integer::from_str_radix(&all, 16).map_err(|_| err())?;
    if m == 0 {
        return Ok(signed(0.0));
    }
    // value = m · 2^(exp − 4·|frac|)
    let shift = exp - 4 * frac_part.len() as i64;
    if shift > 4096 {
        return Ok(signed(f64::INFINITY));
    }
    if shift < -(4096 + 4 * all.len() as i64) {
        return Ok(signed(0.0));
    }
    let bits = m.significant_bits().max(64);
    let mut f = Float::with_val(bits, &m); // exact
    f <<= shift as i32; // exact (MPFR's exponent range is far wider)
    Ok(signed(round_to_f64(&f)))
}

/// Rounds an MPFR value to the nearest f64 with IEEE subnormals (no double rounding).
pub(crate) fn round_to_f64(f: &Float) -> f64 {
    let (mut r, dir) = Float::with_val_round(53, f, Round::Nearest);
    r.subnormalize_ieee_round(dir, Round::Nearest);
    r.to_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_strings() {
        assert_eq!(format_f64(1.25), "0x1.4p+0");
        assert_eq!(format_f64(1.4), "0x1.6666666666666p+0");
        assert_eq!(format_f64(-0.1875), "-0x1.8p-3");
        assert_eq!(format_f64(0.0), "0x0p+0");
        assert_eq!(format_f64(-0.0), "-0x0p+0");
        assert_eq!(format_f64(1.0), "0x1p+0");
        assert_eq!(format_f64(f64::from_bits(1)), "0x0.0000000000001p-1022");
        assert_eq!(format_f64(f64::MAX), "0x1.fffffffffffffp+1023");
        assert_eq!(format_f64(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_f32(0.1f32), "0x1.99999ap-4");
    }

    #[test]
    fn parses_c99_forms() {
        assert_eq!(parse_f64("0x1.4p+0").unwrap(), 1.25);
        assert_eq!(parse_f64("0X1.4P0").unwrap(), 1.25);
        assert_eq!(parse_f64("0xAp-1").unwrap(), 5.0);
        assert_eq!(parse_f64("-0x.8p1").unwrap(), -1.0);
        assert_eq!(parse_f64("0x10").unwrap(), 16.0);
        // 2^-1075 · 3 lies between the two smallest subnormals, nearer the upper one.
        assert_eq!(parse_f64("0x3p-1075").unwrap(), f64::from_bits(2));
        // a tie rounds to even: 1 + 2^-53
        assert_eq!(parse_f64("0x1.00000000000008p+0").unwrap(), 1.0);
        assert_eq!(
            parse_f64("0x1.00000000000018p+0").unwrap(),
            1.0 + 2.0 * f64::EPSILON
        );
        assert!(parse_f64("nan").unwrap().is_nan());
        for bad in ["", "1.5", "0x", "0x1.gp0", "0x1p", "0x1p+", "--0x1p0"] {
            assert!(parse_f64(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn round_trips_every_kind_of_value() {
        // A deterministic sweep over bit patterns: normals, subnormals, both signs.
        let mut state = 0x1234_5678_9abc_def0u64;
        for i in 0..20000u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let bits = match i % 4 {
                0 => state,
                1 => state >> 12,              // subnormals and zero exponent
                2 => state | (0x7f0u64 << 52), // large exponents
                _ => (state & 0x800f_ffff_ffff_ffff) | (1023u64 << 52),
            };
            let v = f64::from_bits(bits);
            if v.is_nan() {
                continue;
            }
            let s = format_f64(v);
            let back = parse_f64(&s).unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{s}");
            // Independent oracle: the C library's strtod reads C99 hex floats.
            let c = std::ffi::CString::new(s.clone()).unwrap();
            // SAFETY: `c` is a valid NUL-terminated string; a null end pointer is allowed.
            let libc_value = unsafe { libc::strtod(c.as_ptr(), std::ptr::null_mut()) };
            assert_eq!(libc_value.to_bits(), v.to_bits(), "strtod disagrees on {s}");
        }
    }
}
