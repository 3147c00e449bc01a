//! The guest sees its own process: `/proc/self` (every spelling), its
//! descriptors without pathvm's, its standard descriptors the same wherever
//! they go. Compared with native runs of the same programs.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::*;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `procself MODE` natively (descriptor limit 1024, as the guest's) and
/// under pathvm: the same stdout and exit status.
fn same_as_native(name: &str, program: &Path, args: &[&str]) -> String {
    let dir = scratch(name);
    let vm = run_pathvm(&dir.join("p.out"), program, args);
    let mut sh_args = vec!["-c", "ulimit -n 1024; exec \"$0\" \"$@\""];
    let prog = program.display().to_string();
    sh_args.push(&prog);
    sh_args.extend_from_slice(args);
    let native = Command::new("sh")
        .args(&sh_args)
        .env_clear()
        .envs(GUEST_ENV.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        text(&vm.stdout),
        text(&native.stdout),
        "{name}: stdout under pathvm (left) and natively; pathvm stderr: {}",
        text(&vm.stderr)
    );
    assert_eq!(
        vm.status.code(),
        native.status.code(),
        "{name}: exit status"
    );
    text(&vm.stdout)
}

#[test]
fn proc_self_under_every_spelling_matches_native() {
    for v in ["O2", "static"] {
        let p = guest(&format!("procself-{v}"));
        let out = same_as_native(&format!("proc-{v}"), &p, &["proc"]);
        assert!(!out.contains("WRONG"), "{out}");
        assert!(out.contains("maps through a symlink: ok"), "{out}");
        assert!(out.contains("fd/: 0 1 2 3 4 5"), "{out}");
    }
    // Run through a symbolic link: /proc/self/exe is the resolved program.
    let dir = scratch("proc-link");
    let link = dir.join("linked-procself");
    std::os::unix::fs::symlink(guest("procself-O2"), &link).unwrap();
    let out = same_as_native("proc-link-run", &link, &["proc"]);
    assert!(out.contains("exe resolved: ok"), "{out}");
}

#[test]
fn proc_self_mem_reads_and_writes_guest_memory() {
    let out = same_as_native("mem", &guest("procself-O2"), &["mem"]);
    assert!(out.contains("target: the QUICK brown fox"), "{out}");
    assert!(out.contains("unmapped: -1 EIO"), "{out}");
}

#[test]
fn pathvm_descriptors_are_out_of_reach() {
    // The guest tries every descriptor from 1024 on, then closes all of
    // them with close_range (stderr included): pathvm still reports.
    same_as_native("fds", &guest("procself-O2"), &["fds"]);
    let dir = scratch("fds-report");
    let out = Command::new(pathvm())
        .args(["run", "-o"])
        .arg(dir.join("p.out"))
        .arg(guest("procself-O2"))
        .arg("fds")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stderr).contains("pathvm: exited with status 3"),
        "pathvm's stderr: {}",
        text(&out.stderr)
    );
}

#[test]
fn pathvm_own_proc_is_hidden() {
    // pathvm's host pid is $$ of the shell that execs it.
    let dir = scratch("own-proc");
    for file in ["maps", "mem", "status", "exe"] {
        let out = Command::new("sh")
            .args([
                "-c",
                &format!("exec \"$0\" run -q -o \"$1\" \"$2\" open /proc/$$/{file}"),
            ])
            .arg(pathvm())
            .arg(dir.join("p.out"))
            .arg(guest("procself-O2"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(text(&out.stdout), "ENOENT\n", "/proc/<pathvm's pid>/{file}");
    }
    // The guest's virtual pid is not a host process's.
    let out = run_pathvm(
        &dir.join("p.out"),
        &guest("procself-O2"),
        &["open", "/proc/1001/maps"],
    );
    assert_eq!(text(&out.stdout), "ENOENT\n");
}

#[test]
fn distribution_programs_see_the_guest_process() {
    let dir = scratch("proc-dist");
    let out = run_pathvm(
        &dir.join("p.out"),
        Path::new("/bin/cat"),
        &["/proc/self/status"],
    );
    let status = text(&out.stdout);
    for line in [
        "Name:\tcat\n",
        "Pid:\t1000\n",
        "Tgid:\t1000\n",
        "PPid:\t999\n",
        "Threads:\t1\n",
    ] {
        assert!(status.contains(line), "{line:?} missing from {status}");
    }
    // Field by field against the native run: the same keys in order.
    let native = run_native(Path::new("/bin/cat"), &["/proc/self/status"]);
    let keys = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.split(':').next())
            .map(str::to_string)
            .filter(|k| {
                !matches!(
                    k.as_str(),
                    "Kthread" | "untag_mask" | "x86_Thread_features" | "x86_Thread_features_locked"
                )
            })
            .collect()
    };
    let (kv, kn) = (keys(&status), keys(&text(&native.stdout)));
    for k in &kv {
        assert!(kn.contains(k), "status key {k} is not Linux's: {kn:?}");
    }
    for (prog, args) in [
        ("/usr/bin/readlink", &["/proc/self/exe"][..]),
        ("/bin/ls", &["/proc/self/fd"][..]),
    ] {
        let vm = run_pathvm(&dir.join("p.out"), Path::new(prog), args);
        let native = run_native(Path::new(prog), args);
        assert_eq!(text(&vm.stdout), text(&native.stdout), "{prog} {args:?}");
    }
}

/// Run `pathvm run [extra] procself tty OUT` with stdout and stderr sent
/// `how` (file, pipe, pty); returns the report and what the guest saw.
fn tty_run(dir: &Path, how: &str, extra: &[&str]) -> (String, String) {
    let prof = dir.join("p.out");
    let seen = dir.join("seen.txt");
    let mut cmd = vec![pathvm().to_string(), "run".into(), "-q".into(), "-o".into()];
    cmd.push(prof.display().to_string());
    cmd.extend(extra.iter().map(|s| s.to_string()));
    cmd.push(guest("procself-O2").display().to_string());
    cmd.push("tty".into());
    cmd.push(seen.display().to_string());
    let status = match how {
        "file" => {
            let f = std::fs::File::create(dir.join("stdout.txt")).unwrap();
            Command::new(&cmd[0])
                .args(&cmd[1..])
                .stdin(Stdio::null())
                .stdout(f.try_clone().unwrap())
                .stderr(f)
                .status()
                .unwrap()
        }
        "pipe" => {
            Command::new(&cmd[0])
                .args(&cmd[1..])
                .stdin(Stdio::piped())
                .output()
                .unwrap()
                .status
        }
        _ => Command::new("python3")
            .args([
                "-c",
                "import os,subprocess,sys\n\
                 m,s=os.openpty()\n\
                 sys.exit(subprocess.run(sys.argv[1:],stdin=s,stdout=s,stderr=s).returncode)",
            ])
            .args(&cmd)
            .status()
            .unwrap(),
    };
    assert!(status.success(), "{how}: {status:?}");
    let rep = Command::new(pathvm())
        .args(["report", "--format", "json"])
        .arg(&prof)
        .output()
        .unwrap();
    (text(&rep.stdout), std::fs::read_to_string(&seen).unwrap())
}

#[test]
fn standard_descriptors_do_not_depend_on_the_host() {
    if !have("python3") {
        eprintln!("skipped: python3 (for a pseudo-terminal) is not installed");
        return;
    }
    let dir = scratch("tty-default");
    let (file, seen) = tty_run(&dir, "file", &[]);
    assert_eq!(
        seen,
        (0..3)
            .map(|fd| format!(
                "fd {fd}: isatty 0, fifo, tcgetattr -1, winsize fails 0x0, ttyname none, F_GETFL {}\n",
                (fd > 0) as i32
            ))
            .collect::<String>()
    );
    for how in ["pipe", "pty"] {
        let (rep, seen2) = tty_run(&dir, how, &[]);
        assert_eq!(seen, seen2, "what the guest saw with stdout to a {how}");
        assert!(
            rep == file,
            "the profile with stdout to a {how} differs from a file's"
        );
    }
    let (t_file, seen) = tty_run(&dir, "file", &["--tty"]);
    assert_eq!(
        seen,
        (0..3)
            .map(|fd| format!(
                "fd {fd}: isatty 1, chr, tcgetattr 0, winsize ok 80x24, ttyname /dev/pts/0, F_GETFL 2\n"
            ))
            .collect::<String>()
    );
    let (t_pty, _) = tty_run(&dir, "pty", &["--tty"]);
    assert!(
        t_file == t_pty,
        "--tty: the profile depends on where stdout goes"
    );
    assert!(t_file != file, "--tty changes what the guest runs");
}

#[test]
fn programs_are_found_on_path_and_scripts_run_their_interpreter() {
    let dir = scratch("path-and-scripts");
    let prof = dir.join("p.out");
    // On PATH, as a shell finds it.
    let out = run_pathvm(&prof, Path::new("sh"), &["-c", "echo found; exit 7"]);
    assert_eq!(text(&out.stdout), "found\n");
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    let out = run_pathvm(&prof, Path::new("no-such-command-for-pathvm"), &[]);
    assert_eq!(out.status.code(), Some(127));
    assert_eq!(
        text(&out.stderr),
        "pathvm: no-such-command-for-pathvm: command not found\n"
    );
    // A `#!` script: the interpreter under the VM, with the kernel's argv.
    let script = dir.join("script.sh");
    std::fs::write(
        &script,
        "#!/bin/sh -e\necho \"$0|$1|$2\"\ncat /proc/self/comm\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let vm = Command::new(pathvm())
        .args(["run", "-q", "-o"])
        .arg(&prof)
        .args(["./script.sh", "a b", "c"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let native = Command::new("./script.sh")
        .args(["a b", "c"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    // comm is the script's name natively (the kernel names the process
    // after the file execve was given); under pathvm the interpreter runs.
    let (v, n) = (text(&vm.stdout), text(&native.stdout));
    assert_eq!(
        v.lines().next(),
        n.lines().next(),
        "pathvm stderr: {}",
        text(&vm.stderr)
    );
    assert_eq!(vm.status.code(), Some(0));
    let rep = report_json(&prof, &[]);
    let objects: Vec<&str> = rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["object"].as_str().unwrap_or(""))
        .collect();
    assert!(
        objects
            .iter()
            .any(|o| o.ends_with("sh") || o.ends_with("dash")),
        "the interpreter ran under the VM: {objects:?}"
    );
    // A script whose interpreter is missing: 127, one line.
    let bad = dir.join("bad.sh");
    std::fs::write(&bad, "#!/no/such/interpreter\n").unwrap();
    std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run_pathvm(&prof, &bad, &[]);
    assert_eq!(out.status.code(), Some(127));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn paths_with_control_characters_are_printed_escaped() {
    let dir = scratch("escaped");
    let prof = dir.join("p.out");
    // An interpreter path holding a newline and an escape sequence.
    let mut elf = std::fs::read(guest("hello-O2")).unwrap();
    let interp = b"/lib64/ld-linux-x86-64.so.2";
    let at = elf
        .windows(interp.len())
        .position(|w| w == interp)
        .expect("PT_INTERP");
    elf[at + 6] = b'\n';
    elf[at + 7] = 0x1b;
    let prog = dir.join("badinterp");
    std::fs::write(&prog, &elf).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run_pathvm(&prof, &prog, &[]);
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/lib64\\n\\x1bd-linux"), "{err}");
    // A program path holding them.
    let out = run_pathvm(&prof, &dir.join("no\nsuch\x1b[31mfile"), &[]);
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no\\nsuch\\x1b[31mfile"), "{err}");
    assert_eq!(out.status.code(), Some(127));
}

#[test]
fn signals_reach_no_host_process_outside_the_guest() {
    // The test process exists on the host; for the guest it does not.
    let me = std::process::id().to_string();
    let dir = scratch("kill");
    let script = format!("kill -0 {me} 2>/dev/null; echo other $?; kill -0 $$; echo self $?");
    let out = run_pathvm(&dir.join("p.out"), Path::new("/bin/sh"), &["-c", &script]);
    assert_eq!(
        text(&out.stdout),
        "other 1\nself 0\n",
        "{}",
        text(&out.stderr)
    );
    let native = run_native(Path::new("/bin/sh"), &["-c", &script]);
    assert_eq!(text(&native.stdout), "other 0\nself 0\n");
}

#[test]
fn exec_d_programs_never_act_on_virtual_pids() {
    // `/bin/kill` exec'd by the guest's shell runs under pathvm too: the
    // test process, which exists on the host, does not exist for it.
    let me = std::process::id().to_string();
    let dir = scratch("exec-kill");
    let script =
        format!("/bin/kill -0 {me} 2>/dev/null; echo kill $?; echo $$; exec sh -c 'echo $$'");
    let out = run_pathvm(&dir.join("p.out"), Path::new("/bin/sh"), &["-c", &script]);
    assert_eq!(
        text(&out.stdout),
        "kill 1\n1000\n1000\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
    let native = run_native(Path::new("/bin/sh"), &["-c", &script]);
    let n = text(&native.stdout);
    let lines: Vec<&str> = n.lines().collect();
    assert_eq!(lines[0], "kill 0");
    assert_eq!(lines[1], lines[2], "exec keeps the pid natively too");
    // Exit statuses and signals of exec'd programs are the native ones.
    let out = run_pathvm(
        &dir.join("p.out"),
        Path::new("/bin/sh"),
        &[
            "-c",
            "sh -c 'exit 5'; echo $?; sh -c 'kill -SEGV $$'; echo $?",
        ],
    );
    assert_eq!(text(&out.stdout), "5\n139\n", "{}", text(&out.stderr));
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(
        files.len(),
        1,
        "no profiles of children without --trace-children"
    );
    // What execve keeps: ignored signals stay ignored in the new program.
    let script = "trap '' HUP; exec sh -c 'kill -HUP $$; echo alive'";
    let out = run_pathvm(&dir.join("p.out"), Path::new("/bin/sh"), &["-c", script]);
    let native = run_native(Path::new("/bin/sh"), &["-c", script]);
    assert_eq!(text(&native.stdout), "alive\n");
    assert_eq!(text(&out.stdout), "alive\n", "{}", text(&out.stderr));
    // And pathvm's own guest starts with what pathvm was started with
    // (`nohup pathvm run ...`): its SigIgn is the native one.
    let probe = r"grep -E '^Sig(Blk|Ign)' /proc/self/status; kill -HUP \$\$; echo alive";
    let under = |cmd: String| {
        Command::new("/bin/sh")
            .args(["-c", &format!("trap '' HUP; exec {cmd}")])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let native = under(format!("/bin/sh -c \"{probe}\""));
    let out = under(format!(
        "{} run -q -o {} /bin/sh -c \"{probe}\"",
        pathvm(),
        dir.join("p.out").display()
    ));
    // SIGHUP (bit 0) ignored natively; whatever else the test's parent
    // ignores (SIGINT and SIGQUIT in a background job) is inherited the same
    // way.
    let native_text = text(&native.stdout);
    let ignored = native_text
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:\t"))
        .and_then(|h| u64::from_str_radix(h, 16).ok());
    assert!(
        ignored.is_some_and(|m| m & 1 != 0) && native_text.ends_with("alive\n"),
        "{native_text}{}",
        text(&native.stderr)
    );
    assert_eq!(
        text(&out.stdout),
        text(&native.stdout),
        "{}",
        text(&out.stderr)
    );
}
