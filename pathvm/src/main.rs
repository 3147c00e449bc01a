//! The `pathvm` command line: argument parsing and wiring only.

use recorder::run as record;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Deterministic profiler for x86-64 Linux programs.
#[derive(Parser)]
#[command(name = "pathvm", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program under the VM and write its profile.
    Run(RunArgs),
    /// Show a profile.
    Report(ReportArgs),
    /// Compare two profiles; exit 1 when a `--fail-on` limit is passed.
    Diff(DiffArgs),
    /// Compare a profile with a committed baseline under limits (for CI).
    Check(CheckArgs),
    /// Write a profile in another tool's format.
    Export(ExportArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// The callgrind format (callgrind_annotate, KCachegrind).
    Callgrind,
    /// Folded stacks, one line per calling context.
    Folded,
    /// An SVG flame graph.
    Flamegraph,
    /// A speedscope JSON file: one sampled profile per metric (or `--metric`'s).
    Speedscope,
    /// A gzipped pprof protocol buffer (`go tool pprof`); every metric is a
    /// sample type, `--metric` the default one.
    Pprof,
}

#[derive(Args)]
struct ExportArgs {
    /// The profile; several (the processes of a `--trace-children` run,
    /// `FILE FILE.*`) are merged into one.
    #[arg(default_value = "pathvm.out")]
    file: Vec<PathBuf>,
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Where to write (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// The metric of folded stacks and flame graphs (default: instructions);
    /// speedscope: only this metric (default: all); pprof: the default sample type.
    #[arg(long)]
    metric: Option<String>,
    /// Callgrind: each function's Ball-Larus paths as functions `name [path N]`.
    #[arg(long)]
    paths: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum Recursion {
    Full,
    Collapse,
}

#[derive(Args, Debug, PartialEq)]
struct RunArgs {
    /// Where to write the profile.
    #[arg(short, long, default_value = "pathvm.out")]
    output: PathBuf,
    /// No summary on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Seed of the guest's randomness (getrandom, AT_RANDOM, /dev/urandom, RDRAND).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The guest's wall clock at its first instruction: now, @SECONDS,
    /// YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS in UTC (default 2024-01-01, the
    /// same on every machine; recorded in the profile).
    #[arg(long, value_name = "DATE", value_parser = vm::clock::parse_start)]
    clock_start: Option<u64>,
    /// Add or replace a variable of the guest environment (repeatable).
    #[arg(long = "env", value_name = "K=V")]
    env: Vec<OsString>,
    /// Start from pathvm's own environment instead of the fixed one.
    #[arg(long)]
    inherit_env: bool,
    /// Stop the guest after this many instructions.
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// An unsupported system call stops the run (default: -ENOSYS and a warning).
    #[arg(long)]
    strict_syscalls: bool,
    /// Retired instructions a guest thread runs before the next one gets the
    /// CPU (threads also switch when they block).
    #[arg(long, value_name = "N", default_value_t = vm::threads::DEFAULT_QUANTUM,
          value_parser = clap::value_parser!(u64).range(1..))]
    sched_quantum: u64,
    /// Recursive calls: keep every level, or fold them onto the first.
    #[arg(long, value_enum, default_value = "full")]
    recursion: Recursion,
    /// Depth cap of `--recursion full`.
    #[arg(long, default_value_t = recorder::DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// Most calling contexts kept; past it, new calls fold into their
    /// caller's context (costs and calls still counted) with a warning.
    #[arg(long, default_value_t = recorder::DEFAULT_MAX_CONTEXTS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_contexts: u64,
    /// Show PLT stubs and lazy binding as functions of their own.
    #[arg(long)]
    show_plt: bool,
    /// No cache simulation (and no loads/stores counts): faster.
    #[arg(long)]
    no_cache_sim: bool,
    /// No branch prediction simulation.
    #[arg(long)]
    no_branch_sim: bool,
    /// No Ball-Larus path profiles (no count changes).
    #[arg(long)]
    no_paths: bool,
    /// No calling context tree in the profile (no count changes; paths are
    /// then kept per function only).
    #[arg(long)]
    no_cct: bool,
    /// Count costs only while a function matching FUNC (a glob) is on the
    /// stack, in every metric and view; calls are still recorded
    /// (repeatable; callgrind's option).
    #[arg(long, value_name = "FUNC")]
    toggle_collect: Vec<String>,
    /// Keep only the calling contexts on call paths that reach a function
    /// matching FUNC (a glob), and everything below them (repeatable;
    /// function rows stay whole-run).
    #[arg(long, value_name = "FUNC", conflicts_with = "no_cct")]
    focus: Vec<String>,
    /// L1 instruction cache geometry, SIZE,ASSOC,LINE in bytes (as valgrind's --I1).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "32768,8,64")]
    l1i: String,
    /// L1 data cache geometry, SIZE,ASSOC,LINE (as valgrind's --D1).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "32768,8,64")]
    l1d: String,
    /// Last-level cache geometry, SIZE,ASSOC,LINE (as valgrind's --LL).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "8388608,16,64")]
    ll: String,
    /// Also write the totals and top functions as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json_summary: Option<PathBuf>,
    /// Run the analyses on the VM's thread. By default the calling context
    /// tree, paths and branch model run on a second thread, fed in order by
    /// the VM's (which keeps the cache model); the counts are the same
    /// either way.
    #[arg(long)]
    single_thread: bool,
    /// For measuring pathvm: on two threads, run the VM's to the end first,
    /// keeping every event in memory, then the analyses, and print the time
    /// of each alone. The profile is the same.
    #[arg(long, hide = true, conflicts_with = "single_thread")]
    time_threads: bool,
    /// Profile child processes too: forked children write FILE.1, FILE.2, ...
    /// and programs they execute run under pathvm (FILE.2.1, ...).
    #[arg(long)]
    trace_children: bool,
    /// Present the guest's standard input, output and error as a terminal
    /// (80x24, fixed settings) instead of pipes, wherever they go
    /// (docs/linux.md). Recorded in the profile.
    #[arg(long)]
    tty: bool,
    /// For a program the guest executes without --trace-children: it runs
    /// under the VM too (no virtual pid may reach a native program), with
    /// no analyses, no profile and no summary, and ends as the program does.
    #[arg(long, hide = true, conflicts_with = "trace_children")]
    no_profile: bool,
    /// The guest's argv[0] (default: PROGRAM), for traced children.
    #[arg(long, hide = true)]
    argv0: Option<OsString>,
    /// The guest's pid (default 1000), for traced children.
    #[arg(long, hide = true)]
    guest_pid: Option<u32>,
    /// The guest's initial signal mask and ignored signals (hexadecimal,
    /// bit SIG-1), for exec'd programs: what `execve` keeps.
    #[arg(long, hide = true, value_name = "MASK,IGNORED", value_parser = parse_start_signals)]
    start_signals: Option<vm::StartSignals>,
    /// The program and its arguments.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "PROGRAM [ARGS]..."
    )]
    command: Vec<OsString>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum By {
    /// Per function, flat.
    Function,
    /// The calling context tree, top-down.
    Context,
    /// Per function, who calls it (bottom-up).
    Caller,
    /// k-level call paths (`--depth K`), as TAU aggregates them.
    Callpath,
    /// Ball-Larus paths, ranked by `--metric` (one; default instructions).
    Path,
    /// Per guest thread: its tid, the function it started in, its costs.
    Thread,
    /// Per executed block of code.
    Block,
    /// Per source line (instructions exact; see the README for the rest).
    Line,
}

#[derive(Args)]
struct ReportArgs {
    /// The profile; several (the processes of a `--trace-children` run,
    /// `FILE FILE.*`) are merged into one.
    #[arg(default_value = "pathvm.out")]
    file: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "function")]
    by: By,
    /// Only the N costliest rows.
    #[arg(long)]
    top: Option<usize>,
    /// Metrics to show, comma-separated (default: all in the profile).
    #[arg(long, value_delimiter = ',')]
    metric: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Sort by this metric (default: the first shown).
    #[arg(long)]
    sort: Option<String>,
    /// Context views: hide contexts below this percent of the total (default
    /// 0). `--by path`: the share of the metric that makes a path hot (default 1).
    #[arg(long)]
    threshold: Option<f64>,
    /// `--by path`: one row per path and calling context.
    #[arg(long)]
    context: bool,
    /// `--by path`: only these functions (glob, repeatable).
    #[arg(long)]
    function: Vec<String>,
    /// `--by path`: the table of dense, sparse and cold paths and the hot procedures.
    #[arg(long)]
    hot_summary: bool,
    /// With `--annotate`: the path id (in the function named by `--function`).
    #[arg(long, value_name = "ID")]
    path: Option<u64>,
    /// A path's instructions with their source lines and executions (`--path ID`).
    #[arg(long, requires = "path")]
    annotate: bool,
    /// Context views: only the paths that reach these functions (glob, repeatable).
    #[arg(long)]
    focus: Vec<String>,
    /// Context views: only the subtrees under these functions (glob, repeatable).
    #[arg(long)]
    path_contains: Vec<String>,
    /// `--by callpath`: path length (2: caller-callee pairs); `--by caller`: levels.
    #[arg(long, default_value_t = 2)]
    depth: usize,
    /// Statistics of the calling context tree instead of a view.
    #[arg(long)]
    stats: bool,
    /// Only guest thread N (its tid): every view as if it alone had run.
    #[arg(long, value_name = "N")]
    thread: Option<u32>,
    /// The totals of every phase (`PATHVM_PHASE` markers) instead of a view.
    #[arg(long, conflicts_with = "stats")]
    phases: bool,
    /// This phase's totals and the self cost of its functions instead of a view.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["phases", "stats"])]
    phase: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffBy {
    Function,
    Context,
    /// Ball-Larus paths (function and path id).
    Path,
}

#[derive(Args)]
struct DiffArgs {
    old: PathBuf,
    new: PathBuf,
    #[arg(long, value_enum, default_value = "function")]
    by: DiffBy,
    /// Metrics to compare, comma-separated (default: all both profiles have).
    #[arg(long, value_delimiter = ',')]
    metric: Vec<String>,
    /// Hide rows whose relative change is below this percent.
    #[arg(long, default_value_t = 0.0)]
    threshold: f64,
    /// Exit 1 when METRIC grew by more than PCT percent (repeatable).
    #[arg(long, value_name = "METRIC[:PCT]")]
    fail_on: Vec<String>,
    #[arg(long)]
    top: Option<usize>,
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormat,
    /// Compare this phase (`PATHVM_PHASE` markers) only: its totals and
    /// its functions' self costs in it.
    #[arg(long, value_name = "NAME")]
    phase: Option<String>,
}

#[derive(Args)]
struct CheckArgs {
    /// The fresh profile.
    #[arg(default_value = "pathvm.out")]
    profile: PathBuf,
    /// The committed baseline profile.
    #[arg(long)]
    baseline: PathBuf,
    /// Limits file (TOML: `[limits.METRIC] relative = PCT, absolute = N`).
    #[arg(long)]
    limits: Option<PathBuf>,
    /// A limit on the command line: `METRIC:PCT%[,+ABS]` (repeatable).
    #[arg(long)]
    limit: Vec<String>,
    /// Replace the baseline with the profile, on purpose.
    #[arg(long)]
    update_baseline: bool,
}

/// The guest's environment unless `--inherit-env`: small and fixed, so that
/// runs do not depend on who starts them.
pub const DEFAULT_ENV: &[&str] = &[
    "PATH=/usr/local/bin:/usr/bin:/bin",
    "HOME=/",
    "LANG=C",
    "TERM=dumb",
];

/// Exit status for pathvm's own failures.
const EXIT_PATHVM: u8 = 125;
/// Exit status for unusable options (as clap's own errors).
const EXIT_USAGE: u8 = 2;

fn machine_config(a: &RunArgs) -> Result<Option<recorder::MachineConfig>, String> {
    if a.no_cache_sim && a.no_branch_sim {
        return Ok(None);
    }
    let geometry = |flag: &str, v: &str| {
        recorder::CacheConfig::parse(v).map_err(|e| format!("--{flag} {v}: {e}"))
    };
    let cache = if a.no_cache_sim {
        None
    } else {
        Some(recorder::HierarchyConfig {
            l1i: geometry("l1i", &a.l1i)?,
            l1d: geometry("l1d", &a.l1d)?,
            ll: geometry("ll", &a.ll)?,
        })
    };
    let branch = if a.no_branch_sim {
        None
    } else {
        Some(recorder::BranchConfig::default())
    };
    Ok(Some(recorder::MachineConfig {
        cache,
        branch,
        ..Default::default()
    }))
}

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
    let cli = Cli::parse();
    match cli.command {
        Command::Run(a) => run(a),
        Command::Report(a) => finish(report(a)),
        Command::Diff(a) => finish(diff(a)),
        Command::Check(a) => finish(check(a)),
        Command::Export(a) => finish(export(a)),
    }
}

fn guest_env(a: &RunArgs) -> Vec<OsString> {
    let mut env: Vec<OsString> = if a.inherit_env {
        std::env::vars_os().map(|(k, v)| join_kv(k, v)).collect()
    } else {
        DEFAULT_ENV.iter().map(OsString::from).collect()
    };
    for kv in &a.env {
        let key = kv
            .to_string_lossy()
            .split('=')
            .next()
            .unwrap_or("")
            .to_string();
        env.retain(|e| e.to_string_lossy().split('=').next() != Some(key.as_str()));
        env.push(kv.clone());
    }
    env
}

fn parse_start_signals(s: &str) -> Result<vm::StartSignals, String> {
    let hex = |h: &str| u64::from_str_radix(h, 16).map_err(|e| format!("{h}: {e}"));
    let (blocked, ignored) = s.split_once(',').ok_or("expected MASK,IGNORED")?;
    Ok(vm::StartSignals {
        blocked: hex(blocked)?,
        ignored: hex(ignored)?,
    })
}

fn join_kv(k: OsString, v: OsString) -> OsString {
    let mut s = k;
    s.push("=");
    s.push(v);
    s
}

fn run(a: RunArgs) -> ExitCode {
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
            env: guest_env(&a),
            seed: a.seed,
            max_instructions: a.max_instructions,
            strict_syscalls: a.strict_syscalls,
            reserved_fds: Vec::new(),
            tty: a.tty,
            progress: None,
            pid: a.guest_pid.unwrap_or(vm::GUEST_PID),
            sched_quantum: a.sched_quantum,
            clock_start: a.clock_start,
            signals: a.start_signals.unwrap_or_default(),
        },
        record: recorder::Options {
            machine,
            tracker: recorder::TrackerConfig {
                // Without contexts in the profile, recursion folds onto its
                // first level: the function rows are the same, and the tree
                // stays the size of the call graph (a recursive sort with two
                // call sites otherwise grows it with the recursion tree).
                recursion: match a.recursion {
                    Recursion::Full if !a.no_cct => recorder::RecursionPolicy::Full {
                        max_depth: a.max_depth,
                    },
                    _ => recorder::RecursionPolicy::Collapse,
                },
                show_plt: a.show_plt,
                n_metrics: 1,
                max_contexts: usize::try_from(a.max_contexts).unwrap_or(usize::MAX),
            },
            paths: !a.no_paths,
            contexts: !a.no_cct,
            toggle_collect: a.toggle_collect.clone(),
            focus: a.focus.clone(),
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
    install_stop_handlers();
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
            .and_then(|j| std::fs::write(path, j).map_err(|e| format!("{}: {e}", path.display())));
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
    let pathvm = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pathvm: /proc/self/exe: {e}");
            return ExitCode::from(EXIT_PATHVM);
        }
    };
    let output = a
        .trace_children
        .then(|| with_suffix(&a.output, &req.suffix));
    let mut args: Vec<OsString> = vec![pathvm.clone().into()];
    let child = Child {
        output: output.as_deref(),
        pid: req.pid,
        signals: vm::StartSignals {
            blocked: req.blocked,
            ignored: req.ignored,
        },
        program: &req.program,
        argv: &req.argv,
    };
    args.extend(child_args(a, &child));
    let err = vm::exec_host(&pathvm, &args, &req.envp, 0, 0);
    eprintln!("pathvm: execve {}: {err}", vm::escape_path(&req.program));
    ExitCode::from(127)
}

/// What is a program's own when the guest executes it.
struct Child<'a> {
    /// Its profile (`None` without `--trace-children`: no profile and no
    /// analyses).
    output: Option<&'a std::path::Path>,
    pid: u32,
    /// What `execve` keeps of the guest's signal state.
    signals: vm::StartSignals,
    program: &'a std::path::Path,
    argv: &'a [OsString],
}

/// The arguments of `pathvm` (after its own path) that run a program the
/// guest executed: this run's options as parsed, and the child's own. Each
/// field of [`RunArgs`] is named here, so that an option added to `run`
/// does not compile until it says what the child gets.
fn child_args(a: &RunArgs, child: &Child) -> Vec<OsString> {
    let Child {
        output,
        pid,
        signals,
        program,
        argv,
    } = *child;
    let RunArgs {
        // The child's own.
        output: _,
        guest_pid: _,
        start_signals: _,
        argv0: _,
        command: _,
        // The child's environment is the one the guest passed to execve.
        env: _,
        inherit_env: _,
        // This process's reporting: the child is quiet, writes no JSON
        // summary and is not timed.
        quiet: _,
        json_summary: _,
        time_threads: _,
        trace_children: _,
        no_profile: _,
        seed,
        clock_start,
        max_instructions,
        strict_syscalls,
        sched_quantum,
        recursion,
        max_depth,
        max_contexts,
        show_plt,
        no_cache_sim,
        no_branch_sim,
        no_paths,
        no_cct,
        toggle_collect,
        focus,
        l1i,
        l1d,
        ll,
        single_thread,
        tty,
    } = a;
    let mut args: Vec<OsString> = vec!["run".into(), "-q".into()];
    let mut opt = |k: &str, v: &dyn std::fmt::Display| {
        args.push(k.into());
        args.push(v.to_string().into());
    };
    if let Some(output) = output {
        opt("-o", &output.display());
    }
    opt("--guest-pid", &pid);
    opt(
        "--start-signals",
        &format!("{:x},{:x}", signals.blocked, signals.ignored),
    );
    opt("--seed", seed);
    if let Some(t) = clock_start {
        opt("--clock-start", &format!("@{t}"));
    }
    if let Some(n) = max_instructions {
        opt("--max-instructions", n);
    }
    opt("--sched-quantum", sched_quantum);
    let recursion = recursion
        .to_possible_value()
        .map(|v| v.get_name().to_string());
    opt("--recursion", &recursion.unwrap_or_default());
    opt("--max-depth", max_depth);
    opt("--max-contexts", max_contexts);
    opt("--l1i", l1i);
    opt("--l1d", l1d);
    opt("--ll", ll);
    let traced = output.is_some();
    // Without a profile the analyses' own options are moot.
    for g in toggle_collect.iter().filter(|_| traced) {
        opt("--toggle-collect", g);
    }
    for g in focus.iter().filter(|_| traced) {
        opt("--focus", g);
    }
    for (on, flag) in [
        (*strict_syscalls, "--strict-syscalls"),
        (*show_plt, "--show-plt"),
        (*no_cache_sim || !traced, "--no-cache-sim"),
        (*no_branch_sim || !traced, "--no-branch-sim"),
        (*no_paths || !traced, "--no-paths"),
        (*no_cct || !traced, "--no-cct"),
        (*single_thread, "--single-thread"),
        (*tty, "--tty"),
        (traced, "--trace-children"),
        (!traced, "--no-profile"),
        (true, "--inherit-env"),
    ] {
        if on {
            args.push(flag.into());
        }
    }
    if let Some(a0) = argv.first() {
        args.push("--argv0".into());
        args.push(a0.clone());
    }
    args.push("--".into());
    // A path, never a name to look up on PATH (execve does not look).
    if program.as_os_str().as_encoded_bytes().contains(&b'/') {
        args.push(program.into());
    } else {
        args.push(std::path::Path::new(".").join(program).into());
    }
    args.extend(argv.iter().skip(1).cloned());
    args
}

/// The end of a forked child or of an exec'd program run without a profile:
/// its guest's exit status, or death by the guest's signal (so that the
/// guest's parent sees what a native run shows).
fn end_as_guest(stop: &vm::StopReason) -> ExitCode {
    match stop {
        vm::StopReason::Signaled { signal, .. } | vm::StopReason::Interrupted { signal } => {
            // SAFETY: default action for the signal, no core file, then the
            // signal to ourselves (unblocked).
            unsafe {
                let no_core = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::setrlimit(libc::RLIMIT_CORE, &no_core);
                libc::signal(*signal, libc::SIG_DFL);
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, *signal);
                libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
                libc::raise(*signal);
            }
            ExitCode::from((128 + signal) as u8)
        }
        other => ExitCode::from((record::exit_status_of(other) & 0xff) as u8),
    }
}

/// SIGINT and SIGTERM to pathvm stop the guest; the profile of what ran is
/// still written, and pathvm exits with 130 or 143.
fn install_stop_handlers() {
    extern "C" fn on_signal(sig: libc::c_int) {
        vm::request_stop(sig);
    }
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installing a handler that only calls an async-signal-safe
        // function; no SA_RESTART, so a guest blocked in a system call wakes.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
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
    let mut top: Vec<&reports::FunctionRow> = rec.profile.functions.iter().collect();
    top.sort_by(|x, y| {
        y.self_cost[0]
            .cmp(&x.self_cost[0])
            .then(x.name.cmp(&y.name))
    });
    let total = rec.instructions.max(1) as f64;
    let tops: Vec<String> = top
        .iter()
        .take(5)
        .map(|r| format!("{} {:.1}%", r.name, r.self_cost[0] as f64 * 100.0 / total))
        .collect();
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pathvm: {}; {} instructions in {:.3} s ({:.1} guest MIPS); profile in {}\npathvm: top functions: {}",
        rec.profile.meta.stop,
        rec.instructions,
        secs,
        mips,
        output.display(),
        tops.join(", ")
    );
}

/// Exit status of `report`, `export`, `diff` and `check` on an error.
const EXIT_ERROR: u8 = 2;

/// What `report`, `export`, `diff` and `check` return: their exit status, or
/// the one-line error that gives [`EXIT_ERROR`].
type Outcome = Result<ExitCode, Box<dyn std::error::Error>>;

fn finish(outcome: Outcome) -> ExitCode {
    outcome.unwrap_or_else(|e| {
        eprintln!("pathvm: {e}");
        ExitCode::from(EXIT_ERROR)
    })
}

fn report_format(f: Format) -> reports::ReportFormat {
    match f {
        Format::Text => reports::ReportFormat::Text,
        Format::Json => reports::ReportFormat::Json,
    }
}

/// The profile in `files`, or their merge when there are several.
fn read_profiles(files: &[PathBuf]) -> Result<reports::Profile, Box<dyn std::error::Error>> {
    let mut profiles = files
        .iter()
        .map(reports::read_profile)
        .collect::<Result<Vec<_>, _>>()?;
    if profiles.len() == 1 {
        return Ok(profiles.remove(0));
    }
    reports::merge_profiles(&profiles).map_err(|e| match e {
        reports::ReportError::MetricsDiffer { index, .. } => {
            format!("{}: {e}", files[index].display()).into()
        }
        e => e.into(),
    })
}

fn report(mut a: ReportArgs) -> Outcome {
    let mut profile = read_profiles(&a.file)?;
    if let Some(tid) = a.thread {
        profile = reports::restrict_to_thread(&profile, tid)?;
    }
    let format = report_format(a.format);
    if a.hot_summary {
        a.by = By::Path;
    }
    if let Some(path) = a.path {
        let out = reports::report_path_annotate(
            &profile,
            &reports::AnnotateOptions {
                path,
                function: a.function.first().cloned(),
                format,
            },
        )?;
        emit(out.as_bytes());
        return Ok(ExitCode::SUCCESS);
    }
    let path_metric = a.sort.clone().or_else(|| a.metric.first().cloned());
    if a.metric.is_empty() && matches!(a.format, Format::Text) {
        // A readable default for the terminal; JSON carries every metric.
        a.metric = ["instructions", "l1d-miss", "ll-miss", "branch-misses"]
            .iter()
            .filter(|m| profile.metric_index(m).is_some())
            .map(|m| m.to_string())
            .collect();
    }
    let out = if a.stats && matches!(a.by, By::Path) {
        reports::report_path_stats(&profile, format)?
    } else if a.phases || a.phase.is_some() {
        reports::report_phases(
            &profile,
            &reports::PhaseReportOptions {
                phase: a.phase.clone(),
                metrics: a.metric.clone(),
                sort_by: a.sort.clone(),
                top: a.top,
                format,
            },
        )?
    } else if a.stats {
        reports::report_stats(&profile, format)?
    } else {
        match a.by {
            By::Path => reports::report_paths(
                &profile,
                &reports::PathReportOptions {
                    metric: path_metric,
                    top: a.top,
                    threshold: a.threshold.unwrap_or(1.0),
                    functions: a.function,
                    context: a.context,
                    hot_summary: a.hot_summary,
                    format,
                },
            )?,
            By::Function => reports::report_functions(
                &profile,
                &reports::FunctionReportOptions {
                    metrics: a.metric,
                    sort_by: a.sort,
                    top: a.top,
                    format,
                },
            )?,
            By::Block | By::Line => {
                let o = reports::BlockReportOptions {
                    metrics: a.metric,
                    sort_by: a.sort,
                    top: a.top,
                    format,
                };
                if matches!(a.by, By::Block) {
                    reports::report_blocks(&profile, &o)?
                } else {
                    reports::report_lines(&profile, &o)?
                }
            }
            By::Thread => reports::report_threads(
                &profile,
                &reports::FunctionReportOptions {
                    metrics: a.metric,
                    sort_by: a.sort,
                    top: a.top,
                    format,
                },
            )?,
            By::Context | By::Caller | By::Callpath => reports::report_contexts(
                &profile,
                &reports::ContextReportOptions {
                    view: match a.by {
                        By::Caller => reports::ContextView::Callers {
                            levels: a.depth.max(1),
                        },
                        By::Callpath => reports::ContextView::CallPaths {
                            depth: a.depth.max(1),
                        },
                        _ => reports::ContextView::Tree,
                    },
                    metrics: a.metric,
                    sort_by: a.sort,
                    threshold_pct: a.threshold.unwrap_or(0.0),
                    focus: a.focus,
                    path_contains: a.path_contains,
                    top: a.top,
                    format,
                },
            )?,
        }
    };
    emit(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}

fn export(a: ExportArgs) -> Outcome {
    let profile = read_profiles(&a.file)?;
    let mut buf = Vec::new();
    let title = format!("pathvm: {}", profile.meta.command.join(" "));
    let metric = a.metric.as_deref();
    let one_metric = metric.unwrap_or("instructions");
    match a.format {
        ExportFormat::Callgrind if a.paths => reports::export_callgrind_paths(&profile, &mut buf)?,
        ExportFormat::Callgrind => reports::export_callgrind(&profile, &mut buf)?,
        ExportFormat::Folded => reports::export_folded(&profile, one_metric, &mut buf)?,
        ExportFormat::Flamegraph => {
            reports::export_flamegraph(&profile, one_metric, &title, &mut buf)?
        }
        ExportFormat::Speedscope => reports::export_speedscope(&profile, metric, &mut buf)?,
        ExportFormat::Pprof => reports::export_pprof(&profile, metric, &mut buf)?,
    }
    match &a.output {
        Some(path) => std::fs::write(path, &buf).map_err(|e| format!("{}: {e}", path.display()))?,
        None => emit(&buf),
    }
    Ok(ExitCode::SUCCESS)
}

fn diff(a: DiffArgs) -> Outcome {
    let mut old = reports::read_profile(&a.old)?;
    let mut new = reports::read_profile(&a.new)?;
    if let Some(phase) = &a.phase {
        old = reports::phase_profile(&old, phase)?;
        new = reports::phase_profile(&new, phase)?;
    }
    let fail_on = a
        .fail_on
        .iter()
        .map(|f| f.parse::<reports::FailOn>())
        .collect::<Result<Vec<_>, _>>()?;
    let opts = reports::DiffOptions {
        by: match a.by {
            DiffBy::Function => reports::DiffBy::Function,
            DiffBy::Context => reports::DiffBy::Context,
            DiffBy::Path => reports::DiffBy::Path,
        },
        metrics: a.metric,
        threshold_pct: a.threshold,
        top: a.top,
        fail_on,
        format: match a.format {
            DiffFormat::Text => reports::DiffFormat::Text,
            DiffFormat::Json => reports::DiffFormat::Json,
            DiffFormat::Markdown => reports::DiffFormat::Markdown,
        },
        old_name: a.old.display().to_string(),
        new_name: a.new.display().to_string(),
        ..Default::default()
    };
    let d = reports::diff(&old, &new, &opts)?;
    emit(d.text.as_bytes());
    Ok(ExitCode::from(u8::from(d.regressed)))
}

fn check(a: CheckArgs) -> Outcome {
    let current = reports::read_profile(&a.profile)?;
    if a.update_baseline {
        reports::write_profile(&a.baseline, &current)?;
        println!(
            "baseline {} updated from {}",
            a.baseline.display(),
            a.profile.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let baseline = reports::read_profile(&a.baseline)?;
    let mut limits = match &a.limits {
        Some(path) => reports::Limits::read(path)?,
        None => reports::Limits::default(),
    };
    limits.merge(reports::Limits::from_cli(&a.limit)?);
    let c = reports::check(&baseline, &current, &limits)?;
    emit(c.verdict_text.as_bytes());
    Ok(ExitCode::from(u8::from(c.failed)))
}

/// Write a report to standard output. A reader that went away (`| head`)
/// is not an error: the rest is not wanted. Other write errors are
/// reported on stderr; the exit status stays the command's.
fn emit(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("pathvm: standard output: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
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
            let child_argv = child_args(
                &a,
                &Child {
                    output: output.as_deref(),
                    pid: 1001,
                    signals,
                    program: std::path::Path::new("/bin/prog"),
                    argv: &argv,
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
                no_cache_sim: if traced { child.no_cache_sim } else { a.no_cache_sim },
                no_branch_sim: if traced { child.no_branch_sim } else { a.no_branch_sim },
                toggle_collect: a.toggle_collect.clone(),
                focus: a.focus.clone(),
                ..child
            };
            assert_eq!(same, a, "parent: {parent:?}");
        }
    }
}
