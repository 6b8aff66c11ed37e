//! # expanse-prove (work in progress)
#![deny(missing_docs)]

pub mod bench;
pub mod candidates;
pub mod cert;
pub mod crosscheck;
pub mod engine;
pub mod error;
pub mod ivl;
pub mod krawczyk;
pub mod numfmt;
pub mod orbit;
pub mod params;
pub mod stability;
pub mod verify;

pub use error::{Error, ErrorKind};
