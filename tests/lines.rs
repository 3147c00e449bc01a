//! Costs per instruction and per line: every metric on the instruction that
//! caused it, checked against cachegrind line by line, and adding up to the
//! blocks' costs.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::*;

/// Per line of the file whose name ends with `file`: (instructions, L1D
/// misses), from `pathvm report --by line`.
fn pathvm_lines(profile: &Path, file: &str) -> BTreeMap<u64, (u64, u64)> {
    let report = report_json(profile, &["--by", "line", "--top", "0"]);
    let mut out = BTreeMap::new();
    for r in report["rows"].as_array().unwrap() {
        let (Some(f), Some(line)) = (r["file"].as_str(), r["line"].as_u64()) else {
            continue;
        };
        if f.ends_with(file) {
            let c = &r["cost"];
            let misses =
                c["l1d-read-miss"].as_u64().unwrap() + c["l1d-write-miss"].as_u64().unwrap();
            out.insert(line, (c["instructions"].as_u64().unwrap(), misses));
        }
    }
    out
}

/// The same from cachegrind with pathvm's default geometry: `Ir` and
/// `D1mr + D1mw` per line of `file`, read from its output file.
fn cachegrind_lines(
    program: &Path,
    arg: &str,
    dir: &Path,
    file: &str,
) -> BTreeMap<u64, (u64, u64)> {
    let out = cachegrind(program, arg, dir);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut events = Vec::new();
    let mut in_file = false;
    let mut lines = BTreeMap::new();
    for l in text.lines() {
        if let Some(e) = l.strip_prefix("events:") {
            events = e.split_whitespace().map(str::to_string).collect();
        } else if let Some(f) = l.strip_prefix("fl=") {
            in_file = f.ends_with(file);
        } else if in_file && l.starts_with(|c: char| c.is_ascii_digit()) {
            let v: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            let col = |name: &str| {
                let i = events.iter().position(|e| e == name).unwrap();
                v.get(i + 1).copied().unwrap_or(0)
            };
            let e = lines.entry(v[0]).or_insert((0, 0));
            e.0 += col("Ir");
            e.1 += col("D1mr") + col("D1mw");
        }
    }
    lines
}

/// The cache kernels of `cachetest`, per line of its source: instructions
/// equal cachegrind's `Ir` on every line (no `rep` string instruction in
/// it, which cachegrind counts per iteration), and L1D misses equal
/// cachegrind's on every line with at least 100 of them (the kernels';
/// the few cold misses of the other lines depend on where each tool puts
/// the stack and the heap).
#[test]
fn line_costs_match_cachegrind() {
    if !have("valgrind") {
        eprintln!("skipped: valgrind not installed");
        return;
    }
    let dir = scratch("lines-cachegrind");
    let prog = guest("cachetest-O2");
    for mode in ["naive", "interchange", "list", "stride"] {
        let profile = dir.join(format!("{mode}.out"));
        run_ok(&profile, &prog, &[mode]);
        let ours = pathvm_lines(&profile, "cachetest.c");
        let theirs = cachegrind_lines(&prog, mode, &dir, "cachetest.c");
        let lines: std::collections::BTreeSet<u64> =
            ours.keys().chain(theirs.keys()).copied().collect();
        let mut compared = 0;
        for line in lines {
            let o = ours.get(&line).copied().unwrap_or_default();
            let t = theirs.get(&line).copied().unwrap_or_default();
            assert_eq!(o.0, t.0, "{mode}: instructions of line {line}");
            if t.1 >= 100 || o.1 >= 100 {
                assert_eq!(o.1, t.1, "{mode}: L1D misses of line {line}");
                compared += 1;
            }
        }
        assert!(compared >= 1, "{mode}: no line with misses");
    }
}

/// Every metric summed over the instructions (the `--by line` rows) is the
/// run's total, on one and two threads alike, and no cost is left without
/// an instruction.
#[test]
fn instruction_costs_add_up_to_the_totals() {
    let dir = scratch("lines-totals");
    for (prog, args) in [
        ("cachetest-O2", &["list"][..]),
        ("alloc-O2", &[][..]),
        ("except-O2", &[][..]),
        ("fpx87-O0", &[][..]),
        ("threads-O2", &[][..]),
    ] {
        for flags in [&[][..], &["--single-thread"][..]] {
            let profile = dir.join(format!("{prog}.out"));
            let out = run_with(&profile, flags, &guest(prog), args);
            assert!(
                out.status.success(),
                "{prog}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let report = report_json(&profile, &["--by", "line", "--top", "0"]);
            let totals = report["totals"].as_object().unwrap();
            let mut sums: BTreeMap<String, u64> = BTreeMap::new();
            for r in report["rows"].as_array().unwrap() {
                assert_ne!(
                    r["file"].as_str(),
                    Some("(unknown instruction)"),
                    "{prog} {flags:?}: costs without an instruction: {r}"
                );
                for (m, v) in r["cost"].as_object().unwrap() {
                    *sums.entry(m.clone()).or_default() += v.as_u64().unwrap();
                }
            }
            for (m, v) in totals {
                assert_eq!(
                    Some(v.as_u64().unwrap()),
                    sums.get(m).copied(),
                    "{prog} {flags:?}: {m}"
                );
            }
            // The instruction view lists the same costs.
            let insns = report_json(&profile, &["--by", "instruction", "--top", "0"]);
            let n: u64 = insns["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["cost"]["instructions"].as_u64().unwrap())
                .sum();
            assert_eq!(Some(n), totals["instructions"].as_u64(), "{prog}");
        }
    }
}
