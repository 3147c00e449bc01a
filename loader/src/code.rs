//! The guest's code as the path profiler reads it: code bytes of every
//! executable segment mapped during the run, and what the symbols say about
//! function bounds (the recorder gives them to `pathprof` as its
//! `CodeSource` and `FunctionBounds`).
//!
//! Code bytes come from the mapped files, not from guest memory: the VM maps
//! file pages as host mappings of the same file, so the bytes are the ones
//! the guest runs (code written at run time is not followed; such blocks
//! count as lost in the path statistics). Only the code the path profiler
//! decodes is kept, copied a chunk at a time from a read-only mapping of
//! the file (see [`CodeRange`]): a copy of every executable segment was
//! 3.5 MB for sqlite3 and perl, of which they read 0.7 MB.

use std::cell::{OnceCell, RefCell};
use std::path::Path;

use rustc_hash::FxHashMap;

use crate::elf::ElfImage;
use crate::functions::cold_parent;
use crate::symbols::{MappedObject, Symbol, Symbolizer};

type Addr = u64;

/// Bytes of code copied from the file at a time: about a function. perl
/// reads 1,277 such chunks of its 3.4 MB of code; with 4 KiB pages it would
/// be 294 pages (1.2 MB), 2.3 MB with the pages the kernel maps around each
/// fault of a file mapping left alone.
const CHUNK: usize = 512;

/// The longest x86 instruction: a chunk also holds the start of the next
/// one, so that an instruction is always read whole from one chunk.
const MAX_INSN: usize = 15;

/// One executable segment's bytes at its guest address: the file mapped,
/// and the chunks read so far, copied out of it.
struct CodeRange {
    start: Addr,
    bytes: FileBytes,
    /// Chunk `k` holds bytes `k * CHUNK..(k + 1) * CHUNK + MAX_INSN` of the
    /// segment (fewer at its end).
    chunks: Box<[OnceCell<Box<[u8]>>]>,
}

impl CodeRange {
    /// Up to `len` bytes from `off`, and at least `MAX_INSN + 1` unless the
    /// segment ends first.
    fn read(&self, off: usize, len: usize) -> Option<&[u8]> {
        if off >= self.bytes.len {
            return None;
        }
        let k = off / CHUNK;
        let chunk = self.chunks.get(k)?.get_or_init(|| {
            let lo = k * CHUNK;
            let hi = (lo + CHUNK + MAX_INSN).min(self.bytes.len);
            let chunk = self.bytes.as_slice()[lo..hi].into();
            self.bytes.drop_pages();
            chunk
        });
        let rest = chunk.get(off - k * CHUNK..)?;
        Some(&rest[..rest.len().min(len)])
    }
}

/// A range of a file, mapped read-only and private.
struct FileBytes {
    /// The mapping, from the page holding the range's first byte.
    base: *mut libc::c_void,
    map_len: usize,
    /// Where the range starts in the mapping, and its length.
    skip: usize,
    len: usize,
}

// SAFETY: the mapping is read-only and owned by this value alone (it is
// unmapped when the value drops); moving it to another thread moves that
// ownership, and nothing writes through the pointer.
unsafe impl Send for FileBytes {}

impl FileBytes {
    /// Maps `len` bytes of `file` from `offset`; `None` for an empty range,
    /// one past the end of the file, or if the mapping fails.
    fn map(file: &std::fs::File, offset: u64, len: usize) -> Option<FileBytes> {
        use std::os::fd::AsRawFd;
        if offset.checked_add(len as u64)? > file.metadata().ok()?.len() {
            return None;
        }
        let skip = (offset % crate::elf::PAGE_SIZE) as usize;
        let map_len = len.checked_add(skip).filter(|_| len > 0)?;
        let at = libc::off_t::try_from(offset - skip as u64).ok()?;
        // SAFETY: a new private read-only mapping chosen by the kernel;
        // nothing else is at that address.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                at,
            )
        };
        (base != libc::MAP_FAILED).then_some(FileBytes {
            base,
            map_len,
            skip,
            len,
        })
    }

    /// Gives back the pages read so far (and those the kernel mapped around
    /// them); they are read from the file again if needed.
    fn drop_pages(&self) {
        // SAFETY: the mapping is private, read-only and never written, so
        // dropping its pages loses nothing: a later read maps the file's
        // page again. No slice of it is held across this call.
        unsafe {
            libc::madvise(self.base, self.map_len, libc::MADV_DONTNEED);
        }
    }

    fn as_slice(&self) -> &[u8] {
        // SAFETY: `base..base + map_len` stays mapped until `drop` and is
        // never written. The file's pages are the ones the guest's own
        // mapping of the same file shows it, with the same exposure: a file
        // cut short under the run faults on read, in both.
        unsafe { std::slice::from_raw_parts(self.base.cast::<u8>().add(self.skip), self.len) }
    }
}

impl Drop for FileBytes {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, unmapped once; no slice of it
        // outlives `self`.
        unsafe {
            libc::munmap(self.base, self.map_len);
        }
    }
}

/// Code bytes and function facts for the path profiler.
#[derive(Default)]
pub struct Program {
    /// Sorted by start, disjoint.
    code: Vec<CodeRange>,
    /// The same parsed objects as the function table's symbolizer.
    symbols: Symbolizer,
    /// Owner entry of each symbol start (a `.cold` part → its parent).
    owners: RefCell<FxHashMap<Addr, Option<Addr>>>,
}

/// Functions that never return: a direct call to one ends a path at EXIT.
const NORETURN: &[&str] = &[
    "exit",
    "_exit",
    "_Exit",
    "quick_exit",
    "abort",
    "__stack_chk_fail",
    "__chk_fail",
    "__fortify_fail",
    "__libc_fatal",
    "__assert_fail",
    "__assert_perror_fail",
    "longjmp",
    "_longjmp",
    "siglongjmp",
    "__longjmp_chk",
    "pthread_exit",
    "err",
    "errx",
    "verr",
    "verrx",
    "__cxa_throw",
    "__cxa_rethrow",
    "__cxa_bad_cast",
    "__cxa_bad_typeid",
    "__cxa_throw_bad_array_new_length",
    "_Unwind_Resume",
    "std::terminate()",
];

impl Program {
    pub fn new() -> Program {
        Program::default()
    }

    /// Add an object mapped at `bias` (guest address minus ELF address):
    /// its executable segments' bytes, and its symbols as `mapped` (the
    /// function table's mapping of the same object) has them.
    pub fn add_object(&mut self, path: &str, bias: Addr, mapped: Option<&MappedObject>) {
        let path = Path::new(path);
        let (Ok(img), Ok(file)) = (ElfImage::open(path), std::fs::File::open(path)) else {
            return;
        };
        for s in img.segments.iter().filter(|s| s.prot.exec) {
            let Some(bytes) = FileBytes::map(&file, s.offset, s.filesz as usize) else {
                continue;
            };
            let start = s.vaddr.wrapping_add(bias);
            let len = bytes.len as u64;
            let chunks = (0..bytes.len.div_ceil(CHUNK))
                .map(|_| OnceCell::new())
                .collect();
            let r = CodeRange {
                start,
                bytes,
                chunks,
            };
            let at = self.code.partition_point(|c| c.start < start);
            let overlaps =
                |c: &CodeRange| start < c.start + c.bytes.len as u64 && c.start < start + len;
            if self.code.get(at).is_some_and(overlaps)
                || at.checked_sub(1).is_some_and(|i| overlaps(&self.code[i]))
            {
                continue;
            }
            self.code.insert(at, r);
        }
        if let Some(m) = mapped {
            let _ = self
                .symbols
                .add_parsed(m.symbols().clone(), m.bias, m.range.clone());
        }
        self.owners.borrow_mut().clear();
    }

    /// The entry of the function `addr` belongs to: a `.cold` part belongs
    /// to its parent. `None` without a symbol.
    fn owner(&self, sym: &Symbol) -> Option<Addr> {
        if let Some(&o) = self.owners.borrow().get(&sym.start) {
            return o;
        }
        let o = Some(cold_parent(&self.symbols, sym).unwrap_or(sym.start));
        self.owners.borrow_mut().insert(sym.start, o);
        o
    }

    /// Up to `len` bytes of code at `addr` (at least a whole instruction
    /// unless the segment ends first); `None` outside the mapped code.
    pub fn read(&self, addr: Addr, len: usize) -> Option<&[u8]> {
        let i = self
            .code
            .partition_point(|c| c.start <= addr)
            .checked_sub(1)?;
        let c = &self.code[i];
        c.read(usize::try_from(addr - c.start).ok()?, len)
    }

    /// Whether a jump from function `func` (its entry) to `target` leaves
    /// it: `target` is a PLT stub or in another function (a `.cold` part is
    /// its parent's).
    pub fn leaves_function(&self, func: Addr, target: Addr) -> bool {
        let Some(t) = self.symbols.lookup(target) else {
            // No symbol: only a known entry (none here) would be another function.
            return false;
        };
        if t.is_plt {
            return true;
        }
        let f_owner = self.symbols.lookup(func).and_then(|s| self.owner(&s));
        let t_owner = self.owner(&t);
        match f_owner {
            Some(f) => t_owner != Some(f),
            // Code without a symbol of its own (entered by a call): it leaves
            // when it reaches a symbol's entry.
            None => t.start == target,
        }
    }

    /// Whether `callee` (a function's entry) never returns: a direct call
    /// to it ends a path.
    pub fn never_returns(&self, callee: Addr) -> bool {
        let Some(s) = self.symbols.lookup(callee) else {
            return false;
        };
        if s.start != callee {
            return false;
        }
        let raw = s.raw_name.strip_suffix("@plt").unwrap_or(&s.raw_name);
        let raw = raw.split('@').next().unwrap_or(raw);
        NORETURN.contains(&raw)
            || NORETURN.contains(&&*s.name)
            || s.name.starts_with("std::__throw_")
    }
}
