//! The identity check of the two backends: every primitive and BLAS routine run on a given
//! backend (a GPU, or the host build of the CUDA source in the tests) and on the host backend,
//! on the same random data, compared bit for bit (values and error bounds). Used by
//! `expanse bench arrays --check` on a device and by `tests/it/arrays_on_cpu.rs` without one;
//! compiled here once for every N and term type ([`compare`] takes them at run time).

use super::blas::{self, HostMatrix};
use super::{ArrayTerm, Arrays, Cmp, ExpArray, IndexMap, ScanKind, TermKind, Transpose};
use crate::error::GpuError;
use expanse_core::functions::Unary;
use expanse_core::{Expansion, FloatTerm};

/// SplitMix64 (Steele, Lea, Flood 2014): the check's data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}

/// A random expansion with leading exponent about `e0`, full tail, random signs.
fn rand_exp<T: FloatTerm, const N: usize>(rng: &mut Rng, e0: i32) -> Expansion<T, N> {
    let p = T::PRECISION as i32;
    let lo = if p == 53 { -1000 } else { -120 };
    let mut t = [T::ZERO; N];
    for (k, v) in t.iter_mut().enumerate() {
        let e = e0 - k as i32 * p - rng.range(0, 3);
        if e > lo {
            let m = (1u64 << (p - 1)) | (rng.next() >> (64 - (p - 1)));
            let s = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
            *v = T::from_f64(s * <f64 as FloatTerm>::ldexp(m as f64, e - (p - 1)));
        }
    }
    Expansion::from_terms(t)
}

/// Data with cancelling pairs, zeros and a dynamic range of ±`span` binades.
fn data<T: FloatTerm, const N: usize>(
    rng: &mut Rng,
    len: usize,
    span: i32,
) -> Vec<Expansion<T, N>> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        match rng.next() % 6 {
            0 => v.push(Expansion::zero()),
            1 | 2 => {
                let e = rng.range(-span, span);
                let x: Expansion<T, N> = rand_exp(rng, e);
                v.push(x);
                let d = rng.range(10, 100);
                let tiny: Expansion<T, N> = rand_exp(rng, e - d);
                v.push(x.neg().add(&tiny));
            }
            _ => {
                let e = rng.range(-span, span);
                v.push(rand_exp(rng, e));
            }
        }
    }
    v.truncate(len);
    v
}

/// Collects mismatches.
struct Diff {
    what: String,
    out: Vec<String>,
}

impl Diff {
    fn exps<T: FloatTerm, const N: usize>(
        &mut self,
        name: &str,
        a: &[Expansion<T, N>],
        b: &[Expansion<T, N>],
    ) {
        if a.len() != b.len() {
            self.out.push(format!(
                "{} {name}: {} vs {} elements",
                self.what,
                a.len(),
                b.len()
            ));
            return;
        }
        let bad = (0..a.len()).find(|&i| {
            let same = a[i]
                .terms()
                .iter()
                .zip(b[i].terms())
                .all(|(p, q)| p.to_bits_u64() == q.to_bits_u64());
            !(same || (a[i].is_nan() && b[i].is_nan()))
        });
        if let Some(i) = bad {
            self.out.push(format!(
                "{} {name}: element {i} differs: {:?} (this backend) vs {:?} (host)",
                self.what, a[i], b[i]
            ));
        }
    }

    fn f64s(&mut self, name: &str, a: &[f64], b: &[f64]) {
        let bad = a.len() != b.len() || a.iter().zip(b).any(|(p, q)| p.to_bits() != q.to_bits());
        if bad {
            self.out
                .push(format!("{} {name}: error bounds differ", self.what));
        }
    }

    fn plain<U: PartialEq + std::fmt::Debug>(&mut self, name: &str, a: &[U], b: &[U]) {
        if a != b {
            self.out
                .push(format!("{} {name}: payloads or indices differ", self.what));
        }
    }
}

fn compare_impl<T: ArrayTerm, const N: usize>(
    dev: &Arrays,
    len: usize,
    seed: u64,
    functions: bool,
) -> Result<Vec<String>, GpuError> {
    let host = Arrays::cpu();
    let mut rng = Rng(seed);
    let span = if T::PRECISION == 53 { 60 } else { 12 };
    let xs: Vec<Expansion<T, N>> = data(&mut rng, len, span);
    let ys: Vec<Expansion<T, N>> = data(&mut rng, len, 3);
    let mut d = Diff {
        what: format!("N={N} {}", T::NAME),
        out: Vec::new(),
    };
    let (hx, hy) = (host.array(&xs)?, host.array(&ys)?);
    let (dx, dy) = (dev.array(&xs)?, dev.array(&ys)?);
    let v = |a: &ExpArray<T, N>| a.to_vec();
    d.exps("upload", &v(&dx)?, &xs);
    let t = T::from_f64(0.7);
    d.exps("add", &v(&dx.add(&dy)?)?, &v(&hx.add(&hy)?)?);
    d.exps("sub", &v(&dx.sub(&dy)?)?, &v(&hx.sub(&hy)?)?);
    d.exps("mul", &v(&dx.mul(&dy)?)?, &v(&hx.mul(&hy)?)?);
    d.exps("div", &v(&dx.div(&dy)?)?, &v(&hx.div(&hy)?)?);
    d.exps("neg", &v(&dx.neg()?)?, &v(&hx.neg()?)?);
    d.exps("abs", &v(&dx.abs()?)?, &v(&hx.abs()?)?);
    d.exps("sqrt", &v(&dx.abs()?.sqrt()?)?, &v(&hx.abs()?.sqrt()?)?);
    d.exps("sqr", &v(&dx.sqr()?)?, &v(&hx.sqr()?)?);
    d.exps("recip", &v(&dy.recip()?)?, &v(&hy.recip()?)?);
    d.exps("add_term", &v(&dx.add_term(t)?)?, &v(&hx.add_term(t)?)?);
    d.exps("mul_term", &v(&dx.mul_term(t)?)?, &v(&hx.mul_term(t)?)?);
    d.exps("div_term", &v(&dx.div_term(t)?)?, &v(&hx.div_term(t)?)?);
    if functions {
        // Elementary functions through the functions program (a sample of the families).
        for f in [Unary::Exp, Unary::Ln, Unary::Sin, Unary::Atan] {
            let (a, b) = if f == Unary::Ln {
                (dy.abs()?.map(f)?, hy.abs()?.map(f)?)
            } else {
                (dy.map(f)?, hy.map(f)?)
            };
            d.exps(&format!("map {}", f.name()), &v(&a)?, &v(&b)?);
        }
    }

    d.exps("sum", &[dx.sum()?], &[hx.sum()?]);
    for (name, a, b) in [
        ("sum_bounded", dx.sum_bounded()?, hx.sum_bounded()?),
        ("sum_accurate", dx.sum_accurate()?, hx.sum_accurate()?),
        ("blas dot", blas::dot(&dx, &dy)?, blas::dot(&hx, &hy)?),
        ("blas nrm2", blas::nrm2(&dy)?, blas::nrm2(&hy)?),
    ] {
        d.exps(name, &[a.value], &[b.value]);
        d.f64s(name, &[a.err], &[b.err]);
    }
    d.exps("dot", &[dx.dot(&dy)?], &[hx.dot(&hy)?]);
    d.exps(
        "min",
        &dx.min()?.into_iter().collect::<Vec<_>>(),
        &hx.min()?.into_iter().collect::<Vec<_>>(),
    );
    d.exps(
        "max",
        &dx.max()?.into_iter().collect::<Vec<_>>(),
        &hx.max()?.into_iter().collect::<Vec<_>>(),
    );
    for kind in [ScanKind::Inclusive, ScanKind::Exclusive] {
        d.exps(
            &format!("scan {kind:?}"),
            &v(&dx.scan(kind)?)?,
            &v(&hx.scan(kind)?)?,
        );
    }

    // Into preallocated outputs (equal to the allocating forms of the host backend).
    let mut dz = dev.zeros::<T, N>(len)?;
    dx.add_into(&dy, &mut dz)?;
    d.exps("add_into", &v(&dz)?, &v(&hx.add(&hy)?)?);
    dx.mul_into(&dy, &mut dz)?;
    d.exps("mul_into", &v(&dz)?, &v(&hx.mul(&hy)?)?);
    dx.scan_into(ScanKind::Inclusive, &mut dz)?;
    d.exps("scan_into", &v(&dz)?, &v(&hx.scan(ScanKind::Inclusive)?)?);
    dz.copy_from(&dy)?;
    d.exps("copy_from", &v(&dz)?, &ys);

    // Index-generated data (f64 only): the fused generate + reduce kernels.
    if T::KIND == TermKind::F64 {
        let lens = len as u64;
        let delta: Expansion<f64, N> =
            Expansion::<f64, N>::from_f64(0.6).div(&Expansion::from_f64((2 * lens) as f64));
        for (name, map) in [
            ("summation", IndexMap::summation(seed, lens)),
            ("qrs term", IndexMap::qrs_term(2 * lens, &delta)),
            ("qrs slope", IndexMap::qrs_slope(2 * lens, delta.hi())),
        ] {
            let a: ExpArray<T, N> = dev.indexed(&map)?;
            let b: ExpArray<T, N> = host.indexed(&map)?;
            d.exps(&format!("indexed {name}"), &v(&a)?, &v(&b)?);
            for (what, p, q) in [
                (
                    "sum",
                    dev.indexed_sum::<T, N>(&map)?,
                    host.indexed_sum::<T, N>(&map)?,
                ),
                (
                    "sum_accurate",
                    dev.indexed_sum_accurate::<T, N>(&map)?,
                    host.indexed_sum_accurate::<T, N>(&map)?,
                ),
            ] {
                let what = format!("indexed {name} {what}");
                d.exps(&what, &[p.value], &[q.value]);
                d.f64s(&what, &[p.err], &[q.err]);
            }
        }
    }

    // Sort with ties (copies) and a NaN.
    let mut keys = xs.clone();
    let n = keys.len();
    for i in 0..n / 10 {
        keys[(i * 9) % n] = keys[(i * 31 + 7) % n];
    }
    if n > 11 {
        keys[11] = Expansion::from_f64(f64::NAN);
    }
    let (dk, hk) = (dev.array(&keys)?, host.array(&keys)?);
    d.exps("sort", &v(&dk.sort()?)?, &v(&hk.sort()?)?);
    let p32: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let (ds, dp) = dk.sort_by_key(&dev.plain(&p32)?)?;
    let (hs, hp) = hk.sort_by_key(&host.plain(&p32)?)?;
    d.exps("sort_by_key", &v(&ds)?, &v(&hs)?);
    d.plain("sort_by_key u32", &dp.to_vec()?, &hp.to_vec()?);
    let p64: Vec<u64> = (0..n as u64).map(|i| (i << 40) | 7).collect();
    let (_, dp) = dk.sort_by_key(&dev.plain(&p64)?)?;
    let (_, hp) = hk.sort_by_key(&host.plain(&p64)?)?;
    d.plain("sort_by_key u64", &dp.to_vec()?, &hp.to_vec()?);
    if n > 100 {
        for cmp in [Cmp::Lt, Cmp::Ge, Cmp::Ne] {
            let (dv, di) = dx.select(cmp, &xs[100])?;
            let (hv, hi) = hx.select(cmp, &xs[100])?;
            d.exps(&format!("select {cmp:?}"), &v(&dv)?, &v(&hv)?);
            d.plain("select indices", &di.to_vec()?, &hi.to_vec()?);
        }
    }

    // BLAS.
    let alpha: Expansion<T, N> = Expansion::<T, N>::from_f64(-1.5).div(&Expansion::from_f64(7.0));
    let beta: Expansion<T, N> = Expansion::from_f64(0.25);
    for (name, a, b) in [
        (
            "axpy",
            blas::axpy(&alpha, &dx, &dy)?,
            blas::axpy(&alpha, &hx, &hy)?,
        ),
        ("scal", blas::scal(&alpha, &dx)?, blas::scal(&alpha, &hx)?),
    ] {
        d.exps(name, &v(&a.value)?, &v(&b.value)?);
        d.f64s(name, &a.err.to_vec()?, &b.err.to_vec()?);
    }
    // GEMV with 8 chunks of 32 and a ragged end (a three-level chunk tree), both ways; and
    // with 66 chunks (the device's finish kernel takes them in groups of 32 per warp: two
    // full groups and a ragged one, whose totals are merged by its stack).
    for (r, c) in [(33, 229), (3, 2100)] {
        if len < r * c {
            continue;
        }
        let (da, ha) = (
            dev.matrix(r, c, &xs[..r * c])?,
            host.matrix(r, c, &xs[..r * c])?,
        );
        for (trans, rl) in [(Transpose::No, c), (Transpose::Yes, r)] {
            let (dxv, hxv) = (dev.array(&ys[..rl])?, host.array(&ys[..rl])?);
            let a = blas::gemv(trans, None, &da, &dxv, None, None)?;
            let b = blas::gemv(trans, None, &ha, &hxv, None, None)?;
            d.exps(
                &format!("gemv {trans:?} ({r}×{c})"),
                &v(&a.value)?,
                &v(&b.value)?,
            );
            d.f64s(
                &format!("gemv {trans:?} ({r}×{c})"),
                &a.err.to_vec()?,
                &b.err.to_vec()?,
            );
        }
    }
    // Matrix shapes from the length (at most about 200): not multiples of any tile.
    let side = (((len / 3) as f64).sqrt() as usize).min(200);
    let (m, k, nn) = (
        (side + 3).max(2),
        (side * 2 / 3 + 5).max(2),
        (side / 2 + 1).max(2),
    );
    if m * k + k * nn + m * nn <= len {
        let am = &xs[..m * k];
        let bm = &ys[..k * nn];
        let cm = &xs[m * k..m * k + m * nn];
        let (da, ha) = (dev.matrix(m, k, am)?, host.matrix(m, k, am)?);
        for (trans, rl, ol) in [(Transpose::No, k, m), (Transpose::Yes, m, k)] {
            let (dxv, hxv) = (dev.array(&ys[..rl])?, host.array(&ys[..rl])?);
            let (dyv, hyv) = (dev.array(&xs[..ol])?, host.array(&xs[..ol])?);
            let a = blas::gemv(trans, Some(&alpha), &da, &dxv, Some(&beta), Some(&dyv))?;
            let b = blas::gemv(trans, Some(&alpha), &ha, &hxv, Some(&beta), Some(&hyv))?;
            d.exps(&format!("gemv {trans:?}"), &v(&a.value)?, &v(&b.value)?);
            d.f64s(
                &format!("gemv {trans:?}"),
                &a.err.to_vec()?,
                &b.err.to_vec()?,
            );
            let a = blas::gemv(trans, None, &da, &dxv, None, None)?;
            let b = blas::gemv(trans, None, &ha, &hxv, None, None)?;
            d.exps(
                &format!("gemv {trans:?} (α = 1, β = 0)"),
                &v(&a.value)?,
                &v(&b.value)?,
            );
            d.f64s(
                &format!("gemv {trans:?} (α = 1, β = 0)"),
                &a.err.to_vec()?,
                &b.err.to_vec()?,
            );
        }
        let (db, hb) = (dev.matrix(k, nn, bm)?, host.matrix(k, nn, bm)?);
        let (dc, hc) = (dev.matrix(m, nn, cm)?, host.matrix(m, nn, cm)?);
        let a = blas::gemm(Some(&alpha), &da, &db, Some(&beta), Some(&dc))?;
        let b = blas::gemm(Some(&alpha), &ha, &hb, Some(&beta), Some(&hc))?;
        let (hv, he) = (b.value.to_vec()?, b.err.to_vec()?);
        d.exps("gemm", &a.value.to_vec()?, &hv);
        d.f64s("gemm", &a.err.to_vec()?, &he);
        // Tiled over host data: a memory limit that forces tiles of C and of k.
        let es = N * std::mem::size_of::<T>();
        let (tm, tk, tn) = (m.div_ceil(3), k.div_ceil(2), nn.div_ceil(3));
        let limit = tm * tk * es + tk * tn * es + tm * tn * (3 * es + 24);
        let (tv, te) = blas::gemm_host(
            dev,
            Some(&alpha),
            HostMatrix {
                rows: m,
                cols: k,
                data: am,
            },
            HostMatrix {
                rows: k,
                cols: nn,
                data: bm,
            },
            Some(&beta),
            Some(HostMatrix {
                rows: m,
                cols: nn,
                data: cm,
            }),
            Some(limit),
        )?;
        d.exps("gemm_host (tiled)", &tv, &hv);
        d.f64s("gemm_host (tiled)", &te, &he);
    }
    Ok(d.out)
}

/// Runs every primitive and BLAS routine on `dev` and on the host backend for N = `n` terms of
/// `kind`, on `len` random elements (matrices of about `len`/3 elements), and returns one line
/// per routine whose results differ (empty when the backends agree bit for bit). `functions`:
/// also `map` with a sample of elementary functions (their kernels are another program, which
/// the host build of the tests does not include).
pub fn compare(
    dev: &Arrays,
    kind: TermKind,
    n: usize,
    len: usize,
    seed: u64,
    functions: bool,
) -> Result<Vec<String>, GpuError> {
    macro_rules! go {
        ($t:ty, $($n:literal),*) => {
            match n {
                $($n => compare_impl::<$t, $n>(dev, len, seed, functions),)*
                other => Err(super::invalid(format!("expansions have 1..=8 terms, not {other}"))),
            }
        };
    }
    match kind {
        TermKind::F64 => go!(f64, 1, 2, 3, 4, 5, 6, 7, 8),
        TermKind::F32 => go!(f32, 1, 2, 3, 4, 5, 6, 7, 8),
    }
}
