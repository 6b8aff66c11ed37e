//! Measured accuracy of seed 003's quasi double-precision pair operations
//! (`expanse_core::quasi`) against MPFR, for f32 and f64 pairs: operands are random normalised
//! double-words in [1/2, 2) (like signs for additions, |a| ≥ |b| where an algorithm requires
//! it). The thresholds asserted are the measured worst cases rounded up (these operations have
//! no proven bound); the printout gives the worst error in units of u².

use crate::common::*;
use expanse_core::quasi::{add_f1, add_f23, mul_f12, mul_f3, sub_f1, sub_f23, Pair};
use expanse_core::{Expansion, FloatTerm};
use rug::Float;

fn pair<T: FloatTerm>(rng: &mut SplitMix) -> Pair<T> {
    let e = rng.range(-1, 0);
    let x: Expansion<T, 2> = rand_expansion(rng, e);
    // Normalise: hi = RN(hi + lo).
    let v = Expansion::<T, 2>::from_rug(&x.to_rug());
    (
        v.terms()[0].abs(),
        v.terms()[1]
            * if v.terms()[0] < T::ZERO {
                -T::ONE
            } else {
                T::ONE
            },
    )
}

fn val<T: FloatTerm>(p: Pair<T>) -> Float {
    Float::with_val(PREC, p.0.to_f64()) + p.1.to_f64()
}

fn rel<T: FloatTerm>(got: Pair<T>, want: &Float) -> f64 {
    let d = Float::with_val(PREC, &val(got) - want);
    (d / want).to_f64().abs() / (T::UNIT_ROUNDOFF * T::UNIT_ROUNDOFF)
}

fn measure<T: FloatTerm>() -> [f64; 6] {
    let mut rng = SplitMix(31 + T::PRECISION as u64);
    let mut worst = [0.0f64; 6];
    for _ in 0..5000 {
        let (mut a, mut b) = (pair::<T>(&mut rng), pair::<T>(&mut rng));
        if a.0 < b.0 {
            std::mem::swap(&mut a, &mut b);
        }
        // Keep the difference away from cancellation: b ≤ a/2.
        let bh = (b.0 * T::from_f64(0.5), b.1 * T::from_f64(0.5));
        let (va, vb, vbh) = (val(a), val(b), val(bh));
        let cases = [
            rel(add_f1(a, b), &Float::with_val(PREC, &va + &vb)),
            rel(add_f23(a, b), &Float::with_val(PREC, &va + &vb)),
            rel(sub_f1(a, bh), &Float::with_val(PREC, &va - &vbh)),
            rel(sub_f23(a, bh), &Float::with_val(PREC, &va - &vbh)),
            rel(mul_f12(a, b), &Float::with_val(PREC, &va * &vb)),
            rel(mul_f3(a, b), &Float::with_val(PREC, &va * &vb)),
        ];
        for (w, c) in worst.iter_mut().zip(cases) {
            *w = w.max(c);
        }
    }
    eprintln!(
        "{}: worst/u²: add_F1 {:.3}, add_F23 {:.3}, sub_F1 {:.3}, sub_F23 {:.3}, mul_F12 {:.3}, \
         mul_F3 {:.3e} (= 2^{:.1} relative)",
        T::NAME,
        worst[0],
        worst[1],
        worst[2],
        worst[3],
        worst[4],
        worst[5],
        (worst[5] * T::UNIT_ROUNDOFF * T::UNIT_ROUNDOFF).log2()
    );
    worst
}

#[test]
fn quasi_pair_ops_measured_accuracy() {
    // Measured (5000 cases each): add_F1 ≈ 1.3u², add_F23 / sub_F1 / sub_F23 ≈ 2u²,
    // mul_F12 ≈ 2.4u², mul_F3 ≈ 2^-72 (f64) and 2^-29.7 (f32).
    let (w64, w32) = (measure::<f64>(), measure::<f32>());
    for w in [w64, w32] {
        for (k, lim) in [1.5, 2.5, 2.5, 2.5, 3.0].iter().enumerate() {
            assert!(w[k] <= *lim, "op {k}: {} u² > {lim}", w[k]);
        }
    }
    assert!(
        w64[5] * f64::UNIT_ROUNDOFF.powi(2) < 2f64.powi(-70),
        "mul_F3 f64"
    );
    assert!(
        w32[5] * f32::UNIT_ROUNDOFF.powi(2) < 2f64.powi(-28),
        "mul_F3 f32"
    );
}
