//! The `pathvm-bench` crate and its example project (`examples/bench`):
//! `cargo bench` under pathvm gives one phase per benchmark, and 1% more
//! work in one benchmark shows in that benchmark's phase alone and fails
//! `pathvm check --phase '*'` for that benchmark alone.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// Copy `examples/bench` to `dir` (its `pathvm-bench` dependency pointed
/// at this repository's crate), with `edit` applied to its bench file.
pub(crate) fn example_copy(dir: &Path, edit: &dyn Fn(String) -> String) -> PathBuf {
    let src = repo().join("examples/bench");
    let dst = dir.join("textstats");
    for sub in ["src", "benches"] {
        std::fs::create_dir_all(dst.join(sub)).unwrap();
    }
    for f in ["Cargo.lock", "src/lib.rs", "benches/textstats.rs"] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap();
    }
    let manifest = std::fs::read_to_string(src.join("Cargo.toml")).unwrap();
    let crate_dir = repo().join("pathvm-bench");
    let manifest = manifest.replace(
        "path = \"../../pathvm-bench\"",
        &format!("path = \"{}\"", crate_dir.display()),
    );
    std::fs::write(dst.join("Cargo.toml"), manifest).unwrap();
    let bench = dst.join("benches/textstats.rs");
    let text = std::fs::read_to_string(&bench).unwrap();
    std::fs::write(&bench, edit(text)).unwrap();
    dst
}

/// `cargo bench --offline` of the project at `dir` with pathvm as cargo's
/// runner, writing `profile`; cargo's own target directory is shared.
fn cargo_bench_under_pathvm(project: &Path, target: &Path, profile: &Path) {
    let out = Command::new(env!("CARGO"))
        .args(["bench", "--offline", "-q"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target)
        .env(
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
            format!("{} run -q -o {}", pathvm(), profile.display()),
        )
        .output()
        .expect("run cargo bench");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "word_count\nchecksum\nvocabulary\n"
    );
}

#[test]
fn example_benchmarks_are_phases_and_a_change_fails_its_own_alone() {
    let dir = scratch("bench-crate");
    let target = dir.join("target");
    let base_project = example_copy(&dir.join("base"), &|t| t);
    let base = dir.join("base.out");
    cargo_bench_under_pathvm(&base_project, &target, &base);
    let phases = phase_instructions(&base);
    assert_eq!(
        phases.keys().collect::<Vec<_>>(),
        ["checksum", "main", "vocabulary", "word_count"]
    );
    // The checksum's loop is its bytes' work: a few instructions per byte
    // (unrolled), and a few around it; nothing frees or allocates.
    let checksum = phases["checksum"];
    assert!(
        (300_000..400_000).contains(&checksum),
        "checksum: {checksum}"
    );
    let funcs = report_json(&base, &["--phase", "checksum"]);
    let names: Vec<&str> = funcs["phases"][0]["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["function"].as_str().unwrap())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !n.contains("free") && !n.contains("alloc")),
        "{names:?}"
    );

    // 1% more bytes for the checksum: its phase alone changes, by 1%.
    let more_project = example_copy(&dir.join("more"), &|t| {
        assert!(t.contains("CHECKSUM_BYTES: usize = 100_000;"));
        t.replace(
            "CHECKSUM_BYTES: usize = 100_000;",
            "CHECKSUM_BYTES: usize = 101_000;",
        )
    });
    let more = dir.join("more.out");
    cargo_bench_under_pathvm(&more_project, &target, &more);
    let after = phase_instructions(&more);
    let change = (after["checksum"] - checksum) as f64 / checksum as f64;
    assert!((0.009..0.011).contains(&change), "{change}");
    for name in ["word_count", "vocabulary"] {
        assert_eq!(after[name], phases[name], "{name}");
    }
    // `check --phase '*'` with a 0.5% limit fails the checksum alone,
    // the markdown naming it on its first line.
    let check = |format: &str| {
        Command::new(pathvm())
            .args(["check", "--baseline"])
            .arg(&base)
            .arg(&more)
            .args(["--phase", "*", "--limit", "instructions:0.5%"])
            .args(["--format", format])
            .output()
            .unwrap()
    };
    let out = check("json");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        check_verdicts(&j),
        [
            ("main", "ok"),
            ("word_count", "ok"),
            ("checksum", "regressed"),
            ("vocabulary", "ok")
        ],
        "{j:#}"
    );
    let out = check("markdown");
    assert_eq!(out.status.code(), Some(1));
    let md = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        md.lines().next().unwrap(),
        format!(
            "### pathvm check FAILED: checksum instructions +{:.2}% (1 of 4 checks over their limits)",
            change * 100.0
        ),
        "{md}"
    );
}
