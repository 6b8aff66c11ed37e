//! Conversions of limb mantissas: f64 in (exact) and out (correctly rounded, with IEEE
//! subnormals and overflow as `mpfr_get_d`), the exact sum of f64 terms (an expansion) in a
//! fixed-point accumulator wide enough for the whole f64 range (a "Kulisch accumulator",
//! Kulisch and Miranker 1981) rounded once, hexadecimal text both ways (exact out, correctly
//! rounded in), and MPFR numbers (`rug::Float`) both ways through MPFR's documented
//! representation (limbs, exponent, sign: `mpfr_custom_*`), which is the same as ours.

use super::arith::{round_num, Num};
use super::mpn;
use super::round::{finish, limbs, round_mant, Kind, Res, Round, EMAX, EMIN};
use rug::Float;

// MPFR's limbs must be our limbs.
const _: () = assert!(core::mem::size_of::<gmp_mpfr_sys::gmp::limb_t>() == 8);

/// An f64 as (kind, sign, exponent, one normalized limb).
#[inline]
pub(crate) fn f64_parts(v: f64) -> (Kind, bool, i64, u64) {
    let neg = v.is_sign_negative();
    if v.is_nan() {
        return (Kind::Nan, false, 0, 0);
    }
    if v.is_infinite() {
        return (Kind::Inf, neg, 0, 0);
    }
    if v == 0.0 {
        return (Kind::Zero, neg, 0, 0);
    }
    let bits = v.to_bits();
    let be = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    // v = mant·2^q
    let (mant, q) = if be == 0 {
        (frac, -1074i64)
    } else {
        (frac | (1u64 << 52), be - 1075)
    };
    let lz = mant.leading_zeros();
    (Kind::Normal, neg, q + 64 - lz as i64, mant << lz)
}

/// The f64 nearest to a number in mode `rnd` (IEEE binary64 with subnormals; beyond the range
/// ±∞ or ±f64::MAX by the mode, as `mpfr_get_d`).
pub(crate) fn to_f64(a: Num, rnd: Round) -> f64 {
    let sign = if a.neg { -1.0 } else { 1.0 };
    match a.kind {
        Kind::Nan => return f64::NAN,
        Kind::Inf => return sign * f64::INFINITY,
        Kind::Zero => return sign * 0.0,
        Kind::Normal => {}
    }
    let away = match rnd {
        Round::Nearest | Round::Away => true,
        Round::Zero => false,
        Round::Up => !a.neg,
        Round::Down => a.neg,
    };
    // Value in [2^(e−1), 2^e). Normal doubles: e ≥ −1021 (53 bits); subnormal: e + 1074 bits.
    let e = a.exp;
    let bits = if e >= -1021 { 53 } else { e + 1074 };
    if bits <= 0 {
        // Below 2^-1075 (bits < 0), or in [2^-1075, 2^-1074) (bits = 0): 0 or 2^-1074.
        let up = match rnd {
            Round::Nearest => bits == 0 && !is_pow2(a.m),
            _ => away,
        };
        return sign * if up { f64::from_bits(1) } else { 0.0 };
    }
    let mut out = [0u64; 1];
    let (carry, _) = round_mant(a.m, false, a.neg, bits as u32, rnd, &mut out);
    let e = e + carry as i64;
    if e > 1024 {
        return sign * if away { f64::INFINITY } else { f64::MAX };
    }
    // out[0] = 0.1xxx (bits significant bits) → integer mantissa · 2^(e − 64).
    let mant = out[0] >> 11; // 53 bits, exact: at most 53 significant bits
                             // value = mant · 2^(e − 53); compose without rounding.
    if e >= -1021 {
        let be = (e + 1022) as u64; // biased exponent of 2^(e−1)
        sign * f64::from_bits((be << 52) | (mant & ((1u64 << 52) - 1)))
    } else {
        // Subnormal: mant·2^(e−53) = (mant >> s)·2^−1074 with s = −1021 − e in 1..=52; the
        // bits shifted out are zero (rounded to e + 1074 bits above).
        let s = (-1021 - e) as u32;
        sign * f64::from_bits(mant >> s)
    }
}

fn is_pow2(m: &[u64]) -> bool {
    let n = m.len();
    m[n - 1] == 1 << 63 && mpn::is_zero(&m[..n - 1])
}

/// Limbs of the fixed-point accumulator: 2^−1074 up to 2^(1024 + 64) with a sign bit.
const ACC: usize = 36;

/// The exact sum of f64 terms (any number, any order; ≤ 2^64 terms) rounded once to p bits.
pub(crate) fn sum_f64(terms: &[f64], p: u32, rnd: Round, out: &mut [u64]) -> Res {
    // Non-finite input: the IEEE sum of the terms decides.
    if terms.iter().any(|t| !t.is_finite()) {
        let s = terms.iter().fold(0.0f64, |a, &t| a + t);
        let (kind, neg, _, _) = f64_parts(s);
        return match kind {
            Kind::Inf => Res::inf(neg),
            _ => Res::nan(),
        };
    }
    let mut acc = [0u64; ACC];
    let mut any = false;
    for &t in terms {
        let (kind, neg, e, m) = f64_parts(t);
        if kind != Kind::Normal {
            continue;
        }
        any = true;
        // t = 0.m·2^e = (m >> 11)·2^(e − 53); position of the bottom bit above 2^−1074.
        let mant = m >> 11;
        let low = e - 53 + 1074;
        let (mant, low) = if low < 0 {
            (mant >> (-low) as u32, 0)
        } else {
            (mant, low as u64)
        };
        let (li, sh) = ((low / 64) as usize, (low % 64) as u32);
        let lo = mant << sh;
        let hi = if sh == 0 { 0 } else { mant >> (64 - sh) };
        let add = [lo, hi];
        if neg {
            let b = mpn::sub_n(&mut acc[li..li + 2], &add);
            mpn::sub_1(&mut acc[li + 2..], b);
        } else {
            let c = mpn::add_n(&mut acc[li..li + 2], &add);
            mpn::add_1(&mut acc[li + 2..], c);
        }
    }
    if !any {
        // Only zeros: the sign of the leading term (as `Expansion::to_rug`).
        return Res::zero(terms.first().is_some_and(|t| t.is_sign_negative()));
    }
    let neg = acc[ACC - 1] >> 63 == 1;
    if neg {
        // Two's complement negation.
        for x in acc.iter_mut() {
            *x = !*x;
        }
        mpn::add_1(&mut acc, 1);
    }
    if mpn::is_zero(&acc) {
        return Res::zero(rnd == Round::Down);
    }
    let mut t = ACC - 1;
    while acc[t] == 0 {
        t -= 1;
    }
    let c = acc[t].leading_zeros();
    let buf = &mut acc[..=t];
    mpn::lshift(buf, c);
    // The top bit is bit 64t + 63 − c of the integer A, the value A·2^−1074.
    let exp = 64 * t as i64 + 64 - c as i64 - 1074;
    let r = round_mant(buf, false, neg, p, rnd, out);
    finish(neg, exp, r, p, rnd, out)
}

// ----- MPFR numbers -------------------------------------------------------------------------

/// Rounds an MPFR number (any precision) to p bits.
pub(crate) fn from_rug(v: &Float, p: u32, rnd: Round, out: &mut [u64]) -> Res {
    if v.is_nan() {
        return Res::nan();
    }
    if v.is_infinite() {
        return Res::inf(v.is_sign_negative());
    }
    if v.is_zero() {
        return Res::zero(v.is_sign_negative());
    }
    // SAFETY: a regular MPFR number has ⌈prec/64⌉ limbs at `d`, most significant last, with
    // the top bit set; `exp` is the exponent of 0.m·2^exp (MPFR's documented internals, used
    // by its custom interface). The slice lives as long as the borrow of `v`.
    let (m, exp, neg) = unsafe {
        let raw = &*v.as_raw();
        let n = (raw.prec as usize).div_ceil(64);
        (
            core::slice::from_raw_parts(raw.d.as_ptr() as *const u64, n),
            #[allow(clippy::unnecessary_cast)] // exp_t is c_long: i32 on some targets
            (raw.exp as i64),
            raw.sign < 0,
        )
    };
    round_num(
        Num {
            kind: Kind::Normal,
            neg,
            exp,
            m,
        },
        p,
        rnd,
        out,
    )
}

/// The exact MPFR number of precision p for a number of ours.
pub(crate) fn to_rug(a: Num, p: u32) -> Float {
    match a.kind {
        Kind::Nan => Float::with_val(p, f64::NAN),
        Kind::Inf => Float::with_val(
            p,
            if a.neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
        ),
        Kind::Zero => Float::with_val(p, if a.neg { -0.0 } else { 0.0 }),
        Kind::Normal => {
            debug_assert!(a.m.len() == limbs(p) && (EMIN..=EMAX).contains(&a.exp));
            let mut f = Float::new(p);
            // SAFETY: `Float::new(p)` owns ⌈p/64⌉ limbs at `d`; writing the limbs, a regular
            // exponent within MPFR's default range and the sign makes it the regular number
            // 0.m·2^exp (as `mpfr_custom_init_set` does). Our mantissa has the top bit set and
            // its bits below p cleared, as MPFR requires.
            unsafe {
                let raw = &mut *f.as_raw_mut();
                let d = core::slice::from_raw_parts_mut(raw.d.as_ptr(), a.m.len());
                d.copy_from_slice(a.m);
                raw.exp = a.exp as _;
                raw.sign = if a.neg { -1 } else { 1 };
            }
            f
        }
    }
}

// ----- hexadecimal text ---------------------------------------------------------------------

/// The exact value in C99 hexadecimal notation: `-0x1.8p+1`, `0x0p+0`, `-0x0p+0`, `inf`,
/// `-inf`, `nan`. The digits after the point are the mantissa bits after the leading one,
/// trailing zero digits removed, so the text is exact and parses back to the same number.
pub(crate) fn to_hex(a: Num) -> String {
    let sign = if a.neg { "-" } else { "" };
    match a.kind {
        Kind::Nan => return "nan".to_string(),
        Kind::Inf => return format!("{sign}inf"),
        Kind::Zero => return format!("{sign}0x0p+0"),
        Kind::Normal => {}
    }
    // 0.1bbb…·2^e = 1.bbb…·2^(e−1): the bits after the leading one, 4 per digit.
    let n = a.m.len();
    let total = 64 * n - 1;
    let bit = |i: usize| -> u64 {
        // i-th bit after the leading one (0-based), from the top.
        let pos = 64 * n - 2 - i; // bit index from the bottom
        (a.m[pos / 64] >> (pos % 64)) & 1
    };
    let mut digits = String::new();
    let mut i = 0;
    while i < total {
        let mut d = 0u64;
        for j in 0..4 {
            d <<= 1;
            if i + j < total {
                d |= bit(i + j);
            }
        }
        digits.push(char::from_digit(d as u32, 16).unwrap_or('0'));
        i += 4;
    }
    let digits = digits.trim_end_matches('0');
    let e = a.exp - 1;
    let es = if e >= 0 {
        format!("+{e}")
    } else {
        format!("{e}")
    };
    if digits.is_empty() {
        format!("{sign}0x1p{es}")
    } else {
        format!("{sign}0x1.{digits}p{es}")
    }
}

/// Why a string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLimbError {
    /// The offending input.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl core::fmt::Display for ParseLimbError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "invalid number {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseLimbError {}

/// Special values in text, if `s` is one.
fn special(s: &str) -> Option<Res> {
    let t = s.to_ascii_lowercase();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    match body {
        "nan" | "@nan@" => Some(Res::nan()),
        "inf" | "infinity" | "@inf@" => Some(Res::inf(neg)),
        _ => None,
    }
}

/// Limbs of hexadecimal digits kept exactly; further non-zero digits are sticky.
const HEX_LIMBS: usize = 72;

/// Parses C99 hexadecimal (`[±]0x h.hhh p[±]d`, the `p` part optional; also `inf`, `nan`)
/// and rounds it correctly to p bits.
pub(crate) fn parse_hex(
    s: &str,
    p: u32,
    rnd: Round,
    out: &mut [u64],
) -> Result<Res, ParseLimbError> {
    let err = |reason| ParseLimbError {
        input: s.to_string(),
        reason,
    };
    let t = s.trim();
    if let Some(r) = special(t) {
        return Ok(r);
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let body = body
        .strip_prefix("0x")
        .or_else(|| body.strip_prefix("0X"))
        .ok_or_else(|| err("expected 0x"))?;
    let (mant, exp_txt) = match body.find(['p', 'P']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let mut bexp: i64 = match exp_txt {
        None => 0,
        Some(e) => {
            let (eneg, digits) = match e.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(err("bad binary exponent"));
            }
            // Saturate: beyond ±2^40 every result is an overflow or underflow anyway.
            let mut v: i64 = 0;
            for c in digits.bytes() {
                v = (v * 10 + (c - b'0') as i64).min(1 << 40);
            }
            if eneg {
                -v
            } else {
                v
            }
        }
    };
    // Digits into a big integer (most significant first), counting digits after the point.
    let mut acc = [0u64; HEX_LIMBS];
    let mut used = 0usize; // hex digits stored
    let mut sticky = false;
    let mut seen_point = false;
    let mut any_digit = false;
    let mut leading = true;
    for c in mant.chars() {
        if c == '.' {
            if seen_point {
                return Err(err("two points"));
            }
            seen_point = true;
            continue;
        }
        let d = c.to_digit(16).ok_or_else(|| err("bad hexadecimal digit"))? as u64;
        any_digit = true;
        if leading && d == 0 {
            if seen_point {
                bexp -= 4;
            }
            continue;
        }
        leading = false;
        if used < HEX_LIMBS * 16 {
            mpn::lshift(&mut acc, 4);
            acc[0] |= d;
            used += 1;
            if seen_point {
                bexp -= 4;
            }
        } else {
            sticky |= d != 0;
            if !seen_point {
                bexp += 4;
            }
        }
    }
    if !any_digit {
        return Err(err("no digits"));
    }
    if mpn::is_zero(&acc) {
        return Ok(Res::zero(neg));
    }
    // value = acc·2^bexp (+ sticky below acc's last digit).
    let mut top = HEX_LIMBS - 1;
    while acc[top] == 0 {
        top -= 1;
    }
    let c = acc[top].leading_zeros();
    let buf = &mut acc[..=top];
    mpn::lshift(buf, c);
    let exp = bexp + 64 * (top as i64 + 1) - c as i64;
    if sticky && (64 * (top + 1) as u32) < p + 1 {
        // Keep p + 1 bits for the sticky rule: so many digits only come with a long input,
        // and 4608 kept bits exceed every precision we hold.
        return Err(err("too many digits"));
    }
    let exp = exp.clamp(EMIN - 2 * (p as i64) - 64, EMAX + 2);
    let r = round_mant(buf, sticky, neg, p, rnd, out);
    Ok(finish(neg, exp, r, p, rnd, out))
}

/// Parses a decimal number (`1.25`, `-3e-4`, `inf`, `nan`) and rounds it correctly to p bits
/// (MPFR's `mpfr_strtofr`; text is a host-side matter and has no GPU counterpart).
pub(crate) fn parse_decimal(
    s: &str,
    p: u32,
    rnd: Round,
    out: &mut [u64],
) -> Result<Res, ParseLimbError> {
    let err = |reason| ParseLimbError {
        input: s.to_string(),
        reason,
    };
    let t = s.trim();
    if let Some(r) = special(t) {
        return Ok(r);
    }
    let valid = !t.is_empty()
        && t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
        && t.chars().any(|c| c.is_ascii_digit());
    if !valid {
        return Err(err("expected a decimal number such as 1.25 or -3e-4"));
    }
    let parsed = Float::parse(t).map_err(|_| err("not a decimal number"))?;
    let (v, o) = Float::with_val_round(p, parsed, rnd.to_rug());
    let mut r = from_rug(&v, p, Round::Nearest, out);
    r.ord = o as i8;
    Ok(r)
}
