//! What a run counts: `alloc-bytes` (allocations charged to the calling
//! context of the call), `--toggle-collect` and `--focus`.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::*;

/// `pathvm run -q -o PROFILE EXTRA... PROGRAM`; asserts the guest's output
/// is the native one.
fn run_with(profile: &Path, program: &str, extra: &[&str]) {
    let out = Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(profile)
        .args(extra)
        .arg(guest(program))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let native = run_native(&guest(program), &[]);
    assert_eq!(
        out.status.code(),
        native.status.code(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.stdout, native.stdout,
        "{program}: output differs from the native run"
    );
}

fn rows(report: &Value) -> &Vec<Value> {
    report["rows"].as_array().unwrap()
}

fn stack(r: &Value) -> Vec<&str> {
    r["stack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// The context rows whose stack ends with `suffix`.
fn ending<'a>(report: &'a Value, suffix: &[&str]) -> Vec<&'a Value> {
    rows(report)
        .iter()
        .filter(|r| stack(r).ends_with(suffix))
        .collect()
}

fn function<'a>(report: &'a Value, name: &str) -> &'a Value {
    rows(report)
        .iter()
        .find(|r| r["function"] == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

#[test]
fn alloc_bytes_go_to_the_calling_context() {
    for (program, no_sim) in [
        ("alloc-O2", false),
        ("alloc-static", false),
        ("alloc-O0", true),
    ] {
        let dir = scratch(&format!("alloc-{program}"));
        let profile = dir.join("p.out");
        let extra: &[&str] = if no_sim {
            &["--no-cache-sim", "--no-branch-sim"]
        } else {
            &[]
        };
        run_with(&profile, program, extra);
        let funcs = report_json(&profile, &[]);
        let ctx = report_json(&profile, &["--by", "context"]);
        let total = funcs["totals"]["alloc-bytes"].as_u64().unwrap();
        // a(): malloc(100) three times; b(): calloc(10, 20) and realloc to
        // 500 (realloc's own call of malloc does not count again).
        assert_eq!(
            function(&funcs, "a")["self"]["alloc-bytes"],
            300,
            "{program}"
        );
        assert_eq!(
            function(&funcs, "b")["self"]["alloc-bytes"],
            700,
            "{program}"
        );
        let a = ending(&ctx, &["main", "a"]);
        let b = ending(&ctx, &["main", "b"]);
        assert_eq!((a.len(), b.len()), (1, 1), "{program}");
        assert_eq!(a[0]["self"]["alloc-bytes"], 300, "{program}");
        assert_eq!(b[0]["self"]["alloc-bytes"], 700, "{program}");
        assert_eq!(b[0]["inclusive"]["alloc-bytes"], 700, "{program}");
        // Nothing is charged to the allocators themselves.
        for r in rows(&funcs) {
            let name = r["function"].as_str().unwrap();
            if ["malloc", "calloc", "realloc", "__libc_calloc", "__calloc"].contains(&name) {
                assert_eq!(r["self"]["alloc-bytes"], 0, "{program}: {name}");
            }
        }
        // The total is the sum over functions and over contexts.
        let by_func: u64 = rows(&funcs)
            .iter()
            .map(|r| r["self"]["alloc-bytes"].as_u64().unwrap())
            .sum();
        let by_ctx: u64 = rows(&ctx)
            .iter()
            .map(|r| r["self"]["alloc-bytes"].as_u64().unwrap())
            .sum();
        assert_eq!((by_func, by_ctx), (total, total), "{program}");
        // stdout's buffer (puts to a pipe) is one of the allocations.
        assert!(total >= 1000 + 4096, "{program}: {total}");
        // Paths carry the same bytes per function.
        let p = reports::read_profile(&profile).unwrap();
        let col = p.metric_index("alloc-bytes").unwrap();
        for name in ["a", "b"] {
            let row = p.functions.iter().position(|f| f.name == name).unwrap() as u32;
            let on_paths: u64 = p
                .paths
                .functions
                .iter()
                .filter(|f| f.function == row)
                .flat_map(|f| f.rows.iter().map(|r| r.cost[col]))
                .sum();
            assert_eq!(
                on_paths, p.functions[row as usize].self_cost[col],
                "{program}: {name}"
            );
        }
    }
}

#[test]
fn alloc_bytes_of_operator_new() {
    let dir = scratch("alloc-cxx");
    let profile = dir.join("p.out");
    run_with(&profile, "allocxx-O2", &[]);
    let funcs = report_json(&profile, &[]);
    // new char[64] and operator new(48, nothrow); their malloc calls inside
    // libstdc++ do not count again.
    assert_eq!(function(&funcs, "g()")["self"]["alloc-bytes"], 112);
    let ctx = report_json(&profile, &["--by", "context"]);
    let g = ending(&ctx, &["main", "g()"]);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0]["inclusive"]["alloc-bytes"], 112);
}

#[test]
fn toggle_collect_counts_only_inside_the_function() {
    let dir = scratch("toggle-collect");
    let full = dir.join("full.out");
    let part = dir.join("part.out");
    run_with(&full, "fig1-O2", &[]);
    run_with(&part, "fig1-O2", &["--toggle-collect", "c"]);
    let full_r = report_json(&full, &[]);
    let part_r = report_json(&part, &[]);
    // Every metric: the totals are c's inclusive costs (c and the d it
    // calls) of the full run.
    let c_incl = &function(&full_r, "c")["inclusive"];
    for (k, v) in part_r["totals"].as_object().unwrap() {
        assert_eq!(v, &c_incl[k], "{k}");
    }
    assert_eq!(part_r["totals"]["instructions"], 64_000_072);
    // Self costs inside are whole, outside zero; calls are still recorded.
    assert_eq!(
        function(&part_r, "c")["self"],
        function(&full_r, "c")["self"]
    );
    assert_eq!(
        function(&part_r, "d")["self"],
        function(&full_r, "d")["self"]
    );
    assert_eq!(function(&part_r, "main")["self"]["instructions"], 0);
    assert_eq!(function(&part_r, "f")["calls"], 6);
    // The tree agrees: its self costs add up to the totals.
    let ctx = report_json(&part, &["--by", "context"]);
    let sum: u64 = rows(&ctx)
        .iter()
        .map(|r| r["self"]["instructions"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 64_000_072);
    let p = reports::read_profile(&part).unwrap();
    assert!(p
        .meta
        .config
        .contains(&("toggle-collect".to_string(), "c".to_string())));
}

#[test]
fn focus_keeps_the_call_paths_that_reach_the_function() {
    let dir = scratch("focus");
    let full = dir.join("full.out");
    let part = dir.join("part.out");
    run_with(&full, "fig1-O2", &[]);
    run_with(&part, "fig1-O2", &["--focus", "c"]);
    let full_ctx = report_json(&full, &["--by", "context"]);
    let ctx = report_json(&part, &["--by", "context"]);
    // The chain from the root down to main, then a>f>c>d and b>f>c>d:
    // nothing else (no printf, no dynamic linking).
    let mut below_main = Vec::new();
    let mut above_main = 0;
    for r in rows(&ctx) {
        let st = stack(r);
        match st.iter().position(|&f| f == "main") {
            Some(i) => below_main.push(st[i..].join(">")),
            None => above_main += 1,
        }
    }
    below_main.sort();
    assert_eq!(
        below_main,
        [
            "main",
            "main>a",
            "main>a>f",
            "main>a>f>c",
            "main>a>f>c>d",
            "main>b",
            "main>b>f",
            "main>b>f>c",
            "main>b>f>c>d"
        ]
    );
    let main_depth = stack(ending(&ctx, &["main"])[0]).len();
    assert_eq!(above_main, main_depth - 1, "only main's ancestors above it");
    // c's contexts keep their calls and inclusive costs of the full run.
    for caller in ["a", "b"] {
        let got = ending(&ctx, &[caller, "f", "c"]);
        let want = ending(&full_ctx, &[caller, "f", "c"]);
        assert_eq!((got.len(), want.len()), (1, 1));
        assert_eq!(got[0]["calls"], want[0]["calls"]);
        assert_eq!(got[0]["inclusive"], want[0]["inclusive"]);
    }
    // `report --focus` on the whole profile shows the contexts `run
    // --focus` kept (one rule), each matching one with the same costs.
    let stacks = |v: &Value| {
        let mut s: Vec<String> = rows(v).iter().map(|r| stack(r).join(">")).collect();
        s.sort();
        s
    };
    let viewed = report_json(&full, &["--by", "context", "--focus", "c"]);
    assert_eq!(stacks(&viewed), stacks(&ctx));
    for caller in ["a", "b"] {
        for suffix in [&[caller, "f", "c"][..], &[caller, "f", "c", "d"]] {
            let got = ending(&viewed, suffix);
            let want = ending(&ctx, suffix);
            assert_eq!((got.len(), want.len()), (1, 1));
            assert_eq!(got[0]["calls"], want[0]["calls"]);
            assert_eq!(got[0]["inclusive"], want[0]["inclusive"]);
        }
    }
    // Function rows stay whole-run.
    assert_eq!(
        report_json(&part, &[])["rows"],
        report_json(&full, &[])["rows"]
    );
    let p = reports::read_profile(&part).unwrap();
    assert!(p
        .meta
        .config
        .contains(&("focus".to_string(), "c".to_string())));
}
