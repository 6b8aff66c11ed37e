//! The QRS constant: the independent zeta characterisation, and Newton + extrapolation up to
//! N = 4^6 against it.

use expanse_apps::qrs::{agreement_digits, hurwitz_zeta, qrs_constant, residual, run, solve};
use expanse_core::QuadDouble;
use rug::Float;

#[test]
fn hurwitz_zeta_matches_riemann_zeta_and_pi() {
    let prec = 256;
    let b = bernoulli_for_test();
    // ζ(2, 1) = π²/6 and ζ(1/2, 1) = ζ(1/2) (MPFR's Riemann zeta).
    let two = Float::with_val(prec, 2);
    let one = Float::with_val(prec, 1);
    let z2 = hurwitz_zeta(&two, &one, 100, &b, prec);
    let pi2_6 = Float::with_val(prec, rug::float::Constant::Pi).square() / 6u32;
    assert!(agreement_digits(&z2, &pi2_6, 200.0) > 70.0);
    let half = Float::with_val(prec, 0.5);
    let zh = hurwitz_zeta(&half, &one, 100, &b, prec);
    let riemann = Float::with_val(prec, half.zeta_ref());
    assert!(agreement_digits(&zh, &riemann, 200.0) > 70.0);
}

fn bernoulli_for_test() -> Vec<rug::Rational> {
    // B_0..B_60 by the explicit formula B_m = Σ_k Σ_j (−1)^j C(k, j) j^m / (k + 1), an
    // independent route from the library's recurrence (B_1 = +1/2 convention: irrelevant,
    // only even indices are used).
    (0..=60u32)
        .map(|m| {
            let mut s = rug::Rational::new();
            for k in 0..=m {
                let mut inner = rug::Rational::new();
                for j in 0..=k {
                    let c = rug::Integer::from(rug::Integer::binomial_u(k, j));
                    let p = rug::Integer::from(rug::Integer::u_pow_u(j, m));
                    let t = rug::Rational::from(c * p);
                    if j % 2 == 0 {
                        inner += t;
                    } else {
                        inner -= t;
                    }
                }
                s += inner / rug::Rational::from(k + 1);
            }
            s
        })
        .collect()
}

#[test]
fn zeta_zero_is_the_published_constant() {
    let c = qrs_constant(256);
    // Seed 000 §5.2: c1 = 0.6054436...
    let s = c.to_string_radix(10, Some(8));
    assert!(s.starts_with("6.054436"), "{s}");
}

#[test]
fn newton_root_has_tiny_residual_and_does_not_depend_on_the_guess() {
    let a = solve(4, &QuadDouble::from_f64(0.6));
    let b = solve(4, &QuadDouble::from_f64(0.61));
    assert!(a.converged && b.converged);
    assert!(a.s.sub(&b.s).hi().abs() < 1e-60);
    let (f, df) = residual(a.n, &a.delta);
    // |F/F'| is the distance to the root, below the stopping tolerance.
    assert!((f.hi() / df).abs() < 1e-60, "{}", f.hi() / df);
    // A perturbed δ is not a root: the check can fail.
    let off = a.delta.add(&QuadDouble::from_f64(1e-30));
    let (g, _) = residual(a.n, &off);
    assert!((g.hi() / df).abs() > 1e-31);
}

#[test]
fn extrapolation_to_m6_agrees_with_the_zeta_zero() {
    let r = run(6);
    assert!(r.roots.iter().all(|x| x.converged));
    assert!(r.digits >= 12.0, "{} digits", r.digits);
    // Without extrapolation c_N is only ~4 digits from c1.
    let raw = r.roots.last().expect("roots").c.to_rug();
    assert!(agreement_digits(&raw, &r.known, 100.0) < 6.0);
}

#[test]
fn array_layer_residual_agrees_with_the_chunked_cpu_path() {
    use expanse_apps::qrs::residual_on;
    use expanse_gpu::array::Arrays;
    // Two independent summation orders of the same terms: F agrees to ~qd precision relative
    // to the terms' size (Σ|terms| ~ N·√N·...), F' to f64 precision.
    let n = 1u64 << 12;
    let delta = QuadDouble::from_f64(0.6054).div_term(n as f64);
    let (f, df) = residual(n, &delta);
    let (g, dg) = residual_on(&Arrays::cpu(), n, &delta).unwrap();
    let scale = (n as f64).powf(1.5);
    assert!(f.sub(&g).hi().abs() < 1e-55 * scale, "{f} vs {g}");
    assert!(((df - dg) / df).abs() < 1e-12);
    // And F is not trivially zero: a different δ moves it far more.
    let (h, _) = residual_on(&Arrays::cpu(), n, &delta.add_term(1e-20)).unwrap();
    assert!(h.sub(&g).hi().abs() > 1e-20);
}

#[test]
fn the_qrs_report_on_the_host_backend_passes_at_m6() {
    use expanse_apps::qrs::{report, run, run_on, Setup};
    use expanse_gpu::array::Arrays;
    let a = run_on(&Arrays::cpu(), 6).unwrap();
    let b = run(6);
    for (x, y) in a.roots.iter().zip(&b.roots) {
        assert!(x.converged);
        assert!(x.s.sub(&y.s).hi().abs() < 1e-58, "m = {}", x.m);
    }
    assert!(a.digits >= 12.0, "{} digits", a.digits);
    let rep = report(&Setup {
        m_max: 6,
        min_digits: 12.0,
        gpu: None,
        cpu_max_m: 6,
    });
    assert!(rep.passed, "{}", rep.text());
    assert!(rep.json().contains("\"s_N(m=6)\""));
    // Asking for more digits than six N give makes the report fail.
    let rep = report(&Setup {
        m_max: 6,
        min_digits: 40.0,
        gpu: None,
        cpu_max_m: 6,
    });
    assert!(!rep.passed);
}
