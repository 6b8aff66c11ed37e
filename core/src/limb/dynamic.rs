//! [`AnyLimbFloat`]: a limb float whose capacity is picked at run time from its precision,
//! among the capacities instantiated once here (L ∈ [`CAPACITIES`] = 2, 4, …, 64 limbs, so
//! up to 4096 bits). Operations on numbers of different capacities work at the larger
//! precision, reading each operand in place (the kernels take mantissas of any length), so
//! nothing is converted first.

use super::arith::Num;
use super::conv::ParseLimbError;
use super::{Kind, LimbFloat, Round};
use crate::expansion::Expansion;
use crate::float::FloatTerm;
use core::cmp::Ordering;

/// The capacities (limbs) instantiated behind [`AnyLimbFloat`].
pub const CAPACITIES: [usize; 6] = [2, 4, 8, 16, 32, 64];

/// Largest precision of an [`AnyLimbFloat`] (bits).
pub const MAX_PREC: u32 = 4096;

/// The capacity (limbs) [`AnyLimbFloat`] uses for a precision: the smallest of
/// [`CAPACITIES`] holding `prec` bits; `None` outside 2..=[`MAX_PREC`].
pub fn capacity_for(prec: u32) -> Option<usize> {
    if !(super::MIN_PREC..=MAX_PREC).contains(&prec) {
        return None;
    }
    CAPACITIES.iter().copied().find(|&l| 64 * l as u32 >= prec)
}

/// A [`LimbFloat`] of the capacity its precision needs (see [`capacity_for`]).
///
/// Every value occupies the size of the largest capacity (about 530 bytes: no heap, by
/// design); for large arrays of numbers of one precision use `LimbFloat<L>` itself.
#[derive(Clone, Copy, Debug)]
#[allow(missing_docs, clippy::large_enum_variant)]
pub enum AnyLimbFloat {
    L2(LimbFloat<2>),
    L4(LimbFloat<4>),
    L8(LimbFloat<8>),
    L16(LimbFloat<16>),
    L32(LimbFloat<32>),
    L64(LimbFloat<64>),
}

/// Runs `$body` with `const $l: usize` bound to the capacity for precision `$p` and wraps the
/// `LimbFloat<$l>` that `$body` returns first in a tuple.
macro_rules! build {
    ($p:expr, $l:ident => $body:expr) => {
        match capacity_for($p) {
            Some(2) => {
                const $l: usize = 2;
                let (x, o) = $body;
                (AnyLimbFloat::L2(x), o)
            }
            Some(4) => {
                const $l: usize = 4;
                let (x, o) = $body;
                (AnyLimbFloat::L4(x), o)
            }
            Some(8) => {
                const $l: usize = 8;
                let (x, o) = $body;
                (AnyLimbFloat::L8(x), o)
            }
            Some(16) => {
                const $l: usize = 16;
                let (x, o) = $body;
                (AnyLimbFloat::L16(x), o)
            }
            Some(32) => {
                const $l: usize = 32;
                let (x, o) = $body;
                (AnyLimbFloat::L32(x), o)
            }
            Some(64) => {
                const $l: usize = 64;
                let (x, o) = $body;
                (AnyLimbFloat::L64(x), o)
            }
            _ => panic!(
                "precision {} is outside {}..={MAX_PREC} bits",
                $p,
                super::MIN_PREC
            ),
        }
    };
}

/// Applies `$body` to the inner `LimbFloat` of `$x`.
macro_rules! inner {
    ($x:expr, $v:ident => $body:expr) => {
        match $x {
            AnyLimbFloat::L2($v) => $body,
            AnyLimbFloat::L4($v) => $body,
            AnyLimbFloat::L8($v) => $body,
            AnyLimbFloat::L16($v) => $body,
            AnyLimbFloat::L32($v) => $body,
            AnyLimbFloat::L64($v) => $body,
        }
    };
}

/// Moves a result computed in a larger capacity (the scratch of the kernels is sized by the
/// capacity, and long operands need long scratch) to the capacity its precision needs.
#[inline]
fn shrink((x, o): (AnyLimbFloat, Ordering)) -> (AnyLimbFloat, Ordering) {
    let p = x.prec();
    if capacity_for(p) == Some(x.capacity()) {
        return (x, o);
    }
    // Exact: the same number at the same precision.
    (x.with_prec_round(p, Round::Nearest).0, o)
}

impl AnyLimbFloat {
    /// True when `prec` is a supported precision (2..=[`MAX_PREC`]).
    pub fn valid_prec(prec: u32) -> bool {
        capacity_for(prec).is_some()
    }

    pub(crate) fn num(&self) -> Num<'_> {
        inner!(self, x => x.num())
    }

    /// ±0 at precision `prec`.
    ///
    /// # Panics
    /// When `prec` is outside 2..=4096 (check user input with [`Self::valid_prec`]); the same
    /// holds for every constructor that takes a precision.
    pub fn zero(prec: u32, negative: bool) -> Self {
        build!(prec, L => (LimbFloat::<L>::zero(prec, negative), ())).0
    }

    /// ±∞ at precision `prec`.
    pub fn infinity(prec: u32, negative: bool) -> Self {
        build!(prec, L => (LimbFloat::<L>::infinity(prec, negative), ())).0
    }

    /// NaN at precision `prec`.
    pub fn nan(prec: u32) -> Self {
        build!(prec, L => (LimbFloat::<L>::nan(prec), ())).0
    }

    /// A number from its parts (see [`LimbFloat::from_parts`]); `None` when they are not a
    /// valid number or the precision is outside 2..=4096.
    pub fn from_parts(
        kind: Kind,
        negative: bool,
        exponent: i32,
        mantissa: &[u64],
        prec: u32,
    ) -> Option<Self> {
        let (k, g, e, m) = (kind, negative, exponent, mantissa);
        Some(match capacity_for(prec)? {
            2 => AnyLimbFloat::L2(LimbFloat::from_parts(k, g, e, m, prec)?),
            4 => AnyLimbFloat::L4(LimbFloat::from_parts(k, g, e, m, prec)?),
            8 => AnyLimbFloat::L8(LimbFloat::from_parts(k, g, e, m, prec)?),
            16 => AnyLimbFloat::L16(LimbFloat::from_parts(k, g, e, m, prec)?),
            32 => AnyLimbFloat::L32(LimbFloat::from_parts(k, g, e, m, prec)?),
            _ => AnyLimbFloat::L64(LimbFloat::from_parts(k, g, e, m, prec)?),
        })
    }

    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        inner!(self, x => x.prec())
    }

    /// The capacity in limbs.
    pub fn capacity(&self) -> usize {
        match self {
            AnyLimbFloat::L2(_) => 2,
            AnyLimbFloat::L4(_) => 4,
            AnyLimbFloat::L8(_) => 8,
            AnyLimbFloat::L16(_) => 16,
            AnyLimbFloat::L32(_) => 32,
            AnyLimbFloat::L64(_) => 64,
        }
    }

    /// Zero, normal, infinite or NaN.
    pub fn kind(&self) -> Kind {
        inner!(self, x => x.kind())
    }

    /// The sign bit.
    pub fn is_sign_negative(&self) -> bool {
        inner!(self, x => x.is_sign_negative())
    }

    /// True for NaN.
    pub fn is_nan(&self) -> bool {
        self.kind() == Kind::Nan
    }

    /// True for ±∞.
    pub fn is_infinite(&self) -> bool {
        self.kind() == Kind::Inf
    }

    /// True for ±0.
    pub fn is_zero(&self) -> bool {
        self.kind() == Kind::Zero
    }

    /// True for zero and normal numbers.
    pub fn is_finite(&self) -> bool {
        matches!(self.kind(), Kind::Zero | Kind::Normal)
    }

    /// The exponent e of ±0.m·2^e for finite non-zero numbers.
    pub fn exponent(&self) -> Option<i32> {
        inner!(self, x => x.exponent())
    }

    /// The mantissa limbs (see [`LimbFloat::mantissa`]).
    pub fn mantissa(&self) -> &[u64] {
        inner!(self, x => x.mantissa())
    }

    /// −self (exact).
    pub fn neg(&self) -> Self {
        match self {
            AnyLimbFloat::L2(x) => AnyLimbFloat::L2(x.neg()),
            AnyLimbFloat::L4(x) => AnyLimbFloat::L4(x.neg()),
            AnyLimbFloat::L8(x) => AnyLimbFloat::L8(x.neg()),
            AnyLimbFloat::L16(x) => AnyLimbFloat::L16(x.neg()),
            AnyLimbFloat::L32(x) => AnyLimbFloat::L32(x.neg()),
            AnyLimbFloat::L64(x) => AnyLimbFloat::L64(x.neg()),
        }
    }

    /// |self| (exact).
    pub fn abs(&self) -> Self {
        if self.is_sign_negative() {
            self.neg()
        } else {
            *self
        }
    }

    // ----- arithmetic at an explicit precision ----------------------------------------------

    /// a + b rounded to `prec` bits.
    pub fn add_prec(a: &Self, b: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec()).max(b.prec());
        shrink(build!(w, L => LimbFloat::<L>::add_num(a.num(), b.num(), prec, rnd)))
    }

    /// a − b rounded to `prec` bits.
    pub fn sub_prec(a: &Self, b: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec()).max(b.prec());
        shrink(build!(w, L => LimbFloat::<L>::add_num(a.num(), b.num().negated(), prec, rnd)))
    }

    /// a · b rounded to `prec` bits.
    pub fn mul_prec(a: &Self, b: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec()).max(b.prec());
        shrink(build!(w, L => LimbFloat::<L>::mul_num(a.num(), b.num(), prec, rnd)))
    }

    /// a · b + c with one rounding to `prec` bits.
    pub fn fma_prec(a: &Self, b: &Self, c: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec()).max(b.prec()).max(c.prec());
        shrink(build!(w, L => LimbFloat::<L>::fma_num(a.num(), b.num(), c.num(), prec, rnd)))
    }

    /// a / b rounded to `prec` bits.
    pub fn div_prec(a: &Self, b: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec()).max(b.prec());
        shrink(build!(w, L => LimbFloat::<L>::div_num(a.num(), b.num(), prec, rnd)))
    }

    /// √a rounded to `prec` bits.
    pub fn sqrt_prec(a: &Self, prec: u32, rnd: Round) -> (Self, Ordering) {
        let w = prec.max(a.prec());
        shrink(build!(w, L => LimbFloat::<L>::sqrt_num(a.num(), prec, rnd)))
    }

    /// This number rounded to `prec` bits (in the capacity `prec` needs).
    pub fn with_prec_round(&self, prec: u32, rnd: Round) -> (Self, Ordering) {
        build!(prec, L => LimbFloat::<L>::round_num(self.num(), prec, rnd))
    }

    // ----- arithmetic at the operands' precision --------------------------------------------

    /// self + other rounded to the larger precision.
    pub fn add_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::add_prec(self, other, self.prec().max(other.prec()), rnd)
    }

    /// self − other rounded to the larger precision.
    pub fn sub_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::sub_prec(self, other, self.prec().max(other.prec()), rnd)
    }

    /// self · other rounded to the larger precision.
    pub fn mul_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::mul_prec(self, other, self.prec().max(other.prec()), rnd)
    }

    /// self² rounded.
    pub fn sqr_round(&self, rnd: Round) -> (Self, Ordering) {
        Self::mul_prec(self, self, self.prec(), rnd)
    }

    /// self · b + c with one rounding to the largest precision.
    pub fn fma_round(&self, b: &Self, c: &Self, rnd: Round) -> (Self, Ordering) {
        let p = self.prec().max(b.prec()).max(c.prec());
        Self::fma_prec(self, b, c, p, rnd)
    }

    /// self / other rounded to the larger precision.
    pub fn div_round(&self, other: &Self, rnd: Round) -> (Self, Ordering) {
        Self::div_prec(self, other, self.prec().max(other.prec()), rnd)
    }

    /// √self rounded.
    pub fn sqrt_round(&self, rnd: Round) -> (Self, Ordering) {
        Self::sqrt_prec(self, self.prec(), rnd)
    }

    /// Numerical comparison (`None` with a NaN; −0 = +0).
    pub fn cmp_value(&self, other: &Self) -> Option<Ordering> {
        super::arith::cmp(self.num(), other.num())
    }

    /// MPFR's total order (see [`LimbFloat::total_cmp`]).
    pub fn total_cmp(&self, other: &Self) -> Ordering {
        super::total_cmp(self.num(), other.num())
    }

    // ----- conversions ----------------------------------------------------------------------

    /// An f64 rounded to `prec` bits.
    pub fn from_f64(v: f64, prec: u32, rnd: Round) -> (Self, Ordering) {
        build!(prec, L => LimbFloat::<L>::from_f64(v, prec, rnd))
    }

    /// The f64 nearest in mode `rnd` (as `mpfr_get_d`).
    pub fn to_f64(&self, rnd: Round) -> f64 {
        super::conv::to_f64(self.num(), rnd)
    }

    /// The exact sum of an expansion's terms rounded once to `prec` bits.
    pub fn from_expansion<T: FloatTerm, const N: usize>(
        e: &Expansion<T, N>,
        prec: u32,
        rnd: Round,
    ) -> (Self, Ordering) {
        build!(prec, L => LimbFloat::<L>::from_expansion(e, prec, rnd))
    }

    /// The greedy nearest N-term expansion (see [`LimbFloat::to_expansion`]).
    pub fn to_expansion<const N: usize>(&self) -> Expansion<f64, N> {
        inner!(self, x => x.to_expansion::<N>())
    }

    /// An MPFR number rounded to `prec` bits.
    pub fn from_rug(v: &rug::Float, prec: u32, rnd: Round) -> (Self, Ordering) {
        build!(prec, L => LimbFloat::<L>::from_rug(v, prec, rnd))
    }

    /// The exact value as an MPFR number of the same precision.
    pub fn to_rug(&self) -> rug::Float {
        inner!(self, x => x.to_rug())
    }

    /// Parses C99 hexadecimal text rounded correctly to `prec` bits.
    pub fn from_hex(s: &str, prec: u32, rnd: Round) -> Result<(Self, Ordering), ParseLimbError> {
        let v = build!(prec, L => match LimbFloat::<L>::from_hex(s, prec, rnd) {
            Ok((x, o)) => (x, Ok(o)),
            Err(e) => (LimbFloat::<L>::nan(prec), Err(e)),
        });
        v.1.map(|o| (v.0, o))
    }

    /// The exact value as C99 hexadecimal text.
    pub fn to_hex(&self) -> String {
        inner!(self, x => x.to_hex())
    }

    /// Parses decimal text rounded correctly to `prec` bits.
    pub fn from_decimal(
        s: &str,
        prec: u32,
        rnd: Round,
    ) -> Result<(Self, Ordering), ParseLimbError> {
        let v = build!(prec, L => match LimbFloat::<L>::from_decimal(s, prec, rnd) {
            Ok((x, o)) => (x, Ok(o)),
            Err(e) => (LimbFloat::<L>::nan(prec), Err(e)),
        });
        v.1.map(|o| (v.0, o))
    }

    /// Decimal text with enough digits to read back.
    pub fn to_decimal(&self) -> String {
        inner!(self, x => x.to_decimal())
    }
}

impl core::fmt::Display for AnyLimbFloat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_decimal())
    }
}

impl core::fmt::LowerHex for AnyLimbFloat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl PartialEq for AnyLimbFloat {
    /// Numerical equality (NaN ≠ NaN, −0 = +0).
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for AnyLimbFloat {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.cmp_value(other)
    }
}

macro_rules! any_binop {
    ($tr:ident, $f:ident, $m:ident) => {
        impl core::ops::$tr<&AnyLimbFloat> for &AnyLimbFloat {
            type Output = AnyLimbFloat;
            /// Rounded to nearest at the larger precision.
            fn $f(self, o: &AnyLimbFloat) -> AnyLimbFloat {
                self.$m(o, Round::Nearest).0
            }
        }
        impl core::ops::$tr for AnyLimbFloat {
            type Output = AnyLimbFloat;
            /// Rounded to nearest at the larger precision.
            fn $f(self, o: AnyLimbFloat) -> AnyLimbFloat {
                self.$m(&o, Round::Nearest).0
            }
        }
    };
}
any_binop!(Add, add, add_round);
any_binop!(Sub, sub, sub_round);
any_binop!(Mul, mul, mul_round);
any_binop!(Div, div, div_round);

impl core::ops::Neg for AnyLimbFloat {
    type Output = AnyLimbFloat;
    fn neg(self) -> AnyLimbFloat {
        AnyLimbFloat::neg(&self)
    }
}

impl core::ops::Neg for &AnyLimbFloat {
    type Output = AnyLimbFloat;
    fn neg(self) -> AnyLimbFloat {
        AnyLimbFloat::neg(self)
    }
}
