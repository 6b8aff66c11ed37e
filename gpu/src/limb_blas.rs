//! Fixed-limb floats on the GPU beyond one operation per launch: kernel-only timing on
//! device-resident arrays, the cooperative-group multiplication, and GEMV / dot / sum over
//! limb arrays with every operation correctly rounded in one fixed order.
//!
//! - [`GpuContext::limb_op_resident`] uploads the operands once and times `launches`
//!   launches (synchronize, wall clock), so the rate excludes PCIe transfers; it runs the
//!   one-thread kernels `limb_op_<L>` ([`LimbLayout::Thread`]) or the group kernels
//!   `limb_group_mul` / `limb_group_add` ([`LimbLayout::Group`]: G threads per number,
//!   `cuda/limb_group.cu`),
//!   both bit-identical to [`crate::limb::limb_reference`].
//! - [`GpuContext::limb_gemv`] computes y = A·x (`cuda/limb_blas.cu`, one block per row) in
//!   the order of [`gemv_reference`]: each product rounded, then a pairwise (tree) sum with
//!   every addition rounded. The order is fixed, so the GPU, the CPU reference (rayon) and
//!   MPFR (the same operations with `rug`) agree bit for bit — an exact oracle for the whole
//!   routine, not only for single operations. [`dot_reference`] and [`sum_reference`] are
//!   the same order for one row; on the GPU a dot product is a 1-row GEMV
//!   ([`GpuContext::limb_dot`]) and a sum the dot product with ones
//!   ([`GpuContext::limb_sum`]); an elementwise map is [`GpuContext::eval_limb`].
//!
//! The kernels are in one program ([`LIMB_EXT_PROGRAM`]: `limb.cu` + `limb_group.cu` +
//! `limb_blas.cu`), which also holds the `limb_op_<L>` kernels, so one compilation serves every
//! measurement here. The host builds of the CUDA sources (`gpu/tests/it/limb_blas_on_cpu.rs`)
//! check the identities without a GPU.

use crate::device::{drv, CudaProgram, GpuContext};
use crate::error::{GpuError, GpuErrorKind};
use crate::limb::{round_code, LimbArrays, LimbOp};
use cudarc::driver::{LaunchConfig, PushKernelArg};
use expanse_core::limb::{capacity_for, AnyLimbFloat, Round};
use rayon::prelude::*;

/// The program of `limb.cu`, `limb_group.cu` and `limb_blas.cu`: kernels `limb_op_<L>`,
/// `limb_group_mul`, `limb_group_add` and `limb_gemv_<L>`.
pub const LIMB_EXT_PROGRAM: CudaProgram = CudaProgram {
    name: "limb_ext",
    parts: &[
        include_str!("cuda/limb.cu"),
        include_str!("cuda/limb_group.cu"),
        include_str!("cuda/limb_blas.cu"),
    ],
};

/// How one operation is spread over GPU threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimbLayout {
    /// One thread per number (`limb_op_<L>`).
    Thread,
    /// A group of this many threads (1..=32) per number: `limb_group_mul` (the product's
    /// column sums spread over the group) for multiplication, `limb_group_add` (operands
    /// staged in shared memory by the group, one lane adds) for addition and subtraction.
    Group(u32),
}

/// Threads per block of the one-thread kernels.
const THREAD_BLOCK: u32 = 64;
/// Threads per block of the GEMV kernel (one block per row).
const GEMV_BLOCK: u32 = 128;
/// Shared memory a group block may use (the default limit without opt-in).
const GROUP_SMEM: usize = 48 * 1024;

/// Launch shape of `limb_group_mul` and `limb_group_add` for `n` limbs and groups of `g` threads: (groups per
/// block, shared-memory bytes per block).
pub fn group_shape(n: usize, g: u32) -> (u32, u32) {
    let per_group = (8 * n + 4) * 8;
    let e = (256 / g).clamp(1, (GROUP_SMEM / per_group).max(1) as u32);
    (e, e * per_group as u32)
}

/// y_i = the pairwise sum of ∘(A_ij·x_j) (see [`sum_reference`]) for every row i of the
/// row-major m×n matrix `a`, every operation rounded in mode `rnd` to `prec` bits: what
/// [`GpuContext::limb_gemv`] computes, on all cores.
pub fn gemv_reference(
    rnd: Round,
    prec: u32,
    m: usize,
    n: usize,
    a: &[AnyLimbFloat],
    x: &[AnyLimbFloat],
) -> Vec<AnyLimbFloat> {
    assert!(a.len() == m * n && x.len() == n, "gemv_reference: shapes");
    (0..m)
        .into_par_iter()
        .map(|i| dot_reference(rnd, prec, &a[i * n..(i + 1) * n], x))
        .collect()
}

/// Σ a_j·b_j in the order of the GEMV kernel: products rounded, then [`sum_reference`].
pub fn dot_reference(
    rnd: Round,
    prec: u32,
    a: &[AnyLimbFloat],
    b: &[AnyLimbFloat],
) -> AnyLimbFloat {
    let v: Vec<AnyLimbFloat> = a
        .iter()
        .zip(b)
        .map(|(x, y)| AnyLimbFloat::mul_prec(x, y, prec, rnd).0)
        .collect();
    sum_reference(rnd, prec, v)
}

/// Pairwise sum, every addition rounded: for s = 1, 2, 4, … < len, v_k ← ∘(v_k + v_{k+s}) for
/// k = 0, 2s, 4s, … with k + s < len; the result is v_0 (+0 for no terms).
pub fn sum_reference(rnd: Round, prec: u32, mut v: Vec<AnyLimbFloat>) -> AnyLimbFloat {
    let len = v.len();
    if len == 0 {
        return AnyLimbFloat::zero(prec, false);
    }
    let mut s = 1;
    while s < len {
        let mut k = 0;
        while k + s < len {
            v[k] = AnyLimbFloat::add_prec(&v[k], &v[k + s], prec, rnd).0;
            k += 2 * s;
        }
        s *= 2;
    }
    v[0]
}

fn bad(m: String) -> GpuError {
    GpuError::new(GpuErrorKind::InvalidInput(m))
}

impl GpuContext {
    /// Operation `op` in mode `rnd` at `prec` bits on device-resident operands (as
    /// [`GpuContext::eval_limb`]; uploaded once), launched `launches` ≥ 1 times on GPU 0 and
    /// timed without transfers: the results of the last launch and the seconds per launch
    /// (the first launch, which may load the kernel, is not timed).
    pub fn limb_op_resident(
        &self,
        op: LimbOp,
        rnd: Round,
        prec: u32,
        operands: &[&LimbArrays],
        layout: LimbLayout,
        launches: usize,
    ) -> Result<(LimbArrays, Vec<i8>, f64), GpuError> {
        let cap = capacity_for(prec)
            .ok_or_else(|| bad(format!("limb precision {prec} is outside 2..=4096")))?;
        if operands.len() != op.arity() {
            return Err(bad(format!(
                "{op:?} takes {} operands, not {}",
                op.arity(),
                operands.len()
            )));
        }
        if let LimbLayout::Group(g) = layout {
            let supported = matches!(op, LimbOp::Mul | LimbOp::Add | LimbOp::Sub);
            if !supported || !(1..=32).contains(&g) {
                return Err(bad(format!(
                    "the group kernels compute products, sums and differences with 1..=32 threads, not {op:?} with {g}"
                )));
            }
        }
        let count = operands[0].count;
        if count == 0 || operands.iter().any(|a| a.count != count || a.prec != prec) {
            return Err(bad(
                "operand arrays are empty or differ in length or precision".into(),
            ));
        }
        let n = prec.div_ceil(64) as usize;
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let s = self.stream(0);
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
        let alloc = |e| drv("allocating results", e);
        let mut rm = s.alloc_zeros::<u64>(n * count).map_err(alloc)?;
        let mut re = s.alloc_zeros::<i32>(count).map_err(alloc)?;
        let mut rk = s.alloc_zeros::<u8>(count).map_err(alloc)?;
        let mut ro = s.alloc_zeros::<i8>(count).map_err(alloc)?;
        let (rcode, p, cnt) = (round_code(rnd), prec, count as u32);
        let code = op as i32;
        let (func, cfg, g) = match layout {
            LimbLayout::Thread => (
                self.function::<f64, 1>(0, &LIMB_EXT_PROGRAM, &format!("limb_op_{cap}"))?,
                LaunchConfig {
                    grid_dim: (cnt.div_ceil(THREAD_BLOCK), 1, 1),
                    block_dim: (THREAD_BLOCK, 1, 1),
                    shared_mem_bytes: 0,
                },
                0u32,
            ),
            LimbLayout::Group(g) => {
                let (e, smem) = group_shape(n, g);
                let name = if op == LimbOp::Mul {
                    "limb_group_mul"
                } else {
                    "limb_group_add"
                };
                (
                    self.function::<f64, 1>(0, &LIMB_EXT_PROGRAM, name)?,
                    LaunchConfig {
                        grid_dim: (cnt.div_ceil(e), 1, 1),
                        block_dim: (e * g, 1, 1),
                        shared_mem_bytes: smem,
                    },
                    g,
                )
            }
        };
        let mut launch = || -> Result<(), GpuError> {
            let mut lb = s.launch_builder(&func);
            match layout {
                LimbLayout::Thread => {
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
                }
                LimbLayout::Group(_) => {
                    if op != LimbOp::Mul {
                        lb.arg(&code);
                    }
                    lb.arg(&rcode);
                    lb.arg(&p);
                    lb.arg(&cnt);
                    lb.arg(&g);
                    lb.arg(&am);
                    lb.arg(&ae);
                    lb.arg(&ak);
                    lb.arg(&bm);
                    lb.arg(&be);
                    lb.arg(&bk);
                }
            }
            lb.arg(&mut rm);
            lb.arg(&mut re);
            lb.arg(&mut rk);
            lb.arg(&mut ro);
            // SAFETY: the arguments match limb_op_<L> in cuda/limb.cu, limb_group_mul
            // (int rnd, unsigned p, unsigned count, unsigned G, a…, b…, r…) and
            // limb_group_add (int op, then the same) in cuda/limb_group.cu; every array holds `count` elements of ⌈prec/64⌉ limbs; the
            // group launch has E·G threads and E·(8n + 4)·8 bytes of shared memory.
            unsafe { lb.launch(cfg) }.map_err(|e| drv("launching a limb kernel", e))?;
            Ok(())
        };
        launch()?;
        s.synchronize()
            .map_err(|e| drv("running a limb kernel", e))?;
        let t0 = std::time::Instant::now();
        for _ in 0..launches.max(1) {
            launch()?;
        }
        s.synchronize()
            .map_err(|e| drv("running a limb kernel", e))?;
        let secs = t0.elapsed().as_secs_f64() / launches.max(1) as f64;
        let out = LimbArrays {
            prec,
            count,
            limbs: s.clone_dtoh(&rm).map_err(|e| drv("download", e))?,
            exps: s.clone_dtoh(&re).map_err(|e| drv("download", e))?,
            kinds: s.clone_dtoh(&rk).map_err(|e| drv("download", e))?,
        };
        let ord = s.clone_dtoh(&ro).map_err(|e| drv("download", e))?;
        Ok((out, ord, secs))
    }

    /// y = A·x on GPU 0 for the row-major m×n matrix `a` (m·n elements) and `x` (n elements),
    /// both at precision `prec`, every operation rounded in mode `rnd`, in the order of
    /// [`gemv_reference`] (bit-identical to it). Uploads once, runs `launches` ≥ 1 timed
    /// calls after an untimed one: y and the seconds per call (kernel only).
    pub fn limb_gemv(
        &self,
        rnd: Round,
        m: usize,
        n: usize,
        a: &LimbArrays,
        x: &LimbArrays,
        launches: usize,
    ) -> Result<(LimbArrays, f64), GpuError> {
        let prec = a.prec;
        let cap = capacity_for(prec)
            .ok_or_else(|| bad(format!("limb precision {prec} is outside 2..=4096")))?;
        if m == 0 || n == 0 || a.count != m * n || x.count != n || x.prec != prec {
            return Err(bad(format!(
                "gemv: A has {} elements and x {} at {} / {} bits, expected {m}×{n} and {n} at one precision",
                a.count, x.count, a.prec, x.prec
            )));
        }
        if (m * n) as u64 > u32::MAX as u64 {
            return Err(bad("gemv: more than 2^32 matrix elements".into()));
        }
        let nl = prec.div_ceil(64) as usize;
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let func = self.function::<f64, 1>(0, &LIMB_EXT_PROGRAM, &format!("limb_gemv_{cap}"))?;
        let s = self.stream(0);
        let up = |v: &LimbArrays| -> Result<_, GpuError> {
            Ok((
                s.clone_htod(&v.limbs)
                    .map_err(|e| drv("uploading limbs", e))?,
                s.clone_htod(&v.exps)
                    .map_err(|e| drv("uploading exponents", e))?,
                s.clone_htod(&v.kinds)
                    .map_err(|e| drv("uploading kinds", e))?,
            ))
        };
        let (am, ae, ak) = up(a)?;
        let (xm, xe, xk) = up(x)?;
        let alloc = |e| drv("allocating the GEMV scratch and result", e);
        let mut sm = s.alloc_zeros::<u64>(nl * m * n).map_err(alloc)?;
        let mut se = s.alloc_zeros::<i32>(m * n).map_err(alloc)?;
        let mut sk = s.alloc_zeros::<u8>(m * n).map_err(alloc)?;
        let mut ym = s.alloc_zeros::<u64>(nl * m).map_err(alloc)?;
        let mut ye = s.alloc_zeros::<i32>(m).map_err(alloc)?;
        let mut yk = s.alloc_zeros::<u8>(m).map_err(alloc)?;
        let threads = (n.div_ceil(2) as u32)
            .div_ceil(32)
            .clamp(1, GEMV_BLOCK / 32)
            * 32;
        let cfg = LaunchConfig {
            grid_dim: (m as u32, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let (rcode, p, mm, nn) = (round_code(rnd), prec, m as u32, n as u32);
        let mut launch = || -> Result<(), GpuError> {
            let mut lb = s.launch_builder(&func);
            lb.arg(&rcode);
            lb.arg(&p);
            lb.arg(&mm);
            lb.arg(&nn);
            lb.arg(&am);
            lb.arg(&ae);
            lb.arg(&ak);
            lb.arg(&xm);
            lb.arg(&xe);
            lb.arg(&xk);
            lb.arg(&mut sm);
            lb.arg(&mut se);
            lb.arg(&mut sk);
            lb.arg(&mut ym);
            lb.arg(&mut ye);
            lb.arg(&mut yk);
            // SAFETY: matches limb_gemv_<L>(int, unsigned p, unsigned M, unsigned N, A…, x…,
            // S…, y…) in cuda/limb_blas.cu; A and S hold M·N elements, x N and y M, of
            // ⌈prec/64⌉ limbs each; the grid has one block per row.
            unsafe { lb.launch(cfg) }.map_err(|e| drv("launching limb_gemv", e))?;
            Ok(())
        };
        launch()?;
        s.synchronize().map_err(|e| drv("running limb_gemv", e))?;
        let t0 = std::time::Instant::now();
        for _ in 0..launches.max(1) {
            launch()?;
        }
        s.synchronize().map_err(|e| drv("running limb_gemv", e))?;
        let secs = t0.elapsed().as_secs_f64() / launches.max(1) as f64;
        let y = LimbArrays {
            prec,
            count: m,
            limbs: s.clone_dtoh(&ym).map_err(|e| drv("download", e))?,
            exps: s.clone_dtoh(&ye).map_err(|e| drv("download", e))?,
            kinds: s.clone_dtoh(&yk).map_err(|e| drv("download", e))?,
        };
        Ok((y, secs))
    }

    /// Σ a_j·b_j on GPU 0 in the order of [`dot_reference`] (a 1-row [`Self::limb_gemv`]).
    pub fn limb_dot(
        &self,
        rnd: Round,
        a: &LimbArrays,
        b: &LimbArrays,
    ) -> Result<AnyLimbFloat, GpuError> {
        let (y, _) = self.limb_gemv(rnd, 1, a.count, a, b, 1)?;
        y.get(0)
            .ok_or_else(|| bad("the GPU returned an invalid number".into()))
    }

    /// Σ v_j on GPU 0 in the order of [`sum_reference`]: the dot product with ones (each
    /// ∘(v_j·1) = v_j exactly, since v_j already has `v.prec` bits).
    pub fn limb_sum(&self, rnd: Round, v: &LimbArrays) -> Result<AnyLimbFloat, GpuError> {
        let one = AnyLimbFloat::from_f64(1.0, v.prec, Round::Nearest).0;
        let ones = LimbArrays::pack(&vec![one; v.count], v.prec);
        self.limb_dot(rnd, v, &ones)
    }
}
