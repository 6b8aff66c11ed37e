//! Backends: "something that maps a chunk of orbit tasks to per-orbit records". The engine
//! cuts the work into chunks and hands each to a [`Backend`]; every backend implements the
//! contract of [`crate::orbit`], so the records do not depend on which one ran.
//!
//! - [`CpuBackend`]: rayon over all cores, `LANES` orbits in lockstep per thread; the (T, N)
//!   pair is dispatched once per chunk to monomorphised code (N = 1..8 × {f64, f32}).
//! - GPU: see [`select_backend`], the one place where `expanse-gpu` plugs in.

use crate::orbit::{blank_record, run_orbits, Base, OrbitJob, OrbitRecord, OrbitTask, LANES};
use crate::{Error, ErrorKind};
use rayon::prelude::*;

/// Maps a chunk of orbit tasks to per-orbit records (one per task, same order).
pub trait Backend: Send + Sync {
    /// A short description for messages and the manifest (e.g. `"cpu (16 threads)"`).
    fn describe(&self) -> String;
    /// Runs the contract of [`crate::orbit`] on every task.
    fn run(&self, job: &OrbitJob, tasks: &[OrbitTask]) -> Result<Vec<OrbitRecord>, Error>;
}

/// The CPU backend: rayon's global pool (all cores unless `RAYON_NUM_THREADS` says otherwise).
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

/// Orbits per rayon work item (a few lockstep groups, so scheduling overhead stays small).
const ORBITS_PER_ITEM: usize = LANES;

fn run_cpu<T: expanse_core::FloatTerm, const N: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    out.par_chunks_mut(ORBITS_PER_ITEM)
        .zip(tasks.par_chunks(ORBITS_PER_ITEM))
        .with_max_len(1)
        .for_each(|(o, t)| run_orbits::<T, N>(job, t, o));
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
        format!("cpu ({} threads)", rayon::current_num_threads())
    }

    fn run(&self, job: &OrbitJob, tasks: &[OrbitTask]) -> Result<Vec<OrbitRecord>, Error> {
        let mut out = vec![blank_record(); tasks.len()];
        dispatch!(job.base, job.terms, run_cpu(job, tasks, &mut out));
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

/// Why no GPU backend can run (the reason shown to the user).
fn gpu_unavailable(_devices: &str) -> String {
    // GPU HOOK: when `expanse-gpu` exposes its batch function (params, initial points,
    // transient, pmax, tol, escape, N, T → per-orbit records of the contract), implement
    // `Backend` for a `GpuBackend` wrapping it here, return it from `select_backend` for
    // `Gpu` and `Auto`, and keep this function for the reasons it reports.
    "expanse-gpu does not provide a search kernel in this build".to_string()
}

/// Picks the backend for `choice` (`devices` is passed to the GPU crate, e.g. `all` or
/// `0,1`).
pub fn select_backend(choice: BackendChoice, devices: &str) -> Result<Selected, Error> {
    match choice {
        BackendChoice::Cpu => Ok(Selected {
            backend: Box::new(CpuBackend),
            note: None,
        }),
        BackendChoice::Gpu => Err(Error::new(
            ErrorKind::BackendUnavailable,
            format!("--backend gpu: no usable GPU: {}", gpu_unavailable(devices)),
        )),
        BackendChoice::Auto => Ok(Selected {
            backend: Box::new(CpuBackend),
            note: Some(format!(
                "using the CPU: no usable GPU: {}",
                gpu_unavailable(devices)
            )),
        }),
    }
}
