//! The Quinn–Rand–Strogatz constant: Newton in quad-double for N = 4^m, m = 1..15
//! (`--quick`: m ≤ 10), Richardson extrapolation, checked against the zero of ζ(1/2, c/2).
//! The work is in `expanse_apps::qrs`; this is its command line.

use expanse_apps::{cli, qrs};

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
                 equation (1) for N = 4^m, m = 1..15 (--quick: m <= 10), Richardson extrapolation of\n\
                 N(1 - s_N), checked against c1 computed independently as the zero of the Hurwitz\n\
                 zeta function zeta(1/2, c/2) (need >= 40 digits; --quick >= 20)."
            )
        );
        return;
    }
    let (m_max, min_digits) = if opts.quick { (10, 20.0) } else { (15, 40.0) };
    let rep = qrs::report(m_max, min_digits);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
