//! The engine's pipeline and sparse records, with fake backends (no GPU needed): the sparse
//! records of a chunk (every orbit that is not NO_CYCLE, as `expanse-gpu`'s
//! `run_orbits_sparse` returns them) give the same candidate lines and totals as the full
//! records; a backend that answers slowly and out of step with the writer gives the same
//! files as the CPU backend; a backend failing mid-run leaves files that `--resume` completes
//! to the same bytes.

use expanse_search::backend::{sparse_of, Backend, CpuBackend, OrbitChunk, SparseRecords};
use expanse_search::engine::{
    candidates_of_chunk, candidates_of_sparse, chunk_work, run_search, RunOptions, Shard,
};
use expanse_search::orbit::{OrbitJob, OrbitRecord, OrbitStatus};
use expanse_search::spec::{RawSpec, SearchSpec};
use expanse_search::{Error, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Parameters with sinks (1.0: period 4, 1.25: period 7), chaos (1.4) and escapes (2.0 and
/// initial points outside the basin).
fn spec() -> SearchSpec {
    SearchSpec::from_raw(&RawSpec {
        a: "1.0,1.25,1.4,2.0,1.05,1.3,1.27".into(),
        b: "0.3".into(),
        inits: 9,
        seed: 3,
        transient: "3000".into(),
        pmax: 16,
        escape: "1e3".into(),
        prec: "1".into(),
        base: "f64".into(),
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn sparse_records_give_the_same_lines_and_totals_as_full_records() {
    let s = spec();
    let n = s.param_count();
    let recs = CpuBackend.run(&s.job, &chunk_work(&s, 0, n)).unwrap();
    let sparse = sparse_of(recs.clone());
    // The mix this test relies on: every status but UNCONFIRMED occurs, and NO_CYCLE orbits
    // are dropped from the sparse records.
    for st in [
        OrbitStatus::Escaped,
        OrbitStatus::NoCycle,
        OrbitStatus::Cycle,
    ] {
        assert!(recs.iter().any(|r| r.status == st), "{st:?}");
    }
    assert!(sparse.len() < recs.len());
    assert!(sparse.iter().all(|(_, r)| r.status != OrbitStatus::NoCycle));
    let full = candidates_of_chunk(&s, 0, n, &recs);
    let sp = candidates_of_sparse(&s, 0, n, &sparse);
    assert_eq!(full.0, sp.0);
    assert_eq!(full.1, sp.1);
    assert!(full.1.candidates >= 2 && full.1.escaped > 0);
    // The iterations are the sum of every record's steps (NO_CYCLE: transient + p_max).
    let steps: u64 = recs.iter().map(|r| r.steps).sum();
    assert_eq!(sp.1.iterations, steps);
    // A sub-range of parameters (a later chunk) with indices relative to the chunk.
    let per = s.inits_per_param() as usize;
    let part = &recs[2 * per..5 * per];
    assert_eq!(
        candidates_of_chunk(&s, 2, 5, part),
        candidates_of_sparse(&s, 2, 5, &sparse_of(part.to_vec()))
    );
}

/// The CPU backend's records, returned slowly (the writer and the worker overlap), failing at
/// chunk `fail_at` when set.
struct Fake {
    delay: Duration,
    fail_at: Option<u64>,
    calls: AtomicU64,
}

impl Backend for Fake {
    fn describe(&self) -> String {
        "fake".into()
    }
    fn run(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<Vec<OrbitRecord>, Error> {
        CpuBackend.run(job, chunk)
    }
    fn run_sparse(&self, job: &OrbitJob, chunk: &OrbitChunk) -> Result<SparseRecords, Error> {
        let c = self.calls.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(self.delay);
        if Some(c) == self.fail_at {
            return Err(Error::new(ErrorKind::BackendFailed, "fake failure"));
        }
        Ok(sparse_of(CpuBackend.run(job, chunk)?))
    }
}

fn opts(out: &Path, resume: bool) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        resume,
        force: false,
        shard: Shard::default(),
        chunk_size: Some(2),
        backend: "test".into(),
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("expanse-pipeline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn checkpoint_lines(out: &Path) -> usize {
    let p = format!("{}.checkpoint", out.display());
    std::fs::read_to_string(p).unwrap().lines().count()
}

#[test]
fn pipelined_fake_backend_writes_the_cpu_backends_files_and_resumes_after_a_failure() {
    let s = spec();
    let d = dir("files");
    let cpu_out = d.join("cpu.jsonl");
    let want = run_search(&s, &opts(&cpu_out, false), &CpuBackend, &mut |_| {}).unwrap();
    let want_bytes = std::fs::read(&cpu_out).unwrap();
    assert_eq!(want.chunks_total, 4);
    assert!(!want_bytes.is_empty());

    // Slow backend: the same bytes and totals.
    let slow_out = d.join("slow.jsonl");
    let slow = Fake {
        delay: Duration::from_millis(30),
        fail_at: None,
        calls: AtomicU64::new(0),
    };
    let mut seen = Vec::new();
    let got = run_search(&s, &opts(&slow_out, false), &slow, &mut |p| {
        seen.push(p.chunks_done)
    })
    .unwrap();
    assert_eq!(std::fs::read(&slow_out).unwrap(), want_bytes);
    assert_eq!(got.summary, want.summary);
    assert_eq!(seen, vec![1, 2, 3, 4]);

    // Failing at chunk 2: an error, exactly chunks 0 and 1 committed; then a resume.
    let fail_out = d.join("fail.jsonl");
    let failing = Fake {
        delay: Duration::from_millis(5),
        fail_at: Some(2),
        calls: AtomicU64::new(0),
    };
    let e = run_search(&s, &opts(&fail_out, false), &failing, &mut |_| {}).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BackendFailed);
    assert!(e.message.contains("fake failure"), "{}", e.message);
    assert_eq!(checkpoint_lines(&fail_out), 2);
    // The worker stopped at the failure (no chunk run after it).
    assert_eq!(failing.calls.load(Ordering::SeqCst), 3);
    let resumed = run_search(&s, &opts(&fail_out, true), &CpuBackend, &mut |_| {}).unwrap();
    assert_eq!(resumed.chunks_resumed, 2);
    assert_eq!(std::fs::read(&fail_out).unwrap(), want_bytes);
    assert_eq!(resumed.summary, want.summary);
    let _ = std::fs::remove_dir_all(&d);
}
