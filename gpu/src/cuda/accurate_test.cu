// expanse-gpu: a test kernel over the accurate tier (accurate.cu), for the identity checks
// against expanse-core's `Expansion` methods (gpu/tests/it/accurate_on_cpu.rs on the host,
// `expanse bench functions --check` on a device). One thread per element; arrays interleaved
// (term k of element i at k*n + i).
//
// op: 0 add, 1 sub, 2 add_term (b's leading term), 3 mul, 4 sqr, 5 mul_term (b's leading
// term), 6 div, 7 div_term (b's leading term), 8 recip, 9 sqrt, 10 neg, 11 from (a's leading
// term), 12 zero; the exact references that the operations fall back on when their run-time
// certificate fails (rare, so tested directly): 13 reference add, 14 reference mul (N >= 3),
// 15 reference mul_term (b's leading term; N >= 3), 16 reference div, 17 reference sqrt.
// cmp[i] = acc_cmp(a, b) for every op.

#define ACC_TEST_OPS 18

extern "C" __global__ void acc_test(int op, const T *x, const T *y, T *out, int *cmp, u64 n) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E a, b;
#pragma unroll
    for (int k = 0; k < NT; ++k) {
        a.t[k] = x[(u64)k * n + i];
        b.t[k] = y[(u64)k * n + i];
    }
    E r;
    switch (op) {
    case 0: r = acc_add(a, b); break;
    case 1: r = acc_sub(a, b); break;
    case 2: r = acc_add_term(a, b.t[0]); break;
    case 3: r = acc_mul(a, b); break;
    case 4: r = acc_sqr(a); break;
    case 5: r = acc_mul_term(a, b.t[0]); break;
    case 6: r = acc_div(a, b); break;
    case 7: r = acc_div_term(a, b.t[0]); break;
    case 8: r = acc_recip(a); break;
    case 9: r = acc_sqrt(a); break;
    case 10: r = acc_neg(a); break;
    case 11: r = acc_from(a.t[0]); break;
    case 13: r = e_of(ac_reference_add<NT>(x_of(a), x_of(b))); break;
    case 14: r = e_of(ac_reference_mul<NT>(x_of(a), x_of(b))); break;
    case 15: r = e_of(ac_reference_mul_term<NT>(x_of(a), b.t[0])); break;
    case 16: r = e_of(ac_reference_div<NT>(x_of(a), x_of(b))); break;
    case 17: r = e_of(ac_reference_sqrt<NT>(x_of(a))); break;
    default: r = acc_zero(); break;
    }
#pragma unroll
    for (int k = 0; k < NT; ++k) out[(u64)k * n + i] = r.t[k];
    cmp[i] = acc_cmp(a, b);
}
