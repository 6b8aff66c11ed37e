//! Soundness of `verify`: certificates altered in ways that make their claims false, or that
//! break their consistency, must be rejected (not valid, or unusable); the untouched ones
//! must be accepted. The test counts the mutations it tried.

use expanse_prove::bench::periodic_orbit;
use expanse_prove::cert::certificate;
use expanse_prove::engine::{prove, Candidate, Options, Status};
use expanse_prove::numfmt::{parse_hex, to_hex};
use expanse_prove::verify::{verify_text, verify_value, Verdict};
use rug::{Float, Rational};
use serde_json::{json, Value};

fn attractor_point(a: f64, b: f64, n: usize) -> (f64, f64) {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..n {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    (x, y)
}

fn sink_cert(radius: Rational) -> Value {
    let (x, y) = attractor_point(1.25, 0.3, 20000);
    let c = Candidate {
        source: "test".into(),
        a: "1.25".into(),
        b: "0.3".into(),
        radius,
        period: 7,
        x: Float::with_val(53, x),
        y: Float::with_val(53, y),
        orbit: None,
    };
    let pr = prove(&c, &Options::default()).unwrap();
    assert_eq!(pr.status, Status::Sink);
    certificate(&pr)
}

/// A period-p saddle at (1.4, 0.3) (status periodic-unstable), in the given arithmetic:
/// period 100 needs MPFR, period 33 runs in expansion intervals.
fn saddle_cert(p: usize, kind: &str) -> Value {
    let a = Float::with_val(4096, Float::parse("1.4").unwrap());
    let b = Float::with_val(4096, Float::parse("0.3").unwrap());
    let o = periodic_orbit(&a, &b, p, 512).unwrap();
    let c = Candidate {
        source: "test".into(),
        a: "1.4".into(),
        b: "0.3".into(),
        radius: Rational::new(),
        period: p,
        x: o[0].clone(),
        y: Float::with_val(512, &b * &o[p - 1]),
        orbit: Some(o),
    };
    let pr = prove(&c, &Options::default()).unwrap();
    assert_eq!(
        pr.status,
        Status::PeriodicUnstable,
        "{:?} {:?}",
        pr.reason,
        pr.attempts
    );
    assert_eq!(pr.kind, kind);
    certificate(&pr)
}

fn hexnum(v: &Value) -> Float {
    parse_hex(v.as_str().unwrap()).unwrap()
}

fn set_hex(v: &mut Value, f: &Float) {
    *v = json!(to_hex(f));
}

/// True when verify rejects (not valid or unusable).
fn rejected(v: &Value) -> bool {
    !matches!(verify_value(v), Ok(Verdict::Valid { .. }))
}

type Mutation = (&'static str, Box<dyn Fn(&mut Value)>);

fn mutations() -> Vec<Mutation> {
    let m: Vec<Mutation> = vec![
        (
            "a box moved to 1.3",
            Box::new(|c| {
                let v = Float::with_val(53, 1.3);
                set_hex(&mut c["a"]["lo"], &v);
                set_hex(&mut c["a"]["hi"], &v);
                set_hex(&mut c["a"]["centre"], &v);
            }),
        ),
        (
            "a claimed as 1.3 consistently",
            Box::new(|c| {
                c["a"]["given"] = json!("1.3");
                c["a"]["value"] = json!("13/10");
                c["a"]["radius"] = json!("0/1");
                c["a"]["exact"] = json!(false);
                let lo = Float::with_val(53, 1.3);
                let mut hi = lo.clone();
                hi.next_up();
                let mut lo2 = lo.clone();
                lo2.next_down();
                set_hex(&mut c["a"]["lo"], &lo2);
                set_hex(&mut c["a"]["hi"], &hi);
                set_hex(&mut c["a"]["centre"], &lo);
            }),
        ),
        (
            "a box widened to ±0.05",
            Box::new(|c| {
                c["a"]["radius"] = json!("1/20");
                set_hex(&mut c["a"]["lo"], &Float::with_val(53, 1.2));
                set_hex(&mut c["a"]["hi"], &Float::with_val(53, 1.3));
            }),
        ),
        (
            "b radius raised without the box",
            Box::new(|c| {
                c["b"]["radius"] = json!("1/1000");
            }),
        ),
        (
            "b marked exact",
            Box::new(|c| {
                c["b"]["exact"] = json!(true);
            }),
        ),
        (
            "b box widened to ±0.01",
            Box::new(|c| {
                c["b"]["radius"] = json!("1/100");
                set_hex(&mut c["b"]["lo"], &Float::with_val(53, 0.29));
                set_hex(&mut c["b"]["hi"], &Float::with_val(53, 0.31));
            }),
        ),
        (
            "centre 3 moved by 100 radii",
            Box::new(|c| {
                let r = hexnum(&c["orbit"]["radii"][3]);
                let x = hexnum(&c["orbit"]["centres"][3]);
                let v = Float::with_val(x.prec(), &x + Float::with_val(53, &r * 100u32));
                set_hex(&mut c["orbit"]["centres"][3], &v);
            }),
        ),
        (
            "centres 0 and 1 swapped",
            Box::new(|c| {
                let o = c["orbit"]["centres"].as_array_mut().unwrap();
                o.swap(0, 1);
            }),
        ),
        (
            "orbit reversed",
            Box::new(|c| {
                let o = c["orbit"]["centres"].as_array_mut().unwrap();
                o.reverse();
            }),
        ),
        (
            "radius 2 shrunk below the rounding level",
            Box::new(|c| {
                // Far below what any enclosure at this precision can resolve: 2^(−4·bits).
                // (Shrinking by a fixed factor can leave a valid proof: K(X) is often much
                // smaller than X in some components.)
                let bits = c["arithmetic"]["bits"].as_u64().unwrap() as u32;
                let mut r = Float::with_val(53, 1);
                r >>= 4 * bits;
                set_hex(&mut c["orbit"]["radii"][2], &r);
            }),
        ),
        (
            "all radii grown to 0.3",
            Box::new(|c| {
                for r in c["orbit"]["radii"].as_array_mut().unwrap() {
                    *r = json!(to_hex(&Float::with_val(53, 0.3)));
                }
            }),
        ),
        (
            "a radius set to zero",
            Box::new(|c| {
                c["orbit"]["radii"][0] = json!("0x0p+0");
            }),
        ),
        (
            "period + 1",
            Box::new(|c| {
                let p = c["period"].as_u64().unwrap();
                c["period"] = json!(p + 1);
            }),
        ),
        (
            "period doubled with the orbit repeated",
            Box::new(|c| {
                let p = c["period"].as_u64().unwrap();
                c["period"] = json!(2 * p);
                for k in ["centres", "radii"] {
                    let o = c["orbit"][k].as_array().unwrap().clone();
                    let mut d = o.clone();
                    d.extend(o);
                    c["orbit"][k] = json!(d);
                }
            }),
        ),
        (
            "one centre dropped",
            Box::new(|c| {
                c["orbit"]["centres"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "status flipped",
            Box::new(|c| {
                let s = if c["status"] == "sink" {
                    "periodic-unstable"
                } else {
                    "sink"
                };
                c["status"] = json!(s);
            }),
        ),
        (
            "trace enclosure replaced",
            Box::new(|c| {
                c["trace"] = json!({"lo": "0x1p+3", "hi": "0x1p+4"});
            }),
        ),
        (
            "unknown schema",
            Box::new(|c| {
                c["schema"] = json!("expanse-certificate/99");
            }),
        ),
        (
            "unknown arithmetic",
            Box::new(|c| {
                c["arithmetic"]["kind"] = json!("magic-interval");
            }),
        ),
        (
            "status not-proven",
            Box::new(|c| {
                c["status"] = json!("not-proven");
            }),
        ),
        (
            "map missing",
            Box::new(|c| {
                c.as_object_mut().unwrap().remove("map");
            }),
        ),
    ];
    m
}

#[test]
fn verify_rejects_mutated_certificates() {
    let certs = [
        ("sink p7 point", sink_cert(Rational::new())),
        (
            "sink p7 box 1e-8",
            sink_cert(Rational::from((1, 100_000_000))),
        ),
        ("saddle p100 mpfr", saddle_cert(100, "mpfr-interval")),
        ("saddle p33 expansions", saddle_cert(33, "exp-interval")),
    ];
    let mut tried = 0;
    for (name, cert) in &certs {
        assert!(
            !rejected(cert),
            "{name}: the untouched certificate must verify"
        );
        for (what, f) in mutations() {
            let mut c = cert.clone();
            f(&mut c);
            assert!(rejected(&c), "{name}: mutation {what:?} was accepted");
            tried += 1;
        }
        // Truncated files: unusable.
        let text = serde_json::to_string_pretty(cert).unwrap();
        for cut in [text.len() / 3, text.len() / 2, text.len() - 3] {
            assert!(
                verify_text(&text[..cut]).is_err(),
                "{name}: truncated at {cut} accepted"
            );
            tried += 1;
        }
    }
    // Expansion-specific: fewer terms than the centres need.
    let (_, ex) = &certs[3];
    let mut c = ex.clone();
    c["arithmetic"]["bits"] = json!(106);
    assert!(rejected(&c), "expansion terms lowered accepted");
    // MPFR-specific: lowered precision, and a cross-check at too few bits.
    let (_, mp) = &certs[2];
    let mut c = mp.clone();
    let bits = c["arithmetic"]["bits"].as_u64().unwrap();
    c["arithmetic"]["bits"] = json!(bits / 2);
    assert!(rejected(&c), "lowered precision accepted");
    let mut c = mp.clone();
    c["cross_check"]["bits"] = json!(64);
    assert!(rejected(&c), "cross-check at 64 bits accepted");
    let mut c = mp.clone();
    c["arithmetic"]["kind"] = json!("f64-interval");
    c["arithmetic"]["bits"] = json!(53);
    assert!(rejected(&c), "MPFR centres claimed as f64 accepted");
    tried += 4;
    eprintln!("verify rejected all {tried} mutations");
    assert_eq!(tried, certs.len() * (mutations().len() + 3) + 4);
}
