//! Oracle tests of the trigonometric family (sin, cos, tan, atan, asin, acos, atan2) against
//! MPFR: every N = 1..8, f64 and f32 terms, arguments over the whole exponent range (tiny,
//! near 1, huge up to 1e300, the expansions nearest to k·π/2 and k·π/2 + d for |d| from 2^-60
//! to 1/2 (both sides of the Cody–Waite reduction's checks), ±1 for asin/acos), sin/cos of
//! 1e22 in quad-double, IEEE special values against `f64`, and monotonicity at neighbouring
//! arguments. The oracle evaluates f on the exact value of the input expansion at
//! 4·p·N + 64 bits (MPFR's results are correctly rounded for any argument size: it does its
//! own exact argument reduction) and the error is checked against the stated bound
//! |ŷ − y| ≤ rel·|y| + abs of `expanse_core::functions::error_bound`.
//!
//! Default sizes keep this module to a few seconds; `EXPANSE_FULL_TESTS=1` runs 10^5 cases
//! per (function, N, T).

use crate::common::{log2i, pow2, rand_expansion, SplitMix};
use expanse_core::functions::{error_bound, error_bound_binary, Binary, ErrorBound, Unary};
use expanse_core::{bounds, Expansion, FloatTerm};
use rug::Float;

/// Cases per (function, N, T).
fn cases() -> usize {
    match std::env::var("EXPANSE_FULL_TESTS") {
        Ok(v) if v == "1" => 100_000,
        _ => std::env::var("EXPANSE_TRIG_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(400),
    }
}

/// Oracle precision for (T, N).
fn oracle_prec<T: FloatTerm>(n: usize) -> u32 {
    4 * T::PRECISION * n as u32 + 64
}

fn oracle(f: Unary, x: &Float, prec: u32) -> Float {
    let x = Float::with_val(prec, x);
    match f {
        Unary::Sin => x.sin(),
        Unary::Cos => x.cos(),
        Unary::Tan => x.tan(),
        Unary::Atan => x.atan(),
        Unary::Asin => x.asin(),
        Unary::Acos => x.acos(),
        _ => unreachable!(),
    }
}

/// Worst error of one (function, T, N) run.
#[derive(Default)]
struct Worst {
    cases: u64,
    /// largest |ŷ − y|/|y| in units of u^N
    rel_units: f64,
    /// largest |ŷ − y| / (rel·|y| + abs)
    ratio: f64,
    /// largest |ŷ − y| (reported where the bound has an absolute part)
    abs_err: f64,
}

/// Checks one result; panics with the input when the stated bound is exceeded. Results
/// outside the stated domain (magnitude below `min_normal_result` when the bound has no
/// absolute part; for tan also above its reciprocal, as then cot x is below it) are skipped.
#[allow(clippy::too_many_arguments)]
fn check_one(
    name: &str,
    tname: &str,
    n: usize,
    input: &str,
    got: &Float,
    exact: &Float,
    b: ErrorBound,
    min_result: f64,
    unit: f64,
    w: &mut Worst,
) {
    let ay = Float::with_val(64, exact.abs_ref());
    if !exact.is_zero()
        && b.abs == 0.0
        && (ay < min_result || (name == "tan" && ay > 1.0 / min_result))
    {
        return;
    }
    // With an absolute part (f32, N ≥ 5) tan is stated for |tan x| ≤ 2^8.
    if b.abs > 0.0 && name == "tan" && ay > 256.0 {
        return;
    }
    assert!(
        got.is_finite(),
        "{name} {tname} N={n} x={input}: non-finite {got}"
    );
    let err = Float::with_val(exact.prec(), got - exact).abs().to_f64();
    let allowed = b.rel * ay.to_f64() + b.abs;
    assert!(
        err <= allowed,
        "{name} {tname} N={n} x={input}: error {err:e} > bound {allowed:e} (exact {})",
        exact.to_f64()
    );
    w.cases += 1;
    w.abs_err = w.abs_err.max(err);
    if allowed > 0.0 {
        w.ratio = w.ratio.max(err / allowed);
    }
    // Relative errors in units of u^N where they are meaningful (with an absolute part,
    // only for |y| ≥ 1/4).
    if !exact.is_zero() && (b.abs == 0.0 || ay >= 0.25) {
        w.rel_units = w.rel_units.max(err / ay.to_f64() / unit);
    }
}

/// A random expansion with leading exponent in [lo, hi]: the adversarial generator of
/// `common`, or for f32 with N ≥ 5 (whose lower terms near 1 are subnormal, which that
/// generator does not make) the nearest expansion to a random 320-bit number.
fn rexp<T: FloatTerm, const N: usize>(rng: &mut SplitMix, lo: i32, hi: i32) -> Expansion<T, N> {
    let e = rng.range(lo, hi);
    if T::PRECISION == 53 || N <= 4 {
        return rand_expansion::<T, N>(rng, e);
    }
    let mut v = Float::with_val(400, 1);
    for k in 1..6u32 {
        v += Float::with_val(400, rng.next()) >> (64 * k);
    }
    v <<= e;
    v *= rng.sign();
    let x = Expansion::<T, N>::from_rug(&v);
    Expansion::try_from_normalized(*x.terms()).unwrap_or_else(|| Expansion::from_terms(*x.terms()))
}

/// Lowest leading exponent of random arguments: inside the stated domain when the bound is
/// purely relative; f32 with N ≥ 5 (absolute part) from 2^-100.
fn low_exponent<T: FloatTerm>(n: usize) -> i32 {
    if T::PRECISION < 53 && n >= 5 {
        -100
    } else {
        log2i(bounds::min_normal_result::<T>(n)).max(-1000) + 2
    }
}

/// The expansion nearest to v.
fn nearest<T: FloatTerm, const N: usize>(v: &Float) -> Expansion<T, N> {
    Expansion::from_rug(v)
}

/// A random argument for `f` (see the module doc for the mix).
fn argument<T: FloatTerm, const N: usize>(f: Unary, rng: &mut SplitMix) -> Expansion<T, N> {
    let lo = low_exponent::<T>(N);
    let hi = if T::PRECISION == 53 { 996 } else { 118 };
    let prec = oracle_prec::<T>(N) + 1100;
    match f {
        Unary::Sin | Unary::Cos | Unary::Tan => match rng.below(12) {
            0..=3 => rexp::<T, N>(rng, -8, 3),
            4..=6 => rexp::<T, N>(rng, 3, hi),
            7 | 8 => {
                // The expansion nearest to k·π/2.
                let bits = rng.range(0, if T::PRECISION == 53 { 60 } else { 20 });
                let k = 1 + (rng.next() >> (64 - bits.max(1))) as i64;
                let v = Float::with_val(prec, rug::float::Constant::Pi) * k / 2 * rng.sign();
                nearest::<T, N>(&v)
            }
            10 | 11 => {
                // k·π/2 + d with |d| from 2^-60 to 1/2 and k < 2^18: both sides of the
                // Cody–Waite reduction's run-time checks (2^-c ≤ |r| ≤ 0.785398, |k| < 2^b).
                let bits = rng.range(0, if T::PRECISION == 53 { 18 } else { 10 });
                let k = 1 + (rng.next() >> (64 - bits.max(1))) as i64;
                let d = Float::with_val(prec, rng.next()) >> (64 + rng.range(1, 60));
                let v = (Float::with_val(prec, rug::float::Constant::Pi) * k / 2 + d * rng.sign())
                    * rng.sign();
                nearest::<T, N>(&v)
            }
            9 => {
                // Near a table point j/256 of the reduced argument (both sides; j = 1 is the
                // edge between the fixed-point paths A and B at f64 N ≥ 3, `sin_fixed.rs`).
                let j = rng.range(1, 202);
                let d = Float::with_val(prec, rng.next()) >> (64 + rng.range(8, 200));
                let v = (Float::with_val(prec, j) / 256 + d * rng.sign()) * rng.sign();
                nearest::<T, N>(&v)
            }
            _ => rexp::<T, N>(rng, lo, -8),
        },
        Unary::Atan => match rng.below(9) {
            0 => {
                let v = 1.0 + rng.sign() * pow2(-rng.range(1, 60));
                let e = rexp::<T, N>(rng, -60, -20);
                Expansion::<T, N>::from_f64(v * rng.sign()).add(&e)
            }
            1 => {
                // Uniform in (−1, 1) (every entry of the N = 2 table reduction), with the
                // full precision of the expansion.
                let v = Float::with_val(prec, rng.next()) >> 64;
                nearest::<T, N>(&(v * rng.sign()))
            }
            2 => {
                // Near a table point j/256 (both sides, the ½-way points j ± ½ included).
                let j = rng.range(0, 257) as f64 + if rng.below(4) == 0 { 0.5 } else { 0.0 };
                let d = Float::with_val(prec, rng.next()) >> (64 + rng.range(8, 100));
                let v = (Float::with_val(prec, j) / 256 + d * rng.sign()) * rng.sign();
                nearest::<T, N>(&v)
            }
            6 => {
                // Near 256/j and 256/(j ± ½) (the N = 2 reciprocal path `atan_recip_table`:
                // its table points, where the numerator 1 − c·x cancels, and its rounding
                // midpoints), both sides.
                let j = rng.range(1, 257) as f64 - if rng.below(4) == 0 { 0.5 } else { 0.0 };
                let d = Float::with_val(prec, rng.next()) >> (64 + rng.range(0, 110));
                let v = (Float::with_val(prec, 256) / j + d * rng.sign()) * rng.sign();
                nearest::<T, N>(&v)
            }
            7 => {
                // Uniform in (1, 600) with the full precision of the expansion.
                let v = Float::with_val(prec, rng.next()) * 599 / pow2(64) + 1;
                nearest::<T, N>(&(v * rng.sign()))
            }
            8 => {
                // A leading term in (1, 600) with a far-away lower term (below the reciprocal
                // path's 2^−960 / 2^−93 threshold, or just above it).
                let v = 1.0 + 599.0 * (rng.next() >> 11) as f64 / pow2(53);
                let tiny = if T::PRECISION == 53 {
                    pow2(-rng.range(950, 1000))
                } else {
                    pow2(-rng.range(88, 100))
                };
                Expansion::<T, N>::from_f64(v * rng.sign())
                    .add(&Expansion::from_f64(tiny * rng.sign()))
            }
            _ => rexp::<T, N>(rng, lo, hi),
        },
        _ => match rng.below(4) {
            // Near ±1: 1 − tiny, exactly.
            0 => {
                let t = rexp::<T, N>(rng, lo.max(-150), -2).abs();
                let one = Expansion::<T, N>::one();
                let v = one.sub(&t);
                if rng.next() & 1 == 0 {
                    v
                } else {
                    v.neg()
                }
            }
            1 => Expansion::from_term(T::from_f64(rng.sign())),
            _ => rexp::<T, N>(rng, lo, -1),
        },
    }
}

fn call<T: FloatTerm, const N: usize>(f: Unary, x: &Expansion<T, N>) -> Expansion<T, N> {
    match f {
        Unary::Sin => x.sin(),
        Unary::Cos => x.cos(),
        Unary::Tan => x.tan(),
        Unary::Atan => x.atan(),
        Unary::Asin => x.asin(),
        Unary::Acos => x.acos(),
        _ => unreachable!(),
    }
}

/// Random cases of `f` at (T, N); returns the worst errors.
fn run<T: FloatTerm, const N: usize>(f: Unary, count: usize) -> Worst {
    let mut rng = SplitMix(0x7419 + 97 * N as u64 + 1000 * f as u64 + T::PRECISION as u64);
    let b = error_bound::<T>(f, N);
    let unit = bounds::u_pow::<T>(N);
    let min_result = bounds::min_normal_result::<T>(N);
    let mut w = Worst::default();
    for _ in 0..count {
        let x = argument::<T, N>(f, &mut rng);
        if !x.is_finite() {
            continue;
        }
        let xr = x.to_rug();
        // f32 with N ≥ 5: asin/acos are stated for |x| ≤ 1 − 2^-40 (and ±1).
        if b.abs > 0.0 && matches!(f, Unary::Asin | Unary::Acos) {
            let d = Float::with_val(400, 1 - Float::with_val(400, xr.abs_ref()));
            if d > 0 && d < pow2(-40) {
                continue;
            }
        }
        let prec = oracle_prec::<T>(N) + log2i(x.hi().to_f64().abs().max(1.0)).max(0) as u32;
        let exact = oracle(f, &xr, prec);
        let got = call(f, &x);
        check_one(
            f.name(),
            T::NAME,
            N,
            &format!("{:?}", x.terms()),
            &got.to_rug(),
            &exact,
            b,
            min_result,
            unit,
            &mut w,
        );
    }
    w
}

/// Random atan2 cases at (T, N).
fn run_atan2<T: FloatTerm, const N: usize>(count: usize) -> Worst {
    let mut rng = SplitMix(0xa7a2 + N as u64 + T::PRECISION as u64);
    let b = error_bound_binary::<T>(Binary::Atan2, N);
    let unit = bounds::u_pow::<T>(N);
    let min_result = bounds::min_normal_result::<T>(N);
    let (lo, hi) = if T::PRECISION == 53 {
        (-300, 300)
    } else {
        (low_exponent::<T>(N), 100)
    };
    let mut w = Worst::default();
    for _ in 0..count {
        let ey = rng.range(lo, hi);
        let ex = if rng.below(2) == 0 {
            (ey + rng.range(-4, 4)).clamp(lo, hi)
        } else {
            rng.range(lo, hi)
        };
        // f32 with N ≥ 5: stated for max(|y|, |x|) ≥ 2^-20.
        if b.abs > 0.0 && ey.max(ex) < -20 {
            continue;
        }
        let y = rexp::<T, N>(&mut rng, ey, ey);
        let x = rexp::<T, N>(&mut rng, ex, ex);
        let prec = oracle_prec::<T>(N);
        let exact = Float::with_val(prec, y.to_rug()).atan2(&x.to_rug());
        let got = y.atan2(&x);
        check_one(
            "atan2",
            T::NAME,
            N,
            &format!("y={:?} x={:?}", y.terms(), x.terms()),
            &got.to_rug(),
            &exact,
            b,
            min_result,
            unit,
            &mut w,
        );
    }
    w
}

fn report(name: &str, tname: &str, n: usize, w: &Worst, b: ErrorBound, unit: f64) {
    eprintln!(
        "{name:5} {tname} N={n}: {} cases, worst {:.3} u^N, bound {:.1} u^N, worst/bound {:.4}{}",
        w.cases,
        w.rel_units,
        b.rel / unit,
        w.ratio,
        if b.abs > 0.0 {
            format!(
                ", worst abs 2^{:.1} (abs part 2^{:.0})",
                w.abs_err.log2(),
                b.abs.log2()
            )
        } else {
            String::new()
        }
    );
}

fn family<T: FloatTerm, const N: usize>(count: usize) {
    use crate::common::functions::{selected_function, selected_n};
    if !selected_n(N) {
        return;
    }
    let unit = bounds::u_pow::<T>(N);
    for f in [
        Unary::Sin,
        Unary::Cos,
        Unary::Tan,
        Unary::Atan,
        Unary::Asin,
        Unary::Acos,
    ] {
        if !selected_function(f.name()) {
            continue;
        }
        let w = run::<T, N>(f, count);
        report(f.name(), T::NAME, N, &w, error_bound::<T>(f, N), unit);
    }
    if !selected_function("atan2") {
        return;
    }
    let w = run_atan2::<T, N>(count);
    let b = error_bound_binary::<T>(Binary::Atan2, N);
    report("atan2", T::NAME, N, &w, b, unit);
}

#[test]
fn trig_f64_all_n_within_stated_bounds() {
    let c = cases();
    family::<f64, 1>(c);
    family::<f64, 2>(c);
    family::<f64, 3>(c);
    family::<f64, 4>(c);
    family::<f64, 5>(c);
    family::<f64, 6>(c);
    family::<f64, 7>(c);
    family::<f64, 8>(c);
}

#[test]
fn trig_f32_all_n_within_stated_bounds() {
    let c = cases();
    family::<f32, 1>(c);
    family::<f32, 2>(c);
    family::<f32, 3>(c);
    family::<f32, 4>(c);
    family::<f32, 5>(c / 2);
    family::<f32, 6>(c / 2);
    family::<f32, 7>(c / 2);
    family::<f32, 8>(c / 2);
}

#[test]
fn sin_cos_of_1e22_quad_double() {
    let x = Expansion::<f64, 4>::from_f64(1e22);
    let xr = x.to_rug();
    let unit = bounds::u_pow::<f64>(4);
    for (f, got) in [(Unary::Sin, x.sin()), (Unary::Cos, x.cos())] {
        let exact = oracle(f, &xr, 4 * 53 * 4 + 200);
        let err = Float::with_val(1000, got.to_rug() - &exact).abs() / exact.clone().abs();
        let err = err.to_f64();
        let b = error_bound::<f64>(f, 4).rel;
        eprintln!(
            "{}(1e22) quad-double = {:?} (to f64 {:.17}); MPFR {:.25}; rel err {:.3} u^4 (bound {:.1})",
            f.name(),
            got.terms(),
            got.to_f64(),
            exact.to_f64(),
            err / unit,
            b / unit
        );
        assert!(err <= b, "{}(1e22): {err:e} > {b:e}", f.name());
    }
    // The known value sin(1e22) = −0.8522008497671888017727…
    assert!((x.sin().to_f64() + 0.852_200_849_767_188_8).abs() < 1e-15);
}

#[test]
fn tan_near_pi_over_2_is_large_finite_and_accurate() {
    let prec = 2000;
    let half_pi = Float::with_val(prec, rug::float::Constant::Pi) / 2;
    for k in [1i64, 3, 5, 1001, 123_456_789] {
        let v = Float::with_val(prec, &half_pi * k);
        let x = Expansion::<f64, 4>::from_rug(&v);
        let t = x.tan();
        assert!(
            t.is_finite() && t.to_f64().abs() > 1e50,
            "tan({k}π/2) = {:?}",
            t.terms()
        );
        let exact = oracle(Unary::Tan, &x.to_rug(), 2000);
        let err = (Float::with_val(2000, t.to_rug() - &exact) / &exact)
            .abs()
            .to_f64();
        assert!(
            err <= error_bound::<f64>(Unary::Tan, 4).rel,
            "tan({k}π/2): {err:e}"
        );
    }
}

/// π·m/4 rounded to N terms, from the oracle.
fn pi_quarters<const N: usize>(m: i32) -> Expansion<f64, N> {
    let v = Float::with_val(3000, rug::float::Constant::Pi) * m / 4;
    Expansion::from_rug(&v)
}

fn special_values<const N: usize>() {
    type E<const N: usize> = Expansion<f64, N>;
    let z = E::<N>::zero();
    let nz = z.neg();
    let inf = E::<N>::from_term(f64::INFINITY);
    let ninf = inf.neg();
    let nan = E::<N>::from_term(f64::NAN);
    // Zeros compared on the leading term (`to_f64` sums from +0 and drops the sign of −0).
    let same = |a: &E<N>, b: f64| {
        if b == 0.0 {
            a.hi().to_bits() == b.to_bits()
        } else {
            a.to_f64().to_bits() == b.to_bits()
        }
    };
    assert!(same(&z.sin(), 0.0) && same(&nz.sin(), -0.0));
    assert!(same(&z.tan(), 0.0) && same(&nz.tan(), -0.0));
    assert!(same(&z.cos(), 1.0) && same(&nz.cos(), 1.0));
    for v in [inf, ninf, nan] {
        assert!(v.sin().is_nan() && v.cos().is_nan() && v.tan().is_nan());
        assert!(v.asin().is_nan() && v.acos().is_nan());
    }
    assert!(nan.atan().is_nan());
    assert_eq!(inf.atan().terms(), pi_quarters::<N>(2).terms());
    assert_eq!(ninf.atan().terms(), pi_quarters::<N>(-2).terms());
    assert!(same(&z.atan(), 0.0) && same(&nz.atan(), -0.0));
    assert!(same(&z.asin(), 0.0) && same(&nz.asin(), -0.0));
    for v in [2.0, -2.0, 1.0 + f64::EPSILON] {
        assert!(E::<N>::from_f64(v).asin().is_nan() && E::<N>::from_f64(v).acos().is_nan());
    }
    // Just above 1 in a lower term.
    let above = E::<N>::one().add(&E::<N>::from_f64(1e-300));
    if N > 1 {
        assert!(above.asin().is_nan() && above.acos().is_nan());
    }
    let one = E::<N>::one();
    assert_eq!(one.asin().terms(), pi_quarters::<N>(2).terms());
    assert_eq!(one.neg().asin().terms(), pi_quarters::<N>(-2).terms());
    assert!(same(&one.acos(), 0.0));
    assert_eq!(one.neg().acos().terms(), pi_quarters::<N>(4).terms());
    // atan2 on every pair of {±0, ±1, ±∞, NaN}: as f64::atan2, to the nearest f64 and
    // exactly (the rounded m·π/4) when the result is a multiple of π/4.
    let vals = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for &y in &vals {
        for &x in &vals {
            let want = y.atan2(x);
            let got = E::<N>::from_term(y).atan2(&E::<N>::from_term(x));
            if want.is_nan() {
                assert!(got.is_nan(), "atan2({y}, {x})");
                continue;
            }
            let g = if want == 0.0 { got.hi() } else { got.to_f64() };
            assert!(
                g.to_bits() == want.to_bits(),
                "N={N} atan2({y}, {x}) = {g:e}, f64 gives {want:e}"
            );
            let m = (want / std::f64::consts::FRAC_PI_4).round() as i32;
            if want != 0.0 {
                let exact = pi_quarters::<N>(m);
                let err = Float::with_val(4000, got.to_rug() - exact.to_rug()).abs();
                let bound = error_bound_binary::<f64>(Binary::Atan2, N).rel * g.abs();
                assert!(err.to_f64() <= bound, "atan2({y}, {x}) N={N}");
            }
        }
    }
}

#[test]
fn special_values_as_ieee() {
    special_values::<1>();
    special_values::<2>();
    special_values::<4>();
    special_values::<8>();
}

/// x moved up by `steps` units of its last place (2^{−pN}|x|, a neighbouring expansion).
fn neighbour<const N: usize>(x: &Expansion<f64, N>, steps: f64) -> Expansion<f64, N> {
    let xr = x.to_rug();
    let d = Float::with_val(64, xr.abs_ref()) * pow2(-53 * N as i32) * steps;
    Expansion::from_rug(&Float::with_val(4000, &xr + &d))
}

/// Monotonicity at neighbouring arguments: for random x and x' = x + s·2^{−pN}|x| (s the
/// smallest step that moves x), f(x) ≤ f(x') for increasing f. Counts violations at the
/// finest step; asserts none at a step where the stated bound implies the order.
fn monotone<const N: usize>(f: Unary, increasing: bool, lo: f64, hi: f64, count: usize) -> usize {
    let mut rng = SplitMix(0x3070 + N as u64 + 10 * f as u64);
    let mut violations = 0;
    let rel = error_bound::<f64>(f, N).rel;
    for _ in 0..count {
        let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        let mut x = Expansion::<f64, N>::from_f64(lo + (hi - lo) * u);
        if N > 1 {
            x = x.add(&rand_expansion::<f64, N>(&mut rng, log2i(x.hi()) - 60));
        }
        // Finest step that moves the expansion.
        let mut s = 1.0;
        let mut y = neighbour(&x, s);
        while y == x {
            s *= 2.0;
            y = neighbour(&x, s);
        }
        let (fx, fy) = (call(f, &x), call(f, &y));
        let ordered = if increasing { fx <= fy } else { fx >= fy };
        if !ordered {
            violations += 1;
            // A violation must stay within the stated bounds of both values.
            let gap = Float::with_val(4000, fx.to_rug() - fy.to_rug())
                .abs()
                .to_f64();
            let allowed = rel * (fx.to_f64().abs() + fy.to_f64().abs()) * 1.001;
            assert!(
                gap <= allowed,
                "{} N={N}: {:?} -> {:?}",
                f.name(),
                x.terms(),
                y.terms()
            );
        }
    }
    violations
}

#[test]
fn monotone_at_neighbouring_arguments() {
    let c = cases().min(2000) / 2;
    for (f, inc, lo, hi) in [
        (Unary::Atan, true, -4.0, 4.0),
        (Unary::Asin, true, -0.99, 0.99),
        (Unary::Acos, false, -0.99, 0.99),
        (Unary::Sin, true, -1.5, 1.5),
    ] {
        let v = [
            monotone::<1>(f, inc, lo, hi, c),
            monotone::<2>(f, inc, lo, hi, c),
            monotone::<4>(f, inc, lo, hi, c),
            monotone::<8>(f, inc, lo, hi, c),
        ];
        eprintln!(
            "{} monotonicity at the finest step, violations (N=1,2,4,8) out of {c}: {v:?}",
            f.name()
        );
    }
}

fn time_per_call<const N: usize>(f: Unary) -> f64 {
    let mut rng = SplitMix(0x7133 + N as u64);
    let hi = if f == Unary::Asin { -1 } else { 8 };
    let xs: Vec<Expansion<f64, N>> = (0..300).map(|_| rexp::<f64, N>(&mut rng, -3, hi)).collect();
    // Best of three passes (the machine is shared; the first pass also warms up).
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let mut acc = 0.0;
        for x in &xs {
            acc += call(f, x).hi();
        }
        assert!(acc.is_finite());
        best = best.min(start.elapsed().as_secs_f64() / xs.len() as f64 * 1e6);
    }
    best
}

/// Speed in this build's profile (informational, not asserted).
#[test]
fn speed_report() {
    for f in [Unary::Sin, Unary::Tan, Unary::Atan, Unary::Asin] {
        eprintln!(
            "{:4} f64 µs/call: N=1 {:.2}, N=2 {:.2}, N=4 {:.2}, N=8 {:.2}",
            f.name(),
            time_per_call::<1>(f),
            time_per_call::<2>(f),
            time_per_call::<4>(f),
            time_per_call::<8>(f)
        );
    }
}

/// The chunks of π/2 of the Cody–Waite reduction (`functions::device::term_tables`,
/// `CW_PIO2`) against MPFR's π: chunk i·2^{w(i+1)−1} is an integer below 2^w (w = 37 for f64,
/// 16 for f32: its products with |q| < 2^b are exact), and the chunks are the truncation of
/// π/2 to its bits of weight ≥ 2^{1−wm}: 0 ≤ π/2 − ΣC_i < 2^{1−wm}.
#[test]
fn cody_waite_chunks_of_pi_over_2() {
    use expanse_core::functions::device::term_tables;
    fn check<T: FloatTerm>(w: i32, m: usize) {
        let t = term_tables::<T>()
            .into_iter()
            .find(|t| t.name == "CW_PIO2")
            .expect("CW_PIO2 table");
        let pio2 = Float::with_val(2000, rug::float::Constant::Pi) / 2;
        let mut sum = Float::with_val(2000, 0);
        for i in 0..t.cols {
            let c = T::from_bits_u64(t.bits[i]).to_f64();
            if i >= m {
                assert_eq!(c, 0.0, "{} chunk {i} past the {m} used", T::NAME);
                continue;
            }
            let scaled = Float::with_val(2000, c) << (w * (i as i32 + 1) - 1);
            assert!(
                scaled.is_integer(),
                "{} chunk {i} has more than {w} bits",
                T::NAME
            );
            assert!(
                scaled >= 0 && scaled < pow2(w),
                "{} chunk {i} out of range",
                T::NAME
            );
            sum += c;
            let rest = Float::with_val(2000, &pio2 - &sum);
            let lim = Float::with_val(2000, 1) >> (w * (i as i32 + 1) - 1);
            assert!(
                rest >= 0 && rest < lim,
                "{} chunks 0..={i} not π/2 truncated",
                T::NAME
            );
        }
    }
    check::<f64>(37, 13);
    check::<f32>(16, 8);
}

/// The tables of atan's reduction (`functions::device::term_tables`, `ATAN_TAB`: atan(j/K),
/// and `ATAN_INV_ODD`: the series coefficients 1/(2j+1)) against MPFR: row j holds the first
/// eight greedy terms (term 0 = the value rounded to nearest, term k = the rest rounded to
/// nearest; f32: zero, and zeros after it, where that term would be subnormal), so the first
/// N terms are within u^N(1 + u) relatively, the α and γ_N of the bound (checked for every
/// N ≤ 8 where the table path runs: f64, and f32 with N ≤ 4).
#[test]
fn atan_table_against_mpfr() {
    use expanse_core::functions::device::term_tables;
    use rug::float::Round;
    const PREC: u32 = 1500;
    fn check<T: FloatTerm>(name: &str, value: &dyn Fn(usize) -> Float, rows: usize) {
        let t = term_tables::<T>()
            .into_iter()
            .find(|t| t.name == name)
            .expect("table");
        assert_eq!((t.rows, t.cols), (rows, 8), "{name} shape");
        let p = T::PRECISION;
        let emin = if p == 53 { -1022 } else { -126 };
        let u = FloatTerm::ldexp(1.0f64, -(p as i32));
        let n_max = if p == 53 { 8 } else { 4 };
        for j in 0..t.rows {
            let v = value(j);
            let mut rest = v.clone();
            for k in 0..8 {
                let a = T::from_bits_u64(t.bits[8 * j + k]).to_f64();
                let (r, _) = Float::with_val_round(p, &rest, Round::Nearest);
                let expect = if r.is_zero() || r.get_exp().is_some_and(|e| e - 1 < emin) {
                    rest = Float::with_val(PREC, 0);
                    0.0
                } else {
                    r.to_f64()
                };
                assert_eq!(expect, a, "{} {name} row {j} term {k}", T::NAME);
                rest -= a;
                if k + 1 <= n_max && !v.is_zero() {
                    let lim = Float::with_val(PREC, &v * (u.powi(k as i32 + 1) * (1.0 + u)));
                    assert!(
                        Float::with_val(PREC, rest.abs_ref()) <= lim,
                        "{} {name} row {j}: {} terms above u^N(1 + u)",
                        T::NAME,
                        k + 1
                    );
                }
            }
        }
    }
    let atan = |j: usize| Float::with_val(PREC, Float::with_val(PREC, j) / 256u32).atan();
    let inv_odd = |j: usize| Float::with_val(PREC, 1) / Float::with_val(PREC, 2 * j + 1);
    check::<f64>("ATAN_TAB", &atan, 257);
    check::<f32>("ATAN_TAB", &atan, 257);
    check::<f64>("ATAN_INV_ODD", &inv_odd, 32);
    check::<f32>("ATAN_INV_ODD", &inv_odd, 32);
}

/// The tables of the N = 2 table reduction of sin, cos and tan (`functions::device::term_tables`,
/// `SIN_TAB`, `COS_DEN_INV`) against MPFR: each pair is the first two greedy terms of its value
/// (term 0 = the value rounded to nearest, term 1 = the rest rounded to nearest), so within
/// u²(1 + u) relatively, the α of the bound; and the rows reach ⌊256·π/4·(1 + 2^−20)⌋.
#[test]
fn sin_table_against_mpfr() {
    use expanse_core::functions::device::term_tables;
    use rug::float::Round;
    fn pair<T: FloatTerm>(v: &Float, a0: f64, a1: f64, what: &str) {
        let p = T::PRECISION;
        let u = FloatTerm::ldexp(1.0f64, -(p as i32));
        let (r0, _) = Float::with_val_round(p, v, Round::Nearest);
        assert_eq!(r0.to_f64(), a0, "{} {what} term 0", T::NAME);
        let rest = Float::with_val(1000, v - a0);
        let (r1, _) = Float::with_val_round(p, &rest, Round::Nearest);
        assert_eq!(r1.to_f64(), a1, "{} {what} term 1", T::NAME);
        let err = Float::with_val(1000, &rest - a1).abs();
        assert!(
            err <= Float::with_val(1000, v * (u * u * (1.0 + u))).abs(),
            "{} {what}: error above u²(1 + u)",
            T::NAME
        );
    }
    fn check<T: FloatTerm>() {
        let tabs = term_tables::<T>();
        let find = |name: &str| {
            tabs.iter()
                .find(|t| t.name == name)
                .unwrap_or_else(|| panic!("table {name}"))
                .clone()
        };
        let t = find("SIN_TAB");
        assert_eq!(t.cols, 4);
        let pi4 = Float::with_val(1000, rug::float::Constant::Pi) / 4u32;
        let top = Float::with_val(1000, &pi4 * 256u32) * (1.0 + FloatTerm::ldexp(1.0f64, -20));
        assert!(top < (t.rows as u32), "SIN_TAB rows");
        let term = |k: usize| T::from_bits_u64(t.bits[k]).to_f64();
        for j in 0..t.rows {
            let c = Float::with_val(1000, j) / 256u32;
            let (sv, cv) = (
                Float::with_val(1000, c.sin_ref()),
                Float::with_val(1000, c.cos_ref()),
            );
            pair::<T>(&sv, term(4 * j), term(4 * j + 1), &format!("sin row {j}"));
            pair::<T>(
                &cv,
                term(4 * j + 2),
                term(4 * j + 3),
                &format!("cos row {j}"),
            );
        }
        let d = find("COS_DEN_INV");
        assert_eq!(d.cols, 2);
        for j in 0..d.rows {
            let v = Float::with_val(1000, 1) / ((2 * j as u32 + 1) * (2 * j as u32 + 2));
            let a0 = T::from_bits_u64(d.bits[2 * j]).to_f64();
            let a1 = T::from_bits_u64(d.bits[2 * j + 1]).to_f64();
            pair::<T>(&v, a0, a1, &format!("COS_DEN_INV row {j}"));
        }
    }
    check::<f64>();
    check::<f32>();
}

/// The N = 2 division of atan's table path (`div_newton`: one correction of the leading
/// quotient, stated bound 13u² + 50u³) against MPFR: random double-words over a wide exponent
/// range, quotients that are exact double-words (the residual cancels) and their neighbours,
/// and numerators below the main path's 2^(e_min + 3p) limit (the accurate division), all
/// within the accurate tier's range (operands and quotient at least `min_normal_result`).
fn div_newton_case<T: FloatTerm>(rng: &mut SplitMix, kind: u64) -> ([T; 2], [T; 2]) {
    let (elo, ehi) = if T::PRECISION == 53 {
        (-900, 900)
    } else {
        (-60, 60)
    };
    let ed = rng.range(elo / 2, ehi / 2);
    let d: Expansion<T, 2> = rand_expansion(rng, ed);
    let n: Expansion<T, 2> = match kind {
        0 => {
            let en = rng.range(elo / 2, ehi / 2);
            rand_expansion(rng, en)
        }
        1 => {
            // n = q·d rounded: the exact quotient is (nearly) a double-word.
            let eq = rng.range(-20, 20);
            let q: Expansion<T, 2> = rand_expansion(rng, eq);
            q.mul(&d)
        }
        _ => {
            // Between the accurate tier's range (min_normal_result: 2^−927, f32 2^−60) and
            // the main path's 2^(e_min + 3p) (2^−863, 2^−54).
            let en = if T::PRECISION == 53 {
                rng.range(-926, -864)
            } else {
                rng.range(-59, -55)
            };
            rand_expansion(rng, en)
        }
    };
    (normalise(n.terms()), normalise(d.terms()))
}

fn normalise<T: FloatTerm>(t: &[T]) -> [T; 2] {
    let s = t[0] + t[1];
    let e = t[1] - (s - t[0]);
    [s, e]
}

fn div_newton_run<T: FloatTerm>(count: usize) -> f64 {
    let mut rng = SplitMix(0xd1f + T::PRECISION as u64);
    let mut worst = 0.0f64;
    let u2 = bounds::u_pow::<T>(2);
    for i in 0..count {
        let (n, d) = div_newton_case::<T>(&mut rng, i as u64 % 3);
        if n[0] == T::ZERO || d[0] == T::ZERO || !n[0].is_finite() || !d[0].is_finite() {
            continue;
        }
        let (q, bound) = expanse_core::functions::trig::div_newton_pair(n, d);
        let f = |t: [T; 2]| Float::with_val(600, t[0].to_f64()) + t[1].to_f64();
        let exact = Float::with_val(600, f(n) / f(d));
        // The stated domain: operands and result at least min_normal_result(2).
        let threshold = bounds::min_normal_result::<T>(2);
        if exact.is_zero()
            || Float::with_val(64, exact.abs_ref()) < threshold
            || n[0].abs().to_f64() < threshold
        {
            continue;
        }
        let ae = Float::with_val(600, exact.abs_ref());
        let err = Float::with_val(600, f(q) - &exact).abs() / &ae;
        let rel = err.to_f64();
        assert!(
            rel <= bound,
            "{} div_newton {:?} / {:?} = {:?}: {} u^2 > {} u^2",
            T::NAME,
            n.map(|v| v.to_f64()),
            d.map(|v| v.to_f64()),
            q.map(|v| v.to_f64()),
            rel / u2,
            bound / u2
        );
        worst = worst.max(rel / u2);
    }
    worst
}

#[test]
fn div_newton_within_its_bound() {
    let c = cases().max(2000) * 5;
    let w64 = div_newton_run::<f64>(c);
    let w32 = div_newton_run::<f32>(c);
    eprintln!("div_newton: {c} cases per type, worst f64 {w64:.3} u^2, f32 {w32:.3} u^2 (bound 13 u^2 + 50 u^3)");
    assert!(w64 > 0.0 && w32 > 0.0);
}
