//! The parameter window of a sink along a line: a certified inner interval and estimated ends.
//!
//! Along the line (a, b) = (a₀, b₀) + t·(dx, dy) through the parameter point of a sink of
//! period p ([`window`]):
//!
//! 1. **Estimated ends** (estimates, not proofs). The orbit is tracked by Newton's method on the
//!    p-periodic cyclic system in MPFR ([`crate::orbit::refine`], continuation from t = 0 with
//!    step halving, `WindowOptions::bits` bits), and with M = Dh^p along it, det M = (−b)^p:
//!    - the sink is born or dies in a **saddle-node** where tr M = 1 + det M (an eigenvalue +1;
//!      past it the orbit no longer exists), located by the secant method on
//!      φ(t) = (tr M − 1 − det M)², which vanishes linearly there while tr M − 1 − det M
//!      behaves like a square root, safeguarded by bisection against a bracket [t_in, t_out]
//!      (t_in: the continuation reaches an orbit, t_out: it does not, even in 64 sub-steps);
//!    - it **period-doubles** where tr M = −(1 + det M) (an eigenvalue −1; the orbit goes on,
//!      unstable), located by the Illinois variant of regula falsi on tr M + 1 + det M, which
//!      keeps a sign-change bracket.
//!
//!    Each end is iterated until its bracket is at most `est_rel_tol`·|t| wide; the reported
//!    `accuracy` is that bracket width (an estimate: it rests on the floating-point
//!    continuation, not on interval arithmetic).
//! 2. **Certified inner interval** (proved). Segments [t_k, t_{k+1}] of the line with dyadic
//!    t_k are each enclosed by the parameter box A × B (a value ± radius per parameter, exact
//!    rationals: a segment of the line, enclosed as an interval box) and proved by
//!    [`crate::engine::prove_with_params`] (Krawczyk, minimal period, stability on the whole
//!    box, MPFR cross-check), then re-checked by [`crate::verify::verify_value`]. A central
//!    segment [−w, w] is grown by doubling w; then each end is extended by adjacent segments,
//!    doubling the length after a success and halving it after a failure, until the length
//!    tried falls below `cert_rel_tol` times the certified length (so the certified interval is
//!    maximal up to that relative tolerance, for this way of splitting it). The union
//!    [t_lo, t_hi] is reported only because consecutive segments share their end points
//!    exactly (checked on the exact rationals of every proved box).
//!
//! JSON ([`window_json`], schema `expanse-window/1`; every number a decimal string): `period`,
//! `point` {a, b} as given, `direction` {dx, dy}, `certified` (null if nothing was proved:
//! `t_lo`, `t_hi`, `from`/`to` {a, b} exactly, `segments` [{t_lo, t_hi, a/b {value, radius},
//! status, arithmetic, certificate}], `proofs_tried`, `proof_budget_exhausted`,
//! `failed_extension_length` {lower, upper}, `estimated_gap_t`), `estimated` {lower, upper:
//! {kind, t, a, b, accuracy_t, trace_inside, evaluations, note}, relative_tolerance_t, bits,
//! method, status: "estimate (not proved)"} and `timings_ms`.
//!
//! The library never prints; progress goes to a caller-supplied callback.

use crate::cert::certificate;
use crate::engine::{prove_with_params, Candidate, Options, Proof, Status};
use crate::error::{Error, ErrorKind};
use crate::numfmt::{parse_exact, parse_hex};
use crate::orbit::{iterate_orbit, refine};
use crate::params::{Param, ParamBox};
use crate::verify::{verify_value, Verdict};
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};
use serde_json::{json, Value};
use std::time::Instant;

/// The schema of the JSON written by [`window_json`].
pub const SCHEMA: &str = "expanse-window/1";

/// Where the window is computed from: a parameter point with a periodic orbit near it.
#[derive(Clone, Debug)]
pub struct Start {
    /// Where it came from (file, `file:line` or `command line`).
    pub source: String,
    /// a₀ as given (decimal or hex text).
    pub a_text: String,
    /// b₀ as given.
    pub b_text: String,
    /// a₀ exactly.
    pub a0: Rational,
    /// b₀ exactly.
    pub b0: Rational,
    /// The period.
    pub period: usize,
    /// A guess of the whole orbit's x-coordinates (x₀ first).
    pub orbit: Vec<Float>,
}

fn bad(kind: ErrorKind, m: impl Into<String>) -> Error {
    Error::new(kind, m)
}

impl Start {
    /// From a candidate (as `expanse prove` reads it): the orbit guess is the candidate point
    /// iterated p − 1 times at (a₀, b₀). The candidate's radius is ignored.
    pub fn from_candidate(c: &Candidate) -> Result<Self, Error> {
        let a0 = parse_exact(&c.a).map_err(|e| {
            bad(
                ErrorKind::BadCandidate,
                format!("{}: a: {}", c.source, e.message),
            )
        })?;
        let b0 = parse_exact(&c.b).map_err(|e| {
            bad(
                ErrorKind::BadCandidate,
                format!("{}: b: {}", c.source, e.message),
            )
        })?;
        if c.period == 0 || !c.x.is_finite() || !c.y.is_finite() {
            return Err(bad(
                ErrorKind::BadCandidate,
                format!("{}: needs a period ≥ 1 and a finite point", c.source),
            ));
        }
        let prec = 256 + c.period as u32;
        let orbit = match &c.orbit {
            Some(o) if o.len() == c.period => o.clone(),
            _ => iterate_orbit(
                &Float::with_val(prec, &a0),
                &Float::with_val(prec, &b0),
                &c.x,
                &c.y,
                c.period,
                prec,
            ),
        };
        Ok(Start {
            source: c.source.clone(),
            a_text: c.a.clone(),
            b_text: c.b.clone(),
            a0,
            b0,
            period: c.period,
            orbit,
        })
    }

    /// From a certificate written by `expanse prove` (any status; only the parameter values,
    /// the period and the orbit centres are used, as a starting guess).
    pub fn from_certificate(v: &Value, source: &str) -> Result<Self, Error> {
        let un = |m: String| bad(ErrorKind::BadCertificate, format!("{source}: {m}"));
        if v.get("schema").and_then(|s| s.as_str()) != Some(crate::cert::SCHEMA) {
            return Err(un(format!(
                "not a certificate of schema {:?}",
                crate::cert::SCHEMA
            )));
        }
        let text = |k: &str| -> Result<String, Error> {
            v.get(k)
                .and_then(|p| p.get("given"))
                .and_then(|g| g.as_str())
                .map(str::to_string)
                .ok_or_else(|| un(format!("missing field `{k}.given`")))
        };
        let (a_text, b_text) = (text("a")?, text("b")?);
        let a0 = parse_exact(&a_text).map_err(|e| un(format!("a.given: {}", e.message)))?;
        let b0 = parse_exact(&b_text).map_err(|e| un(format!("b.given: {}", e.message)))?;
        let period = v
            .get("period")
            .and_then(|p| p.as_u64())
            .filter(|p| (1..=10_000_000).contains(p))
            .ok_or_else(|| un("field `period` must be an integer in 1..=10^7".into()))?
            as usize;
        let centres = v
            .get("orbit")
            .and_then(|o| o.get("centres"))
            .and_then(|c| c.as_array())
            .ok_or_else(|| un("missing field `orbit.centres`".into()))?;
        let orbit: Vec<Float> = centres
            .iter()
            .map(|s| s.as_str().and_then(parse_hex))
            .collect::<Option<_>>()
            .ok_or_else(|| un("`orbit.centres` must be hex floats".into()))?;
        if orbit.len() != period {
            return Err(un(format!(
                "period {period} but {} orbit centres (a not-proven certificate has none)",
                orbit.len()
            )));
        }
        Ok(Start {
            source: source.to_string(),
            a_text,
            b_text,
            a0,
            b0,
            period,
            orbit,
        })
    }
}

/// Knobs of [`window`].
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// Relative tolerance of the certified interval's maximality (see the module doc).
    pub cert_rel_tol: f64,
    /// Relative accuracy in t asked of the estimated ends.
    pub est_rel_tol: f64,
    /// MPFR bits of the estimation (orbit tracking and trace).
    pub bits: u32,
    /// Most proofs attempted for the certified interval.
    pub max_proofs: usize,
    /// Options of each proof.
    pub prove: Options,
    /// Skip the certified interval (estimates only).
    pub estimates_only: bool,
}

impl Default for WindowOptions {
    fn default() -> Self {
        WindowOptions {
            cert_rel_tol: 1e-6,
            est_rel_tol: 1e-12,
            bits: 256,
            max_proofs: 20_000,
            prove: Options::default(),
            estimates_only: false,
        }
    }
}

/// How an end of the window was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// tr M = 1 + det M: the orbit is born or dies in a saddle-node.
    SaddleNode,
    /// tr M = −(1 + det M): the orbit period-doubles (and goes on, unstable).
    PeriodDoubling,
    /// Not located (the continuation gave up, or the iteration limit was reached).
    NotFound,
}

impl EndKind {
    /// The JSON word.
    pub fn as_str(&self) -> &'static str {
        match self {
            EndKind::SaddleNode => "saddle-node",
            EndKind::PeriodDoubling => "period-doubling",
            EndKind::NotFound => "not-found",
        }
    }
}

/// One estimated end of the window.
#[derive(Clone, Debug)]
pub struct EndEstimate {
    /// What happens there.
    pub kind: EndKind,
    /// The estimate of t.
    pub t: Float,
    /// Width of the final bracket of t (the estimate lies in it): the accuracy claimed.
    pub accuracy: Float,
    /// Orbit evaluations spent (Newton continuations).
    pub evaluations: usize,
    /// tr M at the inner end of the final bracket.
    pub trace: Float,
    /// Why not found, when so.
    pub note: Option<String>,
}

/// One proved segment [t_lo, t_hi] of the line.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Lower end (dyadic, exact).
    pub t_lo: Rational,
    /// Upper end (dyadic, exact).
    pub t_hi: Rational,
    /// The proof of a sink on the enclosing box (status [`Status::Sink`], re-verified).
    pub proof: Proof,
}

/// The window found.
#[derive(Clone, Debug)]
pub struct Window {
    /// The starting point.
    pub start: Start,
    /// Direction (dx, dy), exact.
    pub dir: (Rational, Rational),
    /// The direction as given.
    pub dir_text: (String, String),
    /// Proved segments in increasing t, consecutive ones sharing end points exactly.
    pub segments: Vec<Segment>,
    /// Proofs attempted.
    pub proofs_tried: usize,
    /// Estimated end for t < 0 and for t > 0.
    pub ends: [EndEstimate; 2],
    /// The estimation's bits.
    pub bits: u32,
    /// Tolerances used (certified, estimated).
    pub tol: (f64, f64),
    /// Milliseconds: estimation, certification.
    pub ms: [f64; 2],
    /// At the lower and upper end: the length of the last adjacent segment whose proof failed
    /// before the extension stopped (the maximality witness), if any.
    pub failed_extension: [Option<Rational>; 2],
    /// True when `max_proofs` stopped the extension (then the interval may not be maximal).
    pub budget_exhausted: bool,
}

impl Window {
    /// The certified interval [t_lo, t_hi], if any segment was proved.
    pub fn certified(&self) -> Option<(Rational, Rational)> {
        Some((
            self.segments.first()?.t_lo.clone(),
            self.segments.last()?.t_hi.clone(),
        ))
    }
}

/// The continuation: orbits of the period-p system along the line.
struct Track<'a> {
    s: &'a Start,
    dx: Float,
    dy: Float,
    a0: Float,
    b0: Float,
    bits: u32,
    /// Every orbit reached: (t, x).
    known: Vec<(Float, Vec<Float>)>,
    evals: usize,
}

/// tr M − 1 − det M and tr M + 1 + det M, and tr M.
struct Jury {
    sn: Float,
    pd: Float,
    tr: Float,
}

impl<'a> Track<'a> {
    fn new(s: &'a Start, dir: &(Rational, Rational), bits: u32) -> Self {
        Track {
            s,
            dx: Float::with_val(bits, &dir.0),
            dy: Float::with_val(bits, &dir.1),
            a0: Float::with_val(bits, &s.a0),
            b0: Float::with_val(bits, &s.b0),
            bits,
            known: Vec::new(),
            evals: 0,
        }
    }

    fn ab(&self, t: &Float) -> (Float, Float) {
        let a = Float::with_val(
            self.bits,
            &self.a0 + Float::with_val(self.bits, t * &self.dx),
        );
        let b = Float::with_val(
            self.bits,
            &self.b0 + Float::with_val(self.bits, t * &self.dy),
        );
        (a, b)
    }

    /// One Newton solve at t from `guess`; accepted only if converged and near the guess.
    fn newton(&mut self, t: &Float, guess: &[Float], limit: f64) -> Option<Vec<Float>> {
        self.evals += 1;
        let (a, b) = self.ab(t);
        let r = refine(guess, &a, &b, self.bits)?;
        if !r.converged {
            return None;
        }
        let far =
            r.x.iter()
                .zip(guess)
                .any(|(u, v)| Float::with_val(53, u - v).abs().to_f64() > limit || !u.is_finite());
        (!far).then_some(r.x)
    }

    /// The orbit at `t`, continued from the nearest orbit known, in up to 64 sub-steps.
    fn at(&mut self, t: &Float) -> Option<Vec<Float>> {
        let (t0, x0) = self
            .known
            .iter()
            .min_by(|u, v| {
                let du = Float::with_val(self.bits, &u.0 - t).abs();
                let dv = Float::with_val(self.bits, &v.0 - t).abs();
                du.partial_cmp(&dv).unwrap_or(std::cmp::Ordering::Equal)
            })
            .cloned()?;
        let total = Float::with_val(self.bits, t - &t0);
        let min_step = Float::with_val(self.bits, &total / 64u32).abs();
        let (mut cur, mut x) = (t0, x0);
        let mut step = total.clone();
        let mut tries = 0;
        while cur != *t && tries < 400 {
            tries += 1;
            let rem = Float::with_val(self.bits, t - &cur);
            if step.clone().abs() > rem.clone().abs() {
                step = rem;
            }
            let next = Float::with_val(self.bits, &cur + &step);
            let next = if Float::with_val(self.bits, t - &next).abs()
                < Float::with_val(self.bits, &min_step / 1024u32)
            {
                t.clone()
            } else {
                next
            };
            match self.newton(&next, &x, 0.25) {
                Some(nx) => {
                    cur = next;
                    x = nx;
                    step *= 2u32;
                }
                None => {
                    step /= 2u32;
                    if step.clone().abs() < min_step {
                        return None;
                    }
                }
            }
        }
        if cur != *t {
            return None;
        }
        self.known.push((t.clone(), x.clone()));
        Some(x)
    }

    fn jury(&self, t: &Float, x: &[Float]) -> Jury {
        let (a, b) = self.ab(t);
        let bits = self.bits;
        // M = Dh(z_{p−1})···Dh(z_0), Dh(z_i) = [[−2a·x_i, 1], [b, 0]].
        let (mut m00, mut m01, mut m10, mut m11) = (
            Float::with_val(bits, 1),
            Float::with_val(bits, 0),
            Float::with_val(bits, 0),
            Float::with_val(bits, 1),
        );
        for xi in x {
            let c = Float::with_val(bits, -2 * Float::with_val(bits, &a * xi));
            let n00 = Float::with_val(bits, &c * &m00) + &m10;
            let n01 = Float::with_val(bits, &c * &m01) + &m11;
            let n10 = Float::with_val(bits, &b * &m00);
            let n11 = Float::with_val(bits, &b * &m01);
            (m00, m01, m10, m11) = (n00, n01, n10, n11);
        }
        let tr = Float::with_val(bits, &m00 + &m11);
        let det = Float::with_val(bits, -b).pow(x.len() as u32);
        let one_det = Float::with_val(bits, 1 + &det);
        Jury {
            sn: Float::with_val(bits, &tr - &one_det),
            pd: Float::with_val(bits, &tr + &one_det),
            tr,
        }
    }
}

fn absf(v: &Float) -> Float {
    v.clone().abs()
}

/// Locates the end of the window on the side `sign` (±1).
fn locate_end(tr: &mut Track, sign: i32, tol: f64) -> EndEstimate {
    let bits = tr.bits;
    let evals0 = tr.evals;
    let (x0t, x0) = tr.known[0].clone();
    let mut t_in = x0t;
    let mut j_in = tr.jury(&t_in, &x0);
    let not_found = |t: Float, trc: Float, evals: usize, note: &str| EndEstimate {
        kind: EndKind::NotFound,
        accuracy: Float::with_val(53, f64::INFINITY),
        t,
        evaluations: evals,
        trace: trc,
        note: Some(note.into()),
    };
    if !(j_in.sn < 0 && j_in.pd > 0) {
        return not_found(t_in, j_in.tr, 0, "the orbit is not attracting at t = 0");
    }
    // March outwards, doubling the step, until the continuation fails or tr + 1 + det ≤ 0.
    let scale = tr.dx.clone().abs().max(&tr.dy.clone().abs());
    let mut h = Float::with_val(bits, Float::with_val(bits, 1u32) >> 12u32) / &scale;
    let mut inside: Vec<(Float, Float)> = vec![(t_in.clone(), j_in.sn.clone().square())];
    let limit = Float::with_val(bits, 64u32) / &scale;
    let (kind, mut t_out, j_out) = loop {
        let t = Float::with_val(bits, &t_in + Float::with_val(bits, &h * sign));
        if absf(&t) > limit {
            return not_found(
                t_in,
                j_in.tr,
                tr.evals - evals0,
                "no end within |t|·|d| ≤ 64",
            );
        }
        match tr.at(&t) {
            None => break (EndKind::SaddleNode, t, None),
            Some(x) => {
                let j = tr.jury(&t, &x);
                if j.pd <= 0 {
                    break (EndKind::PeriodDoubling, t, Some(j));
                }
                if j.sn >= 0 {
                    // tr ≥ 1 + det: the continuation crossed a fold onto the saddle branch
                    // instead of failing there; the end is a saddle-node inside [t_in, t].
                    break (EndKind::SaddleNode, t, None);
                }
                inside.push((t.clone(), j.sn.clone().square()));
                t_in = t;
                j_in = j;
                h *= 2u32;
            }
        }
    };
    let mut kind = kind;
    // Illinois state: the (possibly halved) values at the bracket's ends, and which end moved
    // last (−1 inner, 1 outer).
    let mut fi = j_in.pd.clone();
    let mut fo = j_out
        .as_ref()
        .map(|j| j.pd.clone())
        .unwrap_or_else(|| Float::with_val(bits, 0));
    let mut last = 0i32;
    for _ in 0..400 {
        let width = Float::with_val(bits, &t_out - &t_in).abs();
        let scale_t = absf(&t_in).max(&absf(&t_out));
        if width <= Float::with_val(bits, &scale_t * tol) {
            // The estimate: the secant root (saddle-node) or regula falsi point (period
            // doubling) of the final bracket, kept inside it; the bracket width is the accuracy.
            let est = match kind {
                EndKind::PeriodDoubling => falsi(&t_in, &fi, &t_out, &fo, bits),
                _ => secant_root(&inside, bits),
            }
            .filter(|r| between(r, &t_in, &t_out))
            .unwrap_or_else(|| Float::with_val(bits, &t_in + &t_out) / 2u32);
            return EndEstimate {
                kind,
                t: est,
                accuracy: Float::with_val(53, width),
                evaluations: tr.evals - evals0,
                trace: j_in.tr.clone(),
                note: None,
            };
        }
        let mid = Float::with_val(bits, &t_in + &t_out) / 2u32;
        let cand = match kind {
            EndKind::PeriodDoubling => falsi(&t_in, &fi, &t_out, &fo, bits),
            _ => secant_root(&inside, bits),
        };
        let cand = match cand {
            Some(c) if between(&c, &t_in, &t_out) && c != t_in && c != t_out => c,
            _ => mid,
        };
        match tr.at(&cand) {
            None => {
                // Lost: the bracket closes from outside (a saddle-node end).
                kind = EndKind::SaddleNode;
                t_out = cand;
            }
            Some(x) if tr.jury(&cand, &x).sn >= 0 => {
                // On the saddle branch past a fold (tr ≥ 1 + det): outside, as when lost.
                kind = EndKind::SaddleNode;
                t_out = cand;
            }
            Some(x) => {
                let j = tr.jury(&cand, &x);
                if j.pd <= 0 {
                    if kind != EndKind::PeriodDoubling {
                        kind = EndKind::PeriodDoubling;
                        fi = j_in.pd.clone();
                        last = 0;
                    }
                    fo = j.pd.clone();
                    if last == 1 {
                        fi /= 2u32;
                    }
                    last = 1;
                    t_out = cand;
                } else {
                    fi = j.pd.clone();
                    if last == -1 {
                        fo /= 2u32;
                    }
                    last = -1;
                    inside.push((cand.clone(), j.sn.clone().square()));
                    t_in = cand;
                    j_in = j;
                }
            }
        }
    }
    not_found(t_in, j_in.tr, tr.evals - evals0, "iteration limit reached")
}

/// The root of the secant through the last two points (t, φ) of `pts`.
fn secant_root(pts: &[(Float, Float)], bits: u32) -> Option<Float> {
    let n = pts.len();
    if n < 2 {
        return None;
    }
    let (t1, f1) = &pts[n - 2];
    let (t2, f2) = &pts[n - 1];
    let df = Float::with_val(bits, f2 - f1);
    if df.is_zero() {
        return None;
    }
    let dt = Float::with_val(bits, t2 - t1);
    let r = Float::with_val(bits, t2 - Float::with_val(bits, f2 * &dt) / &df);
    r.is_finite().then_some(r)
}

/// Regula falsi point between (t1, f1) and (t2, f2) of opposite signs.
fn falsi(t1: &Float, f1: &Float, t2: &Float, f2: &Float, bits: u32) -> Option<Float> {
    secant_root(&[(t1.clone(), f1.clone()), (t2.clone(), f2.clone())], bits)
}

fn between(v: &Float, a: &Float, b: &Float) -> bool {
    (a <= v && v <= b) || (b <= v && v <= a)
}

/// The exact decimal text of a rational whose denominator is 2^i·5^j; `None` otherwise.
pub fn exact_decimal(q: &Rational) -> Option<String> {
    let mut d = q.denom().clone();
    let (mut i, mut j) = (0u32, 0u32);
    while d.is_divisible_u(2) {
        d /= 2u32;
        i += 1;
    }
    while d.is_divisible_u(5) {
        d /= 5u32;
        j += 1;
    }
    if d != 1 {
        return None;
    }
    let k = i.max(j);
    let n = (q.numer() * Integer::from(Integer::u_pow_u(10, k))) / q.denom().clone();
    let neg = n < 0;
    let digits = n.abs().to_string();
    let k = k as usize;
    let s = if k == 0 {
        digits
    } else {
        let padded = format!("{digits:0>width$}", width = k + 1);
        let (ip, fp) = padded.split_at(padded.len() - k);
        let fp = fp.trim_end_matches('0');
        if fp.is_empty() {
            ip.to_string()
        } else {
            format!("{ip}.{fp}")
        }
    };
    Some(if neg { format!("-{s}") } else { s })
}

/// The parameter of one coordinate over t ∈ [t_lo, t_hi]: value ± radius, exact.
fn param_over(
    c0: &Rational,
    c0_text: &str,
    d: &Rational,
    t_lo: &Rational,
    t_hi: &Rational,
) -> Result<Param, Error> {
    if *d == 0 {
        return Ok(Param::from_exact(
            c0_text,
            c0.clone(),
            Rational::new(),
            4096,
        ));
    }
    let mid = Rational::from(t_lo + t_hi) / 2u32;
    let value = c0 + Rational::from(d * &mid);
    let radius = (d * Rational::from(t_hi - t_lo)).abs() / 2u32;
    let given = exact_decimal(&value).ok_or_else(|| {
        bad(
            ErrorKind::BadOption,
            "the box centre has no exact decimal form (give a₀, b₀ and the direction as decimals)",
        )
    })?;
    Ok(Param::from_exact(&given, value, radius, 4096))
}

struct Certifier<'a, 'b> {
    track: &'a mut Track<'b>,
    opts: &'a WindowOptions,
    dir: (Rational, Rational),
    tried: usize,
}

impl Certifier<'_, '_> {
    /// Proves a sink on the box enclosing the segment [t_lo, t_hi]; `Some` only when proved a
    /// sink, re-verified, and the box is exactly value ± radius of the segment's ends.
    fn segment(&mut self, t_lo: &Rational, t_hi: &Rational) -> Option<Segment> {
        if self.tried >= self.opts.max_proofs {
            return None;
        }
        self.tried += 1;
        let s = self.track.s;
        let bits = self.track.bits;
        let tc = Float::with_val(bits, Rational::from(t_lo + t_hi) / 2u32);
        let x = self.track.at(&tc)?;
        let pa = param_over(&s.a0, &s.a_text, &self.dir.0, t_lo, t_hi).ok()?;
        let pb = param_over(&s.b0, &s.b_text, &self.dir.1, t_lo, t_hi).ok()?;
        let p = s.period;
        let y = Float::with_val(bits, Float::with_val(bits, &pb.value) * &x[p - 1]);
        let c = Candidate {
            source: format!(
                "{} (window segment t in [{}, {}])",
                s.source,
                exact_decimal(t_lo).unwrap_or_default(),
                exact_decimal(t_hi).unwrap_or_default()
            ),
            a: pa.given.clone(),
            b: pb.given.clone(),
            radius: Rational::new(),
            period: p,
            x: x[0].clone(),
            y,
            orbit: Some(x),
        };
        let pr = prove_with_params(&c, &ParamBox { a: pa, b: pb }, &self.opts.prove).ok()?;
        if pr.status != Status::Sink {
            return None;
        }
        // The proved box is exactly the segment's enclosure: value ± radius are the end points.
        for (par, c0, d) in [
            (&pr.params.a, &s.a0, &self.dir.0),
            (&pr.params.b, &s.b0, &self.dir.1),
        ] {
            let e1 = c0 + Rational::from(d * t_lo);
            let e2 = c0 + Rational::from(d * t_hi);
            let lo = Rational::from(&par.value - &par.radius);
            let hi = Rational::from(&par.value + &par.radius);
            let (m1, m2) = if e1 <= e2 { (e1, e2) } else { (e2, e1) };
            if lo != m1 || hi != m2 {
                return None;
            }
        }
        match verify_value(&certificate(&pr)) {
            Ok(Verdict::Valid {
                status: Status::Sink,
                ..
            }) => Some(Segment {
                t_lo: t_lo.clone(),
                t_hi: t_hi.clone(),
                proof: pr,
            }),
            _ => None,
        }
    }
}

fn dyadic_below(v: f64) -> Rational {
    // The largest power of two ≤ v (v > 0).
    let e = v.log2().floor() as i32;
    if e >= 0 {
        Rational::from(Integer::from(1) << e as u32)
    } else {
        Rational::from((Integer::from(1), Integer::from(1) << (-e) as u32))
    }
}

/// Computes the window of the sink of `start` along the direction `dir` (exact, with its text).
/// Errors only for unusable input (zero direction, no periodic orbit near the start).
pub fn window(
    start: &Start,
    dir: (Rational, Rational),
    dir_text: (String, String),
    opts: &WindowOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Window, Error> {
    if dir.0 == 0 && dir.1 == 0 {
        return Err(bad(ErrorKind::BadOption, "the direction must not be zero"));
    }
    if !(opts.est_rel_tol > 0.0 && opts.cert_rel_tol > 0.0) {
        return Err(bad(ErrorKind::BadOption, "tolerances must be positive"));
    }
    let t0 = Instant::now();
    let bits = opts.bits.max(64);
    let mut track = Track::new(start, &dir, bits);
    let zero = Float::with_val(bits, 0);
    let x0 = track.newton(&zero, &start.orbit, 1e-3).ok_or_else(|| {
        bad(
            ErrorKind::BadCandidate,
            format!(
                "{}: Newton's method finds no period-{} orbit within 1e-3 of the given point",
                start.source, start.period
            ),
        )
    })?;
    track.known.push((zero.clone(), x0));
    progress("estimating the ends (orbit continuation in MPFR)");
    let lower = locate_end(&mut track, -1, opts.est_rel_tol);
    progress(&format!(
        "  t < 0: {} at t ≈ {}",
        lower.kind.as_str(),
        lower.t.to_string_radix(10, Some(17))
    ));
    let upper = locate_end(&mut track, 1, opts.est_rel_tol);
    progress(&format!(
        "  t > 0: {} at t ≈ {}",
        upper.kind.as_str(),
        upper.t.to_string_radix(10, Some(17))
    ));
    let ms_est = t0.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    let mut segments: Vec<Segment> = Vec::new();
    let mut tried = 0;
    // The length of the last adjacent segment that failed at each end (upper, lower).
    let mut stops: [Option<Rational>; 2] = [None, None];
    if !opts.estimates_only {
        let scale = track.dx.clone().abs().max(&track.dy.clone().abs()).to_f64();
        // First half-width: 1/64 of the nearer estimated end, else 2^−20 in parameter units.
        let near = [&lower, &upper]
            .iter()
            .filter(|e| e.kind != EndKind::NotFound)
            .map(|e| e.t.to_f64().abs())
            .fold(f64::INFINITY, f64::min);
        let w0 = if near.is_finite() && near > 0.0 {
            near / 64.0
        } else {
            2f64.powi(-20) / scale
        };
        let mut w = dyadic_below(w0);
        let mut cert = Certifier {
            track: &mut track,
            opts,
            dir: dir.clone(),
            tried: 0,
        };
        progress("certifying the inner interval");
        // Central segment [−w, w], halved until proved, then doubled while proved.
        let min_w = dyadic_below(2f64.powi(-60) / scale);
        let mut centre: Option<Segment> = None;
        while centre.is_none() && w >= min_w && cert.tried < opts.max_proofs {
            centre = cert.segment(&Rational::from(-&w), &w);
            if centre.is_none() {
                w /= 2u32;
            }
        }
        if let Some(mut seg) = centre {
            loop {
                let w2 = Rational::from(&w * 2u32);
                match cert.segment(&Rational::from(-&w2), &w2) {
                    Some(s) => {
                        seg = s;
                        w = w2;
                    }
                    None => break,
                }
            }
            progress(&format!(
                "  central segment t in [-{0}, {0}] ({1} proofs)",
                exact_decimal(&w).unwrap_or_default(),
                cert.tried
            ));
            segments.push(seg);
            // Extend each end by adjacent segments: the length doubles after two successes in
            // a row and halves after a failure; the end stops when the length falls below
            // cert_rel_tol × the certified length (an adjacent segment of at most twice that
            // length then failed).
            for (k, side) in [1i32, -1].into_iter().enumerate() {
                let mut len = Rational::from(&w * 2u32);
                let mut streak = 0;
                let mut last_failed: Option<Rational> = None;
                loop {
                    let (lo, hi) = (
                        segments[0].t_lo.clone(),
                        segments[segments.len() - 1].t_hi.clone(),
                    );
                    let total = Rational::from(&hi - &lo);
                    let floor = &total * Rational::from_f64(opts.cert_rel_tol).unwrap_or_default();
                    if len < floor || cert.tried >= opts.max_proofs {
                        stops[k] = last_failed.take();
                        break;
                    }
                    let got = if side > 0 {
                        cert.segment(&hi, &Rational::from(&hi + &len))
                    } else {
                        cert.segment(&Rational::from(&lo - &len), &lo)
                    };
                    match got {
                        Some(s) => {
                            if side > 0 {
                                segments.push(s);
                            } else {
                                segments.insert(0, s);
                            }
                            streak += 1;
                            if streak >= 2 {
                                len *= 2u32;
                                streak = 0;
                            }
                        }
                        None => {
                            last_failed = Some(len.clone());
                            len /= 2u32;
                            streak = 0;
                        }
                    }
                }
                progress(&format!(
                    "  {} end extended: {} segments, {} proofs",
                    if side > 0 { "upper" } else { "lower" },
                    segments.len(),
                    cert.tried
                ));
            }
        }
        tried = cert.tried;
        // The union is reported only when consecutive segments touch exactly.
        if segments.windows(2).any(|s| s[0].t_hi != s[1].t_lo) {
            segments.clear();
        }
        if cert.tried >= opts.max_proofs {
            progress("  proof budget (max_proofs) exhausted: the interval may not be maximal");
        }
    }
    let ms_cert = t1.elapsed().as_secs_f64() * 1e3;
    Ok(Window {
        start: start.clone(),
        dir,
        dir_text,
        segments,
        proofs_tried: tried,
        ends: [lower, upper],
        bits,
        tol: (opts.cert_rel_tol, opts.est_rel_tol),
        ms: [ms_est, ms_cert],
        failed_extension: [stops[1].clone(), stops[0].clone()],
        budget_exhausted: tried >= opts.max_proofs,
    })
}

/// A decimal string of `v` with `digits` significant digits, rounded in direction `r`.
pub fn decimal(v: &Float, digits: usize, r: Round) -> String {
    v.to_string_radix_round(10, Some(digits), r)
        .replace('@', "e")
}

/// The JSON record of a window (schema [`SCHEMA`]); `certs` names the certificate file of
/// each segment, when written. Every number is a decimal string: exact for the certified end
/// points and the direction, 25 significant digits for the estimates (whose accuracy, rounded
/// up to 3 digits, covers that rounding too).
pub fn window_json(w: &Window, certs: &[Option<String>]) -> Value {
    let s = &w.start;
    let dec =
        |q: &Rational| exact_decimal(q).unwrap_or_else(|| format!("{}/{}", q.numer(), q.denom()));
    let at = |t: &Rational| {
        (
            &s.a0 + Rational::from(&w.dir.0 * t),
            &s.b0 + Rational::from(&w.dir.1 * t),
        )
    };
    let gap = |e: &EndEstimate, end: &Rational, side: i32| -> Value {
        if e.kind == EndKind::NotFound {
            return Value::Null;
        }
        let d = Float::with_val(w.bits, &e.t - Float::with_val(w.bits, end)) * side;
        Value::from(decimal(&d, 3, Round::Nearest))
    };
    let certified = match w.certified() {
        Some((lo, hi)) => {
            let (alo, blo) = at(&lo);
            let (ahi, bhi) = at(&hi);
            json!({
                "t_lo": dec(&lo), "t_hi": dec(&hi),
                "from": {"a": dec(&alo), "b": dec(&blo)},
                "to": {"a": dec(&ahi), "b": dec(&bhi)},
                "relative_tolerance": format!("{:e}", w.tol.0),
                "segments": w.segments.iter().enumerate().map(|(k, g)| json!({
                    "t_lo": dec(&g.t_lo), "t_hi": dec(&g.t_hi),
                    "a": {"value": g.proof.params.a.given, "radius": dec(&g.proof.params.a.radius)},
                    "b": {"value": g.proof.params.b.given, "radius": dec(&g.proof.params.b.radius)},
                    "status": g.proof.status.as_str(),
                    "arithmetic": {"kind": g.proof.kind, "bits": g.proof.bits},
                    "certificate": certs.get(k).cloned().flatten(),
                })).collect::<Vec<_>>(),
                "proofs_tried": w.proofs_tried,
                "estimated_gap_t": {
                    "lower": gap(&w.ends[0], &lo, -1),
                    "upper": gap(&w.ends[1], &hi, 1),
                    "note": "distance from the certified end to the estimated end of the window (an estimate)",
                },
                "proof_budget_exhausted": w.budget_exhausted,
                "failed_extension_length": {
                    "lower": w.failed_extension[0].as_ref().map(dec),
                    "upper": w.failed_extension[1].as_ref().map(dec),
                },
            })
        }
        None => Value::Null,
    };
    let end = |e: &EndEstimate| {
        let bits = w.bits;
        let a = Float::with_val(bits, &s.a0) + Float::with_val(bits, &e.t * &w.dir.0);
        let b = Float::with_val(bits, &s.b0) + Float::with_val(bits, &e.t * &w.dir.1);
        // The decimal rounding of t (25 digits) is added to the accuracy before rounding up.
        let acc =
            Float::with_val(53, &e.accuracy) + Float::with_val(53, e.t.clone().abs() * 1e-24f64);
        // A coordinate that does not move along the line is printed as given (exact).
        let coord = |d: &Rational, text: &str, v: &Float| {
            if *d == 0 {
                text.to_string()
            } else {
                decimal(v, 25, Round::Nearest)
            }
        };
        json!({
            "kind": e.kind.as_str(),
            "t": decimal(&e.t, 25, Round::Nearest),
            "a": coord(&w.dir.0, &s.a_text, &a),
            "b": coord(&w.dir.1, &s.b_text, &b),
            "accuracy_t": if e.accuracy.is_finite() { Value::from(decimal(&acc, 3, Round::Up)) } else { Value::Null },
            "trace_inside": decimal(&e.trace, 17, Round::Nearest),
            "evaluations": e.evaluations,
            "note": e.note,
        })
    };
    json!({
        "schema": SCHEMA,
        "map": "henon",
        "source": s.source,
        "period": s.period,
        "point": {"a": s.a_text, "b": s.b_text},
        "direction": {"dx": w.dir_text.0, "dy": w.dir_text.1},
        "line": "(a, b) = (a0, b0) + t·(dx, dy)",
        "certified": certified,
        "estimated": {
            "lower": end(&w.ends[0]),
            "upper": end(&w.ends[1]),
            "relative_tolerance_t": format!("{:e}", w.tol.1),
            "bits": w.bits,
            "method": "orbit continuation (Newton on the cyclic system, MPFR); saddle-node: secant on (tr − 1 − det)² with a bisection bracket; period-doubling: Illinois regula falsi on tr + 1 + det; accuracy_t is the final bracket width",
            "status": "estimate (not proved)",
        },
        "timings_ms": {"estimate": format!("{:.1}", w.ms[0]), "certify": format!("{:.1}", w.ms[1])},
    })
}
