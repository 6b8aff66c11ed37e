//! The search engine: cuts the (shard's) parameter set into chunks, runs each chunk on a
//! [`Backend`], merges the cycles each parameter's initial points found, and appends the
//! candidates and a checkpoint line (both fsynced) per chunk; resumes, shards and merges.
//!
//! Chunks run one after another on the backend (each spread over all cores or GPUs) in a
//! worker thread, while this module's thread turns the previous chunk's records into lines
//! and writes them (a pipeline one chunk deep: the GPU does not wait for the host's dedup,
//! JSON and fsync). Only the writer touches the files, in chunk order, so the candidate
//! file's order is deterministic: an interrupted and resumed run, an uninterrupted run, and
//! the merge of its shards write the same bytes, whatever the backend.
//!
//! **Distinct cycles.** Within one parameter, the CYCLE records of its initial points are
//! taken in init order; a record joins an earlier cycle when the period is equal and the
//! canonical points' leading terms are within tol (max norm), otherwise it starts a new one.
//! Each cycle is written once, with the first init that reached it and the number of hits.

use crate::backend::{Backend, OrbitChunk, SparseRecords};
use crate::files::{
    create_out_parent, lock_output, read_candidates, read_manifest, seconds_text, utc_timestamp,
    write_atomic, CandidateLine, ChunkLine, NumberText, OutPaths, ParamCounts, Summary,
    CANDIDATE_SCHEMA, MANIFEST_SCHEMA,
};
use crate::hexfloat::format_f64;
use crate::orbit::{OrbitRecord, OrbitStatus};
use crate::spec::SearchSpec;
use crate::{Error, ErrorKind};
use serde_json::{json, Value};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// Shard `index` of `count` (0-based): a contiguous block of parameter indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based shard index.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Self { index: 0, count: 1 }
    }
}

impl Shard {
    /// Parses `I/N` with 0 ≤ I < N (0-based, as `SLURM_ARRAY_TASK_ID` with `--array=0-N-1`).
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = || Error::spec("--shard", format!("{s:?}: expected I/N with 0 ≤ I < N"));
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }

    /// The parameter indices `[lo, hi)` of this shard among `params`: shard i gets
    /// `[⌊i·P/N⌋, ⌊(i+1)·P/N⌋)`, so the shards in order tile the set.
    pub fn range(&self, params: u64) -> (u64, u64) {
        let at = |i: u64| ((i as u128 * params as u128) / self.count as u128) as u64;
        (at(self.index), at(self.index + 1))
    }

    fn to_json(self) -> Value {
        json!({"index": self.index, "count": self.count})
    }
}

/// How a run writes its files.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The candidates file (`--out`).
    pub out: PathBuf,
    /// Continue an interrupted run of the same spec (`--resume`).
    pub resume: bool,
    /// Overwrite existing output (`--force`).
    pub force: bool,
    /// The shard to run (`--shard`).
    pub shard: Shard,
    /// Parameters per chunk (`--chunk-size`); `None` picks one from the work per orbit.
    pub chunk_size: Option<u64>,
    /// A description of the backend for the manifest.
    pub backend: String,
}

/// Progress of a run, reported after each chunk.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Chunks finished (including those of earlier sessions).
    pub chunks_done: u64,
    /// Chunks in the shard.
    pub chunks_total: u64,
    /// Parameters finished.
    pub params_done: u64,
    /// Parameters in the shard.
    pub params_total: u64,
    /// Map iterations in this session.
    pub iterations: u64,
    /// Time since this session started.
    pub elapsed: Duration,
    /// Chunks found finished at start (resume).
    pub chunks_resumed: u64,
    /// Set (in a report of its own, before any chunk) when this run took over the lock file
    /// of a run that ended without removing it (killed): that run's process id.
    pub took_over_lock_of: Option<u32>,
}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Totals over the whole shard (all sessions).
    pub summary: Summary,
    /// Iterations run in this session.
    pub session_iterations: u64,
    /// Wall time of this session.
    pub elapsed: Duration,
    /// Chunks found finished at start.
    pub chunks_resumed: u64,
    /// Chunks in the shard.
    pub chunks_total: u64,
}

impl RunReport {
    /// Iterations per second in this session.
    pub fn rate(&self) -> f64 {
        self.session_iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The default parameters per chunk for `backend`: about [`Backend::chunk_iterations`] map
/// iterations per chunk, within [`Backend::chunk_orbits`] orbits.
pub fn default_chunk_size(spec: &SearchSpec, backend: &dyn Backend) -> u64 {
    let per_orbit = spec.job.transient + 2 * spec.job.pmax as u64 + 1;
    let (iterations, (lo, hi)) = match spec.job.limb_bits {
        Some(bits) => backend.limb_chunk(bits),
        None => (backend.chunk_iterations(), backend.chunk_orbits()),
    };
    let orbits = (iterations / per_orbit).clamp(lo, hi);
    (orbits / spec.inits_per_param()).max(1)
}

/// The orbits of parameters `[lo, hi)`: every parameter with every initial point.
pub fn chunk_work(spec: &SearchSpec, lo: u64, hi: u64) -> OrbitChunk {
    OrbitChunk {
        params: (lo..hi)
            .map(|p| {
                let (a, b) = spec.param(p);
                (a.value, b.value)
            })
            .collect(),
        inits: spec.all_init_points(),
    }
}

/// Turns the records of parameters `[lo, hi)` (one per orbit, inits in order) into candidate
/// lines and the chunk's totals.
pub fn candidates_of_chunk(
    spec: &SearchSpec,
    lo: u64,
    hi: u64,
    records: &[OrbitRecord],
) -> (Vec<CandidateLine>, Summary) {
    let kept = records.iter().enumerate().map(|(i, r)| (i as u64, r));
    candidates_of_records(spec, lo, hi, kept)
}

/// [`candidates_of_chunk`] from the sparse records of a backend ([`SparseRecords`]: every
/// orbit absent is `NoCycle` with steps = transient + p_max); the same lines and totals as
/// from the full records.
pub fn candidates_of_sparse(
    spec: &SearchSpec,
    lo: u64,
    hi: u64,
    kept: &SparseRecords,
) -> (Vec<CandidateLine>, Summary) {
    candidates_of_records(spec, lo, hi, kept.iter().map(|(g, r)| (*g, r)))
}

/// The one implementation behind [`candidates_of_chunk`] and [`candidates_of_sparse`]:
/// `kept` gives (orbit index in the chunk, record) in increasing order; orbits it skips are
/// `NoCycle` with steps = transient + p_max.
fn candidates_of_records<'r>(
    spec: &SearchSpec,
    lo: u64,
    hi: u64,
    kept: impl Iterator<Item = (u64, &'r OrbitRecord)>,
) -> (Vec<CandidateLine>, Summary) {
    let n = spec.inits_per_param() as usize;
    let nocycle_steps = spec.job.transient.saturating_add(spec.job.pmax as u64);
    let mut kept = kept.peekable();
    let mut lines = Vec::new();
    let mut sum = Summary {
        params: hi - lo,
        ..Default::default()
    };
    for pi in 0..(hi - lo) {
        let p = lo + pi;
        let first = pi * n as u64;
        let end = first + n as u64;
        let mut counts = ParamCounts {
            inits: n as u64,
            ..Default::default()
        };
        // (first init, record, hits)
        let mut cycles: Vec<(usize, &OrbitRecord, u64)> = Vec::new();
        let mut seen = 0u64;
        while let Some((g, r)) = kept.next_if(|(g, _)| *g < end) {
            debug_assert!(g >= first, "records out of order");
            let i = (g - first) as usize;
            seen += 1;
            sum.iterations = sum.iterations.saturating_add(r.steps);
            match r.status {
                OrbitStatus::Escaped => counts.escaped += 1,
                OrbitStatus::NoCycle => counts.no_cycle += 1,
                OrbitStatus::Unconfirmed => counts.unconfirmed += 1,
                OrbitStatus::Cycle => {
                    counts.cycle += 1;
                    let same = cycles.iter_mut().find(|(_, c, _)| {
                        c.period == r.period
                            && (c.x[0] - r.x[0]).abs().max((c.y[0] - r.y[0]).abs()) < spec.job.tol
                    });
                    match same {
                        Some(c) => c.2 += 1,
                        None => cycles.push((i, r, 1)),
                    }
                }
            }
        }
        // The orbits not given are NoCycle.
        let absent = n as u64 - seen;
        counts.no_cycle += absent;
        sum.iterations = sum
            .iterations
            .saturating_add(absent.saturating_mul(nocycle_steps));
        sum.orbits += n as u64;
        sum.escaped += counts.escaped;
        sum.no_cycle += counts.no_cycle;
        sum.unconfirmed += counts.unconfirmed;
        sum.cycle += counts.cycle;
        if cycles.is_empty() {
            continue;
        }
        let terms = spec.job.terms;
        let (a, b) = spec.param(p);
        for (i, r, hits) in cycles {
            let attracting = r.trace.abs() < 1.0 + r.det;
            let (x0, y0) = spec.init_point(i as u64);
            sum.candidates += 1;
            sum.attracting += attracting as u64;
            *sum.by_period.entry(r.period).or_default() += 1;
            lines.push(CandidateLine {
                schema: CANDIDATE_SCHEMA.to_string(),
                map: "henon".to_string(),
                param_index: p,
                a: NumberText {
                    decimal: a.decimal.clone(),
                    hex: format_f64(a.value),
                },
                b: NumberText {
                    decimal: b.decimal.clone(),
                    hex: format_f64(b.value),
                },
                period: r.period,
                x: r.x[..terms].iter().map(|t| format_f64(*t)).collect(),
                y: r.y[..terms].iter().map(|t| format_f64(*t)).collect(),
                prec: terms,
                prec_bits: spec.job.limb_bits,
                base: spec.job.base.name().to_string(),
                residual: format_f64(r.residual),
                trace_estimate: format_f64(r.trace),
                det: format_f64(r.det),
                attracting_estimate: attracting,
                init_index: i as u64,
                init_point: [format_f64(x0), format_f64(y0)],
                hits,
                transient: spec.job.transient,
                steps: r.steps,
                tol: format_f64(spec.job.tol),
                param_orbits: counts,
            });
        }
    }
    (lines, sum)
}

/// State recovered from a checkpoint.
#[derive(Debug)]
struct Recovered {
    chunks: Vec<ChunkLine>,
    checkpoint_len: u64,
}

/// Reads the checkpoint: complete, parseable lines with chunk indices 0, 1, 2, …; a torn or
/// unparseable *last* line is dropped (it was being written when the run stopped).
fn read_checkpoint(path: &Path) -> Result<Recovered, Error> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(path, "read checkpoint", e)),
    };
    let mut chunks = Vec::new();
    let mut good_len = 0usize;
    let mut pos = 0usize;
    let mut line_no = 0usize;
    while pos < bytes.len() {
        line_no += 1;
        let Some(nl) = bytes[pos..].iter().position(|&c| c == b'\n') else {
            break; // torn last line: no newline
        };
        let line = &bytes[pos..pos + nl];
        let next = pos + nl + 1;
        match serde_json::from_slice::<ChunkLine>(line) {
            Ok(c) => {
                if c.chunk != chunks.len() as u64 {
                    return Err(Error::bad_file(
                        path,
                        format!(
                            "line {line_no}: chunk {} out of order (expected {})",
                            c.chunk,
                            chunks.len()
                        ),
                    ));
                }
                chunks.push(c);
                good_len = next;
            }
            Err(e) => {
                if next < bytes.len() {
                    return Err(Error::bad_file(
                        path,
                        format!("line {line_no}: not a checkpoint line: {e}"),
                    ));
                }
                break; // unparseable last line: dropped
            }
        }
        pos = next;
    }
    Ok(Recovered {
        chunks,
        checkpoint_len: good_len as u64,
    })
}

fn describe_difference(old: &Value, new: &Value) -> String {
    match (old.as_object(), new.as_object()) {
        (Some(o), Some(n)) => {
            let mut keys: Vec<&String> = o
                .keys()
                .chain(n.keys())
                .filter(|k| o.get(*k) != n.get(*k))
                .collect();
            keys.sort();
            keys.dedup();
            keys.iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
        _ => "everything".to_string(),
    }
}

fn open_append(path: &Path) -> Result<std::fs::File, Error> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| Error::io(path, "open", e))
}

/// Runs (or resumes) a search of `spec`, writing the files of `opts.out`; `progress` is
/// called after each chunk. Validation errors are returned before any file is touched.
pub fn run_search(
    spec: &SearchSpec,
    opts: &RunOptions,
    backend: &dyn Backend,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RunReport, Error> {
    let started = Instant::now();
    let started_wall = SystemTime::now();
    let paths = OutPaths::new(&opts.out);
    if opts.resume && opts.force {
        return Err(Error::spec("--resume", "cannot be combined with --force"));
    }
    if opts.chunk_size == Some(0) {
        return Err(Error::spec("--chunk-size", "must be at least 1"));
    }
    let spec_json = spec.to_json();
    let (lo, hi) = opts.shard.range(spec.param_count());
    let exists = paths.any_exists();
    if exists && !opts.resume && !opts.force {
        return Err(Error::new(
            ErrorKind::OutputExists,
            format!(
                "--out: {} already exists (use --resume to continue that run or --force to overwrite it)",
                paths.candidates.display()
            ),
        ));
    }
    let mut chunk_size = opts
        .chunk_size
        .unwrap_or_else(|| default_chunk_size(spec, backend));
    let mut sessions: Vec<Value> = Vec::new();
    let mut done: Vec<ChunkLine> = Vec::new();
    // Only one process may write these files at a time (a second `--resume` or `--force`
    // while a run is alive would corrupt them).
    create_out_parent(&opts.out)?;
    let lock = lock_output(&paths)?;
    if let Some(pid) = lock.took_over_from {
        progress(&Progress {
            took_over_lock_of: Some(pid),
            chunks_total: 0,
            ..Progress::default()
        });
    }
    let resuming = opts.resume && exists;
    if resuming {
        let m = read_manifest(&paths.manifest)?;
        let mismatch = |what: String| {
            Error::new(
                ErrorKind::SpecMismatch,
                format!(
                    "--resume: {} was written by a different search ({what}); use another --out or --force",
                    paths.candidates.display()
                ),
            )
        };
        if m["spec"] != spec_json {
            return Err(mismatch(format!(
                "spec differs in: {}",
                describe_difference(&m["spec"], &spec_json)
            )));
        }
        if m["shard"] != opts.shard.to_json() {
            return Err(mismatch(format!(
                "shard {} vs {}",
                m["shard"],
                opts.shard.to_json()
            )));
        }
        if m.get("merged_from").is_some() {
            return Err(Error::bad_file(
                &paths.candidates,
                "written by `expanse merge`; there is nothing to resume (use another --out or --force)",
            ));
        }
        let old_chunk = m["chunk_size"]
            .as_u64()
            .filter(|&c| c > 0)
            .ok_or_else(|| Error::bad_file(&paths.manifest, "no valid chunk_size"))?;
        match opts.chunk_size {
            Some(c) if c != old_chunk => {
                return Err(mismatch(format!("--chunk-size {old_chunk} vs {c}")))
            }
            _ => chunk_size = old_chunk,
        }
        if let Some(s) = m["sessions"].as_array() {
            sessions = s.clone();
        }
        let rec = read_checkpoint(&paths.checkpoint)?;
        let end = rec.chunks.last().map(|c| c.end).unwrap_or(0);
        let len = std::fs::metadata(&paths.candidates)
            .map(|m| m.len())
            .unwrap_or(0);
        if len < end {
            return Err(Error::bad_file(
                &paths.candidates,
                format!("shorter ({len} bytes) than its checkpoint says ({end} bytes)"),
            ));
        }
        // Drop what was written after the last committed chunk (and a torn checkpoint line).
        let trunc = |p: &Path, n: u64| -> Result<(), Error> {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(p)
                .map_err(|e| Error::io(p, "open", e))?;
            f.set_len(n).map_err(|e| Error::io(p, "truncate", e))?;
            f.sync_all().map_err(|e| Error::io(p, "sync", e))
        };
        trunc(&paths.candidates, end)?;
        trunc(&paths.checkpoint, rec.checkpoint_len)?;
        done = rec.chunks;
    } else {
        // Fresh run (or --force): remove the old files, then write the manifest, then create
        // the candidates and checkpoint files (below), so that a run killed at any point
        // leaves either nothing to resume or a manifest whose checkpoint is empty or its own.
        for p in [&paths.checkpoint, &paths.candidates] {
            match std::fs::remove_file(p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(p, "remove", e)),
            }
        }
    }
    let chunks_total = (hi - lo).div_ceil(chunk_size);
    let chunks_resumed = done.len() as u64;
    let manifest = |status: &str, summary: &Summary, sessions: &[Value]| -> Value {
        json!({
            "schema": MANIFEST_SCHEMA,
            "tool": format!("expanse {}", env!("CARGO_PKG_VERSION")),
            "status": status,
            "spec": spec_json,
            "shard": opts.shard.to_json(),
            "params": {"total": spec.param_count(), "shard_lo": lo, "shard_hi": hi},
            "chunk_size": chunk_size,
            "chunks": chunks_total,
            "files": {
                "candidates": file_name(&paths.candidates),
                "checkpoint": file_name(&paths.checkpoint),
            },
            "sessions": sessions,
            "summary": summary,
        })
    };
    let mut total = Summary::default();
    for c in &done {
        total.add(&c.summary);
    }
    let session = |finished: Option<SystemTime>, iters: u64, chunks: u64| -> Value {
        let el = started.elapsed();
        json!({
            "started_utc": utc_timestamp(started_wall),
            "finished_utc": finished.map(utc_timestamp),
            "elapsed_s": seconds_text(el),
            "backend": opts.backend,
            "chunks_run": chunks,
            "iterations": iters,
            "iterations_per_s": (iters as f64 / el.as_secs_f64().max(1e-9)) as u64,
        })
    };
    let write_manifest = |status: &str, total: &Summary, cur: Value| -> Result<(), Error> {
        let mut all = sessions.clone();
        all.push(cur);
        let text = serde_json::to_string_pretty(&manifest(status, total, &all))
            .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        write_atomic(&paths.manifest, format!("{text}\n").as_bytes())
    };
    write_manifest("running", &total, session(None, 0, 0))?;

    let mut cand = open_append(&paths.candidates)?;
    let ckpt = open_append(&paths.checkpoint)?;
    let offset = cand
        .seek(SeekFrom::End(0))
        .map_err(|e| Error::io(&paths.candidates, "seek", e))?;
    let mut writer = ChunkWriter {
        paths: &paths,
        cand,
        ckpt,
        offset,
    };
    let mut write_chunk =
        |c: u64, lines: &[CandidateLine], sum: &Summary| writer.write(c, lines, sum);
    let mut session_iters = 0u64;
    let mut chunks_run = 0u64;
    let bounds = |c: u64| {
        let clo = lo + c * chunk_size;
        (clo, (clo + chunk_size).min(hi))
    };
    // Pipeline: a worker runs the chunks on the backend in order, at most one finished chunk
    // ahead, while this thread turns the last one into lines and writes it; the files are
    // written in chunk order by this thread alone, so they do not depend on the timing.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(u64, Result<SparseRecords, Error>)>(1);
    let result = std::thread::scope(|scope| -> Result<(), Error> {
        scope.spawn(move || {
            for c in chunks_resumed..chunks_total {
                let (clo, chi) = bounds(c);
                let r = backend.run_sparse(&spec.job, &chunk_work(spec, clo, chi));
                let failed = r.is_err();
                // A closed channel means the writer stopped (an error): stop too.
                if tx.send((c, r)).is_err() || failed {
                    break;
                }
            }
        });
        for c in chunks_resumed..chunks_total {
            let (got, records) = rx.recv().map_err(|_| {
                Error::new(
                    ErrorKind::BackendFailed,
                    format!("backend {}: the worker thread stopped", opts.backend),
                )
            })?;
            debug_assert_eq!(got, c);
            let records = records?;
            let (clo, chi) = bounds(c);
            let (lines, sum) = candidates_of_sparse(spec, clo, chi, &records);
            drop(records);
            write_chunk(c, &lines, &sum)?;
            session_iters = session_iters.saturating_add(sum.iterations);
            total.add(&sum);
            chunks_run += 1;
            progress(&Progress {
                chunks_done: c + 1,
                chunks_total,
                params_done: chi - lo,
                params_total: hi - lo,
                iterations: session_iters,
                elapsed: started.elapsed(),
                chunks_resumed,
                took_over_lock_of: None,
            });
        }
        Ok(())
    });
    // (The receiver is dropped when the scope ends, so the worker cannot block on it.)
    result?;
    write_manifest(
        "complete",
        &total,
        session(Some(SystemTime::now()), session_iters, chunks_run),
    )?;
    Ok(RunReport {
        summary: total,
        session_iterations: session_iters,
        elapsed: started.elapsed(),
        chunks_resumed,
        chunks_total,
    })
}

/// Appends one chunk's candidate lines (fsynced) and then its checkpoint line (fsynced).
struct ChunkWriter<'a> {
    paths: &'a OutPaths,
    cand: std::fs::File,
    ckpt: std::fs::File,
    offset: u64,
}

impl ChunkWriter<'_> {
    fn write(&mut self, c: u64, lines: &[CandidateLine], sum: &Summary) -> Result<(), Error> {
        let paths = self.paths;
        let (cand, ckpt) = (&mut self.cand, &mut self.ckpt);
        let mut buf = Vec::new();
        for l in lines {
            serde_json::to_writer(&mut buf, l)
                .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
            buf.push(b'\n');
        }
        cand.write_all(&buf)
            .map_err(|e| Error::io(&paths.candidates, "append", e))?;
        cand.sync_data()
            .map_err(|e| Error::io(&paths.candidates, "sync", e))?;
        self.offset += buf.len() as u64;
        let line = ChunkLine {
            chunk: c,
            end: self.offset,
            summary: sum.clone(),
        };
        let mut lb =
            serde_json::to_vec(&line).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        lb.push(b'\n');
        ckpt.write_all(&lb)
            .map_err(|e| Error::io(&paths.checkpoint, "append", e))?;
        ckpt.sync_data()
            .map_err(|e| Error::io(&paths.checkpoint, "sync", e))?;
        Ok(())
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Combines the candidate files of the shards of one search into `out` (in shard order, so
/// the result equals the unsharded run's file), with a manifest. Every input must have a
/// complete manifest of the same spec and shard count, and the shards must be exactly
/// 0..N−1.
pub fn merge(inputs: &[PathBuf], out: &Path, force: bool) -> Result<Summary, Error> {
    if inputs.is_empty() {
        return Err(Error::spec("merge", "no input files given"));
    }
    let out_paths = OutPaths::new(out);
    if out_paths.any_exists() && !force {
        return Err(Error::new(
            ErrorKind::OutputExists,
            format!(
                "--out: {} already exists (use --force to overwrite it)",
                out.display()
            ),
        ));
    }
    let mut shards: Vec<(u64, PathBuf, Value)> = Vec::new();
    let mut spec: Option<(Value, u64, PathBuf)> = None;
    for input in inputs {
        let paths = OutPaths::new(input);
        let m = read_manifest(&paths.manifest)?;
        if m["status"] != "complete" {
            return Err(Error::bad_file(
                input,
                "this shard's run is not complete (finish it with --resume first)",
            ));
        }
        let count = m["shard"]["count"].as_u64().unwrap_or(0);
        let index = m["shard"]["index"].as_u64().unwrap_or(u64::MAX);
        match &spec {
            None => spec = Some((m["spec"].clone(), count, input.clone())),
            Some((s, n, first)) => {
                if *s != m["spec"] {
                    return Err(Error::new(
                        ErrorKind::SpecMismatch,
                        format!(
                            "{}: written by a different search than {} (spec differs in: {})",
                            input.display(),
                            first.display(),
                            describe_difference(s, &m["spec"])
                        ),
                    ));
                }
                if *n != count {
                    return Err(Error::new(
                        ErrorKind::SpecMismatch,
                        format!(
                            "{}: shard of {count} but {} is a shard of {n}",
                            input.display(),
                            first.display()
                        ),
                    ));
                }
            }
        }
        if shards.iter().any(|(i, _, _)| *i == index) {
            return Err(Error::bad_file(
                input,
                format!("shard {index}/{count} given twice"),
            ));
        }
        shards.push((index, input.clone(), m));
    }
    let (spec_json, count, _) = spec.expect("at least one input");
    shards.sort_by_key(|s| s.0);
    let missing: Vec<String> = (0..count)
        .filter(|i| !shards.iter().any(|s| s.0 == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::spec(
            "merge",
            format!("missing shards: {}", missing.join(", ")),
        ));
    }
    let mut bytes = Vec::new();
    let mut total = Summary::default();
    for (_, path, m) in &shards {
        // Validate every line, then copy the file's bytes as they are.
        read_candidates(path)?;
        let b = std::fs::read(path).map_err(|e| Error::io(path, "read", e))?;
        bytes.extend_from_slice(&b);
        let s: Summary = serde_json::from_value(m["summary"].clone())
            .map_err(|e| Error::bad_file(path, format!("manifest summary: {e}")))?;
        total.add(&s);
    }
    write_atomic(out, &bytes)?;
    let manifest = json!({
        "schema": MANIFEST_SCHEMA,
        "tool": format!("expanse {}", env!("CARGO_PKG_VERSION")),
        "status": "complete",
        "spec": spec_json,
        "shard": {"index": 0, "count": 1},
        "merged_from": shards.iter().map(|(_, p, _)| p.display().to_string()).collect::<Vec<_>>(),
        "merged_utc": utc_timestamp(SystemTime::now()),
        "summary": total,
    });
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
    write_atomic(&out_paths.manifest, format!("{text}\n").as_bytes())?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orbit::blank_record;
    use crate::spec::RawSpec;

    fn cycle(period: u32, x: f64, y: f64) -> OrbitRecord {
        let mut r = blank_record();
        r.status = OrbitStatus::Cycle;
        r.period = period;
        r.steps = 100 + 2 * period as u64;
        r.residual = 0.0;
        r.trace = 0.5;
        r.det = 0.09;
        r.x[0] = x;
        r.y[0] = y;
        r
    }

    #[test]
    fn cycles_of_one_parameter_are_reported_once_with_hits() {
        let spec = SearchSpec::from_raw(&RawSpec {
            a: "1.0,1.1".into(),
            b: "0.3".into(),
            inits: 5,
            transient: "100".into(),
            pmax: 8,
            escape: "1e3".into(),
            prec: "1".into(),
            base: "f64".into(),
            ..Default::default()
        })
        .unwrap();
        let mut escaped = blank_record();
        escaped.status = OrbitStatus::Escaped;
        escaped.steps = 1024;
        let recs = vec![
            // parameter 0: one period-4 cycle reached 3 times (within tol = 1e-10),
            // a different period-4 cycle (far point), and an escape.
            escaped,
            cycle(4, -0.5, 0.2),
            cycle(4, -0.5 + 5e-11, 0.2),
            cycle(4, 0.7, 0.1),
            cycle(4, -0.5, 0.2 - 5e-11),
            // parameter 1: period 2 and period 4 at the same point are different cycles.
            cycle(2, 0.1, 0.1),
            cycle(4, 0.1, 0.1),
            blank_record(),
            blank_record(),
            blank_record(),
        ];
        let (lines, sum) = candidates_of_chunk(&spec, 0, 2, &recs);
        let got: Vec<(u64, u32, u64, u64)> = lines
            .iter()
            .map(|l| (l.param_index, l.period, l.init_index, l.hits))
            .collect();
        assert_eq!(
            got,
            vec![(0, 4, 1, 3), (0, 4, 3, 1), (1, 2, 0, 1), (1, 4, 1, 1)]
        );
        assert_eq!(
            (
                sum.orbits,
                sum.escaped,
                sum.cycle,
                sum.no_cycle,
                sum.candidates
            ),
            (10, 1, 6, 3, 4)
        );
        assert_eq!(sum.by_period.get(&4), Some(&3));
        assert_eq!(lines[0].param_orbits.escaped, 1);
        assert_eq!(lines[0].a.decimal, "1.0");
        assert_eq!(lines[2].a.decimal, "1.1");
        // |0.5| < 1 + 0.09: attracting by the estimate.
        assert!(lines.iter().all(|l| l.attracting_estimate));
        assert_eq!(sum.iterations, 1024 + 5 * 108 + 104);
    }

    #[test]
    fn checkpoint_drops_a_torn_last_line_and_rejects_corruption() {
        let dir = std::env::temp_dir().join(format!("expanse-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("c.checkpoint");
        let line = |c: u64, end: u64| {
            let mut v = serde_json::to_vec(&ChunkLine {
                chunk: c,
                end,
                summary: Summary::default(),
            })
            .unwrap();
            v.push(b'\n');
            v
        };
        let good = [line(0, 10), line(1, 25)].concat();
        // Torn without newline; torn with newline (unparseable last line).
        for tail in [&b"{\"chunk\":2,\"en"[..], &b"{\"chunk\":2,\n"[..]] {
            std::fs::write(&p, [&good[..], tail].concat()).unwrap();
            let r = read_checkpoint(&p).unwrap();
            assert_eq!(r.chunks.len(), 2);
            assert_eq!(r.chunks[1].end, 25);
            assert_eq!(r.checkpoint_len, good.len() as u64);
        }
        // A bad line in the middle is corruption, not a torn write.
        std::fs::write(
            &p,
            [&line(0, 10)[..], b"garbage\n", &line(1, 25)[..]].concat(),
        )
        .unwrap();
        let e = read_checkpoint(&p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInputFile);
        assert!(e.message.contains("line 2"), "{}", e.message);
        // Chunks out of order.
        std::fs::write(&p, [line(0, 10), line(2, 25)].concat()).unwrap();
        assert!(read_checkpoint(&p)
            .unwrap_err()
            .message
            .contains("out of order"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shards_tile_the_parameter_set() {
        for p in [0u64, 1, 2, 7, 100, 1_000_003] {
            for n in 1..6u64 {
                let mut next = 0;
                for i in 0..n {
                    let (lo, hi) = Shard { index: i, count: n }.range(p);
                    assert_eq!(lo, next);
                    assert!(hi >= lo && hi - lo <= p / n + 1);
                    next = hi;
                }
                assert_eq!(next, p);
            }
        }
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("a/3").is_err());
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
    }
}
