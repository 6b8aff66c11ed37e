// expanse-gpu orbit kernels: n-term floating-point expansions (the *search arithmetic* of
// expanse-core's `core/src/fast.rs`, repeated operation for operation) and the per-orbit search
// kernel (the contract of `gpu/src/contract.rs`, shared with the CPU backend in `search/`).
// Follows prelude.cu (types, E, error-free transforms).
//
// Keep in step with core/src/fast.rs and core/src/henon.rs; `expanse bench gpu --check` proves
// the two agree bit for bit.

// Threads per block of the orbit kernel (gpu/src/device.rs ORBIT_BLOCK).
#define ORBIT_BLOCK 128

// ---- level accumulation (core/src/fast.rs `Acc`), N >= 3 -------------------------------------
// Items are added in ascending level order. The first value reaching a level k < N-1 starts
// s[k]; later ones are added with 2Sum and the error carried to level k+1 the same way, down to
// level N-1, summed plainly (with level N). `filled` and `level` depend only on the operation's
// fixed item pattern: after full unrolling they are compile-time constants (no branch at run
// time, as on the CPU lanes).

struct Acc {
    T s[NT];
    unsigned filled;
    int level;
};

__device__ __forceinline__ void acc_init(Acc &q) {
#pragma unroll
    for (int k = 0; k < NT; ++k) q.s[k] = T(0);
    q.filled = 0u;
    q.level = 0;
}

__device__ __forceinline__ void acc_add(Acc &q, int level, T v) {
    T c = v;
    bool placed = false;
#pragma unroll
    for (int k = 0; k < NT - 1; ++k) {
        if (k >= level && !placed) {
            if ((q.filled & (1u << k)) == 0u) {
                q.s[k] = c;
                q.filled |= 1u << k;
                placed = true;
            } else {
                T h, e;
                two_sum(q.s[k], c, h, e);
                q.s[k] = h;
                c = e;
            }
        }
    }
    if (!placed) q.s[NT - 1] = q.s[NT - 1] + c;
}

__device__ __forceinline__ void acc_push(Acc &q, T v) { acc_add(q, q.level, v); }
__device__ __forceinline__ void acc_end_level(Acc &q) { q.level += 1; }

// VecSum (bottom-up 2Sum) over the N level sums, then one top-down 2Sum pass.
__device__ __forceinline__ E acc_finish(const Acc &q) {
    T s[NT];
#pragma unroll
    for (int k = 0; k < NT; ++k) s[k] = q.s[k];
    T acc = s[NT - 1];
#pragma unroll
    for (int i = NT - 2; i >= 0; --i) {
        T h, e;
        two_sum(s[i], acc, h, e);
        s[i + 1] = e;
        acc = h;
    }
    s[0] = acc;
    E out;
    T eps = s[0];
#pragma unroll
    for (int i = 1; i < NT; ++i) {
        T r, e;
        two_sum(eps, s[i], r, e);
        out.t[i - 1] = r;
        eps = e;
    }
    out.t[NT - 1] = eps;
    return out;
}

// The truncated product x*y (core's `push_product`): level n < N: x_i*y_{n-i} by 2ProdFMA
// (i ascending), then the errors of level n-1's products; level N: the plain products
// x_i*y_{N-i} (i = 1..N-1), then the errors of level N-1's products. NEG negates every item;
// with LEAD (the fused Hénon x'), `lead` comes first on level 0 and ys[n] first on level n.
template <bool NEG, bool LEAD>
__device__ __forceinline__ void push_product(Acc &q, const E &x, const E &y, T lead, const E &ys) {
    T prev[NT];
    T cur[NT];
#pragma unroll
    for (int n = 0; n < NT; ++n) {
        if (LEAD) {
            if (n == 0) acc_push(q, lead);
            acc_push(q, ys.t[n]);
        }
#pragma unroll
        for (int i = 0; i <= n; ++i) {
            T p, e;
            two_prod(x.t[i], y.t[n - i], p, e);
            acc_push(q, NEG ? -p : p);
            cur[i] = e;
        }
#pragma unroll
        for (int i = 0; i < n; ++i) acc_push(q, NEG ? -prev[i] : prev[i]);
#pragma unroll
        for (int i = 0; i <= n; ++i) prev[i] = cur[i];
        acc_end_level(q);
    }
#pragma unroll
    for (int i = 1; i < NT; ++i) {
        T p = x.t[i] * y.t[NT - i];
        acc_push(q, NEG ? -p : p);
    }
#pragma unroll
    for (int i = 0; i < NT; ++i) acc_push(q, NEG ? -prev[i] : prev[i]);
    acc_end_level(q);
}

// x*t for one machine number t (core's `push_term_product`): level 0: p_0; level n >= 1: p_n,
// e_{n-1}, with p_{N-1} a plain product.
template <bool NEG, bool LEAD>
__device__ __forceinline__ void push_term_product(Acc &q, const E &x, T t, T lead, const E &ys) {
    T e_prev = T(0);
#pragma unroll
    for (int n = 0; n < NT; ++n) {
        if (LEAD) {
            if (n == 0) acc_push(q, lead);
            acc_push(q, ys.t[n]);
        }
        T p, e;
        if (n + 1 < NT) {
            two_prod(x.t[n], t, p, e);
        } else {
            p = x.t[n] * t;
            e = T(0);
        }
        acc_push(q, NEG ? -p : p);
        if (n > 0) acc_push(q, NEG ? -e_prev : e_prev);
        e_prev = e;
        acc_end_level(q);
    }
    acc_end_level(q);
}

// ---- the fast tier (core/src/fast.rs) --------------------------------------------------------

__device__ __forceinline__ E e_neg(const E &a) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = -a.t[k];
    return r;
}

__device__ __forceinline__ E add_fast(const E &a, const E &b) {
    E out;
#if NT == 1
    out.t[0] = a.t[0] + b.t[0];
#elif NT == 2
    T s, e;
    two_sum(a.t[0], b.t[0], s, e);
    T v = a.t[1] + b.t[1];
    T w = e + v;
    fast_two_sum(s, w, out.t[0], out.t[1]);
#else
    Acc q;
    acc_init(q);
#pragma unroll
    for (int n = 0; n < NT; ++n) {
        acc_push(q, a.t[n]);
        acc_push(q, b.t[n]);
        acc_end_level(q);
    }
    acc_end_level(q);
    out = acc_finish(q);
#endif
    return out;
}

__device__ __forceinline__ E sub_fast(const E &a, const E &b) { return add_fast(a, e_neg(b)); }

__device__ __forceinline__ E mul_fast(const E &a, const E &b) {
    E out;
#if NT == 1
    out.t[0] = a.t[0] * b.t[0];
#elif NT == 2
    T p, e;
    two_prod(a.t[0], b.t[0], p, e);
    T t = a.t[0] * b.t[1];
    T c = fma(a.t[1], b.t[0], t);
    T w = e + c;
    fast_two_sum(p, w, out.t[0], out.t[1]);
#else
    Acc q;
    acc_init(q);
    push_product<false, false>(q, a, b, T(0), a);
    out = acc_finish(q);
#endif
    return out;
}

__device__ __forceinline__ E sqr_fast(const E &a) {
    E out;
#if NT == 1
    out.t[0] = a.t[0] * a.t[0];
#elif NT == 2
    T p, e;
    two_sqr(a.t[0], p, e);
    T w = fma(a.t[0] + a.t[0], a.t[1], e);
    fast_two_sum(p, w, out.t[0], out.t[1]);
#else
    // Level n < N: 2a_i*a_{n-i} (i < n-i) and a_i^2 (2i = n), i ascending, then the errors of
    // level n-1's products; level N: the plain products of order N, then the last errors.
    T d[NT];
#pragma unroll
    for (int i = 0; i < NT; ++i) d[i] = a.t[i] + a.t[i];
    Acc q;
    acc_init(q);
    T prev[NT];
    T cur[NT];
    int prev_len = 0;
#pragma unroll
    for (int n = 0; n < NT; ++n) {
        int cur_len = 0;
#pragma unroll
        for (int i = 0; i <= n / 2; ++i) {
            int j = n - i;
            T p, e;
            if (i < j) two_prod(d[i], a.t[j], p, e); else two_sqr(a.t[i], p, e);
            acc_push(q, p);
            cur[cur_len++] = e;
        }
#pragma unroll
        for (int i = 0; i < prev_len; ++i) acc_push(q, prev[i]);
#pragma unroll
        for (int i = 0; i < cur_len; ++i) prev[i] = cur[i];
        prev_len = cur_len;
        acc_end_level(q);
    }
#pragma unroll
    for (int i = 1; i <= NT / 2; ++i) {
        int j = NT - i;
        acc_push(q, (i < j) ? d[i] * a.t[j] : a.t[i] * a.t[i]);
    }
#pragma unroll
    for (int i = 0; i < prev_len; ++i) acc_push(q, prev[i]);
    acc_end_level(q);
    out = acc_finish(q);
#endif
    return out;
}

__device__ __forceinline__ E mul_term_fast(const E &a, T t) {
    E out;
#if NT == 1
    out.t[0] = a.t[0] * t;
#elif NT == 2
    T p, e;
    two_prod(a.t[0], t, p, e);
    T w = fma(a.t[1], t, e);
    fast_two_sum(p, w, out.t[0], out.t[1]);
#else
    Acc q;
    acc_init(q);
    push_term_product<false, false>(q, a, t, T(0), a);
    out = acc_finish(q);
#endif
    return out;
}

__device__ __forceinline__ E add_term_fast(const E &a, T t) {
    E out;
#if NT == 1
    out.t[0] = a.t[0] + t;
#elif NT == 2
    T s, e;
    two_sum(a.t[0], t, s, e);
    T v = a.t[1] + e;
    fast_two_sum(s, v, out.t[0], out.t[1]);
#else
    Acc q;
    acc_init(q);
    acc_push(q, a.t[0]);
    acc_push(q, t);
    acc_end_level(q);
#pragma unroll
    for (int n = 1; n < NT; ++n) {
        acc_push(q, a.t[n]);
        acc_end_level(q);
    }
    acc_end_level(q);
    out = acc_finish(q);
#endif
    return out;
}

// Multiplication by a parameter (core::henon::Fast::mul_param): one machine number ->
// mul_term_fast, otherwise mul_fast. SINGLE = every parameter of the launch is one term.
template <bool SINGLE>
__device__ __forceinline__ E mul_param(const E &x, const E &p, bool p_single) {
    if (SINGLE || p_single) return mul_term_fast(x, p.t[0]);
    return mul_fast(x, p);
}

// The new x of a Hénon step, 1 + y - a*x2 (core's `henon_x`): N = 1 as fma(-a, x2, y + 1);
// N = 2 as (y + 1) - a*x2 by three operations; N >= 3 fused into one level accumulation: level 0: 1, y_0, then -(a*x2's
// level-0 items); level n: y_n, then -(a*x2's level-n items).
template <bool SINGLE>
__device__ __forceinline__ E henon_x(const E &y, const E &a, bool a1, const E &x2) {
#if NT == 1
    E out;
    out.t[0] = fma(-a.t[0], x2.t[0], y.t[0] + T(1));
    return out;
#elif NT == 2
    E t = mul_param<SINGLE>(x2, a, a1);
    E u = add_term_fast(y, T(1));
    return sub_fast(u, t);
#else
    Acc q;
    acc_init(q);
    if (SINGLE || a1) {
        push_term_product<true, true>(q, x2, a.t[0], T(1), y);
    } else {
        push_product<true, true>(q, x2, a, T(1), y);
    }
    return acc_finish(q);
#endif
}

// One Hénon step in the fixed order: x2 = sqr(x); x' = henon_x(y, a, x2); y' = b*x.
template <bool SINGLE>
__device__ __forceinline__ void henon_step(const E &a, const E &b, bool a1, bool b1, E &x, E &y) {
    E x2 = sqr_fast(x);
    E nx = henon_x<SINGLE>(y, a, a1, x2);
    E ny = mul_param<SINGLE>(x, b, b1);
    x = nx;
    y = ny;
}

__device__ __forceinline__ bool single_term(const E &p) {
    bool s = true;
#pragma unroll
    for (int k = 1; k < NT; ++k) s = s && (p.t[k] == T(0));
    return s;
}

__device__ __forceinline__ bool escaped(const E &x, const E &y, T esc) {
    return !(fabs(x.t[0]) <= esc && fabs(y.t[0]) <= esc);
}

__device__ __forceinline__ T dist(const E &x, const E &y, const E &rx, const E &ry) {
    return fmax(fabs(x.t[0] - rx.t[0]), fabs(y.t[0] - ry.t[0]));
}

// ---- the per-orbit contract (gpu/src/contract.rs) ---------------------------------------------

#define ST_ESCAPED 0u
#define ST_NO_CYCLE 1u
#define ST_UNCONFIRMED 2u
#define ST_CYCLE 3u

struct Rec {
    u32 status;
    u32 period;
    u64 steps;
    double residual, trace, det;
    E x, y;
};

// Per-thread clock64 readings at the ends of the three phases (profiling only: they never
// influence the arithmetic or the record). A phase the orbit did not reach ends where the last
// one it ran ended.
struct PhaseClock {
    long long start, transient, close, confirm;
};

__device__ __forceinline__ void phases_end(PhaseClock &c, int reached) {
    const long long now = clock64();
    if (reached <= 0) c.transient = now;
    if (reached <= 1) c.close = now;
    c.confirm = now;
}

template <bool SINGLE>
__device__ __forceinline__ Rec run_orbit(const E &a, const E &b, E x, E y, u64 transient, u32 pmax,
                                         T tol, T esc, PhaseClock &clk) {
    clk.start = clock64();
    const bool a1 = single_term(a), b1 = single_term(b);
    Rec rec;
    rec.period = 0;
    rec.residual = __longlong_as_double(0x7ff8000000000000ll);
    rec.trace = rec.residual;
    rec.det = rec.residual;
#pragma unroll
    for (int k = 0; k < NT; ++k) { rec.x.t[k] = T(0); rec.y.t[k] = T(0); }

    // 1. Transient, escape checked every 1024 steps and at the end.
    u64 s = 0;
    while (s < transient) {
        u64 left = transient - s;
        u32 chunk = left < 1024ull ? (u32)left : 1024u;
#if NT <= 2
        // Small steps: unroll the full chunks (the FP64 pipe is the limit, ~95 % of it).
        if (chunk == 1024u) {
#pragma unroll 4
            for (u32 i = 0; i < 1024u; ++i) henon_step<SINGLE>(a, b, a1, b1, x, y);
        } else {
            for (u32 i = 0; i < chunk; ++i) henon_step<SINGLE>(a, b, a1, b1, x, y);
        }
#else
        // Large steps (thousands of instructions each): one copy of the step in the loop, to
        // keep the kernel's code within the instruction caches.
#pragma unroll 1
        for (u32 i = 0; i < chunk; ++i) henon_step<SINGLE>(a, b, a1, b1, x, y);
#endif
        s += chunk;
        if (escaped(x, y, esc)) {
            rec.status = ST_ESCAPED;
            rec.steps = s;
            phases_end(clk, 0);
            return rec;
        }
    }
    clk.transient = clock64();
    // 2. Close return to the reference point r = z_{N_t}.
    const E rx = x, ry = y;
    u32 k = 0;
    for (u32 kk = 1; kk <= pmax; ++kk) {
        henon_step<SINGLE>(a, b, a1, b1, x, y);
        if (escaped(x, y, esc)) {
            rec.status = ST_ESCAPED;
            rec.steps = transient + kk;
            phases_end(clk, 1);
            return rec;
        }
        if (dist(x, y, rx, ry) < tol) { k = kk; break; }
    }
    if (k == 0) {
        rec.status = ST_NO_CYCLE;
        rec.steps = transient + pmax;
        phases_end(clk, 1);
        return rec;
    }
    clk.close = clock64();
    // 3. Confirmation over one further period.
    const E cx = x, cy = y;
    E mx = x, my = y;
    const double ahi = (double)a.t[0], bhi = (double)b.t[0];
    double m00 = 1.0, m01 = 0.0, m10 = 0.0, m11 = 1.0;
    for (u32 i = 0; i < k; ++i) {
        const double xhi = (double)x.t[0];
        const double j00 = (-2.0 * ahi) * xhi;
        const double n00 = j00 * m00 + m10;
        const double n01 = j00 * m01 + m11;
        const double n10 = bhi * m00;
        const double n11 = bhi * m01;
        m00 = n00; m01 = n01; m10 = n10; m11 = n11;
        if (i > 0 && x.t[0] < mx.t[0]) { mx = x; my = y; }
        henon_step<SINGLE>(a, b, a1, b1, x, y);
        if (escaped(x, y, esc)) {
            rec.status = ST_ESCAPED;
            rec.steps = transient + k + i + 1;
            phases_end(clk, 2);
            return rec;
        }
    }
    const T res = dist(x, y, cx, cy);
    rec.period = k;
    rec.residual = (double)res;
    rec.steps = transient + 2ull * k;
    if (!(res < tol)) {
        rec.status = ST_UNCONFIRMED;
        phases_end(clk, 2);
        return rec;
    }
    rec.status = ST_CYCLE;
    rec.trace = m00 + m11;
    double det = 1.0;
    for (u32 i = 0; i < k; ++i) det = det * (-bhi);
    rec.det = det;
    rec.x = mx;
    rec.y = my;
    phases_end(clk, 2);
    return rec;
}

struct Out {
    u32 *status;
    u32 *period;
    u64 *steps;
    double *residual, *trace, *det;
    T *x, *y;        // interleaved, stride = capacity
    u64 *index;      // compact mode: orbit index of each kept record
};

__device__ __forceinline__ void store(const Out &o, u64 slot, u64 stride, const Rec &r) {
    o.status[slot] = r.status;
    o.period[slot] = r.period;
    o.steps[slot] = r.steps;
    o.residual[slot] = r.residual;
    o.trace[slot] = r.trace;
    o.det[slot] = r.det;
#pragma unroll
    for (int k = 0; k < NT; ++k) {
        o.x[k * stride + slot] = r.x.t[k];
        o.y[k * stride + slot] = r.y.t[k];
    }
}

// One thread per orbit g in [first, first + count): parameter p = g / n_init, initial point
// i = g % n_init. Parameters and initial points are interleaved expansions (stride n_param,
// n_init). compact == 0: record of orbit g stored at slot g - first. compact != 0: only
// UNCONFIRMED and CYCLE records (compact == 2: also ESCAPED ones) are stored, at slots taken
// from counters[4] (up to capacity), with their orbit index; counters[0..4] count the statuses,
// and counters[5..8] add up the threads' clock64 cycles in the transient, the close-return
// search and the confirmation (for `expanse search --profile`; compact modes only).
template <bool SINGLE>
__device__ __forceinline__ void orbits_body(const T *__restrict__ a_terms, const T *__restrict__ b_terms,
                                            u64 n_param, const T *__restrict__ x0, const T *__restrict__ y0,
                                            u64 n_init, u64 first, u64 count, u64 transient, u32 pmax,
                                            T tol, T esc, int compact, u64 capacity, Out o,
                                            u64 *counters) {
    const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u32 status = 0xffffffffu;
    Rec r;
    if (t < count) {
        const u64 g = first + t;
        const u64 p = g / n_init, i = g - p * n_init;
        E a, b, x, y;
#pragma unroll
        for (int k = 0; k < NT; ++k) {
            a.t[k] = a_terms[k * n_param + p];
            b.t[k] = b_terms[k * n_param + p];
            x.t[k] = x0[k * n_init + i];
            y.t[k] = y0[k * n_init + i];
        }
        PhaseClock clk;
        r = run_orbit<SINGLE>(a, b, x, y, transient, pmax, tol, esc, clk);
        status = r.status;
        if (!compact) {
            store(o, t, capacity, r);
        } else if (status == ST_CYCLE || status == ST_UNCONFIRMED ||
                   (compact == 2 && status == ST_ESCAPED)) {
            const u64 slot = atomicAdd(&counters[4], 1ull);
            if (slot < capacity) {
                store(o, slot, capacity, r);
                o.index[slot] = g;
            }
        }
        if (compact) {
            atomicAdd(&counters[5], (u64)(clk.transient - clk.start));
            atomicAdd(&counters[6], (u64)(clk.close - clk.transient));
            atomicAdd(&counters[7], (u64)(clk.confirm - clk.close));
        }
    }
    if (compact) {
        // Warp-aggregated status counts.
        // Every thread of the block gets here (blocks are whole warps).
        __syncwarp();
#pragma unroll
        for (u32 s = 0; s < 4; ++s) {
            const unsigned m = __ballot_sync(0xffffffffu, status == s);
            if (m != 0 && (threadIdx.x & 31) == 0) atomicAdd(&counters[s], (u64)__popc(m));
        }
    }
}

#define ORBITS_ARGS                                                                                 \
    const T *__restrict__ a_terms, const T *__restrict__ b_terms, u64 n_param,                      \
        const T *__restrict__ x0, const T *__restrict__ y0, u64 n_init, u64 first, u64 count,       \
        u64 transient, u32 pmax, T tol, T esc, int compact, u64 capacity, u32 *status, u32 *period, \
        u64 *steps, double *residual, double *trace, double *det, T *xs, T *ys, u64 *index,         \
        u64 *counters
#define ORBITS_CALL                                                                                 \
    Out o;                                                                                          \
    o.status = status; o.period = period; o.steps = steps; o.residual = residual;                   \
    o.trace = trace; o.det = det; o.x = xs; o.y = ys; o.index = index;

extern "C" __global__ void __launch_bounds__(ORBIT_BLOCK) orbits_single(ORBITS_ARGS) {
    ORBITS_CALL
    orbits_body<true>(a_terms, b_terms, n_param, x0, y0, n_init, first, count, transient, pmax, tol,
                      esc, compact, capacity, o, counters);
}

extern "C" __global__ void __launch_bounds__(ORBIT_BLOCK) orbits_general(ORBITS_ARGS) {
    ORBITS_CALL
    orbits_body<false>(a_terms, b_terms, n_param, x0, y0, n_init, first, count, transient, pmax,
                       tol, esc, compact, capacity, o, counters);
}
