//! # expanse-prove (work in progress)
#![deny(missing_docs)]

pub mod error;
pub mod ivl;
pub mod numfmt;
pub mod orbit;
pub mod params;

pub use error::{Error, ErrorKind};
