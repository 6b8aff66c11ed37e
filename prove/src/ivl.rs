//! The interval arithmetic the proof runs in, behind one small trait [`Ivl`], with these
//! implementations: [`F64Iv`], [`ExpIv`] and [`MpIv`] adapt the interval crate's
//! `F64Interval` (inari), `ExpInterval<N>` (expansion endpoints) and `MpInterval` (MPFR
//! endpoints, lower rounded down, upper up); [`MpBall`] (MPFR midpoint, short radius rounded
//! up) is what the prover uses for MPFR, while `verify` recomputes with [`MpIv`]. Every
//! operation returns an interval containing every exact result for every point of its
//! inputs; nothing sets a global rounding mode.
//!
//! Endpoints are exchanged with the rest of the crate as exact `rug::Float`s, so certificates
//! store them bit for bit whatever the kind.

use rug::float::Round;
use rug::Float;
use std::cmp::Ordering;

/// An interval type the proof can run in.
pub trait Ivl: Clone + std::fmt::Debug {
    /// Short name recorded in certificates (`f64-interval`, `mpfr-interval`).
    const KIND: &'static str;
    /// Encloses the exact value `v` (a singleton when representable at `prec`).
    fn point(v: &Float, prec: u32) -> Self;
    /// Encloses the exact interval [lo, hi] (outward rounded to `prec`).
    fn from_bounds(lo: &Float, hi: &Float, prec: u32) -> Self;
    /// Encloses a small integer.
    fn int(v: i32, prec: u32) -> Self {
        Self::point(&Float::with_val(64, v), prec)
    }
    /// An enclosure of self with short endpoints (outward rounded), for tiny quantities whose
    /// relative accuracy does not matter; multiplying by it is then cheap. Default: self.
    fn coarse(&self) -> Self {
        self.clone()
    }
    /// An enclosure of self whose numbers have at most `prec` bits (outward rounded). Default:
    /// the endpoints rounded outward.
    fn to_prec(&self, prec: u32) -> Self {
        Self::from_bounds(&self.lo(), &self.hi(), prec)
    }
    /// self + o
    fn add(&self, o: &Self) -> Self;
    /// self − o
    fn sub(&self, o: &Self) -> Self;
    /// self · o
    fn mul(&self, o: &Self) -> Self;
    /// −self
    fn neg(&self) -> Self;
    /// self² (tighter than self·self when the interval contains 0)
    fn sqr(&self) -> Self;
    /// 1/self, or `None` when self may contain 0 (or is not finite)
    fn recip(&self) -> Option<Self>;
    /// Lower endpoint, exactly.
    fn lo(&self) -> Float;
    /// Upper endpoint, exactly.
    fn hi(&self) -> Float;
    /// True when both endpoints are finite (an interval with NaN or ±∞ proves nothing).
    fn is_finite(&self) -> bool;
    /// True when every point of self lies in the open interval (lo, hi).
    fn certainly_inside_open(&self, lo: &Float, hi: &Float) -> bool {
        self.is_finite() && self.lo() > *lo && self.hi() < *hi
    }
    /// True when self and o have no common point.
    fn certainly_disjoint(&self, o: &Self) -> bool {
        self.is_finite() && o.is_finite() && (self.hi() < o.lo() || o.hi() < self.lo())
    }
    /// True when every point of self is < every point of o.
    fn certainly_lt(&self, o: &Self) -> bool {
        self.is_finite() && o.is_finite() && self.hi() < o.lo()
    }
    /// max(|lo|, |hi|) as an exact float (∞ when not finite).
    fn mag(&self) -> Float {
        if !self.is_finite() {
            return Float::with_val(53, f64::INFINITY);
        }
        let (l, h) = (self.lo().abs(), self.hi().abs());
        if l > h {
            l
        } else {
            h
        }
    }
    /// |self| as an interval.
    fn abs(&self) -> Self {
        if self.lo() >= 0 {
            self.clone()
        } else if self.hi() <= 0 {
            self.neg()
        } else {
            let m = self.mag();
            let p = m.prec();
            Self::from_bounds(&Float::with_val(p, 0), &m, p)
        }
    }
}

/// An f64 interval: `expanse_interval::F64Interval` (inari underneath), adapted to [`Ivl`].
#[derive(Clone, Copy, Debug)]
pub struct F64Iv(pub expanse_interval::F64Interval);

impl F64Iv {
    fn enclose(lo: &Float, hi: &Float) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(
            expanse_interval::F64Interval::from_rug_bounds(&(), lo, hi)
                .unwrap_or_else(|_| expanse_interval::F64Interval::entire(&())),
        )
    }
}

impl Ivl for F64Iv {
    const KIND: &'static str = "f64-interval";
    fn point(v: &Float, _prec: u32) -> Self {
        Self::enclose(v, v)
    }
    fn from_bounds(lo: &Float, hi: &Float, _prec: u32) -> Self {
        Self::enclose(lo, hi)
    }
    fn add(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(self.0.add(&o.0))
    }
    fn sub(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(self.0.sub(&o.0))
    }
    fn mul(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(self.0.mul(&o.0))
    }
    fn neg(&self) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(self.0.neg())
    }
    fn sqr(&self) -> Self {
        use expanse_interval::IntervalArith;
        F64Iv(self.0.sqr())
    }
    fn recip(&self) -> Option<Self> {
        use expanse_interval::IntervalArith;
        if !self.is_finite() || self.0.contains_f64(0.0) {
            return None;
        }
        Some(F64Iv(self.0.recip())).filter(|r| r.is_finite())
    }
    fn lo(&self) -> Float {
        Float::with_val(53, self.0.inf())
    }
    fn hi(&self) -> Float {
        Float::with_val(53, self.0.sup())
    }
    fn is_finite(&self) -> bool {
        use expanse_interval::IntervalArith;
        self.0.is_bounded()
    }
}

/// An interval with MPFR endpoints: `expanse_interval::MpInterval` (lower endpoints rounded
/// down, upper up), adapted to [`Ivl`]. Endpoints that already fit the requested precision
/// keep their own (shorter) precision — an interval of 53-bit radii stays 53-bit — so that
/// products with them are cheap; operations compute at the larger precision of their
/// operands.
#[derive(Clone, Debug)]
pub struct MpIv(pub expanse_interval::MpInterval);

fn mp_ctx(bits: u32) -> expanse_interval::MpCtx {
    expanse_interval::MpCtx::new(bits.clamp(
        expanse_interval::mp::MIN_PREC,
        expanse_interval::mp::MAX_PREC,
    ))
    .expect("clamped to the valid range")
}

impl MpIv {
    /// Precision of the endpoints.
    pub fn prec(&self) -> u32 {
        self.0.prec()
    }

    fn enclose(lo: &Float, hi: &Float, prec: u32) -> Self {
        use expanse_interval::IntervalArith;
        let p = if lo.prec() <= prec && hi.prec() <= prec {
            lo.prec().max(hi.prec())
        } else {
            prec
        };
        let ctx = mp_ctx(p);
        MpIv(
            expanse_interval::MpInterval::from_rug_bounds(&ctx, lo, hi)
                .unwrap_or_else(|_| expanse_interval::MpInterval::entire(&ctx)),
        )
    }
}

impl Ivl for MpIv {
    const KIND: &'static str = "mpfr-interval";
    fn point(v: &Float, prec: u32) -> Self {
        use expanse_interval::IntervalArith;
        let ctx = mp_ctx(prec);
        MpIv(
            expanse_interval::MpInterval::from_rug_bounds(&ctx, v, v)
                .unwrap_or_else(|_| expanse_interval::MpInterval::entire(&ctx)),
        )
    }
    fn from_bounds(lo: &Float, hi: &Float, prec: u32) -> Self {
        Self::enclose(lo, hi, prec)
    }
    fn int(v: i32, _prec: u32) -> Self {
        // Exact at 64 bits; operations with it run at the other operand's precision.
        let f = Float::with_val(64, v);
        Self::enclose(&f, &f, 64)
    }
    fn to_prec(&self, prec: u32) -> Self {
        if self.prec() <= prec {
            return self.clone();
        }
        MpIv(self.0.with_prec(&mp_ctx(prec)))
    }
    fn coarse(&self) -> Self {
        MpIv(self.0.with_prec(&mp_ctx(64)))
    }
    fn add(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        MpIv(self.0.add(&o.0))
    }
    fn sub(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        MpIv(self.0.sub(&o.0))
    }
    fn mul(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        MpIv(self.0.mul(&o.0))
    }
    fn neg(&self) -> Self {
        use expanse_interval::IntervalArith;
        MpIv(self.0.neg())
    }
    fn sqr(&self) -> Self {
        use expanse_interval::IntervalArith;
        MpIv(self.0.sqr())
    }
    fn recip(&self) -> Option<Self> {
        use expanse_interval::IntervalArith;
        if !self.is_finite() || self.0.contains_f64(0.0) {
            return None;
        }
        Some(MpIv(self.0.recip())).filter(|r| r.is_finite())
    }
    fn lo(&self) -> Float {
        self.0.lo().clone()
    }
    fn hi(&self) -> Float {
        self.0.hi().clone()
    }
    fn is_finite(&self) -> bool {
        use expanse_interval::IntervalArith;
        self.0.is_bounded()
    }
}

/// An upper bound m·2^e of a nonnegative real (m an f64 in [0.5, 1] or 0, e unbounded in
/// practice): the radius of an [`MpBall`]. Operations round up: the f64 result of a sum or
/// product of nonnegative normal numbers is within half an ulp of the exact one, so the next
/// f64 above it is an upper bound; the separate exponent keeps m away from underflow and
/// overflow whatever the scale (radii near 2^(−30 000) occur).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rad {
    m: f64,
    e: i64,
}

impl Rad {
    const ZERO: Rad = Rad { m: 0.0, e: 0 };
    const INF: Rad = Rad {
        m: f64::INFINITY,
        e: 0,
    };

    /// m·2^e with m ≥ 0 brought to [0.5, 1) (exact: only the exponent changes).
    fn norm(m: f64, e: i64) -> Rad {
        if m == 0.0 {
            return Rad::ZERO;
        }
        if !m.is_finite() {
            return Rad::INF;
        }
        let bits = m.to_bits();
        let k = ((bits >> 52) & 0x7ff) as i64;
        debug_assert!(k != 0, "subnormal mantissa");
        let mm = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
        Rad {
            m: mm,
            e: e + k - 1022,
        }
    }

    fn is_zero(&self) -> bool {
        self.m == 0.0
    }

    fn is_finite(&self) -> bool {
        self.m.is_finite()
    }

    /// An upper bound of |v|.
    fn of_abs(v: &Float) -> Rad {
        if v.is_zero() {
            return Rad::ZERO;
        }
        if !v.is_finite() {
            return Rad::INF;
        }
        // Mantissa and exponent of |v| together (rounding up may carry into the next power of
        // two, which moves the exponent).
        let (m, e) = v.as_abs().to_f64_exp_round(Round::Up);
        Rad::norm(m, e as i64)
    }

    /// 2^k.
    fn pow2(k: i64) -> Rad {
        Rad { m: 0.5, e: k + 1 }
    }

    fn add(self, o: Rad) -> Rad {
        if self.is_zero() {
            return o;
        }
        if o.is_zero() {
            return self;
        }
        if !(self.is_finite() && o.is_finite()) {
            return Rad::INF;
        }
        let (big, small) = if self.e >= o.e { (self, o) } else { (o, self) };
        let d = big.e - small.e;
        let m = if d > 60 {
            // small < 2^(−60)·big/0.5 is below half an ulp of big.m: one ulp up covers it.
            big.m.next_up()
        } else {
            // small.m·2^(−d) is exact (a normal f64), the sum rounded to nearest: next up.
            (big.m + small.m * 2f64.powi(-(d as i32))).next_up()
        };
        Rad::norm(m, big.e)
    }

    fn max(self, o: Rad) -> Rad {
        if self.is_zero() {
            return o;
        }
        if o.is_zero() || !self.is_finite() {
            return self;
        }
        if !o.is_finite() || o.e > self.e || (o.e == self.e && o.m > self.m) {
            o
        } else {
            self
        }
    }

    fn mul(self, o: Rad) -> Rad {
        if self.is_zero() || o.is_zero() {
            return Rad::ZERO;
        }
        if !(self.is_finite() && o.is_finite()) {
            return Rad::INF;
        }
        Rad::norm((self.m * o.m).next_up(), self.e + o.e)
    }

    /// The exact value as a 53-bit float (∞ when not finite).
    fn to_float(self) -> Float {
        if !self.is_finite() {
            return Float::with_val(53, f64::INFINITY);
        }
        let mut f = Float::with_val(53, self.m);
        f <<= self.e as i32;
        f
    }
}

/// Rounding error bound of a value just rounded to nearest at `prec` bits: 0 when exact, else
/// one ulp (twice the bound); ∞ when the result is 0 or not finite after an inexact operation
/// (underflow: nothing is claimed).
fn err_bound(v: &Float, ord: Ordering, prec: u32) -> Rad {
    if ord == Ordering::Equal {
        return Rad::ZERO;
    }
    match v.get_exp() {
        Some(e) if v.is_finite() => Rad::pow2(e as i64 - prec as i64),
        _ => Rad::INF,
    }
}

/// A ball [m − r, m + r] with an MPFR midpoint m (rounded to nearest at its precision) and a
/// short radius r rounded up (an f64 mantissa with its own exponent): midpoint-radius interval
/// arithmetic. A product costs one long multiplication (m₁·m₂) where endpoint intervals need
/// two, so the proof's long recurrences run about twice as fast; the radius is
/// |m₁|·r₂ + r₁·|m₂| + r₁·r₂ + (rounding error of m₁·m₂), a bound of
/// |x·y − m₁·m₂| for every x, y in the balls. For the narrow intervals of the proof (radius
/// ≈ 2^(−prec/2) relative) it encloses as tightly as endpoint intervals to first order.
///
/// Certificates call it `mpfr-interval` like [`MpIv`] (MPFR numbers of `bits` bits, outward
/// enclosures); `verify` recomputes with [`MpIv`], a second implementation.
#[derive(Clone, Debug)]
pub struct MpBall {
    m: Float,
    r: Rad,
}

impl MpBall {
    /// Precision of the midpoint.
    pub fn prec(&self) -> u32 {
        self.m.prec()
    }

    fn rounded(v: (Float, Ordering), prec: u32, r: Rad) -> Self {
        let e = err_bound(&v.0, v.1, prec);
        MpBall {
            m: v.0,
            r: r.add(e),
        }
    }
}

impl Ivl for MpBall {
    const KIND: &'static str = "mpfr-interval";
    fn point(v: &Float, prec: u32) -> Self {
        MpBall::rounded(
            Float::with_val_round(prec, v, Round::Nearest),
            prec,
            Rad::ZERO,
        )
    }
    fn from_bounds(lo: &Float, hi: &Float, prec: u32) -> Self {
        if lo == hi && lo.prec() <= prec {
            return MpBall {
                m: lo.clone(),
                r: Rad::ZERO,
            };
        }
        // Midpoint at the endpoints' precision (+1 so that (lo + hi)/2 is usually exact), at
        // most `prec`; the radius covers both endpoints.
        let pm = (lo.prec().max(hi.prec()) + 1).min(prec);
        let mut m = Float::with_val(pm, lo + hi);
        m >>= 1;
        let d1 = Float::with_val_round(53, hi - &m, Round::Up).0;
        let d2 = Float::with_val_round(53, &m - lo, Round::Up).0;
        let (d1, d2) = (Rad::of_abs(&d1), Rad::of_abs(&d2));
        let r = d1.max(d2);
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return MpBall {
                m: Float::with_val(pm, f64::NAN),
                r: Rad::INF,
            };
        }
        MpBall { m, r }
    }
    fn int(v: i32, _prec: u32) -> Self {
        MpBall {
            m: Float::with_val(64, v),
            r: Rad::ZERO,
        }
    }
    fn to_prec(&self, prec: u32) -> Self {
        if self.m.prec() <= prec {
            return self.clone();
        }
        MpBall::rounded(
            Float::with_val_round(prec, &self.m, Round::Nearest),
            prec,
            self.r,
        )
    }
    fn coarse(&self) -> Self {
        self.to_prec(64)
    }
    fn add(&self, o: &Self) -> Self {
        let p = self.prec().max(o.prec());
        MpBall::rounded(
            Float::with_val_round(p, &self.m + &o.m, Round::Nearest),
            p,
            self.r.add(o.r),
        )
    }
    fn sub(&self, o: &Self) -> Self {
        let p = self.prec().max(o.prec());
        MpBall::rounded(
            Float::with_val_round(p, &self.m - &o.m, Round::Nearest),
            p,
            self.r.add(o.r),
        )
    }
    fn mul(&self, o: &Self) -> Self {
        let p = self.prec().max(o.prec());
        let mut r = self.r.mul(o.r);
        if !o.r.is_zero() {
            r = r.add(Rad::of_abs(&self.m).mul(o.r));
        }
        if !self.r.is_zero() {
            r = r.add(self.r.mul(Rad::of_abs(&o.m)));
        }
        MpBall::rounded(
            Float::with_val_round(p, &self.m * &o.m, Round::Nearest),
            p,
            r,
        )
    }
    fn neg(&self) -> Self {
        MpBall {
            m: Float::with_val(self.prec(), -&self.m),
            r: self.r,
        }
    }
    fn sqr(&self) -> Self {
        let p = self.prec();
        // |x² − m²| = |x − m|·|x + m| ≤ r·(2|m| + r).
        let r = if self.r.is_zero() {
            Rad::ZERO
        } else {
            let am = Rad::of_abs(&self.m);
            self.r.mul(am.add(am).add(self.r))
        };
        MpBall::rounded(
            Float::with_val_round(p, self.m.square_ref(), Round::Nearest),
            p,
            r,
        )
    }
    fn recip(&self) -> Option<Self> {
        // Rare (once per evaluation): through the endpoints.
        if !self.is_finite() {
            return None;
        }
        let (lo, hi) = (self.lo(), self.hi());
        if !(lo > 0 || hi < 0) {
            return None;
        }
        let p = self.prec();
        let l = Float::with_val_round(p, 1 / &hi, Round::Down).0;
        let h = Float::with_val_round(p, 1 / &lo, Round::Up).0;
        Some(Self::from_bounds(&l, &h, p))
    }
    fn lo(&self) -> Float {
        if self.r.is_zero() {
            return self.m.clone();
        }
        // (Both operands by reference: an owned 53-bit operand would be the result's storage
        // and round it to 53 bits.)
        let r = self.r.to_float();
        Float::with_val_round(self.prec(), &self.m - &r, Round::Down).0
    }
    fn hi(&self) -> Float {
        if self.r.is_zero() {
            return self.m.clone();
        }
        let r = self.r.to_float();
        Float::with_val_round(self.prec(), &self.m + &r, Round::Up).0
    }
    fn is_finite(&self) -> bool {
        self.m.is_finite() && self.r.is_finite()
    }
    fn mag(&self) -> Float {
        if !self.is_finite() {
            return Float::with_val(53, f64::INFINITY);
        }
        Rad::of_abs(&self.m).add(self.r).to_float()
    }
}

/// An interval with N-term f64 expansion endpoints: `expanse_interval::ExpInterval<N>`
/// (outward rounding from the core crate's proven error bounds), adapted to [`Ivl`]. Any
/// number with at most 53·N significant bits is exactly an N-term expansion, so the proof
/// passes it centres rounded to 53·N bits.
#[derive(Clone, Debug)]
pub struct ExpIv<const N: usize>(pub expanse_interval::ExpInterval<N>);

impl<const N: usize> ExpIv<N> {
    fn wrap(v: expanse_interval::ExpInterval<N>) -> Self {
        ExpIv(v)
    }
}

impl<const N: usize> Ivl for ExpIv<N> {
    const KIND: &'static str = "exp-interval";
    fn point(v: &Float, _prec: u32) -> Self {
        Self::from_bounds(v, v, 0)
    }
    fn from_bounds(lo: &Float, hi: &Float, _prec: u32) -> Self {
        use expanse_interval::IntervalArith;
        let ctx = ();
        Self::wrap(
            expanse_interval::ExpInterval::<N>::from_rug_bounds(&ctx, lo, hi)
                .unwrap_or_else(|_| expanse_interval::ExpInterval::<N>::empty(&ctx)),
        )
    }
    fn add(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        Self::wrap(self.0.add(&o.0))
    }
    fn sub(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        Self::wrap(self.0.sub(&o.0))
    }
    fn mul(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        Self::wrap(self.0.mul(&o.0))
    }
    fn neg(&self) -> Self {
        use expanse_interval::IntervalArith;
        Self::wrap(self.0.neg())
    }
    fn sqr(&self) -> Self {
        use expanse_interval::IntervalArith;
        Self::wrap(self.0.sqr())
    }
    fn recip(&self) -> Option<Self> {
        use expanse_interval::IntervalArith;
        if !self.is_finite() || !(self.lo() > 0 || self.hi() < 0) {
            return None;
        }
        let r = self.0.recip();
        let out = Self::wrap(r);
        if out.is_finite() {
            Some(out)
        } else {
            None
        }
    }
    fn lo(&self) -> Float {
        use expanse_interval::IntervalArith;
        self.0.inf_rug()
    }
    fn hi(&self) -> Float {
        use expanse_interval::IntervalArith;
        self.0.sup_rug()
    }
    fn is_finite(&self) -> bool {
        use expanse_interval::IntervalArith;
        !self.0.is_empty() && self.0.is_bounded()
    }
}

/// An interval with fixed-limb endpoints: `expanse_interval::limb::LimbInterval` (the
/// correctly rounded multi-limb floats of `expanse_core::limb`, 2 to 4096 bits, no heap; lower
/// endpoints rounded down, upper up, exactly as MPFR would), adapted to [`Ivl`]. It is the CPU
/// twin of the GPU interval arithmetic, so the proof can run at multi-limb precision in the
/// arithmetic the GPU kernels compute bit for bit. As for [`MpIv`], endpoints that already fit
/// the requested precision keep their own (shorter) precision, operations run at the larger
/// precision of their operands, and requests above 4096 bits are clamped to 4096 (still an
/// enclosure: endpoints are rounded outward).
#[derive(Clone, Debug)]
pub struct LimbIv(pub expanse_interval::limb::LimbInterval);

fn limb_ctx(bits: u32) -> expanse_interval::limb::LimbCtx {
    expanse_interval::limb::LimbCtx::new(bits.clamp(
        expanse_interval::limb::MIN_PREC,
        expanse_core::limb::MAX_PREC,
    ))
    .expect("clamped to the valid range")
}

impl LimbIv {
    /// Precision of the endpoints.
    pub fn prec(&self) -> u32 {
        self.0.prec()
    }

    fn enclose(lo: &Float, hi: &Float, prec: u32) -> Self {
        use expanse_interval::IntervalArith;
        let p = if lo.prec() <= prec && hi.prec() <= prec {
            lo.prec().max(hi.prec())
        } else {
            prec
        };
        let ctx = limb_ctx(p);
        LimbIv(
            expanse_interval::limb::LimbInterval::from_rug_bounds(&ctx, lo, hi)
                .unwrap_or_else(|_| expanse_interval::limb::LimbInterval::entire(&ctx)),
        )
    }
}

impl Ivl for LimbIv {
    const KIND: &'static str = "limb-interval";
    fn point(v: &Float, prec: u32) -> Self {
        use expanse_interval::IntervalArith;
        let ctx = limb_ctx(prec);
        LimbIv(
            expanse_interval::limb::LimbInterval::from_rug_bounds(&ctx, v, v)
                .unwrap_or_else(|_| expanse_interval::limb::LimbInterval::entire(&ctx)),
        )
    }
    fn from_bounds(lo: &Float, hi: &Float, prec: u32) -> Self {
        Self::enclose(lo, hi, prec)
    }
    fn int(v: i32, _prec: u32) -> Self {
        // Exact at 64 bits; operations with it run at the other operand's precision.
        let f = Float::with_val(64, v);
        Self::enclose(&f, &f, 64)
    }
    fn to_prec(&self, prec: u32) -> Self {
        if self.prec() <= prec {
            return self.clone();
        }
        LimbIv(self.0.with_prec(&limb_ctx(prec)))
    }
    fn coarse(&self) -> Self {
        LimbIv(self.0.with_prec(&limb_ctx(64)))
    }
    fn add(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        LimbIv(self.0.add(&o.0))
    }
    fn sub(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        LimbIv(self.0.sub(&o.0))
    }
    fn mul(&self, o: &Self) -> Self {
        use expanse_interval::IntervalArith;
        LimbIv(self.0.mul(&o.0))
    }
    fn neg(&self) -> Self {
        use expanse_interval::IntervalArith;
        LimbIv(self.0.neg())
    }
    fn sqr(&self) -> Self {
        use expanse_interval::IntervalArith;
        LimbIv(self.0.sqr())
    }
    fn recip(&self) -> Option<Self> {
        use expanse_interval::IntervalArith;
        if !self.is_finite() || self.0.contains_f64(0.0) {
            return None;
        }
        Some(LimbIv(self.0.recip())).filter(|r| r.is_finite())
    }
    fn lo(&self) -> Float {
        self.0.lo().to_rug()
    }
    fn hi(&self) -> Float {
        self.0.hi().to_rug()
    }
    fn is_finite(&self) -> bool {
        use expanse_interval::IntervalArith;
        self.0.is_bounded()
    }
}

/// `Ordering` of two exact floats, `None` when either is NaN.
pub fn cmp(a: &Float, b: &Float) -> Option<Ordering> {
    a.partial_cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::{Integer, Rational};

    fn q(v: &Float) -> Rational {
        v.to_rational().unwrap()
    }

    fn check_encloses<S: Ivl>(prec: u32) {
        // Random-ish intervals of every sign pattern; the exact results of the operation on
        // the endpoints (rationals, exact) must lie inside the computed interval.
        let vals = [-3.7, -1.1, -0.0, 0.0, 0.3, 1.0 / 3.0, 2.5, 1e-20, -7e15];
        let third = Rational::from((1, 3));
        for &l in &vals {
            for &h in &vals {
                if l > h {
                    continue;
                }
                for &l2 in &vals {
                    for &h2 in &vals {
                        if l2 > h2 {
                            continue;
                        }
                        // Endpoints shifted by an inexact third so rounding really happens.
                        let lo1 = Rational::from_f64(l).unwrap() - &third;
                        let hi1 = Rational::from_f64(h).unwrap() - &third;
                        let lo2 = Rational::from_f64(l2).unwrap() + &third;
                        let hi2 = Rational::from_f64(h2).unwrap() + &third;
                        let f = |r: &Rational, rr| Float::with_val_round(prec, r, rr).0;
                        let x = S::from_bounds(&f(&lo1, Round::Down), &f(&hi1, Round::Up), prec);
                        let y = S::from_bounds(&f(&lo2, Round::Down), &f(&hi2, Round::Up), prec);
                        let sum = x.add(&y);
                        let dif = x.sub(&y);
                        let pro = x.mul(&y);
                        let sq = x.sqr();
                        for a in [&lo1, &hi1] {
                            for b in [&lo2, &hi2] {
                                let inside =
                                    |iv: &S, v: Rational| q(&iv.lo()) <= v && v <= q(&iv.hi());
                                assert!(inside(&sum, Rational::from(a + b)));
                                assert!(inside(&dif, Rational::from(a - b)));
                                assert!(inside(&pro, Rational::from(a * b)));
                                assert!(inside(&sq, Rational::from(a * a)));
                                if let Some(r) = y.recip() {
                                    assert!(inside(&r, 1 / b.clone()));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mpfr_balls_enclose_exact_results() {
        check_encloses::<MpBall>(60);
        check_encloses::<MpBall>(300);
    }

    #[test]
    fn mpfr_balls_enclose_exact_results_at_extreme_scales() {
        // Radii far outside the f64 exponent range (the proof's are near 2^(−15 000)): every
        // exact sum, difference, product and square of points of the inputs stays inside.
        let prec = 3000;
        for k in [-40_000i32, -15_000, -1100, 0, 1100] {
            for (u, v) in [(0.7, -1.3), (-2.5, 0.3), (1e-3, 1e-3)] {
                let scale = Rational::from(Integer::from(1) << (k.unsigned_abs() as usize));
                let s = |q: Rational| {
                    if k < 0 {
                        q / scale.clone()
                    } else {
                        q * scale.clone()
                    }
                };
                let third = Rational::from((1, 3));
                let (cx, cy) = (
                    s(Rational::from_f64(u).unwrap() + &third),
                    s(Rational::from_f64(v).unwrap() - &third),
                );
                // Radii 2^(k − 200) and 2^(k − 1700) around them.
                let rx = s(Rational::from((1, Integer::from(1) << 200usize)));
                let ry = s(Rational::from((1, Integer::from(1) << 1700usize)));
                let f = |r: &Rational, rr| Float::with_val_round(prec, r, rr).0;
                let (lx, hx) = (Rational::from(&cx - &rx), Rational::from(&cx + &rx));
                let (ly, hy) = (Rational::from(&cy - &ry), Rational::from(&cy + &ry));
                let x = MpBall::from_bounds(&f(&lx, Round::Down), &f(&hx, Round::Up), prec);
                let y = MpBall::from_bounds(&f(&ly, Round::Down), &f(&hy, Round::Up), prec);
                let (sum, dif, pro, sq) = (x.add(&y), x.sub(&y), x.mul(&y), x.sqr());
                let inside = |iv: &MpBall, v: Rational| q(&iv.lo()) <= v && v <= q(&iv.hi());
                for a in [&lx, &cx, &hx] {
                    for b in [&ly, &cy, &hy] {
                        assert!(inside(&sum, Rational::from(a + b)), "k={k}");
                        assert!(inside(&dif, Rational::from(a - b)), "k={k}");
                        assert!(inside(&pro, Rational::from(a * b)), "k={k}");
                        assert!(inside(&sq, Rational::from(a * a)), "k={k}");
                    }
                }
                // And not much wider than the exact range: the product's width is within 1 %
                // of the exact width |cx|·2ry + 2rx·|cy| (first order).
                let w = q(&pro.hi()) - q(&pro.lo());
                let exact = cx.clone().abs() * &ry * 2u32 + cy.clone().abs() * &rx * 2u32;
                assert!(
                    w <= exact.clone() * Rational::from((101, 100)) && w >= exact,
                    "k={k}"
                );
            }
        }
    }

    #[test]
    fn ball_radii_bound_what_they_round() {
        // Upper bounds of |v| just below powers of two (rounding up carries into the exponent),
        // of both signs and at extreme scales; sums and products of radii bound the exact ones.
        for k in [-40_000i32, -1074, -3, 0, 1, 900, 40_000] {
            for sign in [1i32, -1] {
                let mut v = Float::with_val(300, 1) - (Float::with_val(300, 1) >> 200);
                v <<= k;
                v *= sign;
                let r = Rad::of_abs(&v);
                assert!(r.to_float() >= v.clone().abs(), "k={k} sign={sign}");
                let two = Rad::of_abs(&Float::with_val(53, 3)).add(r);
                let exact = Float::with_val(400, v.clone().abs() + 3u32);
                assert!(two.to_float() >= exact, "sum k={k}");
                let pr = r.mul(r);
                let exact = Float::with_val(800, v.square_ref());
                assert!(pr.to_float() >= exact, "product k={k}");
            }
        }
    }

    #[test]
    fn mpfr_intervals_enclose_exact_results() {
        check_encloses::<MpIv>(60);
        check_encloses::<MpIv>(300);
    }

    #[test]
    fn expansion_intervals_enclose_exact_results() {
        check_encloses::<ExpIv<2>>(106);
        check_encloses::<ExpIv<4>>(212);
    }

    #[test]
    fn limb_intervals_enclose_exact_results() {
        check_encloses::<LimbIv>(60);
        check_encloses::<LimbIv>(300);
    }

    #[test]
    fn limb_intervals_match_mpfr_intervals_bit_for_bit() {
        // The same operations on the same inputs at the same precision: both kinds round each
        // endpoint correctly in the outward direction, so the endpoints agree exactly.
        let third = Float::with_val(400, 1) / 3u32;
        let seventh = Float::with_val(400, -1) / 7u32;
        for prec in [64, 200, 256, 848] {
            let (x, y) = (
                LimbIv::from_bounds(&seventh, &third, prec),
                LimbIv::point(&third, prec),
            );
            let (mx, my) = (
                MpIv::from_bounds(&seventh, &third, prec),
                MpIv::point(&third, prec),
            );
            let pairs = [
                (x.add(&y), mx.add(&my)),
                (x.sub(&y), mx.sub(&my)),
                (x.mul(&y), mx.mul(&my)),
                (x.sqr(), mx.sqr()),
                (y.recip().unwrap(), my.recip().unwrap()),
            ];
            for (l, m) in pairs {
                assert_eq!(l.lo(), m.lo(), "prec {prec}");
                assert_eq!(l.hi(), m.hi(), "prec {prec}");
                assert!(l.lo() < l.hi());
            }
        }
    }

    #[test]
    fn f64_intervals_enclose_exact_results() {
        check_encloses::<F64Iv>(53);
    }

    #[test]
    fn mpfr_interval_is_tight_at_high_precision() {
        let third = Float::with_val(400, 1) / 3u32;
        let x = MpIv::point(&third, 200);
        let w = Float::with_val(53, x.hi() - x.lo());
        assert!(w > 0 && w < Float::with_val(53, 2f64.powi(-200)));
    }
}
