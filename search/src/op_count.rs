//! FP64 (or FP32) add/sub/mul/FMA instructions of one Hénon step of the search arithmetic,
//! counted by running the very code the GPU kernels mirror on a lane type that counts the
//! operations applied to it. `expanse bench gpu` divides its measured rates by these counts to
//! report the fraction of the device's FP64 instruction ceiling reached.

use expanse_core::batch::{Block, Lane, Params};
use expanse_core::Expansion;

/// FP64 (or FP32, for f32 terms) add/sub/mul/FMA instructions of one Hénon step in the search
/// arithmetic (negations and moves not counted); `single` = parameters held as one term. The
/// arithmetic is branch-free (`core/src/fast.rs`), so the count does not depend on the data: it
/// is taken by running one step of the very code the kernels mirror on [`Counted`], a lane type
/// that counts the operations applied to it.
pub fn fp64_per_step(n: usize, single: bool) -> u64 {
    match n {
        1 => count_step::<1>(single),
        2 => count_step::<2>(single),
        3 => count_step::<3>(single),
        4 => count_step::<4>(single),
        5 => count_step::<5>(single),
        6 => count_step::<6>(single),
        7 => count_step::<7>(single),
        _ => count_step::<8>(single),
    }
}

thread_local! {
    /// Operations applied to [`Counted`] values on this thread.
    static OPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// An f64 that counts every add, sub, mul and FMA applied to it (in [`OPS`]).
#[derive(Clone, Copy, Debug)]
struct Counted(f64);

fn tick() {
    OPS.with(|c| c.set(c.get() + 1));
}

macro_rules! counted_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl std::ops::$tr for Counted {
            type Output = Self;
            fn $f(self, o: Self) -> Self {
                tick();
                Counted(self.0 $op o.0)
            }
        }
    };
}
counted_op!(Add, add, +);
counted_op!(Sub, sub, -);
counted_op!(Mul, mul, *);

impl std::ops::Neg for Counted {
    type Output = Self;
    fn neg(self) -> Self {
        Counted(-self.0)
    }
}

impl Lane for Counted {
    type Scalar = f64;
    const WIDTH: usize = 1;
    fn splat(v: f64) -> Self {
        Counted(v)
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        tick();
        Counted(self.0.mul_add(a.0, b.0))
    }
    fn get(&self, _l: usize) -> f64 {
        self.0
    }
    fn set(&mut self, _l: usize, v: f64) {
        self.0 = v;
    }
}

/// Operations of one step of [`Block::step`] on [`Counted`] lanes, parameters (1.4, 0.3) as one
/// term (`single`) or as N-term expansions.
fn count_step<const N: usize>(single: bool) -> u64 {
    let (a, b): (Expansion<f64, N>, Expansion<f64, N>) = if single {
        (Expansion::from_f64(1.4), Expansion::from_f64(0.3))
    } else {
        (
            "1.4".parse().expect("constant parses"),
            "0.3".parse().expect("constant parses"),
        )
    };
    let p = Params::<Counted, N>::new(&a, &b);
    let x: Expansion<f64, N> = "0.631354477".parse().expect("constant parses");
    let y: Expansion<f64, N> = "0.189406343".parse().expect("constant parses");
    let mut blk = Block::<Counted, N>::load(&[x], &[y]);
    let before = OPS.with(|c| c.get());
    blk.step(&p);
    OPS.with(|c| c.get()) - before
}
