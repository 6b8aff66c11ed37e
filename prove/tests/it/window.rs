//! `expanse_prove::window` on the public period-7 window near a = 1.25, b = 0.3 (MATH.md §5):
//! the estimated ends are compared with an independent oracle — simultaneous Newton on the
//! augmented system {orbit periodic, tr Dh^p = ±(1 + det Dh^p)} in the unknowns (x_0, …,
//! x_{p−1}, a) at 300 bits, with a finite-difference Jacobian and dense elimination, started
//! from the public window ends and an orbit found by iterating the map in f64 — and the
//! certified inner interval is checked to lie inside the oracle's window, to cover nearly all
//! of it, and to consist of touching segments whose certificates `verify` accepts.

use expanse_prove::cert::certificate;
use expanse_prove::engine::{Candidate, Status};
use expanse_prove::verify::{verify_value, Verdict};
use expanse_prove::window::{window, EndKind, Start, Window, WindowOptions};
use rug::{Float, Rational};
use std::sync::OnceLock;

const BITS: u32 = 300;

/// The last `p` points of the f64 orbit of (0.1, 0.1) after `n` steps (also used by
/// `continuation.rs`).
pub(crate) fn attractor_orbit(a: f64, b: f64, n: usize, p: usize) -> Vec<f64> {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..n {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    let mut out = Vec::new();
    for _ in 0..p {
        out.push(x);
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    out
}

/// The period-7 sink at (1.25, 0.3) of MATH.md as a window start (also used by
/// `continuation.rs`).
pub(crate) fn start() -> Start {
    let o = attractor_orbit(1.25, 0.3, 20000, 7);
    let c = Candidate {
        source: "test".into(),
        a: "1.25".into(),
        b: "0.3".into(),
        radius: Rational::new(),
        period: 7,
        x: Float::with_val(53, o[0]),
        y: Float::with_val(53, 0.3 * o[6]),
        orbit: None,
    };
    Start::from_candidate(&c).unwrap()
}

/// The default window along a, computed once for all tests of this module.
fn along_a() -> &'static Window {
    static W: OnceLock<Window> = OnceLock::new();
    W.get_or_init(|| {
        window(
            &start(),
            (Rational::from(1), Rational::new()),
            ("1".into(), "0".into()),
            &WindowOptions::default(),
            &mut |_| {},
        )
        .unwrap()
    })
}

/// The oracle's residual: the cyclic system and tr M − s·(1 + (−b)^p), unknowns (x, a).
fn oracle_residual(u: &[Float], b: &Float, s: i32) -> Vec<Float> {
    let p = u.len() - 1;
    let a = &u[p];
    let mut r: Vec<Float> = (0..p)
        .map(|i| {
            let xi = &u[i];
            Float::with_val(BITS, &u[(i + 1) % p] - 1u32)
                + Float::with_val(BITS, a * Float::with_val(BITS, xi * xi))
                - Float::with_val(BITS, b * &u[(i + p - 1) % p])
        })
        .collect();
    // M = J_{p−1}···J_0 accumulated from the right: N ← N·J_i for i = p−1 down to 0.
    let mut n = [
        Float::with_val(BITS, 1),
        Float::with_val(BITS, 0),
        Float::with_val(BITS, 0),
        Float::with_val(BITS, 1),
    ];
    for i in (0..p).rev() {
        let j00 = Float::with_val(BITS, -2 * Float::with_val(BITS, a * &u[i]));
        let (j01, j10, j11) = (
            Float::with_val(BITS, 1),
            b.clone(),
            Float::with_val(BITS, 0),
        );
        n = [
            Float::with_val(BITS, &n[0] * &j00) + Float::with_val(BITS, &n[1] * &j10),
            Float::with_val(BITS, &n[0] * &j01) + Float::with_val(BITS, &n[1] * &j11),
            Float::with_val(BITS, &n[2] * &j00) + Float::with_val(BITS, &n[3] * &j10),
            Float::with_val(BITS, &n[2] * &j01) + Float::with_val(BITS, &n[3] * &j11),
        ];
    }
    let mut det = Float::with_val(BITS, 1);
    for _ in 0..p {
        det *= Float::with_val(BITS, -b);
    }
    let tr = Float::with_val(BITS, &n[0] + &n[3]);
    r.push(tr - Float::with_val(BITS, (1 + det) * s));
    r
}

fn solve_dense(mut m: Vec<Vec<Float>>, mut v: Vec<Float>) -> Vec<Float> {
    let n = v.len();
    for k in 0..n {
        let piv = (k..n)
            .max_by(|&i, &j| {
                m[i][k]
                    .clone()
                    .abs()
                    .partial_cmp(&m[j][k].clone().abs())
                    .unwrap()
            })
            .unwrap();
        m.swap(k, piv);
        v.swap(k, piv);
        for i in k + 1..n {
            let f = Float::with_val(BITS, &m[i][k] / &m[k][k]);
            let (top, rest) = m.split_at_mut(i);
            for (mij, mkj) in rest[0][k..].iter_mut().zip(&top[k][k..]) {
                *mij -= Float::with_val(BITS, &f * mkj);
            }
            let t = Float::with_val(BITS, &f * &v[k]);
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
        .map(|x| x.clone().abs())
        .fold(Float::with_val(BITS, 0), |m, x| if x > m { x } else { m })
}

/// The oracle: damped Newton on (x, a) with a central-difference Jacobian (step 2^−100).
fn oracle_end(a_guess: f64, s: i32) -> Float {
    let b = Float::with_val(BITS, Float::parse("0.3").unwrap());
    let orbit = attractor_orbit(a_guess, 0.3, 400_000, 7);
    let mut u: Vec<Float> = orbit.iter().map(|&x| Float::with_val(BITS, x)).collect();
    u.push(Float::with_val(BITS, a_guess));
    let h = Float::with_val(BITS, Float::with_val(BITS, 1) >> 100u32);
    for _ in 0..100 {
        let f = oracle_residual(&u, &b, s);
        let n = u.len();
        let mut jac = vec![vec![Float::with_val(BITS, 0); n]; n];
        for k in 0..n {
            let (mut up, mut um) = (u.clone(), u.clone());
            up[k] += &h;
            um[k] -= &h;
            let (fp, fm) = (oracle_residual(&up, &b, s), oracle_residual(&um, &b, s));
            for i in 0..n {
                jac[i][k] =
                    Float::with_val(BITS, &fp[i] - &fm[i]) / Float::with_val(BITS, &h * 2u32);
            }
        }
        let d = solve_dense(jac, f.clone());
        let f0 = norm(&f);
        let mut lam = Float::with_val(BITS, 1);
        let mut next;
        loop {
            next = u
                .iter()
                .zip(&d)
                .map(|(x, dx)| Float::with_val(BITS, x - Float::with_val(BITS, dx * &lam)))
                .collect::<Vec<_>>();
            if norm(&oracle_residual(&next, &b, s)) < f0 || lam < 1e-6 {
                break;
            }
            lam /= 2u32;
        }
        let step = norm(&d);
        u = next;
        if step < Float::with_val(BITS, Float::with_val(BITS, 1) >> 240u32) {
            assert!(norm(&oracle_residual(&u, &b, s)) < 1e-70, "oracle residual");
            return u[7].clone();
        }
    }
    panic!("the oracle's Newton did not converge from a = {a_guess}");
}

/// The oracle's window [saddle-node, period-doubling] in a, from the public ends 1.2266 and
/// 1.2541 (MATH.md §5), each moved 10⁻⁴ inside.
fn oracle_window() -> &'static (Float, Float) {
    static O: OnceLock<(Float, Float)> = OnceLock::new();
    O.get_or_init(|| (oracle_end(1.2267, 1), oracle_end(1.2540, -1)))
}

#[test]
fn estimated_ends_agree_with_the_augmented_newton_oracle() {
    let w = along_a();
    let (sn, pd) = oracle_window();
    let [lo, hi] = &w.ends;
    assert_eq!(lo.kind, EndKind::SaddleNode, "{lo:?}");
    assert_eq!(hi.kind, EndKind::PeriodDoubling, "{hi:?}");
    for (e, truth) in [(lo, sn), (hi, pd)] {
        // t = a − 1.25 along a.
        let t_true = Float::with_val(BITS, truth - 1.25f64);
        let err = Float::with_val(BITS, &e.t - &t_true).abs();
        eprintln!(
            "{:?}: a = {:.20} (oracle), t = {:.17e}, error {:.3e}, stated accuracy {:.3e}",
            e.kind, truth, e.t, err, e.accuracy
        );
        assert!(
            err <= e.accuracy,
            "{:?}: error {err:.3e} above the stated accuracy {:.3e}",
            e.kind,
            e.accuracy
        );
        // The stated accuracy is the relative 1e-12 asked for (bracket ≤ tol·max|t|).
        assert!(e.accuracy <= Float::with_val(53, t_true.clone().abs() * 1.000001e-12));
    }
    // The public values, as a sanity check of the oracle itself.
    assert!((sn.to_f64() - 1.2266).abs() < 1e-4 && (pd.to_f64() - 1.2541).abs() < 1e-4);
}

#[test]
fn certified_interval_lies_inside_the_window_and_every_segment_verifies() {
    let w = along_a();
    let (sn, pd) = oracle_window();
    let (t_lo, t_hi) = w.certified().expect("a certified interval");
    let a_lo = Float::with_val(BITS, &t_lo + Rational::from((5, 4)));
    let a_hi = Float::with_val(BITS, &t_hi + Rational::from((5, 4)));
    assert!(
        *sn < a_lo && a_hi < *pd,
        "certified [{a_lo}, {a_hi}] not inside [{sn}, {pd}]"
    );
    // Maximal up to a little: it covers at least 99.9 % of the window.
    let width = Float::with_val(BITS, pd - sn);
    let cov = Float::with_val(BITS, &a_hi - &a_lo) / &width;
    assert!(
        cov > 0.999,
        "certified interval covers only {cov:.6} of the window"
    );
    // Touching segments, each a box exactly over its segment, each certificate valid.
    assert!(!w.budget_exhausted);
    let b0 = Rational::from((3, 10));
    for (k, seg) in w.segments.iter().enumerate() {
        if k > 0 {
            assert_eq!(
                w.segments[k - 1].t_hi,
                seg.t_lo,
                "segments {k} and {} do not touch",
                k + 1
            );
        }
        assert!(seg.t_lo < seg.t_hi);
        let pa = &seg.proof.params.a;
        let pb = &seg.proof.params.b;
        assert_eq!(
            Rational::from(&pa.value - &pa.radius),
            &seg.t_lo + Rational::from((5, 4))
        );
        assert_eq!(
            Rational::from(&pa.value + &pa.radius),
            &seg.t_hi + Rational::from((5, 4))
        );
        assert!(pb.value == b0 && pb.radius == 0);
        assert_eq!(seg.proof.status, Status::Sink);
        match verify_value(&certificate(&seg.proof)).unwrap() {
            Verdict::Valid {
                status: Status::Sink,
                ..
            } => {}
            v => panic!("segment {k}: {v:?}"),
        }
    }
}

#[test]
fn estimates_along_another_direction_and_bad_input() {
    let s = start();
    // Along b the window is crossed too; both ends are located with the asked accuracy.
    let opts = WindowOptions {
        estimates_only: true,
        ..WindowOptions::default()
    };
    let w = window(
        &s,
        (Rational::new(), Rational::from(1)),
        ("0".into(), "1".into()),
        &opts,
        &mut |_| {},
    )
    .unwrap();
    assert!(w.segments.is_empty());
    for e in &w.ends {
        assert_ne!(e.kind, EndKind::NotFound, "{e:?}");
        assert!(e.accuracy <= Float::with_val(53, e.t.clone().abs() * 1.000001e-12));
    }
    assert!(w.ends[0].t < 0 && w.ends[1].t > 0);
    // A zero direction and a point on no period-7 orbit are refused.
    assert!(window(
        &s,
        (Rational::new(), Rational::new()),
        ("0".into(), "0".into()),
        &opts,
        &mut |_| {}
    )
    .is_err());
    let mut far = s.clone();
    far.orbit = vec![Float::with_val(53, 0.5); 7];
    assert!(window(
        &far,
        (Rational::from(1), Rational::new()),
        ("1".into(), "0".into()),
        &opts,
        &mut |_| {}
    )
    .is_err());
}

/// The period-28 sink of seed 001's record point (1.4, 0.2999999774905), a window about 10⁻¹³
/// wide: along b the continuation used to step over the period doubling onto the saddle branch
/// (tr ≈ 4.9) and report a "saddle-node" at t ≈ 0.11. Both ends must lie within 10⁻¹² of the
/// point, the upper one a period doubling, and the widths along a and along b must agree with
/// one straight strip: w_b / w_a = |n_a / n_b| for the strip's normal n, whose direction is
/// fixed by the two saddle-node points (independent of the period-doubling ends).
#[test]
fn record_sink_window_along_a_and_b_is_one_thin_strip() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/closest-sinks/sink-p28-record.json"
    );
    let text = std::fs::read_to_string(path).expect("the record certificate is in docs/");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = Start::from_certificate(&v, path).expect("certificate start");
    let opts = WindowOptions {
        estimates_only: true,
        ..WindowOptions::default()
    };
    let along = |dx: i32, dy: i32, name: &str| {
        window(
            &s,
            (Rational::from(dx), Rational::from(dy)),
            (dx.to_string(), dy.to_string()),
            &opts,
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("window along {name}: {e}"))
    };
    let (wa, wb) = (along(1, 0, "a"), along(0, 1, "b"));
    for (w, name) in [(&wa, "a"), (&wb, "b")] {
        assert_eq!(
            w.ends[0].kind,
            EndKind::SaddleNode,
            "{name}: {:?}",
            w.ends[0]
        );
        assert_eq!(
            w.ends[1].kind,
            EndKind::PeriodDoubling,
            "{name}: {:?}",
            w.ends[1]
        );
        for e in &w.ends {
            assert!(e.t.clone().abs() < 1e-12, "{name}: end at {}", e.t);
        }
    }
    let width = |w: &Window| (w.ends[1].t.clone() - &w.ends[0].t).to_f64();
    // The saddle-node line through (t_a, 0) and (0, t_b) has normal ∝ (1/t_a, 1/t_b), so a
    // strip of constant width is crossed along a and b in the ratio |t_b / t_a|.
    let ratio_sn = (wb.ends[0].t.to_f64() / wa.ends[0].t.to_f64()).abs();
    let ratio_w = width(&wb) / width(&wa);
    assert!(
        (ratio_w / ratio_sn - 1.0).abs() < 1e-3,
        "widths {} (b) / {} (a) = {ratio_w} against {ratio_sn}",
        width(&wb),
        width(&wa)
    );
}
