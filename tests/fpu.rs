//! Floating point compared bit for bit with the host CPU: guest programs
//! that print results, MXCSR and x87 status words in hex, run natively and
//! under pathvm (`guest-programs/fp*.c`).

use crate::common::*;

/// The stdout of `name` under pathvm and natively are identical; on a
/// difference the first differing lines are shown.
fn matches_host(name: &str) {
    let program = guest(name);
    let dir = scratch(&format!("fpu-{name}"));
    let vm = run_pathvm(&dir.join("p.out"), &program, &[]);
    let native = run_native(&program, &[]);
    assert!(native.status.success(), "{name} failed natively");
    assert_eq!(
        vm.status.code(),
        Some(0),
        "{name} under pathvm: {}",
        String::from_utf8_lossy(&vm.stderr)
    );
    let (v, n) = (
        String::from_utf8_lossy(&vm.stdout),
        String::from_utf8_lossy(&native.stdout),
    );
    let diffs: Vec<String> = n
        .lines()
        .zip(v.lines())
        .filter(|(a, b)| a != b)
        .take(20)
        .map(|(a, b)| format!("  host {a}\n  vm   {b}"))
        .collect();
    assert!(
        diffs.is_empty() && v.lines().count() == n.lines().count(),
        "{name}: {} lines natively, {} under pathvm; first differences:\n{}",
        n.lines().count(),
        v.lines().count(),
        diffs.join("\n")
    );
}

/// SSE arithmetic, compares, conversions and rounding over edge values in
/// every rounding mode and with FTZ/DAZ: results and MXCSR flags.
#[test]
fn sse_results_and_mxcsr_flags() {
    matches_host("fpsse-O2");
}

/// Unmasked SSE exceptions: SIGFPE with Linux's si_code, the handler
/// starting with the initial MXCSR.
#[test]
fn sse_unmasked_exceptions_raise_sigfpe() {
    matches_host("fpxm-O2");
    matches_host("fpxm-static");
}

/// x87 arithmetic, compares, loads and stores (integer, BCD), constants,
/// `fxam`, `fxtract`, `fprem`/`fprem1`, `fscale` over edge values under
/// several precision and rounding controls: results and status words.
#[test]
fn x87_results_and_status_word() {
    matches_host("fpx87-O2");
}
