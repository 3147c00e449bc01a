//! CPU faults and page protections as Linux delivers them: `faults`
//! (guest-programs/faults.c) runs each case with handlers that print what
//! they see (signal, `si_code`, `si_addr`, saved RIP and RSP, trap number,
//! error code, the handler's own FPU control state); every line must be the
//! native one. Without a handler, the guest dies of the signal with the
//! native exit status.

use std::process::Output;

use crate::common::*;

/// Cases the emulator does not fault on as the host yet: their lines are
/// printed, not compared.
const NOT_YET: &[&str] = &[];

fn status(out: &Output) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    out.status
        .code()
        .or_else(|| out.status.signal().map(|s| 128 + s))
}

fn compare(variant: &str, which: &str) {
    let program = guest(&format!("faults-{variant}"));
    let dir = scratch(&format!("faults-{variant}-{which}"));
    let native = run_native(&program, &[which]);
    assert_eq!(status(&native), Some(0), "native faults {which}");
    let vm = run_pathvm(&dir.join("p.out"), &program, &[which]);
    assert_eq!(
        vm.status.code(),
        Some(0),
        "faults {which} under pathvm: {}",
        String::from_utf8_lossy(&vm.stderr)
    );
    let (n, v) = (
        String::from_utf8_lossy(&native.stdout).into_owned(),
        String::from_utf8_lossy(&vm.stdout).into_owned(),
    );
    let (n, v): (Vec<&str>, Vec<&str>) = (n.lines().collect(), v.lines().collect());
    assert_eq!(
        n.len(),
        v.len(),
        "native:\n{}\npathvm:\n{}",
        n.join("\n"),
        v.join("\n")
    );
    let mut wrong = Vec::new();
    for (a, b) in n.iter().zip(&v) {
        let case = a.split_whitespace().next().unwrap_or("");
        if NOT_YET.contains(&case) {
            if a != b {
                eprintln!("faults {which}: not compared yet: native `{a}`, pathvm `{b}`");
            } else {
                eprintln!("faults {which}: {case} now as native: take it off NOT_YET");
            }
            continue;
        }
        if a != b {
            wrong.push(format!("native: {a}\npathvm: {b}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "faults-{variant} {which}:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn cpu_exceptions_reach_handlers_as_on_linux() {
    compare("static", "all");
    compare("O2", "all");
}

#[test]
fn page_protections_fault_as_on_linux() {
    compare("static", "prot");
    compare("O2", "prot");
}

#[test]
fn unhandled_faults_kill_with_the_native_status() {
    let program = guest("faults-O2");
    let dir = scratch("faults-die");
    for case in [
        "cli",
        "in_dx",
        "int_41",
        "int3",
        "int1",
        "ud2",
        "div0",
        "jmp_noncanon",
        "call_null",
        "read_noncanon",
        "leave_noncanon",
        "movaps_misaligned",
        "ldmxcsr_reserved",
        "store_across_page",
        "x87_divzero",
        "write_rodata",
        "exec_stack",
        "read_above_brk",
    ] {
        let native = run_native(&program, &[case, "die"]);
        let vm = run_pathvm(&dir.join("p.out"), &program, &[case, "die"]);
        let want = status(&native);
        assert!(want.is_some_and(|s| s > 128), "native {case}: {want:?}");
        assert_eq!(
            vm.status.code(),
            want,
            "{case}: pathvm stderr: {}",
            String::from_utf8_lossy(&vm.stderr)
        );
        assert_eq!(vm.stdout, native.stdout, "{case}");
        let err = String::from_utf8_lossy(&vm.stderr);
        assert!(err.contains("pathvm: guest killed by SIG"), "{case}: {err}");
    }
}
