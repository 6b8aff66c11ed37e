//! All integration tests of this crate in one test binary (one link of the workspace instead
//! of one per file; see the README's "Development" section). Each module is one topic.

mod continuation;
mod limb_ivl;
mod long_orbit;
mod sinks;
mod verify_mutations;
mod window;
