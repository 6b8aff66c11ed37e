//! `LimbInterval` (fixed-limb endpoints) against MPFR: containment of the exact results at
//! sample points (MPFR at 4096 bits, both directed roundings), endpoint-for-endpoint identity
//! with `MpInterval` for the operations MPFR rounds correctly, the Hénon map over many steps,
//! the elementary functions, decimal input and the precision context.

use crate::common::*;
use expanse_core::henon_step;
use expanse_interval::limb::{LimbCtx, LimbInterval};
use expanse_interval::{IntervalArith, IntervalElementary, MpCtx, MpInterval};
use rug::ops::Pow;
use rug::Float;

/// Same endpoints, bit for bit (both empty, or equal lower and upper ends).
fn same(a: &LimbInterval, b: &MpInterval) -> bool {
    (a.is_empty() && b.is_empty())
        || (!a.is_empty()
            && !b.is_empty()
            && a.inf_rug() == b.inf_rug()
            && a.sup_rug() == b.sup_rug())
}

fn run(bits: u32, seed: u64, pairs: usize) -> u64 {
    let ctx = LimbCtx::new(bits).unwrap();
    let mctx = MpCtx::new(bits).unwrap();
    let mut rng = Rng::new(seed);
    let mut cases = 0u64;
    for _ in 0..pairs {
        let (sx, sy) = (spec(&mut rng), spec(&mut rng));
        let x: LimbInterval = build(&ctx, &sx);
        let y: LimbInterval = build(&ctx, &sy);
        let (mx, my): (MpInterval, MpInterval) = (build(&mctx, &sx), build(&mctx, &sy));
        // Built the same way as MPFR intervals: the same endpoints.
        assert!(
            same(&x, &mx) && same(&y, &my),
            "{sx:?} {sy:?}: {x:?} vs {mx:?}"
        );
        let results = [
            ("add", x.add(&y), mx.add(&my)),
            ("sub", x.sub(&y), mx.sub(&my)),
            ("mul", x.mul(&y), mx.mul(&my)),
            ("div", x.div(&y), mx.div(&my)),
            ("hull", x.hull(&y), mx.hull(&my)),
            ("intersection", x.intersection(&y), mx.intersection(&my)),
            ("neg", x.neg(), mx.neg()),
            ("sqr", x.sqr(), mx.sqr()),
            ("sqrt", x.sqrt(), mx.sqrt()),
            ("recip", x.recip(), mx.recip()),
            ("mid", x.mid(), mx.mid()),
        ];
        for (name, l, m) in &results {
            assert!(
                same(l, m),
                "{name} at {bits} bits: x={x:?} y={y:?}: limb {l:?} vs mpfr {m:?}"
            );
            cases += 1;
        }
        // Predicates agree with MPFR's.
        assert_eq!(x.subset(&y), mx.subset(&my));
        assert_eq!(x.certainly_lt(&y), mx.certainly_lt(&my));
        assert_eq!(x.certainly_le(&y), mx.certainly_le(&my));
        assert_eq!(x.disjoint(&y), mx.disjoint(&my));
        assert_eq!(x.subset_of_interior(&y), mx.subset_of_interior(&my));
        // Containment at sample points, powi included (not bit-identical to MPFR's
        // correctly rounded power: repeated squaring rounded outward).
        let xs = samples(&mut rng, &x, 2);
        let ys = samples(&mut rng, &y, 2);
        let pows: Vec<(i32, LimbInterval)> = [2, 3, 5, 8, -1, -3]
            .iter()
            .map(|&n| (n, x.powi(n)))
            .collect();
        for a in &xs {
            for (n, pw) in &pows {
                if *n < 0 && a.is_zero() {
                    continue;
                }
                assert_in(pw, &exact2!(a.pow(*n)).0, &exact2!(a.pow(*n)).1, &|| {
                    format!("powi({n}) x={x:?} a={a}")
                });
                cases += 1;
            }
            for b in &ys {
                let w = || format!("{bits} bits x={x:?} y={y:?} a={a} b={b}");
                assert_in(&results[0].1, &exact2!(a + b).0, &exact2!(a + b).1, &|| {
                    format!("add {}", w())
                });
                assert_in(&results[2].1, &exact2!(a * b).0, &exact2!(a * b).1, &|| {
                    format!("mul {}", w())
                });
                if !b.is_zero() {
                    assert_in(&results[3].1, &exact2!(a / b).0, &exact2!(a / b).1, &|| {
                        format!("div {}", w())
                    });
                }
                cases += 3;
            }
        }
        // powi is no wider than needed by much: it contains MPFR's, and for a point interval
        // at moderate size its relative width is a few ulps.
        for (n, pw) in &pows {
            assert!(
                pw.contains(&LimbInterval::from_mp(&ctx, &mx.powi(*n))) || mx.powi(*n).is_empty()
            );
        }
    }
    cases
}

#[test]
fn limb_intervals_equal_mpfr_intervals_and_enclose_exact_results() {
    let mut n = 0;
    for (bits, seed) in [(53u32, 1u64), (113, 2), (128, 3), (848, 4), (4096, 5)] {
        n += run(bits, seed, if bits >= 4096 { 60 } else { 200 });
    }
    assert!(n > 20_000, "{n} cases");
}

#[test]
fn henon_steps_equal_mpfr_intervals_at_848_bits() {
    let ctx = LimbCtx::new(848).unwrap();
    let mctx = MpCtx::new(848).unwrap();
    let a = LimbInterval::from_decimal(&ctx, "1.399999486944")
        .unwrap()
        .interval;
    let b = LimbInterval::from_decimal(&ctx, "0.3").unwrap().interval;
    let ma = MpInterval::from_decimal(&mctx, "1.399999486944")
        .unwrap()
        .interval;
    let mb = MpInterval::from_decimal(&mctx, "0.3").unwrap().interval;
    assert!(same(&a, &ma) && same(&b, &mb));
    let (mut x, mut y) = (
        LimbInterval::from_f64(&ctx, 0.1),
        LimbInterval::from_f64(&ctx, 0.2),
    );
    let (mut mxv, mut myv) = (
        MpInterval::from_f64(&mctx, 0.1),
        MpInterval::from_f64(&mctx, 0.2),
    );
    // Exact iterates of the point (0.1, 0.2) under the point parameters' midpoints stay in
    // the enclosures too (checked at the end by MPFR at high precision).
    let mut px = Float::with_val(20000, 0.1);
    let mut py = Float::with_val(20000, 0.2);
    let pa = Float::with_val(20000, Float::parse("1.399999486944").unwrap());
    let pb = Float::with_val(20000, Float::parse("0.3").unwrap());
    for step in 0..40 {
        (x, y) = henon_step(&a, &b, &x, &y);
        (mxv, myv) = henon_step(&ma, &mb, &mxv, &myv);
        assert!(
            same(&x, &mxv) && same(&y, &myv),
            "step {step}: {x:?} vs {mxv:?}"
        );
        let sq = Float::with_val(20000, px.square_ref());
        let nx = Float::with_val(20000, 1 + &py) - Float::with_val(20000, &pa * &sq);
        let ny = Float::with_val(20000, &pb * &px);
        (px, py) = (nx, ny);
        assert!(x.contains_rug(&px) && y.contains_rug(&py), "step {step}");
    }
    // 40 steps lose some bits but far from all: the width stays tiny.
    assert!(x.width() < 1e-200, "{}", x.width());
}

#[test]
fn elementary_functions_enclose_mpfr_values() {
    let ctx = LimbCtx::new(256).unwrap();
    let mut rng = Rng::new(9);
    for _ in 0..200 {
        let lo = Float::with_val(60, rng.next_u64()) >> 62i32;
        let w = Float::with_val(60, rng.next_u64()) >> 70i32;
        let hi = Float::with_val(80, &lo + &w);
        let x = LimbInterval::from_rug_bounds(&ctx, &lo, &hi).unwrap();
        let y = LimbInterval::from_f64(&ctx, 1.5);
        for a in [&lo, &hi] {
            let a = Float::with_val(ORACLE, a);
            assert_in(
                &x.exp(),
                &exact2!(a.exp_ref()).0,
                &exact2!(a.exp_ref()).1,
                &|| format!("exp {a}"),
            );
            assert_in(
                &x.sin(),
                &exact2!(a.sin_ref()).0,
                &exact2!(a.sin_ref()).1,
                &|| format!("sin {a}"),
            );
            assert_in(
                &x.cos(),
                &exact2!(a.cos_ref()).0,
                &exact2!(a.cos_ref()).1,
                &|| format!("cos {a}"),
            );
            assert_in(
                &x.atan(),
                &exact2!(a.atan_ref()).0,
                &exact2!(a.atan_ref()).1,
                &|| format!("atan {a}"),
            );
            if a > 0 {
                assert_in(
                    &x.ln(),
                    &exact2!(a.ln_ref()).0,
                    &exact2!(a.ln_ref()).1,
                    &|| format!("ln {a}"),
                );
                let p = Float::with_val(ORACLE, 1.5);
                let e = (
                    Float::with_val_round(ORACLE, a.clone().pow(&p), rug::float::Round::Down).0,
                    Float::with_val_round(ORACLE, a.clone().pow(&p), rug::float::Round::Up).0,
                );
                assert_in(&x.pow(&y), &e.0, &e.1, &|| format!("pow {a}"));
            }
        }
    }
}

#[test]
fn decimal_input_precision_and_special_intervals() {
    assert!(LimbCtx::new(1).is_err());
    assert!(LimbCtx::new(4097).is_err());
    let ctx = LimbCtx::new(4096).unwrap();
    let t = LimbInterval::from_decimal(&ctx, "0.1").unwrap();
    assert!(!t.exact);
    assert!(t.interval.contains_rational(&rug::Rational::from((1, 10))));
    assert!(t.interval.width() < (Float::with_val(53, 1) >> 4000u32));
    let q = LimbInterval::from_decimal(&ctx, "0.25").unwrap();
    assert!(q.exact && q.interval.is_point());
    let e = LimbInterval::empty(&ctx);
    assert!(e.is_empty() && e.add(&q.interval).is_empty() && e.sqrt().is_empty());
    let all = LimbInterval::entire(&ctx);
    assert!(all.is_entire());
    assert!(q
        .interval
        .div(&LimbInterval::from_f64_bounds(&ctx, -1.0, 1.0).unwrap())
        .is_entire());
    assert!(q.interval.checked_div(&all).is_err());
    assert_eq!(q.interval.kind_name(), "limb4096");
    // Converting outward to MPFR and back is exact.
    let m = q.interval.to_mp();
    assert!(same(&LimbInterval::from_mp(&ctx, &m), &m));
    // Conversion through the generic interface to a coarser kind stays outward.
    let c: MpInterval = t.interval.convert(&MpCtx::new(20).unwrap());
    assert!(c.contains_rational(&rug::Rational::from((1, 10))));
}
