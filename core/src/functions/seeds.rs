//! f64 starting values of the Newton iterations of ln_1p and cbrt ([`super::exp_log`]), from
//! IEEE-754 operations only (+, −, ×, ÷, FMA, exact scalings), so that the CUDA port of the
//! functions (expanse-gpu's `cuda/functions.cu`) repeats them bit for bit; a libm call (whose
//! results differ between C libraries and from CUDA's) would make the GPU and CPU Newton
//! iterations start from different points.
//!
//! Only the speed of the iterations depends on these seeds, never the stated error bounds:
//! the bounds rest on the run-time convergence check of the last Newton step alone. The seeds
//! are accurate to about half an ulp (tested against MPFR below), as the libm functions they
//! replace, so the number of Newton steps is unchanged.

/// 2^e for an integer e, exactly (0 below the subnormals, +∞ above the range).
#[inline]
pub(crate) fn pow2(e: i32) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else if e >= -1074 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        0.0
    }
}

/// ⌊log₂|v|⌋ for a finite non-zero f64 (subnormals included).
#[inline]
fn ilogb(v: f64) -> i32 {
    super::exp_log::ilogb(v)
}

/// v·2^e, exact when the result is normal (expanse-core's `FloatTerm::ldexp`).
#[inline]
fn ldexp(v: f64, e: i32) -> f64 {
    <f64 as crate::float::FloatTerm>::ldexp(v, e)
}

/// ln(1 + w) for 1 + w ∈ [0.7, 1.42] as 2·atanh(s), s = w/(2 + w): s to about 2^−106 from
/// the exact remainder of the division and the exact error of 2 + w, the odd series of atanh
/// to relative 2^−60 (|s| ≤ 0.172, 11 terms), one final rounding: error ≲ 0.55 ulp.
fn ln_1p_core(w: f64) -> f64 {
    let d = 2.0 + w;
    // d + e_d = 2 + w exactly (Fast2Sum: |w| < 2).
    let e_d = (2.0 - d) + w;
    let s = w / d;
    // w/(d + e_d) − s ≈ (w − s·d − s·e_d)/d; w − s·d is exact (FMA).
    let r = (-s).mul_add(d, w);
    let s_lo = (r - s * e_d) / d;
    let z = s * s;
    // atanh(s)/s − 1 = z·Σ_{k≥0} z^k/(2k + 3), Horner over k = 10..0.
    let mut p = 1.0 / 23.0;
    for k in (0..10).rev() {
        p = p * z + 1.0 / (2 * k + 3) as f64;
    }
    let tail = 2.0 * s_lo + 2.0 * (s * (z * p));
    2.0 * s + tail
}

/// An f64 approximation of ln(1 + w) (about half an ulp on the range the Newton iteration of
/// ln_1p uses, 1 + w ∈ [0.7, 1.42]; a few ulp elsewhere), with IEEE special values.
pub fn ln_1p_seed(w: f64) -> f64 {
    if w.is_nan() || w < -1.0 {
        return f64::NAN;
    }
    if w == -1.0 {
        return f64::NEG_INFINITY;
    }
    if w == f64::INFINITY {
        return w;
    }
    if w > -0.29 && w < 0.41 {
        return ln_1p_core(w);
    }
    // 1 + w = u + c exactly (2Sum), u = m·2^k with m ∈ [1/√2, √2): ln(1 + w) = k·ln 2 +
    // ln1p(m − 1 + c·2^−k), m − 1 exact.
    let u = 1.0 + w;
    let uv = u - w;
    let c = (1.0 - uv) + (w - (u - uv));
    let mut k = ilogb(u);
    let mut m = ldexp(u, -k);
    if m >= core::f64::consts::SQRT_2 {
        k += 1;
        m = ldexp(u, -k);
    }
    let w2 = (m - 1.0) + ldexp(c, -k);
    k as f64 * core::f64::consts::LN_2 + ln_1p_core(w2)
}

/// An f64 approximation of ∛x (about half an ulp), with ∛(±0) = ±0, ∛(±∞) = ±∞, NaN → NaN:
/// |x| = a·2^{3j} with a ∈ [1, 8) (exact), five Newton steps y ← (2y + a/y²)/3 from the chord
/// 1 + (a − 1)/7 (relative error ≤ 0.11 → below 2^−52), then one correction with the exact
/// residual a − y³ (2ProdFMA twice), and the exact scaling back.
pub fn cbrt_seed(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let ax = x.abs();
    let j = ilogb(ax).div_euclid(3);
    let a = ldexp(ax, -3 * j);
    let mut y = 1.0 + (a - 1.0) / 7.0;
    for _ in 0..5 {
        y = (2.0 * y + a / (y * y)) / 3.0;
    }
    // y³ = q + qe + y·pe exactly, with y² = p + pe and y·p = q + qe.
    let p = y * y;
    let pe = y.mul_add(y, -p);
    let q = y * p;
    let qe = y.mul_add(p, -q);
    // a − q is exact (q is within a factor 2 of a).
    let r = ((a - q) - qe) - y * pe;
    let y = y + r / (3.0 * p);
    let v = ldexp(y, j);
    if x < 0.0 {
        -v
    } else {
        v
    }
}
