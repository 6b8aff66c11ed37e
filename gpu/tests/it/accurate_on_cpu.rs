//! The accurate tier's CUDA source (`cuda/accurate.cu`, through the test kernel `acc_test` of
//! [`expanse_gpu::ACCURATE_PROGRAM`]), compiled for the host by a C++ compiler through the shim
//! (one "thread" at a time, `-ffp-contract=off` as NVRTC's `--fmad=false`), must return the
//! terms that expanse-core's accurate methods return, bit for bit (NaN payloads aside), and
//! the same exact comparison, for every operation, every N for f64 and N = 1, 2, 3, 4, 8 for
//! f32, on random operands and edge cases: exact cancellation, terms of exactly ±ulp or ½ulp
//! of the previous one (ties in the renormalisation), large gaps, ±0, ±∞, NaN, huge and tiny
//! (subnormal) magnitudes, and operands on which the fast paths' run-time certificate fails so
//! that the exact `ExactSum` fallbacks run (their number is counted and required to be
//! positive). One host program covers the whole matrix (one namespace per instance).
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::shim::{build, compiler, multi_instance_source, run_with_input, shim_dir};
use expanse_core::{accurate, Expansion, FloatTerm};
use expanse_gpu::fn_check::accurate_operands;
use expanse_gpu::functions::{acc_reference, same_expansion};
use expanse_gpu::{AccOp, ACCURATE_PROGRAM};

/// Input text of one instance: header, then a's and b's terms interleaved.
fn input_of<T: FloatTerm, const N: usize>(cuda: &str, ops: &[[Expansion<T, N>; 2]]) -> String {
    let n = ops.len();
    let mut s = format!("{cuda} {N} {n}\n");
    for side in 0..2 {
        for k in 0..N {
            for p in ops {
                s += &p[side].terms()[k].to_bits_u64().to_string();
                s.push(' ');
            }
        }
        s.push('\n');
    }
    s
}

/// Compares the host build's output lines (one per element and operation) with the Rust
/// methods; returns (comparisons, fallbacks exercised).
fn compare<T: FloatTerm, const N: usize>(
    lines: &mut std::str::Lines,
    ops: &[[Expansion<T, N>; 2]],
) -> (usize, [usize; 5]) {
    let mut checked = 0;
    for op in AccOp::ALL {
        for (i, [a, b]) in ops.iter().enumerate() {
            let line = lines.next().expect("a line per element and operation");
            let v: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(v.len(), N + 1, "{line}");
            let (want, want_cmp) = acc_reference(op, a, b);
            let got: Vec<T> = v[..N]
                .iter()
                .map(|b| T::from_bits_u64(b.parse().unwrap()))
                .collect();
            let same = same_expansion(want.terms(), &got);
            assert!(
                same,
                "{} N={N} {op:?} element {i}: a = {}, b = {}: CUDA source gives {}, core {}",
                T::NAME,
                hex(a.terms()),
                hex(b.terms()),
                hex(&got),
                hex(want.terms())
            );
            assert_eq!(
                v[N].parse::<i32>().unwrap(),
                want_cmp,
                "{} N={N} acc_cmp element {i}: a = {:?}, b = {:?}",
                T::NAME,
                a.terms(),
                b.terms()
            );
            checked += 1;
        }
    }
    // How many operations take an exact fallback (certificate failure on an operation that
    // reaches its fast path), per operation: add, mul, mul_term, div, sqrt.
    let names = ["add", "mul", "mul_term", "div", "sqrt"];
    let mut fallbacks = [0usize; 5];
    for [a, b] in ops {
        if !(a.is_finite() && b.is_finite()) {
            continue;
        }
        let (a0, b0) = (a.hi(), b.hi());
        for (k, name) in names.iter().enumerate() {
            let reaches = match *name {
                "add" => N >= 3 && (a0 + b0).is_finite(),
                "mul" => N >= 3 && (a0 * b0).is_finite(),
                "mul_term" => N >= 3 && (a0 * b0).is_finite(),
                "div" => N >= 2 && (a0 / b0).is_finite() && a0 != T::ZERO,
                _ => N >= 2 && a0 > T::ZERO,
            };
            if reaches && accurate::fast_path_only(name, a, b).is_none() {
                fallbacks[k] += 1;
            }
        }
    }
    (checked, fallbacks)
}

/// Terms as bit patterns (exact, for failure messages).
pub fn hex<T: FloatTerm>(t: &[T]) -> String {
    let v: Vec<String> = t
        .iter()
        .map(|x| format!("{:#x} ({x:e})", x.to_bits_u64()))
        .collect();
    format!("[{}]", v.join(", "))
}

const PER_INSTANCE: &str = r#"
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
static void run(unsigned long long n) {
    std::vector<T> x(NT * n), y(NT * n), out(NT * n);
    std::vector<int> c(n);
    for (auto &v : x) v = rd_t();
    for (auto &v : y) v = rd_t();
    blockDim.x = 128;
    for (int op = 0; op < ACC_TEST_OPS; ++op) {
        for (unsigned long long t = 0; t < n; ++t) {
            blockIdx.x = (unsigned)(t / 128);
            threadIdx.x = (unsigned)(t % 128);
            acc_test(op, x.data(), y.data(), out.data(), c.data(), n);
        }
        for (unsigned long long i = 0; i < n; ++i) {
            for (int k = 0; k < NT; ++k) std::printf("%llu ", bits_t(out[k * n + i]));
            std::printf("%d\n", c[i]);
        }
    }
}
"#;

macro_rules! instances {
    ($($t:ty, $cuda:literal, $n:literal;)*) => {
        const INSTANCES: &[(&str, usize)] = &[$(($cuda, $n)),*];
        fn inputs(seed: u64, count: usize) -> (String, Vec<Box<dyn std::any::Any>>) {
            let mut text = String::new();
            let mut kept: Vec<Box<dyn std::any::Any>> = Vec::new();
            $(
                let ops = accurate_operands::<$t, $n>(count, seed + $n);
                text += &input_of::<$t, $n>($cuda, &ops);
                kept.push(Box::new(ops));
            )*
            (text, kept)
        }
        fn check_all(out: &str, kept: &[Box<dyn std::any::Any>]) {
            let mut lines = out.lines();
            let mut i = 0;
            let mut total = [0usize; 5];
            $(
                let ops = kept[i].downcast_ref::<Vec<[Expansion<$t, $n>; 2]>>().unwrap();
                let (checked, fallbacks) = compare::<$t, $n>(&mut lines, ops);
                eprintln!(
                    "accurate.cu {} N={}: {} results identical; exact fallbacks run by add, mul, mul_term, div, sqrt: {:?}",
                    stringify!($t), $n, checked, fallbacks
                );
                for k in 0..5 {
                    total[k] += fallbacks[k];
                }
                i += 1;
            )*
            let _ = i;
            assert!(lines.next().is_none(), "extra output");
            // The fallbacks themselves are compared directly (AccOp::Ref*) on every operand
            // pair; the choice to fall back must also have run (certificates fail on some
            // operands for add, mul and div; never observed for mul_term and sqrt).
            assert!(
                total[0] > 0 && total[1] > 0 && total[3] > 0,
                "no certificate failure in add, mul or div: {total:?}"
            );
        }
    };
}

instances! {
    f64, "double", 1;
    f64, "double", 2;
    f64, "double", 3;
    f64, "double", 4;
    f64, "double", 5;
    f64, "double", 6;
    f64, "double", 7;
    f64, "double", 8;
    f32, "float", 1;
    f32, "float", 2;
    f32, "float", 3;
    f32, "float", 4;
    f32, "float", 8;
}

#[test]
fn accurate_source_matches_core_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler (c++ or $CXX): accurate-tier source check skipped");
        return;
    };
    let dir = shim_dir("accurate");
    let mut main = String::from("int main() {\n    std::string ty; int nt; unsigned long long n;\n    while (std::cin >> ty >> nt >> n) {\n");
    for (ty, n) in INSTANCES {
        main += &format!("        if (ty == \"{ty}\" && nt == {n}) inst_{ty}_{n}::run(n);\n");
    }
    main += "    }\n    return 0;\n}\n";
    let src = multi_instance_source(&ACCURATE_PROGRAM, INSTANCES, PER_INSTANCE, &main);
    let exe = build(&cxx, &dir, "accurate", &src);
    let (input, kept) = inputs(0xACC0_2026, 1200);
    let out = run_with_input(&exe, &input);
    check_all(&out, &kept);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the register-resident fast paths (acc_*_reg, used by the array and BLAS programs) ---------

/// The test kernel of the register-resident variants: op 0 add, 1 sub, 2 add_term (b₀), 3 mul,
/// 4 sqr, 5 mul_term (b₀), all `_reg`; cmp[i] = acc_cmp_reg(a, b); fb[i] = how the operation
/// ended (the hook `ACC_REG_NOTE`): 1, 2, 3 the certified pass, 4 the exact reference, 0 neither
/// (N < 3, or a non-finite leading result).
const REG_KERNEL: &str = r#"
#define REG_TEST_OPS 6
extern "C" __global__ void reg_test(int op, const T *x, const T *y, T *out, int *cmp, int *fb, u64 n) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E a, b;
    for (int k = 0; k < NT; ++k) {
        a.t[k] = x[(u64)k * n + i];
        b.t[k] = y[(u64)k * n + i];
    }
    acc_reg_note = 0;
    E r;
    switch (op) {
    case 0: r = acc_add_reg(a, b); break;
    case 1: r = acc_sub_reg(a, b); break;
    case 2: r = acc_add_term_reg(a, b.t[0]); break;
    case 3: r = acc_mul_reg(a, b); break;
    case 4: r = acc_sqr_reg(a); break;
    default: r = acc_mul_term_reg(a, b.t[0]); break;
    }
    fb[i] = acc_reg_note;
    for (int k = 0; k < NT; ++k) out[(u64)k * n + i] = r.t[k];
    cmp[i] = acc_cmp_reg(a, b);
}
"#;

/// Records how the register-resident paths end (host build only).
const REG_HOOK: &str =
    "static int acc_reg_note = 0;\n#define ACC_REG_NOTE(k) (acc_reg_note = (k))\n";

const REG_PROGRAM: expanse_gpu::CudaProgram = expanse_gpu::CudaProgram {
    name: "accurate_reg_test",
    parts: &[REG_HOOK, expanse_gpu::ACCURATE_CU, REG_KERNEL],
};

const REG_OPS: [AccOp; 6] = [
    AccOp::Add,
    AccOp::Sub,
    AccOp::AddTerm,
    AccOp::Mul,
    AccOp::Sqr,
    AccOp::MulTerm,
];

const REG_PER_INSTANCE: &str = r#"
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
static void run(unsigned long long n) {
    std::vector<T> x(NT * n), y(NT * n), out(NT * n);
    std::vector<int> c(n), fb(n);
    for (auto &v : x) v = rd_t();
    for (auto &v : y) v = rd_t();
    blockDim.x = 128;
    for (int op = 0; op < REG_TEST_OPS; ++op) {
        for (unsigned long long t = 0; t < n; ++t) {
            blockIdx.x = (unsigned)(t / 128);
            threadIdx.x = (unsigned)(t % 128);
            reg_test(op, x.data(), y.data(), out.data(), c.data(), fb.data(), n);
        }
        for (unsigned long long i = 0; i < n; ++i) {
            for (int k = 0; k < NT; ++k) std::printf("%llu ", bits_t(out[k * n + i]));
            std::printf("%d %d\n", c[i], fb[i]);
        }
    }
}
"#;

/// A small deterministic generator (SplitMix64) for the extra operands.
fn mix(z: &mut u64) -> u64 {
    *z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut x = *z;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Operands beyond [`accurate_operands`] that steer the unrolled VecSumErrBranch through its
/// other branches: integers (every 2Sum error zero, so `eps` just accumulates), integers with
/// a far-away second term (some errors zero, some not), exact and near cancellation of such,
/// and subnormal expansions (2Sum exact there, results near the underflow threshold).
fn extra_operands<T: FloatTerm, const N: usize>(seed: u64) -> Vec<[Expansion<T, N>; 2]> {
    let mut z = seed;
    let p = T::PRECISION as i32;
    let small_int = |z: &mut u64| T::from_f64((mix(z) % 2001) as f64 - 1000.0);
    let mut out = Vec::new();
    for c in 0..240 {
        let terms = |z: &mut u64, kind: u64| -> Expansion<T, N> {
            let mut t = [T::ZERO; N];
            match kind {
                0 => t[0] = small_int(z),
                1 => {
                    t[0] = small_int(z).ldexp(p + (mix(z) % 20) as i32);
                    t[1] = small_int(z);
                }
                _ => {
                    let e = T::MIN_POSITIVE;
                    for (k, v) in t.iter_mut().enumerate() {
                        *v = (e * small_int(z))
                            .ldexp(-(k as i32) * 3 - (mix(z) % (p as u64)) as i32);
                    }
                }
            }
            Expansion::from_terms(t)
        };
        let kind = (c % 3) as u64;
        let a = terms(&mut z, kind);
        let b = match mix(&mut z) % 4 {
            0 => a.neg(),
            1 => a.neg().add_term(small_int(&mut z)),
            _ => terms(&mut z, kind),
        };
        out.push([a, b]);
    }
    out
}

/// Compares the register-resident variants' lines with the Rust methods; returns (results
/// compared, per op how many ended in pass 1, 2, 3 and the exact reference).
fn compare_reg<T: FloatTerm, const N: usize>(
    lines: &mut std::str::Lines,
    ops: &[[Expansion<T, N>; 2]],
) -> (usize, [[usize; 4]; 6]) {
    let mut checked = 0;
    let mut ends = [[0usize; 4]; 6];
    for (o, &op) in REG_OPS.iter().enumerate() {
        for (i, [a, b]) in ops.iter().enumerate() {
            let line = lines.next().expect("a line per element and operation");
            let v: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(v.len(), N + 2, "{line}");
            let (want, want_cmp) = acc_reference(op, a, b);
            let got: Vec<T> = v[..N]
                .iter()
                .map(|b| T::from_bits_u64(b.parse().unwrap()))
                .collect();
            assert!(
                same_expansion(want.terms(), &got),
                "{} N={N} {op:?}_reg element {i}: a = {}, b = {}: CUDA source gives {}, core {}",
                T::NAME,
                hex(a.terms()),
                hex(b.terms()),
                hex(&got),
                hex(want.terms())
            );
            assert_eq!(
                v[N].parse::<i32>().unwrap(),
                want_cmp,
                "{} N={N} acc_cmp_reg element {i}: a = {}, b = {}",
                T::NAME,
                hex(a.terms()),
                hex(b.terms())
            );
            let end: usize = v[N + 1].parse().unwrap();
            if end > 0 {
                ends[o][end - 1] += 1;
            }
            checked += 1;
        }
    }
    (checked, ends)
}

macro_rules! reg_instances {
    ($($t:ty, $cuda:literal, $n:literal;)*) => {
        const REG_INSTANCES: &[(&str, usize)] = &[$(($cuda, $n)),*];
        fn reg_inputs(seed: u64, count: usize) -> (String, Vec<Box<dyn std::any::Any>>) {
            let mut text = String::new();
            let mut kept: Vec<Box<dyn std::any::Any>> = Vec::new();
            $(
                let mut ops = accurate_operands::<$t, $n>(count, seed + $n);
                ops.extend(extra_operands::<$t, $n>(seed ^ $n));
                text += &input_of::<$t, $n>($cuda, &ops);
                kept.push(Box::new(ops));
            )*
            (text, kept)
        }
        fn reg_check_all(out: &str, kept: &[Box<dyn std::any::Any>]) {
            let mut lines = out.lines();
            let mut i = 0;
            let mut total = [[0usize; 4]; 6];
            $(
                let ops = kept[i].downcast_ref::<Vec<[Expansion<$t, $n>; 2]>>().unwrap();
                let (checked, ends) = compare_reg::<$t, $n>(&mut lines, ops);
                eprintln!(
                    "accurate.cu _reg {} N={}: {} results identical (of {} operand pairs); ended in pass 1, 2, 3, exact reference, by add, sub, add_term, mul, sqr, mul_term: {:?}",
                    stringify!($t), $n, checked, ops.len(), ends
                );
                for k in 0..6 {
                    for e in 0..4 {
                        total[k][e] += ends[k][e];
                    }
                }
                i += 1;
            )*
            let _ = i;
            assert!(lines.next().is_none(), "extra output");
            // Every exit of the register-resident code must have run for add and mul: the first
            // pass, a later pass, the exact reference.
            for k in [0, 3] {
                assert!(
                    total[k][0] > 0 && total[k][1] + total[k][2] > 0 && total[k][3] > 0,
                    "{:?}: not every exit of the register-resident code ran: {total:?}",
                    REG_OPS[k]
                );
            }
        }
    };
}

reg_instances! {
    f64, "double", 3;
    f64, "double", 4;
    f64, "double", 8;
    f32, "float", 4;
    f32, "float", 8;
}

#[test]
fn register_resident_paths_match_core_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler (c++ or $CXX): register-resident path check skipped");
        return;
    };
    let dir = shim_dir("accurate_reg");
    let mut main = String::from("int main() {\n    std::string ty; int nt; unsigned long long n;\n    while (std::cin >> ty >> nt >> n) {\n");
    for (ty, n) in REG_INSTANCES {
        main += &format!("        if (ty == \"{ty}\" && nt == {n}) inst_{ty}_{n}::run(n);\n");
    }
    main += "    }\n    return 0;\n}\n";
    let src = multi_instance_source(&REG_PROGRAM, REG_INSTANCES, REG_PER_INSTANCE, &main);
    let exe = build(&cxx, &dir, "accurate_reg", &src);
    let (input, kept) = reg_inputs(0x5E6_2026, 1500);
    let out = run_with_input(&exe, &input);
    reg_check_all(&out, &kept);
    let _ = std::fs::remove_dir_all(&dir);
}
