//! The lane-batched accurate tier (`expanse_core::accurate_batch`, through the run-time-N
//! entry points of `expanse_core::runtime`) against the scalar accurate operations
//! (`Expansion::add`, `sub`, `mul`, `sqr`, `add_term`, `mul_term`) and the scalar accurate
//! Hénon iteration (`henon_iterate` on `Expansion<f64, N>`): the results must agree bit for bit
//! (every NaN counted as one value), at every SIMD level this CPU has.
//!
//! The operands mix well-scaled random expansions with the cases where the lane code's
//! per-lane state matters: exact cancellation x + (−x), zero terms and signed zeros, sums whose
//! 2Sum errors are zero (small integers, powers of two), adversarial near-cancellations (which
//! make the first-pass certificate fail, so the scalar recomputation runs), the subnormal
//! range, huge values (overflow), ±∞ and NaN in any term, and raw terms that are not
//! normalised. N is sampled (3, 4, 8 for f64; 4 for f32); the batch code is the same generic
//! function for every N.

use crate::common::*;
use expanse_core::accurate::fast_path_only;
use expanse_core::accurate_batch::{
    add_batch, add_term_batch, henon_iterate_accurate_batch_f64_at,
    henon_iterate_accurate_scalar_f64, mul_batch, mul_term_batch, sqr_batch, sub_batch, AccOp,
};
use expanse_core::runtime::{accurate_op_f32, accurate_op_f64_at, terms_of};
use expanse_core::{henon_iterate, Expansion, FloatTerm};
use rug::Float;

/// Raw terms (not necessarily an expansion): random magnitudes near 2^e, some zero.
fn raw<T: FloatTerm, const N: usize>(rng: &mut SplitMix, e: i32) -> [T; N] {
    core::array::from_fn(|_| {
        if rng.below(5) == 0 {
            T::ZERO
        } else {
            let d = rng.range(-60, 4);
            rand_term::<T>(rng, e + d)
        }
    })
}

/// One operand pair of the case mix (see the module doc), as terms.
fn pair<T: FloatTerm, const N: usize>(rng: &mut SplitMix) -> ([T; N], [T; N]) {
    let emax = if T::PRECISION == 53 { 1023 } else { 127 };
    let emin = if T::PRECISION == 53 { -1022 } else { -126 };
    let near = |rng: &mut SplitMix| {
        let e = rng.range(-3, 3);
        *rand_expansion::<T, N>(rng, e).terms()
    };
    match rng.below(16) {
        0..=4 => (near(rng), near(rng)),
        5 => {
            let x = near(rng);
            (x, x.map(|t| -t))
        }
        6 => {
            let x = near(rng);
            (x, x)
        }
        7 => {
            // Small integers and powers of two: 2Sum errors are zero.
            let mut x = [T::ZERO; N];
            let mut y = [T::ZERO; N];
            x[0] = T::from_f64(rng.range(-8, 8) as f64);
            y[0] = T::from_f64(pow2(rng.range(-4, 4)) * rng.sign());
            if rng.below(2) == 0 {
                x[1] = T::from_f64(pow2(-(T::PRECISION as i32) - rng.range(1, 10)));
            }
            (x, y)
        }
        8 => {
            // Adversarial: y = z − x with z much smaller, so x + y cancels to z.
            let e = rng.range(-3, 3);
            let x = rand_expansion::<T, N>(rng, e);
            let k = rng.range(1, (N as i32) * T::PRECISION as i32 + 10);
            let z = rand_expansion::<T, N>(rng, e - k);
            let v = Float::with_val(PREC, &exact(&z) - &exact(&x));
            (*x.terms(), *Expansion::<T, N>::from_rug(&v).terms())
        }
        9 => {
            // Subnormal range.
            let e = emin + rng.range(-(T::PRECISION as i32) + 8, 40);
            let d = rng.range(0, 5);
            (
                *rand_expansion::<T, N>(rng, e).terms(),
                *rand_expansion::<T, N>(rng, e + d).terms(),
            )
        }
        10 => {
            // Huge: sums and products overflow.
            let e = emax - rng.range(0, 3);
            let f = emax - rng.range(0, 3);
            (
                *rand_expansion::<T, N>(rng, e).terms(),
                *rand_expansion::<T, N>(rng, f).terms(),
            )
        }
        11 => {
            // Non-finite values in any term.
            let special = [f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
            let mut x = near(rng);
            let i = rng.below(N as u64) as usize;
            x[i] = T::from_f64(special[rng.below(3) as usize]);
            let mut y = near(rng);
            if rng.below(2) == 0 {
                y[0] = T::from_f64(special[rng.below(3) as usize]);
            }
            (x, y)
        }
        12 => {
            // Zeros: signed zero operands, or zero lower terms.
            let z = |rng: &mut SplitMix| {
                let mut t = [T::ZERO; N];
                t[0] = T::from_f64(0.0 * rng.sign());
                t
            };
            match rng.below(3) {
                0 => (z(rng), z(rng)),
                1 => (z(rng), near(rng)),
                _ => {
                    let mut x = near(rng);
                    for t in x.iter_mut().skip(1) {
                        *t = T::ZERO;
                    }
                    (x, near(rng))
                }
            }
        }
        13 => {
            let e = rng.range(-3, 3);
            (raw(rng, 0), raw(rng, e))
        }
        14 => {
            // Far apart.
            let e = rng.range(-emax / 5, emax / 5);
            (near(rng), *rand_expansion::<T, N>(rng, e).terms())
        }
        _ => {
            // Nearly opposite: y = −x with the last term changed.
            let x = near(rng);
            let mut y = x.map(|t| -t);
            y[N - 1] = rand_term::<T>(rng, -(N as i32) * T::PRECISION as i32);
            (x, y)
        }
    }
}

fn scalar<T: FloatTerm, const N: usize>(
    op: AccOp,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
    t: T,
) -> Expansion<T, N> {
    match op {
        AccOp::Add => x.add(y),
        AccOp::Sub => x.sub(y),
        AccOp::Mul => x.mul(y),
        AccOp::Sqr => x.sqr(),
        AccOp::AddTerm => x.add_term(t),
        AccOp::MulTerm => x.mul_term(t),
        AccOp::OnePlusSub => x.add_term_sub(T::ONE, y),
    }
}

const OPS: [AccOp; 7] = [
    AccOp::Add,
    AccOp::Sub,
    AccOp::Mul,
    AccOp::Sqr,
    AccOp::AddTerm,
    AccOp::MulTerm,
    AccOp::OnePlusSub,
];

/// A batched operation under test: (op, xs, ys or terms, out).
type BatchedOp<'a, T> = dyn Fn(AccOp, &[T], &[T], &mut [T]) + 'a;

/// Every operation on `count` pairs, batched (every level, or the f32 path) against scalar.
/// Returns how many pairs took the scalar recomputation for a failed certificate (finite
/// operands), summed over add and mul.
fn check_ops<T: FloatTerm, const N: usize>(count: usize, batched: &BatchedOp<'_, T>) -> u64 {
    check_ops_blocks::<T, N>(count, batched, false)
}

/// [`check_ops`]; with `tail_blocks`, every block of 16 consecutive pairs (a whole lane group
/// at every level) also gets trailing terms set to zero (of random sign) in x, in y or in
/// both, the same count per block: the lane code leaves out the trailing term positions that
/// are zero in every lane of both operands (`accurate_batch::trailing_zeros`), which the
/// random mix alone almost never makes happen in all lanes at once.
fn check_ops_blocks<T: FloatTerm, const N: usize>(
    count: usize,
    batched: &BatchedOp<'_, T>,
    tail_blocks: bool,
) -> u64 {
    let mut rng = SplitMix(0xACC_BA7C + 131 * N as u64 + T::PRECISION as u64);
    let mut xs = Vec::with_capacity(count * N);
    let mut ys = Vec::with_capacity(count * N);
    let (mut z, mut which) = (0usize, 0u64);
    for k in 0..count {
        let (mut x, mut y) = pair::<T, N>(&mut rng);
        if tail_blocks {
            if k % 16 == 0 {
                z = rng.below(N as u64) as usize;
                which = rng.below(4);
            }
            for i in N - z..N {
                let zero = T::from_f64(0.0 * rng.sign());
                if which != 1 {
                    x[i] = zero;
                }
                if which != 2 {
                    y[i] = T::from_f64(0.0 * rng.sign());
                }
            }
        }
        xs.extend_from_slice(&x);
        ys.extend_from_slice(&y);
    }
    let ts: Vec<T> = (0..count).map(|k| ys[k * N]).collect();
    let ex = |v: &[T], k: usize| -> Expansion<T, N> {
        // Raw terms, verbatim (the operations accept any terms).
        let t: [T; N] = core::array::from_fn(|i| v[k * N + i]);
        let mut e = Expansion::<T, N>::zero();
        expanse_core::runtime::terms_of_mut(core::slice::from_mut(&mut e)).copy_from_slice(&t);
        e
    };
    let mut cert_fails = 0u64;
    for k in 0..count {
        let (x, y) = (ex(&xs, k), ex(&ys, k));
        let finite = x.terms().iter().chain(y.terms()).all(|t| t.is_finite());
        if finite {
            cert_fails += u64::from(fast_path_only("add", &x, &y).is_none());
            cert_fails += u64::from(fast_path_only("mul", &x, &y).is_none());
        }
    }
    for op in OPS {
        let second: &[T] = match op {
            AccOp::AddTerm | AccOp::MulTerm => &ts,
            _ => &ys,
        };
        let mut out = vec![T::ZERO; count * N];
        batched(op, &xs, second, &mut out);
        let mut bad = 0usize;
        for k in 0..count {
            let want = scalar(op, &ex(&xs, k), &ex(&ys, k), ts[k]);
            if bits(want.terms()) != bits(&out[k * N..(k + 1) * N]) {
                if bad < 5 {
                    eprintln!(
                        "{op:?} N={N} p={}: x={:?} y={:?}: batched {:?}, scalar {:?}",
                        T::PRECISION,
                        &xs[k * N..(k + 1) * N],
                        &ys[k * N..(k + 1) * N],
                        &out[k * N..(k + 1) * N],
                        want.terms()
                    );
                }
                bad += 1;
            }
        }
        assert_eq!(bad, 0, "{op:?} N={N}: {bad} of {count} results differ");
    }
    cert_fails
}

fn check_f64<const N: usize>(count: usize) {
    for level in levels() {
        let f = |op, xs: &[f64], ys: &[f64], out: &mut [f64]| {
            accurate_op_f64_at(level, op, N, xs, ys, out).expect("level available")
        };
        let fails = check_ops::<f64, N>(count, &f);
        eprintln!(
            "accurate batch f64 N={N} {}: {fails} certificate failures",
            level.name()
        );
        assert!(
            fails > 0,
            "the scalar recomputation of failed certificates was not exercised"
        );
    }
}

#[test]
fn accurate_batch_ops_f64_n3() {
    check_f64::<3>(100_000);
}

#[test]
fn accurate_batch_ops_f64_n4() {
    check_f64::<4>(100_000);
}

#[test]
fn accurate_batch_ops_f64_n8() {
    check_f64::<8>(100_000);
}

/// Lane groups whose operands all end in zero terms (see [`check_ops_blocks`]).
#[test]
fn accurate_batch_ops_trailing_zero_blocks() {
    fn run<const N: usize>(count: usize) {
        for level in levels() {
            let f = |op, xs: &[f64], ys: &[f64], out: &mut [f64]| {
                accurate_op_f64_at(level, op, N, xs, ys, out).expect("level available")
            };
            check_ops_blocks::<f64, N>(count, &f, true);
        }
    }
    run::<3>(20_000);
    run::<6>(20_000);
    run::<8>(20_000);
    let f = |op, xs: &[f32], ys: &[f32], out: &mut [f32]| accurate_op_f32(op, 5, xs, ys, out);
    check_ops_blocks::<f32, 5>(20_000, &f, true);
}

#[test]
fn accurate_batch_ops_f32_n4() {
    let f = |op, xs: &[f32], ys: &[f32], out: &mut [f32]| accurate_op_f32(op, 4, xs, ys, out);
    let fails = check_ops::<f32, 4>(100_000, &f);
    assert!(
        fails > 0,
        "the scalar recomputation of failed certificates was not exercised"
    );
}

/// The typed entry points forward to the same code (and N < 3 runs the scalar operations).
#[test]
fn accurate_batch_typed_entry_points() {
    fn run<const N: usize>() {
        let mut rng = SplitMix(99 + N as u64);
        let count = 37;
        let xs: Vec<Expansion<f64, N>> = (0..count).map(|_| rand_expansion(&mut rng, 0)).collect();
        let ys: Vec<Expansion<f64, N>> = (0..count).map(|_| rand_expansion(&mut rng, 1)).collect();
        let ts: Vec<f64> = ys.iter().map(|y| y.hi()).collect();
        let mut out = vec![Expansion::<f64, N>::zero(); count];
        let same = |out: &[Expansion<f64, N>], f: &dyn Fn(usize) -> Expansion<f64, N>| {
            for (k, o) in out.iter().enumerate() {
                assert_eq!(bits(o.terms()), bits(f(k).terms()), "N={N} k={k}");
            }
        };
        add_batch(&xs, &ys, &mut out);
        same(&out, &|k| xs[k].add(&ys[k]));
        sub_batch(&xs, &ys, &mut out);
        same(&out, &|k| xs[k].sub(&ys[k]));
        mul_batch(&xs, &ys, &mut out);
        same(&out, &|k| xs[k].mul(&ys[k]));
        sqr_batch(&xs, &mut out);
        same(&out, &|k| xs[k].sqr());
        add_term_batch(&xs, &ts, &mut out);
        same(&out, &|k| xs[k].add_term(ts[k]));
        mul_term_batch(&xs, &ts, &mut out);
        same(&out, &|k| xs[k].mul_term(ts[k]));
        let x32: Vec<Expansion<f32, N>> = (0..count).map(|_| rand_expansion(&mut rng, 0)).collect();
        let y32: Vec<Expansion<f32, N>> = (0..count).map(|_| rand_expansion(&mut rng, 0)).collect();
        let mut o32 = vec![Expansion::<f32, N>::zero(); count];
        mul_batch(&x32, &y32, &mut o32);
        for k in 0..count {
            assert_eq!(bits(o32[k].terms()), bits(x32[k].mul(&y32[k]).terms()));
        }
    }
    run::<2>();
    run::<3>();
    run::<6>();
    let _ = terms_of::<f64, 1>(&[]);
}

/// The batched accurate Hénon iteration against `henon_iterate` per orbit: random orbits, one
/// that escapes to ±∞/NaN, exact starts, and a count that leaves orbits for the scalar tail.
fn check_henon<const N: usize>(orbits: usize, steps: u64) {
    let a: Expansion<f64, N> = "1.4".parse().expect("constant parses");
    let b: Expansion<f64, N> = "0.3".parse().expect("constant parses");
    let mut rng = SplitMix(0x4E0 + N as u64);
    let xs0: Vec<Expansion<f64, N>> = (0..orbits)
        .map(|k| match k % 11 {
            1 => Expansion::from_f64(5.0),
            2 => Expansion::from_f64(0.0),
            3 => Expansion::from_f64(0.25),
            _ => rand_expansion(&mut rng, -3),
        })
        .collect();
    let ys0: Vec<Expansion<f64, N>> = (0..orbits).map(|_| rand_expansion(&mut rng, -4)).collect();
    let want: Vec<_> = xs0
        .iter()
        .zip(&ys0)
        .map(|(x, y)| henon_iterate(&a, &b, x, y, steps))
        .collect();
    for level in levels() {
        let (mut xs, mut ys) = (xs0.clone(), ys0.clone());
        henon_iterate_accurate_batch_f64_at(level, &a, &b, &mut xs, &mut ys, steps)
            .expect("level available");
        for k in 0..orbits {
            assert_eq!(
                (bits(xs[k].terms()), bits(ys[k].terms())),
                (bits(want[k].0.terms()), bits(want[k].1.terms())),
                "N={N} {} orbit {k}",
                level.name()
            );
        }
    }
    // The run-time-N one-orbit-at-a-time entry point (what `expanse bench cpu` times as the
    // accurate tier, one orbit) is the same iteration.
    let (mut xs, mut ys) = (xs0.clone(), ys0.clone());
    henon_iterate_accurate_scalar_f64(&a, &b, &mut xs, &mut ys, steps);
    for k in 0..orbits {
        assert_eq!(
            (bits(xs[k].terms()), bits(ys[k].terms())),
            (bits(want[k].0.terms()), bits(want[k].1.terms())),
            "N={N} one orbit at a time, orbit {k}"
        );
    }
}

#[test]
fn accurate_batch_henon_matches_scalar() {
    check_henon::<1>(5, 200);
    check_henon::<2>(9, 300);
    check_henon::<3>(45, 500);
    check_henon::<4>(45, 500);
    check_henon::<5>(21, 300);
    check_henon::<8>(45, 300);
}

/// The lane helpers the batched accurate tier decides with (`MaskedLane`: ulp, comparisons with
/// the scalar NaN semantics, finiteness, select) against the scalar operations, lane by lane,
/// on special values (zeros, subnormals, the normal boundary, the largest finite, ±∞, NaN)
/// and random ones, for every public lane type of f64 and f32.
#[test]
fn masked_lane_helpers_match_scalar() {
    use expanse_core::batch::{F64Lanes, Lane, LaneMask, Lanes, MaskedLane, Wide};
    use expanse_core::float::ulp;
    fn check<L: MaskedLane>(vals: &[L::Scalar]) {
        let w = L::WIDTH;
        for i in 0..vals.len() {
            let a: Vec<L::Scalar> = (0..w).map(|l| vals[(i + l) % vals.len()]).collect();
            let b: Vec<L::Scalar> = (0..w).map(|l| vals[(i + 3 * l + 1) % vals.len()]).collect();
            let (x, y) = (L::load(&a), L::load(&b));
            let u = x.lane_ulp();
            let ab = x.lane_abs();
            let (eq, ne, le, ge, fin) = (
                x.mask_eq(y),
                x.mask_ne(y),
                x.mask_le(y),
                x.mask_ge(y),
                x.finite_mask(),
            );
            let s = L::select(le, x, y);
            let mut st = vec![a[0]; w];
            s.store(&mut st);
            for l in 0..w {
                assert_eq!(
                    u.get(l).to_bits_u64(),
                    ulp(a[l]).to_bits_u64(),
                    "ulp({:?})",
                    a[l]
                );
                assert_eq!(ab.get(l).to_bits_u64(), a[l].abs().to_bits_u64());
                assert_eq!(eq.test(l), a[l] == b[l]);
                assert_eq!(ne.test(l), a[l] != b[l]);
                assert_eq!(le.test(l), a[l] <= b[l]);
                assert_eq!(ge.test(l), a[l] >= b[l]);
                assert_eq!(fin.test(l), a[l].is_finite());
                let want = if a[l] <= b[l] { a[l] } else { b[l] };
                assert_eq!(st[l].to_bits_u64(), want.to_bits_u64());
            }
            assert_eq!(fin.all(), a.iter().all(|t| t.is_finite()));
            assert!(!fin.not().and(fin).all());
            assert!(fin.not().or(fin).all());
        }
    }
    let mut rng = SplitMix(0x5E1EC7);
    let mut v64 = vec![
        0.0,
        -0.0,
        f64::from_bits(1),
        -f64::from_bits(7),
        f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE * 1.5,
        pow2(-1022 + 52),
        pow2(-1022 + 53),
        1.0,
        -3.0,
        f64::MAX,
        -f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for _ in 0..200 {
        let e = rng.range(-1080, 1023);
        v64.push(rand_term::<f64>(&mut rng, e));
    }
    check::<f64>(&v64);
    check::<F64Lanes>(&v64);
    check::<Lanes<f64, 4>>(&v64);
    check::<Wide<F64Lanes, 2>>(&v64);
    let mut v32: Vec<f32> = v64.iter().map(|&v| v as f32).collect();
    v32.extend([
        f32::from_bits(1),
        f32::MIN_POSITIVE,
        f32::MAX,
        pow2(-126 + 23) as f32,
    ]);
    check::<f32>(&v32);
    check::<Lanes<f32, 8>>(&v32);
    let _ = <F64Lanes as Lane>::WIDTH;
}
