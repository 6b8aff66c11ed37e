//! The CUDA kernel source, compiled for the host by a C++ compiler through a small shim
//! (`tests/cpu_shim/`, one "thread" at a time, `-ffp-contract=off` as NVRTC's `--fmad=false`),
//! must return records bit-identical to the Rust reference ([`reference_orbit`], the search
//! arithmetic of expanse-core) for every N and both term types. This catches any divergence
//! between `cuda/orbits.cu` and `core/src/fast.rs` without a GPU; the device check
//! (`expanse bench gpu --check`) repeats the comparison on the GPU itself.
//!
//! The same host build also runs the sparse path (compact mode 2, what `expanse search`
//! uses): it must keep exactly the records that are not NO_CYCLE, with their orbit indices,
//! count the statuses, and count one tick of the shim's clock per orbit and phase reached in
//! the profiling counters (`expanse search --profile`'s phase split).
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::shim::{compiler, shim_dir};
use expanse_core::Expansion;
use expanse_gpu::{check_batch, kernel_source, reference_batch, GpuTerm, OrbitRecord};
use std::io::Write;
use std::process::{Command, Stdio};

fn check<T: GpuTerm, const N: usize>(cxx: &str, dir: &std::path::Path) {
    let shim = include_str!("cpu_shim/shim.h");
    let harness = include_str!("cpu_shim/harness.cpp");
    let src = format!(
        "{shim}\n{}\n{harness}",
        kernel_source(N, T::CUDA_NAME).replace("#pragma unroll", "// unroll")
    );
    let name = format!("k_{}_{}", T::NAME, N);
    let cpp = dir.join(format!("{name}.cpp"));
    let exe = dir.join(&name);
    std::fs::write(&cpp, src).unwrap();
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O1", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(&cpp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "host build of the kernel source failed for N={N} {}:\n{}",
        T::NAME,
        String::from_utf8_lossy(&out.stderr)
    );
    let batch = check_batch::<T, N>(6, 14, 1500, 40);
    let single = batch.a.iter().all(Expansion::is_single_term)
        && batch.b.iter().all(Expansion::is_single_term);
    let mut input = String::new();
    let s = &batch.settings;
    input += &format!(
        "{} {} {} {} {} {} {} COMPACT\n",
        batch.a.len(),
        batch.x0.len(),
        s.transient,
        s.pmax,
        T::from_f64(s.tol).to_bits_u64(),
        T::from_f64(s.escape).to_bits_u64(),
        single as i32
    );
    let interleave = |v: &[Expansion<T, N>]| -> String {
        let mut o = String::new();
        for k in 0..N {
            for e in v {
                o += &format!("{} ", e.terms()[k].to_bits_u64());
            }
        }
        o + "\n"
    };
    input += &interleave(&batch.a);
    input += &interleave(&batch.b);
    let x0: Vec<Expansion<T, N>> = batch.x0.iter().map(|&v| Expansion::from_f64(v)).collect();
    let y0: Vec<Expansion<T, N>> = batch.y0.iter().map(|&v| Expansion::from_f64(v)).collect();
    input += &interleave(&x0);
    input += &interleave(&y0);
    let run = |compact: i32| -> String {
        let mut child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(
                input
                    .replacen("COMPACT", &compact.to_string(), 1)
                    .as_bytes(),
            )
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(0);
    let want: Vec<OrbitRecord<T, N>> = reference_batch(&batch, 0..batch.len(), 2);
    let expected = |w: &OrbitRecord<T, N>| -> Vec<u64> {
        let mut exp = vec![
            w.status as u64,
            w.period as u64,
            w.steps,
            w.residual.to_bits(),
            w.trace.to_bits(),
            w.det.to_bits(),
        ];
        exp.extend(w.x.iter().map(|t| t.to_bits_u64()));
        exp.extend(w.y.iter().map(|t| t.to_bits_u64()));
        exp
    };
    let numbers =
        |line: &str| -> Vec<u64> { line.split(' ').map(|t| t.parse().unwrap()).collect() };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), want.len());
    let mut cycles = 0;
    for (g, (line, w)) in lines.iter().zip(want.iter()).enumerate() {
        let v = numbers(line);
        assert_eq!(
            v,
            expected(w),
            "N={N} {}: orbit {g} differs: kernel source {v:?} vs reference {w:?}",
            T::NAME
        );
        cycles += (w.status == expanse_gpu::OrbitStatus::Cycle) as usize;
    }
    // The sparse path: the records that are not NO_CYCLE, in orbit order with their index.
    let text = run(2);
    let mut lines = text.lines();
    let counters = numbers(lines.next().unwrap());
    let kept: Vec<(u64, OrbitRecord<T, N>)> = want
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status != expanse_gpu::OrbitStatus::NoCycle)
        .map(|(g, r)| (g as u64, *r))
        .collect();
    let rows: Vec<Vec<u64>> = lines.map(numbers).collect();
    assert_eq!(rows.len(), kept.len(), "N={N} {}: kept records", T::NAME);
    for (row, (g, w)) in rows.iter().zip(kept.iter()) {
        assert_eq!(row[0], *g, "N={N} {}: kept orbit index", T::NAME);
        assert_eq!(
            row[1..],
            expected(w)[..],
            "N={N} {}: kept orbit {g}",
            T::NAME
        );
    }
    let mut counts = [0u64; 4];
    for w in &want {
        counts[w.status as usize] += 1;
    }
    assert_eq!(
        counters[..4],
        counts[..],
        "N={N} {}: status counts",
        T::NAME
    );
    assert_eq!(counters[4], kept.len() as u64);
    // One clock tick per orbit and phase reached: every orbit runs a transient; those whose
    // record counts more steps than the transient reached the close-return search; those
    // with a period (CYCLE, UNCONFIRMED) reached the confirmation, as did the escapes after
    // transient + period steps, which a record does not tell apart, hence the bounds.
    let s = &batch.settings;
    let past = want.iter().filter(|r| r.steps > s.transient).count() as u64;
    let periodic = want.iter().filter(|r| r.period > 0).count() as u64;
    assert_eq!(
        counters[5],
        want.len() as u64,
        "N={N} {}: transient ticks",
        T::NAME
    );
    assert_eq!(counters[6], past, "N={N} {}: close-return ticks", T::NAME);
    assert!(
        (periodic..=past).contains(&counters[7]),
        "N={N} {}: {} confirmation ticks, {periodic}..={past} expected",
        T::NAME,
        counters[7]
    );
    // The batch must exercise cycles and escapes, or the comparison proves little.
    assert!(cycles > 0, "N={N} {}: no cycle in the check batch", T::NAME);
    assert!(want
        .iter()
        .any(|r| r.status == expanse_gpu::OrbitStatus::Escaped));
}

#[test]
fn kernel_source_matches_the_reference_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler (c++ or $CXX): kernel-source check skipped");
        return;
    };
    let dir = shim_dir("orbits");
    check::<f64, 1>(&cxx, &dir);
    check::<f64, 2>(&cxx, &dir);
    check::<f64, 3>(&cxx, &dir);
    check::<f64, 4>(&cxx, &dir);
    check::<f64, 5>(&cxx, &dir);
    check::<f64, 6>(&cxx, &dir);
    check::<f64, 7>(&cxx, &dir);
    check::<f64, 8>(&cxx, &dir);
    check::<f32, 1>(&cxx, &dir);
    check::<f32, 2>(&cxx, &dir);
    check::<f32, 3>(&cxx, &dir);
    check::<f32, 4>(&cxx, &dir);
    check::<f32, 8>(&cxx, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}
