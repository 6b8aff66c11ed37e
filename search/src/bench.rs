//! Search throughput of the CPU backend, for `expanse bench cpu`: Hénon iterations per second
//! on all cores (rayon's pool), for a given precision.
//!
//! The workload is the search itself ([`CpuBackend`] on the contract of [`crate::orbit`]) at
//! the classical parameters (1.4, 0.3), where orbits stay on the chaotic attractor, so almost
//! every orbit runs its full transient plus p_max steps (no early exits). The transient is
//! calibrated so that one measurement lasts about the requested time; the rate is total
//! steps over wall time.

use crate::backend::{dispatch, CpuBackend};
use crate::orbit::{blank_record, Base, OrbitJob, OrbitRecord, OrbitTask};
use crate::spec::random_init_point;
use crate::Error;
use std::time::{Duration, Instant};

/// One throughput measurement.
#[derive(Clone, Debug)]
pub struct Throughput {
    /// Number of terms N.
    pub terms: usize,
    /// Term type.
    pub base: Base,
    /// Threads used.
    pub threads: usize,
    /// Orbits run.
    pub orbits: u64,
    /// Map iterations run.
    pub iterations: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// CPU time of the process during the run (all threads).
    pub cpu_time: Duration,
}

impl Throughput {
    /// Hénon iterations per second of wall time.
    pub fn iterations_per_s(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Hénon iterations per second as if every thread had its core to itself: iterations over
    /// CPU time, times the threads (on a shared machine the wall-clock rate understates this).
    pub fn iterations_per_s_on_cpu(&self) -> f64 {
        self.iterations as f64 * self.threads as f64 / self.cpu_time.as_secs_f64().max(1e-9)
    }
}

/// CPU time used so far by this process (all threads).
fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if r != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// How the orbits of one thread are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// What the search uses ([`CpuBackend`], [`crate::backend::cpu_lanes`] lanes).
    Lockstep,
    /// One orbit at a time (the baseline).
    OneAtATime,
}

fn one_at_a_time<T: expanse_core::FloatTerm, const N: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    crate::backend::run_cpu_lanes::<T, N, 1>(job, tasks, out)
}

/// Runs the contract on `tasks` with the given per-thread schedule (for benchmarks).
///
/// (Fixed lockstep widths of 2, 4 and 8 orbits were measured once to choose the search's; each
/// width instantiated the whole orbit loop for every N and term type, so they are gone.)
pub fn run_schedule(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    schedule: Schedule,
) -> Result<Vec<OrbitRecord>, Error> {
    match schedule {
        Schedule::Lockstep => CpuBackend.run_tasks(job, tasks),
        Schedule::OneAtATime => {
            let mut out = vec![blank_record(); tasks.len()];
            dispatch!(job.base, job.terms, one_at_a_time(job, tasks, &mut out));
            Ok(out)
        }
    }
}

fn run_once(
    terms: usize,
    base: Base,
    orbits: usize,
    transient: u64,
    schedule: Schedule,
) -> Result<Throughput, Error> {
    let job = OrbitJob {
        transient,
        pmax: 64,
        tol: 1e-10,
        escape: 1e3,
        terms,
        base,
        limb_bits: None,
    };
    let tasks: Vec<OrbitTask> = (0..orbits as u64)
        .map(|i| {
            let (x0, y0) = random_init_point(2013, i);
            OrbitTask {
                a: 1.4,
                b: 0.3,
                x0,
                y0,
            }
        })
        .collect();
    let c0 = process_cpu_time();
    let t0 = Instant::now();
    let recs = run_schedule(&job, &tasks, schedule)?;
    let elapsed = t0.elapsed();
    let cpu_time = process_cpu_time().saturating_sub(c0);
    Ok(Throughput {
        terms,
        base,
        threads: rayon::current_num_threads(),
        orbits: orbits as u64,
        iterations: recs.iter().map(|r| r.steps).sum(),
        elapsed,
        cpu_time,
    })
}

/// Measures the search throughput for N = `terms` and `base` on all cores, aiming at about
/// `target` of wall time (after a short calibration run).
pub fn search_throughput(terms: usize, base: Base, target: Duration) -> Result<Throughput, Error> {
    search_throughput_with(terms, base, target, Schedule::Lockstep)
}

/// [`search_throughput`] with an explicit per-thread schedule (to measure the lockstep's gain
/// against one orbit at a time in the same run).
pub fn search_throughput_with(
    terms: usize,
    base: Base,
    target: Duration,
    schedule: Schedule,
) -> Result<Throughput, Error> {
    let orbits = (rayon::current_num_threads() * 64).max(128);
    let probe = run_once(terms, base, orbits, 4096, schedule)?;
    let per_iter = probe.elapsed.as_secs_f64() / probe.iterations.max(1) as f64;
    let want_iters = target.as_secs_f64() / per_iter.max(1e-12);
    let transient = ((want_iters / orbits as f64) as u64).clamp(1024, 1 << 34);
    run_once(terms, base, orbits, transient, schedule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_counts_every_step() {
        let t = run_once(1, Base::F64, 16, 2048, Schedule::Lockstep).unwrap();
        let u = run_once(1, Base::F64, 16, 2048, Schedule::OneAtATime).unwrap();
        // Both schedules run the same orbits, step for step.
        assert_eq!(t.iterations, u.iterations);
        // At (1.4, 0.3) orbits do not settle: each runs the transient plus p_max steps
        // (escapes or close returns would only lower the count).
        assert!(t.iterations <= 16 * (2048 + 64 * 2));
        assert!(t.iterations >= 12 * (2048 + 64));
        assert!(t.iterations_per_s() > 0.0);
        assert!(t.cpu_time > Duration::ZERO && t.iterations_per_s_on_cpu().is_finite());
    }
}
