//! `expanse report` and `expanse orbit` (not yet implemented).
use super::{CliError, CmdResult};

/// Arguments of `expanse report`.
#[derive(clap::Args)]
pub struct Args {}

/// Arguments of `expanse orbit`.
#[derive(clap::Args)]
pub struct OrbitArgs {}

/// Runs `expanse report`.
pub fn run(_args: Args) -> CmdResult {
    Err(CliError::usage("report is not implemented yet"))
}

/// Runs `expanse orbit`.
pub fn run_orbit(_args: OrbitArgs) -> CmdResult {
    Err(CliError::usage("orbit is not implemented yet"))
}
