//! Device discovery, run-time compilation (NVRTC) with a per-process module cache, and
//! launches of the orbit kernel over one or several GPUs of a host.
//!
//! Everything here goes through cudarc with dynamic loading: on a machine without the CUDA
//! driver or NVRTC, [`GpuContext::probe`] returns [`GpuUnavailable`] with the reason, and nothing
//! panics. If NVRTC is not on the loader path, it is looked for in `$CUDA_HOME/lib64`,
//! `$CUDA_PATH/lib64`, `/usr/local/cuda/lib64` and `/usr/local/cuda-*/lib64`, and loaded from
//! there by absolute path (so that cudarc's later load by name finds it by its soname).
//!
//! Set `EXPANSE_GPU_PTX_DIR` to a folder to have every compiled PTX written there (for
//! `ptxas -v` and `cuobjdump -sass` on the device).

use crate::contract::{OrbitBatch, OrbitRecord, OrbitStatus};
use crate::error::{GpuError, GpuErrorKind, GpuUnavailable};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DeviceRepr, LaunchConfig,
    PushKernelArg, ValidAsZeroBits,
};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileError, CompileOptions, Ptx};
use expanse_core::{Expansion, FloatTerm};
use std::any::Any;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// The prelude prepended to every CUDA source of this crate (types, the expansion struct,
/// error-free transforms): `gpu/src/cuda/prelude.cu`.
pub const PRELUDE: &str = include_str!("cuda/prelude.cu");

/// The orbit kernel source (prelude and `gpu/src/cuda/orbits.cu`), embedded at build time.
pub const KERNEL_SOURCE: &str = concat!(
    include_str!("cuda/prelude.cu"),
    include_str!("cuda/orbits.cu")
);

/// A CUDA program of this crate: a name (the key of the PTX and module caches, the NVRTC file
/// name, the PTX dump's name) and the parts appended, in order, to [`PRELUDE`]. Each program is
/// compiled once per (N, term type, architecture) and process.
#[derive(Clone, Copy, Debug)]
pub struct CudaProgram {
    /// Unique name, e.g. `"orbits"`.
    pub name: &'static str,
    /// Source parts after the prelude.
    pub parts: &'static [&'static str],
}

/// The orbit kernels (`orbits_single`, `orbits_general`).
pub const ORBITS_PROGRAM: CudaProgram = CudaProgram {
    name: "orbits",
    parts: &[include_str!("cuda/orbits.cu")],
};

impl CudaProgram {
    /// The full source compiled for N terms of type `cuda_type`.
    pub fn source(&self, n: usize, cuda_type: &str) -> String {
        let mut s = format!("#define EXP_N {n}\n#define EXP_T {cuda_type}\n{PRELUDE}");
        for p in self.parts {
            s.push_str(p);
        }
        s
    }
}

/// Threads per block of the orbit kernel: must equal `ORBIT_BLOCK` in cuda/orbits.cu (its
/// `__launch_bounds__`).
const BLOCK: u32 = 128;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for f32 {}
}

/// A term type the kernels are compiled for (`f64` → CUDA `double`, `f32` → `float`).
pub trait GpuTerm: FloatTerm + DeviceRepr + ValidAsZeroBits + sealed::Sealed {
    /// The CUDA C++ type name.
    const CUDA_NAME: &'static str;
}
impl GpuTerm for f64 {
    const CUDA_NAME: &'static str = "double";
}
impl GpuTerm for f32 {
    const CUDA_NAME: &'static str = "float";
}

/// Which GPUs of the host to use (`--devices all|0,1,…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSelection {
    /// Every visible GPU.
    All,
    /// These ordinals, in this order.
    List(Vec<usize>),
}

impl std::str::FromStr for DeviceSelection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == "all" {
            return Ok(Self::All);
        }
        let mut v = Vec::new();
        for part in s.split(',') {
            let n: usize = part.trim().parse().map_err(|_| {
                format!("--devices: expected `all` or a comma-separated list of GPU ordinals such as `0,1`, got {s:?}")
            })?;
            if v.contains(&n) {
                return Err(format!("--devices: ordinal {n} given twice in {s:?}"));
            }
            v.push(n);
        }
        Ok(Self::List(v))
    }
}

/// What is known about one GPU.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// CUDA ordinal.
    pub ordinal: usize,
    /// Marketing name, e.g. "NVIDIA H100 80GB HBM3".
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub multiprocessors: i32,
    /// Device memory in bytes.
    pub memory: usize,
}

type FuncPair = Arc<(CudaFunction, CudaFunction)>;

/// Module cache key: (program name, N, CUDA term type).
type ModuleKey = (&'static str, usize, &'static str);

struct Device {
    info: DeviceInfo,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    funcs: Mutex<HashMap<(usize, &'static str), FuncPair>>,
    modules: Mutex<HashMap<ModuleKey, Arc<CudaModule>>>,
}

/// One or several usable GPUs of this host, with their compiled kernels.
pub struct GpuContext {
    devices: Vec<Device>,
}

/// The compact result of a batch: counts by status, and the records worth keeping
/// (`Unconfirmed` and `Cycle`) with their orbit index, in increasing orbit order.
#[derive(Clone, Debug)]
pub struct CompactResult<T: FloatTerm, const N: usize> {
    /// Orbits by status: [escaped, no-cycle, unconfirmed, cycle].
    pub counts: [u64; 4],
    /// (orbit index, record) of every `Unconfirmed` or `Cycle` orbit.
    pub kept: Vec<(u64, OrbitRecord<T, N>)>,
    /// Where the call's time went.
    pub profile: LaunchProfile,
}

/// Where the time of the compact and sparse orbit paths went, per call (host clocks around
/// each step; the kernel is timed from its launch to the end of a stream synchronisation, so
/// it holds nothing but the kernel and the launch overhead). With several GPUs the times are
/// those of the slowest device (they run concurrently) and the counts are sums.
///
/// The kernel adds up, over its threads, the `clock64` cycles each spent in the three phases
/// of the contract ([`Self::phase_cycles`]); their shares, applied to [`Self::kernel_s`], say
/// how the kernel's time divides between the transient and the close-return and confirmation
/// phases (a thread's cycles include the time its warp spends on the other lanes' phases).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaunchProfile {
    /// Compiling (NVRTC) and loading the kernels, when this call was the first to need them.
    pub setup_s: f64,
    /// Uploading parameters and initial points.
    pub upload_s: f64,
    /// The orbit kernels, launch to completion.
    pub kernel_s: f64,
    /// Downloading the status counters and the kept records.
    pub download_s: f64,
    /// Host work on the records (assembly from the downloaded columns, ordering).
    pub host_s: f64,
    /// Kernel launches.
    pub launches: u64,
    /// Orbits run.
    pub orbits: u64,
    /// The largest launch, in orbits (one thread each).
    pub max_launch_orbits: u64,
    /// Threads per block of the orbit kernel.
    pub block_threads: u32,
    /// Streaming multiprocessors of the GPUs used.
    pub multiprocessors: u64,
    /// Thread cycles (`clock64`, summed over the threads) in the transient, the close-return
    /// search and the confirmation.
    pub phase_cycles: [u64; 3],
}

impl LaunchProfile {
    /// Adds `o`, a later call on the same GPUs: times and counts add up.
    pub fn add(&mut self, o: &Self) {
        self.setup_s += o.setup_s;
        self.upload_s += o.upload_s;
        self.kernel_s += o.kernel_s;
        self.download_s += o.download_s;
        self.host_s += o.host_s;
        self.launches += o.launches;
        self.orbits += o.orbits;
        self.max_launch_orbits = self.max_launch_orbits.max(o.max_launch_orbits);
        self.block_threads = self.block_threads.max(o.block_threads);
        self.multiprocessors = self.multiprocessors.max(o.multiprocessors);
        for k in 0..3 {
            self.phase_cycles[k] = self.phase_cycles[k].saturating_add(o.phase_cycles[k]);
        }
    }

    /// Combines the profiles of GPUs that ran concurrently: times are the largest, counts
    /// (launches, orbits, multiprocessors, cycles) add up.
    pub fn concurrent(parts: &[Self]) -> Self {
        let mut out = Self::default();
        for p in parts {
            out.setup_s = out.setup_s.max(p.setup_s);
            out.upload_s = out.upload_s.max(p.upload_s);
            out.kernel_s = out.kernel_s.max(p.kernel_s);
            out.download_s = out.download_s.max(p.download_s);
            out.host_s = out.host_s.max(p.host_s);
            out.launches += p.launches;
            out.orbits += p.orbits;
            out.max_launch_orbits = out.max_launch_orbits.max(p.max_launch_orbits);
            out.block_threads = out.block_threads.max(p.block_threads);
            out.multiprocessors += p.multiprocessors;
            for k in 0..3 {
                out.phase_cycles[k] = out.phase_cycles[k].saturating_add(p.phase_cycles[k]);
            }
        }
        out
    }

    /// The shares of the transient, close-return and confirmation phases in the threads'
    /// cycles (zeros when nothing was counted).
    pub fn phase_shares(&self) -> [f64; 3] {
        let total: f64 = self.phase_cycles.iter().map(|&c| c as f64).sum();
        if total > 0.0 {
            self.phase_cycles.map(|c| c as f64 / total)
        } else {
            [0.0; 3]
        }
    }

    /// Warps of the largest launch per SM sub-partition (4 per SM), the measure of how much
    /// independent work a launch offers each warp scheduler: a latency-bound FP64 dependency
    /// chain needs several warps per sub-partition to keep the FP64 pipe busy.
    pub fn warps_per_scheduler(&self) -> f64 {
        let warps = self.max_launch_orbits.div_ceil(32) as f64;
        warps / (4 * self.multiprocessors.max(1)) as f64
    }
}

pub(crate) fn drv(context: &str, e: impl std::fmt::Debug) -> GpuError {
    GpuError::new(GpuErrorKind::Driver(format!("{context}: {e:?}")))
}

/// Loads `name*` from the first of the usual CUDA library folders that has it, by absolute
/// path and globally, so later loads by soname find it. Returns the path loaded.
fn preload_from_cuda_dirs(prefix: &str) -> Option<String> {
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"] {
        if let Ok(v) = std::env::var(var) {
            dirs.push(std::path::Path::new(&v).join("lib64"));
            dirs.push(std::path::Path::new(&v).join("lib"));
        }
    }
    dirs.push("/usr/local/cuda/lib64".into());
    if let Ok(rd) = std::fs::read_dir("/usr/local") {
        let mut more: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("cuda-"))
            })
            .map(|p| p.join("lib64"))
            .collect();
        more.sort();
        more.reverse();
        dirs.extend(more);
    }
    dirs.push("/usr/lib/x86_64-linux-gnu".into());
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut names: Vec<_> = rd
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|n| n.starts_with(prefix) && n.contains(".so"))
            .collect();
        // Prefer the most specific version (longest name), e.g. libnvrtc.so.13.0.48.
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in names {
            let path = d.join(&n);
            let Ok(c) = std::ffi::CString::new(path.to_string_lossy().as_bytes()) else {
                continue;
            };
            // SAFETY: dlopen of a shared library by path; the handle is deliberately leaked
            // so the library stays loaded for the process.
            let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
            if !h.is_null() {
                return Some(path.to_string_lossy().into_owned());
            }
        }
    }
    None
}

fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen candidate names.
    if unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return true;
    }
    preload_from_cuda_dirs("libnvrtc-builtins");
    preload_from_cuda_dirs("libnvrtc.so").is_some()
        // SAFETY: as above.
        && unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

fn driver_present() -> bool {
    // SAFETY: only tries to dlopen candidate names.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// PTX per (program, N, term type, architecture), compiled once per process.
fn ptx_cache() -> &'static Mutex<HashMap<(&'static str, usize, &'static str, String), String>> {
    type Cache = Mutex<HashMap<(&'static str, usize, &'static str, String), String>>;
    static C: OnceLock<Cache> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

fn leak_arch(arch: &str) -> &'static str {
    static A: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut m = A
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = m.get(arch) {
        return s;
    }
    let s: &'static str = Box::leak(arch.to_owned().into_boxed_str());
    m.insert(arch.to_owned(), s);
    s
}

/// The full orbit-kernel source compiled for N terms of type `cuda_type`.
pub fn kernel_source(n: usize, cuda_type: &str) -> String {
    ORBITS_PROGRAM.source(n, cuda_type)
}

/// Compiles the orbit kernels for `N` terms of `T` to PTX for `arch` (e.g. `compute_90`),
/// with `--fmad=false`, or returns the cached PTX. Needs NVRTC (not a GPU).
pub fn compile_ptx<T: GpuTerm, const N: usize>(arch: &str) -> Result<String, GpuError> {
    compile_program_ptx::<T, N>(&ORBITS_PROGRAM, arch)
}

/// Compiles `program` for `N` terms of `T` to PTX for `arch` (e.g. `compute_90`), with
/// `--fmad=false --ftz=false --prec-div=true --prec-sqrt=true`, or returns the cached PTX.
/// Needs NVRTC (not a GPU).
pub fn compile_program_ptx<T: GpuTerm, const N: usize>(
    program: &CudaProgram,
    arch: &str,
) -> Result<String, GpuError> {
    compile_program_ptx_for(program, N, T::CUDA_NAME, arch)
}

/// [`compile_program_ptx`] with N and the CUDA term type (`"double"`, `"float"`) as run-time
/// values: compiled once, not once per (T, N) in every calling crate.
pub fn compile_program_ptx_for(
    program: &CudaProgram,
    n: usize,
    cuda_type: &'static str,
    arch: &str,
) -> Result<String, GpuError> {
    if !(1..=expanse_core::MAX_TERMS).contains(&n) || !matches!(cuda_type, "double" | "float") {
        return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
            "program {}: {n} terms of {cuda_type:?} (expected 1..={} terms of \"double\" or \"float\")",
            program.name,
            expanse_core::MAX_TERMS
        ))));
    }
    let key = (program.name, n, cuda_type, arch.to_owned());
    if let Some(p) = ptx_cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
    {
        return Ok(p.clone());
    }
    if !nvrtc_present() {
        return Err(GpuError::new(GpuErrorKind::Unavailable(
            "NVRTC (libnvrtc) was not found on the loader path nor in $CUDA_HOME/lib64 or /usr/local/cuda/lib64".into(),
        )));
    }
    let opts = CompileOptions {
        fmad: Some(false),
        ftz: Some(false),
        prec_div: Some(true),
        prec_sqrt: Some(true),
        arch: Some(leak_arch(arch)),
        // EXPANSE_GPU_NVRTC_OPTS: extra NVRTC options for experiments (e.g. --maxrregcount=N),
        // appended after these; --fmad=false above always stays in force.
        options: std::iter::once("--std=c++17".to_owned())
            .chain(
                std::env::var("EXPANSE_GPU_NVRTC_OPTS")
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter(|o| !o.starts_with("--fmad") && !o.starts_with("-fmad"))
                    .map(str::to_owned),
            )
            .collect(),
        name: Some(format!("expanse_{}_n{n}_{cuda_type}.cu", program.name)),
        ..Default::default()
    };
    let src = program.source(n, cuda_type);
    let what = format!(
        "program {}, N = {n}, {cuda_type} terms, {arch}",
        program.name
    );
    let ptx = compile_ptx_with_opts(&src, opts).map_err(|e| match e {
        CompileError::CompileError { log, options, .. } => GpuError::new(GpuErrorKind::Compile {
            what: format!("{what}, options {options:?}"),
            log: log.to_string_lossy().into_owned(),
        }),
        other => GpuError::new(GpuErrorKind::Compile {
            what: what.clone(),
            log: format!("{other:?}"),
        }),
    })?;
    let text = ptx.to_src();
    // For inspection (ptxas -v, cuobjdump -sass): EXPANSE_GPU_PTX_DIR=<dir> writes each PTX.
    if let Ok(dir) = std::env::var("EXPANSE_GPU_PTX_DIR") {
        let path = std::path::Path::new(&dir)
            .join(format!("{}_n{n}_{cuda_type}_{arch}.ptx", program.name));
        let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(path, &text));
    }
    ptx_cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, text.clone());
    Ok(text)
}

/// What [`GpuContext::run_erased`] brings back: every record, or counts and kept records.
#[derive(Clone, Copy)]
enum RunMode {
    Full,
    Compact,
    Sparse,
}

/// An internal error: a type-erased batch or result was not of the (T, N) it was sent with.
fn type_mismatch() -> GpuError {
    GpuError::new(GpuErrorKind::Driver(
        "internal: batch or result of an unexpected term type or N".into(),
    ))
}

/// The typed result of [`GpuContext::run_erased`].
fn downcast<R: 'static>(b: Box<dyn Any>) -> Result<R, GpuError> {
    b.downcast::<R>().map(|r| *r).map_err(|_| type_mismatch())
}

impl GpuContext {
    /// Every GPU of the host, or why none is usable (no driver, no device, no NVRTC).
    pub fn probe() -> Result<Self, GpuUnavailable> {
        Self::probe_devices(&DeviceSelection::All)
    }

    /// The selected GPUs, or why they are not usable.
    pub fn probe_devices(sel: &DeviceSelection) -> Result<Self, GpuUnavailable> {
        if !driver_present() {
            return Err(GpuUnavailable::new(
                "no CUDA driver: libcuda could not be loaded (no NVIDIA driver on this machine?)",
            ));
        }
        let count = CudaContext::device_count().map_err(|e| {
            GpuUnavailable::new(format!("the CUDA driver reports no usable device ({e:?})"))
        })?;
        if count <= 0 {
            return Err(GpuUnavailable::new("the CUDA driver sees no GPU"));
        }
        let ordinals: Vec<usize> = match sel {
            DeviceSelection::All => (0..count as usize).collect(),
            DeviceSelection::List(v) => {
                if v.is_empty() {
                    return Err(GpuUnavailable::new("--devices: empty list"));
                }
                for &o in v {
                    if o >= count as usize {
                        return Err(GpuUnavailable::new(format!(
                            "--devices: GPU {o} does not exist (this host has {count}: 0..{})",
                            count - 1
                        )));
                    }
                }
                v.clone()
            }
        };
        if !nvrtc_present() {
            return Err(GpuUnavailable::new(
                "NVRTC (libnvrtc) not found on the loader path nor in $CUDA_HOME/lib64 or /usr/local/cuda/lib64: the kernels cannot be compiled",
            ));
        }
        let mut devices = Vec::new();
        for o in ordinals {
            let ctx = CudaContext::new(o).map_err(|e| {
                GpuUnavailable::new(format!("GPU {o}: cannot create a context ({e:?})"))
            })?;
            let info = DeviceInfo {
                ordinal: o,
                name: ctx.name().unwrap_or_else(|_| "unknown GPU".into()),
                compute_capability: ctx.compute_capability().map_err(|e| {
                    GpuUnavailable::new(format!("GPU {o}: no compute capability ({e:?})"))
                })?,
                multiprocessors: ctx
                    .attribute(
                        cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                    )
                    .unwrap_or(0),
                memory: ctx.total_mem().unwrap_or(0),
            };
            let stream = ctx.default_stream();
            devices.push(Device {
                info,
                ctx,
                stream,
                funcs: Mutex::new(HashMap::new()),
                modules: Mutex::new(HashMap::new()),
            });
        }
        Ok(Self { devices })
    }

    /// The GPUs in use.
    pub fn devices(&self) -> Vec<DeviceInfo> {
        self.devices.iter().map(|d| d.info.clone()).collect()
    }

    /// One line naming the GPUs in use.
    pub fn describe(&self) -> String {
        self.devices
            .iter()
            .map(|d| {
                format!(
                    "GPU {} {} (sm_{}{}, {} SMs, {:.0} GiB)",
                    d.info.ordinal,
                    d.info.name,
                    d.info.compute_capability.0,
                    d.info.compute_capability.1,
                    d.info.multiprocessors,
                    d.info.memory as f64 / (1u64 << 30) as f64
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Orbits per batch that keep every GPU in use busy (about 32 waves of full occupancy per
    /// GPU): a search that cuts its work into chunks should give each call at least this many
    /// orbits, and prefer [`Self::run_orbits_compact`] when it only keeps cycles.
    pub fn preferred_batch_orbits(&self) -> u64 {
        self.devices
            .iter()
            .map(|d| d.info.multiprocessors.max(1) as u64 * 2048 * 32)
            .sum()
    }

    /// The NVRTC architecture of GPU `i` of this context (`compute_XY`).
    pub fn arch(&self, i: usize) -> String {
        let (ma, mi) = self.devices[i].info.compute_capability;
        format!("compute_{ma}{mi}")
    }

    /// Number of GPUs in use (their indices in this context are `0..device_count()`).
    pub fn device_count(&self) -> usize {
        self.devices.len()
    }

    /// The CUDA context of GPU `i` of this context.
    pub fn cuda_context(&self, i: usize) -> &Arc<CudaContext> {
        &self.devices[i].ctx
    }

    /// The stream on which this crate launches work on GPU `i` (its default stream).
    pub fn stream(&self, i: usize) -> &Arc<CudaStream> {
        &self.devices[i].stream
    }

    /// The kernel `name` of `program` compiled for N terms of T, loaded on GPU `i`; compiled
    /// (NVRTC) and loaded once per process and device, then taken from the cache.
    pub fn function<T: GpuTerm, const N: usize>(
        &self,
        i: usize,
        program: &CudaProgram,
        name: &str,
    ) -> Result<CudaFunction, GpuError> {
        self.function_for(i, program, name, N, T::CUDA_NAME)
    }

    /// [`Self::function`] with N and the CUDA term type (`"double"`, `"float"`) as run-time
    /// values.
    pub fn function_for(
        &self,
        i: usize,
        program: &CudaProgram,
        name: &str,
        n: usize,
        cuda_type: &'static str,
    ) -> Result<CudaFunction, GpuError> {
        let dev = &self.devices[i];
        let key = (program.name, n, cuda_type);
        let cached = dev
            .modules
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        let module = match cached {
            Some(m) => m,
            None => {
                let (ma, mi) = dev.info.compute_capability;
                let ptx =
                    compile_program_ptx_for(program, n, cuda_type, &format!("compute_{ma}{mi}"))?;
                let m = dev
                    .ctx
                    .load_module(Ptx::from_src(ptx))
                    .map_err(|e| drv(&format!("loading program {}", program.name), e))?;
                dev.modules
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key, m.clone());
                m
            }
        };
        module
            .load_function(name)
            .map_err(|e| drv(&format!("kernel {name} of program {}", program.name), e))
    }

    fn funcs<T: GpuTerm, const N: usize>(&self, dev: &Device) -> Result<FuncPair, GpuError> {
        self.funcs_for(dev, N, T::CUDA_NAME)
    }

    /// The orbit kernels for `n` terms of `cuda_type` on `dev`, compiled and loaded once.
    fn funcs_for(
        &self,
        dev: &Device,
        n: usize,
        cuda_type: &'static str,
    ) -> Result<FuncPair, GpuError> {
        let key = (n, cuda_type);
        if let Some(f) = dev
            .funcs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(f.clone());
        }
        let (ma, mi) = dev.info.compute_capability;
        let ptx =
            compile_program_ptx_for(&ORBITS_PROGRAM, n, cuda_type, &format!("compute_{ma}{mi}"))?;
        let module = dev
            .ctx
            .load_module(Ptx::from_src(ptx))
            .map_err(|e| drv("loading the compiled module", e))?;
        let single = module
            .load_function("orbits_single")
            .map_err(|e| drv("orbits_single", e))?;
        let general = module
            .load_function("orbits_general")
            .map_err(|e| drv("orbits_general", e))?;
        let pair = Arc::new((single, general));
        dev.funcs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, pair.clone());
        Ok(pair)
    }

    /// Compiles (or finds cached) the kernels for N terms of T on every GPU in use.
    pub fn prepare<T: GpuTerm, const N: usize>(&self) -> Result<(), GpuError> {
        for d in &self.devices {
            self.funcs_for(d, N, T::CUDA_NAME)?;
        }
        Ok(())
    }

    /// Runs the contract for orbits `range` of `batch` and returns one record per orbit, in
    /// order. The range is split evenly over the GPUs in use.
    pub fn run_orbits<T: GpuTerm, const N: usize>(
        &self,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
    ) -> Result<Vec<OrbitRecord<T, N>>, GpuError> {
        downcast(self.run_erased(batch, T::CUDA_NAME, N, range, RunMode::Full)?)
    }

    /// Runs the contract for orbits `range` of `batch` and returns the status counts and only
    /// the `Unconfirmed` and `Cycle` records (what a search keeps), with their orbit index.
    pub fn run_orbits_compact<T: GpuTerm, const N: usize>(
        &self,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
    ) -> Result<CompactResult<T, N>, GpuError> {
        downcast(self.run_erased(batch, T::CUDA_NAME, N, range, RunMode::Compact)?)
    }

    /// Like [`Self::run_orbits_compact`], but `kept` also holds the `Escaped` records: every
    /// orbit absent from `kept` is `NoCycle` (steps = transient + p_max by the contract), so a
    /// caller can rebuild per-parameter status counts and the exact sum of steps without
    /// bringing every record back (what `expanse search --backend gpu` uses).
    pub fn run_orbits_sparse<T: GpuTerm, const N: usize>(
        &self,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
    ) -> Result<CompactResult<T, N>, GpuError> {
        downcast(self.run_erased(batch, T::CUDA_NAME, N, range, RunMode::Sparse)?)
    }

    /// The one non-generic entry behind `run_orbits*`: the batch's concrete type is recovered
    /// from (term type, N) and the generic implementation below is instantiated for the 16
    /// (T, N) here, once, instead of in every crate that runs orbits (the search and the
    /// binary's checks and benchmarks each compiled their own copies before).
    fn run_erased(
        &self,
        batch: &dyn Any,
        cuda_type: &'static str,
        n: usize,
        range: Range<u64>,
        mode: RunMode,
    ) -> Result<Box<dyn Any>, GpuError> {
        macro_rules! run_as {
            ($t:ty, $n:literal) => {{
                let batch = batch
                    .downcast_ref::<OrbitBatch<$t, $n>>()
                    .ok_or_else(type_mismatch)?;
                match mode {
                    RunMode::Full => {
                        let parts = self.split(batch, &range)?;
                        let results =
                            self.on_devices(parts, |dev, r| self.run_full(dev, batch, r))?;
                        let v: Vec<OrbitRecord<$t, $n>> = results.into_iter().flatten().collect();
                        Box::new(v) as Box<dyn Any>
                    }
                    RunMode::Compact => Box::new(self.run_kept(batch, range, 1)?) as Box<dyn Any>,
                    RunMode::Sparse => Box::new(self.run_kept(batch, range, 2)?) as Box<dyn Any>,
                }
            }};
        }
        Ok(match (cuda_type, n) {
            ("double", 1) => run_as!(f64, 1),
            ("double", 2) => run_as!(f64, 2),
            ("double", 3) => run_as!(f64, 3),
            ("double", 4) => run_as!(f64, 4),
            ("double", 5) => run_as!(f64, 5),
            ("double", 6) => run_as!(f64, 6),
            ("double", 7) => run_as!(f64, 7),
            ("double", 8) => run_as!(f64, 8),
            ("float", 1) => run_as!(f32, 1),
            ("float", 2) => run_as!(f32, 2),
            ("float", 3) => run_as!(f32, 3),
            ("float", 4) => run_as!(f32, 4),
            ("float", 5) => run_as!(f32, 5),
            ("float", 6) => run_as!(f32, 6),
            ("float", 7) => run_as!(f32, 7),
            ("float", 8) => run_as!(f32, 8),
            _ => return Err(type_mismatch()),
        })
    }

    /// Shared body of the compact (`mode` 1) and sparse (`mode` 2) paths: split over the
    /// devices, add up the status counts, and order the kept records by orbit index.
    fn run_kept<T: GpuTerm, const N: usize>(
        &self,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
        mode: i32,
    ) -> Result<CompactResult<T, N>, GpuError> {
        let parts = self.split(batch, &range)?;
        let results = self.on_devices(parts, |dev, r| self.run_compact(dev, batch, r, mode))?;
        let profile =
            LaunchProfile::concurrent(&results.iter().map(|r| r.profile).collect::<Vec<_>>());
        let mut out = CompactResult {
            counts: [0; 4],
            kept: Vec::new(),
            profile,
        };
        for r in results {
            for s in 0..4 {
                out.counts[s] += r.counts[s];
            }
            out.kept.extend(r.kept);
        }
        // Orbit indices are unique, so an unstable sort gives the one order.
        let t = std::time::Instant::now();
        out.kept.sort_unstable_by_key(|(g, _)| *g);
        out.profile.host_s += t.elapsed().as_secs_f64();
        Ok(out)
    }

    fn split<T: GpuTerm, const N: usize>(
        &self,
        batch: &OrbitBatch<T, N>,
        range: &Range<u64>,
    ) -> Result<Vec<Range<u64>>, GpuError> {
        validate(batch, range)?;
        let n = self.devices.len() as u64;
        let len = range.end - range.start;
        let per = len.div_ceil(n).max(1);
        Ok((0..n)
            .map(|i| {
                let s = (range.start + i * per).min(range.end);
                let e = (s + per).min(range.end);
                s..e
            })
            .collect())
    }

    fn on_devices<R: Send>(
        &self,
        parts: Vec<Range<u64>>,
        f: impl Fn(&Device, Range<u64>) -> Result<R, GpuError> + Sync,
    ) -> Result<Vec<R>, GpuError> {
        if self.devices.len() == 1 {
            return Ok(vec![f(&self.devices[0], parts[0].clone())?]);
        }
        std::thread::scope(|sc| {
            let handles: Vec<_> = self
                .devices
                .iter()
                .zip(parts)
                .map(|(d, r)| {
                    let f = &f;
                    sc.spawn(move || f(d, r))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GpuError::new(GpuErrorKind::Driver(
                            "a device thread panicked".into(),
                        )))
                    })
                })
                .collect()
        })
    }

    fn upload<T: GpuTerm, const N: usize>(
        dev: &Device,
        batch: &OrbitBatch<T, N>,
    ) -> Result<[CudaSlice<T>; 4], GpuError> {
        let interleave = |v: &[Expansion<T, N>]| -> Vec<T> {
            let n = v.len();
            let mut out = vec![T::ZERO; n * N];
            for (i, e) in v.iter().enumerate() {
                for (k, t) in e.terms().iter().enumerate() {
                    out[k * n + i] = *t;
                }
            }
            out
        };
        let x0: Vec<Expansion<T, N>> = batch.x0.iter().map(|&v| Expansion::from_f64(v)).collect();
        let y0: Vec<Expansion<T, N>> = batch.y0.iter().map(|&v| Expansion::from_f64(v)).collect();
        let s = &dev.stream;
        Ok([
            s.clone_htod(&interleave(&batch.a))
                .map_err(|e| drv("upload a", e))?,
            s.clone_htod(&interleave(&batch.b))
                .map_err(|e| drv("upload b", e))?,
            s.clone_htod(&interleave(&x0))
                .map_err(|e| drv("upload x0", e))?,
            s.clone_htod(&interleave(&y0))
                .map_err(|e| drv("upload y0", e))?,
        ])
    }

    /// Orbits per launch: bounded so one launch's records fit comfortably in memory.
    fn chunk_len<const N: usize>(dev: &Device, compact: bool) -> u64 {
        let sms = dev.info.multiprocessors.max(1) as u64;
        if compact {
            sms * 2048 * 64
        } else {
            // Records are 40 + 16·N bytes (f64): 2^24 of them stay under 3 GiB.
            (sms * 2048 * 32).min(1 << 24)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn launch<T: GpuTerm, const N: usize>(
        &self,
        dev: &Device,
        batch: &OrbitBatch<T, N>,
        inputs: &[CudaSlice<T>; 4],
        first: u64,
        count: u64,
        compact: i32,
        capacity: u64,
        bufs: &mut Buffers<T>,
    ) -> Result<(), GpuError> {
        let funcs = self.funcs::<T, N>(dev)?;
        let single = batch.a.iter().all(|a| a.is_single_term())
            && batch.b.iter().all(|b| b.is_single_term());
        let f = if single { &funcs.0 } else { &funcs.1 };
        let s = &batch.settings;
        let n_param = batch.a.len() as u64;
        let n_init = batch.x0.len() as u64;
        let tol = T::from_f64(s.tol);
        let esc = T::from_f64(s.escape);
        let compact_i: i32 = compact;
        let cfg = LaunchConfig {
            grid_dim: (count.div_ceil(BLOCK as u64) as u32, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = dev.stream.launch_builder(f);
        b.arg(&inputs[0]);
        b.arg(&inputs[1]);
        b.arg(&n_param);
        b.arg(&inputs[2]);
        b.arg(&inputs[3]);
        b.arg(&n_init);
        b.arg(&first);
        b.arg(&count);
        b.arg(&s.transient);
        b.arg(&s.pmax);
        b.arg(&tol);
        b.arg(&esc);
        b.arg(&compact_i);
        b.arg(&capacity);
        b.arg(&mut bufs.status);
        b.arg(&mut bufs.period);
        b.arg(&mut bufs.steps);
        b.arg(&mut bufs.residual);
        b.arg(&mut bufs.trace);
        b.arg(&mut bufs.det);
        b.arg(&mut bufs.x);
        b.arg(&mut bufs.y);
        b.arg(&mut bufs.index);
        b.arg(&mut bufs.counters);
        // SAFETY: the argument list matches ORBITS_ARGS in cuda/orbits.cu; every buffer holds at
        // least `capacity` (records) or 8 (counters) elements and the grid covers `count`.
        unsafe { b.launch(cfg) }.map_err(|e| drv("launching the orbit kernel", e))?;
        Ok(())
    }

    fn records<T: GpuTerm, const N: usize>(
        dev: &Device,
        bufs: &Buffers<T>,
        n: usize,
        capacity: usize,
    ) -> Result<Vec<OrbitRecord<T, N>>, GpuError> {
        Ok(Self::records_timed::<T, N>(dev, bufs, n, capacity)?.0)
    }

    /// [`Self::records`] and the seconds spent downloading (the rest is host assembly).
    fn records_timed<T: GpuTerm, const N: usize>(
        dev: &Device,
        bufs: &Buffers<T>,
        n: usize,
        capacity: usize,
    ) -> Result<(Vec<OrbitRecord<T, N>>, f64), GpuError> {
        // Only the first n records come back (a launch writes records 0..n; the buffers hold
        // `capacity`): term k of record i is at k·capacity + i, so each term is one slice.
        let t = std::time::Instant::now();
        let s = &dev.stream;
        let dl = |e| drv("download", e);
        let status: Vec<u32> = s.clone_dtoh(&bufs.status.slice(..n)).map_err(dl)?;
        let period: Vec<u32> = s.clone_dtoh(&bufs.period.slice(..n)).map_err(dl)?;
        let steps: Vec<u64> = s.clone_dtoh(&bufs.steps.slice(..n)).map_err(dl)?;
        let residual: Vec<f64> = s.clone_dtoh(&bufs.residual.slice(..n)).map_err(dl)?;
        let trace: Vec<f64> = s.clone_dtoh(&bufs.trace.slice(..n)).map_err(dl)?;
        let det: Vec<f64> = s.clone_dtoh(&bufs.det.slice(..n)).map_err(dl)?;
        let mut xs: Vec<Vec<T>> = Vec::with_capacity(N);
        let mut ys: Vec<Vec<T>> = Vec::with_capacity(N);
        for k in 0..N {
            let range = k * capacity..k * capacity + n;
            xs.push(s.clone_dtoh(&bufs.x.slice(range.clone())).map_err(dl)?);
            ys.push(s.clone_dtoh(&bufs.y.slice(range)).map_err(dl)?);
        }
        let download_s = t.elapsed().as_secs_f64();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let status = OrbitStatus::from_code(status[i]).ok_or_else(|| {
                GpuError::new(GpuErrorKind::Driver(format!(
                    "the kernel wrote an invalid status {} for record {i}",
                    status[i]
                )))
            })?;
            let mut x = [T::ZERO; N];
            let mut y = [T::ZERO; N];
            for k in 0..N {
                x[k] = xs[k][i];
                y[k] = ys[k][i];
            }
            out.push(OrbitRecord {
                status,
                steps: steps[i],
                period: period[i],
                residual: residual[i],
                trace: trace[i],
                det: det[i],
                x,
                y,
            });
        }
        Ok((out, download_s))
    }

    fn run_full<T: GpuTerm, const N: usize>(
        &self,
        dev: &Device,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
    ) -> Result<Vec<OrbitRecord<T, N>>, GpuError> {
        dev.ctx
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let total = range.end - range.start;
        let mut out = Vec::with_capacity(total as usize);
        if total == 0 {
            return Ok(out);
        }
        let inputs = Self::upload(dev, batch)?;
        let chunk = Self::chunk_len::<N>(dev, false).min(total);
        let mut bufs = Buffers::<T>::new(&dev.stream, chunk as usize, N)?;
        let mut first = range.start;
        while first < range.end {
            let count = chunk.min(range.end - first);
            self.launch::<T, N>(dev, batch, &inputs, first, count, 0, chunk, &mut bufs)?;
            let recs = Self::records::<T, N>(dev, &bufs, count as usize, chunk as usize)?;
            out.extend(recs);
            first += count;
        }
        Ok(out)
    }

    fn run_compact<T: GpuTerm, const N: usize>(
        &self,
        dev: &Device,
        batch: &OrbitBatch<T, N>,
        range: Range<u64>,
        mode: i32,
    ) -> Result<CompactResult<T, N>, GpuError> {
        dev.ctx
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))?;
        let mut out = CompactResult {
            counts: [0; 4],
            kept: Vec::new(),
            profile: LaunchProfile {
                block_threads: BLOCK,
                multiprocessors: dev.info.multiprocessors.max(1) as u64,
                ..Default::default()
            },
        };
        let total = range.end - range.start;
        if total == 0 {
            return Ok(out);
        }
        let clock = std::time::Instant::now;
        let prof = &mut out.profile;
        let t = clock();
        // Compiled and loaded here on first use (then cached), so the launch below is not
        // charged with it.
        self.funcs::<T, N>(dev)?;
        prof.setup_s += t.elapsed().as_secs_f64();
        let t = clock();
        let inputs = Self::upload(dev, batch)?;
        dev.stream
            .synchronize()
            .map_err(|e| drv("uploading the batch", e))?;
        prof.upload_s += t.elapsed().as_secs_f64();
        let chunk = Self::chunk_len::<N>(dev, true).min(total);
        // Room for every orbit of a launch: a search in a region full of sinks keeps most of
        // its orbits (a ∈ [1.2, 1.3] at b = 0.3: more than a quarter), and an overflow means
        // running the whole launch again with full records (the search then ran at half the
        // kernel's rate). Device memory: chunk × (48 + 16·N) bytes, under 3 GiB at N = 8 on
        // a 132-SM GPU; only the kept records are downloaded.
        let capacity = chunk.max(1);
        let mut bufs = Buffers::<T>::new(&dev.stream, capacity as usize, N)?;
        let mut first = range.start;
        while first < range.end {
            let count = chunk.min(range.end - first);
            let prof = &mut out.profile;
            let t = clock();
            dev.stream
                .memset_zeros(&mut bufs.counters)
                .map_err(|e| drv("clearing counters", e))?;
            self.launch::<T, N>(dev, batch, &inputs, first, count, mode, capacity, &mut bufs)?;
            dev.stream
                .synchronize()
                .map_err(|e| drv("running the orbit kernel", e))?;
            prof.kernel_s += t.elapsed().as_secs_f64();
            prof.launches += 1;
            prof.orbits += count;
            prof.max_launch_orbits = prof.max_launch_orbits.max(count);
            let t = clock();
            let counters: Vec<u64> = dev
                .stream
                .clone_dtoh(&bufs.counters)
                .map_err(|e| drv("download", e))?;
            prof.download_s += t.elapsed().as_secs_f64();
            for (c, n) in out.counts.iter_mut().zip(&counters[..4]) {
                *c += n;
            }
            for (c, n) in prof.phase_cycles.iter_mut().zip(&counters[5..8]) {
                *c = c.saturating_add(*n);
            }
            let kept = counters[4];
            if kept > capacity {
                // More interesting orbits than slots: redo this chunk with full records.
                let t = clock();
                let recs = self.run_full(dev, batch, first..first + count)?;
                out.profile.kernel_s += t.elapsed().as_secs_f64();
                out.profile.launches += 1;
                for (j, r) in recs.into_iter().enumerate() {
                    let keep = match r.status {
                        OrbitStatus::Cycle | OrbitStatus::Unconfirmed => true,
                        OrbitStatus::Escaped => mode == 2,
                        OrbitStatus::NoCycle => false,
                    };
                    if keep {
                        out.kept.push((first + j as u64, r));
                    }
                }
            } else if kept > 0 {
                let t = clock();
                let (recs, dl) =
                    Self::records_timed::<T, N>(dev, &bufs, kept as usize, capacity as usize)?;
                out.profile.host_s += t.elapsed().as_secs_f64() - dl;
                let t = clock();
                let index: Vec<u64> = dev
                    .stream
                    .clone_dtoh(&bufs.index.slice(..kept as usize))
                    .map_err(|e| drv("download", e))?;
                let prof = &mut out.profile;
                prof.download_s += dl + t.elapsed().as_secs_f64();
                let t = clock();
                out.kept
                    .extend(index.into_iter().take(kept as usize).zip(recs));
                out.profile.host_s += t.elapsed().as_secs_f64();
            }
            first += count;
        }
        Ok(out)
    }
}

/// Device buffers for one launch's records.
struct Buffers<T: GpuTerm> {
    status: CudaSlice<u32>,
    period: CudaSlice<u32>,
    steps: CudaSlice<u64>,
    residual: CudaSlice<f64>,
    trace: CudaSlice<f64>,
    det: CudaSlice<f64>,
    x: CudaSlice<T>,
    y: CudaSlice<T>,
    index: CudaSlice<u64>,
    counters: CudaSlice<u64>,
}

impl<T: GpuTerm> Buffers<T> {
    fn new(s: &Arc<CudaStream>, cap: usize, n: usize) -> Result<Self, GpuError> {
        let a = |what: &str, e| drv(&format!("allocating {what} for {cap} records"), e);
        Ok(Self {
            status: s.alloc_zeros(cap).map_err(|e| a("status", e))?,
            period: s.alloc_zeros(cap).map_err(|e| a("period", e))?,
            steps: s.alloc_zeros(cap).map_err(|e| a("steps", e))?,
            residual: s.alloc_zeros(cap).map_err(|e| a("residual", e))?,
            trace: s.alloc_zeros(cap).map_err(|e| a("trace", e))?,
            det: s.alloc_zeros(cap).map_err(|e| a("det", e))?,
            x: s.alloc_zeros(cap * n).map_err(|e| a("x", e))?,
            y: s.alloc_zeros(cap * n).map_err(|e| a("y", e))?,
            index: s.alloc_zeros(cap).map_err(|e| a("index", e))?,
            // [escaped, no-cycle, unconfirmed, cycle, kept, transient, close-return and
            // confirmation cycles] (ORBITS_ARGS in cuda/orbits.cu).
            counters: s.alloc_zeros(8).map_err(|e| a("counters", e))?,
        })
    }
}

/// Checks a batch and a range before anything touches a device.
pub fn validate<T: FloatTerm, const N: usize>(
    batch: &OrbitBatch<T, N>,
    range: &Range<u64>,
) -> Result<(), GpuError> {
    let bad = |m: String| Err(GpuError::new(GpuErrorKind::InvalidInput(m)));
    if batch.a.len() != batch.b.len() {
        return bad(format!(
            "{} values of a but {} of b",
            batch.a.len(),
            batch.b.len()
        ));
    }
    if batch.x0.len() != batch.y0.len() {
        return bad(format!(
            "{} initial x but {} initial y",
            batch.x0.len(),
            batch.y0.len()
        ));
    }
    if range.start > range.end || range.end > batch.len() {
        return bad(format!(
            "orbit range {}..{} outside the batch of {} orbits",
            range.start,
            range.end,
            batch.len()
        ));
    }
    let s = &batch.settings;
    if s.pmax == 0 {
        return bad("pmax must be at least 1".into());
    }
    if !(s.tol > 0.0 && s.tol.is_finite()) {
        return bad(format!("tol must be positive and finite, got {}", s.tol));
    }
    if !(s.escape > 0.0 && s.escape.is_finite()) {
        return bad(format!(
            "escape bound must be positive and finite, got {}",
            s.escape
        ));
    }
    Ok(())
}
