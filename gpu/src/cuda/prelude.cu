// expanse-gpu prelude, prepended to every CUDA source of this crate (gpu/src/cuda/*.cu):
// the instantiation (N terms of type T), the expansion struct E, and the error-free transforms
// of core/src/eft.rs, operation for operation.
//
// Compiled at run time by NVRTC with --fmad=false (no contraction of a*b+c: every FMA is an
// explicit fma()), --ftz=false, --prec-div=true, --prec-sqrt=true, once per (source, N, T, arch).
// The host prepends
//     #define EXP_N <N>        (number of terms, 1..8)
//     #define EXP_T <double|float>
// Arrays of expansions are interleaved (seed 000, GQD): term k of element i lives at
// base[k * stride + i], so a warp reading term k of consecutive elements is coalesced.

typedef EXP_T T;
#define NT EXP_N

typedef unsigned long long u64;
typedef unsigned int u32;

struct E {
    T t[NT];
};

// ---- error-free transforms (core/src/eft.rs) ------------------------------------------------

__device__ __forceinline__ void two_sum(T a, T b, T &s, T &e) {
    s = a + b;
    T av = s - b;
    T bv = s - av;
    T ae = a - av;
    T be = b - bv;
    e = ae + be;
}

__device__ __forceinline__ void fast_two_sum(T a, T b, T &s, T &e) {
    s = a + b;
    T z = s - a;
    e = b - z;
}

__device__ __forceinline__ void two_prod(T a, T b, T &p, T &e) {
    p = a * b;
    e = fma(a, b, -p);
}

__device__ __forceinline__ void two_sqr(T a, T &p, T &e) {
    p = a * a;
    e = fma(a, a, -p);
}

