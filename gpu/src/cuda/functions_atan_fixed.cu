// expanse-gpu fixed-point end of atan for f64 terms at N >= 3 (core/src/functions/atan_fixed.rs),
// operation for operation on the same integers: |t| scaled by 2^sigma to W fraction limbs, its
// square, the Horner scheme of H(z) = sum (-z)^k/(2k+1) with the limb plan of exp, the product
// m * H, then either the scaled rounding (j = 0) or the table value atan(j/256) plus or minus
// the shifted product, and the greedy nearest rounding to N terms. Integer arithmetic only, so
// the results are the CPU's bit for bit.
//
// Follows functions_fixed.cu (fx_mul_lo, fx_mul_trunc, fx_add_sub, fx_step_limbs,
// fx_to_terms) and functions_sin_fixed.cu (fx_sc_to_fixed, fx_shift_right, fx_exponent,
// fx_sc_result), with the generated tables FX_ATAN_J256[257 * 9] (floor(atan(j/256) * 2^512),
// eight fraction limbs and the integer limb) and FX_INV_ODD[(FX_ATAN_MAX_DEG + 1) * FX_L]
// (floor(2^(64 FX_MAX_W)/(2k+1))); called from functions.cu (`tr_atan_unit_table`).

#define FX_ATAN_TAB_MAX 256

// The series degree at W fraction limbs for the scale sigma (atan_fixed.rs `atan_degree`).
__host__ __device__ constexpr int fx_atan_degree(int w, int sigma) {
    long long target = 64 * (long long)w + 8;
    long long b = 2 * (long long)sigma - 1 > 17 ? 2 * (long long)sigma - 1 : 17;
    int d = 0;
    for (;;) {
        int lg = 0;
        for (int v = 2 * d + 3; v > 1; v >>= 1) ++lg;
        if (b * (long long)(d + 1) + lg >= target) return d;
        ++d;
    }
}

// H(z) to degree d by the Horner scheme with exp's limb plan (atan_fixed.rs `atan_series`).
template <int W> __device__ __noinline__ void fx_atan_series(const u64 *z, int d, u64 *p) {
    if (d > FX_ATAN_MAX_DEG) d = FX_ATAN_MAX_DEG;
    u64 c[FX_L], zp[FX_L];
    {
        int lo = W - fx_step_limbs(W, d);
        for (int t = 0; t < FX_L; ++t) p[t] = 0;
        for (int t = lo; t <= W; ++t) p[t] = FX_INV_ODD[d * FX_L + FX_MAX_W - W + t];
    }
    for (int k = d - 1; k >= 0; --k) {
        int lo = W - fx_step_limbs(W, k);
        fx_mul_lo<W>(z, p, lo, zp);
        for (int t = 0; t < FX_L; ++t) c[t] = 0;
        for (int t = lo; t <= W; ++t) c[t] = FX_INV_ODD[k * FX_L + FX_MAX_W - W + t];
        fx_add_sub<W>(c, zp, lo, true, p);
    }
}

// atan(j/256) + atan(t) for the reduced t (atan_fixed.rs `atan_finish_w`); false where the
// CPU returns None (|t_0| above the derivation's bound, t = 0 or j out of range).
template <int W, int M> __device__ __noinline__ bool fx_atan_finish_w(const X<M> &t, int j, X<M> &res) {
    double t0 = (double)t.t[0];
    double at0 = t0 < 0.0 ? -t0 : t0;
    if (!(at0 <= 1.002 / 512.0) || t0 == 0.0 || j > FX_ATAN_TAB_MAX) return false;
    bool negative = t0 < 0.0;
    int e = fx_exponent(at0);
    int sigma = -e;
    if (j == 0 && sigma >= 240) {
        res = t;
        return true;
    }
    u64 m[FX_L], sq[FX_L], z[FX_L], h[FX_L], b[FX_L];
    fx_sc_to_fixed<W, M>(t, negative, sigma, m);
    fx_mul_trunc<W>(m, m, 0, sq);
    fx_shift_right<W>(sq, 2 * sigma, z);
    fx_atan_series<W>(z, fx_atan_degree(W, sigma), h);
    fx_mul_trunc<W>(m, h, 0, b);
    if (j == 0) {
        res = fx_sc_result<W, M>(b, e, negative);
        return true;
    }
    u64 a[FX_L], bs[FX_L], y[FX_L];
    for (int i = 0; i < FX_L; ++i) a[i] = 0;
    for (int i = 0; i <= W; ++i) a[i] = FX_ATAN_J256[j * 9 + 8 - W + i];
    fx_shift_right<W>(b, sigma, bs);
    fx_add_sub<W>(a, bs, 0, negative, y);
    res = fx_sc_result<W, M>(y, 0, false);
    return true;
}

template <int M> __device__ __forceinline__ bool fx_atan_finish(const X<M> &t, int j, X<M> &res) {
    return fx_atan_finish_w<fx_frac_limbs(M), M>(t, j, res);
}
