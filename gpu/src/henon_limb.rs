//! The Hénon search in the fixed-limb floats of `expanse_core::limb` (`expanse search --prec
//! NNNb`): the per-orbit contract's CPU reference ([`limb_orbit`], [`reference_limb_orbit`];
//! the search crate's CPU backend runs it on all cores), its CUDA twin
//! (`cuda/henon_limb.cu` after `cuda/limb.cu`, one thread per orbit, one program per capacity
//! ([`henon_limb_program`]): [`GpuContext::run_limb_orbits`]; the kernel computes x·x with a
//! squaring, the same exact product and rounding as the multiplication) and a plain iteration of the map for rates and the MPFR
//! identity check ([`limb_iterate`], [`GpuContext::iterate_limb`]).
//!
//! # Contract
//!
//! **Arithmetic.** Every number of the orbit has the precision p (64..=4096 bits) and every
//! operation rounds to nearest (ties to even) exactly as MPFR does, so the orbit is a function
//! of (p, a, b, x0, y0) alone, computed bit for bit alike by the CPU, the GPU and MPFR with the
//! same operation sequence. The parameters a, b and the constant 1 are held exactly as 53-bit
//! numbers (so a·x costs one row of limb products, not a square), the initial point exactly at
//! p bits; one step is
//!
//! ```text
//! x2 = ∘(x·x);  t = ∘(a·x2);  u = ∘(1 + y);  x' = ∘(u − t);  y' = ∘(b·x)
//! ```
//!
//! (the order of `expanse_core::henon_step` for expansions).
//!
//! **Detection.** Exactly the expansion search's contract (`expanse_search::orbit`), with
//! `hi(z)` = z rounded to the nearest f64 (the leading term of its nearest expansion): escape
//! `!(|hi(x)| <= E && |hi(y)| <= E)` checked every 1024 steps and at the end of the transient
//! N_t, then at every step; the first k ≤ p_max with `dist(z_{N_t+k}, z_{N_t}) < tol`, where
//! `dist` is the max norm of the differences of the hi parts in f64; confirmation over one
//! further period (residual, canonical point = the cycle point of smallest hi(x), the earlier
//! on ties; trace of the f64 Jacobian product from hi(x), a and b; det = (−b)^k), with the
//! same steps, statuses and NaNs as there. The record's point is the canonical point in full
//! (p bits); the search writes it as its nearest 8-term f64 expansion.

use crate::contract::{OrbitStatus, SearchSettings};
use crate::device::{drv, CudaProgram, GpuContext};
use crate::error::{GpuError, GpuErrorKind};
use crate::limb::LimbArrays;
use cudarc::driver::{LaunchConfig, PushKernelArg};
use expanse_core::limb::{capacity_for, AnyLimbFloat, Kind, LimbFloat, Round};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::OnceLock;

/// The capacities (limbs) with Hénon kernels: those [`capacity_for`] picks for 64..=4096 bits.
pub const HENON_LIMB_CAPACITIES: [usize; 6] = [2, 4, 8, 16, 32, 64];

/// The program of capacity `cap` (one of [`HENON_LIMB_CAPACITIES`], else `None`):
/// `cuda/limb.cu` without its `limb_op_<L>` kernels (unused here) + `cuda/henon_limb.cu` +
/// one `HENON_LIMB_KERNELS(cap)` line, i.e. kernels `henon_limb_<cap>` and
/// `henon_limb_iter_<cap>` only. One program per capacity, so that a run compiles only the
/// capacity it uses (NVRTC needed about 71 s for all six in one program).
pub fn henon_limb_program(cap: usize) -> Option<&'static CudaProgram> {
    static PROGRAMS: OnceLock<Vec<CudaProgram>> = OnceLock::new();
    let i = HENON_LIMB_CAPACITIES.iter().position(|&c| c == cap)?;
    let programs = PROGRAMS.get_or_init(|| {
        let limb: &'static str = Box::leak(
            include_str!("cuda/limb.cu")
                .lines()
                .filter(|l| !l.starts_with("LIMB_KERNEL("))
                .flat_map(|l| [l, "\n"])
                .collect::<String>()
                .into_boxed_str(),
        );
        HENON_LIMB_CAPACITIES
            .iter()
            .map(|&l| {
                let inst: &'static str =
                    Box::leak(format!("\nHENON_LIMB_KERNELS({l})\n").into_boxed_str());
                CudaProgram {
                    name: Box::leak(format!("henon_limb_{l}").into_boxed_str()),
                    parts: Box::leak(Box::new([limb, include_str!("cuda/henon_limb.cu"), inst])),
                }
            })
            .collect()
    });
    Some(&programs[i])
}

/// Smallest precision of the limb search (bits): the initial points (f64) must be exact.
pub const MIN_SEARCH_PREC: u32 = 64;
/// Largest precision of the limb search (bits).
pub const MAX_SEARCH_PREC: u32 = 4096;
/// Precision at which a, b and 1 are held (exact for every f64).
pub const PARAM_PREC: u32 = 53;
/// Steps between escape checks in the transient.
pub const ESCAPE_CHECK_INTERVAL: u64 = 1024;

/// True when `prec` is a precision of the limb search.
pub fn valid_search_prec(prec: u32) -> bool {
    (MIN_SEARCH_PREC..=MAX_SEARCH_PREC).contains(&prec)
}

/// The result of one orbit.
#[derive(Clone, Copy, Debug)]
pub struct LimbOrbitRecord {
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
    /// x of the canonical cycle point at the search precision (+0 unless `Cycle`).
    pub x: AnyLimbFloat,
    /// y of the canonical cycle point.
    pub y: AnyLimbFloat,
}

impl LimbOrbitRecord {
    fn empty(status: OrbitStatus, steps: u64, prec: u32) -> Self {
        Self {
            status,
            steps,
            period: 0,
            residual: f64::NAN,
            trace: f64::NAN,
            det: f64::NAN,
            x: AnyLimbFloat::zero(prec, false),
            y: AnyLimbFloat::zero(prec, false),
        }
    }

    /// True when both records are the same bit for bit (floats by bits; the points by
    /// precision, class, sign, exponent and every limb).
    pub fn bit_eq(&self, o: &Self) -> bool {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        let same_num = |a: &AnyLimbFloat, b: &AnyLimbFloat| {
            a.prec() == b.prec()
                && a.kind() == b.kind()
                && a.is_sign_negative() == b.is_sign_negative()
                && a.exponent() == b.exponent()
                && a.mantissa() == b.mantissa()
        };
        self.status == o.status
            && self.steps == o.steps
            && self.period == o.period
            && same(self.residual, o.residual)
            && same(self.trace, o.trace)
            && same(self.det, o.det)
            && same_num(&self.x, &o.x)
            && same_num(&self.y, &o.y)
    }
}

/// A batch: every parameter (`a[p]`, `b[p]`) with every initial point (`x0[i]`, `y0[i]`); orbit
/// g = p·n_inits + i, as `OrbitBatch`.
#[derive(Clone, Debug)]
pub struct LimbOrbitBatch {
    /// Precision in bits (64..=4096).
    pub prec: u32,
    /// Parameter a per parameter.
    pub a: Vec<f64>,
    /// Parameter b per parameter.
    pub b: Vec<f64>,
    /// Initial x per initial point.
    pub x0: Vec<f64>,
    /// Initial y per initial point.
    pub y0: Vec<f64>,
    /// Transient, p_max, tol, escape bound (f64).
    pub settings: SearchSettings,
}

impl LimbOrbitBatch {
    /// Number of orbits.
    pub fn len(&self) -> u64 {
        self.a.len() as u64 * self.x0.len() as u64
    }

    /// True when there is no orbit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn validate(&self, range: &Range<u64>) -> Result<(), GpuError> {
        let bad = |m: String| Err(GpuError::new(GpuErrorKind::InvalidInput(m)));
        if !valid_search_prec(self.prec) {
            return bad(format!(
                "limb search precision {} is outside {MIN_SEARCH_PREC}..={MAX_SEARCH_PREC} bits",
                self.prec
            ));
        }
        if self.a.len() != self.b.len() || self.x0.len() != self.y0.len() {
            return bad("a/b or x0/y0 differ in length".into());
        }
        if self.settings.pmax == 0 {
            return bad("pmax must be at least 1".into());
        }
        if range.start > range.end || range.end > self.len() {
            return bad(format!(
                "orbit range {range:?} outside 0..{} orbits",
                self.len()
            ));
        }
        if self.x0.len() > u32::MAX as usize {
            return bad("too many initial points".into());
        }
        Ok(())
    }
}

/// Counts by status and the records of every orbit that is not `NoCycle` (escapes,
/// unconfirmed returns, cycles), with their orbit index, in increasing order.
#[derive(Clone, Debug, Default)]
pub struct LimbSparse {
    /// Orbits by status: [escaped, no-cycle, unconfirmed, cycle].
    pub counts: [u64; 4],
    /// (orbit index, record) of every orbit that is not `NoCycle`.
    pub kept: Vec<(u64, LimbOrbitRecord)>,
}

// ---- CPU reference ---------------------------------------------------------------------------

/// The map's constants a, b and 1 as 53-bit limb numbers.
#[derive(Clone, Copy)]
struct Map<const L: usize> {
    a: LimbFloat<L>,
    b: LimbFloat<L>,
    one: LimbFloat<L>,
}

impl<const L: usize> Map<L> {
    fn new(a: f64, b: f64) -> Self {
        let c = |v: f64| LimbFloat::<L>::from_f64(v, PARAM_PREC, Round::Nearest).0;
        Self {
            a: c(a),
            b: c(b),
            one: c(1.0),
        }
    }

    /// One step (the contract's operation order; every result at the points' precision).
    #[inline(always)]
    fn step(&self, x: &LimbFloat<L>, y: &LimbFloat<L>) -> (LimbFloat<L>, LimbFloat<L>) {
        let r = Round::Nearest;
        let x2 = x.mul_round(x, r).0;
        let t = self.a.mul_round(&x2, r).0;
        let u = self.one.add_round(y, r).0;
        let nx = u.sub_round(&t, r).0;
        let ny = self.b.mul_round(x, r).0;
        (nx, ny)
    }
}

#[inline(always)]
fn hi<const L: usize>(v: &LimbFloat<L>) -> f64 {
    v.to_f64(Round::Nearest)
}

#[inline(always)]
fn escaped(hx: f64, hy: f64, e: f64) -> bool {
    !(hx.abs() <= e && hy.abs() <= e)
}

#[inline(always)]
fn dist(ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    let dx = (ax - bx).abs();
    let dy = (ay - by).abs();
    if dx >= dy {
        dx
    } else {
        dy
    }
}

fn any<const L: usize>(v: &LimbFloat<L>) -> AnyLimbFloat {
    AnyLimbFloat::from_parts(
        v.kind(),
        v.is_sign_negative(),
        v.exponent().unwrap_or(0),
        v.mantissa(),
        v.prec(),
    )
    .expect("a valid limb number")
}

/// The contract on one orbit with capacity L (64·L ≥ `prec`); see the module docs.
///
/// # Panics
/// When `prec` is outside 64..=64·L, or `s.pmax` is 0.
// `!(d < tol)` is deliberate: a NaN distance must fail the test.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub fn limb_orbit<const L: usize>(
    prec: u32,
    s: &SearchSettings,
    a: f64,
    b: f64,
    x0: f64,
    y0: f64,
) -> LimbOrbitRecord {
    assert!(prec >= MIN_SEARCH_PREC && s.pmax >= 1);
    let f = Map::<L>::new(a, b);
    let mut x = LimbFloat::<L>::from_f64(x0, prec, Round::Nearest).0;
    let mut y = LimbFloat::<L>::from_f64(y0, prec, Round::Nearest).0;
    let (e, tol, nt) = (s.escape, s.tol, s.transient);
    // 1. Transient, escape checked at multiples of 1024 and at N_t.
    let mut done = 0u64;
    while done < nt {
        let block = (ESCAPE_CHECK_INTERVAL - done % ESCAPE_CHECK_INTERVAL).min(nt - done);
        for _ in 0..block {
            (x, y) = f.step(&x, &y);
        }
        done += block;
        if escaped(hi(&x), hi(&y), e) {
            return LimbOrbitRecord::empty(OrbitStatus::Escaped, done, prec);
        }
    }
    // 2. The smallest k ≤ p_max with a close return to r = z_{N_t}.
    let (rx, ry) = (hi(&x), hi(&y));
    let mut period = 0u32;
    for k in 1..=s.pmax {
        (x, y) = f.step(&x, &y);
        let (hx, hy) = (hi(&x), hi(&y));
        if escaped(hx, hy, e) {
            return LimbOrbitRecord::empty(OrbitStatus::Escaped, nt + k as u64, prec);
        }
        if dist(hx, hy, rx, ry) < tol {
            period = k;
            break;
        }
    }
    if period == 0 {
        return LimbOrbitRecord::empty(OrbitStatus::NoCycle, nt + s.pmax as u64, prec);
    }
    // 3. Confirmation over one more period, with the canonical point and the trace.
    let k = period;
    let (cx, cy) = (hi(&x), hi(&y));
    let (mut mx, mut my, mut mhi) = (x, y, cx);
    let (mut m00, mut m01, mut m10, mut m11) = (1.0f64, 0.0f64, 0.0f64, 1.0f64);
    for i in 0..k {
        let xhi = hi(&x);
        let j00 = (-2.0 * a) * xhi;
        let n00 = j00 * m00 + m10;
        let n01 = j00 * m01 + m11;
        let n10 = b * m00;
        let n11 = b * m01;
        (m00, m01, m10, m11) = (n00, n01, n10, n11);
        if i > 0 && xhi < mhi {
            (mx, my, mhi) = (x, y, xhi);
        }
        (x, y) = f.step(&x, &y);
        if escaped(hi(&x), hi(&y), e) {
            return LimbOrbitRecord::empty(
                OrbitStatus::Escaped,
                nt + k as u64 + i as u64 + 1,
                prec,
            );
        }
    }
    let d = dist(hi(&x), hi(&y), cx, cy);
    let steps = nt + 2 * k as u64;
    if !(d < tol) {
        let mut rec = LimbOrbitRecord::empty(OrbitStatus::Unconfirmed, steps, prec);
        rec.period = k;
        rec.residual = d;
        return rec;
    }
    let mut det = 1.0f64;
    for _ in 0..k {
        det *= -b;
    }
    LimbOrbitRecord {
        status: OrbitStatus::Cycle,
        steps,
        period: k,
        residual: d,
        trace: m00 + m11,
        det,
        x: any(&mx),
        y: any(&my),
    }
}

/// Runs `$f::<L>(args…)` with L the capacity [`capacity_for`] picks for `$prec`.
macro_rules! by_capacity {
    ($prec:expr, $f:ident ( $($arg:expr),* )) => {
        match capacity_for($prec) {
            Some(2) => $f::<2>($($arg),*),
            Some(4) => $f::<4>($($arg),*),
            Some(8) => $f::<8>($($arg),*),
            Some(16) => $f::<16>($($arg),*),
            Some(32) => $f::<32>($($arg),*),
            _ => $f::<64>($($arg),*),
        }
    };
}

/// [`limb_orbit`] at the capacity `prec` needs.
///
/// # Panics
/// When `prec` is outside 64..=4096 or `s.pmax` is 0.
pub fn reference_limb_orbit(
    prec: u32,
    s: &SearchSettings,
    a: f64,
    b: f64,
    x0: f64,
    y0: f64,
) -> LimbOrbitRecord {
    assert!(valid_search_prec(prec), "limb search precision {prec}");
    by_capacity!(prec, limb_orbit(prec, s, a, b, x0, y0))
}

/// [`reference_limb_orbit`] on orbits `range` of `batch`, on all cores (rayon), mapped by `f`
/// (which sees the orbit index and its record) in orbit order.
pub fn reference_limb_batch<R: Send>(
    batch: &LimbOrbitBatch,
    range: Range<u64>,
    f: impl Fn(u64, LimbOrbitRecord) -> R + Sync,
) -> Vec<R> {
    let n = batch.x0.len() as u64;
    (range.start as usize..range.end as usize)
        .into_par_iter()
        .with_max_len(1)
        .map(|g| {
            let g = g as u64;
            let (p, i) = ((g / n) as usize, (g % n) as usize);
            let r = reference_limb_orbit(
                batch.prec,
                &batch.settings,
                batch.a[p],
                batch.b[p],
                batch.x0[i],
                batch.y0[i],
            );
            f(g, r)
        })
        .collect()
}

/// `steps` map steps from (x0, y0) with capacity L (the contract's arithmetic, no escape
/// check): the final point.
pub fn limb_iterate<const L: usize>(
    prec: u32,
    a: f64,
    b: f64,
    x0: f64,
    y0: f64,
    steps: u64,
) -> (LimbFloat<L>, LimbFloat<L>) {
    let f = Map::<L>::new(a, b);
    let mut x = LimbFloat::<L>::from_f64(x0, prec, Round::Nearest).0;
    let mut y = LimbFloat::<L>::from_f64(y0, prec, Round::Nearest).0;
    for _ in 0..steps {
        (x, y) = f.step(&x, &y);
    }
    (x, y)
}

fn iterate_any<const L: usize>(
    prec: u32,
    a: f64,
    b: f64,
    x0: f64,
    y0: f64,
    steps: u64,
) -> (AnyLimbFloat, AnyLimbFloat) {
    let (x, y) = limb_iterate::<L>(prec, a, b, x0, y0, steps);
    (any(&x), any(&y))
}

/// [`limb_iterate`] at the capacity `prec` needs.
///
/// # Panics
/// When `prec` is outside 64..=4096.
pub fn reference_limb_iterate(
    prec: u32,
    a: f64,
    b: f64,
    x0: f64,
    y0: f64,
    steps: u64,
) -> (AnyLimbFloat, AnyLimbFloat) {
    assert!(valid_search_prec(prec), "limb search precision {prec}");
    by_capacity!(prec, iterate_any(prec, a, b, x0, y0, steps))
}

// ---- GPU -------------------------------------------------------------------------------------

/// Threads per block of the limb search kernels.
const BLOCK: u32 = 64;

/// Orbits per launch on one GPU: about 16 waves of 2048 threads per multiprocessor, which
/// keeps records of a launch small (≤ 1 KiB per orbit at 4096 bits).
fn launch_orbits(ctx: &GpuContext, dev: usize) -> u64 {
    let sms = ctx.devices()[dev].multiprocessors.max(1) as u64;
    (sms * 2048).min(1 << 19)
}

fn unpack_kind(k: u8) -> Kind {
    match k & 3 {
        0 => Kind::Zero,
        1 => Kind::Normal,
        2 => Kind::Inf,
        _ => Kind::Nan,
    }
}

fn number_at(
    prec: u32,
    count: usize,
    i: usize,
    m: &[u64],
    e: &[i32],
    k: &[u8],
) -> Result<AnyLimbFloat, GpuError> {
    let n = prec.div_ceil(64) as usize;
    let limbs: Vec<u64> = (0..n).map(|j| m[j * count + i]).collect();
    AnyLimbFloat::from_parts(unpack_kind(k[i]), k[i] & 4 != 0, e[i], &limbs, prec).ok_or_else(
        || {
            GpuError::new(GpuErrorKind::Driver(format!(
                "the limb search kernel returned an invalid number for element {i}"
            )))
        },
    )
}

impl GpuContext {
    /// Runs the contract for orbits `range` of `batch`, split evenly over the GPUs of this
    /// context: the status counts and every record that is not `NoCycle`, bit-identical to
    /// [`reference_limb_orbit`].
    pub fn run_limb_orbits(
        &self,
        batch: &LimbOrbitBatch,
        range: Range<u64>,
    ) -> Result<LimbSparse, GpuError> {
        batch.validate(&range)?;
        let nd = self.device_count() as u64;
        let len = range.end - range.start;
        let per = len.div_ceil(nd).max(1);
        let parts: Vec<Range<u64>> = (0..nd)
            .map(|i| {
                let s = (range.start + i * per).min(range.end);
                s..(s + per).min(range.end)
            })
            .collect();
        let results: Vec<Result<LimbSparse, GpuError>> = std::thread::scope(|sc| {
            let hs: Vec<_> = parts
                .into_iter()
                .enumerate()
                .map(|(d, r)| sc.spawn(move || self.limb_orbits_on(d, batch, r)))
                .collect();
            hs.into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GpuError::new(GpuErrorKind::Driver(
                            "a device thread panicked".into(),
                        )))
                    })
                })
                .collect()
        });
        let mut out = LimbSparse::default();
        for r in results {
            let r = r?;
            for s in 0..4 {
                out.counts[s] += r.counts[s];
            }
            out.kept.extend(r.kept);
        }
        out.kept.sort_unstable_by_key(|(g, _)| *g);
        Ok(out)
    }

    fn limb_orbits_on(
        &self,
        dev: usize,
        batch: &LimbOrbitBatch,
        range: Range<u64>,
    ) -> Result<LimbSparse, GpuError> {
        let mut out = LimbSparse::default();
        if range.is_empty() {
            return Ok(out);
        }
        let prec = batch.prec;
        let cap = capacity_for(prec).expect("validated precision");
        self.cuda_context(dev)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let program = henon_limb_program(cap).expect("a capacity of the limb search");
        let func = self.function::<f64, 1>(dev, program, &format!("henon_limb_{cap}"))?;
        let s = self.stream(dev);
        let up = |v: &[f64], what: &str| s.clone_htod(v).map_err(|e| drv(what, e));
        let (pa, pb) = (up(&batch.a, "upload a")?, up(&batch.b, "upload b")?);
        let (ix, iy) = (up(&batch.x0, "upload x0")?, up(&batch.y0, "upload y0")?);
        let n = prec.div_ceil(64) as usize;
        let chunk = launch_orbits(self, dev).min(range.end - range.start);
        let c = chunk as usize;
        let alloc_err = |e| drv("allocating limb search records", e);
        let mut st = s.alloc_zeros::<u32>(c).map_err(alloc_err)?;
        let mut steps = s.alloc_zeros::<u64>(c).map_err(alloc_err)?;
        let mut per = s.alloc_zeros::<u32>(c).map_err(alloc_err)?;
        let mut res = s.alloc_zeros::<f64>(c).map_err(alloc_err)?;
        let mut tr = s.alloc_zeros::<f64>(c).map_err(alloc_err)?;
        let mut det = s.alloc_zeros::<f64>(c).map_err(alloc_err)?;
        let mut xm = s.alloc_zeros::<u64>(n * c).map_err(alloc_err)?;
        let mut xe = s.alloc_zeros::<i32>(c).map_err(alloc_err)?;
        let mut xk = s.alloc_zeros::<u8>(c).map_err(alloc_err)?;
        let mut ym = s.alloc_zeros::<u64>(n * c).map_err(alloc_err)?;
        let mut ye = s.alloc_zeros::<i32>(c).map_err(alloc_err)?;
        let mut yk = s.alloc_zeros::<u8>(c).map_err(alloc_err)?;
        let set = &batch.settings;
        let n_inits = batch.x0.len() as u32;
        let mut first = range.start;
        while first < range.end {
            let count = (range.end - first).min(chunk);
            let cnt = count as u32;
            let cfg = LaunchConfig {
                grid_dim: (cnt.div_ceil(BLOCK), 1, 1),
                block_dim: (BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            let mut lb = s.launch_builder(&func);
            lb.arg(&prec);
            lb.arg(&n_inits);
            lb.arg(&first);
            lb.arg(&cnt);
            lb.arg(&pa);
            lb.arg(&pb);
            lb.arg(&ix);
            lb.arg(&iy);
            lb.arg(&set.transient);
            lb.arg(&set.pmax);
            lb.arg(&set.tol);
            lb.arg(&set.escape);
            lb.arg(&mut st);
            lb.arg(&mut steps);
            lb.arg(&mut per);
            lb.arg(&mut res);
            lb.arg(&mut tr);
            lb.arg(&mut det);
            lb.arg(&mut xm);
            lb.arg(&mut xe);
            lb.arg(&mut xk);
            lb.arg(&mut ym);
            lb.arg(&mut ye);
            lb.arg(&mut yk);
            // SAFETY: matches henon_limb_<L>(unsigned, unsigned, u64, unsigned, const double*
            // ×4, u64, unsigned, double, double, unsigned*, u64*, unsigned*, double* ×3, u64*,
            // int*, unsigned char*, u64*, int*, unsigned char*) in cuda/henon_limb.cu; the
            // output arrays hold `chunk` ≥ `count` records (limbs interleaved with stride
            // `count`, within n·chunk), a/b/x0/y0 cover every orbit index of the launch.
            unsafe { lb.launch(cfg) }.map_err(|e| drv("launching henon_limb", e))?;
            let dl = |e| drv("downloading limb search records", e);
            let h_st = s.clone_dtoh(&st).map_err(dl)?;
            let keep: Vec<usize> = (0..count as usize).filter(|&i| h_st[i] != 1).collect();
            for &code in &h_st[..count as usize] {
                out.counts[(code as usize).min(3)] += 1;
            }
            if !keep.is_empty() {
                let h_steps = s.clone_dtoh(&steps).map_err(dl)?;
                let h_per = s.clone_dtoh(&per).map_err(dl)?;
                let h_res = s.clone_dtoh(&res).map_err(dl)?;
                let h_tr = s.clone_dtoh(&tr).map_err(dl)?;
                let h_det = s.clone_dtoh(&det).map_err(dl)?;
                let h_xm = s.clone_dtoh(&xm).map_err(dl)?;
                let h_xe = s.clone_dtoh(&xe).map_err(dl)?;
                let h_xk = s.clone_dtoh(&xk).map_err(dl)?;
                let h_ym = s.clone_dtoh(&ym).map_err(dl)?;
                let h_ye = s.clone_dtoh(&ye).map_err(dl)?;
                let h_yk = s.clone_dtoh(&yk).map_err(dl)?;
                let cn = count as usize;
                for i in keep {
                    let status = OrbitStatus::from_code(h_st[i]).ok_or_else(|| {
                        GpuError::new(GpuErrorKind::Driver(format!(
                            "henon_limb returned status {}",
                            h_st[i]
                        )))
                    })?;
                    out.kept.push((
                        first + i as u64,
                        LimbOrbitRecord {
                            status,
                            steps: h_steps[i],
                            period: h_per[i],
                            residual: h_res[i],
                            trace: h_tr[i],
                            det: h_det[i],
                            x: number_at(prec, cn, i, &h_xm, &h_xe, &h_xk)?,
                            y: number_at(prec, cn, i, &h_ym, &h_ye, &h_yk)?,
                        },
                    ));
                }
            }
            first += count;
        }
        Ok(out)
    }

    /// `steps` map steps of every orbit i from (`x0[i]`, `y0[i]`) with (`a[i]`, `b[i]`) at
    /// `prec` bits on GPU 0 (one thread per orbit): the final points (x, y), bit-identical to
    /// [`reference_limb_iterate`].
    pub fn iterate_limb(
        &self,
        prec: u32,
        a: &[f64],
        b: &[f64],
        x0: &[f64],
        y0: &[f64],
        steps: u64,
    ) -> Result<(LimbArrays, LimbArrays), GpuError> {
        let bad = |m: String| GpuError::new(GpuErrorKind::InvalidInput(m));
        if !valid_search_prec(prec) {
            return Err(bad(format!(
                "limb precision {prec} is outside {MIN_SEARCH_PREC}..={MAX_SEARCH_PREC}"
            )));
        }
        let count = a.len();
        if b.len() != count || x0.len() != count || y0.len() != count || count > u32::MAX as usize {
            return Err(bad("a, b, x0, y0 must have one equal length".into()));
        }
        let n = prec.div_ceil(64) as usize;
        let empty = || LimbArrays {
            prec,
            count,
            limbs: vec![0; n * count],
            exps: vec![0; count],
            kinds: vec![0; count],
        };
        let (mut ox, mut oy) = (empty(), empty());
        if count == 0 {
            return Ok((ox, oy));
        }
        let cap = capacity_for(prec).expect("validated precision");
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let program = henon_limb_program(cap).expect("a capacity of the limb search");
        let func = self.function::<f64, 1>(0, program, &format!("henon_limb_iter_{cap}"))?;
        let s = self.stream(0);
        let up = |v: &[f64], what: &str| s.clone_htod(v).map_err(|e| drv(what, e));
        let (pa, pb, ix, iy) = (up(a, "a")?, up(b, "b")?, up(x0, "x0")?, up(y0, "y0")?);
        let alloc_err = |e| drv("allocating results", e);
        let mut xm = s.alloc_zeros::<u64>(n * count).map_err(alloc_err)?;
        let mut xe = s.alloc_zeros::<i32>(count).map_err(alloc_err)?;
        let mut xk = s.alloc_zeros::<u8>(count).map_err(alloc_err)?;
        let mut ym = s.alloc_zeros::<u64>(n * count).map_err(alloc_err)?;
        let mut ye = s.alloc_zeros::<i32>(count).map_err(alloc_err)?;
        let mut yk = s.alloc_zeros::<u8>(count).map_err(alloc_err)?;
        let cnt = count as u32;
        let cfg = LaunchConfig {
            grid_dim: (cnt.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut lb = s.launch_builder(&func);
        lb.arg(&prec);
        lb.arg(&cnt);
        lb.arg(&steps);
        lb.arg(&pa);
        lb.arg(&pb);
        lb.arg(&ix);
        lb.arg(&iy);
        lb.arg(&mut xm);
        lb.arg(&mut xe);
        lb.arg(&mut xk);
        lb.arg(&mut ym);
        lb.arg(&mut ye);
        lb.arg(&mut yk);
        // SAFETY: matches henon_limb_iter_<L>(unsigned, unsigned, u64, const double* ×4, u64*,
        // int*, unsigned char*, u64*, int*, unsigned char*) in cuda/henon_limb.cu; every array
        // holds `count` elements (limbs: n·count).
        unsafe { lb.launch(cfg) }.map_err(|e| drv("launching henon_limb_iter", e))?;
        let dl = |e| drv("download", e);
        ox.limbs = s.clone_dtoh(&xm).map_err(dl)?;
        ox.exps = s.clone_dtoh(&xe).map_err(dl)?;
        ox.kinds = s.clone_dtoh(&xk).map_err(dl)?;
        oy.limbs = s.clone_dtoh(&ym).map_err(dl)?;
        oy.exps = s.clone_dtoh(&ye).map_err(dl)?;
        oy.kinds = s.clone_dtoh(&yk).map_err(dl)?;
        Ok((ox, oy))
    }
}
