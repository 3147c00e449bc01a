//! Sockets, System V shared memory and semaphores, and the other
//! inter-process calls of the guest.
//!
//! Sockets are host sockets (as every descriptor of the guest is a host
//! descriptor): the calls go to the host kernel with their guest pointers
//! translated, and `sendmsg`/`recvmsg` get a host `msghdr` whose pointers
//! are translated too (descriptors passed with `SCM_RIGHTS` are host
//! descriptors on both sides). A blocking `accept`, `connect` or `recv`
//! blocks the whole VM, as a blocking `read` does.
//!
//! System V objects are the host's: `shmget`, `shmctl`, `semget`, `semop`,
//! `semctl` go to the host; `shmat` attaches the host segment over the
//! guest's memory at the address the guest gives or at a free one (`NULL`),
//! and `shmdt` puts fresh anonymous memory back.

use events::Observer;
use loader::elf::{page_up, Prot, PAGE_SIZE};

use crate::machine::Machine;
use crate::memory::Backing;
use crate::syscalls::{host, NEG_EFAULT, NEG_EINVAL};

/// Attached System V segments: guest address and length.
#[derive(Clone, Debug, Default)]
pub(crate) struct SysV {
    attached: Vec<(u64, u64)>,
}

impl<O: Observer> Machine<'_, O> {
    /// A guest `struct sockaddr` and its length (`len` bytes).
    fn sockaddr(&self, addr: u64, len: u64) -> Result<i64, i64> {
        if len > 4096 {
            return Err(NEG_EINVAL);
        }
        self.buf(addr, len)
    }

    /// A `socklen_t *` value-result argument and the buffer it sizes.
    fn sockaddr_out(&self, addr: u64, lenp: u64) -> Result<(i64, i64), i64> {
        if lenp == 0 {
            return Ok((self.buf(addr, 1)?, 0));
        }
        let len = self.mem.read_u32(lenp).map_err(|_| NEG_EFAULT)? as u64;
        if (len as i32) < 0 {
            return Err(NEG_EINVAL);
        }
        Ok((self.buf(addr, len)?, self.buf(lenp, 4)?))
    }

    /// The socket calls (dispatch sends only their numbers here).
    #[allow(non_upper_case_globals)]
    pub(crate) fn socket_call(&mut self, nr: i64, a: [u64; 6]) -> Result<i64, i64> {
        use libc::*;
        let i = |k: usize| a[k] as i64;
        Ok(match nr {
            SYS_socketpair => host(nr, &[i(0), i(1), i(2), self.buf(a[3], 8)?]),
            SYS_bind | SYS_connect => host(nr, &[i(0), self.sockaddr(a[1], a[2])?, i(2)]),
            SYS_getsockname | SYS_getpeername => {
                let (p, l) = self.sockaddr_out(a[1], a[2])?;
                host(nr, &[i(0), p, l])
            }
            SYS_accept | SYS_accept4 => {
                let (p, l) = self.sockaddr_out(a[1], a[2])?;
                host(nr, &[i(0), p, l, i(3)])
            }
            SYS_sendto => host(
                nr,
                &[
                    i(0),
                    self.buf(a[1], a[2])?,
                    i(2),
                    i(3),
                    self.sockaddr(a[4], a[5])?,
                    i(5),
                ],
            ),
            SYS_recvfrom => {
                let (p, l) = self.sockaddr_out(a[4], a[5])?;
                host(nr, &[i(0), self.buf(a[1], a[2])?, i(2), i(3), p, l])
            }
            SYS_setsockopt => host(nr, &[i(0), i(1), i(2), self.buf(a[3], a[4])?, i(4)]),
            SYS_getsockopt => {
                let (p, l) = self.sockaddr_out(a[3], a[4])?;
                host(nr, &[i(0), i(1), i(2), p, l])
            }
            SYS_sendmsg | SYS_recvmsg => self.msg(nr, a[0], a[1], a[2])?,
            // socket, listen, shutdown: no pointers.
            _ => host(nr, &[i(0), i(1), i(2)]),
        })
    }

    /// `sendmsg`/`recvmsg` through a host `msghdr`; `recvmsg` copies the
    /// lengths and flags the kernel set back to the guest's.
    fn msg(&mut self, nr: i64, fd: u64, at: u64, flags: u64) -> Result<i64, i64> {
        let r = |k: u64| self.mem.read_u64(at + k).map_err(|_| NEG_EFAULT);
        let (name, namelen) = (r(0)?, r(8)? as u32 as u64);
        let (iov, iovlen) = (r(16)?, r(24)?);
        let (control, controllen) = (r(32)?, r(40)?);
        let iovs = self.iovecs(iov, iovlen)?;
        // SAFETY: a plain C struct, all zero is valid.
        let mut h: libc::msghdr = unsafe { std::mem::zeroed() };
        h.msg_name = self.buf(name, namelen)? as *mut libc::c_void;
        h.msg_namelen = namelen as u32;
        h.msg_iov = iovs.as_ptr() as *mut libc::iovec;
        h.msg_iovlen = iovs.len();
        h.msg_control = self.buf(control, controllen)? as *mut libc::c_void;
        h.msg_controllen = controllen as usize;
        let ret = host(nr, &[fd as i64, &mut h as *mut _ as i64, flags as i64]);
        if nr == libc::SYS_recvmsg && ret >= 0 {
            let mut w = |k: u64, v: &[u8]| self.mem.write(at + k, v).map_err(|_| NEG_EFAULT);
            w(8, &h.msg_namelen.to_le_bytes())?;
            w(40, &(h.msg_controllen as u64).to_le_bytes())?;
            w(48, &h.msg_flags.to_le_bytes())?;
        }
        Ok(ret)
    }

    /// `process_vm_readv`/`process_vm_writev` on the guest itself: copies
    /// between its own buffers (another pid: `ESRCH`, as for a process that
    /// is not there; pathvm's children are other host processes).
    pub(crate) fn process_vm(&mut self, write: bool, a: [u64; 6]) -> Result<i64, i64> {
        let [pid, local, nlocal, remote, nremote, flags] = a;
        if flags != 0 {
            return Err(NEG_EINVAL);
        }
        if pid as u32 != self.sys.process.pid {
            return Err(-(libc::ESRCH as i64));
        }
        let read_iov = |at: u64, n: u64| -> Result<Vec<(u64, u64)>, i64> {
            if n > 1024 {
                return Err(NEG_EINVAL);
            }
            let raw = self.mem.slice(at, n * 16).map_err(|_| NEG_EFAULT)?;
            Ok(raw
                .chunks(16)
                .map(|c| {
                    let base = u64::from_le_bytes(c[0..8].try_into().unwrap_or_default());
                    let len = u64::from_le_bytes(c[8..16].try_into().unwrap_or_default());
                    (base, len)
                })
                .collect())
        };
        let (l, r) = (read_iov(local, nlocal)?, read_iov(remote, nremote)?);
        // Copy in order, local and remote segments walked side by side; a
        // fault ends the copy (partial count, or EFAULT when nothing moved).
        let (mut li, mut lo, mut ri, mut ro, mut done) = (0, 0u64, 0, 0u64, 0u64);
        let mut chunk = Vec::new();
        while li < l.len() && ri < r.len() {
            let n = (l[li].1 - lo).min(r[ri].1 - ro);
            if n > 0 {
                let (src, dst) = if write {
                    (l[li].0 + lo, r[ri].0 + ro)
                } else {
                    (r[ri].0 + ro, l[li].0 + lo)
                };
                chunk.resize(n as usize, 0);
                if self.mem.read(src, &mut chunk).is_err() || self.mem.write(dst, &chunk).is_err() {
                    return if done == 0 {
                        Err(NEG_EFAULT)
                    } else {
                        Ok(done as i64)
                    };
                }
                done += n;
            }
            lo += n;
            ro += n;
            if lo == l[li].1 {
                li += 1;
                lo = 0;
            }
            if ri < r.len() && ro == r[ri].1 {
                ri += 1;
                ro = 0;
            }
        }
        Ok(done as i64)
    }

    /// `shmget`, `shmat`, `shmdt`, `shmctl`, `semget`, `semop`,
    /// `semtimedop`, `semctl`; `None` for another number.
    #[allow(non_upper_case_globals)]
    pub(crate) fn sysv_call(&mut self, nr: i64, a: [u64; 6]) -> Option<Result<i64, i64>> {
        use libc::*;
        let i = |k: usize| a[k] as i64;
        let r = match nr {
            SYS_shmget | SYS_semget => Ok(host(nr, &[i(0), i(1), i(2)])),
            SYS_shmctl => {
                // IPC_STAT/IPC_SET/IPC_INFO/SHM_INFO/SHM_STAT use the buffer.
                let cmd = a[1] as i32 & 0xff;
                let p = if cmd == IPC_RMID || cmd == SHM_LOCK || cmd == SHM_UNLOCK {
                    0
                } else {
                    match self.buf(a[2], 120) {
                        Ok(p) => p,
                        Err(e) => return Some(Err(e)),
                    }
                };
                Ok(host(nr, &[i(0), i(1), p]))
            }
            SYS_semop => match self.buf(a[1], a[2].saturating_mul(6)) {
                Ok(p) => Ok(host(nr, &[i(0), p, i(2)])),
                Err(e) => Err(e),
            },
            SYS_semtimedop => match (self.buf(a[1], a[2].saturating_mul(6)), self.buf(a[3], 16)) {
                (Ok(p), Ok(t)) => Ok(host(nr, &[i(0), p, i(2), t])),
                (Err(e), _) | (_, Err(e)) => Err(e),
            },
            SYS_semctl => {
                // The fourth argument is a value (SETVAL) or a pointer.
                let cmd = a[2] as i32 & 0xff;
                let arg = match cmd {
                    IPC_RMID | GETVAL | GETPID | GETNCNT | GETZCNT | SETVAL => Ok(i(3)),
                    GETALL | SETALL => self.buf(a[3], 2 * 65_536),
                    _ => self.buf(a[3], 120),
                };
                arg.map(|p| host(nr, &[i(0), i(1), i(2), p]))
            }
            SYS_shmat => self.shmat(a[0] as i32, a[1], a[2] as i32),
            SYS_shmdt => self.shmdt(a[0]),
            _ => return None,
        };
        Some(r)
    }

    fn shmat(&mut self, id: i32, addr: u64, flags: i32) -> Result<i64, i64> {
        // SAFETY: a plain C struct filled by the call.
        let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
        if unsafe { libc::shmctl(id, libc::IPC_STAT, &mut ds) } != 0 {
            return Err(crate::syscalls::errno());
        }
        let len = page_up(ds.shm_segsz as u64);
        let at = if addr == 0 {
            self.mem.find_free(len).ok_or(-(libc::ENOMEM as i64))?
        } else {
            let a = if flags & libc::SHM_RND != 0 {
                addr & !(PAGE_SIZE - 1)
            } else {
                addr
            };
            if a % PAGE_SIZE != 0 {
                return Err(NEG_EINVAL);
            }
            if self.mem.host_ptr(a, len).is_err() {
                return Err(NEG_EINVAL);
            }
            if flags & libc::SHM_REMAP == 0 && self.mem.any_mapped(a, a + len) {
                return Err(NEG_EINVAL);
            }
            a
        };
        let hp = self.mem.host_ptr(at, len).map_err(|_| NEG_EINVAL)?;
        let read_only = flags & libc::SHM_RDONLY != 0;
        let prot = Prot::from_bits(
            if read_only { 1 } else { 3 } | if flags & 0o100000 != 0 { 4 } else { 0 },
        );
        self.mem.map_anon_fixed(at, len, prot, Backing::Anonymous);
        // Attached over our own reservation: SHM_REMAP replaces the pages
        // there. Read-only for the guest is not enforced on the host.
        // SAFETY: `hp..hp+len` is inside the guest's reservation.
        let r = unsafe {
            libc::shmat(
                id,
                hp as *const libc::c_void,
                libc::SHM_REMAP | (flags & libc::SHM_RDONLY),
            )
        };
        if r as isize == -1 {
            let e = crate::syscalls::errno();
            self.mem.unmap(at, len);
            return Err(e);
        }
        self.sys.sysv.attached.push((at, len));
        Ok(at as i64)
    }

    fn shmdt(&mut self, addr: u64) -> Result<i64, i64> {
        let Some(k) = self.sys.sysv.attached.iter().position(|s| s.0 == addr) else {
            return Err(NEG_EINVAL);
        };
        let (at, len) = self.sys.sysv.attached.swap_remove(k);
        let hp = self.mem.host_ptr(at, len).map_err(|_| NEG_EINVAL)?;
        // SAFETY: a segment attached by `shmat` above.
        unsafe { libc::shmdt(hp as *const libc::c_void) };
        // Fresh memory back in the reservation, and the mapping gone.
        self.mem.unmap(at, len);
        self.flush.push((at, at + len));
        Ok(0)
    }
}
