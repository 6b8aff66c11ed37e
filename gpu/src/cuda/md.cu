// expanse-gpu: Lennard-Jones molecular dynamics (apps/src/md.rs, seed 003), operation for
// operation as the CPU's generic step over `MdReal`, one thread per particle. Follows
// prelude.cu, accurate.cu (dd's reciprocal), orbits.cu (the fast tier) and quasi.cu.
//
// The format R is the instance: NT = 1: IEEE T (f32, f64); NT = 2 with float terms: Narumi's
// quasi double (hi, lo) = (t[0], t[1]); NT = 2 with double terms: dd, fast tier with the
// accurate tier's reciprocal. A value of R is held in an E.
//
// Layout: coordinate c (0..3), term k of particle i at a[(c * NT + k) * n + i]; the per-particle
// energies at pe[k * n + i].
//
// Order: the force on particle i is the sum over j = 0..n-1 (j != i) in index order, each pair
// evaluated from i's side, exactly the CPU's loop; the threads never combine their sums.

#define MD_BLOCK 128

__device__ __forceinline__ bool md_quasi() { return NT == 2 && sizeof(T) == 4; }

__device__ __forceinline__ QP md_qp(const E &a) {
    QP r;
    r.h = a.t[0];
    r.l = a.t[NT - 1];
    return r;
}
__device__ __forceinline__ E md_e(QP q) {
    E r;
    r.t[0] = q.h;
    r.t[NT - 1] = q.l;
    return r;
}

// MdReal::add
__device__ __forceinline__ E r_add(const E &a, const E &b) {
#if NT == 1
    E r;
    r.t[0] = a.t[0] + b.t[0];
    return r;
#else
    if (md_quasi()) return md_e(q_add_f1(md_qp(a), md_qp(b)));
    return add_fast(a, b);
#endif
}

// MdReal::sub
__device__ __forceinline__ E r_sub(const E &a, const E &b) {
#if NT == 1
    E r;
    r.t[0] = a.t[0] - b.t[0];
    return r;
#else
    if (md_quasi()) return md_e(q_sub_f1(md_qp(a), md_qp(b)));
    return sub_fast(a, b);
#endif
}

// MdReal::mul
__device__ __forceinline__ E r_mul(const E &a, const E &b) {
#if NT == 1
    E r;
    r.t[0] = a.t[0] * b.t[0];
    return r;
#else
    if (md_quasi()) return md_e(q_mul_f12(md_qp(a), md_qp(b)));
    return mul_fast(a, b);
#endif
}

// MdReal::recip: f32/f64 1/x; quasi: one Newton step from the f32 reciprocal; dd: the accurate
// tier's reciprocal (Expansion::recip).
__device__ __forceinline__ E r_recip(const E &a) {
#if NT == 1
    E r;
    r.t[0] = (T)1 / a.t[0];
    return r;
#else
    if (md_quasi()) {
        QP x = md_qp(a);
        QP y0, one;
        y0.h = (T)1 / x.h;
        y0.l = 0;
        one.h = 1;
        one.l = 0;
        QP e = q_sub_f1(one, q_mul_f12(x, y0));
        return md_e(q_add_f1(y0, q_mul_f12(y0, e)));
    }
    return acc_recip(a);
#endif
}

// MdReal::acc: addition into a state variable (quasi: renormalised by Fast2Sum).
__device__ __forceinline__ E r_acc(const E &a, const E &b) {
    if (md_quasi()) {
        QP s = q_add_f1(md_qp(a), md_qp(b));
        QP r;
        fast_two_sum(s.h, s.l, r.h, r.l);
        return md_e(r);
    }
    return r_add(a, b);
}

// MdReal::from_f64
__device__ __forceinline__ E r_from(double v) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = 0;
    r.t[0] = (T)v;
    if (md_quasi()) r.t[NT - 1] = (T)(v - (double)r.t[0]);
    return r;
}

// MdReal::to_f64 (dd: Expansion::to_f64, two_sum from the last term up, errors summed).
__device__ __forceinline__ double r_to(const E &a) {
#if NT == 1
    return (double)a.t[0];
#else
    if (md_quasi()) return (double)a.t[0] + (double)a.t[NT - 1];
    double s = 0, c = 0;
#pragma unroll
    for (int k = NT - 1; k >= 0; --k) {
        double av, bv, hi;
        double t = (double)a.t[k];
        hi = s + t;
        av = hi - t;
        bv = hi - av;
        c += (s - av) + (t - bv);
        s = hi;
    }
    return s + c;
#endif
}

__device__ __forceinline__ E md_load(const T *a, u64 n, int c, u64 i) {
    E r;
#pragma unroll
    for (int k = 0; k < NT; ++k) r.t[k] = a[((u64)c * NT + k) * n + i];
    return r;
}
__device__ __forceinline__ void md_store(T *a, u64 n, int c, u64 i, const E &v) {
#pragma unroll
    for (int k = 0; k < NT; ++k) a[((u64)c * NT + k) * n + i] = v.t[k];
}

// min_image: a - b, minus l*round((a - b)/lf) when that is not 0.
__device__ __forceinline__ E md_min_image(const E &a, const E &b, const E &l, double lf) {
    E d = r_sub(a, b);
    double k = round(r_to(d) / lf);
    if (k == 0.0) return d;
    return r_sub(d, r_mul(l, r_from(k)));
}

// forces(): f[i] (and, when `energy`, pe[i], the half pair energies) for every particle i.
extern "C" __global__ void __launch_bounds__(MD_BLOCK)
    md_forces(const T *__restrict__ x, u64 n, double l, double rc2f, int energy,
              T *__restrict__ f, T *__restrict__ pe) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // cutoff_constants(): V(s_c), V'(s_c).
    E inv_c = r_recip(r_from(rc2f));
    E i3_c = r_mul(r_mul(inv_c, inv_c), inv_c);
    E vc = r_mul(r_from(4.0), r_sub(r_mul(i3_c, i3_c), i3_c));
    E dvc = r_sub(r_mul(r_mul(r_from(12.0), i3_c), inv_c),
                  r_mul(r_mul(r_from(24.0), r_mul(i3_c, i3_c)), inv_c));
    E lr = r_from(l);
    E zero = r_from(0.0);
    E two_dvc = r_add(dvc, dvc);
    E rc2 = r_from(rc2f);
    E xi[3], fi[3];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        xi[c] = md_load(x, n, c, i);
        fi[c] = zero;
    }
    E e = zero;
    for (u64 j = 0; j < n; ++j) {
        if (j == i) continue;
        E d[3];
#pragma unroll
        for (int c = 0; c < 3; ++c) d[c] = md_min_image(xi[c], md_load(x, n, c, j), lr, l);
        E s = r_add(r_add(r_mul(d[0], d[0]), r_mul(d[1], d[1])), r_mul(d[2], d[2]));
        if (r_to(s) >= rc2f) continue;
        E inv = r_recip(s);
        E i3 = r_mul(r_mul(inv, inv), inv);
        E g = r_add(r_sub(r_mul(r_from(48.0), r_mul(r_mul(i3, i3), inv)),
                          r_mul(r_from(24.0), r_mul(i3, inv))),
                    two_dvc);
#pragma unroll
        for (int c = 0; c < 3; ++c) fi[c] = r_add(fi[c], r_mul(d[c], g));
        if (energy) {
            E v = r_sub(r_sub(r_mul(r_from(4.0), r_sub(r_mul(i3, i3), i3)), vc),
                        r_mul(r_sub(s, rc2), dvc));
            e = r_add(e, r_mul(r_from(0.5), v));
        }
    }
#pragma unroll
    for (int c = 0; c < 3; ++c) md_store(f, n, c, i, fi[c]);
    if (energy) {
#pragma unroll
        for (int k = 0; k < NT; ++k) pe[(u64)k * n + i] = e.t[k];
    }
}

// The first half of step(): v += (dt/2) f; x += dt v, wrapped into [0, l).
extern "C" __global__ void __launch_bounds__(MD_BLOCK)
    md_kick_drift(T *__restrict__ x, T *__restrict__ v, const T *__restrict__ f, u64 n,
                  double l, double dt) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E h = r_from(dt / 2.0);
    E dtr = r_from(dt);
    E lr = r_from(l);
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        E vc = r_acc(md_load(v, n, c, i), r_mul(h, md_load(f, n, c, i)));
        md_store(v, n, c, i, vc);
        E y = r_acc(md_load(x, n, c, i), r_mul(dtr, vc));
        double w = floor(r_to(y) / l);
        if (w != 0.0) {
            y = r_sub(y, r_mul(lr, r_from(w)));
            y = r_acc(y, r_from(0.0));
        }
        md_store(x, n, c, i, y);
    }
}

// The last part of step(): v += (dt/2) f (the new forces).
extern "C" __global__ void __launch_bounds__(MD_BLOCK)
    md_kick(T *__restrict__ v, const T *__restrict__ f, u64 n, double dt) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E h = r_from(dt / 2.0);
#pragma unroll
    for (int c = 0; c < 3; ++c)
        md_store(v, n, c, i, r_acc(md_load(v, n, c, i), r_mul(h, md_load(f, n, c, i))));
}
