//! The guest's functions, named from the symbols of every object mapped
//! during the run, and the rules that say what a function is: a `.cold`
//! part belongs to its parent, PLT stubs and the lazy resolver are told
//! apart, allocators are known by name. The recorder gives this table to
//! the calling-context tracker (as its `cct::FunctionIndex`) and builds the
//! profile's function rows from it, so both agree on what a function is.

use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::elf::ElfImage;
use crate::symbols::{offset_name, ObjectSymbols, Symbol, Symbolizer};

type Addr = u64;

/// A function's id in a [`FunctionTable`]: dense, in order of first lookup.
/// Not the calling-context tracker's `cct::FuncId`, whose space also holds
/// the functions the tracker makes up and the root's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(pub u32);

/// One function of the run.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub object: String,
    /// Guest address of its entry.
    pub entry: Addr,
}

#[derive(Default)]
struct Ids {
    functions: Vec<Function>,
    by_key: FxHashMap<(String, Addr), TableId>,
}

impl Ids {
    fn get_or_add(
        &mut self,
        object: String,
        entry: Addr,
        name: impl FnOnce() -> String,
    ) -> TableId {
        if let Some(&id) = self.by_key.get(&(object.clone(), entry)) {
            return id;
        }
        let id = TableId(self.functions.len() as u32);
        self.functions.push(Function {
            name: name(),
            object: object.clone(),
            entry,
        });
        self.by_key.insert((object, entry), id);
        id
    }
}

/// Objects parsed once for two [`FunctionTable`]s of one run (the VM's
/// thread and the analyses' thread), by path.
pub type SharedSymbols = Arc<Mutex<FxHashMap<String, Arc<ObjectSymbols>>>>;

/// Functions by id, and the symbolizer behind them.
#[derive(Default)]
pub struct FunctionTable {
    pub symbolizer: Symbolizer,
    /// Interior mutability: the tracker asks through `&self` (once per
    /// decoded block, never per executed block).
    ids: RefCell<Ids>,
    shared: Option<SharedSymbols>,
}

impl FunctionTable {
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// A table that takes the objects another table with the same `shared`
    /// parsed, and gives it those it parses.
    pub fn sharing(shared: SharedSymbols) -> FunctionTable {
        FunctionTable {
            shared: Some(shared),
            ..FunctionTable::default()
        }
    }

    /// Add an object mapped at run time at `bias` (guest address minus ELF
    /// address); ignored if it cannot be read.
    pub fn add_object(&mut self, path: &str, bias: Addr) {
        let Ok(img) = ElfImage::open(Path::new(path)) else {
            return;
        };
        let lo = img.min_vaddr().wrapping_add(bias);
        let hi = img.max_vaddr().wrapping_add(bias);
        let Some(shared) = &self.shared else {
            let _ = self.symbolizer.add_object(path, bias, lo..hi);
            return;
        };
        let parsed = shared.lock().ok().and_then(|m| m.get(path).cloned());
        if let Some(symbols) = parsed {
            let _ = self.symbolizer.add_parsed(symbols, bias, lo..hi);
            return;
        }
        if let Ok(id) = self.symbolizer.add_object(path, bias, lo..hi) {
            let mapped = self.symbolizer.objects().iter().find(|m| m.id == id);
            if let (Some(m), Ok(mut map)) = (mapped, shared.lock()) {
                map.insert(path.to_string(), m.symbols().clone());
            }
        }
    }

    /// The function containing `addr`: its id (created on first sight) and entry.
    pub fn resolve(&self, addr: Addr) -> Option<(TableId, Addr)> {
        let sym = self.symbolizer.lookup(addr)?;
        let id =
            self.ids
                .borrow_mut()
                .get_or_add(sym.object.display().to_string(), sym.start, || {
                    sym.name.to_string()
                });
        Some((id, sym.start))
    }

    /// The id reports use for code without a symbol or an FDE, entered at
    /// `entry` (by a call): named `OBJECT+0xOFFSET` by its ELF address, as
    /// `addr2line -e OBJECT` takes it; by its address outside every object.
    pub fn unnamed(&self, entry: Addr) -> TableId {
        let (object, name) = match self.symbolizer.object_at(entry) {
            Some(o) => (
                o.path.display().to_string(),
                offset_name(&o.path, o.vaddr(entry)),
            ),
            None => ("[unknown]".to_string(), format!("{entry:#x}")),
        };
        self.ids.borrow_mut().get_or_add(object, entry, || name)
    }

    /// Every function given an id, indexed by `TableId`.
    pub fn functions(&self) -> std::cell::Ref<'_, Vec<Function>> {
        std::cell::Ref::map(self.ids.borrow(), |i| &i.functions)
    }
}

impl FunctionTable {
    /// The function a split-off part (`foo.cold`, `foo.cold.1`) belongs to:
    /// its id and entry, found by name in the same object.
    fn parent_of_cold_part(&self, addr: Addr) -> Option<(TableId, Addr)> {
        let sym = self.symbolizer.lookup(addr)?;
        self.resolve(cold_parent(&self.symbolizer, &sym)?)
    }

    /// Like [`FunctionTable::resolve`], except that code the compiler split
    /// off a function (`foo.cold`) belongs to that function: a jump into it
    /// (the landing pad of a `catch`, an unlikely branch) is not a call.
    pub fn function_at(&self, addr: Addr) -> Option<(TableId, Addr)> {
        self.parent_of_cold_part(addr)
            .or_else(|| self.resolve(addr))
    }

    /// Whether `addr` is in a PLT stub.
    pub fn is_plt(&self, addr: Addr) -> bool {
        self.symbolizer.lookup(addr).is_some_and(|s| s.is_plt)
    }

    /// Whether `addr` is in the dynamic linker's lazy-binding resolver.
    pub fn is_lazy_resolver(&self, addr: Addr) -> bool {
        self.symbolizer.lookup(addr).is_some_and(|s| {
            s.raw_name.starts_with("_dl_runtime_resolve")
                || s.raw_name.starts_with("_dl_runtime_profile")
        })
    }

    /// The size argument of the allocator whose entry is `start`, if it is
    /// one (a PLT stub is not: its real entry is).
    pub fn allocator_at(&self, start: Addr) -> Option<AllocSize> {
        let sym = self.symbolizer.lookup(start)?;
        if sym.is_plt || sym.start != start {
            return None;
        }
        alloc_size_of(&sym.raw_name)
    }
}

/// The entry of the function a split-off part (`foo.cold`, `foo.cold.1`)
/// belongs to, found by name in the same object; `None` for a symbol that
/// is no such part (or whose parent is not there).
pub fn cold_parent(symbols: &Symbolizer, sym: &Symbol) -> Option<Addr> {
    let (base, _) = sym.raw_name.split_once(".cold")?;
    let obj = symbols.object_at(sym.start)?;
    let parent = obj.symbols().functions().find(|f| &*f.raw_name == base)?;
    Some(parent.start.wrapping_add(obj.bias))
}

/// Where an allocator's size argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocSize {
    /// The argument register with this index (0: `rdi`, 1: `rsi`, 2: `rdx`).
    Arg(usize),
    /// `calloc(nmemb, size)`: the product of the first two.
    Product,
}

impl AllocSize {
    /// The bytes requested, from the first three argument registers.
    pub fn bytes(self, args: [u64; 3]) -> u64 {
        match self {
            AllocSize::Arg(i) => args[i],
            AllocSize::Product => args[0].saturating_mul(args[1]),
        }
    }
}

/// The allocator a symbol names (its raw, mangled name), if it is one.
pub fn alloc_size_of(raw_name: &str) -> Option<AllocSize> {
    let name = raw_name.split('@').next().unwrap_or(raw_name);
    // C++ `operator new` and `new[]` in every variant: the size comes first.
    if name.starts_with("_Znwm") || name.starts_with("_Znam") {
        return Some(AllocSize::Arg(0));
    }
    // glibc's aliases (`__libc_malloc` is `malloc`, `__posix_memalign`).
    let base = name
        .strip_prefix("__libc_")
        .or_else(|| name.strip_prefix("__"))
        .unwrap_or(name);
    match base {
        "malloc" | "valloc" | "pvalloc" => Some(AllocSize::Arg(0)),
        "calloc" => Some(AllocSize::Product),
        "realloc" | "memalign" | "aligned_alloc" => Some(AllocSize::Arg(1)),
        "posix_memalign" => Some(AllocSize::Arg(2)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The allocators by their raw names, glibc's aliases and versioned
    /// names included, and where each takes its size.
    #[test]
    fn allocators_by_name() {
        let cases = [
            ("malloc", Some(AllocSize::Arg(0))),
            ("__libc_malloc", Some(AllocSize::Arg(0))),
            ("malloc@GLIBC_2.2.5", Some(AllocSize::Arg(0))),
            ("calloc", Some(AllocSize::Product)),
            ("realloc", Some(AllocSize::Arg(1))),
            ("__posix_memalign", Some(AllocSize::Arg(2))),
            ("aligned_alloc", Some(AllocSize::Arg(1))),
            ("_Znwm", Some(AllocSize::Arg(0))),
            ("_ZnamRKSt9nothrow_t", Some(AllocSize::Arg(0))),
            ("free", None),
            ("mallocx", None),
        ];
        for (name, want) in cases {
            assert_eq!(alloc_size_of(name), want, "{name}");
        }
        assert_eq!(AllocSize::Product.bytes([3, 5, 0]), 15);
        assert_eq!(AllocSize::Product.bytes([u64::MAX, 2, 0]), u64::MAX);
        assert_eq!(AllocSize::Arg(2).bytes([1, 2, 3]), 3);
    }
}
