//! Helpers for the host builds of the CUDA sources: the C++ compiler to use and a scratch folder.
//! Every `*_on_cpu` test compiles a program's CUDA source for the host through the shim
//! `cpu_shim/shim.h` (CUDA keywords as no-ops, one "thread" at a time), with
//! `-ffp-contract=off` as NVRTC's `--fmad=false`, and compares with the Rust reference.

use std::process::Command;

/// The host C++ compiler (`$CXX`, else `c++`), if one runs.
pub fn compiler() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    Command::new(&cxx)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| cxx)
}

/// A fresh scratch folder for one test's host builds.
pub fn shim_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("expanse-gpu-shim-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Host C++ source holding several instances of `program`, one namespace `inst_<type>_<n>` per
/// (CUDA term type, N) of `instances`, each followed by `per_instance` (inside the namespace,
/// e.g. a `run` function over that instance's kernels), then `main`. Kernels lose their
/// `extern "C"` (one C name per namespace would clash) and every macro a part defines is
/// undefined after its instance, so one compiler run covers the whole matrix.
pub fn multi_instance_source(
    program: &expanse_gpu::CudaProgram,
    instances: &[(&str, usize)],
    per_instance: &str,
    main: &str,
) -> String {
    let mut s = String::from(include_str!("cpu_shim/shim.h"));
    for &(ty, n) in instances {
        let src = program
            .source(n, ty)
            .replace("extern \"C\" ", "")
            .replace("#pragma unroll", "// unroll");
        let mut macros: Vec<&str> = src
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("#define "))
            .filter_map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
            .collect();
        macros.sort_unstable();
        macros.dedup();
        s += &format!("\nnamespace inst_{ty}_{n} {{\n{src}\n{per_instance}\n}}\n");
        for m in macros {
            s += &format!("#undef {m}\n");
        }
    }
    s + main
}

/// Compiles `source` for the host (C++17, `-O0 -ffp-contract=off`: quickest to build, the
/// same IEEE operations as any level without contraction) into `dir/name`; panics
/// with the compiler's message on failure.
pub fn build(cxx: &str, dir: &std::path::Path, name: &str, source: &str) -> std::path::PathBuf {
    let cpp = dir.join(format!("{name}.cpp"));
    let exe = dir.join(name);
    std::fs::write(&cpp, source).unwrap();
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O0", "-ffp-contract=off", "-w", "-o"])
        .arg(&exe)
        .arg(&cpp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "host build of {name} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(60)
            .collect::<Vec<_>>()
            .join("\n")
    );
    exe
}

/// Runs `exe` with `input` on its standard input and returns its standard output.
pub fn run_with_input(exe: &std::path::Path, input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{} failed: {:?}",
        exe.display(),
        out.status
    );
    String::from_utf8(out.stdout).unwrap()
}
