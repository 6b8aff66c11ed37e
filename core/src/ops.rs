//! Operators (`+ − × ÷ % −x` and their `*Assign` forms, by value and by reference, and mixed
//! with the term type `T`), `Sum` and `Product`, and the exact integer roundings (`floor`,
//! `ceil`, `round`, `trunc`, `fract`) and fused multiply-add of [`Expansion`].
//!
//! Every arithmetic operator is the *accurate* tier's named method, so `x + y` is
//! [`Expansion::add`] bit for bit, with its proven bound ([`crate::bounds`]):
//!
//! | operator | method |
//! | --- | --- |
//! | `x + y`, `x − y`, `x * y`, `x / y`, `−x` | `add`, `sub`, `mul`, `div`, `neg` |
//! | `x + t`, `x − t`, `x * t`, `x / t` (t: T) | `add_term`, `add_term(−t)`, `mul_term`, `div_term` |
//! | `t + x`, `t − x`, `t * x`, `t / x` | `add_term`, `neg().add_term(t)`, `mul_term`, `from_term(t).div` |
//! | `x % y` | [`Expansion::rem`] |
//!
//! The roundings are exact: the integer part of an N-term expansion fits in N terms, and it is
//! found from the exact value (the leading term alone is not enough: it may be an integer
//! while the lower terms are negative, or lower terms may push the value across an integer).
//!
//! ```
//! use expanse_core::QuadDouble;
//! let x = QuadDouble::from_term(1.0) / 3.0;
//! let y = &x * &x + 1.5 - x;
//! assert_eq!(y, QuadDouble::from_term(1.5).add(&x.mul(&x)).sub(&x));
//! assert_eq!((x * 6.0).round(), QuadDouble::from_term(2.0));
//! ```

use crate::accurate::{round_exact_sum, ExactSum};
use crate::eft::two_prod;
use crate::expansion::Expansion;
use crate::float::FloatTerm;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

/// Largest number of machine numbers an exact intermediate of this module holds:
/// 2N² products' parts plus 2N terms (`rem`, N = 8).
const CAP: usize = 2 * 8 * 8 + 2 * 8;

/// A fixed-capacity list of machine numbers whose exact sum is an intermediate result.
struct Terms<T: FloatTerm> {
    buf: [T; CAP],
    len: usize,
}

impl<T: FloatTerm> Terms<T> {
    fn new() -> Self {
        Self {
            buf: [T::ZERO; CAP],
            len: 0,
        }
    }
    fn push(&mut self, t: T) {
        if self.len < CAP {
            self.buf[self.len] = t;
            self.len += 1;
        }
    }
    /// Pushes the exact product a·b (2ProdFMA: exact unless its error term underflows).
    fn push_prod(&mut self, a: T, b: T) {
        let (p, e) = two_prod(a, b);
        self.push(p);
        self.push(e);
    }
    fn push_all<const N: usize>(&mut self, x: &Expansion<T, N>, sign: T) {
        for &t in x.terms() {
            self.push(sign * t);
        }
    }
    /// Sign of the exact sum (`Less`, `Equal`, `Greater`).
    fn sign(&self) -> core::cmp::Ordering {
        let mut acc = ExactSum::<T>::new();
        for &t in &self.buf[..self.len] {
            acc.add(t);
        }
        if acc.is_zero() {
            core::cmp::Ordering::Equal
        } else if acc.lead() > T::ZERO {
            core::cmp::Ordering::Greater
        } else {
            core::cmp::Ordering::Less
        }
    }
    /// The exact sum rounded to N terms (exact when it fits in N terms).
    fn round<const N: usize>(&self) -> Expansion<T, N> {
        round_exact_sum::<T, N>(&self.buf[..self.len])
    }
}

/// ⌊t⌋ of a finite machine number (exact; through f64, which holds every f32 exactly).
#[inline]
fn floor_term<T: FloatTerm>(t: T) -> T {
    T::from_f64(t.to_f64().floor())
}

/// A zero with the sign of `like`.
#[inline]
fn signed_zero<T: FloatTerm, const N: usize>(like: &Expansion<T, N>) -> Expansion<T, N> {
    if like.hi() < T::ZERO || (like.hi() == T::ZERO && like.hi().to_bits_u64() != 0) {
        Expansion::from_term(-T::ZERO)
    } else {
        Expansion::zero()
    }
}

impl<T: FloatTerm, const N: usize> Expansion<T, N> {
    /// The largest integer ≤ x, exact. ±∞, NaN and integers are returned unchanged.
    ///
    /// Method: the terms above the first non-integer term x_k are integers; ⌊x⌋ is their sum
    /// plus ⌊x_k⌋ plus a correction c ∈ {−1, 0, 1}, read off the sign of the exact
    /// d = x_k − ⌊x_k⌋ + x_{k+1} + … (d < 0: c = −1; d ≥ 1: c = 1). The lower terms can push
    /// d outside [0, 1) only when k < N − 1, so the result has at most N terms and is
    /// represented exactly.
    ///
    /// ```
    /// use expanse_core::DoubleDouble;
    /// // 2^60 − 2^-60: the leading term is an integer, the value is not.
    /// let x = DoubleDouble::from_terms([2f64.powi(60), -2f64.powi(-60)]);
    /// assert_eq!(x.floor(), DoubleDouble::from_terms([2f64.powi(60), -1.0]));
    /// assert_eq!(x.ceil(), DoubleDouble::from_term(2f64.powi(60)));
    /// ```
    pub fn floor(&self) -> Self {
        if !self.is_finite() {
            return *self;
        }
        let t = &self.terms;
        let k = match t.iter().position(|&v| floor_term(v) != v) {
            Some(k) => k,
            None => return *self,
        };
        let fk = floor_term(t[k]);
        let mut d = Terms::<T>::new();
        d.push(t[k]);
        d.push(-fk);
        for &v in &t[k + 1..] {
            d.push(v);
        }
        let mut c = T::ZERO;
        if d.sign() == core::cmp::Ordering::Less {
            c = -T::ONE;
        } else {
            d.push(-T::ONE);
            if d.sign() != core::cmp::Ordering::Less {
                c = T::ONE;
            }
        }
        let mut int = Terms::<T>::new();
        for &v in &t[..k] {
            int.push(v);
        }
        int.push(fk);
        int.push(c);
        let r = int.round::<N>();
        if r.is_zero() {
            // ⌊x⌋ = 0 only for 0 < x < 1 (zeros and integers returned above): +0.
            Self::zero()
        } else {
            r
        }
    }

    /// The smallest integer ≥ x, exact: −⌊−x⌋ (so −1 < x < 0 gives −0, as IEEE).
    pub fn ceil(&self) -> Self {
        Expansion::neg(&Expansion::neg(self).floor())
    }

    /// The integer part (rounding toward zero), exact; a zero result keeps the sign of x.
    pub fn trunc(&self) -> Self {
        if self.hi() < T::ZERO {
            self.ceil()
        } else {
            self.floor()
        }
    }

    /// The nearest integer, halfway cases away from zero (as `f64::round`), exact; a zero
    /// result keeps the sign of x.
    ///
    /// ```
    /// use expanse_core::DoubleDouble;
    /// let half = DoubleDouble::from_term(2.5);
    /// assert_eq!(half.round(), DoubleDouble::from_term(3.0));
    /// // 2.5 − 2^-80 rounds down: the lower term decides.
    /// let below = DoubleDouble::from_terms([2.5, -2f64.powi(-80)]);
    /// assert_eq!(below.round(), DoubleDouble::from_term(2.0));
    /// ```
    pub fn round(&self) -> Self {
        if !self.is_finite() {
            return *self;
        }
        let a = self.abs();
        let f = a.floor();
        // a − ⌊a⌋ ≥ ½ exactly?
        let mut d = Terms::<T>::new();
        d.push_all(&a, T::ONE);
        d.push_all(&f, -T::ONE);
        d.push(T::from_f64(-0.5));
        let r = if d.sign() == core::cmp::Ordering::Less {
            f
        } else {
            // ⌈a⌉ (a is not an integer here): an integer of ≤ N terms, summed exactly.
            let mut c = Terms::<T>::new();
            c.push_all(&f, T::ONE);
            c.push(T::ONE);
            c.round::<N>()
        };
        if self.hi() < T::ZERO || (self.hi() == T::ZERO && self.hi().to_bits_u64() != 0) {
            if r.is_zero() {
                signed_zero(self)
            } else {
                Expansion::neg(&r)
            }
        } else {
            r
        }
    }

    /// The fractional part x − trunc(x), exact (it fits in N terms), with the sign of x (or
    /// +0 for integers). NaN for ±∞, as `f64::fract`.
    pub fn fract(&self) -> Self {
        if !self.is_finite() {
            return Self::from_term(T::from_f64(f64::NAN));
        }
        let i = self.trunc();
        let mut d = Terms::<T>::new();
        d.push_all(self, T::ONE);
        d.push_all(&i, -T::ONE);
        let r = d.round::<N>();
        if r.is_zero() {
            Self::zero()
        } else {
            r
        }
    }

    /// Fused multiply-add x·a + b: the exact value (the N² products split exactly by
    /// 2ProdFMA) rounded once to N terms, so the relative error is that of rounding an exact
    /// sum ([`crate::bounds::round_rel_bound`]) when no product underflows. Non-finite
    /// operands or an overflowing product give `x * a + b` with the operators.
    ///
    /// ```
    /// use expanse_core::DoubleDouble;
    /// let x = DoubleDouble::from_term(1.0 + f64::EPSILON);
    /// // x² − 1 − 2ε = ε² exactly: the fused form keeps it.
    /// let r = x.mul_add(&x, &DoubleDouble::from_term(-1.0 - 2.0 * f64::EPSILON));
    /// assert_eq!(r, DoubleDouble::from_term(f64::EPSILON * f64::EPSILON));
    /// ```
    pub fn mul_add(&self, a: &Self, b: &Self) -> Self {
        let fallback = || Expansion::add(&Expansion::mul(self, a), b);
        if !(self.is_finite() && a.is_finite() && b.is_finite()) {
            return fallback();
        }
        let mut s = Terms::<T>::new();
        for &xi in &self.terms {
            for &aj in &a.terms {
                s.push_prod(xi, aj);
            }
        }
        s.push_all(b, T::ONE);
        if s.buf[..s.len].iter().any(|v| !v.is_finite()) {
            return fallback();
        }
        let r = s.round::<N>();
        if !r.is_finite() {
            return fallback();
        }
        if r.is_zero() {
            return fallback(); // IEEE's sign of an exact zero
        }
        r
    }

    /// Remainder of the truncated division, as `f64`'s `%`: r = x − q·y with q = trunc(x/y),
    /// |r| < |y|, r with the sign of x (or zero).
    ///
    /// Accuracy: q is the exact truncation of the accurate quotient x/y (relative error
    /// [`crate::bounds::div_rel_bound`]), so it can be off by one when x/y is within that
    /// error of an integer; then x − q·y is formed *exactly* (2ProdFMA on the N² products) and
    /// one correction by ±y brings it into range. The result is the exact remainder rounded
    /// once to N terms (relative error [`crate::bounds::round_rel_bound`]) as long as q is
    /// exact to within one, i.e. |x/y| ≲ 2^(p·N) (about 10^63 for quad-double), and no
    /// product underflows. For larger quotients q carries rounding error and the result is
    /// x − q'·y for some integer q' (still ≡ x mod y up to rounding, but possibly |r| ≥ |y|):
    /// use MPFR there. `x % 0` and `±∞ % y` are NaN, `x % ±∞` is x.
    ///
    /// ```
    /// use expanse_core::QuadDouble;
    /// let x = QuadDouble::from_term(7.5);
    /// assert_eq!(x % QuadDouble::from_term(2.0), QuadDouble::from_term(1.5));
    /// assert_eq!(-x % 2.0, QuadDouble::from_term(-1.5));
    /// ```
    pub fn rem(&self, y: &Self) -> Self {
        let nan = || Self::from_term(T::from_f64(f64::NAN));
        if self.is_nan() || y.is_nan() || !self.is_finite() || y.is_zero() {
            return nan();
        }
        if !y.is_finite() {
            return *self;
        }
        let q = Expansion::div(self, y).trunc();
        if !q.is_finite() {
            return nan();
        }
        let build = |shift: T| {
            let mut s = Terms::<T>::new();
            s.push_all(self, T::ONE);
            for &qi in &q.terms {
                for &yj in &y.terms {
                    s.push_prod(-qi, yj);
                }
            }
            // shift·|y|·sign(x)
            if shift != T::ZERO {
                s.push_all(y, shift);
            }
            s
        };
        let sx = if self.hi() < T::ZERO { -T::ONE } else { T::ONE };
        let sy = if y.hi() < T::ZERO { -T::ONE } else { T::ONE };
        let s0 = build(T::ZERO);
        let sign0 = s0.sign();
        let s = if sign0 != core::cmp::Ordering::Equal
            && (sign0 == core::cmp::Ordering::Less) != (sx < T::ZERO)
        {
            // Sign opposite to x: q was one too large in magnitude.
            build(sx * sy)
        } else {
            // |r| ≥ |y|? then q was one too small in magnitude.
            let s1 = build(-sx * sy);
            let sign1 = s1.sign();
            if sign1 == core::cmp::Ordering::Equal
                || (sign1 == core::cmp::Ordering::Less) == (sx < T::ZERO)
            {
                s1
            } else {
                s0
            }
        };
        if s.buf[..s.len].iter().any(|v| !v.is_finite()) {
            return nan();
        }
        let r = s.round::<N>();
        if r.is_zero() {
            signed_zero(self)
        } else {
            r
        }
    }
}

macro_rules! binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $method:ident) => {
        impl<T: FloatTerm, const N: usize> $Op for Expansion<T, N> {
            type Output = Self;
            #[inline]
            fn $op(self, rhs: Self) -> Self {
                Expansion::$method(&self, &rhs)
            }
        }
        impl<T: FloatTerm, const N: usize> $Op<&Expansion<T, N>> for Expansion<T, N> {
            type Output = Self;
            #[inline]
            fn $op(self, rhs: &Self) -> Self {
                Expansion::$method(&self, rhs)
            }
        }
        impl<T: FloatTerm, const N: usize> $Op<Expansion<T, N>> for &Expansion<T, N> {
            type Output = Expansion<T, N>;
            #[inline]
            fn $op(self, rhs: Expansion<T, N>) -> Expansion<T, N> {
                Expansion::$method(self, &rhs)
            }
        }
        impl<T: FloatTerm, const N: usize> $Op<&Expansion<T, N>> for &Expansion<T, N> {
            type Output = Expansion<T, N>;
            #[inline]
            fn $op(self, rhs: &Expansion<T, N>) -> Expansion<T, N> {
                Expansion::$method(self, rhs)
            }
        }
        impl<T: FloatTerm, const N: usize> $OpAssign for Expansion<T, N> {
            #[inline]
            fn $op_assign(&mut self, rhs: Self) {
                *self = Expansion::$method(self, &rhs);
            }
        }
        impl<T: FloatTerm, const N: usize> $OpAssign<&Expansion<T, N>> for Expansion<T, N> {
            #[inline]
            fn $op_assign(&mut self, rhs: &Self) {
                *self = Expansion::$method(self, rhs);
            }
        }
    };
}

binop!(Add, add, AddAssign, add_assign, add);
binop!(Sub, sub, SubAssign, sub_assign, sub);
binop!(Mul, mul, MulAssign, mul_assign, mul);
binop!(Div, div, DivAssign, div_assign, div);
binop!(Rem, rem, RemAssign, rem_assign, rem);

/// Expansion ∘ term (`x + t`): `$body` with `x: &Expansion`, `t: T`.
macro_rules! termop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, |$x:ident, $t:ident| $body:expr) => {
        impl<T: FloatTerm, const N: usize> $Op<T> for Expansion<T, N> {
            type Output = Self;
            #[inline]
            fn $op(self, $t: T) -> Self {
                let $x = &self;
                $body
            }
        }
        impl<T: FloatTerm, const N: usize> $Op<T> for &Expansion<T, N> {
            type Output = Expansion<T, N>;
            #[inline]
            fn $op(self, $t: T) -> Expansion<T, N> {
                let $x = self;
                $body
            }
        }
        impl<T: FloatTerm, const N: usize> $OpAssign<T> for Expansion<T, N> {
            #[inline]
            fn $op_assign(&mut self, $t: T) {
                let $x = &*self;
                *self = $body;
            }
        }
    };
}

termop!(Add, add, AddAssign, add_assign, |x, t| x.add_term(t));
termop!(Sub, sub, SubAssign, sub_assign, |x, t| x.add_term(-t));
termop!(Mul, mul, MulAssign, mul_assign, |x, t| x.mul_term(t));
termop!(Div, div, DivAssign, div_assign, |x, t| x.div_term(t));
termop!(Rem, rem, RemAssign, rem_assign, |x, t| Expansion::rem(
    x,
    &Expansion::from_term(t)
));

/// term ∘ Expansion (`t + x`) for the concrete term types (a generic `impl for T` is not
/// allowed by the orphan rules).
macro_rules! term_lhs {
    ($($T:ty),*) => {$(
        impl<const N: usize> Add<Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn add(self, x: Expansion<$T, N>) -> Expansion<$T, N> {
                x.add_term(self)
            }
        }
        impl<const N: usize> Add<&Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn add(self, x: &Expansion<$T, N>) -> Expansion<$T, N> {
                x.add_term(self)
            }
        }
        impl<const N: usize> Sub<Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn sub(self, x: Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::neg(&x).add_term(self)
            }
        }
        impl<const N: usize> Sub<&Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn sub(self, x: &Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::neg(x).add_term(self)
            }
        }
        impl<const N: usize> Mul<Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn mul(self, x: Expansion<$T, N>) -> Expansion<$T, N> {
                x.mul_term(self)
            }
        }
        impl<const N: usize> Mul<&Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn mul(self, x: &Expansion<$T, N>) -> Expansion<$T, N> {
                x.mul_term(self)
            }
        }
        impl<const N: usize> Div<Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn div(self, x: Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::from_term(self).div(&x)
            }
        }
        impl<const N: usize> Div<&Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn div(self, x: &Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::from_term(self).div(x)
            }
        }
        impl<const N: usize> Rem<Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn rem(self, x: Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::from_term(self).rem(&x)
            }
        }
        impl<const N: usize> Rem<&Expansion<$T, N>> for $T {
            type Output = Expansion<$T, N>;
            #[inline]
            fn rem(self, x: &Expansion<$T, N>) -> Expansion<$T, N> {
                Expansion::from_term(self).rem(x)
            }
        }
    )*};
}

term_lhs!(f64, f32);

impl<T: FloatTerm, const N: usize> Neg for Expansion<T, N> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Expansion::neg(&self)
    }
}

impl<T: FloatTerm, const N: usize> Neg for &Expansion<T, N> {
    type Output = Expansion<T, N>;
    #[inline]
    fn neg(self) -> Expansion<T, N> {
        Expansion::neg(self)
    }
}

/// Left-to-right accurate sum (each step is [`Expansion::add`]); 0 for an empty iterator.
impl<T: FloatTerm, const N: usize> Sum for Expansion<T, N> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::zero(), |a, b| Expansion::add(&a, &b))
    }
}

impl<'a, T: FloatTerm, const N: usize> Sum<&'a Expansion<T, N>> for Expansion<T, N> {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::zero(), |a, b| Expansion::add(&a, b))
    }
}

/// Left-to-right accurate product (each step is [`Expansion::mul`]); 1 for an empty iterator.
impl<T: FloatTerm, const N: usize> Product for Expansion<T, N> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::one(), |a, b| Expansion::mul(&a, &b))
    }
}

impl<'a, T: FloatTerm, const N: usize> Product<&'a Expansion<T, N>> for Expansion<T, N> {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::one(), |a, b| Expansion::mul(&a, b))
    }
}
