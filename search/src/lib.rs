//! # expanse-search: the search stage (candidate sinks of the Hénon map)
//!
//! Scans a set of map parameters and initial points for candidate periodic orbits, as in seed
//! 001 §4 (Joldes, Popescu, Tucker 2013): iterate a transient, look for the smallest period
//! with a close return, confirm it over one more period, estimate the trace of the derivative
//! along the cycle. Each orbit follows the contract written in [`orbit`], shared bit for bit
//! with the CUDA kernels of `expanse-gpu`.
//!
//! Use this crate to run searches from Rust ([`engine::run_search`]), to read and write the
//! files it produces ([`files`]), or to measure the CPU backend's throughput ([`mod@bench`]).
//!
//! Layout:
//! - [`map`]: the map abstraction (value and Jacobian) written once over
//!   [`expanse_core::MapScalar`]; Hénon first.
//! - [`spec`]: raw arguments → a validated [`spec::SearchSpec`] (parameter grids, initial
//!   points, precision).
//! - [`orbit`]: the per-orbit algorithm (the CPU/GPU contract) and its plain-data records.
//! - [`backend`]: "something that maps a chunk of orbit tasks to per-orbit records": the CPU
//!   backend (rayon, all cores) and the place where the GPU backend plugs in.
//! - [`engine`]: chunks, deduplication of cycles per parameter, candidate files, checkpoints,
//!   resume, shards, merge.
//! - [`limb`]: the search in fixed-limb floats (`--prec NNNb`) on both backends.
//! - [`hexfloat`], [`decimal`]: exact number text (C99 hex floats, exact decimals).
#![deny(missing_docs)]

pub mod backend;
pub mod bench;
pub mod decimal;
pub mod engine;
mod error;
pub mod files;
pub mod hexfloat;
pub mod limb;
pub mod map;
pub mod op_count;
pub mod orbit;
pub mod spec;

pub use error::{Error, ErrorKind};
