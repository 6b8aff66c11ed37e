//! Containment of the elementary functions (exp, ln, sin, cos, atan, pow) for every kind:
//! random and adversarial intervals from the shared generators (points, thin, wide, straddling
//! zero, huge, tiny, unbounded, empty), sample points inside them (endpoints included), the
//! exact image of each sample by MPFR at 4096 bits, and the assertion that it lies in the
//! output. Zero violations allowed. Intervals near the zeros and extrema of sin and cos (thin
//! intervals around k·π/2) and exact powers are added on purpose. `EXPANSE_FULL_TESTS=1`
//! multiplies the number of intervals by 250 (about 10^6 checked samples per kind).
//!
//! Also: tightness on point intervals (the enclosure of exp(0.1), sin(1e22), … is only a few
//! ulps of the expansion wide), so that a vacuous answer such as (−∞, +∞) cannot pass.

use crate::common::*;
use expanse_interval::{
    ExpInterval, F64Interval, IntervalArith, IntervalElementary, MpCtx, MpInterval,
};
use rug::float::Constant;
use rug::ops::Pow;
use rug::Float;

fn rounds() -> usize {
    let base = 150;
    if std::env::var("EXPANSE_FULL_TESTS").is_ok_and(|v| v == "1") {
        base * 250
    } else {
        base
    }
}

/// Thin intervals around k·π/2 (where sin and cos have zeros and extrema) and around 1 (ln's
/// zero), as exact endpoint pairs.
fn special_spec(rng: &mut Rng) -> Spec {
    let k = rng.range(-40, 40);
    let mut c = Float::with_val(ORACLE, Constant::Pi);
    c *= k as i32;
    c /= 2u32;
    if rng.below(4) == 0 {
        c = Float::with_val(ORACLE, 1);
    }
    let w = Float::with_val(ORACLE, 1) >> (rng.range(1, 300) as i32);
    let lo = Float::with_val(ORACLE, &c - &w);
    let hi = Float::with_val(ORACLE, &c + &w);
    // Round to 200 bits so that the endpoints are not exact multiples of anything.
    Some((
        Float::with_val_round(200, &lo, rug::float::Round::Down).0,
        Float::with_val_round(200, &hi, rug::float::Round::Up).0,
    ))
}

/// `assert_in`, except where the oracle itself overflowed (e^x beyond MPFR's exponent range:
/// its upward rounding is +∞, its downward one MPFR's largest number): then the output must be
/// unbounded above and contain the downward rounding.
fn check_in<I: IntervalArith>(out: &I, e: &(Float, Float), what: &dyn Fn() -> String) {
    if e.1.is_infinite() && e.1.is_sign_positive() {
        assert!(
            out.sup_rug().is_infinite() && out.contains_rug(&e.0),
            "CONTAINMENT VIOLATION (beyond MPFR's range): {} gives [{}, {}]",
            what(),
            out.inf_rug(),
            out.sup_rug()
        );
    } else {
        assert_in(out, &e.0, &e.1, what);
    }
}

fn check_unary<I: IntervalElementary>(rng: &mut Rng, ctx: &I::Ctx, name: &str) -> u64 {
    let mut cases = 0;
    for round in 0..rounds() {
        let s = if round % 3 == 0 {
            special_spec(rng)
        } else {
            spec(rng)
        };
        let x: I = build(ctx, &s);
        let outs = [
            ("exp", x.exp()),
            ("ln", x.ln()),
            ("sin", x.sin()),
            ("cos", x.cos()),
            ("atan", x.atan()),
            ("sqrt", x.sqrt()),
        ];
        for p in samples(rng, &x, 3) {
            for (f, out) in &outs {
                let e = match *f {
                    "exp" => exact2!(p.exp_ref()),
                    "ln" => {
                        if p <= 0 {
                            continue;
                        }
                        exact2!(p.ln_ref())
                    }
                    "sin" => exact2!(p.sin_ref()),
                    "cos" => exact2!(p.cos_ref()),
                    "atan" => exact2!(p.atan_ref()),
                    _ => {
                        if p < 0 {
                            continue;
                        }
                        exact2!(p.sqrt_ref())
                    }
                };
                let what = || format!("{name} {f}: x = {:?}, point {p:.30e}, out {out:?}", s);
                check_in(out, &e, &what);
                cases += 1;
            }
        }
        // sin and cos stay in [-1, 1]; exp is positive.
        for (f, out) in &outs[2..4] {
            if !out.is_empty() {
                assert!(
                    out.inf_rug() >= -1 && out.sup_rug() <= 1,
                    "{name} {f} {out:?}"
                );
            }
        }
    }
    cases
}

fn check_pow<I: IntervalElementary>(rng: &mut Rng, ctx: &I::Ctx, name: &str) -> u64 {
    let mut cases = 0;
    for _ in 0..rounds() {
        // Bases mostly positive and moderate, exponents moderate, so that most samples are in
        // the domain and do not overflow MPFR's own range.
        let sx = spec(rng).map(|(a, b)| (a.abs().min(&Float::with_val(53, 1e30)), b.abs()));
        let sx = sx.map(|(a, b)| if a <= b { (a, b) } else { (b, a) });
        let sy = spec(rng).map(|(a, b)| {
            // At the oracle's precision: `max`/`min` round the bound to v's own precision,
            // and a v of a few bits turned 300 into 304 (an invalid spec [304, 300]).
            let clamp = |v: Float| {
                Float::with_val(ORACLE, v)
                    .max(&Float::with_val(53, -300))
                    .min(&Float::with_val(53, 300))
            };
            (clamp(a), clamp(b))
        });
        let x: I = build(ctx, &sx);
        let y: I = build(ctx, &sy);
        let out = x.pow(&y);
        for px in samples(rng, &x, 2) {
            for py in samples(rng, &y, 2) {
                if px < 0 || (px == 0 && py <= 0) {
                    continue;
                }
                let e = exact2!((&px).pow(&py));
                let what = || {
                    format!("{name} pow: x = {sx:?}, y = {sy:?}, point ({px:.20e}, {py:.20e}), out {out:?}")
                };
                check_in(&out, &e, &what);
                cases += 1;
            }
        }
    }
    cases
}

macro_rules! kind_test {
    ($test:ident, $t:ty, $ctx:expr, $seed:expr) => {
        #[test]
        fn $test() {
            let mut rng = Rng::new($seed);
            let ctx = $ctx;
            let u = check_unary::<$t>(&mut rng, &ctx, stringify!($t));
            let p = check_pow::<$t>(&mut rng, &ctx, stringify!($t));
            eprintln!(
                "{}: {u} unary and {p} pow samples contained",
                stringify!($t)
            );
            assert!(u > 1000 && p > 200);
        }
    };
}

kind_test!(
    f64_interval_functions_contain_the_exact_image,
    F64Interval,
    (),
    11
);
kind_test!(
    exp1_interval_functions_contain_the_exact_image,
    ExpInterval<1>,
    (),
    12
);
kind_test!(
    exp2_interval_functions_contain_the_exact_image,
    ExpInterval<2>,
    (),
    13
);
kind_test!(
    exp4_interval_functions_contain_the_exact_image,
    ExpInterval<4>,
    (),
    14
);
kind_test!(
    exp8_interval_functions_contain_the_exact_image,
    ExpInterval<8>,
    (),
    15
);
kind_test!(
    mp_interval_functions_contain_the_exact_image,
    MpInterval,
    MpCtx::new(300).unwrap(),
    16
);

/// Relative width of an enclosure of a non-zero value, as f64.
fn rel_width<I: IntervalArith>(x: &I) -> f64 {
    let w = Float::with_val(ORACLE, x.sup_rug() - x.inf_rug());
    let m = Float::with_val(ORACLE, x.sup_rug().abs());
    (w / m).to_f64()
}

#[test]
fn point_enclosures_are_tight() {
    let x4 = ExpInterval::<4>::from_decimal(&(), "0.1").unwrap().interval;
    let big4 = ExpInterval::<4>::from_f64(&(), 1e22);
    let mp = MpInterval::from_decimal(&MpCtx::new(300).unwrap(), "0.1")
        .unwrap()
        .interval;
    // Quad-double: 212 bits; allow the bound's factor and the decimal input's width.
    for (what, w) in [
        ("exp(0.1) qd", rel_width(&x4.exp())),
        ("ln(0.1) qd", rel_width(&x4.ln())),
        ("sin(0.1) qd", rel_width(&x4.sin())),
        ("cos(0.1) qd", rel_width(&x4.cos())),
        ("atan(0.1) qd", rel_width(&x4.atan())),
        ("pow(0.1, 0.1) qd", rel_width(&x4.pow(&x4))),
        ("sin(1e22) qd", rel_width(&big4.sin())),
        ("cos(1e22) qd", rel_width(&big4.cos())),
    ] {
        eprintln!("{what}: relative width {w:.3e}");
        assert!(w < 2f64.powi(-180), "{what}: relative width {w:e}");
    }
    for (what, w) in [
        ("exp(0.1) mp300", rel_width(&mp.exp())),
        ("sin(0.1) mp300", rel_width(&mp.sin())),
    ] {
        eprintln!("{what}: relative width {w:.3e}");
        assert!(w < 2f64.powi(-290), "{what}: relative width {w:e}");
    }
}
