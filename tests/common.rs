//! Shared helpers: building guest programs, running pathvm and natives.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The fixed guest environment of `pathvm run` (`vm::DEFAULT_ENV`): native
/// reference runs get the same one.
pub const GUEST_ENV: &[(&str, &str)] = &[
    ("PATH", "/usr/local/bin:/usr/bin:/bin"),
    ("HOME", "/"),
    ("LANG", "C"),
    ("TERM", "dumb"),
];

pub fn pathvm() -> &'static str {
    env!("CARGO_BIN_EXE_pathvm")
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// Directory of the built guest programs (built once per test run).
pub fn guests() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("guest-programs");
        let st = Command::new("sh")
            .arg(repo().join("guest-programs/build.sh"))
            .arg(&out)
            .status()
            .expect("run guest-programs/build.sh");
        assert!(st.success(), "guest-programs/build.sh failed");
        out
    })
}

pub fn guest(name: &str) -> PathBuf {
    guests().join(name)
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("scratch")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pathvm run -q -o PROFILE PROGRAM ARGS...` with stdin closed.
pub fn run_pathvm(profile: &Path, program: &Path, args: &[&str]) -> Output {
    Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(profile)
        .arg(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("start pathvm")
}

/// `pathvm run -q -o PROFILE [EXTRA...] PROGRAM ARGS...`, stdin closed.
pub fn run_with(profile: &Path, extra: &[&str], program: &Path, args: &[&str]) -> Output {
    Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(profile)
        .args(extra)
        .arg(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("start pathvm")
}

/// The program run natively with the guest environment.
pub fn run_native(program: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .env_clear()
        .envs(GUEST_ENV.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("start native program")
}

/// [`run_pathvm`], which must exit 0 (its stderr is shown when it does
/// not): its output.
pub fn run_ok(profile: &Path, program: &Path, args: &[&str]) -> Output {
    let out = run_pathvm(profile, program, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `pathvm ARGS...`, which must exit 0 (its stderr is shown when it does
/// not): its output.
pub fn pathvm_ok<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(pathvm())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("start pathvm");
    assert!(
        out.status.success(),
        "pathvm failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `pathvm export PROFILE --no-inline ARGS...` (physical functions only, as
/// valgrind has them), which must succeed: its stdout.
pub fn export(profile: &Path, args: &[&str]) -> Vec<u8> {
    let mut all = vec![OsStr::new("export"), profile.as_os_str()];
    all.push(OsStr::new("--no-inline"));
    all.extend(args.iter().map(OsStr::new));
    pathvm_ok(all).stdout
}

/// `pathvm report --format json --no-inline` of a profile, parsed.
pub fn report_json(profile: &Path, extra: &[&str]) -> serde_json::Value {
    report_files_json(&[profile.to_path_buf()], extra)
}

/// `pathvm report --format json --no-inline FILE...` (the files merged;
/// physical functions only, as valgrind has them), parsed.
pub fn report_files_json(files: &[PathBuf], extra: &[&str]) -> serde_json::Value {
    let mut all = vec![OsStr::new("report")];
    all.extend(files.iter().map(|f| f.as_os_str()));
    all.extend(["--format", "json", "--no-inline"].iter().map(OsStr::new));
    all.extend(extra.iter().map(OsStr::new));
    serde_json::from_slice(&pathvm_ok(all).stdout).expect("report JSON")
}

/// Self instructions per function name, from the JSON report.
pub fn self_counts(report: &serde_json::Value) -> std::collections::BTreeMap<String, u64> {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["function"].as_str().unwrap().to_string(),
                r["self"]["instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// cachegrind with pathvm's default cache geometry on `program ARG`, its
/// output file written as `dir/cg.ARG`: that file.
pub fn cachegrind(program: &Path, arg: &str, dir: &Path) -> PathBuf {
    let out = dir.join(format!("cg.{arg}"));
    let st = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=yes",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            "--LL=8388608,16,64",
        ])
        .arg(format!("--cachegrind-out-file={}", out.display()))
        .arg(program)
        .arg(arg)
        .output()
        .unwrap();
    assert!(st.status.success());
    out
}

/// Self counts per function from a cachegrind output file: for each event
/// named, the sum over the function's lines (its `fn=` blocks, of every
/// file: a line's counts are `line` then the events in order).
pub fn cachegrind_self(
    file: &std::path::Path,
    names: &[&str],
) -> std::collections::BTreeMap<String, Vec<u64>> {
    let text = std::fs::read_to_string(file).expect("read cachegrind's output");
    let events: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("events: "))
        .expect("cachegrind's events line")
        .split_whitespace()
        .collect();
    let cols: Vec<usize> = names
        .iter()
        .map(|n| events.iter().position(|e| e == n).expect("event") + 1)
        .collect();
    let mut m = std::collections::BTreeMap::new();
    let mut func = String::new();
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("fn=") {
            func = f.to_string();
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.first().is_some_and(|x| x.parse::<u64>().is_ok()) {
            let sums = m
                .entry(func.clone())
                .or_insert_with(|| vec![0; names.len()]);
            for (s, &c) in sums.iter_mut().zip(&cols) {
                *s += fields
                    .get(c)
                    .and_then(|x| x.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    m
}

/// pathvm's phases and their instructions.
pub fn phase_instructions(profile: &Path) -> std::collections::BTreeMap<String, u64> {
    let rep = report_json(profile, &["--phases"]);
    rep["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["phase"].as_str().unwrap().to_string(),
                p["totals"]["instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// (benchmark, status) of each check of `pathvm check --format json`'s
/// document, in its order.
pub fn check_verdicts(j: &serde_json::Value) -> Vec<(&str, &str)> {
    j["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["benchmark"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
            )
        })
        .collect()
}

/// A context of the `--by context` JSON report: (stack, calls, self
/// instructions, inclusive instructions).
pub type ContextRow = (Vec<String>, u64, u64, u64);

/// Every context of a profile, from `report --by context --format json`.
pub fn context_rows(profile: &Path) -> Vec<ContextRow> {
    let rep = report_json(profile, &["--by", "context"]);
    rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["stack"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
                r["calls"].as_u64().unwrap(),
                r["self"]["instructions"].as_u64().unwrap(),
                r["inclusive"]["instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The rows whose stack ends with `suffix`.
pub fn ending<'a>(rows: &'a [ContextRow], suffix: &[&str]) -> Vec<&'a ContextRow> {
    rows.iter()
        .filter(|r| r.0.len() >= suffix.len() && r.0[r.0.len() - suffix.len()..] == *suffix)
        .collect()
}

/// A text of 20,000 numbered lines in `dir` (input for the distribution
/// programs the tests run): its path.
pub fn numbered_lines(dir: &Path) -> String {
    let input = dir.join("input.txt");
    let text: String = (0..20000)
        .map(|i| format!("{} line {}\n", (i * 7919) % 10007, i))
        .collect();
    std::fs::write(&input, text).unwrap();
    input.display().to_string()
}

/// The exit status a native run gives, as `pathvm run` reports it (128+N for
/// a death by signal N).
pub fn native_status(out: &Output) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    out.status
        .code()
        .or_else(|| out.status.signal().map(|s| 128 + s))
}

/// Runs `program` natively and twice under pathvm (with `extra` options):
/// stdout and exit status as native, byte-identical profiles. Returns the
/// first run's profile and output.
pub fn as_native_twice(
    name: &str,
    extra: &[&str],
    program: &Path,
    args: &[&str],
) -> (PathBuf, Output) {
    let dir = scratch(name);
    let native = run_native(program, args);
    let mut profiles: Vec<PathBuf> = Vec::new();
    let mut first = None;
    for k in 0..2 {
        let profile = dir.join(format!("p{k}.out"));
        let vm = run_with(&profile, extra, program, args);
        assert_eq!(
            String::from_utf8_lossy(&vm.stdout),
            String::from_utf8_lossy(&native.stdout),
            "stdout of {}; pathvm stderr: {}",
            program.display(),
            String::from_utf8_lossy(&vm.stderr)
        );
        assert_eq!(
            vm.status.code(),
            native_status(&native),
            "exit status of {}; pathvm stderr: {}",
            program.display(),
            String::from_utf8_lossy(&vm.stderr)
        );
        profiles.push(profile);
        first.get_or_insert(vm);
    }
    assert_eq!(
        std::fs::read(&profiles[0]).unwrap(),
        std::fs::read(&profiles[1]).unwrap(),
        "two runs of {} gave different profiles",
        program.display()
    );
    (profiles.swap_remove(0), first.unwrap())
}

/// `name` on the guest's PATH (a program of the machine), if installed.
pub fn which(name: &str) -> Option<PathBuf> {
    ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}
