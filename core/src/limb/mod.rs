//! # Fixed-limb binary floating point, correctly rounded exactly as MPFR
//!
//! [`LimbFloat<L>`] holds a binary floating-point number with a run-time precision p of
//! 2..=64·L bits in a fixed array of L 64-bit limbs: sign, exponent, mantissa, and the special
//! values ±0, ±∞ and NaN, as MPFR has them. Every operation (add, sub, mul, fma, div, sqrt,
//! conversions) is correctly rounded in each of MPFR's five modes ([`Round`]), so its result
//! and its ternary value (the `Ordering` of rounded vs exact) are bit for bit those of MPFR at
//! the same precision; `expanse bench limb --check` and the `limb_*` tests verify this against
//! `rug`. [`AnyLimbFloat`] picks the capacity from the precision at run time (L ∈ {2, 4, 8,
//! 16, 32, 64}, so 128 to 4096 bits), for code that gets its precision from the user.
//!
//! Use it where expansions stop paying (past a few hundred bits) and where results must match
//! MPFR exactly; it is the CPU reference of the GPU limb arithmetic: the kernels are plain
//! loops over `u64` limbs with `u128` products, fixed-size arrays, no heap and no recursion,
//! so the CUDA version is the same algorithm line by line.
//!
//! ## Representation and range
//!
//! A finite non-zero number is ±0.m·2^e with the mantissa m in [1/2, 1) stored in the first
//! ⌈p/64⌉ limbs (most significant last, top bit set, bits below p zero: MPFR's own layout),
//! and e an exponent in MPFR's default range [`EMIN`]..=[`EMAX`] (±(2^30 − 1)). Intermediate
//! exponents are i64, so nothing overflows before the final range check, which applies
//! MPFR's rules: results are rounded as if the exponent were unbounded; beyond EMAX they
//! become ±∞ (or the largest finite number when rounding toward zero), below EMIN ±0 or
//! ±2^(EMIN−1) by the mode (to nearest, 2^(EMIN−2) and below go to zero). Bit-identity holds
//! over the whole default range; a program that changes MPFR's exponent range
//! (`mpfr_set_emin`) is outside it.
//!
//! ## Operations
//!
//! Explicit rounding: `a.add_round(&b, Round::Up)` returns (result, `Ordering`) like rug's
//! `*_round`; the result precision of a binary operation is the larger of the operands'
//! (as MPFR intervals do here). `std::ops` operators round to nearest. Conversions: f64
//! ([`LimbFloat::from_f64`], [`LimbFloat::to_f64`], rounded like `mpfr_set_d` /
//! `mpfr_get_d`), expansions (from: the exact sum of the terms rounded once; to: the greedy
//! nearest expansion, exactly `Expansion::from_rug` of the value), MPFR numbers
//! ([`LimbFloat::from_rug`], [`LimbFloat::to_rug`]), hexadecimal text (exact out, correctly
//! rounded in) and decimal text (correctly rounded in; out with ⌈p·log10 2⌉ + 1 significant
//! digits, enough to read back the same number; both through MPFR, host-side only).
//!
//! ## Algorithms
//!
//! See the `arith` and `mpn` sources: aligned addition with a sticky bit and one borrow;
//! schoolbook multiplication; Knuth's Algorithm D with Möller–Granlund 3/2 quotient digits;
//! a one-limb-per-step integer square root with exact remainder (Zimmermann 1999, one step of
//! "Karatsuba square root" without recursion). Every result is rounded once from at least
//! p + 1 exact bits and an exact sticky bit.
//!
//! [`functions`] adds exp, ln, sin and cos (deterministic and accurate to within a small
//! fraction of an ulp over the stated ranges, not correctly rounded), built from these
//! operations so that the GPU repeats them bit for bit.

mod arith;
pub mod check;
mod conv;
mod dynamic;
pub mod functions;
mod mpn;
mod round;

pub use conv::ParseLimbError;
pub use dynamic::{capacity_for, AnyLimbFloat, CAPACITIES, MAX_PREC};
pub use round::{Kind, Round, EMAX, EMIN};

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use arith::Num;
use core::cmp::Ordering;
use round::{limbs, Res};

/// Smallest precision (bits), as MPFR's smallest useful one.
pub const MIN_PREC: u32 = 2;

/// A binary floating-point number of run-time precision p ∈ 2..=64·L bits in L 64-bit limbs,
/// correctly rounded as MPFR (see the [module docs](self)).
#[derive(Clone, Copy)]
pub struct LimbFloat<const L: usize> {
    // Limbs 0..⌈p/64⌉ hold the mantissa of a Normal number; every other limb is zero.
    m: [u64; L],
    exp: i32,
    prec: u32,
    kind: Kind,
    neg: bool,
}

fn ord(o: i8) -> Ordering {
    o.cmp(&0)
}

/// Runs a kernel with a zeroed scratch of M·L limbs.
macro_rules! with_scratch {
    ($l:expr, $m:literal, |$w:ident| $body:expr) => {{
        let mut scratch = [[0u64; $l]; $m];
        let $w = scratch.as_flattened_mut();
        $body
    }};
}

impl<const L: usize> LimbFloat<L> {
    /// Largest precision this capacity holds (64·L bits).
    pub const MAX_PREC: u32 = 64 * L as u32;

    /// True when `prec` is a precision this capacity holds (2..=64·L).
    pub fn valid_prec(prec: u32) -> bool {
        (MIN_PREC..=Self::MAX_PREC).contains(&prec)
    }

    #[inline(always)]
    fn check(prec: u32) {
        assert!(
            Self::valid_prec(prec),
            "precision {prec} is outside {MIN_PREC}..={} bits of LimbFloat<{L}>",
            Self::MAX_PREC
        );
    }

    #[inline(always)]
    fn special(kind: Kind, neg: bool, prec: u32) -> Self {
        Self::check(prec);
        Self {
            m: [0; L],
            exp: 0,
            prec,
            kind,
            neg,
        }
    }

    /// ±0 at precision `prec`.
    ///
    /// # Panics
    /// When `prec` is outside 2..=64·L (check user input with [`Self::valid_prec`]); the same
    /// holds for every constructor that takes a precision.
    pub fn zero(prec: u32, negative: bool) -> Self {
        Self::special(Kind::Zero, negative, prec)
    }

    /// ±∞ at precision `prec`.
    pub fn infinity(prec: u32, negative: bool) -> Self {
        Self::special(Kind::Inf, negative, prec)
    }

    /// NaN at precision `prec`.
    pub fn nan(prec: u32) -> Self {
        Self::special(Kind::Nan, false, prec)
    }

    /// Builds from a kernel result whose mantissa is in `out`.
    #[inline(always)]
    fn from_res(r: Res, out: &[u64; L], prec: u32) -> (Self, Ordering) {
        let mut x = Self {
            m: [0; L],
            exp: 0,
            prec,
            kind: r.kind,
            neg: r.neg,
        };
        if r.kind == Kind::Normal {
            let n = limbs(prec);
            x.m[..n].copy_from_slice(&out[..n]);
            x.exp = r.exp as i32;
        }
        (x, ord(r.ord))
    }

    /// Runs a kernel writing the mantissa straight into the result's limbs.
    #[inline(always)]
    fn make(prec: u32, f: impl FnOnce(&mut [u64]) -> Res) -> (Self, Ordering) {
        Self::check(prec);
        let mut x = Self {
            m: [0; L],
            exp: 0,
            prec,
            kind: Kind::Zero,
            neg: false,
        };
        let r = f(&mut x.m);
        x.kind = r.kind;
        x.neg = r.neg;
        if r.kind == Kind::Normal {
            x.exp = r.exp as i32;
        } else {
            // Kernels may have written limbs before deciding on a special value.
            x.m = [0; L];
        }
        (x, ord(r.ord))
    }

    #[inline(always)]
    pub(crate) fn num(&self) -> Num<'_> {
        Num {
            kind: self.kind,
            neg: self.neg,
            exp: self.exp as i64,
            m: &self.m[..limbs(self.prec)],
        }
    }

    // ----- kernels on views (any capacity up to L limbs per operand) ------------------------

    pub(crate) fn add_num(a: Num, b: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| {
            with_scratch!(L, 4, |w| arith::add(a, b, prec, rnd, out, w))
        })
    }

    pub(crate) fn mul_num(a: Num, b: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| {
            with_scratch!(L, 2, |w| arith::mul(a, b, prec, rnd, out, w))
        })
    }

    pub(crate) fn fma_num(a: Num, b: Num, c: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| {
            with_scratch!(L, 8, |w| arith::fma(a, b, c, prec, rnd, out, w))
        })
    }

    pub(crate) fn div_num(a: Num, b: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| {
            with_scratch!(L, 6, |w| arith::div(a, b, prec, rnd, out, w))
        })
    }

    pub(crate) fn sqrt_num(a: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| {
            with_scratch!(L, 8, |w| arith::sqrt(a, prec, rnd, out, w))
        })
    }

    pub(crate) fn round_num(a: Num, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| arith::round_num(a, prec, rnd, out))
    }

    // ----- arithmetic -----------------------------------------------------------------------

    /// self + other rounded in mode `rnd` to the larger of the two precisions, with the
    /// ternary value (`Greater`: the result is above the exact sum).
    pub fn add_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::add_num(self.num(), other.num(), self.prec.max(other.prec), rnd)
    }

    /// self − other rounded (see [`Self::add_round`]).
    pub fn sub_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::add_num(
            self.num(),
            other.num().negated(),
            self.prec.max(other.prec),
            rnd,
        )
    }

    /// self · other rounded (see [`Self::add_round`]).
    pub fn mul_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::mul_num(self.num(), other.num(), self.prec.max(other.prec), rnd)
    }

    /// self² rounded.
    pub fn sqr_round(&self, rnd: Round) -> (Self, Ordering) {
        Self::mul_num(self.num(), self.num(), self.prec, rnd)
    }

    /// self · b + c with a single rounding, to the largest of the three precisions.
    pub fn fma_round(&self, b: &Self, c: &Self, rnd: Round) -> (Self, Ordering) {
        let p = self.prec.max(b.prec).max(c.prec);
        Self::fma_num(self.num(), b.num(), c.num(), p, rnd)
    }

    /// self / other rounded (see [`Self::add_round`]).
    pub fn div_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::div_num(self.num(), other.num(), self.prec.max(other.prec), rnd)
    }

    /// √self rounded (NaN for negative numbers, −0 for −0).
    pub fn sqrt_round(&self, rnd: Round) -> (Self, Ordering) {
        Self::sqrt_num(self.num(), self.prec, rnd)
    }

    /// This number rounded to another precision.
    pub fn with_prec_round(&self, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::round_num(self.num(), prec, rnd)
    }

    /// −self (exact).
    pub fn neg(&self) -> Self {
        let mut x = *self;
        x.neg = !x.neg;
        x
    }

    /// |self| (exact).
    pub fn abs(&self) -> Self {
        let mut x = *self;
        x.neg = false;
        x
    }

    // ----- inspection -----------------------------------------------------------------------

    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// Zero, normal, infinite or NaN.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The sign bit (also of zeros and infinities; false for NaN).
    pub fn is_sign_negative(&self) -> bool {
        self.neg
    }

    /// True for NaN.
    pub fn is_nan(&self) -> bool {
        self.kind == Kind::Nan
    }

    /// True for ±∞.
    pub fn is_infinite(&self) -> bool {
        self.kind == Kind::Inf
    }

    /// True for ±0.
    pub fn is_zero(&self) -> bool {
        self.kind == Kind::Zero
    }

    /// True for zero and normal numbers.
    pub fn is_finite(&self) -> bool {
        matches!(self.kind, Kind::Zero | Kind::Normal)
    }

    /// The exponent e of a finite non-zero number ±0.m·2^e (0.m ∈ [1/2, 1)), as MPFR's
    /// `mpfr_get_exp`.
    pub fn exponent(&self) -> Option<i32> {
        (self.kind == Kind::Normal).then_some(self.exp)
    }

    /// The mantissa limbs (⌈p/64⌉ of them, least significant first, top bit set, bits below
    /// the precision zero) of a finite non-zero number; empty otherwise.
    pub fn mantissa(&self) -> &[u64] {
        if self.kind == Kind::Normal {
            &self.m[..limbs(self.prec)]
        } else {
            &[]
        }
    }

    /// A number from its parts, as [`Self::kind`], [`Self::is_sign_negative`],
    /// [`Self::exponent`] and [`Self::mantissa`] give them (for data moved to and from other
    /// code, e.g. a GPU). `None` when they break the representation: for a normal number the
    /// mantissa must have ⌈prec/64⌉ limbs, the top bit set and the bits below `prec` clear, and
    /// the exponent must lie in [`EMIN`]..=[`EMAX`]; for other kinds `exponent` and `mantissa`
    /// are ignored.
    pub fn from_parts(
        kind: Kind,
        negative: bool,
        exponent: i32,
        mantissa: &[u64],
        prec: u32,
    ) -> Option<Self> {
        if !Self::valid_prec(prec) {
            return None;
        }
        let mut x = Self::special(kind, negative, prec);
        if kind != Kind::Normal {
            return Some(x);
        }
        let n = limbs(prec);
        let sh = 64 * n as u32 - prec;
        let ok = mantissa.len() == n
            && mantissa[n - 1] >> 63 == 1
            && (sh == 0 || mantissa[0] & ((1u64 << sh) - 1) == 0)
            && (EMIN..=EMAX).contains(&(exponent as i64));
        if !ok {
            return None;
        }
        x.m[..n].copy_from_slice(mantissa);
        x.exp = exponent;
        Some(x)
    }

    /// Numerical comparison: `None` when either is NaN; −0 equals +0.
    pub fn cmp_value(&self, other: &Self) -> Option<Ordering> {
        arith::cmp(self.num(), other.num())
    }

    /// The total order of MPFR's `mpfr_total_order_p` (and rug's `total_cmp`): −NaN < −∞ <
    /// negatives < −0 < +0 < positives < +∞ < +NaN.
    pub fn total_cmp(&self, other: &Self) -> Ordering {
        total_cmp(self.num(), other.num())
    }

    // ----- conversions ----------------------------------------------------------------------

    /// An f64 rounded to `prec` bits (exact when prec ≥ 53).
    pub fn from_f64(v: f64, prec: u32, rnd: Round) -> (Self, Ordering) {
        let (kind, neg, exp, m) = conv::f64_parts(v);
        let limb = [m];
        let a = Num {
            kind,
            neg,
            exp,
            m: &limb,
        };
        Self::round_num(a, prec, rnd)
    }

    /// The f64 nearest in mode `rnd` (IEEE subnormals; ±∞ or ±f64::MAX beyond the range by
    /// the mode), as `mpfr_get_d`.
    pub fn to_f64(&self, rnd: Round) -> f64 {
        conv::to_f64(self.num(), rnd)
    }

    /// The exact sum of an expansion's terms rounded once to `prec` bits.
    pub fn from_expansion<T: FloatTerm, const N: usize>(
        e: &Expansion<T, N>,
        prec: u32,
        rnd: Round,
    ) -> (Self, Ordering) {
        let mut t = [0.0f64; N];
        for (d, s) in t.iter_mut().zip(e.terms()) {
            *d = s.to_f64();
        }
        Self::make(prec, |out| conv::sum_f64(&t, prec, rnd, out))
    }

    /// The nearest N-term f64 expansion, greedily (each term is the f64 nearest to what
    /// remains; exact when the value fits in N terms): the same expansion as
    /// `Expansion::from_rug(&self.to_rug())`.
    pub fn to_expansion<const N: usize>(&self) -> Expansion<f64, N> {
        let mut terms = [0.0f64; N];
        if self.kind == Kind::Nan {
            terms[0] = f64::NAN;
            return Expansion::from_normalized(terms);
        }
        let mut rest = *self;
        for t in terms.iter_mut() {
            let head = rest.to_f64(Round::Nearest);
            *t = head;
            if !head.is_finite() || head == 0.0 {
                break;
            }
            // Exact: rest − RN(rest) fits in the precision of rest (see the module docs).
            let (h, _) =
                Self::from_f64(head, 53.max(rest.prec).min(Self::MAX_PREC), Round::Nearest);
            let (r, o) = rest.sub_round(&h, Round::Nearest);
            debug_assert_eq!(o, Ordering::Equal);
            rest = r;
            if rest.is_zero() {
                break;
            }
        }
        Expansion::from_normalized(terms)
    }

    /// An MPFR number (any precision) rounded to `prec` bits.
    pub fn from_rug(v: &rug::Float, prec: u32, rnd: Round) -> (Self, Ordering) {
        Self::make(prec, |out| conv::from_rug(v, prec, rnd, out))
    }

    /// The exact value as an MPFR number of the same precision.
    pub fn to_rug(&self) -> rug::Float {
        conv::to_rug(self.num(), self.prec)
    }

    /// Parses C99 hexadecimal text (`-0x1.8p+1`, `0x3p-2`, `inf`, `nan`) rounded correctly.
    pub fn from_hex(s: &str, prec: u32, rnd: Round) -> Result<(Self, Ordering), ParseLimbError> {
        Self::check(prec);
        let mut out = [0u64; L];
        let r = conv::parse_hex(s, prec, rnd, &mut out)?;
        Ok(Self::from_res(r, &out, prec))
    }

    /// The exact value as C99 hexadecimal text (`-0x1.8p+1`).
    pub fn to_hex(&self) -> String {
        conv::to_hex(self.num())
    }

    /// Parses decimal text (`1.25`, `-3e-4`, `inf`, `nan`) rounded correctly (by MPFR).
    pub fn from_decimal(
        s: &str,
        prec: u32,
        rnd: Round,
    ) -> Result<(Self, Ordering), ParseLimbError> {
        Self::check(prec);
        let mut out = [0u64; L];
        let r = conv::parse_decimal(s, prec, rnd, &mut out)?;
        Ok(Self::from_res(r, &out, prec))
    }

    /// Decimal text with ⌈p·log10 2⌉ + 1 significant digits, which reads back (to nearest, at
    /// the same precision) as the same number.
    pub fn to_decimal(&self) -> String {
        decimal_text(&self.to_rug())
    }
}

/// The total order on views.
pub(crate) fn total_cmp(a: Num, b: Num) -> Ordering {
    // Sign first (NaN carries a sign too), then within a sign the order of magnitudes.
    if a.neg != b.neg {
        return if a.neg {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let rank = |x: &Num| -> u8 {
        match x.kind {
            Kind::Zero => 0,
            Kind::Normal => 1,
            Kind::Inf => 2,
            Kind::Nan => 3,
        }
    };
    let mag = match rank(&a).cmp(&rank(&b)) {
        Ordering::Equal if a.kind == Kind::Normal => {
            if a.exp != b.exp {
                a.exp.cmp(&b.exp)
            } else {
                mpn::cmp_top_aligned(a.m, b.m)
            }
        }
        o => o,
    };
    if a.neg {
        mag.reverse()
    } else {
        mag
    }
}

/// Decimal text for an MPFR number with enough digits to read back.
pub(crate) fn decimal_text(v: &rug::Float) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v.is_sign_negative() { "-inf" } else { "inf" }.to_string();
    }
    if v.is_zero() {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let digits = (v.prec() as f64 * core::f64::consts::LOG10_2).ceil() as usize + 1;
    v.to_string_radix_round(10, Some(digits), rug::float::Round::Nearest)
        .replace('@', "")
}

impl<const L: usize> core::fmt::Debug for LimbFloat<L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "LimbFloat<{L}>({}, {} bits)", self.to_hex(), self.prec)
    }
}

impl<const L: usize> core::fmt::Display for LimbFloat<L> {
    /// Decimal, round-trip digits (see [`LimbFloat::to_decimal`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_decimal())
    }
}

impl<const L: usize> core::fmt::LowerHex for LimbFloat<L> {
    /// Exact C99 hexadecimal (see [`LimbFloat::to_hex`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl<const L: usize> core::str::FromStr for LimbFloat<L> {
    type Err = ParseLimbError;

    /// Decimal or (with `0x`) hexadecimal text, rounded to nearest at the full capacity
    /// precision 64·L.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let body = t.trim_start_matches(['+', '-']);
        if body.starts_with("0x") || body.starts_with("0X") {
            Self::from_hex(t, Self::MAX_PREC, Round::Nearest).map(|r| r.0)
        } else {
            Self::from_decimal(t, Self::MAX_PREC, Round::Nearest).map(|r| r.0)
        }
    }
}

impl<const L: usize> PartialEq for LimbFloat<L> {
    /// Numerical equality (NaN ≠ NaN, −0 = +0; precision not compared).
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Some(Ordering::Equal)
    }
}

impl<const L: usize> PartialOrd for LimbFloat<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.cmp_value(other)
    }
}

macro_rules! limb_binop {
    ($tr:ident, $f:ident, $m:ident) => {
        impl<const L: usize> core::ops::$tr<&LimbFloat<L>> for &LimbFloat<L> {
            type Output = LimbFloat<L>;
            /// Rounded to nearest at the larger precision.
            fn $f(self, o: &LimbFloat<L>) -> LimbFloat<L> {
                self.$m(o, Round::Nearest).0
            }
        }
        impl<const L: usize> core::ops::$tr for LimbFloat<L> {
            type Output = LimbFloat<L>;
            /// Rounded to nearest at the larger precision.
            fn $f(self, o: LimbFloat<L>) -> LimbFloat<L> {
                self.$m(&o, Round::Nearest).0
            }
        }
    };
}
limb_binop!(Add, add, add_round);
limb_binop!(Sub, sub, sub_round);
limb_binop!(Mul, mul, mul_round);
limb_binop!(Div, div, div_round);

impl<const L: usize> core::ops::Neg for LimbFloat<L> {
    type Output = LimbFloat<L>;
    fn neg(self) -> LimbFloat<L> {
        LimbFloat::neg(&self)
    }
}

impl<const L: usize> core::ops::Neg for &LimbFloat<L> {
    type Output = LimbFloat<L>;
    fn neg(self) -> LimbFloat<L> {
        LimbFloat::neg(self)
    }
}
