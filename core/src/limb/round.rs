//! Rounding of an exact (or exact-plus-sticky) mantissa to p bits in each of MPFR's five
//! modes, and MPFR's overflow and underflow rules for the default exponent range.
//!
//! Every operation computes enough bits of its exact result (at least p + 1, and a sticky
//! bit saying whether anything non-zero lies below them), normalizes them so that the most
//! significant limb has its top bit set, and calls [`round_mant`] and then [`finish`]: one
//! place decides rounding for every operation, as in MPFR (`mpfr_round_raw`).

use super::mpn;

/// Rounding modes, with MPFR's meaning (`MPFR_RNDN`, `RNDZ`, `RNDU`, `RNDD`, `RNDA`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// To nearest, ties to even.
    Nearest,
    /// Toward zero.
    Zero,
    /// Toward +∞.
    Up,
    /// Toward −∞.
    Down,
    /// Away from zero.
    Away,
}

impl Round {
    /// All five modes.
    pub const ALL: [Round; 5] = [
        Round::Nearest,
        Round::Zero,
        Round::Up,
        Round::Down,
        Round::Away,
    ];

    /// The same mode in rug's enum.
    pub fn to_rug(self) -> rug::float::Round {
        match self {
            Round::Nearest => rug::float::Round::Nearest,
            Round::Zero => rug::float::Round::Zero,
            Round::Up => rug::float::Round::Up,
            Round::Down => rug::float::Round::Down,
            Round::Away => rug::float::Round::AwayZero,
        }
    }

    /// Short name (`N`, `Z`, `U`, `D`, `A`, MPFR's letters).
    pub fn letter(self) -> char {
        match self {
            Round::Nearest => 'N',
            Round::Zero => 'Z',
            Round::Up => 'U',
            Round::Down => 'D',
            Round::Away => 'A',
        }
    }
}

/// Smallest exponent of a non-zero number (MPFR's default `emin` = 1 − 2^30): the smallest
/// positive number is 2^(EMIN − 1).
pub const EMIN: i64 = 1 - (1 << 30);
/// Largest exponent (MPFR's default `emax` = 2^30 − 1): numbers are below 2^EMAX.
pub const EMAX: i64 = (1 << 30) - 1;

/// What a number is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// ±0.
    Zero,
    /// A finite non-zero number.
    Normal,
    /// ±∞.
    Inf,
    /// Not a number.
    Nan,
}

/// Number of limbs of a p-bit mantissa.
#[inline(always)]
pub(crate) fn limbs(p: u32) -> usize {
    p.div_ceil(64) as usize
}

/// The outcome of an operation whose mantissa was written to an output slice: the class,
/// sign, exponent (value = 0.m·2^exp with 0.m ∈ [1/2, 1), for `Normal`), and the ternary
/// value: the sign of (rounded − exact), as MPFR returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Res {
    pub kind: Kind,
    pub neg: bool,
    pub exp: i64,
    pub ord: i8,
}

impl Res {
    pub(crate) fn nan() -> Self {
        Res {
            kind: Kind::Nan,
            neg: false,
            exp: 0,
            ord: 0,
        }
    }
    pub(crate) fn inf(neg: bool) -> Self {
        Res {
            kind: Kind::Inf,
            neg,
            exp: 0,
            ord: 0,
        }
    }
    pub(crate) fn zero(neg: bool) -> Self {
        Res {
            kind: Kind::Zero,
            neg,
            exp: 0,
            ord: 0,
        }
    }
}

/// Rounds `buf` (normalized: top bit of its last limb set) followed by `sticky` (whether any
/// non-zero bit lies below `buf`) to p bits in mode `rnd` for a number of sign `neg`, into
/// `out[..limbs(p)]` (top-aligned, bits below p zero). `buf` must hold at least p + 1 bits
/// when `sticky` is set.
///
/// Returns (carry, dir): carry when rounding up overflowed to the next power of two (`out` is
/// then 1000…0 and the exponent must grow by one); dir = sign(|rounded| − |exact|).
#[inline]
pub(crate) fn round_mant(
    buf: &[u64],
    sticky: bool,
    neg: bool,
    p: u32,
    rnd: Round,
    out: &mut [u64],
) -> (bool, i8) {
    let n = limbs(p);
    let m = buf.len();
    debug_assert!(m >= 1 && buf[m - 1] >> 63 == 1);
    let sh = 64 * n as u32 - p; // bits dropped at the bottom of out[0], 0..=63
    let out = &mut out[..n];
    let (rbit, st);
    if m >= n {
        // (One or two limbs by hand: a memcpy call costs more than the copy.)
        match n {
            1 => out[0] = buf[m - 1],
            2 => {
                out[0] = buf[m - 2];
                out[1] = buf[m - 1];
            }
            _ => out.copy_from_slice(&buf[m - n..]),
        }
        let low = &buf[..m - n];
        if sh > 0 {
            rbit = (out[0] >> (sh - 1)) & 1;
            let below = out[0] & ((1u64 << (sh - 1)) - 1);
            st = below != 0 || !mpn::is_zero(low) || sticky;
            out[0] &= !((1u64 << sh) - 1);
        } else if m > n {
            let top = low[m - n - 1];
            rbit = top >> 63;
            st = (top << 1) != 0 || !mpn::is_zero(&low[..m - n - 1]) || sticky;
        } else {
            rbit = 0;
            st = sticky;
        }
    } else {
        debug_assert!(!sticky, "a sticky bit needs p + 1 bits of buffer");
        out[n - m..].copy_from_slice(buf);
        out[..n - m].fill(0);
        rbit = 0;
        st = sticky;
    }
    if rbit == 0 && !st {
        return (false, 0);
    }
    let lsb = (out[0] >> sh) & 1;
    let up = match rnd {
        Round::Nearest => rbit == 1 && (st || lsb == 1),
        Round::Zero => false,
        Round::Up => !neg,
        Round::Down => neg,
        Round::Away => true,
    };
    if !up {
        return (false, -1);
    }
    if mpn::add_1(out, 1u64 << sh) != 0 {
        out[n - 1] = 1 << 63;
        return (true, 1);
    }
    (false, 1)
}

/// True when the n-limb mantissa is 1000…0 (the number is a power of two).
#[inline]
fn is_pow2(m: &[u64]) -> bool {
    let n = m.len();
    m[n - 1] == 1 << 63 && mpn::is_zero(&m[..n - 1])
}

/// Completes a finite non-zero result whose mantissa [`round_mant`] wrote to `out`: applies
/// the carry, then MPFR's range rules for the default exponent range [`EMIN`]..=[`EMAX`]
/// (rounding with an unbounded exponent first, as MPFR specifies):
/// - overflow (exponent > EMAX): ±∞, or the largest finite number when rounding toward zero;
/// - underflow (exponent < EMIN): ±0 or ±2^(EMIN − 1) by the mode; to nearest, the halfway
///   value 2^(EMIN − 2) and anything smaller go to zero.
#[inline]
pub(crate) fn finish(
    neg: bool,
    exp: i64,
    (carry, dir): (bool, i8),
    p: u32,
    rnd: Round,
    out: &mut [u64],
) -> Res {
    let n = limbs(p);
    let out = &mut out[..n];
    let e = exp + carry as i64;
    let away = |r: Round| match r {
        Round::Nearest | Round::Away => true,
        Round::Zero => false,
        Round::Up => !neg,
        Round::Down => neg,
    };
    let mut dir = dir;
    let mut res = Res {
        kind: Kind::Normal,
        neg,
        exp: e,
        ord: 0,
    };
    if e > EMAX {
        if away(rnd) {
            res = Res::inf(neg);
            dir = 1;
        } else {
            let sh = 64 * n as u32 - p;
            out.fill(u64::MAX);
            out[0] &= !(((1u128 << sh) - 1) as u64);
            res.exp = EMAX;
            dir = -1;
        }
    } else if e < EMIN {
        let to_min = match rnd {
            Round::Nearest => !(e < EMIN - 1 || (e == EMIN - 1 && is_pow2(out) && dir >= 0)),
            r => away(r),
        };
        if to_min {
            out.fill(0);
            out[n - 1] = 1 << 63;
            res.exp = EMIN;
            dir = 1;
        } else {
            res = Res::zero(neg);
            dir = -1;
        }
    }
    res.ord = if neg { -dir } else { dir };
    res
}
