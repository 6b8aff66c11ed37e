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
//! multiplies the error by about 10^−15 plus the quadratic term). That is [`residual`], the
//! chunked CPU path; the application runs [`residual_on`] instead: the same terms generated
//! and summed by the array layer (`Arrays::indexed_sum`, a fused map + reduce, F' in qd), on
//! the GPU or the host backend, in the array layer's fixed order, so the GPU's s_N equal the
//! CPU's bit for bit (checked where the CPU can follow, `m ≤ 13`). The iteration stops when
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
use expanse_gpu::array::{Arrays, IndexMap};
use expanse_gpu::GpuError;
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

/// F_N(1 − δ) and dF_N/dδ as [`residual`] computes them, through the array layer on `arrays`
/// (the GPU, or the host backend on all cores): the terms j = 0..N/2 are generated and summed
/// where they are (`Arrays::indexed_sum`, a fused map + reduce: the term is
/// `expanse_gpu::array::indexed::qrs_term`, the same accurate-tier operations as
/// [`residual`]'s), in the array layer's fixed order, so the GPU and the CPU give the same
/// bits. F' is summed in quad-double from f64 terms (`qrs_slope`).
pub fn residual_on(
    arrays: &Arrays,
    n: u64,
    delta: &QuadDouble,
) -> Result<(QuadDouble, f64), GpuError> {
    let f = arrays
        .indexed_sum::<f64, 4>(&IndexMap::qrs_term(n, delta))?
        .value;
    let df = arrays
        .indexed_sum::<f64, 4>(&IndexMap::qrs_slope(n, delta.hi()))?
        .value;
    Ok((f.ldexp(1), 2.0 * df.to_f64()))
}

/// An evaluator of F_N(1 − δ) and dF_N/dδ: `eval(N, δ)` ([`residual`], [`residual_on`]).
pub type Evaluator<'a> = dyn FnMut(u64, &QuadDouble) -> Result<(QuadDouble, f64), GpuError> + 'a;

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
    /// The first guess of c_N.
    pub guess: QuadDouble,
    /// Evaluations of F_N (Newton steps).
    pub iterations: usize,
    /// |last step|, the agreement of the last two iterates.
    pub last_step: f64,
    /// True when the iterates agreed to [`TOLERANCE`].
    pub converged: bool,
    /// Seconds.
    pub seconds: f64,
}

/// Newton's method for s_N from the guess c_N ≈ `c_guess` (F evaluated by [`residual`]).
pub fn solve(m: u32, c_guess: &QuadDouble) -> Root {
    match solve_with(m, c_guess, &mut |n, d| Ok(residual(n, d))) {
        Ok(r) => r,
        Err(e) => unreachable!("the CPU residual does not fail: {e}"),
    }
}

/// Newton's method for s_N from the guess c_N ≈ `c_guess`, F and F' from `eval(N, δ)`.
pub fn solve_with(m: u32, c_guess: &QuadDouble, eval: &mut Evaluator) -> Result<Root, GpuError> {
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
        let (f, df) = eval(n, &delta)?;
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
    Ok(Root {
        m,
        n,
        delta,
        s,
        c: delta.mul_term(n as f64),
        guess: *c_guess,
        iterations,
        last_step,
        converged,
        seconds: start.elapsed().as_secs_f64(),
    })
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

/// Solves for m = 1..=m_max with [`residual`] (the chunked CPU path), extrapolates and
/// compares with the zeta zero.
pub fn run(m_max: u32) -> QrsRun {
    match run_with(m_max, &mut |n, d| Ok(residual(n, d))) {
        Ok(r) => r,
        Err(e) => unreachable!("the CPU residual does not fail: {e}"),
    }
}

/// [`run`] with F evaluated through the array layer on `arrays` ([`residual_on`]).
pub fn run_on(arrays: &Arrays, m_max: u32) -> Result<QrsRun, GpuError> {
    run_with(m_max, &mut |n, d| residual_on(arrays, n, d))
}

/// The first guess of c_N for N = 4^m: the polynomial through c of up to the last 6 values of
/// N, evaluated at 1/N (in MPFR, so the guess carries the extrapolation's accuracy, not f64's).
pub fn first_guess(roots: &[Root], m: u32) -> QuadDouble {
    let prec = 512;
    if roots.is_empty() {
        return QuadDouble::from_f64(0.6);
    }
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
}

/// Solves for m = 1..=m_max with F and F' from `eval`, extrapolates and compares with the
/// zeta zero.
pub fn run_with(m_max: u32, eval: &mut Evaluator) -> Result<QrsRun, GpuError> {
    let prec = 512;
    let start = Instant::now();
    let mut roots: Vec<Root> = Vec::new();
    for m in 1..=m_max {
        let guess = first_guess(&roots, m);
        roots.push(solve_with(m, &guess, eval)?);
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
    Ok(QrsRun {
        roots,
        extrapolated,
        known,
        digits,
        seconds_newton,
        seconds_known,
    })
}

/// What a run of the application computes.
#[derive(Clone, Debug)]
pub struct Setup {
    /// N = 4^m for m = 1..=m_max.
    pub m_max: u32,
    /// Digits of agreement with the zeta zero required.
    pub min_digits: f64,
    /// The GPU backend, when the run uses one; otherwise the array layer's host backend.
    pub gpu: Option<Arrays>,
    /// With a GPU, the CPU (host backend) repeats each N up to 4^cpu_max_m from the GPU's
    /// guess: its s_N must equal the GPU's bit for bit.
    pub cpu_max_m: u32,
}

fn bits(q: &QuadDouble) -> [u64; 4] {
    let t = q.terms();
    [
        t[0].to_bits(),
        t[1].to_bits(),
        t[2].to_bits(),
        t[3].to_bits(),
    ]
}

/// Terms evaluated per second of a root's Newton iteration (N/2 terms per step).
fn terms_per_second(r: &Root) -> f64 {
    (r.n / 2) as f64 * r.iterations as f64 / r.seconds.max(1e-9)
}

/// Runs the application (Newton through the array layer on the GPU or the CPU; with a GPU,
/// the CPU comparison up to `cpu_max_m`) and checks ≥ `min_digits` digits of agreement.
pub fn report(setup: &Setup) -> Report {
    let mut rep = Report::new("qrs");
    let m_max = setup.m_max;
    let cpu = Arrays::cpu();
    let primary = setup.gpu.as_ref().unwrap_or(&cpu);
    let on = if setup.gpu.is_some() { "GPU" } else { "CPU" };
    if let Some(g) = &setup.gpu {
        // Compile the kernels before anything is timed.
        if let Err(e) = residual_on(g, 1 << 12, &QuadDouble::from_f64(1e-4)) {
            rep.check(&format!("GPU usable: {e}"), false);
            return rep;
        }
    }
    let run = match run_on(primary, m_max) {
        Ok(r) => r,
        Err(e) => {
            rep.check(&format!("the array layer ran ({e})"), false);
            return rep;
        }
    };
    rep.line(format!(
        "QRS constant: Newton in quad-double on F_N(s) = 0, N = 4^m, m = 1..{m_max}; each step a \
         fused map + reduce of the N/2 terms on the array layer ({})",
        primary.describe()
    ));
    // The CPU repeats the GPU's solves (same guesses) where it can.
    let mut cpu_roots: Vec<Root> = Vec::new();
    if setup.gpu.is_some() {
        for r in run.roots.iter().filter(|r| r.m <= setup.cpu_max_m) {
            match solve_with(r.m, &r.guess, &mut |n, d| residual_on(&cpu, n, d)) {
                Ok(c) => cpu_roots.push(c),
                Err(e) => {
                    rep.check(&format!("the CPU backend ran ({e})"), false);
                    return rep;
                }
            }
        }
    }
    rep.line(format!(
        " m            N  iter  |last step|  seconds ({on})  terms/s ({on})  c_N = N(1 - s_N){}",
        if cpu_roots.is_empty() {
            ""
        } else {
            "   | CPU seconds, terms/s, GPU/CPU, s_N"
        }
    ));
    let mut mismatches = Vec::new();
    for r in &run.roots {
        let mut line = format!(
            "{:2} {:12} {:5}  {:10.2e} {:13.4} {:15.3e}  {}",
            r.m,
            r.n,
            r.iterations,
            r.last_step,
            r.seconds,
            terms_per_second(r),
            r.c
        );
        rep.result(format!("s_N(m={})", r.m), r.s.to_string());
        rep.result(
            format!("rate {on} terms/s (m={})", r.m),
            format!("{:.4e}", terms_per_second(r)),
        );
        if let Some(c) = cpu_roots.iter().find(|c| c.m == r.m) {
            let same = bits(&c.s) == bits(&r.s) && c.iterations == r.iterations;
            if !same {
                mismatches.push(r.m);
            }
            let ratio = terms_per_second(r) / terms_per_second(c);
            line += &format!(
                "   | {:9.4} {:10.3e} {:7.1}x  {}",
                c.seconds,
                terms_per_second(c),
                ratio,
                if same { "identical" } else { "MISMATCH" }
            );
            rep.result(
                format!("rate CPU terms/s (m={})", r.m),
                format!("{:.4e}", terms_per_second(c)),
            );
            rep.result(format!("GPU/CPU (m={})", r.m), format!("{ratio:.3}"));
            rep.result(
                format!("s_N(m={}) GPU==CPU", r.m),
                if same { "identical" } else { "MISMATCH" },
            );
        }
        rep.line(line);
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
    rep.line(format!("Newton total {:.3} s ({on})", run.seconds_newton));
    rep.check(
        &format!(
            "every N converged to 1e-52 ({} of {})",
            run.roots.iter().filter(|r| r.converged).count(),
            run.roots.len()
        ),
        run.roots.iter().all(|r| r.converged),
    );
    if !cpu_roots.is_empty() {
        rep.check(
            &format!(
                "GPU s_N bit-identical to the CPU's for m = 1..{}{}",
                cpu_roots.len(),
                if mismatches.is_empty() {
                    String::new()
                } else {
                    format!(": MISMATCH at m = {mismatches:?}")
                }
            ),
            mismatches.is_empty(),
        );
    }
    rep.check(
        &format!(
            "extrapolated c1 agrees with the zeta zero to {:.1} digits (need >= {})",
            run.digits, setup.min_digits
        ),
        run.digits >= setup.min_digits,
    );
    rep.result("c1_extrapolated", last.to_string_radix(10, None));
    rep.result("c1_known", run.known.to_string_radix(10, Some(100)));
    rep.result("digits_agree", format!("{:.1}", run.digits));
    rep
}
