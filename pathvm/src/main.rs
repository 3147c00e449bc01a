//! The `pathvm` command line: argument parsing (`options`), the process
//! lifecycle of `run` (this file: the guest's run, forked and exec'd
//! children, stop signals, the summary) and the other commands (`commands`).
//! Recording is `recorder`'s, every view of a profile `reports`'.

mod commands;
mod options;

use recorder::run as record;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use options::{child_args, machine_config, tracker_config, Child, Cli, Command, RunArgs};

/// Exit status for pathvm's own failures.
const EXIT_PATHVM: u8 = 125;
/// Exit status for unusable options (as clap's own errors).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    // glibc raises its mmap threshold to the size of each large block freed
    // (up to 32 MB), after which large vectors grow and move inside the heap
    // and leave holes it keeps: at the end of a run, while the profile is
    // built and encoded, bzip2's heap held 45 MB for 25 MB of live data.
    // A fixed threshold (glibc's initial one) keeps large blocks in mappings
    // of their own, returned when freed and grown in place by mremap.
    // SAFETY: mallopt only changes the allocator's parameters; nothing has
    // been allocated by another thread (there is none yet).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    match cli.command {
        Command::Run(a) => run(a),
        Command::Report(a) => commands::finish(commands::report(a)),
        Command::Diff(a) => commands::finish(commands::diff(a)),
        Command::Check(a) => commands::finish(commands::check(a)),
        Command::Export(a) => commands::finish(commands::export(a)),
        Command::View(a) => commands::finish(commands::view(a)),
    }
}

/// clap's help and version as clap prints them; its errors as one line
/// (the error, then its tip), with the usage status.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || matches!(
            e.kind(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        )
    {
        let _ = e.print();
        let status = if e.use_stderr() { EXIT_USAGE } else { 0 };
        return ExitCode::from(status);
    }
    let text = e.to_string();
    // The message (with the lines that continue it, up to the first blank
    // one), then any tip; the usage lines are left to --help.
    let mut line = String::new();
    let mut in_message = false;
    for l in text.lines().map(str::trim) {
        if let Some(msg) = l.strip_prefix("error: ") {
            line.push_str(msg);
            in_message = true;
        } else if let Some(tip) = l.strip_prefix("tip: ") {
            line.push_str("; ");
            line.push_str(tip);
        } else if l.is_empty() {
            in_message = false;
        } else if in_message {
            line.push(' ');
            line.push_str(l);
        }
    }
    eprintln!("pathvm: {line} (see --help)");
    ExitCode::from(EXIT_USAGE)
}

fn run(a: RunArgs) -> ExitCode {
    // What the guest starts with, asked before pathvm installs its own.
    let start_signals = a.start_signals.unwrap_or_else(vm::StartSignals::of_host);
    // SIGINT and SIGTERM end the loading at once, with nothing written
    // (an exec'd image: by the signal), and the run afterwards.
    vm::loading(a.guest_pid.is_some());
    vm::install_stop_handlers();
    // Found on PATH as a shell would; a `#!` script runs its interpreter.
    let (program, command) = match vm::resolve_command(&a.command) {
        Ok(found) => found,
        Err((msg, status)) => {
            eprintln!("pathvm: {msg}");
            return ExitCode::from(status as u8);
        }
    };
    let machine = match machine_config(&a) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pathvm: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // Found now rather than after the whole run.
    if !a.no_profile {
        if let Err(e) = reports::check_writable(&a.output) {
            eprintln!("pathvm: {e}");
            return ExitCode::from(EXIT_PATHVM);
        }
    }
    let opts = record::RecordOptions {
        vm: vm::VmConfig {
            program,
            argv: {
                let mut argv = command;
                if let Some(a0) = &a.argv0 {
                    argv[0] = a0.clone();
                }
                argv
            },
            env: vm::guest_env(a.inherit_env, &a.env),
            seed: a.seed,
            max_instructions: a.max_instructions,
            strict_syscalls: a.strict_syscalls,
            reserved_fds: Vec::new(),
            tty: a.tty,
            progress: None,
            pid: a.guest_pid.unwrap_or(vm::GUEST_PID),
            sched_quantum: a.sched_quantum,
            clock_start: a.clock_start,
            signals: start_signals,
            stack_limit: a.start_stack_limit,
            cpu: a.cpu,
            ids: a.start_ids.clone(),
        },
        record: recorder::Options {
            machine,
            tracker: tracker_config(&a),
            paths: !a.no_paths,
            contexts: !a.no_cct,
            toggle_collect: a.toggle_collect.clone(),
            focus: a.focus.clone(),
            instr_at_start: a.instr_atstart,
            collect_at_start: a.collect_atstart,
            threaded: !a.single_thread,
            one_after_other: a.time_threads,
        },
    };
    // The guest shares pathvm's descriptors and may close stderr (many
    // programs do at exit); keep a copy to report through afterwards.
    // It is moved out of the guest's reach (vm::reserve_fd).
    let saved_stderr = vm::reserve_fd(2);
    let mut opts = opts;
    if saved_stderr >= 0 {
        opts.vm.reserved_fds.push(saved_stderr);
    }
    let progress = (!a.quiet && std::io::stderr().is_terminal()).then(Progress::start);
    opts.vm.progress = progress.as_ref().map(|p| p.counter.clone());
    if let Some(fd) = a.timeline {
        vm::timeline::attach(fd);
    }
    let result = record::record(&opts);
    // A process the guest forked has this process's memory but not its
    // other threads: the progress thread is not there to join.
    let child = vm::forked_child();
    if child.is_some() {
        std::mem::forget(progress);
    } else {
        drop(progress);
    }
    if saved_stderr >= 0 {
        // SAFETY: as above; the guest has finished.
        unsafe {
            libc::dup2(saved_stderr, 2);
            libc::close(saved_stderr);
        }
    }
    let mut rec = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pathvm: {e}");
            return ExitCode::from(e.exit_status() as u8);
        }
    };
    let exec = vm::take_exec_request();
    if let Some(req) = &exec {
        rec.profile.meta.stop = format!("replaced by execve of {}", req.program.display());
    }
    // A forked child writes its profile only with --trace-children, under
    // its own suffix.
    let output = match &child {
        Some(c) => with_suffix(&a.output, &c.suffix),
        None => a.output.clone(),
    };
    if (child.is_none() || a.trace_children) && !a.no_profile {
        if let Err(e) = reports::write_profile(&output, &rec.profile) {
            eprintln!("pathvm: {e}");
            return ExitCode::from(EXIT_PATHVM);
        }
    }
    if let Some(req) = exec {
        return exec_program(&a, &req);
    }
    if child.is_some() || a.no_profile {
        return end_as_guest(&rec.stop);
    }
    if let Some(path) = &a.json_summary {
        let written = reports::json_summary(&rec.profile, 10)
            .map_err(|e| e.to_string())
            .and_then(|j| commands::write_out(Some(path), j.as_bytes()).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("pathvm: {e}");
            return ExitCode::from(EXIT_PATHVM);
        }
    }
    let status = record::exit_status_of(&rec.stop);
    // A death by SIGPIPE is a pipeline's normal end (`prog | head`): silent,
    // as natively.
    if let vm::StopReason::Signaled {
        signal, fault_addr, ..
    } = rec.stop
    {
        if signal != libc::SIGPIPE {
            let mut msg = format!("pathvm: guest killed by {}", record::signal_name(signal));
            if let Some(f) = fault_addr {
                msg.push_str(&format!(" (fault address {f:#x})"));
            }
            if let Some(site) = &rec.crash_site {
                msg.push_str(&format!(" in {site}"));
            }
            eprintln!("{msg}");
        }
    }
    if rec.context_cap_hits > 0 {
        eprintln!(
            "pathvm: warning: the calling context tree reached --max-contexts {}: {} calls \
             were folded into their callers' contexts (their costs and calls still count)",
            a.max_contexts, rec.context_cap_hits
        );
    }
    if let vm::StopReason::Deadlock { message } = &rec.stop {
        eprintln!("pathvm: {message}; the profile of what ran is written");
    }
    if let vm::StopReason::InstructionLimit = rec.stop {
        eprintln!(
            "pathvm: stopped at --max-instructions after {} instructions; profile in {}",
            rec.instructions,
            output.display()
        );
    }
    if let vm::StopReason::Interrupted { signal } = rec.stop {
        eprintln!(
            "pathvm: stopped by {} after {} instructions; profile of the part that ran in {}",
            record::signal_name(signal),
            rec.instructions,
            a.output.display()
        );
    }
    if !a.quiet {
        summary(&rec, &a.output);
    }
    if a.time_threads {
        match rec.threads_alone {
            Some((vm, back)) => eprintln!(
                "pathvm: threads one after the other: VM {:.3} s, analyses {:.3} s",
                vm.as_secs_f64(),
                back.as_secs_f64()
            ),
            None => eprintln!("pathvm: --time-threads: this run used one thread"),
        }
    }
    ExitCode::from((status & 0xff) as u8)
}

/// The profile of a traced child: `FILE.k` beside the parent's, or the
/// parent's own output when that is a device (`-o /dev/null` discards every
/// profile of the run rather than making `/dev/null.1`).
fn with_suffix(path: &std::path::Path, suffix: &str) -> PathBuf {
    use std::os::unix::fs::FileTypeExt;
    if std::fs::metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        t.is_char_device() || t.is_block_device() || t.is_fifo() || t.is_socket()
    }) {
        return path.to_path_buf();
    }
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The guest called `execve`: run the program under pathvm in this process,
/// with `--trace-children` writing its profile (`FILE` + the new image's
/// suffix), without it writing none and running no analyses. Never
/// natively: a native program would act on the guest's virtual pids
/// (`kill 1001`, `$$`) as host pids, and translating pids in arguments and
/// files is not possible in general. Returns only on failure.
fn exec_program(a: &RunArgs, req: &vm::ExecRequest) -> ExitCode {
    // This very binary, even if its file was replaced or removed since it
    // started (a rebuild or an upgrade during a long run).
    let pathvm = PathBuf::from("/proc/self/exe");
    let output = a
        .trace_children
        .then(|| with_suffix(&a.output, &req.suffix));
    let argv0 = std::env::args_os()
        .next()
        .unwrap_or_else(|| "pathvm".into());
    let mut args: Vec<OsString> = vec![argv0];
    let child = Child {
        output: output.as_deref(),
        pid: req.pid,
        signals: vm::StartSignals {
            blocked: req.blocked,
            ignored: req.ignored,
        },
        stack_limit: req.stack_limit,
        ids: &req.ids,
        program: &req.program,
        argv: &req.argv,
        timeline: vm::timeline::pass_on_exec(),
    };
    args.extend(child_args(a, &child));
    let err = vm::exec_host(&pathvm, &args, &req.envp, 0, 0);
    eprintln!("pathvm: execve {}: {err}", vm::escape_path(&req.program));
    ExitCode::from(127)
}

/// The end of a forked child or of an exec'd program run without a profile:
/// its guest's exit status, or death by the guest's signal (so that the
/// guest's parent sees what a native run shows).
fn end_as_guest(stop: &vm::StopReason) -> ExitCode {
    match stop {
        vm::StopReason::Signaled { signal, .. } | vm::StopReason::Interrupted { signal } => {
            ExitCode::from(vm::die_of_signal(*signal) as u8)
        }
        other => ExitCode::from((record::exit_status_of(other) & 0xff) as u8),
    }
}

/// A progress line on stderr for runs longer than a second (when stderr is
/// a terminal): retired instructions and guest MIPS so far.
struct Progress {
    counter: std::sync::Arc<std::sync::atomic::AtomicU64>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start() -> Progress {
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        use std::sync::Arc;
        let counter = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let (c, d) = (counter.clone(), done.clone());
        let thread = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let tick = std::time::Duration::from_millis(100);
            while start.elapsed() < std::time::Duration::from_secs(1) {
                if d.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(tick);
            }
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            while !d.load(Ordering::Relaxed) {
                let n = c.load(Ordering::Relaxed);
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "{n} guest instructions, {:.0} MIPS",
                    n as f64 / secs / 1e6
                ));
                bar.tick();
                std::thread::sleep(tick);
            }
            bar.finish_and_clear();
        });
        Progress {
            counter,
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn summary(rec: &record::Recording, output: &std::path::Path) {
    let secs = rec.wall.as_secs_f64();
    let mips = if secs > 0.0 {
        rec.instructions as f64 / secs / 1e6
    } else {
        0.0
    };
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pathvm: {}; {} instructions in {:.3} s ({:.1} guest MIPS); profile in {}\npathvm: top functions: {}",
        rec.profile.meta.stop,
        rec.instructions,
        secs,
        mips,
        output.display(),
        reports::top_functions(&rec.profile, 5, rec.instructions)
    );
}
