//! `expanse report` and `expanse orbit` from the command line: exit codes (2 for unusable input,
//! naming the file and line), files written, and refusal to overwrite without `--force`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn exe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_expanse"))
        .args(args)
        .output()
        .unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/tests/fixtures")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

#[test]
fn report_writes_tables_and_figures() {
    let d = scratch("ok");
    let out = d.join("out");
    let certs = fixtures().join("certs");
    let cands = fixtures().join("candidates.jsonl");
    let bench = fixtures().join("bench.json");
    let o = exe(&[
        "report",
        p(&cands),
        p(&certs),
        "--bench",
        p(&bench),
        "--out",
        p(&out),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in [
        "certificates.md",
        "certificates.tex",
        "bench_rates.svg",
        "proof_time.png",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    // Second run into the same folder: refused without --force, accepted with it.
    let o = exe(&["report", p(&certs), "--out", p(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    let o = exe(&["report", p(&certs), "--out", p(&out), "--force"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn report_refuses_bad_inputs_with_exit_2() {
    let d = scratch("bad");
    let c = std::fs::read_to_string(fixtures().join("certs/p4_a1.json")).unwrap();
    std::fs::write(d.join("v1.json"), &c).unwrap();
    std::fs::write(
        d.join("v2.json"),
        c.replace("certificate/1", "certificate/2"),
    )
    .unwrap();
    let o = exe(&[
        "report",
        p(&d.join("v1.json")),
        p(&d.join("v2.json")),
        "--out",
        p(&d.join("o1")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("v2.json") && err.contains("schema"), "{err}");

    std::fs::write(
        d.join("broken.jsonl"),
        "{\"period\": 4, \"x\": [\"0x1p+0\"]\n",
    )
    .unwrap();
    let o = exe(&[
        "report",
        p(&d.join("broken.jsonl")),
        "--out",
        p(&d.join("o2")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("broken.jsonl:1:"));

    let o = exe(&[
        "report",
        p(&d.join("missing.json")),
        "--out",
        p(&d.join("o3")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Nothing was written for refused inputs.
    assert!(!d.join("o1").join("index.md").exists());
}

#[test]
fn orbit_prints_plots_and_refuses_bad_flags() {
    let d = scratch("orbit");
    // Period-4 sink at (1.0, 0.3): after 2000 steps, points repeat with period 4.
    let o = exe(&[
        "orbit", "--a", "1.0", "--b", "0.3", "--skip", "2000", "--count", "9", "--prec", "qd",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    let xs: Vec<f64> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(xs.len(), 9);
    assert!((xs[0] - xs[4]).abs() < 1e-12 && (xs[0] - xs[2]).abs() > 1e-3);

    let stem = d.join("fig");
    let o = exe(&[
        "orbit",
        "--a",
        "1.4",
        "--b",
        "0.3",
        "--skip",
        "100",
        "--count",
        "2000",
        "--plot",
        p(&stem),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(d.join("fig.png").exists() && d.join("fig.svg").exists());
    let o = exe(&["orbit", "--a", "1.4", "--b", "0.3", "--plot", p(&stem)]);
    assert_eq!(o.status.code(), Some(2), "no overwrite without --force");

    for bad in [
        vec!["orbit", "--a", "1.4", "--b", "0.3", "--prec", "9"],
        vec!["orbit", "--a", "x1.4", "--b", "0.3"],
        vec!["orbit", "--a", "1.4", "--b", "0.3", "--count", "0"],
    ] {
        let o = exe(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
    // An escaping orbit ran but did not give what was asked: exit 1.
    let o = exe(&[
        "orbit", "--a", "3", "--b", "0.3", "--count", "10", "--skip", "0",
    ]);
    assert_eq!(o.status.code(), Some(1));
}
