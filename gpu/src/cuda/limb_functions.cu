// Elementary functions on the limb floats: exp, ln, sin, cos. The CUDA twin of expanse-core's
// core/src/limb/functions.rs, operation for operation (the same correctly rounded operations of
// limb.cu at the same precisions, the same integer decisions), so every result is bit-identical
// to the CPU reference. See functions.rs for the algorithms and the error bounds. Appended after
// limb.cu in a program.
//
// Values are LimbF<L>: a number with its own precision (like LimbFloat<L>); every helper returns
// a fresh value (no aliasing of inputs and outputs) and takes the caller's scratch `w` of
// LIMBF_SCRATCH(L) limbs.

#define LIMBF_SCRATCH(L) (8 * (L) + 8)
#define LF_EXP_BLOCK 8
#define LF_VERSINE_BLOCK 4
#define LF_LN_BLOCK 8

template <int L>
struct LimbF {
    int kind;
    int neg;
    i64 exp;
    unsigned prec;
    u64 m[L];
};

// The constants of LimbConsts<L>: pi and ln2 at wp, log2e and 2/pi at 64 bits.
template <int L>
struct LimbFConsts {
    unsigned prec;
    unsigned wp;
    LimbF<L> pi, ln2, log2e, two_over_pi;
};

template <int L>
__device__ __forceinline__ LimbNum lf_num(const LimbF<L> &x) {
    LimbNum a;
    a.kind = x.kind;
    a.neg = x.neg;
    a.exp = x.exp;
    a.m = x.m;
    a.n = limb_limbs(x.prec);
    return a;
}

// The result of a kernel into r (as LimbFloat::make: limbs of a special value zeroed).
template <int L>
__device__ __forceinline__ void lf_set(LimbF<L> &r, LimbRes res, unsigned p) {
    r.prec = p;
    r.kind = res.kind;
    r.neg = res.neg;
    if (res.kind == LK_NORMAL) {
        r.exp = res.exp;
    } else {
        r.exp = 0;
        for (int j = 0; j < L; ++j) r.m[j] = 0;
    }
}

template <int L>
__device__ __forceinline__ LimbF<L> lf_special(int kind, int neg, unsigned p) {
    LimbF<L> r;
    r.prec = p;
    r.kind = kind;
    r.neg = neg;
    r.exp = 0;
    for (int j = 0; j < L; ++j) r.m[j] = 0;
    return r;
}

template <int L>
__device__ LimbF<L> lf_add(const LimbF<L> &a, const LimbF<L> &b, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbRes res = limb_add(lf_num(a), lf_num(b), p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_sub(const LimbF<L> &a, const LimbF<L> &b, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbNum bn = lf_num(b);
    bn.neg = !bn.neg;
    LimbRes res = limb_add(lf_num(a), bn, p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_mul(const LimbF<L> &a, const LimbF<L> &b, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbRes res = limb_mul(lf_num(a), lf_num(b), p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_div(const LimbF<L> &a, const LimbF<L> &b, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbRes res = limb_div(lf_num(a), lf_num(b), p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_fma(const LimbF<L> &a, const LimbF<L> &b, const LimbF<L> &c, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbRes res = limb_fma(lf_num(a), lf_num(b), lf_num(c), p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_sqrt(const LimbF<L> &a, unsigned p, u64 *w) {
    LimbF<L> r;
    LimbRes res = limb_sqrt(lf_num(a), p, LR_N, r.m, w);
    lf_set(r, res, p);
    return r;
}

template <int L>
__device__ LimbF<L> lf_round(const LimbF<L> &a, unsigned p) {
    LimbF<L> r;
    LimbRes res = limb_round_num(lf_num(a), p, LR_N, r.m);
    lf_set(r, res, p);
    return r;
}

// The integer k exactly, at 64 bits.
template <int L>
__device__ LimbF<L> lf_int(i64 k) {
    LimbF<L> x = lf_special<L>(LK_ZERO, k < 0, 64);
    if (k == 0) return x;
    u64 u = k < 0 ? (u64)0 - (u64)k : (u64)k;
    int z = limb_clz(u);
    x.kind = LK_NORMAL;
    x.m[0] = u << z;
    x.exp = 64 - z;
    return x;
}

template <int L>
__device__ __forceinline__ LimbF<L> lf_scale(const LimbF<L> &x, int s) {
    LimbF<L> y = x;
    if (y.kind == LK_NORMAL) y.exp += s;
    return y;
}

template <int L>
__device__ __forceinline__ LimbF<L> lf_neg(const LimbF<L> &x) {
    LimbF<L> y = x;
    y.neg = !y.neg;
    return y;
}

template <int L>
__device__ i64 lf_nearest_int(const LimbF<L> &q) {
    if (q.kind != LK_NORMAL || q.exp < 0) return 0;
    u64 top = q.m[limb_limbs(q.prec) - 1];
    unsigned e = (unsigned)q.exp;
    i64 k = e == 0 ? 1 : (i64)((top >> (64 - e)) + ((top >> (63 - e)) & 1));
    return q.neg ? -k : k;
}

__device__ __forceinline__ unsigned lf_isqrt(unsigned v) {
    unsigned r = 0;
    while ((r + 1) * (r + 1) <= v) r += 1;
    return r;
}

__device__ __forceinline__ unsigned lf_ilog2(u64 j) { return 63 - (unsigned)limb_clz(j); }

__device__ unsigned lf_exp_terms(unsigned wp, unsigned s) {
    unsigned n = 0, acc = 0;
    while (acc < wp + 8) {
        n += 1;
        acc += s + 1 + lf_ilog2((u64)n + 1);
    }
    return n;
}

__device__ unsigned lf_versine_terms(unsigned wp, unsigned s) {
    unsigned n = 0, acc = 0;
    while (acc < wp + 8) {
        n += 1;
        u64 j = n;
        acc += 2 * s + lf_ilog2((2 * j + 1) * (2 * j + 2));
    }
    return n;
}

// fac(m) of the nested series: 0 (exp) m + 2; 1 (versine) (2m + 3)(2m + 4).
__device__ __forceinline__ i64 lf_fac(int mode, i64 m) { return mode == 0 ? m + 2 : (2 * m + 3) * (2 * m + 4); }

// Sum_{j<n} u^j / Prod_{m<j} fac(m) by rectangular splitting in blocks of b <= 8 terms
// (functions.rs: nested_series).
template <int L>
__device__ LimbF<L> lf_nested_series(const LimbF<L> &u, unsigned n, unsigned b, int mode, unsigned wp, u64 *w) {
    LimbF<L> pw[9];
    pw[0] = lf_int<L>(1);
    for (unsigned i = 1; i <= b; ++i) pw[i] = lf_mul(pw[i - 1], u, wp, w);
    unsigned blocks = n / b;
    LimbF<L> h = lf_special<L>(LK_ZERO, 0, wp);
    for (unsigned k = blocks; k-- > 0;) {
        i64 base = (i64)(k * b);
        LimbF<L> acc = k + 1 == blocks ? lf_special<L>(LK_ZERO, 0, wp) : lf_mul(pw[b], h, wp, w);
        i64 qi = 1;
        for (int i = (int)b - 1; i >= 0; --i) {
            qi *= lf_fac(mode, base + i);
            acc = lf_add(acc, lf_mul(pw[i], lf_int<L>(qi), wp, w), wp, w);
        }
        h = lf_div(acc, lf_int<L>(qi), wp, w);
    }
    return h;
}

template <int L>
__device__ __noinline__ LimbF<L> lf_exp(const LimbF<L> &x, const LimbFConsts<L> &c, u64 *w) {
    unsigned p = x.prec, wp = c.wp;
    if (x.kind == LK_NAN) return lf_special<L>(LK_NAN, 0, p);
    if (x.kind == LK_INF) return x.neg ? lf_special<L>(LK_ZERO, 0, p) : x;
    if (x.kind == LK_ZERO) return lf_round(lf_int<L>(1), p);
    if (x.exp > 21) return x.neg ? lf_special<L>(LK_ZERO, 0, p) : lf_special<L>(LK_INF, 0, p);
    if (x.exp < -(i64)wp - 2) return lf_round(lf_int<L>(1), p);
    unsigned s = lf_isqrt(wp) / 3 + 1;
    LimbF<L> q = lf_mul(x, c.log2e, 64, w);
    i64 k = lf_nearest_int(q);
    LimbF<L> r = lf_fma(lf_int<L>(-k), c.ln2, x, wp, w);
    LimbF<L> one = lf_int<L>(1);
    LimbF<L> m;
    if (r.kind == LK_ZERO) {
        m = r;
    } else {
        LimbF<L> y = lf_scale(r, -(int)s);
        // expm1(y)/y = Sum_{j<n} y^j/(j+1)!: fac(m) = m + 2.
        unsigned n = (lf_exp_terms(wp, s) + LF_EXP_BLOCK - 1) / LF_EXP_BLOCK * LF_EXP_BLOCK;
        LimbF<L> h = lf_nested_series(y, n, LF_EXP_BLOCK, 0, wp, w);
        m = lf_mul(h, y, wp, w);
        LimbF<L> two = lf_int<L>(2);
        for (unsigned i = 0; i < s; ++i) {
            LimbF<L> u = lf_add(m, two, wp, w);
            m = lf_mul(m, u, wp, w);
        }
    }
    LimbF<L> e = lf_add(m, one, wp, w);
    return lf_round(lf_scale(e, (int)k), p);
}

template <int L>
__device__ __noinline__ LimbF<L> lf_ln(const LimbF<L> &x, const LimbFConsts<L> &c, u64 *w) {
    unsigned p = x.prec, wp = c.wp;
    if (x.kind == LK_NAN) return lf_special<L>(LK_NAN, 0, p);
    if (x.kind == LK_ZERO) return lf_special<L>(LK_INF, 1, p);
    if (x.kind == LK_INF && !x.neg) return x;
    if (x.neg) return lf_special<L>(LK_NAN, 0, p);
    const u64 SQRT_HALF_TOP = 0xB504F333F9DE6484ULL;
    u64 top = x.m[limb_limbs(p) - 1];
    LimbF<L> m = x;
    i64 e;
    if (top >= SQRT_HALF_TOP) {
        m.exp = 0;
        e = x.exp;
    } else {
        m.exp = 1;
        e = x.exp - 1;
    }
    unsigned tt = lf_isqrt(wp) / 4 + 4;
    LimbF<L> one = lf_int<L>(1);
    LimbF<L> d = lf_sub(m, one, wp, w);
    int s = 0;
    while (d.kind == LK_NORMAL && d.exp > -(i64)tt) {
        m = lf_sqrt(m, wp, w);
        d = lf_sub(m, one, wp, w);
        s += 1;
    }
    LimbF<L> sum;
    if (d.kind == LK_ZERO) {
        sum = d;
    } else {
        LimbF<L> z = lf_div(d, lf_add(m, one, wp, w), wp, w);
        LimbF<L> z2 = lf_mul(z, z, wp, w);
        // atanh z = z * Sum_{j<n} z2^j/(2j+1) in blocks of LF_LN_BLOCK over a common denominator.
        unsigned n = (wp + 8 + 2 * tt - 1) / (2 * tt);
        n = (n + LF_LN_BLOCK - 1) / LF_LN_BLOCK * LF_LN_BLOCK;
        LimbF<L> pw[LF_LN_BLOCK + 1];
        pw[0] = one;
        for (int i = 1; i <= LF_LN_BLOCK; ++i) pw[i] = lf_mul(pw[i - 1], z2, wp, w);
        unsigned blocks = n / LF_LN_BLOCK;
        LimbF<L> acc = lf_special<L>(LK_ZERO, 0, wp);
        for (unsigned k = blocks; k-- > 0;) {
            i64 base = (i64)(k * LF_LN_BLOCK);
            LimbF<L> t = lf_special<L>(LK_ZERO, 0, wp);
            i64 den = 1;
            for (int i = LF_LN_BLOCK - 1; i >= 0; --i) {
                i64 qi = 1;
                for (int i2 = 0; i2 < LF_LN_BLOCK; ++i2)
                    if (i2 != i) qi *= 2 * (base + i2) + 1;
                t = lf_add(t, lf_mul(pw[i], lf_int<L>(qi), wp, w), wp, w);
                den *= 2 * (base + i) + 1;
            }
            t = lf_div(t, lf_int<L>(den), wp, w);
            acc = k + 1 == blocks ? t : lf_fma(acc, pw[LF_LN_BLOCK], t, wp, w);
        }
        sum = lf_mul(z, acc, wp, w);
        sum = lf_scale(sum, s + 1);
    }
    return lf_round(lf_fma(lf_int<L>(e), c.ln2, sum, wp, w), p);
}

// (sin r, cos r) at wp for the reduced r.
template <int L>
__device__ void lf_sin_cos_reduced(const LimbF<L> &r, unsigned wp, LimbF<L> *sr, LimbF<L> *cr, u64 *w) {
    LimbF<L> one = lf_int<L>(1);
    if (r.kind == LK_ZERO || r.exp < -(i64)(wp / 2) - 2) {
        *sr = r;
        *cr = one;
        return;
    }
    unsigned s = lf_isqrt(wp) / 3;
    LimbF<L> y = lf_scale(r, -(int)s);
    LimbF<L> z = lf_mul(y, y, wp, w);
    unsigned n = (lf_versine_terms(wp, s) + LF_VERSINE_BLOCK - 1) / LF_VERSINE_BLOCK * LF_VERSINE_BLOCK;
    LimbF<L> h = lf_nested_series(lf_neg(z), n, LF_VERSINE_BLOCK, 1, wp, w);
    LimbF<L> v = lf_scale(lf_mul(h, z, wp, w), -1);
    LimbF<L> two = lf_int<L>(2);
    for (unsigned i = 0; i < s; ++i) {
        LimbF<L> u = lf_sub(two, v, wp, w);
        v = lf_scale(lf_mul(v, u, wp, w), 1);
    }
    *cr = lf_sub(one, v, wp, w);
    LimbF<L> u = lf_sub(two, v, wp, w);
    *sr = lf_sqrt(lf_mul(v, u, wp, w), wp, w);
    sr->neg = r.neg;
}

// Reduces x by pi/2; false outside |x| < 2^21 or for non-finite or zero x.
template <int L>
__device__ bool lf_reduce(const LimbF<L> &x, const LimbFConsts<L> &c, LimbF<L> *r, int *quad, u64 *w) {
    if (x.kind != LK_NORMAL || x.exp > 21) return false;
    LimbF<L> q = lf_mul(x, c.two_over_pi, 64, w);
    i64 k = lf_nearest_int(q);
    LimbF<L> half_pi = lf_scale(c.pi, -1);
    *r = lf_fma(lf_int<L>(-k), half_pi, x, c.wp, w);
    *quad = (int)(((k % 4) + 4) % 4);
    return true;
}

template <int L>
__device__ __noinline__ LimbF<L> lf_sin(const LimbF<L> &x, const LimbFConsts<L> &c, u64 *w) {
    unsigned p = x.prec;
    if (x.kind == LK_ZERO) return x;
    LimbF<L> r;
    int quad;
    if (!lf_reduce(x, c, &r, &quad, w)) return lf_special<L>(LK_NAN, 0, p);
    LimbF<L> s, co;
    lf_sin_cos_reduced(r, c.wp, &s, &co, w);
    LimbF<L> v = quad == 0 ? s : quad == 1 ? co : quad == 2 ? lf_neg(s) : lf_neg(co);
    return lf_round(v, p);
}

template <int L>
__device__ __noinline__ LimbF<L> lf_cos(const LimbF<L> &x, const LimbFConsts<L> &c, u64 *w) {
    unsigned p = x.prec;
    if (x.kind == LK_ZERO) return lf_round(lf_int<L>(1), p);
    LimbF<L> r;
    int quad;
    if (!lf_reduce(x, c, &r, &quad, w)) return lf_special<L>(LK_NAN, 0, p);
    LimbF<L> s, co;
    lf_sin_cos_reduced(r, c.wp, &s, &co, w);
    LimbF<L> v = quad == 0 ? co : quad == 1 ? lf_neg(s) : quad == 2 ? lf_neg(co) : s;
    return lf_round(v, p);
}

// ---- array I/O in the layout of limb.cu (limb j of element i at m[j * count + i]) -----------

template <int L>
__device__ LimbF<L> lf_load(const u64 *m, const int *e, const unsigned char *ks, unsigned count, unsigned i,
                            unsigned p) {
    LimbF<L> x = lf_special<L>(ks[i] & 3, (ks[i] >> 2) & 1, p);
    if (x.kind == LK_NORMAL) {
        x.exp = e[i];
        int n = limb_limbs(p);
        for (int j = 0; j < n; ++j) x.m[j] = m[(u64)j * count + i];
    }
    return x;
}

template <int L>
__device__ void lf_store(const LimbF<L> &x, u64 *m, int *e, unsigned char *ks, unsigned count, unsigned i) {
    int n = limb_limbs(x.prec);
    bool normal = x.kind == LK_NORMAL;
    for (int j = 0; j < n; ++j) m[(u64)j * count + i] = normal ? x.m[j] : 0ULL;
    e[i] = normal ? (int)x.exp : 0;
    ks[i] = (unsigned char)(x.kind | (x.neg << 2));
}

// Constants as packed by the host (gpu/src/limb_quad.rs): element i of `count` packed values,
// each with its own precision, limbs at cm[i * L ..], most significant last.
template <int L>
__device__ LimbF<L> lf_const(const u64 *cm, const int *ce, const unsigned char *ck, const unsigned *cp, int i) {
    LimbF<L> x = lf_special<L>(ck[i] & 3, (ck[i] >> 2) & 1, cp[i]);
    if (x.kind == LK_NORMAL) {
        x.exp = ce[i];
        for (int j = 0; j < limb_limbs(cp[i]); ++j) x.m[j] = cm[i * L + j];
    }
    return x;
}

// Function ids of the limb_fn kernels.
#define LF_EXP 0
#define LF_LN 1
#define LF_SIN 2
#define LF_COS 3

// Constants 0..3 of the packed block: pi, ln2, log2e, 2/pi (LimbFConsts for precision p).
template <int L>
__device__ LimbFConsts<L> lf_consts(const u64 *cm, const int *ce, const unsigned char *ck, const unsigned *cp,
                                    unsigned p, unsigned wp) {
    LimbFConsts<L> c;
    c.prec = p;
    c.wp = wp;
    c.pi = lf_const<L>(cm, ce, ck, cp, 0);
    c.ln2 = lf_const<L>(cm, ce, ck, cp, 1);
    c.log2e = lf_const<L>(cm, ce, ck, cp, 2);
    c.two_over_pi = lf_const<L>(cm, ce, ck, cp, 3);
    return c;
}

// One function value for element i (also the host shim's entry point).
template <int L>
__device__ void limb_fn_elem(int f, unsigned p, unsigned wp, unsigned count, unsigned i, const u64 *cm, const int *ce,
                             const unsigned char *ck, const unsigned *cp, const u64 *xm, const int *xe,
                             const unsigned char *xk, u64 *rm, int *re, unsigned char *rk) {
    u64 w[LIMBF_SCRATCH(L)];
    LimbFConsts<L> c = lf_consts<L>(cm, ce, ck, cp, p, wp);
    LimbF<L> x = lf_load<L>(xm, xe, xk, count, i, p);
    LimbF<L> r;
    switch (f) {
    case LF_EXP: r = lf_exp(x, c, w); break;
    case LF_LN: r = lf_ln(x, c, w); break;
    case LF_SIN: r = lf_sin(x, c, w); break;
    default: r = lf_cos(x, c, w); break;
    }
    lf_store(r, rm, re, rk, count, i);
}

#define LIMB_FN_KERNEL(L)                                                                                          \
    extern "C" __global__ void limb_fn_##L(int f, unsigned p, unsigned wp, unsigned count, const u64 *cm,         \
                                           const int *ce, const unsigned char *ck, const unsigned *cp,             \
                                           const u64 *xm, const int *xe, const unsigned char *xk, u64 *rm,         \
                                           int *re, unsigned char *rk) {                                           \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                                        \
        if (i >= count) return;                                                                                    \
        limb_fn_elem<L>(f, p, wp, count, i, cm, ce, ck, cp, xm, xe, xk, rm, re, rk);                               \
    }
