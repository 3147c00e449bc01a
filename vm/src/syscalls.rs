//! Linux system calls of the guest.
//!
//! The guest and the host are both x86-64 Linux, so structures have the same
//! layout on both sides and guest memory is host memory: most calls are
//! passed to the host kernel with their pointers translated (and checked) to
//! host addresses. What would make a run depend on the host or on time is
//! answered here instead: identity (pid, uname), clocks, randomness, CPU
//! count, resource limits, and a few files under `/proc` and `/dev`.
//! Signals are the VM's own (`signals.rs`); child processes are host
//! processes with virtual pids (`process.rs`).
//! File descriptors are the host's own, as in a native run.

use std::ffi::CString;

use events::Observer;
use loader::elf::{page_up, Prot, PAGE_SIZE};
use rustc_hash::FxHashSet;
use unicorn_engine::{RegisterX86, Unicorn};

use crate::machine::{Machine, Resume, StopReason, VmConfig, VmError};
use crate::memory::{layout, Backing, TASK_SIZE};
use crate::process::{clone, Forked, ProcessState};
use crate::signals::{bit, SigAction, SigInfo, SignalState};

/// What the syscall hook does after a call.
pub(crate) enum SysResult {
    Continue,
    Stop(Result<StopReason, VmError>),
}

/// The process state kept for system calls.
pub(crate) struct SyscallState {
    strict: bool,
    warned: FxHashSet<u64>,
    pub(crate) warnings: Vec<String>,
    /// The guest's `/proc` (`procfs.rs`).
    pub(crate) proc: crate::procfs::ProcFs,
    /// pathvm's descriptors and the standard ones (`fdview.rs`).
    pub(crate) fdview: crate::fdview::FdView,
    /// Signal dispositions, mask, pending signals and timers.
    pub(crate) sig: SignalState,
    /// Pid, parent and children.
    pub(crate) process: ProcessState,
    /// The host's real uid (the sender's uid of signals).
    pub(crate) uid: u32,
    /// The stack pointer at the current system call.
    sp: u64,
    /// User and group ids, virtual.
    pub(crate) ids: crate::identity::Identity,
    /// Attached System V shared memory.
    pub(crate) sysv: crate::net::SysV,
    /// `prctl(PR_SET_TSC)`: 1 (`PR_TSC_ENABLE`) or 2 (`PR_TSC_SIGSEGV`).
    pub(crate) tsc_mode: u64,
    /// Timerfds (`crate::epoll`).
    pub(crate) timerfds: Vec<crate::epoll::TimerFd>,
    /// Signalfds (`crate::signalfd`).
    pub(crate) signalfds: Vec<crate::signalfd::SignalFd>,
    /// During a call the thread runs again after blocking: its deadline.
    pub(crate) restart: Option<Option<u64>>,
    /// What makes a wait depend on other processes (`crate::waits`).
    pub(crate) waits: crate::waits::WaitState,
}

impl SyscallState {
    pub(crate) fn new(config: &VmConfig) -> SyscallState {
        SyscallState {
            proc: crate::procfs::ProcFs::new(&config.program),
            fdview: crate::fdview::FdView::new(&config.reserved_fds, config.tty),
            strict: config.strict_syscalls,
            warned: FxHashSet::default(),
            warnings: Vec::new(),
            sig: SignalState::starting(config.signals),
            process: ProcessState::new(config.pid),
            // SAFETY: getuid cannot fail.
            uid: unsafe { libc::getuid() },
            sp: 0,
            ids: config
                .ids
                .clone()
                .unwrap_or_else(crate::identity::Identity::of_host),
            sysv: Default::default(),
            tsc_mode: 1,
            timerfds: Vec::new(),
            signalfds: Vec::new(),
            restart: None,
            waits: crate::waits::WaitState::new(),
        }
    }

    /// Is `fd` one of pathvm's descriptors?
    pub(crate) fn reserved(&self, fd: i32) -> bool {
        self.fdview.reserved(fd)
    }
}

/// Result of one call: the value for `rax` or what else to do.
pub(crate) enum Sys {
    Ret(i64),
    Exit(i32),
    SetFsBase(u64),
    SetGsBase(u64),
    Unsupported,
    /// Leave every register as it is (`rt_sigreturn`: the run loop restores them).
    NoReturn,
    /// In a forked child: return 0, on `stack` if not 0.
    Child {
        stack: u64,
    },
    /// `execve` accepted: the run ends and the command line runs the program.
    Exec,
    /// A scheduling point after the call (a thread blocked, yielded, was
    /// created or exited): `rax` becomes `ret` now (`None`: when the thread
    /// is woken), and the run loop picks the thread to run.
    Reschedule {
        rotate: bool,
        ret: Option<i64>,
    },
}

pub(crate) const NEG_EFAULT: i64 = -(libc::EFAULT as i64);
pub(crate) const NEG_EINVAL: i64 = -(libc::EINVAL as i64);
const NEG_ENOSYS: i64 = -(libc::ENOSYS as i64);
const NEG_ENOTTY: i64 = -(libc::ENOTTY as i64);

pub(crate) fn errno() -> i64 {
    -(std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO) as i64)
}

/// Call the host kernel; returns the result or `-errno`.
pub(crate) fn host(nr: i64, a: &[i64]) -> i64 {
    let mut v = [0i64; 6];
    v[..a.len()].copy_from_slice(a);
    // SAFETY: every pointer among the arguments was translated to host memory
    // of the size the call uses (guest memory or a local buffer) by the caller.
    let r = unsafe { libc::syscall(nr, v[0], v[1], v[2], v[3], v[4], v[5]) };
    if r == -1 {
        errno()
    } else {
        r
    }
}

/// [`host`] for the other modules of the crate.
pub(crate) fn host_call(nr: i64, a: &[i64]) -> i64 {
    host(nr, a)
}

/// Read the call from the CPU, run it, write the result back.
pub(crate) fn dispatch<O: Observer>(uc: &mut Unicorn<'_, Machine<'_, O>>) -> SysResult {
    let r = |uc: &Unicorn<'_, Machine<'_, O>>, reg| uc.reg_read(reg).unwrap_or(0);
    let nr = r(uc, RegisterX86::RAX);
    let args = [
        r(uc, RegisterX86::RDI),
        r(uc, RegisterX86::RSI),
        r(uc, RegisterX86::RDX),
        r(uc, RegisterX86::R10),
        r(uc, RegisterX86::R8),
        r(uc, RegisterX86::R9),
    ];
    let sp = r(uc, RegisterX86::RSP);
    let m = uc.get_data_mut();
    m.sys.sp = sp;
    if let Some(op) = events::marker::op(nr) {
        m.marker(op, args[0]);
        let _ = uc.reg_write(RegisterX86::RAX, NEG_ENOSYS as u64);
        return SysResult::Continue;
    }
    let out = m.syscall(nr, args);
    let ret = match out {
        Sys::Ret(v) => v,
        Sys::Exit(code) => return SysResult::Stop(Ok(StopReason::Exited(code))),
        Sys::NoReturn => return SysResult::Continue,
        Sys::Child { stack } => {
            if stack != 0 {
                let _ = uc.reg_write(RegisterX86::RSP, stack);
            }
            0
        }
        Sys::Exec => return SysResult::Stop(Ok(StopReason::Exited(0))),
        Sys::Reschedule { rotate, ret } => {
            if let Some(v) = ret {
                let _ = uc.reg_write(RegisterX86::RAX, v as u64);
            }
            uc.get_data_mut().resume = Some(Resume::Switch { pc: None, rotate });
            return SysResult::Continue;
        }
        Sys::SetFsBase(v) => {
            let _ = uc.reg_write(RegisterX86::FS_BASE, v);
            0
        }
        Sys::SetGsBase(v) => {
            let _ = uc.reg_write(RegisterX86::GS_BASE, v);
            0
        }
        Sys::Unsupported => {
            let name = syscall_name(nr);
            let pc = m.cur_block;
            if m.sys.strict {
                return SysResult::Stop(Err(VmError::UnsupportedSyscall { nr, name, pc }));
            }
            if m.sys.warned.insert(nr) {
                let w = format!("unsupported system call {name} ({nr}) returned ENOSYS");
                eprintln!("pathvm: warning: {w}");
                m.sys.warnings.push(w);
            }
            NEG_ENOSYS
        }
    };
    if ret == -(libc::EPIPE as i64) && raises_sigpipe(nr, &args) {
        // As the kernel does: the writer to a pipe or socket whose reader
        // is gone gets SIGPIPE as well as EPIPE (its default kills it).
        let m = uc.get_data_mut();
        let (pid, uid) = (m.sys.process.pid, m.sys.uid);
        m.sys.sig.post_own(SigInfo {
            signo: libc::SIGPIPE,
            code: 0, // SI_USER
            pid,
            uid,
            ..Default::default()
        });
    }
    let _ = uc.reg_write(RegisterX86::RAX, ret as u64);
    SysResult::Continue
}

/// Whether system call `nr` may wait on the host for another process
/// (a read with nothing to read, a write to a full pipe, a lock): the
/// process then waits on the timeline ([`crate::timeline`]).
fn would_block(nr: u64, a: &[u64; 6]) -> bool {
    let not_ready = |events: i16| {
        let mut p = libc::pollfd {
            fd: a[0] as i32,
            events,
            revents: 0,
        };
        // SAFETY: one local pollfd, no waiting.
        unsafe { libc::poll(&mut p, 1, 0) == 0 }
    };
    match nr as i64 {
        libc::SYS_read
        | libc::SYS_readv
        | libc::SYS_recvfrom
        | libc::SYS_recvmsg
        | libc::SYS_accept
        | libc::SYS_accept4 => not_ready(libc::POLLIN),
        libc::SYS_write
        | libc::SYS_writev
        | libc::SYS_sendto
        | libc::SYS_sendmsg
        | libc::SYS_connect => not_ready(libc::POLLOUT),
        libc::SYS_waitid => a[3] & libc::WNOHANG as u64 == 0,
        libc::SYS_fcntl => a[1] == libc::F_SETLKW as u64 || a[1] == libc::F_OFD_SETLKW as u64,
        libc::SYS_flock => a[1] & libc::LOCK_NB as u64 == 0,
        libc::SYS_msgrcv | libc::SYS_msgsnd | libc::SYS_semop | libc::SYS_semtimedop => true,
        _ => false,
    }
}

/// Whether an `EPIPE` from system call `nr` comes with SIGPIPE: every call
/// that writes to a pipe or a socket, except a send with `MSG_NOSIGNAL`.
fn raises_sigpipe(nr: u64, args: &[u64; 6]) -> bool {
    const MSG_NOSIGNAL: u64 = 0x4000;
    match nr as i64 {
        libc::SYS_write
        | libc::SYS_writev
        | libc::SYS_pwrite64
        | libc::SYS_pwritev
        | libc::SYS_pwritev2
        | libc::SYS_sendfile
        | libc::SYS_splice
        | libc::SYS_tee
        | libc::SYS_vmsplice
        | libc::SYS_copy_file_range => true,
        libc::SYS_sendto | libc::SYS_sendmsg | libc::SYS_sendmmsg => {
            let flags = match nr as i64 {
                libc::SYS_sendto => args[3],
                libc::SYS_sendmsg => args[2],
                _ => args[3],
            };
            flags & MSG_NOSIGNAL == 0
        }
        _ => false,
    }
}

impl<O: Observer> Machine<'_, O> {
    /// Host pointer for a guest buffer of `len` bytes (null stays null).
    pub(crate) fn buf(&self, addr: u64, len: u64) -> Result<i64, i64> {
        if addr == 0 {
            return Ok(0);
        }
        match self.mem.host_ptr(addr, len.max(1)) {
            Ok(p) => Ok(p as i64),
            Err(_) => self.bounce_buf(addr, len),
        }
    }

    /// A buffer across the edge of two of pathvm's memory areas, whose
    /// host memory is not contiguous: the host call gets a copy of it,
    /// which [`Machine::bounce_back`] writes back after the call (the
    /// bytes the call changed).
    #[cold]
    fn bounce_buf(&self, addr: u64, len: u64) -> Result<i64, i64> {
        let n = usize::try_from(len).map_err(|_| NEG_EFAULT)?;
        if !self.mem.covered(addr, len.max(1)) {
            return Err(NEG_EFAULT);
        }
        let mut copy = vec![0u8; n];
        self.mem
            .read_checked(addr, &mut copy)
            .map_err(|_| NEG_EFAULT)?;
        let p = copy.as_mut_ptr() as i64;
        self.bounce.borrow_mut().push((addr, copy));
        Ok(p)
    }

    /// After a system call: the bytes it changed in copies of buffers
    /// ([`Machine::bounce_buf`]) go to guest memory.
    #[cold]
    fn bounce_back(&mut self) {
        for (addr, copy) in std::mem::take(self.bounce.get_mut()) {
            let _ = self.mem.write_changed(addr, &copy);
        }
    }

    pub(crate) fn path(&self, addr: u64) -> Result<CString, i64> {
        let s = self.mem.read_cstr(addr, 4096).map_err(|_| NEG_EFAULT)?;
        CString::new(s).map_err(|_| NEG_EINVAL)
    }

    /// A region marker (`include/pathvm.h`): reported to the observer; the
    /// guest gets `-ENOSYS`, as natively. A phase name that cannot be read
    /// is `?`; one that is not UTF-8 is read lossily.
    fn marker(&mut self, op: u64, name_addr: u64) {
        use events::{marker, Marker};
        match op {
            marker::START => self.observer.marker(Marker::Start),
            marker::STOP => self.observer.marker(Marker::Stop),
            marker::ZERO => self.observer.marker(Marker::Zero),
            _ => {
                let bytes = self
                    .mem
                    .read_cstr(name_addr, marker::MAX_NAME)
                    .unwrap_or_else(|_| b"?".to_vec());
                let name = String::from_utf8_lossy(&bytes);
                self.observer.marker(Marker::Phase(&name));
            }
        }
    }

    fn syscall(&mut self, nr: u64, a: [u64; 6]) -> Sys {
        self.sys.restart = self.threads.current_mut().restart.take();
        self.threads.current_mut().wait_sigs = 0;
        if would_block(nr, &a) {
            crate::timeline::waiting(self.clock.now_ns(), None, false);
        }
        let r = match self.syscall_inner(nr, a) {
            Ok(s) => s,
            Err(e) => Sys::Ret(e),
        };
        if !self.bounce.get_mut().is_empty() {
            self.bounce_back();
        }
        if let Sys::Ret(n @ 1..) = r {
            self.host_wrote(nr, a, n as u64);
        }
        crate::timeline::running(self.clock.now_ns());
        self.sys.restart = None;
        r
    }

    /// The host wrote `n` bytes of guest memory for system call `nr` (a
    /// `read` into a buffer): code there that has been translated must be
    /// decoded and translated again, as after a store by the guest.
    fn host_wrote(&mut self, nr: u64, a: [u64; 6], n: u64) {
        let iov = match nr as i64 {
            libc::SYS_read | libc::SYS_pread64 | libc::SYS_recvfrom => {
                return self.wrote_range(a[1], n);
            }
            libc::SYS_readv | libc::SYS_preadv | libc::SYS_preadv2 => (a[1], a[2]),
            libc::SYS_recvmsg => {
                // struct msghdr: msg_iov at 16, msg_iovlen at 24.
                match (self.mem.read_u64(a[1] + 16), self.mem.read_u64(a[1] + 24)) {
                    (Ok(v), Ok(c)) => (v, c),
                    _ => return,
                }
            }
            _ => return,
        };
        let (mut at, mut left) = (iov, n);
        for _ in 0..iov.1.min(1024) {
            let (Ok(base), Ok(len)) = (self.mem.read_u64(at.0), self.mem.read_u64(at.0 + 8)) else {
                return;
            };
            let len = len.min(left);
            self.wrote_range(base, len);
            left -= len;
            if left == 0 {
                return;
            }
            at.0 += 16;
        }
    }

    fn wrote_range(&mut self, lo: u64, len: u64) {
        let Some(hi) = lo.checked_add(len) else {
            return;
        };
        if len > 0 && self.mem.any_exec(lo & !(PAGE_SIZE - 1), hi) {
            self.code_changed(lo, hi);
        }
    }

    /// A `wait4` for `pid` can reap without waiting on the timeline: a
    /// child it names ended (or is not on the timeline, or there is none).
    fn child_ended_for(&self, pid: i64) -> bool {
        let p = &self.sys.process;
        let named = p.waited_children(pid);
        named.is_empty()
            || named
                .iter()
                .any(|&h| p.slot_of(h).is_none() || p.ended_at(h).is_some())
    }

    /// Does a wait for a child block only its thread (other threads can
    /// run, or a timer can end the wait) rather than the whole process on
    /// the host?
    fn waits_in_scheduler(&self) -> bool {
        self.threads.live() > 1
            || self.sys.sig.wall_deadline().is_some()
            || self.next_fd_timer().is_some()
    }

    /// The guest learnt of an event at time `at` of the timeline (a
    /// child's end): its clock is at least there.
    pub(crate) fn caught_up(&mut self, at: Option<u64>) {
        let now = self.clock.now_ns();
        if let Some(t) = at.filter(|&t| t > now) {
            self.clock.sleep(t - now);
        }
    }

    /// Before the clock jumps to `d`: wait until no other process of the
    /// guest can act before `d` ([`crate::timeline`]). False when pathvm
    /// was asked to stop meanwhile.
    pub(crate) fn wait_turn(&mut self, d: u64) -> bool {
        let pid = self.sys.process.pid;
        let mut published = false;
        while !crate::timeline::may_pass(d, pid) {
            if !published {
                crate::timeline::waiting(self.clock.now_ns(), Some(d), false);
                published = true;
            }
            if crate::machine::stop_requested() != 0 {
                return false;
            }
            let ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            // SAFETY: a local timespec; SIGINT and SIGTERM interrupt it.
            unsafe { libc::nanosleep(&ts, std::ptr::null_mut()) };
        }
        true
    }

    #[allow(non_upper_case_globals)]
    fn syscall_inner(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        use libc::*;
        let n = nr as i64;
        let i = |k: usize| a[k] as i64;
        let ret = |v: i64| Ok(Sys::Ret(v));
        if let Some(r) = self.fd_guard(n, &a) {
            return ret(r);
        }
        match n {
            SYS_read if self.read_waits(a[0]) => self.waiting_read(nr, a),
            SYS_read | SYS_write => ret(host(n, &[i(0), self.buf(a[1], a[2])?, i(2)])),
            SYS_pread64 | SYS_pwrite64 => ret(host(n, &[i(0), self.buf(a[1], a[2])?, i(2), i(3)])),
            SYS_readv | SYS_writev | SYS_preadv | SYS_pwritev => {
                let iov = self.iovecs(a[1], a[2])?;
                ret(host(n, &[i(0), iov.as_ptr() as i64, i(2), i(3), i(4)]))
            }
            SYS_open => self.open(AT_FDCWD as i64, a[0], i(1), i(2)),
            SYS_openat => self.open(i(0), a[1], i(2), i(3)),
            SYS_creat => self.open(
                AT_FDCWD as i64,
                a[0],
                (O_CREAT | O_WRONLY | O_TRUNC) as i64,
                i(1),
            ),
            SYS_close | SYS_dup | SYS_dup2 | SYS_dup3 | SYS_fsync | SYS_fdatasync
            | SYS_ftruncate | SYS_fchmod | SYS_fchown | SYS_fchdir | SYS_flock | SYS_lseek
            | SYS_umask | SYS_fadvise64 | SYS_fallocate | SYS_close_range => {
                ret(host(n, &[i(0), i(1), i(2), i(3)]))
            }
            SYS_stat | SYS_lstat => ret(host(
                n,
                &[
                    self.meta_path(AT_FDCWD as i64, a[0], n == SYS_lstat)?
                        .as_ptr() as i64,
                    self.buf(a[1], 144)?,
                ],
            )),
            SYS_fstat => ret(host(n, &[i(0), self.buf(a[1], 144)?])),
            SYS_newfstatat => {
                let p = self.meta_path(i(0), a[1], a[3] & AT_SYMLINK_NOFOLLOW as u64 != 0)?;
                ret(host(
                    n,
                    &[i(0), p.as_ptr() as i64, self.buf(a[2], 144)?, i(3)],
                ))
            }
            SYS_statx => {
                let p = self.meta_path(i(0), a[1], a[2] & AT_SYMLINK_NOFOLLOW as u64 != 0)?;
                ret(host(
                    n,
                    &[i(0), p.as_ptr() as i64, i(2), i(3), self.buf(a[4], 256)?],
                ))
            }
            SYS_statfs => ret(host(
                n,
                &[self.path(a[0])?.as_ptr() as i64, self.buf(a[1], 120)?],
            )),
            SYS_fstatfs => ret(host(n, &[i(0), self.buf(a[1], 120)?])),
            SYS_access | SYS_chdir | SYS_rmdir | SYS_unlink | SYS_mkdir | SYS_chmod
            | SYS_truncate => ret(host(n, &[self.path(a[0])?.as_ptr() as i64, i(1), i(2)])),
            SYS_chown | SYS_lchown => ret(host(n, &[self.path(a[0])?.as_ptr() as i64, i(1), i(2)])),
            SYS_faccessat | SYS_faccessat2 | SYS_mkdirat | SYS_unlinkat | SYS_fchmodat => ret(
                host(n, &[i(0), self.path(a[1])?.as_ptr() as i64, i(2), i(3)]),
            ),
            SYS_fchownat => ret(host(
                n,
                &[i(0), self.path(a[1])?.as_ptr() as i64, i(2), i(3), i(4)],
            )),
            SYS_rename | SYS_link | SYS_symlink => {
                let (p, q) = (self.path(a[0])?, self.path(a[1])?);
                ret(host(n, &[p.as_ptr() as i64, q.as_ptr() as i64]))
            }
            SYS_renameat | SYS_renameat2 | SYS_linkat => {
                let (p, q) = (self.path(a[1])?, self.path(a[3])?);
                ret(host(
                    n,
                    &[i(0), p.as_ptr() as i64, i(2), q.as_ptr() as i64, i(4)],
                ))
            }
            SYS_symlinkat => {
                let (p, q) = (self.path(a[0])?, self.path(a[2])?);
                ret(host(n, &[p.as_ptr() as i64, i(1), q.as_ptr() as i64]))
            }
            SYS_readlink => self.readlink(AT_FDCWD as i64, a[0], a[1], a[2]),
            SYS_readlinkat => self.readlink(i(0), a[1], a[2], a[3]),
            SYS_utimensat => {
                let p = if a[1] == 0 {
                    0
                } else {
                    self.path(a[1])?.into_raw() as i64
                };
                let r = host(n, &[i(0), p, self.buf(a[2], 32)?, i(3)]);
                if p != 0 {
                    // SAFETY: `p` came from `CString::into_raw` just above.
                    drop(unsafe { CString::from_raw(p as *mut c_char) });
                }
                ret(r)
            }
            SYS_getdents64 | SYS_getdents => ret(host(n, &[i(0), self.buf(a[1], a[2])?, i(2)])),
            SYS_getcwd => ret(host(n, &[self.buf(a[0], a[1])?, i(1)])),
            SYS_pipe => ret(host(SYS_pipe2, &[self.buf(a[0], 8)?, 0])),
            SYS_pipe2 => ret(host(n, &[self.buf(a[0], 8)?, i(1)])),
            SYS_poll | SYS_ppoll => self.poll_call(nr, a),
            SYS_select | SYS_pselect6 => self.select_call(nr, a),
            SYS_epoll_create | SYS_epoll_create1 | SYS_epoll_ctl | SYS_epoll_wait
            | SYS_epoll_pwait | SYS_epoll_pwait2 | SYS_eventfd | SYS_eventfd2 => {
                self.epoll_call(nr, a)
            }
            SYS_timerfd_create | SYS_timerfd_settime | SYS_timerfd_gettime => {
                self.timerfd_call(nr, a)
            }
            SYS_signalfd | SYS_signalfd4 => self.signalfd_call(nr, a),
            SYS_sendfile => ret(host(n, &[i(0), i(1), self.buf(a[2], 8)?, i(3)])),
            SYS_copy_file_range => ret(host(
                n,
                &[
                    i(0),
                    self.buf(a[1], 8)?,
                    i(2),
                    self.buf(a[3], 8)?,
                    i(4),
                    i(5),
                ],
            )),
            SYS_ioctl => self.ioctl(a),
            SYS_fcntl => match a[1] as i32 {
                F_GETLK | F_SETLK | F_SETLKW | F_OFD_GETLK | F_OFD_SETLK | F_OFD_SETLKW => {
                    ret(host(n, &[i(0), i(1), self.buf(a[2], 32)?]))
                }
                F_DUPFD | F_GETFD | F_SETFD | F_GETFL | F_SETFL | F_DUPFD_CLOEXEC
                | F_GETPIPE_SZ | F_SETPIPE_SZ | F_ADD_SEALS | F_GET_SEALS => {
                    ret(host(n, &[i(0), i(1), i(2)]))
                }
                _ => ret(NEG_EINVAL),
            },
            SYS_getxattr | SYS_lgetxattr => {
                let (p, k) = (self.path(a[0])?, self.path(a[1])?);
                ret(host(
                    n,
                    &[
                        p.as_ptr() as i64,
                        k.as_ptr() as i64,
                        self.buf(a[2], a[3])?,
                        i(3),
                    ],
                ))
            }
            SYS_fgetxattr => {
                let k = self.path(a[1])?;
                ret(host(
                    n,
                    &[i(0), k.as_ptr() as i64, self.buf(a[2], a[3])?, i(3)],
                ))
            }
            SYS_listxattr | SYS_llistxattr => ret(host(
                n,
                &[
                    self.path(a[0])?.as_ptr() as i64,
                    self.buf(a[1], a[2])?,
                    i(2),
                ],
            )),
            SYS_flistxattr => ret(host(n, &[i(0), self.buf(a[1], a[2])?, i(2)])),

            // Memory.
            SYS_brk => ret(self.mem.set_brk(a[0]) as i64),
            SYS_mmap => self.mmap(a),
            SYS_munmap => {
                // As the kernel checks: aligned, within the user range, not
                // wrapping, not empty.
                if a[0] % PAGE_SIZE != 0 || a[0] > TASK_SIZE || a[1] > TASK_SIZE - a[0] || a[1] == 0
                {
                    return ret(NEG_EINVAL);
                }
                let len = page_up(a[1]);
                // Only executable pages can have translations.
                let had_code = self.mem.any_exec(a[0], a[0] + len);
                self.mem.unmap(a[0], len);
                if had_code {
                    self.code_changed(a[0], a[0] + len);
                }
                ret(0)
            }
            SYS_pkey_mprotect if a[3] as i32 != -1 => ret(NEG_EINVAL),
            SYS_mprotect | SYS_pkey_mprotect => {
                const PROT_KNOWN: u64 = 0x7 | 0x8 | 0x0100_0000 | 0x0200_0000;
                if a[0] % PAGE_SIZE != 0 || a[2] & !PROT_KNOWN != 0 {
                    return ret(NEG_EINVAL);
                }
                if a[1] == 0 {
                    return ret(0);
                }
                if a[1] > TASK_SIZE || a[0] > TASK_SIZE - page_up(a[1]) {
                    return ret(-(ENOMEM as i64));
                }
                let (prot, len) = (Prot::from_bits(a[2]), page_up(a[1]));
                let was_exec = !prot.exec && self.mem.any_exec(a[0], a[0] + len);
                let ok = self.mem.protect(a[0], len, prot);
                if ok && was_exec {
                    // Translations of code that may no longer run.
                    self.code_changed(a[0], a[0] + len);
                }
                ret(if ok { 0 } else { -(ENOMEM as i64) })
            }
            // The virtual CPU has no protection keys (CPUID.7.ECX.OSPKE is
            // clear): as on such a machine, no key can be allocated, and only
            // the default key (-1) is accepted by pkey_mprotect.
            SYS_pkey_alloc => {
                const PKEY_ACCESS_MASK: u64 = 0x3;
                if a[0] != 0 || a[1] & !PKEY_ACCESS_MASK != 0 {
                    return ret(NEG_EINVAL);
                }
                ret(-(libc::ENOSPC as i64))
            }
            SYS_pkey_free => ret(NEG_EINVAL),
            SYS_mremap => self.mremap(a),
            SYS_madvise => {
                if a[0] % PAGE_SIZE != 0 || a[1] > TASK_SIZE || a[0] > TASK_SIZE - page_up(a[1]) {
                    return ret(NEG_EINVAL);
                }
                let (lo, hi) = (a[0], a[0] + page_up(a[1]));
                if lo == hi {
                    return ret(0);
                }
                let mapped = if a[2] == MADV_DONTNEED as u64 {
                    self.mem.discard(lo, hi)
                } else {
                    self.mem.any_mapped(lo, hi)
                };
                ret(if mapped { 0 } else { -(ENOMEM as i64) })
            }
            SYS_msync | SYS_mlock | SYS_munlock | SYS_mlockall | SYS_munlockall | SYS_mincore => {
                ret(0)
            }

            // Identity and the machine: fixed.
            SYS_getpid => ret(self.sys.process.pid as i64),
            SYS_gettid => ret(self.threads.current().tid as i64),
            SYS_getppid => ret(self.sys.process.ppid as i64),
            SYS_getpgrp | SYS_getsid | SYS_getpgid => ret(self.sys.process.pid as i64),
            SYS_setpgid | SYS_setsid => ret(0),
            SYS_getuid | SYS_geteuid | SYS_getgid | SYS_getegid | SYS_getgroups | SYS_getresuid
            | SYS_getresgid | SYS_setuid | SYS_setgid | SYS_setreuid | SYS_setregid
            | SYS_setresuid | SYS_setresgid | SYS_setfsuid | SYS_setfsgid | SYS_setgroups => {
                ret(self.identity_call(n, a)?)
            }
            SYS_uname => {
                let b = self.mem.slice_mut(a[0], 65 * 6).map_err(|_| NEG_EFAULT)?;
                b.fill(0);
                for (k, s) in [
                    "Linux",
                    "pathvm",
                    "6.1.0",
                    "#1 SMP PREEMPT_DYNAMIC pathvm",
                    "x86_64",
                    "(none)",
                ]
                .iter()
                .enumerate()
                {
                    b[k * 65..k * 65 + s.len()].copy_from_slice(s.as_bytes());
                }
                ret(0)
            }
            SYS_sysinfo => {
                let b = self.mem.slice_mut(a[0], 112).map_err(|_| NEG_EFAULT)?;
                b.fill(0);
                let up = self.clock.monotonic().0;
                b[0..8].copy_from_slice(&up.to_le_bytes());
                b[32..40].copy_from_slice(&(8u64 << 30).to_le_bytes()); // totalram
                b[40..48].copy_from_slice(&(6u64 << 30).to_le_bytes()); // freeram
                b[80..82].copy_from_slice(&1u16.to_le_bytes()); // procs
                b[104..108].copy_from_slice(&1u32.to_le_bytes()); // mem_unit
                ret(0)
            }
            SYS_sched_getaffinity => {
                if a[1] < 8 {
                    return ret(NEG_EINVAL);
                }
                let b = self.mem.slice_mut(a[2], a[1]).map_err(|_| NEG_EFAULT)?;
                b.fill(0);
                b[0] = 1; // one virtual CPU
                ret(8)
            }
            SYS_sched_yield if self.threads.live() > 1 => Ok(Sys::Reschedule {
                rotate: true,
                ret: Some(0),
            }),
            SYS_sched_setaffinity
            | SYS_sched_yield
            | SYS_setpriority
            | SYS_sched_setscheduler
            | SYS_sched_setparam => ret(0),
            SYS_getpriority => ret(20),
            SYS_sched_getscheduler => ret(0),
            SYS_sched_get_priority_max | SYS_sched_get_priority_min => ret(0),
            SYS_getrlimit => self.rlimit(a[0], a[1]),
            SYS_prlimit64 => {
                if a[0] != 0 && a[0] != self.sys.process.pid as u64 {
                    return ret(-(ESRCH as i64));
                }
                if a[2] != 0 {
                    let soft = self.mem.read_u64(a[2]).map_err(|_| NEG_EFAULT)?;
                    let hard = self.mem.read_u64(a[2] + 8).map_err(|_| NEG_EFAULT)?;
                    if soft > hard {
                        return ret(NEG_EINVAL);
                    }
                    let old = self.rlimit(a[1], a[3]);
                    self.set_rlimit(a[1], soft, hard);
                    return old;
                }
                self.rlimit(a[1], a[3])
            }
            SYS_setrlimit => {
                let soft = self.mem.read_u64(a[1]).map_err(|_| NEG_EFAULT)?;
                let hard = self.mem.read_u64(a[1] + 8).map_err(|_| NEG_EFAULT)?;
                if soft > hard {
                    return ret(NEG_EINVAL);
                }
                self.set_rlimit(a[0], soft, hard);
                ret(0)
            }
            SYS_getcpu => {
                // One virtual CPU, on node 0.
                for p in [a[0], a[1]] {
                    if p != 0 {
                        self.mem.write_u32(p, 0).map_err(|_| NEG_EFAULT)?;
                    }
                }
                ret(0)
            }
            SYS_getrusage => {
                let b = self.mem.slice_mut(a[1], 144).map_err(|_| NEG_EFAULT)?;
                b.fill(0);
                let ns = self.clock.cputime();
                b[0..8].copy_from_slice(&ns.0.to_le_bytes());
                b[8..16].copy_from_slice(&(ns.1 / 1000).to_le_bytes());
                ret(0)
            }
            SYS_times => {
                let ticks = (self.clock.now_ns() / 10_000_000) as i64;
                if a[0] != 0 {
                    let b = self.mem.slice_mut(a[0], 32).map_err(|_| NEG_EFAULT)?;
                    b.fill(0);
                    b[0..8].copy_from_slice(
                        &((self.clock.instret.get() / 10_000_000) as i64).to_le_bytes(),
                    );
                }
                ret(ticks)
            }

            // Time: virtual.
            SYS_clock_gettime => {
                let (s, ns) = self.clock_value(a[0])?;
                self.mem.write_u64(a[1], s).map_err(|_| NEG_EFAULT)?;
                self.mem.write_u64(a[1] + 8, ns).map_err(|_| NEG_EFAULT)?;
                ret(0)
            }
            SYS_clock_getres => {
                if a[1] != 0 {
                    self.mem.write_u64(a[1], 0).map_err(|_| NEG_EFAULT)?;
                    self.mem.write_u64(a[1] + 8, 1).map_err(|_| NEG_EFAULT)?;
                }
                ret(0)
            }
            SYS_gettimeofday => {
                let (s, ns) = self.clock.realtime();
                if a[0] != 0 {
                    self.mem.write_u64(a[0], s).map_err(|_| NEG_EFAULT)?;
                    self.mem
                        .write_u64(a[0] + 8, ns / 1000)
                        .map_err(|_| NEG_EFAULT)?;
                }
                if a[1] != 0 {
                    self.mem.write_u64(a[1], 0).map_err(|_| NEG_EFAULT)?;
                }
                ret(0)
            }
            SYS_time => {
                let s = self.clock.realtime().0;
                if a[0] != 0 {
                    self.mem.write_u64(a[0], s).map_err(|_| NEG_EFAULT)?;
                }
                ret(s as i64)
            }
            SYS_nanosleep => self.sleep(a[0], false, a[1]).map(|r| self.yield_after(r)),
            SYS_clock_nanosleep => self
                .sleep(a[2], a[1] & 1 != 0, a[3])
                .map(|r| self.yield_after(r)),
            SYS_getrandom => {
                // GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE, not the last two together.
                if a[2] & !7 != 0 || a[2] & 6 == 6 {
                    return ret(NEG_EINVAL);
                }
                let b = self.mem.slice_mut(a[0], a[1]).map_err(|_| NEG_EFAULT)?;
                self.rng.fill(b);
                ret(a[1] as i64)
            }

            // Process and threads.
            SYS_exit if self.threads.live() > 1 => self.exit_thread(),
            SYS_exit | SYS_exit_group => Ok(Sys::Exit((a[0] & 0xff) as i32)),
            SYS_arch_prctl => match a[0] {
                0x1002 => Ok(Sys::SetFsBase(a[1])),
                0x1001 => Ok(Sys::SetGsBase(a[1])),
                _ => ret(NEG_EINVAL),
            },
            SYS_set_tid_address => {
                let t = self.threads.current_mut();
                t.clear_child_tid = a[0];
                ret(t.tid as i64)
            }
            // Robust futexes matter only when a thread dies holding a lock.
            SYS_set_robust_list => ret(0),
            // Not offered: glibc falls back by itself, so no warning.
            SYS_rseq => ret(NEG_ENOSYS),
            SYS_clone3 => self.clone3(a[0], a[1]),
            SYS_futex => self.futex(a),
            SYS_rt_sigaction => self.sigaction(a),
            SYS_rt_sigprocmask => {
                if a[3] != 8 {
                    return ret(NEG_EINVAL);
                }
                let old = self.sys.sig.blocked;
                if a[1] != 0 {
                    let set = self.mem.read_u64(a[1]).map_err(|_| NEG_EFAULT)?;
                    let mask = match a[0] as i32 {
                        SIG_BLOCK => old | set,
                        SIG_UNBLOCK => old & !set,
                        SIG_SETMASK => set,
                        _ => return ret(NEG_EINVAL),
                    };
                    self.sys.sig.set_blocked(mask);
                }
                if a[2] != 0 {
                    self.mem.write_u64(a[2], old).map_err(|_| NEG_EFAULT)?;
                }
                ret(0)
            }
            SYS_rt_sigpending => {
                let set = self.sys.sig.pending_set() & self.sys.sig.blocked;
                self.mem.write_u64(a[0], set).map_err(|_| NEG_EFAULT)?;
                ret(0)
            }
            SYS_sigaltstack => {
                let sp = self.sys.sp;
                let (old_sp, old_flags, old_size) = self.sys.sig.altstack(sp);
                if a[0] != 0 {
                    let ss_sp = self.mem.read_u64(a[0]).map_err(|_| NEG_EFAULT)?;
                    let flags = self.mem.read_u64(a[0] + 8).map_err(|_| NEG_EFAULT)? as u32;
                    let size = self.mem.read_u64(a[0] + 16).map_err(|_| NEG_EFAULT)?;
                    if let Err(e) = self.sys.sig.set_altstack(sp, ss_sp, flags, size) {
                        return ret(e);
                    }
                }
                if a[1] != 0 {
                    let b = self.mem.slice_mut(a[1], 24).map_err(|_| NEG_EFAULT)?;
                    b.fill(0);
                    b[0..8].copy_from_slice(&old_sp.to_le_bytes());
                    b[8..12].copy_from_slice(&old_flags.to_le_bytes());
                    b[16..24].copy_from_slice(&old_size.to_le_bytes());
                }
                ret(0)
            }
            SYS_rt_sigreturn => {
                self.resume = Some(Resume::Sigreturn);
                Ok(Sys::NoReturn)
            }
            // pid_t arguments are 32-bit.
            SYS_kill => self.kill(a[0] as i32 as i64, a[1], SI_USER),
            SYS_tgkill => {
                if a[0] as u32 != self.sys.process.pid {
                    return self.kill(a[0] as i32 as i64, a[2], libc::SI_TKILL);
                }
                self.tkill(a[1] as i32 as i64, a[2])
            }
            SYS_tkill => self.tkill(a[0] as i32 as i64, a[1]),
            SYS_alarm => {
                let now = self.clock.now_ns();
                let (_, left) =
                    self.sys
                        .sig
                        .set_timer(0, a[0].saturating_mul(1_000_000_000), 0, now);
                // Remaining seconds, rounded to nearest, at least 1 when armed.
                let secs = (left + 500_000_000) / 1_000_000_000;
                ret(if left > 0 { secs.max(1) } else { 0 } as i64)
            }
            SYS_setitimer => {
                let which = a[0] as usize;
                if which > 2 {
                    return ret(NEG_EINVAL);
                }
                let (interval, value) = if a[1] != 0 {
                    (self.read_timeval(a[1])?, self.read_timeval(a[1] + 16)?)
                } else {
                    (0, 0)
                };
                let now = self.timer_clock(which);
                let old = if a[1] != 0 {
                    self.sys.sig.set_timer(which, value, interval, now)
                } else {
                    self.sys.sig.get_timer(which, now)
                };
                if a[2] != 0 {
                    self.write_timeval(a[2], old.0)?;
                    self.write_timeval(a[2] + 16, old.1)?;
                }
                ret(0)
            }
            SYS_getitimer => {
                let which = a[0] as usize;
                if which > 2 {
                    return ret(NEG_EINVAL);
                }
                let old = self.sys.sig.get_timer(which, self.timer_clock(which));
                self.write_timeval(a[1], old.0)?;
                self.write_timeval(a[1] + 16, old.1)?;
                ret(0)
            }
            SYS_pause => self.wait_for_signal(nr),
            SYS_rt_sigtimedwait => self.sigtimedwait(nr, a),
            SYS_rt_sigqueueinfo | SYS_rt_tgsigqueueinfo => self.sigqueueinfo(nr, a),
            SYS_timer_create | SYS_timer_settime | SYS_timer_gettime | SYS_timer_getoverrun
            | SYS_timer_delete => self.timer_call(nr, a),
            SYS_rt_sigsuspend => {
                if a[1] != 8 {
                    return ret(NEG_EINVAL);
                }
                let mask = self.mem.read_u64(a[0]).map_err(|_| NEG_EFAULT)?;
                let old = self.sys.sig.blocked;
                self.sys.sig.set_blocked(mask);
                // The handler's frame saves the old mask; rt_sigreturn restores it.
                self.sys.sig.suspended_mask = Some(old);
                self.wait_for_signal(nr)
            }

            // Child processes.
            SYS_fork => self.fork(libc::SIGCHLD as u64, 0, 0, 0),
            SYS_vfork => self.fork(clone::VM | clone::VFORK | libc::SIGCHLD as u64, 0, 0, 0),
            SYS_clone => {
                let flags = a[0];
                if flags & clone::THREAD != 0
                    || (flags & clone::VM != 0 && flags & clone::VFORK == 0)
                {
                    return self.clone_thread(flags, a[1], a[2], a[3], a[4]);
                }
                self.fork(flags, a[1], a[2], a[3])
            }
            SYS_execve => self.execve(AT_FDCWD as i64, a[0], a[1], a[2], 0),
            SYS_execveat => self.execve(i(0), a[1], a[2], a[3], i(4)),
            SYS_wait4 => {
                let status = self.buf(a[1], 4)?;
                if a[3] != 0 {
                    self.mem
                        .slice_mut(a[3], 144)
                        .map_err(|_| NEG_EFAULT)?
                        .fill(0);
                }
                let unreported: Vec<i64> = self
                    .sys
                    .process
                    .unreported_children()
                    .into_iter()
                    .map(|h| self.sys.process.virtual_pid(h))
                    .collect();
                let pid = a[0] as i32 as i64;
                let options = a[2] as i32 as i64;
                if options & WNOHANG as i64 == 0 && !self.child_ended_for(pid) {
                    if self.waits_in_scheduler() {
                        // Other threads run, and a timer may come first.
                        if self.sys.sig.next_deliverable().is_some() {
                            return Err(-(EINTR as i64));
                        }
                        return Ok(self.block(nr, Vec::new(), None));
                    }
                    crate::timeline::waiting(self.clock.now_ns(), None, true);
                }
                let (r, at) = self.sys.process.wait4(pid, status, options);
                self.caught_up(at);
                self.sigchld_at_reap(r, status, &unreported);
                ret(r)
            }
            SYS_waitid => {
                let (idtype, id) = match a[0] {
                    1 => match self.sys.process.host_pid(a[1] as i32 as i64) {
                        Some(h) => (1, h as i64),
                        None => return ret(-(ECHILD as i64)),
                    },
                    _ => (0, 0), // P_ALL (process groups are not virtual)
                };
                let info = self.buf(a[2], 128)?;
                if a[4] != 0 {
                    self.mem
                        .slice_mut(a[4], 144)
                        .map_err(|_| NEG_EFAULT)?
                        .fill(0);
                }
                let r = host(n, &[idtype, id, info, i(3), 0]);
                if r == 0 && a[2] != 0 {
                    let host_pid = self.mem.slice(a[2] + 16, 4).map_err(|_| NEG_EFAULT)?;
                    let host_pid = i32::from_le_bytes(host_pid.try_into().unwrap_or([0; 4]));
                    if host_pid != 0 {
                        let v = self.sys.process.virtual_pid(host_pid) as i32;
                        self.mem
                            .write(a[2] + 16, &v.to_le_bytes())
                            .map_err(|_| NEG_EFAULT)?;
                    }
                }
                ret(r)
            }
            SYS_prctl => match a[0] as i32 {
                PR_SET_NAME | PR_GET_NAME | PR_SET_DUMPABLE | PR_GET_DUMPABLE
                | PR_SET_PDEATHSIG => ret(0),
                PR_GET_TSC => {
                    self.mem
                        .write_u32(a[1], self.sys.tsc_mode as u32)
                        .map_err(|_| NEG_EFAULT)?;
                    ret(0)
                }
                // The mode is kept; `rdtsc` reads the virtual clock either way.
                PR_SET_TSC if a[1] == 1 || a[1] == 2 => {
                    self.sys.tsc_mode = a[1];
                    ret(0)
                }
                _ => ret(NEG_EINVAL),
            },
            SYS_capget => ret(NEG_EINVAL),
            SYS_sync | SYS_syncfs => ret(0),
            SYS_socket | SYS_socketpair | SYS_bind | SYS_connect | SYS_listen | SYS_accept
            | SYS_accept4 | SYS_getsockname | SYS_getpeername | SYS_sendto | SYS_recvfrom
            | SYS_setsockopt | SYS_getsockopt | SYS_shutdown | SYS_sendmsg | SYS_recvmsg => {
                ret(self.socket_call(n, a)?)
            }
            SYS_shmget | SYS_shmat | SYS_shmdt | SYS_shmctl | SYS_semget | SYS_semop
            | SYS_semtimedop | SYS_semctl => match self.sysv_call(n, a) {
                Some(r) => ret(r?),
                None => Ok(Sys::Unsupported),
            },
            SYS_process_vm_readv | SYS_process_vm_writev => {
                ret(self.process_vm(n == SYS_process_vm_writev, a)?)
            }
            _ => Ok(Sys::Unsupported),
        }
    }

    pub(crate) fn iovecs(&self, addr: u64, count: u64) -> Result<Vec<libc::iovec>, i64> {
        if count > 1024 {
            return Err(NEG_EINVAL);
        }
        let raw = self.mem.slice(addr, count * 16).map_err(|_| NEG_EFAULT)?;
        raw.chunks(16)
            .map(|c| {
                let base = u64::from_le_bytes(c[0..8].try_into().unwrap_or_default());
                let len = u64::from_le_bytes(c[8..16].try_into().unwrap_or_default());
                Ok(libc::iovec {
                    iov_base: self.buf(base, len)? as *mut libc::c_void,
                    iov_len: len as usize,
                })
            })
            .collect()
    }

    fn open(&mut self, dirfd: i64, path: u64, flags: i64, mode: i64) -> Result<Sys, i64> {
        let p = self.path(path)?;
        let synthetic = match p.as_bytes() {
            b"/dev/urandom" | b"/dev/random" => {
                let mut bytes = vec![0u8; 1 << 16];
                self.rng.fill(&mut bytes);
                Some(bytes)
            }
            b"/sys/devices/system/cpu/online" | b"/sys/devices/system/cpu/possible" => {
                Some(b"0\n".to_vec())
            }
            _ => None,
        };
        if let Some(bytes) = synthetic {
            return Ok(Sys::Ret(memfd_with(&bytes, flags)));
        }
        if let Some(r) = self.proc_open(dirfd, p.as_bytes(), flags, mode) {
            return Ok(Sys::Ret(r));
        }
        let fd = host(libc::SYS_openat, &[dirfd, p.as_ptr() as i64, flags, mode]);
        Ok(Sys::Ret(self.proc_after_open(fd, flags, mode)))
    }

    fn readlink(&mut self, dirfd: i64, path: u64, buf: u64, size: u64) -> Result<Sys, i64> {
        let p = self.path(path)?;
        if (size as i64) <= 0 {
            return Err(NEG_EINVAL);
        }
        match self.proc_readlink(dirfd, p.as_bytes()) {
            Some(Ok(target)) => {
                let n = target.len().min(size as usize);
                self.mem.write(buf, &target[..n]).map_err(|_| NEG_EFAULT)?;
                Ok(Sys::Ret(n as i64))
            }
            Some(Err(e)) => Err(e),
            None => Ok(Sys::Ret(host(
                libc::SYS_readlinkat,
                &[dirfd, p.as_ptr() as i64, self.buf(buf, size)?, size as i64],
            ))),
        }
    }

    fn ioctl(&self, a: [u64; 6]) -> Result<Sys, i64> {
        let size = match a[1] {
            0x5401..=0x5404 => 60,                  // TCGETS, TCSETS, TCSETSW, TCSETSF
            0x5413 | 0x5414 => 8,                   // TIOCGWINSZ, TIOCSWINSZ
            0x540f | 0x5410 | 0x541b | 0x5421 => 4, // TIOCGPGRP, TIOCSPGRP, FIONREAD, FIONBIO
            0x540b | 0x5450 | 0x5451 => 0,          // TCFLSH, FIONCLEX, FIOCLEX: no pointer
            _ => return Ok(Sys::Ret(NEG_ENOTTY)),
        };
        let arg = if size == 0 {
            a[2] as i64
        } else {
            self.buf(a[2], size)?
        };
        Ok(Sys::Ret(host(
            libc::SYS_ioctl,
            &[a[0] as i64, a[1] as i64, arg],
        )))
    }

    fn rlimit(&mut self, resource: u64, out: u64) -> Result<Sys, i64> {
        if out != 0 {
            const INF: u64 = u64::MAX;
            let (cur, max) = match resource as u32 {
                libc::RLIMIT_STACK => self.mem.stack_limit,
                libc::RLIMIT_NOFILE => (1024, 1 << 20),
                libc::RLIMIT_CORE => (0, INF),
                libc::RLIMIT_NPROC => (63_000, 63_000),
                _ => (INF, INF),
            };
            self.mem.write_u64(out, cur).map_err(|_| NEG_EFAULT)?;
            self.mem.write_u64(out + 8, max).map_err(|_| NEG_EFAULT)?;
        }
        Ok(Sys::Ret(0))
    }

    /// A new limit: the stack's moves its mapping; the others are not
    /// enforced.
    fn set_rlimit(&mut self, resource: u64, soft: u64, hard: u64) {
        if resource == u64::from(libc::RLIMIT_STACK) {
            let sp = self.sys.sp;
            self.mem.set_stack_limit(soft, hard, sp);
        }
    }

    fn clock_value(&self, clock: u64) -> Result<(u64, u64), i64> {
        Ok(match clock {
            0 | 5 | 8 | 11 => self.clock.realtime(), // REALTIME, _COARSE, _ALARM, TAI
            1 | 4 | 6 | 7 | 9 => self.clock.monotonic(), // MONOTONIC, _RAW, _COARSE, BOOTTIME
            2 | 3 => self.clock.cputime(),           // PROCESS/THREAD_CPUTIME_ID
            _ => return Err(NEG_EINVAL),
        })
    }

    /// `nanosleep`/`clock_nanosleep`: the clock jumps ahead. The real-time
    /// timer interrupts the sleep at its deadline when its signal is
    /// delivered (`-EINTR`, the time left in `rem` for relative sleeps).
    fn sleep(&mut self, req: u64, absolute: bool, rem: u64) -> Result<Sys, i64> {
        let s = self.mem.read_u64(req).map_err(|_| NEG_EFAULT)?;
        let ns = self.mem.read_u64(req + 8).map_err(|_| NEG_EFAULT)?;
        let want = s.saturating_mul(1_000_000_000).saturating_add(ns);
        let add = if absolute {
            let (cs, cns) = self.clock.monotonic();
            want.saturating_sub(cs * 1_000_000_000 + cns)
        } else {
            want
        };
        let end = self.clock.now_ns().saturating_add(add);
        for _ in 0..10_000 {
            match self.sys.sig.wall_deadline() {
                Some(d) if d <= end => {
                    if !self.wait_turn(d) {
                        return Err(-(libc::EINTR as i64));
                    }
                    let now = self.clock.now_ns();
                    self.clock.sleep(d.saturating_sub(now));
                    self.fire_timers();
                    if self.sys.sig.next_deliverable().is_some() {
                        if rem != 0 && !absolute {
                            let left = end.saturating_sub(self.clock.now_ns());
                            self.mem
                                .write_u64(rem, left / 1_000_000_000)
                                .map_err(|_| NEG_EFAULT)?;
                            self.mem
                                .write_u64(rem + 8, left % 1_000_000_000)
                                .map_err(|_| NEG_EFAULT)?;
                        }
                        return Err(-(libc::EINTR as i64));
                    }
                }
                _ => break,
            }
        }
        if !self.wait_turn(end) {
            return Err(-(libc::EINTR as i64));
        }
        let now = self.clock.now_ns();
        self.clock.sleep(end.saturating_sub(now));
        Ok(Sys::Ret(0))
    }

    /// `kill`/`tkill`/`tgkill` to `pid`: the guest itself, one of its
    /// children, its group (0, -pid: itself and its children) or every
    /// process it may signal (-1: its children). A pid that is none of
    /// these does not exist for the guest (`ESRCH`): no virtual pid reaches
    /// the host.
    fn kill(&mut self, pid: i64, sig: u64, code: i32) -> Result<Sys, i64> {
        if sig > 64 {
            return Err(NEG_EINVAL);
        }
        let me = self.sys.process.pid as i64;
        if pid > 0 && pid != me {
            let host_pid = self
                .sys
                .process
                .host_pid(pid)
                .ok_or(-(libc::ESRCH as i64))?;
            return Ok(Sys::Ret(host(
                libc::SYS_kill,
                &[host_pid as i64, sig as i64],
            )));
        }
        if pid < -1 && -pid != me {
            return Err(-(libc::ESRCH as i64));
        }
        // -1 (every process it may signal, not itself), 0 and -pid (its
        // group): its own children, never another host process.
        let children = self.sys.process.child_host_pids();
        for &c in &children {
            host(libc::SYS_kill, &[c as i64, sig as i64]);
        }
        if pid == -1 {
            return Ok(Sys::Ret(if children.is_empty() {
                -(libc::ESRCH as i64)
            } else {
                0
            }));
        }
        if sig == 0 {
            return Ok(Sys::Ret(0));
        }
        // Pending for the process; its taker (the main thread when it does
        // not block the signal, as Linux's `complete_signal`) wakes.
        self.signal_process(SigInfo {
            signo: sig as i32,
            code,
            pid: self.sys.process.pid,
            uid: self.sys.uid,
            ..Default::default()
        });
        Ok(Sys::Ret(0))
    }

    fn sigaction(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        let sig = a[0] as i32;
        if !(1..=64).contains(&sig) || a[3] != 8 {
            return Err(NEG_EINVAL);
        }
        let old = self.sys.sig.actions[sig as usize];
        if a[1] != 0 {
            if sig == libc::SIGKILL || sig == libc::SIGSTOP {
                return Err(NEG_EINVAL);
            }
            let r = |k: u64| self.mem.read_u64(a[1] + 8 * k).map_err(|_| NEG_EFAULT);
            let new = SigAction {
                handler: r(0)?,
                flags: r(1)?,
                restorer: r(2)?,
                mask: r(3)?,
            };
            self.sys.sig.actions[sig as usize] = new;
        }
        if a[2] != 0 {
            for (k, v) in [old.handler, old.flags, old.restorer, old.mask]
                .iter()
                .enumerate()
            {
                self.mem
                    .write_u64(a[2] + 8 * k as u64, *v)
                    .map_err(|_| NEG_EFAULT)?;
            }
        }
        Ok(Sys::Ret(0))
    }

    fn read_timeval(&self, at: u64) -> Result<u64, i64> {
        let s = self.mem.read_u64(at).map_err(|_| NEG_EFAULT)?;
        let us = self.mem.read_u64(at + 8).map_err(|_| NEG_EFAULT)?;
        if us >= 1_000_000 {
            return Err(NEG_EINVAL);
        }
        Ok(s.saturating_mul(1_000_000_000).saturating_add(us * 1000))
    }

    fn write_timeval(&mut self, at: u64, ns: u64) -> Result<(), i64> {
        // Round up to whole microseconds, so a running timer never reads 0.
        let us = ns.div_ceil(1000);
        self.mem
            .write_u64(at, us / 1_000_000)
            .map_err(|_| NEG_EFAULT)?;
        self.mem
            .write_u64(at + 8, us % 1_000_000)
            .map_err(|_| NEG_EFAULT)
    }

    /// The clock of interval timer `which`: wall time for `ITIMER_REAL`,
    /// CPU time (retired instructions) for the others.
    fn timer_clock(&self, which: usize) -> u64 {
        if which == 0 {
            self.clock.now_ns()
        } else {
            self.clock.instret.get()
        }
    }

    /// Fire the interval and POSIX timers whose deadline passed: a POSIX
    /// timer's signal goes to the process or to its thread
    /// (`SIGEV_THREAD_ID`; dropped when the thread is gone).
    pub(crate) fn fire_timers(&mut self) {
        let (now, cpu) = (self.clock.now_ns(), self.clock.instret.get());
        let (pid, uid) = (self.sys.process.pid, self.sys.uid);
        for t in self.sys.sig.fire_timers(now, cpu, pid, uid) {
            let queued = match t.tid {
                None => self.signal_process(t.info),
                Some(tid) => match self.threads.find(tid) {
                    Some(i) => self.signal_thread(i, t.info),
                    None => false,
                },
            };
            if let Some(id) = t.info.timer {
                self.sys.sig.timer_posted(id, queued);
            }
        }
    }

    /// `pause`/`sigsuspend`: the thread blocks until a signal is
    /// deliverable (`crate::waits`: timers fire while it waits, other
    /// threads run, a child's end posts SIGCHLD when the guest catches it).
    fn wait_for_signal(&mut self, nr: u64) -> Result<Sys, i64> {
        if self.sys.sig.next_deliverable().is_some() {
            return Err(-(libc::EINTR as i64));
        }
        Ok(self.block(nr, Vec::new(), None))
    }

    /// A child reaped by `wait4` before its end was reported: the SIGCHLD
    /// it sent natively (the handler runs as `wait4` returns).
    fn sigchld_at_reap(&mut self, vpid: i64, status: i64, unreported: &[i64]) {
        if vpid <= 0 || !self.sys.sig.catches(libc::SIGCHLD) || !unreported.contains(&vpid) {
            return;
        }
        if self.sys.process.host_pid(vpid).is_some() {
            return; // still a child: stopped, not ended
        }
        // SAFETY: `status` is null or a host pointer to 4 bytes of guest memory.
        let s = if status == 0 {
            0
        } else {
            unsafe { *(status as *const i32) }
        };
        let code = if libc::WIFSIGNALED(s) {
            libc::CLD_KILLED
        } else {
            libc::CLD_EXITED
        };
        let value = if libc::WIFSIGNALED(s) {
            libc::WTERMSIG(s)
        } else {
            libc::WEXITSTATUS(s)
        } as u64;
        self.signal_process(SigInfo {
            signo: libc::SIGCHLD,
            code,
            pid: vpid as u32,
            uid: self.sys.uid,
            value,
            ..Default::default()
        });
    }

    fn fork(&mut self, flags: u64, stack: u64, ptid: u64, ctid: u64) -> Result<Sys, i64> {
        self.observer.fork_prepare();
        let forked = self.sys.process.fork(flags, stack, self.clock.now_ns());
        self.observer.fork_done();
        match forked? {
            Forked::Child { stack } => {
                self.sys.sig.fork_child();
                self.threads.fork_child(self.sys.process.pid);
                self.switch_due = u64::MAX;
                if flags & clone::CHILD_SETTID != 0 {
                    let tid = self.sys.process.pid;
                    self.mem
                        .write(ctid, &tid.to_le_bytes())
                        .map_err(|_| NEG_EFAULT)?;
                }
                Ok(Sys::Child { stack })
            }
            Forked::Parent(vpid) => {
                if flags & clone::PARENT_SETTID != 0 {
                    let _ = self.mem.write(ptid, &vpid.to_le_bytes());
                }
                Ok(Sys::Ret(vpid as i64))
            }
        }
    }

    /// A new thread (`clone` with `CLONE_VM`): it starts after the call with
    /// `rax` 0, on `stack`, with `tls` as FS base under `CLONE_SETTLS`.
    fn clone_thread(
        &mut self,
        flags: u64,
        stack: u64,
        ptid: u64,
        ctid: u64,
        tls: u64,
    ) -> Result<Sys, i64> {
        if flags & clone::VM == 0 || (flags & clone::THREAD != 0 && flags & clone::SIGHAND == 0) {
            return Err(NEG_EINVAL);
        }
        let tid = self.sys.process.next_tid();
        if flags & clone::PARENT_SETTID != 0 {
            self.mem.write_u32(ptid, tid).map_err(|_| NEG_EFAULT)?;
        }
        if flags & clone::CHILD_SETTID != 0 {
            self.mem.write_u32(ctid, tid).map_err(|_| NEG_EFAULT)?;
        }
        let mut regs = vec![(RegisterX86::RAX, 0)];
        if stack != 0 {
            regs.push((RegisterX86::RSP, stack));
        }
        if flags & clone::SETTLS != 0 {
            regs.push((RegisterX86::FS_BASE, tls));
        }
        let clear = if flags & clone::CHILD_CLEARTID != 0 {
            ctid
        } else {
            0
        };
        let blocked = self.sys.sig.blocked;
        self.threads.spawn(tid, regs, clear, blocked);
        Ok(Sys::Reschedule {
            rotate: false,
            ret: Some(tid as i64),
        })
    }

    /// `clone3`: threads only; anything else gets `ENOSYS`, and glibc falls
    /// back to `clone` (which forks).
    fn clone3(&mut self, args: u64, size: u64) -> Result<Sys, i64> {
        if size < 64 {
            return Err(NEG_EINVAL);
        }
        let r = |k: u64| self.mem.read_u64(args + 8 * k).map_err(|_| NEG_EFAULT);
        let flags = r(0)?;
        if flags & clone::VM == 0 || flags & clone::VFORK != 0 {
            return Err(NEG_ENOSYS);
        }
        let (child_tid, parent_tid, stack, stack_size, tls) = (r(2)?, r(3)?, r(5)?, r(6)?, r(7)?);
        let top = if stack == 0 { 0 } else { stack + stack_size };
        self.clone_thread(flags, top, parent_tid, child_tid, tls)
    }

    /// `exit` of one thread while others live: its tid word is cleared and
    /// woken (`CLONE_CHILD_CLEARTID`), and another thread runs.
    fn exit_thread(&mut self) -> Result<Sys, i64> {
        let ctid = self.threads.current().clear_child_tid;
        if ctid != 0 && self.mem.write_u32(ctid, 0).is_ok() {
            self.threads.wake(ctid, usize::MAX, u32::MAX);
        }
        self.threads.current_mut().state = crate::threads::ThreadState::Exited;
        // Its pending signals go with it.
        let own = self.sys.sig.take_own();
        self.sys.sig.drop_thread_queue(&own);
        Ok(Sys::Reschedule {
            rotate: true,
            ret: None,
        })
    }

    /// After a sleep that returned 0: other threads get the CPU.
    fn yield_after(&self, r: Sys) -> Sys {
        match r {
            Sys::Ret(0) if self.threads.live() > 1 => Sys::Reschedule {
                rotate: true,
                ret: Some(0),
            },
            r => r,
        }
    }

    /// `tkill`/`tgkill` in this process: pending for that thread alone
    /// (it wakes when it takes the signal).
    fn tkill(&mut self, tid: i64, sig: u64) -> Result<Sys, i64> {
        let Some(i) = u32::try_from(tid).ok().and_then(|t| self.threads.find(t)) else {
            return self.kill(tid, sig, libc::SI_TKILL);
        };
        if sig > 64 {
            return Err(NEG_EINVAL);
        }
        if sig == 0 {
            return Ok(Sys::Ret(0));
        }
        self.signal_thread(
            i,
            SigInfo {
                signo: sig as i32,
                code: libc::SI_TKILL,
                pid: self.sys.process.pid,
                uid: self.sys.uid,
                ..Default::default()
            },
        );
        Ok(Sys::Ret(0))
    }

    /// `futex`: waits block the thread (a scheduling point), wakes make
    /// waiters runnable; timeouts are on the virtual clock.
    fn futex(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        const WAIT: u64 = 0;
        const WAKE: u64 = 1;
        const REQUEUE: u64 = 3;
        const CMP_REQUEUE: u64 = 4;
        const WAKE_OP: u64 = 5;
        const WAIT_BITSET: u64 = 9;
        const WAKE_BITSET: u64 = 10;
        const CLOCK_REALTIME: u64 = 256;
        let [uaddr, op, val, timeout, uaddr2, val3] = a;
        let word = |at: u64| self.mem.read_u32(at).map_err(|_| NEG_EFAULT);
        if uaddr % 4 != 0 {
            return Err(NEG_EINVAL);
        }
        // The count arguments are C ints.
        let count = |v: u64| (v as i32).max(0) as usize;
        match op & 0x7f {
            cmd @ (WAIT | WAIT_BITSET) => {
                let bitset = if cmd == WAIT { u32::MAX } else { val3 as u32 };
                if bitset == 0 {
                    return Err(NEG_EINVAL);
                }
                if word(uaddr)? != val as u32 {
                    return Err(-(libc::EAGAIN as i64));
                }
                let deadline = if timeout == 0 {
                    None
                } else {
                    let s = self.mem.read_u64(timeout).map_err(|_| NEG_EFAULT)?;
                    let ns = self.mem.read_u64(timeout + 8).map_err(|_| NEG_EFAULT)?;
                    if ns >= 1_000_000_000 || (s as i64) < 0 {
                        return Err(NEG_EINVAL);
                    }
                    let t = s.saturating_mul(1_000_000_000).saturating_add(ns);
                    let now = self.clock.now_ns();
                    Some(if cmd == WAIT {
                        now.saturating_add(t)
                    } else {
                        // Absolute, on CLOCK_MONOTONIC or CLOCK_REALTIME.
                        let zero = if op & CLOCK_REALTIME != 0 {
                            self.clock.epoch_secs()
                        } else {
                            crate::clock::BOOT_SECS
                        };
                        t.saturating_sub(zero * 1_000_000_000)
                    })
                };
                if deadline.is_some_and(|d| d <= self.clock.now_ns()) {
                    return Err(-(libc::ETIMEDOUT as i64));
                }
                self.threads.wait(uaddr, bitset, deadline);
                Ok(Sys::Reschedule {
                    rotate: true,
                    ret: None,
                })
            }
            cmd @ (WAKE | WAKE_BITSET) => {
                let bitset = if cmd == WAKE { u32::MAX } else { val3 as u32 };
                if bitset == 0 {
                    return Err(NEG_EINVAL);
                }
                Ok(Sys::Ret(self.threads.wake(uaddr, count(val), bitset) as i64))
            }
            cmd @ (REQUEUE | CMP_REQUEUE) => {
                if cmd == CMP_REQUEUE && word(uaddr)? != val3 as u32 {
                    return Err(-(libc::EAGAIN as i64));
                }
                let woken = self.threads.wake(uaddr, count(val), u32::MAX);
                let moved = self.threads.requeue(uaddr, uaddr2, count(timeout));
                Ok(Sys::Ret((woken + moved) as i64))
            }
            WAKE_OP => {
                let (kind, cmp) = ((val3 >> 28) & 0xf, (val3 >> 24) & 0xf);
                let sext12 = |v: u64| (((v & 0xfff) as i32) << 20) >> 20;
                let mut oparg = sext12(val3 >> 12);
                let cmparg = sext12(val3);
                if kind & 8 != 0 {
                    oparg = 1i32.wrapping_shl(oparg as u32 & 31);
                }
                let old = word(uaddr2)? as i32;
                let new = match kind & 7 {
                    0 => oparg,
                    1 => old.wrapping_add(oparg),
                    2 => old | oparg,
                    3 => old & !oparg,
                    4 => old ^ oparg,
                    _ => return Err(-(libc::ENOSYS as i64)),
                };
                self.mem
                    .write_u32(uaddr2, new as u32)
                    .map_err(|_| NEG_EFAULT)?;
                let mut woken = self.threads.wake(uaddr, count(val), u32::MAX);
                let hit = match cmp {
                    0 => old == cmparg,
                    1 => old != cmparg,
                    2 => old < cmparg,
                    3 => old <= cmparg,
                    4 => old > cmparg,
                    5 => old >= cmparg,
                    _ => return Err(-(libc::ENOSYS as i64)),
                };
                if hit {
                    woken += self.threads.wake(uaddr2, count(timeout), u32::MAX);
                }
                Ok(Sys::Ret(woken as i64))
            }
            _ => Err(NEG_ENOSYS),
        }
    }

    /// A NULL-terminated array of guest strings (argv, envp).
    fn string_array(&self, mut at: u64) -> Result<Vec<std::ffi::OsString>, i64> {
        use std::os::unix::ffi::OsStringExt;
        let mut out = Vec::new();
        if at == 0 {
            return Ok(out);
        }
        loop {
            let p = self.mem.read_u64(at).map_err(|_| NEG_EFAULT)?;
            if p == 0 {
                return Ok(out);
            }
            if out.len() >= 1 << 17 {
                return Err(-(libc::E2BIG as i64));
            }
            out.push(std::ffi::OsString::from_vec(
                self.mem.read_cstr(p, 1 << 17).map_err(|_| NEG_EFAULT)?,
            ));
            at += 8;
        }
    }

    fn execve(
        &mut self,
        dirfd: i64,
        path: u64,
        argv: u64,
        envp: u64,
        flags: i64,
    ) -> Result<Sys, i64> {
        use std::os::unix::ffi::OsStrExt;
        let p = self.exec_path(dirfd, path)?;
        let rel = std::path::Path::new(std::ffi::OsStr::from_bytes(p.as_bytes()));
        let resolved = if dirfd == libc::AT_FDCWD as i64 || rel.is_absolute() {
            rel.to_path_buf()
        } else {
            let dir = std::fs::read_link(format!("/proc/self/fd/{dirfd}"))
                .map_err(|_| -(libc::EBADF as i64))?;
            if rel.as_os_str().is_empty() && flags & libc::AT_EMPTY_PATH as i64 != 0 {
                dir
            } else {
                dir.join(rel)
            }
        };
        let argv = self.string_array(argv)?;
        let envp = self.string_array(envp)?;
        let mut ignored = 0;
        for s in 1..=64 {
            if self.sys.sig.actions[s as usize].handler == crate::signals::SIG_IGN {
                ignored |= bit(s);
            }
        }
        let blocked = self.sys.sig.blocked;
        let ids = self.exec_ids(&resolved)?;
        self.sys.process.exec(
            resolved,
            argv,
            envp,
            blocked,
            ignored,
            self.mem.stack_limit,
            ids,
        )?;
        Ok(Sys::Exec)
    }

    /// The ids the program at `path` starts with (set-user-ID and
    /// set-group-ID bits applied). pathvm's host process keeps its own
    /// identity, so it refuses (`EPERM`, with a one-line message) a set-id
    /// program that would give the guest an id the host process does not
    /// have and, not being root, cannot act as.
    fn exec_ids(&self, path: &std::path::Path) -> Result<crate::identity::Identity, i64> {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
            return Ok(self.sys.ids.after_exec());
        };
        // SAFETY: `st` and `vfs` are buffers the calls fill; `c` is a
        // NUL-terminated path.
        let (st, nosuid) = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            let mut vfs: libc::statvfs = std::mem::zeroed();
            if libc::stat(c.as_ptr(), &mut st) != 0 {
                // execve reports the error.
                return Ok(self.sys.ids.after_exec());
            }
            let nosuid =
                libc::statvfs(c.as_ptr(), &mut vfs) == 0 && vfs.f_flag & libc::ST_NOSUID != 0;
            (st, nosuid)
        };
        let ids = self.sys.ids.after_exec_of(&st, nosuid);
        // SAFETY: these calls cannot fail.
        let (host_uid, host_gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let gained = |now: u32, new: u32, host: u32| new != now && new != host;
        if host_uid != 0
            && (gained(self.sys.ids.uid.effective, ids.uid.effective, host_uid)
                || gained(self.sys.ids.gid.effective, ids.gid.effective, host_gid))
        {
            eprintln!(
                "pathvm: cannot run the set-user-ID or set-group-ID program {path:?}: it runs as user {} group {}, and pathvm, running as user {host_uid} group {host_gid}, cannot give it those ids (execve fails with EPERM)",
                ids.uid.effective,
                ids.gid.effective
            );
            return Err(-(libc::EPERM as i64));
        }
        Ok(ids)
    }

    fn mmap(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        let [addr, len, prot, flags, fd, off] = a;
        const MAP_SHARED: u64 = 0x01;
        const MAP_FIXED: u64 = 0x10;
        const MAP_ANONYMOUS: u64 = 0x20;
        const MAP_FIXED_NOREPLACE: u64 = 0x100000;
        const MAP_32BIT: u64 = 0x40;
        if len == 0 || off % PAGE_SIZE != 0 {
            return Err(NEG_EINVAL);
        }
        if len > TASK_SIZE {
            return Err(-(libc::ENOMEM as i64));
        }
        let len = page_up(len);
        if off.checked_add(len).is_none() {
            return Err(-(libc::EOVERFLOW as i64));
        }
        let fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE) != 0;
        let at = if fixed {
            if addr % PAGE_SIZE != 0 || addr > TASK_SIZE - len || !self.mem.cover(addr, len) {
                return Err(if addr % PAGE_SIZE != 0 {
                    NEG_EINVAL
                } else {
                    -(libc::ENOMEM as i64)
                });
            }
            if flags & MAP_FIXED_NOREPLACE != 0 && self.mem.any_mapped(addr, addr + len) {
                return Err(-(libc::EEXIST as i64));
            }
            addr
        } else if flags & MAP_32BIT != 0 {
            self.mem
                .find_free_in(layout::MAP_32BIT_START, layout::MAP_32BIT_END, len)
                .ok_or(-(libc::ENOMEM as i64))?
        } else if addr != 0
            && addr % PAGE_SIZE == 0
            && addr <= TASK_SIZE - len
            && !self.mem.any_mapped(addr, addr + len)
            && self.mem.cover(addr, len)
        {
            addr
        } else {
            self.mem.find_free(len).ok_or(-(libc::ENOMEM as i64))?
        };
        let p = Prot::from_bits(prot);
        // Only executable pages can have translations.
        let had_code = self.mem.any_exec(at, at + len);
        if flags & MAP_ANONYMOUS != 0 && flags & MAP_SHARED != 0 {
            self.mem.map_shared_anon(at, len, p)?;
        } else if flags & MAP_ANONYMOUS != 0 {
            self.mem.map_anon_fixed(at, len, p, Backing::Anonymous);
        } else {
            let path = std::fs::read_link(format!("/proc/self/fd/{}", fd as i32))
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            self.mem
                .map_file_fixed(
                    at,
                    len,
                    p,
                    fd as i32,
                    off,
                    flags & MAP_SHARED != 0,
                    path.clone(),
                )
                .map_err(|e| e)?;
            if p.exec {
                self.object_mapped(&path, at, off);
            }
        }
        if had_code {
            self.code_changed(at, at + len);
        }
        Ok(Sys::Ret(at as i64))
    }

    /// `mremap(2)` as Linux does it, for private and shared memory,
    /// anonymous and file-backed: shrunk in place, grown in place where
    /// the pages after it are free, else moved (`MREMAP_MAYMOVE`) or moved
    /// to `new_addr` (`MREMAP_FIXED`, replacing what is there); old size 0
    /// maps shared pages a second time. The host moves the pages
    /// (`GuestMemory::remap`).
    fn mremap(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        let [old, old_len, new_len, flags, new_addr, _] = a;
        const MREMAP_MAYMOVE: u64 = 1;
        const MREMAP_FIXED: u64 = 2;
        let nomem = -(libc::ENOMEM as i64);
        if old % PAGE_SIZE != 0
            || new_len == 0
            || flags & !(MREMAP_MAYMOVE | MREMAP_FIXED) != 0
            || (flags & MREMAP_FIXED != 0 && flags & MREMAP_MAYMOVE == 0)
        {
            return Err(NEG_EINVAL);
        }
        if old_len > TASK_SIZE || new_len > TASK_SIZE {
            return Err(if flags & MREMAP_FIXED != 0 {
                NEG_EINVAL
            } else {
                nomem
            });
        }
        let (mut old_len, new_len) = (page_up(old_len), page_up(new_len));
        let fixed = flags & MREMAP_FIXED != 0;
        // Linux's order (6.x): the source's mapping must exist; a fixed
        // destination is then unmapped and the range shrunk before the
        // rest of the source is checked.
        if self.mem.mapping_at(old).is_none() {
            return Err(NEG_EFAULT);
        }
        if fixed {
            if new_addr % PAGE_SIZE != 0
                || new_addr > TASK_SIZE - new_len
                || (new_addr < old.saturating_add(old_len) && old < new_addr + new_len)
            {
                return Err(NEG_EINVAL);
            }
            let had_code = self.mem.any_exec(new_addr, new_addr + new_len);
            self.mem.unmap(new_addr, new_len);
            if had_code {
                self.code_changed(new_addr, new_addr + new_len);
            }
        }
        if old_len >= new_len && old_len > 0 {
            let had_code = self.mem.any_exec(old + new_len, old + old_len);
            self.mem.unmap(old + new_len, old_len - new_len);
            if had_code {
                self.code_changed(old + new_len, old + old_len);
            }
            if !fixed {
                return Ok(Sys::Ret(old as i64));
            }
            old_len = new_len;
        }
        let Some((_, mp)) = self.mem.mapping_at(old) else {
            return Err(NEG_EFAULT);
        };
        if old_len == 0 && !mp.shared {
            // A second mapping: of shared memory only.
            return Err(NEG_EINVAL);
        }
        if mp.end < old + old_len {
            // The range must be one mapping.
            return Err(NEG_EFAULT);
        }
        let to = if fixed {
            if !self.mem.cover(new_addr, new_len) {
                return Err(nomem);
            }
            new_addr
        } else if old_len > 0
            && self.mem.covered(old + old_len, new_len - old_len)
            && !self.mem.any_mapped(old + old_len, old + new_len)
        {
            old
        } else if flags & MREMAP_MAYMOVE != 0 {
            self.mem.find_free(new_len).ok_or(nomem)?
        } else {
            return Err(nomem);
        };
        let had_code = self.mem.any_exec(to, to + new_len)
            || (old_len > 0 && self.mem.any_exec(old, old + old_len));
        self.mem.remap(old, old_len, new_len, to)?;
        if had_code {
            self.code_changed(old, old + old_len);
            self.code_changed(to, to + new_len);
        }
        Ok(Sys::Ret(to as i64))
    }

    /// Code in `[lo, hi)` may have changed: drop decoded blocks and translations.
    fn code_changed(&mut self, lo: u64, hi: u64) {
        self.blocks.invalidate(lo, hi);
        self.flush.push((lo, hi));
    }
}

/// An anonymous in-memory file holding `bytes`, positioned at its start.
pub(crate) fn memfd_with(bytes: &[u8], flags: i64) -> i64 {
    let cloexec = if flags & libc::O_CLOEXEC as i64 != 0 {
        libc::MFD_CLOEXEC
    } else {
        0
    };
    // SAFETY: plain system calls on a descriptor we own.
    unsafe {
        let fd = libc::memfd_create(c"pathvm".as_ptr(), cloexec);
        if fd < 0 {
            return errno();
        }
        if libc::write(fd, bytes.as_ptr() as *const libc::c_void, bytes.len()) < 0
            || libc::lseek(fd, 0, libc::SEEK_SET) < 0
        {
            let e = errno();
            libc::close(fd);
            return e;
        }
        fd as i64
    }
}

/// The name of a system call number, for messages.
pub fn syscall_name(nr: u64) -> &'static str {
    match crate::sysnames::NAMES.get(nr as usize) {
        Some(n) if !n.is_empty() => n,
        _ => "unknown",
    }
}
