//! The table reduction of sin, cos and tan at N = 2 (both term types; derivation and bound in
//! `trig.rs`, "Table reduction at N = 2"): [`sin_cos_table`] (sin r and cos r of the reduced
//! argument from sin(j/256), cos(j/256) and short series of the remainder s = |r| − j/256:
//! at f64 the fixed series [`sin_series_dd`] and [`cos_series_dd`], at f32 Horner),
//! its plan [`sin_tab_plan`] and its bound [`sin_cos_table_parts`]; and the tables it reads:
//! sin(j/256) and cos(j/256) for j = 0..=201 as their first two greedy terms (double-word /
//! float-float), and the cosine series' ratios 1/((2j+1)(2j+2)) for j = 0..7, bit patterns.
//! Term 0 is the value rounded to nearest, term 1 the rest rounded to nearest, so
//! each pair's relative error is at most u²(1 + u). Generated with mpmath at 600 bits
//! (`sin(mpf(j)/256)`, `cos(mpf(j)/256)`, `mpf(1)/((2j+1)(2j+2))`, then rounding at 53 or
//! 24 bits); the test `functions_trig::sin_table_against_mpfr` checks every entry against
//! MPFR. Rows reach j = 201 = ⌊256·R_MAX⌋ (R_MAX = 0.785399 bounds the reduced argument).

use super::{cat, ops, series_dd_bound, series_p_dd, series_step, trunc_target};
use crate::eft::{fast_two_sum, two_sum};
use crate::expansion::Expansion;
use crate::float::FloatTerm;
use crate::functions::constants::inv_fact;
use crate::functions::constants::term_from_bits;
use crate::functions::fast2;

type E<T, const N: usize> = Expansion<T, N>;

/// True when sin, cos and tan take the table reduction: N = 2, both term types.
#[inline(always)]
pub(crate) fn sin_table_path(n: usize) -> bool {
    n == 2
}

/// Bound s_b on |s|, s = |r| − j/K: 0 ≤ |r₀| − j/K < 1/K and |r₁| ≤ u·|r₀| ≤ 2^−24, covered
/// by 1.001/K.
pub(crate) fn sin_tab_s_bound() -> f64 {
    1.001 / SIN_TAB_K as f64
}

/// Relative truncation of J Horner steps of sin a / a (`cos` false: a^{2J+2}/(2J+3)! over
/// 1 − a²/6) or of cos a (`cos` true: a^{2J+2}/(2J+2)! over 1 − a²/2), alternating series
/// with decreasing terms (a < 1); times 1.01 for the f64 evaluation.
fn series_trunc(a: f64, j_steps: usize, cos: bool) -> f64 {
    let a2 = a * a;
    let first = if cos { 2.0 } else { 3.0 };
    let mut t = 1.0 / (1.0 - a2 / (first * (first - 1.0)));
    let mut k = if cos { 0.0 } else { 1.0 };
    for _ in 0..=j_steps {
        t *= a2 / ((k + 1.0) * (k + 2.0));
        k += 2.0;
    }
    t * 1.01
}

/// The plan of the table path for p-bit terms: (J_sin, J_cos, H), the Horner steps of the
/// sine and cosine series (fixed, so that the loops unroll: the fewest with the truncation
/// at s_b below τ = 2^{−(2p+4)}, which [`sin_cos_table_parts`] recomputes and adds to the
/// bound) and the *half step* H (steps j < H at two terms, j = H with an IEEE product and an
/// exact subtraction, j > H at one term): f64 (5, 5, 2), f32 (2, 2, 1).
#[inline(always)]
pub(crate) fn sin_tab_plan(p: u32) -> (usize, usize, usize) {
    if p == 53 {
        (5, 5, 2)
    } else {
        (2, 2, 1)
    }
}

/// Row j of the sine/cosine table: (sin(j/K), cos(j/K)), the first two terms.
#[inline(always)]
pub(crate) fn sin_tab<T: FloatTerm, const N: usize>(j: usize) -> (E<T, N>, E<T, N>) {
    let row = |k: usize| {
        let mut v = [T::ZERO; N];
        v[0] = term_from_bits(SIN_TAB_F64[j][k], SIN_TAB_F32[j][k]);
        v[1] = term_from_bits(SIN_TAB_F64[j][k + 1], SIN_TAB_F32[j][k + 1]);
        E::from_normalized(v)
    };
    (row(0), row(2))
}

/// 1/((2j+1)(2j+2)), the first two terms.
#[inline(always)]
pub(crate) fn cos_coef<T: FloatTerm, const N: usize>(j: usize) -> E<T, N> {
    let mut v = [T::ZERO; N];
    v[0] = term_from_bits(COS_DEN_INV_F64[j][0], COS_DEN_INV_F32[j][0]);
    v[1] = term_from_bits(COS_DEN_INV_F64[j][1], COS_DEN_INV_F32[j][1]);
    E::from_normalized(v)
}

/// 1/((2j+2)(2j+3)), the first two terms.
#[inline(always)]
pub(crate) fn sin_coef<T: FloatTerm, const N: usize>(j: usize) -> E<T, N> {
    crate::functions::constants::series_coef::<T, N>(
        crate::functions::constants::Series::SinDenInv,
        j,
    )
}

/// Horner evaluation t_J = 1, t_j = 1 − z·t_{j+1}·c_j (j = J − 1, …, 0) with the step kinds
/// of the plan (`trig.rs`, "Table reduction at N = 2"); `cos`: step 0 multiplies by c₀ = ½
/// exactly (ldexp) instead of by the table value.
#[inline(always)]
fn tab_series<T: FloatTerm, const N: usize>(
    z: &E<T, N>,
    coef: fn(usize) -> E<T, N>,
    j_max: usize,
    half: usize,
    cos: bool,
) -> E<T, N> {
    let mut t = E::<T, N>::one();
    for i in (0..j_max).rev() {
        if i > half {
            t = series_step(z, &t, &coef(i), true);
        } else if i == half {
            // Half step: p = RN(RN(z₀·t₀)·c₀) (t one term here), then 1 − p exactly.
            let p = (z.hi() * t.hi()) * coef(i).hi();
            let (h, l) = fast_two_sum(T::ONE, -p);
            let mut v = [T::ZERO; N];
            v[0] = h;
            v[1] = l;
            t = E::from_normalized(v);
        } else if cos && i == 0 {
            t = fast2::one_minus(&fast2::mul(z, &t).ldexp(-1));
        } else {
            t = series_step(z, &t, &coef(i), false);
        }
    }
    t
}

/// Whether the table path's series are the fixed ones of [`sin_series_dd`] and
/// [`cos_series_dd`] (`trig.rs`, "Series at f64 N = 2"): f64 terms.
#[inline(always)]
pub(crate) fn sin_dd_series_path(p: u32) -> bool {
    p == 53
}

/// From this row on (f64) the table combination of sin ρ adds C_j·sin s to S_j·cos s by
/// `fast2::add_small`: their ratio is at most tan(s_b)/tan(c_j) ≤ 0.0154 ≤ 2^−6/1.01 there.
pub(crate) const SIN_SMALL_FROM: usize = 64;

/// κ of the table combination's `add_small` at f64 (1.01 covers the products' errors): sin
/// (rows from [`SIN_SMALL_FROM`]) tan(s_b)/tan(SIN_SMALL_FROM/K), cos tan(s_b)·tan(201/K).
fn combination_kappa() -> (f64, f64) {
    let sb = sin_tab_s_bound();
    let k = SIN_TAB_K as f64;
    (
        1.01 * sb.tan() / (SIN_SMALL_FROM as f64 / k).tan(),
        1.01 * sb.tan() * ((SIN_TAB_ROWS - 1) as f64 / k).tan(),
    )
}

/// (c₁, c₂, c₃) of the sine's fixed series: 1/7!, 1/9!, 1/11!.
pub(crate) const SIN_DD_TAIL: [f64; 3] = [1.0 / 5040.0, 1.0 / 362880.0, 1.0 / 39916800.0];
/// (c₁, c₂, c₃) of the cosine's fixed series: 1/6!, 1/8!, 1/10!.
pub(crate) const COS_DD_TAIL: [f64; 3] = [1.0 / 720.0, 1.0 / 40320.0, 1.0 / 3628800.0];

/// sin s at f64 N = 2 for |s| ≤ s_b, z = ŝ² (`trig.rs`, "Series at f64 N = 2"):
/// s − (s·z)·(1/6 − z·(1/120 − Q)).
#[inline(always)]
pub(crate) fn sin_series_dd<T: FloatTerm, const N: usize>(s: &E<T, N>, z: &E<T, N>) -> E<T, N> {
    let p = series_p_dd(z, &inv_fact::<T, N>(3), &inv_fact::<T, N>(5), SIN_DD_TAIL);
    fast2::sub_small(s, &fast2::mul(&fast2::mul(s, z), &p))
}

/// cos s at f64 N = 2 for |s| ≤ s_b, z = ŝ²: 1 − z·(½ − z·(1/24 − Q)).
#[inline(always)]
pub(crate) fn cos_series_dd<T: FloatTerm, const N: usize>(z: &E<T, N>) -> E<T, N> {
    let half = E::<T, N>::from_term(T::from_f64(0.5));
    let p = series_p_dd(z, &half, &inv_fact::<T, N>(4), COS_DD_TAIL);
    fast2::sub_small(&E::<T, N>::one(), &fast2::mul(z, &p))
}

/// The split of the table path: (negative, j, s) with s = |r| − j/K exactly (`trig.rs`, "Table
/// reduction at N = 2"); s is `None` where it is zero (|r| = j/K: the table pair is the
/// result).
#[inline(always)]
pub(crate) fn table_split<T: FloatTerm, const N: usize>(
    r: &E<T, N>,
) -> (bool, usize, Option<E<T, N>>) {
    let negative = r.hi() < T::ZERO;
    let ra = if negative { r.neg() } else { *r };
    let r0 = ra.hi();
    let k = SIN_TAB_K as f64;
    // c_j = j/K ≤ |r₀| < c_{j+1} (|r₀|·K exact).
    let j = ((r0.to_f64() * k).floor() as usize).min(SIN_TAB_ROWS - 1);
    if j == 0 {
        return (negative, 0, Some(ra));
    }
    let c = T::from_f64(j as f64 / k);
    // r₀ − c is exact (Sterbenz: c ≤ r₀ < 2c), the 2Sum with r₁ too: s = |r| − c exactly.
    let (s0, s1) = two_sum(r0 - c, ra.terms()[1]);
    if s0 == T::ZERO {
        return (negative, j, None);
    }
    let mut v = [T::ZERO; N];
    v[0] = s0;
    v[1] = s1;
    (negative, j, Some(E::from_normalized(v)))
}

/// (sin r, cos r) for |r| ≤ R_MAX at N = 2 (`trig.rs`, "Table reduction at N = 2"); where
/// `want_sin` (`want_cos`) is false the first (second) value is not computed (zero) unless it
/// comes for free.
#[inline(always)]
pub(crate) fn sin_cos_table<T: FloatTerm, const N: usize>(
    r: &E<T, N>,
    want_sin: bool,
    want_cos: bool,
) -> (E<T, N>, E<T, N>) {
    let (negative, j, s) = table_split(r);
    let sign = |v: E<T, N>| if negative { v.neg() } else { v };
    let Some(s) = s else {
        let (sj, cj) = sin_tab::<T, N>(j);
        return (sign(sj), cj);
    };
    let (js, jc, half) = sin_tab_plan(T::PRECISION);
    let z = fast2::sqr(&s);
    let zero = E::<T, N>::zero();
    let dd = sin_dd_series_path(T::PRECISION);
    let ss = if !(j != 0 || want_sin) {
        zero
    } else if dd {
        sin_series_dd(&s, &z)
    } else {
        fast2::mul(&s, &tab_series(&z, sin_coef::<T, N>, js, half, false))
    };
    let cs = if !(j != 0 || want_cos) {
        zero
    } else if dd {
        cos_series_dd(&z)
    } else {
        tab_series(&z, cos_coef::<T, N>, jc, half, true)
    };
    if j == 0 {
        return (sign(ss), cs);
    }
    let (sj, cj) = sin_tab::<T, N>(j);
    // f64: where the second product is at most 2^−6 of the first (cos: always; sin: from
    // j = SIN_SMALL_FROM), the sum is `fast2::add_small` (module doc of `trig.rs`, "Series at
    // f64 N = 2").
    let sr = if !want_sin {
        zero
    } else if dd && j >= SIN_SMALL_FROM {
        fast2::add_small(&fast2::mul(&sj, &cs), &fast2::mul(&cj, &ss))
    } else {
        fast2::add(&fast2::mul(&sj, &cs), &fast2::mul(&cj, &ss))
    };
    let cr = if !want_cos {
        zero
    } else if dd {
        fast2::sub_small(&fast2::mul(&cj, &cs), &fast2::mul(&sj, &ss))
    } else {
        fast2::sub(&fast2::mul(&cj, &cs), &fast2::mul(&sj, &ss))
    };
    (sign(sr), cr)
}

/// sin x, cos x or tan x from the quadrant k of x = kπ/2 + r (`trig.rs`, step 7) at N = 2:
/// sin r and cos r from [`sin_cos_table`], only those the quadrant needs.
#[inline(always)]
pub(crate) fn quadrant_table<T: FloatTerm, const N: usize>(
    f: super::Unary,
    k: u32,
    r: &E<T, N>,
) -> E<T, N> {
    use super::Unary;
    let (want_sin, want_cos) = match (f, k & 1) {
        (Unary::Sin, 0) | (Unary::Cos, 1) => (true, false),
        (Unary::Sin, _) | (Unary::Cos, _) => (false, true),
        _ => (true, true),
    };
    let (s, c) = sin_cos_table(r, want_sin, want_cos);
    quadrant_pair(f, k, &s, &c)
}

/// sin x, cos x or tan x from the quadrant k and (sin r, cos r).
#[inline(always)]
pub(crate) fn quadrant_pair<T: FloatTerm, const N: usize>(
    f: super::Unary,
    k: u32,
    s: &E<T, N>,
    c: &E<T, N>,
) -> E<T, N> {
    use super::Unary;
    match (f, k) {
        (Unary::Sin, 0) | (Unary::Cos, 3) => *s,
        (Unary::Sin, 1) | (Unary::Cos, 0) => *c,
        (Unary::Sin, 2) | (Unary::Cos, 1) => s.neg(),
        (Unary::Sin, _) | (Unary::Cos, _) => c.neg(),
        (_, 0) | (_, 2) => fast2::div(s, c),
        _ => fast2::div(c, s).neg(),
    }
}

/// Upper bound of m = sin(c_j)cos(s)/sin ρ where s < 0 (j ≥ 1: then r₀ = c_j and
/// |s| = |r₁| ≤ u·c_j, so m − 1 ≤ u·c_j/sin(c_j(1 − u)) ≤ 1.12u).
const M_SIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;
/// Upper bound of m = cos(c_j)cos(s)/cos ρ where s > 0: cos(j/K)/cos(min(j/K + s_b, π/4·(1 +
/// 2^−20))) ≤ 1.00391 (mpmath, j = 0..=201).
const M_COS: f64 = 1.0041;

/// (σ_sin, σ_cos): relative errors of the computed sin r and cos r of [`sin_cos_table`] for
/// the computed r (`trig.rs`, "Table reduction at N = 2").
pub(crate) fn sin_cos_table_parts<T: FloatTerm>(n: usize) -> (f64, f64) {
    let o = ops::<T>(n);
    let p = T::PRECISION;
    let u = T::UNIT_ROUNDOFF;
    let sb = sin_tab_s_bound();
    let (js, jc, half) = sin_tab_plan(p);
    let full = cat(cat(o.mul, o.mul), cat(o.mul, o.coef));
    // One-term and half steps: z = s²(1 + δ_mul) cut to its leading term (u/(1 − u)), two
    // IEEE products (u each), the coefficient's leading term (u(1 + u)).
    let step1 = cat(cat(cat(u / (1.0 - u), cat(u, u)), u * (1.0 + u)), o.mul);
    let eta = |j_max: usize, den: &dyn Fn(usize) -> f64| {
        let mut eta = 0.0f64;
        for j in (0..j_max).rev() {
            let (e_j, add_j) = if j > half {
                (step1, u)
            } else if j == half {
                (step1, 0.0)
            } else {
                (full, o.add)
            };
            let q = sb * sb / den(j);
            let e = cat(eta, e_j);
            eta = cat(q * e / (1.0 - q), add_j);
        }
        eta
    };
    // Truncation: the plan's J meets τ; the bound carries the larger of τ and the actual one.
    let tau = trunc_target(p, n);
    let tr_s = tau.max(series_trunc(sb, js, false));
    let tr_c = tau.max(series_trunc(sb, jc, true));
    let (sig_s, sig_c) = if sin_dd_series_path(p) {
        // f64: the fixed series (`trig.rs`, "Series at f64 N = 2"); Z ≤ s_b².
        let z = sb * sb;
        (
            series_dd_bound(
                z,
                (1.0 / 6.0, 1.0 / 120.0, SIN_DD_TAIL[0]),
                false,
                true,
                1.0 / 6227020800.0,
            ),
            series_dd_bound(
                z,
                (0.5, 1.0 / 24.0, COS_DD_TAIL[0]),
                true,
                false,
                1.0 / 479001600.0,
            ),
        )
    } else {
        (
            cat(
                cat(eta(js, &|j| ((2 * j + 2) * (2 * j + 3)) as f64), o.mul),
                tr_s,
            ),
            cat(eta(jc, &|j| ((2 * j + 1) * (2 * j + 2)) as f64), tr_c),
        )
    };
    // Products with the table pairs (α = u²(1 + u) = δ_c each).
    let a = cat(cat(o.coef, sig_c), o.mul);
    let b = cat(cat(o.coef, sig_s), o.mul);
    // The final sum: the accurate add, or at f64 `add_small` where its ratio allows.
    let (add_s, add_c) = if sin_dd_series_path(p) {
        let (ks, kc) = combination_kappa();
        (
            o.add.max(fast2::add_small_rel_bound::<T>(ks)),
            fast2::add_small_rel_bound::<T>(kc),
        )
    } else {
        (o.add, o.add)
    };
    let sin_r = sig_s.max(cat(a.max(b).max(M_SIN * a + (M_SIN - 1.0) * b), add_s));
    let cos_r = sig_c.max(cat(a.max(b).max(M_COS * a + (M_COS - 1.0) * b), add_c));
    (sin_r, cos_r)
}

/// c_j = j/K.
pub(crate) const SIN_TAB_K: usize = 256;

/// Rows of [`SIN_TAB_F64`]: j = 0..=201.
pub(crate) const SIN_TAB_ROWS: usize = 202;

/// Rows of [`COS_DEN_INV_F64`].
pub(crate) const COS_DEN_ROWS: usize = 8;

/// f64 terms of (sin(j/256), cos(j/256)): [sin₀, sin₁, cos₀, cos₁].
#[rustfmt::skip]
pub(crate) const SIN_TAB_F64: [[u64; 4]; SIN_TAB_ROWS] = [
    [0x0000000000000000, 0x0000000000000000, 0x3ff0000000000000, 0x0000000000000000],
    [0x3f6ffffaaaaaeeef, 0xbbe2b12b0ce9b237, 0x3feffff000015555, 0x3c827d27df7df7bb],
    [0x3f7fffeaaaaeeeef, 0xbc1e45e2ec67b77c, 0x3fefffc000155552, 0x3c8f4a01a0196dae],
    [0x3f87ffdc00103330, 0xbc215efa2be503db, 0x3fefff70006bffe0, 0xbc89984c57e6cfb8],
    [0x3f8fffaaaaeeeed5, 0xbc02ab639a9f0776, 0x3fefff000155549f, 0x3c828a28a03a5ef3],
    [0x3f93ffacab12d517, 0x3c3519b3218acccf, 0x3feffe700341529f, 0xbc6b3bc25e3e4cb3],
    [0x3f97ff7001033255, 0x3bfefe2b51527336, 0x3feffdc006bff7e6, 0x3c8ae6dae86977bd],
    [0x3f9bff1b57858e83, 0x3c3df20c232a4f03, 0x3feffcf00c8140e9, 0xbc8c3e3e857e2d30],
    [0x3f9ffeaaaeeee86f, 0xbc3cd406fb224ae2, 0x3feffc00155527d3, 0xbc83b54492d89b5b],
    [0x3fa1ff0d03d81efc, 0x3c4b74e4aa1f4c7f, 0x3feffaf0222ba3bd, 0xbc6426013ff0feb7],
    [0x3fa3feb2b12d45d5, 0x3c34ec54203d1c11, 0x3feff9c03414a7ba, 0x3c6991f4be6c59bf],
    [0x3fa5fe445fd1660f, 0x3c4d7a6e37a23793, 0x3feff8704c4021c8, 0xbc6d80c59264b631],
    [0x3fa7fdc01032fba9, 0xbc4599bdf46e997a, 0x3feff7006bfdf99f, 0xbc78b3b560648d5f],
    [0x3fa9fd23c2d680df, 0xbc370b1a2ba5f590, 0x3feff57094be0f62, 0x3c8780a6d6b9aac9],
    [0x3fabfc6d78586dac, 0x3c18e4fd03dbf236, 0x3feff3c0c8103a31, 0x3c74856dbddc0e66],
    [0x3fadfb9b316f372a, 0xbc2b3adb2cd8fe77, 0x3feff1f107a44695, 0x3c52552d1d5613d6],
    [0x3faffaaaeeed4edb, 0xbc42d16d32684b69, 0x3feff0015549f4d3, 0x3c8328387b99426f],
    [0x3fb0fccd58e190ec, 0xbc5ef54e5b79b73c, 0x3fefedf1b2f0f71d, 0xbc5358030423989e],
    [0x3fb1fc343d808bef, 0xbc5f3d32e6f3be4f, 0x3fefebc222a8ef9f, 0x3c57934934f54c77],
    [0x3fb2fb8925ecc920, 0xbc31aceeb6944bb7, 0x3fefe972a6a16e73, 0xbc59b4127ab3d548],
    [0x3fb3facb12d1755b, 0xbc5921915299468b, 0x3fefe7034129ef6f, 0xbc6cbf4337c96f97],
    [0x3fb4f9f904ecb8ff, 0x3c56fdd8bf8cda76, 0x3fefe473f4b1d7d6, 0x3c8a001dd2227ed4],
    [0x3fb5f911fd10b737, 0xbc50184f02be9102, 0x3fefe1c4c3c873eb, 0xbc35a9c9057c4a02],
    [0x3fb6f814fc248d1f, 0xbc41e7a14e279b6a, 0x3fefdef5b11cf45d, 0xbc7e833a08634830],
    [0x3fb7f701032550e4, 0x3c3afc2d1800501a, 0x3fefdc06bf7e6b9b, 0x3c831902b535f8db],
    [0x3fb8f5d5132710c4, 0x3c2ae29046de7c88, 0x3fefd8f7f1dbcb07, 0xbc8c752ecfaa985b],
    [0x3fb9f4902d55d1f9, 0x3c52696d7eac1dc1, 0x3fefd5c94b43e000, 0xbc62e768cb4f92f9],
    [0x3fbaf33152f68f8f, 0x3c53f7698bdd23f1, 0x3fefd27acee550db, 0x3c8c3f64be936b41],
    [0x3fbbf1b78568391d, 0x3c5e91841dea4cc8, 0x3fefcf0c800e99b1, 0x3c6ea3d786d186ac],
    [0x3fbcf021c624b168, 0xbc1f6aedf73fb13f, 0x3fefcb7e622e090e, 0x3c8efee620ded043],
    [0x3fbdee6f16c1cce6, 0xbc450f8e2fb71673, 0x3fefc7d078d1bc88, 0x3c8075d2447db685],
    [0x3fbeec9e78f2502b, 0x3c33535175887f66, 0x3fefc402c7a79d2c, 0x3c7f515d61e3b7d1],
    [0x3fbfeaaeee86ee36, 0xbc4afcb2bcc6f03b, 0x3fefc015527d5bd3, 0x3c8b68f35094efb8],
    [0x3fc0744fbcb7a34f, 0xbc635f080b446e47, 0x3fefbc081d406d54, 0x3c819ca5c619c114],
    [0x3fc0f3378ddd71d1, 0x3c6d8468724f0f9e, 0x3fefb7db2bfe0695, 0x3c821dadf4f65ab1],
    [0x3fc1720e6bcd1c11, 0xbc6370a768c28cc9, 0x3fefb38e82e31880, 0xbc7cd45c28dde5cf],
    [0x3fc1f0d3d7afceaf, 0xbc66ef95099769a5, 0x3fefaf22263c4bd3, 0xbc552ace133a2769],
    [0x3fc26f8752c02859, 0x3c399d3f99560e16, 0x3fefaa961a75fcd7, 0x3c8154aedc530b90],
    [0x3fc2ee285e4ab88f, 0xbc6e4d0f05dee058, 0x3fefa5ea641c36f2, 0x3c404da6ed17cc7c],
    [0x3fc36cb67bae7e52, 0xbc42b58c9385fe0d, 0x3fefa11f07dab019, 0x3c84c36f0cfac1a2],
    [0x3fc3eb312c5d66cb, 0x3c647d666b66cb91, 0x3fef9c340a7cc428, 0x3c8c5b6b063b7462],
    [0x3fc46997f1dccbd6, 0x3c25772779edaa4c, 0x3fef972970ed7014, 0x3c882d46ff943b09],
    [0x3fc4e7ea4dc5f27b, 0x3c5949db2ac072fc, 0x3fef91ff40374d01, 0xbc67d03f4d3a9e4c],
    [0x3fc56627c1c68959, 0xbc6c1a626f9f35f9, 0x3fef8cb57d848b36, 0xbc3e28ca6524cc98],
    [0x3fc5e44fcfa126f3, 0xbc66f443063f89b6, 0x3fef874c2e1eecf6, 0xbc8c6514e1332b16],
    [0x3fc66261f92dc7f2, 0x3c54732388b03388, 0x3fef81c3576fc132, 0xbc7a210f729d0428],
    [0x3fc6e05dc05a4d4c, 0xbbd32c5c8b81c919, 0x3fef7c1afeffde24, 0xbc78f55bc47540b1],
    [0x3fc75e42a72afa53, 0x3c625101dbbe3de1, 0x3fef76532a779bc3, 0xbc7cc2b661f73e17],
    [0x3fc7dc102fbaf2b5, 0x3c45ab50e23c97c3, 0x3fef706bdf9ece1c, 0xbc8698c80c36dcb4],
    [0x3fc859c5dc3cb85d, 0x3c5bdacb1bb1532a, 0x3fef6a65245cbf89, 0x3c821006d1ee0324],
    [0x3fc8d7632efaa944, 0xbc620fa262cbb953, 0x3fef643efeb82acd, 0x3c76b00ac1fe28ac],
    [0x3fc954e7aa577d22, 0x3c6add11e2b03481, 0x3fef5df974d73509, 0xbc81041b91c41e29],
    [0x3fc9d252d0cec312, 0x3c59c43d80b1137d, 0x3fef57948cff6797, 0x3c6e3a0d3e03b1d4],
    [0x3fca4fa424f55f0f, 0x3c688fc2611aa255, 0x3fef51104d95a9c8, 0xbc81bc67d4243730],
    [0x3fcaccdb297a0765, 0xbc59883b57d6cdea, 0x3fef4a6cbd1e3a79, 0x3c813df0edaebb57],
    [0x3fcb49f76125c1fd, 0x3c3697d0c986b191, 0x3fef43a9e23ca996, 0xbc8c057991f742e7],
    [0x3fcbc6f84edc6199, 0x3c69c1a56a7b0cab, 0x3fef3cc7c3b3d16e, 0xbc621a3ad28a3494],
    [0x3fcc43dd759d02ee, 0xbc05bcc2e3046626, 0x3fef35c66865cff8, 0x3c87cda41f3feef8],
    [0x3fccc0a6588289a3, 0xbc6868d09bc87c6b, 0x3fef2ea5d753ffed, 0x3c8cc4215f56d583],
    [0x3fcd3d527ac41d38, 0xbc56fa59a447a134, 0x3fef2766179ef1c7, 0xbc62932f8987bcb6],
    [0x3fcdb9e15fb5a5d0, 0xbc632e20d6cc6fc2, 0x3fef20073086649f, 0x3c7b940416c1984b],
    [0x3fce36528ac848da, 0xbc3240b73f3963fe, 0x3fef188929693ef2, 0xbc881f656ea94ccf],
    [0x3fceb2a57f8ae5a3, 0xbc60be06af572ceb, 0x3fef10ec09c5873b, 0x3c8d9072762c1283],
    [0x3fcf2ed9c1aa91c4, 0xbc66142de810c2b7, 0x3fef092fd9385c7e, 0x3c4750563a9bed86],
    [0x3fcfaaeed4f31577, 0xbc615d88508e32b8, 0x3fef01549f7deea1, 0x3c8d3c1e99e5cafd],
    [0x3fd013721ea7b3e5, 0x3c710fa1d5106315, 0x3feef95a647176b9, 0xbc8a2aefc066f251],
    [0x3fd0515cbf65155c, 0xbc79b8c29dfd8ec7, 0x3feef141300d2f26, 0xbc82aa1b08ded372],
    [0x3fd08f370ec7138a, 0xbc6183d7d425e7ec, 0x3feee9090a6a4ba0, 0x3c848d59a9171632],
    [0x3fd0cd00cef36436, 0xbc79fb0a0c93e2b4, 0x3feee0b1fbc0f11c, 0xbc4bfd2380bbc3b1],
    [0x3fd10ab9c2204c59, 0xbc7843c6295a07bf, 0x3feed83c0c682d90, 0x3c68605a9115beae],
    [0x3fd14861aa94ddeb, 0xbc6be881b5b615a4, 0x3feecfa744d5efa1, 0xbc556d0a4af541d0],
    [0x3fd185f84aa9359b, 0xbc65486ede74dbb2, 0x3feec6f3ad9efe2a, 0xbc80bc0bfbb6aeaa],
    [0x3fd1c37d64c6b876, 0x3c746076fe0dcff4, 0x3feebe214f76efa8, 0xbc802f9f12ba543e],
    [0x3fd200f0bb685180, 0x3c631bdc968ef588, 0x3feeb53033302187, 0xbc740e3e817e1641],
    [0x3fd23e52111aaf36, 0xbc74f080334eff18, 0x3feeac2061bbaf4f, 0x3c62c1d53e94658d],
    [0x3fd27ba1287c8102, 0xbc40fb418a5581b0, 0x3feea2f1e42969b4, 0xbc8bd66b6627d017],
    [0x3fd2b8ddc43eb49f, 0x3c61553899f2d807, 0x3fee99a4c3a7cd83, 0xbc82264b1bc53ce8],
    [0x3fd2f607a724b365, 0x3c770f6b47bd3fc4, 0x3fee90390983fa78, 0xbc828954c7f8dd8f],
    [0x3fd3331e94049f87, 0x3c7e0cb6b40c302c, 0x3fee86aebf29a9ed, 0x3c89397afdbb58a7],
    [0x3fd370224dc7913d, 0xbc6badca2c0c47d0, 0x3fee7d05ee232573, 0xbc8c4621b65d22fb],
    [0x3fd3ad129769d3d8, 0x3c003d550487839a, 0x3fee733ea0193d40, 0xbc86428b3546ce13],
    [0x3fd3e9ef33fb22cb, 0xbc5cd85ab33f11b4, 0x3fee6958ded33e8e, 0xbc4a2d4a62b00c99],
    [0x3fd426b7e69ee697, 0xbc7f09c75705c59f, 0x3fee5f54b436e9d0, 0x3c87eb0fd02fc8bc],
    [0x3fd4636c728c71a8, 0xbc63e9c8df9261a7, 0x3fee55322a4868ce, 0xbc8ff59bf4b08084],
    [0x3fd4a00c9b0f3d20, 0x3c7823ba6bb08ead, 0x3fee4af14b2a449c, 0xbc868ca02e8a6833],
    [0x3fd4dc982387258b, 0xbc757b6fc37e14d8, 0x3fee4092211d5b7e, 0x3c7bc7573acc79e9],
    [0x3fd5190ecf68a77a, 0x3c7b357155eef0f3, 0x3fee3614b680d6a5, 0xbc727793aa015237],
    [0x3fd55570623d1c18, 0x3c44cdaa70975dbe, 0x3fee2b7915d21fcc, 0x3c83149be81a8fd3],
    [0x3fd591bc9fa2f597, 0x3c67c74bac3fe0cb, 0x3fee20bf49acd6c1, 0xbc5660aec7ef636b],
    [0x3fd5cdf34b4dfb98, 0x3c77458b493a1d20, 0x3fee15e75ccac6c3, 0x3c83261811c2a8d6],
    [0x3fd60a1429078775, 0x3c5b1fd80ba89133, 0x3fee0af15a03dbce, 0x3c5fe8e702771ae6],
    [0x3fd6461efcaec077, 0xbc794dc7178bd734, 0x3fedffdd4c4e17be, 0x3c851415af290396],
    [0x3fd682138a38d7f7, 0xbc7d889202444aad, 0x3fedf4ab3ebd875e, 0xbc8e2d8a7e6736c4],
    [0x3fd6bdf195b1456a, 0xbc61c05d4d4179b8, 0x3fede95b3c84374d, 0x3c88b4bf71c7de42],
    [0x3fd6f9b8e33a0255, 0x3c742bc14ee9da0d, 0x3feddded50f228d6, 0xbc6e80c8d42ba2bf],
    [0x3fd73569370bc62b, 0x3c7bf3442bdd527e, 0x3fedd26187754695, 0x3c7f16517d83bbca],
    [0x3fd7710255764214, 0xbc66ead7314bb6ce, 0x3fedc6b7eb995912, 0x3c54b364776dcd35],
    [0x3fd7ac8402e05c9b, 0x3c7a39e39ea9f25c, 0x3fedbaf08907fb2f, 0x3c89a5395924f2ff],
    [0x3fd7e7ee03c86d4e, 0xbc7b63bcdabf5af2, 0x3fedaf0b6b888e83, 0x3c8a249e2b5e5cea],
    [0x3fd823401cc47836, 0xbc708091b8d964c7, 0x3feda3089f002f90, 0xbc815b9a62d60141],
    [0x3fd85e7a12826949, 0x3c78a40e9b5face0, 0x3fed96e82f71a9dc, 0x3c8ff61bd5d2039d],
    [0x3fd8999ba9c84fba, 0x3c4c1fef1753c7bf, 0x3fed8aaa28fd6bf6, 0xbc8d74eb5f28a765],
    [0x3fd8d4a4a774992f, 0x3c744a02ea766326, 0x3fed7e4e97e17b4a, 0xbc63b770352bed94],
    [0x3fd90f94d07e4ce8, 0x3c732c8fb2f2ea25, 0x3fed71d5887967ee, 0xbc5516e003d9dd64],
    [0x3fd94a6be9f546c5, 0xbc769ce13e683f58, 0x3fed653f073e4040, 0xbc876236434bec37],
    [0x3fd98529b9027235, 0xbc770c0c231d4808, 0x3fed588b20c6846e, 0xbc8bef54b0f32a77],
    [0x3fd9bfce02e80510, 0x3c709e39a320b0a4, 0x3fed4bb9e1c619e0, 0x3c8f34bb77858f61],
    [0x3fd9fa588d01ba55, 0xbc46aa35ae5de16a, 0x3fed3ecb570e3e87, 0x3c88b4d9843b2bf5],
    [0x3fda34c91cc50cca, 0xbc5a310e3b50cecd, 0x3fed31bf8d8d7c06, 0x3c7e60dd3089cbdd],
    [0x3fda6f1f77c1718a, 0x3c7e7b0a3486494f, 0x3fed2496924f9ac7, 0x3c8f17673d6927ff],
    [0x3fdaa95b63a09277, 0xbc66293eb13c0381, 0x3fed1750727d94f0, 0x3c80d52b1ec1a48e],
    [0x3fdae37ca626888a, 0x3c62d294cf918262, 0x3fed09ed3b5d8937, 0x3c8a8d847bc2c5bb],
    [0x3fdb1d8305321617, 0xbc7ae242cb99f519, 0x3fecfc6cfa52ad9f, 0x3c88b5b5508f2a0d],
    [0x3fdb576e46bce0e6, 0x3c7beb8a2f9cde89, 0x3feceecfbcdd4213, 0x3c3b682a76d7e904],
    [0x3fdb913e30dbac43, 0xbc7e38ad2f6c3ff1, 0x3fece115909a82e5, 0x3c81f139bb31109a],
    [0x3fdbcaf289be92dd, 0x3c78b06e5fb8daac, 0x3fecd33e83449b34, 0x3c661068cd16da9f],
    [0x3fdc048b17b140a3, 0x3c619fe6757e9fa7, 0x3fecc54aa2b2972e, 0x3c64ee162ba83a98],
    [0x3fdc3e07a11b2c6e, 0xbc676c26153de447, 0x3fecb739fcd8563c, 0xbc87e793b55ea6a2],
    [0x3fdc7767ec7fd19e, 0xbc5eb14d1a3d5826, 0x3feca90c9fc67d0b, 0xbc646a81485e3462],
    [0x3fdcb0abc07ee997, 0xbc72d6ebfce7c050, 0x3fec9ac299aa677f, 0x3c87560844703578],
    [0x3fdce9d2e3d4a51f, 0xbc62fc8a12dae298, 0x3fec8c5bf8ce1a84, 0x3c7ab3d1a1590123],
    [0x3fdd22dd1d59e5a4, 0xbc63a439e78d5440, 0x3fec7dd8cb9835c3, 0xbc8dd23c3aa785f7],
    [0x3fdd5bca34047661, 0x3c728a44a75fc29c, 0x3fec6f39208be53b, 0xbc8741dbfbaadb42],
    [0x3fdd9499eee7456b, 0x3c440792a7dee83d, 0x3fec607d0648d2c1, 0xbc72169fa0e8ce47],
    [0x3fddcd4c15329c9a, 0x3c70d4c6e171fd9a, 0x3fec51a48b8b175e, 0xbc61bbb43b9aa880],
    [0x3fde05e06e345a5d, 0x3c60f838535e3a93, 0x3fec42afbf2b2c93, 0xbc6f2a77b07f14e6],
    [0x3fde3e56c1582a69, 0xbc50a4821099f88f, 0x3fec339eb01ddd81, 0xbc8caaf5ee82c5c0],
    [0x3fde76aed627be4e, 0x3c78937d7fe3f57f, 0x3fec24716d7437f3, 0xbc74874850e5d927],
    [0x3fdeaee8744b05f0, 0xbc5789b43c9b027d, 0x3fec1528065b7d50, 0xbc8892111312e828],
    [0x3fdee703638867da, 0xbc73872f1aaf5cbd, 0x3fec05c28a1d1369, 0x3c8f9a1ac93aee95],
    [0x3fdf1eff6bc4f97b, 0x3c717212f8a7525c, 0x3febf641081e7536, 0x3c8b7bd71628a9a1],
    [0x3fdf56dc5504b742, 0x3c7a18434fc65e81, 0x3febe6a38fe1236a, 0x3c7fdab7587b02ac],
    [0x3fdf8e99e76abc97, 0x3c59d950af2d00a3, 0x3febd6ea310294f5, 0x3c731bbcc88c109d],
    [0x3fdfc637eb397bb8, 0x3c7d8f507b2ea243, 0x3febc714fb3c2766, 0x3c7eb19c8a06c310],
    [0x3fdffdb628d2f57a, 0x3c6f4a992e905b6a, 0x3febb723fe630f32, 0x3c772bd2452d0a39],
    [0x3fe01a8a345c7871, 0x3c8a6deb08435ee0, 0x3feba7174a6847de, 0xbc3defb28953f677],
    [0x3fe0362939c69955, 0xbc82d8cd78397b01, 0x3feb96eeef58840e, 0x3c545a3cc78fade0],
    [0x3fe051b80908da4a, 0x3c6f7686b96f8f0e, 0x3feb86aafd5c1d79, 0x3c8a6cc07549db15],
    [0x3fe06d3686946e5b, 0x3c83f5ae4538ff1b, 0x3feb764b84b704c2, 0xbc8f5848c21b389b],
    [0x3fe088a496eada47, 0x3c7e07780127666d, 0x3feb65d095c8b12e, 0x3c71d33cb4db26bd],
    [0x3fe0a4021e9e1001, 0xbc86f643a13914f6, 0x3feb553a410c104e, 0x3c58ff7947027a15],
    [0x3fe0bf4f02508a1c, 0x3c6da0ced695fe43, 0x3feb44889717757c, 0x3c2b17c0070c2815],
    [0x3fe0da8b26b5672e, 0xbc8a58def0bee909, 0x3feb33bba89c8948, 0x3c8ea6a51d1f6ca9],
    [0x3fe0f5b670908515, 0x3c7a7ed13e5fbb05, 0x3feb22d3866838c8, 0xbc46e9a5f4ff5b7d],
    [0x3fe110d0c4b69c3b, 0x3c8d918998809981, 0x3feb11d04162a4c6, 0x3c71dd561efbc0c2],
    [0x3fe12bda080d5abc, 0x3c8d3a97fee7e959, 0x3feb00b1ea8f10de, 0xbc8958d71955fb3f],
    [0x3fe146d21f8b7f82, 0x3c7bf9535e2739a8, 0x3feaef78930bd275, 0xbc7f836279746f94],
    [0x3fe161b8f038f54e, 0xbc5c5ee5cde48178, 0x3feade244c123f9f, 0x3c88d3fc4dfa0f9c],
    [0x3fe17c8e5f2eedb0, 0x3c635e57102e2488, 0x3feaccb526f69de5, 0x3c88fb6a8dd6b6cc],
    [0x3fe197525197fbef, 0x3c6810a2d8e3468a, 0x3feabb2b352810ee, 0x3c8db59f6f843f91],
    [0x3fe1b204acb02fdd, 0xbc5f190c70cbb5fe, 0x3feaa98688308913, 0xbc0b83d607cd5072],
    [0x3fe1cca555c5309b, 0xbc5fc53db3120a83, 0x3fea97c731b4b1d2, 0x3c71245d6144e0cd],
    [0x3fe1e7343236574c, 0x3c722a3fa4f41d5a, 0x3fea85ed4373e02d, 0x3c69be06385ec792],
    [0x3fe201b12774c9b6, 0xbc4d31fe293d1034, 0x3fea73f8cf4800e8, 0xbc6c372ed4bdefbf],
    [0x3fe21c1c1b0394cf, 0x3c5e5b324b23aa31, 0x3fea61e9e72586af, 0x3c858330e2fd453f],
    [0x3fe23674f277c73c, 0x3c787167f61285ff, 0x3fea4fc09d1b5825, 0xbc84cce741fb33a5],
    [0x3fe250bb93788bbb, 0x3c7ea3d02457bcce, 0x3fea3d7d0352bdcf, 0xbc868dbaeca19669],
    [0x3fe26aefe3bf437c, 0xbc3657b40100c3a6, 0x3fea2b1f2c0f4ff0, 0x3c7c9fe748eedc9c],
    [0x3fe28511c917a067, 0xbc801df1d9a16b70, 0x3fea18a729aee445, 0x3c395e25736c0357],
    [0x3fe29f21295fbf51, 0xbc86bd333b0b0cbb, 0x3fea06150ea97ba3, 0x3c8bc4a6cdcbf214],
    [0x3fe2b91dea88421e, 0xbc8fa371db216ab0, 0x3fe9f368ed912f85, 0xbc81d200c5791606],
    [0x3fe2d307f29469cf, 0x3c7ba5fe5f921e0b, 0x3fe9e0a2d9121f73, 0xbc75e7ba2bd64f0a],
    [0x3fe2ecdf279a3082, 0x3c8d3557e0e7e37e, 0x3fe9cdc2e3f25e5c, 0x3c83f99112993f62],
    [0x3fe306a36fc26359, 0xbc821305ba6473ab, 0x3fe9bac92111dfce, 0x3c80ce9c6f353e9a],
    [0x3fe32054b148bc4f, 0x3c8f6b42095a135b, 0x3fe9a7b5a36a6514, 0x3c8722cfcc9fa7a9],
    [0x3fe339f2d27bfc05, 0xbc8ddf4717254e6f, 0x3fe994887e0f6a3f, 0x3c70be6cea471d02],
    [0x3fe3537db9be0367, 0x3c6b327e7af040f0, 0x3fe98141c42e1310, 0x3c8d1ff80488f08d],
    [0x3fe36cf54d83ed56, 0x3c66e1f20c8b5b7d, 0x3fe96de1890d17ce, 0x3c8caa25dc8e6991],
    [0x3fe386597456282b, 0xbc710fada93b07a8, 0x3fe95a67e00cb1fd, 0xbc80befda21f862d],
    [0x3fe39faa14d08f31, 0xbc6cd164b88ce902, 0x3fe946d4dca688fc, 0x3c802c6f2978af1d],
    [0x3fe3b8e715a2840a, 0xbc797653a7d2f07a, 0x3fe93328926d9e92, 0xbc8bb77003600cda],
    [0x3fe3d2105d8f07fe, 0x3c61602a42d4b3d4, 0x3fe91f63150e3b52, 0xbc680bd33fb3df2e],
    [0x3fe3eb25d36cd53a, 0xbc5be570e1570fc0, 0x3fe90b84784ddaf7, 0xbc70feb10ab93b87],
    [0x3fe404275e2677f7, 0xbc7f859aade89fd2, 0x3fe8f78cd00b1899, 0xbc5d5d3da9ac3dd3],
    [0x3fe41d14e4ba6790, 0x3c84608fd287ecf5, 0x3fe8e37c303d9ad1, 0xbc6463a4b53d4bf8],
    [0x3fe435ee4e3b1f86, 0x3c8fd05667361565, 0x3fe8cf52acf5ffc0, 0x3c7eb45b71ac7cc5],
    [0x3fe44eb381cf386b, 0xbc83ed6c1e6a5505, 0x3fe8bb105a5dc900, 0x3c8863e03e9474c1],
    [0x3fe4676466b180b9, 0x3c7d4f2a623cabd3, 0x3fe8a6b54cb74779, 0x3c8754938eccac38],
    [0x3fe48000e431159f, 0xbc8b194a7463ed10, 0x3fe89241985d871f, 0x3c8c48d9c413ed84],
    [0x3fe49888e1b17ba8, 0x3c785f236b9ef692, 0x3fe87db551c43a98, 0x3c5cc790421e159a],
    [0x3fe4b0fc46aab761, 0x3c20da05738cc59c, 0x3fe869108d77a6c6, 0x3c7338ffe2bfe9dd],
    [0x3fe4c95afaa965d9, 0x3c899f87b905eef7, 0x3fe85453601c8e3e, 0xbc68826853e7560a],
    [0x3fe4e1a4e54ed51b, 0xbc8a492f89b7c76a, 0x3fe83f7dde701ca0, 0xbc4152cf609bc6e8],
    [0x3fe4f9d9ee511c85, 0x3c82ed6c74c625f7, 0x3fe82a901d47d1dc, 0x3c87cbb4128c4c1e],
    [0x3fe511f9fd7b351c, 0xbc85c0e861c48831, 0x3fe8158a31916d5d, 0xbc6de8b90b8228de],
    [0x3fe52a04faad11b6, 0x3c807d7bd78bcb9c, 0x3fe8006c3052d917, 0x3c8aa8fb560a8d95],
    [0x3fe541facddbb724, 0x3c7232c28520d391, 0x3fe7eb362eaa1488, 0x3c5a1d65a4a5959f],
    [0x3fe559db5f115436, 0xbc77229f7edd6050, 0x3fe7d5e841cd1f93, 0x3c5ba5492fa6d189],
    [0x3fe571a6966d59b3, 0x3c5c843b4d0fb197, 0x3fe7c0827f09e54f, 0xbc6c73d6d72aee68],
    [0x3fe5895c5c24923b, 0x3c8b97f22c957c4f, 0x3fe7ab04fbc626b6, 0x3c836a41f9c8150a],
    [0x3fe5a0fc98813a12, 0xbc8d82e2b7d4227b, 0x3fe7956fcd7f6543, 0xbc8ab276e9d45ae4],
    [0x3fe5b88733e316d1, 0xbc8077c33cd5e751, 0x3fe77fc309cacd6e, 0x3c5a61550088db65],
    [0x3fe5cffc16bf8f0d, 0x3c896cb370eb578a, 0x3fe769fec655211f, 0xbc6827d5cf8c68c5],
    [0x3fe5e75b29a1c1df, 0x3c8c266e6544ba29, 0x3fe7542318e2a1fa, 0x3c8da5b28e9eb3b9],
    [0x3fe5fea4552a9e57, 0x3c80b6cef7ee20b7, 0x3fe73e30174efba1, 0xbc65d3ae3d94ad5f],
    [0x3fe615d78210fadd, 0xbc7e3827d0c03315, 0x3fe72825d78d2dd2, 0xbc85c7ee90b400a9],
    [0x3fe62cf49921ac79, 0xbc8edd9855b6241a, 0x3fe712046fa77678, 0x3c8425b0a5029c81],
    [0x3fe643fb833f9e07, 0xbc64a1c5cd0442cd, 0x3fe6fbcbf5bf3ba2, 0x3c8eaec3811b3b5d],
    [0x3fe65aec2963e755, 0x3c8126f96b71053c, 0x3fe6e57c800cf55e, 0x3c860286dedbd0a6],
    [0x3fe671c6749de429, 0xbc857b95de1e1fdf, 0x3fe6cf1624e01782, 0x3c7d2f32a51e82e8],
    [0x3fe6888a4e134b2f, 0xbc86b7d37644d5e6, 0x3fe6b898fa9efb5d, 0x3c715ac786ccf4b2],
    [0x3fe69f379f0044d7, 0x3c8d89d29f8584f8, 0x3fe6a20517c6c950, 0x3c8a6fd059b9724c],
];

/// f32 terms of (sin(j/256), cos(j/256)), as [`SIN_TAB_F64`].
#[rustfmt::skip]
pub(crate) const SIN_TAB_F32: [[u32; 4]; SIN_TAB_ROWS] = [
    [0x00000000, 0x00000000, 0x3f800000, 0x00000000],
    [0x3b7fffd5, 0x2eaaaeef, 0x3f7fff80, 0x2d2aaaa5],
    [0x3bffff55, 0x2f2aeeef, 0x3f7ffe00, 0x2f2aaa94],
    [0x3c3ffee0, 0x2c01997e, 0x3f7ffb80, 0x3057ffbf],
    [0x3c7ffd55, 0x2faeeeed, 0x3f7ff800, 0x312aaa50],
    [0x3c9ffd65, 0x30312d51, 0x3f7ff380, 0x31d054a8],
    [0x3cbffb80, 0x2e81992b, 0x3f7fee00, 0x3257fefd],
    [0x3cdff8db, 0xb007a718, 0x3f7fe780, 0x32c8140f],
    [0x3cfff555, 0x306eee87, 0x3f7fe001, 0xb2aaad83],
    [0x3d0ff868, 0x2ff607bf, 0x3f7fd781, 0x318ae8ef],
    [0x3d1ff596, 0xb0ed2ba3, 0x3f7fce02, 0xb2beb584],
    [0x3d2ff223, 0xadba67c2, 0x3f7fc382, 0x32c4021c],
    [0x3d3fee01, 0xb0fcd045, 0x3f7fb803, 0x32bfdf9a],
    [0x3d4fe91e, 0x2fb5a038, 0x3f7fab85, 0xb2b41f0a],
    [0x3d5fe36c, 0xb074f24a, 0x3f7f9e06, 0x328103a3],
    [0x3d6fdcda, 0xb0e90c8d, 0x3f7f8f88, 0x327488d3],
    [0x3d7fd557, 0x30eed4ee, 0x3f7f800b, 0xb2ab60b3],
    [0x3d87e66b, 0xb0e3cde3, 0x3f7f6f8e, 0xb2d0f08e],
    [0x3d8fe1a2, 0xb01fdd04, 0x3f7f5e11, 0x31aa3be8],
    [0x3d97dc49, 0x30bd9924, 0x3f7f4b95, 0x32542dce],
    [0x3d9fd659, 0xb152e8aa, 0x3f7f381a, 0x3114f7b7],
    [0x3da7cfc8, 0x309d9720, 0x3f7f23a0, 0xb2b4e283],
    [0x3dafc890, 0xb03bd232, 0x3f7f0e26, 0x31f21cfb],
    [0x3db7c0a8, 0xb076dcb8, 0x3f7ef7ae, 0xb2ee30ba],
    [0x3dbfb808, 0x30495439, 0x3f7ee036, 0xb0819465],
    [0x3dc7aea9, 0xb14d8ef4, 0x3f7ec7c0, 0xb2e24350],
    [0x3dcfa481, 0x31555d20, 0x3f7eae4a, 0x32b43e00],
    [0x3dd7998b, 0xb1509707, 0x3f7e93d6, 0x32ee550e],
    [0x3ddf8dbc, 0x30ad0724, 0x3f7e7864, 0x2ee99b12],
    [0x3de7810e, 0x30c4962d, 0x3f7e5bf3, 0x318b8244],
    [0x3def7379, 0xb113e332, 0x3f7e3e84, 0xb265c86f],
    [0x3df764f4, 0xb0e1b5fb, 0x3f7e2016, 0x3274f3a6],
    [0x3dff5577, 0x31686ee3, 0x3f7e00ab, 0xb2d82a43],
    [0x3e03a27e, 0xb0d2172c, 0x3f7de041, 0xb1afe4ab],
    [0x3e0799bc, 0x31ddd71d, 0x3f7dbed9, 0x32bfe069],
    [0x3e0b9073, 0x31bcd1c1, 0x3f7d9c74, 0x31b8c620],
    [0x3e0f869f, 0xb1850315, 0x3f7d7911, 0x3247897a],
    [0x3e137c3b, 0xb1d3fd7a, 0x3f7d54b1, 0xb2314065],
    [0x3e177143, 0xb05aa3b9, 0x3f7d2f53, 0x320386de],
    [0x3e1b65b4, 0xb10a3036, 0x3f7d08f8, 0x327b5603],
    [0x3e1f5989, 0x31c5d66d, 0x3f7ce1a0, 0x32a7cc43],
    [0x3e234cc0, 0xb1e23343, 0x3f7cb94c, 0xb2f128ff],
    [0x3e273f52, 0x31dc5f28, 0x3f7c8ffa, 0x2fdd3404],
    [0x3e2b313e, 0x306344ac, 0x3f7c65ac, 0xb19edd33],
    [0x3e2f227e, 0x31fa126f, 0x3f7c3a61, 0x32e1eecf],
    [0x3e331310, 0xb15a4702, 0x3f7c0e1b, 0xb28903ed],
    [0x3e3702ee, 0x2f349a98, 0x3f7be0d8, 0xb10010ee],
    [0x3e3af215, 0x31655f4a, 0x3f7bb299, 0x32a779bc],
    [0x3e3ee081, 0x31fbaf2b, 0x3f7b835f, 0xb04263c9],
    [0x3e42ce2f, 0xb0f0d1e9, 0x3f7b5329, 0x320b97f1],
    [0x3e46bb19, 0x31efaa94, 0x3f7b21f8, 0xb123ea99],
    [0x3e4aa73d, 0x31a577d2, 0x3f7aefcc, 0xb2b28caf],
    [0x3e4e9297, 0xb1f313cf, 0x3f7abca4, 0x32cff679],
    [0x3e527d21, 0x311eabe2, 0x3f7a8882, 0x32d95a9c],
    [0x3e5666d9, 0x3197a076, 0x3f7a5366, 0xb1b87162],
    [0x3e5a4fbb, 0x3012e0ff, 0x3f7a1d4f, 0x318f2a65],
    [0x3e5e37c2, 0x31edc61a, 0x3f79e63e, 0x31ecf45b],
    [0x3e621eec, 0xb1a62fd1, 0x3f79ae33, 0x32865d00],
    [0x3e660533, 0xb16faecc, 0x3f79752f, 0xb28ac001],
    [0x3e69ea94, 0xb1277c59, 0x3f793b31, 0xb28610e4],
    [0x3e6dcf0b, 0xaf14b461, 0x3f79003a, 0xb2f799b6],
    [0x3e71b294, 0x31ac848e, 0x3f78c449, 0x329693ef],
    [0x3e75952c, 0xaf6a34bb, 0x3f788760, 0x329c5874],
    [0x3e7976ce, 0x305548e2, 0x3f78497f, 0xb258f470],
    [0x3e7d5777, 0xb1b0cea9, 0x3f780aa5, 0xb082115f],
    [0x3e809b91, 0xb0ac260d, 0x3f77cad3, 0x320e2ed7],
    [0x3e828ae6, 0xb01aeaa4, 0x3f778a0a, 0xb2ff2d0e],
    [0x3e8479b8, 0x326c7139, 0x3f774848, 0x32a6a4ba],
    [0x3e866806, 0x326f3643, 0x3f770590, 0xb207e1dd],
    [0x3e8855ce, 0x31081316, 0x3f76c1e0, 0x32c682d9],
    [0x3e8a430d, 0x32294ddf, 0x3f767d3a, 0x321abdf4],
    [0x3e8c2fc2, 0x322a935a, 0x3f76379d, 0x32d9efe3],
    [0x3e8e1beb, 0x3198d70f, 0x3f75f10a, 0x32f76efa],
    [0x3e900786, 0xb192f5d0, 0x3f75a982, 0xb2ccfde8],
    [0x3e91f291, 0xb26e550d, 0x3f756103, 0x315dd7a8],
    [0x3e93dd09, 0x3207c810, 0x3f75178f, 0x32052d36],
    [0x3e95c6ee, 0x3187d694, 0x3f74cd26, 0x31e9f361],
    [0x3e97b03d, 0x31e4966d, 0x3f7481c8, 0x32983fa7],
    [0x3e9998f5, 0xb23fb608, 0x3f743576, 0xb0d65613],
    [0x3e9b8112, 0x325c7914, 0x3f73e82f, 0x32e23257],
    [0x3e9d6895, 0xb20962c2, 0x3f7399f5, 0x2f49e9fd],
    [0x3e9f4f7a, 0xb2404dd3, 0x3f734ac7, 0xb11660b9],
    [0x3ea135bf, 0x31d3dcd3, 0x3f72faa6, 0xb2bc9163],
    [0x3ea31b64, 0xb25738e6, 0x3f72a991, 0x32a4868d],
    [0x3ea50065, 0xb19e185c, 0x3f72578a, 0x32b2a44a],
    [0x3ea6e4c1, 0x3161c963, 0x3f720491, 0x310eadbf],
    [0x3ea8c876, 0x32768a78, 0x3f71b0a6, 0xb297f296],
    [0x3eaaab83, 0x310f4706, 0x3f715bc9, 0xb2a2de03],
    [0x3eac8de5, 0xafba14d2, 0x3f7105fa, 0x329acd6c],
    [0x3eae6f9a, 0x3234dfba, 0x3f70af3b, 0xb1cd4e4f],
    [0x3eb050a1, 0x32107877, 0x3f70578b, 0xb23f8486],
    [0x3eb230f8, 0xb1544fe2, 0x3f6ffeea, 0x32c4e17c],
    [0x3eb4109c, 0x32238d7f, 0x3f6fa55a, 0xb1213c51],
    [0x3eb5ef8d, 0xb224eba9, 0x3f6f4ada, 0xb1def22d],
    [0x3eb7cdc7, 0x314e8095, 0x3f6eef6b, 0xb2f0dd73],
    [0x3eb9ab4a, 0xb20f439d, 0x3f6e930c, 0x326ea8d3],
    [0x3ebb8813, 0xb2289bdf, 0x3f6e35bf, 0x32b99591],
    [0x3ebd6420, 0x31381727, 0x3f6dd784, 0x32907fb3],
    [0x3ebf3f70, 0x31721b53, 0x3f6d785b, 0x32b888e8],
    [0x3ec11a01, 0xb14ee1f3, 0x3f6d1845, 0xb0ffd070],
    [0x3ec2f3d1, 0xb257d96b, 0x3f6cb741, 0x32f71a9e],
    [0x3ec4ccdd, 0x321c84fc, 0x3f6c5551, 0x328fd6bf],
    [0x3ec6a525, 0x31ee9326, 0x3f6bf275, 0xb281e84b],
    [0x3ec87ca7, 0xb2781b31, 0x3f6b8eac, 0x3287967f],
    [0x3eca535f, 0x321f546c, 0x3f6b29f8, 0x3267c808],
    [0x3ecc294e, 0xb1dfb1b9, 0x3f6ac459, 0x30c6846e],
    [0x3ecdfe70, 0x313a0144, 0x3f6a5dcf, 0x31630cf0],
    [0x3ecfd2c4, 0x32501ba5, 0x3f69f65b, 0xb28f1c18],
    [0x3ed1a649, 0xb14ebcce, 0x3f698dfc, 0x32d8d7c0],
    [0x3ed378fc, 0xb203e8e7, 0x3f6924b5, 0xb2db0654],
    [0x3ed54adb, 0x3168249e, 0x3f68ba84, 0xb2d826b1],
    [0x3ed71be5, 0x31c4d111, 0x3f684f6a, 0xb2144ed9],
    [0x3ed8ec18, 0x31a642c3, 0x3f67e368, 0xb235aa4c],
    [0x3edabb72, 0x31d79c1d, 0x3f67767e, 0xb1c8af7b],
    [0x3edc89f2, 0xb272453c, 0x3f6708ad, 0xb2f657d2],
    [0x3ede5794, 0x321be92e, 0x3f6699f4, 0x31d126cd],
    [0x3ee02459, 0xb204ebf6, 0x3f662a55, 0x31aca5cc],
    [0x3ee1f03d, 0x308d9637, 0x3f65b9d0, 0xb1c9ea71],
    [0x3ee3bb3f, 0x3247fd1a, 0x3f654865, 0xafe60bd4],
    [0x3ee5855e, 0x2ffdd32d, 0x3f64d615, 0xb24ab310],
    [0x3ee74e97, 0x31752948, 0x3f6462e0, 0xb2663caf],
    [0x3ee916e9, 0xb1298697, 0x3f63eec6, 0x32b9835c],
    [0x3eeade52, 0xb23fb89a, 0x3f6379c9, 0x308be53b],
    [0x3eeca4cf, 0x326e7457, 0x3f6303e8, 0x32491a58],
    [0x3eee6a61, 0xb22cd636, 0x3f628d24, 0x32b8b176],
    [0x3ef02f03, 0x326345a6, 0x3f62157e, 0xb0d4d36d],
    [0x3ef1f2b6, 0x30ac1534, 0x3f619cf6, 0xb2fe2228],
    [0x3ef3b577, 0xb21d841b, 0x3f61238b, 0x32d7437f],
    [0x3ef57744, 0xb23b4fa1, 0x3f60a940, 0x324b6faa],
    [0x3ef7381b, 0x316219f6, 0x3f602e14, 0x32a1d137],
    [0x3ef8f7fb, 0x323c4f98, 0x3f5fb208, 0x3281e753],
    [0x3efab6e3, 0xb22fb48c, 0x3f5f351c, 0x32fe1237],
    [0x3efc74cf, 0x31ed5793, 0x3f5eb752, 0xb2efd6b1],
    [0x3efe31bf, 0x323397bc, 0x3f5e38a8, 0xb2187b13],
    [0x3effedb1, 0x320d2f58, 0x3f5db920, 0xb14e7867],
    [0x3f00d452, 0xb2ba3879, 0x3f5d38ba, 0x32a6847e],
    [0x3f01b14a, 0xb2472cd5, 0x3f5cb777, 0x32f58841],
    [0x3f028dc0, 0x32908da5, 0x3f5c3558, 0xb1a8f8a2],
    [0x3f0369b4, 0x32528dcb, 0x3f5bb25c, 0x3216e098],
    [0x3f044525, 0xb291525c, 0x3f5b2e85, 0xb2a374ed],
    [0x3f052011, 0xb130f800, 0x3f5aa9d2, 0x31060827],
    [0x3f05fa78, 0x31942287, 0x3f5a2445, 0xb28e88a8],
    [0x3f06d459, 0x3256ace6, 0x3f599ddd, 0x3289c895],
    [0x3f07adb4, 0xb2f6f7af, 0x3f59169c, 0x324d0719],
    [0x3f088686, 0x3216d387, 0x3f588e82, 0x31315263],
    [0x3f095ed0, 0x3280d5ac, 0x3f58058f, 0x32a8f10e],
    [0x3f0a3691, 0xb06900fc, 0x3f577bc5, 0xb2cf42d9],
    [0x3f0b0dc8, 0xb2fc70ab, 0x3f56f122, 0x32c123fa],
    [0x3f0be473, 0xb0d11250, 0x3f5665a9, 0x325ed3bd],
    [0x3f0cba93, 0xb2e68041, 0x3f55d95a, 0xb2ad7ef1],
    [0x3f0d9025, 0x32cb02fe, 0x3f554c34, 0x32830891],
    [0x3f0e652b, 0xb2a3acf6, 0x3f54be3a, 0xb2e4b4e3],
    [0x3f0f39a2, 0xb2dc9a8b, 0x3f542f6a, 0x31dcf80b],
    [0x3f100d89, 0x326e9937, 0x3f539fc6, 0x32f4800e],
    [0x3f10e0e1, 0xb21f8d66, 0x3f530f4f, 0x3264b0d6],
    [0x3f11b3a8, 0xb2d8838c, 0x3f527e05, 0xb1b929f7],
    [0x3f1285dd, 0xb2c87744, 0x3f51ebe8, 0x31d4af74],
    [0x3f13577f, 0x31efd0df, 0x3f5158f9, 0x32c0f4ff],
    [0x3f14288e, 0x32917a06, 0x3f50c539, 0x329aee44],
    [0x3f14f909, 0x3295fbf5, 0x3f5030a8, 0x32ea97ba],
    [0x3f15c8ef, 0x32a88422, 0x3f4f9b47, 0x32d912f8],
    [0x3f169840, 0xb2d6b963, 0x3f4f0517, 0xb25dbc12],
    [0x3f1766f9, 0x32734610, 0x3f4e6e17, 0x31fc9797],
    [0x3f18351b, 0x32fc2636, 0x3f4dd649, 0x3108efe7],
    [0x3f1902a6, 0xb2eb743b, 0x3f4d3dad, 0x31da9945],
    [0x3f19cf97, 0xb2d84040, 0x3f4ca444, 0xb1784ae0],
    [0x3f1a9bee, 0xb2483f93, 0x3f4c0a0e, 0x3205c262],
    [0x3f1b67aa, 0x32d83ed5, 0x3f4b6f0c, 0x3290d17d],
    [0x3f1c32cc, 0xb2ba9d7d, 0x3f4ad33f, 0x2ecb1fcc],
    [0x3f1cfd51, 0xb2b2f70d, 0x3f4a36a7, 0xb1d65dc1],
    [0x3f1dc739, 0xb2a5d7bf, 0x3f499945, 0xb2d92617],
    [0x3f1e9083, 0xb19c3e00, 0x3f48fb19, 0xb2af1c4b],
    [0x3f1f592f, 0xb2c932ac, 0x3f485c24, 0xb27644a1],
    [0x3f20213b, 0xb16cc405, 0x3f47bc67, 0xb2ff4e76],
    [0x3f20e8a7, 0x32174cf2, 0x3f471be2, 0xb2fc2653],
    [0x3f21af72, 0x32e3b1f8, 0x3f467a95, 0x32cf5ffc],
    [0x3f22759c, 0x31679c35, 0x3f45d883, 0xb23446e0],
    [0x3f233b23, 0x32563017, 0x3f4535aa, 0x32cb7478],
    [0x3f240007, 0x320622b4, 0x3f44920d, 0xb2744f1c],
    [0x3f24c447, 0x3158bdd4, 0x3f43edab, 0xb2e3bc56],
    [0x3f2587e2, 0x325556ec, 0x3f434884, 0x32d77a6c],
    [0x3f264ad8, 0xb22ad345, 0x3f42a29b, 0x2f6471ef],
    [0x3f270d27, 0x3229daa3, 0x3f41fbef, 0xb147f1b0],
    [0x3f27cecf, 0x32e511c8, 0x3f415481, 0xb1ae0b89],
    [0x3f288fd0, 0xb1a132b9, 0x3f40ac52, 0xb2e6e92a],
    [0x3f295028, 0xb22a5dc9, 0x3f400362, 0xb2fad26f],
    [0x3f2a0fd6, 0x32ddbb72, 0x3f3f59b1, 0x32eaa149],
    [0x3f2acedb, 0xb0eeabca, 0x3f3eaf42, 0x31668fca],
    [0x3f2b8d35, 0xb2992a65, 0x3f3e0414, 0xb0f61ab1],
    [0x3f2c4ae3, 0xb1f6db71, 0x3f3d5828, 0xb2073b29],
    [0x3f2d07e5, 0xb26fd8be, 0x3f3cab7e, 0x32d7f654],
    [0x3f2dc43a, 0xb2c1ce93, 0x3f3bfe18, 0x329cacd7],
    [0x3f2e7fe1, 0xb294070f, 0x3f3b4ff6, 0x324aa424],
    [0x3f2f3ad9, 0x329a1c1e, 0x3f3aa119, 0xb263abc1],
    [0x3f2ff523, 0xb2ad561b, 0x3f39f181, 0xb28b1046],
    [0x3f30aebc, 0x31843eb7, 0x3f39412f, 0xb2872d23],
    [0x3f3167a5, 0xb25bca71, 0x3f389023, 0x32fa7768],
    [0x3f321fdc, 0x31cfe782, 0x3f37de60, 0xb2a40c46],
    [0x3f32d761, 0x32963e75, 0x3f372be4, 0x2ecf55e6],
    [0x3f338e34, 0xb2b621bd, 0x3f3678b1, 0x321c02f0],
    [0x3f344452, 0x32e134b3, 0x3f35c4c8, 0xb22c2094],
    [0x3f34f9bd, 0xb0ffbb29, 0x3f351029, 0xb283936b],
];

/// f64 terms of 1/((2j+1)(2j+2)), j = 0..7 (cos s = 1 − s²/2·(1 − s²/12·(…))).
#[rustfmt::skip]
pub(crate) const COS_DEN_INV_F64: [[u64; 2]; COS_DEN_ROWS] = [
    [0x3fe0000000000000, 0x0000000000000000],
    [0x3fb5555555555555, 0x3c55555555555555],
    [0x3fa1111111111111, 0x3c21111111111111],
    [0x3f92492492492492, 0x3c32492492492492],
    [0x3f86c16c16c16c17, 0xbc1f49f49f49f49f],
    [0x3f7f07c1f07c1f08, 0xbc0f07c1f07c1f08],
    [0x3f76816816816817, 0xbc1fa5fa5fa5fa60],
    [0x3f71111111111111, 0x3bf1111111111111],
];

/// f32 terms of 1/((2j+1)(2j+2)), as [`COS_DEN_INV_F64`].
#[rustfmt::skip]
pub(crate) const COS_DEN_INV_F32: [[u32; 2]; COS_DEN_ROWS] = [
    [0x3f000000, 0x00000000],
    [0x3daaaaab, 0xb12aaaab],
    [0x3d088889, 0xb0eeeeef],
    [0x3c924925, 0xb05b6db7],
    [0x3c360b61, 0xaf93e93f],
    [0x3bf83e10, 0xaf783e10],
    [0x3bb40b41, 0xaf17e97f],
    [0x3b888889, 0xaf6eeeef],
];
