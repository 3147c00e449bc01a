//! Child processes of the guest: `fork`, `vfork` and `clone` without
//! `CLONE_VM` fork the pathvm process itself (the child goes on emulating the
//! guest), `execve` ends the emulation and hands the new program to the
//! command line (which runs it natively, or under pathvm with
//! `--trace-children`), and `wait4`/`waitid`/`kill` translate the guest's
//! virtual pids to host pids.
//!
//! Virtual pids are deterministic: the k-th child a process forks gets its
//! parent's next number (1001, 1002, ... for the first process). Each
//! process image has a profile suffix: the k-th child (forked or exec'd) of
//! the image whose suffix is `S` has suffix `S.k`, so `--trace-children`
//! writes `FILE`, `FILE.1`, `FILE.2`, `FILE.2.1`, ... in an order that does
//! not depend on scheduling.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::sync::Mutex;

/// What this host process is, for the command line.
static IDENTITY: Mutex<Option<ChildIdentity>> = Mutex::new(None);
/// An `execve` the guest made, for the command line to carry out.
static EXEC: Mutex<Option<ExecRequest>> = Mutex::new(None);

/// A forked child's place among the guest's processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildIdentity {
    /// Its profile suffix (`.1`, `.2.1`, ...).
    pub suffix: String,
    /// Its virtual pid.
    pub pid: u32,
}

/// Ends this process by `signal`, as the guest died (so that the guest's
/// parent sees what a native run shows): the signal's default action, no
/// core file. Returns 128 + `signal`, the status to exit with should the
/// signal not end the process.
pub fn die_of_signal(signal: i32) -> i32 {
    // SAFETY: plain libc calls on values made here; the process ends.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
    }
    128 + signal
}

/// `Some` in a process forked by the guest (the run's end is the child's).
pub fn forked_child() -> Option<ChildIdentity> {
    IDENTITY.lock().ok().and_then(|g| g.clone())
}

/// The program the guest replaced itself with (`execve`), if it did: the run
/// stopped there, and the caller runs it (after writing the profile).
pub fn take_exec_request() -> Option<ExecRequest> {
    EXEC.lock().ok().and_then(|mut g| g.take())
}

/// Whether the guest called `execve` (the request is not taken yet).
pub(crate) fn exec_pending() -> bool {
    EXEC.lock().is_ok_and(|g| g.is_some())
}

/// The guest called `execve` and the file is there and executable.
#[derive(Clone, Debug)]
pub struct ExecRequest {
    /// The file to run (an interpreter when the file starts with `#!`).
    pub program: PathBuf,
    /// Its argument vector (rewritten for `#!` as the kernel does).
    pub argv: Vec<OsString>,
    /// The environment the guest passed.
    pub envp: Vec<OsString>,
    /// The guest's blocked signals and the signals it ignores: both survive
    /// `execve`.
    pub blocked: u64,
    pub ignored: u64,
    /// Its `RLIMIT_STACK` (soft, hard): it survives `execve` too, and sizes
    /// the new image's stack.
    pub stack_limit: (u64, u64),
    /// The profile suffix of the new image (its parent image's next child).
    pub suffix: String,
    /// The pid the guest has (the new image keeps it).
    pub pid: u32,
    /// The user and group ids the new image starts with.
    pub ids: crate::identity::Identity,
}

impl ExecRequest {
    /// Replace this process with the program, natively. Returns only on
    /// failure.
    pub fn exec_native(&self) -> std::io::Error {
        exec_host(
            &self.program,
            &self.argv,
            &self.envp,
            self.blocked,
            self.ignored,
        )
    }
}

/// `execve` on the host with the guest's mask and ignored signals.
pub fn exec_host(
    program: &std::path::Path,
    argv: &[OsString],
    envp: &[OsString],
    blocked: u64,
    ignored: u64,
) -> std::io::Error {
    let c = |s: &OsString| CString::new(s.clone().into_vec()).ok();
    let (Some(path), Some(argv), Some(envp)) = (
        CString::new(program.as_os_str().as_encoded_bytes()).ok(),
        argv.iter().map(c).collect::<Option<Vec<_>>>(),
        envp.iter().map(c).collect::<Option<Vec<_>>>(),
    ) else {
        return std::io::Error::from_raw_os_error(libc::EINVAL);
    };
    let mut argp: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argp.push(std::ptr::null());
    let mut envpp: Vec<*const libc::c_char> = envp.iter().map(|a| a.as_ptr()).collect();
    envpp.push(std::ptr::null());
    // SAFETY: plain calls on valid, NUL-terminated arrays of C strings that
    // live across the call.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in 1..=64 {
            if blocked & (1u64 << (sig - 1)) != 0 {
                libc::sigaddset(&mut set, sig);
            }
            // Only the guest's ignored signals stay ignored across execve:
            // pathvm's own (the Rust runtime ignores SIGPIPE) go back to
            // the default, or `sort | head` under a guest shell would see
            // EPIPE where it natively dies of SIGPIPE.
            if ignored & (1u64 << (sig - 1)) != 0 {
                libc::signal(sig, libc::SIG_IGN);
            } else if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
        libc::execve(path.as_ptr(), argp.as_ptr(), envpp.as_ptr());
    }
    std::io::Error::last_os_error()
}

/// The process side of the guest kept for system calls.
pub(crate) struct ProcessState {
    pub pid: u32,
    pub ppid: u32,
    /// Children: virtual pid and host pid, in creation order.
    children: Vec<(u32, libc::pid_t)>,
    /// The timeline's slot of each child that has one, by host pid
    /// ([`crate::timeline`]).
    slots: Vec<(libc::pid_t, usize)>,
    /// Children whose end was reported with SIGCHLD (not reaped yet).
    reported: Vec<libc::pid_t>,
    next_vpid: u32,
    /// Profile suffix of this image and the number of its next child.
    suffix: String,
    next_child: u32,
}

impl ProcessState {
    pub(crate) fn new(pid: u32) -> ProcessState {
        ProcessState {
            pid,
            ppid: pid.saturating_sub(1),
            children: Vec::new(),
            slots: Vec::new(),
            reported: Vec::new(),
            next_vpid: pid + 1,
            suffix: String::new(),
            next_child: 1,
        }
    }

    /// The next child's virtual pid and profile suffix.
    fn next(&mut self) -> (u32, String) {
        let vpid = self.next_vpid;
        self.next_vpid += 1;
        let suffix = format!("{}.{}", self.suffix, self.next_child);
        self.next_child += 1;
        (vpid, suffix)
    }

    /// A new thread's tid: the next virtual pid (threads and processes share
    /// the numbers, as on Linux), without a profile suffix.
    pub(crate) fn next_tid(&mut self) -> u32 {
        let tid = self.next_vpid;
        self.next_vpid += 1;
        tid
    }

    /// The virtual pid the next child or thread will get.
    pub(crate) fn next_vpid(&self) -> u32 {
        self.next_vpid
    }

    /// Host pids of the children not yet reaped.
    pub(crate) fn child_host_pids(&self) -> Vec<libc::pid_t> {
        self.children.iter().map(|c| c.1).collect()
    }

    /// Host pid of a virtual pid (`pid > 0`).
    pub(crate) fn host_pid(&self, vpid: i64) -> Option<libc::pid_t> {
        self.children
            .iter()
            .find(|c| c.0 as i64 == vpid)
            .map(|c| c.1)
    }

    /// Virtual pid of a host pid (the host pid itself if unknown).
    pub(crate) fn virtual_pid(&self, host: libc::pid_t) -> i64 {
        self.children
            .iter()
            .find(|c| c.1 == host)
            .map_or(host as i64, |c| c.0 as i64)
    }

    fn forget(&mut self, host: libc::pid_t) {
        self.children.retain(|c| c.1 != host);
        self.reported.retain(|&p| p != host);
    }

    /// The timeline's slot of child `host`, if it has one.
    pub(crate) fn slot_of(&self, host: libc::pid_t) -> Option<usize> {
        self.slots.iter().find(|s| s.0 == host).map(|s| s.1)
    }

    /// Child `host`'s end was told to the guest: when it ended on the
    /// timeline (`None`: unknown), and its slot is free again.
    pub(crate) fn end_told(&mut self, host: libc::pid_t) -> Option<u64> {
        let i = self.slot_of(host)?;
        let at = crate::timeline::ended(i);
        crate::timeline::release(i);
        self.slots.retain(|s| s.0 != host);
        at
    }

    /// When child `host` ended on the timeline, if it did.
    pub(crate) fn ended_at(&self, host: libc::pid_t) -> Option<u64> {
        self.slot_of(host).and_then(crate::timeline::ended)
    }

    /// Can another process of the guest hold this one's pipes: it has
    /// children not reaped yet, or it is itself a child (forked or run by
    /// `execve` under the VM)?
    pub(crate) fn shared(&self) -> bool {
        !self.children.is_empty() || !self.suffix.is_empty()
    }

    /// Host pids of the children whose end was not reported yet.
    pub(crate) fn unreported_children(&self) -> Vec<libc::pid_t> {
        self.children
            .iter()
            .map(|c| c.1)
            .filter(|p| !self.reported.contains(p))
            .collect()
    }

    /// The end of child `host` was reported (SIGCHLD).
    pub(crate) fn reported(&mut self, host: libc::pid_t) {
        if !self.reported.contains(&host) {
            self.reported.push(host);
        }
    }
}

/// `clone` flags used here.
pub(crate) mod clone {
    pub const VM: u64 = 0x100;
    pub const VFORK: u64 = 0x4000;
    pub const THREAD: u64 = 0x10000;
    pub const SIGHAND: u64 = 0x800;
    pub const SETTLS: u64 = 0x80000;
    pub const PARENT_SETTID: u64 = 0x0010_0000;
    pub const CHILD_CLEARTID: u64 = 0x0020_0000;
    pub const CHILD_SETTID: u64 = 0x0100_0000;
}

/// What a fork gives the guest.
pub(crate) enum Forked {
    Parent(u32),
    /// In the child: the stack pointer to start with (0: the parent's).
    Child {
        stack: u64,
    },
}

fn errno() -> i64 {
    -(std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO) as i64)
}

impl ProcessState {
    /// Fork the host process. With `CLONE_VFORK` the parent waits until the
    /// child has called `execve` or ended (a close-on-exec pipe tells it).
    /// The child starts at time `now` on the timeline.
    pub(crate) fn fork(&mut self, flags: u64, stack: u64, now: u64) -> Result<Forked, i64> {
        let vfork = flags & clone::VFORK != 0;
        let mut pipe = [-1i32; 2];
        // SAFETY: `pipe` has room for two descriptors.
        if vfork && unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(errno());
        }
        let (vpid, suffix) = self.next();
        let slot = crate::timeline::fork_slot(vpid, now);
        // SAFETY: pathvm runs the guest on this one thread (a progress
        // thread, if any, only reads an atomic and is not needed in the child).
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            let e = errno();
            if let Some(i) = slot {
                crate::timeline::forked(i, -1);
            }
            if vfork {
                // SAFETY: our own descriptors.
                unsafe {
                    libc::close(pipe[0]);
                    libc::close(pipe[1]);
                }
            }
            return Err(e);
        }
        if pid == 0 {
            if vfork {
                // SAFETY: our own descriptor; the write end closes at execve
                // or exit, which wakes the parent.
                unsafe { libc::close(pipe[0]) };
            }
            self.ppid = self.pid;
            self.pid = vpid;
            self.children.clear();
            self.slots.clear();
            self.reported.clear();
            if let Some(i) = slot {
                crate::timeline::become_child(i);
            }
            self.suffix = suffix.clone();
            self.next_child = 1;
            if let Ok(mut g) = IDENTITY.lock() {
                *g = Some(ChildIdentity { suffix, pid: vpid });
            }
            return Ok(Forked::Child { stack });
        }
        self.children.push((vpid, pid));
        if let Some(i) = slot {
            crate::timeline::forked(i, pid);
            self.slots.push((pid, i));
        }
        if vfork {
            // SAFETY: our own descriptors; the read returns 0 when the child
            // has closed its end.
            unsafe {
                libc::close(pipe[1]);
                let mut b = 0u8;
                loop {
                    let r = libc::read(pipe[0], &mut b as *mut u8 as *mut libc::c_void, 1);
                    if r >= 0 || *libc::__errno_location() != libc::EINTR {
                        break;
                    }
                }
                libc::close(pipe[0]);
            }
        }
        Ok(Forked::Parent(vpid))
    }

    /// `execve`: check the file, resolve `#!`, and leave the request for the
    /// command line. `Err(-errno)` leaves the guest running.
    pub(crate) fn exec(
        &mut self,
        path: PathBuf,
        argv: Vec<OsString>,
        envp: Vec<OsString>,
        blocked: u64,
        ignored: u64,
        stack_limit: (u64, u64),
        ids: crate::identity::Identity,
    ) -> Result<(), i64> {
        let (program, argv) = resolve_script(path, argv, 0)?;
        let (_, suffix) = self.next();
        let req = ExecRequest {
            program,
            argv,
            envp,
            blocked,
            ignored,
            stack_limit,
            suffix,
            pid: self.pid,
            ids,
        };
        if let Ok(mut g) = EXEC.lock() {
            *g = Some(req);
        }
        Ok(())
    }

    /// `wait4`: the guest's pid argument translated, the host's answer
    /// translated back, with the time the reaped child ended on the
    /// timeline (when known).
    pub(crate) fn wait4(&mut self, pid: i64, status: i64, options: i64) -> (i64, Option<u64>) {
        let host_pid = match pid {
            p if p > 0 => match self.host_pid(p) {
                Some(h) => h as i64,
                None => return (-(libc::ECHILD as i64), None),
            },
            // Process groups are not virtual: any child.
            _ => -1,
        };
        // SAFETY: `status` is null or a host pointer to 4 bytes of guest memory.
        let r = unsafe {
            libc::syscall(
                libc::SYS_wait4,
                host_pid,
                status,
                options,
                std::ptr::null_mut::<libc::c_void>(),
            )
        };
        if r < 0 {
            return (errno(), None);
        }
        if r == 0 {
            return (0, None);
        }
        let v = self.virtual_pid(r as libc::pid_t);
        let exited = status == 0 || {
            // SAFETY: as above.
            let s = unsafe { *(status as *const i32) };
            libc::WIFEXITED(s) || libc::WIFSIGNALED(s)
        };
        let mut at = None;
        if exited {
            at = self.end_told(r as libc::pid_t);
            self.forget(r as libc::pid_t);
        }
        (v, at)
    }

    /// Children `pid` names for `wait4` (`pid` > 0: that one; otherwise
    /// any), by host pid.
    pub(crate) fn waited_children(&self, pid: i64) -> Vec<libc::pid_t> {
        self.children
            .iter()
            .filter(|c| pid <= 0 || c.0 as i64 == pid)
            .map(|c| c.1)
            .collect()
    }
}

/// The program of `pathvm run COMMAND...` as a shell finds it, and the
/// argument vector the kernel gives it: a name without a slash is looked
/// up on the host's `PATH` (`NAME: command not found`, status 127, when it
/// is not there); a `#!` script runs its interpreter, whose argv is
/// `[interpreter, optional argument, script path, arguments...]`.
/// `Err((message, status))`: a one-line message (escaped) and the exit
/// status a shell gives (127 not found, 126 not executable).
pub fn resolve_command(command: &[OsString]) -> Result<(PathBuf, Vec<OsString>), (String, i32)> {
    use std::os::unix::ffi::OsStrExt;
    let name = command.first().cloned().unwrap_or_default();
    let mut path = PathBuf::from(&name);
    if !name.as_bytes().contains(&b'/') && !name.is_empty() {
        let dirs = std::env::var_os("PATH")
            .unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
        let found = std::env::split_paths(&dirs).find_map(|d| {
            let d = if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d
            };
            let p = d.join(&name);
            let c = CString::new(p.as_os_str().as_bytes()).ok()?;
            // SAFETY: a NUL-terminated path.
            let exec = unsafe { libc::access(c.as_ptr(), libc::X_OK) } == 0;
            (exec && p.is_file()).then_some(p)
        });
        match found {
            Some(p) => path = p,
            None => {
                return Err((
                    format!("{}: command not found", loader::escape(name.as_bytes())),
                    127,
                ))
            }
        }
    }
    let mut argv = command.to_vec();
    // A `#!` script: its interpreter runs under the VM.
    let mut head = [0u8; 2];
    let is_script = std::fs::File::open(&path)
        .and_then(|mut f| {
            use std::io::Read;
            f.read_exact(&mut head)
        })
        .is_ok()
        && &head == b"#!";
    if is_script {
        argv[0] = path.clone().into_os_string();
        let quoted = loader::escape(path.as_os_str().as_bytes());
        return match resolve_script(path, argv.clone(), 0) {
            Ok(found) => Ok(found),
            Err(e) => {
                let err = std::io::Error::from_raw_os_error((-e) as i32).to_string();
                let err = err.split(" (os error").next().unwrap_or("").to_string();
                let status = if e == -(libc::ENOENT as i64) {
                    127
                } else {
                    126
                };
                Err((format!("{quoted}: bad interpreter: {err}"), status))
            }
        };
    }
    Ok((path, argv))
}

/// Check that `path` can be executed and resolve `#!` lines (up to 4 levels,
/// as Linux).
fn resolve_script(
    path: PathBuf,
    argv: Vec<OsString>,
    depth: u32,
) -> Result<(PathBuf, Vec<OsString>), i64> {
    let c =
        CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| -(libc::EINVAL as i64))?;
    // SAFETY: a NUL-terminated path.
    if unsafe { libc::access(c.as_ptr(), libc::X_OK) } != 0 {
        return Err(errno());
    }
    if path.is_dir() {
        return Err(-(libc::EACCES as i64));
    }
    let mut head = [0u8; 256];
    let n = {
        use std::io::Read;
        let mut f = std::fs::File::open(&path)
            .map_err(|e| -(e.raw_os_error().unwrap_or(libc::EACCES) as i64))?;
        f.read(&mut head).unwrap_or(0)
    };
    if n < 2 || &head[..2] != b"#!" {
        return Ok((path, argv));
    }
    if depth >= 4 {
        return Err(-(libc::ELOOP as i64));
    }
    let line = head[2..n].split(|&b| b == b'\n').next().unwrap_or(&[]);
    let line = String::from_utf8_lossy(line).trim().to_string();
    let (interp, arg) = match line.split_once([' ', '\t']) {
        Some((i, a)) => (i.to_string(), Some(a.trim().to_string())),
        None => (line.clone(), None),
    };
    if interp.is_empty() {
        return Err(-(libc::ENOEXEC as i64));
    }
    let mut new_argv = vec![OsString::from(&interp)];
    if let Some(a) = arg.filter(|a| !a.is_empty()) {
        new_argv.push(OsString::from(a));
    }
    new_argv.push(path.into_os_string());
    new_argv.extend(argv.into_iter().skip(1));
    resolve_script(PathBuf::from(interp), new_argv, depth + 1)
}
