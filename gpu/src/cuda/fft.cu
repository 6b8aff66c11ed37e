// expanse-gpu: the complex radix-2 FFT of apps/src/fft.rs (seed 002), operation for operation:
// the bit-reversal permutation, log2(n) stages of butterflies (x, y) <- (x + w*y, x - w*y) in
// the fast tier of core/src/fast.rs (orbits.cu: add_fast, sub_fast, mul_fast; NT = 1 is plain
// IEEE arithmetic, the CPU's f64 format), and the inverse's exact scaling by 1/n. Follows
// prelude.cu and orbits.cu.
//
// Layout of a vector of n complex numbers: term k of the real part of element i at
// a[k * n + i], of the imaginary part at a[(NT + k) * n + i]. The twiddle table w^k =
// e^(-2 pi i k / N), k < N/2, of the largest size N is stored the same way (length N/2): it is
// the CPU's table, uploaded, so both sides multiply by the same numbers.

#define FFT_BLOCK 256

__device__ __forceinline__ E fft_load(const T *a, u64 n, int part, u64 i) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = a[((u64)part * NT + k) * n + i];
    return r;
}
__device__ __forceinline__ void fft_store(T *a, u64 n, int part, u64 i, const E &v) {
#pragma unroll
    for (int k = 0; k < NT; ++k) a[((u64)part * NT + k) * n + i] = v.t[k];
}

// out[i] = in[rev(i)] (the CPU swaps a[i] and a[rev(i)] in place: the same permutation).
extern "C" __global__ void __launch_bounds__(FFT_BLOCK)
    fft_bitrev(const T *__restrict__ in, T *__restrict__ out, u64 n, u32 log2n) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u64 j = __brevll(i) >> (64 - log2n);
#pragma unroll
    for (int k = 0; k < 2 * NT; ++k) out[(u64)k * n + i] = in[(u64)k * n + j];
}

// One stage: butterflies of half-size h (a power of two), thread t < n/2 takes block t / h,
// index j = t mod h, twiddle W[j << shift] (conjugated for the inverse transform).
extern "C" __global__ void __launch_bounds__(FFT_BLOCK)
    fft_stage(T *__restrict__ a, const T *__restrict__ tw, u64 n, u64 half_max, u64 h,
              u32 shift, int inverse) {
    u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n / 2) return;
    u64 j = t & (h - 1);
    u64 xi = (t - j) * 2 + j;
    u64 yi = xi + h;
    E w0 = fft_load(tw, half_max, 0, j << shift);
    E w1 = fft_load(tw, half_max, 1, j << shift);
    if (inverse) w1 = e_neg(w1);
    E x0 = fft_load(a, n, 0, xi), x1 = fft_load(a, n, 1, xi);
    E y0 = fft_load(a, n, 0, yi), y1 = fft_load(a, n, 1, yi);
    E tr = sub_fast(mul_fast(y0, w0), mul_fast(y1, w1));
    E ti = add_fast(mul_fast(y0, w1), mul_fast(y1, w0));
    fft_store(a, n, 0, yi, sub_fast(x0, tr));
    fft_store(a, n, 1, yi, sub_fast(x1, ti));
    fft_store(a, n, 0, xi, add_fast(x0, tr));
    fft_store(a, n, 1, xi, add_fast(x1, ti));
}

// Exact scaling of every term by `factor` = 2^e (Expansion::ldexp's multiplication).
extern "C" __global__ void __launch_bounds__(FFT_BLOCK)
    fft_scale(T *__restrict__ a, u64 n, T factor) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#pragma unroll
    for (int k = 0; k < 2 * NT; ++k) a[(u64)k * n + i] = a[(u64)k * n + i] * factor;
}
