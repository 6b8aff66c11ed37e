//! Lennard-Jones MD at N = 108 (3x3x3 fcc cells, box 5.25 > 2 r_c): the formats against a dd reference, the
//! force against finite differences of the energy, and identical results on any thread count.

use expanse_apps::md::{
    deviation, energy, forces, initial, run, run_on, state, MdReal, Quasi, LATTICE,
};
use expanse_core::DoubleDouble;

#[test]
fn quasi_double_tracks_dd_like_f64_and_f32_does_not() {
    let (k, seed, steps) = (3, 11, 200);
    let dd = run::<DoubleDouble>(k, seed, steps, 50);
    let f32r = run::<f32>(k, seed, steps, 50);
    let q = run::<Quasi>(k, seed, steps, 50);
    let f64r = run::<f64>(k, seed, steps, 50);
    let l = LATTICE * k as f64;
    let (d32, dq, d64) = (
        deviation(&f32r.x, &dd.x, l),
        deviation(&q.x, &dd.x, l),
        deviation(&f64r.x, &dd.x, l),
    );
    assert!(d64 > 0.0 && d64 < 1e-11, "f64 {d64}");
    assert!(dq < 1000.0 * d64, "quasi {dq} vs f64 {d64}");
    assert!(d32 > 1e4 * d64, "f32 {d32} vs f64 {d64}");
    // Energy is conserved to Verlet's truncation level in dd.
    assert!(dd.drift() < 1e-3, "{}", dd.drift());
}

#[test]
fn force_is_minus_the_gradient_of_the_energy() {
    // Central differences of the total potential (in dd) against the computed force (in dd).
    let (l, x, _) = initial(3, 3);
    let mut x = x;
    // Displace a few particles off the lattice so that the forces are not zero.
    for (i, p) in x.iter_mut().enumerate() {
        p[0] += 0.01 * (i % 5) as f64;
        p[1] -= 0.007 * (i % 3) as f64;
        p[2] += 0.013 * (i % 7) as f64;
    }
    let zero_v = vec![[0.0; 3]; x.len()];
    let s = state::<DoubleDouble>(l, &x, &zero_v);
    let h = 1e-6;
    for &(i, c) in &[(0usize, 0usize), (5, 1), (17, 2), (100, 0)] {
        let mut xp = x.clone();
        xp[i][c] += h;
        let mut xm = x.clone();
        xm[i][c] -= h;
        let ep = energy(&state::<DoubleDouble>(l, &xp, &zero_v));
        let em = energy(&state::<DoubleDouble>(l, &xm, &zero_v));
        let fd = -(ep - em) / (2.0 * h);
        let f = s.f[i][c].to_f64();
        assert!(
            (fd - f).abs() < 1e-6 * (1.0 + f.abs()),
            "{i},{c}: {fd} vs {f}"
        );
    }
    // Forces sum to zero (Newton's third law), up to rounding.
    let (f, _) = forces::<f64>(l, &x.clone(), false);
    for c in 0..3 {
        let s: f64 = f.iter().map(|v| v[c]).sum();
        assert!(s.abs() < 1e-10, "{s}");
    }
}

#[test]
fn runs_are_identical_on_any_thread_count_and_quasi_recip_is_accurate() {
    for threads in [2, 3] {
        let a = run_on::<Quasi>(1, 3, 5, 10).expect("pool");
        let b = run_on::<Quasi>(threads, 3, 5, 10).expect("pool");
        assert_eq!(a.x, b.x);
        assert_eq!(a.energies, b.energies);
    }
    // The quasi-double reciprocal by one Newton step: about 2^-44 relative.
    for v in [1.0f64 / 3.0, 2.75, 6.1, 0.9] {
        let r = Quasi::from_f64(v).recip().to_f64();
        assert!((r * v - 1.0).abs() < 1e-12, "{v}: {r}");
    }
}

#[test]
fn long_run_at_the_small_step_keeps_quasi_drift_with_dd_and_f32_drifts_more() {
    use expanse_apps::md::{report_with, run_tracked, MdConfig, LONG_DT};
    // md --long at a tiny size: N = 108, dt = 2^-12, where Verlet's own energy oscillation
    // (about 4e-7 of E) no longer hides f32's accumulated rounding.
    let cfg = MdConfig::long(3, 3000, 4, 2026, 16);
    let rep = report_with(&cfg, None);
    assert!(rep.passed, "{}", rep.text());
    let get = |name: &str| -> f64 {
        let v = &rep.results.iter().find(|(n, _)| n == name).expect(name).1;
        v.parse().expect("a number")
    };
    let (e32, eq, e64, edd) = (
        get("f32 energy drift"),
        get("quasi-double energy drift"),
        get("f64 energy drift"),
        get("dd energy drift"),
    );
    assert!(edd > 0.0 && edd < 1e-5, "dd drift {edd}");
    assert!(
        eq <= 2.0 * e64.max(edd),
        "quasi {eq} vs f64 {e64}, dd {edd}"
    );
    assert!(
        e32 >= 3.0 * e64.max(edd),
        "f32 {e32} vs f64 {e64}, dd {edd}"
    );
    // The tracked positions are those of a run that stops at the tracked step.
    let a = run_tracked::<f32>(3, 5, 40, 10, 25, LONG_DT);
    let b = run_tracked::<f32>(3, 5, 25, 25, 25, LONG_DT);
    assert_eq!(a.track, 25);
    assert_eq!(a.x_track, b.x);
    assert_ne!(a.x_track, a.x);
}
