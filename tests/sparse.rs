//! Sparse block events (instructions-only runs, `vm/src/sparse.rs`) give
//! the same profile as events for every block: functions, contexts and
//! source lines, on every guest program and a few distribution programs.

use std::path::Path;

use crate::common::*;

/// The report views that do not depend on paths or simulation, as JSON.
/// Not `--by block`: translation blocks are cut where the translator's op
/// buffer fills, so a very long block (sha256's unrolled rounds) is cut
/// elsewhere when the instrumentation in translated code differs (as it
/// already does with and without the cache simulation's tracer). The line
/// view checks the same counts per instruction.
fn views(profile: &Path, contexts: bool) -> Vec<(String, serde_json::Value)> {
    let mut by = vec!["function", "line"];
    if contexts {
        by.push("context");
    }
    by.into_iter()
        .map(|b| {
            (
                b.to_string(),
                report_json(profile, &["--by", b])["rows"].clone(),
            )
        })
        .collect()
}

/// Runs `program` with events for every block (paths on, which need them)
/// and with sparse events, with and without the tree, and compares.
fn same_profiles(dir: &Path, label: &str, program: &Path, args: &[&str]) {
    same_profiles_with(dir, label, &[], program, args)
}

fn same_profiles_with(dir: &Path, label: &str, flags: &[&str], program: &Path, args: &[&str]) {
    let dense = dir.join(format!("{label}.dense"));
    let sparse = dir.join(format!("{label}.sparse"));
    let flat_dense = dir.join(format!("{label}.flat-dense"));
    let flat_sparse = dir.join(format!("{label}.flat-sparse"));
    let sims = [flags, &["--no-cache-sim", "--no-branch-sim"]].concat();
    let a = run_with(&dense, &sims, program, args);
    let b = run_with(
        &sparse,
        &[&sims[..], &["--no-paths"]].concat(),
        program,
        args,
    );
    assert_eq!(a.status.code(), b.status.code(), "{label}: exit status");
    assert_eq!(a.stdout, b.stdout, "{label}: guest output");
    let c = run_with(
        &flat_dense,
        &[&sims[..], &["--no-cct"]].concat(),
        program,
        args,
    );
    let d = run_with(
        &flat_sparse,
        &[&sims[..], &["--no-cct", "--no-paths"]].concat(),
        program,
        args,
    );
    assert_eq!(c.status.code(), d.status.code(), "{label}: exit status");
    for ((view, x), (_, y)) in views(&dense, true).iter().zip(&views(&sparse, true)) {
        assert!(
            x.as_array().is_some_and(|r| !r.is_empty()),
            "{label}: {view}"
        );
        assert_eq!(x, y, "{label}: --by {view} differs with sparse events");
    }
    if !flat_dense.exists() {
        // An option that needs the tree (`--focus`) refuses `--no-cct`.
        assert!(!c.status.success() && !flat_sparse.exists(), "{label}");
        return;
    }
    for ((view, x), (_, y)) in views(&flat_dense, false)
        .iter()
        .zip(&views(&flat_sparse, false))
    {
        assert_eq!(
            x, y,
            "{label}: --no-cct --by {view} differs with sparse events"
        );
    }
}

#[test]
fn sparse_events_change_no_count_of_guest_programs() {
    let dir = scratch("sparse");
    let scratch_dir = dir.display().to_string();
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("work", vec![]),
        ("fig1", vec![]),
        ("tailcall", vec![]),
        ("except", vec![]),
        ("longjmp", vec![]),
        ("alloc", vec![]),
        ("allocxx", vec![]),
        ("cachetest", vec!["naive"]),
        ("sweep", vec![]),
        ("sigalarm", vec![]),
        ("sigdeep", vec![]),
        ("sigfault", vec![]),
        ("crash", vec!["segv"]),
        ("crash", vec!["fpe"]),
        ("threads", vec!["work"]),
        ("threads", vec!["contend"]),
        ("phases", vec!["300", "200"]),
        ("files", vec![scratch_dir.as_str()]),
        ("forkwait", vec![]),
        ("diffwork", vec![]),
        ("hello", vec![]),
    ];
    for (name, args) in &runs {
        for variant in ["O0", "O2", "static", "spie"] {
            let prog = guest(&format!("{name}-{variant}"));
            let label = format!("{name}-{variant}-{}", args.join("_").replace('/', "_"));
            same_profiles(&dir, &label, &prog, args);
        }
    }
    same_profiles(&dir, "count", &guest("count"), &[]);
    // Stopped by the instruction limit, at the same block either way.
    same_profiles_with(
        &dir,
        "spin",
        &["--max-instructions", "1000003"],
        &guest("spin-O2"),
        &[],
    );
}

#[test]
fn sparse_events_change_no_count_of_distribution_programs() {
    let dir = scratch("sparse-dist");
    let input = numbered_lines(&dir);
    for (prog, args) in [
        ("/usr/bin/sort", vec![input.as_str()]),
        ("/usr/bin/sha256sum", vec![input.as_str()]),
        ("/usr/bin/gzip", vec!["-c", input.as_str()]),
        ("/usr/bin/xz", vec!["-c", input.as_str()]),
        (
            "/usr/bin/perl",
            vec![
                "-e",
                "my %h; $h{$_ % 97} += $_ for 1..20000; print scalar(keys %h), \"\\n\"",
            ],
        ),
    ] {
        if !Path::new(prog).exists() {
            eprintln!("skipped {prog}: not installed");
            continue;
        }
        let label = Path::new(prog).file_name().unwrap().to_str().unwrap();
        same_profiles(&dir, label, Path::new(prog), &args);
    }
}

#[test]
fn sparse_events_follow_the_tree_options() {
    let dir = scratch("sparse-options");
    for prog in ["work-O2", "fig1-O0", "allocxx-O2"] {
        for (i, flags) in [
            &["--toggle-collect", "fib"][..],
            &["--toggle-collect", "main"][..],
            &["--focus", "main"][..],
            &["--show-plt"][..],
            &["--recursion", "collapse"][..],
        ]
        .iter()
        .enumerate()
        {
            same_profiles_with(&dir, &format!("{prog}-{i}"), flags, &guest(prog), &[]);
        }
    }
}
