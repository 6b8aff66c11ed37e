// Cooperative-group variants of the limb multiplication and addition (after cuda/limb.cu in the
// program):
// a group of G threads of one block computes one product, where `limb_op_<L>` gives each
// number one thread. Bit-identical to `limb_mul` (and so to the CPU reference and MPFR): the
// group computes the same exact 2n-limb product, and one lane then normalizes and rounds it
// with limb.cu's own `limb_round_mant` / `limb_finish`.
//
// Scheme (per block: E groups of G lanes, E·G threads, E consecutive elements):
//  1. the block loads the E elements' mantissas into shared memory, coalesced (consecutive
//     threads read consecutive elements of one limb row of the interleaved layout);
//  2. lane t of a group computes the column sums S_k = Σ_{i+j=k} a_i·b_j (k ≡ t mod G) of
//     the schoolbook product exactly, as 192-bit numbers (three words), into shared memory;
//  3. lane 0 adds the columns with their carries into the 2n product limbs
//     (limb k = S_k.lo + S_{k−1}.mid + S_{k−2}.hi + carry), shifts left by one when the top
//     bit is clear, rounds, and writes the kind, exponent and ternary value;
//  4. the block stores the rounded mantissas, coalesced.
// Work per product: n² word products spread over G lanes, O(n) serial work in lane 0. Only
// __syncthreads is used between the phases, so the host shim (fibers) runs the kernel as is.
//
// Shared memory (dynamic): per group 8n words (A n, B n → the rounded result reuses A;
// three column arrays of 2n, the product overwrites the low one) plus 4 words of results,
// E groups per block.
//
// Kernel `limb_group_mul(rnd, p, count, G, a…, b…, r…)`: block size E·G, grid ⌈count/E⌉,
// shared memory E·(8n + 4)·8 bytes (n = ⌈p/64⌉); any p in 2..=4096. `limb_group_add(op, …)`
// (below, op 0 add, 1 subtract) has the same shape: staging only, one lane computes.

#ifndef LIMB_DYNAMIC_SMEM
#define LIMB_DYNAMIC_SMEM(name) extern __shared__ u64 name[]
#endif

// 192-bit accumulator += x·y.
__device__ __forceinline__ void limb_acc3(u64 &s0, u64 &s1, u64 &s2, u64 x, u64 y) {
    u64 lo = x * y;
    u64 hi = __umul64hi(x, y);
    s0 += lo;
    hi += s0 < lo; // hi ≤ 2^64 − 2, no overflow
    s1 += hi;
    s2 += s1 < hi;
}

// The whole block's work (also the host shim's entry point: the caller sets blockIdx,
// blockDim and runs the block's threads with shim_run_block).
__device__ void limb_group_mul_block(int rnd, unsigned p, unsigned count, unsigned G, const u64 *am, const int *ae,
                                     const unsigned char *ak, const u64 *bm, const int *be, const unsigned char *bk,
                                     u64 *rm, int *re, unsigned char *rk, signed char *rord, u64 *smem) {
    const int n = limb_limbs(p);
    const unsigned T = blockDim.x;
    const unsigned E = T / G;
    const unsigned g = threadIdx.x / G, lane = threadIdx.x % G;
    const unsigned base = blockIdx.x * E;
    const unsigned i = base + g;
    const unsigned stride = 8 * (unsigned)n;
    u64 *A = smem + (u64)g * stride;
    u64 *B = A + n;
    u64 *S0 = B + n;
    u64 *S1 = S0 + 2 * n;
    u64 *S2 = S1 + 2 * n;
    u64 *meta = smem + (u64)E * stride + 4 * (u64)g;
    // 1. Coalesced load of the block's mantissas.
    for (unsigned idx = threadIdx.x; idx < E * (unsigned)n; idx += T) {
        unsigned j = idx / E, e = idx % E;
        if (base + e < count) {
            u64 *ea = smem + (u64)e * stride;
            ea[j] = am[(u64)j * count + base + e];
            ea[n + j] = bm[(u64)j * count + base + e];
        }
    }
    __syncthreads();
    bool live = i < count;
    int ka = live ? (ak[i] & 3) : LK_ZERO, kb = live ? (bk[i] & 3) : LK_ZERO;
    bool normal = live && ka == LK_NORMAL && kb == LK_NORMAL;
    // 2. Column sums.
    if (normal) {
        for (int k = (int)lane; k < 2 * n - 1; k += (int)G) {
            u64 s0 = 0, s1 = 0, s2 = 0;
            int lo = k - n + 1 > 0 ? k - n + 1 : 0;
            int hi = k < n - 1 ? k : n - 1;
            for (int a = lo; a <= hi; ++a) limb_acc3(s0, s1, s2, A[a], B[k - a]);
            S0[k] = s0;
            S1[k] = s1;
            S2[k] = s2;
        }
    }
    __syncthreads();
    // 3. Carries, normalization and rounding (lane 0).
    if (live && lane == 0) {
        LimbNum a, b;
        a.kind = ka;
        a.neg = (ak[i] >> 2) & 1;
        a.exp = ae[i];
        a.m = A;
        a.n = n;
        b.kind = kb;
        b.neg = (bk[i] >> 2) & 1;
        b.exp = be[i];
        b.m = B;
        b.n = n;
        LimbRes r;
        if (!normal) {
            // Zeros, infinities, NaN: no mantissa work (limb_mul returns before using w).
            r = limb_mul(a, b, p, rnd, S0, S1);
        } else {
            int neg = a.neg != b.neg;
            int len = 2 * n;
            u64 c = 0;
            for (int k = 0; k < len; ++k) {
                u64 lo = k < len - 1 ? S0[k] : 0;
                u64 h = 0;
                if (k >= 1 && k - 1 < len - 1) {
                    u64 v = S1[k - 1];
                    lo += v;
                    h += lo < v;
                }
                if (k >= 2 && k - 2 < len - 1) {
                    u64 v = S2[k - 2];
                    lo += v;
                    h += lo < v;
                }
                lo += c;
                h += lo < c;
                S0[k] = lo;
                c = h;
            }
            i64 exp = a.exp + b.exp;
            if (S0[len - 1] >> 63 == 0) {
                mpn_lshift(S0, len, 1);
                exp -= 1;
            }
            // The rounded mantissa goes to A (no longer needed).
            for (int j = 0; j < n; ++j) A[j] = 0;
            int dir;
            bool carry = limb_round_mant(S0, len, false, neg, p, rnd, A, &dir);
            r = limb_finish(neg, exp, carry, dir, p, rnd, A);
        }
        if (r.kind != LK_NORMAL)
            for (int j = 0; j < n; ++j) A[j] = 0;
        meta[0] = (u64)(r.kind | (r.neg << 2));
        meta[1] = r.kind == LK_NORMAL ? (u64)(i64)r.exp : 0;
        meta[2] = (u64)(i64)r.ord;
    }
    __syncthreads();
    // 4. Coalesced store.
    for (unsigned idx = threadIdx.x; idx < E * (unsigned)n; idx += T) {
        unsigned j = idx / E, e = idx % E;
        if (base + e < count) rm[(u64)j * count + base + e] = smem[(u64)e * stride + j];
    }
    if (live && lane == 0) {
        rk[i] = (unsigned char)meta[0];
        re[i] = (int)(i64)meta[1];
        rord[i] = (signed char)(i64)meta[2];
    }
}

extern "C" __global__ void limb_group_mul(int rnd, unsigned p, unsigned count, unsigned G, const u64 *am,
                                          const int *ae, const unsigned char *ak, const u64 *bm, const int *be,
                                          const unsigned char *bk, u64 *rm, int *re, unsigned char *rk,
                                          signed char *rord) {
    LIMB_DYNAMIC_SMEM(limb_gsmem);
    limb_group_mul_block(rnd, p, count, G, am, ae, ak, bm, be, bk, rm, re, rk, rord, limb_gsmem);
}

// Group variant of the addition (and subtraction: op = 1): the block stages the operands in
// shared memory with coalesced loads and stores as above, and lane 0 of each group runs
// limb.cu's own limb_add on them (scratch and result in shared memory too), so results are
// bit-identical by construction. Addition is O(n) with a carry chain through every limb, so
// the other lanes only help with the memory traffic: this measures whether staging in shared
// memory beats the one-thread kernel's local memory. Same launch shape as limb_group_mul
// (per group A n, B n, result n, scratch n + 2 ≤ 8n + 4 words).
__device__ void limb_group_add_block(int op, int rnd, unsigned p, unsigned count, unsigned G, const u64 *am,
                                     const int *ae, const unsigned char *ak, const u64 *bm, const int *be,
                                     const unsigned char *bk, u64 *rm, int *re, unsigned char *rk, signed char *rord,
                                     u64 *smem) {
    const int n = limb_limbs(p);
    const unsigned T = blockDim.x;
    const unsigned E = T / G;
    const unsigned g = threadIdx.x / G, lane = threadIdx.x % G;
    const unsigned base = blockIdx.x * E;
    const unsigned i = base + g;
    const unsigned stride = 8 * (unsigned)n;
    u64 *A = smem + (u64)g * stride;
    u64 *B = A + n;
    u64 *R = B + n;
    u64 *W = R + n;
    u64 *meta = smem + (u64)E * stride + 4 * (u64)g;
    for (unsigned idx = threadIdx.x; idx < E * (unsigned)n; idx += T) {
        unsigned j = idx / E, e = idx % E;
        if (base + e < count) {
            u64 *ea = smem + (u64)e * stride;
            ea[j] = am[(u64)j * count + base + e];
            ea[n + j] = bm[(u64)j * count + base + e];
        }
    }
    __syncthreads();
    bool live = i < count;
    if (live && lane == 0) {
        LimbNum a, b;
        a.kind = ak[i] & 3;
        a.neg = (ak[i] >> 2) & 1;
        a.exp = ae[i];
        a.m = A;
        a.n = n;
        b.kind = bk[i] & 3;
        b.neg = (bk[i] >> 2) & 1;
        b.exp = be[i];
        b.m = B;
        b.n = n;
        if (op == LIMB_OP_SUB) b.neg = !b.neg;
        for (int j = 0; j < n; ++j) R[j] = 0;
        LimbRes r = limb_add(a, b, p, rnd, R, W);
        if (r.kind != LK_NORMAL)
            for (int j = 0; j < n; ++j) R[j] = 0;
        meta[0] = (u64)(r.kind | (r.neg << 2));
        meta[1] = r.kind == LK_NORMAL ? (u64)(i64)r.exp : 0;
        meta[2] = (u64)(i64)r.ord;
    }
    __syncthreads();
    for (unsigned idx = threadIdx.x; idx < E * (unsigned)n; idx += T) {
        unsigned j = idx / E, e = idx % E;
        if (base + e < count) rm[(u64)j * count + base + e] = smem[(u64)e * stride + 2 * n + j];
    }
    if (live && lane == 0) {
        rk[i] = (unsigned char)meta[0];
        re[i] = (int)(i64)meta[1];
        rord[i] = (signed char)(i64)meta[2];
    }
}

extern "C" __global__ void limb_group_add(int op, int rnd, unsigned p, unsigned count, unsigned G, const u64 *am,
                                          const int *ae, const unsigned char *ak, const u64 *bm, const int *be,
                                          const unsigned char *bk, u64 *rm, int *re, unsigned char *rk,
                                          signed char *rord) {
    LIMB_DYNAMIC_SMEM(limb_gsmem);
    limb_group_add_block(op, rnd, p, count, G, am, ae, ak, bm, be, bk, rm, re, rk, rord, limb_gsmem);
}
