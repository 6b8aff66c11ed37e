//! The lane-batched fast tier (`expanse_core::batch`) against the scalar fast tier
//! (`Fast<T, N>` through `henon_step`): the orbits must agree bit for bit, every N, both term
//! types, several lane widths, including orbits that escape to ±∞/NaN.

mod common;

use common::*;
use expanse_core::batch::{henon_iterate_batch, Block, Params};
use expanse_core::{henon_iterate, Expansion, Fast, FloatTerm};

/// Bit patterns, with every NaN mapped to one value (NaN sign and payload are not specified
/// by IEEE-754 and the compiler may commute operands of + and ·).
fn bits<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> Vec<u64> {
    x.terms()
        .iter()
        .map(|t| {
            if t.is_nan() {
                u64::MAX
            } else {
                t.to_bits_u64()
            }
        })
        .collect()
}

fn check<T: FloatTerm, const N: usize, const W: usize>() {
    let mut rng = SplitMix(7 + N as u64 * 31 + W as u64);
    let a: Expansion<T, N> = "1.4".parse().unwrap();
    let b: Expansion<T, N> = "0.3".parse().unwrap();
    let count = 3 * W + 1;
    let mut xs: Vec<Expansion<T, N>> = (0..count)
        .map(|k| {
            if k == 1 {
                // Escapes: |x| grows without bound, overflows, then NaN.
                Expansion::from_f64(5.0)
            } else {
                rand_expansion(&mut rng, -3)
            }
        })
        .collect();
    let mut ys: Vec<Expansion<T, N>> = (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    let steps = 200;
    henon_iterate_batch::<T, N, W>(&a, &b, &mut xs, &mut ys, steps);
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a, &b, &Fast(x0[k]), &Fast(y0[k]), steps);
        assert_eq!(
            bits(&xs[k]),
            bits(&sx.0),
            "{} N={N} W={W} orbit {k} x",
            T::NAME
        );
        assert_eq!(
            bits(&ys[k]),
            bits(&sy.0),
            "{} N={N} W={W} orbit {k} y",
            T::NAME
        );
    }
    // Step by step through Block as well.
    let p = Params::<T, N, W>::new(&a, &b);
    let mut blk = Block::<T, N, W>::load(&x0[..W], &y0[..W]);
    let mut sc: Vec<(Fast<T, N>, Fast<T, N>)> =
        (0..W).map(|l| (Fast(x0[l]), Fast(y0[l]))).collect();
    for _ in 0..50 {
        blk.step(&p);
        for (l, s) in sc.iter_mut().enumerate() {
            *s = expanse_core::henon_step(&a, &b, &s.0, &s.1);
            let (bx, by) = blk.get(l);
            assert_eq!(bits(&bx), bits(&s.0 .0));
            assert_eq!(bits(&by), bits(&s.1 .0));
        }
    }
}

#[test]
fn batch_matches_scalar_fast_tier_bit_for_bit() {
    check::<f64, 1, 4>();
    check::<f64, 2, 4>();
    check::<f64, 3, 4>();
    check::<f64, 4, 8>();
    check::<f64, 5, 4>();
    check::<f64, 6, 2>();
    check::<f64, 7, 4>();
    check::<f64, 8, 4>();
    check::<f32, 2, 8>();
    check::<f32, 4, 8>();
    check::<f32, 8, 4>();
}
