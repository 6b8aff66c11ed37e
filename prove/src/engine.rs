//! The proof pipeline for one candidate: refine the orbit, choose the arithmetic, prove
//! existence and uniqueness (Krawczyk), minimal period and stability, cross-check in MPFR, and
//! collect everything a certificate records.
//!
//! Precision is chosen from the measured growth along the orbit ([`crate::orbit::growth`]):
//! f64 intervals first when the estimate says 53 bits can suffice, then expansion intervals,
//! then MPFR (midpoint-radius balls) at the estimated number of bits, raising it by ×1.3 on
//! failure up to `Options::max_bits`. Every attempt is recorded.

use crate::crosscheck::{cross_check, CrossCheck};
use crate::error::{Error, ErrorKind};
use crate::ivl::{ExpIv, F64Iv, Ivl, MpBall, MpIv};
use crate::krawczyk::{prove_existence, Existence};
use crate::orbit::{growth, iterate_orbit, refine, Growth};
use crate::params::{Param, ParamBox};
use crate::stability::{minimal_period, stability, Stability};
use rug::{Float, Rational};
use std::time::Instant;

/// The certificate's name of expansion intervals (bits = 53 × terms).
pub const EXP_KIND: &str = <ExpIv<2> as Ivl>::KIND;

/// A candidate to prove.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Where it came from (`file:line` or `command line`).
    pub source: String,
    /// a as given (decimal or hex text).
    pub a: String,
    /// b as given.
    pub b: String,
    /// Radius of the parameter box around (a, b) (exact, ≥ 0).
    pub radius: Rational,
    /// The period claimed.
    pub period: usize,
    /// One orbit point, x.
    pub x: Float,
    /// One orbit point, y.
    pub y: Float,
    /// Optionally the whole orbit's x-coordinates (x_0 = `x`), when the caller has it.
    pub orbit: Option<Vec<Float>>,
}

/// Knobs of the pipeline.
#[derive(Clone, Debug)]
pub struct Options {
    /// The refined orbit point may differ from the candidate point by at most this much
    /// (max norm); otherwise the candidate is not near the orbit that was found.
    pub max_shift: f64,
    /// Highest precision tried.
    pub max_bits: u32,
    /// ε-inflation steps per attempt.
    pub max_inflations: u32,
    /// Run the MPFR cross-check (the status needs it unless disabled).
    pub cross_check: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_shift: 1e-6,
            max_bits: 1 << 17,
            max_inflations: 10,
            cross_check: true,
        }
    }
}

/// The conclusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A stable periodic orbit of exactly this period, for every parameter in the box.
    Sink,
    /// A periodic orbit of exactly this period that is certainly not attracting.
    PeriodicUnstable,
    /// Nothing established.
    NotProven,
}

impl Status {
    /// The certificate's word for it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Sink => "sink",
            Status::PeriodicUnstable => "periodic-unstable",
            Status::NotProven => "not-proven",
        }
    }
    /// Parses the certificate's word.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "sink" => Some(Status::Sink),
            "periodic-unstable" => Some(Status::PeriodicUnstable),
            "not-proven" => Some(Status::NotProven),
            _ => None,
        }
    }
}

/// One attempt at some arithmetic.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// `f64-interval` or `mpfr-interval`.
    pub kind: &'static str,
    /// Bits of the interval endpoints.
    pub bits: u32,
    /// What happened.
    pub outcome: String,
    /// Milliseconds spent.
    pub ms: f64,
}

/// Everything established about a candidate.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The candidate.
    pub candidate: Candidate,
    /// The conclusion.
    pub status: Status,
    /// Why not proven (or a caveat).
    pub reason: Option<String>,
    /// The parameter box the conclusion holds for.
    pub params: ParamBox,
    /// Arithmetic of the successful attempt.
    pub kind: &'static str,
    /// Bits of the successful attempt.
    pub bits: u32,
    /// Bits of the cyclic solve inside the Krawczyk evaluation (≤ `bits`).
    pub solve_bits: u32,
    /// Bits of the stability enclosure (the solve's when that decided, else `bits`).
    pub stab_bits: u32,
    /// Box centres x̌_i (exact).
    pub centres: Vec<Float>,
    /// Box radii r_i (exact).
    pub radii: Vec<Float>,
    /// Existence outcome of the last attempt.
    pub existence: Option<Existence>,
    /// Minimal-period witnesses (d, i): X_i ∩ X_{i+d} = ∅.
    pub min_period: Result<Vec<(usize, usize)>, usize>,
    /// tr M enclosure [lo, hi].
    pub trace: Option<(Float, Float)>,
    /// det M enclosure [lo, hi].
    pub det: Option<(Float, Float)>,
    /// Stability decision of the main path.
    pub stability: Stability,
    /// The MPFR cross-check.
    pub cross: Option<CrossCheck>,
    /// Newton: bits, iterations, log2 of the last step.
    pub refine: (u32, u32, f64),
    /// Growth estimate.
    pub growth: Growth,
    /// Every attempt.
    pub attempts: Vec<Attempt>,
    /// Milliseconds: refine, existence, stability, cross-check, total.
    pub timings: [f64; 5],
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Working precision of Newton for centres that will be rounded to `bits` bits: Newton's
/// fixed point at q bits is accurate to about 2^(−q)·‖A⁻¹‖ (the banded solve of
/// [`crate::orbit::refine`] does not lose bits with the period), so 64 bits beyond the centres
/// leave the rounding of the centres as what the proof sees.
fn newton_bits(bits: u32) -> u32 {
    bits + 64
}

fn check_candidate(c: &Candidate) -> Result<(), Error> {
    let bad = |m: String| Error::new(ErrorKind::BadCandidate, format!("{}: {m}", c.source));
    if c.period == 0 {
        return Err(bad("period must be at least 1".into()));
    }
    if !c.x.is_finite() || !c.y.is_finite() {
        return Err(bad("orbit point is not finite".into()));
    }
    if c.radius < 0 {
        return Err(bad("negative parameter radius".into()));
    }
    if let Some(o) = &c.orbit {
        if o.len() != c.period || o.iter().any(|v| !v.is_finite()) {
            return Err(bad(
                "orbit guess has the wrong length or is not finite".into()
            ));
        }
    }
    Ok(())
}

struct AttemptResult {
    existence: Existence,
    solve_bits: u32,
    stab_bits: u32,
    min_period: Result<Vec<(usize, usize)>, usize>,
    trace: Option<(Float, Float)>,
    det: Option<(Float, Float)>,
    stability: Stability,
    centres: Vec<Float>,
    radii: Vec<Float>,
    t_exist: f64,
    t_stab: f64,
}

fn attempt<S: Ivl>(
    xr: &[Float],
    pb: &ParamBox,
    prec: u32,
    solve_prec: u32,
    opts: &Options,
) -> AttemptResult {
    let centres: Vec<Float> = xr.iter().map(|v| Float::with_val(prec, v)).collect();
    let t = Instant::now();
    // For long orbits (MPFR), try one evaluation at the expected radius first.
    let hint = (S::KIND == MpIv::KIND && prec >= 512).then(|| {
        let mut h = Float::with_val(53, 1);
        h >>= prec / 2;
        h
    });
    let existence = prove_existence::<S>(
        &centres,
        pb,
        prec,
        solve_prec,
        opts.max_inflations,
        hint.as_ref(),
    );
    let t_exist = ms(t);
    let t = Instant::now();
    let mut out = AttemptResult {
        existence: existence.clone(),
        min_period: Err(0),
        trace: None,
        det: None,
        stability: Stability::Undecided,
        centres,
        radii: Vec::new(),
        t_exist,
        t_stab: 0.0,
        solve_bits: solve_prec.min(prec),
        stab_bits: prec,
    };
    if let Existence::Proved { radii, .. } = &existence {
        out.min_period = minimal_period::<S>(&out.centres, radii, prec);
        // Stability at the solve's precision first: the boxes X_i, rounded outward to it, have
        // radii near 2^(−prec/2) ≫ 2^(−solve_prec), so the enclosure is as good and (same
        // operations, lower precision, outward rounding) contains the full-precision one that
        // `verify` recomputes. At the full precision only when it cannot decide.
        out.stab_bits = solve_prec.min(prec);
        let mut st = stability::<S>(&out.centres, radii, pb, out.stab_bits);
        if st.decision == Stability::Undecided && out.stab_bits < prec {
            out.stab_bits = prec;
            st = stability::<S>(&out.centres, radii, pb, prec);
        }
        out.trace = Some((st.trace.lo(), st.trace.hi()));
        out.det = Some((st.det.lo(), st.det.hi()));
        out.stability = st.decision;
        out.radii = radii.clone();
    }
    out.t_stab = ms(t);
    out
}

/// Runs the whole pipeline on one candidate. Errors only for unusable input; a candidate that
/// cannot be proved gives `Ok` with [`Status::NotProven`] and a reason.
pub fn prove(c: &Candidate, opts: &Options) -> Result<Proof, Error> {
    check_candidate(c)?;
    let bad = |e: Error| {
        Error::new(
            ErrorKind::BadCandidate,
            format!("{}: {}", c.source, e.message),
        )
    };
    let pa = Param::new(&c.a, &c.radius, 4096).map_err(bad)?;
    let pbb = Param::new(&c.b, &c.radius, 4096).map_err(bad)?;
    prove_with_params(c, &ParamBox { a: pa, b: pbb }, opts)
}

/// As [`prove`], for an explicit parameter box (each parameter with its own exact value and
/// radius, e.g. a segment of a line in the parameter plane enclosed by a box): `c.a`, `c.b`
/// and `c.radius` are ignored, the box's centre is where the orbit is refined.
pub fn prove_with_params(c: &Candidate, params: &ParamBox, opts: &Options) -> Result<Proof, Error> {
    check_candidate(c)?;
    let t_all = Instant::now();
    let p = c.period;
    let pb_hi = params.at_prec(4096);
    // Initial guess and growth estimate.
    let guess: Vec<Float> = match &c.orbit {
        Some(o) => o.clone(),
        None => {
            let prec = 128 + p as u32;
            iterate_orbit(&pb_hi.a.centre, &pb_hi.b.centre, &c.x, &c.y, p, prec)
        }
    };
    let gf: Vec<f64> = guess.iter().map(|v| v.to_f64()).collect();
    let gr = growth(&gf, pb_hi.a.approx(), pb_hi.b.approx());
    // Measured: the existence proof needs about 1.5–2 × (l1 + l2) bits (MATH.md §4.1: r must
    // be below 1/(2a·Γ) while the residual is amplified by Γ ≈ 2^(l1 + l2)).
    let est = (2.1 * (gr.l1 + gr.l2)).ceil() as u32 + 64;
    // f64 intervals, then expansion intervals (2 to 4 terms), then MPFR.
    let mut plan: Vec<(&'static str, u32)> = Vec::new();
    if est <= 120 {
        plan.push((F64Iv::KIND, 53));
    }
    if est <= 212 + 64 {
        for n in 2..=4u32 {
            if 53 * n + 64 >= est {
                plan.push((EXP_KIND, 53 * n));
                if plan.len() >= 3 {
                    break;
                }
            }
        }
    }
    let mut attempts = Vec::new();
    let mut t_refine = 0.0;
    let mut refine_info = (0u32, 0u32, 0.0f64);
    let mut xr = guess.clone();
    // MPFR: the estimated precision, then ×1.3 steps on failure. log₂ Γ, the amplification of
    // the interval cyclic solve (|A⁻¹w| ≈ Γ·|w| for a box w of right-hand sides), is what the
    // f64 growth pass measures as l1 + l2: a direct measurement (one Krawczyk evaluation with
    // zero radii, formerly run first) agreed with it to within 2 bits at periods 100, 1000 and
    // 10 000 near (1.4, 0.3). The proof needs about 2·log₂ Γ bits (residual Γ·2^(−P) below r,
    // and Γ·r below 1).
    let lg = gr.l1 + gr.l2;
    let mp_start = est.max(256);
    let mut b = mp_start as f64;
    while b <= opts.max_bits as f64 && plan.len() < 6 {
        plan.push((MpIv::KIND, (b as u32).div_ceil(32) * 32));
        b *= 1.3;
    }
    let mut last: Option<(AttemptResult, &'static str, u32, ParamBox)> = None;
    let mut reason: Option<String> = None;
    for (kind, bits) in plan {
        let t = Instant::now();
        let nbits = newton_bits(bits);
        let r = refine(
            &xr,
            &pb_hi.a.at_prec(nbits).centre,
            &pb_hi.b.at_prec(nbits).centre,
            nbits,
        );
        t_refine += ms(t);
        let Some(r) = r else {
            reason = Some("Newton's method did not converge from the candidate".into());
            attempts.push(Attempt {
                kind,
                bits,
                outcome: "refinement diverged".into(),
                ms: ms(t),
            });
            break;
        };
        refine_info = (nbits, r.iterations, r.last_step_log2);
        if !r.converged {
            reason = Some(format!(
                "Newton's method did not converge at {nbits} bits (last step 2^{:.1})",
                r.last_step_log2
            ));
            attempts.push(Attempt {
                kind,
                bits,
                outcome: "refinement did not converge".into(),
                ms: ms(t),
            });
            break;
        }
        xr = r.x;
        // The refined orbit must pass near the candidate point.
        let dx = Float::with_val(64, &xr[0] - &c.x).abs().to_f64();
        let yl = Float::with_val(nbits, &pb_hi.b.centre * &xr[p - 1]);
        let dy = Float::with_val(64, yl - &c.y).abs().to_f64();
        if !(dx.max(dy) <= opts.max_shift) {
            reason = Some(format!(
                "the periodic orbit found is {:.3e} away from the candidate point (limit {:.1e}, see --max-shift): the candidate is not on a period-{p} orbit",
                dx.max(dy),
                opts.max_shift
            ));
            attempts.push(Attempt {
                kind,
                bits,
                outcome: "candidate off orbit".into(),
                ms: ms(t),
            });
            break;
        }
        let pb = pb_hi.at_prec(bits);
        let t = Instant::now();
        // The cyclic solve needs about log₂ Γ + margin bits (krawczyk::eval_split), the
        // centres and the residual the full `bits`; later attempts (×1.3) scale it with the
        // precision.
        let sbits = if kind == MpIv::KIND && est > 212 + 64 {
            let scale = bits as f64 / mp_start as f64;
            (((1.1 * lg + 96.0) * scale) as u32).div_ceil(32) * 32
        } else {
            bits
        }
        .min(bits);
        let res = match (kind, bits) {
            (k, _) if k == F64Iv::KIND => attempt::<F64Iv>(&xr, &pb, bits, bits, opts),
            (k, 106) if k == EXP_KIND => attempt::<ExpIv<2>>(&xr, &pb, bits, bits, opts),
            (k, 159) if k == EXP_KIND => attempt::<ExpIv<3>>(&xr, &pb, bits, bits, opts),
            (k, 212) if k == EXP_KIND => attempt::<ExpIv<4>>(&xr, &pb, bits, bits, opts),
            // MPFR numbers as midpoint-radius balls (one long product per interval product);
            // `verify` recomputes with endpoint intervals (`MpIv`).
            _ => attempt::<MpBall>(&xr, &pb, bits, sbits, opts),
        };
        let outcome = match &res.existence {
            Existence::Proved {
                contraction,
                inflations,
                ..
            } => {
                if res.min_period.is_err() {
                    format!("existence proved (contraction {contraction:.3e}, {inflations} inflations); minimal period not shown")
                } else {
                    format!("existence proved (contraction {contraction:.3e}, {inflations} inflations); stability {:?}", res.stability)
                }
            }
            Existence::NoZero { reason } => format!("no zero: {reason}"),
            Existence::Undecided { reason } => format!("undecided: {reason}"),
        };
        let outcome = if kind == MpIv::KIND && sbits < bits {
            format!("{outcome} [cyclic solve at {sbits} bits]")
        } else {
            outcome
        };
        attempts.push(Attempt {
            kind,
            bits,
            outcome: outcome.clone(),
            ms: ms(t),
        });
        let done = match &res.existence {
            Existence::Proved { .. } => {
                res.min_period.is_err() || res.stability != Stability::Undecided
            }
            Existence::NoZero { .. } => true,
            Existence::Undecided { .. } => false,
        };
        reason = Some(outcome);
        last = Some((res, kind, bits, pb));
        if done {
            break;
        }
    }
    let t_cc = Instant::now();
    let mut proof = Proof {
        candidate: c.clone(),
        status: Status::NotProven,
        reason,
        params: pb_hi.at_prec(53),
        kind: F64Iv::KIND,
        bits: 53,
        solve_bits: 53,
        stab_bits: 53,
        centres: Vec::new(),
        radii: Vec::new(),
        existence: None,
        min_period: Err(0),
        trace: None,
        det: None,
        stability: Stability::Undecided,
        cross: None,
        refine: refine_info,
        growth: gr,
        attempts,
        timings: [t_refine, 0.0, 0.0, 0.0, 0.0],
    };
    if let Some((res, kind, bits, pb)) = last {
        proof.timings[1] = res.t_exist;
        proof.timings[2] = res.t_stab;
        proof.params = pb;
        proof.kind = kind;
        proof.bits = bits;
        proof.solve_bits = res.solve_bits;
        proof.stab_bits = res.stab_bits;
        proof.centres = res.centres;
        proof.radii = res.radii;
        proof.existence = Some(res.existence.clone());
        proof.min_period = res.min_period.clone();
        proof.trace = res.trace;
        proof.det = res.det;
        proof.stability = res.stability;
        if let Existence::Proved { .. } = res.existence {
            if let Err(d) = res.min_period {
                proof.reason = Some(format!(
                    "an orbit exists in the boxes but its minimal period may be {d} (boxes X_i and X_(i+{d}) overlap for every i)"
                ));
            } else if res.stability == Stability::Undecided {
                proof.reason = Some(
                    "existence proved but the trace enclosure straddles the Jury boundary".into(),
                );
            } else {
                let main = if res.stability == Stability::Attracting {
                    Status::Sink
                } else {
                    Status::PeriodicUnstable
                };
                if opts.cross_check {
                    // Direct shooting needs about as many bits as the main proof (r below
                    // 2^−(l1+l2), residual amplified by 2^(l1+l2)); raised by ×1.3 up to twice that on failure.
                    let mut ccbits = bits.max(128);
                    let mut cc;
                    loop {
                        let pbc = pb_hi.at_prec(ccbits);
                        cc = cross_check::<MpBall>(
                            &proof.centres[0],
                            &proof.centres[p - 1],
                            p,
                            &pbc,
                            ccbits,
                        );
                        if cc.proved || ccbits >= 2 * bits.max(128) {
                            break;
                        }
                        ccbits = (ccbits * 13 / 10).div_ceil(32) * 32;
                    }
                    let agree = cc.proved && cc.decision == res.stability;
                    if agree {
                        proof.status = main;
                        proof.reason = None;
                    } else {
                        proof.reason = Some(format!(
                            "the MPFR cross-check did not confirm ({})",
                            cc.reason
                                .clone()
                                .unwrap_or_else(|| format!("decision {:?}", cc.decision))
                        ));
                    }
                    proof.cross = Some(cc);
                } else {
                    proof.status = main;
                    proof.reason = None;
                }
            }
        }
    }
    proof.timings[3] = ms(t_cc);
    proof.timings[4] = ms(t_all);
    Ok(proof)
}
