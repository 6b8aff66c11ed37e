// Tanh-sinh quadrature terms in the limb floats: for each node (c = 1 − x, weight w) of the
// abscissa–weight table, the contribution w·(f(left point) + f(right point))·(Jacobian) of one
// of seed 000 Table 4's five problems, one thread per node, operation for operation the CPU
// reference `quad_node_term` of gpu/src/limb_quad.rs (bit-identical results). Appended after
// limb.cu and limb_functions.cu. All operations to nearest at the quadrature precision p (the
// functions work at wp internally). Problems: 1 e^t cos t on [0, pi/2], 2 sqrt(t) ln t on [0, 1],
// 3 ln cos t on [0, pi/2], 4 e^{-t^2/2} on [0, inf), 5 e^{-t} cos t on [0, inf).

// The integrand at t, given also to_b = b − t (unused on [0, inf)).
template <int L>
__device__ LimbF<L> lq_eval(int problem, const LimbF<L> &t, const LimbF<L> &to_b, unsigned p, const LimbFConsts<L> &c,
                            u64 *w) {
    switch (problem) {
    case 1: return lf_mul(lf_exp(t, c, w), lf_sin(to_b, c, w), p, w);
    case 2:
        if (t.kind == LK_ZERO) return lf_special<L>(LK_ZERO, 0, p);
        return lf_mul(lf_sqrt(t, p, w), lf_ln(t, c, w), p, w);
    case 3: return lf_ln(lf_sin(to_b, c, w), c, w);
    case 4: {
        LimbF<L> x = lf_scale(lf_mul(t, t, p, w), -1);
        return lf_exp(lf_neg(x), c, w);
    }
    default: {
        LimbF<L> e = lf_exp(lf_neg(t), c, w);
        if (e.kind == LK_ZERO) return e;
        return lf_mul(e, lf_cos(t, c, w), p, w);
    }
    }
}

template <int L>
__device__ LimbF<L> lq_node_term(int problem, const LimbF<L> &nc, const LimbF<L> &nw, unsigned p,
                                 const LimbFConsts<L> &c, const LimbF<L> &half_pi_p, u64 *w) {
    LimbF<L> two = lf_int<L>(2);
    LimbF<L> two_minus_c = lf_sub(two, nc, p, w);
    if (problem <= 3) {
        // half = (b − a)/2: pi/4 or 1/2.
        LimbF<L> half = problem == 2 ? lf_scale(lf_round(lf_int<L>(1), p), -1) : lf_scale(half_pi_p, -1);
        LimbF<L> near = lf_mul(half, nc, p, w);
        LimbF<L> far = lf_mul(half, two_minus_c, p, w);
        LimbF<L> fl = lq_eval(problem, near, far, p, c, w);
        LimbF<L> fr = lq_eval(problem, far, near, p, c, w);
        LimbF<L> s = lf_add(fl, fr, p, w);
        return lf_mul(lf_mul(s, nw, p, w), half, p, w);
    }
    LimbF<L> one = lf_int<L>(1);
    LimbF<L> four = lf_int<L>(4);
    LimbF<L> t_r = lf_sub(lf_div(two, nc, p, w), one, p, w);
    LimbF<L> t_l = lf_div(nc, two_minus_c, p, w);
    LimbF<L> fr = lq_eval(problem, t_r, t_r, p, c, w);
    LimbF<L> fl = lq_eval(problem, t_l, t_l, p, c, w);
    LimbF<L> jr;
    if (fr.kind == LK_ZERO) {
        jr = lf_special<L>(LK_ZERO, 0, p);
    } else {
        jr = lf_mul(fr, lf_div(four, lf_mul(nc, nc, p, w), p, w), p, w);
    }
    LimbF<L> jl = lf_mul(fl, lf_div(four, lf_mul(two_minus_c, two_minus_c, p, w), p, w), p, w);
    LimbF<L> s = lf_add(jr, jl, p, w);
    return lf_scale(lf_mul(s, nw, p, w), -1);
}

// One node's term (also the host shim's entry point). Constants 0..3 as lf_consts, 4: pi/2 at p.
template <int L>
__device__ void limb_quad_elem(int problem, unsigned p, unsigned wp, unsigned count, unsigned i, const u64 *cm,
                               const int *ce, const unsigned char *ck, const unsigned *cp, const u64 *nm,
                               const int *ne, const unsigned char *nk, const u64 *wm, const int *we,
                               const unsigned char *wk, u64 *rm, int *re, unsigned char *rk) {
    u64 w[LIMBF_SCRATCH(L)];
    LimbFConsts<L> c = lf_consts<L>(cm, ce, ck, cp, p, wp);
    LimbF<L> half_pi_p = lf_const<L>(cm, ce, ck, cp, 4);
    LimbF<L> nc = lf_load<L>(nm, ne, nk, count, i, p);
    LimbF<L> nw = lf_load<L>(wm, we, wk, count, i, p);
    LimbF<L> r = lq_node_term(problem, nc, nw, p, c, half_pi_p, w);
    lf_store(r, rm, re, rk, count, i);
}

#define LIMB_QUAD_KERNEL(L)                                                                                        \
    extern "C" __global__ void limb_quad_##L(int problem, unsigned p, unsigned wp, unsigned count, const u64 *cm, \
                                             const int *ce, const unsigned char *ck, const unsigned *cp,           \
                                             const u64 *nm, const int *ne, const unsigned char *nk, const u64 *wm, \
                                             const int *we, const unsigned char *wk, u64 *rm, int *re,             \
                                             unsigned char *rk) {                                                  \
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                                        \
        if (i >= count) return;                                                                                    \
        limb_quad_elem<L>(problem, p, wp, count, i, cm, ce, ck, cp, nm, ne, nk, wm, we, wk, rm, re, rk);           \
    }

// The kernels are instantiated per capacity by the program (gpu/src/limb_quad.rs appends
// `LIMB_FN_KERNEL(L) LIMB_QUAD_KERNEL(L)` for one L), so a run compiles only what it uses.
