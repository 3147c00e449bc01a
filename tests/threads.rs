//! Guest threads under the deterministic scheduler: native output and exit
//! status, byte-identical profiles on every run, per-thread counts
//! (`report --by thread`), a deadlock stopped with its waits, and a real
//! multithreaded program (`xz -T2`) giving byte-identical output.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::*;

fn assert_as_native(vm: &Output, native: &Output, what: &str) {
    assert_eq!(
        String::from_utf8_lossy(&vm.stdout),
        String::from_utf8_lossy(&native.stdout),
        "stdout of {what}; pathvm stderr: {}",
        String::from_utf8_lossy(&vm.stderr)
    );
    assert_eq!(
        vm.status.code(),
        native.status.code(),
        "exit status of {what}; pathvm stderr: {}",
        String::from_utf8_lossy(&vm.stderr)
    );
}

/// `report --by thread` rows: (tid, started in, instructions).
fn threads(profile: &Path, extra: &[&str]) -> Vec<(u64, String, u64)> {
    let mut args = vec!["--by", "thread"];
    args.extend_from_slice(extra);
    let rep = report_json(profile, &args);
    rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r: &Value| {
            (
                r["tid"].as_u64().unwrap(),
                r["root"].as_str().unwrap().to_string(),
                r["cost"]["instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn total_instructions(profile: &Path) -> u64 {
    report_json(profile, &[])["totals"]["instructions"]
        .as_u64()
        .unwrap()
}

#[test]
fn workers_sum_ranges_as_native_with_identical_profiles() {
    let dir = scratch("threads-work");
    let program = guest("threads-O2");
    let native = run_native(&program, &["work"]);
    assert!(native.status.success());
    let first = dir.join("p0.out");
    let started = std::time::Instant::now();
    for k in 0..10 {
        let profile = dir.join(format!("p{k}.out"));
        let vm = run_with(&profile, &[], &program, &["work"]);
        assert_as_native(&vm, &native, "threads work");
        if k == 0 {
            eprintln!("threads work under pathvm: {:.2?}", started.elapsed());
        } else {
            assert_eq!(
                std::fs::read(&first).unwrap(),
                std::fs::read(&profile).unwrap(),
                "run {k} gave another profile than run 0"
            );
        }
    }
    let rows = threads(&first, &[]);
    let tids: Vec<u64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(tids, [1000, 1001, 1002, 1003, 1004], "main and 4 workers");
    assert_eq!(rows[0].1, "_start");
    assert!(rows[1..].iter().all(|r| r.1 == "clone3"), "{rows:?}");
    // Worker k sums 100000*(k+1) numbers at 15 instructions each, plus the
    // same thread start and exit.
    let workers: Vec<u64> = rows[1..].iter().map(|r| r.2).collect();
    assert_eq!(workers, [1_500_296, 3_000_296, 4_500_296, 6_000_296]);
    assert_eq!(
        rows.iter().map(|r| r.2).sum::<u64>(),
        total_instructions(&first),
        "the threads' counts add up to the run's"
    );
    // One thread alone: its sum_range is its range.
    let one = report_json(&first, &["--thread", "1003"]);
    let sum_range = one["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["function"] == "sum_range")
        .expect("sum_range in thread 1003");
    assert_eq!(sum_range["self"]["instructions"], 4_500_008);
    assert_eq!(one["totals"]["instructions"], 4_500_296);
}

#[test]
fn static_and_static_pie_threads_match_native() {
    let dir = scratch("threads-static");
    for variant in ["threads-static", "threads-spie"] {
        let program = guest(variant);
        for what in ["work", "contend"] {
            let native = run_native(&program, &[what]);
            let vm = run_with(&dir.join("p.out"), &["--no-cache-sim"], &program, &[what]);
            assert_as_native(&vm, &native, &format!("{variant} {what}"));
        }
    }
}

#[test]
fn mutex_and_condvar_contention_gives_the_native_count() {
    let dir = scratch("threads-contend");
    let program = guest("threads-O2");
    let native = run_native(&program, &["contend"]);
    assert_eq!(
        String::from_utf8_lossy(&native.stdout),
        "counter = 110000\n"
    );
    let mut profiles = Vec::new();
    // A small quantum switches threads inside critical sections too.
    for quantum in ["100000", "100000", "997"] {
        let profile = dir.join(format!("q{quantum}-{}.out", profiles.len()));
        let vm = run_with(
            &profile,
            &["--sched-quantum", quantum],
            &program,
            &["contend"],
        );
        assert_as_native(&vm, &native, "threads contend");
        profiles.push(profile);
    }
    assert_eq!(
        std::fs::read(&profiles[0]).unwrap(),
        std::fs::read(&profiles[1]).unwrap()
    );
    assert_eq!(threads(&profiles[2], &[]).len(), 5);
}

#[test]
fn deadlock_stops_with_status_123_the_waits_and_the_profile() {
    let dir = scratch("threads-deadlock");
    let program = guest("threads-O2");
    let summary = dir.join("s.json");
    let vm = run_with(
        &dir.join("p.out"),
        &["--json-summary", summary.to_str().unwrap()],
        &program,
        &["deadlock"],
    );
    assert_eq!(vm.status.code(), Some(123));
    let stderr = String::from_utf8_lossy(&vm.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    // The profile of what ran is written, and says why the run stopped.
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(
        summary.contains("stopped: deadlock: every thread waits"),
        "{summary}"
    );
    let line = lines[0];
    assert!(
        line.starts_with(
            "pathvm: deadlock: every thread waits and nothing can wake one: tid 1000 on futex 0x"
        ),
        "{line}"
    );
    assert!(line.contains(", tid 1001 on futex 0x"), "{line}");
    assert_eq!(line.matches(" at pc 0x").count(), 2, "{line}");
    // Both wait in the same futex call, on the two mutexes.
    let again = run_with(&dir.join("q.out"), &[], &program, &["deadlock"]);
    assert_eq!(
        String::from_utf8_lossy(&again.stderr),
        stderr,
        "the same waits every run"
    );
}

/// About 1 MiB of compressible text, the same on every run.
fn compressible(path: &Path) {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut words = Vec::new();
    for _ in 0..2000 {
        let mut w = String::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for k in 0..(2 + x % 8) {
            w.push((b'a' + ((x >> (8 + 4 * k)) % 10) as u8) as char);
        }
        words.push(w);
    }
    let mut text = String::new();
    while text.len() < 1 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push_str(&words[(x % 2000) as usize]);
        text.push(' ');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn xz_with_two_threads_compresses_as_native() {
    if !have("xz") {
        eprintln!("skipped: xz is not installed");
        return;
    }
    let dir = scratch("threads-xz");
    let data = dir.join("data.txt");
    compressible(&data);
    let xz = Path::new("/usr/bin/xz");
    let xz = if xz.exists() {
        xz.to_owned()
    } else {
        Path::new("xz").to_owned()
    };
    let args = [
        "-T2",
        "-1",
        "--block-size=256KiB",
        "-c",
        data.to_str().unwrap(),
    ];
    let native = run_native(&xz, &args);
    assert!(native.status.success());
    let started = std::time::Instant::now();
    let profile = dir.join("xz.out");
    let vm = run_with(&profile, &["--no-cache-sim", "--no-branch-sim"], &xz, &args);
    eprintln!("xz -T2 of 1 MiB under pathvm: {:.2?}", started.elapsed());
    assert!(
        vm.status.success(),
        "{}",
        String::from_utf8_lossy(&vm.stderr)
    );
    assert!(vm.stdout == native.stdout, "xz output differs from native");
    // Two worker threads did the compressing.
    let rows = threads(&profile, &[]);
    let total = total_instructions(&profile);
    let busy = rows
        .iter()
        .filter(|r| r.0 != 1000 && r.2 > total / 4)
        .count();
    assert_eq!(busy, 2, "{rows:?}");
}
