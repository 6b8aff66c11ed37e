//! The lane-batched fast tier (`expanse_core::batch`, reached through the run-time-N entry
//! points of `expanse_core::runtime`) against the scalar fast tier (`Fast<T, N>` through
//! `henon_iterate`, as the library compiles it once per (T, N) behind
//! `runtime::henon_iterate_scalar_per_orbit`): the orbits must agree bit for bit, every N, both
//! term types, every SIMD level this CPU has, including orbits that escape to ±∞/NaN. (The
//! scalar fast tier is not instantiated again here: 16 copies of it cost this test binary
//! about 11 % of its LLVM IR. That the run-time N reaches the right instance is checked
//! against MPFR in `fast_tier.rs`.)
//!
//! The lane matrix the search runs (N = 1..8 × AVX2 / AVX-512, f64; scalar f32) is compiled
//! once, in the library, and tested here for every N. The generic entry points over any lane
//! type (`henon_iterate_batch::<L, N>`, `Block`) are instantiated by the caller, so this file
//! samples them: every lane type at small N, one at the largest N. Their step is the same
//! `Block::step` the library's matrix runs, so the full-N coverage is above.

use crate::common::*;
use expanse_core::batch::{
    henon_iterate_batch, henon_iterate_batch_f64_at, Block, F64Lanes, Lane, Lanes, Params,
    SimdLevel,
};
use expanse_core::runtime::{
    henon_iterate_per_orbit_f64_at, henon_iterate_scalar_per_orbit, terms_of, terms_of_mut,
};
use expanse_core::{henon_iterate, Expansion, FloatTerm};

/// Every orbit (xs[k], ys[k]) at the one parameter pair (a, b), `steps` steps of the library's
/// scalar fast tier (one orbit at a time, `Fast<T, N>` with `henon_iterate`).
fn scalar_orbits<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    xs: &mut [Expansion<T, N>],
    ys: &mut [Expansion<T, N>],
    steps: u64,
) {
    let (av, bv) = (vec![*a; xs.len()], vec![*b; xs.len()]);
    henon_iterate_scalar_per_orbit(
        N,
        terms_of(&av),
        terms_of(&bv),
        terms_of_mut(xs),
        terms_of_mut(ys),
        steps,
    );
}

/// Starting points: random orbits, one that escapes (|x| grows without bound, overflows, then
/// NaN), and two exact ones (zero error terms take the renormalisation's general path).
fn starts<T: FloatTerm, const N: usize>(
    rng: &mut SplitMix,
    count: usize,
) -> (Vec<Expansion<T, N>>, Vec<Expansion<T, N>>) {
    let xs = (0..count)
        .map(|k| match k {
            1 => Expansion::from_f64(5.0),
            2 | 3 => Expansion::from_f64(0.25 * (k - 2) as f64),
            _ => rand_expansion(rng, -3),
        })
        .collect();
    let ys = (0..count).map(|_| rand_expansion(rng, -4)).collect();
    (xs, ys)
}

/// The generic shared-parameter batch on lane type `L` against `henon_iterate` on `Fast`, and
/// `Block::step` step by step.
fn check_generic<L: Lane, const N: usize>() {
    type T<L> = <L as Lane>::Scalar;
    let w = L::WIDTH;
    let mut rng = SplitMix(7 + N as u64 * 31 + w as u64);
    let a: Expansion<T<L>, N> = "1.4".parse().unwrap();
    let b: Expansion<T<L>, N> = "0.3".parse().unwrap();
    let count = 5 * w + 1;
    let (mut xs, mut ys) = starts::<T<L>, N>(&mut rng, count);
    let (x0, y0) = (xs.clone(), ys.clone());
    henon_iterate_batch::<L, N>(&a, &b, &mut xs, &mut ys, 200);
    let (mut sx, mut sy) = (x0.clone(), y0.clone());
    scalar_orbits(&a, &b, &mut sx, &mut sy, 200);
    for k in 0..count {
        let what = format!("{} N={N} W={w} orbit {k}", T::<L>::NAME);
        assert_eq!(bits(xs[k].terms()), bits(sx[k].terms()), "{what} x");
        assert_eq!(bits(ys[k].terms()), bits(sy[k].terms()), "{what} y");
    }
    let p = Params::<L, N>::new(&a, &b);
    let mut blk = Block::<L, N>::load(&x0[..w], &y0[..w]);
    let (mut sx, mut sy) = (x0[..w].to_vec(), y0[..w].to_vec());
    for _ in 0..50 {
        blk.step(&p);
        scalar_orbits(&a, &b, &mut sx, &mut sy, 1);
        for l in 0..w {
            let (bx, by) = blk.get(l);
            assert_eq!(bits(bx.terms()), bits(sx[l].terms()));
            assert_eq!(bits(by.terms()), bits(sy[l].terms()));
        }
    }
}

#[test]
fn generic_batch_matches_scalar_fast_tier_bit_for_bit() {
    check_generic::<F64Lanes, 1>();
    check_generic::<F64Lanes, 2>();
    check_generic::<F64Lanes, 3>();
    check_generic::<F64Lanes, 8>();
    // Portable lanes (arrays the compiler vectorises): several lanes at N = 2, one lane at
    // N = 4. (One portable lane at N = 8 cost LLVM 2.5 minutes of this build, for code that is
    // the same `Block::step` as `F64Lanes` at N = 8 above on another element type.)
    check_generic::<Lanes<f64, 2>, 2>();
    check_generic::<Lanes<f64, 1>, 4>();
    check_generic::<Lanes<f32, 4>, 2>();
}

/// Per-orbit parameters for `count` orbits of N terms: one-term parameters (`from_f64`, the
/// search's grids) in most lane groups; from orbit 64 on every third `a` has N terms, so some
/// groups mix one-term and N-term parameters (they must not share one instruction sequence,
/// and take the scalar path) and, for N > 1, some are all N-term.
fn per_orbit_params<T: FloatTerm, const N: usize>(
    count: usize,
    n_term_from: usize,
) -> (Vec<Expansion<T, N>>, Vec<Expansion<T, N>>) {
    let a = (0..count)
        .map(|k| {
            if k >= n_term_from && k % 3 == 0 {
                "1.4".parse().unwrap()
            } else {
                Expansion::from_f64(1.0 + 0.005 * k as f64)
            }
        })
        .collect();
    let b = (0..count)
        .map(|k| Expansion::from_f64(0.3 - 0.001 * (k % 7) as f64))
        .collect();
    (a, b)
}

/// The library's f64 lane matrix at `level` for one N, per-orbit parameters, against the
/// library's scalar fast tier (one orbit at a time through `Fast`), bit for bit.
fn check_f64_level<const N: usize>(level: SimdLevel, n_term_from: usize) {
    let mut rng = SplitMix((1234 + N as u64).wrapping_add(n_term_from as u64));
    // Six lane groups and a remainder for the scalar path.
    let count = 12 * level.lanes() + 5;
    let (a, b) = per_orbit_params::<f64, N>(count, n_term_from);
    let (mut xs, mut ys) = starts::<f64, N>(&mut rng, count);
    let (mut sx, mut sy) = (xs.clone(), ys.clone());
    henon_iterate_per_orbit_f64_at(
        level,
        N,
        terms_of(&a),
        terms_of(&b),
        terms_of_mut(&mut xs),
        terms_of_mut(&mut ys),
        300,
    )
    .expect("level was detected as available");
    henon_iterate_scalar_per_orbit(
        N,
        terms_of(&a),
        terms_of(&b),
        terms_of_mut(&mut sx),
        terms_of_mut(&mut sy),
        300,
    );
    assert_eq!(
        bits(terms_of(&xs)),
        bits(terms_of(&sx)),
        "{} N={N} x",
        level.name()
    );
    assert_eq!(
        bits(terms_of(&ys)),
        bits(terms_of(&sy)),
        "{} N={N} y",
        level.name()
    );
    // The escaping orbit really escaped, and most others stayed finite: the comparison above
    // is not between two arrays of NaN.
    assert!(xs[1].terms()[0].is_nan() || xs[1].terms()[0].is_infinite());
    assert!(xs.iter().filter(|x| x.terms()[0].is_finite()).count() > count / 2);
}

fn check_f64_level_every_n(level: SimdLevel, n_term_from: usize) {
    check_f64_level::<1>(level, n_term_from);
    check_f64_level::<2>(level, n_term_from);
    check_f64_level::<3>(level, n_term_from);
    check_f64_level::<4>(level, n_term_from);
    check_f64_level::<5>(level, n_term_from);
    check_f64_level::<6>(level, n_term_from);
    check_f64_level::<7>(level, n_term_from);
    check_f64_level::<8>(level, n_term_from);
}

#[test]
fn f64_lanes_at_every_available_simd_level_match_scalar_every_n() {
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
        // Every parameter one term (the search's f64 grids: `mul_term_fast` in both paths).
        check_f64_level_every_n(level, usize::MAX);
        // Mixed groups and N-term parameters.
        check_f64_level_every_n(level, 64);
    }
}

/// The shared-parameter f64 entry point (`expanse bench cpu`) equals the scalar fast tier.
#[test]
fn f64_shared_parameter_batch_matches_scalar() {
    fn check<const N: usize>() {
        let mut rng = SplitMix(77 + N as u64);
        let a: Expansion<f64, N> = "1.4".parse().unwrap();
        let b: Expansion<f64, N> = "0.3".parse().unwrap();
        let count = 3 * SimdLevel::detect().lanes() + 3;
        let (mut xs, mut ys) = starts::<f64, N>(&mut rng, count);
        let (x0, y0) = (xs.clone(), ys.clone());
        henon_iterate_batch_f64_at::<N>(SimdLevel::detect(), &a, &b, &mut xs, &mut ys, 300)
            .unwrap();
        let (mut sx, mut sy) = (x0, y0);
        scalar_orbits(&a, &b, &mut sx, &mut sy, 300);
        for k in 0..count {
            assert_eq!(
                bits(xs[k].terms()),
                bits(sx[k].terms()),
                "N={N} orbit {k} x"
            );
            assert_eq!(
                bits(ys[k].terms()),
                bits(sy[k].terms()),
                "N={N} orbit {k} y"
            );
        }
    }
    check::<2>();
    check::<5>();
}

/// The typed per-orbit entry point of `FloatTerm` (the search's transient) forwards to the
/// library's instances: the same bits as the run-time entry points, both term types.
#[test]
fn typed_per_orbit_entry_point_forwards() {
    fn check<T: FloatTerm, const N: usize>() {
        let mut rng = SplitMix(5 + N as u64);
        let (a, b) = per_orbit_params::<T, N>(40, 20);
        let (mut xs, mut ys) = starts::<T, N>(&mut rng, 40);
        let (mut sx, mut sy) = (xs.clone(), ys.clone());
        T::henon_iterate_per_orbit::<N>(&a, &b, &mut xs, &mut ys, 100);
        henon_iterate_scalar_per_orbit(
            N,
            terms_of(&a),
            terms_of(&b),
            terms_of_mut(&mut sx),
            terms_of_mut(&mut sy),
            100,
        );
        assert_eq!(
            bits(terms_of(&xs)),
            bits(terms_of(&sx)),
            "{} N={N}",
            T::NAME
        );
        assert_eq!(
            bits(terms_of(&ys)),
            bits(terms_of(&sy)),
            "{} N={N}",
            T::NAME
        );
    }
    check::<f64, 3>();
    check::<f32, 3>();
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
        assert_eq!(bits(xs[k].terms()), bits(sx.terms()), "orbit {k} x");
        assert_eq!(bits(ys[k].terms()), bits(sy.terms()), "orbit {k} y");
    }
}

#[test]
fn batch_dw_matches_scalar_accurate_tier() {
    check_dw::<F64Lanes>();
    check_dw::<Lanes<f64, 2>>();
}

/// `Lane::add_on_fma` / `sub_on_fma` (on AVX2 an FMA by ±1 in inline assembly, used by the
/// fast tier's level sums) give exactly `+` / `−` of f64, bit for bit, on every lane type the
/// library's f64 matrix uses: signed zeros, infinities, subnormals, cancellation, overflow,
/// and random operands (NaN compared as NaN: its payload is unspecified).
#[test]
fn add_and_sub_on_fma_units_equal_plain_add_and_sub() {
    fn check<L: Lane<Scalar = f64>>(pairs: &[(f64, f64)]) {
        for chunk in pairs.chunks(L::WIDTH) {
            let (mut a, mut b) = (L::splat(0.0), L::splat(0.0));
            for (l, &(x, y)) in chunk.iter().enumerate() {
                a.set(l, x);
                b.set(l, y);
            }
            let (s, d) = (a.add_on_fma(b), a.sub_on_fma(b));
            for (l, &(x, y)) in chunk.iter().enumerate() {
                assert_eq!(bits(&[s.get(l)]), bits(&[x + y]), "{x:e} + {y:e}");
                assert_eq!(bits(&[d.get(l)]), bits(&[x - y]), "{x:e} - {y:e}");
            }
        }
    }
    let specials = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE / 8.0,
        5e-324,
        f64::MAX,
        -f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0 + f64::EPSILON,
        0.1,
    ];
    let mut pairs: Vec<(f64, f64)> = Vec::new();
    for &x in &specials {
        for &y in &specials {
            pairs.push((x, y));
        }
    }
    let mut rng = SplitMix(99);
    for _ in 0..4000 {
        let x = f64::from_bits(rng.next());
        // Nearby magnitudes too, so that sums cancel and round.
        let y = if rng.next() & 1 == 0 {
            -x * (1.0 + (rng.next() >> 40) as f64 * f64::EPSILON)
        } else {
            f64::from_bits(rng.next())
        };
        pairs.push((x, y));
    }
    while pairs.len() % 8 != 0 {
        pairs.push((1.0, 2.0));
    }
    check::<f64>(&pairs);
    check::<F64Lanes>(&pairs);
    check::<expanse_core::batch::Wide<F64Lanes, 2>>(&pairs);
}
