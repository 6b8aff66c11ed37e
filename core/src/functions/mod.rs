//! Elementary functions of expansions: exp, logarithms, powers, trigonometric, inverse
//! trigonometric and hyperbolic functions, cube root and hypot, for `Expansion<T, N>` with
//! T = f64 or f32 and N = 1..8 (seed 000 GQD's functions, seed 002 Thall's df64/qf128 ones).
//!
//! Every function has a *stated error bound* ([`error_bound`]): for an argument in the
//! function's domain whose result (and intermediates) lie in the accurate tier's normal range
//! ([`crate::bounds`]), the computed ŷ and the exact y = f(x) satisfy
//! |ŷ − y| ≤ rel·|y| + abs. The bounds are derived from the algorithms (argument reduction,
//! truncated series, and the accurate tier's proven bounds for each operation) in the
//! documentation of each family's module, and checked against MPFR by the tests. The interval
//! crate widens by them to give rigorous enclosures.
//!
//! Layout:
//! - [`batch`]: batched evaluation over slices on SIMD lanes, bit for bit the scalar functions;
//! - [`constants`]: π, e, ln 2, ln 10, log₂ e, log₁₀ e to 12 terms, and the bits of 2/π;
//! - [`device`]: the tables and plans a device port (expanse-gpu's CUDA) reads from here;
//! - [`exp_log`]: exp, exp_m1, ln, ln_1p, log2, log10, pow, powi, cbrt, hypot;
//! - [`hyperbolic`]: sinh, cosh, tanh, asinh, acosh, atanh;
//! - [`trig`]: sin, cos, sin_cos, tan, atan, atan2, asin, acos (Cody–Waite reduction for
//!   moderate arguments, Payne–Hanek for large ones and near multiples of π/2; atan by a
//!   table of atan(j/256) for f64 N ≥ 2 and f32 N = 2..4, elsewhere by argument halvings);
//! - [`sin_fixed`], [`atan_fixed`]: the fixed-point kernels of sin/cos and of atan at f64
//!   N ≥ 3 ([`fixed`] holds the limb arithmetic and exp's kernel).
//!
//! Compile time: each family's algorithms are generic over (T, N) but instantiated only here,
//! through [`eval_unary`] / [`eval_binary`] (one `match` on a run-time N, as
//! [`crate::runtime`] does for the Hénon step); the methods on [`Expansion`] forward to them,
//! so other crates never compile the 2 × 8 × functions matrix again.
//!
//! ```
//! use expanse_core::functions::{error_bound, Unary};
//! use expanse_core::QuadDouble;
//! let x: QuadDouble = "0.5".parse().unwrap();
//! let back = x.exp().ln(); // 0.5 up to the two functions' bounds
//! assert!((back - x).abs().to_f64() < 1e-60);
//! let (s, c) = x.sin_cos();
//! assert!((s * s + c * c - QuadDouble::one()).abs().to_f64() < 1e-60);
//! // The stated bound of exp at N = 4, relative, in units of u^4 = 2^-212:
//! let b = error_bound::<f64>(Unary::Exp, 4);
//! assert!(b.rel > 0.0 && b.rel * 2f64.powi(212) < 1000.0);
//! ```

pub mod atan_fixed;
pub mod batch;
pub mod constants;
mod constants_table;
pub mod device;
pub mod exp_log;
mod fast2;
pub mod fixed;
mod fixed_table;
pub mod hyperbolic;
mod ln_dd;
mod ln_table;
#[doc(hidden)]
pub mod seeds;
pub mod sin_fixed;
pub mod trig;

use crate::expansion::{Expansion, MAX_TERMS};
use crate::float::FloatTerm;

pub use batch::{
    eval_unary_batch, eval_unary_batch_f32, eval_unary_batch_f64, eval_unary_batch_f64_at,
    FunctionBatchTerm,
};

/// An elementary function of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unary {
    /// eˣ
    Exp,
    /// eˣ − 1, accurate near 0
    ExpM1,
    /// natural logarithm
    Ln,
    /// ln(1 + x), accurate near 0
    Ln1p,
    /// base-2 logarithm
    Log2,
    /// base-10 logarithm
    Log10,
    /// cube root
    Cbrt,
    /// sine
    Sin,
    /// cosine
    Cos,
    /// tangent
    Tan,
    /// arctangent
    Atan,
    /// arcsine
    Asin,
    /// arccosine
    Acos,
    /// hyperbolic sine
    Sinh,
    /// hyperbolic cosine
    Cosh,
    /// hyperbolic tangent
    Tanh,
    /// inverse hyperbolic sine
    Asinh,
    /// inverse hyperbolic cosine
    Acosh,
    /// inverse hyperbolic tangent
    Atanh,
}

impl Unary {
    /// Every unary function, in declaration order.
    pub const ALL: [Unary; 19] = [
        Unary::Exp,
        Unary::ExpM1,
        Unary::Ln,
        Unary::Ln1p,
        Unary::Log2,
        Unary::Log10,
        Unary::Cbrt,
        Unary::Sin,
        Unary::Cos,
        Unary::Tan,
        Unary::Atan,
        Unary::Asin,
        Unary::Acos,
        Unary::Sinh,
        Unary::Cosh,
        Unary::Tanh,
        Unary::Asinh,
        Unary::Acosh,
        Unary::Atanh,
    ];

    /// The function's name as Rust's `f64` method spells it (`exp`, `ln_1p`, …).
    pub fn name(self) -> &'static str {
        match self {
            Unary::Exp => "exp",
            Unary::ExpM1 => "exp_m1",
            Unary::Ln => "ln",
            Unary::Ln1p => "ln_1p",
            Unary::Log2 => "log2",
            Unary::Log10 => "log10",
            Unary::Cbrt => "cbrt",
            Unary::Sin => "sin",
            Unary::Cos => "cos",
            Unary::Tan => "tan",
            Unary::Atan => "atan",
            Unary::Asin => "asin",
            Unary::Acos => "acos",
            Unary::Sinh => "sinh",
            Unary::Cosh => "cosh",
            Unary::Tanh => "tanh",
            Unary::Asinh => "asinh",
            Unary::Acosh => "acosh",
            Unary::Atanh => "atanh",
        }
    }
}

/// An elementary function of two arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    /// xʸ (real: x ≥ 0, or x < 0 with y an integer)
    Pow,
    /// atan2(y, x): the angle of (x, y), the first argument being y as for `f64::atan2`
    Atan2,
    /// √(x² + y²) without intermediate overflow
    Hypot,
}

impl Binary {
    /// Every binary function.
    pub const ALL: [Binary; 3] = [Binary::Pow, Binary::Atan2, Binary::Hypot];

    /// The function's name as Rust's `f64` method spells it.
    pub fn name(self) -> &'static str {
        match self {
            Binary::Pow => "pow",
            Binary::Atan2 => "atan2",
            Binary::Hypot => "hypot",
        }
    }
}

/// A stated error bound: the computed ŷ and the exact y satisfy |ŷ − y| ≤ rel·|y| + abs, for
/// arguments in the domain and range the family's module states.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorBound {
    /// Relative part (of |y|).
    pub rel: f64,
    /// Absolute part (0 for most functions; covers underflow where the result can be tiny).
    pub abs: f64,
}

/// The stated error bound of `f` at `n` terms of type `T` (see each family's module for the
/// derivation and the domain where it holds).
pub fn error_bound<T: FloatTerm>(f: Unary, n: usize) -> ErrorBound {
    match f {
        Unary::Exp
        | Unary::ExpM1
        | Unary::Ln
        | Unary::Ln1p
        | Unary::Log2
        | Unary::Log10
        | Unary::Cbrt => exp_log::error_bound::<T>(f, n),
        Unary::Sin | Unary::Cos | Unary::Tan | Unary::Atan | Unary::Asin | Unary::Acos => {
            trig::error_bound::<T>(f, n)
        }
        Unary::Sinh | Unary::Cosh | Unary::Tanh | Unary::Asinh | Unary::Acosh | Unary::Atanh => {
            hyperbolic::error_bound::<T>(f, n)
        }
    }
}

/// The stated error bound of the binary function `f` at `n` terms of type `T`.
pub fn error_bound_binary<T: FloatTerm>(f: Binary, n: usize) -> ErrorBound {
    match f {
        Binary::Pow | Binary::Hypot => exp_log::error_bound_binary::<T>(f, n),
        Binary::Atan2 => trig::error_bound_binary::<T>(f, n),
    }
}

/// The generic implementation of one unary function (not inlined into other crates: call
/// [`eval_unary`] or the methods on [`Expansion`]).
fn unary_generic<T: FloatTerm, const N: usize>(f: Unary, x: &Expansion<T, N>) -> Expansion<T, N> {
    match f {
        Unary::Exp
        | Unary::ExpM1
        | Unary::Ln
        | Unary::Ln1p
        | Unary::Log2
        | Unary::Log10
        | Unary::Cbrt => exp_log::eval(f, x),
        Unary::Sin | Unary::Cos | Unary::Tan | Unary::Atan | Unary::Asin | Unary::Acos => {
            trig::eval(f, x)
        }
        Unary::Sinh | Unary::Cosh | Unary::Tanh | Unary::Asinh | Unary::Acosh | Unary::Atanh => {
            hyperbolic::eval(f, x)
        }
    }
}

fn binary_generic<T: FloatTerm, const N: usize>(
    f: Binary,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    match f {
        Binary::Pow | Binary::Hypot => exp_log::eval_binary(f, x, y),
        Binary::Atan2 => trig::eval_binary(f, x, y),
    }
}

/// Pads the N terms of `x` to [`MAX_TERMS`] with zeros.
fn pad<T: FloatTerm, const N: usize>(x: &Expansion<T, N>) -> [T; MAX_TERMS] {
    let mut out = [T::ZERO; MAX_TERMS];
    out[..N].copy_from_slice(x.terms());
    out
}

/// The first N of `terms` as an expansion (they are the output of an operation that keeps the
/// invariant).
fn unpad<T: FloatTerm, const N: usize>(terms: &[T; MAX_TERMS]) -> Expansion<T, N> {
    let mut out = [T::ZERO; N];
    out.copy_from_slice(&terms[..N]);
    Expansion::from_normalized(out)
}

fn eval_unary_dyn<T: FloatTerm>(f: Unary, n: usize, x: &[T; MAX_TERMS]) -> [T; MAX_TERMS] {
    crate::runtime::with_terms!(n, N => pad(&unary_generic::<T, N>(f, &unpad::<T, N>(x))))
}

fn eval_binary_dyn<T: FloatTerm>(
    f: Binary,
    n: usize,
    x: &[T; MAX_TERMS],
    y: &[T; MAX_TERMS],
) -> [T; MAX_TERMS] {
    crate::runtime::with_terms!(n, N => pad(&binary_generic::<T, N>(
        f,
        &unpad::<T, N>(x),
        &unpad::<T, N>(y)
    )))
}

/// `f(x)` for an f64 expansion of `n` terms (1..=8) given as its terms padded with zeros:
/// the one compiled instance of the f64 matrix. Panics if n is not in 1..=8.
pub fn eval_unary_f64(f: Unary, n: usize, x: &[f64; MAX_TERMS]) -> [f64; MAX_TERMS] {
    eval_unary_dyn(f, n, x)
}

/// As [`eval_unary_f64`] for f32 terms.
pub fn eval_unary_f32(f: Unary, n: usize, x: &[f32; MAX_TERMS]) -> [f32; MAX_TERMS] {
    eval_unary_dyn(f, n, x)
}

/// `f(x, y)` for f64 expansions of `n` terms (see [`eval_unary_f64`]).
pub fn eval_binary_f64(
    f: Binary,
    n: usize,
    x: &[f64; MAX_TERMS],
    y: &[f64; MAX_TERMS],
) -> [f64; MAX_TERMS] {
    eval_binary_dyn(f, n, x, y)
}

/// As [`eval_binary_f64`] for f32 terms.
pub fn eval_binary_f32(
    f: Binary,
    n: usize,
    x: &[f32; MAX_TERMS],
    y: &[f32; MAX_TERMS],
) -> [f32; MAX_TERMS] {
    eval_binary_dyn(f, n, x, y)
}

/// Evaluates `f` on an expansion through the run-time dispatch (the only instance).
#[inline]
pub fn eval_unary<T: FloatTerm, const N: usize>(f: Unary, x: &Expansion<T, N>) -> Expansion<T, N> {
    unpad(&T::eval_unary_terms(f, N, &pad(x)))
}

/// Evaluates the binary function `f` through the run-time dispatch (the only instance).
#[inline]
pub fn eval_binary<T: FloatTerm, const N: usize>(
    f: Binary,
    x: &Expansion<T, N>,
    y: &Expansion<T, N>,
) -> Expansion<T, N> {
    unpad(&T::eval_binary_terms(f, N, &pad(x), &pad(y)))
}

macro_rules! unary_methods {
    ($($(#[$doc:meta])* $name:ident => $f:expr;)*) => {
        impl<T: FloatTerm, const N: usize> Expansion<T, N> {
            $(
                $(#[$doc])*
                #[inline]
                pub fn $name(&self) -> Self {
                    eval_unary($f, self)
                }
            )*
        }
    };
}

unary_methods! {
    /// eˣ (error bound: [`error_bound`]`(Unary::Exp, N)`).
    exp => Unary::Exp;
    /// eˣ − 1, accurate for small x.
    exp_m1 => Unary::ExpM1;
    /// Natural logarithm; NaN for x < 0, −∞ for ±0.
    ln => Unary::Ln;
    /// ln(1 + x), accurate for small x.
    ln_1p => Unary::Ln1p;
    /// Base-2 logarithm.
    log2 => Unary::Log2;
    /// Base-10 logarithm.
    log10 => Unary::Log10;
    /// Cube root (defined for negative x).
    cbrt => Unary::Cbrt;
    /// Sine, accurate for any finite argument (Payne–Hanek reduction).
    sin => Unary::Sin;
    /// Cosine, accurate for any finite argument.
    cos => Unary::Cos;
    /// Tangent.
    tan => Unary::Tan;
    /// Arctangent, in [−π/2, π/2].
    atan => Unary::Atan;
    /// Arcsine, in [−π/2, π/2]; NaN outside [−1, 1].
    asin => Unary::Asin;
    /// Arccosine, in [0, π]; NaN outside [−1, 1].
    acos => Unary::Acos;
    /// Hyperbolic sine.
    sinh => Unary::Sinh;
    /// Hyperbolic cosine.
    cosh => Unary::Cosh;
    /// Hyperbolic tangent.
    tanh => Unary::Tanh;
    /// Inverse hyperbolic sine.
    asinh => Unary::Asinh;
    /// Inverse hyperbolic cosine; NaN below 1.
    acosh => Unary::Acosh;
    /// Inverse hyperbolic tangent; NaN outside [−1, 1].
    atanh => Unary::Atanh;
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// (sin x, cos x): the two functions one after the other (each reduces the argument).
    pub fn sin_cos(&self) -> (Self, Self) {
        (self.sin(), self.cos())
    }

    /// xʸ; for x < 0 defined only when y is an integer.
    #[inline]
    pub fn pow(&self, y: &Self) -> Self {
        eval_binary(Binary::Pow, self, y)
    }

    /// xⁿ for an integer n, by binary powering (exact for n = 0: 1, also for x = NaN).
    pub fn powi(&self, n: i32) -> Self {
        exp_log::powi(self, n)
    }

    /// atan2(self, x): the angle of the point (x, self), in [−π, π].
    #[inline]
    pub fn atan2(&self, x: &Self) -> Self {
        eval_binary(Binary::Atan2, self, x)
    }

    /// √(self² + y²) without intermediate overflow.
    #[inline]
    pub fn hypot(&self, y: &Self) -> Self {
        eval_binary(Binary::Hypot, self, y)
    }
}
