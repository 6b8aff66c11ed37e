//! The crate's error type: a kind callers can match on, and a message naming the input at
//! fault. Library code never panics on user input; it returns one of these.

use core::fmt;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Bounds that do not form an interval (lo > hi, NaN, lo = +∞ or hi = −∞).
    InvalidBounds,
    /// A string that is not a decimal number.
    InvalidDecimal,
    /// A decimal exponent beyond what is supported (|e| > 100000).
    ExponentOutOfRange,
    /// A divisor interval containing zero (from `checked_div`).
    DivisionByZero,
    /// An MPFR precision outside the supported range.
    InvalidPrecision,
    /// Matrix or vector shapes that do not fit together.
    DimensionMismatch,
}

/// An error of this crate: a kind and a message naming the offending input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// A new error.
    pub fn new(kind: ErrorKind, message: String) -> Self {
        Self { kind, message }
    }

    /// The kind of the error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message (names the input at fault).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
