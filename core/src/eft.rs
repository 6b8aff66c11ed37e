//! Error-free transforms: the exact building blocks of expansion arithmetic.
//!
//! Each function returns a pair `(s, e)` (or a vector) whose exact sum equals the exact result
//! of the operation, provided no overflow occurs (and, for products, no underflow of the
//! error term). References: Muller et al., *Handbook of Floating-Point Arithmetic* (2nd ed.),
//! ch. 4–5; seed 001 Alg. 1–3; Joldes, Marty, Muller, Popescu, IEEE TC 65(4) 2016 (JMMP),
//! Alg. 1–3 and 6–7.
//!
//! Rust never contracts `a * b + c` into an FMA on its own, so the operation counts below are
//! the ones executed.

use crate::batch::Lane;
use crate::float::FloatTerm;

/// 2Sum (Knuth, Møller): `s = fl(a + b)` and `e = a + b − s` exactly. 6 operations, no
/// condition on the operands. Like [`fast_two_sum`] and [`two_prod`] it acts on any
/// [`Lane`] (a machine number, or several in a SIMD register, each lane independently).
#[inline(always)]
pub fn two_sum<T: Lane>(a: T, b: T) -> (T, T) {
    let s = a + b;
    let a_virtual = s - b;
    let b_virtual = s - a_virtual;
    let a_err = a - a_virtual;
    let b_err = b - b_virtual;
    (s, a_err + b_err)
}

/// Fast2Sum (Dekker): `s = fl(a + b)`, `e = a + b − s` exactly, provided the exponent of `a`
/// is at least that of `b` (true when `|a| ≥ |b|` or `a == 0`). 3 operations.
#[inline(always)]
pub fn fast_two_sum<T: Lane>(a: T, b: T) -> (T, T) {
    let s = a + b;
    let z = s - a;
    (s, b - z)
}

/// 2ProdFMA: `p = fl(a·b)` and `e = a·b − p` exactly (when no underflow). 2 operations.
#[inline(always)]
pub fn two_prod<T: Lane>(a: T, b: T) -> (T, T) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// Square variant of [`two_prod`]: `p = fl(a²)`, `e = a² − p` exactly. 2 operations.
#[inline(always)]
pub fn two_sqr<T: FloatTerm>(a: T) -> (T, T) {
    let p = a * a;
    (p, a.mul_add(a, -p))
}

/// Veltkamp split: `a = hi + lo` with `hi` and `lo` each fitting in ⌊p/2⌋ bits, so their
/// products are exact. 4 operations. Valid when `|a|·SPLITTER` does not overflow.
#[inline(always)]
pub fn split<T: FloatTerm>(a: T) -> (T, T) {
    let c = T::SPLITTER * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// Dekker's 2Prod without FMA (for targets without FMA and for comparison): the same result
/// as [`two_prod`] using 17 operations.
#[inline(always)]
pub fn two_prod_dekker<T: FloatTerm>(a: T, b: T) -> (T, T) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, err)
}

/// VecSum (seed 001 Alg. 3; JMMP Alg. 1): a chain of 2Sum from the last element to the first.
/// On return `x[0]` holds the rounded sum and `x[1..]` the errors; the exact sum of `x` is
/// unchanged.
#[inline(always)]
pub fn vec_sum<T: FloatTerm>(x: &mut [T]) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let mut s = x[n - 1];
    for i in (0..n - 1).rev() {
        let (hi, lo) = two_sum(x[i], s);
        x[i + 1] = lo;
        s = hi;
    }
    x[0] = s;
}

/// VecSumErrBranch (JMMP Alg. 7, with 2Sum in place of Fast2Sum so that exactness does not
/// depend on the input's ordering): compresses `e` (the output of [`vec_sum`]) into at most
/// `out.len()` terms that are ulp-nonoverlapping; zero terms are skipped. Unused outputs are
/// set to zero. Returns the number of non-zero terms written.
///
/// Every 2Sum is exact, so the only loss is the truncated tail when more than `out.len()`
/// non-zero terms would be needed.
#[inline(always)]
pub fn vec_sum_err_branch<T: FloatTerm>(e: &[T], out: &mut [T]) -> usize {
    let m = out.len();
    for o in out.iter_mut() {
        *o = T::ZERO;
    }
    if m == 0 || e.is_empty() {
        return 0;
    }
    let mut j = 0usize;
    let mut eps = e[0];
    for &next in &e[1..] {
        let (r, err) = two_sum(eps, next);
        if err != T::ZERO {
            out[j] = r;
            if j + 1 >= m {
                return m;
            }
            j += 1;
            eps = err;
        } else {
            eps = r;
        }
    }
    if eps != T::ZERO && j < m {
        out[j] = eps;
        j += 1;
    }
    j
}

/// Renormalisation (JMMP Alg. 6): [`vec_sum`] then [`vec_sum_err_branch`]. Turns `x` (any
/// terms, ordered by non-increasing magnitude up to overlap) into `out.len()` ulp-nonoverlapping
/// terms. Scratch is modified.
#[inline(always)]
pub fn renormalize<T: FloatTerm>(x: &mut [T], out: &mut [T]) -> usize {
    vec_sum(x);
    vec_sum_err_branch(x, out)
}
