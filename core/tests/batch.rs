//! The lane-batched fast tier (`expanse_core::batch`) against the scalar fast tier
//! (`Fast<T<L>, N>` through `henon_step`): the orbits must agree bit for bit, every N, both term
//! types, several lane widths, including orbits that escape to ±∞/NaN.

mod common;

use common::*;
use expanse_core::batch::{
    henon_iterate_batch, henon_iterate_batch_f64_at, Block, F64Lanes, Lane, Lanes, Params,
    SimdLevel,
};
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

fn check<L: Lane, const N: usize>() {
    type T<L> = <L as Lane>::Scalar;
    let w = L::WIDTH;
    let mut rng = SplitMix(7 + N as u64 * 31 + w as u64);
    let a: Expansion<T<L>, N> = "1.4".parse().unwrap();
    let b: Expansion<T<L>, N> = "0.3".parse().unwrap();
    let count = 5 * w + 1;
    let mut xs: Vec<Expansion<T<L>, N>> = (0..count)
        .map(|k| {
            if k == 1 {
                // Escapes: |x| grows without bound, overflows, then NaN.
                Expansion::from_f64(5.0)
            } else if k == 2 || k == 3 {
                // Exact first steps: zero error terms take the renormalisation's general path.
                Expansion::from_f64(0.25 * (k - 2) as f64)
            } else {
                rand_expansion(&mut rng, -3)
            }
        })
        .collect();
    let mut ys: Vec<Expansion<T<L>, N>> =
        (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    let steps = 200;
    henon_iterate_batch::<L, N>(&a, &b, &mut xs, &mut ys, steps);
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a, &b, &Fast(x0[k]), &Fast(y0[k]), steps);
        assert_eq!(
            bits(&xs[k]),
            bits(&sx.0),
            "{} N={N} W={w} orbit {k} x",
            T::<L>::NAME
        );
        assert_eq!(
            bits(&ys[k]),
            bits(&sy.0),
            "{} N={N} W={w} orbit {k} y",
            T::<L>::NAME
        );
    }
    // Step by step through Block as well.
    let p = Params::<L, N>::new(&a, &b);
    let mut blk = Block::<L, N>::load(&x0[..w], &y0[..w]);
    let mut sc: Vec<(Fast<T<L>, N>, Fast<T<L>, N>)> =
        (0..w).map(|l| (Fast(x0[l]), Fast(y0[l]))).collect();
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
    check::<Lanes<f64, 4>, 1>();
    check::<Lanes<f64, 4>, 2>();
    check::<Lanes<f64, 4>, 3>();
    check::<Lanes<f64, 8>, 4>();
    check::<Lanes<f64, 4>, 5>();
    check::<Lanes<f64, 2>, 6>();
    check::<Lanes<f64, 4>, 7>();
    check::<Lanes<f64, 4>, 8>();
    for_f64lanes();
    check::<Lanes<f32, 8>, 2>();
    check::<Lanes<f32, 8>, 4>();
    check::<Lanes<f32, 4>, 8>();
}

fn for_f64lanes() {
    check::<F64Lanes, 1>();
    check::<F64Lanes, 2>();
    check::<F64Lanes, 3>();
    check::<F64Lanes, 4>();
    check::<F64Lanes, 8>();
}

/// The batched double-word accurate tier equals the scalar accurate tier (N = 2) term for term
/// on finite orbits.
fn check_dw<L: Lane<Scalar = f64>>() {
    use expanse_core::batch::henon_iterate_batch_dw;
    let mut rng = SplitMix(99);
    let a: Expansion<f64, 2> = "1.4".parse().unwrap();
    let b: Expansion<f64, 2> = "0.3".parse().unwrap();
    let count = 4 * L::WIDTH + 3;
    let mut xs: Vec<Expansion<f64, 2>> = (0..count).map(|_| rand_expansion(&mut rng, -3)).collect();
    let mut ys: Vec<Expansion<f64, 2>> = (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    henon_iterate_batch_dw::<L>(&a, &b, &mut xs, &mut ys, 300);
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a, &b, &x0[k], &y0[k], 300);
        assert!(sx.is_finite());
        assert_eq!(bits(&xs[k]), bits(&sx), "orbit {k} x");
        assert_eq!(bits(&ys[k]), bits(&sy), "orbit {k} y");
    }
}

#[test]
fn batch_dw_matches_scalar_accurate_tier() {
    check_dw::<F64Lanes>();
    check_dw::<Lanes<f64, 2>>();
}

/// `henon_iterate_batch_f64_at` at every SIMD level this CPU has (AVX-512 through the run-time
/// check where present) equals the scalar fast tier bit for bit, every N, including orbits that
/// escape to ±∞/NaN and a count that leaves a remainder for the scalar path.
fn check_f64_level<const N: usize>(level: SimdLevel) {
    let mut rng = SplitMix(1234 + N as u64);
    let a: Expansion<f64, N> = "1.4".parse().unwrap();
    let b: Expansion<f64, N> = "0.3".parse().unwrap();
    let count = 6 * level.lanes() + 5;
    let mut xs: Vec<Expansion<f64, N>> = (0..count)
        .map(|k| match k {
            1 => Expansion::from_f64(5.0),
            2 | 3 => Expansion::from_f64(0.25 * (k - 2) as f64),
            _ => rand_expansion(&mut rng, -3),
        })
        .collect();
    let mut ys: Vec<Expansion<f64, N>> = (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    henon_iterate_batch_f64_at::<N>(level, &a, &b, &mut xs, &mut ys, 300)
        .expect("level was detected as available");
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a, &b, &Fast(x0[k]), &Fast(y0[k]), 300);
        assert_eq!(
            bits(&xs[k]),
            bits(&sx.0),
            "{} N={N} orbit {k} x",
            level.name()
        );
        assert_eq!(
            bits(&ys[k]),
            bits(&sy.0),
            "{} N={N} orbit {k} y",
            level.name()
        );
    }
}

#[test]
fn f64_batch_at_every_available_simd_level_matches_scalar() {
    let best = SimdLevel::detect();
    eprintln!("widest SIMD level on this CPU: {}", best.name());
    for level in [SimdLevel::Baseline, SimdLevel::Avx512] {
        if level > best {
            // Refused, not silently run on narrower lanes.
            let a = Expansion::<f64, 2>::from_f64(1.4);
            let (mut xs, mut ys) = (vec![a; 3], vec![a; 3]);
            assert!(henon_iterate_batch_f64_at::<2>(level, &a, &a, &mut xs, &mut ys, 1).is_err());
            continue;
        }
        check_f64_level::<1>(level);
        check_f64_level::<2>(level);
        check_f64_level::<3>(level);
        check_f64_level::<4>(level);
        check_f64_level::<5>(level);
        check_f64_level::<6>(level);
        check_f64_level::<7>(level);
        check_f64_level::<8>(level);
    }
}

/// `FloatTerm::henon_iterate_per_orbit` (the search's transient) equals the scalar fast tier
/// orbit by orbit, with parameters that differ per orbit: one-term parameters in most lane
/// groups, and groups that mix one-term and N-term parameters (which must not share one
/// instruction sequence, and so take the scalar path).
fn check_per_orbit<T: FloatTerm, const N: usize>() {
    let mut rng = SplitMix(55 + N as u64);
    let count = 101;
    let a: Vec<Expansion<T, N>> = (0..count)
        .map(|k| {
            if k >= 64 && k % 3 == 0 {
                "1.4".parse().unwrap() // N terms
            } else {
                Expansion::from_f64(1.0 + 0.005 * k as f64)
            }
        })
        .collect();
    let b: Vec<Expansion<T, N>> = (0..count)
        .map(|k| Expansion::from_f64(0.3 - 0.001 * (k % 7) as f64))
        .collect();
    let mut xs: Vec<Expansion<T, N>> = (0..count)
        .map(|k| {
            if k == 5 {
                Expansion::from_f64(7.0)
            } else {
                rand_expansion(&mut rng, -3)
            }
        })
        .collect();
    let mut ys: Vec<Expansion<T, N>> = (0..count).map(|_| rand_expansion(&mut rng, -4)).collect();
    let (x0, y0) = (xs.clone(), ys.clone());
    T::henon_iterate_per_orbit::<N>(&a, &b, &mut xs, &mut ys, 257);
    for k in 0..count {
        let (sx, sy) = henon_iterate(&a[k], &b[k], &Fast(x0[k]), &Fast(y0[k]), 257);
        assert_eq!(bits(&xs[k]), bits(&sx.0), "{} N={N} orbit {k} x", T::NAME);
        assert_eq!(bits(&ys[k]), bits(&sy.0), "{} N={N} orbit {k} y", T::NAME);
    }
}

#[test]
fn per_orbit_parameters_match_scalar() {
    check_per_orbit::<f64, 1>();
    check_per_orbit::<f64, 2>();
    check_per_orbit::<f64, 3>();
    check_per_orbit::<f64, 4>();
    check_per_orbit::<f64, 8>();
    check_per_orbit::<f32, 1>();
    check_per_orbit::<f32, 2>();
    check_per_orbit::<f32, 4>();
    check_per_orbit::<f32, 8>();
}
