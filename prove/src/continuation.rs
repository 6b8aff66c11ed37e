//! Continuation of a sink's window in the (a, b) plane: follow the strip's centre line to the
//! point nearest a target (by default the classical parameters (1.4, 0.3)), then prove a sink
//! there, at point parameters and on a small parameter box.
//!
//! ## The strip and its centre line
//! A sink of period p with monodromy M = Dh^p (det M = (−b)^p) exists and attracts where
//! |tr M| < 1 + det M: a strip of the (a, b) plane bounded by the saddle-node curve
//! tr M = 1 + det M and the period-doubling curve tr M = −(1 + det M) ([`crate::window`]).
//! Its **centre line** here is the curve
//!
//! ```text
//! C = { (a, b) : τ(a, b) = 0 },   τ(a, b) = tr M along the continued orbit x(a, b),
//! ```
//!
//! the mid-window value of the trace (the two Jury bounds are ±(1 + det M), so tr M = 0 is
//! equidistant from both in trace; with det M ≈ 10⁻¹⁵ near the classical parameters the
//! eigenvalues there are ±√(−det M): the orbit is as close to superstable as a planar sink
//! gets). C is where the certificate's stability margin, 1 + det M − |tr M|, is largest, so a
//! parameter box centred on it can be widest. It is not the geometric mid-line of the strip
//! (tr M behaves like a square root of the distance near the saddle-node), so the strip's
//! ends along the normal are located and reported separately.
//!
//! ## Evaluation: the orbit, τ and ∇τ ([`Centre`])
//! At parameters (a, b) the orbit is refined by Newton's method on the cyclic system
//! G_i(x) = x_{i+1} − 1 + a·x_i² − b·x_{i−1} = 0 in MPFR ([`crate::orbit::refine`]) from a
//! guess (continuation: the previous orbit, moved by the predictor). With J_i = Dh(z_i) =
//! [[c_i, 1], [b, 0]], c_i = −2a·x_i, M = J_{p−1}···J_0, P_i = J_{i−1}···J_0 and
//! S_i = J_{p−1}···J_{i+1} (so M = S_i·J_i·P_i), the derivative of the trace with respect to
//! an entry of J_i is an entry of P_i·S_i (tr(S·E·P) = tr(E·P·S)):
//!
//! ```text
//! ∂τ/∂c_i = (P_i S_i)₀₀ =: w_i,   ∂τ/∂(J_i)₁₀ = (P_i S_i)₀₁ =: v_i.
//! ```
//!
//! The orbit's derivatives follow from G(x(a, b), a, b) = 0 (implicit function theorem):
//! A·ẋ_a = −(x_i²)_i and A·ẋ_b = (x_{i−1})_i with A = ∂G/∂x the cyclic tridiagonal Jacobian,
//! solved by the O(p) banded elimination [`crate::orbit::solve_banded`]. Then
//!
//! ```text
//! ∂τ/∂a = Σ_i w_i·(−2x_i − 2a·ẋ_a,i),   ∂τ/∂b = Σ_i (v_i − 2a·w_i·ẋ_b,i).
//! ```
//!
//! Cost O(p) multiplications at the working precision plus two banded solves; memory O(p)
//! numbers (the prefix products P_i are kept). The working precision is
//! max(`bits`, l₁ + 192) with l₁ ≈ λp/ln 2 the measured growth of the products along the orbit
//! ([`crate::orbit::growth`]): |P_i S_i| ≈ 2^l₁ while τ = O(1), so l₁ bits cancel in τ and its
//! gradient. Near (1.4, 0.3) |∇τ| ≈ 2·10¹³ (the strips are ≈ 10⁻¹³ wide) and the orbit moves
//! by ‖ẋ‖ ≈ 2·10⁶ per unit of parameter across the strip (≈ 1 along it), which is why f64
//! cannot follow it.
//!
//! ## Following C to the nearest point: predictor–corrector (Allgower and Georg, *Numerical
//! Continuation Methods*, Springer 1990, ch. 2)
//! - **Corrector**: Newton's method on τ = 0 along the gradient (the minimum-norm Newton step
//!   of one equation in two unknowns, dq = −τ·∇τ / |∇τ|²), halving a step whose orbit cannot be
//!   continued (past the saddle-node the orbit does not exist), until |τ| ≤ `tau_tol`.
//! - **Predictor**: with T the unit tangent of C (∇τ turned by 90°) and s = (q* − q)·T the
//!   signed length to the foot of the perpendicular from the target q* on the tangent line, a
//!   step q + h·T with h = s clipped to the current step length, and the orbit predicted to
//!   first order, x + h·(T_a·ẋ_a + T_b·ẋ_b). A failed corrector halves the step length; a
//!   success doubles it. The deviation of the tangent step from C is about h²·κ/2 (κ the
//!   curvature of C), far inside the strip for the steps taken near (1.4, 0.3).
//! - **Stop** when the foot condition |s| ≤ `along_rel_tol`·|q − q*| holds on C: then q − q*
//!   is normal to C, and q is the nearest point of C to q* among those reachable by
//!   continuation (a local minimum of the distance on the branch followed; the strips near the
//!   classical parameters are nearly straight, radius of curvature ≈ 4 against distances
//!   ≈ 10⁻⁸, so the minimum is unique on them).
//!
//! Accuracy stated in the output: across the strip, |τ| ≤ `tau_tol` means a distance from C of
//! about |τ|/|∇τ|; along it, |s|. Both are estimates of a floating-point computation (MPFR,
//! not interval arithmetic); the theorem is the proof at the rounded point.
//!
//! ## Proofs at the nearest point, and the strip's edge
//! The point q is rounded to a decimal with enough places (10⁻ᵏ ≤ 10⁻¹²·(strip width), at
//! least 20 places) and proved by [`crate::engine::prove`] (existence, minimal period,
//! stability, MPFR cross-check) at point parameters. The strip's ends along the normal n
//! through it are located by [`crate::window::window`] (estimates, relative accuracy 10⁻⁹ in
//! t). The strip's nearest point to the target is not on C but on its boundary on the target's
//! side (where the sink is born or period-doubles, itself not a sink): the output reports that
//! boundary point (estimate) and proves a sink at the **edge point** q + f·t_end·n, a fraction
//! f (default 0.999) of the way to it, which is the closest certified sink of the strip.
//!
//! A square parameter box [a ± r] × [b ± r] around q is proved too. r is a one-digit decimal
//! below both a quarter of the distance to the nearer end over (|n_a| + |n_b|) (so the box
//! lies inside the strip) and 2^(−2.25(l₁ + l₂) − 4): the proof encloses the orbit over the
//! whole box with one centre, the orbit boxes grow like Γ·r with Γ = 2^(l₁ + l₂) the
//! amplification of the interval cyclic solve ([`crate::krawczyk`]), and Krawczyk needs them
//! below 1/(2a·Γ), so r ≲ 2^(−2(l₁ + l₂)) (the exponent's extra quarter is measured).
//! After a success r is multiplied by 10 (at most 3 times, while the box stays inside the
//! strip), after a failure divided by 10 (at most 5 times); the widest success is reported.
//! Near (1.4, 0.3) (period 28, l₁ + l₂ ≈ 40) that is r ≈ 10⁻²⁹, for a strip 10⁻¹³ wide: the box
//! certificate says the sink persists on a neighbourhood, the strip itself is the estimate.
//!
//! JSON ([`continuation_json`], schema `expanse-continuation/1`; every number a decimal
//! string): `period`, `target`, `start` {a, b, distance, trace}, `path` [{a, b, trace}] (the
//! centre-line points accepted), `centre` {a, b (exact decimals proved), distance, trace,
//! gradient, normal, linear_width, accuracy}, `strip` (the window ends along the normal),
//! `edge` {a, b, distance, fraction, boundary}, `proofs` {centre, box, edge: {status,
//! distance {min, max} over the proved box (exact, rounded outward), certificate}},
//! `closest_proved`, `evaluations`, `timings_ms`.
//!
//! The library never prints; progress goes to a caller-supplied callback.

use crate::engine::{prove, Candidate, Options, Proof, Status};
use crate::error::{Error, ErrorKind};
use crate::orbit::{growth, refine, solve_banded};
use crate::window::{decimal, exact_decimal, window, EndEstimate, EndKind, Start, WindowOptions};
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};
use serde_json::{json, Value};
use std::time::Instant;

/// The schema of the JSON written by [`continuation_json`].
pub const SCHEMA: &str = "expanse-continuation/1";

/// Knobs of [`follow`].
#[derive(Clone, Debug)]
pub struct ContinueOptions {
    /// Least MPFR bits of the continuation (raised to l₁ + 192 for long orbits).
    pub bits: u32,
    /// The corrector stops when |tr M| ≤ this.
    pub tau_tol: f64,
    /// The foot condition: |(q* − q)·T| ≤ this × |q* − q|.
    pub along_rel_tol: f64,
    /// Most predictor–corrector steps.
    pub max_steps: usize,
    /// Options of the proofs.
    pub prove: Options,
    /// Prove a parameter box around the nearest point as well.
    pub prove_box: bool,
    /// Skip the proofs (continuation only).
    pub no_proofs: bool,
    /// The edge point proved lies at this fraction of the way from the centre line to the
    /// strip's end on the target's side (in (0, 1)).
    pub edge_fraction: Rational,
}

impl Default for ContinueOptions {
    fn default() -> Self {
        ContinueOptions {
            bits: 256,
            tau_tol: 1e-20,
            along_rel_tol: 1e-12,
            max_steps: 2000,
            prove: Options::default(),
            prove_box: true,
            no_proofs: false,
            edge_fraction: Rational::from((999, 1000)),
        }
    }
}

fn bad(kind: ErrorKind, m: impl Into<String>) -> Error {
    Error::new(kind, m)
}

/// The orbit at one parameter point, with the trace of its monodromy and the trace's gradient.
#[derive(Clone, Debug)]
pub struct Centre {
    /// a.
    pub a: Float,
    /// b.
    pub b: Float,
    /// The orbit's x-coordinates (a zero of the cyclic system at (a, b)).
    pub x: Vec<Float>,
    /// τ = tr M.
    pub tau: Float,
    /// det M = (−b)^p.
    pub det: Float,
    /// ∂τ/∂a, ∂τ/∂b along the orbit continued in (a, b).
    pub grad: (Float, Float),
    /// ∂x/∂a and ∂x/∂b.
    pub dx: (Vec<Float>, Vec<Float>),
}

impl Centre {
    /// |∇τ|.
    pub fn grad_norm(&self) -> Float {
        let bits = self.a.prec();
        Float::with_val(
            bits,
            Float::with_val(bits, self.grad.0.square_ref())
                + Float::with_val(bits, self.grad.1.square_ref()),
        )
        .sqrt()
    }

    /// The unit tangent of the level curve of τ through this point, (−τ_b, τ_a)/|∇τ|.
    pub fn tangent(&self) -> (Float, Float) {
        let n = self.grad_norm();
        let bits = self.a.prec();
        (
            -Float::with_val(bits, &self.grad.1 / &n),
            Float::with_val(bits, &self.grad.0 / &n),
        )
    }

    /// The width of the strip across, estimated linearly: 2·(1 + det M)/|∇τ|.
    pub fn linear_width(&self) -> Float {
        let bits = self.a.prec();
        Float::with_val(bits, 2 * Float::with_val(bits, 1 + &self.det)) / self.grad_norm()
    }
}

/// Refines the orbit at (a, b) from `guess` (accepted only when Newton converges and no
/// coordinate moves by more than `limit`) and evaluates τ and ∇τ there.
pub fn evaluate(a: &Float, b: &Float, guess: &[Float], bits: u32, limit: f64) -> Option<Centre> {
    let p = guess.len();
    let (a, b) = (Float::with_val(bits, a), Float::with_val(bits, b));
    let r = refine(guess, &a, &b, bits)?;
    if !r.converged {
        return None;
    }
    if r.x
        .iter()
        .zip(guess)
        .any(|(u, v)| !u.is_finite() || Float::with_val(53, u - v).abs().to_f64() > limit)
    {
        return None;
    }
    let x = r.x;
    let c: Vec<Float> = x
        .iter()
        .map(|xi| Float::with_val(bits, -2 * Float::with_val(bits, &a * xi)))
        .collect();
    // Prefix products P_0 = I, P_{i+1} = J_i·P_i with J_i = [[c_i, 1], [b, 0]].
    type M2 = [Float; 4];
    let eye = || -> M2 {
        [
            Float::with_val(bits, 1),
            Float::with_val(bits, 0),
            Float::with_val(bits, 0),
            Float::with_val(bits, 1),
        ]
    };
    let mul = |l: &M2, r: &M2| -> M2 {
        let e = |i: usize, j: usize| {
            Float::with_val(
                bits,
                Float::with_val(bits, &l[2 * i] * &r[j])
                    + Float::with_val(bits, &l[2 * i + 1] * &r[2 + j]),
            )
        };
        [e(0, 0), e(0, 1), e(1, 0), e(1, 1)]
    };
    let jac = |i: usize| -> M2 {
        [
            c[i].clone(),
            Float::with_val(bits, 1),
            b.clone(),
            Float::with_val(bits, 0),
        ]
    };
    let mut prefix: Vec<M2> = Vec::with_capacity(p + 1);
    prefix.push(eye());
    for i in 0..p {
        let next = mul(&jac(i), &prefix[i]);
        prefix.push(next);
    }
    let m = &prefix[p];
    let tau = Float::with_val(bits, &m[0] + &m[3]);
    let det = Float::with_val(bits, -&b).pow(p as u32);
    // w_i = (P_i S_i)₀₀, v_i = (P_i S_i)₀₁ with S_{p−1} = I, S_{i−1} = S_i·J_i.
    let mut w = vec![Float::new(bits); p];
    let mut v = vec![Float::new(bits); p];
    let mut s = eye();
    for i in (0..p).rev() {
        let q = mul(&prefix[i], &s);
        w[i] = q[0].clone();
        v[i] = q[1].clone();
        s = mul(&s, &jac(i));
    }
    drop(prefix);
    // ẋ_a = −A⁻¹(x_i²), ẋ_b = A⁻¹(x_{i−1}).
    let alpha: Vec<Float> = x
        .iter()
        .map(|xi| Float::with_val(bits, Float::with_val(bits, &a * xi) * 2u32))
        .collect();
    let rhs_a: Vec<Float> = x
        .iter()
        .map(|xi| -Float::with_val(bits, xi.square_ref()))
        .collect();
    let rhs_b: Vec<Float> = (0..p).map(|i| x[(i + p - 1) % p].clone()).collect();
    let xa = solve_banded(&alpha, &b, &rhs_a, bits)?;
    let xb = solve_banded(&alpha, &b, &rhs_b, bits)?;
    let two_a = Float::with_val(bits, &a * 2u32);
    let mut ga = Float::with_val(bits, 0);
    let mut gb = Float::with_val(bits, 0);
    for i in 0..p {
        // w_i·(−2x_i − 2a·ẋ_a,i)
        let t = Float::with_val(bits, &x[i] * 2u32) + Float::with_val(bits, &two_a * &xa[i]);
        ga -= Float::with_val(bits, &w[i] * &t);
        // v_i − 2a·w_i·ẋ_b,i
        gb += &v[i];
        gb -= Float::with_val(bits, &two_a * Float::with_val(bits, &w[i] * &xb[i]));
    }
    if !(tau.is_finite() && ga.is_finite() && gb.is_finite()) || (ga.is_zero() && gb.is_zero()) {
        return None;
    }
    Some(Centre {
        a,
        b,
        x,
        tau,
        det,
        grad: (ga, gb),
        dx: (xa, xb),
    })
}

/// Why [`follow`] stopped without a result.
#[derive(Clone, Debug)]
pub enum FollowError {
    /// Unusable input or options: no attracting periodic orbit near the start, bad tolerances.
    Input(Error),
    /// The continuation ran but did not reach the nearest point (it stalled, hit the step
    /// limit, or lost the orbit).
    Stalled(String),
}

impl From<Error> for FollowError {
    fn from(e: Error) -> Self {
        FollowError::Input(e)
    }
}

impl std::fmt::Display for FollowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FollowError::Input(e) => f.write_str(&e.message),
            FollowError::Stalled(m) => f.write_str(m),
        }
    }
}

/// One accepted point of the path (on the centre line, or the start).
#[derive(Clone, Debug)]
pub struct PathPoint {
    /// a.
    pub a: Float,
    /// b.
    pub b: Float,
    /// tr M there.
    pub tau: Float,
}

/// A parameter point given as exact decimals, the orbit there, and its proof.
#[derive(Clone, Debug)]
pub struct ProvedPoint {
    /// a: exact decimal text and value.
    pub a: (String, Rational),
    /// b: exact decimal text and value.
    pub b: (String, Rational),
    /// The orbit, τ and ∇τ at the point (a fresh evaluation).
    pub centre: Centre,
    /// The proof at point parameters, when run.
    pub proof: Option<Proof>,
}

/// The nearest point of the strip: on its boundary on the target's side, estimated, and a
/// point just inside it, proved.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The end of the strip on the target's side, along the normal through the centre-line
    /// point (a [`crate::window`] estimate).
    pub end: EndEstimate,
    /// The boundary point (estimate): centre-line point + t_end·normal.
    pub boundary: (Float, Float),
    /// The fraction f of t_end at which the proved point lies (centre + f·t_end·normal).
    pub fraction: Rational,
    /// The proved point.
    pub point: ProvedPoint,
}

/// What [`follow`] found.
#[derive(Clone, Debug)]
pub struct Continuation {
    /// The starting point.
    pub start: Start,
    /// The target (a*, b*), exact.
    pub target: (Rational, Rational),
    /// The target's text.
    pub target_text: (String, String),
    /// Working bits.
    pub bits: u32,
    /// τ at the start (before the corrector).
    pub start_tau: Float,
    /// The centre-line points accepted, from the first corrected point to the nearest one.
    pub path: Vec<PathPoint>,
    /// The nearest point of the centre line (unrounded).
    pub nearest: Centre,
    /// The final foot residual |(q* − q)·T| (along the strip).
    pub along_error: Float,
    /// |τ|/|∇τ| at the nearest point (an estimate of the distance from the centre line).
    pub across_error: Float,
    /// The nearest point of the centre line rounded to decimals, and its proof.
    pub centre: ProvedPoint,
    /// The unit normal ∇τ/|∇τ| rounded to 20 decimals (text, exact).
    pub normal: ((String, Rational), (String, Rational)),
    /// The strip's ends along the normal through the rounded centre-line point
    /// ([`crate::window`] estimates: t < 0 and t > 0 in units of the rounded normal).
    pub ends: Option<[EndEstimate; 2]>,
    /// The strip's nearest point to the target (its edge) and a proved point just inside.
    pub edge: Option<Edge>,
    /// The parameter-box proofs tried around the centre-line point (radius, proof); the widest
    /// that succeeded is the one reported ([`Continuation::box_proof`]).
    pub box_proofs: Vec<(Rational, Proof)>,
    /// Orbit evaluations.
    pub evaluations: usize,
    /// Predictor–corrector steps accepted and rejected.
    pub steps: (usize, usize),
    /// Milliseconds: continuation, strip ends, proofs.
    pub ms: [f64; 3],
}

impl Continuation {
    /// The widest box proof that succeeded, if any.
    pub fn box_proof(&self) -> Option<&(Rational, Proof)> {
        self.box_proofs
            .iter()
            .filter(|(_, p)| p.status == Status::Sink)
            .max_by(|x, y| x.0.cmp(&y.0))
    }

    /// The closest proved sink to the target among the centre-line point, its box and the edge
    /// point: (which, exact squared least distance over its parameter box, proof).
    pub fn closest(&self) -> Option<(&'static str, Rational, &Proof)> {
        let mut all: Vec<(&'static str, &Proof)> = Vec::new();
        if let Some(pr) = &self.centre.proof {
            all.push(("centre", pr));
        }
        if let Some((_, pr)) = self.box_proof() {
            all.push(("box", pr));
        }
        if let Some(pr) = self.edge.as_ref().and_then(|e| e.point.proof.as_ref()) {
            all.push(("edge", pr));
        }
        all.into_iter()
            .filter(|(_, pr)| pr.status == Status::Sink)
            .map(|(w, pr)| (w, proof_distance2(pr, &self.target).0, pr))
            .min_by(|x, y| x.1.cmp(&y.1))
    }
}

/// The least and largest squared distance from the target over the parameter box a proof
/// holds for ([lo, hi] of each parameter, exact).
pub fn proof_distance2(pr: &Proof, t: &(Rational, Rational)) -> (Rational, Rational) {
    let q = |f: &Float| f.to_rational().unwrap_or_default();
    let (a, b) = (&pr.params.a, &pr.params.b);
    box_distance2((&q(&a.lo), &q(&a.hi)), (&q(&b.lo), &q(&b.hi)), t)
}

/// Exact squared distance of (a, b) from the target.
pub fn distance2(a: &Rational, b: &Rational, t: &(Rational, Rational)) -> Rational {
    let da = Rational::from(a - &t.0);
    let db = Rational::from(b - &t.1);
    Rational::from(da.square_ref()) + Rational::from(db.square_ref())
}

/// The least and largest distance from the target over the box [a_lo, a_hi] × [b_lo, b_hi],
/// squared, exactly.
pub fn box_distance2(
    a: (&Rational, &Rational),
    b: (&Rational, &Rational),
    t: &(Rational, Rational),
) -> (Rational, Rational) {
    let near = |lo: &Rational, hi: &Rational, c: &Rational| -> Rational {
        if c < lo {
            lo.clone()
        } else if c > hi {
            hi.clone()
        } else {
            c.clone()
        }
    };
    let far = |lo: &Rational, hi: &Rational, c: &Rational| -> Rational {
        let dl = Rational::from(c - lo).abs();
        let dh = Rational::from(hi - c).abs();
        if dl >= dh {
            lo.clone()
        } else {
            hi.clone()
        }
    };
    (
        distance2(&near(a.0, a.1, &t.0), &near(b.0, b.1, &t.1), t),
        distance2(&far(a.0, a.1, &t.0), &far(b.0, b.1, &t.1), t),
    )
}

/// √q rounded in direction `r` to `digits` significant decimal digits (via 4·digits + 64
/// bits, so the decimal rounding is the only one that matters in that direction).
pub fn sqrt_decimal(q: &Rational, digits: usize, r: Round) -> String {
    let bits = 4 * digits as u32 + 64;
    let (v, _) = Float::with_val_round(bits, q, r);
    let (s, _) = Float::with_val_round(bits, v.sqrt_ref(), r);
    decimal(&s, digits, r)
}

/// x rounded to the nearest multiple of 10^−places, as (exact decimal text, value).
fn round_places(x: &Float, places: u32) -> (String, Rational) {
    let scale = Integer::from(Integer::u_pow_u(10, places));
    let q = x.to_rational().unwrap_or_default() * Rational::from(&scale);
    let n = q.round().numer().clone();
    let v = Rational::from((n, scale));
    (exact_decimal(&v).unwrap_or_else(|| v.to_string()), v)
}

struct Tracker {
    bits: u32,
    evals: usize,
}

impl Tracker {
    fn eval(&mut self, a: &Float, b: &Float, guess: &[Float], limit: f64) -> Option<Centre> {
        self.evals += 1;
        evaluate(a, b, guess, self.bits, limit)
    }

    /// The orbit at (a, b), continued from `from` along the straight segment in up to 256
    /// sub-steps (first-order predictor, step halved when Newton fails).
    fn walk(&mut self, from: &Centre, a: &Rational, b: &Rational) -> Option<Centre> {
        let bits = self.bits;
        let ta = Float::with_val(bits, a);
        let tb = Float::with_val(bits, b);
        let mut cur = from.clone();
        let mut frac = Float::with_val(bits, 1);
        let min = Float::with_val(bits, 1) >> 8u32;
        for _ in 0..4096 {
            let da = Float::with_val(bits, &ta - &cur.a);
            let db = Float::with_val(bits, &tb - &cur.b);
            if da.is_zero() && db.is_zero() {
                return Some(cur);
            }
            let da = Float::with_val(bits, &da * &frac);
            let db = Float::with_val(bits, &db * &frac);
            let last = frac == 1;
            let (na, nb) = if last {
                (ta.clone(), tb.clone())
            } else {
                (
                    Float::with_val(bits, &cur.a + &da),
                    Float::with_val(bits, &cur.b + &db),
                )
            };
            let guess: Vec<Float> = (0..cur.x.len())
                .map(|i| {
                    Float::with_val(
                        bits,
                        &cur.x[i]
                            + Float::with_val(bits, &cur.dx.0[i] * &da)
                            + Float::with_val(bits, &cur.dx.1[i] * &db),
                    )
                })
                .collect();
            match self.eval(&na, &nb, &guess, 0.25) {
                Some(c) => {
                    cur = c;
                    if last {
                        return Some(cur);
                    }
                    // The same share of what remains, then twice it.
                    frac = Float::with_val(bits, &frac * 2u32).min(&Float::with_val(bits, 1));
                }
                None => {
                    frac /= 2u32;
                    if frac < min {
                        return None;
                    }
                }
            }
        }
        None
    }

    /// Newton on τ = 0 along ∇τ from (a, b) with orbit guess `x`; `None` if it fails.
    fn correct(&mut self, a: &Float, b: &Float, x: &[Float], tol: f64) -> Option<Centre> {
        let bits = self.bits;
        let mut cur = self.eval(a, b, x, 0.25)?;
        for _ in 0..60 {
            if cur.tau.clone().abs() <= tol {
                return Some(cur);
            }
            let g2 = Float::with_val(
                bits,
                Float::with_val(bits, cur.grad.0.square_ref())
                    + Float::with_val(bits, cur.grad.1.square_ref()),
            );
            let k = Float::with_val(bits, &cur.tau / &g2);
            let mut da = Float::with_val(bits, &k * &cur.grad.0);
            let mut db = Float::with_val(bits, &k * &cur.grad.1);
            let mut next = None;
            for _ in 0..30 {
                let na = Float::with_val(bits, &cur.a - &da);
                let nb = Float::with_val(bits, &cur.b - &db);
                // Orbit predicted to first order along the step.
                let guess: Vec<Float> = (0..cur.x.len())
                    .map(|i| {
                        Float::with_val(
                            bits,
                            &cur.x[i]
                                - Float::with_val(bits, &cur.dx.0[i] * &da)
                                - Float::with_val(bits, &cur.dx.1[i] * &db),
                        )
                    })
                    .collect();
                let trial = self
                    .eval(&na, &nb, &guess, 0.25)
                    .filter(|t| t.tau.clone().abs() < cur.tau.clone().abs());
                if let Some(t) = trial {
                    next = Some(t);
                    break;
                }
                da /= 2u32;
                db /= 2u32;
            }
            cur = next?;
        }
        (cur.tau.clone().abs() <= tol).then_some(cur)
    }
}

/// Follows the centre line of the strip of `start`'s sink to the point nearest `target`, and
/// proves a sink there (see the module doc). Errors only for unusable input (no periodic orbit
/// near the start, or one that is not attracting); a continuation that stalls or a proof that
/// fails is reported in the result.
pub fn follow(
    start: &Start,
    target: (Rational, Rational),
    target_text: (String, String),
    opts: &ContinueOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Continuation, FollowError> {
    if !(opts.tau_tol > 0.0 && opts.along_rel_tol > 0.0) {
        return Err(FollowError::Input(bad(
            ErrorKind::BadOption,
            "tolerances must be positive",
        )));
    }
    if !(opts.edge_fraction > 0 && opts.edge_fraction < 1) {
        return Err(FollowError::Input(bad(
            ErrorKind::BadOption,
            "the edge fraction must lie in (0, 1)",
        )));
    }
    let t0 = Instant::now();
    let p = start.period;
    let gf: Vec<f64> = start.orbit.iter().map(|v| v.to_f64()).collect();
    let gr = growth(&gf, start.a0.to_f64(), start.b0.to_f64());
    let bits = opts
        .bits
        .max(64)
        .max((gr.l1.max(0.0).ceil() as u32 + 192).div_ceil(32) * 32);
    let mut tr = Tracker { bits, evals: 0 };
    let a0 = Float::with_val(bits, &start.a0);
    let b0 = Float::with_val(bits, &start.b0);
    let first = tr.eval(&a0, &b0, &start.orbit, 1e-3).ok_or_else(|| {
        bad(
            ErrorKind::BadCandidate,
            format!(
                "{}: Newton's method finds no period-{p} orbit within 1e-3 of the given point",
                start.source
            ),
        )
    })?;
    let one_det = Float::with_val(bits, 1 + &first.det);
    if first.tau.clone().abs() >= one_det {
        return Err(FollowError::Input(bad(
            ErrorKind::BadCandidate,
            format!(
                "{}: the period-{p} orbit is not attracting at the start (tr M = {}, 1 + det M = {})",
                start.source,
                decimal(&first.tau, 6, Round::Nearest),
                decimal(&one_det, 6, Round::Nearest)
            ),
        )));
    }
    let start_tau = first.tau.clone();
    let tq = (
        Float::with_val(bits, &target.0),
        Float::with_val(bits, &target.1),
    );
    let dist = |c: &Centre| -> Float {
        let da = Float::with_val(bits, &tq.0 - &c.a);
        let db = Float::with_val(bits, &tq.1 - &c.b);
        Float::with_val(
            bits,
            Float::with_val(bits, da.square_ref()) + Float::with_val(bits, db.square_ref()),
        )
        .sqrt()
    };
    progress(&format!(
        "start: period {p}, tr M = {}, strip width ≈ {} (linear), distance to the target {}",
        decimal(&first.tau, 6, Round::Nearest),
        decimal(&first.linear_width(), 3, Round::Nearest),
        decimal(&dist(&first), 10, Round::Nearest)
    ));
    let mut cur = tr
        .correct(&first.a, &first.b, &first.x, opts.tau_tol)
        .ok_or_else(|| {
            FollowError::Stalled(format!(
                "{}: the corrector does not reach the centre line tr M = 0 from the start",
                start.source
            ))
        })?;
    let mut path = vec![PathPoint {
        a: cur.a.clone(),
        b: cur.b.clone(),
        tau: cur.tau.clone(),
    }];
    let mut hmax: Option<Float> = None;
    let (mut accepted, mut rejected) = (0usize, 0usize);
    let mut last_report = Instant::now();
    let along_error;
    loop {
        let (ta, tb) = cur.tangent();
        let da = Float::with_val(bits, &tq.0 - &cur.a);
        let db = Float::with_val(bits, &tq.1 - &cur.b);
        let s = Float::with_val(
            bits,
            Float::with_val(bits, &da * &ta) + Float::with_val(bits, &db * &tb),
        );
        let d = dist(&cur);
        if s.clone().abs() <= Float::with_val(bits, &d * opts.along_rel_tol) {
            along_error = s.abs();
            break;
        }
        if accepted + rejected >= opts.max_steps {
            return Err(FollowError::Stalled(format!(
                "{}: the continuation did not reach the nearest point in {} steps (last |s| = {}; raise --max-steps)",
                start.source,
                opts.max_steps,
                decimal(&s, 3, Round::Nearest)
            )));
        }
        let mut h = s.clone();
        if let Some(m) = &hmax {
            if h.clone().abs() > *m {
                h = if s < 0 {
                    Float::with_val(bits, -m)
                } else {
                    m.clone()
                };
            }
        }
        let na = Float::with_val(bits, &cur.a + Float::with_val(bits, &h * &ta));
        let nb = Float::with_val(bits, &cur.b + Float::with_val(bits, &h * &tb));
        let guess: Vec<Float> = (0..p)
            .map(|i| {
                let dxi = Float::with_val(
                    bits,
                    Float::with_val(bits, &cur.dx.0[i] * &ta)
                        + Float::with_val(bits, &cur.dx.1[i] * &tb),
                );
                Float::with_val(bits, &cur.x[i] + Float::with_val(bits, &dxi * &h))
            })
            .collect();
        // The corrector must not move more than a quarter of the step across (else it may have
        // slid to another part of the curve).
        let next = tr.correct(&na, &nb, &guess, opts.tau_tol).filter(|c| {
            let ma = Float::with_val(bits, &c.a - &na).abs();
            let mb = Float::with_val(bits, &c.b - &nb).abs();
            let shift = ma.max(&mb);
            shift <= Float::with_val(bits, h.clone().abs() / 4u32) || shift.is_zero()
        });
        match next {
            Some(c) => {
                accepted += 1;
                hmax = Some(Float::with_val(bits, h.abs() * 2u32));
                cur = c;
                path.push(PathPoint {
                    a: cur.a.clone(),
                    b: cur.b.clone(),
                    tau: cur.tau.clone(),
                });
                if last_report.elapsed().as_secs_f64() > 2.0 {
                    last_report = Instant::now();
                    progress(&format!(
                        "  step {accepted}: distance {}, remaining along the strip {}",
                        decimal(&dist(&cur), 12, Round::Nearest),
                        decimal(&s, 3, Round::Nearest)
                    ));
                }
            }
            None => {
                rejected += 1;
                let hh = Float::with_val(bits, h.abs() / 2u32);
                if hh.is_zero() || hh < Float::with_val(bits, &d * 1e-30) {
                    return Err(FollowError::Stalled(format!(
                        "{}: the continuation stalled at distance {} (the strip may end or turn sharply here)",
                        start.source,
                        decimal(&d, 10, Round::Nearest)
                    )));
                }
                hmax = Some(hh);
            }
        }
    }
    let g = cur.grad_norm();
    let across_error = Float::with_val(bits, cur.tau.clone().abs() / &g);
    progress(&format!(
        "nearest point of the centre line: a = {}, b = {}, distance {} ({} steps, {} rejected, {} orbit evaluations)",
        decimal(&cur.a, 25, Round::Nearest),
        decimal(&cur.b, 25, Round::Nearest),
        decimal(&dist(&cur), 12, Round::Nearest),
        accepted,
        rejected,
        tr.evals
    ));
    // Round to decimals: 10^−places ≤ 10⁻¹²·(strip width), at least 20 places.
    let w = cur.linear_width().to_f64();
    let places = ((-(w * 1e-12).log10()).ceil().max(20.0) as u32).min(4000);
    let pa = round_places(&cur.a, places);
    let pb = round_places(&cur.b, places);
    let point_centre = tr.walk(&cur, &pa.1, &pb.1).ok_or_else(|| {
        FollowError::Stalled(
            "the orbit was lost at the rounded nearest point (raise --bits)".into(),
        )
    })?;
    let (na, nb) = {
        let (ta, tb) = cur.tangent();
        (tb, -ta)
    };
    let normal = (round_places(&na, 20), round_places(&nb, 20));
    let ms_cont = t0.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    // The strip's ends along the normal through the rounded point.
    progress("locating the strip's ends along the normal (window estimates)");
    let across = Start {
        source: format!("{} (continued to the nearest point)", start.source),
        a_text: pa.0.clone(),
        b_text: pb.0.clone(),
        a0: pa.1.clone(),
        b0: pb.1.clone(),
        period: p,
        orbit: point_centre.x.clone(),
    };
    let wopts = WindowOptions {
        estimates_only: true,
        est_rel_tol: 1e-9,
        bits,
        ..WindowOptions::default()
    };
    let ends = window(
        &across,
        (normal.0 .1.clone(), normal.1 .1.clone()),
        (normal.0 .0.clone(), normal.1 .0.clone()),
        &wopts,
        &mut |_| {},
    )
    .ok()
    .map(|w| w.ends);
    // The edge on the target's side: the end of the window along ±normal that points at the
    // target, and a point at the fraction f of the way to it.
    let side = {
        let da = Rational::from(&target.0 - &pa.1);
        let db = Rational::from(&target.1 - &pb.1);
        Rational::from(&da * &normal.0 .1) + Rational::from(&db * &normal.1 .1)
    };
    let mut edge = None;
    if let Some(e) = &ends {
        let end = if side < 0 { &e[0] } else { &e[1] };
        if end.kind != EndKind::NotFound {
            let f = opts.edge_fraction.clone();
            let tf = end.t.to_rational().unwrap_or_default() * Rational::from(&f);
            let ea = round_places(
                &Float::with_val(bits, &pa.1 + Rational::from(&tf * &normal.0 .1)),
                places,
            );
            let eb = round_places(
                &Float::with_val(bits, &pb.1 + Rational::from(&tf * &normal.1 .1)),
                places,
            );
            let boundary = (
                Float::with_val(bits, &pa.1) + Float::with_val(bits, &end.t * &normal.0 .1),
                Float::with_val(bits, &pb.1) + Float::with_val(bits, &end.t * &normal.1 .1),
            );
            match tr.walk(&point_centre, &ea.1, &eb.1) {
                Some(c) if c.tau.clone().abs() < Float::with_val(bits, 1 + &c.det) => {
                    edge = Some(Edge {
                        end: end.clone(),
                        boundary,
                        fraction: f,
                        point: ProvedPoint {
                            a: ea,
                            b: eb,
                            centre: c,
                            proof: None,
                        },
                    })
                }
                _ => progress("  the orbit could not be followed to the edge point"),
            }
        }
    }
    let ms_ends = t1.elapsed().as_secs_f64() * 1e3;
    let t2 = Instant::now();
    let mut centre = ProvedPoint {
        a: pa,
        b: pb,
        centre: point_centre,
        proof: None,
    };
    let mut box_proofs = Vec::new();
    let cand = |pt: &ProvedPoint, radius: Rational, what: &str| {
        let x = &pt.centre.x;
        let y = Float::with_val(bits, Float::with_val(bits, &pt.b.1) * &x[p - 1]);
        Candidate {
            source: format!("{} (continued: {what})", start.source),
            a: pt.a.0.clone(),
            b: pt.b.0.clone(),
            radius,
            period: p,
            x: x[0].clone(),
            y,
            orbit: Some(x.clone()),
        }
    };
    if !opts.no_proofs {
        progress("proving a sink at the nearest point of the centre line (point parameters)");
        let pr = prove(&cand(&centre, Rational::new(), "centre line"), &opts.prove)?;
        progress(&format!("  {}", pr.status.as_str()));
        centre.proof = Some(pr);
        if let Some(e) = edge.as_mut() {
            progress(&format!(
                "proving a sink at the edge point ({} of the way to the {})",
                exact_decimal(&e.fraction).unwrap_or_default(),
                e.end.kind.as_str()
            ));
            let pr = prove(&cand(&e.point, Rational::new(), "edge"), &opts.prove)?;
            progress(&format!("  {}", pr.status.as_str()));
            e.point.proof = Some(pr);
        }
        if opts.prove_box {
            // The box must lie inside the strip: its reach along the (nearly unit) normal,
            // r·(|n_a| + |n_b|), below a quarter of the distance to the nearer end; and the
            // single-centre Krawczyk proof needs r below about 2^(−2(l1 + l2)) (the orbit box
            // grows like Γ·r, Γ = 2^(l1 + l2), and must stay below 1/(2a·Γ)); the extra 0.25
            // and 4 bits are measured (period 28 near (1.4, 0.3): 2^(−94.7) proves, ×10 not).
            let nearer = ends.as_ref().and_then(|e| {
                e.iter()
                    .filter(|x| x.kind != EndKind::NotFound)
                    .map(|x| x.t.clone().abs())
                    .min_by(|u, v| u.partial_cmp(v).unwrap_or(std::cmp::Ordering::Equal))
            });
            let l1n = Float::with_val(53, normal.0 .1.clone().abs() + normal.1 .1.clone().abs());
            let reach = match nearer {
                Some(t) => Float::with_val(53, t / &l1n).to_f64(),
                None => w / 4.0,
            };
            let xf: Vec<f64> = centre.centre.x.iter().map(|v| v.to_f64()).collect();
            let g2 = growth(&xf, centre.centre.a.to_f64(), centre.centre.b.to_f64());
            let kraw = 2f64.powf(-2.25 * (g2.l1 + g2.l2) - 4.0);
            // First r = min(reach/4, kraw) to one digit; after a success ×10 while below
            // reach/4 (at most 3 times), after a failure ÷10 (at most 5 times).
            let cap = one_digit_below(reach / 4.0);
            let mut r = one_digit_below((reach / 4.0).min(kraw));
            let mut grow: Option<bool> = None;
            for _ in 0..8 {
                progress(&format!(
                    "proving a sink on the box [a ± r] × [b ± r], r = {}",
                    exact_decimal(&r).unwrap_or_default()
                ));
                let pr = prove(&cand(&centre, r.clone(), "box"), &opts.prove)?;
                progress(&format!("  {}", pr.status.as_str()));
                let ok = pr.status == Status::Sink;
                box_proofs.push((r.clone(), pr));
                let up = *grow.get_or_insert(ok);
                let tried_up = box_proofs
                    .iter()
                    .filter(|(q, _)| *q > box_proofs[0].0)
                    .count();
                let tried_down = box_proofs.len() - 1 - tried_up;
                if up {
                    let next = Rational::from(&r * 10u32);
                    if !ok || next > cap || tried_up >= 3 {
                        break;
                    }
                    r = next;
                } else {
                    if ok || tried_down >= 5 {
                        break;
                    }
                    r /= 10u32;
                }
            }
        }
    }
    let ms_proofs = t2.elapsed().as_secs_f64() * 1e3;
    Ok(Continuation {
        start: start.clone(),
        target,
        target_text,
        bits,
        start_tau,
        path,
        along_error,
        across_error,
        centre,
        normal,
        ends,
        edge,
        nearest: cur,
        box_proofs,
        evaluations: tr.evals,
        steps: (accepted, rejected),
        ms: [ms_cont, ms_ends, ms_proofs],
    })
}

/// The largest d·10^k ≤ v with d a digit 1..9, as an exact rational (v > 0 finite).
fn one_digit_below(v: f64) -> Rational {
    if !(v.is_finite() && v > 0.0) {
        return Rational::from((1, 1_000_000_000_000_000_000u64));
    }
    let mut k = v.log10().floor() as i32;
    let scaled = |k: i32| -> Rational {
        if k >= 0 {
            Rational::from(Integer::from(Integer::u_pow_u(10, k as u32)))
        } else {
            Rational::from((1, Integer::from(Integer::u_pow_u(10, (-k) as u32))))
        }
    };
    let exact = Rational::from_f64(v).unwrap_or_default();
    // Guard the floor of log10 against rounding: the unit must not exceed v.
    while scaled(k) > exact {
        k -= 1;
    }
    let unit = scaled(k);
    let d = Rational::from(&exact / &unit)
        .floor()
        .numer()
        .clone()
        .min(Integer::from(9));
    unit * Rational::from(d.max(Integer::from(1)))
}

/// The JSON record of a continuation (schema [`SCHEMA`]); `certs` names the certificate files
/// (centre-line point, box, edge point) when written. Every number is a decimal string: the
/// proved points exactly, their distances from the target computed exactly and rounded (to
/// nearest, 25 digits, for points; outward, 12 digits, over a box), the rest to the digits
/// shown.
pub fn continuation_json(c: &Continuation, certs: &[Option<String>; 3]) -> Value {
    let d25 = |v: &Float| decimal(v, 25, Round::Nearest);
    let s = &c.start;
    let t = &c.target;
    let d_start = distance2(&s.a0, &s.b0, t);
    let proof_json = |pr: &Proof, cert: &Option<String>| {
        let (lo2, hi2) = proof_distance2(pr, t);
        json!({
            "status": pr.status.as_str(),
            "reason": pr.reason,
            "arithmetic": {"kind": pr.kind, "bits": pr.bits},
            "trace": pr.trace.as_ref().map(|(lo, hi)| json!({
                "lo": decimal(lo, 17, Round::Down), "hi": decimal(hi, 17, Round::Up)})),
            "distance": {
                "min": sqrt_decimal(&lo2, 12, Round::Down),
                "max": sqrt_decimal(&hi2, 12, Round::Up),
            },
            "certificate": cert,
        })
    };
    let point_json = |pt: &ProvedPoint| {
        let d = distance2(&pt.a.1, &pt.b.1, t);
        json!({
            "a": pt.a.0, "b": pt.b.0,
            "distance": sqrt_decimal(&d, 25, Round::Nearest),
            "closer_than_start": d < d_start,
            "trace": decimal(&pt.centre.tau, 17, Round::Nearest),
            "det": decimal(&pt.centre.det, 17, Round::Nearest),
        })
    };
    let boxed = c.box_proof().or(c.box_proofs.last()).map(|(r, pr)| {
        let mut v = proof_json(pr, &certs[1]);
        v["radius"] = json!(exact_decimal(r));
        v["tries"] = json!(c.box_proofs.len());
        v
    });
    let end = |x: &EndEstimate| {
        json!({
            "kind": x.kind.as_str(),
            "t": decimal(&x.t, 17, Round::Nearest),
            "accuracy_t": if x.accuracy.is_finite() { Value::from(decimal(&x.accuracy, 3, Round::Up)) } else { Value::Null },
        })
    };
    let ends = c.ends.as_ref().map(|e| {
        let width = Float::with_val(c.bits, &e[1].t - &e[0].t);
        json!({
            "line": "(a, b) = centre + t·normal",
            "lower": end(&e[0]),
            "upper": end(&e[1]),
            "width": if e.iter().all(|x| x.kind != EndKind::NotFound) { Value::from(decimal(&width, 6, Round::Nearest)) } else { Value::Null },
            "status": "estimate (not proved)",
        })
    });
    let edge = c.edge.as_ref().map(|e| {
        let da = Float::with_val(c.bits, &e.boundary.0 - &t.0);
        let db = Float::with_val(c.bits, &e.boundary.1 - &t.1);
        let bd = Float::with_val(
            c.bits,
            Float::with_val(c.bits, da.square_ref()) + Float::with_val(c.bits, db.square_ref()),
        )
        .sqrt();
        let mut v = point_json(&e.point);
        v["fraction"] = json!(exact_decimal(&e.fraction));
        v["boundary"] = json!({
            "kind": e.end.kind.as_str(),
            "a": d25(&e.boundary.0), "b": d25(&e.boundary.1),
            "distance": decimal(&bd, 17, Round::Nearest),
            "status": "estimate (not proved): the strip's nearest point to the target, where the sink is born or period-doubles",
        });
        v
    });
    let n = &c.nearest;
    let mut centre = point_json(&c.centre);
    centre["gradient"] = json!({"a": decimal(&n.grad.0, 17, Round::Nearest), "b": decimal(&n.grad.1, 17, Round::Nearest)});
    centre["normal"] = json!({"a": c.normal.0 .0, "b": c.normal.1 .0});
    centre["linear_width"] = json!(decimal(&n.linear_width(), 6, Round::Nearest));
    centre["accuracy"] = json!({
        "along": decimal(&c.along_error, 3, Round::Up),
        "across": decimal(&c.across_error, 3, Round::Up),
        "decimal_places": c.centre.a.0.split('.').nth(1).map(str::len).unwrap_or(0).max(c.centre.b.0.split('.').nth(1).map(str::len).unwrap_or(0)),
        "note": "along: |(target − q)·T| at the unrounded point (foot condition); across: |tr M|/|∇tr M| (distance from the centre line); estimates of the MPFR continuation, before rounding to the decimals proved",
    });
    let closest = c.closest().map(|(which, d2, pr)| {
        json!({
            "which": which,
            "period": s.period,
            "a": pr.params.a.given, "b": pr.params.b.given,
            "radius": exact_decimal(&pr.params.a.radius),
            "distance": sqrt_decimal(&d2, 12, Round::Down),
            "note": "least distance from the target over the proved parameter box, exact, rounded down",
        })
    });
    json!({
        "schema": SCHEMA,
        "map": "henon",
        "source": s.source,
        "period": s.period,
        "target": {"a": c.target_text.0, "b": c.target_text.1},
        "start": {
            "a": s.a_text, "b": s.b_text,
            "distance": sqrt_decimal(&d_start, 25, Round::Nearest),
            "trace": decimal(&c.start_tau, 17, Round::Nearest),
        },
        "centre_line": "tr Dh^p = 0 (mid-window value of the trace)",
        "path": c.path.iter().map(|q| json!({"a": d25(&q.a), "b": d25(&q.b), "trace": decimal(&q.tau, 3, Round::Nearest)})).collect::<Vec<_>>(),
        "centre": centre,
        "strip": ends,
        "edge": edge,
        "proofs": {
            "centre": c.centre.proof.as_ref().map(|pr| proof_json(pr, &certs[0])),
            "box": boxed,
            "edge": c.edge.as_ref().and_then(|e| e.point.proof.as_ref()).map(|pr| proof_json(pr, &certs[2])),
        },
        "closest_proved": closest,
        "bits": c.bits,
        "steps": {"accepted": c.steps.0, "rejected": c.steps.1},
        "evaluations": c.evaluations,
        "method": "predictor–corrector continuation of tr Dh^p = 0 (Newton on the cyclic orbit system in MPFR, analytic gradient of the trace, tangent predictor, Newton corrector along the gradient) to the foot of the perpendicular from the target; strip ends along the normal by the window estimates",
        "timings_ms": {
            "continuation": format!("{:.1}", c.ms[0]),
            "strip_ends": format!("{:.1}", c.ms[1]),
            "proofs": format!("{:.1}", c.ms[2]),
        },
    })
}
