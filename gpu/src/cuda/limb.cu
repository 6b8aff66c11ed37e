// Fixed-limb binary floating point, correctly rounded exactly as MPFR: the CUDA twin of
// expanse-core's `limb` module (core/src/limb/{mpn,round,arith}.rs), function for function and
// in the same order of operations, so that every result (class, sign, exponent, limbs and the
// ternary value) is bit-identical to the CPU reference, which is itself bit-identical to MPFR.
//
// Numbers: ±0.m·2^e, the mantissa in n = ceil(p/64) 64-bit limbs (least significant first,
// top bit set, bits below the precision p zero), e in MPFR's default range ±(2^30 − 1); kinds
// 0 zero, 1 normal, 2 infinity, 3 NaN. Rounding modes 0 nearest-even, 1 toward zero, 2 up,
// 3 down, 4 away from zero (MPFR's RNDN, RNDZ, RNDU, RNDD, RNDA).
//
// Differences from the Rust source are in the arithmetic of 128-bit quantities only: Rust's
// u128 becomes (hi, lo) pairs of u64 with __umul64hi, and the one 128-by-64 division (the
// reciprocal of a limb) is Hacker's Delight's `divlu`; every integer computed is the same.
//
// Kernel `limb_op_<L>` (L = capacity in limbs: 2, 4, 8, 16, 32, 64): one thread per element,
// one operation for all elements at one precision p ≤ 64·L and one rounding mode. Arrays are
// interleaved: limb j of element i at m[j * count + i]; exponents as int; kind | (sign << 2)
// as one byte; the ternary value (sign of rounded − exact) as a signed byte.

typedef unsigned long long u64;
typedef long long i64;

#define LIMB_EMIN (1LL - (1LL << 30))
#define LIMB_EMAX ((1LL << 30) - 1)
#define LK_ZERO 0
#define LK_NORMAL 1
#define LK_INF 2
#define LK_NAN 3
#define LR_N 0
#define LR_Z 1
#define LR_U 2
#define LR_D 3
#define LR_A 4

struct LimbRes {
    int kind;
    int neg;
    i64 exp;
    int ord;
};

// A read-only number: for LK_NORMAL, m[0..n) is the mantissa and value = 0.m·2^exp.
struct LimbNum {
    int kind;
    int neg;
    i64 exp;
    const u64 *m;
    int n;
};

__device__ __forceinline__ LimbRes limb_res(int kind, int neg) {
    LimbRes r;
    r.kind = kind;
    r.neg = neg;
    r.exp = 0;
    r.ord = 0;
    return r;
}

__device__ __forceinline__ int limb_limbs(unsigned p) { return (int)((p + 63) / 64); }

// ---- natural-number primitives (mpn.rs) ----------------------------------------------------

__device__ __forceinline__ u64 mpn_add_n(u64 *r, const u64 *b, int n) {
    u64 c = 0;
    for (int i = 0; i < n; ++i) {
        u64 s1 = r[i] + b[i];
        u64 c1 = s1 < r[i];
        u64 s2 = s1 + c;
        u64 c2 = s2 < s1;
        r[i] = s2;
        c = c1 | c2;
    }
    return c;
}

__device__ __forceinline__ u64 mpn_sub_n(u64 *r, const u64 *b, int n) {
    u64 c = 0;
    for (int i = 0; i < n; ++i) {
        u64 x = r[i];
        u64 s1 = x - b[i];
        u64 c1 = b[i] > x;
        u64 s2 = s1 - c;
        u64 c2 = c > s1;
        r[i] = s2;
        c = c1 | c2;
    }
    return c;
}

__device__ __forceinline__ u64 mpn_add_1(u64 *r, int n, u64 c) {
    for (int i = 0; i < n; ++i) {
        if (c == 0) return 0;
        u64 s = r[i] + c;
        c = s < r[i];
        r[i] = s;
    }
    return c;
}

__device__ __forceinline__ u64 mpn_sub_1(u64 *r, int n, u64 c) {
    for (int i = 0; i < n; ++i) {
        if (c == 0) return 0;
        u64 x = r[i];
        r[i] = x - c;
        c = c > x;
    }
    return c;
}

__device__ __forceinline__ u64 mpn_addmul_1(u64 *r, const u64 *a, int n, u64 b) {
    u64 c = 0;
    for (int i = 0; i < n; ++i) {
        u64 lo = a[i] * b;
        u64 hi = __umul64hi(a[i], b);
        lo += r[i];
        hi += lo < r[i];
        lo += c;
        hi += lo < c;
        r[i] = lo;
        c = hi;
    }
    return c;
}

__device__ __forceinline__ u64 mpn_submul_1(u64 *r, const u64 *a, int n, u64 b) {
    u64 c = 0;
    for (int i = 0; i < n; ++i) {
        u64 lo = a[i] * b;
        u64 hi = __umul64hi(a[i], b);
        lo += c;
        hi += lo < c;
        u64 x = r[i];
        r[i] = x - lo;
        hi += lo > x;
        c = hi;
    }
    return c;
}

__device__ __forceinline__ void mpn_mul(u64 *r, const u64 *a, int na, const u64 *b, int nb) {
    for (int i = 0; i < na; ++i) r[i] = 0;
    for (int i = 0; i < nb; ++i) r[na + i] = mpn_addmul_1(r + i, a, na, b[i]);
}

__device__ __forceinline__ u64 mpn_lshift(u64 *r, int n, unsigned s) {
    if (s == 0) return 0;
    u64 out = 0;
    for (int i = 0; i < n; ++i) {
        u64 v = r[i];
        r[i] = (v << s) | out;
        out = v >> (64 - s);
    }
    return out;
}

__device__ __forceinline__ u64 mpn_rshift(u64 *r, int n, unsigned s) {
    if (s == 0) return 0;
    u64 out = 0;
    for (int i = n - 1; i >= 0; --i) {
        u64 v = r[i];
        r[i] = (v >> s) | out;
        out = v << (64 - s);
    }
    return out;
}

__device__ __forceinline__ int mpn_cmp(const u64 *a, const u64 *b, int n) {
    for (int i = n - 1; i >= 0; --i)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

__device__ __forceinline__ int mpn_cmp_top_aligned(const u64 *a, int na, const u64 *b, int nb) {
    int n = na < nb ? na : nb;
    for (int k = 1; k <= n; ++k) {
        u64 x = a[na - k], y = b[nb - k];
        if (x != y) return x < y ? -1 : 1;
    }
    for (int i = 0; i < na - n; ++i)
        if (a[i] != 0) return 1;
    for (int i = 0; i < nb - n; ++i)
        if (b[i] != 0) return -1;
    return 0;
}

__device__ __forceinline__ bool mpn_is_zero(const u64 *a, int n) {
    for (int i = 0; i < n; ++i)
        if (a[i] != 0) return false;
    return true;
}

__device__ __forceinline__ int limb_clz(u64 v) { return v == 0 ? 64 : __clzll((long long)v); }

// ⌊(u1·2^64 + u0)/d⌋ for u1 < d (Hacker's Delight, divlu: base-2^32 long division).
__device__ u64 limb_divlu(u64 u1, u64 u0, u64 d) {
    const u64 b = 1ULL << 32;
    int s = limb_clz(d);
    d <<= s;
    u64 vn1 = d >> 32, vn0 = d & 0xffffffffULL;
    u64 un32 = s == 0 ? u1 : (u1 << s) | (u0 >> (64 - s));
    u64 un10 = u0 << s;
    u64 un1 = un10 >> 32, un0 = un10 & 0xffffffffULL;
    u64 q1 = un32 / vn1;
    u64 rhat = un32 - q1 * vn1;
    while (q1 >= b || q1 * vn0 > b * rhat + un1) {
        q1 -= 1;
        rhat += vn1;
        if (rhat >= b) break;
    }
    u64 un21 = un32 * b + un1 - q1 * d;
    u64 q0 = un21 / vn1;
    rhat = un21 - q0 * vn1;
    while (q0 >= b || q0 * vn0 > b * rhat + un0) {
        q0 -= 1;
        rhat += vn1;
        if (rhat >= b) break;
    }
    return q1 * b + q0;
}

// v = ⌊(2^128 − 1)/d⌋ − 2^64 for normalized d: ⌊(¬d·2^64 + ¬0)/d⌋.
__device__ __forceinline__ u64 mpn_invert_limb(u64 d) { return limb_divlu(~d, ~0ULL, d); }

// (q, r) = divide (u1, u0) by normalized d, u1 < d, with v = invert_limb(d).
__device__ __forceinline__ u64 mpn_div_2by1(u64 u1, u64 u0, u64 d, u64 v, u64 *rem) {
    u64 q0 = v * u1;
    u64 q1 = __umul64hi(v, u1);
    u64 t0 = q0 + u0;
    q1 = q1 + u1 + (t0 < q0);
    q0 = t0;
    q1 += 1;
    u64 r = u0 - q1 * d;
    if (r > q0) {
        q1 -= 1;
        r += d;
    }
    if (r >= d) {
        q1 += 1;
        r -= d;
    }
    *rem = r;
    return q1;
}

__device__ u64 mpn_invert_3by2(u64 d1, u64 d0) {
    u64 v = mpn_invert_limb(d1);
    u64 p = d1 * v + d0;
    if (p < d0) {
        v -= 1;
        u64 mask = p >= d1 ? ~0ULL : 0;
        p -= d1;
        v += mask;
        p -= mask & d1;
    }
    u64 t0 = d0 * v;
    u64 t1 = __umul64hi(d0, v);
    p += t1;
    if (p < t1) {
        v -= 1;
        if (p >= d1 && (p > d1 || t0 >= d0)) v -= 1;
    }
    return v;
}

// 3/2 division: q = ⌊(n2, n1, n0)/(d1, d0)⌋ and the remainder (r1, r0).
__device__ __forceinline__ u64 mpn_div_3by2(u64 n2, u64 n1, u64 n0, u64 d1, u64 d0, u64 v, u64 *r1o,
                                            u64 *r0o) {
    u64 q0 = n2 * v;
    u64 q = __umul64hi(n2, v);
    u64 s0 = q0 + n1;
    q = q + n2 + (s0 < q0);
    q0 = s0;
    u64 r1 = n1 - d1 * q;
    // (r1, n0) − (d1, d0)
    u64 rl = n0 - d0;
    u64 rh = r1 - d1 - (d0 > n0);
    // − d0·q
    u64 tl = d0 * q, th = __umul64hi(d0, q);
    u64 b = tl > rl;
    rl -= tl;
    rh = rh - th - b;
    q += 1;
    if (rh >= q0) {
        q -= 1;
        u64 nl = rl + d0;
        rh = rh + d1 + (nl < rl);
        rl = nl;
    }
    if (rh > d1 || (rh == d1 && rl >= d0)) {
        q += 1;
        u64 bb = d0 > rl;
        rl -= d0;
        rh = rh - d1 - bb;
    }
    *r1o = rh;
    *r0o = rl;
    return q;
}

// Schoolbook division (mpn.rs `div_qr`): n (nn limbs) by normalized d (dn ≥ 2 limbs); the low
// nn − dn quotient limbs to q, returns the top quotient limb; remainder in n[0..dn).
__device__ u64 mpn_div_qr(u64 *q, u64 *n, int nn, const u64 *d, int dn, u64 v) {
    u64 qh = 0;
    if (mpn_cmp(n + nn - dn, d, dn) >= 0) {
        mpn_sub_n(n + nn - dn, d, dn);
        qh = 1;
    }
    u64 d1 = d[dn - 1], d0 = d[dn - 2];
    u64 n1 = n[nn - 1];
    for (int i = nn - dn - 1; i >= 0; --i) {
        int top = i + dn;
        u64 qi;
        if (n1 == d1 && n[top - 1] == d0) {
            qi = ~0ULL;
            mpn_submul_1(n + i, d, dn, qi);
            n1 = n[top - 1];
        } else {
            u64 r1, r0;
            u64 qq = mpn_div_3by2(n1, n[top - 1], n[top - 2], d1, d0, v, &r1, &r0);
            u64 cy = mpn_submul_1(n + i, d, dn - 2, qq);
            u64 cy1 = r0 < cy;
            n[top - 2] = r0 - cy;
            u64 cy2 = r1 < cy1;
            n1 = r1 - cy1;
            if (cy2 != 0) {
                n[top - 1] = n1;
                mpn_add_n(n + i, d, dn);
                n1 = n[top - 1];
                qq -= 1;
            }
            qi = qq;
        }
        q[i] = qi;
    }
    n[dn - 1] = n1;
    return qh;
}

// ⌊√u⌋ and u − s² (as hi, lo) for u = (u1, u0), u1 ≥ 2^62.
__device__ u64 mpn_sqrtrem_2(u64 u1, u64 u0, u64 *rh, u64 *rl) {
    double est = sqrt((double)u1 * 18446744073709551616.0);
    u64 s = est >= 18446744073709551616.0 ? ~0ULL : (u64)est;
    // One Newton step in f64 (any error is repaired exactly below).
    u64 sl = s * s, sh = __umul64hi(s, s);
    double diff;
    if (sh < u1 || (sh == u1 && sl <= u0)) {
        u64 dl = u0 - sl, dh = u1 - sh - (sl > u0);
        diff = (double)dh * 18446744073709551616.0 + (double)dl;
    } else {
        u64 dl = sl - u0, dh = sh - u1 - (u0 > sl);
        diff = -((double)dh * 18446744073709551616.0 + (double)dl);
    }
    double dd = diff / (2.0 * (double)s);
    i64 delta = (i64)dd;
    if (delta >= 0) {
        u64 t = s + (u64)delta;
        s = t < s ? ~0ULL : t;
    } else {
        u64 m = (u64)(-delta);
        s = (s - (1ULL << 63)) < m ? (1ULL << 63) : s - m;
    }
    for (;;) {
        sl = s * s;
        sh = __umul64hi(s, s);
        if (sh > u1 || (sh == u1 && sl > u0)) {
            s -= 1;
            continue;
        }
        u64 r0 = u0 - sl, r1 = u1 - sh - (sl > u0);
        // while r > 2s: r −= 2s + 1, s += 1
        for (;;) {
            u64 t1 = s >> 63, t0 = s << 1; // 2s
            if (r1 > t1 || (r1 == t1 && r0 > t0)) {
                u64 a0 = t0 + 1, a1 = t1 + (a0 == 0);
                u64 b = a0 > r0;
                r0 -= a0;
                r1 = r1 - a1 - b;
                s += 1;
            } else {
                break;
            }
        }
        *rh = r1;
        *rl = r0;
        return s;
    }
}

// Square root with remainder (mpn.rs `sqrtrem`): r of 2k limbs (top limb ≥ 2^62) → s (k limbs);
// the remainder stays in r[0..k+1); t is scratch of k + 2 limbs; returns remainder ≠ 0.
__device__ bool mpn_sqrtrem(u64 *s, int k, u64 *r, u64 *t) {
    u64 rh, rl;
    u64 s0 = mpn_sqrtrem_2(r[2 * k - 1], r[2 * k - 2], &rh, &rl);
    s[k - 1] = s0;
    r[2 * k - 2] = rl;
    r[2 * k - 1] = rh;
    for (int i = 0; i < k + 2; ++i) t[i] = 0;
    t[k] = s0 << 1;
    t[k + 1] = s0 >> 63;
    u64 v1 = mpn_invert_limb(s0);
    u64 v2 = 0;
    for (int j = 1; j < k; ++j) {
        int base = 2 * k - 2 * j - 2;
        if (j == 2) v2 = mpn_invert_3by2(s[k - 1], s[k - 2]);
        // y(i) = (x(i) >> 1) | (x(i+1) << 63), x(i) = r[base + 1 + i]
#define LIMB_Y(i) ((r[base + 1 + (i)] >> 1) | (r[base + 2 + (i)] << 63))
        u64 q;
        if (j == 1) {
            u64 y1 = LIMB_Y(1), y0 = LIMB_Y(0);
            if (y1 >= s0) {
                q = ~0ULL;
            } else {
                u64 rem;
                q = mpn_div_2by1(y1, y0, s0, v1, &rem);
            }
        } else {
            u64 y2 = LIMB_Y(j), y1 = LIMB_Y(j - 1), y0 = LIMB_Y(j - 2);
            u64 d1 = s[k - 1], d0 = s[k - 2];
            if (y2 > d1 || (y2 == d1 && y1 >= d0)) {
                q = ~0ULL;
            } else {
                u64 a, b;
                q = mpn_div_3by2(y2, y1, y0, d1, d0, v2, &a, &b);
            }
        }
#undef LIMB_Y
        int lo = k - j;
        t[lo] = q;
        u64 *win = r + base;
        u64 bw = mpn_submul_1(win, t + lo, j + 2, q);
        win[j + 2] -= bw;
        while (win[j + 2] >> 63 == 1) {
            q -= 1;
            t[lo] = q;
            u64 c1 = mpn_add_n(win, t + lo, j + 2);
            u64 c2 = mpn_add_1(win, j + 2, q + 1);
            win[j + 2] += c1 + c2;
        }
        s[k - 1 - j] = q;
        mpn_add_1(t + lo, j + 2, q);
    }
    return !mpn_is_zero(r, k + 1);
}

// ---- rounding (round.rs) -------------------------------------------------------------------

// Rounds buf (m limbs, top bit set) + sticky to p bits into out; returns carry, *dir =
// sign(|rounded| − |exact|).
__device__ bool limb_round_mant(const u64 *buf, int m, bool sticky, int neg, unsigned p, int rnd, u64 *out,
                                int *dir) {
    int n = limb_limbs(p);
    unsigned sh = 64 * (unsigned)n - p;
    u64 rbit;
    bool st;
    if (m >= n) {
        for (int i = 0; i < n; ++i) out[i] = buf[m - n + i];
        const u64 *low = buf;
        int nlow = m - n;
        if (sh > 0) {
            rbit = (out[0] >> (sh - 1)) & 1;
            u64 below = out[0] & ((1ULL << (sh - 1)) - 1);
            st = below != 0 || !mpn_is_zero(low, nlow) || sticky;
            out[0] &= ~((1ULL << sh) - 1);
        } else if (m > n) {
            u64 top = low[nlow - 1];
            rbit = top >> 63;
            st = (top << 1) != 0 || !mpn_is_zero(low, nlow - 1) || sticky;
        } else {
            rbit = 0;
            st = sticky;
        }
    } else {
        for (int i = 0; i < m; ++i) out[n - m + i] = buf[i];
        for (int i = 0; i < n - m; ++i) out[i] = 0;
        rbit = 0;
        st = sticky;
    }
    if (rbit == 0 && !st) {
        *dir = 0;
        return false;
    }
    u64 lsb = (out[0] >> sh) & 1;
    bool up;
    switch (rnd) {
    case LR_N: up = rbit == 1 && (st || lsb == 1); break;
    case LR_Z: up = false; break;
    case LR_U: up = !neg; break;
    case LR_D: up = neg; break;
    default: up = true; break;
    }
    if (!up) {
        *dir = -1;
        return false;
    }
    *dir = 1;
    if (mpn_add_1(out, n, 1ULL << sh) != 0) {
        out[n - 1] = 1ULL << 63;
        return true;
    }
    return false;
}

__device__ __forceinline__ bool limb_is_pow2(const u64 *m, int n) {
    return m[n - 1] == (1ULL << 63) && mpn_is_zero(m, n - 1);
}

__device__ LimbRes limb_finish(int neg, i64 exp, bool carry, int dir, unsigned p, int rnd, u64 *out) {
    int n = limb_limbs(p);
    i64 e = exp + (carry ? 1 : 0);
    bool away;
    switch (rnd) {
    case LR_N:
    case LR_A: away = true; break;
    case LR_Z: away = false; break;
    case LR_U: away = !neg; break;
    default: away = neg; break;
    }
    LimbRes res;
    res.kind = LK_NORMAL;
    res.neg = neg;
    res.exp = e;
    res.ord = 0;
    if (e > LIMB_EMAX) {
        if (away) {
            res = limb_res(LK_INF, neg);
            dir = 1;
        } else {
            unsigned sh = 64 * (unsigned)n - p;
            for (int i = 0; i < n; ++i) out[i] = ~0ULL;
            out[0] &= sh == 0 ? ~0ULL : ~((1ULL << sh) - 1);
            res.exp = LIMB_EMAX;
            dir = -1;
        }
    } else if (e < LIMB_EMIN) {
        bool to_min;
        if (rnd == LR_N)
            to_min = !(e < LIMB_EMIN - 1 || (e == LIMB_EMIN - 1 && limb_is_pow2(out, n) && dir >= 0));
        else
            to_min = away;
        if (to_min) {
            for (int i = 0; i < n; ++i) out[i] = 0;
            out[n - 1] = 1ULL << 63;
            res.exp = LIMB_EMIN;
            dir = 1;
        } else {
            res = limb_res(LK_ZERO, neg);
            dir = -1;
        }
    }
    res.ord = neg ? -dir : dir;
    return res;
}

// ---- operations (arith.rs) -----------------------------------------------------------------

__device__ LimbRes limb_round_num(LimbNum a, unsigned p, int rnd, u64 *out) {
    if (a.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF) return limb_res(LK_INF, a.neg);
    if (a.kind == LK_ZERO) return limb_res(LK_ZERO, a.neg);
    int dir;
    bool c = limb_round_mant(a.m, a.n, false, a.neg, p, rnd, out, &dir);
    return limb_finish(a.neg, a.exp, c, dir, p, rnd, out);
}

__device__ __forceinline__ int limb_cmp_abs_normal(const LimbNum &a, const LimbNum &b) {
    if (a.exp != b.exp) return a.exp < b.exp ? -1 : 1;
    return mpn_cmp_top_aligned(a.m, a.n, b.m, b.n);
}

__device__ LimbRes limb_add_normal(LimbNum a, LimbNum b, unsigned p, int rnd, u64 *out, u64 *w) {
    int c0 = limb_cmp_abs_normal(a, b);
    if (c0 < 0) {
        LimbNum t = a;
        a = b;
        b = t;
    } else if (c0 == 0 && a.neg != b.neg) {
        return limb_res(LK_ZERO, rnd == LR_D);
    }
    u64 d = (u64)(a.exp - b.exp);
    int na = a.n, nb = b.n, n = limb_limbs(p);
    int k = (na > nb ? na : nb);
    k = (k > n ? k : n) + 2;
    u64 *wa = w;
    int a_off = k - 1 - na;
    u64 dq = d / 64;
    if (dq > (1ULL << 40)) dq = 1ULL << 40;
    i64 b_off = (i64)(k - 1 - nb) - (i64)dq;
    unsigned dr = (unsigned)(d % 64);
#define LIMB_BL(i) (((i) >= 0 && (i) < (i64)nb) ? b.m[(i)] : 0ULL)
    i64 below = -b_off;
    if (below < 0) below = 0;
    if (below > nb) below = nb;
    bool sticky = false;
    for (int i = 0; i < (int)below; ++i)
        if (b.m[i] != 0) sticky = true;
    if (below < nb && b_off + below == 0) {
        if (((b.m[below] << (63 - dr)) << 1) != 0) sticky = true;
    }
    u64 c = 0;
    bool same = a.neg == b.neg;
    for (int j = 0; j < k; ++j) {
        i64 i = (i64)j - b_off;
        u64 bs = (LIMB_BL(i) >> dr) | ((LIMB_BL(i + 1) << (63 - dr)) << 1);
        u64 ax = (j >= a_off && j < a_off + na) ? a.m[j - a_off] : 0ULL;
        if (same) {
            u64 s1 = ax + bs;
            u64 c1 = s1 < ax;
            u64 s2 = s1 + c;
            u64 c2 = s2 < s1;
            wa[j] = s2;
            c = c1 | c2;
        } else {
            u64 s1 = ax - bs;
            u64 c1 = bs > ax;
            u64 s2 = s1 - c;
            u64 c2 = c > s1;
            wa[j] = s2;
            c = c1 | c2;
        }
    }
#undef LIMB_BL
    if (!same && sticky) mpn_sub_1(wa, k, 1);
    int t = k - 1;
    while (wa[t] == 0) t -= 1;
    unsigned cz = (unsigned)limb_clz(wa[t]);
    i64 lz = (i64)(k - 1 - t) * 64 + cz;
    mpn_lshift(wa, t + 1, cz);
    i64 exp = a.exp + 64 - lz;
    int dir;
    bool carry = limb_round_mant(wa, t + 1, sticky, a.neg, p, rnd, out, &dir);
    return limb_finish(a.neg, exp, carry, dir, p, rnd, out);
}

__device__ LimbRes limb_add(LimbNum a, LimbNum b, unsigned p, int rnd, u64 *out, u64 *w) {
    if (a.kind == LK_NAN || b.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF && b.kind == LK_INF) return a.neg == b.neg ? limb_res(LK_INF, a.neg) : limb_res(LK_NAN, 0);
    if (a.kind == LK_INF) return limb_res(LK_INF, a.neg);
    if (b.kind == LK_INF) return limb_res(LK_INF, b.neg);
    if (a.kind == LK_ZERO && b.kind == LK_ZERO) return limb_res(LK_ZERO, a.neg == b.neg ? a.neg : rnd == LR_D);
    if (a.kind == LK_ZERO) return limb_round_num(b, p, rnd, out);
    if (b.kind == LK_ZERO) return limb_round_num(a, p, rnd, out);
    return limb_add_normal(a, b, p, rnd, out, w);
}

__device__ i64 limb_exact_mul(const LimbNum &a, const LimbNum &b, u64 *prod) {
    if (a.n >= b.n)
        mpn_mul(prod, a.m, a.n, b.m, b.n);
    else
        mpn_mul(prod, b.m, b.n, a.m, a.n);
    int len = a.n + b.n;
    i64 exp = a.exp + b.exp;
    if (prod[len - 1] >> 63 == 0) {
        mpn_lshift(prod, len, 1);
        exp -= 1;
    }
    return exp;
}

__device__ LimbRes limb_mul(LimbNum a, LimbNum b, unsigned p, int rnd, u64 *out, u64 *w) {
    int neg = a.neg != b.neg;
    if (a.kind == LK_NAN || b.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if ((a.kind == LK_INF && b.kind == LK_ZERO) || (a.kind == LK_ZERO && b.kind == LK_INF)) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF || b.kind == LK_INF) return limb_res(LK_INF, neg);
    if (a.kind == LK_ZERO || b.kind == LK_ZERO) return limb_res(LK_ZERO, neg);
    i64 exp = limb_exact_mul(a, b, w);
    int dir;
    bool carry = limb_round_mant(w, a.n + b.n, false, neg, p, rnd, out, &dir);
    return limb_finish(neg, exp, carry, dir, p, rnd, out);
}

__device__ LimbRes limb_fma(LimbNum a, LimbNum b, LimbNum c, unsigned p, int rnd, u64 *out, u64 *w) {
    int neg = a.neg != b.neg;
    if (a.kind == LK_NAN || b.kind == LK_NAN || c.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF || b.kind == LK_INF) {
        if (a.kind == LK_ZERO || b.kind == LK_ZERO) return limb_res(LK_NAN, 0);
        if (c.kind == LK_INF && c.neg != neg) return limb_res(LK_NAN, 0);
        return limb_res(LK_INF, neg);
    }
    if (c.kind == LK_INF) return limb_res(LK_INF, c.neg);
    if (a.kind == LK_ZERO || b.kind == LK_ZERO) {
        LimbNum z;
        z.kind = LK_ZERO;
        z.neg = neg;
        z.exp = 0;
        z.m = w;
        z.n = 0;
        return limb_add(z, c, p, rnd, out, w);
    }
    if (c.kind == LK_ZERO) return limb_mul(a, b, p, rnd, out, w);
    int len = a.n + b.n;
    i64 exp = limb_exact_mul(a, b, w);
    LimbNum ab;
    ab.kind = LK_NORMAL;
    ab.neg = neg;
    ab.exp = exp;
    ab.m = w;
    ab.n = len;
    return limb_add_normal(ab, c, p, rnd, out, w + len);
}

__device__ LimbRes limb_div(LimbNum a, LimbNum b, unsigned p, int rnd, u64 *out, u64 *w) {
    int neg = a.neg != b.neg;
    if (a.kind == LK_NAN || b.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if ((a.kind == LK_INF && b.kind == LK_INF) || (a.kind == LK_ZERO && b.kind == LK_ZERO)) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF) return limb_res(LK_INF, neg);
    if (b.kind == LK_INF) return limb_res(LK_ZERO, neg);
    if (a.kind == LK_ZERO) return limb_res(LK_ZERO, neg);
    if (b.kind == LK_ZERO) return limb_res(LK_INF, neg);
    int na = a.n, nb = b.n;
    int nq = limb_limbs(p + 1);
    int dn = nb > 2 ? nb : 2;
    int nu = na > dn + nq ? na : dn + nq;
    u64 *dv = w;
    for (int i = 0; i < dn - nb; ++i) dv[i] = 0;
    for (int i = 0; i < nb; ++i) dv[dn - nb + i] = b.m[i];
    u64 *u = w + dn;
    for (int i = 0; i < nu - na; ++i) u[i] = 0;
    for (int i = 0; i < na; ++i) u[nu - na + i] = a.m[i];
    int ql = nu - dn;
    u64 *q = u + nu;
    u64 v = mpn_invert_3by2(dv[dn - 1], dv[dn - 2]);
    u64 qh = mpn_div_qr(q, u, nu, dv, dn, v);
    bool sticky = !mpn_is_zero(u, dn);
    int dir;
    bool carry;
    i64 exp;
    if (qh == 1) {
        q[ql] = 1;
        mpn_lshift(q, ql + 1, 63);
        exp = a.exp - b.exp + 1;
        carry = limb_round_mant(q, ql + 1, sticky, neg, p, rnd, out, &dir);
    } else {
        exp = a.exp - b.exp;
        carry = limb_round_mant(q, ql, sticky, neg, p, rnd, out, &dir);
    }
    return limb_finish(neg, exp, carry, dir, p, rnd, out);
}

__device__ LimbRes limb_sqrt(LimbNum a, unsigned p, int rnd, u64 *out, u64 *w) {
    if (a.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if (a.kind == LK_ZERO) return limb_res(LK_ZERO, a.neg);
    if (a.kind == LK_INF) return a.neg ? limb_res(LK_NAN, 0) : limb_res(LK_INF, 0);
    if (a.neg) return limb_res(LK_NAN, 0);
    int na = a.n;
    int k = limb_limbs(p + 1);
    int k2 = (na + 2) / 2;
    if (k2 > k) k = k2;
    u64 *r = w;
    u64 *s = w + 2 * k;
    u64 *t = s + k;
    for (int i = 0; i < 2 * k - na; ++i) r[i] = 0;
    for (int i = 0; i < na; ++i) r[2 * k - na + i] = a.m[i];
    i64 exp;
    if (a.exp % 2 == 0) {
        exp = a.exp / 2;
    } else {
        mpn_rshift(r, 2 * k, 1);
        exp = (a.exp + 1) / 2;
    }
    bool sticky = mpn_sqrtrem(s, k, r, t);
    int dir;
    bool carry = limb_round_mant(s, k, sticky, 0, p, rnd, out, &dir);
    return limb_finish(0, exp, carry, dir, p, rnd, out);
}

// ---- kernels -------------------------------------------------------------------------------

#define LIMB_OP_ADD 0
#define LIMB_OP_SUB 1
#define LIMB_OP_MUL 2
#define LIMB_OP_FMA 3
#define LIMB_OP_DIV 4
#define LIMB_OP_SQRT 5

template <int L>
__device__ __forceinline__ void limb_load(LimbNum &x, u64 *buf, const u64 *m, const int *e, const unsigned char *ks,
                                          unsigned count, unsigned i, int n) {
    unsigned char b = ks[i];
    x.kind = b & 3;
    x.neg = (b >> 2) & 1;
    x.exp = e[i];
    for (int j = 0; j < n; ++j) buf[j] = m[(u64)j * count + i];
    x.m = buf;
    x.n = n;
}

// One operation on element `i` (also the host shim's entry point).
template <int L>
__device__ void limb_op_elem(int op, int rnd, unsigned p, unsigned count, unsigned i, const u64 *am, const int *ae,
                             const unsigned char *ak, const u64 *bm, const int *be, const unsigned char *bk,
                             const u64 *cm, const int *ce, const unsigned char *ck, u64 *rm, int *re,
                             unsigned char *rk, signed char *rord) {
    u64 abuf[L], bbuf[L], cbuf[L], out[L];
    u64 w[8 * L + 8];
    int n = limb_limbs(p);
    LimbNum a, b, c;
    limb_load<L>(a, abuf, am, ae, ak, count, i, n);
    if (op != LIMB_OP_SQRT) limb_load<L>(b, bbuf, bm, be, bk, count, i, n);
    if (op == LIMB_OP_FMA) limb_load<L>(c, cbuf, cm, ce, ck, count, i, n);
    for (int j = 0; j < n; ++j) out[j] = 0;
    LimbRes r;
    switch (op) {
    case LIMB_OP_ADD: r = limb_add(a, b, p, rnd, out, w); break;
    case LIMB_OP_SUB:
        b.neg = !b.neg;
        r = limb_add(a, b, p, rnd, out, w);
        break;
    case LIMB_OP_MUL: r = limb_mul(a, b, p, rnd, out, w); break;
    case LIMB_OP_FMA: r = limb_fma(a, b, c, p, rnd, out, w); break;
    case LIMB_OP_DIV: r = limb_div(a, b, p, rnd, out, w); break;
    default: r = limb_sqrt(a, p, rnd, out, w); break;
    }
    bool normal = r.kind == LK_NORMAL;
    for (int j = 0; j < n; ++j) rm[(u64)j * count + i] = normal ? out[j] : 0ULL;
    re[i] = normal ? (int)r.exp : 0;
    rk[i] = (unsigned char)(r.kind | (r.neg << 2));
    rord[i] = (signed char)r.ord;
}

#define LIMB_KERNEL(L)                                                                                            \
    extern "C" __global__ void limb_op_##L(int op, int rnd, unsigned p, unsigned count, const u64 *am,           \
                                           const int *ae, const unsigned char *ak, const u64 *bm, const int *be, \
                                           const unsigned char *bk, const u64 *cm, const int *ce,                 \
                                           const unsigned char *ck, u64 *rm, int *re, unsigned char *rk,          \
                                           signed char *rord) {                                                   \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                                       \
        if (i >= count) return;                                                                                   \
        limb_op_elem<L>(op, rnd, p, count, i, am, ae, ak, bm, be, bk, cm, ce, ck, rm, re, rk, rord);              \
    }

LIMB_KERNEL(2)
LIMB_KERNEL(4)
LIMB_KERNEL(8)
LIMB_KERNEL(16)
LIMB_KERNEL(32)
LIMB_KERNEL(64)
