//! Exact, deterministic instruction counts.

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::*;

#[test]
fn hand_counted_program() {
    // guest-programs/count.S: 1 + 2*1000 + 3 instructions, then exit(7).
    let dir = scratch("count");
    let out = run_pathvm(&dir.join("p.out"), &guest("count"), &[]);
    assert_eq!(out.status.code(), Some(7));
    let rep = report_json(&dir.join("p.out"), &[]);
    assert_eq!(rep["totals"]["instructions"].as_u64(), Some(2004));
    assert_eq!(self_counts(&rep)["_start"], 2004);
}

#[test]
fn identical_across_runs_environments_and_directories() {
    let dir = scratch("determinism");
    let prog = guest("work-O2");
    let mut reports = Vec::new();
    for (i, (cwd, extra_env)) in [
        ("/", "A=1"),
        ("/tmp", "B=a-much-longer-value-than-before"),
        ("/", "C=3"),
    ]
    .iter()
    .enumerate()
    {
        let profile = dir.join(format!("p{i}.out"));
        let out = Command::new(pathvm())
            .args(["run", "-q", "-o"])
            .arg(&profile)
            .arg(&prog)
            .current_dir(cwd)
            .env("PATHVM_TEST_NOISE", extra_env)
            .env("RANDOM_HOST_VARIABLE", format!("{i}{i}{i}"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        reports.push(report_json(&profile, &[]));
    }
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0], reports[2]);
    // The profile file itself is byte-identical for the same invocation.
    let again = dir.join("again.out");
    Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(&again)
        .arg(&prog)
        .current_dir("/")
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read(dir.join("p0.out")).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

/// Self `Ir` per function from a callgrind output file, via callgrind_annotate.
pub(crate) fn callgrind_self(out_file: &std::path::Path) -> BTreeMap<String, u64> {
    let ann = Command::new("callgrind_annotate")
        .args(["--threshold=100", "--inclusive=no", "--auto=no"])
        .arg(out_file)
        .output()
        .expect("callgrind_annotate");
    let text = String::from_utf8_lossy(&ann.stdout);
    let mut m = BTreeMap::new();
    for line in text.lines() {
        // "        32,772 (12.34%)  work.c:fill [/path/work-O2]"
        let t = line.trim_start();
        let Some((num, rest)) = t.split_once(' ') else {
            continue;
        };
        let Ok(n) = num.replace(',', "").parse::<u64>() else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = if rest.starts_with('(') {
            rest.split_once(')')
                .map(|x| x.1.trim_start())
                .unwrap_or(rest)
        } else {
            rest
        };
        let name = rest.split(" [").next().unwrap_or(rest);
        let func = name.rsplit_once(':').map(|x| x.1).unwrap_or(name);
        // callgrind names recursion levels `fib'2` (--separate-recs).
        let func = func.split('\'').next().unwrap_or(func);
        *m.entry(func.to_string()).or_insert(0) += n;
    }
    m
}

#[test]
fn user_functions_match_callgrind() {
    if !have("valgrind") || !have("callgrind_annotate") {
        eprintln!("skipped: valgrind/callgrind_annotate not installed");
        return;
    }
    let dir = scratch("callgrind");
    for (prog, funcs) in [
        ("work-O2", &["fib", "fill", "sum_odd", "bubble", "main"][..]),
        ("work-O0", &["fib", "fill", "sum_odd", "bubble", "main"][..]),
        (
            "work-static",
            &["fib", "fill", "sum_odd", "bubble", "main"][..],
        ),
        ("fig1-O2", &["a", "b", "c", "d", "f", "main"][..]),
        ("tailcall-O2", &["leaf", "mid", "main"][..]),
    ] {
        let profile = dir.join(format!("{prog}.out"));
        let out = run_pathvm(&profile, &guest(prog), &[]);
        assert!(out.status.success());
        let ours = self_counts(&report_json(&profile, &[]));
        let cg_out = dir.join(format!("{prog}.cg"));
        let st = Command::new("valgrind")
            .args(["--tool=callgrind", "--quiet"])
            .arg(format!("--callgrind-out-file={}", cg_out.display()))
            .arg(guest(prog))
            .output()
            .unwrap();
        assert!(st.status.success());
        let theirs = callgrind_self(&cg_out);
        for f in funcs {
            assert_eq!(
                ours.get(*f),
                theirs.get(*f),
                "{prog}: self instructions of {f}"
            );
        }
    }
}
