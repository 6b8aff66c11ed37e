//! The Hénon map h(x, y) = (1 + y − a·x², b·x) and its Jacobian over every interval kind,
//! through the core's generic `MapScalar<P>` / `henon_step`: the same code, in the same
//! order of operations, that iterates points. Parameters are intervals of the same kind
//! (a point interval for an exact parameter, a thin enclosure for a decimal one).

use crate::matrix::{IMat2, IVec2};
use crate::{ExpInterval, F64Interval, IntervalArith, MpInterval};
use expanse_core::{henon_step, MapScalar};

macro_rules! impl_map_scalar {
    ($t:ty $(, $n:ident)?) => {
        /// Interval arithmetic for the generic map code: each operation encloses the exact
        /// result.
        impl<$(const $n: usize)?> MapScalar<$t> for $t {
            #[inline]
            fn add(&self, o: &Self) -> Self {
                IntervalArith::add(self, o)
            }
            #[inline]
            fn sub(&self, o: &Self) -> Self {
                IntervalArith::sub(self, o)
            }
            #[inline]
            fn mul(&self, o: &Self) -> Self {
                IntervalArith::mul(self, o)
            }
            #[inline]
            fn sqr(&self) -> Self {
                IntervalArith::sqr(self)
            }
            #[inline]
            fn mul_param(&self, p: &Self) -> Self {
                IntervalArith::mul(self, p)
            }
            #[inline]
            fn add_one(&self) -> Self {
                IntervalArith::add_f64(self, 1.0)
            }
        }
    };
}

impl_map_scalar!(F64Interval);
impl_map_scalar!(MpInterval);
impl_map_scalar!(ExpInterval<N>, N);

/// Adapter so [`henon_step_interval`] needs only `I: IntervalArith` (no `MapScalar` bound,
/// whose method names would clash with the trait's at the caller's side).
#[derive(Clone)]
struct Via<I>(I);

impl<I: IntervalArith> MapScalar<Via<I>> for Via<I> {
    #[inline]
    fn add(&self, o: &Self) -> Self {
        Via(self.0.add(&o.0))
    }
    #[inline]
    fn sub(&self, o: &Self) -> Self {
        Via(self.0.sub(&o.0))
    }
    #[inline]
    fn mul(&self, o: &Self) -> Self {
        Via(self.0.mul(&o.0))
    }
    #[inline]
    fn sqr(&self) -> Self {
        Via(self.0.sqr())
    }
    #[inline]
    fn mul_param(&self, p: &Self) -> Self {
        Via(self.0.mul(&p.0))
    }
    #[inline]
    fn add_one(&self) -> Self {
        Via(self.0.add_f64(1.0))
    }
}

/// One step of the Hénon map over intervals: an enclosure of h([x] × [y]) for all
/// parameters in [a] × [b], by the core's `henon_step` (same order of operations as for
/// points).
pub fn henon_step_interval<I: IntervalArith>(a: &I, b: &I, z: &IVec2<I>) -> IVec2<I> {
    let (x, y) = henon_step(
        &Via(a.clone()),
        &Via(b.clone()),
        &Via(z.0[0].clone()),
        &Via(z.0[1].clone()),
    );
    IVec2([x.0, y.0])
}

/// The Jacobian Dh(x, y) = [[−2a·x, 1], [b, 0]] enclosed over [a] × [b] × [x].
pub fn henon_jacobian<I: IntervalArith>(a: &I, b: &I, x: &I) -> IMat2<I> {
    let ctx = x.ctx();
    IMat2::new(
        a.mul(x).mul_f64(-2.0),
        I::from_f64(&ctx, 1.0),
        b.clone(),
        I::from_f64(&ctx, 0.0),
    )
}
