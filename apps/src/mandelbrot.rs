//! Deep zoom into the Mandelbrot set (seed 003, Narumi et al.'s quasi double precision
//! benchmark): escape-time images in f32, in Narumi's quasi double precision on f32 pairs
//! ([`expanse_core::quasi`], "df64"), in f64, in double-double (`Expansion<f64, 2>`, fast tier)
//! and in quad-double (`Expansion<f64, 4>`, fast tier), checked against MPFR at 200 bits; on
//! the GPU when one is given ([`report`]), where every image must be bit-identical to the CPU's.
//!
//! **Iteration.** z₀ = 0, z_{k+1} = z_k² + c; the count of a pixel is the first k with
//! |z_k|² > 4 (the bailout), or `max_iter` when none. Each format runs the same loop: f32 and
//! f64 with plain operations; quasi double with `mul_f12` for the products and `add_f1`/`sub_f1`
//! for the sums (seed 003 Fig. 3), the bailout tested on the high words; dd and qd with
//! `sqr_fast`, `mul_fast`, `add_fast` (the GPU's arithmetic), bailout on the leading terms; MPFR
//! at 200 bits with its rounded operations. Rows run in parallel (rayon); each pixel is independent, so
//! the images do not depend on the thread count.
//!
//! **Pixels.** The pixel spacing δ is a power of two, so the offset (i − W/2)·δ is exact; the
//! pixel's c is the dd sum of the view's center (parsed from decimal) and the offset. f32, f64
//! and the f32 pair take that c rounded to their format; qd and MPFR take it exactly, so dd, qd
//! and MPFR iterate the same c.
//!
//! **GPU.** [`render_gpu`] runs the same loops as CUDA kernels (`expanse_gpu::apps::mandelbrot`,
//! operation for operation; the real part of c depends only on the column and the imaginary
//! part only on the row, so the host computes one row and one column of c exactly as here and
//! uploads them). [`report`] then renders every image on both and counts the pixels that differ
//! (must be none).
//!
//! **Views.** *Deep*: a width of about 10^−20 (δ = 2^−74 ≈ 5·10^−23 for 256 pixels) around
//! −0.743643887037158704752191506114774 + 0.131825904205311970493132056385139·i (a point in
//! the seahorse valley, a standard deep-zoom target): f64's spacing near 0.74 is 1.1·10^−16,
//! so whole blocks of ~10^6 pixels share one c and the f64 and quasi-double images are wrong.
//! *Shallow* (f64-valid): δ = 2^−35 ≈ 2.9·10^−11 around the same point.
//!
//! **Known answer.** On a subsample of pixels (a fixed stride), MPFR at 200 bits recomputes
//! the count of the same c, and also of c ± ε·(1 + i) with ε = [`EPSILON`] = 2^−100
//! (≈ 100·u_dd·|c|, the size of dd's rounding of c and of each step's error, in c's units).
//! A pixel whose three counts differ lies within ε of the boundary between two escape-count
//! regions (the count is ill-conditioned there: orbits of ~10^4 steps that pass near repelling
//! cycles amplify any perturbation), and its dd count may legitimately differ; every other dd
//! count must equal MPFR's exactly (the check, for dd and qd), and the number that differ is
//! reported. For f64 and quasi double at the deep zoom the pixels differing from dd are counted (the whole
//! image: must be more than half); at the shallow view f64 must match MPFR on at least 95 %
//! of the sample.

use crate::cli::Report;
use expanse_core::quasi::{add_f1, mul_f12, sub_f1, Pair};
use expanse_core::{DoubleDouble, Expansion, QuadDouble};
use expanse_gpu::apps::mandelbrot::{self as gpu_mandel, MandelArith};
use expanse_gpu::{GpuContext, GpuError};
use rayon::prelude::*;
use rug::Float;
use std::time::Instant;

/// The perturbation of c (both parts) that defines a pixel on an escape-count boundary.
pub const EPSILON: f64 = 1.0 / (1u128 << 100) as f64;

/// MPFR precision of the known answer.
pub const MPFR_BITS: u32 = 200;

/// The center of both views (real, imaginary), decimal.
pub const CENTER: (&str, &str) = (
    "-0.743643887037158704752191506114774",
    "0.131825904205311970493132056385139",
);

/// A view: center, pixel spacing 2^log2_delta, size, iteration limit.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Name (`deep`, `shallow`).
    pub name: &'static str,
    /// log2 of the pixel spacing.
    pub log2_delta: i32,
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Iteration limit.
    pub max_iter: u32,
}

/// The center as a dd pair.
pub fn center() -> (DoubleDouble, DoubleDouble) {
    // The constants parse: a failure here is a bug in this file, not user input.
    let re = CENTER.0.parse().expect("center re");
    let im = CENTER.1.parse().expect("center im");
    (re, im)
}

/// The c of pixel (i, j) in dd (exact offset, one accurate addition).
pub fn pixel_c(view: &View, i: usize, j: usize) -> (DoubleDouble, DoubleDouble) {
    let (cr, ci) = center();
    let d = 2f64.powi(view.log2_delta);
    let dx = (i as f64 - (view.width / 2) as f64) * d;
    let dy = ((view.height / 2) as f64 - j as f64) * d;
    (cr.add_term(dx), ci.add_term(dy))
}

/// Escape count in f64.
pub fn count_f64(cx: f64, cy: f64, max_iter: u32) -> u32 {
    let (mut x, mut y) = (0.0f64, 0.0f64);
    for k in 0..max_iter {
        let xx = x * x;
        let yy = y * y;
        if xx + yy > 4.0 {
            return k;
        }
        let xy = x * y;
        x = xx - yy + cx;
        y = xy + xy + cy;
    }
    max_iter
}

/// Escape count in f32 (the loop of [`count_f64`] in single precision).
pub fn count_f32(cx: f32, cy: f32, max_iter: u32) -> u32 {
    let (mut x, mut y) = (0.0f32, 0.0f32);
    for k in 0..max_iter {
        let xx = x * x;
        let yy = y * y;
        if xx + yy > 4.0 {
            return k;
        }
        let xy = x * y;
        x = xx - yy + cx;
        y = xy + xy + cy;
    }
    max_iter
}

/// The dd number as a qd one (exact: the same value, two more zero terms).
pub fn widen(v: DoubleDouble) -> QuadDouble {
    let [hi, lo] = *v.terms();
    Expansion::try_from_normalized([hi, lo, 0.0, 0.0]).unwrap_or_else(|| QuadDouble::from_term(hi))
}

/// A dd number as Narumi's f32 pair (hi, lo): hi the nearest f32, lo the rest rounded.
pub fn to_pair(v: DoubleDouble) -> Pair<f32> {
    let hi = v.to_f64() as f32;
    let lo = v.sub(&DoubleDouble::from_term(f64::from(hi))).to_f64() as f32;
    (hi, lo)
}

/// Escape count in quasi double precision (f32 pairs, seed 003's operations).
pub fn count_quasi(cx: Pair<f32>, cy: Pair<f32>, max_iter: u32) -> u32 {
    let (mut x, mut y): (Pair<f32>, Pair<f32>) = ((0.0, 0.0), (0.0, 0.0));
    for k in 0..max_iter {
        let xx = mul_f12(x, x);
        let yy = mul_f12(y, y);
        if xx.0 + yy.0 > 4.0 {
            return k;
        }
        let xy = mul_f12(x, y);
        x = add_f1(sub_f1(xx, yy), cx);
        y = add_f1((xy.0 * 2.0, xy.1 * 2.0), cy);
    }
    max_iter
}

/// Escape count in double-double (fast tier).
pub fn count_dd(cx: DoubleDouble, cy: DoubleDouble, max_iter: u32) -> u32 {
    count_exp(cx, cy, max_iter)
}

/// Escape count in an expansion of N f64 terms (fast tier; dd at N = 2, qd at N = 4).
pub fn count_exp<const N: usize>(
    cx: Expansion<f64, N>,
    cy: Expansion<f64, N>,
    max_iter: u32,
) -> u32 {
    let (mut x, mut y) = (Expansion::<f64, N>::zero(), Expansion::<f64, N>::zero());
    for k in 0..max_iter {
        let xx = x.sqr_fast();
        let yy = y.sqr_fast();
        if xx.hi() + yy.hi() > 4.0 {
            return k;
        }
        let xy = x.mul_fast(&y);
        x = xx.sub_fast(&yy).add_fast(&cx);
        y = xy.ldexp(1).add_fast(&cy);
    }
    max_iter
}

/// Escape count in MPFR at `prec` bits.
pub fn count_mpfr(cx: &Float, cy: &Float, max_iter: u32, prec: u32) -> u32 {
    let mut x = Float::new(prec);
    let mut y = Float::new(prec);
    for k in 0..max_iter {
        let xx = Float::with_val(prec, x.square_ref());
        let yy = Float::with_val(prec, y.square_ref());
        if Float::with_val(prec, &xx + &yy) > 4 {
            return k;
        }
        let xy = Float::with_val(prec, &x * &y);
        x = Float::with_val(prec, &xx - &yy) + cx;
        y = Float::with_val(prec, xy << 1u32) + cy;
    }
    max_iter
}

/// The MPFR count of c and whether c lies within [`EPSILON`] of an escape-count boundary
/// (the counts at c ± ε·(1 + i) differ from it).
pub fn count_mpfr_sensitive(cx: &Float, cy: &Float, max_iter: u32) -> (u32, bool) {
    let k = count_mpfr(cx, cy, max_iter, MPFR_BITS);
    let sensitive = [-1.0, 1.0].iter().any(|&s| {
        let px = Float::with_val(MPFR_BITS, cx + s * EPSILON);
        let py = Float::with_val(MPFR_BITS, cy + s * EPSILON);
        count_mpfr(&px, &py, max_iter, MPFR_BITS) != k
    });
    (k, sensitive)
}

/// An image of escape counts, row-major, with the seconds it took.
#[derive(Clone, Debug)]
pub struct Image {
    /// Counts, row-major.
    pub counts: Vec<u32>,
    /// Seconds.
    pub seconds: f64,
}

impl Image {
    /// Total iterations performed.
    pub fn iterations(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }
}

/// Formats of the images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// IEEE single.
    F32,
    /// Narumi's quasi double on f32 pairs.
    Quasi,
    /// IEEE double.
    F64,
    /// Double-double, fast tier.
    Dd,
    /// Quad-double, fast tier.
    Qd,
}

impl Format {
    /// Every format, in the order of the report.
    pub const ALL: [Format; 5] = [
        Format::F32,
        Format::Quasi,
        Format::F64,
        Format::Dd,
        Format::Qd,
    ];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Format::F32 => "f32",
            Format::F64 => "f64",
            Format::Quasi => "quasi-double (f32 pair)",
            Format::Dd => "dd",
            Format::Qd => "qd",
        }
    }
}

/// The image of a view in a format, rows in parallel.
pub fn render(view: &View, f: Format) -> Image {
    let t = Instant::now();
    let counts: Vec<u32> = (0..view.height)
        .into_par_iter()
        .flat_map_iter(|j| {
            (0..view.width).map(move |i| {
                let (cx, cy) = pixel_c(view, i, j);
                match f {
                    Format::F32 => count_f32(cx.to_f64() as f32, cy.to_f64() as f32, view.max_iter),
                    Format::F64 => count_f64(cx.to_f64(), cy.to_f64(), view.max_iter),
                    Format::Quasi => count_quasi(to_pair(cx), to_pair(cy), view.max_iter),
                    Format::Dd => count_dd(cx, cy, view.max_iter),
                    Format::Qd => count_exp(widen(cx), widen(cy), view.max_iter),
                }
            })
        })
        .collect();
    Image {
        counts,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// The coordinates of a view for the GPU kernels, in the term type of the format.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuCoords {
    /// f32 terms (f32, quasi double).
    F32(Vec<f32>, Vec<f32>),
    /// f64 terms (f64, dd, qd).
    F64(Vec<f64>, Vec<f64>),
}

/// The kernel arithmetic of format `f` and the view's c along each axis in the kernels'
/// layout: term k of column i's real part at `k·width + i`, of row j's imaginary part at
/// `k·height + j`, each converted from [`pixel_c`] exactly as [`render`] converts it.
pub fn gpu_coords(view: &View, f: Format) -> (MandelArith, GpuCoords) {
    let cols: Vec<DoubleDouble> = (0..view.width).map(|i| pixel_c(view, i, 0).0).collect();
    let rows: Vec<DoubleDouble> = (0..view.height).map(|j| pixel_c(view, 0, j).1).collect();
    fn layout<T: Copy + Default, const K: usize>(
        v: &[DoubleDouble],
        conv: impl Fn(DoubleDouble) -> [T; K],
    ) -> Vec<T> {
        let mut out = vec![T::default(); K * v.len()];
        for (i, c) in v.iter().enumerate() {
            for (k, t) in conv(*c).into_iter().enumerate() {
                out[k * v.len() + i] = t;
            }
        }
        out
    }
    fn both<T: Copy + Default, const K: usize>(
        cols: &[DoubleDouble],
        rows: &[DoubleDouble],
        conv: impl Fn(DoubleDouble) -> [T; K],
    ) -> (Vec<T>, Vec<T>) {
        (layout(cols, &conv), layout(rows, &conv))
    }
    match f {
        Format::F32 => {
            let (x, y) = both(&cols, &rows, |v| [v.to_f64() as f32]);
            (MandelArith::Plain, GpuCoords::F32(x, y))
        }
        Format::Quasi => {
            let (x, y) = both(&cols, &rows, |v| {
                let (hi, lo) = to_pair(v);
                [hi, lo]
            });
            (MandelArith::Quasi, GpuCoords::F32(x, y))
        }
        Format::F64 => {
            let (x, y) = both(&cols, &rows, |v| [v.to_f64()]);
            (MandelArith::Plain, GpuCoords::F64(x, y))
        }
        Format::Dd => {
            let (x, y) = both(&cols, &rows, |v| *v.terms());
            (MandelArith::Expansion { terms: 2 }, GpuCoords::F64(x, y))
        }
        Format::Qd => {
            let (x, y) = both(&cols, &rows, |v| *widen(v).terms());
            (MandelArith::Expansion { terms: 4 }, GpuCoords::F64(x, y))
        }
    }
}

/// The image of a view in a format on the GPU (GPU 0 of `ctx`): the same counts as [`render`]
/// (the kernels repeat its loops operation for operation), the seconds those of the kernel.
pub fn render_gpu(ctx: &GpuContext, view: &View, f: Format) -> Result<Image, GpuError> {
    let (w, h, m) = (view.width, view.height, view.max_iter);
    let (counts, seconds) = match gpu_coords(view, f) {
        (arith, GpuCoords::F32(x, y)) => gpu_mandel::render::<f32>(ctx, arith, &x, &y, w, h, m)?,
        (arith, GpuCoords::F64(x, y)) => gpu_mandel::render::<f64>(ctx, arith, &x, &y, w, h, m)?,
    };
    Ok(Image { counts, seconds })
}

/// The MPFR check on every `stride`-th pixel (row-major): (pixel index, count, on a boundary).
pub fn mpfr_sample(view: &View, stride: usize) -> Vec<(usize, u32, bool)> {
    let n = view.width * view.height;
    (0..n)
        .into_par_iter()
        .step_by(stride)
        .map(|p| {
            let (cx, cy) = pixel_c(view, p % view.width, p / view.width);
            let (k, b) = count_mpfr_sensitive(&cx.to_rug(), &cy.to_rug(), view.max_iter);
            (p, k, b)
        })
        .collect()
}

/// Comparison of an image with the MPFR sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleCheck {
    /// Pixels sampled.
    pub sampled: usize,
    /// Of those, within ε of an escape-count boundary.
    pub near_boundary: usize,
    /// Counts differing from MPFR.
    pub differ: usize,
    /// Counts differing from MPFR at pixels not near the boundary (must be 0).
    pub differ_off_boundary: usize,
}

/// Compares `img` with the MPFR sample.
pub fn check_sample(img: &Image, sample: &[(usize, u32, bool)]) -> SampleCheck {
    let mut s = SampleCheck {
        sampled: sample.len(),
        ..SampleCheck::default()
    };
    for &(p, k, near) in sample {
        s.near_boundary += usize::from(near);
        if img.counts[p] != k {
            s.differ += 1;
            s.differ_off_boundary += usize::from(!near);
        }
    }
    s
}

/// Pixels where two images differ.
pub fn differing(a: &Image, b: &Image) -> usize {
    a.counts
        .iter()
        .zip(b.counts.iter())
        .filter(|(x, y)| x != y)
        .count()
}

/// Distinct c values of the view in f64 (how pixelated f64 is).
pub fn distinct_f64_points(view: &View) -> usize {
    let mut v: Vec<(u64, u64)> = (0..view.height)
        .flat_map(|j| (0..view.width).map(move |i| (i, j)))
        .map(|(i, j)| {
            let (cx, cy) = pixel_c(view, i, j);
            (cx.to_f64().to_bits(), cy.to_f64().to_bits())
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// An 8-bit RGB rendering of counts, histogram-equalised (a pixel's colour is the fraction of
/// escaped pixels with a smaller count: deep views span a narrow band of large counts), through
/// a cyclic palette; the set in black.
pub fn rgb(img: &Image, max_iter: u32) -> Vec<u8> {
    let tau = 2.0 * std::f64::consts::PI;
    let mut sorted: Vec<u32> = img
        .counts
        .iter()
        .copied()
        .filter(|&k| k < max_iter)
        .collect();
    sorted.sort_unstable();
    let total = sorted.len().max(1) as f64;
    img.counts
        .iter()
        .flat_map(|&k| {
            if k >= max_iter {
                return [0u8, 0, 0];
            }
            let t = sorted.partition_point(|&x| x < k) as f64 / total;
            let ch = |phase: f64| (127.5 + 127.5 * (tau * 1.5 * t + phase).cos()) as u8;
            [ch(0.0), ch(2.1), ch(4.2)]
        })
        .collect()
}

/// A PNG file (RGB, 8 bits) of the image.
pub fn png_bytes(img: &Image, view: &View) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, view.width as u32, view.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(&rgb(img, view.max_iter))
            .map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Everything computed for one view.
#[derive(Clone, Debug)]
pub struct ViewRun {
    /// The view.
    pub view: View,
    /// Images by format (every format of [`Format::ALL`], on the CPU).
    pub images: Vec<(Format, Image)>,
    /// The GPU's images by format, when a GPU ran them.
    pub gpu_images: Vec<(Format, Image)>,
    /// The MPFR sample.
    pub sample: Vec<(usize, u32, bool)>,
    /// Seconds of the MPFR sample.
    pub mpfr_seconds: f64,
    /// Distinct f64 values of c.
    pub f64_points: usize,
}

impl ViewRun {
    /// The CPU image of format `f`.
    pub fn image(&self, f: Format) -> &Image {
        // Every format is rendered by run_view.
        &self
            .images
            .iter()
            .find(|(g, _)| *g == f)
            .expect("format rendered")
            .1
    }
}

/// Renders a view in every format (and on the GPU, when `gpu` is given) and runs the MPFR
/// sample.
pub fn run_view(view: View, stride: usize, gpu: Option<&GpuContext>) -> Result<ViewRun, GpuError> {
    let images = Format::ALL.iter().map(|&f| (f, render(&view, f))).collect();
    let mut gpu_images = Vec::new();
    if let Some(ctx) = gpu {
        for f in Format::ALL {
            gpu_images.push((f, render_gpu(ctx, &view, f)?));
        }
    }
    let t = Instant::now();
    let sample = mpfr_sample(&view, stride);
    Ok(ViewRun {
        view,
        images,
        gpu_images,
        sample,
        mpfr_seconds: t.elapsed().as_secs_f64(),
        f64_points: distinct_f64_points(&view),
    })
}

/// The two views at a size, and the sample stride.
pub fn views(size: usize, deep_iter: u32, shallow_iter: u32) -> [View; 2] {
    // Keep the widths fixed (≈ 1.4e-20 deep, ≈ 7.5e-9 shallow): δ scales with the size.
    let shift = (size as f64 / 256.0).log2().round() as i32;
    [
        View {
            name: "deep",
            log2_delta: -74 - shift,
            width: size,
            height: size,
            max_iter: deep_iter,
        },
        View {
            name: "shallow",
            log2_delta: -35 - shift,
            width: size,
            height: size,
            max_iter: shallow_iter,
        },
    ]
}

/// Runs and checks both views, on the CPU and, when `gpu` is given, on the GPU too (every
/// image must then be identical on both); the PNG images are returned (name, bytes) for the
/// caller to write.
pub fn report(
    size: usize,
    stride: usize,
    deep_iter: u32,
    shallow_iter: u32,
    gpu: Option<&GpuContext>,
) -> (Report, Vec<(String, Vec<u8>)>) {
    let mut rep = Report::new("mandelbrot");
    let mut pngs = Vec::new();
    let (cr, ci) = CENTER;
    rep.line(format!(
        "Mandelbrot escape counts around {cr} + {ci} i, {size}x{size} pixels, {} threads{}; MPFR at \
         {MPFR_BITS} bits on every {stride}-th pixel; boundary: counts at c +- {EPSILON:.1e}(1+i) differ",
        rayon::current_num_threads(),
        gpu.map_or(String::new(), |g| format!(", and on {}", g.describe()))
    ));
    for view in views(size, deep_iter, shallow_iter) {
        let r = match run_view(view, stride, gpu) {
            Ok(r) => r,
            Err(e) => {
                rep.check(&format!("{}: the GPU run failed: {e}", view.name), false);
                continue;
            }
        };
        let width = 2f64.powi(view.log2_delta) * size as f64;
        let pixels = (size * size) as f64;
        rep.line(format!(
            "\n{} view: width {width:.3e} (pixel 2^{}), max {} iterations; {} distinct f64 points c \
             of {} pixels",
            view.name,
            view.log2_delta,
            view.max_iter,
            r.f64_points,
            size * size
        ));
        let dd = r.image(Format::Dd);
        for (f, img) in &r.images {
            let s = check_sample(img, &r.sample);
            let d = differing(img, dd);
            let cpu_rate = pixels / img.seconds.max(1e-9);
            rep.line(format!(
                "  {:<24} CPU {:>6.2} s  {:.3e} pixels/s  {:.3e} iterations/s  differs from dd: {:>7} \
                 pixels; vs MPFR sample: {} of {} differ ({} near boundary, {} not)",
                f.name(),
                img.seconds,
                cpu_rate,
                img.iterations() as f64 / img.seconds.max(1e-9),
                d,
                s.differ,
                s.sampled,
                s.near_boundary,
                s.differ_off_boundary
            ));
            let key = format!("{} {}", view.name, f.name());
            rep.result(format!("{key} pixels differing from dd"), d.to_string());
            rep.result(
                format!("{key} sample differing from MPFR"),
                s.differ.to_string(),
            );
            rep.result(
                format!("{key} iterations/s"),
                format!("{:e}", img.iterations() as f64 / img.seconds.max(1e-9)),
            );
            rep.result(format!("{key} CPU pixels/s"), format!("{cpu_rate:e}"));
            if let Some((_, g)) = r.gpu_images.iter().find(|(h, _)| h == f) {
                let mismatches = differing(g, img);
                let gpu_rate = pixels / g.seconds.max(1e-9);
                let same = if mismatches == 0 {
                    "yes".to_string()
                } else {
                    format!("no ({mismatches} mismatches)")
                };
                rep.line(format!(
                    "  {:<24} GPU {:>6.3} s  {:.3e} pixels/s  GPU/CPU {:.1}x  GPU and CPU results \
                     identical: {same}",
                    "",
                    g.seconds,
                    gpu_rate,
                    gpu_rate / cpu_rate
                ));
                rep.result(format!("{key} GPU pixels/s"), format!("{gpu_rate:e}"));
                rep.result(
                    format!("{key} GPU/CPU"),
                    format!("{:e}", gpu_rate / cpu_rate),
                );
                rep.result(format!("{key} GPU and CPU results identical"), same.clone());
                rep.check(
                    &format!(
                        "{key}: GPU and CPU images identical ({mismatches} of {} pixels differ)",
                        size * size
                    ),
                    mismatches == 0 && g.counts.len() == img.counts.len(),
                );
            }
            match png_bytes(img, &view) {
                Ok(b) => pngs.push((
                    format!(
                        "mandelbrot-{}-{}.png",
                        view.name,
                        f.name().split(' ').next().unwrap_or("x")
                    ),
                    b,
                )),
                Err(e) => rep.line(format!("  (PNG encoding failed: {e})")),
            }
        }
        let s = check_sample(dd, &r.sample);
        rep.line(format!(
            "  MPFR sample: {} pixels in {:.2} s; {} within {EPSILON:.1e} of a count boundary",
            s.sampled, r.mpfr_seconds, s.near_boundary
        ));
        rep.result(
            format!("{} dd sample near boundary", view.name),
            s.near_boundary.to_string(),
        );
        let escaped = r.sample.iter().filter(|x| x.1 < view.max_iter).count();
        let distinct_counts = {
            let mut v: Vec<u32> = r.sample.iter().map(|x| x.1).collect();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        let sq = check_sample(r.image(Format::Qd), &r.sample);
        rep.check(
            &format!(
                "{}: dd and qd counts equal MPFR's on every sampled pixel off the boundary ({} and {} \
                 differ, all within ε of a count boundary); the view has structure ({} distinct \
                 counts, {} escaped)",
                view.name, s.differ, sq.differ, distinct_counts, escaped
            ),
            s.differ_off_boundary == 0
                && sq.differ_off_boundary == 0
                && distinct_counts >= 10
                && s.sampled > 0,
        );
        if view.name == "deep" {
            let d64 = differing(r.image(Format::F64), dd);
            let dq = differing(r.image(Format::Quasi), dd);
            let d32 = differing(r.image(Format::F32), dd);
            rep.check(
                &format!(
                    "deep: f32, f64 and quasi double are wrong (differ from dd at {d32}, {d64} and \
                     {dq} of {} pixels; f64 has {} distinct points)",
                    size * size,
                    r.f64_points
                ),
                d64 * 2 > size * size && dq * 2 > size * size && d32 * 2 > size * size,
            );
        } else {
            let s64 = check_sample(r.image(Format::F64), &r.sample);
            rep.check(
                &format!(
                    "shallow: f64 matches MPFR on at least 95 % of the sample ({} of {} differ, {} \
                     not near a boundary)",
                    s64.differ, s64.sampled, s64.differ_off_boundary
                ),
                s64.differ * 20 <= s64.sampled,
            );
        }
    }
    (rep, pngs)
}
