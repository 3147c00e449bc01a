//! Shadow stacks driven by the block stream, and the tree they build.

use std::mem::size_of;

use events::{
    Addr, BlockEvent, BlockExit, BlockFacts, BlockId, ObjectMapped, Observer, Terminator, Tid,
};
use rustc_hash::FxHashMap;

use crate::tree::{Cct, FuncId, NodeFlags, NodeId, INSTRUCTIONS, NO_CALL_SITE};
use crate::{BlockStart, FunctionIndex, PerThread};

/// What to do with recursive calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecursionPolicy {
    /// Keep every level as its own node, down to `max_depth` levels below the
    /// root. A call from a node at the cap is folded into that node (flagged
    /// [`NodeFlags::DEPTH_CAPPED`], counted by [`Cct::depth_cap_hits`]), and so
    /// is everything it calls.
    ///
    /// A recursive call (to a function already on the tree path to the
    /// caller's node) enters the caller's child for that function whatever
    /// its call site, so a level has one node, not one per call site that
    /// reached it: a merge sort with two recursive calls has one node per
    /// level instead of one per call (sort -n on 300,000 lines: 1.2 million
    /// nodes). Contexts are shown by their stacks of functions, so no view
    /// changes; what differs is only the number of nodes.
    Full { max_depth: u32 },
    /// A call to a function that is already on the tree path to the current
    /// node goes back to that ancestor's node (Ammons et al., section 4.1), so
    /// no path repeats a function and depth never exceeds the number of
    /// functions. Folds are counted by [`Cct::recursion_folds`].
    Collapse,
}

impl Default for RecursionPolicy {
    fn default() -> Self {
        RecursionPolicy::Full {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// The depth cap of [`RecursionPolicy::default`].
pub const DEFAULT_MAX_DEPTH: u32 = 1024;

/// How a [`CallTracker`] builds its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrackerConfig {
    /// See [`RecursionPolicy`].
    pub recursion: RecursionPolicy,
    /// Show PLT stubs and the dynamic linker's lazy resolution as functions of
    /// their own (`--show-plt`). Off: a call through a stub is one level
    /// (caller → real function) and the stub's and the resolver's costs are
    /// charged to the caller.
    pub show_plt: bool,
    /// Self metrics per node; at least 1 ([`INSTRUCTIONS`]).
    pub n_metrics: usize,
    /// The most nodes the tree grows to (`--max-contexts`). Past it, a call
    /// that would make a new node is folded into its caller's node
    /// ([`NodeFlags::CONTEXTS_CAPPED`], counted by [`Cct::context_cap_hits`]
    /// and, per callee, by [`Cct::capped_calls`]): memory stays bounded and
    /// every cost and call is still counted, on a coarser tree. Thread roots
    /// are never folded.
    pub max_contexts: usize,
}

/// The size cap of [`TrackerConfig::default`]. A full profile (paths, cache
/// and branch simulation) costs about 500 bytes per context: a program with
/// 4.2 million distinct contexts peaks at 502 MB under this cap (2.0 GB
/// without it), 284 MB counting instructions only.
pub const DEFAULT_MAX_CONTEXTS: usize = 1_000_000;

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig {
            recursion: RecursionPolicy::default(),
            show_plt: false,
            n_metrics: 1,
            max_contexts: DEFAULT_MAX_CONTEXTS,
        }
    }
}

/// How a frame was entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// The bottom frame of a guest thread (its first block's function); never
    /// popped by the stack pointer.
    Thread,
    /// A `call`.
    Call,
    /// A `jmp` to another function's entry; it shares the stack pointer, and
    /// so the `ret`, of the frame below it.
    TailCall,
    /// A signal handler (see [`CallTracker::signal_enter`]).
    Signal,
}

/// Whether a frame has a node of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameState {
    Visible,
    /// Running a PLT stub or the lazy resolver (only without `show_plt`): the
    /// node is still the caller's; the stub's jump out names the callee.
    Plt,
    /// Called from PLT or resolver code (`_dl_fixup`): charged to the caller.
    Hidden,
}

/// One activation on a [`ShadowStack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    sp: Addr,
    ret_addr: Addr,
    call_site: Addr,
    func: FuncId,
    node: NodeId,
    kind: FrameKind,
    state: FrameState,
    serial: u32,
}

const _: () = assert!(size_of::<Frame>() == 40);

impl Frame {
    /// The stack pointer at the function's entry (pointing at the return
    /// address); the frame ends when the stack pointer rises above it.
    #[inline]
    pub fn sp(&self) -> Addr {
        self.sp
    }
    /// Where a normal return goes (0 when unknown: thread and signal frames).
    #[inline]
    pub fn return_address(&self) -> Addr {
        self.ret_addr
    }
    /// The instruction that entered the frame ([`NO_CALL_SITE`] if none).
    #[inline]
    pub fn call_site(&self) -> Addr {
        self.call_site
    }
    /// The function running in the frame (a PLT stub or the resolver while
    /// a hidden PLT call is being resolved).
    #[inline]
    pub fn function(&self) -> FuncId {
        self.func
    }
    /// The node charged while this frame is on top.
    #[inline]
    pub fn node(&self) -> NodeId {
        self.node
    }
    /// How the frame was entered.
    #[inline]
    pub fn kind(&self) -> FrameKind {
        self.kind
    }
    /// A number given at the push, different from the frames pushed just
    /// before and after it (it wraps after 2^32 pushes): with
    /// [`Frame::node`] it tells whether the frame at an index is still one
    /// seen before (a PLT stub's frame keeps its serial when the stub's
    /// jump out makes it the callee's).
    #[inline]
    pub fn serial(&self) -> u32 {
        self.serial
    }
    /// True for frames without a node of their own: a PLT stub or the lazy
    /// resolver (and what it calls) without `show_plt`.
    #[inline]
    pub fn is_hidden(&self) -> bool {
        self.state != FrameState::Visible
    }
}

/// A change of the current thread's shadow stack, in the order the tracker
/// made it (see [`CallTracker::set_frame_events`]). Between two
/// [`Observer::block`]s the events of one thread are a few leaves followed
/// by a few enters: replaying them on a stack of per-frame state keeps it
/// the shape of the tracker's, without comparing the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameEvent {
    /// A frame was pushed at `index` (the stack had `index` frames).
    Enter { index: u32, frame: Frame },
    /// The frames at `depth` and above ended, innermost first; the stack
    /// has `depth` frames now.
    Leave { depth: u32, why: LeaveReason },
}

/// Why frames ended ([`FrameEvent::Leave`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveReason {
    /// A `ret` raised the stack pointer above them.
    Return,
    /// Another transfer did: `longjmp`, an exception's landing pad, a jump
    /// out of a signal handler.
    Unwind,
    /// A tail call back to a function whose frame shares their stack
    /// pointer (a loop of tail calls): the frames above it end.
    TailCallLoop,
    /// `rt_sigreturn` ended a signal handler's frames.
    SignalReturn,
    /// A PLT stub (or the lazy resolver) jumped to the real function: the
    /// stub's hidden frame ends and an [`FrameEvent::Enter`] of the
    /// callee's frame follows at the same index.
    Resolved,
}

/// What the tracker keeps of the previous block of a thread (not a
/// reference): how it ended.
type PrevBlock = BlockExit;

/// A signal delivered to a thread and not yet left by `rt_sigreturn` or a
/// non-local exit.
#[derive(Clone, Copy, Debug)]
struct SignalContext {
    /// Index of the signal frame in the frames (= the interrupted depth).
    depth: usize,
    /// The interrupted thread's previous block, whose terminator applies
    /// again when execution resumes.
    saved_prev: Option<PrevBlock>,
    /// The handler returned normally and the frame is gone; `rt_sigreturn`
    /// is still to come.
    returned: bool,
}

/// The frames of one guest thread, innermost last.
#[derive(Clone, Debug)]
pub struct ShadowStack {
    tid: Tid,
    frames: Vec<Frame>,
    prev: Option<PrevBlock>,
    signals: Vec<SignalContext>,
}

impl ShadowStack {
    fn new(tid: Tid) -> ShadowStack {
        ShadowStack {
            tid,
            frames: Vec::new(),
            prev: None,
            signals: Vec::new(),
        }
    }

    /// The thread.
    pub fn tid(&self) -> Tid {
        self.tid
    }

    /// The frames, outermost first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// Number of frames (the thread's bottom frame included).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    fn close_all(&mut self) {
        self.frames.clear();
        self.signals.clear();
        self.prev = None;
    }
}

/// Counts of the irregular transfers the tracker met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackerCounters {
    /// `ret`s that popped no frame, or did not land on the return address of
    /// the outermost frame they popped (exception unwinding, stack switching).
    pub unexpected_returns: u64,
    /// Transfers other than `ret` that popped frames (`longjmp`, exceptions).
    pub nonlocal_exits: u64,
    /// Guest threads seen.
    pub threads: u64,
}

/// What a tracker leaves when it is done.
#[derive(Clone, Debug)]
pub struct TrackerParts<I> {
    /// The tree.
    pub cct: Cct,
    /// Entry address of each synthetic function: `FuncId(FIRST_SYNTHETIC + i)`
    /// is `synthetic_entries[i]`.
    pub synthetic_entries: Vec<Addr>,
    /// The function index it was given.
    pub index: I,
}

/// Per-block answers of the index, asked once per block.
#[derive(Clone, Copy, Debug)]
struct BlockInfo {
    func: Option<FuncId>,
    flags: u8,
    /// How many synthetic functions existed when the block was last found
    /// not to start one (see `entry_function`).
    synthetic_seen: u32,
}

impl BlockInfo {
    const COMPUTED: u8 = 1;
    /// The block starts at its function's entry.
    const ENTRY: u8 = 2;
    const PLT: u8 = 4;
    const RESOLVER: u8 = 8;
    const UNKNOWN: BlockInfo = BlockInfo {
        func: None,
        flags: 0,
        synthetic_seen: 0,
    };

    #[inline]
    fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// Builds a [`Cct`] from the VM's event stream by keeping one [`ShadowStack`]
/// per guest thread (see the crate documentation for the rules).
///
/// All threads share the tree: the root's children are the functions in which
/// threads started (the main thread's `_start`, `clone` for the others), one
/// per thread (the tid is the call site of its key).
#[derive(Debug)]
pub struct CallTracker<I> {
    index: I,
    config: TrackerConfig,
    cct: Cct,
    /// The current thread's stack; the others are parked.
    stack: PerThread<ShadowStack>,
    blocks: Vec<BlockInfo>,
    synthetic: FxHashMap<Addr, FuncId>,
    synthetic_entries: Vec<Addr>,
    max_stack_depth: usize,
    next_serial: u32,
    counters: TrackerCounters,
    /// Charge each block's instructions to the current node (see
    /// [`CallTracker::set_count_instructions`]).
    count_instructions: bool,
    /// [`RecursionPolicy::Full`]: the node of each recursive call by caller
    /// node and callee, whatever the call site.
    recursive: FxHashMap<(NodeId, FuncId), NodeId>,
    /// Record [`FrameEvent`]s (see [`CallTracker::set_frame_events`]).
    report_frames: bool,
    frame_events: Vec<FrameEvent>,
}

impl<I: FunctionIndex> CallTracker<I> {
    /// A tracker with an empty tree. Blocks before the first
    /// [`Observer::thread_switch`] belong to the first thread named.
    pub fn new(index: I, config: TrackerConfig) -> Self {
        CallTracker {
            index,
            cct: Cct::new(config.n_metrics),
            config,
            stack: PerThread::new(0, ShadowStack::new(0)),
            blocks: Vec::new(),
            synthetic: FxHashMap::default(),
            synthetic_entries: Vec::new(),
            max_stack_depth: 0,
            next_serial: 0,
            counters: TrackerCounters::default(),
            count_instructions: true,
            recursive: FxHashMap::default(),
            report_frames: false,
            frame_events: Vec::new(),
        }
    }

    /// The tree built so far.
    pub fn cct(&self) -> &Cct {
        &self.cct
    }

    /// The function index.
    pub fn index(&self) -> &I {
        &self.index
    }

    /// The configuration.
    pub fn config(&self) -> &TrackerConfig {
        &self.config
    }

    /// Whether [`Observer::block`] charges the block's instructions to the
    /// current node (the default). A consumer that counts only part of the
    /// run (callgrind's `--toggle-collect`) turns it off and charges
    /// [`INSTRUCTIONS`] itself through [`CallTracker::add_metric`].
    pub fn set_count_instructions(&mut self, on: bool) {
        self.count_instructions = on;
    }

    /// Record every push and pop of the current thread's frames as a
    /// [`FrameEvent`] (off by default), for consumers that keep state per
    /// frame (the path tracker, `--toggle-collect`): they replay the events
    /// ([`CallTracker::swap_frame_events`]) instead of comparing stacks.
    /// The events of one thread stay in its order; a consumer takes them
    /// before [`Observer::thread_switch`] and keeps per-thread state
    /// itself. [`CallTracker::finish`] closes frames without events.
    pub fn set_frame_events(&mut self, on: bool) {
        self.report_frames = on;
        self.frame_events.clear();
    }

    /// The frame events recorded since they were last taken.
    #[inline]
    pub fn frame_events(&self) -> &[FrameEvent] {
        &self.frame_events
    }

    /// Take the frame events recorded since the last call: they are
    /// swapped with `into`, which must be empty (so both vectors keep
    /// their room).
    #[inline]
    pub fn swap_frame_events(&mut self, into: &mut Vec<FrameEvent>) {
        debug_assert!(into.is_empty());
        std::mem::swap(&mut self.frame_events, into);
    }

    /// The current thread's shadow stack.
    pub fn shadow_stack(&self) -> &ShadowStack {
        &self.stack
    }

    /// The largest number of frames any thread had.
    pub fn max_stack_depth(&self) -> usize {
        self.max_stack_depth
    }

    /// Counts of irregular transfers.
    pub fn counters(&self) -> TrackerCounters {
        self.counters
    }

    /// The node now being charged on the current thread (the root before its
    /// first block).
    #[inline]
    pub fn current_node(&self) -> NodeId {
        self.stack.frames.last().map_or(NodeId::ROOT, |f| f.node)
    }

    /// Add to a self metric of a node (for other metric sources, such as the
    /// cache model, which charge [`CallTracker::current_node`]).
    #[inline]
    pub fn add_metric(&mut self, node: NodeId, metric: usize, value: u64) {
        self.cct.add_metric(node, metric, value);
    }

    /// The self metrics of `node`, for a consumer adding several at once.
    #[inline]
    pub fn node_metrics_mut(&mut self, node: NodeId) -> &mut [u64] {
        self.cct.self_metrics_mut(node)
    }

    /// The entry address of a synthetic function, `None` for other ids.
    pub fn synthetic_entry(&self, func: FuncId) -> Option<Addr> {
        if !func.is_synthetic() {
            return None;
        }
        self.synthetic_entries
            .get((func.0 - FuncId::FIRST_SYNTHETIC.0) as usize)
            .copied()
    }

    /// The entries of the synthetic functions, in the order they were made
    /// (the slice only grows).
    pub fn synthetic_entry_addrs(&self) -> &[Addr] {
        &self.synthetic_entries
    }

    /// True if a transfer landing on block `id` (starting at `start`) may
    /// change the frames: [`BlockStart::moves_frames`], or the entry of a
    /// function made for code without a symbol. Any other block reached by
    /// a jump, a branch or falling through leaves them as they are (see
    /// [`CallTracker::skipped`]).
    pub fn lands_on_entry(&mut self, id: BlockId, start: Addr) -> bool {
        let info = self.block_info(id, start);
        info.has(BlockInfo::ENTRY) || info.has(BlockInfo::PLT) || info.has(BlockInfo::RESOLVER)
    }

    /// Blocks ran without events (sparse mode): `insns` instructions in the
    /// current context, the last of them `facts`. None moved the frames
    /// (each landed on a block that is not an entry, by a jump, a branch or
    /// falling through), so this is what their `block` events would have
    /// done.
    #[inline]
    pub fn skipped(&mut self, insns: u64, exit: BlockExit) {
        if self.count_instructions && !self.stack.frames.is_empty() {
            let node = self.current_node();
            self.cct.add_metric(node, INSTRUCTIONS, insns);
        }
        self.stack.prev = Some(exit);
    }

    /// A signal handler starts on the current thread with stack pointer `sp`
    /// (pointing at the return address to the restorer). It becomes a child
    /// context of the interrupted one, flagged [`NodeFlags::SIGNAL`]. The VM
    /// calls this between blocks, before the handler's first block.
    pub fn signal_enter(&mut self, handler_entry: Addr, sp: Addr) {
        let func = match self.index.function_at(handler_entry) {
            Some((f, _)) => f,
            None => self.synthetic(handler_entry),
        };
        let parent = self.current_node();
        let node = self.enter(parent, NO_CALL_SITE, func, NodeFlags::SIGNAL);
        let depth = self.stack.frames.len();
        let saved_prev = self.stack.prev.take();
        self.stack.signals.push(SignalContext {
            depth,
            saved_prev,
            returned: false,
        });
        self.push(Frame {
            sp,
            ret_addr: 0,
            call_site: NO_CALL_SITE,
            func,
            node,
            kind: FrameKind::Signal,
            state: FrameState::Visible,
            serial: 0,
        });
    }

    /// The current thread's `rt_sigreturn` restored stack pointer `sp`. The
    /// innermost signal's frames go (if its handler has not returned yet), and
    /// the interrupted block's terminator applies again to the next block.
    /// Without a pending signal, frames below `sp` are popped.
    pub fn signal_return(&mut self, sp: Addr) {
        let Some(ctx) = self.stack.signals.last().copied() else {
            self.pop_above(sp, LeaveReason::SignalReturn);
            self.stack.prev = None;
            return;
        };
        if self.stack.frames.len() > ctx.depth {
            self.pop_to(ctx.depth, true, LeaveReason::SignalReturn);
        }
        let ctx = self.stack.signals.pop().expect("context kept by pop_to");
        debug_assert!(ctx.returned && ctx.depth == self.stack.frames.len());
        self.stack.prev = ctx.saved_prev;
        if !ctx.saved_prev.is_some_and(|p| p.terminator.moves_frames()) {
            self.pop_above(sp, LeaveReason::SignalReturn);
        }
    }

    /// Close every open frame of every thread (at the end of the run). The
    /// tree keeps all costs; a later block starts its thread afresh.
    pub fn finish(&mut self) {
        self.stack.close_all();
        for s in self.stack.parked_mut() {
            s.close_all();
        }
    }

    /// Finish and hand over the tree, the synthetic functions and the index.
    pub fn into_parts(mut self) -> TrackerParts<I> {
        self.finish();
        TrackerParts {
            cct: self.cct,
            synthetic_entries: self.synthetic_entries,
            index: self.index,
        }
    }

    fn block_info(&mut self, id: BlockId, start: Addr) -> BlockInfo {
        let i = id.index();
        if i >= self.blocks.len() {
            self.blocks.resize(i + 1, BlockInfo::UNKNOWN);
        }
        let b = self.blocks[i];
        if b.has(BlockInfo::COMPUTED) {
            return b;
        }
        let at = BlockStart::of(&self.index, start);
        let mut flags = BlockInfo::COMPUTED;
        let func = match at.func {
            Some(f) => {
                if at.entry {
                    flags |= BlockInfo::ENTRY;
                }
                Some(f)
            }
            None => {
                let f = self.synthetic.get(&start).copied();
                if f.is_some() {
                    flags |= BlockInfo::ENTRY;
                }
                f
            }
        };
        if at.plt {
            flags |= BlockInfo::PLT;
        }
        if at.resolver {
            flags |= BlockInfo::RESOLVER;
        }
        let b = BlockInfo {
            func,
            flags,
            synthetic_seen: 0,
        };
        self.blocks[i] = b;
        b
    }

    /// The function entered at block `id` by a call (or a jump out of a PLT
    /// stub): the index's function, or a synthetic one for this entry.
    fn callee(&mut self, id: BlockId, start: Addr, info: BlockInfo) -> FuncId {
        if let Some(f) = info.func {
            return f;
        }
        let f = self.synthetic(start);
        self.blocks[id.index()] = BlockInfo {
            func: Some(f),
            flags: info.flags | BlockInfo::ENTRY,
            synthetic_seen: 0,
        };
        f
    }

    /// The function whose entry block `id` is, if it is one.
    fn entry_function(&mut self, id: BlockId, start: Addr, info: BlockInfo) -> Option<FuncId> {
        if info.has(BlockInfo::ENTRY) {
            return info.func;
        }
        // Synthetic functions are only ever added: the answer can change
        // only when their number did.
        let made = self.synthetic_entries.len() as u32;
        if info.func.is_some() || info.synthetic_seen == made {
            return None;
        }
        // A synthetic function may have been made for this address after the
        // block's answers were cached (by another block with the same start).
        let Some(&f) = self.synthetic.get(&start) else {
            self.blocks[id.index()].synthetic_seen = made;
            return None;
        };
        self.blocks[id.index()] = BlockInfo {
            func: Some(f),
            flags: info.flags | BlockInfo::ENTRY,
            synthetic_seen: 0,
        };
        Some(f)
    }

    fn synthetic(&mut self, entry: Addr) -> FuncId {
        if let Some(&f) = self.synthetic.get(&entry) {
            return f;
        }
        let n = u32::try_from(self.synthetic_entries.len()).expect("synthetic functions");
        let f = FuncId(FuncId::FIRST_SYNTHETIC.0 + n);
        assert!(f.is_synthetic(), "synthetic function ids exhausted");
        self.synthetic.insert(entry, f);
        self.synthetic_entries.push(entry);
        f
    }

    /// The node a call from `parent` at `site` to `func` enters, made if new,
    /// with its call counted.
    fn enter(&mut self, parent: NodeId, site: Addr, func: FuncId, flags: NodeFlags) -> NodeId {
        if let Some(n) = self.cct.edge(parent, site, func) {
            if self.cct.parent(n) == Some(parent) {
                self.cct.add_calls(n, 1);
            } else if let RecursionPolicy::Full { .. } = self.config.recursion {
                self.cct.count_depth_cap_hit(func);
            } else {
                self.cct.count_recursion_fold();
                self.cct.add_calls(n, 1);
            }
            return n;
        }
        match self.config.recursion {
            RecursionPolicy::Collapse => {
                // Ammons et al. 4.2: look for the callee among the tree
                // ancestors of the caller's record (the caller included).
                let mut a = parent;
                while a != NodeId::ROOT {
                    if self.cct.function(a) == func {
                        self.cct.add_folded_edge(parent, site, func, a);
                        self.cct.count_recursion_fold();
                        self.cct.add_calls(a, 1);
                        return a;
                    }
                    a = self.cct.parent(a).unwrap_or(NodeId::ROOT);
                }
            }
            RecursionPolicy::Full { max_depth } => {
                if self.cct.depth(parent) >= max_depth {
                    self.cct.add_folded_edge(parent, site, func, parent);
                    self.cct.set_flags(parent, NodeFlags::DEPTH_CAPPED);
                    self.cct.count_depth_cap_hit(func);
                    return parent;
                }
                // A signal handler stays a node of its own.
                if !flags.contains(NodeFlags::SIGNAL) && self.on_tree_path(parent, func) {
                    if let Some(&n) = self.recursive.get(&(parent, func)) {
                        self.cct.add_sibling_edge(parent, site, func, n);
                        self.cct.set_flags(n, flags);
                        self.cct.add_calls(n, 1);
                        return n;
                    }
                    if self.at_size_cap(flags) {
                        return self.fold_at_size_cap(parent, func);
                    }
                    let n = self.cct.add_child(parent, site, func, flags);
                    self.cct.add_calls(n, 1);
                    self.recursive.insert((parent, func), n);
                    return n;
                }
            }
        }
        if self.at_size_cap(flags) {
            return self.fold_at_size_cap(parent, func);
        }
        let n = self.cct.add_child(parent, site, func, flags);
        self.cct.add_calls(n, 1);
        n
    }

    /// Whether a new node with `flags` would pass the size cap.
    #[inline]
    fn at_size_cap(&self, flags: NodeFlags) -> bool {
        self.cct.node_count() >= self.config.max_contexts && !flags.contains(NodeFlags::THREAD_ROOT)
    }

    /// Folds a call into its caller's node at the size cap. No edge is
    /// cached for it, so each such call comes back here and is counted.
    #[cold]
    fn fold_at_size_cap(&mut self, parent: NodeId, func: FuncId) -> NodeId {
        self.cct.set_flags(parent, NodeFlags::CONTEXTS_CAPPED);
        self.cct.count_context_cap_hit(func);
        parent
    }

    /// Whether `func` is the function of `node` or of one of its ancestors.
    fn on_tree_path(&self, node: NodeId, func: FuncId) -> bool {
        let mut a = node;
        while a != NodeId::ROOT {
            if self.cct.function(a) == func {
                return true;
            }
            a = self.cct.parent(a).unwrap_or(NodeId::ROOT);
        }
        false
    }

    #[inline]
    fn push(&mut self, mut frame: Frame) {
        frame.serial = self.next_serial;
        self.next_serial = self.next_serial.wrapping_add(1);
        if self.report_frames {
            self.frame_events.push(FrameEvent::Enter {
                index: self.stack.frames.len() as u32,
                frame,
            });
        }
        self.stack.frames.push(frame);
        self.max_stack_depth = self.max_stack_depth.max(self.stack.frames.len());
    }

    #[inline]
    fn top(&self) -> Frame {
        *self
            .stack
            .frames
            .last()
            .expect("a thread has its bottom frame")
    }

    /// Pop the frames whose `sp` is below `sp` (their return address was
    /// popped). Returns how many went and the return address of the outermost.
    fn pop_above(&mut self, sp: Addr, why: LeaveReason) -> (usize, Addr) {
        let frames = &self.stack.frames;
        let mut keep = frames.len();
        while keep > 0 && frames[keep - 1].sp < sp {
            keep -= 1;
        }
        let popped = frames.len() - keep;
        if popped == 0 {
            return (0, 0);
        }
        let outer = frames[keep];
        let signal_returned = why == LeaveReason::Return && outer.kind == FrameKind::Signal;
        self.pop_to(keep, signal_returned, why);
        (popped, outer.ret_addr)
    }

    /// Pop frames down to `len`. `signal_returned`: the outermost popped frame
    /// is a signal frame left by its handler's normal `ret` (or by
    /// `rt_sigreturn`), so its context waits for [`Self::signal_return`].
    fn pop_to(&mut self, len: usize, signal_returned: bool, why: LeaveReason) {
        if self.report_frames && self.stack.frames.len() > len {
            self.frame_events.push(FrameEvent::Leave {
                depth: len as u32,
                why,
            });
        }
        let st = &mut self.stack;
        while st.frames.len() > len {
            let f = st.frames.pop().expect("len checked");
            if f.kind != FrameKind::Signal {
                continue;
            }
            let depth = st.frames.len();
            // Nested signals that had returned lie above this one; the frames
            // they would resume are gone now.
            while st.signals.last().is_some_and(|c| c.depth > depth) {
                st.signals.pop();
            }
            debug_assert!(st
                .signals
                .last()
                .is_some_and(|c| c.depth == depth && !c.returned));
            if signal_returned && depth == len {
                if let Some(c) = st.signals.last_mut() {
                    c.returned = true;
                }
            } else {
                st.signals.pop();
            }
        }
        while st.signals.last().is_some_and(|c| c.depth > st.frames.len()) {
            st.signals.pop();
        }
    }

    fn start_thread(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        let info = self.block_info(ev.id, facts.start);
        let func = self.callee(ev.id, facts.start, info);
        let tid = self.stack.tid as Addr;
        let node = self.enter(NodeId::ROOT, tid, func, NodeFlags::THREAD_ROOT);
        self.push(Frame {
            sp: Addr::MAX,
            ret_addr: 0,
            call_site: NO_CALL_SITE,
            func,
            node,
            kind: FrameKind::Thread,
            state: FrameState::Visible,
            serial: 0,
        });
        self.counters.threads += 1;
    }

    /// Apply the previous block's frame-moving terminator before `ev` runs.
    fn transfer(&mut self, p: PrevBlock, ev: BlockEvent, facts: &BlockFacts) {
        let is_ret = p.terminator == Terminator::Return;
        // A direct jump cannot pop frames, and the VM reads the stack
        // pointer only after the terminators that can (`needs_sp`).
        let why = if is_ret {
            LeaveReason::Return
        } else {
            LeaveReason::Unwind
        };
        let (popped, ret_addr) = if p.terminator.needs_sp() {
            self.pop_above(ev.sp, why)
        } else {
            (0, 0)
        };
        if is_ret {
            if popped == 0 || (ret_addr != 0 && ret_addr != facts.start) {
                self.counters.unexpected_returns += 1;
            }
        } else if popped > 0 {
            self.counters.nonlocal_exits += 1;
        }
        match p.terminator {
            // `call` to the next instruction reads the program counter.
            Terminator::Call { target } if target == p.end => {}
            Terminator::Call { .. } | Terminator::IndirectCall => self.call(p, ev, facts),
            Terminator::Jump { .. } | Terminator::IndirectJump => self.jump(p, ev, facts),
            _ => {}
        }
    }

    fn call(&mut self, p: PrevBlock, ev: BlockEvent, facts: &BlockFacts) {
        let info = self.block_info(ev.id, facts.start);
        let top = self.top();
        let func = self.callee(ev.id, facts.start, info);
        let (node, state) = match top.state {
            FrameState::Visible if info.has(BlockInfo::PLT) && !self.config.show_plt => {
                (top.node, FrameState::Plt)
            }
            FrameState::Visible => {
                let node = self.enter(top.node, p.last_insn, func, NodeFlags::NONE);
                (node, FrameState::Visible)
            }
            FrameState::Plt | FrameState::Hidden => (top.node, FrameState::Hidden),
        };
        self.push(Frame {
            sp: ev.sp,
            ret_addr: p.end,
            call_site: p.last_insn,
            func,
            node,
            kind: FrameKind::Call,
            state,
            serial: 0,
        });
    }

    /// A jump (or taken conditional branch) landed on `facts`.
    fn jump(&mut self, p: PrevBlock, ev: BlockEvent, facts: &BlockFacts) {
        let top = self.top();
        match top.state {
            FrameState::Hidden => {}
            FrameState::Plt => {
                let info = self.block_info(ev.id, facts.start);
                if info.has(BlockInfo::PLT) || info.has(BlockInfo::RESOLVER) {
                    return;
                }
                // The stub (or the resolver) jumps to the real function: it
                // takes the stub's place, one level below the caller.
                let func = self.callee(ev.id, facts.start, info);
                let flags = if top.kind == FrameKind::TailCall {
                    NodeFlags::TAIL_CALL
                } else {
                    NodeFlags::NONE
                };
                let node = self.enter(top.node, top.call_site, func, flags);
                let f = self.stack.frames.last_mut().expect("top exists");
                f.func = func;
                f.node = node;
                f.state = FrameState::Visible;
                let frame = *f;
                if self.report_frames {
                    let index = self.stack.frames.len() as u32 - 1;
                    self.frame_events.extend([
                        FrameEvent::Leave {
                            depth: index,
                            why: LeaveReason::Resolved,
                        },
                        FrameEvent::Enter { index, frame },
                    ]);
                }
            }
            FrameState::Visible => {
                let info = self.block_info(ev.id, facts.start);
                if info.has(BlockInfo::PLT) && !self.config.show_plt {
                    let func = self.callee(ev.id, facts.start, info);
                    self.push(Frame {
                        sp: top.sp,
                        ret_addr: top.ret_addr,
                        call_site: p.last_insn,
                        func,
                        node: top.node,
                        kind: FrameKind::TailCall,
                        state: FrameState::Plt,
                        serial: 0,
                    });
                    return;
                }
                let Some(func) = self.entry_function(ev.id, facts.start, info) else {
                    return;
                };
                if func != top.func {
                    self.tail_call(p.last_insn, func);
                }
            }
        }
    }

    /// A jump from the top frame to `func`'s entry. The tail frame takes the
    /// top frame's `sp` (not the jump's, which PLT0 and the resolver leave
    /// lower) so that the one `ret` ends both.
    fn tail_call(&mut self, site: Addr, func: FuncId) {
        // All frames with this sp end at the same `ret`. A tail call back to
        // one of them is a loop (as a jump to a function's own entry is), so
        // the frames above it go: cycles of tail calls keep the stack bounded.
        let frames = &self.stack.frames;
        let sp = frames.last().expect("a thread has its bottom frame").sp;
        let mut i = frames.len();
        while i > 0 {
            let f = &frames[i - 1];
            if f.sp != sp || f.state != FrameState::Visible {
                break;
            }
            if !matches!(f.kind, FrameKind::Call | FrameKind::TailCall) {
                break;
            }
            if f.func == func {
                self.pop_to(i, false, LeaveReason::TailCallLoop);
                return;
            }
            i -= 1;
        }
        let top = self.top();
        let node = self.enter(top.node, site, func, NodeFlags::TAIL_CALL);
        self.push(Frame {
            sp,
            ret_addr: top.ret_addr,
            call_site: site,
            func,
            node,
            kind: FrameKind::TailCall,
            state: FrameState::Visible,
            serial: 0,
        });
    }
}

impl<I: FunctionIndex> Observer for CallTracker<I> {
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        if self.stack.frames.is_empty() {
            self.start_thread(ev, facts);
        } else if let Some(p) = self.stack.prev {
            match p.terminator {
                t if t.moves_frames() => self.transfer(p, ev, facts),
                // A taken conditional branch to another function's entry is a
                // (conditional) tail call; the stack pointer cannot have moved.
                Terminator::CondBranch { target } if target == facts.start && target != p.end => {
                    self.jump(p, ev, facts)
                }
                _ => {}
            }
        }
        if self.count_instructions {
            let node = self.current_node();
            self.cct
                .add_metric(node, INSTRUCTIONS, facts.insn_count() as u64);
        }
        self.stack.prev = Some(facts.exit());
    }

    fn thread_switch(&mut self, tid: Tid) {
        if tid == self.stack.tid() {
            return;
        }
        let untouched = self.stack.alone()
            && self.stack.frames.is_empty()
            && self.stack.prev.is_none()
            && self.counters.threads == 0;
        if untouched {
            self.stack.rename(tid);
            self.stack.tid = tid;
            return;
        }
        self.stack.switch(tid, ShadowStack::new);
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.index.object_mapped(obj);
        self.blocks.clear();
    }
}

#[cfg(test)]
mod tests;
