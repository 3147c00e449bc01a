//! Exports read by the tools they are for.

use std::process::Command;

use crate::common::*;

#[test]
fn callgrind_annotate_reads_every_export_and_agrees() {
    if !have("callgrind_annotate") {
        eprintln!("skipped: callgrind_annotate not installed");
        return;
    }
    let dir = scratch("export");
    for prog in [
        "hello-O2",
        "work-O2",
        "fig1-O2",
        "longjmp-O2",
        "except-O2",
        "tailcall-O2",
        "files-O2",
        "count",
    ] {
        let profile = dir.join(format!("{prog}.out"));
        run_pathvm(&profile, &guest(prog), &[]);
        let cg = dir.join(format!("{prog}.callgrind"));
        let out = Command::new(pathvm())
            .arg("export")
            .arg(&profile)
            .args(["--format", "callgrind", "-o"])
            .arg(&cg)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ann = Command::new("callgrind_annotate")
            .args(["--inclusive=no", "--threshold=100", "--auto=no"])
            .arg(&cg)
            .output()
            .unwrap();
        assert!(ann.status.success());
        let stderr = String::from_utf8_lossy(&ann.stderr);
        assert!(
            !stderr.to_lowercase().contains("warning"),
            "{prog}: {stderr}"
        );
        let text = String::from_utf8_lossy(&ann.stdout);
        // The program total equals pathvm's total instructions.
        let total = report_json(&profile, &[])["totals"]["instructions"]
            .as_u64()
            .unwrap();
        let line = text
            .lines()
            .find(|l| l.contains("PROGRAM TOTALS"))
            .expect("totals line");
        let first: u64 = line
            .split_whitespace()
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert_eq!(first, total, "{prog}");
    }
}

#[test]
fn folded_and_flamegraph() {
    let dir = scratch("flame");
    let profile = dir.join("fig1.out");
    run_pathvm(&profile, &guest("fig1-O2"), &[]);
    let out = Command::new(pathvm())
        .arg("export")
        .arg(&profile)
        .args(["--format", "folded"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let folded = String::from_utf8_lossy(&out.stdout);
    let c_under_a: u64 = folded
        .lines()
        .filter(|l| l.contains(";main;a;f;c ") || l.contains(";main;a;f;c;d "))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert!(c_under_a > 30_000_000, "{folded}");
    let total: u64 = folded
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(
        total,
        report_json(&profile, &[])["totals"]["instructions"]
            .as_u64()
            .unwrap()
    );
    let svg = dir.join("fig1.svg");
    let out = Command::new(pathvm())
        .arg("export")
        .arg(&profile)
        .args(["--format", "flamegraph", "--metric", "l1d-miss", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("main"));
}
