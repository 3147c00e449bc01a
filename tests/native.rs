//! Guest programs and unmodified distribution programs give the same stdout
//! and exit status under pathvm as natively.

use crate::common::*;

fn same_as_native(program: &std::path::Path, args: &[&str]) {
    let dir = scratch(&format!(
        "native-{}-{}",
        program.file_name().unwrap().to_string_lossy(),
        args.join("_")
            .replace('/', "_")
            .chars()
            .take(40)
            .collect::<String>()
    ));
    let vm = run_pathvm(&dir.join("p.out"), program, args);
    let native = run_native(program, args);
    assert!(
        vm.stdout == native.stdout,
        "stdout of {} {:?} differs ({} bytes under pathvm, {} natively); pathvm stderr: {}",
        program.display(),
        args,
        vm.stdout.len(),
        native.stdout.len(),
        String::from_utf8_lossy(&vm.stderr)
    );
    assert_eq!(
        vm.status.code(),
        native
            .status
            .code()
            .or(native.status.code().map(|_| 0))
            .or_else(|| {
                use std::os::unix::process::ExitStatusExt;
                native.status.signal().map(|s| 128 + s)
            }),
        "exit status of {} {:?}; pathvm stderr: {}",
        program.display(),
        args,
        String::from_utf8_lossy(&vm.stderr)
    );
}

#[test]
fn guest_programs_match_native() {
    let cases: &[(&str, &[&str])] = &[
        ("hello", &["one", "two words"]),
        ("work", &[]),
        ("fig1", &[]),
        ("longjmp", &[]),
        ("except", &[]),
        ("tailcall", &[]),
        ("files", &[]),
        ("crash", &["segv"]),
        ("crash", &["fpe"]),
        ("crash", &["abort"]),
        ("fpargs", &[]),
    ];
    for (name, args) in cases {
        for variant in ["O0", "O2", "static", "spie"] {
            same_as_native(&guest(&format!("{name}-{variant}")), args);
        }
    }
    same_as_native(&guest("count"), &[]);
}

#[test]
fn distribution_programs_match_native() {
    let dir = scratch("dist");
    let input = numbered_lines(&dir);
    let inp = input.as_str();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("/usr/bin/sort", vec!["-n", inp]),
        ("/usr/bin/wc", vec![inp]),
        ("/usr/bin/sha256sum", vec![inp]),
        ("/usr/bin/gzip", vec!["-c", inp]),
        ("/usr/bin/bzip2", vec!["-c", inp]),
        ("/usr/bin/xz", vec!["-c", inp]),
        ("/usr/bin/zstd", vec!["-c", "--no-asyncio", inp]),
        ("/usr/bin/grep", vec!["-c", "99", inp]),
        ("/usr/bin/sed", vec!["-n", "5,10p", inp]),
        ("/usr/bin/perl", vec!["-e", "my %h; $h{$_ % 97}++ for 1..50000; print join(',', map {$h{$_}} sort {$a<=>$b} keys %h), \"\\n\""]),
        ("/usr/bin/tclsh", vec![]),
        ("/usr/bin/sqlite3", vec![":memory:", "create table t(x); insert into t select value from generate_series(1,1000); select sum(x), count(*) from t;"]),
        ("/usr/bin/python3", vec!["-S", "-c", "print(sum(i*i for i in range(10000)))"]),
    ];
    for (prog, args) in cases {
        if std::path::Path::new(prog).exists() {
            same_as_native(std::path::Path::new(prog), &args);
        } else {
            eprintln!("skipped {prog}: not installed");
        }
    }
}
