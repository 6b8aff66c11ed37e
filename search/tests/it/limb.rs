//! The search in fixed-limb floats (`--prec NNNb`) on the CPU backend: it finds the classical
//! sinks, its candidates agree with the quad-double search's wherever both find a cycle, the
//! cycle points it writes are periodic to far beyond quad-double accuracy (checked in MPFR at
//! 1024 bits), and its files say which precision they came from. (The GPU kernels' identity
//! with this path is `expanse-gpu`'s `henon_limb_on_cpu` test and `expanse bench limb --henon
//! --gpu --check` on a device.)

use expanse_search::backend::{Backend, CpuBackend};
use expanse_search::engine::{candidates_of_chunk, chunk_work, run_search, RunOptions, Shard};
use expanse_search::files::{read_candidates, CandidateLine};
use expanse_search::spec::{RawSpec, SearchSpec};
use expanse_search::ErrorKind;
use rug::Float;

fn raw(a: &str, prec: &str, inits: u64, transient: &str) -> RawSpec {
    RawSpec {
        a: a.into(),
        b: "0.3".into(),
        inits,
        seed: 7,
        transient: transient.into(),
        pmax: 64,
        escape: "1e3".into(),
        prec: prec.into(),
        base: "f64".into(),
        ..Default::default()
    }
}

fn search(s: &SearchSpec) -> Vec<CandidateLine> {
    let work = chunk_work(s, 0, s.param_count());
    let recs = CpuBackend.run(&s.job, &work).unwrap();
    candidates_of_chunk(s, 0, s.param_count(), &recs).0
}

#[test]
fn prec_in_bits_is_parsed_and_checked() {
    for (text, bits) in [
        ("64b", 64),
        ("424b", 424),
        ("848b", 848),
        (" 1696b", 1696),
        ("4096b", 4096),
    ] {
        let s = SearchSpec::from_raw(&raw("1.25", text, 1, "10")).unwrap();
        assert_eq!(s.job.limb_bits, Some(bits), "{text}");
        assert_eq!(s.job.terms, 8);
        assert_eq!(s.to_json()["prec"], format!("{bits}b"));
    }
    // Expansion precisions are unchanged.
    let s = SearchSpec::from_raw(&raw("1.25", "qd", 1, "10")).unwrap();
    assert_eq!((s.job.terms, s.job.limb_bits), (4, None));
    assert_eq!(s.to_json()["prec"], 4);
    for bad in [
        "63b", "4097b", "0b", "b", "12.5b", "-64b", "848bb", "848B", "9",
    ] {
        let e = SearchSpec::from_raw(&raw("1.25", bad, 1, "10")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSpec, "{bad}");
        assert!(e.message.starts_with("--prec"), "{bad}: {}", e.message);
    }
    let mut r = raw("1.25", "848b", 1, "10");
    r.base = "f32".into();
    let e = SearchSpec::from_raw(&r).unwrap_err();
    assert!(
        e.message.starts_with("--prec") && e.message.contains("f32"),
        "{}",
        e.message
    );
}

/// Iterates the candidate point `period` times in MPFR at 1024 bits: the largest coordinate
/// distance to the start after each step.
fn returns_in_mpfr(c: &CandidateLine) -> Vec<Float> {
    let p = 1024;
    let a = Float::with_val(p, c.a_value().unwrap());
    let b = Float::with_val(p, c.b_value().unwrap());
    let sum = |t: Vec<f64>| t.iter().fold(Float::with_val(p, 0), |acc, v| acc + v);
    let (x0, y0) = (sum(c.x_terms().unwrap()), sum(c.y_terms().unwrap()));
    let (mut x, mut y) = (x0.clone(), y0.clone());
    (0..c.period)
        .map(|_| {
            let nx =
                Float::with_val(p, 1 + &y) - Float::with_val(p, &a * Float::with_val(p, &x * &x));
            y = Float::with_val(p, &b * &x);
            x = nx;
            Float::with_val(p, &x - &x0)
                .abs()
                .max(&Float::with_val(p, &y - &y0).abs())
        })
        .collect()
}

#[test]
fn limb_search_finds_the_period_7_sink_far_beyond_quad_double() {
    // a = 1.25, b = 0.3: the period-7 window (seed 001 §4; `sinks.rs` for expansions).
    let s = SearchSpec::from_raw(&raw("1.25", "424b", 8, "20000")).unwrap();
    let lines = search(&s);
    let sinks: Vec<_> = lines.iter().filter(|c| c.attracting_estimate).collect();
    assert_eq!(sinks.len(), 1, "{lines:?}");
    let c = sinks[0];
    assert_eq!(c.period, 7);
    assert_eq!(
        (c.prec, c.prec_bits, c.base.as_str()),
        (8, Some(424), "f64")
    );
    assert_eq!(c.x.len(), 8);
    let d = returns_in_mpfr(c);
    for (k, dk) in d.iter().enumerate().take(6) {
        assert!(*dk > 1e-3, "returns after {} < 7 steps: {dk}", k + 1);
    }
    // 20000 steps contract to the cycle of the 424-bit map, which lies within about 2^-420 of
    // the true one; the 8 terms carry 424 bits. Quad-double could not get below ~1e-60.
    assert!(d[6] < 1e-100, "return distance after 7 steps: {}", d[6]);
}

#[test]
fn limb_and_quad_double_searches_agree_on_their_candidates() {
    let grid = "1.0,1.25,1.4,1.05,2.0";
    let limb = search(&SearchSpec::from_raw(&raw(grid, "848b", 6, "8000")).unwrap());
    let qd = search(&SearchSpec::from_raw(&raw(grid, "qd", 6, "8000")).unwrap());
    assert!(limb.len() >= 2, "{limb:?}");
    assert_eq!(limb.len(), qd.len(), "limb {limb:?}\nqd {qd:?}");
    for (l, q) in limb.iter().zip(qd.iter()) {
        assert_eq!(
            (
                l.param_index,
                l.period,
                l.init_index,
                l.hits,
                l.attracting_estimate
            ),
            (
                q.param_index,
                q.period,
                q.init_index,
                q.hits,
                q.attracting_estimate
            )
        );
        let (lx, qx) = (l.x_terms().unwrap(), q.x_terms().unwrap());
        let (ly, qy) = (l.y_terms().unwrap(), q.y_terms().unwrap());
        // The same cycle point: the leading terms within a few ulps (both are within ~1e-30
        // of the exact cycle after 8000 steps).
        assert!((lx[0] - qx[0]).abs() <= 4.0 * f64::EPSILON, "{lx:?} {qx:?}");
        assert!((ly[0] - qy[0]).abs() <= 4.0 * f64::EPSILON, "{ly:?} {qy:?}");
        assert_eq!(l.param_orbits, q.param_orbits);
    }
}

#[test]
fn limb_search_writes_files_that_name_the_precision() {
    let dir = std::env::temp_dir().join(format!("expanse-limb-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("c.jsonl");
    let s = SearchSpec::from_raw(&raw("1.0,1.25", "128b", 4, "6000")).unwrap();
    let opts = RunOptions {
        out: out.clone(),
        resume: false,
        force: true,
        shard: Shard::default(),
        chunk_size: Some(1),
        backend: CpuBackend.describe(),
    };
    let rep = run_search(&s, &opts, &CpuBackend, &mut |_| {}).unwrap();
    assert_eq!(rep.summary.params, 2);
    let lines = read_candidates(&out).unwrap();
    assert_eq!(lines, search(&s));
    assert!(lines.iter().any(|c| c.period == 4) && lines.iter().any(|c| c.period == 7));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.lines().all(|l| l.contains("\"prec_bits\":128")),
        "{text}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("c.jsonl.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["spec"]["prec"], "128b", "{manifest}");
    // Expansion searches write no `prec_bits`.
    let s = SearchSpec::from_raw(&raw("1.25", "2", 4, "6000")).unwrap();
    let line = serde_json::to_string(&search(&s)[0]).unwrap();
    assert!(!line.contains("prec_bits"), "{line}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_gpu_paths_host_side_gives_the_cpu_backends_candidates() {
    // What `GpuBackend` does with a device's answer (`limb::sparse_of_limb` on the
    // `LimbSparse` of `run_limb_orbits`), fed with the CPU reference's records in the
    // device's form: the same candidate lines and totals as the CPU backend. (The device's
    // records themselves equal the reference: `expanse bench limb --henon --gpu --check`.)
    use expanse_gpu::henon_limb::{reference_limb_batch, LimbSparse};
    use expanse_search::engine::candidates_of_sparse;
    let s = SearchSpec::from_raw(&raw("1.0,1.25,1.4,2.0", "200b", 6, "3000")).unwrap();
    let n = s.param_count();
    let work = chunk_work(&s, 0, n);
    let batch = expanse_search::limb::gpu_batch(&s.job, &work).unwrap();
    let recs = reference_limb_batch(&batch, 0..batch.len(), |g, r| (g, r));
    let mut device = LimbSparse::default();
    for (g, r) in recs {
        device.counts[r.status as usize] += 1;
        if r.status != expanse_gpu::OrbitStatus::NoCycle {
            device.kept.push((g, r));
        }
    }
    let mut short = device.clone();
    short.kept.pop();
    assert!(expanse_search::limb::sparse_of_limb(short, work.len()).is_err());
    let sparse = expanse_search::limb::sparse_of_limb(device, work.len()).unwrap();
    let cpu = CpuBackend.run(&s.job, &work).unwrap();
    let (a, b) = (
        candidates_of_sparse(&s, 0, n, &sparse),
        candidates_of_chunk(&s, 0, n, &cpu),
    );
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
    assert!(b.1.candidates >= 2 && b.1.escaped > 0, "{:?}", b.1);
    let full = expanse_search::limb::full_of_sparse(&s.job, work.len(), sparse);
    assert!(full.iter().zip(cpu.iter()).all(|(x, y)| x.bit_identical(y)));
}
