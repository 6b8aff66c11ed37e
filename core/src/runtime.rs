//! The N × SIMD-level matrix of the lane-batched fast tier, instantiated once, here, behind a
//! run-time number of terms.
//!
//! The batched Hénon iteration ([`crate::batch`]) is generic over the number of terms N and the
//! lane type, and every operation of a step is inlined into one loop, so each (N, lane type)
//! pair is a large function for the compiler. Generic functions are compiled in every crate
//! that instantiates them; before this module the search, the binary, every test binary and
//! every example compiled their own copies of the whole matrix (N = 1..8 × AVX-512 / AVX2 ×
//! f64 / f32), which cost most of the build. Here each pair is compiled once, in this crate,
//! by ordinary non-generic functions that take N as a value and expansions as flat slices of
//! terms (expansion k is `terms[k·n .. (k+1)·n]`); the typed generic entry points of
//! [`crate::batch`] are thin wrappers that call these, so they cost their callers nothing.

use crate::batch::{self, SimdLevel, SimdUnavailable};
use crate::expansion::{Expansion, MAX_TERMS};
use crate::float::FloatTerm;

/// Runs `$body` with `const $n: usize` bound to the run-time value `$value` (1..=8): the one
/// `match` at the API edge. Panics on any other value (callers check N first).
macro_rules! with_terms {
    ($value:expr, $n:ident => $body:expr) => {
        match $value {
            1 => {
                const $n: usize = 1;
                $body
            }
            2 => {
                const $n: usize = 2;
                $body
            }
            3 => {
                const $n: usize = 3;
                $body
            }
            4 => {
                const $n: usize = 4;
                $body
            }
            5 => {
                const $n: usize = 5;
                $body
            }
            6 => {
                const $n: usize = 6;
                $body
            }
            7 => {
                const $n: usize = 7;
                $body
            }
            8 => {
                const $n: usize = 8;
                $body
            }
            other => panic!("expansions have 1..=8 terms, not {other}"),
        }
    };
}
pub(crate) use with_terms;

/// Views `count` expansions of `N` terms stored as `count·N` consecutive terms.
///
/// Panics when the length is not a multiple of `N`.
pub(crate) fn expansions<T: FloatTerm, const N: usize>(terms: &[T]) -> &[Expansion<T, N>] {
    let (chunks, rest) = terms.as_chunks::<N>();
    assert!(
        rest.is_empty(),
        "{} terms are not a whole number of {N}-term expansions",
        terms.len()
    );
    // SAFETY: `Expansion<T, N>` is `repr(transparent)` over `[T; N]`, so a slice of `[T; N]`
    // is a slice of expansions with the same length and layout. The fast tier accepts any
    // terms (it needs no invariant for memory safety or termination).
    unsafe { &*(chunks as *const [[T; N]] as *const [Expansion<T, N>]) }
}

/// [`expansions`] for writing.
pub(crate) fn expansions_mut<T: FloatTerm, const N: usize>(
    terms: &mut [T],
) -> &mut [Expansion<T, N>] {
    let len = terms.len();
    let (chunks, rest) = terms.as_chunks_mut::<N>();
    assert!(
        rest.is_empty(),
        "{len} terms are not a whole number of {N}-term expansions"
    );
    // SAFETY: as in `expansions`.
    unsafe { &mut *(chunks as *mut [[T; N]] as *mut [Expansion<T, N>]) }
}

/// The terms of a slice of expansions, in order (expansion k at `k·N .. (k+1)·N`).
pub fn terms_of<T: FloatTerm, const N: usize>(xs: &[Expansion<T, N>]) -> &[T] {
    // SAFETY: `repr(transparent)` over `[T; N]` (see `expansions`).
    let arrays = unsafe { &*(xs as *const [Expansion<T, N>] as *const [[T; N]]) };
    arrays.as_flattened()
}

/// [`terms_of`] for writing. Any terms may be written: the fast tier needs no invariant.
pub fn terms_of_mut<T: FloatTerm, const N: usize>(xs: &mut [Expansion<T, N>]) -> &mut [T] {
    // SAFETY: as in `terms_of`.
    let arrays = unsafe { &mut *(xs as *mut [Expansion<T, N>] as *mut [[T; N]]) };
    arrays.as_flattened_mut()
}

fn check_n(n: usize) {
    assert!(
        (1..=MAX_TERMS).contains(&n),
        "expansions have 1..={MAX_TERMS} terms, not {n}"
    );
}

/// Iterates orbit k at its own parameters (a[k], b[k]), f64 terms, `n` terms per expansion,
/// on the widest SIMD this CPU has: [`batch::henon_iterate_per_orbit_f64`] with a run-time N.
/// All four slices hold the same number of `n`-term expansions, flat.
pub fn henon_iterate_per_orbit_f64(
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) {
    // The detected level is always available.
    let _ = henon_iterate_per_orbit_f64_at(SimdLevel::detect(), n, a, b, xs, ys, steps);
}

/// [`henon_iterate_per_orbit_f64`] at a chosen SIMD level (tests and benchmarks compare the
/// levels); refuses a level this CPU lacks.
pub fn henon_iterate_per_orbit_f64_at(
    level: SimdLevel,
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    check_n(n);
    with_terms!(n, N => batch::per_orbit_f64_impl::<N>(
        level,
        expansions::<f64, N>(a),
        expansions::<f64, N>(b),
        expansions_mut::<f64, N>(xs),
        expansions_mut::<f64, N>(ys),
        steps,
    ))
}

/// [`henon_iterate_per_orbit_f64`] for f32 terms (one orbit at a time through the scalar fast
/// tier; see [`batch::henon_iterate_per_orbit_f32`]).
pub fn henon_iterate_per_orbit_f32(
    n: usize,
    a: &[f32],
    b: &[f32],
    xs: &mut [f32],
    ys: &mut [f32],
    steps: u64,
) {
    check_n(n);
    with_terms!(n, N => batch::per_orbit_scalar_impl::<f32, N>(
        expansions::<f32, N>(a),
        expansions::<f32, N>(b),
        expansions_mut::<f32, N>(xs),
        expansions_mut::<f32, N>(ys),
        steps,
    ))
}

/// Orbit k at (a[k], b[k]) through the scalar fast tier ([`crate::Fast`] with `henon_iterate`),
/// one orbit at a time: the reference the lane paths are checked against, and the "one orbit
/// at a time" rate of `expanse bench cpu`. Flat slices as in [`henon_iterate_per_orbit_f64`].
pub fn henon_iterate_scalar_per_orbit<T: FloatTerm>(
    n: usize,
    a: &[T],
    b: &[T],
    xs: &mut [T],
    ys: &mut [T],
    steps: u64,
) {
    T::henon_iterate_scalar_per_orbit_terms(n, a, b, xs, ys, steps)
}

/// The f64 instance of [`henon_iterate_scalar_per_orbit`] (compiled here).
pub(crate) fn scalar_per_orbit_f64(
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) {
    check_n(n);
    with_terms!(n, N => batch::per_orbit_scalar_impl::<f64, N>(
        expansions::<f64, N>(a),
        expansions::<f64, N>(b),
        expansions_mut::<f64, N>(xs),
        expansions_mut::<f64, N>(ys),
        steps,
    ))
}

/// The f32 instance of [`henon_iterate_scalar_per_orbit`] (compiled here).
pub(crate) fn scalar_per_orbit_f32(
    n: usize,
    a: &[f32],
    b: &[f32],
    xs: &mut [f32],
    ys: &mut [f32],
    steps: u64,
) {
    check_n(n);
    with_terms!(n, N => batch::per_orbit_scalar_impl::<f32, N>(
        expansions::<f32, N>(a),
        expansions::<f32, N>(b),
        expansions_mut::<f32, N>(xs),
        expansions_mut::<f32, N>(ys),
        steps,
    ))
}

/// Iterates every orbit (xs[k], ys[k]) at the one parameter pair (a, b) (each `n` terms),
/// f64 terms, at SIMD `level`: [`batch::henon_iterate_batch_f64_at`] with a run-time N. The
/// per-orbit code with (a, b) repeated for every orbit. Refuses a level this CPU lacks.
pub fn henon_iterate_batch_f64_at(
    level: SimdLevel,
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    check_n(n);
    assert!(
        a.len() == n && b.len() == n,
        "a and b must be one {n}-term expansion each"
    );
    let orbits = xs.len() / n;
    let a_all = a.repeat(orbits);
    let b_all = b.repeat(orbits);
    henon_iterate_per_orbit_f64_at(level, n, &a_all, &b_all, xs, ys, steps)
}

/// The accurate tier's Hénon iteration of every `n`-term f64 orbit in turn at (a, b) (one
/// expansion each), one orbit at a time: [`crate::henon_iterate`] on `Expansion<f64, n>`,
/// compiled once here. Panics if n is not in 1..=8 or the slices do not hold whole
/// expansions.
pub fn henon_iterate_accurate_scalar_f64(
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) {
    check_n(n);
    with_terms!(n, N => crate::accurate_batch::henon_scalar_slices::<f64, N>(a, b, xs, ys, steps))
}

/// [`with_terms`] for the batched accurate tier: `$lanes` with `const $n` for N = 3..=8, the
/// scalar `$scalar` for N = 1, 2 (the lane code exists for N ≥ 3 only, so it is not compiled
/// for N < 3).
macro_rules! with_terms_acc {
    ($value:expr, $n:ident => $lanes:expr, $scalar:expr) => {
        match $value {
            1 => {
                const $n: usize = 1;
                $scalar
            }
            2 => {
                const $n: usize = 2;
                $scalar
            }
            3 => {
                const $n: usize = 3;
                $lanes
            }
            4 => {
                const $n: usize = 4;
                $lanes
            }
            5 => {
                const $n: usize = 5;
                $lanes
            }
            6 => {
                const $n: usize = 6;
                $lanes
            }
            7 => {
                const $n: usize = 7;
                $lanes
            }
            8 => {
                const $n: usize = 8;
                $lanes
            }
            other => panic!("expansions have 1..=8 terms, not {other}"),
        }
    };
}

/// The batched accurate operation `op` ([`crate::accurate_batch`]) on `n`-term f64
/// expansions, flat slices (for the term operations `ys[k]` is operation k's term; for `Sqr`
/// `ys` is unused), on the widest SIMD this CPU has. The same results, bit for bit, as the
/// scalar [`Expansion`] operations.
pub fn accurate_op_f64(
    op: crate::accurate_batch::AccOp,
    n: usize,
    xs: &[f64],
    ys: &[f64],
    out: &mut [f64],
) {
    // The detected level is always available.
    let _ = accurate_op_f64_at(SimdLevel::detect(), op, n, xs, ys, out);
}

/// [`accurate_op_f64`] at a chosen SIMD level; refuses a level this CPU lacks.
pub fn accurate_op_f64_at(
    level: SimdLevel,
    op: crate::accurate_batch::AccOp,
    n: usize,
    xs: &[f64],
    ys: &[f64],
    out: &mut [f64],
) -> Result<(), SimdUnavailable> {
    use crate::accurate_batch as ab;
    check_n(n);
    match level {
        SimdLevel::Baseline => {
            with_terms_acc!(n, N => ab::wide::op_slices::<N>(op, xs, ys, out), ab::op_slices::<f64, N>(op, xs, ys, out));
            Ok(())
        }
        SimdLevel::Avx512 => {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: AVX-512F was detected just above.
                    with_terms_acc!(n, N => unsafe { ab::avx512::op_slices::<N>(op, xs, ys, out) }, ab::op_slices::<f64, N>(op, xs, ys, out));
                    return Ok(());
                }
            }
            Err(SimdUnavailable(level))
        }
    }
}

/// [`accurate_op_f64`] for f32 terms: the lane algorithm on one f32 per lane (the same code
/// and results; eight portable f32 lanes, `Lanes<f32, 8>`, cost about 10 s more of release
/// build for every N, for a type the CPU side rarely runs; explicit f32 SIMD lanes are left
/// for later, as for the fast tier).
pub fn accurate_op_f32(
    op: crate::accurate_batch::AccOp,
    n: usize,
    xs: &[f32],
    ys: &[f32],
    out: &mut [f32],
) {
    check_n(n);
    with_terms!(n, N => crate::accurate_batch::op_slices::<f32, N>(op, xs, ys, out))
}

/// The batched accurate Hénon iteration ([`crate::accurate_batch`]): every orbit (xs[k],
/// ys[k]) at the one parameter pair (a, b) (each `n` terms), f64 terms, at SIMD `level`. The
/// same results, bit for bit, as `henon_iterate` on `Expansion<f64, n>`. Refuses a level this
/// CPU lacks.
pub fn henon_iterate_accurate_batch_f64_at(
    level: SimdLevel,
    n: usize,
    a: &[f64],
    b: &[f64],
    xs: &mut [f64],
    ys: &mut [f64],
    steps: u64,
) -> Result<(), SimdUnavailable> {
    use crate::accurate_batch as ab;
    check_n(n);
    match level {
        SimdLevel::Baseline => {
            with_terms_acc!(n, N => ab::wide::henon_slices::<N>(a, b, xs, ys, steps), ab::henon_scalar_slices::<f64, N>(a, b, xs, ys, steps));
            Ok(())
        }
        SimdLevel::Avx512 => {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: AVX-512F was detected just above.
                    with_terms_acc!(n, N => unsafe { ab::avx512::henon_slices::<N>(a, b, xs, ys, steps) }, ab::henon_scalar_slices::<f64, N>(a, b, xs, ys, steps));
                    return Ok(());
                }
            }
            Err(SimdUnavailable(level))
        }
    }
}
