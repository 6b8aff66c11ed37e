//! Tanh-sinh quadrature in MPFR at hundreds of digits (seed 000 §5.3, Table 4).
//!
//! **Method.** On [−1, 1] the substitution x = tanh(π/2·sinh τ) turns ∫ f(x) dx into
//! ∫ f(x(τ)) w(τ) dτ with w(τ) = (π/2)·cosh τ / cosh²(π/2·sinh τ), a weight that decays
//! double-exponentially, so the trapezoidal rule in τ with step h = 2^−k converges
//! exponentially in 1/h even for integrands with endpoint singularities (Takahasi–Mori;
//! Bailey, Jeyabalan, Li 2005). Level k adds the nodes τ = j·h with j odd (level 1: every j),
//! so each level reuses every evaluation of the levels before it.
//!
//! **The table** ([`Table`]) holds, per level, the nodes τ ≥ 0 as pairs (c, w) with
//! c = 1 − x = 2/(e^{2u} + 1), u = π/2·sinh τ: the complement is computed directly from its own
//! formula, never as 1 − x, so points at distance 10^−1000 from an endpoint keep full relative
//! precision (that is what makes ∫ √t·ln t and ∫ ln cos t work: the integrand is handed the
//! distance to each end as well as the point). The table is truncated where
//! w < 2^−(p+16) at working precision p, is built once per precision (level by level, as the
//! problems need) and serves every problem at that precision. Nodes are computed in parallel.
//!
//! **Intervals.** [a, b]: t = a + (b−a)/2·c on the left half and t = b − (b−a)/2·c on the
//! right, with distances t − a and b − t both formed without cancellation. [0, ∞): the map
//! t = s/(1 − s), s = (1 + x)/2, so t = 2/c − 1 (right half) or c/(2 − c) (left half), with
//! Jacobian 4/c² or 4/(2 − c)².
//!
//! **Stopping.** S_k is the estimate at level k. With d₁ = log₁₀|S_k − S_{k−1}| and
//! d₂ = log₁₀|S_k − S_{k−2}|, the error of S_k is estimated as 10^max(d₁²/d₂, 2d₁) (each level
//! roughly doubles the number of correct digits; Bailey's estimate); the level loop stops when
//! this is below 10^−D·|S_k| for D requested digits. Sums of a level are correctly rounded MPFR
//! sums ([`Float::sum`]) of per-node terms computed in parallel, so the result does not depend
//! on the number of threads.
//!
//! **Known answers**: the closed forms of Table 4, evaluated in MPFR 64 bits above the working
//! precision.
//!
//! **The limb floats, on the CPU and the GPU** ([`integrate_limb`]). The same table, each
//! level's nodes converted exactly to `expanse_core::limb` arrays; the per-node term is
//! computed in the fixed-limb floats with their exp, ln, sin and cos
//! (`expanse_core::limb::functions`) by `expanse_gpu::limb_quad`: one GPU thread per node
//! (kernel `limb_quad_<L>`), or on all CPU cores (rayon) by the CPU reference, the same
//! formulas as the MPFR path above in the same order of operations, bit-identical on both.
//! The terms of a level are summed on the host in node order (one rounding per addition), so
//! the whole run — every level's estimate, the stopping decision, the value — is the same on
//! GPU and CPU; with a GPU both run and every term is compared. The MPFR path stays the
//! independent reference; both are checked against the closed forms.

use expanse_core::limb::{AnyLimbFloat, Round};
use expanse_gpu::limb::LimbArrays;
use expanse_gpu::limb_quad::{cpu_quad_terms, fn_capacity};
use expanse_gpu::GpuContext;
use rayon::prelude::*;
use rug::float::Constant;
use rug::Float;
use std::time::Instant;

/// One node of the table: c = 1 − x (x the abscissa in [0, 1)) and the weight w(τ)
/// (to be multiplied by the step h).
#[derive(Clone, Debug)]
pub struct Node {
    /// 1 − x, computed directly (full relative precision near the endpoint).
    pub c: Float,
    /// The weight w(τ) = (π/2)·cosh τ / cosh²(π/2·sinh τ); halved for τ = 0, whose two mirror
    /// points coincide.
    pub w: Float,
}

/// The abscissa–weight table of one working precision, grown level by level.
#[derive(Debug)]
pub struct Table {
    prec: u32,
    tmax: f64,
    levels: Vec<Vec<Node>>,
    /// The levels' nodes as limb arrays (c, w), converted on first use.
    limb_levels: Vec<(LimbArrays, LimbArrays)>,
    /// Seconds spent building the levels so far.
    pub build_seconds: f64,
}

/// Working precision in bits for `digits` decimal digits (40 guard bits).
pub fn working_prec(digits: u32) -> u32 {
    (f64::from(digits) * std::f64::consts::LOG2_10).ceil() as u32 + 40
}

impl Table {
    /// An empty table for working precision `prec` bits; the truncation point τ_max is where
    /// the weight drops below 2^−(prec+16).
    pub fn new(prec: u32) -> Self {
        let target = -(f64::from(prec) + 16.0) * std::f64::consts::LN_2;
        let ln_cosh = |u: f64| u.abs() + (-2.0 * u.abs()).exp().ln_1p() - std::f64::consts::LN_2;
        let ln_w = |t: f64| {
            (std::f64::consts::FRAC_PI_2).ln() + ln_cosh(t)
                - 2.0 * ln_cosh(std::f64::consts::FRAC_PI_2 * t.sinh())
        };
        let mut tmax = 0.0;
        while ln_w(tmax) > target {
            tmax += 1.0 / 64.0;
        }
        Table {
            prec,
            tmax,
            levels: Vec::new(),
            limb_levels: Vec::new(),
            build_seconds: 0.0,
        }
    }

    /// Working precision in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// Largest τ of the table.
    pub fn tmax(&self) -> f64 {
        self.tmax
    }

    /// Number of levels built.
    pub fn levels_built(&self) -> usize {
        self.levels.len()
    }

    /// Total number of nodes (τ ≥ 0) built.
    pub fn nodes(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    /// The nodes added at level `k` (1-based), building the levels up to `k` if needed.
    pub fn level(&mut self, k: usize) -> &[Node] {
        while self.levels.len() < k {
            let start = Instant::now();
            let next = self.levels.len() + 1;
            let nodes = self.build_level(next);
            self.levels.push(nodes);
            self.build_seconds += start.elapsed().as_secs_f64();
        }
        &self.levels[k - 1]
    }

    /// The nodes added at level `k` as limb arrays (c, w) at the table's precision (exact
    /// conversions), building the levels up to `k` if needed.
    pub fn limb_level(&mut self, k: usize) -> (&LimbArrays, &LimbArrays) {
        while self.limb_levels.len() < k {
            let next = self.limb_levels.len() + 1;
            let prec = self.prec;
            let nodes = self.level(next);
            let conv = |f: &dyn Fn(&Node) -> &Float| {
                let xs: Vec<AnyLimbFloat> = nodes
                    .iter()
                    .map(|n| AnyLimbFloat::from_rug(f(n), prec, Round::Nearest).0)
                    .collect();
                LimbArrays::pack(&xs, prec)
            };
            let pair = (conv(&|n| &n.c), conv(&|n| &n.w));
            self.limb_levels.push(pair);
        }
        let (c, w) = &self.limb_levels[k - 1];
        (c, w)
    }

    fn build_level(&self, k: usize) -> Vec<Node> {
        let prec = self.prec;
        let scale = 1u64 << k; // τ = j / 2^k
        let jmax = (self.tmax * scale as f64).floor() as u64;
        let js: Vec<u64> = if k == 1 {
            (0..=jmax).collect()
        } else {
            (1..=jmax).step_by(2).collect()
        };
        js.par_iter()
            .map(|&j| {
                let half_pi = Float::with_val(prec, Constant::Pi) / 2u32;
                if j == 0 {
                    // x = 0, c = 1; the weight π/2 is halved since both mirror points are x = 0.
                    return Node {
                        c: Float::with_val(prec, 1u32),
                        w: half_pi / 2u32,
                    };
                }
                let tau = Float::with_val(prec, j) / scale;
                let et = tau.exp();
                let inv = Float::with_val(prec, 1u32) / &et;
                let sinh = Float::with_val(prec, &et - &inv) / 2u32;
                let cosh = Float::with_val(prec, &et + &inv) / 2u32;
                let u = Float::with_val(prec, &half_pi * &sinh);
                let eu = u.exp();
                let e2u = Float::with_val(prec, eu.square_ref());
                // c = 1 − tanh u = 2/(e^{2u} + 1); cosh u = (e^u + e^−u)/2.
                let c = Float::with_val(prec, 2u32) / (e2u + 1u32);
                let inv_eu = Float::with_val(prec, 1u32) / &eu;
                let cosh_u = Float::with_val(prec, &eu + &inv_eu) / 2u32;
                let w = half_pi * cosh / cosh_u.square();
                Node { c, w }
            })
            .collect()
    }
}

/// The interval of integration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interval {
    /// [0, π/2] (its upper end rounded to the working precision).
    ZeroToHalfPi,
    /// [0, 1].
    ZeroToOne,
    /// [0, ∞).
    ZeroToInfinity,
}

/// The five problems of seed 000 Table 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// ∫₀^{π/2} eᵗ cos t dt = (e^{π/2} − 1)/2.
    ExpCos,
    /// ∫₀¹ √t ln t dt = −4/9.
    SqrtLog,
    /// ∫₀^{π/2} ln cos t dt = −π ln 2 / 2.
    LogCos,
    /// ∫₀^∞ e^{−t²/2} dt = √(π/2).
    Gauss,
    /// ∫₀^∞ e^{−t} cos t dt = 1/2.
    ExpDecayCos,
}

/// All five problems, in the order of Table 4.
pub const PROBLEMS: [Problem; 5] = [
    Problem::ExpCos,
    Problem::SqrtLog,
    Problem::LogCos,
    Problem::Gauss,
    Problem::ExpDecayCos,
];

impl Problem {
    /// Table 4's problem number (1..5).
    pub fn id(self) -> u32 {
        match self {
            Problem::ExpCos => 1,
            Problem::SqrtLog => 2,
            Problem::LogCos => 3,
            Problem::Gauss => 4,
            Problem::ExpDecayCos => 5,
        }
    }

    /// The integral in words.
    pub fn formula(self) -> &'static str {
        match self {
            Problem::ExpCos => "int_0^{pi/2} e^t cos t dt = (e^{pi/2} - 1)/2",
            Problem::SqrtLog => "int_0^1 sqrt(t) ln t dt = -4/9",
            Problem::LogCos => "int_0^{pi/2} ln cos t dt = -pi ln 2 / 2",
            Problem::Gauss => "int_0^inf e^{-t^2/2} dt = sqrt(pi/2)",
            Problem::ExpDecayCos => "int_0^inf e^{-t} cos t dt = 1/2",
        }
    }

    /// The interval of integration.
    pub fn interval(self) -> Interval {
        match self {
            Problem::ExpCos | Problem::LogCos => Interval::ZeroToHalfPi,
            Problem::SqrtLog => Interval::ZeroToOne,
            Problem::Gauss | Problem::ExpDecayCos => Interval::ZeroToInfinity,
        }
    }

    /// The integrand at t, given also `to_b` = b − t formed without cancellation (unused on
    /// [0, ∞)). cos t is evaluated as sin(π/2 − t) = sin(to_b), exact near the upper end.
    fn eval(self, t: &Float, to_b: &Float, prec: u32) -> Float {
        match self {
            Problem::ExpCos => Float::with_val(prec, t.exp_ref()) * to_b.clone().sin(),
            Problem::SqrtLog => {
                if t.is_zero() {
                    return Float::new(prec);
                }
                Float::with_val(prec, t.sqrt_ref()) * Float::with_val(prec, t.ln_ref())
            }
            Problem::LogCos => Float::with_val(prec, to_b.sin_ref()).ln(),
            Problem::Gauss => {
                let x = Float::with_val(prec, t.square_ref()) / 2u32;
                (-x).exp()
            }
            Problem::ExpDecayCos => {
                let e = Float::with_val(prec, -t.clone()).exp();
                if e.is_zero() {
                    return e; // e^{−t} underflowed: the product is 0, skip cos of a huge t
                }
                e * Float::with_val(prec, t.cos_ref())
            }
        }
    }

    /// The closed form, at `prec` bits.
    pub fn exact(self, prec: u32) -> Float {
        let pi = Float::with_val(prec, Constant::Pi);
        match self {
            Problem::ExpCos => (Float::with_val(prec, &pi / 2u32).exp() - 1u32) / 2u32,
            Problem::SqrtLog => Float::with_val(prec, -4) / 9u32,
            Problem::LogCos => -(pi * Float::with_val(prec, Constant::Log2)) / 2u32,
            Problem::Gauss => (pi / 2u32).sqrt(),
            Problem::ExpDecayCos => Float::with_val(prec, 0.5),
        }
    }

    /// The node's contribution w·(f(left point) + f(right point)) (times the Jacobian of the
    /// interval's map), without the step h.
    fn node_term(self, node: &Node, prec: u32) -> Float {
        let two_minus_c = Float::with_val(prec, 2u32 - &node.c);
        match self.interval() {
            Interval::ZeroToHalfPi | Interval::ZeroToOne => {
                let len = match self.interval() {
                    Interval::ZeroToHalfPi => Float::with_val(prec, Constant::Pi) / 2u32,
                    _ => Float::with_val(prec, 1u32),
                };
                let half = Float::with_val(prec, &len / 2u32);
                let near = Float::with_val(prec, &half * &node.c); // distance to the near end
                let far = Float::with_val(prec, &half * &two_minus_c); // distance to the far end
                                                                       // Left point: t = near, b − t = far. Right point: t = far, b − t = near.
                let fl = self.eval(&near, &far, prec);
                let fr = self.eval(&far, &near, prec);
                (fl + fr) * &node.w * half
            }
            Interval::ZeroToInfinity => {
                let inf = Float::with_val(prec, rug::float::Special::Infinity);
                // Right half: t = 2/c − 1, dt/ds = 4/c²; left half: t = c/(2 − c),
                // dt/ds = 4/(2 − c)²; ds/dx = 1/2.
                let t_r = Float::with_val(prec, 2u32 / &node.c) - 1u32;
                let t_l = Float::with_val(prec, &node.c / &two_minus_c);
                let fr = self.eval(&t_r, &inf, prec);
                let fl = self.eval(&t_l, &inf, prec);
                let jr = if fr.is_zero() {
                    Float::new(prec)
                } else {
                    fr * Float::with_val(prec, 4u32 / Float::with_val(prec, node.c.square_ref()))
                };
                let jl = fl * Float::with_val(prec, 4u32 / two_minus_c.square());
                (jr + jl) * &node.w / 2u32
            }
        }
    }
}

/// The outcome of one integral.
#[derive(Clone, Debug)]
pub struct QuadResult {
    /// The problem.
    pub problem: Problem,
    /// Requested decimal digits.
    pub digits: u32,
    /// The quadrature value.
    pub value: Float,
    /// The closed form.
    pub exact: Float,
    /// Levels used (the last one is the accepted level).
    pub levels: usize,
    /// The estimate at each level.
    pub per_level: Vec<Float>,
    /// Estimated error, as log₁₀ of the relative error (from successive levels).
    pub est_log10_err: f64,
    /// Correct digits against the closed form: −log₁₀|value − exact|/|exact| (capped at the
    /// working precision's digits).
    pub correct_digits: f64,
    /// Integrand evaluations.
    pub evaluations: usize,
    /// Seconds for the evaluations and sums (the table excluded).
    pub seconds: f64,
}

/// log₁₀|x| of a non-zero MPFR number, also beyond the range of f64.
fn log10_abs(x: &Float) -> f64 {
    let (m, e) = x.to_f64_exp();
    m.abs().log10() + f64::from(e) * std::f64::consts::LOG10_2
}

/// Integrates `problem` to `digits` decimal digits with the table (grown as needed, up to
/// `max_levels` levels), in MPFR.
pub fn integrate(
    problem: Problem,
    digits: u32,
    table: &mut Table,
    max_levels: usize,
) -> QuadResult {
    let prec = table.prec();
    let mpfr_level = |table: &mut Table, k: usize, raw: &Float| -> Result<Float, String> {
        let terms: Vec<Float> = table
            .level(k)
            .par_iter()
            .map(|n| problem.node_term(n, prec))
            .collect();
        let mut r = raw.clone();
        r += Float::with_val(prec, Float::sum(terms.iter()));
        Ok(r)
    };
    match integrate_core(problem, digits, table, max_levels, mpfr_level) {
        Ok(r) => r,
        Err(e) => unreachable!("the MPFR path has no errors: {e}"),
    }
}

/// The level loop shared by the MPFR and limb paths: `level_sum(table, k, raw)` returns raw
/// plus the sum of level k's terms (raw: Σ w·f over the nodes so far, without h).
fn integrate_core(
    problem: Problem,
    digits: u32,
    table: &mut Table,
    max_levels: usize,
    mut level_sum: impl FnMut(&mut Table, usize, &Float) -> Result<Float, String>,
) -> Result<QuadResult, String> {
    let prec = table.prec();
    let start_build = table.build_seconds;
    let start = Instant::now();
    let mut raw = Float::new(prec); // Σ over all nodes so far of w·f, without h
    let mut per_level: Vec<Float> = Vec::new();
    let mut evaluations = 0usize;
    let mut est = 0.0f64;
    let goal = -f64::from(digits);
    for k in 1..=max_levels {
        raw = level_sum(table, k, &raw)?;
        evaluations += 2 * table.level(k).len();
        let s = Float::with_val(prec, &raw >> (k as u32)); // h = 2^−k
        per_level.push(s.clone());
        if k >= 3 {
            let sk = &per_level[k - 1];
            let d1 = Float::with_val(prec, sk - &per_level[k - 2]);
            let d2 = Float::with_val(prec, sk - &per_level[k - 3]);
            let scale = log10_abs(sk);
            let floor = -f64::from(prec) * std::f64::consts::LOG10_2;
            est = if d1.is_zero() {
                floor
            } else {
                let l1 = log10_abs(&d1) - scale;
                let l2 = if d2.is_zero() {
                    floor
                } else {
                    log10_abs(&d2) - scale
                };
                let quad = if l2 < 0.0 { l1 * l1 / l2 } else { l1 };
                quad.max(2.0 * l1).max(floor)
            };
            if est <= goal {
                break;
            }
        }
    }
    let build = table.build_seconds - start_build;
    let seconds = start.elapsed().as_secs_f64() - build;
    let value = per_level
        .last()
        .cloned()
        .unwrap_or_else(|| Float::new(prec));
    let exact = problem.exact(prec + 64);
    let err = Float::with_val(prec + 64, &value - &exact);
    let cap = f64::from(prec) * std::f64::consts::LOG10_2;
    let correct_digits = if err.is_zero() {
        cap
    } else {
        (log10_abs(&exact) - log10_abs(&err)).min(cap)
    };
    Ok(QuadResult {
        problem,
        digits,
        value,
        exact,
        levels: per_level.len(),
        per_level,
        est_log10_err: est,
        correct_digits,
        evaluations,
        seconds,
    })
}

/// The outcome of one integral in the limb floats.
#[derive(Clone, Debug)]
pub struct LimbQuadResult {
    /// The result (value, levels, correct digits); `seconds` covers everything but the
    /// table, both backends included.
    pub result: QuadResult,
    /// Nodes evaluated (each: the integrand at two points).
    pub nodes: usize,
    /// Seconds in the GPU kernel calls (uploads and downloads included), when the GPU ran.
    pub gpu_seconds: Option<f64>,
    /// Seconds of the CPU term evaluations (all cores), when the CPU ran.
    pub cpu_seconds: Option<f64>,
    /// Terms compared between GPU and CPU (0 unless both ran).
    pub compared: usize,
    /// Terms that differ between GPU and CPU in any bit.
    pub mismatches: usize,
}

/// The sum raw + Σ terms in node order, each addition rounded to nearest at `prec`.
fn limb_sum(raw: &Float, terms: &LimbArrays, prec: u32) -> Result<Float, String> {
    let mut acc = AnyLimbFloat::from_rug(raw, prec, Round::Nearest).0;
    for i in 0..terms.count {
        let t = terms
            .get(i)
            .ok_or_else(|| format!("term {i} is not a valid limb float"))?;
        acc = AnyLimbFloat::add_prec(&acc, &t, prec, Round::Nearest).0;
    }
    Ok(acc.to_rug())
}

/// Whether element i of two term arrays is the same number bit for bit.
fn same_element(a: &LimbArrays, b: &LimbArrays, i: usize) -> bool {
    let n = a.prec.div_ceil(64) as usize;
    a.kinds[i] == b.kinds[i]
        && a.exps[i] == b.exps[i]
        && (0..n).all(|j| a.limbs[j * a.count + i] == b.limbs[j * b.count + i])
}

/// Integrates `problem` as [`integrate`] does, but with the node terms in the limb floats:
/// on the GPU when `gpu` is given, on all CPU cores when `cpu` is set (both: every term is
/// compared, and the GPU's are summed); an error when neither is asked for, the precision has
/// no limb kernels, or the GPU fails.
pub fn integrate_limb(
    problem: Problem,
    digits: u32,
    table: &mut Table,
    max_levels: usize,
    gpu: Option<&GpuContext>,
    cpu: bool,
) -> Result<LimbQuadResult, String> {
    if gpu.is_none() && !cpu {
        return Err("neither the GPU nor the CPU was asked to run".into());
    }
    let prec = table.prec();
    if fn_capacity(prec).is_none() {
        return Err(format!("no limb kernels for {prec} bits"));
    }
    let id = problem.id();
    let (mut gpu_s, mut cpu_s) = (0.0f64, 0.0f64);
    let (mut nodes, mut compared, mut mismatches) = (0usize, 0usize, 0usize);
    let level = |table: &mut Table, k: usize, raw: &Float| -> Result<Float, String> {
        let (c, w) = table.limb_level(k);
        nodes += c.count;
        let g = match gpu {
            Some(ctx) => {
                let t = Instant::now();
                let g = ctx
                    .limb_quad_terms(id, c, w)
                    .map_err(|e| format!("GPU: {e}"))?;
                gpu_s += t.elapsed().as_secs_f64();
                Some(g)
            }
            None => None,
        };
        let h = if cpu {
            let t = Instant::now();
            let h = cpu_quad_terms(id, c, w).map_err(|e| format!("CPU: {e}"))?;
            cpu_s += t.elapsed().as_secs_f64();
            Some(h)
        } else {
            None
        };
        if let (Some(g), Some(h)) = (&g, &h) {
            compared += g.count;
            mismatches += (0..g.count).filter(|&i| !same_element(g, h, i)).count();
        }
        let terms = g.or(h).expect("one backend ran");
        limb_sum(raw, &terms, prec)
    };
    let result = integrate_core(problem, digits, table, max_levels, level)?;
    Ok(LimbQuadResult {
        result,
        nodes,
        gpu_seconds: gpu.map(|_| gpu_s),
        cpu_seconds: cpu.then_some(cpu_s),
        compared,
        mismatches,
    })
}

/// A run of all five problems at one precision.
#[derive(Debug)]
pub struct PrecisionRun {
    /// Requested decimal digits.
    pub digits: u32,
    /// Working precision in bits.
    pub prec: u32,
    /// Seconds to build the table (all levels used by any problem).
    pub table_seconds: f64,
    /// Nodes in the table (τ ≥ 0).
    pub table_nodes: usize,
    /// One result per problem.
    pub results: Vec<QuadResult>,
}

/// Integrates the five problems at `digits` digits with one table.
pub fn run_precision(digits: u32, max_levels: usize) -> PrecisionRun {
    let prec = working_prec(digits);
    let mut table = Table::new(prec);
    let results = PROBLEMS
        .iter()
        .map(|&p| integrate(p, digits, &mut table, max_levels))
        .collect();
    PrecisionRun {
        digits,
        prec,
        table_seconds: table.build_seconds,
        table_nodes: table.nodes(),
        results,
    }
}

/// `x` in decimal with `digits` significant digits (scientific notation).
pub fn decimal(x: &Float, digits: u32) -> String {
    x.to_string_radix(10, Some(digits as usize))
}

/// The exponent check of a result: ≥ `min_digits` correct digits.
pub fn passes(r: &QuadResult, min_digits: f64) -> bool {
    r.correct_digits >= min_digits
}

/// Maximum number of levels tried (h = 2^−16).
pub const MAX_LEVELS: usize = 16;

/// Nodes per second, or 0 when nothing was timed.
fn rate(nodes: usize, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

/// Runs the application: every problem at each of `digits_list` digits in MPFR (the
/// reference) and in the limb floats — on `gpu` when given and always on all CPU cores, every
/// GPU term compared with the CPU's — each value checked for at least `digits − 5` correct
/// digits against its closed form. `backend_note` says which GPU is used or why none is.
pub fn report(
    digits_list: &[u32],
    gpu: Option<&GpuContext>,
    backend_note: Option<&str>,
) -> crate::cli::Report {
    let mut rep = crate::cli::Report::new("quadrature");
    let threads = rayon::current_num_threads();
    rep.line(format!(
        "tanh-sinh quadrature: MPFR (the reference) and the limb floats (expanse_core::limb) on \
         {threads} CPU threads{}",
        if gpu.is_some() { " and the GPU" } else { "" }
    ));
    let backend = match (gpu, backend_note) {
        (Some(_), Some(n)) => n.to_string(),
        (Some(ctx), None) => format!("using the GPU: {}", ctx.describe()),
        (None, Some(n)) => format!("CPU only: {n}"),
        (None, None) => "CPU only (--backend cpu): no GPU rates".to_string(),
    };
    rep.line(format!("backend: {backend}"));
    rep.result("backend", backend);
    let mut all_identical = true;
    let mut any_compared = false;
    for &digits in digits_list {
        let prec = working_prec(digits);
        // Compile the GPU program first (NVRTC), so the GPU rates do not include it.
        let mut prepare_error = None;
        if let Some(ctx) = gpu {
            let t = Instant::now();
            match ctx.prepare_limb_fn(prec) {
                Ok(()) => {
                    let secs = t.elapsed().as_secs_f64();
                    rep.line(format!(
                        "GPU program for {prec} bits compiled and loaded in {secs:.1} s (not in \
                         the rates)"
                    ));
                    rep.result(
                        format!("gpu_compile_{digits}digits_s"),
                        format!("{secs:.1}"),
                    );
                }
                Err(e) => prepare_error = Some(format!("GPU: {e}")),
            }
        }
        let mut table = Table::new(prec);
        let mpfr: Vec<QuadResult> = PROBLEMS
            .iter()
            .map(|&p| integrate(p, digits, &mut table, MAX_LEVELS))
            .collect();
        let limb: Vec<Result<LimbQuadResult, String>> = PROBLEMS
            .iter()
            .map(|&p| match &prepare_error {
                Some(e) => Err(e.clone()),
                None => integrate_limb(p, digits, &mut table, MAX_LEVELS, gpu, true),
            })
            .collect();
        rep.line(format!(
            "\n{} digits ({} bits; limb floats of {} limbs): table of {} nodes (tau <= {:.3}) \
             built in {:.3} s",
            digits,
            prec,
            fn_capacity(prec).unwrap_or(0),
            table.nodes(),
            table.tmax(),
            table.build_seconds
        ));
        let min = f64::from(digits) - 5.0;
        let shown = digits.min(60) as usize;
        let (mut cpu_nodes, mut cpu_s, mut gpu_s, mut mpfr_nodes, mut mpfr_s) =
            (0usize, 0.0f64, 0.0f64, 0usize, 0.0f64);
        let (mut compared, mut mismatches) = (0usize, 0usize);
        for (r, l) in mpfr.iter().zip(&limb) {
            let id = r.problem.id();
            rep.line(format!("  problem {}: {}", id, r.problem.formula()));
            rep.line(format!(
                "    MPFR  {}  ({} levels, {} evaluations, {:.3} s, est. error 1e{:.0})",
                shorten(&decimal(&r.value, digits), shown),
                r.levels,
                r.evaluations,
                r.seconds,
                r.est_log10_err
            ));
            mpfr_nodes += r.evaluations / 2;
            mpfr_s += r.seconds;
            match l {
                Ok(l) => {
                    let lr = &l.result;
                    rep.line(format!(
                        "    limb  {}  ({} levels, {} evaluations)",
                        shorten(&decimal(&lr.value, digits), shown),
                        lr.levels,
                        lr.evaluations
                    ));
                    cpu_nodes += l.nodes;
                    cpu_s += l.cpu_seconds.unwrap_or(0.0);
                    gpu_s += l.gpu_seconds.unwrap_or(0.0);
                    compared += l.compared;
                    mismatches += l.mismatches;
                }
                Err(e) => {
                    rep.line(format!("    limb  failed: {e}"));
                    rep.result(format!("problem{id}_{digits}digits_limb_error"), e.as_str());
                }
            }
            rep.line(format!(
                "    known {}",
                shorten(&decimal(&r.exact, digits), shown)
            ));
            rep.check(
                &format!(
                    "problem {id} at {digits} digits, MPFR: {:.1} correct digits (need >= {min})",
                    r.correct_digits
                ),
                passes(r, min),
            );
            let limb_digits = l.as_ref().map(|l| l.result.correct_digits).ok();
            rep.check(
                &format!(
                    "problem {id} at {digits} digits, limb floats: {} correct digits (need >= {min})",
                    limb_digits.map_or("no".to_string(), |d| format!("{d:.1}"))
                ),
                l.as_ref().is_ok_and(|l| passes(&l.result, min)),
            );
            // Every digit the working precision holds (the text shows the requested ones).
            rep.result(
                format!("problem{id}_{digits}digits"),
                r.value.to_string_radix(10, None),
            );
            rep.result(
                format!("problem{id}_{digits}digits_correct_digits"),
                format!("{:.1}", r.correct_digits),
            );
            rep.result(
                format!("problem{id}_{digits}digits_levels"),
                r.levels.to_string(),
            );
            if let Ok(l) = l {
                rep.result(
                    format!("problem{id}_{digits}digits_limb"),
                    l.result.value.to_string_radix(10, None),
                );
                rep.result(
                    format!("problem{id}_{digits}digits_limb_correct_digits"),
                    format!("{:.1}", l.result.correct_digits),
                );
                rep.result(
                    format!("problem{id}_{digits}digits_limb_levels"),
                    l.result.levels.to_string(),
                );
            }
        }
        let (mr, cr) = (rate(mpfr_nodes, mpfr_s), rate(cpu_nodes, cpu_s));
        rep.line(format!(
            "  rates at {digits} digits (nodes/s; a node is the integrand at two points): MPFR \
             {mr:.0} ({threads} threads), limb floats on the CPU {cr:.0} ({cpu_nodes} nodes in \
             {cpu_s:.3} s, {threads} threads)"
        ));
        rep.result(
            format!("rate_{digits}digits_mpfr_nodes_per_s"),
            format!("{mr:.1}"),
        );
        rep.result(
            format!("rate_{digits}digits_cpu_nodes_per_s"),
            format!("{cr:.1}"),
        );
        if gpu.is_some() {
            let gr = rate(cpu_nodes, gpu_s);
            let ratio = if cr > 0.0 { gr / cr } else { 0.0 };
            rep.line(format!(
                "  limb floats on the GPU {gr:.0} nodes/s ({cpu_nodes} nodes in {gpu_s:.3} s, \
                 transfers included): GPU/CPU ratio {ratio:.2}"
            ));
            rep.result(
                format!("rate_{digits}digits_gpu_nodes_per_s"),
                format!("{gr:.1}"),
            );
            rep.result(
                format!("rate_{digits}digits_gpu_cpu_ratio"),
                format!("{ratio:.3}"),
            );
            let same = mismatches == 0 && compared == cpu_nodes && compared > 0;
            any_compared = true;
            all_identical &= same;
            rep.check(
                &format!(
                    "GPU and CPU identical at {digits} digits: {} ({compared} terms compared, \
                     {mismatches} differ)",
                    if same { "yes" } else { "no" }
                ),
                same,
            );
        }
    }
    if any_compared {
        let yes = if all_identical { "yes" } else { "no" };
        rep.line(format!("GPU and CPU identical: {yes}"));
        rep.result("gpu_cpu_identical", yes);
    } else {
        rep.line("GPU and CPU identical: not compared (no GPU in use)");
    }
    rep
}

/// `d.ddd…e±k` cut to `n` significant digits, keeping the exponent.
fn shorten(s: &str, n: usize) -> String {
    let (mant, exp) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let keep = n + 1 + usize::from(mant.starts_with('-'));
    if mant.len() <= keep {
        return s.to_string();
    }
    format!("{}…{}", &mant[..keep], exp)
}
