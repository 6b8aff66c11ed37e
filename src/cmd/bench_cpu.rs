//! `expanse bench cpu` (not yet implemented).
use super::{bench::Args, CliError, CmdResult};

/// Runs `expanse bench cpu`.
pub fn run(_args: &Args) -> CmdResult {
    Err(CliError::usage("bench cpu is not implemented yet"))
}
