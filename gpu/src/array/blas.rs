//! BLAS levels 1–3 in n-double (n-float) with rigorous componentwise forward error bounds.
//!
//! Every routine returns, with each computed element ŷᵢ, a bound errᵢ with |ŷᵢ − yᵢ| ≤ errᵢ,
//! where yᵢ is the exact result for the exact values of the input expansions (inputs are taken
//! as exact; to chain routines, add the propagated input errors yourself). The bounds are
//! computed alongside the results in f64 with upward rounding ([`super::bound`], where the
//! derivation is written out: the accurate tier's proven per-operation bounds, summed over the
//! operations of the fixed evaluation order, plus an absolute term for results below the
//! normal range; +∞ when a magnitude leaves the range, never a finite wrong value). Both
//! backends compute the same bounds bit for bit.
//!
//! | routine | result | evaluation order |
//! | --- | --- | --- |
//! | [`dot`] | Σ xᵢyᵢ | the reduction tree of [`crate::array`] |
//! | [`nrm2`] | √(Σ xᵢ²) | the same tree, then `sqrt` |
//! | [`axpy`] | α·x + y | element-wise |
//! | [`scal`] | α·x | element-wise |
//! | [`gemv`] | α·op(A)·x + β·y | chunks of 32 folded left to right, chunks by the pairwise tree |
//! | [`gemm`] | α·A·B + β·C | each element folded left to right over k |
//!
//! Matrices are column-major ([`ExpMatrix`]). [`gemm_host`] multiplies matrices held in host
//! memory that may exceed a GPU's memory: on the device backend it tiles C (and k) over the
//! host data and shares the tiles over every GPU of the backend, with results identical to
//! [`gemm`].
//!
//! ```
//! use expanse_core::Expansion;
//! use expanse_gpu::array::{blas, Arrays, Transpose};
//!
//! let arrays = Arrays::cpu();
//! let e = |v: f64| Expansion::<f64, 2>::from_f64(v);
//! // A = [[1, 2], [3, 4]] (column-major), x = (1, 1/3).
//! let a = arrays.matrix(2, 2, &[e(1.0), e(3.0), e(2.0), e(4.0)])?;
//! let x = arrays.array(&[e(1.0), Expansion::one().div(&e(3.0))])?;
//! let y = blas::gemv(Transpose::No, None, &a, &x, None, None)?;
//! let (v, err) = (y.value.to_vec()?, y.err.to_vec()?);
//! assert!((v[0].to_f64() - 5.0 / 3.0).abs() < 1e-15 && err[0] < 1e-30);
//! # Ok::<(), expanse_gpu::GpuError>(())
//! ```

use super::bound::{sqrt_prop, Consts};
use super::host;
use super::{
    exp_of_sc, invalid, sc_of, ArrayTerm, Arrays, ExpArray, ExpMatrix, PlainArray, PlainStore,
    RedOp, Sc,
};
use crate::error::GpuError;
use expanse_core::{Expansion, FloatTerm};

/// A value with a rigorous bound of its error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded<V> {
    /// The computed value.
    pub value: V,
    /// |value − exact| ≤ err.
    pub err: f64,
}

/// An array with a componentwise error bound: |valueᵢ − exactᵢ| ≤ errᵢ.
#[derive(Debug)]
pub struct BoundedArray<T: ArrayTerm, const N: usize> {
    /// The computed elements.
    pub value: ExpArray<T, N>,
    /// Their error bounds, on the same backend and device.
    pub err: PlainArray<f64>,
}

/// A matrix with a componentwise error bound (column-major, as the value).
#[derive(Debug)]
pub struct BoundedMatrix<T: ArrayTerm, const N: usize> {
    /// The computed matrix.
    pub value: ExpMatrix<T, N>,
    /// Its elements' error bounds, column-major.
    pub err: PlainArray<f64>,
}

/// Whether GEMV multiplies by A or by its transpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transpose {
    /// y ← α·A·x + β·y (x has A's column count).
    No,
    /// y ← α·Aᵀ·x + β·y (x has A's row count).
    Yes,
}

fn plain_f64(arrays: &Arrays, store: PlainStore<f64>, len: usize) -> PlainArray<f64> {
    PlainArray {
        len,
        store,
        arrays: arrays.clone(),
    }
}

/// x·y = Σ xᵢyᵢ with a bound of its error.
pub fn dot<T: ArrayTerm, const N: usize>(
    x: &ExpArray<T, N>,
    y: &ExpArray<T, N>,
) -> Result<Bounded<Expansion<T, N>>, GpuError> {
    let c = Consts::new::<T>(N);
    Ok(match x.reduce_raw(RedOp::Dot, Some(y))? {
        None => Bounded {
            value: Expansion::zero(),
            err: 0.0,
        },
        Some(r) => {
            let n = x.len() as u64;
            Bounded {
                value: exp_of_sc(&r.value),
                err: c.finalize(&c.mul, r.p, n, r.a, n - 1, r.l),
            }
        }
    })
}

/// ‖x‖₂ = √(Σ xᵢ²) with a bound of its error (no scaling: squares beyond the range give an
/// infinite bound).
pub fn nrm2<T: ArrayTerm, const N: usize>(
    x: &ExpArray<T, N>,
) -> Result<Bounded<Expansion<T, N>>, GpuError> {
    let c = Consts::new::<T>(N);
    Ok(match x.reduce_raw(RedOp::SumSq, None)? {
        None => Bounded {
            value: Expansion::zero(),
            err: 0.0,
        },
        Some(r) => {
            let n = x.len() as u64;
            let err_s = c.finalize(&c.mul, r.p, n, r.a, n - 1, r.l);
            let s: Expansion<T, N> = exp_of_sc(&r.value);
            let root = s.sqrt();
            Bounded {
                value: root,
                err: sqrt_prop(&c, host::lead(&s), err_s, host::lead(&root)),
            }
        }
    })
}

/// α·x + y, element-wise, with bounds.
pub fn axpy<T: ArrayTerm, const N: usize>(
    alpha: &Expansion<T, N>,
    x: &ExpArray<T, N>,
    y: &ExpArray<T, N>,
) -> Result<BoundedArray<T, N>, GpuError> {
    x.check_pair(y, "axpy")?;
    let al = sc_of(alpha);
    let (raw, err) = match x.arrays.dev() {
        None => {
            let (r, e) = host::axpy(&al, &x.raw, &y.raw);
            (r, PlainStore::Host(e))
        }
        Some(d) => {
            let (r, e) = d.axpy(&al, &x.raw, &y.raw)?;
            (r, PlainStore::Dev(e))
        }
    };
    let len = raw.len;
    Ok(BoundedArray {
        value: ExpArray::from_raw(raw, x.arrays.clone()),
        err: plain_f64(&x.arrays, err, len),
    })
}

/// α·x, element-wise, with bounds.
pub fn scal<T: ArrayTerm, const N: usize>(
    alpha: &Expansion<T, N>,
    x: &ExpArray<T, N>,
) -> Result<BoundedArray<T, N>, GpuError> {
    let al = sc_of(alpha);
    let (raw, err) = match x.arrays.dev() {
        None => {
            let (r, e) = host::scal(&al, &x.raw);
            (r, PlainStore::Host(e))
        }
        Some(d) => {
            let (r, e) = d.scal(&al, &x.raw)?;
            (r, PlainStore::Dev(e))
        }
    };
    let len = raw.len;
    Ok(BoundedArray {
        value: ExpArray::from_raw(raw, x.arrays.clone()),
        err: plain_f64(&x.arrays, err, len),
    })
}

fn scalar_opt<T: FloatTerm, const N: usize>(s: Option<&Expansion<T, N>>) -> Option<Sc> {
    s.map(sc_of)
}

/// y ← α·op(A)·x + β·y with componentwise bounds. `alpha` None means α = 1 (no
/// multiplication); `beta` None, or `y` None, means β·y is left out.
pub fn gemv<T: ArrayTerm, const N: usize>(
    trans: Transpose,
    alpha: Option<&Expansion<T, N>>,
    a: &ExpMatrix<T, N>,
    x: &ExpArray<T, N>,
    beta: Option<&Expansion<T, N>>,
    y: Option<&ExpArray<T, N>>,
) -> Result<BoundedArray<T, N>, GpuError> {
    let t = trans == Transpose::Yes;
    let (out_len, red_len) = if t {
        (a.cols, a.rows)
    } else {
        (a.rows, a.cols)
    };
    if x.len() != red_len {
        return Err(invalid(format!(
            "gemv: x has {} elements, op(A) has {red_len} columns",
            x.len()
        )));
    }
    let same = |o: &ExpArray<T, N>| {
        a.data.arrays.same(&o.arrays) && a.data.device_index() == o.device_index()
    };
    if !same(x) {
        return Err(invalid("gemv: A and x are on different backends or GPUs"));
    }
    let beta = if y.is_some() { beta } else { None };
    if let Some(y) = y {
        if y.len() != out_len || !same(y) {
            return Err(invalid(format!(
                "gemv: y must have {out_len} elements on A's backend and GPU"
            )));
        }
    }
    let g = host::GemvArgs {
        trans: t,
        rows: a.rows,
        cols: a.cols,
        alpha: scalar_opt(alpha),
        beta: scalar_opt(beta),
        a: &a.data.raw,
        x: &x.raw,
        y: if beta.is_some() {
            y.map(|y| &y.raw)
        } else {
            None
        },
    };
    let (raw, err) = match a.data.arrays.dev() {
        None => {
            let (r, e) = host::gemv(&g);
            (r, PlainStore::Host(e))
        }
        Some(d) => {
            let (r, e) = d.gemv(&g)?;
            (r, PlainStore::Dev(e))
        }
    };
    Ok(BoundedArray {
        value: ExpArray::from_raw(raw, a.data.arrays.clone()),
        err: plain_f64(&a.data.arrays, err, out_len),
    })
}

/// C ← α·A·B + β·C with componentwise bounds (`alpha` None: α = 1; `beta` or `c` None: no
/// β·C term).
pub fn gemm<T: ArrayTerm, const N: usize>(
    alpha: Option<&Expansion<T, N>>,
    a: &ExpMatrix<T, N>,
    b: &ExpMatrix<T, N>,
    beta: Option<&Expansion<T, N>>,
    c: Option<&ExpMatrix<T, N>>,
) -> Result<BoundedMatrix<T, N>, GpuError> {
    if a.cols != b.rows {
        return Err(invalid(format!(
            "gemm: A is {}×{} but B is {}×{}",
            a.rows, a.cols, b.rows, b.cols
        )));
    }
    let same = |o: &ExpArray<T, N>| {
        a.data.arrays.same(&o.arrays) && a.data.device_index() == o.device_index()
    };
    if !same(&b.data) {
        return Err(invalid("gemm: A and B are on different backends or GPUs"));
    }
    let beta = if c.is_some() { beta } else { None };
    if let Some(c) = c {
        if c.rows != a.rows || c.cols != b.cols || !same(&c.data) {
            return Err(invalid(format!(
                "gemm: C must be {}×{} on A's backend and GPU",
                a.rows, b.cols
            )));
        }
    }
    let g = host::GemmArgs {
        m: a.rows,
        n: b.cols,
        k: a.cols,
        alpha: scalar_opt(alpha),
        beta: scalar_opt(beta),
        a: &a.data.raw,
        b: &b.data.raw,
        c: if beta.is_some() {
            c.map(|c| &c.data.raw)
        } else {
            None
        },
    };
    let (raw, err) = match a.data.arrays.dev() {
        None => {
            let (r, e) = host::gemm(&g);
            (r, PlainStore::Host(e))
        }
        Some(d) => {
            let (r, e) = d.gemm(&g)?;
            (r, PlainStore::Dev(e))
        }
    };
    let len = a.rows * b.cols;
    Ok(BoundedMatrix {
        value: ExpMatrix {
            rows: a.rows,
            cols: b.cols,
            data: ExpArray::from_raw(raw, a.data.arrays.clone()),
        },
        err: plain_f64(&a.data.arrays, err, len),
    })
}

/// A column-major matrix in host memory.
#[derive(Clone, Copy, Debug)]
pub struct HostMatrix<'a, T: FloatTerm, const N: usize> {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Elements, column-major (element (i, j) at `j·rows + i`).
    pub data: &'a [Expansion<T, N>],
}

/// C ← α·A·B + β·C for matrices in host memory, with componentwise bounds; returns C and
/// the bounds (column-major). On the device backend the product is tiled over the host data
/// (tiles of C, and of k when a panel does not fit) so that any size that fits in host memory
/// runs, and the tiles are shared over every GPU of the backend; the results are those of
/// [`gemm`], bit for bit. `memory_limit` (bytes per GPU, None: 80 % of its memory) bounds the
/// device memory a tile may use.
#[allow(clippy::type_complexity)]
pub fn gemm_host<T: ArrayTerm, const N: usize>(
    arrays: &Arrays,
    alpha: Option<&Expansion<T, N>>,
    a: HostMatrix<'_, T, N>,
    b: HostMatrix<'_, T, N>,
    beta: Option<&Expansion<T, N>>,
    c: Option<HostMatrix<'_, T, N>>,
    memory_limit: Option<usize>,
) -> Result<(Vec<Expansion<T, N>>, Vec<f64>), GpuError> {
    if a.cols != b.rows || a.data.len() != a.rows * a.cols || b.data.len() != b.rows * b.cols {
        return Err(invalid(format!(
            "gemm_host: A is {}×{} ({} elements), B is {}×{} ({} elements)",
            a.rows,
            a.cols,
            a.data.len(),
            b.rows,
            b.cols,
            b.data.len()
        )));
    }
    if let Some(c) = &c {
        if c.rows != a.rows || c.cols != b.cols || c.data.len() != c.rows * c.cols {
            return Err(invalid(format!(
                "gemm_host: C must be {}×{}",
                a.rows, b.cols
            )));
        }
    }
    let beta = if c.is_some() { beta } else { None };
    match arrays.dev() {
        None => {
            let am = arrays.matrix(a.rows, a.cols, a.data)?;
            let bm = arrays.matrix(b.rows, b.cols, b.data)?;
            let cm = match &c {
                Some(c) => Some(arrays.matrix(c.rows, c.cols, c.data)?),
                None => None,
            };
            let r = gemm(alpha, &am, &bm, beta, cm.as_ref())?;
            Ok((r.value.to_vec()?, r.err.to_vec()?))
        }
        Some(d) => d.gemm_host(alpha.map(sc_of), a, b, beta.map(sc_of), c, memory_limit),
    }
}
