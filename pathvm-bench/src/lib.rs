//! Region markers and a small benchmark harness for programs profiled with
//! [pathvm](https://crates.io/crates/pathvm-bench), the deterministic
//! x86-64 profiler.
//!
//! pathvm runs a program on a virtual CPU and counts exactly what it
//! executes; markers split the count. [`start`], [`stop`], [`zero`] and
//! [`phase`] are the markers of pathvm's C header `include/pathvm.h`, as
//! safe functions compiled to the same instruction: a `syscall` with
//! `rax` = `0x504100` + the operation (`rdi` = the phase's name). Linux
//! has no such system call, so natively a marker fails with `ENOSYS` and
//! does nothing else; under `pathvm run` it marks the profile exactly at
//! that instruction (every cost up to and including it comes before it)
//! and returns `ENOSYS` too, so the program behaves the same either way.
//!
//! [`Harness`] runs benchmarks in one process, each as its own phase of
//! the profile, with its setup and teardown outside the measured region:
//!
//! ```
//! use pathvm_bench::{black_box, Harness};
//!
//! fn fibonacci(n: u64) -> u64 {
//!     if n < 2 { n } else { fibonacci(n - 1) + fibonacci(n - 2) }
//! }
//!
//! Harness::new()
//!     .bench("fibonacci_15", || fibonacci(black_box(15)))
//!     .bench_with_setup(
//!         "sort_1k",
//!         || (0..1_000u32).rev().collect::<Vec<_>>(), // not measured
//!         |v| v.sort(),                              // measured
//!     )
//!     .run_with_args(std::iter::empty::<String>());
//! ```
//!
//! As a `[[bench]]` target with `harness = false`, `cargo bench` runs it,
//! and through pathvm with cargo's runner setting:
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="pathvm run -o bench.out" cargo bench
//! pathvm report bench.out --phases
//! ```
//!
//! The profile's phases are then `main` (the process's start, up to the
//! harness: `pathvm run --instr-atstart no` leaves it empty) and one per
//! benchmark, with its totals and its functions' self costs
//! (`pathvm report --phase NAME`, `pathvm diff --phase NAME`).
//!
//! On other architectures than x86-64 the markers do nothing.

#![warn(missing_docs)]

pub use std::hint::black_box;

/// `rax` of the first marker: the number of `include/pathvm.h`'s
/// `PATHVM_MARKER_BASE`.
pub const MARKER_BASE: u64 = 0x50_4100;
const OP_START: u64 = 0;
const OP_STOP: u64 = 1;
const OP_ZERO: u64 = 2;
const OP_PHASE: u64 = 3;

/// The longest phase name pathvm reads, in bytes; [`phase`] cuts longer
/// names there.
pub const MAX_PHASE_NAME: usize = 255;

/// One marker: `syscall` with `rax` = [`MARKER_BASE`] + `op` and `rdi` =
/// `name` (a NUL-terminated string, or null). Returns what the system
/// call returns: `-ENOSYS` (-38), natively as under pathvm.
#[inline(always)]
fn marker(op: u64, name: *const u8) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        let ret: i64;
        // SAFETY: Linux has no system call of this number: it returns
        // -ENOSYS and changes nothing but rax, rcx and r11 (declared); pathvm
        // reads the name, which lives until the call returns. Without
        // `nomem`, the compiler keeps loads and stores on their side of it.
        unsafe {
            std::arch::asm!(
                "syscall",
                inlateout("rax") MARKER_BASE + op => ret,
                in("rdi") name,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        ret
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (op, name);
        -38
    }
}

/// Count costs again after [`stop`] (`PATHVM_START()`).
#[inline(always)]
pub fn start() {
    marker(OP_START, std::ptr::null());
}

/// Stop counting costs (`PATHVM_STOP()`): the simulated caches and branch
/// predictors go on running, calls are still recorded.
#[inline(always)]
pub fn stop() {
    marker(OP_STOP, std::ptr::null());
}

/// Discard every cost counted so far (`PATHVM_ZERO()`).
#[inline(always)]
pub fn zero() {
    marker(OP_ZERO, std::ptr::null());
}

/// From here on, costs belong to the phase `name` (`PATHVM_PHASE(name)`);
/// a name used again continues its phase. The name is copied to the stack
/// with its terminating NUL (no allocation), cut at its first NUL byte and
/// at [`MAX_PHASE_NAME`] bytes.
#[inline(always)]
pub fn phase(name: &str) {
    let mut buf = [0u8; MAX_PHASE_NAME + 1];
    let bytes = name.as_bytes();
    let n = bytes
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(bytes.len())
        .min(MAX_PHASE_NAME);
    buf[..n].copy_from_slice(&bytes[..n]);
    marker(OP_PHASE, buf.as_ptr());
}

fn drop2<I, O>(_: I, _: O) {}

/// A benchmark: everything it runs, setup and teardown included.
struct Bench<'a> {
    name: String,
    run: Box<dyn FnMut(&str) + 'a>,
}

/// Benchmarks run one after the other in this process, each as its own
/// phase (named as the benchmark), counted only from the call of its
/// routine to its return: for each, in order,
///
/// 1. its setup runs (not counted: the harness stopped counting),
/// 2. `phase(name)`, `start()`, the routine with the setup's value (by
///    reference, so that freeing it is not measured), `stop()`,
/// 3. its teardown with the setup's and the routine's values, or their
///    drop (not counted).
///
/// So a benchmark's phase holds its routine and a few instructions of
/// calls around it, the same in every run.
pub struct Harness<'a> {
    benches: Vec<Bench<'a>>,
}

impl Default for Harness<'_> {
    fn default() -> Self {
        Harness::new()
    }
}

impl<'a> Harness<'a> {
    /// No benchmarks yet.
    pub fn new() -> Self {
        Harness {
            benches: Vec::new(),
        }
    }

    /// A benchmark without setup: `routine`'s value is dropped after the
    /// measured region.
    pub fn bench<O: 'a>(&mut self, name: &str, mut routine: impl FnMut() -> O + 'a) -> &mut Self {
        self.bench_with_teardown(name, || (), move |_: &mut ()| routine(), drop2)
    }

    /// A benchmark whose input `setup` makes outside the measured region;
    /// `routine` gets it by reference, and both are dropped after the
    /// region.
    pub fn bench_with_setup<I: 'a, O: 'a>(
        &mut self,
        name: &str,
        setup: impl FnMut() -> I + 'a,
        routine: impl FnMut(&mut I) -> O + 'a,
    ) -> &mut Self {
        self.bench_with_teardown(name, setup, routine, drop2)
    }

    /// A benchmark with a setup and a teardown, both outside the measured
    /// region: `teardown` takes the setup's value and what `routine`
    /// returned.
    pub fn bench_with_teardown<I: 'a, O: 'a>(
        &mut self,
        name: &str,
        mut setup: impl FnMut() -> I + 'a,
        mut routine: impl FnMut(&mut I) -> O + 'a,
        mut teardown: impl FnMut(I, O) + 'a,
    ) -> &mut Self {
        self.benches.push(Bench {
            name: name.to_string(),
            run: Box::new(move |name: &str| {
                let mut input = black_box(setup());
                phase(name);
                start();
                let output = routine(black_box(&mut input));
                stop();
                teardown(input, black_box(output));
            }),
        });
        self
    }

    /// The benchmarks' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.benches.iter().map(|b| b.name.as_str()).collect()
    }

    /// Run the benchmarks the process's arguments select (see
    /// [`Harness::run_with_args`]); a bad argument or name ends the
    /// process with status 2 and one line on stderr.
    pub fn run(&mut self) {
        self.run_with_args(std::env::args().skip(1));
    }

    /// Run the benchmarks `args` select, as `cargo bench -- ARGS` passes
    /// them: each argument not starting with `-` is a filter (a benchmark
    /// runs if its name contains one, or equals one with `--exact`; all
    /// run without filters); `--list` prints the names instead; `--bench`
    /// (which `cargo bench` adds) and other flags of libtest are accepted
    /// and ignored. Each benchmark prints its name on stdout once it ran
    /// (not counted). Two benchmarks of the same name, or one whose name
    /// is empty, longer than [`MAX_PHASE_NAME`] bytes or holds a NUL, end
    /// the process with status 2 and one line on stderr.
    pub fn run_with_args<S: AsRef<str>>(&mut self, args: impl IntoIterator<Item = S>) {
        let mut filters = Vec::new();
        let (mut list, mut exact) = (false, false);
        for a in args {
            match a.as_ref() {
                "--list" => list = true,
                "--exact" => exact = true,
                f if f.starts_with('-') => {}
                f => filters.push(f.to_string()),
            }
        }
        if let Err(e) = self.check_names() {
            eprintln!("pathvm-bench: {e}");
            std::process::exit(2);
        }
        let selected = |name: &str| {
            filters.is_empty()
                || filters.iter().any(|f| {
                    if exact {
                        name == f
                    } else {
                        name.contains(f.as_str())
                    }
                })
        };
        if list {
            for b in self.benches.iter().filter(|b| selected(&b.name)) {
                println!("{}: benchmark", b.name);
            }
            return;
        }
        // The harness's own work (and what runs after it) is not counted.
        stop();
        for b in self.benches.iter_mut().filter(|b| selected(&b.name)) {
            (b.run)(&b.name);
            println!("{}", b.name);
        }
    }

    fn check_names(&self) -> Result<(), String> {
        for (i, b) in self.benches.iter().enumerate() {
            if b.name.is_empty() || b.name.len() > MAX_PHASE_NAME || b.name.contains('\0') {
                return Err(format!(
                    "benchmark name `{}` must be 1 to {MAX_PHASE_NAME} bytes without NUL",
                    b.name.escape_debug()
                ));
            }
            if self.benches[..i].iter().any(|o| o.name == b.name) {
                return Err(format!("two benchmarks are named `{}`", b.name));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Natively a marker is a failed system call and nothing else.
    #[test]
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    fn markers_fail_with_enosys_natively() {
        assert_eq!(marker(OP_START, std::ptr::null()), -38);
        assert_eq!(marker(OP_PHASE, b"x\0".as_ptr()), -38);
        start();
        stop();
        zero();
        phase("a name");
    }

    #[test]
    fn setup_routine_and_teardown_run_in_order_per_selected_benchmark() {
        let log = RefCell::new(Vec::new());
        let mut h = Harness::new();
        h.bench_with_teardown(
            "alpha",
            || {
                log.borrow_mut().push("setup alpha");
                2
            },
            |x| {
                log.borrow_mut().push("routine alpha");
                *x * 3
            },
            |x, y| {
                assert_eq!((x, y), (2, 6));
                log.borrow_mut().push("teardown alpha");
            },
        )
        .bench("beta", || log.borrow_mut().push("routine beta"));
        assert_eq!(h.names(), ["alpha", "beta"]);
        h.run_with_args(["--bench", "alp"]);
        h.run_with_args(["--bench", "--exact", "beta"]);
        h.run_with_args(["--bench", "--exact", "bet"]);
        drop(h);
        assert_eq!(
            log.into_inner(),
            [
                "setup alpha",
                "routine alpha",
                "teardown alpha",
                "routine beta"
            ]
        );
    }

    #[test]
    fn bad_names_are_refused() {
        let mut h = Harness::new();
        h.bench("a", || ()).bench("a", || ());
        assert_eq!(
            h.check_names(),
            Err("two benchmarks are named `a`".to_string())
        );
        let mut h = Harness::new();
        h.bench("", || ());
        assert!(h.check_names().is_err());
        let long = "x".repeat(MAX_PHASE_NAME + 1);
        let mut h = Harness::new();
        h.bench(&long, || ());
        assert!(h.check_names().is_err());
    }
}
