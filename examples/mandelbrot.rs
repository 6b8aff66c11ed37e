//! Deep zoom into the Mandelbrot set (seed 003) in f64, Narumi's quasi double (f32 pairs) and
//! double-double, checked against MPFR at 200 bits on a subsample; PNG images are written to
//! `target/apps/`. The work is in `expanse_apps::mandelbrot`; this is its command line.

use expanse_apps::{cli, mandelbrot};

fn main() {
    let opts = match cli::parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("mandelbrot: {e}");
            std::process::exit(2);
        }
    };
    if opts.help {
        print!(
            "{}",
            cli::help_text(
                "mandelbrot",
                "escape-time images of a deep zoom (width ~1e-20) and a shallow one (~7e-9) into\n\
                 the seahorse valley in f64, quasi double (f32 pairs, seed 003) and dd, 512x512\n\
                 (--quick: 128x128); dd checked against MPFR at 200 bits on a subsample of pixels,\n\
                 f64 shown wrong at the deep zoom. PNG images go to target/apps/."
            )
        );
        return;
    }
    let (size, stride) = if opts.quick { (128, 97) } else { (512, 257) };
    let (rep, pngs) = mandelbrot::report(size, stride, 20_000, 4_000);
    let dir = std::path::Path::new("target").join("apps");
    let mut written = Vec::new();
    if std::fs::create_dir_all(&dir).is_ok() {
        for (name, bytes) in &pngs {
            let p = dir.join(name);
            match std::fs::write(&p, bytes) {
                Ok(()) => written.push(p.display().to_string()),
                Err(e) => eprintln!("mandelbrot: cannot write {}: {e}", p.display()),
            }
        }
    }
    if opts.json {
        println!("{}", rep.json());
    } else {
        print!("{}", rep.text());
        println!("images: {}", written.join(", "));
    }
    std::process::exit(rep.exit_code());
}
