//! Record a program under pathvm and print its costliest functions:
//! `cargo run --release -p recorder --features vm --example record -- /bin/ls -l`.

use recorder::run::{record, RecordOptions, VmConfig, DEFAULT_QUANTUM, GUEST_PID};

fn main() {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let Some(program) = argv.first() else {
        eprintln!("usage: record PROGRAM [ARGS]...");
        std::process::exit(2);
    };
    let opts = RecordOptions {
        vm: VmConfig {
            program: program.into(),
            argv: argv.clone(),
            env: vec!["PATH=/usr/bin:/bin".into(), "LANG=C".into()],
            seed: 0,
            max_instructions: None,
            strict_syscalls: false,
            progress: None,
            reserved_fds: Vec::new(),
            pid: GUEST_PID,
            sched_quantum: DEFAULT_QUANTUM,
            tty: false,
            clock_start: None,
            signals: Default::default(),
            stack_limit: None,
            cpu: Default::default(),
            ids: None,
        },
        // Contexts, paths, caches and branch prediction, on two threads.
        record: recorder::Options::default(),
    };
    let recording = match record(&opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("record: {e}");
            std::process::exit(1);
        }
    };
    let p = &recording.profile;
    let mut rows: Vec<_> = p.functions.iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.self_cost[0]));
    println!("{} {}: {}", p.metrics[0], p.totals[0], p.meta.stop);
    for r in rows.iter().take(10) {
        println!("{:>14} {}", r.self_cost[0], r.name);
    }
}
