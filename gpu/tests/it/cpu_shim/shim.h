// CPU shim for the CUDA sources of gpu/src/cuda/: lets a host C++ compiler build the kernel source unchanged
// (one "thread" at a time), so tests without a GPU check that the CUDA code computes exactly
// what the Rust reference computes. Only what those sources use is provided. Compile with
// -ffp-contract=off (the analogue of NVRTC's --fmad=false).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
// Outside a block run by shim_run_block (kernels called in a loop over threadIdx) a warp
// operation sees its own thread only: __syncwarp does nothing and __ballot_sync returns the
// thread's own predicate in bit 0. Inside shim_run_block they are warp rendezvous (below).
static inline void shim_syncwarp_fiber(unsigned mask);
static inline unsigned shim_ballot_fiber(unsigned mask, bool b, bool *in_fiber);
static inline void __syncwarp(unsigned mask = 0xffffffffu) { shim_syncwarp_fiber(mask); }
static inline unsigned __ballot_sync(unsigned mask, bool b) {
    bool in_fiber = false;
    const unsigned r = shim_ballot_fiber(mask, b, &in_fiber);
    return in_fiber ? r : (b ? 1u : 0u);
}
static inline int __popc(unsigned v) { return __builtin_popcount(v); }
static inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
static inline int __ffs(int v) { return __builtin_ffs(v); }
static inline int __ffsll(long long v) { return __builtin_ffsll(v); }
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
// A fiber runs until it waits: at __syncthreads (BAR), at a warp operation (WARP) or at its end
// (DONE). The scheduler runs every RUN fiber in thread order until it waits; then it releases
// each group of lanes of one warp that all wait at the same warp operation with the same mask
// (a warp rendezvous: __syncwarp, __ballot_sync), else, when every live fiber waits at
// __syncthreads, all of them (a CUDA barrier); anything else is a deadlock of the kernel and
// aborts. Without warp operations this is exactly a barrier per round.
enum State { RUN, BAR, WARP, DONE };
struct Fiber {
    ucontext_t ctx;
    std::vector<char> stack;
    int state;
    int op;          // warp operation: 0 __syncwarp, 1 __ballot_sync
    unsigned mask;   // its lane mask
    unsigned value;  // this lane's operand
    unsigned result; // the operation's result for this lane
};
static ucontext_t sched;
static std::vector<Fiber> fibers;
static int current = -1;
static unsigned nthreads = 0;
static const std::function<void()> *job = nullptr;
static void entry() {
    (*job)();
    fibers[current].state = DONE; // uc_link returns to the scheduler
}
static inline void wait_as(int st) {
    fibers[current].state = st;
    swapcontext(&fibers[current].ctx, &sched);
}
static inline unsigned warp_op(int op, unsigned mask, unsigned value) {
    const unsigned lane = (unsigned)current & 31u;
    if (!((mask >> lane) & 1u)) {
        std::fprintf(stderr, "shim: warp operation by a lane outside its mask\n");
        std::abort();
    }
    Fiber &f = fibers[current];
    f.op = op;
    f.mask = mask;
    f.value = value;
    wait_as(WARP);
    return fibers[current].result;
}
// Releases the lanes of warp operations whose groups are complete; true if any.
static inline bool release_warps() {
    bool any = false;
    for (unsigned t = 0; t < nthreads; ++t) {
        Fiber &f = fibers[t];
        if (f.state != WARP) continue;
        const unsigned w0 = t & ~31u;
        bool ready = true;
        unsigned ballot = 0;
        for (unsigned l = 0; l < 32; ++l) {
            if (!((f.mask >> l) & 1u)) continue;
            const unsigned u = w0 + l;
            if (u >= nthreads || fibers[u].state == DONE) {
                std::fprintf(stderr, "shim: warp operation waits for an absent or exited lane\n");
                std::abort();
            }
            const Fiber &g = fibers[u];
            if (g.state != WARP || g.mask != f.mask || g.op != f.op) {
                ready = false;
                break;
            }
            if (g.value) ballot |= 1u << l;
        }
        if (!ready) continue;
        for (unsigned l = 0; l < 32; ++l) {
            if (!((f.mask >> l) & 1u)) continue;
            Fiber &g = fibers[w0 + l];
            g.result = ballot;
            g.state = RUN;
        }
        any = true;
    }
    return any;
}
} // namespace shim_fiber
static inline void __syncthreads() {
    using namespace shim_fiber;
    if (current >= 0) wait_as(BAR);
}
static inline void shim_syncwarp_fiber(unsigned mask) {
    using namespace shim_fiber;
    if (current >= 0) warp_op(0, mask, 0);
}
static inline unsigned shim_ballot_fiber(unsigned mask, bool b, bool *in_fiber) {
    using namespace shim_fiber;
    if (current < 0) return 0;
    *in_fiber = true;
    return warp_op(1, mask, b ? 1u : 0u);
}
static inline void shim_run_block(unsigned n, const std::function<void()> &f) {
    using namespace shim_fiber;
    const size_t stack = (size_t)1 << 18;
    if (fibers.size() < n) fibers.resize(n);
    nthreads = n;
    job = &f;
    for (unsigned t = 0; t < n; ++t) {
        Fiber &fb = fibers[t];
        fb.state = RUN;
        if (fb.stack.size() != stack) fb.stack.resize(stack);
        getcontext(&fb.ctx);
        fb.ctx.uc_stack.ss_sp = fb.stack.data();
        fb.ctx.uc_stack.ss_size = stack;
        fb.ctx.uc_link = &sched;
        makecontext(&fb.ctx, entry, 0);
    }
    for (;;) {
        for (unsigned t = 0; t < n; ++t) {
            if (fibers[t].state != RUN) continue;
            current = (int)t;
            threadIdx.x = t;
            swapcontext(&sched, &fibers[t].ctx);
        }
        current = -1;
        if (release_warps()) continue;
        unsigned live = 0, at_bar = 0;
        for (unsigned t = 0; t < n; ++t) {
            live += fibers[t].state != DONE;
            at_bar += fibers[t].state == BAR;
        }
        if (live == 0) break;
        if (at_bar != live) {
            std::fprintf(stderr, "shim: deadlock (threads wait at warp operations that cannot complete)\n");
            std::abort();
        }
        for (unsigned t = 0; t < n; ++t)
            if (fibers[t].state == BAR) fibers[t].state = RUN;
    }
    current = -1;
}

// ---- dynamic shared memory (extern __shared__) ----------------------------------------------
// A kernel declares its dynamic shared memory with LIMB_DYNAMIC_SMEM(name); on the host it is
// one buffer that the harness sizes before running a block.
static std::vector<unsigned long long> shim_dynamic_smem;
#define LIMB_DYNAMIC_SMEM(name) unsigned long long *name = shim_dynamic_smem.data()
