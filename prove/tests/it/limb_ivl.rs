//! The proof engine at multi-limb precision: the period-7 sink at (1.25, 0.3) (MATH.md §5,
//! also proved in `sinks.rs`) proved with fixed-limb intervals (`ivl::LimbIv`, the CPU twin of
//! the GPU arithmetic) at 256 bits — existence and uniqueness (Krawczyk), minimal period and
//! stability — and compared with the same steps in MPFR endpoint intervals (`ivl::MpIv`):
//! both must succeed and give enclosures of about the same width. The orbit comes from
//! iterating the map in f64 (a sink attracts) and Newton's method, not from the code under
//! test.

use expanse_prove::ivl::{Ivl, LimbIv, MpIv};
use expanse_prove::krawczyk::{prove_existence, Existence};
use expanse_prove::orbit::{iterate_orbit, refine};
use expanse_prove::params::{Param, ParamBox};
use expanse_prove::stability::{minimal_period, stability, Stability};
use rug::{Float, Rational};

struct Run {
    radii: Vec<Float>,
    min_period: bool,
    decision: Stability,
    trace: (Float, Float),
}

fn run<S: Ivl>(centres: &[Float], pb: &ParamBox, bits: u32) -> Run {
    let ex = prove_existence::<S>(centres, pb, bits, bits, 10, None);
    let Existence::Proved { radii, .. } = ex else {
        panic!("{}: existence not proved: {ex:?}", S::KIND);
    };
    let min_period = minimal_period::<S>(centres, &radii, bits).is_ok();
    let st = stability::<S>(centres, &radii, pb, bits);
    Run {
        radii,
        min_period,
        decision: st.decision,
        trace: (st.trace.lo(), st.trace.hi()),
    }
}

fn ratio(a: &Float, b: &Float) -> f64 {
    (Float::with_val(64, a / b)).to_f64()
}

#[test]
fn period_7_sink_is_proved_in_limb_intervals_as_in_mpfr() {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..20000 {
        let nx = 1.0 + y - 1.25 * x * x;
        y = 0.3 * x;
        x = nx;
    }
    let zero = Rational::from(0);
    let pb = ParamBox {
        a: Param::new("1.25", &zero, 4096).unwrap(),
        b: Param::new("0.3", &zero, 4096).unwrap(),
    };
    let bits = 256;
    let guess = iterate_orbit(
        &pb.a.centre,
        &pb.b.centre,
        &Float::with_val(53, x),
        &Float::with_val(53, y),
        7,
        bits + 64,
    );
    let nb = bits + 64;
    let r = refine(
        &guess,
        &pb.a.at_prec(nb).centre,
        &pb.b.at_prec(nb).centre,
        nb,
    )
    .unwrap();
    assert!(r.converged);
    let centres: Vec<Float> = r.x.iter().map(|v| Float::with_val(bits, v)).collect();
    let pbb = pb.at_prec(bits);
    let limb = run::<LimbIv>(&centres, &pbb, bits);
    let mp = run::<MpIv>(&centres, &pbb, bits);
    for (name, r) in [("limb", &limb), ("mpfr", &mp)] {
        assert!(r.min_period, "{name}: minimal period 7 not shown");
        assert_eq!(r.decision, Stability::Attracting, "{name}");
    }
    // At 256 bits the boxes are tiny (far below f64's 2^−53) and of the same size.
    for (a, b) in limb.radii.iter().zip(&mp.radii) {
        assert!(*a > 0 && *a < Float::with_val(53, 2f64.powi(-100)));
        let q = ratio(a, b);
        assert!((0.5..=2.0).contains(&q), "radius ratio {q}");
    }
    // The trace enclosures overlap (both contain the true trace) and have similar widths.
    assert!(limb.trace.0 <= mp.trace.1 && mp.trace.0 <= limb.trace.1);
    let wl = Float::with_val(64, &limb.trace.1 - &limb.trace.0);
    let wm = Float::with_val(64, &mp.trace.1 - &mp.trace.0);
    assert!(wl > 0 && wm > 0);
    let q = ratio(&wl, &wm);
    assert!((0.25..=4.0).contains(&q), "trace width ratio {q}");
    assert!(wl < Float::with_val(53, 2f64.powi(-150)), "{wl}");
}
