//! Reproducible summation with heavy cancellation (seed 000 §5.1): f64 in several orders, dd
//! and qd through the array layer (on the GPU when one is usable, and on the CPU), and the
//! exact sum, for 10^4..10^9 values (`--quick`: 10^4..10^7). The work is in
//! `expanse_apps::summation`; this is its command line.

use expanse_apps::{cli, summation};
use expanse_gpu::array::Arrays;

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
                 several orders, dd and qd (plain and accurate) through the array layer in its fixed\n\
                 order, generated and summed on the GPU and on the CPU (bit-identical, and identical\n\
                 on 1/2/4/all threads; exit 1 on any difference), against the exact sum (integer\n\
                 accumulation); rates in values/s and the GPU/CPU ratio. With a GPU the CPU runs\n\
                 up to 10^8 values (--quick: 10^6)."
            )
        );
        return;
    }
    let sel = match cli::select_backend(opts.backend) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("summation: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &sel.note {
        eprintln!("summation: {note}");
    }
    let gpu = sel.gpu.map(Arrays::gpu);
    let top = if opts.quick { 7 } else { 9 };
    let sizes: Vec<u64> = (4..=top).map(|k| 10u64.pow(k)).collect();
    let cpu_max = match (&gpu, opts.quick) {
        (Some(_), true) => 1_000_000,
        (Some(_), false) => 100_000_000,
        (None, _) => 10u64.pow(top),
    };
    let setup = summation::Setup {
        seed: 20_260_000,
        sizes,
        gpu,
        cpu_max,
        threads_max: 1_000_000,
    };
    let rep = summation::report(&setup);
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
