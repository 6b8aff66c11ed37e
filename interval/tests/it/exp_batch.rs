//! The batched `ExpInterval` slice operations (`add_slices`, `sub_slices`, `mul_slices`,
//! `sqr_slices`): identical, bit for bit, to the scalar operations on many random and
//! adversarial intervals (empty, unbounded, zero endpoints, huge and tiny magnitudes, thin
//! intervals as in proofs, every sign class), and containing the exact results (MPFR at 4096
//! bits from sample points of the inputs).

use crate::common::{build, samples, spec, Rng, Scale};
use expanse_interval::{ExpInterval, IntervalArith};
use rug::Float;

/// Bit patterns of both endpoints (distinguishes −0 from +0 and NaN payloads).
fn bits<const N: usize>(x: &ExpInterval<N>) -> Vec<u64> {
    x.lo()
        .terms()
        .iter()
        .chain(x.hi().terms())
        .map(|t| t.to_bits())
        .collect()
}

/// A thin interval around a random multi-term value of a random sign, magnitude about 2^±20,
/// relative width 2^-k (the main path of the batched code).
fn thin<const N: usize>(rng: &mut Rng) -> ExpInterval<N> {
    let v = crate::common::value(rng, Scale::Unit) << (rng.range(-20, 20) as i32);
    let k = rng.range(30, 53 * N as i64 + 20) as i32;
    let w = Float::with_val(4096, v.clone().abs() >> k);
    let (lo, hi) = match rng.below(3) {
        0 => (v.clone(), Float::with_val(4096, &v + &w)),
        1 => (Float::with_val(4096, &v - &w), v.clone()),
        _ => (v.clone(), v),
    };
    ExpInterval::<N>::from_rug_bounds(&(), &lo, &hi).unwrap()
}

/// A mix of random intervals: mostly thin ones (including ones straddling zero), a share of
/// the adversarial generator's.
fn mixed<const N: usize>(rng: &mut Rng, count: usize) -> Vec<ExpInterval<N>> {
    (0..count)
        .map(|_| match rng.below(10) {
            0..=2 => thin::<N>(rng),
            3 => {
                // As in the benchmark: f64 centre plus a tiny tail, inflated (endpoints with
                // spread-out terms, where the widening's fast step often fails).
                let c = (rng.below(1 << 53) as f64 / (1u64 << 52) as f64 - 1.0) * 2.0;
                let tail = (rng.below(1 << 53) as f64) * c.abs() * 2f64.powi(-113);
                let x = ExpInterval::<N>::from_f64(&(), c).add(&ExpInterval::from_f64(&(), tail));
                x.inflate(c.abs() * 2f64.powi(-(rng.range(20, 60) as i32)))
            }
            8 => {
                // A chained result: x·y + z of thin intervals.
                let (x, y, z) = (thin::<N>(rng), thin::<N>(rng), thin::<N>(rng));
                x.mul(&y).add(&z)
            }
            4 => {
                // Straddling or touching zero, thin-ish ends.
                let a = thin::<N>(rng).lo().abs();
                let b = thin::<N>(rng).hi().abs();
                let z = expanse_core::Expansion::<f64, N>::zero();
                match rng.below(3) {
                    0 => ExpInterval::new(a.neg(), b).unwrap(),
                    1 => ExpInterval::new(z, b).unwrap(),
                    _ => ExpInterval::new(a.neg(), z).unwrap(),
                }
            }
            _ => build::<ExpInterval<N>>(&(), &spec(rng)),
        })
        .collect()
}

fn identity_for<const N: usize>(seed: u64, count: usize) {
    let mut rng = Rng::new(seed);
    let xs = mixed::<N>(&mut rng, count);
    let mut ys = mixed::<N>(&mut rng, count);
    // Some pairs with equal operands (sums and products of an interval with itself).
    for k in (0..count).step_by(17) {
        ys[k] = xs[k];
    }
    let z = ExpInterval::<N>::empty(&());
    let mut out = vec![z; count];
    let check = |what: &str, out: &[ExpInterval<N>], f: &dyn Fn(usize) -> ExpInterval<N>| {
        for k in 0..count {
            let want = f(k);
            assert_eq!(
                bits(&out[k]),
                bits(&want),
                "N = {N}: {what} of {:?} and {:?}: batched {:?}, scalar {:?}",
                xs[k],
                ys[k],
                out[k],
                want
            );
        }
    };
    ExpInterval::<N>::add_slices(&xs, &ys, &mut out);
    check("add", &out, &|k| IntervalArith::add(&xs[k], &ys[k]));
    ExpInterval::<N>::sub_slices(&xs, &ys, &mut out);
    check("sub", &out, &|k| IntervalArith::sub(&xs[k], &ys[k]));
    ExpInterval::<N>::mul_slices(&xs, &ys, &mut out);
    check("mul", &out, &|k| IntervalArith::mul(&xs[k], &ys[k]));
    ExpInterval::<N>::sqr_slices(&xs, &mut out);
    check("sqr", &out, &|k| IntervalArith::sqr(&xs[k]));
}

#[test]
fn batched_equals_scalar() {
    // Lengths that are not multiples of the chunk (64) or of any lane width.
    identity_for::<1>(11, 301);
    identity_for::<2>(12, 1001);
    identity_for::<3>(13, 1001);
    identity_for::<4>(14, 1001);
    identity_for::<5>(15, 301);
    identity_for::<6>(16, 1001);
    identity_for::<7>(17, 301);
    identity_for::<8>(18, 1001);
}

fn containment_for<const N: usize>(seed: u64, count: usize) {
    let mut rng = Rng::new(seed);
    let xs = mixed::<N>(&mut rng, count);
    let ys = mixed::<N>(&mut rng, count);
    let z = ExpInterval::<N>::empty(&());
    let (mut sum, mut dif, mut prd, mut sq) = (
        vec![z; count],
        vec![z; count],
        vec![z; count],
        vec![z; count],
    );
    ExpInterval::<N>::add_slices(&xs, &ys, &mut sum);
    ExpInterval::<N>::sub_slices(&xs, &ys, &mut dif);
    ExpInterval::<N>::mul_slices(&xs, &ys, &mut prd);
    ExpInterval::<N>::sqr_slices(&xs, &mut sq);
    let mut checked = 0;
    for k in 0..count {
        let w = || format!("N = {N}, {:?} and {:?}", xs[k], ys[k]);
        let ps = samples(&mut rng, &xs[k], 2);
        let qs = samples(&mut rng, &ys[k], 2);
        for a in &ps {
            let (dn, up) = exact2!(a.square_ref());
            crate::common::assert_in(&sq[k], &dn, &up, &|| format!("sqr {}", w()));
            for b in &qs {
                let (dn, up) = exact2!(a + b);
                crate::common::assert_in(&sum[k], &dn, &up, &|| format!("add {}", w()));
                let (dn, up) = exact2!(a - b);
                crate::common::assert_in(&dif[k], &dn, &up, &|| format!("sub {}", w()));
                let (dn, up) = exact2!(a * b);
                crate::common::assert_in(&prd[k], &dn, &up, &|| format!("mul {}", w()));
                checked += 1;
            }
        }
    }
    assert!(checked > count, "too few sample pairs: {checked}");
}

#[test]
fn batched_contains_exact() {
    containment_for::<2>(21, 300);
    containment_for::<3>(22, 300);
    containment_for::<4>(23, 300);
    containment_for::<6>(24, 200);
    containment_for::<8>(25, 200);
}
