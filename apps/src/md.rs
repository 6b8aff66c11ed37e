//! Molecular dynamics in quasi double precision (seed 003, Narumi et al.): Lennard-Jones
//! particles in a periodic cubic box, velocity Verlet, in f32, in Narumi's quasi double on
//! f32 pairs ([`expanse_core::quasi`]) and in f64, against a reference run in double-double.
//!
//! **System.** N = 4k³ particles on an fcc lattice of constant a = 1.75 (density 0.746, box
//! L = 1.75·k, exact in every format), reduced units (ε = σ = m = 1), velocities from a seeded
//! generator, centred and scaled to temperature 1 in f64, then rounded to f32 so that every
//! format starts from the same state. Time step dt = 2^−8 (exact).
//!
//! **Potential.** Lennard-Jones V(s) = 4(s^−6 − s^−3) in s = r², cut at r_c = 2.5 and shifted
//! in s: V_c(s) = V(s) − V(s_c) − (s − s_c)·V′(s_c). Its force F = 2·d·(V′(s_c) − V′(s)) goes
//! continuously to zero at the cut-off and needs no square root, only 1/s.
//!
//! **Arithmetic.** One generic step over [`MdReal`]: f32 and f64 with IEEE operations; quasi
//! double with seed 003's `mul_f12`, `add_f1`, `sub_f1` in the force loop, the state updates
//! renormalised (Fast2Sum) so their low words do not grow, and 1/s by one Newton step from the
//! f32 reciprocal; dd with the fast tier and the accurate tier's reciprocal.
//!
//! **Fixed order.** The force on particle i is the sum over j = 0..N−1 (j ≠ i) in index order,
//! each pair evaluated from i's side (so the force on i never depends on how particles are
//! split among threads); particles are distributed over threads by rayon. Energies are summed
//! in index order. Results are bit-identical for any thread count (checked).
//!
//! **Known answers.** (1) Energy conservation: the relative drift |E(t) − E(0)|/|E(0)|, its
//! maximum over the run. (2) The trajectory's deviation from the dd run (same initial state,
//! same algorithm): max over particles of |x − x_dd| (minimum image) at the end. The check:
//! quasi double stays within a factor [`QUASI_FACTOR`] of f64's deviation while f32's is at
//! least 10^4 times f64's, and every run is identical on 1 thread and on all threads.
//!
//! **GPU.** [`run_gpu`] runs the same step as CUDA kernels (`expanse_gpu::apps::md`, one thread
//! per particle summing over j in index order: the CPU's order, operation for operation); the
//! energies are summed on the host from the device's per-particle energies by [`energy_sum`],
//! as on the CPU. [`report`] with a GPU runs the full system there and checks that a CPU run of
//! the same system (fewer steps) gives bit-identical states and energies.

use crate::cli::Report;
use expanse_core::eft::fast_two_sum;
use expanse_core::quasi::{add_f1, mul_f12, sub_f1};
use expanse_core::{DoubleDouble, FloatTerm};
use expanse_gpu::apps::md::MdGpu;
use expanse_gpu::{GpuContext, GpuError, GpuTerm};
use rayon::prelude::*;
use std::time::Instant;

/// Quasi double's deviation may be at most this factor times f64's.
pub const QUASI_FACTOR: f64 = 1000.0;

/// Lattice constant (exact).
pub const LATTICE: f64 = 1.75;
/// Cut-off squared.
pub const RC2: f64 = 6.25;
/// Time step 2^-8.
pub const DT: f64 = 1.0 / 256.0;

/// A real format of the simulation.
pub trait MdReal: Copy + Send + Sync + 'static {
    /// Short name.
    const NAME: &'static str;
    /// Nearest value of an f64.
    fn from_f64(v: f64) -> Self;
    /// Nearest f64.
    fn to_f64(self) -> f64;
    /// Addition inside an expression.
    fn add(self, o: Self) -> Self;
    /// Subtraction.
    fn sub(self, o: Self) -> Self;
    /// Multiplication.
    fn mul(self, o: Self) -> Self;
    /// 1/self.
    fn recip(self) -> Self;
    /// Addition into a state variable (renormalised where the format needs it).
    fn acc(self, o: Self) -> Self {
        self.add(o)
    }
    /// The term type on the GPU.
    type Term: GpuTerm;
    /// Terms per value on the GPU (1: f32, f64; 2: quasi double (hi, lo), dd).
    const TERMS: usize;
    /// The terms (the first [`Self::TERMS`] are used).
    fn terms(self) -> [Self::Term; 2];
    /// The value of terms written by the GPU.
    fn from_terms(t: [Self::Term; 2]) -> Self;
}

impl MdReal for f32 {
    const NAME: &'static str = "f32";
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn recip(self) -> Self {
        1.0 / self
    }
    type Term = f32;
    const TERMS: usize = 1;
    fn terms(self) -> [f32; 2] {
        [self, 0.0]
    }
    fn from_terms(t: [f32; 2]) -> Self {
        t[0]
    }
}

impl MdReal for f64 {
    const NAME: &'static str = "f64";
    fn from_f64(v: f64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn sub(self, o: Self) -> Self {
        self - o
    }
    fn mul(self, o: Self) -> Self {
        self * o
    }
    fn recip(self) -> Self {
        1.0 / self
    }
    type Term = f64;
    const TERMS: usize = 1;
    fn terms(self) -> [f64; 2] {
        [self, 0.0]
    }
    fn from_terms(t: [f64; 2]) -> Self {
        t[0]
    }
}

/// Narumi's quasi double: a pair of f32 (hi, lo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quasi(pub (f32, f32));

impl MdReal for Quasi {
    const NAME: &'static str = "quasi-double";
    fn from_f64(v: f64) -> Self {
        let hi = v as f32;
        Quasi((hi, (v - f64::from(hi)) as f32))
    }
    fn to_f64(self) -> f64 {
        f64::from(self.0 .0) + f64::from(self.0 .1)
    }
    fn add(self, o: Self) -> Self {
        Quasi(add_f1(self.0, o.0))
    }
    fn sub(self, o: Self) -> Self {
        Quasi(sub_f1(self.0, o.0))
    }
    fn mul(self, o: Self) -> Self {
        Quasi(mul_f12(self.0, o.0))
    }
    fn recip(self) -> Self {
        // y0 = 1/hi in f32, then y = y0 + y0·(1 − a·y0): one Newton step doubles the bits.
        let y0 = (1.0 / self.0 .0, 0.0);
        let e = sub_f1((1.0, 0.0), mul_f12(self.0, y0));
        Quasi(add_f1(y0, mul_f12(y0, e)))
    }
    fn acc(self, o: Self) -> Self {
        let (h, l) = add_f1(self.0, o.0);
        Quasi(fast_two_sum(h, l))
    }
    type Term = f32;
    const TERMS: usize = 2;
    fn terms(self) -> [f32; 2] {
        [self.0 .0, self.0 .1]
    }
    fn from_terms(t: [f32; 2]) -> Self {
        Quasi((t[0], t[1]))
    }
}

impl MdReal for DoubleDouble {
    const NAME: &'static str = "dd";
    fn from_f64(v: f64) -> Self {
        DoubleDouble::from_term(v)
    }
    fn to_f64(self) -> f64 {
        DoubleDouble::to_f64(&self)
    }
    fn add(self, o: Self) -> Self {
        self.add_fast(&o)
    }
    fn sub(self, o: Self) -> Self {
        self.sub_fast(&o)
    }
    fn mul(self, o: Self) -> Self {
        self.mul_fast(&o)
    }
    fn recip(self) -> Self {
        DoubleDouble::recip(&self)
    }
    type Term = f64;
    const TERMS: usize = 2;
    fn terms(self) -> [f64; 2] {
        *DoubleDouble::terms(&self)
    }
    fn from_terms(t: [f64; 2]) -> Self {
        expanse_gpu::functions::expansion_from_device(t)
    }
}

/// A 3-vector.
pub type V3<R> = [R; 3];

/// The state of a run.
#[derive(Clone, Debug)]
pub struct State<R> {
    /// Box edge.
    pub l: f64,
    /// Positions in [0, L).
    pub x: Vec<V3<R>>,
    /// Velocities.
    pub v: Vec<V3<R>>,
    /// Forces at x.
    pub f: Vec<V3<R>>,
    /// Time step (exact in every format: a power of 2).
    pub dt: f64,
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The initial state (as f64 values exactly representable in f32): fcc lattice of k³ cells,
/// seeded velocities at temperature 1 with zero mean (before rounding).
pub fn initial(k: usize, seed: u64) -> (f64, Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let basis = [
        [0.0, 0.0, 0.0],
        [0.5, 0.5, 0.0],
        [0.5, 0.0, 0.5],
        [0.0, 0.5, 0.5],
    ];
    let mut x = Vec::with_capacity(4 * k * k * k);
    for a in 0..k {
        for b in 0..k {
            for c in 0..k {
                for o in &basis {
                    x.push([
                        (a as f64 + o[0] + 0.25) * LATTICE,
                        (b as f64 + o[1] + 0.25) * LATTICE,
                        (c as f64 + o[2] + 0.25) * LATTICE,
                    ]);
                }
            }
        }
    }
    let n = x.len();
    let mut v: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let mut r = [0.0; 3];
            for (d, rd) in r.iter_mut().enumerate() {
                let h = splitmix(seed ^ ((3 * i + d) as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
                *rd = (h >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            }
            r
        })
        .collect();
    let mut mean = [0.0; 3];
    for vi in &v {
        for d in 0..3 {
            mean[d] += vi[d] / n as f64;
        }
    }
    let mut ke2 = 0.0;
    for vi in &mut v {
        for d in 0..3 {
            vi[d] -= mean[d];
            ke2 += vi[d] * vi[d];
        }
    }
    // Temperature 1: Σv² = 3(N − 1).
    let scale = (3.0 * (n as f64 - 1.0) / ke2).sqrt();
    for vi in &mut v {
        for c in vi.iter_mut() {
            *c = f64::from((*c * scale) as f32);
        }
    }
    (LATTICE * k as f64, x, v)
}

/// Minimum-image difference a − b in a box of edge l.
#[inline(always)]
fn min_image<R: MdReal>(a: R, b: R, l: R, lf: f64) -> R {
    let d = a.sub(b);
    let k = (d.to_f64() / lf).round();
    if k == 0.0 {
        d
    } else {
        d.sub(l.mul(R::from_f64(k)))
    }
}

/// The constants V(s_c) and V′(s_c) of the shifted potential.
fn cutoff_constants<R: MdReal>() -> (R, R) {
    let inv = R::from_f64(RC2).recip();
    let i3 = inv.mul(inv).mul(inv);
    // V = 4(i3² − i3), V′ = −24·i3²·inv + 12·i3·inv.
    let v = R::from_f64(4.0).mul(i3.mul(i3).sub(i3));
    let dv = R::from_f64(12.0)
        .mul(i3)
        .mul(inv)
        .sub(R::from_f64(24.0).mul(i3.mul(i3)).mul(inv));
    (v, dv)
}

/// Force on every particle (and, when `energy`, each particle's half pair energy), j in
/// index order for each i, particles in parallel.
pub fn forces<R: MdReal>(l: f64, x: &[V3<R>], energy: bool) -> (Vec<V3<R>>, Vec<R>) {
    let (vc, dvc) = cutoff_constants::<R>();
    let lr = R::from_f64(l);
    let zero = R::from_f64(0.0);
    let two_dvc = dvc.add(dvc);
    let rc2 = R::from_f64(RC2);
    let res: Vec<(V3<R>, R)> = x
        .par_iter()
        .enumerate()
        .with_min_len(8)
        .map(|(i, xi)| {
            let mut f = [zero; 3];
            let mut e = zero;
            for (j, xj) in x.iter().enumerate() {
                if j == i {
                    continue;
                }
                let d = [
                    min_image(xi[0], xj[0], lr, l),
                    min_image(xi[1], xj[1], lr, l),
                    min_image(xi[2], xj[2], lr, l),
                ];
                let s = d[0].mul(d[0]).add(d[1].mul(d[1])).add(d[2].mul(d[2]));
                if s.to_f64() >= RC2 {
                    continue;
                }
                let inv = s.recip();
                let i3 = inv.mul(inv).mul(inv);
                // g = 2(V′(s_c) − V′(s)) = 48·i3²·inv − 24·i3·inv + 2V′(s_c)
                let g = R::from_f64(48.0)
                    .mul(i3.mul(i3).mul(inv))
                    .sub(R::from_f64(24.0).mul(i3.mul(inv)))
                    .add(two_dvc);
                for c in 0..3 {
                    f[c] = f[c].add(d[c].mul(g));
                }
                if energy {
                    // V_c = 4(i3² − i3) − V(s_c) − (s − s_c)V′(s_c), half per side.
                    let v = R::from_f64(4.0)
                        .mul(i3.mul(i3).sub(i3))
                        .sub(vc)
                        .sub(s.sub(rc2).mul(dvc));
                    e = e.add(R::from_f64(0.5).mul(v));
                }
            }
            (f, e)
        })
        .collect();
    res.into_iter().unzip()
}

/// A state in format R from the f64 initial values, time step [`DT`].
pub fn state<R: MdReal>(l: f64, x: &[[f64; 3]], v: &[[f64; 3]]) -> State<R> {
    state_dt(l, x, v, DT)
}

/// [`state`] with time step `dt`.
pub fn state_dt<R: MdReal>(l: f64, x: &[[f64; 3]], v: &[[f64; 3]], dt: f64) -> State<R> {
    let conv = |a: &[[f64; 3]]| -> Vec<V3<R>> {
        a.iter()
            .map(|p| [R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2])])
            .collect()
    };
    let xr = conv(x);
    let (f, _) = forces(l, &xr, false);
    State {
        l,
        x: xr,
        v: conv(v),
        f,
        dt,
    }
}

/// Total energy (kinetic + potential), summed in index order in the format.
pub fn energy<R: MdReal>(s: &State<R>) -> f64 {
    let (_, pe) = forces(s.l, &s.x, true);
    energy_sum(&s.v, &pe)
}

/// The total energy from the velocities and each particle's potential energy, summed in index
/// order in the format (kinetic then potential per particle).
pub fn energy_sum<R: MdReal>(v: &[V3<R>], pe: &[R]) -> f64 {
    let mut e = R::from_f64(0.0);
    for (vi, &p) in v.iter().zip(pe) {
        let k = vi[0].mul(vi[0]).add(vi[1].mul(vi[1])).add(vi[2].mul(vi[2]));
        e = e.acc(R::from_f64(0.5).mul(k)).acc(p);
    }
    e.to_f64()
}

/// One velocity-Verlet step.
pub fn step<R: MdReal>(s: &mut State<R>) {
    let h = R::from_f64(s.dt / 2.0);
    let dt = R::from_f64(s.dt);
    let l = s.l;
    let lr = R::from_f64(l);
    s.v.par_iter_mut()
        .zip(s.x.par_iter_mut())
        .zip(s.f.par_iter())
        .with_min_len(64)
        .for_each(|((v, x), f)| {
            for c in 0..3 {
                v[c] = v[c].acc(h.mul(f[c]));
                let mut y = x[c].acc(dt.mul(v[c]));
                let w = (y.to_f64() / l).floor();
                if w != 0.0 {
                    y = y.sub(lr.mul(R::from_f64(w)));
                    y = y.acc(R::from_f64(0.0));
                }
                x[c] = y;
            }
        });
    let (f, _) = forces(l, &s.x, false);
    s.f = f;
    s.v.par_iter_mut()
        .zip(s.f.par_iter())
        .with_min_len(64)
        .for_each(|(v, f)| {
            for c in 0..3 {
                v[c] = v[c].acc(h.mul(f[c]));
            }
        });
}

/// Outcome of one run.
#[derive(Clone, Debug)]
pub struct Run {
    /// Format.
    pub name: &'static str,
    /// Final positions as f64.
    pub x: Vec<[f64; 3]>,
    /// Energy at the samples (every `every` steps, including 0 and the end).
    pub energies: Vec<f64>,
    /// Seconds of the steps (without the energy samples).
    pub seconds: f64,
    /// The final positions and velocities, every term's bits (particle-major: x then v, the
    /// three coordinates, the terms of the format): equal for bit-identical runs.
    pub bits: Vec<u64>,
    /// The step at which [`Self::x_track`] was taken (at most the run's steps).
    pub track: usize,
    /// The positions at step [`Self::track`] as f64 (the trajectory check of a long run, taken
    /// before chaos has amplified every format's rounding to the box size).
    pub x_track: Vec<[f64; 3]>,
}

/// The bits of every term of the positions and velocities.
fn state_bits<R: MdReal>(x: &[V3<R>], v: &[V3<R>]) -> Vec<u64> {
    let mut out = Vec::with_capacity(2 * 3 * R::TERMS * x.len());
    for (p, q) in x.iter().zip(v) {
        for c in p.iter().chain(q.iter()) {
            out.extend(c.terms()[..R::TERMS].iter().map(|t| t.to_bits_u64()));
        }
    }
    out
}

/// The number of differing entries of two runs: final state terms and energy samples.
pub fn mismatches(a: &Run, b: &Run) -> usize {
    let d = |x: usize, y: usize| x.max(y) - x.min(y);
    a.bits.iter().zip(&b.bits).filter(|(x, y)| x != y).count()
        + d(a.bits.len(), b.bits.len())
        + a.energies
            .iter()
            .zip(&b.energies)
            .filter(|(x, y)| x.to_bits() != y.to_bits())
            .count()
        + d(a.energies.len(), b.energies.len())
}

impl Run {
    /// max |E(t) − E(0)| / |E(0)|.
    pub fn drift(&self) -> f64 {
        let e0 = self.energies[0];
        self.energies
            .iter()
            .map(|e| (e - e0).abs() / e0.abs())
            .fold(0.0, f64::max)
    }

    /// The secular drift: |mean of E over the last tenth of the samples − mean over the first
    /// tenth| / |E(0)|. Verlet's bounded energy oscillation (about 10^-4 at dt = 2^-8, the
    /// same in every format) averages out of the window means; what rounding adds up over the
    /// run (a random walk, or a systematic drift) does not.
    pub fn secular_drift(&self) -> f64 {
        let m = (self.energies.len() / 10).max(1);
        let mean = |e: &[f64]| e.iter().sum::<f64>() / e.len() as f64;
        let (a, b) = (
            mean(&self.energies[..m]),
            mean(&self.energies[self.energies.len() - m..]),
        );
        (b - a).abs() / self.energies[0].abs()
    }

    /// |E(end) − E(0)| / |E(0)|.
    pub fn final_drift(&self) -> f64 {
        let e0 = self.energies[0];
        let e1 = self.energies[self.energies.len() - 1];
        (e1 - e0).abs() / e0.abs()
    }
}

fn to_f64_positions<R: MdReal>(x: &[V3<R>]) -> Vec<[f64; 3]> {
    x.iter()
        .map(|p| [p[0].to_f64(), p[1].to_f64(), p[2].to_f64()])
        .collect()
}

/// Runs `steps` steps in format R from the initial state of (k, seed), sampling the energy
/// every `every` steps.
pub fn run<R: MdReal>(k: usize, seed: u64, steps: usize, every: usize) -> Run {
    run_tracked::<R>(k, seed, steps, every, steps, DT)
}

/// [`run`] with time step `dt`, also keeping the positions at step `track` (clamped to
/// `steps`).
pub fn run_tracked<R: MdReal>(
    k: usize,
    seed: u64,
    steps: usize,
    every: usize,
    track: usize,
    dt: f64,
) -> Run {
    let (l, x0, v0) = initial(k, seed);
    let mut s = state_dt::<R>(l, &x0, &v0, dt);
    let track = track.min(steps);
    let mut x_track = if track == 0 {
        to_f64_positions(&s.x)
    } else {
        Vec::new()
    };
    let mut energies = vec![energy(&s)];
    let mut secs = 0.0;
    for t in 1..=steps {
        let t0 = Instant::now();
        step(&mut s);
        secs += t0.elapsed().as_secs_f64();
        if t == track {
            x_track = to_f64_positions(&s.x);
        }
        if t % every.max(1) == 0 || t == steps {
            energies.push(energy(&s));
        }
    }
    Run {
        name: R::NAME,
        x: to_f64_positions(&s.x),
        energies,
        seconds: secs,
        bits: state_bits(&s.x, &s.v),
        track,
        x_track,
    }
}

/// Device layout of per-particle 3-vectors: coordinate c, term k of particle i at
/// `(c·TERMS + k)·n + i`.
pub fn to_device<R: MdReal>(a: &[V3<R>]) -> Vec<R::Term> {
    let n = a.len();
    let mut out = vec![R::Term::ZERO; 3 * R::TERMS * n];
    for (i, p) in a.iter().enumerate() {
        for (c, v) in p.iter().enumerate() {
            for (k, t) in v.terms()[..R::TERMS].iter().enumerate() {
                out[(c * R::TERMS + k) * n + i] = *t;
            }
        }
    }
    out
}

/// The inverse of [`to_device`] for `n` particles (or, with `dims` = 1, a per-particle value).
fn from_device<R: MdReal>(d: &[R::Term], n: usize, dims: usize) -> Vec<[R; 3]> {
    (0..n)
        .map(|i| {
            let mut p = [R::from_f64(0.0); 3];
            for (c, pc) in p.iter_mut().enumerate().take(dims) {
                let mut t = [R::Term::ZERO; 2];
                for (k, tk) in t.iter_mut().enumerate().take(R::TERMS) {
                    *tk = d[(c * R::TERMS + k) * n + i];
                }
                *pc = R::from_terms(t);
            }
            p
        })
        .collect()
}

/// [`run`] on the GPU (GPU 0 of `ctx`): the same initial state (converted on the host), the
/// same steps as CUDA kernels, the energy samples summed on the host by [`energy_sum`] from
/// the device's per-particle energies; bit-identical to [`run`]. The seconds are those of the
/// steps on the device.
pub fn run_gpu<R: MdReal>(
    ctx: &GpuContext,
    k: usize,
    seed: u64,
    steps: usize,
    every: usize,
    track: usize,
    dt: f64,
) -> Result<Run, GpuError> {
    let (l, x0, v0) = initial(k, seed);
    let conv = |a: &[[f64; 3]]| -> Vec<V3<R>> {
        a.iter()
            .map(|p| [R::from_f64(p[0]), R::from_f64(p[1]), R::from_f64(p[2])])
            .collect()
    };
    let (x, v) = (conv(&x0), conv(&v0));
    let n = x.len();
    let mut sim = MdGpu::<R::Term>::new(
        ctx,
        R::TERMS,
        l,
        RC2,
        dt,
        &to_device::<R>(&x),
        &to_device::<R>(&v),
    )?;
    let sample = |sim: &mut MdGpu<R::Term>| -> Result<f64, GpuError> {
        let pe: Vec<R> = from_device::<R>(&sim.potential_energies()?, n, 1)
            .into_iter()
            .map(|p| p[0])
            .collect();
        let v: Vec<V3<R>> = from_device::<R>(&sim.velocities()?, n, 3);
        Ok(energy_sum(&v, &pe))
    };
    let track = track.min(steps);
    let positions = |sim: &MdGpu<R::Term>| -> Result<Vec<[f64; 3]>, GpuError> {
        Ok(to_f64_positions(&from_device::<R>(&sim.positions()?, n, 3)))
    };
    let mut x_track = if track == 0 {
        positions(&sim)?
    } else {
        Vec::new()
    };
    let mut energies = vec![sample(&mut sim)?];
    let mut secs = 0.0;
    sim.synchronize()?;
    let mut t0 = Instant::now();
    for t in 1..=steps {
        sim.step()?;
        if t == track {
            sim.synchronize()?;
            secs += t0.elapsed().as_secs_f64();
            x_track = positions(&sim)?;
            t0 = Instant::now();
        }
        if t % every.max(1) == 0 || t == steps {
            sim.synchronize()?;
            secs += t0.elapsed().as_secs_f64();
            energies.push(sample(&mut sim)?);
            t0 = Instant::now();
        }
    }
    let x: Vec<V3<R>> = from_device::<R>(&sim.positions()?, n, 3);
    let v: Vec<V3<R>> = from_device::<R>(&sim.velocities()?, n, 3);
    Ok(Run {
        name: R::NAME,
        x: to_f64_positions(&x),
        energies,
        seconds: secs,
        bits: state_bits(&x, &v),
        track,
        x_track,
    })
}

/// Max over particles of the minimum-image distance between two runs' positions.
pub fn deviation(a: &[[f64; 3]], b: &[[f64; 3]], l: f64) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| {
            let mut s = 0.0;
            for c in 0..3 {
                let d = p[c] - q[c];
                let d = d - l * (d / l).round();
                s += d * d;
            }
            s.sqrt()
        })
        .fold(0.0, f64::max)
}

/// [`run`] on a pool of `threads` threads.
pub fn run_on<R: MdReal>(threads: usize, k: usize, seed: u64, steps: usize) -> Option<Run> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()?;
    Some(pool.install(|| run::<R>(k, seed, steps, steps)))
}

/// The GPU/CPU comparison of one format.
#[derive(Clone, Debug)]
pub struct GpuCompare {
    /// Steps of the comparison runs.
    pub steps: usize,
    /// Steps per second on the GPU (the full run).
    pub gpu_rate: f64,
    /// Steps per second on the CPU (the comparison run, same N).
    pub cpu_rate: f64,
    /// Differing entries (final state terms, energy samples) of the two comparison runs.
    pub mismatches: usize,
}

/// One format's run: on the GPU when `gpu` is given (then also compared with a CPU run of
/// `cfg.gpu_cmp_steps` steps of the same system), on the CPU otherwise.
fn format_run<R: MdReal>(
    gpu: Option<&GpuContext>,
    cfg: &MdConfig,
) -> Result<(Run, Option<GpuCompare>), GpuError> {
    let MdConfig {
        k,
        steps,
        every,
        track,
        seed,
        dt,
        gpu_cmp_steps: cmp_steps,
        ..
    } = *cfg;
    let Some(ctx) = gpu else {
        return Ok((run_tracked::<R>(k, seed, steps, every, track, dt), None));
    };
    let g = run_gpu::<R>(ctx, k, seed, steps, every, track, dt)?;
    let cmp_steps = cmp_steps.clamp(1, steps.max(1));
    let cmp_every = (cmp_steps / 4).max(1);
    let cpu = run_tracked::<R>(k, seed, cmp_steps, cmp_every, cmp_steps, dt);
    let g_cmp = if cmp_steps == steps && cmp_every == every {
        g.clone()
    } else {
        run_gpu::<R>(ctx, k, seed, cmp_steps, cmp_every, cmp_steps, dt)?
    };
    let cmp = GpuCompare {
        steps: cmp_steps,
        gpu_rate: steps as f64 / g.seconds.max(1e-9),
        cpu_rate: cmp_steps as f64 / cpu.seconds.max(1e-9),
        mismatches: mismatches(&cpu, &g_cmp),
    };
    Ok((g, Some(cmp)))
}

/// What [`report_with`] runs.
#[derive(Clone, Copy, Debug)]
pub struct MdConfig {
    /// N = 4k³ particles (k ≥ 3: the box must exceed 2 r_c).
    pub k: usize,
    /// Steps of the run.
    pub steps: usize,
    /// Energy samples every this many steps.
    pub every: usize,
    /// The step at which the trajectories are compared with dd (the run's end for the short
    /// run; early in a long run, before chaos has amplified every format's rounding).
    pub track: usize,
    /// Steps of the 1-thread / many-thread identity check.
    pub check_steps: usize,
    /// Seed of the initial velocities.
    pub seed: u64,
    /// Steps of the GPU/CPU identity check.
    pub gpu_cmp_steps: usize,
    /// Time step (a power of 2).
    pub dt: f64,
    /// The long run: energy-drift checks (quasi double as dd, f32 visibly worse) instead of
    /// the end-of-run trajectory check.
    pub long: bool,
}

impl MdConfig {
    /// Today's run: `steps` steps, 10 energy samples, trajectories compared at the end.
    pub fn short(k: usize, steps: usize, check_steps: usize, seed: u64, gpu_cmp: usize) -> Self {
        MdConfig {
            k,
            steps,
            every: (steps / 10).max(1),
            track: steps,
            check_steps,
            seed,
            gpu_cmp_steps: gpu_cmp,
            dt: DT,
            long: false,
        }
    }

    /// The long run: `steps` steps (10^5), about 1000 energy samples, trajectories compared
    /// with dd at step [`LONG_TRACK`].
    pub fn long(k: usize, steps: usize, check_steps: usize, seed: u64, gpu_cmp: usize) -> Self {
        MdConfig {
            k,
            steps,
            every: (steps / 1000).max(1),
            track: LONG_TRACK.min(steps),
            check_steps,
            seed,
            gpu_cmp_steps: gpu_cmp,
            dt: LONG_DT,
            long: true,
        }
    }
}

/// A long run's quasi-double energy drift may be at most this factor times the larger of
/// f64's and dd's.
pub const LONG_QUASI_DRIFT: f64 = 2.0;
/// A long run's f32 energy drift must be at least this factor times the larger of f64's and
/// dd's.
pub const LONG_F32_DRIFT: f64 = 3.0;

/// The long run's time step, 2^-12 ([`DT`]/16). Verlet's bounded energy oscillation scales as
/// dt²: at 2^-8 it is about 10^-4 of E in every format and hides f32's rounding (N = 108,
/// 10^4 steps: max drift 1.05e-4 in f32 and 1.02e-4 in dd); at 2^-12 it is about 4·10^-7 and
/// f32's accumulated rounding (positions x += dt·v lose more of dt·v the smaller it is) shows.
pub const LONG_DT: f64 = 1.0 / 4096.0;

/// The step at which a long run's trajectories are compared with dd's.
pub const LONG_TRACK: usize = 200;

/// Runs the application: N = 4k³, `steps` steps, and the thread-count check on `check_steps`.
/// With `gpu`, every format runs on the GPU and is compared, bit for bit, with a CPU run of
/// `gpu_cmp_steps` steps of the same system (the physics checks use the GPU runs).
pub fn report(
    k: usize,
    steps: usize,
    check_steps: usize,
    seed: u64,
    gpu: Option<&GpuContext>,
    gpu_cmp_steps: usize,
) -> Report {
    report_with(
        &MdConfig::short(k, steps, check_steps, seed, gpu_cmp_steps),
        gpu,
    )
}

/// Runs the application as `cfg` says (see [`report`]; with `cfg.long`, the energy-drift
/// comparison of a long run).
pub fn report_with(cfg: &MdConfig, gpu: Option<&GpuContext>) -> Report {
    let MdConfig {
        k,
        steps,
        every,
        track,
        check_steps,
        seed,
        gpu_cmp_steps,
        dt,
        long,
    } = *cfg;
    let mut rep = Report::new("md");
    let n = 4 * k * k * k;
    rep.line(format!(
        "Lennard-Jones MD: N = {n} (fcc, a = {LATTICE}, box {}), r_c = 2.5 (shifted in r^2), \
         velocity Verlet dt = 2^{}, {steps} steps (t = {:.2}), energy every {every} steps, {}; \
         reference run in dd",
        LATTICE * k as f64,
        dt.log2(),
        steps as f64 * dt,
        match gpu {
            Some(g) => format!(
                "on {} (compared with {} CPU threads over {} steps)",
                g.describe(),
                rayon::current_num_threads(),
                gpu_cmp_steps.clamp(1, steps.max(1))
            ),
            None => format!("{} threads", rayon::current_num_threads()),
        }
    ));
    let all = (|| -> Result<_, GpuError> {
        Ok([
            format_run::<f32>(gpu, cfg)?,
            format_run::<Quasi>(gpu, cfg)?,
            format_run::<f64>(gpu, cfg)?,
            format_run::<DoubleDouble>(gpu, cfg)?,
        ])
    })();
    let all = match all {
        Ok(a) => a,
        Err(e) => {
            rep.check(&format!("the GPU runs failed: {e}"), false);
            return rep;
        }
    };
    let dd = &all[3].0;
    let l = LATTICE * k as f64;
    let pairs = (n * (n - 1)) as f64 * steps as f64;
    rep.result("particles", n.to_string());
    rep.result("steps", steps.to_string());
    rep.result(
        "trajectories compared at step",
        track.min(steps).to_string(),
    );
    let mut devs = Vec::new();
    let mut drifts = Vec::new();
    for (r, cmp) in &all {
        let dev = deviation(&r.x_track, &dd.x_track, l);
        devs.push(dev);
        drifts.push(r.drift());
        rep.line(format!(
            "  {:<13} energy drift max {:.3e} final {:.3e} secular {:.3e}   deviation from dd at \
             step {} {:.3e}   {:.2} s  {:.3e} pair evaluations/s  {:.3e} steps/s{}",
            r.name,
            r.drift(),
            r.final_drift(),
            r.secular_drift(),
            r.track,
            dev,
            r.seconds,
            pairs / r.seconds.max(1e-9),
            steps as f64 / r.seconds.max(1e-9),
            if cmp.is_some() { " (GPU)" } else { "" }
        ));
        rep.result(
            format!("{} energy drift", r.name),
            format!("{:e}", r.drift()),
        );
        rep.result(
            format!("{} final energy drift", r.name),
            format!("{:e}", r.final_drift()),
        );
        rep.result(format!("{} deviation from dd", r.name), format!("{dev:e}"));
        rep.result(format!("{} E(0)", r.name), format!("{:e}", r.energies[0]));
        if let Some(c) = cmp {
            let same = if c.mismatches == 0 {
                "yes".to_string()
            } else {
                format!("no ({} mismatches)", c.mismatches)
            };
            rep.line(format!(
                "  {:<13} GPU {:.3e} steps/s, CPU {:.3e} steps/s, GPU/CPU {:.1}x; GPU and CPU results \
                 identical: {same} ({} steps, final state and energies)",
                "",
                c.gpu_rate,
                c.cpu_rate,
                c.gpu_rate / c.cpu_rate,
                c.steps
            ));
            rep.result(
                format!("{} GPU steps/s", r.name),
                format!("{:e}", c.gpu_rate),
            );
            rep.result(
                format!("{} CPU steps/s", r.name),
                format!("{:e}", c.cpu_rate),
            );
            rep.result(
                format!("{} GPU/CPU", r.name),
                format!("{:e}", c.gpu_rate / c.cpu_rate),
            );
            rep.result(
                format!("{} GPU and CPU results identical", r.name),
                same.clone(),
            );
            rep.check(
                &format!(
                    "{}: GPU and CPU runs of {} steps identical ({} mismatches)",
                    r.name, c.steps, c.mismatches
                ),
                c.mismatches == 0,
            );
        } else {
            rep.result(
                format!("{} CPU steps/s", r.name),
                format!("{:e}", steps as f64 / r.seconds.max(1e-9)),
            );
        }
    }
    let (d32, dq, d64) = (devs[0], devs[1], devs[2]);
    rep.check(
        &format!(
            "quasi double tracks dd at f64 level ({dq:.2e} <= {QUASI_FACTOR} x f64's {d64:.2e}) and \
             f32 does not ({d32:.2e} >= 1e4 x f64's)"
        ),
        dq <= QUASI_FACTOR * d64 && d32 >= 1e4 * d64 && d64 > 0.0,
    );
    rep.check(
        &format!(
            "dd energy drift {:.2e} below 1e-3 (Verlet at dt = 2^{} with a smooth cut-off)",
            dd.drift(),
            dt.log2()
        ),
        dd.drift() < 1e-3,
    );
    if long {
        let (e32, eq, e64, edd) = (drifts[0], drifts[1], drifts[2], drifts[3]);
        let floor = e64.max(edd);
        rep.line(format!(
            "  energy drift over {steps} steps: dd {edd:.3e} (reference), f64 {e64:.3e}, quasi double \
             {eq:.3e} ({:.2}x dd), f32 {e32:.3e} ({:.2}x dd)",
            eq / edd,
            e32 / edd
        ));
        rep.check(
            &format!(
                "quasi double's energy drift tracks dd's and f64's ({eq:.2e} <= {LONG_QUASI_DRIFT} x \
                 {floor:.2e}) and f32's is visibly worse ({e32:.2e} >= {LONG_F32_DRIFT} x {floor:.2e})"
            ),
            eq <= LONG_QUASI_DRIFT * floor && e32 >= LONG_F32_DRIFT * floor,
        );
    }
    let threads = rayon::current_num_threads().max(2);
    let same = |a: Option<Run>, b: Option<Run>| match (a, b) {
        (Some(a), Some(b)) => a.x == b.x && a.energies == b.energies,
        _ => false,
    };
    let ok = same(
        run_on::<f32>(1, k, seed, check_steps),
        run_on::<f32>(threads + 1, k, seed, check_steps),
    ) && same(
        run_on::<Quasi>(1, k, seed, check_steps),
        run_on::<Quasi>(threads + 1, k, seed, check_steps),
    );
    rep.check(
        &format!(
            "f32 and quasi-double runs of {check_steps} steps bit-identical on 1 and {} threads",
            threads + 1
        ),
        ok,
    );
    rep
}
