//! Parameter boxes: the intervals A × B of a and b a proof holds for, built from decimal (or hex)
//! strings and an optional radius, with exact endpoints and a record of whether the decimal
//! value itself was exactly representable.

use crate::error::{Error, ErrorKind};
use crate::numfmt::{parse_exact, round_rational};
use rug::float::Round;
use rug::{Float, Rational};

/// One parameter: the text it came from, its exact value, and the box used.
#[derive(Clone, Debug)]
pub struct Param {
    /// The value as given (decimal or hex text).
    pub given: String,
    /// The exact rational value of `given`.
    pub value: Rational,
    /// The radius requested around it (exact, ≥ 0).
    pub radius: Rational,
    /// Lower endpoint of the box (exact binary number).
    pub lo: Float,
    /// Upper endpoint of the box (exact binary number).
    pub hi: Float,
    /// A representable point near the centre of the box (the orbit is refined for it).
    pub centre: Float,
}

impl Param {
    /// Encloses `[value − radius, value + radius]` with endpoints of `prec` bits, rounded
    /// outward.
    pub fn new(given: &str, radius: &Rational, prec: u32) -> Result<Self, Error> {
        let value = parse_exact(given)?;
        if *radius < 0 {
            return Err(Error::new(
                ErrorKind::BadOption,
                "negative parameter radius",
            ));
        }
        Ok(Self::from_exact(given, value, radius.clone(), prec))
    }

    /// As [`Param::new`] from an exact value.
    pub fn from_exact(given: &str, value: Rational, radius: Rational, prec: u32) -> Self {
        let lo = round_rational(&Rational::from(&value - &radius), prec, Round::Down);
        let hi = round_rational(&Rational::from(&value + &radius), prec, Round::Up);
        let centre = round_rational(&value, prec, Round::Nearest);
        Param {
            given: given.to_string(),
            value,
            radius,
            lo,
            hi,
            centre,
        }
    }

    /// The same parameter re-enclosed at another precision.
    pub fn at_prec(&self, prec: u32) -> Self {
        Self::from_exact(&self.given, self.value.clone(), self.radius.clone(), prec)
    }

    /// True when the box is a single binary number equal to the given value.
    pub fn is_exact(&self) -> bool {
        self.lo == self.hi && self.radius == 0
    }

    /// The centre as an f64 (for estimates only).
    pub fn approx(&self) -> f64 {
        self.centre.to_f64()
    }
}

/// The parameter box A × B (intervals of a and b).
#[derive(Clone, Debug)]
pub struct ParamBox {
    /// a
    pub a: Param,
    /// b
    pub b: Param,
}

impl ParamBox {
    /// Both parameters re-enclosed at `prec` bits.
    pub fn at_prec(&self, prec: u32) -> Self {
        ParamBox {
            a: self.a.at_prec(prec),
            b: self.b.at_prec(prec),
        }
    }

    /// The largest radius (for a feasibility estimate).
    pub fn max_width(&self) -> f64 {
        let wa = Float::with_val(53, &self.a.hi - &self.a.lo).to_f64();
        let wb = Float::with_val(53, &self.b.hi - &self.b.lo).to_f64();
        wa.max(wb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_parameters_are_enclosed() {
        let p = Param::new("0.3", &Rational::from(0), 53).unwrap();
        assert!(!p.is_exact());
        let q = Rational::from((3, 10));
        assert!(p.lo.to_rational().unwrap() < q && q < p.hi.to_rational().unwrap());
        let e = Param::new("1.25", &Rational::from(0), 53).unwrap();
        assert!(e.is_exact());
        let r = Param::new("1.25", &Rational::from((1, 100_000_000)), 53).unwrap();
        assert!(
            r.lo.to_rational().unwrap()
                <= Rational::from((5, 4)) - Rational::from((1, 100_000_000))
        );
        assert!(
            r.hi.to_rational().unwrap()
                >= Rational::from((5, 4)) + Rational::from((1, 100_000_000))
        );
        assert!(Param::new("1.25", &Rational::from(-1), 53).is_err());
    }
}
