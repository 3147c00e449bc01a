//! The `pathvm` command line: argument parsing and wiring only.

mod functions;
mod record;

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
}

#[derive(Clone, Copy, ValueEnum)]
enum Recursion {
    Full,
    Collapse,
}

#[derive(Args)]
struct RunArgs {
    /// Where to write the profile.
    #[arg(short, long, default_value = "pathvm.out")]
    output: PathBuf,
    /// No summary on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Seed of the guest's randomness (getrandom, AT_RANDOM, /dev/urandom).
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    /// Recursive calls: keep every level, or fold them onto the first.
    #[arg(long, value_enum, default_value = "full")]
    recursion: Recursion,
    /// Depth cap of `--recursion full`.
    #[arg(long, default_value_t = cct::DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// Show PLT stubs and lazy binding as functions of their own.
    #[arg(long)]
    show_plt: bool,
    /// The program and its arguments.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "PROGRAM [ARGS]...")]
    command: Vec<OsString>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum By {
    Function,
}

#[derive(Args)]
struct ReportArgs {
    /// The profile.
    #[arg(default_value = "pathvm.out")]
    file: PathBuf,
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
}

/// The guest's environment unless `--inherit-env`: small and fixed, so that
/// runs do not depend on who starts them.
pub const DEFAULT_ENV: &[&str] = &["PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/", "LANG=C", "TERM=dumb"];

/// Exit status for pathvm's own failures.
const EXIT_PATHVM: u8 = 125;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(a) => run(a),
        Command::Report(a) => report(a),
    }
}

fn guest_env(a: &RunArgs) -> Vec<OsString> {
    let mut env: Vec<OsString> =
        if a.inherit_env { std::env::vars_os().map(|(k, v)| join_kv(k, v)).collect() } else { DEFAULT_ENV.iter().map(OsString::from).collect() };
    for kv in &a.env {
        let key = kv.to_string_lossy().split('=').next().unwrap_or("").to_string();
        env.retain(|e| e.to_string_lossy().split('=').next() != Some(key.as_str()));
        env.push(kv.clone());
    }
    env
}

fn join_kv(k: OsString, v: OsString) -> OsString {
    let mut s = k;
    s.push("=");
    s.push(v);
    s
}

fn run(a: RunArgs) -> ExitCode {
    let program = PathBuf::from(&a.command[0]);
    let opts = record::RecordOptions {
        vm: vm::VmConfig {
            program,
            argv: a.command.clone(),
            env: guest_env(&a),
            seed: a.seed,
            max_instructions: a.max_instructions,
            strict_syscalls: a.strict_syscalls,
            reserved_fds: Vec::new(),
        },
        tracker: cct::TrackerConfig {
            recursion: match a.recursion {
                Recursion::Full => cct::RecursionPolicy::Full { max_depth: a.max_depth },
                Recursion::Collapse => cct::RecursionPolicy::Collapse,
            },
            show_plt: a.show_plt,
            n_metrics: 1,
        },
    };
    // The guest shares pathvm's descriptors and may close stderr (many
    // programs do at exit); keep a copy to report through afterwards.
    // SAFETY: plain descriptor calls on our own descriptors.
    let saved_stderr = unsafe { libc::fcntl(2, libc::F_DUPFD_CLOEXEC, 100) };
    let mut opts = opts;
    if saved_stderr >= 0 {
        opts.vm.reserved_fds.push(saved_stderr);
    }
    let result = record::record(&opts);
    if saved_stderr >= 0 {
        // SAFETY: as above; the guest has finished.
        unsafe {
            libc::dup2(saved_stderr, 2);
            libc::close(saved_stderr);
        }
    }
    let rec = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pathvm: {e}");
            return ExitCode::from(e.exit_status() as u8);
        }
    };
    if let Err(e) = reports::write_profile(&a.output, &rec.profile) {
        eprintln!("pathvm: {e}");
        return ExitCode::from(EXIT_PATHVM);
    }
    let status = record::exit_status_of(&rec.stop);
    if let vm::StopReason::Signaled { signal, fault_addr, .. } = rec.stop {
        let mut msg = format!("pathvm: guest killed by {}", record::signal_name(signal));
        if let Some(f) = fault_addr {
            msg.push_str(&format!(" (fault address {f:#x})"));
        }
        if let Some(site) = &rec.crash_site {
            msg.push_str(&format!(" in {site}"));
        }
        eprintln!("{msg}");
    }
    if !a.quiet {
        summary(&rec, &a.output);
    }
    ExitCode::from((status & 0xff) as u8)
}

fn summary(rec: &record::Recording, output: &std::path::Path) {
    let secs = rec.wall.as_secs_f64();
    let mips = if secs > 0.0 { rec.instructions as f64 / secs / 1e6 } else { 0.0 };
    let mut top: Vec<&reports::FunctionRow> = rec.profile.functions.iter().collect();
    top.sort_by(|x, y| y.self_cost[0].cmp(&x.self_cost[0]).then(x.name.cmp(&y.name)));
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
    let _ = std::io::stderr().is_terminal();
}

fn report(a: ReportArgs) -> ExitCode {
    let profile = match reports::read_profile(&a.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pathvm: {e}");
            return ExitCode::from(2);
        }
    };
    let By::Function = a.by;
    let opts = reports::FunctionReportOptions {
        metrics: a.metric,
        sort_by: None,
        top: a.top,
        format: match a.format {
            Format::Text => reports::ReportFormat::Text,
            Format::Json => reports::ReportFormat::Json,
        },
    };
    match reports::report_functions(&profile, &opts) {
        Ok(s) => {
            print!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pathvm: {e}");
            ExitCode::from(2)
        }
    }
}
