//! The Hénon map h(x, y) = (1 + y − a·x², b·x), written once over a small arithmetic trait so
//! the same code iterates in `f64`, `f32`, any expansion (either tier) and, in the interval
//! crate, intervals of every kind.
//!
//! The order of operations is fixed and documented because the GPU kernels repeat it exactly
//! (bit-identical orbits):
//!
//! ```text
//! x² = sqr(x);  x' = henon_x(y, a, x²);  y' = b·x
//! ```
//!
//! where `henon_x(y, a, x²)` is, by default, `t = a·x²; u = y + 1; x' = u − t` (three
//! operations: f64, f32, the accurate tier, intervals). The search arithmetic ([`Fast`]) fuses
//! it into one operation for N ≥ 3 ([`Expansion::henon_x_fast`]): one renormalisation instead
//! of three, the largest saving per step on the GPU.

use crate::expansion::Expansion;
use crate::float::FloatTerm;

/// The arithmetic a map needs: a commutative ring with squaring, plus multiplication and
/// addition by the parameter type `P`.
pub trait MapScalar<P>: Clone {
    /// self + other
    fn add(&self, other: &Self) -> Self;
    /// self − other
    fn sub(&self, other: &Self) -> Self;
    /// self · other
    fn mul(&self, other: &Self) -> Self;
    /// self²
    fn sqr(&self) -> Self;
    /// self · p for a parameter value p
    fn mul_param(&self, p: &P) -> Self;
    /// self + 1
    fn add_one(&self) -> Self;
    /// The new x of a Hénon step, `1 + y − a·x2`: by default `u = y + 1; t = a·x2; u − t`
    /// (in that order of rounding). An implementation may fuse it (see [`Fast`]).
    #[inline(always)]
    fn henon_x(y: &Self, a: &P, x2: &Self) -> Self
    where
        Self: Sized,
    {
        let t = x2.mul_param(a);
        let u = y.add_one();
        u.sub(&t)
    }
}

/// One step of the Hénon map in the documented order of operations.
#[inline(always)]
pub fn henon_step<S: MapScalar<P>, P>(a: &P, b: &P, x: &S, y: &S) -> (S, S) {
    let x2 = x.sqr();
    (S::henon_x(y, a, &x2), x.mul_param(b))
}

impl MapScalar<f64> for f64 {
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    #[inline(always)]
    fn sqr(&self) -> Self {
        self * self
    }
    #[inline(always)]
    fn mul_param(&self, p: &f64) -> Self {
        self * p
    }
    #[inline(always)]
    fn add_one(&self) -> Self {
        self + 1.0
    }
}

impl MapScalar<f32> for f32 {
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    #[inline(always)]
    fn sqr(&self) -> Self {
        self * self
    }
    #[inline(always)]
    fn mul_param(&self, p: &f32) -> Self {
        self * p
    }
    #[inline(always)]
    fn add_one(&self) -> Self {
        self + 1.0
    }
}

/// Accurate-tier expansion arithmetic with expansion parameters.
impl<T: FloatTerm, const N: usize> MapScalar<Expansion<T, N>> for Expansion<T, N> {
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        Expansion::add(self, o)
    }
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        Expansion::sub(self, o)
    }
    #[inline(always)]
    fn mul(&self, o: &Self) -> Self {
        Expansion::mul(self, o)
    }
    #[inline(always)]
    fn sqr(&self) -> Self {
        Expansion::sqr(self)
    }
    #[inline(always)]
    fn mul_param(&self, p: &Self) -> Self {
        Expansion::mul(self, p)
    }
    #[inline(always)]
    fn add_one(&self) -> Self {
        self.add_term(T::ONE)
    }
    /// x' = 1 + y − a·x2 with the sum in one operation ([`Expansion::add_term_sub`]: one
    /// renormalisation of the exact 1 + y − t for N ≥ 3; for N ≤ 2 the default sequence).
    #[inline(always)]
    fn henon_x(y: &Self, a: &Expansion<T, N>, x2: &Self) -> Self {
        let t = x2.mul_param(a);
        y.add_term_sub(T::ONE, &t)
    }
}

/// Fast-tier expansion arithmetic: the *search arithmetic*, what the CPU search backend and the
/// GPU kernels run. Parameters are expansions; when a parameter is one machine number
/// ([`Expansion::is_single_term`], e.g. every f64 grid value with f64 terms) it is multiplied
/// with [`Expansion::mul_term_fast`], otherwise with [`Expansion::mul_fast`]; the kernels make
/// the same choice per orbit, so results agree bit for bit.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Fast<T: FloatTerm, const N: usize>(pub Expansion<T, N>);

impl<T: FloatTerm, const N: usize> MapScalar<Expansion<T, N>> for Fast<T, N> {
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        Fast(self.0.add_fast(&o.0))
    }
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        Fast(self.0.sub_fast(&o.0))
    }
    #[inline(always)]
    fn mul(&self, o: &Self) -> Self {
        Fast(self.0.mul_fast(&o.0))
    }
    #[inline(always)]
    fn sqr(&self) -> Self {
        Fast(self.0.sqr_fast())
    }
    #[inline(always)]
    fn mul_param(&self, p: &Expansion<T, N>) -> Self {
        if p.is_single_term() {
            Fast(self.0.mul_term_fast(p.hi()))
        } else {
            Fast(self.0.mul_fast(p))
        }
    }
    #[inline(always)]
    fn add_one(&self) -> Self {
        Fast(self.0.add_term_fast(T::ONE))
    }
    #[inline(always)]
    fn henon_x(y: &Self, a: &Expansion<T, N>, x2: &Self) -> Self {
        Fast(Expansion::henon_x_fast(&y.0, a, &x2.0))
    }
}

/// Iterates the Hénon map `steps` times from (x, y).
pub fn henon_iterate<S: MapScalar<P>, P>(a: &P, b: &P, x: &S, y: &S, steps: u64) -> (S, S) {
    let (mut x, mut y) = (x.clone(), y.clone());
    for _ in 0..steps {
        let (nx, ny) = henon_step(a, b, &x, &y);
        x = nx;
        y = ny;
    }
    (x, y)
}
