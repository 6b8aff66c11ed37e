// QD 2.3.23's dd_real and qd_real exp, log, sin and atan, timed as `expanse bench functions`
// times the expansions (one thread, ns per call over the same 64 arguments per function, best
// of 5 rounds of a calibrated loop, thread CPU time): the reference of issue 13's N = 2 target
// ("at least 2x QD's dd"), measured on the machine at hand instead of quoted from another.
// Not part of the build: QD is a C++ library (Debian: libqd-dev).
//
//   g++ -O2 -o /tmp/qd_bench core/tools/qd_bench.cpp -lqd && /tmp/qd_bench
//
// Arguments as `bench functions`' `arguments` (64 values spread over (lo, hi): exp (-20, 20),
// log (1e-3, 1e3), sin and atan (-10, 10)), each made a non-trivial double-word/quad-word as
// x(1 + 1/3) (`expansion_terms_f64`).
#include <qd/dd_real.h>
#include <qd/fpu.h>
#include <qd/qd_real.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

static double thread_seconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static std::vector<double> arguments(double lo, double hi) {
    std::vector<double> a;
    for (int k = 0; k < 64; ++k) {
        double t = (k + 0.5) / 64.0 + 1e-3 * ((k * 7919) % 61);
        a.push_back(lo + (hi - lo) * std::min(t, 1.0));
    }
    return a;
}

// Best ns per call of f over xs: repetitions calibrated to about 5 ms, then 5 rounds.
template <class T, class F> static double ns_per_call(const std::vector<T> &xs, F f) {
    volatile double sink = 0;
    long reps = 1;
    for (;;) {
        double t0 = thread_seconds();
        for (long r = 0; r < reps; ++r)
            for (const T &x : xs) sink = sink + to_double(f(x));
        if (thread_seconds() - t0 > 0.005 || reps > (1L << 24)) break;
        reps *= 2;
    }
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
        double t0 = thread_seconds();
        for (long r = 0; r < reps; ++r)
            for (const T &x : xs) sink = sink + to_double(f(x));
        best = std::min(best, (thread_seconds() - t0) / (reps * (double)xs.size()) * 1e9);
    }
    return best;
}

template <class T> static std::vector<T> expansions(double lo, double hi) {
    std::vector<T> xs;
    for (double a : arguments(lo, hi)) xs.push_back(T(a) / T(3.0) + T(a));
    return xs;
}

template <class T> static void row(const char *type) {
    auto e = expansions<T>(-20, 20), l = expansions<T>(1e-3, 1e3), s = expansions<T>(-10, 10);
    double t_exp = ns_per_call(e, [](const T &x) { return exp(x); });
    double t_log = ns_per_call(l, [](const T &x) { return log(x); });
    double t_sin = ns_per_call(s, [](const T &x) { return sin(x); });
    double t_atan = ns_per_call(s, [](const T &x) { return atan(x); });
    std::printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", type, t_exp, t_log, t_sin, t_atan);
}

int main() {
    unsigned int old_cw;
    fpu_fix_start(&old_cw);
    std::printf("QD %s, one thread, ns per call (best of 5 rounds)\n", "2.3.23 (libqd)");
    std::printf("| type | exp | log | sin | atan |\n| --- | --- | --- | --- | --- |\n");
    row<dd_real>("dd_real");
    row<qd_real>("qd_real");
    fpu_fix_end(&old_cw);
    return 0;
}
