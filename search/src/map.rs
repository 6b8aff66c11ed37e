//! The map abstraction: a planar map with its value and Jacobian, written once over the
//! arithmetic trait [`expanse_core::MapScalar`] so the same definition is evaluated in f64,
//! f32, any expansion (accurate tier, and fast tier through [`expanse_core::Fast`], which is
//! what the search iterates) and, in the interval and prove crates, intervals of each kind.
//!
//! The value of the Hénon map is `expanse_core::henon_step` itself (the fixed order of
//! operations the GPU kernels repeat); this module does not write the step a second time.

use expanse_core::{henon_step, Expansion, Fast, FloatTerm, MapScalar};

/// Arithmetic a Jacobian needs beyond [`MapScalar`]: parameters and small integer constants
/// as values of the scalar type, and negation. Implementations must represent the constants
/// exactly (all the ones used are small integers).
pub trait JacobianScalar<P>: MapScalar<P> {
    /// The parameter `p` as a value of this type.
    fn from_param(p: &P) -> Self;
    /// The small integer `c` (|c| ≤ 2^24) as a value of this type, exactly.
    fn small_int(c: i32) -> Self;
    /// −self (exact).
    fn neg(&self) -> Self;
}

/// A planar map with two parameters `(a, b)`: value and Jacobian, generic over the arithmetic.
pub trait PlanarMap: Send + Sync {
    /// Name written in files (`"henon"`).
    fn name(&self) -> &'static str;
    /// The image of (x, y).
    fn step<P, S: MapScalar<P>>(&self, a: &P, b: &P, x: &S, y: &S) -> (S, S);
    /// The Jacobian matrix at (x, y), row-major: `[[∂x'/∂x, ∂x'/∂y], [∂y'/∂x, ∂y'/∂y]]`.
    fn jacobian<P, S: JacobianScalar<P>>(&self, a: &P, b: &P, x: &S, y: &S) -> [[S; 2]; 2];
}

/// The Hénon map h(x, y) = (1 + y − a·x², b·x), with Jacobian [[−2·a·x, 1], [b, 0]].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Henon;

impl PlanarMap for Henon {
    fn name(&self) -> &'static str {
        "henon"
    }

    #[inline(always)]
    fn step<P, S: MapScalar<P>>(&self, a: &P, b: &P, x: &S, y: &S) -> (S, S) {
        henon_step(a, b, x, y)
    }

    #[inline]
    fn jacobian<P, S: JacobianScalar<P>>(&self, a: &P, b: &P, x: &S, _y: &S) -> [[S; 2]; 2] {
        // −2·a·x as (a·x)·(−2): the scaling by −2 is exact, so every arithmetic rounds once.
        let ax = x.mul_param(a);
        let j00 = ax.mul(&S::small_int(-2));
        [[j00, S::small_int(1)], [S::from_param(b), S::small_int(0)]]
    }
}

impl JacobianScalar<f64> for f64 {
    fn from_param(p: &f64) -> Self {
        *p
    }
    fn small_int(c: i32) -> Self {
        c as f64
    }
    fn neg(&self) -> Self {
        -*self
    }
}

impl JacobianScalar<f32> for f32 {
    fn from_param(p: &f32) -> Self {
        *p
    }
    fn small_int(c: i32) -> Self {
        c as f32
    }
    fn neg(&self) -> Self {
        -*self
    }
}

impl<T: FloatTerm, const N: usize> JacobianScalar<Expansion<T, N>> for Expansion<T, N> {
    fn from_param(p: &Expansion<T, N>) -> Self {
        *p
    }
    fn small_int(c: i32) -> Self {
        Expansion::from_f64(c as f64)
    }
    fn neg(&self) -> Self {
        Expansion::neg(self)
    }
}

impl<T: FloatTerm, const N: usize> JacobianScalar<Expansion<T, N>> for Fast<T, N> {
    fn from_param(p: &Expansion<T, N>) -> Self {
        Fast(*p)
    }
    fn small_int(c: i32) -> Self {
        Fast(Expansion::from_f64(c as f64))
    }
    fn neg(&self) -> Self {
        Fast(self.0.neg())
    }
}

/// The Jacobian of the k-th iterate along an orbit, D h^k(z) = J(z_{k−1})·…·J(z_0), and the
/// point h^k(z), composed from [`PlanarMap::step`] and [`PlanarMap::jacobian`].
pub fn iterate_with_jacobian<M: PlanarMap, P, S: JacobianScalar<P>>(
    map: &M,
    a: &P,
    b: &P,
    x: &S,
    y: &S,
    k: u32,
) -> ((S, S), [[S; 2]; 2]) {
    let one = S::small_int(1);
    let zero = S::small_int(0);
    let mut m = [[one.clone(), zero.clone()], [zero, one]];
    let (mut x, mut y) = (x.clone(), y.clone());
    for _ in 0..k {
        let j = map.jacobian(a, b, &x, &y);
        let mul = |r: usize, c: usize| j[r][0].mul(&m[0][c]).add(&j[r][1].mul(&m[1][c]));
        m = [[mul(0, 0), mul(0, 1)], [mul(1, 0), mul(1, 1)]];
        let (nx, ny) = map.step(a, b, &x, &y);
        x = nx;
        y = ny;
    }
    ((x, y), m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Float;

    #[test]
    fn step_is_the_core_step_in_every_arithmetic() {
        let (a, b) = (1.4f64, 0.3f64);
        let (x, y) = (0.63f64, -0.19f64);
        assert_eq!(Henon.step(&a, &b, &x, &y), (1.0 + y - a * (x * x), b * x));
        let ae = Expansion::<f64, 3>::from_f64(a);
        let be = Expansion::<f64, 3>::from_f64(b);
        let xe = Fast(Expansion::<f64, 3>::from_f64(x));
        let ye = Fast(Expansion::<f64, 3>::from_f64(y));
        let (nx, ny) = Henon.step(&ae, &be, &xe, &ye);
        let (cx, cy) = henon_step(&ae, &be, &xe, &ye);
        assert_eq!(nx.0.terms(), cx.0.terms());
        assert_eq!(ny.0.terms(), cy.0.terms());
    }

    #[test]
    fn jacobian_of_the_period_two_iterate_matches_mpfr() {
        // Oracle: D h²(z) = J(h(z))·J(z) with J computed by hand in MPFR at 300 bits.
        let (a, b, x, y) = (1.4f64, 0.3f64, 0.37f64, 0.11f64);
        let p = 300;
        let f = |v: f64| Float::with_val(p, v);
        let x1 = f(1.0) + f(y) - f(a) * f(x) * f(x);
        let j0 = [[f(-2.0) * f(a) * f(x), f(1.0)], [f(b), f(0.0)]];
        let j1 = [[f(-2.0) * f(a) * &x1, f(1.0)], [f(b), f(0.0)]];
        let mut want = [[f(0.0), f(0.0)], [f(0.0), f(0.0)]];
        for r in 0..2 {
            for c in 0..2 {
                want[r][c] = Float::with_val(p, &j1[r][0] * &j0[0][c]) + &j1[r][1] * &j0[1][c];
            }
        }
        let ae = Expansion::<f64, 4>::from_f64(a);
        let be = Expansion::<f64, 4>::from_f64(b);
        let xe = Expansion::<f64, 4>::from_f64(x);
        let ye = Expansion::<f64, 4>::from_f64(y);
        let (_, m) = iterate_with_jacobian(&Henon, &ae, &be, &xe, &ye, 2);
        for r in 0..2 {
            for c in 0..2 {
                let err = Float::with_val(p, m[r][c].to_rug() - &want[r][c]).abs();
                assert!(err < 1e-55, "entry ({r},{c}) off by {err}");
            }
        }
        // In f64 the same composition is accurate to a few ulps.
        let (_, m64) = iterate_with_jacobian(&Henon, &a, &b, &x, &y, 2);
        for r in 0..2 {
            for c in 0..2 {
                let w = want[r][c].to_f64();
                assert!((m64[r][c] - w).abs() <= 4.0 * f64::EPSILON * w.abs().max(1.0));
            }
        }
    }
}
