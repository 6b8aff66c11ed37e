//! The fixed-limb floats of `expanse_core::limb` on the GPU: the CUDA source
//! (`gpu/src/cuda/limb.cu`, the same algorithms as `core/src/limb/`, so results are
//! bit-identical to the CPU reference and hence to MPFR), its kernels `limb_op_<L>` (one
//! thread per element, one operation, rounding mode and precision per launch, capacity L
//! limbs), the interleaved array layout they read and write ([`LimbArrays`]), and
//! [`GpuContext::eval_limb`], which runs one operation over arrays of numbers on GPU 0.
//!
//! The host build of the CUDA source (`gpu/tests/it/limb_on_cpu.rs`) checks the identity
//! without a GPU; `eval_limb` is the entry point of the device check.

use crate::device::{drv, CudaProgram, GpuContext};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::{LaunchConfig, PushKernelArg};
use expanse_core::limb::{capacity_for, AnyLimbFloat, Kind, Round};
use std::cmp::Ordering;

/// The limb program: kernels `limb_op_2`, `limb_op_4`, …, `limb_op_64`.
pub const LIMB_PROGRAM: CudaProgram = CudaProgram {
    name: "limb",
    parts: &[include_str!("cuda/limb.cu")],
};

/// The operations of the `limb_op_<L>` kernels (their `op` argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum LimbOp {
    /// a + b
    Add = 0,
    /// a − b
    Sub = 1,
    /// a · b
    Mul = 2,
    /// a · b + c, one rounding
    Fma = 3,
    /// a / b
    Div = 4,
    /// √a
    Sqrt = 5,
}

impl LimbOp {
    /// Every operation.
    pub const ALL: [LimbOp; 6] = [
        LimbOp::Add,
        LimbOp::Sub,
        LimbOp::Mul,
        LimbOp::Fma,
        LimbOp::Div,
        LimbOp::Sqrt,
    ];

    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            LimbOp::Sqrt => 1,
            LimbOp::Fma => 3,
            _ => 2,
        }
    }
}

/// The rounding-mode code of the kernels (MPFR's order: N, Z, U, D, A).
pub fn round_code(r: Round) -> i32 {
    match r {
        Round::Nearest => 0,
        Round::Zero => 1,
        Round::Up => 2,
        Round::Down => 3,
        Round::Away => 4,
    }
}

fn kind_code(k: Kind) -> u8 {
    match k {
        Kind::Zero => 0,
        Kind::Normal => 1,
        Kind::Inf => 2,
        Kind::Nan => 3,
    }
}

/// `count` numbers of one precision in the kernels' layout: limb j of element i at
/// `limbs[j·count + i]` (⌈prec/64⌉ limbs each), exponents, and kind | sign << 2 per element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimbArrays {
    /// Precision of every element (bits).
    pub prec: u32,
    /// Number of elements.
    pub count: usize,
    /// Limbs, interleaved.
    pub limbs: Vec<u64>,
    /// Exponents (0 for zeros, infinities and NaN).
    pub exps: Vec<i32>,
    /// Kind (0 zero, 1 normal, 2 infinity, 3 NaN) | sign << 2.
    pub kinds: Vec<u8>,
}

impl LimbArrays {
    /// Packs numbers of precision `prec` (each is rounded to nearest at `prec` first; exact
    /// when it already has that precision).
    pub fn pack(xs: &[AnyLimbFloat], prec: u32) -> Self {
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
            let (x, _) = x.with_prec_round(prec, Round::Nearest);
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

    /// Element i, or `None` when its parts are not a valid number.
    pub fn get(&self, i: usize) -> Option<AnyLimbFloat> {
        let n = self.prec.div_ceil(64) as usize;
        let k = self.kinds[i];
        let kind = match k & 3 {
            0 => Kind::Zero,
            1 => Kind::Normal,
            2 => Kind::Inf,
            _ => Kind::Nan,
        };
        let m: Vec<u64> = (0..n).map(|j| self.limbs[j * self.count + i]).collect();
        AnyLimbFloat::from_parts(kind, k & 4 != 0, self.exps[i], &m, self.prec)
    }
}

/// What `limb_op_<L>` computes for one element, on the CPU: expanse-core's result and
/// ternary value at precision `prec` (the operands are read at their own precision).
pub fn limb_reference(
    op: LimbOp,
    rnd: Round,
    prec: u32,
    x: &[AnyLimbFloat],
) -> (AnyLimbFloat, Ordering) {
    match op {
        LimbOp::Add => AnyLimbFloat::add_prec(&x[0], &x[1], prec, rnd),
        LimbOp::Sub => AnyLimbFloat::sub_prec(&x[0], &x[1], prec, rnd),
        LimbOp::Mul => AnyLimbFloat::mul_prec(&x[0], &x[1], prec, rnd),
        LimbOp::Fma => AnyLimbFloat::fma_prec(&x[0], &x[1], &x[2], prec, rnd),
        LimbOp::Div => AnyLimbFloat::div_prec(&x[0], &x[1], prec, rnd),
        LimbOp::Sqrt => AnyLimbFloat::sqrt_prec(&x[0], prec, rnd),
    }
}

/// Threads per block of the limb kernels.
const LIMB_BLOCK: u32 = 64;

impl GpuContext {
    /// Operation `op` rounded in mode `rnd` to `prec` bits (2..=4096) on every element of the
    /// operand arrays (`operands[k]` holds operand k of every element; one array per operand
    /// of `op`, all of the same length and precision `prec`), on GPU 0: the results and
    /// ternary values, bit-identical to [`limb_reference`].
    pub fn eval_limb(
        &self,
        op: LimbOp,
        rnd: Round,
        prec: u32,
        operands: &[&LimbArrays],
    ) -> Result<(LimbArrays, Vec<i8>), GpuError> {
        let bad = |m: String| GpuError::new(GpuErrorKind::InvalidInput(m));
        let cap = capacity_for(prec)
            .ok_or_else(|| bad(format!("limb precision {prec} is outside 2..=4096")))?;
        if operands.len() != op.arity() {
            return Err(bad(format!(
                "{op:?} takes {} operands, not {}",
                op.arity(),
                operands.len()
            )));
        }
        let count = operands[0].count;
        if operands.iter().any(|a| a.count != count || a.prec != prec) {
            return Err(bad("operand arrays differ in length or precision".into()));
        }
        let n = prec.div_ceil(64) as usize;
        let mut out = LimbArrays {
            prec,
            count,
            limbs: vec![0; n * count],
            exps: vec![0; count],
            kinds: vec![0; count],
        };
        if count == 0 {
            return Ok((out, Vec::new()));
        }
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let func = self.function::<f64, 1>(0, &LIMB_PROGRAM, &format!("limb_op_{cap}"))?;
        let s = self.stream(0);
        // Unused operands: the first operand again (never read by the kernel).
        let pick = |k: usize| operands.get(k).copied().unwrap_or(operands[0]);
        let up = |a: &LimbArrays| -> Result<_, GpuError> {
            Ok((
                s.clone_htod(&a.limbs)
                    .map_err(|e| drv("uploading limbs", e))?,
                s.clone_htod(&a.exps)
                    .map_err(|e| drv("uploading exponents", e))?,
                s.clone_htod(&a.kinds)
                    .map_err(|e| drv("uploading kinds", e))?,
            ))
        };
        let (am, ae, ak) = up(pick(0))?;
        let (bm, be, bk) = up(pick(1))?;
        let (cm, ce, ck) = up(pick(2))?;
        let mut rm = s
            .alloc_zeros::<u64>(n * count)
            .map_err(|e| drv("allocating results", e))?;
        let mut re = s
            .alloc_zeros::<i32>(count)
            .map_err(|e| drv("allocating results", e))?;
        let mut rk = s
            .alloc_zeros::<u8>(count)
            .map_err(|e| drv("allocating results", e))?;
        let mut ro = s
            .alloc_zeros::<i8>(count)
            .map_err(|e| drv("allocating results", e))?;
        let cfg = LaunchConfig {
            grid_dim: ((count as u64).div_ceil(LIMB_BLOCK as u64) as u32, 1, 1),
            block_dim: (LIMB_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let (code, rcode, p, cnt) = (op as i32, round_code(rnd), prec, count as u32);
        let mut lb = s.launch_builder(&func);
        lb.arg(&code);
        lb.arg(&rcode);
        lb.arg(&p);
        lb.arg(&cnt);
        lb.arg(&am);
        lb.arg(&ae);
        lb.arg(&ak);
        lb.arg(&bm);
        lb.arg(&be);
        lb.arg(&bk);
        lb.arg(&cm);
        lb.arg(&ce);
        lb.arg(&ck);
        lb.arg(&mut rm);
        lb.arg(&mut re);
        lb.arg(&mut rk);
        lb.arg(&mut ro);
        // SAFETY: matches limb_op_<L>(int, int, unsigned, unsigned, const u64*, const int*,
        // const unsigned char* (×3 operands), u64*, int*, unsigned char*, signed char*) in
        // cuda/limb.cu; every array holds `count` elements of ⌈prec/64⌉ limbs.
        unsafe { lb.launch(cfg) }.map_err(|e| drv("launching limb_op", e))?;
        out.limbs = s.clone_dtoh(&rm).map_err(|e| drv("download", e))?;
        out.exps = s.clone_dtoh(&re).map_err(|e| drv("download", e))?;
        out.kinds = s.clone_dtoh(&rk).map_err(|e| drv("download", e))?;
        let ord = s.clone_dtoh(&ro).map_err(|e| drv("download", e))?;
        Ok((out, ord))
    }
}
