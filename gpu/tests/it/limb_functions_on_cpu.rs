//! The limb functions' and quadrature terms' CUDA sources (`cuda/limb_functions.cu`,
//! `cuda/limb_quadrature.cu`, kernels `limb_fn_<L>` and `limb_quad_<L>`), compiled for the
//! host by a C++ compiler through the shim, must return what the CPU references return
//! (`expanse_core::limb::functions` and `expanse_gpu::limb_quad::quad_node_term`), bit for
//! bit: class, sign, exponent and every limb. Functions: random and hard arguments (near
//! multiples of ln 2 and π/2, near 1, tiny, huge, the ends of the ranges, special values) at
//! 53 … 3362 bits over every capacity of the kernels; quadrature: nodes of the tanh-sinh table
//! from τ = 0 to where c = 1 − x is below 2^−p, for all five problems at 400 and 1000 digits'
//! working precisions (1369 and 3362 bits) and at 373 bits. Each block runs twice: at the
//! functions' working precision, and at working precision p (no guard bits), where any
//! difference in an intermediate rounding reaches the results. One host program covers all.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::shim::{build, compiler, run_with_input, shim_dir};
use expanse_core::limb::functions::{working_prec, LimbConsts};
use expanse_core::limb::{Kind, LimbFloat, Round};
use expanse_gpu::limb::LimbArrays;
use expanse_gpu::limb_quad::{
    fn_capacity, fn_reference, pack, quad_node_term, unpack, ConstBlock, LimbFn, QuadConsts,
    LIMB_FN_PROGRAMS,
};
use rug::float::Constant;
use rug::Float;

/// Reads blocks `what L code p wp count`, the constant block and the inputs from stdin; prints
/// `kind|sign exp limbs…` per element.
const HARNESS: &str = r#"
template <int L>
static void run_block(int what, int code, unsigned p, unsigned wp, unsigned count, std::vector<u64> &cm,
                      std::vector<int> &ce, std::vector<unsigned char> &ck, std::vector<unsigned> &cp,
                      std::vector<u64> *m, std::vector<int> *e, std::vector<unsigned char> *k) {
    int n = limb_limbs(p);
    std::vector<u64> rm((size_t)n * count);
    std::vector<int> re(count);
    std::vector<unsigned char> rk(count);
    for (unsigned i = 0; i < count; ++i) {
        if (what == 0)
            limb_fn_elem<L>(code, p, wp, count, i, cm.data(), ce.data(), ck.data(), cp.data(), m[0].data(),
                            e[0].data(), k[0].data(), rm.data(), re.data(), rk.data());
        else
            limb_quad_elem<L>(code, p, wp, count, i, cm.data(), ce.data(), ck.data(), cp.data(), m[0].data(),
                              e[0].data(), k[0].data(), m[1].data(), e[1].data(), k[1].data(), rm.data(),
                              re.data(), rk.data());
    }
    for (unsigned i = 0; i < count; ++i) {
        printf("%d %d", (int)rk[i], re[i]);
        for (int j = 0; j < n; ++j) printf(" %llu", (unsigned long long)rm[(size_t)j * count + i]);
        printf("\n");
    }
}
int main() {
    int what, L, code;
    unsigned p, wp, count;
    while (scanf("%d %d %d %u %u %u", &what, &L, &code, &p, &wp, &count) == 6) {
        int n = limb_limbs(p);
        std::vector<u64> cm(5 * L);
        std::vector<int> ce(5);
        std::vector<unsigned char> ck(5);
        std::vector<unsigned> cp(5);
        for (int i = 0; i < 5; ++i) {
            int v;
            if (scanf("%d %d %u", &v, &ce[i], &cp[i]) != 3) return 2;
            ck[i] = (unsigned char)v;
        }
        for (int j = 0; j < 5 * L; ++j) {
            unsigned long long v;
            if (scanf("%llu", &v) != 1) return 2;
            cm[j] = v;
        }
        int ar = what == 0 ? 1 : 2;
        std::vector<u64> m[2];
        std::vector<int> e[2];
        std::vector<unsigned char> k[2];
        for (int a = 0; a < ar; ++a) {
            k[a].resize(count);
            e[a].resize(count);
            m[a].resize((size_t)n * count);
            for (unsigned i = 0; i < count; ++i) {
                int v;
                if (scanf("%d %d", &v, &e[a][i]) != 2) return 2;
                k[a][i] = (unsigned char)v;
            }
            for (size_t j = 0; j < (size_t)n * count; ++j) {
                unsigned long long v;
                if (scanf("%llu", &v) != 1) return 2;
                m[a][j] = v;
            }
        }
        switch (L) {
        case 8: run_block<8>(what, code, p, wp, count, cm, ce, ck, cp, m, e, k); break;
        case 16: run_block<16>(what, code, p, wp, count, cm, ce, ck, cp, m, e, k); break;
        case 32: run_block<32>(what, code, p, wp, count, cm, ce, ck, cp, m, e, k); break;
        default: run_block<64>(what, code, p, wp, count, cm, ce, ck, cp, m, e, k); break;
        }
    }
    return 0;
}
"#;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A block of work for the host program and the expected output lines.
struct Block {
    header: String,
    block: ConstBlock,
    inputs: Vec<LimbArrays>,
    want: LimbArrays,
    what: String,
}

fn input_of(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        s += &b.header;
        s.push('\n');
        for i in 0..5 {
            s += &format!(
                "{} {} {}\n",
                b.block.kinds[i], b.block.exps[i], b.block.precs[i]
            );
        }
        for m in &b.block.limbs {
            s += &format!("{m} ");
        }
        s.push('\n');
        for a in &b.inputs {
            for i in 0..a.count {
                s += &format!("{} {} ", a.kinds[i], a.exps[i]);
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

/// Arguments of `f` at precision p: random over the range, hard cases, special values.
fn arguments<const L: usize>(f: LimbFn, p: u32, count: usize, rng: &mut Rng) -> Vec<LimbFloat<L>> {
    let hi = working_prec(p) + 64;
    let rn = Round::Nearest;
    let rand = |rng: &mut Rng, e: i32, neg: bool| {
        let n = p.div_ceil(64) as usize;
        let mut m: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        m[n - 1] |= 1 << 63;
        let sh = 64 * n as u32 - p;
        if sh > 0 {
            m[0] &= !((1u64 << sh) - 1);
        }
        LimbFloat::<L>::from_parts(Kind::Normal, neg, e, &m, p).unwrap()
    };
    let mut v = vec![
        LimbFloat::zero(p, false),
        LimbFloat::zero(p, true),
        LimbFloat::infinity(p, false),
        LimbFloat::infinity(p, true),
        LimbFloat::nan(p),
        LimbFloat::from_f64(1.0, p, rn).0,
        LimbFloat::from_f64(-1.0, p, rn).0,
    ];
    let pi = Float::with_val(hi, Constant::Pi);
    let ln2 = Float::with_val(hi, Constant::Log2);
    for i in 0..count {
        let neg = rng.next() & 1 == 1;
        let r = rng.next();
        let x = match (f, i % 4) {
            (LimbFn::Exp, 0) => rand(rng, (r % 24) as i32 - 12, neg),
            (LimbFn::Exp, 1) => {
                let k = (r % 4000) as i32 - 2000;
                LimbFloat::from_rug(&Float::with_val(hi, &ln2 * k), p, rn).0
            }
            (LimbFn::Exp, 2) => rand(rng, -((r % (u64::from(p) + 200)) as i32), neg),
            (LimbFn::Exp, _) => rand(rng, 21 + (r % 3) as i32, neg),
            (LimbFn::Ln, 0) => rand(rng, (r % 8000) as i32 - 4000, false),
            (LimbFn::Ln, 1) => {
                let e = -((r % u64::from(p)) as i32) - 1;
                let one = LimbFloat::<L>::from_f64(1.0, p, rn).0;
                one.add_round(&rand(rng, e, neg), rn).0
            }
            (LimbFn::Ln, 2) => rand(rng, (1 << 29) - (r % 1000) as i32, false),
            (LimbFn::Ln, _) => rand(rng, 3, true),
            (_, 0) => rand(rng, (r % 12) as i32 - 3, neg),
            (_, 1) => rand(rng, 9 + (r % 14) as i32, neg),
            (_, 2) => {
                let k = (r % 20000) as i32 - 10000;
                LimbFloat::from_rug(&(Float::with_val(hi, &pi * k) / 2u32), p, rn).0
            }
            (_, _) => rand(rng, -((r % (u64::from(p) + 200)) as i32), neg),
        };
        v.push(x);
    }
    v
}

/// Nodes (c, w) of the tanh-sinh table at precision p (as `expanse_apps::quadrature` builds
/// them), τ from 0 to where w is below 2^−(p+16).
fn nodes<const L: usize>(p: u32, count: usize) -> (Vec<LimbFloat<L>>, Vec<LimbFloat<L>>) {
    let rn = Round::Nearest;
    let (mut cs, mut ws) = (Vec::new(), Vec::new());
    let half_pi = Float::with_val(p, Constant::Pi) / 2u32;
    // τ_max: π/2·sinh τ ≈ (p + 16)·ln 2 / 2 (w ≈ e^{−2u}).
    let umax = f64::from(p + 16) * std::f64::consts::LN_2 / 2.0;
    let tmax = (umax / std::f64::consts::FRAC_PI_2).asinh();
    for i in 0..count {
        let tau = tmax * i as f64 / (count - 1) as f64;
        if i == 0 {
            cs.push(LimbFloat::from_f64(1.0, p, rn).0);
            ws.push(LimbFloat::from_rug(&Float::with_val(p, &half_pi / 2u32), p, rn).0);
            continue;
        }
        let tau = Float::with_val(p, tau);
        let et = tau.exp();
        let inv = Float::with_val(p, 1u32) / &et;
        let sinh = Float::with_val(p, &et - &inv) / 2u32;
        let cosh = Float::with_val(p, &et + &inv) / 2u32;
        let u = Float::with_val(p, &half_pi * &sinh);
        let eu = u.exp();
        let e2u = Float::with_val(p, eu.square_ref());
        let c = Float::with_val(p, 2u32) / (e2u + 1u32);
        let inv_eu = Float::with_val(p, 1u32) / &eu;
        let cosh_u = Float::with_val(p, &eu + &inv_eu) / 2u32;
        let w = Float::with_val(p, &half_pi * cosh) / cosh_u.square();
        cs.push(LimbFloat::from_rug(&c, p, rn).0);
        ws.push(LimbFloat::from_rug(&w, p, rn).0);
    }
    (cs, ws)
}

/// Blocks of every function at precision p; `exposed`: at working precision p (no guard bits),
/// so that any difference in an intermediate rounding shows in the results.
fn fn_blocks<const L: usize>(
    p: u32,
    count: usize,
    exposed: bool,
    rng: &mut Rng,
    out: &mut Vec<Block>,
) {
    assert_eq!(fn_capacity(p), Some(L));
    let wp = if exposed { p } else { working_prec(p) };
    let c = LimbConsts::<L>::with_working_prec(p, wp).unwrap();
    let k = QuadConsts::<L>::with_working_prec(p, wp).unwrap();
    for f in LimbFn::ALL {
        let xs = arguments::<L>(f, p, count, rng);
        let want: Vec<LimbFloat<L>> = xs.iter().map(|x| fn_reference(f, x, &c)).collect();
        out.push(Block {
            header: format!("0 {L} {} {p} {wp} {}", f as i32, xs.len()),
            block: k.block(),
            inputs: vec![pack(&xs, p)],
            want: pack(&want, p),
            what: format!("{} at {p} bits (working precision {wp})", f.name()),
        });
    }
}

fn quad_blocks<const L: usize>(p: u32, count: usize, exposed: bool, out: &mut Vec<Block>) {
    assert_eq!(fn_capacity(p), Some(L));
    let wp = if exposed { p } else { working_prec(p) };
    let k = QuadConsts::<L>::with_working_prec(p, wp).unwrap();
    let (cs, ws) = nodes::<L>(p, count);
    for problem in 1..=5u32 {
        let want: Vec<LimbFloat<L>> = cs
            .iter()
            .zip(&ws)
            .map(|(c, w)| quad_node_term(problem, c, w, &k))
            .collect();
        // The terms are finite and the integrands were evaluated (not all zero).
        assert!(want.iter().all(|t| t.is_finite()), "problem {problem}");
        assert!(want.iter().any(|t| !t.is_zero()), "problem {problem}");
        out.push(Block {
            header: format!("1 {L} {problem} {p} {wp} {}", cs.len()),
            block: k.block(),
            inputs: vec![pack(&cs, p), pack(&ws, p)],
            want: pack(&want, p),
            what: format!("quadrature problem {problem} at {p} bits"),
        });
    }
}

#[test]
fn limb_functions_cuda_source_matches_the_cpu_reference_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: the limb functions' CUDA source was not checked");
        return;
    };
    let dir = shim_dir("limb_fn");
    let src = format!(
        "{}{}{}",
        include_str!("cpu_shim/shim.h"),
        // The templates are instantiated by the harness for every capacity.
        LIMB_FN_PROGRAMS[0].source(1, "double"),
        HARNESS
    );
    let exe = build(&cxx, &dir, "limb_fn", &src);
    let mut rng = Rng(0x0001_1bf7);
    let mut blocks = Vec::new();
    for exposed in [false, true] {
        fn_blocks::<8>(53, 48, exposed, &mut rng, &mut blocks);
        fn_blocks::<8>(373, 48, exposed, &mut rng, &mut blocks);
        fn_blocks::<16>(700, 24, exposed, &mut rng, &mut blocks);
        fn_blocks::<32>(1369, 12, exposed, &mut rng, &mut blocks);
        fn_blocks::<64>(3362, 8, exposed, &mut rng, &mut blocks);
        quad_blocks::<8>(373, 12, exposed, &mut blocks);
        quad_blocks::<32>(1369, 8, exposed, &mut blocks);
        quad_blocks::<64>(3362, 6, exposed, &mut blocks);
    }
    let out = run_with_input(&exe, &input_of(&blocks));
    let mut lines = out.lines();
    let mut checked = 0usize;
    for b in &blocks {
        let n = b.want.prec.div_ceil(64) as usize;
        for i in 0..b.want.count {
            let line = lines.next().expect("a line per element");
            let v: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(v.len(), 2 + n, "{line}");
            let mut got = LimbArrays {
                prec: b.want.prec,
                count: 1,
                limbs: v[2..].iter().map(|x| x.parse().unwrap()).collect(),
                exps: vec![v[1].parse().unwrap()],
                kinds: vec![v[0].parse().unwrap()],
            };
            let mut want = LimbArrays {
                prec: b.want.prec,
                count: 1,
                limbs: (0..n).map(|j| b.want.limbs[j * b.want.count + i]).collect(),
                exps: vec![b.want.exps[i]],
                kinds: vec![b.want.kinds[i]],
            };
            // NaN: the class is what counts.
            if want.kinds[0] & 3 == 3 {
                want.kinds[0] &= 3;
                got.kinds[0] &= 3;
            }
            assert!(
                got == want,
                "{} element {i}: input {:?}: CUDA source gives {:?}, reference {:?}",
                b.what,
                unpack::<64>(&b.inputs[0], i).map(|x| x.to_hex()),
                unpack::<64>(&got, 0).map(|x| x.to_hex()),
                unpack::<64>(&want, 0).map(|x| x.to_hex()),
            );
            checked += 1;
        }
    }
    assert!(lines.next().is_none(), "extra output");
    println!(
        "limb functions and quadrature terms, CUDA source on the host: {checked} results identical"
    );
    assert!(checked > 500);
}
