//! `LimbInterval`: endpoints in the fixed-limb floats of `expanse_core::limb` (precision 2 to
//! 4096 bits, no heap), lower endpoints rounded down and upper endpoints rounded up by the
//! limb arithmetic's directed modes, which round exactly as MPFR does.
//!
//! It mirrors [`crate::MpInterval`] operation by operation (the same endpoint tables, the same
//! conventions for unbounded and empty intervals, binary operations at the larger precision),
//! so for the operations MPFR rounds correctly (+, −, ·, /, √, x²) the two kinds give the same
//! endpoints bit for bit; `powi` multiplies by repeated squaring with each product rounded
//! outward (a valid, slightly wider enclosure than MPFR's correctly rounded power). It is
//! the CPU reference of the GPU interval work: the same arithmetic runs in the CUDA port. The
//! elementary functions ([`crate::IntervalElementary`]) go through MPFR intervals and back,
//! outward.

use crate::endpoint::{classify, div_table, mul_table, Class};
use crate::error::{Error, ErrorKind};
use crate::f64i::{bounds_error, valid_bounds};
use crate::{Enclosed, IntervalArith, IntervalElementary, MpCtx, MpInterval};
use expanse_core::limb::{AnyLimbFloat as F, Round, MAX_PREC};
use expanse_core::MapScalar;
use rug::{Float, Rational};

/// Smallest precision accepted (bits).
pub const MIN_PREC: u32 = 2;

/// A validated limb precision in bits, 2..=4096 (the context of [`LimbInterval`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LimbCtx(u32);

impl LimbCtx {
    /// A precision of `bits` bits; errors outside 2..=4096.
    pub fn new(bits: u32) -> Result<Self, Error> {
        if (MIN_PREC..=MAX_PREC).contains(&bits) {
            Ok(Self(bits))
        } else {
            Err(Error::new(
                ErrorKind::InvalidPrecision,
                format!("limb precision {bits} bits is outside {MIN_PREC}..={MAX_PREC}"),
            ))
        }
    }

    /// The precision in bits.
    pub fn bits(&self) -> u32 {
        self.0
    }
}

/// An interval with fixed-limb endpoints at a fixed precision.
#[derive(Clone, Copy, Debug)]
pub struct LimbInterval {
    // Non-empty: lo ≤ hi, lo ≠ +∞, hi ≠ −∞. Empty: lo = +∞, hi = −∞.
    lo: F,
    hi: F,
    prec: u32,
}

#[inline]
fn sgn(x: &F) -> i8 {
    if x.is_zero() {
        0
    } else if x.is_sign_negative() {
        -1
    } else {
        1
    }
}

#[inline]
fn zero(p: u32) -> F {
    F::zero(p, false)
}

/// x·y rounded in direction `r` at precision `p`, with 0·∞ = 0.
#[inline]
fn mul_r(p: u32, x: &F, y: &F, r: Round) -> F {
    if x.is_zero() || y.is_zero() {
        return zero(p);
    }
    F::mul_prec(x, y, p, r).0
}

#[inline]
fn div_r(p: u32, x: &F, y: &F, r: Round) -> F {
    if x.is_zero() {
        return zero(p);
    }
    F::div_prec(x, y, p, r).0
}

#[inline]
fn lt(x: &F, y: &F) -> bool {
    x < y
}

/// |x|^n (x ≥ 0, n ≥ 1) by repeated squaring, every product rounded in direction `r`: a bound
/// in that direction (all quantities are non-negative, so rounding each step one way moves
/// the result that way).
fn pow_mag(p: u32, x: &F, n: u32, r: Round) -> F {
    let mut result = F::from_f64(1.0, p, Round::Nearest).0;
    let mut base = *x;
    let mut n = n;
    loop {
        if n & 1 == 1 {
            result = mul_r(p, &result, &base, r);
        }
        n >>= 1;
        if n == 0 {
            return result;
        }
        base = mul_r(p, &base, &base, r);
    }
}

/// x^n for odd n ≥ 1 rounded in direction `r` (Down or Up).
fn pow_odd(p: u32, x: &F, n: u32, r: Round) -> F {
    if x.is_sign_negative() && !x.is_zero() {
        let opp = if r == Round::Down {
            Round::Up
        } else {
            Round::Down
        };
        pow_mag(p, &x.abs(), n, opp).neg()
    } else {
        pow_mag(p, x, n, r)
    }
}

impl LimbInterval {
    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// The lower endpoint (exact; +∞ when empty).
    pub fn lo(&self) -> &F {
        &self.lo
    }

    /// The upper endpoint (exact; −∞ when empty).
    pub fn hi(&self) -> &F {
        &self.hi
    }

    /// [lo, hi] from limb floats, rounded outward to `ctx`'s precision; errors for invalid
    /// bounds (as [`IntervalArith::from_rug_bounds`]).
    pub fn from_limb_bounds(ctx: &LimbCtx, lo: &F, hi: &F) -> Result<Self, Error> {
        let lo_plus_inf = lo.is_infinite() && !lo.is_sign_negative();
        let hi_minus_inf = hi.is_infinite() && hi.is_sign_negative();
        let valid = !lo.is_nan() && !hi.is_nan() && lo <= hi && !lo_plus_inf && !hi_minus_inf;
        if !valid {
            return Err(bounds_error(&lo.to_rug(), &hi.to_rug()));
        }
        let p = ctx.bits();
        Ok(Self::raw(
            lo.with_prec_round(p, Round::Down).0,
            hi.with_prec_round(p, Round::Up).0,
            p,
        ))
    }

    /// This interval rounded outward to another precision.
    pub fn with_prec(&self, ctx: &LimbCtx) -> Self {
        if self.is_empty() {
            return Self::empty(ctx);
        }
        let p = ctx.bits();
        Self::raw(
            self.lo.with_prec_round(p, Round::Down).0,
            self.hi.with_prec_round(p, Round::Up).0,
            p,
        )
    }

    fn raw(lo: F, hi: F, prec: u32) -> Self {
        Self { lo, hi, prec }
    }

    fn empty_p(prec: u32) -> Self {
        Self::raw(F::infinity(prec, false), F::infinity(prec, true), prec)
    }

    fn entire_p(prec: u32) -> Self {
        Self::raw(F::infinity(prec, true), F::infinity(prec, false), prec)
    }

    fn class(&self) -> Class {
        classify(sgn(&self.lo), sgn(&self.hi))
    }

    /// The same interval with MPFR endpoints (exact).
    pub fn to_mp(&self) -> MpInterval {
        let ctx = MpCtx::new(self.prec).expect("limb precisions are MPFR precisions");
        if self.is_empty() {
            return MpInterval::empty(&ctx);
        }
        MpInterval::from_rug_bounds(&ctx, &self.lo.to_rug(), &self.hi.to_rug())
            .expect("a non-empty interval has valid bounds")
    }

    /// An MPFR interval rounded outward to this kind at `ctx`'s precision.
    pub fn from_mp(ctx: &LimbCtx, m: &MpInterval) -> Self {
        if m.is_empty() {
            return Self::empty(ctx);
        }
        Self::from_rug_bounds(ctx, m.lo(), m.hi()).unwrap_or_else(|_| Self::entire(ctx))
    }
}

impl PartialEq for LimbInterval {
    /// Set equality (precision is not compared).
    fn eq(&self, other: &Self) -> bool {
        (self.is_empty() && other.is_empty()) || (self.lo == other.lo && self.hi == other.hi)
    }
}

impl IntervalArith for LimbInterval {
    type Ctx = LimbCtx;

    fn kind_name(&self) -> String {
        format!("limb{}", self.prec)
    }

    fn ctx(&self) -> LimbCtx {
        LimbCtx(self.prec)
    }

    fn empty(ctx: &LimbCtx) -> Self {
        Self::empty_p(ctx.bits())
    }

    fn entire(ctx: &LimbCtx) -> Self {
        Self::entire_p(ctx.bits())
    }

    fn from_f64(ctx: &LimbCtx, v: f64) -> Self {
        if !v.is_finite() {
            return Self::empty(ctx);
        }
        let p = ctx.bits();
        Self::raw(
            F::from_f64(v, p, Round::Down).0,
            F::from_f64(v, p, Round::Up).0,
            p,
        )
    }

    fn from_f64_bounds(ctx: &LimbCtx, lo: f64, hi: f64) -> Result<Self, Error> {
        Self::from_rug_bounds(ctx, &Float::with_val(53, lo), &Float::with_val(53, hi))
    }

    fn from_rug_bounds(ctx: &LimbCtx, lo: &Float, hi: &Float) -> Result<Self, Error> {
        if !valid_bounds(lo, hi) {
            return Err(bounds_error(lo, hi));
        }
        let p = ctx.bits();
        Ok(Self::raw(
            F::from_rug(lo, p, Round::Down).0,
            F::from_rug(hi, p, Round::Up).0,
            p,
        ))
    }

    fn from_rational(ctx: &LimbCtx, q: &Rational) -> Enclosed<Self> {
        // MPFR rounds the rational once in each direction; the results are exact at p.
        let p = ctx.bits();
        let (lo, ol) = Float::with_val_round(p, q, rug::float::Round::Down);
        let (hi, oh) = Float::with_val_round(p, q, rug::float::Round::Up);
        Enclosed {
            interval: Self::raw(
                F::from_rug(&lo, p, Round::Down).0,
                F::from_rug(&hi, p, Round::Up).0,
                p,
            ),
            exact: ol.is_eq() && oh.is_eq(),
        }
    }

    fn inf_rug(&self) -> Float {
        self.lo.to_rug()
    }

    fn sup_rug(&self) -> Float {
        self.hi.to_rug()
    }

    fn mid(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let p = self.prec;
        let m = match (self.lo.is_infinite(), self.hi.is_infinite()) {
            (false, false) => {
                // Rounding to nearest is monotone and lo, hi are representable, so the
                // rounded midpoint stays in [lo, hi] (halving is exact but for underflow).
                let s = F::add_prec(&self.lo, &self.hi, p, Round::Nearest).0;
                let half = F::from_f64(0.5, p, Round::Nearest).0;
                F::mul_prec(&s, &half, p, Round::Nearest).0
            }
            (false, true) => {
                let big = F::from_f64(f64::MAX, p, Round::Down).0;
                if self.lo > big {
                    self.lo
                } else {
                    big
                }
            }
            (true, false) => {
                let small = F::from_f64(f64::MIN, p, Round::Up).0;
                if self.hi < small {
                    self.hi
                } else {
                    small
                }
            }
            (true, true) => zero(p),
        };
        Self::raw(m, m, p)
    }

    fn summary_prec(&self) -> u32 {
        self.prec
    }

    fn is_empty(&self) -> bool {
        self.lo.is_nan() || (self.lo.is_infinite() && !self.lo.is_sign_negative())
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
            return other.with_prec(&LimbCtx(p));
        }
        if other.is_empty() {
            return self.with_prec(&LimbCtx(p));
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
            lo.with_prec_round(p, Round::Down).0,
            hi.with_prec_round(p, Round::Up).0,
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
            lo.with_prec_round(p, Round::Down).0,
            hi.with_prec_round(p, Round::Up).0,
            p,
        )
    }

    fn neg(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        Self::raw(self.hi.neg(), self.lo.neg(), self.prec)
    }

    fn add(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        // lo + lo never meets +∞ and hi + hi never meets −∞, so no ∞ − ∞.
        Self::raw(
            F::add_prec(&self.lo, &other.lo, p, Round::Down).0,
            F::add_prec(&self.hi, &other.hi, p, Round::Up).0,
            p,
        )
    }

    fn sub(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        Self::raw(
            F::sub_prec(&self.lo, &other.hi, p, Round::Down).0,
            F::sub_prec(&self.hi, &other.lo, p, Round::Up).0,
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
            lt,
        );
        Self::raw(lo, hi, p)
    }

    fn sqr(&self) -> Self {
        let p = self.prec;
        if self.is_empty() {
            return *self;
        }
        let sq = |x: &F, r| F::mul_prec(x, x, p, r).0;
        match self.class() {
            Class::P => Self::raw(sq(&self.lo, Round::Down), sq(&self.hi, Round::Up), p),
            Class::N => Self::raw(sq(&self.hi, Round::Down), sq(&self.lo, Round::Up), p),
            Class::M => {
                let m = if self.lo.abs() > self.hi.abs() {
                    &self.lo
                } else {
                    &self.hi
                };
                Self::raw(zero(p), sq(m, Round::Up), p)
            }
        }
    }

    fn div(&self, other: &Self) -> Self {
        let p = self.prec.max(other.prec);
        if self.is_empty() || other.is_empty() {
            return Self::empty_p(p);
        }
        let z = zero(p);
        let pos = other.lo > z;
        let neg = other.hi < z;
        if !pos && !neg {
            // The divisor contains zero.
            if other.lo.is_zero() && other.hi.is_zero() {
                return Self::empty_p(p);
            }
            if self.lo.is_zero() && self.hi.is_zero() {
                return Self::raw(zero(p), zero(p), p);
            }
            return Self::entire_p(p);
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
        let z = zero(p);
        if self.is_empty() || self.hi < z {
            return Self::empty_p(p);
        }
        let lo = if self.lo < z {
            z
        } else {
            // √(−0) = −0 in MPFR; the interval's lower end is +0 either way.
            let r = F::sqrt_prec(&self.lo, p, Round::Down).0;
            if r.is_zero() {
                z
            } else {
                r
            }
        };
        let hi = F::sqrt_prec(&self.hi, p, Round::Up).0;
        Self::raw(lo, hi, p)
    }

    fn powi(&self, n: i32) -> Self {
        let p = self.prec;
        if self.is_empty() {
            return *self;
        }
        if n == 0 {
            return Self::from_f64(&LimbCtx(p), 1.0);
        }
        if n == i32::MIN {
            return IntervalArith::sqr(&self.powi(-(1 << 30)));
        }
        if n < 0 {
            let pos = self.powi(-n);
            return Self::from_f64(&LimbCtx(p), 1.0).div(&pos);
        }
        let n = n as u32;
        if n % 2 == 1 {
            // Odd powers are increasing.
            return Self::raw(
                pow_odd(p, &self.lo, n, Round::Down),
                pow_odd(p, &self.hi, n, Round::Up),
                p,
            );
        }
        let up = |x: &F| pow_mag(p, &x.abs(), n, Round::Up);
        let down = |x: &F| pow_mag(p, &x.abs(), n, Round::Down);
        match self.class() {
            Class::P => Self::raw(down(&self.lo), up(&self.hi), p),
            Class::N => Self::raw(down(&self.hi), up(&self.lo), p),
            Class::M => {
                let m = if self.lo.abs() > self.hi.abs() {
                    &self.lo
                } else {
                    &self.hi
                };
                Self::raw(zero(p), up(m), p)
            }
        }
    }
}

/// The elementary functions through MPFR intervals at the same precision and back, outward.
impl IntervalElementary for LimbInterval {
    fn exp(&self) -> Self {
        Self::from_mp(&self.ctx(), &self.to_mp().exp())
    }
    fn ln(&self) -> Self {
        Self::from_mp(&self.ctx(), &self.to_mp().ln())
    }
    fn sin(&self) -> Self {
        Self::from_mp(&self.ctx(), &self.to_mp().sin())
    }
    fn cos(&self) -> Self {
        Self::from_mp(&self.ctx(), &self.to_mp().cos())
    }
    fn atan(&self) -> Self {
        Self::from_mp(&self.ctx(), &self.to_mp().atan())
    }
    fn pow(&self, y: &Self) -> Self {
        let p = self.prec.max(y.prec);
        Self::from_mp(&LimbCtx(p), &self.to_mp().pow(&y.to_mp()))
    }
}

/// Interval arithmetic for the generic map code (`expanse_core::henon_step`): each operation
/// encloses the exact result.
impl MapScalar<LimbInterval> for LimbInterval {
    #[inline]
    fn add(&self, o: &Self) -> Self {
        IntervalArith::add(self, o)
    }
    #[inline]
    fn sub(&self, o: &Self) -> Self {
        IntervalArith::sub(self, o)
    }
    #[inline]
    fn mul(&self, o: &Self) -> Self {
        IntervalArith::mul(self, o)
    }
    #[inline]
    fn sqr(&self) -> Self {
        IntervalArith::sqr(self)
    }
    #[inline]
    fn mul_param(&self, p: &Self) -> Self {
        IntervalArith::mul(self, p)
    }
    #[inline]
    fn add_one(&self) -> Self {
        IntervalArith::add_f64(self, 1.0)
    }
}
