//! The GPU versions of mandelbrot, md and fft (`expanse_gpu::apps`, CUDA sources
//! `gpu/src/cuda/{quasi,mandelbrot,md,fft}.cu`), compiled for the host by a C++ compiler
//! through the gpu crate's CPU shim (`-ffp-contract=off` as NVRTC's `--fmad=false`, one
//! "thread" at a time), must give what the CPU versions of `expanse-apps` give, bit for bit:
//! escape counts of small deep and shallow views in every format, MD states and energies after
//! a few steps in every format, and forward and inverse FFTs at small sizes in every format
//! (driven by the same launch plan as the device code, `expanse_gpu::apps::fft::plan`). The
//! three host programs are built in parallel; one namespace per (term type, N) instance.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`); without one the test says so and passes.

#[allow(dead_code)]
#[path = "../../../gpu/tests/it/shim.rs"]
mod shim;

use expanse_apps::fft::{device_layout, fft, input_vec, Complex, Real, Twiddles};
use expanse_apps::mandelbrot::{gpu_coords, render, Format, GpuCoords, View};
use expanse_apps::md::{
    forces, initial, state_dt, step, to_device, MdReal, Quasi, DT, LONG_DT, RC2,
};
use expanse_core::{DoubleDouble, Expansion, FloatTerm};
use expanse_gpu::apps::fft::{plan, FftLaunch};
use expanse_gpu::apps::mandelbrot::MandelArith;
use expanse_gpu::apps::{fft_program, mandelbrot_program, md_program};
use shim::{build, compiler, multi_instance_source, run_with_input, shim_dir};

/// Reading and writing terms as their bits (both term types) in every instance.
const IO: &str = r#"
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
static std::vector<T> rd_vec(size_t n) { std::vector<T> v(n); for (auto &x : v) x = rd_t(); return v; }
static void pr_vec(const std::vector<T> &v) { for (T x : v) std::printf("%llu ", bits_t(x)); std::printf("\n"); }
"#;

fn bits_line<U: FloatTerm>(v: &[U]) -> String {
    let mut s: String = v.iter().map(|t| format!("{} ", t.to_bits_u64())).collect();
    s.push('\n');
    s
}

fn parse_line(line: Option<&str>) -> Vec<u64> {
    line.expect("a line of output")
        .split_whitespace()
        .map(|b| b.parse().expect("a number"))
        .collect()
}

/// `main`: reads `ty nt` and the job's parameters (`decls` declares them, `reads` reads them
/// as `>> a >> b`), then calls `call` in the instance's namespace, until the input ends.
fn main_of(instances: &[(&str, usize)], decls: &str, reads: &str, call: &str) -> String {
    let mut m = format!(
        "int main() {{\n    std::string ty; int nt; {decls};\n    while (std::cin >> ty >> nt {reads}) {{\n"
    );
    for (ty, n) in instances {
        m += &format!("        if (ty == \"{ty}\" && nt == {n}) inst_{ty}_{n}::{call};\n");
    }
    m + "    }\n    return 0;\n}\n"
}

// ---- mandelbrot -------------------------------------------------------------------------------

const MANDEL_INSTANCES: [(&str, usize); 4] =
    [("float", 1), ("double", 1), ("double", 2), ("double", 4)];

const MANDEL_DRIVER: &str = r#"
static void run(int kind, unsigned w, unsigned h, unsigned max_iter, int terms) {
    std::vector<T> cx = rd_vec((size_t)terms * w), cy = rd_vec((size_t)terms * h);
    std::vector<u32> counts((size_t)w * h);
    blockDim.x = 128;
    for (unsigned long long p = 0; p < (unsigned long long)w * h; ++p) {
        blockIdx.x = (unsigned)(p / 128);
        threadIdx.x = (unsigned)(p % 128);
        if (kind == 0) mandel_plain(cx.data(), cy.data(), w, h, max_iter, counts.data());
        else if (kind == 1) mandel_quasi(cx.data(), cy.data(), w, h, max_iter, counts.data());
        else mandel_exp(cx.data(), cy.data(), w, h, max_iter, counts.data());
    }
    for (u32 c : counts) std::printf("%u ", c);
    std::printf("\n");
}
"#;

fn mandel_views() -> [View; 2] {
    [
        View {
            name: "deep",
            log2_delta: -69,
            width: 12,
            height: 10,
            max_iter: 6_000,
        },
        View {
            name: "shallow",
            log2_delta: -30,
            width: 10,
            height: 12,
            max_iter: 2_000,
        },
    ]
}

fn mandel_job(view: &View, f: Format) -> String {
    let (arith, coords) = gpu_coords(view, f);
    let (kind, instance) = match arith {
        MandelArith::Plain => (0, 1),
        MandelArith::Quasi => (1, 1),
        MandelArith::Expansion { terms } => (2, terms),
    };
    let head = |ty: &str| {
        format!(
            "{ty} {instance} {kind} {} {} {} {}\n",
            view.width,
            view.height,
            view.max_iter,
            arith.terms()
        )
    };
    match coords {
        GpuCoords::F32(x, y) => head("float") + &bits_line(&x) + &bits_line(&y),
        GpuCoords::F64(x, y) => head("double") + &bits_line(&x) + &bits_line(&y),
    }
}

fn mandelbrot_check(cxx: &str) -> usize {
    let dir = shim_dir("apps-mandelbrot");
    let src = multi_instance_source(
        mandelbrot_program(),
        &MANDEL_INSTANCES,
        &(IO.to_string() + MANDEL_DRIVER),
        &main_of(
            &MANDEL_INSTANCES,
            "int kind, terms; unsigned w, h, m",
            ">> kind >> w >> h >> m >> terms",
            "run(kind, w, h, m, terms)",
        ),
    );
    let exe = build(cxx, &dir, "mandelbrot", &src);
    let mut input = String::new();
    let mut want = Vec::new();
    for v in mandel_views() {
        for f in Format::ALL {
            input += &mandel_job(&v, f);
            want.push((v, f, render(&v, f).counts));
        }
    }
    let out = run_with_input(&exe, &input);
    let mut lines = out.lines();
    let mut escaped = 0;
    for (v, f, counts) in &want {
        let got: Vec<u32> = parse_line(lines.next()).iter().map(|&c| c as u32).collect();
        assert_eq!(
            &got,
            counts,
            "{} view, {}: CUDA source vs CPU",
            v.name,
            f.name()
        );
        escaped += counts.iter().filter(|&&c| c < v.max_iter).count();
    }
    // The images have structure (else the comparison proves little).
    assert!(escaped > 100, "{escaped}");
    let _ = std::fs::remove_dir_all(&dir);
    want.len()
}

// ---- md ---------------------------------------------------------------------------------------

const MD_INSTANCES: [(&str, usize); 4] = [("float", 1), ("float", 2), ("double", 1), ("double", 2)];

const MD_DRIVER: &str = r#"
static void run(u64 n, double l, double rc2, double dt, int steps) {
    std::vector<T> x = rd_vec(3 * NT * n), v = rd_vec(3 * NT * n);
    std::vector<T> f(3 * NT * n), fs(3 * NT * n), pe(NT * n);
    blockDim.x = 128;
    auto all = [&](auto k) {
        for (u64 i = 0; i < n; ++i) {
            blockIdx.x = (unsigned)(i / 128);
            threadIdx.x = (unsigned)(i % 128);
            k();
        }
    };
    all([&] { md_forces(x.data(), n, l, rc2, 0, f.data(), pe.data()); });
    for (int s = 0; s < steps; ++s) {
        all([&] { md_kick_drift(x.data(), v.data(), f.data(), n, l, dt); });
        all([&] { md_forces(x.data(), n, l, rc2, 0, f.data(), pe.data()); });
        all([&] { md_kick(v.data(), f.data(), n, dt); });
    }
    all([&] { md_forces(x.data(), n, l, rc2, 1, fs.data(), pe.data()); });
    pr_vec(x);
    pr_vec(v);
    pr_vec(pe);
}
"#;

/// The CPU's state after `steps` steps of `dt`: (x, v, pe) in the device layout, as term bits.
fn md_cpu<R: MdReal>(k: usize, seed: u64, steps: usize, dt: f64) -> (String, [Vec<u64>; 3]) {
    let (l, x0, v0) = initial(k, seed);
    let mut s = state_dt::<R>(l, &x0, &v0, dt);
    let x_in = to_device::<R>(&s.x);
    let v_in = to_device::<R>(&s.v);
    let ty = if <R::Term as FloatTerm>::PRECISION == 53 {
        "double"
    } else {
        "float"
    };
    // Shortest round-trip decimals: the C++ side reads the same doubles.
    let input = format!(
        "{ty} {} {} {l:e} {RC2:e} {dt:e} {steps}\n",
        R::TERMS,
        s.x.len()
    ) + &bits_line(&x_in)
        + &bits_line(&v_in);
    for _ in 0..steps {
        step(&mut s);
    }
    let (_, pe) = forces(l, &s.x, true);
    let pe3: Vec<[R; 3]> = pe.iter().map(|&p| [p, p, p]).collect();
    let pe_layout = to_device::<R>(&pe3)[..R::TERMS * pe.len()].to_vec();
    let bits = |v: &[R::Term]| v.iter().map(|t| t.to_bits_u64()).collect::<Vec<u64>>();
    (
        input,
        [
            bits(&to_device::<R>(&s.x)),
            bits(&to_device::<R>(&s.v)),
            bits(&pe_layout),
        ],
    )
}

fn md_check(cxx: &str) -> usize {
    let dir = shim_dir("apps-md");
    let src = multi_instance_source(
        md_program(),
        &MD_INSTANCES,
        &(IO.to_string() + MD_DRIVER),
        &main_of(
            &MD_INSTANCES,
            "unsigned long long n; double l, rc2, dt; int steps",
            ">> n >> l >> rc2 >> dt >> steps",
            "run(n, l, rc2, dt, steps)",
        ),
    );
    let exe = build(cxx, &dir, "md", &src);
    let (k, seed, steps) = (3, 7, 3);
    let jobs = [
        ("f32", md_cpu::<f32>(k, seed, steps, DT)),
        ("quasi", md_cpu::<Quasi>(k, seed, steps, DT)),
        ("f64", md_cpu::<f64>(k, seed, steps, DT)),
        ("dd", md_cpu::<DoubleDouble>(k, seed, steps, DT)),
        // The long run's time step (md --long).
        ("f32 long dt", md_cpu::<f32>(k, seed, steps, LONG_DT)),
        ("quasi long dt", md_cpu::<Quasi>(k, seed, steps, LONG_DT)),
    ];
    let input: String = jobs.iter().map(|(_, (i, _))| i.as_str()).collect();
    let out = run_with_input(&exe, &input);
    let mut lines = out.lines();
    for (name, (_, want)) in &jobs {
        for (what, w) in ["positions", "velocities", "energies"].iter().zip(want) {
            let got = parse_line(lines.next());
            let bad = got.iter().zip(w).filter(|(a, b)| a != b).count();
            assert!(
                got.len() == w.len() && bad == 0,
                "md {name}: {what} differ at {bad} of {} terms",
                w.len()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    jobs.len()
}

// ---- fft --------------------------------------------------------------------------------------

const FFT_INSTANCES: [(&str, usize); 5] = [
    ("double", 1),
    ("float", 2),
    ("float", 4),
    ("double", 2),
    ("double", 4),
];

const FFT_DRIVER: &str = r#"
static void run(u32 log2n, u32 log2_max, int launches) {
    u64 n = 1ull << log2n, half_max = 1ull << (log2_max - 1);
    std::vector<T> a = rd_vec(2 * NT * n), tw = rd_vec(2 * NT * half_max), scratch(2 * NT * n);
    blockDim.x = 256;
    auto all = [&](u64 threads, auto k) {
        for (u64 i = 0; i < threads; ++i) {
            blockIdx.x = (unsigned)(i / 256);
            threadIdx.x = (unsigned)(i % 256);
            k();
        }
    };
    for (int q = 0; q < launches; ++q) {
        int kind, inverse, e; u64 h; u32 shift;
        std::cin >> kind >> h >> shift >> e >> inverse;
        if (kind == 0) {
            all(n, [&] { fft_bitrev(a.data(), scratch.data(), n, log2n); });
            std::swap(a, scratch);
        } else if (kind == 1) {
            all(n / 2, [&] { fft_stage(a.data(), tw.data(), n, half_max, h, shift, inverse); });
        } else {
            T factor = std::ldexp((T)1, e);
            all(n, [&] { fft_scale(a.data(), n, factor); });
        }
    }
    pr_vec(a);
}
"#;

fn fft_job<R: Real>(tw: &Twiddles<R>, seed: u64, log2n: u32, inverse: bool) -> (String, Vec<u64>) {
    let n = 1usize << log2n;
    let mut a: Vec<Complex<R>> = input_vec::<R>(seed, n);
    let ty = if <R::Term as FloatTerm>::PRECISION == 53 {
        "double"
    } else {
        "float"
    };
    let p = plan(log2n, tw.log2_max(), inverse);
    let mut s = format!("{ty} {} {log2n} {} {}\n", R::TERMS, tw.log2_max(), p.len());
    s += &bits_line(&device_layout(&a));
    s += &bits_line(&tw.device_layout());
    for l in &p {
        s += &match l {
            FftLaunch::BitRev => "0 0 0 0 0\n".to_string(),
            FftLaunch::Stage { h, shift } => format!("1 {h} {shift} 0 {}\n", i32::from(inverse)),
            FftLaunch::Scale { e } => format!("2 0 0 {e} 0\n"),
        };
    }
    fft(&mut a, tw, inverse);
    (
        s,
        device_layout(&a).iter().map(|t| t.to_bits_u64()).collect(),
    )
}

fn fft_jobs<R: Real>(out: &mut Vec<(String, String, Vec<u64>)>) {
    let log2_max = 7;
    let tw = Twiddles::<R>::new(log2_max);
    for log2n in [1, 4, 7] {
        for inverse in [false, true] {
            let (i, w) = fft_job(&tw, 0x5EED, log2n, inverse);
            out.push((format!("{} 2^{log2n} inverse={inverse}", R::NAME), i, w));
        }
    }
}

fn fft_check(cxx: &str) -> usize {
    let dir = shim_dir("apps-fft");
    let src = multi_instance_source(
        fft_program(),
        &FFT_INSTANCES,
        &(IO.to_string() + FFT_DRIVER),
        &main_of(
            &FFT_INSTANCES,
            "unsigned log2n, log2_max; int launches",
            ">> log2n >> log2_max >> launches",
            "run(log2n, log2_max, launches)",
        ),
    );
    let exe = build(cxx, &dir, "fft", &src);
    let mut jobs = Vec::new();
    fft_jobs::<f64>(&mut jobs);
    fft_jobs::<Expansion<f32, 2>>(&mut jobs);
    fft_jobs::<Expansion<f32, 4>>(&mut jobs);
    fft_jobs::<Expansion<f64, 2>>(&mut jobs);
    fft_jobs::<Expansion<f64, 4>>(&mut jobs);
    let input: String = jobs.iter().map(|(_, i, _)| i.as_str()).collect();
    let out = run_with_input(&exe, &input);
    let mut lines = out.lines();
    for (name, _, want) in &jobs {
        let got = parse_line(lines.next());
        let bad = got.iter().zip(want).filter(|(a, b)| a != b).count();
        assert!(
            got.len() == want.len() && bad == 0,
            "fft {name}: {bad} of {} terms differ",
            want.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    jobs.len()
}

#[test]
fn gpu_sources_match_the_cpu_applications_bit_for_bit() {
    // The programs take only the fast tier of orbits.cu, not the orbit kernels.
    let fast = expanse_gpu::apps::fast_cu();
    assert!(fast.contains("sqr_fast") && fast.contains("add_term_fast"));
    assert!(!fast.contains("orbits_single") && !fast.contains("henon_step"));
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: the CUDA sources of the applications are not checked");
        return;
    };
    let (m, d, f) = std::thread::scope(|s| {
        let m = s.spawn(|| mandelbrot_check(&cxx));
        let d = s.spawn(|| md_check(&cxx));
        let f = fft_check(&cxx);
        (m.join(), d.join(), f)
    });
    let (m, d) = (m.expect("mandelbrot check"), d.expect("md check"));
    assert_eq!((m, d, f), (10, 6, 30));
}

#[test]
fn backend_flag_parses_and_auto_falls_back_with_a_reason() {
    use expanse_apps::cli::{parse_args, select_backend, BackendChoice};
    let p = |a: &[&str]| parse_args(a.iter().copied());
    assert_eq!(p(&[]).expect("no flags").backend, BackendChoice::Auto);
    assert_eq!(
        p(&["--backend", "gpu"]).expect("gpu").backend,
        BackendChoice::Gpu
    );
    assert_eq!(
        p(&["--backend=cpu", "--quick"]).expect("cpu").backend,
        BackendChoice::Cpu
    );
    assert!(p(&["--backend", "tpu"]).expect_err("tpu").contains("tpu"));
    assert!(p(&["--backend"])
        .expect_err("no value")
        .contains("--backend"));
    let cpu = select_backend(BackendChoice::Cpu).expect("cpu always works");
    assert!(cpu.gpu.is_none() && cpu.note.is_none());
    // Without a usable GPU (CI): `gpu` is an error naming the reason, `auto` falls back and
    // says why; with one, both use it and say which.
    match expanse_gpu::GpuContext::probe() {
        Err(u) => {
            let e = select_backend(BackendChoice::Gpu).err().expect("no GPU");
            assert!(e.contains(&u.reason), "{e}");
            let a = select_backend(BackendChoice::Auto).expect("auto");
            assert!(a.gpu.is_none());
            assert!(a.note.expect("a note").contains("falling back"));
        }
        Ok(_) => {
            let a = select_backend(BackendChoice::Auto).expect("auto");
            assert!(a.gpu.is_some() && a.note.expect("a note").contains("GPU"));
        }
    }
}
