//! All integration tests of this crate in one test binary (one link of the workspace instead
//! of one per file; see the README's "Development" section). Each module is one topic.

mod contract;
mod limb;
mod op_count;
mod pipeline;
mod sinks;
