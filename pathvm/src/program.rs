//! The guest's code as the path profiler reads it: code bytes of every
//! executable segment mapped during the run, and what the symbols say about
//! function bounds (see [`pathprof::CodeSource`] and
//! [`pathprof::FunctionBounds`]).
//!
//! Code bytes come from the mapped files, not from guest memory: the VM maps
//! file pages as host mappings of the same file, so the bytes are the ones
//! the guest runs (code written at run time is not followed; such blocks
//! count as lost in the path statistics).

use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;

use events::{Addr, ObjectMapped};
use loader::elf::ElfImage;
use loader::symbols::{MappedObject, Symbol, Symbolizer};
use pathprof::{CodeSource, FunctionBounds};
use rustc_hash::FxHashMap;

/// One executable segment's bytes at its guest address.
struct CodeRange {
    start: Addr,
    bytes: Arc<[u8]>,
}

/// Code and function facts for [`pathprof::PathTracker`].
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

    /// Add an object: its executable segments' bytes, and its symbols as
    /// `mapped` (the function table's mapping of the same object) has them.
    pub fn add_object(&mut self, obj: &ObjectMapped, mapped: Option<&MappedObject>) {
        let Ok(img) = ElfImage::open(Path::new(&obj.path)) else {
            return;
        };
        let bytes: Arc<[u8]> = Arc::from(img.bytes.as_slice());
        for s in img.segments.iter().filter(|s| s.prot.exec) {
            let Some(end) = s.offset.checked_add(s.filesz) else {
                continue;
            };
            let Some(seg) = bytes.get(s.offset as usize..end as usize) else {
                continue;
            };
            let start = s.vaddr.wrapping_add(obj.bias);
            let r = CodeRange {
                start,
                bytes: Arc::from(seg),
            };
            let at = self.code.partition_point(|c| c.start < start);
            let overlaps = |c: &CodeRange| {
                start < c.start + c.bytes.len() as u64 && c.start < start + seg.len() as u64
            };
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
        let o = match sym.raw_name.split_once(".cold") {
            Some((base, _)) => self
                .symbols
                .object_at(sym.start)
                .and_then(|obj| {
                    obj.symbols()
                        .functions()
                        .find(|f| &*f.raw_name == base)
                        .map(|f| f.start.wrapping_add(obj.bias))
                })
                .or(Some(sym.start)),
            None => Some(sym.start),
        };
        self.owners.borrow_mut().insert(sym.start, o);
        o
    }
}

impl CodeSource for Program {
    fn read(&self, addr: Addr, len: usize) -> Option<&[u8]> {
        let i = self
            .code
            .partition_point(|c| c.start <= addr)
            .checked_sub(1)?;
        let c = &self.code[i];
        let off = (addr - c.start) as usize;
        let rest = c.bytes.get(off..)?;
        Some(&rest[..rest.len().min(len)])
    }
}

impl FunctionBounds for Program {
    fn leaves_function(&self, func: Addr, target: Addr) -> bool {
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

    fn never_returns(&self, callee: Addr) -> bool {
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
