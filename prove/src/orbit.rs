//! Periodic orbits as points: the cyclic system of the Hénon map in x alone, its Jacobian
//! solved in O(p) time and O(1) extra memory, Newton refinement in MPFR (`rug::Float`) at the
//! precision the proof will need, and estimates of how fast errors grow along the orbit.
//!
//! With y_i = b·x_{i−1}, a period-p orbit is a zero of the cyclic system (MATH.md §4.1)
//!
//! ```text
//! G_i(x) = x_{i+1} − 1 + a·x_i² − b·x_{i−1},   i = 0 … p−1, indices mod p.
//! ```
//!
//! Its Jacobian A acts as (Aδ)_i = δ_{i+1} + α_i δ_i − β δ_{i−1} with α_i = 2a·x_i, β = b.
//! A·δ = w is solved by writing the p-periodic solution of the recurrence
//! δ_{i+1} = w_i − α_i δ_i + β δ_{i−1} as δ_i = c_i + f_i·u + g_i·v with (u, v) = (δ_0, δ_{−1})
//! unknown: closing the cycle gives the 2×2 system (I − M)(u, v)ᵀ = (c_p, c_{p−1})ᵀ with
//! M = [[f_p, g_p], [f_{p−1}, g_{p−1}]], whose determinant is 1 − tr M + (−β)^p (the
//! recurrence matrices [[−α_i, β], [1, 0]] have determinant −β).

use rug::ops::Pow;
use rug::Float;

/// Error-growth figures of an orbit, from a cheap f64 pass with rescaling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// log₂ of the largest |f_i|, |g_i| (how much the point recurrence amplifies: about λ·i/ln 2).
    pub l1: f64,
    /// log₂ of the largest entry of the products of |recurrence matrices| (the growth of
    /// interval widths under the recurrence: the wrapping effect).
    pub l2: f64,
}

/// Estimates [`Growth`] from f64 approximations of the orbit and the parameters.
pub fn growth(x: &[f64], a: f64, b: f64) -> Growth {
    let p = x.len();
    // Point recurrence for (f, g) with rescaling; track log2 of the max.
    let (mut f0, mut f1) = (0.0f64, 1.0f64); // f_{i-1}, f_i
    let (mut g0, mut g1) = (1.0f64, 0.0f64);
    let (mut h0, mut h1) = (0.0f64, 0.0f64); // |J| recurrence with unit forcing
    let (mut sf, mut sh) = (0.0f64, 0.0f64); // log2 scale factors
    let (mut l1, mut l2) = (0.0f64, 0.0f64);
    for xi in x.iter().take(p) {
        let al = 2.0 * a * xi;
        let f2 = -al * f1 + b * f0;
        let g2 = -al * g1 + b * g0;
        let h2 = 1.0 * 2f64.powf(-sh) + al.abs() * h1 + b.abs() * h0;
        f0 = f1;
        f1 = f2;
        g0 = g1;
        g1 = g2;
        h0 = h1;
        h1 = h2;
        let m = f1.abs().max(g1.abs()).max(f0.abs()).max(g0.abs());
        if m > 0.0 {
            l1 = l1.max(sf + m.log2());
            if !(2f64.powi(-200)..=2f64.powi(200)).contains(&m) {
                let e = m.log2().floor();
                let s = 2f64.powf(-e);
                f0 *= s;
                f1 *= s;
                g0 *= s;
                g1 *= s;
                sf += e;
            }
        }
        let mh = h1.max(h0);
        l2 = l2.max(sh + mh.log2());
        if mh > 2f64.powi(200) {
            let e = mh.log2().floor();
            let s = 2f64.powf(-e);
            h0 *= s;
            h1 *= s;
            sh += e;
        }
    }
    Growth { l1, l2 }
}

/// x-coordinates of `p` consecutive points of the orbit of (x0, y0), computed at `prec` bits.
pub fn iterate_orbit(
    a: &Float,
    b: &Float,
    x0: &Float,
    y0: &Float,
    p: usize,
    prec: u32,
) -> Vec<Float> {
    let mut x = Float::with_val(prec, x0);
    let mut y = Float::with_val(prec, y0);
    let mut out = Vec::with_capacity(p);
    for _ in 0..p {
        out.push(x.clone());
        let nx = Float::with_val(prec, 1 + &y)
            - Float::with_val(prec, a * Float::with_val(prec, x.square_ref()));
        y = Float::with_val(prec, b * &x);
        x = nx;
    }
    out
}

/// The residual G(x) of the cyclic system at point parameters, at `prec` bits.
pub fn residual(x: &[Float], a: &Float, b: &Float, prec: u32) -> Vec<Float> {
    let p = x.len();
    (0..p)
        .map(|i| {
            let xn = &x[(i + 1) % p];
            let xp = &x[(i + p - 1) % p];
            let t = Float::with_val(prec, x[i].square_ref()) * a;
            let mut g = Float::with_val(prec, xn - 1u32);
            g += t;
            g -= Float::with_val(prec, b * xp);
            g
        })
        .collect()
}

/// Solves A·δ = w for the cyclic Jacobian (α_i, β) in floating point at `prec` bits. Returns
/// `None` when the closing 2×2 system is numerically singular. Accuracy: about
/// `prec − 2·Growth::l1` bits relative to ‖A⁻¹‖·‖w‖.
pub fn solve_point(alpha: &[Float], beta: &Float, w: &[Float], prec: u32) -> Option<Vec<Float>> {
    let p = alpha.len();
    let z = || Float::with_val(prec, 0);
    let (mut c0, mut c1) = (z(), z());
    let (mut f0, mut f1) = (z(), Float::with_val(prec, 1));
    let (mut g0, mut g1) = (Float::with_val(prec, 1), z());
    for i in 0..p {
        let step = |v0: &Float, v1: &Float, wi: Option<&Float>| {
            let mut n = Float::with_val(prec, beta * v0);
            n -= Float::with_val(prec, &alpha[i] * v1);
            if let Some(wi) = wi {
                n += wi;
            }
            n
        };
        let c2 = step(&c0, &c1, Some(&w[i]));
        let f2 = step(&f0, &f1, None);
        let g2 = step(&g0, &g1, None);
        c0 = std::mem::replace(&mut c1, c2);
        f0 = std::mem::replace(&mut f1, f2);
        g0 = std::mem::replace(&mut g1, g2);
    }
    // Now (c1, c0) = (c_p, c_{p−1}), etc.
    let detm = Float::with_val(prec, -beta).pow(p as u32);
    let tr = Float::with_val(prec, &f1 + &g0);
    let det = Float::with_val(prec, 1 - tr) + detm;
    if det.is_zero() || !det.is_finite() {
        return None;
    }
    let one_g = Float::with_val(prec, 1 - &g0);
    let one_f = Float::with_val(prec, 1 - &f1);
    let u = (Float::with_val(prec, &c1 * &one_g) + Float::with_val(prec, &g1 * &c0)) / &det;
    let v = (Float::with_val(prec, &f0 * &c1) + Float::with_val(prec, &one_f * &c0)) / &det;
    // Second pass: run the recurrence from (δ_{−1}, δ_0) = (v, u).
    let mut out = Vec::with_capacity(p);
    let (mut d0, mut d1) = (v, u);
    for i in 0..p {
        out.push(d1.clone());
        let mut n = Float::with_val(prec, beta * &d0);
        n -= Float::with_val(prec, &alpha[i] * &d1);
        n += &w[i];
        d0 = std::mem::replace(&mut d1, n);
    }
    if out.iter().all(|d| d.is_finite()) {
        Some(out)
    } else {
        None
    }
}

/// Result of Newton refinement.
#[derive(Clone, Debug)]
pub struct Refined {
    /// The refined x-coordinates, each a `prec`-bit float.
    pub x: Vec<Float>,
    /// Newton iterations done.
    pub iterations: u32,
    /// log₂ of the last correction's max norm (−10⁹ when it was zero).
    pub last_step_log2: f64,
    /// Whether the corrections reached the rounding level at the final precision.
    pub converged: bool,
}

fn max_abs(v: &[Float]) -> Float {
    let mut m = Float::with_val(53, 0);
    for d in v {
        let a = Float::with_val(53, d.abs_ref());
        if a > m || a.is_nan() {
            m = a;
        }
    }
    m
}

/// Newton's method on the cyclic system at point parameters (a, b), ending at `prec` bits.
/// Precision is raised in levels (each 1.8 times the accuracy of the last, one Newton step per
/// level when convergence is quadratic) so early iterations are cheap; steps are damped
/// (halved until the residual decreases) so that rough guesses such as near-returns of a
/// chaotic orbit still converge. `extra` is the number of bits lost in the solves (about
/// 2·l1). Returns `None` if Newton diverges.
pub fn refine(x0: &[Float], a: &Float, b: &Float, prec: u32, extra: u32) -> Option<Refined> {
    // Start at the input's own precision when it is already high (an orbit refined before).
    let given = x0.iter().map(|v| v.prec()).min().unwrap_or(53);
    // (An input refined at precision q is taken as accurate to q − extra bits: start one
    // level above it.)
    let mut cur = if given > 128 + extra {
        (extra + (1.8 * (given - extra) as f64) as u32).min(prec)
    } else {
        (128 + extra).min(prec)
    };
    let mut x: Vec<Float> = x0.iter().map(|v| Float::with_val(cur, v)).collect();
    let mut iterations = 0u32;
    let mut last = f64::INFINITY;
    let mut converged = false;
    let mut stalls = 0;
    for _ in 0..200 {
        let ac = Float::with_val(cur, a);
        let bc = Float::with_val(cur, b);
        let g = residual(&x, &ac, &bc, cur);
        let gn = max_abs(&g);
        // Mixed precision: the residual needs the full `cur` bits, the correction only its
        // own relative accuracy. |δ| ≲ 2^(extra/2)·|g| and the solve at s bits is accurate to
        // about 2^(extra − s) relative, so s = cur + 1.5·extra + log₂|g| bits put its error
        // below the rounding level 2^(−cur) of this precision (never below extra + 64). This
        // only changes how fast Newton converges, never what the proof proves.
        let s = match gn.get_exp() {
            Some(e) if gn.is_finite() => {
                let want = cur as i64 + (3 * extra / 2) as i64 + e as i64;
                want.clamp((extra + 64).min(cur) as i64, cur as i64) as u32
            }
            _ => cur,
        };
        let (as_, bs) = (Float::with_val(s, &ac), Float::with_val(s, &bc));
        let alpha: Vec<Float> = x
            .iter()
            .map(|xi| Float::with_val(s, xi * &as_) * 2u32)
            .collect();
        let d = if s < cur {
            let gs: Vec<Float> = g.iter().map(|v| Float::with_val(s, v)).collect();
            solve_point(&alpha, &bs, &gs, s)?
        } else {
            solve_point(&alpha, &bs, &g, s)?
        };
        iterations += 1;
        let m = max_abs(&d);
        if !m.is_finite() {
            return None;
        }
        // Damping: accept the full step if it reduces the residual, else halve it.
        let mut t = Float::with_val(cur, 1);
        let mut accepted = false;
        // Steps below 2^−64 are in Newton's quadratic phase: take them without the damping
        // test (saves a residual evaluation per iteration at high precision).
        if m.get_exp().is_some_and(|e| e < -64) {
            for (xi, di) in x.iter_mut().zip(&d) {
                *xi -= di;
            }
            accepted = true;
        }
        for _ in 0..30 {
            if accepted {
                break;
            }
            let trial: Vec<Float> = x
                .iter()
                .zip(&d)
                .map(|(xi, di)| Float::with_val(cur, xi - Float::with_val(cur, di * &t)))
                .collect();
            let tn = max_abs(&residual(&trial, &ac, &bc, cur));
            if tn < gn || t == 1 && m < Float::with_val(53, 2f64.powi(-(cur as i32) / 2)) {
                x = trial;
                accepted = true;
                break;
            }
            t /= 2u32;
        }
        // log2 of the step from its exponent (to_f64 would underflow below 2^−1074).
        let lm = if m.is_zero() {
            -1e9
        } else {
            m.get_exp().map(|e| e as f64).unwrap_or(f64::INFINITY)
        };
        let floor = -(cur as f64) + extra as f64 + 8.0;
        // Accuracy reachable at this precision, and whether the step was small enough that
        // the error after it (about 2^(extra/2)·step², Newton's quadratic term with
        // ‖A⁻¹‖ ≲ 2^(extra/2)) is already below it: then one step per level suffices.
        let acc = cur as f64 - extra as f64;
        let quad_ok = accepted && lm.is_finite() && 2.0 * lm + extra as f64 / 2.0 <= -acc - 16.0;
        if quad_ok {
            if cur >= prec {
                converged = true;
                last = lm;
                break;
            }
            cur = (extra + (1.8 * acc).ceil() as u32).min(prec);
            for xi in x.iter_mut() {
                xi.set_prec(cur);
            }
            last = lm;
            continue;
        }
        if !accepted {
            // No decrease possible: the residual is at the rounding level of this precision.
            if cur >= prec {
                converged = lm <= floor + 16.0;
                last = lm;
                break;
            }
        }
        if lm <= floor || (lm >= last - 0.5 && lm < -20.0) || !accepted {
            if cur >= prec {
                stalls += 1;
                if lm <= floor || stalls >= 3 {
                    converged = lm <= floor + 16.0;
                    last = lm;
                    break;
                }
            } else {
                // Next level: 1.8 times the accuracy reachable at this one (the solve
                // loses `extra` bits).
                cur = (extra + (1.8 * (cur - extra.min(cur)) as f64).ceil() as u32).min(prec);
                for xi in x.iter_mut() {
                    xi.set_prec(cur);
                }
            }
        }
        if x.iter().any(|v| !v.is_finite() || v.clone().abs() > 1e3) {
            return None;
        }
        last = lm;
    }
    Some(Refined {
        x,
        iterations,
        last_step_log2: last,
        converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_finds_the_fixed_point_exactly() {
        // Fixed point of h at (1.4, 0.3): x = (b − 1 + sqrt((1−b)² + 4a)) / (2a).
        let prec = 300;
        let a = Float::with_val(prec, Float::parse("1.4").unwrap());
        let b = Float::with_val(prec, Float::parse("0.3").unwrap());
        let r = refine(&[Float::with_val(53, 0.6)], &a, &b, prec, 8).unwrap();
        let disc = Float::with_val(prec, Float::with_val(prec, 0.7f64 - 0.0) * 0);
        let _ = disc;
        let one_b = Float::with_val(prec, 1 - &b);
        let s = Float::with_val(
            prec,
            Float::with_val(prec, one_b.square_ref()) + Float::with_val(prec, &a * 4u32),
        )
        .sqrt();
        let xf = (s - one_b) / Float::with_val(prec, &a * 2u32);
        let err = Float::with_val(prec, &r.x[0] - &xf).abs();
        assert!(err < Float::with_val(53, 2f64.powi(-280)), "{err}");
    }

    #[test]
    fn point_solve_matches_the_dense_system() {
        // A small cyclic system solved by the recurrence must satisfy A·δ = w.
        let prec = 200;
        for p in 1..6usize {
            let alpha: Vec<Float> = (0..p)
                .map(|i| Float::with_val(prec, 0.7 + 0.3 * i as f64))
                .collect();
            let beta = Float::with_val(prec, 0.3);
            let w: Vec<Float> = (0..p)
                .map(|i| Float::with_val(prec, 1.0 - 0.25 * i as f64))
                .collect();
            let d = solve_point(&alpha, &beta, &w, prec).unwrap();
            for i in 0..p {
                // (Aδ)_i = δ_{i+1} + α_i δ_i − β δ_{i−1}
                let r = Float::with_val(
                    prec,
                    &d[(i + 1) % p] + Float::with_val(prec, &alpha[i] * &d[i]),
                ) - Float::with_val(prec, &beta * &d[(i + p - 1) % p])
                    - &w[i];
                assert!(r.abs() < 1e-50, "p={p} i={i}");
            }
        }
    }
}
