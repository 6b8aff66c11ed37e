//! The FFT at 2^8..2^10 in every format against the round trip, MPFR and the analytic
//! transform, plus the pieces those checks rest on.

use expanse_apps::fft::{
    analytic, analytic_frequency, fft, input, input_vec, level, mpfr_reference, round_trip,
    run_format, within_level, Complex, Real, Twiddles,
};
use expanse_core::Expansion;
use rug::Float;

#[test]
fn every_format_is_at_its_precision_against_all_three_answers() {
    let refs: Vec<(u32, Vec<[Float; 2]>)> =
        (8..=9).map(|l| (l, mpfr_reference(3, l, 848))).collect();
    let runs = [
        run_format::<f64>(3, 8, 10, &refs),
        run_format::<Expansion<f32, 2>>(3, 8, 10, &refs),
        run_format::<Expansion<f32, 4>>(3, 8, 10, &refs),
        run_format::<Expansion<f64, 2>>(3, 8, 10, &refs),
        run_format::<Expansion<f64, 4>>(3, 8, 10, &refs),
    ];
    for run in &runs {
        assert!(within_level(run), "{run:?}");
        for r in &run.rows {
            // Each error is near its format's u, not far below (the format really ran).
            assert!(r.round_trip.l2 > run.unit / 8.0, "{run:?}");
            assert!(r.mpfr.is_some() == (r.log2n <= 9));
        }
    }
    // The levels separate the formats: f64's error fails dd's level.
    let f64_err = runs[0].rows[0].round_trip.l2;
    assert!(f64_err > level(runs[3].unit, 8, 2.0) * 1e6);
}

#[test]
fn mpfr_reference_matches_a_direct_dft() {
    // The recursive MPFR transform against the O(n^2) definition at n = 16.
    let prec = 300;
    let r = mpfr_reference(5, 4, prec);
    let n = 16u32;
    for (k, rk) in r.iter().enumerate() {
        let mut s = [Float::with_val(prec, 0), Float::with_val(prec, 0)];
        for j in 0..n as usize {
            let [a, b] = input(5, j);
            let pi = Float::with_val(prec, rug::float::Constant::Pi);
            let th = Float::with_val(prec, pi * (2 * ((j * k) % 16)) as u32) / n;
            let (sn, cs) = th.sin_cos(Float::new(prec));
            // (a + ib)(cos − i sin)
            s[0] += Float::with_val(prec, a * &cs) + Float::with_val(prec, b * &sn);
            s[1] += Float::with_val(prec, b * &cs) - Float::with_val(prec, a * &sn);
        }
        for c in 0..2 {
            let d = Float::with_val(prec, &s[c] - &rk[c]).abs().to_f64();
            assert!(d < 1e-80, "bin {k}: {d}");
        }
    }
}

#[test]
fn twiddles_symmetries_and_analytic_input() {
    // The symmetric extension agrees with a direct sin_cos to the format's level.
    let tw = Twiddles::<Expansion<f64, 2>>::new(8);
    for k in 0..256usize {
        let [c, s] = tw.get(8, k);
        let th = 2.0 * std::f64::consts::PI * k as f64 / 256.0;
        assert!((c.to_f64() - th.cos()).abs() < 1e-15, "k = {k}");
        assert!((s.to_f64() + th.sin()).abs() < 1e-15, "k = {k}");
    }
    assert_eq!(analytic_frequency(1024), 341);
    let e = analytic(&tw, 8);
    assert!(e.l2 < 1e-30 && e.max < 1e-30, "{e:?}");
    let (rt, _) = round_trip(&tw, 1, 8);
    assert!(rt.l2 < 1e-30, "{rt:?}");
    // Inputs are exact f32 values in [-1, 1).
    for j in 0..1000 {
        let [a, b] = input(9, j);
        assert!((-1.0..1.0).contains(&a) && (-1.0..1.0).contains(&b));
    }
}

#[test]
fn transform_is_identical_on_any_thread_count() {
    // 2^14 takes the parallel paths (by block, then inside blocks).
    let tw = Twiddles::<Expansion<f64, 2>>::new(14);
    let run = |threads: usize| -> Vec<Complex<Expansion<f64, 2>>> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            let mut a = input_vec(2, 1 << 14);
            fft(&mut a, &tw, false);
            a
        })
    };
    let a = run(1);
    let b = run(3);
    assert!(a
        .iter()
        .zip(b.iter())
        .all(|(x, y)| x[0].terms() == y[0].terms() && x[1].terms() == y[1].terms()));
    assert_eq!(<Expansion<f64, 2> as Real>::NAME, "dd");
}
