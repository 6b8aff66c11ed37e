// expanse-gpu: seed 003's quasi double-precision pair operations (Narumi et al.), operation for
// operation as core/src/quasi.rs (`add_f1`, `sub_f1`, `mul_f12`, with core/src/eft.rs's
// Veltkamp `split`), on pairs (hi, lo) of the prelude's T (float in the seed's setting).
// Follows prelude.cu. No FMA anywhere (--fmad=false keeps every a*b+c two roundings, as Rust).
// The host builds in apps/tests/it/gpu_on_cpu.rs prove the identity with the CPU code.

struct QP {
    T h;
    T l;
};

// core::eft::split: Veltkamp's splitting with SPLITTER = 2^ceil(p/2) + 1 (4097 f32, 2^27+1 f64).
__device__ __forceinline__ void q_split(T a, T &hi, T &lo) {
    const T splitter = sizeof(T) == 8 ? (T)134217729.0 : (T)4097.0;
    T c = splitter * a;
    hi = c - (c - a);
    lo = a - hi;
}

// dsadd_F1 (quasi::add_f1).
__device__ __forceinline__ QP q_add_f1(QP a, QP b) {
    QP r;
    T l;
    two_sum(a.h, b.h, r.h, l);
    r.l = l + (a.l + b.l);
    return r;
}

// dssub_F1 (quasi::sub_f1).
__device__ __forceinline__ QP q_sub_f1(QP a, QP b) {
    QP r;
    T h = a.h - b.h;
    T e = h - a.h;
    r.h = h;
    r.l = (((-b.h - e) + (a.h - (h - e))) + a.l) - b.l;
    return r;
}

// dsmul_F12 (quasi::mul_f12): Dekker's product of the high parts, cross terms, Fast2Sum.
__device__ __forceinline__ QP q_mul_f12(QP a, QP b) {
    T ah, al, bh, bl;
    q_split(a.h, ah, al);
    q_split(b.h, bh, bl);
    T ch = a.h * b.h;
    T cl = (((ah * bh - ch) + ah * bl) + al * bh) + al * bl;
    T c2 = a.h * b.l + a.l * b.h;
    cl = (cl + c2) + a.l * b.l;
    QP r;
    fast_two_sum(ch, cl, r.h, r.l);
    return r;
}
