//! Parallel loops on all cores whose rayon machinery is compiled once.
//!
//! Every `par_iter().map(..).collect()` instantiates rayon's generic pipeline (bridge, join,
//! stack jobs: a few thousand lines of LLVM IR) for its closure type, and the device checks and
//! benchmark drivers that run a CPU reference beside a kernel do so for every N and term type.
//! In the release binary those copies were a quarter of its LLVM IR and of its compile time.
//! The loops here go through two non-generic functions ([`for_each_index`] and [`run_jobs`]),
//! so a caller instantiates only its own closure and a thin chunking wrapper.
//!
//! ```
//! use expanse_gpu::par;
//! let xs: Vec<u64> = (0..1000).collect();
//! let squares = par::map(&xs, |x| x * x);
//! assert_eq!(squares[999], 999 * 999);
//! let mut a = vec![1u32; 10];
//! let mut b = vec![2u32; 10];
//! par::for_each_chunk_pair(&mut a, &mut b, 3, |ca, cb| {
//!     for (x, y) in ca.iter_mut().zip(cb.iter_mut()) {
//!         *x += *y;
//!     }
//! });
//! assert_eq!(a, vec![3u32; 10]);
//! ```

use rayon::prelude::*;

/// Runs `f(i)` for every i in 0..len on all cores, in chunks of `grain` consecutive indices.
pub fn for_each_index(len: usize, grain: usize, f: &(dyn Fn(usize) + Sync)) {
    let grain = grain.max(1);
    (0..len.div_ceil(grain)).into_par_iter().for_each(|c| {
        for i in c * grain..((c + 1) * grain).min(len) {
            f(i);
        }
    });
}

/// A unit of work for [`run_jobs`].
pub type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// Runs every job on all cores (rayon's pool) and returns when all have finished.
pub fn run_jobs(jobs: Vec<Job<'_>>) {
    jobs.into_par_iter().for_each(|job| job());
}

/// Chunk length that gives every thread of the pool a few pieces of `len`.
fn chunk_for(len: usize) -> usize {
    len.div_ceil(4 * rayon::current_num_threads()).max(1)
}

/// `(0..len).map(f).collect()` on all cores, in the order of the indices.
pub fn map_index<V: Send>(len: usize, grain: usize, f: impl Fn(usize) -> V + Sync) -> Vec<V> {
    let grain = grain.max(1);
    let mut parts: Vec<Vec<V>> = (0..len.div_ceil(grain)).map(|_| Vec::new()).collect();
    let f = &f;
    let jobs: Vec<Job<'_>> = parts
        .iter_mut()
        .enumerate()
        .map(|(c, part)| {
            Box::new(move || *part = (c * grain..((c + 1) * grain).min(len)).map(f).collect())
                as Job<'_>
        })
        .collect();
    run_jobs(jobs);
    parts.into_iter().flatten().collect()
}

/// `xs.iter().map(f).collect()` on all cores, in the order of `xs`.
pub fn map<X: Sync, V: Send>(xs: &[X], f: impl Fn(&X) -> V + Sync) -> Vec<V> {
    map_index(xs.len(), chunk_for(xs.len()), |i| f(&xs[i]))
}

/// Calls `f` on the pairs of chunks of `chunk` elements of `xs` and `ys` (the same length), on
/// all cores.
pub fn for_each_chunk_pair<X: Send, Y: Send>(
    xs: &mut [X],
    ys: &mut [Y],
    chunk: usize,
    f: impl Fn(&mut [X], &mut [Y]) + Sync,
) {
    assert_eq!(
        xs.len(),
        ys.len(),
        "for_each_chunk_pair: slices of different lengths"
    );
    let chunk = chunk.max(1);
    let f = &f;
    let jobs: Vec<Job<'_>> = xs
        .chunks_mut(chunk)
        .zip(ys.chunks_mut(chunk))
        .map(|(cx, cy)| Box::new(move || f(cx, cy)) as Job<'_>)
        .collect();
    run_jobs(jobs);
}

/// Calls `f` on the chunks of `chunk` elements of `xs`, with the chunk's index, on all cores.
pub fn for_each_chunk<X: Send>(xs: &mut [X], chunk: usize, f: impl Fn(usize, &mut [X]) + Sync) {
    let chunk = chunk.max(1);
    let f = &f;
    let jobs: Vec<Job<'_>> = xs
        .chunks_mut(chunk)
        .enumerate()
        .map(|(c, cx)| Box::new(move || f(c, cx)) as Job<'_>)
        .collect();
    run_jobs(jobs);
}
