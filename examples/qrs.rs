//! The Quinn–Rand–Strogatz constant: Newton in quad-double for N = 4^m, m = 1..15
//! (`--quick`: m ≤ 10), each step a fused map + reduce on the array layer (the GPU when one is
//! usable, and the CPU up to m = 13 to check the GPU's s_N bit for bit), Richardson
//! extrapolation, checked against the zero of ζ(1/2, c/2). The work is in `expanse_apps::qrs`;
//! this is its command line.

use expanse_apps::{cli, qrs};
use expanse_gpu::array::Arrays;

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("qrs: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "qrs",
                "the QRS constant c1 = 0.6054436...: Newton's method in quad-double on seed 000\n\
                 equation (1) for N = 4^m, m = 1..15 (--quick: m <= 10), each step's N/2 terms\n\
                 generated and summed on the array layer (GPU, or all CPU cores), Richardson\n\
                 extrapolation of N(1 - s_N), checked against c1 computed independently as the zero\n\
                 of the Hurwitz zeta function zeta(1/2, c/2) (need >= 40 digits; --quick >= 20).\n\
                 With a GPU the CPU repeats m <= 13 (--quick: all): s_N must be bit-identical\n\
                 (exit 1 otherwise); terms/s on both and the GPU/CPU ratio."
            )
        );
        return;
    }
    let sel = match cli::select_backend(opts.backend) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("qrs: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &sel.note {
        eprintln!("qrs: {note}");
    }
    let (m_max, min_digits) = if opts.quick { (10, 20.0) } else { (15, 40.0) };
    let setup = qrs::Setup {
        m_max,
        min_digits,
        gpu: sel.gpu.map(Arrays::gpu),
        cpu_max_m: if opts.quick { 10 } else { 13 },
    };
    let rep = qrs::report(&setup);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
