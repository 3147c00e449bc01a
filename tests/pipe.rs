//! The analyses on a second thread (`events::pipe`, the default when paths
//! or simulation are on) write the same profile as on the VM's thread
//! (`--single-thread`), byte for byte: every guest program, with forks
//! (whose children start the analyses' thread again), guest threads,
//! signals, markers and the simulations on or off.

use std::path::Path;

use crate::common::*;

/// Runs `program` both ways with `flags` and compares the guest's output
/// and every profile written (the parent's and, with `--trace-children`,
/// its children's).
fn same_files(dir: &Path, label: &str, flags: &[&str], program: &Path, args: &[&str]) {
    let one = [flags, &["--single-thread"]].concat();
    same_files_as(dir, label, &one, flags, program, args);
}

/// [`same_files`] with the flags of each run given: `one` for the first,
/// `two` for the second. Returns the second run.
fn same_files_as(
    dir: &Path,
    label: &str,
    one: &[&str],
    two: &[&str],
    program: &Path,
    args: &[&str],
) -> std::process::Output {
    let a = run_with(&dir.join(format!("{label}.one")), one, program, args);
    let b = run_with(&dir.join(format!("{label}.two")), two, program, args);
    assert_eq!(a.status.code(), b.status.code(), "{label}: exit status");
    assert_eq!(a.stdout, b.stdout, "{label}: guest output");
    let mut compared = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(suffix) = name.strip_prefix(&format!("{label}.one")) else {
            continue;
        };
        let x = std::fs::read(dir.join(&name)).unwrap();
        let y = std::fs::read(dir.join(format!("{label}.two{suffix}")))
            .unwrap_or_else(|e| panic!("{label}: no second profile {suffix}: {e}"));
        assert!(x == y, "{label}: profile {name} differs on two threads");
        compared += 1;
    }
    assert!(compared >= 1, "{label}: no profile written");
    b
}

#[test]
fn two_threads_write_the_profile_of_one() {
    let dir = scratch("pipe");
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("work", vec![]),
        ("except", vec![]),
        ("longjmp", vec![]),
        ("alloc", vec![]),
        ("allocxx", vec![]),
        ("cachetest", vec!["naive"]),
        ("sigalarm", vec![]),
        ("sigdeep", vec![]),
        ("sigfault", vec![]),
        ("crash", vec!["segv"]),
        ("threads", vec!["work"]),
        ("threads", vec!["contend"]),
        ("phases", vec!["300", "200"]),
        ("forkwait", vec![]),
    ];
    let modes: [&[&str]; 5] = [
        &[],
        &["--no-cache-sim"],
        &["--no-paths", "--no-branch-sim"],
        &["--trace-children", "--toggle-collect", "work*"],
        // Sparse events: reports logged by translated code, taken by the
        // pipe as they are.
        &["--no-paths", "--no-cache-sim", "--no-branch-sim"],
    ];
    for (name, args) in &runs {
        for variant in ["O0", "O2", "static"] {
            for (m, flags) in modes.iter().enumerate() {
                let prog = guest(&format!("{name}-{variant}"));
                let label = format!("{name}-{variant}-{}-{m}", args.join("_"));
                same_files(&dir, &label, flags, &prog, args);
            }
        }
    }
    // Stopped by the instruction limit mid-run.
    same_files(
        &dir,
        "spin",
        &["--max-instructions", "1000003"],
        &guest("spin-O2"),
        &[],
    );
}

#[test]
fn two_threads_write_the_profile_of_one_for_distribution_programs() {
    let dir = scratch("pipe-dist");
    let input = numbered_lines(&dir);
    same_files(
        &dir,
        "sort",
        &[],
        Path::new("/usr/bin/sort"),
        &["-n", &input],
    );
    same_files(
        &dir,
        "gzip",
        &[],
        Path::new("/usr/bin/gzip"),
        &["-c", &input],
    );
    same_files(
        &dir,
        "xz",
        &[],
        Path::new("/usr/bin/xz"),
        &["-T2", "-c", &input],
    );
    let sparse = ["--no-paths", "--no-cache-sim", "--no-branch-sim"];
    same_files(
        &dir,
        "sort-sparse",
        &sparse,
        Path::new("/usr/bin/sort"),
        &["-n", &input],
    );
    same_files(
        &dir,
        "xz-sparse",
        &sparse,
        Path::new("/usr/bin/xz"),
        &["-T2", "-c", &input],
    );
    same_files(
        &dir,
        "perl-sparse",
        &[&sparse[..], &["--no-cct"]].concat(),
        Path::new("/usr/bin/perl"),
        &[
            "-e",
            "my %h; $h{$_ % 97} .= 'x' for 1..20000; print scalar(keys %h), \"\\n\"",
        ],
    );
}

/// `--time-threads` (the analyses run after the VM's thread, from the kept
/// events) writes the same profiles, forks and guest threads included, and
/// says how long each thread took alone.
#[test]
fn threads_one_after_the_other_write_the_same_profile() {
    let dir = scratch("pipe-deferred");
    let runs: [(&str, &[&str], &[&str]); 4] = [
        ("work-O2", &[], &[]),
        ("threads-O2", &[], &["contend"]),
        ("sigalarm-O2", &[], &[]),
        ("forkwait-O2", &["--trace-children"], &[]),
    ];
    for (name, flags, args) in runs {
        let timed = [flags, &["--time-threads"]].concat();
        let b = same_files_as(&dir, name, flags, &timed, &guest(name), args);
        let err = String::from_utf8_lossy(&b.stderr);
        let line = err
            .lines()
            .find(|l| l.starts_with("pathvm: threads one after the other: VM "))
            .unwrap_or_else(|| panic!("{name}: no timing line in {err:?}"));
        let secs: Vec<f64> = line
            .split(' ')
            .filter_map(|w| w.parse::<f64>().ok())
            .collect();
        assert_eq!(secs.len(), 2, "{name}: {line}");
        assert!(secs.iter().all(|s| *s >= 0.0), "{name}: {line}");
    }
}
