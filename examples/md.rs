//! Lennard-Jones molecular dynamics (seed 003) in f32, Narumi's quasi double (f32 pairs) and
//! f64 against a double-double reference run: energy drift, trajectory deviation, identical
//! results on any thread count. On the GPU when one is usable (`--backend auto|cpu|gpu`), then
//! compared bit for bit with a CPU run of the same system. `--long`: 10^5 steps of a small
//! system, the energy drift of each format beside dd's. The work is in `expanse_apps::md`;
//! this is its command line.

use expanse_apps::{cli, md};

/// The md-only flags (`--long`, `--steps S`, `--particles N`), taken out of the arguments;
/// the rest goes to the common parser.
struct MdFlags {
    long: bool,
    steps: Option<usize>,
    particles: Option<usize>,
}

fn md_flags(args: Vec<String>) -> Result<(MdFlags, Vec<String>), String> {
    let mut f = MdFlags {
        long: false,
        steps: None,
        particles: None,
    };
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    let num = |flag: &str, v: Option<String>| -> Result<usize, String> {
        let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
        v.parse::<usize>()
            .map_err(|_| format!("{flag}: '{v}' is not a non-negative integer"))
    };
    while let Some(a) = it.next() {
        if a == "--long" {
            f.long = true;
        } else if a == "--steps" {
            f.steps = Some(num("--steps", it.next())?);
        } else if let Some(v) = a.strip_prefix("--steps=") {
            f.steps = Some(num("--steps", Some(v.to_string()))?);
        } else if a == "--particles" {
            f.particles = Some(num("--particles", it.next())?);
        } else if let Some(v) = a.strip_prefix("--particles=") {
            f.particles = Some(num("--particles", Some(v.to_string()))?);
        } else {
            rest.push(a);
        }
    }
    if f.steps == Some(0) {
        return Err("--steps must be at least 1".into());
    }
    Ok((f, rest))
}

/// k with N = 4k³, k ≥ 3 (the box must exceed twice the cut-off).
fn cells(n: usize) -> Result<usize, String> {
    (3..=64).find(|k| 4 * k * k * k == n).ok_or_else(|| {
        format!("--particles {n}: must be 4k^3 with k >= 3 (108, 256, 500, 864, 2048, ...)")
    })
}

fn main() {
    let parsed = md_flags(std::env::args().skip(1).collect()).and_then(|(f, rest)| {
        let o = cli::parse_args(rest)?;
        let k = f.particles.map(cells).transpose()?;
        Ok((f, o, k))
    });
    let (flags, opts, k) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("md: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "md",
                "Lennard-Jones molecular dynamics, velocity Verlet, N = 2048 fcc particles in a\n\
                 periodic box (--quick: N = 256), 1024 steps, in f32, quasi double (f32 pairs, seed\n\
                 003) and f64 against a dd reference run: energy drift, deviation from dd (quasi\n\
                 double must track dd at f64 level, f32 must not), identical on any thread count.\n\
                 With a GPU: the runs there, and a CPU run of the same system (--quick: all 256\n\
                 steps, else 64 steps) that must be bit-identical; steps/s on each.\n\n\
                 --long: 10^5 steps of N = 108 at dt = 2^-12 (--quick: 10^4 steps), the energy\n\
                 sampled 1000 times: the relative energy drift max |E(t) - E(0)|/|E(0)| and its\n\
                 final value per format beside dd's (quasi double's must stay within 2x of dd's and\n\
                 f64's, f32's must be at least 3x theirs), the trajectories compared with dd at step\n\
                 200, steps/s; with a GPU, a CPU run of 256 steps that must be bit-identical.\n\n\
                 md flags: --long, --steps S (steps of the run), --particles N (N = 4k^3, k >= 3)"
            )
        );
        return;
    }
    let backend = match cli::select_backend(opts.backend) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("md: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &backend.note {
        eprintln!("md: {note}");
    }
    let cfg = if flags.long {
        let steps = if opts.quick { 10_000 } else { 100_000 };
        md::MdConfig::long(k.unwrap_or(3), flags.steps.unwrap_or(steps), 8, 2026, 256)
    } else {
        let (kd, steps, cmp_steps) = if opts.quick {
            (4, 256, 256)
        } else {
            (8, 1024, 64)
        };
        md::MdConfig::short(
            k.unwrap_or(kd),
            flags.steps.unwrap_or(steps),
            8,
            2026,
            cmp_steps,
        )
    };
    let rep = md::report_with(&cfg, backend.gpu.as_ref());
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
