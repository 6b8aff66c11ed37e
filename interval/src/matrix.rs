//! Small interval vectors and matrices: 2×2 fixed-size ([`IVec2`], [`IMat2`]) for Jacobians
//! and their products along an orbit, and dynamic-size helpers over nalgebra's `DMatrix` /
//! `DVector` where the size is data (multiple shooting).
//!
//! Every product is an interval evaluation of the textbook formula, so it contains the exact
//! product for every choice of point matrices inside the operands. Note the wrapping effect:
//! a chain M_{p−1}···M_0 of interval matrices can be much wider than the set of exact
//! products; callers that need tight chains multiply point (thin) matrices.

use crate::error::{Error, ErrorKind};
use crate::IntervalArith;
use nalgebra::{DMatrix, DVector};

/// A 2-vector of intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct IVec2<I>(pub [I; 2]);

/// A 2×2 interval matrix, row-major: `m[r][c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct IMat2<I>(pub [[I; 2]; 2]);

impl<I: IntervalArith> IVec2<I> {
    /// (x, y).
    pub fn new(x: I, y: I) -> Self {
        Self([x, y])
    }

    /// Componentwise sum.
    pub fn add(&self, o: &Self) -> Self {
        Self([self.0[0].add(&o.0[0]), self.0[1].add(&o.0[1])])
    }

    /// Componentwise difference.
    pub fn sub(&self, o: &Self) -> Self {
        Self([self.0[0].sub(&o.0[0]), self.0[1].sub(&o.0[1])])
    }

    /// Componentwise hull.
    pub fn hull(&self, o: &Self) -> Self {
        Self([self.0[0].hull(&o.0[0]), self.0[1].hull(&o.0[1])])
    }

    /// True when each component of `self` lies in the interior of `o`'s.
    pub fn subset_of_interior(&self, o: &Self) -> bool {
        self.0[0].subset_of_interior(&o.0[0]) && self.0[1].subset_of_interior(&o.0[1])
    }

    /// True when each component of `self` is a subset of `o`'s.
    pub fn subset(&self, o: &Self) -> bool {
        self.0[0].subset(&o.0[0]) && self.0[1].subset(&o.0[1])
    }

    /// True when the boxes are disjoint (some component pair is disjoint).
    pub fn disjoint(&self, o: &Self) -> bool {
        self.0[0].disjoint(&o.0[0]) || self.0[1].disjoint(&o.0[1])
    }

    /// The point vector of component midpoints (each a point interval inside the component).
    pub fn mid(&self) -> Self {
        Self([self.0[0].mid(), self.0[1].mid()])
    }

    /// Componentwise intersection.
    pub fn intersection(&self, o: &Self) -> Self {
        Self([
            self.0[0].intersection(&o.0[0]),
            self.0[1].intersection(&o.0[1]),
        ])
    }

    /// Each component scaled by the interval `s`.
    pub fn scale(&self, s: &I) -> Self {
        Self([self.0[0].mul(s), self.0[1].mul(s)])
    }

    /// An upper bound on the max-norm max(|x|, |y|) over the box, rounded up to f64.
    pub fn norm_inf_up(&self) -> f64 {
        self.0[0].mag_f64_up().max(self.0[1].mag_f64_up())
    }
}

impl<I: IntervalArith> IMat2<I> {
    /// [[a, b], [c, d]].
    pub fn new(a: I, b: I, c: I, d: I) -> Self {
        Self([[a, b], [c, d]])
    }

    /// The identity matrix.
    pub fn identity(ctx: &I::Ctx) -> Self {
        let (o, z) = (I::from_f64(ctx, 1.0), I::from_f64(ctx, 0.0));
        Self([[o.clone(), z.clone()], [z, o]])
    }

    /// Entry (r, c).
    pub fn get(&self, r: usize, c: usize) -> &I {
        &self.0[r][c]
    }

    /// The product self · o.
    pub fn mul(&self, o: &Self) -> Self {
        let a = &self.0;
        let b = &o.0;
        let e = |r: usize, c: usize| a[r][0].mul(&b[0][c]).add(&a[r][1].mul(&b[1][c]));
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// The matrix-vector product self · v.
    pub fn mul_vec(&self, v: &IVec2<I>) -> IVec2<I> {
        let a = &self.0;
        let e = |r: usize| a[r][0].mul(&v.0[0]).add(&a[r][1].mul(&v.0[1]));
        IVec2([e(0), e(1)])
    }

    /// Entrywise sum.
    pub fn add(&self, o: &Self) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].add(&o.0[r][c]);
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// Entrywise difference.
    pub fn sub(&self, o: &Self) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].sub(&o.0[r][c]);
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// The trace a + d.
    pub fn trace(&self) -> I {
        self.0[0][0].add(&self.0[1][1])
    }

    /// The determinant a·d − b·c.
    pub fn det(&self) -> I {
        self.0[0][0]
            .mul(&self.0[1][1])
            .sub(&self.0[0][1].mul(&self.0[1][0]))
    }

    /// Entrywise hull.
    pub fn hull(&self, o: &Self) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].hull(&o.0[r][c]);
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// True when every entry of `self` is a subset of `o`'s.
    pub fn subset(&self, o: &Self) -> bool {
        (0..2).all(|r| (0..2).all(|c| self.0[r][c].subset(&o.0[r][c])))
    }

    /// −self.
    pub fn neg(&self) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].neg();
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// Every entry scaled by the interval `s`.
    pub fn scale(&self, s: &I) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].mul(s);
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// The point matrix of entry midpoints.
    pub fn mid(&self) -> Self {
        let e = |r: usize, c: usize| self.0[r][c].mid();
        Self([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }

    /// An enclosure of the inverses of all matrices in `self`, by the adjugate over the
    /// determinant: [[d, −b], [−c, a]] / (ad − bc). `None` when the determinant enclosure
    /// contains zero (some matrix in the set may be singular).
    pub fn inverse(&self) -> Option<Self> {
        let det = self.det();
        if det.is_empty() || det.contains_f64(0.0) {
            return None;
        }
        let [[a, b], [c, d]] = &self.0;
        Some(Self([
            [d.div(&det), b.neg().div(&det)],
            [c.neg().div(&det), a.div(&det)],
        ]))
    }

    /// An upper bound on the ∞-norm max_r Σ_c mag(m[r][c]), rounded up to f64.
    pub fn norm_inf_up(&self) -> f64 {
        let row = |r: usize| {
            let s =
                inari::Interval::try_from((self.0[r][0].mag_f64_up(), self.0[r][0].mag_f64_up()))
                    .unwrap_or(inari::Interval::ENTIRE)
                    + inari::Interval::try_from((
                        self.0[r][1].mag_f64_up(),
                        self.0[r][1].mag_f64_up(),
                    ))
                    .unwrap_or(inari::Interval::ENTIRE);
            s.sup()
        };
        row(0).max(row(1))
    }

    /// The product M_{k−1} ··· M_1 · M_0 of a chain given in order M_0, M_1, … (the
    /// monodromy of an orbit when M_i = Dh(z_i)); the identity for an empty chain.
    pub fn chain_product(ctx: &I::Ctx, ms: &[Self]) -> Self {
        ms.iter().fold(Self::identity(ctx), |acc, m| m.mul(&acc))
    }
}

fn dim_error(what: &str, a: (usize, usize), b: (usize, usize)) -> Error {
    Error::new(
        ErrorKind::DimensionMismatch,
        format!(
            "{what}: shapes {}×{} and {}×{} do not fit",
            a.0, a.1, b.0, b.1
        ),
    )
}

/// The dynamic interval matrix product A · B.
pub fn dmat_mul<I: IntervalArith>(a: &DMatrix<I>, b: &DMatrix<I>) -> Result<DMatrix<I>, Error> {
    if a.ncols() != b.nrows() {
        return Err(dim_error("matrix product", a.shape(), b.shape()));
    }
    if a.ncols() == 0 {
        return Err(dim_error(
            "matrix product (no context for zero)",
            a.shape(),
            b.shape(),
        ));
    }
    Ok(DMatrix::from_fn(a.nrows(), b.ncols(), |r, c| {
        let mut s = a[(r, 0)].mul(&b[(0, c)]);
        for k in 1..a.ncols() {
            s = s.add(&a[(r, k)].mul(&b[(k, c)]));
        }
        s
    }))
}

/// The dynamic interval matrix-vector product A · v.
pub fn dmat_vec_mul<I: IntervalArith>(a: &DMatrix<I>, v: &DVector<I>) -> Result<DVector<I>, Error> {
    if a.ncols() != v.nrows() || a.ncols() == 0 {
        return Err(dim_error("matrix-vector product", a.shape(), v.shape()));
    }
    Ok(DVector::from_fn(a.nrows(), |r, _| {
        let mut s = a[(r, 0)].mul(&v[0]);
        for k in 1..a.ncols() {
            s = s.add(&a[(r, k)].mul(&v[k]));
        }
        s
    }))
}

/// The n×n identity interval matrix.
pub fn dmat_identity<I: IntervalArith>(ctx: &I::Ctx, n: usize) -> DMatrix<I> {
    DMatrix::from_fn(n, n, |r, c| {
        I::from_f64(ctx, if r == c { 1.0 } else { 0.0 })
    })
}

/// An upper bound on the ∞-norm max_r Σ_c mag(A[r, c]) (rounded up to f64; +∞ when unbounded).
pub fn dmat_norm_inf_up<I: IntervalArith>(a: &DMatrix<I>) -> f64 {
    let mut best = 0.0f64;
    for r in 0..a.nrows() {
        // Sum the magnitudes with upward rounding through f64 intervals.
        let mut s = inari::Interval::try_from((0.0, 0.0)).unwrap_or(inari::Interval::ENTIRE);
        for c in 0..a.ncols() {
            let m = a[(r, c)].mag_f64_up();
            s += inari::Interval::try_from((m, m)).unwrap_or(inari::Interval::ENTIRE);
        }
        best = best.max(s.sup());
    }
    best
}
