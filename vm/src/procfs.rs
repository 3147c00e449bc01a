//! `/proc` of the guest's own process.
//!
//! The guest's process is not a host process: pathvm is. Every path the
//! guest opens, reads as a link or uses as a directory is first resolved
//! lexically (`.`, `..`, repeated slashes; a relative path against the
//! directory descriptor or the working directory it names), and a path
//! inside `/proc/self`, `/proc/thread-self`, `/proc/<guest pid>` or
//! `/proc/<guest pid>/task/<tid>` is answered here, from the VM's state:
//! `maps`, `smaps`, `status`, `stat`, `statm`, `cmdline`, `environ`,
//! `auxv`, `comm`, `exe`, `fd/`, `fdinfo/`, `task/`, `mem`. A path that
//! leads into pathvm's own `/proc/<host pid>` by any other way (a symbolic
//! link, a working directory) is caught after the host opened it (the
//! descriptor's target names it) and answered the same way; spelled out
//! with pathvm's host pid it does not exist (`ENOENT`).
//!
//! Generated files are in-memory files (`memfd`) holding their contents at
//! the time of `open`, read-only. Directories are host directories whose
//! listing (`getdents64`) is the VM's. `mem` is a descriptor on
//! `/dev/null` whose `read`/`write`/`pread64`/`pwrite64`/`lseek` act on
//! guest memory at offset = address (an unmapped address: `EIO`, as Linux).
//! The VM keeps what each such descriptor is ([`ProcFs::fds`]); `close`,
//! `close_range`, `dup*` and `fcntl(F_DUPFD*)` keep that table right.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use events::Observer;
use rustc_hash::FxHashMap;

use crate::machine::Machine;
use crate::memory::Backing;
use crate::signals::{SIG_DFL, SIG_IGN};

/// The guest's descriptors are below this number (its `RLIMIT_NOFILE`);
/// pathvm's own are at or above it.
pub const GUEST_FD_LIMIT: i32 = 1024;

const ENOENT: i64 = -(libc::ENOENT as i64);
const EACCES: i64 = -(libc::EACCES as i64);
const EINVAL: i64 = -(libc::EINVAL as i64);
const EFAULT: i64 = -(libc::EFAULT as i64);
const EIO: i64 = -(libc::EIO as i64);

const DT_DIR: u8 = 4;
const DT_REG: u8 = 8;
const DT_LNK: u8 = 10;

/// What a descriptor of the guest is, when the VM answers for it.
#[derive(Clone, Debug)]
pub(crate) enum Open {
    /// A generated file (its data is in the memfd); `path` is its name.
    File { path: String },
    /// A directory whose listing is the VM's.
    Dir {
        path: String,
        entries: Vec<(String, u8)>,
        pos: usize,
    },
    /// `/proc/<pid>/mem`.
    Mem { path: String, pos: u64 },
}

impl Open {
    fn path(&self) -> &str {
        match self {
            Open::File { path } | Open::Dir { path, .. } | Open::Mem { path, .. } => path,
        }
    }
}

/// The guest's `/proc` state: what it cannot ask the host.
pub(crate) struct ProcFs {
    /// The program, absolute, symbolic links resolved.
    pub(crate) exe: PathBuf,
    /// Its name as run (`comm`: the last component of the path given,
    /// 15 bytes at most, as the kernel takes it from `execve`).
    comm: String,
    /// Guest addresses of the argument and environment strings.
    arg: (u64, u64),
    env: (u64, u64),
    /// The auxiliary vector as the program received it.
    auxv: Vec<u8>,
    /// The initial stack pointer (`startstack` of `stat`).
    start_stack: u64,
    /// Descriptors answered by the VM.
    pub(crate) fds: FxHashMap<i32, Open>,
    host_pid: i32,
}

/// The object of a path inside the guest's `/proc/<pid>`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// `/proc/<pid>` (or a task's directory).
    Dir,
    /// A file generated here.
    File(&'static str),
    Exe,
    FdDir,
    Fd(i32),
    FdinfoDir,
    TaskDir,
    Mem,
    /// Passed to the host under this path (not specific to pathvm's process).
    Host(String),
}

/// A resolved `/proc` path of the guest: the node, and the thread it is
/// seen from (`None`: the process).
#[derive(Clone, Debug)]
struct Target {
    node: Node,
    tid: Option<u32>,
    /// The path as Linux names it (`/proc/1000/maps`).
    name: String,
}

/// Lexical normalisation: `.`, `..` and repeated slashes removed.
fn normalize(path: &[u8]) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = Vec::new();
    for c in path.split(|&b| b == b'/') {
        match c {
            b"" | b"." => {}
            b".." => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

fn parse_num(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || (s.len() > 1 && s[0] == b'0') {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

impl ProcFs {
    pub(crate) fn new(program: &Path) -> ProcFs {
        let abs = if program.is_absolute() {
            program.to_owned()
        } else {
            std::env::current_dir()
                .map(|d| d.join(program))
                .unwrap_or_else(|_| program.to_owned())
        };
        let comm = program
            .file_name()
            .map(|n| n.as_bytes()[..n.len().min(15)].to_vec())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        ProcFs {
            comm,
            exe: std::fs::canonicalize(&abs).unwrap_or(abs),
            arg: (0, 0),
            env: (0, 0),
            auxv: Vec::new(),
            start_stack: 0,
            fds: FxHashMap::default(),
            // SAFETY: getpid cannot fail.
            host_pid: unsafe { libc::getpid() },
        }
    }

    /// Read where argv, envp and auxv are from the initial stack at `sp`.
    pub(crate) fn set_initial_stack(&mut self, mem: &crate::memory::GuestMemory, sp: u64) {
        self.start_stack = sp;
        let rd = |a: u64| mem.read_u64(a).unwrap_or(0);
        let argc = rd(sp);
        let strings = |first: u64, n: u64| -> (u64, u64) {
            if n == 0 {
                return (0, 0);
            }
            let lo = rd(first);
            let last = rd(first + 8 * (n - 1));
            let len = mem.read_cstr(last, 1 << 20).map_or(0, |s| s.len() as u64);
            (lo, last + len + 1)
        };
        self.arg = strings(sp + 8, argc);
        let envp = sp + 8 + 8 * (argc + 1);
        let mut envc = 0;
        while rd(envp + 8 * envc) != 0 && envc < 1 << 20 {
            envc += 1;
        }
        self.env = strings(envp, envc);
        let auxv = envp + 8 * (envc + 1);
        let mut k = 0;
        loop {
            let key = rd(auxv + 16 * k);
            k += 1;
            if key == 0 || k > 64 {
                break;
            }
        }
        self.auxv = mem.slice(auxv, 16 * k).map_or(Vec::new(), |s| s.to_vec());
    }

    /// The table entry of a descriptor that is closed or replaced.
    pub(crate) fn forget(&mut self, fd: i32) {
        if !self.fds.is_empty() {
            self.fds.remove(&fd);
        }
    }

    /// `new` is a copy of `old` (`dup*`, `fcntl(F_DUPFD)`).
    pub(crate) fn copied(&mut self, old: i32, new: i32) {
        self.forget(new);
        if let Some(o) = self.fds.get(&old).cloned() {
            self.fds.insert(new, o);
        }
    }
}

/// Does the host descriptor `fd` exist?
fn host_fd_open(fd: i32) -> bool {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    unsafe { libc::fcntl(fd, libc::F_GETFD) >= 0 }
}

fn host_readlink(path: &str) -> Option<Vec<u8>> {
    std::fs::read_link(path)
        .ok()
        .map(|p| p.as_os_str().as_bytes().to_vec())
}

fn host_open(path: &[u8], flags: i64, mode: i64) -> i64 {
    let Ok(c) = CString::new(path) else {
        return EINVAL;
    };
    // SAFETY: a NUL-terminated path.
    let r = unsafe { libc::open(c.as_ptr(), flags as i32, mode as libc::c_uint) };
    if r < 0 {
        -(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO) as i64)
    } else {
        r as i64
    }
}

/// `linux_dirent64` records of `entries[pos..]` that fit in `room` bytes.
fn dirents(entries: &[(String, u8)], pos: &mut usize, room: usize) -> Result<Vec<u8>, i64> {
    let mut out = Vec::new();
    while *pos < entries.len() {
        let (name, ty) = &entries[*pos];
        let reclen = (19 + name.len() + 1).div_ceil(8) * 8;
        if out.len() + reclen > room {
            if out.is_empty() {
                return Err(EINVAL);
            }
            break;
        }
        let start = out.len();
        out.extend_from_slice(&(1000 + *pos as u64).to_le_bytes()); // d_ino
        out.extend_from_slice(&(*pos as i64 + 1).to_le_bytes()); // d_off
        out.extend_from_slice(&(reclen as u16).to_le_bytes());
        out.push(*ty);
        out.extend_from_slice(name.as_bytes());
        out.resize(start + reclen, 0);
        *pos += 1;
    }
    Ok(out)
}

impl<O: Observer> Machine<'_, O> {
    /// The absolute form of `path` as the guest means it (relative to
    /// `dirfd` or the working directory), lexically normalised, when it is
    /// under `/proc`; the base directory is taken as the guest sees it.
    fn proc_path(&self, dirfd: i64, path: &[u8]) -> Option<Vec<u8>> {
        let full: Vec<u8> = if path.first() == Some(&b'/') {
            path.to_vec()
        } else {
            let base: Vec<u8> = if dirfd == libc::AT_FDCWD as i64 {
                std::env::current_dir()
                    .ok()?
                    .as_os_str()
                    .as_bytes()
                    .to_vec()
            } else if let Some(o) = self.sys.proc.fds.get(&(dirfd as i32)) {
                o.path().as_bytes().to_vec()
            } else {
                host_readlink(&format!("/proc/self/fd/{dirfd}"))?
            };
            if !base.starts_with(b"/proc") {
                return None;
            }
            let base = self.guest_view(base);
            let mut f = base;
            f.push(b'/');
            f.extend_from_slice(path);
            f
        };
        let comps = normalize(&full);
        if comps.first() != Some(&&b"proc"[..]) {
            return None;
        }
        Some(comps.join(&b'/').to_vec())
    }

    /// A host path under pathvm's own `/proc/<host pid>` as the guest's.
    fn guest_view(&self, p: Vec<u8>) -> Vec<u8> {
        let own = format!("/proc/{}", self.sys.proc.host_pid);
        if p == own.as_bytes() || p.starts_with(format!("{own}/").as_bytes()) {
            let mut v = format!("/proc/{}", self.sys.process.pid).into_bytes();
            v.extend_from_slice(&p[own.len()..]);
            return v;
        }
        p
    }

    fn is_guest_tid(&self, tid: u32) -> bool {
        self.threads
            .list
            .iter()
            .any(|t| t.tid == tid && t.state != crate::threads::ThreadState::Exited)
    }

    /// Resolve a normalised path `proc/...` (no leading slash).
    /// `None`: not the guest's (the host answers); `Some(Err)`: an error.
    fn resolve(&self, norm: &[u8]) -> Option<Result<Target, i64>> {
        let comps: Vec<&[u8]> = norm.split(|&b| b == b'/').collect();
        if comps.len() < 2 || comps[0] != b"proc" {
            return None;
        }
        let pid = self.sys.process.pid;
        let cur = self.threads.current().tid;
        let (mut tid, mut rest) = match comps[1] {
            b"self" => (None, &comps[2..]),
            b"thread-self" => (Some(cur), &comps[2..]),
            n => {
                let n = parse_num(n)?;
                if n == pid {
                    (None, &comps[2..])
                } else if self.is_guest_tid(n) {
                    (Some(n), &comps[2..])
                } else if n as i32 == self.sys.proc.host_pid
                    || (n >= crate::machine::GUEST_PID && n < self.sys.process.next_vpid())
                    || std::path::Path::new(&format!("/proc/self/task/{n}")).exists()
                {
                    // pathvm's own host pid and threads, and the guest's
                    // other virtual pids: not the host's to answer.
                    return Some(Err(ENOENT));
                } else {
                    return None;
                }
            }
        };
        let mut name = match tid {
            Some(t) if comps[1] == b"thread-self" => format!("/proc/{pid}/task/{t}"),
            Some(t) => format!("/proc/{t}"),
            None => format!("/proc/{pid}"),
        };
        if rest.first() == Some(&&b"task"[..]) {
            if rest.len() == 1 {
                return Some(Ok(Target {
                    node: Node::TaskDir,
                    tid,
                    name: format!("{name}/task"),
                }));
            }
            match parse_num(rest[1]) {
                Some(t) if self.is_guest_tid(t) => {
                    tid = Some(t);
                    name = format!("/proc/{pid}/task/{t}");
                    rest = &rest[2..];
                }
                _ => return Some(Err(ENOENT)),
            }
        }
        let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let node = match rest {
            [] => Node::Dir,
            [f] => match *f {
                b"maps" => Node::File("maps"),
                b"smaps" => Node::File("smaps"),
                b"status" => Node::File("status"),
                b"stat" => Node::File("stat"),
                b"statm" => Node::File("statm"),
                b"cmdline" => Node::File("cmdline"),
                b"environ" => Node::File("environ"),
                b"auxv" => Node::File("auxv"),
                b"comm" => Node::File("comm"),
                b"limits" => Node::File("limits"),
                b"exe" => Node::Exe,
                b"fd" => Node::FdDir,
                b"fdinfo" => Node::FdinfoDir,
                b"mem" => Node::Mem,
                b"cwd" | b"root" | b"mounts" | b"mountinfo" | b"mountstats" | b"cgroup"
                | b"uid_map" | b"gid_map" | b"setgroups" | b"oom_score_adj" | b"net" | b"ns" => {
                    Node::Host(format!("/proc/self/{}", s(f)))
                }
                _ => return Some(Err(ENOENT)),
            },
            [b"fd", n] => match parse_num(n) {
                Some(n) if self.guest_fd_open(n as i32) => Node::Fd(n as i32),
                _ => return Some(Err(ENOENT)),
            },
            [b"fdinfo", n] => match parse_num(n) {
                Some(n) if self.guest_fd_open(n as i32) => {
                    Node::Host(format!("/proc/self/fdinfo/{n}"))
                }
                _ => return Some(Err(ENOENT)),
            },
            [b"net" | b"ns", ..] => Node::Host(format!("/proc/self/{}", s(&rest.join(&b'/')))),
            _ => return Some(Err(ENOENT)),
        };
        for c in rest {
            name.push('/');
            name.push_str(&s(c));
        }
        Some(Ok(Target { node, tid, name }))
    }

    /// Is `fd` a descriptor of the guest (open, and not pathvm's)?
    pub(crate) fn guest_fd_open(&self, fd: i32) -> bool {
        (0..GUEST_FD_LIMIT).contains(&fd) && !self.sys.reserved(fd) && host_fd_open(fd)
    }

    /// `open`/`openat` of a path the VM answers. `None`: the host's.
    pub(crate) fn proc_open(
        &mut self,
        dirfd: i64,
        path: &[u8],
        flags: i64,
        mode: i64,
    ) -> Option<i64> {
        let norm = self.proc_path(dirfd, path)?;
        let t = match self.resolve(&norm)? {
            Ok(t) => t,
            Err(e) => return Some(e),
        };
        Some(self.open_target(t, flags, mode))
    }

    /// After the host opened a path: if the descriptor is in pathvm's own
    /// `/proc/<host pid>` (a symbolic link led there), it is replaced by
    /// the guest's view.
    pub(crate) fn proc_after_open(&mut self, fd: i64, flags: i64, mode: i64) -> i64 {
        if fd < 0 {
            return fd;
        }
        let Some(target) = host_readlink(&format!("/proc/self/fd/{fd}")) else {
            return fd;
        };
        if !target.starts_with(b"/proc/") {
            return fd;
        }
        let view = self.guest_view(target.clone());
        let norm = normalize(&view).join(&b'/');
        let own = view != target;
        let r = match self.resolve(&norm) {
            Some(Ok(t)) => t,
            Some(Err(e)) if own => {
                // SAFETY: the descriptor we just opened for the guest.
                unsafe { libc::close(fd as i32) };
                return e;
            }
            _ => return fd,
        };
        // SAFETY: as above.
        unsafe { libc::close(fd as i32) };
        self.open_target(r, flags & !(libc::O_CREAT as i64), mode)
    }

    fn open_target(&mut self, t: Target, flags: i64, mode: i64) -> i64 {
        let acc = flags & libc::O_ACCMODE as i64;
        let cloexec = flags & libc::O_CLOEXEC as i64;
        let dir_flags = (libc::O_RDONLY | libc::O_DIRECTORY) as i64 | cloexec;
        let pid = self.sys.process.pid;
        match t.node {
            Node::File(f) => {
                if flags & libc::O_DIRECTORY as i64 != 0 {
                    return -(libc::ENOTDIR as i64);
                }
                if acc != libc::O_RDONLY as i64 {
                    return EACCES;
                }
                let bytes = self.proc_file(f, t.tid);
                // A /proc file that cannot be made reads as an I/O error.
                let fd = crate::syscalls::memfd_with(&bytes, flags);
                let fd = if fd < 0 { EIO } else { fd };
                if fd >= 0 {
                    self.sys
                        .proc
                        .fds
                        .insert(fd as i32, Open::File { path: t.name });
                }
                fd
            }
            Node::Exe => {
                let p = self.sys.proc.exe.as_os_str().as_bytes().to_vec();
                host_open(&p, flags & !(libc::O_CREAT as i64), mode)
            }
            Node::Host(p) => host_open(p.as_bytes(), flags, mode),
            Node::Mem => {
                let fd = host_open(b"/dev/null", (libc::O_RDWR as i64) | cloexec, 0);
                if fd >= 0 {
                    self.sys.proc.fds.insert(
                        fd as i32,
                        Open::Mem {
                            path: t.name,
                            pos: 0,
                        },
                    );
                }
                fd
            }
            Node::Fd(n) => {
                if let Some(o) = self.sys.proc.fds.get(&n).cloned() {
                    let fd = host_open(format!("/proc/self/fd/{n}").as_bytes(), flags, mode);
                    if fd >= 0 {
                        let o = match o {
                            Open::Dir { path, entries, .. } => Open::Dir {
                                path,
                                entries,
                                pos: 0,
                            },
                            Open::Mem { path, .. } => Open::Mem { path, pos: 0 },
                            o => o,
                        };
                        self.sys.proc.fds.insert(fd as i32, o);
                    }
                    return fd;
                }
                if n <= 2 && self.sys.fdview.inherited(n) {
                    // The standard descriptors as the guest sees them:
                    // reopening them reaches the same file.
                    return host_open(format!("/proc/self/fd/{n}").as_bytes(), flags, mode);
                }
                host_open(format!("/proc/self/fd/{n}").as_bytes(), flags, mode)
            }
            Node::Dir | Node::FdDir | Node::FdinfoDir | Node::TaskDir => {
                if acc != libc::O_RDONLY as i64 {
                    return -(libc::EISDIR as i64);
                }
                let host = match t.node {
                    Node::FdDir => "/proc/self/fd",
                    Node::FdinfoDir => "/proc/self/fdinfo",
                    Node::TaskDir => "/proc/self/task",
                    _ => "/proc/self",
                };
                let fd = host_open(host.as_bytes(), dir_flags, 0);
                if fd < 0 {
                    return fd;
                }
                let mut entries = vec![(".".to_string(), DT_DIR), ("..".to_string(), DT_DIR)];
                match t.node {
                    Node::FdDir | Node::FdinfoDir => {
                        let ty = if t.node == Node::FdDir {
                            DT_LNK
                        } else {
                            DT_REG
                        };
                        for k in 0..GUEST_FD_LIMIT {
                            if self.guest_fd_open(k) {
                                entries.push((k.to_string(), ty));
                            }
                        }
                    }
                    Node::TaskDir => {
                        for th in &self.threads.list {
                            if th.state != crate::threads::ThreadState::Exited {
                                entries.push((th.tid.to_string(), DT_DIR));
                            }
                        }
                    }
                    _ => {
                        for (n, ty) in [
                            ("task", DT_DIR),
                            ("fd", DT_DIR),
                            ("fdinfo", DT_DIR),
                            ("ns", DT_DIR),
                            ("net", DT_DIR),
                            ("environ", DT_REG),
                            ("auxv", DT_REG),
                            ("status", DT_REG),
                            ("limits", DT_REG),
                            ("cgroup", DT_REG),
                            ("comm", DT_REG),
                            ("cmdline", DT_REG),
                            ("stat", DT_REG),
                            ("statm", DT_REG),
                            ("maps", DT_REG),
                            ("mem", DT_REG),
                            ("mountinfo", DT_REG),
                            ("mounts", DT_REG),
                            ("mountstats", DT_REG),
                            ("cwd", DT_LNK),
                            ("root", DT_LNK),
                            ("exe", DT_LNK),
                            ("smaps", DT_REG),
                            ("oom_score_adj", DT_REG),
                            ("uid_map", DT_REG),
                            ("gid_map", DT_REG),
                            ("setgroups", DT_REG),
                        ] {
                            entries.push((n.to_string(), ty));
                        }
                    }
                }
                let _ = pid;
                self.sys.proc.fds.insert(
                    fd as i32,
                    Open::Dir {
                        path: t.name,
                        entries,
                        pos: 0,
                    },
                );
                fd
            }
        }
    }

    /// `readlink`/`readlinkat` of a path the VM answers: the target, or
    /// `-errno`. `None`: the host's.
    pub(crate) fn proc_readlink(&self, dirfd: i64, path: &[u8]) -> Option<Result<Vec<u8>, i64>> {
        let norm = self.proc_path(dirfd, path)?;
        let pid = self.sys.process.pid;
        match &norm[..] {
            b"proc/self" => return Some(Ok(pid.to_string().into_bytes())),
            b"proc/thread-self" => {
                let tid = self.threads.current().tid;
                return Some(Ok(format!("{pid}/task/{tid}").into_bytes()));
            }
            _ => {}
        }
        let t = match self.resolve(&norm)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        Some(match t.node {
            Node::Exe => Ok(self.sys.proc.exe.as_os_str().as_bytes().to_vec()),
            Node::Fd(n) => Ok(self.fd_target(n)),
            Node::Host(p) if p == "/proc/self/cwd" || p == "/proc/self/root" => {
                host_readlink(&p).ok_or(ENOENT)
            }
            Node::Host(p) if p.starts_with("/proc/self/ns/") => host_readlink(&p).ok_or(ENOENT),
            _ => Err(EINVAL),
        })
    }

    /// The host path for a metadata call (`stat`, `lstat`, `statx`) on a
    /// guest path: a path of the guest's `/proc` becomes the host's
    /// `/proc/self` counterpart, `exe` (followed) the program.
    pub(crate) fn meta_path(&self, dirfd: i64, addr: u64, nofollow: bool) -> Result<CString, i64> {
        let s = self.mem.read_cstr(addr, 4096).map_err(|_| EFAULT)?;
        let mapped = self
            .proc_path(dirfd, &s)
            .and_then(|norm| self.resolve(&norm));
        let host: Vec<u8> = match mapped {
            None => s,
            Some(Err(e)) => return Err(e),
            Some(Ok(t)) => match t.node {
                Node::Exe if !nofollow => self.sys.proc.exe.as_os_str().as_bytes().to_vec(),
                Node::Exe => b"/proc/self/exe".to_vec(),
                Node::Dir => b"/proc/self".to_vec(),
                Node::File(f) => format!("/proc/self/{f}").into_bytes(),
                Node::FdDir => b"/proc/self/fd".to_vec(),
                Node::FdinfoDir => b"/proc/self/fdinfo".to_vec(),
                Node::TaskDir => b"/proc/self/task".to_vec(),
                Node::Mem => b"/proc/self/mem".to_vec(),
                Node::Fd(n) => format!("/proc/self/fd/{n}").into_bytes(),
                Node::Host(p) => p.into_bytes(),
            },
        };
        CString::new(host).map_err(|_| EINVAL)
    }

    /// The path `execve` runs: `/proc/self/exe` (any spelling) is the
    /// program itself.
    pub(crate) fn exec_path(&self, dirfd: i64, addr: u64) -> Result<CString, i64> {
        let s = self.mem.read_cstr(addr, 4096).map_err(|_| EFAULT)?;
        let mapped = self
            .proc_path(dirfd, &s)
            .and_then(|norm| self.resolve(&norm));
        match mapped {
            Some(Ok(Target {
                node: Node::Exe, ..
            })) => CString::new(self.sys.proc.exe.as_os_str().as_bytes()).map_err(|_| EINVAL),
            Some(Ok(_)) => Err(EACCES),
            Some(Err(e)) => Err(e),
            None => CString::new(s).map_err(|_| EINVAL),
        }
    }

    /// What `/proc/self/fd/N` of the guest points to.
    pub(crate) fn fd_target(&self, n: i32) -> Vec<u8> {
        if let Some(o) = self.sys.proc.fds.get(&n) {
            return o.path().as_bytes().to_vec();
        }
        if let Some(t) = self.sys.fdview.std_target(n) {
            return t;
        }
        let t = host_readlink(&format!("/proc/self/fd/{n}")).unwrap_or_default();
        self.guest_view(t)
    }

    /// The contents of a generated file.
    fn proc_file(&self, f: &str, tid: Option<u32>) -> Vec<u8> {
        let pid = self.sys.process.pid;
        let tid = tid.unwrap_or(pid);
        let mem_range = |(lo, hi): (u64, u64)| -> Vec<u8> {
            if hi <= lo {
                return Vec::new();
            }
            self.mem
                .slice(lo, hi - lo)
                .map_or(Vec::new(), |s| s.to_vec())
        };
        match f {
            "maps" => self.maps_text(false).into_bytes(),
            "smaps" => self.maps_text(true).into_bytes(),
            "cmdline" => mem_range(self.sys.proc.arg),
            "environ" => mem_range(self.sys.proc.env),
            "auxv" => self.sys.proc.auxv.clone(),
            "comm" => format!("{}\n", self.comm()).into_bytes(),
            "status" => self.status_text(tid).into_bytes(),
            "stat" => self.stat_text(tid).into_bytes(),
            "statm" => {
                let (size, rss) = self.vm_sizes();
                let p = |b: u64| b / 4096;
                format!("{} {} 0 0 0 {} 0\n", p(size), p(rss), p(rss)).into_bytes()
            }
            "limits" => self.limits_text().into_bytes(),
            _ => Vec::new(),
        }
    }

    fn comm(&self) -> String {
        self.sys.proc.comm.clone()
    }

    fn maps_text(&self, smaps: bool) -> String {
        let mut out = String::new();
        for (s, m) in self.mem.mappings() {
            // Linux's stack mapping is as large as what was touched of it.
            let s = if m.backing == Backing::Stack {
                self.mem.stack_shown(s, m.end)
            } else {
                s
            };
            let perms = format!(
                "{}{}{}{}",
                if m.prot.read { 'r' } else { '-' },
                if m.prot.write { 'w' } else { '-' },
                if m.prot.exec { 'x' } else { '-' },
                if m.shared { 's' } else { 'p' }
            );
            let (off, name) = match &m.backing {
                // Linux names the file itself: links resolved.
                Backing::File { path, offset } => (
                    *offset,
                    std::fs::canonicalize(path)
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|_| path.clone()),
                ),
                Backing::Heap => (0, "[heap]".into()),
                Backing::Stack => (0, "[stack]".into()),
                // Shared anonymous memory is a file of the kernel's.
                Backing::Anonymous if m.shared => (0, "/dev/zero (deleted)".into()),
                Backing::Anonymous => (0, String::new()),
            };
            let head = format!("{s:012x}-{:012x} {perms} {off:08x} 00:00 0", m.end);
            if name.is_empty() {
                out.push_str(&head);
                out.push('\n');
            } else {
                out.push_str(&format!("{head:<73}{name}\n"));
            }
            if smaps {
                let kb = (m.end - s) / 1024;
                let anon = if matches!(m.backing, Backing::File { .. }) {
                    0
                } else {
                    kb
                };
                for (k, v) in [
                    ("Size", kb),
                    ("KernelPageSize", 4),
                    ("MMUPageSize", 4),
                    ("Rss", kb),
                    ("Pss", kb),
                    ("Pss_Dirty", anon),
                    ("Shared_Clean", 0),
                    ("Shared_Dirty", 0),
                    ("Private_Clean", kb - anon),
                    ("Private_Dirty", anon),
                    ("Referenced", kb),
                    ("Anonymous", anon),
                    ("KSM", 0),
                    ("LazyFree", 0),
                    ("AnonHugePages", 0),
                    ("ShmemPmdMapped", 0),
                    ("FilePmdMapped", 0),
                    ("Shared_Hugetlb", 0),
                    ("Private_Hugetlb", 0),
                    ("Swap", 0),
                    ("SwapPss", 0),
                    ("Locked", 0),
                ] {
                    out.push_str(&format!("{:<16}{v:>8} kB\n", format!("{k}:")));
                }
                out.push_str("THPeligible:    0\n");
                let flags = format!(
                    "{}{}{}mr mw me{}",
                    if m.prot.read { "rd " } else { "" },
                    if m.prot.write { "wr " } else { "" },
                    if m.prot.exec { "ex " } else { "" },
                    if m.backing == Backing::Stack {
                        " gd ac"
                    } else {
                        " ac"
                    }
                );
                out.push_str(&format!("VmFlags: {flags} \n"));
            }
        }
        out
    }

    /// Bytes mapped, and bytes counted as resident (every mapped page that
    /// is not `PROT_NONE`: the VM does not know which pages were touched,
    /// and a count must not depend on the host's).
    /// Threads that have not exited (`Threads:` of status, field 20 of stat).
    fn live_threads(&self) -> usize {
        self.threads
            .list
            .iter()
            .filter(|t| t.state != crate::threads::ThreadState::Exited)
            .count()
    }

    fn vm_sizes(&self) -> (u64, u64) {
        let (mut size, mut rss) = (0, 0);
        for (s, m) in self.mem.mappings() {
            size += m.end - s;
            if m.prot.read || m.prot.write || m.prot.exec {
                rss += m.end - s;
            }
        }
        (size, rss)
    }

    fn sig_sets(&self) -> (u64, u64, u64, u64) {
        let sig = &self.sys.sig;
        let (mut ign, mut cgt) = (0u64, 0u64);
        for s in 1..=64usize {
            let h = sig.actions[s].handler;
            if h == SIG_IGN {
                ign |= 1 << (s - 1);
            } else if h != SIG_DFL {
                cgt |= 1 << (s - 1);
            }
        }
        (sig.pending_set(), sig.blocked, ign, cgt)
    }

    fn ids(&self) -> [u32; 4] {
        // SAFETY: these calls cannot fail.
        unsafe {
            [
                libc::getuid(),
                libc::geteuid(),
                libc::getgid(),
                libc::getegid(),
            ]
        }
    }

    fn status_text(&self, tid: u32) -> String {
        let pid = self.sys.process.pid;
        let ppid = self.sys.process.ppid;
        let [uid, euid, gid, egid] = self.ids();
        let (size, rss) = self.vm_sizes();
        let kb = |b: u64| b / 1024;
        let stack = layout_stack();
        let (_, blk, ign, cgt) = self.sig_sets();
        // The thread's own pending signals, and the process's.
        let (own, shd) = (self.sys.sig.own_set(), self.sys.sig.shared_set());
        let threads = self.live_threads();
        let caps = if euid == 0 {
            "000001ffffffffff"
        } else {
            "0000000000000000"
        };
        // SAFETY: umask is read by setting it and setting it back.
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        format!(
            "Name:\t{comm}\nUmask:\t{umask:04o}\nState:\tR (running)\nTgid:\t{pid}\nNgid:\t0\n\
             Pid:\t{tid}\nPPid:\t{ppid}\nTracerPid:\t0\n\
             Uid:\t{uid}\t{euid}\t{euid}\t{euid}\nGid:\t{gid}\t{egid}\t{egid}\t{egid}\n\
             FDSize:\t64\nGroups:\t\nNStgid:\t{pid}\nNSpid:\t{tid}\nNSpgid:\t{pid}\nNSsid:\t{pid}\n\
             VmPeak:\t{vs:>8} kB\nVmSize:\t{vs:>8} kB\nVmLck:\t       0 kB\nVmPin:\t       0 kB\n\
             VmHWM:\t{rs:>8} kB\nVmRSS:\t{rs:>8} kB\nRssAnon:\t{rs:>8} kB\nRssFile:\t       0 kB\n\
             RssShmem:\t       0 kB\nVmData:\t{vs:>8} kB\nVmStk:\t{stk:>8} kB\nVmExe:\t       0 kB\n\
             VmLib:\t       0 kB\nVmPTE:\t       0 kB\nVmSwap:\t       0 kB\nHugetlbPages:\t       0 kB\n\
             CoreDumping:\t0\nTHP_enabled:\t1\nThreads:\t{threads}\nSigQ:\t0/63000\n\
             SigPnd:\t{own:016x}\nShdPnd:\t{shd:016x}\nSigBlk:\t{blk:016x}\n\
             SigIgn:\t{ign:016x}\nSigCgt:\t{cgt:016x}\nCapInh:\t0000000000000000\n\
             CapPrm:\t{caps}\nCapEff:\t{caps}\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n\
             NoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n\
             Speculation_Store_Bypass:\tthread vulnerable\n\
             SpeculationIndirectBranch:\tconditional enabled\n\
             Cpus_allowed:\t1\nCpus_allowed_list:\t0\nMems_allowed:\t1\nMems_allowed_list:\t0\n\
             voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n",
            comm = self.comm(),
            vs = kb(size),
            rs = kb(rss),
            stk = kb(stack),
        )
    }

    fn stat_text(&self, tid: u32) -> String {
        let pid = self.sys.process.pid;
        let ppid = self.sys.process.ppid;
        let (size, rss) = self.vm_sizes();
        let (pnd, blk, ign, cgt) = self.sig_sets();
        let (cs, cns) = self.clock.cputime();
        let ticks = cs * 100 + cns / 10_000_000;
        let threads = self.live_threads();
        let p = &self.sys.proc;
        let (code_lo, code_hi) = self
            .objects
            .first()
            .and_then(|o| {
                self.mem
                    .mappings()
                    .filter(|(_, m)| {
                        m.prot.exec
                            && matches!(&m.backing, Backing::File { path, .. } if *path == o.path)
                    })
                    .map(|(s, m)| (s, m.end))
                    .next()
            })
            .unwrap_or((0, 0));
        let fields: Vec<String> = vec![
            "R".into(),
            ppid.to_string(),
            pid.to_string(),
            pid.to_string(),
            "0".into(),
            "-1".into(),
            "4194304".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            ticks.to_string(),
            "0".into(),
            "0".into(),
            "0".into(),
            "20".into(),
            "0".into(),
            threads.to_string(),
            "0".into(),
            "0".into(),
            size.to_string(),
            (rss / 4096).to_string(),
            u64::MAX.to_string(),
            code_lo.to_string(),
            code_hi.to_string(),
            p.start_stack.to_string(),
            "0".into(),
            "0".into(),
            pnd.to_string(),
            blk.to_string(),
            ign.to_string(),
            cgt.to_string(),
            "0".into(),
            "0".into(),
            "0".into(),
            "17".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            self.mem.brk_start.to_string(),
            p.arg.0.to_string(),
            p.arg.1.to_string(),
            p.env.0.to_string(),
            p.env.1.to_string(),
            "0".into(),
        ];
        format!("{tid} ({}) {}\n", self.comm(), fields.join(" "))
    }

    fn limits_text(&self) -> String {
        let mut out = format!(
            "{:<26}{:<21}{:<21}{:<10}\n",
            "Limit", "Soft Limit", "Hard Limit", "Units"
        );
        for (name, soft, hard, unit) in [
            ("Max cpu time", "unlimited", "unlimited", "seconds"),
            ("Max file size", "unlimited", "unlimited", "bytes"),
            ("Max data size", "unlimited", "unlimited", "bytes"),
            ("Max stack size", "8388608", "unlimited", "bytes"),
            ("Max core file size", "0", "unlimited", "bytes"),
            ("Max resident set", "unlimited", "unlimited", "bytes"),
            ("Max processes", "63000", "63000", "processes"),
            ("Max open files", "1024", "1024", "files"),
            ("Max locked memory", "unlimited", "unlimited", "bytes"),
            ("Max address space", "unlimited", "unlimited", "bytes"),
            ("Max file locks", "unlimited", "unlimited", "locks"),
            ("Max pending signals", "63000", "63000", "signals"),
            ("Max msgqueue size", "819200", "819200", "bytes"),
            ("Max nice priority", "0", "0", ""),
            ("Max realtime priority", "0", "0", ""),
            ("Max realtime timeout", "unlimited", "unlimited", "us"),
        ] {
            out.push_str(&format!("{name:<26}{soft:<21}{hard:<21}{unit:<10}\n"));
        }
        out
    }

    /// `read`/`write`/`pread64`/`pwrite64`/`lseek`/`getdents64` on a
    /// descriptor the VM answers. `None`: the host's.
    pub(crate) fn proc_fd_call(&mut self, nr: i64, a: &[u64; 6]) -> Option<i64> {
        let fd = a[0] as i32;
        let o = self.sys.proc.fds.get(&fd)?.clone();
        match (o, nr) {
            (
                Open::Dir {
                    path,
                    entries,
                    mut pos,
                },
                libc::SYS_getdents64,
            ) => {
                let r = match dirents(&entries, &mut pos, a[2] as usize) {
                    Ok(bytes) => match self.mem.write(a[1], &bytes) {
                        Ok(()) => bytes.len() as i64,
                        Err(_) => EFAULT,
                    },
                    Err(e) => e,
                };
                self.sys
                    .proc
                    .fds
                    .insert(fd, Open::Dir { path, entries, pos });
                Some(r)
            }
            (Open::Dir { .. }, libc::SYS_getdents) => Some(EINVAL),
            (Open::Dir { path, entries, .. }, libc::SYS_lseek) => {
                if a[2] != libc::SEEK_SET as u64 || a[1] as usize > entries.len() {
                    return Some(EINVAL);
                }
                let pos = a[1] as usize;
                self.sys
                    .proc
                    .fds
                    .insert(fd, Open::Dir { path, entries, pos });
                Some(pos as i64)
            }
            (Open::Mem { path, pos }, nr) => {
                let (buf, len) = (a[1], a[2]);
                let (at, advance) = match nr {
                    libc::SYS_read | libc::SYS_write => (pos, true),
                    libc::SYS_pread64 | libc::SYS_pwrite64 => (a[3], false),
                    libc::SYS_lseek => {
                        let new = match a[2] as i32 {
                            libc::SEEK_SET => a[1],
                            libc::SEEK_CUR => pos.wrapping_add(a[1]),
                            _ => return Some(EINVAL),
                        };
                        self.sys.proc.fds.insert(fd, Open::Mem { path, pos: new });
                        return Some(new as i64);
                    }
                    libc::SYS_readv | libc::SYS_writev | libc::SYS_preadv | libc::SYS_pwritev => {
                        return Some(EINVAL)
                    }
                    _ => return None,
                };
                let write = nr == libc::SYS_write || nr == libc::SYS_pwrite64;
                let len = len.min(1 << 30);
                // Byte ranges of guest memory; stop at the first unmapped page.
                let mut done = 0u64;
                while done < len {
                    let addr = at.wrapping_add(done);
                    let chunk = (4096 - addr % 4096).min(len - done);
                    if self.mem.mapping_at(addr).is_none() {
                        break;
                    }
                    let r = if write {
                        self.mem
                            .slice(buf + done, chunk)
                            .map(|s| s.to_vec())
                            .map_err(|_| EFAULT)
                            .and_then(|d| {
                                self.mem.write(addr, &d).map_err(|_| EIO)?;
                                self.flush.push((addr, addr + chunk));
                                self.blocks.invalidate(addr, addr + chunk);
                                Ok(())
                            })
                    } else {
                        self.mem
                            .slice(addr, chunk)
                            .map(|s| s.to_vec())
                            .map_err(|_| EIO)
                            .and_then(|d| self.mem.write(buf + done, &d).map_err(|_| EFAULT))
                    };
                    if let Err(e) = r {
                        if done == 0 {
                            return Some(e);
                        }
                        break;
                    }
                    done += chunk;
                }
                if done == 0 && len > 0 {
                    return Some(EIO);
                }
                if advance {
                    self.sys.proc.fds.insert(
                        fd,
                        Open::Mem {
                            path,
                            pos: pos.wrapping_add(done),
                        },
                    );
                }
                Some(done as i64)
            }
            _ => None,
        }
    }
}

/// The stack's size as the VM lays it out.
fn layout_stack() -> u64 {
    crate::memory::layout::STACK_SIZE
}
