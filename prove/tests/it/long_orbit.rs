//! A long-period proof that takes the split-precision path (MPFR, probe, cyclic solve at
//! fewer bits than the centres): a period-100 saddle orbit at the classical parameters
//! (1.4, 0.3). Checks the outcome (the periodic orbits of the Hénon attractor there are
//! saddles), that `verify` accepts the certificate (it recomputes every inclusion at the full
//! precision), and that the boxes contain the orbit: an orbit refined to 3× the proof's
//! precision must satisfy the cyclic equations to that precision (checked here with plain MPFR
//! arithmetic, an oracle independent of the interval code) and lie inside every X_i.

use expanse_prove::bench::periodic_orbit;
use expanse_prove::cert::certificate;
use expanse_prove::engine::{prove, Candidate, Options, Status};
use expanse_prove::verify::{verify_value, Verdict};
use rug::{Float, Rational};

#[test]
fn period_100_saddle_with_split_precision_solve() {
    let p = 100;
    let a = Float::with_val(4096, Float::parse("1.4").unwrap());
    let b = Float::with_val(4096, Float::parse("0.3").unwrap());
    let o = periodic_orbit(&a, &b, p, 256).expect("a period-100 orbit");
    let c = Candidate {
        source: "test".into(),
        a: "1.4".into(),
        b: "0.3".into(),
        radius: Rational::new(),
        period: p,
        x: o[0].clone(),
        y: Float::with_val(o[0].prec(), &b * &o[p - 1]),
        orbit: Some(o.clone()),
    };
    let pr = prove(&c, &Options::default()).unwrap();
    assert_eq!(pr.status, Status::PeriodicUnstable, "{:?}", pr.attempts);
    assert!(
        pr.attempts
            .iter()
            .any(|t| t.outcome.contains("cyclic solve at")),
        "split path not taken: {:?}",
        pr.attempts
    );
    let v = verify_value(&certificate(&pr)).unwrap();
    assert!(
        matches!(v, Verdict::Valid { status, .. } if status == Status::PeriodicUnstable),
        "{v:?}"
    );
    // Oracle: refine far beyond the proof's precision, check the residual directly.
    let hp = 3 * pr.bits + 512;
    let ah = Float::with_val(hp, Float::parse("1.4").unwrap());
    let bh = Float::with_val(hp, Float::parse("0.3").unwrap());
    let xs: Vec<Float> = pr.centres.iter().map(|v| Float::with_val(hp, v)).collect();
    let r = expanse_prove::orbit::refine(&xs, &ah, &bh, hp).expect("refines");
    let x = r.x;
    for i in 0..p {
        let xn = &x[(i + 1) % p];
        let xp = &x[(i + p - 1) % p];
        let g = Float::with_val(hp, xn - 1u32)
            + Float::with_val(hp, &ah * Float::with_val(hp, x[i].square_ref()))
            - Float::with_val(hp, &bh * xp);
        let tol = Float::with_val(53, 1) >> (2 * pr.bits);
        assert!(g.abs() < tol, "residual at {i}");
        let d = Float::with_val(hp, &x[i] - &pr.centres[i]).abs();
        assert!(d < pr.radii[i], "orbit point {i} outside its box");
    }
}
