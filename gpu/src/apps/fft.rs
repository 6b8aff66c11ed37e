//! The complex radix-2 FFT of `expanse_apps::fft` on the GPU (`cuda/fft.cu`): the same
//! bit-reversal permutation, the same butterflies in the same fast-tier arithmetic, the same
//! twiddles (the CPU's table, uploaded) and the same exact scaling of the inverse, so the
//! transforms are bit-identical to the CPU's.
//!
//! The format is (T, terms): (f64, 1) f64, (f32, 2) df64, (f32, 4) qf128, (f64, 2) dd,
//! (f64, 4) qd. A vector of n complex numbers is laid out as on the device: term k of the real
//! part of element i at `k·n + i`, of the imaginary part at `(terms + k)·n + i`; the twiddle
//! table (N/2 entries for the largest size N) the same way.
//!
//! [`plan`] lists the kernel launches of one transform; [`FftGpu::transform`] runs them, and
//! the host-build test runs the same list through the CPU shim.

use super::{fft_program, grid, kernel};
use crate::device::{drv, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::{CudaFunction, CudaSlice, PushKernelArg};

/// Threads per block (`FFT_BLOCK` in cuda/fft.cu).
const BLOCK: u32 = 256;

/// One kernel launch of a transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftLaunch {
    /// `fft_bitrev`: the permutation into the scratch vector (which then becomes the data).
    BitRev,
    /// `fft_stage`: butterflies of half-size `h` with twiddles `W[j << shift]`.
    Stage {
        /// Half-size of the butterfly blocks (1, 2, 4, …, n/2).
        h: u64,
        /// log2 of the stride into the twiddle table.
        shift: u32,
    },
    /// `fft_scale`: every term times 2^e (the inverse's 1/n).
    Scale {
        /// The exponent.
        e: i32,
    },
}

/// The launches of a transform of size 2^log2n with a twiddle table for 2^log2_max (the
/// CPU's `fft`: permutation, stages h = 1, 2, …, n/2 with shift log2_max − log2(2h), and for
/// the inverse the scaling by 2^−log2n).
pub fn plan(log2n: u32, log2_max: u32, inverse: bool) -> Vec<FftLaunch> {
    let mut v = vec![FftLaunch::BitRev];
    for s in 0..log2n {
        v.push(FftLaunch::Stage {
            h: 1u64 << s,
            shift: log2_max - (s + 1),
        });
    }
    if inverse {
        v.push(FftLaunch::Scale { e: -(log2n as i32) });
    }
    v
}

/// The twiddle table of one format on GPU 0, and the kernels.
pub struct FftGpu<'a, T: GpuTerm> {
    ctx: &'a GpuContext,
    terms: usize,
    log2_max: u32,
    tw: CudaSlice<T>,
    bitrev_k: CudaFunction,
    stage_k: CudaFunction,
    scale_k: CudaFunction,
}

impl<'a, T: GpuTerm> FftGpu<'a, T> {
    /// Uploads the twiddle table `tw` of size 2^log2_max (2·terms·2^(log2_max−1) values,
    /// layout of the module doc) and compiles the kernels for (T, terms).
    pub fn new(
        ctx: &'a GpuContext,
        terms: usize,
        log2_max: u32,
        tw: &[T],
    ) -> Result<Self, GpuError> {
        let half = 1usize << log2_max.max(1).saturating_sub(1);
        if log2_max == 0 || log2_max > 40 || tw.len() != 2 * terms * half {
            return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
                "fft: twiddle table of {} values for size 2^{log2_max} with {terms} terms",
                tw.len()
            ))));
        }
        let k = |name: &str| kernel::<T>(ctx, 0, fft_program(), terms, name);
        let (bitrev_k, stage_k, scale_k) = (k("fft_bitrev")?, k("fft_stage")?, k("fft_scale")?);
        let tw = ctx
            .stream(0)
            .clone_htod(tw)
            .map_err(|e| drv("uploading the twiddles", e))?;
        Ok(FftGpu {
            ctx,
            terms,
            log2_max,
            tw,
            bitrev_k,
            stage_k,
            scale_k,
        })
    }

    /// Uploads a vector (layout of the module doc).
    pub fn upload(&self, data: &[T]) -> Result<CudaSlice<T>, GpuError> {
        self.ctx
            .stream(0)
            .clone_htod(data)
            .map_err(|e| drv("uploading the vector", e))
    }

    /// A device vector of `len` values (zeros), e.g. the scratch of [`Self::transform`].
    pub fn zeros(&self, len: usize) -> Result<CudaSlice<T>, GpuError> {
        self.ctx
            .stream(0)
            .alloc_zeros::<T>(len)
            .map_err(|e| drv("allocating a vector", e))
    }

    /// Downloads a vector.
    pub fn download(&self, data: &CudaSlice<T>) -> Result<Vec<T>, GpuError> {
        self.ctx
            .stream(0)
            .clone_dtoh(data)
            .map_err(|e| drv("downloading the vector", e))
    }

    /// Waits for the queued transforms.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        self.ctx
            .stream(0)
            .synchronize()
            .map_err(|e| drv("running the fft", e))
    }

    /// Transforms `data` (size 2^log2n, 1 ≤ log2n ≤ log2_max) in place, forward or inverse,
    /// `scratch` of the same length holding the permutation (both are swapped as the launches
    /// go, the result ends in `data`). Queued on the stream.
    pub fn transform(
        &self,
        data: &mut CudaSlice<T>,
        scratch: &mut CudaSlice<T>,
        log2n: u32,
        inverse: bool,
    ) -> Result<(), GpuError> {
        let n = 1u64 << log2n;
        if log2n == 0 || log2n > self.log2_max || data.len() as u64 != 2 * self.terms as u64 * n {
            return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
                "fft: {} values for size 2^{log2n} ({} terms, table 2^{})",
                data.len(),
                self.terms,
                self.log2_max
            ))));
        }
        if scratch.len() != data.len() {
            return Err(GpuError::new(GpuErrorKind::InvalidInput(
                "fft: scratch and data differ in length".into(),
            )));
        }
        let s = self.ctx.stream(0);
        let half_max = 1u64 << (self.log2_max - 1);
        let inv = i32::from(inverse);
        for l in plan(log2n, self.log2_max, inverse) {
            match l {
                FftLaunch::BitRev => {
                    let mut b = s.launch_builder(&self.bitrev_k);
                    b.arg(&*data);
                    b.arg(&mut *scratch);
                    b.arg(&n);
                    b.arg(&log2n);
                    // SAFETY: matches fft_bitrev(const T*, T*, u64, u32); both hold 2·terms·n.
                    unsafe { b.launch(grid(n, BLOCK)) }
                        .map_err(|e| drv("launching fft_bitrev", e))?;
                    std::mem::swap(data, scratch);
                }
                FftLaunch::Stage { h, shift } => {
                    let mut b = s.launch_builder(&self.stage_k);
                    b.arg(&mut *data);
                    b.arg(&self.tw);
                    b.arg(&n);
                    b.arg(&half_max);
                    b.arg(&h);
                    b.arg(&shift);
                    b.arg(&inv);
                    // SAFETY: matches fft_stage(T*, const T*, u64, u64, u64, u32, int); data
                    // holds 2·terms·n, the table 2·terms·half_max, and (j << shift) < half_max.
                    unsafe { b.launch(grid(n / 2, BLOCK)) }
                        .map_err(|e| drv("launching fft_stage", e))?;
                }
                FftLaunch::Scale { e } => {
                    let factor = T::ONE.ldexp(e);
                    let mut b = s.launch_builder(&self.scale_k);
                    b.arg(&mut *data);
                    b.arg(&n);
                    b.arg(&factor);
                    // SAFETY: matches fft_scale(T*, u64, T); data holds 2·terms·n values.
                    unsafe { b.launch(grid(n, BLOCK)) }
                        .map_err(|e| drv("launching fft_scale", e))?;
                }
            }
        }
        Ok(())
    }
}
