//! The per-orbit search contract shared by the CPU backend (`expanse-search`) and the GPU
//! kernels, as plain data, and its CPU reference implementation.
//!
//! For one parameter (a, b) and one initial point: iterate `transient` steps (escape checked
//! every 1024 steps and at the end), look for the first close return k ≤ `pmax` to the point
//! z_{N_t}, confirm it over one further period while accumulating the Jacobian product (in
//! f64, from the leading terms) and tracking the point of the cycle with the smallest x, and
//! return an [`OrbitRecord`]. The exact statement, operation by operation, is in the
//! documentation of [`reference_orbit`]; `cuda/orbits.cu` repeats it, and `expanse bench gpu
//! --check` proves that GPU and CPU records agree bit for bit. The arithmetic is the search
//! arithmetic of `expanse-core` ([`expanse_core::Fast`]).

use expanse_core::{henon_step, Expansion, Fast, FloatTerm};

/// How one orbit ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum OrbitStatus {
    /// Left the box |x|, |y| ≤ escape (or became non-finite).
    Escaped = 0,
    /// No close return within `pmax` steps after the transient.
    NoCycle = 1,
    /// A close return was found but the next period did not return within `tol`.
    Unconfirmed = 2,
    /// A confirmed numerical cycle.
    Cycle = 3,
}

impl OrbitStatus {
    /// The status with the kernel's numeric code, if it is one.
    pub fn from_code(c: u32) -> Option<Self> {
        match c {
            0 => Some(Self::Escaped),
            1 => Some(Self::NoCycle),
            2 => Some(Self::Unconfirmed),
            3 => Some(Self::Cycle),
            _ => None,
        }
    }
    /// Short lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Escaped => "escaped",
            Self::NoCycle => "no-cycle",
            Self::Unconfirmed => "unconfirmed",
            Self::Cycle => "cycle",
        }
    }
}

/// The per-run settings of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// Transient steps N_t.
    pub transient: u64,
    /// Longest period looked for (≥ 1).
    pub pmax: u32,
    /// Close-return tolerance (converted once to the term type).
    pub tol: f64,
    /// Escape bound E on |hi(x)| and |hi(y)| (converted once to the term type).
    pub escape: f64,
}

/// The result of one orbit (plain data; the search crate converts it to its own types).
#[derive(Clone, Copy, Debug)]
pub struct OrbitRecord<T: FloatTerm, const N: usize> {
    /// How the orbit ended.
    pub status: OrbitStatus,
    /// Steps iterated (for an escape: the step at which it was detected).
    pub steps: u64,
    /// Candidate period (0 if none).
    pub period: u32,
    /// Return distance of the confirmation (NaN if none).
    pub residual: f64,
    /// Estimate of tr Dh^k along the cycle (NaN unless `Cycle`).
    pub trace: f64,
    /// (−b)^k (NaN unless `Cycle`).
    pub det: f64,
    /// x terms of the canonical cycle point (zeros unless `Cycle`).
    pub x: [T; N],
    /// y terms of the canonical cycle point (zeros unless `Cycle`).
    pub y: [T; N],
}

impl<T: FloatTerm, const N: usize> OrbitRecord<T, N> {
    /// A record with the given status and steps, and no cycle data.
    pub fn empty(status: OrbitStatus, steps: u64) -> Self {
        Self {
            status,
            steps,
            period: 0,
            residual: f64::NAN,
            trace: f64::NAN,
            det: f64::NAN,
            x: [T::ZERO; N],
            y: [T::ZERO; N],
        }
    }

    /// Bit-for-bit equality of every field (NaN equals NaN with the same bits).
    pub fn bit_eq(&self, o: &Self) -> bool {
        self.status == o.status
            && self.steps == o.steps
            && self.period == o.period
            && self.residual.to_bits() == o.residual.to_bits()
            && self.trace.to_bits() == o.trace.to_bits()
            && self.det.to_bits() == o.det.to_bits()
            && self
                .x
                .iter()
                .zip(o.x.iter())
                .all(|(a, b)| a.to_bits_u64() == b.to_bits_u64())
            && self
                .y
                .iter()
                .zip(o.y.iter())
                .all(|(a, b)| a.to_bits_u64() == b.to_bits_u64())
    }

    /// The attracting test of the search, |trace| < 1 + det (an estimate; the proof decides).
    pub fn looks_attracting(&self) -> bool {
        self.status == OrbitStatus::Cycle && self.trace.abs() < 1.0 + self.det
    }
}

#[inline(always)]
fn escaped<T: FloatTerm, const N: usize>(x: &Fast<T, N>, y: &Fast<T, N>, e: T) -> bool {
    !(x.0.hi().abs() <= e && y.0.hi().abs() <= e)
}

#[inline(always)]
fn dist<T: FloatTerm, const N: usize>(
    x: &Fast<T, N>,
    y: &Fast<T, N>,
    rx: &Fast<T, N>,
    ry: &Fast<T, N>,
) -> T {
    let dx = (x.0.hi() - rx.0.hi()).abs();
    let dy = (y.0.hi() - ry.0.hi()).abs();
    // IEEE maxNum, as CUDA's fmax (both operands are finite here in any case).
    if dx.is_nan() || (!dy.is_nan() && dy > dx) {
        dy
    } else {
        dx
    }
}

/// The contract, on the CPU, in the search arithmetic. Operation by operation:
///
/// 1. z ← (x0, y0). For s = 1..=N_t: z ← h(z); if s % 1024 == 0 or s == N_t, and
///    escaped(z) = !(|hi(x)| ≤ E && |hi(y)| ≤ E) in T: `Escaped` at step s.
/// 2. r ← z. For k = 1..=pmax: z ← h(z); if escaped: `Escaped` at N_t + k; if
///    dist(z, r) = max(|hi(x) − hi(rx)|, |hi(y) − hi(ry)|) (in T) < tol: period k, go to 3.
///    None: `NoCycle` with steps N_t + pmax.
/// 3. c ← z, m ← z, M ← I (f64). For i in 0..k: with xhi = hi(z.x) as f64,
///    j00 = (−2·ahi)·xhi; M ← [[j00·m00 + m10, j00·m01 + m11], [bhi·m00, bhi·m01]] (no FMA);
///    if i > 0 and hi(z.x) < hi(m.x): m ← z; z ← h(z); if escaped: `Escaped` at N_t + k + i + 1.
///    residual = dist(z, c) (in T, then as f64). If !(residual < tol) (in T): `Unconfirmed`
///    (period k, residual, steps N_t + 2k). Else `Cycle`: period k, m, residual,
///    trace = m00 + m11, det = (−bhi)^k by repeated multiplication from 1.0, steps N_t + 2k.
pub fn reference_orbit<T: FloatTerm, const N: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    x0: &Expansion<T, N>,
    y0: &Expansion<T, N>,
    s: &SearchSettings,
) -> OrbitRecord<T, N> {
    let tol = T::from_f64(s.tol);
    let esc = T::from_f64(s.escape);
    let (mut x, mut y) = (Fast(*x0), Fast(*y0));
    let nt = s.transient;
    for step in 1..=nt {
        let (nx, ny) = henon_step(a, b, &x, &y);
        x = nx;
        y = ny;
        if (step % 1024 == 0 || step == nt) && escaped(&x, &y, esc) {
            return OrbitRecord::empty(OrbitStatus::Escaped, step);
        }
    }
    let (rx, ry) = (x, y);
    let mut period = 0u32;
    for k in 1..=s.pmax {
        let (nx, ny) = henon_step(a, b, &x, &y);
        x = nx;
        y = ny;
        if escaped(&x, &y, esc) {
            return OrbitRecord::empty(OrbitStatus::Escaped, nt + k as u64);
        }
        if dist(&x, &y, &rx, &ry) < tol {
            period = k;
            break;
        }
    }
    if period == 0 {
        return OrbitRecord::empty(OrbitStatus::NoCycle, nt + s.pmax as u64);
    }
    let k = period;
    let (cx, cy) = (x, y);
    let (mut mx, mut my) = (x, y);
    let ahi = a.hi().to_f64();
    let bhi = b.hi().to_f64();
    let (mut m00, mut m01, mut m10, mut m11) = (1.0f64, 0.0f64, 0.0f64, 1.0f64);
    for i in 0..k {
        let xhi = x.0.hi().to_f64();
        let j00 = (-2.0 * ahi) * xhi;
        let n00 = j00 * m00 + m10;
        let n01 = j00 * m01 + m11;
        let n10 = bhi * m00;
        let n11 = bhi * m01;
        (m00, m01, m10, m11) = (n00, n01, n10, n11);
        if i > 0 && x.0.hi() < mx.0.hi() {
            mx = x;
            my = y;
        }
        let (nx, ny) = henon_step(a, b, &x, &y);
        x = nx;
        y = ny;
        if escaped(&x, &y, esc) {
            return OrbitRecord::empty(OrbitStatus::Escaped, nt + k as u64 + i as u64 + 1);
        }
    }
    let res = dist(&x, &y, &cx, &cy);
    let steps = nt + 2 * k as u64;
    if !(res < tol) {
        let mut r = OrbitRecord::empty(OrbitStatus::Unconfirmed, steps);
        r.period = k;
        r.residual = res.to_f64();
        return r;
    }
    let mut det = 1.0f64;
    for _ in 0..k {
        det *= -bhi;
    }
    OrbitRecord {
        status: OrbitStatus::Cycle,
        steps,
        period: k,
        residual: res.to_f64(),
        trace: m00 + m11,
        det,
        x: *mx.0.terms(),
        y: *my.0.terms(),
    }
}

/// A batch of orbits: every parameter pair `(a[p], b[p])` with every initial point
/// `(x0[i], y0[i])`; orbit g = p · n_init + i. Initial points are given as f64 values and
/// converted with [`Expansion::from_f64`].
#[derive(Clone, Debug)]
pub struct OrbitBatch<T: FloatTerm, const N: usize> {
    /// Parameter a of each parameter pair.
    pub a: Vec<Expansion<T, N>>,
    /// Parameter b of each parameter pair (same length as `a`).
    pub b: Vec<Expansion<T, N>>,
    /// Initial x of each initial point.
    pub x0: Vec<f64>,
    /// Initial y of each initial point (same length as `x0`).
    pub y0: Vec<f64>,
    /// Per-run settings.
    pub settings: SearchSettings,
}

impl<T: FloatTerm, const N: usize> OrbitBatch<T, N> {
    /// Number of orbits, a.len() · x0.len().
    pub fn len(&self) -> u64 {
        self.a.len() as u64 * self.x0.len() as u64
    }
    /// True when the batch holds no orbit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Orbit g's parameter index and initial-point index.
    pub fn split_index(&self, g: u64) -> (usize, usize) {
        let n = self.x0.len() as u64;
        ((g / n) as usize, (g % n) as usize)
    }
}

/// Runs the contract on the CPU for orbits `range` of `batch`, in `threads` pieces on all
/// cores (rayon's pool; the oracle of the device check).
pub fn reference_batch<T: FloatTerm, const N: usize>(
    batch: &OrbitBatch<T, N>,
    range: core::ops::Range<u64>,
    threads: usize,
) -> Vec<OrbitRecord<T, N>> {
    let len = (range.end - range.start) as usize;
    let mut out = vec![OrbitRecord::empty(OrbitStatus::NoCycle, 0); len];
    let threads = threads.clamp(1, 256);
    let chunk = len.div_ceil(threads).max(1);
    crate::par::for_each_chunk(&mut out, chunk, |c, slot| {
        let start = range.start + (c * chunk) as u64;
        for (j, r) in slot.iter_mut().enumerate() {
            let (p, i) = batch.split_index(start + j as u64);
            *r = reference_orbit(
                &batch.a[p],
                &batch.b[p],
                &Expansion::from_f64(batch.x0[i]),
                &Expansion::from_f64(batch.y0[i]),
                &batch.settings,
            );
        }
    });
    out
}

/// A batch that exercises every branch of the contract, for the CPU/GPU identity check: sinks
/// of period 4 (a = 1.0) and 7 (a = 1.25, both b = 0.3; MATH.md §5), the chaotic classical
/// parameters (no cycle), a parameter held as two terms when N ≥ 2 (so the general
/// multiplication runs next to the one-term path), b ≠ 0.3, a parameter grid across
/// [1.0, 1.42], and initial points inside the basin and far outside it (escapes).
/// `transient` is deliberately not a multiple of 1024 so the end-of-transient check runs.
pub fn check_batch<T: FloatTerm, const N: usize>(
    n_param: usize,
    n_init: usize,
    transient: u64,
    pmax: u32,
) -> OrbitBatch<T, N> {
    let mut a = Vec::new();
    let mut b = Vec::new();
    let fixed = [(1.0, 0.3), (1.25, 0.3), (1.4, 0.3), (1.4, 0.2999999774905)];
    for p in 0..n_param {
        let (av, bv) = if p < fixed.len() {
            fixed[p]
        } else {
            (1.0 + 0.42 * (p - fixed.len()) as f64 / n_param as f64, 0.3)
        };
        let mut ae = Expansion::<T, N>::from_f64(av);
        if p == 1 && N >= 2 {
            // 1.25 + 2^-60 (f64 terms) or the f32 split of 1.25 plus 2^-30: two terms.
            let mut t = [T::ZERO; N];
            t[0] = T::from_f64(1.25);
            t[1] = T::from_f64(if T::PRECISION == 53 {
                2f64.powi(-60)
            } else {
                2f64.powi(-30)
            });
            ae = Expansion::from_terms(t);
        }
        a.push(ae);
        b.push(Expansion::<T, N>::from_f64(bv));
    }
    let mut x0 = Vec::new();
    let mut y0 = Vec::new();
    for i in 0..n_init {
        if i % 7 == 6 {
            x0.push(3.0 + i as f64);
            y0.push(-2.0);
        } else {
            let u = (i as f64 + 0.5) / n_init as f64;
            x0.push(-1.0 + 2.0 * u);
            y0.push(0.3 * (1.0 - 2.0 * u) * 0.5);
        }
    }
    let tol = if T::PRECISION == 53 { 1e-9 } else { 1e-4 };
    OrbitBatch {
        a,
        b,
        x0,
        y0,
        settings: SearchSettings {
            transient,
            pmax,
            tol,
            escape: 1e3,
        },
    }
}
