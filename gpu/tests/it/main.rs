//! expanse-gpu's integration tests, one test binary (link time is the cost of each binary).
//! Without a GPU they check the CUDA sources by building them for the host (`shim`); the same
//! comparisons run on a device through `expanse bench ... --check`.

mod accurate_on_cpu;
mod arrays_blas;
mod arrays_common;
mod arrays_host;
mod arrays_indexed;
mod arrays_on_cpu;
mod functions_on_cpu;
mod henon_limb_on_cpu;
mod internals;
mod limb_blas_on_cpu;
mod limb_functions_on_cpu;
mod limb_on_cpu;
mod nvrtc_programs;
mod orbits_on_cpu;
mod par;
mod shim;
