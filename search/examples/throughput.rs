//! Search throughput of the CPU backend on all cores, N = 1, 2, 4, 8 (f64 terms), with the
//! lockstep schedule against one orbit at a time measured in the same run.
//! Run: `cargo run -p expanse-search --example throughput [seconds]`.
use expanse_search::bench::{search_throughput_with, Schedule};
use expanse_search::orbit::Base;
use std::time::Duration;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let target = Duration::from_secs_f64(secs);
    println!("threads: {}", rayon::current_num_threads());
    println!("rates per second of CPU time × threads (wall-clock rates in brackets)");
    println!("base N   lockstep it/s            one-at-a-time it/s       ratio");
    for base in [Base::F64, Base::F32] {
        for n in [1usize, 2, 4, 8] {
            let one = search_throughput_with(n, base, target, Schedule::OneAtATime).unwrap();
            let lock = search_throughput_with(n, base, target, Schedule::Lockstep).unwrap();
            println!(
                "{} {n}   {:10.3e} [{:9.3e}]   {:10.3e} [{:9.3e}]   {:5.2}",
                base.name(),
                lock.iterations_per_s_on_cpu(),
                lock.iterations_per_s(),
                one.iterations_per_s_on_cpu(),
                one.iterations_per_s(),
                lock.iterations_per_s_on_cpu() / one.iterations_per_s_on_cpu()
            );
        }
    }
}
