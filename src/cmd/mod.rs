//! Subcommands of the `expanse` binary, one module each, and the error type they share.

pub mod bench;
pub mod bench_arrays;
pub mod bench_cpu;
pub mod bench_functions;
pub mod bench_gpu;
pub mod bench_limb;
pub mod bench_limb_functions;
pub mod bench_limb_henon;
pub mod bench_prove;
pub mod continue_cmd;
pub mod demo;
pub mod prove;
pub mod report;
pub mod search;
pub mod window;

/// Outcome of a subcommand that ran: 0 established what was asked, 1 did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit code 0.
    Success,
    /// Exit code 1: ran, but did not establish what was asked.
    NotEstablished,
}

impl From<Outcome> for std::process::ExitCode {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Success => std::process::ExitCode::SUCCESS,
            Outcome::NotEstablished => std::process::ExitCode::from(1),
        }
    }
}

/// An error that stops a subcommand, with the exit code to report (2 for usage errors and
/// unusable input).
#[derive(Debug)]
pub struct CliError {
    /// Process exit code.
    pub code: u8,
    /// Message naming the flag, file or line at fault.
    pub message: String,
}

impl CliError {
    /// A usage error or unusable input (exit code 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            code: 2,
            message: message.into(),
        }
    }
    /// A failure while running (exit code 1).
    pub fn failed(message: impl Into<String>) -> Self {
        Self {
            code: 1,
            message: message.into(),
        }
    }
}

/// Result of a subcommand.
pub type CmdResult = Result<Outcome, CliError>;
