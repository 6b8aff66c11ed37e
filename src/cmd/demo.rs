//! `expanse demo` (not yet implemented).
use super::{CliError, CmdResult};

/// Arguments of `expanse demo`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `expanse demo`.
pub fn run(_args: Args) -> CmdResult {
    Err(CliError::usage("demo is not implemented yet"))
}
