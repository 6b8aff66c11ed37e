// CPU shim for the CUDA sources of gpu/src/cuda/: lets a host C++ compiler build the kernel source unchanged
// (one "thread" at a time), so tests without a GPU check that the CUDA code computes exactly
// what the Rust reference computes. Only what those sources use is provided. Compile with
// -ffp-contract=off (the analogue of NVRTC's --fmad=false).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <iostream>
#include <string>
#define __device__
#define __global__
#define __shared__ static
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
struct ShimDim3 {
    unsigned x;
};
static ShimDim3 blockIdx, threadIdx, blockDim;
using std::fabs;
using std::fma;
using std::fmax;
static inline double __longlong_as_double(long long v) {
    double d;
    std::memcpy(&d, &v, 8);
    return d;
}
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
    unsigned long long o = *p;
    *p += v;
    return o;
}
static inline long long __double_as_longlong(double d) {
    long long v;
    std::memcpy(&v, &d, 8);
    return v;
}
static inline unsigned __float_as_uint(float f) {
    unsigned v;
    std::memcpy(&v, &f, 4);
    return v;
}
static inline float __uint_as_float(unsigned v) {
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline unsigned long long __brevll(unsigned long long v) {
    unsigned long long r = 0;
    for (int b = 0; b < 64; ++b) r |= ((v >> b) & 1ull) << (63 - b);
    return r;
}
static inline int __clzll(long long v) { return v == 0 ? 64 : __builtin_clzll((unsigned long long)v); }
using std::sqrt;
using std::round;
using std::trunc;
using std::floor;
static inline void __syncwarp() {}
static inline unsigned __ballot_sync(unsigned, bool b) { return b ? 1u : 0u; }
static inline int __popc(unsigned v) { return __builtin_popcount(v); }
// A per-"thread" cycle counter: every call returns one more than the last (monotone, like the
// SM's clock, so differences of readings are non-negative).
static inline long long clock64() {
    static long long c = 0;
    return ++c;
}

// ---- block-cooperative kernels (arrays.cu, blas.cu) ----------------------------------------------
// A kernel with __syncthreads and __shared__ memory runs one block at a time: the block's
// threads are fibers (ucontext) of this one OS thread, each run until its next __syncthreads,
// then the next, so every barrier is a CUDA barrier and the run is deterministic.
// `shim_run_block(n, f)` runs f as threads 0..n-1 of the current block (the caller sets
// blockIdx, blockDim, gridDim); kernels without barriers can still be called in a loop over
// threadIdx. Blocks run in order, so a block that waits for an earlier block's flag (the scan's
// lookback) finds it set. Atomics are plain read-modify-writes (one OS thread).
#include <ucontext.h>
#include <functional>
static ShimDim3 gridDim;
static inline unsigned atomicAdd(unsigned *p, unsigned v) {
    unsigned o = *p;
    *p += v;
    return o;
}
static inline unsigned atomicExch(unsigned *p, unsigned v) {
    unsigned o = *p;
    *p = v;
    return o;
}
static inline void __threadfence() {}
namespace shim_fiber {
struct Fiber {
    ucontext_t ctx;
    std::vector<char> stack;
    bool done;
};
static ucontext_t sched;
static std::vector<Fiber> fibers;
static int current = -1;
static const std::function<void()> *job = nullptr;
static void entry() {
    (*job)();
    fibers[current].done = true; // uc_link returns to the scheduler
}
} // namespace shim_fiber
static inline void __syncthreads() {
    using namespace shim_fiber;
    if (current >= 0) swapcontext(&fibers[current].ctx, &sched);
}
static inline void shim_run_block(unsigned n, const std::function<void()> &f) {
    using namespace shim_fiber;
    const size_t stack = (size_t)1 << 18;
    if (fibers.size() < n) fibers.resize(n);
    job = &f;
    for (unsigned t = 0; t < n; ++t) {
        Fiber &fb = fibers[t];
        fb.done = false;
        if (fb.stack.size() != stack) fb.stack.resize(stack);
        getcontext(&fb.ctx);
        fb.ctx.uc_stack.ss_sp = fb.stack.data();
        fb.ctx.uc_stack.ss_size = stack;
        fb.ctx.uc_link = &sched;
        makecontext(&fb.ctx, entry, 0);
    }
    bool any = true;
    while (any) {
        any = false;
        for (unsigned t = 0; t < n; ++t) {
            if (fibers[t].done) continue;
            current = (int)t;
            threadIdx.x = t;
            swapcontext(&sched, &fibers[t].ctx);
            any = true;
        }
    }
    current = -1;
}

// ---- dynamic shared memory (extern __shared__) ----------------------------------------------
// A kernel declares its dynamic shared memory with LIMB_DYNAMIC_SMEM(name); on the host it is
// one buffer that the harness sizes before running a block.
static std::vector<unsigned long long> shim_dynamic_smem;
#define LIMB_DYNAMIC_SMEM(name) unsigned long long *name = shim_dynamic_smem.data()
