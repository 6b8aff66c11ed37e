//! NVRTC accepts every program added for the applications and the multi-limb work (where
//! NVRTC can be loaded: a CUDA toolkit or `$CUDA_HOME`; no GPU needed; skipped otherwise).
//! The host builds of the same sources cannot catch CUDA-only errors (device-code rules,
//! shared-memory limits, NVRTC's stricter front end), and a device run is expensive to lose to
//! a compile error.

use expanse_gpu::error::GpuErrorKind;
use expanse_gpu::{compile_program_ptx, CudaProgram};

const ARCH: &str = "compute_90";

/// Compiles `program` for (T, N); `false` when NVRTC is unavailable (the check is skipped).
fn compiles<T: expanse_gpu::GpuTerm, const N: usize>(program: &CudaProgram) -> bool {
    match compile_program_ptx::<T, N>(program, ARCH) {
        Err(e) if matches!(e.kind, GpuErrorKind::Unavailable(_)) => {
            eprintln!("NVRTC not found: compile check skipped ({e})");
            false
        }
        Err(e) => panic!("{}: NVRTC rejected the program: {e}", program.name),
        Ok(_) => true,
    }
}

#[test]
fn application_programs_compile_with_nvrtc_when_present() {
    use expanse_gpu::apps::{fft_program, mandelbrot_program, md_program};
    for p in [mandelbrot_program(), md_program(), fft_program()] {
        if !compiles::<f64, 2>(p) {
            return;
        }
        assert!(compiles::<f32, 2>(p));
        assert!(compiles::<f64, 4>(p));
    }
}

#[test]
fn multi_limb_programs_compile_with_nvrtc_when_present() {
    use expanse_gpu::henon_limb::henon_limb_program;
    use expanse_gpu::limb_blas::LIMB_EXT_PROGRAM;
    use expanse_gpu::limb_quad::LIMB_FN_PROGRAMS;
    // The Hénon programs differ only in their capacity: the smallest and the largest.
    if !compiles::<f64, 1>(henon_limb_program(2).unwrap()) {
        return;
    }
    assert!(compiles::<f64, 1>(henon_limb_program(64).unwrap()));
    assert!(henon_limb_program(3).is_none());
    assert!(compiles::<f64, 1>(&LIMB_EXT_PROGRAM));
    for p in &LIMB_FN_PROGRAMS {
        assert!(compiles::<f64, 1>(p));
    }
}

#[test]
fn orbit_program_compiles_with_nvrtc_when_present() {
    // The search's kernels (with their clock64 phase counters), at a sample of N and both
    // term types.
    let p = &expanse_gpu::ORBITS_PROGRAM;
    if !compiles::<f64, 1>(p) {
        return;
    }
    assert!(compiles::<f64, 2>(p));
    assert!(compiles::<f32, 4>(p));
}

#[test]
fn run_time_n_entry_refuses_terms_and_types_it_has_no_kernels_for() {
    use expanse_gpu::device::compile_program_ptx_for;
    use expanse_gpu::ORBITS_PROGRAM;
    for (n, ty) in [(0, "double"), (9, "double"), (2, "int"), (2, "half")] {
        match compile_program_ptx_for(&ORBITS_PROGRAM, n, ty, ARCH) {
            Err(e) => assert!(
                matches!(e.kind, GpuErrorKind::InvalidInput(_)),
                "n = {n}, {ty}: {e}"
            ),
            Ok(_) => panic!("n = {n}, {ty}: compiled"),
        }
    }
}
