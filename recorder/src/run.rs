//! Running a program under pathvm's VM and recording it (the `vm` feature:
//! this module is the only part of the crate that links unicorn).

use std::time::{Duration, Instant};

use events::Observer;
pub use vm::threads::DEFAULT_QUANTUM;
use vm::RunOutcome;
pub use vm::{StopReason, VmConfig, VmError, GUEST_PID};

use crate::{Driver, Options, RunFacts, Session};

/// A program and how to record it.
pub struct RecordOptions {
    /// The program, its arguments and environment, and how the VM runs it.
    pub vm: VmConfig,
    /// What to record.
    pub record: Options,
}

/// A finished run.
pub struct Recording {
    pub profile: reports::Profile,
    /// Calls folded into their callers' contexts because the calling
    /// context tree reached `--max-contexts`.
    pub context_cap_hits: u64,
    pub stop: StopReason,
    pub instructions: u64,
    pub wall: Duration,
    /// One line saying where a fatal signal hit, when one did.
    pub crash_site: Option<String>,
    /// With [`Options::one_after_other`] on two threads: the time of the
    /// VM's thread and of the analyses, each alone.
    pub threads_alone: Option<(Duration, Duration)>,
}

struct Vm<'a>(&'a VmConfig);

impl Driver for Vm<'_> {
    type Outcome = Result<RunOutcome, VmError>;

    fn run<O: Observer>(&mut self, observer: &mut O) -> Self::Outcome {
        vm::run(self.0, observer)
    }
}

/// Run the program under the VM and build its profile.
pub fn record(opts: &RecordOptions) -> Result<Recording, VmError> {
    let start = Instant::now();
    let session = Session::new(&opts.record).map_err(|e| VmError::Emulator(e.to_string()))?;
    let (outcome, finished) = session.record(&mut Vm(&opts.vm));
    let outcome = outcome?;
    let wall = start.elapsed();
    let threads_alone = finished.threads_alone;
    let lossy = |v: &[std::ffi::OsString]| -> Vec<String> {
        v.iter().map(|a| a.to_string_lossy().into_owned()).collect()
    };
    let facts = RunFacts {
        command: lossy(&opts.vm.argv),
        env: lossy(&opts.vm.env),
        cpu_model: opts.vm.cpu.name().to_string(),
        config: {
            let mut config = vec![
                ("seed".to_string(), opts.vm.seed.to_string()),
                (
                    "sched.quantum".to_string(),
                    opts.vm.sched_quantum.to_string(),
                ),
            ];
            // Only a --tty run says so, so that other profiles keep their bytes.
            if opts.vm.tty {
                config.push(("tty".into(), "80x24".into()));
            }
            // Only when chosen: the default start is the same on every machine.
            if let Some(t) = opts.vm.clock_start {
                config.push(("clock.start".into(), t.to_string()));
            }
            config
        },
        objects: outcome.objects.iter().map(|o| o.path.clone()).collect(),
        stop: describe_stop(&outcome.stop),
        exit_status: exit_status_of(&outcome.stop),
        crash_pc: match outcome.stop {
            StopReason::Signaled { pc, .. } => Some(pc),
            _ => None,
        },
        accesses: outcome.accesses.clone(),
    };
    let built = finished.build_profile(&facts);
    Ok(Recording {
        profile: built.profile,
        context_cap_hits: built.context_cap_hits,
        stop: outcome.stop.clone(),
        instructions: outcome.instructions,
        wall,
        crash_site: built.crash_site,
        threads_alone,
    })
}

/// `pathvm run`'s status when `--max-instructions` stopped the guest (as
/// `timeout` exits 124 when its limit is reached).
pub const EXIT_INSTRUCTION_LIMIT: i32 = 124;
/// `pathvm run`'s status when every guest thread waits for ever.
pub const EXIT_DEADLOCK: i32 = 123;

/// The exit status `pathvm run` gives for a stop.
pub fn exit_status_of(stop: &StopReason) -> i32 {
    match stop {
        StopReason::Exited(c) => *c,
        StopReason::Signaled { signal, .. } => 128 + signal,
        StopReason::InstructionLimit => EXIT_INSTRUCTION_LIMIT,
        StopReason::Deadlock { .. } => EXIT_DEADLOCK,
        StopReason::Interrupted { signal } => 128 + signal,
    }
}

pub fn signal_name(sig: i32) -> String {
    let names = [
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGTRAP, "SIGTRAP"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGPIPE, "SIGPIPE"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGTERM, "SIGTERM"),
    ];
    names
        .iter()
        .find(|n| n.0 == sig)
        .map(|n| n.1.to_string())
        .unwrap_or_else(|| format!("signal {sig}"))
}

fn describe_stop(stop: &StopReason) -> String {
    match stop {
        StopReason::Exited(c) => format!("exited with status {c}"),
        StopReason::Signaled {
            signal,
            pc,
            fault_addr,
        } => {
            let mut s = format!("killed by {} at pc {pc:#x}", signal_name(*signal));
            if let Some(a) = fault_addr {
                s.push_str(&format!(", fault address {a:#x}"));
            }
            s
        }
        StopReason::InstructionLimit => "stopped at the instruction limit".into(),
        StopReason::Deadlock { message } => format!("stopped: {message}"),
        StopReason::Interrupted { signal } => {
            format!("stopped by {} to pathvm", signal_name(*signal))
        }
    }
}
