//! The search in fixed-limb floats (`--prec NNNb`, 64..=4096 bits): the glue between the
//! engine and `expanse_gpu::henon_limb`, which holds the per-orbit contract (the expansion
//! contract of [`crate::orbit`] with the map in correctly rounded p-bit arithmetic and hi(z) =
//! z rounded to the nearest f64), its CPU reference and its CUDA twin. Both backends run
//! that one contract, so their records, and hence the candidate files, are bit-identical.
//!
//! A record's point is the canonical cycle point at p bits; the candidate line carries it as
//! its nearest 8-term f64 expansion (greedy: each term the nearest f64 to what the earlier
//! ones leave, `LimbFloat::to_expansion`), about 8·53 = 424 bits of it, with `prec_bits` = p.
//! `expanse prove` reads the terms as any expansion and refines the orbit itself; the engine
//! deduplicates cycles on the leading terms, which are hi(x) and hi(y) of the contract.

use crate::backend::{OrbitChunk, SparseRecords};
use crate::orbit::{blank_record, OrbitJob, OrbitRecord, OrbitStatus, OrbitTask};
use crate::{Error, ErrorKind};
use expanse_gpu::henon_limb::{reference_limb_orbit, LimbOrbitBatch, LimbOrbitRecord};
use expanse_gpu::SearchSettings;
use rayon::prelude::*;

/// Terms of the expansion a candidate line carries for a limb record.
pub const RECORD_TERMS: usize = 8;

/// The limb precision of `job`, or an error for a job without one.
pub fn bits_of(job: &OrbitJob) -> Result<u32, Error> {
    job.limb_bits
        .ok_or_else(|| Error::new(ErrorKind::InvalidSpec, "not a limb-precision search"))
}

/// The contract's settings of `job`.
pub fn settings_of(job: &OrbitJob) -> SearchSettings {
    SearchSettings {
        transient: job.transient,
        pmax: job.pmax,
        tol: job.tol,
        escape: job.escape,
    }
}

/// The search's plain record of a limb record: the same status, counts and f64 fields, and
/// the canonical point as its nearest 8-term expansion (zeros unless `Cycle`).
pub fn record_of(r: &LimbOrbitRecord) -> OrbitRecord {
    use expanse_gpu::OrbitStatus as G;
    let mut o = blank_record();
    o.status = match r.status {
        G::Escaped => OrbitStatus::Escaped,
        G::NoCycle => OrbitStatus::NoCycle,
        G::Unconfirmed => OrbitStatus::Unconfirmed,
        G::Cycle => OrbitStatus::Cycle,
    };
    o.steps = r.steps;
    o.period = r.period;
    o.residual = r.residual;
    o.trace = r.trace;
    o.det = r.det;
    let (x, y) = (
        r.x.to_expansion::<RECORD_TERMS>(),
        r.y.to_expansion::<RECORD_TERMS>(),
    );
    o.x.copy_from_slice(x.terms());
    o.y.copy_from_slice(y.terms());
    o
}

/// Runs the contract on every task on all cores (one orbit per rayon item).
pub fn run_cpu(job: &OrbitJob, tasks: &[OrbitTask]) -> Result<Vec<OrbitRecord>, Error> {
    let bits = bits_of(job)?;
    let s = settings_of(job);
    Ok(tasks
        .par_iter()
        .with_max_len(1)
        .map(|t| record_of(&reference_limb_orbit(bits, &s, t.a, t.b, t.x0, t.y0)))
        .collect())
}

/// The GPU batch of a chunk (parameters × initial points, as f64).
pub fn gpu_batch(job: &OrbitJob, chunk: &OrbitChunk) -> Result<LimbOrbitBatch, Error> {
    Ok(LimbOrbitBatch {
        prec: bits_of(job)?,
        a: chunk.params.iter().map(|p| p.0).collect(),
        b: chunk.params.iter().map(|p| p.1).collect(),
        x0: chunk.inits.iter().map(|p| p.0).collect(),
        y0: chunk.inits.iter().map(|p| p.1).collect(),
        settings: settings_of(job),
    })
}

/// Runs a chunk on the GPUs of `ctx`: the sparse records (every orbit absent is `NoCycle`).
pub fn run_gpu_sparse(
    ctx: &expanse_gpu::GpuContext,
    job: &OrbitJob,
    chunk: &OrbitChunk,
) -> Result<SparseRecords, Error> {
    let batch = gpu_batch(job, chunk)?;
    let res = ctx.run_limb_orbits(&batch, 0..batch.len()).map_err(|e| {
        let kind = match e.kind {
            expanse_gpu::GpuErrorKind::Unavailable(_) => ErrorKind::BackendUnavailable,
            _ => ErrorKind::BackendFailed,
        };
        Error::new(kind, format!("gpu backend: {e}"))
    })?;
    sparse_of_limb(res, chunk.len())
}

/// The sparse records of a chunk of `len` orbits from the GPU's result (status counts and the
/// records of every orbit that is not `NoCycle`, in orbit order), checked for consistency.
pub fn sparse_of_limb(
    res: expanse_gpu::henon_limb::LimbSparse,
    len: u64,
) -> Result<SparseRecords, Error> {
    let kept = res.kept.len() as u64;
    if kept + res.counts[1] != len || res.counts.iter().sum::<u64>() != len {
        return Err(Error::new(
            ErrorKind::BackendFailed,
            format!(
                "gpu backend: {kept} kept records and {} no-cycle orbits for {len} orbits",
                res.counts[1]
            ),
        ));
    }
    Ok(res
        .kept
        .par_iter()
        .map(|(g, r)| (*g, record_of(r)))
        .collect())
}

/// Full records (one per orbit) from sparse ones: the absent orbits are the contract's
/// NO_CYCLE record (steps = transient + p_max).
pub fn full_of_sparse(job: &OrbitJob, len: u64, sparse: SparseRecords) -> Vec<OrbitRecord> {
    let mut none = blank_record();
    none.steps = job.transient.saturating_add(job.pmax as u64);
    let mut out = vec![none; len as usize];
    for (g, r) in sparse {
        out[g as usize] = r;
    }
    out
}
