//! Lennard-Jones molecular dynamics on the GPU (`cuda/md.cu`): the state of
//! `expanse_apps::md` on the device and its velocity-Verlet step, one thread per particle,
//! operation for operation as the CPU's generic step.
//!
//! The format is (T, terms): (f32, 1) f32, (f64, 1) f64, (f32, 2) seed 003's quasi double,
//! (f64, 2) dd. Host arrays are laid out as on the device: coordinate c, term k of particle i
//! at `(c·terms + k)·n + i`; the per-particle energies term k of particle i at `k·n + i`.

use super::{grid, kernel, md_program};
use crate::device::{drv, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::{CudaFunction, CudaSlice, PushKernelArg};

/// Threads per block (at most `MD_BLOCK` = 128 of cuda/md.cu): one warp, so that the few
/// thousand particles of a run spread over as many multiprocessors as possible.
const BLOCK: u32 = 32;

/// A system on GPU 0: positions, velocities and forces (at the positions).
pub struct MdGpu<'a, T: GpuTerm> {
    ctx: &'a GpuContext,
    terms: usize,
    n: usize,
    l: f64,
    rc2: f64,
    dt: f64,
    x: CudaSlice<T>,
    v: CudaSlice<T>,
    f: CudaSlice<T>,
    scratch_f: CudaSlice<T>,
    pe: CudaSlice<T>,
    forces_k: CudaFunction,
    kick_drift_k: CudaFunction,
    kick_k: CudaFunction,
}

impl<'a, T: GpuTerm> MdGpu<'a, T> {
    /// Uploads n particles (`x`, `v` in the layout of the module doc) in a periodic box of
    /// edge `l`, with cut-off squared `rc2` and time step `dt`, and computes the forces (as the
    /// CPU's `state`).
    pub fn new(
        ctx: &'a GpuContext,
        terms: usize,
        l: f64,
        rc2: f64,
        dt: f64,
        x: &[T],
        v: &[T],
    ) -> Result<Self, GpuError> {
        let n = x.len() / (3 * terms.max(1));
        if terms == 0 || x.len() != 3 * terms * n || v.len() != x.len() || n == 0 {
            return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
                "md: {} position and {} velocity terms for {terms}-term values",
                x.len(),
                v.len()
            ))));
        }
        let forces_k = kernel::<T>(ctx, 0, md_program(), terms, "md_forces")?;
        let kick_drift_k = kernel::<T>(ctx, 0, md_program(), terms, "md_kick_drift")?;
        let kick_k = kernel::<T>(ctx, 0, md_program(), terms, "md_kick")?;
        let s = ctx.stream(0);
        let up = |a: &[T], what: &str| s.clone_htod(a).map_err(|e| drv(what, e));
        let zeros = |len: usize| s.alloc_zeros::<T>(len).map_err(|e| drv("allocating", e));
        let mut me = MdGpu {
            ctx,
            terms,
            n,
            l,
            rc2,
            dt,
            x: up(x, "uploading positions")?,
            v: up(v, "uploading velocities")?,
            f: zeros(x.len())?,
            scratch_f: zeros(x.len())?,
            pe: zeros(terms * n)?,
            forces_k,
            kick_drift_k,
            kick_k,
        };
        me.forces(false)?;
        Ok(me)
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no particles (never: [`Self::new`] refuses that).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The CPU's `forces`: into the state's forces, or (with `energy`) into a scratch array
    /// with the per-particle energies (the state's forces untouched, as the CPU's `energy`).
    fn forces(&mut self, energy: bool) -> Result<(), GpuError> {
        let ctx = self.ctx;
        let s = ctx.stream(0);
        let n = self.n as u64;
        let e = i32::from(energy);
        let mut b = s.launch_builder(&self.forces_k);
        b.arg(&self.x);
        b.arg(&n);
        b.arg(&self.l);
        b.arg(&self.rc2);
        b.arg(&e);
        if energy {
            b.arg(&mut self.scratch_f);
        } else {
            b.arg(&mut self.f);
        }
        b.arg(&mut self.pe);
        // SAFETY: matches md_forces(const T*, u64, double, double, int, T*, T*) in cuda/md.cu;
        // x and the force arrays hold 3·terms·n values, pe terms·n; threads past n return.
        unsafe { b.launch(grid(n, BLOCK)) }.map_err(|e| drv("launching md_forces", e))?;
        Ok(())
    }

    /// One velocity-Verlet step (the CPU's `step`): kick and drift, forces, kick. Queued on
    /// the stream; [`Self::synchronize`] waits for it.
    pub fn step(&mut self) -> Result<(), GpuError> {
        let ctx = self.ctx;
        let s = ctx.stream(0);
        let n = self.n as u64;
        let mut b = s.launch_builder(&self.kick_drift_k);
        b.arg(&mut self.x);
        b.arg(&mut self.v);
        b.arg(&self.f);
        b.arg(&n);
        b.arg(&self.l);
        b.arg(&self.dt);
        // SAFETY: matches md_kick_drift(T*, T*, const T*, u64, double, double); 3·terms·n each.
        unsafe { b.launch(grid(n, BLOCK)) }.map_err(|e| drv("launching md_kick_drift", e))?;
        self.forces(false)?;
        let mut b = s.launch_builder(&self.kick_k);
        b.arg(&mut self.v);
        b.arg(&self.f);
        b.arg(&n);
        b.arg(&self.dt);
        // SAFETY: matches md_kick(T*, const T*, u64, double); 3·terms·n values each.
        unsafe { b.launch(grid(n, BLOCK)) }.map_err(|e| drv("launching md_kick", e))?;
        Ok(())
    }

    /// Waits for the queued steps.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        self.ctx
            .stream(0)
            .synchronize()
            .map_err(|e| drv("running md", e))
    }

    /// The positions (layout of the module doc).
    pub fn positions(&self) -> Result<Vec<T>, GpuError> {
        self.ctx
            .stream(0)
            .clone_dtoh(&self.x)
            .map_err(|e| drv("downloading positions", e))
    }

    /// The velocities (layout of the module doc).
    pub fn velocities(&self) -> Result<Vec<T>, GpuError> {
        self.ctx
            .stream(0)
            .clone_dtoh(&self.v)
            .map_err(|e| drv("downloading velocities", e))
    }

    /// Each particle's potential energy (half of each pair's), computed now at the current
    /// positions: term k of particle i at `k·n + i`. The total energy is summed on the host in
    /// index order, as the CPU's `energy` does.
    pub fn potential_energies(&mut self) -> Result<Vec<T>, GpuError> {
        self.forces(true)?;
        self.ctx
            .stream(0)
            .clone_dtoh(&self.pe)
            .map_err(|e| drv("downloading energies", e))
    }

    /// Terms per value.
    pub fn terms(&self) -> usize {
        self.terms
    }
}
