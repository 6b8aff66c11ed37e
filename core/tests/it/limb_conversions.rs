//! The limb floats at the edges, against MPFR (or exact integers): every special value through
//! every operation and rounding mode, small precisions (one limb, p < 64), conversions from and
//! to f64 and expansions, hexadecimal and decimal text, comparisons, the operators, and the
//! capacity picked for a precision.

use crate::common::{rand_expansion, SplitMix};
use expanse_core::limb::check::{check, Op};
use expanse_core::limb::{capacity_for, AnyLimbFloat, Kind, LimbFloat, Round, EMAX, EMIN};
use expanse_core::Expansion;
use rug::float::Round as RRound;
use rug::Float;
use std::cmp::Ordering;

/// Our result equals MPFR's: class, sign, value, precision and ternary.
fn same(got: &(AnyLimbFloat, Ordering), want: &(Float, Ordering)) -> bool {
    let (g, go) = got;
    let (w, wo) = want;
    if w.is_nan() {
        return g.is_nan();
    }
    !g.is_nan()
        && g.is_sign_negative() == w.is_sign_negative()
        && g.to_rug() == *w
        && g.prec() == w.prec()
        && go == wo
}

fn values(p: u32) -> Vec<Float> {
    let mut v = vec![
        Float::with_val(p, 0.0),
        Float::with_val(p, -0.0),
        Float::with_val(p, f64::INFINITY),
        Float::with_val(p, f64::NEG_INFINITY),
        Float::with_val(p, f64::NAN),
        Float::with_val(p, 1),
        Float::with_val(p, -3),
        Float::with_val(p, 0.1),
    ];
    // The smallest positive number 2^(EMIN−1) and the largest finite one.
    let mut tiny = Float::with_val(p, 1);
    tiny >>= (1 - EMIN) as u32;
    assert!(tiny.is_normal() && tiny.get_exp() == Some(EMIN as i32));
    let mut huge = Float::with_val(p, 1);
    huge.next_down();
    huge <<= EMAX as u32;
    assert!(huge.is_normal() && huge.get_exp() == Some(EMAX as i32));
    v.push(tiny.clone());
    v.push(-huge.clone());
    v.push(huge);
    v.push(-tiny);
    v
}

fn mine(f: &Float) -> AnyLimbFloat {
    let (x, o) = AnyLimbFloat::from_rug(f, f.prec(), Round::Nearest);
    assert_eq!(o, Ordering::Equal);
    x
}

#[test]
fn special_and_extreme_values_match_mpfr_in_every_mode() {
    let p = 128;
    let vs = values(p);
    let ms: Vec<AnyLimbFloat> = vs.iter().map(mine).collect();
    let mut bad = Vec::new();
    for rnd in Round::ALL {
        let r = rnd.to_rug();
        for (i, a) in vs.iter().enumerate() {
            let x = &ms[i];
            let got = x.sqrt_round(rnd);
            if !same(&got, &Float::with_val_round(p, a.sqrt_ref(), r)) {
                bad.push(format!("sqrt({a}) {rnd:?}: {}", got.0.to_hex()));
            }
            for (j, b) in vs.iter().enumerate() {
                let y = &ms[j];
                let cases = [
                    (
                        "add",
                        x.add_round(y, rnd),
                        Float::with_val_round(p, a + b, r),
                    ),
                    (
                        "sub",
                        x.sub_round(y, rnd),
                        Float::with_val_round(p, a - b, r),
                    ),
                    (
                        "mul",
                        x.mul_round(y, rnd),
                        Float::with_val_round(p, a * b, r),
                    ),
                    (
                        "div",
                        x.div_round(y, rnd),
                        Float::with_val_round(p, a / b, r),
                    ),
                ];
                for (name, got, want) in cases {
                    if !same(&got, &want) {
                        bad.push(format!("{name}({a}, {b}) {rnd:?}: {}", got.0.to_hex()));
                    }
                }
                for (k, c) in vs.iter().enumerate().step_by(2) {
                    let got = x.fma_round(y, &ms[k], rnd);
                    let want = Float::with_val_round(p, a.mul_add_ref(b, c), r);
                    if !same(&got, &want) {
                        bad.push(format!("fma({a}, {b}, {c}) {rnd:?}: {}", got.0.to_hex()));
                    }
                }
                let cmp_ok = x.cmp_value(y) == a.partial_cmp(b)
                    && (a.is_nan() || b.is_nan() || x.total_cmp(y) == a.total_cmp(b));
                if !cmp_ok {
                    bad.push(format!("cmp({a}, {b})"));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn small_and_odd_precisions_match_mpfr() {
    for p in [3, 24, 53, 63, 64, 65, 127, 129] {
        for op in Op::ALL {
            let r = check(op, p, 7, 0, 400);
            assert_eq!(r.mismatches, 0, "{} at {p} bits: {:#?}", op.name(), r.first);
        }
    }
}

/// A random f64 of any magnitude (subnormals included), sometimes special.
fn random_f64(rng: &mut SplitMix) -> f64 {
    match rng.below(20) {
        0 => 0.0,
        1 => -0.0,
        2 => f64::INFINITY,
        3 => f64::NAN,
        4..=7 => f64::from_bits(rng.below(1 << 54)) * if rng.next() & 1 == 0 { 1.0 } else { -1.0 },
        _ => {
            let v = f64::from_bits(rng.next());
            if v.is_nan() {
                1.5
            } else {
                v
            }
        }
    }
}

#[test]
fn from_f64_rounds_as_mpfr_at_every_small_precision() {
    let mut rng = SplitMix(41);
    for _ in 0..3000 {
        let v = random_f64(&mut rng);
        let p = 2 + rng.below(70) as u32;
        for rnd in Round::ALL {
            let got = AnyLimbFloat::from_f64(v, p, rnd);
            let want = Float::with_val_round(p, v, rnd.to_rug());
            assert!(
                same(&got, &want),
                "{v:e} at {p} bits, {rnd:?}: {}",
                got.0.to_hex()
            );
            if v.is_finite() && p >= 53 {
                assert_eq!(got.0.to_f64(Round::Nearest).to_bits(), v.to_bits());
            }
        }
    }
}

#[test]
fn expansions_convert_as_mpfr_and_the_accurate_tier() {
    let mut rng = SplitMix(42);
    for k in 0..1500 {
        let e0 = match k % 5 {
            0 => rng.range(-1060, -990),
            1 => rng.range(960, 1020),
            _ => rng.range(-60, 60),
        };
        let e: Expansion<f64, 4> = rand_expansion(&mut rng, e0);
        if !e.is_finite() {
            continue;
        }
        let exact = e.to_rug();
        for p in [53u32, 113, 128, 200, 256, 848] {
            for rnd in Round::ALL {
                let got = AnyLimbFloat::from_expansion(&e, p, rnd);
                let want = Float::with_val_round(p, &exact, rnd.to_rug());
                assert!(same(&got, &want), "{e:?} at {p} bits {rnd:?}");
            }
            // To expansions: the greedy nearest one, as Expansion::from_rug.
            let x = AnyLimbFloat::from_expansion(&e, p, Round::Nearest).0;
            let v = x.to_rug();
            let t2 = x.to_expansion::<2>();
            let t4 = x.to_expansion::<4>();
            let t8 = x.to_expansion::<8>();
            let w2 = Expansion::<f64, 2>::from_rug(&v);
            let w4 = Expansion::<f64, 4>::from_rug(&v);
            let w8 = Expansion::<f64, 8>::from_rug(&v);
            let bits = |t: &[f64]| t.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(t2.terms()), bits(w2.terms()), "{e:?} at {p}");
            assert_eq!(bits(t4.terms()), bits(w4.terms()), "{e:?} at {p}");
            assert_eq!(bits(t8.terms()), bits(w8.terms()), "{e:?} at {p}");
        }
    }
    // Beyond the f64 range: ±∞ (and nothing below) as from_rug gives.
    let big = AnyLimbFloat::from_hex("0x1.8p+5000", 256, Round::Nearest)
        .unwrap()
        .0;
    let t = big.to_expansion::<3>();
    assert_eq!(t.terms()[0], f64::INFINITY);
    assert_eq!(
        t.terms().map(f64::to_bits),
        Expansion::<f64, 3>::from_rug(&big.to_rug())
            .terms()
            .map(f64::to_bits)
    );
}

/// Random C99 hexadecimal text, and the same number in MPFR's notation for base 16
/// (`h.hhh@k`, k a power of 16) for MPFR's correctly rounded parser as the oracle.
fn random_hex(rng: &mut SplitMix) -> (String, String) {
    let long = rng.next() & 1 == 0;
    let digits: usize = 1 + rng.below(if long { 1200 } else { 40 }) as usize;
    let mut all = String::new();
    for _ in 0..rng.below(3) {
        all.push('0');
    }
    let lead = all.len();
    for _ in 0..digits {
        let d = match rng.below(5) {
            0 => 0,
            1 => 15,
            _ => rng.below(16),
        };
        all.push(char::from_digit(d as u32, 16).unwrap());
    }
    let point = lead + rng.below(digits as u64 + 1) as usize;
    let (ip, fp) = all.split_at(point);
    // Binary exponent 4k: near the overflow and underflow thresholds, or moderate.
    let k: i64 = match rng.below(4) {
        0 => -268_436_300 + rng.below(1_000) as i64,
        1 => 268_435_000 + rng.below(1_000) as i64,
        _ => rng.range(-80, 80) as i64,
    };
    let sign = if rng.next() & 1 == 0 { "-" } else { "" };
    let ip = if ip.is_empty() { "0" } else { ip };
    let dot = if fp.is_empty() { "" } else { "." };
    (
        format!("{sign}0x{ip}{dot}{fp}p{:+}", 4 * k),
        format!("{sign}{ip}.{fp}@{k}"),
    )
}

#[test]
fn hexadecimal_text_is_exact_out_and_correctly_rounded_in() {
    let mut rng = SplitMix(43);
    for _ in 0..600 {
        let (s, mpfr_text) = random_hex(&mut rng);
        for p in [2u32, 53, 128, 848, 4096] {
            for rnd in Round::ALL {
                let got = AnyLimbFloat::from_hex(&s, p, rnd).unwrap();
                let exact = Float::parse_radix(&mpfr_text, 16).unwrap();
                let want = Float::with_val_round(p, exact, rnd.to_rug());
                assert!(
                    same(&got, &want),
                    "{s} at {p} bits {rnd:?}: {}",
                    got.0.to_hex()
                );
                // Out and back in: exact.
                let back = AnyLimbFloat::from_hex(&got.0.to_hex(), p, Round::Zero).unwrap();
                assert_eq!(back.1, Ordering::Equal);
                assert_eq!(back.0.to_rug(), got.0.to_rug());
            }
        }
    }
    for bad in ["", "0x", "1.5", "0x1.2.3", "0x1g", "0x1p", "0x1pz"] {
        assert!(
            AnyLimbFloat::from_hex(bad, 128, Round::Nearest).is_err(),
            "{bad:?}"
        );
    }
    let m = AnyLimbFloat::from_hex("-0x0p+0", 128, Round::Nearest)
        .unwrap()
        .0;
    assert!(m.is_zero() && m.is_sign_negative());
    assert_eq!(m.to_hex(), "-0x0p+0");
    assert_eq!(
        AnyLimbFloat::from_f64(3.0, 128, Round::Nearest).0.to_hex(),
        "0x1.8p+1"
    );
}

#[test]
fn decimal_text_is_correctly_rounded_in_and_reads_back() {
    let mut rng = SplitMix(44);
    for k in 0..400 {
        let p = [113u32, 128, 256, 848, 4096][k % 5];
        // A random decimal: digits and an exponent.
        let nd = 1 + rng.below(120) as usize;
        let digits: String = (0..nd)
            .map(|_| char::from_digit(rng.below(10) as u32, 10).unwrap())
            .collect();
        let s = format!(
            "{}{}e{}",
            if k % 3 == 0 { "-" } else { "" },
            digits,
            rng.range(-400, 400)
        );
        for rnd in Round::ALL {
            let got = AnyLimbFloat::from_decimal(&s, p, rnd).unwrap();
            let want = Float::with_val_round(p, Float::parse(&s).unwrap(), rnd.to_rug());
            assert!(same(&got, &want), "{s} at {p} bits {rnd:?}");
        }
        // Decimal out, back in to nearest: the same number.
        let x = AnyLimbFloat::from_decimal(&s, p, Round::Nearest).unwrap().0;
        let t = x.to_decimal();
        let back = AnyLimbFloat::from_decimal(&t, p, Round::Nearest).unwrap().0;
        assert_eq!(back.to_rug(), x.to_rug(), "{s} → {t}");
        assert_eq!(format!("{x}"), t);
    }
    for bad in ["", "abc", "1.2.3e", "0x1p3"] {
        assert!(
            AnyLimbFloat::from_decimal(bad, 128, Round::Nearest).is_err(),
            "{bad:?}"
        );
    }
    let inf = AnyLimbFloat::from_decimal("-inf", 128, Round::Nearest)
        .unwrap()
        .0;
    assert!(inf.is_infinite() && inf.is_sign_negative());
    let big = AnyLimbFloat::from_decimal("1e400000000", 128, Round::Zero).unwrap();
    assert_eq!(big.0.kind(), Kind::Normal);
    assert_eq!(big.0.exponent(), Some(EMAX as i32));
}

#[test]
#[allow(clippy::op_ref)] // the by-reference operators are under test
fn operators_round_to_nearest_and_generic_capacities_agree() {
    let mut rng = SplitMix(45);
    for _ in 0..300 {
        let a = (rng.next() as f64) * 1e-10;
        let b = -(rng.next() as f64) * 3e-12;
        let x = LimbFloat::<4>::from_f64(a, 200, Round::Nearest).0;
        let y = LimbFloat::<4>::from_f64(b, 200, Round::Nearest).0;
        let y = (y / LimbFloat::<4>::from_f64(-3.0, 200, Round::Nearest).0)
            .sqrt_round(Round::Up)
            .0;
        let (fx, fy) = (x.to_rug(), y.to_rug());
        assert_eq!((&x + &y).to_rug(), Float::with_val(200, &fx + &fy));
        assert_eq!((x - y).to_rug(), Float::with_val(200, &fx - &fy));
        assert_eq!((x * y).to_rug(), Float::with_val(200, &fx * &fy));
        assert_eq!((x / y).to_rug(), Float::with_val(200, &fx / &fy));
        assert_eq!((-x).to_rug(), -fx.clone());
        // The same numbers in AnyLimbFloat (capacity 4 for 200 bits) give the same bits.
        let ax = AnyLimbFloat::from_rug(&fx, 200, Round::Nearest).0;
        let ay = AnyLimbFloat::from_rug(&fy, 200, Round::Nearest).0;
        assert_eq!(ax.capacity(), 4);
        assert_eq!((ax * ay).to_rug(), (x * y).to_rug());
        assert!(x.partial_cmp(&y) == fx.partial_cmp(&fy));
        // Mixed precisions: the larger wins.
        let z = AnyLimbFloat::from_f64(b, 2000, Round::Nearest).0;
        let s = ax.add_round(&z, Round::Down);
        assert_eq!(s.0.prec(), 2000);
        assert_eq!(s.0.capacity(), 32);
        assert_eq!(
            s.0.to_rug(),
            Float::with_val_round(2000, &fx + b, RRound::Down).0
        );
    }
    assert_eq!(capacity_for(1), None);
    assert_eq!(capacity_for(2), Some(2));
    assert_eq!(capacity_for(128), Some(2));
    assert_eq!(capacity_for(129), Some(4));
    assert_eq!(capacity_for(848), Some(16));
    assert_eq!(capacity_for(4096), Some(64));
    assert_eq!(capacity_for(4097), None);
    assert!(!LimbFloat::<2>::valid_prec(129));
}

#[test]
fn underflow_and_overflow_thresholds_round_as_mpfr() {
    // Products of the smallest (largest) number with factors near 1/2, 1/4, 1 and 2 land
    // exactly on, just above and just below the thresholds, in every mode.
    for p in [2u32, 53, 113, 128, 848] {
        let q = p + 8;
        let mut tiny = Float::with_val(q, 1);
        tiny >>= (1 - EMIN) as u32; // 2^(EMIN − 1)
        let mut huge = Float::with_val(p, 1);
        huge.next_down();
        huge <<= EMAX as u32; // (1 − 2^−p)·2^EMAX
        let eps = |k: u32| Float::with_val(q, 1) >> k;
        let mut factors = Vec::new();
        for base in [0.25f64, 0.5, 0.75, 1.0, 2.0] {
            for k in [p - 1, p, p + 1, p + 2, p + 5] {
                factors.push(Float::with_val(q, base));
                factors.push(Float::with_val(q, base) + eps(k));
                factors.push(Float::with_val(q, base) - eps(k));
            }
        }
        let t = mine(&tiny);
        let h = mine(&huge);
        for f in &factors {
            let x = mine(f);
            for neg in [false, true] {
                let x = if neg { x.neg() } else { x };
                let fv = if neg { -f.clone() } else { f.clone() };
                for rnd in Round::ALL {
                    let r = rnd.to_rug();
                    let got = AnyLimbFloat::mul_prec(&t, &x, p, rnd);
                    let want = Float::with_val_round(p, &tiny * &fv, r);
                    assert!(
                        same(&got, &want),
                        "{p} bits: tiny·{fv} {rnd:?}: {}",
                        got.0.to_hex()
                    );
                    let got = AnyLimbFloat::mul_prec(&h, &x, p, rnd);
                    let want = Float::with_val_round(p, &huge * &fv, r);
                    assert!(
                        same(&got, &want),
                        "{p} bits: huge·{fv} {rnd:?}: {}",
                        got.0.to_hex()
                    );
                    let got = AnyLimbFloat::div_prec(&t, &x, p, rnd);
                    let want = Float::with_val_round(p, &tiny / &fv, r);
                    assert!(
                        same(&got, &want),
                        "{p} bits: tiny/{fv} {rnd:?}: {}",
                        got.0.to_hex()
                    );
                }
            }
        }
    }
}
