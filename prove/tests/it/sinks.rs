//! End-to-end proofs of the known sinks of MATH.md §5 and of unstable orbits, and rejection of
//! wrong candidates. Orbits are found here by iterating the map in f64 (a sink attracts) or
//! from closed-form formulas (fixed point, period-2 orbit), never taken from the code under
//! test.

use expanse_prove::cert::certificate;
use expanse_prove::engine::{prove, Candidate, Options, Proof, Status};
use expanse_prove::verify::{verify_value, Verdict};
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

fn show(p: &Proof) -> String {
    format!(
        "{:?} {:?} {:?} attempts={:?}",
        p.status, p.reason, p.growth, p.attempts
    )
}

fn radii() -> [Rational; 2] {
    [Rational::from(0), Rational::from((1, 100_000_000))]
}

/// Proves, checks the status, and checks that `verify` accepts the certificate.
fn prove_and_verify(c: &Candidate, want: Status) -> Proof {
    let pr = prove(c, &Options::default()).unwrap();
    assert_eq!(pr.status, want, "{}", show(&pr));
    let v = verify_value(&certificate(&pr)).unwrap();
    assert!(
        matches!(v, Verdict::Valid { status, .. } if status == want),
        "{v:?}"
    );
    pr
}

#[test]
fn period_4_sink_at_a_1_0() {
    let (x, y) = attractor_point(1.0, 0.3, 5000);
    for r in radii() {
        let pr = prove_and_verify(&cand("1.0", "0.3", r, 4, x, y), Status::Sink);
        // a = 1.0 is exact, b = 0.3 is not: the box says so.
        assert_eq!(pr.params.a.is_exact(), pr.params.a.radius == 0);
        assert!(!pr.params.b.is_exact());
    }
}

#[test]
fn period_7_sink_at_a_1_25() {
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    for r in radii() {
        prove_and_verify(&cand("1.25", "0.3", r, 7, x, y), Status::Sink);
    }
}

#[test]
fn period_7_sink_at_a_1_3() {
    // a = 1.3 itself lies in the second period-7 window (an f64 orbit from (0.1, 0.1) settles
    // on a 7-cycle there).
    let (x, y) = attractor_point(1.3, 0.3, 100_000);
    for r in radii() {
        prove_and_verify(&cand("1.3", "0.3", r, 7, x, y), Status::Sink);
    }
}

#[test]
fn fixed_point_and_period_2_at_the_classical_parameters_are_unstable() {
    let (a, b) = (1.4f64, 0.3f64);
    // Fixed point: x = (b − 1 + sqrt((1 − b)² + 4a)) / (2a).
    let xf = (b - 1.0 + ((1.0 - b) * (1.0 - b) + 4.0 * a).sqrt()) / (2.0 * a);
    prove_and_verify(
        &cand("1.4", "0.3", Rational::from(0), 1, xf, b * xf),
        Status::PeriodicUnstable,
    );
    // Period 2: x = ((1 − b) ± sqrt(4a − 3(1 − b)²)) / (2a), the other point is the other root.
    let s = (4.0 * a - 3.0 * (1.0 - b) * (1.0 - b)).sqrt();
    let (x0, x1) = (((1.0 - b) + s) / (2.0 * a), ((1.0 - b) - s) / (2.0 * a));
    for r in radii() {
        prove_and_verify(
            &cand("1.4", "0.3", r, 2, x0, b * x1),
            Status::PeriodicUnstable,
        );
    }
    // The fixed point is not a period-2 orbit: the minimal-period check must refuse it.
    let pr = prove(
        &cand("1.4", "0.3", Rational::from(0), 2, xf, b * xf),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(pr.status, Status::NotProven, "{}", show(&pr));
}

#[test]
fn wrong_candidates_are_never_certified() {
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    let opts = Options::default();
    let mut tried = 0;
    // Wrong period (5, 6, 8), a multiple of the true period (14, 21), point off the orbit.
    for p in [5usize, 6, 8, 14, 21] {
        let pr = prove(&cand("1.25", "0.3", Rational::from(0), p, x, y), &opts).unwrap();
        assert_eq!(pr.status, Status::NotProven, "period {p}: {}", show(&pr));
        if p % 7 == 0 {
            // The orbit exists (it is the 7-cycle run twice): only the minimal period fails.
            assert!(
                pr.reason
                    .as_deref()
                    .unwrap_or("")
                    .contains("minimal period"),
                "{}",
                show(&pr)
            );
        }
        tried += 1;
    }
    for (dx, dy) in [(1e-3, 0.0), (0.0, 1e-3), (0.2, -0.05)] {
        let pr = prove(
            &cand("1.25", "0.3", Rational::from(0), 7, x + dx, y + dy),
            &opts,
        )
        .unwrap();
        assert_eq!(
            pr.status,
            Status::NotProven,
            "shift ({dx}, {dy}): {}",
            show(&pr)
        );
        tried += 1;
    }
    // A chaotic point at the classical parameters claimed as period 7.
    let (cx, cy) = attractor_point(1.4, 0.3, 10_000);
    let pr = prove(&cand("1.4", "0.3", Rational::from(0), 7, cx, cy), &opts).unwrap();
    assert_eq!(pr.status, Status::NotProven, "{}", show(&pr));
    tried += 1;
    // Period 8 at a = 1.0 (twice the true period 4).
    let (x4, y4) = attractor_point(1.0, 0.3, 5000);
    let pr = prove(&cand("1.0", "0.3", Rational::from(0), 8, x4, y4), &opts).unwrap();
    assert_eq!(pr.status, Status::NotProven, "{}", show(&pr));
    tried += 1;
    assert_eq!(tried, 10);
}

#[test]
fn a_box_too_wide_for_the_window_is_not_proved() {
    // ±0.05 around 1.25 leaves the period-7 window [1.2266, 1.2541]: no sink for all of it.
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    let pr = prove(
        &cand("1.25", "0.3", Rational::from((1, 20)), 7, x, y),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(pr.status, Status::NotProven, "{}", show(&pr));
}
