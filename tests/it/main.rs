//! The `expanse` binary's integration tests in one test binary (one link of the workspace
//! instead of one per file; see the README's "Development" section). Each module is one
//! command or topic, run against the binary of this build (`CARGO_BIN_EXE_expanse`).

mod continue_cli;
mod demo;
mod prove_cli;
mod readme;
mod report_cli;
mod search_cli;
mod window_cli;
