//! Exact conversion between expansions and MPFR numbers (`rug::Float`), and decimal text.
//!
//! `to_rug` is exact (the precision is chosen to hold every bit). `from_rug` rounds greedily:
//! each term is the nearest machine number to what remains, which gives the nearest
//! ulp-nonoverlapping expansion. Decimal strings are parsed by MPFR at 4096 bits and then
//! rounded greedily, so the result is within half an ulp of the last term plus 2^-4000
//! relative of the decimal value. `Display` prints enough significant digits that parsing the
//! text gives back the same value exactly, or, with a precision (`{:.k}`), the value correctly
//! rounded to k significant digits.

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use core::fmt;
use core::str::FromStr;
use rug::float::Round;
use rug::Float;

/// Precision used to parse decimal strings.
pub const PARSE_PRECISION: u32 = 4096;

/// Why a decimal string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseExpansionError {
    /// The offending input.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseExpansionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid number {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseExpansionError {}

fn exponent_of<T: FloatTerm>(t: T) -> i32 {
    // Binary exponent of a finite non-zero value, via f64 (exact for f32 too).
    let v = t.to_f64().abs();
    let bits = v.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if e == 0 {
        // subnormal
        -1074 + (63 - bits.leading_zeros() as i32)
    } else {
        e - 1023
    }
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// The exact value as an MPFR number (NaN and ±∞ map to themselves).
    pub fn to_rug(&self) -> Float {
        let lead = self.terms[0];
        if !self.is_finite() {
            let s = self.terms.iter().fold(0.0f64, |a, t| a + t.to_f64());
            return Float::with_val(64, s);
        }
        if lead == T::ZERO {
            return Float::with_val(64, lead.to_f64());
        }
        let hi = exponent_of(lead);
        let mut lo = hi;
        for t in self.terms.iter() {
            if *t != T::ZERO {
                lo = lo.min(exponent_of(*t));
            }
        }
        let prec = (hi - lo) as u32 + T::PRECISION + 2;
        let mut acc = Float::with_val(prec, 0);
        for t in self.terms.iter() {
            acc += t.to_f64(); // exact: prec holds every bit
        }
        acc
    }

    /// The nearest expansion to `v` (greedy: each term is the nearest machine number to the
    /// remainder). Values beyond the range of `T` give ±∞; below it, zero terms.
    pub fn from_rug(v: &Float) -> Self {
        let mut terms = [T::ZERO; N];
        if v.is_nan() {
            terms[0] = T::from_f64(f64::NAN);
            return Self::from_normalized(terms);
        }
        let mut rest = v.clone();
        let prec = rest.prec().max(T::PRECISION);
        rest.set_prec(prec.max(64));
        for t in terms.iter_mut() {
            let head = round_to_term::<T>(&rest);
            *t = head;
            if !head.is_finite() || head == T::ZERO {
                break;
            }
            rest -= head.to_f64();
            if rest.is_zero() {
                break;
            }
        }
        Self::from_normalized(terms)
    }
}

/// Nearest `T` to an MPFR value, with subnormals and overflow handled as IEEE does.
fn round_to_term<T: FloatTerm>(v: &Float) -> T {
    if T::PRECISION == 53 {
        T::from_f64(v.to_f64_round(Round::Nearest))
    } else {
        // Round once to 24 bits within f32's exponent range via to_f32.
        T::from_f64(v.to_f32_round(Round::Nearest) as f64)
    }
}

/// The exact decimal value of a finite non-zero MPFR number, in scientific notation
/// (`d.ddd…e±k`). A binary number m·2^-k equals m·5^k·10^-k, so its decimal expansion
/// terminates; this prints all of it.
fn exact_decimal(v: &Float) -> String {
    let (mant, exp) = v
        .to_integer_exp()
        .expect("finite non-zero value has an integer mantissa");
    let neg = mant < 0;
    let mant = mant.abs();
    // v = mant·2^exp = D·10^pow10 with D an integer.
    let (full, pow10) = if exp >= 0 {
        ((mant << exp as u32).to_string(), 0i64)
    } else {
        let k = (-exp) as u32;
        (
            (mant * rug::Integer::from(rug::Integer::u_pow_u(5, k))).to_string(),
            -(k as i64),
        )
    };
    let sci_exp = full.len() as i64 - 1 + pow10;
    let digits = full.trim_end_matches('0');
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push_str(&format!("e{sci_exp}"));
    out
}

/// `1.2500e-3` → `1.25e-3`, `2.000e0` → `2e0` (trailing zeros of the mantissa carry nothing).
fn trim_mantissa_zeros(s: &str) -> String {
    let (mant, exp) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    if !mant.contains('.') {
        return s.to_string();
    }
    let m = mant.trim_end_matches('0').trim_end_matches('.');
    format!("{m}{exp}")
}

impl<T: FloatTerm, const N: usize> fmt::Display for Expansion<T, N> {
    /// Prints the value in decimal scientific notation with the fewest significant digits (in
    /// steps of 8, from ⌈(p·N)·log10 2⌉ + 2) for which parsing gives back the same value
    /// exactly; when no such short form exists below 160 digits (e.g. an expansion whose lower
    /// terms are zero, since parsing rounds to the nearest *N-term* value), the exact decimal
    /// value. `NaN`, `inf`, `-inf`, `0` and `-0` for special values.
    ///
    /// With a precision, `{:.k}` prints the exact value correctly rounded (to nearest) to k
    /// significant digits (k = 0 counts as 1), trailing zeros kept, in MPFR's layout
    /// (positional for moderate exponents, `d.ddde±x` otherwise). Note that this differs from
    /// `f64`, where k counts digits after the point.
    ///
    /// ```
    /// use expanse_core::QuadDouble;
    /// let third = QuadDouble::from_term(1.0) / 3.0;
    /// assert_eq!(format!("{third:.5}"), "3.3333e-1");
    /// assert_eq!(format!("{:.5}", QuadDouble::from_term(-1234.5)), "-1234.5");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.to_rug();
        if v.is_nan() {
            return f.write_str("NaN");
        }
        if v.is_infinite() {
            return f.write_str(if v.is_sign_negative() { "-inf" } else { "inf" });
        }
        if v.is_zero() {
            return f.write_str(if v.is_sign_negative() { "-0" } else { "0" });
        }
        if let Some(k) = f.precision() {
            let s = v
                .to_string_radix_round(10, Some(k.max(1)), Round::Nearest)
                .replace('@', "");
            return f.write_str(&s);
        }
        let mut digits =
            ((T::PRECISION as usize * N) as f64 * core::f64::consts::LOG10_2).ceil() as usize + 2;
        while digits < 160 {
            let s = v
                .to_string_radix_round(10, Some(digits), Round::Nearest)
                .replace('@', "");
            if let Ok(back) = s.parse::<Self>() {
                if back.to_rug() == v {
                    return f.write_str(&trim_mantissa_zeros(&s));
                }
            }
            digits += 8;
        }
        f.write_str(&exact_decimal(&v))
    }
}

impl<T: FloatTerm, const N: usize> FromStr for Expansion<T, N> {
    type Err = ParseExpansionError;

    /// Parses a decimal number (`1.4`, `-2.5e-3`, `0x1.8p+0` is not accepted), or `nan`,
    /// `inf`, `-inf`, rounded to the nearest expansion.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let err = |reason| ParseExpansionError {
            input: s.to_string(),
            reason,
        };
        if trimmed.is_empty() {
            return Err(err("empty string"));
        }
        match trimmed.to_ascii_lowercase().as_str() {
            "nan" => return Ok(Self::from_term(T::from_f64(f64::NAN))),
            "inf" | "+inf" | "infinity" => return Ok(Self::from_term(T::from_f64(f64::INFINITY))),
            "-inf" | "-infinity" => return Ok(Self::from_term(T::from_f64(f64::NEG_INFINITY))),
            _ => {}
        }
        let valid = trimmed
            .chars()
            .all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
            && trimmed.chars().any(|c| c.is_ascii_digit());
        if !valid {
            return Err(err("expected a decimal number such as 1.25 or -3e-4"));
        }
        let parsed = Float::parse(trimmed).map_err(|_| err("not a decimal number"))?;
        let v = Float::with_val(PARSE_PRECISION, parsed);
        Ok(Self::from_rug(&v))
    }
}
