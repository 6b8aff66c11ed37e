//! # expanse-prove: rigorous periodic sinks of the Hénon map, with certificates
//!
//! Turns a candidate (parameters, period, one orbit point) into a theorem: for every (a, b)
//! in a stated parameter box, h(x, y) = (1 + y − a·x², b·x) has exactly one periodic orbit of
//! minimal period p in stated boxes, and it is attracting (`sink`) or certainly not
//! (`periodic-unstable`); or a `not-proven` outcome that says why. Use it after
//! `expanse-search`; use [`verify`] to re-check a certificate without trusting it.
//!
//! ## Pipeline ([`engine::prove`])
//! 1. Parameters: decimal (or hex) text becomes an exact rational, enclosed by a box with
//!    outward-rounded binary endpoints; `--param-radius r` widens it to value ± r
//!    ([`params`]). The certificate says whether the box is exactly the given number.
//! 2. Refinement: Newton's method on the cyclic system G_i(x) = x_{i+1} − 1 + a·x_i² − b·x_{i−1}
//!    in MPFR, each step solved by banded Gaussian elimination with partial pivoting (the
//!    cyclic system folded into a band; backward stable, and the system is well conditioned:
//!    ‖A⁻¹‖ ≈ 2^9 along period-10 000 orbits at (1.4, 0.3)), damped while the steps are large,
//!    then with the precision following the accuracy (doubling each step) up to the proof's
//!    bits + 64 ([`orbit::refine`]).
//! 3. Existence and uniqueness: Krawczyk on the multiple-shooting system in scalar form with
//!    C = A⁻¹ exact, applied by an O(p) recurrence closed by a 2×2 solve, parameter-box terms
//!    included, ε-inflation ([`krawczyk`]); the outcome enum carries its evidence
//!    (`Proved` with contraction data / `NoZero` / `Undecided` with the reason).
//! 4. Minimal period (disjoint boxes X_i, X_{i+p/q} for each prime q | p) and stability
//!    (enclosure of tr Dh^p, det = (−b)^p, Jury test) ([`stability`]).
//! 5. Arithmetic chosen from the measured growth along the orbit ([`orbit::growth`]: l1 =
//!    log₂ of the point recurrence's growth ≈ λp/ln 2, l2 = log₂ of the growth of interval
//!    widths under it): f64 intervals ([`ivl::F64Iv`], inari), then expansion intervals with
//!    2–4 terms ([`ivl::ExpIv`], `expanse-interval`), then MPFR intervals — computed as
//!    midpoint-radius balls ([`ivl::MpBall`]: one long product per interval product), while
//!    [`verify`] recomputes with endpoint intervals ([`ivl::MpIv`]). For MPFR, the proof runs
//!    at 2.1·log₂ Γ + 64 bits, where log₂ Γ = l1 + l2 is the amplification of the interval
//!    cyclic solve (|A⁻¹w| ≈ Γ·|w| for a box w; a direct measurement agrees with l1 + l2 to
//!    within 2 bits at periods 100 to 10 000), raised by ×1.3 on failure. Every attempt is recorded in the certificate. Only the centres and the
//!    residual need those bits: the O(p) cyclic solve runs at about 1.1·log₂ Γ + 96 bits
//!    ([`krawczyk::eval_split`], inputs rounded outward), and so does the stability
//!    enclosure (the full bits only when that cannot decide).
//! 6. Cross-check: an independent 2-D Krawczyk on h^p(z) − z in MPFR intervals
//!    ([`crosscheck`]; h^p(ž) at the proof's bits, the Jacobian over the box and the
//!    preconditioner at about 0.55 times that); the status needs it to agree.
//! 7. Certificates ([`cert`], schema `expanse-certificate/1`, atomic writes) and independent
//!    verification ([`verify`]).
//! 8. Parameter windows ([`window`]): along a line through a sink's parameters, a certified
//!    inner interval (touching segments, each proved by this pipeline on its own box) and the
//!    estimated saddle-node / period-doubling ends.
//! 9. Continuation in the (a, b) plane ([`continuation`]): the strip's centre line
//!    tr Dh^p = 0 followed by predictor–corrector continuation to the point nearest a target,
//!    proved there at point parameters and on a small box.
//!
//! ## Cost as a function of the period p
//! Let P(p) be the bits used: P ≈ 2.1·log₂ Γ + 64 with log₂ Γ ≈ l1 + l2 (measured: 1380 at
//! p = 1000, 14 157 at p = 10 000), l1 ≈ 0.60·p and l2 ≈ 0.81·p near (1.4, 0.3), so P grows
//! linearly in p (about 3·p bits there; periods up to about 15 run in f64, up to about 60 in
//! expansions). With M(P) the cost of one P-bit multiplication (MPFR: Karatsuba/Toom, about
//! P^1.5 in this range):
//! - time: O(p·M(P)) for the Krawczyk evaluation (two passes of a 3-term recurrence at about
//!   P/2 bits, about 15 ball multiplications per orbit point, after 3 at P bits for the
//!   residual), the stability product (8 per point at P/2 bits) and the cross-check (h^p(ž)
//!   at P bits, the Jacobian over the box and the preconditioner at about 0.55·P); Newton
//!   costs O(p·M(P)) in all, because its precision doubles with its accuracy (the last step,
//!   at P bits with its banded solve at P/2, is about half of it). Altogether O(p·M(P)) =
//!   about O(p^2.5) near the classical parameters. Measured on one core of a 2-vCPU AMD EPYC
//!   (`expanse bench prove`, CPU time): p = 1000 in 0.03 s, p = 10 000 in 8.1 s (Newton 3.0 s,
//!   Krawczyk 2.2 s, stability 0.5 s, cross-check 2.5 s).
//! - memory: O(p) numbers: the orbit centres (p numbers of P bits), the radii (p numbers of
//!   53 bits), the first-pass recurrence coefficients (2p numbers of P/2 bits, kept rather
//!   than recomputed), Newton's U factor (about 4p numbers of P/2 bits) — the Jacobian is
//!   never stored and C = A⁻¹ is never formed. In bits that is O(p·P) = O(p²) because the
//!   precision itself must grow with p: 116 MiB peak at p = 10 000. No dense p×p matrix
//!   appears anywhere.
//!
//! ## Soundness
//! Every inclusion is computed in interval arithmetic whose operations contain the exact
//! results (outward rounding, never a global rounding mode); centres are exactly
//! representable in the arithmetic used; floating-point Newton and the preconditioner only
//! affect whether a proof succeeds, never what it proves. [`verify`] recomputes everything
//! from the stored boxes.
#![deny(missing_docs)]

pub mod bench;
pub mod candidates;
pub mod cert;
pub mod continuation;
pub mod crosscheck;
pub mod engine;
pub mod error;
pub mod ivl;
pub mod krawczyk;
pub mod numfmt;
pub mod orbit;
pub mod params;
pub mod stability;
pub mod verify;
pub mod window;

pub use error::{Error, ErrorKind};
