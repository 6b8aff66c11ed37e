//! All integration tests of this crate in one test binary (one link of the workspace instead
//! of one per file; see the README's "Development" section). Each module is one topic.

#[macro_use]
mod common;
mod containment;
mod edge_cases;
mod elementary;
mod exp_batch;
mod henon_matrix;
mod limb;
mod smoke;
mod tightness;
