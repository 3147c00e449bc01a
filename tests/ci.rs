//! The CI workflow: diff and check on deterministic counts.

use std::ffi::OsStr;
use std::process::{Command, Output};

use crate::common::*;

/// `pathvm ARGS...`.
fn pathvm_out(args: &[&OsStr]) -> Output {
    Command::new(pathvm()).args(args).output().unwrap()
}

/// `pathvm check --baseline BASE PROFILE... ARGS...`.
fn check(base: &OsStr, profiles: &[&OsStr], args: &[&OsStr]) -> Output {
    Command::new(pathvm())
        .arg("check")
        .arg("--baseline")
        .arg(base)
        .args(profiles)
        .args(args)
        .output()
        .unwrap()
}

macro_rules! os {
    ($($a:expr),* $(,)?) => { &[$(std::ffi::OsStr::new($a)),*] };
}

fn profile_of(dir: &std::path::Path, name: &str, program: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join(name);
    let out = Command::new(pathvm())
        .args(["run", "-q", "--no-cache-sim", "-o"])
        .arg(&p)
        .arg(std::path::Path::new(".").join(program.file_name().unwrap()))
        .current_dir(program.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p
}

#[test]
fn diff_of_identical_runs_is_clean() {
    let dir = scratch("diff-same");
    let a = profile_of(&dir, "a.out", &guest("diffwork-O2"));
    let b = profile_of(&dir, "b.out", &guest("diffwork-O2"));
    let out = Command::new(pathvm())
        .args(["diff", "--fail-on", "instructions:0", "--format", "json"])
        .args([&a, &b])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["rows"].as_array().map(|r| r.len()), Some(0), "{j}");
}

#[test]
fn one_percent_more_work_in_one_function_fails_the_diff() {
    let dir = scratch("diff-more");
    // Same file name in two directories: the command lines are equal.
    let old = profile_of(&dir, "old.out", &guest("diffwork-O2"));
    let new = profile_of(&dir, "new.out", &guests().join("more").join("diffwork-O2"));
    let out = Command::new(pathvm())
        .args(["diff", "--fail-on", "instructions:0.5", "--format", "json"])
        .args([&old, &new])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = j["rows"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["function"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["heavy"], "{j}");
    // Without the limit the diff reports and exits 0; markdown for CI summaries.
    let out = Command::new(pathvm())
        .args(["diff", "--format", "markdown"])
        .args([&old, &new])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.starts_with("### pathvm diff: instructions +"), "{md}");
    assert!(md.contains("| heavy | diffwork-O2 | "), "{md}");
}

#[test]
fn check_against_a_baseline() {
    let dir = scratch("check");
    let base = profile_of(&dir, "base.out", &guest("diffwork-O2"));
    let new = profile_of(&dir, "new.out", &guests().join("more").join("diffwork-O2"));
    let (b, n) = (base.as_os_str(), new.as_os_str());
    let with_limit = |limit: &str| check(b, &[n], os!["--limit", limit]);
    assert_eq!(with_limit("instructions:0.1%").status.code(), Some(1));
    assert_eq!(with_limit("instructions:5%").status.code(), Some(0));
    let limits = dir.join("limits.toml");
    std::fs::write(&limits, "[limits.instructions]\nrelative = 0.1\n").unwrap();
    let out = check(b, &[n], os!["--limits", limits.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    // --update-baseline rewrites it; then the check passes.
    let out = check(b, &[n], os!["--update-baseline"]);
    assert!(out.status.success());
    assert_eq!(with_limit("instructions:0%").status.code(), Some(0));
}

#[test]
fn identical_under_parallel_load() {
    let dir = scratch("parallel");
    let prog = guest("work-O2");
    let children: Vec<_> = (0..3)
        .map(|i| {
            Command::new(pathvm())
                .args(["run", "-q", "-o"])
                .arg(dir.join(format!("p{i}.out")))
                .arg(&prog)
                .current_dir(prog.parent().unwrap())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let first = std::fs::read(dir.join("p0.out")).unwrap();
    for i in 1..3 {
        assert_eq!(first, std::fs::read(dir.join(format!("p{i}.out"))).unwrap());
    }
}

/// `pathvm run` of `phases-O2 N 1000` (exit status 3, as natively): phase
/// `work` runs exactly 2*N instructions in its loop.
fn phases_profile(dir: &std::path::Path, name: &str, n: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    let out = run_pathvm(&p, &guest("phases-O2"), &[n, "1000"]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p
}

#[test]
fn one_percent_more_work_in_one_phase_fails_that_phase_alone() {
    let dir = scratch("check-phases");
    // 1% more work in phase `work`: 2 * 1000 more instructions; the
    // argument has as many digits, so the other phases do the same work.
    let base = phases_profile(&dir, "base.out", "100000");
    let new = phases_profile(&dir, "new.out", "101000");
    let (b, n) = (base.as_os_str(), new.as_os_str());
    let out = check(
        b,
        &[n],
        os![
            "--phase",
            "*",
            "--limit",
            "instructions:0.5%",
            "--format",
            "json"
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = j["checks"].as_array().unwrap();
    let rows: Vec<(&str, &str, i64)> = checks
        .iter()
        .map(|c| {
            (
                c["benchmark"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
                c["change"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("main", "ok", 0),
            ("work", "regressed", 2000),
            ("stopped", "ok", 0),
            ("tail", "ok", 0)
        ],
        "{j:#}"
    );
    let work = &checks[1];
    let (old, cur) = (
        work["baseline"].as_u64().unwrap(),
        work["current"].as_u64().unwrap(),
    );
    assert!(old > 200_000 && old < 201_000, "{old}");
    assert_eq!(cur, old + 2000);
    // Markdown: the verdict and the phase that failed on the first line.
    let out = check(
        b,
        &[n],
        os![
            "--phase",
            "*",
            "--limit",
            "instructions:0.5%",
            "--format",
            "markdown"
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    let pct = (cur - old) as f64 * 100.0 / old as f64;
    assert_eq!(
        md.lines().next().unwrap(),
        format!("### pathvm check FAILED: work instructions +{pct:.2}% (1 of 4 checks over their limits)")
    );
    assert!(
        md.contains("<details><summary>work: 1 function changed</summary>"),
        "{md}"
    );
    assert!(md.contains("| spin | phases-O2 | "), "{md}");
    // An absolute floor above the change: both limits must be exceeded.
    let out = check(
        b,
        &[n],
        os!["--phase", "work", "--limit", "instructions:0.5%,+2001"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = check(
        b,
        &[n],
        os!["--phase", "work", "--limit", "instructions:0.5%,+1999"],
    );
    assert_eq!(out.status.code(), Some(1));
    // A phase override in the limits file lets `work` grow by 2%.
    let limits = dir.join("limits.toml");
    std::fs::write(
        &limits,
        "[limits.instructions]\nrelative = 0.5\n\n[phases.work.instructions]\nrelative = 2.0\n",
    )
    .unwrap();
    let out = check(b, &[n], os!["--phase", "*", "--limits", limits.as_os_str()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A phase no profile has is an error.
    let out = check(b, &[n], os!["--phase", "parse"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pathvm: unknown phase `parse`; available: main, work, stopped, tail\n"
    );
}

#[test]
fn per_function_limits_and_several_profiles() {
    let dir = scratch("check-functions");
    let old = profile_of(&dir, "diffwork.out", &guest("diffwork-O2"));
    let base_dir = dir.join("baselines");
    let o = old.as_os_str();
    // A missing baseline is an error, unless asked to make it.
    let out = check(base_dir.as_os_str(), &[o], os![]);
    assert_eq!(out.status.code(), Some(2));
    let p = dir.join("phases.out");
    let p = {
        let made = phases_profile(&dir, "phases.out", "1000");
        assert_eq!(made, p);
        p
    };
    let out = check(
        base_dir.as_os_str(),
        &[o, p.as_os_str()],
        os!["--save-baseline", "--format", "markdown"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("### pathvm check passed: "), "{md}");
    assert!(
        md.contains("- diffwork.out: baseline created from the profile"),
        "{md}"
    );
    assert!(base_dir.join("diffwork.out").is_file());
    assert!(base_dir.join("phases.out").is_file());
    // The heavier version, by the same file name: its profile fails alone.
    let more = dir.join("more");
    std::fs::create_dir_all(&more).unwrap();
    let new = profile_of(
        &more,
        "diffwork.out",
        &guests().join("more").join("diffwork-O2"),
    );
    let out = check(
        base_dir.as_os_str(),
        &[new.as_os_str(), p.as_os_str()],
        os![
            "--save-baseline",
            "--limit",
            "instructions:0.5%",
            "--format",
            "markdown"
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.starts_with("### pathvm check FAILED: diffwork.out instructions +"),
        "{md}"
    );
    assert!(md.contains("(1 of 2 checks over their limits)"), "{md}");
    // Per-function limits: heavy did 1% more, light the same.
    let limits = dir.join("limits.toml");
    std::fs::write(
        &limits,
        "[limits.instructions]\nrelative = 5\n\n[functions.heavy.instructions]\nrelative = 0.5\n\n[functions.light.instructions]\nrelative = 0\n",
    )
    .unwrap();
    let out = check(
        o,
        &[new.as_os_str()],
        os!["--limits", limits.as_os_str(), "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        check_verdicts(&j),
        [("total", "ok"), ("heavy", "regressed"), ("light", "ok")],
        "{j:#}"
    );
    // heavy's loop: 100,000 -> 101,000 iterations of k instructions each,
    // around a few instructions of its own.
    let heavy = &j["checks"][1];
    let (h0, h1) = (
        heavy["baseline"].as_u64().unwrap(),
        heavy["current"].as_u64().unwrap(),
    );
    assert_eq!((h1 - h0) % 1000, 0, "{heavy}");
    let k = (h1 - h0) / 1000;
    assert!(
        k > 0 && h0 >= 100_000 * k && h0 - 100_000 * k < 50,
        "{heavy}"
    );
}

#[test]
fn objects_are_matched_by_build_id_not_directory() {
    let dir = scratch("diff-moved");
    // The same binary in two checkouts, run by the same relative path.
    let mut profiles = Vec::new();
    for side in ["ci", "laptop"] {
        let d = dir.join(side);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(guest("diffwork-O2"), d.join("diffwork-O2")).unwrap();
        profiles.push(profile_of(&d, "p.out", &d.join("diffwork-O2")));
    }
    let out = pathvm_out(os![
        "diff",
        profiles[0].as_os_str(),
        profiles[1].as_os_str(),
        "--format",
        "json"
    ]);
    assert_eq!(out.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["differences"], serde_json::json!([]), "{j:#}");
    let out = check(
        profiles[0].as_os_str(),
        &[profiles[1].as_os_str()],
        os!["--format", "markdown"],
    );
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(!md.contains("object"), "{md}");
}

/// A frame of an inferno flame graph: its title, fill colour and width in
/// counts (`fg:w`).
#[derive(Debug)]
struct Frame {
    title: String,
    fill: String,
    width: u64,
}

/// The frames of an SVG flame graph, read with an XML parser: each `<g>`
/// holds a `<title>` and the `<rect>` drawn for it.
fn svg_frames(svg: &str) -> Vec<Frame> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut frames = Vec::new();
    let (mut in_title, mut title) = (false, None::<String>);
    loop {
        match reader.read_event().expect("well-formed SVG") {
            Event::Eof => break,
            Event::Start(e) if e.name().as_ref() == b"title" => {
                in_title = true;
                title = Some(String::new());
            }
            Event::End(e) if e.name().as_ref() == b"title" => in_title = false,
            Event::Text(t) if in_title => {
                title.as_mut().unwrap().push_str(&t.decode().unwrap());
            }
            // Entities come apart from the text around them.
            Event::GeneralRef(r) if in_title => {
                let c = match r.resolve_char_ref().unwrap() {
                    Some(c) => c,
                    None => match r.decode().unwrap().as_ref() {
                        "lt" => '<',
                        "gt" => '>',
                        "amp" => '&',
                        "quot" => '"',
                        "apos" => '\'',
                        other => panic!("entity {other}"),
                    },
                };
                title.as_mut().unwrap().push(c);
            }
            Event::Empty(e) | Event::Start(e) if e.name().as_ref() == b"rect" => {
                let Some(title) = title.take() else { continue };
                let attr = |k: &[u8]| {
                    e.attributes()
                        .map(|a| a.unwrap())
                        .find(|a| a.key.as_ref() == k)
                        .map(|a| String::from_utf8(a.value.to_vec()).unwrap())
                };
                frames.push(Frame {
                    title,
                    fill: attr(b"fill").expect("fill"),
                    width: attr(b"fg:w").expect("fg:w").parse().unwrap(),
                });
            }
            _ => {}
        }
    }
    frames
}

/// The frames whose function is `name` (their title `name (...)`).
fn frames_of<'a>(frames: &'a [Frame], name: &str) -> Vec<&'a Frame> {
    let prefix = format!("{name} (");
    frames
        .iter()
        .filter(|f| f.title.starts_with(&prefix))
        .collect()
}

#[test]
fn differential_flame_graph_shows_the_grown_function_red() {
    let dir = scratch("diff-flame");
    let old = profile_of(&dir, "old.out", &guest("diffwork-O2"));
    let more = dir.join("more");
    std::fs::create_dir_all(&more).unwrap();
    let new = profile_of(&more, "new.out", &guests().join("more").join("diffwork-O2"));
    let svg = dir.join("diff.svg");
    let out = pathvm_out(os![
        "diff",
        old.as_os_str(),
        new.as_os_str(),
        "--format",
        "flamegraph",
        "-o",
        svg.as_os_str()
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let frames = svg_frames(&std::fs::read_to_string(&svg).unwrap());
    // Widths are NEW's counts: the whole graph its total, heavy its cost.
    let total = report_json(&new, &[])["totals"]["instructions"]
        .as_u64()
        .unwrap();
    let all = frames_of(&frames, "all");
    assert_eq!(all.len(), 1, "{frames:#?}");
    assert_eq!(all[0].width, total);
    let (old_self, new_self) = (
        self_counts(&report_json(&old, &[])),
        self_counts(&report_json(&new, &[])),
    );
    let heavy = frames_of(&frames, "heavy");
    assert_eq!(heavy.len(), 1, "{frames:#?}");
    assert_eq!(heavy[0].width, new_self["heavy"]);
    assert!(new_self["heavy"] > old_self["heavy"]);
    // Red: full red, less green and blue; unchanged frames are grey-white.
    let rgb = |f: &Frame| -> Vec<u32> {
        let inner = f
            .fill
            .strip_prefix("rgb(")
            .and_then(|s| s.strip_suffix(')'));
        let inner = inner.unwrap_or_else(|| panic!("fill {}", f.fill));
        inner
            .split(',')
            .map(|c| c.trim().parse().unwrap())
            .collect()
    };
    let h = rgb(heavy[0]);
    assert!(h[0] == 255 && h[1] < 250 && h[1] == h[2], "{heavy:?}");
    let light = frames_of(&frames, "light");
    assert_eq!(light.len(), 1, "{frames:#?}");
    assert_eq!(light[0].width, new_self["light"]);
    assert_eq!(old_self["light"], new_self["light"]);
    assert_eq!(light[0].fill, "rgb(250,250,250)", "{light:?}");
    // The other formats' limits hold here too; one metric is drawn.
    let out = pathvm_out(os![
        "diff",
        old.as_os_str(),
        new.as_os_str(),
        "--format",
        "flamegraph",
        "--fail-on",
        "instructions:0.5",
        "-o",
        svg.as_os_str()
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = pathvm_out(os![
        "diff",
        old.as_os_str(),
        new.as_os_str(),
        "--format",
        "flamegraph",
        "--metric",
        "instructions,loads"
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pathvm: --metric: --format flamegraph draws one metric\n"
    );
}
