use super::*;
use clap::CommandFactory;

fn run_args(argv: &[&str]) -> RunArgs {
    match Cli::try_parse_from(argv).unwrap().command {
        Command::Run(a) => a,
        _ => unreachable!(),
    }
}

/// Every `run` option of the parent, set away from its default, reaches
/// a child it executes under `--trace-children` as parsed, except those
/// that are the child's own ([`child_args`] says which and why).
#[test]
fn every_run_option_reaches_an_execd_child() {
    let common = [
        "pathvm",
        "run",
        "-o",
        "/tmp/p.out",
        "-q",
        "--seed",
        "7",
        "--env",
        "A=1",
        "--inherit-env",
        "--max-instructions",
        "99",
        "--strict-syscalls",
        "--sched-quantum",
        "5",
        "--recursion",
        "collapse",
        "--max-depth",
        "9",
        "--max-contexts",
        "77",
        "--show-plt",
        "--no-cache-sim",
        "--no-branch-sim",
        "--no-paths",
        "--toggle-collect",
        "f*",
        "--toggle-collect",
        "g",
        "--instr-atstart",
        "no",
        "--collect-atstart",
        "no",
        "--l1i",
        "16384,4,64",
        "--l1d",
        "16384,2,64",
        "--ll",
        "1048576,8,64",
        "--json-summary",
        "/tmp/s.json",
        "--single-thread",
        "--tty",
        "--clock-start",
        "2025-06-01",
        "--trace-children",
        "--argv0",
        "zero",
        "--guest-pid",
        "1234",
        "--start-signals",
        "0,0",
        "--start-stack-limit",
        "800000,ffffffffffffffff",
        "--timeline",
        "1025",
        "--start-ids",
        "9,9,9,9:6,6,6,6:",
        "--cpu",
        "x86-64-v3",
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = common.to_vec();
        v.extend_from_slice(extra);
        v.extend_from_slice(&["/bin/true", "x"]);
        v
    };
    let parents = [
        with(&["--no-cct"]),
        with(&["--focus", "f*", "--focus", "h"]),
        with(&["--time-threads"])
            .into_iter()
            .filter(|a| *a != "--single-thread")
            .collect(),
        // An exec'd program run without a profile, and what it exec's.
        with(&["--no-profile"])
            .into_iter()
            .filter(|a| *a != "--trace-children")
            .collect(),
    ];
    // The test sets every option of `run` (a new one must be added here).
    let cli = Cli::command();
    let run = cli.find_subcommand("run").unwrap();
    for arg in run.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        let flags = [
            format!("--{long}"),
            format!("-{}", arg.get_short().unwrap_or('?')),
        ];
        assert!(
            parents
                .iter()
                .any(|p| flags.iter().any(|f| p.contains(&f.as_str()))),
            "--{long} is not set by this test"
        );
    }
    for parent in parents {
        let a = run_args(&parent);
        let argv: Vec<OsString> = vec!["prog".into(), "-v".into()];
        let output = a.trace_children.then(|| PathBuf::from("/tmp/p.out.2"));
        let signals = vm::StartSignals {
            blocked: 1 << (libc::SIGCHLD - 1),
            ignored: 1 << (libc::SIGHUP - 1),
        };
        let ids = vm::Identity {
            uid: vm::Ids {
                real: 1,
                effective: 2,
                saved: 3,
                fs: 2,
            },
            gid: vm::Ids {
                real: 4,
                effective: 5,
                saved: 5,
                fs: 5,
            },
            groups: vec![7, 8],
        };
        let child_argv = child_args(
            &a,
            &Child {
                output: output.as_deref(),
                pid: 1001,
                signals,
                stack_limit: (1 << 20, 64 << 20),
                ids: &ids,
                program: std::path::Path::new("/bin/prog"),
                argv: &argv,
                timeline: Some(1030),
            },
        );
        let mut full: Vec<OsString> = vec!["pathvm".into()];
        full.extend(child_argv);
        let child = match Cli::try_parse_from(&full).unwrap().command {
            Command::Run(c) => c,
            _ => unreachable!(),
        };
        // The child's own.
        if a.trace_children {
            assert_eq!(child.output, PathBuf::from("/tmp/p.out.2"));
            assert!(child.trace_children && !child.no_profile);
        } else {
            // No profile, so no analyses either.
            assert!(child.no_profile && !child.trace_children);
            assert!(child.no_paths && child.no_cct && child.no_cache_sim && child.no_branch_sim);
        }
        assert_eq!(child.guest_pid, Some(1001));
        assert_eq!(child.start_signals, Some(signals));
        assert_eq!(child.start_stack_limit, Some((1 << 20, 64 << 20)));
        assert_eq!(child.start_ids, Some(ids.clone()));
        assert_eq!(child.timeline, Some(1030));
        assert_eq!(child.argv0, Some("prog".into()));
        assert_eq!(child.command, [OsString::from("/bin/prog"), "-v".into()]);
        assert!(child.quiet && child.inherit_env);
        assert!(child.env.is_empty() && child.json_summary.is_none() && !child.time_threads);
        // Everything else as the parent parsed it.
        let traced = a.trace_children;
        let same = RunArgs {
            output: a.output.clone(),
            guest_pid: a.guest_pid,
            start_signals: a.start_signals,
            start_stack_limit: a.start_stack_limit,
            start_ids: a.start_ids.clone(),
            timeline: a.timeline,
            argv0: a.argv0.clone(),
            command: a.command.clone(),
            env: a.env.clone(),
            inherit_env: a.inherit_env,
            quiet: a.quiet,
            json_summary: a.json_summary.clone(),
            time_threads: a.time_threads,
            trace_children: a.trace_children,
            no_profile: a.no_profile,
            no_paths: if traced { child.no_paths } else { a.no_paths },
            no_cct: if traced { child.no_cct } else { a.no_cct },
            no_cache_sim: if traced {
                child.no_cache_sim
            } else {
                a.no_cache_sim
            },
            no_branch_sim: if traced {
                child.no_branch_sim
            } else {
                a.no_branch_sim
            },
            toggle_collect: a.toggle_collect.clone(),
            focus: a.focus.clone(),
            instr_atstart: if traced {
                child.instr_atstart
            } else {
                a.instr_atstart
            },
            collect_atstart: if traced {
                child.collect_atstart
            } else {
                a.collect_atstart
            },
            ..child
        };
        assert_eq!(same, a, "parent: {parent:?}");
    }
}
