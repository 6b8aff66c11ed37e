//! # expanse-core: floating-point expansions with proven error bounds
//!
//! An *expansion* represents a number as the unevaluated sum of N machine numbers
//! (`Expansion<f64, N>`: "n-double"; `Expansion<f32, N>`: "n-float", the df64/qf128 formats of
//! Thall), giving about N·53 (or N·24) bits of precision with only hardware operations. Use
//! this crate when you need a few hundred bits, fast, on CPU or (through `expanse-gpu`, which
//! runs the same algorithms in CUDA) on GPU; use MPFR (`rug`) when you need thousands of bits
//! or correct rounding.
//!
//! Two tiers:
//! - **accurate** (methods `add`, `sub`, `mul`, `sqr`, `div`, `recip`, `sqrt`, `*_term`): each
//!   has a proven relative error bound, a function of N and u in [`bounds`]; results keep the
//!   ulp-nonoverlapping invariant. The interval crate widens by these bounds.
//! - **fast** (`add_fast`, `mul_fast`, …): seed 001's Alg. 4 and 5, what the search and the
//!   GPU kernels run; accuracy measured, not proven.
//!
//! A number type for generic code: the `std::ops` operators (`x + y`, `x * 2.0`, `x % y`, …,
//! by value and by reference, `Sum`, `Product`) are the accurate tier's methods, bit for bit;
//! `floor`, `ceil`, `round`, `trunc`, `fract` are exact; `Display`/`FromStr` convert to and
//! from decimal. `Expansion` implements `num_traits::Float` (and `Num`, `NumCast`, `Signed`,
//! `FloatConst`, …) and nalgebra's scalar traits `simba::scalar::{ComplexField, RealField}`, so
//! nalgebra's LU, QR and Cholesky run in quad-double (see the `ops`, `num_impls` and
//! `simba_impls` source files for the semantics).
//!
//! The building blocks are the error-free transforms in [`eft`]. The Hénon map is written once
//! in [`henon`] over the [`MapScalar`] trait.
//!
//! References: Joldes, Popescu, Tucker 2013 (seed 001); Joldes, Marty, Muller, Popescu,
//! IEEE TC 65(4) 2016 ("JMMP"); Shewchuk, DCG 18 (1997); Muller et al., Handbook of
//! Floating-Point Arithmetic.
#![deny(missing_docs)]

pub mod accurate;
pub mod accurate_batch;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub mod batch;
pub mod bounds;
pub mod decimal;
pub mod dw;
pub mod eft;
pub mod expansion;
pub mod fast;
pub mod float;
pub mod functions;
pub mod henon;
pub mod limb;
mod num_impls;
mod ops;
pub mod quasi;
pub mod runtime;
mod simba_impls;

pub use decimal::ParseExpansionError;
pub use expansion::{is_ulp_nonoverlapping, ulp_nonoverlapping_pair, Expansion, MAX_TERMS};
pub use float::FloatTerm;
pub use henon::{henon_iterate, henon_step, Fast, MapScalar};

/// Double-double: about 106 bits.
pub type DoubleDouble = Expansion<f64, 2>;
/// Triple-double: about 159 bits.
pub type TripleDouble = Expansion<f64, 3>;
/// Quad-double: about 212 bits.
pub type QuadDouble = Expansion<f64, 4>;
/// Double-float (df64): about 48 bits from two f32.
pub type DoubleFloat = Expansion<f32, 2>;
/// Quad-float (qf128): about 96 bits from four f32.
pub type QuadFloat = Expansion<f32, 4>;
