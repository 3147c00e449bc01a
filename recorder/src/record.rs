//! A recording session: the observer of a run (charging, toggle, alloc-bytes,
//! markers, paths) and the [`Profile`] it builds.

use std::time::{Duration, Instant};

use cachemodel::{BlockCosts, BranchOutcome, SimConfig, SimFront, Simulator};
use cct::{CallTracker, FrameEvent, FuncId, FunctionIndex, NodeId, PerThread, TrackerConfig};
use events::{
    Addr, BlockEvent, BlockExit, BlockFacts, BlockId, Costs, Marker, MemEvent, Metric,
    ObjectMapped, Observer, SparsePolicy, Terminator, Tid,
};
use reports::{ContextTable, FunctionRow, Meta, ObjectInfo, Phase, Profile};
use rustc_hash::FxHashMap;

use crate::functions::{AllocSize, FunctionTable, SharedSymbols};
use crate::markers::{CacheResets, Markers};
use crate::paths::PathRecorder;

/// How to record: everything but the program and how it is run.
#[derive(Clone, Debug)]
pub struct Options {
    pub tracker: TrackerConfig,
    /// Cache and branch simulation; `None`: instructions only.
    pub machine: Option<SimConfig>,
    /// Track Ball-Larus paths.
    pub paths: bool,
    /// Keep the calling context tree in the profile (and paths per context).
    /// Without it, recursion folds onto its first level
    /// ([`cct::RecursionPolicy::Collapse`], whatever `tracker` says).
    pub contexts: bool,
    /// `--toggle-collect`: count costs only while a function matching one
    /// of these globs is on the stack (empty: always).
    pub toggle_collect: Vec<String>,
    /// `--focus`: keep only the contexts on call paths that reach a
    /// function matching one of these globs (empty: every context).
    pub focus: Vec<String>,
    /// `--instr-atstart`: costs are counted from the start (else from the
    /// first `PATHVM_START` or `CALLGRIND_START_INSTRUMENTATION`).
    pub instr_at_start: bool,
    /// `--collect-atstart`: collection is on at the start (else from the
    /// first `CALLGRIND_TOGGLE_COLLECT`).
    pub collect_at_start: bool,
    /// Run the analyses on a second thread, fed by the VM's (the cache
    /// model stays with the VM).
    pub threaded: bool,
    /// With `threaded`: run the VM's thread to the end first and the
    /// analyses after it (`--time-threads`), to time each alone.
    pub one_after_other: bool,
}

impl Default for Options {
    /// A full recording on two threads: contexts, paths, the default
    /// caches and branch predictor.
    fn default() -> Options {
        Options {
            tracker: TrackerConfig::default(),
            machine: Some(SimConfig::default()),
            paths: true,
            contexts: true,
            toggle_collect: Vec::new(),
            focus: Vec::new(),
            instr_at_start: true,
            collect_at_start: true,
            threaded: true,
            one_after_other: false,
        }
    }
}

/// What runs the program: it hands every event of the run to `observer`
/// (the VM does, with the `vm` feature: [`crate::run`]; tests hand-make
/// event sequences).
pub trait Driver {
    /// What the run says of itself (how it stopped, ...).
    type Outcome;
    fn run<O: Observer>(&mut self, observer: &mut O) -> Self::Outcome;
}

/// What a profile says of the run besides its costs (its [`Meta`]).
#[derive(Clone, Debug, Default)]
pub struct RunFacts {
    /// The guest's argv and environment.
    pub command: Vec<String>,
    pub env: Vec<String>,
    pub cpu_model: String,
    /// The run's settings that are not the recorder's (`seed`, ...): the
    /// profile lists them with the recorder's, sorted.
    pub config: Vec<(String, String)>,
    /// The paths of the objects mapped during the run.
    pub objects: Vec<String>,
    /// How the guest stopped, in words, and the exit status pathvm gives.
    pub stop: String,
    pub exit_status: i32,
    /// Where a fatal signal hit, if one did.
    pub crash_pc: Option<Addr>,
    /// Loads and stores per instruction, `(address, loads, stores)`, as
    /// the VM counted them where they were made (empty without memory
    /// tracing): the profile's costs per instruction take them.
    pub accesses: Vec<(Addr, u64, u64)>,
}

/// A built profile.
pub struct Built {
    pub profile: Profile,
    /// One line saying where a fatal signal hit ([`RunFacts::crash_pc`]).
    pub crash_site: Option<String>,
    /// Calls folded into their callers' contexts because the calling
    /// context tree reached its `max_contexts`.
    pub context_cap_hits: u64,
}
/// The calling context tree's nodes keep one column per counted metric, in
/// [`Costs`] order; column [`cct::INSTRUCTIONS`] is counted by the tracker
/// itself unless `--toggle-collect` is on.
const _: () = assert!(Metric::Instructions.index() == cct::INSTRUCTIONS);

/// Where a block's cost goes in the function view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockOwner {
    /// Every instruction in one function.
    One(FuncId),
    /// The block runs across a function boundary: its instructions' functions
    /// are `Recorder::splits[n]`, resolved once.
    Split(u32),
    /// A PLT stub: charged to the function that called through it (as
    /// callgrind's default `--skip-plt=yes` does), the last one before it.
    Plt,
    /// No symbol covers the block (stripped code): charged to the function
    /// of the frame running it, as the tree and the paths charge it, so
    /// that a stripped function is one function (named by the address it
    /// was called at), not one per block.
    Frame,
}

/// What the recorder keeps per block and reads at each of its executions.
#[derive(Clone, Copy, Default)]
struct BlockState {
    /// How many times it ran.
    execs: u64,
    /// Where its cost goes, once asked.
    owner: Option<BlockOwner>,
}

/// The observer of a run: the calling-context tracker and, when asked for,
/// the simulated caches and branch predictor. Every cost an event produces is
/// charged once to a node of the tree and once to a function.
struct Recorder {
    tracker: CallTracker<FunctionTable>,
    sim: Option<Simulator>,
    /// When `sim`'s caches are emptied (when it simulates them itself).
    cache_resets: CacheResets,
    /// Per block: what every execution touches, in one place.
    rows: Vec<BlockState>,
    /// Per-instruction functions of the blocks that cross a function boundary.
    splits: Vec<Box<[FuncId]>>,
    /// The function the running block is charged to.
    cur_func: Option<FuncId>,
    func_self: Vec<Costs>,
    paths: Option<PathRecorder>,
    /// Per block: the entry of the function its start belongs to (a
    /// `.cold` part's parent), `Some(None)` when no symbol covers it.
    block_entry: Vec<Option<Option<u64>>>,
    /// Function-view ids of the tracker's synthetic functions.
    synthetic_ids: Vec<Option<FuncId>>,
    /// The running block is a [`BlockOwner::Split`] one (its instructions
    /// are charged to functions per instruction).
    cur_split: bool,
    /// Per block: its start and instruction offsets (from `block_decoded`).
    decoded: Vec<Option<std::sync::Arc<BlockFacts>>>,
    /// Phases and counting (`include/pathvm.h`, callgrind's requests),
    /// applied after the run.
    markers: Markers,
    /// The counters of the last block that ended with a client request,
    /// before it was charged (see [`RequestBlock`]).
    request_block: Option<RequestBlock>,
    /// Allocator entry blocks being watched, and how to read their size.
    alloc_blocks: FxHashMap<BlockId, AllocSize>,
    /// The tracker's ids of the allocator functions.
    alloc_funcs: rustc_hash::FxHashSet<FuncId>,
    /// Bytes requested by the watched block about to run.
    pending_alloc: Option<u64>,
    /// Serial of the allocator frame charged last (a jump back to an
    /// allocator's entry inside its own frame is no new request).
    last_alloc_frame: Option<u32>,
    /// `--toggle-collect`, when given.
    toggle: Option<Toggle>,
    /// The tracker's frame events of the running block (see
    /// [`Recorder::take_moves`]); recorded only for the path tracker and
    /// `--toggle-collect`.
    moves: Vec<FrameEvent>,
    /// Costs are counted now (always without `--toggle-collect`).
    collecting: bool,
    /// The simulators run in the pipe's front ([`Simulator::external`]):
    /// their notes are charged as they come, and instructions at each block.
    external: bool,
    /// `alloc-bytes` per call instruction that reached an allocator (whole
    /// run, for the costs per instruction).
    alloc_sites: FxHashMap<Addr, u64>,
}

/// The node and function a block that ends with a valgrind client request
/// is charged to, and their counters before it: a callgrind request applies
/// before its block, so the marker that follows moves what the block cost
/// after it ([`crate::markers::BlockShift`]). Only the marker right after
/// the block uses it, and each such marker follows its own block.
struct RequestBlock {
    node: NodeId,
    node_before: Vec<u64>,
    func: Option<FuncId>,
    func_before: Costs,
}

/// Where block `facts` is charged ([`BlockOwner`]); for a block that runs
/// across a function boundary, its instructions' functions (the caller
/// keeps them as a split).
fn block_owner(index: &FunctionTable, facts: &BlockFacts) -> Result<BlockOwner, Vec<FuncId>> {
    let func_of = |a: u64| {
        index
            .resolve(a)
            .map(|f| f.0)
            .unwrap_or_else(|| index.unnamed(facts.start))
    };
    Ok(if index.is_plt(facts.start) {
        BlockOwner::Plt
    } else if index.resolve(facts.start).is_none() {
        BlockOwner::Frame
    } else if func_of(facts.start) == func_of(facts.last_insn_addr()) {
        BlockOwner::One(func_of(facts.start))
    } else {
        return Err((0..facts.insns.len())
            .map(|k| func_of(facts.insn_addr(k)))
            .collect());
    })
}

/// The sparse policy of a block owned by `owner` (neither a split nor a
/// PLT stub, which get every event), `every` if it lands on an entry:
/// events at entries (a frame may change there) and at blocks whose
/// function view differs from their predecessor's, so that the blocks run
/// without events are charged to the node and function of the last block
/// reported.
fn sparse_policy_of(
    index: &FunctionTable,
    owner: BlockOwner,
    every: bool,
    facts: &BlockFacts,
) -> SparsePolicy {
    let same = |a: u64| {
        if index.is_plt(a) {
            return false;
        }
        match (index.resolve(a), owner) {
            (None, BlockOwner::Frame) => true,
            (Some((f, _)), BlockOwner::One(g)) => f == g,
            _ => false,
        }
    };
    let next = match facts.terminator {
        Terminator::Jump { target } => !same(target),
        Terminator::CondBranch { target } => !same(target) || !same(facts.end()),
        Terminator::FallThrough | Terminator::RepString => !same(facts.end()),
        _ => true,
    };
    SparsePolicy { every, next }
}

/// What runs on the VM's thread when the analyses run on their own
/// ([`RecordOptions::threaded`]): the cache and branch models (the caches
/// see every memory access) and the allocator entries to watch.
struct VmFront {
    machine: Option<SimFront>,
    /// When `machine`'s caches are emptied.
    cache_resets: CacheResets,
    functions: FunctionTable,
    /// In sparse runs (no paths, no simulation), the entries the VM must
    /// report: the front answers the sparse policy for the recorder.
    entries: Option<EntryFinder>,
}

/// The function entries of a sparse run, found on the VM's thread by the
/// tracker's own rules: the blocks whose start moves frames
/// ([`cct::BlockStart::moves_frames`]), and of the blocks of code without a
/// symbol, those that may start a function the recorder's tracker makes
/// ([`cct::may_start_function`], a superset: the front has no frames).
/// Each must be reported on every execution from then on, as the recorder
/// would ask; a reported block that did not need it is harmless (the
/// recorder does with its event what it would have done with it skipped).
#[derive(Default)]
struct EntryFinder {
    addrs: Vec<Addr>,
    known: rustc_hash::FxHashSet<Addr>,
    /// Per block: [`EntryFinder::LOOKED`], [`EntryFinder::PLT_KNOWN`],
    /// [`EntryFinder::PLT`].
    flags: Vec<u8>,
    /// How the last block reported or skipped ended, and which it was;
    /// `None` before a thread's or a signal handler's first block.
    prev: Option<(Terminator, Addr, BlockId)>,
}

impl EntryFinder {
    /// The block's start was looked at as a possible entry.
    const LOOKED: u8 = 1;
    /// Whether the block is a PLT stub or in the lazy resolver is known...
    const PLT_KNOWN: u8 = 2;
    /// ...and it is.
    const PLT: u8 = 4;

    #[inline]
    fn flags(&mut self, id: BlockId) -> &mut u8 {
        let i = id.index();
        if i >= self.flags.len() {
            self.flags.resize(i + 1, 0);
        }
        &mut self.flags[i]
    }

    /// Whether the block after `prev` may be made a function's entry.
    #[inline]
    fn may_enter(&mut self, functions: &FunctionTable) -> bool {
        let prev = self.prev;
        cct::may_start_function(prev.map(|(t, end, _)| (t, end)), || {
            prev.is_some_and(|(_, end, id)| self.plt_or_resolver(functions, id, end))
        })
    }

    /// Whether block `id`, which ends at `end`, is a PLT stub or in the
    /// lazy resolver (its last byte shares its symbol with its start).
    fn plt_or_resolver(&mut self, functions: &FunctionTable, id: BlockId, end: Addr) -> bool {
        let f = *self.flags(id);
        if f & Self::PLT_KNOWN != 0 {
            return f & Self::PLT != 0;
        }
        let at = cct::BlockStart::of(functions, end - 1);
        let plt = at.plt || at.resolver;
        *self.flags(id) |= Self::PLT_KNOWN | if plt { Self::PLT } else { 0 };
        plt
    }

    #[inline]
    fn block(&mut self, functions: &FunctionTable, id: BlockId, facts: &BlockFacts) {
        if self.may_enter(functions) {
            let f = self.flags(id);
            if *f & Self::LOOKED == 0 {
                *f |= Self::LOOKED;
                self.add(functions, facts.start);
            }
        }
        self.prev = Some((facts.terminator, facts.end(), id));
    }

    fn add(&mut self, functions: &FunctionTable, start: Addr) {
        if functions.function_at(start).is_none() && self.known.insert(start) {
            self.addrs.push(start);
        }
    }

    fn is_entry(&self, functions: &FunctionTable, start: Addr) -> bool {
        cct::BlockStart::of(functions, start).moves_frames() || self.known.contains(&start)
    }
}

impl events::pipe::Front for VmFront {
    type Note = BlockCosts;

    fn wants_memory(&self) -> bool {
        self.machine.as_ref().is_some_and(|m| m.wants_memory())
    }

    fn mem_filter(&mut self) -> Option<events::MemFilter> {
        self.machine.as_mut()?.mem_filter()
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        if let Some(m) = &mut self.machine {
            m.block_decoded(id, facts);
        }
    }

    /// The blocks [`Recorder::watch_entry`] watches: same symbols, same rule.
    fn watch_entry(&mut self, _id: BlockId, facts: &BlockFacts) -> bool {
        self.functions.allocator_at(facts.start).is_some()
    }

    #[inline]
    fn before_block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        if let Some(m) = &mut self.machine {
            m.before_block(ev, facts);
        }
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        if let Some(m) = &mut self.machine {
            m.block(ev, facts);
        }
        if let Some(e) = &mut self.entries {
            e.block(&self.functions, ev.id, facts);
        }
    }

    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        if let Some(m) = &mut self.machine {
            m.rep_iteration(id);
        }
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        if let Some(m) = &mut self.machine {
            m.mem(ev);
        }
    }

    fn thread_switch(&mut self, tid: Tid) {
        if let Some(m) = &mut self.machine {
            m.thread_switch(tid);
        }
        if let Some(e) = &mut self.entries {
            e.prev = None;
        }
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.functions.add_object(obj);
    }

    fn marker(&mut self, m: Marker<'_>) {
        if self.cache_resets.on_marker(m) {
            if let Some(machine) = &mut self.machine {
                machine.clear_caches();
            }
        }
    }

    fn signal_delivered(&mut self, _signal: i32, handler: Addr, _sp: Addr) {
        if let Some(e) = &mut self.entries {
            e.add(&self.functions, handler);
            e.prev = None;
        }
    }

    fn sparse(&self) -> bool {
        self.entries.is_some()
    }

    /// [`Recorder::sparse_policy`], with the entries found here.
    fn sparse_policy(&mut self, _id: BlockId, facts: &BlockFacts) -> SparsePolicy {
        let Some(e) = &self.entries else {
            return SparsePolicy::EVERY;
        };
        match block_owner(&self.functions, facts) {
            Err(_) | Ok(BlockOwner::Plt) => SparsePolicy::EVERY,
            Ok(owner) => {
                let every = e.is_entry(&self.functions, facts.start);
                sparse_policy_of(&self.functions, owner, every, facts)
            }
        }
    }

    fn sparse_entries(&self) -> &[Addr] {
        self.entries.as_ref().map_or(&[], |e| &e.addrs)
    }

    #[inline]
    fn skipped(&mut self, _insns: u64, last: BlockId, exit: BlockExit) {
        if let Some(e) = &mut self.entries {
            e.prev = Some((exit.terminator, exit.end, last));
        }
    }

    /// A logged block is never one the VM asks about at once (see
    /// `vm/src/sparse.rs`): only how it ends is kept.
    #[inline]
    fn logged(&mut self, l: &events::Logged) {
        if let Some(e) = &mut self.entries {
            e.prev = Some((l.exit.terminator, l.exit.end, l.id));
        }
    }

    #[inline(always)]
    fn take_note(&mut self) -> Option<BlockCosts> {
        self.machine.as_mut()?.take_note()
    }

    #[inline]
    fn has_note(&self) -> bool {
        self.machine.as_ref().is_some_and(|m| m.has_note())
    }
}

impl events::pipe::Back for Recorder {
    type Note = BlockCosts;

    #[inline(always)]
    fn note(&mut self, note: BlockCosts) {
        if self.external {
            self.charge_note(note);
        } else if let Some(sim) = &mut self.sim {
            sim.note(note);
        }
    }
}

/// `--toggle-collect`: counts the visible frames of matching functions on
/// the current thread's shadow stack, kept up to date by the tracker's
/// frame events ([`cct::FrameEvent`]).
struct Toggle {
    globs: Vec<String>,
    /// Per function-view id: 0 not asked yet, 1 no match, 2 match.
    matches: Vec<u8>,
    /// The current thread's frames: per frame, whether it is a visible
    /// frame of a matching function.
    frames: PerThread<ToggleFrames>,
}

/// A thread's frames as [`Toggle`] sees them.
#[derive(Default)]
struct ToggleFrames {
    matching: Vec<bool>,
    /// How many of `matching` are true.
    inside: u32,
}

impl Toggle {
    fn new(globs: Vec<String>) -> Toggle {
        Toggle {
            globs,
            matches: Vec::new(),
            frames: PerThread::default(),
        }
    }

    /// The frames at `depth` and above ended.
    fn leave(&mut self, depth: u32) {
        let f = &mut self.frames;
        while f.matching.len() > depth as usize {
            f.inside -= f.matching.pop().unwrap_or(false) as u32;
        }
    }

    /// A frame was pushed; `matches`: it counts.
    fn enter(&mut self, index: u32, matches: bool) {
        let f = &mut self.frames;
        debug_assert_eq!(f.matching.len(), index as usize);
        f.inside += matches as u32;
        f.matching.push(matches);
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.frames.switch_default(tid);
    }
}

/// The entry address of a frame's function.
fn entry_of(tracker: &CallTracker<FunctionTable>, f: FuncId) -> u64 {
    if f.is_synthetic() {
        tracker.synthetic_entry(f).unwrap_or(0)
    } else {
        tracker
            .index()
            .functions()
            .get(f.0 as usize)
            .map_or(0, |x| x.entry)
    }
}

impl Recorder {
    fn owner(&mut self, id: BlockId, facts: &BlockFacts) -> BlockOwner {
        let i = id.index();
        if i >= self.rows.len() {
            self.rows.resize(i + 1, BlockState::default());
        }
        if let Some(o) = self.rows[i].owner {
            return o;
        }
        let o = block_owner(self.tracker.index(), facts).unwrap_or_else(|funcs| {
            self.splits.push(funcs.into_boxed_slice());
            BlockOwner::Split(self.splits.len() as u32 - 1)
        });
        self.rows[i].owner = Some(o);
        o
    }

    /// The function-view id of the top frame's function.
    fn frame_function(&mut self) -> FuncId {
        let Some(f) = self
            .tracker
            .shadow_stack()
            .frames()
            .last()
            .map(|fr| fr.function())
        else {
            return self.tracker.index().unnamed(0);
        };
        self.view_function(f)
    }

    /// The function-view id of a tracker function id.
    fn view_function(&mut self, f: FuncId) -> FuncId {
        if !f.is_synthetic() {
            return f;
        }
        let k = (f.0 - FuncId::FIRST_SYNTHETIC.0) as usize;
        if let Some(&Some(id)) = self.synthetic_ids.get(k) {
            return id;
        }
        let entry = self.tracker.synthetic_entry(f).unwrap_or(0);
        let id = self.tracker.index().unnamed(entry);
        if k >= self.synthetic_ids.len() {
            self.synthetic_ids.resize(k + 1, None);
        }
        self.synthetic_ids[k] = Some(id);
        id
    }

    #[inline]
    fn func_counts(&mut self, f: FuncId) -> &mut Costs {
        let i = f.0 as usize;
        if i >= self.func_self.len() {
            self.grow_func_self(i);
        }
        &mut self.func_self[i]
    }

    #[cold]
    fn grow_func_self(&mut self, i: usize) {
        self.func_self.resize(i + 1, Costs::ZERO);
    }

    /// Charge `c` (instructions excepted: the tracker counts those) to a node.
    #[inline]
    fn charge_node(&mut self, node: NodeId, c: &Costs) {
        let mut c = *c;
        c[Metric::Instructions] = 0;
        self.add_to_node(node, &c);
    }

    /// Add every column of `c` to a node.
    #[inline(always)]
    fn add_to_node(&mut self, node: NodeId, c: &Costs) {
        if let Ok(m) = <&mut [u64; Metric::COUNT]>::try_from(self.tracker.node_metrics_mut(node)) {
            for (a, b) in m.iter_mut().zip(c.0) {
                *a += b;
            }
        }
    }

    /// Charge what the simulator counted for the running block and not
    /// charged yet (its instructions and fetch misses, its memory accesses
    /// and `rep` iterations) to its node, function and path: once per
    /// block, not per access. Called before anything moves the running
    /// context: at the next block, a thread switch, a signal, a marker, a
    /// mapped object, the end of the run.
    #[inline]
    fn charge_pending(&mut self) {
        self.charge_pending_with(&BranchOutcome::default());
    }

    /// [`Recorder::charge_pending`], with the outcome of the running block's
    /// terminator (known when the next block starts): everything the block
    /// cost is charged at once.
    #[inline]
    fn charge_pending_with(&mut self, outcome: &BranchOutcome) {
        let Some(sim) = &mut self.sim else { return };
        let pending = sim.has_pending();
        if !pending && outcome.is_zero() {
            return;
        }
        let caches = sim.simulates_caches();
        let mut d = if pending {
            sim.take_pending()
        } else {
            Costs::ZERO
        };
        if !self.collecting {
            return;
        }
        if !caches {
            // Only instructions: none for the node (the tracker counts them).
            let n = d[Metric::Instructions];
            if n != 0 {
                if let Some(p) = &mut self.paths {
                    p.add_here(&Costs::of(Metric::Instructions, n));
                }
                if !self.cur_split {
                    if let Some(f) = self.cur_func {
                        self.func_counts(f)[Metric::Instructions] += n;
                    }
                }
            }
            if !outcome.is_zero() {
                let c = outcome.counts();
                self.charge_node(self.tracker.current_node(), &c);
                self.charge_func(self.cur_func, &c);
                if let Some(p) = &mut self.paths {
                    p.add_here(&c);
                }
            }
            return;
        }
        outcome.add_to(&mut d);
        if d.is_zero() {
            return;
        }
        let node = self.tracker.current_node();
        self.charge_node(node, &d);
        if let Some(p) = &mut self.paths {
            p.add_here(&d);
        }
        if self.cur_split {
            d[Metric::Instructions] = 0; // counted per instruction at the block
        }
        self.charge_func(self.cur_func, &d);
    }

    /// The caller of the allocator whose entry block just ran (the tracker
    /// has pushed its frame), if this is a new outermost allocator frame:
    /// the index of the nearest visible frame below that is not a PLT stub.
    fn allocation_caller(&mut self) -> Option<usize> {
        let frames = self.tracker.shadow_stack().frames();
        let (top, below) = frames.split_last()?;
        let serial = top.serial();
        if !self.alloc_funcs.contains(&top.function())
            || self.last_alloc_frame == Some(serial)
            || below
                .iter()
                .any(|f| self.alloc_funcs.contains(&f.function()))
        {
            return None;
        }
        let index = self.tracker.index();
        let caller = (0..below.len()).rev().find(|&i| {
            !below[i].is_hidden() && !index.is_plt(entry_of(&self.tracker, below[i].function()))
        })?;
        self.last_alloc_frame = Some(serial);
        Some(caller)
    }

    /// Whether tracker function `f` is a `--toggle-collect` function (its
    /// function-view name matches a glob).
    fn toggle_matches(&mut self, f: FuncId) -> bool {
        let v = self.view_function(f).0 as usize;
        let Some(t) = &mut self.toggle else {
            return true;
        };
        if v >= t.matches.len() {
            t.matches.resize(v + 1, 0);
        }
        if t.matches[v] == 0 {
            let functions = self.tracker.index().functions();
            let name = functions.get(v).map_or("", |x| x.name.as_str());
            let hit = t.globs.iter().any(|g| reports::glob::glob_match(g, name));
            t.matches[v] = 1 + hit as u8;
        }
        t.matches[v] == 2
    }

    /// Take the tracker's frame events into [`Recorder::moves`] (false if
    /// there are none) and apply them to `--toggle-collect`'s count.
    #[inline]
    fn take_moves(&mut self) -> bool {
        if self.tracker.frame_events().is_empty() {
            return false;
        }
        self.tracker.swap_frame_events(&mut self.moves);
        if self.toggle.is_some() {
            for i in 0..self.moves.len() {
                match self.moves[i] {
                    FrameEvent::Leave { depth, .. } => {
                        if let Some(t) = &mut self.toggle {
                            t.leave(depth);
                        }
                    }
                    FrameEvent::Enter { index, frame } => {
                        let m = !frame.is_hidden() && self.toggle_matches(frame.function());
                        if let Some(t) = &mut self.toggle {
                            t.enter(index, m);
                        }
                    }
                }
            }
            self.collecting = self.toggle.as_ref().is_some_and(|t| t.frames.inside > 0);
        }
        true
    }

    /// The frame events taken by [`Recorder::take_moves`] reach the path
    /// tracker, and are done with.
    #[inline]
    fn moves_to_paths(&mut self) {
        if let Some(p) = &mut self.paths {
            let tracker = &self.tracker;
            p.frames_moved(&self.moves, |f| entry_of(tracker, f));
        }
        self.moves.clear();
    }

    /// Charge what the front counted for the running block (its accesses
    /// and misses, and its terminator's outcome, known when the next block
    /// starts: the note comes just before that block's event) to its node,
    /// function and path, as [`Recorder::charge_pending_with`] charges a local
    /// simulator's counts. The fields go straight from the note to the
    /// three sums: no `Costs` in between.
    #[inline(always)]
    fn charge_note(&mut self, n: BlockCosts) {
        if !self.collecting {
            return;
        }
        let c = n.costs();
        self.add_to_node(self.tracker.current_node(), &c);
        self.charge_func(self.cur_func, &c);
        if let Some(p) = &mut self.paths {
            p.add_here(&c);
        }
    }

    #[inline]
    fn charge_func(&mut self, f: Option<FuncId>, c: &Costs) {
        if let Some(f) = f {
            *self.func_counts(f) += c;
        }
    }
}

impl Observer for Recorder {
    fn wants_memory(&self) -> bool {
        self.sim.as_ref().is_some_and(|s| s.wants_memory())
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.block_decoded_shared(id, &std::sync::Arc::new(facts.clone()));
    }

    fn block_decoded_shared(&mut self, id: BlockId, facts: &std::sync::Arc<BlockFacts>) {
        let i = id.index();
        if i >= self.decoded.len() {
            self.decoded.resize(i + 1, None);
        }
        if i >= self.rows.len() {
            self.rows.resize(i + 1, BlockState::default());
        }
        self.decoded[i] = Some(facts.clone());
        self.tracker.block_decoded(id, facts);
        if let Some(sim) = &mut self.sim {
            sim.block_decoded(id, facts);
        }
    }

    fn watch_entry(&mut self, id: BlockId, facts: &BlockFacts) -> bool {
        let index = self.tracker.index();
        let Some(size) = index.allocator_at(facts.start) else {
            return false;
        };
        if let Some((f, _)) = index.function_at(facts.start) {
            self.alloc_funcs.insert(f);
        }
        self.alloc_blocks.insert(id, size);
        true
    }

    fn entry_args(&mut self, id: BlockId, args: [u64; 3]) {
        self.pending_alloc = self.alloc_blocks.get(&id).map(|s| s.bytes(args));
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        // The previous block's terminator outcome goes with the rest of its
        // costs, to its node, function and path (on two threads, they came
        // in its note).
        if !self.external {
            let outcome = match &mut self.sim {
                Some(sim) => sim.resolve_pending(facts.start),
                None => BranchOutcome::default(),
            };
            self.charge_pending_with(&outcome);
        }
        if let Some(r) = self.rows.get_mut(ev.id.index()) {
            r.execs += 1;
        }
        self.tracker.block(ev, facts);
        let moved = self.take_moves();
        let on = self.collecting;
        let node = self.tracker.current_node();
        let owner = self.owner(ev.id, facts);
        let n = facts.insns.len() as u64;
        if on && self.toggle.is_some() {
            // The tracker does not count instructions under --toggle-collect.
            self.tracker.add_metric(node, cct::INSTRUCTIONS, n);
        }
        match owner {
            BlockOwner::One(f) => self.cur_func = Some(f),
            BlockOwner::Plt => {}
            BlockOwner::Frame => self.cur_func = Some(self.frame_function()),
            BlockOwner::Split(k) => {
                let funcs = std::mem::take(&mut self.splits[k as usize]);
                if on {
                    for f in funcs.iter() {
                        self.func_counts(*f)[Metric::Instructions] += 1;
                    }
                }
                self.cur_func = funcs.last().copied();
                self.splits[k as usize] = funcs;
            }
        }
        if facts.client_request {
            self.request_block = (!matches!(owner, BlockOwner::Split(_))).then(|| {
                let mut node_before = self.tracker.cct().self_metrics(node).to_vec();
                if on {
                    if let Some(i) = node_before.get_mut(cct::INSTRUCTIONS) {
                        *i = i.wrapping_sub(n); // charged above
                    }
                }
                let func_before = self
                    .cur_func
                    .and_then(|f| self.func_self.get(f.0 as usize).copied())
                    .unwrap_or(Costs::ZERO);
                RequestBlock {
                    node,
                    node_before,
                    func: self.cur_func,
                    func_before,
                }
            });
        }
        // An allocator's entry: the request is charged to its caller's
        // node, function and open path.
        let mut alloc = None;
        if let Some(bytes) = self.pending_alloc.take() {
            if let Some(i) = self.allocation_caller() {
                let site = self.tracker.shadow_stack().frames()[i + 1].call_site();
                if site != cct::NO_CALL_SITE {
                    *self.alloc_sites.entry(site).or_default() += bytes;
                }
                if on {
                    let f = self.tracker.shadow_stack().frames()[i];
                    let c = Costs::of(Metric::AllocBytes, bytes);
                    self.charge_node(f.node(), &c);
                    let func = self.view_function(f.function());
                    self.charge_func(Some(func), &c);
                    alloc = Some((f, c));
                }
            }
        }
        self.cur_split = matches!(owner, BlockOwner::Split(_));
        // The block's own costs are charged by the next `charge_pending` (on two
        // threads: its note), to the node, function and path set up here.
        match &mut self.sim {
            Some(sim) if !self.external => {
                let t = sim.run_block(ev, facts);
                debug_assert!(t.is_zero(), "resolved above");
            }
            _ => {
                if on && !self.cur_split {
                    if let Some(f) = self.cur_func {
                        self.func_counts(f)[Metric::Instructions] += n;
                    }
                }
            }
        }
        if let Some(p) = &mut self.paths {
            if let Some((f, c)) = &alloc {
                p.add_to_frame(f, c);
            }
        }
        if moved {
            self.moves_to_paths();
        }
        if let Some(p) = &mut self.paths {
            let tracker = &self.tracker;
            let frames = tracker.shadow_stack().frames();
            let plt = owner == BlockOwner::Plt;
            let i = ev.id.index();
            if i >= self.block_entry.len() {
                self.block_entry.resize(i + 1, None);
            }
            let entry = *self.block_entry[i]
                .get_or_insert_with(|| tracker.index().function_at(facts.start).map(|(_, e)| e));
            if p.executed(frames, facts.start, facts.len, n as u32, plt, entry)
                && on
                && (self.sim.is_none() || self.external)
            {
                let body = Costs::of(Metric::Instructions, n);
                p.add(&body);
            }
        }
    }

    fn rep_iteration(&mut self, id: BlockId) {
        self.tracker.rep_iteration(id);
        if let Some(sim) = &mut self.sim {
            sim.rep_iteration(id);
        }
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        if let Some(sim) = &mut self.sim {
            sim.mem(ev);
        }
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.charge_pending();
        // Frames moved since the last block (a signal) are the old thread's.
        if self.take_moves() {
            self.moves_to_paths();
        }
        self.tracker.thread_switch(tid);
        if let Some(t) = &mut self.toggle {
            t.thread_switch(tid);
            self.collecting = t.frames.inside > 0;
        }
        if let Some(p) = &mut self.paths {
            p.thread_switch(tid);
        }
        if let Some(sim) = &mut self.sim {
            sim.thread_switch(tid);
        }
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.charge_pending();
        self.tracker.object_mapped(obj);
        if let Some(p) = &mut self.paths {
            let mapped = self
                .tracker
                .index()
                .symbolizer
                .object_at(obj.base)
                .filter(|m| m.path.to_str() == Some(obj.path.as_str()));
            p.tracker
                .program_mut()
                .add_object(&obj.path, obj.bias, mapped);
        }
        for r in &mut self.rows {
            r.owner = None;
        }
        self.splits.clear();
        self.block_entry.clear();
    }

    fn signal_delivered(&mut self, _signal: i32, handler: u64, sp: u64) {
        self.charge_pending();
        self.tracker.signal_enter(handler, sp);
    }

    fn signal_returned(&mut self, sp: u64) {
        self.charge_pending();
        self.tracker.signal_return(sp);
    }

    fn marker(&mut self, m: Marker<'_>) {
        self.charge_pending();
        if self.cache_resets.on_marker(m) {
            if let Some(sim) = &mut self.sim {
                sim.clear_caches();
            }
        }
        let shift = match m {
            Marker::Callgrind(_) => self.request_block.take().map(|b| {
                let cct = self.tracker.cct();
                let now = cct.self_metrics(b.node);
                let zero = Costs::ZERO;
                let func_now = b.func.and_then(|f| self.func_self.get(f.0 as usize));
                crate::markers::BlockShift {
                    node: b.node,
                    node_costs: now
                        .iter()
                        .zip(&b.node_before)
                        .map(|(a, b)| a.wrapping_sub(*b))
                        .collect(),
                    func: b.func,
                    func_costs: func_now.unwrap_or(&zero).since(&b.func_before),
                }
            }),
            _ => None,
        };
        self.markers
            .on_marker(m, self.tracker.cct(), &self.func_self, shift.as_ref());
    }

    /// Without paths and simulation only frame changes need events.
    fn sparse(&self) -> bool {
        self.sim.is_none() && self.paths.is_none()
    }

    /// See [`sparse_policy_of`].
    fn sparse_policy(&mut self, id: BlockId, facts: &BlockFacts) -> SparsePolicy {
        let owner = self.owner(id, facts);
        if matches!(owner, BlockOwner::Split(_) | BlockOwner::Plt) {
            return SparsePolicy::EVERY;
        }
        let every = self.tracker.lands_on_entry(id, facts.start);
        sparse_policy_of(self.tracker.index(), owner, every, facts)
    }

    #[inline]
    fn skipped(&mut self, insns: u64, _last: BlockId, exit: BlockExit) {
        self.tracker.skipped(insns, exit);
        if !self.collecting {
            return;
        }
        if self.toggle.is_some() {
            let node = self.tracker.current_node();
            self.tracker.add_metric(node, cct::INSTRUCTIONS, insns);
        }
        if !self.cur_split {
            if let Some(f) = self.cur_func {
                self.func_counts(f)[Metric::Instructions] += insns;
            }
        }
    }

    fn sparse_entries(&self) -> &[u64] {
        self.tracker.synthetic_entry_addrs()
    }

    fn uncounted_execs(&mut self, id: BlockId, n: u64) {
        if let Some(r) = self.rows.get_mut(id.index()) {
            r.execs += n;
        }
    }
}

/// The metrics a run measures, in the order of [`Metric::ALL`]: with a
/// simulator what it measures, without one the counted metrics no
/// simulation produces (instructions, alloc-bytes).
fn measured_metrics(machine: Option<&SimConfig>) -> Vec<Metric> {
    Metric::ALL
        .into_iter()
        .filter(|m| match machine {
            Some(cfg) => cfg.measures(*m),
            None => m.is_counted() && !m.needs_cache_sim() && !m.needs_branch_sim(),
        })
        .collect()
}

/// The raw columns whose path sums the profile's metrics read (bit `i`:
/// column `i`), as measured by `machine`: path rows keep only those.
fn path_columns(machine: Option<&SimConfig>) -> u16 {
    let cycles = machine.map(|c| c.cycles).unwrap_or_default();
    let metrics = measured_metrics(machine);
    // Every metric is a sum of columns with constant weights: a column
    // counts if a unit in it shows in some metric.
    let mut mask = 0u16;
    for column in Metric::COUNTED {
        let c = Costs::of(column, 1);
        if metrics.iter().any(|m| c.get(*m, &cycles) != 0) {
            mask |= 1 << column.index();
        }
    }
    mask
}

/// An error in the options of a session.
#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// A recording session: configure it ([`Session::new`]), feed it one run
/// ([`Session::record`]), build the profile ([`Finished::build_profile`]).
pub struct Session {
    rec: Recorder,
    front: Option<VmFront>,
    opts: Options,
    start: Instant,
}

/// A session whose run has ended.
pub struct Finished {
    rec: Recorder,
    opts: Options,
    /// With [`Options::one_after_other`] on two threads: the time of the
    /// VM's thread and of the analyses, each alone.
    pub threads_alone: Option<(Duration, Duration)>,
}

impl Session {
    pub fn new(opts: &Options) -> Result<Session, ConfigError> {
        let start = Instant::now();
        let model_error = |e: cachemodel::ConfigError| ConfigError(format!("machine model: {e}"));
        // Sparse events (see `Recorder::sparse`): the front finds the entries.
        let sparse = !opts.paths && opts.machine.is_none();
        let threaded = opts.threaded;
        let shared = threaded.then(SharedSymbols::default);
        let (sim, front) = match (&opts.machine, &shared) {
            (Some(cfg), Some(shared)) => (
                Some(Simulator::external(*cfg).map_err(model_error)?),
                Some(VmFront {
                    machine: Some(SimFront::new(*cfg).map_err(model_error)?),
                    cache_resets: CacheResets::new(opts.instr_at_start),
                    functions: FunctionTable::sharing(shared.clone()),
                    entries: None,
                }),
            ),
            (Some(cfg), None) => (Some(Simulator::new(*cfg).map_err(model_error)?), None),
            (None, Some(shared)) => (
                None,
                Some(VmFront {
                    machine: None,
                    cache_resets: CacheResets::new(opts.instr_at_start),
                    functions: FunctionTable::sharing(shared.clone()),
                    entries: sparse.then(EntryFinder::default),
                }),
            ),
            (None, None) => (None, None),
        };
        let mut tracker_cfg = opts.tracker;
        tracker_cfg.n_metrics = Metric::COUNT;
        if !opts.contexts {
            // Without contexts in the profile, recursion folds onto its
            // first level: the function rows are the same, and the tree
            // stays the size of the call graph (a recursive sort with two
            // call sites otherwise grows it with the recursion tree).
            tracker_cfg.recursion = cct::RecursionPolicy::Collapse;
        }
        let functions = match &shared {
            Some(shared) => FunctionTable::sharing(shared.clone()),
            None => FunctionTable::new(),
        };
        let mut tracker = CallTracker::new(functions, tracker_cfg);
        let toggle =
            (!opts.toggle_collect.is_empty()).then(|| Toggle::new(opts.toggle_collect.clone()));
        tracker.set_count_instructions(toggle.is_none());
        tracker.set_frame_events(toggle.is_some() || opts.paths);
        let rec = Recorder {
            collecting: toggle.is_none(),
            external: sim.as_ref().is_some_and(Simulator::is_external),
            toggle,
            moves: Vec::new(),
            alloc_blocks: FxHashMap::default(),
            alloc_funcs: Default::default(),
            pending_alloc: None,
            last_alloc_frame: None,
            tracker,
            sim,
            rows: Vec::new(),
            splits: Vec::new(),
            cur_func: None,
            func_self: Vec::new(),
            paths: opts
                .paths
                .then(|| PathRecorder::new(opts.contexts, path_columns(opts.machine.as_ref()))),
            block_entry: Vec::new(),
            synthetic_ids: Vec::new(),
            cur_split: false,
            decoded: Vec::new(),
            markers: Markers::new(opts.instr_at_start, opts.collect_at_start),
            cache_resets: CacheResets::new(opts.instr_at_start),
            request_block: None,
            alloc_sites: FxHashMap::default(),
        };
        Ok(Session {
            rec,
            front,
            opts: opts.clone(),
            start,
        })
    }

    /// Run `driver`, observing what it runs (on two threads when
    /// [`Options::threaded`]).
    pub fn record<D: Driver>(self, driver: &mut D) -> (D::Outcome, Finished) {
        let Session {
            mut rec,
            front,
            opts,
            start,
        } = self;
        let mut threads_alone = None;
        let (outcome, rows) = match front {
            Some(front) => std::thread::scope(|scope| {
                let mut pipe = if opts.one_after_other {
                    events::pipe::Pipe::deferred(scope, front, &mut rec)
                } else {
                    events::pipe::Pipe::new(scope, front, &mut rec)
                };
                let outcome = driver.run(&mut pipe);
                let (front, replaying) = pipe.finish_timed();
                if opts.one_after_other {
                    // The VM's thread ran alone until the end, less the replays
                    // done at forks (the back's thread stops there).
                    let total = start.elapsed();
                    threads_alone = Some((total.saturating_sub(replaying), replaying));
                }
                let rows = front.machine.map(|mut m| {
                    let misses = m.take_insn_misses();
                    (m.into_block_rows(), misses)
                });
                (outcome, rows)
            }),
            None => (driver.run(&mut rec), None),
        };
        if let (Some((rows, misses)), Some(sim)) = (rows, &mut rec.sim) {
            sim.set_block_rows(rows);
            sim.set_insn_misses(misses);
        }
        (
            outcome,
            Finished {
                rec,
                opts,
                threads_alone,
            },
        )
    }
}

impl Finished {
    /// The profile of the run.
    pub fn build_profile(self, run: &RunFacts) -> Built {
        let Finished { mut rec, opts, .. } = self;
        let opts = &opts;
        rec.charge_pending();
        rec.tracker.finish();
        if let Some(p) = &mut rec.paths {
            p.finish();
        }
        let blocks_raw = block_costs(&rec);
        let insns_raw = insn_costs(&rec, &blocks_raw, &run.accesses);
        // Keep only what the profile is built from: the decoded blocks, the
        // simulator's per-block table and the rest go now.
        let (tracker, path_rec, mut func_self, markers) = {
            let r = rec;
            (r.tracker, r.paths, r.func_self, r.markers)
        };
        let mut parts = tracker.into_parts();
        let phases = markers.finish(&mut parts.cct, &mut func_self);
        let table = parts.index;

        // The metrics this run measured, in the order of `Metric::ALL`.
        let machine_cfg = opts.machine;
        let metrics = measured_metrics(machine_cfg.as_ref());
        let cycles = machine_cfg.as_ref().map(|c| c.cycles).unwrap_or_default();
        let values =
            |c: &Costs| -> Vec<u64> { metrics.iter().map(|m| c.get(*m, &cycles)).collect() };

        // Which functions get rows is settled first; the path section is built
        // (freeing the path tracker as it goes) before the function rows and
        // contexts, so that the two are not held at once.
        let plan = plan_rows(&table, &parts.cct, &parts.synthetic_entries, &func_self);
        let context_cap_hits = parts.cct.context_cap_hits();
        let row_of = &plan.row_of;
        let paths = match path_rec {
            Some(p) => {
                let function_of = |entry: u64| -> u32 {
                    let f = match table.function_at(entry) {
                        Some((f, e)) if e == entry => f,
                        _ => table.unnamed(entry),
                    };
                    row_of.get(&f).copied().unwrap_or(u32::MAX)
                };
                let path_values = |c: &Costs| values(c);
                crate::paths::path_profile(
                    p.tracker,
                    p.unattributed,
                    &table,
                    &function_of,
                    &path_values,
                )
            }
            None => reports::PathProfile::default(),
        };
        let (rows, mut contexts) = function_rows(
            &table,
            &parts.cct,
            &func_self,
            &plan,
            opts.contexts,
            &values,
        );
        drop(parts.cct);
        let row_of = plan.row_of;
        let mut blocks = block_profile(&table, blocks_raw, &row_of, &values);
        let inlines = inline_profile(&table, &insns_raw.rows, &mut blocks.files);
        let insns = reports::InsnProfile::from_dense(
            insns_raw.rows.iter().map(|(a, c)| (*a, c.as_slice())),
            if insns_raw.rows.is_empty() {
                Vec::new()
            } else {
                values(&insns_raw.unknown)
            },
        );
        let mut paths = paths;
        if !opts.focus.is_empty() {
            contexts = focus_contexts(&contexts, &rows, &opts.focus, &mut paths, metrics.len());
        }
        let mut total = Costs::ZERO;
        for c in &func_self {
            total += c;
        }

        let crash_site = run.crash_pc.map(|pc| describe_address(&table, pc));
        let mut config = run.config.clone();
        if let Some(cfg) = &machine_cfg {
            if let Some(h) = &cfg.cache {
                config.push(("cache.l1d".into(), h.l1d.to_string()));
                config.push(("cache.l1i".into(), h.l1i.to_string()));
                config.push(("cache.ll".into(), h.ll.to_string()));
            }
            if let Some(b) = &cfg.branch {
                config.push(("branch".into(), format!("{b:?}")));
            }
            config.push(("cycles".into(), format!("{:?}", cfg.cycles)));
        }
        if !opts.toggle_collect.is_empty() {
            config.push(("toggle-collect".into(), opts.toggle_collect.join(",")));
        }
        if !opts.focus.is_empty() {
            config.push(("focus".into(), opts.focus.join(",")));
        }
        if !opts.instr_at_start {
            config.push(("instr-atstart".into(), "no".into()));
        }
        if !opts.collect_at_start {
            config.push(("collect-atstart".into(), "no".into()));
        }
        if context_cap_hits > 0 {
            // Only a capped run says so, so that other profiles keep their bytes.
            config.push((
                "contexts.capped".into(),
                format!(
                    "{context_cap_hits} calls folded into their callers at {} contexts",
                    opts.tracker.max_contexts
                ),
            ));
        }
        config.sort();
        let profile = Profile {
            meta: Meta {
                pathvm_version: env!("CARGO_PKG_VERSION").to_string(),
                command: run.command.clone(),
                env: run.env.clone(),
                cpu_model: run.cpu_model.clone(),
                config,
                objects: run.objects.iter().map(|o| object_info(o)).collect(),
                stop: run.stop.clone(),
                exit_status: run.exit_status,
            },
            totals: values(&total),
            metrics: metrics.iter().map(|m| m.name().to_string()).collect(),
            functions: rows,
            contexts,
            paths,
            blocks,
            insns,
            inlines,
            phases: phases
                .iter()
                .map(|(name, c, funcs)| Phase {
                    name: name.clone(),
                    totals: values(c),
                    functions: crate::markers::phase_rows(funcs, &row_of, &values),
                })
                .collect(),
        };
        Built {
            profile,
            crash_site,
            context_cap_hits,
        }
    }
}
/// `function (file:line)` or `function` or the address.
pub fn describe_address(table: &FunctionTable, addr: u64) -> String {
    let name = table.symbolizer.lookup(addr).map(|s| s.name.to_string());
    let line = table.symbolizer.line(addr).map(|(f, l)| format!("{f}:{l}"));
    match (name, line) {
        (Some(n), Some(l)) => format!("{n} ({l})"),
        (Some(n), None) => n,
        (None, _) => format!("{addr:#x}"),
    }
}

fn object_info(path: &str) -> ObjectInfo {
    // Mapped, not read: a build id is found in the first pages (a file
    // without one is hashed whole).
    let bytes: &[u8] = &loader::elf::FileData::open(std::path::Path::new(path))
        .unwrap_or_else(|_| Vec::new().into());
    let id = loader::symbols::ObjectSymbols::read_build_id(path, &bytes)
        .ok()
        .flatten()
        .map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        .unwrap_or_else(|| format!("fnv:{:016x}", fnv1a(bytes)));
    ObjectInfo {
        path: path.to_string(),
        size: bytes.len() as u64,
        id,
    }
}

fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ x as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The profile's flag bits of a tree node.
fn context_flags(f: cct::NodeFlags) -> u8 {
    use cct::NodeFlags as N;
    [
        (N::TAIL_CALL, ContextTable::FLAG_TAIL_CALL),
        (N::SIGNAL, ContextTable::FLAG_SIGNAL),
        (N::THREAD_ROOT, ContextTable::FLAG_THREAD_ROOT),
        (N::DEPTH_CAPPED, ContextTable::FLAG_DEPTH_CAPPED),
    ]
    .iter()
    .filter(|(n, _)| f.contains(*n))
    .fold(0, |acc, (_, bit)| acc | bit)
}

/// Which functions get rows, and what their rows are built from.
struct RowPlan {
    /// Per tree node: its function (table id), `None` for the root.
    node_func: Vec<Option<FuncId>>,
    calls: FxHashMap<FuncId, u64>,
    incl: FxHashMap<FuncId, Costs>,
    /// The functions with rows, in row order.
    order: Vec<FuncId>,
    row_of: FxHashMap<FuncId, u32>,
}

/// Calls and inclusive cost per function from the calling context tree,
/// and the functions that get rows: those that ran or were called.
fn plan_rows(
    table: &FunctionTable,
    cct: &cct::Cct,
    synthetic_entries: &[u64],
    func_self: &[Costs],
) -> RowPlan {
    // Map the tree's function ids (synthetic ones included) to table ids.
    let map_func = |f: FuncId| -> FuncId {
        if f.is_synthetic() {
            let entry = synthetic_entries[(f.0 - FuncId::FIRST_SYNTHETIC.0) as usize];
            table.unnamed(entry)
        } else {
            f
        }
    };
    let n = cct.n_metrics();
    let inclusive = cct.inclusive();
    let mut node_func = Vec::with_capacity(cct.node_count());
    let mut parent = Vec::with_capacity(cct.node_count());
    for node in cct.nodes() {
        node_func.push(cct.parent(node).map(|_| map_func(cct.function(node))));
        parent.push(cct.parent(node).map_or(0, |p| p.0));
    }
    let function: Vec<u32> = node_func
        .iter()
        .map(|f| f.map_or(ContextTable::NO_FUNCTION, |f| f.0))
        .collect();
    // A function's inclusive cost counts each activation once under
    // recursion.
    let outermost = reports::outermost_activations(&parent, &function);
    drop((parent, function));
    let mut calls: FxHashMap<FuncId, u64> = FxHashMap::default();
    let mut incl: FxHashMap<FuncId, Costs> = FxHashMap::default();
    for node in cct.nodes() {
        let Some(f) = node_func[node.index()] else {
            continue;
        };
        *calls.entry(f).or_default() += cct.calls(node);
        if outermost[node.index()] {
            *incl.entry(f).or_default() +=
                &Costs::from_columns(&inclusive[node.index() * n..(node.index() + 1) * n]);
        }
    }

    drop(inclusive);
    // Calls folded into a node at the depth cap count as their callee's.
    for (f, n) in cct.capped_calls() {
        *calls.entry(map_func(f)).or_default() += n;
    }
    let n_functions = table.functions().len();
    let zero = Costs::ZERO;
    let mut row_of: FxHashMap<FuncId, u32> = FxHashMap::default();
    let mut order = Vec::new();
    for i in 0..n_functions {
        let f = FuncId(i as u32);
        let own = func_self.get(i).unwrap_or(&zero);
        if own.is_zero() && !calls.contains_key(&f) && !incl.contains_key(&f) {
            continue;
        }
        row_of.insert(f, order.len() as u32);
        order.push(f);
    }
    RowPlan {
        node_func,
        calls,
        incl,
        order,
        row_of,
    }
}

/// Function rows (self cost as charged during the run; calls and inclusive
/// cost from the calling context tree) and the context table (empty
/// without `contexts`).
fn function_rows(
    table: &FunctionTable,
    cct: &cct::Cct,
    func_self: &[Costs],
    plan: &RowPlan,
    contexts: bool,
    values: &dyn Fn(&Costs) -> Vec<u64>,
) -> (Vec<FunctionRow>, ContextTable) {
    let RowPlan {
        node_func,
        calls,
        incl,
        order,
        row_of,
    } = plan;
    let functions = table.functions();
    let zero = Costs::ZERO;
    let mut rows = Vec::with_capacity(order.len());
    for &f in order {
        let i = f.0 as usize;
        let own = func_self.get(i).unwrap_or(&zero);
        let func = &functions[i];
        let line = table.symbolizer.line(func.entry);
        // Code reached without a call (a thread's first function before the
        // tree knows it, a cold part) is at least its own cost.
        let mut inc = incl.get(&f).copied().unwrap_or_default();
        if inc[Metric::Instructions] < own[Metric::Instructions] {
            inc = *own;
        }
        rows.push(FunctionRow {
            name: func.name.clone(),
            object: func.object.clone(),
            file: line.as_ref().map(|l| l.0.to_string()),
            line: line.map(|l| l.1),
            calls: calls.get(&f).copied().unwrap_or(0),
            self_cost: values(own),
            inclusive: values(&inc),
        });
    }

    let mut ctx = ContextTable::default();
    if !contexts {
        return (rows, ctx);
    }
    for node in cct.nodes() {
        ctx.parent.push(cct.parent(node).map(|p| p.0).unwrap_or(0));
        ctx.function.push(
            node_func[node.index()]
                .and_then(|f| row_of.get(&f).copied())
                .unwrap_or(u32::MAX),
        );
        ctx.call_site.push(cct.call_site(node));
        ctx.flags.push(context_flags(cct.flags(node)));
        ctx.calls.push(cct.calls(node));
        ctx.self_cost
            .extend(values(&Costs::from_columns(cct.self_metrics(node))));
    }
    (rows, ctx)
}

/// Per executed block: start, instruction offsets, executions, costs.
type RawBlock = (u64, Box<[u32]>, u64, Costs);

/// The blocks that ran, with their costs: the simulator's per-block
/// counters when it ran, else instructions from the executions.
fn block_costs(rec: &Recorder) -> Vec<RawBlock> {
    let mut out = Vec::new();
    for (i, d) in rec.decoded.iter().enumerate() {
        let (Some(facts), Some(&BlockState { execs, .. })) = (d, rec.rows.get(i)) else {
            continue;
        };
        if execs == 0 {
            continue;
        }
        let (start, offs): (u64, Box<[u32]>) =
            (facts.start, facts.insns.iter().map(|x| x.offset).collect());
        let cost = match &rec.sim {
            // The front's rows have every column but instructions.
            Some(sim) if sim.is_external() => {
                let mut c = sim.block_counts(BlockId(i as u32));
                c[Metric::Instructions] = execs * offs.len() as u64;
                c
            }
            Some(sim) => sim.block_counts(BlockId(i as u32)),
            None => Costs::of(Metric::Instructions, execs * offs.len() as u64),
        };
        out.push((start, offs, execs, cost));
    }
    out.sort_by_key(|b| (b.0, b.1.len()));
    out
}

/// Costs per instruction before they become the profile's values.
struct RawInsns {
    /// `(address, value per profile metric)` in address order.
    rows: Vec<(Addr, Vec<u64>)>,
    /// What no instruction is known for (see [`reports::InsnProfile::unknown`]).
    unknown: Costs,
}

/// Each instruction's costs (see [`reports::InsnProfile`] for what goes
/// where): instructions and the terminator's branch columns from the
/// blocks, misses from the simulator's per-instruction rows, loads and
/// stores from the VM's access sites, `alloc-bytes` from the call sites
/// that reached an allocator. What the blocks counted that no instruction
/// took is `unknown`.
fn insn_costs(rec: &Recorder, blocks: &[RawBlock], accesses: &[(Addr, u64, u64)]) -> RawInsns {
    let mut by_addr: std::collections::BTreeMap<Addr, Costs> = Default::default();
    let mut block_total = Costs::ZERO;
    const BRANCH: [Metric; 4] = [
        Metric::Branches,
        Metric::BranchMisses,
        Metric::Indirect,
        Metric::IndirectMisses,
    ];
    for (start, offs, execs, cost) in blocks {
        block_total += cost;
        for &o in offs.iter() {
            by_addr.entry(start + o as u64).or_default()[Metric::Instructions] += execs;
        }
        if let Some(&last) = offs.last() {
            let c = by_addr.entry(start + last as u64).or_default();
            for m in BRANCH {
                c[m] += cost[m];
            }
        }
    }
    let mut known = Costs::ZERO;
    if let Some(sim) = &rec.sim {
        for (pc, c) in sim.insn_misses().rows() {
            if pc != 0 {
                *by_addr.entry(pc).or_default() += &c;
                known += &c;
            }
        }
    }
    for &(pc, loads, stores) in accesses {
        let c = by_addr.entry(pc).or_default();
        c[Metric::Loads] += loads;
        c[Metric::Stores] += stores;
        known[Metric::Loads] += loads;
        known[Metric::Stores] += stores;
    }
    for (&pc, &bytes) in &rec.alloc_sites {
        by_addr.entry(pc).or_default()[Metric::AllocBytes] += bytes;
    }
    // Blocks carry every column of the simulator; only instructions and
    // branch columns were spread exactly above.
    let mut unknown = Costs::ZERO;
    for m in [
        Metric::Loads,
        Metric::Stores,
        Metric::L1iMiss,
        Metric::L1dReadMiss,
        Metric::L1dWriteMiss,
        Metric::LlMiss,
    ] {
        unknown[m] = block_total[m].saturating_sub(known[m]);
    }
    let metrics = measured_metrics(rec.sim.as_ref().map(|s| s.config()));
    let cycles = rec
        .sim
        .as_ref()
        .map(|s| s.config().cycles)
        .unwrap_or_default();
    let rows = by_addr
        .into_iter()
        .map(|(a, c)| (a, metrics.iter().map(|m| c.get(*m, &cycles)).collect()))
        .collect();
    RawInsns { rows, unknown }
}

/// The profile's block section: rows in address order with their
/// function and every instruction's source line.
fn block_profile(
    table: &FunctionTable,
    raw: Vec<RawBlock>,
    row_of: &FxHashMap<FuncId, u32>,
    values: &dyn Fn(&Costs) -> Vec<u64>,
) -> reports::BlockProfile {
    let mut files: Vec<String> = Vec::new();
    let mut file_ix: FxHashMap<std::sync::Arc<str>, u32> = FxHashMap::default();
    let mut blocks = Vec::with_capacity(raw.len());
    for (start, offs, executions, cost) in raw {
        let function = table
            .function_at(start)
            .and_then(|(f, _)| row_of.get(&f).copied())
            .unwrap_or(u32::MAX);
        let lines = offs
            .iter()
            .map(|&o| match table.symbolizer.line(start + o as u64) {
                Some((file, line)) => {
                    let f = *file_ix.entry(file.clone()).or_insert_with(|| {
                        files.push(file.to_string());
                        files.len() as u32 - 1
                    });
                    reports::PathLine { file: f, line }
                }
                None => reports::PathLine {
                    file: u32::MAX,
                    line: 0,
                },
            })
            .collect();
        blocks.push(reports::BlockRow {
            start,
            function,
            executions,
            insns: offs.into_vec(),
            lines,
            cost: values(&cost),
        });
    }
    reports::BlockProfile { files, blocks }
}
/// The inline frames of the instructions with a cost (their addresses in
/// order), from the objects' DWARF; call-site files join the blocks' files.
fn inline_profile(
    table: &FunctionTable,
    rows: &[(Addr, Vec<u64>)],
    files: &mut Vec<String>,
) -> reports::InlineProfile {
    let mut file_ix: FxHashMap<String, u32> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.clone(), i as u32))
        .collect();
    let mut chains = Vec::new();
    for (addr, _) in rows {
        let frames = table.symbolizer.inline_frames(*addr);
        if frames.is_empty() {
            continue;
        }
        let chain: Vec<(String, Option<u32>, u32)> = frames
            .into_iter()
            .map(|f| {
                let file = f.call_file.map(|name| {
                    *file_ix.entry(name.to_string()).or_insert_with(|| {
                        files.push(name.to_string());
                        files.len() as u32 - 1
                    })
                });
                (f.function.to_string(), file, f.call_line)
            })
            .collect();
        chains.push((*addr, chain));
    }
    reports::InlineProfile::from_chains(chains.iter().map(|(a, c)| (*a, c.as_slice())))
}

/// `--focus` (iPath's focused profiling): the contexts on the call paths
/// that reach a function matching `globs` (each matching node, its
/// ancestors and everything below it), renumbered with parents before
/// children; the path rows of other contexts go. Kept nodes keep their own
/// self costs, so a matching node's inclusive cost is the full run's.
fn focus_contexts(
    ctx: &ContextTable,
    rows: &[FunctionRow],
    globs: &[String],
    paths: &mut reports::PathProfile,
    m: usize,
) -> ContextTable {
    let here: Vec<bool> = (0..ctx.len())
        .map(|node| {
            rows.get(ctx.function[node] as usize)
                .is_some_and(|r| globs.iter().any(|g| reports::glob::glob_match(g, &r.name)))
        })
        .collect();
    let keep = reports::focus_keep(&ctx.parent, &here);
    let (out, new_of) = ctx.retain(&keep, m);
    paths.renumber_contexts(&new_of);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::InsnFacts;

    fn block(start: Addr, terminator: Terminator) -> BlockFacts {
        let insn = InsnFacts {
            offset: 0,
            len: 2,
            loads: 0,
            stores: 0,
            is_branch: true,
        };
        BlockFacts::new(start, 2, vec![insn].into_boxed_slice(), terminator)
    }

    /// In code no symbol covers, the front takes as an entry every block
    /// the recorder's tracker could make one of: reached by a call (not one
    /// to the next instruction, which reads the program counter), by an
    /// indirect call or jump, or first on its thread; not one reached by a
    /// return, a plain jump or a fall-through. Each address is listed once.
    #[test]
    fn entries_are_the_blocks_a_call_or_an_indirect_transfer_reaches() {
        let functions = FunctionTable::new();
        let mut e = EntryFinder::default();
        let steps = [
            (0x1000, Terminator::Call { target: 0x2000 }),
            (0x2000, Terminator::Return),
            (0x1002, Terminator::Jump { target: 0x3000 }),
            (0x3000, Terminator::Call { target: 0x3002 }),
            (0x3002, Terminator::IndirectJump),
            (0x4000, Terminator::IndirectCall),
            (0x5000, Terminator::FallThrough),
            (0x5002, Terminator::Call { target: 0x2000 }),
            (0x2000, Terminator::Return),
        ];
        for (i, (start, t)) in steps.into_iter().enumerate() {
            e.block(&functions, BlockId(i as u32), &block(start, t));
        }
        // The first block (a thread's first), the call's target, the
        // targets of the indirect jump and call.
        assert_eq!(e.addrs, [0x1000, 0x2000, 0x4000, 0x5000]);
        for a in [0x1000, 0x2000, 0x4000, 0x5000] {
            assert!(e.is_entry(&functions, a));
        }
        for a in [0x1002, 0x3000, 0x3002, 0x5002] {
            assert!(!e.is_entry(&functions, a));
        }
        // After a thread switch or a signal, the next block may start a
        // function; a signal handler's entry is one at once.
        e.prev = None;
        e.block(&functions, BlockId(20), &block(0x6000, Terminator::Return));
        e.block(&functions, BlockId(21), &block(0x7000, Terminator::Return));
        assert_eq!(e.addrs[4..], [0x6000]);
        e.add(&functions, 0x8000);
        e.add(&functions, 0x8000);
        assert_eq!(e.addrs[4..], [0x6000, 0x8000]);
    }
}
