//! Inlined functions (`guest-programs/inlined.c`: `mix` and `mix2` of
//! `inlined.h`, always inlined, `mix2` holding `mix`): each appears as a
//! function of its own in the report and in every export, with the
//! instructions that callgrind attributes to its lines.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

const ARG: &str = "5000";

/// The lines of `inlined.h` that hold each helper's body.
const HELPERS: [(&str, std::ops::RangeInclusive<u64>); 2] = [("mix", 3..=8), ("mix2", 10..=14)];

/// A profile of `inlined-O2 ARG`.
fn profile(dir: &Path) -> PathBuf {
    let profile = dir.join("inlined.out");
    run_ok(&profile, &guest("inlined-O2"), &[ARG]);
    profile
}

/// `pathvm ARGS...` (inline frames on), which must succeed: its stdout.
fn pathvm_out(args: &[&OsStr]) -> Vec<u8> {
    pathvm_ok(args).stdout
}

/// Ir per line of `inlined.h` from `callgrind --dump-instr=yes` (names and
/// positions uncompressed; the cost line after a `calls=` line is the
/// call's inclusive cost and is left out).
fn callgrind_header_lines(dir: &Path) -> BTreeMap<u64, u64> {
    let out = dir.join("callgrind.out");
    let st = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--dump-instr=yes",
            "--compress-strings=no",
            "--compress-pos=no",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(guest("inlined-O2"))
        .arg(ARG)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = BTreeMap::new();
    let (mut fl, mut fi) = (String::new(), None::<String>);
    let mut skip = false;
    for l in text.lines() {
        if let Some(f) = l.strip_prefix("fl=") {
            fl = f.to_string();
            fi = None;
        } else if let Some(f) = l.strip_prefix("fi=").or_else(|| l.strip_prefix("fe=")) {
            fi = Some(f.to_string());
        } else if l.starts_with("fn=") {
            fi = None;
        } else if l.starts_with("calls=") {
            skip = true;
        } else if l.starts_with("0x") {
            if std::mem::take(&mut skip) {
                continue;
            }
            let v: Vec<&str> = l.split_whitespace().collect();
            let file = fi.as_deref().unwrap_or(&fl);
            if file.ends_with("inlined.h") {
                *lines.entry(v[1].parse::<u64>().unwrap()).or_insert(0) +=
                    v[2].parse::<u64>().unwrap();
            }
        }
    }
    lines
}

/// Callgrind's Ir of each helper: the sum over its lines of `inlined.h`.
fn callgrind_helpers(dir: &Path) -> BTreeMap<&'static str, u64> {
    let lines = callgrind_header_lines(dir);
    assert!(!lines.is_empty(), "callgrind gave no line of inlined.h");
    HELPERS
        .iter()
        .map(|(name, range)| {
            let ir = lines
                .iter()
                .filter(|(l, _)| range.contains(l))
                .map(|(_, ir)| ir)
                .sum();
            (*name, ir)
        })
        .collect()
}

/// The report's function rows as (name, self, inclusive) instructions.
fn report_rows(profile: &Path, extra: &[&str]) -> Vec<(String, u64, u64)> {
    let mut args: Vec<&OsStr> = vec![OsStr::new("report"), profile.as_os_str()];
    args.extend(["--format", "json", "--top", "0"].map(OsStr::new));
    args.extend(extra.iter().map(OsStr::new));
    let json: serde_json::Value = serde_json::from_slice(&pathvm_out(&args)).unwrap();
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["function"].as_str().unwrap().to_string(),
                r["self"]["instructions"].as_u64().unwrap(),
                r["inclusive"]["instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn row<'a>(rows: &'a [(String, u64, u64)], name: &str) -> (u64, u64) {
    let r = rows.iter().find(|r| r.0 == name);
    let r = r.unwrap_or_else(|| panic!("no row {name}: {rows:?}"));
    (r.1, r.2)
}

/// The report: a row per helper, flagged `[inlined]`, whose self
/// instructions are callgrind's Ir on its lines; the physical functions
/// give up as much; `--no-inline` has no such rows.
#[test]
fn inlined_helpers_in_the_report() {
    let dir = scratch("inline-report");
    let profile = profile(&dir);
    let rows = report_rows(&profile, &[]);
    let plain = report_rows(&profile, &["--no-inline"]);
    assert!(
        plain.iter().all(|r| !r.0.ends_with("[inlined]")),
        "{plain:?}"
    );
    let mix = row(&rows, "mix [inlined]");
    let mix2 = row(&rows, "mix2 [inlined]");
    assert!(mix.0 > 0 && mix2.0 > 0, "{rows:?}");
    // mix2 holds mix: its inclusive cost has the mix inlined into it.
    assert!(mix2.1 > mix2.0, "{mix2:?}");
    // The physical functions give up what the inline rows have.
    let total = |rows: &[(String, u64, u64)]| rows.iter().map(|r| r.1).sum::<u64>();
    assert_eq!(total(&rows), total(&plain));
    assert!(row(&rows, "main").0 < row(&plain, "main").0);
    assert_eq!(row(&rows, "main").1, row(&plain, "main").1);
    if !have("valgrind") {
        eprintln!("skipped the comparison with callgrind: valgrind not installed");
        return;
    }
    let theirs = callgrind_helpers(&dir);
    assert_eq!(
        mix.0, theirs["mix"],
        "mix: ours {mix:?}, callgrind's {theirs:?}"
    );
    assert_eq!(
        mix2.0, theirs["mix2"],
        "mix2: ours {mix2:?}, callgrind's {theirs:?}"
    );
}

/// pprof: each location in inlined code has a line per inline frame, so
/// `go tool pprof -top` lists the helpers as `NAME (inline)` with the
/// report's self instructions.
#[test]
fn inlined_helpers_in_pprof() {
    let dir = scratch("inline-pprof");
    let profile = profile(&dir);
    let rows = report_rows(&profile, &[]);
    if !have("go") {
        eprintln!("skipped: go (go tool pprof) not installed");
        return;
    }
    let pb = dir.join("inlined.pb.gz");
    pathvm_out(&[
        OsStr::new("export"),
        profile.as_os_str(),
        OsStr::new("--format"),
        OsStr::new("pprof"),
        OsStr::new("-o"),
        pb.as_os_str(),
    ]);
    let out = Command::new("go")
        .args(["tool", "pprof", "-top", "-nodecount=1000"])
        .arg(&pb)
        .env("HOME", &dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for name in ["mix", "mix2"] {
        let line = text
            .lines()
            .find(|l| l.trim_end().ends_with(&format!(" {name} (inline)")))
            .unwrap_or_else(|| panic!("{name} (inline) not in:\n{text}"));
        let flat: u64 = line.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(flat, row(&rows, &format!("{name} [inlined]")).0, "{line}");
    }
}
