//! `expanse search` and `expanse merge` as subprocesses: a run killed with SIGKILL and resumed
//! writes exactly what an uninterrupted run writes (nothing lost, nothing duplicated, torn
//! last lines dropped); three shards merged equal the unsharded run; bad input exits with
//! code 2, names the flag, and touches no output file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_expanse");

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("expanse-search-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn search(args: &[&str], out: &Path) -> Output {
    let backend: &[&str] = if args.contains(&"--backend") {
        &[]
    } else {
        &["--backend", "cpu"]
    };
    Command::new(EXE)
        .arg("search")
        .args(args)
        .arg("--out")
        .arg(out)
        .args(backend)
        .arg("--quiet")
        .output()
        .unwrap()
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn count_lines(p: &Path) -> usize {
    std::fs::read(p)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}

/// 40 parameters in 40 chunks, through the window of the period-7 sink and beyond.
const LONG: &[&str] = &[
    "--a",
    "1.2..1.3",
    "--a-steps",
    "40",
    "--b",
    "0.3",
    "--inits",
    "6",
    "--transient",
    "1e6",
    "--prec",
    "2",
    "--chunk-size",
    "1",
    "--seed",
    "5",
];

#[test]
fn sigkill_then_resume_equals_an_uninterrupted_run() {
    let dir = tmpdir("kill");
    let full = dir.join("full.jsonl");
    let o = search(LONG, &full);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = std::fs::read(&full).unwrap();
    assert!(
        lines(&full).len() >= 5,
        "the reference run found too few candidates"
    );

    let cut = dir.join("cut.jsonl");
    let ckpt = dir.join("cut.jsonl.checkpoint");
    let mut child = Command::new(EXE)
        .arg("search")
        .args(LONG)
        .arg("--out")
        .arg(&cut)
        .args(["--backend", "cpu", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while count_lines(&ckpt) < 3 && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(2));
    }
    // While it runs, a second process may neither resume nor overwrite the same output.
    for flag in ["--resume", "--force"] {
        let o = search(&[LONG, &[flag]].concat(), &cut);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("another running"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let killed_pid = child.id();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // The killed run could not remove its lock file; it names the killed process.
    let lock = dir.join("cut.jsonl.lock");
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap().trim(),
        killed_pid.to_string()
    );
    let committed = count_lines(&ckpt);
    assert!(
        (3..40).contains(&committed),
        "the run was not stopped mid-way ({committed} chunks committed)"
    );
    // Simulate torn writes: half a candidate line and half a checkpoint line at the ends.
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(&cut).unwrap();
    f.write_all(b"{\"schema\":\"expanse-candidate/1\",\"map\":\"hen")
        .unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&ckpt)
        .unwrap();
    f.write_all(b"{\"chunk\":").unwrap();
    drop(f);

    let o = search(&[LONG, &["--resume"]].concat(), &cut);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("resumed after"), "{stdout}");
    // The stale lock was taken over, with a message (even under --quiet), and removed at the end.
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(&format!(
            "took over the lock file left by process {killed_pid}"
        )),
        "{stderr}"
    );
    assert!(!lock.exists(), "the resumed run left its lock file");
    assert!(
        !dir.join("full.jsonl.lock").exists(),
        "a finished run left its lock file"
    );
    let got = std::fs::read(&cut).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want)
    );
    // No duplicates: each (parameter, period, point) appears once.
    let l = lines(&cut);
    let mut keys: Vec<String> = l
        .iter()
        .map(|s| {
            let v: serde_json::Value = serde_json::from_str(s).unwrap();
            format!("{} {} {}", v["param_index"], v["period"], v["x"][0])
        })
        .collect();
    let n = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n);
    assert_eq!(count_lines(&ckpt), 40);
    let m: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("cut.jsonl.manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(m["status"], "complete");
    assert_eq!(m["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(m["summary"]["orbits"], 240);
    let _ = std::fs::remove_dir_all(&dir);
}

const GRID: &[&str] = &[
    "--a",
    "0.9..1.3",
    "--a-steps",
    "11",
    "--b",
    "0.25,0.3",
    "--inits",
    "4",
    "--transient",
    "2e4",
    "--prec",
    "1",
    "--chunk-size",
    "2",
];

#[test]
fn three_shards_merged_equal_the_unsharded_run() {
    let dir = tmpdir("shards");
    let full = dir.join("full.jsonl");
    assert!(search(GRID, &full).status.success());
    let mut parts = Vec::new();
    for i in 0..3 {
        let p = dir.join(format!("part{i}.jsonl"));
        let shard = format!("{i}/3");
        let o = search(&[GRID, &["--shard", &shard]].concat(), &p);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        parts.push(p);
    }
    let merged = dir.join("merged.jsonl");
    // Given out of order: merge sorts by shard index.
    let o = Command::new(EXE)
        .args(["merge", "--out"])
        .arg(&merged)
        .arg(&parts[2])
        .arg(&parts[0])
        .arg(&parts[1])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = std::fs::read_to_string(&full).unwrap();
    assert!(want.lines().count() >= 10);
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), want);
    let m = |p: &Path| -> serde_json::Value {
        let mut s = p.as_os_str().to_owned();
        s.push(".manifest.json");
        serde_json::from_str(&std::fs::read_to_string(PathBuf::from(s)).unwrap()).unwrap()
    };
    assert_eq!(m(&merged)["summary"], m(&full)["summary"]);
    // A merged file cannot be "resumed" (it has no checkpoint): refused, and left intact.
    let o = search(&[GRID, &["--resume"]].concat(), &merged);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), want);
    assert_eq!(m(&merged)["spec"], m(&full)["spec"]);

    // A missing shard, or a shard of another spec, is refused with exit code 2.
    let o = Command::new(EXE)
        .args(["merge", "--out"])
        .arg(dir.join("m2.jsonl"))
        .arg(&parts[0])
        .arg(&parts[1])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing shards: 2/3"));
    let other = dir.join("other.jsonl");
    let mut g = GRID.to_vec();
    g[1] = "0.9..1.31";
    assert!(search(&[&g[..], &["--shard", "2/3"]].concat(), &other)
        .status
        .success());
    let o = Command::new(EXE)
        .args(["merge", "--out"])
        .arg(dir.join("m3.jsonl"))
        .arg(&parts[0])
        .arg(&parts[1])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different search"));
    assert!(!dir.join("m2.jsonl").exists() && !dir.join("m3.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--out` in folders that do not exist yet: they are created. A parent that cannot be a
/// folder: exit 2, naming `--out`.
#[test]
fn out_parent_folders_are_created_or_refused_naming_out() {
    let dir = tmpdir("parents");
    let nested = dir.join("runs/deep/cands.jsonl");
    let o = search(
        &[
            "--a",
            "1.25",
            "--b",
            "0.3",
            "--inits",
            "2",
            "--transient",
            "1e3",
        ],
        &nested,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(nested.is_file());
    assert!(dir.join("runs/deep/cands.jsonl.manifest.json").is_file());
    assert!(!dir.join("runs/deep/cands.jsonl.lock").exists());

    std::fs::write(dir.join("plain-file"), b"not a folder").unwrap();
    let o = search(
        &[
            "--a",
            "1.25",
            "--b",
            "0.3",
            "--inits",
            "2",
            "--transient",
            "1e3",
        ],
        &dir.join("plain-file/sub/cands.jsonl"),
    );
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("--out"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_naming_the_flag_and_touches_nothing() {
    let dir = tmpdir("bad");
    let out = dir.join("c.jsonl");
    let base = ["--b", "0.3", "--transient", "1000", "--inits", "2"];
    let cases: &[(&[&str], &str)] = &[
        (&["--a", "1.4..1.3", "--a-steps", "10"], "--a"),
        (&["--a", "1.3..1.3", "--a-steps", "10"], "--a"),
        (&["--a", "1.3..1.4", "--a-steps", "0"], "--a-steps"),
        (&["--a", "1.3..1.4"], "--a-steps"),
        (&["--a", "x1.3"], "--a"),
        (&["--a", "1.3", "--inits", "0"], "--inits"),
        (&["--a", "1.3", "--prec", "9"], "--prec"),
        (&["--a", "1.3", "--prec", "0"], "--prec"),
        (&["--a", "1.3", "--transient", "many"], "--transient"),
        (&["--a", "1.3", "--shard", "3/3"], "--shard"),
        (&["--a", "1.3", "--backend", "tpu"], "--backend"),
        (&["--a", "1.3", "--backend", "gpu"], "--backend gpu"),
        (&["--a", "1.3", "--chunk-size", "0"], "--chunk-size"),
    ];
    for (args, flag) in cases {
        let o = search(&[&base[..], args].concat(), &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} created output");
        assert!(
            std::fs::read_dir(&dir).unwrap().next().is_none(),
            "{args:?} wrote files"
        );
    }

    // An existing output is neither overwritten nor resumed against another spec.
    let good = [&base[..], &["--a", "1.25"]].concat();
    assert!(search(&good, &out).status.success());
    let before = std::fs::read(&out).unwrap();
    let manifest = dir.join("c.jsonl.manifest.json");
    let mbefore = std::fs::read(&manifest).unwrap();
    let o = search(&good, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
    let other = [&base[..], &["--a", "1.26", "--resume"]].concat();
    let o = search(&other, &out);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--resume") && err.contains("different search"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(std::fs::read(&manifest).unwrap(), mbefore);
    // --force overwrites; --resume of a finished run changes nothing.
    assert!(search(&[&good[..], &["--force"]].concat(), &out)
        .status
        .success());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert!(search(&[&good[..], &["--resume"]].concat(), &out)
        .status
        .success());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn auto_backend_says_which_backend_it_uses() {
    let dir = tmpdir("auto");
    let out = dir.join("c.jsonl");
    let o = Command::new(EXE)
        .args([
            "search",
            "--a",
            "1.0",
            "--b",
            "0.3",
            "--transient",
            "2000",
            "--inits",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    // Without a GPU (as in CI) it falls back to the CPU and says why; with one it says so.
    assert!(
        err.contains("using the CPU: no usable GPU: ") || err.contains("using the GPU backend: "),
        "{err}"
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("c.jsonl.manifest.json")).unwrap())
            .unwrap();
    let backend = m["sessions"][0]["backend"].as_str().unwrap().to_string();
    assert!(
        backend.starts_with("cpu") || backend.starts_with("gpu"),
        "{backend}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
