//! Periodic orbits as points: the cyclic system of the Hénon map in x alone, its Jacobian
//! solved in O(p) time and memory, Newton refinement in MPFR (`rug::Float`) at the precision
//! the proof will need, and estimates of how fast errors grow along the orbit.
//!
//! With y_i = b·x_{i−1}, a period-p orbit is a zero of the cyclic system (MATH.md §4.1)
//!
//! ```text
//! G_i(x) = x_{i+1} − 1 + a·x_i² − b·x_{i−1},   i = 0 … p−1, indices mod p.
//! ```
//!
//! Its Jacobian A acts as (Aδ)_i = δ_{i+1} + α_i δ_i − β δ_{i−1} with α_i = 2a·x_i, β = b.
//! Newton solves A·δ = w by banded elimination ([`solve_banded`]). The interval proof
//! ([`crate::krawczyk::cyclic_solve`]) solves it by writing the p-periodic solution of the
//! recurrence
//! δ_{i+1} = w_i − α_i δ_i + β δ_{i−1} as δ_i = c_i + f_i·u + g_i·v with (u, v) = (δ_0, δ_{−1})
//! unknown: closing the cycle gives the 2×2 system (I − M)(u, v)ᵀ = (c_p, c_{p−1})ᵀ with
//! M = [[f_p, g_p], [f_{p−1}, g_{p−1}]], whose determinant is 1 − tr M + (−β)^p (the
//! recurrence matrices [[−α_i, β], [1, 0]] have determinant −β).

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

/// The folded order of the unknowns: 0, p−1, 1, p−2, 2, … In it every equation i couples
/// positions at most 2 apart (i−1, i, i+1 are neighbours in the cycle), so the cyclic system
/// becomes a band matrix with two sub- and two super-diagonals. Returns (order, position).
fn folded_order(p: usize) -> (Vec<usize>, Vec<usize>) {
    let mut order = Vec::with_capacity(p);
    let (mut lo, mut hi) = (0usize, p);
    while lo < hi {
        order.push(lo);
        lo += 1;
        if lo < hi {
            hi -= 1;
            order.push(hi);
        }
    }
    let mut pos = vec![0usize; p];
    for (q, &i) in order.iter().enumerate() {
        pos[i] = q;
    }
    (order, pos)
}

/// Solves A·δ = w for the cyclic Jacobian (α_i, β) at `prec` bits by Gaussian elimination
/// with partial pivoting on the folded band form (unknowns in the order 0, p−1, 1, p−2, …):
/// O(p) time, O(p) numbers of memory (the U factor: the diagonal, the right-hand side and at
/// most four off-diagonals, about two of them nonzero), backward stable, so the result is
/// accurate to about `prec − log₂ cond(A)` bits. For a hyperbolic periodic orbit cond(A)
/// stays moderate however long the orbit (the multiple-shooting operator is well conditioned
/// where the single-shooting recurrence below amplifies by 2^(2·l1)), so Newton
/// can work at about twice the bits of its current accuracy instead of that plus 2·l1.
/// Floating point only: used by Newton, never in a proof. Returns `None` on a zero or
/// non-finite pivot.
pub fn solve_banded(alpha: &[Float], beta: &Float, w: &[Float], prec: u32) -> Option<Vec<Float>> {
    assert_eq!(alpha.len(), w.len());
    solve_banded_with(alpha.len(), beta, prec, |i| {
        (
            Float::with_val(prec, &alpha[i]),
            Float::with_val(prec, &w[i]),
        )
    })
}

/// [`solve_banded`] with the coefficients (α_i, w_i) produced on demand by `coef(i)`, called
/// once for each i (so the caller need not hold them all).
pub fn solve_banded_with(
    p: usize,
    beta: &Float,
    prec: u32,
    mut coef: impl FnMut(usize) -> (Float, Float),
) -> Option<Vec<Float>> {
    if p == 0 {
        return Some(Vec::new());
    }
    let (order, pos) = folded_order(p);
    let zero = || Float::with_val(prec, 0);
    let one = Float::with_val(prec, 1);
    let mbeta = Float::with_val(prec, -beta);
    // Row q of the band matrix (equation order[q]) as coefficients of columns q−2 … q+2.
    let mut load = |q: usize| -> ([Float; 5], Float) {
        let i = order[q];
        let (al, wi) = coef(i);
        let mut v: [Float; 5] = std::array::from_fn(|_| zero());
        v[pos[(i + 1) % p] + 2 - q] += &one;
        v[pos[i] + 2 - q] += &al;
        v[pos[(i + p - 1) % p] + 2 - q] += &mbeta;
        (v, wi)
    };
    // Active rows at step j, as coefficients of columns j … j+4 (window shifted each step).
    let mut active: Vec<([Float; 5], Float)> = Vec::with_capacity(3);
    for q in 0..p.min(3) {
        let (v, r) = load(q);
        // Row q covers columns q−2 … q+2; at step 0 the window is 0 … 4.
        let mut u: [Float; 5] = std::array::from_fn(|_| zero());
        for (k, c) in v.into_iter().enumerate() {
            let col = k as isize + q as isize - 2;
            if (0..5).contains(&col) {
                u[col as usize] = c;
            }
        }
        active.push((u, r));
    }
    // U row j: 1/pivot, right-hand side, nonzero entries of columns j+1 … j+4.
    type URow = (Float, Float, [Option<Float>; 4]);
    let mut upper: Vec<URow> = Vec::with_capacity(p);
    for j in 0..p {
        // Partial pivoting among the (at most three) rows with an entry in column j.
        let mut best = 0;
        for k in 1..active.len() {
            if active[k].0[0].cmp_abs(&active[best].0[0]) == Some(std::cmp::Ordering::Greater) {
                best = k;
            }
        }
        active.swap(0, best);
        let (piv, rest) = active.split_first_mut()?;
        if piv.0[0].is_zero() || !piv.0[0].is_finite() {
            return None;
        }
        // One division per row: the multipliers and the back substitution use 1/pivot.
        let inv = Float::with_val(prec, 1 / &piv.0[0]);
        for row in rest.iter_mut() {
            if row.0[0].is_zero() {
                continue;
            }
            let m = Float::with_val(prec, &row.0[0] * &inv);
            for c in 1..5 {
                if !piv.0[c].is_zero() {
                    row.0[c] -= &m * &piv.0[c];
                }
            }
            row.1 -= &m * &piv.1;
        }
        let (v, r) = active.remove(0);
        let [_, v1, v2, v3, v4] = v;
        let keep = |x: Float| (!x.is_zero()).then_some(x);
        upper.push((inv, r, [keep(v1), keep(v2), keep(v3), keep(v4)]));
        // Shift the window to columns j+1 … j+5 and load row j+3 (columns j+1 … j+5).
        for row in active.iter_mut() {
            row.0.rotate_left(1);
            row.0[4] = zero();
        }
        if j + 3 < p {
            active.push(load(j + 3));
        }
    }
    // Back substitution on U, releasing each row once used.
    let mut d: Vec<Float> = Vec::with_capacity(p);
    for j in (0..p).rev() {
        let (inv, mut s, off) = upper.pop()?;
        // d holds δ at positions p−1, p−2, …, j+1 (last pushed = j+1).
        for (c, v) in off.iter().enumerate() {
            if let Some(v) = v {
                if j + c + 1 < p {
                    s -= v * &d[p - 1 - (j + c + 1)];
                }
            }
        }
        s *= &inv;
        if !s.is_finite() {
            return None;
        }
        d.push(s);
    }
    // d[k] is position p−1−k.
    Some(
        (0..p)
            .map(|i| std::mem::replace(&mut d[p - 1 - pos[i]], Float::new(1)))
            .collect(),
    )
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

/// log₂ of |m| from its exponent (within 1; `to_f64` would underflow below 2^−1074); −10⁹
/// for 0.
fn log2_of(m: &Float) -> f64 {
    if m.is_zero() {
        -1e9
    } else {
        m.get_exp().map(|e| e as f64).unwrap_or(f64::INFINITY)
    }
}

/// Newton's method on the cyclic system at point parameters (a, b), ending at `prec` bits.
///
/// Each step solves A·δ = G(x) by the banded elimination [`solve_banded`], whose accuracy does
/// not degrade with the period, so the working precision can follow the accuracy reached:
/// - while the steps are large (a rough guess such as a near-return of a chaotic orbit) the
///   steps are damped (halved until the residual decreases) at 128 bits;
/// - in Newton's quadratic phase each step about doubles the correct bits, so each next step
///   runs at twice the accuracy reached plus a margin, up to `prec`: the cost is dominated by
///   the last step;
/// - the solve needs only the correction's own relative accuracy (|δ| ≈ ‖A⁻¹‖·|G|), so it runs
///   at about `prec + log₂|G| + 2κ` bits, κ being a running estimate of log₂‖A⁻¹‖ taken from
///   |δ|/|G| (measured ≈ 9 along period-10 000 orbits at (1.4, 0.3)).
///
/// An input given at high precision is first measured (its residual at increasing precision)
/// so that an orbit refined before starts where it is. Only affects whether a proof succeeds,
/// never what it proves. Returns `None` if Newton diverges or a solve breaks down.
pub fn refine(x0: &[Float], a: &Float, b: &Float, prec: u32) -> Option<Refined> {
    let p = x0.len();
    let mut kappa = 16.0f64;
    let given = x0.iter().map(|v| v.prec()).min().unwrap_or(53).min(prec);
    // Accuracy of the input: the residual at 128, 256, … bits until it is above the rounding
    // level (or the input's own precision is reached).
    let mut c = prec.min(128);
    let e0 = loop {
        let xc: Vec<Float> = x0.iter().map(|v| Float::with_val(c, v)).collect();
        let g = residual(&xc, &Float::with_val(c, a), &Float::with_val(c, b), c);
        let e = log2_of(&max_abs(&g));
        if e > 40.0 - c as f64 || c >= given {
            break e;
        }
        c = (2 * c).min(given);
    };
    let mut cur = if e0.is_finite() {
        ((-2.0 * e0) as i64 + 64).clamp(128.min(prec as i64), prec as i64) as u32
    } else {
        prec.min(128)
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
        if !gn.is_finite() {
            return None;
        }
        if gn.is_zero() {
            // An exact zero of G at this precision.
            if cur >= prec {
                converged = true;
                last = -1e9;
                break;
            }
            cur = prec;
            for xi in x.iter_mut() {
                xi.set_prec(cur);
            }
            continue;
        }
        let e = log2_of(&gn);
        // The correction's absolute error must stay below 2^(−cur): relative accuracy
        // 2^(−cur)/|δ| with |δ| ≲ 2^(κ + e), and the solve loses about κ bits more.
        let s =
            (cur as f64 + e + 2.0 * kappa + 32.0).clamp(64f64.min(cur as f64), cur as f64) as u32;
        let (as2, bs) = (Float::with_val(s, &ac) * 2u32, Float::with_val(s, &bc));
        // G rounded to the solve's precision (the long residuals freed one by one), α_i = 2a·x_i
        // computed as the elimination reaches row i.
        let mut g: Vec<Float> = g.into_iter().map(|v| Float::with_val(s, v)).collect();
        let d = solve_banded_with(p, &bs, s, |i| {
            (
                Float::with_val(s, &x[i] * &as2),
                std::mem::replace(&mut g[i], Float::new(1)),
            )
        })?;
        drop(g);
        iterations += 1;
        let m = max_abs(&d);
        if !m.is_finite() {
            return None;
        }
        let lm = log2_of(&m);
        // |δ| ≤ ‖A⁻¹‖·|G|: a lower estimate of log₂‖A⁻¹‖, with a margin.
        kappa = kappa.max(lm - e + 8.0);
        // Damping: accept the full step if it reduces the residual, else halve it. Steps below
        // 2^−64 are in Newton's quadratic phase: taken without the test.
        let mut t = Float::with_val(cur, 1);
        let mut accepted = false;
        if lm < -64.0 {
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
        if x.iter().any(|v| !v.is_finite() || v.clone().abs() > 1e3) {
            return None;
        }
        // Best accuracy reachable at this precision, and the accuracy after a full step in the
        // quadratic phase (error ≈ ‖A⁻¹‖·a·|δ|² ≲ 2^(κ + 2·log₂|δ| + 2)).
        let floor = cur as f64 - kappa - 8.0;
        let full = accepted && t == 1;
        if full && lm < -20.0 {
            let acc = (-(2.0 * lm + kappa + 2.0)).min(floor);
            if cur >= prec {
                // Within 32 bits of the floor is converged: the engine refines 64 bits beyond
                // the centres it keeps.
                if acc >= floor - 32.0 || lm <= -(cur as f64) + kappa + 16.0 {
                    converged = true;
                    last = lm;
                    break;
                }
                stalls += 1;
                if stalls >= 4 {
                    last = lm;
                    break;
                }
            } else {
                cur = ((2.0 * acc) as i64 + 64).clamp(cur as i64, prec as i64) as u32;
                for xi in x.iter_mut() {
                    xi.set_prec(cur);
                }
            }
        } else if !accepted {
            // No decrease possible: the residual is at the rounding level of this precision.
            if cur >= prec {
                converged = lm <= -(cur as f64) + kappa + 24.0;
                last = lm;
                break;
            }
            cur = (2 * cur).min(prec);
            for xi in x.iter_mut() {
                xi.set_prec(cur);
            }
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
        let r = refine(&[Float::with_val(53, 0.6)], &a, &b, prec).unwrap();
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
    fn banded_solve_satisfies_the_cyclic_system() {
        // A·δ = w must hold for the banded elimination's δ, for every small period (the folded
        // order's corner cases) and coefficients that force row exchanges (α_i near 0).
        let prec = 200;
        for p in 1..14usize {
            let alpha: Vec<Float> = (0..p)
                .map(|i| Float::with_val(prec, [2.3, -0.01, 0.7, -1.9, 1e-9][i % 5]))
                .collect();
            let beta = Float::with_val(prec, 0.3);
            let w: Vec<Float> = (0..p)
                .map(|i| Float::with_val(prec, 1.0 - 0.25 * i as f64))
                .collect();
            let d = solve_banded(&alpha, &beta, &w, prec).unwrap();
            for i in 0..p {
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
