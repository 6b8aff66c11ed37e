// expanse-gpu fixed-point sin and cos of the reduced argument for f64 terms at N >= 3
// (core/src/functions/sin_fixed.rs), operation for operation on the same integers: the
// conversion of |r| (scaled by 2^sigma on path B) to W fraction limbs, the table split
// j = floor(256 rho), the Horner schemes of S(z) and C(z) with their limb plan, the table
// combination, and the greedy nearest rounding to N terms. Integer arithmetic only, so the
// results are the CPU's bit for bit.
//
// Follows functions_fixed.cu (fx_mul_lo, fx_mul_trunc, fx_add_sub, fx_acc_add_f64, fx_ldexp,
// fx_to_terms) and the generated tables FX_SIN_J256[202 * 9], FX_COS_J256[202 * 9]
// (floor(sin(j/256) * 2^512), floor(cos(j/256) * 2^512), eight fraction limbs and the integer
// limb) and FX_INV_FACT; called from functions.cu (`tr_eval`).

#define FX_SIN_TAB_MAX 201

// The degree of S (odd) or C at W fraction limbs (sin_fixed.rs `sc_degree`).
__host__ __device__ constexpr int fx_sc_degree(int w, bool odd) {
    long long target = 64 * (long long)w + 8;
    int o = odd ? 1 : 0;
    int d = 1;
    for (;;) {
        long long lf = 0;
        for (int i = 2; i <= 2 * d + 2 + o; ++i) {
            int lg = 0;
            for (int v = i; v > 1; v >>= 1) ++lg;
            lf += lg;
        }
        if (16 * (long long)(d + 1) - 1 + lf >= target) return d;
        ++d;
    }
}

// Fraction limbs of Horner step k of S and C (sin_fixed.rs `sc_step_limbs`).
__host__ __device__ constexpr int fx_sc_step_limbs(int w, int k) {
    int drop = 16 * k >= 8 ? (16 * k - 8) / 64 : 0;
    return drop + 1 >= w ? 1 : w - drop;
}

// S(z) (odd) or C(z) by the Horner scheme with its limb plan (sin_fixed.rs `sc_series`).
template <int W> __device__ __noinline__ void fx_sc_series(const u64 *z, bool odd, u64 *p) {
    const int o = odd ? 1 : 0;
    constexpr int d_sin = fx_sc_degree(W, true);
    constexpr int d_cos = fx_sc_degree(W, false);
    const int d = odd ? d_sin : d_cos;
    u64 c[FX_L], zp[FX_L];
    {
        int lo = W - fx_sc_step_limbs(W, d);
        for (int t = 0; t < FX_L; ++t) p[t] = 0;
        for (int t = lo; t <= W; ++t) p[t] = FX_INV_FACT[(2 * d + o) * FX_L + FX_MAX_W - W + t];
    }
    for (int k = d - 1; k >= 0; --k) {
        int lo = W - fx_sc_step_limbs(W, k);
        fx_mul_lo<W>(z, p, lo, zp);
        for (int t = 0; t < FX_L; ++t) c[t] = 0;
        for (int t = lo; t <= W; ++t) c[t] = FX_INV_FACT[(2 * k + o) * FX_L + FX_MAX_W - W + t];
        fx_add_sub<W>(c, zp, lo, true, p);
    }
}

// The terms of |r| * 2^sigma truncated to W fraction limbs (sin_fixed.rs `to_fixed`).
template <int W, int M> __device__ __forceinline__ void fx_sc_to_fixed(const X<M> &r, bool negative, int sigma, u64 *out) {
    const int fr = W + 1;
    u64 acc[FX_LA];
    for (int i = 0; i < FX_LA; ++i) acc[i] = 0;
    for (int i = 0; i < M; ++i) {
        double v = (double)r.t[i];
        if (negative) v = -v;
        fx_acc_add_f64(acc, fr, fx_ldexp(v, sigma));
    }
    for (int t = 0; t < FX_L; ++t) out[t] = 0;
    for (int t = 0; t <= W; ++t) out[t] = acc[t + 1];
}

// v * 2^-bits truncated (sin_fixed.rs `shift_right`).
template <int W> __device__ __forceinline__ void fx_shift_right(const u64 *v, int bits, u64 *out) {
    int q = bits / 64, b = bits % 64;
    for (int t = 0; t < FX_L; ++t) out[t] = 0;
    for (int i = 0; i <= W; ++i) {
        int src = i + q;
        if (src > W) break;
        u64 lo = v[src] >> b;
        u64 hi = (b != 0 && src < W) ? (v[src + 1] << (64 - b)) : 0ull;
        out[i] = lo | hi;
    }
}

// The exponent e of v > 0 with 2^(e-1) <= v < 2^e (sin_fixed.rs `exponent`).
__device__ __forceinline__ int fx_exponent(double v) {
    u64 bits = (u64)__double_as_longlong(v);
    int ex = (int)((bits >> 52) & 0x7ff);
    if (ex == 0) {
        u64 man = bits & ((1ull << 52) - 1);
        return -1074 + (man == 0 ? 0 : 64 - __clzll((long long)man));
    }
    return ex - 1022;
}

template <int W, int M> __device__ __forceinline__ X<M> fx_sc_result(const u64 *y, int scale, bool negative) {
    double out[8];
    if (!fx_to_terms<W>(y, M, scale, out)) {
        for (int i = 0; i < 8; ++i) out[i] = 0.0;
    }
    X<M> res;
    for (int i = 0; i < M; ++i) res.t[i] = (T)(negative ? -out[i] : out[i]);
    return res;
}

// (sin r, cos r) for the reduced r at f64 N = M >= 3, each only where asked (else zero)
// (sin_fixed.rs `sin_cos_w`).
template <int W, int M> __device__ __noinline__ void fx_sin_cos_w(const X<M> &r, bool want_sin, bool want_cos, X<M> &so, X<M> &co) {
    bool negative = (double)r.t[0] < 0.0;
    so = x_zero<M>();
    co = x_zero<M>();
    double r0 = (double)r.t[0];
    int e = fx_exponent(negative ? -r0 : r0);
    if (e <= -240) {
        if (want_sin) so = r;
        co.t[0] = T(1);
        return;
    }
    u64 z[FX_L], sq[FX_L], y[FX_L];
    if (e <= -8) {
        int sigma = -e;
        u64 m[FX_L];
        fx_sc_to_fixed<W, M>(r, negative, sigma, m);
        fx_mul_trunc<W>(m, m, 0, sq);
        fx_shift_right<W>(sq, 2 * sigma, z);
        if (want_sin) {
            u64 s[FX_L];
            fx_sc_series<W>(z, true, s);
            fx_mul_trunc<W>(m, s, 0, y);
            so = fx_sc_result<W, M>(y, e, negative);
        }
        if (want_cos) {
            fx_sc_series<W>(z, false, y);
            co = fx_sc_result<W, M>(y, 0, false);
        }
        return;
    }
    u64 s[FX_L];
    fx_sc_to_fixed<W, M>(r, negative, 0, s);
    int j = (int)(s[W - 1] >> 56);
    s[W - 1] &= (1ull << 56) - 1;
    fx_mul_lo<W>(s, s, 0, z);
    bool need_s = j != 0 || want_sin;
    bool need_c = j != 0 || want_cos;
    u64 sin_s[FX_L], cos_s[FX_L];
    for (int t = 0; t < FX_L; ++t) {
        sin_s[t] = 0;
        cos_s[t] = 0;
    }
    if (need_s) {
        u64 ser[FX_L];
        fx_sc_series<W>(z, true, ser);
        fx_mul_lo<W>(s, ser, 0, sin_s);
    }
    if (need_c) fx_sc_series<W>(z, false, cos_s);
    u64 ys[FX_L], yc[FX_L];
    if (j == 0) {
        for (int t = 0; t < FX_L; ++t) {
            ys[t] = sin_s[t];
            yc[t] = cos_s[t];
        }
    } else {
        int idx = j > FX_SIN_TAB_MAX ? FX_SIN_TAB_MAX : j;
        u64 ts[FX_L], tc[FX_L], p1[FX_L], p2[FX_L];
        for (int t = 0; t < FX_L; ++t) {
            ts[t] = 0;
            tc[t] = 0;
        }
        for (int t = 0; t <= W; ++t) {
            ts[t] = FX_SIN_J256[idx * 9 + 8 - W + t];
            tc[t] = FX_COS_J256[idx * 9 + 8 - W + t];
        }
        if (want_sin) {
            fx_mul_lo<W>(ts, cos_s, 0, p1);
            fx_mul_lo<W>(tc, sin_s, 0, p2);
            fx_add_sub<W>(p1, p2, 0, false, ys);
        }
        if (want_cos) {
            fx_mul_lo<W>(tc, cos_s, 0, p1);
            fx_mul_lo<W>(ts, sin_s, 0, p2);
            fx_add_sub<W>(p1, p2, 0, true, yc);
        }
    }
    if (want_sin) so = fx_sc_result<W, M>(ys, 0, negative);
    if (want_cos) co = fx_sc_result<W, M>(yc, 0, false);
}

template <int M> __device__ __forceinline__ void fx_sin_cos(const X<M> &r, bool want_sin, bool want_cos, X<M> &so, X<M> &co) {
    fx_sin_cos_w<fx_frac_limbs(M), M>(r, want_sin, want_cos, so, co);
}
