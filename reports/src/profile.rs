//! The profile: everything `pathvm run` measured, in a form every other
//! command reads. Functions and contexts carry one `u64` per metric, in the
//! order of [`Profile::metrics`].

use serde::{Deserialize, Serialize};

/// How the run was made: enough to interpret and compare two profiles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    pub pathvm_version: String,
    /// The guest command line (program and arguments).
    pub command: Vec<String>,
    /// The guest environment.
    pub env: Vec<String>,
    pub cpu_model: String,
    /// Settings that change counts (seed, cache and branch geometry, ...),
    /// sorted by key.
    pub config: Vec<(String, String)>,
    /// Every object mapped executable during the run.
    pub objects: Vec<ObjectInfo>,
    /// How the guest stopped, in words ("exited with status 0", ...).
    pub stop: String,
    /// The exit status `pathvm run` gave.
    pub exit_status: i32,
}

/// One object (executable, interpreter, library).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectInfo {
    pub path: String,
    pub size: u64,
    /// Hex GNU build-id, or a content hash prefixed `sha:` / `fnv:` when absent.
    pub id: String,
}

/// Per-function totals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionRow {
    /// Demangled name (`0x...` when the address has no symbol).
    pub name: String,
    /// Path of the object that holds it.
    pub object: String,
    /// Source file and line of its entry, when DWARF says.
    pub file: Option<String>,
    pub line: Option<u32>,
    /// Times it was called (calls and tail calls).
    pub calls: u64,
    /// Cost of its own instructions, per metric.
    pub self_cost: Vec<u64>,
    /// Cost while it was on the stack (counted once under recursion), per metric.
    pub inclusive: Vec<u64>,
}

/// The calling context tree as columns, parents before children; node 0 is
/// the root (no function).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextTable {
    /// Parent node index (the root is its own parent).
    pub parent: Vec<u32>,
    /// Index into [`Profile::functions`] (`u32::MAX` for the root and for
    /// thread roots).
    pub function: Vec<u32>,
    /// Guest address of the call instruction (0 for roots).
    pub call_site: Vec<u64>,
    /// Bit 0: reached by a tail call; bit 1: signal handler frame; bit 2: thread root.
    pub flags: Vec<u8>,
    pub calls: Vec<u64>,
    /// Self cost, `metrics.len()` values per node.
    pub self_cost: Vec<u64>,
}

/// A whole profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub meta: Meta,
    /// Metric names (`instructions`, `l1d-miss`, ...), the column order of
    /// every cost vector.
    pub metrics: Vec<String>,
    pub totals: Vec<u64>,
    pub functions: Vec<FunctionRow>,
    pub contexts: ContextTable,
}

impl Profile {
    /// Column of a metric by name.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m == name)
    }
}
