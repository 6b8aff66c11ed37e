//! GPU versions of the seeds' applications (`expanse-apps`: `mandelbrot`, `md`, `fft`): CUDA
//! kernels that repeat, operation for operation, the CPU code of `apps/src/*.rs`, so that for
//! the same inputs both give bit-identical results (escape counts, particle states, transforms).
//!
//! Each application is one [`CudaProgram`] over the arithmetic it uses: the fast tier
//! (`cuda/orbits.cu`, the mirror of `core/src/fast.rs`), the accurate tier (`cuda/accurate.cu`,
//! for dd's reciprocal in MD) and seed 003's quasi double-precision pair operations
//! (`cuda/quasi.cu`, the mirror of `core/src/quasi.rs`). The Rust side here only moves data and
//! launches; the CPU references stay in `expanse-apps`, whose tests build these sources for
//! the host (through the CPU shim of this crate's tests) and compare bit for bit; the
//! applications' examples compare the two on a device.
//!
//! Everything runs on GPU 0 of the [`GpuContext`] given.

pub mod fft;
pub mod mandelbrot;
pub mod md;

use crate::device::{drv, CudaProgram, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::CudaFunction;
use std::sync::OnceLock;

/// The orbit kernels' source, whose first part is the fast tier.
const ORBITS_CU: &str = include_str!("../cuda/orbits.cu");

/// The line of `cuda/orbits.cu` after its fast tier (where the Hénon map and the orbit
/// kernels begin).
const FAST_TIER_END: &str = "// Multiplication by a parameter (core::henon::Fast::mul_param)";

/// The fast tier's CUDA source: `cuda/orbits.cu` up to its Hénon part (`Acc`, `add_fast`,
/// `sub_fast`, `mul_fast`, `sqr_fast`, `mul_term_fast`, `add_term_fast`, `e_neg` on the
/// prelude's `E`), so that the applications' programs do not compile the orbit kernels (the
/// whole file if the marker line ever moves: the same functions, more to compile).
pub fn fast_cu() -> &'static str {
    match ORBITS_CU.find(FAST_TIER_END) {
        Some(i) => &ORBITS_CU[..i],
        None => ORBITS_CU,
    }
}

/// A program of this module, built once per process (the fast tier is cut at run time).
fn program(
    cell: &'static OnceLock<CudaProgram>,
    name: &'static str,
    parts: impl FnOnce() -> Vec<&'static str>,
) -> &'static CudaProgram {
    cell.get_or_init(|| CudaProgram {
        name,
        parts: Box::leak(parts().into_boxed_slice()),
    })
}

/// Seed 003's quasi double-precision pair operations (`cuda/quasi.cu`: `q_add_f1`, `q_sub_f1`,
/// `q_mul_f12` on pairs `QP` of the prelude's T).
pub const QUASI_CU: &str = include_str!("../cuda/quasi.cu");

/// The Mandelbrot program (fast tier, quasi.cu, `cuda/mandelbrot.cu`): kernels
/// `mandel_plain`, `mandel_quasi`, `mandel_exp`.
pub fn mandelbrot_program() -> &'static CudaProgram {
    static P: OnceLock<CudaProgram> = OnceLock::new();
    program(&P, "app_mandelbrot", || {
        vec![fast_cu(), QUASI_CU, include_str!("../cuda/mandelbrot.cu")]
    })
}

/// The molecular-dynamics program (accurate tier, fast tier, quasi.cu, `cuda/md.cu`): kernels
/// `md_forces`, `md_kick_drift`, `md_kick`.
pub fn md_program() -> &'static CudaProgram {
    static P: OnceLock<CudaProgram> = OnceLock::new();
    program(&P, "app_md", || {
        vec![
            crate::functions::ACCURATE_CU,
            fast_cu(),
            QUASI_CU,
            include_str!("../cuda/md.cu"),
        ]
    })
}

/// The FFT program (fast tier, `cuda/fft.cu`): kernels `fft_bitrev`, `fft_stage`,
/// `fft_scale`.
pub fn fft_program() -> &'static CudaProgram {
    static P: OnceLock<CudaProgram> = OnceLock::new();
    program(&P, "app_fft", || {
        vec![fast_cu(), include_str!("../cuda/fft.cu")]
    })
}

/// Kernel `name` of `program` for `terms` terms of T on GPU `dev` (terms 1..=4: the formats
/// of the applications), with the context bound to this thread.
pub(crate) fn kernel<T: GpuTerm>(
    ctx: &GpuContext,
    dev: usize,
    program: &CudaProgram,
    terms: usize,
    name: &str,
) -> Result<CudaFunction, GpuError> {
    ctx.cuda_context(dev)
        .bind_to_thread()
        .map_err(|e| drv("binding the context", e))?;
    match terms {
        1 => ctx.function::<T, 1>(dev, program, name),
        2 => ctx.function::<T, 2>(dev, program, name),
        3 => ctx.function::<T, 3>(dev, program, name),
        4 => ctx.function::<T, 4>(dev, program, name),
        _ => Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
            "{}: {terms} terms (the applications use 1 to 4)",
            program.name
        )))),
    }
}

/// A one-dimensional launch of `threads` threads in blocks of `block`.
pub(crate) fn grid(threads: u64, block: u32) -> cudarc::driver::LaunchConfig {
    cudarc::driver::LaunchConfig {
        grid_dim: (threads.div_ceil(u64::from(block)).max(1) as u32, 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}
