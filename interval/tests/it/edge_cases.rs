//! Edge cases in the style of the ITF1788 test suite (IEEE 1788 expected values for empty,
//! entire and unbounded intervals), for the f64 wrapper exactly, and for the other kinds
//! either exactly or as the documented superset (Exp and Mp return (−∞, +∞) for a divisor
//! that contains zero in its interior or at one end, where IEEE 1788 gives a half-line).
//!
//! Expected values are the standard's (hand-checkable), never outputs of the code.

use expanse_interval::{
    Error, ErrorKind, ExpInterval, F64Interval, IntervalArith, MpCtx, MpInterval,
};

const INF: f64 = f64::INFINITY;

fn iv<I: IntervalArith>(ctx: &I::Ctx, lo: f64, hi: f64) -> I {
    I::from_f64_bounds(ctx, lo, hi).unwrap()
}

/// Asserts x has exactly these f64 endpoints (or is empty when `None`).
fn is<I: IntervalArith>(x: &I, want: Option<(f64, f64)>, what: &str) {
    is_near(x, want, what, true)
}

/// Like [`is`]; with `exact` false, finite endpoints may be outward by up to 2^-40 relative
/// (the expansion kind widens computed endpoints even when the result is exact), while
/// infinite and zero endpoints must match exactly.
fn is_near<I: IntervalArith>(x: &I, want: Option<(f64, f64)>, what: &str, exact: bool) {
    match want {
        None => assert!(x.is_empty(), "{what}: expected empty, got {x:?}"),
        Some((lo, hi)) => {
            assert!(!x.is_empty(), "{what}: unexpected empty");
            let (l, h) = (x.inf_rug(), x.sup_rug());
            if exact || !lo.is_finite() || lo == 0.0 {
                assert_eq!(l, lo, "{what}: lower endpoint of {x:?}");
            } else {
                let slack = lo.abs() * 2f64.powi(-40);
                assert!(
                    l <= lo && l >= lo - slack,
                    "{what}: lower endpoint of {x:?}"
                );
            }
            if exact || !hi.is_finite() || hi == 0.0 {
                assert_eq!(h, hi, "{what}: upper endpoint of {x:?}");
            } else {
                let slack = hi.abs() * 2f64.powi(-40);
                assert!(
                    h >= hi && h <= hi + slack,
                    "{what}: upper endpoint of {x:?}"
                );
            }
        }
    }
}

/// The cases every kind must get exactly (exact inputs, exact or infinite results).
fn common_cases<I: IntervalArith>(ctx: &I::Ctx, exact_arith: bool) {
    let is = |x: &I, want: Option<(f64, f64)>, what: &str| is_near(x, want, what, exact_arith);
    let e = I::empty(ctx);
    let ent = I::entire(ctx);
    let a = iv::<I>(ctx, 1.0, 2.0);
    // Construction rules.
    for (lo, hi) in [
        (2.0, 1.0),
        (INF, INF),
        (-INF, -INF),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
    ] {
        let err: Error = I::from_f64_bounds(ctx, lo, hi).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidBounds);
    }
    is(&I::from_f64(ctx, INF), None, "from_f64(inf)");
    is(&I::from_f64(ctx, f64::NAN), None, "from_f64(nan)");
    // Empty propagates through arithmetic.
    for (name, r) in [
        ("add", e.add(&a)),
        ("sub", a.sub(&e)),
        ("mul", e.mul(&ent)),
        ("div", a.div(&e)),
        ("neg", e.neg()),
        ("sqr", e.sqr()),
        ("sqrt", e.sqrt()),
        ("powi", e.powi(3)),
        ("recip", e.recip()),
        ("intersection", a.intersection(&e)),
    ] {
        is(&r, None, &format!("empty {name}"));
    }
    is(&e.hull(&a), Some((1.0, 2.0)), "hull(empty, a)");
    is(&e.mid(), None, "mid(empty)");
    assert!(e.width().is_nan() && e.mag().is_nan() && e.mig().is_nan() && e.rad().is_nan());
    // Entire.
    is(&ent.add(&a), Some((-INF, INF)), "entire + a");
    is(&ent.mul(&a), Some((-INF, INF)), "entire · a");
    is(&ent.sqr(), Some((0.0, INF)), "sqr(entire)");
    is(&ent.sqrt(), Some((0.0, INF)), "sqrt(entire)");
    is(&ent.mid(), Some((0.0, 0.0)), "mid(entire)");
    assert!(ent.rad().is_infinite() && ent.width().is_infinite() && ent.mag().is_infinite());
    assert!(ent.is_entire() && !ent.is_bounded() && !ent.is_empty());
    // Zero times anything, including unbounded, is zero.
    let z = iv::<I>(ctx, 0.0, 0.0);
    is(&z.mul(&ent), Some((0.0, 0.0)), "[0,0] · entire");
    is(
        &iv::<I>(ctx, 1.0, INF).mul(&z),
        Some((0.0, 0.0)),
        "[1,∞] · [0,0]",
    );
    // Unbounded arithmetic.
    is(
        &iv::<I>(ctx, -INF, 1.0).add(&iv::<I>(ctx, 2.0, 5.0)),
        Some((-INF, 6.0)),
        "[-∞,1]+[2,5]",
    );
    is(
        &iv::<I>(ctx, -INF, 1.0).sub(&iv::<I>(ctx, 2.0, 5.0)),
        Some((-INF, -1.0)),
        "[-∞,1]-[2,5]",
    );
    is(
        &iv::<I>(ctx, 1.0, INF).sub(&iv::<I>(ctx, 1.0, INF)),
        Some((-INF, INF)),
        "[1,∞]-[1,∞]",
    );
    is(
        &iv::<I>(ctx, 1.0, 2.0).mul(&iv::<I>(ctx, -INF, 3.0)),
        Some((-INF, 6.0)),
        "[1,2]·[-∞,3]",
    );
    is(
        &iv::<I>(ctx, -1.0, 0.0).mul(&iv::<I>(ctx, -INF, -1.0)),
        Some((0.0, INF)),
        "[-1,0]·[-∞,-1]",
    );
    is(
        &iv::<I>(ctx, -INF, -1.0).sqr(),
        Some((1.0, INF)),
        "sqr([-∞,-1])",
    );
    is(
        &iv::<I>(ctx, 4.0, INF).sqrt(),
        Some((2.0, INF)),
        "sqrt([4,∞])",
    );
    is(
        &iv::<I>(ctx, 1.0, 2.0).div(&iv::<I>(ctx, -INF, -1.0)),
        Some((-2.0, 0.0)),
        "[1,2]/[-∞,-1]",
    );
    is(
        &iv::<I>(ctx, 1.0, INF).div(&iv::<I>(ctx, 2.0, 4.0)),
        Some((0.25, INF)),
        "[1,∞]/[2,4]",
    );
    // Division by zero-containing divisors: [0,0] gives empty; others contain the IEEE
    // 1788 answer.
    is(&a.div(&z), None, "a / [0,0]");
    is(
        &z.div(&iv::<I>(ctx, -1.0, 1.0)),
        Some((0.0, 0.0)),
        "[0,0] / [-1,1]",
    );
    let d = a.div(&iv::<I>(ctx, 0.0, 1.0));
    assert!(
        d.inf_rug() <= 1.0 && d.sup_rug().is_infinite(),
        "[1,2]/[0,1] ⊇ [1,∞]: {d:?}"
    );
    let d = iv::<I>(ctx, -1.0, 1.0).div(&iv::<I>(ctx, -1.0, 1.0));
    assert!(d.is_entire(), "[-1,1]/[-1,1] = entire: {d:?}");
    assert_eq!(
        a.checked_div(&iv::<I>(ctx, -1.0, 1.0)).unwrap_err().kind(),
        ErrorKind::DivisionByZero
    );
    // sqrt domain.
    is(&iv::<I>(ctx, -4.0, -1.0).sqrt(), None, "sqrt([-4,-1])");
    is(
        &iv::<I>(ctx, -4.0, 4.0).sqrt(),
        Some((0.0, 2.0)),
        "sqrt([-4,4])",
    );
    // Powers.
    is(
        &iv::<I>(ctx, -2.0, 3.0).powi(2),
        Some((0.0, 9.0)),
        "[-2,3]^2",
    );
    is(
        &iv::<I>(ctx, -2.0, 3.0).powi(3),
        Some((-8.0, 27.0)),
        "[-2,3]^3",
    );
    is(
        &iv::<I>(ctx, -2.0, 3.0).powi(0),
        Some((1.0, 1.0)),
        "[-2,3]^0",
    );
    is(
        &iv::<I>(ctx, 2.0, 4.0).powi(-1),
        Some((0.25, 0.5)),
        "[2,4]^-1",
    );
    is(
        &iv::<I>(ctx, -4.0, -2.0).powi(-2),
        Some((0.0625, 0.25)),
        "[-4,-2]^-2",
    );
    is(&z.powi(-1), None, "[0,0]^-1");
    is(
        &iv::<I>(ctx, 1.0, 3.0).add(&iv::<I>(ctx, 0.5, 1.25)),
        Some((1.5, 4.25)),
        "add",
    );
    // Set operations.
    is(
        &a.intersection(&iv::<I>(ctx, 3.0, 4.0)),
        None,
        "disjoint intersection",
    );
    is(
        &a.intersection(&iv::<I>(ctx, 2.0, 4.0)),
        Some((2.0, 2.0)),
        "touching intersection",
    );
    is(
        &a.hull(&iv::<I>(ctx, -INF, -3.0)),
        Some((-INF, 2.0)),
        "hull with half-line",
    );
    // Predicates.
    assert!(e.subset(&a) && e.subset(&e) && !a.subset(&e));
    assert!(e.subset_of_interior(&e) && ent.subset_of_interior(&ent));
    assert!(iv::<I>(ctx, 1.1, 1.9).subset_of_interior(&a));
    assert!(!iv::<I>(ctx, 1.1, 2.0).subset_of_interior(&a));
    assert!(iv::<I>(ctx, 1.0, INF).subset_of_interior(&iv::<I>(ctx, 0.0, INF)));
    assert!(e.disjoint(&a) && e.disjoint(&e));
    assert!(!a.disjoint(&iv::<I>(ctx, 2.0, 3.0)));
    assert!(a.certainly_lt(&iv::<I>(ctx, 2.5, 3.0)) && !a.certainly_lt(&iv::<I>(ctx, 2.0, 3.0)));
    assert!(a.certainly_le(&iv::<I>(ctx, 2.0, 3.0)));
    assert!(iv::<I>(ctx, 2.5, 3.0).certainly_gt(&a) && iv::<I>(ctx, 2.0, 3.0).certainly_ge(&a));
    assert!(
        !e.certainly_lt(&a) && !a.certainly_lt(&e),
        "nothing is certain about empty"
    );
    assert!(!ent.contains_f64(INF) && !ent.contains_f64(f64::NAN) && ent.contains_f64(1e308));
    // Summaries.
    let m = iv::<I>(ctx, -2.0, 3.0);
    assert_eq!(m.mag(), 3.0);
    assert_eq!(m.mig(), 0.0);
    assert_eq!(iv::<I>(ctx, -3.0, -2.0).mig(), 2.0);
    assert_eq!(m.width(), 5.0);
    // IEEE 1788: mid of a half-line is the largest finite number on that side (for MPFR,
    // f64::MAX rounded toward zero to the precision).
    let m = iv::<I>(ctx, 1.0, INF).mid();
    assert!(
        m.is_point() && m.inf_rug() >= 1.7e308 && m.inf_rug() <= f64::MAX,
        "{m:?}"
    );
    let m = iv::<I>(ctx, -INF, 1.2).mid();
    assert!(
        m.is_point() && m.inf_rug() <= -1.7e308 && m.inf_rug() >= f64::MIN,
        "{m:?}"
    );
}

#[test]
fn itf1788_style_f64() {
    common_cases::<F64Interval>(&(), true);
    // inari's exact IEEE 1788 answers where the other kinds return a superset.
    let a = F64Interval::new(1.0, 2.0).unwrap();
    is(
        &a.div(&F64Interval::new(0.0, 1.0).unwrap()),
        Some((1.0, INF)),
        "[1,2]/[0,1]",
    );
    is(
        &a.div(&F64Interval::new(-1.0, 0.0).unwrap()),
        Some((-INF, -1.0)),
        "[1,2]/[-1,0]",
    );
    is(&a.recip(), Some((0.5, 1.0)), "recip([1,2])");
    is(
        &F64Interval::new(1.0, INF).unwrap().mid(),
        Some((f64::MAX, f64::MAX)),
        "mid([1,∞])",
    );
    is(
        &F64Interval::new(-INF, 1.2).unwrap().mid(),
        Some((f64::MIN, f64::MIN)),
        "mid([-∞,1.2])",
    );
    is(
        &F64Interval::new(-1.0, 0.0).unwrap().recip(),
        Some((-INF, -1.0)),
        "recip([-1,0])",
    );
    // Rounding outward on inexact results: 1/3 is enclosed by adjacent doubles.
    let t = F64Interval::point(1.0).div(&F64Interval::point(3.0));
    assert_eq!(
        t.sup(),
        t.inf().next_up(),
        "1/3 must be the tightest enclosure"
    );
}

#[test]
fn itf1788_style_exp() {
    common_cases::<ExpInterval<1>>(&(), false);
    common_cases::<ExpInterval<2>>(&(), false);
    common_cases::<ExpInterval<4>>(&(), false);
    common_cases::<ExpInterval<8>>(&(), false);
}

#[test]
fn itf1788_style_mp() {
    for p in [10, 53, 212] {
        common_cases::<MpInterval>(&MpCtx::new(p).unwrap(), true);
    }
    // Hand-checkable at 2 bits: the representable numbers near 1/3 are 0.25 = 1.0b·2^-2 and
    // 0.375 = 1.1b·2^-2; 5 rounds up to 6 = 1.1b·2^2 and 1 + 6 = 7 up to 8.
    let c2 = MpCtx::new(2).unwrap();
    let third = MpInterval::from_f64(&c2, 1.0).div(&MpInterval::from_f64(&c2, 3.0));
    is(&third, Some((0.25, 0.375)), "1/3 at 2 bits");
    let s = MpInterval::from_f64_bounds(&c2, -INF, 1.0)
        .unwrap()
        .add(&MpInterval::from_f64_bounds(&c2, 2.0, 5.0).unwrap());
    is(&s, Some((-INF, 8.0)), "[-∞,1]+[2,5] at 2 bits");
    assert_eq!(
        MpCtx::new(1).unwrap_err().kind(),
        ErrorKind::InvalidPrecision
    );
    assert_eq!(
        MpCtx::new(u32::MAX).unwrap_err().kind(),
        ErrorKind::InvalidPrecision
    );
}

#[test]
fn decimal_errors_name_the_input() {
    let e = F64Interval::from_decimal(&(), "1.4x").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDecimal);
    assert!(e.to_string().contains("\"1.4x\""), "{e}");
    let e = ExpInterval::<2>::from_decimal_bounds(&(), "2", "1").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidBounds);
    // Beyond the f64 range: an unbounded but valid enclosure.
    let big = F64Interval::from_decimal(&(), "1e400").unwrap();
    assert!(!big.exact && big.interval.inf() == f64::MAX && big.interval.sup() == INF);
    let tiny = F64Interval::from_decimal(&(), "-1e-400").unwrap();
    assert!(tiny.interval.inf() == -f64::from_bits(1) && tiny.interval.sup() == 0.0);
}
