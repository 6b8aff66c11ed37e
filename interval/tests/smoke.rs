//! Smoke tests of the public API: construction, the basic operations and decimal input for
//! each kind, checked against hand-computed exact values.

use expanse_interval::{ExpInterval, F64Interval, IntervalArith, MpCtx, MpInterval};
use rug::Rational;

fn check_basic<I: IntervalArith>(ctx: &I::Ctx, exact_ops: bool) {
    let x = I::from_f64_bounds(ctx, 1.0, 2.0).unwrap();
    let y = I::from_f64_bounds(ctx, -3.0, 0.5).unwrap();
    // Exact results (all representable): x + y = [-2, 2.5], x − y = [0.5, 5],
    // x·y = [-6, 1], y² = [0, 9], −y = [-0.5, 3].
    // F64 and Mp return exactly these; Exp widens every computed endpoint by a few units of
    // (2u)^N relative (its outward rounding does not detect exact results).
    let eq = |i: &I, lo: f64, hi: f64| {
        if exact_ops {
            assert_eq!(i.inf_rug(), lo, "{i:?}");
            assert_eq!(i.sup_rug(), hi, "{i:?}");
        } else {
            assert!(i.inf_rug() <= lo && i.sup_rug() >= hi, "{i:?}");
            let slack = (i.width().to_f64() - (hi - lo)).abs();
            assert!(slack < 1e-25, "{i:?}");
        }
    };
    eq(&x.add(&y), -2.0, 2.5);
    eq(&x.sub(&y), 0.5, 5.0);
    eq(&x.mul(&y), -6.0, 1.0);
    eq(&y.sqr(), 0.0, 9.0);
    eq(&y.neg(), -0.5, 3.0);
    // 0.1 is not binary: a non-exact enclosure that contains 1/10.
    let d = I::from_decimal(ctx, "0.1").unwrap();
    assert!(!d.exact);
    assert!(d.interval.contains_rational(&Rational::from((1, 10))));
    let e = I::from_decimal(ctx, "0.25").unwrap();
    assert!(e.exact);
    assert!(e.interval.is_point());
}

#[test]
fn basic_ops_all_kinds() {
    check_basic::<F64Interval>(&(), true);
    check_basic::<ExpInterval<2>>(&(), false);
    check_basic::<ExpInterval<4>>(&(), false);
    check_basic::<MpInterval>(&MpCtx::new(212).unwrap(), true);
}

#[test]
fn abs_of_each_sign_class() {
    fn check<I: IntervalArith>(ctx: &I::Ctx) {
        let i = |lo: f64, hi: f64| I::from_f64_bounds(ctx, lo, hi).unwrap();
        assert_eq!(i(1.0, 2.0).abs(), i(1.0, 2.0));
        assert_eq!(i(-3.0, -2.0).abs(), i(2.0, 3.0));
        assert_eq!(i(-3.0, 2.0).abs(), i(0.0, 3.0));
        assert_eq!(i(-1.0, 2.0).abs(), i(0.0, 2.0));
        assert!(I::empty(ctx).abs().is_empty());
    }
    check::<F64Interval>(&());
    check::<ExpInterval<3>>(&());
    check::<MpInterval>(&MpCtx::new(64).unwrap());
}
