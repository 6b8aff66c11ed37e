//! `expanse prove` and `expanse verify` (not yet implemented).
use super::{CliError, CmdResult};

/// Arguments of `expanse prove`.
#[derive(clap::Args)]
pub struct Args {}

/// Arguments of `expanse verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {}

/// Runs `expanse prove`.
pub fn run(_args: Args) -> CmdResult {
    Err(CliError::usage("prove is not implemented yet"))
}

/// Runs `expanse verify`.
pub fn run_verify(_args: VerifyArgs) -> CmdResult {
    Err(CliError::usage("verify is not implemented yet"))
}
