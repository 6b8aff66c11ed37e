//! Periodic orbits taken from the map itself, for benchmarks and tests of long periods: a
//! long f64 orbit on the attractor at (a, b), the best near-return at lag p as an initial
//! guess, then Newton on the cyclic system. At (1.4, 0.3) these orbits are saddles (the
//! attractor's periodic orbits), so they measure the existence proof, the minimal-period check
//! and the stability enclosure (which then says "not attracting").

use crate::orbit::refine;
use rug::Float;

/// An f64 guess for a period-p orbit: the segment of a long orbit (after `transient` steps,
/// searched over `search` starting points) whose return z_{i+p} is closest to z_i.
pub fn near_return(a: f64, b: f64, p: usize, transient: usize, search: usize) -> (Vec<f64>, f64) {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..transient {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    let n = search + p + 1;
    let mut xs = Vec::with_capacity(n);
    for _ in 0..n {
        xs.push(x);
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    // y_i = b·x_{i−1}, so the return distance in (x, y) is max(|Δx_i|, b|Δx_{i−1}|).
    let mut best = (f64::INFINITY, 1usize);
    for i in 1..search {
        let d = (xs[i] - xs[i + p])
            .abs()
            .max(b * (xs[i - 1] - xs[i + p - 1]).abs());
        if d < best.0 {
            best = (d, i);
        }
    }
    (xs[best.1..best.1 + p].to_vec(), best.0)
}

/// A period-p orbit of the map at point parameters (a, b) given as exact floats, refined to
/// `prec` bits from a near-return, or `None` if Newton fails from every near-return tried
/// (longer searches give closer returns, from which Newton converges more often).
pub fn periodic_orbit(a: &Float, b: &Float, p: usize, prec: u32) -> Option<Vec<Float>> {
    for (transient, search) in [
        (1000, 200_000),
        (20_000, 400_000),
        (50_000, 1_000_000),
        (100_000, 2_000_000),
    ] {
        let (guess, _) = near_return(a.to_f64(), b.to_f64(), p, transient, search.max(20 * p));
        let g: Vec<Float> = guess.iter().map(|v| Float::with_val(53, *v)).collect();
        if let Some(r) = refine(&g, a, b, prec.max(128)) {
            if r.converged {
                return Some(r.x);
            }
        }
    }
    None
}
