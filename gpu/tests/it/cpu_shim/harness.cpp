// Harness appended after shim.h and the kernel source: reads a batch from stdin (decimal
// integers; floating values as raw bit patterns) and prints one record per orbit; with compact
// mode 1 or 2 (the last number of the first line), the 8 counters on the first line and then
// the kept records, each prefixed by its orbit index.
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
    int compact = rd<int>();
    std::vector<T> a(NT * n_param), b(NT * n_param), x0(NT * n_init), y0(NT * n_init);
    for (auto &v : a) v = rd_t();
    for (auto &v : b) v = rd_t();
    for (auto &v : x0) v = rd_t();
    for (auto &v : y0) v = rd_t();
    u64 count = n_param * n_init;
    std::vector<u32> status(count), period(count);
    std::vector<u64> steps(count), index(count), counters(8);
    std::vector<double> residual(count), trace(count), det(count);
    std::vector<T> xs(NT * count), ys(NT * count);
    // Compact modes count statuses per warp (lane 0 adds the ballot, which the shim makes the
    // thread's own): there every thread is lane 0 of a one-thread block.
    const unsigned bd = compact ? 1u : 128u;
    blockDim.x = bd;
    for (u64 t = 0; t < count; ++t) {
        blockIdx.x = (unsigned)(t / bd);
        threadIdx.x = (unsigned)(t % bd);
        if (single)
            orbits_single(a.data(), b.data(), n_param, x0.data(), y0.data(), n_init, 0, count, transient, pmax, tol, esc, compact,
                          count, status.data(), period.data(), steps.data(), residual.data(), trace.data(), det.data(),
                          xs.data(), ys.data(), index.data(), counters.data());
        else
            orbits_general(a.data(), b.data(), n_param, x0.data(), y0.data(), n_init, 0, count, transient, pmax, tol, esc, compact,
                           count, status.data(), period.data(), steps.data(), residual.data(), trace.data(), det.data(),
                           xs.data(), ys.data(), index.data(), counters.data());
    }
    u64 rows = count;
    if (compact) {
        for (int k = 0; k < 8; ++k) std::printf(k ? " %llu" : "%llu", (unsigned long long)counters[k]);
        std::printf("\n");
        rows = counters[4];
    }
    for (u64 i = 0; i < rows; ++i) {
        if (compact) std::printf("%llu ", (unsigned long long)index[i]);
        std::printf("%u %u %llu %llu %llu %llu", status[i], period[i], (unsigned long long)steps[i], bits_d(residual[i]),
                    bits_d(trace[i]), bits_d(det[i]));
        for (int k = 0; k < NT; ++k) std::printf(" %llu", bits_t(xs[k * count + i]));
        for (int k = 0; k < NT; ++k) std::printf(" %llu", bits_t(ys[k * count + i]));
        std::printf("\n");
    }
    return 0;
}
