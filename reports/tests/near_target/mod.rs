//! The report near a target point: certified sinks ranked by exact distance (checked against
//! distances computed here in exact rationals from the f64 endpoints written into hand-made
//! certificates), unstable and unproven orbits left out, candidates ranked likewise, the
//! Markdown and LaTeX tables row for row the same, and the figure written as PNG and SVG with
//! a followed strip drawn in its period's colour; no such file without a target.

use expanse_reports::near::{decimal_rational, Target};
use expanse_reports::{load, write_report, write_report_near};
use rug::Rational;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("reports-near-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A finite f64 as an exact C99 hex float.
fn hex(v: f64) -> String {
    let bits = v.to_bits();
    let sign = if v < 0.0 { "-" } else { "" };
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mant = bits & ((1u64 << 52) - 1);
    format!("{sign}0x1.{mant:013x}p{exp:+}")
}

fn cert(dir: &Path, name: &str, a: (f64, f64), b: (f64, f64), period: u64, status: &str) {
    let v = serde_json::json!({
        "schema": "expanse-certificate/1",
        "map": "henon",
        "a": {"lo": hex(a.0), "hi": hex(a.1)},
        "b": {"lo": hex(b.0), "hi": hex(b.1)},
        "period": period,
        "status": status,
    });
    std::fs::write(dir.join(name), v.to_string()).unwrap();
}

/// Least and largest squared distance from t over the box, exactly (the oracle).
fn exact(a: (f64, f64), b: (f64, f64), t: &(Rational, Rational)) -> (Rational, Rational) {
    let q = |v: f64| Rational::from_f64(v).unwrap();
    let near = |lo: f64, hi: f64, c: &Rational| {
        let (lo, hi) = (q(lo), q(hi));
        if *c < lo {
            lo - c
        } else if *c > hi {
            hi - c
        } else {
            Rational::new()
        }
    };
    let far = |lo: f64, hi: f64, c: &Rational| {
        let (dl, dh) = ((q(lo) - c).abs(), (q(hi) - c).abs());
        dl.max(dh)
    };
    let n = (near(a.0, a.1, &t.0), near(b.0, b.1, &t.1));
    let f = (far(a.0, a.1, &t.0), far(b.0, b.1, &t.1));
    (
        Rational::from(n.0.square_ref()) + Rational::from(n.1.square_ref()),
        Rational::from(f.0.square_ref()) + Rational::from(f.1.square_ref()),
    )
}

/// The table rows of a Markdown ranking: the cells of each row.
fn rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| rank"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn sinks_are_ranked_by_exact_distance_and_the_figure_is_drawn() {
    let d = scratch("rank");
    let certs = d.join("certs");
    std::fs::create_dir_all(&certs).unwrap();
    let t = (Rational::from((7, 5)), Rational::from((3, 10)));
    // (file, a box, b box, period, status)
    type Spec = (&'static str, (f64, f64), (f64, f64), u64, &'static str);
    let specs: [Spec; 6] = [
        ("far.json", (1.4 + 3e-8, 1.4 + 3e-8), (0.3, 0.3), 7, "sink"),
        (
            "record.json",
            (1.4, 1.4),
            (0.2999999774905, 0.2999999774905),
            28,
            "sink",
        ),
        // A box across a = 1.4: its nearest point has a = a*, only b is off.
        (
            "box.json",
            (1.4 - 1e-9, 1.4 + 1e-9),
            (0.3 - 2.2e-8, 0.3 - 2.1e-8),
            28,
            "sink",
        ),
        (
            "edge.json",
            (1.4 - 9.55e-9, 1.4 - 9.55e-9),
            (0.3 - 1.7213e-8, 0.3 - 1.7213e-8),
            28,
            "sink",
        ),
        // Closer than all, but not a sink: not ranked.
        (
            "unstable.json",
            (1.4 + 1e-9, 1.4 + 1e-9),
            (0.3, 0.3),
            28,
            "periodic-unstable",
        ),
        (
            "unproven.json",
            (1.4, 1.4),
            (0.3 - 1e-10, 0.3 - 1e-10),
            28,
            "not-proven",
        ),
    ];
    for (name, a, b, p, st) in specs {
        cert(&certs, name, a, b, p, st);
    }
    // A continuation record (a strip) and candidates.
    let strip = serde_json::json!({
        "schema": "expanse-continuation/1", "period": 28,
        "path": [{"a": "1.4", "b": "0.2999999774905"}, {"a": "1.39999999045", "b": "0.29999998279"}],
        "edge": {"boundary": {"a": "1.39999999045", "b": "0.29999998279"}},
        "strip": {"width": "1.2e-13"},
    });
    std::fs::write(d.join("continuation.json"), strip.to_string()).unwrap();
    let cands = d.join("c.jsonl");
    let line =
        |a: &str, b: &str| format!(r#"{{"a":"{a}","b":"{b}","period":28,"x":"0.5","y":"0.1"}}"#);
    std::fs::write(
        &cands,
        [
            line("1.4", "0.2999"),
            line("1.4000001", "0.3"),
            line("1.39999", "0.3"),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    // `expanse window` records: a certified segment is a strip; none certified, nothing.
    let seg = serde_json::json!({
        "schema": "expanse-window/1", "period": 28,
        "certified": {"from": {"a": "1.4", "b": "0.2999999774904"}, "to": {"a": "1.4", "b": "0.2999999774906"}},
    });
    std::fs::write(d.join("window.json"), seg.to_string()).unwrap();
    let none = serde_json::json!({"schema": "expanse-window/1", "period": 28, "certified": null});
    std::fs::write(d.join("window-none.json"), none.to_string()).unwrap();
    let inputs = load(&[
        certs.clone(),
        d.join("continuation.json"),
        d.join("window.json"),
        d.join("window-none.json"),
        cands.clone(),
    ])
    .unwrap();
    assert_eq!(inputs.strips.len(), 2);
    assert!(inputs.strips[0].centre_line && !inputs.strips[1].centre_line);
    assert_eq!(inputs.strips[1].points.len(), 2);
    let out = d.join("out");
    let target = Target::parse("1.4,0.3").unwrap();
    assert_eq!(target, Target::classical());
    write_report_near(&inputs, &out, Some(&target)).unwrap();

    // The ranking, against the oracle.
    let md = std::fs::read_to_string(out.join("closest_sinks.md")).unwrap();
    let got = rows(&md);
    let mut want: Vec<(Rational, Rational, &str)> = specs
        .iter()
        .filter(|s| s.4 == "sink")
        .map(|s| {
            let (n, f) = exact(s.1, s.2, &t);
            (n, f, s.0)
        })
        .collect();
    want.sort();
    assert_eq!(
        got.iter().map(|r| r[8].as_str()).collect::<Vec<_>>(),
        want.iter().map(|w| w.2).collect::<Vec<_>>(),
        "{md}"
    );
    assert_eq!(got[0][8], "edge.json");
    for (row, (n2, f2, name)) in got.iter().zip(&want) {
        let (near, far) = (
            decimal_rational(&row[4]).unwrap(),
            decimal_rational(&row[5]).unwrap(),
        );
        // Printed least distance ≤ exact least, printed largest ≥ exact largest, 12 digits.
        assert!(
            Rational::from(near.square_ref()) <= *n2,
            "{name}: {}",
            row[4]
        );
        assert!(
            Rational::from(far.square_ref()) >= *f2,
            "{name}: {}",
            row[5]
        );
        let rel = |p: &Rational, e2: &Rational| {
            let e = e2.to_f64().sqrt();
            ((p.to_f64() - e) / e).abs()
        };
        assert!(rel(&near, n2) < 1e-11 && rel(&far, f2) < 1e-11, "{name}");
    }
    // LaTeX: the same rows in the same order.
    let tex = std::fs::read_to_string(out.join("closest_sinks.tex")).unwrap();
    assert!(tex.contains("\\toprule") && tex.contains("\\bottomrule"));
    let tex_rows: Vec<&str> = tex
        .lines()
        .filter(|l| l.ends_with("\\\\") && l.starts_with(char::is_numeric))
        .collect();
    assert_eq!(tex_rows.len(), want.len());
    for (i, r) in tex_rows.iter().enumerate() {
        assert!(r.starts_with(&format!("{} & ", i + 1)));
    }
    // Candidates by distance: 1.4000001 (1e-7), 0.2999 (1e-4), 1.39999 (1e-5).
    let cm = std::fs::read_to_string(out.join("candidates_by_distance.md")).unwrap();
    let order: Vec<String> = rows(&cm).iter().map(|r| r[1].clone()).collect();
    assert_eq!(order, vec!["c.jsonl:2", "c.jsonl:3", "c.jsonl:1"], "{cm}");
    // The figure: PNG and SVG, the strip drawn in the colour of its period (periods 7 and 28
    // are shown, 7 within twice the nearest distance: 28 takes the second categorical colour).
    for ext in ["png", "svg"] {
        assert!(out.join(format!("near_target.{ext}")).is_file());
    }
    let orange = |dir: &Path| {
        let img = image::open(dir.join("near_target.png")).unwrap().to_rgb8();
        assert_eq!((img.width(), img.height()), expanse_reports::figures::SIZE);
        img.pixels().filter(|p| p.0 == [255, 127, 14]).count()
    };
    // The same report without the strip: the difference is the strip's line.
    let no_strip = d.join("no-strip");
    let without = load(&[certs.clone(), d.join("window.json"), cands.clone()]).unwrap();
    write_report_near(&without, &no_strip, Some(&target)).unwrap();
    let (with, bare) = (orange(&out), orange(&no_strip));
    assert!(
        with > bare + 100,
        "strip pixels: {with} against {bare} without the strip"
    );
    let svg = std::fs::read_to_string(out.join("near_target.svg")).unwrap();
    for text in [
        "seed 001 record",
        "target (1.4, 0.3)",
        "period 7",
        "period 28: strip",
    ] {
        assert!(svg.contains(text), "{text}");
    }
    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(index.contains("closest_sinks.md") && index.contains("near_target.png"));

    // Without a target: none of these files.
    let plain = d.join("plain");
    write_report(&inputs, &plain).unwrap();
    for f in [
        "closest_sinks.md",
        "closest_sinks.tex",
        "candidates_by_distance.md",
        "near_target.png",
    ] {
        assert!(!plain.join(f).exists(), "{f}");
    }
    assert!(Target::parse("1.4").is_err() && Target::parse("1.4,x").is_err());
    assert_eq!(
        decimal_rational("-2.5e-8"),
        Some(Rational::from((-1, 40_000_000)))
    );
    assert_eq!(decimal_rational("-7/5"), Some(Rational::from((-7, 5))));
    assert_eq!(decimal_rational("1/0"), None);
}
