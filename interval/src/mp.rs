//! `MpInterval`: MPFR endpoints (`rug::Float`) at a precision fixed at construction; lower
//! endpoints rounded down, upper endpoints rounded up, by rug's `*_round` calls with an
//! explicit direction (no global state).
//!
//! Binary operations on two intervals of different precision compute at the larger one, so
//! no bits are silently dropped. MPFR's exponent range is far beyond f64's, so huge and tiny
//! magnitudes stay exact where f64 would overflow or underflow.

use crate::endpoint::{classify, div_table, mul_table, Class};
use crate::error::{Error, ErrorKind};
use crate::f64i::{bounds_error, valid_bounds};
use crate::{Enclosed, IntervalArith};
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Rational};

/// Smallest precision accepted (bits).
pub const MIN_PREC: u32 = 2;
/// Largest precision accepted (bits).
pub const MAX_PREC: u32 = 1 << 24;

/// A validated MPFR precision in bits (the context of [`MpInterval`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MpCtx(u32);

impl MpCtx {
    /// A precision of `bits` bits; errors outside [`MIN_PREC`]..=[`MAX_PREC`].
    pub fn new(bits: u32) -> Result<Self, Error> {
        if (MIN_PREC..=MAX_PREC).contains(&bits) {
            Ok(Self(bits))
        } else {
            Err(Error::new(
                ErrorKind::InvalidPrecision,
                format!("MPFR precision {bits} bits is outside {MIN_PREC}..={MAX_PREC}"),
            ))
        }
    }

    /// The precision in bits.
    pub fn bits(&self) -> u32 {
        self.0
    }
}

/// An interval with MPFR endpoints at a fixed precision.
#[derive(Clone, Debug)]
pub struct MpInterval {
    // Non-empty: lo ≤ hi, lo ≠ +∞, hi ≠ −∞. Empty: lo = +∞, hi = −∞.
    lo: Float,
    hi: Float,
    prec: u32,
}

#[inline]
fn sgn(x: &Float) -> i8 {
    if x.is_zero() {
        0
    } else if x.is_sign_negative() {
        -1
    } else {
        1
    }
}

impl MpInterval {
    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// The lower endpoint (exact; +∞ when empty).
    pub fn lo(&self) -> &Float {
        &self.lo
    }

    /// The upper endpoint (exact; −∞ when empty).
    pub fn hi(&self) -> &Float {
        &self.hi
    }

    /// This interval rounded outward to another precision.
    pub fn with_prec(&self, ctx: &MpCtx) -> Self {
        if self.is_empty() {
            return Self::empty(ctx);
        }
        let p = ctx.bits();
        Self {
            lo: Float::with_val_round(p, &self.lo, Round::Down).0,
            hi: Float::with_val_round(p, &self.hi, Round::Up).0,
            prec: p,
        }
    }

    fn raw(lo: Float, hi: Float, prec: u32) -> Self {
        Self { lo, hi, prec }
    }

    fn empty_p(prec: u32) -> Self {
        Self::raw(
            Float::with_val(prec, f64::INFINITY),
            Float::with_val(prec, f64::NEG_INFINITY),
            prec,
        )
    }

    fn class(&self) -> Class {
        classify(sgn(&self.lo), sgn(&self.hi))
    }
}

/// x·y rounded in direction `r` at precision `p`, with 0·∞ = 0.
#[inline]
fn mul_r(p: u32, x: &Float, y: &Float, r: Round) -> Float {
    if x.is_zero() || y.is_zero() {
        return Float::with_val(p, 0);
    }
    Float::with_val_round(p, x * y, r).0
}

#[inline]
fn div_r(p: u32, x: &Float, y: &Float, r: Round) -> Float {
    if x.is_zero() {
        return Float::with_val(p, 0);
    }
    Float::with_val_round(p, x / y, r).0
}

impl PartialEq for MpInterval {
    /// Set equality (precision is not compared).
    fn eq(&self, other: &Self) -> bool {
        (self.is_empty() && other.is_empty()) || (self.lo == other.lo && self.hi == other.hi)
    }
}

impl IntervalArith for MpInterval {
    type Ctx = MpCtx;

    fn kind_name(&self) -> String {
        format!("mpfr{}", self.prec)
    }

    fn ctx(&self) -> MpCtx {
        MpCtx(self.prec)
    }

    fn empty(ctx: &MpCtx) -> Self {
        Self::empty_p(ctx.bits())
    }

    fn entire(ctx: &MpCtx) -> Self {
        let p = ctx.bits();
        Self::raw(
            Float::with_val(p, f64::NEG_INFINITY),
            Float::with_val(p, f64::INFINITY),
            p,
        )
    }

    fn from_f64(ctx: &MpCtx, v: f64) -> Self {
        if !v.is_finite() {
            return Self::empty(ctx);
        }
        let p = ctx.bits();
        Self::raw(
            Float::with_val_round(p, v, Round::Down).0,
            Float::with_val_round(p, v, Round::Up).0,
            p,
        )
    }

    fn from_f64_bounds(ctx: &MpCtx, lo: f64, hi: f64) -> Result<Self, Error> {
        Self::from_rug_bounds(ctx, &Float::with_val(53, lo), &Float::with_val(53, hi))
    }

    fn from_rug_bounds(ctx: &MpCtx, lo: &Float, hi: &Float) -> Result<Self, Error> {
        if !valid_bounds(lo, hi) {
            return Err(bounds_error(lo, hi));
        }
        let p = ctx.bits();
        Ok(Self::raw(
            Float::with_val_round(p, lo, Round::Down).0,
            Float::with_val_round(p, hi, Round::Up).0,
            p,
        ))
    }

    fn from_rational(ctx: &MpCtx, q: &Rational) -> Enclosed<Self> {
        let p = ctx.bits();
        let (lo, ol) = Float::with_val_round(p, q, Round::Down);
        let (hi, oh) = Float::with_val_round(p, q, Round::Up);
        Enclosed {
            interval: Self::raw(lo, hi, p),
            exact: ol.is_eq() && oh.is_eq(),
        }
    }

    fn inf_rug(&self) -> Float {
        self.lo.clone()
    }

    fn sup_rug(&self) -> Float {
        self.hi.clone()
    }

    fn mid(&self) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        let p = self.prec;
        let m = match (self.lo.is_infinite(), self.hi.is_infinite()) {
            (false, false) => {
                // Correct rounding is monotone and lo, hi are representable at p, so the
                // rounded midpoint stays in [lo, hi].
                Float::with_val(p, &self.lo + &self.hi) / 2u32
            }
            (false, true) => {
                let big = Float::with_val_round(p, f64::MAX, Round::Down).0;
                if self.lo > big {
                    self.lo.clone()
                } else {
                    big
                }
            }
            (true, false) => {
                let small = Float::with_val_round(p, f64::MIN, Round::Up).0;
                if self.hi < small {
                    self.hi.clone()
                } else {
                    small
                }
            }
            (true, true) => Float::with_val(p, 0),
        };
        Self::raw(m.clone(), m, p)
    }

    fn summary_prec(&self) -> u32 {
        self.prec
    }

    fn is_empty(&self) -> bool {
        // Canonical empty: lo = +∞ (never the lower end of a non-empty interval).
        self.lo.is_nan() || (self.lo.is_infinite() && self.lo.is_sign_positive())
    }

    fn subset(&self, other: &Self) -> bool {
        self.is_empty() || (!other.is_empty() && other.lo <= self.lo && self.hi <= other.hi)
    }

    fn subset_of_interior(&self, other: &Self) -> bool {
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let lo_ok = other.lo < self.lo || (other.lo.is_infinite() && self.lo.is_infinite());
        let hi_ok = self.hi < other.hi || (other.hi.is_infinite() && self.hi.is_infinite());
        lo_ok && hi_ok
    }

    fn certainly_lt(&self, other: &Self) -> bool {
        !self.is_empty() && !other.is_empty() && self.hi < other.lo
    }

    fn certainly_le(&self, other: &Self) -> bool {
        !self.is_empty() && !other.is_empty() && self.hi <= other.lo
    }

    fn disjoint(&self, other: &Self) -> bool {
        self.is_empty() || other.is_empty() || self.hi < other.lo || other.hi < self.lo
    }

    fn hull(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() {
            return other.with_prec(&MpCtx(p));
        }
        if other.is_empty() {
            return self.with_prec(&MpCtx(p));
        }
        let lo = if other.lo < self.lo {
            &other.lo
        } else {
            &self.lo
        };
        let hi = if other.hi > self.hi {
            &other.hi
        } else {
            &self.hi
        };
        Self::raw(
            Float::with_val_round(p, lo, Round::Down).0,
            Float::with_val_round(p, hi, Round::Up).0,
            p,
        )
    }

    fn intersection(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.disjoint(other) {
            return Self::empty_p(p);
        }
        let lo = if other.lo > self.lo {
            &other.lo
        } else {
            &self.lo
        };
        let hi = if other.hi < self.hi {
            &other.hi
        } else {
            &self.hi
        };
        Self::raw(
            Float::with_val_round(p, lo, Round::Down).0,
            Float::with_val_round(p, hi, Round::Up).0,
            p,
        )
    }

    fn neg(&self) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        Self::raw(-self.hi.clone(), -self.lo.clone(), self.prec)
    }

    fn add(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        // lo + lo never meets +∞ and hi + hi never meets −∞, so no ∞ − ∞.
        Self::raw(
            Float::with_val_round(p, &self.lo + &other.lo, Round::Down).0,
            Float::with_val_round(p, &self.hi + &other.hi, Round::Up).0,
            p,
        )
    }

    fn sub(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        Self::raw(
            Float::with_val_round(p, &self.lo - &other.hi, Round::Down).0,
            Float::with_val_round(p, &self.hi - &other.lo, Round::Up).0,
            p,
        )
    }

    fn mul(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        let (lo, hi) = mul_table(
            (&self.lo, &self.hi),
            (&other.lo, &other.hi),
            self.class(),
            other.class(),
            |x, y| mul_r(p, x, y, Round::Down),
            |x, y| mul_r(p, x, y, Round::Up),
            |x, y| x < y,
        );
        Self::raw(lo, hi, p)
    }

    fn sqr(&self) -> Self {
        let p = self.prec;
        if self.is_empty() {
            return self.clone();
        }
        let sq = |x: &Float, r| Float::with_val_round(p, x.square_ref(), r).0;
        match self.class() {
            Class::P => Self::raw(sq(&self.lo, Round::Down), sq(&self.hi, Round::Up), p),
            Class::N => Self::raw(sq(&self.hi, Round::Down), sq(&self.lo, Round::Up), p),
            Class::M => {
                let m = if self.lo.cmp_abs(&self.hi) == Some(core::cmp::Ordering::Greater) {
                    &self.lo
                } else {
                    &self.hi
                };
                Self::raw(Float::with_val(p, 0), sq(m, Round::Up), p)
            }
        }
    }

    fn div(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        let pos = other.lo > 0;
        let neg = other.hi < 0;
        if !pos && !neg {
            // The divisor contains zero.
            if other.lo.is_zero() && other.hi.is_zero() {
                return Self::empty_p(p);
            }
            if self.lo.is_zero() && self.hi.is_zero() {
                return Self::raw(Float::with_val(p, 0), Float::with_val(p, 0), p);
            }
            return Self::entire(&MpCtx(p));
        }
        let (lo, hi) = div_table(
            (&self.lo, &self.hi),
            (&other.lo, &other.hi),
            self.class(),
            pos,
            |x, y| div_r(p, x, y, Round::Down),
            |x, y| div_r(p, x, y, Round::Up),
        );
        Self::raw(lo, hi, p)
    }

    fn sqrt(&self) -> Self {
        let p = self.prec;
        if self.is_empty() || self.hi < 0 {
            return Self::empty_p(p);
        }
        let lo = if self.lo < 0 {
            Float::with_val(p, 0)
        } else {
            Float::with_val_round(p, self.lo.sqrt_ref(), Round::Down).0
        };
        let hi = Float::with_val_round(p, self.hi.sqrt_ref(), Round::Up).0;
        Self::raw(lo, hi, p)
    }

    fn powi(&self, n: i32) -> Self {
        let p = self.prec;
        if self.is_empty() {
            return self.clone();
        }
        if n == 0 {
            return Self::from_f64(&MpCtx(p), 1.0);
        }
        if n == i32::MIN {
            // x^(−2^31) = (x^(−2^30))², and −i32::MIN does not fit an i32.
            return self.powi(-(1 << 30)).sqr();
        }
        if n < 0 {
            let pos = self.powi(-n);
            return Self::from_f64(&MpCtx(p), 1.0).div(&pos);
        }
        let pw = |x: &Float, r| Float::with_val_round(p, x.pow(n), r).0;
        if n % 2 == 1 {
            // Odd powers are increasing.
            return Self::raw(pw(&self.lo, Round::Down), pw(&self.hi, Round::Up), p);
        }
        match self.class() {
            Class::P => Self::raw(pw(&self.lo, Round::Down), pw(&self.hi, Round::Up), p),
            Class::N => Self::raw(pw(&self.hi, Round::Down), pw(&self.lo, Round::Up), p),
            Class::M => {
                let m = if self.lo.cmp_abs(&self.hi) == Some(core::cmp::Ordering::Greater) {
                    &self.lo
                } else {
                    &self.hi
                };
                Self::raw(Float::with_val(p, 0), pw(m, Round::Up), p)
            }
        }
    }
}
