//! Elementary functions on intervals — exp, ln, sin, cos, atan and pow (√ is in
//! [`IntervalArith`]) — for the three kinds, each returning an interval that contains
//! f(x) for every point x of the input (the contract of the crate, MATH.md §2).
//!
//! - [`F64Interval`]: inari's IEEE 1788 functions (MPFR-backed, correctly outward-rounded).
//! - [`MpInterval`]: MPFR's correctly rounded functions with a direction (`exp_round`, …) at
//!   the interval's precision; sin and cos take the extrema inside the interval from
//!   [`trig_extrema`].
//! - [`ExpInterval<N>`]: the core's expansion functions (`expanse_core::functions`) at the
//!   endpoints, widened by their *stated* error bound |ŷ − y| ≤ rel·|y| + abs
//!   ([`expanse_core::functions::error_bound`]) exactly as the arithmetic widens by the
//!   operations' bounds (see `exp.rs`, "How an endpoint is rounded outward"), the absolute part
//!   added to the widening. Where an endpoint or result lies outside the range where the core's
//!   bounds hold (zero, tiny or huge results, infinite endpoints, arguments outside the
//!   functions' stated domains) the whole operation is done in [`MpInterval`] at 53·N + 64 bits
//!   and rounded outward to N terms: slower, never wrong.
//!
//! Domains follow IEEE 1788: ln is evaluated on x ∩ (0, ∞) (ln of an interval reaching 0 is
//! unbounded below; of one inside (−∞, 0] it is empty); pow(x, y) on x ∩ [0, ∞) with 0^y
//! defined for y > 0 only.
//!
//! Monotone functions (exp, ln, atan) map endpoints to endpoints. For pow, x^y is monotone in
//! x for fixed y and in y for fixed x on x > 0, so its extremes over a box are at the four
//! corners. sin and cos are not monotone: their range over [a, b] is the hull of the endpoint
//! values and of ±1 when a maximum (sin: x = π/2 + 2kπ; cos: x = 2kπ) or a minimum lies in
//! [a, b], decided in MPFR with an enclosure of π (undecidable cases count as "inside",
//! which only widens).

use crate::exp::{outward_with, ExpInterval};
use crate::{F64Interval, IntervalArith, MpCtx, MpInterval};
use expanse_core::functions::{error_bound, error_bound_binary, Binary, ErrorBound, Unary};
use expanse_core::Expansion;
use rug::float::{Constant, Round};
use rug::{Float, Integer};

/// Elementary functions with the containment contract of [`IntervalArith`].
pub trait IntervalElementary: IntervalArith {
    /// e^x.
    fn exp(&self) -> Self;
    /// ln x on x ∩ (0, ∞).
    fn ln(&self) -> Self;
    /// sin x.
    fn sin(&self) -> Self;
    /// cos x.
    fn cos(&self) -> Self;
    /// atan x.
    fn atan(&self) -> Self;
    /// x^y on x ∩ [0, ∞) (0^y for y > 0 only), as IEEE 1788's `pow`.
    fn pow(&self, y: &Self) -> Self;
}

// ---------------------------------------------------------------------------------------
// F64Interval: inari.

impl IntervalElementary for F64Interval {
    fn exp(&self) -> Self {
        F64Interval(self.0.exp())
    }
    fn ln(&self) -> Self {
        F64Interval(self.0.ln())
    }
    fn sin(&self) -> Self {
        F64Interval(self.0.sin())
    }
    fn cos(&self) -> Self {
        F64Interval(self.0.cos())
    }
    fn atan(&self) -> Self {
        F64Interval(self.0.atan())
    }
    fn pow(&self, y: &Self) -> Self {
        F64Interval(self.0.pow(y.0))
    }
}

// ---------------------------------------------------------------------------------------
// Extrema of sin and cos.

/// Whether [lo, hi] may contain a point where sin (or cos, when `cos`) reaches its maximum 1
/// and its minimum −1: `(max_inside, min_inside)`. Never answers "no" wrongly: the quarter
/// periods q = x/(π/2) of the endpoints are enclosed in MPFR with π rounded both ways, at
/// enough bits for the integer part of q plus 64, and every integer m that may lie in
/// [q(lo), q(hi)] counts (sin: m ≡ 1 mod 4 is a maximum, m ≡ 3 a minimum; cos: m ≡ 0 and 2).
pub fn trig_extrema(lo: &Float, hi: &Float, cos: bool) -> (bool, bool) {
    if !lo.is_finite() || !hi.is_finite() {
        return (true, true);
    }
    let exp_of = |x: &Float| x.get_exp().unwrap_or(0).max(0) as u32;
    let prec = exp_of(lo).max(exp_of(hi)) + 128;
    let half_pi_down = Float::with_val_round(prec, Constant::Pi, Round::Down).0 / 2u32;
    let half_pi_up = Float::with_val_round(prec, Constant::Pi, Round::Up).0 / 2u32;
    // Lower bound of q(lo) and upper bound of q(hi).
    let q_down = |x: &Float| -> Float {
        let d = if x.is_sign_negative() {
            &half_pi_down
        } else {
            &half_pi_up
        };
        Float::with_val_round(prec, x / d, Round::Down).0
    };
    let q_up = |x: &Float| -> Float {
        let d = if x.is_sign_negative() {
            &half_pi_up
        } else {
            &half_pi_down
        };
        Float::with_val_round(prec, x / d, Round::Up).0
    };
    let first = q_down(lo).ceil().to_integer().unwrap_or_default();
    let last = q_up(hi).floor().to_integer().unwrap_or_default();
    if last < first {
        return (false, false);
    }
    if Integer::from(&last - &first) >= 4 {
        return (true, true);
    }
    let (mut has_max, mut has_min) = (false, false);
    let mut m = first;
    while m <= last {
        let r = m.mod_u(4);
        let (max_res, min_res) = if cos { (0, 2) } else { (1, 3) };
        has_max |= r == max_res;
        has_min |= r == min_res;
        m += 1;
    }
    (has_max, has_min)
}

// ---------------------------------------------------------------------------------------
// MpInterval: MPFR with directed rounding.

fn mp_unary(x: &MpInterval, f: impl Fn(&Float, Round) -> Float) -> MpInterval {
    let p = x.prec();
    let ctx = MpCtx::new(p).expect("an interval's precision is valid");
    let lo = f(x.lo(), Round::Down);
    let hi = f(x.hi(), Round::Up);
    MpInterval::from_rug_bounds(&ctx, &lo, &hi).unwrap_or_else(|_| MpInterval::entire(&ctx))
}

fn mp_ctx(x: &MpInterval) -> MpCtx {
    MpCtx::new(x.prec()).expect("an interval's precision is valid")
}

/// sin or cos of an MPFR interval.
fn mp_trig(x: &MpInterval, cos: bool) -> MpInterval {
    let ctx = mp_ctx(x);
    if x.is_empty() {
        return x.clone();
    }
    let p = x.prec();
    let (has_max, has_min) = trig_extrema(x.lo(), x.hi(), cos);
    if has_max && has_min {
        return MpInterval::from_f64_bounds(&ctx, -1.0, 1.0).expect("[-1, 1]");
    }
    let f = |v: &Float, r: Round| -> Float {
        if cos {
            Float::with_val_round(p, v.cos_ref(), r).0
        } else {
            Float::with_val_round(p, v.sin_ref(), r).0
        }
    };
    let mut lo = f(x.lo(), Round::Down).min(&f(x.hi(), Round::Down));
    let mut hi = f(x.lo(), Round::Up).max(&f(x.hi(), Round::Up));
    if has_max {
        hi = Float::with_val(p, 1);
    }
    if has_min {
        lo = Float::with_val(p, -1);
    }
    lo = lo.max(&Float::with_val(p, -1));
    hi = hi.min(&Float::with_val(p, 1));
    MpInterval::from_rug_bounds(&ctx, &lo, &hi).unwrap_or_else(|_| MpInterval::entire(&ctx))
}

/// x^y at precision p rounded in direction r (MPFR's correctly rounded `pow`), for x ≥ 0
/// (0^y = 0 for y > 0, +∞ for y < 0).
fn mp_pow_corner(p: u32, x: &Float, y: &Float, r: Round) -> Float {
    if x.is_zero() {
        return if y.is_sign_negative() && !y.is_zero() {
            Float::with_val(p, f64::INFINITY)
        } else {
            Float::with_val(p, 0)
        };
    }
    Float::with_val_round(p, rug::ops::Pow::pow(x, y), r).0
}

fn mp_pow(x: &MpInterval, y: &MpInterval) -> MpInterval {
    let p = x.prec().max(y.prec());
    let ctx = MpCtx::new(p).expect("valid precision");
    if x.is_empty() || y.is_empty() || x.hi().is_sign_negative() && !x.hi().is_zero() {
        return MpInterval::empty(&ctx);
    }
    let zero = Float::with_val(p, 0);
    let xlo = if x.lo().is_sign_negative() {
        zero.clone()
    } else {
        x.lo().clone()
    };
    let xhi = x.hi().clone();
    if xhi.is_zero() {
        // x = {0}: 0^y for y > 0 only.
        return if y.hi().is_sign_positive() && !y.hi().is_zero() {
            MpInterval::from_f64(&ctx, 0.0)
        } else {
            MpInterval::empty(&ctx)
        };
    }
    let mut lo = Float::with_val(p, f64::INFINITY);
    let mut hi = Float::with_val(p, f64::NEG_INFINITY);
    for xv in [&xlo, &xhi] {
        for yv in [y.lo(), y.hi()] {
            if !xv.is_finite() || !yv.is_finite() {
                // Unbounded corner: give up precision, not containment.
                return MpInterval::from_f64_bounds(&ctx, 0.0, f64::INFINITY).expect("[0, +inf]");
            }
            if xv.is_zero() && yv.is_zero() {
                // 0^0 is excluded; the limit values near it lie in [0, 1] ∪ the other corners
                // when y > 0 nearby, and are unbounded when y < 0 is also in y.
                lo = lo.min(&zero);
                hi = hi.max(&Float::with_val(p, 1));
                continue;
            }
            lo = lo.min(&mp_pow_corner(p, xv, yv, Round::Down));
            hi = hi.max(&mp_pow_corner(p, xv, yv, Round::Up));
        }
    }
    if xlo.is_zero() && !(y.lo().is_sign_positive() && !y.lo().is_zero()) {
        // Near x = 0 with y ≤ 0 inside y: x^y is unbounded (or undefined at 0^0).
        hi = Float::with_val(p, f64::INFINITY);
        lo = lo.min(&zero);
    }
    MpInterval::from_rug_bounds(&ctx, &lo, &hi).unwrap_or_else(|_| MpInterval::entire(&ctx))
}

impl IntervalElementary for MpInterval {
    fn exp(&self) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        let p = self.prec();
        mp_unary(self, |v, r| Float::with_val_round(p, v.exp_ref(), r).0)
    }

    fn ln(&self) -> Self {
        let p = self.prec();
        let ctx = mp_ctx(self);
        if self.is_empty() || !self.hi().is_sign_positive() || self.hi().is_zero() {
            return MpInterval::empty(&ctx);
        }
        let lo = if self.lo().is_sign_negative() || self.lo().is_zero() {
            Float::with_val(p, f64::NEG_INFINITY)
        } else {
            Float::with_val_round(p, self.lo().ln_ref(), Round::Down).0
        };
        let hi = Float::with_val_round(p, self.hi().ln_ref(), Round::Up).0;
        MpInterval::from_rug_bounds(&ctx, &lo, &hi).unwrap_or_else(|_| MpInterval::entire(&ctx))
    }

    fn sin(&self) -> Self {
        mp_trig(self, false)
    }

    fn cos(&self) -> Self {
        mp_trig(self, true)
    }

    fn atan(&self) -> Self {
        if self.is_empty() {
            return self.clone();
        }
        let p = self.prec();
        mp_unary(self, |v, r| Float::with_val_round(p, v.atan_ref(), r).0)
    }

    fn pow(&self, y: &Self) -> Self {
        mp_pow(self, y)
    }
}

// ---------------------------------------------------------------------------------------
// ExpInterval<N>: the core's functions widened by their stated bounds.

/// The MPFR precision of the fallback for N terms.
fn fallback_ctx(n: usize) -> MpCtx {
    MpCtx::new(53 * n as u32 + 64).expect("valid precision")
}

/// The operation done in MPFR from the exact endpoints, rounded outward to N terms.
#[cold]
fn via_mp<const N: usize>(
    x: &ExpInterval<N>,
    op: impl Fn(&MpInterval) -> MpInterval,
) -> ExpInterval<N> {
    let ctx = fallback_ctx(N);
    let m = MpInterval::from_rug_bounds(&ctx, &x.inf_rug(), &x.sup_rug())
        .unwrap_or_else(|_| MpInterval::empty(&ctx));
    let r = op(&m);
    r.convert::<ExpInterval<N>>(&())
}

/// f̂(v) moved outward by its stated bound, or None when the bound-based path does not apply
/// (result zero, non-finite or outside the trusted range).
fn endpoint<const N: usize>(
    value: Expansion<f64, N>,
    bound: ErrorBound,
    up: bool,
) -> Option<Expansion<f64, N>> {
    outward_with(value, bound.rel, bound.abs, up)
}

/// A monotone increasing function through the bound-based path, or None.
fn monotone<const N: usize>(
    x: &ExpInterval<N>,
    f: impl Fn(&Expansion<f64, N>) -> Expansion<f64, N>,
    bound: ErrorBound,
) -> Option<ExpInterval<N>> {
    if !x.is_bounded() {
        return None;
    }
    let lo = endpoint(f(&x.lo()), bound, false)?;
    let hi = endpoint(f(&x.hi()), bound, true)?;
    ExpInterval::new(lo, hi).ok()
}

/// True when the function's stated bound may be used on this argument: the families state
/// their bounds for arguments in the accurate tier's range (`expanse_core::bounds`:
/// [min_normal_result(N), max_normal_result(N)]), so a zero, tiny, huge or non-finite endpoint
/// goes to MPFR instead (a margin of 2 at the bottom, 2^1000 at the top).
fn arg_ok<const N: usize>(x: &Expansion<f64, N>) -> bool {
    let m = x.hi().abs();
    x.is_finite()
        && m >= 2.0 * expanse_core::bounds::min_normal_result::<f64>(N)
        && m <= 2f64.powi(1000)
}

impl<const N: usize> IntervalElementary for ExpInterval<N> {
    fn exp(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let b = error_bound::<f64>(Unary::Exp, N);
        if arg_ok(&self.lo()) && arg_ok(&self.hi()) {
            if let Some(r) = monotone(self, |v| v.exp(), b) {
                return r;
            }
        }
        via_mp(self, |m| m.exp())
    }

    fn ln(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let b = error_bound::<f64>(Unary::Ln, N);
        let lo = self.lo();
        if lo.hi() > 0.0 && arg_ok(&self.hi()) {
            if let Some(r) = monotone(self, |v| v.ln(), b) {
                return r;
            }
        }
        via_mp(self, |m| m.ln())
    }

    fn sin(&self) -> Self {
        trig_exp(self, false)
    }

    fn cos(&self) -> Self {
        trig_exp(self, true)
    }

    fn atan(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let b = error_bound::<f64>(Unary::Atan, N);
        if arg_ok(&self.lo()) && arg_ok(&self.hi()) {
            if let Some(r) = monotone(self, |v| v.atan(), b) {
                return r;
            }
        }
        via_mp(self, |m| m.atan())
    }

    fn pow(&self, y: &Self) -> Self {
        if self.is_empty() || y.is_empty() {
            return Self::empty(&());
        }
        // The bound-based path for x > 0 (strictly) and finite y; corners as in MPFR.
        let b = error_bound_binary::<f64>(Binary::Pow, N);
        let (xl, xh, yl, yh) = (self.lo(), self.hi(), y.lo(), y.hi());
        if xl.hi() > 0.0 && [xl, xh, yl, yh].iter().all(arg_ok) {
            let mut lo: Option<Expansion<f64, N>> = None;
            let mut hi: Option<Expansion<f64, N>> = None;
            let mut ok = true;
            for xv in [xl, xh] {
                for yv in [yl, yh] {
                    let v = xv.pow(&yv);
                    match (endpoint(v, b, false), endpoint(v, b, true)) {
                        (Some(d), Some(u)) => {
                            lo = Some(match lo {
                                Some(l) if l <= d => l,
                                _ => d,
                            });
                            hi = Some(match hi {
                                Some(h) if h >= u => h,
                                _ => u,
                            });
                        }
                        _ => ok = false,
                    }
                }
            }
            if ok {
                if let (Some(l), Some(h)) = (lo, hi) {
                    if let Ok(r) = ExpInterval::new(l, h) {
                        return r;
                    }
                }
            }
        }
        let ctx = fallback_ctx(N);
        let my = MpInterval::from_rug_bounds(&ctx, &y.inf_rug(), &y.sup_rug())
            .unwrap_or_else(|_| MpInterval::empty(&ctx));
        via_mp(self, |m| m.pow(&my))
    }
}

/// sin or cos of an expansion interval: endpoint values by the core with their bound, the
/// extrema decided by [`trig_extrema`] on the exact endpoints.
fn trig_exp<const N: usize>(x: &ExpInterval<N>, cos: bool) -> ExpInterval<N> {
    if x.is_empty() {
        return *x;
    }
    let f = if cos { Unary::Cos } else { Unary::Sin };
    let b = error_bound::<f64>(f, N);
    if arg_ok(&x.lo()) && arg_ok(&x.hi()) {
        let (has_max, has_min) = trig_extrema(&x.inf_rug(), &x.sup_rug(), cos);
        if has_max && has_min {
            return ExpInterval::new(Expansion::from_term(-1.0), Expansion::from_term(1.0))
                .expect("[-1, 1]");
        }
        let eval = |v: &Expansion<f64, N>| if cos { v.cos() } else { v.sin() };
        let (fl, fh) = (eval(&x.lo()), eval(&x.hi()));
        let ends = (
            endpoint(fl, b, false),
            endpoint(fl, b, true),
            endpoint(fh, b, false),
            endpoint(fh, b, true),
        );
        if let (Some(ld), Some(lu), Some(hd), Some(hu)) = ends {
            let mut lo = if ld <= hd { ld } else { hd };
            let mut hi = if lu >= hu { lu } else { hu };
            let one = Expansion::<f64, N>::from_term(1.0);
            let minus_one = Expansion::<f64, N>::from_term(-1.0);
            if has_max || hi > one {
                hi = one;
            }
            if has_min || lo < minus_one {
                lo = minus_one;
            }
            if let Ok(r) = ExpInterval::new(lo, hi) {
                return r;
            }
        }
    }
    via_mp(x, |m| if cos { m.cos() } else { m.sin() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extrema_of_sin_and_cos_are_found_and_not_invented() {
        let f = |v: f64| Float::with_val(53, v);
        // [1, 2] contains π/2 (sin max), no min; cos has neither.
        assert_eq!(trig_extrema(&f(1.0), &f(2.0), false), (true, false));
        assert_eq!(trig_extrema(&f(1.0), &f(2.0), true), (false, false));
        // [3, 3.5] contains π: cos min.
        assert_eq!(trig_extrema(&f(3.0), &f(3.5), true), (false, true));
        // [-0.1, 0.1] contains 0: cos max.
        assert_eq!(trig_extrema(&f(-0.1), &f(0.1), true), (true, false));
        // Seven units wide: everything.
        assert_eq!(trig_extrema(&f(0.0), &f(7.0), false), (true, true));
        // Near 1e22 (an integer multiple of nothing in particular): decided at 200 bits.
        let big = Float::with_val(200, 1e22);
        let r = trig_extrema(&big, &big, false);
        assert_eq!(r, (false, false));
    }
}
