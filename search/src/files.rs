//! The files a search writes, as typed records other tools can read back:
//!
//! - `<out>`: JSON Lines, one [`CandidateLine`] per distinct cycle found (per parameter, in
//!   parameter order, then by the first initial point that reached it). Every float is text:
//!   an exact decimal and/or a C99 hex float ([`crate::hexfloat`]); never default formatting.
//! - `<out>.checkpoint`: one [`ChunkLine`] per finished chunk, appended and fsynced
//!   *after* the chunk's candidates were appended and fsynced; it records the byte length of
//!   `<out>` at the end of the chunk, so a resume truncates `<out>` to the last committed
//!   chunk and drops a torn last line of either file.
//! - `<out>.manifest.json`: the full spec, shard, chunking, tool version, sessions with
//!   timings, status and the [`Summary`]; always written atomically (temporary file, fsync,
//!   rename).
//! - `<out>.lock`: an advisory lock (flock) held by the process writing the files, so a second
//!   `--resume` or `--force` on a live run is refused. It holds the writer's process id and is
//!   removed when the run ends; the kernel releases the flock when the process dies, so the
//!   file a killed run leaves behind is taken over by the next run (which says so).

use crate::hexfloat::parse_f64;
use crate::{Error, ErrorKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Schema tag of candidate lines.
pub const CANDIDATE_SCHEMA: &str = "expanse-candidate/1";
/// Schema tag of manifests.
pub const MANIFEST_SCHEMA: &str = "expanse-search-manifest/1";

/// A number as an exact decimal and its exact binary value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberText {
    /// Decimal text exact for the value it names.
    pub decimal: String,
    /// The binary value used, as a C99 hex float.
    pub hex: String,
}

/// How the initial points of one parameter ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamCounts {
    /// Initial points tried.
    pub inits: u64,
    /// Orbits that escaped.
    pub escaped: u64,
    /// Orbits with no close return within p_max.
    pub no_cycle: u64,
    /// Close returns not confirmed.
    pub unconfirmed: u64,
    /// Orbits that reached a confirmed cycle.
    pub cycle: u64,
}

/// One candidate: a distinct confirmed cycle of one parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateLine {
    /// [`CANDIDATE_SCHEMA`].
    pub schema: String,
    /// The map (`"henon"`).
    pub map: String,
    /// Index of the parameter in the spec's parameter set.
    pub param_index: u64,
    /// Parameter a (the grid value; with f32 terms the search iterated with its N-term f32
    /// expansion, `Expansion::from_f64`, which is exact only for N ≥ 3).
    pub a: NumberText,
    /// Parameter b (as for a).
    pub b: NumberText,
    /// Period k (smallest close return).
    pub period: u32,
    /// x of the canonical cycle point (smallest x), expansion terms as hex floats.
    pub x: Vec<String>,
    /// y of the canonical cycle point.
    pub y: Vec<String>,
    /// Number of terms N of the search arithmetic (of `x` and `y`).
    pub prec: usize,
    /// With `--prec NNNb`: the precision in bits of the limb arithmetic the search ran in
    /// (then `x` and `y` are the nearest 8-term expansion of its p-bit point); absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prec_bits: Option<u32>,
    /// Term type (`"f64"` or `"f32"`).
    pub base: String,
    /// Return distance over the confirming period (hex float).
    pub residual: String,
    /// Trace of D h^k along the cycle, estimated in f64 (hex float).
    pub trace_estimate: String,
    /// det D h^k = (−b)^k in f64 (hex float).
    pub det: String,
    /// |trace| < 1 + det: the cycle looks attracting (an estimate; the proof decides).
    pub attracting_estimate: bool,
    /// First initial point (index) that reached the cycle.
    pub init_index: u64,
    /// That initial point (hex floats).
    pub init_point: [String; 2],
    /// How many initial points of this parameter reached the cycle.
    pub hits: u64,
    /// Transient length N_t.
    pub transient: u64,
    /// Map steps of the first orbit that found it (N_t + 2k).
    pub steps: u64,
    /// Return tolerance (hex float).
    pub tol: String,
    /// How all initial points of this parameter ended.
    pub param_orbits: ParamCounts,
}

impl CandidateLine {
    /// a as f64.
    pub fn a_value(&self) -> Result<f64, Error> {
        hex_field("a.hex", &self.a.hex)
    }
    /// b as f64.
    pub fn b_value(&self) -> Result<f64, Error> {
        hex_field("b.hex", &self.b.hex)
    }
    /// The terms of x (f64; exact also for f32 terms).
    pub fn x_terms(&self) -> Result<Vec<f64>, Error> {
        self.x.iter().map(|t| hex_field("x", t)).collect()
    }
    /// The terms of y.
    pub fn y_terms(&self) -> Result<Vec<f64>, Error> {
        self.y.iter().map(|t| hex_field("y", t)).collect()
    }
}

fn hex_field(name: &str, s: &str) -> Result<f64, Error> {
    parse_f64(s).map_err(|e| Error::new(ErrorKind::BadInputFile, format!("{name}: {e}")))
}

/// Totals over orbits (of a chunk, a run or a merge).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Parameters scanned.
    pub params: u64,
    /// Orbits iterated.
    pub orbits: u64,
    /// Orbits that escaped.
    pub escaped: u64,
    /// Orbits without a close return.
    pub no_cycle: u64,
    /// Unconfirmed close returns.
    pub unconfirmed: u64,
    /// Orbits that reached a confirmed cycle.
    pub cycle: u64,
    /// Candidate lines (distinct cycles).
    pub candidates: u64,
    /// Candidates that pass the attracting estimate.
    pub attracting: u64,
    /// Candidates by period.
    pub by_period: BTreeMap<u32, u64>,
    /// Map iterations (sum of steps over orbits).
    pub iterations: u64,
}

impl Summary {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Summary) {
        self.params += other.params;
        self.orbits += other.orbits;
        self.escaped += other.escaped;
        self.no_cycle += other.no_cycle;
        self.unconfirmed += other.unconfirmed;
        self.cycle += other.cycle;
        self.candidates += other.candidates;
        self.attracting += other.attracting;
        for (k, v) in &other.by_period {
            *self.by_period.entry(*k).or_default() += v;
        }
        self.iterations = self.iterations.saturating_add(other.iterations);
    }
}

/// One line of the checkpoint: a finished chunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkLine {
    /// Chunk index (0, 1, 2, … within the shard).
    pub chunk: u64,
    /// Byte length of the candidates file after this chunk's lines.
    pub end: u64,
    /// Totals of the chunk.
    pub summary: Summary,
}

/// Paths of the companion files of a candidates file.
#[derive(Clone, Debug)]
pub struct OutPaths {
    /// The candidates file.
    pub candidates: PathBuf,
    /// `<out>.manifest.json`.
    pub manifest: PathBuf,
    /// `<out>.checkpoint`.
    pub checkpoint: PathBuf,
    /// `<out>.lock`: held (flock) by the process writing these files.
    pub lock: PathBuf,
}

impl OutPaths {
    /// The companion paths of `out`.
    pub fn new(out: &Path) -> Self {
        let with = |suffix: &str| {
            let mut s = out.as_os_str().to_owned();
            s.push(suffix);
            PathBuf::from(s)
        };
        Self {
            candidates: out.to_path_buf(),
            manifest: with(".manifest.json"),
            checkpoint: with(".checkpoint"),
            lock: with(".lock"),
        }
    }

    /// True when any of the three files exists.
    pub fn any_exists(&self) -> bool {
        self.candidates.exists() || self.manifest.exists() || self.checkpoint.exists()
    }
}

/// An exclusive advisory lock on `<out>.lock`, held while a run writes its files. The file
/// holds the writer's process id; it is removed when the lock is dropped (the run ended, with
/// or without an error). The kernel releases the flock when the process dies, even by
/// SIGKILL, so a lock file left by a killed run is *stale*: the next run takes it over.
#[derive(Debug)]
pub struct OutLock {
    // Held, not read: closing it releases the flock.
    _file: std::fs::File,
    path: PathBuf,
    /// The process id written in a stale lock file this run took over (that process is gone,
    /// or at least no longer holds the lock), for the caller to report.
    pub took_over_from: Option<u32>,
}

impl Drop for OutLock {
    fn drop(&mut self) {
        // Unlink while still holding the flock, so no other process can lock this inode and
        // then lose it; a process that opened it meanwhile sees the inode change and retries.
        let _ = std::fs::remove_file(&self.path);
        // The flock goes with the descriptor when `self._file` is closed, right after this.
    }
}

/// Takes the lock of `paths`, or fails at once when another live process holds it. A lock
/// file left by a run that was killed (its flock is gone with its process) is taken over and
/// reported in [`OutLock::took_over_from`].
pub fn lock_output(paths: &OutPaths) -> Result<OutLock, Error> {
    use std::io::Seek;
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::io::AsRawFd;
    // A few attempts: the holder may unlink the file between our open and our flock.
    for _ in 0..8 {
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&paths.lock)
            .map_err(|e| Error::io(&paths.lock, "create lock file", e))?;
        // SAFETY: flock on a file descriptor we own; no memory is touched.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r != 0 {
            let holder = read_pid(&mut file)
                .map(|p| format!(" by process {p}"))
                .unwrap_or_default();
            return Err(Error::new(
                ErrorKind::OutputExists,
                format!(
                    "--out: {} is being written{holder} by another running `expanse search` (lock {})",
                    paths.candidates.display(),
                    paths.lock.display()
                ),
            ));
        }
        // We hold the flock of this inode; it must still be the one at the path.
        let same = match (file.metadata(), std::fs::metadata(&paths.lock)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            continue;
        }
        let took_over_from = read_pid(&mut file);
        let pid = std::process::id();
        let written = file
            .set_len(0)
            .and_then(|_| file.rewind())
            .and_then(|_| file.write_all(format!("{pid}\n").as_bytes()))
            .and_then(|_| file.flush());
        written.map_err(|e| Error::io(&paths.lock, "write lock file", e))?;
        return Ok(OutLock {
            _file: file,
            path: paths.lock.clone(),
            took_over_from,
        });
    }
    Err(Error::new(
        ErrorKind::OutputExists,
        format!(
            "--out: the lock {} keeps being replaced by other processes",
            paths.lock.display()
        ),
    ))
}

/// The process id written in a lock file, if it holds one.
fn read_pid(file: &mut std::fs::File) -> Option<u32> {
    use std::io::{Read, Seek};
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(64).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Creates the folder that will hold `out` (and its companions) when it does not exist.
pub fn create_out_parent(out: &Path) -> Result<(), Error> {
    match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => std::fs::create_dir_all(dir)
            .map_err(|e| {
                Error::new(
                    ErrorKind::InvalidSpec,
                    format!("--out: cannot create the folder {}: {e}", dir.display()),
                )
            }),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, fsync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mut f = std::fs::File::create(&tmp).map_err(|e| Error::io(&tmp, "create", e))?;
    f.write_all(bytes)
        .map_err(|e| Error::io(&tmp, "write", e))?;
    f.sync_all().map_err(|e| Error::io(&tmp, "sync", e))?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, "replace", e))?;
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Reads a manifest.
pub fn read_manifest(path: &Path) -> Result<serde_json::Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::new(
            ErrorKind::BadInputFile,
            format!("{}: cannot read manifest: {e}", path.display()),
        )
    })?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::bad_file(path, format!("not a manifest: {e}")))?;
    if v.get("schema").and_then(|s| s.as_str()) != Some(MANIFEST_SCHEMA) {
        return Err(Error::bad_file(
            path,
            format!("not a search manifest (schema is not {MANIFEST_SCHEMA})"),
        ));
    }
    Ok(v)
}

/// Reads a candidates file: every line must be a [`CandidateLine`] (errors name the line).
pub fn read_candidates(path: &Path) -> Result<Vec<CandidateLine>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::bad_file(path, format!("cannot read: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let c: CandidateLine = serde_json::from_str(line)
            .map_err(|e| Error::bad_file(path, format!("line {}: not a candidate: {e}", i + 1)))?;
        out.push(c);
    }
    Ok(out)
}

/// A UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` of `t`.
pub fn utc_timestamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Seconds as fixed-point text with millisecond resolution (`"12.345"`).
pub fn seconds_text(d: std::time::Duration) -> String {
    format!("{}.{:03}", d.as_secs(), d.subsec_millis())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_civil_dates() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC = 951827696 (leap day of a century leap year).
        assert_eq!(
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(951_827_696)),
            "2000-02-29T12:34:56Z"
        );
        assert_eq!(
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(1_798_761_599)),
            "2026-12-31T23:59:59Z"
        );
        assert_eq!(seconds_text(Duration::from_millis(12_345)), "12.345");
    }

    #[test]
    fn companion_paths() {
        let p = OutPaths::new(Path::new("/tmp/run/c.jsonl"));
        assert_eq!(p.manifest, Path::new("/tmp/run/c.jsonl.manifest.json"));
        assert_eq!(p.checkpoint, Path::new("/tmp/run/c.jsonl.checkpoint"));
    }
}
