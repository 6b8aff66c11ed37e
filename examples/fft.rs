//! Complex radix-2 FFT in f64, df64, qf128, dd and qd (seed 002) for sizes 2^10..2^24
//! (`--quick`: 2^10..2^16), checked by the round trip, an MPFR transform at 848 bits
//! (2^10..2^14; `--quick`: 2^10..2^12) and an analytic transform. The work is in
//! `expanse_apps::fft`; this is its command line. On the GPU too when one is usable
//! (`--backend auto|cpu|gpu`): every transform there must be bit-identical to the CPU's.

use expanse_apps::{cli, fft};

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fft: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "fft",
                "complex radix-2 FFT of sizes 2^10..2^24 (--quick: 2^10..2^16) in f64, df64,\n\
                 qf128, dd and qd, twiddles from the library's sin_cos; checked by the round trip,\n\
                 an MPFR transform at 848 bits (2^10..2^14; --quick: 2^10..2^12) and the analytic\n\
                 transform of e^(2 pi i m j/n): errors must be <= 2*log2(n)*u. With a GPU every\n\
                 size of every format is also transformed there (forward and back), compared bit\n\
                 for bit with the CPU; transforms/s on each."
            )
        );
        return;
    }
    let backend = match cli::select_backend(opts.backend) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("fft: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &backend.note {
        eprintln!("fft: {note}");
    }
    let (hi, ref_hi) = if opts.quick { (16, 12) } else { (24, 14) };
    let rep = fft::report(fft::SEED, 10, hi, ref_hi, backend.gpu.as_ref());
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
    }
    std::process::exit(rep.exit_code());
}
