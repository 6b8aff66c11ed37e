//! The error type of the search crate: a kind (what went wrong, for the caller to map to an
//! exit code) and a message naming the flag, file or line at fault.

use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A flag or value of the search spec is invalid (the message names the flag).
    InvalidSpec,
    /// The output exists and neither resume nor force was asked for.
    OutputExists,
    /// A resume or merge found files written for a different spec.
    SpecMismatch,
    /// An input file (checkpoint, manifest, candidates, shard) is unreadable or malformed.
    BadInputFile,
    /// The requested backend cannot run (for example no usable GPU).
    BackendUnavailable,
    /// A backend failed while running (for example a CUDA driver error).
    BackendFailed,
    /// Reading or writing a file failed while running.
    Io,
}

/// An error of the search crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// A message naming the flag, file or line at fault.
    pub message: String,
}

impl Error {
    /// Builds an error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// An invalid value of `flag`.
    pub(crate) fn spec(flag: &str, message: impl fmt::Display) -> Self {
        Self::new(ErrorKind::InvalidSpec, format!("{flag}: {message}"))
    }

    /// An I/O failure on `path`.
    pub(crate) fn io(path: &std::path::Path, what: &str, e: std::io::Error) -> Self {
        Self::new(
            ErrorKind::Io,
            format!("{}: cannot {what}: {e}", path.display()),
        )
    }

    /// A malformed input file.
    pub(crate) fn bad_file(path: &std::path::Path, message: impl fmt::Display) -> Self {
        Self::new(
            ErrorKind::BadInputFile,
            format!("{}: {message}", path.display()),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
