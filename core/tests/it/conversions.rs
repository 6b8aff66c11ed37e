//! Conversions and comparisons against MPFR: exact `to_rug`, `from_rug` and decimal parsing
//! rounded within the documented bound, `Display`/`FromStr` round trip (parse(display(x))
//! equals x exactly), clear errors on bad strings, comparisons agreeing with MPFR's, exact
//! `ldexp`, faithful `to_f64`, and Dekker's split / 2Prod agreeing with 2ProdFMA.

use crate::common::*;
use expanse_core::eft::{split, two_prod, two_prod_dekker};
use expanse_core::{bounds, Expansion, FloatTerm, ParseExpansionError};
use rug::Float;
use std::cmp::Ordering;

fn round_trip<T: FloatTerm, const N: usize>(cases: usize) {
    let mut rng = SplitMix(1234 + N as u64 + T::PRECISION as u64);
    let (lo, hi) = exponent_band::<T>(N);
    for i in 0..cases {
        let e = if i % 2 == 0 {
            rng.range(-5, 5)
        } else {
            rng.range(lo, hi)
        };
        let x: Expansion<T, N> = rand_expansion(&mut rng, e);
        let s = x.to_string();
        let y: Expansion<T, N> = s.parse().unwrap_or_else(|err| panic!("{s}: {err}"));
        assert_eq!(
            exact(&y),
            exact(&x),
            "{} N={N}: {:?} printed as {s} parsed back as {:?}",
            T::NAME,
            x.terms(),
            y.terms()
        );
        // from_rug(to_rug(x)) is x exactly.
        let z = Expansion::<T, N>::from_rug(&x.to_rug());
        assert_eq!(
            exact(&z),
            exact(&x),
            "{} N={N}: from_rug(to_rug(x))",
            T::NAME
        );
    }
}

#[test]
fn display_from_str_round_trip_exactly() {
    round_trip::<f64, 1>(300);
    round_trip::<f64, 2>(300);
    round_trip::<f64, 3>(200);
    round_trip::<f64, 4>(200);
    round_trip::<f64, 8>(100);
    round_trip::<f32, 1>(300);
    round_trip::<f32, 2>(300);
    round_trip::<f32, 4>(200);
}

#[test]
fn decimal_parsing_is_within_the_rounding_bound() {
    fn check<const N: usize>() {
        for s in [
            "0.1",
            "1.4",
            "0.3",
            "-2.718281828459045235360287471352662497757",
            "1e-150",
            "6.02214076e23",
            "1.399999486944",
        ] {
            let x: Expansion<f64, N> = s.parse().unwrap();
            let want = Float::with_val(PREC, Float::parse(s).unwrap());
            let e = rel_err(&x, &want);
            // Greedy nearest rounding: error below half an ulp of the last term, which is within
            // ρ_N of the round-to-N-terms bound.
            assert!(
                e <= bounds::round_rel_bound::<f64>(N),
                "N={N} {s}: rel err {e:e}"
            );
        }
    }
    check::<1>();
    check::<2>();
    check::<4>();
    check::<8>();
}

#[test]
fn bad_strings_are_rejected_with_a_clear_error() {
    for s in [
        "", "  ", "abc", "1.2.3", "1e", "--1", "0x1p3", "1,5", "1.5x", "e5", "+", ".",
    ] {
        let r: Result<Expansion<f64, 2>, ParseExpansionError> = s.parse();
        let err = r.expect_err(s);
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("{s:?}")),
            "message {msg:?} does not quote the input {s:?}"
        );
    }
    // Special values are accepted.
    assert!("nan".parse::<Expansion<f64, 2>>().unwrap().is_nan());
    assert_eq!(
        "-inf".parse::<Expansion<f64, 2>>().unwrap().hi(),
        f64::NEG_INFINITY
    );
    // Overflowing decimals become ∞, as IEEE parsing does, never a finite value.
    assert_eq!(
        "1e400".parse::<Expansion<f64, 2>>().unwrap().hi(),
        f64::INFINITY
    );
}

#[test]
fn comparisons_agree_with_mpfr() {
    fn check<const N: usize>() {
        let mut rng = SplitMix(555 + N as u64);
        for i in 0..400 {
            let x: Expansion<f64, N> = {
                let e = rng.range(-2, 2);
                rand_expansion(&mut rng, e)
            };
            let y = match i % 4 {
                // Equal values, possibly different representations.
                0 => Expansion::from_rug(&exact(&x)),
                // Differ only in the last bits.
                1 => {
                    let d = Float::with_val(PREC, &exact(&x) * pow2(-(53 * N as i32) - 3));
                    Expansion::from_rug(&Float::with_val(PREC, &exact(&x) + &d))
                }
                2 => x.neg(),
                _ => {
                    let e = rng.range(-2, 2);
                    rand_expansion(&mut rng, e)
                }
            };
            let want = exact(&x).partial_cmp(&exact(&y));
            assert_eq!(
                x.partial_cmp(&y),
                want,
                "N={N}: {:?} vs {:?}",
                x.terms(),
                y.terms()
            );
            assert_eq!(x == y, want == Some(Ordering::Equal));
        }
        let nan = Expansion::<f64, N>::from_term(f64::NAN);
        assert_eq!(nan.partial_cmp(&Expansion::one()), None);
        assert!(nan != nan);
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<8>();
}

#[test]
fn ldexp_is_exact_and_to_f64_is_faithful() {
    let mut rng = SplitMix(77);
    for _ in 0..300 {
        let x: Expansion<f64, 4> = {
            let e = rng.range(-20, 20);
            rand_expansion(&mut rng, e)
        };
        let k = rng.range(-300, 300);
        let want = Float::with_val(PREC, &exact(&x) * pow2(k));
        assert_eq!(exact(&x.ldexp(k)), want);
        // to_f64 is one of the two f64 neighbours of the exact value.
        let v = x.to_f64();
        let ex = exact(&x);
        let dn = ex.to_f64_round(rug::float::Round::Down);
        let up = ex.to_f64_round(rug::float::Round::Up);
        assert!(
            v == dn || v == up,
            "to_f64 {v:e} not faithful ({dn:e}, {up:e})"
        );
        let v32 = x.to_f32();
        let d32 = ex.to_f32_round(rug::float::Round::Down);
        let u32 = ex.to_f32_round(rug::float::Round::Up);
        assert!(v32 == d32 || v32 == u32, "to_f32 not faithful");
    }
    // from_f64 is exact for f64 terms and, within f32's range, for f32 terms with N ≥ 3.
    for v in [0.1f64, -1.0 / 3.0, 1e30, 2.0f64.powi(-60) * 1.2345] {
        assert_eq!(Expansion::<f64, 1>::from_f64(v).to_f64(), v);
        let e = Expansion::<f32, 3>::from_f64(v);
        assert_eq!(exact(&e), Float::with_val(PREC, v), "f32x3 from_f64({v:e})");
    }
}

#[test]
fn dekker_split_and_two_prod_agree_with_fma() {
    let mut rng = SplitMix(4242);
    for _ in 0..2000 {
        let a: f64 = {
            let e = rng.range(-400, 400);
            rand_term(&mut rng, e)
        };
        let b: f64 = {
            let e = rng.range(-400, 400);
            rand_term(&mut rng, e)
        };
        let (hi, lo) = split(a);
        assert_eq!(hi + lo, a);
        // Each half fits in 26 bits: its significand has ≥ 27 trailing zero bits.
        for h in [hi, lo] {
            if h != 0.0 {
                let m = h.to_bits() & ((1u64 << 52) - 1) | (1u64 << 52);
                assert!(
                    m.trailing_zeros() >= 26,
                    "split half {h:e} has more than 27 bits"
                );
            }
        }
        assert_eq!(two_prod_dekker(a, b), two_prod(a, b), "a={a:e} b={b:e}");
        let (p, e) = two_prod(a, b);
        let want = Float::with_val(PREC, Float::with_val(PREC, a) * b);
        assert_eq!(Float::with_val(PREC, p) + e, want);
        let a32: f32 = {
            let e = rng.range(-40, 40);
            rand_term(&mut rng, e)
        };
        let b32: f32 = {
            let e = rng.range(-40, 40);
            rand_term(&mut rng, e)
        };
        assert_eq!(two_prod_dekker(a32, b32), two_prod(a32, b32));
    }
}

#[test]
fn display_prints_exact_value_when_no_short_form_round_trips() {
    // f64 0.1 is exactly 0.1000000000000000055511151231257827021181583404541015625; as a
    // 2-term expansion with a zero tail only its exact decimal parses back to it.
    let x = Expansion::<f64, 2>::from_term(0.1);
    assert_eq!(
        x.to_string(),
        "1.000000000000000055511151231257827021181583404541015625e-1"
    );
    let x = Expansion::<f64, 1>::from_term(0.1);
    assert_eq!(
        x.to_string().parse::<Expansion<f64, 1>>().unwrap().hi(),
        0.1
    );
    assert_eq!(Expansion::<f64, 2>::from_term(-0.0).to_string(), "-0");
    assert_eq!(
        Expansion::<f64, 2>::from_term(f64::NEG_INFINITY).to_string(),
        "-inf"
    );
}
