//! Guest memory: a few large host reservations mapped once into unicorn, and
//! the guest's own view of what is mapped (brk, mmap, munmap, mprotect).
//!
//! Unicorn's cost of mapping grows with the number of regions, so the guest
//! address space lives in at most a handful of big regions backed by host
//! memory this module reserves with `MAP_NORESERVE` (pages cost nothing until
//! touched). Guest `mmap`/`munmap` only change the bookkeeping here and remap
//! host pages in place: a file mapping is a host `mmap` of the same file at
//! the matching host address, and `munmap` puts fresh anonymous pages back, so
//! the memory is returned to the host and reads as zero when reused.
//!
//! Page permissions are enforced by the CPU's TLB: pathvm's unicorn patch
//! asks [`GuestMemory::page_prot`] at each TLB fill, and an access the page
//! does not allow (or to a page that is not mapped, wherever it is) raises a
//! page fault. Any change of the map sets `map_changed`, and the system call
//! hook then flushes the TLB.

use std::collections::BTreeMap;

use loader::elf::{page_up, Prot, PAGE_SIZE};

/// One host reservation mapped into unicorn at `start`.
#[derive(Debug)]
pub struct Region {
    pub start: u64,
    pub size: u64,
    pub host: *mut u8,
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: `host` came from our own mmap of `size` bytes and unicorn,
        // which also points at it, is dropped before the memory.
        unsafe {
            libc::munmap(self.host as *mut libc::c_void, self.size as usize);
        }
    }
}

/// What a guest mapping holds, for `/proc/self/maps` and symbolization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backing {
    Anonymous,
    File { path: String, offset: u64 },
    Heap,
    Stack,
}

/// One guest mapping `[start, end)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub end: u64,
    pub prot: Prot,
    pub backing: Backing,
    /// The host memory behind it is a host mapping of the file (not a copy
    /// of its bytes, as ELF segments placed at load are).
    pub host_file: bool,
    /// First address whose page lies wholly past the end of the file when
    /// it was mapped (an access there is a bus error; it may lie past the
    /// mapping's end, where `mremap` may grow it), or `u64::MAX`.
    pub bus_from: u64,
    /// `MAP_SHARED`: the host memory behind it is a shared host mapping (of
    /// the file, or anonymous), so forked children and other processes
    /// mapping the file see the same pages.
    pub shared: bool,
}

/// Where the guest address space is laid out. Fixed: no randomisation.
pub mod layout {
    /// Base of a position-independent main program (Linux's `ELF_ET_DYN_BASE`
    /// with randomisation off).
    pub const PIE_BASE: u64 = 0x5555_5555_4000;
    /// Bytes reserved after the main program for `brk`.
    pub const BRK_RESERVE: u64 = 8 << 30;
    /// Lowest address a mapping may have (Linux's `mmap_min_addr`).
    pub const LOW_MIN: u64 = 0x10000;
    /// The first 4 GiB are guest memory too (from `LOW_MIN`), for
    /// `MAP_FIXED` and `MAP_32BIT` mappings there.
    pub const LOW_TOP: u64 = 0x1_0000_0000;
    /// Where `MAP_32BIT` mappings go (Linux: the second gigabyte, bottom-up).
    pub const MAP_32BIT_START: u64 = 0x4000_0000;
    pub const MAP_32BIT_END: u64 = 0x8000_0000;
    /// The high region holds the stack, the interpreter and every `mmap`.
    pub const HIGH_START: u64 = 0x7000_0000_0000;
    /// One past the highest user address (the stack top).
    pub const STACK_TOP: u64 = 0x7fff_ffff_f000;
    /// Stack size the guest may grow to (the initial `RLIMIT_STACK`).
    pub const STACK_SIZE: u64 = 8 << 20;
    /// Linux's `stack_guard_gap` (256 pages): the stack never grows to
    /// within this distance of the mapping below it.
    pub const STACK_GUARD_GAP: u64 = 1 << 20;
    /// `mmap` allocates downwards from here, below the stack and a gap.
    pub const MMAP_TOP: u64 = 0x7fff_f7ff_f000;
}

/// [`GuestMemory::page_prot`] of a page of a file mapping that lies past
/// the end of the file (any access is a bus error).
pub const BUS_ERROR: i32 = -2;

/// Highest user address plus one (Linux's `TASK_SIZE` on x86-64).
pub const TASK_SIZE: u64 = 0x7fff_ffff_f000;

/// A guest address range that is not backed by memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault(pub u64);

/// The guest's memory and its map.
pub struct GuestMemory {
    regions: Vec<Region>,
    maps: BTreeMap<u64, Mapping>,
    pub brk_start: u64,
    pub brk: u64,
    brk_limit: u64,
    /// The map changed since the CPU's TLB was last flushed: the TLB holds
    /// permissions of pages ([`GuestMemory::page_prot`]).
    pub(crate) map_changed: bool,
    /// `RLIMIT_STACK` (soft, hard): the stack mapping spans the soft limit
    /// below `STACK_TOP` (host pages come on first touch, so it costs what
    /// the guest uses), and nothing is mapped below it.
    pub stack_limit: (u64, u64),
    /// Regions added while the guest runs ([`GuestMemory::cover`]) that the
    /// CPU does not map yet: `(start, size, host)`.
    pub(crate) new_regions: Vec<(u64, u64, *mut u8)>,
    /// How far down Linux's stack mapping would reach: it starts 128 KiB
    /// below the initial stack pointer's page and grows to each page
    /// touched below it ([`GuestMemory::stack_shown`]).
    stack_grown: std::cell::Cell<u64>,
}

fn host_reserve(size: u64) -> std::io::Result<*mut u8> {
    // SAFETY: an anonymous private mapping at an address the kernel picks.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    Ok(p as *mut u8)
}

impl GuestMemory {
    pub fn new() -> GuestMemory {
        GuestMemory {
            regions: Vec::new(),
            maps: BTreeMap::new(),
            brk_start: 0,
            brk: 0,
            brk_limit: 0,
            map_changed: false,
            stack_limit: (layout::STACK_SIZE, u64::MAX),
            new_regions: Vec::new(),
            stack_grown: std::cell::Cell::new(layout::STACK_TOP),
        }
    }

    /// The initial stack pointer: the stack mapping Linux shows starts
    /// 128 KiB below its page (`setup_arg_pages`' `stack_expand`).
    pub fn set_initial_sp(&mut self, sp: u64) {
        self.stack_grown
            .set((sp & !(PAGE_SIZE - 1)).saturating_sub(128 << 10));
    }

    /// Where the stack mapping `[start, end)` starts as Linux shows it
    /// (`/proc/self/maps`): it grows down page by page as the guest
    /// touches it, up to the limit, and never shrinks. The pages touched
    /// are those resident on the host, which backs each guest page with
    /// its own.
    pub fn stack_shown(&self, start: u64, end: u64) -> u64 {
        let grown = self.stack_grown.get().clamp(start, end);
        let pages = ((grown - start) / PAGE_SIZE) as usize;
        if let (true, Ok(host)) = (pages > 0, self.host_ptr(start, grown - start)) {
            let mut resident = vec![0u8; pages];
            // SAFETY: `host` is `grown - start` bytes of our reservation;
            // `resident` has a byte per page.
            let r = unsafe {
                libc::mincore(
                    host as *mut libc::c_void,
                    (grown - start) as usize,
                    resident.as_mut_ptr(),
                )
            };
            if r == 0 {
                if let Some(i) = resident.iter().position(|v| v & 1 != 0) {
                    self.stack_grown.set(start + i as u64 * PAGE_SIZE);
                }
            }
        }
        self.stack_grown.get().clamp(start, end)
    }

    /// Make `[addr, addr+len)` guest memory (a `MAP_FIXED` mapping or a
    /// hint anywhere in the user half, as Linux allows): each part of it no
    /// region holds becomes a new region, the 1 GiB-aligned span around
    /// that part cut at its neighbours, reserved on the host and queued in
    /// `new_regions` for the CPU to map. The range may then lie in several
    /// regions ([`GuestMemory::host_pieces`]). True when the whole range is
    /// guest memory now.
    pub fn cover(&mut self, addr: u64, len: u64) -> bool {
        const SPAN: u64 = 1 << 30;
        if self.region_of(addr, len).is_some() {
            return true;
        }
        let Some(end) = addr.checked_add(len) else {
            return false;
        };
        if len == 0 || addr < layout::LOW_MIN || end > TASK_SIZE {
            return false;
        }
        let mut at = addr;
        while at < end {
            let i = self.regions.partition_point(|r| r.start <= at);
            let below = i.checked_sub(1).map(|j| &self.regions[j]);
            if let Some(r) = below.filter(|r| r.start + r.size > at) {
                at = r.start + r.size;
                continue;
            }
            // A gap from `at` up to the next region (or the range's end).
            let floor = below.map_or(0, |r| r.start + r.size);
            let above = self.regions.get(i).map_or(TASK_SIZE, |r| r.start);
            let lo = (at & !(SPAN - 1)).max(floor).max(layout::LOW_MIN);
            let hi = end
                .min(above)
                .div_ceil(SPAN)
                .saturating_mul(SPAN)
                .min(above)
                .min(TASK_SIZE);
            let Ok(region) = self.add_region(lo, hi - lo) else {
                return false;
            };
            let (start, size, host) = (region.start, region.size, region.host);
            self.new_regions.push((start, size, host));
            at = hi;
        }
        true
    }

    /// The parts of guest `[addr, addr+len)` that lie in regions, in
    /// address order, each as `(guest address, host pointer, length)`:
    /// every operation on a range goes through it, so a range may cross
    /// the edge of a region (the first 4 GiB, the program and `brk`, the
    /// `mmap` area, one [`GuestMemory::cover`] added). Parts in no region
    /// are left out ([`GuestMemory::host_pieces`] refuses them).
    pub fn pieces(&self, addr: u64, len: u64) -> impl Iterator<Item = (u64, *mut u8, u64)> + '_ {
        let end = addr.saturating_add(len);
        let first = self.regions.partition_point(|r| r.start + r.size <= addr);
        self.regions[first..]
            .iter()
            .take_while(move |r| r.start < end)
            .map(move |r| {
                let lo = addr.max(r.start);
                let hi = end.min(r.start + r.size);
                // SAFETY: `lo` is inside the region's reservation.
                (lo, unsafe { r.host.add((lo - r.start) as usize) }, hi - lo)
            })
    }

    /// [`GuestMemory::pieces`] of a range that lies wholly in regions, or
    /// the first address of it that does not.
    pub fn host_pieces(&self, addr: u64, len: u64) -> Result<Vec<(u64, *mut u8, u64)>, Fault> {
        let mut at = addr;
        let mut out = Vec::new();
        for p in self.pieces(addr, len) {
            if p.0 != at {
                return Err(Fault(at));
            }
            at = p.0 + p.2;
            out.push(p);
        }
        if at != addr.saturating_add(len) || addr.checked_add(len).is_none() {
            return Err(Fault(at));
        }
        Ok(out)
    }

    /// Is every byte of `[addr, addr+len)` guest memory (in some region)?
    pub fn covered(&self, addr: u64, len: u64) -> bool {
        self.region_of(addr, len).is_some() || self.host_pieces(addr, len).is_ok()
    }

    /// Reserve host memory for guest `[start, start+size)`. The caller maps
    /// the returned region into unicorn.
    pub fn add_region(&mut self, start: u64, size: u64) -> std::io::Result<&Region> {
        let host = host_reserve(size)?;
        let idx = self.regions.partition_point(|r| r.start < start);
        self.regions.insert(idx, Region { start, size, host });
        Ok(&self.regions[idx])
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// Set the program break range (after the main program's last segment).
    pub fn set_brk_area(&mut self, start: u64, limit: u64) {
        self.brk_start = start;
        self.brk = start;
        self.brk_limit = limit;
    }

    /// `brk(2)`: move the break within its reservation; returns the new break
    /// (the old one when the request cannot be met, as Linux does).
    pub fn set_brk(&mut self, want: u64) -> u64 {
        if want < self.brk_start || want > self.brk_limit {
            return self.brk;
        }
        let old_end = page_up(self.brk);
        let new_end = page_up(want);
        if new_end > old_end && self.any_mapped(old_end, new_end) {
            // A mapping placed there (`MAP_FIXED`, `MAP_32BIT`) stops it.
            return self.brk;
        }
        if new_end > old_end {
            self.map_anon_fixed(
                old_end,
                new_end - old_end,
                Prot::from_bits(3),
                Backing::Heap,
            );
        } else if new_end < old_end {
            self.unmap(new_end, old_end - new_end);
        }
        self.brk = want;
        self.brk
    }

    fn region_of(&self, addr: u64, len: u64) -> Option<&Region> {
        let i = self.regions.partition_point(|r| r.start <= addr);
        let r = self.regions.get(i.checked_sub(1)?)?;
        (addr - r.start)
            .checked_add(len)
            .filter(|&e| e <= r.size)
            .map(|_| r)
    }

    /// Host pointer for guest `[addr, addr+len)`, if it lies in one region.
    #[inline]
    pub fn host_ptr(&self, addr: u64, len: u64) -> Result<*mut u8, Fault> {
        let r = self.region_of(addr, len).ok_or(Fault(addr))?;
        // SAFETY: the offset is inside the region's reservation (checked above).
        Ok(unsafe { r.host.add((addr - r.start) as usize) })
    }

    /// Guest bytes as a slice.
    pub fn slice(&self, addr: u64, len: u64) -> Result<&[u8], Fault> {
        if len == 0 {
            return Ok(&[]);
        }
        let p = self.host_ptr(addr, len)?;
        // SAFETY: `p..p+len` lies in a live reservation; the CPU is stopped
        // while a hook or syscall handler runs, so nothing else writes it.
        Ok(unsafe { std::slice::from_raw_parts(p, len as usize) })
    }

    /// Guest bytes as a mutable slice.
    pub fn slice_mut(&mut self, addr: u64, len: u64) -> Result<&mut [u8], Fault> {
        if len == 0 {
            return Ok(&mut []);
        }
        let p = self.host_ptr(addr, len)?;
        // SAFETY: as in `slice`; the exclusive borrow of the memory keeps
        // every other slice of it from living as long as this one.
        Ok(unsafe { std::slice::from_raw_parts_mut(p, len as usize) })
    }

    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        if let Ok(s) = self.slice(addr, out.len() as u64) {
            out.copy_from_slice(s);
            return Ok(());
        }
        for (at, p, n) in self.host_pieces(addr, out.len() as u64)? {
            let k = (at - addr) as usize;
            // SAFETY: `p..p+n` lies in a live reservation (see `slice`).
            out[k..k + n as usize]
                .copy_from_slice(unsafe { std::slice::from_raw_parts(p, n as usize) });
        }
        Ok(())
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        if let Ok(s) = self.slice_mut(addr, data.len() as u64) {
            s.copy_from_slice(data);
            return Ok(());
        }
        for (at, p, n) in self.host_pieces(addr, data.len() as u64)? {
            let k = (at - addr) as usize;
            // SAFETY: as in `slice_mut`; `&mut self` holds guest memory.
            unsafe { std::slice::from_raw_parts_mut(p, n as usize) }
                .copy_from_slice(&data[k..k + n as usize]);
        }
        Ok(())
    }

    /// [`GuestMemory::read`] through the kernel (`process_vm_readv` of
    /// pathvm's own memory): a page the host cannot read (a file mapping
    /// past the end of its file) is an error, where a plain copy would
    /// take a bus error.
    pub fn read_checked(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        let pieces = self.host_pieces(addr, out.len() as u64)?;
        let local = libc::iovec {
            iov_base: out.as_mut_ptr() as *mut libc::c_void,
            iov_len: out.len(),
        };
        let remote: Vec<libc::iovec> = pieces
            .iter()
            .map(|&(_, p, n)| libc::iovec {
                iov_base: p as *mut libc::c_void,
                iov_len: n as usize,
            })
            .collect();
        // SAFETY: `out` is ours; the pieces lie in our reservations, and
        // the kernel checks each page.
        let r = unsafe {
            libc::process_vm_readv(
                libc::getpid(),
                &local,
                1,
                remote.as_ptr(),
                remote.len() as libc::c_ulong,
                0,
            )
        };
        if r == out.len() as isize {
            Ok(())
        } else {
            Err(Fault(addr))
        }
    }

    /// [`GuestMemory::write`] through the kernel (`process_vm_writev`), of
    /// the pieces whose bytes differ only: a page the host cannot write
    /// (a read-only host mapping) is an error, not a signal, and pages
    /// written with the bytes they hold are left alone (not copied, not
    /// made dirty).
    pub fn write_changed(&mut self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        let mut now = vec![0u8; data.len()];
        self.read_checked(addr, &mut now)?;
        for (at, p, n) in self.host_pieces(addr, data.len() as u64)? {
            let k = (at - addr) as usize;
            let part = &data[k..k + n as usize];
            if part == &now[k..k + n as usize] {
                continue;
            }
            let local = libc::iovec {
                iov_base: part.as_ptr() as *mut libc::c_void,
                iov_len: part.len(),
            };
            let remote = libc::iovec {
                iov_base: p as *mut libc::c_void,
                iov_len: n as usize,
            };
            // SAFETY: as in `read_checked`; `&mut self` holds guest memory.
            let r = unsafe { libc::process_vm_writev(libc::getpid(), &local, 1, &remote, 1, 0) };
            if r != n as isize {
                return Err(Fault(at));
            }
        }
        Ok(())
    }

    pub fn read_u64(&self, addr: u64) -> Result<u64, Fault> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub fn write_u64(&mut self, addr: u64, v: u64) -> Result<(), Fault> {
        self.write(addr, &v.to_le_bytes())
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32, Fault> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), Fault> {
        self.write(addr, &v.to_le_bytes())
    }

    /// A NUL-terminated guest string (without the NUL), at most `max` bytes.
    pub fn read_cstr(&self, addr: u64, max: usize) -> Result<Vec<u8>, Fault> {
        let mut out = Vec::new();
        let mut a = addr;
        loop {
            // Read up to the end of the page at a time.
            let chunk = (PAGE_SIZE - (a % PAGE_SIZE)).min((max - out.len()) as u64);
            if chunk == 0 {
                return Err(Fault(a));
            }
            let s = self.slice(a, chunk)?;
            if let Some(n) = s.iter().position(|&b| b == 0) {
                out.extend_from_slice(&s[..n]);
                return Ok(out);
            }
            out.extend_from_slice(s);
            a += chunk;
        }
    }

    /// The CPU's permissions of the page at `page` (bit 0 read, 1 write,
    /// 2 execute; on x86 a writable or executable page is readable), -1
    /// when the page is not mapped (or has no host memory behind it), or
    /// [`BUS_ERROR`] for a file mapping's page past the end of its file.
    pub fn page_prot(&self, page: u64) -> i32 {
        match self.mapping_at(page) {
            Some((_, m)) if page >= m.bus_from => BUS_ERROR,
            Some((_, m)) if self.region_of(page, PAGE_SIZE).is_some() => {
                let p = m.prot;
                i32::from(p.read || p.write || p.exec)
                    | i32::from(p.write) << 1
                    | i32::from(p.exec) << 2
            }
            _ => -1,
        }
    }

    /// Would Linux have the page at `addr` in the page tables: accessible,
    /// and touched (resident on the host, which backs it one for one).
    pub fn page_present(&self, addr: u64) -> bool {
        let page = addr & !(PAGE_SIZE - 1);
        if self.page_prot(page) <= 0 {
            return false;
        }
        let Ok(host) = self.host_ptr(page, PAGE_SIZE) else {
            return false;
        };
        let mut v = 0u8;
        // SAFETY: one page of our own reservation; `v` receives one byte.
        let r = unsafe { libc::mincore(host as *mut libc::c_void, PAGE_SIZE as usize, &mut v) };
        r == 0 && v & 1 != 0
    }

    /// Record a mapping and give it fresh zero pages.
    pub fn map_anon_fixed(&mut self, addr: u64, len: u64, prot: Prot, backing: Backing) {
        self.unmap(addr, len);
        self.maps.insert(
            addr,
            Mapping {
                end: addr + len,
                prot,
                backing,
                host_file: false,
                bus_from: u64::MAX,
                shared: false,
            },
        );
    }

    /// `MAP_SHARED | MAP_ANONYMOUS`: fresh zero pages shared with the
    /// children the guest forks (a shared host mapping: a guest `fork` is a
    /// host `fork`), as Linux's shared anonymous memory is. A range across
    /// regions is one shared host mapping per region.
    pub fn map_shared_anon(&mut self, addr: u64, len: u64, prot: Prot) -> Result<(), i64> {
        let pieces = self
            .host_pieces(addr, len)
            .map_err(|_| -(libc::ENOMEM as i64))?;
        for &(_, host, n) in &pieces {
            // SAFETY: `host..host+n` is inside our own reservation, which
            // only guest memory uses; MAP_FIXED replaces those pages.
            let r = unsafe {
                libc::mmap(
                    host as *mut libc::c_void,
                    n as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_FIXED | libc::MAP_SHARED | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if r == libc::MAP_FAILED {
                let e = std::io::Error::last_os_error()
                    .raw_os_error()
                    .unwrap_or(libc::ENOMEM);
                // As Linux, whose MAP_FIXED unmaps the range first.
                self.unmap(addr, len);
                return Err(-(e as i64));
            }
        }
        self.remove_maps(addr, addr + len);
        self.maps.insert(
            addr,
            Mapping {
                end: addr + len,
                prot,
                backing: Backing::Anonymous,
                // MADV_DONTNEED drops this process's view of the pages only:
                // their contents stay, as Linux keeps shared memory's.
                host_file: true,
                // The shared object is as large as the mapping: a part that
                // `mremap` grows past it is a bus error, as on Linux.
                bus_from: addr + len,
                shared: true,
            },
        );
        Ok(())
    }

    /// `mremap` of the mapping holding `[old, old+old_len)` to
    /// `[to, to+new_len)` (`to == old`: grown in place; `old_len` 0, for
    /// shared memory only: a second mapping of the same pages; the caller
    /// shrank the range first when `new_len < old_len`). The host moves its
    /// own pages (`mremap` of the reservation's pages, of a host file
    /// mapping, of shared memory), so nothing is copied, private pages stay
    /// private, shared pages stay shared with every process that maps them,
    /// and a part grown past the old end shows what Linux shows there: the
    /// file's next pages, zeros for anonymous memory (a bus error past a
    /// shared anonymous object or past the end of the file). Ranges may
    /// cross region edges: the move goes piece by piece (a grown part of a
    /// file mapping in a region after the old end's is the file's pages
    /// there too: the host mapping grows elsewhere and its new part moves
    /// into place). The caller checked that
    /// the range is one mapping and the destination is guest memory that
    /// is free or may be replaced, and does not overlap the source.
    pub fn remap(&mut self, old: u64, old_len: u64, new_len: u64, to: u64) -> Result<(), i64> {
        let nomem = -(libc::ENOMEM as i64);
        let (s, m) = self
            .mapping_at(old)
            .map(|(s, m)| (s, m.clone()))
            .ok_or(-(libc::EFAULT as i64))?;
        let dst = self.host_pieces(to, new_len).map_err(|_| nomem)?;
        // Old size 0 (a second mapping of shared pages): the source is
        // the mapping from `old` on, as far as the new length reaches.
        let src_len = if old_len == 0 {
            new_len.min(m.end - old)
        } else {
            old_len
        };
        let src = self.host_pieces(old, src_len).map_err(|_| nomem)?;
        let fresh = |p: *mut u8, len: u64| {
            // SAFETY: inside our reservation: fresh private pages fill a
            // range the host left without a mapping.
            unsafe {
                libc::mmap(
                    p as *mut libc::c_void,
                    len as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_FIXED | libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            }
        };
        // Chunks of the destination whose source lies in one region: cut at
        // the destination's and the source's region edges and at `old_len`.
        let mut cuts: Vec<u64> = dst.iter().map(|p| p.0 - to).collect();
        cuts.extend(src.iter().map(|p| p.0 - old));
        cuts.extend([old_len.min(new_len), src_len.min(new_len), new_len]);
        cuts.retain(|&c| c <= new_len);
        cuts.sort_unstable();
        cuts.dedup();
        let host_of = |pieces: &[(u64, *mut u8, u64)], base: u64, at: u64| {
            pieces
                .iter()
                .find(|p| p.0 <= base + at && base + at < p.0 + p.2)
                .map(|p| p.1.wrapping_add((base + at - p.0) as usize))
        };
        // The host range the last chunk ended in, for a grown part to
        // extend: (start, length).
        let mut last: Option<(*mut u8, u64)> = None;
        for w in cuts.windows(2) {
            let (c0, c1) = (w[0], w[1]);
            let n = c1 - c0;
            let d = host_of(&dst, to, c0).ok_or(nomem)?;
            if c0 < old_len {
                let sp = host_of(&src, old, c0).ok_or(nomem)?;
                if to != old {
                    // SAFETY: both ranges are inside our reservations and
                    // do not overlap; MREMAP_FIXED replaces the
                    // destination's pages.
                    let r = unsafe {
                        libc::mremap(
                            sp as *mut libc::c_void,
                            n as usize,
                            n as usize,
                            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                            d as *mut libc::c_void,
                        )
                    };
                    if r == libc::MAP_FAILED {
                        return Err(nomem);
                    }
                }
                last = Some((d, n));
            } else if old_len == 0 {
                // A second mapping of shared pages, from the same offset.
                let Some(sp) = host_of(&src, old, c0) else {
                    fresh(d, n);
                    continue;
                };
                // SAFETY: as above; old size 0 maps the shared pages again.
                let r = unsafe {
                    libc::mremap(
                        sp as *mut libc::c_void,
                        0,
                        n as usize,
                        libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                        d as *mut libc::c_void,
                    )
                };
                if r == libc::MAP_FAILED {
                    return Err(nomem);
                }
            } else {
                match last {
                    Some((lp, ln)) if lp.wrapping_add(ln as usize) == d => {
                        // Grown where the host range goes on: the host
                        // mapping grows into it (the pages the mapping
                        // holds there: the file's, or zeros).
                        // SAFETY: `d..d+n` is guest memory nothing maps
                        // (the caller checked); our reservation's pages
                        // there are dropped for the mapping to grow into.
                        let r = unsafe {
                            libc::munmap(d as *mut libc::c_void, n as usize);
                            libc::mremap(lp as *mut libc::c_void, ln as usize, (ln + n) as usize, 0)
                        };
                        if r == libc::MAP_FAILED {
                            fresh(d, n);
                            return Err(nomem);
                        }
                        last = Some((lp, ln + n));
                    }
                    Some((lp, ln)) if m.host_file => {
                        // Grown into another region: the host mapping grows
                        // where the host has room, and its new part (the
                        // file's next pages) moves to `d`, the rest back.
                        // SAFETY: `lp..lp+ln` is the host mapping of the
                        // chunk before, in our reservation; `d..d+n` is
                        // guest memory nothing maps (as above); the moves
                        // put every page back inside our reservations.
                        let moved = unsafe {
                            let t = libc::mremap(
                                lp as *mut libc::c_void,
                                ln as usize,
                                (ln + n) as usize,
                                libc::MREMAP_MAYMOVE,
                            );
                            if t == libc::MAP_FAILED {
                                false
                            } else {
                                let t = t as *mut u8;
                                let tail = libc::mremap(
                                    t.add(ln as usize) as *mut libc::c_void,
                                    n as usize,
                                    n as usize,
                                    libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                                    d as *mut libc::c_void,
                                );
                                let head = libc::mremap(
                                    t as *mut libc::c_void,
                                    ln as usize,
                                    ln as usize,
                                    libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                                    lp as *mut libc::c_void,
                                );
                                if head == libc::MAP_FAILED {
                                    return Err(nomem);
                                }
                                if tail == libc::MAP_FAILED {
                                    libc::munmap(
                                        t.add(ln as usize) as *mut libc::c_void,
                                        n as usize,
                                    );
                                }
                                tail != libc::MAP_FAILED
                            }
                        };
                        if !moved {
                            fresh(d, n);
                            return Err(nomem);
                        }
                        last = Some((d, n));
                    }
                    _ => {
                        fresh(d, n);
                        last = None;
                    }
                }
            }
        }
        if to != old && old_len > 0 {
            for &(_, p, n) in &src {
                fresh(p, n);
            }
            self.remove_maps(old, old + old_len);
        }
        let mut moved = m;
        moved.end = to + new_len;
        if moved.bus_from != u64::MAX {
            moved.bus_from = to.saturating_add(moved.bus_from.saturating_sub(old));
        }
        if let Backing::File { offset, .. } = &mut moved.backing {
            *offset += old - s;
        }
        self.remove_maps(to, to + new_len);
        self.maps.insert(to, moved);
        Ok(())
    }

    /// Map `len` bytes of host file `fd` at `offset` to guest `addr`
    /// (private copy-on-write, as `MAP_PRIVATE`; or shared when `shared`).
    pub fn map_file_fixed(
        &mut self,
        addr: u64,
        len: u64,
        prot: Prot,
        fd: i32,
        offset: u64,
        shared: bool,
        path: String,
    ) -> Result<(), i64> {
        let pieces = self
            .host_pieces(addr, len)
            .map_err(|_| -(libc::ENOMEM as i64))?;
        let flags = libc::MAP_FIXED
            | if shared {
                libc::MAP_SHARED
            } else {
                libc::MAP_PRIVATE
            };
        // A shared mapping of a read-only file cannot be made writable on the
        // host; the guest cannot write it either, so map it read-only there.
        let try_map = |host: *mut u8, n: u64, off: u64, p: i32| {
            // SAFETY: `host..host+n` is inside our own reservation, which
            // only guest memory uses; MAP_FIXED replaces those pages.
            unsafe {
                libc::mmap(
                    host as *mut libc::c_void,
                    n as usize,
                    p,
                    flags,
                    fd,
                    off as i64,
                )
            }
        };
        for &(at, host, n) in &pieces {
            let off = offset + (at - addr);
            let mut r = try_map(host, n, off, libc::PROT_READ | libc::PROT_WRITE);
            if r == libc::MAP_FAILED && shared {
                r = try_map(host, n, off, libc::PROT_READ);
            }
            if r == libc::MAP_FAILED {
                let e = std::io::Error::last_os_error()
                    .raw_os_error()
                    .unwrap_or(libc::EINVAL);
                if at != addr {
                    // As Linux, whose MAP_FIXED unmaps the range first.
                    self.unmap(addr, len);
                }
                return Err(-(e as i64));
            }
        }
        self.remove_maps(addr, addr + len);
        // Pages wholly past the end of the file: a bus error on Linux (and
        // on the host, which must not touch them).
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `st` is a stat buffer; `fd` was just mapped.
        let size = if unsafe { libc::fstat(fd, &mut st) } == 0
            && st.st_mode & libc::S_IFMT == libc::S_IFREG
        {
            Some(st.st_size as u64)
        } else {
            None
        };
        // Kept where it lies past the mapping's end too, for `mremap` to
        // grow the mapping over.
        let bus_from = match size {
            Some(size) => addr.saturating_add(page_up(size).saturating_sub(offset)),
            None => u64::MAX,
        };
        self.maps.insert(
            addr,
            Mapping {
                end: addr + len,
                prot,
                backing: Backing::File { path, offset },
                host_file: true,
                bus_from,
                shared,
            },
        );
        Ok(())
    }

    /// Forget `[addr, addr+len)` and return its pages to the host as zeros.
    pub fn unmap(&mut self, addr: u64, len: u64) {
        if len == 0 {
            return;
        }
        self.remove_maps(addr, addr + len);
        let pieces: Vec<_> = self.pieces(addr, len).collect();
        for (_, host, n) in pieces {
            // SAFETY: inside our reservation; fresh anonymous pages replace
            // whatever was there (zero-filled, released to the host).
            unsafe {
                libc::mmap(
                    host as *mut libc::c_void,
                    n as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_FIXED | libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                );
            }
        }
    }

    fn remove_maps(&mut self, lo: u64, hi: u64) {
        self.map_changed = true;
        // Mappings that overlap [lo, hi): split off the parts outside.
        let overlapping: Vec<u64> = self
            .maps
            .range(..hi)
            .rev()
            .take_while(|(_, m)| m.end > lo)
            .map(|(&s, _)| s)
            .collect();
        // `take_while` above stops at the first mapping ending before `lo`;
        // mappings never overlap, so that is every overlapping one.
        for s in overlapping {
            let m = self.maps.remove(&s).expect("listed above");
            if s < lo {
                let mut left = m.clone();
                left.end = lo;
                self.maps.insert(s, left);
            }
            if m.end > hi {
                let mut right = m.clone();
                if let Backing::File { offset, .. } = &mut right.backing {
                    *offset += hi - s;
                }
                self.maps.insert(hi, right);
            }
        }
    }

    /// `mprotect`: record new permissions on the mapped parts of the range.
    pub fn protect(&mut self, lo: u64, len: u64, prot: Prot) -> bool {
        let hi = lo + len;
        let parts: Vec<(u64, Mapping)> = self
            .maps
            .range(..hi)
            .filter(|(&s, m)| m.end > lo && s < hi)
            .map(|(&s, m)| (s, m.clone()))
            .collect();
        if parts.is_empty() {
            return false;
        }
        self.map_changed = true;
        for (s, m) in parts {
            let (a, b) = (s.max(lo), m.end.min(hi));
            self.remove_maps(a, b);
            let mut mid = m.clone();
            mid.end = b;
            mid.prot = prot;
            if let Backing::File { offset, .. } = &mut mid.backing {
                *offset += a - s;
            }
            self.maps.insert(a, mid);
        }
        true
    }

    /// `madvise(MADV_DONTNEED)` on `[lo, hi)`: the host drops the pages, so
    /// private anonymous memory reads as zeros again and a private file
    /// mapping as the file, in time and memory proportional to the pages
    /// touched. False when part of the range is not mapped (Linux's
    /// `ENOMEM`; the mapped parts are dropped all the same).
    pub fn discard(&mut self, lo: u64, hi: u64) -> bool {
        let parts: Vec<(u64, u64, bool)> = self
            .maps
            .range(..hi)
            .rev()
            .take_while(|(_, m)| m.end > lo)
            .map(|(&s, m)| {
                (
                    s.max(lo),
                    m.end.min(hi),
                    m.host_file || !matches!(m.backing, Backing::File { .. }),
                )
            })
            .collect();
        let covered: u64 = parts.iter().map(|(a, b, _)| b - a).sum();
        for (a, b, host) in parts {
            if !host {
                // An ELF segment copied at load: its bytes stay (the file's).
                continue;
            }
            for (_, p, n) in self.pieces(a, b - a) {
                // SAFETY: inside our reservation; dropping pages changes
                // only their contents, which the guest asked for.
                unsafe { libc::madvise(p as *mut libc::c_void, n as usize, libc::MADV_DONTNEED) };
            }
        }
        covered == hi - lo
    }

    /// Map the main thread's stack: `STACK_TOP` down by the soft
    /// `RLIMIT_STACK`, with nothing below it (an access there faults).
    pub fn map_stack(&mut self) {
        // Up to the gap above the `mmap` area.
        let size = page_up(self.stack_limit.0)
            .min(layout::STACK_TOP - layout::MMAP_TOP - layout::STACK_GUARD_GAP)
            .max(PAGE_SIZE);
        self.map_anon_fixed(
            layout::STACK_TOP - size,
            size,
            Prot::from_bits(3),
            Backing::Stack,
        );
    }

    /// `setrlimit(RLIMIT_STACK)`: the stack mapping follows the new soft
    /// limit, as Linux's stack growth checks the limit at each fault: a
    /// larger limit extends it down (never to within
    /// [`layout::STACK_GUARD_GAP`] of the mapping below, as Linux), a
    /// smaller one takes back the part below both the limit and `sp` (the
    /// pages Linux would already have grown to stay).
    pub fn set_stack_limit(&mut self, soft: u64, hard: u64, sp: u64) {
        self.stack_limit = (soft, hard);
        let Some((lo, m)) = self
            .maps
            .range(..layout::STACK_TOP)
            .next_back()
            .filter(|(_, m)| m.backing == Backing::Stack)
            .map(|(&s, m)| (s, m.clone()))
        else {
            return;
        };
        let floor = self
            .maps
            .range(..lo)
            .next_back()
            .map_or(layout::HIGH_START, |(_, m)| m.end + layout::STACK_GUARD_GAP)
            .max(layout::HIGH_START);
        let want = layout::STACK_TOP
            .saturating_sub(page_up(soft.min(layout::STACK_TOP)))
            .max(floor);
        if want < lo {
            self.unmap(want, lo - want);
            self.maps.remove(&lo);
            self.maps.insert(want, m);
        } else if want > lo {
            let keep = want.min(sp & !(PAGE_SIZE - 1)).max(lo);
            self.unmap(lo, keep - lo);
        }
    }

    /// Can the guest write every byte of `[addr, addr+len)`?
    pub fn writable(&self, addr: u64, len: u64) -> bool {
        let mut page = addr & !(PAGE_SIZE - 1);
        let end = addr.saturating_add(len);
        while page < end {
            if self.page_prot(page) < 0 || self.page_prot(page) & 2 == 0 {
                return false;
            }
            page += PAGE_SIZE;
        }
        true
    }

    /// Is any page of `[lo, hi)` mapped executable?
    pub fn any_exec(&self, lo: u64, hi: u64) -> bool {
        self.maps
            .range(..hi)
            .rev()
            .take_while(|(_, m)| m.end > lo)
            .any(|(_, m)| m.prot.exec)
    }

    /// Is any byte of `[lo, hi)` mapped?
    pub fn any_mapped(&self, lo: u64, hi: u64) -> bool {
        self.maps
            .range(..hi)
            .next_back()
            .is_some_and(|(_, m)| m.end > lo)
    }

    /// Find `len` free bytes for `mmap`, highest first, below `MMAP_TOP`.
    pub fn find_free(&self, len: u64) -> Option<u64> {
        let mut top = layout::MMAP_TOP;
        for (&s, m) in self.maps.range(..layout::MMAP_TOP).rev() {
            if m.end <= top && top - m.end >= len {
                return Some(top - len);
            }
            top = top.min(s);
            if top < layout::HIGH_START + len {
                return None;
            }
        }
        (top >= layout::HIGH_START + len).then(|| top - len)
    }

    /// Find `len` free bytes in `[lo, hi)`, lowest first (`MAP_32BIT`).
    pub fn find_free_in(&self, lo: u64, hi: u64, len: u64) -> Option<u64> {
        let mut at = lo;
        for (&s, m) in self.maps.range(..hi) {
            if m.end <= at {
                continue;
            }
            if s >= at.checked_add(len)? {
                break;
            }
            at = m.end;
        }
        (at.checked_add(len)? <= hi && self.host_ptr(at, len).is_ok()).then_some(at)
    }

    pub fn mappings(&self) -> impl Iterator<Item = (u64, &Mapping)> {
        self.maps.iter().map(|(&s, m)| (s, m))
    }

    /// The mapping that contains `addr`.
    pub fn mapping_at(&self, addr: u64) -> Option<(u64, &Mapping)> {
        self.maps
            .range(..=addr)
            .next_back()
            .filter(|(_, m)| m.end > addr)
            .map(|(&s, m)| (s, m))
    }
}

impl Default for GuestMemory {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem() -> GuestMemory {
        let mut m = GuestMemory::new();
        m.add_region(layout::HIGH_START, layout::STACK_TOP - layout::HIGH_START)
            .unwrap();
        m
    }

    #[test]
    fn mmap_allocates_downwards_and_reuses_holes() {
        let mut m = mem();
        let rw = Prot::from_bits(3);
        let a = m.find_free(0x3000).unwrap();
        assert_eq!(a, layout::MMAP_TOP - 0x3000);
        m.map_anon_fixed(a, 0x3000, rw, Backing::Anonymous);
        let b = m.find_free(0x1000).unwrap();
        assert_eq!(b, a - 0x1000);
        m.map_anon_fixed(b, 0x1000, rw, Backing::Anonymous);
        m.unmap(a + 0x1000, 0x1000);
        assert_eq!(m.mappings().count(), 3);
        assert_eq!(m.find_free(0x1000), Some(a + 0x1000));
        assert_eq!(m.find_free(0x2000), Some(b - 0x2000));
    }

    #[test]
    fn unmapped_memory_reads_zero_again() {
        let mut m = mem();
        let a = m.find_free(0x2000).unwrap();
        m.map_anon_fixed(a, 0x2000, Prot::from_bits(3), Backing::Anonymous);
        m.write_u64(a + 8, 0xdead).unwrap();
        assert_eq!(m.read_u64(a + 8), Ok(0xdead));
        m.unmap(a, 0x2000);
        assert_eq!(m.read_u64(a + 8), Ok(0));
        assert!(m.host_ptr(0x1000, 8).is_err());
    }

    #[test]
    fn protect_splits_mappings() {
        let mut m = mem();
        let a = m.find_free(0x4000).unwrap();
        m.map_anon_fixed(a, 0x4000, Prot::from_bits(3), Backing::Anonymous);
        assert!(m.protect(a + 0x1000, 0x1000, Prot::from_bits(1)));
        let v: Vec<_> = m
            .mappings()
            .map(|(s, mm)| (s - a, mm.end - a, mm.prot.write))
            .collect();
        assert_eq!(
            v,
            vec![
                (0, 0x1000, true),
                (0x1000, 0x2000, false),
                (0x2000, 0x4000, true)
            ]
        );
    }

    #[test]
    fn ranges_cross_region_edges() {
        let mut m = GuestMemory::new();
        let low = layout::LOW_TOP - layout::LOW_MIN;
        m.add_region(layout::LOW_MIN, low).unwrap();
        let at = layout::LOW_TOP - 0x2000;
        assert!(!m.covered(at, 0x4000));
        // The part above 4 GiB becomes the span up to 5 GiB.
        assert!(m.cover(at, 0x4000));
        assert_eq!(m.new_regions.len(), 1);
        assert_eq!(
            (m.new_regions[0].0, m.new_regions[0].1),
            (layout::LOW_TOP, 1 << 30)
        );
        let pieces: Vec<_> = m.pieces(at, 0x4000).map(|(g, _, n)| (g, n)).collect();
        assert_eq!(pieces, vec![(at, 0x2000), (layout::LOW_TOP, 0x2000)]);
        m.map_anon_fixed(at, 0x4000, Prot::from_bits(3), Backing::Anonymous);
        let data: Vec<u8> = (0..0x3000u32).map(|i| i as u8).collect();
        m.write(at + 0x800, &data).unwrap();
        let mut back = vec![0u8; data.len()];
        m.read(at + 0x800, &mut back).unwrap();
        assert_eq!(back, data);
        m.unmap(at + 0x1000, 0x2000);
        assert_eq!(m.read_u64(layout::LOW_TOP - 8), Ok(0));
        assert_eq!(m.read_u64(layout::LOW_TOP), Ok(0));
        // Beyond the new span: not guest memory.
        assert_eq!(
            m.host_pieces(at, (1 << 30) + 0x3000),
            Err(Fault(layout::LOW_TOP + (1 << 30)))
        );
    }

    #[test]
    fn cstr_crosses_pages() {
        let mut m = mem();
        let a = m.find_free(0x2000).unwrap();
        m.map_anon_fixed(a, 0x2000, Prot::from_bits(3), Backing::Anonymous);
        m.write(a + 0xffe, b"abcd\0").unwrap();
        assert_eq!(m.read_cstr(a + 0xffe, 100).unwrap(), b"abcd");
    }
}
