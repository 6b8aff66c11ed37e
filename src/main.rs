//! `expanse`: the command-line front end. It parses arguments, calls the library crates, prints
//! and maps outcomes to exit codes (0 success; 1 ran but did not establish what was asked;
//! 2 usage error or unusable input). Each subcommand lives in its own module under `cmd/`.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Search for and prove stable periodic orbits (sinks) of the Hénon map.
#[derive(Parser)]
#[command(name = "expanse", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Scan Hénon parameters and initial points for candidate periodic orbits.
    Search(cmd::search::Args),
    /// Combine the outputs of `search --shard I/N` runs of one spec.
    Merge(cmd::search::MergeArgs),
    /// Prove candidates: existence, minimal period and stability, with certificates.
    Prove(cmd::prove::Args),
    /// Re-check certificates independently (exit 0 valid, 1 not valid, 2 unusable).
    Verify(cmd::prove::VerifyArgs),
    /// Figures and tables from candidates and certificates.
    Report(cmd::report::Args),
    /// Iterate one orbit and print or plot its points.
    Orbit(cmd::report::OrbitArgs),
    /// Measure throughput: `cpu`, `gpu` or `prove`.
    Bench(cmd::bench::Args),
    /// Run the whole chain on a built-in example.
    Demo(cmd::demo::Args),
    /// A sink's parameter window along a line: certified inner interval, estimated ends.
    Window(cmd::window::Args),
    /// Follow a sink's strip in the (a, b) plane to the point nearest a target; prove sinks there.
    Continue(cmd::continue_cmd::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Search(a) => cmd::search::run(a),
        Command::Merge(a) => cmd::search::run_merge(a),
        Command::Prove(a) => cmd::prove::run(a),
        Command::Verify(a) => cmd::prove::run_verify(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Orbit(a) => cmd::report::run_orbit(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Demo(a) => cmd::demo::run(a),
        Command::Window(a) => cmd::window::run(a),
        Command::Continue(a) => cmd::continue_cmd::run(a),
    };
    match result {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("expanse: error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
