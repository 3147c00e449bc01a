//! The guest's functions, named from the symbols of every object mapped
//! during the run. Serves the calling-context tracker (as its
//! [`cct::FunctionIndex`]) and the profile's function rows, so both agree on
//! what a function is.

use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, Mutex};

use cct::{FuncId, FunctionIndex};
use events::{Addr, ObjectMapped};
use loader::elf::ElfImage;
use loader::symbols::{ObjectSymbols, Symbolizer};
use rustc_hash::FxHashMap;

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
    by_key: FxHashMap<(String, Addr), FuncId>,
}

impl Ids {
    fn get_or_add(&mut self, object: String, entry: Addr, name: impl FnOnce() -> String) -> FuncId {
        if let Some(&id) = self.by_key.get(&(object.clone(), entry)) {
            return id;
        }
        let id = FuncId(self.functions.len() as u32);
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

    /// Add an object mapped at run time (ignored if it cannot be read).
    pub fn add_object(&mut self, obj: &ObjectMapped) {
        let Ok(img) = ElfImage::open(Path::new(&obj.path)) else {
            return;
        };
        let lo = img.min_vaddr().wrapping_add(obj.bias);
        let hi = img.max_vaddr().wrapping_add(obj.bias);
        let Some(shared) = &self.shared else {
            let _ = self.symbolizer.add_object(&obj.path, obj.bias, lo..hi);
            return;
        };
        let parsed = shared.lock().ok().and_then(|m| m.get(&obj.path).cloned());
        if let Some(symbols) = parsed {
            let _ = self.symbolizer.add_parsed(symbols, obj.bias, lo..hi);
            return;
        }
        if let Ok(id) = self.symbolizer.add_object(&obj.path, obj.bias, lo..hi) {
            let mapped = self.symbolizer.objects().iter().find(|m| m.id == id);
            if let (Some(m), Ok(mut map)) = (mapped, shared.lock()) {
                map.insert(obj.path.clone(), m.symbols().clone());
            }
        }
    }

    /// The function containing `addr`: its id (created on first sight) and entry.
    pub fn resolve(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        let sym = self.symbolizer.lookup(addr)?;
        let id =
            self.ids
                .borrow_mut()
                .get_or_add(sym.object.display().to_string(), sym.start, || {
                    sym.name.to_string()
                });
        Some((id, sym.start))
    }

    /// The id reports use for code without a symbol entered at `entry`.
    pub fn unnamed(&self, entry: Addr) -> FuncId {
        let object = self
            .symbolizer
            .object_at(entry)
            .map(|o| o.path.display().to_string())
            .unwrap_or_else(|| "[unknown]".into());
        self.ids
            .borrow_mut()
            .get_or_add(object, entry, || format!("{entry:#x}"))
    }

    /// Every function given an id, indexed by `FuncId`.
    pub fn functions(&self) -> std::cell::Ref<'_, Vec<Function>> {
        std::cell::Ref::map(self.ids.borrow(), |i| &i.functions)
    }
}

impl FunctionTable {
    /// The function a split-off part (`foo.cold`, `foo.cold.1`) belongs to:
    /// its id and entry, found by name in the same object.
    fn parent_of_cold_part(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        let sym = self.symbolizer.lookup(addr)?;
        let (base, _) = sym.raw_name.split_once(".cold")?;
        let obj = self.symbolizer.object_at(addr)?;
        let parent = obj.symbols().functions().find(|f| &*f.raw_name == base)?;
        self.resolve(parent.start.wrapping_add(obj.bias))
    }
}

impl FunctionIndex for FunctionTable {
    /// Like [`FunctionTable::resolve`], except that code the compiler split
    /// off a function (`foo.cold`) belongs to that function: a jump into it
    /// (the landing pad of a `catch`, an unlikely branch) is not a call.
    fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        self.parent_of_cold_part(addr)
            .or_else(|| self.resolve(addr))
    }

    fn is_plt(&self, addr: Addr) -> bool {
        self.symbolizer.lookup(addr).is_some_and(|s| s.is_plt)
    }

    fn is_lazy_resolver(&self, addr: Addr) -> bool {
        self.symbolizer.lookup(addr).is_some_and(|s| {
            s.raw_name.starts_with("_dl_runtime_resolve")
                || s.raw_name.starts_with("_dl_runtime_profile")
        })
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.add_object(obj);
    }
}
