// expanse-gpu BLAS: axpy, scal, gemv (normal and transposed), gemm, each with its rigorous
// componentwise error bound computed alongside in double. Follows arrays.cu (and, like it, uses
// accurate.cu's register-resident acc_mul_reg / acc_add_reg: the same results as acc_mul /
// acc_add). The bound
// arithmetic (bnd_*) is gpu/src/array/bound.rs operation for operation (no FMA: NVRTC runs with
// --fmad=false), and every routine repeats the order of gpu/src/array/host.rs, so values and
// bounds are bit-identical to the host backend's.

// ---- bound arithmetic (bound.rs) -----------------------------------------------------------------

#define BC_C1 0
#define BC_C2 1
#define BC_LIM 2
#define BC_ADD 3
#define BC_MUL 6
#define BC_MUL_TERM 9
#define BC_SQRT 12
#define BC_LOW1 15
// Within an operation's constants: +0 kappa, +1 eta, +2 kappa*eta + eta.

// +inf (no <cmath> INFINITY under NVRTC).
#define BND_INF __longlong_as_double(0x7ff0000000000000ll)

// bound::up: the next double up (x >= 0); +inf for +inf and NaN; the smallest subnormal for 0.
__device__ __forceinline__ double bnd_up(double x) {
    if (!(x < BND_INF)) return BND_INF;
    if (x == 0.0) return __longlong_as_double(1ll);
    return __longlong_as_double(__double_as_longlong(x) + 1ll);
}

__device__ __forceinline__ double bnd_add_up(double a, double b) { return bnd_up(a + b); }
__device__ __forceinline__ double bnd_mul_up(double a, double b) { return bnd_up(a * b); }

__device__ __forceinline__ double bnd_mag(const BC &c, double a0) { return bnd_add_up(bnd_mul_up(c.v[BC_C1], a0), c.v[BC_C2]); }

__device__ __forceinline__ double bnd_delta(const BC &c, int op, double a0) {
    return bnd_add_up(bnd_mul_up(c.v[op], bnd_add_up(bnd_mag(c, a0), c.v[op + 1])), c.v[op + 1]);
}

__device__ __forceinline__ double bnd_growth(u64 n) { return bnd_up(1.0 + (double)n * 0x1p-52); }

__device__ __forceinline__ double bnd_delta_sum(const BC &c, int op, double sum0, u64 n) {
    if (n == 0) return 0.0;
    const double nf = (double)n;
    const double sum = bnd_mul_up(sum0, bnd_growth(n));
    const double mags = bnd_add_up(bnd_mul_up(c.v[BC_C1], sum), bnd_mul_up(nf, c.v[BC_C2]));
    return bnd_add_up(bnd_mul_up(c.v[op], mags), bnd_mul_up(nf, c.v[op + 2]));
}

__device__ __forceinline__ double bnd_finalize(const BC &c, int op_m, double p, u64 n_m, double a, u64 n_a, double l) {
    u64 nn = n_m > n_a ? n_m : n_a;
    if (nn < 1) nn = 1;
    const double g = bnd_growth(nn);
    const double lm = bnd_mul_up(c.v[BC_C1], bnd_mul_up(l, g));
    const double pm = bnd_mul_up(c.v[BC_C1], bnd_mul_up(p, g));
    if (!(lm <= c.v[BC_LIM] && pm <= c.v[BC_LIM])) return BND_INF;
    return bnd_add_up(bnd_delta_sum(c, op_m, p, n_m), bnd_delta_sum(c, BC_ADD, a, n_a));
}

__device__ __forceinline__ double bnd_mul_prop(const BC &c, int op, double alpha0, double u0, double err_u, double v0) {
    const double ma = bnd_mag(c, alpha0);
    const double mu = bnd_add_up(bnd_mag(c, u0), err_u);
    const double mv = bnd_mag(c, v0);
    if (!(ma <= c.v[BC_LIM] && mu <= c.v[BC_LIM] && mv <= c.v[BC_LIM])) return BND_INF;
    return bnd_add_up(bnd_mul_up(ma, err_u), bnd_delta(c, op, v0));
}

__device__ __forceinline__ double bnd_add_local(const BC &c, double v0, double w0, double r0) {
    const double m = bnd_add_up(bnd_add_up(bnd_mag(c, v0), bnd_mag(c, w0)), bnd_mag(c, r0));
    if (!(m <= c.v[BC_LIM])) return BND_INF;
    return bnd_delta(c, BC_ADD, r0);
}

// host.rs epilogue: r = alpha*u + beta*y and its bound. Once per output: the out-of-line
// acc_mul / acc_add (same results as the _reg variants, less code to compile).
__device__ __forceinline__ void blas_epilogue(const BC &c, const E &u, double err_u, int has_alpha, const E &al, int has_beta,
                                              const E &be, const E &y, E &r, double &err) {
    E v = u;
    double err_v = err_u;
    if (has_alpha) {
        v = acc_mul(al, u);
        err_v = bnd_mul_prop(c, BC_MUL, lead_abs(al), lead_abs(u), err_u, lead_abs(v));
    }
    if (!has_beta) {
        r = v;
        err = err_v;
        return;
    }
    const E w = acc_mul(be, y);
    const double err_w = bnd_mul_prop(c, BC_MUL, lead_abs(be), lead_abs(y), 0.0, lead_abs(w));
    r = acc_add(v, w);
    err = bnd_add_up(bnd_add_up(err_v, err_w), bnd_add_local(c, lead_abs(v), lead_abs(w), lead_abs(r)));
}

// ---- level 1 -------------------------------------------------------------------------------------

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) blas_axpy(Sc alpha, const T *x, const T *y, T *out, double *err, u64 len, BC c) {
    const E al = e_of_sc(alpha);
    GRID_STRIDE(i, len) {
        const E p = ld_e(x, len, i), q = ld_e(y, len, i);
        const E v = acc_mul_reg(al, p);
        const double err_v = bnd_mul_prop(c, BC_MUL, lead_abs(al), lead_abs(p), 0.0, lead_abs(v));
        const E r = acc_add_reg(v, q);
        st_e(out, len, i, r);
        err[i] = bnd_add_up(err_v, bnd_add_local(c, lead_abs(v), lead_abs(q), lead_abs(r)));
    }
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) blas_scal(Sc alpha, const T *x, T *out, double *err, u64 len, BC c) {
    const E al = e_of_sc(alpha);
    GRID_STRIDE(i, len) {
        const E p = ld_e(x, len, i);
        const E v = acc_mul_reg(al, p);
        st_e(out, len, i, v);
        err[i] = bnd_mul_prop(c, BC_MUL, lead_abs(al), lead_abs(p), 0.0, lead_abs(v));
    }
}

// ---- GEMV (host.rs gemv_impl) ------------------------------------------------------------------------

#define GEMV_CHUNK 32
#define GEMV_AHEAD (NT <= 4 ? 8 : 1)

// Partial g = c*out_len + o: output o's chunk c (reduction indices 32c .. 32c + 31) folded left
// to right from its first product, with its A, P, L accumulators.
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) blas_gemv_part(int trans, const T *A, u64 rows, u64 cols, const T *x, T *part,
                                                                       double *aux, u64 out_len, u64 chunks) {
    const u64 alen = rows * cols;
    const u64 red_len = trans ? rows : cols;
    const u64 total = out_len * chunks;
    GRID_STRIDE(t, total) {
        // Consecutive threads: consecutive rows of A (normal: outputs; transposed: chunks of
        // one output's column), so their loads are coalesced or share cache lines.
        const u64 o = trans ? t / chunks : t % out_len;
        const u64 ch = trans ? t % chunks : t / out_len;
        const u64 g = ch * out_len + o;
        const u64 r0 = ch * GEMV_CHUNK;
        const u64 r1 = r0 + GEMV_CHUNK < red_len ? r0 + GEMV_CHUNK : red_len;
        RV<NT> s;
        // Loads in groups of GEMV_AHEAD ahead of their products (memory-level parallelism; fewer
        // at large N, where the registers go to the products' lists); the fold is the same left
        // to right.
        for (u64 rb = r0; rb < r1; rb += GEMV_AHEAD) {
            E av[GEMV_AHEAD], xv[GEMV_AHEAD];
#pragma unroll
            for (int q = 0; q < GEMV_AHEAD; ++q) {
                const u64 r = rb + q;
                if (r < r1) {
                    av[q] = ld_e(A, alen, trans ? r + o * rows : o + r * rows);
                    xv[q] = ld_e(x, red_len, r);
                }
            }
#pragma unroll
            for (int q = 0; q < GEMV_AHEAD; ++q) {
                const u64 r = rb + q;
                if (r < r1) {
                    RV<NT> lf;
                    const E pr = acc_mul_reg(av[q], xv[q]);
                    lf.e = x_of_e<NT>(pr);
                    lf.a = 0.0;
                    lf.p = lead_abs(pr);
                    lf.l = lead_abs(av[q]) + lead_abs(xv[q]);
                    s = r == r0 ? lf : comb_sum<NT>(s, lf);
                }
            }
        }
        st_x<NT>(part, total, g, s.e);
        aux[g] = s.a;
        aux[total + g] = s.p;
        aux[2 * total + g] = s.l;
    }
}

// Outputs per block of the finish kernel: one warp each (Rust: device.rs `gemv`).
#define GEMV_FIN_OUTS (ARR_BLOCK / 32)

// Output o: the pairwise tree over its chunk partials, the bound, the epilogue. One warp per
// output: the chunks in groups of 32, one per lane; each group by the stride-doubling tree in
// shared memory (lane j absorbs lane j + s for s = 1, 2, 4, 8, 16); the group totals by a
// stack of complete dyadic blocks on lane 0 (merged when two of equal size meet, then merged
// from the top). Together this is the stride-doubling tree of host.rs `tree` over all chunks,
// operation for operation: its levels below 32 stay within aligned groups of 32 chunks, and its
// levels from 32 on are the stride-doubling tree over the group totals, which the stack
// computes. Every loop bound and barrier is uniform over the block (idle warps take part).
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) blas_gemv_finish(const T *part, const double *aux, u64 out_len, u64 chunks, u64 red_len,
                                                                         int has_alpha, Sc alpha, int has_beta, Sc beta, const T *y,
                                                                         T *out, double *err, BC c) {
    __shared__ RV<NT> sv[ARR_BLOCK];
    const u64 total = out_len * chunks;
    const E al = e_of_sc(alpha), be = e_of_sc(beta);
    const int tid = threadIdx.x, lane = tid % 32;
    const u64 groups = red_len > 0 ? (chunks + 31) / 32 : 0;
    for (u64 ob = (u64)blockIdx.x * GEMV_FIN_OUTS; ob < out_len; ob += (u64)gridDim.x * GEMV_FIN_OUTS) {
        const u64 o = ob + tid / 32;
        const bool act = o < out_len;
        RV<NT> stk[40];
        u64 sz[40];
        int top = 0;
        for (u64 gr = 0; gr < groups; ++gr) {
            const u64 rest = chunks - gr * 32;
            const int cnt = rest < 32 ? (int)rest : 32;
            if (act && lane < cnt) {
                const u64 gi = (gr * 32 + lane) * out_len + o;
                sv[tid].e = ld_x<NT>(part, total, gi);
                sv[tid].a = aux[gi];
                sv[tid].p = aux[total + gi];
                sv[tid].l = aux[2 * total + gi];
            }
            __syncthreads();
            for (int s = 1; s < 32; s *= 2) {
                if (act && (lane % (2 * s)) == 0 && lane + s < cnt) sv[tid] = comb_sum<NT>(sv[tid], sv[tid + s]);
                __syncthreads();
            }
            if (act && lane == 0) {
                stk[top] = sv[tid];
                sz[top] = 1;
                ++top;
                while (top >= 2 && sz[top - 1] == sz[top - 2]) {
                    stk[top - 2] = comb_sum<NT>(stk[top - 2], stk[top - 1]);
                    sz[top - 2] *= 2;
                    --top;
                }
            }
            __syncthreads(); // the next group's loads overwrite sv
        }
        if (act && lane == 0) {
            E u = acc_zero();
            double err_u = 0.0;
            if (groups > 0) {
                while (top >= 2) {
                    stk[top - 2] = comb_sum<NT>(stk[top - 2], stk[top - 1]);
                    --top;
                }
                u = e_of_x<NT>(stk[0].e);
                err_u = bnd_finalize(c, BC_MUL, stk[0].p, red_len, stk[0].a, red_len - 1, stk[0].l);
            }
            E yv = acc_zero();
            if (has_beta) yv = ld_e(y, out_len, o);
            E r;
            double e;
            blas_epilogue(c, u, err_u, has_alpha, al, has_beta, be, yv, r, e);
            st_e(out, out_len, o, r);
            err[o] = e;
        }
    }
}

// ---- GEMM (host.rs gemm_impl) ------------------------------------------------------------------------

// Block tile: 16 x 16 threads, each GEMM_RM x GEMM_RN outputs (rows tx + 16r, columns ty + 16c);
// k in steps of GEMM_BK through shared memory. Rust: device::gemm_block_tile.
#if NT <= 2
#define GEMM_RM 2
#define GEMM_RN 2
#define GEMM_BK 16
#elif NT <= 4
#define GEMM_RM 2
#define GEMM_RN 1
#define GEMM_BK 16
#else
#define GEMM_RM 1
#define GEMM_RN 1
#define GEMM_BK 8
#endif
// Launch bounds of the GEMM fold (results do not depend on them). N <= 2: three blocks per SM
// (ptxas then keeps the fold in at most 85 registers): H100, n = 4096, 0.336 s against 0.378 s
// with the compiler's own choice (126 registers, two blocks). N > 2: the compiler's choice;
// asking for one block (__launch_bounds__(256, 1)) made N = 4 1.5 times slower and three
// blocks 6 % slower (gpu/tools/arrays_variants.sh). Overridable for experiments:
// EXPANSE_GPU_NVRTC_OPTS="-DGEMM_MIN_BLOCKS=2".
#ifndef GEMM_MIN_BLOCKS
#define GEMM_MIN_BLOCKS (NT <= 2 ? 3 : 0)
#endif
#if GEMM_MIN_BLOCKS > 0
#define GEMM_LAUNCH_BOUNDS __launch_bounds__(256, GEMM_MIN_BLOCKS)
#else
#define GEMM_LAUNCH_BOUNDS __launch_bounds__(256)
#endif
#define GEMM_BM (16 * GEMM_RM)
#define GEMM_BN (16 * GEMM_RN)

// host.rs gemm_step: s <- s + a*b (or s = a*b to start), P += |p0|, A += |s0|.
__device__ __forceinline__ void gemm_step(E &s, double &p, double &a, const E &x, const E &y, bool start) {
    const E pr = acc_mul_reg(x, y);
    if (start) {
        s = pr;
        p = lead_abs(pr);
        a = 0.0;
    } else {
        s = acc_add_reg(s, pr);
        p = p + lead_abs(pr);
        a = a + lead_abs(s);
    }
}

// Continues the fold of every C element (state S, and PA: P at q, A at m*n + q, q = j*m + i)
// over k = 0 .. kt - 1 of the panels A (element (i, kk) at a_off + i + kk*lda of an array of
// a_len) and B (element (kk, j) at b_off + kk + j*ldb of b_len). first: the fold starts here.
extern "C" __global__ void GEMM_LAUNCH_BOUNDS blas_gemm_fold(const T *A, u64 a_len, u64 a_off, u64 lda, const T *B, u64 b_len,
                                                                 u64 b_off, u64 ldb, u64 m, u64 n, u64 kt, int first, T *S, double *PA) {
    __shared__ E As[GEMM_BK][GEMM_BM];
    __shared__ E Bs[GEMM_BK][GEMM_BN];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const u64 tiles_m = (m + GEMM_BM - 1) / GEMM_BM;
    const u64 tiles = tiles_m * ((n + GEMM_BN - 1) / GEMM_BN);
    const u64 mn = m * n;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const u64 i0 = (tile % tiles_m) * GEMM_BM, j0 = (tile / tiles_m) * GEMM_BN;
        E s[GEMM_RM][GEMM_RN];
        double p[GEMM_RM][GEMM_RN], a[GEMM_RM][GEMM_RN];
#pragma unroll
        for (int r = 0; r < GEMM_RM; ++r)
#pragma unroll
            for (int c = 0; c < GEMM_RN; ++c) {
                const u64 i = i0 + tx + 16 * r, j = j0 + ty + 16 * c;
                s[r][c] = acc_zero();
                p[r][c] = 0.0;
                a[r][c] = 0.0;
                if (!first && i < m && j < n) {
                    const u64 q = j * m + i;
                    s[r][c] = ld_e(S, mn, q);
                    p[r][c] = PA[q];
                    a[r][c] = PA[mn + q];
                }
            }
        for (u64 k0 = 0; k0 < kt; k0 += GEMM_BK) {
            const int kb = kt - k0 < GEMM_BK ? (int)(kt - k0) : GEMM_BK;
            for (int q = threadIdx.x; q < GEMM_BM * GEMM_BK; q += 256) {
                const int ii = q % GEMM_BM, kk = q / GEMM_BM;
                As[kk][ii] = (i0 + ii < m && kk < kb) ? ld_e(A, a_len, a_off + (i0 + ii) + (k0 + kk) * lda) : acc_zero();
            }
            for (int q = threadIdx.x; q < GEMM_BK * GEMM_BN; q += 256) {
                const int kk = q % GEMM_BK, jj = q / GEMM_BK;
                Bs[kk][jj] = (j0 + jj < n && kk < kb) ? ld_e(B, b_len, b_off + (k0 + kk) + (j0 + jj) * ldb) : acc_zero();
            }
            __syncthreads();
            for (int kk = 0; kk < kb; ++kk) {
                const bool start = first && k0 == 0 && kk == 0;
                E av[GEMM_RM], bv[GEMM_RN];
#pragma unroll
                for (int r = 0; r < GEMM_RM; ++r) av[r] = As[kk][tx + 16 * r];
#pragma unroll
                for (int c = 0; c < GEMM_RN; ++c) bv[c] = Bs[kk][ty + 16 * c];
#pragma unroll
                for (int r = 0; r < GEMM_RM; ++r)
#pragma unroll
                    for (int c = 0; c < GEMM_RN; ++c) gemm_step(s[r][c], p[r][c], a[r][c], av[r], bv[c], start);
            }
            __syncthreads();
        }
#pragma unroll
        for (int r = 0; r < GEMM_RM; ++r)
#pragma unroll
            for (int c = 0; c < GEMM_RN; ++c) {
                const u64 i = i0 + tx + 16 * r, j = j0 + ty + 16 * c;
                if (i < m && j < n) {
                    const u64 q = j * m + i;
                    st_e(S, mn, q, s[r][c]);
                    PA[q] = p[r][c];
                    PA[mn + q] = a[r][c];
                }
            }
    }
}

// Element q: the fold's bound (host.rs gemm_err) and the epilogue.
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) blas_gemm_finish(const T *S, const double *PA, u64 len, u64 k, int range_ok,
                                                                         int has_alpha, Sc alpha, int has_beta, Sc beta, const T *C,
                                                                         T *out, double *err, BC c) {
    const E al = e_of_sc(alpha), be = e_of_sc(beta);
    GRID_STRIDE(q, len) {
        E u = acc_zero();
        double err_u = 0.0;
        if (k > 0) {
            u = ld_e(S, len, q);
            err_u = range_ok ? bnd_finalize(c, BC_MUL, PA[q], k, PA[len + q], k - 1, 0.0) : BND_INF;
        }
        E cv = acc_zero();
        if (has_beta) cv = ld_e(C, len, q);
        E r;
        double e;
        blas_epilogue(c, u, err_u, has_alpha, al, has_beta, be, cv, r, e);
        st_e(out, len, q, r);
        err[q] = e;
    }
}
