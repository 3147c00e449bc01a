//! Path tracking at run time: frames with path registers, driven by the
//! owner's `enter`/`leave` calls and the executed translation blocks.

use std::hash::Hasher;
use std::mem;

use events::{Addr, Tid};

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};

use crate::cfg::{
    BlockEnd, BlockIx, Cfg, CfgError, CodeSource, EdgeIx, EdgeTarget, FunctionBounds, StartIx, Step,
};
use crate::numbering::{EdgeVal, Numbering, NumberingError, DEFAULT_MAX_PATHS};
use crate::table::{PathCost, PathEnd, PathId, PathRow, PathTable, ALL_METRICS};
use events::{Costs, Metric};

/// Settings of a [`PathTracker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathConfig {
    /// Functions with more paths than this are not numbered but interned
    /// (see [`PathMode::Interned`]).
    pub max_paths: u64,
    /// The metric columns path rows keep (bit `m`: column `m`, below
    /// [`METRICS`]); metrics added to other columns reach only
    /// [`FunctionCounters::lost_metrics`]. Every column by default.
    pub metrics: u16,
}

impl Default for PathConfig {
    fn default() -> PathConfig {
        PathConfig {
            max_paths: DEFAULT_MAX_PATHS,
            metrics: ALL_METRICS,
        }
    }
}

/// How a function's path ids are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMode {
    /// Ball-Larus numbers `0..paths` of the current generation.
    Numbered { paths: u64 },
    /// The fallback for functions with too many paths: each path taken is
    /// interned as its edge sequence and the id is its index; reports say so.
    Interned { reason: NumberingError },
    /// No graph: the entry cannot be decoded. Every block is lost.
    Untracked { error: CfgError },
}

/// What happened to one function beyond its paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FunctionCounters {
    /// Frames entered.
    pub frames: u64,
    /// Paths begun at a resume point ([`Start::Resume`](crate::Start::Resume)).
    pub resumes: u64,
    /// Executed blocks on no path: the function is untracked, or a frame
    /// met code it could not follow (see [`CfgError`]) and was given up.
    pub lost_blocks: u64,
    /// Changes of the graph after discovery (each one renumbers).
    pub cfg_changes: u64,
    /// Metrics added while no path of the function was open.
    pub lost_metrics: Costs,
}

/// Edge sequences of a function that is not numbered, each stored once.
///
/// A function falls back to interning because it has too many paths, and
/// it takes thousands of distinct ones of a hundred steps (bzip2's
/// `BZ2_compressBlock`: 16,000 sequences, 1.5 million steps), while its
/// step indices stay below a few thousand. So each step is one LEB128
/// varint of `index << 1 | is_start` (mostly two bytes, not the eight of a
/// [`Step`]), all sequences in one buffer, and the hash index holds
/// sequence numbers, not keys.
#[derive(Clone, Debug, Default)]
struct Interner {
    /// The encoded steps of every sequence, back to back.
    bytes: Vec<u8>,
    /// Sequence `i` ends at `ends[i]` in `bytes` (and starts where `i - 1` ends).
    ends: Vec<usize>,
    /// Sequence numbers, hashed by their encoded steps.
    index: HashTable<u32>,
    /// The sequence being looked up, encoded.
    scratch: Vec<u8>,
}

impl Interner {
    fn intern(&mut self, s: &[Step]) -> u64 {
        self.scratch.clear();
        for &step in s {
            let mut v = match step {
                Step::Start(i) => (u64::from(i.0) << 1) | 1,
                Step::Edge(e) => u64::from(e.0) << 1,
            };
            while v >= 0x80 {
                self.scratch.push(v as u8 | 0x80);
                v >>= 7;
            }
            self.scratch.push(v as u8);
        }
        let hash = hash_bytes(&self.scratch);
        let (bytes, ends) = (&self.bytes, &self.ends);
        let found = self.index.find(hash, |&i| {
            encoded(bytes, ends, i as usize) == &self.scratch[..]
        });
        if let Some(&i) = found {
            return u64::from(i);
        }
        let i = u32::try_from(self.ends.len()).expect("fewer than 2^32 interned paths");
        self.bytes.extend_from_slice(&self.scratch);
        self.ends.push(self.bytes.len());
        let (bytes, ends) = (&self.bytes, &self.ends);
        self.index
            .insert_unique(hash, i, |&j| hash_bytes(encoded(bytes, ends, j as usize)));
        u64::from(i)
    }

    /// Keeps the sequences, trimmed to size, and frees what only
    /// [`Interner::intern`] needs, which must not be called afterwards.
    fn release(&mut self) {
        self.bytes.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.index = HashTable::new();
        self.scratch = Vec::new();
    }

    fn get(&self, id: u64) -> Option<Vec<Step>> {
        let i = usize::try_from(id).ok().filter(|&i| i < self.ends.len())?;
        let mut out = Vec::new();
        let (mut v, mut shift) = (0u64, 0);
        for &b in encoded(&self.bytes, &self.ends, i) {
            v |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                let ix = (v >> 1) as u32;
                out.push(if v & 1 == 1 {
                    Step::Start(StartIx(ix))
                } else {
                    Step::Edge(EdgeIx(ix))
                });
                (v, shift) = (0, 0);
            }
        }
        Some(out)
    }
}

/// The encoded steps of interned sequence `i`.
fn encoded<'a>(bytes: &'a [u8], ends: &[usize], i: usize) -> &'a [u8] {
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &bytes[start..ends[i]]
}

fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(b);
    h.finish()
}

/// One block of a [`Steps`] table.
#[derive(Clone, Copy, Debug, Default)]
struct StepBlock {
    start: Addr,
    end: Addr,
    insns: u32,
    /// Its out-edges to blocks, at `edges[out_lo..out_hi]`.
    out_lo: u32,
    out_hi: u32,
}

/// One out-edge to a block, in a [`Steps`] table.
#[derive(Clone, Copy, Debug)]
struct StepEdge {
    /// The start of the block it leads to: what [`Cfg::find_edge`] compares.
    to_start: Addr,
    /// Forward: `r += val`. Back: the closed path is `r + val`.
    val: u64,
    /// Back: the register of the path that begins after it.
    start_val: u64,
    /// The block the frame is in after it (for a back edge, the target of
    /// its START pseudo-edge), and that block's entry in the table.
    to: BlockIx,
    to_blk: StepBlock,
    edge: EdgeIx,
    back: bool,
}

/// What the common step of [`PathTracker::executed`] reads, flattened
/// from a function's graph and numbering so that it is an array read: per
/// block its bounds and instruction count, per edge to a block its target
/// and Ball-Larus increment. Rebuilt whenever the graph or the numbering
/// changes ([`Steps::sync`]); it answers exactly as the graph and the
/// numbering would.
///
/// Only a function that has taken [`HOT_STEPS`] steps the slow way has
/// one: most functions run a few hundred blocks in a whole run (sqlite3:
/// 850 of 975), and their tables were three quarters of the 2.6 MB of all.
/// Without a table a frame finds no edge in it and takes the slow path,
/// which answers the same from the graph and the numbering.
#[derive(Clone, Debug, Default)]
struct Steps {
    /// Whether the function has a table (see [`HOT_STEPS`]).
    kept: bool,
    /// `(blocks, edges, starts, generation, numbered)` of what it was built from.
    shape: (usize, usize, usize, u32, bool),
    blocks: Vec<StepBlock>,
    /// Out-edges to blocks, by source block, in successor order; empty
    /// unless the function is numbered (and the numbering fits the graph).
    edges: Vec<StepEdge>,
}

impl Steps {
    fn shape_of(cfg: &Cfg, num: Option<&Numbering>) -> (usize, usize, usize, u32, bool) {
        (
            cfg.blocks().len(),
            cfg.edges().len(),
            cfg.starts().len(),
            cfg.generation(),
            num.is_some_and(|n| n.fits(cfg)),
        )
    }

    /// Rebuild if kept and `cfg` or `num` changed since it was built.
    fn sync(&mut self, cfg: &Result<Cfg, CfgError>, num: Option<&Numbering>) {
        let Ok(cfg) = cfg else {
            return;
        };
        if self.kept && Steps::shape_of(cfg, num) != self.shape {
            *self = Steps::build(cfg, num);
        }
    }

    /// Block `b`'s entry: from the table if kept, else from the graph with
    /// no out-edges (every step from it takes the slow path).
    #[inline]
    fn block(&self, cfg: &Cfg, b: BlockIx) -> StepBlock {
        if self.kept {
            return self.blocks[b.index()];
        }
        let blk = cfg.block(b);
        StepBlock {
            start: blk.start(),
            end: blk.end(),
            insns: blk.insn_count() as u32,
            out_lo: 0,
            out_hi: 0,
        }
    }

    fn build(cfg: &Cfg, num: Option<&Numbering>) -> Steps {
        let shape = Steps::shape_of(cfg, num);
        let num = num.filter(|n| n.fits(cfg));
        let mut blocks = Vec::with_capacity(cfg.blocks().len());
        // Sized exactly: tables of hot functions are rebuilt at each change,
        // and doubling left a third of the table spare.
        let to_blocks = match num {
            Some(_) => cfg
                .edges()
                .iter()
                .filter(|e| matches!(e.to(), EdgeTarget::Block(_)))
                .count(),
            None => 0,
        };
        let mut edges = Vec::with_capacity(to_blocks);
        for b in cfg.blocks() {
            let out_lo = edges.len() as u32;
            blocks.push(StepBlock {
                start: b.start(),
                end: b.end(),
                insns: b.insn_count() as u32,
                out_lo,
                out_hi: out_lo,
            });
            if let Some(n) = num {
                for &e in b.out() {
                    let edge = cfg.edge(e);
                    let EdgeTarget::Block(to) = edge.to() else {
                        continue;
                    };
                    // As `take_edge` and `close` read the numbering.
                    let (val, start_val, to) = match (edge.is_back(), n.val(e)) {
                        (false, EdgeVal::Add(v)) => (v, 0, to),
                        (false, EdgeVal::Back { .. }) => (0, 0, to),
                        (true, v) => {
                            let s = edge.start_slot().expect("back edges have a start");
                            let end = match v {
                                EdgeVal::Add(v) => v,
                                EdgeVal::Back { end, .. } => end,
                            };
                            (end, n.start_val(s), cfg.start_target(s))
                        }
                    };
                    edges.push(StepEdge {
                        to_start: edge.target_start(),
                        val,
                        start_val,
                        to,
                        to_blk: StepBlock::default(),
                        edge: e,
                        back: edge.is_back(),
                    });
                }
            }
            blocks.last_mut().expect("just pushed").out_hi = edges.len() as u32;
        }
        for e in &mut edges {
            e.to_blk = blocks[e.to.index()];
        }
        Steps {
            kept: true,
            shape,
            blocks,
            edges,
        }
    }

    /// The first of the out-edges `edges[out_lo..out_hi]` (a block's) to the
    /// block starting at `x`, as [`Cfg::find_edge`] finds it; none when not
    /// numbered.
    #[inline]
    fn find(&self, out_lo: u32, out_hi: u32, x: Addr) -> Option<&StepEdge> {
        self.edges[out_lo as usize..out_hi as usize]
            .iter()
            .find(|e| e.to_start == x)
    }
}

/// Steps a function takes the slow way before it is given a step table
/// (see [`Steps`]); a few in unit tests, so that they run both ways.
const HOT_STEPS: u32 = if cfg!(test) { 3 } else { 1024 };

/// Everything known about one function's paths.
#[derive(Clone, Debug)]
pub struct FunctionPaths {
    entry: Addr,
    cfg: Result<Cfg, CfgError>,
    numbering: Option<Numbering>,
    fallback: Option<NumberingError>,
    interner: Interner,
    /// The graph generation that rows and open registers are expressed in.
    generation: u32,
    table: PathTable,
    counters: FunctionCounters,
    /// The graph and numbering, flattened for the common step, once hot.
    fast: Steps,
    /// Steps taken the slow way while it had no step table.
    slow_steps: u32,
}

impl FunctionPaths {
    fn new(entry: Addr, cfg: Result<Cfg, CfgError>, config: &PathConfig) -> FunctionPaths {
        let max_paths = config.max_paths;
        let (numbering, fallback, generation) = match &cfg {
            Ok(c) => match Numbering::compute(c, max_paths) {
                Ok(n) => (Some(n), None, c.generation()),
                Err(e) => (None, Some(e), c.generation()),
            },
            Err(_) => (None, None, 0),
        };
        FunctionPaths {
            entry,
            cfg,
            numbering,
            fallback,
            interner: Interner::default(),
            generation,
            table: PathTable::new(config.metrics),
            counters: FunctionCounters::default(),
            fast: Steps::default(),
            slow_steps: 0,
        }
    }

    /// The entry address the function is known by.
    #[inline]
    pub fn entry(&self) -> Addr {
        self.entry
    }

    /// The graph, in its current generation.
    #[inline]
    pub fn cfg(&self) -> Option<&Cfg> {
        self.cfg.as_ref().ok()
    }

    /// How the function's path ids are made.
    pub fn mode(&self) -> PathMode {
        match (&self.cfg, &self.numbering, self.fallback) {
            (Err(error), _, _) => PathMode::Untracked { error: *error },
            (Ok(_), Some(n), _) => PathMode::Numbered { paths: n.paths() },
            (Ok(_), None, reason) => PathMode::Interned {
                reason: reason.expect("a function without numbering has a reason"),
            },
        }
    }

    /// The numbering of the current generation, when numbered.
    #[inline]
    pub fn numbering(&self) -> Option<&Numbering> {
        self.numbering.as_ref()
    }

    /// The function's paths, per context.
    #[inline]
    pub fn table(&self) -> &PathTable {
        &self.table
    }

    /// Shorthand for `table().rows()` (copies of the rows).
    pub fn rows(&self) -> Vec<PathRow> {
        self.table.rows()
    }

    /// What happened to the function beyond its paths.
    #[inline]
    pub fn counters(&self) -> &FunctionCounters {
        &self.counters
    }

    /// The steps of the complete path `id` (in interned mode, of whatever
    /// sequence `id` interns).
    pub fn decode_steps(&self, id: PathId) -> Option<Vec<Step>> {
        match &self.numbering {
            Some(n) => n.decode(id.0),
            None => self.interner.get(id.0),
        }
    }

    /// The start addresses of the blocks of the complete path `id`.
    pub fn decode_path(&self, id: PathId) -> Option<Vec<Addr>> {
        Some(self.cfg()?.path_blocks(&self.decode_steps(id)?))
    }

    /// The steps a row's path took (for a truncated row, up to where it stopped).
    pub fn row_steps(&self, row: &PathRow) -> Option<Vec<Step>> {
        match (row.end, &self.numbering) {
            (PathEnd::Truncated { block, .. }, Some(n)) => n.decode_prefix(row.path.0, block),
            _ => self.decode_steps(row.path),
        }
    }

    /// The start addresses of the blocks a row's path went through.
    pub fn row_blocks(&self, row: &PathRow) -> Option<Vec<Addr>> {
        Some(self.cfg()?.path_blocks(&self.row_steps(row)?))
    }

    /// The instructions of a complete path's blocks (its length).
    pub fn path_insns(&self, id: PathId) -> Option<u64> {
        Some(self.cfg()?.path_insns(&self.decode_steps(id)?))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameState {
    /// Entered; no block executed yet (or the last path just closed).
    Fresh,
    /// On a path, in `block`, with `pos` just past the last instruction run.
    At,
    /// Given up: met code it could not follow. Its blocks are lost.
    Lost,
}

/// One active invocation: its function and its path register.
///
/// What every executed block reads and writes comes first and fills one
/// cache line (frames are aligned to lines): the position, the register,
/// the instructions, and a copy of the current block's entry in the step
/// table (`blk_*`, `out_*`, kept up to date by [`Frame::set_blk`] and
/// `PathTracker::sync_fast`).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
struct Frame {
    pos: Addr,
    /// The Ball-Larus register (numbered mode).
    r: u64,
    /// Instructions of the open path (its [`PathCost::insns`]).
    insns: u64,
    /// `block`'s entry in the function's step table, while `At`.
    blk_start: Addr,
    blk_end: Addr,
    blk_insns: u32,
    out_lo: u32,
    out_hi: u32,
    func: u32,
    block: BlockIx,
    state: FrameState,
    ctx: u32,
    /// Metric sums of the open path (its [`PathCost::metrics`]).
    metrics: Costs,
    /// The steps so far (interned mode).
    steps: Vec<Step>,
}

impl Frame {
    #[inline(always)]
    fn set_blk(&mut self, b: &StepBlock) {
        self.blk_start = b.start;
        self.blk_end = b.end;
        self.blk_insns = b.insns;
        self.out_lo = b.out_lo;
        self.out_hi = b.out_hi;
    }
}

/// Where the instructions of the last executed block from some index on went.
#[derive(Clone, Copy, Debug)]
enum Dest {
    Row { func: u32, row: u32 },
    Open { depth: u32 },
}

#[derive(Clone, Copy, Debug)]
struct Segment {
    first: u32,
    dest: Dest,
}

/// Ball-Larus path profiles of a run, per function and per context.
///
/// The owner drives it: [`PathTracker::enter`] and [`PathTracker::leave`]
/// when its calling-context tracker pushes and pops frames (a tail call is
/// an `enter` whose frame ends with the tail-caller's), and
/// [`PathTracker::executed`] for every translation block the top frame
/// runs, then [`PathTracker::add_metric`] for its costs. Every block given
/// to `executed` must belong to the top frame's function: blocks the owner
/// charges elsewhere (PLT stubs) are not passed. `executed` before any
/// `enter` is counted as unattributed.
#[derive(Debug)]
pub struct PathTracker<P> {
    program: P,
    config: PathConfig,
    funcs: Vec<FunctionPaths>,
    by_entry: FxHashMap<Addr, u32>,
    stack: Vec<Frame>,
    tid: Tid,
    parked: FxHashMap<Tid, Vec<Frame>>,
    /// How the last executed block's instructions split among paths: from
    /// its first instruction on, `seg0` (`None`: no path, as before any
    /// block), then each of `segments` from its `first` on (ascending, all
    /// above 0; empty unless a path ended inside the block).
    seg0: Option<Dest>,
    segments: Vec<Segment>,
    unattributed: u64,
}

impl<P: CodeSource + FunctionBounds> PathTracker<P> {
    /// A tracker reading code and function facts from `program`.
    pub fn new(program: P, config: PathConfig) -> PathTracker<P> {
        PathTracker {
            program,
            config,
            funcs: Vec::new(),
            by_entry: FxHashMap::default(),
            stack: Vec::new(),
            tid: 0,
            parked: FxHashMap::default(),
            seg0: None,
            segments: Vec::new(),
            unattributed: 0,
        }
    }

    /// The code and function facts.
    #[inline]
    pub fn program(&self) -> &P {
        &self.program
    }

    /// The code and function facts, e.g. to tell them of a newly mapped object.
    #[inline]
    pub fn program_mut(&mut self) -> &mut P {
        &mut self.program
    }

    /// Use `cfg` for the function entered at its entry instead of
    /// discovering one. False (and nothing changes) if the function is known.
    pub fn insert_function(&mut self, cfg: Cfg) -> bool {
        let entry = cfg.entry();
        if self.by_entry.contains_key(&entry) {
            return false;
        }
        self.push_function(entry, Ok(cfg));
        true
    }

    /// The functions met so far, in the order first entered.
    #[inline]
    pub fn functions(&self) -> &[FunctionPaths] {
        &self.funcs
    }

    /// The code and the functions met, in the order first entered, for
    /// reading out a finished run: what only tracking needs (open frames,
    /// the flattened step tables) is dropped, so the caller can free each
    /// function as soon as it has read it.
    pub fn into_parts(mut self) -> (P, Vec<FunctionPaths>) {
        self.release();
        (self.program, self.funcs)
    }

    /// After [`PathTracker::finish`]: free what only tracking needs (the
    /// flattened step tables, frames, the interners' indexes) and trim the
    /// graphs, path tables and interned sequences to size, keeping
    /// everything the functions' paths are read from.
    /// The tracker must not be given blocks or frames afterwards.
    pub fn release(&mut self) {
        self.stack = Vec::new();
        self.parked = FxHashMap::default();
        for f in &mut self.funcs {
            f.fast = Steps::default();
            f.interner.release();
            f.table.shrink_to_fit();
            if let Ok(cfg) = &mut f.cfg {
                cfg.shrink_to_fit();
            }
        }
    }

    /// The function entered at `entry`, if met.
    pub fn function(&self, entry: Addr) -> Option<&FunctionPaths> {
        self.by_entry.get(&entry).map(|&i| &self.funcs[i as usize])
    }

    /// The blocks of path `id` of the function entered at `entry`.
    pub fn decode_path(&self, entry: Addr, id: PathId) -> Option<Vec<Addr>> {
        self.function(entry)?.decode_path(id)
    }

    /// Frames on the current thread's stack.
    #[inline]
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Blocks executed while the current thread had no frame.
    #[inline]
    pub fn unattributed_blocks(&self) -> u64 {
        self.unattributed
    }

    /// A frame of the function entered at `entry` begins, in context `ctx`
    /// (the owner's name for it, e.g. a CCT node; 0 if contexts are not
    /// kept). Discovers the function's graph the first time.
    pub fn enter(&mut self, entry: Addr, ctx: u32) {
        let fi = self.function_index(entry);
        self.enter_index(fi, ctx);
    }

    /// The index of the function entered at `entry` in
    /// [`PathTracker::functions`], discovering its graph the first time: an
    /// owner that keeps it can enter frames with
    /// [`PathTracker::enter_index`] and skip the lookup.
    pub fn function_index(&mut self, entry: Addr) -> u32 {
        match self.by_entry.get(&entry) {
            Some(&i) => i,
            None => {
                let cfg = Cfg::discover(entry, &self.program);
                self.push_function(entry, cfg)
            }
        }
    }

    /// [`PathTracker::enter`] by function index (from
    /// [`PathTracker::function_index`]).
    pub fn enter_index(&mut self, fi: u32, ctx: u32) {
        let f = &mut self.funcs[fi as usize];
        f.counters.frames += 1;
        self.stack.push(Frame {
            func: fi,
            ctx,
            state: if f.cfg.is_ok() {
                FrameState::Fresh
            } else {
                FrameState::Lost
            },
            block: BlockIx(0),
            blk_start: 0,
            blk_end: 0,
            blk_insns: 0,
            out_lo: 0,
            out_hi: 0,
            pos: 0,
            r: 0,
            insns: 0,
            metrics: Costs::ZERO,
            steps: Vec::new(),
        });
    }

    /// The top frame ends. Its path is complete if its last instruction
    /// ended a block with an edge to EXIT (`ret`, tail jump, indirect jump,
    /// call that does not return), and truncated otherwise (a non-local exit
    /// or the end of the run).
    pub fn leave(&mut self) {
        let Some(top) = self.stack.len().checked_sub(1) else {
            return;
        };
        self.end_frame(top);
        self.stack.pop();
    }

    /// The top frame ran the translation block `[start, start + len)`.
    pub fn executed(&mut self, start: Addr, len: u32) {
        if !self.segments.is_empty() {
            self.segments.clear();
        }
        let Some(top) = self.stack.len().checked_sub(1) else {
            self.seg0 = None;
            self.unattributed += 1;
            return;
        };
        self.seg0 = Some(Dest::Open { depth: top as u32 });
        let fi = self.stack[top].func as usize;
        if self.stack[top].state == FrameState::Lost {
            self.funcs[fi].counters.lost_blocks += 1;
            return;
        }
        if !self.goto(top, start, 0) {
            self.lose(top, 0);
            return;
        }
        let end = start + len as u64;
        let mut done = 0u32;
        loop {
            let frame = &mut self.stack[top];
            let blk_end = frame.blk_end;
            debug_assert!(self.funcs[fi]
                .cfg
                .as_ref()
                .is_ok_and(|cfg| { blk_end == self.funcs[fi].fast.block(cfg, frame.block).end }));
            let stop = end.min(blk_end);
            let n = if frame.pos == frame.blk_start && stop == blk_end {
                u64::from(frame.blk_insns)
            } else {
                let Ok(cfg) = &self.funcs[fi].cfg else {
                    unreachable!("frames of untracked functions are lost")
                };
                match cfg.count_insns(frame.block, frame.pos, stop) {
                    Some(n) => n,
                    None => {
                        self.lose(top, done);
                        return;
                    }
                }
            };
            frame.insns += n;
            frame.pos = stop;
            done += n as u32;
            if end <= blk_end {
                return;
            }
            // The block runs on into the next one: a fall-through edge.
            if !self.goto(top, stop, done) {
                self.lose(top, done);
                return;
            }
        }
    }

    /// Add to metric `metric` (a counted one) of the top frame's open path.
    #[inline]
    pub fn add_metric(&mut self, metric: Metric, v: u64) {
        if let Some(top) = self.stack.len().checked_sub(1) {
            self.add_metric_to_frame(top, metric, v);
        }
    }

    /// Add `v` to the top frame's open path.
    #[inline]
    pub fn add_metrics(&mut self, v: &Costs) {
        if let Some(top) = self.stack.len().checked_sub(1) {
            self.add_metrics_to_frame(top, v);
        }
    }

    /// Add `v` to the open path of the frame at `depth`. Zeros are added
    /// too: branching on each value costs more than it saves.
    #[inline]
    fn add_metrics_to_frame(&mut self, depth: usize, v: &Costs) {
        let frame = &mut self.stack[depth];
        let sums = if frame.state == FrameState::At {
            &mut frame.metrics
        } else {
            &mut self.funcs[frame.func as usize].counters.lost_metrics
        };
        *sums += v;
    }

    /// Add to metric `metric` of the path that instruction `insn` (an index
    /// into the last executed block) belonged to. Differs from
    /// [`PathTracker::add_metric`] when that block crossed a back edge, so
    /// that a path ended inside it, and after the top frame left: the last
    /// block's instructions keep their paths until the next `executed`.
    pub fn add_metric_at(&mut self, insn: u32, metric: Metric, v: u64) {
        match self.dest_of(insn) {
            Some(Dest::Row { func, row }) => {
                self.funcs[func as usize].table.add_metric(row, metric, v)
            }
            Some(Dest::Open { depth }) if (depth as usize) < self.stack.len() => {
                self.add_metric_to_frame(depth as usize, metric, v)
            }
            _ => self.add_metric(metric, v),
        }
    }

    /// [`PathTracker::add_metric_at`] for every metric at once: `v` to the
    /// path instruction `insn` of the last block was on.
    #[inline]
    pub fn add_metrics_at(&mut self, insn: u32, v: &Costs) {
        match self.dest_of(insn) {
            Some(Dest::Row { func, row }) => self.funcs[func as usize].table.add_metrics(row, v),
            Some(Dest::Open { depth }) if (depth as usize) < self.stack.len() => {
                self.add_metrics_to_frame(depth as usize, v)
            }
            _ => self.add_metrics(v),
        }
    }

    /// Where instruction `insn` of the last executed block went.
    #[inline]
    fn dest_of(&self, insn: u32) -> Option<Dest> {
        match self.segments.iter().rev().find(|s| s.first <= insn) {
            Some(s) => Some(s.dest),
            None => self.seg0,
        }
    }

    /// From now on, `executed`, `enter` and `leave` are about thread `tid`.
    pub fn thread_switch(&mut self, tid: Tid) {
        if tid == self.tid {
            return;
        }
        self.seg0 = None;
        self.segments.clear();
        let cur = mem::take(&mut self.stack);
        if !cur.is_empty() {
            self.parked.insert(self.tid, cur);
        }
        self.stack = self.parked.remove(&tid).unwrap_or_default();
        self.tid = tid;
    }

    /// The run is over: every frame of every thread ends as by
    /// [`PathTracker::leave`], innermost first, threads in id order.
    pub fn finish(&mut self) {
        self.seg0 = None;
        self.segments.clear();
        let cur = mem::take(&mut self.stack);
        self.parked.insert(self.tid, cur);
        let mut tids: Vec<Tid> = self.parked.keys().copied().collect();
        tids.sort_unstable();
        for t in tids {
            self.stack = self.parked.remove(&t).unwrap_or_default();
            while !self.stack.is_empty() {
                self.leave();
            }
        }
    }

    fn push_function(&mut self, entry: Addr, cfg: Result<Cfg, CfgError>) -> u32 {
        let i = self.funcs.len() as u32;
        self.funcs
            .push(FunctionPaths::new(entry, cfg, &self.config));
        self.by_entry.insert(entry, i);
        i
    }

    fn add_metric_to_frame(&mut self, depth: usize, metric: Metric, v: u64) {
        let frame = &mut self.stack[depth];
        if frame.state == FrameState::At {
            frame.metrics[metric] += v;
        } else {
            self.funcs[frame.func as usize].counters.lost_metrics[metric] += v;
        }
    }

    /// Move the top frame to address `x`: by the edge that leads there, or
    /// as the continuation of its block after a call, or by a newly found
    /// edge or resume point. `done` instructions of the current block have
    /// run. False if the frame cannot follow.
    ///
    /// The common cases (on a path: the continuation after a call, an edge
    /// the graph has, in a numbered function) read the step table;
    /// everything else is [`PathTracker::goto_slow`], which does the same
    /// from the graph and the numbering.
    #[inline(always)]
    fn goto(&mut self, top: usize, x: Addr, done: u32) -> bool {
        let frame = &mut self.stack[top];
        if frame.state == FrameState::At {
            if frame.pos < frame.blk_end {
                if x == frame.pos {
                    return true;
                }
            } else {
                let fast = &self.funcs[frame.func as usize].fast;
                if let Some(&e) = fast.find(frame.out_lo, frame.out_hi, x) {
                    if !e.back {
                        frame.r += e.val;
                        frame.block = e.to;
                        frame.set_blk(&e.to_blk);
                        frame.pos = e.to_blk.start;
                        return true;
                    }
                    // count[r + END]++; r = START.
                    self.close(top, Some(e.edge), Some(done));
                    let frame = &mut self.stack[top];
                    debug_assert!(frame.steps.is_empty());
                    debug_assert_eq!((frame.insns, frame.metrics), (0, Costs::ZERO));
                    frame.state = FrameState::At;
                    frame.block = e.to;
                    frame.set_blk(&e.to_blk);
                    frame.pos = e.to_blk.start;
                    frame.r = e.start_val;
                    return true;
                }
            }
        }
        self.goto_slow(top, x, done)
    }

    #[cold]
    #[inline(never)]
    fn goto_slow(&mut self, top: usize, x: Addr, done: u32) -> bool {
        let fi = self.stack[top].func as usize;
        let f = &mut self.funcs[fi];
        if !f.fast.kept && f.cfg.is_ok() {
            f.slow_steps += 1;
            if f.slow_steps == HOT_STEPS {
                f.fast.kept = true;
                self.sync_fast(fi);
            }
        }
        let Ok(cfg) = &self.funcs[fi].cfg else {
            return false;
        };
        let frame = &self.stack[top];
        match frame.state {
            FrameState::Lost => false,
            FrameState::Fresh if x == cfg.entry() => {
                self.start_path(top, StartIx::ENTRY);
                true
            }
            FrameState::Fresh => self.resume(top, x, done),
            FrameState::At => {
                let blk = cfg.block(frame.block);
                if frame.pos < blk.end() {
                    // Back from a call (or a block the VM cut short): the same
                    // block goes on; anywhere else is a non-local return here.
                    return x == frame.pos || self.resume(top, x, done);
                }
                if let Some(e) = cfg.find_edge(frame.block, x) {
                    self.take_edge(top, e, done);
                    return true;
                }
                if blk.last() == BlockEnd::Call && x != blk.end() {
                    return self.resume(top, x, done);
                }
                let from = frame.block;
                let added = match &mut self.funcs[fi].cfg {
                    Ok(cfg) => cfg.add_edge(from, x, &self.program),
                    Err(e) => Err(*e),
                };
                self.sync_fast(fi);
                match added {
                    Ok(e) => {
                        self.regenerate(fi);
                        self.take_edge(top, e, done);
                        true
                    }
                    Err(_) => false,
                }
            }
        }
    }

    /// End the top frame's path as truncated and begin one at `x`, a resume
    /// point (see [`Start::Resume`](crate::Start::Resume)).
    #[cold]
    #[inline(never)]
    fn resume(&mut self, top: usize, x: Addr, done: u32) -> bool {
        self.close(top, None, Some(done));
        let fi = self.stack[top].func as usize;
        let added = match &mut self.funcs[fi].cfg {
            Ok(cfg) => cfg.add_entry(x, &self.program),
            Err(e) => Err(*e),
        };
        self.sync_fast(fi);
        match added {
            Ok(s) => {
                self.regenerate(fi);
                self.funcs[fi].counters.resumes += 1;
                self.start_path(top, s);
                true
            }
            Err(_) => false,
        }
    }

    #[cold]
    #[inline(never)]
    fn lose(&mut self, top: usize, done: u32) {
        self.close(top, None, Some(done));
        let frame = &mut self.stack[top];
        frame.state = FrameState::Lost;
        self.funcs[frame.func as usize].counters.lost_blocks += 1;
    }

    fn end_frame(&mut self, top: usize) {
        let frame = &self.stack[top];
        if frame.state != FrameState::At {
            return;
        }
        let Ok(cfg) = &self.funcs[frame.func as usize].cfg else {
            return;
        };
        let exit = if frame.pos == cfg.block(frame.block).end() {
            cfg.exit_edge(frame.block)
        } else {
            None
        };
        self.close(top, exit, None);
    }

    fn start_path(&mut self, top: usize, s: StartIx) {
        let frame = &mut self.stack[top];
        let f = &self.funcs[frame.func as usize];
        let Ok(cfg) = &f.cfg else {
            unreachable!("frames of untracked functions are lost")
        };
        let b = cfg.start_target(s);
        // Off a path the cost stays zero (metrics go to `lost_metrics`).
        debug_assert_eq!((frame.insns, frame.metrics), (0, Costs::ZERO));
        frame.state = FrameState::At;
        frame.block = b;
        frame.set_blk(&f.fast.block(cfg, b));
        frame.pos = cfg.block(b).start();
        frame.steps.clear();
        match &f.numbering {
            Some(n) => frame.r = n.start_val(s),
            None => {
                frame.r = 0;
                frame.steps.push(Step::Start(s));
            }
        }
    }

    fn take_edge(&mut self, top: usize, e: EdgeIx, done: u32) {
        let frame = &mut self.stack[top];
        let f = &self.funcs[frame.func as usize];
        let Ok(cfg) = &f.cfg else {
            unreachable!("frames of untracked functions are lost")
        };
        let edge = *cfg.edge(e);
        debug_assert_eq!(edge.from(), frame.block);
        if edge.is_back() {
            // count[r + END]++; r = START.
            self.close(top, Some(e), Some(done));
            self.start_path(top, edge.start_slot().expect("back edges have a start"));
            return;
        }
        let EdgeTarget::Block(to) = edge.to() else {
            unreachable!("edges found by address go to blocks")
        };
        match &f.numbering {
            Some(n) => {
                if let EdgeVal::Add(v) = n.val(e) {
                    frame.r += v;
                }
            }
            None => frame.steps.push(Step::Edge(e)),
        }
        frame.block = to;
        frame.set_blk(&f.fast.block(cfg, to));
        frame.pos = cfg.block(to).start();
    }

    /// Record the open path of the frame at `top`: complete by `last` (an
    /// edge to EXIT or a back edge), or truncated where it stands. `done`:
    /// instructions of the current block run so far, when the frame goes on.
    fn close(&mut self, top: usize, last: Option<EdgeIx>, done: Option<u32>) {
        let frame = &mut self.stack[top];
        if frame.state != FrameState::At {
            return;
        }
        let fi = frame.func;
        let f = &mut self.funcs[fi as usize];
        let cost = PathCost {
            insns: mem::take(&mut frame.insns),
            metrics: mem::take(&mut frame.metrics),
        };
        frame.state = FrameState::Fresh;
        let row = match (&f.numbering, last) {
            (_, None) if cost.insns == 0 => {
                // Given up before its first instruction: no path to record.
                f.counters.lost_metrics += &cost.metrics;
                frame.steps.clear();
                return;
            }
            (Some(n), Some(e)) => {
                let v = match n.val(e) {
                    EdgeVal::Add(v) => v,
                    EdgeVal::Back { end, .. } => end,
                };
                f.table
                    .add(frame.ctx, PathId(frame.r + v), PathEnd::Complete, &cost)
            }
            (None, Some(e)) => {
                frame.steps.push(Step::Edge(e));
                let id = f.interner.intern(&frame.steps);
                f.table.add(frame.ctx, PathId(id), PathEnd::Complete, &cost)
            }
            (numbering, None) => {
                let id = match numbering {
                    Some(_) => frame.r,
                    None => f.interner.intern(&frame.steps),
                };
                let end = PathEnd::Truncated {
                    block: frame.block,
                    at: frame.pos,
                };
                f.table.add(frame.ctx, PathId(id), end, &cost)
            }
        };
        frame.steps.clear();
        let (first, dest) = match self.segments.last_mut() {
            Some(seg) => (seg.first, &mut seg.dest),
            None => match &mut self.seg0 {
                Some(dest) => (0, dest),
                None => return,
            },
        };
        if matches!(*dest, Dest::Open { depth } if depth as usize == top) {
            match done {
                Some(d) if first < d => {
                    *dest = Dest::Row { func: fi, row };
                    self.segments.push(Segment {
                        first: d,
                        dest: Dest::Open { depth: top as u32 },
                    });
                }
                Some(_) => {}
                None => *dest = Dest::Row { func: fi, row },
            }
        }
    }

    /// The graph of function `fi` changed: number it again and re-express
    /// every row and every open register of the function in the new
    /// generation (decode with the old numbering, respell, encode with the
    /// new one), or intern them all if it cannot be numbered any more.
    /// Bring function `fi`'s step table up to date after its graph or
    /// numbering may have changed, and the frames' copies of its entries.
    fn sync_fast(&mut self, fi: usize) {
        let f = &mut self.funcs[fi];
        f.fast.sync(&f.cfg, f.numbering.as_ref());
        let (Ok(cfg), fast) = (&f.cfg, &f.fast) else {
            return;
        };
        for frame in self
            .stack
            .iter_mut()
            .chain(self.parked.values_mut().flatten())
        {
            if frame.func as usize == fi && frame.state == FrameState::At {
                frame.set_blk(&fast.block(cfg, frame.block));
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn regenerate(&mut self, fi: usize) {
        self.regenerate_paths(fi);
        self.sync_fast(fi);
    }

    fn regenerate_paths(&mut self, fi: usize) {
        let PathTracker {
            funcs,
            stack,
            parked,
            config,
            ..
        } = self;
        let FunctionPaths {
            cfg,
            numbering,
            fallback,
            interner,
            generation,
            table,
            counters,
            ..
        } = &mut funcs[fi];
        let Ok(cfg) = cfg else {
            return;
        };
        if cfg.generation() == *generation {
            return;
        }
        counters.cfg_changes += 1;
        let old_num = numbering.take();
        let old_interner = mem::take(interner);
        let new_num = if fallback.is_none() {
            match Numbering::compute(cfg, config.max_paths) {
                Ok(n) => Some(n),
                Err(e) => {
                    *fallback = Some(e);
                    None
                }
            }
        } else {
            None
        };
        let mut new_interner = Interner::default();
        // Where a path that stopped at `at` in `block` stands now (`block`
        // keeps its start when split; nothing run in it yet: still there).
        let now_in = |block: BlockIx, at: Addr| -> BlockIx {
            if at == cfg.block(block).start() {
                block
            } else {
                cfg.block_containing(at - 1)
                    .expect("blocks are never removed")
            }
        };
        table.rekey(|row| {
            let (cut, upto, end) = match row.end {
                PathEnd::Complete => (None, None, PathEnd::Complete),
                PathEnd::Truncated { block, at } => {
                    let now = now_in(block, at);
                    (
                        Some(block),
                        Some(now),
                        PathEnd::Truncated { block: now, at },
                    )
                }
            };
            let old = old_steps(&old_num, &old_interner, row.path.0, cut);
            let steps = cfg.respell(&old, upto).expect("a path respells");
            (PathId(new_id(&new_num, &mut new_interner, &steps)), end)
        });
        for frame in stack.iter_mut().chain(parked.values_mut().flatten()) {
            if frame.func as usize != fi || frame.state != FrameState::At {
                continue;
            }
            let now = now_in(frame.block, frame.pos);
            let old = match &old_num {
                Some(_) => old_steps(&old_num, &old_interner, frame.r, Some(frame.block)),
                None => mem::take(&mut frame.steps),
            };
            let steps = cfg.respell(&old, Some(now)).expect("an open path respells");
            frame.block = now;
            match &new_num {
                Some(n) => {
                    frame.r = n.encode(&steps).expect("an open path encodes");
                    frame.steps.clear();
                }
                None => {
                    frame.r = 0;
                    frame.steps = steps;
                }
            }
        }
        *numbering = new_num;
        if numbering.is_none() {
            *interner = new_interner;
        }
        *generation = cfg.generation();
    }
}

/// The steps of a recorded path (or, with `cut`, of a prefix ending in that
/// block) in the generation it was recorded in.
fn old_steps(
    num: &Option<Numbering>,
    interner: &Interner,
    id: u64,
    cut: Option<BlockIx>,
) -> Vec<Step> {
    match num {
        Some(n) => match cut {
            None => n.decode(id),
            Some(b) => n.decode_prefix(id, b),
        },
        None => interner.get(id),
    }
    .expect("a recorded path decodes in its own generation")
}

fn new_id(num: &Option<Numbering>, interner: &mut Interner, steps: &[Step]) -> u64 {
    match num {
        Some(n) => n.encode(steps).expect("a respelled path encodes"),
        None => interner.intern(steps),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::tests::tiny;
    use crate::cfg::{BlockEnd, CfgBuilder, EdgeKind};

    /// No code at all: for hand-built graphs.
    struct NoCode;

    impl CodeSource for NoCode {
        fn read(&self, _addr: Addr, _len: usize) -> Option<&[u8]> {
            None
        }
    }

    impl FunctionBounds for NoCode {
        fn leaves_function(&self, _func: Addr, _target: Addr) -> bool {
            false
        }
        fn never_returns(&self, _callee: Addr) -> bool {
            false
        }
    }

    fn tracker_with(cfg: Cfg) -> PathTracker<NoCode> {
        let mut t = PathTracker::new(NoCode, PathConfig::default());
        assert!(t.insert_function(cfg));
        t
    }

    /// (blocks, count, insns) of every row, sorted.
    fn summary(f: &FunctionPaths) -> Vec<(Vec<Addr>, PathEnd, u64, u64)> {
        let mut v: Vec<_> = f
            .table()
            .by_path()
            .iter()
            .map(|r| (f.row_blocks(r).unwrap(), r.end, r.count, r.cost.insns))
            .collect();
        v.sort();
        v
    }

    /// The sum over complete paths of count × length is the instructions run.
    fn check_lengths(f: &FunctionPaths) {
        for r in f.rows() {
            if r.end == PathEnd::Complete {
                assert_eq!(
                    r.count * f.path_insns(r.path).unwrap(),
                    r.cost.insns,
                    "{r:?}"
                );
            }
        }
    }

    /// E [0x100,0x103) → H [0x103,0x105) → B [0x105,0x109) → H (back) | X [0x109] ret.
    fn simple_loop() -> Cfg {
        let mut b = CfgBuilder::new(0x100);
        let e = b.block(0x100, 3, BlockEnd::FallThrough);
        let h = b.block(0x103, 2, BlockEnd::Branch);
        let body = b.block(0x105, 4, BlockEnd::Jump);
        let x = b.block(0x109, 1, BlockEnd::Return);
        b.edge(e, h, EdgeKind::FallThrough);
        b.edge(h, body, EdgeKind::FallThrough);
        b.edge(h, x, EdgeKind::Branch);
        b.edge(body, h, EdgeKind::Jump);
        b.exit(x, EdgeKind::Return);
        b.build().unwrap()
    }

    #[test]
    fn loop_counts_paths_at_back_edges_and_exit() {
        let mut t = tracker_with(simple_loop());
        t.enter(0x100, 0);
        t.executed(0x100, 5); // E and H in one translation block
        t.executed(0x105, 4);
        for _ in 0..2 {
            t.executed(0x103, 2);
            t.executed(0x105, 4);
        }
        t.executed(0x103, 2);
        t.executed(0x109, 1);
        t.leave();
        let f = t.function(0x100).unwrap();
        assert_eq!(f.mode(), PathMode::Numbered { paths: 4 });
        // Ids: 0 E H B, 1 E H X, 2 START H B, 3 START H X.
        let count = |id| {
            f.table()
                .get(0, PathId(id), PathEnd::Complete)
                .map(|r| r.count)
        };
        assert_eq!(
            [count(0), count(1), count(2), count(3)],
            [Some(1), None, Some(2), Some(1)]
        );
        assert_eq!(f.decode_path(PathId(0)).unwrap(), vec![0x100, 0x103, 0x105]);
        assert_eq!(f.decode_path(PathId(3)).unwrap(), vec![0x103, 0x109]);
        check_lengths(f);
        let total: u64 = f.rows().iter().map(|r| r.cost.insns).sum();
        assert_eq!(total, 5 + 4 + 2 * 6 + 3);
    }

    /// The loop layout of unoptimised code: `jmp cond; body: ...; cond: jl body`.
    /// The body falls through into the condition, and that fall-through is
    /// the back edge, in the middle of a translation block.
    fn rotated_loop() -> Cfg {
        let mut b = CfgBuilder::new(0x200);
        let e = b.block(0x200, 2, BlockEnd::Jump);
        let body = b.block(0x202, 3, BlockEnd::FallThrough);
        let c = b.block(0x205, 2, BlockEnd::Branch);
        let x = b.block(0x207, 1, BlockEnd::Return);
        b.edge(e, c, EdgeKind::Jump);
        b.edge(body, c, EdgeKind::FallThrough);
        b.edge(c, x, EdgeKind::FallThrough);
        b.edge(c, body, EdgeKind::Branch);
        b.exit(x, EdgeKind::Return);
        b.build().unwrap()
    }

    #[test]
    fn back_edge_inside_a_translation_block_splits_its_metrics() {
        let mut t = tracker_with(rotated_loop());
        let cfg = t.function(0x200).unwrap().cfg().unwrap();
        let back: Vec<_> = cfg.edges().iter().filter(|e| e.is_back()).collect();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].kind(), EdgeKind::FallThrough);
        // Ids: 0 E C X, 1 E C B, 2 START C X, 3 START C B.
        t.enter(0x200, 0);
        t.executed(0x200, 2);
        t.executed(0x205, 2);
        t.executed(0x202, 5); // B, then C after the back edge
        t.add_metric_at(1, Metric::Instructions, 10); // in B: path 1
        t.add_metric_at(4, Metric::Instructions, 100); // in C: the open path (3)
        t.executed(0x202, 5);
        t.add_metric_at(0, Metric::Instructions, 1000); // in B: path 3
        t.add_metric_at(4, Metric::Instructions, 5); // in C: the open path (2)
        t.executed(0x207, 1);
        t.add_metric(Metric::Loads, 7);
        t.leave();
        t.add_metric_at(0, Metric::Loads, 70); // the last block's path, after the frame left
        let f = t.function(0x200).unwrap();
        let row = |id| f.table().get(0, PathId(id), PathEnd::Complete).unwrap();
        assert_eq!(
            (
                row(1).count,
                row(1).cost.insns,
                row(1).cost.metrics[Metric::Instructions]
            ),
            (1, 7, 10)
        );
        assert_eq!(
            (
                row(3).count,
                row(3).cost.insns,
                row(3).cost.metrics[Metric::Instructions]
            ),
            (1, 5, 1100)
        );
        assert_eq!(
            (
                row(2).count,
                row(2).cost.insns,
                row(2).cost.metrics[Metric::Instructions]
            ),
            (1, 3, 5)
        );
        assert_eq!(row(2).cost.metrics[Metric::Loads], 77);
        assert_eq!(f.rows().len(), 3);
        check_lengths(f);
    }

    #[test]
    fn every_path_of_the_paper_graph_is_counted_once() {
        // Figure 1 of the paper, laid out contiguously, one instruction per block.
        let mut b = CfgBuilder::new(0x10);
        let v: Vec<BlockIx> = (0..6)
            .map(|i| b.block(0x10 + i, 1, BlockEnd::Branch))
            .collect();
        let (a, bb, c, d, e, f) = (v[0], v[1], v[2], v[3], v[4], v[5]);
        b.edge(a, bb, EdgeKind::FallThrough);
        b.edge(a, c, EdgeKind::Branch);
        b.edge(bb, c, EdgeKind::FallThrough);
        b.edge(bb, d, EdgeKind::Branch);
        b.edge(c, d, EdgeKind::FallThrough);
        b.edge(d, e, EdgeKind::FallThrough);
        b.edge(d, f, EdgeKind::Branch);
        b.edge(e, f, EdgeKind::FallThrough);
        b.exit(f, EdgeKind::Return);
        let mut t = tracker_with(b.build().unwrap());
        let paths: Vec<Vec<Addr>> = (0..6)
            .map(|id| t.decode_path(0x10, PathId(id)).unwrap())
            .collect();
        // Run path i i+1 times, each block as its own translation block.
        for (i, p) in paths.iter().enumerate() {
            for _ in 0..=i {
                t.enter(0x10, 0);
                for &blk in p {
                    t.executed(blk, 1);
                }
                t.leave();
            }
        }
        // The longest path in one translation block, a second time.
        t.enter(0x10, 0);
        t.executed(0x10, 6);
        t.leave();
        let f = t.function(0x10).unwrap();
        for id in 0..6u64 {
            let r = f.table().get(0, PathId(id), PathEnd::Complete).unwrap();
            assert_eq!(r.count, id + 1 + u64::from(id == 0));
        }
        check_lengths(f);
    }

    /// Run the tiny function of `cfg::tests::tiny` with `%edi = 2` and
    /// `%rdx = 0x100d`, as the VM would report it: two loop trips calling g,
    /// `jmp *%rdx` back into the loop body (an edge found at run time,
    /// splitting the body), one more trip, `js fail`, `call abort`.
    fn run_tiny<P: CodeSource + FunctionBounds>(t: &mut PathTracker<P>) {
        let g = |t: &mut PathTracker<P>| {
            t.enter(0x2000, 7);
            t.executed(0x2000, 1);
            t.leave();
        };
        t.enter(0x1000, 0);
        t.executed(0x1000, 6); // xor, test, jle
        t.executed(0x1006, 7); // add, call g
        g(t);
        t.executed(0x100d, 4); // dec, jne (taken)
        t.executed(0x1006, 7);
        g(t);
        t.executed(0x100d, 4); // not taken
        t.executed(0x1011, 4); // test, js
        t.executed(0x1015, 2); // jmp *%rdx
        t.executed(0x100d, 4); // dec, jne: not taken
        t.executed(0x1011, 4); // js taken
        t.executed(0x1018, 5); // call abort
        t.enter(0x3000, 8);
        t.finish();
    }

    #[test]
    fn tiny_function_from_bytes_with_an_edge_found_mid_run() {
        let mut t = PathTracker::new(tiny(), PathConfig::default());
        run_tiny(&mut t);
        let f = t.function(0x1000).unwrap();
        assert_eq!(f.mode(), PathMode::Numbered { paths: 13 });
        assert_eq!(f.cfg().unwrap().generation(), 1);
        assert_eq!(f.counters().cfg_changes, 1);
        assert_eq!(f.counters().frames, 1);
        // The path recorded before the change (0x1000, loop body, back edge)
        // keeps its meaning: it now shows the body's two halves.
        let rows = summary(f);
        assert_eq!(
            rows,
            vec![
                (vec![0x1000, 0x1006, 0x100d], PathEnd::Complete, 1, 7),
                (
                    vec![0x1006, 0x100d, 0x1011, 0x1015],
                    PathEnd::Complete,
                    1,
                    7
                ),
                (vec![0x100d, 0x1011, 0x1018], PathEnd::Complete, 1, 5),
            ]
        );
        let ids: Vec<u64> = f.rows().iter().map(|r| r.path.0).collect();
        assert_eq!(ids, vec![3, 6, 11]);
        check_lengths(f);
        let total: u64 = f.rows().iter().map(|r| r.cost.insns).sum();
        assert_eq!(total, 19);
        // g and abort have no code here: their frames are lost, not ours.
        let g = t.function(0x2000).unwrap();
        assert!(matches!(g.mode(), PathMode::Untracked { .. }));
        assert_eq!(g.counters().lost_blocks, 2);
        assert_eq!(g.counters().frames, 2);
        assert_eq!(f.counters().lost_blocks, 0);
    }

    #[test]
    fn interner_stores_each_sequence_once_and_decodes_it() {
        let a = [Step::Start(StartIx(0)), Step::Edge(EdgeIx(5))];
        let b = [
            Step::Start(StartIx(300)),
            Step::Edge(EdgeIx(127)),
            Step::Edge(EdgeIx(128)),
            Step::Edge(EdgeIx(u32::MAX)),
        ];
        let mut i = Interner::default();
        assert_eq!(i.intern(&a), 0);
        assert_eq!(i.intern(&b), 1);
        assert_eq!(i.intern(&[]), 2);
        assert_eq!(i.intern(&b), 1);
        assert_eq!(i.intern(&a[..1]), 3);
        assert_eq!(i.intern(&a), 0);
        i.release();
        assert_eq!(i.get(0).as_deref(), Some(&a[..]));
        assert_eq!(i.get(1).as_deref(), Some(&b[..]));
        assert_eq!(i.get(2).as_deref(), Some(&[][..]));
        assert_eq!(i.get(3).as_deref(), Some(&a[..1]));
        assert_eq!(i.get(4), None);
    }

    #[test]
    fn fallback_to_interning_when_a_new_edge_passes_the_limit() {
        // 7 paths before `jmp *%rdx` finds its target, 13 after.
        let mut t = PathTracker::new(
            tiny(),
            PathConfig {
                max_paths: 7,
                ..PathConfig::default()
            },
        );
        run_tiny(&mut t);
        let f = t.function(0x1000).unwrap();
        assert_eq!(
            f.mode(),
            PathMode::Interned {
                reason: NumberingError::TooManyPaths {
                    paths: 13,
                    limit: 7
                }
            }
        );
        let mut numbered = PathTracker::new(tiny(), PathConfig::default());
        run_tiny(&mut numbered);
        assert_eq!(summary(f), summary(numbered.function(0x1000).unwrap()));
        check_lengths(f);
    }

    #[test]
    fn overflowing_function_is_interned_from_the_start() {
        let cfg = crate::numbering::tests::diamonds(64);
        let mut t = tracker_with(cfg);
        let f = t.function(0x1000).unwrap();
        assert_eq!(
            f.mode(),
            PathMode::Interned {
                reason: NumberingError::Overflow
            }
        );
        // Take the left side of diamond i when bit i of `pattern` is set.
        let run = |t: &mut PathTracker<NoCode>, pattern: u64| {
            t.enter(0x1000, 0);
            t.executed(0x1000, 1);
            for i in 0..64u64 {
                let base = 0x1000 + 0x10 * (i + 1);
                t.executed(
                    if pattern >> i & 1 == 1 {
                        base
                    } else {
                        base + 4
                    },
                    1,
                );
                t.executed(base + 8, 1);
            }
            t.leave();
        };
        run(&mut t, 0xdead_beef_0123_4567);
        run(&mut t, 1 << 63);
        run(&mut t, 0xdead_beef_0123_4567);
        let f = t.function(0x1000).unwrap();
        assert_eq!(f.rows().len(), 2);
        assert_eq!((f.rows()[0].count, f.rows()[1].count), (2, 1));
        let blocks = f.decode_path(f.rows()[1].path).unwrap();
        assert_eq!(blocks.len(), 1 + 2 * 64);
        assert_eq!(blocks[1], 0x1014); // right side of diamond 0
        assert_eq!(blocks[127], 0x1400); // left side of diamond 63
        check_lengths(f);
    }

    #[test]
    fn non_local_exit_truncates_and_landing_pad_resumes() {
        let mut t = PathTracker::new(tiny(), PathConfig::default());
        // longjmp out of g: both frames go; f stopped after `call g`.
        t.enter(0x1000, 0);
        t.executed(0x1000, 6);
        t.executed(0x1006, 7);
        t.enter(0x2000, 0);
        t.leave();
        t.leave();
        // An exception in g lands in f at 0x1017 (standing in for a pad).
        t.enter(0x1000, 0);
        t.executed(0x1000, 6);
        t.executed(0x1006, 7);
        t.enter(0x2000, 0);
        t.leave();
        t.executed(0x1017, 1);
        t.leave();
        let f = t.function(0x1000).unwrap();
        assert_eq!(f.counters().resumes, 1);
        let body = f.cfg().unwrap().block_at(0x1006).unwrap();
        let trunc = PathEnd::Truncated {
            block: body,
            at: 0x100d,
        };
        assert_eq!(
            summary(f),
            vec![
                (vec![0x1000, 0x1006], trunc, 2, 10),
                (vec![0x1017], PathEnd::Complete, 1, 1),
            ]
        );
        let resumed = f
            .rows()
            .into_iter()
            .find(|r| r.end == PathEnd::Complete)
            .unwrap();
        let steps = f.decode_steps(resumed.path).unwrap();
        let Step::Start(s) = steps[0] else { panic!() };
        assert!(matches!(
            f.cfg().unwrap().starts()[s.index()],
            crate::Start::Resume(_)
        ));
    }

    #[test]
    fn a_block_ending_inside_an_instruction_gives_the_frame_up() {
        let mut t = PathTracker::new(tiny(), PathConfig::default());
        t.enter(0x1000, 0);
        t.executed(0x1000, 6);
        t.add_metric(Metric::Instructions, 1);
        t.executed(0x1006, 3); // ends inside `call g`
        t.add_metric(Metric::Instructions, 10);
        t.executed(0x1009, 4);
        t.leave();
        let f = t.function(0x1000).unwrap();
        assert_eq!(f.counters().lost_blocks, 2);
        assert_eq!(f.counters().lost_metrics[Metric::Instructions], 10);
        let body = f.cfg().unwrap().block_at(0x1006).unwrap();
        let r = f.rows()[0];
        assert_eq!(f.rows().len(), 1);
        assert_eq!(
            r.end,
            PathEnd::Truncated {
                block: body,
                at: 0x1006
            }
        );
        assert_eq!(
            (r.count, r.cost.insns, r.cost.metrics[Metric::Instructions]),
            (1, 3, 1)
        );
        assert_eq!(f.row_blocks(&r).unwrap(), vec![0x1000, 0x1006]);
    }

    #[test]
    fn contexts_and_threads_are_kept_apart() {
        let mut t = tracker_with(simple_loop());
        // Thread 1 enters in context 1 and is interrupted inside the loop.
        t.thread_switch(1);
        t.enter(0x100, 1);
        t.executed(0x100, 5);
        t.thread_switch(2);
        t.enter(0x100, 2);
        t.executed(0x100, 5);
        t.executed(0x109, 1);
        t.leave();
        t.thread_switch(1);
        t.executed(0x105, 4);
        t.executed(0x103, 2);
        t.executed(0x109, 1);
        t.leave();
        let f = t.function(0x100).unwrap();
        let get = |ctx, id| {
            f.table()
                .get(ctx, PathId(id), PathEnd::Complete)
                .map(|r| r.count)
        };
        assert_eq!(get(2, 1), Some(1)); // E H X
        assert_eq!(get(1, 0), Some(1)); // E H B
        assert_eq!(get(1, 3), Some(1)); // START H X
        assert_eq!(get(1, 1), None);
        let merged = f.table().by_path();
        assert_eq!(
            merged
                .iter()
                .map(|r| (r.path.0, r.count))
                .collect::<Vec<_>>(),
            vec![(0, 1), (1, 1), (3, 1)]
        );
    }

    #[test]
    fn mid_block_target_in_a_hand_built_switch_keeps_old_rows() {
        // S: indirect jump; A [0x20,0x24) → EXIT. A run discovers S → A+2.
        let mut b = CfgBuilder::new(0x10);
        let s = b.block(0x10, 2, BlockEnd::IndirectJump);
        let a = b.block(0x20, 4, BlockEnd::Return);
        let sa = b.edge(s, a, EdgeKind::Indirect);
        b.exit(s, EdgeKind::IndirectExit);
        b.exit(a, EdgeKind::Return);
        let mut t = tracker_with(b.build().unwrap());
        let run = |t: &mut PathTracker<NoCode>, target: Addr| {
            t.enter(0x10, 0);
            t.executed(0x10, 2);
            t.executed(target, (0x24 - target) as u32);
            t.leave();
        };
        run(&mut t, 0x20);
        run(&mut t, 0x20);
        // An open frame of the function in the middle of A while it splits.
        t.enter(0x10, 0);
        t.executed(0x10, 2);
        t.executed(0x20, 3);
        t.enter(0x10, 0);
        t.executed(0x10, 2);
        t.executed(0x22, 2);
        t.leave();
        t.executed(0x23, 1);
        t.leave();
        let f = t.function(0x10).unwrap();
        let cfg = f.cfg().unwrap();
        assert_eq!(cfg.edge(sa).to(), EdgeTarget::Block(a));
        assert_eq!(cfg.block(a).end(), 0x22);
        assert_eq!(
            summary(f),
            vec![
                (vec![0x10, 0x20, 0x22], PathEnd::Complete, 3, 18),
                (vec![0x10, 0x22], PathEnd::Complete, 1, 4),
            ]
        );
        check_lengths(f);
    }
}
