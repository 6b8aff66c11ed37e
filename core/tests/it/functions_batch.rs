//! Batched function evaluation (`expanse_core::functions::batch`) against the scalar
//! functions (`FloatTerm::eval_unary_terms`, what `Expansion::exp` etc. call): every result
//! must agree bit for bit (every NaN counted as one value), at every SIMD level this CPU has
//! (AVX2 lanes, and AVX-512 lanes where present).
//!
//! The scalar functions are checked against MPFR by the `functions_*` suites, so identity
//! carries their bounds over. Arguments: random expansions with adversarial tails over a wide
//! exponent range per function (so that exp takes every table index, doubling count and the
//! overflow/underflow thresholds, and sin/cos every quadrant, triple-angle count and Horner
//! length), plus edge cases (±0, ±∞, NaN in the leading or a lower term, subnormal, huge,
//! arguments next to multiples of π/2 and to 1, r̂ = 0 after reduction) and slice lengths
//! that are not a multiple of the lane count. N is sampled: f64 {1, 2, 3, 4, 8}, f32 {2, 4};
//! the lane code is one generic function for every N. Vectorised: exp, ln, ln_1p, exp_m1,
//! sinh, cosh, tanh, sin, cos (the others run the scalar loop; checked once, at N = 3).

use crate::common::functions::{terms_of, truncate, Terms};
use crate::common::*;
use expanse_core::functions::Unary;
use expanse_core::functions::{eval_unary_batch, eval_unary_batch_f32, eval_unary_batch_f64_at};
use expanse_core::{Expansion, FloatTerm, MAX_TERMS};
use rug::Float;

/// Edge-case arguments of `f` (as f64 values or exact MPFR values, rounded to n terms).
fn edges<T: FloatTerm>(f: Unary, n: usize) -> Vec<Terms<T>> {
    let mut v: Vec<Terms<T>> = Vec::new();
    let mut one = |x: f64| {
        let mut t = [T::ZERO; MAX_TERMS];
        t[0] = T::from_f64(x);
        v.push(t);
    };
    for x in [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e-310,
        -1e-310,
        1e-40,
        1e-20,
        1.0,
        -1.0,
        1e300,
        -1e300,
        f64::MAX,
        709.7,
        709.79,
        710.0,
        -745.0,
        -745.2,
        -746.0,
        88.7,
        89.0,
        -103.9,
        -104.0,
        0.78,
        -0.78,
        0.785,
        2.0f64.ln(),
        1.0 / 256.0,
        -1.0 / 512.0,
        90.0 / 256.0,
    ] {
        one(x);
    }
    let prec = 4 * T::PRECISION * n as u32 + 200;
    // Near multiples of π/2 (deep cancellation in the reduction), of ln 2 (exp's r̂ near 0),
    // and near 1, each nudged by a few units of the last term.
    let pi2 = Float::with_val(prec, rug::float::Constant::Pi) / 2u32;
    let ln2 = Float::with_val(prec, rug::float::Constant::Log2);
    for k in [1i32, 2, 3, 4, 5, 7, 100, 355, 710, 1_000_000] {
        for base in [&pi2, &ln2] {
            let x = Float::with_val(prec, base * k);
            for sign in [1, -1] {
                v.push(terms_of::<T>(&Float::with_val(prec, &x * sign), n));
            }
        }
    }
    let near_one = Float::with_val(prec, 1) + Float::with_val(prec, 1e-30);
    v.push(terms_of::<T>(&near_one, n));
    if n >= 2 {
        // A non-finite lower term.
        for bad in [f64::NAN, f64::INFINITY] {
            let mut t = [T::ZERO; MAX_TERMS];
            t[0] = T::from_f64(0.5);
            t[1] = T::from_f64(bad);
            v.push(t);
        }
    }
    let _ = f;
    v.into_iter().map(|t| truncate(&t, n)).collect()
}

/// Random arguments of `f`: exponents over the function's interesting range, adversarial
/// tails.
fn randoms<T: FloatTerm>(f: Unary, n: usize, count: usize, rng: &mut SplitMix) -> Vec<Terms<T>> {
    let f32_terms = T::PRECISION != 53;
    let (lo, hi) = match f {
        Unary::Exp | Unary::ExpM1 | Unary::Sinh | Unary::Cosh | Unary::Tanh if f32_terms => {
            (-30, 7)
        }
        Unary::Exp | Unary::ExpM1 | Unary::Sinh | Unary::Cosh | Unary::Tanh => (-60, 10),
        _ if f32_terms => (-30, 30),
        _ => (-60, 60),
    };
    (0..count)
        .map(|_| {
            let e = rng.range(lo, hi);
            let mut x: Expansion<T, MAX_TERMS> = rand_expansion(rng, e);
            if f == Unary::Ln {
                // Mostly positive, a third of them near 1 (w = x − 1 small or tiny).
                if x.hi() < T::ZERO && rng.below(8) != 0 {
                    x = x.neg();
                }
                if rng.below(3) == 0 {
                    let ed = rng.range(lo, -1);
                    let d: Expansion<T, MAX_TERMS> = rand_expansion(rng, ed);
                    x = d.add_term(T::ONE);
                }
            }
            if f == Unary::Ln1p && x.hi() < T::ZERO {
                // Mostly above −1: −x·2^{−k} ∈ (−1, 0), some near −1, some below (NaN).
                match rng.below(8) {
                    0 => {}
                    1 => {
                        let ed = rng.range(lo, -1);
                        let d: Expansion<T, MAX_TERMS> = rand_expansion(rng, ed);
                        x = d.abs().add_term(-T::ONE);
                    }
                    _ => x = x.ldexp(-(e.max(0) + 1)),
                }
            }
            truncate(x.terms(), n)
        })
        .collect()
}

/// The number of elements whose batched result differs from the scalar one, reporting the
/// first few.
fn mismatches<T: FloatTerm>(f: Unary, n: usize, args: &[Terms<T>], got: &[T], what: &str) -> usize {
    let mut bad = 0;
    for (i, a) in args.iter().enumerate() {
        let want = T::eval_unary_terms(f, n, a);
        let g = &got[i * n..(i + 1) * n];
        if bits(&want[..n]) != bits(g) {
            if bad < 5 {
                eprintln!(
                    "{} {what} N={n} element {i}: arg {:?} scalar {:?} batch {:?}",
                    f.name(),
                    &a[..n],
                    &want[..n],
                    g
                );
            }
            bad += 1;
        }
    }
    bad
}

/// Flat terms of the arguments.
fn flat<T: FloatTerm>(args: &[Terms<T>], n: usize) -> Vec<T> {
    args.iter().flat_map(|a| a[..n].iter().copied()).collect()
}

/// The batch at every level on the arguments (the whole slice and short slices of every
/// length up to 17), against the scalar function.
fn check_f64(f: Unary, n: usize, args: &[Terms<f64>]) {
    let xs = flat(args, n);
    for level in levels() {
        let what = format!("{level:?}");
        let mut out = vec![0.0; xs.len()];
        eval_unary_batch_f64_at(level, f, n, &xs, &mut out).expect("level detected");
        let bad = mismatches(f, n, args, &out, &what);
        assert_eq!(
            bad,
            0,
            "{} f64 N={n} {what}: {bad} of {} differ",
            f.name(),
            args.len()
        );
        for len in 1..=17.min(args.len()) {
            let start = (len * 37) % (args.len() - len + 1);
            let part = &args[start..start + len];
            let xs = flat(part, n);
            let mut out = vec![0.0; xs.len()];
            eval_unary_batch_f64_at(level, f, n, &xs, &mut out).expect("level detected");
            let bad = mismatches(f, n, part, &out, &what);
            assert_eq!(bad, 0, "{} f64 N={n} {what} length {len}", f.name());
        }
    }
}

fn check_f32(f: Unary, n: usize, args: &[Terms<f32>]) {
    let xs = flat(args, n);
    let mut out = vec![0.0f32; xs.len()];
    eval_unary_batch_f32(f, n, &xs, &mut out);
    let bad = mismatches(f, n, args, &out, "f32");
    assert_eq!(
        bad,
        0,
        "{} f32 N={n}: {bad} of {} differ",
        f.name(),
        args.len()
    );
}

/// Random and edge arguments for (f, n, T).
fn arguments<T: FloatTerm>(f: Unary, n: usize, count: usize, seed: u64) -> Vec<Terms<T>> {
    let mut rng = SplitMix(seed ^ (n as u64) << 32 ^ f as u64);
    let mut args = randoms::<T>(f, n, count, &mut rng);
    // Edges scattered through the slice, so that they share lane groups with regular
    // arguments.
    for (i, e) in edges::<T>(f, n).into_iter().enumerate() {
        let at = (i * 7919) % args.len();
        args.insert(at, e);
    }
    args
}

const F64_NS: [usize; 5] = [1, 2, 3, 4, 8];
const CASES: usize = 10_000;

fn run(f: Unary) {
    for n in F64_NS {
        let args = arguments::<f64>(f, n, CASES / if n == 8 { 2 } else { 1 }, 0x5eed_0013);
        check_f64(f, n, &args);
    }
    for n in [2, 4] {
        let args = arguments::<f32>(f, n, CASES / 4, 0x5eed_0032);
        check_f32(f, n, &args);
    }
}

#[test]
fn exp_batch_matches_scalar_bit_for_bit() {
    run(Unary::Exp);
}

#[test]
fn ln_batch_matches_scalar_bit_for_bit() {
    run(Unary::Ln);
}

#[test]
fn ln_1p_batch_matches_scalar_bit_for_bit() {
    run(Unary::Ln1p);
}

#[test]
fn exp_m1_batch_matches_scalar_bit_for_bit() {
    run(Unary::ExpM1);
}

#[test]
fn sinh_cosh_tanh_batch_match_scalar_bit_for_bit() {
    run(Unary::Sinh);
    run(Unary::Cosh);
    run(Unary::Tanh);
}

#[test]
fn sin_batch_matches_scalar_bit_for_bit() {
    run(Unary::Sin);
}

#[test]
fn cos_batch_matches_scalar_bit_for_bit() {
    run(Unary::Cos);
}

/// Functions that run the scalar loop are accepted too (same results), and the typed entry
/// point agrees with the flat one.
#[test]
fn every_function_is_accepted_and_typed_entry_agrees() {
    let mut rng = SplitMix(0x5eed_0099);
    for f in Unary::ALL {
        let args: Vec<Terms<f64>> = (0..37)
            .map(|_| {
                let e = rng.range(-4, 2);
                let x: Expansion<f64, MAX_TERMS> = rand_expansion(&mut rng, e);
                truncate(x.terms(), 3)
            })
            .collect();
        let xs: Vec<Expansion<f64, 3>> = args
            .iter()
            .map(|a| Expansion::try_from_normalized([a[0], a[1], a[2]]).expect("expansion"))
            .collect();
        let mut out = vec![Expansion::<f64, 3>::zero(); xs.len()];
        eval_unary_batch(f, &xs, &mut out);
        let flat_out: Vec<f64> = out.iter().flat_map(|e| e.terms().iter().copied()).collect();
        assert_eq!(
            mismatches(f, 3, &args, &flat_out, "typed"),
            0,
            "{}",
            f.name()
        );
    }
}

/// Timing probe (not a check): `cargo test -p expanse-core --test it functions_batch::probe
/// -- --ignored --nocapture`; prints ns per element, one call per element against the batch
/// at every SIMD level, for `EXPANSE_PROBE_FNS` (default exp,ln,sin,cos) at N = 2, 3, 4, 8.
#[test]
#[ignore]
fn probe() {
    use std::time::Instant;
    let names = std::env::var("EXPANSE_PROBE_FNS").unwrap_or_else(|_| "exp,ln,sin,cos".into());
    let reps: usize = std::env::var("EXPANSE_PROBE_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    for f in Unary::ALL {
        if !names.split(',').any(|s| s == f.name()) {
            continue;
        }
        for n in [2usize, 3, 4, 8] {
            let mut rng = SplitMix(7);
            let args: Vec<Terms<f64>> = (0..2048)
                .map(|_| {
                    let e = rng.range(-3, 3);
                    let x: Expansion<f64, MAX_TERMS> = rand_expansion(&mut rng, e);
                    let x = if f == Unary::Ln { x.abs() } else { x };
                    truncate(x.terms(), n)
                })
                .collect();
            let xs = flat(&args, n);
            let mut out = vec![0.0; xs.len()];
            let time = |work: &mut dyn FnMut()| {
                let mut best = f64::INFINITY;
                for _ in 0..reps {
                    let t = Instant::now();
                    work();
                    best = best.min(t.elapsed().as_secs_f64());
                }
                best / args.len() as f64 * 1e9
            };
            let skip_scalar = std::env::var("EXPANSE_PROBE_SCALAR").is_ok_and(|v| v == "0");
            let scalar = time(&mut || {
                if skip_scalar {
                    return;
                }
                for a in &args {
                    std::hint::black_box(f64::eval_unary_terms(f, n, std::hint::black_box(a)));
                }
            });
            let mut line = format!("{} N={n}: per call {scalar:.0} ns", f.name());
            for level in levels() {
                let b = time(&mut || {
                    eval_unary_batch_f64_at(level, f, n, std::hint::black_box(&xs), &mut out)
                        .expect("level");
                });
                line += &format!(", {level:?} {b:.0} ns ({:.2}x)", scalar / b);
            }
            eprintln!("{line}");
        }
    }
}
