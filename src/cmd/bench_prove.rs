//! `expanse bench prove`: proof time and peak memory for periods 7, 33, 100, 1000 and 10 000.
//!
//! Orbits come from the map itself: period 7 is the sink at (1.25, 0.3) (found by iterating
//! in f64); the longer periods are periodic orbits at (1.4, 0.3) obtained from near-returns of
//! a long orbit refined by Newton (saddles: they measure the existence proof, the minimal
//! period check, the stability enclosure that decides "not attracting", and the cross-check).
//! The orbit construction is not timed. Peak memory is the growth of the resident set during
//! the proof (`VmHWM` after resetting it through `/proc/self/clear_refs`, Linux only). The
//! baseline measured in the same run is one pass of the map along the orbit in MPFR at the
//! proof's precision; the table gives the proof time as a multiple of it.
//! `--scale s` keeps the periods ≤ 10 000·s.
use super::{bench::Args, CliError, CmdResult, Outcome};
use expanse_prove::bench::periodic_orbit;
use expanse_prove::engine::{prove, Candidate, Options};
use rug::{Float, Rational};
use std::time::Instant;

fn status_kib(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user + system) of this thread in ms from `/proc/thread-self/stat` (Linux;
/// 10 ms clock ticks), robust to other load on the machine where wall time is not.
fn thread_cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, i.e. 11 and 12 here (0-based).
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

struct Row {
    period: usize,
    orbit: &'static str,
    status: &'static str,
    kind: &'static str,
    bits: u32,
    t: [f64; 5],
    cpu_ms: Option<f64>,
    baseline_ms: f64,
    peak_mib: Option<f64>,
    outcome: String,
}

fn sink_point(a: f64, b: f64) -> (f64, f64) {
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..20_000 {
        let nx = 1.0 + y - a * x * x;
        y = b * x;
        x = nx;
    }
    (x, y)
}

/// Runs `expanse bench prove`.
pub fn run(args: &Args) -> CmdResult {
    let periods: Vec<usize> = [7usize, 33, 100, 1000, 10_000]
        .into_iter()
        .filter(|&p| p as f64 <= 10_000.0 * args.scale)
        .collect();
    if periods.is_empty() {
        return Err(CliError::usage(
            "--scale too small: no period left (periods ≤ 10000·scale)",
        ));
    }
    let a14 = Float::with_val(4096, Float::parse("1.4").expect("literal"));
    let b03 = Float::with_val(4096, Float::parse("0.3").expect("literal"));
    let opts = Options::default();
    let mut rows: Vec<Row> = Vec::new();
    if !args.json {
        println!("expanse bench prove (one thread; wall times in ms; cpu = this thread's CPU time in 10 ms ticks; ratio = total / baseline; peak = resident-set growth during the proof)");
        println!(
            "{:>6}  {:<30} {:<18} {:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>9}",
            "period", "orbit", "status", "arithmetic", "bits", "refine", "existence", "stability", "cross-chk", "total", "cpu", "baseline", "ratio", "peak MiB"
        );
    }
    for &p in &periods {
        let (c, orbit) = if p == 7 {
            let (x, y) = sink_point(1.25, 0.3);
            (
                Candidate {
                    source: "bench".into(),
                    a: "1.25".into(),
                    b: "0.3".into(),
                    radius: Rational::new(),
                    period: 7,
                    x: Float::with_val(53, x),
                    y: Float::with_val(53, y),
                    orbit: None,
                },
                "sink at (1.25, 0.3)",
            )
        } else {
            let o = periodic_orbit(&a14, &b03, p, 256).ok_or_else(|| {
                CliError::failed(format!("bench prove: no period-{p} orbit found by Newton"))
            })?;
            (
                Candidate {
                    source: "bench".into(),
                    a: "1.4".into(),
                    b: "0.3".into(),
                    radius: Rational::new(),
                    period: p,
                    x: o[0].clone(),
                    y: Float::with_val(o[0].prec(), &b03 * &o[p - 1]),
                    orbit: Some(o),
                },
                "periodic orbit at (1.4, 0.3)",
            )
        };
        let have_peak = reset_peak();
        let base = status_kib("VmRSS:");
        let cpu0 = thread_cpu_ms();
        let t = Instant::now();
        let pr = prove(&c, &opts).map_err(|e| CliError::failed(e.message))?;
        let total = t.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = match (cpu0, thread_cpu_ms()) {
            (Some(a), Some(b)) => Some(b - a),
            _ => None,
        };
        let peak = match (have_peak, base, status_kib("VmHWM:")) {
            (true, Some(b), Some(h)) => Some(h.saturating_sub(b) as f64 / 1024.0),
            _ => None,
        };
        // Baseline: one MPFR pass of the map along the orbit at the proof's precision.
        let bits = pr.bits.max(53);
        let ta = Instant::now();
        let (ab, bb) = (
            Float::with_val(bits, &c.a.parse::<f64>().unwrap_or(1.4)),
            Float::with_val(bits, 0.3),
        );
        let (mut x, mut y) = (Float::with_val(bits, &c.x), Float::with_val(bits, &c.y));
        for _ in 0..p {
            let nx = Float::with_val(bits, 1 + &y)
                - Float::with_val(bits, &ab * Float::with_val(bits, x.square_ref()));
            y = Float::with_val(bits, &bb * &x);
            x = nx;
        }
        std::hint::black_box(&x);
        let baseline_ms = ta.elapsed().as_secs_f64() * 1e3;
        let mut tt = pr.timings;
        tt[4] = total;
        rows.push(Row {
            period: p,
            orbit,
            status: pr.status.as_str(),
            kind: pr.kind,
            bits: pr.bits,
            t: tt,
            cpu_ms,
            baseline_ms,
            peak_mib: peak,
            outcome: {
                let mut o: Vec<String> = pr
                    .attempts
                    .iter()
                    .map(|a| format!("{} {}: {}", a.kind, a.bits, a.outcome))
                    .collect();
                if let Some(cc) = &pr.cross {
                    o.push(format!(
                        "cross-check mpfr {}: proved {} (contraction {:.3e})",
                        cc.bits, cc.proved, cc.contraction
                    ));
                }
                o.join("; ")
            },
        });
        if !args.json {
            let r = rows.last().expect("just pushed");
            println!(
                "{:>6}  {:<30} {:<18} {:<14} {:>6} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>10} {:>10.3} {:>8.0} {:>9}",
                r.period,
                r.orbit,
                r.status,
                r.kind,
                r.bits,
                r.t[0],
                r.t[1],
                r.t[2],
                r.t[3],
                r.t[4],
                r.cpu_ms.map(|c| format!("{c:.2}")).unwrap_or_else(|| "n/a".into()),
                r.baseline_ms,
                r.t[4] / r.baseline_ms.max(1e-9),
                r.peak_mib.map(|m| format!("{m:.1}")).unwrap_or_else(|| "n/a".into())
            );
        }
    }
    if args.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "period": r.period,
                    "orbit": r.orbit,
                    "status": r.status,
                    "arithmetic": r.kind,
                    "bits": r.bits,
                    "refine_ms": format!("{:.3}", r.t[0]),
                    "existence_ms": format!("{:.3}", r.t[1]),
                    "stability_ms": format!("{:.3}", r.t[2]),
                    "cross_check_ms": format!("{:.3}", r.t[3]),
                    "total_ms": format!("{:.3}", r.t[4]),
                    "seconds": r.t[4] / 1e3,
                    "label": format!("{} {} bits", r.kind, r.bits),
                    "attempts": r.outcome,
                    "cpu_ms": r.cpu_ms.map(|c| format!("{c:.3}")),
                    "baseline_ms": format!("{:.3}", r.baseline_ms),
                    "total_over_baseline": format!("{:.1}", r.t[4] / r.baseline_ms.max(1e-9)),
                    "peak_mib": r.peak_mib.map(|m| format!("{m:.1}")),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"bench": "prove", "rows": v}))
                .unwrap_or_default()
        );
    }
    Ok(Outcome::Success)
}
