//! The independent second proof path (MATH.md §4.4): a 2-D Krawczyk on F(z) = h^p(z) − z in
//! MPFR interval arithmetic, over the same parameter box. It shares no code with the
//! multiple-shooting proof beyond the interval type: the map is iterated directly on boxes,
//! the Jacobian of h^p over the box is the product of the 2×2 interval Jacobians, and the
//! preconditioner is a floating-point inverse of Dh^p(ž) − I.
//!
//! K(Z) = ž − C·F(ž) + (I − C·DF(Z))·(Z − ž) with I − C·DF(Z) formed first as an interval
//! matrix (MATH.md's trap: (Z − ž) − C·(DF(Z)·(Z − ž)) would not cancel). K(Z) ⊂ int Z proves
//! a unique fixed point of h^p in Z for every parameter in the box. The monodromy enclosure
//! over Z then decides stability by the same Jury test. Direct shooting wraps like the
//! products of |Dh|, so it needs about twice the bits of the main proof; it is run at a
//! precision chosen from the measured growth.
//!
//! Only ž and F(ž) need the full precision P (the residual C·F(ž) must be near 2^(−P)·Γ). The
//! Jacobian over Z enters through B = I − C·DF(Z), which multiplies Z − ž (radius about
//! 2^(−P/2)): its enclosure needs width well below 1, i.e. about log₂ Γ + margin bits, and C
//! may be any matrix. Both are therefore computed at [`jacobian_bits`]`(P)` ≈ 0.55·P + 96 bits
//! (the interval inputs rounded outward, so every enclosure still contains the exact set), and
//! at P only if that fails. The choice depends on P alone, so `verify` repeats it exactly.

use crate::ivl::Ivl;
use crate::krawczyk::ipow;
use crate::params::ParamBox;
use crate::stability::Stability;
use rug::float::Round;
use rug::Float;

/// Result of the cross-check.
#[derive(Clone, Debug)]
pub struct CrossCheck {
    /// Whether K(Z) ⊂ int Z was shown.
    pub proved: bool,
    /// Centre ž = (x, y).
    pub centre: [Float; 2],
    /// Radii of Z.
    pub radii: [Float; 2],
    /// Enclosure [lo, hi] of tr Dh^p over Z (when proved).
    pub trace: Option<(Float, Float)>,
    /// Stability decision over Z.
    pub decision: Stability,
    /// Precision used (bits) for ž and F(ž).
    pub bits: u32,
    /// Precision of the Jacobian enclosure over Z and of the preconditioner.
    pub jacobian_bits: u32,
    /// max |K − ž|/ρ (rounded up), informative.
    pub contraction: f64,
    /// What went wrong, if anything.
    pub reason: Option<String>,
}

fn h_box<S: Ivl>(ia: &S, ib: &S, one: &S, x: &S, y: &S) -> (S, S) {
    (y.add(one).sub(&ia.mul(&x.sqr())), ib.mul(x))
}

/// Iterates boxes p times and returns (h^p(Z), Dh^p over Z as [m11, m12, m21, m22]).
fn shoot<S: Ivl>(
    ia: &S,
    ib: &S,
    x: S,
    y: S,
    p: usize,
    prec: u32,
    with_matrix: bool,
) -> ((S, S), [S; 4]) {
    let one = S::int(1, prec);
    let m2a = S::int(-2, prec).mul(ia);
    let mut m = [one.clone(), S::int(0, prec), S::int(0, prec), one.clone()];
    let (mut x, mut y) = (x, y);
    for _ in 0..p {
        if with_matrix {
            let j11 = m2a.mul(&x);
            let n = [
                j11.mul(&m[0]).add(&m[2]),
                j11.mul(&m[1]).add(&m[3]),
                ib.mul(&m[0]),
                ib.mul(&m[1]),
            ];
            m = n;
        }
        let (nx, ny) = h_box(ia, ib, &one, &x, &y);
        x = nx;
        y = ny;
    }
    ((x, y), m)
}

/// Dh^p at a point in floating point (for the preconditioner only: any C works).
fn point_monodromy(a: &Float, b: &Float, x: &Float, y: &Float, p: usize, prec: u32) -> [Float; 4] {
    let (mut x, mut y) = (Float::with_val(prec, x), Float::with_val(prec, y));
    let mut m = [
        Float::with_val(prec, 1),
        Float::with_val(prec, 0),
        Float::with_val(prec, 0),
        Float::with_val(prec, 1),
    ];
    for _ in 0..p {
        let j11 = Float::with_val(prec, a * &x) * -2i32;
        let n = [
            Float::with_val(prec, &j11 * &m[0]) + &m[2],
            Float::with_val(prec, &j11 * &m[1]) + &m[3],
            Float::with_val(prec, b * &m[0]),
            Float::with_val(prec, b * &m[1]),
        ];
        m = n;
        let nx = Float::with_val(prec, 1 + &y)
            - Float::with_val(prec, a * Float::with_val(prec, x.square_ref()));
        y = Float::with_val(prec, b * &x);
        x = nx;
    }
    m
}

/// Precision of the Jacobian over Z and of the preconditioner when ž and F(ž) use `prec` bits:
/// 0.55·prec + 96 (the main proof runs at P ≈ 2.1·log₂ Γ, so this is about 1.15·log₂ Γ + 131),
/// rounded up to a multiple of 32, at most `prec`.
pub fn jacobian_bits(prec: u32) -> u32 {
    ((prec as f64 * 0.55) as u32 + 96)
        .div_ceil(32)
        .saturating_mul(32)
        .min(prec)
}

/// Runs the 2-D Krawczyk around ž = (x0, b̌·x_{p−1}) at `prec` bits, the Jacobian at
/// [`jacobian_bits`]`(prec)` and, if that does not prove it, at `prec`.
pub fn cross_check<S: Ivl>(
    x0: &Float,
    xlast: &Float,
    p: usize,
    pb: &ParamBox,
    prec: u32,
) -> CrossCheck {
    let q = jacobian_bits(prec);
    let first = cross_check_at::<S>(x0, xlast, p, pb, prec, q);
    if first.proved || q >= prec {
        return first;
    }
    cross_check_at::<S>(x0, xlast, p, pb, prec, prec)
}

/// [`cross_check`] with the Jacobian and preconditioner at `q ≤ prec` bits.
fn cross_check_at<S: Ivl>(
    x0: &Float,
    xlast: &Float,
    p: usize,
    pb: &ParamBox,
    prec: u32,
    q: u32,
) -> CrossCheck {
    let ia = S::from_bounds(&pb.a.lo, &pb.a.hi, prec);
    let ib = S::from_bounds(&pb.b.lo, &pb.b.hi, prec);
    let zx = Float::with_val(prec, x0);
    let zy = Float::with_val(prec, &pb.b.centre * xlast);
    let fail = |reason: String, radii: [Float; 2]| CrossCheck {
        proved: false,
        centre: [zx.clone(), zy.clone()],
        radii,
        trace: None,
        decision: Stability::Undecided,
        bits: prec,
        jacobian_bits: q,
        contraction: f64::INFINITY,
        reason: Some(reason),
    };
    let zero2 = [Float::with_val(53, 0), Float::with_val(53, 0)];
    // F(ž) over the parameter box.
    let ((fx, fy), _) = shoot(
        &ia,
        &ib,
        S::point(&zx, prec),
        S::point(&zy, prec),
        p,
        prec,
        false,
    );
    let fx = fx.sub(&S::point(&zx, prec));
    let fy = fy.sub(&S::point(&zy, prec));
    // Point monodromy at ž (floating point) for the preconditioner C ≈ (Dh^p(ž) − I)⁻¹.
    // (At q bits: any C is sound; q ≈ log₂ Γ bits keep I − C·DF(Z) small.)
    let mc = point_monodromy(&pb.a.centre, &pb.b.centre, &zx, &zy, p, q);
    let (a11, a12, a21, a22) = (
        Float::with_val(q, &mc[0] - 1u32),
        mc[1].clone(),
        mc[2].clone(),
        Float::with_val(q, &mc[3] - 1u32),
    );
    let det = Float::with_val(q, &a11 * &a22) - Float::with_val(q, &a12 * &a21);
    if det.is_zero() || !det.is_finite() {
        return fail("Dh^p(ž) − I numerically singular".into(), zero2);
    }
    let c = [
        S::point(&Float::with_val(q, &a22 / &det), q),
        S::point(&(-Float::with_val(q, &a12 / &det)), q),
        S::point(&(-Float::with_val(q, &a21 / &det)), q),
        S::point(&Float::with_val(q, &a11 / &det), q),
    ];
    // −C·F(ž)
    let cf_x = c[0].mul(&fx).add(&c[1].mul(&fy)).neg();
    let cf_y = c[2].mul(&fx).add(&c[3].mul(&fy)).neg();
    let up = |v: &Float| Float::with_val_round(53, v, Round::Up).0;
    let mut rho = [up(&(cf_x.mag() * 4u32)), up(&(cf_y.mag() * 4u32))];
    let floor = up(&(rho[0].clone().max(&rho[1]) * 2f64.powi(-30)));
    for r in rho.iter_mut() {
        if *r < floor {
            *r = floor.clone();
        }
        if r.is_zero() {
            *r = Float::with_val(53, 2f64.powi(-200));
        }
    }
    // For long orbits first try ρ = 2^(−prec/2) (the middle of the window where the residual
    // and quadratic terms both fit, as in the main proof): one shot of the box instead of
    // several inflations. If that fails, start again from 4·|C·F(ž)|.
    let mut starts = Vec::new();
    if prec >= 512 {
        let mut h = Float::with_val(53, 1);
        h >>= prec / 2;
        if h > rho[0] && h > rho[1] {
            starts.push([h.clone(), h]);
        }
    }
    starts.push(rho);
    let one = S::int(1, prec);
    // The parameter box for the Jacobian, rounded outward to q bits.
    let iaq = S::from_bounds(&pb.a.lo, &pb.a.hi, q);
    let ibq = S::from_bounds(&pb.b.lo, &pb.b.hi, q);
    let mut last = fail("not run".into(), zero2.clone());
    for (si, start) in starts.iter().enumerate() {
        let res = krawczyk_2d(
            (&iaq, &ibq),
            &ib,
            &zx,
            &zy,
            &cf_x,
            &cf_y,
            &c,
            start.clone(),
            &one,
            p,
            (prec, q),
        );
        match res {
            Ok(cc) => return cc,
            Err((reason, radii)) => {
                last = fail(reason, radii);
                if si + 1 < starts.len() {
                    continue;
                }
            }
        }
    }
    last
}

/// The Krawczyk iteration with ε-inflation: `jac` = (a, b) boxes at q bits for the Jacobian
/// over Z, `ib` the b box at `prec` bits for det = (−b)^p, `bits` = (prec, q).
#[allow(clippy::too_many_arguments)]
fn krawczyk_2d<S: Ivl>(
    jac: (&S, &S),
    ib: &S,
    zx: &Float,
    zy: &Float,
    cf_x: &S,
    cf_y: &S,
    c: &[S; 4],
    mut rho: [Float; 2],
    one: &S,
    p: usize,
    bits: (u32, u32),
) -> Result<CrossCheck, (String, [Float; 2])> {
    let (prec, q) = bits;
    let (ia, ibq, ib, one) = (jac.0.clone(), jac.1.clone(), ib.clone(), one.clone());
    let up = |v: &Float| Float::with_val_round(53, v, Round::Up).0;
    for _ in 0..12 {
        let ex = S::from_bounds(&Float::with_val(53, -&rho[0]), &rho[0], prec);
        let ey = S::from_bounds(&Float::with_val(53, -&rho[1]), &rho[1], prec);
        // Z rounded outward to q bits (a superset of Z: the enclosure of DF over it contains
        // DF over Z).
        let bxz = S::point(zx, q).add(&ex);
        let byz = S::point(zy, q).add(&ey);
        let (_, m) = shoot(&ia, &ibq, bxz, byz, p, q, true);
        let df = [m[0].sub(&one), m[1].clone(), m[2].clone(), m[3].sub(&one)];
        // B = I − C·DF(Z), formed before applying it.
        let b11 = one.sub(&c[0].mul(&df[0]).add(&c[1].mul(&df[2])));
        let b12 = c[0].mul(&df[1]).add(&c[1].mul(&df[3])).neg();
        let b21 = c[2].mul(&df[0]).add(&c[3].mul(&df[2])).neg();
        let b22 = one.sub(&c[2].mul(&df[1]).add(&c[3].mul(&df[3])));
        let kx = cf_x.add(&b11.mul(&ex)).add(&b12.mul(&ey));
        let ky = cf_y.add(&b21.mul(&ex)).add(&b22.mul(&ey));
        if !(kx.is_finite() && ky.is_finite()) {
            return Err(("enclosure not finite".into(), rho));
        }
        let inside = |k: &S, r: &Float| k.certainly_inside_open(&Float::with_val(53, -r), r);
        let ratio = |k: &S, r: &Float| Float::with_val_round(53, k.mag() / r, Round::Up).0.to_f64();
        let worst = ratio(&kx, &rho[0]).max(ratio(&ky, &rho[1]));
        if inside(&kx, &rho[0]) && inside(&ky, &rho[1]) {
            let trace = m[0].add(&m[3]);
            let det = ipow(&ib.neg(), p as u64, prec);
            let one_det = one.add(&det);
            let (at, ad) = (trace.abs(), det.abs());
            let decision = if ad.certainly_lt(&one) && at.certainly_lt(&one_det) {
                Stability::Attracting
            } else if one.certainly_lt(&ad) || one_det.certainly_lt(&at) {
                Stability::NotAttracting
            } else {
                Stability::Undecided
            };
            return Ok(CrossCheck {
                proved: true,
                centre: [zx.clone(), zy.clone()],
                radii: rho,
                trace: Some((trace.lo(), trace.hi())),
                decision,
                bits: prec,
                jacobian_bits: q,
                contraction: worst,
                reason: None,
            });
        }
        let grow = |r: &Float, k: &S| {
            let v = up(&(k.mag() * 2u32));
            if v > *r {
                v
            } else {
                r.clone()
            }
        };
        rho = [grow(&rho[0], &kx), grow(&rho[1], &ky)];
        if rho[0] > 1e-3 || rho[1] > 1e-3 {
            return Err((format!("boxes grew past 1e-3 at {prec} bits"), rho));
        }
    }
    Err(("no inclusion after 12 inflations".into(), rho))
}
