//! Scratch: minimal bits for the existence proof of a long orbit (not part of the tests).
use expanse_prove::bench::periodic_orbit;
use expanse_prove::ivl::MpIv;
use expanse_prove::krawczyk::{prove_existence, Existence};
use expanse_prove::orbit::growth;
use expanse_prove::params::{Param, ParamBox};
use rug::{Float, Rational};
use std::time::Instant;
fn main() {
    let p: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let a = Float::with_val(4096, Float::parse("1.4").unwrap());
    let b = Float::with_val(4096, Float::parse("0.3").unwrap());
    let o = periodic_orbit(&a, &b, p, 256).expect("newton");
    let g = growth(&o.iter().map(|v| v.to_f64()).collect::<Vec<_>>(), 1.4, 0.3);
    eprintln!("{g:?}");
    for f in [0.6, 0.8, 1.0, 1.2, 1.5, 2.0] {
        let bits = ((g.l1 + g.l2) * f) as u32 + 64;
        let pb = ParamBox {
            a: Param::new("1.4", &Rational::from(0), bits).unwrap(),
            b: Param::new("0.3", &Rational::from(0), bits).unwrap(),
        };
        let extra = (2.0 * g.l1) as u32 + 32;
        let r = expanse_prove::orbit::refine(&o, &a, &b, bits + extra, extra).unwrap();
        let x: Vec<Float> = r.x.iter().map(|v| Float::with_val(bits, v)).collect();
        let t = Instant::now();
        let e = prove_existence::<MpIv>(&x, &pb, bits, 10);
        let ok = matches!(e, Existence::Proved { .. });
        eprintln!(
            "f={f} bits={bits} ok={ok} {:?} {:?}",
            t.elapsed(),
            match e {
                Existence::Proved {
                    contraction,
                    inflations,
                    ..
                } => format!("{contraction} {inflations}"),
                Existence::Undecided { reason } => reason,
                Existence::NoZero { reason } => reason,
            }
        );
    }
}
