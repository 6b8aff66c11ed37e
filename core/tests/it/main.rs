//! All integration tests of this crate in one test binary (one link of the workspace instead
//! of one per file; see the README's "Development" section). Each module is one topic.

mod accurate_batch;
mod accurate_frozen;
mod accurate_vs_mpfr;
mod batch;
mod common;
mod conversions;
mod fast_paths;
mod fast_tier;
mod functions_batch;
mod functions_exp_log;
mod functions_fixed;
mod functions_hyperbolic;
mod functions_trig;
mod henon_vs_mpfr;
mod internals;
mod limb_conversions;
mod limb_functions;
mod limb_vs_mpfr;
mod number_type;
mod quasi;
mod smoke_vs_mpfr;
mod special_values;
