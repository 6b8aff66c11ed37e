//! # expanse-interval: validated interval arithmetic at three precisions
//!
//! One interface, [`IntervalArith`], with three implementations, so a proof can run in f64,
//! in expansion precision, or in MPFR at any precision, and move from one to the next when it
//! needs more bits:
//!
//! | type | endpoints | outward rounding | use it for |
//! | --- | --- | --- | --- |
//! | [`F64Interval`] | `f64` | inari (IEEE 1788, SIMD) | periods up to a few dozen; fast |
//! | [`ExpInterval<N>`] | `Expansion<f64, N>` | core's proven error bounds, then a widening that covers its own rounding | up to ~400 bits, no allocation |
//! | [`MpInterval`] | `rug::Float` | MPFR directed rounding | any precision; the cross-check |
//!
//! The contract of every operation is *containment*: the result contains the exact result for
//! every point of the inputs (MATH.md §2). Tightness is a secondary goal, tested separately.
//! No operation touches a global rounding mode.
//!
//! Design choices:
//! - Runtime precision (MPFR) means constructors need a context: the associated type
//!   [`IntervalArith::Ctx`] is `()` for the fixed-precision kinds and [`MpCtx`] (a validated
//!   precision) for MPFR. Binary operations on two [`MpInterval`]s of different precision
//!   work at the larger one.
//! - Scalar summaries that must be exact or rounded in a known direction (`width`, `rad`,
//!   `mag`, `mig`, endpoints) are returned as `rug::Float`: exact endpoints for certificates,
//!   and no precision lost for any kind.
//! - The empty interval is representable in every kind; its endpoints read as `inf = +∞`,
//!   `sup = −∞` (as in inari).
//! - Division by an interval containing zero returns a documented enclosure (see
//!   [`IntervalArith::div`]) that may be unbounded, never a wrong finite interval;
//!   [`IntervalArith::checked_div`] returns an error instead.
//! - Decimal input ([`IntervalArith::from_decimal`]) is parsed exactly as a rational and
//!   enclosed outward; the result says whether it was exact (0.1 is not, 0.25 is).
//!
//! Small interval vectors and matrices (2×2 fixed, dynamic via nalgebra) are in [`matrix`];
//! the Hénon map and its Jacobian over every kind in [`henon`], through the same generic code
//! (`expanse_core::henon_step`) the core uses for points.
//!
//! Each kind also implements `expanse_core::MapScalar<Self>`. Its method names (`add`, `mul`,
//! …) are the same as this trait's, so code that imports both traits must call one of them in
//! the qualified form (`IntervalArith::add(&x, &y)`); [`henon_step_interval`] needs only
//! `IntervalArith`.
//!
//! ```
//! use expanse_interval::{IntervalArith, MpCtx, MpInterval, ExpInterval, F64Interval};
//! let a = F64Interval::from_decimal(&(), "1.399999486944").unwrap();
//! assert!(!a.exact); // not a binary number: a two-ulp enclosure
//! let x = ExpInterval::<4>::from_decimal(&(), "0.1").unwrap().interval;
//! let y = x.sqr().sub(&x); // encloses 0.01 − 0.1
//! assert!(y.contains_rational(&rug::Rational::from((-9, 100))));
//! let m: MpInterval = y.convert(&MpCtx::new(300).unwrap()); // outward, exact here
//! assert!(m.contains_rational(&rug::Rational::from((-9, 100))));
//! assert!(m.width() < 1e-60);
//! ```
#![deny(missing_docs)]

pub mod decimal;
pub mod elementary;
mod endpoint;
pub mod error;
pub mod exp;
pub mod f64i;
pub mod henon;
pub mod limb;
pub mod matrix;
pub mod mp;

pub use elementary::{trig_extrema, IntervalElementary};
pub use error::{Error, ErrorKind};
pub use exp::ExpInterval;
pub use f64i::F64Interval;
pub use henon::{henon_jacobian, henon_step_interval};
pub use matrix::{IMat2, IVec2};
pub use mp::{MpCtx, MpInterval};

use rug::float::Round;
use rug::{Float, Rational};

/// An enclosure built from input that need not be representable, with a flag saying whether
/// it is exact (a point interval holding exactly the given value, or exactly the given
/// bounds).
#[derive(Clone, Debug, PartialEq)]
pub struct Enclosed<I> {
    /// The enclosure (always contains the value given).
    pub interval: I,
    /// True when the interval's endpoints are exactly the given value(s).
    pub exact: bool,
}

/// The operations a proof needs, common to the three interval kinds.
///
/// Every arithmetic operation returns an interval containing the exact result for every
/// choice of points in its operands (containment); predicates named `certainly_*`,
/// `subset*` and `disjoint` hold only when true for every point. Operations with an empty
/// operand return the empty interval.
pub trait IntervalArith: Clone + core::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// What a constructor needs besides the values: `()` for fixed-precision kinds, the
    /// precision ([`MpCtx`]) for MPFR.
    type Ctx: Clone + core::fmt::Debug + PartialEq + Send + Sync;

    /// Short name of the kind for files and messages, e.g. `"f64"`, `"exp4"`, `"mpfr"`.
    fn kind_name(&self) -> String;

    /// The context this interval was built with.
    fn ctx(&self) -> Self::Ctx;

    // ----- construction -------------------------------------------------------------------

    /// The empty interval.
    fn empty(ctx: &Self::Ctx) -> Self;

    /// The whole real line (−∞, +∞).
    fn entire(ctx: &Self::Ctx) -> Self;

    /// The smallest interval of this kind containing `v` (a point interval when `v` is
    /// representable: always for F64 and Exp, for Mp when `v` fits the precision). A
    /// non-finite `v` gives the empty interval (±∞ and NaN are not real numbers).
    fn from_f64(ctx: &Self::Ctx, v: f64) -> Self;

    /// The interval [lo, hi] enclosed outward. Errors when lo > hi, either is NaN, lo = +∞
    /// or hi = −∞ (IEEE 1788 rules; infinite bounds otherwise allowed).
    fn from_f64_bounds(ctx: &Self::Ctx, lo: f64, hi: f64) -> Result<Self, Error>;

    /// The interval [lo, hi] enclosed outward (lo rounded down, hi up, to this kind). Same
    /// validity rules as [`Self::from_f64_bounds`].
    fn from_rug_bounds(ctx: &Self::Ctx, lo: &Float, hi: &Float) -> Result<Self, Error>;

    /// The smallest-ish interval of this kind containing the rational `q`, and whether it
    /// is exact (a point interval equal to q).
    fn from_rational(ctx: &Self::Ctx, q: &Rational) -> Enclosed<Self>;

    /// Encloses the value of a decimal string such as `1.399999486944`, `-2.5e-3` or `7`
    /// (parsed exactly as a rational, then rounded outward) and says whether the enclosure is
    /// exact. Errors name the input.
    fn from_decimal(ctx: &Self::Ctx, s: &str) -> Result<Enclosed<Self>, Error> {
        let q = decimal::parse_decimal(s)?;
        Ok(Self::from_rational(ctx, &q))
    }

    /// Encloses [lo, hi] given as two decimal strings; `exact` when both bounds are.
    fn from_decimal_bounds(ctx: &Self::Ctx, lo: &str, hi: &str) -> Result<Enclosed<Self>, Error> {
        let ql = decimal::parse_decimal(lo)?;
        let qh = decimal::parse_decimal(hi)?;
        if ql > qh {
            return Err(Error::new(
                ErrorKind::InvalidBounds,
                format!("lower bound {lo:?} exceeds upper bound {hi:?}"),
            ));
        }
        let a = Self::from_rational(ctx, &ql);
        let b = Self::from_rational(ctx, &qh);
        Ok(Enclosed {
            interval: a.interval.hull(&b.interval),
            exact: a.exact && b.exact,
        })
    }

    /// This interval converted outward to another kind (exact when the endpoints fit).
    fn convert<J: IntervalArith>(&self, ctx: &J::Ctx) -> J {
        if self.is_empty() {
            return J::empty(ctx);
        }
        J::from_rug_bounds(ctx, &self.inf_rug(), &self.sup_rug())
            .expect("endpoints of a non-empty interval are valid bounds")
    }

    // ----- endpoints and summaries --------------------------------------------------------

    /// The lower endpoint, exactly (−∞ when unbounded below; +∞ for the empty interval).
    fn inf_rug(&self) -> Float;

    /// The upper endpoint, exactly (+∞ when unbounded above; −∞ for the empty interval).
    fn sup_rug(&self) -> Float;

    /// The lower endpoint rounded down to f64 (+∞ for empty).
    fn inf_f64_down(&self) -> f64 {
        self.inf_rug().to_f64_round(Round::Down)
    }

    /// The upper endpoint rounded up to f64 (−∞ for empty).
    fn sup_f64_up(&self) -> f64 {
        self.sup_rug().to_f64_round(Round::Up)
    }

    /// A representable point inside the interval, near its midpoint, as a point interval
    /// (IEEE 1788 conventions for unbounded intervals: mid of (−∞, +∞) is 0, of [a, +∞) is
    /// f64::MAX — for MPFR rounded toward zero to the precision, or a itself when larger).
    /// Empty gives empty.
    fn mid(&self) -> Self;

    /// The exact value of [`Self::mid`] (NaN for empty).
    fn mid_rug(&self) -> Float {
        if self.is_empty() {
            return Float::with_val(53, f64::NAN);
        }
        self.mid().inf_rug()
    }

    /// An upper bound r on the radius about [`Self::mid`]: self ⊆ [m − r, m + r]. +∞ when
    /// unbounded, NaN for empty.
    fn rad(&self) -> Float {
        if self.is_empty() {
            return Float::with_val(53, f64::NAN);
        }
        let m = self.mid_rug();
        let p = self.summary_prec();
        let (a, _) = Float::with_val_round(p, &m - &self.inf_rug(), Round::Up);
        let (b, _) = Float::with_val_round(p, &self.sup_rug() - &m, Round::Up);
        if a > b {
            a
        } else {
            b
        }
    }

    /// An upper bound on the width sup − inf (exact when representable at the kind's
    /// summary precision). NaN for empty.
    fn width(&self) -> Float {
        if self.is_empty() {
            return Float::with_val(53, f64::NAN);
        }
        let p = self.summary_prec();
        Float::with_val_round(p, &self.sup_rug() - &self.inf_rug(), Round::Up).0
    }

    /// The magnitude max |x| over the interval, exactly. NaN for empty.
    fn mag(&self) -> Float {
        if self.is_empty() {
            return Float::with_val(53, f64::NAN);
        }
        let a = self.inf_rug().abs();
        let b = self.sup_rug().abs();
        if a > b {
            a
        } else {
            b
        }
    }

    /// The mignitude min |x| over the interval, exactly (0 when it contains 0). NaN for
    /// empty.
    fn mig(&self) -> Float {
        if self.is_empty() {
            return Float::with_val(53, f64::NAN);
        }
        let lo = self.inf_rug();
        let hi = self.sup_rug();
        if lo > 0 {
            lo
        } else if hi < 0 {
            hi.abs()
        } else {
            Float::with_val(53, 0)
        }
    }

    /// [`Self::width`] rounded up to f64.
    fn width_f64_up(&self) -> f64 {
        self.width().to_f64_round(Round::Up)
    }

    /// [`Self::mag`] rounded up to f64.
    fn mag_f64_up(&self) -> f64 {
        self.mag().to_f64_round(Round::Up)
    }

    /// [`Self::mig`] rounded down to f64.
    fn mig_f64_down(&self) -> f64 {
        self.mig().to_f64_round(Round::Down)
    }

    /// Precision (bits) used for `width` and `rad` results: 53 for F64, enough for the
    /// expansion for Exp, the interval's precision for Mp.
    fn summary_prec(&self) -> u32;

    // ----- classification and predicates --------------------------------------------------

    /// True for the empty interval.
    fn is_empty(&self) -> bool;

    /// True for (−∞, +∞).
    fn is_entire(&self) -> bool {
        !self.is_empty() && self.inf_rug().is_infinite() && self.sup_rug().is_infinite()
    }

    /// True when non-empty with both endpoints finite.
    fn is_bounded(&self) -> bool {
        !self.is_empty() && self.inf_rug().is_finite() && self.sup_rug().is_finite()
    }

    /// True when the interval is a single point.
    fn is_point(&self) -> bool {
        !self.is_empty() && self.inf_rug() == self.sup_rug()
    }

    /// True when the real number `v` lies in the interval (false for ±∞, NaN).
    fn contains_rug(&self, v: &Float) -> bool {
        !self.is_empty() && v.is_finite() && self.inf_rug() <= *v && *v <= self.sup_rug()
    }

    /// True when the rational `q` lies in the interval.
    fn contains_rational(&self, q: &Rational) -> bool {
        !self.is_empty() && self.inf_rug() <= *q && self.sup_rug() >= *q
    }

    /// True when the f64 `v` lies in the interval (false for ±∞, NaN).
    fn contains_f64(&self, v: f64) -> bool {
        self.contains_rug(&Float::with_val(53, v))
    }

    /// True when `other` ⊆ `self` (the empty set is a subset of everything).
    fn contains(&self, other: &Self) -> bool {
        other.subset(self)
    }

    /// True when `self` ⊆ `other`.
    fn subset(&self, other: &Self) -> bool;

    /// True when `self` lies in the interior of `other` (both endpoints strictly inside,
    /// except that an infinite endpoint of `other` counts as open). Empty ⊂ anything.
    fn subset_of_interior(&self, other: &Self) -> bool;

    /// True when every point of `self` is < every point of `other` (false if either is
    /// empty).
    fn certainly_lt(&self, other: &Self) -> bool;

    /// True when every point of `self` is ≤ every point of `other` (false if either is
    /// empty).
    fn certainly_le(&self, other: &Self) -> bool;

    /// True when every point of `self` is > every point of `other`.
    fn certainly_gt(&self, other: &Self) -> bool {
        other.certainly_lt(self)
    }

    /// True when every point of `self` is ≥ every point of `other`.
    fn certainly_ge(&self, other: &Self) -> bool {
        other.certainly_le(self)
    }

    /// True when the intervals have no point in common (true if either is empty).
    fn disjoint(&self, other: &Self) -> bool;

    // ----- set operations -----------------------------------------------------------------

    /// The convex hull of the union.
    fn hull(&self, other: &Self) -> Self;

    /// The intersection (possibly empty).
    fn intersection(&self, other: &Self) -> Self;

    // ----- arithmetic ---------------------------------------------------------------------

    /// −self (exact).
    fn neg(&self) -> Self;

    /// self + other.
    fn add(&self, other: &Self) -> Self;

    /// self − other.
    fn sub(&self, other: &Self) -> Self;

    /// self · other.
    fn mul(&self, other: &Self) -> Self;

    /// self² (tighter than self · self when the interval straddles zero: the result is ≥ 0).
    fn sqr(&self) -> Self;

    /// self / other, with IEEE 1788 set semantics: when `other` contains zero the result
    /// encloses { x / y : y ∈ other, y ≠ 0 }, which is unbounded (or empty when `other` is
    /// [0, 0]); the kinds may return a superset such as (−∞, +∞), never a wrong finite
    /// interval. Use [`Self::checked_div`] to get an error instead.
    fn div(&self, other: &Self) -> Self;

    /// self / other, or an error of kind [`ErrorKind::DivisionByZero`] when `other` contains
    /// zero.
    fn checked_div(&self, other: &Self) -> Result<Self, Error> {
        if other.contains_f64(0.0) {
            return Err(Error::new(
                ErrorKind::DivisionByZero,
                "divisor interval contains zero".to_string(),
            ));
        }
        Ok(self.div(other))
    }

    /// 1 / self (same conventions as [`Self::div`]).
    fn recip(&self) -> Self {
        Self::from_f64(&self.ctx(), 1.0).div(self)
    }

    /// √x over the part of the interval where x ≥ 0 (empty when the interval is negative).
    fn sqrt(&self) -> Self;

    /// self^n for an integer n (n = 0 gives [1, 1] for any non-empty interval; negative n is
    /// 1 / self^|n| with the conventions of [`Self::div`]).
    fn powi(&self, n: i32) -> Self;

    /// |x| over the interval: self when ≥ 0, −self when ≤ 0, else [0, mag].
    fn abs(&self) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        let ctx = self.ctx();
        let zero = Self::from_f64(&ctx, 0.0);
        if self.certainly_ge(&zero) {
            return self.clone();
        }
        if self.certainly_le(&zero) {
            return self.neg();
        }
        let half_line =
            Self::from_f64_bounds(&ctx, 0.0, f64::INFINITY).expect("[0, +inf) is a valid interval");
        self.hull(&self.neg()).intersection(&half_line)
    }

    /// self + v for an f64 `v` (convenience; exact inputs).
    fn add_f64(&self, v: f64) -> Self {
        self.add(&Self::from_f64(&self.ctx(), v))
    }

    /// self · v for an f64 `v` (convenience; exact inputs).
    fn mul_f64(&self, v: f64) -> Self {
        self.mul(&Self::from_f64(&self.ctx(), v))
    }

    /// [lo − r, hi + r] for r ≥ 0 (ε-inflation), rounded outward.
    fn inflate(&self, r: f64) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        let e = Self::from_f64_bounds(&self.ctx(), -r.abs(), r.abs())
            .unwrap_or_else(|_| Self::entire(&self.ctx()));
        self.add(&e)
    }
}
