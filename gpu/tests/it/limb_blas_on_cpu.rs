//! The cooperative-group multiplication and addition (`cuda/limb_group.cu`) and the limb GEMV
//! (`cuda/limb_blas.cu`), compiled for the host through the shim (a block's threads are fibers,
//! `__syncthreads` a real barrier, dynamic shared memory one buffer), must return what the CPU
//! computes, bit for bit:
//! - `limb_group_mul` with groups of 1, 3, 4 and 32 threads at precisions from 3 to 4096 bits
//!   (and `limb_group_add`, add and subtract, with 1 to 32 threads),
//!   every rounding mode, on the core's MPFR-check operand sets (cancellation, carries across
//!   every limb, ties, overflow, underflow, zeros, infinities, NaN): equal to
//!   `limb_reference` (class, sign, exponent, limbs, ternary value);
//! - `limb_gemv_<L>` (several threads per row, odd and even N): equal to `gemv_reference`
//!   and to MPFR (`rug`) running the same operations in the same order, in two rounding
//!   modes, with exact zeros of both signs and cancelling rows among the entries.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::shim::{build, compiler, run_with_input, shim_dir};
use expanse_core::limb::check::{operand_set, Op};
use expanse_core::limb::{AnyLimbFloat, Round};
use expanse_gpu::limb::{limb_reference, round_code, LimbArrays, LimbOp};
use expanse_gpu::limb_blas::{gemv_reference, group_shape, LIMB_EXT_PROGRAM};
use rug::Float;

/// Reads blocks from stdin: `G op p count g e` + two operand arrays → for each rounding mode and
/// element `kind|sign exp ord limbs…`; `M p rnd m n threads` + A + x → per row
/// `kind|sign exp limbs…`.
const HARNESS: &str = r#"
static bool read_arr(unsigned count, int n, std::vector<u64> &m, std::vector<int> &e, std::vector<unsigned char> &k) {
    k.resize(count);
    e.resize(count);
    m.resize((size_t)n * count);
    for (unsigned i = 0; i < count; ++i) {
        int v;
        if (scanf("%d", &v) != 1) return false;
        k[i] = (unsigned char)v;
    }
    for (unsigned i = 0; i < count; ++i)
        if (scanf("%d", &e[i]) != 1) return false;
    for (size_t j = 0; j < (size_t)n * count; ++j) {
        unsigned long long v;
        if (scanf("%llu", &v) != 1) return false;
        m[j] = v;
    }
    return true;
}
int main() {
    char what[4];
    while (scanf("%3s", what) == 1) {
        if (what[0] == 'G') {
            unsigned p, count, G, E;
            int op;
            if (scanf("%d %u %u %u %u", &op, &p, &count, &G, &E) != 5) return 2;
            int n = limb_limbs(p);
            std::vector<u64> m[2];
            std::vector<int> e[2];
            std::vector<unsigned char> k[2];
            for (int a = 0; a < 2; ++a)
                if (!read_arr(count, n, m[a], e[a], k[a])) return 2;
            std::vector<u64> rm((size_t)n * count);
            std::vector<int> re(count);
            std::vector<unsigned char> rk(count);
            std::vector<signed char> ro(count);
            for (int rnd = 0; rnd < 5; ++rnd) {
                shim_dynamic_smem.assign((size_t)E * (8 * n + 4), 0xdeadbeefULL);
                blockDim.x = E * G;
                gridDim.x = (count + E - 1) / E;
                for (unsigned b = 0; b < gridDim.x; ++b) {
                    blockIdx.x = b;
                    shim_run_block(E * G, [&] {
                        if (op == 2)
                            limb_group_mul(rnd, p, count, G, m[0].data(), e[0].data(), k[0].data(), m[1].data(),
                                           e[1].data(), k[1].data(), rm.data(), re.data(), rk.data(), ro.data());
                        else
                            limb_group_add(op, rnd, p, count, G, m[0].data(), e[0].data(), k[0].data(), m[1].data(),
                                           e[1].data(), k[1].data(), rm.data(), re.data(), rk.data(), ro.data());
                    });
                }
                for (unsigned i = 0; i < count; ++i) {
                    printf("%d %d %d", (int)rk[i], re[i], (int)ro[i]);
                    for (int j = 0; j < n; ++j) printf(" %llu", (unsigned long long)rm[(size_t)j * count + i]);
                    printf("\n");
                }
            }
        } else {
            unsigned p, M, N, T;
            int rnd;
            if (scanf("%u %d %u %u %u", &p, &rnd, &M, &N, &T) != 5) return 2;
            int n = limb_limbs(p);
            std::vector<u64> am, xm, sm((size_t)n * M * N), ym((size_t)n * M);
            std::vector<int> ae, xe, se(M * N), ye(M);
            std::vector<unsigned char> ak, xk, sk(M * N), yk(M);
            if (!read_arr(M * N, n, am, ae, ak) || !read_arr(N, n, xm, xe, xk)) return 2;
            blockDim.x = T;
            gridDim.x = M;
            for (unsigned row = 0; row < M; ++row) {
                blockIdx.x = row;
                shim_run_block(T, [&] {
                    const u64 *a = am.data(), *x = xm.data();
                    const int *ea = ae.data(), *ex = xe.data();
                    const unsigned char *ka = ak.data(), *kx = xk.data();
                    switch (n <= 2 ? 2 : n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : 64) {
                    case 2: limb_gemv_2(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    case 4: limb_gemv_4(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    case 8: limb_gemv_8(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    case 16: limb_gemv_16(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    case 32: limb_gemv_32(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    default: limb_gemv_64(rnd, p, M, N, a, ea, ka, x, ex, kx, sm.data(), se.data(), sk.data(), ym.data(), ye.data(), yk.data()); break;
                    }
                });
            }
            for (unsigned i = 0; i < M; ++i) {
                printf("%d %d", (int)yk[i], ye[i]);
                for (int j = 0; j < n; ++j) printf(" %llu", (unsigned long long)ym[(size_t)j * M + i]);
                printf("\n");
            }
        }
    }
    return 0;
}
"#;

fn push_arr(s: &mut String, a: &LimbArrays) {
    for k in &a.kinds {
        s.push_str(&format!("{k} "));
    }
    s.push('\n');
    for e in &a.exps {
        s.push_str(&format!("{e} "));
    }
    s.push('\n');
    for m in &a.limbs {
        s.push_str(&format!("{m} "));
    }
    s.push('\n');
}

fn parse_line(line: &str, prec: u32, with_ord: bool) -> (LimbArrays, i8) {
    let v: Vec<&str> = line.split_whitespace().collect();
    let skip = if with_ord { 3 } else { 2 };
    assert_eq!(v.len(), skip + prec.div_ceil(64) as usize, "{line}");
    (
        LimbArrays {
            prec,
            count: 1,
            limbs: v[skip..].iter().map(|x| x.parse().unwrap()).collect(),
            exps: vec![v[1].parse().unwrap()],
            kinds: vec![v[0].parse().unwrap()],
        },
        if with_ord { v[2].parse().unwrap() } else { 0 },
    )
}

/// Deterministic matrix entries at precision p: random mantissas, exponents in [−6, 6], both
/// signs, about one in eleven an exact zero of either sign.
fn entry(p: u32, seed: u64, i: u64) -> AnyLimbFloat {
    let mut s = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s ^ (s >> 29)
    };
    let h = next();
    if h % 11 == 0 {
        return AnyLimbFloat::zero(p, h & 64 != 0);
    }
    let digits: Vec<u64> = (0..p.div_ceil(64)).map(|_| next()).collect();
    let int = rug::Integer::from_digits(&digits, rug::integer::Order::Lsf);
    let mut f = Float::with_val(p, int);
    f >>= 64 * digits.len() as i32 + (h % 13) as i32 - 6;
    if h & 128 != 0 {
        f = -f;
    }
    AnyLimbFloat::from_rug(&f, p, Round::Nearest).0
}

fn rug_round(r: Round) -> rug::float::Round {
    match r {
        Round::Nearest => rug::float::Round::Nearest,
        Round::Zero => rug::float::Round::Zero,
        Round::Up => rug::float::Round::Up,
        Round::Down => rug::float::Round::Down,
        Round::Away => rug::float::Round::AwayZero,
    }
}

/// The GEMV order in MPFR: rounded products, then the pairwise sum.
fn gemv_mpfr(
    rnd: Round,
    p: u32,
    m: usize,
    n: usize,
    a: &[AnyLimbFloat],
    x: &[AnyLimbFloat],
) -> Vec<AnyLimbFloat> {
    let r = rug_round(rnd);
    (0..m)
        .map(|i| {
            let mut v: Vec<Float> = (0..n)
                .map(|j| {
                    // By reference: an owned left operand would round the product to its
                    // own precision, to nearest, first.
                    let (u, w) = (a[i * n + j].to_rug(), x[j].to_rug());
                    Float::with_val_round(p, &u * &w, r).0
                })
                .collect();
            let mut s = 1;
            while s < n {
                let mut k = 0;
                while k + s < n {
                    v[k] = Float::with_val_round(p, &v[k] + &v[k + s], r).0;
                    k += 2 * s;
                }
                s *= 2;
            }
            AnyLimbFloat::from_rug(&v[0], p, Round::Nearest).0
        })
        .collect()
}

#[test]
fn limb_group_mul_and_gemv_sources_match_the_cpu_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: the limb group and GEMV CUDA sources were not checked");
        return;
    };
    let dir = shim_dir("limb_blas");
    let src = format!(
        "{}{}{}",
        include_str!("cpu_shim/shim.h"),
        LIMB_EXT_PROGRAM.source(1, "double"),
        HARNESS
    );
    let exe = build(&cxx, &dir, "limb_blas", &src);
    let mut input = String::new();
    // Group multiplication blocks.
    let mut groups = Vec::new();
    for (op, p, g) in [
        (LimbOp::Mul, 3u32, 4u32),
        (LimbOp::Mul, 64, 1),
        (LimbOp::Mul, 65, 3),
        (LimbOp::Mul, 128, 4),
        (LimbOp::Mul, 200, 32),
        (LimbOp::Mul, 848, 4),
        (LimbOp::Mul, 1024, 3),
        (LimbOp::Mul, 1696, 32),
        (LimbOp::Mul, 4096, 32),
        (LimbOp::Mul, 4096, 1),
        (LimbOp::Add, 3, 2),
        (LimbOp::Add, 128, 1),
        (LimbOp::Sub, 200, 4),
        (LimbOp::Add, 848, 32),
        (LimbOp::Sub, 4096, 8),
    ] {
        let count = if p > 1024 { 40 } else { 150 };
        let cop = match op {
            LimbOp::Mul => Op::Mul,
            LimbOp::Add => Op::Add,
            _ => Op::Sub,
        };
        let sets: Vec<Vec<AnyLimbFloat>> = (0..count)
            .map(|i| operand_set(cop, p, 0x9b1, i as u64))
            .collect();
        let ops: Vec<LimbArrays> = (0..2)
            .map(|k| {
                let xs: Vec<AnyLimbFloat> = sets.iter().map(|s| s[k]).collect();
                LimbArrays::pack(&xs, p)
            })
            .collect();
        let (e, _) = group_shape(p.div_ceil(64) as usize, g);
        input += &format!("G {} {p} {count} {g} {e}\n", op as i32);
        push_arr(&mut input, &ops[0]);
        push_arr(&mut input, &ops[1]);
        groups.push((op, p, g, ops));
    }
    // GEMV blocks: (p, m, n, threads, rounding).
    let mut gemvs = Vec::new();
    for (p, m, n, t, rnd) in [
        (64u32, 4usize, 37usize, 4u32, Round::Nearest),
        (200, 3, 64, 8, Round::Down),
        (848, 5, 33, 32, Round::Nearest),
        (1696, 2, 20, 3, Round::Up),
        (4096, 1, 9, 2, Round::Nearest),
    ] {
        let mut a: Vec<AnyLimbFloat> = (0..m * n)
            .map(|i| entry(p, 7 + p as u64, i as u64))
            .collect();
        let x: Vec<AnyLimbFloat> = (0..n).map(|j| entry(p, 99, j as u64)).collect();
        // Row 1 cancels: the second half of each pair is the negated first.
        if m > 1 {
            for j in (1..n).step_by(2) {
                a[n + j] = a[n + j - 1].neg();
            }
        }
        input += &format!("M {p} {} {m} {n} {t}\n", round_code(rnd));
        push_arr(&mut input, &LimbArrays::pack(&a, p));
        push_arr(&mut input, &LimbArrays::pack(&x, p));
        gemvs.push((p, m, n, rnd, a, x));
    }
    let out = run_with_input(&exe, &input);
    let mut lines = out.lines();
    let mut checked = 0usize;
    for (op, p, g, ops) in &groups {
        for rnd in Round::ALL {
            for i in 0..ops[0].count {
                let (mut got, ord) = parse_line(lines.next().expect("a line"), *p, true);
                let xs = [ops[0].get(i).unwrap(), ops[1].get(i).unwrap()];
                let (want, wo) = limb_reference(*op, rnd, *p, &xs);
                if want.is_nan() {
                    got.kinds[0] &= 3;
                }
                assert!(
                    got == LimbArrays::pack(&[want], *p) && ord == wo as i8,
                    "group {op:?} G = {g}, {p} bits, {rnd:?}, element {i}: {}, {}: got {:?} ({ord}), want {} ({wo:?})",
                    xs[0].to_hex(),
                    xs[1].to_hex(),
                    got.get(0).map(|v| v.to_hex()),
                    want.to_hex()
                );
                checked += 1;
            }
        }
    }
    let mut gemv_checked = 0;
    for (p, m, n, rnd, a, x) in &gemvs {
        let cpu = gemv_reference(*rnd, *p, *m, *n, a, x);
        let mp = gemv_mpfr(*rnd, *p, *m, *n, a, x);
        for i in 0..*m {
            let (got, _) = parse_line(lines.next().expect("a line"), *p, false);
            let want = LimbArrays::pack(&[cpu[i]], *p);
            assert_eq!(
                want,
                LimbArrays::pack(&[mp[i]], *p),
                "CPU GEMV ≠ MPFR at {p} bits, row {i}"
            );
            assert_eq!(got, want, "CUDA GEMV ≠ CPU at {p} bits, row {i}");
            gemv_checked += 1;
        }
        // The cancelling row sums to a small number (or zero): still bit-identical above.
        assert!(cpu.iter().any(|y| !y.is_zero()));
    }
    assert!(lines.next().is_none(), "extra output");
    println!("limb group mul/add/sub on the host: {checked} results identical; GEMV: {gemv_checked} rows identical to the CPU and MPFR");
    assert!(checked > 5000);
}
