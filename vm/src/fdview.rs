//! The guest's view of its descriptors: pathvm's own are out of its reach,
//! and its standard descriptors look the same wherever the host sent them.
//!
//! **pathvm's descriptors** (its saved stderr) are moved at or above
//! [`GUEST_FD_LIMIT`] (the guest's `RLIMIT_NOFILE`, 1024), close-on-exec,
//! and the host's soft limit is set to that number during the run, so the
//! guest's own descriptors are all below it, as its limit says. Any call
//! that names one of pathvm's descriptors (read, write, close,
//! `close_range`, `dup2`/`dup3` onto it, `fcntl`, `fstat`, `ioctl`, `mmap`,
//! the `*at` calls' directory, ...) fails with `X_EBADF`, as for a
//! descriptor that is not open; `close_range` closes around them;
//! `/proc/self/fd` does not list them.
//!
//! **Standard descriptors**: as long as the guest has not replaced them,
//! descriptors 0, 1 and 2 (and their duplicates) are presented as pipes:
//! `fstat` gives a FIFO with fixed numbers, terminal `ioctl`s fail with
//! `X_ENOTTY` (so `isatty` is false), `lseek`/`pread64`/`pwrite64` fail with
//! `X_ESPIPE`, `fcntl(F_GETFL)` gives `O_RDONLY`/`O_WRONLY`, and
//! `/proc/self/fd/N` reads `pipe:[...]`. Reads and writes go to the host's
//! descriptors. With `run --tty` they are presented as one terminal
//! (`/dev/pts/0`, 80 columns by 24 lines, fixed settings) instead; setting
//! its attributes succeeds and changes nothing on the host.

use events::Observer;
use rustc_hash::FxHashMap;

use crate::machine::Machine;
pub use crate::procfs::GUEST_FD_LIMIT;

const X_EBADF: i64 = -(libc::EBADF as i64);
const X_ENOTTY: i64 = -(libc::ENOTTY as i64);
const X_ESPIPE: i64 = -(libc::ESPIPE as i64);
const X_EFAULT: i64 = -(libc::EFAULT as i64);

/// Move pathvm's descriptor `fd` to a number the guest cannot reach (at or
/// above [`GUEST_FD_LIMIT`], close-on-exec) and set the host's soft limit
/// of descriptors to the guest's. Returns the new descriptor (the old one
/// stays open), or -1.
pub fn reserve_fd(fd: i32) -> i32 {
    let limit = GUEST_FD_LIMIT as libc::rlim_t;
    // SAFETY: plain calls on our own descriptors and limits.
    unsafe {
        let mut rl: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) != 0 {
            return libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 100);
        }
        if rl.rlim_max < limit + 16 {
            return libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 100);
        }
        let raised = libc::rlimit {
            rlim_cur: rl.rlim_cur.max(limit + 16),
            rlim_max: rl.rlim_max,
        };
        libc::setrlimit(libc::RLIMIT_NOFILE, &raised);
        let new = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, GUEST_FD_LIMIT);
        let guest = libc::rlimit {
            rlim_cur: limit,
            rlim_max: rl.rlim_max,
        };
        libc::setrlimit(libc::RLIMIT_NOFILE, &guest);
        new
    }
}

/// Descriptors pathvm keeps, and the guest's standard descriptors.
pub(crate) struct FdView {
    reserved: Vec<i32>,
    /// Descriptors that are (copies of) an inherited standard descriptor,
    /// and which one.
    std: FxHashMap<i32, i32>,
    tty: bool,
}

impl FdView {
    pub(crate) fn new(reserved: &[i32], tty: bool) -> FdView {
        let mut std = FxHashMap::default();
        for fd in 0..3 {
            // SAFETY: F_GETFD only reads flags.
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0 {
                std.insert(fd, fd);
            }
        }
        FdView {
            reserved: reserved.to_vec(),
            std,
            tty,
        }
    }

    /// One more descriptor of pathvm's (a timerfd's duplicate).
    pub(crate) fn reserve(&mut self, fd: i32) {
        self.reserved.push(fd);
    }

    pub(crate) fn reserved(&self, fd: i32) -> bool {
        fd >= GUEST_FD_LIMIT || self.reserved.contains(&fd)
    }

    pub(crate) fn inherited(&self, fd: i32) -> bool {
        self.std.contains_key(&fd)
    }

    /// What `/proc/self/fd/N` shows for a standard descriptor.
    pub(crate) fn std_target(&self, fd: i32) -> Option<Vec<u8>> {
        let origin = *self.std.get(&fd)?;
        Some(if self.tty {
            b"/dev/pts/0".to_vec()
        } else {
            format!("pipe:[{}]", 9000 + origin).into_bytes()
        })
    }

    fn closed(&mut self, fd: i32) {
        self.std.remove(&fd);
    }

    fn copied(&mut self, old: i32, new: i32) {
        self.std.remove(&new);
        if let Some(&o) = self.std.get(&old) {
            self.std.insert(new, o);
        }
    }

    /// `struct stat` of a standard descriptor.
    fn stat(&self, origin: i32, uid: u32, gid: u32) -> [u8; 144] {
        let mut b = [0u8; 144];
        let put = |b: &mut [u8; 144], at: usize, v: &[u8]| b[at..at + v.len()].copy_from_slice(v);
        let (dev, ino, mode, rdev, gid) = if self.tty {
            (0x18u64, 3u64, libc::S_IFCHR | 0o620, (136u64 << 8), 5u32)
        } else {
            (0xd, 9000 + origin as u64, libc::S_IFIFO | 0o600, 0, gid)
        };
        put(&mut b, 0, &dev.to_le_bytes());
        put(&mut b, 8, &ino.to_le_bytes());
        put(&mut b, 16, &1u64.to_le_bytes());
        put(&mut b, 24, &mode.to_le_bytes());
        put(&mut b, 28, &uid.to_le_bytes());
        put(&mut b, 32, &gid.to_le_bytes());
        put(&mut b, 40, &rdev.to_le_bytes());
        put(
            &mut b,
            56,
            &(if self.tty { 1024u64 } else { 4096 }).to_le_bytes(),
        );
        for at in [72, 88, 104] {
            put(&mut b, at, &crate::clock::EPOCH_SECS.to_le_bytes());
        }
        b
    }

    /// `struct statx` of a standard descriptor, from its `struct stat`.
    fn statx(st: &[u8; 144]) -> [u8; 256] {
        let mut b = [0u8; 256];
        let u64_at = |at: usize| u64::from_le_bytes(st[at..at + 8].try_into().unwrap_or([0; 8]));
        let u32_at = |at: usize| u32::from_le_bytes(st[at..at + 4].try_into().unwrap_or([0; 4]));
        let mut put = |at: usize, v: &[u8]| b[at..at + v.len()].copy_from_slice(v);
        put(0, &0x7ffu32.to_le_bytes()); // STATX_BASIC_STATS
        put(4, &(u64_at(56) as u32).to_le_bytes());
        put(16, &1u32.to_le_bytes());
        put(20, &u32_at(28).to_le_bytes());
        put(24, &u32_at(32).to_le_bytes());
        put(28, &(u32_at(24) as u16).to_le_bytes());
        put(32, &u64_at(8).to_le_bytes());
        for at in [64, 96, 112] {
            put(at, &u64_at(72).to_le_bytes());
        }
        let (rdev, dev) = (u64_at(40), u64_at(0));
        put(128, &((rdev >> 8) as u32).to_le_bytes());
        put(132, &((rdev & 0xff) as u32).to_le_bytes());
        put(136, &((dev >> 8) as u32).to_le_bytes());
        put(140, &((dev & 0xff) as u32).to_le_bytes());
        b
    }
}

/// The fixed terminal settings of `--tty` (a `struct termios` as the
/// kernel's `TCGETS` fills it, 36 bytes: cooked mode, 38400 baud, the usual control
/// characters).
fn termios() -> [u8; 36] {
    let mut b = [0u8; 36];
    let iflag: u32 = 0o0002400 | 0o0000400; // ICRNL | IXON
    let oflag: u32 = 0o0000001 | 0o0000004; // OPOST | ONLCR
    let cflag: u32 = 0o0000017 | 0o0000060 | 0o0000200; // B38400 | CS8 | CREAD
    let lflag: u32 = 0o0000001
        | 0o0000002
        | 0o0000010
        | 0o0000020
        | 0o0000040
        | 0o0001000
        | 0o0004000
        | 0o0100000; // ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN
    b[0..4].copy_from_slice(&iflag.to_le_bytes());
    b[4..8].copy_from_slice(&oflag.to_le_bytes());
    b[8..12].copy_from_slice(&cflag.to_le_bytes());
    b[12..16].copy_from_slice(&lflag.to_le_bytes());
    b[16] = 0; // c_line
    let cc: [u8; 19] = [
        3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0, 0, 0,
    ];
    b[17..17 + cc.len()].copy_from_slice(&cc);
    b
}

/// The descriptor arguments of a call (by argument index), for the check
/// against pathvm's descriptors.
#[allow(non_upper_case_globals)]
fn fd_args(nr: i64, a: &[u64; 6]) -> &'static [usize] {
    use libc::*;
    match nr {
        SYS_read
        | SYS_write
        | SYS_pread64
        | SYS_pwrite64
        | SYS_readv
        | SYS_writev
        | SYS_preadv
        | SYS_pwritev
        | SYS_preadv2
        | SYS_pwritev2
        | SYS_close
        | SYS_dup
        | SYS_fstat
        | SYS_fstatfs
        | SYS_lseek
        | SYS_ioctl
        | SYS_fcntl
        | SYS_fsync
        | SYS_fdatasync
        | SYS_ftruncate
        | SYS_fchmod
        | SYS_fchown
        | SYS_fchdir
        | SYS_flock
        | SYS_fadvise64
        | SYS_fallocate
        | SYS_getdents
        | SYS_getdents64
        | SYS_fgetxattr
        | SYS_flistxattr
        | SYS_fsetxattr
        | SYS_fremovexattr
        | SYS_openat
        | SYS_newfstatat
        | SYS_statx
        | SYS_faccessat
        | SYS_faccessat2
        | SYS_mkdirat
        | SYS_unlinkat
        | SYS_fchmodat
        | SYS_fchownat
        | SYS_readlinkat
        | SYS_utimensat
        | SYS_execveat
        | SYS_mknodat
        | SYS_futimesat
        | SYS_sync_file_range
        | SYS_syncfs
        | SYS_readahead
        | SYS_inotify_add_watch
        | SYS_epoll_ctl
        | SYS_epoll_wait
        | SYS_epoll_pwait
        | SYS_name_to_handle_at
        | SYS_open_by_handle_at
        | SYS_setns
        | SYS_fanotify_mark
        | SYS_splice
        | SYS_tee
        | SYS_vmsplice => &[0],
        SYS_dup2 | SYS_dup3 => &[0, 1],
        SYS_renameat | SYS_renameat2 | SYS_linkat | SYS_sendfile | SYS_copy_file_range => &[0, 2],
        SYS_symlinkat => &[1],
        SYS_mmap if a[3] & libc::MAP_ANONYMOUS as u64 == 0 => &[4],
        _ => &[],
    }
}

impl<O: Observer> Machine<'_, O> {
    /// Calls on descriptors the VM answers or guards: pathvm's own
    /// (`X_EBADF`), `/proc` files, the standard descriptors. `None`: the
    /// host's, as dispatched.
    #[allow(non_upper_case_globals)]
    pub(crate) fn fd_guard(&mut self, nr: i64, a: &[u64; 6]) -> Option<i64> {
        use libc::*;
        for &k in fd_args(nr, a) {
            let fd = a[k] as i64;
            // AT_FDCWD and other negative values are not descriptors.
            if (0..=i32::MAX as i64).contains(&fd) && self.sys.fdview.reserved(fd as i32) {
                // dup2/dup3's first argument, and the *at calls' absolute
                // paths, would not look at it; close enough: no call of the
                // guest names pathvm's descriptors on purpose.
                return Some(X_EBADF);
            }
        }
        match nr {
            SYS_close => {
                let fd = a[0] as i32;
                let r = crate::syscalls::host_call(nr, &[a[0] as i64]);
                if r == 0 {
                    self.sys.proc.forget(fd);
                    self.sys.fdview.closed(fd);
                }
                return Some(r);
            }
            SYS_close_range => return Some(self.close_range(a[0], a[1], a[2])),
            SYS_dup | SYS_dup2 | SYS_dup3 => {
                let r = crate::syscalls::host_call(nr, &[a[0] as i64, a[1] as i64, a[2] as i64]);
                if r >= 0 && r as i32 != a[0] as i32 {
                    self.sys.proc.copied(a[0] as i32, r as i32);
                    self.sys.fdview.copied(a[0] as i32, r as i32);
                }
                return Some(r);
            }
            SYS_fcntl if matches!(a[1] as i32, F_DUPFD | F_DUPFD_CLOEXEC) => {
                let r = crate::syscalls::host_call(nr, &[a[0] as i64, a[1] as i64, a[2] as i64]);
                if r >= 0 {
                    self.sys.proc.copied(a[0] as i32, r as i32);
                    self.sys.fdview.copied(a[0] as i32, r as i32);
                }
                return Some(r);
            }
            _ => {}
        }
        if self.sys.fdview.tty && matches!(nr, SYS_stat | SYS_newfstatat | SYS_statx) {
            // The terminal's device, as ttyname() checks it against fstat.
            let (p, out) = match nr {
                SYS_stat => (a[0], a[1]),
                SYS_newfstatat => (a[1], a[2]),
                _ => (a[1], a[4]),
            };
            if self.mem.read_cstr(p, 16).is_ok_and(|s| s == b"/dev/pts/0") {
                // SAFETY: getgid cannot fail.
                let st = self
                    .sys
                    .fdview
                    .stat(0, self.sys.uid, unsafe { libc::getgid() });
                let r = if nr == SYS_statx {
                    self.mem.write(out, &FdView::statx(&st))
                } else {
                    self.mem.write(out, &st)
                };
                return Some(r.map_or(X_EFAULT, |_| 0));
            }
        }
        if !self.sys.proc.fds.is_empty() {
            if let Some(r) = self.proc_fd_call(nr, a) {
                return Some(r);
            }
        }
        let fd = a[0] as i32;
        let origin = *self.sys.fdview.std.get(&fd)?;
        let tty = self.sys.fdview.tty;
        let uid = self.sys.uid;
        // SAFETY: getgid cannot fail.
        let gid = unsafe { libc::getgid() };
        match nr {
            SYS_fstat => {
                let st = self.sys.fdview.stat(origin, uid, gid);
                Some(self.mem.write(a[1], &st).map_or(X_EFAULT, |_| 0))
            }
            SYS_newfstatat if a[3] & AT_EMPTY_PATH as u64 != 0 && self.empty_path(a[1]) => {
                let st = self.sys.fdview.stat(origin, uid, gid);
                Some(self.mem.write(a[2], &st).map_or(X_EFAULT, |_| 0))
            }
            SYS_statx if a[2] & AT_EMPTY_PATH as u64 != 0 && self.empty_path(a[1]) => {
                let st = FdView::statx(&self.sys.fdview.stat(origin, uid, gid));
                Some(self.mem.write(a[4], &st).map_or(X_EFAULT, |_| 0))
            }
            SYS_lseek | SYS_pread64 | SYS_pwrite64 | SYS_preadv | SYS_pwritev => Some(X_ESPIPE),
            SYS_fcntl if a[1] as i32 == F_GETFL => {
                // SAFETY: F_GETFL reads the host's flags; only O_NONBLOCK
                // (which the guest may set) is kept.
                let host = unsafe { libc::fcntl(fd, F_GETFL) };
                if host < 0 {
                    return Some(X_EBADF);
                }
                let acc = if tty {
                    O_RDWR
                } else if origin == 0 {
                    O_RDONLY
                } else {
                    O_WRONLY
                };
                Some((acc | (host & O_NONBLOCK)) as i64)
            }
            SYS_ioctl => {
                let cmd = a[1] as u32;
                // FIONREAD, FIONBIO, FIONCLEX, FIOCLEX, FIOASYNC: for any file.
                if matches!(cmd, 0x541b | 0x5421 | 0x5450 | 0x5451 | 0x5452) {
                    return None;
                }
                if cmd >> 8 != 0x54 {
                    return Some(X_ENOTTY);
                }
                if !tty {
                    return Some(X_ENOTTY);
                }
                Some(match cmd {
                    0x5401 => self.mem.write(a[2], &termios()).map_or(X_EFAULT, |_| 0),
                    0x5402..=0x5404 | 0x540b | 0x5414 | 0x5410 => 0, // TCSETS*, TCFLSH, TIOCSWINSZ, TIOCSPGRP
                    0x5413 => {
                        let ws: [u16; 4] = [24, 80, 0, 0];
                        let b: Vec<u8> = ws.iter().flat_map(|v| v.to_le_bytes()).collect();
                        self.mem.write(a[2], &b).map_or(X_EFAULT, |_| 0)
                    }
                    0x540f => self
                        .mem
                        .write_u32(a[2], self.sys.process.pid)
                        .map_or(X_EFAULT, |_| 0),
                    0x5429 => self
                        .mem
                        .write_u32(a[2], self.sys.process.pid)
                        .map_or(X_EFAULT, |_| 0), // TIOCGSID
                    0x5430 => self.mem.write_u32(a[2], 0).map_or(X_EFAULT, |_| 0), // TIOCGPTN
                    _ => X_ENOTTY,
                })
            }
            _ => None,
        }
    }

    fn empty_path(&self, p: u64) -> bool {
        self.mem.read_cstr(p, 1).is_ok_and(|s| s.is_empty())
    }

    /// `close_range`: around pathvm's descriptors.
    fn close_range(&mut self, lo: u64, hi: u64, flags: u64) -> i64 {
        let (lo, hi) = (lo as u32, hi as u32);
        if lo > hi {
            return -(libc::EINVAL as i64);
        }
        let mut cuts: Vec<u32> = self
            .sys
            .fdview
            .reserved
            .iter()
            .map(|&f| f as u32)
            .filter(|&f| f >= lo && f <= hi)
            .collect();
        cuts.sort_unstable();
        let mut start = lo;
        let mut r = 0;
        // The guest's range ends below pathvm's descriptors.
        let top = hi.min(GUEST_FD_LIMIT as u32 - 1);
        for c in cuts
            .into_iter()
            .chain(std::iter::once(top.saturating_add(1)))
        {
            if c > start && start <= top {
                let end = (c - 1).min(top);
                r = crate::syscalls::host_call(
                    libc::SYS_close_range,
                    &[start as i64, end as i64, flags as i64],
                );
                if r < 0 {
                    return r;
                }
            }
            start = c.saturating_add(1);
        }
        if flags & libc::CLOSE_RANGE_CLOEXEC as u64 == 0 && lo < GUEST_FD_LIMIT as u32 {
            for fd in lo..=top {
                self.sys.proc.forget(fd as i32);
                self.sys.fdview.closed(fd as i32);
            }
        }
        r
    }
}
