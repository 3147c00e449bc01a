//! The command line's options (clap), and what `run` derives from them:
//! the machine model, the guest's environment, and the arguments of a
//! traced child.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Deterministic profiler for x86-64 Linux programs.
#[derive(Parser)]
#[command(name = "pathvm", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    /// Write one self-contained HTML page of a profile (or a comparison of
    /// two: OLD NEW) to open in a browser.
    View(ViewArgs),
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ExportFormat {
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
    /// Bencher Metric Format JSON (`bencher run --adapter json`): one
    /// benchmark per phase (the program's name without markers), every
    /// metric a measure.
    Bmf,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    /// The profile; several (the processes of a `--trace-children` run,
    /// `FILE FILE.*`) are merged into one.
    #[arg(default_value = "pathvm.out")]
    pub(crate) file: Vec<PathBuf>,
    #[arg(long, value_enum)]
    pub(crate) format: ExportFormat,
    /// Where to write (default: standard output).
    #[arg(short, long)]
    pub(crate) output: Option<PathBuf>,
    /// The metric of folded stacks and flame graphs (default: instructions);
    /// speedscope: only this metric (default: all); pprof: the default sample type.
    #[arg(long)]
    pub(crate) metric: Option<String>,
    /// Callgrind: each function's Ball-Larus paths as functions `name [path N]`.
    #[arg(long)]
    pub(crate) paths: bool,
    /// Physical functions only: inlined functions are not functions (or
    /// frames) of their own.
    #[arg(long)]
    pub(crate) no_inline: bool,
}

#[derive(Args)]
pub(crate) struct ViewArgs {
    /// The profile, or OLD NEW for a comparison.
    #[arg(default_value = "pathvm.out", num_args = 1..=2)]
    pub(crate) files: Vec<PathBuf>,
    /// Where to write the page.
    #[arg(short, long, default_value = "pathvm.html")]
    pub(crate) output: PathBuf,
    /// Percent of a metric's total that makes a path hot.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) threshold: f64,
    /// Calling contexts the page keeps (the costliest); the others are
    /// folded into `(cut)` nodes that keep their cost.
    #[arg(long, default_value_t = reports::ViewOptions::default().max_contexts,
          value_parser = at_least_one)]
    pub(crate) max_contexts: usize,
    /// A directory where source files named by a relative path are looked
    /// for (repeatable; the current directory first).
    #[arg(long, value_parser = existing_dir)]
    pub(crate) source_dir: Vec<PathBuf>,
    /// Physical functions only: no rows of their own for inlined functions.
    #[arg(long)]
    pub(crate) no_inline: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
pub(crate) enum Recursion {
    Full,
    Collapse,
}

#[derive(Args, Debug, PartialEq)]
pub(crate) struct RunArgs {
    /// Where to write the profile.
    #[arg(short, long, default_value = "pathvm.out")]
    pub(crate) output: PathBuf,
    /// No summary on stderr.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Seed of the guest's randomness (getrandom, AT_RANDOM, /dev/urandom, RDRAND).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// The CPU model: x86-64-v2 (SSE4.2, no AVX) or x86-64-v3 (AVX, AVX2,
    /// FMA, F16C); recorded in the profile.
    #[arg(long, value_name = "MODEL", default_value_t = vm::cpu::CpuModel::default())]
    pub(crate) cpu: vm::cpu::CpuModel,
    /// The guest's wall clock at its first instruction: now, @SECONDS,
    /// YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS in UTC (default 2024-01-01, the
    /// same on every machine; recorded in the profile).
    #[arg(long, value_name = "DATE", value_parser = vm::clock::parse_start)]
    pub(crate) clock_start: Option<u64>,
    /// Add or replace a variable of the guest environment (repeatable).
    #[arg(long = "env", value_name = "K=V")]
    pub(crate) env: Vec<OsString>,
    /// Start from pathvm's own environment instead of the fixed one.
    #[arg(long)]
    pub(crate) inherit_env: bool,
    /// Stop the guest after this many instructions.
    #[arg(long, value_name = "N")]
    pub(crate) max_instructions: Option<u64>,
    /// An unsupported system call stops the run (default: -ENOSYS and a warning).
    #[arg(long)]
    pub(crate) strict_syscalls: bool,
    /// Retired instructions a guest thread runs before the next one gets the
    /// CPU (threads also switch when they block).
    #[arg(long, value_name = "N", default_value_t = vm::threads::DEFAULT_QUANTUM,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) sched_quantum: u64,
    /// Recursive calls: keep every level, or fold them onto the first.
    #[arg(long, value_enum, default_value = "full")]
    pub(crate) recursion: Recursion,
    /// Depth cap of `--recursion full`.
    #[arg(long, default_value_t = recorder::DEFAULT_MAX_DEPTH)]
    pub(crate) max_depth: u32,
    /// Most calling contexts kept; past it, new calls fold into their
    /// caller's context (costs and calls still counted) with a warning.
    #[arg(long, default_value_t = recorder::DEFAULT_MAX_CONTEXTS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_contexts: u64,
    /// Show PLT stubs and lazy binding as functions of their own.
    #[arg(long)]
    pub(crate) show_plt: bool,
    /// No cache simulation (and no loads/stores counts): faster.
    #[arg(long)]
    pub(crate) no_cache_sim: bool,
    /// No branch prediction simulation.
    #[arg(long)]
    pub(crate) no_branch_sim: bool,
    /// No Ball-Larus path profiles (no count changes).
    #[arg(long)]
    pub(crate) no_paths: bool,
    /// No calling context tree in the profile (no count changes; paths are
    /// then kept per function only).
    #[arg(long)]
    pub(crate) no_cct: bool,
    /// Count costs only while a function matching FUNC (a glob) is on the
    /// stack, in every metric and view; calls are still recorded
    /// (repeatable; callgrind's option).
    #[arg(long, value_name = "FUNC")]
    pub(crate) toggle_collect: Vec<String>,
    /// Keep only the calling contexts on call paths that reach a function
    /// matching FUNC (a glob), and everything below them (repeatable;
    /// function rows stay whole-run).
    #[arg(long, value_name = "FUNC", conflicts_with = "no_cct")]
    pub(crate) focus: Vec<String>,
    /// Count costs from the start (yes) or from the first PATHVM_START or
    /// CALLGRIND_START_INSTRUMENTATION (no); callgrind's option.
    #[arg(long, value_name = "yes|no", default_value = "yes", value_parser = yes_no, action = clap::ArgAction::Set)]
    pub(crate) instr_atstart: bool,
    /// Collect costs from the start (yes) or from the first
    /// CALLGRIND_TOGGLE_COLLECT (no); callgrind's option.
    #[arg(long, value_name = "yes|no", default_value = "yes", value_parser = yes_no, action = clap::ArgAction::Set)]
    pub(crate) collect_atstart: bool,
    /// L1 instruction cache geometry, SIZE,ASSOC,LINE in bytes (as valgrind's --I1).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "32768,8,64")]
    pub(crate) l1i: String,
    /// L1 data cache geometry, SIZE,ASSOC,LINE (as valgrind's --D1).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "32768,8,64")]
    pub(crate) l1d: String,
    /// Last-level cache geometry, SIZE,ASSOC,LINE (as valgrind's --LL).
    #[arg(long, value_name = "SIZE,ASSOC,LINE", default_value = "8388608,16,64")]
    pub(crate) ll: String,
    /// Also write the totals and top functions as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub(crate) json_summary: Option<PathBuf>,
    /// Run the analyses on the VM's thread. By default the calling context
    /// tree, paths and branch model run on a second thread, fed in order by
    /// the VM's (which keeps the cache model); the counts are the same
    /// either way.
    #[arg(long)]
    pub(crate) single_thread: bool,
    /// For measuring pathvm: on two threads, run the VM's to the end first,
    /// keeping every event in memory, then the analyses, and print the time
    /// of each alone. The profile is the same.
    #[arg(long, hide = true, conflicts_with = "single_thread")]
    pub(crate) time_threads: bool,
    /// Profile child processes too: forked children write FILE.1, FILE.2, ...
    /// and programs they execute run under pathvm (FILE.2.1, ...).
    #[arg(long)]
    pub(crate) trace_children: bool,
    /// Present the guest's standard input, output and error as a terminal
    /// (80x24, fixed settings) instead of pipes, wherever they go
    /// (docs/linux.md). Recorded in the profile.
    #[arg(long)]
    pub(crate) tty: bool,
    /// For a program the guest executes without --trace-children: it runs
    /// under the VM too (no virtual pid may reach a native program), with
    /// no analyses, no profile and no summary, and ends as the program does.
    #[arg(long, hide = true, conflicts_with = "trace_children")]
    pub(crate) no_profile: bool,
    /// The guest's argv[0] (default: PROGRAM), for traced children.
    #[arg(long, hide = true)]
    pub(crate) argv0: Option<OsString>,
    /// The guest's pid (default 1000), for traced children.
    #[arg(long, hide = true)]
    pub(crate) guest_pid: Option<u32>,
    /// The guest's initial signal mask and ignored signals (hexadecimal,
    /// bit SIG-1), for exec'd programs: what `execve` keeps.
    #[arg(long, hide = true, value_name = "MASK,IGNORED", value_parser = vm::StartSignals::from_arg)]
    pub(crate) start_signals: Option<vm::StartSignals>,
    /// The guest's initial `RLIMIT_STACK`, soft and hard (hexadecimal), for
    /// exec'd programs: `execve` keeps it, and sizes the new stack by it.
    #[arg(long, hide = true, value_name = "SOFT,HARD", value_parser = vm::start::stack_limit_from_arg)]
    pub(crate) start_stack_limit: Option<(u64, u64)>,
    /// The guest's user and group ids (`vm::Identity::to_arg`), for exec'd
    /// programs: `execve` keeps them.
    #[arg(long, hide = true, value_name = "UIDS:GIDS:GROUPS", value_parser = vm::Identity::from_arg)]
    pub(crate) start_ids: Option<vm::Identity>,
    /// The descriptor of the guest's process tree's timeline (see
    /// `vm::timeline`), for exec'd programs: the process keeps its place
    /// and its time on it.
    #[arg(long, hide = true, value_name = "FD")]
    pub(crate) timeline: Option<i32>,
    /// The program and its arguments.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "PROGRAM [ARGS]..."
    )]
    pub(crate) command: Vec<OsString>,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub(crate) enum By {
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
    /// Per source line: the sum of its instructions' costs.
    Line,
    /// Per instruction: its address, function, line and costs.
    Instruction,
}

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// The profile; several (the processes of a `--trace-children` run,
    /// `FILE FILE.*`) are merged into one.
    #[arg(default_value = "pathvm.out")]
    pub(crate) file: Vec<PathBuf>,
    /// The rows (default: function; `--stats` and `--hot-summary` read
    /// `path` too).
    #[arg(long, value_enum)]
    pub(crate) by: Option<By>,
    /// Only the N costliest rows (text: default 20; JSON: all); 0 shows all.
    #[arg(long)]
    pub(crate) top: Option<usize>,
    /// Text: the widest a line may be; names are shortened in the middle
    /// and the least telling columns hidden (default: the terminal's width,
    /// 100 when not a terminal; 0: no limit).
    #[arg(long, value_name = "COLUMNS")]
    pub(crate) width: Option<usize>,
    /// Metrics to show, comma-separated (text default: instructions and the
    /// two simulated metrics that cost the most estimated cycles; JSON: all).
    #[arg(long, value_delimiter = ',')]
    pub(crate) metric: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Sort by this metric (default: the first shown).
    #[arg(long)]
    pub(crate) sort: Option<String>,
    /// Context views: hide contexts below this percent of the total (default
    /// 0). `--by path`: the share of the metric that makes a path hot (default 1).
    #[arg(long)]
    pub(crate) threshold: Option<f64>,
    /// `--by path`: one row per path and calling context.
    #[arg(long)]
    pub(crate) context: bool,
    /// `--by path`: only these functions (glob, repeatable).
    #[arg(long)]
    pub(crate) function: Vec<String>,
    /// `--by path`: the table of dense, sparse and cold paths and the hot procedures.
    #[arg(long)]
    pub(crate) hot_summary: bool,
    /// With `--annotate`: the path id (in the function named by `--function`).
    #[arg(long, value_name = "ID")]
    pub(crate) path: Option<u64>,
    /// A path's instructions with their source lines and executions (`--path ID`).
    #[arg(long, requires = "path")]
    pub(crate) annotate: bool,
    /// Context views: only the paths that reach these functions (glob, repeatable).
    #[arg(long)]
    pub(crate) focus: Vec<String>,
    /// Context views: only the subtrees under these functions (glob, repeatable).
    #[arg(long)]
    pub(crate) path_contains: Vec<String>,
    /// `--by callpath`: path length (2: caller-callee pairs); `--by caller`: levels.
    #[arg(long)]
    pub(crate) depth: Option<usize>,
    /// Statistics of the calling context tree instead of a view.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Only guest thread N (its tid): every view as if it alone had run.
    #[arg(long, value_name = "N")]
    pub(crate) thread: Option<u32>,
    /// The totals of every phase (`PATHVM_PHASE` markers) instead of a view.
    #[arg(long, conflicts_with = "stats")]
    pub(crate) phases: bool,
    /// This phase's totals and the self cost of its functions instead of a view.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["phases", "stats"])]
    pub(crate) phase: Option<String>,
    /// Physical functions only: no rows of their own for inlined functions
    /// (the view of profiles without inline frames).
    #[arg(long)]
    pub(crate) no_inline: bool,
}

impl ReportArgs {
    /// An error for the first option given that the chosen view does not
    /// read: options are never silently ignored.
    pub(crate) fn check_options_apply(&self) -> Result<(), String> {
        let name = |b: By| b.to_possible_value().expect("named").get_name().to_string();
        // What is shown instead of a view of rows, and which `--by` it reads.
        let (special, reads_by): (Option<&str>, &[By]) = match () {
            _ if self.path.is_some() => (Some("--path"), &[By::Path]),
            _ if self.phases || self.phase.is_some() => (Some("--phases"), &[]),
            _ if self.stats => (Some("--stats"), &[By::Context, By::Path]),
            _ if self.hot_summary => (Some("--hot-summary"), &[By::Path]),
            _ => (None, &[]),
        };
        if let (Some(view), Some(by)) = (special, self.by) {
            if !reads_by.contains(&by) {
                return Err(format!("--by {} does not apply to {view}", name(by)));
            }
        }
        let by = match (self.hot_summary, self.by) {
            (true, _) => By::Path,
            (false, by) => by.unwrap_or(By::Function),
        };
        let view = special.map_or_else(|| format!("--by {}", name(by)), str::to_string);
        let plain = special.is_none() || self.hot_summary;
        let path = plain && matches!(by, By::Path);
        let levels = plain && matches!(by, By::Caller | By::Callpath);
        let tree = levels || (plain && matches!(by, By::Context));
        let wide = tree || (plain && matches!(by, By::Function | By::Thread));
        // `--stats` and `--path ID` show no metric columns and no ranking.
        let ranked = !self.stats && self.path.is_none();
        for (option, given, applies) in [
            ("--context", self.context, path),
            (
                "--function",
                !self.function.is_empty(),
                path || self.path.is_some(),
            ),
            ("--threshold", self.threshold.is_some(), path || tree),
            ("--focus", !self.focus.is_empty(), tree),
            ("--path-contains", !self.path_contains.is_empty(), tree),
            ("--depth", self.depth.is_some(), levels),
            ("--width", self.width.is_some(), wide),
            ("--metric", !self.metric.is_empty(), ranked),
            ("--sort", self.sort.is_some(), ranked),
            ("--top", self.top.is_some(), ranked),
        ] {
            if given && !applies {
                return Err(format!("{option} does not apply to {view}"));
            }
        }
        if path && self.metric.len() > 1 {
            return Err("--by path ranks paths by one metric: give one --metric".into());
        }
        Ok(())
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DiffFormat {
    Text,
    Json,
    /// GitHub-flavoured Markdown, the verdict on the first line.
    Markdown,
    /// A differential flame graph (SVG) of one metric: NEW's calling
    /// contexts as wide as their cost in NEW, red where a context's self
    /// cost grew from OLD, blue where it shrank.
    Flamegraph,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DiffBy {
    Function,
    Context,
    /// Ball-Larus paths (function and path id).
    Path,
}

#[derive(Args)]
pub(crate) struct DiffArgs {
    pub(crate) old: PathBuf,
    pub(crate) new: PathBuf,
    #[arg(long, value_enum, default_value = "function")]
    pub(crate) by: DiffBy,
    /// Metrics to compare, comma-separated (default: all both profiles
    /// have); `--format flamegraph`: the one drawn (default: instructions).
    #[arg(long, value_delimiter = ',')]
    pub(crate) metric: Vec<String>,
    /// Hide rows whose relative change is below this percent.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) threshold: f64,
    /// Exit 1 when METRIC grew by more than PCT percent (repeatable).
    #[arg(long, value_name = "METRIC[:PCT]")]
    pub(crate) fail_on: Vec<String>,
    #[arg(long)]
    pub(crate) top: Option<usize>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: DiffFormat,
    /// Where to write (default: standard output).
    #[arg(short, long)]
    pub(crate) output: Option<PathBuf>,
    /// Compare this phase (`PATHVM_PHASE` markers) only: its totals and
    /// its functions' self costs in it.
    #[arg(long, value_name = "NAME")]
    pub(crate) phase: Option<String>,
    /// Compare profiles made on different CPU models (`run --cpu`).
    #[arg(long)]
    pub(crate) allow_cpu_mismatch: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum CheckFormat {
    Text,
    /// GitHub-flavoured Markdown, the verdict on the first line.
    Markdown,
    Json,
}

/// A metric fails when it exceeds its `max`, or every one of its relative
/// and absolute limits that is set (an absolute limit is a noise floor:
/// `instructions:1%,+5000` fails on a rise of more than 1% only when that
/// is more than 5000 instructions). Exit status: 0 passed, 1 failed, 2 on
/// an error (a missing baseline without --save-baseline).
#[derive(Args)]
pub(crate) struct CheckArgs {
    /// The fresh profiles (each checked against its own baseline).
    #[arg(default_value = "pathvm.out")]
    pub(crate) profiles: Vec<PathBuf>,
    /// The committed baseline profile; a directory (required for several
    /// profiles) holds one per profile, under the profile's file name.
    #[arg(long)]
    pub(crate) baseline: PathBuf,
    /// Limits file (TOML: `[limits.METRIC]`, `[phases.NAME.METRIC]`,
    /// `[functions.NAME.METRIC]` with relative = PCT, absolute = N, max = N).
    #[arg(long)]
    pub(crate) limits: Option<PathBuf>,
    /// A limit on the totals: `METRIC:SPEC[,SPEC]`, SPEC one of `PCT%`,
    /// `+N`, `max=N` (repeatable).
    #[arg(long)]
    pub(crate) limit: Vec<String>,
    /// Check each phase matching NAME (a glob; `*`: every phase) as a
    /// benchmark of its own, instead of the whole profile (repeatable).
    #[arg(long, value_name = "NAME")]
    pub(crate) phase: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: CheckFormat,
    /// A baseline that does not exist is made from the profile (and the
    /// check passes) instead of exiting with status 2.
    #[arg(long, conflicts_with = "update_baseline")]
    pub(crate) save_baseline: bool,
    /// Replace the baseline with the profile, on purpose.
    #[arg(long)]
    pub(crate) update_baseline: bool,
    /// Compare with a baseline made on another CPU model (`run --cpu`).
    #[arg(long)]
    pub(crate) allow_cpu_mismatch: bool,
}

pub(crate) fn machine_config(a: &RunArgs) -> Result<Option<recorder::SimConfig>, String> {
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
    Ok(Some(recorder::SimConfig {
        cache,
        branch,
        ..Default::default()
    }))
}

/// The call tracker's settings from `run`'s options.
pub(crate) fn tracker_config(a: &RunArgs) -> recorder::TrackerConfig {
    recorder::TrackerConfig {
        recursion: match a.recursion {
            Recursion::Full => recorder::RecursionPolicy::Full {
                max_depth: a.max_depth,
            },
            Recursion::Collapse => recorder::RecursionPolicy::Collapse,
        },
        show_plt: a.show_plt,
        max_contexts: usize::try_from(a.max_contexts).unwrap_or(usize::MAX),
        // What the tracker counts itself is the recorder's to say.
        ..Default::default()
    }
}

fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("not a whole number of at least 1".into()),
    }
}

fn existing_dir(s: &str) -> Result<PathBuf, String> {
    if std::path::Path::new(s).is_dir() {
        Ok(PathBuf::from(s))
    } else {
        Err("no such directory".into())
    }
}

/// `yes` or `no`, as valgrind's options take them.
fn yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err("expected yes or no".into()),
    }
}

/// What is a program's own when the guest executes it.
pub(crate) struct Child<'a> {
    /// Its profile (`None` without `--trace-children`: no profile and no
    /// analyses).
    pub(crate) output: Option<&'a std::path::Path>,
    pub(crate) pid: u32,
    /// What `execve` keeps of the guest's signal state.
    pub(crate) signals: vm::StartSignals,
    /// And its `RLIMIT_STACK` (soft, hard).
    pub(crate) stack_limit: (u64, u64),
    /// And its user and group ids.
    pub(crate) ids: &'a vm::Identity,
    pub(crate) program: &'a std::path::Path,
    pub(crate) argv: &'a [OsString],
    /// The timeline's descriptor, kept open across the exec.
    pub(crate) timeline: Option<i32>,
}

/// The arguments of `pathvm` (after its own path) that run a program the
/// guest executed: this run's options as parsed, and the child's own. Each
/// field of [`RunArgs`] is named here, so that an option added to `run`
/// does not compile until it says what the child gets.
pub(crate) fn child_args(a: &RunArgs, child: &Child) -> Vec<OsString> {
    let Child {
        output,
        pid,
        signals,
        stack_limit,
        ids,
        program,
        argv,
        timeline,
    } = *child;
    let RunArgs {
        // The child's own.
        output: _,
        guest_pid: _,
        start_signals: _,
        start_stack_limit: _,
        start_ids: _,
        timeline: _,
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
        cpu,
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
        instr_atstart,
        collect_atstart,
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
    opt("--start-signals", &signals.to_arg());
    opt(
        "--start-stack-limit",
        &vm::start::stack_limit_to_arg(stack_limit),
    );
    opt("--start-ids", &ids.to_arg());
    if let Some(fd) = timeline {
        opt("--timeline", &fd);
    }
    opt("--seed", seed);
    opt("--cpu", cpu);
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
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    if traced {
        opt("--instr-atstart", &yes_no(*instr_atstart));
        opt("--collect-atstart", &yes_no(*collect_atstart));
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

#[cfg(test)]
mod tests;
