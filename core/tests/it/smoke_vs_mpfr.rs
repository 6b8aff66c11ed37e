//! Quick oracle check of the accurate tier against MPFR on random well-scaled inputs, every N,
//! both term types (the exhaustive adversarial suite lives in the other test files).

use expanse_core::{bounds, Expansion, FloatTerm};
use rug::Float;

use crate::common::SplitMix;

/// A uniform value in [0, 1) with 53 random bits.
fn unit(rng: &mut SplitMix) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

fn random_expansion<T: FloatTerm, const N: usize>(rng: &mut SplitMix) -> Expansion<T, N> {
    let mut v = Float::with_val(3000, 0);
    let sign = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
    let scale = (unit(rng) * 8.0 - 4.0).exp2();
    for k in 0..(N * 60) {
        let digit = unit(rng) - 0.5;
        v += Float::with_val(3000, digit) >> ((k as u32) * 24);
    }
    v *= sign * scale;
    Expansion::from_rug(&v)
}

fn rel_err<T: FloatTerm, const N: usize>(got: &Expansion<T, N>, exact: &Float) -> f64 {
    let d = Float::with_val(3000, &got.to_rug() - exact);
    (d / exact).to_f64().abs()
}

fn check<T: FloatTerm, const N: usize>() {
    let mut rng = SplitMix(42 + N as u64);
    let mut worst = [0.0f64; 4];
    for _ in 0..300 {
        let x = random_expansion::<T, N>(&mut rng);
        let y = random_expansion::<T, N>(&mut rng);
        let (xr, yr) = (x.to_rug(), y.to_rug());
        let cases = [
            (
                x.add(&y),
                Float::with_val(3000, &xr + &yr),
                bounds::add_rel_bound::<T>(N),
            ),
            (
                x.mul(&y),
                Float::with_val(3000, &xr * &yr),
                bounds::mul_rel_bound::<T>(N),
            ),
            (
                x.div(&y),
                Float::with_val(3000, &xr / &yr),
                bounds::div_rel_bound::<T>(N),
            ),
            (
                x.abs().sqrt(),
                Float::with_val(3000, xr.clone().abs().sqrt()),
                bounds::sqrt_rel_bound::<T>(N),
            ),
        ];
        for (i, (got, exact, bound)) in cases.iter().enumerate() {
            let e = rel_err(got, exact);
            assert!(
                e <= *bound,
                "op {i} N={N} {}: rel err {e:e} > bound {bound:e}",
                T::NAME
            );
            worst[i] = worst[i].max(e / bounds::u_pow::<T>(N));
        }
    }
    eprintln!(
        "{} N={N}: worst/u^N add {:.3} mul {:.3} div {:.3} sqrt {:.3}",
        T::NAME,
        worst[0],
        worst[1],
        worst[2],
        worst[3]
    );
}

#[test]
fn accurate_ops_within_bounds_random() {
    check::<f64, 1>();
    check::<f64, 2>();
    check::<f64, 3>();
    check::<f64, 4>();
    check::<f64, 5>();
    check::<f64, 6>();
    check::<f64, 7>();
    check::<f64, 8>();
    check::<f32, 1>();
    check::<f32, 2>();
    check::<f32, 3>();
    check::<f32, 4>();
}
