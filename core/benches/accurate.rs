//! Quick timing of the accurate tier, one thread, no criterion: the Hénon iteration of
//! `expanse bench cpu` (one orbit at a time: `sqr`, `mul`, `add_term`, `sub`, `mul`) for
//! N = 1..8 of f64 against MPFR at 53·N bits in the same run, and each accurate operation
//! (add, mul, mul_term, sqr, div, sqrt) in ns per call on seeded operands near 1. Made to
//! compare versions of `accurate.rs` quickly (it builds only `expanse-core`): every figure
//! is the median of several alternated runs, so that a shared machine's interference
//! spreads over all of them.
//!
//! A second table times the lane-batched accurate tier (`expanse_core::accurate_batch`, bit for
//! bit the same results) for N ≥ 3: the Hénon iteration over 64 orbits at each SIMD level this
//! CPU has, against the same MPFR loop, and the batched operations in ns per operation.
//!
//! Run: `cargo bench -p expanse-core --bench accurate [-- SECONDS [N...]]` (SECONDS per
//! timed run, default 0.05; N restricts the table to those N). SECONDS = 0 instead counts,
//! for N ≥ 3, how often each operation of 10^5 Hénon steps fails its run-time certificate
//! and runs the exact reference.

use expanse_core::{henon_iterate, Expansion};
use rug::{Assign, Float};
use std::hint::black_box;
use std::time::Instant;

/// SplitMix64, for seeded operands.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Nanoseconds this thread has spent on a CPU (Linux: /proc/thread-self/schedstat), so that
/// time the machine gives to other processes is not counted; wall-clock time elsewhere.
fn now_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map(|ns| ns * 1e-9)
        .unwrap_or_else(|| {
            static T0: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
            T0.get_or_init(Instant::now).elapsed().as_secs_f64()
        })
}

/// Timed runs per figure; the median is reported.
const RUNS: usize = 7;

/// Seconds per call of `work(reps)` (which performs `reps` calls), median of [`RUNS`] runs
/// of about `secs` each, the repetition count calibrated first.
fn per_call(secs: f64, work: &mut impl FnMut(u64)) -> f64 {
    let mut reps = 16u64;
    loop {
        let t0 = now_s();
        work(reps);
        let dt = now_s() - t0;
        if dt >= secs || reps >= 1 << 40 {
            break;
        }
        reps = (reps as f64 * ((secs / dt.max(1e-7)) * 1.2).clamp(2.0, 64.0)) as u64;
    }
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t0 = now_s();
            work(reps);
            (now_s() - t0) / reps as f64
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[RUNS / 2]
}

/// Seeded operands in [0.5, 2) with all 53·N bits populated.
fn operands<const N: usize>(seed: u64, count: usize) -> Vec<Expansion<f64, N>> {
    let mut rng = SplitMix(seed);
    (0..count)
        .map(|_| {
            let mut v = Float::with_val(1000, 0.5 + 1.5 * rng.unit());
            for k in 1..(N as i32 * 2 + 2) {
                v += Float::with_val(1000, rng.unit() - 0.5)
                    * Float::with_val(64, 2.0f64.powi(-30 * k));
            }
            Expansion::from_rug(&v)
        })
        .collect()
}

/// An accurate operation on two operands, as timed by [`row`].
type BinOp<const N: usize> = dyn Fn(&Expansion<f64, N>, &Expansion<f64, N>) -> Expansion<f64, N>;

fn row<const N: usize>(secs: f64) {
    let a: Expansion<f64, N> = "1.4".parse().expect("constant parses");
    let b: Expansion<f64, N> = "0.3".parse().expect("constant parses");
    let mut x = Expansion::<f64, N>::from_f64(0.05);
    let mut y = Expansion::<f64, N>::zero();
    let mut henon = |reps: u64| {
        let (nx, ny) = henon_iterate(&a, &b, &x, &y, reps);
        x = black_box(nx);
        y = black_box(ny);
    };
    let prec = 53 * N as u32;
    let ar = Float::with_val(prec, Float::parse("1.4").expect("constant parses"));
    let br = Float::with_val(prec, Float::parse("0.3").expect("constant parses"));
    let (mut mx, mut my) = (Float::with_val(prec, 0.05), Float::new(prec));
    let (mut x2, mut t, mut ny) = (Float::new(prec), Float::new(prec), Float::new(prec));
    let mut mpfr = |reps: u64| {
        for _ in 0..reps {
            x2.assign(mx.square_ref());
            t.assign(&ar * &x2);
            ny.assign(&br * &mx);
            my += 1u32;
            mx.assign(&my - &t);
            std::mem::swap(&mut my, &mut ny);
        }
    };
    let t_acc = per_call(secs, &mut henon);
    let t_mp = per_call(secs, &mut mpfr);

    const M: usize = 256;
    let xs = operands::<N>(1 + N as u64, M);
    let ys = operands::<N>(100 + N as u64, M);
    let op = |f: &BinOp<N>| {
        per_call(secs, &mut |reps: u64| {
            for r in 0..reps {
                let i = (r as usize) % M;
                black_box(f(black_box(&xs[i]), black_box(&ys[i])));
            }
        })
    };
    let ns = [
        op(&|x, y| x.add(y)),
        op(&|x, y| x.mul(y)),
        op(&|x, y| x.mul_term(y.hi())),
        op(&|x, _| x.sqr()),
        op(&|x, y| x.div(y)),
        op(&|x, _| x.sqrt()),
    ]
    .map(|t| t * 1e9);
    println!(
        "{N:2} {:10.3e} {:10.3e} {:7.2} | {:7.1} {:7.1} {:7.1} {:7.1} {:7.1} {:7.1}",
        1.0 / t_acc,
        1.0 / t_mp,
        t_mp / t_acc,
        ns[0],
        ns[1],
        ns[2],
        ns[3],
        ns[4],
        ns[5]
    );
}

/// How often the run-time certificate fails (the exact reference runs) in the operations of
/// the Hénon iteration, over `steps` steps from the bench's start.
fn fallbacks<const N: usize>(steps: u64) {
    use expanse_core::accurate::fast_path_only;
    let a: Expansion<f64, N> = "1.4".parse().expect("constant parses");
    let b: Expansion<f64, N> = "0.3".parse().expect("constant parses");
    let mut x = Expansion::<f64, N>::from_f64(0.05);
    let mut y = Expansion::<f64, N>::zero();
    let one = Expansion::<f64, N>::one();
    let mut fails = [0u64; 5];
    let miss = |r: Option<Expansion<f64, N>>| u64::from(r.is_none());
    for _ in 0..steps {
        let x2 = x.sqr();
        fails[0] += miss(fast_path_only("mul", &x, &x));
        let t = x2.mul(&a);
        fails[1] += miss(fast_path_only("mul", &x2, &a));
        let u = y.add_term(1.0);
        fails[2] += miss(fast_path_only("add", &y, &one));
        let nx = u.sub(&t);
        fails[3] += miss(fast_path_only("add", &u, &-t));
        let ny = x.mul(&b);
        fails[4] += miss(fast_path_only("mul", &x, &b));
        x = nx;
        y = ny;
    }
    println!(
        "{N:2} fallbacks per {steps} steps: sqr {} mul a {} add 1 {} sub {} mul b {}",
        fails[0], fails[1], fails[2], fails[3], fails[4]
    );
}

fn main() {
    // `cargo bench` passes `--bench`; the rest are ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let secs: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(0.05);
    let ns: Vec<usize> = args.iter().skip(1).filter_map(|s| s.parse().ok()).collect();
    let want = |n: usize| ns.is_empty() || ns.contains(&n);
    if secs == 0.0 {
        macro_rules! fb {
            ($($n:literal)*) => {$(if want($n) && $n >= 3 { fallbacks::<$n>(100_000); })*};
        }
        fb!(3 4 5 6 7 8);
        return;
    }
    println!("accurate tier, f64, one thread, on-CPU time; Hénon it/s (accurate, MPFR at 53·N bits, ratio); ns per op");
    println!(" N   accurate       MPFR acc/MPFR |     add     mul mul_trm     sqr     div    sqrt");
    macro_rules! rows {
        ($($n:literal)*) => {$(if want($n) { row::<$n>(secs); })*};
    }
    rows!(1 2 3 4 5 6 7 8);
    println!("\nbatched accurate tier (accurate_batch), f64, one thread; Hénon it/s over 64 orbits per level, ratio to MPFR; ns per op (detected level, 256 operands)");
    println!(" N       avx2     avx512       MPFR b/MPFR |     add     mul mul_trm     sqr");
    macro_rules! brows {
        ($($n:literal)*) => {$(if want($n) { batch_row::<$n>(secs); })*};
    }
    brows!(3 4 5 6 7 8);
}

/// The batched accurate tier for one N (see the module doc).
fn batch_row<const N: usize>(secs: f64) {
    use expanse_core::accurate_batch::{
        add_batch, henon_iterate_accurate_batch_f64_at, mul_batch, mul_term_batch, sqr_batch,
    };
    use expanse_core::batch::SimdLevel;
    let a: Expansion<f64, N> = "1.4".parse().expect("constant parses");
    let b: Expansion<f64, N> = "0.3".parse().expect("constant parses");
    const ORBITS: usize = 64;
    let rate = |level: SimdLevel| {
        let mut xs: Vec<Expansion<f64, N>> = (0..ORBITS)
            .map(|k| Expansion::from_f64(0.1 * k as f64 / ORBITS as f64))
            .collect();
        let mut ys = vec![Expansion::<f64, N>::zero(); ORBITS];
        if henon_iterate_accurate_batch_f64_at(level, &a, &b, &mut xs, &mut ys, 1).is_err() {
            return None;
        }
        let t = per_call(secs, &mut |reps: u64| {
            henon_iterate_accurate_batch_f64_at(level, &a, &b, &mut xs, &mut ys, reps)
                .expect("level available");
            black_box(&xs);
        });
        Some(ORBITS as f64 / t)
    };
    let avx2 = rate(SimdLevel::Baseline).unwrap_or(0.0);
    let avx512 = rate(SimdLevel::Avx512);
    let prec = 53 * N as u32;
    let ar = Float::with_val(prec, Float::parse("1.4").expect("constant parses"));
    let br = Float::with_val(prec, Float::parse("0.3").expect("constant parses"));
    let (mut mx, mut my) = (Float::with_val(prec, 0.05), Float::new(prec));
    let (mut x2, mut t, mut ny) = (Float::new(prec), Float::new(prec), Float::new(prec));
    let t_mp = per_call(secs, &mut |reps: u64| {
        for _ in 0..reps {
            x2.assign(mx.square_ref());
            t.assign(&ar * &x2);
            ny.assign(&br * &mx);
            my += 1u32;
            mx.assign(&my - &t);
            std::mem::swap(&mut my, &mut ny);
        }
    });
    const M: usize = 256;
    let xs = operands::<N>(1 + N as u64, M);
    let ys = operands::<N>(100 + N as u64, M);
    let ts: Vec<f64> = ys.iter().map(|y| y.hi()).collect();
    let mut out = vec![Expansion::<f64, N>::zero(); M];
    let mut op = |f: &mut dyn FnMut(&mut [Expansion<f64, N>])| {
        per_call(secs, &mut |reps: u64| {
            for _ in 0..reps {
                f(&mut out);
                black_box(&out);
            }
        }) / M as f64
            * 1e9
    };
    let ns = [
        op(&mut |o| add_batch(&xs, &ys, o)),
        op(&mut |o| mul_batch(&xs, &ys, o)),
        op(&mut |o| mul_term_batch(&xs, &ts, o)),
        op(&mut |o| sqr_batch(&xs, o)),
    ];
    let best = avx512.unwrap_or(0.0).max(avx2);
    println!(
        "{N:2} {:10.3e} {:>10} {:10.3e} {:7.2} | {:7.1} {:7.1} {:7.1} {:7.1}",
        avx2,
        avx512.map_or("-".to_string(), |r| format!("{r:.3e}")),
        1.0 / t_mp,
        best * t_mp,
        ns[0],
        ns[1],
        ns[2],
        ns[3]
    );
}
