//! Ball-Larus path profiles of real runs: the invariants that tie paths to
//! the function view, hot-path classification, and the reports.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use reports::{PathFunction, Profile};

use crate::common::*;

fn profile_of(program: &Path, args: &[&str], dir: &Path, extra: &[&str]) -> Profile {
    let out = dir.join("p.out");
    let o = Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(&out)
        .args(extra)
        .arg(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success() || o.status.code() == Some(3),
        "pathvm run {}: {}",
        program.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    reports::read_profile(&out).unwrap()
}

/// Per function row: (sum of its paths' instructions metric, sum of
/// count x length over whole paths, sum of own instructions).
fn path_sums(p: &Profile) -> BTreeMap<u32, (u64, u64, u64)> {
    let col = p.metric_index("instructions").unwrap();
    let mut m: BTreeMap<u32, (u64, u64, u64)> = BTreeMap::new();
    for f in &p.paths.functions {
        let e = m.entry(f.function).or_default();
        for r in &f.rows {
            e.0 += r.cost[col];
            let info = &f.paths[r.path as usize];
            e.1 += r.count * info.length;
            e.2 += r.insns;
        }
    }
    m
}

/// Functions of the guest program's own sources (not of ld.so or libc,
/// whose hand-written code jumps into other functions' bodies), by row.
fn user_functions(p: &Profile) -> Vec<usize> {
    (0..p.functions.len())
        .filter(|&i| {
            p.functions[i]
                .file
                .as_deref()
                .is_some_and(|f| f.contains("guest-programs"))
        })
        .collect()
}

/// Every instruction of a user function is on one of its paths; a path's
/// traversals times its length are its instructions; every frame ends on a
/// path to EXIT or truncated.
fn check_invariants(program: &Path, args: &[&str], dir: &Path) {
    let p = profile_of(program, args, dir, &[]);
    assert!(p.paths.recorded);
    let col = p.metric_index("instructions").unwrap();
    let sums = path_sums(&p);
    let users = user_functions(&p);
    assert!(
        !users.is_empty(),
        "{}: no user functions",
        program.display()
    );
    // Every instruction of the run is on a path, lost by a frame that could
    // not follow its code, or outside any path frame (the lazy resolver).
    let on_paths: u64 = sums.values().map(|s| s.0).sum();
    let lost: u64 = p.paths.functions.iter().map(|f| f.lost_instructions).sum();
    assert_eq!(
        on_paths + lost + p.paths.unattributed_instructions,
        p.totals[col],
        "{}: {on_paths} on paths + {lost} lost + {} unattributed",
        program.display(),
        p.paths.unattributed_instructions
    );
    for &i in &users {
        let f = &p.functions[i];
        if f.name.contains(".cold") {
            continue; // counted with its function
        }
        let (metric, by_length, own) = sums.get(&(i as u32)).copied().unwrap_or_default();
        // A part the compiler split off (`main.cold`) runs in its
        // function's frames, so on its paths.
        let cold: u64 = p
            .functions
            .iter()
            .filter(|c| {
                c.object == f.object
                    && (c.name.starts_with(&format!("{}.cold", f.name))
                        || c.name.starts_with(&format!("{} [clone .cold", f.name)))
            })
            .map(|c| c.self_cost[col])
            .sum();
        assert_eq!(
            metric,
            f.self_cost[col] + cold,
            "{}: paths of {} carry {metric} instructions, the function {}",
            program.display(),
            f.name,
            f.self_cost[col]
        );
        // Own instructions exclude PLT stubs run on the way to a callee.
        assert!(own <= metric, "{}: {own} > {metric}", f.name);
        assert_eq!(
            by_length, own,
            "{}: count x length != own instructions",
            f.name
        );
    }
    // Frames: every frame of a function ends once, at EXIT or truncated
    // (a path ending at a back edge does not end the frame; a resumed path
    // ends the frame's earlier one truncated).
    for pf in &p.paths.functions {
        if !users.contains(&(pf.function as usize)) {
            continue;
        }
        let exits: u64 = rows_where(pf, |i| i.exit);
        let truncated: u64 = rows_where(pf, |i| i.truncated);
        assert_eq!(
            exits + truncated,
            pf.frames + pf.resumes,
            "{}: {exits} exits + {truncated} truncated vs {} frames + {} resumes",
            p.functions[pf.function as usize].name,
            pf.frames,
            pf.resumes
        );
        let calls = p.functions[pf.function as usize].calls;
        if p.functions[pf.function as usize].name != "_start" {
            assert_eq!(
                pf.frames, calls,
                "{}",
                p.functions[pf.function as usize].name
            );
        }
    }
}

fn rows_where(pf: &PathFunction, pred: impl Fn(&reports::PathInfo) -> bool) -> u64 {
    pf.rows
        .iter()
        .filter(|r| pred(&pf.paths[r.path as usize]))
        .map(|r| r.count)
        .sum()
}

#[test]
fn path_invariants_hold_on_every_guest_program() {
    let dir = scratch("path_invariants");
    for name in [
        "work",
        "fig1",
        "tailcall",
        "longjmp",
        "except",
        "sweep",
        "diffwork",
        "cachetest",
        "sigfault",
        "sigdeep",
        "sigalarm",
        "threads",
    ] {
        for variant in ["O0", "O2", "static"] {
            let program = guest(&format!("{name}-{variant}"));
            let args: &[&str] = match name {
                "cachetest" => &["blocked"],
                _ => &[],
            };
            check_invariants(&program, args, &dir);
        }
    }
}

#[test]
fn the_sweeping_side_of_the_branch_is_the_dense_hot_path() {
    let dir = scratch("path_sweep");
    let program = guest("sweep-O2");
    let p = profile_of(&program, &[], &dir, &[]);
    let out = dir.join("p.out");
    let j = report_json(&out, &["--by", "path", "--metric", "l1d-miss"]);
    let top = &j["rows"][0];
    assert_eq!(top["function"], "walk", "{j:#}");
    assert_eq!(top["class"], "dense", "{j:#}");
    // The loop has two back edges into its header (one per side of the
    // branch), so each side is two paths: after a sweep or after a calm
    // iteration. The sweeping ones run on about half of the 200000
    // iterations, one miss each, and are the only dense paths.
    let dense: Vec<&serde_json::Value> = j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["class"] == "dense")
        .collect();
    assert_eq!(dense.len(), 2, "{j:#}");
    assert_eq!(dense[0]["blocks"], dense[1]["blocks"]);
    let count: u64 = dense.iter().map(|r| r["count"].as_u64().unwrap()).sum();
    let misses: u64 = dense
        .iter()
        .map(|r| r["cost"]["l1d-miss"].as_u64().unwrap())
        .sum();
    assert!(count > 90_000 && count < 110_000, "{count}");
    assert!(misses >= count, "{misses} misses for {count} sweeps");
    let share: f64 = dense.iter().map(|r| r["share"].as_f64().unwrap()).sum();
    assert!(share > 80.0, "{share}");
    // Its lines include the sweeping statement, not the calm one.
    let src = std::fs::read_to_string(repo().join("guest-programs/sweep.c")).unwrap();
    let line_of = |tag: &str| src.lines().position(|l| l.contains(tag)).unwrap() + 1;
    let lines: Vec<String> = top["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let covers = |line: usize| {
        lines.iter().any(|l| {
            let Some(r) = l.strip_prefix("sweep.c:") else {
                return false;
            };
            let (lo, hi) = r.split_once('-').unwrap_or((r, r));
            let (lo, hi): (usize, usize) = (lo.parse().unwrap(), hi.parse().unwrap());
            (lo..=hi).contains(&line)
        })
    };
    assert!(covers(line_of("/* SWEEP */")), "{lines:?}");
    assert!(!covers(line_of("/* CALM */")), "{lines:?}");
    // The calm side is a path of walk too, with (almost) no misses: sparse or cold.
    let walk_paths: Vec<&serde_json::Value> = j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["function"] == "walk")
        .collect();
    assert!(!walk_paths.is_empty());
    // Misses on walk's paths add up to walk's own misses.
    let col = p.metric_index("l1d-miss").unwrap();
    let walk = p.functions.iter().position(|f| f.name == "walk").unwrap();
    let on_paths: u64 = p
        .paths
        .functions
        .iter()
        .filter(|f| f.function as usize == walk)
        .flat_map(|f| &f.rows)
        .map(|r| r.cost[col])
        .sum();
    assert_eq!(on_paths, p.functions[walk].self_cost[col]);
}

#[test]
fn paths_per_context_split_a_function_by_its_callers() {
    let dir = scratch("path_context");
    let program = guest("fig1-O2");
    profile_of(&program, &[], &dir, &[]);
    let out = dir.join("p.out");
    let j = report_json(&out, &["--by", "path", "--context", "--function", "c"]);
    let rows = j["rows"].as_array().unwrap();
    // c runs under a>f and b>f: its loop path appears in both contexts.
    let stacks: Vec<String> = rows
        .iter()
        .map(|r| {
            r["context"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(">")
        })
        .collect();
    assert!(
        stacks.iter().any(|s| s.ends_with("main>a>f>c")),
        "{stacks:?}"
    );
    assert!(
        stacks.iter().any(|s| s.ends_with("main>b>f>c")),
        "{stacks:?}"
    );
    // Calls of c from a: 2 with n=1 (2000000 iterations each); from b: 4
    // with n=2 (1000000 each). The loop's back-edge path counts them.
    let count_in = |ctx: &str| -> u64 {
        rows.iter()
            .zip(&stacks)
            .filter(|(_, s)| s.ends_with(ctx))
            .map(|(r, _)| r["count"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(count_in("main>a>f>c"), count_in("main>b>f>c"));
}

#[test]
fn no_paths_and_no_cct_change_no_count() {
    let dir = scratch("path_switches");
    let program = guest("work-O2");
    let full = profile_of(&program, &[], &dir, &[]);
    let bare = profile_of(&program, &[], &dir, &["--no-paths", "--no-cct"]);
    assert_eq!(full.totals, bare.totals);
    assert_eq!(full.functions, bare.functions);
    assert!(!bare.paths.recorded);
    assert!(bare.contexts.is_empty());
    let out = dir.join("p.out");
    let o = Command::new(pathvm())
        .args(["report", "--by", "path"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--no-paths") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn hot_summary_classes_cover_every_path() {
    let dir = scratch("path_summary");
    let program = guest("sweep-O2");
    profile_of(&program, &[], &dir, &[]);
    let out = dir.join("p.out");
    let j = report_json(&out, &["--hot-summary", "--metric", "l1d-miss"]);
    let classes = j["classes"].as_array().unwrap();
    let paths: u64 = classes.iter().map(|c| c["paths"].as_u64().unwrap()).sum();
    assert_eq!(paths, j["paths_executed"].as_u64().unwrap());
    let dense = &classes[0];
    assert_eq!(dense["class"], "dense");
    assert!(dense["metric_share"].as_f64().unwrap() > 50.0, "{j:#}");
    assert!(
        dense["instructions_share"].as_f64().unwrap() < 50.0,
        "{j:#}"
    );
    assert_eq!(j["hot_procedures"][0]["function"], "walk", "{j:#}");
}

/// Functions whose paths do not add up to their self instructions (code
/// of theirs run in another function's frame, or in the lazy resolver).
fn mismatches(p: &Profile) -> Vec<(String, u64, u64)> {
    let col = p.metric_index("instructions").unwrap();
    let sums = path_sums(p);
    let mut out = Vec::new();
    for (i, f) in p.functions.iter().enumerate() {
        if f.name.contains(".cold") {
            continue;
        }
        let on_paths = sums.get(&(i as u32)).map_or(0, |s| s.0);
        if on_paths != f.self_cost[col] {
            out.push((f.name.clone(), on_paths, f.self_cost[col]));
        }
    }
    out
}

#[test]
fn optimised_distribution_programs_lose_no_counts() {
    let dir = scratch("path_real");
    let input = dir.join("in.txt");
    let text: String = (0..20000)
        .map(|i| format!("line {i} of {}\n", i * 7919 % 1000))
        .collect();
    std::fs::write(&input, text).unwrap();
    let inp = input.to_str().unwrap();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("/usr/bin/gzip", vec!["-c", inp]),
        ("/usr/bin/sqlite3", vec![":memory:", "create table t(x); insert into t select value from generate_series(1,1000); select sum(x), count(*) from t;"]),
    ];
    for (prog, args) in cases {
        if !Path::new(prog).exists() {
            eprintln!("skipped: {prog} is not installed");
            continue;
        }
        let p = profile_of(Path::new(prog), &args, &dir, &[]);
        let col = p.metric_index("instructions").unwrap();
        let on_paths: u64 = path_sums(&p).values().map(|s| s.0).sum();
        let lost: u64 = p.paths.functions.iter().map(|f| f.lost_instructions).sum();
        assert_eq!(lost, 0, "{prog}: instructions lost by path tracking");
        assert_eq!(
            on_paths + p.paths.unattributed_instructions,
            p.totals[col],
            "{prog}"
        );
        let bad = mismatches(&p);
        eprintln!(
            "{prog}: {} of {} functions differ: {bad:?}",
            bad.len(),
            p.functions.len()
        );
    }
}

#[test]
fn annotate_and_callgrind_export_show_paths() {
    let dir = scratch("path_annotate");
    let program = guest("sweep-O2");
    let p = profile_of(&program, &[], &dir, &[]);
    let out = dir.join("p.out");
    let j = report_json(
        &out,
        &["--by", "path", "--metric", "l1d-miss", "--top", "1"],
    );
    let id = j["rows"][0]["path"].as_u64().unwrap().to_string();
    let a = report_json(&out, &["--path", &id, "--function", "walk", "--annotate"]);
    let path = &a[0];
    assert_eq!(path["function"], "walk");
    assert_eq!(path["count"], j["rows"][0]["count"]);
    let insns = path["instructions"].as_array().unwrap();
    assert_eq!(insns.len() as u64, j["rows"][0]["length"].as_u64().unwrap());
    // The sweeping load is on it, at the line marked SWEEP.
    let src = std::fs::read_to_string(repo().join("guest-programs/sweep.c")).unwrap();
    let sweep = src.lines().position(|l| l.contains("/* SWEEP */")).unwrap() + 1;
    assert!(
        insns
            .iter()
            .any(|i| i["text"].as_str().unwrap().starts_with("movzx")
                && i["line"] == format!("sweep.c:{sweep}")),
        "{a:#}"
    );
    // Callgrind export with paths: callgrind_annotate reads it, the totals
    // stay, and walk's paths appear as functions of their own.
    if !have("callgrind_annotate") {
        eprintln!("skipped the callgrind part: callgrind_annotate not found");
        return;
    }
    let cg = dir.join("callgrind.out");
    let o = Command::new(pathvm())
        .args(["export", "--format", "callgrind", "--paths", "-o"])
        .arg(&cg)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ann = Command::new("callgrind_annotate")
        .arg(&cg)
        .output()
        .unwrap();
    assert!(ann.status.success());
    let text = String::from_utf8_lossy(&ann.stdout);
    let total = p.totals[p.metric_index("instructions").unwrap()];
    let grouped = total
        .to_string()
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(",");
    assert!(text.contains(&grouped), "total {grouped} not in:\n{text}");
    assert!(text.contains(&format!("walk [path {id}]")), "{text}");
}

#[test]
fn blocks_and_lines_add_up_to_the_totals() {
    let dir = scratch("blocks_lines");
    let program = guest("sweep-O2");
    let p = profile_of(&program, &[], &dir, &[]);
    // Every metric: the blocks' costs add up to the run's totals.
    let m = p.metrics.len();
    let mut sum = vec![0u64; m];
    for b in &p.blocks.blocks {
        for (a, c) in sum.iter_mut().zip(&b.cost) {
            *a += c;
        }
        let col = p.metric_index("instructions").unwrap();
        assert_eq!(b.cost[col], b.executions * b.insns.len() as u64);
    }
    // alloc-bytes is charged to calling contexts, not kept per block.
    let alloc = p.metric_index("alloc-bytes");
    for (i, (s, t)) in sum.iter().zip(&p.totals).enumerate() {
        if Some(i) != alloc {
            assert_eq!(s, t, "{}", p.metrics[i]);
        }
    }
    let out = dir.join("p.out");
    // Per line: instructions exact. The sweep's load line runs once per
    // sweeping iteration; the loop header line (`for`) every iteration.
    let j = report_json(&out, &["--by", "line", "--metric", "instructions"]);
    let src = std::fs::read_to_string(repo().join("guest-programs/sweep.c")).unwrap();
    let line_of = |tag: &str| src.lines().position(|l| l.contains(tag)).unwrap() as u64 + 1;
    let rows = j["rows"].as_array().unwrap();
    let total: u64 = rows
        .iter()
        .map(|r| r["cost"]["instructions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, p.totals[p.metric_index("instructions").unwrap()]);
    let sweep = rows
        .iter()
        .find(|r| {
            r["file"].as_str().unwrap().ends_with("sweep.c") && r["line"] == line_of("/* SWEEP */")
        })
        .expect("the sweep line");
    assert!(sweep["cost"]["instructions"].as_u64().unwrap() > 0);
    // Per block: walk's sweeping block carries the misses.
    let b = report_json(
        &out,
        &["--by", "block", "--metric", "l1d-miss", "--top", "1"],
    );
    assert_eq!(b["rows"][0]["function"], "walk", "{b:#}");
    assert!(
        b["rows"][0]["cost"]["l1d-miss"].as_u64().unwrap() > 90_000,
        "{b:#}"
    );
}

#[test]
fn a_reader_that_goes_away_is_not_a_crash() {
    use std::io::Read;
    let dir = scratch("broken_pipe");
    let program = guest("sweep-O2");
    profile_of(&program, &[], &dir, &[]);
    let out = dir.join("p.out");
    // Far more than a pipe holds: the writer meets the closed pipe.
    let mut child = Command::new(pathvm())
        .args(["report", "--by", "block"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here.
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}
