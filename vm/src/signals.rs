//! Signals of the guest: dispositions (`rt_sigaction`), the blocked mask,
//! pending signals, the alternate stack, interval timers on the virtual
//! clock, and delivery to guest handlers with a Linux x86-64 `rt_sigframe`
//! (undone by `rt_sigreturn`).
//!
//! Everything here is virtual: no host signal is involved, so delivery is
//! deterministic. A signal becomes pending when the guest sends it to itself
//! (`kill`, `tgkill`, `tkill`), when a timer expires (checked at block
//! boundaries: timers fire when retired instructions pass their deadline), or
//! when an instruction faults. Pending, unblocked signals are delivered at
//! the next boundary the VM controls: after the system call that made them
//! pending or unblocked them, at the block where a timer expired, or at the
//! faulting instruction. Delivery happens between two emulation runs (the
//! hook that found the signal stops the CPU; the run loop builds the frame
//! and starts again at the handler), so the program counter a hook could not
//! change reliably never matters.
//!
//! The frame is the kernel's: the return address (`sa_restorer`), a
//! `ucontext` whose `uc_mcontext` holds the general registers in `struct
//! sigcontext` order and a pointer to an `fxsave` image of the FPU and SSE
//! state, the signal mask to restore, then the `siginfo`. `rt_sigreturn`
//! reads all of it back, so a handler may change the state it returns to.

use events::Observer;
use unicorn_engine::{RegisterX86, Unicorn};

use crate::machine::{Machine, StopReason};

/// Signal numbers are 1..=64; index 0 is unused.
pub(crate) const NSIG: usize = 65;

pub(crate) const SIG_DFL: u64 = 0;
pub(crate) const SIG_IGN: u64 = 1;

const SA_ONSTACK: u64 = 0x0800_0000;
const SA_RESTORER: u64 = 0x0400_0000;
const SA_NODEFER: u64 = 0x4000_0000;
const SA_RESETHAND: u64 = 0x8000_0000;

const SS_ONSTACK: u32 = 1;
const SS_DISABLE: u32 = 2;
/// The smallest alternate stack Linux accepts (`MINSIGSTKSZ`).
const MINSIGSTKSZ: u64 = 2048;

/// `si_code` values.
pub(crate) const SI_KERNEL: i32 = 0x80;
pub(crate) const SEGV_MAPERR: i32 = 1;
pub(crate) const FPE_INTDIV: i32 = 1;
pub(crate) const ILL_ILLOPN: i32 = 2;

/// The bit of `sig` in a signal set.
#[inline]
pub(crate) fn bit(sig: i32) -> u64 {
    1u64 << (sig - 1)
}

/// Signals that can be neither caught, blocked nor ignored.
const UNBLOCKABLE: u64 = (1 << (libc::SIGKILL - 1)) | (1 << (libc::SIGSTOP - 1));

/// One `struct sigaction` of the kernel (`rt_sigaction`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SigAction {
    pub handler: u64,
    pub flags: u64,
    pub restorer: u64,
    pub mask: u64,
}

/// What the `siginfo` of a pending signal says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SigInfo {
    pub signo: i32,
    pub code: i32,
    /// Sender, for `kill`-like codes.
    pub pid: u32,
    pub uid: u32,
    /// The faulting address (SIGSEGV, SIGBUS) or instruction (SIGILL, SIGFPE).
    pub addr: Option<u64>,
    /// CPU exception number and error code (`sigcontext.trapno`, `.err`).
    pub trapno: u64,
    pub err: u64,
    /// `si_value` (the third word after `si_code`; `si_status` of SIGCHLD).
    pub value: u64,
    /// The POSIX timer that raised it (its `si_timerid` is `pid`, its
    /// `si_overrun` is `uid`).
    pub timer: Option<i32>,
    /// The timer's arming when it raised it: a signal of a timer deleted
    /// or armed again since is stale, and dropped when taken.
    pub timer_seq: u64,
}

/// Is `info` the signal of a timer deleted or armed again since it was
/// raised (among `timers`, the process's)?
fn stale_in(timers: &[PosixTimer], info: &SigInfo) -> bool {
    info.timer.is_some_and(|id| {
        timers
            .iter()
            .find(|t| t.id == id)
            .is_none_or(|t| t.seq != info.timer_seq)
    })
}

/// A signal's action when no handler is installed.
fn ignored_by_default(sig: i32) -> bool {
    // Stop signals are treated as ignored: there is no job control here.
    matches!(
        sig,
        libc::SIGCHLD
            | libc::SIGURG
            | libc::SIGWINCH
            | libc::SIGCONT
            | libc::SIGTSTP
            | libc::SIGTTIN
            | libc::SIGTTOU
    )
}

/// What the clock of a timer counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimerClock {
    /// Wall time: retired instructions plus time slept (`CLOCK_REALTIME`,
    /// `CLOCK_MONOTONIC`, `CLOCK_BOOTTIME`, `ITIMER_REAL`).
    Wall,
    /// CPU time: retired instructions (`CLOCK_PROCESS_CPUTIME_ID`,
    /// `CLOCK_THREAD_CPUTIME_ID`, `ITIMER_VIRTUAL`, `ITIMER_PROF`).
    Cpu,
}

/// One timer on the virtual clock, in virtual nanoseconds of its clock:
/// the interval timers (`setitimer`) and the POSIX timers (`timer_create`)
/// are both this.
#[derive(Clone, Copy, Debug)]
struct Timer {
    clock: TimerClock,
    /// When it fires next (0: disarmed).
    deadline: u64,
    interval: u64,
}

impl Timer {
    const fn disarmed(clock: TimerClock) -> Timer {
        Timer {
            clock,
            deadline: 0,
            interval: 0,
        }
    }

    /// Arm to fire `value` ns after `now` (0: disarm), then every
    /// `interval` ns; the old (interval, remaining).
    fn set(&mut self, value: u64, interval: u64, now: u64) -> (u64, u64) {
        let old = self.get(now);
        self.deadline = if value == 0 {
            0
        } else {
            now.saturating_add(value).max(1)
        };
        self.interval = interval;
        old
    }

    /// (interval, remaining); a timer that is due reads 1 ns.
    fn get(&self, now: u64) -> (u64, u64) {
        let left = if self.deadline == 0 {
            0
        } else {
            self.deadline.saturating_sub(now).max(1)
        };
        (self.interval, left)
    }

    /// The retired-instruction count it fires at (`slept`: the clock's
    /// sleeping time, which moves wall-clock timers only).
    fn due(&self, slept: u64) -> Option<u64> {
        (self.deadline != 0).then(|| match self.clock {
            TimerClock::Wall => self.deadline.saturating_sub(slept),
            TimerClock::Cpu => self.deadline,
        })
    }

    /// Fire if due at `now` (the clock of its kind): rearm a periodic timer
    /// at its next period after `now`. Returns the periods that passed (0:
    /// not due).
    fn expire(&mut self, now: u64) -> u64 {
        if self.deadline == 0 || now < self.deadline {
            return 0;
        }
        if self.interval == 0 {
            self.deadline = 0;
            return 1;
        }
        let periods = (now - self.deadline) / self.interval + 1;
        self.deadline = self
            .deadline
            .saturating_add(periods.saturating_mul(self.interval));
        periods
    }
}

/// `ITIMER_REAL` (wall time: retired instructions plus sleeps),
/// `ITIMER_VIRTUAL` and `ITIMER_PROF` (CPU time: retired instructions).
const TIMER_SIGNALS: [i32; 3] = [libc::SIGALRM, libc::SIGVTALRM, libc::SIGPROF];

/// `sigev_notify` of a POSIX timer.
pub(crate) const SIGEV_SIGNAL: i32 = 0;
pub(crate) const SIGEV_NONE: i32 = 1;
pub(crate) const SIGEV_THREAD_ID: i32 = 4;
/// `si_code` of a POSIX timer's signal.
pub(crate) const SI_TIMER: i32 = -2;
/// The first real-time signal: from here on signals queue.
pub(crate) const SIGRTMIN: i32 = 32;

/// A POSIX timer (`timer_create`).
#[derive(Clone, Debug)]
pub(crate) struct PosixTimer {
    pub id: i32,
    timer: Timer,
    /// Where absolute times of its clock start, in ns of the virtual clock
    /// (`TIMER_ABSTIME`).
    pub origin: u64,
    /// `SIGEV_SIGNAL`, `SIGEV_NONE` or `SIGEV_THREAD_ID` (with `tid`).
    pub notify: i32,
    pub signo: i32,
    pub value: u64,
    pub tid: u32,
    /// Its signal is queued and not yet taken: further expiries count as
    /// overruns.
    queued: bool,
    /// Counts its armings (`timer_settime`): a signal raised under an
    /// earlier one is stale.
    seq: u64,
    overrun: u64,
    /// The overrun of the last signal taken (`timer_getoverrun`).
    pub overrun_last: u64,
}

/// A signal a timer raised, for the caller to route: to the process
/// (`tid` None) or to one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimerSignal {
    pub tid: Option<u32>,
    pub info: SigInfo,
}

/// Pending signals of a thread or of the process: standard signals merge
/// (one instance each), real-time signals queue with their values, in
/// arrival order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SigQueue {
    set: u64,
    queue: Vec<SigInfo>,
}

impl SigQueue {
    /// The set of pending signals.
    pub(crate) fn set(&self) -> u64 {
        self.set
    }

    /// Queue `info`; false when a standard signal already pending merged it.
    fn push(&mut self, info: SigInfo) -> bool {
        let b = bit(info.signo);
        if info.signo < SIGRTMIN && self.set & b != 0 {
            return false;
        }
        self.set |= b;
        self.queue.push(info);
        true
    }

    /// The first instance of `sig`.
    fn take(&mut self, sig: i32) -> Option<SigInfo> {
        let k = self.queue.iter().position(|i| i.signo == sig)?;
        let info = self.queue.remove(k);
        if !self.queue.iter().any(|i| i.signo == sig) {
            self.set &= !bit(sig);
        }
        Some(info)
    }

    /// The signal to take first among `allowed`: a synchronous one (a
    /// fault), then the lowest number, as Linux's `next_signal`.
    fn next(&self, allowed: u64) -> Option<i32> {
        const SYNCHRONOUS: u64 = (1 << (libc::SIGSEGV - 1))
            | (1 << (libc::SIGBUS - 1))
            | (1 << (libc::SIGILL - 1))
            | (1 << (libc::SIGTRAP - 1))
            | (1 << (libc::SIGFPE - 1))
            | (1 << (libc::SIGSYS - 1));
        let d = self.set & allowed;
        let s = if d & SYNCHRONOUS != 0 {
            d & SYNCHRONOUS
        } else {
            d
        };
        (s != 0).then(|| s.trailing_zeros() as i32 + 1)
    }

    /// The POSIX timers whose signal is in the queue.
    fn timers(&self) -> impl Iterator<Item = i32> + '_ {
        self.queue.iter().filter_map(|i| i.timer)
    }

    /// Drop the instances `stale` says are stale among the signals of
    /// `allowed`.
    fn drop_stale(&mut self, allowed: u64, stale: &dyn Fn(&SigInfo) -> bool) {
        let before = self.queue.len();
        self.queue
            .retain(|i| bit(i.signo) & allowed == 0 || !stale(i));
        if self.queue.len() != before {
            self.set = self.queue.iter().fold(0, |s, i| s | bit(i.signo));
        }
    }
}

/// What each thread has of its own: the blocked mask, the alternate stack
/// and the signals sent to it (kept here while another thread runs; see
/// [`SignalState::swap_thread`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThreadSignals {
    pub blocked: u64,
    alt_sp: u64,
    alt_size: u64,
    alt_disabled: bool,
    suspended_mask: Option<u64>,
    /// Signals sent to this thread (`tgkill`, `SIGEV_THREAD_ID`, faults).
    pub pending: SigQueue,
}

impl Default for ThreadSignals {
    fn default() -> Self {
        ThreadSignals::new_thread(0)
    }
}

impl ThreadSignals {
    /// A new thread's: its creator's mask, no alternate stack (as `clone`
    /// with `CLONE_VM` leaves it), nothing pending.
    pub(crate) fn new_thread(blocked: u64) -> ThreadSignals {
        ThreadSignals {
            blocked,
            alt_sp: 0,
            alt_size: 0,
            alt_disabled: true,
            suspended_mask: None,
            pending: SigQueue::default(),
        }
    }

    /// Queue `info` for this thread while another runs (`ignored`: its
    /// disposition discards it); false when discarded or merged.
    pub(crate) fn post(&mut self, info: SigInfo, ignored: bool) -> bool {
        if self.blocked & bit(info.signo) == 0 && ignored {
            return false;
        }
        self.pending.push(info)
    }
}

/// The guest's signal state: the process's (dispositions, the shared
/// pending signals, timers), and the running thread's mask, alternate
/// stack and pending signals.
pub(crate) struct SignalState {
    pub actions: [SigAction; NSIG],
    pub blocked: u64,
    /// Signals sent to the running thread.
    own: SigQueue,
    /// Signals sent to the process (`kill`, timers, SIGCHLD).
    shared: SigQueue,
    /// Shared signals a thread before the running one takes (see
    /// `crate::waits`: the lowest tid that does not block a signal gets
    /// it); set at each thread switch.
    pub deferred: u64,
    /// `sigaltstack`: base, size, and whether it is disabled.
    alt_sp: u64,
    alt_size: u64,
    alt_disabled: bool,
    itimers: [Timer; 3],
    /// POSIX timers, in id order.
    timers: Vec<PosixTimer>,
    next_timer_id: i32,
    /// The mask `sigsuspend` replaced, restored by the handler's `rt_sigreturn`.
    pub suspended_mask: Option<u64>,
}

impl SignalState {
    /// A new image's state: what `execve` kept of its predecessor's.
    pub(crate) fn starting(inherited: crate::machine::StartSignals) -> SignalState {
        let mut st = SignalState::new();
        // SIGKILL and SIGSTOP can be neither blocked nor ignored.
        let fixed = bit(libc::SIGKILL) | bit(libc::SIGSTOP);
        st.blocked = inherited.blocked & !fixed;
        for sig in 1..NSIG as i32 {
            if inherited.ignored & !fixed & bit(sig) != 0 {
                st.actions[sig as usize].handler = SIG_IGN;
            }
        }
        st
    }

    pub(crate) fn new() -> SignalState {
        SignalState {
            actions: [SigAction::default(); NSIG],
            blocked: 0,
            own: SigQueue::default(),
            shared: SigQueue::default(),
            deferred: 0,
            alt_sp: 0,
            alt_size: 0,
            alt_disabled: true,
            itimers: [
                Timer::disarmed(TimerClock::Wall),
                Timer::disarmed(TimerClock::Cpu),
                Timer::disarmed(TimerClock::Cpu),
            ],
            timers: Vec::new(),
            next_timer_id: 0,
            suspended_mask: None,
        }
    }

    /// What a forked child keeps: dispositions, mask and alternate stack;
    /// pending signals, interval and POSIX timers are not inherited.
    pub(crate) fn fork_child(&mut self) {
        self.own = SigQueue::default();
        self.shared = SigQueue::default();
        self.deferred = 0;
        for t in &mut self.itimers {
            *t = Timer::disarmed(t.clock);
        }
        self.timers.clear();
        self.next_timer_id = 0;
    }

    /// A thread switch: store the running thread's own state in `t` and take
    /// the incoming thread's from it.
    pub(crate) fn swap_thread(&mut self, t: &mut ThreadSignals) {
        std::mem::swap(&mut self.blocked, &mut t.blocked);
        std::mem::swap(&mut self.alt_sp, &mut t.alt_sp);
        std::mem::swap(&mut self.alt_size, &mut t.alt_size);
        std::mem::swap(&mut self.alt_disabled, &mut t.alt_disabled);
        std::mem::swap(&mut self.suspended_mask, &mut t.suspended_mask);
        std::mem::swap(&mut self.own, &mut t.pending);
    }

    /// True when `sig` is discarded as soon as it is sent.
    pub(crate) fn is_ignored(&self, sig: i32) -> bool {
        let h = self.actions[sig as usize].handler;
        h == SIG_IGN || (h == SIG_DFL && ignored_by_default(sig))
    }

    /// True when a fault raising `sig` can go to a guest handler (otherwise
    /// the kernel kills the process, as `force_sig` does).
    pub(crate) fn catches(&self, sig: i32) -> bool {
        self.actions[sig as usize].handler > SIG_IGN && self.blocked & bit(sig) == 0
    }

    /// Make `info.signo` pending for the process (a standard signal
    /// already pending merges); false when discarded or merged.
    pub(crate) fn post(&mut self, info: SigInfo) -> bool {
        self.post_shared(info, self.blocked)
    }

    /// [`SignalState::post`], discarding an ignored signal unless `kept`
    /// holds it (the signals the main thread blocks or waits for: Linux
    /// looks at the thread a process signal is addressed to, its leader).
    pub(crate) fn post_shared(&mut self, info: SigInfo, kept: u64) -> bool {
        if kept & bit(info.signo) == 0 && self.is_ignored(info.signo) {
            return false;
        }
        self.shared.push(info)
    }

    /// Make `info.signo` pending for the running thread.
    pub(crate) fn post_own(&mut self, info: SigInfo) -> bool {
        let sig = info.signo;
        if self.blocked & bit(sig) == 0 && self.is_ignored(sig) {
            return false;
        }
        self.own.push(info)
    }

    /// The running thread's pending set (`rt_sigpending`: its own signals
    /// and the process's).
    pub(crate) fn pending_set(&self) -> u64 {
        self.own.set | self.shared.set
    }

    /// The running thread's own pending set.
    pub(crate) fn own_set(&self) -> u64 {
        self.own.set
    }

    /// Empty the running thread's own queue (it exits); what it held.
    pub(crate) fn take_own(&mut self) -> SigQueue {
        std::mem::take(&mut self.own)
    }

    /// The process's pending set.
    pub(crate) fn shared_set(&self) -> u64 {
        self.shared.set
    }

    /// The signal the running thread takes next: its own first, then the
    /// process's (those no thread before it takes).
    pub(crate) fn next_deliverable(&self) -> Option<i32> {
        self.own
            .next(!self.blocked)
            .or_else(|| self.shared.next(!self.blocked & !self.deferred))
    }

    fn take(&mut self, sig: i32) -> SigInfo {
        let info = self.own.take(sig).or_else(|| self.shared.take(sig));
        match info {
            Some(i) => self.taken(i),
            None => SigInfo {
                signo: sig,
                ..Default::default()
            },
        }
    }

    /// `rt_sigtimedwait`: take the first pending signal of `set`, the
    /// running thread's own first.
    pub(crate) fn take_of(&mut self, set: u64) -> Option<SigInfo> {
        let timers = &self.timers;
        let stale = |i: &SigInfo| stale_in(timers, i);
        self.own.drop_stale(set, &stale);
        self.shared.drop_stale(set, &stale);
        let info = match self.own.next(set) {
            Some(sig) => self.own.take(sig),
            None => {
                let sig = self.shared.next(set)?;
                self.shared.take(sig)
            }
        }?;
        Some(self.taken(info))
    }

    /// A signal leaves its queue: a POSIX timer's carries the overruns
    /// counted while it waited, and the timer may queue again.
    fn taken(&mut self, mut info: SigInfo) -> SigInfo {
        if let Some(id) = info.timer {
            if let Some(t) = self.timers.iter_mut().find(|t| t.id == id) {
                t.queued = false;
                t.overrun_last = t.overrun.min(i32::MAX as u64);
                t.overrun = 0;
                info.uid = t.overrun_last as u32;
            }
        }
        info
    }

    /// Set the blocked mask (SIGKILL and SIGSTOP cannot be blocked).
    pub(crate) fn set_blocked(&mut self, mask: u64) {
        self.blocked = mask & !UNBLOCKABLE;
        if self.own.timers().next().is_some() || self.shared.timers().next().is_some() {
            self.drop_stale();
        }
    }

    /// `sigaltstack`: the current setting as `stack_t` fields for stack
    /// pointer `sp`.
    pub(crate) fn altstack(&self, sp: u64) -> (u64, u32, u64) {
        let flags = if self.alt_disabled {
            SS_DISABLE
        } else if self.on_altstack(sp) {
            SS_ONSTACK
        } else {
            0
        };
        (self.alt_sp, flags, self.alt_size)
    }

    fn on_altstack(&self, sp: u64) -> bool {
        !self.alt_disabled && sp > self.alt_sp && sp - self.alt_sp <= self.alt_size
    }

    /// `sigaltstack` with a new setting; `Err(-errno)`.
    pub(crate) fn set_altstack(
        &mut self,
        sp: u64,
        ss_sp: u64,
        flags: u32,
        size: u64,
    ) -> Result<(), i64> {
        if self.on_altstack(sp) {
            return Err(-(libc::EPERM as i64));
        }
        if flags & !(SS_DISABLE | SS_ONSTACK | (1 << 31)) != 0 {
            return Err(-(libc::EINVAL as i64));
        }
        if flags & SS_DISABLE != 0 {
            self.alt_disabled = true;
            self.alt_sp = 0;
            self.alt_size = 0;
            return Ok(());
        }
        if size < MINSIGSTKSZ {
            return Err(-(libc::ENOMEM as i64));
        }
        self.alt_disabled = false;
        self.alt_sp = ss_sp;
        self.alt_size = size;
        Ok(())
    }

    /// `setitimer`/`alarm`: arm timer `which` (0 real, 1 virtual, 2 prof)
    /// to fire `value` ns from now (0: disarm), then every `interval` ns.
    /// Returns the old (interval, remaining). `now` is the timer's clock.
    pub(crate) fn set_timer(
        &mut self,
        which: usize,
        value: u64,
        interval: u64,
        now: u64,
    ) -> (u64, u64) {
        self.itimers[which].set(value, interval, now)
    }

    /// `getitimer`: (interval, remaining) of timer `which`.
    pub(crate) fn get_timer(&self, which: usize, now: u64) -> (u64, u64) {
        self.itimers[which].get(now)
    }

    /// The timers that raise a signal: the interval timers and the POSIX
    /// timers but those of `SIGEV_NONE`.
    fn signalling(&self) -> impl Iterator<Item = &Timer> {
        self.itimers.iter().chain(
            self.timers
                .iter()
                .filter(|t| t.notify != SIGEV_NONE)
                .map(|t| &t.timer),
        )
    }

    /// The retired-instruction count at which the next timer fires
    /// (`u64::MAX`: none armed). `slept` is the clock's sleeping time, which
    /// moves the wall-clock timers only.
    pub(crate) fn due(&self, slept: u64) -> u64 {
        self.signalling()
            .filter_map(|t| t.due(slept))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The earliest wall-clock deadline of a timer that raises a signal:
    /// the clock may jump to it when every thread waits.
    pub(crate) fn wall_deadline(&self) -> Option<u64> {
        self.signalling()
            .filter(|t| t.clock == TimerClock::Wall && t.deadline != 0)
            .map(|t| t.deadline)
            .min()
    }

    /// Fire the timers whose deadline has passed (`now_ns` is the wall
    /// clock, `cpu_ns` the CPU clock); rearm the periodic ones. The
    /// interval timers' signals are posted to the process; the POSIX
    /// timers' come back for the caller to route (then
    /// [`SignalState::timer_posted`]).
    pub(crate) fn fire_timers(
        &mut self,
        now_ns: u64,
        cpu_ns: u64,
        pid: u32,
        uid: u32,
    ) -> Vec<TimerSignal> {
        let now = |c: TimerClock| match c {
            TimerClock::Wall => now_ns,
            TimerClock::Cpu => cpu_ns,
        };
        for (k, signo) in TIMER_SIGNALS.into_iter().enumerate() {
            // Missed periods do not queue (as on Linux: one signal).
            if self.itimers[k].expire(now(self.itimers[k].clock)) > 0 {
                self.post(SigInfo {
                    signo,
                    code: SI_KERNEL,
                    pid,
                    uid,
                    ..Default::default()
                });
            }
        }
        let mut out = Vec::new();
        for t in &mut self.timers {
            if t.notify == SIGEV_NONE {
                continue;
            }
            let periods = t.timer.expire(now(t.timer.clock));
            if periods == 0 {
                continue;
            }
            // Periods that pass while its signal waits are overruns
            // (`si_overrun`, `timer_getoverrun`).
            if t.queued {
                t.overrun = t.overrun.saturating_add(periods);
                continue;
            }
            t.overrun = t.overrun.saturating_add(periods - 1);
            t.queued = true;
            out.push(TimerSignal {
                tid: (t.notify == SIGEV_THREAD_ID).then_some(t.tid),
                info: SigInfo {
                    signo: t.signo,
                    code: SI_TIMER,
                    pid: t.id as u32,
                    value: t.value,
                    timer: Some(t.id),
                    timer_seq: t.seq,
                    ..Default::default()
                },
            });
        }
        out
    }

    /// The signal of timer `id` was queued (`true`) or discarded (ignored,
    /// merged, or its thread gone): only a queued one waits to be taken.
    pub(crate) fn timer_posted(&mut self, id: i32, queued: bool) {
        if !queued {
            if let Some(t) = self.timers.iter_mut().find(|t| t.id == id) {
                t.queued = false;
            }
        }
    }

    /// Signals of POSIX timers dropped with an exiting thread's queue.
    pub(crate) fn drop_thread_queue(&mut self, q: &SigQueue) {
        let ids: Vec<i32> = q.timers().collect();
        for id in ids {
            self.timer_posted(id, false);
        }
    }

    /// `timer_create`: a new disarmed timer; its id (`Err(-errno)`).
    pub(crate) fn create_timer(
        &mut self,
        clock: TimerClock,
        origin: u64,
        notify: i32,
        signo: i32,
        value: u64,
        tid: u32,
    ) -> Result<i32, i64> {
        // Ids count up from 0 per process, as Linux's.
        let mut id = self.next_timer_id;
        for _ in 0..=self.timers.len() {
            if !self.timers.iter().any(|t| t.id == id) {
                break;
            }
            id = id.checked_add(1).unwrap_or(0);
        }
        if self.timers.iter().any(|t| t.id == id) {
            return Err(-(libc::EAGAIN as i64));
        }
        self.next_timer_id = id.checked_add(1).unwrap_or(0);
        let k = self.timers.partition_point(|t| t.id < id);
        self.timers.insert(
            k,
            PosixTimer {
                id,
                timer: Timer::disarmed(clock),
                origin,
                notify,
                signo,
                value: if value == u64::MAX { id as u64 } else { value },
                tid,
                queued: false,
                seq: 0,
                overrun: 0,
                overrun_last: 0,
            },
        );
        Ok(id)
    }

    /// POSIX timer `id`.
    pub(crate) fn posix_timer(&self, id: i32) -> Option<&PosixTimer> {
        self.timers.iter().find(|t| t.id == id)
    }

    /// `timer_settime` with a relative `value` (0: disarm) and `interval`
    /// at `now` (its clock); the old (interval, remaining).
    pub(crate) fn set_posix_timer(
        &mut self,
        id: i32,
        value: u64,
        interval: u64,
        now: u64,
    ) -> Option<(u64, u64)> {
        let t = self.timers.iter_mut().find(|t| t.id == id)?;
        let old = t.current(now);
        t.timer.set(value, interval, now);
        t.overrun = 0;
        // A signal of the earlier arming still pending is stale (Linux
        // drops it when it would be taken); the timer may queue again.
        t.seq += 1;
        t.queued = false;
        self.drop_stale();
        Some(old)
    }

    /// `timer_gettime`: (interval, remaining).
    pub(crate) fn get_posix_timer(&self, id: i32, now: u64) -> Option<(u64, u64)> {
        self.posix_timer(id).map(|t| t.current(now))
    }

    /// `timer_delete`.
    pub(crate) fn delete_posix_timer(&mut self, id: i32) -> bool {
        let n = self.timers.len();
        self.timers.retain(|t| t.id != id);
        self.drop_stale();
        self.timers.len() != n
    }

    /// Stale timer signals are dropped when they would be taken, as Linux
    /// does since 6.12: those the running thread does not block now (the
    /// blocked ones still show in `sigpending`, as natively, until
    /// unblocked or waited for).
    fn drop_stale(&mut self) {
        let allowed = !self.blocked;
        let timers = &self.timers;
        let stale = |i: &SigInfo| stale_in(timers, i);
        self.own.drop_stale(allowed, &stale);
        self.shared.drop_stale(allowed & !self.deferred, &stale);
    }
}

impl PosixTimer {
    /// What its clock counts.
    pub(crate) fn clock(&self) -> TimerClock {
        self.timer.clock
    }

    /// (interval, remaining) at `now`: a `SIGEV_NONE` timer is never fired,
    /// so its periods are counted here.
    fn current(&self, now: u64) -> (u64, u64) {
        let mut t = self.timer;
        if self.notify == SIGEV_NONE {
            t.expire(now);
            if t.deadline == 0 {
                return (t.interval, 0);
            }
        }
        t.get(now)
    }
}

impl SigInfo {
    /// The guest's 128-byte `siginfo_t`: `si_signo`, `si_errno`, `si_code`,
    /// then the fault address, or the two ints and the value that follow
    /// (`si_pid`/`si_uid`/`si_value`, `si_timerid`/`si_overrun`/`si_value`,
    /// `si_pid`/`si_uid`/`si_status`).
    pub(crate) fn bytes(&self) -> [u8; 128] {
        let mut b = [0u8; 128];
        b[0..4].copy_from_slice(&self.signo.to_le_bytes());
        b[8..12].copy_from_slice(&self.code.to_le_bytes());
        match self.addr {
            Some(a) => b[16..24].copy_from_slice(&a.to_le_bytes()),
            None => {
                b[16..20].copy_from_slice(&self.pid.to_le_bytes());
                b[20..24].copy_from_slice(&self.uid.to_le_bytes());
                b[24..32].copy_from_slice(&self.value.to_le_bytes());
            }
        }
        b
    }
}

/// Layout of the frame (offsets from the frame's start, which is the stack
/// pointer at handler entry).
mod frame {
    /// `pretcode`, then the kernel's `struct ucontext` (304 bytes), then the
    /// `siginfo` (128 bytes).
    pub const UCONTEXT: u64 = 8;
    pub const UC_FLAGS: u64 = 0;
    pub const UC_STACK: u64 = 16;
    pub const UC_MCONTEXT: u64 = 40;
    pub const UC_SIGMASK: u64 = 296;
    pub const SIGINFO: u64 = UCONTEXT + 304;
    pub const SIZE: u64 = SIGINFO + 128;
    /// Offsets in `struct sigcontext` (relative to `UC_MCONTEXT`).
    pub const SC_EFLAGS: u64 = 17 * 8;
    pub const SC_CSGSFS: u64 = 18 * 8;
    pub const SC_ERR: u64 = 19 * 8;
    pub const SC_TRAPNO: u64 = 20 * 8;
    pub const SC_OLDMASK: u64 = 21 * 8;
    pub const SC_CR2: u64 = 22 * 8;
    pub const SC_FPSTATE: u64 = 23 * 8;
    /// `fxsave` image size.
    pub const FXSAVE: u64 = 512;
    /// `uc_flags`: UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS (no xsave state).
    pub const FLAGS: u64 = 0x6;
    /// `uc_flags`'s UC_FP_XSTATE: the FPU state is an xsave image.
    pub const FP_XSTATE: u64 = 0x1;
    /// The xsave image of the x86-64-v3 model (x87, SSE, AVX: XCR0 = 7) and
    /// the `FP_XSTATE_MAGIC2` word after it.
    pub const XSAVE: u64 = 832;
    pub const XSAVE_AREA: u64 = XSAVE + 4;
    /// `struct _fpx_sw_bytes` in the image's software-reserved bytes.
    pub const SW_BYTES: usize = 464;
    pub const MAGIC1: u32 = 0x4650_5853;
    pub const MAGIC2: u32 = 0x4650_5845;
    /// The header's XSTATE_BV, and the AVX component (the upper halves).
    pub const XSTATE_BV: usize = 512;
    pub const YMM_HI: usize = 576;
}

/// The general registers of `struct sigcontext`, in order, up to `rip`.
const SIGCONTEXT_GREGS: [RegisterX86; 17] = [
    RegisterX86::R8,
    RegisterX86::R9,
    RegisterX86::R10,
    RegisterX86::R11,
    RegisterX86::R12,
    RegisterX86::R13,
    RegisterX86::R14,
    RegisterX86::R15,
    RegisterX86::RDI,
    RegisterX86::RSI,
    RegisterX86::RBP,
    RegisterX86::RBX,
    RegisterX86::RDX,
    RegisterX86::RAX,
    RegisterX86::RCX,
    RegisterX86::RSP,
    RegisterX86::RIP,
];

pub(crate) const XMM: [RegisterX86; 16] = [
    RegisterX86::XMM0,
    RegisterX86::XMM1,
    RegisterX86::XMM2,
    RegisterX86::XMM3,
    RegisterX86::XMM4,
    RegisterX86::XMM5,
    RegisterX86::XMM6,
    RegisterX86::XMM7,
    RegisterX86::XMM8,
    RegisterX86::XMM9,
    RegisterX86::XMM10,
    RegisterX86::XMM11,
    RegisterX86::XMM12,
    RegisterX86::XMM13,
    RegisterX86::XMM14,
    RegisterX86::XMM15,
];

pub(crate) const YMM: [RegisterX86; 16] = [
    RegisterX86::YMM0,
    RegisterX86::YMM1,
    RegisterX86::YMM2,
    RegisterX86::YMM3,
    RegisterX86::YMM4,
    RegisterX86::YMM5,
    RegisterX86::YMM6,
    RegisterX86::YMM7,
    RegisterX86::YMM8,
    RegisterX86::YMM9,
    RegisterX86::YMM10,
    RegisterX86::YMM11,
    RegisterX86::YMM12,
    RegisterX86::YMM13,
    RegisterX86::YMM14,
    RegisterX86::YMM15,
];

pub(crate) const ST: [RegisterX86; 8] = [
    RegisterX86::ST0,
    RegisterX86::ST1,
    RegisterX86::ST2,
    RegisterX86::ST3,
    RegisterX86::ST4,
    RegisterX86::ST5,
    RegisterX86::ST6,
    RegisterX86::ST7,
];

/// The flags `rt_sigreturn` takes from the frame (the kernel's FIX_EFLAGS:
/// AC, OF, DF, TF, SF, ZF, AF, PF, CF and RF).
const FIX_EFLAGS: u64 = 0x0004_0dd5 | 0x0001_0000;

type Uc<'a, 'o, O> = Unicorn<'a, Machine<'o, O>>;

/// The `fxsave` image of the FPU and SSE registers.
fn fxsave<O: Observer>(uc: &Uc<'_, '_, O>) -> [u8; 512] {
    let mut fx = [0u8; 512];
    let r16 = |r| uc.reg_read(r).unwrap_or(0) as u16;
    fx[0..2].copy_from_slice(&r16(RegisterX86::FPCW).to_le_bytes());
    fx[2..4].copy_from_slice(&r16(RegisterX86::FPSW).to_le_bytes());
    // The abridged tag word: one bit per register, set when not empty.
    let tag = r16(RegisterX86::FPTAG);
    fx[4] = (0..8).fold(0u8, |a, i| a | (u8::from((tag >> (2 * i)) & 3 != 3) << i));
    // The last x87 instruction's opcode and pointers, in FXSAVE64's layout
    // (as Linux saves them for a 64-bit process).
    fx[6..8].copy_from_slice(&r16(RegisterX86::FOP).to_le_bytes());
    let r64 = |r| uc.reg_read(r).unwrap_or(0);
    fx[8..16].copy_from_slice(&r64(RegisterX86::FIP).to_le_bytes());
    fx[16..24].copy_from_slice(&r64(RegisterX86::FDP).to_le_bytes());
    let mxcsr = uc.reg_read(RegisterX86::MXCSR).unwrap_or(0x1f80) as u32;
    fx[24..28].copy_from_slice(&mxcsr.to_le_bytes());
    fx[28..32].copy_from_slice(&0xffffu32.to_le_bytes());
    for (i, r) in ST.iter().enumerate() {
        if let Ok(v) = uc.reg_read_long(*r) {
            let n = v.len().min(10);
            fx[32 + 16 * i..32 + 16 * i + n].copy_from_slice(&v[..n]);
        }
    }
    for (i, r) in XMM.iter().enumerate() {
        if let Ok(v) = uc.reg_read_long(*r) {
            let n = v.len().min(16);
            fx[160 + 16 * i..160 + 16 * i + n].copy_from_slice(&v[..n]);
        }
    }
    fx
}

/// The xsave image Linux writes on a CPU with the AVX state (XCR0 = 7): the
/// `fxsave` image with `struct _fpx_sw_bytes` in its reserved bytes, the
/// header (every component in use), the upper halves of YMM0-15, and
/// `FP_XSTATE_MAGIC2` after the image.
fn xsave<O: Observer>(uc: &Uc<'_, '_, O>) -> Vec<u8> {
    let mut x = vec![0u8; frame::XSAVE_AREA as usize];
    x[..512].copy_from_slice(&fxsave(uc));
    let sw = frame::SW_BYTES;
    x[sw..sw + 4].copy_from_slice(&frame::MAGIC1.to_le_bytes());
    x[sw + 4..sw + 8].copy_from_slice(&(frame::XSAVE_AREA as u32).to_le_bytes());
    x[sw + 8..sw + 16].copy_from_slice(&7u64.to_le_bytes());
    x[sw + 16..sw + 20].copy_from_slice(&(frame::XSAVE as u32).to_le_bytes());
    x[frame::XSTATE_BV..frame::XSTATE_BV + 8].copy_from_slice(&7u64.to_le_bytes());
    for (i, r) in YMM.iter().enumerate() {
        if let Ok(v) = uc.reg_read_long(*r) {
            if v.len() >= 32 {
                let at = frame::YMM_HI + 16 * i;
                x[at..at + 16].copy_from_slice(&v[16..32]);
            }
        }
    }
    let end = frame::XSAVE as usize;
    x[end..end + 4].copy_from_slice(&frame::MAGIC2.to_le_bytes());
    x
}

/// The upper halves of YMM0-15 from a frame's FPU image: from its AVX
/// component when it is an xsave image that has it, else zero (Linux
/// restores the components an image lacks to their initial state).
fn restore_ymm_hi<O: Observer>(uc: &mut Uc<'_, '_, O>, image: &[u8]) {
    let sw = frame::SW_BYTES;
    let word = |o: usize| {
        image
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let has_avx = image.len() >= frame::XSAVE_AREA as usize
        && word(sw) == Some(frame::MAGIC1)
        && word(frame::XSAVE as usize) == Some(frame::MAGIC2)
        && image[frame::XSTATE_BV] & 4 != 0;
    for (i, r) in YMM.iter().enumerate() {
        let Ok(mut v) = uc.reg_read_long(*r) else {
            continue;
        };
        if v.len() < 32 {
            continue;
        }
        let at = frame::YMM_HI + 16 * i;
        if has_avx {
            v[16..32].copy_from_slice(&image[at..at + 16]);
        } else {
            v[16..32].fill(0);
        }
        let _ = uc.reg_write_long(*r, &v);
    }
}

fn fxrstor<O: Observer>(uc: &mut Uc<'_, '_, O>, fx: &[u8]) {
    let u16_at = |o: usize| u16::from_le_bytes([fx[o], fx[o + 1]]) as u64;
    let _ = uc.reg_write(RegisterX86::FPCW, u16_at(0));
    let _ = uc.reg_write(RegisterX86::FPSW, u16_at(2));
    let tag = (0..8).fold(0u64, |a, i| {
        a | (if fx[4] & (1 << i) != 0 { 0 } else { 3 } << (2 * i))
    });
    let _ = uc.reg_write(RegisterX86::FPTAG, tag);
    // FXRSTOR64's view of the pointers: 11 bits of FOP, FIP made canonical
    // (48-bit addresses), FDP whole.
    let u64_at = |o: usize| u64::from_le_bytes(fx[o..o + 8].try_into().unwrap());
    let _ = uc.reg_write(RegisterX86::FOP, u16_at(6) & 0x7ff);
    let _ = uc.reg_write(RegisterX86::FIP, (((u64_at(8) << 16) as i64) >> 16) as u64);
    let _ = uc.reg_write(RegisterX86::FDP, u64_at(16));
    let mxcsr = u32::from_le_bytes([fx[24], fx[25], fx[26], fx[27]]) as u64;
    let _ = uc.reg_write(RegisterX86::MXCSR, mxcsr & 0xffff);
    for (i, r) in ST.iter().enumerate() {
        let _ = uc.reg_write_long(*r, &fx[32 + 16 * i..32 + 16 * i + 10]);
    }
    for (i, r) in XMM.iter().enumerate() {
        let _ = uc.reg_write_long(*r, &fx[160 + 16 * i..160 + 16 * i + 16]);
    }
}

/// Deliver every pending, unblocked signal; the guest was stopped with its
/// next instruction at `pc`. Returns where to go on (a handler, or `pc`), or
/// how the guest ends (a signal whose default action terminates it).
pub(crate) fn deliver_pending<O: Observer>(
    uc: &mut Uc<'_, '_, O>,
    mut pc: u64,
) -> Result<u64, StopReason> {
    loop {
        let m = uc.get_data_mut();
        let Some(sig) = m.sys.sig.next_deliverable() else {
            return Ok(pc);
        };
        let info = m.sys.sig.take(sig);
        let act = m.sys.sig.actions[sig as usize];
        if act.handler == SIG_IGN || (act.handler == SIG_DFL && ignored_by_default(sig)) {
            continue;
        }
        if act.handler == SIG_DFL {
            return Err(StopReason::Signaled {
                signal: sig,
                pc,
                fault_addr: if matches!(sig, libc::SIGSEGV | libc::SIGBUS) {
                    info.addr
                } else {
                    None
                },
            });
        }
        pc = push_frame(uc, sig, &info, act, pc)?;
    }
}

/// Build the signal frame for `sig` and point the CPU at its handler.
fn push_frame<O: Observer>(
    uc: &mut Uc<'_, '_, O>,
    sig: i32,
    info: &SigInfo,
    act: SigAction,
    pc: u64,
) -> Result<u64, StopReason> {
    let mut gregs = [0u64; 17];
    for (v, r) in gregs.iter_mut().zip(SIGCONTEXT_GREGS) {
        *v = uc.reg_read(r).unwrap_or(0);
    }
    gregs[16] = pc;
    let rsp = gregs[15];
    let eflags = uc.reg_read(RegisterX86::EFLAGS).unwrap_or(0x202);
    let avx = uc.get_data().cpu.has_avx();
    let fx = if avx { xsave(uc) } else { fxsave(uc).to_vec() };
    let m = uc.get_data_mut();
    let st = &mut m.sys.sig;
    let mut sp = if act.flags & SA_ONSTACK != 0 && !st.alt_disabled && !st.on_altstack(rsp) {
        st.alt_sp + st.alt_size
    } else {
        rsp.wrapping_sub(128) // the red zone
    };
    let (alt_sp, alt_flags, alt_size) = st.altstack(rsp);
    sp = (sp - fx.len() as u64) & !63;
    let fx_at = sp;
    sp = ((sp - frame::SIZE) & !15) - 8;
    let old_mask = st.suspended_mask.take().unwrap_or(st.blocked);

    let mut f = vec![0u8; frame::SIZE as usize];
    let put = |f: &mut [u8], off: u64, v: u64| {
        f[off as usize..off as usize + 8].copy_from_slice(&v.to_le_bytes())
    };
    put(
        &mut f,
        0,
        if act.flags & SA_RESTORER != 0 {
            act.restorer
        } else {
            0
        },
    );
    let uc_at = frame::UCONTEXT;
    put(
        &mut f,
        uc_at + frame::UC_FLAGS,
        frame::FLAGS | if avx { frame::FP_XSTATE } else { 0 },
    );
    put(&mut f, uc_at + frame::UC_STACK, alt_sp);
    put(&mut f, uc_at + frame::UC_STACK + 8, alt_flags as u64);
    put(&mut f, uc_at + frame::UC_STACK + 16, alt_size);
    let mc = uc_at + frame::UC_MCONTEXT;
    for (i, v) in gregs.iter().enumerate() {
        put(&mut f, mc + 8 * i as u64, *v);
    }
    put(&mut f, mc + frame::SC_EFLAGS, eflags);
    put(&mut f, mc + frame::SC_CSGSFS, 0x33 | (0x2b << 48));
    put(&mut f, mc + frame::SC_ERR, info.err);
    put(&mut f, mc + frame::SC_TRAPNO, info.trapno);
    put(&mut f, mc + frame::SC_OLDMASK, old_mask);
    put(
        &mut f,
        mc + frame::SC_CR2,
        if info.trapno == 14 {
            info.addr.unwrap_or(0)
        } else {
            0
        },
    );
    put(&mut f, mc + frame::SC_FPSTATE, fx_at);
    put(&mut f, uc_at + frame::UC_SIGMASK, old_mask);
    let si = frame::SIGINFO as usize;
    f[si..si + 128].copy_from_slice(
        &SigInfo {
            signo: sig,
            ..*info
        }
        .bytes(),
    );
    // The frame goes where the guest itself could write (not past the end
    // of an overflowed stack).
    let room = m.mem.writable(fx_at, fx.len() as u64) && m.mem.writable(sp, frame::SIZE);
    if !room || m.mem.write(fx_at, &fx).is_err() || m.mem.write(sp, &f).is_err() {
        // No room for the frame: the kernel kills with SIGSEGV.
        return Err(StopReason::Signaled {
            signal: libc::SIGSEGV,
            pc,
            fault_addr: Some(sp),
        });
    }

    let st = &mut m.sys.sig;
    let mut mask = st.blocked | act.mask;
    if act.flags & SA_NODEFER == 0 {
        mask |= bit(sig);
    }
    st.set_blocked(mask);
    if act.flags & SA_RESETHAND != 0 {
        st.actions[sig as usize] = SigAction::default();
    }
    m.observer.signal_delivered(sig, act.handler, sp);
    m.after_control_change();

    let _ = uc.reg_write(RegisterX86::RDI, sig as u64);
    let _ = uc.reg_write(RegisterX86::RSI, sp + frame::SIGINFO);
    let _ = uc.reg_write(RegisterX86::RDX, sp + frame::UCONTEXT);
    let _ = uc.reg_write(RegisterX86::RAX, 0);
    let _ = uc.reg_write(RegisterX86::RSP, sp);
    crate::cpu::handler_fpu_state(uc);
    // DF and TF are cleared for the handler, as the kernel does.
    let _ = uc.reg_write(RegisterX86::EFLAGS, eflags & !(0x400 | 0x100 | 0x1_0000));
    Ok(act.handler)
}

/// `rt_sigreturn`: restore the state saved in the frame the stack pointer
/// points into (the handler's `ret` popped the restorer's address). Returns
/// where to go on, or how the guest ends when the frame is unreadable.
pub(crate) fn sigreturn<O: Observer>(uc: &mut Uc<'_, '_, O>) -> Result<u64, StopReason> {
    let rsp = uc.reg_read(RegisterX86::RSP).unwrap_or(0);
    let frame_at = rsp.wrapping_sub(8);
    let m = uc.get_data_mut();
    let mut f = vec![0u8; frame::SIZE as usize];
    if m.mem.read(frame_at, &mut f).is_err() {
        return Err(StopReason::Signaled {
            signal: libc::SIGSEGV,
            pc: m.cur_block,
            fault_addr: Some(frame_at),
        });
    }
    let get = |off: u64| {
        u64::from_le_bytes(
            f[off as usize..off as usize + 8]
                .try_into()
                .unwrap_or([0; 8]),
        )
    };
    let mc = frame::UCONTEXT + frame::UC_MCONTEXT;
    let gregs: Vec<u64> = (0..17).map(|i| get(mc + 8 * i)).collect();
    let eflags = get(mc + frame::SC_EFLAGS);
    let fx_at = get(mc + frame::SC_FPSTATE);
    let mask = get(frame::UCONTEXT + frame::UC_SIGMASK);
    m.sys.sig.set_blocked(mask);
    let avx = m.cpu.has_avx();
    let fx = if fx_at != 0 {
        let full = if avx {
            frame::XSAVE_AREA
        } else {
            frame::FXSAVE
        };
        m.mem
            .slice(fx_at, full)
            .or_else(|_| m.mem.slice(fx_at, frame::FXSAVE))
            .ok()
            .map(|s| s.to_vec())
    } else {
        None
    };
    let old_flags = uc.reg_read(RegisterX86::EFLAGS).unwrap_or(0x202);
    for (v, r) in gregs.iter().zip(SIGCONTEXT_GREGS) {
        let _ = uc.reg_write(r, *v);
    }
    let _ = uc.reg_write(
        RegisterX86::EFLAGS,
        (old_flags & !FIX_EFLAGS) | (eflags & FIX_EFLAGS),
    );
    if let Some(fx) = fx {
        fxrstor(uc, &fx);
        if avx {
            restore_ymm_hi(uc, &fx);
        }
    }
    let m = uc.get_data_mut();
    m.observer.signal_returned(gregs[15]);
    m.after_control_change();
    Ok(gregs[16])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(sig: i32) -> SigInfo {
        SigInfo {
            signo: sig,
            ..Default::default()
        }
    }

    fn handle(st: &mut SignalState, sig: i32) {
        st.actions[sig as usize].handler = 0x1000;
    }

    #[test]
    fn lowest_unblocked_pending_signal_goes_first() {
        let mut st = SignalState::new();
        handle(&mut st, libc::SIGUSR1);
        handle(&mut st, libc::SIGUSR2);
        st.post(info(libc::SIGUSR2));
        st.post(info(libc::SIGUSR1));
        assert_eq!(st.next_deliverable(), Some(libc::SIGUSR1));
        st.set_blocked(bit(libc::SIGUSR1) | bit(libc::SIGKILL));
        assert_eq!(st.blocked, bit(libc::SIGUSR1), "SIGKILL cannot be blocked");
        assert_eq!(st.next_deliverable(), Some(libc::SIGUSR2));
        assert_eq!(st.take(libc::SIGUSR2).signo, libc::SIGUSR2);
        assert_eq!(st.next_deliverable(), None);
        assert_eq!(st.pending_set(), bit(libc::SIGUSR1));
        st.set_blocked(0);
        assert_eq!(st.next_deliverable(), Some(libc::SIGUSR1));
    }

    #[test]
    fn ignored_signals_are_discarded_unless_blocked() {
        let mut st = SignalState::new();
        st.post(info(libc::SIGCHLD));
        assert_eq!(st.pending_set(), 0, "ignored by default");
        st.actions[libc::SIGUSR1 as usize].handler = SIG_IGN;
        st.post(info(libc::SIGUSR1));
        assert_eq!(st.pending_set(), 0);
        st.set_blocked(bit(libc::SIGUSR1));
        st.post(info(libc::SIGUSR1));
        assert_eq!(st.pending_set(), bit(libc::SIGUSR1));
        assert!(!st.catches(libc::SIGSEGV));
        handle(&mut st, libc::SIGSEGV);
        assert!(st.catches(libc::SIGSEGV));
        st.set_blocked(bit(libc::SIGSEGV));
        assert!(!st.catches(libc::SIGSEGV), "a blocked fault kills");
    }

    #[test]
    fn timers_fire_at_their_deadline_and_rearm() {
        let mut st = SignalState::new();
        handle(&mut st, libc::SIGALRM);
        handle(&mut st, libc::SIGVTALRM);
        assert_eq!(st.due(0), u64::MAX);
        // Real timer in 1000 ns at t=500; virtual every 300 from cpu 100.
        assert_eq!(st.set_timer(0, 1000, 0, 500), (0, 0));
        st.set_timer(1, 300, 300, 100);
        assert_eq!(st.due(0), 400);
        // 200 ns slept: the real deadline is 200 instructions earlier.
        assert_eq!(st.due(200), 400.min(1500 - 200));
        st.fire_timers(450, 450, 1000, 0);
        assert_eq!(st.next_deliverable(), Some(libc::SIGVTALRM));
        assert_eq!(st.get_timer(1, 450), (300, 250));
        assert_eq!(st.take(libc::SIGVTALRM).code, SI_KERNEL);
        // Missed periods give one signal; the next deadline is in the future.
        st.fire_timers(1600, 1700, 1000, 0);
        assert_eq!(st.pending_set(), bit(libc::SIGALRM) | bit(libc::SIGVTALRM));
        assert_eq!(st.get_timer(1, 1700), (300, 200));
        assert_eq!(st.wall_deadline(), None, "one-shot");
        assert_eq!(st.set_timer(1, 0, 0, 1700), (300, 200));
        assert_eq!(st.due(0), u64::MAX);
    }

    #[test]
    fn real_time_signals_queue_in_order_standard_ones_merge() {
        let mut st = SignalState::new();
        handle(&mut st, libc::SIGUSR1);
        handle(&mut st, 40);
        for v in [7, 8] {
            assert!(st.post(SigInfo {
                value: v,
                ..info(40)
            }));
        }
        assert!(st.post(info(libc::SIGUSR1)));
        assert!(!st.post(info(libc::SIGUSR1)), "merged");
        assert!(st.post_own(info(41)));
        assert_eq!(st.pending_set(), bit(40) | bit(41) | bit(libc::SIGUSR1));
        // The thread's own signals first, then the process's, lowest first.
        assert_eq!(st.next_deliverable(), Some(41));
        assert_eq!(st.take(41).signo, 41);
        assert_eq!(st.take(libc::SIGUSR1).signo, libc::SIGUSR1);
        assert_eq!(st.take_of(bit(40)).map(|i| i.value), Some(7));
        assert_eq!(st.pending_set(), bit(40), "one instance left");
        st.deferred = bit(40);
        assert_eq!(st.next_deliverable(), None, "another thread takes it");
        assert_eq!(st.take_of(bit(40)).map(|i| i.value), Some(8));
        assert_eq!(st.pending_set(), 0);
    }

    #[test]
    fn posix_timers_count_overruns_while_their_signal_waits() {
        let mut st = SignalState::new();
        handle(&mut st, 40);
        let id = st
            .create_timer(TimerClock::Wall, 0, SIGEV_SIGNAL, 40, 0x55, 0)
            .unwrap();
        assert_eq!(id, 0);
        assert_eq!(
            st.create_timer(TimerClock::Cpu, 0, SIGEV_NONE, 0, u64::MAX, 0),
            Ok(1)
        );
        assert_eq!(st.posix_timer(1).unwrap().value, 1, "the id as value");
        st.set_posix_timer(id, 100, 100, 0);
        st.set_posix_timer(1, 50, 0, 0);
        assert_eq!(st.due(0), 100, "SIGEV_NONE never fires");
        let fired = st.fire_timers(100, 100, 1000, 0);
        assert_eq!(fired.len(), 1);
        assert_eq!((fired[0].tid, fired[0].info.code), (None, SI_TIMER));
        assert!(st.post(fired[0].info));
        // Three more periods pass before it is taken: three overruns.
        assert!(st.fire_timers(250, 250, 1000, 0).is_empty());
        assert!(st.fire_timers(420, 420, 1000, 0).is_empty());
        let got = st.take_of(bit(40)).unwrap();
        assert_eq!((got.pid, got.uid, got.value), (0, 3, 0x55));
        assert_eq!(st.posix_timer(id).unwrap().overrun_last, 3);
        assert_eq!(st.get_posix_timer(id, 420), Some((100, 80)));
        assert_eq!(st.get_posix_timer(1, 420), Some((0, 0)), "expired");
        assert_eq!(st.fire_timers(500, 500, 1000, 0).len(), 1);
        assert!(st.delete_posix_timer(id));
        assert!(!st.delete_posix_timer(id));
        st.fork_child();
        assert!(st.posix_timer(1).is_none(), "not inherited");
    }

    #[test]
    fn alternate_stack_rules() {
        let mut st = SignalState::new();
        assert_eq!(st.altstack(0x5000).1, SS_DISABLE);
        assert_eq!(
            st.set_altstack(0x9000, 0x1000, 0, 1024),
            Err(-(libc::ENOMEM as i64))
        );
        assert_eq!(st.set_altstack(0x9000, 0x1000, 0, 0x2000), Ok(()));
        assert_eq!(st.altstack(0x9000), (0x1000, 0, 0x2000));
        assert_eq!(st.altstack(0x2000), (0x1000, SS_ONSTACK, 0x2000));
        assert_eq!(
            st.set_altstack(0x2000, 0, SS_DISABLE, 0),
            Err(-(libc::EPERM as i64)),
            "not while running on it"
        );
        assert_eq!(st.set_altstack(0x9000, 0, SS_DISABLE, 0), Ok(()));
        assert_eq!(st.altstack(0x2000).1, SS_DISABLE);
    }
}
