//! `expanse bench gpu` (not yet implemented).
use super::{bench::Args, CliError, CmdResult};

/// Runs `expanse bench gpu`.
pub fn run(_args: &Args) -> CmdResult {
    Err(CliError::usage("bench gpu is not implemented yet"))
}
