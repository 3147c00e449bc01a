//! Linux system calls of the guest.
//!
//! The guest and the host are both x86-64 Linux, so structures have the same
//! layout on both sides and guest memory is host memory: most calls are
//! passed to the host kernel with their pointers translated (and checked) to
//! host addresses. What would make a run depend on the host or on time is
//! answered here instead: identity (pid, uname), clocks, randomness, CPU
//! count, resource limits, and a few files under `/proc` and `/dev`.
//! File descriptors are the host's own, as in a native run.

use std::ffi::CString;
use std::path::PathBuf;

use events::Observer;
use loader::elf::{page_up, Prot, PAGE_SIZE};
use rustc_hash::FxHashSet;
use unicorn_engine::{RegisterX86, Unicorn};

use crate::machine::{Machine, StopReason, VmConfig, VmError, GUEST_PID};
use crate::memory::Backing;

/// What the syscall hook does after a call.
pub(crate) enum SysResult {
    Continue,
    Stop(Result<StopReason, VmError>),
}

/// The process state kept for system calls.
pub(crate) struct SyscallState {
    /// Absolute path of the guest program (`/proc/self/exe`).
    exe: PathBuf,
    strict: bool,
    warned: FxHashSet<u64>,
    pub(crate) warnings: Vec<String>,
    reserved_fds: Vec<i32>,
    /// Installed handler per signal (0: default, 1: ignore), for delivery.
    pub(crate) sig_handlers: [u64; 65],
}

impl SyscallState {
    pub(crate) fn new(config: &VmConfig, exe: PathBuf) -> SyscallState {
        SyscallState {
            exe,
            strict: config.strict_syscalls,
            reserved_fds: config.reserved_fds.clone(),
            warned: FxHashSet::default(),
            warnings: Vec::new(),
            sig_handlers: [0; 65],
        }
    }
}

/// Result of one call: the value for `rax` or what else to do.
enum Sys {
    Ret(i64),
    Exit(i32),
    Kill(i32),
    SetFsBase(u64),
    SetGsBase(u64),
    Unsupported,
}

const NEG_EFAULT: i64 = -(libc::EFAULT as i64);
const NEG_EINVAL: i64 = -(libc::EINVAL as i64);
const NEG_ENOSYS: i64 = -(libc::ENOSYS as i64);
const NEG_ENOTTY: i64 = -(libc::ENOTTY as i64);

fn errno() -> i64 {
    -(std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO) as i64)
}

/// Call the host kernel; returns the result or `-errno`.
fn host(nr: i64, a: &[i64]) -> i64 {
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
    let m = uc.get_data_mut();
    if let Some(op) = events::marker::op(nr) {
        m.marker(op, args[0]);
        let _ = uc.reg_write(RegisterX86::RAX, NEG_ENOSYS as u64);
        return SysResult::Continue;
    }
    let out = m.syscall(nr, args);
    let ret = match out {
        Sys::Ret(v) => v,
        Sys::Exit(code) => return SysResult::Stop(Ok(StopReason::Exited(code))),
        Sys::Kill(signal) => {
            let pc = m.cur_block;
            return SysResult::Stop(Ok(StopReason::Signaled {
                signal,
                pc,
                fault_addr: None,
            }));
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
    let _ = uc.reg_write(RegisterX86::RAX, ret as u64);
    SysResult::Continue
}

impl<O: Observer> Machine<'_, O> {
    /// Host pointer for a guest buffer of `len` bytes (null stays null).
    fn buf(&self, addr: u64, len: u64) -> Result<i64, i64> {
        if addr == 0 {
            return Ok(0);
        }
        self.mem
            .host_ptr(addr, len.max(1))
            .map(|p| p as i64)
            .map_err(|_| NEG_EFAULT)
    }

    fn path(&self, addr: u64) -> Result<CString, i64> {
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
        match self.syscall_inner(nr, a) {
            Ok(s) => s,
            Err(e) => Sys::Ret(e),
        }
    }

    #[allow(non_upper_case_globals)]
    fn syscall_inner(&mut self, nr: u64, a: [u64; 6]) -> Result<Sys, i64> {
        use libc::*;
        let n = nr as i64;
        let i = |k: usize| a[k] as i64;
        let ret = |v: i64| Ok(Sys::Ret(v));
        let reserved = |fd: u64| self.sys.reserved_fds.contains(&(fd as i32));
        match n {
            SYS_close if reserved(a[0]) => ret(-(EBADF as i64)),
            SYS_dup2 | SYS_dup3 if reserved(a[1]) => ret(-(EBADF as i64)),
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
                &[self.path(a[0])?.as_ptr() as i64, self.buf(a[1], 144)?],
            )),
            SYS_fstat => ret(host(n, &[i(0), self.buf(a[1], 144)?])),
            SYS_newfstatat => {
                let p = self.path(a[1])?;
                ret(host(
                    n,
                    &[i(0), p.as_ptr() as i64, self.buf(a[2], 144)?, i(3)],
                ))
            }
            SYS_statx => {
                let p = self.path(a[1])?;
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
            SYS_poll => ret(host(n, &[self.buf(a[0], a[1] * 8)?, i(1), i(2)])),
            SYS_ppoll => ret(host(
                n,
                &[
                    self.buf(a[0], a[1] * 8)?,
                    i(1),
                    self.buf(a[2], 16)?,
                    self.buf(a[3], 8)?,
                    i(4),
                ],
            )),
            SYS_select => ret(host(
                n,
                &[
                    i(0),
                    self.buf(a[1], 128)?,
                    self.buf(a[2], 128)?,
                    self.buf(a[3], 128)?,
                    self.buf(a[4], 16)?,
                ],
            )),
            SYS_pselect6 => ret(host(
                n,
                &[
                    i(0),
                    self.buf(a[1], 128)?,
                    self.buf(a[2], 128)?,
                    self.buf(a[3], 128)?,
                    self.buf(a[4], 16)?,
                    0,
                ],
            )),
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
                if a[0] % PAGE_SIZE != 0 || a[1] == 0 {
                    return ret(NEG_EINVAL);
                }
                let len = page_up(a[1]);
                self.mem.unmap(a[0], len);
                self.code_changed(a[0], a[0] + len);
                ret(0)
            }
            SYS_mprotect => {
                if a[0] % PAGE_SIZE != 0 {
                    return ret(NEG_EINVAL);
                }
                let ok = self.mem.protect(a[0], page_up(a[1]), Prot::from_bits(a[2]));
                ret(if ok { 0 } else { -(ENOMEM as i64) })
            }
            SYS_mremap => self.mremap(a),
            SYS_madvise => {
                if a[2] == MADV_DONTNEED as u64 {
                    if let Some((_, mp)) = self.mem.mapping_at(a[0]) {
                        if mp.backing == Backing::Anonymous || mp.backing == Backing::Heap {
                            if let Ok(s) = self.mem.slice_mut(a[0], page_up(a[1])) {
                                s.fill(0);
                            }
                        }
                    }
                }
                ret(0)
            }
            SYS_msync | SYS_mlock | SYS_munlock | SYS_mlockall | SYS_munlockall | SYS_mincore => {
                ret(0)
            }

            // Identity and the machine: fixed.
            SYS_getpid | SYS_gettid => ret(GUEST_PID as i64),
            SYS_getppid => ret(GUEST_PID as i64 - 1),
            SYS_getpgrp | SYS_getsid => ret(GUEST_PID as i64),
            SYS_getpgid => ret(GUEST_PID as i64),
            SYS_setpgid | SYS_setsid => ret(0),
            SYS_getuid | SYS_geteuid | SYS_getgid | SYS_getegid | SYS_getgroups => ret(host(
                n,
                &[
                    i(0),
                    if n == SYS_getgroups {
                        self.buf(a[1], a[0] * 4)?
                    } else {
                        0
                    },
                ],
            )),
            SYS_getresuid | SYS_getresgid => ret(host(
                n,
                &[self.buf(a[0], 4)?, self.buf(a[1], 4)?, self.buf(a[2], 4)?],
            )),
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
                if a[0] != 0 && a[0] != GUEST_PID as u64 {
                    return ret(-(ESRCH as i64));
                }
                self.rlimit(a[1], a[3])
            }
            SYS_setrlimit => ret(0),
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
            SYS_nanosleep => self.sleep(a[0], false),
            SYS_clock_nanosleep => self.sleep(a[2], a[1] & 1 != 0),
            SYS_getrandom => {
                let b = self.mem.slice_mut(a[0], a[1]).map_err(|_| NEG_EFAULT)?;
                self.rng.fill(b);
                ret(a[1] as i64)
            }

            // Process and threads (single-threaded until threads are emulated).
            SYS_exit | SYS_exit_group => Ok(Sys::Exit((a[0] & 0xff) as i32)),
            SYS_arch_prctl => match a[0] {
                0x1002 => Ok(Sys::SetFsBase(a[1])),
                0x1001 => Ok(Sys::SetGsBase(a[1])),
                _ => ret(NEG_EINVAL),
            },
            SYS_set_tid_address => ret(GUEST_PID as i64),
            SYS_set_robust_list => ret(0),
            // Not offered: glibc falls back by itself, so no warning.
            SYS_rseq | SYS_clone3 => ret(NEG_ENOSYS),
            SYS_futex => {
                let op = a[1] & 0x7f;
                match op {
                    1 | 10 => ret(0), // FUTEX_WAKE(_BITSET): nobody waits
                    0 | 9 => {
                        let v = self.mem.slice(a[0], 4).map_err(|_| NEG_EFAULT)?;
                        let cur = u32::from_le_bytes(v.try_into().unwrap_or([0; 4]));
                        ret(if cur != a[2] as u32 {
                            -(EAGAIN as i64)
                        } else {
                            -(EDEADLK as i64)
                        })
                    }
                    _ => ret(NEG_ENOSYS),
                }
            }
            SYS_rt_sigaction => {
                let sig = a[0] as usize;
                if sig == 0 || sig > 64 || sig == SIGKILL as usize || sig == SIGSTOP as usize {
                    return ret(NEG_EINVAL);
                }
                if a[2] != 0 {
                    let old = self.sys.sig_handlers[sig];
                    let b = self.mem.slice_mut(a[2], 32).map_err(|_| NEG_EFAULT)?;
                    b.fill(0);
                    b[0..8].copy_from_slice(&old.to_le_bytes());
                }
                if a[1] != 0 {
                    self.sys.sig_handlers[sig] = self.mem.read_u64(a[1]).map_err(|_| NEG_EFAULT)?;
                }
                ret(0)
            }
            SYS_rt_sigprocmask => {
                if a[2] != 0 {
                    self.mem.write_u64(a[2], 0).map_err(|_| NEG_EFAULT)?;
                }
                ret(0)
            }
            SYS_sigaltstack => {
                if a[1] != 0 {
                    let b = self.mem.slice_mut(a[1], 24).map_err(|_| NEG_EFAULT)?;
                    b.fill(0);
                    b[8..12].copy_from_slice(&(SS_DISABLE as u32).to_le_bytes());
                }
                ret(0)
            }
            SYS_kill | SYS_tgkill | SYS_tkill => {
                let (pid, sig) = match n {
                    SYS_tgkill => (a[0] as i64, a[2]),
                    _ => (a[0] as i64, a[1]),
                };
                if pid != GUEST_PID as i64 && pid != 0 && pid != -1 {
                    return ret(-(ESRCH as i64));
                }
                self.raise(sig as i32)
            }
            SYS_wait4 | SYS_waitid => ret(-(ECHILD as i64)),
            SYS_prctl => match a[0] as i32 {
                PR_SET_NAME | PR_GET_NAME | PR_SET_DUMPABLE | PR_GET_DUMPABLE
                | PR_SET_PDEATHSIG => ret(0),
                _ => ret(NEG_EINVAL),
            },
            SYS_capget => ret(NEG_EINVAL),
            SYS_sync | SYS_syncfs => ret(0),
            _ => Ok(Sys::Unsupported),
        }
    }

    fn iovecs(&self, addr: u64, count: u64) -> Result<Vec<libc::iovec>, i64> {
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
            b"/proc/self/maps" => Some(self.proc_maps()),
            b"/sys/devices/system/cpu/online" | b"/sys/devices/system/cpu/possible" => {
                Some(b"0\n".to_vec())
            }
            _ => None,
        };
        if let Some(bytes) = synthetic {
            return Ok(Sys::Ret(memfd_with(&bytes, flags)));
        }
        Ok(Sys::Ret(host(
            libc::SYS_openat,
            &[dirfd, p.as_ptr() as i64, flags, mode],
        )))
    }

    fn proc_maps(&self) -> Vec<u8> {
        let mut out = String::new();
        for (s, m) in self.mem.mappings() {
            let perms = format!(
                "{}{}{}p",
                if m.prot.read { 'r' } else { '-' },
                if m.prot.write { 'w' } else { '-' },
                if m.prot.exec { 'x' } else { '-' }
            );
            let (off, name) = match &m.backing {
                Backing::File { path, offset } => (*offset, path.clone()),
                Backing::Heap => (0, "[heap]".into()),
                Backing::Stack => (0, "[stack]".into()),
                Backing::Anonymous => (0, String::new()),
            };
            out.push_str(&format!(
                "{s:012x}-{:012x} {perms} {off:08x} 00:00 0 {name}\n",
                m.end
            ));
        }
        out.into_bytes()
    }

    fn readlink(&mut self, dirfd: i64, path: u64, buf: u64, size: u64) -> Result<Sys, i64> {
        let p = self.path(path)?;
        if p.as_bytes() == b"/proc/self/exe" {
            let target = self.sys.exe.as_os_str().as_encoded_bytes().to_vec();
            let n = target.len().min(size as usize);
            self.mem.write(buf, &target[..n]).map_err(|_| NEG_EFAULT)?;
            return Ok(Sys::Ret(n as i64));
        }
        Ok(Sys::Ret(host(
            libc::SYS_readlinkat,
            &[dirfd, p.as_ptr() as i64, self.buf(buf, size)?, size as i64],
        )))
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

    fn rlimit(&self, resource: u64, out: u64) -> Result<Sys, i64> {
        if out != 0 {
            const INF: u64 = u64::MAX;
            let (cur, max) = match resource as u32 {
                libc::RLIMIT_STACK => (8 << 20, INF),
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

    fn clock_value(&self, clock: u64) -> Result<(u64, u64), i64> {
        Ok(match clock {
            0 | 5 | 8 | 11 => self.clock.realtime(), // REALTIME, _COARSE, _ALARM, TAI
            1 | 4 | 6 | 7 | 9 => self.clock.monotonic(), // MONOTONIC, _RAW, _COARSE, BOOTTIME
            2 | 3 => self.clock.cputime(),           // PROCESS/THREAD_CPUTIME_ID
            _ => return Err(NEG_EINVAL),
        })
    }

    fn sleep(&mut self, req: u64, absolute: bool) -> Result<Sys, i64> {
        let s = self.mem.read_u64(req).map_err(|_| NEG_EFAULT)?;
        let ns = self.mem.read_u64(req + 8).map_err(|_| NEG_EFAULT)?;
        let want = s.saturating_mul(1_000_000_000).saturating_add(ns);
        let add = if absolute {
            let (cs, cns) = self.clock.monotonic();
            want.saturating_sub(cs * 1_000_000_000 + cns)
        } else {
            want
        };
        self.clock.sleep(add);
        Ok(Sys::Ret(0))
    }

    fn raise(&mut self, sig: i32) -> Result<Sys, i64> {
        if sig == 0 {
            return Ok(Sys::Ret(0));
        }
        if !(1..=64).contains(&sig) {
            return Err(NEG_EINVAL);
        }
        let handler = self.sys.sig_handlers[sig as usize];
        let ignored_by_default = matches!(
            sig,
            libc::SIGCHLD | libc::SIGURG | libc::SIGWINCH | libc::SIGCONT
        );
        if handler == 1 || (handler == 0 && ignored_by_default) {
            return Ok(Sys::Ret(0));
        }
        // Delivery to a guest handler comes with signal support; until then a
        // signal the guest sends itself ends it as its default action would.
        Ok(Sys::Kill(sig))
    }

    fn mmap(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        let [addr, len, prot, flags, fd, off] = a;
        const MAP_SHARED: u64 = 0x01;
        const MAP_FIXED: u64 = 0x10;
        const MAP_ANONYMOUS: u64 = 0x20;
        const MAP_FIXED_NOREPLACE: u64 = 0x100000;
        if len == 0 || off % PAGE_SIZE != 0 {
            return Err(NEG_EINVAL);
        }
        let len = page_up(len);
        let fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE) != 0;
        let at = if fixed {
            if addr % PAGE_SIZE != 0 || self.mem.host_ptr(addr, len).is_err() {
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
        } else if addr != 0
            && addr % PAGE_SIZE == 0
            && self.mem.host_ptr(addr, len).is_ok()
            && !self.mem.any_mapped(addr, addr + len)
        {
            addr
        } else {
            self.mem.find_free(len).ok_or(-(libc::ENOMEM as i64))?
        };
        let p = Prot::from_bits(prot);
        if flags & MAP_ANONYMOUS != 0 {
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
        self.code_changed(at, at + len);
        Ok(Sys::Ret(at as i64))
    }

    fn mremap(&mut self, a: [u64; 6]) -> Result<Sys, i64> {
        let [old, old_len, new_len, flags, _new_addr, _] = a;
        const MREMAP_MAYMOVE: u64 = 1;
        if old % PAGE_SIZE != 0 || new_len == 0 || flags & !MREMAP_MAYMOVE != 0 {
            return Err(NEG_EINVAL);
        }
        let (old_len, new_len) = (page_up(old_len), page_up(new_len));
        let Some((_, mp)) = self.mem.mapping_at(old) else {
            return Err(-(libc::EFAULT as i64));
        };
        let (prot, backing) = (mp.prot, mp.backing.clone());
        if new_len <= old_len {
            self.mem.unmap(old + new_len, old_len - new_len);
            return Ok(Sys::Ret(old as i64));
        }
        let grow = new_len - old_len;
        if self.mem.host_ptr(old + old_len, grow).is_ok()
            && !self.mem.any_mapped(old + old_len, old + new_len)
        {
            self.mem.map_anon_fixed(old + old_len, grow, prot, backing);
            return Ok(Sys::Ret(old as i64));
        }
        if flags & MREMAP_MAYMOVE == 0 {
            return Err(-(libc::ENOMEM as i64));
        }
        let to = self.mem.find_free(new_len).ok_or(-(libc::ENOMEM as i64))?;
        self.mem.map_anon_fixed(to, new_len, prot, backing);
        let src = self
            .mem
            .slice(old, old_len)
            .map_err(|_| NEG_EFAULT)?
            .as_ptr();
        let dst = self
            .mem
            .slice_mut(to, old_len)
            .map_err(|_| NEG_EFAULT)?
            .as_mut_ptr();
        // SAFETY: both ranges are inside our reservations and do not overlap
        // (the destination was free).
        unsafe { std::ptr::copy_nonoverlapping(src, dst, old_len as usize) };
        self.mem.unmap(old, old_len);
        self.code_changed(old, old + old_len);
        Ok(Sys::Ret(to as i64))
    }

    /// Code in `[lo, hi)` may have changed: drop decoded blocks and translations.
    fn code_changed(&mut self, lo: u64, hi: u64) {
        self.blocks.invalidate(lo, hi);
        self.flush.push((lo, hi));
    }
}

/// An anonymous in-memory file holding `bytes`, positioned at its start.
fn memfd_with(bytes: &[u8], flags: i64) -> i64 {
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
    const NAMES: &[(u64, &str)] = &[
        (13, "rt_sigaction"),
        (15, "rt_sigreturn"),
        (29, "shmget"),
        (38, "setitimer"),
        (37, "alarm"),
        (41, "socket"),
        (42, "connect"),
        (56, "clone"),
        (57, "fork"),
        (58, "vfork"),
        (59, "execve"),
        (200, "tkill"),
        (213, "epoll_create"),
        (232, "epoll_wait"),
        (233, "epoll_ctl"),
        (283, "timerfd_create"),
        (290, "eventfd2"),
        (291, "epoll_create1"),
        (302, "prlimit64"),
        (322, "execveat"),
        (334, "rseq"),
        (435, "clone3"),
    ];
    NAMES
        .iter()
        .find(|e| e.0 == nr)
        .map(|e| e.1)
        .unwrap_or("unknown")
}
