//! Integration tests of expanse-apps: each application at small sizes against its known
//! answer, plus the pieces those answers rest on (one test binary, one module per topic).

mod cli;
mod fft;
mod gpu_on_cpu;
mod mandelbrot;
mod md;
mod qrs;
mod quadrature;
mod summation;
