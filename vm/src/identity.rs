//! The guest's user and group identity: virtual, with Linux's rules.
//!
//! It starts as the host's (real, effective, saved and filesystem ids, the
//! supplementary groups), and the `set*id` calls change it as Linux's
//! `kernel/sys.c` rules say: a process whose effective uid is 0 (it holds
//! `CAP_SETUID`/`CAP_SETGID`) may set any id; any other process may set
//! each id only to one of its current real, effective or saved ids. The
//! host process keeps its own identity: files are still opened, and
//! children still run, as the host user (`docs/linux.md`).

/// `-1` as an id argument: leave this one unchanged.
const KEEP: u32 = u32::MAX;

/// The most supplementary groups Linux allows (`NGROUPS_MAX`).
pub(crate) const NGROUPS_MAX: usize = 65_536;

const EPERM: i64 = -(libc::EPERM as i64);
const EINVAL: i64 = -(libc::EINVAL as i64);

/// One set of ids (users or groups): real, effective, saved, filesystem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ids {
    pub real: u32,
    pub effective: u32,
    pub saved: u32,
    pub fs: u32,
}

impl Ids {
    fn all(id: u32) -> Ids {
        Ids {
            real: id,
            effective: id,
            saved: id,
            fs: id,
        }
    }

    fn is_current(&self, id: u32) -> bool {
        id == self.real || id == self.effective || id == self.saved
    }

    /// `setres[ug]id(r, e, s)`.
    fn setres(&mut self, privileged: bool, r: u32, e: u32, s: u32) -> Result<(), i64> {
        if !privileged {
            for v in [r, e, s] {
                if v != KEEP && !self.is_current(v) {
                    return Err(EPERM);
                }
            }
        }
        if r != KEEP {
            self.real = r;
        }
        if e != KEEP {
            self.effective = e;
        }
        if s != KEEP {
            self.saved = s;
        }
        self.fs = self.effective;
        Ok(())
    }

    /// `setre[ug]id(r, e)`: the saved id follows the effective one when
    /// the real id is set, or the effective one set to other than the old
    /// real id.
    fn setre(&mut self, privileged: bool, r: u32, e: u32) -> Result<(), i64> {
        let old = *self;
        if !privileged {
            if r != KEEP && r != old.real && r != old.effective {
                return Err(EPERM);
            }
            if e != KEEP && !old.is_current(e) {
                return Err(EPERM);
            }
        }
        if r != KEEP {
            self.real = r;
        }
        if e != KEEP {
            self.effective = e;
        }
        if r != KEEP || (e != KEEP && e != old.real) {
            self.saved = self.effective;
        }
        self.fs = self.effective;
        Ok(())
    }

    /// `set[ug]id(id)`: all of them when privileged, else the effective id
    /// to the real or saved one.
    fn set(&mut self, privileged: bool, id: u32) -> Result<(), i64> {
        if id == KEEP {
            return Err(EINVAL);
        }
        if privileged {
            *self = Ids::all(id);
        } else if id == self.real || id == self.saved {
            self.effective = id;
            self.fs = id;
        } else {
            return Err(EPERM);
        }
        Ok(())
    }

    /// `setfs[ug]id(id)`: returns the old filesystem id whether or not it
    /// changed.
    fn setfs(&mut self, privileged: bool, id: u32) -> u32 {
        let old = self.fs;
        if id != KEEP && (privileged || self.is_current(id) || id == self.fs) {
            self.fs = id;
        }
        old
    }
}

/// The guest's credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub uid: Ids,
    pub gid: Ids,
    pub groups: Vec<u32>,
}

impl Identity {
    /// The host process's identity.
    pub(crate) fn of_host() -> Identity {
        let (mut ru, mut eu, mut su) = (0, 0, 0);
        let (mut rg, mut eg, mut sg) = (0, 0, 0);
        // SAFETY: the calls fill the locals they are given.
        unsafe {
            libc::getresuid(&mut ru, &mut eu, &mut su);
            libc::getresgid(&mut rg, &mut eg, &mut sg);
        }
        // SAFETY: asking for the count, then filling a buffer of that size.
        let groups = unsafe {
            let n = libc::getgroups(0, std::ptr::null_mut());
            let mut g = vec![0u32; n.max(0) as usize];
            let n = libc::getgroups(g.len() as i32, g.as_mut_ptr());
            g.truncate(n.max(0) as usize);
            g
        };
        Identity {
            uid: Ids {
                real: ru,
                effective: eu,
                saved: su,
                fs: eu,
            },
            gid: Ids {
                real: rg,
                effective: eg,
                saved: sg,
                fs: eg,
            },
            groups,
        }
    }

    /// What the program `execve` runs starts with, as Linux's
    /// `execve` leaves it for a file without set-user-ID or set-group-ID
    /// bits: the real and effective ids and the groups kept, the saved and
    /// filesystem ids set to the effective ones.
    pub(crate) fn after_exec(&self) -> Identity {
        let keep = |i: Ids| Ids {
            saved: i.effective,
            fs: i.effective,
            ..i
        };
        Identity {
            uid: keep(self.uid),
            gid: keep(self.gid),
            groups: self.groups.clone(),
        }
    }

    /// [`Identity::after_exec`] of the file `st` describes: a set-user-ID
    /// file makes its owner the effective and saved uid, a set-group-ID
    /// one (with its group's execute bit) its group the effective and
    /// saved gid, unless its filesystem is mounted `nosuid`, as Linux's
    /// `execve` does.
    pub(crate) fn after_exec_of(&self, st: &libc::stat, nosuid: bool) -> Identity {
        let mut next = self.clone();
        if !nosuid && st.st_mode & libc::S_IFMT == libc::S_IFREG {
            if st.st_mode & libc::S_ISUID != 0 {
                next.uid.effective = st.st_uid;
            }
            if st.st_mode & (libc::S_ISGID | libc::S_IXGRP) == libc::S_ISGID | libc::S_IXGRP {
                next.gid.effective = st.st_gid;
            }
        }
        next.after_exec()
    }

    /// Linux's `AT_SECURE` for a program that starts with these ids: its
    /// effective ids differ from its real ones (a set-id program, or ids
    /// set so before `execve`), and its loader then ignores `LD_PRELOAD`,
    /// `LD_LIBRARY_PATH` and the like.
    pub fn secure(&self) -> bool {
        self.uid.effective != self.uid.real || self.gid.effective != self.gid.real
    }

    /// As an argument for the program `execve` runs under pathvm:
    /// `RUID,EUID,SUID,FSUID:RGID,EGID,SGID,FSGID:GROUP,...` (decimal).
    pub fn to_arg(&self) -> String {
        let ids = |i: &Ids| format!("{},{},{},{}", i.real, i.effective, i.saved, i.fs);
        let groups: Vec<String> = self.groups.iter().map(u32::to_string).collect();
        format!("{}:{}:{}", ids(&self.uid), ids(&self.gid), groups.join(","))
    }

    /// The identity [`Identity::to_arg`] wrote.
    pub fn from_arg(s: &str) -> Result<Identity, String> {
        let num = |v: &str| v.parse::<u32>().map_err(|e| format!("{v:?}: {e}"));
        let ids = |part: &str| -> Result<Ids, String> {
            let v: Vec<u32> = part.split(',').map(num).collect::<Result<_, _>>()?;
            match v[..] {
                [real, effective, saved, fs] => Ok(Ids {
                    real,
                    effective,
                    saved,
                    fs,
                }),
                _ => Err(format!("{part:?}: expected four ids")),
            }
        };
        let mut parts = s.split(':');
        let (Some(u), Some(g), Some(groups), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err("expected UIDS:GIDS:GROUPS".into());
        };
        let groups = if groups.is_empty() {
            Vec::new()
        } else {
            groups.split(',').map(num).collect::<Result<_, _>>()?
        };
        if groups.len() > NGROUPS_MAX {
            return Err("too many groups".into());
        }
        Ok(Identity {
            uid: ids(u)?,
            gid: ids(g)?,
            groups,
        })
    }

    /// Holds `CAP_SETUID`/`CAP_SETGID`: effective uid 0.
    fn privileged(&self) -> bool {
        self.uid.effective == 0
    }

    /// `setresuid`. Leaving uid 0 behind drops the capabilities, as Linux
    /// does without `SECBIT_NO_SETUID_FIXUP`: that follows from
    /// [`Identity::privileged`] reading the effective uid.
    pub(crate) fn setresuid(&mut self, r: u32, e: u32, s: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.uid.setres(p, r, e, s)
    }

    pub(crate) fn setresgid(&mut self, r: u32, e: u32, s: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.gid.setres(p, r, e, s)
    }

    pub(crate) fn setreuid(&mut self, r: u32, e: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.uid.setre(p, r, e)
    }

    pub(crate) fn setregid(&mut self, r: u32, e: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.gid.setre(p, r, e)
    }

    pub(crate) fn setuid(&mut self, id: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.uid.set(p, id)
    }

    pub(crate) fn setgid(&mut self, id: u32) -> Result<(), i64> {
        let p = self.privileged();
        self.gid.set(p, id)
    }

    pub(crate) fn setfsuid(&mut self, id: u32) -> u32 {
        let p = self.privileged();
        self.uid.setfs(p, id)
    }

    pub(crate) fn setfsgid(&mut self, id: u32) -> u32 {
        let p = self.privileged();
        self.gid.setfs(p, id)
    }

    pub(crate) fn setgroups(&mut self, groups: Vec<u32>) -> Result<(), i64> {
        if groups.len() > NGROUPS_MAX {
            return Err(EINVAL);
        }
        if !self.privileged() {
            return Err(EPERM);
        }
        self.groups = groups;
        Ok(())
    }
}

impl<O: events::Observer> crate::machine::Machine<'_, O> {
    /// The `get*id`/`set*id` family and `getgroups`/`setgroups`.
    #[allow(non_upper_case_globals)]
    pub(crate) fn identity_call(&mut self, nr: i64, a: [u64; 6]) -> Result<i64, i64> {
        use libc::*;
        let efault = |_| -(libc::EFAULT as i64);
        let id = |k: usize| a[k] as u32;
        let ids = &mut self.sys.ids;
        let done = |r: Result<(), i64>| r.map(|()| 0);
        match nr {
            SYS_getuid => Ok(ids.uid.real as i64),
            SYS_geteuid => Ok(ids.uid.effective as i64),
            SYS_getgid => Ok(ids.gid.real as i64),
            SYS_getegid => Ok(ids.gid.effective as i64),
            SYS_getresuid | SYS_getresgid => {
                let v = if nr == SYS_getresuid {
                    ids.uid
                } else {
                    ids.gid
                };
                for (p, x) in [(a[0], v.real), (a[1], v.effective), (a[2], v.saved)] {
                    self.mem.write_u32(p, x).map_err(efault)?;
                }
                Ok(0)
            }
            SYS_getgroups => {
                let n = ids.groups.len();
                let size = a[0] as i32;
                if size < 0 {
                    return Err(-(EINVAL as i64));
                }
                if size == 0 {
                    return Ok(n as i64);
                }
                if (size as usize) < n {
                    return Err(-(EINVAL as i64));
                }
                let bytes: Vec<u8> = ids.groups.iter().flat_map(|g| g.to_le_bytes()).collect();
                self.mem.write(a[1], &bytes).map_err(efault)?;
                Ok(n as i64)
            }
            SYS_setgroups => {
                let n = a[0] as i32;
                if n < 0 || n as usize > NGROUPS_MAX {
                    return Err(-(EINVAL as i64));
                }
                let mut raw = vec![0u8; n as usize * 4];
                self.mem.read(a[1], &mut raw).map_err(efault)?;
                let groups = raw
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                done(self.sys.ids.setgroups(groups))
            }
            SYS_setuid => done(ids.setuid(id(0))),
            SYS_setgid => done(ids.setgid(id(0))),
            SYS_setreuid => done(ids.setreuid(id(0), id(1))),
            SYS_setregid => done(ids.setregid(id(0), id(1))),
            SYS_setresuid => done(ids.setresuid(id(0), id(1), id(2))),
            SYS_setresgid => done(ids.setresgid(id(0), id(1), id(2))),
            SYS_setfsuid => Ok(ids.setfsuid(id(0)) as i64),
            SYS_setfsgid => Ok(ids.setfsgid(id(0)) as i64),
            _ => Err(-(ENOSYS as i64)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: u32) -> Identity {
        Identity {
            uid: Ids::all(id),
            gid: Ids::all(id),
            groups: vec![id],
        }
    }

    #[test]
    fn root_sets_anything_and_drops_privilege_with_its_effective_uid() {
        let mut c = user(0);
        assert_eq!(c.setresuid(KEEP, KEEP, KEEP), Ok(()));
        assert_eq!(c.setresgid(5, 6, 7), Ok(()));
        assert_eq!(
            (c.gid.real, c.gid.effective, c.gid.saved, c.gid.fs),
            (5, 6, 7, 6)
        );
        assert_eq!(c.setresuid(1, 2, 0), Ok(()));
        assert_eq!(c.uid.fs, 2);
        // Effective 2: no longer privileged, but 0 is still the saved uid.
        assert_eq!(c.setgroups(vec![]), Err(EPERM));
        assert_eq!(c.setresuid(3, KEEP, KEEP), Err(EPERM));
        assert_eq!(c.setresuid(KEEP, 0, KEEP), Ok(()));
        assert_eq!(c.setgroups(vec![1, 2]), Ok(()));
        assert_eq!(c.setuid(9), Ok(()));
        assert_eq!(c.uid, Ids::all(9), "setuid as root sets all four");
    }

    #[test]
    fn unprivileged_rules() {
        let mut c = user(1000);
        c.uid.saved = 1001;
        assert_eq!(c.setuid(1002), Err(EPERM));
        assert_eq!(c.setuid(1001), Ok(()));
        assert_eq!(
            (c.uid.real, c.uid.effective, c.uid.saved),
            (1000, 1001, 1001)
        );
        // setreuid: a real uid change makes the saved uid the effective one.
        assert_eq!(c.setreuid(1001, 1000), Ok(()));
        assert_eq!(
            (c.uid.real, c.uid.effective, c.uid.saved),
            (1001, 1000, 1000)
        );
        assert_eq!(c.setreuid(KEEP, 1002), Err(EPERM));
        assert_eq!(c.setfsuid(1002), 1000, "refused: the old value");
        assert_eq!(c.uid.fs, 1000);
        assert_eq!(c.setfsuid(1001), 1000);
        assert_eq!(c.uid.fs, 1001);
        assert_eq!(c.setgid(KEEP), Err(EINVAL));
    }
}
