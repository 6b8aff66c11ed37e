//! The lane-batched fast tier with parameters held as one machine number (every f64 grid value
//! with f64 terms: the search's usual case, where both the scalar `Fast::mul_param` and the
//! batch use `mul_term_fast`) against the scalar fast tier, bit for bit, every N.

mod common;

use common::*;
use expanse_core::batch::{henon_iterate_batch, Lane, Lanes};
use expanse_core::{henon_iterate, Expansion, Fast, FloatTerm};

fn check<L: Lane, const N: usize>(a: f64, b: f64) {
    let mut rng = SplitMix(11 + N as u64);
    let a = Expansion::<L::Scalar, N>::from_f64(a);
    let b = Expansion::<L::Scalar, N>::from_f64(b);
    let count = 3 * L::WIDTH + 1;
    let mut xs: Vec<Expansion<L::Scalar, N>> =
        (0..count).map(|_| rand_expansion(&mut rng, -3)).collect();
    let mut ys: Vec<Expansion<L::Scalar, N>> =
        (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    henon_iterate_batch::<L, N>(&a, &b, &mut xs, &mut ys, 300);
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a, &b, &Fast(x0[k]), &Fast(y0[k]), 300);
        let bits = |e: &Expansion<L::Scalar, N>| -> Vec<u64> {
            e.terms().iter().map(|t| t.to_bits_u64()).collect()
        };
        assert_eq!(bits(&xs[k]), bits(&sx.0), "N={N} orbit {k} x");
        assert_eq!(bits(&ys[k]), bits(&sy.0), "N={N} orbit {k} y");
    }
}

#[test]
fn batch_with_one_term_parameters_matches_scalar() {
    assert!(Expansion::<f64, 3>::from_f64(1.4).is_single_term());
    check::<Lanes<f64, 4>, 1>(1.4, 0.3);
    check::<Lanes<f64, 4>, 2>(1.4, 0.3);
    check::<Lanes<f64, 4>, 3>(1.4, 0.3);
    check::<Lanes<f64, 4>, 4>(1.4, 0.3);
    check::<Lanes<f64, 4>, 5>(1.25, 0.3);
    check::<Lanes<f64, 2>, 6>(1.4, 0.3);
    check::<Lanes<f64, 4>, 7>(1.4, 0.3);
    check::<Lanes<f64, 4>, 8>(1.4, 0.3);
    // f32 terms: 1.0 and 0.5 are single f32 terms.
    check::<Lanes<f32, 8>, 4>(1.0, 0.5);
}
