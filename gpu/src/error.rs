//! Error types of the GPU backend: why no GPU is usable ([`GpuUnavailable`]), and what went
//! wrong while using one ([`GpuError`] with a [`GpuErrorKind`]).

use std::fmt;

/// No GPU is usable here, and why (no driver, no device, no NVRTC, bad `--devices`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuUnavailable {
    /// A sentence saying what is missing.
    pub reason: String,
}

impl GpuUnavailable {
    /// With this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for GpuUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no usable GPU: {}", self.reason)
    }
}

impl std::error::Error for GpuUnavailable {}

/// What kind of failure a GPU operation met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuErrorKind {
    /// The GPU or NVRTC is not usable (the reason).
    Unavailable(String),
    /// NVRTC rejected the kernel source: what was compiled, and the compiler's log.
    Compile {
        /// Which instantiation (N, term type, architecture, options).
        what: String,
        /// NVRTC's log.
        log: String,
    },
    /// A CUDA driver call failed (context, allocation, copy, launch).
    Driver(String),
    /// The batch or range is not valid (the reason).
    InvalidInput(String),
}

/// An error from the GPU backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuError {
    /// What went wrong.
    pub kind: GpuErrorKind,
}

impl GpuError {
    /// An error of this kind.
    pub fn new(kind: GpuErrorKind) -> Self {
        Self { kind }
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            GpuErrorKind::Unavailable(r) => write!(f, "no usable GPU: {r}"),
            GpuErrorKind::Compile { what, log } => {
                write!(f, "NVRTC failed to compile the kernels ({what}):\n{log}")
            }
            GpuErrorKind::Driver(m) => write!(f, "CUDA driver error: {m}"),
            GpuErrorKind::InvalidInput(m) => write!(f, "invalid GPU batch: {m}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<GpuUnavailable> for GpuError {
    fn from(u: GpuUnavailable) -> Self {
        Self::new(GpuErrorKind::Unavailable(u.reason))
    }
}
