//! The array layer's primitives on the host backend against exact oracles (rationals):
//! element-wise maps equal expanse-core's accurate operations bit for bit; sums are within
//! their stated bounds and, for data with heavy cancellation, right; scans, sorts, selections,
//! min and max agree with exact computations; and no result depends on the number of threads
//! (the fixed association order).

use crate::arrays_common::*;
use expanse_core::functions::Unary;
use expanse_core::Expansion;
use expanse_gpu::array::{ArrayTerm, Arrays, Cmp, ScanKind};
use rug::{Integer, Rational};
use std::cmp::Ordering;

fn maps<T: ArrayTerm, const N: usize>(seed: u64) {
    let mut rng = Rng(seed);
    let xs: Vec<Expansion<T, N>> = adversarial(&mut rng, 700, 40);
    let ys: Vec<Expansion<T, N>> = benign(&mut rng, 700);
    let arrays = Arrays::cpu();
    let (x, y) = (arrays.array(&xs).unwrap(), arrays.array(&ys).unwrap());
    let t = T::from_f64(-0.3);
    type F<T, const N: usize> = fn(&Expansion<T, N>, &Expansion<T, N>, T) -> Expansion<T, N>;
    type Case<T, const N: usize> = (&'static str, Vec<Expansion<T, N>>, F<T, N>);
    let cases: Vec<Case<T, N>> = vec![
        ("add", x.add(&y).unwrap().to_vec().unwrap(), |a, b, _| {
            a.add(b)
        }),
        ("sub", x.sub(&y).unwrap().to_vec().unwrap(), |a, b, _| {
            a.sub(b)
        }),
        ("mul", x.mul(&y).unwrap().to_vec().unwrap(), |a, b, _| {
            a.mul(b)
        }),
        ("div", x.div(&y).unwrap().to_vec().unwrap(), |a, b, _| {
            a.div(b)
        }),
        ("neg", x.neg().unwrap().to_vec().unwrap(), |a, _, _| a.neg()),
        ("abs", x.abs().unwrap().to_vec().unwrap(), |a, _, _| a.abs()),
        ("sqr", x.sqr().unwrap().to_vec().unwrap(), |a, _, _| a.sqr()),
        (
            "sqrt",
            y.abs().unwrap().sqrt().unwrap().to_vec().unwrap(),
            |_, b, _| b.abs().sqrt(),
        ),
        ("recip", y.recip().unwrap().to_vec().unwrap(), |_, b, _| {
            b.recip()
        }),
        (
            "add_term",
            x.add_term(t).unwrap().to_vec().unwrap(),
            |a, _, t| a.add_term(t),
        ),
        (
            "mul_term",
            x.mul_term(t).unwrap().to_vec().unwrap(),
            |a, _, t| a.mul_term(t),
        ),
        (
            "div_term",
            x.div_term(t).unwrap().to_vec().unwrap(),
            |a, _, t| a.div_term(t),
        ),
        (
            "exp",
            y.map(Unary::Exp).unwrap().to_vec().unwrap(),
            |_, b, _| b.exp(),
        ),
    ];
    for (name, got, f) in cases {
        assert_eq!(got.len(), xs.len());
        for i in 0..xs.len() {
            let want = f(&xs[i], &ys[i], t);
            assert!(
                bits(&got[i]) == bits(&want) || (got[i].is_nan() && want.is_nan()),
                "{name} N={N} {}: element {i}: {:?} vs {:?}",
                T::NAME,
                got[i],
                want
            );
        }
    }
    // Round trip through the interleaved layout.
    assert_eq!(all_bits(&x.to_vec().unwrap()), all_bits(&xs));
    let inter = x.to_interleaved().unwrap();
    for (i, e) in xs.iter().enumerate() {
        for k in 0..N {
            assert_eq!(
                inter[k * xs.len() + i].to_bits_u64(),
                e.terms()[k].to_bits_u64()
            );
        }
    }
}

#[test]
fn element_wise_maps_are_the_accurate_tier_bit_for_bit() {
    maps::<f64, 1>(1);
    maps::<f64, 2>(2);
    maps::<f64, 3>(3);
    maps::<f64, 8>(4);
    maps::<f32, 2>(5);
    maps::<f32, 5>(6);
}

/// f64 values with heavy cancellation: exact pairs x, −x (|x| up to 2^`big`) and a small
/// positive signal (values near 2^-30 .. 2^-50); the exact sum is the signal's sum.
fn cancelling(len: usize, seed: u64, big: i32) -> Vec<f64> {
    let mut rng = Rng(seed);
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        if rng.below(4) == 0 {
            v.push((1.0 + rng.unit()) * 2f64.powi(-30 - rng.range(0, 20)));
        } else {
            let x = rng.sign() * (1.0 + rng.unit()) * 2f64.powi(rng.range(big - 30, big));
            v.push(x);
            v.push(-x);
        }
    }
    v.truncate(len);
    // Spread the partners apart so that they meet late in the tree.
    let n = v.len();
    for i in 0..n {
        let j = (rng.next() % n as u64) as usize;
        v.swap(i, j);
    }
    v
}

/// The exact sum of f64 values as a rational (integer accumulation in units of 2^-1074).
fn exact_sum_f64(v: &[f64]) -> Rational {
    let mut acc = Integer::new();
    for &x in v {
        let r = Rational::from_f64(x).unwrap() << 1074u32;
        acc += r.numer();
    }
    Rational::from(acc) >> 1074u32
}

/// Sums `len` cancelling values (pairs up to 2^`big`) with `sum_accurate` (or `sum_bounded`)
/// and checks: within the bound, right (rounded to f64 it is the exact sum rounded), and the
/// bound proves more than 60 correct bits. Returns the condition number Σ|x|/|Σx|.
fn cancelling_sum<const N: usize>(len: usize, big: i32, accurate: bool) -> f64 {
    let v = cancelling(len, 99, big);
    let xs: Vec<Expansion<f64, N>> = v.iter().map(|&x| Expansion::from_f64(x)).collect();
    let exact_s = exact_sum_f64(&v);
    let sum_abs: f64 = v.iter().map(|x| x.abs()).sum();
    let arrays = Arrays::cpu();
    let x = arrays.array(&xs).unwrap();
    let s = if accurate {
        x.sum_accurate().unwrap()
    } else {
        x.sum_bounded().unwrap()
    };
    let what = if accurate {
        "sum_accurate"
    } else {
        "sum_bounded"
    };
    assert!(
        within(&s.value, &exact_s, s.err),
        "{what} N={N}: |sum − exact| exceeds the bound {:e}",
        s.err
    );
    // Rounded to nearest (Rational::to_f64 truncates).
    let exact_f = rug::Float::with_val(53, &exact_s).to_f64();
    assert_eq!(s.value.to_f64(), exact_f, "{what} N={N}: rounded sum");
    assert!(
        s.err < exact_f.abs() * 2f64.powi(-60),
        "{what} N={N}: bound {:e} for a sum {exact_f:e}",
        s.err
    );
    if !accurate {
        assert_eq!(bits(&x.sum().unwrap()), bits(&s.value));
    }
    sum_abs / exact_f.abs()
}

#[test]
fn a_million_cancelling_terms_sum_right_within_the_bound() {
    // Condition number ~10^10: the N-term sum is right.
    let cond = cancelling_sum::<2>(1_000_000, 0, false);
    assert!(cond > 1e9, "condition {cond:e}");
    // Condition number ~10^28 (beyond double-double): the doubled accumulator is right.
    let cond = cancelling_sum::<2>(1_000_000, 60, true);
    assert!(cond > 1e27, "condition {cond:e}");
    let cond = cancelling_sum::<3>(200_000, 100, true);
    assert!(cond > 1e38, "condition {cond:e}");
}

fn scans<T: ArrayTerm, const N: usize>(len: usize, seed: u64) {
    let mut rng = Rng(seed);
    let xs: Vec<Expansion<T, N>> = adversarial(&mut rng, len, 20);
    let arrays = Arrays::cpu();
    let x = arrays.array(&xs).unwrap();
    let inc = x.scan(ScanKind::Inclusive).unwrap().to_vec().unwrap();
    let exc = x.scan(ScanKind::Exclusive).unwrap().to_vec().unwrap();
    assert_eq!(inc.len(), len);
    assert!(exc[0].is_zero());
    let eps = expanse_core::bounds::add_rel_bound::<T>(N);
    let floor = expanse_core::bounds::min_normal_result::<T>(N);
    let mut prefix = Rational::new();
    let mut abs_sum = 0.0f64;
    for i in 0..len {
        // Within one "thread" (8 consecutive elements) both scans run the same left fold.
        if i + 1 < len && (i + 1) % 8 != 0 {
            assert_eq!(
                bits(&exc[i + 1]),
                bits(&inc[i]),
                "exclusive[{}] vs inclusive[{i}]",
                i + 1
            );
        }
        prefix += exact(&xs[i]);
        abs_sum += xs[i].to_f64().abs() * 1.01;
        // i additions, each off by at most ε·(a partial sum ≤ Σ|x|) plus the absolute term.
        let bound = 2.0 * (i as f64 + 1.0) * (eps * abs_sum + eps * floor);
        assert!(
            within(&inc[i], &prefix, bound),
            "N={N} {}: prefix {i} off by {:e} > {bound:e}",
            T::NAME,
            abs_err(&inc[i], &prefix)
        );
    }
}

#[test]
fn scans_follow_the_exact_prefix_sums() {
    // Several tiles (2048 elements each) and levels of the tile tree, and a ragged end.
    scans::<f64, 2>(9 * 2048 + 77, 11);
    scans::<f64, 4>(2048 + 3, 12);
    scans::<f32, 3>(3 * 2048 + 1000, 13);
}

fn sorts<T: ArrayTerm, const N: usize>(seed: u64) {
    let mut rng = Rng(seed);
    let mut xs: Vec<Expansion<T, N>> = adversarial(&mut rng, 1500, 30);
    // Duplicates of equal value (stability decides their order), NaNs, infinities, zeros.
    for i in 0..200 {
        let j = rng.below(xs.len() as u64) as usize;
        xs[i * 7 % 1500] = xs[j];
    }
    xs[17] = Expansion::from_f64(f64::NAN);
    xs[18] = Expansion::from_f64(f64::INFINITY);
    xs[19] = Expansion::from_f64(f64::NEG_INFINITY);
    xs[20] = Expansion::from_f64(-0.0);
    let arrays = Arrays::cpu();
    let x = arrays.array(&xs).unwrap();
    let idx: Vec<u32> = (0..xs.len() as u32).collect();
    let (sorted, perm) = x.sort_by_key(&arrays.plain(&idx).unwrap()).unwrap();
    let (sorted, perm) = (sorted.to_vec().unwrap(), perm.to_vec().unwrap());
    assert_eq!(
        all_bits(&x.sort().unwrap().to_vec().unwrap()),
        all_bits(&sorted)
    );
    let mut seen = vec![false; xs.len()];
    for &p in &perm {
        assert!(!seen[p as usize], "index {p} twice");
        seen[p as usize] = true;
    }
    let key = |e: &Expansion<T, N>| -> Option<Rational> {
        if e.is_nan() {
            None
        } else if !e.is_finite() {
            Some(Rational::from(if e.hi() > T::ZERO { 1 } else { -1 }) << 20000u32)
        } else {
            Some(exact(e))
        }
    };
    for i in 0..xs.len() {
        assert_eq!(bits(&sorted[i]), bits(&xs[perm[i] as usize]));
        if i > 0 {
            let (a, b) = (key(&sorted[i - 1]), key(&sorted[i]));
            let ord = match (&a, &b) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(p), Some(q)) => p.cmp(q),
            };
            assert!(ord != Ordering::Greater, "N={N}: not sorted at {i}");
            if ord == Ordering::Equal {
                assert!(perm[i - 1] < perm[i], "N={N}: not stable at {i}");
            }
        }
    }
}

#[test]
fn sort_is_stable_by_exact_value() {
    sorts::<f64, 2>(21);
    sorts::<f64, 5>(22);
    sorts::<f32, 3>(23);
}

fn selects_min_max<T: ArrayTerm, const N: usize>(seed: u64) {
    let mut rng = Rng(seed);
    let xs: Vec<Expansion<T, N>> = adversarial(&mut rng, 5000, 10);
    let arrays = Arrays::cpu();
    let x = arrays.array(&xs).unwrap();
    let thr = xs[123];
    let tq = exact(&thr);
    for cmp in [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne] {
        let (vals, idx) = x.select(cmp, &thr).unwrap();
        let (vals, idx) = (vals.to_vec().unwrap(), idx.to_vec().unwrap());
        let want: Vec<u64> = (0..xs.len() as u64)
            .filter(|&i| {
                let o = exact(&xs[i as usize]).cmp(&tq);
                match cmp {
                    Cmp::Lt => o == Ordering::Less,
                    Cmp::Le => o != Ordering::Greater,
                    Cmp::Gt => o == Ordering::Greater,
                    Cmp::Ge => o != Ordering::Less,
                    Cmp::Eq => o == Ordering::Equal,
                    Cmp::Ne => o != Ordering::Equal,
                }
            })
            .collect();
        assert_eq!(idx, want, "{cmp:?}");
        for (v, &i) in vals.iter().zip(&idx) {
            assert_eq!(bits(v), bits(&xs[i as usize]));
        }
    }
    let exact_all: Vec<Rational> = xs.iter().map(exact).collect();
    let mn = exact_all.iter().min().unwrap();
    let mx = exact_all.iter().max().unwrap();
    assert_eq!(&exact(&x.min().unwrap().unwrap()), mn);
    assert_eq!(&exact(&x.max().unwrap().unwrap()), mx);
    assert!(arrays.array::<T, N>(&[]).unwrap().min().unwrap().is_none());
}

#[test]
fn select_min_and_max_agree_with_exact_comparisons() {
    selects_min_max::<f64, 2>(31);
    selects_min_max::<f32, 4>(32);
    selects_min_max::<f64, 6>(33);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let mut rng = Rng(41);
    let xs: Vec<Expansion<f64, 3>> = adversarial(&mut rng, 3 * 2048 * 2048 / 1024 + 5, 30);
    let ys: Vec<Expansion<f64, 3>> = benign(&mut rng, xs.len());
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let arrays = Arrays::cpu();
            let x = arrays.array(&xs).unwrap();
            let y = arrays.array(&ys).unwrap();
            let s = x.sum_bounded().unwrap();
            let d = x.dot(&y).unwrap();
            let sc = x.scan(ScanKind::Inclusive).unwrap().to_vec().unwrap();
            let a = arrays.matrix(97, 64, &xs[..97 * 64]).unwrap();
            let v = arrays.array(&ys[..64]).unwrap();
            let g = expanse_gpu::array::blas::gemv(
                expanse_gpu::array::Transpose::No,
                None,
                &a,
                &v,
                None,
                None,
            )
            .unwrap();
            (
                bits(&s.value),
                s.err.to_bits(),
                bits(&d),
                all_bits(&sc),
                all_bits(&g.value.to_vec().unwrap()),
                g.err
                    .to_vec()
                    .unwrap()
                    .iter()
                    .map(|e| e.to_bits())
                    .collect::<Vec<_>>(),
            )
        })
    };
    let one = run(1);
    assert_eq!(one, run(3));
    assert_eq!(one, run(2));
}
