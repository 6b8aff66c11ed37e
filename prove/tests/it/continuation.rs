//! `expanse_prove::continuation` on the public period-7 window near (1.25, 0.3) (MATH.md §5)
//! and on the record sink of seed 001 at (1.4, 0.2999999774905) (period 28,
//! `docs/closest-sinks/sink-p28-record.json`).
//!
//! The oracle is independent of the code under test: simultaneous Newton on the augmented
//! system {cyclic orbit equations, tr Dh^p = σ·(1 + det Dh^p)} in the unknowns
//! (x_0, …, x_{p−1}, s) with the parameters on a line (a, b) = base + s·u, at 320 bits, with a
//! central-difference Jacobian and dense elimination (no banded solve, no analytic gradient, no
//! continuation). With it:
//! - the centre line (σ = 0) crosses the ray from the target through the proved centre-line
//!   point within the stated across-accuracy (plus the decimal rounding) of it;
//! - on rays turned by ±δ the crossings are farther from the target, and the vertex of the
//!   parabola through the three distances (the foot of the perpendicular) lies within the
//!   stated along-accuracy (plus rounding) of the proved point's ray;
//! - the strip's end on the target's side (σ = −1, a period doubling) along the reported normal
//!   lies within the stated accuracy of the estimate.
//!
//! And: every proof (centre-line point, box, edge point) is a sink that `verify` accepts, each
//! closer to the target than the start; on the record sink the edge point is closer than the
//! previous closest certificate in `docs/closest-sinks/`, distance measured exactly. The
//! analytic gradient of tr M is checked against central differences.

use expanse_prove::cert::certificate;
use expanse_prove::continuation::{
    distance2, evaluate, follow, proof_distance2, Continuation, ContinueOptions, FollowError,
};
use expanse_prove::engine::{Candidate, Proof, Status};
use expanse_prove::numfmt::parse_exact;
use expanse_prove::verify::{verify_value, Verdict};
use expanse_prove::window::{EndKind, Start};
use rug::{Float, Rational};

const BITS: u32 = 320;

fn p7_start() -> Start {
    super::window::start()
}

fn docs_cert(name: &str) -> serde_json::Value {
    let path = format!(
        "{}/../docs/closest-sinks/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("certificate in docs/closest-sinks");
    serde_json::from_str(&text).unwrap()
}

fn f(v: &Rational) -> Float {
    Float::with_val(BITS, v)
}

/// The oracle's residual at (x, s): G_i(x; a, b) and tr M − σ·(1 + (−b)^p), with
/// (a, b) = base + s·u.
fn residual(v: &[Float], base: &(Float, Float), u: &(Float, Float), sigma: i32) -> Vec<Float> {
    let p = v.len() - 1;
    let s = &v[p];
    let a = Float::with_val(BITS, &base.0 + Float::with_val(BITS, s * &u.0));
    let b = Float::with_val(BITS, &base.1 + Float::with_val(BITS, s * &u.1));
    let mut r: Vec<Float> = (0..p)
        .map(|i| {
            Float::with_val(BITS, &v[(i + 1) % p] - 1u32)
                + Float::with_val(BITS, &a * Float::with_val(BITS, v[i].square_ref()))
                - Float::with_val(BITS, &b * &v[(i + p - 1) % p])
        })
        .collect();
    // M = J_{p−1}···J_0, J_i = [[−2a·x_i, 1], [b, 0]], accumulated as M ← J_i·M.
    let mut m = [
        Float::with_val(BITS, 1),
        Float::with_val(BITS, 0),
        Float::with_val(BITS, 0),
        Float::with_val(BITS, 1),
    ];
    for xi in &v[..p] {
        let c = Float::with_val(BITS, -2 * Float::with_val(BITS, &a * xi));
        m = [
            Float::with_val(BITS, &c * &m[0]) + &m[2],
            Float::with_val(BITS, &c * &m[1]) + &m[3],
            Float::with_val(BITS, &b * &m[0]),
            Float::with_val(BITS, &b * &m[1]),
        ];
    }
    let mut det = Float::with_val(BITS, 1);
    for _ in 0..p {
        det *= Float::with_val(BITS, -&b);
    }
    let tr = Float::with_val(BITS, &m[0] + &m[3]);
    r.push(tr - Float::with_val(BITS, (1 + det) * sigma));
    r
}

fn solve_dense(mut m: Vec<Vec<Float>>, mut v: Vec<Float>) -> Vec<Float> {
    let n = v.len();
    for k in 0..n {
        let piv = (k..n)
            .max_by(|&i, &j| m[i][k].cmp_abs(&m[j][k]).unwrap())
            .unwrap();
        m.swap(k, piv);
        v.swap(k, piv);
        for i in k + 1..n {
            let q = Float::with_val(BITS, &m[i][k] / &m[k][k]);
            let (top, rest) = m.split_at_mut(i);
            for (mij, mkj) in rest[0][k..].iter_mut().zip(&top[k][k..]) {
                *mij -= Float::with_val(BITS, &q * mkj);
            }
            let t = Float::with_val(BITS, &q * &v[k]);
            v[i] -= t;
        }
    }
    let mut x = vec![Float::with_val(BITS, 0); n];
    for k in (0..n).rev() {
        let mut s = v[k].clone();
        for j in k + 1..n {
            s -= Float::with_val(BITS, &m[k][j] * &x[j]);
        }
        x[k] = s / &m[k][k];
    }
    x
}

fn norm(v: &[Float]) -> Float {
    v.iter()
        .fold(Float::with_val(BITS, 0), |m, x| m.max(&x.clone().abs()))
}

/// The oracle: damped Newton on (x, s) with a central-difference Jacobian (step 2^−100), from
/// the orbit guess rounded to f64 and s = s0. Returns s.
fn oracle(
    guess: &[Float],
    s0: f64,
    base: &(Float, Float),
    u: &(Float, Float),
    sigma: i32,
) -> Float {
    let mut v: Vec<Float> = guess
        .iter()
        .map(|x| Float::with_val(BITS, x.to_f64()))
        .collect();
    v.push(Float::with_val(BITS, s0));
    let h = Float::with_val(BITS, Float::with_val(BITS, 1) >> 100u32);
    for _ in 0..200 {
        let r = residual(&v, base, u, sigma);
        let n = v.len();
        let mut jac = vec![vec![Float::with_val(BITS, 0); n]; n];
        for k in 0..n {
            let (mut vp, mut vm) = (v.clone(), v.clone());
            vp[k] += &h;
            vm[k] -= &h;
            let (rp, rm) = (residual(&vp, base, u, sigma), residual(&vm, base, u, sigma));
            for i in 0..n {
                jac[i][k] =
                    Float::with_val(BITS, &rp[i] - &rm[i]) / Float::with_val(BITS, &h * 2u32);
            }
        }
        let d = solve_dense(jac, r.clone());
        let r0 = norm(&r);
        let mut lam = Float::with_val(BITS, 1);
        let mut next;
        loop {
            next = v
                .iter()
                .zip(&d)
                .map(|(x, dx)| Float::with_val(BITS, x - Float::with_val(BITS, dx * &lam)))
                .collect::<Vec<_>>();
            if norm(&residual(&next, base, u, sigma)) < r0 || lam < 1e-9 {
                break;
            }
            lam /= 2u32;
        }
        let step = norm(&d);
        v = next;
        if step < Float::with_val(BITS, Float::with_val(BITS, 1) >> 280u32) {
            assert!(
                norm(&residual(&v, base, u, sigma)) < 1e-60,
                "oracle residual"
            );
            return v[v.len() - 1].clone();
        }
    }
    panic!("the oracle's Newton did not converge");
}

fn verified_sink(pr: &Proof, what: &str) {
    assert_eq!(pr.status, Status::Sink, "{what}: {:?}", pr.reason);
    match verify_value(&certificate(pr)).unwrap() {
        Verdict::Valid {
            status: Status::Sink,
            ..
        } => {}
        v => panic!("{what}: verify says {v:?}"),
    }
}

/// Everything the module doc promises, for one continuation.
fn check(c: &Continuation, what: &str) {
    let t = &c.target;
    let tf = (f(&t.0), f(&t.1));
    // Proofs: all sinks, all verified, each closer than the start.
    let d_start = distance2(&c.start.a0, &c.start.b0, t);
    let centre = c.centre.proof.as_ref().expect("centre proof");
    let edge = c.edge.as_ref().expect("an edge on the target's side");
    let edge_pr = edge.point.proof.as_ref().expect("edge proof");
    let (r, boxed) = c.box_proof().expect("a proved box");
    assert!(*r > 0);
    for (pr, name) in [(centre, "centre"), (boxed, "box"), (edge_pr, "edge")] {
        verified_sink(pr, &format!("{what} {name}"));
        let (lo, hi) = proof_distance2(pr, t);
        assert!(lo <= hi && hi < d_start, "{what} {name}: not closer");
    }
    // The proved boxes hold the decimal points that were rounded from the continuation.
    let d_centre = distance2(&c.centre.a.1, &c.centre.b.1, t);
    let d_edge = distance2(&edge.point.a.1, &edge.point.b.1, t);
    assert!(d_edge < d_centre && d_centre < d_start, "{what}: distances");
    assert_eq!(c.closest().map(|x| x.0), Some("edge"));

    // Oracle 1: the centre line on the ray from the target through the centre point (s = 1).
    let u = (
        f(&Rational::from(&c.centre.a.1 - &t.0)),
        f(&Rational::from(&c.centre.b.1 - &t.1)),
    );
    let ulen = Float::with_val(
        BITS,
        Float::with_val(BITS, u.0.square_ref()) + Float::with_val(BITS, u.1.square_ref()),
    )
    .sqrt();
    let places = c.centre.a.0.split('.').nth(1).map_or(0, str::len) as i32;
    let rounding = Float::with_val(BITS, 10f64.powi(-places));
    let x = &c.centre.centre.x;
    let s0 = oracle(x, 1.0, &tf, &u, 0);
    let across = Float::with_val(BITS, Float::with_val(BITS, &s0 - 1u32).abs() * &ulen);
    let allowed = Float::with_val(BITS, &c.across_error + &rounding) * 2u32;
    eprintln!("{what}: centre line {across:.3e} from the proved point (allowed {allowed:.3e})");
    assert!(across <= allowed, "{what}: across {across} > {allowed}");
    // Oracle 2: rays turned by ±δ meet the centre line farther away; the parabola's vertex.
    let delta = 1e-12f64;
    let turn = |sign: f64| {
        let (cs, sn) = (
            Float::with_val(BITS, delta).cos(),
            Float::with_val(BITS, sign * delta).sin(),
        );
        (
            Float::with_val(BITS, &cs * &u.0) - Float::with_val(BITS, &sn * &u.1),
            Float::with_val(BITS, &sn * &u.0) + Float::with_val(BITS, &cs * &u.1),
        )
    };
    let dist = |s: &Float| Float::with_val(BITS, s * &ulen);
    let (d0, dp, dm) = (
        dist(&s0),
        dist(&oracle(x, 1.0, &tf, &turn(1.0), 0)),
        dist(&oracle(x, 1.0, &tf, &turn(-1.0), 0)),
    );
    assert!(d0 < dp && d0 < dm, "{what}: not a minimum of the distance");
    let curv = Float::with_val(BITS, &dp - Float::with_val(BITS, &d0 * 2u32)) + &dm;
    let vertex = Float::with_val(BITS, &dm - &dp) * delta / Float::with_val(BITS, &curv * 2u32);
    let along = Float::with_val(BITS, &vertex * &d0).abs();
    let allowed = Float::with_val(BITS, &c.along_error + &rounding) * 2u32;
    eprintln!("{what}: foot {along:.3e} from the proved point's ray (allowed {allowed:.3e})");
    assert!(along <= allowed, "{what}: along {along} > {allowed}");
    // Oracle 3: the strip's end on the target's side, along the reported normal.
    let n = (f(&c.normal.0 .1), f(&c.normal.1 .1));
    let base = (f(&c.centre.a.1), f(&c.centre.b.1));
    assert_eq!(edge.end.kind, EndKind::PeriodDoubling, "{what}");
    let t_end = oracle(x, edge.end.t.to_f64(), &base, &n, -1);
    let err = Float::with_val(BITS, &t_end - &edge.end.t).abs();
    eprintln!(
        "{what}: period doubling at t = {:.6e}, error {err:.3e}, stated {:.3e}",
        t_end, edge.end.accuracy
    );
    assert!(err <= edge.end.accuracy, "{what}: edge estimate off");
    // The centre point lies inside the strip, the edge point between it and the edge.
    let ends = c.ends.as_ref().unwrap();
    assert!(ends[0].t < 0 && ends[1].t > 0);
}

#[test]
fn period_7_window_centre_line_and_edge_agree_with_the_oracle() {
    let s = p7_start();
    let target = (Rational::from((13, 10)), Rational::from((3, 10)));
    let c = follow(
        &s,
        target,
        ("1.3".into(), "0.3".into()),
        &ContinueOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    check(&c, "p7");
}

#[test]
fn record_sink_continues_to_a_certified_point_closer_than_the_docs() {
    let v = docs_cert("sink-p28-record.json");
    let s = Start::from_certificate(&v, "sink-p28-record.json").unwrap();
    let target = (Rational::from((7, 5)), Rational::from((3, 10)));
    let c = follow(
        &s,
        target.clone(),
        ("1.4".into(), "0.3".into()),
        &ContinueOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    check(&c, "record");
    // Closer than the closest sink certified before (docs/closest-sinks/sink-p28-closer.json),
    // both distances exact.
    let closer = docs_cert("sink-p28-closer.json");
    let q = |k: &str| parse_exact(closer[k]["given"].as_str().unwrap()).unwrap();
    let d_docs = distance2(&q("a"), &q("b"), &target);
    let (_, d2, _) = c.closest().unwrap();
    eprintln!(
        "record: closest proved {:.12e}, docs {:.12e}",
        d2.to_f64().sqrt(),
        d_docs.to_f64().sqrt()
    );
    assert!(d2 < d_docs);
}

#[test]
fn trace_gradient_matches_central_differences() {
    let s = p7_start();
    let bits = 256;
    let (a, b) = (f(&s.a0), f(&s.b0));
    let c = evaluate(&a, &b, &s.orbit, bits, 1e-3).expect("an orbit");
    let h = Float::with_val(bits, 1) >> 70u32;
    let tau_at = |da: i32, db: i32| {
        let a1 = Float::with_val(bits, &a + Float::with_val(bits, &h * da));
        let b1 = Float::with_val(bits, &b + Float::with_val(bits, &h * db));
        evaluate(&a1, &b1, &c.x, bits, 1e-3).unwrap().tau
    };
    let fd_a =
        Float::with_val(bits, tau_at(1, 0) - tau_at(-1, 0)) / Float::with_val(bits, &h * 2u32);
    let fd_b =
        Float::with_val(bits, tau_at(0, 1) - tau_at(0, -1)) / Float::with_val(bits, &h * 2u32);
    for (fd, g) in [(fd_a, &c.grad.0), (fd_b, &c.grad.1)] {
        let rel = Float::with_val(bits, Float::with_val(bits, &fd - g) / g).abs();
        assert!(rel < 1e-30, "gradient {g} against {fd}");
    }
}

#[test]
fn unusable_starts_and_options_are_refused() {
    // The fixed point of h at (1.4, 0.3) is a saddle: no sink to continue.
    let xf = (0.3 - 1.0 + ((0.7f64).powi(2) + 5.6).sqrt()) / 2.8;
    let c = Candidate {
        source: "fixed point".into(),
        a: "1.4".into(),
        b: "0.3".into(),
        radius: Rational::new(),
        period: 1,
        x: Float::with_val(53, xf),
        y: Float::with_val(53, 0.3 * xf),
        orbit: None,
    };
    let s = Start::from_candidate(&c).unwrap();
    let t = (Rational::from((7, 5)), Rational::from((3, 10)));
    let tt = ("1.4".to_string(), "0.3".to_string());
    match follow(
        &s,
        t.clone(),
        tt.clone(),
        &ContinueOptions::default(),
        &mut |_| {},
    ) {
        Err(FollowError::Input(e)) => assert!(e.message.contains("not attracting"), "{e}"),
        other => panic!("{other:?}"),
    }
    // No period-7 orbit near a wrong guess; an edge fraction outside (0, 1).
    let mut far = p7_start();
    far.orbit = vec![Float::with_val(53, 0.5); 7];
    assert!(matches!(
        follow(
            &far,
            t.clone(),
            tt.clone(),
            &ContinueOptions::default(),
            &mut |_| {}
        ),
        Err(FollowError::Input(_))
    ));
    let opts = ContinueOptions {
        edge_fraction: Rational::from(1),
        ..ContinueOptions::default()
    };
    assert!(matches!(
        follow(&p7_start(), t, tt, &opts, &mut |_| {}),
        Err(FollowError::Input(_))
    ));
}
