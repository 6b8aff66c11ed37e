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

#[test]
fn conversions_keep_the_precision_of_the_target() {
    use rug::Float;
    // A 212-bit MPFR interval of relative width 2^-200 converted to Exp<4> (≈ 212 bits) and
    // Exp<2> (≈ 106 bits): outward, and no wider than the source plus a few units in the last
    // place of the target.
    let ctx = MpCtx::new(212).unwrap();
    let third = MpInterval::from_f64(&ctx, 1.0).div(&MpInterval::from_f64(&ctx, 3.0));
    let e4: ExpInterval<4> = third.convert(&());
    let e2: ExpInterval<2> = third.convert(&());
    assert!(e4.inf_rug() <= *third.lo() && e4.sup_rug() >= *third.hi());
    assert!(e2.inf_rug() <= *third.lo() && e2.sup_rug() >= *third.hi());
    let w4 = e4.width();
    let w2 = e2.width();
    let src = third.width();
    let ulps4 = Float::with_val(64, 1) >> 205u32; // a few units of 2^-208 (Exp<4> near 1/3)
    let ulps2 = Float::with_val(64, 1) >> 100u32; // a few units of 2^-104 (Exp<2> near 1/3)
    assert!(w4 <= Float::with_val(300, &src + &ulps4), "{w4}");
    assert!(w2 <= Float::with_val(300, &src + &ulps2), "{w2}");
    // And back: Exp<4> → MPFR 300 bits is exact.
    let back: MpInterval = e4.convert(&MpCtx::new(300).unwrap());
    assert!(back.inf_rug() == e4.inf_rug() && back.sup_rug() == e4.sup_rug());
}
