//! Summation at 10^4 values against the exact sum.

use expanse_apps::summation::{
    exact_signal_sum, exact_sum, expansion_sum_on, f64_chunks, f64_forward, f64_pairwise,
    f64_reverse, value,
};
use rug::Float;

const SEED: u64 = 7;
const N: u64 = 10_000;

#[test]
fn exact_sum_is_exact() {
    // Independent routes: (1) the integer accumulator over all values equals (2) the one over
    // the signal values only (the other pairs cancel exactly) and (3) an MPFR sum at a
    // precision that holds every bit (2200 bits cover 2^-1074..2^1024).
    let a = exact_sum(SEED, N);
    let b = exact_signal_sum(SEED, N);
    assert_eq!(a, b);
    let mut c = Float::with_val(2300, 0);
    for i in 0..N {
        c += value(SEED, N, i);
    }
    assert_eq!(a, c);
    // And the data are really hard: the sum is about 1 while the values reach 2^20.
    let max = (0..N).map(|i| value(SEED, N, i).abs()).fold(0.0, f64::max);
    assert!(max > 1e5 && a.to_f64().abs() < 1e3);
}

#[test]
fn dd_and_qd_agree_with_exact_sum_on_every_thread_count() {
    let exact = exact_sum(SEED, N);
    let want = exact.to_f64();
    let dd: Vec<_> = [1, 2, 4, 8]
        .iter()
        .map(|&t| expansion_sum_on::<2>(SEED, N, t))
        .collect();
    let qd: Vec<_> = [1, 2, 4, 8]
        .iter()
        .map(|&t| expansion_sum_on::<4>(SEED, N, t))
        .collect();
    for w in dd.windows(2) {
        assert_eq!(w[0].sum.terms(), w[1].sum.terms());
    }
    for w in qd.windows(2) {
        assert_eq!(w[0].sum.terms(), w[1].sum.terms());
    }
    assert_eq!(dd[0].sum.to_rug().to_f64(), want);
    assert_eq!(qd[0].sum.to_rug().to_f64(), want);
    for (v, bound) in [
        (dd[0].sum.to_rug(), dd[0].bound()),
        (qd[0].sum.to_rug(), qd[0].bound()),
    ] {
        let err = Float::with_val(4000, &v - &exact).abs();
        assert!(err <= bound, "error {err} above bound {bound}");
    }
    assert!(qd[0].bound() < 1e-40 && dd[0].bound() < 1e-15);
}

#[test]
fn f64_orders_differ_and_miss_the_exact_sum() {
    let exact = exact_sum(SEED, N).to_f64();
    let sums = [
        f64_forward(SEED, N),
        f64_reverse(SEED, N),
        f64_pairwise(SEED, N),
        f64_chunks(SEED, N, 2),
        f64_chunks(SEED, N, 8),
    ];
    assert_eq!(sums[0], f64_chunks(SEED, N, 1));
    let mut distinct = sums.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    assert!(distinct.len() >= 3, "{sums:?}");
    assert!(
        sums.iter().filter(|&&s| s != exact).count() >= 4,
        "{sums:?} vs {exact}"
    );
}

#[test]
fn data_are_deterministic_and_cover_a_wide_range() {
    let v: Vec<f64> = (0..N).map(|i| value(SEED, N, i)).collect();
    let w: Vec<f64> = (0..N).map(|i| value(SEED, N, i)).collect();
    assert_eq!(v, w);
    let min = v.iter().map(|x| x.abs()).fold(f64::INFINITY, f64::min);
    assert!(min < 1e-150, "smallest {min}");
    assert!(v.iter().any(|&x| x < 0.0) && v.iter().any(|&x| x > 0.0));
}

#[test]
fn array_layer_sums_on_the_host_backend_agree_with_the_exact_sum() {
    use expanse_apps::summation::{array_sums, array_sums_on_threads};
    use expanse_gpu::array::Arrays;
    // 20001 values: ten reduction tiles and a second pass, an odd last (signal) value.
    let n = 20_001;
    let exact = exact_sum(SEED, n);
    let s = array_sums(&Arrays::cpu(), SEED, n).unwrap();
    for (name, v, bound, _) in s.list() {
        let err = Float::with_val(4000, &v - &exact).abs();
        assert!(err <= bound, "{name}: error {err} above bound {bound}");
    }
    // The accurate sums are right to f64 (and far beyond); plain f64 in the same order is not.
    assert_eq!(s.qd_acc.value.to_rug().to_f64(), exact.to_f64());
    assert_eq!(s.dd_acc.value.to_rug().to_f64(), exact.to_f64());
    assert!(
        s.qd_acc.err < 1e-40 && s.dd_acc.err < 1e-20,
        "{:?}",
        s.qd_acc
    );
    assert_ne!(s.f64_tree.value.hi(), exact.to_f64());
    // Any number of threads: the same bits.
    for t in [1, 3] {
        let o = array_sums_on_threads(SEED, n, t).unwrap();
        assert!(o.differences(&s).is_empty(), "{t} threads");
    }
}

#[test]
fn the_summation_report_passes_at_small_sizes() {
    use expanse_apps::summation::{report, Setup};
    let setup = Setup {
        seed: SEED,
        sizes: vec![10_000, 40_000],
        gpu: None,
        cpu_max: 40_000,
        threads_max: 10_000,
    };
    let rep = report(&setup);
    assert!(rep.passed, "{}", rep.text());
    let json = rep.json();
    assert!(json.contains("\"n=40000 qd accurate\"") && json.contains("\"n=40000 exact\""));
}
