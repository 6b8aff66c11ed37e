//! Batch iteration of many independent Hénon orbits in the *fast* tier, W orbits at a time in
//! struct-of-arrays form so that every arithmetic operation acts on W lanes at once.
//!
//! Following one orbit at a time is bound by latency: each operation of a step depends on the
//! previous one. Here term i of the x coordinate of W orbits is one `Lanes<T, W>` (an array the
//! compiler keeps in SIMD registers: AVX2 holds 4 f64 lanes), and the fast-tier algorithms
//! (seed 001 Alg. 4 and 5 with the Fast2Sum VecSumErrBranch renormalisation, as in
//! [`crate::fast`]) are written once over lanes. The data-dependent branch of the
//! renormalisation becomes per-lane selects. Every lane performs exactly the operations the
//! scalar [`crate::Fast`] performs, in the same order, so results agree bit for bit with
//! `henon_step` on `Fast<T, N>` (tested in `tests/batch.rs`); the search can therefore use
//! this and still match the GPU kernels.

use crate::expansion::Expansion;
use crate::float::FloatTerm;
use core::ops::{Add, Mul, Neg, Sub};

/// W values of type T processed together (one SIMD register or a few).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Lanes<T: FloatTerm, const W: usize>(pub [T; W]);

impl<T: FloatTerm, const W: usize> Lanes<T, W> {
    /// Every lane equal to `v`.
    #[inline(always)]
    pub fn splat(v: T) -> Self {
        Self([v; W])
    }
    /// Lane-wise fused multiply-add self·a + b.
    #[inline(always)]
    pub fn mul_add(self, a: Self, b: Self) -> Self {
        let mut r = self.0;
        for l in 0..W {
            r[l] = self.0[l].mul_add(a.0[l], b.0[l]);
        }
        Self(r)
    }
}

macro_rules! lane_binop {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: FloatTerm, const W: usize> $tr for Lanes<T, W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                for l in 0..W {
                    r[l] = self.0[l] $op o.0[l];
                }
                Self(r)
            }
        }
    };
}
lane_binop!(Add, add, +);
lane_binop!(Sub, sub, -);
lane_binop!(Mul, mul, *);

impl<T: FloatTerm, const W: usize> Neg for Lanes<T, W> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        let mut r = self.0;
        for v in r.iter_mut() {
            *v = -*v;
        }
        Self(r)
    }
}

type V<T, const W: usize> = Lanes<T, W>;

/// 2Sum on lanes (same operations as [`crate::eft::two_sum`]).
#[inline(always)]
fn two_sum<T: FloatTerm, const W: usize>(a: V<T, W>, b: V<T, W>) -> (V<T, W>, V<T, W>) {
    let s = a + b;
    let a_virtual = s - b;
    let b_virtual = s - a_virtual;
    let a_err = a - a_virtual;
    let b_err = b - b_virtual;
    (s, a_err + b_err)
}

/// Fast2Sum on lanes (as [`crate::eft::fast_two_sum`]).
#[inline(always)]
fn fast_two_sum<T: FloatTerm, const W: usize>(a: V<T, W>, b: V<T, W>) -> (V<T, W>, V<T, W>) {
    let s = a + b;
    let z = s - a;
    (s, b - z)
}

/// 2ProdFMA on lanes (as [`crate::eft::two_prod`]).
#[inline(always)]
fn two_prod<T: FloatTerm, const W: usize>(a: V<T, W>, b: V<T, W>) -> (V<T, W>, V<T, W>) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// VecSum on lanes (as [`crate::eft::vec_sum`]).
#[inline(always)]
fn vec_sum<T: FloatTerm, const W: usize>(x: &mut [V<T, W>]) {
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

/// VecSumErrBranch with Fast2Sum on lanes: the scalar version's branch (emit a term when the
/// error is non-zero, stop after N terms) becomes per-lane selects on a per-lane term count.
#[inline(always)]
fn vec_sum_err_branch_fast<T: FloatTerm, const N: usize, const W: usize>(
    e: &[V<T, W>],
) -> [V<T, W>; N] {
    let zero = V::<T, W>::splat(T::ZERO);
    let mut out = [zero; N];
    let mut j = [0u32; W];
    let mut eps = e[0];
    for &next in &e[1..] {
        let (r, err) = fast_two_sum(eps, next);
        for l in 0..W {
            let nonzero = err.0[l] != T::ZERO;
            let emit = nonzero && (j[l] as usize) < N;
            for (k, o) in out.iter_mut().enumerate() {
                if emit && j[l] as usize == k {
                    o.0[l] = r.0[l];
                }
            }
            if (j[l] as usize) < N {
                eps.0[l] = if nonzero { err.0[l] } else { r.0[l] };
            }
            j[l] += emit as u32;
        }
    }
    for l in 0..W {
        for (k, o) in out.iter_mut().enumerate() {
            if j[l] as usize == k {
                o.0[l] = eps.0[l];
            }
        }
    }
    out
}

/// Fast renormalisation of N + 1 lane terms into N (as in [`crate::fast`]).
#[inline(always)]
fn renormalize_fast<T: FloatTerm, const N: usize, const W: usize>(
    r: &mut [V<T, W>],
) -> [V<T, W>; N] {
    vec_sum(r);
    vec_sum_err_branch_fast::<T, N, W>(r)
}

/// Fast addition on lanes: seed 001 Alg. 4, the same operations as
/// [`Expansion::add_fast`].
#[inline(always)]
pub fn add_fast<T: FloatTerm, const N: usize, const W: usize>(
    a: &[V<T, W>; N],
    b: &[V<T, W>; N],
) -> [V<T, W>; N] {
    let zero = V::<T, W>::splat(T::ZERO);
    let mut rf = [zero; 9];
    let mut e = [zero; N];
    let (r0, e0) = two_sum(a[0], b[0]);
    rf[0] = r0;
    e[0] = e0;
    for n in 1..N {
        let (s, en) = two_sum(a[n], b[n]);
        let mut chain = [zero; 9];
        chain[0] = s;
        chain[1..=n].copy_from_slice(&e[..n]);
        vec_sum(&mut chain[..=n]);
        rf[n] = chain[0];
        e[..n].copy_from_slice(&chain[1..=n]);
        e[n] = en;
    }
    let mut last = zero;
    for &ei in e.iter() {
        last = last + ei;
    }
    rf[N] = last;
    renormalize_fast::<T, N, W>(&mut rf[..=N])
}

/// Fast multiplication on lanes: seed 001 Alg. 5, the same operations as
/// [`Expansion::mul_fast`].
#[inline(always)]
pub fn mul_fast<T: FloatTerm, const N: usize, const W: usize>(
    a: &[V<T, W>; N],
    b: &[V<T, W>; N],
) -> [V<T, W>; N] {
    let zero = V::<T, W>::splat(T::ZERO);
    let mut rf = [zero; 9];
    let mut e = [zero; 64];
    let (r0, e0) = two_prod(a[0], b[0]);
    rf[0] = r0;
    e[0] = e0;
    let mut e_len = 1usize;
    for n in 1..N {
        let mut chain = [zero; 80];
        let mut hat = [zero; 9];
        for i in 0..=n {
            let (p, eh) = two_prod(a[i], b[n - i]);
            chain[i] = p;
            hat[i] = eh;
        }
        chain[n + 1..n + 1 + e_len].copy_from_slice(&e[..e_len]);
        let len = n + 1 + e_len;
        vec_sum(&mut chain[..len]);
        rf[n] = chain[0];
        e[..len - 1].copy_from_slice(&chain[1..len]);
        e[len - 1..len - 1 + n + 1].copy_from_slice(&hat[..=n]);
        e_len = len - 1 + n + 1;
    }
    let mut last = zero;
    for i in 1..N {
        last = last + a[i] * b[N - i];
    }
    for &ei in e[..e_len].iter() {
        last = last + ei;
    }
    rf[N] = last;
    renormalize_fast::<T, N, W>(&mut rf[..=N])
}

/// W Hénon orbits in struct-of-arrays form: `x[i].0[l]` is term i of orbit l's x.
#[derive(Clone, Copy, Debug)]
pub struct Block<T: FloatTerm, const N: usize, const W: usize> {
    /// Terms of the x coordinates.
    pub x: [Lanes<T, W>; N],
    /// Terms of the y coordinates.
    pub y: [Lanes<T, W>; N],
}

/// The map's parameters broadcast to lanes, ready for [`Block::step`].
#[derive(Clone, Copy, Debug)]
pub struct Params<T: FloatTerm, const N: usize, const W: usize> {
    a: [Lanes<T, W>; N],
    b: [Lanes<T, W>; N],
    one: [Lanes<T, W>; N],
}

impl<T: FloatTerm, const N: usize, const W: usize> Params<T, N, W> {
    /// Broadcasts (a, b).
    pub fn new(a: &Expansion<T, N>, b: &Expansion<T, N>) -> Self {
        let zero = Lanes::splat(T::ZERO);
        let mut one = [zero; N];
        one[0] = Lanes::splat(T::ONE);
        Self {
            a: core::array::from_fn(|i| Lanes::splat(a.terms()[i])),
            b: core::array::from_fn(|i| Lanes::splat(b.terms()[i])),
            one,
        }
    }
}

impl<T: FloatTerm, const N: usize, const W: usize> Block<T, N, W> {
    /// Loads W orbits (`xs.len() == ys.len() == W`).
    pub fn load(xs: &[Expansion<T, N>], ys: &[Expansion<T, N>]) -> Self {
        assert!(
            xs.len() == W && ys.len() == W,
            "Block::load needs exactly W orbits"
        );
        let mut x = [Lanes::splat(T::ZERO); N];
        let mut y = [Lanes::splat(T::ZERO); N];
        for l in 0..W {
            for i in 0..N {
                x[i].0[l] = xs[l].terms()[i];
                y[i].0[l] = ys[l].terms()[i];
            }
        }
        Self { x, y }
    }

    /// Orbit `l` as fast-tier expansions (terms verbatim).
    pub fn get(&self, l: usize) -> (Expansion<T, N>, Expansion<T, N>) {
        let x = core::array::from_fn(|i| self.x[i].0[l]);
        let y = core::array::from_fn(|i| self.y[i].0[l]);
        (Expansion::from_normalized(x), Expansion::from_normalized(y))
    }

    /// One Hénon step of all W orbits, in the documented order of operations
    /// (x² = sqr(x); t = a·x²; u = y + 1; x' = u − t; y' = b·x) with the fast tier.
    #[inline(always)]
    pub fn step(&mut self, p: &Params<T, N, W>) {
        let x2 = mul_fast(&self.x, &self.x);
        let t = mul_fast(&x2, &p.a);
        let u = add_fast(&self.y, &p.one);
        let neg_t = t.map(|v| -v);
        let nx = add_fast(&u, &neg_t);
        let ny = mul_fast(&self.x, &p.b);
        self.x = nx;
        self.y = ny;
    }
}

/// Iterates every orbit (xs[k], ys[k]) `steps` times with the fast tier, W orbits at a time;
/// the last `len % W` orbits go through the scalar [`crate::Fast`] (same results).
pub fn henon_iterate_batch<T: FloatTerm, const N: usize, const W: usize>(
    a: &Expansion<T, N>,
    b: &Expansion<T, N>,
    xs: &mut [Expansion<T, N>],
    ys: &mut [Expansion<T, N>],
    steps: u64,
) {
    assert_eq!(
        xs.len(),
        ys.len(),
        "henon_iterate_batch: xs and ys differ in length"
    );
    let p = Params::<T, N, W>::new(a, b);
    let full = xs.len() / W * W;
    for (cx, cy) in xs[..full].chunks_mut(W).zip(ys[..full].chunks_mut(W)) {
        let mut blk = Block::<T, N, W>::load(cx, cy);
        for _ in 0..steps {
            blk.step(&p);
        }
        for l in 0..W {
            let (x, y) = blk.get(l);
            cx[l] = x;
            cy[l] = y;
        }
    }
    for k in full..xs.len() {
        let (x, y) = crate::henon_iterate(a, b, &crate::Fast(xs[k]), &crate::Fast(ys[k]), steps);
        xs[k] = x.0;
        ys[k] = y.0;
    }
}
