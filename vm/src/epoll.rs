//! Waiting on descriptors: `poll`, `ppoll`, `select`, `pselect6`, `epoll_*`,
//! `eventfd`, timerfds, and `read`s that would block.
//!
//! epoll instances and eventfds are the host's (the guest's descriptors are
//! host descriptors): `epoll_ctl` and the `eventfd` calls go to the host,
//! and every wait tries the host call without a timeout first, then blocks
//! the thread as `crate::waits` says, its timeout on the virtual clock.
//!
//! A timerfd is a host eventfd (so it can be read, polled, added to an
//! epoll set, duplicated and inherited like one) whose expirations pathvm
//! adds to its counter when the virtual clock passes the timer's deadline:
//! reading it gives the expirations since the last read, as a timerfd does.
//! pathvm keeps a duplicate of the eventfd among its own descriptors
//! (`crate::fdview`) to write through, and finds which timer a guest descriptor is by comparing
//! the open files (`kcmp`).

use events::Observer;

use crate::machine::Machine;
use crate::syscalls::{host, Sys, NEG_EFAULT, NEG_EINVAL};
use crate::waits::Waited;

/// One timerfd.
#[derive(Clone, Debug)]
pub(crate) struct TimerFd {
    /// The guest's descriptor when it was created.
    fd: i32,
    /// pathvm's duplicate of it.
    hidden: i32,
    /// `CLOCK_REALTIME` (and `_ALARM`) or another: where absolute times start.
    realtime: bool,
    /// The next expiration (virtual ns since the start), if armed.
    deadline: Option<u64>,
    interval: u64,
}

const NS: u64 = 1_000_000_000;

/// `Some(ns)` of a `struct timespec` at `at` (`EINVAL` if malformed).
pub(crate) fn timespec<O: Observer>(m: &Machine<'_, O>, at: u64) -> Result<u64, i64> {
    let s = m.mem.read_u64(at).map_err(|_| NEG_EFAULT)?;
    let ns = m.mem.read_u64(at + 8).map_err(|_| NEG_EFAULT)?;
    if ns >= NS || (s as i64) < 0 {
        return Err(NEG_EINVAL);
    }
    Ok(s.saturating_mul(NS).saturating_add(ns))
}

pub(crate) fn write_timespec<O: Observer>(
    m: &mut Machine<'_, O>,
    at: u64,
    ns: u64,
) -> Result<(), i64> {
    m.mem.write_u64(at, ns / NS).map_err(|_| NEG_EFAULT)?;
    m.mem.write_u64(at + 8, ns % NS).map_err(|_| NEG_EFAULT)
}

/// A millisecond timeout (`poll`, `epoll_wait`): negative is none.
fn ms(v: u64) -> Option<u64> {
    let v = v as i32;
    (v >= 0).then(|| v as u64 * 1_000_000)
}

/// The events of an external descriptor with data to read: without the
/// hangup that may or may not have followed the data yet, depending on how
/// fast the writer went on to close its end (the hangup shows once the data
/// is read).
fn no_hangup(events: u32) -> u32 {
    let (pollin, pollhup) = (libc::POLLIN as u32, libc::POLLHUP as u32);
    if events & pollin != 0 {
        events & !pollhup
    } else {
        events
    }
}

/// Poll one descriptor without waiting.
fn ready(fd: i32, events: i16) -> bool {
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one local pollfd.
    unsafe { libc::poll(&mut p, 1, 0) > 0 }
}

impl<O: Observer> Machine<'_, O> {
    /// A signal mask argument (`sigsetsize` must be 8); `None` for null.
    fn sigmask_arg(&self, at: u64, size: u64) -> Result<Option<u64>, i64> {
        if at == 0 {
            return Ok(None);
        }
        if size != 8 {
            return Err(NEG_EINVAL);
        }
        Ok(Some(self.mem.read_u64(at).map_err(|_| NEG_EFAULT)?))
    }

    /// `poll` and `ppoll`.
    pub(crate) fn poll_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let (fds_at, n) = (a[0], a[1]);
        if n > 1 << 20 {
            return Err(NEG_EINVAL);
        }
        let ppoll = nr == libc::SYS_ppoll as u64;
        let (timeout, mask) = if ppoll {
            let t = if a[2] == 0 {
                None
            } else {
                Some(timespec(self, a[2])?)
            };
            (t, self.sigmask_arg(a[3], a[4])?)
        } else {
            (ms(a[2]), None)
        };
        let p = self.buf(fds_at, n * 8)?;
        let mut attempt = |m: &mut Self| {
            let r = host(libc::SYS_poll, &[p, n as i64, 0]);
            if r > 0 {
                // SAFETY: `p` is `n` pollfds of guest memory (`buf`).
                let list =
                    unsafe { std::slice::from_raw_parts_mut(p as *mut libc::pollfd, n as usize) };
                for f in list {
                    if m.external_fd(f.fd) {
                        f.revents = no_hangup(f.revents as u32) as i16;
                    }
                }
            }
            (r != 0).then_some(r)
        };
        let fds = |m: &Self| -> Result<Vec<libc::pollfd>, i64> {
            let raw = m.mem.slice(fds_at, n * 8).map_err(|_| NEG_EFAULT)?;
            Ok(raw
                .chunks(8)
                .map(|c| libc::pollfd {
                    fd: i32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                    events: i16::from_le_bytes([c[4], c[5]]),
                    revents: 0,
                })
                .collect())
        };
        match self.fd_wait(nr, timeout, mask, &mut attempt, &fds)? {
            Waited::Done(r, deadline) => {
                if ppoll && a[2] != 0 {
                    let left = deadline.map_or(0, |d| d.saturating_sub(self.clock.now_ns()));
                    let _ = write_timespec(self, a[2], left);
                }
                Ok(Sys::Ret(r))
            }
            Waited::Blocked(s) => Ok(s),
        }
    }

    /// `select` and `pselect6`.
    pub(crate) fn select_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let nfds = a[0] as i32;
        if !(0..=1 << 20).contains(&nfds) {
            return Err(NEG_EINVAL);
        }
        let bytes = (nfds as u64).div_ceil(64) * 8;
        let sets = [a[1], a[2], a[3]];
        let pselect = nr == libc::SYS_pselect6 as u64;
        let timeout = if a[4] == 0 {
            None
        } else if pselect {
            Some(timespec(self, a[4])?)
        } else {
            let s = self.mem.read_u64(a[4]).map_err(|_| NEG_EFAULT)?;
            let us = self.mem.read_u64(a[4] + 8).map_err(|_| NEG_EFAULT)?;
            if (s as i64) < 0 || (us as i64) < 0 {
                return Err(NEG_EINVAL);
            }
            Some(s.saturating_mul(NS).saturating_add(us.saturating_mul(1000)))
        };
        let mask = if pselect && a[5] != 0 {
            let p = self.mem.read_u64(a[5]).map_err(|_| NEG_EFAULT)?;
            let size = self.mem.read_u64(a[5] + 8).map_err(|_| NEG_EFAULT)?;
            self.sigmask_arg(p, size)?
        } else {
            None
        };
        let mut ptrs = [0i64; 3];
        let mut saved: [Vec<u8>; 3] = Default::default();
        for k in 0..3 {
            ptrs[k] = self.buf(sets[k], bytes)?;
            if sets[k] != 0 {
                saved[k] = self
                    .mem
                    .slice(sets[k], bytes)
                    .map_err(|_| NEG_EFAULT)?
                    .to_vec();
            }
        }
        let mut attempt = |m: &mut Self| {
            let mut tv = libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            };
            let r = host(
                libc::SYS_select,
                &[
                    nfds as i64,
                    ptrs[0],
                    ptrs[1],
                    ptrs[2],
                    &mut tv as *mut _ as i64,
                ],
            );
            if r == 0 {
                // The host cleared the sets: the guest's come back.
                for k in 0..3 {
                    if sets[k] != 0 {
                        let _ = m.mem.write(sets[k], &saved[k]);
                    }
                }
                return None;
            }
            Some(r)
        };
        let fds = |m: &Self| -> Result<Vec<libc::pollfd>, i64> {
            let mut out = Vec::new();
            for fd in 0..nfds {
                let mut events = 0;
                for (k, ev) in [libc::POLLIN, libc::POLLOUT, libc::POLLPRI]
                    .into_iter()
                    .enumerate()
                {
                    if sets[k] != 0 {
                        let byte = m
                            .mem
                            .slice(sets[k] + fd as u64 / 8, 1)
                            .map_err(|_| NEG_EFAULT)?[0];
                        if byte & (1 << (fd % 8)) != 0 {
                            events |= ev;
                        }
                    }
                }
                if events != 0 {
                    out.push(libc::pollfd {
                        fd,
                        events,
                        revents: 0,
                    });
                }
            }
            Ok(out)
        };
        match self.fd_wait(nr, timeout, mask, &mut attempt, &fds)? {
            Waited::Done(r, deadline) => {
                if r == 0 {
                    // A timeout clears the sets.
                    for &s in &sets {
                        if s != 0 {
                            let _ = self.mem.slice_mut(s, bytes).map(|b| b.fill(0));
                        }
                    }
                }
                if a[4] != 0 {
                    let left = deadline.map_or(0, |d| d.saturating_sub(self.clock.now_ns()));
                    if pselect {
                        let _ = write_timespec(self, a[4], left);
                    } else {
                        let _ = self.mem.write_u64(a[4], left / NS);
                        let _ = self.mem.write_u64(a[4] + 8, left % NS / 1000);
                    }
                }
                Ok(Sys::Ret(r))
            }
            Waited::Blocked(s) => Ok(s),
        }
    }

    /// `epoll_create`, `epoll_create1`, `epoll_ctl`, `epoll_wait`,
    /// `epoll_pwait`, `epoll_pwait2`, `eventfd`, `eventfd2`.
    #[allow(non_upper_case_globals)]
    pub(crate) fn epoll_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        use libc::*;
        let i = |k: usize| a[k] as i64;
        let r = match nr as i64 {
            SYS_epoll_create => {
                if (a[0] as i32) <= 0 {
                    return Err(NEG_EINVAL);
                }
                host(SYS_epoll_create1, &[0])
            }
            SYS_epoll_create1 => host(SYS_epoll_create1, &[i(0)]),
            SYS_epoll_ctl => {
                let r = host(SYS_epoll_ctl, &[i(0), i(1), i(2), self.buf(a[3], 12)?]);
                if r == 0 && a[1] as i32 == EPOLL_CTL_ADD {
                    self.epoll_added(a[0] as i32, a[2] as i32);
                }
                r
            }
            SYS_eventfd => host(SYS_eventfd2, &[i(0), 0]),
            SYS_eventfd2 => host(SYS_eventfd2, &[i(0), i(1)]),
            _ => return self.epoll_wait(nr, a),
        };
        Ok(Sys::Ret(r))
    }

    fn epoll_wait(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let (epfd, events, max) = (a[0] as i32, a[1], a[2] as i32);
        if max <= 0 || max as u64 > (i32::MAX as u64) / 12 {
            return Err(NEG_EINVAL);
        }
        let (timeout, mask) = match nr as i64 {
            libc::SYS_epoll_wait => (ms(a[3]), None),
            libc::SYS_epoll_pwait => (ms(a[3]), self.sigmask_arg(a[4], a[5])?),
            _ => {
                let t = if a[3] == 0 {
                    None
                } else {
                    Some(timespec(self, a[3])?)
                };
                (t, self.sigmask_arg(a[4], a[5])?)
            }
        };
        let p = self.buf(events, max as u64 * 12)?;
        let mut attempt = |m: &mut Self| {
            let r = host(libc::SYS_epoll_wait, &[epfd as i64, p, max as i64, 0]);
            if r > 0 && m.external_fd(epfd) {
                for k in 0..r as usize {
                    // SAFETY: the host wrote `r` packed 12-byte events at `p`.
                    unsafe {
                        let e = (p as *mut u8).add(12 * k) as *mut u32;
                        e.write_unaligned(no_hangup(e.read_unaligned()));
                    }
                }
            }
            (r != 0).then_some(r)
        };
        let fds = |_: &Self| {
            Ok(vec![libc::pollfd {
                fd: epfd,
                events: libc::POLLIN,
                revents: 0,
            }])
        };
        match self.fd_wait(nr, timeout, mask, &mut attempt, &fds)? {
            Waited::Done(r, _) => Ok(Sys::Ret(r)),
            Waited::Blocked(s) => Ok(s),
        }
    }

    /// A `read` that may have to wait here rather than on the host: on a
    /// timerfd (its expirations come from the virtual clock), or on a
    /// blocking descriptor while other threads live (they run meanwhile).
    pub(crate) fn read_waits(&mut self, fd: u64) -> bool {
        let fd = fd as i32;
        if self.timerfd(fd).is_some() || self.signalfd(fd).is_some() {
            return true;
        }
        self.threads.live() > 1 && {
            // SAFETY: F_GETFL on any number is harmless.
            let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
            fl >= 0 && fl & libc::O_NONBLOCK == 0
        }
    }

    /// `read` through the waiting machinery (see [`Machine::read_waits`]).
    pub(crate) fn waiting_read(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        let fd = a[0] as i32;
        if let Some(k) = self.signalfd(fd) {
            return self.signalfd_read(nr, k, a);
        }
        let p = self.buf(a[1], a[2])?;
        // SAFETY: F_GETFL on any number is harmless.
        let nonblock = unsafe { libc::fcntl(fd, libc::F_GETFL) } & libc::O_NONBLOCK != 0;
        if nonblock {
            self.fire_fd_timers();
            return Ok(Sys::Ret(host(libc::SYS_read, &[fd as i64, p, a[2] as i64])));
        }
        let mut attempt = |_: &mut Self| {
            if ready(fd, libc::POLLIN) {
                Some(host(libc::SYS_read, &[fd as i64, p, a[2] as i64]))
            } else {
                None
            }
        };
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

    /// The timer whose eventfd guest descriptor `fd` is.
    pub(crate) fn timerfd(&self, fd: i32) -> Option<usize> {
        if self.sys.timerfds.is_empty() || fd < 0 {
            return None;
        }
        // SAFETY: getpid cannot fail.
        let pid = unsafe { libc::getpid() } as i64;
        self.sys.timerfds.iter().position(|t| {
            // KCMP_FILE (0): 0 when both descriptors are the same open file.
            match host(libc::SYS_kcmp, &[pid, pid, 0, fd as i64, t.hidden as i64]) {
                r if r >= 0 => r == 0,
                _ => t.fd == fd,
            }
        })
    }

    /// A host eventfd for a descriptor pathvm keeps readable itself (timerfds,
    /// signalfds): the guest's descriptor and pathvm's duplicate of it, out
    /// of the guest's reach (`fdview`); a negative errno when either fails.
    pub(crate) fn hidden_eventfd(&mut self, flags: i32) -> Result<(i32, i32), i64> {
        let fd = host(libc::SYS_eventfd2, &[0, flags as i64]);
        if fd < 0 {
            return Err(fd);
        }
        let hidden = crate::fdview::reserve_fd(fd as i32);
        if hidden < 0 {
            let e = crate::syscalls::errno();
            // SAFETY: the guest never saw it.
            unsafe { libc::close(fd as i32) };
            return Err(e);
        }
        self.sys.fdview.reserve(hidden);
        Ok((fd as i32, hidden))
    }

    /// `timerfd_create`, `timerfd_settime`, `timerfd_gettime`.
    pub(crate) fn timerfd_call(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        const TFD_TIMER_ABSTIME: u64 = 1;
        const TFD_TIMER_CANCEL_ON_SET: u64 = 2;
        match nr as i64 {
            libc::SYS_timerfd_create => {
                let realtime = match a[0] {
                    0 | 8 => true,
                    1 | 7 | 9 => false,
                    _ => return Err(NEG_EINVAL),
                };
                let flags = a[1] as i32;
                if flags & !(libc::TFD_NONBLOCK | libc::TFD_CLOEXEC) != 0 {
                    return Err(NEG_EINVAL);
                }
                let (fd, hidden) = self.hidden_eventfd(flags)?;
                self.sys.timerfds.push(TimerFd {
                    fd,
                    hidden,
                    realtime,
                    deadline: None,
                    interval: 0,
                });
                Ok(Sys::Ret(fd.into()))
            }
            libc::SYS_timerfd_settime => {
                let k = self.timerfd(a[0] as i32).ok_or(NEG_EINVAL)?;
                if a[1] & !(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET) != 0 {
                    return Err(NEG_EINVAL);
                }
                let interval = timespec(self, a[2])?;
                let value = timespec(self, a[2] + 16)?;
                self.fire_fd_timers();
                let old = self.timerfd_value(k);
                // The expirations not read yet are dropped.
                let hidden = self.sys.timerfds[k].hidden;
                if ready(hidden, libc::POLLIN) {
                    let mut v = 0u64;
                    // SAFETY: reading 8 bytes into a local.
                    unsafe { libc::read(hidden, &mut v as *mut u64 as *mut libc::c_void, 8) };
                }
                let now = self.clock.now_ns();
                let zero = if self.sys.timerfds[k].realtime {
                    self.clock.epoch_secs()
                } else {
                    crate::clock::BOOT_SECS
                } * NS;
                let t = &mut self.sys.timerfds[k];
                t.interval = interval;
                t.deadline = if value == 0 {
                    None
                } else if a[1] & TFD_TIMER_ABSTIME != 0 {
                    Some(value.saturating_sub(zero))
                } else {
                    Some(now.saturating_add(value))
                };
                if a[3] != 0 {
                    write_timespec(self, a[3], old.0)?;
                    write_timespec(self, a[3] + 16, old.1)?;
                }
                self.fire_fd_timers();
                Ok(Sys::Ret(0))
            }
            _ => {
                let k = self.timerfd(a[0] as i32).ok_or(NEG_EINVAL)?;
                self.fire_fd_timers();
                let (interval, left) = self.timerfd_value(k);
                write_timespec(self, a[1], interval)?;
                write_timespec(self, a[1] + 16, left)?;
                Ok(Sys::Ret(0))
            }
        }
    }

    /// (interval, time left) of timerfd `k`.
    fn timerfd_value(&self, k: usize) -> (u64, u64) {
        let t = &self.sys.timerfds[k];
        let left = t
            .deadline
            .map_or(0, |d| d.saturating_sub(self.clock.now_ns()).max(1));
        (t.interval, left)
    }

    /// Add the expirations the virtual clock has passed to the timerfds
    /// (and make the signalfds readable as their signals are pending).
    pub(crate) fn fire_fd_timers(&mut self) {
        let now = self.clock.now_ns();
        for t in &mut self.sys.timerfds {
            let Some(d) = t.deadline else { continue };
            if now < d {
                continue;
            }
            let n = if t.interval == 0 {
                t.deadline = None;
                1
            } else {
                let n = (now - d) / t.interval + 1;
                t.deadline = Some(d + n * t.interval);
                n
            };
            // SAFETY: writing 8 bytes from a local to our own descriptor.
            unsafe { libc::write(t.hidden, &n as *const u64 as *const libc::c_void, 8) };
        }
        self.sync_signalfds();
    }

    /// The earliest deadline of an armed timerfd.
    pub(crate) fn next_fd_timer(&self) -> Option<u64> {
        self.sys.timerfds.iter().filter_map(|t| t.deadline).min()
    }
}
