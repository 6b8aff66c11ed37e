//! Known facts about the Hénon map the search must reproduce: the period-4 sink at
//! (a, b) = (1.0, 0.3) and the period-7 sink at (1.25, 0.3) (seed 001 §4; both are classical
//! windows of the Hénon family), for N = 1, 2, 4 terms; no attracting cycle at the classical
//! chaotic parameters (1.4, 0.3) for short runs; escapes at a = 2.

use expanse_search::backend::{Backend, CpuBackend};
use expanse_search::engine::{candidates_of_chunk, chunk_work};
use expanse_search::files::CandidateLine;
use expanse_search::orbit::OrbitStatus;
use expanse_search::spec::{RawSpec, SearchSpec};
use rug::Float;

fn spec(a: &str, b: &str, prec: &str, inits: u64, transient: &str) -> SearchSpec {
    spec_in(a, b, prec, "f64", inits, transient)
}

fn spec_in(a: &str, b: &str, prec: &str, base: &str, inits: u64, transient: &str) -> SearchSpec {
    SearchSpec::from_raw(&RawSpec {
        a: a.into(),
        b: b.into(),
        inits,
        seed: 7,
        transient: transient.into(),
        pmax: 64,
        escape: "1e3".into(),
        prec: prec.into(),
        base: base.into(),
        ..Default::default()
    })
    .unwrap()
}

fn search(s: &SearchSpec) -> (Vec<CandidateLine>, expanse_search::files::Summary) {
    let work = chunk_work(s, 0, s.param_count());
    let recs = CpuBackend.run(&s.job, &work).unwrap();
    candidates_of_chunk(s, 0, s.param_count(), &recs)
}

/// Checks in MPFR (256 bits) that the candidate point returns to itself after `period` steps
/// and not before, to within `tol`, that the cycle is attracting by its exact Jacobian, and
/// that the trace estimate is within `trace_tol` of the exact trace.
fn check_cycle_in_mpfr(c: &CandidateLine, tol: f64, trace_tol: f64) {
    let p = 256;
    let a = Float::with_val(p, c.a_value().unwrap());
    let b = Float::with_val(p, c.b_value().unwrap());
    let sum = |t: Vec<f64>| t.iter().fold(Float::with_val(p, 0), |acc, v| acc + v);
    let (x0, y0) = (sum(c.x_terms().unwrap()), sum(c.y_terms().unwrap()));
    let (mut x, mut y) = (x0.clone(), y0.clone());
    let (mut m00, mut m01, mut m10, mut m11) = (
        Float::with_val(p, 1),
        Float::with_val(p, 0),
        Float::with_val(p, 0),
        Float::with_val(p, 1),
    );
    for k in 1..=c.period {
        let j00 = Float::with_val(p, -2 * Float::with_val(p, &a * &x));
        let n00 = Float::with_val(p, &j00 * &m00) + &m10;
        let n01 = Float::with_val(p, &j00 * &m01) + &m11;
        let n10 = Float::with_val(p, &b * &m00);
        let n11 = Float::with_val(p, &b * &m01);
        (m00, m01, m10, m11) = (n00, n01, n10, n11);
        let nx = Float::with_val(p, 1 + &y) - Float::with_val(p, &a * Float::with_val(p, &x * &x));
        let ny = Float::with_val(p, &b * &x);
        (x, y) = (nx, ny);
        let d = Float::with_val(p, &x - &x0)
            .abs()
            .max(&Float::with_val(p, &y - &y0).abs());
        if k < c.period {
            assert!(d > tol, "returns after {k} < {} steps", c.period);
        } else {
            assert!(d < tol, "no return after {k} steps: {d}");
        }
    }
    let tr = Float::with_val(p, &m00 + &m11).to_f64();
    let det = Float::with_val(
        p,
        Float::with_val(p, &m00 * &m11) - Float::with_val(p, &m01 * &m10),
    )
    .to_f64();
    assert!(tr.abs() < 1.0 + det, "not attracting: tr {tr}, det {det}");
    let est = expanse_search::hexfloat::parse_f64(&c.trace_estimate).unwrap();
    assert!((est - tr).abs() < trace_tol, "trace estimate {est} vs {tr}");
}

fn find_sink(a: &str, period: u32) {
    for prec in ["1", "2", "4"] {
        let s = spec(a, "0.3", prec, 8, "20000");
        let (lines, sum) = search(&s);
        assert_eq!(sum.orbits, 8);
        let sinks: Vec<_> = lines.iter().filter(|c| c.attracting_estimate).collect();
        assert_eq!(sinks.len(), 1, "a = {a}, N = {prec}: {lines:?}");
        let c = sinks[0];
        assert_eq!(c.period, period, "a = {a}, N = {prec}");
        assert_eq!(c.x.len(), prec.parse::<usize>().unwrap());
        assert!(c.hits >= 1 && c.hits <= 8);
        // The canonical point is the smallest x of the cycle, whichever init found it.
        check_cycle_in_mpfr(c, 1e-9, 1e-6);
    }
}

#[test]
fn period_4_sink_at_a_1_0() {
    find_sink("1.0", 4);
}

#[test]
fn period_7_sink_at_a_1_25() {
    find_sink("1.25", 7);
}

#[test]
fn sinks_in_f32_terms() {
    // df64-style arithmetic (f32 terms, default tol 1e-5) finds the same cycles.
    for (a, period) in [("1.0", 4), ("1.25", 7)] {
        for prec in ["1", "2"] {
            let s = spec_in(a, "0.3", prec, "f32", 8, "20000");
            let (lines, _) = search(&s);
            let sinks: Vec<_> = lines.iter().filter(|c| c.attracting_estimate).collect();
            assert_eq!(sinks.len(), 1, "a = {a}, N = {prec}: {lines:?}");
            assert_eq!(sinks[0].period, period);
            assert_eq!(sinks[0].base, "f32");
            // The trace is estimated from the f32 leading terms: about 1e-6 off.
            check_cycle_in_mpfr(sinks[0], 1e-4, 1e-4);
        }
    }
}

#[test]
fn no_attracting_cycle_at_the_classical_parameters() {
    let s = spec("1.4", "0.3", "2", 16, "5000");
    let (lines, sum) = search(&s);
    assert!(lines.iter().all(|c| !c.attracting_estimate), "{lines:?}");
    assert_eq!(sum.orbits, 16);
    assert_eq!(sum.escaped + sum.no_cycle + sum.unconfirmed + sum.cycle, 16);
    // Most orbits stay on the chaotic attractor: no close return at all.
    assert!(sum.no_cycle >= 8, "{sum:?}");
}

#[test]
fn escapes_at_a_2() {
    // At (2, 0.3), beyond the end of the Hénon attractor's parameter range (a ≈ 1.43 for
    // b = 0.3), orbits from the box of initial points go to infinity. An easy certainty for
    // the far points: if |x| ≥ 2 and |y| ≤ 0.3|x| then |x'| ≥ 2x² − 1 − 0.3|x| > 2|x|.
    // Escape is checked every 1024 steps and at the end of the transient.
    let s = spec("2", "0.3", "2", 16, "3000");
    let (lines, sum) = search(&s);
    assert!(lines.is_empty());
    assert_eq!(sum.escaped, 16, "{sum:?}");
    let recs = CpuBackend.run(&s.job, &chunk_work(&s, 0, 1)).unwrap();
    assert!(recs
        .iter()
        .all(|r| r.status == OrbitStatus::Escaped && (r.steps % 1024 == 0 || r.steps == 3000)));
}
