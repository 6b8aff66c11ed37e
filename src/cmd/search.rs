//! `expanse search` and `expanse merge` (not yet implemented).
use super::{CliError, CmdResult};

/// Arguments of `expanse search`.
#[derive(clap::Args)]
pub struct Args {}

/// Arguments of `expanse merge`.
#[derive(clap::Args)]
pub struct MergeArgs {}

/// Runs `expanse search`.
pub fn run(_args: Args) -> CmdResult {
    Err(CliError::usage("search is not implemented yet"))
}

/// Runs `expanse merge`.
pub fn run_merge(_args: MergeArgs) -> CmdResult {
    Err(CliError::usage("merge is not implemented yet"))
}
