// The Hénon search in fixed-limb floats (`--prec NNNb`), one thread per orbit: the CUDA twin of
// `gpu/src/henon_limb.rs` (whose Rust functions are the CPU reference), appended to limb.cu
// (which provides every correctly rounded operation used here), operation for operation, so
// that the records (status, steps, period, residual, trace, det and every limb of the
// canonical cycle point) are bit-identical to the CPU's, and the iterates to MPFR's.
//
// The map step at precision p (all round to nearest), with a, b and 1 held as 53-bit numbers
// (exact from f64) so that a·x and b·x cost one row of limb products:
//   x2 = x·x;  t = a·x2;  u = 1 + y;  x' = u − t;  y' = b·x.
// The search contract is the expansion search's (search/src/orbit.rs) with hi(z) = z rounded
// to nearest f64: escape checked every 1024 steps and at the end of the transient; first
// close return k ≤ pmax to z_{N_t} in the max norm of the hi parts; confirmation over one more
// period with the f64 Jacobian product from the hi parts and the cycle point of smallest
// hi(x) (earlier on ties).
//
// x·x is computed by hl_sqr: the same exact 2n-limb product as limb_mul's (so the same rounded
// result, bit for bit) with about half the limb products (schoolbook squaring: every cross
// product a_i·a_j, i < j, once, the sum doubled, plus the diagonal a_i²; GMP's
// mpn_sqr_basecase, Knuth TAOCP vol. 2 §4.3.1 exercise).
//
// Kernels (L = capacity in limbs, 2, 4, …, 64; p ≤ 64·L, p ≥ 64; one L per program: the
// program appends `HENON_LIMB_KERNELS(L)`):
//   henon_limb_<L>: orbit g = first + i of a batch "parameters × initial points"
//     (parameter g / n_inits, initial point g % n_inits); record i into the output arrays.
//   henon_limb_iter_<L>: `steps` map steps from (x0[i], y0[i]) with (a[i], b[i]), no escape
//     check; the final point (for the iteration rate and the MPFR identity check).
// Limb arrays are interleaved (limb j of element i at m[j * count + i]), exponents int, kind |
// sign << 2 one byte each, as in limb.cu.

#define HL_PARAM_PREC 53u
#define HL_ESCAPE_CHECK 1024ULL
#define HL_ESCAPED 0u
#define HL_NO_CYCLE 1u
#define HL_UNCONFIRMED 2u
#define HL_CYCLE 3u

// A number in per-thread storage (up to L limbs); m is meaningful only for LK_NORMAL.
template <int L>
struct HLNum {
    int kind;
    int neg;
    i64 exp;
    u64 m[L];
};

template <int L>
__device__ __forceinline__ LimbNum hl_view(const HLNum<L> &x, int n) {
    LimbNum v;
    v.kind = x.kind;
    v.neg = x.neg;
    v.exp = x.exp;
    v.m = x.m;
    v.n = n;
    return v;
}

template <int L>
__device__ __forceinline__ void hl_take(HLNum<L> &r, LimbRes res) {
    r.kind = res.kind;
    r.neg = res.neg;
    r.exp = res.kind == LK_NORMAL ? res.exp : 0;
}

template <int L>
__device__ __forceinline__ void hl_copy(HLNum<L> &r, const HLNum<L> &x, int n) {
    r.kind = x.kind;
    r.neg = x.neg;
    r.exp = x.exp;
    for (int j = 0; j < n; ++j) r.m[j] = x.m[j];
}

// v exactly (p ≥ 53), as LimbFloat::from_f64: conv.rs `f64_parts`, then rounding to p bits.
template <int L>
__device__ void hl_from_f64(HLNum<L> &r, double v, unsigned p) {
    long long bits = __double_as_longlong(v);
    int neg = bits < 0;
    u64 ub = (u64)bits;
    u64 be = (ub >> 52) & 0x7ff;
    u64 frac = ub & ((1ULL << 52) - 1);
    LimbNum a;
    u64 limb = 0;
    a.neg = neg;
    a.exp = 0;
    a.m = &limb;
    a.n = 1;
    if (be == 0x7ff) {
        a.kind = frac != 0 ? LK_NAN : LK_INF;
        if (frac != 0) a.neg = 0;
    } else if (be == 0 && frac == 0) {
        a.kind = LK_ZERO;
    } else {
        u64 mant;
        i64 q;
        if (be == 0) {
            mant = frac;
            q = -1074;
        } else {
            mant = frac | (1ULL << 52);
            q = (i64)be - 1075;
        }
        int lz = limb_clz(mant);
        a.kind = LK_NORMAL;
        a.exp = q + 64 - lz;
        limb = mant << lz;
    }
    hl_take(r, limb_round_num(a, p, LR_N, r.m));
}

// The f64 nearest to a (ties to even; IEEE subnormals; ±∞ beyond the range): conv.rs `to_f64`
// in round-to-nearest.
__device__ double hl_to_f64(const LimbNum &a) {
    double sign = a.neg ? -1.0 : 1.0;
    if (a.kind == LK_NAN) return __longlong_as_double(0x7ff8000000000000LL);
    if (a.kind == LK_INF) return sign * __longlong_as_double(0x7ff0000000000000LL);
    if (a.kind == LK_ZERO) return sign * 0.0;
    i64 e = a.exp;
    i64 bits = e >= -1021 ? 53 : e + 1074;
    if (bits <= 0) {
        bool up = bits == 0 && !limb_is_pow2(a.m, a.n);
        return sign * (up ? __longlong_as_double(1LL) : 0.0);
    }
    u64 out[1];
    int dir;
    bool carry = limb_round_mant(a.m, a.n, false, a.neg, (unsigned)bits, LR_N, out, &dir);
    e += carry ? 1 : 0;
    if (e > 1024) return sign * __longlong_as_double(0x7ff0000000000000LL);
    u64 mant = out[0] >> 11;
    if (e >= -1021) {
        u64 be = (u64)(e + 1022);
        return sign * __longlong_as_double((long long)((be << 52) | (mant & ((1ULL << 52) - 1))));
    }
    unsigned s = (unsigned)(-1021 - e);
    return sign * __longlong_as_double((long long)(mant >> s));
}

template <int L>
__device__ __forceinline__ double hl_hi(const HLNum<L> &x, int n) {
    return hl_to_f64(hl_view(x, n));
}

// The map's constants: a, b and 1 as 53-bit numbers (one limb).
struct HLMap {
    HLNum<1> a, b, one;
};

// The exact square of a (n limbs) into r[0..2n): the cross products a_i·a_j (i < j) once, their
// sum doubled (it is < 2^(128n−1), so the shift loses nothing), plus the diagonal a_i² (the
// total a² < 2^(128n) leaves no carry). The same integer as mpn_mul(r, a, n, a, n).
__device__ __forceinline__ void mpn_sqr(u64 *r, const u64 *a, int n) {
    for (int i = 0; i < 2 * n; ++i) r[i] = 0;
    for (int i = 0; i + 1 < n; ++i) r[i + n] = mpn_addmul_1(r + 2 * i + 1, a + i + 1, n - i - 1, a[i]);
    // r = 2·r + Σ a_i²·2^(128i), limb pair by limb pair (the shift fused in).
    u64 prev = 0, c = 0;
    for (int i = 0; i < n; ++i) {
        u64 d0 = a[i] * a[i];
        u64 d1 = __umul64hi(a[i], a[i]);
        u64 r0 = r[2 * i], r1 = r[2 * i + 1];
        u64 s0 = (r0 << 1) | (prev >> 63);
        u64 s1 = (r1 << 1) | (r0 >> 63);
        prev = r1;
        u64 x = s0 + d0;
        u64 c1 = x < d0;
        x += c;
        c1 += x < c;
        u64 y = s1 + d1;
        u64 c2 = y < d1;
        y += c1;
        c2 += y < c1;
        r[2 * i] = x;
        r[2 * i + 1] = y;
        c = c2;
    }
}

// x·x rounded to p bits: limb_mul(a, a, …) bit for bit (same exact product, normalization and
// rounding code), with mpn_sqr for the product.
__device__ LimbRes hl_sqr(LimbNum a, unsigned p, int rnd, u64 *out, u64 *w) {
    if (a.kind == LK_NAN) return limb_res(LK_NAN, 0);
    if (a.kind == LK_INF) return limb_res(LK_INF, 0);
    if (a.kind == LK_ZERO) return limb_res(LK_ZERO, 0);
    mpn_sqr(w, a.m, a.n);
    int len = 2 * a.n;
    i64 exp = a.exp + a.exp;
    if (w[len - 1] >> 63 == 0) {
        mpn_lshift(w, len, 1);
        exp -= 1;
    }
    int dir;
    bool carry = limb_round_mant(w, len, false, 0, p, rnd, out, &dir);
    return limb_finish(0, exp, carry, dir, p, rnd, out);
}

// One map step in place (henon_limb.rs `Map::step`); t1..t3 and w are scratch.
template <int L>
__device__ __forceinline__ void hl_step(HLNum<L> &x, HLNum<L> &y, const HLMap &f, unsigned p, int n, HLNum<L> &t1,
                                        HLNum<L> &t2, HLNum<L> &t3, u64 *w) {
    LimbNum a = hl_view(f.a, 1), b = hl_view(f.b, 1), one = hl_view(f.one, 1);
    LimbNum xv = hl_view(x, n);
    hl_take(t1, hl_sqr(xv, p, LR_N, t1.m, w));                    // x2 = x·x
    hl_take(t2, limb_mul(a, hl_view(t1, n), p, LR_N, t2.m, w));   // t = a·x2
    hl_take(t1, limb_add(one, hl_view(y, n), p, LR_N, t1.m, w));  // u = 1 + y
    LimbNum tn = hl_view(t2, n);
    tn.neg = !tn.neg;
    hl_take(t3, limb_add(hl_view(t1, n), tn, p, LR_N, t3.m, w));  // x' = u − t
    hl_take(y, limb_mul(b, xv, p, LR_N, y.m, w));                 // y' = b·x
    hl_copy(x, t3, n);
}

__device__ __forceinline__ void hl_map(HLMap &f, double a, double b) {
    hl_from_f64<1>(f.a, a, HL_PARAM_PREC);
    hl_from_f64<1>(f.b, b, HL_PARAM_PREC);
    hl_from_f64<1>(f.one, 1.0, HL_PARAM_PREC);
}

template <int L>
__device__ __forceinline__ void hl_store(const HLNum<L> &x, int n, unsigned count, unsigned i, u64 *m, int *e,
                                         unsigned char *k) {
    bool normal = x.kind == LK_NORMAL;
    for (int j = 0; j < n; ++j) m[(u64)j * count + i] = normal ? x.m[j] : 0ULL;
    e[i] = normal ? (int)x.exp : 0;
    k[i] = (unsigned char)(x.kind | (x.neg << 2));
}

__device__ __forceinline__ bool hl_escaped(double hx, double hy, double esc) {
    return !(fabs(hx) <= esc && fabs(hy) <= esc);
}

__device__ __forceinline__ double hl_dist(double ax, double ay, double bx, double by) {
    double dx = fabs(ax - bx);
    double dy = fabs(ay - by);
    return dx >= dy ? dx : dy;
}

// The search contract on one orbit; writes record i (henon_limb.rs `limb_orbit`).
template <int L>
__device__ void henon_limb_elem(unsigned p, unsigned n_inits, u64 first, unsigned count, unsigned i, const double *pa,
                                const double *pb, const double *ix, const double *iy, u64 nt, unsigned pmax,
                                double tol, double esc, unsigned *st, u64 *steps, unsigned *per, double *res,
                                double *tr, double *det, u64 *xm, int *xe, unsigned char *xk, u64 *ym, int *ye,
                                unsigned char *yk) {
    int n = limb_limbs(p);
    u64 g = first + i;
    u64 pi = g / n_inits, ii = g % n_inits;
    double a = pa[pi], b = pb[pi];
    HLMap f;
    hl_map(f, a, b);
    HLNum<L> x, y, t1, t2, t3, mx, my;
    u64 w[2 * L + 4];
    hl_from_f64<L>(x, ix[ii], p);
    hl_from_f64<L>(y, iy[ii], p);
    mx.kind = LK_ZERO;
    mx.neg = 0;
    mx.exp = 0;
    my = mx;
    unsigned status = HL_NO_CYCLE;
    u64 nsteps = nt + pmax;
    unsigned period = 0;
    double residual = __longlong_as_double(0x7ff8000000000000LL);
    double trace = residual, dt = residual;
    // 1. Transient, escape checked at multiples of 1024 and at N_t.
    u64 s = 0;
    bool gone = false;
    while (s < nt) {
        u64 block = HL_ESCAPE_CHECK - s % HL_ESCAPE_CHECK;
        if (block > nt - s) block = nt - s;
        for (u64 j = 0; j < block; ++j) hl_step<L>(x, y, f, p, n, t1, t2, t3, w);
        s += block;
        if (hl_escaped(hl_hi(x, n), hl_hi(y, n), esc)) {
            status = HL_ESCAPED;
            nsteps = s;
            gone = true;
            break;
        }
    }
    if (!gone) {
        // 2. The smallest k ≤ pmax with a close return to r = z_{N_t} (hi parts only).
        double rx = hl_hi(x, n), ry = hl_hi(y, n);
        for (unsigned k = 1; k <= pmax; ++k) {
            hl_step<L>(x, y, f, p, n, t1, t2, t3, w);
            double hx = hl_hi(x, n), hy = hl_hi(y, n);
            if (hl_escaped(hx, hy, esc)) {
                status = HL_ESCAPED;
                nsteps = nt + k;
                gone = true;
                break;
            }
            if (hl_dist(hx, hy, rx, ry) < tol) {
                period = k;
                break;
            }
        }
        if (!gone && period > 0) {
            // 3. Confirmation over one more period: canonical point, trace estimate.
            unsigned k = period;
            double cx = hl_hi(x, n), cy = hl_hi(y, n);
            hl_copy(mx, x, n);
            hl_copy(my, y, n);
            double mhi = cx;
            double m00 = 1.0, m01 = 0.0, m10 = 0.0, m11 = 1.0;
            for (unsigned j = 0; j < k; ++j) {
                double xhi = hl_hi(x, n);
                double j00 = (-2.0 * a) * xhi;
                double n00 = j00 * m00 + m10;
                double n01 = j00 * m01 + m11;
                double n10 = b * m00;
                double n11 = b * m01;
                m00 = n00;
                m01 = n01;
                m10 = n10;
                m11 = n11;
                if (j > 0 && xhi < mhi) {
                    hl_copy(mx, x, n);
                    hl_copy(my, y, n);
                    mhi = xhi;
                }
                hl_step<L>(x, y, f, p, n, t1, t2, t3, w);
                if (hl_escaped(hl_hi(x, n), hl_hi(y, n), esc)) {
                    status = HL_ESCAPED;
                    nsteps = nt + k + j + 1;
                    period = 0;
                    gone = true;
                    break;
                }
            }
            if (!gone) {
                double d = hl_dist(hl_hi(x, n), hl_hi(y, n), cx, cy);
                nsteps = nt + 2 * (u64)k;
                residual = d;
                if (!(d < tol)) {
                    status = HL_UNCONFIRMED;
                } else {
                    status = HL_CYCLE;
                    trace = m00 + m11;
                    dt = 1.0;
                    for (unsigned j = 0; j < k; ++j) dt = dt * (-b);
                }
            }
        }
    }
    if (status != HL_CYCLE) {
        mx.kind = LK_ZERO;
        mx.neg = 0;
        my = mx;
    }
    st[i] = status;
    steps[i] = nsteps;
    per[i] = status == HL_ESCAPED ? 0u : period;
    res[i] = residual;
    tr[i] = trace;
    det[i] = dt;
    hl_store(mx, n, count, i, xm, xe, xk);
    hl_store(my, n, count, i, ym, ye, yk);
}

// `steps` map steps of orbit i, final point to the output arrays (henon_limb.rs
// `limb_iterate`).
template <int L>
__device__ void henon_limb_iter_elem(unsigned p, unsigned count, unsigned i, u64 nsteps, const double *pa,
                                     const double *pb, const double *ix, const double *iy, u64 *xm, int *xe,
                                     unsigned char *xk, u64 *ym, int *ye, unsigned char *yk) {
    int n = limb_limbs(p);
    HLMap f;
    hl_map(f, pa[i], pb[i]);
    HLNum<L> x, y, t1, t2, t3;
    u64 w[2 * L + 4];
    hl_from_f64<L>(x, ix[i], p);
    hl_from_f64<L>(y, iy[i], p);
    for (u64 s = 0; s < nsteps; ++s) hl_step<L>(x, y, f, p, n, t1, t2, t3, w);
    hl_store(x, n, count, i, xm, xe, xk);
    hl_store(y, n, count, i, ym, ye, yk);
}

#define HENON_LIMB_KERNELS(L)                                                                                      \
    extern "C" __global__ void henon_limb_##L(                                                                     \
        unsigned p, unsigned n_inits, u64 first, unsigned count, const double *pa, const double *pb,               \
        const double *ix, const double *iy, u64 nt, unsigned pmax, double tol, double esc, unsigned *st,           \
        u64 *steps, unsigned *per, double *res, double *tr, double *det, u64 *xm, int *xe, unsigned char *xk,      \
        u64 *ym, int *ye, unsigned char *yk) {                                                                     \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                                        \
        if (i >= count) return;                                                                                    \
        henon_limb_elem<L>(p, n_inits, first, count, i, pa, pb, ix, iy, nt, pmax, tol, esc, st, steps, per, res,   \
                           tr, det, xm, xe, xk, ym, ye, yk);                                                       \
    }                                                                                                              \
    extern "C" __global__ void henon_limb_iter_##L(unsigned p, unsigned count, u64 nsteps, const double *pa,       \
                                                   const double *pb, const double *ix, const double *iy, u64 *xm,  \
                                                   int *xe, unsigned char *xk, u64 *ym, int *ye,                   \
                                                   unsigned char *yk) {                                            \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                                        \
        if (i >= count) return;                                                                                    \
        henon_limb_iter_elem<L>(p, count, i, nsteps, pa, pb, ix, iy, xm, xe, xk, ym, ye, yk);                      \
    }

// No instantiation here: each program of henon_limb.rs appends one `HENON_LIMB_KERNELS(L)` line
// (one capacity per program, so that a run compiles only the capacity it uses).
