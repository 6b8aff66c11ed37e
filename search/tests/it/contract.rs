//! The two CPU implementations of the per-orbit contract agree bit for bit: this crate's
//! (`orbit::run_orbit`, and the CPU backend with its lockstep lanes) and the reference the GPU
//! crate checks its kernels against (`expanse_gpu::reference_orbit`). With the GPU crate's own
//! device check (kernels = its reference), this ties CPU search and GPU search together, and it
//! runs without a GPU.

use expanse_core::FloatTerm;
use expanse_gpu::{check_batch, reference_orbit};
use expanse_search::backend::{from_gpu_record, CpuBackend};
use expanse_search::orbit::{Base, OrbitJob, OrbitTask};

fn same_records<T: FloatTerm, const N: usize>(base: Base) {
    let batch = check_batch::<T, N>(9, 8, 3000, 24);
    let job = OrbitJob {
        transient: batch.settings.transient,
        pmax: batch.settings.pmax,
        tol: batch.settings.tol,
        escape: batch.settings.escape,
        terms: N,
        base,
        limb_bits: None,
    };
    let mut tasks = Vec::new();
    let mut want = Vec::new();
    for (a, b) in batch.a.iter().zip(batch.b.iter()) {
        // This crate's parameters are f64 values converted with `from_f64`; the check
        // batch's deliberately two-term parameter has no such form and is skipped.
        let as_f64 = |e: &expanse_core::Expansion<T, N>| {
            let v = e.to_f64();
            let back = expanse_core::Expansion::<T, N>::from_f64(v);
            let same = back
                .terms()
                .iter()
                .zip(e.terms())
                .all(|(p, q)| p.to_bits_u64() == q.to_bits_u64());
            same.then_some(v)
        };
        let (Some(av), Some(bv)) = (as_f64(a), as_f64(b)) else {
            continue;
        };
        for i in 0..batch.x0.len() {
            tasks.push(OrbitTask {
                a: av,
                b: bv,
                x0: batch.x0[i],
                y0: batch.y0[i],
            });
            let r = reference_orbit(
                a,
                b,
                &expanse_core::Expansion::from_f64(batch.x0[i]),
                &expanse_core::Expansion::from_f64(batch.y0[i]),
                &batch.settings,
            );
            want.push(from_gpu_record(&r));
        }
    }
    assert!(
        tasks.len() >= 8 * 8,
        "too many orbits skipped: {}",
        tasks.len()
    );
    let got = CpuBackend.run_tasks(&job, &tasks).unwrap();
    let mut statuses = std::collections::BTreeSet::new();
    for (k, (g, w)) in got.iter().zip(want.iter()).enumerate() {
        assert!(
            g.bit_identical(w),
            "{base:?} N={N} orbit {k}: {g:?} vs {w:?}"
        );
        statuses.insert(g.status as u32);
    }
    assert!(
        statuses.len() >= 3,
        "the batch should exercise several outcomes: {statuses:?}"
    );
}

#[test]
fn reference_matches_the_gpu_crates_reference() {
    same_records::<f64, 1>(Base::F64);
    same_records::<f64, 2>(Base::F64);
    same_records::<f64, 4>(Base::F64);
    same_records::<f32, 1>(Base::F32);
    same_records::<f32, 2>(Base::F32);
}
