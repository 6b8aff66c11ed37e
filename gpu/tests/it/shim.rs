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
