//! The device backend of the array layer: buffers, launches and the launch sequences of every
//! primitive and BLAS routine (the kernels are `cuda/arrays.cu` and `cuda/blas.cu`, after the
//! accurate tier `cuda/accurate.cu`, in one [`ARRAYS_PROGRAM`]).
//!
//! The backend talks to a device through the small [`KernelExec`] interface (allocate, copy,
//! launch a kernel by name with plain arguments). [`CudaExec`] implements it on a CUDA device
//! through cudarc; the tests implement it with the host build of the same CUDA source
//! (`tests/it/arrays_on_cpu.rs`), so the launch sequences below — tiling, the multi-pass
//! reductions, the single-pass scan, the merge passes of the sort — are checked bit for bit
//! against the host backend without a GPU.

use super::bound::Consts;
use super::host::{gemm_range_ok, GemmArgs, GemvArgs};
use super::{
    exp_of_terms, invalid, BinOp, Cmp, HostData, PlainElem, Raw, RedOp, RedOut, Sc, Store,
    TermKind, TermOp, UnOp, GEMV_CHUNK, RED_TILE, SCAN_TILE,
};
use crate::array::blas::HostMatrix;
use crate::device::{drv, CudaProgram, GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind};
use cudarc::driver::{CudaFunction, CudaSlice, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg};
use expanse_core::Expansion;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering as AtOrd};
use std::sync::{Arc, Mutex};

/// The array program: the accurate tier, then the primitives and the BLAS kernels.
pub const ARRAYS_PROGRAM: CudaProgram = CudaProgram {
    name: "arrays",
    parts: &[
        include_str!("../cuda/accurate.cu"),
        include_str!("../cuda/arrays.cu"),
        include_str!("../cuda/blas.cu"),
    ],
};

/// Threads per block of every array kernel (`ARR_BLOCK` in cuda/arrays.cu).
pub const BLOCK: u32 = 256;

/// A kernel argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KArg {
    /// A buffer and a byte offset into it (a device pointer).
    Buf(u64, usize),
    /// `unsigned long long`.
    U64(u64),
    /// `int`.
    I32(i32),
    /// `double`.
    F64(f64),
    /// An expansion of up to 8 terms widened to `double` (`struct Sc` in cuda/arrays.cu).
    Sc([f64; 8]),
    /// The bound constants (`struct BC`, [`Consts::to_array`]).
    Bc([f64; 16]),
}

/// What the device backend needs from a device: memory and launches of the kernels of
/// [`ARRAYS_PROGRAM`] by name. Buffers are named by ids the executor hands out. Operations on
/// one executor are ordered (one stream).
pub trait KernelExec: Send + Sync {
    /// One line naming the device.
    fn describe(&self) -> String;
    /// Streaming multiprocessors (for grid sizes).
    fn multiprocessors(&self) -> u32;
    /// Device memory in bytes (for tiling).
    fn memory_bytes(&self) -> usize;
    /// A new buffer of `bytes` bytes (contents unspecified).
    fn alloc(&self, bytes: usize) -> Result<u64, GpuError>;
    /// Frees a buffer.
    fn free(&self, buf: u64);
    /// Sets `bytes` bytes at `offset` to zero.
    fn zero(&self, buf: u64, offset: usize, bytes: usize) -> Result<(), GpuError>;
    /// Copies host bytes into a buffer at `offset`.
    fn upload(&self, buf: u64, offset: usize, data: &[u8]) -> Result<(), GpuError>;
    /// Copies bytes at `offset` of a buffer to the host (waits for earlier work).
    fn download(&self, buf: u64, offset: usize, out: &mut [u8]) -> Result<(), GpuError>;
    /// Copies between buffers of this device.
    fn copy(
        &self,
        dst: u64,
        dst_offset: usize,
        src: u64,
        src_offset: usize,
        bytes: usize,
    ) -> Result<(), GpuError>;
    /// Launches kernel `name` of `program` (normally [`ARRAYS_PROGRAM`]; the elementary
    /// functions come from [`crate::functions::functions_program`]) compiled for `n` terms of
    /// `kind`, on a 1-D grid. An executor may refuse a program it does not have.
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        program: &'static CudaProgram,
        kind: TermKind,
        n: usize,
        name: &str,
        grid: u32,
        block: u32,
        args: &[KArg],
    ) -> Result<(), GpuError>;
    /// Waits for all launched work.
    fn synchronize(&self) -> Result<(), GpuError>;
}

// ---- bytes ----------------------------------------------------------------------------------

/// The bytes of a slice of plain numbers (f64, f32, u32, u64: no padding, every bit pattern
/// valid).
fn bytes_of<U: Copy>(v: &[U]) -> &[u8] {
    // SAFETY: U is one of the plain number types above; the slice is valid for its byte length.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// Plain numbers from their bytes.
fn vec_from_bytes<U: Copy + Default>(b: &[u8]) -> Vec<U> {
    let sz = std::mem::size_of::<U>();
    let n = b.len() / sz;
    let mut out = vec![U::default(); n];
    // SAFETY: `out` holds n·sz bytes; U is a plain number type (any bit pattern valid).
    unsafe {
        std::ptr::copy_nonoverlapping(b.as_ptr(), out.as_mut_ptr() as *mut u8, n * sz);
    }
    out
}

// ---- buffers --------------------------------------------------------------------------------

/// A device buffer, freed on drop.
pub(crate) struct DevBuf {
    pub exec: Arc<dyn KernelExec>,
    pub dev: usize,
    pub id: u64,
    pub bytes: usize,
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        self.exec.free(self.id);
    }
}

impl DevBuf {
    pub(crate) fn arg(&self) -> KArg {
        KArg::Buf(self.id, 0)
    }

    pub(crate) fn download_terms(
        &self,
        kind: TermKind,
        count: usize,
    ) -> Result<HostData, GpuError> {
        let mut b = vec![0u8; count * kind.size()];
        self.exec.download(self.id, 0, &mut b)?;
        Ok(match kind {
            TermKind::F64 => HostData::F64(vec_from_bytes(&b)),
            TermKind::F32 => HostData::F32(vec_from_bytes(&b)),
        })
    }

    pub(crate) fn download_plain<U: PlainElem>(&self, len: usize) -> Result<Vec<U>, GpuError> {
        let mut b = vec![0u8; len * U::SIZE];
        self.exec.download(self.id, 0, &mut b)?;
        Ok(b.chunks_exact(U::SIZE).map(U::from_le).collect())
    }

    fn download_f64(&self, offset: usize, len: usize) -> Result<Vec<f64>, GpuError> {
        let mut b = vec![0u8; len * 8];
        self.exec.download(self.id, offset * 8, &mut b)?;
        Ok(vec_from_bytes(&b))
    }

    pub(crate) fn duplicate(&self) -> Result<DevBuf, GpuError> {
        let id = self.exec.alloc(self.bytes.max(8))?;
        let b = DevBuf {
            exec: self.exec.clone(),
            dev: self.dev,
            id,
            bytes: self.bytes,
        };
        if self.bytes > 0 {
            self.exec.copy(id, 0, self.id, 0, self.bytes)?;
        }
        Ok(b)
    }
}

// ---- the backend ----------------------------------------------------------------------------

pub(crate) struct DeviceBackend {
    pub execs: Vec<Arc<dyn KernelExec>>,
}

/// The program instance (term type, N) a launch uses.
#[derive(Clone, Copy)]
struct Inst {
    kind: TermKind,
    n: usize,
}

fn inst(r: &Raw) -> Inst {
    Inst {
        kind: r.kind,
        n: r.n,
    }
}

fn dbuf(r: &Raw) -> &DevBuf {
    match &r.store {
        Store::Dev(b) => b,
        Store::Host(_) => unreachable!("host array given to the device backend"),
    }
}

fn sc_arg(s: &Sc) -> KArg {
    KArg::Sc(*s)
}

fn bc_arg(kind: TermKind, n: usize) -> KArg {
    let c = match kind {
        TermKind::F64 => Consts::new::<f64>(n),
        TermKind::F32 => Consts::new::<f32>(n),
    };
    KArg::Bc(c.to_array())
}

fn consts(kind: TermKind, n: usize) -> Consts {
    match kind {
        TermKind::F64 => Consts::new::<f64>(n),
        TermKind::F32 => Consts::new::<f32>(n),
    }
}

/// The GEMM block tile (rows, columns) of one thread block for N terms of `kind`:
/// `GEMM_BM`, `GEMM_BN` in cuda/blas.cu.
pub fn gemm_block_tile(kind: TermKind, n: usize) -> (usize, usize) {
    let _ = kind;
    match n {
        1 | 2 => (32, 32),
        3 | 4 => (32, 16),
        _ => (16, 16),
    }
}

impl DeviceBackend {
    pub(crate) fn new(execs: Vec<Arc<dyn KernelExec>>) -> Self {
        Self { execs }
    }

    pub(crate) fn from_context(ctx: GpuContext) -> Self {
        let ctx = Arc::new(ctx);
        let execs = (0..ctx.device_count())
            .map(|i| Arc::new(CudaExec::new(ctx.clone(), i)) as Arc<dyn KernelExec>)
            .collect();
        Self { execs }
    }

    pub(crate) fn describe(&self) -> String {
        self.execs
            .iter()
            .map(|e| e.describe())
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn exec(&self, dev: usize) -> Result<&Arc<dyn KernelExec>, GpuError> {
        self.execs.get(dev).ok_or_else(|| {
            invalid(format!(
                "GPU {dev} is not part of this backend ({} GPUs)",
                self.execs.len()
            ))
        })
    }

    fn alloc(&self, dev: usize, bytes: usize) -> Result<DevBuf, GpuError> {
        let exec = self.exec(dev)?.clone();
        let id = exec.alloc(bytes.max(8))?;
        Ok(DevBuf {
            exec,
            dev,
            id,
            bytes,
        })
    }

    fn alloc_zeroed(&self, dev: usize, bytes: usize) -> Result<DevBuf, GpuError> {
        let b = self.alloc(dev, bytes)?;
        if bytes > 0 {
            b.exec.zero(b.id, 0, bytes)?;
        }
        Ok(b)
    }

    pub(crate) fn upload_terms(&self, dev: usize, h: &HostData) -> Result<DevBuf, GpuError> {
        let bytes = match h {
            HostData::F64(v) => bytes_of(v),
            HostData::F32(v) => bytes_of(v),
        };
        let b = self.alloc(dev, bytes.len())?;
        if !bytes.is_empty() {
            b.exec.upload(b.id, 0, bytes)?;
        }
        Ok(b)
    }

    pub(crate) fn upload_plain<U: PlainElem>(
        &self,
        dev: usize,
        xs: &[U],
    ) -> Result<DevBuf, GpuError> {
        let mut bytes = Vec::with_capacity(xs.len() * U::SIZE);
        for &x in xs {
            x.to_le(&mut bytes);
        }
        let b = self.alloc(dev, bytes.len())?;
        if !bytes.is_empty() {
            b.exec.upload(b.id, 0, &bytes)?;
        }
        Ok(b)
    }

    fn new_raw(&self, like: &Raw, dev: usize, len: usize) -> Result<Raw, GpuError> {
        Ok(Raw {
            kind: like.kind,
            n: like.n,
            len,
            store: Store::Dev(self.alloc(dev, len * like.n * like.kind.size())?),
        })
    }

    /// Blocks for a grid-stride loop over `len` items.
    fn grid(&self, dev: usize, len: usize) -> u32 {
        let sms = self.execs[dev].multiprocessors().max(1) as usize;
        (len.div_ceil(BLOCK as usize)).clamp(1, sms * 16) as u32
    }

    fn launch(
        &self,
        like: Inst,
        dev: usize,
        name: &str,
        grid: u32,
        args: &[KArg],
    ) -> Result<(), GpuError> {
        if grid == 0 {
            return Ok(());
        }
        self.execs[dev].launch(&ARRAYS_PROGRAM, like.kind, like.n, name, grid, BLOCK, args)
    }

    // ---- map --------------------------------------------------------------------------------

    pub(crate) fn map_binary(&self, op: BinOp, a: &Raw, b: &Raw) -> Result<Raw, GpuError> {
        let out = self.new_raw(a, dbuf(a).dev, a.len)?;
        self.map_binary_into(op, a, b, &out)?;
        Ok(out)
    }

    /// `out ← a op b` into an existing buffer (same device and length).
    pub(crate) fn map_binary_into(
        &self,
        op: BinOp,
        a: &Raw,
        b: &Raw,
        out: &Raw,
    ) -> Result<(), GpuError> {
        let (ab, bb) = (dbuf(a), dbuf(b));
        let dev = ab.dev;
        let name = match op {
            BinOp::Add => "arr_add",
            BinOp::Sub => "arr_sub",
            BinOp::Mul => "arr_mul",
            BinOp::Div => "arr_div",
        };
        if a.len > 0 {
            self.launch(
                inst(a),
                dev,
                name,
                self.grid(dev, a.len),
                &[ab.arg(), bb.arg(), dbuf(out).arg(), KArg::U64(a.len as u64)],
            )?;
        }
        Ok(())
    }

    /// A zeroed buffer of `bytes` bytes on GPU `dev`.
    pub(crate) fn zeros(&self, dev: usize, bytes: usize) -> Result<DevBuf, GpuError> {
        self.alloc_zeroed(dev, bytes)
    }

    pub(crate) fn map_unary(&self, op: UnOp, a: &Raw) -> Result<Raw, GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        let out = self.new_raw(a, dev, a.len)?;
        let name = match op {
            UnOp::Neg => "arr_neg",
            UnOp::Abs => "arr_abs",
            UnOp::Sqr => "arr_sqr",
            UnOp::Sqrt => "arr_sqrt",
            UnOp::Recip => "arr_recip",
        };
        if a.len > 0 {
            self.launch(
                inst(a),
                dev,
                name,
                self.grid(dev, a.len),
                &[ab.arg(), dbuf(&out).arg(), KArg::U64(a.len as u64)],
            )?;
        }
        Ok(out)
    }

    pub(crate) fn map_term(&self, op: TermOp, a: &Raw, t: f64) -> Result<Raw, GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        let out = self.new_raw(a, dev, a.len)?;
        let name = match op {
            TermOp::Add => "arr_add_term",
            TermOp::Mul => "arr_mul_term",
            TermOp::Div => "arr_div_term",
        };
        if a.len > 0 {
            self.launch(
                inst(a),
                dev,
                name,
                self.grid(dev, a.len),
                &[
                    ab.arg(),
                    KArg::F64(t),
                    dbuf(&out).arg(),
                    KArg::U64(a.len as u64),
                ],
            )?;
        }
        Ok(out)
    }

    /// An elementary function on every element: the kernel `fn_unary` of the functions program
    /// (bit-identical to expanse-core's functions, as `expanse bench functions --check` shows).
    pub(crate) fn map_fn(
        &self,
        f: expanse_core::functions::Unary,
        a: &Raw,
    ) -> Result<Raw, GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        let out = self.new_raw(a, dev, a.len)?;
        if a.len > 0 {
            let program = match a.kind {
                TermKind::F64 => crate::functions::functions_program::<f64>(),
                TermKind::F32 => crate::functions::functions_program::<f32>(),
            };
            self.execs[dev].launch(
                program,
                a.kind,
                a.n,
                "fn_unary",
                a.len.div_ceil(BLOCK as usize) as u32,
                BLOCK,
                &[
                    KArg::I32(crate::functions::unary_id(f)),
                    ab.arg(),
                    dbuf(&out).arg(),
                    KArg::U64(a.len as u64),
                ],
            )?;
        }
        Ok(out)
    }

    // ---- reduce -----------------------------------------------------------------------------

    pub(crate) fn reduce(
        &self,
        op: RedOp,
        a: &Raw,
        b: Option<&Raw>,
    ) -> Result<Option<RedOut>, GpuError> {
        if a.len == 0 {
            return Ok(None);
        }
        let ab = dbuf(a);
        let dev = ab.dev;
        let y = b.map(dbuf).unwrap_or(ab);
        let (first, next) = match op {
            RedOp::Sum => ("arr_red_sum", "arr_red_sum_next"),
            RedOp::Dot => ("arr_red_dot", "arr_red_sum_next"),
            RedOp::SumSq => ("arr_red_sumsq", "arr_red_sum_next"),
            RedOp::Min => ("arr_red_min", "arr_red_min_next"),
            RedOp::Max => ("arr_red_max", "arr_red_max_next"),
            RedOp::SumAcc => ("arr_red_sumacc", "arr_red_sumacc_next"),
        };
        // Partial results have the accumulator's terms.
        let terms = if op == RedOp::SumAcc {
            super::acc_terms(a.n)
        } else {
            a.n
        };
        let part_raw = |len: usize| -> Result<Raw, GpuError> {
            Ok(Raw {
                kind: a.kind,
                n: terms,
                len,
                store: Store::Dev(self.alloc(dev, len * terms * a.kind.size())?),
            })
        };
        let len = a.len;
        let tiles = len.div_ceil(RED_TILE);
        let part = part_raw(tiles)?;
        let aux = self.alloc(dev, tiles * 3 * 8)?;
        self.launch(
            inst(a),
            dev,
            first,
            tiles as u32,
            &[
                ab.arg(),
                y.arg(),
                KArg::U64(len as u64),
                dbuf(&part).arg(),
                aux.arg(),
                KArg::U64(tiles as u64),
            ],
        )?;
        self.reduce_passes(inst(a), dev, next, terms, tiles, part, aux)
    }

    /// The passes of a reduction after the first: tile partials (`terms` terms) reduced by
    /// kernel `next` until one remains, then downloaded.
    #[allow(clippy::too_many_arguments)]
    fn reduce_passes(
        &self,
        like: Inst,
        dev: usize,
        next: &str,
        terms: usize,
        mut tiles: usize,
        mut part: Raw,
        mut aux: DevBuf,
    ) -> Result<Option<RedOut>, GpuError> {
        let kind = like.kind;
        let part_raw = |len: usize| -> Result<Raw, GpuError> {
            Ok(Raw {
                kind,
                n: terms,
                len,
                store: Store::Dev(self.alloc(dev, len * terms * kind.size())?),
            })
        };
        while tiles > 1 {
            let len = tiles;
            tiles = len.div_ceil(RED_TILE);
            let npart = part_raw(tiles)?;
            let naux = self.alloc(dev, tiles * 3 * 8)?;
            self.launch(
                like,
                dev,
                next,
                tiles as u32,
                &[
                    dbuf(&part).arg(),
                    aux.arg(),
                    KArg::U64(len as u64),
                    dbuf(&npart).arg(),
                    naux.arg(),
                    KArg::U64(tiles as u64),
                ],
            )?;
            part = npart;
            aux = naux;
        }
        let got = dbuf(&part).download_terms(kind, terms)?;
        let mut value = [0.0; 8];
        match got {
            HostData::F64(v) => value[..terms].copy_from_slice(&v),
            HostData::F32(v) => {
                for (k, t) in v.iter().enumerate() {
                    value[k] = *t as f64;
                }
            }
        }
        let x = aux.download_f64(0, 3)?;
        Ok(Some(RedOut {
            value,
            a: x[0],
            p: x[1],
            l: x[2],
        }))
    }

    // ---- index-generated data (array::indexed) ------------------------------------------------

    /// The elements of `map` on GPU 0 (`arr_gen_fill`).
    pub(crate) fn gen_fill(
        &self,
        map: &super::IndexMap,
        kind: TermKind,
        n: usize,
        len: usize,
    ) -> Result<Raw, GpuError> {
        let like = Inst { kind, n };
        let out = Raw {
            kind,
            n,
            len,
            store: Store::Dev(self.alloc(0, len * n * kind.size())?),
        };
        if len > 0 {
            let (gen, d, p0, p1) = map.kernel_args();
            self.launch(
                like,
                0,
                "arr_gen_fill",
                self.grid(0, len),
                &[
                    KArg::I32(gen),
                    KArg::Sc(d),
                    KArg::U64(p0),
                    KArg::U64(p1),
                    dbuf(&out).arg(),
                    KArg::U64(len as u64),
                ],
            )?;
        }
        Ok(out)
    }

    /// Σ of the elements of `map` on GPU 0 (`arr_gen_red_sum` or, with `acc`,
    /// `arr_gen_red_sumacc`, then the ordinary passes).
    pub(crate) fn gen_reduce(
        &self,
        map: &super::IndexMap,
        kind: TermKind,
        n: usize,
        len: usize,
        acc: bool,
    ) -> Result<Option<RedOut>, GpuError> {
        if len == 0 {
            return Ok(None);
        }
        let like = Inst { kind, n };
        let terms = if acc { super::acc_terms(n) } else { n };
        let tiles = len.div_ceil(RED_TILE);
        let part = Raw {
            kind,
            n: terms,
            len: tiles,
            store: Store::Dev(self.alloc(0, tiles * terms * kind.size())?),
        };
        let aux = self.alloc(0, tiles * 3 * 8)?;
        let (gen, d, p0, p1) = map.kernel_args();
        self.launch(
            like,
            0,
            if acc {
                "arr_gen_red_sumacc"
            } else {
                "arr_gen_red_sum"
            },
            tiles as u32,
            &[
                KArg::I32(gen),
                KArg::Sc(d),
                KArg::U64(p0),
                KArg::U64(p1),
                KArg::U64(len as u64),
                dbuf(&part).arg(),
                aux.arg(),
                KArg::U64(tiles as u64),
            ],
        )?;
        let next = if acc {
            "arr_red_sumacc_next"
        } else {
            "arr_red_sum_next"
        };
        self.reduce_passes(like, 0, next, terms, tiles, part, aux)
    }

    /// max |x₀| over an array.
    fn amax(&self, a: &Raw) -> Result<f64, GpuError> {
        if a.len == 0 {
            return Ok(0.0);
        }
        let ab = dbuf(a);
        let dev = ab.dev;
        let blocks = a.len.div_ceil(RED_TILE);
        let out = self.alloc(dev, blocks * 8)?;
        self.launch(
            inst(a),
            dev,
            "arr_amax_lead",
            blocks as u32,
            &[ab.arg(), KArg::U64(a.len as u64), out.arg()],
        )?;
        let v = out.download_f64(0, blocks)?;
        Ok(v.into_iter().fold(0.0, |p, q| if q > p { q } else { p }))
    }

    // ---- scan -------------------------------------------------------------------------------

    pub(crate) fn scan(&self, a: &Raw, inclusive: bool) -> Result<Raw, GpuError> {
        let out = self.new_raw(a, dbuf(a).dev, a.len)?;
        self.scan_into(a, inclusive, &out)?;
        Ok(out)
    }

    /// The scan into an existing buffer (same device and length).
    pub(crate) fn scan_into(&self, a: &Raw, inclusive: bool, out: &Raw) -> Result<(), GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        if a.len == 0 {
            return Ok(());
        }
        let tiles = a.len.div_ceil(SCAN_TILE);
        if tiles as u64 > 1u64 << 32 {
            // arr_scan gives each set bit of a tile index a lane of one warp.
            return Err(GpuError::new(GpuErrorKind::InvalidInput(format!(
                "scan of {} elements: more than 2^32 tiles",
                a.len
            ))));
        }
        let mut nodes = 0usize;
        let mut l = 0;
        while tiles >> l > 0 {
            nodes += tiles >> l;
            l += 1;
        }
        // The nodes, then one published tile prefix per tile.
        let node_bytes = (nodes + tiles) * a.n * a.kind.size();
        let store = self.alloc(dev, node_bytes)?;
        // [tile counter, flags (one per node), prefix flags (one per tile)]
        let sync = self.alloc_zeroed(dev, (1 + nodes + tiles) * 4)?;
        self.launch(
            inst(a),
            dev,
            "arr_scan",
            tiles as u32,
            &[
                ab.arg(),
                dbuf(out).arg(),
                KArg::U64(a.len as u64),
                KArg::I32(inclusive as i32),
                store.arg(),
                sync.arg(),
                KArg::U64(tiles as u64),
            ],
        )?;
        Ok(())
    }

    // ---- sort and select --------------------------------------------------------------------

    /// Sorts; with a payload (buffer, is u64) also returns the permuted payload.
    pub(crate) fn sort(
        &self,
        a: &Raw,
        payload: Option<(&DevBuf, bool)>,
    ) -> Result<(Raw, Option<DevBuf>), GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        let len = a.len;
        let mut kout = self.new_raw(a, dev, len)?;
        let mut iout = self.alloc(dev, len * 8)?;
        if len == 0 {
            let p = match payload {
                Some(_) => Some(self.alloc(dev, 0)?),
                None => None,
            };
            return Ok((kout, p));
        }
        // Sorted runs of SORT_TILE elements first (one block each), then merge passes.
        let tiles = len.div_ceil(SORT_TILE);
        self.launch(
            inst(a),
            dev,
            "arr_sort_tile",
            tiles as u32,
            &[
                ab.arg(),
                KArg::U64(len as u64),
                dbuf(&kout).arg(),
                iout.arg(),
            ],
        )?;
        let mut run = SORT_TILE;
        if run < len {
            let mut kin = self.new_raw(a, dev, len)?;
            let mut iin = self.alloc(dev, len * 8)?;
            while run < len {
                std::mem::swap(&mut kin, &mut kout);
                std::mem::swap(&mut iin, &mut iout);
                self.launch(
                    inst(a),
                    dev,
                    "arr_merge_pass",
                    self.grid(dev, len),
                    &[
                        dbuf(&kin).arg(),
                        iin.arg(),
                        dbuf(&kout).arg(),
                        iout.arg(),
                        KArg::U64(len as u64),
                        KArg::U64(run as u64),
                    ],
                )?;
                run *= 2;
            }
        }
        let pout = match payload {
            None => None,
            Some((p, wide)) => {
                let out = self.alloc(dev, len * if wide { 8 } else { 4 })?;
                self.launch(
                    inst(a),
                    dev,
                    if wide {
                        "arr_gather_u64"
                    } else {
                        "arr_gather_u32"
                    },
                    self.grid(dev, len),
                    &[p.arg(), iout.arg(), out.arg(), KArg::U64(len as u64)],
                )?;
                Some(out)
            }
        };
        Ok((kout, pout))
    }

    pub(crate) fn select(&self, a: &Raw, cmp: Cmp, thr: &Sc) -> Result<(Raw, DevBuf), GpuError> {
        let ab = dbuf(a);
        let dev = ab.dev;
        let len = a.len;
        if len == 0 {
            return Ok((self.new_raw(a, dev, 0)?, self.alloc(dev, 0)?));
        }
        let tiles = len.div_ceil(RED_TILE);
        let counts = self.alloc(dev, tiles * 8)?;
        self.launch(
            inst(a),
            dev,
            "arr_sel_count",
            tiles as u32,
            &[
                ab.arg(),
                KArg::U64(len as u64),
                KArg::I32(cmp.code()),
                sc_arg(thr),
                counts.arg(),
            ],
        )?;
        let c: Vec<u64> = counts.download_plain(tiles)?;
        let mut offsets = Vec::with_capacity(tiles);
        let mut total = 0u64;
        for v in c {
            offsets.push(total);
            total += v;
        }
        let off = self.upload_plain(dev, &offsets)?;
        let out = self.new_raw(a, dev, total as usize)?;
        let idx = self.alloc(dev, total as usize * 8)?;
        self.launch(
            inst(a),
            dev,
            "arr_sel_scatter",
            tiles as u32,
            &[
                ab.arg(),
                KArg::U64(len as u64),
                KArg::I32(cmp.code()),
                sc_arg(thr),
                off.arg(),
                dbuf(&out).arg(),
                KArg::U64(total),
                idx.arg(),
            ],
        )?;
        Ok((out, idx))
    }

    // ---- BLAS -------------------------------------------------------------------------------

    pub(crate) fn axpy(&self, alpha: &Sc, x: &Raw, y: &Raw) -> Result<(Raw, DevBuf), GpuError> {
        let (xb, yb) = (dbuf(x), dbuf(y));
        let dev = xb.dev;
        let out = self.new_raw(x, dev, x.len)?;
        let err = self.alloc(dev, x.len * 8)?;
        if x.len > 0 {
            self.launch(
                inst(x),
                dev,
                "blas_axpy",
                self.grid(dev, x.len),
                &[
                    sc_arg(alpha),
                    xb.arg(),
                    yb.arg(),
                    dbuf(&out).arg(),
                    err.arg(),
                    KArg::U64(x.len as u64),
                    bc_arg(x.kind, x.n),
                ],
            )?;
        }
        Ok((out, err))
    }

    pub(crate) fn scal(&self, alpha: &Sc, x: &Raw) -> Result<(Raw, DevBuf), GpuError> {
        let xb = dbuf(x);
        let dev = xb.dev;
        let out = self.new_raw(x, dev, x.len)?;
        let err = self.alloc(dev, x.len * 8)?;
        if x.len > 0 {
            self.launch(
                inst(x),
                dev,
                "blas_scal",
                self.grid(dev, x.len),
                &[
                    sc_arg(alpha),
                    xb.arg(),
                    dbuf(&out).arg(),
                    err.arg(),
                    KArg::U64(x.len as u64),
                    bc_arg(x.kind, x.n),
                ],
            )?;
        }
        Ok((out, err))
    }

    pub(crate) fn gemv(&self, g: &GemvArgs) -> Result<(Raw, DevBuf), GpuError> {
        let a = g.a;
        let ab = dbuf(a);
        let dev = ab.dev;
        let (out_len, red_len) = if g.trans {
            (g.cols, g.rows)
        } else {
            (g.rows, g.cols)
        };
        let out = self.new_raw(a, dev, out_len)?;
        let err = self.alloc(dev, out_len * 8)?;
        if out_len == 0 {
            return Ok((out, err));
        }
        let chunks = red_len.div_ceil(GEMV_CHUNK);
        let part = self.new_raw(a, dev, chunks * out_len)?;
        let aux = self.alloc(dev, chunks * out_len * 3 * 8)?;
        if chunks > 0 {
            self.launch(
                inst(a),
                dev,
                "blas_gemv_part",
                self.grid(dev, chunks * out_len),
                &[
                    KArg::I32(g.trans as i32),
                    ab.arg(),
                    KArg::U64(g.rows as u64),
                    KArg::U64(g.cols as u64),
                    dbuf(g.x).arg(),
                    dbuf(&part).arg(),
                    aux.arg(),
                    KArg::U64(out_len as u64),
                    KArg::U64(chunks as u64),
                ],
            )?;
        }
        let y = match g.y {
            Some(y) => dbuf(y).arg(),
            None => ab.arg(),
        };
        self.launch(
            inst(a),
            dev,
            "blas_gemv_finish",
            // One warp per output (GEMV_FIN_OUTS = 8 outputs per block of 256).
            self.grid(dev, out_len * 32),
            &[
                dbuf(&part).arg(),
                aux.arg(),
                KArg::U64(out_len as u64),
                KArg::U64(chunks as u64),
                KArg::U64(red_len as u64),
                KArg::I32(g.alpha.is_some() as i32),
                sc_arg(&g.alpha.unwrap_or_default()),
                KArg::I32((g.beta.is_some() && g.y.is_some()) as i32),
                sc_arg(&g.beta.unwrap_or_default()),
                y,
                dbuf(&out).arg(),
                err.arg(),
                bc_arg(a.kind, a.n),
            ],
        )?;
        Ok((out, err))
    }

    /// One GEMM fold launch: C-tile state (S, P, A: `state`, ld = m) continued over the k
    /// range of the panels `a` (element (i, kk) at a_off + i + kk·lda of an array of a_len) and
    /// `b` (element (kk, j) at b_off + kk + j·ldb).
    #[allow(clippy::too_many_arguments)]
    fn gemm_fold(
        &self,
        like: Inst,
        dev: usize,
        a: (&DevBuf, usize, usize, usize),
        b: (&DevBuf, usize, usize, usize),
        m: usize,
        n: usize,
        kt: usize,
        first: bool,
        state: (&DevBuf, &DevBuf),
    ) -> Result<(), GpuError> {
        let (bm, bn) = gemm_block_tile(like.kind, like.n);
        let tiles = m.div_ceil(bm) * n.div_ceil(bn);
        // One block per C tile (the kernel also loops, should the grid be capped).
        let grid = tiles.clamp(1, i32::MAX as usize) as u32;
        self.launch(
            like,
            dev,
            "blas_gemm_fold",
            grid,
            &[
                a.0.arg(),
                KArg::U64(a.1 as u64),
                KArg::U64(a.2 as u64),
                KArg::U64(a.3 as u64),
                b.0.arg(),
                KArg::U64(b.1 as u64),
                KArg::U64(b.2 as u64),
                KArg::U64(b.3 as u64),
                KArg::U64(m as u64),
                KArg::U64(n as u64),
                KArg::U64(kt as u64),
                KArg::I32(first as i32),
                state.0.arg(),
                state.1.arg(),
            ],
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn gemm_finish(
        &self,
        like: Inst,
        dev: usize,
        len: usize,
        k: usize,
        range_ok: bool,
        alpha: Option<Sc>,
        beta: Option<Sc>,
        c: Option<&DevBuf>,
        state: (&DevBuf, &DevBuf),
        out: &DevBuf,
        err: &DevBuf,
    ) -> Result<(), GpuError> {
        self.launch(
            like,
            dev,
            "blas_gemm_finish",
            self.grid(dev, len),
            &[
                state.0.arg(),
                state.1.arg(),
                KArg::U64(len as u64),
                KArg::U64(k as u64),
                KArg::I32(range_ok as i32),
                KArg::I32(alpha.is_some() as i32),
                sc_arg(&alpha.unwrap_or_default()),
                KArg::I32((beta.is_some() && c.is_some()) as i32),
                sc_arg(&beta.unwrap_or_default()),
                c.map_or(out.arg(), |c| c.arg()),
                out.arg(),
                err.arg(),
                bc_arg(like.kind, like.n),
            ],
        )
    }

    pub(crate) fn gemm(&self, g: &GemmArgs) -> Result<(Raw, DevBuf), GpuError> {
        let (m, n, k) = (g.m, g.n, g.k);
        let a = g.a;
        let ab = dbuf(a);
        let dev = ab.dev;
        let out = self.new_raw(a, dev, m * n)?;
        let err = self.alloc(dev, m * n * 8)?;
        if m * n == 0 {
            return Ok((out, err));
        }
        let c = consts(a.kind, a.n);
        let ok = gemm_range_ok(&c, self.amax(a)?, self.amax(g.b)?);
        let s = self.new_raw(a, dev, m * n)?;
        let pa = self.alloc(dev, m * n * 16)?;
        if k > 0 {
            self.gemm_fold(
                inst(a),
                dev,
                (ab, m * k, 0, m),
                (dbuf(g.b), k * n, 0, k),
                m,
                n,
                k,
                true,
                (dbuf(&s), &pa),
            )?;
        }
        self.gemm_finish(
            inst(a),
            dev,
            m * n,
            k,
            ok,
            g.alpha,
            g.beta,
            g.c.map(dbuf),
            (dbuf(&s), &pa),
            dbuf(&out),
            &err,
        )?;
        Ok((out, err))
    }

    /// GEMM over host matrices: C split by columns over the GPUs, each part tiled to fit
    /// `memory_limit` bytes (default 80 % of the device memory).
    #[allow(clippy::type_complexity)]
    pub(crate) fn gemm_host<T: super::ArrayTerm, const N: usize>(
        &self,
        alpha: Option<Sc>,
        a: HostMatrix<'_, T, N>,
        b: HostMatrix<'_, T, N>,
        beta: Option<Sc>,
        c: Option<HostMatrix<'_, T, N>>,
        memory_limit: Option<usize>,
    ) -> Result<(Vec<Expansion<T, N>>, Vec<f64>), GpuError> {
        let (m, n, k) = (a.rows, b.cols, a.cols);
        let mut out_terms = vec![T::ZERO; m * n * N];
        let mut out_err = vec![0.0f64; m * n];
        if m * n == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let es = N * std::mem::size_of::<T>();
        let cst = Consts::new::<T>(N);
        let amax = |d: &[Expansion<T, N>]| {
            d.iter()
                .map(|e| e.hi().to_f64().abs())
                .fold(0.0, |p: f64, q| if q > p { q } else { p })
        };
        let ok = gemm_range_ok(&cst, amax(a.data), amax(b.data));
        let devs = self.execs.len();
        let cols_per = n.div_ceil(devs);
        let parts: Vec<(usize, usize, usize)> = (0..devs)
            .map(|d| (d, (d * cols_per).min(n), ((d + 1) * cols_per).min(n)))
            .filter(|&(_, j0, j1)| j1 > j0)
            .collect();
        // One tile plan per device: (mt, nt, kt).
        let plan = |dev: usize, cols: usize| -> Result<(usize, usize, usize), GpuError> {
            let budget = memory_limit
                .unwrap_or_else(|| self.execs[dev].memory_bytes() / 10 * 8)
                .max(1);
            let per_c = 3 * es + 24;
            let (mut mt, mut kt) = (m, k.max(1));
            loop {
                let fixed = mt * kt * es;
                if fixed < budget {
                    let nt = (budget - fixed) / (kt * es + mt * per_c);
                    if nt >= 1 {
                        return Ok((mt, nt.min(cols), kt));
                    }
                }
                if mt == 1 && kt == 1 {
                    return Err(invalid(format!(
                        "gemm_host: a memory limit of {budget} bytes cannot hold one tile"
                    )));
                }
                if kt >= mt && kt > 1 {
                    kt = kt.div_ceil(2);
                } else {
                    mt = mt.div_ceil(2);
                }
            }
        };
        type TileOut = Vec<(usize, usize, usize, usize, Vec<u8>, Vec<f64>)>;
        let run_part = |(dev, j0, j1): (usize, usize, usize)| -> Result<TileOut, GpuError> {
            let (mt, nt, kt) = plan(dev, j1 - j0)?;
            let like = Inst {
                kind: T::KIND,
                n: N,
            };
            let mut res = Vec::new();
            let mut i0 = 0;
            while i0 < m {
                let i1 = (i0 + mt).min(m);
                let mut jj = j0;
                while jj < j1 {
                    let jn = (jj + nt).min(j1);
                    let (tm, tn) = (i1 - i0, jn - jj);
                    let s = self.alloc(dev, tm * tn * es)?;
                    let pa = self.alloc(dev, tm * tn * 16)?;
                    let mut k0 = 0;
                    while k0 < k {
                        let k1 = (k0 + kt).min(k);
                        let tk = k1 - k0;
                        // Panels as their own interleaved arrays: A rows i0..i1, columns
                        // k0..k1 (ld tm); B rows k0..k1, columns jj..jn (ld tk).
                        let mut ap = vec![T::ZERO; tm * tk * N];
                        for kk in 0..tk {
                            for i in 0..tm {
                                let e = a.data[(k0 + kk) * m + i0 + i];
                                for (t, v) in e.terms().iter().enumerate() {
                                    ap[t * tm * tk + kk * tm + i] = *v;
                                }
                            }
                        }
                        let mut bp = vec![T::ZERO; tk * tn * N];
                        for j in 0..tn {
                            for kk in 0..tk {
                                let e = b.data[(jj + j) * k + k0 + kk];
                                for (t, v) in e.terms().iter().enumerate() {
                                    bp[t * tk * tn + j * tk + kk] = *v;
                                }
                            }
                        }
                        let ad = self.upload_terms(dev, &T::into_host(ap))?;
                        let bd = self.upload_terms(dev, &T::into_host(bp))?;
                        self.gemm_fold(
                            like,
                            dev,
                            (&ad, tm * tk, 0, tm),
                            (&bd, tk * tn, 0, tk),
                            tm,
                            tn,
                            tk,
                            k0 == 0,
                            (&s, &pa),
                        )?;
                        k0 = k1;
                    }
                    let cd = match (&c, beta) {
                        (Some(cm), Some(_)) => {
                            let mut cp = vec![T::ZERO; tm * tn * N];
                            for j in 0..tn {
                                for i in 0..tm {
                                    let e = cm.data[(jj + j) * m + i0 + i];
                                    for (t, v) in e.terms().iter().enumerate() {
                                        cp[t * tm * tn + j * tm + i] = *v;
                                    }
                                }
                            }
                            Some(self.upload_terms(dev, &T::into_host(cp))?)
                        }
                        _ => None,
                    };
                    let ob = self.alloc(dev, tm * tn * es)?;
                    let eb = self.alloc(dev, tm * tn * 8)?;
                    self.gemm_finish(
                        like,
                        dev,
                        tm * tn,
                        k,
                        ok,
                        alpha,
                        beta,
                        cd.as_ref(),
                        (&s, &pa),
                        &ob,
                        &eb,
                    )?;
                    let mut tb = vec![0u8; tm * tn * es];
                    ob.exec.download(ob.id, 0, &mut tb)?;
                    let te = eb.download_f64(0, tm * tn)?;
                    res.push((i0, i1, jj, jn, tb, te));
                    jj = jn;
                }
                i0 = i1;
            }
            Ok(res)
        };
        let results: Vec<Result<TileOut, GpuError>> = if parts.len() == 1 {
            vec![run_part(parts[0])]
        } else {
            std::thread::scope(|sc| {
                let hs: Vec<_> = parts
                    .iter()
                    .map(|&p| {
                        let f = &run_part;
                        sc.spawn(move || f(p))
                    })
                    .collect();
                hs.into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(GpuError::new(GpuErrorKind::Driver(
                                "a device thread panicked".into(),
                            )))
                        })
                    })
                    .collect()
            })
        };
        let ts = std::mem::size_of::<T>();
        for r in results {
            for (i0, i1, j0, j1, tb, te) in r? {
                let (tm, tn) = (i1 - i0, j1 - j0);
                let terms: Vec<T> = match T::KIND {
                    TermKind::F64 => T::from_host(HostData::F64(vec_from_bytes(&tb))),
                    TermKind::F32 => T::from_host(HostData::F32(vec_from_bytes(&tb))),
                };
                debug_assert_eq!(terms.len() * ts, tb.len());
                for j in 0..tn {
                    for i in 0..tm {
                        let q = j * tm + i;
                        let g = (j0 + j) * m + i0 + i;
                        for t in 0..N {
                            out_terms[t * m * n + g] = terms[t * tm * tn + q];
                        }
                        out_err[g] = te[q];
                    }
                }
            }
        }
        let mut out = Vec::with_capacity(m * n);
        let mut t = [T::ZERO; N];
        for g in 0..m * n {
            for (kk, v) in t.iter_mut().enumerate() {
                *v = out_terms[kk * m * n + g];
            }
            out.push(exp_of_terms::<T, N>(&t));
        }
        Ok((out, out_err))
    }
}

/// Elements per sorted tile of the device sort's first stage (`SORT_TILE` in cuda/arrays.cu).
pub const SORT_TILE: usize = 256;

// ---- the CUDA executor ----------------------------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy)]
struct ScArg([f64; 8]);
// SAFETY: plain data with the layout of `struct Sc { double t[8]; }`.
unsafe impl DeviceRepr for ScArg {}

#[repr(C)]
#[derive(Clone, Copy)]
struct BcArg([f64; 16]);
// SAFETY: plain data with the layout of `struct BC { double v[16]; }`.
unsafe impl DeviceRepr for BcArg {}

/// A loaded kernel: (program, term type, N, kernel name).
type FuncKey = (&'static str, TermKind, usize, String);

/// [`KernelExec`] on GPU `index` of a [`GpuContext`] (its default stream), kernels from
/// [`ARRAYS_PROGRAM`] compiled by NVRTC once per (N, term type).
pub struct CudaExec {
    ctx: Arc<GpuContext>,
    index: usize,
    next: AtomicU64,
    bufs: Mutex<HashMap<u64, CudaSlice<u8>>>,
    funcs: Mutex<HashMap<FuncKey, CudaFunction>>,
}

macro_rules! function_for {
    ($ctx:expr, $i:expr, $p:expr, $kind:expr, $n:expr, $name:expr) => {{
        fn get<T: GpuTerm, const N: usize>(
            ctx: &GpuContext,
            i: usize,
            p: &CudaProgram,
            name: &str,
        ) -> Result<CudaFunction, GpuError> {
            ctx.function::<T, N>(i, p, name)
        }
        match ($kind, $n) {
            (TermKind::F64, 1) => get::<f64, 1>($ctx, $i, $p, $name),
            (TermKind::F64, 2) => get::<f64, 2>($ctx, $i, $p, $name),
            (TermKind::F64, 3) => get::<f64, 3>($ctx, $i, $p, $name),
            (TermKind::F64, 4) => get::<f64, 4>($ctx, $i, $p, $name),
            (TermKind::F64, 5) => get::<f64, 5>($ctx, $i, $p, $name),
            (TermKind::F64, 6) => get::<f64, 6>($ctx, $i, $p, $name),
            (TermKind::F64, 7) => get::<f64, 7>($ctx, $i, $p, $name),
            (TermKind::F64, 8) => get::<f64, 8>($ctx, $i, $p, $name),
            (TermKind::F32, 1) => get::<f32, 1>($ctx, $i, $p, $name),
            (TermKind::F32, 2) => get::<f32, 2>($ctx, $i, $p, $name),
            (TermKind::F32, 3) => get::<f32, 3>($ctx, $i, $p, $name),
            (TermKind::F32, 4) => get::<f32, 4>($ctx, $i, $p, $name),
            (TermKind::F32, 5) => get::<f32, 5>($ctx, $i, $p, $name),
            (TermKind::F32, 6) => get::<f32, 6>($ctx, $i, $p, $name),
            (TermKind::F32, 7) => get::<f32, 7>($ctx, $i, $p, $name),
            (TermKind::F32, 8) => get::<f32, 8>($ctx, $i, $p, $name),
            (_, n) => Err(invalid(format!("expansions have 1..=8 terms, not {n}"))),
        }
    }};
}

impl CudaExec {
    /// The executor of GPU `index` of `ctx`.
    pub fn new(ctx: Arc<GpuContext>, index: usize) -> Self {
        // Every buffer of this executor is used on the context's one stream, in order, so
        // cudarc's per-buffer events (an event record per kernel argument) are not needed.
        // SAFETY: no buffer of this context is shared with another stream.
        unsafe { ctx.cuda_context(index).disable_event_tracking() };
        Self {
            ctx,
            index,
            next: AtomicU64::new(1),
            bufs: Mutex::new(HashMap::new()),
            funcs: Mutex::new(HashMap::new()),
        }
    }

    fn bind(&self) -> Result<(), GpuError> {
        self.ctx
            .cuda_context(self.index)
            .bind_to_thread()
            .map_err(|e| drv("binding the context", e))
    }

    fn with_buf<R>(
        &self,
        id: u64,
        f: impl FnOnce(&mut CudaSlice<u8>) -> Result<R, GpuError>,
    ) -> Result<R, GpuError> {
        let mut m = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
        let b = m
            .get_mut(&id)
            .ok_or_else(|| invalid(format!("unknown device buffer {id}")))?;
        f(b)
    }

    fn function(
        &self,
        program: &'static CudaProgram,
        kind: TermKind,
        n: usize,
        name: &str,
    ) -> Result<CudaFunction, GpuError> {
        let key = (program.name, kind, n, name.to_owned());
        if let Some(f) = self
            .funcs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(f.clone());
        }
        let f = function_for!(&self.ctx, self.index, program, kind, n, name)?;
        self.funcs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, f.clone());
        Ok(f)
    }
}

impl KernelExec for CudaExec {
    fn describe(&self) -> String {
        let d = &self.ctx.devices()[self.index];
        format!(
            "GPU {} {} (sm_{}{}, {} SMs, {:.0} GiB)",
            d.ordinal,
            d.name,
            d.compute_capability.0,
            d.compute_capability.1,
            d.multiprocessors,
            d.memory as f64 / (1u64 << 30) as f64
        )
    }

    fn multiprocessors(&self) -> u32 {
        self.ctx.devices()[self.index].multiprocessors.max(1) as u32
    }

    fn memory_bytes(&self) -> usize {
        self.ctx.devices()[self.index].memory
    }

    fn alloc(&self, bytes: usize) -> Result<u64, GpuError> {
        self.bind()?;
        let s = self.ctx.stream(self.index);
        // SAFETY: the contents are unspecified by this interface; callers write before reading.
        let b = unsafe { s.alloc::<u8>(bytes.max(8)) }
            .map_err(|e| drv(&format!("allocating {bytes} bytes"), e))?;
        let id = self.next.fetch_add(1, AtOrd::Relaxed);
        self.bufs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, b);
        Ok(id)
    }

    fn free(&self, buf: u64) {
        let _ = self.bind();
        self.bufs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&buf);
    }

    fn zero(&self, buf: u64, offset: usize, bytes: usize) -> Result<(), GpuError> {
        self.bind()?;
        let s = self.ctx.stream(self.index).clone();
        self.with_buf(buf, |b| {
            let mut v = b.slice_mut(offset..offset + bytes);
            s.memset_zeros(&mut v).map_err(|e| drv("memset", e))
        })
    }

    fn upload(&self, buf: u64, offset: usize, data: &[u8]) -> Result<(), GpuError> {
        self.bind()?;
        let s = self.ctx.stream(self.index).clone();
        self.with_buf(buf, |b| {
            let mut v = b.slice_mut(offset..offset + data.len());
            s.memcpy_htod(data, &mut v).map_err(|e| drv("upload", e))
        })?;
        // The source is pageable host memory that the caller may free: wait for the copy.
        self.synchronize()
    }

    fn download(&self, buf: u64, offset: usize, out: &mut [u8]) -> Result<(), GpuError> {
        self.bind()?;
        let s = self.ctx.stream(self.index).clone();
        self.with_buf(buf, |b| {
            let v = b.slice(offset..offset + out.len());
            s.memcpy_dtoh(&v, out).map_err(|e| drv("download", e))
        })?;
        self.synchronize()
    }

    fn copy(
        &self,
        dst: u64,
        dst_offset: usize,
        src: u64,
        src_offset: usize,
        bytes: usize,
    ) -> Result<(), GpuError> {
        self.bind()?;
        let s = self.ctx.stream(self.index).clone();
        let (sp, dp) = {
            let m = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
            let sb = m
                .get(&src)
                .ok_or_else(|| invalid("unknown source buffer"))?;
            let db = m
                .get(&dst)
                .ok_or_else(|| invalid("unknown destination buffer"))?;
            let sp = sb.device_ptr(&s).0;
            let dp = db.device_ptr(&s).0;
            (sp, dp)
        };
        // SAFETY: both ranges lie inside their buffers (callers copy within the sizes they
        // allocated); same context and stream.
        unsafe {
            cudarc::driver::result::memcpy_dtod_async(
                dp + dst_offset as u64,
                sp + src_offset as u64,
                bytes,
                s.cu_stream(),
            )
        }
        .map_err(|e| drv("device copy", e))
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
        self.bind()?;
        let f = self.function(program, kind, n, name)?;
        let s = self.ctx.stream(self.index).clone();
        // Typed storage first (stable addresses), then the references in argument order.
        let mut u64s: Vec<u64> = Vec::new();
        let mut i32s: Vec<i32> = Vec::new();
        let mut f64s: Vec<f64> = Vec::new();
        let mut scs: Vec<ScArg> = Vec::new();
        let mut bcs: Vec<BcArg> = Vec::new();
        enum Slot {
            U(usize),
            I(usize),
            F(usize),
            S(usize),
            B(usize),
        }
        let mut slots = Vec::with_capacity(args.len());
        {
            let m = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
            for a in args {
                match *a {
                    KArg::Buf(id, off) => {
                        let b = m
                            .get(&id)
                            .ok_or_else(|| invalid(format!("{name}: unknown buffer {id}")))?;
                        let (p, _rec) = b.device_ptr(&s);
                        slots.push(Slot::U(u64s.len()));
                        u64s.push(p + off as u64);
                    }
                    KArg::U64(v) => {
                        slots.push(Slot::U(u64s.len()));
                        u64s.push(v);
                    }
                    KArg::I32(v) => {
                        slots.push(Slot::I(i32s.len()));
                        i32s.push(v);
                    }
                    KArg::F64(v) => {
                        slots.push(Slot::F(f64s.len()));
                        f64s.push(v);
                    }
                    KArg::Sc(v) => {
                        slots.push(Slot::S(scs.len()));
                        scs.push(ScArg(v));
                    }
                    KArg::Bc(v) => {
                        slots.push(Slot::B(bcs.len()));
                        bcs.push(BcArg(v));
                    }
                }
            }
        }
        let mut b = s.launch_builder(&f);
        for sl in &slots {
            match *sl {
                Slot::U(i) => b.arg(&u64s[i]),
                Slot::I(i) => b.arg(&i32s[i]),
                Slot::F(i) => b.arg(&f64s[i]),
                Slot::S(i) => b.arg(&scs[i]),
                Slot::B(i) => b.arg(&bcs[i]),
            };
        }
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (block, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the argument list matches the kernel's signature in cuda/arrays.cu or
        // cuda/blas.cu (each call site above passes the documented arguments), and every
        // buffer holds what the kernel reads and writes.
        unsafe { b.launch(cfg) }.map_err(|e| drv(&format!("launching {name}"), e))?;
        Ok(())
    }

    fn synchronize(&self) -> Result<(), GpuError> {
        self.bind()?;
        self.ctx
            .stream(self.index)
            .synchronize()
            .map_err(|e| drv("synchronize", e))
    }
}
