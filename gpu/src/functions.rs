//! The accurate tier and the elementary functions of expansions on the GPU.
//!
//! `cuda/accurate.cu` repeats, operation for operation, the *accurate* arithmetic of
//! expanse-core (`core/src/accurate.rs`, `core/src/dw.rs`, the error-free transforms of
//! `core/src/eft.rs`): for the same inputs its device functions `acc_add`, `acc_mul`,
//! `acc_div`, `acc_sqrt`, … return the same terms, bit for bit, as `Expansion::add`, `mul`,
//! `div`, `sqrt`, … (NaN payloads aside). Other programs reuse it by listing [`ACCURATE_CU`]
//! among their parts. The host-build test `tests/it/accurate_on_cpu.rs` proves the identity
//! without a GPU; `expanse bench functions --check` repeats it on a device.
//!
//! `cuda/functions.cu` repeats, operation for operation over that tier, the elementary
//! functions of `expanse_core::functions` (exp, exp_m1, ln, ln_1p, log2, log10, cbrt, pow,
//! powi, hypot, the trigonometric functions with their Payne–Hanek reduction, the hyperbolic
//! ones, and the f64 Newton seeds), so that [`GpuContext::eval_unary`],
//! [`GpuContext::eval_binary`] and [`GpuContext::eval_powi`] return, bit for bit, what
//! `Expansion::exp`, …, `Expansion::powi` return on the CPU. Its tables (constants, e^{j/256},
//! 1/k!, series coefficients, the bits of 2/π) and the per-N evaluation plans are not copied
//! by hand: [`functions_program`] generates them, at program-build time, from
//! `expanse_core::functions::device`, the very data the CPU reads. The function ids of the
//! kernels are [`unary_id`] and [`binary_id`], also written into the generated part.
//! `tests/it/functions_on_cpu.rs` proves the identity on the host.

use crate::device::{drv, CudaProgram, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::{LaunchConfig, PushKernelArg};
use expanse_core::functions::{Binary, Unary};
use expanse_core::{Expansion, FloatTerm};
use std::sync::OnceLock;

/// The accurate tier's CUDA source (`gpu/src/cuda/accurate.cu`), to be listed after the prelude
/// among a program's parts. Device functions at N = `NT` terms on the prelude's `E`:
/// `acc_zero`, `acc_from`, `acc_neg`, `acc_add`, `acc_sub`, `acc_add_term`, `acc_mul`,
/// `acc_sqr`, `acc_mul_term`, `acc_div`, `acc_div_term`, `acc_recip`, `acc_sqrt`, `acc_cmp`.
pub const ACCURATE_CU: &str = include_str!("cuda/accurate.cu");

/// The accurate tier with its test kernel `acc_test` (`gpu/src/cuda/accurate_test.cu`: one
/// operation, chosen by [`AccOp`], over interleaved arrays, and the exact comparison).
pub const ACCURATE_PROGRAM: CudaProgram = CudaProgram {
    name: "accurate",
    parts: &[ACCURATE_CU, include_str!("cuda/accurate_test.cu")],
};

/// The operations of the test kernel `acc_test` (its `op` argument), each the `Expansion`
/// method of the same name; `b`'s leading term is the machine-number operand of the `*_term`
/// forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum AccOp {
    /// a + b
    Add = 0,
    /// a − b
    Sub = 1,
    /// a + b₀
    AddTerm = 2,
    /// a·b
    Mul = 3,
    /// a²
    Sqr = 4,
    /// a·b₀
    MulTerm = 5,
    /// a/b
    Div = 6,
    /// a/b₀
    DivTerm = 7,
    /// 1/a
    Recip = 8,
    /// √a
    Sqrt = 9,
    /// −a
    Neg = 10,
    /// a₀ as an expansion
    From = 11,
    /// 0
    Zero = 12,
    /// `accurate::reference_add` (the exact fallback of add)
    RefAdd = 13,
    /// `accurate::reference_mul` (the fallback of mul for N ≥ 3)
    RefMul = 14,
    /// `accurate::reference_mul_term` with b₀ (the fallback of mul_term for N ≥ 3)
    RefMulTerm = 15,
    /// `accurate::reference_div` (the fallback of div)
    RefDiv = 16,
    /// `accurate::reference_sqrt` (the fallback of sqrt)
    RefSqrt = 17,
}

impl AccOp {
    /// Every operation of the test kernel, in the order of their codes.
    pub const ALL: [AccOp; 18] = [
        AccOp::Add,
        AccOp::Sub,
        AccOp::AddTerm,
        AccOp::Mul,
        AccOp::Sqr,
        AccOp::MulTerm,
        AccOp::Div,
        AccOp::DivTerm,
        AccOp::Recip,
        AccOp::Sqrt,
        AccOp::Neg,
        AccOp::From,
        AccOp::Zero,
        AccOp::RefAdd,
        AccOp::RefMul,
        AccOp::RefMulTerm,
        AccOp::RefDiv,
        AccOp::RefSqrt,
    ];
}

/// What `acc_test` computes for one element, on the CPU with expanse-core's methods: the
/// operation's result and [`cmp_code`]`(a, b)`.
pub fn acc_reference<T: expanse_core::FloatTerm, const N: usize>(
    op: AccOp,
    a: &expanse_core::Expansion<T, N>,
    b: &expanse_core::Expansion<T, N>,
) -> (expanse_core::Expansion<T, N>, i32) {
    use expanse_core::{accurate, Expansion};
    let b0 = b.hi();
    let r = match op {
        AccOp::Add => a.add(b),
        AccOp::Sub => a.sub(b),
        AccOp::AddTerm => a.add_term(b0),
        AccOp::Mul => a.mul(b),
        AccOp::Sqr => a.sqr(),
        AccOp::MulTerm => a.mul_term(b0),
        AccOp::Div => a.div(b),
        AccOp::DivTerm => a.div_term(b0),
        AccOp::Recip => a.recip(),
        AccOp::Sqrt => a.sqrt(),
        AccOp::Neg => a.neg(),
        AccOp::From => Expansion::from_term(a.hi()),
        AccOp::Zero => Expansion::zero(),
        AccOp::RefAdd => accurate::reference_add(a, b),
        AccOp::RefMul => accurate::reference_mul(a, b),
        AccOp::RefMulTerm => accurate::reference_mul_term(a, b0),
        AccOp::RefDiv => accurate::reference_div(a, b),
        AccOp::RefSqrt => accurate::reference_sqrt(a),
    };
    (r, cmp_code(a, b))
}

/// `acc_cmp`'s code for `a.cmp_value(b)`: −1, 0, 1, or 2 when unordered (`None`).
pub fn cmp_code<T: expanse_core::FloatTerm, const N: usize>(
    a: &expanse_core::Expansion<T, N>,
    b: &expanse_core::Expansion<T, N>,
) -> i32 {
    match a.cmp_value(b) {
        Some(std::cmp::Ordering::Less) => -1,
        Some(std::cmp::Ordering::Equal) => 0,
        Some(std::cmp::Ordering::Greater) => 1,
        None => 2,
    }
}

/// True when two terms are the same bit pattern, or both NaN (a GPU writes its canonical NaN,
/// the CPU propagates payloads: only NaN-ness is compared).
pub fn same_term<T: expanse_core::FloatTerm>(a: T, b: T) -> bool {
    a.to_bits_u64() == b.to_bits_u64() || (a.is_nan() && b.is_nan())
}

/// The identity the CPU/GPU checks require of two results: the leading terms are
/// [`same_term`], and so is every lower term, except that a zero lower term may have either
/// sign. Why the exception: rustc's LLVM rewrites Fast2Sum's `b − (s − a)` into
/// `b + (a − s)` where it believes `b ≠ −0`, which it wrongly infers after an FMA whose result
/// underflows to −0 (seen in `Expansion::sqr` at N = 2 with subnormal terms), so the CPU itself
/// does not always give the sign its source says. A zero lower term's sign never changes a
/// value: every later operation compares terms with `== 0`, and zero results take their sign
/// from the leading terms.
pub fn same_expansion<T: expanse_core::FloatTerm>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .enumerate()
            .all(|(k, (&x, &y))| same_term(x, y) || (k > 0 && x == T::ZERO && y == T::ZERO))
}

// ---- elementary functions --------------------------------------------------------------------

/// The kernels' id of a unary function (their `func` argument), one stable number per
/// function; `cuda/functions.cu` names it `FN_<NAME>` (`FN_EXP`, `FN_LN_1P`, …), defined in
/// the generated part from this table.
pub fn unary_id(f: Unary) -> i32 {
    match f {
        Unary::Exp => 0,
        Unary::ExpM1 => 1,
        Unary::Ln => 2,
        Unary::Ln1p => 3,
        Unary::Log2 => 4,
        Unary::Log10 => 5,
        Unary::Cbrt => 6,
        Unary::Sin => 7,
        Unary::Cos => 8,
        Unary::Tan => 9,
        Unary::Atan => 10,
        Unary::Asin => 11,
        Unary::Acos => 12,
        Unary::Sinh => 13,
        Unary::Cosh => 14,
        Unary::Tanh => 15,
        Unary::Asinh => 16,
        Unary::Acosh => 17,
        Unary::Atanh => 18,
    }
}

/// The kernels' id of a binary function (`FN_POW`, `FN_ATAN2`, `FN_HYPOT` in the CUDA source).
pub fn binary_id(f: Binary) -> i32 {
    match f {
        Binary::Pow => 32,
        Binary::Atan2 => 33,
        Binary::Hypot => 34,
    }
}

/// The CUDA macro naming a function: `FN_` and its Rust name in capitals.
pub fn id_macro(name: &str) -> String {
    format!("FN_{}", name.to_ascii_uppercase())
}

/// The generated part of the functions program for term type T: the tables, plans and f64
/// constants of `expanse_core::functions::device` as CUDA arrays (`FT_*`: bit patterns of T,
/// `FP_*`: integers, `FD_*`: f64 bit patterns) and the function ids (`FN_*`).
pub fn generated_part<T: FloatTerm>() -> String {
    use expanse_core::functions::device;
    use std::fmt::Write;
    let f64_terms = T::PRECISION == 53;
    let (ty, suffix) = if f64_terms {
        ("unsigned long long", "ull")
    } else {
        ("unsigned", "u")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by expanse-gpu (gpu/src/functions.rs) from expanse_core::functions::device \
         for {} terms: do not edit.",
        T::NAME
    );
    let _ = writeln!(s, "#define FN_T_BITS {ty}");
    let list = |v: &mut dyn Iterator<Item = String>| -> String {
        let items: Vec<String> = v.collect();
        let mut out = String::new();
        for (i, it) in items.iter().enumerate() {
            if i % 6 == 0 {
                out.push_str("\n    ");
            }
            out.push_str(it);
            out.push_str(", ");
        }
        out
    };
    for t in device::term_tables::<T>() {
        let body = list(&mut t.bits.iter().map(|b| format!("{b:#x}{suffix}")));
        let _ = writeln!(
            s,
            "__device__ const FN_T_BITS FT_{}[{}] = {{{body}\n}};",
            t.name,
            t.rows * t.cols
        );
    }
    let body = list(&mut device::two_over_pi().iter().map(|b| format!("{b:#x}ull")));
    let _ = writeln!(s, "__device__ const u64 FT_TWO_OVER_PI[48] = {{{body}\n}};");
    for (name, v) in device::int_params::<T>() {
        if name == "CONST" {
            for (n, x) in [
                "EXP_EMAX",
                "EXP_TABLE_J",
                "MAX_NEWTON",
                "W_MAX",
                "TABLE_TERMS",
                "SIN_DD_F64_FROM",
                "ATAN_DD_F64_FROM",
            ]
            .iter()
            .zip(v.iter())
            {
                let _ = writeln!(s, "#define FP_{n} ({x})");
            }
        } else {
            let body = list(&mut v.iter().map(|x| x.to_string()));
            let _ = writeln!(
                s,
                "__device__ const int FP_{name}[{}] = {{{body}\n}};",
                v.len()
            );
        }
    }
    for (name, v) in device::f64_params::<T>() {
        if v.len() == 1 {
            let _ = writeln!(s, "#define FD_{name} {:#x}ull", v[0].to_bits());
        } else {
            let body = list(&mut v.iter().map(|x| format!("{:#x}ull", x.to_bits())));
            let _ = writeln!(
                s,
                "__device__ const u64 FD_{name}[{}] = {{{body}\n}};",
                v.len()
            );
        }
    }
    for f in Unary::ALL {
        let _ = writeln!(s, "#define {} {}", id_macro(f.name()), unary_id(f));
    }
    for f in Binary::ALL {
        let _ = writeln!(s, "#define {} {}", id_macro(f.name()), binary_id(f));
    }
    s
}

/// The CUDA source of the elementary functions (`gpu/src/cuda/functions.cu`), without the
/// generated part.
pub const FUNCTIONS_CU: &str = include_str!("cuda/functions.cu");

/// The fixed-point exp of f64 N ≥ 3 (`gpu/src/cuda/functions_fixed.cu`, mirror of
/// `expanse_core::functions::fixed`), without its tables ([`fixed_part`]).
pub const FUNCTIONS_FIXED_CU: &str = include_str!("cuda/functions_fixed.cu");

/// The fixed-point sin and cos of f64 N ≥ 3 (`gpu/src/cuda/functions_sin_fixed.cu`, mirror of
/// `expanse_core::functions::sin_fixed`), over [`FUNCTIONS_FIXED_CU`].
pub const FUNCTIONS_SIN_FIXED_CU: &str = include_str!("cuda/functions_sin_fixed.cu");

/// The fixed-point end of atan at f64 N ≥ 3 (`gpu/src/cuda/functions_atan_fixed.cu`, mirror of
/// `expanse_core::functions::atan_fixed`), over [`FUNCTIONS_SIN_FIXED_CU`].
pub const FUNCTIONS_ATAN_FIXED_CU: &str = include_str!("cuda/functions_atan_fixed.cu");

/// The tables of [`FUNCTIONS_FIXED_CU`], [`FUNCTIONS_SIN_FIXED_CU`] and
/// [`FUNCTIONS_ATAN_FIXED_CU`], generated from expanse-core's (`expanse_core::functions::fixed`,
/// `sin_fixed`, `atan_fixed`): ln 2, e^{j/256}, e^{j/65536}, sin(j/256), cos(j/256),
/// atan(j/256), 1/(2k+1) and 1/k! as u64 limbs.
pub fn fixed_part() -> String {
    use expanse_core::functions::fixed;
    let join = |v: &[u64]| -> String {
        let mut out = String::new();
        for (i, b) in v.iter().enumerate() {
            if i % 4 == 0 {
                out.push_str("\n    ");
            }
            out.push_str(&format!("{b:#x}ull, "));
        }
        out
    };
    let mut s = String::from(
        "// Generated by expanse-gpu (gpu/src/functions.rs) from expanse_core::functions::fixed: do not edit.\n",
    );
    s += &format!(
        "#define FX_MAX_W {}\n#define FX_MAX_DEG {}\n",
        fixed::MAX_W,
        fixed::MAX_DEG
    );
    s += &format!(
        "__device__ const u64 FX_LN2[9] = {{{}\n}};\n",
        join(&fixed::ln2_fx())
    );
    let rows: Vec<u64> = (-90..=90).flat_map(fixed::exp_j256_fx).collect();
    s += &format!(
        "__device__ const u64 FX_EXP_J256[{}] = {{{}\n}};\n",
        rows.len(),
        join(&rows)
    );
    let rows: Vec<u64> = (-128..=128).flat_map(fixed::exp_j65536_fx).collect();
    s += &format!(
        "__device__ const u64 FX_EXP_J65536[{}] = {{{}\n}};\n",
        rows.len(),
        join(&rows)
    );
    use expanse_core::functions::sin_fixed;
    let rows: Vec<u64> = (0..=sin_fixed::SIN_TAB_MAX)
        .flat_map(sin_fixed::sin_j256_fx)
        .collect();
    s += &format!(
        "__device__ const u64 FX_SIN_J256[{}] = {{{}\n}};\n",
        rows.len(),
        join(&rows)
    );
    let rows: Vec<u64> = (0..=sin_fixed::SIN_TAB_MAX)
        .flat_map(sin_fixed::cos_j256_fx)
        .collect();
    s += &format!(
        "__device__ const u64 FX_COS_J256[{}] = {{{}\n}};\n",
        rows.len(),
        join(&rows)
    );
    use expanse_core::functions::atan_fixed;
    let rows: Vec<u64> = (0..=atan_fixed::ATAN_TAB_MAX)
        .flat_map(atan_fixed::atan_j256_fx)
        .collect();
    s += &format!(
        "__device__ const u64 FX_ATAN_J256[{}] = {{{}\n}};\n",
        rows.len(),
        join(&rows)
    );
    let odd: Vec<u64> = (0..=atan_fixed::ATAN_MAX_DEG)
        .flat_map(atan_fixed::inv_odd_fx)
        .collect();
    s += &format!(
        "#define FX_ATAN_MAX_DEG {}\n__device__ const u64 FX_INV_ODD[{}] = {{{}\n}};\n",
        atan_fixed::ATAN_MAX_DEG,
        odd.len(),
        join(&odd)
    );
    let facts: Vec<u64> = (0..=fixed::MAX_DEG).flat_map(fixed::inv_fact_fx).collect();
    s += &format!(
        "__device__ const u64 FX_INV_FACT[{}] = {{{}\n}};\n",
        facts.len(),
        join(&facts)
    );
    s
}

/// The functions program for term type T: the prelude, [`ACCURATE_CU`], [`generated_part`]
/// and [`FUNCTIONS_CU`], with the kernels `fn_unary`, `fn_binary` and `fn_powi`. Built once
/// per process and term type (the generated part is leaked to give the program its static
/// lifetime).
pub fn functions_program<T: FloatTerm>() -> &'static CudaProgram {
    static F64: OnceLock<CudaProgram> = OnceLock::new();
    static F32: OnceLock<CudaProgram> = OnceLock::new();
    let (cell, name) = if T::PRECISION == 53 {
        (&F64, "functions_f64")
    } else {
        (&F32, "functions_f32")
    };
    cell.get_or_init(|| {
        let generated: &'static str = Box::leak(generated_part::<T>().into_boxed_str());
        let fixed: &'static str = Box::leak(fixed_part().into_boxed_str());
        let parts: &'static [&'static str] = Box::leak(
            vec![
                ACCURATE_CU,
                generated,
                fixed,
                FUNCTIONS_FIXED_CU,
                FUNCTIONS_SIN_FIXED_CU,
                FUNCTIONS_ATAN_FIXED_CU,
                FUNCTIONS_CU,
            ]
            .into_boxed_slice(),
        );
        CudaProgram { name, parts }
    })
}

/// An expansion from terms a kernel wrote (the output of operations that keep the invariant):
/// verbatim when they are ulp-nonoverlapping, `from_term` of a non-finite leading term (as the
/// CPU's special values are), else renormalised (only a wrong result can get there, and then
/// the identity checks see it).
pub fn expansion_from_device<T: FloatTerm, const N: usize>(terms: [T; N]) -> Expansion<T, N> {
    if let Some(e) = Expansion::try_from_normalized(terms) {
        return e;
    }
    if !terms[0].is_finite() && terms[1..].iter().all(|t| *t == T::ZERO) {
        return Expansion::from_term(terms[0]);
    }
    Expansion::from_terms(terms)
}

/// Threads per block of the function kernels.
const FN_BLOCK: u32 = 128;

/// Which function kernel to launch.
#[derive(Clone, Copy)]
enum FnKernel {
    Unary(Unary),
    Binary(Binary),
    Powi(i32),
}

impl GpuContext {
    /// `f(x)` for every `x` of `xs` on the GPUs in use (the slice split evenly between them):
    /// the same terms, bit for bit, as `x.exp()`, `x.ln()`, … (`expanse_core::functions::
    /// eval_unary`) on the CPU. Compiles the functions program for (T, N) on first use
    /// (NVRTC, a few seconds to a minute at N = 8).
    pub fn eval_unary<T: GpuTerm, const N: usize>(
        &self,
        f: Unary,
        xs: &[Expansion<T, N>],
    ) -> Result<Vec<Expansion<T, N>>, GpuError> {
        self.eval_fn(FnKernel::Unary(f), xs, None)
    }

    /// `f(x, y)` elementwise (`Pow`: xʸ; `Atan2`: atan2(x, y), x the ordinate as in
    /// `f64::atan2`; `Hypot`), bit-identical to `x.pow(y)`, `x.atan2(y)`, `x.hypot(y)`.
    pub fn eval_binary<T: GpuTerm, const N: usize>(
        &self,
        f: Binary,
        xs: &[Expansion<T, N>],
        ys: &[Expansion<T, N>],
    ) -> Result<Vec<Expansion<T, N>>, GpuError> {
        if xs.len() != ys.len() {
            return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
                "eval_binary: {} first arguments but {} second ones",
                xs.len(),
                ys.len()
            ))));
        }
        self.eval_fn(FnKernel::Binary(f), xs, Some(ys))
    }

    /// xⁿ for every x of `xs` (one integer n), bit-identical to `x.powi(n)`.
    pub fn eval_powi<T: GpuTerm, const N: usize>(
        &self,
        xs: &[Expansion<T, N>],
        n: i32,
    ) -> Result<Vec<Expansion<T, N>>, GpuError> {
        self.eval_fn(FnKernel::Powi(n), xs, None)
    }

    /// The test kernel `acc_test` of [`ACCURATE_PROGRAM`] on GPU 0: operation `op` on every
    /// pair (a, b) of `pairs`, with `acc_cmp(a, b)`; what [`acc_reference`] computes on the
    /// CPU (the device check of the accurate tier).
    pub fn eval_accurate<T: GpuTerm, const N: usize>(
        &self,
        op: AccOp,
        pairs: &[[Expansion<T, N>; 2]],
    ) -> Result<Vec<(Expansion<T, N>, i32)>, GpuError> {
        let n = pairs.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        self.cuda_context(0)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let func = self.function::<T, N>(0, &ACCURATE_PROGRAM, "acc_test")?;
        let s = self.stream(0);
        let mut a = vec![T::ZERO; n * N];
        let mut b = vec![T::ZERO; n * N];
        for (j, p) in pairs.iter().enumerate() {
            for k in 0..N {
                a[k * n + j] = p[0].terms()[k];
                b[k * n + j] = p[1].terms()[k];
            }
        }
        let da = s.clone_htod(&a).map_err(|e| drv("uploading a", e))?;
        let db = s.clone_htod(&b).map_err(|e| drv("uploading b", e))?;
        let mut dout = s
            .alloc_zeros::<T>(n * N)
            .map_err(|e| drv("allocating results", e))?;
        let mut dcmp = s
            .alloc_zeros::<i32>(n)
            .map_err(|e| drv("allocating comparisons", e))?;
        let cfg = LaunchConfig {
            grid_dim: ((n as u64).div_ceil(FN_BLOCK as u64) as u32, 1, 1),
            block_dim: (FN_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let code = op as i32;
        let count = n as u64;
        let mut lb = s.launch_builder(&func);
        lb.arg(&code);
        lb.arg(&da);
        lb.arg(&db);
        lb.arg(&mut dout);
        lb.arg(&mut dcmp);
        lb.arg(&count);
        // SAFETY: matches acc_test(int, const T*, const T*, T*, int*, u64) in
        // cuda/accurate_test.cu; the arrays hold n·N terms and n comparisons.
        unsafe { lb.launch(cfg) }.map_err(|e| drv("launching acc_test", e))?;
        let out: Vec<T> = s.clone_dtoh(&dout).map_err(|e| drv("download", e))?;
        let cmp: Vec<i32> = s.clone_dtoh(&dcmp).map_err(|e| drv("download", e))?;
        Ok((0..n)
            .map(|j| {
                let mut t = [T::ZERO; N];
                for (k, v) in t.iter_mut().enumerate() {
                    *v = out[k * n + j];
                }
                (expansion_from_device(t), cmp[j])
            })
            .collect())
    }

    /// Compiles the functions program for (T, N) on every GPU in use (so that a later call
    /// measures only the evaluation).
    pub fn prepare_functions<T: GpuTerm, const N: usize>(&self) -> Result<(), GpuError> {
        for i in 0..self.device_count() {
            self.function::<T, N>(i, functions_program::<T>(), "fn_unary")?;
        }
        Ok(())
    }

    fn eval_fn<T: GpuTerm, const N: usize>(
        &self,
        k: FnKernel,
        xs: &[Expansion<T, N>],
        ys: Option<&[Expansion<T, N>]>,
    ) -> Result<Vec<Expansion<T, N>>, GpuError> {
        let n = xs.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let devices = self.device_count().max(1);
        let per = n.div_ceil(devices);
        let ranges: Vec<std::ops::Range<usize>> = (0..devices)
            .map(|i| (i * per).min(n)..((i + 1) * per).min(n))
            .collect();
        let run = |i: usize, r: std::ops::Range<usize>| -> Result<Vec<Expansion<T, N>>, GpuError> {
            self.eval_on_device(i, k, &xs[r.clone()], ys.map(|y| &y[r]))
        };
        if devices == 1 {
            return run(0, ranges[0].clone());
        }
        let parts: Vec<Result<Vec<Expansion<T, N>>, GpuError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = ranges
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let r = r.clone();
                    let run = &run;
                    sc.spawn(move || run(i, r))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GpuError::new(GpuErrorKind::Driver(
                            "a device thread panicked".into(),
                        )))
                    })
                })
                .collect()
        });
        let mut out = Vec::with_capacity(n);
        for p in parts {
            out.extend(p?);
        }
        Ok(out)
    }

    fn eval_on_device<T: GpuTerm, const N: usize>(
        &self,
        i: usize,
        k: FnKernel,
        xs: &[Expansion<T, N>],
        ys: Option<&[Expansion<T, N>]>,
    ) -> Result<Vec<Expansion<T, N>>, GpuError> {
        let n = xs.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let (_, out) = self.launch_fn(i, k, xs, ys, 1, true)?;
        Ok((0..n)
            .map(|j| {
                let mut t = [T::ZERO; N];
                for (k, v) in t.iter_mut().enumerate() {
                    *v = out[k * n + j];
                }
                expansion_from_device(t)
            })
            .collect())
    }

    /// Seconds per launch of the kernel of `f` over `xs` on GPU 0, the arguments already on
    /// the device (one warm-up launch, then `launches` launches timed together by the wall
    /// clock after a synchronisation): `xs.len()` / the result is the GPU's rate in
    /// evaluations per second.
    pub fn time_unary<T: GpuTerm, const N: usize>(
        &self,
        f: Unary,
        xs: &[Expansion<T, N>],
        launches: usize,
    ) -> Result<f64, GpuError> {
        if xs.is_empty() || launches == 0 {
            return Ok(0.0);
        }
        let (secs, _) = self.launch_fn(0, FnKernel::Unary(f), xs, None, launches, false)?;
        Ok(secs)
    }

    /// Uploads, runs the kernel `launches` times (after one untimed warm-up launch when
    /// `launches` > 1) and returns (seconds per timed launch, the interleaved result terms when
    /// `download`).
    fn launch_fn<T: GpuTerm, const N: usize>(
        &self,
        i: usize,
        k: FnKernel,
        xs: &[Expansion<T, N>],
        ys: Option<&[Expansion<T, N>]>,
        launches: usize,
        download: bool,
    ) -> Result<(f64, Vec<T>), GpuError> {
        let n = xs.len();
        self.cuda_context(i)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let name = match k {
            FnKernel::Unary(_) => "fn_unary",
            FnKernel::Binary(_) => "fn_binary",
            FnKernel::Powi(_) => "fn_powi",
        };
        let func = self.function::<T, N>(i, functions_program::<T>(), name)?;
        let s = self.stream(i);
        let interleave = |v: &[Expansion<T, N>]| -> Vec<T> {
            let mut out = vec![T::ZERO; v.len() * N];
            for (j, e) in v.iter().enumerate() {
                for (t, term) in e.terms().iter().enumerate() {
                    out[t * v.len() + j] = *term;
                }
            }
            out
        };
        let dx = s
            .clone_htod(&interleave(xs))
            .map_err(|e| drv("uploading the arguments", e))?;
        let dz = match ys {
            Some(y) => Some(
                s.clone_htod(&interleave(y))
                    .map_err(|e| drv("uploading the second arguments", e))?,
            ),
            None => None,
        };
        let mut dy = s
            .alloc_zeros::<T>(n * N)
            .map_err(|e| drv(&format!("allocating {n} results"), e))?;
        let cfg = LaunchConfig {
            grid_dim: ((n as u64).div_ceil(FN_BLOCK as u64) as u32, 1, 1),
            block_dim: (FN_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let count = n as u64;
        let (id, e) = match k {
            FnKernel::Unary(f) => (unary_id(f), 0),
            FnKernel::Binary(f) => (binary_id(f), 0),
            FnKernel::Powi(p) => (0, p),
        };
        let mut launch = || -> Result<(), GpuError> {
            let mut b = s.launch_builder(&func);
            match k {
                FnKernel::Unary(_) => {
                    b.arg(&id);
                    b.arg(&dx);
                }
                FnKernel::Binary(_) => {
                    b.arg(&id);
                    b.arg(&dx);
                    b.arg(dz.as_ref().expect("binary kernels get two arguments"));
                }
                FnKernel::Powi(_) => {
                    b.arg(&dx);
                    b.arg(&e);
                }
            }
            b.arg(&mut dy);
            b.arg(&count);
            // SAFETY: the arguments match fn_unary(int, const T*, T*, u64),
            // fn_binary(int, const T*, const T*, T*, u64) and fn_powi(const T*, int, T*, u64)
            // in cuda/functions.cu; every array holds n·N terms and the grid covers n threads.
            unsafe { b.launch(cfg) }.map_err(|e| drv(&format!("launching {name}"), e))?;
            Ok(())
        };
        if launches > 1 {
            launch()?;
            s.synchronize()
                .map_err(|e| drv(&format!("running {name}"), e))?;
        }
        let t0 = std::time::Instant::now();
        for _ in 0..launches {
            launch()?;
        }
        s.synchronize()
            .map_err(|e| drv(&format!("running {name}"), e))?;
        let secs = t0.elapsed().as_secs_f64() / launches as f64;
        let out: Vec<T> = if download {
            s.clone_dtoh(&dy)
                .map_err(|e| drv("downloading the results", e))?
        } else {
            Vec::new()
        };
        Ok((secs, out))
    }
}
