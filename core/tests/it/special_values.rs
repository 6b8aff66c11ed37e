//! IEEE special values through the accurate tier: NaN and ±∞ propagate as IEEE would and never
//! yield a silently finite result (including a NaN hidden in a lower term, as the fast tier can
//! produce on overflow), signed zeros follow IEEE, and subnormal operands give finite results
//! (additions of subnormals are exact: 2Sum never rounds there).

use crate::common::*;
use expanse_core::batch::{Block, Lanes};
use expanse_core::Expansion;
use rug::Float;

type E2 = Expansion<f64, 2>;
type E4 = Expansion<f64, 4>;

fn all_ops<const N: usize>(
    x: &Expansion<f64, N>,
    y: &Expansion<f64, N>,
) -> Vec<(&'static str, Expansion<f64, N>)> {
    vec![
        ("add", x.add(y)),
        ("sub", x.sub(y)),
        ("mul", x.mul(y)),
        ("div", x.div(y)),
        ("add_term", x.add_term(y.hi())),
        ("mul_term", x.mul_term(y.hi())),
        ("div_term", x.div_term(y.hi())),
        ("sqr", x.sqr()),
        ("recip", x.recip()),
        ("sqrt", x.sqrt()),
    ]
}

fn nan_propagates<const N: usize>() {
    let nan = Expansion::<f64, N>::from_term(f64::NAN);
    let one = Expansion::<f64, N>::from_f64(1.5);
    for (name, r) in all_ops(&nan, &one)
        .into_iter()
        .chain(all_ops(&one, &nan).into_iter().take(7))
    {
        assert!(
            r.is_nan(),
            "N={N} {name} with a NaN operand gave {:?}",
            r.terms()
        );
    }
}

#[test]
fn nan_operands_give_nan_every_n() {
    nan_propagates::<1>();
    nan_propagates::<2>();
    nan_propagates::<3>();
    nan_propagates::<8>();
}

#[test]
fn nan_or_infinity_in_a_lower_term_is_never_hidden() {
    // Build expansions whose lower term is NaN or ∞ (the fast tier can produce these).
    for bad in [f64::NAN, f64::INFINITY] {
        let mut blk = Block::<Lanes<f64, 1>, 4>::load(&[E4::from_f64(1.0)], &[E4::from_f64(2.0)]);
        blk.x[2] = Lanes([bad]);
        let (x, y) = blk.get(0);
        assert!(!x.is_finite());
        // Swapped operands: only the expansion-expansion operations (y.add_term(x.hi()) takes
        // x's finite leading term as a plain machine number).
        let ops = all_ops(&x, &y)
            .into_iter()
            .chain(all_ops(&y, &x).into_iter().take(4));
        for (i, (name, r)) in ops.enumerate() {
            // The expansion's value is the IEEE sum of its terms (NaN or +∞); 1/∞ and y/∞ are 0.
            let reciprocal_of_inf =
                bad.is_infinite() && (name == "recip" || (i >= 10 && name == "div"));
            if reciprocal_of_inf {
                assert!(r.is_zero(), "{name} of ∞ gave {:?}", r.terms());
            } else {
                assert!(
                    !r.is_finite(),
                    "{name} with a {bad} term gave {:?}",
                    r.terms()
                );
            }
            if bad.is_nan() {
                assert!(r.is_nan(), "{name} with a NaN term gave {:?}", r.terms());
            }
        }
    }
}

#[test]
fn infinities_follow_ieee() {
    let inf = E2::from_term(f64::INFINITY);
    let ninf = E2::from_term(f64::NEG_INFINITY);
    let one = E2::from_f64(1.0);
    let zero = E2::zero();
    assert_eq!(inf.add(&one).hi(), f64::INFINITY);
    assert!(inf.add(&ninf).is_nan());
    assert!(inf.sub(&inf).is_nan());
    assert!(inf.mul(&zero).is_nan());
    assert_eq!(inf.mul(&ninf).hi(), f64::NEG_INFINITY);
    assert_eq!(one.div(&zero).hi(), f64::INFINITY);
    assert_eq!(one.neg().div(&zero).hi(), f64::NEG_INFINITY);
    assert!(zero.div(&zero).is_nan());
    assert!(inf.div(&inf).is_nan());
    let q = one.div(&inf);
    assert!(q.is_zero() && q.is_finite());
    assert_eq!(inf.sqrt().hi(), f64::INFINITY);
    assert!(one.neg().sqrt().is_nan());
    assert!(ninf.sqrt().is_nan());
    // Overflow of a finite operation gives ∞ (IEEE), for every N.
    let big = E4::from_f64(f64::MAX);
    assert_eq!(big.add(&big).hi(), f64::INFINITY);
    assert_eq!(big.mul(&E4::from_f64(2.0)).hi(), f64::INFINITY);
    assert_eq!(big.neg().mul_term(2.0).hi(), f64::NEG_INFINITY);
    assert_eq!(big.div(&E4::from_f64(0.5)).hi(), f64::INFINITY);
}

#[test]
fn signed_zeros_follow_ieee() {
    fn check<const N: usize>() {
        let pz = Expansion::<f64, N>::zero();
        let nz = Expansion::<f64, N>::from_term(-0.0);
        let five = Expansion::<f64, N>::from_f64(5.0);
        let neg = |e: &Expansion<f64, N>| e.hi().is_sign_negative();
        assert!(neg(&nz.add(&nz)), "N={N}: -0 + -0 must be -0");
        assert!(!neg(&pz.add(&nz)), "N={N}: 0 + -0 must be +0");
        let x = Expansion::<f64, N>::from_f64(0.1);
        let d = x.sub(&x);
        assert!(d.is_zero() && !neg(&d), "N={N}: x − x must be +0");
        assert!(neg(&nz.mul(&five)), "N={N}: -0·5 must be -0");
        assert!(neg(&pz.mul(&five.neg())), "N={N}: 0·(−5) must be -0");
        assert!(neg(&nz.div(&five)), "N={N}: -0/5 must be -0");
        assert!(neg(&nz.sqrt()), "N={N}: sqrt(-0) must be -0");
        assert!(neg(&nz.mul_term(3.0)), "N={N}: -0·3 must be -0");
        assert_eq!(nz, pz, "N={N}: -0 == +0");
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<8>();
}

#[test]
fn subnormal_operands_are_finite_and_sums_exact() {
    fn check<const N: usize>() {
        let mut rng = SplitMix(99 + N as u64);
        for _ in 0..200 {
            let tiny = |rng: &mut SplitMix| {
                let m = (rng.next() >> 20) as f64; // up to 44 bits
                Expansion::<f64, N>::from_f64(rng.sign() * m * pow2(-1074))
            };
            let (x, y) = (tiny(&mut rng), tiny(&mut rng));
            let s = x.add(&y);
            let want = Float::with_val(PREC, &exact(&x) + &exact(&y));
            assert_eq!(exact(&s), want, "N={N}: subnormal sum not exact");
            for (name, r) in all_ops(&x, &y) {
                if name == "sqrt" && x.hi() < 0.0 {
                    continue;
                }
                if y.is_zero() && ["div", "div_term"].contains(&name) {
                    continue;
                }
                if x.is_zero() && name == "recip" {
                    continue;
                }
                assert!(!r.is_nan(), "N={N} {name} on subnormals gave NaN");
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<4>();
    check::<8>();
}
