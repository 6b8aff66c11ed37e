//! Host-side cost of one search chunk, without a GPU: the seed-001 spec (a ∈ [1.3999, 1.4001],
//! 10^6 values, b = 0.3, 1024 inits, transient 10^6, p_max 1000, tol 1e-8, N = 1) cut into
//! chunks of 16384 parameters, with fake sparse records shaped like a GPU chunk's (7 % of the
//! orbits escape, every 20th parameter lies in a periodic window where the other orbits reach
//! one period-7 cycle), fed through the engine (`run_search` with a backend that hands back
//! the prepared records at once): chunk work, lines, dedup, JSON, fsync, checkpoint.
//!
//! `cargo run -p expanse-search --example host_chunk [chunks]` prints seconds per chunk.

use expanse_search::backend::{Backend, OrbitChunk, SparseRecords};
use expanse_search::engine::{candidates_of_sparse, chunk_work, run_search, RunOptions, Shard};
use expanse_search::orbit::{blank_record, OrbitJob, OrbitRecord, OrbitStatus};
use expanse_search::spec::{RawSpec, SearchSpec};
use expanse_search::Error;
use std::time::Instant;

const CHUNK: u64 = 16384;

fn fake_chunk(spec: &SearchSpec) -> SparseRecords {
    let n = spec.inits_per_param();
    let t = spec.job.transient;
    let mut out = Vec::new();
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for p in 0..CHUNK {
        for i in 0..n {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            let g = p * n + i;
            if h % 100 < 7 {
                let s = ((h >> 20) % (t / 1024)).max(1) * 1024;
                let mut r = blank_record();
                r.status = OrbitStatus::Escaped;
                r.steps = s;
                out.push((g, r));
            } else if p % 20 == 0 {
                let mut r = blank_record();
                r.status = OrbitStatus::Cycle;
                r.steps = t + 14;
                r.period = 7;
                r.residual = 1e-13;
                r.trace = -0.2;
                r.det = -2.187e-4;
                r.x[0] = -0.41 + (h % 1000) as f64 * 1e-15;
                r.y[0] = 0.12;
                out.push((g, r));
            }
        }
    }
    out
}

struct Prepared(SparseRecords);

impl Backend for Prepared {
    fn describe(&self) -> String {
        "prepared".into()
    }
    fn run(&self, _: &OrbitJob, _: &OrbitChunk) -> Result<Vec<OrbitRecord>, Error> {
        unreachable!("the engine asks for sparse records")
    }
    fn run_sparse(&self, _: &OrbitJob, _: &OrbitChunk) -> Result<SparseRecords, Error> {
        Ok(self.0.clone())
    }
}

fn main() {
    let chunks: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let spec = SearchSpec::from_raw(&RawSpec {
        a: "1.3999..1.4001".into(),
        a_steps: Some(1_000_000),
        b: "0.3".into(),
        inits: 1024,
        transient: "1e6".into(),
        pmax: 1000,
        tol: Some("1e-8".into()),
        prec: "1".into(),
        base: "f64".into(),
        escape: "1e3".into(),
        ..Default::default()
    })
    .expect("spec");
    let recs = fake_chunk(&spec);
    println!(
        "fake chunk: {CHUNK} params x {} inits, {} sparse records",
        spec.inits_per_param(),
        recs.len()
    );
    let t = Instant::now();
    let w = chunk_work(&spec, 0, CHUNK);
    println!(
        "chunk_work: {:.3} s ({} orbits)",
        t.elapsed().as_secs_f64(),
        w.len()
    );
    let t = Instant::now();
    let c = recs.clone();
    println!("clone of the records: {:.3} s", t.elapsed().as_secs_f64());
    drop(c);
    let t = Instant::now();
    let (lines, sum) = candidates_of_sparse(&spec, 0, CHUNK, &recs);
    println!(
        "candidates_of_sparse: {:.3} s ({} lines, {} escaped, {} cycle)",
        t.elapsed().as_secs_f64(),
        lines.len(),
        sum.escaped,
        sum.cycle
    );
    let t = Instant::now();
    let mut buf = Vec::new();
    for l in &lines {
        serde_json::to_writer(&mut buf, l).unwrap();
        buf.push(b'\n');
    }
    println!(
        "JSON: {:.3} s ({} bytes)",
        t.elapsed().as_secs_f64(),
        buf.len()
    );

    let dir = std::env::temp_dir().join(format!("expanse-host-chunk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("c.jsonl");
    let opts = RunOptions {
        out: out.clone(),
        resume: false,
        force: true,
        shard: Shard::default(),
        chunk_size: Some(CHUNK),
        backend: "prepared".into(),
    };
    let backend = Prepared(recs);
    let t = Instant::now();
    let mut n = 0u64;
    let mut last = Instant::now();
    let _ = run_search(&spec, &opts, &backend, &mut |p| {
        n += 1;
        println!(
            "chunk {}: {:.3} s since the previous",
            p.chunks_done,
            last.elapsed().as_secs_f64()
        );
        last = Instant::now();
        if n >= chunks {
            // Stop early: the rest of the spec is not needed for the timing.
            std::process::exit(0);
        }
    });
    println!("total {:.3} s", t.elapsed().as_secs_f64());
}
