//! Guest threads, run one at a time on the one host thread by a
//! deterministic scheduler.
//!
//! `clone` with `CLONE_VM` (what `pthread_create` uses, through `clone3` or
//! `clone`) makes a new guest thread: a tid from the process's counter of
//! virtual pids (the main thread has the pid, 1000; threads and child
//! processes share the numbers 1001, 1002, ... in creation order), its own
//! registers (a unicorn CPU context, which holds the general registers, the
//! FS base of its TLS, the x87 and SSE state), its own signal mask and
//! alternate stack. Memory, descriptors, signal dispositions, pending
//! process signals and timers are shared.
//!
//! Scheduling points are all counted in retired instructions, so the
//! interleaving is the same on every run:
//! - the quantum: after `quantum` retired instructions the block hook stops
//!   the CPU before the next block (never between two iterations of a `rep`
//!   string instruction), and the next runnable thread in tid order runs;
//! - blocking: `futex` waits on a word that still holds the expected value,
//!   `sched_yield`, sleeps, and thread exit.
//!
//! The switch itself happens in the run loop between two emulation runs
//! (`machine.rs`), like signal delivery: save the CPU context of the thread
//! that stops with the pc it resumes at, restore the next one's, tell the
//! observer (`thread_switch`) before its first block.
//!
//! Futex waiters are woken in the order they started to wait. A wait with a
//! timeout ends when the virtual clock passes its deadline: checked at every
//! scheduling point, and when no thread can run the clock jumps to the
//! earliest deadline. When no thread can run and no deadline exists, the
//! guest is deadlocked: the run stops with a message naming each thread, the
//! futex it waits on and its pc.

use events::Observer;
use unicorn_engine::{Context, RegisterX86};

use crate::machine::{Machine, StopReason, VmError};
use crate::signals::ThreadSignals;

/// Retired instructions a thread runs before the next one gets the CPU,
/// unless it blocks first.
pub const DEFAULT_QUANTUM: u64 = 100_000;

/// `-ETIMEDOUT` and `-EINTR` for a waiter's `rax`.
const NEG_ETIMEDOUT: u64 = -(libc::ETIMEDOUT as i64) as u64;
const NEG_EINTR: u64 = -(libc::EINTR as i64) as u64;

/// What a thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ThreadState {
    Runnable,
    /// In `futex` wait on guest address `addr` for the bits `bitset`, until
    /// the virtual clock (`now_ns`) reaches `deadline`. `seq` orders the
    /// waiters (the first to wait is the first woken).
    Futex {
        addr: u64,
        bitset: u32,
        deadline: Option<u64>,
        seq: u64,
    },
    /// In a system call that waits (`poll`, `epoll_wait`, a `read` that
    /// would block, `pause`, `sigsuspend`, ...; see [`crate::waits`]): for
    /// one of `Thread::wait_fds` to be ready, the virtual clock to reach
    /// `deadline`, or a signal.
    Blocked {
        deadline: Option<u64>,
    },
    Exited,
}

/// One guest thread.
pub(crate) struct Thread {
    /// The tid the guest sees (`gettid`).
    pub tid: u32,
    /// The tid the observer is told: the tid at creation (a forked child's
    /// thread keeps its parent's so its profile goes on in the same tree).
    pub profile_tid: u32,
    pub state: ThreadState,
    /// Saved registers while another thread runs (`None` while it runs, and
    /// for a new thread until the run loop copies its creator's).
    pub ctx: Option<Context>,
    /// Created by `clone` and not yet given its creator's registers.
    pub fresh: bool,
    /// Where it goes on when it runs again.
    pub pc: u64,
    /// Registers to set when it runs again (a new thread's `rax`, stack and
    /// TLS; a woken waiter's result).
    pub on_resume: Vec<(RegisterX86, u64)>,
    /// `CLONE_CHILD_CLEARTID`/`set_tid_address`: zeroed and woken at exit.
    pub clear_child_tid: u64,
    /// Its signal mask, alternate stack and pending signals while another
    /// thread runs.
    pub sig: ThreadSignals,
    /// In `rt_sigtimedwait`: the signals it waits for (it takes them
    /// although it blocks them; see `crate::waits`).
    pub wait_sigs: u64,
    /// The `syscall` instruction it waits at (for deadlock reports).
    pub wait_pc: u64,
    /// While `Blocked`: the descriptors it waits for, and its call.
    pub wait_fds: Vec<libc::pollfd>,
    pub wait_nr: u64,
    /// While `Blocked`: another process can make `wait_fds` ready, so only
    /// an idle point looks at them (`crate::waits`).
    pub wait_external: bool,
    /// Runs its waiting call again (from the `syscall` instruction) when it
    /// resumes, with this deadline.
    pub restart: Option<Option<u64>>,
    /// Resumes at its `syscall` instruction rather than after it.
    pub rewind: bool,
}

impl Thread {
    /// In a futex wait or a blocking call.
    pub(crate) fn waits(&self) -> bool {
        matches!(
            self.state,
            ThreadState::Futex { .. } | ThreadState::Blocked { .. }
        )
    }

    /// The signals it takes when sent to the process, given its mask
    /// `blocked` (those it does not block and those it waits for).
    pub(crate) fn takes(&self, blocked: u64) -> u64 {
        if self.state == ThreadState::Exited {
            0
        } else {
            !blocked | self.wait_sigs
        }
    }
}

/// Every thread of the guest process, in tid order.
pub(crate) struct Threads {
    pub list: Vec<Thread>,
    /// Index of the running thread in `list`.
    pub cur: usize,
    pub quantum: u64,
    seq: u64,
}

impl Threads {
    /// The main thread alone, running.
    pub(crate) fn new(pid: u32, quantum: u64) -> Threads {
        Threads {
            list: vec![Thread {
                tid: pid,
                profile_tid: pid,
                state: ThreadState::Runnable,
                ctx: None,
                fresh: false,
                pc: 0,
                on_resume: Vec::new(),
                clear_child_tid: 0,
                sig: ThreadSignals::default(),
                wait_sigs: 0,
                wait_pc: 0,
                wait_fds: Vec::new(),
                wait_nr: 0,
                wait_external: false,
                restart: None,
                rewind: false,
            }],
            cur: 0,
            quantum: quantum.max(1),
            seq: 0,
        }
    }

    pub(crate) fn current(&self) -> &Thread {
        &self.list[self.cur]
    }

    pub(crate) fn current_mut(&mut self) -> &mut Thread {
        &mut self.list[self.cur]
    }

    /// Threads that have not exited.
    pub(crate) fn live(&self) -> usize {
        self.list
            .iter()
            .filter(|t| t.state != ThreadState::Exited)
            .count()
    }

    /// The index of live thread `tid`.
    pub(crate) fn find(&self, tid: u32) -> Option<usize> {
        self.list
            .iter()
            .position(|t| t.tid == tid && t.state != ThreadState::Exited)
    }

    /// A new runnable thread (its registers are its creator's, changed by
    /// `regs`, once the run loop copies them). Tids only grow, so the list
    /// stays in tid order.
    pub(crate) fn spawn(
        &mut self,
        tid: u32,
        regs: Vec<(RegisterX86, u64)>,
        clear_child_tid: u64,
        blocked: u64,
    ) {
        self.list.push(Thread {
            tid,
            profile_tid: tid,
            state: ThreadState::Runnable,
            ctx: None,
            fresh: true,
            pc: 0,
            on_resume: regs,
            clear_child_tid,
            sig: ThreadSignals::new_thread(blocked),
            wait_sigs: 0,
            wait_pc: 0,
            wait_fds: Vec::new(),
            wait_nr: 0,
            wait_external: false,
            restart: None,
            rewind: false,
        });
    }

    /// The running thread waits on a futex.
    pub(crate) fn wait(&mut self, addr: u64, bitset: u32, deadline: Option<u64>) {
        self.seq += 1;
        let seq = self.seq;
        self.current_mut().state = ThreadState::Futex {
            addr,
            bitset,
            deadline,
            seq,
        };
    }

    /// Indices of the waiters on `addr` whose bitset meets `bitset`, first
    /// waiter first.
    fn waiters(&self, addr: u64, bitset: u32) -> Vec<usize> {
        let mut w: Vec<(u64, usize)> = self
            .list
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t.state {
                ThreadState::Futex {
                    addr: a,
                    bitset: b,
                    seq,
                    ..
                } if a == addr && b & bitset != 0 => Some((seq, i)),
                _ => None,
            })
            .collect();
        w.sort_unstable();
        w.into_iter().map(|(_, i)| i).collect()
    }

    /// Make thread `i` runnable with `rax` as its system call's result.
    fn resume_with(&mut self, i: usize, rax: u64) {
        let t = &mut self.list[i];
        t.state = ThreadState::Runnable;
        t.on_resume.push((RegisterX86::RAX, rax));
    }

    /// `FUTEX_WAKE`: wake up to `n` waiters on `addr`; how many woke.
    pub(crate) fn wake(&mut self, addr: u64, n: usize, bitset: u32) -> usize {
        let w = self.waiters(addr, bitset);
        let k = w.len().min(n);
        for &i in &w[..k] {
            self.resume_with(i, 0);
        }
        k
    }

    /// `FUTEX_CMP_REQUEUE`'s second half: move up to `n` waiters of `from`
    /// to `to` (after those woken); how many moved.
    pub(crate) fn requeue(&mut self, from: u64, to: u64, n: usize) -> usize {
        let w = self.waiters(from, u32::MAX);
        let k = w.len().min(n);
        for &i in &w[..k] {
            if let ThreadState::Futex { addr, .. } = &mut self.list[i].state {
                *addr = to;
            }
        }
        k
    }

    /// End the waits whose deadline is at or before `now` (`-ETIMEDOUT`).
    pub(crate) fn expire(&mut self, now: u64) {
        for i in 0..self.list.len() {
            if let ThreadState::Futex {
                deadline: Some(d), ..
            } = self.list[i].state
            {
                if d <= now {
                    self.resume_with(i, NEG_ETIMEDOUT);
                }
            }
        }
    }

    /// Interrupt thread `i`'s futex wait or blocking call (`-EINTR`): a
    /// signal came for it.
    pub(crate) fn interrupt(&mut self, i: usize) {
        if self.list[i].waits() {
            self.list[i].wait_sigs = 0;
            self.list[i].wait_fds.clear();
            self.list[i].wait_external = false;
            self.resume_with(i, NEG_EINTR);
        }
    }

    /// Thread `i`'s blocking call runs again when it resumes: something it
    /// waits for may be there, or its deadline passed.
    pub(crate) fn restart(&mut self, i: usize) {
        let t = &mut self.list[i];
        if let ThreadState::Blocked { deadline } = t.state {
            t.state = ThreadState::Runnable;
            t.restart = Some(deadline);
            t.rewind = true;
            t.wait_fds.clear();
            t.wait_external = false;
            t.on_resume.push((RegisterX86::RAX, t.wait_nr));
        }
    }

    /// The earliest deadline of a timed wait.
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.list
            .iter()
            .filter_map(|t| match t.state {
                ThreadState::Futex { deadline, .. } | ThreadState::Blocked { deadline } => deadline,
                _ => None,
            })
            .min()
    }

    /// The thread to run next: the running one if it can and `rotate` is
    /// false; otherwise the next runnable one in tid order after it, the
    /// running one last.
    pub(crate) fn pick(&self, rotate: bool) -> Option<usize> {
        let n = self.list.len();
        let runnable = |i: usize| self.list[i].state == ThreadState::Runnable;
        if !rotate && runnable(self.cur) {
            return Some(self.cur);
        }
        (1..=n).map(|k| (self.cur + k) % n).find(|&i| runnable(i))
    }

    /// Forget exited threads other than the running one.
    pub(crate) fn prune(&mut self) {
        let cur_tid = self.list[self.cur].tid;
        let cur_state = self.list[self.cur].state;
        self.list.retain(|t| {
            t.state != ThreadState::Exited || (t.tid == cur_tid && t.state == cur_state)
        });
        self.cur = self.list.iter().position(|t| t.tid == cur_tid).unwrap_or(0);
    }

    /// In a forked child: only the calling thread goes on, with tid `pid`.
    pub(crate) fn fork_child(&mut self, pid: u32) {
        let mut me = self.list.swap_remove(self.cur);
        me.tid = pid;
        me.clear_child_tid = 0;
        self.list = vec![me];
        self.cur = 0;
    }

    /// Where each thread waits, for the deadlock message.
    pub(crate) fn describe_waits(&self) -> String {
        self.list
            .iter()
            .filter_map(|t| match t.state {
                ThreadState::Futex { addr, .. } => Some(format!(
                    "tid {} on futex {addr:#x} at pc {:#x}",
                    t.tid, t.wait_pc
                )),
                ThreadState::Blocked { .. } => Some(format!(
                    "tid {} in {} at pc {:#x}",
                    t.tid,
                    crate::syscalls::syscall_name(t.wait_nr),
                    t.wait_pc
                )),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

type Uc<'a, 'o, O> = unicorn_engine::Unicorn<'a, Machine<'o, O>>;

/// A scheduling point, between two emulation runs: the running thread's
/// next instruction is `pc`. New threads get their creator's registers;
/// waits whose deadline passed end; the next thread is chosen (see
/// [`Threads::pick`]; when none can run the clock jumps to the earliest
/// deadline, and with none the guest is deadlocked); its registers replace
/// the CPU's. Returns where the CPU goes on.
pub(crate) fn switch<O: Observer>(
    uc: &mut Uc<'_, '_, O>,
    pc: u64,
    rotate: bool,
) -> Result<u64, Result<StopReason, VmError>> {
    let emu = |e: unicorn_engine::uc_error| Err(VmError::Emulator(format!("thread switch: {e:?}")));
    // New threads start as copies of the CPU now: their creator's registers
    // after `clone` returned.
    let fresh: Vec<usize> = (0..uc.get_data().threads.list.len())
        .filter(|&i| uc.get_data().threads.list[i].fresh)
        .collect();
    for i in fresh {
        let ctx = uc.context_init().map_err(emu)?;
        let t = &mut uc.get_data_mut().threads.list[i];
        t.ctx = Some(ctx);
        t.pc = pc;
        t.fresh = false;
    }
    let mut idle_rounds = 0;
    let next = loop {
        let m = uc.get_data_mut();
        let now = m.clock.now_ns();
        m.threads.expire(now);
        m.wake_waiters();
        if let Some(next) = m.threads.pick(rotate) {
            break next;
        }
        idle_rounds += 1;
        if m.threads.current().state != ThreadState::Exited {
            m.threads.current_mut().wait_pc = pc.wrapping_sub(2);
        }
        m.idle(idle_rounds)?;
    };
    let m = uc.get_data_mut();
    let cur = m.threads.cur;
    let mut pc = pc;
    if next != cur {
        let t = &mut m.threads.list[cur];
        if t.state == ThreadState::Exited {
            t.ctx = None;
        } else {
            if t.waits() {
                // Stopped right after its `syscall` instruction (2 bytes).
                t.wait_pc = pc.wrapping_sub(2);
            }
            t.pc = pc;
            let mut ctx = match t.ctx.take() {
                Some(c) => c,
                None => uc.context_alloc().map_err(emu)?,
            };
            // Reading the status word completes an x87 exception the
            // thread left pending (its FOP, FDP and stack), which the
            // emulator does for one instruction at a time.
            let _ = uc.reg_read(RegisterX86::FPSW);
            uc.context_save(&mut ctx).map_err(emu)?;
            uc.get_data_mut().threads.list[cur].ctx = Some(ctx);
        }
        let m = uc.get_data_mut();
        let Some(ctx) = m.threads.list[next].ctx.take() else {
            return Err(Err(VmError::Emulator(
                "thread switch: no saved registers".into(),
            )));
        };
        uc.context_restore(&ctx).map_err(emu)?;
        let m = uc.get_data_mut();
        m.threads.list[next].ctx = Some(ctx);
        // The outgoing thread's mask and alternate stack go to its record,
        // the incoming thread's come out of its own.
        let mut sig = std::mem::take(&mut m.threads.list[next].sig);
        m.sys.sig.swap_thread(&mut sig);
        m.threads.list[cur].sig = sig;
        m.threads.cur = next;
        let t = &m.threads.list[next];
        pc = t.pc;
        let tid = t.profile_tid;
        m.observer.thread_switch(tid);
        m.after_control_change();
    }
    let m = uc.get_data_mut();
    if std::mem::take(&mut m.threads.current_mut().rewind) {
        // Back to its `syscall` instruction (2 bytes), `rax` its number.
        pc = pc.wrapping_sub(2);
    }
    let regs = std::mem::take(&mut m.threads.current_mut().on_resume);
    for (r, v) in regs {
        uc.reg_write(r, v).map_err(emu)?;
    }
    let m = uc.get_data_mut();
    m.threads.prune();
    // Signals of the process that a thread before this one takes wait for
    // it (see `crate::waits`).
    let cur = m.threads.cur;
    m.sys.sig.deferred = m.threads.list[..cur]
        .iter()
        .fold(0, |d, t| d | t.takes(t.sig.blocked));
    m.switch_due = if m.threads.live() > 1 {
        m.clock.instret.get().saturating_add(m.threads.quantum)
    } else {
        u64::MAX
    };
    Ok(pc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Threads {
        let mut t = Threads::new(1000, 100);
        t.spawn(1001, vec![], 0, 0);
        t.spawn(1002, vec![], 0, 0);
        t
    }

    #[test]
    fn round_robin_in_tid_order() {
        let mut t = three();
        assert_eq!(t.pick(false), Some(0), "no rotation: the running thread");
        assert_eq!(t.pick(true), Some(1));
        t.cur = 2;
        assert_eq!(t.pick(true), Some(0), "wraps around");
        t.list[0].state = ThreadState::Exited;
        t.list[1].state = ThreadState::Exited;
        assert_eq!(t.pick(true), Some(2), "the running thread last");
        t.list[2].state = ThreadState::Exited;
        assert_eq!(t.pick(true), None);
    }

    #[test]
    fn waiters_wake_first_come_first_served() {
        let mut t = three();
        t.cur = 2;
        t.wait(0x1000, u32::MAX, None);
        t.cur = 0;
        t.wait(0x1000, u32::MAX, None);
        t.cur = 1;
        assert_eq!(t.pick(true), Some(1), "only 1001 can run");
        assert_eq!(t.wake(0x2000, 10, u32::MAX), 0, "another word");
        assert_eq!(t.wake(0x1000, 1, u32::MAX), 1);
        assert_eq!(t.list[2].state, ThreadState::Runnable, "1002 waited first");
        assert_eq!(t.list[2].on_resume, vec![(RegisterX86::RAX, 0)]);
        assert!(matches!(t.list[0].state, ThreadState::Futex { .. }));
        assert_eq!(t.describe_waits(), "tid 1000 on futex 0x1000 at pc 0x0");
    }

    #[test]
    fn bitsets_requeue_and_timeouts() {
        let mut t = three();
        t.cur = 0;
        t.wait(0x1000, 0b01, Some(500));
        t.cur = 1;
        t.wait(0x1000, 0b10, None);
        assert_eq!(t.wake(0x1000, 10, 0b10), 1);
        assert_eq!(t.list[1].state, ThreadState::Runnable);
        t.wait(0x1000, u32::MAX, None);
        assert_eq!(t.requeue(0x1000, 0x3000, 1), 1, "the first waiter moves");
        assert_eq!(t.wake(0x3000, 10, u32::MAX), 1);
        assert_eq!(t.list[0].state, ThreadState::Runnable);
        t.cur = 2;
        t.wait(0x1000, u32::MAX, Some(700));
        assert_eq!(t.next_deadline(), Some(700));
        t.expire(699);
        assert!(matches!(t.list[2].state, ThreadState::Futex { .. }));
        t.expire(700);
        assert_eq!(t.list[2].on_resume, vec![(RegisterX86::RAX, NEG_ETIMEDOUT)]);
        assert_eq!(t.next_deadline(), None);
    }

    #[test]
    fn exited_threads_are_pruned_and_a_fork_keeps_the_caller() {
        let mut t = three();
        t.cur = 2;
        t.list[1].state = ThreadState::Exited;
        t.prune();
        assert_eq!(
            t.list.iter().map(|x| x.tid).collect::<Vec<_>>(),
            [1000, 1002]
        );
        assert_eq!(t.current().tid, 1002);
        t.fork_child(1003);
        assert_eq!(t.list.len(), 1);
        assert_eq!((t.current().tid, t.current().profile_tid), (1003, 1002));
    }
}
