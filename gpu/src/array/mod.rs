//! # Arrays of expansions: map, reduce, scan, sort, select and BLAS, on the GPU or on all cores
//!
//! [`ExpArray<T, N>`] is an array of `Expansion<T, N>` (T = `f64` or `f32`, N = 1..8) that
//! lives either in host memory or on one GPU, in the *interleaved* layout of seed 000 (GQD):
//! term k of element i at `k·len + i`, so a warp reading term k of consecutive elements is
//! coalesced. The host stores the same layout. Where it lives is chosen by its [`Arrays`]
//! backend:
//!
//! - [`Arrays::cpu`]: the host backend, on all cores (rayon);
//! - [`Arrays::gpu`]: the device backend, the CUDA kernels of `cuda/arrays.cu` and
//!   `cuda/blas.cu` compiled by NVRTC on one or several GPUs;
//! - [`Arrays::auto`]: the GPU when one is usable (as `expanse search --backend auto`), the CPU
//!   otherwise, with the reason.
//!
//! An array lives on one GPU ([`Arrays::array_on`] places it); operations on arrays run on
//! their GPU. Work larger than one GPU goes through the host-tiled routines
//! ([`blas::gemm_host`]), which tile over host data and share the tiles over every GPU of the
//! backend (as `--devices` splits a search).
//!
//! Both backends have one API and give **bit-identical results** for every operation, N and
//! term type: the arithmetic is expanse-core's *accurate tier* (`Expansion::add`, `mul`, …,
//! each with a proven relative error bound; on the device its bit-identical CUDA port
//! `cuda/accurate.cu`), and every reduction and scan runs in one fixed association order that
//! depends only on the length, never on thread count, device count or backend. The host
//! backend repeats the kernels' order operation for operation (see "Orders" below).
//! `expanse bench arrays --check` verifies the identity on a device; the host build of the CUDA
//! source (`tests/it/arrays_on_cpu.rs`) verifies it without one.
//!
//! ```
//! use expanse_core::Expansion;
//! use expanse_gpu::array::{Arrays, ScanKind};
//!
//! let arrays = Arrays::cpu(); // or Arrays::auto().0
//! let xs: Vec<Expansion<f64, 2>> = (1..=100).map(|i| Expansion::from_f64(1.0 / i as f64)).collect();
//! let x = arrays.array(&xs)?;
//! let y = x.mul(&x)?.add(&x)?;            // element-wise, accurate tier
//! let s = y.sum_bounded()?;               // the sum and a rigorous bound of its error
//! assert!(s.err < 1e-28);
//! let prefix = x.scan(ScanKind::Inclusive)?.to_vec()?;
//! assert_eq!(prefix.len(), 100);
//! # Ok::<(), expanse_gpu::GpuError>(())
//! ```
//!
//! # Primitives
//!
//! - map: [`ExpArray::add`], `sub`, `mul`, `div`, `sqrt`, `sqr`, `recip`, `neg`, `abs`, the
//!   `*_term` forms (scale by a machine number: [`ExpArray::mul_term`]), and
//!   [`ExpArray::map`] with an elementary function ([`expanse_core::functions::Unary`]; on the
//!   device through the CUDA functions of [`crate::functions`]);
//! - reduce: [`ExpArray::sum`], [`ExpArray::sum_bounded`] (with a rigorous error bound),
//!   [`ExpArray::min`], [`ExpArray::max`], [`ExpArray::dot`];
//! - scan: [`ExpArray::scan`] (inclusive or exclusive sums);
//! - sort: [`ExpArray::sort`] and [`ExpArray::sort_by_key`] (a `u32`/`u64` payload), stable,
//!   by exact value, so the output is unique;
//! - select: [`ExpArray::select`] (a comparison with a threshold, order kept).
//!
//! BLAS levels 1–3 with componentwise forward error bounds are in [`blas`]; the bound
//! arithmetic and its proof in [`bound`].
//!
//! # Orders
//!
//! - **Reduce** (sum, min, max, dot, and the sums of `blas::dot`, `nrm2`): tiles of
//!   [`RED_TILE`] = 2048 consecutive elements. In a tile, "thread" j < 256 folds the elements
//!   j, j + 256, …, j + 7·256 left to right (the first element is the initial value, no added
//!   zero); the 256 thread values are combined by the *pairwise tree* (stride doubling: level s
//!   = 1, 2, 4, …: vᵢ = vᵢ ⊕ vᵢ₊ₛ for i a multiple of 2s with i + s present). The tile
//!   results are reduced again the same way until one remains.
//! - **Scan**: tiles of [`SCAN_TILE`] = 2048 elements, "thread" t < 256 holding the 8
//!   consecutive elements 8t..8t + 7. Thread totals are folded left to right; their exclusive
//!   prefix E_t is the left fold over the dyadic blocks of [0, t) (largest first) of the
//!   pairwise tree of thread totals; the tile prefix P_b is the same construction over the
//!   tile totals (the roots of the tiles' trees); thread t's elements are then folded left to
//!   right starting from P_b ⊕ E_t. On the device this is a single pass (each tile publishes
//!   its total and completes the dyadic nodes whose last child it is, then waits for the nodes
//!   of its prefix), so the result does not depend on which tile finishes first.
//! - **GEMV**: the reduction dimension in chunks of [`GEMV_CHUNK`] = 32, each folded left to
//!   right from its first product, chunk results combined by the pairwise tree.
//! - **GEMM**: each C_ij folded left to right over k from the first product (tiling over k on
//!   the device continues the same fold).
//!
//! Element-wise operations need no order. Sorting is stable under the exact value order (NaN
//! last), so any correct stable sort gives the one output.

pub mod blas;
pub mod bound;
pub mod check;
pub mod device;
mod host;
pub mod indexed;

use crate::device::{GpuContext, GpuTerm};
use crate::error::{GpuError, GpuErrorKind, GpuUnavailable};
use expanse_core::functions::Unary;
use expanse_core::runtime::terms_of_mut;
use expanse_core::{Expansion, FloatTerm};
use std::marker::PhantomData;
use std::sync::Arc;

pub use blas::{Bounded, BoundedArray, BoundedMatrix, Transpose};
pub use device::{KArg, KernelExec};
pub use indexed::IndexMap;

/// Elements per tile of a reduction (256 "threads" × 8).
pub const RED_TILE: usize = 2048;
/// "Threads" per reduction tile.
pub const RED_THREADS: usize = 256;
/// Elements per tile of a scan (256 "threads" × 8 consecutive elements).
pub const SCAN_TILE: usize = 2048;
/// "Threads" per scan tile.
pub const SCAN_THREADS: usize = 256;
/// Elements per "thread" of a scan.
pub const SCAN_ITEMS: usize = 8;
/// Chunk length of the GEMV reduction dimension.
pub const GEMV_CHUNK: usize = 32;

/// The term type of an array at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// `f64` terms (CUDA `double`).
    F64,
    /// `f32` terms (CUDA `float`).
    F32,
}

impl TermKind {
    /// The CUDA type name.
    pub fn cuda_name(self) -> &'static str {
        match self {
            TermKind::F64 => "double",
            TermKind::F32 => "float",
        }
    }
    /// Bytes per term.
    pub fn size(self) -> usize {
        match self {
            TermKind::F64 => 8,
            TermKind::F32 => 4,
        }
    }
}

/// Host storage of an array's terms (interleaved). Not part of the stable API.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum HostData {
    /// f64 terms.
    F64(Vec<f64>),
    /// f32 terms.
    F32(Vec<f32>),
}

/// A term type of arrays: `f64` or `f32` (sealed through [`GpuTerm`]).
pub trait ArrayTerm: GpuTerm {
    /// The run-time kind.
    const KIND: TermKind;
    /// Wraps host terms (internal).
    #[doc(hidden)]
    fn into_host(v: Vec<Self>) -> HostData;
    /// Unwraps host terms (internal; panics on the wrong kind, which the types exclude).
    #[doc(hidden)]
    fn from_host(h: HostData) -> Vec<Self>;
    /// Views host terms (internal).
    #[doc(hidden)]
    fn host_slice(h: &HostData) -> &[Self];
    /// Views host terms mutably (internal).
    #[doc(hidden)]
    fn host_slice_mut(h: &mut HostData) -> &mut [Self];
}

impl ArrayTerm for f64 {
    const KIND: TermKind = TermKind::F64;
    fn into_host(v: Vec<Self>) -> HostData {
        HostData::F64(v)
    }
    fn from_host(h: HostData) -> Vec<Self> {
        match h {
            HostData::F64(v) => v,
            HostData::F32(_) => unreachable!("f32 data in an f64 array"),
        }
    }
    fn host_slice(h: &HostData) -> &[Self] {
        match h {
            HostData::F64(v) => v,
            HostData::F32(_) => unreachable!("f32 data in an f64 array"),
        }
    }
    fn host_slice_mut(h: &mut HostData) -> &mut [Self] {
        match h {
            HostData::F64(v) => v,
            HostData::F32(_) => unreachable!("f32 data in an f64 array"),
        }
    }
}

impl ArrayTerm for f32 {
    const KIND: TermKind = TermKind::F32;
    fn into_host(v: Vec<Self>) -> HostData {
        HostData::F32(v)
    }
    fn from_host(h: HostData) -> Vec<Self> {
        match h {
            HostData::F32(v) => v,
            HostData::F64(_) => unreachable!("f64 data in an f32 array"),
        }
    }
    fn host_slice(h: &HostData) -> &[Self] {
        match h {
            HostData::F32(v) => v,
            HostData::F64(_) => unreachable!("f64 data in an f32 array"),
        }
    }
    fn host_slice_mut(h: &mut HostData) -> &mut [Self] {
        match h {
            HostData::F32(v) => v,
            HostData::F64(_) => unreachable!("f64 data in an f32 array"),
        }
    }
}

/// An element type of [`PlainArray`]: `u32`, `u64` (payloads, indices) or `f64` (bounds).
pub trait PlainElem:
    Copy + Default + Send + Sync + std::fmt::Debug + 'static + plain_seal::Sealed
{
    /// Bytes per element.
    const SIZE: usize;
    /// Little-endian bytes.
    #[doc(hidden)]
    fn to_le(self, out: &mut Vec<u8>);
    /// From little-endian bytes (`SIZE` of them).
    #[doc(hidden)]
    fn from_le(b: &[u8]) -> Self;
}

mod plain_seal {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for f64 {}
}

macro_rules! plain_elem {
    ($t:ty, $s:expr) => {
        impl PlainElem for $t {
            const SIZE: usize = $s;
            fn to_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn from_le(b: &[u8]) -> Self {
                let mut a = [0u8; $s];
                a.copy_from_slice(&b[..$s]);
                <$t>::from_le_bytes(a)
            }
        }
    };
}
plain_elem!(u32, 4);
plain_elem!(u64, 8);
plain_elem!(f64, 8);

/// A payload type for [`ExpArray::sort_by_key`]: `u32` or `u64`.
pub trait Payload: PlainElem {
    /// Widened to u64 (internal).
    #[doc(hidden)]
    fn widen(self) -> u64;
    /// Narrowed from u64 (internal; exact for values that came from `widen`).
    #[doc(hidden)]
    fn narrow(v: u64) -> Self;
    /// Whether this is u64 (internal).
    #[doc(hidden)]
    const WIDE: bool;
}
impl Payload for u32 {
    fn widen(self) -> u64 {
        self as u64
    }
    fn narrow(v: u64) -> Self {
        v as u32
    }
    const WIDE: bool = false;
}
impl Payload for u64 {
    fn widen(self) -> u64 {
        self
    }
    fn narrow(v: u64) -> Self {
        v
    }
    const WIDE: bool = true;
}

/// One expansion at run time: its terms widened to f64 (exact for f32), padded with zeros.
pub(crate) type Sc = [f64; 8];

pub(crate) fn sc_of<T: FloatTerm, const N: usize>(e: &Expansion<T, N>) -> Sc {
    let mut s = [0.0; 8];
    for (k, t) in e.terms().iter().enumerate() {
        s[k] = t.to_f64();
    }
    s
}

/// The expansion with these terms, taken verbatim (they come from an expansion of the same
/// N and T: an array's own data or a kernel's result, which keeps the invariant).
pub(crate) fn exp_of_terms<T: FloatTerm, const N: usize>(t: &[T]) -> Expansion<T, N> {
    let mut e = [Expansion::<T, N>::zero()];
    terms_of_mut(&mut e).copy_from_slice(&t[..N]);
    e[0]
}

pub(crate) fn exp_of_sc<T: FloatTerm, const N: usize>(s: &Sc) -> Expansion<T, N> {
    let mut t = [T::ZERO; N];
    for k in 0..N {
        t[k] = T::from_f64(s[k]);
    }
    exp_of_terms(&t)
}

pub(crate) fn invalid(msg: impl Into<String>) -> GpuError {
    GpuError::new(GpuErrorKind::InvalidInput(msg.into()))
}

// ---- raw (type-erased) arrays ---------------------------------------------------------------

/// Where an array's data lives.
pub(crate) enum Store {
    Host(HostData),
    Dev(device::DevBuf),
}

/// An array of `len` expansions of `n` terms of `kind`, interleaved.
pub(crate) struct Raw {
    pub kind: TermKind,
    pub n: usize,
    pub len: usize,
    pub store: Store,
}

/// A plain array (payloads, indices, bounds).
pub(crate) enum PlainStore<U> {
    Host(Vec<U>),
    Dev(device::DevBuf),
}

// ---- the backend ----------------------------------------------------------------------------

pub(crate) enum Backend {
    Host,
    Device(device::DeviceBackend),
}

/// An array backend: the host (all cores) or one or several GPUs. Cheap to clone (shared).
/// Arrays remember their backend; operations on two arrays need the same backend (and, on
/// the device, the same GPU).
#[derive(Clone)]
pub struct Arrays {
    pub(crate) inner: Arc<Backend>,
}

impl std::fmt::Debug for Arrays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Arrays({})", self.describe())
    }
}

impl Arrays {
    /// The host backend: all cores through rayon.
    pub fn cpu() -> Self {
        Self {
            inner: Arc::new(Backend::Host),
        }
    }

    /// The device backend on every GPU of `ctx` (arrays are created on GPU 0 unless placed
    /// with [`Self::array_on`]; the host-tiled BLAS routines share their work over all).
    pub fn gpu(ctx: GpuContext) -> Self {
        Self {
            inner: Arc::new(Backend::Device(device::DeviceBackend::from_context(ctx))),
        }
    }

    /// The GPU backend when a GPU is usable, else the host backend and the reason.
    pub fn auto() -> (Self, Option<GpuUnavailable>) {
        match GpuContext::probe() {
            Ok(ctx) => (Self::gpu(ctx), None),
            Err(u) => (Self::cpu(), Some(u)),
        }
    }

    /// The device backend on any executor of the kernels (one per device): a CUDA device
    /// ([`Self::gpu`] builds these), or another executor of the same kernel source such as the
    /// host build used by the tests.
    pub fn with_executors(execs: Vec<Arc<dyn KernelExec>>) -> Self {
        Self {
            inner: Arc::new(Backend::Device(device::DeviceBackend::new(execs))),
        }
    }

    /// True for the device backend.
    pub fn is_device(&self) -> bool {
        matches!(*self.inner, Backend::Device(_))
    }

    /// GPUs in use (0 for the host backend).
    pub fn device_count(&self) -> usize {
        match &*self.inner {
            Backend::Host => 0,
            Backend::Device(d) => d.execs.len(),
        }
    }

    /// One line naming the backend.
    pub fn describe(&self) -> String {
        match &*self.inner {
            Backend::Host => format!("CPU ({} threads)", rayon::current_num_threads()),
            Backend::Device(d) => d.describe(),
        }
    }

    /// Waits until all work launched on the backend's GPUs has finished (nothing to do on the
    /// host backend, whose operations return when done). For timings.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        if let Backend::Device(d) = &*self.inner {
            for e in &d.execs {
                e.synchronize()?;
            }
        }
        Ok(())
    }

    pub(crate) fn same(&self, other: &Arrays) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    pub(crate) fn dev(&self) -> Option<&device::DeviceBackend> {
        match &*self.inner {
            Backend::Host => None,
            Backend::Device(d) => Some(d),
        }
    }

    /// An array holding `xs` (on GPU 0 for the device backend).
    pub fn array<T: ArrayTerm, const N: usize>(
        &self,
        xs: &[Expansion<T, N>],
    ) -> Result<ExpArray<T, N>, GpuError> {
        self.array_on(0, xs)
    }

    /// An array holding `xs` on GPU `device` (ignored by the host backend).
    pub fn array_on<T: ArrayTerm, const N: usize>(
        &self,
        device: usize,
        xs: &[Expansion<T, N>],
    ) -> Result<ExpArray<T, N>, GpuError> {
        let len = xs.len();
        let mut terms = vec![T::ZERO; len * N];
        for (i, e) in xs.iter().enumerate() {
            for (k, t) in e.terms().iter().enumerate() {
                terms[k * len + i] = *t;
            }
        }
        self.store_interleaved_on(device, len, terms)
    }

    /// An array from terms already interleaved (term k of element i at `k·len + i`); the
    /// terms of each element must form a valid expansion (as those of an [`Expansion`] do).
    pub fn array_from_interleaved<T: ArrayTerm, const N: usize>(
        &self,
        len: usize,
        terms: Vec<T>,
    ) -> Result<ExpArray<T, N>, GpuError> {
        self.store_interleaved_on(0, len, terms)
    }

    /// An array of `len` zeros (on GPU 0 for the device backend), e.g. the preallocated output
    /// of [`ExpArray::add_into`] or [`ExpArray::scan_into`]; nothing is uploaded.
    pub fn zeros<T: ArrayTerm, const N: usize>(
        &self,
        len: usize,
    ) -> Result<ExpArray<T, N>, GpuError> {
        let store = match &*self.inner {
            Backend::Host => Store::Host(T::into_host(vec![T::ZERO; len * N])),
            Backend::Device(d) => Store::Dev(d.zeros(0, len * N * T::KIND.size())?),
        };
        Ok(ExpArray::from_raw(
            Raw {
                kind: T::KIND,
                n: N,
                len,
                store,
            },
            self.clone(),
        ))
    }

    fn store_interleaved_on<T: ArrayTerm, const N: usize>(
        &self,
        device: usize,
        len: usize,
        terms: Vec<T>,
    ) -> Result<ExpArray<T, N>, GpuError> {
        if terms.len() != len * N {
            return Err(invalid(format!(
                "{} terms are not {len} interleaved expansions of {N} terms",
                terms.len()
            )));
        }
        let store = match &*self.inner {
            Backend::Host => Store::Host(T::into_host(terms)),
            Backend::Device(d) => Store::Dev(d.upload_terms(device, &T::into_host(terms))?),
        };
        Ok(ExpArray::from_raw(
            Raw {
                kind: T::KIND,
                n: N,
                len,
                store,
            },
            self.clone(),
        ))
    }

    /// A plain array holding `xs` (on GPU 0 for the device backend).
    pub fn plain<U: PlainElem>(&self, xs: &[U]) -> Result<PlainArray<U>, GpuError> {
        self.plain_on(0, xs)
    }

    /// A plain array holding `xs` on GPU `device`.
    pub fn plain_on<U: PlainElem>(
        &self,
        device: usize,
        xs: &[U],
    ) -> Result<PlainArray<U>, GpuError> {
        let store = match &*self.inner {
            Backend::Host => PlainStore::Host(xs.to_vec()),
            Backend::Device(d) => PlainStore::Dev(d.upload_plain(device, xs)?),
        };
        Ok(PlainArray {
            len: xs.len(),
            store,
            arrays: self.clone(),
        })
    }

    /// A `rows × cols` matrix from its elements in column-major order (element (i, j) at
    /// `j·rows + i`, as BLAS and nalgebra store them).
    pub fn matrix<T: ArrayTerm, const N: usize>(
        &self,
        rows: usize,
        cols: usize,
        col_major: &[Expansion<T, N>],
    ) -> Result<ExpMatrix<T, N>, GpuError> {
        if col_major.len() != rows * cols {
            return Err(invalid(format!(
                "{} elements for a {rows} × {cols} matrix",
                col_major.len()
            )));
        }
        Ok(ExpMatrix {
            rows,
            cols,
            data: self.array(col_major)?,
        })
    }
}

// ---- typed arrays ---------------------------------------------------------------------------

/// An array of `Expansion<T, N>` on the host or on one GPU (interleaved layout). Created by
/// [`Arrays::array`]; every operation returns a new array on the same backend and device.
pub struct ExpArray<T: ArrayTerm, const N: usize> {
    pub(crate) raw: Raw,
    pub(crate) arrays: Arrays,
    _t: PhantomData<T>,
}

impl<T: ArrayTerm, const N: usize> std::fmt::Debug for ExpArray<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ExpArray<{}, {N}>[{}] on {}",
            T::NAME,
            self.raw.len,
            self.location()
        )
    }
}

/// A plain array of `u32`, `u64` or `f64` (payloads, indices, error bounds) on the host or on
/// one GPU.
pub struct PlainArray<U: PlainElem> {
    pub(crate) len: usize,
    pub(crate) store: PlainStore<U>,
    pub(crate) arrays: Arrays,
}

impl<U: PlainElem> std::fmt::Debug for PlainArray<U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PlainArray[{}]", self.len)
    }
}

impl<U: PlainElem> PlainArray<U> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The elements, copied to the host.
    pub fn to_vec(&self) -> Result<Vec<U>, GpuError> {
        match &self.store {
            PlainStore::Host(v) => Ok(v.clone()),
            PlainStore::Dev(b) => b.download_plain(self.len),
        }
    }
    pub(crate) fn device_index(&self) -> Option<usize> {
        match &self.store {
            PlainStore::Host(_) => None,
            PlainStore::Dev(b) => Some(b.dev),
        }
    }
}

/// Which scan: element i of the result is x₀ ⊕ … ⊕ x_i (inclusive) or x₀ ⊕ … ⊕ x_{i−1}
/// (exclusive; zero first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanKind {
    /// x₀ + … + x_i.
    Inclusive,
    /// x₀ + … + x_{i−1}.
    Exclusive,
}

/// A comparison with a threshold, by exact value (a NaN element satisfies only `Ne`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// x < t
    Lt,
    /// x ≤ t
    Le,
    /// x > t
    Gt,
    /// x ≥ t
    Ge,
    /// x = t
    Eq,
    /// x ≠ t (or unordered)
    Ne,
}

impl Cmp {
    /// Whether a comparison code (−1, 0, 1, or 2 when unordered) satisfies the relation.
    pub(crate) fn holds(self, c: i32) -> bool {
        match self {
            Cmp::Lt => c == -1,
            Cmp::Le => c == -1 || c == 0,
            Cmp::Gt => c == 1,
            Cmp::Ge => c == 1 || c == 0,
            Cmp::Eq => c == 0,
            Cmp::Ne => c != 0,
        }
    }
    pub(crate) fn code(self) -> i32 {
        self as i32
    }
}

/// Element-wise binary operations (accurate tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add = 0,
    Sub = 1,
    Mul = 2,
    Div = 3,
}

/// Element-wise unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg = 0,
    Abs = 1,
    Sqr = 2,
    Sqrt = 3,
    Recip = 4,
}

/// Element-wise operations with a machine number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TermOp {
    Add = 0,
    Mul = 1,
    Div = 2,
}

/// Reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RedOp {
    /// Σ x (with the bound accumulators).
    Sum = 0,
    /// Σ x·y.
    Dot = 1,
    /// Σ x².
    SumSq = 2,
    /// min.
    Min = 3,
    /// max.
    Max = 4,
    /// Σ x in [`acc_terms`]`(N)` terms.
    SumAcc = 5,
}

/// Terms of the accumulator of [`ExpArray::sum_accurate`] for N-term inputs: 2N up to 8.
pub const fn acc_terms(n: usize) -> usize {
    if n <= 4 {
        2 * n
    } else {
        8
    }
}

/// The result of [`ExpArray::sum_bounded`] from its raw reduction over `len` elements.
pub(crate) fn bounded_sum_of<T: ArrayTerm, const N: usize>(
    r: Option<RedOut>,
    len: usize,
) -> Bounded<Expansion<T, N>> {
    let c = bound::Consts::new::<T>(N);
    match r {
        None => Bounded {
            value: Expansion::zero(),
            err: 0.0,
        },
        Some(r) => Bounded {
            value: exp_of_sc(&r.value),
            err: c.finalize(&c.mul, 0.0, 0, r.a, len as u64 - 1, r.l),
        },
    }
}

/// The result of [`ExpArray::sum_accurate`] from its raw reduction (accumulators of
/// [`acc_terms`]`(N)` terms) over `len` elements.
pub(crate) fn accurate_sum_of<T: ArrayTerm, const N: usize>(
    r: Option<RedOut>,
    len: usize,
) -> Bounded<Expansion<T, N>> {
    let m = acc_terms(N);
    let c = bound::Consts::new::<T>(m);
    let Some(r) = r else {
        return Bounded {
            value: Expansion::zero(),
            err: 0.0,
        };
    };
    let mut t = [T::ZERO; N];
    for (k, v) in t.iter_mut().enumerate() {
        *v = T::from_f64(r.value[k]);
    }
    if N == 2 {
        let (h, l) = expanse_core::eft::fast_two_sum(t[0], t[1]);
        t[0] = h;
        t[1] = l;
    }
    let mut tail = 0.0;
    for v in &r.value[N..m] {
        tail = bound::add_up(tail, v.abs());
    }
    let acc = c.finalize(&c.mul, 0.0, 0, r.a, len as u64 - 1, r.l);
    Bounded {
        value: exp_of_terms(&t),
        err: bound::add_up(acc, tail),
    }
}

/// The result of a raw reduction: the value and the bound accumulators (P, A, L; module
/// [`bound`]); `None` for an empty array.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RedOut {
    pub value: Sc,
    pub p: f64,
    pub a: f64,
    pub l: f64,
}

impl<T: ArrayTerm, const N: usize> ExpArray<T, N> {
    pub(crate) fn from_raw(raw: Raw, arrays: Arrays) -> Self {
        Self {
            raw,
            arrays,
            _t: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.raw.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.raw.len == 0
    }

    /// The backend the array belongs to.
    pub fn backend(&self) -> &Arrays {
        &self.arrays
    }

    /// "host" or "GPU i".
    pub fn location(&self) -> String {
        match &self.raw.store {
            Store::Host(_) => "host".into(),
            Store::Dev(b) => format!("GPU {}", b.dev),
        }
    }

    pub(crate) fn device_index(&self) -> Option<usize> {
        match &self.raw.store {
            Store::Host(_) => None,
            Store::Dev(b) => Some(b.dev),
        }
    }

    /// The elements, copied to the host.
    pub fn to_vec(&self) -> Result<Vec<Expansion<T, N>>, GpuError> {
        let terms = self.to_interleaved()?;
        let len = self.raw.len;
        let mut out = Vec::with_capacity(len);
        let mut t = [T::ZERO; N];
        for i in 0..len {
            for (k, v) in t.iter_mut().enumerate() {
                *v = terms[k * len + i];
            }
            out.push(exp_of_terms::<T, N>(&t));
        }
        Ok(out)
    }

    /// The terms, interleaved (term k of element i at `k·len + i`), copied to the host.
    pub fn to_interleaved(&self) -> Result<Vec<T>, GpuError> {
        match &self.raw.store {
            Store::Host(h) => Ok(T::host_slice(h).to_vec()),
            Store::Dev(b) => Ok(T::from_host(b.download_terms(T::KIND, self.raw.len * N)?)),
        }
    }

    /// A copy on the same backend and device.
    pub fn try_clone(&self) -> Result<Self, GpuError> {
        let store = match &self.raw.store {
            Store::Host(h) => Store::Host(h.clone()),
            Store::Dev(b) => Store::Dev(b.duplicate()?),
        };
        Ok(Self::from_raw(
            Raw {
                kind: T::KIND,
                n: N,
                len: self.raw.len,
                store,
            },
            self.arrays.clone(),
        ))
    }

    pub(crate) fn check_pair(&self, other: &Self, what: &str) -> Result<(), GpuError> {
        if !self.arrays.same(&other.arrays) {
            return Err(invalid(format!(
                "{what}: the arrays belong to different backends"
            )));
        }
        if self.device_index() != other.device_index() {
            return Err(invalid(format!("{what}: the arrays are on different GPUs")));
        }
        if self.raw.len != other.raw.len {
            return Err(invalid(format!(
                "{what}: lengths differ ({} and {})",
                self.raw.len, other.raw.len
            )));
        }
        Ok(())
    }

    fn wrap(&self, raw: Raw) -> Self {
        Self::from_raw(raw, self.arrays.clone())
    }

    fn binary(&self, other: &Self, op: BinOp) -> Result<Self, GpuError> {
        self.check_pair(other, "element-wise operation")?;
        let raw = match self.arrays.dev() {
            None => host::map_binary(op, &self.raw, &other.raw),
            Some(d) => d.map_binary(op, &self.raw, &other.raw)?,
        };
        Ok(self.wrap(raw))
    }

    fn unary(&self, op: UnOp) -> Result<Self, GpuError> {
        let raw = match self.arrays.dev() {
            None => host::map_unary(op, &self.raw),
            Some(d) => d.map_unary(op, &self.raw)?,
        };
        Ok(self.wrap(raw))
    }

    fn with_term(&self, op: TermOp, t: T) -> Result<Self, GpuError> {
        let raw = match self.arrays.dev() {
            None => host::map_term(op, &self.raw, t.to_f64()),
            Some(d) => d.map_term(op, &self.raw, t.to_f64())?,
        };
        Ok(self.wrap(raw))
    }

    /// Element-wise `selfᵢ + otherᵢ` (accurate tier: `Expansion::add`).
    pub fn add(&self, other: &Self) -> Result<Self, GpuError> {
        self.binary(other, BinOp::Add)
    }
    /// Element-wise difference (`Expansion::sub`).
    pub fn sub(&self, other: &Self) -> Result<Self, GpuError> {
        self.binary(other, BinOp::Sub)
    }
    /// Element-wise product (`Expansion::mul`).
    pub fn mul(&self, other: &Self) -> Result<Self, GpuError> {
        self.binary(other, BinOp::Mul)
    }
    /// Element-wise quotient (`Expansion::div`).
    pub fn div(&self, other: &Self) -> Result<Self, GpuError> {
        self.binary(other, BinOp::Div)
    }
    /// Element-wise negation (exact).
    pub fn neg(&self) -> Result<Self, GpuError> {
        self.unary(UnOp::Neg)
    }
    /// Element-wise absolute value (exact).
    pub fn abs(&self) -> Result<Self, GpuError> {
        self.unary(UnOp::Abs)
    }
    /// Element-wise square (`Expansion::sqr`).
    pub fn sqr(&self) -> Result<Self, GpuError> {
        self.unary(UnOp::Sqr)
    }
    /// Element-wise square root (`Expansion::sqrt`).
    pub fn sqrt(&self) -> Result<Self, GpuError> {
        self.unary(UnOp::Sqrt)
    }
    /// Element-wise reciprocal (`Expansion::recip`).
    pub fn recip(&self) -> Result<Self, GpuError> {
        self.unary(UnOp::Recip)
    }
    /// Adds a machine number to every element (`Expansion::add_term`).
    pub fn add_term(&self, t: T) -> Result<Self, GpuError> {
        self.with_term(TermOp::Add, t)
    }
    /// Scales every element by a machine number (`Expansion::mul_term`).
    pub fn mul_term(&self, t: T) -> Result<Self, GpuError> {
        self.with_term(TermOp::Mul, t)
    }
    /// Divides every element by a machine number (`Expansion::div_term`).
    pub fn div_term(&self, t: T) -> Result<Self, GpuError> {
        self.with_term(TermOp::Div, t)
    }

    /// Applies an elementary function to every element: expanse-core's functions (with their
    /// stated bounds, [`expanse_core::functions::error_bound`]) on the host; on the device the
    /// kernel `fn_unary` of their CUDA port ([`crate::functions`]), bit-identical to them.
    pub fn map(&self, f: Unary) -> Result<Self, GpuError> {
        match self.arrays.dev() {
            None => Ok(self.wrap(host::map_fn(f, &self.raw))),
            Some(d) => Ok(self.wrap(d.map_fn(f, &self.raw)?)),
        }
    }

    pub(crate) fn reduce_raw(
        &self,
        op: RedOp,
        other: Option<&Self>,
    ) -> Result<Option<RedOut>, GpuError> {
        if let Some(o) = other {
            self.check_pair(o, "reduction")?;
        }
        match self.arrays.dev() {
            None => Ok(host::reduce(op, &self.raw, other.map(|o| &o.raw))),
            Some(d) => d.reduce(op, &self.raw, other.map(|o| &o.raw)),
        }
    }

    /// The sum of the elements in the fixed tree order (module doc); zero when empty.
    pub fn sum(&self) -> Result<Expansion<T, N>, GpuError> {
        Ok(self
            .reduce_raw(RedOp::Sum, None)?
            .map(|r| exp_of_sc(&r.value))
            .unwrap_or_else(Expansion::zero))
    }

    /// The sum and a rigorous bound of its error: |value − Σ xᵢ| ≤ err for the exact sum of
    /// the elements' exact values (+∞ when the sum leaves the range of [`bound`]).
    pub fn sum_bounded(&self) -> Result<Bounded<Expansion<T, N>>, GpuError> {
        Ok(bounded_sum_of::<T, N>(
            self.reduce_raw(RedOp::Sum, None)?,
            self.raw.len,
        ))
    }

    /// The sum in doubled precision: the same tree as [`Self::sum`] run on accumulators of
    /// [`acc_terms`]`(N)` = min(2N, 8) terms, rounded to N terms by keeping the leading N (for
    /// N = 2 passed through Fast2Sum, exact), with a rigorous bound of the total error (the
    /// accumulation's bound at 2N terms plus the dropped tail). For N ≤ 4 the accumulation
    /// error is about (2u)^{2N}·(depth)·Σ|xᵢ|, so sums whose condition number Σ|xᵢ|/|Σxᵢ| is
    /// far beyond 1/u^N still come out right to N terms (`tests/it/arrays_host.rs`: 10⁶ terms
    /// cancelling by a factor 10³⁰).
    pub fn sum_accurate(&self) -> Result<Bounded<Expansion<T, N>>, GpuError> {
        Ok(accurate_sum_of::<T, N>(
            self.reduce_raw(RedOp::SumAcc, None)?,
            self.raw.len,
        ))
    }

    /// The smallest element by exact value (the first of equal ones in the reduction order; a
    /// NaN element makes the result NaN); `None` when empty.
    pub fn min(&self) -> Result<Option<Expansion<T, N>>, GpuError> {
        Ok(self
            .reduce_raw(RedOp::Min, None)?
            .map(|r| exp_of_sc(&r.value)))
    }

    /// The largest element (as [`Self::min`]).
    pub fn max(&self) -> Result<Option<Expansion<T, N>>, GpuError> {
        Ok(self
            .reduce_raw(RedOp::Max, None)?
            .map(|r| exp_of_sc(&r.value)))
    }

    /// Σᵢ selfᵢ·otherᵢ in the fixed tree order; [`blas::dot`] adds the error bound.
    pub fn dot(&self, other: &Self) -> Result<Expansion<T, N>, GpuError> {
        Ok(self
            .reduce_raw(RedOp::Dot, Some(other))?
            .map(|r| exp_of_sc(&r.value))
            .unwrap_or_else(Expansion::zero))
    }

    /// Prefix sums in the fixed order of the module doc.
    pub fn scan(&self, kind: ScanKind) -> Result<Self, GpuError> {
        let raw = match self.arrays.dev() {
            None => host::scan(&self.raw, kind == ScanKind::Inclusive),
            Some(d) => d.scan(&self.raw, kind == ScanKind::Inclusive)?,
        };
        Ok(self.wrap(raw))
    }

    /// The elements sorted by exact value, ascending, NaNs last; stable (equal values keep
    /// their order), so the result is unique.
    pub fn sort(&self) -> Result<Self, GpuError> {
        let raw = match self.arrays.dev() {
            None => host::sort(&self.raw, None).0,
            Some(d) => d.sort(&self.raw, None)?.0,
        };
        Ok(self.wrap(raw))
    }

    /// Sorts the elements (as [`Self::sort`]) and permutes `payload` with them.
    pub fn sort_by_key<U: Payload>(
        &self,
        payload: &PlainArray<U>,
    ) -> Result<(Self, PlainArray<U>), GpuError> {
        if !self.arrays.same(&payload.arrays) || self.device_index() != payload.device_index() {
            return Err(invalid(
                "sort_by_key: keys and payload are on different backends or GPUs",
            ));
        }
        if payload.len != self.raw.len {
            return Err(invalid(format!(
                "sort_by_key: {} keys but {} payload values",
                self.raw.len, payload.len
            )));
        }
        match self.arrays.dev() {
            None => {
                let (raw, perm) = host::sort(&self.raw, Some(()));
                let perm = perm.unwrap_or_default();
                let PlainStore::Host(p) = &payload.store else {
                    unreachable!("host payload")
                };
                let out: Vec<U> = perm.iter().map(|&i| p[i as usize]).collect();
                Ok((
                    self.wrap(raw),
                    PlainArray {
                        len: out.len(),
                        store: PlainStore::Host(out),
                        arrays: self.arrays.clone(),
                    },
                ))
            }
            Some(d) => {
                let PlainStore::Dev(pb) = &payload.store else {
                    unreachable!("device payload")
                };
                let (raw, pout) = d.sort(&self.raw, Some((pb, U::WIDE)))?;
                let pout = pout.ok_or_else(|| invalid("sort_by_key: no payload returned"))?;
                Ok((
                    self.wrap(raw),
                    PlainArray {
                        len: self.raw.len,
                        store: PlainStore::Dev(pout),
                        arrays: self.arrays.clone(),
                    },
                ))
            }
        }
    }

    /// The elements x with `x cmp threshold`, in their order, and their indices.
    pub fn select(
        &self,
        cmp: Cmp,
        threshold: &Expansion<T, N>,
    ) -> Result<(Self, PlainArray<u64>), GpuError> {
        let thr = sc_of(threshold);
        let (raw, idx) = match self.arrays.dev() {
            None => {
                let (r, i) = host::select(&self.raw, cmp, &thr);
                (r, PlainStore::Host(i))
            }
            Some(d) => {
                let (r, i) = d.select(&self.raw, cmp, &thr)?;
                (r, PlainStore::Dev(i))
            }
        };
        let len = raw.len;
        Ok((
            self.wrap(raw),
            PlainArray {
                len,
                store: idx,
                arrays: self.arrays.clone(),
            },
        ))
    }
}

// ---- operations into preallocated outputs ---------------------------------------------------

impl<T: ArrayTerm, const N: usize> ExpArray<T, N> {
    fn check_out(&self, out: &Self, what: &str) -> Result<(), GpuError> {
        self.check_pair(out, what)?;
        if std::ptr::eq(self, out) {
            return Err(invalid(format!("{what}: the output is an input")));
        }
        Ok(())
    }

    fn binary_into(&self, other: &Self, out: &mut Self, op: BinOp) -> Result<(), GpuError> {
        self.check_pair(other, "element-wise operation")?;
        self.check_out(out, "element-wise operation into an array")?;
        match self.arrays.dev() {
            None => host::map_binary_into(op, &self.raw, &other.raw, &mut out.raw),
            Some(d) => d.map_binary_into(op, &self.raw, &other.raw, &out.raw)?,
        }
        Ok(())
    }

    /// `out ← self + other` element-wise (as [`Self::add`]) into an existing array of the same
    /// length, backend and GPU: no allocation, so a timing of it is the kernel's.
    pub fn add_into(&self, other: &Self, out: &mut Self) -> Result<(), GpuError> {
        self.binary_into(other, out, BinOp::Add)
    }
    /// `out ← self − other` (as [`Self::sub`]; see [`Self::add_into`]).
    pub fn sub_into(&self, other: &Self, out: &mut Self) -> Result<(), GpuError> {
        self.binary_into(other, out, BinOp::Sub)
    }
    /// `out ← self · other` (as [`Self::mul`]; see [`Self::add_into`]).
    pub fn mul_into(&self, other: &Self, out: &mut Self) -> Result<(), GpuError> {
        self.binary_into(other, out, BinOp::Mul)
    }
    /// `out ← self / other` (as [`Self::div`]; see [`Self::add_into`]).
    pub fn div_into(&self, other: &Self, out: &mut Self) -> Result<(), GpuError> {
        self.binary_into(other, out, BinOp::Div)
    }

    /// Prefix sums (as [`Self::scan`]) into an existing array of the same length, backend and
    /// GPU. The output is not allocated; the scan's small scratch (one expansion and one
    /// flag per node of the tile tree, about 2·len/2048 nodes, and one expansion and one
    /// flag per tile for the published tile prefixes) still is, per call.
    pub fn scan_into(&self, kind: ScanKind, out: &mut Self) -> Result<(), GpuError> {
        self.check_out(out, "scan into an array")?;
        match self.arrays.dev() {
            None => host::scan_into(&self.raw, kind == ScanKind::Inclusive, &mut out.raw),
            Some(d) => d.scan_into(&self.raw, kind == ScanKind::Inclusive, &out.raw)?,
        }
        Ok(())
    }

    /// Copies `src` into this array (same length, backend and GPU): a device-to-device copy on
    /// the device backend, the baseline of the bandwidth rows of `expanse bench arrays`.
    pub fn copy_from(&mut self, src: &Self) -> Result<(), GpuError> {
        src.check_out(self, "copy")?;
        match (&mut self.raw.store, &src.raw.store) {
            (Store::Host(d), Store::Host(s)) => {
                T::host_slice_mut(d).copy_from_slice(T::host_slice(s));
            }
            (Store::Dev(d), Store::Dev(s)) => {
                let bytes = src.raw.len * N * T::KIND.size();
                if bytes > 0 {
                    d.exec.copy(d.id, 0, s.id, 0, bytes)?;
                }
            }
            _ => return Err(invalid("copy: the arrays belong to different backends")),
        }
        Ok(())
    }
}

/// A `rows × cols` matrix of expansions, column-major (element (i, j) at `j·rows + i`), its
/// data an [`ExpArray`] of length rows·cols (interleaved like any array).
pub struct ExpMatrix<T: ArrayTerm, const N: usize> {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) data: ExpArray<T, N>,
}

impl<T: ArrayTerm, const N: usize> std::fmt::Debug for ExpMatrix<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExpMatrix {}×{} ({:?})", self.rows, self.cols, self.data)
    }
}

impl<T: ArrayTerm, const N: usize> ExpMatrix<T, N> {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The elements in column-major order, as an array.
    pub fn data(&self) -> &ExpArray<T, N> {
        &self.data
    }
    /// The elements in column-major order, copied to the host.
    pub fn to_vec(&self) -> Result<Vec<Expansion<T, N>>, GpuError> {
        self.data.to_vec()
    }
}
