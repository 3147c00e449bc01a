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

/// The host has what the x86-64-v3 model emulates (the reference for it).
fn host_has_x86_64_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
        && std::arch::is_x86_feature_detected!("movbe")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// Programs built with `-march=x86-64-v3` (guest-programs/avxdot.c: loops
/// vectorized with AVX, AVX2 and FMA; avxstr.c: glibc's AVX2 string and
/// memory functions; fpargs.c: lazy binding through glibc's
/// `_dl_runtime_resolve_xsavec`) run under `--cpu x86-64-v3` as natively
/// (output, status) and give the same profile twice; the profile names the
/// model and `report` shows it.
#[test]
fn x86_64_v3_programs_match_native() {
    if !host_has_x86_64_v3() {
        println!("skipped: the host CPU lacks AVX2, FMA, F16C, MOVBE or BMI2");
        return;
    }
    for name in [
        "avxdot-v3",
        "avxdot-v3static",
        "avxstr-v3",
        "avxstr-v3static",
        "fpargs-O2",
    ] {
        let (profile, _) = as_native_twice(
            &format!("cpu-v3-{name}"),
            &["--cpu", "x86-64-v3"],
            &guest(name),
            &[],
        );
        let report = std::process::Command::new(pathvm())
            .args(["report", "--top", "1"])
            .arg(&profile)
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&report.stdout).starts_with("CPU model: x86-64-v3\nTotals:"),
            "{}",
            String::from_utf8_lossy(&report.stdout)
        );
    }
}

/// The guest programs whose output is their own, built as a distribution
/// built for x86-64-v3 compiles them (`gcc -O2 -march=x86-64-v3`:
/// guest-programs/build.sh's NAME-v3O2, with VEX encodings, FMA contraction,
/// BMI and glibc's AVX2 string functions), run under `--cpu x86-64-v3` as
/// natively (output, status) and give the same profile twice.
#[test]
fn x86_64_v3_builds_of_the_guest_programs_match_native() {
    if !host_has_x86_64_v3() {
        println!("skipped: the host CPU lacks AVX2, FMA, F16C, MOVBE or BMI2");
        return;
    }
    for name in [
        "alloc",
        "allocxx",
        "avxdot",
        "avxstr",
        "cachetest",
        "deeprec",
        "diffwork",
        "except",
        "fig1",
        "fpargs",
        "fpmf",
        "fpsse",
        "fpx87",
        "fpxm",
        "hello",
        "longjmp",
        "misc",
        "sigdeep",
        "sigfault",
        "ssemem",
        "sweep",
        "tailcall",
        "work",
    ] {
        as_native_twice(
            &format!("cpu-v3O2-{name}"),
            &["--cpu", "x86-64-v3"],
            &guest(&format!("{name}-v3O2")),
            &[],
        );
    }
}

/// A real AVX2 program: Debian's xxhsum (package xxhash) picks its XXH3
/// code by CPUID at run time. Under `--cpu x86-64-v3` it takes the AVX2
/// code (fewer instructions than the SSE2 code it takes under x86-64-v2,
/// 32 bytes a vector instead of 16) and prints what it prints natively,
/// with the same profile twice.
#[test]
fn xxhsum_avx2_matches_native() {
    let Some(xxhsum) = which("xxhsum") else {
        println!("skipped: xxhsum is not installed (scripts/setup.sh installs the xxhash package)");
        return;
    };
    if !host_has_x86_64_v3() {
        println!("skipped: the host CPU lacks AVX2, FMA, F16C, MOVBE or BMI2");
        return;
    }
    let dir = scratch("cpu-xxhsum");
    let input = dir.join("input.bin");
    // 1 MiB from a fixed linear congruential sequence.
    let mut x: u64 = 1;
    let data: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect();
    std::fs::write(&input, data).unwrap();
    let input = input.to_str().unwrap();
    let mut totals = Vec::new();
    for (model, h) in [
        ("x86-64-v3", "-H3"),
        ("x86-64-v3", "-H2"),
        ("x86-64-v2", "-H3"),
    ] {
        let (profile, _) = as_native_twice(
            &format!("cpu-xxhsum-{model}{h}"),
            &["--cpu", model],
            &xxhsum,
            &[h, input],
        );
        totals.push(
            report_json(&profile, &[])["totals"]["instructions"]
                .as_u64()
                .unwrap(),
        );
    }
    assert!(
        totals[0] < totals[2] * 3 / 4,
        "XXH3 under x86-64-v3 ({}) should take far fewer instructions than under x86-64-v2 ({})",
        totals[0],
        totals[2]
    );
}

/// Under the default x86-64-v2 model an AVX instruction stops the run with
/// one line (status 125), and `diff`/`check` refuse, with one line, to
/// compare profiles of different models unless `--allow-cpu-mismatch`.
#[test]
fn x86_64_v2_refuses_avx_and_models_do_not_mix() {
    let dir = scratch("cpu-v2-avx");
    let out = run_pathvm(&dir.join("p.out"), &guest("avxdot-v3"), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("unsupported instruction") && err.contains("x86-64-v2"),
        "{err}"
    );
    if !host_has_x86_64_v3() {
        println!("skipped the rest: the host CPU lacks AVX2, FMA, F16C, MOVBE or BMI2");
        return;
    }
    // The same program (built for x86-64) on each model: glibc picks other
    // string functions, so the counts differ.
    let program = guest("avxstr-O2");
    let (v2, v3) = (dir.join("v2.out"), dir.join("v3.out"));
    assert_eq!(run_pathvm(&v2, &program, &[]).status.code(), Some(0));
    assert_eq!(
        run_with(&v3, &["--cpu", "x86-64-v3"], &program, &[])
            .status
            .code(),
        Some(0)
    );
    for args in [
        vec![
            "diff".into(),
            v2.clone().into_os_string(),
            v3.clone().into_os_string(),
        ],
        vec![
            "check".into(),
            v3.clone().into_os_string(),
            "--baseline".into(),
            v2.clone().into_os_string(),
        ],
    ] {
        let refused = std::process::Command::new(pathvm())
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&refused.stderr);
        assert_ne!(refused.status.code(), Some(0), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("x86-64-v2 and x86-64-v3"), "{err}");
        let allowed = std::process::Command::new(pathvm())
            .args(&args)
            .arg("--allow-cpu-mismatch")
            .output()
            .unwrap();
        assert!(
            allowed.stderr.is_empty() && allowed.status.code().is_some(),
            "{}",
            String::from_utf8_lossy(&allowed.stderr)
        );
    }
}

/// Per function of guest-programs/avxdot.c built for x86-64-v3: self
/// instructions equal callgrind's `Ir` (valgrind runs AVX2 and FMA), and
/// loads and stores equal cachegrind's `Dr` and `Dw` but where valgrind's
/// translation differs from the instruction: an FMA's memory operand is one
/// load in pathvm (as on the hardware) and one per element in valgrind
/// (dotf, dotd, saxpy and daxpy have `vfmadd231p* ymm, ymm, m256` in their
/// loops, so only their stores are compared). `main` is left out: it copies
/// arrays with `rep movsq`, one instruction here and one per iteration in
/// callgrind (the README's counting rule).
#[test]
fn x86_64_v3_counts_match_valgrind() {
    if !host_has_x86_64_v3() {
        println!("skipped: the host CPU lacks AVX2, FMA, F16C, MOVBE or BMI2");
        return;
    }
    if !have("valgrind") || !have("callgrind_annotate") || !have("cg_annotate") {
        println!("skipped: valgrind, callgrind_annotate or cg_annotate not installed");
        return;
    }
    let dir = scratch("cpu-v3-valgrind");
    let program = guest("avxdot-v3");
    let profile = dir.join("p.out");
    let out = run_with(&profile, &["--cpu", "x86-64-v3"], &program, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = report_json(&profile, &["--metric", "instructions,loads,stores"]);
    let ours = |metric: &str| -> std::collections::BTreeMap<String, u64> {
        report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["function"].as_str().unwrap().to_string(),
                    r["self"][metric].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let cg_out = dir.join("callgrind.out");
    let st = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--quiet"])
        .arg(format!("--callgrind-out-file={}", cg_out.display()))
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let ir = crate::counts::callgrind_self(&cg_out);
    let cache_out = dir.join("cachegrind.out");
    let st = std::process::Command::new("valgrind")
        .args(["--tool=cachegrind", "--quiet", "--cache-sim=yes"])
        .arg(format!("--cachegrind-out-file={}", cache_out.display()))
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let (dr, dw) = cachegrind_data(&cache_out);
    let (instructions, loads, stores) = (ours("instructions"), ours("loads"), ours("stores"));
    // valgrind's gathers load every element, those masked off too
    // (pathvm: the elements loaded, as the hardware accesses).
    let fma_loads = ["dotf", "dotd", "saxpy", "daxpy", "gathers"];
    for f in [
        "dotf", "dotd", "saxpy", "daxpy", "ints", "bytes", "convert", "clamp", "cmul", "roots",
        "gathers",
    ] {
        let name = format!("{f}.constprop.0");
        assert!(instructions.contains_key(&name), "{name} did not run");
        assert_eq!(instructions.get(&name), ir.get(&name), "Ir of {name}");
        if !fma_loads.contains(&f) {
            assert_eq!(loads.get(&name), dr.get(&name), "Dr of {name}");
        }
        assert_eq!(stores.get(&name), dw.get(&name), "Dw of {name}");
    }
}

/// Self `Dr` and `Dw` per function from a cachegrind output file (its
/// `fn=` blocks: a line's counts are `line Ir Dr Dw`).
fn cachegrind_data(
    file: &std::path::Path,
) -> (
    std::collections::BTreeMap<String, u64>,
    std::collections::BTreeMap<String, u64>,
) {
    let (mut dr, mut dw) = (
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
    );
    for (func, c) in cachegrind_self(file, &["Dr", "Dw"]) {
        dr.insert(func.clone(), c[0]);
        dw.insert(func, c[1]);
    }
    (dr, dw)
}
