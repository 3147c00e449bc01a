//! The CI workflow: diff and check on deterministic counts.

use std::process::Command;

use crate::common::*;

fn profile_of(dir: &std::path::Path, name: &str, program: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join(name);
    let out = Command::new(pathvm())
        .args(["run", "-q", "--no-cache-sim", "-o"])
        .arg(&p)
        .arg(std::path::Path::new(".").join(program.file_name().unwrap()))
        .current_dir(program.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p
}

#[test]
fn diff_of_identical_runs_is_clean() {
    let dir = scratch("diff-same");
    let a = profile_of(&dir, "a.out", &guest("diffwork-O2"));
    let b = profile_of(&dir, "b.out", &guest("diffwork-O2"));
    let out = Command::new(pathvm())
        .args(["diff", "--fail-on", "instructions:0", "--format", "json"])
        .args([&a, &b])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["rows"].as_array().map(|r| r.len()), Some(0), "{j}");
}

#[test]
fn one_percent_more_work_in_one_function_fails_the_diff() {
    let dir = scratch("diff-more");
    // Same file name in two directories: the command lines are equal.
    let old = profile_of(&dir, "old.out", &guest("diffwork-O2"));
    let new = profile_of(&dir, "new.out", &guests().join("more").join("diffwork-O2"));
    let out = Command::new(pathvm())
        .args(["diff", "--fail-on", "instructions:0.5", "--format", "json"])
        .args([&old, &new])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = j["rows"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["function"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["heavy"], "{j}");
    // Without the limit the diff reports and exits 0; markdown for CI summaries.
    let out = Command::new(pathvm())
        .args(["diff", "--format", "markdown"])
        .args([&old, &new])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("heavy"));
}

#[test]
fn check_against_a_baseline() {
    let dir = scratch("check");
    let base = profile_of(&dir, "base.out", &guest("diffwork-O2"));
    let new = profile_of(&dir, "new.out", &guests().join("more").join("diffwork-O2"));
    let check = |limit: &str| {
        Command::new(pathvm())
            .args(["check", "--baseline"])
            .arg(&base)
            .arg(&new)
            .args(["--limit", limit])
            .output()
            .unwrap()
    };
    assert_eq!(check("instructions:0.1%").status.code(), Some(1));
    assert_eq!(check("instructions:5%").status.code(), Some(0));
    let limits = dir.join("limits.toml");
    std::fs::write(&limits, "[limits.instructions]\nrelative = 0.1\n").unwrap();
    let out = Command::new(pathvm())
        .args(["check", "--baseline"])
        .arg(&base)
        .arg(&new)
        .arg("--limits")
        .arg(&limits)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // --update-baseline rewrites it; then the check passes.
    let out = Command::new(pathvm())
        .args(["check", "--update-baseline", "--baseline"])
        .arg(&base)
        .arg(&new)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(check("instructions:0%").status.code(), Some(0));
}

#[test]
fn identical_under_parallel_load() {
    let dir = scratch("parallel");
    let prog = guest("work-O2");
    let children: Vec<_> = (0..3)
        .map(|i| {
            Command::new(pathvm())
                .args(["run", "-q", "-o"])
                .arg(dir.join(format!("p{i}.out")))
                .arg(&prog)
                .current_dir(prog.parent().unwrap())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let first = std::fs::read(dir.join("p0.out")).unwrap();
    for i in 1..3 {
        assert_eq!(first, std::fs::read(dir.join(format!("p{i}.out"))).unwrap());
    }
}
