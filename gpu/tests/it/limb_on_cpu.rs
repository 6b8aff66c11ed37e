//! The limb floats' CUDA source (`cuda/limb.cu`, kernels `limb_op_<L>`), compiled for the host
//! by a C++ compiler through the shim (one "thread" at a time), must return what expanse-core's
//! `limb` module returns (and so what MPFR returns), bit for bit: class, sign, exponent, every
//! limb and the ternary value, for every operation and rounding mode, at precisions from 3 to
//! 4096 bits over every capacity, on the operand sets of the core's MPFR check (cancellation,
//! carries across every limb, exact ties and exact results, overflow and underflow, signed
//! zeros, infinities, NaN). One host program covers every capacity.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::shim::{build, compiler, run_with_input, shim_dir};
use expanse_core::limb::check::{operand_set, Op};
use expanse_core::limb::{capacity_for, AnyLimbFloat, Round};
use expanse_gpu::limb::{limb_reference, LimbArrays, LimbOp, LIMB_PROGRAM};
use std::cmp::Ordering;

/// Reads blocks `L op p count` + operands from stdin; for each rounding mode and element
/// prints `kind|sign exp ord limbs…`.
const HARNESS: &str = r#"
#include <cinttypes>
template <int L>
static void run_block(int op, unsigned p, unsigned count, std::vector<u64> *m, std::vector<int> *e,
                      std::vector<unsigned char> *k) {
    int n = limb_limbs(p);
    std::vector<u64> rm((size_t)n * count);
    std::vector<int> re(count);
    std::vector<unsigned char> rk(count);
    std::vector<signed char> ro(count);
    for (int rnd = 0; rnd < 5; ++rnd) {
        for (unsigned i = 0; i < count; ++i)
            limb_op_elem<L>(op, rnd, p, count, i, m[0].data(), e[0].data(), k[0].data(), m[1].data(),
                            e[1].data(), k[1].data(), m[2].data(), e[2].data(), k[2].data(), rm.data(),
                            re.data(), rk.data(), ro.data());
        for (unsigned i = 0; i < count; ++i) {
            printf("%d %d %d", (int)rk[i], re[i], (int)ro[i]);
            for (int j = 0; j < n; ++j) printf(" %llu", (unsigned long long)rm[(size_t)j * count + i]);
            printf("\n");
        }
    }
}
int main() {
    int L, op;
    unsigned p, count;
    while (scanf("%d %d %u %u", &L, &op, &p, &count) == 4) {
        int n = limb_limbs(p);
        int ar = op == 5 ? 1 : (op == 3 ? 3 : 2);
        std::vector<u64> m[3];
        std::vector<int> e[3];
        std::vector<unsigned char> k[3];
        for (int a = 0; a < ar; ++a) {
            k[a].resize(count);
            e[a].resize(count);
            m[a].resize((size_t)n * count);
            for (unsigned i = 0; i < count; ++i) {
                int v;
                if (scanf("%d", &v) != 1) return 2;
                k[a][i] = (unsigned char)v;
            }
            for (unsigned i = 0; i < count; ++i)
                if (scanf("%d", &e[a][i]) != 1) return 2;
            for (size_t j = 0; j < (size_t)n * count; ++j) {
                unsigned long long v;
                if (scanf("%llu", &v) != 1) return 2;
                m[a][j] = v;
            }
        }
        for (int a = ar; a < 3; ++a) {
            m[a] = m[0];
            e[a] = e[0];
            k[a] = k[0];
        }
        switch (L) {
        case 2: run_block<2>(op, p, count, m, e, k); break;
        case 4: run_block<4>(op, p, count, m, e, k); break;
        case 8: run_block<8>(op, p, count, m, e, k); break;
        case 16: run_block<16>(op, p, count, m, e, k); break;
        case 32: run_block<32>(op, p, count, m, e, k); break;
        default: run_block<64>(op, p, count, m, e, k); break;
        }
    }
    return 0;
}
"#;

fn check_op(op: LimbOp) -> Op {
    match op {
        LimbOp::Add => Op::Add,
        LimbOp::Sub => Op::Sub,
        LimbOp::Mul => Op::Mul,
        LimbOp::Fma => Op::Fma,
        LimbOp::Div => Op::Div,
        LimbOp::Sqrt => Op::Sqrt,
    }
}

struct Block {
    op: LimbOp,
    prec: u32,
    operands: Vec<LimbArrays>,
}

fn input_of(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        let l = capacity_for(b.prec).unwrap();
        let count = b.operands[0].count;
        s += &format!("{l} {} {} {count}\n", b.op as i32, b.prec);
        for a in &b.operands {
            for k in &a.kinds {
                s += &format!("{k} ");
            }
            s.push('\n');
            for e in &a.exps {
                s += &format!("{e} ");
            }
            s.push('\n');
            for m in &a.limbs {
                s += &format!("{m} ");
            }
            s.push('\n');
        }
    }
    s
}

#[test]
fn limb_cuda_source_matches_the_cpu_reference_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: the limb CUDA source was not checked");
        return;
    };
    let dir = shim_dir("limb");
    let src = format!(
        "{}{}{}",
        include_str!("cpu_shim/shim.h"),
        LIMB_PROGRAM.source(1, "double"),
        HARNESS
    );
    let exe = build(&cxx, &dir, "limb", &src);
    let mut blocks = Vec::new();
    for p in [
        3u32, 53, 64, 65, 113, 128, 200, 256, 512, 848, 1024, 2048, 4096,
    ] {
        let count = match p {
            0..=1024 => 240,
            _ => 60,
        };
        for op in LimbOp::ALL {
            let sets: Vec<Vec<AnyLimbFloat>> = (0..count)
                .map(|i| operand_set(check_op(op), p, 0x6b1, i as u64))
                .collect();
            let operands = (0..op.arity())
                .map(|k| {
                    let xs: Vec<AnyLimbFloat> = sets.iter().map(|s| s[k]).collect();
                    LimbArrays::pack(&xs, p)
                })
                .collect();
            blocks.push(Block {
                op,
                prec: p,
                operands,
            });
        }
    }
    let out = run_with_input(&exe, &input_of(&blocks));
    let mut lines = out.lines();
    let mut checked = 0usize;
    for b in &blocks {
        let count = b.operands[0].count;
        let n = b.prec.div_ceil(64) as usize;
        for rnd in Round::ALL {
            for i in 0..count {
                let line = lines.next().expect("a line per mode and element");
                let v: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(v.len(), 3 + n, "{line}");
                let mut got = LimbArrays {
                    prec: b.prec,
                    count: 1,
                    limbs: v[3..].iter().map(|x| x.parse().unwrap()).collect(),
                    exps: vec![v[1].parse().unwrap()],
                    kinds: vec![v[0].parse().unwrap()],
                };
                let ord: i8 = v[2].parse().unwrap();
                let ops: Vec<AnyLimbFloat> = b.operands.iter().map(|a| a.get(i).unwrap()).collect();
                let (want, wo) = limb_reference(b.op, rnd, b.prec, &ops);
                let want_packed = LimbArrays::pack(&[want], b.prec);
                // NaN: the class is what counts (its sign is unspecified, as in MPFR).
                if want.is_nan() {
                    got.kinds[0] &= 3;
                }
                let same = got == want_packed && ord == wo as i8;
                assert!(
                    same,
                    "{:?} {rnd:?} at {} bits, element {i}: operands {:?}: CUDA source gives {:?} \
                     (ternary {ord}), core {} ({wo:?})",
                    b.op,
                    b.prec,
                    ops.iter().map(|x| x.to_hex()).collect::<Vec<_>>(),
                    got.get(0).map(|g| g.to_hex()),
                    want.to_hex(),
                );
                let _ = Ordering::Equal;
                checked += 1;
            }
        }
    }
    assert!(lines.next().is_none(), "extra output");
    println!("limb CUDA source on the host: {checked} results identical to expanse-core");
    assert!(checked > 50_000);
}
