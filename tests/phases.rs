//! Region markers (`include/pathvm.h`) on `guest-programs/phases.c`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::*;

/// `(phase, {metric: total})` in phase order, and the run's totals.
fn phases(profile: &Path) -> (Vec<(String, BTreeMap<String, u64>)>, BTreeMap<String, u64>) {
    let rep = report_json(profile, &["--phases"]);
    let map = |v: &serde_json::Value| -> BTreeMap<String, u64> {
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect()
    };
    let list = rep["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["phase"].as_str().unwrap().to_string(), map(&p["totals"])))
        .collect();
    (list, map(&rep["totals"]))
}

fn record(dir: &Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let profile = dir.join(format!("{name}.out"));
    let out = run_pathvm(&profile, &guest("phases-O2"), args);
    let native = run_native(&guest("phases-O2"), args);
    // Natively the markers are harmless system calls that fail with
    // ENOSYS; under pathvm they return the same, and the program's output
    // and exit status are the same.
    assert_eq!(native.status.code(), Some(3), "{args:?}");
    assert_eq!(out.status.code(), Some(3), "{args:?}");
    assert_eq!(
        String::from_utf8_lossy(&native.stdout),
        "phases done; a marker returned -38\n"
    );
    assert_eq!(out.stdout, native.stdout);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    profile
}

/// Self cost per metric of every function, keyed by (name, object); rows
/// with the same key (local functions of the same name) are summed.
fn self_costs(report: &serde_json::Value) -> BTreeMap<(String, String), BTreeMap<String, u64>> {
    let mut map: BTreeMap<(String, String), BTreeMap<String, u64>> = BTreeMap::new();
    for r in report["rows"].as_array().unwrap() {
        let key = (
            r["function"].as_str().unwrap().to_string(),
            r["object"].as_str().unwrap().to_string(),
        );
        let costs = map.entry(key).or_default();
        for (k, v) in r["self"].as_object().unwrap() {
            *costs.entry(k.clone()).or_default() += v.as_u64().unwrap();
        }
    }
    map
}

fn instructions(p: &(String, BTreeMap<String, u64>)) -> u64 {
    p.1["instructions"]
}

#[test]
fn phases_split_the_total_exactly_at_the_markers() {
    let dir = scratch("phases");
    // Arguments of equal length, so that main's own work (atol, the
    // initial stack) is the same in every run.
    let small = record(&dir, "small", &["100000", "100000"]);
    let large = record(&dir, "large", &["300000", "100000"]);
    let long_stop = record(&dir, "long-stop", &["100000", "900000"]);
    let zeroed = record(&dir, "zeroed", &["100000", "100000", "z"]);

    let mut runs = Vec::new();
    for profile in [&small, &large, &long_stop, &zeroed] {
        let (list, totals) = phases(profile);
        let names: Vec<&str> = list.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(names, ["main", "work", "stopped", "tail"]);
        // The phases add up to the total, in every metric.
        for (metric, total) in &totals {
            let sum: u64 = list.iter().map(|p| p.1[metric]).sum();
            assert_eq!(sum, *total, "{metric} in {}", profile.display());
        }
        runs.push((list, totals));
    }
    let spin_self = |profile: &Path| self_counts(&report_json(profile, &[]))["spin"];

    // The work phase is spin(N) (2N instructions of loop and its `ret`)
    // and the same few instructions of main around it.
    let (small_p, large_p) = (&runs[0].0, &runs[1].0);
    assert_eq!(
        instructions(&large_p[1]) - instructions(&small_p[1]),
        400_000
    );
    assert_eq!(spin_self(&small), 2 * 100_000 + 1);
    assert_eq!(spin_self(&large), 2 * 300_000 + 1);
    let around = instructions(&small_p[1]) - spin_self(&small);
    assert_eq!(instructions(&large_p[1]) - spin_self(&large), around);
    assert!((1..=12).contains(&around), "{around}");
    // Everything else is the same whatever N.
    for k in [0, 2, 3] {
        assert_eq!(small_p[k], large_p[k], "phase {}", small_p[k].0);
    }

    // spin(M) between STOP and START is not counted: a longer stop changes
    // no count of the phases after the arguments were parsed (atol of
    // "900000" and of "100000" differ slightly, in main), and spin's self
    // cost is its work phase call only.
    assert_eq!(runs[2].0[1..], runs[0].0[1..]);
    assert_eq!(spin_self(&long_stop), 2 * 100_000 + 1);
    // The stretch between the phase marker and STOP: a handful.
    assert!((1..=12).contains(&instructions(&small_p[2])), "{small_p:?}");

    // Per phase, the self cost of each function: they add up to the
    // phase's total, and each function's phases to its self cost.
    let rep = report_json(&small, &["--phases"]);
    let function_self = self_costs(&report_json(&small, &[]));
    let mut per_function: BTreeMap<(String, String), BTreeMap<String, u64>> = BTreeMap::new();
    for phase in rep["phases"].as_array().unwrap() {
        let mut sum: BTreeMap<String, u64> = BTreeMap::new();
        for f in phase["functions"].as_array().unwrap() {
            let key = (
                f["function"].as_str().unwrap().to_string(),
                f["object"].as_str().unwrap().to_string(),
            );
            for (metric, v) in f["self"].as_object().unwrap() {
                *sum.entry(metric.clone()).or_default() += v.as_u64().unwrap();
                *per_function
                    .entry(key.clone())
                    .or_default()
                    .entry(metric.clone())
                    .or_default() += v.as_u64().unwrap();
            }
        }
        let totals: BTreeMap<String, u64> = phase["totals"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(sum, totals, "{}", phase["phase"]);
        let spin: Vec<u64> = phase["functions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["function"] == "spin")
            .map(|f| f["self"]["instructions"].as_u64().unwrap())
            .collect();
        // spin runs in "work" (counted) and in "stopped" (not counted).
        let expected: &[u64] = if phase["phase"] == "work" {
            &[200_001]
        } else {
            &[]
        };
        assert_eq!(spin, expected, "{}", phase["phase"]);
    }
    for (key, costs) in &function_self {
        for (metric, &v) in costs {
            let in_phases = per_function
                .get(key)
                .and_then(|c| c.get(metric))
                .copied()
                .unwrap_or(0);
            assert_eq!(in_phases, v, "{key:?} {metric}");
        }
    }
    assert!(per_function.keys().all(|k| function_self.contains_key(k)));

    // ZERO (after START, in phase "stopped") discards everything before it.
    let (zero_p, zero_totals) = &runs[3];
    for k in [0, 1] {
        assert!(zero_p[k].1.values().all(|&v| v == 0), "{zero_p:?}");
    }
    // (The zero run took another branch before, so its cache and branch
    // counts in "tail" may differ; its instructions do not.)
    assert_eq!(instructions(&zero_p[3]), instructions(&small_p[3]));
    assert!(instructions(&zero_p[2]) <= 12, "{zero_p:?}");
    assert_eq!(
        zero_totals["instructions"],
        instructions(&zero_p[2]) + instructions(&zero_p[3])
    );
    // The function view agrees: only what ran after the zero is left.
    let total_self: u64 = report_json(&zeroed, &[])["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["self"]["instructions"].as_u64().unwrap())
        .sum();
    assert_eq!(total_self, zero_totals["instructions"]);
}

#[test]
fn report_and_diff_by_phase() {
    let dir = scratch("phases-cli");
    let small = record(&dir, "small", &["1000", "10"]);
    let large = record(&dir, "large", &["9000", "10"]);
    let rep = report_json(&small, &["--phase", "work", "--metric", "instructions"]);
    let (list, _) = phases(&small);
    assert_eq!(rep["phases"].as_array().unwrap().len(), 1);
    assert_eq!(rep["phases"][0]["phase"], "work");
    assert_eq!(
        rep["phases"][0]["totals"]["instructions"].as_u64(),
        Some(instructions(&list[1]))
    );
    let text = Command::new(pathvm())
        .arg("report")
        .arg(&small)
        .args(["--phase", "work"])
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("  work\n"), "{text}");
    assert!(text.contains("Functions of phase work: "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("2,001 ") && l.contains(" spin ")),
        "{text}"
    );

    let bad = Command::new(pathvm())
        .arg("report")
        .arg(&small)
        .args(["--phase", "parse"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "pathvm: unknown phase `parse`; available: main, work, stopped, tail\n"
    );

    let diff = |phase: &str| {
        Command::new(pathvm())
            .arg("diff")
            .arg(&small)
            .arg(&large)
            .args(["--phase", phase, "--fail-on", "instructions:1"])
            .output()
            .unwrap()
    };
    let work = diff("work");
    assert_eq!(
        work.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&work.stdout)
    );
    let work_text = String::from_utf8_lossy(&work.stdout);
    assert!(work_text.contains("+16,000"), "{work_text}");
    // The rows are the phase's functions: spin did the extra work.
    assert!(
        work_text
            .lines()
            .any(|l| l.contains("spin") && l.contains("+16,000")),
        "{work_text}"
    );
    let tail = diff("tail");
    assert_eq!(
        tail.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&tail.stdout)
    );
}
