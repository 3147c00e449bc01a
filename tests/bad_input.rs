//! Every bad input gets a one-line error and its exit status; nothing panics.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};

use crate::common::*;

fn pathvm_run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(pathvm())
        .args(["run", "-q", "-o", "/dev/null"])
        .args(args)
        .output()
        .unwrap()
}

fn one_line_error(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.lines().count(), 1, "expected one line, got: {err}");
    assert!(err.starts_with("pathvm: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn missing_program_is_127() {
    let out = pathvm_run(&["/nonexistent/program".as_ref()]);
    assert_eq!(out.status.code(), Some(127));
    assert!(one_line_error(&out).contains("no such file"));
}

#[test]
fn unsupported_files_are_126() {
    let dir = scratch("bad-input");
    let text = dir.join("text");
    // (A `#!` script runs its interpreter: tests/process.rs.)
    std::fs::write(&text, "echo hi\n").unwrap();
    std::fs::set_permissions(&text, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = pathvm_run(&[text.as_os_str()]);
    assert_eq!(out.status.code(), Some(126));
    assert!(one_line_error(&out).contains("not an ELF"));

    let elf = std::fs::read(guest("hello-O2")).unwrap();
    let mut b32 = elf.clone();
    b32[4] = 1; // ELFCLASS32
    let f32 = dir.join("elf32");
    std::fs::write(&f32, &b32).unwrap();
    let out = pathvm_run(&[f32.as_os_str()]);
    assert_eq!(out.status.code(), Some(126));
    assert!(one_line_error(&out).contains("32-bit"));

    let mut arm = elf.clone();
    arm[18] = 183; // EM_AARCH64
    arm[19] = 0;
    let farm = dir.join("aarch64");
    std::fs::write(&farm, &arm).unwrap();
    let out = pathvm_run(&[farm.as_os_str()]);
    assert_eq!(out.status.code(), Some(126));
    assert!(one_line_error(&out).contains("not x86-64"));

    for cut in [10, 63, 100, 300, 2000] {
        let t = dir.join(format!("trunc{cut}"));
        std::fs::write(&t, &elf[..cut]).unwrap();
        let out = pathvm_run(&[t.as_os_str()]);
        assert_eq!(out.status.code(), Some(126), "cut at {cut}");
        one_line_error(&out);
    }

    // A missing interpreter.
    let mut interp = elf.clone();
    let pos = interp
        .windows(10)
        .position(|w| w == b"/lib64/ld-")
        .expect("PT_INTERP string");
    interp[pos + 1] = b'X';
    let fi = dir.join("badinterp");
    std::fs::write(&fi, &interp).unwrap();
    let out = pathvm_run(&[fi.as_os_str()]);
    assert_eq!(out.status.code(), Some(126));
    assert!(one_line_error(&out).contains("interpreter"));

    let noexec = dir.join("noexec");
    std::fs::write(&noexec, "x").unwrap();
    std::fs::set_permissions(&noexec, std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = pathvm_run(&[noexec.as_os_str()]);
    // root can read anything: then it is "not an ELF file", still 126.
    assert_eq!(out.status.code(), Some(126));
    one_line_error(&out);

    let out = pathvm_run(&[dir.as_os_str()]);
    assert_eq!(out.status.code(), Some(126));
    one_line_error(&out);
}

#[test]
fn guest_crash_names_signal_and_place() {
    let dir = scratch("crash");
    let out = run_pathvm(&dir.join("p.out"), &guest("crash-O0"), &["segv"]);
    assert_eq!(out.status.code(), Some(128 + 11));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("SIGSEGV") && err.contains("fault address 0x0") && err.contains("poke"),
        "{err}"
    );
    assert!(err.contains("crash.c:"), "{err}");
    let out = run_pathvm(&dir.join("p.out"), &guest("crash-O0"), &["fpe"]);
    assert_eq!(out.status.code(), Some(128 + 8));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("SIGFPE") && err.contains("divide"), "{err}");
    // The profile is still written.
    assert!(
        report_json(&dir.join("p.out"), &[])["totals"]["instructions"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[test]
fn corrupt_profiles_are_rejected() {
    let dir = scratch("corrupt");
    let good = dir.join("good.out");
    assert!(run_pathvm(&good, &guest("count"), &[]).status.code() == Some(7));
    let bytes = std::fs::read(&good).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("garbage", b"this is not a profile at all".to_vec()),
        ("flipped", {
            let mut b = bytes.clone();
            let n = b.len();
            b[n / 2] ^= 0x55;
            b
        }),
    ];
    for (name, b) in cases {
        let f = dir.join(name);
        std::fs::write(&f, b).unwrap();
        let out = Command::new(pathvm())
            .arg("report")
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        one_line_error(&out);
    }
    let out = Command::new(pathvm())
        .arg("report")
        .arg(dir.join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    one_line_error(&out);
}

#[test]
fn unknown_syscall_warns_or_stops() {
    // `--strict-syscalls` turns the warning into a stop with status 125.
    let dir = scratch("strict");
    let src = dir.join("sys.c");
    std::fs::write(&src, "#include <unistd.h>\n#include <sys/syscall.h>\nint main(){return syscall(999) == -1 ? 0 : 1;}\n")
        .unwrap();
    let bin = dir.join("sys");
    assert!(Command::new("gcc")
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .status()
        .unwrap()
        .success());
    let out = run_pathvm(&dir.join("p.out"), &bin, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported system call"));
    let out = Command::new(pathvm())
        .args(["run", "-q", "--strict-syscalls", "-o"])
        .arg(dir.join("p.out"))
        .arg(&bin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125));
    one_line_error(&out);
}

#[test]
fn sigterm_and_sigint_stop_the_guest_and_keep_the_profile() {
    let dir = scratch("interrupt");
    for (sig, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let profile = dir.join(format!("p{sig}.out"));
        let mut child = Command::new(pathvm())
            .args(["run", "-q", "-o"])
            .arg(&profile)
            .arg(guest("spin-O2"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Once the guest runs (it says so), however slow loading was.
        let mut first = String::new();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
        assert_eq!(first, "spinning\n");
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, sig) };
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(status),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        let rep = report_json(&profile, &[]);
        let spin = self_counts(&rep)["spin"];
        assert!(spin > 1000, "spin ran {spin} instructions");
    }
}

/// SIGTERM and SIGINT while pathvm loads the program end it at once: one
/// line, 143 or 130, no profile. The program here is a FIFO nobody writes,
/// so loading blocks in its `open` (as a slow file system would hold it).
#[test]
fn sigterm_and_sigint_while_loading_end_pathvm_at_once() {
    let dir = scratch("interrupt-loading");
    let fifo = dir.join("program");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o755) }, 0);
    for (sig, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let profile = dir.join(format!("p{sig}.out"));
        let child = Command::new(pathvm())
            .args(["run", "-q", "-o"])
            .arg(&profile)
            .arg(&fifo)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Until it waits in openat (257) of the FIFO.
        let syscall = format!("/proc/{}/syscall", child.id());
        while !std::fs::read_to_string(&syscall).is_ok_and(|s| s.starts_with("257 ")) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as i32, sig) };
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("while loading"), "{err}");
        assert!(!profile.exists(), "a profile was left");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "files left besides the FIFO: {left:?}");
    }
}

#[test]
fn unwritable_output_is_found_before_the_guest_runs() {
    let dir = scratch("bad-output");
    let out = Command::new(pathvm())
        .arg("run")
        .arg("-q")
        .arg("-o")
        .arg(dir.join("no/such/dir/p.out"))
        .arg(guest("hello-O2"))
        .arg("visible")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125));
    assert!(one_line_error(&out).contains("cannot write profile"));
    assert!(out.stdout.is_empty(), "the guest ran: {:?}", out.stdout);
}

#[test]
fn output_to_a_device_or_through_a_link_keeps_it() {
    use std::os::unix::fs::FileTypeExt;
    let null = std::path::Path::new("/dev/null");
    if !std::fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
        eprintln!("skipped: /dev/null is not a character device here");
        return;
    }
    let out = Command::new(pathvm())
        .args(["run", "-q", "-o", "/dev/null"])
        .arg(guest("hello-O2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "hello exits 3");
    assert!(std::fs::metadata(null)
        .unwrap()
        .file_type()
        .is_char_device());
    let dir = scratch("output-link");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let link = dir.join("link.out");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("real/p.out", &link).unwrap();
    let out = Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(&link)
        .arg(guest("hello-O2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "hello exits 3");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::metadata(dir.join("real/p.out")).unwrap().len() > 0);
}

#[test]
fn the_instruction_limit_has_its_own_status_and_keeps_the_profile() {
    let dir = scratch("limit-status");
    let out = Command::new(pathvm())
        .arg("run")
        .arg("-q")
        .arg("-o")
        .arg(dir.join("p.out"))
        .args(["--max-instructions", "100000", "--json-summary"])
        .arg(dir.join("s.json"))
        .arg(guest("spin-O2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(124));
    let err = one_line_error(&out);
    assert!(
        err.contains("stopped at --max-instructions after 1000"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("s.json")).unwrap();
    assert!(
        summary.contains("stopped at the instruction limit"),
        "{summary}"
    );
}

/// Options clap refuses and values out of range: one line, status 2, for
/// every command; help and version as clap prints them, status 0.
#[test]
fn usage_errors_are_one_line() {
    let dir = scratch("usage");
    let prof = dir.join("p.out");
    assert_eq!(
        run_pathvm(&prof, &guest("count"), &[]).status.code(),
        Some(7)
    );
    let p = prof.to_str().unwrap();
    let html = dir.join("v.html");
    let h = html.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["bogus"], "unrecognized subcommand"),
        (&["run"], "required arguments"),
        (&["run", "--cpu", "foo", "x"], "unknown CPU model"),
        (&["report", p, "--bogus"], "unexpected argument '--bogus'"),
        (&["report", p, "--by", "nothing"], "possible values"),
        (
            &["report", p, "--by", "path", "--threshold", "150"],
            "0 to 100",
        ),
        (&["view", p, "-o", h, "--threshold", "150"], "0 to 100"),
        (&["view", p, "-o", h, "--threshold=-1"], "0 to 100"),
        (&["view", p, "-o", h, "--threshold", "-1"], "'-1'"),
        (&["view", p, "-o", h, "--max-contexts", "0"], "at least 1"),
        (
            &["view", p, "-o", h, "--source-dir", "/nonexistent"],
            "no such directory",
        ),
    ];
    for (args, says) in cases {
        let out = Command::new(pathvm()).args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = one_line_error(&out);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!html.exists(), "no page is written for a refused option");
    for args in [&["--help"][..], &["--version"], &["view", "--help"]] {
        let out = Command::new(pathvm()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
    }
}

/// A report option that the chosen view does not read is an error (status
/// 2, one line naming the option and the view), never silently ignored;
/// the same options are accepted by the views that read them.
#[test]
fn report_options_that_do_not_apply_are_errors() {
    let dir = scratch("bad-input-options");
    let profile = dir.join("p.out");
    run_pathvm(&profile, &guest("fig1-O2"), &[]);
    let report = |args: &[&str]| {
        Command::new(pathvm())
            .arg("report")
            .arg(&profile)
            .args(args)
            .output()
            .unwrap()
    };
    for (args, says) in [
        (
            &["--by", "line", "--function", "main"][..],
            "--function does not apply to --by line",
        ),
        (
            &["--by", "path", "--metric", "instructions,loads"][..],
            "--by path ranks paths by one metric",
        ),
        (
            &["--depth", "3"][..],
            "--depth does not apply to --by function",
        ),
        (
            &["--by", "instruction", "--focus", "main"][..],
            "--focus does not apply to --by instruction",
        ),
        (
            &["--by", "block", "--threshold", "5"][..],
            "--threshold does not apply to --by block",
        ),
        (
            &["--phases", "--context"][..],
            "--context does not apply to --phases",
        ),
        (
            &["--by", "line", "--width", "80"][..],
            "--width does not apply to --by line",
        ),
        (
            &["--stats", "--by", "line"][..],
            "--by line does not apply to --stats",
        ),
        (
            &["--hot-summary", "--by", "function"][..],
            "--by function does not apply to --hot-summary",
        ),
        (
            &["--stats", "--top", "3"][..],
            "--top does not apply to --stats",
        ),
        (
            &["--path", "0", "--function", "c", "--metric", "loads"][..],
            "--metric does not apply to --path",
        ),
        (
            &["--phases", "--by", "context"][..],
            "--by context does not apply to --phases",
        ),
    ] {
        let out = report(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = one_line_error(&out);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    for args in [
        &["--by", "path", "--function", "main", "--context"][..],
        &["--by", "callpath", "--depth", "3", "--width", "80"][..],
        &["--by", "context", "--focus", "main", "--threshold", "1"][..],
        &["--by", "caller", "--path-contains", "main"][..],
        &["--stats", "--by", "path"][..],
        &["--hot-summary", "--by", "path", "--metric", "instructions"][..],
        &["--phases", "--top", "3"][..],
    ] {
        let out = report(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
