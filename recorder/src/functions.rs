//! The loader's function table and code bytes as the analyses ask for them:
//! [`cct::FunctionIndex`] for the calling-context tracker, and
//! [`pathprof::CodeSource`] and [`pathprof::FunctionBounds`] for the path
//! tracker. The rules themselves are the loader's (`loader::functions`,
//! `loader::code`); the ids are the tracker's [`FuncId`]s, the table's own
//! numbers.

use std::ops::{Deref, DerefMut};

use cct::{FuncId, FunctionIndex};
use events::{Addr, ObjectMapped};
use pathprof::{CodeSource, FunctionBounds};

pub use loader::functions::{AllocSize, SharedSymbols};

/// The run's functions ([`loader::functions::FunctionTable`]), with the
/// tracker's ids.
#[derive(Default)]
pub struct FunctionTable(loader::functions::FunctionTable);

fn id((f, entry): (loader::functions::TableId, Addr)) -> (FuncId, Addr) {
    (FuncId(f.0), entry)
}

impl FunctionTable {
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// A table that shares parsed objects with the other tables of a run.
    pub fn sharing(shared: SharedSymbols) -> FunctionTable {
        FunctionTable(loader::functions::FunctionTable::sharing(shared))
    }

    /// The function containing `addr`: its id (created on first sight) and entry.
    pub fn resolve(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        self.0.resolve(addr).map(id)
    }

    /// The id reports use for code without a symbol entered at `entry`.
    pub fn unnamed(&self, entry: Addr) -> FuncId {
        FuncId(self.0.unnamed(entry).0)
    }

    pub fn add_object(&mut self, obj: &ObjectMapped) {
        self.0.add_object(&obj.path, obj.bias);
    }
}

impl Deref for FunctionTable {
    type Target = loader::functions::FunctionTable;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl FunctionIndex for FunctionTable {
    fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        self.0.function_at(addr).map(id)
    }

    fn is_plt(&self, addr: Addr) -> bool {
        self.0.is_plt(addr)
    }

    fn is_lazy_resolver(&self, addr: Addr) -> bool {
        self.0.is_lazy_resolver(addr)
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.add_object(obj);
    }
}

/// The code the path tracker reads ([`loader::code::Program`]).
#[derive(Default)]
pub struct Program(loader::code::Program);

impl Program {
    pub fn new() -> Program {
        Program::default()
    }
}

impl Deref for Program {
    type Target = loader::code::Program;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Program {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl CodeSource for Program {
    fn read(&self, addr: Addr, len: usize) -> Option<&[u8]> {
        self.0.read(addr, len)
    }
}

impl FunctionBounds for Program {
    fn leaves_function(&self, func: Addr, target: Addr) -> bool {
        self.0.leaves_function(func, target)
    }

    fn never_returns(&self, callee: Addr) -> bool {
        self.0.never_returns(callee)
    }
}
