// Harness appended after shim.h and the kernel source: reads a batch from stdin (decimal
// integers; floating values as raw bit patterns) and prints one record per orbit.
#include <iostream>
template <class V> static V rd() {
    unsigned long long v;
    std::cin >> v;
    return (V)v;
}
static T rd_t() {
    unsigned long long v;
    std::cin >> v;
    T t;
    if (sizeof(T) == 8) { std::memcpy(&t, &v, 8); } else { unsigned w = (unsigned)v; std::memcpy(&t, &w, 4); }
    return t;
}
static unsigned long long bits_t(T t) {
    if (sizeof(T) == 8) { unsigned long long v; std::memcpy(&v, &t, 8); return v; }
    unsigned w; std::memcpy(&w, &t, 4); return w;
}
static unsigned long long bits_d(double d) { unsigned long long v; std::memcpy(&v, &d, 8); return v; }
int main() {
    u64 n_param = rd<u64>(), n_init = rd<u64>(), transient = rd<u64>();
    u32 pmax = rd<u32>();
    T tol = rd_t(), esc = rd_t();
    int single = rd<int>();
    std::vector<T> a(NT * n_param), b(NT * n_param), x0(NT * n_init), y0(NT * n_init);
    for (auto &v : a) v = rd_t();
    for (auto &v : b) v = rd_t();
    for (auto &v : x0) v = rd_t();
    for (auto &v : y0) v = rd_t();
    u64 count = n_param * n_init;
    std::vector<u32> status(count), period(count);
    std::vector<u64> steps(count), index(count), counters(5);
    std::vector<double> residual(count), trace(count), det(count);
    std::vector<T> xs(NT * count), ys(NT * count);
    blockDim.x = 128;
    for (u64 t = 0; t < count; ++t) {
        blockIdx.x = (unsigned)(t / 128);
        threadIdx.x = (unsigned)(t % 128);
        if (single)
            orbits_single(a.data(), b.data(), n_param, x0.data(), y0.data(), n_init, 0, count, transient, pmax, tol, esc, 0,
                          count, status.data(), period.data(), steps.data(), residual.data(), trace.data(), det.data(),
                          xs.data(), ys.data(), index.data(), counters.data());
        else
            orbits_general(a.data(), b.data(), n_param, x0.data(), y0.data(), n_init, 0, count, transient, pmax, tol, esc, 0,
                           count, status.data(), period.data(), steps.data(), residual.data(), trace.data(), det.data(),
                           xs.data(), ys.data(), index.data(), counters.data());
    }
    for (u64 i = 0; i < count; ++i) {
        std::printf("%u %u %llu %llu %llu %llu", status[i], period[i], (unsigned long long)steps[i], bits_d(residual[i]),
                    bits_d(trace[i]), bits_d(det[i]));
        for (int k = 0; k < NT; ++k) std::printf(" %llu", bits_t(xs[k * count + i]));
        for (int k = 0; k < NT; ++k) std::printf(" %llu", bits_t(ys[k * count + i]));
        std::printf("\n");
    }
    return 0;
}
