// expanse-gpu arrays: element-wise maps, reductions, the single-pass scan, sort and select over
// arrays of N-term expansions in the interleaved layout (term k of element i at k*len + i).
// Follows prelude.cu and accurate.cu (acc_* on E, and its generic ac_add<M> on X<M> for the
// doubled-precision sum); the hot operations use accurate.cu's register-resident variants
// (acc_add_reg, acc_mul_reg, ac_add_reg<M>, ...: the same results, lists kept in registers). The association orders are those of gpu/src/array/mod.rs ("Orders"),
// which the host backend (gpu/src/array/host.rs) repeats operation for operation: keep the two
// in step; tests/it/arrays_on_cpu.rs (host build) and `expanse bench arrays --check` (device)
// prove they agree bit for bit.
//
// Every kernel runs with 256 threads per block (ARR_BLOCK) on a 1-D grid. Shared memory is
// static (no dynamic shared memory), at most 48 KB per block.

#define ARR_BLOCK 256
#define RED_TILE 2048
#define RED_THREADS 256
#define RED_ITEMS 8
#define SCAN_THREADS 256
#define SCAN_ITEMS 8
#define SCAN_TILE 2048
// Blocks of the scan resident per SM that the register allocation must allow, so that one
// block's serial phases overlap other blocks' work. Measured on an H100 (bench arrays, 10^8
// elements, gpu/tools/arrays_variants.sh) with the previous form of the kernel (a block-wide
// thread tree with a barrier per level and a look-back in thread 0; ncu: 61 % of the warps'
// stall cycles at a barrier at N = 2): N = 2 scan 23.6 % of copy bandwidth with 2, 28.4 % with
// 3, 27.8 % with 4; N = 4 10.0 % with 2, 11.3 % with 3, 11.9 % with 4. With the warp-level form
// below and parking (same device, same bench): N = 2 27.6 % with 2, 35.8 % with 3, 40.0 % with
// 4; N = 4 11.4 % with 2, 11.9 % with 4. Overridable for experiments
// (EXPANSE_GPU_NVRTC_OPTS="-DSCAN_MIN_BLOCKS=1"); results do not depend on it.
#ifndef SCAN_MIN_BLOCKS
#define SCAN_MIN_BLOCKS (NT <= 4 ? 4 : 1)
#endif
// The scan's look-back may start from a published tile prefix (1; results do not depend on
// it). Test hook: a host build defines 0 to fold every tile prefix from the nodes.
#ifndef SCAN_SHORTCUT
#define SCAN_SHORTCUT 1
#endif
// The same as SCAN_MIN_BLOCKS for the passes of sum, min and max at N <= 4 (RED_MB below; the
// dot product, the sum of squares (360 bytes of spills at 128 registers, N = 4) and the
// doubled-precision sum keep 1). 2: ptxas sm_90, N = 4 f64, arr_red_sum at most 128
// registers, no spills (with 1 it may take 130 and fit one block per SM); 3 gives 80 registers
// with about 120 bytes of spills and is faster all the same (H100, 10^8 elements: N = 4 sum
// 18.5 % of copy bandwidth with 2, 19.9 % with 3 or 4; N = 2 unchanged at 74-75 %).
// Overridable: EXPANSE_GPU_NVRTC_OPTS="-DRED_MIN_BLOCKS=2".
#ifndef RED_MIN_BLOCKS
#define RED_MIN_BLOCKS 3
#endif
// Leaves of a thread loaded before the first pass of sum, min, max, dot, sumsq at N <= 4 starts
// its fold (1..RED_ITEMS; the rest one by one, RED_LOOKAHEAD − 1 ahead of the fold; results do
// not depend on it). N <= 2: all eight first (measured above). N = 3, 4: two (H100, bench
// arrays, 10^8 elements: N = 4 sum 24.3 % of copy bandwidth with two, 19.9 % with eight): ncu found the N = 4 sum latency-bound on the L1TEX scoreboard (loads and
// spills) at 13 % of the FP64 pipe; eight N = 4 leaves held at once are ~64 registers, and
// ptxas (sm_90, N = 4 f64, arr_red_sum, RED_MIN_BLOCKS 3 = 80 registers) spills 120 bytes
// with eight and none with two (one with RED_MIN_BLOCKS 4: 64 registers, no spills); with two
// a block's loads are spread over its fold instead of one burst per tile. A/B on the device:
// EXPANSE_GPU_NVRTC_OPTS="-DRED_LOOKAHEAD=8" (the previous form), "-DRED_LOOKAHEAD=1
// -DRED_MIN_BLOCKS=4".
#ifndef RED_LOOKAHEAD
#define RED_LOOKAHEAD (NT <= 2 ? RED_ITEMS : 2)
#endif
#define SORT_TILE 256
// Terms of the accumulator of the doubled-precision sum (array::acc_terms).
#define ACC_M (NT <= 4 ? 2 * NT : 8)

// An expansion of up to 8 terms widened to double (Rust KArg::Sc).
struct Sc {
    double t[8];
};

// The bound constants (Rust bound::Consts::to_array).
struct BC {
    double v[16];
};

#define GRID_STRIDE(i, n) for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (u64)gridDim.x * blockDim.x)

__device__ __forceinline__ E ld_e(const T *base, u64 len, u64 i) {
    E e;
#pragma unroll
    for (int k = 0; k < NT; ++k) e.t[k] = base[(u64)k * len + i];
    return e;
}

__device__ __forceinline__ void st_e(T *base, u64 len, u64 i, const E &e) {
#pragma unroll
    for (int k = 0; k < NT; ++k) base[(u64)k * len + i] = e.t[k];
}

template <int M> __device__ __forceinline__ X<M> ld_x(const T *base, u64 len, u64 i) {
    X<M> e;
#pragma unroll
    for (int k = 0; k < M; ++k) e.t[k] = base[(u64)k * len + i];
    return e;
}

template <int M> __device__ __forceinline__ void st_x(T *base, u64 len, u64 i, const X<M> &e) {
#pragma unroll
    for (int k = 0; k < M; ++k) base[(u64)k * len + i] = e.t[k];
}

__device__ __forceinline__ E e_of_sc(const Sc &s) {
    E e;
#pragma unroll
    for (int k = 0; k < NT; ++k) e.t[k] = (T)s.t[k];
    return e;
}

// |x0| as double (exact for float terms).
__device__ __forceinline__ double lead_abs(const E &e) { return fabs((double)e.t[0]); }
template <int M> __device__ __forceinline__ double lead_abs_x(const X<M> &e) { return fabs((double)e.t[0]); }

// Expansion::is_nan: any term NaN.
__device__ __forceinline__ bool e_isnan(const E &e) {
    bool n = false;
#pragma unroll
    for (int k = 0; k < NT; ++k) n = n || (e.t[k] != e.t[k]);
    return n;
}

// Expansion::abs: the sign is the leading term's.
__device__ __forceinline__ E e_abs(const E &a) { return a.t[0] < T(0) ? acc_neg(a) : a; }

template <int M> __device__ __forceinline__ X<M> x_of_e(const E &a) {
    X<M> r;
#pragma unroll
    for (int k = 0; k < M; ++k) r.t[k] = k < NT ? a.t[k] : T(0);
    return r;
}

template <int M> __device__ __forceinline__ E e_of_x(const X<M> &a) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = a.t[k];
    return r;
}

// ---- element-wise maps ------------------------------------------------------------------------

template <int OP> __device__ __forceinline__ E map2_op(const E &a, const E &b) {
    if constexpr (OP == 0) return acc_add_reg(a, b);
    else if constexpr (OP == 1) return acc_sub_reg(a, b);
    else if constexpr (OP == 2) return acc_mul_reg(a, b);
    else return acc_div(a, b);
}

template <int OP> __device__ __forceinline__ void map2(const T *a, const T *b, T *out, u64 len) {
    GRID_STRIDE(i, len) st_e(out, len, i, map2_op<OP>(ld_e(a, len, i), ld_e(b, len, i)));
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_add(const T *a, const T *b, T *out, u64 len) { map2<0>(a, b, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_sub(const T *a, const T *b, T *out, u64 len) { map2<1>(a, b, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_mul(const T *a, const T *b, T *out, u64 len) { map2<2>(a, b, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_div(const T *a, const T *b, T *out, u64 len) { map2<3>(a, b, out, len); }

template <int OP> __device__ __forceinline__ E map1_op(const E &a) {
    if constexpr (OP == 0) return acc_neg(a);
    else if constexpr (OP == 1) return e_abs(a);
    else if constexpr (OP == 2) return acc_sqr_reg(a);
    else if constexpr (OP == 3) return acc_sqrt(a);
    else return acc_recip(a);
}

template <int OP> __device__ __forceinline__ void map1(const T *a, T *out, u64 len) {
    GRID_STRIDE(i, len) st_e(out, len, i, map1_op<OP>(ld_e(a, len, i)));
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_neg(const T *a, T *out, u64 len) { map1<0>(a, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_abs(const T *a, T *out, u64 len) { map1<1>(a, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_sqr(const T *a, T *out, u64 len) { map1<2>(a, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_sqrt(const T *a, T *out, u64 len) { map1<3>(a, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_recip(const T *a, T *out, u64 len) { map1<4>(a, out, len); }

template <int OP> __device__ __forceinline__ void map_term(const T *a, double t, T *out, u64 len) {
    T tt = (T)t;
    GRID_STRIDE(i, len) {
        E x = ld_e(a, len, i);
        E r;
        if constexpr (OP == 0) r = acc_add_term_reg(x, tt);
        else if constexpr (OP == 1) r = acc_mul_term_reg(x, tt);
        else r = acc_div_term(x, tt);
        st_e(out, len, i, r);
    }
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_add_term(const T *a, double t, T *out, u64 len) { map_term<0>(a, t, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_mul_term(const T *a, double t, T *out, u64 len) { map_term<1>(a, t, out, len); }
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_div_term(const T *a, double t, T *out, u64 len) { map_term<2>(a, t, out, len); }

// ---- reductions (host.rs reduce_generic) --------------------------------------------------------

// A sum-like partial result with its bound accumulators: A = Σ|s0| over additions, P = Σ|p0|
// over products, L = Σ|x0| over operands (bound.rs).
template <int M> struct RV {
    X<M> e;
    double a, p, l;
};

#define OP_SUM 0
#define OP_DOT 1
#define OP_SUMSQ 2
#define OP_MIN 3
#define OP_MAX 4

// host.rs comb_sum: the accurate addition; A = (A_l + A_r) + |s0|, P and L added.
template <int M> __device__ __forceinline__ RV<M> comb_sum(const RV<M> &x, const RV<M> &y) {
    RV<M> r;
    r.e = ac_add_reg<M>(x.e, y.e);
    r.a = (x.a + y.a) + lead_abs_x<M>(r.e);
    r.p = x.p + y.p;
    r.l = x.l + y.l;
    return r;
}

// host.rs comb_min / comb_max: NaN-poisoning, the first of equal ones.
template <int M, bool MIN> __device__ __forceinline__ RV<M> comb_minmax(const RV<M> &x, const RV<M> &y) {
    if (x_isnan<M>(x.e)) return x;
    if (x_isnan<M>(y.e)) return y;
    int c = ac_cmp_reg<M>(y.e, x.e);
    if (MIN ? c == -1 : c == 1) return y;
    return x;
}

template <int OP, int M> __device__ __forceinline__ RV<M> comb(const RV<M> &x, const RV<M> &y) {
    if constexpr (OP == OP_MIN) return comb_minmax<M, true>(x, y);
    else if constexpr (OP == OP_MAX) return comb_minmax<M, false>(x, y);
    else return comb_sum<M>(x, y);
}

// The leaf of element i. FIRST: from the input arrays (x, and y for DOT); else from the
// previous pass's partials (x: M-term values over `len`, aux: A, P, L arrays of `len`).
template <int OP, int M, bool FIRST> __device__ __forceinline__ RV<M> leaf(const T *x, const void *y, u64 len, u64 i) {
    RV<M> v;
    if constexpr (!FIRST) {
        const double *aux = (const double *)y;
        v.e = ld_x<M>(x, len, i);
        v.a = aux[i];
        v.p = aux[len + i];
        v.l = aux[2 * len + i];
    } else {
        E a = ld_e(x, len, i);
        v.a = 0.0;
        if constexpr (OP == OP_DOT) {
            E b = ld_e((const T *)y, len, i);
            E pr = acc_mul_reg(a, b);
            v.e = x_of_e<M>(pr);
            v.p = lead_abs(pr);
            v.l = lead_abs(a) + lead_abs(b);
        } else if constexpr (OP == OP_SUMSQ) {
            E pr = acc_sqr_reg(a);
            v.e = x_of_e<M>(pr);
            v.p = lead_abs(pr);
            v.l = lead_abs(a);
        } else if constexpr (OP == OP_SUM) {
            v.e = x_of_e<M>(a);
            v.p = 0.0;
            v.l = lead_abs(a);
        } else {
            v.e = x_of_e<M>(a);
            v.p = 0.0;
            v.l = 0.0;
        }
    }
    return v;
}

// The pairwise tree over the thread values sv[0 .. threads) (stride doubling: at level s,
// sv[i] = sv[i] (+) sv[i + s] for i a multiple of 2s with i + s < threads). The pairs of a level
// go to the lowest threads (thread j takes i = 2sj), so a level of k pairs occupies ceil(k / 32)
// warps instead of every warp with one lane in 2s busy: the same combinations, far fewer warp
// instructions (12 instead of 48 add-issues per tile of 256 values).
template <int OP, int M> __device__ __forceinline__ void red_tree(RV<M> *sv, int threads, int j) {
    for (int s = 1; s < threads; s *= 2) {
        const int i = 2 * s * j;
        if (i + s < threads) sv[i] = comb<OP, M>(sv[i], sv[i + s]);
        __syncthreads();
    }
}

// One tile of RED_TILE elements per block: "thread" j folds j, j + 256, ... left to right, then
// the pairwise tree (stride doubling) over the thread values. Writes the tile's partial.
template <int OP, int M, bool FIRST>
__device__ __forceinline__ void reduce_tile(const T *x, const void *y, u64 len, T *pe, double *aux, u64 tiles) {
    __shared__ RV<M> sv[RED_THREADS];
    const u64 base = (u64)blockIdx.x * RED_TILE;
    const u64 rem = len - base;
    const int count = rem < RED_TILE ? (int)rem : RED_TILE;
    const int threads = count < RED_THREADS ? count : RED_THREADS;
    const int j = threadIdx.x;
    if (j < threads) {
        RV<M> acc;
        if constexpr (FIRST && NT <= 4) {
            // The first RED_LOOKAHEAD leaves loaded before the fold, each next one as the fold
            // reaches the leaf RED_LOOKAHEAD − 1 before it (RED_ITEMS: all loads first, the
            // most loads in flight; fewer: fewer registers live); the same left fold.
            RV<M> vals[RED_ITEMS];
#pragma unroll
            for (int r = 0; r < RED_LOOKAHEAD; ++r)
                if (j + r * RED_THREADS < count) vals[r] = leaf<OP, M, FIRST>(x, y, len, base + j + r * RED_THREADS);
            acc = vals[0];
#pragma unroll
            for (int r = 1; r < RED_ITEMS; ++r) {
                const int q = r + RED_LOOKAHEAD - 1;
                if (q < RED_ITEMS && j + q * RED_THREADS < count) vals[q] = leaf<OP, M, FIRST>(x, y, len, base + j + q * RED_THREADS);
                if (j + r * RED_THREADS < count) acc = comb<OP, M>(acc, vals[r]);
            }
        } else {
            acc = leaf<OP, M, FIRST>(x, y, len, base + j);
            for (int r = j + RED_THREADS; r < count; r += RED_THREADS) acc = comb<OP, M>(acc, leaf<OP, M, FIRST>(x, y, len, base + r));
        }
        sv[j] = acc;
    }
    __syncthreads();
    red_tree<OP, M>(sv, threads, j);
    if (j == 0) {
        st_x<M>(pe, tiles, blockIdx.x, sv[0].e);
        aux[blockIdx.x] = sv[0].a;
        aux[tiles + blockIdx.x] = sv[0].p;
        aux[2 * tiles + blockIdx.x] = sv[0].l;
    }
}

#define RED_MB(OP, M) (((OP) == OP_DOT || (OP) == OP_SUMSQ || (M) != NT || NT > 4) ? 1 : RED_MIN_BLOCKS)
#define RED_KERNEL(name, OP, M, FIRST)                                                                              \
    extern "C" __global__ void __launch_bounds__(ARR_BLOCK, RED_MB(OP, M)) name(const T *x, const void *y, u64 len, T *pe, double *aux, \
                                                                 u64 tiles) {                                       \
        reduce_tile<OP, M, FIRST>(x, y, len, pe, aux, tiles);                                                       \
    }

RED_KERNEL(arr_red_sum, OP_SUM, NT, true)
RED_KERNEL(arr_red_dot, OP_DOT, NT, true)
RED_KERNEL(arr_red_sumsq, OP_SUMSQ, NT, true)
RED_KERNEL(arr_red_min, OP_MIN, NT, true)
RED_KERNEL(arr_red_max, OP_MAX, NT, true)
RED_KERNEL(arr_red_sumacc, OP_SUM, ACC_M, true)
RED_KERNEL(arr_red_sum_next, OP_SUM, NT, false)
RED_KERNEL(arr_red_min_next, OP_MIN, NT, false)
RED_KERNEL(arr_red_max_next, OP_MAX, NT, false)
RED_KERNEL(arr_red_sumacc_next, OP_SUM, ACC_M, false)

// max |x0| over each tile of RED_TILE elements (exact: needs no order).
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_amax_lead(const T *x, u64 len, double *out) {
    __shared__ double sm[RED_THREADS];
    const u64 base = (u64)blockIdx.x * RED_TILE;
    double m = 0.0;
    for (u64 i = base + threadIdx.x; i < len && i < base + RED_TILE; i += RED_THREADS) {
        double v = fabs((double)x[i]);
        if (v > m) m = v;
    }
    sm[threadIdx.x] = m;
    __syncthreads();
    for (int s = RED_THREADS / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s && sm[threadIdx.x + s] > sm[threadIdx.x]) sm[threadIdx.x] = sm[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sm[0];
}

// ---- the single-pass scan (host.rs scan_impl) ----------------------------------------------------
//
// The fold order is host.rs scan_tile_tree / scan_impl_into (module doc of gpu/src/array,
// "Orders"): thread totals, the pairwise tree over them, the thread prefix E_t from the dyadic
// blocks of [0, t), the tile prefix P_b from the dyadic nodes over the tile totals. How a block
// computes it: warp w holds the 256 consecutive elements of threads 32w .. 32w + 31 and builds
// levels 1..5 of the thread tree (the nodes inside the warp) by itself, with __syncwarp between
// levels; one block barrier makes the 8 warp totals (level 5) visible; each warp then computes
// the few nodes of levels 6..8 it needs side by side in its lanes. Loads and stores are staged
// per warp. Warp 0 looks back (every node wait, flag read and node read of the look-back runs
// in its lanes side by side, so the look-back costs a few memory round trips, not a few per
// node), while warp 1 publishes the tile total and the dyadic nodes it completes, and the other
// warps compute their thread prefixes. Block barriers per tile: three (the tile index, the warp
// totals, the tile prefix), against 2 + 4·N + 8 for a block-wide tree with block staging.

#define SCAN_WARPS (SCAN_THREADS / 32)

__device__ __forceinline__ void node_write(T *nodes, u64 idx, const E &v) {
#pragma unroll
    for (int k = 0; k < NT; ++k) ((volatile T *)nodes)[idx * NT + k] = v.t[k];
}

__device__ __forceinline__ E node_read(const T *nodes, u64 idx) {
    E v;
#pragma unroll
    for (int k = 0; k < NT; ++k) v.t[k] = ((const volatile T *)nodes)[idx * NT + k];
    return v;
}

// The flags of the scan pass messages between blocks: the writer stores the data (node_write),
// then sets the flag with release semantics (flag_release_fence, then flag_set: a fence
// followed by a strong store is a release pattern of the PTX memory model); the reader reads the
// flag with acquire semantics (flag_get; ld.acquire orders the thread's later loads after it),
// and once it has read 1, reads the data (node_read). SCAN_SYNC 1 (sm_70 and later): the
// acquire loads and fence.acq_rel.gpu (SASS MEMBAR.ALL.GPU; ptxas sm_90); 0: the previous form,
// volatile flag loads followed by __threadfence() (MEMBAR.SC.GPU, a sequentially consistent
// fence, the costlier one) and flags set by atomicExch after __threadfence(). Results do not
// depend on it; EXPANSE_GPU_NVRTC_OPTS="-DSCAN_SYNC=0" for the A/B.
#ifndef SCAN_SYNC
#define SCAN_SYNC 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && SCAN_SYNC
#define SCAN_ACQREL 1
#else
#define SCAN_ACQREL 0
#endif

// A flag's value, with acquire semantics when it is read as non-zero (flag_acquired after a
// run of flag_get calls completes it in the SCAN_SYNC 0 form).
__device__ __forceinline__ unsigned flag_get(const unsigned *f) {
#if SCAN_ACQREL
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(f) : "memory");
    return v;
#else
    return *(const volatile unsigned *)f;
#endif
}

__device__ __forceinline__ void flag_acquired() {
#if !SCAN_ACQREL
    __threadfence();
#endif
}

// Orders the thread's earlier writes (the data) before its later flag_set calls.
__device__ __forceinline__ void flag_release_fence() {
#if SCAN_ACQREL
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    __threadfence();
#endif
}

__device__ __forceinline__ void flag_set(unsigned *f) {
#if SCAN_ACQREL
    *(volatile unsigned *)f = 1u;
#else
    atomicExch(f, 1u);
#endif
}

// Whether node k of level l of a tile's thread tree exists (covers threads k·2^l ..
// (k + 1)·2^l − 1): its first thread has an element. A node is the sum of its two children when
// the right one exists, else its left child.
__device__ __forceinline__ bool tn_present(int l, int k, int count) { return ((k << l) * SCAN_ITEMS) < count; }

// A warp's shared region: either the staging of one term plane of its 256 elements (one pad
// slot per 8 elements, so lane j's elements 8j .. 8j + 7 start at 9j and a warp's accesses spread
// over the banks), or its tree nodes: level l <= 5 of its subtree (32 >> l nodes) at
// 64 − (64 >> l), then the nodes of levels 6, 7, 8 that it computes (4, 2, 1) at 63, 67, 69.
//
// Parking: where NT terms of T take at most 16 bytes (f64 N <= 2, f32 N <= 4) the lanes' elements
// wait in the warp's region, after its nodes, from the thread total to the outputs (lane j's
// row of SCAN_ITEMS·NT terms plus a pad slot at park[j·SCAN_PARK_ROW]), instead of in
// registers through the tree, the look-back and the thread prefix (ptxas sm_90, f64 N = 2: 96
// registers unbounded instead of 128; at the 80 of SCAN_MIN_BLOCKS 3 no spills instead of 456
// bytes of spill stores; 45.5 KB of shared memory per block); the outputs replace them in place
// and the stores read them from there (H100, N = 2: scan 35.8 % of copy with parking, 32.1 %
// without, at 3 blocks per SM). For larger N the
// block's 8 × 256 elements would not fit the 48 KB of static shared memory. Results do not
// depend on it; EXPANSE_GPU_NVRTC_OPTS="-DSCAN_PARK=0" keeps them in registers.
#ifndef SCAN_PARK
#define SCAN_PARK 1
#endif
#define SCAN_PARK_ON (SCAN_PARK && NT * sizeof(T) <= 16)
// Reloading: where the elements are not parked, the output phase reads each thread's elements
// again from global memory (lane j its 8 consecutive ones, term by term: the warp's lines were
// just loaded and are found in L1 or L2) instead of holding them in registers from the loads
// through the tree, the look-back and the thread prefix (ptxas sm_90, f64 N = 4 at the 64
// registers of SCAN_MIN_BLOCKS 4: 732 bytes of spill stores and 968 of spill loads per thread,
// against 916 and 1456 when held (1104 and 1456 before SCAN_SYNC); with SCAN_MIN_BLOCKS 3, 80
// registers: 460 bytes of spill stores, 252 with SCAN_RELOAD 2). Results do not depend
// on it; EXPANSE_GPU_NVRTC_OPTS="-DSCAN_RELOAD=1" reloads them. SCAN_RELOAD 2 also
// stores each output straight from the lane (lane j its 8 consecutive elements: each store
// instruction writes 8 bytes of 32 sectors, four times the L2 write requests of the staged
// stores) instead of holding the 8 outputs for the staged, coalesced stores (ptxas, same
// setting: 608 bytes of spill stores instead of 732; 1104 without reloading). Off by default:
// fewer spills did not make it faster (H100, 10^8 elements, f64 N = 4 scan: 16.8 ms held,
// 18.6 ms reloaded, 22.4 ms with SCAN_RELOAD 2; N = 2 parks, unaffected).
#ifndef SCAN_RELOAD
#define SCAN_RELOAD 0
#endif
#define SCAN_RELOAD_ON (SCAN_RELOAD && !SCAN_PARK_ON)
#define SCAN_PARK_ROW (SCAN_ITEMS * NT + 1)
#define SCAN_WPAD(q) ((q) + ((q) >> 3))
#define SCAN_WSTAGE (32 * SCAN_ITEMS + 32 * SCAN_ITEMS / 8)
#define SCAN_WNODES 70
#define SCAN_WMID (SCAN_WNODES * sizeof(E) + (SCAN_PARK_ON ? 32 * SCAN_PARK_ROW * sizeof(T) : 0))
#define SCAN_WBYTES (SCAN_WSTAGE * sizeof(T) > SCAN_WMID ? SCAN_WSTAGE * sizeof(T) : SCAN_WMID)
#define SCAN_WDOUBLES ((SCAN_WBYTES + 7) / 8)
__device__ __forceinline__ int wn_off(int l) { return l <= 5 ? 64 - (64 >> l) : (l == 6 ? 63 : (l == 7 ? 67 : 69)); }

// One tile per block, tiles taken in order from a counter (so every tile a block waits for has
// started). Tile b publishes its total as node (0, b) of the dyadic tree over tile totals; with
// h trailing one bits (b = ..0 1^h) it is the last tile of the blocks of its ancestors of
// levels 1..h, and completes them: node (l + 1, b >> (l + 1)) = node (l, (b >> l) − 1) ⊕ node
// (l, b >> l), waiting for each left sibling (the last tile of that sibling's block, an
// earlier tile, completes it). Every node of every level is so written by the last tile of its
// block, and waits only go to earlier tiles. The tile prefix P_b is the left fold over the
// dyadic blocks of [0, b), largest first (below). Needs tiles <= 2^32 (device.rs): a tile
// index has at most 32 set bits, one lane each.
// sync: [0] tile counter, [1 + node] flags, [1 + nodes + b] the flag of tile b's published
// prefix; all zero at launch. nodes: one E per node of all levels (level l has tiles >> l nodes),
// then one E per tile (its prefix P_b).
extern "C" __global__ void __launch_bounds__(SCAN_THREADS, SCAN_MIN_BLOCKS) arr_scan(const T *x, T *out, u64 len, int inclusive, T *nodes,
                                                                    unsigned *sync, u64 tiles) {
    __shared__ double smem_raw[SCAN_WARPS * SCAN_WDOUBLES];
    __shared__ E s_wt[SCAN_WARPS];
    __shared__ E s_lb[2][32];
    __shared__ E s_pc;
    __shared__ u64 s_tile;
    __shared__ E s_prefix;
    __shared__ int s_has_prefix;
    __shared__ u64 s_off[66];
    const int t = threadIdx.x;
    const int w = t >> 5, lane = t & 31;
    T *wst = (T *)(smem_raw + w * SCAN_WDOUBLES);
    E *wn = (E *)(smem_raw + w * SCAN_WDOUBLES);
    T *park = wst + SCAN_WNODES * NT;
    if (t == 0) {
        s_tile = atomicAdd(&sync[0], 1u);
        u64 o = 0;
        for (int l = 0; l < 65; ++l) {
            s_off[l] = o;
            o += (l < 64) ? (tiles >> l) : 0;
        }
        s_off[65] = o;
    }
    __syncthreads();
    const u64 b = s_tile;
    const u64 base = b * SCAN_TILE;
    const u64 rem = len - base;
    const int count = rem < SCAN_TILE ? (int)rem : SCAN_TILE;
    const int first = t * SCAN_ITEMS;
    const int nit = count - first <= 0 ? 0 : (count - first < SCAN_ITEMS ? count - first : SCAN_ITEMS);
    // The warp's first element in the tile.
    const int wbase = w * 32 * SCAN_ITEMS;

    // Load: every global load first (each warp its 256 consecutive elements, coalesced, all in
    // flight at once), then one term plane at a time through the warp's region into the lane's
    // consecutive elements.
    T raw[NT][SCAN_ITEMS];
#pragma unroll
    for (int k = 0; k < NT; ++k) {
#pragma unroll
        for (int r = 0; r < SCAN_ITEMS; ++r) {
            const int q = wbase + lane + 32 * r;
            raw[k][r] = q < count ? x[(u64)k * len + base + q] : T(0);
        }
    }
    E it[SCAN_ITEMS];
#pragma unroll
    for (int k = 0; k < NT; ++k) {
#pragma unroll
        for (int r = 0; r < SCAN_ITEMS; ++r) {
            const int q = lane + 32 * r;
            if (wbase + q < count) wst[SCAN_WPAD(q)] = raw[k][r];
        }
        __syncwarp();
#pragma unroll
        for (int j = 0; j < SCAN_ITEMS; ++j)
            if (j < nit) it[j].t[k] = wst[SCAN_WPAD(lane * SCAN_ITEMS + j)];
        __syncwarp();
    }

    // Thread total: left fold of the thread's elements.
    // (Loops over all SCAN_ITEMS slots with guards: compile-time indices keep it[] and ov[] in
    // registers.)
    E tot = it[0];
#pragma unroll
    for (int j = 1; j < SCAN_ITEMS; ++j)
        if (j < nit) tot = acc_add_reg(tot, it[j]);
    if (nit > 0) wn[lane] = tot;
    if constexpr (SCAN_PARK_ON) {
#pragma unroll
        for (int j = 0; j < SCAN_ITEMS; ++j)
            if (j < nit)
#pragma unroll
                for (int k = 0; k < NT; ++k) park[lane * SCAN_PARK_ROW + j * NT + k] = it[j].t[k];
    }
    __syncwarp();
    // Levels 1..5 of the thread tree (host.rs scan_tile_tree) inside the warp: node k of level
    // l (global index (w << (5 − l)) + k) in lane k.
    for (int l = 1; l <= 5; ++l) {
        if (lane < (32 >> l)) {
            const int k = (w << (5 - l)) + lane;
            const int lo = wn_off(l - 1) + 2 * lane;
            if (tn_present(l - 1, 2 * k + 1, count)) wn[wn_off(l) + lane] = acc_add_reg(wn[lo], wn[lo + 1]);
            else if (tn_present(l - 1, 2 * k, count)) wn[wn_off(l) + lane] = wn[lo];
        }
        __syncwarp();
    }
    if (lane == 0 && tn_present(5, w, count)) s_wt[w] = wn[wn_off(5)];
    __syncthreads();
    // Levels 6..8 from the warp totals, each computed by the warps that need it (every warp
    // the same values): level 6 by warps 1..7 (warp w >= 2 uses node (6, (w >> 1) − 1) or
    // node (7, 0)), level 7 by warp 1 and warps 4..7, the root (the tile total) by warp 1.
    // Conditions on w are the same for the whole warp, and every lane passes each __syncwarp.
    if (w >= 1 && lane < 4) {
        const int o = wn_off(6) + lane;
        if (tn_present(5, 2 * lane + 1, count)) wn[o] = acc_add_reg(s_wt[2 * lane], s_wt[2 * lane + 1]);
        else if (tn_present(5, 2 * lane, count)) wn[o] = s_wt[2 * lane];
    }
    __syncwarp();
    if ((w == 1 || w >= 4) && lane < 2) {
        const int lo = wn_off(6) + 2 * lane, o = wn_off(7) + lane;
        if (tn_present(6, 2 * lane + 1, count)) wn[o] = acc_add_reg(wn[lo], wn[lo + 1]);
        else if (tn_present(6, 2 * lane, count)) wn[o] = wn[lo];
    }
    __syncwarp();
    if (w == 1 && lane == 0) {
        const int lo = wn_off(7);
        wn[wn_off(8)] = tn_present(7, 1, count) ? acc_add_reg(wn[lo], wn[lo + 1]) : wn[lo];
    }
    __syncwarp();

    const u64 nodes_total = s_off[65];
    unsigned *flags = sync + 1;
    unsigned *pflags = sync + 1 + nodes_total;
    T *pref = nodes + nodes_total * NT;
    if (w == 1) {
        // Publish the tile total, then complete the ancestors of levels 1..h: the left
        // siblings are waited for and read side by side (lane l: level l), the sums formed in
        // lane 0 from the bottom up.
        E v = wn[wn_off(8)];
        if (lane == 0) {
            node_write(nodes, s_off[0] + b, v);
            flag_release_fence();
            flag_set(&flags[s_off[0] + b]);
        }
        const int h = __ffsll((long long)~b) - 1;
        if (lane < h) {
            const u64 idx = s_off[lane] + (b >> lane) - 1;
            while (flag_get(&flags[idx]) == 0u) {
            }
            flag_acquired();
            s_lb[1][lane] = node_read(nodes, idx);
        }
        __syncwarp();
        if (lane == 0 && h > 0) {
            for (int l = 0; l < h; ++l) {
                v = acc_add_reg(s_lb[1][l], v);
                node_write(nodes, s_off[l + 1] + (b >> (l + 1)), v);
            }
            flag_release_fence();
            for (int l = 0; l < h; ++l) flag_set(&flags[s_off[l + 1] + (b >> (l + 1))]);
        }
    } else if (w == 0) {
        // The look-back. Lane i < popcount(b) takes the i-th lowest set bit p of b: its dyadic
        // block of [0, b) is node (p, (b >> p) − 1), and c_i = b with its i + 1 lowest set bits
        // cleared. P_b = P_c ⊕ (the nodes of the bits of b ^ c, largest first) for any such c
        // (the blocks of [0, c) are the first blocks of [0, b): the same operations in the same
        // order), and P_0 is nothing; the start is the largest c_i whose P_c is already
        // published (not waited for), i.e. the lowest such lane.
        // The node's flag is read together with the published prefix's (one memory round trip
        // for both when the node is ready).
        const int m = __popcll(b);
        int avail = 0;
        unsigned ready = 0;
        u64 cst = 0, nidx = 0;
        if (lane < m) {
            u64 xb = b;
            for (int i = 0; i < lane; ++i) xb &= xb - 1;
            const int p = __ffsll((long long)xb) - 1;
            cst = xb & (xb - 1);
            nidx = s_off[p] + (b >> p) - 1;
            ready = flag_get(&flags[nidx]);
            avail = cst == 0 || (SCAN_SHORTCUT && flag_get(&pflags[cst]) != 0u);
        }
        const unsigned ball = __ballot_sync(0xffffffffu, avail != 0);
        const int last = m > 0 ? __ffs((int)ball) - 1 : -1;
        if (lane <= last) {
            while (ready == 0u) ready = flag_get(&flags[nidx]);
            flag_acquired();
            s_lb[0][lane] = node_read(nodes, nidx);
            if (lane == last && cst != 0) s_pc = node_read(pref, cst);
        }
        __syncwarp();
        if (lane == 0) {
            int has = 0;
            E p;
            if (last >= 0) {
                u64 c = b;
                for (int i = 0; i <= last; ++i) c &= c - 1;
                if (c != 0) {
                    p = s_pc;
                    has = 1;
                }
                for (int i = last; i >= 0; --i) {
                    p = has ? acc_add_reg(p, s_lb[0][i]) : s_lb[0][i];
                    has = 1;
                }
            }
            if (has) s_prefix = p;
            s_has_prefix = has;
        }
    }

    // The thread's part of its prefix: the left fold over the dyadic blocks of [0, t), largest
    // first (the tile prefix is added in front below): levels 7, 6, 5 by the bits of w, then
    // levels 4..0 (inside the warp) by the bits of the lane.
    int has_e = 0;
    E et;
    if (w >= 4) {
        et = wn[wn_off(7)];
        has_e = 1;
    }
    if (w & 2) {
        const int k = (w >> 1) - 1;
        if (tn_present(6, k, count)) {
            et = has_e ? acc_add_reg(et, wn[wn_off(6) + k]) : wn[wn_off(6) + k];
            has_e = 1;
        }
    }
    if ((w & 1) && tn_present(5, w - 1, count)) {
        et = has_e ? acc_add_reg(et, s_wt[w - 1]) : s_wt[w - 1];
        has_e = 1;
    }
    for (int l = 4; l >= 0; --l) {
        if ((lane >> l) & 1) {
            const int kin = (lane >> l) - 1;
            if (tn_present(l, (w << (5 - l)) + kin, count)) {
                const int o = wn_off(l) + kin;
                et = has_e ? acc_add_reg(et, wn[o]) : wn[o];
                has_e = 1;
            }
        }
    }
    __syncthreads();

    // The tile prefix published for the look-backs of later tiles (they start from P_c only
    // for even c: c is a tile index with its lowest set bit cleared), after the barrier, so that
    // no warp of this block waits for the fence.
    if (t == 0 && s_has_prefix && (b & 1) == 0) {
        node_write(pref, b, s_prefix);
        flag_release_fence();
        flag_set(&pflags[b]);
    }
    int has_q = s_has_prefix;
    E q;
    if (has_q) {
        q = s_prefix;
        if (has_e) q = acc_add_reg(q, et);
    } else if (has_e) {
        q = et;
        has_q = 1;
    }
    // Outputs: the left fold of the thread's elements from q.
    E ov[SCAN_ITEMS];
#pragma unroll
    for (int j = 0; j < SCAN_ITEMS; ++j) {
        if (j < nit) {
            E xj;
            if constexpr (SCAN_PARK_ON) {
#pragma unroll
                for (int k = 0; k < NT; ++k) xj.t[k] = park[lane * SCAN_PARK_ROW + j * NT + k];
            } else if constexpr (SCAN_RELOAD_ON) {
                xj = ld_e(x, len, base + first + j);
            } else {
                xj = it[j];
            }
            E nx = has_q ? acc_add_reg(q, xj) : xj;
            const E o = inclusive ? nx : (has_q ? q : acc_zero());
            if constexpr (SCAN_PARK_ON) {
#pragma unroll
                for (int k = 0; k < NT; ++k) park[lane * SCAN_PARK_ROW + j * NT + k] = o.t[k];
            } else if constexpr (SCAN_RELOAD_ON && SCAN_RELOAD >= 2) {
                st_e(out, len, base + first + j, o);
            } else {
                ov[j] = o;
            }
            q = nx;
            has_q = 1;
        }
    }
    if constexpr (SCAN_PARK_ON) {
        // Stores straight from the parked outputs, coalesced: element q of the warp is term k of
        // slot q % 8 of lane q / 8's row.
        __syncwarp();
        for (int k = 0; k < NT; ++k) {
#pragma unroll
            for (int r = 0; r < SCAN_ITEMS; ++r) {
                const int q2 = lane + 32 * r;
                if (wbase + q2 < count)
                    out[(u64)k * len + base + wbase + q2] = park[(q2 / SCAN_ITEMS) * SCAN_PARK_ROW + (q2 % SCAN_ITEMS) * NT + k];
            }
        }
        return;
    }
    if constexpr (SCAN_RELOAD_ON && SCAN_RELOAD >= 2) return;
    // Stores: one term plane at a time through the warp's region (its nodes were last read
    // before the barrier above), coalesced.
    for (int k = 0; k < NT; ++k) {
#pragma unroll
        for (int j = 0; j < SCAN_ITEMS; ++j)
            if (j < nit) wst[SCAN_WPAD(lane * SCAN_ITEMS + j)] = ov[j].t[k];
        __syncwarp();
#pragma unroll
        for (int r = 0; r < SCAN_ITEMS; ++r) {
            const int q2 = lane + 32 * r;
            if (wbase + q2 < count) out[(u64)k * len + base + wbase + q2] = wst[SCAN_WPAD(q2)];
        }
        __syncwarp();
    }
}

// ---- sort (stable, by exact value; host.rs key_cmp) ---------------------------------------------

// -1, 0, 1: exact value order, NaN last (NaNs equal); when the exact difference overflows
// (acc_cmp unordered), the terms lexicographically.
__device__ __forceinline__ int key_cmp(const E &a, const E &b) {
    const bool an = e_isnan(a), bn = e_isnan(b);
    if (an || bn) return (int)an - (int)bn;
    const int c = acc_cmp_reg(a, b);
    if (c != 2) return c;
#pragma unroll
    for (int k = 0; k < NT; ++k) {
        if (a.t[k] < b.t[k]) return -1;
        if (a.t[k] > b.t[k]) return 1;
    }
    return 0;
}

// Where the element at position p of a run-sorted sequence (runs of `run`, `cnt` elements)
// goes when each pair of runs is merged stably: its offset in its run plus its rank in the
// sibling run (elements strictly less for a left run, less or equal for a right run).
template <class Get> __device__ __forceinline__ u64 merge_pos(u64 p, u64 run, u64 cnt, const E &key, Get get) {
    const u64 r = p / run;
    const u64 pair = (r & ~1ull) * run;
    const u64 off = p - r * run;
    u64 lo, hi;
    bool left = (r & 1ull) == 0;
    if (left) {
        lo = pair + run;
        hi = pair + 2 * run < cnt ? pair + 2 * run : cnt;
        if (lo >= cnt) return p;
    } else {
        lo = pair;
        hi = pair + run;
    }
    const u64 start = lo;
    while (lo < hi) {
        const u64 mid = lo + (hi - lo) / 2;
        const int c = key_cmp(get(mid), key);
        if (left ? c < 0 : c <= 0) lo = mid + 1;
        else hi = mid;
    }
    return pair + off + (lo - start);
}

// Sorts each tile of SORT_TILE elements (one per thread) by merges of doubling runs in shared
// memory; writes the keys and their original indices.
extern "C" __global__ void __launch_bounds__(SORT_TILE) arr_sort_tile(const T *x, u64 len, T *kout, u64 *iout) {
    __shared__ E ks[2][SORT_TILE];
    __shared__ u64 is[2][SORT_TILE];
    const u64 base = (u64)blockIdx.x * SORT_TILE;
    const u64 rem = len - base;
    const u64 cnt = rem < SORT_TILE ? rem : SORT_TILE;
    const u64 t = threadIdx.x;
    if (t < cnt) {
        ks[0][t] = ld_e(x, len, base + t);
        is[0][t] = base + t;
    }
    __syncthreads();
    int cur = 0;
    for (u64 run = 1; run < cnt; run *= 2) {
        if (t < cnt) {
            const E key = ks[cur][t];
            const u64 np = merge_pos(t, run, cnt, key, [&](u64 m) { return ks[cur][m]; });
            ks[cur ^ 1][np] = key;
            is[cur ^ 1][np] = is[cur][t];
        }
        __syncthreads();
        cur ^= 1;
    }
    if (t < cnt) {
        st_e(kout, len, base + t, ks[cur][t]);
        iout[base + t] = is[cur][t];
    }
}

// Elements per thread of a merge pass (a divisor of SORT_TILE, so they share their run).
#define MERGE_ITEMS 8

// One merge pass over the whole array: runs of `run` → runs of 2·run (as merge_pos). A thread
// takes MERGE_ITEMS consecutive elements of one run: the first is placed by binary search in
// the sibling run, each next one by galloping from the previous one's rank (the keys of a run
// are sorted, so the ranks do not decrease).
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_merge_pass(const T *kin, const u64 *iin, T *kout, u64 *iout,
                                                                       u64 len, u64 run) {
    const u64 groups = (len + MERGE_ITEMS - 1) / MERGE_ITEMS;
    GRID_STRIDE(g, groups) {
        const u64 p0 = g * MERGE_ITEMS;
        const u64 r = p0 / run;
        const u64 pair = (r & ~1ull) * run;
        const bool left = (r & 1ull) == 0;
        u64 lo0, hi0;
        if (left) {
            lo0 = pair + run;
            hi0 = pair + 2 * run < len ? pair + 2 * run : len;
        } else {
            lo0 = pair;
            hi0 = pair + run;
        }
        u64 pos = lo0;
        for (int q = 0; q < MERGE_ITEMS && p0 + q < len; ++q) {
            const u64 p = p0 + q;
            const E key = ld_e(kin, len, p);
            u64 np = p;
            if (lo0 < hi0) {
                // The first index of [pos, hi0) whose element does not precede key.
                u64 lo = pos, hi = hi0;
                if (q > 0) {
                    u64 step = 1;
                    while (lo < hi0) {
                        const u64 probe = lo + step - 1 < hi0 ? lo + step - 1 : hi0 - 1;
                        const int c = key_cmp(ld_e(kin, len, probe), key);
                        if (left ? c < 0 : c <= 0) {
                            lo = probe + 1;
                            step *= 2;
                        } else {
                            hi = probe;
                            break;
                        }
                    }
                }
                while (lo < hi) {
                    const u64 mid = lo + (hi - lo) / 2;
                    const int c = key_cmp(ld_e(kin, len, mid), key);
                    if (left ? c < 0 : c <= 0) lo = mid + 1;
                    else hi = mid;
                }
                pos = lo;
                np = pair + (p - r * run) + (pos - lo0);
            }
            st_e(kout, len, np, key);
            iout[np] = iin[p];
        }
    }
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_gather_u32(const unsigned *p, const u64 *idx, unsigned *out, u64 len) {
    GRID_STRIDE(i, len) out[i] = p[idx[i]];
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_gather_u64(const u64 *p, const u64 *idx, u64 *out, u64 len) {
    GRID_STRIDE(i, len) out[i] = p[idx[i]];
}

// ---- select --------------------------------------------------------------------------------------

// array::Cmp::holds on acc_cmp's code (-1, 0, 1, 2 unordered): Lt, Le, Gt, Ge, Eq, Ne.
__device__ __forceinline__ bool cmp_holds(int cmp, int c) {
    switch (cmp) {
    case 0: return c == -1;
    case 1: return c == -1 || c == 0;
    case 2: return c == 1;
    case 3: return c == 1 || c == 0;
    case 4: return c == 0;
    default: return c != 0;
    }
}

// Matches per tile of RED_TILE elements.
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_sel_count(const T *x, u64 len, int cmp, Sc thr, u64 *counts) {
    __shared__ unsigned sm[ARR_BLOCK];
    const E th = e_of_sc(thr);
    const u64 base = (u64)blockIdx.x * RED_TILE;
    unsigned c = 0;
    for (u64 i = base + threadIdx.x; i < len && i < base + RED_TILE; i += ARR_BLOCK) c += cmp_holds(cmp, acc_cmp_reg(ld_e(x, len, i), th));
    sm[threadIdx.x] = c;
    __syncthreads();
    for (int s = ARR_BLOCK / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) sm[threadIdx.x] += sm[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) counts[blockIdx.x] = sm[0];
}

// Writes the matches of each tile, in order, from the tile's offset; thread t handles the 8
// consecutive elements 8t..8t + 7 of the tile.
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_sel_scatter(const T *x, u64 len, int cmp, Sc thr, const u64 *offsets,
                                                                        T *out, u64 out_len, u64 *idx) {
    __shared__ unsigned sm[ARR_BLOCK];
    const E th = e_of_sc(thr);
    const u64 base = (u64)blockIdx.x * RED_TILE;
    const u64 first = base + (u64)threadIdx.x * 8;
    unsigned flags = 0, c = 0;
    for (int j = 0; j < 8; ++j) {
        const u64 i = first + j;
        if (i < len && cmp_holds(cmp, acc_cmp_reg(ld_e(x, len, i), th))) {
            flags |= 1u << j;
            ++c;
        }
    }
    sm[threadIdx.x] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned run = 0;
        for (int q = 0; q < ARR_BLOCK; ++q) {
            const unsigned v = sm[q];
            sm[q] = run;
            run += v;
        }
    }
    __syncthreads();
    u64 pos = offsets[blockIdx.x] + sm[threadIdx.x];
    for (int j = 0; j < 8; ++j) {
        if (flags & (1u << j)) {
            st_e(out, out_len, pos, ld_e(x, len, first + j));
            idx[pos] = first + j;
            ++pos;
        }
    }
}

// ---- index-generated data (gpu/src/array/indexed.rs; host mirror in host.rs gen_*) -------------
// Element i computed from its index alone, so a sum of 10^9 values needs no array: the fused
// generate+reduce kernels below read nothing and write one partial per tile, in the reduction
// order of reduce_tile (tiles of RED_TILE, "thread" j folding j, j + 256, ... left to right,
// then the pairwise tree), followed by the ordinary arr_red_sum_next / arr_red_sumacc_next
// passes. The generators are written for double terms (the host refuses float arrays).

#define GEN_SUMMATION 0
#define GEN_QRS_TERM 1
#define GEN_QRS_SLOPE 2

// SplitMix64 (indexed.rs splitmix).
__device__ __forceinline__ u64 gen_splitmix(u64 z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// 2^k for -1022 <= k <= 1023, exactly.
__device__ __forceinline__ double gen_pow2(int k) { return __longlong_as_double((long long)((u64)(k + 1023) << 52)); }

// ±m·2^(e-52) with a 53-bit m from h, e in [lo, hi] (indexed.rs draw).
__device__ __forceinline__ double gen_draw(u64 h, int lo, int hi) {
    const u64 m = (h >> 11) | (1ull << 52);
    const u64 span = (u64)(hi - lo + 1);
    const int e = lo + (int)(gen_splitmix(h) % span);
    const double v = (double)m * gen_pow2(e - 52);
    return (h & 1ull) ? -v : v;
}

__device__ __forceinline__ double gen_signal(u64 seed, u64 i) {
    const u64 rot = (seed << 17) | (seed >> 47);
    return gen_draw(gen_splitmix(rot ^ (i * 0xA24BAED4963EE407ull)), -600, 0);
}

// The summation data set (indexed.rs summation_value).
__device__ double gen_summation(u64 seed, u64 n, u64 i) {
    const u64 half = n / 2;
    if (i >= 2 * half) return gen_signal(seed, i);
    const u64 p = i % half;
    if (gen_splitmix(seed ^ (p * 0xD1B54A32D192ED03ull)) % 4 == 3) return gen_signal(seed, i);
    const double x = gen_draw(gen_splitmix(seed ^ (p * 0x9E3779B97F4A7C15ull)), -30, 20);
    return i >= half ? -x : x;
}

// Term j of the QRS sum at delta = 1 - s (indexed.rs qrs_term): (2Q - M^2)/(M·sqrt(Q)) with
// Q = (2j + delta·k)(2(M - j) - delta·k), M = n - 1, k = M - 2j; accurate tier throughout.
__device__ E gen_qrs_term(const E &delta, u64 n, u64 j) {
    const double m1 = (double)(n - 1);
    const E m2 = acc_mul_term(acc_from((T)m1), (T)m1);
    const double k = (double)(n - 1 - 2 * j);
    const E dk = acc_mul_term(delta, (T)k);
    const E a = acc_add_term(dk, (T)(2.0 * (double)j));
    const E b = acc_add_term(acc_neg(dk), (T)(2.0 * (double)(n - 1 - j)));
    const E q = acc_mul(a, b);
    const E r = acc_sqrt(q);
    const E q2 = e_of(x_ldexp<NT>(x_of(q), 1));
    return acc_div(acc_sub(q2, m2), acc_mul_term(r, (T)m1));
}

// dF/d(delta) term j in double (indexed.rs qrs_slope): s·t²·(2q + 1)/q^{3/2}, q = Q/M², t = k/M.
__device__ __forceinline__ double gen_qrs_slope(double d_hi, u64 n, u64 j) {
    const double m1 = (double)(n - 1);
    const double k = (double)(n - 1 - 2 * j);
    const double dk = d_hi * k;
    const double a = dk + 2.0 * (double)j;
    const double b = 2.0 * (double)(n - 1 - j) - dk;
    const double qf = (a * b) / (m1 * m1);
    const double tf = k / m1;
    const double s = 1.0 - d_hi;
    return s * tf * tf * (2.0 * qf + 1.0) / (qf * sqrt(qf));
}

__device__ __forceinline__ E gen_leaf(int gen, const Sc &d, u64 p0, u64 p1, u64 i) {
    if (gen == GEN_SUMMATION) return acc_from((T)gen_summation(p0, p1, i));
    if (gen == GEN_QRS_TERM) return gen_qrs_term(e_of_sc(d), p1, i);
    return acc_from((T)gen_qrs_slope(d.t[0], p1, i));
}

// The generated elements 0..len (a map with no input).
extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_gen_fill(int gen, Sc d, u64 p0, u64 p1, T *out, u64 len) {
    GRID_STRIDE(i, len) st_e(out, len, i, gen_leaf(gen, d, p0, p1, i));
}

// One tile of the sum of the generated elements, on M-term accumulators: reduce_tile's order
// with the leaf of OP_SUM (A = 0, P = 0, L = |x0|).
template <int M>
__device__ __forceinline__ void gen_reduce_tile(int gen, const Sc &d, u64 p0, u64 p1, u64 len, T *pe, double *aux, u64 tiles) {
    __shared__ RV<M> sv[RED_THREADS];
    const u64 base = (u64)blockIdx.x * RED_TILE;
    const u64 rem = len - base;
    const int count = rem < RED_TILE ? (int)rem : RED_TILE;
    const int threads = count < RED_THREADS ? count : RED_THREADS;
    const int j = threadIdx.x;
    if (j < threads) {
        RV<M> acc;
        for (int r = j; r < count; r += RED_THREADS) {
            const E x = gen_leaf(gen, d, p0, p1, base + r);
            RV<M> v;
            v.e = x_of_e<M>(x);
            v.a = 0.0;
            v.p = 0.0;
            v.l = lead_abs(x);
            acc = r == j ? v : comb_sum<M>(acc, v);
        }
        sv[j] = acc;
    }
    __syncthreads();
    red_tree<OP_SUM, M>(sv, threads, j);
    if (j == 0) {
        st_x<M>(pe, tiles, blockIdx.x, sv[0].e);
        aux[blockIdx.x] = sv[0].a;
        aux[tiles + blockIdx.x] = sv[0].p;
        aux[2 * tiles + blockIdx.x] = sv[0].l;
    }
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_gen_red_sum(int gen, Sc d, u64 p0, u64 p1, u64 len, T *pe, double *aux,
                                                                        u64 tiles) {
    gen_reduce_tile<NT>(gen, d, p0, p1, len, pe, aux, tiles);
}

extern "C" __global__ void __launch_bounds__(ARR_BLOCK) arr_gen_red_sumacc(int gen, Sc d, u64 p0, u64 p1, u64 len, T *pe,
                                                                           double *aux, u64 tiles) {
    gen_reduce_tile<ACC_M>(gen, d, p0, p1, len, pe, aux, tiles);
}
