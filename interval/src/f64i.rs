//! `F64Interval`: f64 endpoints, a thin wrapper over inari 2.0 (`inari::Interval`).
//!
//! inari implements IEEE 1788 set-based interval arithmetic with correctly outward-rounded
//! SIMD primitives (AVX2/FMA; `.cargo/config.toml` sets the target CPU). Nothing inari does is
//! reimplemented here: this type only adapts it to [`IntervalArith`], and adds what inari
//! lacks (decimal input with an exactness flag, exact endpoints as `rug::Float`).

use crate::error::{Error, ErrorKind};
use crate::{Enclosed, IntervalArith};
use inari::Interval;
use rug::float::Round;
use rug::{Float, Rational};

/// An interval with f64 endpoints (inari underneath).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct F64Interval(pub Interval);

impl F64Interval {
    /// [lo, hi] from f64 bounds (IEEE 1788 validity rules), without a context.
    pub fn new(lo: f64, hi: f64) -> Result<Self, Error> {
        Interval::try_from((lo, hi)).map(F64Interval).map_err(|_| {
            Error::new(
                ErrorKind::InvalidBounds,
                format!("[{lo:e}, {hi:e}] is not an interval (need lo ≤ hi, lo < +∞, hi > −∞)"),
            )
        })
    }

    /// The point interval [v, v]; empty for a non-finite `v`.
    pub fn point(v: f64) -> Self {
        Self::new(v, v)
            .ok()
            .filter(|_| v.is_finite())
            .unwrap_or(Self(Interval::EMPTY))
    }

    /// The wrapped inari interval.
    pub fn inner(&self) -> Interval {
        self.0
    }

    /// Lower endpoint as f64 (−∞ when unbounded below, +∞ when empty).
    pub fn inf(&self) -> f64 {
        self.0.inf()
    }

    /// Upper endpoint as f64 (+∞ when unbounded above, −∞ when empty).
    pub fn sup(&self) -> f64 {
        self.0.sup()
    }
}

/// Lower bound of a rational rounded down to f64 (−∞ on negative overflow), and whether it
/// was exact.
pub(crate) fn rational_down(q: &Rational) -> (f64, bool) {
    let (f, _) = Float::with_val_round(53, q, Round::Down);
    let v = f.to_f64_round(Round::Down);
    let exact = v.is_finite() && Rational::from_f64(v).is_some_and(|r| r == *q);
    (v, exact)
}

/// Upper bound of a rational rounded up to f64, and whether it was exact.
pub(crate) fn rational_up(q: &Rational) -> (f64, bool) {
    let (f, _) = Float::with_val_round(53, q, Round::Up);
    let v = f.to_f64_round(Round::Up);
    let exact = v.is_finite() && Rational::from_f64(v).is_some_and(|r| r == *q);
    (v, exact)
}

pub(crate) fn bounds_error(lo: &Float, hi: &Float) -> Error {
    Error::new(
        ErrorKind::InvalidBounds,
        format!("[{lo}, {hi}] is not an interval (need lo ≤ hi, lo < +∞, hi > −∞, no NaN)"),
    )
}

/// Checks IEEE 1788 validity of bounds given as Floats.
pub(crate) fn valid_bounds(lo: &Float, hi: &Float) -> bool {
    let lo_plus_inf = lo.is_infinite() && lo.is_sign_positive();
    let hi_minus_inf = hi.is_infinite() && hi.is_sign_negative();
    !lo.is_nan() && !hi.is_nan() && lo <= hi && !lo_plus_inf && !hi_minus_inf
}

impl IntervalArith for F64Interval {
    type Ctx = ();

    fn kind_name(&self) -> String {
        "f64".to_string()
    }

    fn ctx(&self) -> Self::Ctx {}

    fn empty(_: &()) -> Self {
        Self(Interval::EMPTY)
    }

    fn entire(_: &()) -> Self {
        Self(Interval::ENTIRE)
    }

    fn from_f64(_: &(), v: f64) -> Self {
        Self::point(v)
    }

    fn from_f64_bounds(_: &(), lo: f64, hi: f64) -> Result<Self, Error> {
        Self::new(lo, hi)
    }

    fn from_rug_bounds(_: &(), lo: &Float, hi: &Float) -> Result<Self, Error> {
        if !valid_bounds(lo, hi) {
            return Err(bounds_error(lo, hi));
        }
        let l = lo.to_f64_round(Round::Down);
        let h = hi.to_f64_round(Round::Up);
        // Rounding outward keeps l ≤ h; an overflowing finite bound becomes ±MAX or ±∞ on
        // the correct side, which inari accepts.
        Self::new(l, h).map_err(|_| bounds_error(lo, hi))
    }

    fn from_rational(_: &(), q: &Rational) -> Enclosed<Self> {
        let (l, el) = rational_down(q);
        let (h, eh) = rational_up(q);
        Enclosed {
            interval: Self::new(l, h).unwrap_or(Self(Interval::ENTIRE)),
            exact: el && eh,
        }
    }

    fn inf_rug(&self) -> Float {
        Float::with_val(53, self.0.inf())
    }

    fn sup_rug(&self) -> Float {
        Float::with_val(53, self.0.sup())
    }

    fn inf_f64_down(&self) -> f64 {
        self.0.inf()
    }

    fn sup_f64_up(&self) -> f64 {
        self.0.sup()
    }

    fn mid(&self) -> Self {
        if self.0.is_empty() {
            return *self;
        }
        Self::point(self.0.mid())
    }

    fn mid_rug(&self) -> Float {
        Float::with_val(53, self.0.mid())
    }

    fn rad(&self) -> Float {
        Float::with_val(53, self.0.rad())
    }

    fn width(&self) -> Float {
        Float::with_val(53, self.0.wid())
    }

    fn mag(&self) -> Float {
        Float::with_val(53, self.0.mag())
    }

    fn mig(&self) -> Float {
        Float::with_val(53, self.0.mig())
    }

    fn width_f64_up(&self) -> f64 {
        self.0.wid()
    }

    fn mag_f64_up(&self) -> f64 {
        self.0.mag()
    }

    fn mig_f64_down(&self) -> f64 {
        self.0.mig()
    }

    fn summary_prec(&self) -> u32 {
        53
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn is_entire(&self) -> bool {
        self.0.is_entire()
    }

    fn is_bounded(&self) -> bool {
        self.0.is_common_interval()
    }

    fn is_point(&self) -> bool {
        self.0.is_singleton()
    }

    fn contains_f64(&self, v: f64) -> bool {
        self.0.contains(v)
    }

    fn subset(&self, other: &Self) -> bool {
        self.0.subset(other.0)
    }

    fn subset_of_interior(&self, other: &Self) -> bool {
        self.0.interior(other.0)
    }

    fn certainly_lt(&self, other: &Self) -> bool {
        !self.0.is_empty() && !other.0.is_empty() && self.0.sup() < other.0.inf()
    }

    fn certainly_le(&self, other: &Self) -> bool {
        !self.0.is_empty() && !other.0.is_empty() && self.0.sup() <= other.0.inf()
    }

    fn disjoint(&self, other: &Self) -> bool {
        self.0.disjoint(other.0)
    }

    fn hull(&self, other: &Self) -> Self {
        Self(self.0.convex_hull(other.0))
    }

    fn intersection(&self, other: &Self) -> Self {
        Self(self.0.intersection(other.0))
    }

    fn neg(&self) -> Self {
        Self(-self.0)
    }

    fn add(&self, other: &Self) -> Self {
        Self(self.0 + other.0)
    }

    fn sub(&self, other: &Self) -> Self {
        Self(self.0 - other.0)
    }

    fn mul(&self, other: &Self) -> Self {
        Self(self.0 * other.0)
    }

    fn sqr(&self) -> Self {
        Self(self.0.sqr())
    }

    fn div(&self, other: &Self) -> Self {
        Self(self.0 / other.0)
    }

    fn recip(&self) -> Self {
        Self(self.0.recip())
    }

    fn sqrt(&self) -> Self {
        Self(self.0.sqrt())
    }

    fn powi(&self, n: i32) -> Self {
        Self(self.0.powi(n))
    }
}
