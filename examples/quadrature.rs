//! Tanh-sinh quadrature at 400 and 1000 digits (`--quick`: 100 and 200) for the five problems
//! of seed 000 Table 4, each checked against its closed form, in MPFR and in the limb floats
//! (all CPU cores, and the GPU when one is usable: `--backend auto|cpu|gpu`; GPU and CPU
//! terms must be bit-identical). The work is in `expanse_apps::quadrature`; this is its
//! command line.

use expanse_apps::{cli, quadrature};

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("quadrature: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "quadrature",
                "tanh-sinh quadrature of the five problems of seed 000 Table 4 at 400 and 1000\n\
                 digits (--quick: 100 and 200), against their closed forms: in MPFR (the reference)\n\
                 and in the limb floats on all CPU cores and, with a GPU, on the GPU (one thread\n\
                 per node; every term compared bit for bit with the CPU's). Prints levels, correct\n\
                 digits, nodes/s on each and the GPU/CPU ratio."
            )
        );
        return;
    }
    let backend = match cli::select_backend(opts.backend) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("quadrature: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &backend.note {
        eprintln!("quadrature: {note}");
    }
    let digits: &[u32] = if opts.quick {
        &[100, 200]
    } else {
        &[400, 1000]
    };
    let rep = quadrature::report(digits, backend.gpu.as_ref(), backend.note.as_deref());
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
