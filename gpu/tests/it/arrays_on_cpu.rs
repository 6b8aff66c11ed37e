//! The device backend of the array layer, run on the CPU: the CUDA source of the array program
//! (`accurate.cu`, `arrays.cu`, `blas.cu`) is built for the host through the shim
//! (`cpu_shim/shim.h`: block-cooperative kernels run their threads as fibers between
//! `__syncthreads`) into a small server (`cpu_shim/arrays_server.cpp`) that plays the device
//! for [`KernelExec`]. The Rust device backend — every launch sequence, the multi-pass
//! reductions, the single-pass scan with its lookback, the sort's merge passes, GEMM tiling
//! over host data and its split over several devices — then runs unchanged, and its results
//! must equal the host backend's bit for bit (values and error bounds) for sampled N and term
//! types ([`check::compare`], the comparison `expanse bench arrays --check` runs on a GPU for
//! every N and both term types).
//!
//! One compiler run builds every sampled instance (one namespace each). Needs a host C++
//! compiler (`c++`, or `$CXX`); without one the test says so and passes.

use crate::arrays_common::{adversarial, bits, Rng};
use crate::shim::{compiler, shim_dir};
use expanse_core::Expansion;
use expanse_gpu::array::device::ARRAYS_PROGRAM;
use expanse_gpu::array::{check, ArrayTerm, Arrays, KArg, KernelExec, ScanKind, TermKind};
use expanse_gpu::{CudaProgram, GpuError, GpuErrorKind};
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The sampled instances (CUDA type, N).
const INSTANCES: &[(&str, usize)] = &[("double", 2), ("double", 3), ("double", 4), ("float", 4)];

fn server_source() -> String {
    let server = include_str!("cpu_shim/arrays_server.cpp");
    let mut s = String::from(include_str!("cpu_shim/shim.h"));
    s += &format!("#define ARRAYS_SERVER_PREFIX\n{server}\n#undef ARRAYS_SERVER_PREFIX\n");
    let mut reg = String::new();
    for &(ty, n) in INSTANCES {
        let mut src = ARRAYS_PROGRAM
            .source(n, ty)
            .replace("extern \"C\" ", "")
            .replace("#pragma unroll", "// unroll");
        if (ty, n) == ("double", 3) {
            // This instance folds every scan tile prefix from the dyadic nodes (the others
            // start from the previous tile's published prefix, as blocks run here in order),
            // and its scan stores each output straight from the lane (SCAN_RELOAD 2; the
            // (double, 4) instance reloads the inputs and stages the stores, the default where
            // elements are not parked).
            src = format!("#define SCAN_SHORTCUT 0\n#define SCAN_RELOAD 2\n{src}");
        }
        let mut macros: Vec<&str> = src
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("#define "))
            .filter_map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
            .collect();
        macros.sort_unstable();
        macros.dedup();
        s += &format!(
            "\nnamespace inst_{ty}_{n} {{\n{src}\n#define ARRAYS_SERVER_INSTANCE\n{server}\n#undef ARRAYS_SERVER_INSTANCE\n}}\n"
        );
        for m in macros {
            s += &format!("#undef {m}\n");
        }
        reg += &format!("    inst_{ty}_{n}::register_all(\"{ty}:{n}\");\n");
    }
    s += &format!(
        "#define ARRAYS_SERVER_MAIN\n{server}\nint main() {{\n{reg}    serve();\n    return 0;\n}}\n"
    );
    s
}

/// A [`KernelExec`] backed by one server process.
struct ShimExec {
    io: Mutex<(ChildStdin, BufReader<ChildStdout>)>,
    child: Mutex<Child>,
    next: AtomicU64,
    memory: usize,
}

fn io_err(e: impl std::fmt::Debug) -> GpuError {
    GpuError::new(GpuErrorKind::Driver(format!("shim server: {e:?}")))
}

impl ShimExec {
    fn spawn(exe: &std::path::Path, memory: usize) -> Self {
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the shim server");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            io: Mutex::new((stdin, stdout)),
            child: Mutex::new(child),
            next: AtomicU64::new(1),
            memory,
        }
    }

    fn send(&self, bytes: &[u8], reply: usize) -> Result<Vec<u8>, GpuError> {
        let mut io = self.io.lock().unwrap();
        io.0.write_all(bytes).map_err(io_err)?;
        io.0.flush().map_err(io_err)?;
        let mut out = vec![0u8; reply];
        if reply > 0 {
            io.1.read_exact(&mut out).map_err(io_err)?;
        }
        Ok(out)
    }
}

fn push64(v: &mut Vec<u8>, x: u64) {
    v.extend_from_slice(&x.to_le_bytes());
}

impl KernelExec for ShimExec {
    fn describe(&self) -> String {
        "host build of the CUDA source".into()
    }
    fn multiprocessors(&self) -> u32 {
        1
    }
    fn memory_bytes(&self) -> usize {
        self.memory
    }
    fn alloc(&self, bytes: usize) -> Result<u64, GpuError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut v = vec![b'A'];
        push64(&mut v, id);
        push64(&mut v, bytes as u64);
        self.send(&v, 0)?;
        Ok(id)
    }
    fn free(&self, buf: u64) {
        let mut v = vec![b'F'];
        push64(&mut v, buf);
        let _ = self.send(&v, 0);
    }
    fn zero(&self, buf: u64, offset: usize, bytes: usize) -> Result<(), GpuError> {
        let mut v = vec![b'Z'];
        for x in [buf, offset as u64, bytes as u64] {
            push64(&mut v, x);
        }
        self.send(&v, 0).map(|_| ())
    }
    fn upload(&self, buf: u64, offset: usize, data: &[u8]) -> Result<(), GpuError> {
        let mut v = vec![b'U'];
        for x in [buf, offset as u64, data.len() as u64] {
            push64(&mut v, x);
        }
        v.extend_from_slice(data);
        self.send(&v, 0).map(|_| ())
    }
    fn download(&self, buf: u64, offset: usize, out: &mut [u8]) -> Result<(), GpuError> {
        let mut v = vec![b'D'];
        for x in [buf, offset as u64, out.len() as u64] {
            push64(&mut v, x);
        }
        let r = self.send(&v, out.len())?;
        out.copy_from_slice(&r);
        Ok(())
    }
    fn copy(
        &self,
        dst: u64,
        dst_offset: usize,
        src: u64,
        src_offset: usize,
        bytes: usize,
    ) -> Result<(), GpuError> {
        let mut v = vec![b'C'];
        for x in [dst, dst_offset as u64, src, src_offset as u64, bytes as u64] {
            push64(&mut v, x);
        }
        self.send(&v, 0).map(|_| ())
    }
    fn launch(
        &self,
        program: &'static CudaProgram,
        kind: TermKind,
        n: usize,
        name: &str,
        grid: u32,
        block: u32,
        args: &[KArg],
    ) -> Result<(), GpuError> {
        if program.name != ARRAYS_PROGRAM.name {
            return Err(io_err(format!(
                "program {} is not in the host build",
                program.name
            )));
        }
        let inst = format!("{}:{n}", kind.cuda_name());
        let mut v = vec![b'L'];
        push64(&mut v, inst.len() as u64);
        v.extend_from_slice(inst.as_bytes());
        push64(&mut v, name.len() as u64);
        v.extend_from_slice(name.as_bytes());
        for x in [grid as u64, block as u64, args.len() as u64] {
            push64(&mut v, x);
        }
        for a in args {
            match *a {
                KArg::Buf(id, off) => {
                    v.push(0);
                    push64(&mut v, id);
                    push64(&mut v, off as u64);
                }
                KArg::U64(x) => {
                    v.push(1);
                    push64(&mut v, x);
                }
                KArg::I32(x) => {
                    v.push(2);
                    push64(&mut v, x as i64 as u64);
                }
                KArg::F64(x) => {
                    v.push(3);
                    push64(&mut v, x.to_bits());
                }
                KArg::Sc(s) => {
                    v.push(4);
                    for x in s {
                        push64(&mut v, x.to_bits());
                    }
                }
                KArg::Bc(s) => {
                    v.push(5);
                    for x in s {
                        push64(&mut v, x.to_bits());
                    }
                }
            }
        }
        let r = self.send(&v, 1)?;
        match r[0] {
            0 => Ok(()),
            1 => Err(io_err(format!("kernel {name} not built for {inst}"))),
            _ => Err(io_err(format!("kernel {name}: wrong argument count"))),
        }
    }
    fn synchronize(&self) -> Result<(), GpuError> {
        self.send(b"S", 1).map(|_| ())
    }
}

impl Drop for ShimExec {
    fn drop(&mut self) {
        let _ = self.send(b"Q", 0);
        let _ = self.child.lock().unwrap().wait();
    }
}

#[test]
fn device_backend_on_the_host_build_matches_the_host_backend() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler (c++ or $CXX): device-backend check skipped");
        return;
    };
    let dir = shim_dir("arrays");
    let src = server_source();
    let exe = crate::shim::build(&cxx, &dir, "arrays_server", &src);
    let one: Arc<dyn KernelExec> = Arc::new(ShimExec::spawn(&exe, 1 << 30));
    let dev = Arrays::with_executors(vec![one]);
    // Four reduction and scan tiles with a ragged end: two reduction passes, two levels of
    // the scan's tile tree, 32 sort tiles and five merge passes, a three-level GEMV chunk
    // tree, GEMM tiles with ragged edges.
    let len = 4 * 2048 - 192;
    for (seed, &(ty, n)) in INSTANCES.iter().enumerate() {
        let kind = if ty == "double" {
            TermKind::F64
        } else {
            TermKind::F32
        };
        let diffs = check::compare(&dev, kind, n, len, seed as u64, false).unwrap();
        assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    }
    // A many-tile scan: 70 tiles, so tile indices with up to 6 set bits (look-backs over up
    // to 6 nodes, in the (double, 3) instance always from the nodes alone) and tiles that
    // complete chains of up to 6 ancestors (b = 63), a ragged end; inclusive, exclusive and
    // into a preallocated array, bit for bit against the host backend.
    let len = 70 * 2048 - 777;
    for (seed, &(ty, n)) in INSTANCES.iter().enumerate() {
        let diffs = match (ty, n) {
            ("double", 2) => scan_diffs::<f64, 2>(&dev, len, 50 + seed as u64),
            ("double", 3) => scan_diffs::<f64, 3>(&dev, len, 50 + seed as u64),
            ("double", 4) => scan_diffs::<f64, 4>(&dev, len, 50 + seed as u64),
            ("float", 4) => scan_diffs::<f32, 4>(&dev, len, 50 + seed as u64),
            other => panic!("no many-tile scan case for {other:?}"),
        };
        assert!(diffs.is_empty(), "{ty} N={n}: {}", diffs.join("\n"));
    }
    // Two "devices": gemm_host splits C's columns over them.
    let two: Vec<Arc<dyn KernelExec>> = (0..2)
        .map(|_| Arc::new(ShimExec::spawn(&exe, 1 << 30)) as Arc<dyn KernelExec>)
        .collect();
    let diffs = check::compare(
        &Arrays::with_executors(two),
        TermKind::F64,
        2,
        2000,
        9,
        false,
    )
    .unwrap();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scans of `dev` against the host backend's on adversarial data (a wide dynamic range and
/// cancelling pairs, so that a different fold order changes low-order bits); the mismatches.
fn scan_diffs<T: ArrayTerm, const N: usize>(dev: &Arrays, len: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let span = if T::PRECISION == 53 { 20 } else { 6 };
    let xs: Vec<Expansion<T, N>> = adversarial(&mut rng, len, span);
    let host = Arrays::cpu();
    let (dx, hx) = (dev.array(&xs).unwrap(), host.array(&xs).unwrap());
    let mut out = Vec::new();
    let mut cmp = |what: &str, a: Vec<Expansion<T, N>>, b: Vec<Expansion<T, N>>| {
        assert_eq!(a.len(), b.len());
        if let Some(i) = (0..a.len()).find(|&i| bits(&a[i]) != bits(&b[i])) {
            out.push(format!(
                "{what}: element {i} (tile {}) differs: {:?} vs {:?} (host)",
                i / 2048,
                a[i],
                b[i]
            ));
        }
    };
    for kind in [ScanKind::Inclusive, ScanKind::Exclusive] {
        let a = dx.scan(kind).unwrap().to_vec().unwrap();
        let b = hx.scan(kind).unwrap().to_vec().unwrap();
        cmp(&format!("scan {kind:?}"), a, b);
    }
    let mut dz = dev.zeros::<T, N>(len).unwrap();
    dx.scan_into(ScanKind::Inclusive, &mut dz).unwrap();
    let b = hx.scan(ScanKind::Inclusive).unwrap().to_vec().unwrap();
    cmp("scan_into", dz.to_vec().unwrap(), b);
    out
}

/// NVRTC accepts the array program (where NVRTC is installed; skipped otherwise): the host
/// build above cannot catch CUDA-only errors (shared-memory limits, device-code rules).
#[test]
fn array_program_compiles_with_nvrtc_when_present() {
    use expanse_gpu::compile_program_ptx;
    let arch = "compute_90";
    match compile_program_ptx::<f64, 2>(&ARRAYS_PROGRAM, arch) {
        Err(e) if matches!(e.kind, GpuErrorKind::Unavailable(_)) => {
            eprintln!("NVRTC not found: compile check skipped ({e})");
            return;
        }
        r => {
            r.unwrap();
        }
    }
    compile_program_ptx::<f64, 4>(&ARRAYS_PROGRAM, arch).unwrap();
    compile_program_ptx::<f64, 8>(&ARRAYS_PROGRAM, arch).unwrap();
    compile_program_ptx::<f32, 3>(&ARRAYS_PROGRAM, arch).unwrap();
}
