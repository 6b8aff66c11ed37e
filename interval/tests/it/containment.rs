//! Containment property tests: for every operation and every kind, random and adversarial
//! intervals (points, thin, wide, straddling zero, huge and tiny magnitudes, unbounded, empty,
//! decimal inputs such as 0.1 and 1.399999486944), sample points inside the inputs (including
//! the endpoints), the exact result by MPFR at 4096 bits, and the assertion that it lies in the
//! output. Zero violations allowed; each test prints how many cases it tried.
//!
//! Also checked: the soundness of every predicate (a `certainly_*`/`subset*`/`disjoint` that
//! answers true must hold at every sample), mid/rad/width/mag/mig, decimal construction and
//! the exactness flag, and outward conversions between all kinds.

use crate::common::*;
use expanse_interval::{ExpInterval, F64Interval, IntervalArith, MpCtx, MpInterval};
use rug::ops::Pow;
use rug::Float;

/// Pairs tried per kind (each gives dozens of sample cases per operation).
const PAIRS: usize = 400;

struct Counter(u64);

impl Counter {
    fn check<I: IntervalArith>(&mut self, out: &I, e: (Float, Float), what: &dyn Fn() -> String) {
        assert_in(out, &e.0, &e.1, what);
        self.0 += 1;
    }
    fn holds(&mut self, cond: bool, what: &dyn Fn() -> String) {
        assert!(cond, "PREDICATE/SUMMARY VIOLATION: {}", what());
        self.0 += 1;
    }
}

fn le_f(a: &Float, b: &Float) -> bool {
    a <= b
}

fn binary_ops<I: IntervalArith>(c: &mut Counter, rng: &mut Rng, x: &I, y: &I, name: &str) {
    let xs = samples(rng, x, 2);
    let ys = samples(rng, y, 2);
    let sum = x.add(y);
    let dif = x.sub(y);
    let prd = x.mul(y);
    let quo = x.div(y);
    let hul = x.hull(y);
    let int = x.intersection(y);
    if x.is_empty() || y.is_empty() {
        for (op, r) in [("add", &sum), ("sub", &dif), ("mul", &prd), ("div", &quo)] {
            c.holds(r.is_empty(), &|| {
                format!("{name}: {op} with an empty operand not empty")
            });
        }
    }
    let (ylo, yhi) = (y.inf_rug(), y.sup_rug());
    let (xlo, xhi) = (x.inf_rug(), x.sup_rug());
    for a in &xs {
        for b in &ys {
            let w = || format!("{name}: x={x:?} y={y:?} a={a} b={b}");
            c.check(&sum, exact2!(a + b), &|| format!("add {}", w()));
            c.check(&dif, exact2!(a - b), &|| format!("sub {}", w()));
            c.check(&prd, exact2!(a * b), &|| format!("mul {}", w()));
            if !b.is_zero() {
                c.check(&quo, exact2!(a / b), &|| format!("div {}", w()));
            }
            // Predicates: whatever they assert must hold for these points.
            if x.certainly_lt(y) {
                c.holds(a < b, &|| format!("certainly_lt {}", w()));
            }
            if x.certainly_le(y) {
                c.holds(a <= b, &|| format!("certainly_le {}", w()));
            }
            if x.certainly_gt(y) {
                c.holds(a > b, &|| format!("certainly_gt {}", w()));
            }
            if x.certainly_ge(y) {
                c.holds(a >= b, &|| format!("certainly_ge {}", w()));
            }
        }
    }
    for a in &xs {
        let w = || format!("{name}: x={x:?} y={y:?} a={a}");
        c.check(&hul, (a.clone(), a.clone()), &|| format!("hull {}", w()));
        let in_y = le_f(&ylo, a) && le_f(a, &yhi);
        if in_y {
            c.check(&int, (a.clone(), a.clone()), &|| {
                format!("intersection {}", w())
            });
        }
        if x.disjoint(y) {
            c.holds(!in_y, &|| format!("disjoint {}", w()));
        }
        if x.subset(y) {
            c.holds(in_y, &|| format!("subset {}", w()));
        }
        if x.subset_of_interior(y) {
            let strictly = (ylo < *a || ylo.is_infinite()) && (*a < yhi || yhi.is_infinite());
            c.holds(strictly, &|| format!("subset_of_interior {}", w()));
        }
    }
    for b in &ys {
        c.check(&hul, (b.clone(), b.clone()), &|| {
            format!("{name}: hull x={x:?} y={y:?} b={b}")
        });
        let in_x = le_f(&xlo, b) && le_f(b, &xhi);
        if in_x && int.is_empty() {
            c.holds(false, &|| {
                format!("{name}: intersection empty but {b} in both")
            });
        }
    }
}

fn unary_ops<I: IntervalArith>(c: &mut Counter, rng: &mut Rng, x: &I, name: &str) {
    let xs = samples(rng, x, 3);
    let neg = x.neg();
    let sqr = x.sqr();
    let sqrt = x.sqrt();
    let rec = x.recip();
    let pows: Vec<(i32, I)> = [2, 3, 4, 5, 7, -1, -2, -3]
        .iter()
        .map(|&n| (n, x.powi(n)))
        .collect();
    for a in &xs {
        let w = || format!("{name}: x={x:?} a={a}");
        c.check(&neg, exact2!(-a), &|| format!("neg {}", w()));
        c.check(&sqr, exact2!(a.square_ref()), &|| format!("sqr {}", w()));
        if *a >= 0 {
            c.check(&sqrt, exact2!(a.sqrt_ref()), &|| format!("sqrt {}", w()));
        }
        if !a.is_zero() {
            c.check(&rec, exact2!(a.recip_ref()), &|| format!("recip {}", w()));
        }
        for (n, p) in &pows {
            if *n < 0 && a.is_zero() {
                continue;
            }
            c.check(p, exact2!(a.pow(*n)), &|| format!("powi({n}) {}", w()));
        }
        // Summaries: mag ≥ |a| ≥ mig.
        let abs = Float::with_val(ORACLE, a.abs_ref());
        c.holds(x.mag() >= abs, &|| format!("mag {}", w()));
        c.holds(x.mig() <= abs, &|| format!("mig {}", w()));
    }
    if !x.is_empty() {
        let m = x.mid();
        let w = || format!("{name}: x={x:?} mid={m:?}");
        c.holds(m.is_point() && x.contains(&m), &|| {
            format!("mid inside {}", w())
        });
        let mr = x.mid_rug();
        c.holds(m.inf_rug() == mr, &|| format!("mid_rug {}", w()));
        let r = x.rad();
        let (lo, hi) = (x.inf_rug(), x.sup_rug());
        if lo.is_finite() && hi.is_finite() {
            let l = Float::with_val(ORACLE, &mr - &r);
            let h = Float::with_val(ORACLE, &mr + &r);
            c.holds(l <= lo && hi <= h, &|| format!("rad {r} {}", w()));
            let exact_w = Float::with_val(ORACLE, &hi - &lo);
            c.holds(x.width() >= exact_w, &|| format!("width {}", w()));
            c.holds(x.width_f64_up() >= exact_w, &|| {
                format!("width_f64_up {}", w())
            });
        } else {
            c.holds(r.is_infinite() && x.width().is_infinite(), &|| {
                format!("unbounded rad {}", w())
            });
        }
        c.holds(x.mag_f64_up() >= x.mag(), &|| format!("mag_f64_up {}", w()));
        c.holds(x.mig_f64_down() <= x.mig(), &|| {
            format!("mig_f64_down {}", w())
        });
        c.holds(x.inf_f64_down() <= lo && x.sup_f64_up() >= hi, &|| {
            format!("f64 endpoints {}", w())
        });
    } else {
        c.holds(
            x.sqr().is_empty() && x.sqrt().is_empty() && x.neg().is_empty(),
            &|| format!("{name}: unary op of empty not empty"),
        );
    }
    // Outward conversions to every kind keep every sample.
    let f: F64Interval = x.convert(&());
    let e2: ExpInterval<2> = x.convert(&());
    let e4: ExpInterval<4> = x.convert(&());
    let m106: MpInterval = x.convert(&MpCtx::new(106).unwrap());
    let m20: MpInterval = x.convert(&MpCtx::new(20).unwrap());
    for a in &xs {
        let e = || (a.clone(), a.clone());
        c.check(&f, e(), &|| format!("{name}: convert to f64 x={x:?} a={a}"));
        c.check(&e2, e(), &|| {
            format!("{name}: convert to exp2 x={x:?} a={a}")
        });
        c.check(&e4, e(), &|| {
            format!("{name}: convert to exp4 x={x:?} a={a}")
        });
        c.check(&m106, e(), &|| {
            format!("{name}: convert to mp106 x={x:?} a={a}")
        });
        c.check(&m20, e(), &|| {
            format!("{name}: convert to mp20 x={x:?} a={a}")
        });
    }
}

fn decimal_inputs<I: IntervalArith>(c: &mut Counter, rng: &mut Rng, ctx: &I::Ctx, name: &str) {
    let mut strings: Vec<String> = DECIMALS.iter().map(|s| s.to_string()).collect();
    for _ in 0..200 {
        // Random decimals: up to 30 digits, exponents across (and beyond) the f64 range.
        let ndig = rng.range(1, 30) as usize;
        let digits: String = (0..ndig)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect();
        let e = rng.range(-340, 340);
        let sign = if rng.coin() { "-" } else { "" };
        strings.push(format!("{sign}0.{digits}e{e}"));
    }
    for s in &strings {
        let q = expanse_interval::decimal::parse_decimal(s).unwrap();
        let enc = I::from_decimal(ctx, s).unwrap();
        let i = &enc.interval;
        c.holds(i.contains_rational(&q), &|| {
            format!("{name}: from_decimal({s}) = {i:?} misses the value")
        });
        let is_exact_point = i.is_point() && i.inf_rug() == q;
        c.holds(enc.exact == is_exact_point, &|| {
            format!(
                "{name}: from_decimal({s}) exact flag {} wrong for {i:?}",
                enc.exact
            )
        });
        // The rational constructor and parsing the bounds agree with it.
        let lo_hi = I::from_decimal_bounds(ctx, s, s).unwrap();
        c.holds(lo_hi.interval == *i && lo_hi.exact == enc.exact, &|| {
            format!("{name}: from_decimal_bounds({s}) differs")
        });
    }
}

fn run_kind<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut c = Counter(0);
    for _ in 0..PAIRS {
        let sx = spec(&mut rng);
        let sy = spec(&mut rng);
        let x: I = build(ctx, &sx);
        let y: I = build(ctx, &sy);
        // The built interval encloses its spec.
        if let Some((lo, hi)) = &sx {
            c.holds(x.inf_rug() <= *lo && x.sup_rug() >= *hi, &|| {
                format!("{name}: from_rug_bounds [{lo}, {hi}] gave {x:?}")
            });
        }
        binary_ops(&mut c, &mut rng, &x, &y, name);
        // Pairs that make predicates answer true: sub-intervals and shifted copies.
        let inner = x.mid().hull(&x.mid());
        binary_ops(&mut c, &mut rng, &inner, &x, name);
        binary_ops(&mut c, &mut rng, &x, &x.add_f64(1.0), name);
        unary_ops(&mut c, &mut rng, &x, name);
    }
    decimal_inputs::<I>(&mut c, &mut rng, ctx, name);
    println!("containment {name}: {} cases, 0 violations", c.0);
    assert!(c.0 > 100_000, "{name}: too few cases ({})", c.0);
}

#[test]
fn containment_f64() {
    run_kind::<F64Interval>(&(), "f64", 1);
}

#[test]
fn containment_exp1() {
    run_kind::<ExpInterval<1>>(&(), "exp1", 2);
}

#[test]
fn containment_exp2() {
    run_kind::<ExpInterval<2>>(&(), "exp2", 3);
}

#[test]
fn containment_exp3() {
    run_kind::<ExpInterval<3>>(&(), "exp3", 4);
}

#[test]
fn containment_exp4() {
    run_kind::<ExpInterval<4>>(&(), "exp4", 5);
}

#[test]
fn containment_exp8() {
    run_kind::<ExpInterval<8>>(&(), "exp8", 6);
}

#[test]
fn containment_mp_tiny_precision() {
    run_kind::<MpInterval>(&MpCtx::new(10).unwrap(), "mpfr10", 7);
}

#[test]
fn containment_mp53() {
    run_kind::<MpInterval>(&MpCtx::new(53).unwrap(), "mpfr53", 8);
}

#[test]
fn containment_mp212() {
    run_kind::<MpInterval>(&MpCtx::new(212).unwrap(), "mpfr212", 9);
}

#[test]
fn containment_mp424() {
    run_kind::<MpInterval>(&MpCtx::new(424).unwrap(), "mpfr424", 10);
}

#[test]
fn exact_flag_examples() {
    // Hand-checkable: 0.25 and 7 are binary; 0.1 and 1.399999486944 are not.
    for (s, exact) in [
        ("0.25", true),
        ("7", true),
        ("0.1", false),
        ("1.399999486944", false),
    ] {
        assert_eq!(
            F64Interval::from_decimal(&(), s).unwrap().exact,
            exact,
            "{s}"
        );
        assert_eq!(
            ExpInterval::<4>::from_decimal(&(), s).unwrap().exact,
            exact,
            "{s}"
        );
        let ctx = MpCtx::new(300).unwrap();
        assert_eq!(
            MpInterval::from_decimal(&ctx, s).unwrap().exact,
            exact,
            "{s}"
        );
    }
    // 1 + 2^-100 needs 101 bits: exact in Exp<2> and Mp at 106 bits, not in f64.
    let s = "1.0000000000000000000000000000007888609052210118054117285652827862296732064351090230047702789306640625";
    assert!(!F64Interval::from_decimal(&(), s).unwrap().exact);
    assert!(ExpInterval::<2>::from_decimal(&(), s).unwrap().exact);
    assert!(
        MpInterval::from_decimal(&MpCtx::new(106).unwrap(), s)
            .unwrap()
            .exact
    );
    assert!(
        !MpInterval::from_decimal(&MpCtx::new(100).unwrap(), s)
            .unwrap()
            .exact
    );
}
