//! Lennard-Jones molecular dynamics (seed 003) in f32, Narumi's quasi double (f32 pairs) and
//! f64 against a double-double reference run: energy drift, trajectory deviation, identical
//! results on any thread count. On the GPU when one is usable (`--backend auto|cpu|gpu`), then
//! compared bit for bit with a CPU run of the same system. The work is in `expanse_apps::md`;
//! this is its command line.

use expanse_apps::{cli, md};

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
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
                 periodic box (--quick: N = 256), in f32, quasi double (f32 pairs, seed 003) and\n\
                 f64 against a dd reference run: energy drift, deviation from dd (quasi double\n\
                 must track dd at f64 level, f32 must not), identical on any thread count. With a\n\
                 GPU: the runs there, and a CPU run of the same system (--quick: all 256 steps, else\n\
                 64 steps) that must be bit-identical; steps/s on each."
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
    let (k, steps, cmp_steps) = if opts.quick {
        (4, 256, 256)
    } else {
        (8, 1024, 64)
    };
    let rep = md::report(k, steps, 8, 2026, backend.gpu.as_ref(), cmp_steps);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
