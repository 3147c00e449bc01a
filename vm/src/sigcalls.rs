//! System calls of queued signals and POSIX timers: `rt_sigtimedwait`
//! (glibc's `sigwaitinfo` and `sigtimedwait`), `rt_sigqueueinfo` and
//! `rt_tgsigqueueinfo` (`sigqueue`, `pthread_sigqueue`), and `timer_create`,
//! `timer_settime`, `timer_gettime`, `timer_getoverrun`, `timer_delete`.
//!
//! The state is `signals.rs`'s: POSIX timers are the same timers as the
//! interval timers (`setitimer`), on the virtual clock, fired at block
//! boundaries and when the clock jumps at an idle point; their signal goes
//! to the process (`SIGEV_SIGNAL`) or to one thread (`SIGEV_THREAD_ID`,
//! which glibc's `SIGEV_THREAD` uses: a helper thread waits for the timer
//! signal in `rt_sigtimedwait` while every thread blocks it).

use events::Observer;

use crate::epoll::{timespec, write_timespec};
use crate::machine::Machine;
use crate::signals::{SigInfo, TimerClock, SIGEV_NONE, SIGEV_SIGNAL, SIGEV_THREAD_ID};
use crate::syscalls::{host_call, Sys, NEG_EFAULT, NEG_EINVAL};

const NS: u64 = 1_000_000_000;
const TIMER_ABSTIME: u64 = 1;
/// `SIGEV_THREAD`: the kernel takes it as `SIGEV_SIGNAL` (glibc never
/// passes it).
const SIGEV_THREAD: i32 = 2;
/// SIGKILL and SIGSTOP: never waited for.
const UNWAITABLE: u64 = (1 << (libc::SIGKILL - 1)) | (1 << (libc::SIGSTOP - 1));

impl<O: Observer> Machine<'_, O> {
    /// `rt_sigtimedwait(set, info, timeout, sigsetsize)`: take a pending
    /// signal of `set` (the thread's own first), or wait for one until the
    /// virtual clock reaches the timeout (`EAGAIN`); a handled signal
    /// outside `set` interrupts the wait (`EINTR`).
    pub(crate) fn sigtimedwait(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        if a[3] != 8 {
            return Err(NEG_EINVAL);
        }
        let set = self.mem.read_u64(a[0]).map_err(|_| NEG_EFAULT)? & !UNWAITABLE;
        let timeout = if a[2] != 0 {
            Some(timespec(self, a[2])?)
        } else {
            None
        };
        let deadline = self.wait_deadline(timeout);
        self.fire_timers();
        if let Some(info) = self.sys.sig.take_of(set) {
            if a[1] != 0 {
                self.mem
                    .write(a[1], &info.bytes())
                    .map_err(|_| NEG_EFAULT)?;
            }
            return Ok(Sys::Ret(info.signo as i64));
        }
        if deadline.is_some_and(|d| d <= self.clock.now_ns()) {
            return Err(-(libc::EAGAIN as i64));
        }
        if self.sys.sig.next_deliverable().is_some() {
            return Err(-(libc::EINTR as i64));
        }
        let s = self.block(nr, Vec::new(), deadline);
        self.threads.current_mut().wait_sigs = set;
        Ok(s)
    }

    /// The `siginfo` a `rt_sigqueueinfo` caller gives (its `si_code`,
    /// `si_pid`, `si_uid`, `si_value`).
    fn queued_info(&self, sig: u64, at: u64) -> Result<SigInfo, i64> {
        let b = self.mem.slice(at, 32).map_err(|_| NEG_EFAULT)?;
        let word = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        Ok(SigInfo {
            signo: sig as i32,
            code: word(8) as i32,
            pid: word(16),
            uid: word(20),
            value: u64::from(word(24)) | (u64::from(word(28)) << 32),
            ..Default::default()
        })
    }

    /// `rt_sigqueueinfo(tgid, sig, info)` and `rt_tgsigqueueinfo(tgid,
    /// tid, sig, info)`: a signal with the caller's `siginfo` (real-time
    /// signals queue with their values). To another process it goes
    /// through the host, to its host pid.
    pub(crate) fn sigqueueinfo(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let thread = nr as i64 == libc::SYS_rt_tgsigqueueinfo;
        let (tgid, tid, sig, at) = if thread {
            (a[0] as i32 as i64, Some(a[1] as i32 as i64), a[2], a[3])
        } else {
            (a[0] as i32 as i64, None, a[1], a[2])
        };
        if sig > 64 {
            return Err(NEG_EINVAL);
        }
        let info = self.queued_info(sig, at)?;
        let me = self.sys.process.pid as i64;
        if tgid != me {
            // Only the kernel sends these codes, and kill/tgkill their own.
            if info.code >= 0 || info.code == libc::SI_TKILL {
                return Err(-(libc::EPERM as i64));
            }
            let h = self
                .sys
                .process
                .host_pid(tgid)
                .ok_or(-(libc::ESRCH as i64))? as i64;
            let buf = self.buf(at, 128)?;
            return Ok(Sys::Ret(match tid {
                Some(t) if t != tgid => -(libc::ESRCH as i64),
                Some(_) => host_call(nr as i64, &[h, h, sig as i64, buf]),
                None => host_call(nr as i64, &[h, sig as i64, buf]),
            }));
        }
        let target = match tid {
            Some(t) => Some(
                u32::try_from(t)
                    .ok()
                    .and_then(|t| self.threads.find(t))
                    .ok_or(-(libc::ESRCH as i64))?,
            ),
            None => None,
        };
        if sig == 0 {
            return Ok(Sys::Ret(0));
        }
        match target {
            Some(i) => self.signal_thread(i, info),
            None => self.signal_process(info),
        };
        Ok(Sys::Ret(0))
    }

    /// The clock of a POSIX timer for clock id `clockid`, and where its
    /// absolute times start (ns); `Err(-errno)` for a clock without timers.
    fn timer_clock_of(&self, clockid: i32) -> Result<(TimerClock, u64), i64> {
        match clockid {
            libc::CLOCK_REALTIME | libc::CLOCK_TAI => {
                Ok((TimerClock::Wall, self.clock.epoch_secs() * NS))
            }
            libc::CLOCK_MONOTONIC | libc::CLOCK_BOOTTIME => {
                Ok((TimerClock::Wall, crate::clock::BOOT_SECS * NS))
            }
            // The virtual clock has one CPU time: a thread's is the process's.
            libc::CLOCK_PROCESS_CPUTIME_ID | libc::CLOCK_THREAD_CPUTIME_ID => {
                Ok((TimerClock::Cpu, 0))
            }
            libc::CLOCK_MONOTONIC_RAW
            | libc::CLOCK_REALTIME_COARSE
            | libc::CLOCK_MONOTONIC_COARSE
            | libc::CLOCK_REALTIME_ALARM
            | libc::CLOCK_BOOTTIME_ALARM => Err(-(libc::EOPNOTSUPP as i64)),
            // CPU clocks of a process or thread (what glibc passes for the
            // two above): ~pid << 3 | 4 for a thread | 0..2 for the kind.
            c if c < 0 && c & 3 != 3 => {
                let pid = !(c >> 3) as u32;
                let thread = c & 4 != 0;
                let mine = pid == 0
                    || if thread {
                        self.threads.find(pid).is_some()
                    } else {
                        pid == self.sys.process.pid
                    };
                if mine {
                    Ok((TimerClock::Cpu, 0))
                } else {
                    Err(NEG_EINVAL)
                }
            }
            _ => Err(NEG_EINVAL),
        }
    }

    /// The virtual clock a timer of `clock` counts on.
    fn timer_now(&self, clock: TimerClock) -> u64 {
        match clock {
            TimerClock::Wall => self.clock.now_ns(),
            TimerClock::Cpu => self.clock.instret.get(),
        }
    }

    /// `timer_create`, `timer_settime`, `timer_gettime`,
    /// `timer_getoverrun`, `timer_delete`.
    pub(crate) fn timer_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let id = a[0] as i32;
        let unknown = NEG_EINVAL;
        match nr as i64 {
            libc::SYS_timer_create => {
                let (clock, origin) = self.timer_clock_of(a[0] as i32)?;
                let (value, signo, notify, tid) = if a[1] == 0 {
                    // No sigevent: SIGALRM to the process, the id as value.
                    (u64::MAX, libc::SIGALRM, SIGEV_SIGNAL, 0)
                } else {
                    let b = self.mem.slice(a[1], 20).map_err(|_| NEG_EFAULT)?;
                    let word = |o: usize| i32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
                    let value = u64::from_le_bytes(b[0..8].try_into().unwrap_or([0; 8]));
                    (value, word(8), word(12), word(16))
                };
                let notify = match notify {
                    SIGEV_THREAD => SIGEV_SIGNAL,
                    n => n,
                };
                let tid = match notify {
                    SIGEV_THREAD_ID => u32::try_from(tid)
                        .ok()
                        .filter(|&t| self.threads.find(t).is_some())
                        .ok_or(NEG_EINVAL)?,
                    SIGEV_SIGNAL | SIGEV_NONE => 0,
                    _ => return Err(NEG_EINVAL),
                };
                if notify != SIGEV_NONE && !(1..=64).contains(&signo) {
                    return Err(NEG_EINVAL);
                }
                let id = self
                    .sys
                    .sig
                    .create_timer(clock, origin, notify, signo, value, tid)?;
                if self.mem.write_u32(a[2], id as u32).is_err() {
                    self.sys.sig.delete_posix_timer(id);
                    return Err(NEG_EFAULT);
                }
                Ok(Sys::Ret(0))
            }
            libc::SYS_timer_settime => {
                let (clock, origin) = {
                    let t = self.sys.sig.posix_timer(id).ok_or(unknown)?;
                    (t.clock(), t.origin)
                };
                if a[2] == 0 {
                    return Err(NEG_EINVAL);
                }
                let interval = timespec(self, a[2])?;
                let value = timespec(self, a[2] + 16)?;
                let now = self.timer_now(clock);
                let value = if a[1] & TIMER_ABSTIME != 0 && value != 0 {
                    // A time already past fires at once.
                    value.saturating_sub(origin + now).max(1)
                } else {
                    value
                };
                let old = self
                    .sys
                    .sig
                    .set_posix_timer(id, value, interval, now)
                    .ok_or(unknown)?;
                if a[3] != 0 {
                    write_timespec(self, a[3], old.0)?;
                    write_timespec(self, a[3] + 16, old.1)?;
                }
                Ok(Sys::Ret(0))
            }
            libc::SYS_timer_gettime => {
                let clock = self.sys.sig.posix_timer(id).ok_or(unknown)?.clock();
                let now = self.timer_now(clock);
                let cur = self.sys.sig.get_posix_timer(id, now).ok_or(unknown)?;
                write_timespec(self, a[1], cur.0)?;
                write_timespec(self, a[1] + 16, cur.1)?;
                Ok(Sys::Ret(0))
            }
            libc::SYS_timer_getoverrun => {
                let t = self.sys.sig.posix_timer(id).ok_or(unknown)?;
                Ok(Sys::Ret(t.overrun_last as i64))
            }
            libc::SYS_timer_delete => {
                if self.sys.sig.delete_posix_timer(id) {
                    Ok(Sys::Ret(0))
                } else {
                    Err(unknown)
                }
            }
            _ => Ok(Sys::Unsupported),
        }
    }
}
