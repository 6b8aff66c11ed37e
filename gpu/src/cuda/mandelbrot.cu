// expanse-gpu: escape-time counts of the Mandelbrot set (apps/src/mandelbrot.rs, seed 003),
// one thread per pixel, operation for operation as the CPU's `count_plain` (f32, f64),
// `count_quasi` (Narumi's quasi double on f32 pairs) and `count_exp` (dd, qd: the fast tier
// of core/src/fast.rs, whose CUDA mirror is orbits.cu). Follows prelude.cu, orbits.cu and
// quasi.cu.
//
// Pixel (i, j) of a width x height image has c = (cx[i], cy[j]): the view's c varies along
// one axis each, so the host uploads one row and one column of c (computed as the CPU does)
// and every format iterates exactly the CPU's c. Coordinates are stored interleaved: term k of
// column i at cx[k * width + i], of row j at cy[k * height + j] (a quasi pair: hi at k = 0,
// lo at k = 1). counts[j * width + i].

#define MANDEL_BLOCK 128

__device__ __forceinline__ bool mandel_pixel(u32 width, u32 height, u64 &p, u32 &i, u32 &j) {
    p = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= (u64)width * height) return false;
    i = (u32)(p % width);
    j = (u32)(p / width);
    return true;
}

// count_plain: IEEE operations in T (the instance with NT = 1; f32 or f64).
extern "C" __global__ void __launch_bounds__(MANDEL_BLOCK)
    mandel_plain(const T *__restrict__ cx, const T *__restrict__ cy, u32 width, u32 height,
                 u32 max_iter, u32 *__restrict__ counts) {
    u64 p;
    u32 i, j;
    if (!mandel_pixel(width, height, p, i, j)) return;
    const T c_x = cx[i], c_y = cy[j];
    T x = 0, y = 0;
    u32 k = 0;
    for (; k < max_iter; ++k) {
        T xx = x * x;
        T yy = y * y;
        if (xx + yy > (T)4) break;
        T xy = x * y;
        x = (xx - yy) + c_x;
        y = (xy + xy) + c_y;
    }
    counts[p] = k;
}

// count_quasi: seed 003's pair operations; bailout on the high words.
extern "C" __global__ void __launch_bounds__(MANDEL_BLOCK)
    mandel_quasi(const T *__restrict__ cx, const T *__restrict__ cy, u32 width, u32 height,
                 u32 max_iter, u32 *__restrict__ counts) {
    u64 p;
    u32 i, j;
    if (!mandel_pixel(width, height, p, i, j)) return;
    QP c_x, c_y;
    c_x.h = cx[i];
    c_x.l = cx[width + i];
    c_y.h = cy[j];
    c_y.l = cy[height + j];
    QP x, y;
    x.h = 0;
    x.l = 0;
    y = x;
    u32 k = 0;
    for (; k < max_iter; ++k) {
        QP xx = q_mul_f12(x, x);
        QP yy = q_mul_f12(y, y);
        if (xx.h + yy.h > (T)4) break;
        QP xy = q_mul_f12(x, y);
        x = q_add_f1(q_sub_f1(xx, yy), c_x);
        QP xy2;
        xy2.h = xy.h * (T)2;
        xy2.l = xy.l * (T)2;
        y = q_add_f1(xy2, c_y);
    }
    counts[p] = k;
}

// count_exp: NT-term expansions, fast tier; 2xy by Expansion::ldexp(1) (each term times 2).
extern "C" __global__ void __launch_bounds__(MANDEL_BLOCK)
    mandel_exp(const T *__restrict__ cx, const T *__restrict__ cy, u32 width, u32 height,
               u32 max_iter, u32 *__restrict__ counts) {
    u64 p;
    u32 i, j;
    if (!mandel_pixel(width, height, p, i, j)) return;
    E c_x, c_y, x, y;
#pragma unroll
    for (int k = 0; k < NT; ++k) {
        c_x.t[k] = cx[(u64)k * width + i];
        c_y.t[k] = cy[(u64)k * height + j];
        x.t[k] = 0;
        y.t[k] = 0;
    }
    u32 k = 0;
    for (; k < max_iter; ++k) {
        E xx = sqr_fast(x);
        E yy = sqr_fast(y);
        if (xx.t[0] + yy.t[0] > (T)4) break;
        E xy = mul_fast(x, y);
        x = add_fast(sub_fast(xx, yy), c_x);
#pragma unroll
        for (int t = 0; t < NT; ++t) xy.t[t] = xy.t[t] * (T)2;
        y = add_fast(xy, c_y);
    }
    counts[p] = k;
}
