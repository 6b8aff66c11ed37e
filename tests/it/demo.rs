//! `expanse demo` end to end (its quick configuration): search, prove, verify and report on the
//! built-in example; at least two sinks of different periods proved and verified, and every
//! table and figure written.

use std::path::Path;
use std::process::Command;

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_expanse"))
}

#[test]
fn demo_runs_end_to_end() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-quick");
    let _ = std::fs::remove_dir_all(&out);
    let o = exe()
        .args(["demo", "--quick", "--backend", "cpu", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stdout.contains("every certificate re-checked and valid"),
        "{stdout}"
    );
    let report = out.join("report");
    for f in [
        "index.md",
        "certificates.md",
        "certificates.tex",
        "parameter_map.png",
        "parameter_map.svg",
        "period_histogram.png",
        "attractor.png",
    ] {
        assert!(report.join(f).exists(), "{f} missing; stdout:\n{stdout}");
    }
    // Sinks of period 4 (a ≈ 1.0) and 7 (a ≈ 1.25) are in the table (MATH.md §5).
    let md = std::fs::read_to_string(report.join("certificates.md")).unwrap();
    assert!(md.contains("| 4 |") && md.contains("| 7 |"), "{md}");
    // Running again without --force refuses to overwrite (exit 2).
    let o = exe()
        .args(["demo", "--quick", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
