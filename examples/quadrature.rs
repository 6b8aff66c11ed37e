//! Tanh-sinh quadrature at 400 and 1000 digits (`--quick`: 100 and 200) for the five problems
//! of seed 000 Table 4, each checked against its closed form. The work is in
//! `expanse_apps::quadrature`; this is its command line.

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
                "tanh-sinh quadrature in MPFR of the five problems of seed 000 Table 4 at 400 and\n\
                 1000 digits (--quick: 100 and 200), against their closed forms."
            )
        );
        return;
    }
    let digits: &[u32] = if opts.quick {
        &[100, 200]
    } else {
        &[400, 1000]
    };
    let rep = quadrature::report(digits);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
