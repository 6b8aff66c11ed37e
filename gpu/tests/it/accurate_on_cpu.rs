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
