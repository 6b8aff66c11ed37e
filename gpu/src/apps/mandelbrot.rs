//! Mandelbrot escape counts on the GPU (`cuda/mandelbrot.cu`), one thread per pixel: the
//! kernels of `expanse_apps::mandelbrot`'s `count_plain` (f32, f64), `count_quasi` (seed
//! 003's quasi double on f32 pairs) and `count_exp` (dd, qd: the fast tier).
//!
//! The caller supplies c along each axis (the view's c has its real part fixed per column and
//! its imaginary part per row), computed on the host exactly as the CPU version computes it, so
//! both iterate the same numbers.

use super::{grid, kernel, mandelbrot_program};
use crate::device::{drv, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::PushKernelArg;

/// Threads per block (`MANDEL_BLOCK` in cuda/mandelbrot.cu).
const BLOCK: u32 = 128;

/// The arithmetic of a Mandelbrot kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MandelArith {
    /// IEEE operations in T (`mandel_plain`; one term per coordinate).
    Plain,
    /// Seed 003's pair operations (`mandel_quasi`; two terms per coordinate: hi, lo).
    Quasi,
    /// An expansion of `terms` terms, fast tier (`mandel_exp`).
    Expansion {
        /// Terms per coordinate (1..=4).
        terms: usize,
    },
}

impl MandelArith {
    /// Terms per coordinate in the arrays given to [`render`].
    pub fn terms(self) -> usize {
        match self {
            MandelArith::Plain => 1,
            MandelArith::Quasi => 2,
            MandelArith::Expansion { terms } => terms,
        }
    }
}

/// Escape counts of a `width` × `height` image (row-major) on GPU 0, and the seconds the
/// kernel took (after compilation and upload). `cx` holds the real part of c for every column,
/// term k of column i at `k·width + i`; `cy` the imaginary part for every row, term k of row j
/// at `k·height + j` (terms as [`MandelArith::terms`]).
pub fn render<T: GpuTerm>(
    ctx: &GpuContext,
    arith: MandelArith,
    cx: &[T],
    cy: &[T],
    width: usize,
    height: usize,
    max_iter: u32,
) -> Result<(Vec<u32>, f64), GpuError> {
    let terms = arith.terms();
    if cx.len() != terms * width || cy.len() != terms * height {
        return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
            "mandelbrot: {} and {} coordinate terms for a {width}x{height} image of {terms}-term values",
            cx.len(),
            cy.len()
        ))));
    }
    let pixels = width * height;
    if pixels == 0 {
        return Ok((Vec::new(), 0.0));
    }
    let (name, instance_terms) = match arith {
        MandelArith::Plain => ("mandel_plain", 1),
        MandelArith::Quasi => ("mandel_quasi", 1),
        MandelArith::Expansion { terms } => ("mandel_exp", terms),
    };
    let f = kernel::<T>(ctx, 0, mandelbrot_program(), instance_terms, name)?;
    let s = ctx.stream(0);
    let dx = s.clone_htod(cx).map_err(|e| drv("uploading c (real)", e))?;
    let dy = s
        .clone_htod(cy)
        .map_err(|e| drv("uploading c (imaginary)", e))?;
    let mut out = s
        .alloc_zeros::<u32>(pixels)
        .map_err(|e| drv("allocating the counts", e))?;
    let (w, h) = (width as u32, height as u32);
    s.synchronize().map_err(|e| drv("uploading", e))?;
    let t0 = std::time::Instant::now();
    let mut b = s.launch_builder(&f);
    b.arg(&dx);
    b.arg(&dy);
    b.arg(&w);
    b.arg(&h);
    b.arg(&max_iter);
    b.arg(&mut out);
    // SAFETY: matches mandel_*(const T*, const T*, u32, u32, u32, u32*) in cuda/mandelbrot.cu;
    // cx and cy hold terms·width and terms·height values, out one count per pixel, and the
    // kernel returns for threads past width·height.
    unsafe { b.launch(grid(pixels as u64, BLOCK)) }.map_err(|e| drv("launching mandelbrot", e))?;
    s.synchronize().map_err(|e| drv("running mandelbrot", e))?;
    let secs = t0.elapsed().as_secs_f64();
    let counts = s
        .clone_dtoh(&out)
        .map_err(|e| drv("downloading the counts", e))?;
    Ok((counts, secs))
}
