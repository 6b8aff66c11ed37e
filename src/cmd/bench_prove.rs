//! `expanse bench prove` (not yet implemented).
use super::{bench::Args, CliError, CmdResult};

/// Runs `expanse bench prove`.
pub fn run(_args: &Args) -> CmdResult {
    Err(CliError::usage("bench prove is not implemented yet"))
}
