//! `signalfd` and `signalfd4`: a descriptor that reads the pending signals
//! of a mask as `signalfd_siginfo` records.
//!
//! As a timerfd (`crate::epoll`), a signalfd is a host eventfd, so it can
//! be polled, added to an epoll set, duplicated and inherited like one;
//! pathvm keeps its counter at 1 while a signal of its mask is pending for
//! the running thread (its own or the process's) and at 0 otherwise, at
//! every point where the timerfds are brought up to date (before a wait
//! tries, at each scheduling point). A `read` takes the signals from the
//! pending sets as `rt_sigtimedwait` does, and blocks under the scheduler
//! when none is pending (unless the descriptor is non-blocking).
//!
//! Readiness is per thread, as on Linux (which looks at the polling
//! thread's own signals and the process's): the counter follows the running
//! thread, and at a scheduling point each blocked thread's descriptors are
//! polled with the counters set for that thread (`wake_waiters`), so a
//! signal sent to one thread (`tgkill`, a `SIGEV_THREAD_ID` timer) wakes
//! only that thread's wait on a signalfd.

use events::Observer;

use crate::machine::Machine;
use crate::signals::{SigInfo, SI_TIMER};
use crate::syscalls::{host, Sys, NEG_EFAULT, NEG_EINVAL};
use crate::waits::Waited;

/// One signalfd.
#[derive(Clone, Debug)]
pub(crate) struct SignalFd {
    /// The guest's descriptor when it was created.
    fd: i32,
    /// pathvm's duplicate of it.
    hidden: i32,
    /// The signals it reads (never SIGKILL or SIGSTOP).
    mask: u64,
}

const UNREADABLE: u64 = (1 << (libc::SIGKILL - 1)) | (1 << (libc::SIGSTOP - 1));
/// The size of a `signalfd_siginfo`.
const RECORD: usize = 128;

/// The `signalfd_siginfo` of `info`, with the fields Linux fills for its
/// kind of signal.
fn record(info: &SigInfo) -> [u8; RECORD] {
    let mut b = [0u8; RECORD];
    let mut put32 = |o: usize, v: u32| b[o..o + 4].copy_from_slice(&v.to_le_bytes());
    put32(0, info.signo as u32);
    put32(8, info.code as u32);
    let value = info.value;
    let (fault, timer) = (info.addr, info.code == SI_TIMER);
    let child = info.signo == libc::SIGCHLD && info.code > 0;
    if fault.is_none() {
        if timer {
            put32(24, info.pid); // ssi_tid: the timer's id
            put32(32, info.uid); // ssi_overrun
        } else {
            put32(12, info.pid);
            put32(16, info.uid);
        }
        if child {
            put32(40, value as u32); // ssi_status
        } else {
            put32(44, value as u32); // ssi_int
        }
    }
    put32(36, info.trapno as u32);
    if !child && fault.is_none() {
        b[48..56].copy_from_slice(&value.to_le_bytes()); // ssi_ptr
    }
    if let Some(a) = fault {
        b[72..80].copy_from_slice(&a.to_le_bytes());
    }
    b
}

impl<O: Observer> Machine<'_, O> {
    /// `signalfd(fd, mask, sizemask)` and `signalfd4(..., flags)`: a new
    /// signalfd (`fd` -1) or a new mask for an existing one.
    pub(crate) fn signalfd_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let flags = if nr as i64 == libc::SYS_signalfd4 {
            a[3] as i32
        } else {
            0
        };
        if a[2] != 8 || flags & !(libc::SFD_NONBLOCK | libc::SFD_CLOEXEC) != 0 {
            return Err(NEG_EINVAL);
        }
        let mask = self.mem.read_u64(a[1]).map_err(|_| NEG_EFAULT)? & !UNREADABLE;
        let fd = a[0] as i32;
        if fd != -1 {
            let k = self.signalfd(fd).ok_or(NEG_EINVAL)?;
            self.sys.signalfds[k].mask = mask;
            self.sync_signalfds();
            return Ok(Sys::Ret(fd as i64));
        }
        let (fd, hidden) = self.hidden_eventfd(flags)?;
        self.sys.signalfds.push(SignalFd { fd, hidden, mask });
        self.sync_signalfds();
        Ok(Sys::Ret(fd.into()))
    }

    /// The signalfd guest descriptor `fd` is.
    pub(crate) fn signalfd(&self, fd: i32) -> Option<usize> {
        if self.sys.signalfds.is_empty() || fd < 0 {
            return None;
        }
        // SAFETY: getpid cannot fail.
        let pid = unsafe { libc::getpid() } as i64;
        self.sys.signalfds.iter().position(|s| {
            // KCMP_FILE (0): 0 when both descriptors are the same open file.
            match host(libc::SYS_kcmp, &[pid, pid, 0, fd as i64, s.hidden as i64]) {
                r if r >= 0 => r == 0,
                _ => s.fd == fd,
            }
        })
    }

    /// The signals some signalfd reads.
    pub(crate) fn signalfd_signals(&self) -> u64 {
        self.sys.signalfds.iter().fold(0, |m, s| m | s.mask)
    }

    /// Each signalfd readable exactly when a signal of its mask is pending
    /// for the running thread.
    pub(crate) fn sync_signalfds(&mut self) {
        self.sync_signalfds_to(self.sys.sig.pending_set());
    }

    /// Each signalfd readable exactly when a signal of its mask is in
    /// `pending` (a thread's own signals and the process's).
    pub(crate) fn sync_signalfds_to(&self, pending: u64) {
        for s in &self.sys.signalfds {
            let want = pending & s.mask != 0;
            let mut p = libc::pollfd {
                fd: s.hidden,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one local pollfd.
            let is = unsafe { libc::poll(&mut p, 1, 0) } > 0;
            let mut v = 1u64;
            if want && !is {
                // SAFETY: writing 8 bytes from a local to our own descriptor.
                unsafe { libc::write(s.hidden, &v as *const u64 as *const libc::c_void, 8) };
            } else if !want && is {
                // SAFETY: reading 8 bytes into a local from our own descriptor.
                unsafe { libc::read(s.hidden, &mut v as *mut u64 as *mut libc::c_void, 8) };
            }
        }
    }

    /// `read` of signalfd `k`: as many pending signals of its mask as fit,
    /// the thread's own first; none: `EAGAIN` when non-blocking, otherwise
    /// the thread waits.
    pub(crate) fn signalfd_read(&mut self, nr: u64, k: usize, a: [u64; 6]) -> Result<Sys, i64> {
        let fd = a[0] as i32;
        let (at, count) = (a[1], a[2] as usize);
        if count < RECORD {
            return Err(NEG_EINVAL);
        }
        self.mem
            .slice_mut(at, (count / RECORD * RECORD) as u64)
            .map_err(|_| NEG_EFAULT)?;
        let mask = self.sys.signalfds[k].mask;
        let mut attempt = |m: &mut Self| {
            let mut n = 0;
            while n < count / RECORD {
                let Some(info) = m.sys.sig.take_of(mask) else {
                    break;
                };
                let _ = m.mem.write(at + (n * RECORD) as u64, &record(&info));
                n += 1;
            }
            m.sync_signalfds();
            (n > 0).then_some((n * RECORD) as i64)
        };
        // SAFETY: F_GETFL on any number is harmless.
        let nonblock = unsafe { libc::fcntl(fd, libc::F_GETFL) } & libc::O_NONBLOCK != 0;
        if nonblock {
            self.fire_fd_timers();
            return Ok(Sys::Ret(attempt(self).unwrap_or(-(libc::EAGAIN as i64))));
        }
        let fds = |_: &Self| {
            Ok(vec![libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            }])
        };
        match self.fd_wait(nr, None, None, &mut attempt, &fds)? {
            Waited::Done(r, _) => Ok(Sys::Ret(r)),
            Waited::Blocked(s) => Ok(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signals::bit;

    #[test]
    fn records_carry_what_linux_fills() {
        let timer = SigInfo {
            signo: 40,
            code: SI_TIMER,
            pid: 3,
            uid: 2,
            value: 0x1_0000_0007,
            ..Default::default()
        };
        let r = record(&timer);
        let u32_at = |r: &[u8], o: usize| u32::from_le_bytes(r[o..o + 4].try_into().unwrap());
        assert_eq!((u32_at(&r, 0), u32_at(&r, 24), u32_at(&r, 32)), (40, 3, 2));
        assert_eq!((u32_at(&r, 12), u32_at(&r, 44)), (0, 7));
        assert_eq!(
            u64::from_le_bytes(r[48..56].try_into().unwrap()),
            0x1_0000_0007
        );
        let child = SigInfo {
            signo: libc::SIGCHLD,
            code: libc::CLD_EXITED,
            pid: 1001,
            value: 5,
            ..Default::default()
        };
        let r = record(&child);
        assert_eq!(
            (u32_at(&r, 12), u32_at(&r, 40), u32_at(&r, 44)),
            (1001, 5, 0)
        );
        assert_eq!(bit(libc::SIGKILL) & !UNREADABLE, 0);
    }
}
