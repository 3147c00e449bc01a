//! System calls that wait, under the deterministic scheduler and on the
//! virtual clock.
//!
//! A call that would wait (`poll`, `ppoll`, `select`, `pselect6`,
//! `epoll_wait`/`epoll_pwait`/`epoll_pwait2`, a `read` that would block
//! while other threads live or on a timerfd, `pause`, `sigsuspend`,
//! `rt_sigtimedwait`) first tries without waiting. If nothing is ready, its
//! thread becomes `Blocked` with the descriptors it waits for and its
//! deadline on the virtual clock, and another thread runs. At every
//! scheduling point ([`Machine::wake_waiters`]) a blocked thread
//!
//! - is interrupted (`-EINTR`) by a signal it does not block, or runs
//!   `rt_sigtimedwait` again for a signal it waits for: a signal sent to
//!   the thread is its own; a signal sent to the process has one taker, the
//!   main thread when it takes it, otherwise the first thread in tid order
//!   that does (a thread takes the signals it does not block and those it
//!   waits for in `rt_sigtimedwait`). The running thread leaves the
//!   signals of a taker before it pending (`SignalState::deferred`). With
//!   no taker the signal stays pending until a thread unblocks it or waits
//!   for it;
//! - runs its call again from its `syscall` instruction when its deadline
//!   passed or one of its descriptors is ready (a host `poll` with no
//!   timeout), the call keeping its first deadline.
//!
//! **Determinism.** Every decision of the guest's view (which descriptor is
//! ready, when a timeout expires, which thread runs) is a function of the
//! guest's instructions and data, never of host timing. The descriptors a
//! wait names are *internal* when only this process's threads can change
//! their readiness, and *external* when another process can
//! ([`Machine::external_fd`]: any descriptor but a regular file or a
//! timerfd while the
//! process has children not reaped or is itself a guest's child; otherwise
//! the descriptors inherited at start, their copies, sockets, and epoll
//! sets holding one of those). Internal readiness is looked at whenever
//! the scheduler runs: it only changes with the guest's own progress. An
//! external wait (with a timeout other than zero) never asks the host
//! whether it is ready at the moment of the call, since the answer would
//! depend on how fast the other process ran: its thread blocks at once,
//! and is only looked at when no thread can run (an idle point), where
//! pathvm waits on the host until the answer is definite (a descriptor is
//! ready, or a child ended) and then decides at the current virtual time.
//! The one concession to liveness: when a virtual deadline (a timeout,
//! a sleeping thread, a timer) could also end the idle point, pathvm waits
//! for the outside world at most the deadline's time or [`GRACE_NS`] of
//! host time, whichever is longer, before the deadline wins; so a run can
//! only differ when another process takes longer than that to answer. A
//! wait with a zero timeout on an external descriptor asks the host (as
//! natively, its answer is a race).
//!
//! The end of a child is the same kind of event: SIGCHLD is posted (when
//! the guest catches it, or a thread waits for it in `rt_sigtimedwait`)
//! only at an idle point (the child's pidfd among the
//! descriptors pathvm waits for) or when `wait4` reaps the child, never at
//! the moment the host happened to notice it.
//!
//! When no thread can run ([`Machine::idle`]): the external waits and the
//! children as above (a child the process timeline knows is told at its
//! time of death, before a later deadline: [`crate::timeline`]); then the
//! earliest deadline of a blocked thread or futex waiter, an interval or
//! POSIX timer or a timerfd makes the clock jump to it, once no other
//! process of the guest can act before it (time spent waiting for the outside world is not counted; a
//! guest that only waits for itself never waits on the host). The host
//! wait is a `ppoll` that SIGINT and SIGTERM to pathvm interrupt. Nothing
//! to wait for is a deadlock.

use events::Observer;

use crate::machine::{Machine, StopReason, VmError};
use crate::syscalls::Sys;
use crate::threads::ThreadState;

const NEG_EINTR: i64 = -(libc::EINTR as i64);

/// What a waiting call's first try gave.
pub(crate) enum Waited {
    /// The call's result, and its deadline (for the time left).
    Done(i64, Option<u64>),
    /// The thread blocks.
    Blocked(Sys),
}

/// Host time (ns) pathvm waits at least for another process at an idle
/// point before a virtual deadline ends the wait (see the module's
/// comment).
pub(crate) const GRACE_NS: u64 = 2_000_000_000;

/// What makes a wait depend on other processes.
pub(crate) struct WaitState {
    /// Descriptors open when the run started (above the standard ones):
    /// whoever started pathvm may hold their other ends.
    inherited: Vec<i32>,
    /// epoll descriptors that hold an external descriptor.
    epoll_external: Vec<i32>,
}

impl WaitState {
    pub(crate) fn new() -> WaitState {
        let inherited = (3..crate::fdview::GUEST_FD_LIMIT)
            // SAFETY: F_GETFD only reads flags.
            .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0)
            .collect();
        WaitState {
            inherited,
            epoll_external: Vec::new(),
        }
    }
}

/// The file type bits of `fd` (`None` when it is not open).
fn file_type(fd: i32) -> Option<libc::mode_t> {
    // SAFETY: a local stat the call fills.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::fstat(fd, &mut st) } == 0).then_some(st.st_mode & libc::S_IFMT)
}

/// Wait no longer than this many rounds on timers alone (a periodic timer
/// whose signal nobody takes would make the clock run forever).
const MAX_TIMER_ROUNDS: u32 = 10_000;

impl<O: Observer> Machine<'_, O> {
    /// The deadline of a waiting call: its first one when it runs again,
    /// otherwise `timeout` from now (`None`: no deadline).
    pub(crate) fn wait_deadline(&mut self, timeout: Option<u64>) -> Option<u64> {
        match self.sys.restart.take() {
            Some(d) => d,
            None => timeout.map(|t| self.clock.now_ns().saturating_add(t)),
        }
    }

    /// The running thread blocks in call `nr` (see the module's comment).
    pub(crate) fn block(&mut self, nr: u64, fds: Vec<libc::pollfd>, deadline: Option<u64>) -> Sys {
        let t = self.threads.current_mut();
        t.state = ThreadState::Blocked { deadline };
        t.wait_fds = fds;
        t.wait_nr = nr;
        Sys::Reschedule {
            rotate: true,
            ret: None,
        }
    }

    /// Can another process change whether `fd` is ready (see the module's
    /// comment)?
    pub(crate) fn external_fd(&self, fd: i32) -> bool {
        let Some(kind) = file_type(fd) else {
            return false;
        };
        if matches!(kind, libc::S_IFREG | libc::S_IFDIR | libc::S_IFBLK) {
            return false; // always ready
        }
        if self.timerfd(fd).is_some() || self.signalfd(fd).is_some() {
            return false; // on the virtual clock, or the guest's own signals
        }
        self.sys.process.shared()
            || kind == libc::S_IFSOCK
            || self.sys.fdview.inherited(fd)
            || self.sys.waits.inherited.contains(&fd)
            || self.sys.waits.epoll_external.contains(&fd)
    }

    /// `epoll_ctl` added `fd` to `epfd`.
    pub(crate) fn epoll_added(&mut self, epfd: i32, fd: i32) {
        if !self.sys.waits.epoll_external.contains(&epfd) && self.external_fd(fd) {
            self.sys.waits.epoll_external.push(epfd);
        }
    }

    /// The common shape of a waiting call on descriptors: `attempt` tries
    /// without waiting (`None`: nothing ready), `fds` says what to wait
    /// for. `sigmask` is the mask to wait with (`ppoll`, `pselect6`,
    /// `epoll_pwait`): the old mask comes back when the call returns, or
    /// after the handler of the signal that interrupted it. An external
    /// wait does not try at first (see the module's comment).
    pub(crate) fn fd_wait(
        &mut self,
        nr: u64,
        timeout: Option<u64>,
        sigmask: Option<u64>,
        attempt: &mut dyn FnMut(&mut Self) -> Option<i64>,
        fds: &dyn Fn(&Self) -> Result<Vec<libc::pollfd>, i64>,
    ) -> Result<Waited, i64> {
        let restarted = self.sys.restart.is_some();
        let deadline = self.wait_deadline(timeout);
        let old = sigmask.map(|m| {
            let old = self
                .sys
                .sig
                .suspended_mask
                .take()
                .unwrap_or(self.sys.sig.blocked);
            self.sys.sig.set_blocked(m);
            old
        });
        self.fire_fd_timers();
        let list = fds(self);
        let external = match &list {
            Ok(l) => l.iter().any(|p| self.external_fd(p.fd)),
            Err(_) => false,
        };
        let now = self.clock.now_ns();
        let expired = deadline.is_some_and(|d| d <= now);
        let r = if external && timeout != Some(0) && (expired || !restarted) {
            // Not asked at the call (a race with the other process), nor
            // once the deadline passed (the idle point decided first).
            None
        } else {
            attempt(self)
        };
        if r.is_some() || expired {
            if let Some(o) = old {
                self.sys.sig.set_blocked(o);
            }
            return Ok(Waited::Done(r.unwrap_or(0), deadline));
        }
        if let Some(o) = old {
            // The handler's frame saves it; `rt_sigreturn` restores it.
            self.sys.sig.suspended_mask = Some(o);
        }
        if self.sys.sig.next_deliverable().is_some() {
            return Err(NEG_EINTR);
        }
        let fds = match list {
            Ok(f) => f,
            Err(e) => {
                if let Some(o) = old {
                    self.sys.sig.suspended_mask = None;
                    self.sys.sig.set_blocked(o);
                }
                return Err(e);
            }
        };
        let s = self.block(nr, fds, deadline);
        self.threads.current_mut().wait_external = external;
        Ok(Waited::Blocked(s))
    }

    /// At a scheduling point: interrupt or restart the blocked threads
    /// that can go on.
    pub(crate) fn wake_waiters(&mut self) {
        self.fire_fd_timers();
        let now = self.clock.now_ns();
        let n = self.threads.list.len();
        // Signals sent to the process go to their taker (see
        // [`Machine::signal_taker`]), which wakes if it waits.
        let mut pending = self.sys.sig.shared_set();
        while pending != 0 {
            let b = pending & pending.wrapping_neg();
            pending &= !b;
            if let Some(i) = self.signal_taker(b) {
                self.wake_for(i, b);
            }
        }
        for i in 0..n {
            let t = &self.threads.list[i];
            if !t.waits() {
                continue;
            }
            let own = self.thread_pending(i);
            let takes = t.takes(self.thread_blocked(i));
            if own & takes != 0 {
                self.wake_for(i, own & takes);
                continue;
            }
            let t = &self.threads.list[i];
            let ThreadState::Blocked { deadline } = t.state else {
                continue;
            };
            if deadline.is_some_and(|d| d <= now) {
                self.threads.restart(i);
                continue;
            }
            if !t.wait_fds.is_empty() && !t.wait_external {
                let mut fds = t.wait_fds.clone();
                // A signalfd is ready for this thread's signals, not the
                // running one's.
                let signalfds = !self.sys.signalfds.is_empty();
                if signalfds {
                    self.sync_signalfds_to(self.thread_pending(i) | self.sys.sig.shared_set());
                }
                // SAFETY: a local array of `fds.len()` pollfds.
                let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 0) };
                if signalfds {
                    self.sync_signalfds();
                }
                if r != 0 {
                    self.threads.restart(i);
                }
            }
        }
    }

    /// The blocked mask of thread `i`.
    pub(crate) fn thread_blocked(&self, i: usize) -> u64 {
        if i == self.threads.cur {
            self.sys.sig.blocked
        } else {
            self.threads.list[i].sig.blocked
        }
    }

    /// The signals sent to thread `i` that are pending.
    fn thread_pending(&self, i: usize) -> u64 {
        if i == self.threads.cur {
            self.sys.sig.own_set()
        } else {
            self.threads.list[i].sig.pending.set()
        }
    }

    /// The thread that takes a signal of the process (`b`, its bit): the
    /// main thread when it does not block it, otherwise the first other in
    /// tid order that does not (Linux's `complete_signal` prefers the main
    /// thread too, then searches from the last thread it chose); a thread
    /// in `rt_sigtimedwait` takes the signals it waits for. `None`: every
    /// thread blocks it, and it stays pending for the first to unblock it.
    pub(crate) fn signal_taker(&self, b: u64) -> Option<usize> {
        (0..self.threads.list.len())
            .find(|&i| self.threads.list[i].takes(self.thread_blocked(i)) & b != 0)
    }

    /// Thread `i` has signals `b` to take: a wait for them
    /// (`rt_sigtimedwait`) runs again, another wait ends with `EINTR`.
    pub(crate) fn wake_for(&mut self, i: usize, b: u64) {
        let t = &self.threads.list[i];
        if !t.waits() {
            return;
        }
        if t.wait_sigs & b != 0 {
            self.threads.restart(i);
        } else {
            self.threads.interrupt(i);
        }
    }

    /// Send `info` to the process: it waits in the shared set for its
    /// taker, which wakes.
    pub(crate) fn signal_process(&mut self, info: crate::signals::SigInfo) -> bool {
        let b = crate::signals::bit(info.signo);
        let kept = match self.threads.find(self.sys.process.pid) {
            Some(i) => self.thread_blocked(i) | self.threads.list[i].wait_sigs,
            None => self.sys.sig.blocked | self.threads.current().wait_sigs,
        };
        let queued = self.sys.sig.post_shared(info, kept);
        if queued {
            if let Some(i) = self.signal_taker(b) {
                self.wake_for(i, b);
            }
        }
        queued
    }

    /// Send `info` to thread `i` (`tgkill`, `SIGEV_THREAD_ID`): pending
    /// for it alone; it wakes when it takes the signal.
    pub(crate) fn signal_thread(&mut self, i: usize, info: crate::signals::SigInfo) -> bool {
        let b = crate::signals::bit(info.signo);
        let queued = if i == self.threads.cur {
            self.sys.sig.post_own(info)
        } else {
            // A signal the thread waits for is kept, as a blocked one.
            let ignored =
                self.sys.sig.is_ignored(info.signo) && self.threads.list[i].wait_sigs & b == 0;
            self.threads.list[i].sig.post(info, ignored)
        };
        if self.threads.list[i].takes(self.thread_blocked(i)) & b != 0 {
            self.wake_for(i, b);
        }
        queued
    }

    /// No thread can run: wait for what can wake one (see the module's
    /// comment), or stop the run (a deadlock, or pathvm was asked to stop).
    pub(crate) fn idle(&mut self, rounds: u32) -> Result<(), Result<StopReason, VmError>> {
        loop {
            if let Some(done) = self.idle_once(rounds) {
                let now = self.clock.now_ns();
                crate::timeline::running(now);
                return done;
            }
        }
    }

    /// One look at what can wake a thread: `None` to look again (another
    /// process of the guest may still act before this one's deadline).
    fn idle_once(&mut self, rounds: u32) -> Option<Result<(), Result<StopReason, VmError>>> {
        let stop = crate::machine::stop_requested();
        if stop != 0 {
            return Some(Err(Ok(StopReason::Interrupted { signal: stop })));
        }
        let now = self.clock.now_ns();
        let timers = [self.sys.sig.wall_deadline(), self.next_fd_timer()]
            .into_iter()
            .flatten()
            .min()
            .filter(|_| rounds < MAX_TIMER_ROUNDS);
        let wake = [self.threads.next_deadline(), timers]
            .into_iter()
            .flatten()
            .min();
        // The outside world: descriptors of external waits (with the
        // thread each is for), then the pidfds of the children whose end
        // the guest would be told about.
        let mut fds: Vec<libc::pollfd> = Vec::new();
        let mut owner: Vec<usize> = Vec::new();
        for (i, t) in self.threads.list.iter().enumerate() {
            if matches!(t.state, ThreadState::Blocked { .. }) && t.wait_external {
                fds.extend_from_slice(&t.wait_fds);
                owner.extend(std::iter::repeat_n(i, t.wait_fds.len()));
            }
        }
        let sigchld = crate::signals::bit(libc::SIGCHLD);
        let told = self.sys.sig.catches(libc::SIGCHLD)
            || self.threads.list.iter().any(|t| t.wait_sigs & sigchld != 0)
            || self.signalfd_signals() & sigchld != 0;
        let reaping = self.threads.list.iter().any(|t| {
            matches!(t.state, ThreadState::Blocked { .. }) && t.wait_nr == libc::SYS_wait4 as u64
        });
        let watched = if told || reaping {
            self.sys.process.unreported_children()
        } else {
            Vec::new()
        };
        // A child that ended on the timeline before the deadline is told
        // first, at its time of death (the earliest first).
        let first_end = watched
            .iter()
            .filter_map(|&p| self.sys.process.ended_at(p).map(|t| (t, p)))
            .min();
        if let Some((t, p)) = first_end.filter(|&(t, _)| wake.is_none_or(|d| t <= d)) {
            // A descriptor ready goes first, as below: what a child wrote
            // before it ended is read before its end is told.
            if !fds.is_empty() {
                let mut ready = fds.clone();
                // SAFETY: a local array of pollfds, no waiting.
                let r = unsafe { libc::poll(ready.as_mut_ptr(), ready.len() as libc::nfds_t, 0) };
                if r > 0 {
                    for (k, &i) in owner.iter().enumerate() {
                        if ready[k].revents != 0 {
                            self.threads.restart(i);
                        }
                    }
                    return Some(Ok(()));
                }
            }
            self.child_ended(p, told);
            self.caught_up(Some(t));
            return Some(Ok(()));
        }
        let pass = wake.is_none_or(|d| crate::timeline::may_pass(d, self.sys.process.pid));
        crate::timeline::waiting(now, wake, !watched.is_empty());
        // The children to watch on the host: those the timeline does not
        // know, and those it knows to be still running.
        let mut children = Vec::new();
        for &p in &watched {
            if self.sys.process.ended_at(p).is_some() {
                continue; // ended after the deadline: told after it
            }
            let fd = crate::syscalls::host(libc::SYS_pidfd_open, &[p as i64, 0]) as i32;
            if fd >= 0 {
                children.push(p);
                fds.push(libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                });
            }
        }
        // Only children the timeline knows: none of them can end before
        // the deadline once it may be passed.
        let known = children
            .iter()
            .all(|&p| self.sys.process.slot_of(p).is_some());
        if !fds.is_empty() && !(pass && owner.is_empty() && known && wake.is_some()) {
            let left = match wake {
                // Another process may act first: look again soon.
                Some(_) if !pass => Some(1_000_000),
                Some(d) if owner.is_empty() && known => Some(d.saturating_sub(now)),
                Some(d) => Some(d.saturating_sub(now).max(GRACE_NS)),
                None => None,
            };
            let ts = left.map(|left| libc::timespec {
                tv_sec: (left / 1_000_000_000) as libc::time_t,
                tv_nsec: (left % 1_000_000_000) as libc::c_long,
            });
            let tsp = ts
                .as_ref()
                .map_or(std::ptr::null(), |t| t as *const libc::timespec);
            // SAFETY: a local array of pollfds and a local timespec (or null).
            let r = unsafe {
                libc::ppoll(
                    fds.as_mut_ptr(),
                    fds.len() as libc::nfds_t,
                    tsp,
                    std::ptr::null(),
                )
            };
            let err = crate::syscalls::errno();
            // A descriptor ready goes first: a child that wrote and then
            // ended may or may not have ended yet; it is told at the next
            // idle point.
            let mut woke = false;
            for (k, &i) in owner.iter().enumerate() {
                if r > 0 && fds[k].revents != 0 {
                    self.threads.restart(i);
                    woke = true;
                }
            }
            let mut told_one = false;
            for (k, &p) in children.iter().enumerate() {
                let f = fds[owner.len() + k];
                // SAFETY: our own pidfd.
                unsafe { libc::close(f.fd) };
                // A child on the timeline is told by its time of death, at
                // the next look.
                if r > 0 && !woke && f.revents != 0 && self.sys.process.slot_of(p).is_none() {
                    self.child_ended(p, told);
                    told_one = true;
                }
            }
            if woke || told_one {
                return Some(Ok(()));
            }
            if r > 0 {
                return None;
            }
            if r < 0 {
                let stop = crate::machine::stop_requested();
                if stop != 0 {
                    return Some(Err(Ok(StopReason::Interrupted { signal: stop })));
                }
                if err != NEG_EINTR {
                    return Some(Err(Err(VmError::Emulator(format!(
                        "waiting for the guest's descriptors: {}",
                        std::io::Error::from_raw_os_error(-err as i32)
                    )))));
                }
                return None;
            }
            if !pass {
                return None;
            }
        } else {
            for f in &fds[owner.len()..] {
                // SAFETY: our own pidfds.
                unsafe { libc::close(f.fd) };
            }
            if !pass {
                // Nothing of this process to watch: wait for the others.
                let ts = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 1_000_000,
                };
                // SAFETY: a local timespec; SIGINT and SIGTERM interrupt it.
                unsafe { libc::nanosleep(&ts, std::ptr::null_mut()) };
                return None;
            }
        }
        if let Some(d) = wake {
            self.clock.sleep(d.saturating_sub(now));
            self.fire_timers();
            return Some(Ok(()));
        }
        let cur = self.threads.current();
        if self.threads.live() == 1 && cur.wait_fds.is_empty() {
            if let ThreadState::Blocked { .. } = cur.state {
                let call = crate::syscalls::syscall_name(cur.wait_nr);
                return Some(Err(Ok(StopReason::Deadlock {
                    message: format!(
                        "the guest waits in {call}() for a signal that can never arrive \
                         (no timer armed, no child to wait for)"
                    ),
                })));
            }
        }
        let waits = self.threads.describe_waits();
        Some(Err(Ok(StopReason::Deadlock {
            message: format!("deadlock: every thread waits and nothing can wake one: {waits}"),
        })))
    }

    /// Child `host_pid` ended: SIGCHLD when the guest is told (`told`), and
    /// the threads waiting in `wait4` run it again.
    fn child_ended(&mut self, host_pid: libc::pid_t, told: bool) {
        // The host process may still be on its way out (writing its
        // profile): its end is certain, wait for it.
        loop {
            // SAFETY: `info` is a local siginfo the call fills.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    host_pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOWAIT,
                )
            };
            if r == 0
                || crate::syscalls::errno() != NEG_EINTR
                || crate::machine::stop_requested() != 0
            {
                break;
            }
        }
        if told {
            self.report_child(host_pid);
        } else {
            self.sys.process.reported(host_pid);
        }
        let at = self.sys.process.end_told(host_pid);
        self.caught_up(at);
        for i in 0..self.threads.list.len() {
            let t = &self.threads.list[i];
            if matches!(t.state, ThreadState::Blocked { .. }) && t.wait_nr == libc::SYS_wait4 as u64
            {
                self.threads.restart(i);
            }
        }
    }

    /// Child `host_pid` ended (its pidfd is readable): post SIGCHLD with
    /// how it ended (`si_code`, `si_status`), once.
    fn report_child(&mut self, host_pid: libc::pid_t) {
        // SAFETY: `info` is a local siginfo the call fills.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                host_pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: waitid filled a SIGCHLD siginfo (or left it zero).
        if r == 0 && unsafe { info.si_pid() } == host_pid {
            self.sys.process.reported(host_pid);
            self.signal_process(crate::signals::SigInfo {
                signo: libc::SIGCHLD,
                code: info.si_code,
                pid: self.sys.process.virtual_pid(host_pid) as u32,
                uid: self.sys.uid,
                // SAFETY: as above.
                value: unsafe { info.si_status() } as u32 as u64,
                ..Default::default()
            });
        }
    }
}
