//! Tanh-sinh quadrature at 50 digits against the closed forms of seed 000 Table 4, in MPFR and
//! in the limb floats on the CPU.

use expanse_apps::quadrature::{
    integrate, integrate_limb, run_precision, working_prec, Problem, Table, PROBLEMS,
};

#[test]
fn all_five_problems_at_50_digits() {
    let run = run_precision(50, 16);
    assert_eq!(run.results.len(), 5);
    for r in &run.results {
        assert!(
            r.correct_digits >= 45.0,
            "problem {}: {:.1} correct digits after {} levels",
            r.problem.id(),
            r.correct_digits,
            r.levels
        );
        assert!(r.levels >= 3 && r.levels < 16, "levels {}", r.levels);
        // The error estimate claims the requested accuracy, and the truth agrees.
        assert!(r.est_log10_err <= -50.0);
    }
}

#[test]
fn too_few_levels_are_detected_as_inaccurate() {
    // Two levels (h = 1/4) cannot reach 50 digits: the comparison with the closed form says
    // so, i.e. the check can fail.
    let mut table = Table::new(working_prec(50));
    for p in PROBLEMS {
        let r = integrate(p, 50, &mut table, 2);
        assert!(
            r.correct_digits < 45.0,
            "problem {}: {}",
            p.id(),
            r.correct_digits
        );
    }
}

#[test]
fn endpoint_complement_is_exact_far_out() {
    // The last node of a 50-digit table lies within 10^-50 of the endpoint; its complement
    // must still be a positive number with full precision (not 1 − x = 0).
    let mut table = Table::new(working_prec(50));
    let last = table.level(1).last().expect("nodes").c.clone();
    assert!(last > 0 && last < 1e-40, "c = {last}");
    let r = integrate(Problem::LogCos, 50, &mut table, 16);
    assert!(r.correct_digits >= 45.0);
}

#[test]
fn limb_floats_on_the_cpu_at_50_digits() {
    let mut table = Table::new(working_prec(50));
    for p in PROBLEMS {
        let l = integrate_limb(p, 50, &mut table, 16, None, true).expect("the CPU path runs");
        let r = &l.result;
        assert!(
            r.correct_digits >= 45.0,
            "problem {}: {:.1} correct digits after {} levels",
            p.id(),
            r.correct_digits,
            r.levels
        );
        assert!(r.levels >= 3 && r.levels < 16, "levels {}", r.levels);
        assert!(l.cpu_seconds.is_some() && l.gpu_seconds.is_none());
        assert_eq!((l.compared, l.mismatches), (0, 0));
        assert_eq!(2 * l.nodes, r.evaluations);
        // The same levels as MPFR's (the estimates agree to far more than the goal).
        let m = integrate(p, 50, &mut table, 16);
        assert_eq!(m.levels, r.levels, "problem {}", p.id());
    }
    // Too few levels: the comparison with the closed form says so.
    let l = integrate_limb(Problem::ExpCos, 50, &mut table, 2, None, true).unwrap();
    assert!(l.result.correct_digits < 45.0);
    // Neither backend asked for: an error, not a result.
    assert!(integrate_limb(Problem::Gauss, 50, &mut table, 16, None, false).is_err());
}
