//! The fast paths of the accurate tier (N ≥ 3 add, add_term_sub, mul, sqr, mul_term; N ≥ 2 div,
//! sqrt), on their
//! own:
//! every result they certify is checked against MPFR at 2400 bits (documented bound and the
//! ulp-nonoverlapping invariant), and the exact references (`accurate::reference_*`) are
//! checked on the same operands. Prints how often the run-time certificate fails (the
//! operation then runs the slow exact reference) and asserts that this stays rare on random
//! well-scaled operands, so the speed of the accurate tier does not silently regress.

use crate::common::*;
use expanse_core::{accurate, bounds, is_ulp_nonoverlapping, Expansion, FloatTerm};
use rug::Float;

fn check<T: FloatTerm, const N: usize>(pairs: usize) {
    let mut rng = SplitMix(0xFA57_0000 + 31 * N as u64 + T::PRECISION as u64);
    let ops = [
        "add",
        "add_term_sub",
        "mul",
        "sqr",
        "mul_term",
        "div",
        "sqrt",
    ];
    let mut fails = [[0u64; 7]; 2];
    let mut total = [[0u64; 7]; 2];
    for case in 0..pairs {
        // Scenario 0: well-scaled random operands near 1; 1: adversarial mixtures.
        let sc = case % 2;
        let (x, y): (Expansion<T, N>, Expansion<T, N>) = if sc == 0 {
            let (ex, ey) = (rng.range(-2, 2), rng.range(-2, 2));
            (rand_expansion(&mut rng, ex), rand_expansion(&mut rng, ey))
        } else {
            let e = rng.range(-3, 3);
            let x: Expansion<T, N> = rand_expansion(&mut rng, e);
            let y: Expansion<T, N> = match rng.below(3) {
                0 => {
                    let k = rng.range(1, (N as i32) * T::PRECISION as i32 + 10);
                    let z: Expansion<T, N> = rand_expansion(&mut rng, e - k);
                    let v = Float::with_val(PREC, &exact(&z) - &exact(&x));
                    Expansion::from_rug(&v)
                }
                1 => {
                    let d = rng.range(1, 40);
                    rand_expansion(&mut rng, e - d)
                }
                _ => {
                    let d = rng.range(-3, 3);
                    rand_expansion(&mut rng, e + d)
                }
            };
            (x, y)
        };
        let (xr, yr) = (exact(&x), exact(&y));
        let y0 = Expansion::<T, N>::from_term(y.hi());
        for (k, op) in ops.iter().enumerate() {
            if N < 3 && *op != "div" && *op != "sqrt" {
                continue;
            }
            let want = match *op {
                "add" => Float::with_val(PREC, &xr + &yr),
                "add_term_sub" => Float::with_val(PREC, &xr - &yr) + 1u32,
                "mul" => Float::with_val(PREC, &xr * &yr),
                "sqr" => Float::with_val(PREC, xr.square_ref()),
                "mul_term" => Float::with_val(PREC, &xr * &exact(&y0)),
                "sqrt" => Float::with_val(PREC, xr.abs_ref()).sqrt(),
                _ => Float::with_val(PREC, &xr / &yr),
            };
            let bound = match *op {
                "add" | "add_term_sub" => bounds::add_rel_bound::<T>(N),
                "mul" | "sqr" => bounds::mul_rel_bound::<T>(N),
                "mul_term" => bounds::mul_term_rel_bound::<T>(N),
                "sqrt" => bounds::sqrt_rel_bound::<T>(N),
                _ => bounds::div_rel_bound::<T>(N),
            };
            let reference = match *op {
                "add" => accurate::reference_add(&x, &y),
                "add_term_sub" => accurate::reference_add_term_sub(&x, T::ONE, &y),
                "mul" => accurate::reference_mul(&x, &y),
                "sqr" => accurate::reference_mul(&x, &x),
                "mul_term" => accurate::reference_mul_term(&x, y.hi()),
                "sqrt" => accurate::reference_sqrt(&x.abs()),
                _ => accurate::reference_div(&x, &y),
            };
            // The bounds hold in the stated range only (f32 with N ≥ 5 starts above 2^22).
            if !(in_range::<T>(N, &want) && in_range::<T>(N, &xr) && in_range::<T>(N, &yr)) {
                continue;
            }
            total[sc][k] += 1;
            let fast = if *op == "sqrt" {
                accurate::fast_path_only(op, &x.abs(), &y)
            } else if *op == "sqr" {
                accurate::fast_path_only(op, &x, &x)
            } else {
                accurate::fast_path_only(op, &x, &y)
            };
            if fast.is_none() {
                fails[sc][k] += 1;
            }
            for got in fast.iter().chain(core::iter::once(&reference)) {
                assert!(
                    is_ulp_nonoverlapping(got.terms()),
                    "{op} {} N={N}: {:?} overlaps",
                    T::NAME,
                    got.terms()
                );
                if want.is_zero() {
                    assert!(got.is_zero(), "{op}: exact 0, got {:?}", got.terms());
                    continue;
                }
                let e = rel_err(got, &want);
                assert!(
                    e <= bound,
                    "{op} {} N={N}: rel err {e:e} > bound {bound:e} (x={:?} y={:?} got={:?})",
                    T::NAME,
                    x.terms(),
                    y.terms(),
                    got.terms()
                );
            }
        }
    }
    eprintln!(
        "{} N={N}: certificate failures (random / adversarial) of {:?}: {:?} / {:?} of {:?} / {:?}",
        T::NAME,
        ops,
        fails[0],
        fails[1],
        total[0],
        total[1]
    );
    for k in 0..7 {
        if N < 3 && k < 5 {
            continue;
        }
        assert!(total[0][k] > 0 && total[1][k] > 0, "no in-range cases");
        // At most 2% of well-scaled random operands may take the slow exact path.
        assert!(
            fails[0][k] * 50 <= total[0][k],
            "{} N={N} {}: the fast path's certificate failed {} times of {}",
            T::NAME,
            ops[k],
            fails[0][k],
            total[0][k]
        );
    }
}

#[test]
fn fast_paths_f64() {
    check::<f64, 2>(200);
    check::<f64, 3>(300);
    check::<f64, 4>(300);
    check::<f64, 5>(200);
    check::<f64, 6>(200);
    check::<f64, 8>(200);
}

#[test]
fn fast_paths_f32() {
    check::<f32, 2>(200);
    check::<f32, 3>(300);
    check::<f32, 4>(300);
}
