//! Chooses the lockstep width: search throughput with 1, 2, 4 and 8 orbits in lockstep per
//! thread, for N = 1, 2, 4 (f64 terms), measured in one run.
//! Run: `cargo run -p expanse-search --example lanes [seconds]`.
use expanse_search::bench::{search_throughput_with, Schedule};
use expanse_search::orbit::Base;
use std::time::Duration;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let target = Duration::from_secs_f64(secs);
    println!("threads: {}", rayon::current_num_threads());
    for n in [1usize, 2, 4] {
        let base_rate = search_throughput_with(n, Base::F64, target, Schedule::Lanes(1))
            .unwrap()
            .iterations_per_s();
        print!("N={n}: 1 lane {base_rate:.3e} it/s");
        for l in [2usize, 4, 8] {
            let r = search_throughput_with(n, Base::F64, target, Schedule::Lanes(l))
                .unwrap()
                .iterations_per_s();
            print!(";  {l} lanes x{:.2}", r / base_rate);
        }
        println!();
    }
}
