//! Guest memory as Linux manages it (guest-programs/mem.c): `madvise`,
//! large reservations, the kernel's argument checks, bus errors past the end
//! of a mapped file, the stack's limit (through `execve` too) and its size
//! in `/proc/self/maps`, shared memory across `fork`, `MAP_FIXED` anywhere
//! in the user half, ranges across the edges of pathvm's regions,
//! `mremap` to a fixed address and self-modifying code, each compared with a native
//! run; the counts of self-modifying code; and the resident memory pathvm
//! needs for them.

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
        &["smcself", "1000"],
        &["threads"],
        &["shared"],
        &["fixedhigh"],
        &["stack"],
        &["execstack"],
        &["mremapshared"],
        &["readcode"],
        &["edges"],
        &["mremapfixed"],
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

/// The one row of a JSON report whose object is anonymous memory.
fn anonymous_code(report: &serde_json::Value) -> (u64, u64) {
    let rows: Vec<_> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["object"] == "[unknown]")
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    (
        rows[0]["calls"].as_u64().unwrap(),
        rows[0]["self"]["instructions"].as_u64().unwrap(),
    )
}

#[test]
fn rewritten_code_counts_exactly() {
    // `mem smc 3000` rewrites one function 3,000 times, alternating a
    // 2-instruction and a 3-instruction body of the same length.
    let n = 3000u64;
    let expected = n / 2 * 3 + (n - n / 2) * 2;
    let program = guest("mem-O2");
    let dir = scratch("memory-smc");
    let native = run_native(&program, &["smc", "3000"]);
    let mut smc_self = Vec::new();
    for (name, extra) in [
        ("full", &[][..]),
        (
            "sparse",
            &["--no-paths", "--no-cache-sim", "--no-branch-sim"][..],
        ),
    ] {
        let profile = dir.join(format!("{name}.out"));
        let out = run_with(&profile, extra, &program, &["smc", "3000"]);
        assert_eq!(out.stdout, native.stdout, "{name}");
        assert_eq!(out.status.code(), Some(0), "{name}");
        let rep = report_json(&profile, &[]);
        assert_eq!(anonymous_code(&rep), (n, expected), "{name}");
        smc_self.push(self_counts(&rep)["smc"]);
    }
    assert_eq!(smc_self[0], smc_self[1]);
    if !have("valgrind") || !have("callgrind_annotate") {
        eprintln!("skipped the callgrind comparison: valgrind/callgrind_annotate not installed");
        return;
    }
    let cg = dir.join("smc.cg");
    let st = Command::new("valgrind")
        .args(["--tool=callgrind", "--quiet", "--smc-check=all"])
        .arg(format!("--callgrind-out-file={}", cg.display()))
        .arg(&program)
        .args(["smc", "3000"])
        .output()
        .unwrap();
    assert!(st.status.success());
    let ann = Command::new("callgrind_annotate")
        .args(["--threshold=100", "--inclusive=no", "--auto=no"])
        .arg(&cg)
        .output()
        .expect("callgrind_annotate");
    let text = String::from_utf8_lossy(&ann.stdout);
    let count = |line: &str| -> u64 {
        line.split_whitespace()
            .next()
            .unwrap_or("")
            .replace(',', "")
            .parse()
            .unwrap_or(0)
    };
    // "43,536 (24.06%)  /path/mem.c:smc [/path/mem-O2]" and the anonymous
    // code, "7,500 ( 4.14%)  ???:0x000000000483c000 [???]".
    let theirs_smc = text.lines().find(|l| l.contains(":smc [")).map(count);
    let theirs_anon = text
        .lines()
        .filter(|l| l.trim_end().ends_with("[???]"))
        .map(count)
        .max();
    assert_eq!(theirs_smc, Some(smc_self[0]), "{text}");
    assert_eq!(theirs_anon, Some(expected), "{text}");
}

#[test]
fn code_rewritten_by_its_own_block_counts_once() {
    // `mem smcself 1000`: two loops that each store into an immediate of
    // their own translation block, 1,000 times: the emulator leaves the
    // block at the store and runs the store and the rest of the block
    // again as new blocks, which counted each iteration twice (10,002 and
    // 11,003 instructions, 2,000 stores). Natively: 1 + 5n + 1 and
    // 1 + 6n + 2 instructions, n stores.
    let n = 1000u64;
    let expected = [5 * n + 2, 6 * n + 3];
    let program = guest("mem-O2");
    let dir = scratch("memory-smcself");
    let native = run_native(&program, &["smcself", "1000"]);
    // Per loop (in address order): instructions, loads, stores, l1i-miss.
    let mut full = Vec::new();
    let mut totals = Vec::new();
    for (name, extra) in [
        ("full", &[][..]),
        ("single-thread", &["--single-thread"][..]),
        (
            "sparse",
            &["--no-paths", "--no-cache-sim", "--no-branch-sim"][..],
        ),
        (
            "sparse-single-thread",
            &[
                "--no-paths",
                "--no-cache-sim",
                "--no-branch-sim",
                "--single-thread",
            ][..],
        ),
    ] {
        let profile = dir.join(format!("{name}.out"));
        let out = run_with(&profile, extra, &program, &["smcself", "1000"]);
        assert_eq!(out.stdout, native.stdout, "{name}");
        assert_eq!(out.status.code(), Some(0), "{name}");
        let rep = report_json(&profile, &[]);
        // The two loops' functions (anonymous code).
        let mut anon: Vec<(String, Vec<u64>)> = rep["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["object"] == "[unknown]")
            .map(|r| {
                let m = |k: &str| r["self"][k].as_u64().unwrap_or(0);
                (
                    r["function"].as_str().unwrap_or("").to_string(),
                    vec![m("instructions"), m("loads"), m("stores"), m("l1i-miss")],
                )
            })
            .collect();
        anon.sort();
        let counts: Vec<u64> = anon.iter().map(|a| a.1[0]).collect();
        assert_eq!(counts, expected, "{name}: {anon:?}");
        if !name.starts_with("sparse") {
            full.push(anon.into_iter().map(|a| a.1).collect::<Vec<_>>());
        }
        totals.push(rep["totals"]["instructions"].as_u64());
    }
    assert!(totals.windows(2).all(|w| w[0] == w[1]), "{totals:?}");
    assert_eq!(full[0], full[1]);
    if !have("valgrind") || !have("callgrind_annotate") {
        eprintln!("skipped the callgrind comparison: valgrind/callgrind_annotate not installed");
        return;
    }
    let cg = dir.join("smcself.cg");
    let st = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--quiet",
            "--smc-check=all",
            "--dump-instr=no",
            "--cache-sim=yes",
        ])
        .arg(format!("--callgrind-out-file={}", cg.display()))
        .arg(&program)
        .args(["smcself", "1000"])
        .output()
        .unwrap();
    assert!(st.status.success());
    let ann = Command::new("callgrind_annotate")
        .args(["--threshold=100", "--inclusive=no", "--auto=no"])
        .arg(&cg)
        .output()
        .expect("callgrind_annotate");
    let text = String::from_utf8_lossy(&ann.stdout);
    // The two loops, at the page's start and 256 bytes in, as "6,003
    // ( 4.20%) 1 ( 0.00%) 1,000 ( 6.72%) 1 ( 0.08%) . ...
    // ???:0x000000000483c100 [???]": Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
    let mut theirs: Vec<(u64, Vec<u64>)> = text
        .lines()
        .filter(|l| l.trim_end().ends_with("[???]"))
        .filter_map(|l| {
            let (costs, name) = l.split_once("???:")?;
            let addr = name.split_whitespace().next()?.trim_start_matches("0x");
            let addr = u64::from_str_radix(addr, 16).ok()?;
            let values: Vec<u64> = costs
                .split_whitespace()
                .filter(|t| !t.contains('(') && !t.contains('%'))
                .map(|t| t.replace(',', "").parse().unwrap_or(0))
                .collect();
            Some((addr, values))
        })
        .filter(|(addr, v)| (addr & 0xfff == 0 || addr & 0xfff == 0x100) && v[0] > n)
        .collect();
    theirs.sort();
    let counts: Vec<Vec<u64>> = theirs.iter().map(|t| t.1[..4].to_vec()).collect();
    assert_eq!(counts, full[0], "{text}");
}

#[test]
fn rewritten_code_returns_its_memory() {
    // 200,000 rewrites kept every retired translation: about 100 MB more.
    let fixed = peak_kib(&["smc", "3"]);
    let rewrites = peak_kib(&["smc", "200000"]);
    eprintln!("peak resident: smc 3 {fixed} KiB, smc 200000 {rewrites} KiB");
    assert!(rewrites < 2 * fixed, "{rewrites} KiB against {fixed} KiB");
}
