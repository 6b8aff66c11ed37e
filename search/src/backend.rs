//! Backends: "something that maps a chunk of orbit tasks to per-orbit records". The engine
//! cuts the work into chunks ([`OrbitChunk`]: parameters × initial points) and hands each to
//! a [`Backend`]; every backend implements the contract of [`crate::orbit`], so the records do
//! not depend on which one ran.
//!
//! - [`CpuBackend`]: rayon over all cores, [`cpu_lanes`] orbits on SIMD lanes per item; the
//!   (T, N) pair is dispatched once per chunk to monomorphised code (N = 1..8 × {f64, f32}).
//! - [`GpuBackend`]: `expanse_gpu::GpuContext::run_orbits_sparse` on one or several GPUs of
//!   the host (the kernels repeat the same contract; `expanse bench gpu --check` and this
//!   crate's `reference_matches_the_gpu_crates_reference` test tie the two implementations
//!   together). The kernel counts statuses and keeps only escapes and (unconfirmed) cycles,
//!   so a chunk of 1.6·10^7 orbits brings back about 10^6 records instead of one per orbit.
//!
//! A limb-precision search (`--prec NNNb`, [`OrbitJob::limb_bits`]) takes [`crate::limb`]'s
//! path on both backends: rayon over orbits on the CPU, `GpuContext::run_limb_orbits` on the
//! GPUs, one contract (`expanse_gpu::henon_limb`) and bit-identical records.
//!
//! The engine asks for [`SparseRecords`] ([`Backend::run_sparse`]: every orbit that is not
//! NO_CYCLE, by index); the absent orbits are NO_CYCLE with steps = transient + p_max, so the
//! candidate lines and every count are the same as from full records.
//!
//! [`select_backend`] picks one for `--backend auto|cpu|gpu`.

use crate::orbit::{blank_record, run_lanes, Base, OrbitJob, OrbitRecord, OrbitStatus, OrbitTask};
use crate::{Error, ErrorKind};
use rayon::prelude::*;

/// A chunk of work: every parameter with every initial point; orbit g = p·n_inits + i.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrbitChunk {
    /// Parameters (a, b), as f64 grid values.
    pub params: Vec<(f64, f64)>,
    /// Initial points (x0, y0).
    pub inits: Vec<(f64, f64)>,
}

impl OrbitChunk {
    /// Number of orbits.
    pub fn len(&self) -> u64 {
        self.params.len() as u64 * self.inits.len() as u64
    }

    /// True when there is no orbit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The orbits as flat tasks, in orbit order.
    pub fn tasks(&self) -> Vec<OrbitTask> {
        let mut t = Vec::with_capacity(self.len() as usize);
        for &(a, b) in &self.params {
            for &(x0, y0) in &self.inits {
                t.push(OrbitTask { a, b, x0, y0 });
            }
        }
        t
    }
}

/// The records of a chunk that carry information: `(orbit index in the chunk, record)` for
/// every orbit whose status is not `NoCycle`, in increasing orbit order. Every orbit absent is
/// `NoCycle` with steps = transient + p_max (the contract's NO_CYCLE record), so the engine
/// rebuilds every count and the sum of steps exactly from this.
pub type SparseRecords = Vec<(u64, OrbitRecord)>;

/// Keeps the records of `records` (one per orbit of a chunk) that are not `NoCycle`.
pub fn sparse_of(records: Vec<OrbitRecord>) -> SparseRecords {
    records
        .into_iter()
        .enumerate()
        .filter(|(_, r)| r.status != OrbitStatus::NoCycle)
        .map(|(i, r)| (i as u64, r))
        .collect()
}

/// Maps a chunk of orbits to per-orbit records (one per orbit, in orbit order). `Sync`: the
/// engine runs the next chunk on the backend in a worker thread while it writes the last.
pub trait Backend: Sync {
    /// A short description for messages and the manifest (e.g. `"cpu (16 threads, f64 on avx512 lanes)"`).
    fn describe(&self) -> String;
    /// Runs the contract of [`crate::orbit`] on every orbit of `chunk`.
    fn run(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<Vec<OrbitRecord>, Error>;
    /// Runs the contract on every orbit of `chunk` and returns only the records that are not
    /// `NoCycle` ([`SparseRecords`]); by default from [`Self::run`].
    fn run_sparse(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<SparseRecords, Error> {
        let records = self.run(job, chunk)?;
        if records.len() as u64 != chunk.len() {
            return Err(Error::new(
                ErrorKind::BackendFailed,
                format!(
                    "backend {} returned {} records for {} orbits",
                    self.describe(),
                    records.len(),
                    chunk.len()
                ),
            ));
        }
        Ok(sparse_of(records))
    }
    /// Map iterations a default chunk should hold (a chunk is the unit of checkpointing:
    /// about 2^30 on the CPU, seconds of work).
    fn chunk_iterations(&self) -> u64 {
        1 << 30
    }
    /// Bounds on the orbits of a default chunk (enough to keep every core or GPU lane busy).
    fn chunk_orbits(&self) -> (u64, u64) {
        (256, 65_536)
    }
    /// For a limb-precision search of `bits` bits (`--prec NNNb`): the map iterations a
    /// default chunk should hold and the bounds on its orbits. By default the figures above,
    /// the iterations divided by [`limb_step_cost`].
    fn limb_chunk(&self, bits: u32) -> (u64, (u64, u64)) {
        (
            (self.chunk_iterations() / limb_step_cost(bits)).max(1),
            self.chunk_orbits(),
        )
    }
    /// One-time work for `job` that a caller may do before timing a run (the GPU compiles
    /// and loads its kernels); by default nothing. Without it, the first chunk does it.
    fn prepare(&self, _job: &OrbitJob) -> Result<(), Error> {
        Ok(())
    }
    /// Where this backend's time went since it was made, when it keeps account (the GPU
    /// backend does); by default `None`.
    fn profile(&self) -> Option<BackendProfile> {
        None
    }
}

/// Where a backend's time went ([`Backend::profile`]), summed over the chunks it ran.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BackendProfile {
    /// Chunks run.
    pub chunks: u64,
    /// Wall time inside the backend's run calls (in the engine, the worker thread's busy
    /// time: what is left of a run's wall time is the engine's own, not overlapped).
    pub busy_s: f64,
    /// Turning the GPU crate's records into this crate's.
    pub convert_s: f64,
    /// The orbit launches (`None` for a limb-precision search).
    pub gpu: Option<expanse_gpu::LaunchProfile>,
}

/// The account of one run's time by phase (`expanse search --profile`): the wall time of
/// [`crate::engine::run_search`] split into the backend's steps and the engine's own work,
/// with the kernel-only iteration rate beside the end-to-end one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunBreakdown {
    /// Wall time of the run.
    pub wall_s: f64,
    /// Map iterations of the run.
    pub iterations: u64,
    /// Kernel compile and load inside the run (zero when prepared before it).
    pub setup_s: f64,
    /// Uploads.
    pub upload_s: f64,
    /// Kernels, launch to completion.
    pub kernel_s: f64,
    /// The kernels' time split by the threads' cycle shares: transient, close-return search,
    /// confirmation.
    pub phases_s: [f64; 3],
    /// Downloads.
    pub download_s: f64,
    /// Host work on records inside the backend (assembly, ordering, conversion).
    pub host_s: f64,
    /// The rest of the backend's busy time (launch bookkeeping, building a chunk's batch).
    pub backend_other_s: f64,
    /// Wall time outside the backend (files, candidate lines, progress; the last chunk's
    /// writing and any wait for the writer): not overlapped with the GPU.
    pub engine_s: f64,
    /// Chunks and kernel launches.
    pub chunks: u64,
    /// Kernel launches.
    pub launches: u64,
    /// Warps of the largest launch per SM sub-partition ([`expanse_gpu::LaunchProfile::warps_per_scheduler`]).
    pub warps_per_scheduler: f64,
}

impl RunBreakdown {
    /// The breakdown of a run of `iterations` iterations in `wall_s` seconds whose backend
    /// reported `p`.
    pub fn new(wall_s: f64, iterations: u64, p: &BackendProfile) -> Self {
        let g = p.gpu.unwrap_or_default();
        let shares = g.phase_shares();
        let in_backend = g.setup_s + g.upload_s + g.kernel_s + g.download_s + g.host_s;
        Self {
            wall_s,
            iterations,
            setup_s: g.setup_s,
            upload_s: g.upload_s,
            kernel_s: g.kernel_s,
            phases_s: shares.map(|s| s * g.kernel_s),
            download_s: g.download_s,
            host_s: g.host_s + p.convert_s,
            backend_other_s: (p.busy_s - in_backend - p.convert_s).max(0.0),
            engine_s: (wall_s - p.busy_s).max(0.0),
            chunks: p.chunks,
            launches: g.launches,
            warps_per_scheduler: g.warps_per_scheduler(),
        }
    }

    /// Iterations per second of the kernels alone (zero when no kernel time was recorded).
    pub fn kernel_rate(&self) -> f64 {
        if self.kernel_s > 0.0 {
            self.iterations as f64 / self.kernel_s
        } else {
            0.0
        }
    }

    /// Iterations per second over the run's wall time.
    pub fn end_to_end_rate(&self) -> f64 {
        self.iterations as f64 / self.wall_s.max(1e-9)
    }
}

/// The cost of one map step at `bits` bits in the limb float relative to one step in
/// double-double, roughly (a square of n = ⌈bits/64⌉ limbs dominates): 2 + n²/8, so that a
/// default chunk is seconds of work at every precision.
pub fn limb_step_cost(bits: u32) -> u64 {
    let n = bits.div_ceil(64) as u64;
    2 + n * n / 8
}

/// The CPU backend: rayon's global pool (all cores unless `RAYON_NUM_THREADS` says otherwise).
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl CpuBackend {
    /// Runs the contract on flat tasks.
    pub fn run_tasks(
        &self,
        job: &OrbitJob,
        tasks: &[OrbitTask],
    ) -> Result<Vec<OrbitRecord>, Error> {
        if job.limb_bits.is_some() {
            return crate::limb::run_cpu(job, tasks);
        }
        let mut out = vec![blank_record(); tasks.len()];
        dispatch!(job.base, job.terms, run_cpu(job, tasks, &mut out));
        Ok(out)
    }
}

/// Orbits per rayon item of the CPU backend, for N terms. Their transients run together on
/// SIMD lanes (`FloatTerm::henon_iterate_per_orbit`: AVX-512 or AVX2 for f64, eight portable
/// lanes for f32), two lane groups interleaved: 32 fills two AVX-512 groups of 8 f64 (or two
/// groups of 16 f32 / 8 f64 on narrower SIMD, twice). The rate of the search at every N comes
/// from `expanse bench cpu` and `cargo run --release -p expanse-search --example throughput`
/// (which sets it against one orbit at a time).
pub fn cpu_lanes(_terms: usize) -> usize {
    CPU_LANES
}

/// See [`cpu_lanes`].
const CPU_LANES: usize = 32;

/// Runs `tasks` on all cores, `L` orbits in lockstep per rayon item.
pub(crate) fn run_cpu_lanes<T: expanse_core::FloatTerm, const N: usize, const L: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    // One rayon item per lockstep group.
    out.par_chunks_mut(L)
        .zip(tasks.par_chunks(L))
        .with_max_len(1)
        .for_each(|(o, t)| run_lanes::<T, N, L>(job, t, o));
}

fn run_cpu<T: expanse_core::FloatTerm, const N: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    run_cpu_lanes::<T, N, CPU_LANES>(job, tasks, out)
}

/// Dispatches (base, terms) to the monomorphised `$f::<T, N>(args…)`.
macro_rules! dispatch {
    ($base:expr, $terms:expr, $f:ident ( $($arg:expr),* )) => {
        match ($base, $terms) {
            (Base::F64, 1) => $f::<f64, 1>($($arg),*),
            (Base::F64, 2) => $f::<f64, 2>($($arg),*),
            (Base::F64, 3) => $f::<f64, 3>($($arg),*),
            (Base::F64, 4) => $f::<f64, 4>($($arg),*),
            (Base::F64, 5) => $f::<f64, 5>($($arg),*),
            (Base::F64, 6) => $f::<f64, 6>($($arg),*),
            (Base::F64, 7) => $f::<f64, 7>($($arg),*),
            (Base::F64, 8) => $f::<f64, 8>($($arg),*),
            (Base::F32, 1) => $f::<f32, 1>($($arg),*),
            (Base::F32, 2) => $f::<f32, 2>($($arg),*),
            (Base::F32, 3) => $f::<f32, 3>($($arg),*),
            (Base::F32, 4) => $f::<f32, 4>($($arg),*),
            (Base::F32, 5) => $f::<f32, 5>($($arg),*),
            (Base::F32, 6) => $f::<f32, 6>($($arg),*),
            (Base::F32, 7) => $f::<f32, 7>($($arg),*),
            (Base::F32, 8) => $f::<f32, 8>($($arg),*),
            (_, n) => {
                return Err($crate::Error::new(
                    $crate::ErrorKind::InvalidSpec,
                    format!("--prec: {n} terms is outside 1..8"),
                ))
            }
        }
    };
}
pub(crate) use dispatch;

impl Backend for CpuBackend {
    fn describe(&self) -> String {
        format!(
            "cpu ({} threads, f64 on {} lanes)",
            rayon::current_num_threads(),
            expanse_core::batch::SimdLevel::detect().name()
        )
    }

    fn run(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<Vec<OrbitRecord>, Error> {
        self.run_tasks(job, &chunk.tasks())
    }
}

/// The GPU backend: the CUDA kernels of `expanse-gpu` on the GPUs of `--devices`.
pub struct GpuBackend {
    ctx: expanse_gpu::GpuContext,
    /// Where the time went ([`Backend::profile`]).
    profile: std::sync::Mutex<BackendProfile>,
}

fn prepare_gpu<T: expanse_gpu::GpuTerm, const N: usize>(
    ctx: &expanse_gpu::GpuContext,
) -> Result<(), Error> {
    ctx.prepare::<T, N>().map_err(gpu_failed)
}

fn gpu_failed(e: expanse_gpu::GpuError) -> Error {
    let kind = match e.kind {
        expanse_gpu::GpuErrorKind::Unavailable(_) => ErrorKind::BackendUnavailable,
        _ => ErrorKind::BackendFailed,
    };
    Error::new(kind, format!("gpu backend: {e}"))
}

fn gpu_batch<T: expanse_gpu::GpuTerm, const N: usize>(
    job: &OrbitJob,
    chunk: &OrbitChunk,
) -> expanse_gpu::OrbitBatch<T, N> {
    expanse_gpu::OrbitBatch::<T, N> {
        a: chunk
            .params
            .iter()
            .map(|p| expanse_core::Expansion::from_f64(p.0))
            .collect(),
        b: chunk
            .params
            .iter()
            .map(|p| expanse_core::Expansion::from_f64(p.1))
            .collect(),
        x0: chunk.inits.iter().map(|p| p.0).collect(),
        y0: chunk.inits.iter().map(|p| p.1).collect(),
        settings: expanse_gpu::SearchSettings {
            transient: job.transient,
            pmax: job.pmax,
            tol: job.tol,
            escape: job.escape,
        },
    }
}

fn run_gpu<T: expanse_gpu::GpuTerm, const N: usize>(
    ctx: &expanse_gpu::GpuContext,
    job: &OrbitJob,
    chunk: &OrbitChunk,
    out: &mut Vec<OrbitRecord>,
) -> Result<(), Error> {
    let batch = gpu_batch::<T, N>(job, chunk);
    let recs = ctx.run_orbits(&batch, 0..batch.len()).map_err(gpu_failed)?;
    out.extend(recs.iter().map(from_gpu_record));
    Ok(())
}

/// The sparse path: the kernel counts statuses and keeps only escapes and (unconfirmed)
/// cycles, so neither the device nor the host handles one record per orbit.
fn run_gpu_sparse<T: expanse_gpu::GpuTerm, const N: usize>(
    ctx: &expanse_gpu::GpuContext,
    job: &OrbitJob,
    chunk: &OrbitChunk,
    out: &mut SparseRecords,
    profile: &mut BackendProfile,
) -> Result<(), Error> {
    let batch = gpu_batch::<T, N>(job, chunk);
    let res = ctx
        .run_orbits_sparse(&batch, 0..batch.len())
        .map_err(gpu_failed)?;
    let mut g = profile.gpu.unwrap_or_default();
    g.add(&res.profile);
    profile.gpu = Some(g);
    let t = std::time::Instant::now();
    let kept = res.kept.len() as u64;
    let absent = chunk.len() - kept.min(chunk.len());
    if kept + res.counts[1] != chunk.len() || absent != res.counts[1] {
        return Err(Error::new(
            ErrorKind::BackendFailed,
            format!(
                "gpu backend: {kept} kept records and {} no-cycle orbits for {} orbits",
                res.counts[1],
                chunk.len()
            ),
        ));
    }
    // Converted on all cores: the GPU waits for this before the next chunk's launch.
    *out = res
        .kept
        .par_iter()
        .map(|(g, r)| (*g, from_gpu_record(r)))
        .collect();
    profile.convert_s += t.elapsed().as_secs_f64();
    Ok(())
}

/// Converts a record of the GPU crate (terms of T) to this crate's plain record (terms
/// widened exactly to f64).
pub fn from_gpu_record<T: expanse_core::FloatTerm, const N: usize>(
    r: &expanse_gpu::OrbitRecord<T, N>,
) -> OrbitRecord {
    use crate::orbit::OrbitStatus as S;
    let mut o = blank_record();
    o.status = match r.status {
        expanse_gpu::OrbitStatus::Escaped => S::Escaped,
        expanse_gpu::OrbitStatus::NoCycle => S::NoCycle,
        expanse_gpu::OrbitStatus::Unconfirmed => S::Unconfirmed,
        expanse_gpu::OrbitStatus::Cycle => S::Cycle,
    };
    o.steps = r.steps;
    o.period = r.period;
    o.residual = r.residual;
    o.trace = r.trace;
    o.det = r.det;
    for i in 0..N {
        o.x[i] = r.x[i].to_f64();
        o.y[i] = r.y[i].to_f64();
    }
    o
}

impl Backend for GpuBackend {
    fn describe(&self) -> String {
        format!("gpu: {}", self.ctx.describe())
    }

    fn chunk_iterations(&self) -> u64 {
        // A GPU runs 10^10–10^11 iterations/s: about a second of work per chunk.
        1 << 36
    }

    fn chunk_orbits(&self) -> (u64, u64) {
        // At least the GPU crate's preferred batch (about 32 waves of full occupancy on every
        // GPU), so one chunk keeps the devices busy; the sparse path keeps host memory small.
        let p = self.ctx.preferred_batch_orbits().max(1 << 17);
        (2 * p, 4 * p)
    }

    fn limb_chunk(&self, bits: u32) -> (u64, (u64, u64)) {
        // One thread per orbit; a multiprocessor keeps far fewer limb threads resident than
        // expansion threads (local memory), so 1/32 of the expansion batch fills the GPUs.
        let p = (self.ctx.preferred_batch_orbits() / 32).max(1 << 12);
        (
            (self.chunk_iterations() / limb_step_cost(bits)).max(1),
            (p, 4 * p),
        )
    }

    fn run_sparse(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<SparseRecords, Error> {
        let mut out = Vec::new();
        if chunk.is_empty() {
            return Ok(out);
        }
        let t = std::time::Instant::now();
        // The engine runs one chunk at a time, so this lock is never contended.
        let mut profile = self.profile.lock().unwrap_or_else(|e| e.into_inner());
        if job.limb_bits.is_some() {
            let r = crate::limb::run_gpu_sparse(&self.ctx, job, chunk);
            profile.chunks += 1;
            profile.busy_s += t.elapsed().as_secs_f64();
            return r;
        }
        let r = dispatch!(
            job.base,
            job.terms,
            run_gpu_sparse(&self.ctx, job, chunk, &mut out, &mut profile)
        );
        profile.chunks += 1;
        profile.busy_s += t.elapsed().as_secs_f64();
        r?;
        Ok(out)
    }

    fn prepare(&self, job: &OrbitJob) -> Result<(), Error> {
        if job.limb_bits.is_some() {
            return Ok(());
        }
        dispatch!(job.base, job.terms, prepare_gpu(&self.ctx))
    }

    fn profile(&self) -> Option<BackendProfile> {
        Some(*self.profile.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn run(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<Vec<OrbitRecord>, Error> {
        let mut out = Vec::with_capacity(chunk.len() as usize);
        if chunk.is_empty() {
            return Ok(out);
        }
        if job.limb_bits.is_some() {
            let sparse = crate::limb::run_gpu_sparse(&self.ctx, job, chunk)?;
            return Ok(crate::limb::full_of_sparse(job, chunk.len(), sparse));
        }
        dispatch!(
            job.base,
            job.terms,
            run_gpu(&self.ctx, job, chunk, &mut out)
        )?;
        Ok(out)
    }
}

/// Which backend the user asked for (`--backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    /// The GPU when usable, else the CPU (saying why).
    Auto,
    /// The CPU backend.
    Cpu,
    /// The GPU backend; an error when no GPU is usable.
    Gpu,
}

impl BackendChoice {
    /// Parses `auto`, `cpu` or `gpu`.
    pub fn parse(s: &str) -> Result<Self, Error> {
        match s.trim() {
            "auto" => Ok(Self::Auto),
            "cpu" => Ok(Self::Cpu),
            "gpu" => Ok(Self::Gpu),
            other => Err(Error::spec(
                "--backend",
                format!("{other:?}: expected auto, cpu or gpu"),
            )),
        }
    }
}

/// A backend chosen for a run, with a note for the user when `auto` fell back.
pub struct Selected {
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// Why the GPU is not used, when `auto` fell back to the CPU.
    pub note: Option<String>,
}

/// The GPUs of `devices` (`all` or `0,1,…`), or why none is usable.
fn probe_gpu(devices: &str) -> Result<Result<GpuBackend, String>, Error> {
    let sel: expanse_gpu::DeviceSelection = devices
        .parse()
        .map_err(|e: String| Error::new(ErrorKind::InvalidSpec, e))?;
    Ok(match expanse_gpu::GpuContext::probe_devices(&sel) {
        Ok(ctx) => Ok(GpuBackend {
            ctx,
            profile: Default::default(),
        }),
        Err(u) => Err(u.reason),
    })
}

/// Picks the backend for `choice`; `devices` (`all` or `0,1,…`) selects the GPUs.
pub fn select_backend(choice: BackendChoice, devices: &str) -> Result<Selected, Error> {
    match choice {
        BackendChoice::Cpu => Ok(Selected {
            backend: Box::new(CpuBackend),
            note: None,
        }),
        BackendChoice::Gpu => match probe_gpu(devices)? {
            Ok(g) => Ok(Selected {
                backend: Box::new(g),
                note: None,
            }),
            Err(reason) => Err(Error::new(
                ErrorKind::BackendUnavailable,
                format!("--backend gpu: no usable GPU: {reason}"),
            )),
        },
        BackendChoice::Auto => match probe_gpu(devices)? {
            Ok(g) => {
                let note = format!("using the GPU backend: {}", g.describe());
                Ok(Selected {
                    backend: Box::new(g),
                    note: Some(note),
                })
            }
            Err(reason) => Ok(Selected {
                backend: Box::new(CpuBackend),
                note: Some(format!("using the CPU: no usable GPU: {reason}")),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orbit::run_orbit;

    #[test]
    fn run_breakdown_accounts_for_the_wall_time() {
        let gpu = expanse_gpu::LaunchProfile {
            setup_s: 0.25,
            upload_s: 0.125,
            kernel_s: 8.0,
            download_s: 0.5,
            host_s: 0.25,
            launches: 2,
            orbits: 16_000,
            max_launch_orbits: 16_000,
            block_threads: 128,
            multiprocessors: 132,
            phase_cycles: [3, 1, 0],
        };
        let p = BackendProfile {
            chunks: 2,
            busy_s: 9.5,
            convert_s: 0.125,
            gpu: Some(gpu),
        };
        let b = RunBreakdown::new(10.0, 4_000_000_000, &p);
        assert_eq!(b.phases_s, [6.0, 2.0, 0.0]);
        assert_eq!(b.host_s, 0.375);
        assert_eq!(b.engine_s, 0.5);
        assert_eq!(b.backend_other_s, 9.5 - 9.125 - 0.125);
        let parts = b.setup_s
            + b.upload_s
            + b.kernel_s
            + b.download_s
            + b.host_s
            + b.backend_other_s
            + b.engine_s;
        assert_eq!(parts, b.wall_s);
        assert_eq!(b.kernel_rate(), 5e8);
        assert_eq!(b.end_to_end_rate(), 4e8);
        // A backend without launches (the CPU, a limb search): no kernel rate.
        let none = RunBreakdown::new(1.0, 10, &BackendProfile::default());
        assert_eq!((none.kernel_rate(), none.engine_s), (0.0, 1.0));
        assert!(CpuBackend.profile().is_none());
    }

    #[test]
    fn cpu_backend_equals_the_one_orbit_reference_for_every_width() {
        // 77 orbits: more than two items of `cpu_lanes` (so whole SIMD lane groups run) and
        // not a multiple of any lane width (so the scalar remainder runs too); sinks, chaos
        // and escapes mixed, also within one lane group.
        let tasks: Vec<OrbitTask> = (0..77)
            .map(|i| OrbitTask {
                a: [1.0, 1.25, 1.4, 2.0, 0.3][i % 5],
                b: 0.3,
                x0: 0.11 * i as f64 - 0.6,
                y0: 0.03 * i as f64 - 0.2,
            })
            .collect();
        for (base, terms) in [
            (Base::F64, 1),
            (Base::F64, 2),
            (Base::F64, 3),
            (Base::F64, 8),
            (Base::F32, 1),
            (Base::F32, 3),
        ] {
            let job = OrbitJob {
                transient: 2100,
                pmax: 16,
                tol: if base == Base::F64 { 1e-10 } else { 1e-5 },
                escape: 1e3,
                terms,
                base,
                limb_bits: None,
            };
            let got = CpuBackend.run_tasks(&job, &tasks).unwrap();
            let cycles = got
                .iter()
                .filter(|r| r.status == crate::orbit::OrbitStatus::Cycle);
            assert!(cycles.count() >= 4, "{base:?} {terms}");
            for (t, g) in tasks.iter().zip(got.iter()) {
                let want = match (base, terms) {
                    (Base::F64, 1) => run_orbit::<f64, 1>(&job, t),
                    (Base::F64, 2) => run_orbit::<f64, 2>(&job, t),
                    (Base::F64, 3) => run_orbit::<f64, 3>(&job, t),
                    (Base::F64, 8) => run_orbit::<f64, 8>(&job, t),
                    (Base::F32, 1) => run_orbit::<f32, 1>(&job, t),
                    _ => run_orbit::<f32, 3>(&job, t),
                };
                assert!(g.bit_identical(&want), "{base:?} {terms} {t:?}");
            }
        }
    }
}
