//! The calling context tree on real programs: context-dependent costs,
//! non-local exits, tail calls, and the root invariant.

use crate::common::*;

/// Context rows: (stack, calls, self instructions, inclusive instructions, flags-free).
fn contexts(program: &str, args: &[&str]) -> (Vec<ContextRow>, u64) {
    let dir = scratch(&format!("ctx-{program}"));
    let profile = dir.join("p.out");
    let out = run_pathvm(&profile, &guest(program), args);
    assert!(
        out.status.code().is_some(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let total = report_json(&profile, &[])["totals"]["instructions"]
        .as_u64()
        .unwrap();
    (context_rows(&profile), total)
}

#[test]
fn csprof_figure_1_costs_depend_on_the_caller() {
    let (rows, _) = contexts("fig1-O2", &[]);
    let ca = ending(&rows, &["main", "a", "f", "c"]);
    let cb = ending(&rows, &["main", "b", "f", "c"]);
    assert_eq!((ca.len(), cb.len()), (1, 1));
    let (ca, cb) = (ca[0], cb[0]);
    assert_eq!((ca.1, cb.1), (2, 4), "calls of c under a and under b");
    // Equal inclusive costs up to the per-call entry/exit instructions.
    let rel = (ca.3 as f64 - cb.3 as f64).abs() / ca.3 as f64;
    assert!(
        rel < 1e-5,
        "inclusive of c: {} under a, {} under b",
        ca.3,
        cb.3
    );
    // Cost per call from b is half that from a.
    let per_a = ca.3 as f64 / ca.1 as f64;
    let per_b = cb.3 as f64 / cb.1 as f64;
    assert!((per_b / per_a - 0.5).abs() < 1e-5, "{per_a} vs {per_b}");
    // d is called HUGE times in total: 2 * HUGE/1 ... split by caller.
    let da = ending(&rows, &["a", "f", "c", "d"])[0];
    let db = ending(&rows, &["b", "f", "c", "d"])[0];
    assert_eq!((da.1, db.1), (4_000_000, 4_000_000));
}

#[test]
fn longjmp_leaves_no_phantom_frames() {
    let (rows, _) = contexts("longjmp-O2", &[]);
    // `after` runs after the longjmp, called from main: one context, directly
    // under main, costing exactly its own instructions (100 iterations).
    let after: Vec<_> = rows
        .iter()
        .filter(|r| r.0.last().unwrap() == "after")
        .collect();
    assert_eq!(after.len(), 1, "{after:?}");
    assert!(after[0]
        .0
        .ends_with(&["main".to_string(), "after".to_string()]));
    assert_eq!(after[0].2, after[0].3);
    // The recursion is 11 levels of leaf, then longjmp; nothing below main
    // is deeper than that.
    let deepest_leaf = rows
        .iter()
        .filter(|r| r.0.iter().filter(|f| *f == "leaf").count() == 11)
        .count();
    assert!(deepest_leaf > 0);
    assert!(rows
        .iter()
        .all(|r| r.0.iter().filter(|f| *f == "leaf").count() <= 11));
    // printf after the jump is under main, not under leaf.
    assert!(ending(&rows, &["main", "printf"]).len() == 1);
    assert!(rows
        .iter()
        .all(|r| !(r.0.contains(&"leaf".to_string()) && r.0.contains(&"printf".to_string()))));
}

#[test]
fn exceptions_unwind_frames() {
    let (rows, _) = contexts("except-O2", &[]);
    let after: Vec<_> = rows
        .iter()
        .filter(|r| r.0.last().unwrap() == "after()")
        .collect();
    assert_eq!(
        after.len(),
        1,
        "{:?}",
        rows.iter().map(|r| r.0.join("/")).collect::<Vec<_>>()
    );
    assert!(after[0]
        .0
        .ends_with(&["main".to_string(), "after()".to_string()]));
    assert_eq!(after[0].2, after[0].3);
    // thrower(5) recurses 6 levels; nothing after the catch is below it.
    assert!(rows
        .iter()
        .all(|r| r.0.iter().filter(|f| *f == "thrower(int)").count() <= 6));
    assert!(rows
        .iter()
        .all(|r| !(r.0.contains(&"thrower(int)".to_string()) && r.0.last().unwrap() == "after()")));
}

#[test]
fn tail_calls_are_children_of_the_tail_caller() {
    let (rows, _) = contexts("tailcall-O2", &[]);
    let mid = ending(&rows, &["main", "mid"]);
    let leaf = ending(&rows, &["main", "mid", "leaf"]);
    assert_eq!(
        (mid.len(), leaf.len()),
        (1, 1),
        "{:?}",
        rows.iter().map(|r| r.0.join("/")).collect::<Vec<_>>()
    );
    assert_eq!((mid[0].1, leaf[0].1), (10, 10));
    // mid's inclusive = its self + leaf's inclusive (leaf is its only child).
    assert_eq!(mid[0].3, mid[0].2 + leaf[0].3);
    // leaf: sum over x = 1..=10 of the loop, exactly as the function view says.
    let dir = scratch("tail-fn");
    run_pathvm(&dir.join("p.out"), &guest("tailcall-O2"), &[]);
    let funcs = self_counts(&report_json(&dir.join("p.out"), &[]));
    assert_eq!(leaf[0].3, funcs["leaf"]);
}

#[test]
fn root_inclusive_is_the_total_for_every_program() {
    for prog in [
        "hello-O0",
        "work-O2",
        "fig1-static",
        "longjmp-spie",
        "except-O2",
        "tailcall-O0",
        "files-O2",
        "count",
    ] {
        let (rows, total) = contexts(prog, &[]);
        let roots: u64 = rows.iter().filter(|r| r.0.len() == 1).map(|r| r.3).sum();
        assert_eq!(roots, total, "{prog}");
        let selfs: u64 = rows.iter().map(|r| r.2).sum();
        assert_eq!(selfs, total, "{prog}: self costs add up to the total");
    }
}

#[test]
fn call_counts_stay_exact_past_the_depth_cap() {
    // 5,000 levels, deeper than the default cap of 1,024: every call
    // counts, as many as the program counted itself natively.
    let program = guest("deeprec-O0");
    let native = run_native(&program, &[]);
    let stdout = String::from_utf8_lossy(&native.stdout).to_string();
    let counted: u64 = stdout.trim().rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(counted, 5001, "{stdout}");
    let dir = scratch("deeprec");
    for flags in [
        &[][..],
        &["--recursion", "collapse"][..],
        &["--max-depth", "10"][..],
    ] {
        let out = run_with(&dir.join("p.out"), flags, &program, &[]);
        assert_eq!(out.stdout, native.stdout, "{flags:?}");
        let rows = report_json(&dir.join("p.out"), &[]);
        let down = rows["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["function"] == "down")
            .expect("a row for down");
        assert_eq!(down["calls"], counted, "{flags:?}");
    }
}

#[test]
fn the_context_cap_folds_new_contexts_and_keeps_every_call() {
    // 8,190 distinct contexts under a cap of 1,000: the tree stops
    // growing, a warning says so, and every call still counts.
    let program = guest("manyctx-O2");
    let native = run_native(&program, &["12"]);
    assert_eq!(String::from_utf8_lossy(&native.stdout), "calls 8190\n");
    let dir = scratch("manyctx");
    let out = run_with(
        &dir.join("p.out"),
        &["--max-contexts", "1000"],
        &program,
        &["12"],
    );
    assert_eq!(out.stdout, native.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: the calling context tree reached --max-contexts 1000: "),
        "{stderr}"
    );
    let rows = report_json(&dir.join("p.out"), &[]);
    let calls: u64 = rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            let f = r["function"].as_str().unwrap();
            (f.starts_with('a') || f.starts_with('b')) && f[1..].parse::<u32>().is_ok()
        })
        .map(|r| r["calls"].as_u64().unwrap())
        .sum();
    assert_eq!(calls, 8190);
    let contexts = context_rows(&dir.join("p.out"));
    assert!(contexts.len() <= 1000, "{} contexts", contexts.len());
    // Without the cap: one context per call.
    let out = run_with(&dir.join("q.out"), &[], &program, &["12"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    assert!(context_rows(&dir.join("q.out")).len() > 8190);
}
