//! # expanse-gpu: the GPU backend of the Hénon sink search
//!
//! CUDA C++ kernels for n-term expansions (N = 1..8 terms of `double` or `float`) and for the
//! per-orbit search, embedded as source (`gpu/src/cuda/`: [`PRELUDE`] and one file per topic, combined into
//! [`CudaProgram`]s such as [`ORBITS_PROGRAM`]), compiled at run time by NVRTC
//! (through cudarc, loaded dynamically) for the device's architecture with `--fmad=false`, and
//! cached per (N, term type, architecture) for the process.
//!
//! Use it through [`GpuContext`]: [`GpuContext::probe`] says which GPUs are usable or why none
//! is ([`GpuUnavailable`]); [`GpuContext::run_orbits`] runs an [`OrbitBatch`] (every parameter
//! pair with every initial point, one GPU thread per orbit) and returns one [`OrbitRecord`] per
//! orbit; [`GpuContext::run_orbits_compact`] returns only the status counts and the records of
//! candidate cycles, for searches too large to bring every record back, and
//! [`GpuContext::run_orbits_sparse`] those and the escapes (every orbit absent is NO_CYCLE),
//! from which a search rebuilds every count exactly. Several GPUs of one
//! host share a batch evenly ([`DeviceSelection`]).
//!
//! The kernels repeat, operation for operation, the *search arithmetic* of `expanse-core`
//! (`core/src/fast.rs`, `core::henon::Fast`) and the per-orbit contract whose CPU reference is
//! [`reference_orbit`]; for the same inputs GPU and CPU records are bit-identical, which
//! `expanse bench gpu --check` verifies on a device for every N and both term types.
//!
//! [`functions`] carries the *accurate tier* ([`ACCURATE_CU`], reusable by any program) and the
//! elementary functions of `expanse_core::functions` to the GPU, again operation for operation
//! (bit-identical results): [`GpuContext::eval_unary`], [`GpuContext::eval_binary`] and
//! [`GpuContext::eval_powi`] map a function over a slice of expansions; `expanse bench
//! functions --check` verifies the identity on a device ([`fn_check`] makes the arguments).
//!
//! This crate depends only on `expanse-core`; its record types are plain data so the search
//! crate can convert them. Without a GPU everything compiles, and every entry point returns an
//! error with the reason instead of panicking.
#![deny(missing_docs)]

pub mod apps;
pub mod array;
pub mod contract;
pub mod device;
pub mod error;
pub mod fn_check;
pub mod functions;
pub mod henon_limb;
pub mod limb;
pub mod limb_blas;
pub mod limb_quad;
pub mod par;

pub use contract::{
    check_batch, reference_batch, reference_orbit, OrbitBatch, OrbitRecord, OrbitStatus,
    SearchSettings,
};
pub use device::{
    compile_program_ptx, compile_program_ptx_for, compile_ptx, kernel_source, CompactResult,
    CudaProgram, DeviceInfo, DeviceSelection, GpuContext, GpuTerm, LaunchProfile, KERNEL_SOURCE,
    ORBITS_PROGRAM, PRELUDE,
};
pub use error::{GpuError, GpuErrorKind, GpuUnavailable};
pub use functions::{
    binary_id, functions_program, unary_id, AccOp, ACCURATE_CU, ACCURATE_PROGRAM, FUNCTIONS_CU,
};
