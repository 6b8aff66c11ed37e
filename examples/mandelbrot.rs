//! Deep zoom into the Mandelbrot set (seed 003) in f32, Narumi's quasi double (f32 pairs), f64,
//! double-double and quad-double, checked against MPFR at 200 bits on a subsample; PNG images
//! are written to `target/apps/`. On the GPU when one is usable (`--backend auto|cpu|gpu`),
//! then also on the CPU, and the images must be identical. The work is in
//! `expanse_apps::mandelbrot`; this is its command line.

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
                 the seahorse valley in f32, quasi double (f32 pairs, seed 003), f64, dd and qd, 512x512\n\
                 (--quick: 128x128); dd and qd checked against MPFR at 200 bits on a subsample of pixels,\n\
                 f64 shown wrong at the deep zoom. PNG images go to target/apps/. With a GPU every\n\
                 image is rendered on both and must be identical; pixels/s on each."
            )
        );
        return;
    }
    let backend = match cli::select_backend(opts.backend) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("mandelbrot: {e}");
            std::process::exit(2);
        }
    };
    if let Some(note) = &backend.note {
        eprintln!("mandelbrot: {note}");
    }
    let (size, stride) = if opts.quick { (128, 97) } else { (512, 257) };
    let (rep, pngs) = mandelbrot::report(size, stride, 20_000, 4_000, backend.gpu.as_ref());
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
