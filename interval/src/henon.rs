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

/// One step of the Hénon map over intervals: an enclosure of h([x] × [y]) for all
/// parameters in [a] × [b].
pub fn henon_step_interval<I>(a: &I, b: &I, z: &IVec2<I>) -> IVec2<I>
where
    I: IntervalArith + MapScalar<I>,
{
    let (x, y) = henon_step(a, b, &z.0[0], &z.0[1]);
    IVec2([x, y])
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
