//! The virtual CPU against the real one (issue 24): guest programs whose
//! instructions once computed differently under pathvm, compared with
//! native runs, and RDRAND drawn from the run's seed.

use crate::common::*;

/// The host runs everything `cpuops` uses: BMI1/BMI2 and FSGSBASE enabled
/// by the kernel (AT_HWCAP2 bit 1, Linux >= 5.9).
fn host_runs_cpuops() -> Result<(), &'static str> {
    if !std::arch::is_x86_feature_detected!("bmi1") || !std::arch::is_x86_feature_detected!("bmi2")
    {
        return Err("the host CPU lacks BMI1/BMI2");
    }
    // SAFETY: getauxval only reads the auxiliary vector.
    if unsafe { libc::getauxval(libc::AT_HWCAP2) } & 2 == 0 {
        return Err("the host kernel does not enable FSGSBASE");
    }
    Ok(())
}

#[test]
fn integer_bmi_and_system_instructions_match_native() {
    if let Err(why) = host_runs_cpuops() {
        println!("skipped: {why}");
        return;
    }
    for variant in ["O0", "O2", "static", "spie"] {
        let program = guest(&format!("cpuops-{variant}"));
        let dir = scratch(&format!("cpu-cpuops-{variant}"));
        let vm = run_pathvm(&dir.join("p.out"), &program, &[]);
        let native = run_native(&program, &[]);
        assert_eq!(
            String::from_utf8_lossy(&vm.stdout),
            String::from_utf8_lossy(&native.stdout),
            "cpuops-{variant} under pathvm (left) and natively (right); pathvm stderr: {}",
            String::from_utf8_lossy(&vm.stderr)
        );
        assert_eq!(vm.status.code(), Some(0));
        assert_eq!(native.status.code(), Some(0));
    }
}

/// `sseops` (guest-programs/sseops.c): glibc's strstr, memmem and
/// strcasestr on needles crossing 16-byte blocks, PCMPxSTRx with every
/// immediate and explicit lengths up to -2^31 and -2^63, PHADD/PHSUB with
/// one register as both operands, legacy CMPPS predicates with bits 7:3
/// set: the output of a native run.
#[test]
fn sse_string_and_horizontal_instructions_match_native() {
    if !std::arch::is_x86_feature_detected!("sse4.2")
        || !std::arch::is_x86_feature_detected!("ssse3")
    {
        println!("skipped: the host CPU lacks SSE4.2 or SSSE3");
        return;
    }
    for variant in ["O2", "static"] {
        let program = guest(&format!("sseops-{variant}"));
        let dir = scratch(&format!("cpu-sseops-{variant}"));
        let vm = run_pathvm(&dir.join("p.out"), &program, &[]);
        let native = run_native(&program, &[]);
        assert_eq!(native.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&vm.stdout),
            String::from_utf8_lossy(&native.stdout),
            "sseops-{variant} under pathvm (left) and natively (right); pathvm stderr: {}",
            String::from_utf8_lossy(&vm.stderr)
        );
        assert_eq!(vm.status.code(), Some(0));
    }
}

#[test]
fn rdrand_is_the_same_on_every_run_and_follows_the_seed() {
    let program = guest("rdrand-O2");
    let dir = scratch("cpu-rdrand");
    let run = |extra: &[&str]| {
        let o = run_with(&dir.join("p.out"), extra, &program, &[]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let first = run(&[]);
    assert!(first.contains("cf 1111 differ 1"), "{first}");
    assert_eq!(first, run(&[]), "two runs with the same seed");
    let seven = run(&["--seed", "7"]);
    assert!(seven.contains("cf 1111 differ 1"), "{seven}");
    assert_ne!(first, seven, "another --seed, other numbers");
    assert_eq!(seven, run(&["--seed", "7"]));
}
