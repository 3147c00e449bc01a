//! One virtual timeline for the guest's whole process tree.
//!
//! Every process of the guest (forked children, images run by `execve`) is
//! a pathvm host process with its own virtual clock ([`crate::clock`]). The
//! clocks are positions on one timeline: a forked child starts at its
//! parent's time, an image run by `execve` at the time of the call (its
//! CPU clock starts again at zero), and a parent that learns of a child's
//! end (SIGCHLD, `wait4`) is at least at the child's time of death.
//!
//! A process jumps its clock when it sleeps, or when all its threads wait
//! and a deadline (a timeout, a timer) is the next thing to happen. Such a
//! jump to time `D` is the one place where processes must agree: a
//! process may make it only when no other process of the tree can still
//! act before `D`. So a process whose threads all wait publishes its next
//! deadline, a running one its time (at each system call and every few
//! million instructions), and the jump to `D` waits until every other live
//! process of the tree
//!
//! - runs at `D` or later (its published time), or
//! - waits with no deadline, or a deadline after `D` (the lower pid first
//!   at equal deadlines), and no child of it that ended before `D` is still
//!   to be told to it. A process in a host system call that would block
//!   (a read with nothing to read, a write to a full pipe, a lock) waits
//!   with no deadline: for something only another process can do.
//!
//! `timeout 0.5 sleep 5` therefore ends with the parent's timer at 0.5 s,
//! as natively: the child's sleep to 5 s waits for the parent's earlier
//! deadline, the parent's timer fires and kills the child. And a parent
//! waiting with a timer armed for a child learns of the child's end only
//! if the child ended before the timer's deadline.
//!
//! The table lives in a shared memory file (a memfd) that the first
//! process creates, forked children inherit, and the command line passes
//! to the images it runs (`run --timeline FD`, a descriptor above the
//! guest's). Each process owns one slot and is its only writer, under a
//! sequence lock; a child's slot passes to its parent once the child has
//! ended. A tree of more than [`SLOTS`] live processes runs its extra
//! processes without a slot: they neither wait nor are waited for.

use std::sync::atomic::{fence, AtomicI32, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Slots of the table: processes of one tree alive (or ended and not yet
/// reaped) at the same time.
pub const SLOTS: usize = 4096;

const FREE: u32 = 0;
const RUNNING: u32 = 1;
const WAITING: u32 = 2;
const EXITED: u32 = 3;

/// Published with `WAITING`: the process would act on a child's end.
const WANTS_CHILDREN: u32 = 1;

#[repr(C)]
struct Slot {
    /// Odd while its owner writes it.
    seq: AtomicU32,
    state: AtomicU32,
    flags: AtomicU32,
    /// Host pid of the process.
    host: AtomicI32,
    /// The parent's slot + 1 (0: none in the table).
    parent: AtomicU32,
    /// Virtual pid (ties between equal deadlines go to the lower one).
    pid: AtomicU32,
    /// Virtual time the process is at (running: at least this).
    now: AtomicU64,
    /// While `WAITING`: its next deadline (`u64::MAX`: none).
    deadline: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 40);

/// What one read of a slot gave.
#[derive(Clone, Copy, Debug)]
struct View {
    state: u32,
    flags: u32,
    host: i32,
    pid: u32,
    now: u64,
    deadline: u64,
}

static TABLE: AtomicPtr<Slot> = AtomicPtr::new(std::ptr::null_mut());
static FD: AtomicI32 = AtomicI32::new(-1);
/// This process's slot + 1 (0: none).
static ME: AtomicUsize = AtomicUsize::new(0);
/// The time of this image's first instruction on the timeline.
static START_NS: AtomicU64 = AtomicU64::new(0);

fn table() -> Option<&'static [Slot]> {
    let p = TABLE.load(Ordering::Acquire);
    // SAFETY: a mapping of SLOTS slots made once and never unmapped; every
    // field is atomic, so other processes writing it is fine.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, SLOTS) })
}

fn map(fd: i32) -> bool {
    let len = SLOTS * std::mem::size_of::<Slot>();
    // SAFETY: a shared mapping of our own descriptor, kept for the life of
    // the process.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return false;
    }
    TABLE.store(p as *mut Slot, Ordering::Release);
    FD.store(fd, Ordering::Release);
    true
}

fn my_pid() -> i32 {
    // SAFETY: getpid cannot fail.
    unsafe { libc::getpid() }
}

/// Write slot `i` (its owner only).
fn write(i: usize, f: impl FnOnce(&Slot)) {
    let Some(t) = table() else { return };
    let s = &t[i];
    s.seq.fetch_add(1, Ordering::AcqRel);
    fence(Ordering::Release);
    f(s);
    s.seq.fetch_add(1, Ordering::Release);
}

fn read(i: usize) -> Option<View> {
    let s = &table()?[i];
    loop {
        let a = s.seq.load(Ordering::Acquire);
        if a & 1 == 1 {
            std::hint::spin_loop();
            continue;
        }
        let v = View {
            state: s.state.load(Ordering::Relaxed),
            flags: s.flags.load(Ordering::Relaxed),
            host: s.host.load(Ordering::Relaxed),
            pid: s.pid.load(Ordering::Relaxed),
            now: s.now.load(Ordering::Relaxed),
            deadline: s.deadline.load(Ordering::Relaxed),
        };
        fence(Ordering::Acquire);
        if s.seq.load(Ordering::Relaxed) == a {
            return Some(v);
        }
    }
}

/// Claim a free slot for a process at time `now`.
fn claim(pid: u32, parent: usize, now: u64, host: i32) -> Option<usize> {
    let t = table()?;
    let i = (0..SLOTS).find(|&i| {
        t[i].state
            .compare_exchange(FREE, RUNNING, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    })?;
    write(i, |s| {
        s.flags.store(0, Ordering::Relaxed);
        s.host.store(host, Ordering::Relaxed);
        s.parent.store(parent as u32, Ordering::Relaxed);
        s.pid.store(pid, Ordering::Relaxed);
        s.now.store(now, Ordering::Relaxed);
        s.deadline.store(u64::MAX, Ordering::Relaxed);
    });
    Some(i)
}

/// The first process of a tree: make the table and take its first slot.
/// Does nothing when the process has one already ([`attach`]).
pub(crate) fn ensure(pid: u32) {
    if ME.load(Ordering::Acquire) != 0 || !TABLE.load(Ordering::Acquire).is_null() {
        return;
    }
    let name = c"pathvm-timeline";
    // SAFETY: plain calls on a descriptor we create; the mapping is kept.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return;
    }
    let len = (SLOTS * std::mem::size_of::<Slot>()) as libc::off_t;
    // SAFETY: our own descriptor.
    if unsafe { libc::ftruncate(fd, len) } != 0 {
        unsafe { libc::close(fd) };
        return;
    }
    // Out of the guest's reach, as pathvm's other descriptors.
    let high = crate::fdview::reserve_fd(fd);
    let fd = if high >= 0 {
        // SAFETY: the low copy is ours.
        unsafe { libc::close(fd) };
        high
    } else {
        fd
    };
    if !map(fd) {
        return;
    }
    if let Some(i) = claim(pid, 0, 0, my_pid()) {
        ME.store(i + 1, Ordering::Release);
    }
}

/// An image run by `execve` joins its process's slot (the table's
/// descriptor `fd` came from `run --timeline`): the slot with this host
/// pid. Its clock starts at the slot's time. False when `fd` is not a
/// table.
pub fn attach(fd: i32) -> bool {
    if !map(fd) {
        return false;
    }
    // SAFETY: our own descriptor; only its flags change.
    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    let me = my_pid();
    let found = (0..SLOTS)
        .find(|&i| read(i).is_some_and(|v| v.state != FREE && v.state != EXITED && v.host == me));
    if let Some(i) = found {
        ME.store(i + 1, Ordering::Release);
        START_NS.store(read(i).map_or(0, |v| v.now), Ordering::Release);
        running_at(i, START_NS.load(Ordering::Relaxed));
    }
    true
}

/// The table's descriptor, for `run --timeline` of an image run by
/// `execve`, with its close-on-exec flag cleared (the caller is about to
/// run pathvm again). `None` without a table.
pub fn pass_on_exec() -> Option<i32> {
    let fd = FD.load(Ordering::Acquire);
    if fd < 0 || ME.load(Ordering::Acquire) == 0 {
        return None;
    }
    // SAFETY: our own descriptor; only its flags change.
    unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
    Some(fd)
}

/// Where this image's clock starts on the timeline (0 for the first).
pub(crate) fn start_ns() -> u64 {
    START_NS.load(Ordering::Acquire)
}

fn me() -> Option<usize> {
    ME.load(Ordering::Acquire).checked_sub(1)
}

fn running_at(i: usize, now: u64) {
    write(i, |s| {
        s.now.store(now, Ordering::Relaxed);
        s.deadline.store(u64::MAX, Ordering::Relaxed);
        s.flags.store(0, Ordering::Relaxed);
        s.state.store(RUNNING, Ordering::Relaxed);
    });
}

/// This process runs at time `now`.
pub(crate) fn running(now: u64) {
    if let Some(i) = me() {
        running_at(i, now);
    }
}

/// Every thread of this process waits, at time `now`, until `deadline` at
/// the latest (`None`: no deadline); `children`: a child's end would wake
/// one.
pub(crate) fn waiting(now: u64, deadline: Option<u64>, children: bool) {
    if let Some(i) = me() {
        write(i, |s| {
            s.now.store(now, Ordering::Relaxed);
            s.deadline
                .store(deadline.unwrap_or(u64::MAX), Ordering::Relaxed);
            s.flags
                .store(if children { WANTS_CHILDREN } else { 0 }, Ordering::Relaxed);
            s.state.store(WAITING, Ordering::Relaxed);
        });
    }
}

/// This process's guest ended at time `now`; its parent takes the slot
/// over when it learns of the end.
pub(crate) fn exited(now: u64) {
    if let Some(i) = me() {
        write(i, |s| {
            s.now.store(now, Ordering::Relaxed);
            s.state.store(EXITED, Ordering::Relaxed);
        });
    }
}

/// Before a fork: a slot for the child, at time `now` (`None`: no table or
/// no free slot).
pub(crate) fn fork_slot(pid: u32, now: u64) -> Option<usize> {
    let parent = me().map_or(0, |i| i + 1);
    claim(pid, parent, now, 0)
}

/// After the fork, in the child: slot `i` is this process's.
pub(crate) fn become_child(i: usize) {
    ME.store(i + 1, Ordering::Release);
    let host = my_pid();
    write(i, |s| s.host.store(host, Ordering::Relaxed));
}

/// After the fork, in the parent: the child's host pid (or the fork
/// failed: `host` < 0 frees the slot).
pub(crate) fn forked(i: usize, host: i32) {
    if host < 0 {
        release(i);
        return;
    }
    // Written by the child too; the same value.
    if let Some(t) = table() {
        t[i].host.store(host, Ordering::Release);
    }
}

/// The time child slot `i` ended at, if it did (an ended host process that
/// did not say so: the last time it published).
pub(crate) fn ended(i: usize) -> Option<u64> {
    let v = read(i)?;
    match v.state {
        EXITED => Some(v.now),
        FREE => None,
        _ if gone(v.host) => Some(v.now),
        _ => None,
    }
}

/// Forget child slot `i`: its end was told to its parent.
pub(crate) fn release(i: usize) {
    if let Some(t) = table() {
        t[i].state.store(FREE, Ordering::Release);
    }
}

/// Whether host process `host` has ended (or never was).
fn gone(host: i32) -> bool {
    if host <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks the pid.
    if unsafe { libc::kill(host, 0) } != 0 {
        return std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    }
    // A zombie: ended, not reaped.
    std::fs::read(format!("/proc/{host}/stat")).is_ok_and(|b| {
        let close = b.iter().rposition(|&c| c == b')').unwrap_or(0);
        b.get(close + 2) == Some(&b'Z')
    })
}

/// May this process (virtual pid `pid`) jump its clock to `d`: can no
/// other process of the tree still act before `d`? (See the module's
/// comment.)
pub(crate) fn may_pass(d: u64, pid: u32) -> bool {
    let (Some(t), Some(mine)) = (table(), me()) else {
        return true;
    };
    let first = |at: u64, other: u32| at < d || (at == d && other < pid);
    for i in 0..SLOTS {
        if i == mine || t[i].state.load(Ordering::Relaxed) == FREE {
            continue;
        }
        let Some(v) = read(i) else { continue };
        let earlier = match v.state {
            RUNNING => first(v.now, v.pid),
            WAITING => {
                first(v.deadline, v.pid)
                    || (v.flags & WANTS_CHILDREN != 0 && child_ended_before(t, i, &first))
            }
            _ => false,
        };
        if earlier && !gone(v.host) {
            return false;
        }
    }
    true
}

/// Has a child of slot `p` ended before the deadline (`first`)?
fn child_ended_before(t: &[Slot], p: usize, first: &dyn Fn(u64, u32) -> bool) -> bool {
    (0..SLOTS).any(|i| {
        t[i].parent.load(Ordering::Relaxed) as usize == p + 1
            && t[i].state.load(Ordering::Relaxed) == EXITED
            && read(i).is_some_and(|v| v.state == EXITED && first(v.now, v.pid))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jump_waits_for_an_earlier_deadline() {
        ensure(1000);
        let me = me().unwrap();
        let child = fork_slot(1001, 10).unwrap();
        forked(child, my_pid());
        // The child runs at 10: nothing may pass 20 yet.
        assert!(!may_pass(20, 1000));
        assert!(may_pass(5, 1000));
        // It waits until 30: 20 may pass, 40 may not.
        let _ = me;
        write(child, |s| {
            s.deadline.store(30, Ordering::Relaxed);
            s.state.store(WAITING, Ordering::Relaxed);
        });
        assert!(may_pass(20, 1000));
        assert!(!may_pass(40, 1000));
        // Equal deadlines: the lower pid first.
        assert!(may_pass(30, 1000));
        // It ended at 12: its end is before any later deadline.
        exited_slot(child, 12);
        assert_eq!(ended(child), Some(12));
        assert!(may_pass(40, 1000));
        release(child);
        assert_eq!(ended(child), None);
    }

    fn exited_slot(i: usize, now: u64) {
        write(i, |s| {
            s.now.store(now, Ordering::Relaxed);
            s.state.store(EXITED, Ordering::Relaxed);
        });
    }
}
