// CPU shim for the CUDA sources of gpu/src/cuda/: lets a host C++ compiler build the kernel source unchanged
// (one "thread" at a time), so tests without a GPU check that the CUDA code computes exactly
// what the Rust reference computes. Only what those sources use is provided. Compile with
// -ffp-contract=off (the analogue of NVRTC's --fmad=false).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#define __device__
#define __global__
#define __shared__ static
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(x)
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
static inline void __syncwarp() {}
static inline unsigned __ballot_sync(unsigned, bool b) { return b ? 1u : 0u; }
static inline int __popc(unsigned v) { return __builtin_popcount(v); }
