//! Shared helpers of the elementary-function tests (`functions_*.rs`): inputs as padded term
//! arrays (so that the tests are generic over the term type only and evaluate through the
//! library's run-time dispatch `FloatTerm::eval_unary_terms`, never instantiating the
//! (T, N) matrix again), random high-precision arguments, and the check of one function
//! against an MPFR oracle evaluated on the exact value of the input expansion.
#![allow(dead_code)]

use super::{rand_expansion, SplitMix, PREC};
use expanse_core::functions::{error_bound, error_bound_binary, Binary, ErrorBound, Unary};
use expanse_core::{bounds, is_ulp_nonoverlapping, Expansion, FloatTerm, MAX_TERMS};
use rug::Float;

/// Padded terms of an expansion of n ≤ 8 terms.
pub type Terms<T> = [T; MAX_TERMS];

/// True when `EXPANSE_FULL_TESTS=1`.
pub fn full() -> bool {
    std::env::var("EXPANSE_FULL_TESTS").is_ok_and(|v| v == "1")
}

/// Cases per (function, N, T): `default`, or 10^5 for the full run (`EXPANSE_FUNCTION_CASES`
/// sets another count).
pub fn cases(default: usize) -> usize {
    if let Some(c) = std::env::var("EXPANSE_FUNCTION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        c
    } else if full() {
        100_000
    } else {
        default
    }
}

/// True when `EXPANSE_FUNCTIONS` (a comma-separated list of names such as `exp,ln`) is unset
/// or names `name`: restricts the MPFR suites to some functions (e.g. for a full run).
pub fn selected_function(name: &str) -> bool {
    std::env::var("EXPANSE_FUNCTIONS").map_or(true, |v| v.split(',').any(|s| s == name))
}

/// True when `EXPANSE_FUNCTION_NS` (a comma-separated list such as `2,4,8`) is unset or
/// contains `n`.
pub fn selected_n(n: usize) -> bool {
    std::env::var("EXPANSE_FUNCTION_NS")
        .map_or(true, |v| v.split(',').any(|s| s.trim().parse() == Ok(n)))
}

/// Oracle precision: 4·p·N bits plus a margin.
pub fn oracle_prec<T: FloatTerm>(n: usize) -> u32 {
    4 * T::PRECISION * n as u32 + 64
}

/// The exact value of the first n terms.
pub fn value<T: FloatTerm>(t: &Terms<T>, n: usize) -> Float {
    let mut v = Float::with_val(PREC, 0);
    for x in &t[..n] {
        v += x.to_f64();
    }
    v
}

/// The first n terms of `t` (the others zero): an n-term expansion.
pub fn truncate<T: FloatTerm>(t: &Terms<T>, n: usize) -> Terms<T> {
    let mut o = [T::ZERO; MAX_TERMS];
    o[..n].copy_from_slice(&t[..n]);
    o
}

/// The greedy nearest n-term expansion of `v`.
pub fn terms_of<T: FloatTerm>(v: &Float, n: usize) -> Terms<T> {
    truncate(Expansion::<T, MAX_TERMS>::from_rug(v).terms(), n)
}

/// A random number in [1, 2) with 512 random bits.
pub fn rand_sig(rng: &mut SplitMix) -> Float {
    let mut v = Float::with_val(600, 1);
    for i in 0..8u32 {
        v += Float::with_val(64, rng.next()) >> (64 * (i + 1));
    }
    v
}

/// ±(random in [1, 2))·2^e.
pub fn rand_mag(rng: &mut SplitMix, e: i32) -> Float {
    let s = rng.sign();
    let v = rand_sig(rng) * s;
    if e >= 0 {
        v << e as u32
    } else {
        v >> (-e) as u32
    }
}

/// An input of n terms near the value `v`: either its greedy rounding, or (half the time)
/// an adversarial expansion (ulp and half-ulp tails) with the same leading part.
pub fn input_near<T: FloatTerm>(rng: &mut SplitMix, v: &Float, n: usize) -> Terms<T> {
    let t = terms_of::<T>(v, n);
    if rng.next() & 1 == 0 || n == 1 || t[0] == T::ZERO || !t[0].is_finite() {
        return t;
    }
    // Replace the tail below term 0 by an adversarial one of the same exponent range.
    let e0 = super::log2i(t[0].to_f64());
    let r: Expansion<T, MAX_TERMS> = rand_expansion(rng, e0);
    let mut o = truncate(r.terms(), n);
    o[0] = t[0];
    // Keep the invariant: the tail of r fits under r's own leading term, which has the same
    // exponent as t[0]; accept only when still ulp-nonoverlapping.
    if is_ulp_nonoverlapping(&o[..n]) {
        o
    } else {
        t
    }
}

/// Worst error of one (function, T, N) run.
#[derive(Default, Clone, Copy)]
pub struct Report {
    pub cases: u64,
    pub skipped: u64,
    pub worst: f64,
    pub bound: f64,
}

/// True when a non-zero magnitude lies in [min_normal_result(n), max_normal_result(n)].
pub fn in_range<T: FloatTerm>(n: usize, v: &Float) -> bool {
    super::in_range::<T>(n, v)
}

/// Checks |ŷ − y| ≤ rel·|y| + abs for one case (`got` the computed terms, `y` the oracle);
/// returns the relative error, or None when skipped. Panics with a message on failure.
pub fn check_case<T: FloatTerm>(
    name: &str,
    n: usize,
    args: &str,
    got: &Terms<T>,
    y: &Float,
    b: ErrorBound,
    abs_allowed: bool,
) -> Option<f64> {
    let finite = got[..n].iter().all(|t| t.is_finite());
    assert!(
        !finite || is_ulp_nonoverlapping(&got[..n]),
        "{name} {}x{n}: result not ulp-nonoverlapping for {args}: {:?}",
        T::NAME,
        &got[..n]
    );
    if y.is_nan() || y.is_infinite() || y.is_zero() {
        return None;
    }
    let g = value(got, n);
    if b.rel.is_finite() && !in_range::<T>(n, y) {
        if abs_allowed && Float::with_val(64, y.abs_ref()) < bounds::min_normal_result::<T>(n) {
            let d = Float::with_val(PREC, &g - y).abs();
            let allowed = Float::with_val(PREC, y.abs_ref()) * b.rel + b.abs;
            assert!(
                d <= allowed,
                "{name} {}x{n}: |err| {:e} > allowed {:e} (underflow range) for {args}",
                T::NAME,
                d.to_f64(),
                allowed.to_f64()
            );
        }
        return None;
    }
    let e = Float::with_val(PREC, &g - y) / y;
    let e = e.to_f64().abs();
    if b.rel.is_finite() {
        assert!(
            e <= b.rel,
            "{name} {}x{n}: relative error {e:e} = {:.3} u^N > bound {:.3} u^N for {args} (got {:?}, want {})",
            T::NAME,
            e / bounds::u_pow::<T>(n),
            b.rel / bounds::u_pow::<T>(n),
            &got[..n],
            y.to_string_radix(10, Some(30))
        );
    }
    Some(e)
}

/// Runs one unary function on `inputs` (n-term arrays) against `oracle` (the exact function
/// at the given precision).
pub fn run_unary<T: FloatTerm>(
    f: Unary,
    n: usize,
    inputs: &[Terms<T>],
    oracle: &dyn Fn(&Float, u32) -> Float,
) -> Report {
    let b = error_bound::<T>(f, n);
    let prec = oracle_prec::<T>(n);
    let mut rep = Report {
        bound: b.rel,
        ..Default::default()
    };
    let filter = b.rel.is_finite();
    for x in inputs {
        let xv = value(x, n);
        if filter && !xv.is_zero() && !in_range::<T>(n, &xv) {
            rep.skipped += 1;
            continue;
        }
        let got = T::eval_unary_terms(f, n, x);
        let y = oracle(&xv, prec);
        let args = format!("x = {:?}", &x[..n]);
        match check_case(f.name(), n, &args, &got, &y, b, f == Unary::Exp) {
            Some(e) => {
                rep.cases += 1;
                rep.worst = rep.worst.max(e);
            }
            None => rep.skipped += 1,
        }
    }
    rep
}

/// Runs one binary function on pairs of inputs.
pub fn run_binary<T: FloatTerm>(
    f: Binary,
    n: usize,
    inputs: &[(Terms<T>, Terms<T>)],
    oracle: &dyn Fn(&Float, &Float, u32) -> Float,
) -> Report {
    let b = error_bound_binary::<T>(f, n);
    let prec = oracle_prec::<T>(n);
    let mut rep = Report {
        bound: b.rel,
        ..Default::default()
    };
    for (x, y) in inputs {
        let (xv, yv) = (value(x, n), value(y, n));
        let out = |v: &Float| !v.is_zero() && !in_range::<T>(n, v);
        if b.rel.is_finite() && (out(&xv) || out(&yv)) {
            rep.skipped += 1;
            continue;
        }
        if f == Binary::Pow && b.rel.is_finite() && xv > 0 {
            // The domain of pow's bound includes ln x in range.
            let l = Float::with_val(prec, xv.ln_ref());
            if !l.is_zero() && !in_range::<T>(n, &l) {
                rep.skipped += 1;
                continue;
            }
        }
        let got = T::eval_binary_terms(f, n, x, y);
        let r = oracle(&xv, &yv, prec);
        let args = format!("x = {:?}, y = {:?}", &x[..n], &y[..n]);
        match check_case(f.name(), n, &args, &got, &r, b, f == Binary::Pow) {
            Some(e) => {
                rep.cases += 1;
                rep.worst = rep.worst.max(e);
            }
            None => rep.skipped += 1,
        }
    }
    rep
}

/// Prints one report line (worst error and bound in units of u^N).
pub fn print_report<T: FloatTerm>(name: &str, n: usize, r: &Report) {
    let u = bounds::u_pow::<T>(n);
    eprintln!(
        "{name:>7} {}x{n}: {:>6} cases ({:>5} skipped), worst {:>9.3} u^N, bound {:>10.3} u^N{}",
        T::NAME,
        r.cases,
        r.skipped,
        r.worst / u,
        r.bound / u,
        if r.bound.is_finite() && r.worst > 0.0 {
            format!(" (bound/worst {:.0})", r.bound / r.worst)
        } else {
            String::new()
        }
    );
}

/// f(x) for the f64 value x on an n-term expansion of T, through the typed methods at a few
/// N (used by the special-value and monotonicity tests): the leading term as f64.
pub fn lead<T: FloatTerm>(t: &Terms<T>) -> f64 {
    t[0].to_f64()
}

/// f(x_{i+1}) ≥ f(x_i) on a sequence of adjacent n-term arguments: steps of 1 to 4 units
/// in the last place of the whole expansion at N = 1 (where results are the N = 2 results
/// rounded, nearly correctly rounded), of 64 to 256 units at N ≥ 2 (the functions are not
/// correctly rounded: with 1-unit steps an algorithm switch, e.g. ln_1p at √2 − 1, can
/// reverse the order of two results that differ by less than their errors).
pub fn monotone<T: FloatTerm>(f: Unary, n: usize, start: f64, rng: &mut SplitMix) {
    let p = T::PRECISION as i32 * n as i32;
    let mut x = Float::with_val(2400, start);
    let mut prev: Option<Float> = None;
    for _ in 0..cases(60).min(2000) {
        let t = terms_of::<T>(&x, n);
        let xv = value(&t, n);
        let y = value(&T::eval_unary_terms(f, n, &t), n);
        if let Some(pv) = &prev {
            assert!(
                &y >= pv,
                "{} {}x{n} not monotone at x = {:?}",
                f.name(),
                T::NAME,
                &t[..n]
            );
        }
        prev = Some(y);
        let e = if xv.is_zero() {
            -1000
        } else {
            crate::common::log2i(xv.to_f64())
        };
        let step = Float::with_val(64, rng.range(1, 4)) << if n == 1 { 0u32 } else { 6 };
        let step = step * Float::with_val(64, Float::i_exp(1, e - p + 1));
        x = Float::with_val(2400, &xv + &step);
    }
}
