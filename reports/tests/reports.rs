//! Reports from hand-made fixtures: tables hold the right numbers (worked out by hand from the
//! hex-float endpoints), bad inputs are refused with file and line, and every figure is a valid
//! PNG and SVG of the intended size that shows what its caption says.

use expanse_reports::{load, load_bench, write_report, ErrorKind, Status};

mod near_target;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("reports-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn fixtures_load_with_their_statuses_and_boxes() {
    let inputs = load(&[
        fixtures().join("candidates.jsonl"),
        fixtures().join("certs"),
    ])
    .unwrap();
    assert_eq!(inputs.candidates.len(), 6);
    assert_eq!(inputs.certificates.len(), 3);
    let mut periods: Vec<(u64, Status, usize)> = inputs
        .certificates
        .iter()
        .map(|c| (c.period, c.status, c.boxes.len()))
        .collect();
    periods.sort();
    assert_eq!(
        periods,
        vec![
            (1, Status::PeriodicUnstable, 1),
            (4, Status::Sink, 4),
            (7, Status::Sink, 7)
        ]
    );
    // The trace of the period-4 fixture is the top-level one, not the cross-check's [8, 16].
    let c4 = inputs.certificates.iter().find(|c| c.period == 4).unwrap();
    assert_eq!(c4.trace.as_ref().unwrap().hi.to_f64(), -0.125);
}

#[test]
fn tables_hold_the_right_numbers() {
    let inputs = load(&[fixtures().join("certs")]).unwrap();
    let md = expanse_reports::tables::certificates_markdown(&inputs.certificates);
    let tex = expanse_reports::tables::certificates_latex(&inputs.certificates);
    // b = [0x1.3333333333333p-2, 0x1.3333333333334p-2] = [0.29999999999999998889…,
    // 0.30000000000000004440…]: outward to 17 digits.
    assert!(
        md.contains("[0.29999999999999998, 0.30000000000000005]"),
        "{md}"
    );
    // tr = [-0x1p-2, -0x1p-3] = [-0.25, -0.125], exact.
    assert!(md.contains("| 4 | [-0.25, -0.125] |"), "{md}");
    // det = [0x1p-7, 0x1.1p-7] = [0.0078125, 0.00830078125]; upper end rounded up to 8 digits.
    assert!(md.contains("[0.0078125, 0.0083007813]"), "{md}");
    // tr = [-0x1.5555555555555p-2, -0x1.5555555555554p-2] ≈ [-0.333333333333333315,
    // -0.333333333333333259]: 8 digits outward.
    assert!(md.contains("[-0.33333334, -0.33333333]"), "{md}");
    // a = 1.4 as f64 = 1.399999999999999911182…, 17 significant digits.
    assert!(md.contains("| 1.3999999999999999 |"), "{md}");
    // Order: sinks first (period 4, then 7), then the unstable fixed point.
    let i4 = md.find("| 4 |").unwrap();
    let i7 = md.find("| 7 |").unwrap();
    let iu = md.find("periodic-unstable").unwrap();
    assert!(i4 < i7 && i7 < iu);
    assert!(tex.contains("\\toprule") && tex.contains("\\midrule") && tex.contains("\\bottomrule"));
    assert!(tex.contains("$[-0.25, -0.125]$"), "{tex}");
    assert!(tex.contains("periodic-unstable \\\\"), "{tex}");
    assert_eq!(tex.matches("\\\\\n").count(), 4, "header + 3 rows: {tex}");
}

#[test]
fn mixed_schemas_are_refused() {
    let d = scratch("mixed");
    let c = std::fs::read_to_string(fixtures().join("certs/p4_a1.json")).unwrap();
    std::fs::write(d.join("a.json"), &c).unwrap();
    std::fs::write(
        d.join("b.json"),
        c.replace("expanse-certificate/1", "expanse-certificate/2"),
    )
    .unwrap();
    let e = load(&[d.clone()]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MixedSchema);
    assert_eq!(e.path.as_deref(), Some(d.join("b.json").as_path()));

    // Candidates of two schema versions.
    let cand = std::fs::read_to_string(fixtures().join("candidates.jsonl")).unwrap();
    let mut lines: Vec<String> = cand.lines().map(String::from).collect();
    for (i, l) in lines.iter_mut().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["schema"] = format!("expanse-candidate/{}", 1 + i / 4).into();
        *l = v.to_string();
    }
    std::fs::write(d.join("two.jsonl"), lines.join("\n")).unwrap();
    let e = load(&[d.join("two.jsonl")]).unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::MixedSchema, Some(5)));

    // A certificate as line 2 of a candidates file.
    let cand = std::fs::read_to_string(fixtures().join("candidates.jsonl")).unwrap();
    let first = cand.lines().next().unwrap();
    let cert: serde_json::Value = serde_json::from_str(&c).unwrap();
    std::fs::write(d.join("mixed.jsonl"), format!("{first}\n{cert}\n")).unwrap();
    let e = load(&[d.join("mixed.jsonl")]).unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::MixedSchema, Some(2)));
}

#[test]
fn unreadable_inputs_are_refused_with_file_and_line() {
    let d = scratch("bad");
    let cand = std::fs::read_to_string(fixtures().join("candidates.jsonl")).unwrap();
    let mut lines: Vec<&str> = cand.lines().collect();
    lines[2] = "{\"map\": \"henon\", \"a\": ";
    std::fs::write(d.join("broken.jsonl"), lines.join("\n")).unwrap();
    let e = load(&[d.join("broken.jsonl")]).unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Parse, Some(3)));
    assert!(e.to_string().contains("broken.jsonl:3:"), "{e}");

    // A candidate without its period.
    let no_period = cand.lines().next().unwrap().replace("\"period\": 4, ", "");
    std::fs::write(d.join("noperiod.jsonl"), format!("{no_period}\n")).unwrap();
    let e = load(&[d.join("noperiod.jsonl")]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);

    // A certificate whose status is not one of the three.
    let c = std::fs::read_to_string(fixtures().join("certs/p4_a1.json")).unwrap();
    std::fs::write(d.join("status.json"), c.replace("\"sink\"", "\"maybe\"")).unwrap();
    let e = load(&[d.join("status.json")]).unwrap_err();
    assert!(e.message.contains("status"), "{e}");

    // A certificate box with lo > hi in a.
    let mut v: serde_json::Value = serde_json::from_str(&c).unwrap();
    v["a"]["lo"] = "0x1.8p+0".into();
    std::fs::write(d.join("box.json"), v.to_string()).unwrap();
    let e = load(&[d.join("box.json")]).unwrap_err();
    assert!(e.message.contains("lower endpoint above upper"), "{e}");

    // Missing files and truncated JSON.
    assert_eq!(
        load(&[d.join("nope.json")]).unwrap_err().kind,
        ErrorKind::Io
    );
    std::fs::write(d.join("trunc.json"), &c[..c.len() / 2]).unwrap();
    let e = load(&[d.join("trunc.json")]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);
    // The error points at the end of the truncated text, not at its first line.
    let lines = c[..c.len() / 2].lines().count();
    assert!(e.line.unwrap() >= lines.saturating_sub(1), "{e}");
}

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png).unwrap();
    (img.width(), img.height())
}

/// Pixels of exactly this colour.
fn count_colour(path: &Path, rgb: [u8; 3]) -> usize {
    let img = image::open(path).unwrap().to_rgb8();
    img.pixels().filter(|p| p.0 == rgb).count()
}

#[test]
fn figures_are_valid_png_and_svg_and_show_their_content() {
    let d = scratch("figs");
    let mut inputs = load(&[
        fixtures().join("candidates.jsonl"),
        fixtures().join("certs"),
    ])
    .unwrap();
    load_bench(&fixtures().join("bench.json"), &mut inputs).unwrap();
    assert_eq!((inputs.rates.len(), inputs.proof_timings.len()), (6, 5));
    let rep = write_report(&inputs, &d).unwrap();
    let stems = [
        "attractor",
        "parameter_map",
        "period_histogram",
        "sink_1_period_4",
        "sink_2_period_7",
        "bench_rates",
        "proof_time",
    ];
    for s in stems {
        let png = d.join(format!("{s}.png"));
        let svg = d.join(format!("{s}.svg"));
        assert!(rep.files().contains(&png.as_path()), "{s}");
        assert_eq!(png_size(&png), (900, 700), "{s}");
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(
            text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
            "{s}"
        );
        // Titles are real text in the SVG, and the PNG is not blank (a blank 900×700 PNG
        // compresses to a few hundred bytes).
        assert!(text.contains("<text"), "{s}");
        assert!(std::fs::metadata(&png).unwrap().len() > 10_000, "{s}");
    }
    let svg = |s: &str| std::fs::read_to_string(d.join(format!("{s}.svg"))).unwrap();
    assert!(svg("parameter_map").contains("proved sink"));
    assert!(svg("parameter_map").contains("proved periodic, unstable"));
    assert!(svg("sink_1_period_4").contains("Sink of period 4"));
    assert!(svg("bench_rates").contains("gpu") && svg("bench_rates").contains("mpfr"));
    // The sink figure shows p numbered points: 4 green discs of radius 6 (≥ 4·100 pixels of
    // the sink colour, legend marker included) and the labels 0..3.
    let green = [0u8, 128, 60];
    let n4 = count_colour(&d.join("sink_1_period_4.png"), green);
    let n7 = count_colour(&d.join("sink_2_period_7.png"), green);
    assert!(n4 > 400 && n7 > n4, "{n4} {n7}");
    for i in 0..4 {
        assert!(
            svg("sink_1_period_4").contains(&format!(">\n{i}\n</text>")),
            "label {i}"
        );
    }
    // Tables and the index were written too.
    for f in [
        "certificates.md",
        "certificates.tex",
        "candidates_summary.md",
        "index.md",
    ] {
        assert!(d.join(f).exists(), "{f}");
    }
    // No temporary files are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn empty_inputs_are_refused() {
    let d = scratch("empty");
    let inputs = load(&[d.clone()]).unwrap();
    assert_eq!(
        write_report(&inputs, &d.join("out")).unwrap_err().kind,
        ErrorKind::Empty
    );
}

#[test]
fn parameter_plane_only_when_b_varies() {
    let d = scratch("plane");
    // Candidates at b = f64(0.3) and certificates whose b boxes enclose the decimal 0.3 are
    // one value of b.
    let one_b = load(&[
        fixtures().join("candidates.jsonl"),
        fixtures().join("certs"),
    ])
    .unwrap();
    write_report(&one_b, &d.join("one")).unwrap();
    assert!(!d.join("one/parameter_plane.png").exists());

    // Move one candidate to b = 0.25.
    let text = std::fs::read_to_string(fixtures().join("candidates.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    v["b"] = serde_json::json!({"decimal": "0.25", "hex": "0x1p-2"});
    lines[0] = v.to_string();
    std::fs::write(d.join("two_b.jsonl"), lines.join("\n")).unwrap();
    let two_b = load(&[d.join("two_b.jsonl")]).unwrap();
    assert_eq!(two_b.candidates[0].b, 0.25);
    write_report(&two_b, &d.join("two")).unwrap();
    assert_eq!(png_size(&d.join("two/parameter_plane.png")), (900, 700));
    let svg = std::fs::read_to_string(d.join("two/parameter_plane.svg")).unwrap();
    // One legend entry per period present (4, 7, 14).
    for p in [4, 7, 14] {
        assert!(svg.contains(&format!("period {p}")), "period {p}");
    }
}
