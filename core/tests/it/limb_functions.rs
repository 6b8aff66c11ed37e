//! exp, ln, sin and cos of `expanse_core::limb::functions` against MPFR at much higher
//! precision (wp + 256 bits): the stated bounds of the module docs, (0.5 + 2^−16) ulp (plus
//! 2^−(p+40) absolute for sin and cos), on random arguments over the stated ranges and on hard
//! ones (near multiples of ln 2 and π/2, near 1, tiny and huge exponents, the ends of the
//! ranges), at the quadrature's precisions (400 and 1000 digits: 1369 and 3362 bits) and at
//! small ones; and the special values.

use expanse_core::limb::functions::{cos, exp, ln, sin, working_prec, LimbConsts};
use expanse_core::limb::{Kind, LimbFloat, Round};
use rug::float::Constant;
use rug::Float;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A random p-bit number ±0.m·2^e.
fn random<const L: usize>(rng: &mut Rng, p: u32, e: i32, neg: bool) -> LimbFloat<L> {
    let n = p.div_ceil(64) as usize;
    let mut m: Vec<u64> = (0..n).map(|_| rng.next()).collect();
    m[n - 1] |= 1 << 63;
    let sh = 64 * n as u32 - p;
    if sh > 0 {
        m[0] &= !((1u64 << sh) - 1);
    }
    LimbFloat::from_parts(Kind::Normal, neg, e, &m, p).unwrap()
}

fn from_rug<const L: usize>(v: &Float, p: u32) -> LimbFloat<L> {
    LimbFloat::from_rug(v, p, Round::Nearest).0
}

#[derive(Clone, Copy, Debug)]
enum Fun {
    Exp,
    Ln,
    Sin,
    Cos,
}

/// Checks f(x) against MPFR; returns the error as a fraction of the bound (≤ 1 passes).
fn check_one<const L: usize>(f: Fun, x: &LimbFloat<L>, c: &LimbConsts<L>) -> f64 {
    let p = x.prec();
    let hi = working_prec(p) + 256;
    let xr = Float::with_val(hi, x.to_rug());
    let exact = match f {
        Fun::Exp => xr.exp(),
        Fun::Ln => xr.ln(),
        Fun::Sin => xr.sin(),
        Fun::Cos => xr.cos(),
    };
    let got = match f {
        Fun::Exp => exp(x, c),
        Fun::Ln => ln(x, c),
        Fun::Sin => sin(x, c),
        Fun::Cos => cos(x, c),
    };
    assert_eq!(got.prec(), p);
    let g = got.to_rug();
    if exact.is_zero() {
        assert!(
            g.is_zero(),
            "{f:?}({}) = {} not 0",
            x.to_hex(),
            got.to_hex()
        );
        return 0.0;
    }
    assert!(got.is_finite(), "{f:?}({}) = {}", x.to_hex(), got.to_hex());
    let err = Float::with_val(hi, &g - &exact).abs();
    let e = exact.get_exp().unwrap();
    let ulp = Float::with_val(hi, Float::i_exp(1, e - p as i32));
    let mut allowed = Float::with_val(hi, &ulp * (0.5 + 2f64.powi(-16)));
    if matches!(f, Fun::Sin | Fun::Cos) {
        allowed += Float::with_val(hi, Float::i_exp(1, -(p as i32) - 40));
    }
    let ulps = Float::with_val(64, &err / &ulp).to_f64();
    assert!(
        err <= allowed,
        "{f:?}({}) at {p} bits: error {ulps} ulp exceeds the bound",
        x.to_hex()
    );
    Float::with_val(64, &err / &allowed).to_f64()
}

fn run<const L: usize>(p: u32, count: usize) {
    let c = LimbConsts::<L>::new(p).expect("capacity holds the working precision");
    let mut rng = Rng(0x5eed ^ u64::from(p));
    let hi = working_prec(p) + 256;
    let mut worst = [0.0f64; 4];
    let mut tally = |f: Fun, x: LimbFloat<L>| {
        let u = check_one(f, &x, &c);
        let w = &mut worst[f as usize];
        *w = w.max(u);
    };
    let pi = Float::with_val(hi, Constant::Pi);
    let ln2 = Float::with_val(hi, Constant::Log2);
    for i in 0..count {
        let neg = rng.next() & 1 == 1;
        // exp: random in (−2^11, 2^11), tiny, near k·ln 2, near the ends of the range.
        let e = (rng.next() % 24) as i32 - 12;
        tally(Fun::Exp, random(&mut rng, p, e, neg));
        let k = (rng.next() % 4000) as i32 - 2000;
        let near = Float::with_val(hi, &ln2 * k);
        let x: LimbFloat<L> = from_rug(&near, p);
        tally(Fun::Exp, x);
        let tiny = -((rng.next() % (u64::from(p) + 200)) as i32);
        tally(Fun::Exp, random(&mut rng, p, tiny, neg));
        if i % 8 == 0 {
            tally(Fun::Exp, random(&mut rng, p, 21, neg));
        }
        // ln: random exponents, near 1 from both sides, exact powers of two.
        let e = (rng.next() % 8000) as i32 - 4000;
        tally(Fun::Ln, random(&mut rng, p, e, false));
        let de = -((rng.next() % u64::from(p)) as i32) - 1;
        let d = random::<L>(&mut rng, p, de, neg);
        let one = LimbFloat::<L>::from_f64(1.0, p, Round::Nearest).0;
        tally(Fun::Ln, one.add_round(&d, Round::Nearest).0);
        let pow2 = LimbFloat::<L>::from_parts(
            Kind::Normal,
            false,
            e,
            &{
                let mut m = vec![0u64; p.div_ceil(64) as usize];
                *m.last_mut().unwrap() = 1 << 63;
                m
            },
            p,
        )
        .unwrap();
        tally(Fun::Ln, pow2);
        if i % 8 == 0 {
            let huge = (1 << 29) - (rng.next() % 1000) as i32;
            tally(
                Fun::Ln,
                random(&mut rng, p, if neg { -huge } else { huge }, false),
            );
        }
        // sin, cos: random in (−2^8, 2^8), up to 2^21, tiny, near k·π/2 and (k + 1/2)·π/2.
        for f in [Fun::Sin, Fun::Cos] {
            let e = (rng.next() % 12) as i32 - 3;
            tally(f, random(&mut rng, p, e, neg));
            let e = 9 + (rng.next() % 13) as i32;
            tally(f, random(&mut rng, p, e, neg));
            let tiny = -((rng.next() % (u64::from(p) + 200)) as i32);
            tally(f, random(&mut rng, p, tiny, neg));
            let k = (rng.next() % 20000) as i32 - 10000;
            let near = Float::with_val(hi, &pi * k) / 2u32;
            tally(f, from_rug(&near, p));
            let near = Float::with_val(hi, &pi * (2 * k + 1)) / 4u32;
            tally(f, from_rug(&near, p));
        }
    }
    eprintln!(
        "limb functions at {p} bits (wp {}): worst error / bound: exp {:.3}, ln {:.3}, sin {:.3}, cos {:.3}",
        working_prec(p),
        worst[0],
        worst[1],
        worst[2],
        worst[3]
    );
}

#[test]
fn limb_functions_within_their_bounds_at_small_precisions() {
    run::<2>(53, 300);
    run::<4>(113, 300);
    run::<8>(373, 100);
}

#[test]
fn limb_functions_within_their_bounds_at_the_quadrature_precisions() {
    run::<32>(1369, 40);
    run::<64>(3362, 15);
}

#[test]
fn limb_functions_special_values() {
    let p = 200;
    let c = LimbConsts::<8>::new(p).unwrap();
    let z = LimbFloat::<8>::zero(p, false);
    let nz = LimbFloat::<8>::zero(p, true);
    let inf = LimbFloat::<8>::infinity(p, false);
    let ninf = LimbFloat::<8>::infinity(p, true);
    let nan = LimbFloat::<8>::nan(p);
    let one = LimbFloat::<8>::from_f64(1.0, p, Round::Nearest).0;
    let two = LimbFloat::<8>::from_f64(2.0, p, Round::Nearest).0;
    assert!(exp(&nan, &c).is_nan() && ln(&nan, &c).is_nan());
    assert!(sin(&nan, &c).is_nan() && cos(&nan, &c).is_nan());
    assert!(exp(&inf, &c).is_infinite() && !exp(&inf, &c).is_sign_negative());
    let e = exp(&ninf, &c);
    assert!(e.is_zero() && !e.is_sign_negative());
    assert_eq!(exp(&z, &c).to_f64(Round::Nearest), 1.0);
    assert_eq!(exp(&nz, &c).to_f64(Round::Nearest), 1.0);
    assert!(ln(&z, &c).is_infinite() && ln(&z, &c).is_sign_negative());
    assert!(ln(&nz, &c).is_infinite() && ln(&nz, &c).is_sign_negative());
    assert!(ln(&one.neg(), &c).is_nan() && ln(&ninf, &c).is_nan());
    assert!(ln(&inf, &c).is_infinite() && !ln(&inf, &c).is_sign_negative());
    let l1 = ln(&one, &c);
    assert!(l1.is_zero() && !l1.is_sign_negative());
    assert!(sin(&inf, &c).is_nan() && cos(&ninf, &c).is_nan());
    let s = sin(&nz, &c);
    assert!(s.is_zero() && s.is_sign_negative());
    assert_eq!(cos(&nz, &c).to_f64(Round::Nearest), 1.0);
    // Beyond the range: exp saturates, sin and cos are NaN.
    let big = LimbFloat::<8>::from_f64(3e6, p, Round::Nearest).0;
    assert!(exp(&big, &c).is_infinite());
    assert!(exp(&big.neg(), &c).is_zero());
    assert!(sin(&big, &c).is_nan() && cos(&big, &c).is_nan());
    // ln 2 and exp(ln 2) against MPFR at the same precision (checked within the bound above;
    // here: the results are the constants' roundings to within one ulp).
    let l2 = ln(&two, &c).to_rug();
    let want = Float::with_val(p, Constant::Log2);
    let diff = Float::with_val(p + 64, &l2 - &want).abs();
    assert!(diff <= Float::with_val(p + 64, Float::i_exp(1, -(p as i32))));
    // The constants need room: LimbConsts refuses a capacity without the guard bits.
    assert!(LimbConsts::<2>::new(128).is_none());
}
