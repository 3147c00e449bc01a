//! The profile: everything `pathvm run` measured, in a form every other
//! command reads. Functions and contexts carry one `u64` per metric, in the
//! order of [`Profile::metrics`].

use serde::{Deserialize, Serialize};

/// Valgrind's event names (cachegrind's and callgrind's) of the metrics
/// that count what the event counts: accepted wherever a metric is named,
/// and the names of the callgrind export. Valgrind splits last-level misses
/// by kind (`ILmr`, `DLmr`, `DLmw`); `ll-miss` is their sum and keeps its
/// own name.
pub const VALGRIND_EVENTS: [(&str, &str); 10] = [
    ("Ir", "instructions"),
    ("Dr", "loads"),
    ("Dw", "stores"),
    ("I1mr", "l1i-miss"),
    ("D1mr", "l1d-read-miss"),
    ("D1mw", "l1d-write-miss"),
    ("Bc", "branches"),
    ("Bcm", "branch-misses"),
    ("Bi", "indirect"),
    ("Bim", "indirect-misses"),
];

/// How the run was made: enough to interpret and compare two profiles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Version of the pathvm that made the run.
    pub pathvm_version: String,
    /// The guest command line (program and arguments).
    pub command: Vec<String>,
    /// The guest environment.
    pub env: Vec<String>,
    /// The virtual CPU model the guest saw.
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

/// The CPU model a run has unless `pathvm run --cpu` chose another.
pub const DEFAULT_CPU_MODEL: &str = "x86-64-v2";

/// A recorded CPU model's name: profiles made before the model could be
/// chosen recorded a description of the x86-64-v2 model
/// ("Haswell (as emulated: ...)").
pub fn cpu_model_name(recorded: &str) -> &str {
    if recorded.starts_with("Haswell (as emulated") {
        DEFAULT_CPU_MODEL
    } else {
        recorded
    }
}

/// Why two profiles' counts are not comparable: they were made on
/// different CPU models (which change the instructions, and the C library's
/// choice of functions). `None` when the models are the same.
pub fn cpu_mismatch(old: &Meta, new: &Meta) -> Option<String> {
    let (a, b) = (
        cpu_model_name(&old.cpu_model),
        cpu_model_name(&new.cpu_model),
    );
    (a != b).then(|| {
        format!(
            "the profiles were made on different CPU models ({a} and {b}); \
             --allow-cpu-mismatch compares them anyway"
        )
    })
}

/// One object (executable, interpreter, library).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectInfo {
    /// Path of the file as the guest mapped it.
    pub path: String,
    /// Its size in bytes.
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
    /// Line of its entry, when DWARF says.
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
    /// code without a function row).
    pub function: Vec<u32>,
    /// Guest address of the call instruction (0 for the root and signal
    /// handlers); for a thread root, the thread's tid.
    pub call_site: Vec<u64>,
    /// Bit 0: reached by a tail call; bit 1: signal handler frame; bit 2:
    /// thread root (a child of the root: the function a guest thread started
    /// in, one per thread); bit 3: the recursion depth cap was hit below it.
    pub flags: Vec<u8>,
    /// Times the node was entered (its call edge count).
    pub calls: Vec<u64>,
    /// Self cost, `metrics.len()` values per node.
    pub self_cost: Vec<u64>,
}

/// A whole profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// How the run was made.
    pub meta: Meta,
    /// Metric names (`instructions`, `l1d-miss`, ...), the column order of
    /// every cost vector.
    pub metrics: Vec<String>,
    /// Whole-run total per metric.
    pub totals: Vec<u64>,
    /// One row per function that ran or was called.
    pub functions: Vec<FunctionRow>,
    /// The calling context tree (empty when not recorded).
    pub contexts: ContextTable,
    /// Ball-Larus path profiles (empty when not recorded).
    pub paths: PathProfile,
    /// The phases of the run (`PATHVM_PHASE` markers of `include/pathvm.h`),
    /// in order of first appearance: the first is `main`, the part before
    /// any phase marker. Their totals add up to [`Profile::totals`]. Empty
    /// when not recorded.
    pub phases: Vec<Phase>,
    /// Costs per executed block (translation block), for `report --by
    /// block`.
    pub blocks: BlockProfile,
    /// Costs per instruction, for `report --by line` and `--by
    /// instruction` (empty in profiles of format versions before 4).
    pub insns: InsnProfile,
    /// The inline frames of the instructions of [`Profile::insns`]
    /// (empty in profiles of format versions before 5, and when the run's
    /// code has no DWARF inline information).
    pub inlines: InlineProfile,
}

/// Inline frames (DWARF `DW_TAG_inlined_subroutine`): for each instruction
/// of [`Profile::insns`] in inlined code, its chain of inline frames,
/// interned as a tree. An instruction's innermost frame is the function
/// its own line belongs to; each frame was inlined at its call site into
/// its parent, and a frame without parent into the instruction's
/// physical function (its block's function row).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineProfile {
    /// The distinct frames, parents before children.
    pub frames: Vec<InlineFrame>,
    /// The instructions in inlined code, in address order.
    pub insns: Vec<InlineInsn>,
}

/// One inline frame: a function inlined at a call site.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineFrame {
    /// The inlined function's name (demangled).
    pub function: String,
    /// The call site's file, an index into [`BlockProfile::files`], when
    /// known.
    pub call_file: Option<u32>,
    /// The call site's line (0 when unknown).
    pub call_line: u32,
    /// The frame it was inlined into (an earlier index into
    /// [`InlineProfile::frames`]); `None`: the physical function.
    pub parent: Option<u32>,
}

/// One instruction in inlined code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineInsn {
    /// The address minus the previous row's (the first row: its address).
    pub gap: u64,
    /// Its innermost frame, an index into [`InlineProfile::frames`].
    pub frame: u32,
}

impl InlineProfile {
    /// Builds the table from each instruction's frames, innermost first
    /// (`(function, call file, call line)`), in address order; instructions
    /// without frames are left out.
    pub fn from_chains<'a>(
        chains: impl IntoIterator<Item = (u64, &'a [(String, Option<u32>, u32)])>,
    ) -> InlineProfile {
        let mut out = InlineProfile::default();
        let mut ids: std::collections::HashMap<(Option<u32>, &'a (String, Option<u32>, u32)), u32> =
            Default::default();
        let mut prev = 0u64;
        for (addr, chain) in chains {
            let mut parent = None;
            for frame in chain.iter().rev() {
                let next = out.frames.len() as u32;
                let id = *ids.entry((parent, frame)).or_insert_with(|| {
                    out.frames.push(InlineFrame {
                        function: frame.0.clone(),
                        call_file: frame.1,
                        call_line: frame.2,
                        parent,
                    });
                    next
                });
                parent = Some(id);
            }
            if let Some(frame) = parent {
                out.insns.push(InlineInsn {
                    gap: addr - prev,
                    frame,
                });
                prev = addr;
            }
        }
        out
    }

    /// Each instruction in inlined code as its address and innermost
    /// frame, in address order.
    pub fn by_address(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let mut addr = 0u64;
        self.insns.iter().map(move |r| {
            addr = addr.wrapping_add(r.gap);
            (addr, r.frame)
        })
    }

    /// The chain of frame `frame`: it, then its parents (innermost first).
    pub fn chain(&self, frame: u32) -> impl Iterator<Item = &InlineFrame> + '_ {
        let mut at = self.frames.get(frame as usize);
        std::iter::from_fn(move || {
            let f = at?;
            at = f.parent.and_then(|p| self.frames.get(p as usize));
            Some(f)
        })
    }

    /// True when no instruction is in inlined code.
    pub fn is_empty(&self) -> bool {
        self.insns.is_empty()
    }
}

/// Costs per instruction: everything each instruction caused, whole run
/// (as the blocks: `--toggle-collect` and the region markers do not apply).
/// An instruction's source line is the one its blocks give it.
///
/// Instructions: each instruction's executions. Loads and stores: counted
/// by the instruction that made them. L1I misses: by the instruction whose
/// fetch missed; L1D misses by the instruction whose access missed; LL
/// misses by either. Branches, indirect transfers and their
/// mispredictions: by the block's last instruction. `alloc-bytes`: by the
/// call instruction whose call reached the allocator. Derived metrics
/// (`cycles`, `l1d-miss`, ...) from those.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsnProfile {
    /// One row per instruction with a cost, in address order.
    pub rows: Vec<InsnRow>,
    /// What no instruction is known for (an access made by a helper of
    /// the emulator that could not say which instruction called it), one
    /// value per metric; with the rows, it adds up to the blocks' costs
    /// (and `alloc-bytes`). Empty when the profile has no rows.
    pub unknown: Vec<u64>,
}

/// One instruction's costs, sparse: the metrics with a nonzero value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsnRow {
    /// The instruction's address minus the previous row's (the first row:
    /// its address), so that the varints stay short.
    pub gap: u64,
    /// Bit `i`: metric `i` of [`Profile::metrics`] has a value in `cost`.
    pub mask: u64,
    /// The nonzero values, in metric order.
    pub cost: Vec<u64>,
}

impl InsnProfile {
    /// The rows of `(address, cost per metric)` pairs in address order
    /// (each address once, zero costs left out), and `unknown`.
    pub fn from_dense<'a>(
        rows: impl IntoIterator<Item = (u64, &'a [u64])>,
        unknown: Vec<u64>,
    ) -> InsnProfile {
        let mut out = Vec::new();
        let mut prev = 0u64;
        for (addr, cost) in rows {
            let mut mask = 0u64;
            let mut values = Vec::new();
            for (i, &v) in cost.iter().enumerate().take(64) {
                if v != 0 {
                    mask |= 1 << i;
                    values.push(v);
                }
            }
            if mask == 0 {
                continue;
            }
            out.push(InsnRow {
                gap: addr - prev,
                mask,
                cost: values,
            });
            prev = addr;
        }
        InsnProfile { rows: out, unknown }
    }

    /// Each row as its address and its cost per metric (`n_metrics` values).
    pub fn dense(&self, n_metrics: usize) -> impl Iterator<Item = (u64, Vec<u64>)> + '_ {
        let mut addr = 0u64;
        self.rows.iter().map(move |r| {
            addr = addr.wrapping_add(r.gap);
            let mut cost = vec![0u64; n_metrics];
            let mut values = r.cost.iter();
            for (i, c) in cost.iter_mut().enumerate().take(64) {
                if r.mask & (1 << i) != 0 {
                    *c = values.next().copied().unwrap_or(0);
                }
            }
            (addr, cost)
        })
    }

    /// True when the profile has no costs per instruction.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.unknown.iter().all(|&v| v == 0)
    }
}

/// Costs per executed block of code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockProfile {
    /// Source file names, indexed by [`PathLine::file`].
    pub files: Vec<String>,
    /// One row per block the VM executed (blocks with the same start and
    /// different lengths are different rows).
    pub blocks: Vec<BlockRow>,
}

/// One executed block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockRow {
    /// Guest address of its first instruction.
    pub start: u64,
    /// Index into [`Profile::functions`] of the function its start belongs
    /// to (`u32::MAX` when it has no row).
    pub function: u32,
    /// Times it ran.
    pub executions: u64,
    /// Its instructions' addresses as offsets from `start`.
    pub insns: Vec<u32>,
    /// Per instruction, its source line (`file` = `u32::MAX` when unknown).
    pub lines: Vec<PathLine>,
    /// Cost per metric: everything its instructions caused (a branch's
    /// outcome with the block that ends in it), whole run.
    pub cost: Vec<u64>,
}

/// Ball-Larus path profiles of a run: per function, the acyclic paths taken
/// through its control-flow graph, per calling context.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathProfile {
    /// False when the run did not track paths (`--no-paths`).
    pub recorded: bool,
    /// Source file names, indexed by [`PathLine::file`].
    pub files: Vec<String>,
    /// One entry per function entered at least once.
    pub functions: Vec<PathFunction>,
    /// Instructions on no function's path: run in hidden frames (the lazy
    /// resolver and what it calls) or before a thread's first frame. With
    /// the functions' `lost_instructions` and their paths' instructions,
    /// they add up to the run's instructions.
    pub unattributed_instructions: u64,
}

impl PathProfile {
    /// Keep only the rows of contexts `new_of` maps (`u32::MAX`: dropped, as
    /// is a context past its end), renumbered to `new_of[context]`.
    pub fn renumber_contexts(&mut self, new_of: &[u32]) {
        for f in &mut self.functions {
            f.rows.retain(|r| {
                new_of
                    .get(r.context as usize)
                    .is_some_and(|&c| c != u32::MAX)
            });
            for r in &mut f.rows {
                r.context = new_of[r.context as usize];
            }
        }
    }
}

/// How a function's path ids are made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PathNumbering {
    /// Ball-Larus numbers `0..paths` of the final graph.
    Numbered {
        /// Number of acyclic paths of the graph.
        paths: u64,
    },
    /// Too many paths to number: each path taken is its edge sequence, the
    /// id its index.
    Interned {
        /// Why it could not be numbered.
        reason: String,
    },
    /// The code could not be decoded: no paths.
    #[default]
    Untracked,
}

/// The paths of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathFunction {
    /// Index into [`Profile::functions`] (`u32::MAX` if the function has no row).
    pub function: u32,
    /// Guest address of the entry the graph was discovered from.
    pub entry: u64,
    /// How ids are made.
    pub numbering: PathNumbering,
    /// Frames entered.
    pub frames: u64,
    /// Paths begun somewhere other than the entry (after a non-local exit
    /// landed in the function, or a call into its middle).
    pub resumes: u64,
    /// Executed blocks no path could follow.
    pub lost_blocks: u64,
    /// Their instructions (and those of PLT stubs run while none of the
    /// function's paths was open).
    pub lost_instructions: u64,
    /// Times the graph grew during the run (each one renumbered it).
    pub cfg_changes: u64,
    /// Blocks of the graph that some path goes through.
    pub blocks: Vec<PathBlock>,
    /// Distinct paths taken.
    pub paths: Vec<PathInfo>,
    /// Counts and costs per path and context.
    pub rows: Vec<PathRow>,
}

/// A basic block of a function's graph.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathBlock {
    /// Guest address of its first instruction.
    pub start: u64,
    /// Its instructions' addresses as offsets from `start`.
    pub insns: Vec<u32>,
    /// Source lines of its instructions, in order, consecutive repeats merged.
    pub lines: Vec<PathLine>,
    /// Per instruction: its disassembly (Intel syntax) and its source line
    /// (`u32::MAX` when none), for `report --annotate`.
    pub text: Vec<String>,
    /// Per instruction: index into [`PathBlock::lines`], `u32::MAX` when none.
    pub insn_lines: Vec<u32>,
}

/// A source position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathLine {
    /// Index into [`PathProfile::files`].
    pub file: u32,
    /// Line number.
    pub line: u32,
}

/// One path of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathInfo {
    /// The path's id in the function's numbering (see [`PathNumbering`]);
    /// for a truncated path, the partial sum where it stopped.
    pub id: u64,
    /// The path was abandoned before EXIT or a back edge (a non-local exit,
    /// the end of the run); `blocks` is the prefix that ran.
    pub truncated: bool,
    /// A whole path that ended at EXIT (`ret`, tail call, a call that does
    /// not return); false for one that ended at a back edge, or truncated.
    pub exit: bool,
    /// For a path that began at a loop header after a back edge: the start
    /// of the block the back edge left (paths after different back edges
    /// into one header are different paths).
    pub after: Option<u64>,
    /// Its blocks in order, as indices into [`PathFunction::blocks`].
    pub blocks: Vec<u32>,
    /// Instructions run on one traversal (a truncated path's prefix:
    /// up to where it stopped).
    pub length: u64,
}

/// How often one path ran in one context, and what it cost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathRow {
    /// Index into [`PathFunction::paths`].
    pub path: u32,
    /// Calling context: a node of [`Profile::contexts`] (0 when the run kept no tree).
    pub context: u32,
    /// Times the path was taken.
    pub count: u64,
    /// Its own instructions (exclusive of callees), summed over those times.
    pub insns: u64,
    /// Cost per metric, in the order of [`Profile::metrics`], exclusive of
    /// callees; a PLT stub's cost counts to its caller's path, as in the
    /// function view.
    pub cost: Vec<u64>,
}

/// The costs of one phase: everything counted while it was the current
/// phase (every stretch of the run between a `PATHVM_PHASE(name)` marker
/// and the next phase marker, summed per name).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    /// The name given to `PATHVM_PHASE` (`main` for the first).
    pub name: String,
    /// Its total per metric, in the order of [`Profile::metrics`].
    pub totals: Vec<u64>,
    /// The self cost of each function in the phase, for the functions
    /// with a cost in it, in the order of [`Profile::functions`].
    pub functions: Vec<PhaseFunction>,
}

/// The self cost of one function in one phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseFunction {
    /// Index into [`Profile::functions`].
    pub function: u32,
    /// Cost of its own instructions in the phase, per metric.
    pub self_cost: Vec<u64>,
}

impl Profile {
    /// Column of a metric by name, or by its valgrind event name
    /// ([`VALGRIND_EVENTS`]: `Ir`, `D1mr`, ...).
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m == name).or_else(|| {
            let (_, metric) = VALGRIND_EVENTS.iter().find(|(e, _)| *e == name)?;
            self.metrics.iter().position(|m| m == metric)
        })
    }

    /// The phase named `name`.
    pub fn phase(&self, name: &str) -> Option<&Phase> {
        self.phases.iter().find(|p| p.name == name)
    }
}

impl ObjectInfo {
    /// The last component of [`ObjectInfo::path`] (`libc.so.6`).
    pub fn file_name(&self) -> &str {
        file_name(&self.path)
    }
}

/// The last component of a `/`-separated path; the whole string when it has none.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

impl ContextTable {
    /// [`ContextTable::function`] of the root and of nodes with no function row.
    pub const NO_FUNCTION: u32 = u32::MAX;
    /// [`ContextTable::flags`] bit: the node was reached by a tail call.
    pub const FLAG_TAIL_CALL: u8 = 1;
    /// [`ContextTable::flags`] bit: a signal handler frame.
    pub const FLAG_SIGNAL: u8 = 2;
    /// [`ContextTable::flags`] bit: the root of a guest thread.
    pub const FLAG_THREAD_ROOT: u8 = 4;
    /// [`ContextTable::flags`] bit: the recursion depth cap was hit below the node.
    pub const FLAG_DEPTH_CAPPED: u8 = 8;

    /// The tid of thread root `node` (see [`ContextTable::call_site`]).
    pub fn thread_of_root(&self, node: usize) -> Option<u32> {
        (node > 0 && self.parent[node] == 0 && self.flags[node] & Self::FLAG_THREAD_ROOT != 0)
            .then(|| self.call_site[node] as u32)
    }

    /// Number of nodes, the root included (0 when the profile has no tree).
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// True when the profile recorded no calling contexts.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Self cost of `node`, one value per metric (`n_metrics` of them).
    pub fn self_of(&self, node: usize, n_metrics: usize) -> &[u64] {
        &self.self_cost[node * n_metrics..(node + 1) * n_metrics]
    }

    /// Inclusive cost of every node, `n_metrics` values per node, computed
    /// from the self costs in one reverse pass (parents precede children).
    pub fn inclusive(&self, n_metrics: usize) -> Vec<u64> {
        let mut incl = self.self_cost.clone();
        for node in (1..self.len()).rev() {
            let parent = self.parent[node] as usize;
            for m in 0..n_metrics {
                incl[parent * n_metrics + m] =
                    incl[parent * n_metrics + m].saturating_add(incl[node * n_metrics + m]);
            }
        }
        incl
    }

    /// The table of the nodes `keep` marks, in their order (a kept node's
    /// parent must be kept: the root always is), and the new index of
    /// every old node (`u32::MAX`: dropped). Kept nodes keep their calls
    /// and self costs. The one renumbering of contexts: path rows follow it
    /// with [`PathProfile::renumber_contexts`].
    pub fn retain(&self, keep: &[bool], n_metrics: usize) -> (ContextTable, Vec<u32>) {
        let mut new_of = vec![u32::MAX; self.len()];
        let mut out = ContextTable::default();
        for node in (0..self.len()).filter(|&i| keep[i]) {
            new_of[node] = out.parent.len() as u32;
            out.parent.push(new_of[self.parent[node] as usize]);
            out.function.push(self.function[node]);
            out.call_site.push(self.call_site[node]);
            out.flags.push(self.flags[node]);
            out.calls.push(self.calls[node]);
            out.self_cost
                .extend_from_slice(self.self_of(node, n_metrics));
        }
        (out, new_of)
    }

    /// Calls, self and inclusive cost of every function row (indices
    /// `0..n_functions`) from the tree: a function's inclusive cost is the
    /// sum over its outermost activations ([`outermost_activations`]).
    pub fn function_costs(&self, n_functions: usize, n_metrics: usize) -> FunctionCosts {
        let m = n_metrics;
        let mut out = FunctionCosts {
            calls: vec![0; n_functions],
            self_cost: vec![0; n_functions * m],
            inclusive: vec![0; n_functions * m],
            used: vec![false; n_functions],
        };
        let incl = self.inclusive(m);
        let outermost = outermost_activations(&self.parent, &self.function);
        for node in 1..self.len() {
            let f = self.function[node];
            if f == Self::NO_FUNCTION {
                continue;
            }
            let fi = f as usize;
            out.used[fi] = true;
            out.calls[fi] += self.calls[node];
            for k in 0..m {
                out.self_cost[fi * m + k] += self.self_cost[node * m + k];
                if outermost[node] {
                    out.inclusive[fi * m + k] += incl[node * m + k];
                }
            }
        }
        out
    }

    /// Depth of every node: 0 for the root, 1 for its children, ...
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.len()];
        for node in 1..self.len() {
            depth[node] = depth[self.parent[node] as usize] + 1;
        }
        depth
    }
}

/// What [`ContextTable::function_costs`] finds per function row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionCosts {
    /// Calls (the calls of its nodes).
    pub calls: Vec<u64>,
    /// Self cost, `n_metrics` values per function: the sum of its nodes'.
    pub self_cost: Vec<u64>,
    /// Inclusive cost, `n_metrics` values per function, each activation
    /// once under recursion.
    pub inclusive: Vec<u64>,
    /// Whether some node has the function.
    pub used: Vec<bool>,
}

/// Per node of a tree given by its parents (parents before children, node
/// 0 the root, its own parent) and the function of each node: whether no
/// ancestor has the same function. A function's inclusive cost is the sum
/// of the inclusive costs of these nodes, so that each activation counts
/// once under recursion (`f → g → f`: the inner `f` is inside the outer).
/// The one statement of that rule: the recorder's function rows and
/// [`ContextTable::function_costs`] both use it.
pub fn outermost_activations(parent: &[u32], function: &[u32]) -> Vec<bool> {
    let mut out = vec![true; parent.len()];
    for node in 1..parent.len() {
        let f = function[node];
        let mut a = parent[node] as usize;
        while a != 0 {
            if function[a] == f {
                out[node] = false;
                break;
            }
            a = parent[a] as usize;
        }
    }
    out
}

/// Per node of a tree given by its parents (parents before children, node
/// 0 the root): whether a focus on the nodes `here` marks keeps it. The
/// rule of `run --focus` and `report --focus`: the contexts on call paths
/// that reach a marked node, that is the marked nodes, everything below
/// them, and their ancestors (the root always).
pub fn focus_keep(parent: &[u32], here: &[bool]) -> Vec<bool> {
    let n = parent.len();
    let mut keep = vec![false; n];
    for node in 1..n {
        keep[node] = here[node] || keep[parent[node] as usize];
    }
    for node in (1..n).rev() {
        if keep[node] {
            keep[parent[node] as usize] = true;
        }
    }
    if n > 0 {
        keep[0] = true;
    }
    keep
}

impl Profile {
    /// Checks that the columns agree with each other, so that every view
    /// can index without checking: one value per metric in every cost
    /// vector, unique metric names, equal column lengths in the context
    /// table, parents before children, function indices in range.
    ///
    /// [`crate::read_profile`] runs it on every file it reads; the report
    /// functions run it on the profiles they are given.
    pub fn validate(&self) -> Result<(), String> {
        let m = self.metrics.len();
        for (i, name) in self.metrics.iter().enumerate() {
            if self.metrics[..i].contains(name) {
                return Err(format!("metric `{name}` appears twice"));
            }
        }
        if self.totals.len() != m {
            return Err(format!("{} totals for {m} metrics", self.totals.len()));
        }
        for f in &self.functions {
            if f.self_cost.len() != m || f.inclusive.len() != m {
                return Err(format!(
                    "function `{}` has costs for {} metrics, not {m}",
                    f.name,
                    f.self_cost.len()
                ));
            }
        }
        if !self.phases.is_empty() {
            let mut sum = vec![0u64; m];
            for (i, p) in self.phases.iter().enumerate() {
                if self.phases[..i].iter().any(|q| q.name == p.name) {
                    return Err(format!("phase `{}` appears twice", p.name));
                }
                if p.totals.len() != m {
                    return Err(format!(
                        "phase `{}` has totals for {} metrics, not {m}",
                        p.name,
                        p.totals.len()
                    ));
                }
                for (s, &v) in sum.iter_mut().zip(&p.totals) {
                    *s = s.saturating_add(v);
                }
                for f in &p.functions {
                    if f.function as usize >= self.functions.len() || f.self_cost.len() != m {
                        return Err(format!(
                            "phase `{}` has a bad row for function {}",
                            p.name, f.function
                        ));
                    }
                }
            }
            if sum != self.totals {
                return Err("the phases do not add up to the totals".into());
            }
        }
        let c = &self.contexts;
        let n = c.parent.len();
        if c.function.len() != n
            || c.call_site.len() != n
            || c.flags.len() != n
            || c.calls.len() != n
        {
            return Err("context table columns differ in length".into());
        }
        if c.self_cost.len() != n.checked_mul(m).ok_or("context table too large")? {
            return Err(format!(
                "context table has {} costs for {n} nodes of {m} metrics",
                c.self_cost.len()
            ));
        }
        if n > 0 && c.parent[0] != 0 {
            return Err("context 0 is not the root".into());
        }
        for node in 1..n {
            if c.parent[node] as usize >= node {
                return Err(format!(
                    "context {node} comes before its parent {}",
                    c.parent[node]
                ));
            }
            let f = c.function[node];
            if f != ContextTable::NO_FUNCTION && f as usize >= self.functions.len() {
                return Err(format!(
                    "context {node} names function {f} of {}",
                    self.functions.len()
                ));
            }
        }
        self.validate_paths()?;
        self.validate_blocks()?;
        self.validate_insns()?;
        self.validate_inlines()
    }

    fn validate_inlines(&self) -> Result<(), String> {
        let p = &self.inlines;
        let files = self.blocks.files.len();
        for (i, f) in p.frames.iter().enumerate() {
            if f.parent.is_some_and(|q| q as usize >= i) {
                return Err(format!("inline frame {i} comes before its parent"));
            }
            if f.call_file.is_some_and(|q| q as usize >= files) {
                return Err(format!("inline frame {i} names a file out of range"));
            }
        }
        let mut addr = 0u64;
        for (k, r) in p.insns.iter().enumerate() {
            if k > 0 && r.gap == 0 {
                return Err("an inline row repeats an address".into());
            }
            addr = addr.checked_add(r.gap).ok_or("inline addresses overflow")?;
            if r.frame as usize >= p.frames.len() {
                return Err(format!(
                    "instruction {addr:#x} names an inline frame out of range"
                ));
            }
        }
        Ok(())
    }

    fn validate_insns(&self) -> Result<(), String> {
        let m = self.metrics.len();
        let p = &self.insns;
        if !p.unknown.is_empty() && p.unknown.len() != m {
            return Err(format!(
                "the unknown instruction has costs for {} metrics, not {m}",
                p.unknown.len()
            ));
        }
        let mut addr = 0u64;
        for (k, r) in p.rows.iter().enumerate() {
            if k > 0 && r.gap == 0 {
                return Err("an instruction row repeats an address".into());
            }
            addr = addr
                .checked_add(r.gap)
                .ok_or("instruction addresses overflow")?;
            if m < 64 && r.mask >> m != 0 {
                return Err(format!("instruction {addr:#x} names a metric out of range"));
            }
            if r.mask.count_ones() as usize != r.cost.len() {
                return Err(format!(
                    "instruction {addr:#x} has {} costs for {} metrics",
                    r.cost.len(),
                    r.mask.count_ones()
                ));
            }
        }
        Ok(())
    }

    fn validate_blocks(&self) -> Result<(), String> {
        let m = self.metrics.len();
        let b = &self.blocks;
        for r in &b.blocks {
            if r.cost.len() != m {
                return Err(format!(
                    "block {:#x} has costs for {} metrics, not {m}",
                    r.start,
                    r.cost.len()
                ));
            }
            if r.lines.len() != r.insns.len() {
                return Err(format!(
                    "block {:#x} has {} lines for {} instructions",
                    r.start,
                    r.lines.len(),
                    r.insns.len()
                ));
            }
            if r.lines
                .iter()
                .any(|l| l.file != u32::MAX && l.file as usize >= b.files.len())
            {
                return Err(format!("block {:#x} names a file out of range", r.start));
            }
            if r.function != ContextTable::NO_FUNCTION
                && r.function as usize >= self.functions.len()
            {
                return Err(format!(
                    "block {:#x} names function {}",
                    r.start, r.function
                ));
            }
        }
        Ok(())
    }

    fn validate_paths(&self) -> Result<(), String> {
        let m = self.metrics.len();
        let p = &self.paths;
        for f in &p.functions {
            if f.function != ContextTable::NO_FUNCTION
                && f.function as usize >= self.functions.len()
            {
                return Err(format!(
                    "paths name function {} of {}",
                    f.function,
                    self.functions.len()
                ));
            }
            for b in &f.blocks {
                if b.lines.iter().any(|l| l.file as usize >= p.files.len()) {
                    return Err(format!("block {:#x} names a file out of range", b.start));
                }
            }
            for path in &f.paths {
                if path.blocks.iter().any(|&b| b as usize >= f.blocks.len()) {
                    return Err(format!("path {} names a block out of range", path.id));
                }
            }
            for r in &f.rows {
                if r.path as usize >= f.paths.len() {
                    return Err(format!(
                        "a path row names path {} of {}",
                        r.path,
                        f.paths.len()
                    ));
                }
                if r.cost.len() != m {
                    return Err(format!(
                        "a path row has costs for {} metrics, not {m}",
                        r.cost.len()
                    ));
                }
                if !self.contexts.is_empty() && r.context as usize >= self.contexts.len() {
                    return Err(format!("a path row names context {}", r.context));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 root ─ 1 f ─ 2 g ─ 3 f ─ 4 h
    ///          └ 5 g
    fn recursive_table() -> ContextTable {
        let mut c = ContextTable::default();
        for (parent, function, self_cost) in [
            (0, ContextTable::NO_FUNCTION, 0),
            (0, 0, 1),
            (1, 1, 2),
            (2, 0, 4),
            (3, 2, 8),
            (1, 1, 16),
        ] {
            c.parent.push(parent);
            c.function.push(function);
            c.call_site.push(0);
            c.flags.push(0);
            c.calls.push(1);
            c.self_cost.push(self_cost);
        }
        c
    }

    #[test]
    fn instruction_rows_are_sparse_and_checked() {
        let rows: [(u64, &[u64]); 3] = [
            (0x1000, &[5, 0, 2]),
            (0x1004, &[0, 0, 0]),
            (0x1009, &[1, 7, 0]),
        ];
        let p = InsnProfile::from_dense(rows, vec![0, 1, 0]);
        assert_eq!(p.rows.len(), 2, "a row without cost is left out");
        assert_eq!(
            (p.rows[1].gap, p.rows[1].mask, &p.rows[1].cost[..]),
            (9, 3, &[1, 7][..])
        );
        let back: Vec<(u64, Vec<u64>)> = p.dense(3).collect();
        assert_eq!(back, [(0x1000, vec![5, 0, 2]), (0x1009, vec![1, 7, 0])]);
        let mut profile = Profile {
            metrics: vec!["a".into(), "b".into(), "c".into()],
            totals: vec![0; 3],
            insns: p,
            ..Profile::default()
        };
        assert_eq!(profile.validate(), Ok(()));
        profile.insns.rows[1].cost.pop();
        assert!(profile
            .validate()
            .unwrap_err()
            .contains("has 1 costs for 2 metrics"));
        profile.insns.rows[1].cost.push(7);
        profile.insns.rows[1].mask = 1 << 3;
        profile.insns.rows[1].cost.pop();
        assert!(profile.validate().unwrap_err().contains("out of range"));
    }

    #[test]
    fn inclusive_counts_each_activation_once() {
        let c = recursive_table();
        assert_eq!(
            outermost_activations(&c.parent, &c.function),
            [true, true, true, false, true, true]
        );
        let f = c.function_costs(3, 1);
        assert_eq!(f.calls, [2, 2, 1]);
        assert_eq!(f.self_cost, [5, 18, 8]);
        // f: node 1 only (31); g: nodes 2 and 5 (14 + 16); h: 8.
        assert_eq!(f.inclusive, [31, 30, 8]);
        assert_eq!(f.used, [true, true, true]);
    }

    #[test]
    fn focus_keeps_what_reaches_a_match_and_what_is_below() {
        let c = recursive_table();
        // Focus on g's node 2: its ancestors, itself and below; not node 5.
        let here = [false, false, true, false, false, false];
        let keep = focus_keep(&c.parent, &here);
        assert_eq!(keep, [true, true, true, true, true, false]);
        let (kept, new_of) = c.retain(&keep, 1);
        assert_eq!(new_of, [0, 1, 2, 3, 4, u32::MAX]);
        assert_eq!(kept.parent, [0, 0, 1, 2, 3]);
        assert_eq!(kept.self_cost, [0, 1, 2, 4, 8]);
        // Focus on the other g (node 5): the root, f and it.
        let keep = focus_keep(&c.parent, &[false, false, false, false, false, true]);
        assert_eq!(keep, [true, true, false, false, false, true]);
        let (kept, new_of) = c.retain(&keep, 1);
        assert_eq!(new_of, [0, 1, u32::MAX, u32::MAX, u32::MAX, 2]);
        assert_eq!(kept.parent, [0, 0, 1]);
        assert!(focus_keep(&[], &[]).is_empty());
    }
}
