// expanse-gpu accurate tier: the *accurate* expansion arithmetic of expanse-core
// (core/src/accurate.rs, core/src/dw.rs, the parts of core/src/eft.rs it uses, and the few
// helpers of core/src/expansion.rs and core/src/float.rs they need), repeated operation for
// operation so that for the same inputs the results are bit-identical to the Rust methods
// `Expansion::{add, sub, add_term, mul, sqr, mul_term, div, div_term, recip, sqrt, cmp_value}`
// (NaN payloads aside: a GPU writes its canonical NaN). Follows prelude.cu (T, NT, E, 2Sum,
// Fast2Sum, 2ProdFMA). Keep in step with those Rust files; gpu/tests/it/accurate_on_cpu.rs
// proves the two agree (host build), `expanse bench functions --check` on a device.
//
// Algorithms (see core/src/accurate.rs for the proofs and references): N = 1 the IEEE
// operation; N = 2 the double-word algorithms of Joldes, Muller, Popescu (ACM TOMS 2017) for
// add/mul/mul_term; otherwise exact error-free lists renormalised by VecSum + VecSumErrBranch
// (JMMP 2016 Alg. 6) with a run-time certificate (`certified_round`), and, when that fails, an
// exact reference through a Shewchuk accumulator (`ExactSum`, 160 terms).
//
// Everything is generic over the number of terms M (`X<M>`), because the elementary functions
// (functions.cu) run parts of their work at fewer terms than N (and N = 1 at 2 terms). The
// public entry points at N = NT terms on the prelude's E are at the end of this file:
//
//   acc_zero, acc_from, acc_neg, acc_add, acc_sub, acc_add_term, acc_mul, acc_sqr,
//   acc_mul_term, acc_div, acc_div_term, acc_recip, acc_sqrt, acc_cmp;
//
// and register-resident variants of the hot ones with the same results (acc_add_reg,
// acc_sub_reg, acc_add_term_reg, acc_mul_reg, acc_sqr_reg, acc_mul_term_reg, acc_cmp_reg; generic
// ac_add_reg<M>, ac_mul_reg<M>, ...), inlined, for the array and BLAS programs.
//
// Memory: the fast paths keep lists of up to 65 terms (mul at N = 8) in local arrays; the
// exact fallback (rare) an ExactSum of 160 terms (1.3 KB for double) on the thread's stack.

#ifndef EXPANSE_ACCURATE_CU
#define EXPANSE_ACCURATE_CU

// The qualifier of the heavy parts (the fast paths with their certified renormalisation):
// out of line by default, which keeps programs that use many operations (functions.cu: 25 MB
// of PTX at N = 8 when everything is inlined) small and quick to compile; a program may
// define ACC_HEAVY (e.g. as empty, to let the compiler inline) before this file.
#ifndef ACC_HEAVY
#define ACC_HEAVY __noinline__
#endif

// ---- term helpers (core/src/float.rs) -------------------------------------------------------

// Significand precision p of T (53 or 24).
#define T_PREC ((int)(sizeof(T) == 8 ? 53 : 24))

template <int M> struct X {
    T t[M];
};

__device__ __forceinline__ u64 t_bits(T x) {
    if constexpr (sizeof(T) == 8) {
        return (u64)__double_as_longlong((double)x);
    } else {
        return (u64)__float_as_uint((float)x);
    }
}

__device__ __forceinline__ T t_of_bits(u64 b) {
    if constexpr (sizeof(T) == 8) {
        return (T)__longlong_as_double((long long)b);
    } else {
        return (T)__uint_as_float((unsigned)b);
    }
}

__device__ __forceinline__ u64 t_sign_mask() { return sizeof(T) == 8 ? 0x8000000000000000ull : 0x80000000ull; }
__device__ __forceinline__ u64 t_exp_mask() { return sizeof(T) == 8 ? 0x7ff0000000000000ull : 0x7f800000ull; }

__device__ __forceinline__ T t_abs(T x) { return t_of_bits(t_bits(x) & ~t_sign_mask()); }
__device__ __forceinline__ bool t_finite(T x) { return (t_bits(x) & t_exp_mask()) != t_exp_mask(); }
__device__ __forceinline__ bool t_isnan(T x) { return x != x; }
// T::from_f64(f64::NAN): the quiet NaN with zero payload.
__device__ __forceinline__ T t_nan() { return t_of_bits(sizeof(T) == 8 ? 0x7ff8000000000000ull : 0x7fc00000ull); }
__device__ __forceinline__ T t_sqrt(T x) { return sqrt(x); }

// ulp(x) (core/src/float.rs `ulp`): bit level, for finite x.
__device__ __forceinline__ T t_ulp(T x) {
    const u64 m = (u64)(T_PREC - 1);
    u64 e = (t_bits(x) & ~t_sign_mask()) >> m;
    u64 bits;
    if (e > m) {
        bits = (e - m) << m;
    } else if (e == 0) {
        bits = 1;
    } else {
        bits = 1ull << (e - 1);
    }
    return t_of_bits(bits);
}

// 2^e for MIN_EXP - 1 <= e <= MAX_EXP - 1 (a normal number), from its bits.
__device__ __forceinline__ T t_pow2_normal(int e) {
    const int m = T_PREC - 1;
    const int bias = sizeof(T) == 8 ? 1023 : 127;
    return t_of_bits(((u64)(e + bias)) << m);
}

// FloatTerm::ldexp: x·2^e, exact unless the result overflows or is subnormal; the same steps
// as the Rust (one multiplication in range, else steps by representable powers of two).
__device__ __forceinline__ T t_ldexp(T x, int e) {
    const int min_step = sizeof(T) == 8 ? -1022 : -126;
    const int step = sizeof(T) == 8 ? 1023 : 127;
    if (e >= min_step && e <= step) return x * t_pow2_normal(e);
    while (e > step) {
        x = x * t_pow2_normal(step);
        e -= step;
    }
    while (e < min_step) {
        x = x * t_pow2_normal(min_step);
        e -= min_step;
    }
    return x * t_pow2_normal(e);
}

// ---- expansion helpers (core/src/expansion.rs) ------------------------------------------------

template <int M> __device__ __forceinline__ X<M> x_zero() {
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = T(0);
    return r;
}

template <int M> __device__ __forceinline__ X<M> x_from(T v) {
    X<M> r = x_zero<M>();
    r.t[0] = v;
    return r;
}

template <int M> __device__ __forceinline__ X<M> x_one() { return x_from<M>(T(1)); }

template <int M> __device__ __forceinline__ X<M> x_neg(const X<M> &a) {
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = -a.t[k];
    return r;
}

template <int M> __device__ __forceinline__ X<M> x_abs(const X<M> &a) { return a.t[0] < T(0) ? x_neg(a) : a; }

template <int M> __device__ __forceinline__ X<M> x_ldexp(const X<M> &a, int e) {
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = t_ldexp(a.t[k], e);
    return r;
}

template <int M> __device__ __forceinline__ bool x_finite(const X<M> &a) {
    bool ok = true;
#pragma unroll
    for (int k = 0; k < M; ++k) ok = ok && t_finite(a.t[k]);
    return ok;
}

template <int M> __device__ __forceinline__ bool x_isnan(const X<M> &a) {
    bool n = false;
#pragma unroll
    for (int k = 0; k < M; ++k) n = n || t_isnan(a.t[k]);
    return n;
}

template <int M> __device__ __forceinline__ bool x_is_zero(const X<M> &a) { return a.t[0] == T(0); }

// ---- error-free helpers (core/src/eft.rs) -----------------------------------------------------

// VecSum: chain of 2Sum from the last element to the first.
__device__ __forceinline__ void ac_vec_sum(T *x, int n) {
    if (n < 2) return;
    T s = x[n - 1];
    for (int i = n - 2; i >= 0; --i) {
        T hi, lo;
        two_sum(x[i], s, hi, lo);
        x[i + 1] = lo;
        s = hi;
    }
    x[0] = s;
}

// ---- double-word algorithms (core/src/dw.rs) --------------------------------------------------

__device__ __forceinline__ void dw_add(T x0, T x1, T y0, T y1, T &zh, T &zl) {
    T xh, xl, yh, yl, sh, sl, th, tl, vh, vl;
    fast_two_sum(x0, x1, xh, xl);
    fast_two_sum(y0, y1, yh, yl);
    two_sum(xh, yh, sh, sl);
    two_sum(xl, yl, th, tl);
    T c = sl + th;
    fast_two_sum(sh, c, vh, vl);
    T w = tl + vl;
    fast_two_sum(vh, w, zh, zl);
}

__device__ __forceinline__ void dw_mul(T x0, T x1, T y0, T y1, T &zh, T &zl) {
    T xh, xl, yh, yl, ch, cl1;
    fast_two_sum(x0, x1, xh, xl);
    fast_two_sum(y0, y1, yh, yl);
    two_prod(xh, yh, ch, cl1);
    T tl0 = xl * yl;
    T tl1 = fma(xh, yl, tl0);
    T cl2 = fma(xl, yh, tl1);
    T cl3 = cl1 + cl2;
    fast_two_sum(ch, cl3, zh, zl);
}

__device__ __forceinline__ void dw_mul_fp(T x0, T x1, T y, T &zh, T &zl) {
    T xh, xl, ch, cl1;
    fast_two_sum(x0, x1, xh, xl);
    two_prod(xh, y, ch, cl1);
    T cl3 = fma(xl, y, cl1);
    fast_two_sum(ch, cl3, zh, zl);
}

// ---- exact accumulator (ExactSum) ----------------------------------------------------------------

#define EXACT_CAP 160

struct ExactSum {
    T terms[EXACT_CAP];
    int len;
};

__device__ __forceinline__ void es_init(ExactSum &s) { s.len = 0; }

// GrowExpansion with zero elimination (exact).
__device__ __noinline__ void es_add(ExactSum &s, T b) {
    if (b == T(0)) return;
    T q = b;
    int out = 0;
    for (int i = 0; i < s.len; ++i) {
        T sum, h;
        two_sum(q, s.terms[i], sum, h);
        if (h != T(0)) {
            s.terms[out] = h;
            out += 1;
        }
        q = sum;
    }
    if (q != T(0)) {
        s.terms[out] = q;
        out += 1;
    }
    s.len = out;
}

__device__ __forceinline__ void es_add_prod(ExactSum &s, T a, T b) {
    T p, e;
    two_prod(a, b, p, e);
    es_add(s, e);
    es_add(s, p);
}

__device__ __forceinline__ bool es_finite(const ExactSum &s) {
    for (int i = 0; i < s.len; ++i)
        if (!t_finite(s.terms[i])) return false;
    return true;
}

// VecSumErrBranch on the terms in decreasing order into out[0..m).
__device__ __noinline__ int es_round_into(const ExactSum &s, T *out, int m) {
    for (int i = 0; i < m; ++i) out[i] = T(0);
    if (s.len == 0) return 0;
    int j = 0;
    T eps = s.terms[s.len - 1];
    for (int i = s.len - 2; i >= 0; --i) {
        T r, err;
        two_sum(eps, s.terms[i], r, err);
        if (err != T(0)) {
            out[j] = r;
            j += 1;
            if (j >= m) return m;
            eps = err;
        } else {
            eps = r;
        }
    }
    if (eps != T(0)) {
        out[j] = eps;
        j += 1;
    }
    return j;
}

__device__ __forceinline__ T es_lead(const ExactSum &s) {
    T out[1];
    es_round_into(s, out, 1);
    return out[0];
}

// ---- IEEE settling (accurate.rs lead_or_nonfinite, settle, finish) -----------------------------

template <int M> __device__ __forceinline__ T ac_lead(const X<M> &x) {
    if (x_finite(x)) return x.t[0];
    T a = T(0);
#pragma unroll
    for (int k = 0; k < M; ++k) a = a + x.t[k];
    return a;
}

template <int M> __device__ __forceinline__ X<M> ac_settle(const T *result, T naive) {
    if (!t_finite(naive)) return x_from<M>(naive);
    bool fin = true;
    for (int k = 0; k < M; ++k) fin = fin && t_finite(result[k]);
    if (!fin) return x_from<M>(t_nan());
    if (result[0] == T(0)) return x_from<M>(naive == T(0) ? naive : T(0));
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = result[k];
    return r;
}

template <int M> __device__ __forceinline__ X<M> ac_settle_nan(T naive) {
    T r[M];
#pragma unroll
    for (int k = 0; k < M; ++k) r[k] = t_nan();
    return ac_settle<M>(r, naive);
}

template <int M> __device__ X<M> ac_finish(const ExactSum &acc, T naive) {
    if (!es_finite(acc)) return ac_settle_nan<M>(naive);
    T out[M];
    es_round_into(acc, out, M);
    if constexpr (M == 2) {
        T h, l;
        fast_two_sum(out[0], out[1], h, l);
        out[0] = h;
        out[1] = l;
    }
    return ac_settle<M>(out, naive);
}

// The exact sum of terms[0..len) rounded to M terms (accurate.rs `round_exact_sum`); finite
// terms.
template <int M> __device__ ACC_HEAVY X<M> ac_round_exact_sum(const T *terms, int len) {
    ExactSum acc;
    es_init(acc);
    for (int i = len - 1; i >= 0; --i) es_add(acc, terms[i]);
    T naive = T(0);
    for (int i = 0; i < len; ++i) naive = naive + terms[i];
    return ac_finish<M>(acc, t_finite(naive) ? naive : T(1));
}

// Expansion::from_terms: the exact sum of any M terms rounded to M terms.
template <int M> __device__ X<M> ac_from_terms(const T *terms) {
    bool fin = true;
    for (int k = 0; k < M; ++k) fin = fin && t_finite(terms[k]);
    if (!fin) {
        T s = T(0);
        for (int k = 0; k < M; ++k) s = s + terms[k];
        return x_from<M>(s);
    }
    return ac_round_exact_sum<M>(terms, M);
}

// ---- certified renormalisation ------------------------------------------------------------------

// VecSumErrBranch on v (unchanged) with the run-time certificate (accurate.rs
// `err_branch_certified`); false when it fails.
template <int M> __device__ bool ac_err_branch_certified(const T *v, int len, T *res) {
    T out[M];
#pragma unroll
    for (int k = 0; k < M; ++k) out[k] = T(0);
    int j = 0;
    T eps = v[0];
    int k = 1;
    while (k < len) {
        T r, err;
        two_sum(eps, v[k], r, err);
        k += 1;
        if (err != T(0)) {
            out[j] = r;
            j += 1;
            eps = err;
            if (j == M) break;
        } else {
            eps = r;
        }
    }
    if (j < M) {
        if (eps != T(0)) out[j] = eps;
    } else {
        T a = t_abs(eps);
        for (int i = k; i < len; ++i) a = a + t_abs(v[i]);
        const T four = T(1) + T(1) + T(1) + T(1);
        const T three = T(1) + T(1) + T(1);
        if (!(a * four <= t_ulp(out[M - 1]) * three)) return false;
    }
    if (!t_finite(out[0])) return false;
    for (int i = 1; i < M; ++i) {
        bool ok = out[i] == T(0) || (out[i - 1] != T(0) && t_abs(out[i]) <= t_ulp(out[i - 1]));
        if (!ok) return false;
    }
#pragma unroll
    for (int i = 0; i < M; ++i) res[i] = out[i];
    return true;
}

// Up to three VecSum passes, each followed by the certified VecSumErrBranch.
template <int M> __device__ ACC_HEAVY bool ac_certified_round(T *v, int len, T *out) {
    for (int pass = 0; pass < 3; ++pass) {
        ac_vec_sum(v, len);
        if (ac_err_branch_certified<M>(v, len, out)) return true;
    }
    return false;
}

// ---- fast paths ---------------------------------------------------------------------------------

// The exact term lists of the N >= 3 fast paths (accurate.rs fast_add, fast_mul,
// fast_mul_term), shared by the generic paths below and the register-resident ones further down.

// fast_add: the terms of x and y interleaved, the larger magnitude of each pair first (x on ties
// and when a comparison is unordered).
template <int M> __device__ __forceinline__ void ac_add_list(const X<M> &x, const X<M> &y, T (&v)[2 * M]) {
#pragma unroll
    for (int i = 0; i < M; ++i) {
        const bool xf = t_abs(x.t[i]) >= t_abs(y.t[i]);
        v[2 * i] = xf ? x.t[i] : y.t[i];
        v[2 * i + 1] = xf ? y.t[i] : x.t[i];
    }
}

// fast_mul: order k = 0 .. M - 1 occupies v[k^2 .. (k + 1)^2): the k + 1 leading parts of
// x_i·y_(k-i), then the k errors of order k - 1; v[M^2] the errors of order M - 1 and the
// products of order M accumulated into one term.
template <int M> __device__ __forceinline__ void ac_mul_list(const X<M> &x, const X<M> &y, T (&v)[M * M + 1]) {
    T errs[M];
#pragma unroll
    for (int i = 0; i < M; ++i) errs[i] = T(0);
#pragma unroll
    for (int k = 0; k < M; ++k) {
        T prev[M];
#pragma unroll
        for (int i = 0; i < M; ++i) prev[i] = errs[i];
#pragma unroll
        for (int i = 0; i <= k; ++i) {
            T p, e;
            two_prod(x.t[i], y.t[k - i], p, e);
            v[k * k + i] = p;
            errs[i] = e;
        }
#pragma unroll
        for (int i = 0; i < k; ++i) v[k * k + k + 1 + i] = prev[i];
    }
    T t = errs[0];
#pragma unroll
    for (int i = 1; i < M; ++i) t = t + errs[i];
#pragma unroll
    for (int i = 1; i < M; ++i) t = fma(x.t[i], y.t[M - i], t);
    v[M * M] = t;
}

// sqr_list (accurate.rs): the square's list, each symmetric product 2x_i·x_j (i < j) once as
// 2ProdFMA(2x_i, x_j), x_i^2 for i = j; block k = the k/2 + 1 leading parts of order k, then
// the errors of order k - 1; the last entry the errors of order M - 1 and the products of order
// M accumulated into one term. ac_sqr_len<M>() entries (7, 11, ..., 37 for M = 3..8).
__host__ __device__ constexpr int ac_sqr_products(int k) { return k / 2 + 1; }
template <int M> __host__ __device__ constexpr int ac_sqr_len() {
    int len = 1;
    for (int k = 0; k < M; ++k) len += ac_sqr_products(k) + (k == 0 ? 0 : ac_sqr_products(k - 1));
    return len;
}
template <int M> __device__ __forceinline__ void ac_sqr_list(const X<M> &x, T (&v)[ac_sqr_len<M>()]) {
    T d[M];
#pragma unroll
    for (int i = 0; i < M; ++i) d[i] = x.t[i] + x.t[i];
    T errs[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) errs[i] = T(0);
    int base = 0;
#pragma unroll
    for (int k = 0; k < M; ++k) {
        const int next_base = base + ac_sqr_products(k) + (k == 0 ? 0 : ac_sqr_products(k - 1));
        const int next_errs = next_base + ac_sqr_products(k + 1);
#pragma unroll
        for (int i = 0; i < ac_sqr_products(k); ++i) {
            const int j = k - i;
            T p, e;
            if (i < j) {
                two_prod(d[i], x.t[j], p, e);
            } else {
                two_prod(x.t[i], x.t[i], p, e);
            }
            v[base + i] = p;
            if (k + 1 < M) {
                v[next_errs + i] = e;
            } else {
                errs[i] = e;
            }
        }
        base = next_base;
    }
    T t = errs[0];
#pragma unroll
    for (int i = 1; i < ac_sqr_products(M - 1); ++i) t = t + errs[i];
#pragma unroll
    for (int i = 1; i <= M / 2; ++i) {
        const int j = M - i;
        t = fma(i < j ? d[i] : x.t[i], x.t[j], t);
    }
    v[base] = t;
}

// fast_mul_term: the N exact products ordered by magnitude (p0, p1, e0, p2, e1, ...).
template <int M> __device__ __forceinline__ void ac_mul_term_list(const X<M> &x, T t, T (&v)[2 * M]) {
    T prev_e = T(0);
#pragma unroll
    for (int i = 0; i < M; ++i) {
        T p, e;
        two_prod(x.t[i], t, p, e);
        if (i == 0) {
            v[0] = p;
        } else {
            v[2 * i - 1] = p;
            v[2 * i] = prev_e;
        }
        prev_e = e;
    }
    v[2 * M - 1] = prev_e;
}

template <int M> __device__ ACC_HEAVY bool ac_fast_add(const X<M> &x, const X<M> &y, T *out) {
    T v[2 * M];
    ac_add_list<M>(x, y, v);
    return ac_certified_round<M>(v, 2 * M, out);
}

// fast_mul: one VecSum before the certified renormalisation (its first pass then nearly always
// certifies; accurate.rs fast_mul says why).
template <int M> __device__ ACC_HEAVY bool ac_fast_mul(const X<M> &x, const X<M> &y, T *out) {
    T v[M * M + 1];
    ac_mul_list<M>(x, y, v);
    ac_vec_sum(v, M * M + 1);
    return ac_certified_round<M>(v, M * M + 1, out);
}

// fast_sqr: as ac_fast_mul on the square's list.
template <int M> __device__ ACC_HEAVY bool ac_fast_sqr(const X<M> &x, T *out) {
    T v[ac_sqr_len<M>()];
    ac_sqr_list<M>(x, v);
    ac_vec_sum(v, ac_sqr_len<M>());
    return ac_certified_round<M>(v, ac_sqr_len<M>(), out);
}

template <int M> __device__ ACC_HEAVY bool ac_fast_mul_term(const X<M> &x, T t, T *out) {
    T v[2 * M];
    ac_mul_term_list<M>(x, t, v);
    return ac_certified_round<M>(v, 2 * M, out);
}

template <int M> __device__ ACC_HEAVY bool ac_fast_div(const X<M> &x, const X<M> &y, T *out) {
    T y0 = y.t[0];
    T r[M];
#pragma unroll
    for (int k = 0; k < M; ++k) r[k] = x.t[k];
    T digits[9];
#pragma unroll
    for (int k = 0; k < 9; ++k) digits[k] = T(0);
    int nd = 0;
    for (int k = 0; k <= M; ++k) {
        if (r[0] == T(0)) break;
        T d = r[0] / y0;
        if (!t_finite(d)) return false;
        digits[k] = d;
        nd = k + 1;
        if (k == M) break;
        T v[3 * M + 1];
        T p0, e0, c, ce;
        two_prod(-d, y0, p0, e0);
        two_sum(r[0], p0, c, ce);
        v[0] = c;
        v[1] = ce;
        int len = 2;
        T prev_e = e0;
#pragma unroll
        for (int i = 1; i < M; ++i) {
            T p, e;
            two_prod(-d, y.t[i], p, e);
            v[len] = r[i];
            v[len + 1] = p;
            v[len + 2] = prev_e;
            len += 3;
            prev_e = e;
        }
        v[len] = prev_e;
        len += 1;
        if (!ac_certified_round<M>(v, len, r)) return false;
    }
    return ac_certified_round<M>(digits, nd, out);
}

template <int M> __device__ ACC_HEAVY bool ac_fast_sqrt(const X<M> &x, T t, T *out) {
    T two_t = t + t;
    T digits[9];
#pragma unroll
    for (int k = 0; k < 9; ++k) digits[k] = T(0);
    digits[0] = t;
    int count = 1;
    T v[4 * M + 4];
    T p, e, c, ce;
    two_sqr(t, p, e);
    two_sum(x.t[0], -p, c, ce);
    v[0] = c;
    v[1] = ce;
    v[2] = -e;
    int len = 3;
#pragma unroll
    for (int i = 1; i < M; ++i) {
        v[len] = x.t[i];
        len += 1;
    }
    T r[M];
    if (!ac_certified_round<M>(v, len, r)) return false;
    for (int step = 0; step < M; ++step) {
        if (r[0] == T(0)) break;
        T d = r[0] / two_t;
        if (!t_finite(d)) return false;
        digits[count] = d;
        count += 1;
        if (step + 1 == M) break;
        T two_d = d + d;
        T p0, e0;
        two_prod(-t, two_d, p0, e0);
        two_sum(r[0], p0, c, ce);
        v[0] = c;
        v[1] = ce;
        len = 2;
        T prev_e = e0;
        for (int j = 1; j < M; ++j) {
            if (j + 1 < count) {
                T pj, ej;
                two_prod(-digits[j], two_d, pj, ej);
                v[len] = pj;
                v[len + 1] = prev_e;
                len += 2;
                prev_e = ej;
            } else {
                v[len] = prev_e;
                len += 1;
                prev_e = T(0);
            }
            v[len] = r[j];
            len += 1;
        }
        v[len] = prev_e;
        len += 1;
        T pd, ed;
        two_sqr(d, pd, ed);
        v[len] = -pd;
        v[len + 1] = -ed;
        len += 2;
        if (!ac_certified_round<M>(v, len, r)) return false;
    }
    return ac_certified_round<M>(digits, count, out);
}

// ---- exact references (the fallbacks) -----------------------------------------------------------

template <int M> __device__ __noinline__ X<M> ac_reference_add(const X<M> &x, const X<M> &y) {
    T naive = ac_lead(x) + ac_lead(y);
    if (!t_finite(naive)) return x_from<M>(naive);
    ExactSum acc;
    es_init(acc);
    for (int i = M - 1; i >= 0; --i) {
        es_add(acc, x.t[i]);
        es_add(acc, y.t[i]);
    }
    return ac_finish<M>(acc, naive);
}

template <int M> __device__ __noinline__ X<M> ac_reference_mul(const X<M> &x, const X<M> &y) {
    T naive = ac_lead(x) * ac_lead(y);
    if (!t_finite(naive)) return x_from<M>(naive);
    ExactSum acc;
    es_init(acc);
    for (int i = 1; i < M; ++i) es_add(acc, x.t[i] * y.t[M - i]);
    for (int k = M - 1; k >= 0; --k)
        for (int i = 0; i <= k; ++i) es_add_prod(acc, x.t[i], y.t[k - i]);
    return ac_finish<M>(acc, naive);
}

template <int M> __device__ __noinline__ X<M> ac_reference_mul_term(const X<M> &x, T t) {
    T naive = ac_lead(x) * t;
    if (!t_finite(naive)) return x_from<M>(naive);
    ExactSum acc;
    es_init(acc);
    for (int i = M - 1; i >= 0; --i) es_add_prod(acc, x.t[i], t);
    return ac_finish<M>(acc, naive);
}

template <int M> __device__ __noinline__ X<M> ac_reference_div(const X<M> &x, const X<M> &y) {
    T y0 = ac_lead(y);
    T naive = ac_lead(x) / y0;
    if (!t_finite(naive) || !t_finite(y0) || M == 1 || x.t[0] == T(0)) return x_from<M>(naive);
    ExactSum rem;
    es_init(rem);
    for (int i = M - 1; i >= 0; --i) es_add(rem, x.t[i]);
    ExactSum q;
    es_init(q);
    for (int it = 0; it <= M; ++it) {
        if (rem.len == 0) break;
        T digit = es_lead(rem) / y0;
        if (!t_finite(digit)) return ac_settle_nan<M>(naive);
        es_add(q, digit);
        for (int j = M - 1; j >= 0; --j) es_add_prod(rem, -digit, y.t[j]);
    }
    return ac_finish<M>(q, naive);
}

template <int M> __device__ __noinline__ X<M> ac_reference_sqrt(const X<M> &x) {
    T x0 = ac_lead(x);
    if (x0 <= T(0) || !t_finite(x0) || M == 1) return x_from<M>(t_sqrt(x0));
    T t = t_sqrt(x0);
    T two_t = t + t;
    T digits[9];
    digits[0] = t;
    ExactSum rem;
    es_init(rem);
    for (int i = M - 1; i >= 0; --i) es_add(rem, x.t[i]);
    T p, e;
    two_sqr(t, p, e);
    es_add(rem, -e);
    es_add(rem, -p);
    int count = 1;
    for (int it = 0; it < M; ++it) {
        if (rem.len == 0) break;
        T d = es_lead(rem) / two_t;
        if (!t_finite(d)) return ac_settle_nan<M>(t);
        T two_d = d + d;
        // Every index into digits[] below is a compile-time constant (loops over all 9 slots,
        // guarded by count): with the run-time indices of the Rust original (digits[count] = d;
        // a downward loop from count - 1), NVVM at -O3 (CUDA 13, sm_90) summed the wrong slots
        // (the leading digit was lost; -G was right). Same operations, same order.
#pragma unroll
        for (int i = 0; i < 9; ++i)
            if (i < count) es_add_prod(rem, -digits[i], two_d);
        T pd, ed;
        two_sqr(d, pd, ed);
        es_add(rem, -ed);
        es_add(rem, -pd);
#pragma unroll
        for (int j = 0; j < 9; ++j)
            if (j == count) digits[j] = d;
        count += 1;
    }
    ExactSum s;
    es_init(s);
#pragma unroll
    for (int i = 8; i >= 0; --i)
        if (i < count) es_add(s, digits[i]);
    return ac_finish<M>(s, t);
}

// ---- the accurate operations (accurate.rs `impl Expansion`) ---------------------------------

// N >= 3 add after the IEEE checks: fast path, settled, or the exact reference.
template <int M> __device__ ACC_HEAVY X<M> ac_add_general(const X<M> &x, const X<M> &y, T naive) {
    T out[M];
    if (ac_fast_add<M>(x, y, out)) return ac_settle<M>(out, naive);
    return ac_reference_add<M>(x, y);
}

template <int M> __device__ X<M> ac_add(const X<M> &x, const X<M> &y) {
    T naive = ac_lead(x) + ac_lead(y);
    if (!t_finite(naive)) return x_from<M>(naive);
    if constexpr (M == 1) {
        return x_from<M>(naive);
    } else if constexpr (M == 2) {
        T out[2];
        dw_add(x.t[0], x.t[1], y.t[0], y.t[1], out[0], out[1]);
        return ac_settle<M>(out, naive);
    } else {
        return ac_add_general<M>(x, y, naive);
    }
}

template <int M> __device__ __forceinline__ X<M> ac_sub(const X<M> &x, const X<M> &y) { return ac_add<M>(x, x_neg(y)); }

template <int M> __device__ __forceinline__ X<M> ac_add_term(const X<M> &x, T t) { return ac_add<M>(x, x_from<M>(t)); }

template <int M> __device__ ACC_HEAVY X<M> ac_mul_general(const X<M> &x, const X<M> &y, T naive) {
    T out[M];
    if (ac_fast_mul<M>(x, y, out)) return ac_settle<M>(out, naive);
    return ac_reference_mul<M>(x, y);
}

template <int M> __device__ X<M> ac_mul(const X<M> &x, const X<M> &y) {
    T naive = ac_lead(x) * ac_lead(y);
    if (!t_finite(naive) || M == 1) return x_from<M>(naive);
    if constexpr (M == 2) {
        T out[2];
        dw_mul(x.t[0], x.t[1], y.t[0], y.t[1], out[0], out[1]);
        return ac_settle<M>(out, naive);
    } else if constexpr (M >= 3) {
        return ac_mul_general<M>(x, y, naive);
    }
    return x_from<M>(naive);
}

// Expansion::sqr: ac_mul(x, x) for M <= 2; its own list (ac_fast_sqr) for M >= 3, with the
// product's exact reference as the fallback.
template <int M> __device__ ACC_HEAVY X<M> ac_sqr_general(const X<M> &x, T naive) {
    T out[M];
    if (ac_fast_sqr<M>(x, out)) return ac_settle<M>(out, naive);
    return ac_reference_mul<M>(x, x);
}

template <int M> __device__ X<M> ac_sqr(const X<M> &x) {
    if constexpr (M <= 2) {
        return ac_mul<M>(x, x);
    } else {
        T naive = ac_lead(x) * ac_lead(x);
        if (!t_finite(naive)) return x_from<M>(naive);
        return ac_sqr_general<M>(x, naive);
    }
}

template <int M> __device__ ACC_HEAVY X<M> ac_mul_term_general(const X<M> &x, T t, T naive) {
    T out[M];
    if (ac_fast_mul_term<M>(x, t, out)) return ac_settle<M>(out, naive);
    return ac_reference_mul_term<M>(x, t);
}

template <int M> __device__ X<M> ac_mul_term(const X<M> &x, T t) {
    T naive = ac_lead(x) * t;
    if (!t_finite(naive) || M == 1) return x_from<M>(naive);
    if constexpr (M == 2) {
        T out[2];
        dw_mul_fp(x.t[0], x.t[1], t, out[0], out[1]);
        return ac_settle<M>(out, naive);
    } else if constexpr (M >= 3) {
        return ac_mul_term_general<M>(x, t, naive);
    }
    return x_from<M>(naive);
}

template <int M> __device__ ACC_HEAVY X<M> ac_div(const X<M> &x, const X<M> &y) {
    T y0 = ac_lead(y);
    T naive = ac_lead(x) / y0;
    if (!t_finite(naive) || !t_finite(y0) || M == 1) return x_from<M>(naive);
    if (x.t[0] == T(0)) return x_from<M>(naive);
    T out[M];
    if (ac_fast_div<M>(x, y, out)) {
        if constexpr (M == 2) {
            T h, l;
            fast_two_sum(out[0], out[1], h, l);
            out[0] = h;
            out[1] = l;
        }
        return ac_settle<M>(out, naive);
    }
    return ac_reference_div<M>(x, y);
}

template <int M> __device__ __forceinline__ X<M> ac_div_term(const X<M> &x, T t) { return ac_div<M>(x, x_from<M>(t)); }

template <int M> __device__ __forceinline__ X<M> ac_recip(const X<M> &x) { return ac_div<M>(x_one<M>(), x); }

template <int M> __device__ ACC_HEAVY X<M> ac_sqrt(const X<M> &x) {
    T x0 = ac_lead(x);
    if (x0 <= T(0) || !t_finite(x0) || M == 1) return x_from<M>(t_sqrt(x0));
    T t = t_sqrt(x0);
    T out[M];
    if (ac_fast_sqrt<M>(x, t, out)) {
        if constexpr (M == 2) {
            T h, l;
            fast_two_sum(out[0], out[1], h, l);
            out[0] = h;
            out[1] = l;
        }
        return ac_settle<M>(out, t);
    }
    return ac_reference_sqrt<M>(x);
}

// Sign of the exact value (Expansion::signum_ordering): -1, 0, 1, or 2 for NaN.
template <int M> __device__ __forceinline__ int ac_signum(const X<M> &x) {
    if (x_isnan(x)) return 2;
    T h = x.t[0];
    return h < T(0) ? -1 : (h > T(0) ? 1 : 0);
}

// Exact comparison (Expansion::cmp_value): -1, 0, 1, or 2 when unordered (a NaN operand, or
// the accurate difference of two finite operands overflowed: Rust's `None`).
template <int M> __device__ int ac_cmp(const X<M> &a, const X<M> &b) {
    if (x_isnan(a) || x_isnan(b)) return 2;
    if (!t_finite(a.t[0]) || !t_finite(b.t[0])) {
        T p = a.t[0], q = b.t[0];
        return p < q ? -1 : (p > q ? 1 : 0);
    }
    return ac_signum<M>(ac_sub<M>(a, b));
}

// ---- register-resident fast paths (the array and BLAS programs) ----------------------------------
//
// The same operations as ac_add / ac_mul / ac_mul_term for M >= 3, with the certified
// renormalisation (up to three passes of VecSum, then VecSumErrBranch with its certificate)
// unrolled over the compile-time list length: every list index is a constant, so the lists stay
// in registers (the generic code above indexes out[j] with a data-dependent j and loops over a
// run-time length, which puts its arrays in local memory). VecSumErrBranch emits by
// predication, out[i] = (emit && j == i) ? r : out[i] for every i, with the same 2Sum chain, the
// same eps updates and the certificate's tail sum |eps| + |v[k]| + ... in the same order, so
// each pass returns what the generic pass returns, bit for bit. When all three certificates
// fail (rare) the thread runs the generic exact reference (ac_reference_*), as the generic
// operation does.
//
// These are inlined into their callers (more code per call site than the ACC_HEAVY functions):
// meant for programs with a few hot operations, not for functions.cu.

// Test hook: a host build may define ACC_REG_NOTE(k) to record how an operation ended: k = 1, 2
// or 3, the pass whose certificate held; 4, the exact reference.
#ifndef ACC_REG_NOTE
#define ACC_REG_NOTE(k)
#endif

// VecSum over v[0..L), L a compile-time constant >= 2 (ac_vec_sum unrolled).
template <int L> __device__ __forceinline__ void ar_vec_sum(T (&v)[L]) {
    T s = v[L - 1];
#pragma unroll
    for (int i = L - 2; i >= 0; --i) {
        T hi, lo;
        two_sum(v[i], s, hi, lo);
        v[i + 1] = lo;
        s = hi;
    }
    v[0] = s;
}

// ac_err_branch_certified<M> on v[0..L), unrolled and predicated; false when the certificate
// fails. `full` is the generic code's `j == M` (its loop broke after consuming v[k]); from then
// on the remaining |v[k]| are added to a = |eps| in order, as the generic tail loop does.
template <int M, int L> __device__ __forceinline__ bool ar_err_branch_certified(const T (&v)[L], T (&res)[M]) {
    T out[M];
#pragma unroll
    for (int i = 0; i < M; ++i) out[i] = T(0);
    int j = 0;
    bool full = false;
    T eps = v[0];
    T a = T(0);
#pragma unroll
    for (int k = 1; k < L; ++k) {
        if (full) {
            a = a + t_abs(v[k]);
        } else {
            T r, err;
            two_sum(eps, v[k], r, err);
            const bool emit = err != T(0);
            // At most k terms were emitted before v[k]: slots i >= k cannot be hit (compile
            // time).
#pragma unroll
            for (int i = 0; i < M; ++i)
                if (i < k) out[i] = (emit && j == i) ? r : out[i];
            eps = emit ? err : r;
            j += emit ? 1 : 0;
            if (j == M) {
                full = true;
                a = t_abs(eps);
            }
        }
    }
    if (!full) {
        if (eps != T(0)) {
#pragma unroll
            for (int i = 0; i < M; ++i) out[i] = (j == i) ? eps : out[i];
        }
    } else {
        const T four = T(1) + T(1) + T(1) + T(1);
        const T three = T(1) + T(1) + T(1);
        if (!(a * four <= t_ulp(out[M - 1]) * three)) return false;
    }
    if (!t_finite(out[0])) return false;
    bool ok = true;
#pragma unroll
    for (int i = 1; i < M; ++i) ok = ok && (out[i] == T(0) || (out[i - 1] != T(0) && t_abs(out[i]) <= t_ulp(out[i - 1])));
    if (!ok) return false;
#pragma unroll
    for (int i = 0; i < M; ++i) res[i] = out[i];
    return true;
}

// ac_certified_round on v[0..L) in registers: up to three passes (VecSum in place, then the
// certified VecSumErrBranch). The pass loop is not unrolled (its body is), to bound the code.
template <int M, int L> __device__ __forceinline__ bool ar_certified_round(T (&v)[L], T (&out)[M]) {
#pragma unroll 1
    for (int pass = 0; pass < 3; ++pass) {
        ar_vec_sum<L>(v);
        if (ar_err_branch_certified<M, L>(v, out)) {
            ACC_REG_NOTE(pass + 1);
            return true;
        }
    }
    return false;
}

// ac_settle with the result in registers.
template <int M> __device__ __forceinline__ X<M> ar_settle(const T (&result)[M], T naive) {
    if (!t_finite(naive)) return x_from<M>(naive);
    bool fin = true;
#pragma unroll
    for (int k = 0; k < M; ++k) fin = fin && t_finite(result[k]);
    if (!fin) return x_from<M>(t_nan());
    if (result[0] == T(0)) return x_from<M>(naive == T(0) ? naive : T(0));
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = result[k];
    return r;
}

// ac_fast_add / ac_fast_mul / ac_fast_mul_term with the lists in registers.
template <int M> __device__ __forceinline__ bool ar_fast_add(const X<M> &x, const X<M> &y, T (&out)[M]) {
    T v[2 * M];
    ac_add_list<M>(x, y, v);
    return ar_certified_round<M, 2 * M>(v, out);
}

template <int M> __device__ __forceinline__ bool ar_fast_mul(const X<M> &x, const X<M> &y, T (&out)[M]) {
    T v[M * M + 1];
    ac_mul_list<M>(x, y, v);
    ar_vec_sum<M * M + 1>(v);
    return ar_certified_round<M, M * M + 1>(v, out);
}

template <int M> __device__ __forceinline__ bool ar_fast_sqr(const X<M> &x, T (&out)[M]) {
    T v[ac_sqr_len<M>()];
    ac_sqr_list<M>(x, v);
    ar_vec_sum<ac_sqr_len<M>()>(v);
    return ar_certified_round<M, ac_sqr_len<M>()>(v, out);
}

template <int M> __device__ __forceinline__ bool ar_fast_mul_term(const X<M> &x, T t, T (&out)[M]) {
    T v[2 * M];
    ac_mul_term_list<M>(x, t, v);
    return ar_certified_round<M, 2 * M>(v, out);
}

// ac_add, register-resident for M >= 3.
template <int M> __device__ __forceinline__ X<M> ac_add_reg(const X<M> &x, const X<M> &y) {
    if constexpr (M < 3) {
        return ac_add<M>(x, y);
    } else {
        const T naive = ac_lead(x) + ac_lead(y);
        if (!t_finite(naive)) return x_from<M>(naive);
        T out[M];
        if (ar_fast_add<M>(x, y, out)) return ar_settle<M>(out, naive);
        ACC_REG_NOTE(4);
        return ac_reference_add<M>(x, y);
    }
}

template <int M> __device__ __forceinline__ X<M> ac_sub_reg(const X<M> &x, const X<M> &y) { return ac_add_reg<M>(x, x_neg(y)); }

// ac_mul, register-resident for M >= 3.
template <int M> __device__ __forceinline__ X<M> ac_mul_reg(const X<M> &x, const X<M> &y) {
    if constexpr (M < 3) {
        return ac_mul<M>(x, y);
    } else {
        const T naive = ac_lead(x) * ac_lead(y);
        if (!t_finite(naive)) return x_from<M>(naive);
        T out[M];
        if (ar_fast_mul<M>(x, y, out)) return ar_settle<M>(out, naive);
        ACC_REG_NOTE(4);
        return ac_reference_mul<M>(x, y);
    }
}

// ac_sqr, register-resident for M >= 3.
template <int M> __device__ __forceinline__ X<M> ac_sqr_reg(const X<M> &x) {
    if constexpr (M < 3) {
        return ac_sqr<M>(x);
    } else {
        const T naive = ac_lead(x) * ac_lead(x);
        if (!t_finite(naive)) return x_from<M>(naive);
        T out[M];
        if (ar_fast_sqr<M>(x, out)) return ar_settle<M>(out, naive);
        ACC_REG_NOTE(4);
        return ac_reference_mul<M>(x, x);
    }
}

// ac_mul_term, register-resident for M >= 3.
template <int M> __device__ __forceinline__ X<M> ac_mul_term_reg(const X<M> &x, T t) {
    if constexpr (M < 3) {
        return ac_mul_term<M>(x, t);
    } else {
        const T naive = ac_lead(x) * t;
        if (!t_finite(naive)) return x_from<M>(naive);
        T out[M];
        if (ar_fast_mul_term<M>(x, t, out)) return ar_settle<M>(out, naive);
        ACC_REG_NOTE(4);
        return ac_reference_mul_term<M>(x, t);
    }
}

// ac_cmp with the register-resident subtraction.
template <int M> __device__ __forceinline__ int ac_cmp_reg(const X<M> &a, const X<M> &b) {
    if (x_isnan(a) || x_isnan(b)) return 2;
    if (!t_finite(a.t[0]) || !t_finite(b.t[0])) {
        T p = a.t[0], q = b.t[0];
        return p < q ? -1 : (p > q ? 1 : 0);
    }
    return ac_signum<M>(ac_sub_reg<M>(a, b));
}

// ---- public entry points at N = NT terms on E -----------------------------------------------------

__device__ __forceinline__ X<NT> x_of(const E &a) {
    X<NT> r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = a.t[k];
    return r;
}

__device__ __forceinline__ E e_of(const X<NT> &a) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = a.t[k];
    return r;
}

// Zero; one machine number as an NT-term expansion (exact).
__device__ E acc_zero() { return e_of(x_zero<NT>()); }
__device__ E acc_from(T x) { return e_of(x_from<NT>(x)); }
// Negation (exact).
__device__ E acc_neg(const E &a) { return e_of(x_neg(x_of(a))); }
// The accurate operations: bit-identical to expanse-core's `Expansion` methods of the same name.
__device__ E acc_add(const E &a, const E &b) { return e_of(ac_add<NT>(x_of(a), x_of(b))); }
__device__ E acc_sub(const E &a, const E &b) { return e_of(ac_sub<NT>(x_of(a), x_of(b))); }
__device__ E acc_add_term(const E &a, T t) { return e_of(ac_add_term<NT>(x_of(a), t)); }
__device__ E acc_mul(const E &a, const E &b) { return e_of(ac_mul<NT>(x_of(a), x_of(b))); }
__device__ E acc_sqr(const E &a) { return e_of(ac_sqr<NT>(x_of(a))); }
__device__ E acc_mul_term(const E &a, T t) { return e_of(ac_mul_term<NT>(x_of(a), t)); }
__device__ E acc_div(const E &a, const E &b) { return e_of(ac_div<NT>(x_of(a), x_of(b))); }
__device__ E acc_div_term(const E &a, T t) { return e_of(ac_div_term<NT>(x_of(a), t)); }
__device__ E acc_recip(const E &a) { return e_of(ac_recip<NT>(x_of(a))); }
__device__ E acc_sqrt(const E &a) { return e_of(ac_sqrt<NT>(x_of(a))); }
// Exact comparison as `Expansion::cmp_value` / `PartialOrd`: -1 (a < b), 0 (a == b), 1 (a > b),
// 2 when unordered (Rust's `None`: a NaN operand, or an overflow in the exact difference).
__device__ int acc_cmp(const E &a, const E &b) { return ac_cmp<NT>(x_of(a), x_of(b)); }

// The register-resident variants (same results; see "register-resident fast paths"), for the
// array and BLAS programs.
static __device__ __forceinline__ E acc_add_reg(const E &a, const E &b) { return e_of(ac_add_reg<NT>(x_of(a), x_of(b))); }
static __device__ __forceinline__ E acc_sub_reg(const E &a, const E &b) { return e_of(ac_sub_reg<NT>(x_of(a), x_of(b))); }
static __device__ __forceinline__ E acc_add_term_reg(const E &a, T t) { return e_of(ac_add_reg<NT>(x_of(a), x_from<NT>(t))); }
static __device__ __forceinline__ E acc_mul_reg(const E &a, const E &b) { return e_of(ac_mul_reg<NT>(x_of(a), x_of(b))); }
static __device__ __forceinline__ E acc_sqr_reg(const E &a) { return e_of(ac_sqr_reg<NT>(x_of(a))); }
static __device__ __forceinline__ E acc_mul_term_reg(const E &a, T t) { return e_of(ac_mul_term_reg<NT>(x_of(a), t)); }
static __device__ __forceinline__ int acc_cmp_reg(const E &a, const E &b) { return ac_cmp_reg<NT>(x_of(a), x_of(b)); }

#endif // EXPANSE_ACCURATE_CU
