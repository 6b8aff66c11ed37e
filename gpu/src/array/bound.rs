//! Rigorous forward error bounds of the array layer, computed alongside the results in `f64`.
//!
//! Every BLAS routine and the bounded sum return, with each computed expansion ŷ, a number
//! `err` with |ŷ − y| ≤ err, where y is the *exact* result for the exact values of the input
//! expansions. This module holds the bound arithmetic; `cuda/arrays.cu` (`bnd_*`) repeats it
//! operation for operation, so the device's bounds are bit-identical to the host's.
//!
//! # The per-operation fact
//!
//! For one accurate operation ĉ = op(â, b̂) of N terms of T (u = 2^-p) expanse-core proves
//! |ĉ − c| ≤ ε_op·|c| with c = â op b̂ exact, ε_op = [`add_rel_bound`], [`mul_rel_bound`],
//! [`mul_term_rel_bound`], [`sqrt_rel_bound`], when operands and c are zero or in
//! [m_N, M_N] = [[`min_normal_result`], [`max_normal_result`]] (`core::bounds`, "Range of
//! validity"). Below m_N that module states that the relative facts of the proofs turn into
//! absolute errors of at most the smallest subnormal σ_T per elementary step, fewer than 2^12
//! steps per operation, i.e. below 2^-31·(2u)^N·m_N ≤ ε_op·m_N in total. We therefore use, for
//! every operation whose operands and exact result are at most M_N in magnitude,
//!
//! > |ĉ − c| ≤ ε_op·|c| + η_op,  η_op = ε_op·m_N,
//!
//! and solve for |c| (|c| ≤ (|ĉ| + η)/(1 − ε)):
//!
//! > |ĉ − c| ≤ δ_op(ĉ) := κ_op·(|ĉ| + η_op) + η_op,  κ_op = ε_op/(1 − ε_op).
//!
//! |ĉ| is bounded from the leading term: for an ulp-nonoverlapping expansion
//! (|x_{i+1}| ≤ ulp(x_i) ≤ max(2u|x_i|, σ_T)), |x| ≤ |x₀|/(1 − 2u) + 2(N − 1)σ_T
//! ≤ c₁|x₀| + c₂ with c₁ = 1 + 4u, c₂ = 16σ_T ([`Consts::mag`]).
//!
//! # Sums of local errors
//!
//! The routines compose additions and multiplications of *exact* inputs. An addition
//! propagates the errors of its operands with coefficient 1 (|ŝ − S| ≤ |ŝ − (l̂ + r̂)| +
//! |l̂ − L| + |r̂ − R|), so the error of any sum tree of products is at most the sum of the
//! local errors δ of all its operations:
//!
//! > err ≤ Σ_products δ_mul(p̂) + Σ_additions δ_add(ŝ)
//! > ≤ κ_mul·(c₁·P + n_m·c₂) + n_m·(κ_mul·η_mul + η_mul) + κ_add·(c₁·A + n_a·c₂) + n_a·(κ_add·η_add + η_add)
//!
//! with P = Σ|p̂₀| over the n_m products and A = Σ|ŝ₀| over the n_a additions. So a routine
//! only carries two f64 sums, P and A, next to its expansion (one f64 addition per operation),
//! and [`Consts::finalize`] turns them into the bound at the end. Scaling by α and β (GEMV, GEMM, AXPY)
//! and the square root (NRM2) propagate an error through a product or a square root; those
//! steps use the explicit formulas of [`Consts::mul_prop`] and [`sqrt_prop`].
//!
//! # Rounding of the bound arithmetic itself
//!
//! P and A are sums of non-negative f64 numbers: each rounded addition of non-negative numbers
//! is ≥ (1 − 2^-53) times the exact one (exact when subnormal), so the exact sums are at most
//! the computed ones times (1 − 2^-53)^{-(n−1)} ≤ 1 + n·2^-52 (for n < 2^40; e^x ≤ 1 + 2x for
//! 0 ≤ x ≤ 1). Every other step of the formulas is one rounded operation on non-negative numbers
//! followed by [`up`] (the next float up), which is ≥ the exact value, also in the subnormal
//! range and on underflow to zero. Overflow gives +∞ and +∞ stays +∞, so the bound is never a
//! finite wrong value.
//!
//! # Range
//!
//! The formulas need every operand and exact intermediate result at most M_N. A routine also
//! carries L = Σ|x₀| over its operands (or checks max |x₀| beforehand, GEMM): when c₁·L or
//! c₁·P (times (1 + n·2^-52)) exceeds M_N/64 the bound is +∞. Every partial sum of a tree is
//! at most the sum of its leaves' magnitudes, and its computed value at most twice that, so
//! this covers every operation.
//!
//! # Tightness
//!
//! The bound is an a-posteriori running bound: for sums of products with random signs it is
//! within a factor of about 2√n·(ε_op / observed relative error per operation) of the actual
//! error; `tests/it/arrays_blas.rs` checks the ratio on benign inputs.

// `!(x <= limit)` on purpose: NaN must take the out-of-range branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use expanse_core::bounds::{
    add_rel_bound, max_normal_result, min_normal_result, mul_rel_bound, mul_term_rel_bound,
    sqrt_rel_bound,
};
use expanse_core::FloatTerm;

/// The next float above `x` for `x ≥ 0` (+∞ for +∞ and NaN; the smallest subnormal for 0):
/// ≥ the exact value of any operation on non-negative numbers whose rounded result is `x`.
#[inline(always)]
pub fn up(x: f64) -> f64 {
    if !(x < f64::INFINITY) {
        f64::INFINITY
    } else if x == 0.0 {
        f64::from_bits(1)
    } else {
        f64::from_bits(x.to_bits() + 1)
    }
}

/// The next float below `x` for `x ≥ 0` (0 for 0; NaN gives 0): ≤ the exact value of any
/// operation on non-negative numbers whose rounded result is `x`.
#[inline(always)]
pub fn down(x: f64) -> f64 {
    if !(x > 0.0) {
        0.0
    } else if x == f64::INFINITY {
        f64::MAX
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// a + b rounded up (a, b ≥ 0).
#[inline(always)]
pub fn add_up(a: f64, b: f64) -> f64 {
    up(a + b)
}

/// a·b rounded up (a, b ≥ 0).
#[inline(always)]
pub fn mul_up(a: f64, b: f64) -> f64 {
    up(a * b)
}

/// The constants of the bound formulas for N terms of one term type, computed once on the host
/// and handed to the device kernels as a small array ([`Consts::to_array`]), so both backends
/// use the same f64 values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Consts {
    /// c₁ = 1 + 4u: |x| ≤ c₁|x₀| + c₂.
    pub c1: f64,
    /// c₂ = 16σ_T.
    pub c2: f64,
    /// M_N/64: larger magnitude sums make the bound +∞.
    pub lim: f64,
    /// κ and κ·η + η (rounded up) of addition.
    pub add: OpConsts,
    /// Of multiplication (and squaring).
    pub mul: OpConsts,
    /// Of multiplication by a machine number.
    pub mul_term: OpConsts,
    /// Of the square root.
    pub sqrt: OpConsts,
    /// 1 − 4u (exact): |x| ≥ (1 − 4u)|x₀| − c₂ (for lower bounds).
    pub low1: f64,
}

/// The constants of one operation: κ = ε/(1 − ε) and η = ε·m_N, rounded up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpConsts {
    /// κ_op, rounded up.
    pub kappa: f64,
    /// η_op, rounded up.
    pub eta: f64,
    /// κ_op·η_op + η_op, rounded up: the absolute part of δ_op per operation.
    pub abs: f64,
}

impl OpConsts {
    fn new(eps: f64, m: f64) -> Self {
        let kappa = up(eps / down(1.0 - eps));
        let eta = mul_up(eps, m);
        Self {
            kappa,
            eta,
            abs: add_up(mul_up(kappa, eta), eta),
        }
    }
}

/// Number of f64 constants in [`Consts::to_array`].
pub const CONSTS_LEN: usize = 16;

impl Consts {
    /// The constants for N = `n` terms of `T`.
    pub fn new<T: FloatTerm>(n: usize) -> Self {
        let u = T::UNIT_ROUNDOFF;
        let sigma = if T::PRECISION == 53 {
            f64::from_bits(1)
        } else {
            2f64.powi(-149)
        };
        let m = min_normal_result::<T>(n);
        Self {
            c1: 1.0 + 4.0 * u,
            c2: 16.0 * sigma,
            lim: max_normal_result::<T>(n) / 64.0,
            add: OpConsts::new(add_rel_bound::<T>(n), m),
            mul: OpConsts::new(mul_rel_bound::<T>(n), m),
            mul_term: OpConsts::new(mul_term_rel_bound::<T>(n), m),
            sqrt: OpConsts::new(sqrt_rel_bound::<T>(n), m),
            low1: 1.0 - 4.0 * u,
        }
    }

    /// The layout the kernels read (`BC_*` in `cuda/arrays.cu`).
    pub fn to_array(&self) -> [f64; CONSTS_LEN] {
        [
            self.c1,
            self.c2,
            self.lim,
            self.add.kappa,
            self.add.eta,
            self.add.abs,
            self.mul.kappa,
            self.mul.eta,
            self.mul.abs,
            self.mul_term.kappa,
            self.mul_term.eta,
            self.mul_term.abs,
            self.sqrt.kappa,
            self.sqrt.eta,
            self.sqrt.abs,
            self.low1,
        ]
    }

    /// An upper bound of |x| from its leading term's magnitude `a0` = |x₀| (as f64).
    #[inline(always)]
    pub fn mag(&self, a0: f64) -> f64 {
        add_up(mul_up(self.c1, a0), self.c2)
    }

    /// δ_op(ĉ) = κ(|ĉ| + η) + η from |ĉ₀|: the error of one operation with result ĉ.
    #[inline(always)]
    pub fn delta(&self, op: &OpConsts, a0: f64) -> f64 {
        add_up(mul_up(op.kappa, add_up(self.mag(a0), op.eta)), op.eta)
    }

    /// Σ δ_op over `n` operations whose results' leading magnitudes sum (in f64, any order)
    /// to `sum0`: κ·(c₁·sum0·(1 + n·2^-52) + n·c₂) + n·(κη + η).
    #[inline(always)]
    pub fn delta_sum(&self, op: &OpConsts, sum0: f64, n: u64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let nf = n as f64;
        let sum = mul_up(sum0, growth(n));
        let mags = add_up(mul_up(self.c1, sum), mul_up(nf, self.c2));
        add_up(mul_up(op.kappa, mags), mul_up(nf, op.abs))
    }

    /// The bound of a sum tree of `n_m` products (leading magnitudes summing to `p`) and
    /// `n_a` additions (to `a`), whose operands' leading magnitudes sum to `l`: +∞ when the
    /// range check fails (module doc, "Range").
    #[inline(always)]
    pub fn finalize(&self, op_m: &OpConsts, p: f64, n_m: u64, a: f64, n_a: u64, l: f64) -> f64 {
        let nn = n_m.max(n_a).max(1);
        let g = growth(nn);
        let lm = mul_up(self.c1, mul_up(l, g));
        let pm = mul_up(self.c1, mul_up(p, g));
        if !(lm <= self.lim && pm <= self.lim) {
            return f64::INFINITY;
        }
        add_up(
            self.delta_sum(op_m, p, n_m),
            self.delta_sum(&self.add, a, n_a),
        )
    }

    /// Propagation through a product v̂ = op(α, û) where û carries error `err_u` and α is
    /// exact: |v̂ − α·u| ≤ |α|·err_u + δ_mul(v̂). `alpha0`, `u0`, `v0` are the leading
    /// magnitudes; +∞ if any magnitude exceeds the range.
    #[inline(always)]
    pub fn mul_prop(&self, op: &OpConsts, alpha0: f64, u0: f64, err_u: f64, v0: f64) -> f64 {
        let ma = self.mag(alpha0);
        let mu = add_up(self.mag(u0), err_u);
        let mv = self.mag(v0);
        if !(ma <= self.lim && mu <= self.lim && mv <= self.lim) {
            return f64::INFINITY;
        }
        add_up(mul_up(ma, err_u), self.delta(op, v0))
    }

    /// The local error of one addition r̂ = add(v̂, ŵ) with |r̂₀| = `r0`, and the range check
    /// of its operands (`v0`, `w0`, leading magnitudes): δ_add(r̂) or +∞.
    #[inline(always)]
    pub fn add_local(&self, v0: f64, w0: f64, r0: f64) -> f64 {
        let m = add_up(add_up(self.mag(v0), self.mag(w0)), self.mag(r0));
        if !(m <= self.lim) {
            return f64::INFINITY;
        }
        self.delta(&self.add, r0)
    }
}

/// 1 + n·2^-52, rounded up: covers the rounding of an f64 sum of n non-negative numbers.
#[inline(always)]
pub fn growth(n: u64) -> f64 {
    up(1.0 + (n as f64) * f64::EPSILON)
}

/// Error of r̂ = sqrt(ŝ) where ŝ ≥ 0 carries error `err_s` (|ŝ − S| ≤ err_s, S ≥ 0 exact):
/// |r̂ − √S| ≤ δ_sqrt(r̂) + min(err_s/√ŝ, √err_s). `s0` and `r0` are the leading terms'
/// magnitudes.
pub fn sqrt_prop(c: &Consts, s0: f64, err_s: f64, r0: f64) -> f64 {
    // |√ŝ − √S| = |ŝ − S|/(√ŝ + √S) ≤ err_s/√ŝ, and ≤ √|ŝ − S|.
    let root_err = up(err_s.sqrt());
    let s_lo = down(down(c.low1 * s0) - c.c2);
    let via_div = if s_lo > 0.0 {
        up(err_s / down(s_lo.sqrt()))
    } else {
        f64::INFINITY
    };
    let prop = if via_div < root_err {
        via_div
    } else {
        root_err
    };
    let ms = c.mag(s0);
    if !(ms <= c.lim) {
        return f64::INFINITY;
    }
    add_up(c.delta(&c.sqrt, r0), prop)
}
