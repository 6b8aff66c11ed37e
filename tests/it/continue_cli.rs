//! Command-line tests of `expanse continue`: from the record sink's certificate
//! (`docs/closest-sinks/sink-p28-record.json`) it writes `continuation.json` and three
//! certificates that `expanse verify` accepts, at points closer to (1.4, 0.3) than the start
//! (distances recomputed here exactly from the certificates' rationals); an existing output is
//! not overwritten without `--force`; `expanse report --target 1.4,0.3` ranks the new edge
//! certificate first; on the period-7 sink the centre-line point lies inside
//! the window that `expanse window` finds along the reported normal; `--line nearest` picks the
//! candidate nearest the target; bad input exits 2 naming the flag or file.
use rug::ops::Pow;
use rug::Rational;
use std::path::{Path, PathBuf};
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
    let d = std::env::temp_dir().join(format!(
        "expanse-continue-cli-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn record() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/closest-sinks/sink-p28-record.json"
    )
    .to_string()
}

/// The exact decimal (or `num/den`) text as a rational.
fn rat(s: &str) -> Rational {
    if let Some((n, d)) = s.split_once('/') {
        return Rational::from((
            n.parse::<rug::Integer>().unwrap(),
            d.parse::<rug::Integer>().unwrap(),
        ));
    }
    let (m, e) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap()),
        None => (s, 0),
    };
    let neg = m.starts_with('-');
    let m = m.trim_start_matches('-');
    let (ip, fp) = m.split_once('.').unwrap_or((m, ""));
    let digits: rug::Integer = format!("{ip}{fp}").parse().unwrap();
    let scale = e - fp.len() as i32;
    let ten = rug::Integer::from(10);
    let mut q = if scale >= 0 {
        Rational::from(digits * ten.clone().pow(scale as u32))
    } else {
        Rational::from((digits, ten.pow((-scale) as u32)))
    };
    if neg {
        q = -q;
    }
    q
}

/// Squared distance from (1.4, 0.3) of the farthest corner of a certificate's parameter box
/// value ± radius (exact).
fn cert_far2(path: &Path) -> Rational {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let t = [Rational::from((7, 5)), Rational::from((3, 10))];
    let mut d2 = Rational::new();
    for (k, c) in ["a", "b"].iter().zip(t) {
        let val = rat(v[k]["value"].as_str().unwrap());
        let r = rat(v[k]["radius"].as_str().unwrap());
        let far = (val - c).abs() + r;
        d2 += Rational::from(far.square_ref());
    }
    d2
}

#[test]
fn record_sink_continued_certificates_verify_and_are_closer() {
    let dir = tmpdir("record");
    let out = dir.join("run");
    let rec = record();
    let o = expanse(&["continue", &rec, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("closest proved sink: edge (period 28)"),
        "{stdout}"
    );
    let certs: Vec<PathBuf> = ["centre", "box", "edge"]
        .iter()
        .map(|k| out.join(format!("continue-p28-{k}.json")))
        .collect();
    let mut args = vec!["verify".to_string()];
    args.extend(certs.iter().map(|c| c.display().to_string()));
    let v = expanse(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(v.status.code(), Some(0), "{}", text(&v));
    // Each certificate is closer to (1.4, 0.3) than the record (1.4, 0.2999999774905), even at
    // the farthest corner of its parameter box; the edge point is the closest.
    let d_rec = rat("2.250950e-8").square();
    let far: Vec<Rational> = certs.iter().map(|c| cert_far2(c)).collect();
    assert!(far.iter().all(|d| *d < d_rec));
    assert!(far[2] < far[0]);
    // The JSON: exact strings, the distances it states agree with the certificates.
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("continuation.json")).unwrap())
            .unwrap();
    assert_eq!(j["schema"], "expanse-continuation/1");
    assert_eq!(j["period"], 28);
    assert_eq!(j["start"]["distance"], "2.250950000000000000000000e-8");
    for k in ["centre", "box", "edge"] {
        assert_eq!(j["proofs"][k]["status"], "sink", "{k}");
        assert!(j["proofs"][k]["certificate"].is_string());
    }
    let stated: f64 = j["edge"]["distance"].as_str().unwrap().parse().unwrap();
    let exact = far[2].to_f64().sqrt();
    assert!(((stated - exact) / exact).abs() < 1e-15, "{stated} {exact}");
    assert_eq!(j["closest_proved"]["which"], "edge");
    // The report near (1.4, 0.3) ranks the new edge certificate first, ahead of the docs'.
    let rep = dir.join("report");
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/closest-sinks");
    let o = expanse(&[
        "report",
        out.to_str().unwrap(),
        docs,
        "--out",
        rep.to_str().unwrap(),
        "--target",
        "1.4,0.3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let md = std::fs::read_to_string(rep.join("closest_sinks.md")).unwrap();
    let first = md.lines().find(|l| l.starts_with("| 1 |")).unwrap_or("");
    assert!(first.ends_with("| continue-p28-edge.json |"), "{md}");
    assert!(rep.join("near_target.png").is_file() && rep.join("near_target.svg").is_file());
    let o = expanse(&[
        "report",
        docs,
        "--out",
        dir.join("r2").to_str().unwrap(),
        "--target",
        "1.4;0.3",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--target"), "{}", text(&o));
    // No overwrite without --force; with it, the same run succeeds.
    let again = expanse(&["continue", &rec, "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(
        text(&again).contains("exists (use --force"),
        "{}",
        text(&again)
    );
    let forced = expanse(&[
        "continue",
        &rec,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--force",
        "--no-box",
    ]);
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced));
    let _ = std::fs::remove_dir_all(&dir);
}

fn p7_line(a: f64) -> String {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..20000 {
        let nx = 1.0 + y - a * x * x;
        y = 0.3 * x;
        x = nx;
    }
    format!(r#"{{"a":"{a}","b":"0.3","period":7,"x":"{x:e}","y":"{y:e}"}}"#)
}

#[test]
fn period_7_centre_point_lies_inside_the_window_along_the_normal() {
    let dir = tmpdir("p7");
    let cands = dir.join("c.jsonl");
    // Two candidates; `--line nearest` takes the one nearer (1.3, 0.3): a = 1.252.
    std::fs::write(&cands, format!("{}\n{}\n", p7_line(1.25), p7_line(1.252))).unwrap();
    let c = cands.to_str().unwrap();
    let o = expanse(&["continue", c, "--target", "1.3,0.3", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--line"), "{}", text(&o));
    let o = expanse(&[
        "continue", c, "--target", "1.3,0.3", "--line", "nearest", "--json", "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["start"]["a"], "1.252");
    let centre = &j["centre"];
    let (a, b) = (centre["a"].as_str().unwrap(), centre["b"].as_str().unwrap());
    let (na, nb) = (
        centre["normal"]["a"].as_str().unwrap(),
        centre["normal"]["b"].as_str().unwrap(),
    );
    // `expanse window` along the normal from the proved centre-line point: the point lies
    // strictly inside, and the ends are the ones the continuation reports.
    let (mut x, mut y) = (0.1f64, 0.1f64);
    let (af, bf): (f64, f64) = (a.parse().unwrap(), b.parse().unwrap());
    for _ in 0..100000 {
        let nx = 1.0 + y - af * x * x;
        y = bf * x;
        x = nx;
    }
    let line = format!(r#"{{"a":"{a}","b":"{b}","period":7,"x":"{x:e}","y":"{y:e}"}}"#);
    let w = expanse(&[
        "window",
        &line,
        "--along",
        &format!("{na},{nb}"),
        "--estimates-only",
        "--quiet",
    ]);
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    let wj: serde_json::Value = serde_json::from_slice(&w.stdout).unwrap();
    let t = |v: &serde_json::Value| v.as_str().unwrap().parse::<f64>().unwrap();
    let (lo, hi) = (
        t(&wj["estimated"]["lower"]["t"]),
        t(&wj["estimated"]["upper"]["t"]),
    );
    assert!(lo < 0.0 && 0.0 < hi, "{lo} {hi}");
    let (clo, chi) = (t(&j["strip"]["lower"]["t"]), t(&j["strip"]["upper"]["t"]));
    assert!((lo - clo).abs() < 1e-9 * clo.abs() && (hi - chi).abs() < 1e-9 * chi.abs());
    // The edge point: between the centre point and the end on the target's side.
    assert_eq!(j["edge"]["boundary"]["kind"], "period-doubling");
    let d = |k: &str| t(&j[k]["distance"]);
    assert!(d("edge") < d("centre") && d("centre") < t(&j["start"]["distance"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_naming_the_flag_or_file() {
    let rec = record();
    for (args, needle) in [
        (vec!["continue", &rec, "--target", "1.4"], "--target"),
        (vec!["continue", &rec, "--target", "1.4,x"], "--target"),
        (
            vec!["continue", &rec, "--edge-fraction", "1.5"],
            "--edge-fraction",
        ),
        (vec!["continue", &rec, "--line", "2"], "--line"),
        (
            vec!["continue", "/nonexistent/c.json"],
            "/nonexistent/c.json",
        ),
        (
            vec![
                "continue",
                r#"{"a":"1.4","b":"0.3","period":1,"x":"0.63135","y":"0.1894"}"#,
            ],
            "not attracting",
        ),
    ] {
        let o = expanse(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
    }
}
