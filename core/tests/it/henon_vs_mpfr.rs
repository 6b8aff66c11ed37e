//! A Hénon orbit in the accurate tier (`Expansion<f64, N>` through `henon_step`) against a
//! 3000-bit MPFR orbit, from (0, 0) at (a, b) = (1.4, 0.3), for N = 1..8, 150 steps.
//!
//! Both orbits use the same parameters: the expansions nearest 1.4 and 0.3, whose exact values
//! are handed to MPFR, so the comparison measures arithmetic error only. The accumulated bound
//! is propagated rigorously along the computed orbit (x_k, y_k) with exact orbit (X_k, Y_k):
//!
//! - local errors of one step from the computed point, from the documented bounds
//!   μ = mul_rel_bound, α = add_rel_bound and the order of operations
//!   (x² = sqr(x); t = a·x²; u = y + 1; x' = u − t; y' = b·x):
//!   L_x = α|x'|/(1 − α) + α|y + 1| + |a|x²((1 + μ)² − 1),  L_y = μ|b||x|;
//! - propagation: with e_k = (x_k − X_k, y_k − Y_k), exactly
//!   h(x, y) − h(X, Y) = J(x_k)·e_k + (a·(x_k − X_k)², 0), J(x) = [[−2ax, 1], [b, 0]], so
//!   e_n = Σ_k M_{n,k}·w_k with M_{n,k} = J(x_{n−1})···J(x_{k+1}) and
//!   |w_k| ≤ (L_x + |a|·E_k², L_y) componentwise, E_k the bound at step k. The products
//!   M_{n,k} are formed in 3000-bit MPFR along the computed orbit (whose points are exact
//!   numbers), so the bound follows the map's real growth (≈ e^{0.42 k}) rather than the
//!   product of |J| (≈ 3.6^k):  E_n = Σ_k ‖M_{n,k}‖_∞·‖w_k‖_∞.
//!
//! The bound is evaluated in f64 and inflated by 1 + 10⁻⁶, far more than the rounding of its own
//! evaluation; the MPFR orbit's own error (≈ 2^-3000 times the growth) is added as 2^-2900.
//! The test asserts max(|x_k − X_k|, |y_k − Y_k|) ≤ E_k at every step, and that for N ≥ 2 the
//! orbit still agrees to better than 10⁻⁶ after 100 steps (so the check is not vacuous), and
//! prints the bound and the observed error at step 100.

use expanse_core::{bounds, henon_step, Expansion};
use rug::Float;

const PREC: u32 = 3000;
const STEPS: usize = 150;

fn check<const N: usize>() {
    let a: Expansion<f64, N> = "1.4".parse().unwrap();
    let b: Expansion<f64, N> = "0.3".parse().unwrap();
    let (ar, br) = (
        Float::with_val(PREC, a.to_rug()),
        Float::with_val(PREC, b.to_rug()),
    );
    let (abs_a, abs_b) = (
        a.to_f64().abs() * (1.0 + 1e-15),
        b.to_f64().abs() * (1.0 + 1e-15),
    );
    let mu = bounds::mul_rel_bound::<f64>(N);
    let alpha = bounds::add_rel_bound::<f64>(N);
    let inflate = 1.0 + 1e-6;
    let mpfr_err = 2f64.powi(-1000).powi(3) * 2f64.powi(100); // 2^-2900

    let (mut x, mut y) = (Expansion::<f64, N>::zero(), Expansion::<f64, N>::zero());
    let (mut xr, mut yr) = (Float::with_val(PREC, 0), Float::with_val(PREC, 0));
    let mut e_bound = 0.0f64;
    // (M_{n,k} as [m00, m01, m10, m11], ‖w_k‖_∞) for every earlier step k.
    let mut terms: Vec<([Float; 4], f64)> = Vec::new();
    let mut at_100 = (0.0, 0.0);
    for k in 1..=STEPS {
        let (nx, ny) = henon_step(&a, &b, &x, &y);
        // Local errors from the computed point (x, y) and output nx.
        let (xf, yf, nxf) = (x.to_f64().abs(), y.to_f64(), nx.to_f64().abs());
        let lx = alpha * nxf / (1.0 - alpha)
            + alpha * (yf + 1.0).abs()
            + abs_a * xf * xf * ((1.0 + mu) * (1.0 + mu) - 1.0);
        let ly = mu * abs_b * xf;
        let w = (lx + abs_a * e_bound * e_bound).max(ly);
        // M ← J(x_k)·M for the earlier terms, then the new term with M = I.
        let j00 = Float::with_val(PREC, &ar * &x.to_rug()) * -2i32;
        for (m, _) in terms.iter_mut() {
            let n00 = Float::with_val(PREC, &j00 * &m[0]) + &m[2];
            let n01 = Float::with_val(PREC, &j00 * &m[1]) + &m[3];
            let n10 = Float::with_val(PREC, &br * &m[0]);
            let n11 = Float::with_val(PREC, &br * &m[1]);
            *m = [n00, n01, n10, n11];
        }
        let one = Float::with_val(PREC, 1);
        let zero = Float::with_val(PREC, 0);
        terms.push(([one.clone(), zero.clone(), zero, one], w));
        let mut e = 0.0f64;
        for (m, wk) in &terms {
            let r0 = Float::with_val(64, m[0].abs_ref()) + Float::with_val(64, m[1].abs_ref());
            let r1 = Float::with_val(64, m[2].abs_ref()) + Float::with_val(64, m[3].abs_ref());
            let norm = r0.max(&r1).to_f64_round(rug::float::Round::Up);
            e += norm * wk;
        }
        e_bound = e * inflate + mpfr_err;
        // Exact orbit.
        let x2 = Float::with_val(PREC, xr.square_ref());
        let nxr = Float::with_val(PREC, &yr + 1u32) - Float::with_val(PREC, &ar * &x2);
        let nyr = Float::with_val(PREC, &br * &xr);
        (x, y, xr, yr) = (nx, ny, nxr, nyr);
        let dx = Float::with_val(PREC, &x.to_rug() - &xr).to_f64().abs();
        let dy = Float::with_val(PREC, &y.to_rug() - &yr).to_f64().abs();
        assert!(
            dx.max(dy) <= e_bound,
            "N={N} step {k}: error ({dx:e}, {dy:e}) > bound {e_bound:e}"
        );
        if k == 100 {
            at_100 = (dx.max(dy), e_bound);
        }
    }
    eprintln!(
        "N={N}: step 100: |x − X| = {:.3e}, accumulated bound {:.3e} (ratio {:.2e})",
        at_100.0,
        at_100.1,
        at_100.0 / at_100.1
    );
    if N >= 2 {
        assert!(
            at_100.1 < 1e-6,
            "N={N}: bound at step 100 is {:e}",
            at_100.1
        );
    }
}

#[test]
fn henon_orbit_accurate_tier_agrees_with_mpfr_within_accumulated_bound() {
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
    check::<6>();
    check::<7>();
    check::<8>();
}
