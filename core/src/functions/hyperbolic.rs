//! Hyperbolic functions of expansions: sinh, cosh, tanh, asinh, acosh, atanh, built on the
//! exp/log family of [`super::exp_log`] (exp, exp_m1, ln, ln_1p, whose bounds B_exp,
//! B_expm1, B_ln, B_ln1p are derived there) and the accurate tier, written so that the odd
//! functions are relatively accurate for tiny arguments and acosh/atanh near 1.
//!
//! Notation and method as in [`super::exp_log`]: α, μ, δ, ς are the accurate tier's bounds
//! for add, mul, div, sqrt at N; errors are tracked in log space (lg(e) = e/(1 − e) per
//! factor 1 ± e, weighted by the log-sensitivity L of the quantity to it, ex(S) = S(1 + S) at
//! the end); P = p·N; every bound ends with the factor 1 + 2^-40 and carries ε_sub (the
//! absolute errors of sub-range intermediates). Where a function of a computed Ê is formed,
//! e.g. g(Ê) = Ê(Ê + 2)/(Ê + 1), the error of Ê enters with the sensitivity
//! sup|d ln g/d ln E|, and every rounding of the formula as its own factor. The domain is that
//! of [`super::exp_log`] (argument, result and anchor intermediates in the accurate tier's
//! range; f32 with N ≥ 5: no bound proven, infinite `rel`).
//!
//! N = 1 is computed at N = 2 and rounded, as in [`super::exp_log`] ("N = 1").
//!
//! Odd functions are evaluated on |x| and the sign restored (exact). "Tiny" means
//! |x₀| < 2^{−(⌈P/2⌉+3)}: then sinh, tanh, asinh, atanh return x, with relative error at most
//! x²/3·(1 + 2^-20) < 2^{−P−7} (Taylor: sinh x = x + x³/6 + …, tanh x = x − x³/3 + …,
//! asinh x = x − x³/6 + …, atanh x = x + x³/3 + …, alternating or geometric tails).
//! X_big = (P + 6)·ln 2/2: beyond it e^{−2|x|} < 2^{−P−6}.
//!
//! - **sinh**: |x| ≤ X_big: E = exp_m1(|x|), sinh = E(E + 2)/(2(E + 1)); the sensitivity of
//!   g(E) = E(E + 2)/(E + 1) is 1 − E/((E + 1)(E + 2)) ∈ (0.8, 1], and two adds, one mul,
//!   one div: ex(lg B_expm1 + 2lg α + lg μ + lg δ). |x| > X_big: e^{|x|}·2^{−1} (exp with the
//!   halving in its final ldexp, so it overflows only where sinh does); the dropped e^{−|x|}/2
//!   is < 2^{−P−5} relatively: ex(lg B_exp + lg 2^{−P−5}).
//! - **cosh**: |x| ≤ X_big: E = exp(|x|), (E + 1/E)/2: sensitivity (E − 1/E)/(E + 1/E) < 1,
//!   the reciprocal weighted by (1/E)/(E + 1/E) ≤ ½, one add: ex(lg B_exp + lg α + ½lg δ).
//!   Beyond X_big as sinh.
//! - **tanh**: |x| ≤ X_big: E = exp_m1(2|x|), tanh = E/(E + 2) (sensitivity 2/(E + 2) ≤ 1):
//!   ex(lg B_expm1 + lg α + lg δ). Beyond: ±1 (relative error 2e^{−2|x|} < 2^{−P−5}).
//! - **asinh**: |x₀| ≤ 2: ln_1p(v), v = a + a²/(1 + √(1 + a²)) (a = |x|; every piece
//!   non-negative, so each rounding has weight ≤ 1 and the square root halves what is under
//!   it): S_v = lg α + lg μ + lg δ + ½(lg μ + lg α) + lg ς + lg α, and ln_1p's sensitivity
//!   v/((1 + v)ln(1 + v)) ≤ 1: ex(S_v + lg B_ln1p). 2 < |x₀| < 2^{⌈P/2⌉+2}:
//!   ln(a + √(a² + 1)) with S_v = ½(lg μ + lg α) + lg ς + lg α and ln v ≥ ln(2 + √5) > 1.44:
//!   ex(lg(S_v/1.44) + lg B_ln). Larger: ln(2a) (exponent shifted exactly; the dropped
//!   1/(4a²) is < 2^{−P−6} of ln(2a) ≥ 1): ex(lg B_ln + lg 2^{−P−6}).
//! - **acosh**: t = x − 1 (one add, exact sign: NaN for t < 0, +0 for t = 0). x₀ ≤ 2:
//!   ln_1p(t + √(t(t + 2))), whose log-sensitivity to t is ≤ 1: S_v = lg α + ½(lg α + lg μ) +
//!   lg ς + lg α, ex(S_v + lg B_ln1p). 2 < x₀ < 2^{⌈P/2⌉+2}: ln(x + √(x² − 1)), the square's
//!   error amplified by x²/(x² − 1) ≤ 4/3, ln v ≥ ln(2 + √3) > 1.317:
//!   S_v = ½((4/3)lg μ + lg α) + lg ς + lg α, ex(lg(S_v/1.317) + lg B_ln). Larger: ln(2x).
//! - **atanh**: ½·ln_1p(2a/(1 − a)), 1 − a by one accurate add (relative to the exact 1 − a,
//!   so no loss near |x| = 1), one div, ln_1p's sensitivity ≤ 1: ex(lg α + lg δ + lg B_ln1p).
//!   |x| > 1: NaN; ±1: ±∞.

use super::exp_log::{
    below_pow2, ex, exp, exp_rel, exp_shifted, expm1, expm1_rel, from_two, hi, lg, ln1p, ln1p_rel,
    ln_shifted, ln_shifted_rel, prec_bits, special, tier, unproven, via_two,
};
use super::{ErrorBound, Unary};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

type E<T, const N: usize> = Expansion<T, N>;

const FIN: f64 = 1.0 + 1.0 / (1u64 << 40) as f64;

/// −(⌈P/2⌉ + 3): below 2^this the odd functions return x.
fn tiny_exp<T: FloatTerm, const N: usize>() -> i32 {
    -((prec_bits::<T>(N) + 1) / 2 + 3)
}

/// X_big = (P + 6)·ln 2/2.
fn x_big<T: FloatTerm, const N: usize>() -> f64 {
    (prec_bits::<T>(N) + 6) as f64 * core::f64::consts::LN_2 / 2.0
}

/// 2^{⌈P/2⌉+2}: above it √(x² ± 1) = x to working precision.
fn x_huge<T: FloatTerm, const N: usize>() -> f64 {
    super::seeds::pow2((prec_bits::<T>(N) + 1) / 2 + 2)
}

fn with_sign<T: FloatTerm, const N: usize>(neg: bool, y: E<T, N>) -> E<T, N> {
    if neg {
        y.neg()
    } else {
        y
    }
}

fn sinh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    hyp(Unary::Sinh, x)
}

fn cosh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    hyp(Unary::Cosh, x)
}

fn tanh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    hyp(Unary::Tanh, x)
}

/// sinh, cosh or tanh: the plan, the exponential, the finish.
fn hyp<T: FloatTerm, const N: usize>(f: Unary, x: &E<T, N>) -> E<T, N> {
    match hyp_plan(f, x) {
        HypPlan::Done(y) => y,
        HypPlan::Expm1(a) => hyp_finish(f, x, &expm1(&a)),
        HypPlan::Exp(a) => hyp_finish(f, x, &exp(&a)),
    }
}

/// What sinh, cosh and tanh of x need (the batched evaluation computes the exponentials
/// of many arguments at once between [`hyp_plan`] and [`hyp_finish`]).
pub(crate) enum HypPlan<T: FloatTerm, const N: usize> {
    /// The result (special values, tiny and large arguments).
    Done(E<T, N>),
    /// e = expm1(a) of this argument, then [`hyp_finish`].
    Expm1(E<T, N>),
    /// e = exp(a) of this argument, then [`hyp_finish`].
    Exp(E<T, N>),
}

/// The prologue of sinh, cosh, tanh (`f`) of x.
pub(crate) fn hyp_plan<T: FloatTerm, const N: usize>(f: Unary, x: &E<T, N>) -> HypPlan<T, N> {
    if x.is_nan() {
        return HypPlan::Done(special(f64::NAN));
    }
    let x0 = hi(x);
    match f {
        Unary::Sinh => {
            if x0.is_infinite() || below_pow2(x, tiny_exp::<T, N>()) {
                return HypPlan::Done(*x);
            }
            let a = x.abs();
            if x0.abs() > x_big::<T, N>() {
                HypPlan::Done(with_sign(x0 < 0.0, exp_shifted(&a, -1)))
            } else {
                HypPlan::Expm1(a)
            }
        }
        Unary::Cosh => {
            if x0.is_infinite() {
                return HypPlan::Done(special(f64::INFINITY));
            }
            let a = x.abs();
            if x0.abs() > x_big::<T, N>() {
                return HypPlan::Done(exp_shifted(&a, -1));
            }
            HypPlan::Exp(a)
        }
        _ => {
            if below_pow2(x, tiny_exp::<T, N>()) {
                return HypPlan::Done(*x);
            }
            if x0.abs() > x_big::<T, N>() {
                return HypPlan::Done(special(if x0 < 0.0 { -1.0 } else { 1.0 }));
            }
            HypPlan::Expm1(x.abs().ldexp(1))
        }
    }
}

/// The epilogue of sinh, cosh, tanh (`f`) of x from the exponential `e` of [`hyp_plan`]'s
/// argument.
pub(crate) fn hyp_finish<T: FloatTerm, const N: usize>(
    f: Unary,
    x: &E<T, N>,
    e: &E<T, N>,
) -> E<T, N> {
    let neg = hi(x) < 0.0;
    match f {
        Unary::Sinh => with_sign(
            neg,
            e.mul(&e.add_term(T::from_f64(2.0)))
                .div(&e.add_term(T::ONE))
                .ldexp(-1),
        ),
        Unary::Cosh => e.add(&e.recip()).ldexp(-1),
        _ => with_sign(neg, e.div(&e.add_term(T::from_f64(2.0)))),
    }
}

fn asinh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if x.is_nan() {
        return special(f64::NAN);
    }
    let x0 = hi(x);
    if x0.is_infinite() || below_pow2(x, tiny_exp::<T, N>()) {
        return *x;
    }
    let a = x.abs();
    let y = if x0.abs() <= 2.0 {
        let q = a.sqr();
        let w = q.div(&q.add_term(T::ONE).sqrt().add_term(T::ONE));
        ln1p(&a.add(&w))
    } else if x0.abs() < x_huge::<T, N>() {
        ln_shifted(&a.add(&a.sqr().add_term(T::ONE).sqrt()), 0)
    } else {
        ln_shifted(&a, 1)
    };
    with_sign(x0 < 0.0, y)
}

fn acosh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if x.is_nan() {
        return special(f64::NAN);
    }
    let x0 = hi(x);
    if x0 == f64::INFINITY {
        return *x;
    }
    if x0 < 1.0 - 1.0 / 16.0 {
        return special(f64::NAN);
    }
    let t = x.add_term(-T::ONE);
    let t0 = hi(&t);
    if t0 < 0.0 {
        return special(f64::NAN);
    }
    if t0 == 0.0 {
        return E::zero();
    }
    if x0 <= 2.0 {
        let s = t.mul(&t.add_term(T::from_f64(2.0))).sqrt();
        ln1p(&t.add(&s))
    } else if x0 < x_huge::<T, N>() {
        ln_shifted(&x.add(&x.sqr().add_term(-T::ONE).sqrt()), 0)
    } else {
        ln_shifted(x, 1)
    }
}

fn atanh<T: FloatTerm, const N: usize>(x: &E<T, N>) -> E<T, N> {
    if x.is_nan() {
        return special(f64::NAN);
    }
    let x0 = hi(x);
    if below_pow2(x, tiny_exp::<T, N>()) {
        return *x;
    }
    let a = x.abs();
    let om = E::<T, N>::one().sub(&a);
    let om0 = hi(&om);
    if om0 < 0.0 || om.is_nan() {
        return special(f64::NAN);
    }
    if om0 == 0.0 {
        return special(if x0 < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    let y = ln1p(&a.ldexp(1).div(&om)).ldexp(-1);
    with_sign(x0 < 0.0, y)
}

/// The stated error bound of `f` at `n` terms (derivations in the module doc).
pub fn error_bound<T: FloatTerm>(f: Unary, n: usize) -> ErrorBound {
    if n == 1 {
        return from_two::<T>(error_bound::<T>(f, 2));
    }
    if unproven::<T>(n) {
        return ErrorBound {
            rel: f64::INFINITY,
            abs: f64::INFINITY,
        };
    }
    let t = tier::<T>(n);
    let p2 = |e: i32| (e as f64).exp2();
    let tiny = p2(-t.p - 7);
    let b_exp = exp_rel::<T>(&t);
    let b_expm1 = expm1_rel::<T>(&t);
    let b_ln = ln_shifted_rel::<T>(&t);
    let b_ln1p = ln1p_rel::<T>(&t);
    let beyond = ex(lg(b_exp) + lg(p2(-t.p - 5)) + t.sub);
    let large_ln = ex(lg(b_ln) + lg(p2(-t.p - 6)) + t.sub);
    let rel = match f {
        Unary::Sinh => {
            let s = lg(b_expm1) + 2.0 * lg(t.a) + lg(t.m) + lg(t.d) + t.sub;
            ex(s).max(beyond).max(tiny)
        }
        Unary::Cosh => ex(lg(b_exp) + lg(t.a) + 0.5 * lg(t.d) + t.sub).max(beyond),
        Unary::Tanh => ex(lg(b_expm1) + lg(t.a) + lg(t.d) + t.sub)
            .max(p2(-t.p - 5))
            .max(tiny),
        Unary::Asinh => {
            let sv_small =
                lg(t.a) + lg(t.m) + lg(t.d) + 0.5 * (lg(t.m) + lg(t.a)) + lg(t.s) + lg(t.a);
            let small = ex(sv_small + lg(b_ln1p) + t.sub);
            let sv_mid = 0.5 * (lg(t.m) + lg(t.a)) + lg(t.s) + lg(t.a);
            let mid = ex(lg(sv_mid / 1.44) + lg(b_ln) + t.sub);
            small.max(mid).max(large_ln).max(tiny)
        }
        Unary::Acosh => {
            let sv_small = lg(t.a) + 0.5 * (lg(t.a) + lg(t.m)) + lg(t.s) + lg(t.a);
            let small = ex(sv_small + lg(b_ln1p) + t.sub);
            let sv_mid = 0.5 * (4.0 / 3.0 * lg(t.m) + lg(t.a)) + lg(t.s) + lg(t.a);
            let mid = ex(lg(sv_mid / 1.317) + lg(b_ln) + t.sub);
            small.max(mid).max(large_ln)
        }
        Unary::Atanh => ex(lg(t.a) + lg(t.d) + lg(b_ln1p) + t.sub).max(tiny),
        _ => f64::INFINITY,
    };
    ErrorBound {
        rel: rel * FIN,
        abs: 0.0,
    }
}

/// Evaluates a function of this family (see the module doc).
pub(crate) fn eval<T: FloatTerm, const N: usize>(f: Unary, x: &Expansion<T, N>) -> Expansion<T, N> {
    if N == 1 {
        return via_two(x, |x2| eval(f, x2));
    }
    match f {
        Unary::Sinh => sinh(x),
        Unary::Cosh => cosh(x),
        Unary::Tanh => tanh(x),
        Unary::Asinh => asinh(x),
        Unary::Acosh => acosh(x),
        Unary::Atanh => atanh(x),
        _ => special(f64::NAN),
    }
}
