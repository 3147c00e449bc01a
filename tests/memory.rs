//! Guest memory as Linux manages it (guest-programs/mem.c): `madvise`,
//! large reservations, the kernel's argument checks, bus errors past the end
//! of a mapped file and the stack's limit, each compared with a native run;
//! and the resident memory pathvm needs for them.

use std::process::{Command, Output};

use crate::common::*;

fn status(out: &Output) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    out.status
        .code()
        .or_else(|| out.status.signal().map(|s| 128 + s))
}

#[test]
fn memory_calls_and_faults_as_native() {
    let program = guest("mem-O2");
    let dir = scratch("memory-native");
    for args in [
        &["dontneed"][..],
        &["filedontneed"],
        &["reserve"],
        &["args"],
        &["pasteof"],
        &["pasteof", "die"],
        &["overflow"],
        &["overflow", "die"],
        &["rlimit"],
        &["fixed"],
        &["smc", "3000"],
        &["threads"],
    ] {
        let native = run_native(&program, args);
        let vm = run_pathvm(&dir.join("p.out"), &program, args);
        assert_eq!(
            String::from_utf8_lossy(&vm.stdout),
            String::from_utf8_lossy(&native.stdout),
            "mem {args:?}; pathvm stderr: {}",
            String::from_utf8_lossy(&vm.stderr)
        );
        assert_eq!(
            vm.status.code(),
            status(&native),
            "mem {args:?}: {}",
            String::from_utf8_lossy(&vm.stderr)
        );
    }
}

/// Peak resident memory (KiB) of `pathvm run` on `args`, measured by a
/// python3 parent (its children's peak).
fn peak_kib(args: &[&str]) -> u64 {
    let dir = scratch(&format!("memory-peak-{}", args.join("-")));
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            "import resource, subprocess, sys\n\
             subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
             print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
        )
        .arg(pathvm())
        .args(["run", "-q", "-o"])
        .arg(dir.join("p.out"))
        .arg(guest("mem-O2"))
        .args(args)
        .output()
        .expect("python3");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a peak")
}

#[test]
fn large_ranges_and_runaway_recursion_stay_small() {
    // 16 GiB touched at 64 places and dropped with MADV_DONTNEED.
    let dontneed = peak_kib(&["dontneed"]);
    // The stack stops at 8 MiB.
    let overflow = peak_kib(&["overflow", "die"]);
    eprintln!("peak resident: dontneed {dontneed} KiB, runaway recursion {overflow} KiB");
    assert!(dontneed < 100 * 1024, "{dontneed} KiB");
    assert!(overflow < 100 * 1024, "{overflow} KiB");
}
