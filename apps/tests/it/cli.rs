//! The shared command line: flags, errors naming the flag, JSON shape.

use expanse_apps::cli::{json_string, parse_args, Report};

#[test]
fn flags_parse_and_unknown_ones_are_named() {
    let o = parse_args(["--quick", "--json"]).expect("valid flags");
    assert!(o.quick && o.json && !o.help);
    assert!(parse_args(["--help"]).expect("help").help);
    let e = parse_args(["--quick", "--fast"]).expect_err("unknown flag");
    assert!(e.contains("--fast"), "{e}");
    let e = parse_args(["stray"]).expect_err("stray argument");
    assert!(e.contains("stray"), "{e}");
}

#[test]
fn report_json_and_verdict() {
    let mut r = Report::new("demo");
    r.result("x \"1\"", "1.5e0");
    r.check("fine", true);
    assert_eq!(r.exit_code(), 0);
    assert_eq!(
        r.json(),
        r#"{"application":"demo","passed":true,"results":[{"name":"x \"1\"","value":"1.5e0"}]}"#
    );
    r.check("broken", false);
    assert_eq!(r.exit_code(), 1);
    assert!(r.text().contains("check FAILED: broken"));
    assert_eq!(json_string("a\nb\\"), r#""a\nb\\""#);
}
