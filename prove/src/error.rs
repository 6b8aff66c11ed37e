//! The crate's typed error: a kind the caller can match on and a message naming what is at
//! fault (file, line, field). Library code never prints or exits.

use std::fmt;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A number could not be parsed or is not finite.
    BadNumber,
    /// A candidate (line of a candidates file or command-line candidate) is unusable.
    BadCandidate,
    /// A certificate file is unusable (not JSON, missing fields, unknown schema).
    BadCertificate,
    /// An option has an invalid value (negative radius, period 0, …).
    BadOption,
    /// Reading or writing a file failed.
    Io,
}

/// Error of the prove crate.
#[derive(Clone, Debug)]
pub struct Error {
    /// The kind.
    pub kind: ErrorKind,
    /// A message naming what is at fault.
    pub message: String,
}

impl Error {
    /// A new error.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
