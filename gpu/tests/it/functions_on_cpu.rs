//! The elementary functions' CUDA source (`cuda/functions.cu` over `cuda/accurate.cu`, with the
//! part generated from expanse-core's tables: [`expanse_gpu::functions_program`]), compiled for
//! the host by a C++ compiler through the shim (one "thread" at a time, `-ffp-contract=off` as
//! NVRTC's `--fmad=false`), must return what expanse-core returns, bit for bit (NaN payloads
//! and the sign of a zero lower term aside, see `same_expansion`): every unary function, pow,
//! atan2, hypot and powi, for f64 with N = 1..8 and f32 with N = 1, 2, 3, 4, 8, on random
//! arguments spread over each function's domain and on edge arguments (±0, ±∞, NaN, domain
//! errors, overflow and underflow thresholds, huge arguments such as 1e22 and 1e300 for the
//! trigonometric functions, multiples of π/2 and poles to the working precision, tiny and
//! subnormal arguments). One host program per term type covers every N (one namespace per
//! instance); the two are built in parallel.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::accurate_on_cpu::hex;
use crate::shim::{build, compiler, multi_instance_source, run_with_input, shim_dir};
use expanse_core::functions::{eval_binary, eval_unary, Binary, Unary};
use expanse_core::{Expansion, FloatTerm};
use expanse_gpu::fn_check::{binary_arguments, powi_arguments, unary_arguments, POWI_EXPONENTS};
use expanse_gpu::functions::same_expansion;
use expanse_gpu::{binary_id, functions_program, unary_id};

/// One batch of evaluations: a function and its arguments.
#[derive(Clone)]
enum Job<T: FloatTerm, const N: usize> {
    Unary(Unary, Vec<Expansion<T, N>>),
    Binary(Binary, Vec<[Expansion<T, N>; 2]>),
    Powi(i32, Vec<Expansion<T, N>>),
}

fn jobs<T: FloatTerm, const N: usize>(seed: u64, random: usize) -> Vec<Job<T, N>> {
    let mut out = Vec::new();
    for (i, f) in Unary::ALL.into_iter().enumerate() {
        out.push(Job::Unary(
            f,
            unary_arguments::<T, N>(f, random, seed + i as u64),
        ));
    }
    for (i, f) in Binary::ALL.into_iter().enumerate() {
        out.push(Job::Binary(
            f,
            binary_arguments::<T, N>(f, random, seed + 100 + i as u64),
        ));
    }
    let px = powi_arguments::<T, N>(random / 4, seed + 200);
    for n in POWI_EXPONENTS {
        out.push(Job::Powi(n, px.clone()));
    }
    out
}

fn terms_line<T: FloatTerm, const N: usize>(v: &[Expansion<T, N>]) -> String {
    let mut s = String::new();
    for k in 0..N {
        for x in v {
            s += &x.terms()[k].to_bits_u64().to_string();
            s.push(' ');
        }
    }
    s.push('\n');
    s
}

fn input_of<T: FloatTerm, const N: usize>(cuda: &str, jobs: &[Job<T, N>]) -> String {
    let mut s = String::new();
    for j in jobs {
        match j {
            Job::Unary(f, xs) => {
                s += &format!("{cuda} {N} 0 {} 0 {}\n", unary_id(*f), xs.len());
                s += &terms_line(xs);
            }
            Job::Binary(f, ps) => {
                let a: Vec<Expansion<T, N>> = ps.iter().map(|p| p[0]).collect();
                let b: Vec<Expansion<T, N>> = ps.iter().map(|p| p[1]).collect();
                s += &format!("{cuda} {N} 1 {} 0 {}\n", binary_id(*f), ps.len());
                s += &terms_line(&a);
                s += &terms_line(&b);
            }
            Job::Powi(n, xs) => {
                s += &format!("{cuda} {N} 2 0 {n} {}\n", xs.len());
                s += &terms_line(xs);
            }
        }
    }
    s
}

/// Compares one instance's output with core; returns the number of results compared.
fn compare<T: FloatTerm, const N: usize>(lines: &mut std::str::Lines, jobs: &[Job<T, N>]) -> usize {
    let mut count = 0;
    let mut check = |what: &str, args: String, want: &Expansion<T, N>, line: Option<&str>| {
        let line = line.expect("a line per result");
        let got: Vec<T> = line
            .split_whitespace()
            .map(|b| T::from_bits_u64(b.parse().unwrap()))
            .collect();
        assert_eq!(got.len(), N, "{line}");
        assert!(
            same_expansion(want.terms(), &got),
            "{} N={N} {what}({args}): CUDA source gives {}, core {}",
            T::NAME,
            hex(&got),
            hex(want.terms())
        );
        count += 1;
    };
    for j in jobs {
        match j {
            Job::Unary(f, xs) => {
                for x in xs {
                    let want = eval_unary(*f, x);
                    check(f.name(), hex(x.terms()), &want, lines.next());
                }
            }
            Job::Binary(f, ps) => {
                for [a, b] in ps {
                    let want = eval_binary(*f, a, b);
                    check(
                        f.name(),
                        format!("{}, {}", hex(a.terms()), hex(b.terms())),
                        &want,
                        lines.next(),
                    );
                }
            }
            Job::Powi(n, xs) => {
                for x in xs {
                    let want = x.powi(*n);
                    check(&format!("powi[{n}]"), hex(x.terms()), &want, lines.next());
                }
            }
        }
    }
    count
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
static void run(int kind, int id, int param, unsigned long long n) {
    std::vector<T> x(NT * n), z(NT * n), out(NT * n);
    for (auto &v : x) v = rd_t();
    if (kind == 1) for (auto &v : z) v = rd_t();
    blockDim.x = 128;
    for (unsigned long long t = 0; t < n; ++t) {
        blockIdx.x = (unsigned)(t / 128);
        threadIdx.x = (unsigned)(t % 128);
        if (kind == 0) fn_unary(id, x.data(), out.data(), n);
        else if (kind == 1) fn_binary(id, x.data(), z.data(), out.data(), n);
        else fn_powi(x.data(), param, out.data(), n);
    }
    for (unsigned long long i = 0; i < n; ++i) {
        for (int k = 0; k < NT; ++k) std::printf("%llu ", bits_t(out[k * n + i]));
        std::printf("\n");
    }
}
"#;

fn main_of(instances: &[(&str, usize)]) -> String {
    let mut m = String::from(
        "int main() {\n    std::string ty; int nt, kind, id, param; unsigned long long n;\n    while (std::cin >> ty >> nt >> kind >> id >> param >> n) {\n",
    );
    for (ty, n) in instances {
        m += &format!(
            "        if (ty == \"{ty}\" && nt == {n}) inst_{ty}_{n}::run(kind, id, param, n);\n"
        );
    }
    m + "    }\n    return 0;\n}\n"
}

/// One (T, N) instance's jobs, behind a trait so that one list holds every N.
trait Instance: Send {
    fn input(&self) -> String;
    fn compare(&self, lines: &mut std::str::Lines) -> usize;
    fn label(&self) -> String;
}

struct Inst<T: FloatTerm, const N: usize> {
    cuda: &'static str,
    jobs: Vec<Job<T, N>>,
}

impl<T: FloatTerm, const N: usize> Instance for Inst<T, N> {
    fn input(&self) -> String {
        input_of::<T, N>(self.cuda, &self.jobs)
    }
    fn compare(&self, lines: &mut std::str::Lines) -> usize {
        compare::<T, N>(lines, &self.jobs)
    }
    fn label(&self) -> String {
        format!("{} N={N}", T::NAME)
    }
}

fn inst<T: FloatTerm, const N: usize>(cuda: &'static str, random: usize) -> Box<dyn Instance> {
    Box::new(Inst::<T, N> {
        cuda,
        jobs: jobs::<T, N>(0xF00D_0000 + 16 * N as u64 + T::PRECISION as u64, random),
    })
}

/// Builds the host program of `program` for `instances`, runs every instance's jobs and
/// compares with core.
fn check_program(
    cxx: &str,
    dir: &std::path::Path,
    program: &expanse_gpu::CudaProgram,
    cuda: &str,
    instances: &[(&str, usize)],
    list: Vec<Box<dyn Instance>>,
) {
    let src = multi_instance_source(program, instances, PER_INSTANCE, &main_of(instances));
    let t0 = std::time::Instant::now();
    let exe = build(cxx, dir, &format!("functions_{cuda}"), &src);
    eprintln!(
        "functions.cu {cuda}: host build {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let input: String = list.iter().map(|i| i.input()).collect();
    let t0 = std::time::Instant::now();
    let out = run_with_input(&exe, &input);
    eprintln!(
        "functions.cu {cuda}: host run {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let mut lines = out.lines();
    for i in &list {
        let c = i.compare(&mut lines);
        eprintln!("functions.cu {}: {c} results identical", i.label());
    }
    assert!(lines.next().is_none(), "extra output");
}

#[test]
fn function_source_matches_core_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler (c++ or $CXX): functions source check skipped");
        return;
    };
    let dir = shim_dir("functions");
    let random = 200;
    let f64s: Vec<Box<dyn Instance>> = vec![
        inst::<f64, 1>("double", random),
        inst::<f64, 2>("double", random),
        inst::<f64, 3>("double", random),
        inst::<f64, 4>("double", random),
        inst::<f64, 5>("double", random),
        inst::<f64, 6>("double", random),
        inst::<f64, 7>("double", random),
        inst::<f64, 8>("double", random),
    ];
    let f32s: Vec<Box<dyn Instance>> = vec![
        inst::<f32, 1>("float", random),
        inst::<f32, 2>("float", random),
        inst::<f32, 3>("float", random),
        inst::<f32, 4>("float", random),
        inst::<f32, 8>("float", random),
    ];
    let f64_inst: Vec<(&str, usize)> = (1..=8).map(|n| ("double", n)).collect();
    let f32_inst: Vec<(&str, usize)> = [1, 2, 3, 4, 8].iter().map(|&n| ("float", n)).collect();
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            check_program(
                &cxx,
                &dir,
                functions_program::<f32>(),
                "float",
                &f32_inst,
                f32s,
            )
        });
        check_program(
            &cxx,
            &dir,
            functions_program::<f64>(),
            "double",
            &f64_inst,
            f64s,
        );
        h.join().unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The generated part names every function the kernels dispatch on, with the ids of
/// `unary_id`/`binary_id`, and the CUDA source handles each of them.
#[test]
fn function_ids_are_generated_and_handled() {
    let part = expanse_gpu::functions::generated_part::<f64>();
    let src = expanse_gpu::FUNCTIONS_CU;
    let mut seen = std::collections::HashSet::new();
    for f in Unary::ALL {
        let m = expanse_gpu::functions::id_macro(f.name());
        assert!(
            part.contains(&format!("#define {m} {}\n", unary_id(f))),
            "{m}"
        );
        assert!(
            src.contains(&format!("case {m}:")),
            "functions.cu does not handle {m}"
        );
        assert!(seen.insert(unary_id(f)));
    }
    for f in Binary::ALL {
        let m = expanse_gpu::functions::id_macro(f.name());
        assert!(
            part.contains(&format!("#define {m} {}\n", binary_id(f))),
            "{m}"
        );
        assert!(
            src.contains(&format!("case {m}:")),
            "functions.cu does not handle {m}"
        );
        assert!(seen.insert(binary_id(f)));
    }
}

/// Where NVRTC can be loaded (a CUDA toolkit, or `$CUDA_HOME`; no GPU needed), the accurate
/// and functions programs compile for sampled (T, N) without errors; elsewhere (CI) the test
/// says so and passes. Set `EXPANSE_GPU_PTX_DIR` to keep the PTX.
#[test]
fn programs_compile_with_nvrtc_when_present() {
    use expanse_gpu::{compile_program_ptx, ACCURATE_PROGRAM};
    let arch = "compute_90";
    match compile_program_ptx::<f64, 2>(&ACCURATE_PROGRAM, arch) {
        Err(e) if matches!(e.kind, expanse_gpu::GpuErrorKind::Unavailable(_)) => {
            eprintln!("NVRTC not found: compile check skipped ({e})");
            return;
        }
        r => {
            r.unwrap();
        }
    }
    let t0 = std::time::Instant::now();
    compile_program_ptx::<f64, 1>(functions_program::<f64>(), arch).unwrap();
    compile_program_ptx::<f64, 4>(functions_program::<f64>(), arch).unwrap();
    compile_program_ptx::<f64, 8>(functions_program::<f64>(), arch).unwrap();
    compile_program_ptx::<f32, 2>(functions_program::<f32>(), arch).unwrap();
    compile_program_ptx::<f32, 8>(&ACCURATE_PROGRAM, arch).unwrap();
    eprintln!(
        "NVRTC: functions compiled in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}
