//! Tightness tests: containment alone is satisfied by (−∞, +∞), so these bound how much wider
//! than the exact range each result is, for non-degenerate operations (finite inputs in the
//! normal range, divisors away from zero).
//!
//! Stated bounds (W = exact width of the range over the input box, M = mag of the output):
//! - `MpInterval` at p bits and `F64Interval` (p = 53): each endpoint is one directed rounding,
//!   so width ≤ W + 2^(2−p)·M.
//! - `ExpInterval<N>`: each endpoint carries the core's error ε·|r| plus the widening
//!   c·|r| with c = 2(ε + δ), δ = the core's add bound (see `exp.rs`), so
//!   width ≤ W + 2·1.01·(3ε + 2δ)·M. With the core's bounds (ε, δ ≤ 1.5·(2u)^N for every op and
//!   N; e.g. N = 2: add 3u², mul 6u²) that is at most 12.2·(2u)^N·M; the test asserts
//!   width ≤ W + 16·(2u)^N·M. In units of u^N the factor is 16·2^N (the core's bounds are of
//!   order (2u)^N for N ≥ 3). Inputs have exponents within ±120 so results stay inside the
//!   range where the core's bounds hold (outside it the kind falls back to f64 intervals and
//!   is sound but not this tight).
//!
//! Each test also runs the same check on a deliberately too-wide result (the true result
//! inflated by twice the allowance) and asserts that the check rejects it, so the check can
//! fail.

use crate::common::*;
use expanse_interval::{ExpInterval, F64Interval, IntervalArith, MpCtx, MpInterval};
use rug::Float;

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Sqr,
    Sqrt,
}

const OPS: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Sqr, Op::Sqrt];

/// A finite interval with endpoints in a moderate range: point, thin, wide or straddling.
fn finite_spec(rng: &mut Rng, positive: bool) -> (Float, Float) {
    let scale = if rng.below(4) == 0 {
        Scale::Mid
    } else {
        Scale::Unit
    };
    let mut v = value(rng, scale);
    if positive {
        v = v.abs();
    }
    match rng.below(4) {
        0 => (v.clone(), v),
        1 => {
            let k = rng.range(1, 200) as i32;
            let w = Float::with_val(ORACLE, v.clone().abs() >> k);
            let hi = Float::with_val(ORACLE, &v + &w);
            (v, hi)
        }
        2 if !positive => {
            let a = value(rng, scale).abs();
            (-a, v.abs())
        }
        _ => {
            let mut u = value(rng, scale);
            if positive {
                u = u.abs();
            }
            if u <= v {
                (u, v)
            } else {
                (v, u)
            }
        }
    }
}

/// Exact range of the operation over the box, from its corners (and 0 for sqr when the
/// interval straddles it): a mathematical fact about these monotone-by-parts functions.
fn exact_range(op: Op, x: &(Float, Float), y: &(Float, Float)) -> (Float, Float) {
    let f = |a: &Float, b: &Float| -> Float {
        match op {
            Op::Add => Float::with_val(ORACLE, a + b),
            Op::Sub => Float::with_val(ORACLE, a - b),
            Op::Mul => Float::with_val(ORACLE, a * b),
            Op::Div => Float::with_val(ORACLE, a / b),
            Op::Sqr => Float::with_val(ORACLE, a * a),
            Op::Sqrt => Float::with_val(ORACLE, a.sqrt_ref()),
        }
    };
    let mut vals = vec![];
    for a in [&x.0, &x.1] {
        for b in [&y.0, &y.1] {
            vals.push(f(a, b));
        }
    }
    if matches!(op, Op::Sqr) && x.0 < 0 && x.1 > 0 {
        vals.push(Float::with_val(ORACLE, 0));
    }
    let lo = vals
        .iter()
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap()
        .clone();
    let hi = vals
        .iter()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap()
        .clone();
    (lo, hi)
}

fn apply<I: IntervalArith>(op: Op, x: &I, y: &I) -> I {
    match op {
        Op::Add => x.add(y),
        Op::Sub => x.sub(y),
        Op::Mul => x.mul(y),
        Op::Div => x.div(y),
        Op::Sqr => x.sqr(),
        Op::Sqrt => x.sqrt(),
    }
}

/// width(out) ≤ W + allow·mag(out), computed exactly at 4096 bits. Returns the excess
/// (width − W) / mag for reporting.
fn within(out_lo: &Float, out_hi: &Float, exact: &(Float, Float), allow: &Float) -> (bool, f64) {
    let w = Float::with_val(ORACLE, out_hi - out_lo);
    let ew = Float::with_val(ORACLE, &exact.1 - &exact.0);
    let mag = if out_lo.clone().abs() > out_hi.clone().abs() {
        out_lo.clone().abs()
    } else {
        out_hi.clone().abs()
    };
    let lim = Float::with_val(ORACLE, &ew + Float::with_val(ORACLE, allow * &mag));
    let excess = Float::with_val(ORACLE, &w - &ew);
    let rel = if mag.is_zero() {
        0.0
    } else {
        Float::with_val(ORACLE, &excess / &mag).to_f64()
    };
    (w <= lim, rel)
}

/// Runs the tightness check for one kind; `allow(op)` is the allowance factor for the op.
fn run<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64, allow: impl Fn(Op) -> Float) {
    let mut rng = Rng::new(seed);
    let mut cases = 0u64;
    for op in OPS {
        let mut worst = 0.0f64;
        for _ in 0..300 {
            let positive_x = matches!(op, Op::Sqrt);
            let sx = finite_spec(&mut rng, positive_x);
            // Divisors: positive or negative, away from zero.
            let sy = if matches!(op, Op::Div) {
                let s = finite_spec(&mut rng, true);
                if rng.coin() {
                    (-s.1, -s.0)
                } else {
                    s
                }
            } else {
                finite_spec(&mut rng, false)
            };
            let x: I = I::from_rug_bounds(ctx, &sx.0, &sx.1).unwrap();
            let y: I = I::from_rug_bounds(ctx, &sy.0, &sy.1).unwrap();
            // The exact range over the *built* intervals (they are outward roundings of the
            // specs), so input rounding is not charged to the operation.
            let bx = (
                Float::with_val(ORACLE, x.inf_rug()),
                Float::with_val(ORACLE, x.sup_rug()),
            );
            let by = (
                Float::with_val(ORACLE, y.inf_rug()),
                Float::with_val(ORACLE, y.sup_rug()),
            );
            let exact = exact_range(op, &bx, &by);
            let out = apply(op, &x, &y);
            let (lo, hi) = (out.inf_rug(), out.sup_rug());
            assert!(
                lo <= exact.0 && exact.1 <= hi,
                "{name} {op:?}: not even containing"
            );
            let a = allow(op);
            let (ok, rel) = within(&lo, &hi, &exact, &a);
            assert!(
                ok,
                "{name} {op:?}: too wide: x={x:?} y={y:?} out=[{lo}, {hi}] exact=[{}, {}] excess/mag={rel:e} allowed {a}",
                exact.0, exact.1
            );
            worst = worst.max(rel);
            // Negative control: twice the allowance more on each side must be rejected.
            let mag = Float::with_val(
                ORACLE,
                if lo.clone().abs() > hi.clone().abs() {
                    lo.clone().abs()
                } else {
                    hi.clone().abs()
                },
            );
            if !mag.is_zero() {
                let pad = Float::with_val(ORACLE, &a * &mag) * 2u32;
                let wide_lo = Float::with_val(ORACLE, &exact.0 - &pad);
                let wide_hi = Float::with_val(ORACLE, &exact.1 + &pad);
                assert!(
                    !within(&wide_lo, &wide_hi, &exact, &a).0,
                    "{name} {op:?}: the check accepted a too-wide interval"
                );
            }
            cases += 1;
        }
        println!(
            "tightness {name} {op:?}: worst (width − exact width)/mag = {worst:.3e}, allowed {:.3e}",
            allow(op).to_f64()
        );
    }
    println!("tightness {name}: {cases} cases");
}

fn two_pow(e: i32) -> Float {
    Float::with_val(64, 1) << e
}

fn exp_allow<const N: usize>(_: Op) -> Float {
    Float::with_val(64, 16) * two_pow(-52 * N as i32)
}

#[test]
fn tightness_f64() {
    run::<F64Interval>(&(), "f64", 11, |_| two_pow(2 - 53));
}

#[test]
fn tightness_exp() {
    run::<ExpInterval<1>>(&(), "exp1", 12, exp_allow::<1>);
    run::<ExpInterval<2>>(&(), "exp2", 13, exp_allow::<2>);
    run::<ExpInterval<3>>(&(), "exp3", 14, exp_allow::<3>);
    run::<ExpInterval<4>>(&(), "exp4", 15, exp_allow::<4>);
    run::<ExpInterval<8>>(&(), "exp8", 16, exp_allow::<8>);
}

#[test]
fn tightness_mp() {
    for (p, seed) in [(10u32, 21u64), (53, 22), (106, 23), (212, 24), (424, 25)] {
        run::<MpInterval>(&MpCtx::new(p).unwrap(), &format!("mpfr{p}"), seed, |_| {
            two_pow(2 - p as i32)
        });
    }
}
