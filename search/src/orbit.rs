//! The per-orbit search algorithm: the shared contract of the CPU backend (this module) and
//! the CUDA kernels of `expanse-gpu`, which implement it operation for operation so that the
//! same inputs give bit-identical records.
//!
//! # Contract
//!
//! **Arithmetic.** The search arithmetic is the fast tier of `expanse-core` for
//! `Expansion<T, N>` (seed 001 Alg. 4/5, wrapped as [`expanse_core::Fast`]), with the Hénon
//! step in the fixed order `x2 = sqr(x); t = mul_param(x2, a); u = add_one(y); x' = sub(u, t);
//! y' = mul_param(x, b)` (`expanse_core::henon_step`, reached through
//! [`crate::map::PlanarMap::step`]). For N = 1 this is plain IEEE arithmetic on T. The
//! parameters a, b are `Expansion::from_f64` of the f64 grid values; the initial point
//! (x0, y0) is `Expansion::from_f64` of f64 values. (`Fast::mul_param` multiplies by a
//! parameter held as one machine number with `mul_term_fast`, otherwise with `mul_fast`; the
//! kernels make the same choice.)
//!
//! **Inputs.** Per orbit: a, b, x0, y0 ([`OrbitTask`]). Per run ([`OrbitJob`]): transient
//! N_t (u64), p_max (u32, ≥ 1), tol (f64, converted once to T), escape bound E (f64,
//! converted once to T; finite, positive).
//!
//! **Definitions.** `hi(z)` is the leading term. `escaped(x, y)` is
//! `!(abs(hi(x)) <= E && abs(hi(y)) <= E)` in T (NaN counts as escaped).
//! `dist(z, w) = max(abs(hi(z.x) − hi(w.x)), abs(hi(z.y) − hi(w.y)))` in T (one subtraction
//! and abs per coordinate, then max; a NaN difference makes the distance NaN).
//!
//! **Algorithm.**
//! 1. z ← (x0, y0). For s = 1..=N_t: z ← h(z); if s % 1024 == 0 or s == N_t, and
//!    escaped(z): return ESCAPED with step s. (Escape is checked only every 1024 steps and at
//!    the end of the transient; non-finite values stay non-finite, so no escape is missed,
//!    only its step is rounded up to the next check.)
//! 2. r ← z (the reference point z_{N_t}). For k = 1..=p_max: z ← h(z); if escaped(z): return
//!    ESCAPED with step N_t + k. If dist(z, r) < tol: the candidate period is k; go to 3. If
//!    no k: return NO_CYCLE (steps N_t + p_max).
//! 3. Confirmation over one further full period, from the current z (= z_{N_t+k}): c ← z;
//!    canonical point m ← c (the cycle point with the smallest hi(x); ties keep the earlier);
//!    trace estimate M ← identity (2×2, f64). For i = 0..k−1: with the current z (before
//!    stepping) update M ← J(z)·M, J = [[−2·ahi·xhi, 1], [bhi, 0]] in f64 from ahi = hi(a),
//!    bhi = hi(b), xhi = hi(z.x) as f64: `j00 = (-2.0 * ahi) * xhi`, then
//!    `n00 = j00*m00 + m10; n01 = j00*m01 + m11; n10 = bhi*m00; n11 = bhi*m01` (no FMA);
//!    if i > 0 and hi(z.x) < hi(m.x): m ← z; then z ← h(z); if escaped(z): return ESCAPED
//!    with step N_t + k + i + 1.
//!    After the loop, residual ← dist(z, c) as f64. If !(dist(z, c) < tol) (compared in T,
//!    like step 2): return UNCONFIRMED (period k, residual, steps N_t + 2k). Otherwise return
//!    CYCLE with period k, the canonical point m (all N terms of x and y), residual,
//!    trace = n00 + n11 of the final M (f64), det = (−bhi)^k computed as repeated
//!    multiplication `d = d * (−bhi)` in f64 from d = 1.0, and steps N_t + 2k.
//!
//! **Record** ([`OrbitRecord`], plain data, crate-independent): status, steps (u64), period
//! (u32, 0 if none), residual (f64, NaN if none), trace and det (f64, NaN unless CYCLE), x and
//! y terms (each term widened exactly to f64; zeros unless CYCLE).
//!
//! The attracting test the search reports is |trace| < 1 + det; it is an estimate, the proof
//! decides.
//!
//! **Limb precision** (`--prec NNNb`, [`OrbitJob::limb_bits`]): the same algorithm with the
//! map in correctly rounded NNN-bit arithmetic and hi(z) = z rounded to the nearest f64; its
//! statement, CPU reference and CUDA twin are in `expanse_gpu::henon_limb`, reached through
//! [`crate::limb`]. Its records carry the canonical point as its nearest 8-term expansion.
//!
//! # Throughput
//!
//! The transient (the bulk of the work) runs several independent orbits together in one
//! thread ([`run_lanes`]): their terms sit in SIMD lanes (`expanse_core::batch`, reached
//! through `FloatTerm::henon_iterate_per_orbit`), and each orbit's arithmetic is unchanged
//! (bit-identical to one at a time). The CPU backend runs `backend::cpu_lanes` orbits per
//! thread item.

use crate::map::{Henon, PlanarMap};
use expanse_core::{Expansion, Fast, FloatTerm};

/// Outcome of one orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum OrbitStatus {
    /// The orbit left the box |x|, |y| ≤ E (or became non-finite).
    Escaped = 0,
    /// No close return within p_max steps after the transient.
    NoCycle = 1,
    /// A close return was found but not confirmed over a second period.
    Unconfirmed = 2,
    /// A confirmed cycle.
    Cycle = 3,
}

/// Per-run settings of the orbit algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitJob {
    /// Transient length N_t.
    pub transient: u64,
    /// Largest period looked for (≥ 1).
    pub pmax: u32,
    /// Return tolerance (converted once to T).
    pub tol: f64,
    /// Escape bound E (converted once to T).
    pub escape: f64,
    /// Number of terms N (1..=8). With `limb_bits` set: 8, the terms of the nearest
    /// expansion a record carries.
    pub terms: usize,
    /// Term type T (`F64` with `limb_bits`).
    pub base: Base,
    /// `Some(p)`: the search arithmetic is the p-bit fixed-limb float (`--prec NNNb`, p in
    /// 64..=4096) instead of an expansion; the contract is `expanse_gpu::henon_limb`'s
    /// (this one with hi(z) = z rounded to the nearest f64), run by [`crate::limb`].
    pub limb_bits: Option<u32>,
}

/// The term type of the search arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// IEEE binary64 terms.
    F64,
    /// IEEE binary32 terms.
    F32,
}

impl Base {
    /// `"f64"` or `"f32"`.
    pub fn name(self) -> &'static str {
        match self {
            Base::F64 => "f64",
            Base::F32 => "f32",
        }
    }
}

/// Inputs of one orbit (all f64; converted with `Expansion::from_f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitTask {
    /// Parameter a.
    pub a: f64,
    /// Parameter b.
    pub b: f64,
    /// Initial x.
    pub x0: f64,
    /// Initial y.
    pub y0: f64,
}

/// Result of one orbit (plain data, identical from every backend).
#[derive(Clone, Copy, Debug)]
pub struct OrbitRecord {
    /// Outcome.
    pub status: OrbitStatus,
    /// Map steps taken (see the contract for each status).
    pub steps: u64,
    /// Detected period (0 if none).
    pub period: u32,
    /// Return distance of the confirmation (NaN if none).
    pub residual: f64,
    /// Trace estimate of D h^k along the cycle (NaN unless CYCLE).
    pub trace: f64,
    /// (−b)^k (NaN unless CYCLE).
    pub det: f64,
    /// Terms of x of the canonical cycle point, widened to f64 (first N used; zeros unless
    /// CYCLE).
    pub x: [f64; 8],
    /// Terms of y of the canonical cycle point.
    pub y: [f64; 8],
}

impl OrbitRecord {
    fn empty(status: OrbitStatus, steps: u64) -> Self {
        Self {
            status,
            steps,
            period: 0,
            residual: f64::NAN,
            trace: f64::NAN,
            det: f64::NAN,
            x: [0.0; 8],
            y: [0.0; 8],
        }
    }

    /// True when both records are the same bit for bit (NaNs compared by bits).
    pub fn bit_identical(&self, other: &Self) -> bool {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        self.status == other.status
            && self.steps == other.steps
            && self.period == other.period
            && same(self.residual, other.residual)
            && same(self.trace, other.trace)
            && same(self.det, other.det)
            && self.x.iter().zip(other.x.iter()).all(|(a, b)| same(*a, *b))
            && self.y.iter().zip(other.y.iter()).all(|(a, b)| same(*a, *b))
    }
}

/// Default lockstep width of [`run_orbits`].
pub const LANES: usize = 4;

/// How often (in steps) the transient checks for escape.
pub const ESCAPE_CHECK_INTERVAL: u64 = 1024;

type Point<T, const N: usize> = (Fast<T, N>, Fast<T, N>);

#[inline(always)]
fn escaped<T: FloatTerm, const N: usize>(z: &Point<T, N>, e: T) -> bool {
    !(z.0 .0.hi().abs() <= e && z.1 .0.hi().abs() <= e)
}

#[inline(always)]
fn dist<T: FloatTerm, const N: usize>(z: &Point<T, N>, w: &Point<T, N>) -> T {
    let dx = (z.0 .0.hi() - w.0 .0.hi()).abs();
    let dy = (z.1 .0.hi() - w.1 .0.hi()).abs();
    // Both points always passed `escaped` first, so both differences are finite here.
    if dx >= dy {
        dx
    } else {
        dy
    }
}

/// Runs the contract on one orbit (no lockstep): the reference implementation.
pub fn run_orbit<T: FloatTerm, const N: usize>(job: &OrbitJob, task: &OrbitTask) -> OrbitRecord {
    let mut out = [OrbitRecord::empty(OrbitStatus::NoCycle, 0)];
    run_lanes::<T, N, 1>(job, std::slice::from_ref(task), &mut out);
    out[0]
}

/// Runs the contract on up to `L` orbits, their transients in lockstep. `tasks.len()` ≤ L,
/// `out.len() == tasks.len()`.
pub fn run_lanes<T: FloatTerm, const N: usize, const L: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    debug_assert!(tasks.len() <= L && out.len() == tasks.len());
    let e = T::from_f64(job.escape);
    let n = tasks.len();
    let mut a = [Expansion::<T, N>::zero(); L];
    let mut b = [Expansion::<T, N>::zero(); L];
    let mut xs = [Expansion::<T, N>::zero(); L];
    let mut ys = [Expansion::<T, N>::zero(); L];
    for (l, t) in tasks.iter().enumerate() {
        a[l] = Expansion::from_f64(t.a);
        b[l] = Expansion::from_f64(t.b);
        xs[l] = Expansion::from_f64(t.x0);
        ys[l] = Expansion::from_f64(t.y0);
    }
    let mut alive = [false; L];
    alive[..n].fill(true);
    // Step 1: transient, escape checked at multiples of 1024 and at N_t. The L orbits are
    // iterated together on SIMD lanes (`henon_iterate_per_orbit`: the same results, bit for
    // bit, as one orbit at a time).
    let nt = job.transient;
    let mut s = 0u64;
    while s < nt {
        let block = (ESCAPE_CHECK_INTERVAL - s % ESCAPE_CHECK_INTERVAL).min(nt - s);
        T::henon_iterate_per_orbit::<N>(&a[..n], &b[..n], &mut xs[..n], &mut ys[..n], block);
        s += block;
        let mut any = false;
        for l in 0..n {
            if alive[l] && escaped(&(Fast(xs[l]), Fast(ys[l])), e) {
                out[l] = OrbitRecord::empty(OrbitStatus::Escaped, s);
                alive[l] = false;
            }
            any |= alive[l];
        }
        if !any {
            return;
        }
    }
    let z: [Point<T, N>; L] = core::array::from_fn(|l| (Fast(xs[l]), Fast(ys[l])));
    for l in 0..n {
        if alive[l] {
            out[l] = after_transient::<T, N>(job, &a[l], &b[l], z[l], e);
        }
    }
}

/// Steps 2 and 3 of the contract, from z = z_{N_t}.
// `!(d < tol)` is deliberate: a NaN distance must fail the test (the contract's wording).
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn after_transient<T: FloatTerm, const N: usize>(
    job: &OrbitJob,
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    mut z: Point<T, N>,
    e: T,
) -> OrbitRecord {
    let tol = T::from_f64(job.tol);
    let nt = job.transient;
    let step = |z: &Point<T, N>| Henon.step(a, b, &z.0, &z.1);
    // Step 2: the smallest k ≤ p_max with a close return to r = z_{N_t}.
    let r = z;
    let mut period = 0u32;
    for k in 1..=job.pmax {
        z = step(&z);
        if escaped(&z, e) {
            return OrbitRecord::empty(OrbitStatus::Escaped, nt + k as u64);
        }
        if dist(&z, &r) < tol {
            period = k;
            break;
        }
    }
    if period == 0 {
        return OrbitRecord::empty(OrbitStatus::NoCycle, nt + job.pmax as u64);
    }
    // Step 3: confirmation over one more period, with the canonical point and the trace.
    let k = period;
    let c = z;
    let mut m = c;
    let ahi = a.hi().to_f64();
    let bhi = b.hi().to_f64();
    let (mut m00, mut m01, mut m10, mut m11) = (1.0f64, 0.0f64, 0.0f64, 1.0f64);
    for i in 0..k {
        let xhi = z.0 .0.hi().to_f64();
        let j00 = (-2.0 * ahi) * xhi;
        let n00 = j00 * m00 + m10;
        let n01 = j00 * m01 + m11;
        let n10 = bhi * m00;
        let n11 = bhi * m01;
        (m00, m01, m10, m11) = (n00, n01, n10, n11);
        if i > 0 && z.0 .0.hi() < m.0 .0.hi() {
            m = z;
        }
        z = step(&z);
        if escaped(&z, e) {
            return OrbitRecord::empty(OrbitStatus::Escaped, nt + k as u64 + i as u64 + 1);
        }
    }
    let d = dist(&z, &c);
    let residual = d.to_f64();
    let steps = nt + 2 * k as u64;
    if !(d < tol) {
        let mut rec = OrbitRecord::empty(OrbitStatus::Unconfirmed, steps);
        rec.period = k;
        rec.residual = residual;
        return rec;
    }
    let mut det = 1.0f64;
    for _ in 0..k {
        det *= -bhi;
    }
    let mut rec = OrbitRecord::empty(OrbitStatus::Cycle, steps);
    rec.period = k;
    rec.residual = residual;
    rec.trace = m00 + m11;
    rec.det = det;
    for (i, t) in m.0 .0.terms().iter().enumerate() {
        rec.x[i] = t.to_f64();
    }
    for (i, t) in m.1 .0.terms().iter().enumerate() {
        rec.y[i] = t.to_f64();
    }
    rec
}

/// Runs the contract on every task, `LANES` at a time, in the calling thread.
pub fn run_orbits<T: FloatTerm, const N: usize>(
    job: &OrbitJob,
    tasks: &[OrbitTask],
    out: &mut [OrbitRecord],
) {
    for (t, o) in tasks.chunks(LANES).zip(out.chunks_mut(LANES)) {
        run_lanes::<T, N, LANES>(job, t, o);
    }
}

/// A blank record to fill (status NoCycle, zero steps).
pub fn blank_record() -> OrbitRecord {
    OrbitRecord::empty(OrbitStatus::NoCycle, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(terms: usize) -> OrbitJob {
        OrbitJob {
            transient: 3000,
            pmax: 64,
            tol: 1e-10,
            escape: 1e3,
            terms,
            base: Base::F64,
            limb_bits: None,
        }
    }

    #[test]
    fn lockstep_equals_one_at_a_time() {
        let tasks: Vec<OrbitTask> = (0..7)
            .map(|i| OrbitTask {
                a: [1.0, 1.25, 1.4, 2.0][i % 4],
                b: 0.3,
                x0: 0.1 * i as f64 - 0.3,
                y0: 0.05 * i as f64,
            })
            .collect();
        let mut j = job(2);
        j.transient = 2500; // not a multiple of 1024
        let mut out = vec![blank_record(); tasks.len()];
        run_orbits::<f64, 2>(&j, &tasks, &mut out);
        for (t, o) in tasks.iter().zip(out.iter()) {
            assert!(o.bit_identical(&run_orbit::<f64, 2>(&j, t)));
        }
    }

    #[test]
    fn fixed_point_is_period_one_with_exact_trace() {
        // a = 0.3, b = 0.3 has an attracting fixed point x* = (b−1+√((1−b)²+4a))/(2a);
        // the trace of J there is −2·a·x*.
        let (a, b) = (0.3f64, 0.3f64);
        let xs = ((b - 1.0) + ((1.0 - b) * (1.0 - b) + 4.0 * a).sqrt()) / (2.0 * a);
        let rec = run_orbit::<f64, 1>(
            &job(1),
            &OrbitTask {
                a,
                b,
                x0: 0.0,
                y0: 0.0,
            },
        );
        assert_eq!(rec.status, OrbitStatus::Cycle);
        assert_eq!(rec.period, 1);
        assert!((rec.x[0] - xs).abs() < 1e-12);
        assert!((rec.trace + 2.0 * a * xs).abs() < 1e-12);
        assert_eq!(rec.det, -0.3);
        assert_eq!(rec.steps, 3002);
    }

    #[test]
    fn escape_step_is_rounded_up_to_the_check() {
        let rec = run_orbit::<f64, 1>(
            &job(1),
            &OrbitTask {
                a: 2.0,
                b: 0.3,
                x0: 5.0,
                y0: 0.0,
            },
        );
        assert_eq!(rec.status, OrbitStatus::Escaped);
        assert_eq!(rec.steps, 1024);
        let mut j = job(1);
        j.transient = 0;
        let rec = run_orbit::<f64, 1>(
            &j,
            &OrbitTask {
                a: 2.0,
                b: 0.3,
                x0: 5.0,
                y0: 0.0,
            },
        );
        // x1 = 1 − 50 = −49, x2 = 1 + 1.5 − 2·49² < −1000: escapes at the second step.
        assert_eq!((rec.status, rec.steps), (OrbitStatus::Escaped, 2));
    }
}
