//! The machine: one guest process on a unicorn CPU, its hooks, and the run
//! loop. Everything the guest can observe is fixed here: the CPU model, the
//! address-space layout, the initial stack, pid, clock and randomness.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use events::{BlockEvent, BlockId, MemEvent, ObjectMapped, Observer, Terminator};
use loader::elf::{page_down, page_up, ElfImage, LoadError, PAGE_SIZE};
use loader::stack::{self, at, StackInputs};
use unicorn_engine::{HookType, MemType, Permission, RegisterX86, Unicorn};

use crate::clock::{Rng, VirtualClock};
use crate::decode::{BlockTable, DecodeError};
use crate::memory::{layout, Backing, GuestMemory};
use crate::signals::{SigInfo, ILL_ILLOPN, SEGV_MAPERR};
use crate::syscalls::{SysResult, SyscallState};

/// The guest's pid (and the main thread's tid).
pub const GUEST_PID: u32 = 1000;

/// How to run a guest.
#[derive(Clone, Debug)]
pub struct VmConfig {
    /// The program to run, as given on the command line.
    pub program: PathBuf,
    /// The full argument vector, `argv[0]` included.
    pub argv: Vec<OsString>,
    /// The guest's environment, in order.
    pub env: Vec<OsString>,
    /// Seed of `getrandom`, `AT_RANDOM` and `/dev/urandom`.
    pub seed: u64,
    /// Stop after this many retired instructions.
    pub max_instructions: Option<u64>,
    /// An unknown system call stops the run instead of returning `-ENOSYS`.
    pub strict_syscalls: bool,
    /// Where to publish the number of retired instructions now and then
    /// (about every 4 million), for a progress display on another thread.
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// Host descriptors pathvm keeps for itself (a saved stderr, moved by
    /// [`crate::reserve_fd`]): the guest cannot name them.
    pub reserved_fds: Vec<i32>,
    /// Present the standard descriptors as a terminal (80x24) instead of
    /// pipes (see [`crate::fdview`]).
    pub tty: bool,
    /// The guest's pid ([`GUEST_PID`] unless a parent under pathvm gave
    /// this process its own).
    pub pid: u32,
    /// Retired instructions a guest thread runs before the next one gets
    /// the CPU (see [`crate::threads`]).
    pub sched_quantum: u64,
    /// Wall-clock seconds at the guest's first instruction (`None`:
    /// [`crate::clock::EPOCH_SECS`], 2024-01-01).
    pub clock_start: Option<u64>,
    /// The signal mask and ignored signals the guest starts with: what
    /// survives the `execve` of a guest that ran this program (none for a
    /// program pathvm starts itself).
    pub signals: StartSignals,
    /// `RLIMIT_STACK` (soft, hard) the guest starts with, which sizes its
    /// stack: what `execve` kept of a guest that ran this program (`None`:
    /// 8 MiB soft, no hard limit).
    pub stack_limit: Option<(u64, u64)>,
    /// The CPU model the guest runs on (`--cpu`).
    pub cpu: crate::cpu::CpuModel,
    /// The user and group ids the guest starts with: what `execve` kept of
    /// a guest that ran this program (`None`: the host's).
    pub ids: Option<crate::identity::Identity>,
}

/// Signals as `execve` passes them on: the mask, and the ignored signals
/// (bit `sig - 1` of each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartSignals {
    pub blocked: u64,
    pub ignored: u64,
}

impl StartSignals {
    /// What this process was started with, as a program started by a shell
    /// under `nohup` or with signals blocked would see it natively. Call it
    /// before pathvm installs handlers of its own. SIGPIPE counts as not
    /// ignored: the Rust runtime ignores it before `main`, so whether the
    /// parent did is lost (and a guest that ignores it is the rare case).
    pub fn of_host() -> StartSignals {
        let mut start = StartSignals::default();
        // SAFETY: queries only (a null new action and a null new mask).
        unsafe {
            let mut mask: libc::sigset_t = std::mem::zeroed();
            if libc::sigprocmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask) == 0 {
                for sig in 1..=64 {
                    if libc::sigismember(&mask, sig) == 1 {
                        start.blocked |= 1 << (sig - 1);
                    }
                }
            }
            for sig in 1..=64 {
                if sig == libc::SIGPIPE || sig == libc::SIGKILL || sig == libc::SIGSTOP {
                    continue;
                }
                // The kernel's own call: the C library refuses to answer
                // for the signals it reserves (32 and 33), which a parent
                // may have ignored too. Its action is handler, flags,
                // restorer and mask, 8 bytes each.
                let mut act = [0u64; 4];
                if libc::syscall(
                    libc::SYS_rt_sigaction,
                    sig,
                    std::ptr::null::<u64>(),
                    act.as_mut_ptr(),
                    8usize,
                ) == 0
                    && act[0] == libc::SIG_IGN as u64
                {
                    start.ignored |= 1 << (sig - 1);
                }
            }
        }
        start
    }
}

/// Why the guest stopped. What the guest does is not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// `exit`/`exit_group` with this status.
    Exited(i32),
    /// Killed by signal `signal`; `pc` is the guest instruction (or the start
    /// of its block), `fault_addr` the data address for memory faults.
    Signaled {
        signal: i32,
        pc: u64,
        fault_addr: Option<u64>,
    },
    /// `--max-instructions` reached.
    InstructionLimit,
    /// Every thread waits and nothing can wake one (no timer armed, no child
    /// to wait for): natively the process would hang forever. `message`
    /// says where each thread waits, on one line.
    Deadlock { message: String },
    /// pathvm itself received `signal` (SIGINT, SIGTERM) and stopped the guest.
    Interrupted { signal: i32 },
}

/// The engine running on this process, for [`request_stop`].
static RUNNING: std::sync::atomic::AtomicPtr<libc::c_void> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());
/// The signal [`request_stop`] was called for, or 0.
static STOP_SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// While the program loads (until its first instruction): 1, a stop
/// request ends pathvm at once with its message and 128 + the signal; 2,
/// as a child image, by the signal itself; 0 once the guest runs.
static LOADING: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// From now until the guest's first instruction, SIGINT and SIGTERM to
/// pathvm ([`request_stop`]) end it at once: with a one-line message and
/// status 128 + the signal, or (`as_child`: an image a guest's `execve`
/// runs) dying of the signal, as the native program would. Nothing of the
/// run is written.
pub fn loading(as_child: bool) {
    LOADING.store(
        if as_child { 2 } else { 1 },
        std::sync::atomic::Ordering::SeqCst,
    );
}

/// Makes SIGINT and SIGTERM to pathvm call [`request_stop`]: they stop
/// the guest, the profile of what ran is still written, and pathvm exits
/// with 130 or 143.
pub fn install_stop_handlers() {
    extern "C" fn on_signal(sig: libc::c_int) {
        request_stop(sig);
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

/// The signal pathvm was asked to stop for (SIGINT, SIGTERM), or 0.
pub(crate) fn stop_requested() -> i32 {
    STOP_SIGNAL.load(std::sync::atomic::Ordering::SeqCst)
}

/// Stop the running guest at the next block boundary because pathvm got
/// `signal`. Async-signal-safe: meant to be called from a signal handler
/// (it only stores atomics and asks the CPU loop to exit, as qemu's own
/// signal handlers do).
pub fn request_stop(signal: i32) {
    match LOADING.load(std::sync::atomic::Ordering::SeqCst) {
        0 => {}
        how => {
            let msg: &[u8] = if signal == libc::SIGINT {
                b"pathvm: stopped by SIGINT while loading the program; no profile written\n"
            } else {
                b"pathvm: stopped by SIGTERM while loading the program; no profile written\n"
            };
            // SAFETY: async-signal-safe calls only: the run has not
            // started, nothing is left to write.
            unsafe {
                if how == 1 {
                    libc::write(2, msg.as_ptr() as *const libc::c_void, msg.len());
                    libc::_exit(128 + signal);
                }
                // A child image ends as a native program would: by the signal.
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
                libc::_exit(128 + signal);
            }
        }
    }
    STOP_SIGNAL.store(signal, std::sync::atomic::Ordering::SeqCst);
    let uc = RUNNING.load(std::sync::atomic::Ordering::SeqCst);
    if !uc.is_null() {
        // SAFETY: `uc` is the engine of the current run, published only
        // while `emu_start` runs; uc_emu_stop only sets flags.
        unsafe { unicorn_engine::ffi::uc_emu_stop(uc) };
    }
}

/// pathvm could not go on.
#[derive(Debug, thiserror::Error)]
pub enum VmError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("unsupported system call {name} ({nr}) at {pc:#x} (--strict-syscalls)")]
    UnsupportedSyscall {
        nr: u64,
        name: &'static str,
        pc: u64,
    },
    #[error("emulator: {0}")]
    Emulator(String),
    #[error("host memory: {0}")]
    HostMemory(std::io::Error),
}

impl VmError {
    /// Exit status of `pathvm run` for this error.
    pub fn exit_status(&self) -> i32 {
        match self {
            VmError::Load(e) => e.exit_status(),
            _ => 125,
        }
    }
}

fn uc_err(e: unicorn_engine::uc_error) -> VmError {
    VmError::Emulator(format!("{e:?}"))
}

/// The result of a run.
pub struct RunOutcome {
    pub stop: StopReason,
    /// Instructions retired (a `rep` string instruction counts once).
    pub instructions: u64,
    /// Further iterations of `rep` string instructions (callgrind counts each
    /// iteration as an instruction; `instructions + rep_iterations` is its `Ir`).
    pub rep_iterations: u64,
    /// Every executable object mapped during the run.
    pub objects: Vec<ObjectMapped>,
    /// One line per distinct unsupported system call met.
    pub warnings: Vec<String>,
    /// The guest's loads and stores per instruction, counted where they are
    /// made (the access sites of the unicorn patch): `(address, loads,
    /// stores)` by address, for every instruction that accessed memory.
    /// Empty when nothing traced memory ([`Observer::wants_memory`]).
    pub accesses: Vec<(u64, u64, u64)>,
}

/// What the hooks share: the guest process outside the CPU.
pub(crate) struct Machine<'o, O: Observer> {
    /// The CPU model (which state signal frames carry, which instructions
    /// exist).
    pub(crate) cpu: crate::cpu::CpuModel,
    pub(crate) mem: GuestMemory,
    pub(crate) blocks: BlockTable,
    pub(crate) observer: &'o mut O,
    pub(crate) rep_iterations: u64,
    /// Read the stack pointer at the next block (the last terminator `needs_sp`).
    read_sp: bool,
    /// The observer takes logged reports as they are
    /// ([`Observer::takes_logged`]).
    takes_logged: bool,
    /// The stack pointer last read.
    sp: u64,
    /// Address of the `rep` instruction that ended the last block, or `u64::MAX`.
    rep_at: u64,
    rep_block: BlockId,
    /// A store cut the block that ran it (it rewrote that block's code):
    /// the next block of the re-run from the store's pc (`u64::MAX`: none)
    /// and the end of the cut block. The cut block was counted whole when
    /// it started, so the blocks that run its instructions again are not
    /// reported (see [`Machine::block_cut`]).
    rerun: (u64, u64),
    /// The next block of the re-run is its first: the store alone, at
    /// `rerun_pc`.
    rerun_first: bool,
    rerun_pc: u64,
    /// Copies of the current system call's buffers that cross the edge of
    /// two memory areas, with their guest addresses (see
    /// `Machine::bounce_buf`).
    pub(crate) bounce: std::cell::RefCell<Vec<(u64, Vec<u8>)>>,
    /// Data accesses go to the observer ([`Observer::wants_memory`]).
    mem_traced: bool,
    /// The observer's L1D filter counts ([`events::MemFilter::counts`]),
    /// or null.
    filter_counts: *mut [u64; 2],
    /// While the store that cut its block runs again: the filter counts
    /// before it (its accesses were reported at its first try).
    muted: Option<[u64; 2]>,
    /// Accesses of those runs again that the filter counted at their
    /// site, per instruction: `(loads, stores)`, taken off the sites'
    /// counts at the end.
    muted_sites: std::collections::BTreeMap<u64, (u64, u64)>,
    limit: u64,
    /// The next retired-instruction count at which to look at the limit and
    /// publish progress (one comparison per block on the hot path).
    next_check: u64,
    progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    pub(crate) clock: std::rc::Rc<VirtualClock>,
    pub(crate) rng: Rng,
    pub(crate) sys: SyscallState,
    pub(crate) objects: Vec<ObjectMapped>,
    /// Start of the block running now (for fault reports).
    pub(crate) cur_block: u64,
    pub(crate) stop: Option<Result<StopReason, VmError>>,
    /// Code ranges whose translations must be dropped after this hook.
    pub(crate) flush: Vec<(u64, u64)>,
    /// What the run loop must do before emulation goes on (signals).
    pub(crate) resume: Option<Resume>,
    /// A fault that a guest handler may catch, and where its pc comes from.
    pub(crate) fault: Option<(SigInfo, FaultPc)>,
    /// Retired-instruction count at which the next interval timer fires.
    pub(crate) sig_due: u64,
    /// The guest's threads and the scheduler's state.
    pub(crate) threads: crate::threads::Threads,
    /// Retired-instruction count at which the running thread's quantum ends
    /// (`u64::MAX` while it is the only thread).
    pub(crate) switch_due: u64,
    /// Blocks counted in translated code ([`Observer::sparse`]), if so.
    pub(crate) sparse: Option<crate::sparse::Sparse>,
    /// The engine, for the sparse hook (which gets only the machine).
    uc: unicorn_engine::ffi::uc_handle,
}

/// Work for the run loop between two emulation runs: the CPU was stopped
/// because the next instruction must be another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// Deliver the pending signals; the interrupted instruction is `pc`
    /// (`None`: the CPU's RIP, exact after a system call).
    Deliver { pc: Option<u64> },
    /// `rt_sigreturn`: restore the state saved in the signal frame.
    Sigreturn,
    /// A scheduling point: the running thread's next instruction is `pc`
    /// (`None`: the CPU's RIP, after a system call); `rotate`: another
    /// runnable thread goes first (quantum over, `sched_yield`).
    Switch { pc: Option<u64>, rotate: bool },
}

/// [`Machine::rerun`]'s next block when the re-run ended with the store's
/// own block, whose dropped accesses end at the next block (no block
/// starts there).
const MUTE_END: u64 = u64::MAX - 1;

/// Where the program counter of a caught fault comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaultPc {
    /// Known: a CPU exception's (the emulator restores RIP to the faulting
    /// instruction), or a fetch from a bad address (that address).
    At(u64),
    /// A data access: the faulting instruction is found in the current
    /// block (RIP is not synced before loads and stores).
    DataAccess,
}

impl<O: Observer> Machine<'_, O> {
    #[inline]
    fn on_block(
        &mut self,
        uc: unicorn_engine::ffi::uc_handle,
        addr: u64,
        size: u32,
    ) -> Option<Result<StopReason, VmError>> {
        if self.rerun.0 != u64::MAX && self.rerun_block(addr, addr + u64::from(size)) {
            return None;
        }
        if self.before_block(addr) {
            return None;
        }
        let id = match self.blocks.lookup(addr, size) {
            Some(id) => id,
            None => match self.decode(addr, size) {
                Ok(id) => id,
                Err(e) => return Some(Err(e)),
            },
        };
        self.run_block(uc, id, addr)
    }

    /// [`Machine::on_block`] for a block whose id is known (sparse mode).
    #[inline]
    fn on_known_block(
        &mut self,
        uc: unicorn_engine::ffi::uc_handle,
        id: BlockId,
        addr: u64,
    ) -> Option<Result<StopReason, VmError>> {
        if self.rerun.0 != u64::MAX {
            let end = self.blocks.facts(id).end();
            if self.rerun_block(addr, end) {
                return None;
            }
        }
        if self.before_block(addr) {
            return None;
        }
        self.run_block(uc, id, addr)
    }

    /// A guest store rewrote the code of the running block, which ends at
    /// `end`: the emulator leaves the block before the store and runs the
    /// store again as a block of its own, at `resume`, then the rest of the
    /// block as new blocks. The cut block was counted whole when it started
    /// (its instructions, its slot in sparse mode, the clock), so the
    /// blocks of that re-run are not reported and their instructions count
    /// once, as callgrind counts them (`--smc-check=all` runs the rest of
    /// a block as it was translated). In sparse mode each block of the
    /// re-run must reach the hook, which undoes its inline count.
    #[cold]
    fn block_cut(&mut self, end: u64, resume: u64) {
        // A block of a re-run cut again: its own re-run is part of the
        // first's.
        let end = if self.rerun.0 != u64::MAX {
            self.rerun.1.max(end)
        } else {
            end
        };
        self.rerun = (resume, end);
        self.rerun_first = true;
        self.rerun_pc = resume;
        if let Some(sp) = &mut self.sparse {
            sp.globals.due = 0;
            sp.globals.deadline = 0;
            sp.globals.sync = 1;
        }
    }

    /// Whether the block `[start, end)` runs again instructions of a cut
    /// block (see [`Machine::block_cut`]); the re-run goes on from one
    /// block to the next and ends at the cut block's end, or at a block
    /// elsewhere.
    #[cold]
    fn rerun_block(&mut self, start: u64, end: u64) -> bool {
        if let Some(before) = self.muted.take() {
            self.unmute(before);
        }
        let (next, cut_end) = self.rerun;
        if start != next {
            self.rerun = (u64::MAX, 0);
            return false;
        }
        self.rerun.0 = if end >= cut_end { u64::MAX } else { end };
        if self.rerun_first {
            // The store itself, alone: its accesses up to the one that cut
            // the block were reported at its first try, so those of this
            // run are dropped (the next block, whatever it is, comes here
            // to end that).
            self.rerun_first = false;
            if self.mem_traced {
                self.mute();
                if self.rerun.0 == u64::MAX {
                    self.rerun.0 = MUTE_END;
                }
            }
        }
        true
    }

    /// Drop the data accesses from now on (see [`Machine::rerun_block`]).
    fn mute(&mut self) {
        // SAFETY: the observer keeps the counts valid for the run
        // (`MemFilter`'s contract); no access runs during a block hook.
        let before = unsafe { self.filter_counts.as_ref() }
            .copied()
            .unwrap_or([0; 2]);
        self.muted = Some(before);
        // SAFETY: the dropper has the tracer's signature (called with four
        // arguments, declared with three); the machine lives as long as the
        // engine.
        unsafe {
            let cb = std::mem::transmute::<
                extern "C" fn(*mut libc::c_void, u64, u32, *mut AccessSite),
                extern "C" fn(*mut libc::c_void, u64, u32),
            >(mem_dropper);
            uc_pathvm_set_mem_tracer(self.uc, cb, std::ptr::from_mut(self).cast())
        };
    }

    /// Report the data accesses again; the filter's counts of the dropped
    /// ones are undone (the filter counted them at the store's site too).
    fn unmute(&mut self, before: [u64; 2]) {
        // SAFETY: as in `mute`.
        if let Some(counts) = unsafe { self.filter_counts.as_mut() } {
            // (Counts below `before`: the observer took them meanwhile.)
            if let (Some(loads), Some(stores)) = (
                counts[0].checked_sub(before[0]),
                counts[1].checked_sub(before[1]),
            ) {
                if loads + stores > 0 {
                    let e = self.muted_sites.entry(self.rerun_pc).or_default();
                    e.0 += loads;
                    e.1 += stores;
                }
                *counts = before;
            }
        }
        let tracer: extern "C" fn(*mut libc::c_void, u64, u32, *const AccessSite) = mem_tracer::<O>;
        // SAFETY: as in `mute`; `mem_tracer::<O>` is the tracer
        // `install_hooks` set.
        unsafe {
            let cb = std::mem::transmute::<
                extern "C" fn(*mut libc::c_void, u64, u32, *const AccessSite),
                extern "C" fn(*mut libc::c_void, u64, u32),
            >(tracer);
            uc_pathvm_set_mem_tracer(self.uc, cb, std::ptr::from_mut(self).cast())
        };
    }

    /// What comes before the block at `addr`: true if it does not run as
    /// a new block (a further `rep` iteration, or a signal or another thread
    /// goes first).
    #[inline]
    fn before_block(&mut self, addr: u64) -> bool {
        // Each further iteration of a `rep` string instruction re-enters a
        // block that starts at that instruction.
        if addr == self.rep_at {
            self.rep_iterations += 1;
            self.observer.rep_iteration(self.rep_block);
            return true;
        }
        if self.clock.instret.get() >= self.sig_due && self.timers_expired() {
            // The block has not run: the signal interrupts the guest here.
            self.resume = Some(Resume::Deliver { pc: Some(addr) });
            return true;
        }
        if self.clock.instret.get() >= self.switch_due {
            // The quantum is over: the block runs when its thread is next.
            self.resume = Some(Resume::Switch {
                pc: Some(addr),
                rotate: true,
            });
            return true;
        }
        false
    }

    /// The block `id` at `addr` runs now: count it and tell the observer.
    #[inline]
    fn run_block(
        &mut self,
        uc: unicorn_engine::ffi::uc_handle,
        id: BlockId,
        addr: u64,
    ) -> Option<Result<StopReason, VmError>> {
        let (facts, watched) = self.blocks.facts_watched(id);
        self.cur_block = addr;
        self.clock.retire(facts.insns.len() as u64);
        if watched {
            self.observer.entry_args(id, read_args(uc));
        }
        self.observer.block(BlockEvent { id, sp: self.sp }, facts);
        self.read_sp = facts.terminator.needs_sp();
        if facts.terminator == Terminator::RepString {
            self.rep_at = facts.last_insn_addr();
            self.rep_block = id;
        } else {
            self.rep_at = u64::MAX;
        }
        if self.clock.instret.get() >= self.next_check {
            return self.check_point();
        }
        None
    }

    /// The limit and the progress counter, looked at every `PROGRESS_STEP`
    /// instructions (and exactly at the limit).
    #[cold]
    fn check_point(&mut self) -> Option<Result<StopReason, VmError>> {
        const PROGRESS_STEP: u64 = 1 << 22;
        let now = self.clock.instret.get();
        if now >= self.limit {
            return Some(Ok(StopReason::InstructionLimit));
        }
        if let Some(p) = &self.progress {
            p.store(now, std::sync::atomic::Ordering::Relaxed);
        }
        crate::timeline::running(self.clock.now_ns());
        self.next_check = (now + PROGRESS_STEP).min(self.limit);
        None
    }

    /// Fire the interval timers whose deadline passed; true when a signal
    /// is now deliverable.
    #[cold]
    fn timers_expired(&mut self) -> bool {
        self.fire_timers();
        self.sig_due = self.sys.sig.due(self.clock.slept_ns.get());
        self.sys.sig.next_deliverable().is_some()
    }

    /// The next instruction is not the fall-through of the last block
    /// (signal delivery, `rt_sigreturn`): read the stack pointer at the next
    /// block, and forget an unfinished `rep`.
    pub(crate) fn after_control_change(&mut self) {
        self.read_sp = true;
        self.rep_at = u64::MAX;
        if let Some(sp) = &mut self.sparse {
            sp.globals.due = 0;
            sp.globals.sync = 1;
        }
    }

    /// In sparse mode, report the blocks that ran in translated code since
    /// the last reported one. Called before anything else reaches the
    /// observer, and wherever the current block matters (faults, system
    /// calls).
    pub(crate) fn flush_skipped(&mut self) {
        let Some(sp) = &mut self.sparse else { return };
        let last = sp.globals.last;
        if sp.logged() {
            self.replay_log();
        }
        self.report_skipped(self.clock.instret.get(), last);
    }

    /// In sparse mode, the blocks that ran without a report up to `now`
    /// (retired instructions), `last` the slot of the last of them.
    #[inline]
    fn report_skipped(&mut self, now: u64, last: *mut crate::sparse::Slot) {
        let Some(sp) = &mut self.sparse else { return };
        if now == sp.reported {
            return;
        }
        let n = now - sp.reported;
        sp.reported = now;
        // SAFETY: instructions ran since the last report, so a block's slot
        // was stored; slots live as long as the machine.
        let (id, pc, exit) = unsafe {
            let last = &*last;
            (BlockId(last.id), last.pc, last.exit())
        };
        self.cur_block = pc;
        self.rep_at = u64::MAX;
        self.read_sp = exit.terminator.needs_sp();
        self.observer.skipped(n, id, exit);
    }

    /// In sparse mode, the reports translated code logged, in order, as the
    /// hook would have made them: each with the clock as it was then. None
    /// passed a deadline, so none stops the run.
    #[inline(never)]
    fn replay_log(&mut self) {
        if self.takes_logged {
            return self.hand_over_log();
        }
        let Some(sp) = &mut self.sparse else { return };
        let now = self.clock.instret.get();
        let (log, n) = sp.take_log();
        let uc = self.uc;
        for i in 0..n {
            // SAFETY: `take_log` gives `n` entries, which stay as they are
            // until translated code runs again.
            let e = unsafe { *log.add(i) };
            // SAFETY: translated code logs the slots it runs with; slots
            // live as long as the machine.
            let (id, pc, insns) = unsafe {
                let s = &mut *e.slot;
                s.count -= 1;
                (BlockId(s.id), s.pc, u64::from(s.insns))
            };
            let before = e.instret - insns;
            self.report_skipped(before, e.last);
            if self.read_sp {
                self.sp = e.rsp;
            }
            self.clock.instret.set(before);
            let stop = self.run_block(uc, id, pc);
            debug_assert!(stop.is_none(), "a logged block passed a deadline");
            let sp = self.sparse.as_mut().expect("sparse mode");
            sp.reported = e.instret;
        }
        self.clock.instret.set(now);
        let sp = self.sparse.as_mut().expect("sparse mode");
        sp.apply_entries(&*self.observer);
    }

    /// [`Machine::replay_log`] for an observer that
    /// [`Observer::takes_logged`]: each entry becomes one
    /// [`Observer::logged`], made from the slots alone, with the stack
    /// pointer and the skipped instructions the replay would give.
    #[inline(never)]
    fn hand_over_log(&mut self) {
        let Some(sp) = &mut self.sparse else { return };
        let (log, n) = sp.take_log();
        let mut reported = sp.reported;
        let mut read_sp = self.read_sp;
        let mut stack = self.sp;
        let mut pc = self.cur_block;
        for i in 0..n {
            // SAFETY: as in `replay_log`.
            let e = unsafe { *log.add(i) };
            if i + PREFETCH < n {
                // SAFETY: within the log's `n` entries.
                prefetch(unsafe { (*log.add(i + PREFETCH)).slot });
            }
            // SAFETY: as in `replay_log`.
            let s = unsafe { &mut *e.slot };
            s.count -= 1;
            let before = e.instret - u64::from(s.insns);
            let skipped = before - reported;
            let mut last = BlockId(0);
            if skipped != 0 {
                // SAFETY: blocks ran since the last report, so `last` is
                // the slot of the last of them.
                let l = unsafe { &*e.last };
                last = BlockId(l.id);
                read_sp = l.terminator.needs_sp();
            }
            if read_sp {
                stack = e.rsp;
            }
            let exit = s.exit();
            self.observer.logged(events::Logged {
                id: BlockId(s.id),
                skipped,
                last,
                sp: stack,
                exit,
            });
            read_sp = exit.terminator.needs_sp();
            reported = e.instret;
            pc = s.pc;
        }
        self.read_sp = read_sp;
        self.sp = stack;
        self.cur_block = pc;
        self.rep_at = u64::MAX;
        let sp = self.sparse.as_mut().expect("sparse mode");
        sp.reported = reported;
    }

    /// In sparse mode: ask every block's policy again (the observer's
    /// answers may change with the objects mapped).
    fn sparse_policies_again(&mut self) {
        let Some(sp) = &mut self.sparse else { return };
        for id in sp.block_ids() {
            let facts = self.blocks.facts(id);
            let p = crate::sparse::vm_policy(
                self.observer.sparse_policy(id, facts),
                facts.terminator,
                self.blocks.watched(id) || facts.client_request,
            );
            sp.set_policy(id, p);
        }
    }

    #[cold]
    fn decode(&mut self, addr: u64, size: u32) -> Result<BlockId, VmError> {
        let vsyscall;
        let code = match self.mem.slice(addr, size as u64) {
            Ok(c) => c,
            Err(_)
                if addr >= VSYSCALL_PAGE && size as u64 <= PAGE_SIZE - (addr - VSYSCALL_PAGE) =>
            {
                vsyscall = vsyscall_code();
                let off = (addr - VSYSCALL_PAGE) as usize;
                &vsyscall[off..off + size as usize]
            }
            Err(_) => {
                return Err(VmError::Emulator(format!(
                    "block at {addr:#x} outside guest memory"
                )))
            }
        };
        let (id, new) = self.blocks.insert(code, addr)?;
        if new {
            self.observer
                .block_decoded_shared(id, self.blocks.shared(id));
            let watch = self.observer.watch_entry(id, self.blocks.facts(id));
            self.blocks.set_watched(id, watch);
        }
        Ok(id)
    }

    /// Answer the valgrind client request whose six words (the request and
    /// five arguments) are at `block`, as valgrind running callgrind does:
    /// `RUNNING_ON_VALGRIND` is 1, callgrind's requests are reported to the
    /// observer and answer 0, every other request (another tool's, or the
    /// core's such as `VALGRIND_PRINTF`) answers `default`, as it does
    /// natively.
    fn client_request(&mut self, block: u64, default: u64) -> u64 {
        use events::{marker, CallgrindRequest, Marker};
        let Ok(words) = self.mem.slice(block, 16) else {
            return default;
        };
        let request = u64::from_le_bytes(words[..8].try_into().expect("8 bytes"));
        let arg1 = u64::from_le_bytes(words[8..].try_into().expect("8 bytes"));
        let name;
        let r = match request.wrapping_sub(marker::CALLGRIND_BASE) {
            _ if request == marker::VALGRIND_RUNNING => return 1,
            0 => CallgrindRequest::DumpStats,
            1 => CallgrindRequest::ZeroStats,
            2 => CallgrindRequest::ToggleCollect,
            3 => {
                let bytes = self
                    .mem
                    .read_cstr(arg1, marker::MAX_NAME)
                    .unwrap_or_else(|_| b"?".to_vec());
                name = String::from_utf8_lossy(&bytes).into_owned();
                CallgrindRequest::DumpStatsAt(&name)
            }
            4 => CallgrindRequest::StartInstrumentation,
            5 => CallgrindRequest::StopInstrumentation,
            _ => return default,
        };
        self.observer.marker(Marker::Callgrind(r));
        0
    }

    /// Record an executable file mapping for symbolization.
    pub(crate) fn object_mapped(&mut self, path: &str, map_addr: u64, file_offset: u64) {
        // The bias comes from the segment that holds this file offset.
        let bias = ElfImage::open(Path::new(path)).ok().and_then(|img| {
            img.segments
                .iter()
                .find(|s| page_down(s.offset) == file_offset)
                .map(|s| map_addr.wrapping_sub(page_down(s.vaddr)))
        });
        let Some(bias) = bias else { return };
        if self
            .objects
            .iter()
            .any(|o| o.path == path && o.bias == bias)
        {
            return;
        }
        let obj = ObjectMapped {
            path: path.to_owned(),
            base: map_addr,
            bias,
        };
        self.flush_skipped();
        self.observer.object_mapped(&obj);
        self.objects.push(obj);
        self.sparse_policies_again();
    }
}

/// Regions and entry of a loaded image.
struct Placed {
    bias: u64,
    entry: u64,
}

fn place_image(mem: &mut GuestMemory, img: &ElfImage, bias: u64) -> Result<Placed, VmError> {
    for s in &img.segments {
        let lo = page_down(s.vaddr + bias);
        let hi = page_up(s.vaddr + s.memsz + bias);
        mem.map_anon_fixed(
            lo,
            hi - lo,
            s.prot,
            Backing::File {
                path: img.path.display().to_string(),
                offset: page_down(s.offset),
            },
        );
        mem.write(s.vaddr + bias, img.segment_bytes(s))
            .map_err(|f| {
                VmError::Emulator(format!("segment outside guest memory at {:#x}", f.0))
            })?;
    }
    Ok(Placed {
        bias,
        entry: img.entry + bias,
    })
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_owned()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_owned())
    }
}

/// Run a guest program to its end.
pub fn run<O: Observer>(config: &VmConfig, observer: &mut O) -> Result<RunOutcome, VmError> {
    let exe = ElfImage::open(&config.program)?;
    let interp = match &exe.interp {
        Some(i) => Some(ElfImage::open(Path::new(i)).map_err(|e| match e {
            LoadError::NotFound(_) => LoadError::MissingInterpreter {
                path: config.program.clone(),
                interp: i.clone(),
            },
            e => e,
        })?),
        None => None,
    };

    let mut mem = GuestMemory::new();
    let exe_bias = if exe.is_dyn {
        layout::PIE_BASE - exe.min_vaddr()
    } else {
        0
    };
    let lo = exe.min_vaddr() + exe_bias;
    let brk_start = exe.max_vaddr() + exe_bias;
    let low_size = brk_start - lo + layout::BRK_RESERVE;
    if lo == 0
        || lo
            .checked_add(low_size)
            .is_none_or(|e| e > layout::HIGH_START)
    {
        return Err(LoadError::Malformed {
            path: config.program.clone(),
            what: format!("load address {lo:#x} is outside the supported range"),
        }
        .into());
    }
    if lo < layout::LOW_TOP {
        // A program loaded low: its region reaches down to the lowest
        // address a mapping may have.
        let start = lo.min(layout::LOW_MIN);
        mem.add_region(start, lo + low_size - start)
            .map_err(VmError::HostMemory)?;
    } else {
        mem.add_region(layout::LOW_MIN, layout::LOW_TOP - layout::LOW_MIN)
            .map_err(VmError::HostMemory)?;
        mem.add_region(lo, low_size).map_err(VmError::HostMemory)?;
    }
    mem.add_region(layout::HIGH_START, layout::STACK_TOP - layout::HIGH_START)
        .map_err(VmError::HostMemory)?;
    let placed_exe = place_image(&mut mem, &exe, exe_bias)?;
    mem.set_brk_area(brk_start, lo + low_size);

    if let Some(limit) = config.stack_limit {
        mem.stack_limit = limit;
    }
    mem.map_stack();

    let mut objects = vec![ObjectMapped {
        path: absolute(&config.program).display().to_string(),
        base: lo,
        bias: exe_bias,
    }];
    let mut entry = placed_exe.entry;
    let mut interp_base = 0;
    if let Some(interp) = &interp {
        let span = interp.max_vaddr() - interp.min_vaddr();
        let base = mem
            .find_free(span)
            .ok_or_else(|| VmError::Emulator("no room for the interpreter".into()))?;
        let p = place_image(&mut mem, interp, base - interp.min_vaddr())?;
        entry = p.entry;
        interp_base = base;
        objects.push(ObjectMapped {
            path: interp.path.display().to_string(),
            base,
            bias: p.bias,
        });
    }

    let mut rng = Rng::new(config.seed);
    let mut random = [0u8; 16];
    rng.fill(&mut random);
    let argv: Vec<Vec<u8>> = config.argv.iter().map(|a| a.as_bytes().to_vec()).collect();
    let envp: Vec<Vec<u8>> = config.env.iter().map(|a| a.as_bytes().to_vec()).collect();
    let execfn = config.program.as_os_str().as_bytes();
    // The guest's ids: those `execve` left (set-id bits applied), or the
    // host process's.
    let ids = config
        .ids
        .clone()
        .unwrap_or_else(crate::identity::Identity::of_host);
    let (uid, euid, gid, egid) = (
        ids.uid.real,
        ids.uid.effective,
        ids.gid.real,
        ids.gid.effective,
    );
    let auxv = [
        (at::PHDR, exe.phdr_vaddr + exe_bias),
        (at::PHENT, exe.phentsize),
        (at::PHNUM, exe.phnum),
        (at::PAGESZ, PAGE_SIZE),
        (at::BASE, interp_base),
        (at::FLAGS, 0),
        (at::ENTRY, placed_exe.entry),
        (at::UID, uid as u64),
        (at::EUID, euid as u64),
        (at::GID, gid as u64),
        (at::EGID, egid as u64),
        (at::HWCAP, crate::cpu::HWCAP),
        (at::HWCAP2, 0),
        (at::CLKTCK, 100),
        (at::SECURE, u64::from(ids.secure())),
        (at::MINSIGSTKSZ, 2048),
    ];
    let st = stack::build(
        layout::STACK_TOP,
        &StackInputs {
            argv: &argv,
            envp: &envp,
            execfn,
            platform: b"x86_64",
            random,
            auxv: &auxv,
        },
    );
    mem.write(st.sp, &st.bytes)
        .map_err(|_| VmError::Emulator("initial stack too large".into()))?;
    mem.set_initial_sp(st.sp);

    let wants_memory = observer.wants_memory();
    let observer_sparse = observer.sparse();
    let takes_logged = observer_sparse && observer.takes_logged();
    let mut machine = Machine {
        cpu: config.cpu,
        mem,
        blocks: BlockTable::new(config.cpu),
        observer,
        rep_iterations: 0,
        read_sp: true,
        takes_logged,
        sp: st.sp,
        rep_at: u64::MAX,
        rep_block: BlockId(0),
        rerun: (u64::MAX, 0),
        rerun_first: false,
        rerun_pc: 0,
        bounce: Default::default(),
        mem_traced: false,
        filter_counts: std::ptr::null_mut(),
        muted: None,
        muted_sites: Default::default(),
        limit: config.max_instructions.unwrap_or(u64::MAX),
        next_check: 0,
        progress: config.progress.clone(),
        clock: Default::default(),
        rng,
        sys: SyscallState::new(config),
        objects: Vec::new(),
        cur_block: entry,
        stop: None,
        flush: Vec::new(),
        resume: None,
        fault: None,
        sig_due: u64::MAX,
        threads: crate::threads::Threads::new(config.pid, config.sched_quantum),
        switch_due: u64::MAX,
        sparse: observer_sparse.then(crate::sparse::Sparse::new),
        uc: std::ptr::null_mut(),
    };
    machine.sys.proc.set_initial_stack(&machine.mem, st.sp);
    machine.clock.start_secs.set(config.clock_start);
    // One timeline for the guest's processes: this image starts where the
    // process was on it (an image run by `execve`), or at 0.
    crate::timeline::ensure(config.pid);
    machine.clock.slept_ns.set(crate::timeline::start_ns());
    // The main thread is named before its first block.
    machine.observer.thread_switch(config.pid);
    for o in &objects {
        machine.observer.object_mapped(o);
    }
    machine.objects.append(&mut objects);

    let mut uc = crate::cpu::new_cpu(machine, config.cpu).map_err(uc_err)?;
    let regions: Vec<(u64, u64, *mut u8)> = uc
        .get_data()
        .mem
        .regions()
        .iter()
        .map(|r| (r.start, r.size, r.host))
        .collect();
    for (start, size, host) in regions {
        // SAFETY: `host` is a live reservation of `size` bytes owned by the
        // machine, which unicorn owns and drops before the reservation's
        // owner drops it (the data is dropped after the engine is closed).
        unsafe {
            uc.mem_map_ptr(
                start,
                size as usize,
                Permission::ALL,
                host as *mut libc::c_void,
            )
        }
        .map_err(uc_err)?;
    }
    map_vsyscall_page(&mut uc);
    install_hooks(&mut uc, wants_memory)?;
    crate::cpu::init_registers(&mut uc, entry, st.sp).map_err(uc_err)?;
    crate::cpu::enter_user_mode(&mut uc);

    uc.get_data().clock.install();
    crate::clock::HwRandom::install(config.seed);
    RUNNING.store(uc.get_handle(), std::sync::atomic::Ordering::SeqCst);
    LOADING.store(0, std::sync::atomic::Ordering::SeqCst);
    let result = run_loop(&mut uc, entry);
    RUNNING.store(std::ptr::null_mut(), std::sync::atomic::Ordering::SeqCst);
    VirtualClock::uninstall();
    crate::clock::HwRandom::uninstall();
    let pc = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
    let m = uc.get_data_mut();
    let interrupted = STOP_SIGNAL.load(std::sync::atomic::Ordering::SeqCst);
    let stop = match m.stop.take() {
        Some(s) => s?,
        None if interrupted != 0 => StopReason::Interrupted {
            signal: interrupted,
        },
        None => match result {
            Ok(()) => {
                return Err(VmError::Emulator(format!(
                    "emulation ended without an exit at {pc:#x}"
                )))
            }
            Err(e) => crate::cpu::fault_to_signal(e, m.cur_block, pc),
        },
    };
    let m = uc.get_data_mut();
    // The process goes on as another image (`execve`) from where it is on
    // the timeline, or has ended there.
    if crate::process::exec_pending() {
        crate::timeline::running(m.clock.now_ns());
    } else {
        crate::timeline::exited(m.clock.now_ns());
    }
    m.flush_skipped();
    if let Some(sp) = m.sparse.take() {
        for (id, n) in sp.counts() {
            m.observer.uncounted_execs(id, n);
        }
        m.sparse = Some(sp);
    }
    Ok(RunOutcome {
        stop,
        instructions: m.clock.instret.get(),
        rep_iterations: m.rep_iterations,
        objects: std::mem::take(&mut m.objects),
        warnings: std::mem::take(&mut m.sys.warnings),
        accesses: if wants_memory {
            let mut sites = access_sites(uc.get_handle());
            let muted = std::mem::take(&mut uc.get_data_mut().muted_sites);
            for (pc, loads, stores) in &mut sites {
                if let Some(&(l, s)) = muted.get(pc) {
                    *loads -= l.min(*loads);
                    *stores -= s.min(*stores);
                }
            }
            sites
        } else {
            Vec::new()
        },
    })
}

/// Every access site's count, as [`RunOutcome::accesses`] lists them.
fn access_sites(uc: unicorn_engine::ffi::uc_handle) -> Vec<(u64, u64, u64)> {
    extern "C" fn each(data: *mut libc::c_void, pc: u64, is_store: u32, count: u64) {
        // SAFETY: `data` is the map passed below, borrowed for the call.
        let map = unsafe { &mut *(data as *mut std::collections::BTreeMap<u64, (u64, u64)>) };
        let e = map.entry(pc).or_default();
        if is_store != 0 {
            e.1 += count;
        } else {
            e.0 += count;
        }
    }
    let mut map = std::collections::BTreeMap::<u64, (u64, u64)>::new();
    // SAFETY: `each` has the callback's signature and `map` outlives the call.
    unsafe {
        uc_pathvm_mem_sites(uc, each, std::ptr::from_mut(&mut map).cast());
    }
    map.into_iter().map(|(pc, (l, s))| (pc, l, s)).collect()
}

/// Linux's legacy vsyscall page (`vsyscall=xonly`, the default): calls to
/// its three entries work, reads of it fault. Each entry here is the system
/// call it stands for (`mov eax, NR; syscall; ret`), on a page the guest can
/// execute and not read. Without room for it the page is simply absent.
pub const VSYSCALL_PAGE: u64 = 0xffff_ffff_ff60_0000;

/// Where the emulator keeps the vsyscall page: it translates a guest
/// address to its 52-bit physical address space by dropping the top bits.
const VSYSCALL_PHYS: u64 = VSYSCALL_PAGE & ((1 << 52) - 1);

/// The code at the vsyscall page's entries: gettimeofday (96) at 0x000,
/// time (201) at 0x400, getcpu (309) at 0x800.
fn vsyscall_code() -> Vec<u8> {
    let mut page = vec![0xcc; PAGE_SIZE as usize]; // int3 elsewhere
    for (off, nr) in [(0usize, 96u32), (0x400, 201), (0x800, 309)] {
        page[off] = 0xb8;
        page[off + 1..off + 5].copy_from_slice(&nr.to_le_bytes());
        page[off + 5..off + 8].copy_from_slice(&[0x0f, 0x05, 0xc3]);
    }
    page
}

/// A fault address as the guest sees it (the vsyscall page's is reported
/// at its physical address).
fn guest_fault_addr(addr: u64) -> u64 {
    if addr & !(PAGE_SIZE - 1) == VSYSCALL_PHYS {
        addr | VSYSCALL_PAGE
    } else {
        addr
    }
}

/// After a system call made from the vsyscall page: return to the caller
/// here (the kernel's emulation does the `ret`), and drop the TLB entry the
/// fetch made, so that a later read of the page faults.
fn vsyscall_return<O: Observer>(uc: &mut Unicorn<'_, Machine<'_, O>>) {
    let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
    if rip < VSYSCALL_PAGE || uc.get_data().stop.is_some() {
        return;
    }
    let rsp = uc.reg_read(RegisterX86::RSP).unwrap_or(0);
    let Ok(ret) = uc.get_data().mem.read_u64(rsp) else {
        return; // the `ret` there faults as it would
    };
    // RIP written in this hook would be overwritten: the run loop starts
    // again at the caller.
    let _ = uc.reg_write(RegisterX86::RSP, rsp.wrapping_add(8));
    let _ = uc.ctl_flush_tlb();
    let m = uc.get_data_mut();
    m.after_control_change();
    m.resume = Some(match m.resume {
        Some(Resume::Switch { rotate, .. }) => Resume::Switch {
            pc: Some(ret),
            rotate,
        },
        Some(Resume::Deliver { .. }) => Resume::Deliver { pc: Some(ret) },
        _ => Resume::Switch {
            pc: Some(ret),
            rotate: false,
        },
    });
    let _ = uc.emu_stop();
}

fn map_vsyscall_page<O: Observer>(uc: &mut Unicorn<'_, Machine<'_, O>>) {
    if uc
        .mem_map(VSYSCALL_PHYS, PAGE_SIZE as usize, Permission::EXEC)
        .is_ok()
    {
        let _ = uc.mem_write(VSYSCALL_PHYS, &vsyscall_code());
    }
}

/// Run the CPU from `pc` until the guest ends. Signal delivery and
/// `rt_sigreturn` stop the CPU (see [`Resume`]); the state changes happen
/// here, between two runs, and the CPU starts again at the new pc.
fn run_loop<O: Observer>(
    uc: &mut Unicorn<'_, Machine<'_, O>>,
    mut pc: u64,
) -> Result<(), unicorn_engine::uc_error> {
    loop {
        if STOP_SIGNAL.load(std::sync::atomic::Ordering::SeqCst) != 0 {
            return Ok(());
        }
        if let Some(sp) = &mut uc.get_data_mut().sparse {
            // The first block of each run is reported, through the hook.
            sp.globals.due = 0;
            sp.globals.sync = 1;
        }
        let result = uc.emu_start(pc, u64::MAX, 0, 0);
        let m = uc.get_data_mut();
        m.flush_skipped();
        if let Some((info, at)) = m.fault.take() {
            let killed = matches!(m.stop, Some(Ok(StopReason::Signaled { .. })));
            if killed && m.sys.sig.catches(info.signo) {
                m.stop = None;
                m.sys.sig.post_own(info);
                let at = match at {
                    FaultPc::At(a) => a,
                    FaultPc::DataAccess => crate::cpu::data_fault_pc(uc, info.addr.unwrap_or(0)),
                };
                uc.get_data_mut().resume = Some(Resume::Deliver { pc: Some(at) });
            }
        }
        let m = uc.get_data_mut();
        if m.stop.is_some() {
            return result;
        }
        let Some(resume) = m.resume.take() else {
            return result;
        };
        let next = match resume {
            Resume::Deliver { pc: at } => {
                let at = at.unwrap_or_else(|| uc.reg_read(RegisterX86::RIP).unwrap_or(0));
                crate::signals::deliver_pending(uc, at).map_err(Ok)
            }
            Resume::Sigreturn => crate::signals::sigreturn(uc)
                .and_then(|at| crate::signals::deliver_pending(uc, at))
                .map_err(Ok),
            Resume::Switch { pc: at, rotate } => {
                let at = at.unwrap_or_else(|| uc.reg_read(RegisterX86::RIP).unwrap_or(0));
                crate::threads::switch(uc, at, rotate)
                    .and_then(|at| crate::signals::deliver_pending(uc, at).map_err(Ok))
            }
        };
        let m = uc.get_data_mut();
        m.sig_due = m.sys.sig.due(m.clock.slept_ns.get());
        match next {
            Ok(next) => pc = next,
            Err(stop) => {
                m.stop = Some(stop);
                return Ok(());
            }
        }
    }
}

extern "C" {
    /// Installs the block counter of pathvm's unicorn patch (see
    /// [`crate::sparse`]).
    fn uc_pathvm_set_block_counter(
        uc: unicorn_engine::ffi::uc_handle,
        translated: extern "C" fn(*mut libc::c_void, u64, u32) -> *mut crate::sparse::Slot,
        hook: extern "C" fn(*mut libc::c_void, *const u64, *mut crate::sparse::Slot),
        data: *mut libc::c_void,
        instret: *mut u64,
        globals: *mut libc::c_void,
    ) -> libc::c_int;
    /// Installs the data-access tracer of pathvm's unicorn patch
    /// (`third_party/unicorn-engine-2.1.1-pathvm.patch`): translated code
    /// calls `cb(data, address, size | is_store << 8, site)` before each
    /// guest load and store, as do the helpers that access guest memory
    /// themselves (`xsave`, `fxsave`, `cmpxchg16b`...); `site` is the
    /// [`AccessSite`] of the instruction (null when unknown), which has
    /// counted the access. Loads and stores stay on the emulator's fast
    /// path, which a memory hook would take them off. (The patch declares
    /// `cb` with three arguments and calls it with four.)
    fn uc_pathvm_set_mem_tracer(
        uc: unicorn_engine::ffi::uc_handle,
        cb: extern "C" fn(*mut libc::c_void, u64, u32),
        data: *mut libc::c_void,
    ) -> libc::c_int;
    /// Calls `cb(data, pc, is_store, count)` for each access site (a guest
    /// instruction and a direction) that counted accesses.
    fn uc_pathvm_mem_sites(
        uc: unicorn_engine::ffi::uc_handle,
        cb: extern "C" fn(*mut libc::c_void, u64, u32, u64),
        data: *mut libc::c_void,
    ) -> libc::c_int;
    /// Calls `cb(data, pc, size, resume)` for each translation block a
    /// guest store invalidates (the guest rewrote its code), before the
    /// block goes; `resume` is the store's pc when the block is the one
    /// running it, which the store cuts there, and `u64::MAX` otherwise.
    /// (The patch declares `cb` with three arguments and calls it with
    /// four.)
    fn uc_pathvm_set_code_written(
        uc: unicorn_engine::ffi::uc_handle,
        cb: extern "C" fn(*mut libc::c_void, u64, u32, u64),
        data: *mut libc::c_void,
    ) -> libc::c_int;
    /// Ends a translation block after each valgrind client request (its
    /// preamble and `xchg rbx, rbx` in the block) and calls `cb(data, env)`
    /// there, with every guest register in `env` (RIP past the request).
    fn uc_pathvm_set_client_request(
        uc: unicorn_engine::ffi::uc_handle,
        cb: extern "C" fn(*mut libc::c_void, *mut u64),
        data: *mut libc::c_void,
    ) -> libc::c_int;
    /// Puts the observer's L1D filter ([`events::MemFilter`]) in front of
    /// the tracer: an access that hits the most recently used way of its
    /// set only increments `counts[is_store]`.
    fn uc_pathvm_set_mem_filter(
        uc: unicorn_engine::ffi::uc_handle,
        ways: *const u64,
        set_mask: u64,
        line_bits: u32,
        assoc_log2: u32,
        counts: *mut u64,
    ) -> libc::c_int;
}

/// The guest's permissions of the page at `page`, for the TLB (see
/// [`crate::cpu::set_page_prot`]).
extern "C" fn page_prot<O: Observer>(data: *mut libc::c_void, page: u64) -> libc::c_int {
    // SAFETY: `data` is the machine registered in `install_hooks`; a TLB
    // fill happens inside the emulation, when nothing else borrows it.
    let m = unsafe { &*(data as *const Machine<'_, O>) };
    if page == VSYSCALL_PAGE {
        // vsyscall=xonly: calls work, reads fault.
        return 4;
    }
    m.mem.page_prot(page)
}

/// A guest store rewrote the code of the block `(pc, size)`: its id is
/// retired (see [`crate::decode`]), so the next block there is decoded.
/// `resume` is not `u64::MAX` when that block is the one running the
/// store: it was cut there (see [`Machine::block_cut`]).
extern "C" fn code_written<O: Observer>(data: *mut libc::c_void, pc: u64, size: u32, resume: u64) {
    // SAFETY: `data` is the machine registered in `install_hooks`; the
    // store that calls this runs inside the emulation, when nothing else
    // borrows it.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    m.blocks.retire(pc, size);
    if resume != u64::MAX {
        m.block_cut(pc + u64::from(size), resume);
    }
}

/// The data-access tracer: one call per guest load or store, before it.
/// A valgrind client request ran (the block ending with it was reported):
/// `env` is the CPU state, whose first field is the sixteen general
/// registers in encoding order; `rax` holds the address of the request's
/// six words and `rdx` the default answer, which the answer replaces.
extern "C" fn client_request<O: Observer>(data: *mut libc::c_void, env: *mut u64) {
    // SAFETY: `data` is the machine registered in `install_hooks`; the
    // engine calls from translated code, nothing else borrows the machine.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    // SAFETY: `env` is the x86 CPU state, registers first (RAX, RCX, RDX...).
    let (block, default) = unsafe { (*env, *env.add(2)) };
    m.flush_skipped();
    let answer = m.client_request(block, default);
    // SAFETY: as above; the patch's call reloads the registers after it.
    unsafe { *env.add(2) = answer };
}

/// Unlike unicorn's memory hook, it reports an access that crosses a page
/// once.
extern "C" fn mem_tracer<O: Observer>(
    data: *mut libc::c_void,
    addr: u64,
    info: u32,
    site: *const AccessSite,
) {
    // SAFETY: `data` is the machine registered in `install_hooks`, valid for
    // the whole run and not otherwise borrowed while translated code runs.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    // SAFETY: a site is never freed, and only counted by the access's own
    // instruction on this thread.
    let pc = if site.is_null() {
        0
    } else {
        unsafe { (*site).pc }
    };
    m.observer.mem(MemEvent {
        addr,
        size: (info & 0xff) as u8,
        is_store: info & 0x100 != 0,
        pc,
    });
}

/// The tracer while the store that cut its block runs again (see
/// [`Machine::rerun_block`]): the access was reported at the store's first
/// try, so it is not reported, and its site's count is undone.
extern "C" fn mem_dropper(_data: *mut libc::c_void, _addr: u64, _info: u32, site: *mut AccessSite) {
    // SAFETY: a site is never freed, and only counted by the access's own
    // instruction on this thread, which has just counted it.
    if let Some(s) = unsafe { site.as_mut() } {
        s.count -= 1;
    }
}

/// The patch's `struct pathvm_site`: the accesses one instruction made in
/// one direction (see [`RunOutcome::accesses`]).
#[repr(C)]
struct AccessSite {
    count: u64,
    pc: u64,
    is_store: u64,
}

/// `[rdi, rsi, rdx]`, the first three integer arguments at a function's entry.
#[cold]
fn read_args(uc: unicorn_engine::ffi::uc_handle) -> [u64; 3] {
    let mut args = [0u64; 3];
    for (v, reg) in args
        .iter_mut()
        .zip([RegisterX86::RDI, RegisterX86::RSI, RegisterX86::RDX])
    {
        // SAFETY: `uc` is the live engine calling the block hook; the
        // registers are 64-bit.
        unsafe {
            unicorn_engine::ffi::uc_reg_read(uc, reg as i32, v as *mut u64 as *mut libc::c_void)
        };
    }
    args
}

extern "C" fn block_hook<O: Observer>(
    uc: unicorn_engine::ffi::uc_handle,
    addr: u64,
    size: u32,
    data: *mut libc::c_void,
) {
    // SAFETY: `data` is the machine registered in `install_hooks`, valid for
    // the whole run and not otherwise borrowed while a hook runs.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    if m.read_sp {
        let mut sp = 0u64;
        // SAFETY: `uc` is the live engine calling us; RSP is a 64-bit register.
        unsafe {
            unicorn_engine::ffi::uc_reg_read(
                uc,
                RegisterX86::RSP as i32,
                &mut sp as *mut u64 as *mut libc::c_void,
            )
        };
        m.sp = sp;
    }
    if let Some(stop) = m.on_block(uc, addr, size) {
        m.stop = Some(stop);
        // SAFETY: as above; stopping from inside a hook is supported.
        unsafe { unicorn_engine::ffi::uc_emu_stop(uc) };
    } else if m.resume.is_some() {
        // SAFETY: as above. The block hook runs before the block's first
        // instruction, so the block does not run.
        unsafe { unicorn_engine::ffi::uc_emu_stop(uc) };
    }
}

/// A translation block was made (sparse mode): decode it if new and return
/// the slot its code counts in.
extern "C" fn sparse_translated<O: Observer>(
    data: *mut libc::c_void,
    pc: u64,
    size: u32,
) -> *mut crate::sparse::Slot {
    // SAFETY: `data` is the machine registered in `install_hooks`; the
    // engine is translating, nothing else borrows the machine.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    // The reports logged so far reach the observer before anything about
    // this block does, whether the log is replayed here or handed over (the
    // recorder numbers functions in the order it meets them).
    if m.sparse.as_ref().is_some_and(|sp| sp.logged()) {
        m.replay_log();
    }
    let id = match m.blocks.lookup(pc, size) {
        Some(id) => id,
        None => match m.decode(pc, size) {
            Ok(id) => id,
            Err(_) => {
                let sp = m.sparse.as_mut().expect("sparse mode");
                return sp.failed(pc, size);
            }
        },
    };
    let facts = m.blocks.facts(id);
    // A block that ends with a client request is reported on its own: a
    // callgrind request applies from its start.
    let watched = m.blocks.watched(id) || facts.client_request;
    let policy = crate::sparse::vm_policy(
        m.observer.sparse_policy(id, facts),
        facts.terminator,
        watched,
    );
    let loggable = !watched && facts.terminator != Terminator::RepString;
    let sp = m.sparse.as_mut().expect("sparse mode");
    sp.translated(id, pc, size, facts, policy, loggable)
}

/// Log entries ahead whose slots [`Machine::hand_over_log`] prefetches: a
/// log holds up to 1,024 blocks' reports, whose slots are not all in the
/// first-level cache any more.
const PREFETCH: usize = 8;

#[inline(always)]
fn prefetch(slot: *const crate::sparse::Slot) {
    // SAFETY: a prefetch does not fault, whatever the address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch(slot as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
}

/// The block about to run asked for a report (sparse mode): translated code
/// has counted it already; undo that and handle it as the block hook does.
/// `env` is the CPU state, every guest register in it (the patch calls with
/// them synced); `slot` the block's.
extern "C" fn sparse_hook<O: Observer>(
    data: *mut libc::c_void,
    env: *const u64,
    slot: *mut crate::sparse::Slot,
) {
    // SAFETY: as in `block_hook`.
    let m = unsafe { &mut *(data as *mut Machine<'_, O>) };
    // SAFETY: translated code passes the running block's slot; slots live
    // as long as the machine.
    let s = unsafe { &mut *slot };
    s.count -= 1;
    m.clock
        .instret
        .set(m.clock.instret.get() - u64::from(s.insns));
    // An observer that takes logged reports looks at a block reached by an
    // indirect call or jump as a possible entry once, and gives the same
    // answer each later time: its later reports may be logged.
    let after_indirect = m.takes_logged && {
        let sp = m.sparse.as_ref().expect("sparse mode");
        // SAFETY: `last` is null or a slot, which lives as long as the
        // machine.
        unsafe { sp.globals.last.as_ref() }.is_some_and(|prev| {
            matches!(
                prev.terminator,
                Terminator::IndirectCall | Terminator::IndirectJump
            )
        })
    };
    m.flush_skipped();
    if m.read_sp {
        // SAFETY: `env` is the x86 CPU state, whose first field is the
        // sixteen general registers in encoding order: RSP is the fifth.
        m.sp = unsafe { *env.add(4) };
    }
    let uc = m.uc;
    // A block that runs a cut block's instructions again (not reported).
    let rerun = m.rerun.0 == s.pc;
    let stop = if s.id == crate::sparse::NO_BLOCK {
        m.on_block(uc, s.pc, s.size())
    } else {
        m.on_known_block(uc, BlockId(s.id), s.pc)
    };
    let now = m.clock.instret.get();
    let (sig_due, switch_due, next_check) = (m.sig_due, m.switch_due, m.next_check);
    let halted = stop.is_some() || m.resume.is_some();
    let rerun_goes_on = m.rerun.0 != u64::MAX;
    let sp = m.sparse.as_mut().expect("sparse mode");
    sp.reported = now;
    if !s.every() {
        // Entries are made when a block that is not one yet is entered.
        sp.apply_entries(&*m.observer);
    }
    if !halted && !rerun {
        sp.globals.last = slot;
        if after_indirect {
            s.waive_sync();
        }
    }
    let deadline = sig_due.min(switch_due).min(next_check);
    sp.globals.deadline = deadline;
    sp.globals.sync = u64::from(halted);
    sp.globals.due = if halted || s.wants_next() {
        0
    } else {
        deadline
    };
    if rerun_goes_on {
        // The re-run goes on: its next block reaches the hook too.
        sp.globals.due = 0;
        sp.globals.deadline = 0;
        sp.globals.sync = 1;
    }
    if let Some(stop) = stop {
        m.stop = Some(stop);
        // SAFETY: `uc` is the live engine calling us; stopping from inside
        // a hook is supported.
        unsafe { unicorn_engine::ffi::uc_emu_stop(uc) };
    } else if m.resume.is_some() {
        // SAFETY: as above. The block does not run.
        unsafe { unicorn_engine::ffi::uc_emu_stop(uc) };
    }
}

fn install_hooks<'o, O: Observer>(
    uc: &mut Unicorn<'o, Machine<'o, O>>,
    wants_memory: bool,
) -> Result<(), VmError> {
    // The block hook is the hot path: registered through the C interface
    // directly, with the machine as its user data, so that an event costs
    // one indirect call and no reference counting.
    let handle = uc.get_handle();
    uc.get_data_mut().uc = handle;
    let machine: *mut Machine<'o, O> = uc.get_data_mut();
    if let Some(sp) = &mut uc.get_data_mut().sparse {
        let globals = &mut *sp.globals as *mut crate::sparse::Globals;
        let instret = uc.get_data().clock.instret.as_ptr();
        // SAFETY: the callbacks have the signatures the patch expects;
        // `machine`, the globals and the clock live (at fixed addresses) as
        // long as the engine; set before the first `emu_start`.
        unsafe {
            uc_pathvm_set_block_counter(
                handle,
                sparse_translated::<O>,
                sparse_hook::<O>,
                machine as *mut libc::c_void,
                instret,
                globals as *mut libc::c_void,
            )
        };
    } else {
        let mut hook: unicorn_engine::ffi::uc_hook = std::ptr::null_mut();
        // SAFETY: `block_hook::<O>` has the signature unicorn expects of a
        // block hook; `machine` points into the engine's own data, which
        // lives (at a fixed address) as long as the engine, and hooks run
        // only inside `emu_start`, when nothing else holds a reference to
        // the machine.
        unsafe {
            unicorn_engine::ffi::uc_hook_add(
                handle,
                &mut hook,
                HookType::BLOCK,
                block_hook::<O> as *mut libc::c_void,
                machine as *mut libc::c_void,
                1u64,
                0u64,
            )
        }
        .and_then(|| Ok(()))
        .map_err(uc_err)?;
    }
    uc.add_insn_sys_hook(unicorn_engine::InsnSysX86::SYSCALL, 1, 0, |uc| {
        uc.get_data_mut().flush_skipped();
        match crate::syscalls::dispatch(uc) {
            SysResult::Continue => {}
            SysResult::Stop(s) => {
                uc.get_data_mut().stop = Some(s);
                let _ = uc.emu_stop();
            }
        }
        let flush = std::mem::take(&mut uc.get_data_mut().flush);
        for (lo, hi) in flush {
            let _ = uc.ctl_remove_cache(lo, hi);
        }
        // Guest memory the call added (a mapping outside the regions).
        let regions = std::mem::take(&mut uc.get_data_mut().mem.new_regions);
        for (start, size, host) in regions {
            // SAFETY: as for the first regions (see `run`): `host` is a
            // reservation of `size` bytes that the machine owns and drops
            // after the engine.
            let mapped = unsafe {
                uc.mem_map_ptr(
                    start,
                    size as usize,
                    Permission::ALL,
                    host as *mut libc::c_void,
                )
            };
            if let Err(e) = mapped {
                let m = uc.get_data_mut();
                m.stop = Some(Err(VmError::Emulator(format!(
                    "mapping guest memory at {start:#x}: {e:?}"
                ))));
                let _ = uc.emu_stop();
            }
        }
        // The TLB holds the permissions of the pages it maps.
        if std::mem::take(&mut uc.get_data_mut().mem.map_changed) {
            let _ = uc.ctl_flush_tlb();
        }
        vsyscall_return(uc);
        // A signal the call made pending or unblocked is delivered now,
        // before the next instruction.
        let m = uc.get_data_mut();
        m.sig_due = m.sys.sig.due(m.clock.slept_ns.get());
        if m.stop.is_none() {
            if m.resume.is_none() && m.sys.sig.next_deliverable().is_some() {
                m.resume = Some(Resume::Deliver { pc: None });
            }
            if m.resume.is_some() {
                let _ = uc.emu_stop();
            }
        }
    })
    .map_err(uc_err)?;
    uc.add_intr_hook(|uc, intno| {
        uc.get_data_mut().flush_skipped();
        let (info, pc) = crate::cpu::exception(uc, intno);
        if intno == 6 {
            if let Some(e) = unsupported_vector(uc, pc) {
                uc.get_data_mut().stop = Some(Err(VmError::Decode(e)));
                let _ = uc.emu_stop();
                return;
            }
        }
        let m = uc.get_data_mut();
        m.stop = Some(Ok(StopReason::Signaled {
            signal: info.signo,
            pc,
            fault_addr: (info.trapno == 14).then_some(info.addr).flatten(),
        }));
        m.fault = Some((info, FaultPc::At(pc)));
        let _ = uc.emu_stop();
    })
    .map_err(uc_err)?;
    uc.add_mem_hook(
        HookType::MEM_INVALID,
        1,
        0,
        |uc, kind, addr, _size, _value| {
            let addr = guest_fault_addr(addr);
            let m = uc.get_data_mut();
            m.flush_skipped();
            let signal = match kind {
                MemType::FETCH_UNMAPPED | MemType::FETCH_PROT | MemType::FETCH => libc::SIGSEGV,
                _ => libc::SIGSEGV,
            };
            let pc = if matches!(kind, MemType::FETCH_UNMAPPED | MemType::FETCH_PROT) {
                addr
            } else {
                m.cur_block
            };
            m.stop = Some(Ok(StopReason::Signaled {
                signal,
                pc,
                fault_addr: Some(addr),
            }));
            let fetch = matches!(kind, MemType::FETCH_UNMAPPED | MemType::FETCH_PROT);
            let write = matches!(kind, MemType::WRITE_UNMAPPED | MemType::WRITE_PROT);
            m.fault = Some((
                SigInfo {
                    signo: signal,
                    code: SEGV_MAPERR,
                    addr: Some(addr),
                    trapno: 14,
                    // Page-fault error code: user mode, write, instruction fetch.
                    err: 4 | if write { 2 } else { 0 } | if fetch { 16 } else { 0 },
                    ..Default::default()
                },
                if fetch {
                    FaultPc::At(addr)
                } else {
                    FaultPc::DataAccess
                },
            ));
            false
        },
    )
    .map_err(uc_err)?;
    uc.add_insn_invalid_hook(|uc| {
        let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
        let m = uc.get_data_mut();
        m.flush_skipped();
        // `icebp` (0xf1), which the emulator does not decode, is a debug
        // trap after the instruction on the CPU.
        let info = if m.mem.slice(rip, 1).ok() == Some(&[0xf1]) {
            SigInfo {
                signo: libc::SIGTRAP,
                code: crate::cpu::TRAP_BRKPT,
                addr: Some(rip + 1),
                trapno: 1,
                ..Default::default()
            }
        } else {
            SigInfo {
                signo: libc::SIGILL,
                code: ILL_ILLOPN,
                addr: Some(rip),
                trapno: 6,
                ..Default::default()
            }
        };
        let pc = if info.signo == libc::SIGTRAP {
            rip + 1
        } else {
            rip
        };
        if info.signo == libc::SIGILL {
            if let Some(e) = unsupported_vector(uc, rip) {
                uc.get_data_mut().stop = Some(Err(VmError::Decode(e)));
                let _ = uc.emu_stop();
                return false;
            }
        }
        let m = uc.get_data_mut();
        m.stop = Some(Ok(StopReason::Signaled {
            signal: info.signo,
            pc,
            fault_addr: None,
        }));
        m.fault = Some((info, FaultPc::At(pc)));
        false
    })
    .map_err(uc_err)?;
    // SAFETY: `page_prot::<O>` has the signature the patch expects;
    // `machine` lives as long as the engine (see the block hook above).
    unsafe { crate::cpu::set_page_prot(uc, page_prot::<O>, machine as *mut libc::c_void) };
    // SAFETY: `code_written::<O>` has the signature the patch expects;
    // `machine` lives as long as the engine (see the block hook above).
    unsafe { uc_pathvm_set_code_written(handle, code_written::<O>, machine as *mut libc::c_void) };
    // SAFETY: `client_request::<O>` has the signature the patch expects;
    // `machine` lives as long as the engine (see the block hook above). Set
    // before the first `emu_start`, so every translation sees it.
    unsafe {
        uc_pathvm_set_client_request(handle, client_request::<O>, machine as *mut libc::c_void)
    };
    if wants_memory {
        // SAFETY: `mem_tracer::<O>` has the tracer's signature; `machine`
        // lives as long as the engine (see the block hook above). Set before
        // the first `emu_start`, so every translation calls it.
        unsafe {
            let tracer: extern "C" fn(*mut libc::c_void, u64, u32, *const AccessSite) =
                mem_tracer::<O>;
            // The patch's declaration has three arguments; it calls with four.
            let cb = std::mem::transmute::<
                extern "C" fn(*mut libc::c_void, u64, u32, *const AccessSite),
                extern "C" fn(*mut libc::c_void, u64, u32),
            >(tracer);
            uc_pathvm_set_mem_tracer(handle, cb, machine as *mut libc::c_void)
        };
        uc.get_data_mut().mem_traced = true;
        if let Some(f) = uc.get_data_mut().observer.mem_filter() {
            uc.get_data_mut().filter_counts = f.counts;
            // SAFETY: the observer keeps both pointers valid for the run
            // (`MemFilter`'s contract); set before the first `emu_start`.
            unsafe {
                uc_pathvm_set_mem_filter(
                    handle,
                    f.ways,
                    f.set_mask,
                    f.line_bits,
                    f.assoc_log2,
                    f.counts.cast::<u64>(),
                )
            };
        }
    }
    Ok(())
}

/// The error to stop with when the instruction at `pc`, which raised #UD,
/// is a vector instruction the CPU model's emulation lacks.
fn unsupported_vector<O: Observer>(
    uc: &Unicorn<'_, Machine<'_, O>>,
    pc: u64,
) -> Option<DecodeError> {
    let m = uc.get_data();
    let in_page = (0x1000 - (pc & 0xfff)).min(15);
    let code = m
        .mem
        .slice(pc, 15)
        .or_else(|_| m.mem.slice(pc, in_page))
        .ok()?;
    crate::decode::not_emulated(code, pc, m.cpu)
}
