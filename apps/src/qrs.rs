//! The Quinn–Rand–Strogatz constant (seed 000 §5.2): Newton's method in quad-double on
//!
//! ```text
//! 0 = F_N(s) = Σ_{i=1..N} ( 2√(1 − s²t_i²) − 1/√(1 − s²t_i²) ),   t_i = 1 − 2(i−1)/(N−1),
//! ```
//!
//! for N = 4^m, then extrapolation of c_N = N·(1 − s_N) to c₁ = lim c_N = 0.6054436…
//!
//! **Newton in quad-double.** The unknown is δ = 1 − s, not s: with j = i − 1, M = N − 1 and
//! k = M − 2j (an integer), 1 − s·t_i = (2j + δk)/M and 1 + s·t_i = (2(M − j) − δk)/M, so
//! q_i = 1 − s²t_i² = Q_j/M² with Q_j = (2j + δk)(2(M − j) − δk) formed without the
//! catastrophic cancellation of 1 − s²t² near t = ±1 (where the sum is decided). Each term is
//! 2√Q/M − M/√Q = (2Q − M²)/(M√Q); terms j and M − j are equal, so N/2 terms are evaluated and doubled. The
//! map (terms) runs on all cores over fixed chunks of 2^14 indices; the chunk sums are added
//! in index order (a fixed reduction tree), so s_N does not depend on the number of threads.
//! F' is summed in double-double from f64 terms (it only sets the convergence rate: each step
//! multiplies the error by about 10^−15 plus the quadratic term). The iteration stops when
//! successive iterates of s agree to 10^−52 (Bailey–Borwein–Crandall's criterion); the first
//! guess is extrapolated (in MPFR) from the smaller N, which saves a step at large N.
//!
//! **Extrapolation (the model).** c_N = N·(1 − s_N) = c₁ + a₁/N + a₂/N² + … (a power series
//! in 1/N: the sum is a trapezoidal-type sum of a function with inverse-square-root
//! singularities just outside [−1, 1], whose generalised Euler–Maclaurin (Navot) expansion
//! has, after dividing by the leading √N, only integer powers of 1/N). Richardson
//! extrapolation to 1/N → 0 is Neville's scheme on the points (1/N_m, c_{N_m}) in MPFR; the
//! diagonal of the tableau gives the estimates, the last one uses every N.
//!
//! **Known answer, computed independently.** Near t = 1, q ≈ (4/N)(j + c/2): the bulk of
//! F_N is N/2·∫_{−1}^{1} (2√(1 − s²t²) − 1/√(1 − s²t²)) dt = N·√(1 − s²) ≈ √(2cN), and each
//! end adds −(√N/2)·(ζ(1/2, c/2) + √(2c)) + O(N^{−1/2}) (the sum Σ_j (j + a)^{−1/2} minus
//! its integral is the Hurwitz zeta function ζ(1/2, a) + 2√a). The √(2cN) cancel, so
//! F_N = −√N·ζ(1/2, c/2) + O(N^{−1/2}) and c₁ is the zero of ζ(1/2, c/2) in (0, 2) — the
//! closed form of Bailey, Borwein and Crandall (2009). [`qrs_constant`] computes that zero in
//! MPFR at 512 bits: ζ(1/2, a) by Euler–Maclaurin summation (200 terms, 80 Bernoulli
//! corrections, Bernoulli numbers from the Akiyama–Tanigawa recurrence in exact rationals),
//! Newton in a with ∂ζ(s, a)/∂a = −s·ζ(s + 1, a). No quantity of the Newton/extrapolation
//! path enters it.

use crate::cli::Report;
use expanse_core::{DoubleDouble, QuadDouble};
use rayon::prelude::*;
use rug::{Float, Rational};
use std::time::Instant;

/// Indices per chunk of the fixed reduction tree.
pub const CHUNK: u64 = 1 << 14;

/// Iterates of s must agree to this (relative) for Newton to stop.
pub const TOLERANCE: f64 = 1e-52;

/// Newton steps allowed per N.
pub const MAX_ITERATIONS: usize = 30;

/// F_N(1 − δ) in quad-double and F_N'(δ) = dF/dδ in f64 (summed in double-double).
pub fn residual(n: u64, delta: &QuadDouble) -> (QuadDouble, f64) {
    let m1 = (n - 1) as f64;
    let half = n / 2;
    let chunks = half.div_ceil(CHUNK);
    let s_hi = 1.0 - delta.to_f64();
    let m2 = QuadDouble::from_term(m1).mul_term(m1); // exact: M < 2^30
    let parts: Vec<(QuadDouble, DoubleDouble)> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = half.min(lo + CHUNK);
            let mut acc = QuadDouble::zero();
            let mut dacc = DoubleDouble::zero();
            for j in lo..hi {
                let k = (n - 1 - 2 * j) as f64; // exact: n ≤ 2^52
                let dk = delta.mul_term(k);
                let a = dk.add_term(2.0 * j as f64);
                let b = dk.neg().add_term(2.0 * (n - 1 - j) as f64);
                let q = a.mul(&b);
                // 2√Q/M − M/√Q = (2Q − M²)/(M·√Q): one division per term.
                let r = q.sqrt();
                let term = q.ldexp(1).sub(&m2).div(&r.mul_term(m1));
                acc = acc.add(&term);
                // dF/dδ term: s·t²·(2q + 1)/q^{3/2}, q = Q/M², t = k/M, in f64.
                let qf = q.hi() / (m1 * m1);
                let tf = k / m1;
                dacc = dacc.add_term(s_hi * tf * tf * (2.0 * qf + 1.0) / (qf * qf.sqrt()));
            }
            (acc, dacc)
        })
        .collect();
    let mut f = QuadDouble::zero();
    let mut df = DoubleDouble::zero();
    for (a, d) in &parts {
        f = f.add(a);
        df = df.add(d);
    }
    (f.ldexp(1), 2.0 * df.to_f64())
}

/// The root s_N for one N.
#[derive(Clone, Debug)]
pub struct Root {
    /// m, with N = 4^m.
    pub m: u32,
    /// N.
    pub n: u64,
    /// δ_N = 1 − s_N.
    pub delta: QuadDouble,
    /// s_N.
    pub s: QuadDouble,
    /// c_N = N·(1 − s_N).
    pub c: QuadDouble,
    /// Evaluations of F_N (Newton steps).
    pub iterations: usize,
    /// |last step|, the agreement of the last two iterates.
    pub last_step: f64,
    /// True when the iterates agreed to [`TOLERANCE`].
    pub converged: bool,
    /// Seconds.
    pub seconds: f64,
}

/// Newton's method for s_N from the guess c_N ≈ `c_guess`.
pub fn solve(m: u32, c_guess: &QuadDouble) -> Root {
    let n = 1u64 << (2 * m);
    let start = Instant::now();
    let mut delta = c_guess.ldexp(-2 * m as i32); // δ = c/N, exact
    if delta.hi() <= 0.0 || !delta.is_finite() {
        delta = QuadDouble::from_f64(0.6 / n as f64);
    }
    let mut iterations = 0;
    let mut last_step = f64::INFINITY;
    let mut converged = false;
    while iterations < MAX_ITERATIONS {
        let (f, df) = residual(n, &delta);
        iterations += 1;
        let step = f.div_term(df);
        let mut next = delta.sub(&step);
        if next.hi() <= 0.0 || !next.is_finite() {
            next = delta.ldexp(-1); // keep 0 < δ: the terms need q > 0
        }
        last_step = next.sub(&delta).hi().abs();
        delta = next;
        let s = QuadDouble::one().sub(&delta);
        if last_step <= TOLERANCE * s.hi() {
            converged = true;
            break;
        }
    }
    let s = QuadDouble::one().sub(&delta);
    Root {
        m,
        n,
        delta,
        s,
        c: delta.mul_term(n as f64),
        iterations,
        last_step,
        converged,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Neville's tableau for extrapolation to x = 0 of the values `y` at `x`; returns the
/// diagonal: entry i uses the points 0..=i.
pub fn richardson(x: &[Float], y: &[Float], prec: u32) -> Vec<Float> {
    let n = x.len();
    let mut t: Vec<Vec<Float>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut row = vec![Float::with_val(prec, &y[i])];
        for k in 1..=i {
            let num = Float::with_val(prec, &x[i] * &t[i - 1][k - 1])
                - Float::with_val(prec, &x[i - k] * &row[k - 1]);
            let den = Float::with_val(prec, &x[i] - &x[i - k]);
            row.push(num / den);
        }
        t.push(row);
    }
    t.into_iter()
        .map(|mut row| row.pop().unwrap_or_else(|| Float::new(prec)))
        .collect()
}

/// Bernoulli numbers B_0..B_n (B_1 = +1/2; only the even ones are used), exact.
fn bernoulli(n: usize) -> Vec<Rational> {
    let mut a: Vec<Rational> = Vec::with_capacity(n + 1);
    let mut out = Vec::with_capacity(n + 1);
    for m in 0..=n {
        a.push(Rational::from((1, m as u64 + 1)));
        for j in (1..=m).rev() {
            let d = Rational::from(&a[j - 1] - &a[j]);
            a[j - 1] = d * Rational::from(j as u64);
        }
        out.push(a[0].clone());
    }
    out
}

/// The Hurwitz zeta function ζ(s, a), a > 0, s ≠ 1, by Euler–Maclaurin summation with `terms`
/// direct terms and the Bernoulli numbers `b` (corrections up to B_{len−1}), at `prec` bits.
pub fn hurwitz_zeta(s: &Float, a: &Float, terms: u32, b: &[Rational], prec: u32) -> Float {
    let mut parts: Vec<Float> = (0..terms)
        .map(|k| {
            let base = Float::with_val(prec, a + k);
            Float::with_val(prec, base.pow_ref_neg(s))
        })
        .collect();
    let big = Float::with_val(prec, a + terms); // M + a
    let s_minus_1 = Float::with_val(prec, s - 1u32);
    let one_minus_s = Float::with_val(prec, 1u32 - s);
    // (M + a)^{1−s}/(s − 1) + (M + a)^{−s}/2
    parts.push(Float::with_val(prec, rug::ops::Pow::pow(&big, &one_minus_s)) / &s_minus_1);
    let big_neg_s = big.pow_ref_neg(s);
    parts.push(Float::with_val(prec, &big_neg_s / 2u32));
    // Σ_j B_{2j}/(2j)! · s(s+1)…(s+2j−2) · (M + a)^{−s−2j+1}
    let inv_big2 = Float::with_val(prec, big.square_ref()).recip();
    let mut power = Float::with_val(prec, &big_neg_s / &big); // (M+a)^{−s−1}
    let mut rising = Float::with_val(prec, s); // s(s+1)…(s+2j−2), j = 1
    let mut fact = Float::with_val(prec, 2u32); // (2j)!
    let mut j = 1usize;
    while 2 * j < b.len() {
        let bj = Float::with_val(prec, &b[2 * j]);
        parts.push(Float::with_val(prec, &bj * &rising) * &power / &fact);
        // next j: rising ·= (s + 2j − 1)(s + 2j); power ·= (M+a)^{−2}; fact ·= (2j+1)(2j+2)
        rising *= Float::with_val(prec, s + (2 * j as u32 - 1));
        rising *= Float::with_val(prec, s + (2 * j as u32));
        power *= &inv_big2;
        fact *= (2 * j as u32 + 1) * (2 * j as u32 + 2);
        j += 1;
    }
    Float::with_val(prec, Float::sum(parts.iter()))
}

/// x^{−s} for the Euler–Maclaurin terms.
trait PowNeg {
    fn pow_ref_neg(&self, s: &Float) -> Float;
}

impl PowNeg for Float {
    fn pow_ref_neg(&self, s: &Float) -> Float {
        let e = Float::with_val(self.prec(), -s.clone());
        Float::with_val(self.prec(), rug::ops::Pow::pow(self, &e))
    }
}

/// c₁ as the zero of ζ(1/2, c/2) in (0, 2), at `prec` bits (Newton in a = c/2).
pub fn qrs_constant(prec: u32) -> Float {
    let b = bernoulli(160);
    let half = Float::with_val(prec, 0.5);
    let three_half = Float::with_val(prec, 1.5);
    let mut a = Float::with_val(prec, 0.3027);
    for _ in 0..60 {
        let z = hurwitz_zeta(&half, &a, 200, &b, prec);
        let dz = -hurwitz_zeta(&three_half, &a, 200, &b, prec) / 2u32;
        let step = z / dz;
        a -= &step;
        if step.is_zero() || step.get_exp().unwrap_or(0) < -(prec as i32) + 8 {
            break;
        }
    }
    a * 2u32
}

/// −log₁₀|x − y|/|y| (digits of agreement), capped at `cap`.
pub fn agreement_digits(x: &Float, y: &Float, cap: f64) -> f64 {
    let prec = x.prec().max(y.prec());
    let d = Float::with_val(prec, x - y);
    if d.is_zero() {
        return cap;
    }
    let rel = Float::with_val(prec, d / y).abs();
    let (m, e) = rel.to_f64_exp();
    (-(m.log10() + f64::from(e) * std::f64::consts::LOG10_2)).min(cap)
}

/// Everything of one run.
#[derive(Debug)]
pub struct QrsRun {
    /// One root per m.
    pub roots: Vec<Root>,
    /// Richardson diagonal: entry i extrapolates from m = 1..=i+1.
    pub extrapolated: Vec<Float>,
    /// The independent value of c₁ (zero of ζ(1/2, c/2)).
    pub known: Float,
    /// Digits of agreement of the last extrapolation with `known`.
    pub digits: f64,
    /// Seconds for the Newton part, and for the known answer.
    pub seconds_newton: f64,
    /// Seconds for the zeta zero.
    pub seconds_known: f64,
}

/// Solves for m = 1..=m_max, extrapolates and compares with the zeta zero.
pub fn run(m_max: u32) -> QrsRun {
    let prec = 512;
    let start = Instant::now();
    let mut roots: Vec<Root> = Vec::new();
    for m in 1..=m_max {
        // First guess: the polynomial through c of up to the last 6 values of N, evaluated
        // at 1/N (in MPFR, so the guess carries the extrapolation's accuracy, not f64's).
        let guess = if roots.is_empty() {
            QuadDouble::from_f64(0.6)
        } else {
            let take = roots.len().min(6);
            let pts = &roots[roots.len() - take..];
            let x_new = Float::with_val(prec, 1u64 << (2 * m)).recip();
            let shifted: Vec<Float> = pts
                .iter()
                .map(|r| Float::with_val(prec, r.n).recip() - &x_new)
                .collect();
            let ys: Vec<Float> = pts.iter().map(|r| r.c.to_rug()).collect();
            richardson(&shifted, &ys, prec)
                .last()
                .map(QuadDouble::from_rug)
                .unwrap_or_else(|| QuadDouble::from_f64(0.6))
        };
        roots.push(solve(m, &guess));
    }
    let seconds_newton = start.elapsed().as_secs_f64();
    let xs: Vec<Float> = roots
        .iter()
        .map(|r| Float::with_val(prec, r.n).recip())
        .collect();
    let ys: Vec<Float> = roots.iter().map(|r| r.c.to_rug()).collect();
    let extrapolated = richardson(&xs, &ys, prec);
    let t0 = Instant::now();
    let known = qrs_constant(prec);
    let seconds_known = t0.elapsed().as_secs_f64();
    let digits = extrapolated
        .last()
        .map(|v| agreement_digits(v, &known, 150.0))
        .unwrap_or(0.0);
    QrsRun {
        roots,
        extrapolated,
        known,
        digits,
        seconds_newton,
        seconds_known,
    }
}

/// Runs the application for m = 1..=m_max and checks ≥ `min_digits` digits of agreement.
pub fn report(m_max: u32, min_digits: f64) -> Report {
    let mut rep = Report::new("qrs");
    let run = run(m_max);
    rep.line(format!(
        "QRS constant: Newton in quad-double on F_N(s) = 0, N = 4^m, m = 1..{m_max}, {} threads",
        rayon::current_num_threads()
    ));
    rep.line(
        " m            N  iter  |last step|   seconds  terms/s    c_N = N(1 - s_N)".to_string(),
    );
    for r in &run.roots {
        let evaluated = (r.n / 2) as f64 * r.iterations as f64;
        rep.line(format!(
            "{:2} {:12} {:5}  {:10.2e} {:9.3} {:9.3e}  {}",
            r.m,
            r.n,
            r.iterations,
            r.last_step,
            r.seconds,
            evaluated / r.seconds.max(1e-9),
            r.c
        ));
        rep.result(format!("s_N(m={})", r.m), r.s.to_string());
    }
    rep.line("Richardson extrapolation in 1/N (model c_N = c1 + a1/N + a2/N^2 + ...):".to_string());
    for (i, v) in run.extrapolated.iter().enumerate() {
        rep.line(format!(
            "  m = 1..{:2}: {}  ({:.1} digits agree with the zeta zero)",
            i + 1,
            v.to_string_radix(10, Some(60)),
            agreement_digits(v, &run.known, 150.0)
        ));
    }
    let last = run
        .extrapolated
        .last()
        .cloned()
        .unwrap_or_else(|| Float::new(64));
    rep.line(format!(
        "c1 extrapolated   = {}",
        last.to_string_radix(10, Some(60))
    ));
    rep.line(format!(
        "c1 known (zero of zeta(1/2, c/2), MPFR 512 bits, {:.2} s) = {}",
        run.seconds_known,
        run.known.to_string_radix(10, Some(60))
    ));
    rep.line(format!("Newton total {:.3} s", run.seconds_newton));
    rep.check(
        &format!(
            "every N converged to 1e-52 ({} of {})",
            run.roots.iter().filter(|r| r.converged).count(),
            run.roots.len()
        ),
        run.roots.iter().all(|r| r.converged),
    );
    rep.check(
        &format!(
            "extrapolated c1 agrees with the zeta zero to {:.1} digits (need >= {min_digits})",
            run.digits
        ),
        run.digits >= min_digits,
    );
    rep.result("c1_extrapolated", last.to_string_radix(10, None));
    rep.result("c1_known", run.known.to_string_radix(10, Some(100)));
    rep.result("digits_agree", format!("{:.1}", run.digits));
    rep
}
