//! valgrind's client requests (`valgrind.h`'s magic sequence): a program
//! instrumented for callgrind gives pathvm's phases the instruction counts
//! of callgrind's parts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// Callgrind's parts in `dir` (`OUT`, `OUT.1`, ...) as pathvm names its
/// phases: a dump's name (`part-N` for an unnamed one), `main` for the part
/// written at the end; each with its `Ir` total.
pub fn callgrind_parts(dir: &Path, out: &str) -> BTreeMap<String, u64> {
    callgrind_event_parts(dir, out)
        .into_iter()
        .map(|(name, totals)| (name, totals["Ir"]))
        .collect()
}

/// `valgrind --tool=callgrind --instr-atstart=no` of `program args` in
/// `dir`: its parts, and its stdout.
pub fn callgrind(dir: &Path, program: &Path, args: &[&str]) -> (BTreeMap<String, u64>, Vec<u8>) {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--instr-atstart=no", "-q"])
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("cg.out").display()
        ))
        .arg(program)
        .args(args)
        .env_clear()
        .envs(GUEST_ENV.iter().copied())
        .output()
        .expect("run valgrind");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (callgrind_parts(dir, "cg.out"), out.stdout)
}

/// `guest-programs/valgrind/NAME.c` built against valgrind's header, or
/// `None` (the test skips) without valgrind.
fn build_c(dir: &Path, name: &str) -> Option<PathBuf> {
    if !have("valgrind") || !Path::new("/usr/include/valgrind/callgrind.h").exists() {
        eprintln!("skipped: valgrind (and its valgrind/callgrind.h) not installed");
        return None;
    }
    let exe = dir.join(name);
    let st = Command::new("gcc")
        .args(["-O2", "-g", "-o"])
        .arg(&exe)
        .arg(repo().join(format!("guest-programs/valgrind/{name}.c")))
        .status()
        .unwrap();
    assert!(st.success());
    Some(exe)
}

#[test]
fn callgrind_requests_split_the_run_as_callgrind_does() {
    let dir = scratch("clientreq-c");
    let Some(exe) = build_c(&dir, "callgrind_requests") else {
        return;
    };
    let (parts, cg_stdout) = callgrind(&dir, &exe, &["1000"]);
    assert_eq!(
        parts.keys().collect::<Vec<_>>(),
        ["first", "main", "part-3", "second"]
    );
    // Natively RUNNING_ON_VALGRIND is 0; under valgrind and pathvm, 1.
    let native = run_native(&exe, &["1000"]);
    assert!(String::from_utf8_lossy(&native.stdout).starts_with("on valgrind: 0,"));
    assert!(String::from_utf8_lossy(&cg_stdout).starts_with("on valgrind: 1,"));
    for (name, extra) in [
        ("full", &[][..]),
        ("single", &["--single-thread"][..]),
        (
            "sparse",
            &["--no-paths", "--no-cache-sim", "--no-branch-sim"][..],
        ),
    ] {
        let profile = dir.join(format!("{name}.out"));
        let mut args = vec!["--instr-atstart", "no"];
        args.extend_from_slice(extra);
        let out = run_with(&profile, &args, &exe, &["1000"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, cg_stdout, "{name}");
        assert_eq!(phase_instructions(&profile), parts, "{name}");
    }
}

/// The same requests from Rust, through the crabgrind crate (0.1.9, from
/// crates.io: cargo fetches it; without the network the test says it
/// skipped).
#[test]
fn crabgrind_requests_split_the_run_as_callgrind_does() {
    let dir = scratch("clientreq-rust");
    if !have("valgrind") || !Path::new("/usr/include/valgrind/callgrind.h").exists() {
        eprintln!("skipped: valgrind (and its valgrind/callgrind.h) not installed");
        return;
    }
    let project = repo().join("guest-programs/valgrind/crabgrind");
    let target = dir.join("target");
    let build = Command::new(env!("CARGO"))
        .args(["build", "--release", "--locked", "--manifest-path"])
        .arg(project.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("run cargo build");
    if !build.status.success() {
        let err = String::from_utf8_lossy(&build.stderr);
        if err.contains("failed to download") || err.contains("failed to get") {
            eprintln!("skipped: crabgrind could not be fetched from crates.io: {err}");
            return;
        }
        panic!("{err}");
    }
    let exe = target.join("release/crabgrind-requests");
    let (parts, cg_stdout) = callgrind(&dir, &exe, &["1000"]);
    assert_eq!(
        parts.keys().collect::<Vec<_>>(),
        ["main", "part-1", "part-2", "part-3"]
    );
    assert!(String::from_utf8_lossy(&cg_stdout).starts_with("Valgrind,"));
    let native = run_native(&exe, &["1000"]);
    assert!(String::from_utf8_lossy(&native.stdout).starts_with("Native,"));
    let profile = dir.join("rust.out");
    let out = run_with(&profile, &["--instr-atstart", "no"], &exe, &["1000"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, cg_stdout);
    assert_eq!(phase_instructions(&profile), parts);
}

/// Per part of a callgrind run (`OUT`, `OUT.1`, ..., named as
/// [`callgrind_parts`] names them): each event's total.
fn callgrind_event_parts(dir: &Path, out: &str) -> BTreeMap<String, BTreeMap<String, u64>> {
    let mut parts = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        if file != out && !file.starts_with(&format!("{out}.")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let field = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(k))
                .unwrap_or_else(|| panic!("{k} in {file}"))
                .trim()
                .to_string()
        };
        let name = match field("desc: Trigger:").as_str() {
            "Program termination" => "main".to_string(),
            "Client Request" => format!("part-{}", field("part:")),
            t => t
                .strip_prefix("Client Request: ")
                .unwrap_or_else(|| panic!("trigger {t} in {file}"))
                .to_string(),
        };
        let totals = field("events:")
            .split_whitespace()
            .map(String::from)
            .zip(
                field("totals:")
                    .split_whitespace()
                    .map(|v| v.parse().unwrap()),
            )
            .collect();
        parts.insert(name, totals);
    }
    parts
}

#[test]
fn callgrinds_instrumentation_requests_empty_the_caches_as_callgrind_does() {
    let dir = scratch("clientreq-caches");
    let Some(exe) = build_c(&dir, "cache_restart") else {
        return;
    };
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--instr-atstart=no",
            "--cache-sim=yes",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            "--LL=8388608,16,64",
            "-q",
        ])
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("cg.out").display()
        ))
        .arg(&exe)
        .env_clear()
        .envs(GUEST_ENV.iter().copied())
        .output()
        .expect("run valgrind");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = callgrind_event_parts(&dir, "cg.out");
    // The buffer's 256 lines miss after each start, and only then.
    let d1mr: Vec<u64> = ["after_start", "again", "restarted"]
        .iter()
        .map(|p| theirs[*p]["D1mr"])
        .collect();
    assert_eq!(d1mr, [256, 0, 256], "{theirs:?}");
    for (name, extra) in [("full", &[][..]), ("single", &["--single-thread"][..])] {
        let profile = dir.join(format!("{name}.out"));
        let mut args = vec!["--instr-atstart", "no"];
        args.extend_from_slice(extra);
        let out = run_with(&profile, &args, &exe, &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report = report_json(&profile, &["--phases"]);
        for p in report["phases"].as_array().unwrap() {
            let phase = p["phase"].as_str().unwrap();
            let t = &p["totals"];
            let cg = &theirs[phase];
            // Instructions, and the misses that do not depend on where the
            // stack is (valgrind's and pathvm's differ: their auxiliary
            // vectors differ), so not the stack's write misses.
            for (ours, event) in [
                ("instructions", "Ir"),
                ("loads", "Dr"),
                ("stores", "Dw"),
                ("l1d-read-miss", "D1mr"),
                ("l1i-miss", "I1mr"),
            ] {
                assert_eq!(
                    t[ours].as_u64(),
                    Some(cg[event]),
                    "{name} {phase} {ours}: {p}"
                );
            }
        }
    }
}
