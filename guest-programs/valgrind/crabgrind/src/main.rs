//! Callgrind's requests through crabgrind: under
//! `valgrind --tool=callgrind --instr-atstart=no` and under
//! `pathvm run --instr-atstart no` the parts and phases have the same
//! instruction counts (tests/clientreq.rs). Nothing counted allocates or
//! prints (glibc's string functions differ with the CPU each presents), so
//! the dumps are unnamed.

use std::hint::black_box;

use crabgrind::callgrind;

#[inline(never)]
fn spin(n: u64) -> u64 {
    let mut s = 0u64;
    for i in 0..n {
        s = black_box(s.wrapping_add(i));
    }
    s
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let mode = crabgrind::run_mode();
    let mut s = spin(10); // before instrumentation: not counted
    callgrind::start_instrumentation();
    s = s.wrapping_add(spin(n));
    callgrind::dump_stats(None);
    s = s.wrapping_add(spin(2 * n));
    callgrind::toggle_collect();
    s = s.wrapping_add(spin(5 * n)); // not collected
    callgrind::toggle_collect();
    s = s.wrapping_add(spin(3 * n));
    callgrind::dump_stats(None);
    callgrind::zero_stats();
    s = s.wrapping_add(spin(7 * n));
    callgrind::stop_instrumentation();
    s = s.wrapping_add(spin(11 * n)); // not instrumented
    callgrind::start_instrumentation();
    s = s.wrapping_add(spin(4 * n));
    callgrind::dump_stats(None);
    s = s.wrapping_add(spin(n));
    callgrind::stop_instrumentation();
    println!("{mode:?}, sum {s}");
}
