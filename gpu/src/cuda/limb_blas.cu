// GEMV over fixed-limb floats (after cuda/limb.cu in the program): y = A·x with every
// operation correctly rounded (limb.cu's limb_mul / limb_add, one rounding mode for all) in
// one fixed order, so the result is a deterministic function of the inputs that the CPU
// reference (gpu/src/limb_blas.rs) and MPFR reproduce bit for bit:
//
//   v_j = ∘(A_ij · x_j)                      for j = 0 … N−1
//   for s = 1, 2, 4, … < N:  v_k = ∘(v_k + v_{k+s})   for k = 0, 2s, 4s, … with k + s < N
//   y_i = v_0
//
// i.e. pairwise (tree) summation of the rounded products: a fixed order whose levels are
// parallel, and whose error bound grows with log₂ N rather than N (Higham, "Accuracy and
// Stability of Numerical Algorithms", §4.2). One block per row: its threads form the row's
// products (and the first level of sums) and then the levels of the tree, separated by
// __syncthreads; the partial sums live in a global scratch array of M·N numbers (the layout
// of A). Matrices are row-major in the interleaved layout of limb.cu: element (i, j) is
// element i·N + j, limb l of element e at m[l·M·N + e].
//
// Kernels `limb_gemv_<L>(rnd, p, M, N, A…, x…, S…, y…)`: grid M, any block size.

__device__ __forceinline__ void limb_store(u64 *m, int *e, unsigned char *ks, u64 count, u64 i, int n,
                                           const LimbRes &r, const u64 *out) {
    bool normal = r.kind == LK_NORMAL;
    for (int j = 0; j < n; ++j) m[(u64)j * count + i] = normal ? out[j] : 0ULL;
    e[i] = normal ? (int)r.exp : 0;
    ks[i] = (unsigned char)(r.kind | (r.neg << 2));
}

__device__ __forceinline__ void limb_load64(LimbNum &x, u64 *buf, const u64 *m, const int *e,
                                            const unsigned char *ks, u64 count, u64 i, int n) {
    unsigned char b = ks[i];
    x.kind = b & 3;
    x.neg = (b >> 2) & 1;
    x.exp = e[i];
    for (int j = 0; j < n; ++j) buf[j] = m[(u64)j * count + i];
    x.m = buf;
    x.n = n;
}

// One row's work (also the host shim's entry point: the caller sets blockIdx and runs the
// block's threads with shim_run_block).
template <int L>
__device__ void limb_gemv_block(int rnd, unsigned p, unsigned M, unsigned N, const u64 *am, const int *ae,
                                const unsigned char *ak, const u64 *xm, const int *xe, const unsigned char *xk,
                                u64 *sm, int *se, unsigned char *sk, u64 *ym, int *ye, unsigned char *yk) {
    u64 abuf[L], bbuf[L], o1[L], o2[L];
    u64 w[8 * L + 8];
    const int n = limb_limbs(p);
    const u64 MN = (u64)M * N;
    const u64 row = blockIdx.x;
    const unsigned T = blockDim.x, t = threadIdx.x;
    // Products, and the first level of the tree (s = 1): v_2q = ∘(∘(A·x)_2q + ∘(A·x)_2q+1).
    for (unsigned q = t; 2 * (u64)q < N; q += T) {
        unsigned j = 2 * q;
        LimbNum a, b;
        limb_load64(a, abuf, am, ae, ak, MN, row * N + j, n);
        limb_load64(b, bbuf, xm, xe, xk, N, j, n);
        for (int k = 0; k < n; ++k) o1[k] = 0;
        LimbRes r = limb_mul(a, b, p, rnd, o1, w);
        if (j + 1 < N) {
            limb_load64(a, abuf, am, ae, ak, MN, row * N + j + 1, n);
            limb_load64(b, bbuf, xm, xe, xk, N, j + 1, n);
            for (int k = 0; k < n; ++k) o2[k] = 0;
            LimbRes r2 = limb_mul(a, b, p, rnd, o2, w);
            LimbNum u, v;
            u.kind = r.kind;
            u.neg = r.neg;
            u.exp = r.exp;
            u.m = o1;
            u.n = n;
            v.kind = r2.kind;
            v.neg = r2.neg;
            v.exp = r2.exp;
            v.m = o2;
            v.n = n;
            for (int k = 0; k < n; ++k) abuf[k] = 0;
            r = limb_add(u, v, p, rnd, abuf, w);
            limb_store(sm, se, sk, MN, row * N + j, n, r, abuf);
        } else {
            limb_store(sm, se, sk, MN, row * N + j, n, r, o1);
        }
    }
    __syncthreads();
    for (u64 s = 2; s < N; s *= 2) {
        for (u64 k = 2 * s * t; k < N; k += 2 * s * T) {
            if (k + s < N) {
                LimbNum a, b;
                limb_load64(a, abuf, sm, se, sk, MN, row * N + k, n);
                limb_load64(b, bbuf, sm, se, sk, MN, row * N + k + s, n);
                for (int q = 0; q < n; ++q) o1[q] = 0;
                LimbRes r = limb_add(a, b, p, rnd, o1, w);
                limb_store(sm, se, sk, MN, row * N + k, n, r, o1);
            }
        }
        __syncthreads();
    }
    if (t == 0) {
        u64 src = row * N;
        for (int j = 0; j < n; ++j) ym[(u64)j * M + row] = sm[(u64)j * MN + src];
        ye[row] = se[src];
        yk[row] = sk[src];
    }
}

#define LIMB_GEMV_KERNEL(L)                                                                                       \
    extern "C" __global__ void limb_gemv_##L(int rnd, unsigned p, unsigned M, unsigned N, const u64 *am,         \
                                             const int *ae, const unsigned char *ak, const u64 *xm,               \
                                             const int *xe, const unsigned char *xk, u64 *sm, int *se,            \
                                             unsigned char *sk, u64 *ym, int *ye, unsigned char *yk) {            \
        limb_gemv_block<L>(rnd, p, M, N, am, ae, ak, xm, xe, xk, sm, se, sk, ym, ye, yk);                         \
    }

LIMB_GEMV_KERNEL(2)
LIMB_GEMV_KERNEL(4)
LIMB_GEMV_KERNEL(8)
LIMB_GEMV_KERNEL(16)
LIMB_GEMV_KERNEL(32)
LIMB_GEMV_KERNEL(64)
