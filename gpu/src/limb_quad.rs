//! exp, ln, sin, cos and tanh-sinh quadrature terms in the limb floats, on the GPU and on all
//! CPU cores, bit-identical.
//!
//! The CUDA sources `cuda/limb_functions.cu` (the functions of
//! `expanse_core::limb::functions`, operation for operation) and `cuda/limb_quadrature.cu`
//! (one thread per node of a tanh-sinh table: the term w·(f(left) + f(right))·Jacobian of one
//! of seed 000 Table 4's five problems, the formulas of `expanse_apps::quadrature`, which are
//! stable near the endpoints) are appended to `cuda/limb.cu` in [`LIMB_FN_PROGRAMS`]: kernels
//! `limb_fn_<L>` and `limb_quad_<L>` for L = 8, 16, 32, 64 limbs, one program per L (the
//! working precision of the functions must fit: [`fn_capacity`]).
//!
//! The CPU references are [`fn_reference`] and [`quad_node_term`]; [`cpu_fn`] and
//! [`cpu_quad_terms`] run them over arrays on all cores (rayon), [`GpuContext::eval_limb_fn`]
//! and [`GpuContext::limb_quad_terms`] on GPU 0. The host build of the CUDA sources
//! (`gpu/tests/it/limb_functions_on_cpu.rs`) checks the identity without a GPU.
//!
//! Constants (π and ln 2 at the working precision, log₂e and 2/π at 64 bits, π/2 at the
//! quadrature precision) are MPFR's, computed on the host and passed to the kernels.

use crate::device::{drv, CudaProgram, GpuContext};
use crate::error::{GpuError, GpuErrorKind};
use crate::limb::LimbArrays;
use cudarc::driver::{LaunchConfig, PushKernelArg};
use expanse_core::limb::functions::{self, working_prec, LimbConsts};
use expanse_core::limb::{capacity_for, Kind, LimbFloat, Round};
use rayon::prelude::*;

macro_rules! fn_program {
    ($l:literal) => {
        CudaProgram {
            name: concat!("limb_fn_", $l),
            parts: &[
                include_str!("cuda/limb.cu"),
                include_str!("cuda/limb_functions.cu"),
                include_str!("cuda/limb_quadrature.cu"),
                concat!("\nLIMB_FN_KERNEL(", $l, ")\nLIMB_QUAD_KERNEL(", $l, ")\n"),
            ],
        }
    };
}

/// The programs of the functions and quadrature kernels, one per capacity of
/// [`FN_CAPACITIES`] (kernels `limb_fn_<L>` and `limb_quad_<L>`; a run compiles only the
/// capacity it uses).
pub const LIMB_FN_PROGRAMS: [CudaProgram; 4] = [
    fn_program!(8),
    fn_program!(16),
    fn_program!(32),
    fn_program!(64),
];

/// The program holding the kernels of capacity `cap` (one of [`FN_CAPACITIES`]).
pub fn fn_program(cap: usize) -> Option<&'static CudaProgram> {
    let i = FN_CAPACITIES.iter().position(|&c| c == cap)?;
    Some(&LIMB_FN_PROGRAMS[i])
}

/// The capacities with `limb_fn_<L>` and `limb_quad_<L>` kernels.
pub const FN_CAPACITIES: [usize; 4] = [8, 16, 32, 64];

/// The capacity (limbs) the kernels and the references use for results of precision `prec`:
/// the smallest of [`FN_CAPACITIES`] holding the working precision; `None` beyond 4096 bits
/// of working precision (precision above about 3960 bits) or below 2.
pub fn fn_capacity(prec: u32) -> Option<usize> {
    if prec < 2 {
        return None;
    }
    capacity_for(working_prec(prec)).map(|l| l.max(8))
}

/// The functions of the `limb_fn_<L>` kernels (their `f` argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum LimbFn {
    /// e^x
    Exp = 0,
    /// ln x
    Ln = 1,
    /// sin x
    Sin = 2,
    /// cos x
    Cos = 3,
}

impl LimbFn {
    /// Every function.
    pub const ALL: [LimbFn; 4] = [LimbFn::Exp, LimbFn::Ln, LimbFn::Sin, LimbFn::Cos];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            LimbFn::Exp => "exp",
            LimbFn::Ln => "ln",
            LimbFn::Sin => "sin",
            LimbFn::Cos => "cos",
        }
    }
}

/// The constants the kernels read, packed: element i has its own precision `precs[i]`, its
/// limbs at `limbs[i·L ..]` (L the kernel's capacity), exponent and kind | sign << 2.
/// Elements: π (wp), ln 2 (wp), log₂e (64), 2/π (64), π/2 at the result precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstBlock {
    /// Capacity (limbs per element).
    pub cap: usize,
    /// Limbs, L per element.
    pub limbs: Vec<u64>,
    /// Exponents.
    pub exps: Vec<i32>,
    /// Kind | sign << 2.
    pub kinds: Vec<u8>,
    /// Precisions.
    pub precs: Vec<u32>,
}

fn kind_code(k: Kind) -> u8 {
    match k {
        Kind::Zero => 0,
        Kind::Normal => 1,
        Kind::Inf => 2,
        Kind::Nan => 3,
    }
}

fn kind_of(code: u8) -> Kind {
    match code & 3 {
        0 => Kind::Zero,
        1 => Kind::Normal,
        2 => Kind::Inf,
        _ => Kind::Nan,
    }
}

/// The quadrature's constants for precision `prec` in capacity L: the functions' constants
/// and π/2 rounded to `prec` (the upper end of [0, π/2]).
#[derive(Clone, Copy, Debug)]
pub struct QuadConsts<const L: usize> {
    /// The functions' constants.
    pub fc: LimbConsts<L>,
    /// π/2 at the result precision.
    pub half_pi: LimbFloat<L>,
}

impl<const L: usize> QuadConsts<L> {
    /// The constants for precision `prec`; `None` when L limbs do not hold its working
    /// precision.
    pub fn new(prec: u32) -> Option<Self> {
        Self::with_working_prec(prec, working_prec(prec))
    }

    /// The constants with the functions' working precision `wp` (see
    /// `LimbConsts::with_working_prec`: for identity checks).
    pub fn with_working_prec(prec: u32, wp: u32) -> Option<Self> {
        let fc = LimbConsts::<L>::with_working_prec(prec, wp)?;
        Some(QuadConsts {
            fc,
            half_pi: fc.half_pi,
        })
    }

    /// The packed block for the kernels.
    pub fn block(&self) -> ConstBlock {
        let xs = [
            self.fc.pi,
            self.fc.ln2,
            self.fc.log2e,
            self.fc.two_over_pi,
            self.half_pi,
        ];
        let mut b = ConstBlock {
            cap: L,
            limbs: vec![0; L * xs.len()],
            exps: vec![0; xs.len()],
            kinds: vec![0; xs.len()],
            precs: vec![0; xs.len()],
        };
        for (i, x) in xs.iter().enumerate() {
            b.kinds[i] = kind_code(x.kind()) | (x.is_sign_negative() as u8) << 2;
            b.precs[i] = x.prec();
            if let Some(e) = x.exponent() {
                b.exps[i] = e;
                b.limbs[i * L..i * L + x.mantissa().len()].copy_from_slice(x.mantissa());
            }
        }
        b
    }
}

/// Element i of `a` as a `LimbFloat<L>` (`None` when not a valid number of L limbs).
pub fn unpack<const L: usize>(a: &LimbArrays, i: usize) -> Option<LimbFloat<L>> {
    let n = a.prec.div_ceil(64) as usize;
    let k = a.kinds[i];
    let m: Vec<u64> = (0..n).map(|j| a.limbs[j * a.count + i]).collect();
    LimbFloat::from_parts(kind_of(k), k & 4 != 0, a.exps[i], &m, a.prec)
}

/// Packs numbers (all of precision `prec`) in the kernels' layout.
pub fn pack<const L: usize>(xs: &[LimbFloat<L>], prec: u32) -> LimbArrays {
    let n = prec.div_ceil(64) as usize;
    let count = xs.len();
    let mut a = LimbArrays {
        prec,
        count,
        limbs: vec![0; n * count],
        exps: vec![0; count],
        kinds: vec![0; count],
    };
    for (i, x) in xs.iter().enumerate() {
        debug_assert_eq!(x.prec(), prec);
        a.kinds[i] = kind_code(x.kind()) | (x.is_sign_negative() as u8) << 2;
        if let Some(e) = x.exponent() {
            a.exps[i] = e;
            for (j, &l) in x.mantissa().iter().enumerate() {
                a.limbs[j * count + i] = l;
            }
        }
    }
    a
}

/// What `limb_fn_<L>` computes for one element: the function of `expanse_core`'s
/// `limb::functions`.
pub fn fn_reference<const L: usize>(
    f: LimbFn,
    x: &LimbFloat<L>,
    c: &LimbConsts<L>,
) -> LimbFloat<L> {
    match f {
        LimbFn::Exp => functions::exp(x, c),
        LimbFn::Ln => functions::ln(x, c),
        LimbFn::Sin => functions::sin(x, c),
        LimbFn::Cos => functions::cos(x, c),
    }
}

/// Runs `$body` with `const $l: usize` bound to capacity `$cap` (one of [`FN_CAPACITIES`]).
macro_rules! with_cap {
    ($cap:expr, $l:ident => $body:expr) => {
        match $cap {
            8 => {
                const $l: usize = 8;
                $body
            }
            16 => {
                const $l: usize = 16;
                $body
            }
            32 => {
                const $l: usize = 32;
                $body
            }
            _ => {
                const $l: usize = 64;
                $body
            }
        }
    };
}

fn bad(m: String) -> GpuError {
    GpuError::new(GpuErrorKind::InvalidInput(m))
}

/// `f` over every element of `xs` (precision `xs.prec`) on all CPU cores: the CPU twin of
/// [`GpuContext::eval_limb_fn`].
pub fn cpu_fn(f: LimbFn, xs: &LimbArrays) -> Result<LimbArrays, GpuError> {
    let prec = xs.prec;
    let cap = fn_capacity(prec)
        .ok_or_else(|| bad(format!("limb function precision {prec} is out of range")))?;
    with_cap!(cap, L => {
        let c = LimbConsts::<L>::new(prec)
            .ok_or_else(|| bad(format!("no constants for {prec} bits")))?;
        let out: Vec<LimbFloat<L>> = (0..xs.count)
            .into_par_iter()
            .map(|i| match unpack::<L>(xs, i) {
                Some(x) => fn_reference(f, &x, &c),
                None => LimbFloat::nan(prec),
            })
            .collect();
        Ok(pack(&out, prec))
    })
}

/// The integrand of problem 1..=5 at t, given also `to_b` = b − t (see
/// `cuda/limb_quadrature.cu`); every operation to nearest at the precision p of t.
fn eval<const L: usize>(
    problem: u32,
    t: &LimbFloat<L>,
    to_b: &LimbFloat<L>,
    c: &LimbConsts<L>,
) -> LimbFloat<L> {
    let rn = Round::Nearest;
    let p = t.prec();
    match problem {
        1 => {
            functions::exp(t, c)
                .mul_round(&functions::sin(to_b, c), rn)
                .0
        }
        2 => {
            if t.is_zero() {
                return LimbFloat::zero(p, false);
            }
            let s = t.sqrt_round(rn).0;
            s.mul_round(&functions::ln(t, c), rn).0
        }
        3 => functions::ln(&functions::sin(to_b, c), c),
        4 => {
            let half = LimbFloat::from_f64(0.5, p, rn).0;
            let x = t.sqr_round(rn).0.mul_round(&half, rn).0;
            functions::exp(&x.neg(), c)
        }
        _ => {
            let e = functions::exp(&t.neg(), c);
            if e.is_zero() {
                return e;
            }
            e.mul_round(&functions::cos(t, c), rn).0
        }
    }
}

/// The term of one node (c = 1 − x, weight w, both of precision p) for problem 1..=5, as
/// `limb_quad_<L>` computes it: w·(f(left) + f(right))·(b − a)/2 on the finite intervals,
/// w·(f(t_l)·4/(2 − c)² + f(t_r)·4/c²)/2 on [0, ∞) (the formulas of
/// `expanse_apps::quadrature`), every operation to nearest at p.
pub fn quad_node_term<const L: usize>(
    problem: u32,
    nc: &LimbFloat<L>,
    nw: &LimbFloat<L>,
    k: &QuadConsts<L>,
) -> LimbFloat<L> {
    let rn = Round::Nearest;
    let p = nc.prec();
    let int = |v: f64| LimbFloat::<L>::from_f64(v, p, rn).0;
    let half_of = |x: &LimbFloat<L>| x.mul_round(&int(0.5), rn).0;
    let two_minus_c = int(2.0).sub_round(nc, rn).0;
    if problem <= 3 {
        let half = if problem == 2 {
            int(0.5)
        } else {
            half_of(&k.half_pi)
        };
        let near = half.mul_round(nc, rn).0;
        let far = half.mul_round(&two_minus_c, rn).0;
        let fl = eval(problem, &near, &far, &k.fc);
        let fr = eval(problem, &far, &near, &k.fc);
        let s = fl.add_round(&fr, rn).0;
        return s.mul_round(nw, rn).0.mul_round(&half, rn).0;
    }
    let t_r = int(2.0).div_round(nc, rn).0.sub_round(&int(1.0), rn).0;
    let t_l = nc.div_round(&two_minus_c, rn).0;
    let fr = eval(problem, &t_r, &t_r, &k.fc);
    let fl = eval(problem, &t_l, &t_l, &k.fc);
    let jr = if fr.is_zero() {
        LimbFloat::zero(p, false)
    } else {
        let c2 = nc.sqr_round(rn).0;
        fr.mul_round(&int(4.0).div_round(&c2, rn).0, rn).0
    };
    let d2 = two_minus_c.sqr_round(rn).0;
    let jl = fl.mul_round(&int(4.0).div_round(&d2, rn).0, rn).0;
    let s = jr.add_round(&jl, rn).0;
    half_of(&s.mul_round(nw, rn).0)
}

/// The terms of problem 1..=5 for every node (arrays `c` and `w` of one precision) on all CPU
/// cores: the CPU twin of [`GpuContext::limb_quad_terms`].
pub fn cpu_quad_terms(
    problem: u32,
    c: &LimbArrays,
    w: &LimbArrays,
) -> Result<LimbArrays, GpuError> {
    let prec = check_quad(problem, c, w)?;
    let cap = fn_capacity(prec).unwrap_or(64);
    with_cap!(cap, L => {
        let k = QuadConsts::<L>::new(prec)
            .ok_or_else(|| bad(format!("no constants for {prec} bits")))?;
        let out: Vec<LimbFloat<L>> = (0..c.count)
            .into_par_iter()
            .map(|i| match (unpack::<L>(c, i), unpack::<L>(w, i)) {
                (Some(nc), Some(nw)) => quad_node_term(problem, &nc, &nw, &k),
                _ => LimbFloat::nan(prec),
            })
            .collect();
        Ok(pack(&out, prec))
    })
}

fn check_quad(problem: u32, c: &LimbArrays, w: &LimbArrays) -> Result<u32, GpuError> {
    let prec = c.prec;
    if !(1..=5).contains(&problem) {
        return Err(bad(format!(
            "quadrature problem {problem} is not one of 1..=5"
        )));
    }
    if fn_capacity(prec).is_none() {
        return Err(bad(format!("quadrature precision {prec} is out of range")));
    }
    if w.prec != prec || w.count != c.count {
        return Err(bad("node arrays differ in length or precision".into()));
    }
    Ok(prec)
}

/// Threads per block of the kernels.
const BLOCK: u32 = 64;

impl GpuContext {
    fn limb_fn_launch(
        &self,
        kernel: &str,
        code: i32,
        prec: u32,
        block: &ConstBlock,
        inputs: &[&LimbArrays],
    ) -> Result<LimbArrays, GpuError> {
        let count = inputs[0].count;
        let n = prec.div_ceil(64) as usize;
        let mut out = LimbArrays {
            prec,
            count,
            limbs: vec![0; n * count],
            exps: vec![0; count],
            kinds: vec![0; count],
        };
        if count == 0 {
            return Ok(out);
        }
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let program = fn_program(block.cap)
            .ok_or_else(|| bad(format!("no limb kernels of {} limbs", block.cap)))?;
        let func = self.function::<f64, 1>(0, program, kernel)?;
        let s = self.stream(0);
        let up = |e| move |x| drv(e, x);
        let cm = s
            .clone_htod(&block.limbs)
            .map_err(up("uploading constants"))?;
        let ce = s
            .clone_htod(&block.exps)
            .map_err(up("uploading constants"))?;
        let ck = s
            .clone_htod(&block.kinds)
            .map_err(up("uploading constants"))?;
        let cp = s
            .clone_htod(&block.precs)
            .map_err(up("uploading constants"))?;
        let mut dev_in = Vec::new();
        for a in inputs {
            dev_in.push((
                s.clone_htod(&a.limbs).map_err(up("uploading limbs"))?,
                s.clone_htod(&a.exps).map_err(up("uploading exponents"))?,
                s.clone_htod(&a.kinds).map_err(up("uploading kinds"))?,
            ));
        }
        let mut rm = s
            .alloc_zeros::<u64>(n * count)
            .map_err(up("allocating results"))?;
        let mut re = s
            .alloc_zeros::<i32>(count)
            .map_err(up("allocating results"))?;
        let mut rk = s
            .alloc_zeros::<u8>(count)
            .map_err(up("allocating results"))?;
        let cfg = LaunchConfig {
            grid_dim: ((count as u64).div_ceil(u64::from(BLOCK)) as u32, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let (wp, cnt) = (working_prec(prec), count as u32);
        let mut lb = s.launch_builder(&func);
        lb.arg(&code);
        lb.arg(&prec);
        lb.arg(&wp);
        lb.arg(&cnt);
        lb.arg(&cm);
        lb.arg(&ce);
        lb.arg(&ck);
        lb.arg(&cp);
        for (m, e, k) in &dev_in {
            lb.arg(m);
            lb.arg(e);
            lb.arg(k);
        }
        lb.arg(&mut rm);
        lb.arg(&mut re);
        lb.arg(&mut rk);
        // SAFETY: matches limb_fn_<L>(int, unsigned, unsigned, unsigned, const u64*, const
        // int*, const unsigned char*, const unsigned*, then (const u64*, const int*, const
        // unsigned char*) per input, u64*, int*, unsigned char*) and limb_quad_<L> (two
        // inputs) in cuda/limb_functions.cu and cuda/limb_quadrature.cu; every array holds
        // `count` elements of ⌈prec/64⌉ limbs, the constant block 5 elements of L limbs.
        unsafe { lb.launch(cfg) }.map_err(|e| drv(&format!("launching {kernel}"), e))?;
        out.limbs = s.clone_dtoh(&rm).map_err(up("download"))?;
        out.exps = s.clone_dtoh(&re).map_err(up("download"))?;
        out.kinds = s.clone_dtoh(&rk).map_err(up("download"))?;
        Ok(out)
    }

    /// Compiles (NVRTC) and loads the program of the kernels for precision `prec` on GPU 0,
    /// so that later calls are not charged for it (they would compile it on first use).
    pub fn prepare_limb_fn(&self, prec: u32) -> Result<(), GpuError> {
        let cap = fn_capacity(prec)
            .ok_or_else(|| bad(format!("limb function precision {prec} is out of range")))?;
        let program =
            fn_program(cap).ok_or_else(|| bad(format!("no limb kernels of {cap} limbs")))?;
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        self.function::<f64, 1>(0, program, &format!("limb_quad_{cap}"))?;
        Ok(())
    }

    /// `f` over every element of `xs` (precision 2..≈3960 bits: [`fn_capacity`]) on GPU 0,
    /// bit-identical to [`cpu_fn`].
    pub fn eval_limb_fn(&self, f: LimbFn, xs: &LimbArrays) -> Result<LimbArrays, GpuError> {
        let prec = xs.prec;
        let cap = fn_capacity(prec)
            .ok_or_else(|| bad(format!("limb function precision {prec} is out of range")))?;
        let block = with_cap!(cap, L => QuadConsts::<L>::new(prec)
            .ok_or_else(|| bad(format!("no constants for {prec} bits")))?
            .block());
        self.limb_fn_launch(&format!("limb_fn_{cap}"), f as i32, prec, &block, &[xs])
    }

    /// The terms of problem 1..=5 for every node (arrays `c` and `w` of one precision) on
    /// GPU 0, bit-identical to [`cpu_quad_terms`].
    pub fn limb_quad_terms(
        &self,
        problem: u32,
        c: &LimbArrays,
        w: &LimbArrays,
    ) -> Result<LimbArrays, GpuError> {
        let prec = check_quad(problem, c, w)?;
        let cap = fn_capacity(prec).unwrap_or(64);
        let block = with_cap!(cap, L => QuadConsts::<L>::new(prec)
            .ok_or_else(|| bad(format!("no constants for {prec} bits")))?
            .block());
        self.limb_fn_launch(
            &format!("limb_quad_{cap}"),
            problem as i32,
            prec,
            &block,
            &[c, w],
        )
    }
}
