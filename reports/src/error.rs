//! The crate's error type: what went wrong (`ErrorKind`) and where (file, line), so the binary
//! can print a message naming the input at fault and exit with code 2 for unusable input.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file or directory could not be read or written.
    Io,
    /// A file is not valid JSON / JSON Lines, or a record lacks a required field.
    Parse,
    /// Inputs of different schemas (e.g. certificates of two schema versions, or a certificate
    /// inside a candidates file) were given together.
    MixedSchema,
    /// Nothing usable was given (no candidate and no certificate).
    Empty,
    /// A bad argument (a precision outside 1..=8, a count of zero, …).
    InvalidArgument,
    /// Drawing a figure failed (backend or font error).
    Plot,
}

/// An error of this crate: its kind, the file and line at fault when known, and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The file at fault, if any.
    pub path: Option<PathBuf>,
    /// The 1-based line at fault, if any.
    pub line: Option<usize>,
    /// Human-readable details.
    pub message: String,
}

impl Error {
    /// An error of `kind` with a message and no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            path: None,
            line: None,
            message: message.into(),
        }
    }

    /// The same error located at `path` (and `line`, if given).
    pub fn at(mut self, path: &Path, line: Option<usize>) -> Self {
        self.path = Some(path.to_path_buf());
        self.line = line;
        self
    }

    /// True for errors caused by the inputs (the binary maps these to exit code 2).
    pub fn is_input_error(&self) -> bool {
        !matches!(self.kind, ErrorKind::Plot)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(p), Some(l)) => write!(f, "{}:{}: {}", p.display(), l, self.message),
            (Some(p), None) => write!(f, "{}: {}", p.display(), self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// Result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;
