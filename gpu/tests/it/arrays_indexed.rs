//! Index-generated arrays (`expanse_gpu::array::indexed`) on the host backend: the fused
//! generate + reduce equals materialising the elements and summing them (value and bound, bit
//! for bit), the sums lie within their bounds of the exact sum (MPFR at a precision that holds
//! every bit), and the QRS term agrees with an MPFR evaluation of its defining formula. The
//! device kernels are compared with this host mirror in `arrays_on_cpu.rs` (`check::compare`).

use expanse_core::Expansion;
use expanse_gpu::array::indexed::{qrs_slope, qrs_term, summation_value};
use expanse_gpu::array::{Arrays, ExpArray, IndexMap};
use rug::Float;

fn same<const N: usize>(a: &Expansion<f64, N>, b: &Expansion<f64, N>) -> bool {
    a.terms()
        .iter()
        .zip(b.terms())
        .all(|(p, q)| p.to_bits() == q.to_bits())
}

fn fused_equals_materialised<const N: usize>(map: IndexMap) {
    let arrays = Arrays::cpu();
    let x: ExpArray<f64, N> = arrays.indexed(&map).unwrap();
    assert_eq!(x.len() as u64, map.len());
    let (p, q) = (
        arrays.indexed_sum::<f64, N>(&map).unwrap(),
        x.sum_bounded().unwrap(),
    );
    assert!(same(&p.value, &q.value) && p.err.to_bits() == q.err.to_bits());
    let (p, q) = (
        arrays.indexed_sum_accurate::<f64, N>(&map).unwrap(),
        x.sum_accurate().unwrap(),
    );
    assert!(same(&p.value, &q.value) && p.err.to_bits() == q.err.to_bits());
}

#[test]
fn fused_sum_equals_the_sum_of_the_materialised_array() {
    // Several reduction tiles and a second pass (len > 2048).
    fused_equals_materialised::<2>(IndexMap::summation(3, 10_001));
    fused_equals_materialised::<4>(IndexMap::summation(3, 10_001));
    let delta = Expansion::<f64, 4>::from_f64(0.6).div_term(10_000.0);
    fused_equals_materialised::<4>(IndexMap::qrs_term(10_000, &delta));
    fused_equals_materialised::<1>(IndexMap::qrs_slope(10_000, delta.hi()));
}

#[test]
fn summation_sums_are_within_their_bounds_of_the_exact_sum() {
    let (seed, n) = (11u64, 30_001u64);
    let mut exact = Float::with_val(2300, 0);
    for i in 0..n {
        exact += summation_value(seed, n, i); // exact: 2300 bits hold 2^-1074..2^1024
    }
    let arrays = Arrays::cpu();
    let map = IndexMap::summation(seed, n);
    let check = |v: Float, err: f64| {
        let d = Float::with_val(2400, &v - &exact).abs();
        assert!(d <= err, "error {d} above bound {err}");
        err
    };
    let s2 = arrays.indexed_sum::<f64, 2>(&map).unwrap();
    let a2 = arrays.indexed_sum_accurate::<f64, 2>(&map).unwrap();
    let s4 = arrays.indexed_sum::<f64, 4>(&map).unwrap();
    let a4 = arrays.indexed_sum_accurate::<f64, 4>(&map).unwrap();
    check(s2.value.to_rug(), s2.err);
    let e = check(a2.value.to_rug(), a2.err);
    check(s4.value.to_rug(), s4.err);
    check(a4.value.to_rug(), a4.err);
    // The accurate dd sum is right to about 32 digits although values reach 2^20 and the sum
    // is about 1: the bound is tight enough to say so.
    assert!(e < 1e-25 * exact.to_f64().abs().max(1.0), "{e}");
    // The f64 (N = 1) fixed-order sum is not right: the data are hard.
    let s1 = arrays.indexed_sum::<f64, 1>(&map).unwrap();
    assert_ne!(s1.value.hi(), exact.to_f64());
}

#[test]
fn qrs_term_and_slope_agree_with_mpfr() {
    let prec = 600;
    let n = 1u64 << 20;
    let delta = Expansion::<f64, 4>::from_f64(0.6054).div_term(n as f64);
    let d = delta.to_rug();
    let m1 = Float::with_val(prec, n - 1);
    for j in [0u64, 1, 7, 1000, n / 4, n / 2 - 1] {
        // s = 1 − δ, t = 1 − 2j/M: the term 2√q − 1/√q with q = 1 − s²t², times M/M.
        let s = Float::with_val(prec, 1 - Float::with_val(prec, &d));
        let t = Float::with_val(prec, 1 - Float::with_val(prec, 2 * j) / &m1);
        let st = Float::with_val(prec, &s * &t);
        let q = Float::with_val(prec, 1 - Float::with_val(prec, st.square_ref()));
        let rq = Float::with_val(prec, q.sqrt_ref());
        let want = Float::with_val(prec, 2 * Float::with_val(prec, &rq)) - rq.recip();
        let got = qrs_term(n, &delta, j).to_rug();
        let rel = Float::with_val(prec, (got - &want) / &want).abs();
        assert!(rel < 1e-58, "j = {j}: relative error {rel}");
        // dF/dδ term: s·t²·(2q + 1)/q^{3/2} in f64: a few ulps.
        let qf = q.to_f64();
        let want_slope =
            (s.to_f64() * t.to_f64() * t.to_f64()) * (2.0 * qf + 1.0) / (qf * qf.sqrt());
        let got_slope = qrs_slope(delta.hi(), n, j);
        assert!(
            ((got_slope - want_slope) / want_slope).abs() < 1e-9,
            "j = {j}"
        );
    }
    // A different δ gives a different term: the comparison can fail.
    let other = delta.add_term(1e-40);
    assert!(!same(&qrs_term(n, &other, 0), &qrs_term(n, &delta, 0)));
}

#[test]
fn index_maps_refuse_f32_and_odd_qrs_sizes() {
    let arrays = Arrays::cpu();
    assert!(arrays
        .indexed_sum::<f32, 2>(&IndexMap::summation(1, 10))
        .is_err());
    assert!(arrays
        .indexed_sum::<f64, 2>(&IndexMap::qrs_slope(7, 0.1))
        .is_err());
}
