//! # expanse-apps: three applications of extended precision (seed 000, section 5)
//!
//! Each module is one application, computed on all CPU cores (rayon) and checked against a
//! known answer obtained by an independent method:
//!
//! - [`summation`]: a sum with heavy cancellation and a wide dynamic range (like the climate
//!   model's global sum of seed 000 §5.1) in f64 (several orders: they differ), in double-double
//!   and quad-double with a fixed reduction tree (identical for every thread count), and exactly
//!   (integer accumulation), which is the known answer.
//! - [`qrs`]: Newton's method in quad-double on the Quinn–Rand–Strogatz equation for N = 4^m,
//!   Richardson extrapolation of N·(1 − s_N) to the constant c₁, checked against c₁ computed
//!   independently as the zero of the Hurwitz zeta function ζ(1/2, c/2) (seed 000 §5.2).
//! - [`quadrature`]: tanh-sinh quadrature in MPFR at hundreds of digits for the five problems of
//!   seed 000 Table 4, checked against their closed forms (§5.3).
//!
//! [`cli`] holds the small argument parser and JSON writer shared by the examples
//! (`examples/summation.rs`, `examples/qrs.rs`, `examples/quadrature.rs` of the root package);
//! this crate never prints. The GPU versions come with the GPU array layer.

pub mod cli;
pub mod qrs;
pub mod quadrature;
pub mod summation;
