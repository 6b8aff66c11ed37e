//! Mandelbrot escape counts at small sizes: dd against MPFR, f64 wrong at the deep zoom,
//! images independent of the thread count, PNG output.

use expanse_apps::mandelbrot::{
    center, check_sample, count_dd, count_f64, count_mpfr, count_quasi, differing,
    distinct_f64_points, mpfr_sample, png_bytes, render, to_pair, Format, View,
};
use rug::Float;

fn deep() -> View {
    // 32x32 pixels of 2^-69: width 5.4e-20, fewer iterations than the example's view.
    View {
        name: "deep",
        log2_delta: -69,
        width: 32,
        height: 32,
        max_iter: 12_000,
    }
}

#[test]
fn counts_of_known_points() {
    // c = -1 is in the set (period 2); c = 1 escapes: z = 0, 1, 2, 5 -> |z_3|^2 = 25 > 4.
    for f in [
        count_f64(-1.0, 0.0, 500),
        count_dd((-1.0).into(), 0.0.into(), 500),
    ] {
        assert_eq!(f, 500);
    }
    assert_eq!(count_f64(1.0, 0.0, 500), 3);
    assert_eq!(count_quasi((1.0, 0.0), (0.0, 0.0), 500), 3);
    assert_eq!(
        count_mpfr(&Float::with_val(200, 1), &Float::new(200), 500, 200),
        3
    );
    // c = 0.26 (just outside the cusp at 1/4) escapes slowly; all formats agree.
    let k = count_mpfr(&Float::with_val(200, 0.26), &Float::new(200), 5000, 200);
    assert!(k > 20 && k < 5000);
    assert_eq!(count_f64(0.26, 0.0, 5000), k);
    assert_eq!(count_dd(0.26.into(), 0.0.into(), 5000), k);
}

#[test]
fn deep_zoom_dd_matches_mpfr_and_f64_fails() {
    let v = deep();
    let dd = render(&v, Format::Dd);
    let sample = mpfr_sample(&v, 7);
    let s = check_sample(&dd, &sample);
    assert_eq!(s.differ_off_boundary, 0, "{s:?}");
    let mut counts: Vec<u32> = sample.iter().map(|x| x.1).collect();
    counts.sort_unstable();
    counts.dedup();
    assert!(counts.len() >= 10, "no structure: {counts:?}");
    // f64 sees one point for the whole view, so its image is flat and wrong.
    assert_eq!(distinct_f64_points(&v), 1);
    let f = render(&v, Format::F64);
    assert!(differing(&f, &dd) * 2 > 32 * 32);
    let q = render(&v, Format::Quasi);
    assert!(differing(&q, &dd) * 2 > 32 * 32);
    // The quasi-double pair of c keeps about 48 bits: close to c, not equal.
    let (cx, _) = center();
    let p = to_pair(cx);
    let back = f64::from(p.0) + f64::from(p.1);
    assert!((back - cx.to_f64()).abs() < 1e-13);
}

#[test]
fn images_are_independent_of_threads_and_encode_as_png() {
    let v = View {
        name: "shallow",
        log2_delta: -30,
        width: 24,
        height: 16,
        max_iter: 2000,
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
        .install(|| render(&v, Format::Quasi));
    let three = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("pool")
        .install(|| render(&v, Format::Quasi));
    assert_eq!(one.counts, three.counts);
    let png = png_bytes(&one, &v).expect("png");
    assert_eq!(&png[1..4], b"PNG");
    // The shallow view is f64-valid: f64 and dd agree on most pixels.
    let f = render(&v, Format::F64);
    let dd = render(&v, Format::Dd);
    assert!(differing(&f, &dd) * 20 <= 24 * 16);
}

#[test]
fn qd_and_f32_at_the_deep_zoom() {
    // 16x16 pixels of 2^-69: qd iterates dd's c exactly and must match MPFR off the boundary
    // like dd; f32 (c rounded to 24 bits) sees one point and is wrong.
    let v = View {
        width: 16,
        height: 16,
        ..deep()
    };
    let qd = render(&v, Format::Qd);
    let sample = mpfr_sample(&v, 5);
    let s = check_sample(&qd, &sample);
    assert_eq!(s.differ_off_boundary, 0, "{s:?}");
    assert!(s.sampled > 40);
    let dd = render(&v, Format::Dd);
    let f = render(&v, Format::F32);
    assert!(differing(&f, &dd) * 2 > 16 * 16);
    assert!(f.counts.iter().all(|&c| c == f.counts[0]));
}
