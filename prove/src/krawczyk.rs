//! Existence and uniqueness of a periodic orbit by the Krawczyk operator on the cyclic
//! multiple-shooting system (MATH.md §4.1), in O(p) memory, over a whole parameter box.
//!
//! Scalar form. Unknowns x_0 … x_{p−1}; G_i(x; a, b) = x_{i+1} − 1 + a·x_i² − b·x_{i−1}. The
//! centre x̌ and the centre parameters (ǎ, b̌) are exactly representable; A = DG(x̌; ǎ, b̌) and
//! C = A⁻¹ exactly. For a symmetric box X = x̌ ± r, parameters (a, b) in the box P and
//! x ∈ X, the mean-value form gives
//!
//! ```text
//! x − C·G(x) ∈ x̌ + A⁻¹·w,   w_i = −G_i(x̌; P) − D_i,
//! D_i = 2·((a − ǎ)·X_i + ǎ·(X_i − x̌_i))·(X_i − x̌_i) − (b − b̌)·(X_{i−1} − x̌_{i−1}),
//! ```
//!
//! because D = DG(ξ; a, b) − A is diagonal plus one cyclic sub-diagonal (the slope of a·x_i²
//! between x̌_i and x_i is a·(x_i + x̌_i) ∈ 2a·X_i). D·(X − x̌) is a componentwise interval
//! product, so nothing needs to cancel. The enclosure of A⁻¹·w is computed by the recurrence
//! of [`crate::orbit`] run in interval arithmetic, closed by a 2×2 interval solve.
//!
//! Theorem used (Krawczyk; the uniqueness part by the symmetric-box argument): if the
//! enclosure of A⁻¹·w lies in the open box (−r, r), then for every (a, b) in P the map
//! x ↦ x − C·G(x) sends X into its interior (Brouwer: a zero exists, C being invertible), and
//! the linear maps −C·D' (D' from the same interval matrix) send the symmetric box X − x̌ into
//! its interior, hence have norm < 1 in the r-weighted max norm: two zeros x, y would give
//! x − y = −C·D'(x − y), so x = y.
//!
//! Exclusion: every zero in X lies in x̌ + A⁻¹·w, so if some component of that enclosure misses
//! (−r_i, r_i) entirely there is no zero in X.
//!
//! Cost: each evaluation is two passes of the recurrence, O(p) interval operations. Extra
//! memory: with the split precision of [`eval_split`] the coefficients (α_i, w_i) of the first
//! pass, rounded to the solve's precision, are kept for the second (2p intervals of about half
//! the bits); otherwise they are recomputed (O(1) intervals). The boxes X are stored: O(p)
//! numbers.

use crate::ivl::Ivl;
use crate::params::ParamBox;
use rug::float::Round;
use rug::Float;

/// Result of one evaluation of the Krawczyk operator.
#[derive(Clone, Debug)]
pub struct KEval {
    /// Every component of K(X) − x̌ lies in the open interval (−r_i, r_i).
    pub inside: bool,
    /// Some component of K(X) − x̌ misses [−r_i, r_i] entirely: no zero in X.
    pub excluded: bool,
    /// Upper bounds (53-bit, rounded up) of |K(X)_i − x̌_i|.
    pub mags: Vec<Float>,
    /// max_i |K(X)_i − x̌_i| / r_i, rounded up (informative; ∞ when some r_i is 0).
    pub worst_ratio: f64,
}

/// Why an evaluation could not be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFailure {
    /// The closing 2×2 determinant det(I − M) could not be bounded away from 0.
    SingularClosure,
    /// An enclosure overflowed or became NaN.
    NotFinite,
}

/// Integer power of an interval by repeated squaring (each product encloses).
pub fn ipow<S: Ivl>(x: &S, mut n: u64, prec: u32) -> S {
    let mut result = S::int(1, prec);
    let mut base = x.clone();
    while n > 0 {
        if n & 1 == 1 {
            result = result.mul(&base);
        }
        n >>= 1;
        if n > 0 {
            base = base.mul(&base);
        }
    }
    result
}

/// Encloses the solution set {A⁻¹·w : w ∈ W} (W a box of right-hand sides) of the cyclic system
/// δ_{i+1} + α_i δ_i − β δ_{i−1} = w_i, streaming: `coef(i)` returns (α_i, w_i); `emit(i, δ_i)`
/// receives the enclosures in order. With `keep` the coefficients of the first pass are kept
/// for the second (2p intervals of memory, `coef` called once per index); without it they are
/// recomputed (O(1) memory, `coef` called twice per index).
pub fn cyclic_solve<S: Ivl>(
    p: usize,
    beta: &S,
    prec: u32,
    keep: bool,
    mut coef: impl FnMut(usize) -> (S, S),
    mut emit: impl FnMut(usize, &S),
) -> Result<(), EvalFailure> {
    let mut kept: Vec<Option<(S, S)>> = Vec::with_capacity(if keep { p } else { 0 });
    let zero = S::int(0, prec);
    let one = S::int(1, prec);
    let step = |al: &S, w: Option<&S>, v0: &S, v1: &S| {
        let n = beta.mul(v0).sub(&al.mul(v1));
        match w {
            Some(w) => n.add(w),
            None => n,
        }
    };
    // Pass 1: (c, f, g) up to index p.
    let (mut c0, mut c1) = (zero.clone(), zero.clone());
    let (mut f0, mut f1) = (zero.clone(), one.clone());
    let (mut g0, mut g1) = (one.clone(), zero.clone());
    for i in 0..p {
        let (al, w) = coef(i);
        let c2 = step(&al, Some(&w), &c0, &c1);
        let f2 = step(&al, None, &f0, &f1);
        let g2 = step(&al, None, &g0, &g1);
        c0 = std::mem::replace(&mut c1, c2);
        f0 = std::mem::replace(&mut f1, f2);
        g0 = std::mem::replace(&mut g1, g2);
        if keep {
            kept.push(Some((al, w)));
        }
    }
    // det(I − M) = 1 − tr M + det M, det M = (−β)^p exactly.
    let detm = ipow(&beta.neg(), p as u64, prec);
    let det = one.sub(&f1.add(&g0)).add(&detm);
    let inv = det.recip().ok_or(EvalFailure::SingularClosure)?;
    let u = c1.mul(&one.sub(&g0)).add(&g1.mul(&c0)).mul(&inv);
    let v = f0.mul(&c1).add(&one.sub(&f1).mul(&c0)).mul(&inv);
    if !(u.is_finite() && v.is_finite()) {
        return Err(EvalFailure::NotFinite);
    }
    // Pass 2: δ_i = c_i + f_i·u + g_i·v.
    let (mut c0, mut c1) = (zero.clone(), zero.clone());
    let (mut f0, mut f1) = (zero.clone(), one.clone());
    let (mut g0, mut g1) = (one.clone(), zero);
    for i in 0..p {
        let d = c1.add(&f1.mul(&u)).add(&g1.mul(&v));
        emit(i, &d);
        if i + 1 == p {
            break;
        }
        let (al, w) = match kept.get_mut(i).and_then(Option::take) {
            Some(k) => k,
            None => coef(i),
        };
        let c2 = step(&al, Some(&w), &c0, &c1);
        let f2 = step(&al, None, &f0, &f1);
        let g2 = step(&al, None, &g0, &g1);
        c0 = std::mem::replace(&mut c1, c2);
        f0 = std::mem::replace(&mut f1, f2);
        g0 = std::mem::replace(&mut g1, g2);
    }
    Ok(())
}

/// Evaluates the Krawczyk operator for the symmetric boxes X_i = x̌_i ± r_i over the whole
/// parameter box, in interval type `S` at `prec` bits (ignored by f64 intervals).
pub fn eval<S: Ivl>(
    x: &[Float],
    r: &[Float],
    pb: &ParamBox,
    prec: u32,
) -> Result<KEval, EvalFailure> {
    eval_split::<S>(x, r, pb, prec, prec)
}

/// [`eval`] with the cyclic solve run at `solve_prec ≤ prec` bits (MPFR intervals; other kinds
/// ignore it). The right-hand sides w_i = −G_i(x̌; P) − D_i and the coefficients α_i are
/// enclosed at `prec` bits and then rounded outward to `solve_prec`; β likewise. The solve
/// then encloses {A'⁻¹w : A' ∈ \[A\], w ∈ W}, which contains A⁻¹·w for the exact A = DG(x̌; ǎ, b̌)
/// and every w ∈ W, so the theorem above applies unchanged.
///
/// Why this is enough: W has magnitude and width both of order |G(x̌)| + r² (≈ 2^(−prec)
/// when r ≈ 2^(−prec/2)), so only its relative accuracy matters to the solve, and the
/// solve loses about log₂ Γ bits of it (growth l1 of the recurrence plus the wrapping l2).
/// `solve_prec` ≈ log₂ Γ + margin, about half of `prec`, keeps the enclosure as tight while
/// the O(p) recurrence, most of the cost, runs with numbers half as long.
pub fn eval_split<S: Ivl>(
    x: &[Float],
    r: &[Float],
    pb: &ParamBox,
    prec: u32,
    solve_prec: u32,
) -> Result<KEval, EvalFailure> {
    let p = x.len();
    let sp = solve_prec.min(prec);
    let to_solve = |v: S| {
        if sp < prec {
            v.to_prec(sp)
        } else {
            v
        }
    };
    assert_eq!(p, r.len());
    let ia = S::from_bounds(&pb.a.lo, &pb.a.hi, prec);
    let ib = S::from_bounds(&pb.b.lo, &pb.b.hi, prec);
    let iac = S::point(&pb.a.centre, prec);
    let ibc = S::point(&pb.b.centre, prec);
    // a − ǎ and b − b̌ are tiny: short endpoints make their products cheap.
    let da = ia.sub(&iac).coarse();
    let db = ib.sub(&ibc).coarse();
    let one = S::int(1, prec);
    let two = S::int(2, prec);
    let two_ac = two.mul(&iac);
    let two_ac_s = to_solve(two_ac.clone());
    let xc = |i: usize| S::point(&x[i % p], prec);
    let e = |i: usize| {
        let ri = &r[i % p];
        S::from_bounds(&Float::with_val(ri.prec(), -ri), ri, prec)
    };
    let coef = |i: usize| {
        let ip = (i + p - 1) % p;
        let (x0, x1, x2) = (xc(ip), xc(i), xc(i + 1));
        let (e0, e1) = (e(ip), e(i));
        let g = x2.sub(&one).add(&ia.mul(&x1.sqr())).sub(&ib.mul(&x0));
        let xi = x1.add(&e1);
        let d = two
            .mul(&da.mul(&xi).add(&iac.mul(&e1)))
            .mul(&e1)
            .sub(&db.mul(&e0));
        let w = g.add(&d).neg();
        // α_i = 2ǎ·x̌_i only enters the solve: enclose it at the solve's precision directly.
        let al = if sp < prec {
            two_ac_s.mul(&S::point(&x[i % p], sp))
        } else {
            two_ac.mul(&x1)
        };
        (al, to_solve(w))
    };
    let ibc_solve = to_solve(ibc.clone());
    let mut inside = true;
    let mut excluded = false;
    let mut finite = true;
    let mut mags = Vec::with_capacity(p);
    let mut worst = 0.0f64;
    // With a split precision the coefficients are short (solve_prec bits): keep them rather
    // than recompute the long residuals in the second pass.
    cyclic_solve::<S>(p, &ibc_solve, sp, sp < prec, coef, |i, d| {
        if !d.is_finite() {
            finite = false;
            inside = false;
            mags.push(Float::with_val(53, f64::INFINITY));
            return;
        }
        let ri = &r[i];
        let nr = Float::with_val(ri.prec(), -ri);
        if !d.certainly_inside_open(&nr, ri) {
            inside = false;
        }
        if d.lo() > *ri || d.hi() < nr {
            excluded = true;
        }
        let m = Float::with_val_round(53, d.mag(), Round::Up).0;
        let ratio = if ri.is_zero() {
            f64::INFINITY
        } else {
            Float::with_val_round(53, &m / ri, Round::Up).0.to_f64()
        };
        worst = worst.max(ratio);
        mags.push(m);
    })?;
    if !finite {
        return Err(EvalFailure::NotFinite);
    }
    Ok(KEval {
        inside,
        excluded,
        mags,
        worst_ratio: worst,
    })
}

/// Outcome of the existence proof, carrying its evidence.
#[derive(Clone, Debug)]
pub enum Existence {
    /// K(X) ⊂ int X: for every parameter in the box, exactly one zero lies in X.
    Proved {
        /// The box radii r_i (X_i = x̌_i ± r_i).
        radii: Vec<Float>,
        /// max_i |K(X)_i − x̌_i| / r_i (< 1), rounded up.
        contraction: f64,
        /// Number of ε-inflation steps taken.
        inflations: u32,
    },
    /// K(X) ∩ X = ∅ in some component: no zero in the last box tried.
    NoZero {
        /// Which box was excluded.
        reason: String,
    },
    /// Neither inclusion nor exclusion could be shown.
    Undecided {
        /// Why.
        reason: String,
    },
}

/// Krawczyk with ε-inflation: starts from boxes of radius 4·|A⁻¹G(x̌)| (plus a small floor),
/// then sets r ← max(r, 2·|K(X) − x̌|) until K(X) ⊂ int X, at most `max_inflations` times.
///
/// `hint`: a uniform radius to try first (one evaluation instead of two when it works; the
/// engine passes 2^(−prec/2), the middle of the window in which the residual term and the
/// quadratic term both fit when prec ≈ 2·log₂ Γ); on failure the usual start is used.
///
/// `solve_prec`: precision of the cyclic solve ([`eval_split`]); `prec` for the plain form.
pub fn prove_existence<S: Ivl>(
    x: &[Float],
    pb: &ParamBox,
    prec: u32,
    solve_prec: u32,
    max_inflations: u32,
    hint: Option<&Float>,
) -> Existence {
    let p = x.len();
    if let Some(h) = hint {
        let r: Vec<Float> = vec![Float::with_val(53, h); p];
        if let Ok(ev) = eval_split::<S>(x, &r, pb, prec, solve_prec) {
            if ev.inside {
                return Existence::Proved {
                    radii: r,
                    contraction: ev.worst_ratio,
                    inflations: 0,
                };
            }
        }
    }
    let zero_r: Vec<Float> = vec![Float::with_val(53, 0); p];
    let first = match eval_split::<S>(x, &zero_r, pb, prec, solve_prec) {
        Ok(k) => k,
        Err(e) => {
            return Existence::Undecided {
                reason: format!("Newton step enclosure failed: {e:?}"),
            }
        }
    };
    let mut big = Float::with_val(53, 0);
    for m in &first.mags {
        if *m > big {
            big = m.clone();
        }
    }
    if big.is_zero() {
        // The centre is an exact zero for the whole box (e.g. a point parameter and an exact
        // orbit): any positive radius works; take a tiny one.
        big = Float::with_val(53, 2f64.powi(-60));
        big >>= prec.min(900);
    }
    let floor = Float::with_val_round(53, &big * 2f64.powi(-30), Round::Up).0;
    let mut r: Vec<Float> = first
        .mags
        .iter()
        .map(|m| {
            let v = Float::with_val_round(53, m * 4u32, Round::Up).0;
            if v > floor {
                v
            } else {
                floor.clone()
            }
        })
        .collect();
    let limit = Float::with_val(53, 1e-3);
    for k in 0..=max_inflations {
        let ev = match eval_split::<S>(x, &r, pb, prec, solve_prec) {
            Ok(ev) => ev,
            Err(e) => {
                return Existence::Undecided {
                    reason: format!("Krawczyk enclosure failed after {k} inflations: {e:?}"),
                }
            }
        };
        if ev.inside {
            return Existence::Proved {
                radii: r,
                contraction: ev.worst_ratio,
                inflations: k,
            };
        }
        if ev.excluded {
            return Existence::NoZero {
                reason: format!("K(X) misses X after {k} inflations"),
            };
        }
        for (ri, m) in r.iter_mut().zip(&ev.mags) {
            let v = Float::with_val_round(53, m * 2u32, Round::Up).0;
            if v > *ri {
                *ri = v;
            }
        }
        if r.iter().any(|ri| *ri > limit) {
            return Existence::Undecided {
                reason: format!(
                    "boxes grew past 1e-3 after {} inflations (worst ratio {:.3e}): contraction too weak at {} bits",
                    k + 1,
                    ev.worst_ratio,
                    prec
                ),
            };
        }
    }
    Existence::Undecided {
        reason: format!("no inclusion after {max_inflations} inflations at {prec} bits"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ivl::{F64Iv, MpBall, MpIv};
    use rug::Rational;

    /// Exact solution of the cyclic system by Gaussian elimination over the rationals.
    fn exact_solve(alpha: &[Rational], beta: &Rational, w: &[Rational]) -> Vec<Rational> {
        let p = alpha.len();
        let mut m = vec![vec![Rational::new(); p + 1]; p];
        for i in 0..p {
            m[i][(i + 1) % p] += 1;
            m[i][i] += &alpha[i];
            m[i][(i + p - 1) % p] -= beta;
            m[i][p] = w[i].clone();
        }
        for c in 0..p {
            let r = (c..p).find(|&r| m[r][c] != 0).expect("nonsingular");
            m.swap(c, r);
            let pivot_row = m[c].clone();
            for (r, row) in m.iter_mut().enumerate() {
                if r != c && row[c] != 0 {
                    let f = Rational::from(&row[c] / &pivot_row[c]);
                    for (x, y) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                        *x -= Rational::from(&f * y);
                    }
                }
            }
        }
        (0..p)
            .map(|i| Rational::from(&m[i][p] / &m[i][i]))
            .collect()
    }

    fn encloses<S: Ivl>(prec: u32, keep: bool) {
        // Coefficients with inexact binary values (thirds), α_i of both signs; the interval
        // solve must contain the exact rational solution for every period up to 12.
        for p in 1..=12usize {
            let alpha: Vec<Rational> = (0..p)
                .map(|i| Rational::from((7 * (i as i64 % 5) - 13, 3 + i as i64 % 2)))
                .collect();
            let beta = Rational::from((3, 10));
            let w: Vec<Rational> = (0..p).map(|i| Rational::from((2 - i as i64, 3))).collect();
            let d = exact_solve(&alpha, &beta, &w);
            let enc = |q: &Rational| {
                let lo = Float::with_val_round(prec, q, Round::Down).0;
                let hi = Float::with_val_round(prec, q, Round::Up).0;
                S::from_bounds(&lo, &hi, prec)
            };
            let mut got: Vec<S> = Vec::new();
            cyclic_solve::<S>(
                p,
                &enc(&beta),
                prec,
                keep,
                |i| (enc(&alpha[i]), enc(&w[i])),
                |_, v| got.push(v.clone()),
            )
            .expect("solvable");
            assert_eq!(got.len(), p);
            for i in 0..p {
                let (lo, hi) = (got[i].lo().to_rational(), got[i].hi().to_rational());
                assert!(
                    lo.is_some_and(|l| l <= d[i]) && hi.is_some_and(|h| d[i] <= h),
                    "{} p={p} i={i}",
                    S::KIND
                );
            }
        }
    }

    #[test]
    fn interval_cyclic_solve_encloses_the_exact_solution() {
        encloses::<F64Iv>(53, false);
        encloses::<MpIv>(120, false);
        encloses::<MpIv>(120, true);
        encloses::<MpBall>(120, false);
        encloses::<MpBall>(120, true);
    }
}
