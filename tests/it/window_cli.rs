//! Command-line tests of `expanse window`: on the period-7 sink at (1.25, 0.3) (orbit point
//! found here by iterating the map in f64) it writes the window JSON and one certificate per
//! proved segment, which `expanse verify` accepts; the certified interval lies inside the
//! estimated ends; a certificate is accepted as input; bad input exits 2 naming the flag or
//! file.
use std::path::PathBuf;
use std::process::{Command, Output};

fn expanse(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_expanse"))
        .args(args)
        .output()
        .expect("run expanse")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("expanse-window-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn candidate_line() -> String {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..20000 {
        let nx = 1.0 + y - 1.25 * x * x;
        y = 0.3 * x;
        x = nx;
    }
    format!(r#"{{"a":"1.25","b":"0.3","period":7,"x":"{x:e}","y":"{y:e}"}}"#)
}

fn num(v: &serde_json::Value) -> f64 {
    v.as_str().expect("a decimal string").parse().unwrap()
}

#[test]
fn window_of_the_period_7_sink_with_certificates_that_verify() {
    let dir = tmpdir("p7");
    let cands = dir.join("c.jsonl");
    std::fs::write(&cands, candidate_line() + "\n").unwrap();
    let (out, certs) = (dir.join("w.json"), dir.join("certs"));
    let o = expanse(&[
        "window",
        cands.to_str().unwrap(),
        "--along",
        "a",
        "--cert-tol",
        "1e-2",
        "--out",
        out.to_str().unwrap(),
        "--certs",
        certs.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let w: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(w["schema"], "expanse-window/1");
    assert_eq!(w["period"], 7);
    let est = &w["estimated"];
    assert_eq!(est["lower"]["kind"], "saddle-node");
    assert_eq!(est["upper"]["kind"], "period-doubling");
    let (sn, pd) = (num(&est["lower"]["a"]), num(&est["upper"]["a"]));
    assert!(
        (sn - 1.2266).abs() < 1e-4 && (pd - 1.2541).abs() < 1e-4,
        "{est}"
    );
    assert!(num(&est["lower"]["accuracy_t"]) < 1e-13);
    let c = &w["certified"];
    let (a_lo, a_hi) = (num(&c["from"]["a"]), num(&c["to"]["a"]));
    assert!(sn < a_lo && a_lo < 1.25 && 1.25 < a_hi && a_hi < pd, "{c}");
    // Every segment's certificate was written and verifies.
    let segs = c["segments"].as_array().unwrap();
    let files: Vec<String> = std::fs::read_dir(&certs)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    assert_eq!(files.len(), segs.len());
    let mut args = vec!["verify"];
    args.extend(files.iter().map(|s| s.as_str()));
    let v = expanse(&args);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v));
    // Not overwritten without --force.
    let o = expanse(&[
        "window",
        cands.to_str().unwrap(),
        "--estimates-only",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--out"), "{}", text(&o));
    // A certificate as input, estimates only, to stdout.
    let o = expanse(&[
        "window",
        &files[0],
        "--estimates-only",
        "--quiet",
        "--along",
        "1,0.5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let w2: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(w2["direction"]["dy"], "0.5");
    assert!(w2["certified"].is_null());
}

#[test]
fn bad_input_exits_2_naming_the_flag_or_file() {
    let line = candidate_line();
    for (args, needle) in [
        (vec!["window", line.as_str(), "--along", "c"], "--along"),
        (vec!["window", line.as_str(), "--along", "0,0"], "--along"),
        (vec!["window", line.as_str(), "--along", "1,x"], "--along"),
        (
            vec!["window", line.as_str(), "--cert-tol", "2"],
            "--cert-tol",
        ),
        (
            vec!["window", line.as_str(), "--est-tol", "-1e-12"],
            "--est-tol",
        ),
        (vec!["window", line.as_str(), "--bits", "8"], "--bits"),
        (vec!["window", "no-such-file.json"], "no-such-file.json"),
        (
            vec![
                "window",
                r#"{"a":"1.25","b":"0.3","period":7,"x":"0.5","y":"0.1"}"#,
                "--estimates-only",
            ],
            "no period-7 orbit",
        ),
        (
            vec![
                "window",
                r#"{"a":"1.25","b":"0.3","period":0,"x":"0.5","y":"0.1"}"#,
            ],
            "period",
        ),
    ] {
        let o = expanse(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
    }
    let o = expanse(&["window", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o).contains("--along"));
}
