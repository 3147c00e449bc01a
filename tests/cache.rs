//! Simulated caches against cachegrind with the same geometry, on kernels
//! whose misses come from user code; and zero perturbation.

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::*;

/// Per-function D1 misses (read + write) from cachegrind via cg_annotate.
fn cachegrind_d1_misses(
    program: &std::path::Path,
    arg: &str,
    dir: &std::path::Path,
) -> BTreeMap<String, u64> {
    let out = cachegrind(program, arg, dir);
    let ann = Command::new("cg_annotate")
        .arg("--auto=no")
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ann.stdout);
    // "Events shown:" names the columns; each row is the values (each maybe
    // followed by "(12.34%)") and then `file:function`.
    let events: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("Events shown:"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let col = |name: &str| events.iter().position(|e| *e == name);
    let (d1mr, d1mw) = (
        col("D1mr").expect("D1mr column"),
        col("D1mw").expect("D1mw column"),
    );
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line
            .split_whitespace()
            .filter(|t| !t.starts_with('(') && !t.ends_with("%)"))
            .collect();
        if fields.len() != events.len() + 1 {
            continue;
        }
        let num = |i: usize| fields[i].replace(',', "").parse::<u64>().ok();
        if let (Some(r), Some(w)) = (num(d1mr), num(d1mw)) {
            let name = fields[events.len()];
            let func = name.rsplit_once(':').map(|x| x.1).unwrap_or(name);
            *m.entry(func.to_string()).or_insert(0) += r + w;
        }
    }
    m
}

fn pathvm_l1d_misses(profile: &std::path::Path) -> BTreeMap<String, u64> {
    report_json(profile, &["--metric", "l1d-miss"])["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["function"].as_str().unwrap().to_string(),
                r["self"]["l1d-miss"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn l1d_misses_match_cachegrind_on_user_kernels() {
    if !have("valgrind") || !have("cg_annotate") {
        eprintln!("skipped: valgrind/cg_annotate not installed");
        return;
    }
    let dir = scratch("cachegrind");
    let prog = guest("cachetest-O2");
    let mut ours_by_mode = BTreeMap::new();
    for (mode, kernel) in [
        ("naive", "mm_naive"),
        ("interchange", "mm_interchanged"),
        ("list", "list_walk"),
        ("stride", "stride_sweep"),
    ] {
        let profile = dir.join(format!("{mode}.out"));
        run_ok(&profile, &prog, &[mode]);
        let ours = pathvm_l1d_misses(&profile)[kernel];
        let theirs = cachegrind_d1_misses(&prog, mode, &dir)[kernel];
        let rel = (ours as f64 - theirs as f64).abs() / theirs.max(1) as f64;
        eprintln!(
            "{kernel}: pathvm {ours} L1D misses, cachegrind {theirs} ({:.3}%)",
            rel * 100.0
        );
        assert!(rel <= 0.02, "{kernel}: pathvm {ours}, cachegrind {theirs}");
        ours_by_mode.insert(mode, ours);
    }
    assert!(
        ours_by_mode["naive"] > ours_by_mode["interchange"],
        "{ours_by_mode:?}"
    );
}

#[test]
fn counts_do_not_depend_on_other_analyses() {
    // The same program with the simulations on, and with each one off: the
    // metrics both runs measure are identical, and so are instructions with
    // every combination and report option.
    let dir = scratch("perturbation");
    for prog in ["work-O2", "cachetest-O2", "fig1-O0", "except-O2"] {
        let mut totals = Vec::new();
        for (i, flags) in [
            &[][..],
            &["--no-cache-sim"][..],
            &["--no-branch-sim"][..],
            &["--no-cache-sim", "--no-branch-sim"][..],
            &["--recursion", "collapse", "--show-plt"][..],
        ]
        .iter()
        .enumerate()
        {
            let profile = dir.join(format!("{prog}-{i}.out"));
            let out = run_with(&profile, flags, &guest(prog), &[]);
            assert!(out.status.success());
            totals.push(
                report_json(&profile, &[])["totals"]
                    .as_object()
                    .unwrap()
                    .clone(),
            );
        }
        for t in &totals[1..] {
            // `cycles` is an estimate from whatever is simulated: it changes
            // by design when a simulation is switched off.
            for (metric, v) in t.iter().filter(|(m, _)| *m != "cycles") {
                assert_eq!(
                    Some(v),
                    totals[0].get(metric),
                    "{prog}: {metric} changed with other analyses"
                );
            }
        }
    }
}

/// x87 80-bit loads and stores (guest-programs/x87mem.c: fldt and fstpt
/// over long double arrays larger than the L1D) are one access of 10 bytes
/// each, as cachegrind counts them: ld_sum's and ld_axpy's self loads,
/// stores and L1 data misses equal cachegrind's `Dr`, `Dw` and
/// `D1mr + D1mw`. A read-modify-write instruction (bump's `addq $3, mem`,
/// 100,000 of them) is one load and one store here, as it reads and writes
/// its operand; cachegrind counts it as a read alone (`Dw` 0) and the
/// misses are the same (the write finds the line the read brought).
#[test]
fn x87_and_read_modify_write_accesses_match_cachegrind() {
    if !have("valgrind") {
        eprintln!("skipped: valgrind not installed");
        return;
    }
    let dir = scratch("cachegrind-x87");
    let prog = guest("x87mem-O2");
    let profile = dir.join("p.out");
    let out = run_ok(&profile, &prog, &[]);
    let native = run_native(&prog, &[]);
    assert_eq!(out.stdout, native.stdout);
    let cg_out = cachegrind(&prog, "x87", &dir);
    let theirs = cachegrind_self(&cg_out, &["Dr", "Dw", "D1mr", "D1mw"]);
    let report = report_json(&profile, &["--metric", "loads,stores,l1d-miss"]);
    let rows = report["rows"].as_array().unwrap();
    let ours = |f: &str| {
        let row = rows
            .iter()
            .find(|r| r["function"] == f)
            .unwrap_or_else(|| panic!("{f} did not run"));
        ["loads", "stores", "l1d-miss"].map(|m| row["self"][m].as_u64().unwrap())
    };
    for f in ["ld_sum", "ld_axpy"] {
        let (o, t) = (ours(f), &theirs[f]);
        eprintln!(
            "{f}: pathvm {o:?}; cachegrind Dr {} Dw {} D1mr+D1mw {}",
            t[0],
            t[1],
            t[2] + t[3]
        );
        assert_eq!(o, [t[0], t[1], t[2] + t[3]], "{f}");
        assert!(o[2] >= 1000, "{f}: the arrays should miss: {o:?}");
    }
    let (o, t) = (ours("bump"), &theirs["bump"]);
    eprintln!(
        "bump: pathvm {o:?}; cachegrind Dr {} Dw {} D1mr+D1mw {}",
        t[0],
        t[1],
        t[2] + t[3]
    );
    assert_eq!((o[0], o[1], t[1]), (t[0], 100_000, 0));
    assert_eq!(o[2], t[2] + t[3]);
}

/// Legacy-SSE 16-byte loads and stores (guest-programs/ssemem.c: movupd
/// over misaligned rows, some straddling two lines, movdqu, movdqa and
/// movntdq) are one access of 16 bytes each, as cachegrind counts them:
/// every kernel's self loads, stores and L1 data misses (same geometry)
/// equal cachegrind's `Dr`, `Dw` and `D1mr + D1mw`; the output is native.
#[test]
fn sse_accesses_match_cachegrind() {
    if !have("valgrind") {
        eprintln!("skipped: valgrind not installed");
        return;
    }
    let dir = scratch("cachegrind-sse");
    let prog = guest("ssemem-O2");
    let profile = dir.join("p.out");
    let out = run_ok(&profile, &prog, &[]);
    let native = run_native(&prog, &[]);
    assert_eq!(out.stdout, native.stdout);
    // ssemem takes no argument: the helper's one is ignored.
    let cg_out = cachegrind(&prog, "sse", &dir);
    let theirs = cachegrind_self(&cg_out, &["Dr", "Dw", "D1mr", "D1mw"]);
    let report = report_json(&profile, &["--metric", "loads,stores,l1d-miss"]);
    let rows = report["rows"].as_array().unwrap();
    for f in ["mm_sse2", "copy_unaligned", "sum_aligned", "stream_fill"] {
        let row = rows
            .iter()
            .find(|r| r["function"] == f)
            .unwrap_or_else(|| panic!("{f} did not run"));
        let ours = ["loads", "stores", "l1d-miss"].map(|m| row["self"][m].as_u64().unwrap());
        let t = &theirs[f];
        eprintln!(
            "{f}: pathvm loads {} stores {} L1D misses {}; cachegrind Dr {} Dw {} D1mr+D1mw {}",
            ours[0],
            ours[1],
            ours[2],
            t[0],
            t[1],
            t[2] + t[3]
        );
        assert_eq!(ours, [t[0], t[1], t[2] + t[3]], "{f}");
    }
}
