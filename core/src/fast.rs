//! The *fast* tier: seed 001's k-term addition (Alg. 4) and multiplication (Alg. 5), which
//! generalise QD, followed by a renormalisation whose inner loop uses Fast2Sum.
//!
//! These operations have no proven relative error bound (under cancellation the addition's
//! error is not bounded relative to the result); their accuracy is *measured* by the tests in
//! `tests/fast_tier.rs` and stated in the README. The search uses them because they are what
//! the GPU kernels run, operation for operation, so CPU and GPU orbits agree bit for bit. The
//! interval crate never uses them.

use crate::eft::{fast_two_sum, two_prod, two_sum, vec_sum};
use crate::expansion::Expansion;
use crate::float::FloatTerm;

/// VecSumErrBranch with Fast2Sum (JMMP Alg. 7 as published); valid on VecSum output.
#[inline(always)]
fn vec_sum_err_branch_fast<T: FloatTerm, const N: usize>(e: &[T]) -> [T; N] {
    let mut out = [T::ZERO; N];
    let mut j = 0usize;
    let mut eps = e[0];
    for &next in &e[1..] {
        let (r, err) = fast_two_sum(eps, next);
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
    if j < N {
        out[j] = eps;
    }
    out
}

/// Fast renormalisation of N + 1 terms into N (VecSum, then VecSumErrBranch with Fast2Sum).
#[inline(always)]
fn renormalize_fast<T: FloatTerm, const N: usize>(r: &mut [T]) -> [T; N] {
    vec_sum(r);
    vec_sum_err_branch_fast::<T, N>(r)
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// Fast addition (seed 001 Alg. 4). No relative error bound under cancellation; measured
    /// accuracy in the README.
    #[inline(always)]
    pub fn add_fast(&self, other: &Self) -> Self {
        let a = &self.terms;
        let b = &other.terms;
        let mut r = [[T::ZERO; N]; 2]; // r[0..=N] used
        let rf = r.as_flattened_mut();
        let mut e = [T::ZERO; N];
        let (r0, e0) = two_sum(a[0], b[0]);
        rf[0] = r0;
        e[0] = e0;
        for n in 1..N {
            let (s, en) = two_sum(a[n], b[n]);
            // VecSum(s_n, e_0, …, e_{n−1}): the sum comes out first, the errors after it.
            let mut chain = [T::ZERO; 9];
            chain[0] = s;
            chain[1..=n].copy_from_slice(&e[..n]);
            vec_sum(&mut chain[..=n]);
            rf[n] = chain[0];
            e[..n].copy_from_slice(&chain[1..=n]);
            e[n] = en;
        }
        let mut last = T::ZERO;
        for &ei in e.iter() {
            last = last + ei;
        }
        rf[N] = last;
        Self::from_normalized(renormalize_fast::<T, N>(&mut rf[..=N]))
    }

    /// Fast subtraction.
    #[inline(always)]
    pub fn sub_fast(&self, other: &Self) -> Self {
        self.add_fast(&other.neg())
    }

    /// Fast multiplication (seed 001 Alg. 5). Measured accuracy in the README.
    #[inline(always)]
    pub fn mul_fast(&self, other: &Self) -> Self {
        let a = &self.terms;
        let b = &other.terms;
        let mut r = [[T::ZERO; N]; 2];
        let rf = r.as_flattened_mut();
        // Errors carried between orders: (n+1)² after step n, at most N² = 64.
        let mut e = [T::ZERO; 64];
        let (r0, e0) = two_prod(a[0], b[0]);
        rf[0] = r0;
        e[0] = e0;
        let mut e_len = 1usize;
        for n in 1..N {
            let mut chain = [T::ZERO; 80];
            let mut hat = [T::ZERO; 9];
            for i in 0..=n {
                let (p, eh) = two_prod(a[i], b[n - i]);
                chain[i] = p;
                hat[i] = eh;
            }
            chain[n + 1..n + 1 + e_len].copy_from_slice(&e[..e_len]);
            let len = n + 1 + e_len;
            vec_sum(&mut chain[..len]);
            rf[n] = chain[0];
            // Remaining errors, then the products' errors.
            e[..len - 1].copy_from_slice(&chain[1..len]);
            e[len - 1..len - 1 + n + 1].copy_from_slice(&hat[..=n]);
            e_len = len - 1 + n + 1;
        }
        let mut last = T::ZERO;
        for i in 1..N {
            last = last + a[i] * b[N - i];
        }
        for &ei in e[..e_len].iter() {
            last = last + ei;
        }
        rf[N] = last;
        Self::from_normalized(renormalize_fast::<T, N>(&mut rf[..=N]))
    }

    /// Fast square (Alg. 5 on equal operands).
    #[inline(always)]
    pub fn sqr_fast(&self) -> Self {
        self.mul_fast(self)
    }

    /// Fast multiplication by one machine number (Alg. 5 with b = (t, 0, …, 0)).
    #[inline(always)]
    pub fn mul_term_fast(&self, t: T) -> Self {
        self.mul_fast(&Self::from_term(t))
    }

    /// Fast addition of one machine number.
    #[inline(always)]
    pub fn add_term_fast(&self, t: T) -> Self {
        self.add_fast(&Self::from_term(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_ops_are_exact_on_small_integers() {
        let a = Expansion::<f64, 4>::from_f64(3.0);
        let b = Expansion::<f64, 4>::from_f64(5.0);
        assert_eq!(a.add_fast(&b).to_f64(), 8.0);
        assert_eq!(a.mul_fast(&b).to_f64(), 15.0);
        assert_eq!(a.sub_fast(&b).to_f64(), -2.0);
    }
}
