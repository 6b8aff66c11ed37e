//! Command-line tests of `expanse prove` and `expanse verify`: exit codes, error messages that
//! name the line or flag, certificates written and re-verified, bad lines not stopping the
//! others. Orbit points come from iterating the map in f64 here (a sink attracts).
use std::path::PathBuf;
use std::process::{Command, Output};

fn expanse(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_expanse"))
        .args(args)
        .output()
        .expect("run expanse")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn attractor_point(a: f64, b: f64, n: usize) -> (f64, f64) {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..n {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    (x, y)
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("expanse-prove-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn single_candidate_with_a_box_is_proved_and_verified() {
    let (x, y) = attractor_point(1.0, 0.3, 5000);
    let dir = tmpdir("single");
    let out = dir.join("certs");
    let o = expanse(&[
        "prove",
        "--a",
        "1.0",
        "--b",
        "0.3",
        "--period",
        "4",
        "--x",
        &format!("{x:e}"),
        "--y",
        &format!("{y:e}"),
        "--param-radius",
        "1e-8",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (so, se) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{so}{se}");
    assert!(so.contains("sink"), "{so}");
    let certs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(certs.len(), 1);
    let o = expanse(&["verify", certs[0].to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    // Not overwritten without --force.
    let o = expanse(&[
        "prove",
        "--a",
        "1.0",
        "--b",
        "0.3",
        "--period",
        "4",
        "--x",
        &format!("{x:e}"),
        "--y",
        &format!("{y:e}"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(text(&o).1.contains("--force"));
    // A truncated certificate is unusable; a tampered one is not valid.
    let body = std::fs::read_to_string(&certs[0]).unwrap();
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &body[..body.len() / 2]).unwrap();
    assert_eq!(
        expanse(&["verify", cut.to_str().unwrap()]).status.code(),
        Some(2)
    );
    let mut v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["status"] = serde_json::json!("periodic-unstable");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let o = expanse(&["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    assert!(text(&o).0.contains("NOT VALID"));
    v["schema"] = serde_json::json!("something-else/1");
    std::fs::write(&bad, v.to_string()).unwrap();
    let o = expanse(&["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("unknown schema"));
}

#[test]
fn bad_lines_are_reported_with_their_number_and_the_others_run() {
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    let good = format!(
        r#"{{"map":"henon","a":{{"decimal":"1.25","hex":"0x1.4p+0"}},"b":{{"decimal":"0.3","hex":"0x1.3333333333333p-2"}},"period":7,"x":["{x:e}"],"y":["{y:e}"],"prec":"dd","residual":"0","trace_estimate":"0","init_index":0,"transient":20000}}"#
    );
    let lines = [
        good.clone(),
        "{not json".to_string(),
        good.replace("\"1.25\"", "\"nan\""),
        good.replace("\"period\":7", "\"period\":0"),
        format!(r#"{{"a":"1.25","b":"0.3","period":7,"x":"{x:e}","y":"{y:e}","radius":"-1e-8"}}"#),
        good.replace("\"map\":\"henon\"", "\"map\":\"lozi\""),
        good.replace("{\"map\"", "{\"schema\":\"expanse-candidate/7\",\"map\""),
        good.clone(),
    ];
    let dir = tmpdir("file");
    let f = dir.join("cands.jsonl");
    std::fs::write(&f, lines.join("\n")).unwrap();
    let out = dir.join("certs");
    let o = expanse(&["prove", f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let (so, se) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{so}{se}");
    let name = f.display().to_string();
    for line in [2, 3, 4, 5, 6, 7] {
        assert!(
            se.contains(&format!("{name}:{line}:")),
            "line {line} not named in: {se}"
        );
    }
    assert!(
        se.contains("not finite") && se.contains("period") && se.contains("negative"),
        "{se}"
    );
    assert!(
        se.contains("unknown schema") && se.contains("unknown map"),
        "{se}"
    );
    // Lines 1 and 8 still ran and were proved.
    assert!(so.contains(&format!("{name}:1: sink")), "{so}");
    assert!(so.contains(&format!("{name}:8: sink")), "{so}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2);
}

#[test]
fn bad_flags_exit_2_and_name_the_flag() {
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "prove",
                "--a",
                "1.25",
                "--b",
                "0.3",
                "--period",
                "7",
                "--x",
                "0.5",
                "--y",
                "0.1",
                "--param-radius",
                "-1e-8",
            ],
            "--param-radius",
        ),
        (
            &[
                "prove", "--a", "1.25", "--b", "0.3", "--period", "0", "--x", "0.5", "--y", "0.1",
            ],
            "period",
        ),
        (
            &[
                "prove", "--a", "NaN", "--b", "0.3", "--period", "7", "--x", "0.5", "--y", "0.1",
            ],
            "not finite",
        ),
        (
            &[
                "prove", "--a", "1.25", "--b", "0.3", "--period", "7", "--x", "0.5",
            ],
            "--y",
        ),
        (
            &["prove", "/nonexistent/cands.jsonl"],
            "/nonexistent/cands.jsonl",
        ),
    ];
    for (args, needle) in cases {
        let o = expanse(args);
        let (so, se) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {so}{se}");
        assert!(se.contains(needle), "{args:?}: {se}");
    }
}

#[test]
fn the_fixed_point_at_the_classical_parameters_is_periodic_unstable() {
    let (a, b) = (1.4f64, 0.3f64);
    let xf = (b - 1.0 + ((1.0 - b) * (1.0 - b) + 4.0 * a).sqrt()) / (2.0 * a);
    let o = expanse(&[
        "prove",
        "--a",
        "1.4",
        "--b",
        "0.3",
        "--period",
        "1",
        "--x",
        &format!("{xf:e}"),
        "--y",
        &format!("{:e}", b * xf),
    ]);
    let (so, se) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{so}{se}");
    assert!(so.contains("periodic-unstable"), "{so}");
}
