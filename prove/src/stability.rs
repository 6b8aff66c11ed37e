//! Minimal period and stability of an orbit whose existence is proved in boxes X_i = x̌_i ± r_i
//! (MATH.md §4.2–4.3).
//!
//! - Minimal period: if the true orbit had period d | p, d < p, then x_i = x_{i+d} for every i;
//!   so for each prime q | p it suffices to find one i with X_i and X_{i+p/q} disjoint.
//! - Stability: M = Dh(z_{p−1})···Dh(z_0) with Dh(x, y) = [[−2a·x, 1], [b, 0]] (the y-entry of
//!   z_i is not needed), enclosed over the boxes and the parameter box by a running 2×2
//!   interval product (O(1) memory); det M = (−b)^p. Both eigenvalues of a real 2×2 matrix lie
//!   strictly inside the unit circle iff |det M| < 1 and |tr M| < 1 + det M (Jury). If
//!   |det M| > 1 or |tr M| > 1 + det M for every point of the enclosures, some eigenvalue has
//!   modulus > 1 (the characteristic polynomial is negative at 1 or −1, or the product of the
//!   eigenvalues exceeds 1): the orbit is certainly not attracting.

use crate::ivl::Ivl;
use crate::krawczyk::ipow;
use crate::params::ParamBox;
use rug::Float;

/// What the Jury test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stability {
    /// Both eigenvalues strictly inside the unit circle for every parameter in the box.
    Attracting,
    /// Some eigenvalue outside the closed unit disc for every parameter in the box.
    NotAttracting,
    /// The enclosures straddle the boundary.
    Undecided,
}

/// Enclosures of tr M and det M and the decision.
#[derive(Clone, Debug)]
pub struct StabilityEval<S> {
    /// tr Dh^p over the boxes.
    pub trace: S,
    /// det Dh^p = (−b)^p.
    pub det: S,
    /// The Jury decision.
    pub decision: Stability,
}

/// Encloses the box x̌ ± r (interval addition, so rounding is outward).
pub fn box_of<S: Ivl>(x: &Float, r: &Float, prec: u32) -> S {
    S::point(x, prec).add(&S::from_bounds(&Float::with_val(r.prec(), -r), r, prec))
}

/// Encloses tr and det of the monodromy over the boxes and decides stability.
pub fn stability<S: Ivl>(x: &[Float], r: &[Float], pb: &ParamBox, prec: u32) -> StabilityEval<S> {
    let p = x.len();
    let ia = S::from_bounds(&pb.a.lo, &pb.a.hi, prec);
    let ib = S::from_bounds(&pb.b.lo, &pb.b.hi, prec);
    let m2a = S::int(-2, prec).mul(&ia);
    let (mut p11, mut p12, mut p21, mut p22) = (
        S::int(1, prec),
        S::int(0, prec),
        S::int(0, prec),
        S::int(1, prec),
    );
    for i in 0..p {
        let ri = &r[i];
        let xi = box_of::<S>(&x[i], ri, prec);
        let j11 = m2a.mul(&xi);
        let n11 = j11.mul(&p11).add(&p21);
        let n12 = j11.mul(&p12).add(&p22);
        let n21 = ib.mul(&p11);
        let n22 = ib.mul(&p12);
        p11 = n11;
        p12 = n12;
        p21 = n21;
        p22 = n22;
    }
    let trace = p11.add(&p22);
    let det = ipow(&ib.neg(), p as u64, prec);
    let one = S::int(1, prec);
    let one_det = one.add(&det);
    let abs_tr = trace.abs();
    let abs_det = det.abs();
    let decision = if abs_det.certainly_lt(&one) && abs_tr.certainly_lt(&one_det) {
        Stability::Attracting
    } else if one.certainly_lt(&abs_det) || one_det.certainly_lt(&abs_tr) {
        Stability::NotAttracting
    } else {
        Stability::Undecided
    };
    StabilityEval {
        trace,
        det,
        decision,
    }
}

/// The proper divisors p/q (q prime) to check for minimal period p.
pub fn maximal_proper_divisors(p: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut n = p;
    let mut q = 2;
    while q * q <= n {
        if n.is_multiple_of(q) {
            out.push(p / q);
            while n.is_multiple_of(q) {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        out.push(p / n);
    }
    out
}

/// Checks that the orbit in the boxes has minimal period p: for each maximal proper divisor d,
/// some i with X_i ∩ X_{i+d} = ∅. Returns the witnesses (d, i) or the first divisor that failed.
pub fn minimal_period<S: Ivl>(
    x: &[Float],
    r: &[Float],
    prec: u32,
) -> Result<Vec<(usize, usize)>, usize> {
    let p = x.len();
    let bx = |i: usize| box_of::<S>(&x[i], &r[i], prec);
    let mut witnesses = Vec::new();
    for d in maximal_proper_divisors(p) {
        let found = (0..p).find(|&i| bx(i).certainly_disjoint(&bx((i + d) % p)));
        match found {
            Some(i) => witnesses.push((d, i)),
            None => return Err(d),
        }
    }
    Ok(witnesses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors() {
        assert_eq!(maximal_proper_divisors(1), Vec::<usize>::new());
        assert_eq!(maximal_proper_divisors(7), vec![1]);
        assert_eq!(maximal_proper_divisors(12), vec![6, 4]);
        assert_eq!(maximal_proper_divisors(1000), vec![500, 200]);
    }
}
