//! # expanse-reports: figures and tables from search and proof outputs
//!
//! Turns what `expanse search` (candidate JSON Lines), `expanse prove` (certificate JSON) and
//! `expanse bench --json` write into what a paper needs:
//! - figures as PNG and SVG, sized and lettered for one column of a paper, text in an embedded
//!   font ([`figures`]): the attractor or an orbit, a certified sink over the attractor, the
//!   parameter map, a histogram of periods, and benchmark charts;
//! - tables of certificates in Markdown and LaTeX/booktabs ([`tables`]) whose intervals are
//!   rounded outward, so a printed enclosure still contains the proved one;
//! - orbits iterated in a chosen n-double precision ([`orbit`]) for `expanse orbit`;
//! - near a target point (`--target`): certified sinks and candidates ranked by their exact
//!   distance to it, and the plane around it with the certified boxes and followed strips
//!   drawn to scale ([`near`]).
//!
//! The readers ([`input`]) accept the small spelling differences of formats that evolve
//! elsewhere, and refuse unreadable files and mixed schemas with an [`Error`] naming the file
//! and line. This crate draws and tabulates; it never decides whether a proof is valid (that is
//! `expanse verify`'s job), and reports each certificate's status as recorded.
#![deny(missing_docs)]

pub mod error;
pub mod figures;
pub mod input;
pub mod near;
pub mod num;
pub mod orbit;
pub mod report;
pub mod tables;

pub use error::{Error, ErrorKind, Result};
pub use input::{load, load_bench, BenchRate, Candidate, Certificate, Inputs, ProofTiming, Status};
pub use report::{write_report, write_report_near, Report};
