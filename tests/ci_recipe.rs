//! The CI recipes of docs/ci.md, run as written: the baseline commands of
//! "A recipe", the GitHub Actions job's `run` steps and the GitLab CI job's
//! script, on a copy of `examples/bench`. What only the CI services have is
//! stubbed on PATH (`cargo install`, `apt-get`, `git clone`, and the `gh`
//! and `curl` that post the markdown, which keep what they were given);
//! `uses:` steps are skipped (the project is already there). The YAML is
//! read with python3's PyYAML (the test skips without it).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bench_crate::example_copy;
use crate::common::*;

/// The fenced blocks of language `lang` in the section of `md` that starts
/// with the line `heading` (up to the next `## ` heading).
fn blocks(md: &str, heading: &str, lang: &str) -> Vec<String> {
    let mut lines = md.lines().skip_while(|l| *l != heading);
    assert!(lines.next().is_some(), "docs/ci.md has no `{heading}`");
    let fence = format!("```{lang}");
    let (mut out, mut cur) = (Vec::new(), None::<String>);
    for l in lines.take_while(|l| !l.starts_with("## ")) {
        match &mut cur {
            None if l == fence => cur = Some(String::new()),
            Some(b) if l == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(l);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

/// The one block of `lang` under `heading`.
fn block(md: &str, heading: &str, lang: &str) -> String {
    let mut b = blocks(md, heading, lang);
    assert_eq!(b.len(), 1, "{heading}: one ```{lang} block");
    b.pop().unwrap()
}

/// YAML as JSON, by python3's PyYAML; `None` when it is not installed.
fn yaml(text: &str) -> Option<serde_json::Value> {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import json, sys\ntry:\n    import yaml\nexcept ImportError:\n    sys.exit(3)\n\
             print(json.dumps(yaml.safe_load(sys.stdin)))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.code() == Some(3) {
        return None;
    }
    assert!(
        out.status.success(),
        "YAML: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// Programs on PATH in place of the CI services' parts, each logging its
/// command line to `log/commands`.
fn stubs(dir: &Path, log: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(log).unwrap();
    let logged = |name: &str, rest: &str| {
        let text = format!("#!/bin/sh\necho \"{name} $*\" >> \"$STUB_LOG/commands\"\n{rest}\n");
        let path = bin.join(name);
        std::fs::write(&path, text).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    // Installing pathvm: it is on PATH already. Anything else is cargo.
    logged(
        "cargo",
        &format!(
            "[ \"$1\" = install ] && exit 0\nexec \"{}\" \"$@\"",
            env!("CARGO")
        ),
    );
    logged("apt-get", "exit 0");
    logged("git", "[ \"$1\" = clone ]");
    logged(
        "gh",
        "while [ $# -gt 0 ]; do\n  [ \"$1\" = --body-file ] && cp \"$2\" \"$STUB_LOG/gh-body.md\"\n  shift\ndone",
    );
    logged(
        "curl",
        "for a in \"$@\"; do\n  case $a in body@*) cp \"${a#body@}\" \"$STUB_LOG/curl-body.md\";; esac\ndone",
    );
    std::os::unix::fs::symlink(pathvm(), bin.join("pathvm")).unwrap();
    bin
}

/// A shell as the CI services run a script: bash, stopping at the first
/// failing command (and pipe), in the project, with the stubs first on
/// PATH, `cargo` offline and its target directory shared between runs.
fn shell(project: &Path, bin: &Path, log: &Path, script: &str) -> Command {
    let mut c = Command::new("bash");
    c.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(project)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("STUB_LOG", log)
        .env("CARGO_NET_OFFLINE", "true")
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("ci-recipe-target"),
        );
    c
}

/// Runs the GitHub Actions job's steps in order, as the runner does: a step
/// after a failed one runs only when its `if` starts with `always()`; the
/// `${{ }}` expressions the job uses are given values (any other fails the
/// test). Returns the job's status (its first failing step's) and the
/// names of the steps run.
fn github_job(
    job: &serde_json::Value,
    project: &Path,
    bin: &Path,
    log: &Path,
) -> (i32, Vec<String>) {
    let expressions = [
        ("${{ github.token }}", "stub-token"),
        ("${{ github.event.pull_request.number }}", "7"),
    ];
    let summary = log.join("summary.md");
    let (mut status, mut ran) = (0, Vec::new());
    for step in job["steps"].as_array().unwrap() {
        if let Some(uses) = step["uses"].as_str() {
            assert!(
                uses.starts_with("actions/checkout@")
                    || uses.starts_with("actions/upload-artifact@"),
                "{uses}"
            );
            continue;
        }
        let run = step["run"].as_str().expect("a step runs or uses");
        assert!(!run.contains("${{"), "{run}");
        if status != 0 && !step["if"].as_str().unwrap_or("").starts_with("always()") {
            continue;
        }
        let mut c = shell(project, bin, log, run);
        c.env("GITHUB_STEP_SUMMARY", &summary);
        for (k, v) in step["env"].as_object().into_iter().flatten() {
            let mut v = v.as_str().unwrap().to_string();
            for (e, value) in expressions {
                v = v.replace(e, value);
            }
            assert!(!v.contains("${{"), "{k}: {v}");
            c.env(k, v);
        }
        let out = c.output().unwrap();
        let name = step["name"].as_str().unwrap_or(run).to_string();
        eprintln!(
            "step `{name}`: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if status == 0 {
            status = out.status.code().unwrap_or(-1);
        }
        ran.push(name);
    }
    (status, ran)
}

#[test]
fn the_ci_recipes_run_as_documented() {
    let md = std::fs::read_to_string(repo().join("docs/ci.md")).unwrap();
    let limits = block(&md, "## A recipe", "toml");
    let baseline = block(&md, "## A recipe", "sh");
    let Some(github) = yaml(&block(&md, "## GitHub Actions", "yaml")) else {
        eprintln!("skipped: python3's yaml module (PyYAML) is not installed");
        return;
    };
    let gitlab = yaml(&block(&md, "## GitLab CI", "yaml")).unwrap();

    let dir = scratch("ci-recipe");
    let log = dir.join("log");
    let bin = stubs(&dir, &log);
    let project = example_copy(&dir, &|t| t);
    // What the project commits: the limits and the baseline, made by the
    // documented command.
    std::fs::create_dir_all(project.join("perf")).unwrap();
    std::fs::write(project.join("perf/limits.toml"), limits).unwrap();
    let out = shell(&project, &bin, &log, &baseline).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let base = phase_instructions(&project.join("perf/bench.out"));
    assert_eq!(
        base.keys().collect::<Vec<_>>(),
        ["checksum", "main", "vocabulary", "word_count"]
    );

    // GitHub, nothing changed: every step passes, the summary and the
    // comment are the check's markdown.
    let (status, ran) = github_job(&github["jobs"]["perf"], &project, &bin, &log);
    assert_eq!(status, 0, "{ran:?}");
    assert_eq!(ran.len(), 4, "{ran:?}");
    let summary = std::fs::read_to_string(log.join("summary.md")).unwrap();
    assert!(
        summary.starts_with("### pathvm check passed: "),
        "{summary}"
    );
    assert_eq!(
        std::fs::read_to_string(log.join("gh-body.md")).unwrap(),
        summary
    );
    let commands = std::fs::read_to_string(log.join("commands")).unwrap();
    assert!(
        commands.contains("cargo install --locked --path tools/pathvm/pathvm\n")
            && commands.contains("gh pr comment 7 --body-file check.md\n"),
        "{commands}"
    );
    assert_eq!(phase_instructions(&project.join("bench.out")), base);

    // GitLab, the checksum reads 1% more bytes: the job fails, and the
    // note posted first names the checksum.
    let bench = project.join("benches/textstats.rs");
    let text = std::fs::read_to_string(&bench).unwrap();
    assert!(text.contains("CHECKSUM_BYTES: usize = 100_000;"));
    std::fs::write(
        &bench,
        text.replace(
            "CHECKSUM_BYTES: usize = 100_000;",
            "CHECKSUM_BYTES: usize = 101_000;",
        ),
    )
    .unwrap();
    let job = &gitlab["perf"];
    let script: Vec<&str> = ["before_script", "script"]
        .iter()
        .flat_map(|k| job[k].as_array().unwrap())
        .map(|l| l.as_str().unwrap())
        .collect();
    let out = shell(&project, &bin, &log, &script.join("\n"))
        .env("CI_PROJECT_DIR", &project)
        .env("CI_API_V4_URL", "https://gitlab.example/api/v4")
        .env("CI_PROJECT_ID", "42")
        .env("CI_MERGE_REQUEST_IID", "7")
        .env("PERF_NOTES_TOKEN", "stub-token")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = phase_instructions(&project.join("bench.out"));
    let grown = after["checksum"] - base["checksum"];
    let pct = grown as f64 * 100.0 / base["checksum"] as f64;
    let note = std::fs::read_to_string(log.join("curl-body.md")).unwrap();
    assert_eq!(
        note.lines().next().unwrap(),
        format!(
            "### pathvm check FAILED: checksum instructions +{pct:.2}% (1 of 4 checks over their limits)"
        ),
        "{note}"
    );
    let commands = std::fs::read_to_string(log.join("commands")).unwrap();
    let posted = commands
        .lines()
        .find(|l| l.starts_with("curl "))
        .expect("the note was posted");
    assert!(
        posted.contains("--header PRIVATE-TOKEN: stub-token ")
            && posted
                .ends_with(" https://gitlab.example/api/v4/projects/42/merge_requests/7/notes"),
        "{posted}"
    );
    assert!(
        commands.contains("apt-get install -y -qq cmake pkg-config\n")
            && commands.contains("git clone --depth 1 "),
        "{commands}"
    );
}
