//! The fixed-point kernel of exp at f64 N ≥ 3 (`expanse_core::functions::fixed`) against exact
//! integers and MPFR (rug): its tables (ln 2, e^{j/256}, e^{j/65536}, 1/k!), the full and
//! truncated products at every
//! limb count of the Horner plan, the greedy rounding of a fixed-point value to N terms
//! (normal, subnormal and overflowing scalings, ties), and exp itself near the underflow and
//! overflow thresholds, where the rounding meets subnormal terms and +∞.

use crate::common::SplitMix;
use expanse_core::functions::{atan_fixed, error_bound, fixed, sin_fixed, Unary};
use expanse_core::Expansion;
use rug::{Float, Integer};

fn to_int(limbs: &[u64]) -> Integer {
    Integer::from_digits(limbs, rug::integer::Order::Lsf)
}

fn floor_int(v: &Float) -> Integer {
    v.clone().floor().to_integer().expect("finite")
}

/// ln 2, e^{j/256} (|j| ≤ 90), e^{j/65536} (|j| ≤ 128) and 1/k! (k ≤ MAX_DEG) are the truncations ⌊c·2^F⌋ the module
/// documents, from MPFR (and exact integer division for 1/k!).
#[test]
fn fixed_tables_against_mpfr() {
    let prec = 2000;
    let ln2 = Float::with_val(prec, rug::float::Constant::Log2);
    assert_eq!(
        to_int(&fixed::ln2_fx()),
        floor_int(&Float::with_val(prec, &ln2 << 576u32)),
        "ln 2"
    );
    for j in -90..=90 {
        let e = Float::with_val(prec, Float::with_val(prec, j) / 256u32).exp();
        let want = floor_int(&Float::with_val(prec, e << 512u32));
        assert_eq!(to_int(&fixed::exp_j256_fx(j)), want, "e^({j}/256)");
    }
    for j in -128..=128 {
        let e = Float::with_val(prec, Float::with_val(prec, j) / 65536u32).exp();
        let want = floor_int(&Float::with_val(prec, e << 512u32));
        assert_eq!(to_int(&fixed::exp_j65536_fx(j)), want, "e^({j}/65536)");
    }
    let one = Integer::from(1) << (64 * fixed::MAX_W) as u32;
    for k in 0..=fixed::MAX_DEG {
        let fact = Integer::from(Integer::factorial(k as u32));
        let want = Integer::from(&one / &fact);
        assert_eq!(to_int(&fixed::inv_fact_fx(k)), want, "1/{k}!");
    }
}

fn random_limbs<const W: usize>(rng: &mut SplitMix, int_max: u64) -> [u64; fixed::L] {
    let mut a = [0u64; fixed::L];
    for limb in a.iter_mut().take(W) {
        *limb = match rng.below(6) {
            0 => 0,
            1 => u64::MAX,
            _ => rng.next(),
        };
    }
    a[W] = rng.below(int_max + 1);
    a
}

fn check_mul<const W: usize>(rng: &mut SplitMix) {
    for _ in 0..300 {
        let a = random_limbs::<W>(rng, 1);
        let b = random_limbs::<W>(rng, 1);
        for lo in 0..W {
            let got = fixed::mul_trunc::<W>(&a, &b, lo);
            let mut ac = a;
            let mut bc = b;
            for i in 0..lo {
                ac[i] = 0;
                bc[i] = 0;
            }
            let exact = to_int(&ac[..=W]) * to_int(&bc[..=W]);
            let want = (exact >> (64 * (W + lo)) as u32) << (64 * lo) as u32;
            assert_eq!(to_int(&got[..=W]), want, "W = {W}, lo = {lo}");
            assert!(got[W + 1..].iter().all(|&l| l == 0));
            // The truncated product: in (exact − (w + 1.01) units, exact] at unit 2^{−64w}
            // (a's integer limb ignored: a < 1 there).
            let mut a1 = ac;
            a1[W] = 0;
            let exact1 = to_int(&a1[..=W]) * to_int(&bc[..=W]);
            let lo_got = fixed::mul_lo::<W>(&a1, &b, lo);
            let unit = Integer::from(1) << (64 * (W + lo)) as u32;
            let scaled = Integer::from(to_int(&lo_got[..=W]) >> (64 * lo) as u32) * &unit;
            assert!(
                scaled <= exact1,
                "mul_lo above the product: W = {W}, lo = {lo}"
            );
            let w = (W - lo) as u32;
            let slack = Integer::from(&unit * (w + 2));
            assert!(
                Integer::from(&exact1 - &scaled) < slack,
                "mul_lo too low: W = {W}, lo = {lo}"
            );
            assert!(lo_got[..lo].iter().all(|&l| l == 0));
        }
    }
}

/// mul_trunc is ⌊a·b⌋ at 2^{−64W}, cut to the limbs lo..=W, and mul_lo within its stated
/// (w + 1.01) units below a·b, for every lo of the limb plan.
#[test]
fn fixed_mul_against_integers() {
    let mut rng = SplitMix(0xF1_0001);
    check_mul::<3>(&mut rng);
    check_mul::<4>(&mut rng);
    check_mul::<5>(&mut rng);
    check_mul::<6>(&mut rng);
    check_mul::<7>(&mut rng);
}

fn check_terms<const W: usize>(rng: &mut SplitMix) {
    let es = [
        0, -1, 5, 1023, 1024, -1022, -1030, -1050, -1070, -1074, -1076,
    ];
    for case in 0..400 {
        let mut y = random_limbs::<W>(rng, 1);
        match case % 4 {
            // A tie at 53 bits below the top bit: 1 followed by 52 bits, a single 1, zeros.
            0 => {
                for l in y.iter_mut() {
                    *l = 0;
                }
                y[W] = 1;
                let pos = 64 * W as i64 - 53;
                if pos >= 0 {
                    y[pos as usize / 64] |= 1u64 << (pos % 64);
                }
                if rng.below(2) == 0 && pos >= 1 {
                    let p = pos as usize - 1;
                    y[p / 64] |= 1 << (p % 64);
                }
            }
            // Few significant bits.
            1 => {
                for l in y.iter_mut().take(W) {
                    *l &= 0xff00_0000_0000_0000;
                }
            }
            _ => {}
        }
        let e = if case % 3 == 0 {
            rng.range(-1100, 1030)
        } else {
            es[rng.below(es.len() as u64) as usize]
        };
        for n in [3usize, 4, 8] {
            let got = fixed::to_terms::<W>(&y, n, e);
            // Greedy nearest by MPFR: t_i = RN(rest) (mpfr_get_d: subnormals and overflow
            // included), rest −= t_i exactly.
            let mut rest = Float::with_val(2000, to_int(&y[..=W])) << (e - 64 * W as i32);
            let mut want = [0.0f64; 8];
            let mut overflow = false;
            for (i, w) in want.iter_mut().enumerate().take(n) {
                let t = rest.to_f64();
                if i == 0 && t.is_infinite() {
                    overflow = true;
                    break;
                }
                if t == 0.0 {
                    break; // the rest rounds to (±)0: the terms end (+0)
                }
                *w = t;
                rest -= t;
            }
            if overflow {
                assert!(got.is_none(), "W = {W}, e = {e}: expected overflow");
                continue;
            }
            let got = got.expect("no overflow");
            assert_eq!(
                got.map(f64::to_bits),
                want.map(f64::to_bits),
                "W = {W}, n = {n}, e = {e}, y = {y:x?}"
            );
            assert!(Expansion::<f64, 8>::try_from_normalized(got).is_some());
        }
    }
}

/// The rounding to N terms is the greedy nearest expansion, term by term MPFR's RN of the
/// exact remainder, also where terms are subnormal or the leading one overflows.
#[test]
fn fixed_to_terms_against_mpfr() {
    let mut rng = SplitMix(0xF1_0002);
    check_terms::<3>(&mut rng);
    check_terms::<4>(&mut rng);
    check_terms::<5>(&mut rng);
    check_terms::<6>(&mut rng);
    check_terms::<7>(&mut rng);
}

fn check_exp_edges<const N: usize>(rng: &mut SplitMix) -> f64 {
    let b = error_bound::<f64>(Unary::Exp, N);
    let mut worst = 0.0f64;
    for i in 0..200 {
        let x0 = if i % 2 == 0 {
            -745.0 + 45.0 * (rng.next() as f64 / u64::MAX as f64)
        } else {
            700.0 + 9.78 * (rng.next() as f64 / u64::MAX as f64)
        };
        let mut t = [0.0f64; N];
        let mut v = x0;
        for ti in t.iter_mut() {
            *ti = v;
            v = v * f64::EPSILON * 0.25 * (rng.next() as f64 / u64::MAX as f64);
        }
        let x = Expansion::<f64, N>::from_terms(t);
        let y = x.exp();
        let want = Float::with_val(4 * 53 * N as u32 + 64, x.to_rug()).exp();
        if !y.hi().is_finite() {
            assert!(
                want > Float::with_val(53, f64::MAX),
                "exp({x0}) = +inf too early"
            );
            continue;
        }
        let err = Float::with_val(3000, y.to_rug() - &want).abs();
        let lim = Float::with_val(3000, &want * b.rel).abs() + b.abs;
        assert!(err <= lim, "N = {N}, x = {x0}: error above the bound");
        if want != 0 {
            let rel = Float::with_val(64, &err / &want).to_f64();
            if want.clone().abs() > 1e-290 {
                worst = worst.max(rel / b.rel);
            }
        }
    }
    worst
}

/// exp at f64 N ≥ 3 near underflow (subnormal terms, then subnormal results) and overflow,
/// within its bound (relative, plus N·σ absolute).
#[test]
fn fixed_exp_near_thresholds() {
    let mut rng = SplitMix(0xF1_0003);
    let w3 = check_exp_edges::<3>(&mut rng);
    let w4 = check_exp_edges::<4>(&mut rng);
    let w8 = check_exp_edges::<8>(&mut rng);
    for n in 3..=8 {
        let w = fixed::frac_limbs(n);
        let b = error_bound::<f64>(Unary::Exp, n).rel / 2f64.powi(-53 * n as i32);
        eprintln!(
            "N = {n}: W = {w}, degree {}, bound {b:.6} u^N",
            fixed::exp_degree(w)
        );
        assert!(b < 1.0001, "bound of exp at N = {n}: {b} u^N");
    }
    eprintln!("exp near thresholds: worst/bound N = 3 {w3:.3}, 4 {w4:.3}, 8 {w8:.3}");
}

/// The sin/cos tables of the fixed-point sin (`sin_fixed.rs`): ⌊sin(j/256)·2^512⌋ and
/// ⌊cos(j/256)·2^512⌋ from MPFR at 2000 bits.
#[test]
fn sin_cos_tables_against_mpfr() {
    let prec = 2000;
    for j in 0..=sin_fixed::SIN_TAB_MAX {
        let c = Float::with_val(prec, Float::with_val(prec, j) / 256u32);
        let s = floor_int(&Float::with_val(
            prec,
            Float::with_val(prec, c.sin_ref()) << 512u32,
        ));
        let k = floor_int(&Float::with_val(
            prec,
            Float::with_val(prec, c.cos_ref()) << 512u32,
        ));
        assert_eq!(to_int(&sin_fixed::sin_j256_fx(j)), s, "sin({j}/256)");
        assert_eq!(to_int(&sin_fixed::cos_j256_fx(j)), k, "cos({j}/256)");
    }
}

/// The Horner steps of S and C (`sin_fixed.rs`, "Series") never borrow: at every W and step
/// k < d, the coefficient truncated to w_k limbs exceeds the largest product subtracted from
/// it, Z·a_{k+1} with Z = 2^−16(1 + 2^−10) (p_{k+1} ≤ a_{k+1}). Exhaustive, so a proof of
/// that step of the derivation; also the degree's tail condition, in exact integers.
#[test]
fn sin_cos_series_never_borrows() {
    for w in 3..=fixed::MAX_W {
        for odd in [false, true] {
            let d = sin_fixed::sc_degree(w, odd);
            let o = odd as usize;
            let a = |k: usize| to_int(&fixed::inv_fact_fx(2 * k + o));
            for k in 0..d {
                let wk = sin_fixed::sc_step_limbs(w, k);
                // Truncated to w_k fraction limbs (of the MAX_W-limb table value).
                let drop = 64 * (fixed::MAX_W - wk) as u32;
                let trunc = Integer::from(a(k) >> drop) << drop;
                // trunc ≥ 2^−16(1 + 2^−10)·a_{k+1}  ⇔  trunc·2^26 ≥ (2^10 + 1)·a_{k+1}.
                let lhs = Integer::from(&trunc << 26u32);
                let rhs = Integer::from(a(k + 1) * 1025u32);
                assert!(lhs > rhs, "W={w} odd={odd} k={k}: a borrow is possible");
            }
            // Tail: Z^{d+1}/(2d+2+o)! ≤ 2^{−64W−8}, i.e. (2^10 + 1)^{d+1}·2^{64W+8} ≤
            // 2^{26(d+1)}·(2d+2+o)!.
            let lhs = Integer::from(Integer::u_pow_u(1025, d as u32 + 1)) << (64 * w as u32 + 8);
            let rhs = Integer::from(Integer::factorial(2 * d as u32 + 2 + o as u32))
                << (26 * (d as u32 + 1));
            assert!(lhs <= rhs, "W={w} odd={odd}: degree {d} too low");
        }
    }
}

/// atan's fixed-point tables (`atan_fixed.rs`): ⌊atan(j/256)·2^512⌋ (j ≤ 256) from MPFR and
/// ⌊2^{64·MAX_W}/(2k+1)⌋ from exact integer division.
#[test]
fn atan_tables_against_mpfr() {
    let prec = 2000;
    for j in 0..=atan_fixed::ATAN_TAB_MAX {
        let c = Float::with_val(prec, Float::with_val(prec, j) / 256u32);
        let want = floor_int(&Float::with_val(
            prec,
            Float::with_val(prec, c.atan_ref()) << 512u32,
        ));
        assert_eq!(to_int(&atan_fixed::atan_j256_fx(j)), want, "atan({j}/256)");
    }
    for k in 0..=atan_fixed::ATAN_MAX_DEG {
        let want =
            Integer::from(Integer::from(1) << (64 * fixed::MAX_W as u32)) / (2 * k as u32 + 1);
        assert_eq!(to_int(&atan_fixed::inv_odd_fx(k)), want, "1/(2·{k}+1)");
    }
}

/// The series of `atan_fixed.rs` ("Series"): at every W and scale σ the degree's tail
/// Z^{d+1}/(2d+3) is at most 2^{−64W−8} with Z = min(2^{−2σ}(1 + 2^−49), t_b²(1 + 2^−40)),
/// exactly in rationals, and no Horner step borrows: the coefficient cut to w_k limbs exceeds
/// Z·c_{k+1} ≥ ẑ·p_{k+1}. Exhaustive over W = 3..7 and σ = 8..300.
#[test]
fn atan_series_degree_and_no_borrow() {
    use rug::Rational;
    let two = |e: i32| {
        if e >= 0 {
            Rational::from(Integer::from(1) << e as u32)
        } else {
            Rational::from((Integer::from(1), Integer::from(1) << (-e) as u32))
        }
    };
    let tb = Rational::from((1001, 512_000));
    let z_table = Rational::from(&tb * &tb) * (two(0) + two(-40));
    for w in 3..=fixed::MAX_W {
        for sigma in 8..=300i32 {
            let z_sigma = two(-2 * sigma) * (two(0) + two(-49));
            let z = if z_sigma < z_table {
                z_sigma
            } else {
                z_table.clone()
            };
            let d = atan_fixed::atan_degree(w, sigma);
            assert!(d <= atan_fixed::ATAN_MAX_DEG, "W={w} σ={sigma}: degree {d}");
            let mut zp = Rational::from(1);
            for _ in 0..=d {
                zp *= &z;
            }
            let tail = zp / (2 * d as u32 + 3);
            assert!(
                tail <= two(-64 * w as i32 - 8),
                "W={w} σ={sigma}: degree {d} too low"
            );
            for k in 0..d {
                let wk = fixed::step_limbs(w, k);
                let drop = 64 * (fixed::MAX_W - wk) as u32;
                let c_k = Integer::from(to_int(&atan_fixed::inv_odd_fx(k)) >> drop) << drop;
                let next = Rational::from(to_int(&atan_fixed::inv_odd_fx(k + 1))) * &z;
                assert!(
                    Rational::from(c_k) > next,
                    "W={w} σ={sigma} k={k}: a borrow is possible"
                );
            }
        }
    }
}
