//! Path profiling during a run: a [`PathTracker`] with a path frame per
//! visible frame of the calling-context tracker's shadow stack, so both
//! agree on every call, return, tail call, non-local exit and signal.
//!
//! The calling-context tracker decides what a frame is and reports each
//! push and pop ([`cct::FrameEvent`]); [`PathRecorder::frames_moved`]
//! enters a path frame for each visible frame entered and leaves those of
//! the frames that ended. Hidden frames (a PLT stub, the lazy resolver and
//! what it calls) get no path frame: a stub's instructions are the
//! caller's (as in the function view), the resolver's are nobody's path.

use cct::{Frame, FrameEvent, FuncId, NodeId, PerThread};
use events::{Addr, Costs, Metric, Tid};
use pathprof::{PathConfig, PathTracker};
use rustc_hash::FxHashMap;

use crate::functions::Program;

/// The shadow frame of a path frame.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Visible {
    /// Index in the shadow stack.
    ix: u32,
    serial: u32,
    node: NodeId,
    /// Entry of the frame's function.
    entry: Addr,
}

/// Path tracking of one run.
pub struct PathRecorder {
    pub tracker: PathTracker<Program>,
    /// The current thread's frames with a path frame, innermost last.
    frames: PerThread<Vec<Visible>>,
    /// Contexts are CCT nodes; false: every row has context 0.
    contexts: bool,
    /// Where the last block's costs went: `Some(last instruction index)`
    /// when it was run by the top path frame, `Some(u32::MAX)` for a PLT
    /// stub block (the caller's path), `None` when no path took it.
    prev: Option<u32>,
    /// Per CCT function id (below the synthetic ones): the path tracker's
    /// function index and the entry, once known.
    known: Vec<Option<(u32, Addr)>>,
    /// Instructions of hidden frames other than PLT stubs (the lazy
    /// resolver), and of blocks run before a thread's first frame.
    pub unattributed: u64,
}

impl PathRecorder {
    /// `metrics`: the path columns whose sums the profile reads (bit `i`:
    /// column `i`); path rows keep only those.
    pub fn new(contexts: bool, metrics: u16) -> PathRecorder {
        let config = PathConfig {
            metrics,
            ..PathConfig::default()
        };
        PathRecorder {
            tracker: PathTracker::new(Program::new(), config),
            frames: PerThread::default(),
            contexts,
            prev: None,
            known: Vec::new(),
            unattributed: 0,
        }
    }

    /// The calling-context tracker's frames of the current thread moved:
    /// leave the path frames of the frames that ended, enter one for each
    /// visible frame entered. `entry_of` names the entry address of a
    /// frame's function.
    #[inline]
    pub fn frames_moved(&mut self, events: &[FrameEvent], entry_of: impl Fn(FuncId) -> Addr) {
        for e in events {
            match *e {
                FrameEvent::Leave { depth, .. } => {
                    while self.frames.last().is_some_and(|v| v.ix >= depth) {
                        self.frames.pop();
                        self.tracker.leave();
                    }
                }
                FrameEvent::Enter { index, frame } if !frame.is_hidden() => {
                    self.enter(index, &frame, &entry_of);
                }
                FrameEvent::Enter { .. } => {}
            }
        }
    }

    fn enter(&mut self, ix: u32, f: &Frame, entry_of: &impl Fn(FuncId) -> Addr) {
        let ctx = if self.contexts { f.node().0 } else { 0 };
        let func = f.function();
        let slot = func.0 as usize;
        let cached = if func.is_synthetic() {
            None
        } else {
            self.known.get(slot).copied().flatten()
        };
        let (fi, entry) = match cached {
            Some(k) => k,
            None => {
                let entry = entry_of(func);
                let k = (self.tracker.function_index(entry), entry);
                if !func.is_synthetic() {
                    if slot >= self.known.len() {
                        self.known.resize(slot + 1, None);
                    }
                    self.known[slot] = Some(k);
                }
                k
            }
        };
        self.tracker.enter_index(fi, ctx);
        self.frames.push(Visible {
            ix,
            serial: f.serial(),
            node: f.node(),
            entry,
        });
    }

    /// The block `[start, start + len)` of `n` instructions runs, on top of
    /// `stack`; `plt`: it is a PLT stub (charged to the caller's path);
    /// `owner`: the entry of the function its start belongs to, when known.
    /// A block of another function run in this frame (code reached by a
    /// jump into another function's body, a signal's restorer after the
    /// handler returned) is on no path, as the function view charges it to
    /// that other function. True if its costs go to a path (then call
    /// [`PathRecorder::add`]).
    #[inline]
    pub fn executed(
        &mut self,
        stack: &[Frame],
        start: Addr,
        len: u32,
        n: u32,
        plt: bool,
        owner: Option<Addr>,
    ) -> bool {
        let hidden = stack.last().is_some_and(|f| f.is_hidden());
        let foreign = !plt
            && match (owner, self.frames.last()) {
                (Some(o), Some(m)) => o != m.entry,
                _ => false,
            };
        if self.tracker.depth() == 0 || (hidden && !plt) || foreign {
            self.unattributed += n as u64;
            self.prev = None;
            false
        } else if plt {
            self.prev = Some(u32::MAX);
            true
        } else {
            self.tracker.executed(start, len);
            self.prev = Some(n - 1);
            true
        }
    }

    /// Add costs to the top frame's open path.
    #[inline]
    pub fn add(&mut self, c: &Costs) {
        self.tracker.add_metrics(c);
    }

    /// Add costs to the open path of `frame`'s path frame, if it is the
    /// top one (before [`PathRecorder::frames_moved`]: an allocator's
    /// request goes to its caller's path, still on top then).
    #[inline]
    pub fn add_to_frame(&mut self, frame: &Frame, c: &Costs) {
        let top = self.frames.last();
        if top.is_some_and(|m| m.serial == frame.serial() && m.node == frame.node()) {
            self.add(c);
        }
    }

    /// Costs of an event inside the running block (a memory access, a
    /// `rep` iteration) when the block's costs go to a path.
    #[inline]
    pub fn add_here(&mut self, c: &Costs) {
        if self.prev.is_some() {
            self.add(c);
        }
    }

    pub fn thread_switch(&mut self, tid: Tid) {
        if !self.frames.switch_default(tid) {
            return;
        }
        self.prev = None;
        self.tracker.thread_switch(tid);
    }

    pub fn finish(&mut self) {
        self.tracker.finish();
        self.tracker.release();
    }
}

/// The profile's path section from a finished tracker. `function_of` maps
/// an entry address to its row in the profile's functions (`u32::MAX` if
/// none); `values` turns path columns into the profile's metric values.
///
/// Takes the tracker and frees each function's graph and rows as soon as
/// its part of the profile is built, so that both are not held in full
/// at once.
pub fn path_profile(
    tracker: PathTracker<Program>,
    unattributed: u64,
    table: &crate::functions::FunctionTable,
    function_of: &dyn Fn(Addr) -> u32,
    values: &dyn Fn(&Costs) -> Vec<u64>,
) -> reports::PathProfile {
    use pathprof::{PathEnd, PathMode, Start, Step};
    use reports::{PathBlock, PathFunction, PathInfo, PathLine, PathNumbering, PathRow};

    let mut files: Vec<String> = Vec::new();
    let mut file_ix: FxHashMap<std::sync::Arc<str>, u32> = FxHashMap::default();
    let (program, funcs) = tracker.into_parts();
    let mut out = Vec::with_capacity(funcs.len());
    let mut fmt = iced_x86::FastFormatter::new();
    let mut text = String::new();
    for fp in funcs {
        let numbering = match fp.mode() {
            PathMode::Numbered { paths } => PathNumbering::Numbered { paths },
            PathMode::Interned { reason } => PathNumbering::Interned {
                reason: reason.to_string(),
            },
            PathMode::Untracked { .. } => PathNumbering::Untracked,
        };
        let c = fp.counters();
        let mut f = PathFunction {
            function: function_of(fp.entry()),
            entry: fp.entry(),
            numbering,
            frames: c.frames,
            resumes: c.resumes,
            lost_blocks: c.lost_blocks,
            lost_instructions: c.lost_metrics[Metric::Instructions],
            cfg_changes: c.cfg_changes,
            ..PathFunction::default()
        };
        let Some(cfg) = fp.cfg() else {
            out.push(f);
            continue;
        };
        let mut block_ix: FxHashMap<Addr, u32> = FxHashMap::default();
        let mut path_ix: FxHashMap<(u64, PathEnd), u32> = FxHashMap::default();
        let rows = fp.table();
        f.rows.reserve_exact(rows.len());
        for i in 0..rows.len() {
            let row = rows.row(i);
            let row = &row;
            let key = (row.path.0, row.end);
            let p = match path_ix.get(&key) {
                Some(&p) => p,
                None => {
                    let starts = fp.row_blocks(row).unwrap_or_default();
                    let mut blocks = Vec::with_capacity(starts.len());
                    let mut length = 0u64;
                    for (k, &start) in starts.iter().enumerate() {
                        let Some(b) = cfg.block_at(start) else {
                            continue;
                        };
                        let blk = cfg.block(b);
                        let last = k + 1 == starts.len();
                        length += match row.end {
                            PathEnd::Truncated { at, .. } if last => {
                                cfg.count_insns(b, blk.start(), at).unwrap_or(0)
                            }
                            _ => blk.insn_count(),
                        };
                        let ix = *block_ix.entry(start).or_insert_with(|| {
                            let mut lines: Vec<PathLine> = Vec::new();
                            let mut insn_lines = Vec::with_capacity(blk.insn_count() as usize);
                            for a in cfg.insn_addrs(b) {
                                let Some((file, line)) = table.symbolizer.line(a) else {
                                    insn_lines.push(u32::MAX);
                                    continue;
                                };
                                let fi = *file_ix.entry(file.clone()).or_insert_with(|| {
                                    files.push(file.to_string());
                                    files.len() as u32 - 1
                                });
                                let pl = PathLine { file: fi, line };
                                if lines.last() != Some(&pl) {
                                    lines.push(pl);
                                }
                                insn_lines.push(lines.len() as u32 - 1);
                            }
                            f.blocks.push(PathBlock {
                                start,
                                insns: cfg.insn_offsets(b).to_vec(),
                                lines,
                                text: cfg
                                    .insn_addrs(b)
                                    .map(|a| disassemble(&program, a, &mut fmt, &mut text))
                                    .collect(),
                                insn_lines,
                            });
                            f.blocks.len() as u32 - 1
                        });
                        blocks.push(ix);
                    }
                    let steps = fp.row_steps(row).unwrap_or_default();
                    let exit = row.end == PathEnd::Complete
                        && matches!(steps.last(), Some(Step::Edge(e)) if !cfg.edge(*e).is_back());
                    let after = match steps.first() {
                        Some(Step::Start(s)) => match cfg.starts().get(s.index()) {
                            Some(Start::AfterBackEdge(e)) => {
                                Some(cfg.block(cfg.edge(*e).from()).start())
                            }
                            _ => None,
                        },
                        _ => None,
                    };
                    f.paths.push(PathInfo {
                        id: row.path.0,
                        truncated: matches!(row.end, PathEnd::Truncated { .. }),
                        exit,
                        after,
                        blocks,
                        length,
                    });
                    let p = f.paths.len() as u32 - 1;
                    path_ix.insert(key, p);
                    p
                }
            };
            f.rows.push(PathRow {
                path: p,
                context: row.ctx,
                count: row.count,
                insns: row.cost.insns,
                cost: values(&row.cost.metrics),
            });
        }
        f.blocks.shrink_to_fit();
        f.paths.shrink_to_fit();
        out.push(f);
    }
    reports::PathProfile {
        recorded: true,
        files,
        functions: out,
        unattributed_instructions: unattributed,
    }
}

/// The instruction at `addr` in Intel syntax, or `(bad)`; formatted in
/// `text` (the formatter reserves far more than an instruction takes), the
/// result allocated to size.
fn disassemble(
    code: &Program,
    addr: Addr,
    fmt: &mut iced_x86::FastFormatter,
    text: &mut String,
) -> String {
    use iced_x86::{Decoder, DecoderOptions};
    use pathprof::CodeSource;
    let Some(bytes) = code.read(addr, 15) else {
        return "(unreadable)".into();
    };
    let mut d = Decoder::with_ip(64, bytes, addr, DecoderOptions::NONE);
    let insn = d.decode();
    if insn.is_invalid() {
        return "(bad)".into();
    }
    text.clear();
    fmt.format(&insn, text);
    text.as_str().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cct::{CallTracker, FunctionIndex, TrackerConfig};
    use events::{BlockEvent, BlockFacts, BlockId, InsnFacts, Observer, Terminator};

    /// Functions 0x1000 (`_start`), 0x2000 (`main`), 0x3000, 0x4000 and
    /// 0x5000, each 0x100 bytes; a PLT stub at 0x9000.
    struct Index;

    impl FunctionIndex for Index {
        fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)> {
            let entry = addr & !0xfff;
            (0x1000..0x6000)
                .contains(&addr)
                .then_some((FuncId((entry >> 12) as u32), entry))
        }
        fn is_plt(&self, addr: Addr) -> bool {
            (0x9000..0x9100).contains(&addr)
        }
    }

    fn facts(start: Addr, t: Terminator) -> BlockFacts {
        let insn = InsnFacts {
            offset: 0,
            len: 4,
            loads: 0,
            stores: 0,
            is_branch: true,
        };
        BlockFacts::new(start, 4, vec![insn].into_boxed_slice(), t)
    }

    /// Runs blocks on a calling-context tracker and hands its frame events
    /// to a path recorder, as the recorder does.
    struct Both {
        cct: CallTracker<Index>,
        paths: PathRecorder,
        ids: u32,
        moves: Vec<FrameEvent>,
    }

    impl Both {
        fn block(&mut self, start: Addr, t: Terminator, sp: Addr) -> usize {
            let f = facts(start, t);
            let id = BlockId(self.ids);
            self.ids += 1;
            self.cct.block_decoded(id, &f);
            self.cct.block(BlockEvent { id, sp }, &f);
            self.cct.swap_frame_events(&mut self.moves);
            self.paths
                .frames_moved(&self.moves, |f| Addr::from(f.0) << 12);
            self.moves.clear();
            self.paths.tracker.depth()
        }
    }

    /// One path frame per visible frame, entered and left as the
    /// calling-context tracker pushes and pops frames: a call, a call
    /// through a PLT stub (no path frame until the stub jumps to the real
    /// function), a `longjmp` over two frames, and a thread switch.
    #[test]
    fn path_frames_follow_the_frame_events() {
        let mut cct = CallTracker::new(Index, TrackerConfig::default());
        cct.set_frame_events(true);
        let mut b = Both {
            cct,
            paths: PathRecorder::new(true, 1),
            ids: 0,
            moves: Vec::new(),
        };
        let s0 = 0x7000_0000;
        use Terminator::*;
        assert_eq!(b.block(0x1000, Call { target: 0x2000 }, s0), 1);
        assert_eq!(b.block(0x2000, Call { target: 0x9000 }, s0 - 8), 2);
        // The stub runs in the caller's path frame; its jump out enters
        // the callee's.
        assert_eq!(b.block(0x9000, IndirectJump, s0 - 16), 2);
        assert_eq!(b.block(0x3000, Call { target: 0x4000 }, s0 - 16), 3);
        assert_eq!(b.block(0x4000, Call { target: 0x5000 }, s0 - 24), 4);
        assert_eq!(b.block(0x5000, IndirectJump, s0 - 32), 5);
        // longjmp back into 0x3000's frame: two path frames end.
        assert_eq!(b.block(0x3010, Return, s0 - 16), 3);
        assert_eq!(b.block(0x2010, Syscall, s0 - 8), 2);
        // Another thread has its own frames; the first keeps its own.
        b.cct.thread_switch(2);
        b.paths.thread_switch(2);
        assert_eq!(b.block(0x1000, Call { target: 0x4000 }, s0 - 0x10000), 1);
        assert_eq!(b.block(0x4000, Syscall, s0 - 0x10008), 2);
        b.cct.thread_switch(0);
        b.paths.thread_switch(0);
        assert_eq!(b.block(0x2020, Return, s0 - 8), 2);
        let frames: Vec<(Addr, u64)> = b
            .paths
            .tracker
            .functions()
            .iter()
            .map(|f| (f.entry(), f.counters().frames))
            .collect();
        assert_eq!(
            frames,
            [
                (0x1000, 2),
                (0x2000, 1),
                (0x3000, 1),
                (0x4000, 2),
                (0x5000, 1)
            ]
        );
    }
}
