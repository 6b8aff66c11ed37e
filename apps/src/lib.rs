//! # expanse-apps: applications of extended precision (seeds 000, 002 and 003)
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
//! - [`fft`]: complex radix-2 FFT of sizes up to 2^24 in f64, df64, qf128, dd and qd (seed
//!   002), twiddles from the library's `sin_cos`, checked by the round trip, an MPFR transform
//!   at 848 bits and an analytic transform: errors at most 2·log2(n)·u.
//! - [`mandelbrot`]: a deep zoom (width ≈ 10^−20) and a shallow one into the Mandelbrot set
//!   in f64, Narumi's quasi double (f32 pairs) and dd (seed 003), written as PNG; dd's escape
//!   counts checked against MPFR at 200 bits on a subsample, f64 shown wrong at the deep zoom.
//! - [`md`]: Lennard-Jones molecular dynamics (velocity Verlet, periodic box) in f32, quasi
//!   double and f64 against a dd reference run (seed 003): energy drift and trajectory
//!   deviation; forces summed in a fixed order, identical on any thread count.
//!
//! [`cli`] holds the small argument parser and JSON writer shared by the examples
//! (`examples/summation.rs`, `qrs.rs`, `quadrature.rs`, `fft.rs`, `mandelbrot.rs`, `md.rs` of
//! the root package);
//! this crate never prints. The GPU versions come with the GPU array layer.

pub mod cli;
pub mod fft;
pub mod mandelbrot;
pub mod md;
pub mod qrs;
pub mod quadrature;
pub mod summation;
