//! Reproducible summation with heavy cancellation (seed 000 §5.1): f64 in several orders, dd
//! and qd with a fixed reduction tree, and the exact sum, for 10^4..10^9 values (`--quick`:
//! 10^4..10^7). The work is in `expanse_apps::summation`; this is its command line.

use expanse_apps::{cli, summation};

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("summation: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "summation",
                "a sum with heavy cancellation and a wide dynamic range (like seed 000's climate\n\
                 sum), generated on the fly for 10^4..10^9 values (--quick: 10^4..10^7): f64 in\n\
                 several orders, dd and qd with a fixed reduction tree (identical on 1/2/4/8\n\
                 threads), against the exact sum (integer accumulation)."
            )
        );
        return;
    }
    let top = if opts.quick { 7 } else { 9 };
    let sizes: Vec<u64> = (4..=top).map(|k| 10u64.pow(k)).collect();
    let rep = summation::report(20_260_000, &sizes);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
