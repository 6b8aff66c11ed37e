//! The *fast* tier: the *search arithmetic* that the CPU search backend runs and that the GPU
//! kernels (`expanse-gpu`, `gpu/src/kernels.cu`) repeat operation for operation, so CPU and GPU
//! orbits agree bit for bit. Keep the two in step: any change here must be mirrored there, and
//! the device check (`expanse bench gpu --check`) proves they agree.
//!
//! These operations have no proven relative error bound (the additions have none under
//! cancellation); their accuracy is *measured* against MPFR by the tests at the end of this
//! file. The interval crate never uses them. They are designed for throughput (few FP64
//! instructions per Hénon step), by number of terms:
//!
//! - **N = 1**: plain IEEE operations on T (identical values to seed 001 Alg. 4/5 with one term
//!   for finite results). A Hénon step costs 5 instructions.
//! - **N = 2**: double-word algorithms (Joldes, Muller, Popescu, ACM TOMS 44(2) 2017):
//!   `add` is SloppyDWPlusDW (no relative bound under cancellation; absolute error about
//!   u²·max(|x|, |y|)), `add_term` is DWPlusFP (bound 2u²), `mul_term` is DWTimesFP with one
//!   FMA (DWTimesFP3, bound 2u²), `mul` is DWTimesDW with FMAs (the low×low product dropped),
//!   `sqr` is the square analogue (x₁² dropped: it lies below the double-word's last bit).
//! - **N ≥ 3**: products are *truncated* (seed 001 Alg. 5's terms of order < N kept exactly
//!   with 2ProdFMA, the order-N terms summed plainly, higher orders dropped), collected by order
//!   into one list and renormalised (VecSum, then VecSumErrBranch with Fast2Sum: JMMP Alg. 6/7);
//!   squaring computes each symmetric product once (2·a_i·a_j, the doubling exact);
//!   multiplication by one machine number forms N products and N − 1 errors. Additions merge
//!   the two operands' terms and renormalise with VecSumErrBranch using 2Sum (exact, so under
//!   cancellation only the truncation to N terms is lost).
//!
//! All comparisons against zero in VecSumErrBranch use `!=` (a NaN error term counts as
//! non-zero); the kernels do the same.

use crate::eft::{fast_two_sum, two_prod, two_sqr, two_sum, vec_sum};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

/// Longest term list a fast operation renormalises: the general product at N = 8 has
/// N² + 1 = 65 terms.
const LIST: usize = 65;

/// VecSumErrBranch (JMMP Alg. 7): compresses the output of [`vec_sum`] into N terms, skipping
/// zero errors. `EXACT` selects 2Sum (exact for any order) or Fast2Sum (as published).
#[inline(always)]
fn err_branch<T: FloatTerm, const N: usize, const EXACT: bool>(e: &[T]) -> [T; N] {
    let mut out = [T::ZERO; N];
    let mut j = 0usize;
    let mut eps = e[0];
    for &next in &e[1..] {
        let (r, err) = if EXACT {
            two_sum(eps, next)
        } else {
            fast_two_sum(eps, next)
        };
        if err != T::ZERO {
            out[j] = r;
            if j + 1 >= N {
                return out;
            }
            j += 1;
            eps = err;
        } else {
            eps = r;
        }
    }
    out[j] = eps;
    out
}

/// VecSum then VecSumErrBranch: the renormalisation of every N ≥ 3 operation.
#[inline(always)]
fn renorm<T: FloatTerm, const N: usize, const EXACT: bool>(list: &mut [T]) -> [T; N] {
    vec_sum(list);
    err_branch::<T, N, EXACT>(list)
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// Fast addition (see the module doc for the algorithm used at each N). No relative error
    /// bound under cancellation.
    #[inline(always)]
    pub fn add_fast(&self, other: &Self) -> Self {
        let a = &self.terms[..];
        let b = &other.terms[..];
        let mut out = [T::ZERO; N];
        if N == 1 {
            out[0] = a[0] + b[0];
        } else if N == 2 {
            // SloppyDWPlusDW.
            let (s, e) = two_sum(a[0], b[0]);
            let v = a[1] + b[1];
            let w = e + v;
            let (z0, z1) = fast_two_sum(s, w);
            out[0] = z0;
            out[1] = z1;
        } else {
            let mut list = [T::ZERO; LIST];
            for i in 0..N {
                list[2 * i] = a[i];
                list[2 * i + 1] = b[i];
            }
            out = renorm::<T, N, true>(&mut list[..2 * N]);
        }
        Self::from_normalized(out)
    }

    /// Fast subtraction: [`Self::add_fast`] of the negation (exact).
    #[inline(always)]
    pub fn sub_fast(&self, other: &Self) -> Self {
        self.add_fast(&other.neg())
    }

    /// Fast multiplication (see the module doc).
    #[inline(always)]
    pub fn mul_fast(&self, other: &Self) -> Self {
        let a = &self.terms[..];
        let b = &other.terms[..];
        let mut out = [T::ZERO; N];
        if N == 1 {
            out[0] = a[0] * b[0];
        } else if N == 2 {
            // DWTimesDW with FMAs; a₁·b₁ dropped.
            let (p, e) = two_prod(a[0], b[0]);
            let t = a[0] * b[1];
            let c = a[1].mul_add(b[0], t);
            let w = e + c;
            let (z0, z1) = fast_two_sum(p, w);
            out[0] = z0;
            out[1] = z1;
        } else {
            // Groups by order n = i + j: the products of order n, then the errors of the
            // products of order n − 1; last, the order-N products and order-(N−1) errors
            // summed plainly.
            let mut list = [T::ZERO; LIST];
            let mut len = 0usize;
            let mut prev = [T::ZERO; 8];
            let mut last = T::ZERO;
            for n in 0..N {
                let mut cur = [T::ZERO; 8];
                for i in 0..=n {
                    let (p, e) = two_prod(a[i], b[n - i]);
                    list[len] = p;
                    len += 1;
                    cur[i] = e;
                }
                for &e in prev.iter().take(n) {
                    list[len] = e;
                    len += 1;
                }
                prev = cur;
            }
            for i in 1..N {
                last = last + a[i] * b[N - i];
            }
            for &e in prev.iter().take(N) {
                last = last + e;
            }
            list[len] = last;
            len += 1;
            out = renorm::<T, N, false>(&mut list[..len]);
        }
        Self::from_normalized(out)
    }

    /// Fast square (see the module doc): each symmetric product computed once.
    #[inline(always)]
    pub fn sqr_fast(&self) -> Self {
        let a = &self.terms[..];
        let mut out = [T::ZERO; N];
        if N == 1 {
            out[0] = a[0] * a[0];
        } else if N == 2 {
            let (p, e) = two_sqr(a[0]);
            let w = (a[0] + a[0]).mul_add(a[1], e);
            let (z0, z1) = fast_two_sum(p, w);
            out[0] = z0;
            out[1] = z1;
        } else {
            let mut d = [T::ZERO; 8]; // d[i] = 2·a[i] (exact)
            for i in 0..N {
                d[i] = a[i] + a[i];
            }
            let mut list = [T::ZERO; LIST];
            let mut len = 0usize;
            let mut prev = [T::ZERO; 8];
            let mut prev_len = 0usize;
            for n in 0..N {
                let mut cur = [T::ZERO; 8];
                let mut cur_len = 0usize;
                for i in 0..=n / 2 {
                    let j = n - i;
                    let (p, e) = if i < j {
                        two_prod(d[i], a[j])
                    } else {
                        two_sqr(a[i])
                    };
                    list[len] = p;
                    len += 1;
                    cur[cur_len] = e;
                    cur_len += 1;
                }
                for &e in prev.iter().take(prev_len) {
                    list[len] = e;
                    len += 1;
                }
                prev = cur;
                prev_len = cur_len;
            }
            let mut last = T::ZERO;
            for i in 1..=N / 2 {
                let j = N - i;
                last = last + if i < j { d[i] * a[j] } else { a[i] * a[i] };
            }
            for &e in prev.iter().take(prev_len) {
                last = last + e;
            }
            list[len] = last;
            len += 1;
            out = renorm::<T, N, false>(&mut list[..len]);
        }
        Self::from_normalized(out)
    }

    /// Fast multiplication by one machine number (see the module doc).
    #[inline(always)]
    pub fn mul_term_fast(&self, t: T) -> Self {
        let a = &self.terms[..];
        let mut out = [T::ZERO; N];
        if N == 1 {
            out[0] = a[0] * t;
        } else if N == 2 {
            // DWTimesFP3.
            let (p, e) = two_prod(a[0], t);
            let w = a[1].mul_add(t, e);
            let (z0, z1) = fast_two_sum(p, w);
            out[0] = z0;
            out[1] = z1;
        } else {
            // [p0, p1, e0, p2, e1, …, p_{N−1}, e_{N−2}] with p_{N−1} a plain product.
            let mut list = [T::ZERO; LIST];
            let (p0, mut e_prev) = two_prod(a[0], t);
            list[0] = p0;
            let mut len = 1usize;
            for i in 1..N {
                let (p, e) = if i + 1 < N {
                    two_prod(a[i], t)
                } else {
                    (a[i] * t, T::ZERO)
                };
                list[len] = p;
                list[len + 1] = e_prev;
                len += 2;
                e_prev = e;
            }
            out = renorm::<T, N, false>(&mut list[..len]);
        }
        Self::from_normalized(out)
    }

    /// Fast addition of one machine number (see the module doc).
    #[inline(always)]
    pub fn add_term_fast(&self, t: T) -> Self {
        let a = &self.terms[..];
        let mut out = [T::ZERO; N];
        if N == 1 {
            out[0] = a[0] + t;
        } else if N == 2 {
            // DWPlusFP.
            let (s, e) = two_sum(a[0], t);
            let v = a[1] + e;
            let (z0, z1) = fast_two_sum(s, v);
            out[0] = z0;
            out[1] = z1;
        } else {
            // [a0, t, a1, …, a_{N−1}]
            let mut list = [T::ZERO; LIST];
            list[0] = a[0];
            list[1] = t;
            list[2..N + 1].copy_from_slice(&a[1..N]);
            out = renorm::<T, N, true>(&mut list[..N + 1]);
        }
        Self::from_normalized(out)
    }

    /// True when every term after the first is zero, i.e. the value is one machine number (or
    /// the expansion is non-finite with zero tail). The search arithmetic multiplies by such a
    /// parameter with [`Self::mul_term_fast`].
    #[inline(always)]
    pub fn is_single_term(&self) -> bool {
        self.terms[1..].iter().all(|t| *t == T::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Float;

    #[test]
    fn fast_ops_are_exact_on_small_integers() {
        fn go<T: FloatTerm, const N: usize>() {
            let a = Expansion::<T, N>::from_f64(3.0);
            let b = Expansion::<T, N>::from_f64(5.0);
            assert_eq!(a.add_fast(&b).to_f64(), 8.0);
            assert_eq!(a.mul_fast(&b).to_f64(), 15.0);
            assert_eq!(a.sub_fast(&b).to_f64(), -2.0);
            assert_eq!(a.sqr_fast().to_f64(), 9.0);
            assert_eq!(a.mul_term_fast(T::from_f64(-7.0)).to_f64(), -21.0);
            assert_eq!(a.add_term_fast(T::ONE).to_f64(), 4.0);
        }
        go::<f64, 1>();
        go::<f64, 2>();
        go::<f64, 3>();
        go::<f64, 5>();
        go::<f64, 8>();
        go::<f32, 2>();
        go::<f32, 4>();
        go::<f32, 8>();
    }

    struct SplitMix(u64);
    impl SplitMix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// A random N-term expansion of magnitude in [1/4, 4] (the Hénon range), built exactly
    /// from an MPFR value with far more bits than the expansion holds.
    fn random<T: FloatTerm, const N: usize>(rng: &mut SplitMix) -> Expansion<T, N> {
        let mut v = Float::with_val(2000, 0);
        for k in 0..(N as u32 * 60) {
            v += Float::with_val(2000, rng.unit() - 0.5) >> (k * 24);
        }
        v *= (rng.unit() * 4.0 - 2.0).exp2();
        if rng.next() & 1 == 1 {
            v = -v;
        }
        Expansion::from_rug(&v)
    }

    /// Relative error of `got` against the exact value, in units of u^N.
    fn rel<T: FloatTerm, const N: usize>(got: &Expansion<T, N>, exact: &Float) -> f64 {
        let d = Float::with_val(2000, &got.to_rug() - exact);
        (d / exact).to_f64().abs() / T::UNIT_ROUNDOFF.powi(N as i32)
    }

    /// Measured accuracy of the search arithmetic against MPFR (2000 bits): multiplications,
    /// squares and additions without cancellation stay within a small multiple of u^N
    /// relative; the sub under cancellation stays within a small multiple of u^N absolute
    /// relative to the operands. The bounds asserted are the measured worst cases rounded up
    /// by a margin (they are not proven).
    fn accuracy<T: FloatTerm, const N: usize>() {
        let mut rng = SplitMix(7 + N as u64 + 100 * T::PRECISION as u64);
        let mut worst = [0.0f64; 6];
        for _ in 0..400 {
            let x = random::<T, N>(&mut rng);
            let y = random::<T, N>(&mut rng);
            let t = T::from_f64(rng.unit() * 2.0 - 1.0);
            let (xr, yr) = (x.to_rug(), y.to_rug());
            let tr = Float::with_val(2000, t.to_f64());
            let cases = [
                rel(&x.mul_fast(&y), &Float::with_val(2000, &xr * &yr)),
                rel(&x.sqr_fast(), &Float::with_val(2000, xr.clone().square())),
                rel(&x.mul_term_fast(t), &Float::with_val(2000, &xr * &tr)),
                rel(
                    &x.abs().add_fast(&y.abs()),
                    &Float::with_val(2000, xr.clone().abs() + yr.clone().abs()),
                ),
                rel(
                    &x.abs().add_term_fast(T::ONE),
                    &Float::with_val(2000, xr.clone().abs() + 1u32),
                ),
                // Absolute error of a difference under cancellation, relative to |x|.
                {
                    let z = Expansion::<T, N>::from_rug(&Float::with_val(2000, &xr * (1.0 + 1e-5)));
                    let zr = z.to_rug();
                    let d = x.sub_fast(&z);
                    let e = Float::with_val(2000, &d.to_rug() - Float::with_val(2000, &xr - &zr));
                    (e / &xr).to_f64().abs() / T::UNIT_ROUNDOFF.powi(N as i32)
                },
            ];
            for (w, c) in worst.iter_mut().zip(cases) {
                *w = w.max(c);
            }
        }
        // Measured: well under 16 u^N everywhere (see the printout with --nocapture).
        eprintln!(
            "{} N={N}: worst/u^N mul, sqr, mul_term, add, add_one, sub: {worst:.3?}",
            T::NAME
        );
        for (k, w) in worst.iter().enumerate() {
            assert!(*w < 16.0, "{} N={N} op {k}: {w} u^N", T::NAME);
        }
    }

    #[test]
    fn fast_tier_accuracy_against_mpfr() {
        accuracy::<f64, 1>();
        accuracy::<f64, 2>();
        accuracy::<f64, 3>();
        accuracy::<f64, 4>();
        accuracy::<f64, 5>();
        accuracy::<f64, 6>();
        accuracy::<f64, 7>();
        accuracy::<f64, 8>();
        accuracy::<f32, 1>();
        accuracy::<f32, 2>();
        accuracy::<f32, 3>();
        accuracy::<f32, 4>();
    }

    #[test]
    fn single_term_detection() {
        assert!(Expansion::<f64, 3>::from_f64(0.3).is_single_term());
        assert!(!Expansion::<f32, 3>::from_f64(0.3).is_single_term());
        assert!(Expansion::<f64, 1>::from_f64(0.3).is_single_term());
    }
}
