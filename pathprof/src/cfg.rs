//! Control-flow graphs of single functions, discovered from code bytes and
//! grown while the program runs.
//!
//! Invariants every mutation keeps (the numbering and the tracker rely on
//! them; they are what lets recorded paths be re-expressed in a later
//! generation, see the crate header):
//! - blocks never overlap; a block's index and start address never change:
//!   a split keeps the head under the old index and makes the tail a new
//!   block that takes over the out-edges;
//! - an edge's index, kind and target never change; only its source moves,
//!   to the tail, when its block is split;
//! - every block has at least one out-edge (code that cannot be followed
//!   gets an edge to EXIT);
//! - an edge is classified back or forward once and for all: the first graph
//!   by a depth-first search from the entry, each later edge by whether it
//!   closes a cycle of forward edges;
//! - nothing is ever removed, so the graph only grows.

use std::fmt;

use events::Addr;
use iced_x86::{Decoder, DecoderOptions, FlowControl, Instruction, Mnemonic, OpKind};

/// Guest code bytes, as the owner of the tracker can read them (from the
/// mapped objects' files, on the VM side: this crate never does I/O).
pub trait CodeSource {
    /// Up to `len` bytes of code starting at `addr`: fewer at the end of a
    /// readable region (or, past the 16 that hold any instruction, where the
    /// source finds it convenient), `None` (or an empty slice) if `addr` is
    /// not readable.
    fn read(&self, addr: Addr, len: usize) -> Option<&[u8]>;
}

/// What the owner knows about the guest's functions that the code alone
/// does not say.
pub trait FunctionBounds {
    /// True if control reaching `target` from the function entered at
    /// `func` leaves that function: `target` is another function's entry (a
    /// tail call) or lies in a PLT. Asked for direct jump and branch targets
    /// and for addresses that straight-line code would run into. Parts of a
    /// function the compiler split off (`foo.cold`) belong to it: say false.
    fn leaves_function(&self, func: Addr, target: Addr) -> bool;

    /// True if a direct call to `callee` never returns (`exit`, `abort`,
    /// `__stack_chk_fail`, `longjmp`, `__cxa_throw`..., or their PLT stubs).
    fn never_returns(&self, callee: Addr) -> bool;
}

impl<T: CodeSource + ?Sized> CodeSource for &T {
    fn read(&self, addr: Addr, len: usize) -> Option<&[u8]> {
        (**self).read(addr, len)
    }
}

impl<T: FunctionBounds + ?Sized> FunctionBounds for &T {
    fn leaves_function(&self, func: Addr, target: Addr) -> bool {
        (**self).leaves_function(func, target)
    }
    fn never_returns(&self, callee: Addr) -> bool {
        (**self).never_returns(callee)
    }
}

/// Index of a block of one [`Cfg`]; stable for the graph's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockIx(pub u32);

impl BlockIx {
    /// The index as `usize`, for flat per-block arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of an edge of one [`Cfg`]; stable for the graph's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeIx(pub u32);

impl EdgeIx {
    /// The index as `usize`, for flat per-edge arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of one of ENTRY's successors (a [`Start`]) of one [`Cfg`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StartIx(pub u32);

impl StartIx {
    /// The function's entry: always the first of ENTRY's successors.
    pub const ENTRY: StartIx = StartIx(0);

    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a path can begin: the successors of the ENTRY vertex, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// The function's entry block (always [`StartIx::ENTRY`]).
    Entry,
    /// The target of a back edge: the pseudo-edge ENTRY→target that replaces
    /// the back edge's second half.
    AfterBackEdge(EdgeIx),
    /// A block execution resumed at without an edge leading there: a
    /// landing pad, a `setjmp` return, or a first block that was not the
    /// entry.
    Resume(BlockIx),
}

/// Where an edge goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeTarget {
    /// A block of the function.
    Block(BlockIx),
    /// The EXIT vertex: control leaves the function.
    Exit,
}

/// Why an edge exists. The first five go to blocks, the rest to EXIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// To the block that starts where this one ends: a branch not taken, a
    /// call that returns into a block boundary, or a split block's halves.
    FallThrough,
    /// A conditional branch taken.
    Branch,
    /// A direct unconditional jump.
    Jump,
    /// A target of an indirect jump, seen at run time.
    Indirect,
    /// Any other transfer seen at run time (a `ret` used as a jump, the
    /// instruction after a trap a signal handler skipped to).
    Observed,
    /// EXIT by `ret` (or `iret`, `sysret`).
    Return,
    /// EXIT by a direct jump or conditional branch to another function.
    TailCall,
    /// EXIT by an indirect jump, which may leave the function (every indirect
    /// jump has one, besides the targets seen at run time).
    IndirectExit,
    /// EXIT by a call that does not return.
    NoReturn,
    /// EXIT by an instruction that traps (`ud2`, `int3`, `hlt`).
    Trap,
    /// EXIT where straight-line code runs into another function's entry.
    FallOut,
    /// EXIT where the code cannot be followed: unreadable, undecodable, or
    /// decoded differently from a block already known (overlapping code).
    CodeEnd,
}

impl EdgeKind {
    /// True for the kinds that go to EXIT.
    pub fn is_exit(self) -> bool {
        !matches!(
            self,
            EdgeKind::FallThrough
                | EdgeKind::Branch
                | EdgeKind::Jump
                | EdgeKind::Indirect
                | EdgeKind::Observed
        )
    }
}

/// What the last instruction of a block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockEnd {
    /// An ordinary instruction: the next one starts another block.
    FallThrough,
    /// A conditional branch.
    Branch,
    /// A direct unconditional jump.
    Jump,
    /// An indirect jump.
    IndirectJump,
    /// A call: one that does not return, or one followed by a block start.
    /// After it, the only way on inside the function is the return address.
    Call,
    /// A return.
    Return,
    /// A trapping instruction.
    Trap,
    /// The code after it cannot be followed (see [`EdgeKind::CodeEnd`] and
    /// [`EdgeKind::FallOut`]).
    CodeEnd,
}

/// A basic block: straight-line instructions, entered at the first.
///
/// Blocks are kept for every function a run enters, with all the code it
/// can reach (sqlite3: 22,600 blocks): 48 bytes each, their instruction
/// offsets in one array of the graph ([`Cfg::insn_offsets`]), one or two
/// out-edges inline.
#[derive(Clone, Debug)]
pub struct Block {
    start: Addr,
    /// Bytes: the block ends at `start + len`.
    len: u32,
    /// Its instructions' offsets from `start` are
    /// `Cfg::insn_offs[insn_lo..insn_hi]`, ascending.
    insn_lo: u32,
    insn_hi: u32,
    last: BlockEnd,
    out: OutEdges,
}

const _: () = assert!(std::mem::size_of::<Block>() == 48);

impl Block {
    /// Address of the first instruction.
    #[inline]
    pub fn start(&self) -> Addr {
        self.start
    }
    /// Address just past the last instruction.
    #[inline]
    pub fn end(&self) -> Addr {
        self.start + u64::from(self.len)
    }
    /// Number of instructions.
    #[inline]
    pub fn insn_count(&self) -> u64 {
        u64::from(self.insn_hi - self.insn_lo)
    }
    /// Out-edges, in the block's successor order (the order Ball-Larus
    /// numbering uses): fall-through before branch taken, then the targets
    /// seen at run time in the order they were seen.
    #[inline]
    pub fn out(&self) -> &[EdgeIx] {
        self.out.as_slice()
    }
    /// What the last instruction is.
    #[inline]
    pub fn last(&self) -> BlockEnd {
        self.last
    }
}

/// A block's out-edges, in successor order: inline up to two (most blocks
/// have one or two), boxed beyond.
#[derive(Clone, Debug)]
enum OutEdges {
    Inline { len: u8, edges: [EdgeIx; 2] },
    Boxed(Box<[EdgeIx]>),
}

impl OutEdges {
    const EMPTY: OutEdges = OutEdges::Inline {
        len: 0,
        edges: [EdgeIx(0); 2],
    };

    #[inline]
    fn as_slice(&self) -> &[EdgeIx] {
        match self {
            OutEdges::Inline { len, edges } => &edges[..*len as usize],
            OutEdges::Boxed(v) => v,
        }
    }

    fn push(&mut self, e: EdgeIx) {
        match self {
            OutEdges::Inline { len, edges } if (*len as usize) < edges.len() => {
                edges[*len as usize] = e;
                *len += 1;
            }
            _ => {
                let mut v = self.as_slice().to_vec();
                v.push(e);
                *self = OutEdges::Boxed(v.into_boxed_slice());
            }
        }
    }
}

/// An edge of the graph (24 bytes: a graph has about two per block).
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    from: BlockIx,
    /// The target block's index, [`NO_BLOCK`] for EXIT.
    to: u32,
    /// The start of the target block (blocks keep their start when split),
    /// `Addr::MAX` for EXIT: what [`Cfg::find_edge`] compares, without
    /// loading the target block.
    to_start: Addr,
    /// A back edge's ENTRY successor, [`NO_BLOCK`] for none.
    start: u32,
    kind: EdgeKind,
    back: bool,
}

const _: () = assert!(std::mem::size_of::<Edge>() == 24);

/// [`Edge::to`] of an edge to EXIT, and [`Edge::start`] of one without an
/// ENTRY successor.
const NO_BLOCK: u32 = u32::MAX;

impl Edge {
    /// The block the edge leaves (changes when the block is split).
    #[inline]
    pub fn from(&self) -> BlockIx {
        self.from
    }
    /// Where the edge goes.
    #[inline]
    pub fn to(&self) -> EdgeTarget {
        match self.to {
            NO_BLOCK => EdgeTarget::Exit,
            b => EdgeTarget::Block(BlockIx(b)),
        }
    }
    /// Why the edge exists.
    #[inline]
    pub fn kind(&self) -> EdgeKind {
        self.kind
    }
    /// True for a back edge: for numbering it is replaced by the pseudo-edges
    /// source→EXIT and ENTRY→target.
    #[inline]
    pub fn is_back(&self) -> bool {
        self.back
    }
    /// For a back edge, the ENTRY successor that stands for its target.
    #[inline]
    pub fn start_slot(&self) -> Option<StartIx> {
        (self.start != NO_BLOCK).then_some(StartIx(self.start))
    }
    /// The start of the target block, `Addr::MAX` for EXIT: what
    /// [`Cfg::find_edge`] compares.
    #[inline]
    pub(crate) fn target_start(&self) -> Addr {
        self.to_start
    }
}

/// Why a graph could not be built or grown. What it names is left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CfgError {
    /// No code can be read or decoded at the address.
    Unreadable { addr: Addr },
    /// The address is inside an instruction of a known block (the code
    /// overlaps itself, or was decoded from the wrong place).
    MidInstruction { addr: Addr },
    /// The instruction at `addr` runs across the start of a known block.
    Overlap { addr: Addr },
    /// A hand-built graph breaks an invariant of the module.
    Malformed { what: &'static str },
}

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CfgError::Unreadable { addr } => write!(f, "no decodable code at {addr:#x}"),
            CfgError::MidInstruction { addr } => {
                write!(f, "{addr:#x} is inside an instruction of a known block")
            }
            CfgError::Overlap { addr } => {
                write!(f, "the instruction at {addr:#x} overlaps a known block")
            }
            CfgError::Malformed { what } => write!(f, "malformed graph: {what}"),
        }
    }
}

impl std::error::Error for CfgError {}

/// One step of a path through a [`Cfg`]: the ENTRY successor it starts
/// with, then the edges it takes. A complete path's last edge goes to EXIT
/// or is a back edge (standing for its pseudo-edge to EXIT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The ENTRY successor the path begins with.
    Start(StartIx),
    /// An edge taken (a back edge: the path ends with its END pseudo-edge).
    Edge(EdgeIx),
}

/// The control-flow graph of one function.
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Addr,
    entry_block: BlockIx,
    blocks: Vec<Block>,
    /// The blocks' instruction offsets (see [`Block`]).
    insn_offs: Vec<u32>,
    edges: Vec<Edge>,
    /// The blocks in address order (4 bytes a block, where a map was 25).
    by_start: Vec<BlockIx>,
    starts: Vec<Start>,
    generation: u32,
    /// Edges below this index are classified (back or forward).
    classified: usize,
}

/// An edge found while decoding, made once every block exists.
struct Pending {
    /// The instruction the edge leaves from (the last of its block).
    src: Addr,
    /// `None`: EXIT.
    target: Option<Addr>,
    kind: EdgeKind,
}

/// How an instruction moves control, for the graph.
enum Flow {
    Next,
    Cond(Addr),
    Jump(Addr),
    Indirect,
    Call(Addr),
    IndirectCall,
    Return,
    Trap,
}

fn is_near_branch(insn: &Instruction) -> bool {
    matches!(
        insn.op0_kind(),
        OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64
    )
}

fn flow_of(insn: &Instruction) -> Flow {
    if matches!(
        insn.mnemonic(),
        Mnemonic::Hlt | Mnemonic::Int3 | Mnemonic::Int1 | Mnemonic::Ud0 | Mnemonic::Ud1
    ) {
        return Flow::Trap;
    }
    match insn.flow_control() {
        FlowControl::Next | FlowControl::XbeginXabortXend | FlowControl::Interrupt => Flow::Next,
        FlowControl::ConditionalBranch if is_near_branch(insn) => {
            Flow::Cond(insn.near_branch_target())
        }
        FlowControl::ConditionalBranch => Flow::Next,
        FlowControl::UnconditionalBranch if is_near_branch(insn) => {
            Flow::Jump(insn.near_branch_target())
        }
        FlowControl::UnconditionalBranch | FlowControl::IndirectBranch => Flow::Indirect,
        FlowControl::Return => Flow::Return,
        // `syscall`, `sysenter` and the VM calls come back to the next instruction.
        FlowControl::Call if is_near_branch(insn) => Flow::Call(insn.near_branch_target()),
        FlowControl::Call => Flow::Next,
        FlowControl::IndirectCall => Flow::IndirectCall,
        FlowControl::Exception => Flow::Trap,
    }
}

fn decode_at<P: CodeSource + ?Sized>(prog: &P, addr: Addr) -> Option<Instruction> {
    let bytes = prog.read(addr, 15)?;
    if bytes.is_empty() {
        return None;
    }
    let insn = Decoder::with_ip(64, bytes, addr, DecoderOptions::NONE).decode();
    (!insn.is_invalid()).then_some(insn)
}

impl Cfg {
    /// Release spare capacity (when the graph stops growing).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.insn_offs.shrink_to_fit();
        self.edges.shrink_to_fit();
        self.starts.shrink_to_fit();
    }

    fn empty(entry: Addr) -> Cfg {
        Cfg {
            entry,
            entry_block: BlockIx(0),
            blocks: Vec::new(),
            insn_offs: Vec::new(),
            edges: Vec::new(),
            by_start: Vec::new(),
            starts: vec![Start::Entry],
            generation: 0,
            classified: 0,
        }
    }

    /// Discover the graph of the function entered at `entry`: decode from
    /// the entry, follow fall-throughs and direct branches that stay in the
    /// function, step over calls without ending blocks; `ret`,
    /// tail jumps, indirect jumps, calls that never return and traps go to
    /// EXIT. Back edges are found by a depth-first search from the entry.
    pub fn discover<P>(entry: Addr, prog: &P) -> Result<Cfg, CfgError>
    where
        P: CodeSource + FunctionBounds + ?Sized,
    {
        let mut cfg = Cfg::empty(entry);
        let mut pending = Vec::new();
        cfg.entry_block = cfg.explore(entry, prog, &mut pending)?;
        cfg.resolve(pending);
        cfg.classify_dfs();
        // Most graphs never grow after discovery: keep no room to grow in.
        cfg.shrink_to_fit();
        Ok(cfg)
    }

    /// The function's entry address.
    #[inline]
    pub fn entry(&self) -> Addr {
        self.entry
    }
    /// The block at the entry address.
    #[inline]
    pub fn entry_block(&self) -> BlockIx {
        self.entry_block
    }
    /// Counts the changes since discovery (0 for the graph as discovered).
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }
    /// The blocks, by [`BlockIx`] (not in address order).
    #[inline]
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }
    /// One block.
    #[inline]
    pub fn block(&self, b: BlockIx) -> &Block {
        &self.blocks[b.index()]
    }
    /// The offsets of block `b`'s instructions from its start, ascending.
    #[inline]
    pub fn insn_offsets(&self, b: BlockIx) -> &[u32] {
        let blk = &self.blocks[b.index()];
        &self.insn_offs[blk.insn_lo as usize..blk.insn_hi as usize]
    }
    /// The addresses of block `b`'s instructions, ascending.
    pub fn insn_addrs(&self, b: BlockIx) -> impl ExactSizeIterator<Item = Addr> + '_ {
        let start = self.blocks[b.index()].start;
        self.insn_offsets(b)
            .iter()
            .map(move |&o| start + u64::from(o))
    }
    /// The address of block `b`'s last instruction.
    fn last_insn(&self, b: BlockIx) -> Addr {
        let blk = &self.blocks[b.index()];
        blk.start + u64::from(self.insn_offs[blk.insn_hi as usize - 1])
    }
    /// Instructions of block `b` in `[from, to)`, where `from` is one of its
    /// instruction starts and `to` one or its end; `None` if `to` is neither.
    #[inline]
    pub fn count_insns(&self, b: BlockIx, from: Addr, to: Addr) -> Option<u64> {
        let blk = &self.blocks[b.index()];
        if from == blk.start && to == blk.end() {
            return Some(blk.insn_count());
        }
        let offs = self.insn_offsets(b);
        let off = |a: Addr| a.wrapping_sub(blk.start);
        let hi = if to == blk.end() {
            offs.len()
        } else {
            offs.binary_search_by(|&o| u64::from(o).cmp(&off(to)))
                .ok()?
        };
        let lo = offs.partition_point(|&o| u64::from(o) < off(from));
        Some(hi.saturating_sub(lo) as u64)
    }
    /// The edges, by [`EdgeIx`].
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }
    /// One edge.
    #[inline]
    pub fn edge(&self, e: EdgeIx) -> &Edge {
        &self.edges[e.index()]
    }
    /// ENTRY's successors, in numbering order ([`StartIx`] indexes them).
    #[inline]
    pub fn starts(&self) -> &[Start] {
        &self.starts
    }

    /// The block a [`Start`] leads to.
    #[inline]
    pub fn start_target(&self, s: StartIx) -> BlockIx {
        match self.starts[s.index()] {
            Start::Entry => self.entry_block,
            Start::AfterBackEdge(e) => match self.edges[e.index()].to() {
                EdgeTarget::Block(b) => b,
                EdgeTarget::Exit => unreachable!("a back edge goes to a block"),
            },
            Start::Resume(b) => b,
        }
    }

    /// The block that starts at `addr`.
    #[inline]
    pub fn block_at(&self, addr: Addr) -> Option<BlockIx> {
        let b = *self.by_start.get(self.first_at_or_after(addr))?;
        (self.blocks[b.index()].start == addr).then_some(b)
    }

    /// The position in `by_start` of the first block starting at or after
    /// `addr`.
    #[inline]
    fn first_at_or_after(&self, addr: Addr) -> usize {
        self.by_start
            .partition_point(|b| self.blocks[b.index()].start < addr)
    }

    /// Adds block `b` (just pushed) to `by_start`.
    fn index_start(&mut self, b: BlockIx) {
        let at = self.first_at_or_after(self.blocks[b.index()].start);
        self.by_start.insert(at, b);
    }

    /// The block whose range holds `addr`.
    pub fn block_containing(&self, addr: Addr) -> Option<BlockIx> {
        let at = self.first_at_or_after(addr.checked_add(1)?);
        let b = self.by_start[at.checked_sub(1)?];
        (addr < self.blocks[b.index()].end()).then_some(b)
    }

    /// The out-edge of `from` to the block starting at `to` (the first one
    /// in successor order when parallel edges lead there: they cannot be
    /// told apart by the address reached).
    #[inline]
    pub fn find_edge(&self, from: BlockIx, to: Addr) -> Option<EdgeIx> {
        self.blocks[from.index()]
            .out()
            .iter()
            .copied()
            .find(|e| self.edges[e.index()].to_start == to)
    }

    /// The first out-edge of `b` to EXIT.
    #[inline]
    pub fn exit_edge(&self, b: BlockIx) -> Option<EdgeIx> {
        self.blocks[b.index()]
            .out()
            .iter()
            .copied()
            .find(|e| self.edges[e.index()].to() == EdgeTarget::Exit)
    }

    /// Record that control went from the end of `from` to `to` (an indirect
    /// jump's target, or any transfer the graph did not have): decodes new
    /// code at `to` if needed, splits the block `to` falls inside, adds the
    /// edge and classifies it. Returns the edge (an existing one if the graph
    /// had it). Its source is the block that now ends where `from` ended,
    /// which is `from` unless `to` split it.
    pub fn add_edge<P>(&mut self, from: BlockIx, to: Addr, prog: &P) -> Result<EdgeIx, CfgError>
    where
        P: CodeSource + FunctionBounds + ?Sized,
    {
        if let Some(e) = self.find_edge(from, to) {
            return Ok(e);
        }
        let b = &self.blocks[from.index()];
        let (src, from_end, last) = (self.last_insn(from), b.end(), b.last);
        let mut pending = Vec::new();
        let target = self.explore(to, prog, &mut pending)?;
        self.resolve(pending);
        let from = self
            .block_containing(src)
            .expect("the source block still exists");
        let kind = if last == BlockEnd::IndirectJump {
            EdgeKind::Indirect
        } else if to == from_end {
            EdgeKind::FallThrough
        } else {
            EdgeKind::Observed
        };
        let e = self.push_edge(from, EdgeTarget::Block(target), kind);
        self.classify_new();
        self.generation += 1;
        Ok(e)
    }

    /// Record that execution resumed at `at` without an edge leading there
    /// (see [`Start::Resume`]): decodes and splits as [`Cfg::add_edge`] does
    /// and gives ENTRY a successor there, or returns the one it has.
    pub fn add_entry<P>(&mut self, at: Addr, prog: &P) -> Result<StartIx, CfgError>
    where
        P: CodeSource + FunctionBounds + ?Sized,
    {
        let (nb, ne) = (self.blocks.len(), self.edges.len());
        let mut pending = Vec::new();
        let b = self.explore(at, prog, &mut pending)?;
        self.resolve(pending);
        let existing = self.starts.iter().position(|s| match *s {
            Start::Resume(r) => r == b,
            Start::Entry => b == self.entry_block,
            Start::AfterBackEdge(_) => false,
        });
        let slot = match existing {
            Some(i) => StartIx(i as u32),
            None => {
                self.starts.push(Start::Resume(b));
                StartIx(self.starts.len() as u32 - 1)
            }
        };
        if existing.is_none() || nb != self.blocks.len() || ne != self.edges.len() {
            self.classify_new();
            self.generation += 1;
        }
        Ok(slot)
    }

    /// Rewrite a path recorded in an earlier generation of this graph into
    /// this one: the fall-through edges of blocks split since are inserted.
    /// With `upto`, the steps are a prefix and are extended along split
    /// fall-throughs to end entering `upto`. `None` if the steps do not fit
    /// the graph (which the invariants rule out for steps it produced).
    pub fn respell(&self, steps: &[Step], upto: Option<BlockIx>) -> Option<Vec<Step>> {
        let mut out = Vec::with_capacity(steps.len() + 2);
        let mut cur: Option<BlockIx> = None;
        for &s in steps {
            match s {
                Step::Start(k) => {
                    if k.index() >= self.starts.len() {
                        return None;
                    }
                    cur = Some(self.start_target(k));
                }
                Step::Edge(e) => {
                    let edge = self.edges.get(e.index())?;
                    let mut c = cur?;
                    while c != edge.from {
                        let ft = self.split_successor(c)?;
                        out.push(Step::Edge(ft));
                        c = match self.edges[ft.index()].to() {
                            EdgeTarget::Block(b) => b,
                            EdgeTarget::Exit => return None,
                        };
                    }
                    cur = match edge.to() {
                        EdgeTarget::Block(b) if !edge.back => Some(b),
                        _ => None,
                    };
                }
            }
            out.push(s);
        }
        if let Some(u) = upto {
            let mut c = cur?;
            while c != u {
                let ft = self.split_successor(c)?;
                out.push(Step::Edge(ft));
                c = match self.edges[ft.index()].to() {
                    EdgeTarget::Block(b) => b,
                    EdgeTarget::Exit => return None,
                };
            }
        }
        Some(out)
    }

    /// The blocks a path (or prefix) runs through, in order.
    pub fn path_block_ixs(&self, steps: &[Step]) -> Vec<BlockIx> {
        let mut v = Vec::with_capacity(steps.len());
        for &s in steps {
            match s {
                Step::Start(k) => v.push(self.start_target(k)),
                Step::Edge(e) => {
                    let edge = &self.edges[e.index()];
                    if let (EdgeTarget::Block(b), false) = (edge.to(), edge.back) {
                        v.push(b);
                    }
                }
            }
        }
        v
    }

    /// The start addresses of the blocks a path (or prefix) runs through.
    pub fn path_blocks(&self, steps: &[Step]) -> Vec<Addr> {
        self.path_block_ixs(steps)
            .into_iter()
            .map(|b| self.blocks[b.index()].start)
            .collect()
    }

    /// The instructions of the blocks a path runs through (its length).
    pub fn path_insns(&self, steps: &[Step]) -> u64 {
        self.path_block_ixs(steps)
            .into_iter()
            .map(|b| self.blocks[b.index()].insn_count())
            .sum()
    }

    /// The fall-through edge from `b` to the block starting at its end.
    fn split_successor(&self, b: BlockIx) -> Option<EdgeIx> {
        let end = self.blocks[b.index()].end();
        self.blocks[b.index()].out().iter().copied().find(|e| {
            let edge = &self.edges[e.index()];
            edge.kind == EdgeKind::FallThrough
                && !edge.back
                && matches!(edge.to(), EdgeTarget::Block(t) if self.blocks[t.index()].start == end)
        })
    }

    fn push_edge(&mut self, from: BlockIx, to: EdgeTarget, kind: EdgeKind) -> EdgeIx {
        let e = EdgeIx(self.edges.len() as u32);
        let (to, to_start) = match to {
            EdgeTarget::Block(t) => (t.0, self.blocks[t.index()].start),
            EdgeTarget::Exit => (NO_BLOCK, Addr::MAX),
        };
        self.edges.push(Edge {
            from,
            to,
            to_start,
            kind,
            back: false,
            start: NO_BLOCK,
        });
        self.blocks[from.index()].out.push(e);
        e
    }

    /// Split `b` at the instruction starting at `at` (not its first); the
    /// tail takes the out-edges and the head falls through into it.
    fn split(&mut self, b: BlockIx, at: Addr) -> BlockIx {
        let y = BlockIx(self.blocks.len() as u32);
        let head = &mut self.blocks[b.index()];
        let cut = (at - head.start) as u32;
        let pos = self.insn_offs[head.insn_lo as usize..head.insn_hi as usize]
            .binary_search(&cut)
            .expect("split at an instruction");
        let mid = head.insn_lo + pos as u32;
        // The tail's offsets, from its own start.
        for o in &mut self.insn_offs[mid as usize..head.insn_hi as usize] {
            *o -= cut;
        }
        let tail = Block {
            start: at,
            len: head.len - cut,
            insn_lo: mid,
            insn_hi: head.insn_hi,
            out: std::mem::replace(&mut head.out, OutEdges::EMPTY),
            last: head.last,
        };
        head.len = cut;
        head.insn_hi = mid;
        head.last = BlockEnd::FallThrough;
        for e in tail.out() {
            self.edges[e.index()].from = y;
        }
        self.blocks.push(tail);
        self.index_start(y);
        self.push_edge(b, EdgeTarget::Block(y), EdgeKind::FallThrough);
        y
    }

    /// Make `root` a block start, decoding or splitting as needed, and decode
    /// everything new code there reaches by fall-through and direct branches.
    /// Edges are left in `pending` for [`Cfg::resolve`].
    fn explore<P>(
        &mut self,
        root: Addr,
        prog: &P,
        pending: &mut Vec<Pending>,
    ) -> Result<BlockIx, CfgError>
    where
        P: CodeSource + FunctionBounds + ?Sized,
    {
        let mut work = Vec::new();
        let b = self.ensure_block(root, prog, pending, &mut work)?;
        while let Some(a) = work.pop() {
            // A target that cannot be decoded becomes an edge to EXIT in `resolve`.
            let _ = self.ensure_block(a, prog, pending, &mut work);
        }
        Ok(b)
    }

    fn ensure_block<P>(
        &mut self,
        a: Addr,
        prog: &P,
        pending: &mut Vec<Pending>,
        work: &mut Vec<Addr>,
    ) -> Result<BlockIx, CfgError>
    where
        P: CodeSource + FunctionBounds + ?Sized,
    {
        if let Some(b) = self.block_at(a) {
            return Ok(b);
        }
        if let Some(b) = self.block_containing(a) {
            if self.insn_addrs(b).any(|i| i == a) {
                return Ok(self.split(b, a));
            }
            return Err(CfgError::MidInstruction { addr: a });
        }
        let limit = self
            .by_start
            .get(self.first_at_or_after(a))
            .map(|b| self.blocks[b.index()].start);
        let mut insns = Vec::new();
        // Whether the last instruction in `insns` is a call.
        let mut last_is_call = false;
        let mut cur = a;
        let mut end = a;
        let last;
        loop {
            if cur != a {
                if Some(cur) == limit {
                    pending.push(Pending {
                        src: *insns.last().unwrap(),
                        target: Some(cur),
                        kind: EdgeKind::FallThrough,
                    });
                    last = BlockEnd::FallThrough;
                    break;
                }
                if prog.leaves_function(self.entry, cur) {
                    pending.push(Pending {
                        src: *insns.last().unwrap(),
                        target: None,
                        kind: EdgeKind::FallOut,
                    });
                    last = BlockEnd::CodeEnd;
                    break;
                }
            }
            let insn = decode_at(prog, cur);
            let overlaps = matches!((&insn, limit), (Some(i), Some(l)) if cur + i.len() as u64 > l);
            let Some(insn) = insn.filter(|_| !overlaps) else {
                if insns.is_empty() && overlaps {
                    return Err(CfgError::Overlap { addr: a });
                }
                if insns.is_empty() {
                    return Err(CfgError::Unreadable { addr: a });
                }
                pending.push(Pending {
                    src: *insns.last().unwrap(),
                    target: None,
                    kind: EdgeKind::CodeEnd,
                });
                last = BlockEnd::CodeEnd;
                break;
            };
            let next = cur + insn.len() as u64;
            insns.push(cur);
            last_is_call = false;
            end = next;
            let exit = |kind| Pending {
                src: cur,
                target: None,
                kind,
            };
            match flow_of(&insn) {
                Flow::Next => {}
                Flow::Cond(target) => {
                    if prog.leaves_function(self.entry, next) {
                        pending.push(exit(EdgeKind::FallOut));
                    } else {
                        pending.push(Pending {
                            src: cur,
                            target: Some(next),
                            kind: EdgeKind::FallThrough,
                        });
                        work.push(next);
                    }
                    if prog.leaves_function(self.entry, target) {
                        pending.push(exit(EdgeKind::TailCall));
                    } else {
                        pending.push(Pending {
                            src: cur,
                            target: Some(target),
                            kind: EdgeKind::Branch,
                        });
                        work.push(target);
                    }
                    last = BlockEnd::Branch;
                    break;
                }
                Flow::Jump(target) => {
                    if prog.leaves_function(self.entry, target) {
                        pending.push(exit(EdgeKind::TailCall));
                    } else {
                        pending.push(Pending {
                            src: cur,
                            target: Some(target),
                            kind: EdgeKind::Jump,
                        });
                        work.push(target);
                    }
                    last = BlockEnd::Jump;
                    break;
                }
                Flow::Indirect => {
                    pending.push(exit(EdgeKind::IndirectExit));
                    last = BlockEnd::IndirectJump;
                    break;
                }
                Flow::Call(target) if target == next => {} // reads the program counter
                Flow::Call(target) => {
                    last_is_call = true;
                    if prog.never_returns(target) {
                        pending.push(exit(EdgeKind::NoReturn));
                        last = BlockEnd::Call;
                        break;
                    }
                }
                Flow::IndirectCall => last_is_call = true,
                Flow::Return => {
                    pending.push(exit(EdgeKind::Return));
                    last = BlockEnd::Return;
                    break;
                }
                Flow::Trap => {
                    pending.push(exit(EdgeKind::Trap));
                    last = BlockEnd::Trap;
                    break;
                }
            }
            cur = next;
        }
        // A returning call followed by a block start (or by code that cannot
        // be followed) ends the block as a call.
        let last = match (last, last_is_call) {
            (BlockEnd::FallThrough | BlockEnd::CodeEnd, true) => BlockEnd::Call,
            (l, _) => l,
        };
        let b = BlockIx(self.blocks.len() as u32);
        let insn_lo = self.insn_offs.len() as u32;
        self.insn_offs.extend(insns.iter().map(|&i| (i - a) as u32));
        self.blocks.push(Block {
            start: a,
            len: (end - a) as u32,
            insn_lo,
            insn_hi: self.insn_offs.len() as u32,
            out: OutEdges::EMPTY,
            last,
        });
        self.index_start(b);
        Ok(b)
    }

    /// Turn pending edges into edges, in the order they were found.
    fn resolve(&mut self, pending: Vec<Pending>) {
        for p in pending {
            let from = self
                .block_containing(p.src)
                .expect("the source instruction was decoded");
            let (to, kind) = match p.target {
                None => (EdgeTarget::Exit, p.kind),
                Some(t) => match self.block_at(t) {
                    Some(b) => (EdgeTarget::Block(b), p.kind),
                    None => (EdgeTarget::Exit, EdgeKind::CodeEnd),
                },
            };
            self.push_edge(from, to, kind);
        }
    }

    /// Classify every edge by a depth-first search from the entry (then
    /// from any block left unvisited, in index order): an edge to a block on
    /// the search stack is a back edge. Back edges get ENTRY successors in
    /// edge order.
    fn classify_dfs(&mut self) {
        const WHITE: u8 = 0;
        const GRAY: u8 = 1;
        const BLACK: u8 = 2;
        let n = self.blocks.len();
        let mut color = vec![WHITE; n];
        let mut stack: Vec<(BlockIx, usize)> = Vec::new();
        let roots = std::iter::once(self.entry_block).chain((0..n as u32).map(BlockIx));
        for root in roots {
            if color[root.index()] != WHITE {
                continue;
            }
            color[root.index()] = GRAY;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                let out = self.blocks[v.index()].out();
                if *i == out.len() {
                    color[v.index()] = BLACK;
                    stack.pop();
                    continue;
                }
                let e = out[*i];
                *i += 1;
                if let EdgeTarget::Block(w) = self.edges[e.index()].to() {
                    match color[w.index()] {
                        GRAY => self.edges[e.index()].back = true,
                        WHITE => {
                            color[w.index()] = GRAY;
                            stack.push((w, 0));
                        }
                        _ => {}
                    }
                }
            }
        }
        for i in 0..self.edges.len() {
            if self.edges[i].back {
                self.starts.push(Start::AfterBackEdge(EdgeIx(i as u32)));
                self.edges[i].start = self.starts.len() as u32 - 1;
            }
        }
        self.classified = self.edges.len();
    }

    /// Classify the edges added since the last classification, in index
    /// order: an edge is a back edge iff its target reaches its source over
    /// forward edges classified before it. Earlier classifications stand.
    fn classify_new(&mut self) {
        for i in self.classified..self.edges.len() {
            let EdgeTarget::Block(to) = self.edges[i].to() else {
                continue;
            };
            if self.reaches(to, self.edges[i].from, i) {
                self.edges[i].back = true;
                self.starts.push(Start::AfterBackEdge(EdgeIx(i as u32)));
                self.edges[i].start = self.starts.len() as u32 - 1;
            }
        }
        self.classified = self.edges.len();
    }

    /// Does `from` reach `to` over forward edges with index below `limit`?
    fn reaches(&self, from: BlockIx, to: BlockIx, limit: usize) -> bool {
        let mut seen = vec![false; self.blocks.len()];
        let mut stack = vec![from];
        seen[from.index()] = true;
        while let Some(v) = stack.pop() {
            if v == to {
                return true;
            }
            for &e in self.blocks[v.index()].out() {
                let edge = &self.edges[e.index()];
                if e.index() >= limit || edge.back {
                    continue;
                }
                if let EdgeTarget::Block(w) = edge.to() {
                    if !seen[w.index()] {
                        seen[w.index()] = true;
                        stack.push(w);
                    }
                }
            }
        }
        false
    }
}

/// Builds a [`Cfg`] by hand, for tests and for owners that know a graph
/// from elsewhere. Every instruction is one byte long: a block of `n`
/// instructions at `s` covers `[s, s + n)`.
#[derive(Debug)]
pub struct CfgBuilder {
    cfg: Cfg,
    error: Option<&'static str>,
}

impl CfgBuilder {
    /// A graph for the function entered at `entry` (a block must start there).
    pub fn new(entry: Addr) -> CfgBuilder {
        CfgBuilder {
            cfg: Cfg::empty(entry),
            error: None,
        }
    }

    /// A block of `insns` one-byte instructions at `start`.
    pub fn block(&mut self, start: Addr, insns: u32, last: BlockEnd) -> BlockIx {
        let end = start + insns as u64;
        if insns == 0 {
            self.error.get_or_insert("an empty block");
        }
        let cfg = &self.cfg;
        let overlaps = cfg.first_at_or_after(end).checked_sub(1).is_some_and(|k| {
            let b = cfg.by_start[k];
            cfg.blocks[b.index()].end() > start
        });
        if overlaps {
            self.error.get_or_insert("overlapping blocks");
        }
        let b = BlockIx(self.cfg.blocks.len() as u32);
        let insn_lo = self.cfg.insn_offs.len() as u32;
        self.cfg.insn_offs.extend(0..insns);
        self.cfg.blocks.push(Block {
            start,
            len: insns,
            insn_lo,
            insn_hi: self.cfg.insn_offs.len() as u32,
            out: OutEdges::EMPTY,
            last,
        });
        self.cfg.index_start(b);
        b
    }

    /// An edge between blocks; successor order is the order of these calls.
    pub fn edge(&mut self, from: BlockIx, to: BlockIx, kind: EdgeKind) -> EdgeIx {
        if kind.is_exit() {
            self.error
                .get_or_insert("an exit kind on an edge to a block");
        }
        self.cfg.push_edge(from, EdgeTarget::Block(to), kind)
    }

    /// An edge to EXIT.
    pub fn exit(&mut self, from: BlockIx, kind: EdgeKind) -> EdgeIx {
        if !kind.is_exit() {
            self.error.get_or_insert("a block kind on an edge to EXIT");
        }
        self.cfg.push_edge(from, EdgeTarget::Exit, kind)
    }

    /// Check the invariants and classify back edges by depth-first search.
    pub fn build(mut self) -> Result<Cfg, CfgError> {
        if let Some(what) = self.error {
            return Err(CfgError::Malformed { what });
        }
        let Some(entry) = self.cfg.block_at(self.cfg.entry) else {
            return Err(CfgError::Malformed {
                what: "no block at the entry",
            });
        };
        if self.cfg.blocks.iter().any(|b| b.out().is_empty()) {
            return Err(CfgError::Malformed {
                what: "a block without out-edges",
            });
        }
        self.cfg.entry_block = entry;
        self.cfg.classify_dfs();
        Ok(self.cfg)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Code bytes at a base address, and the function facts of a test.
    pub(crate) struct Code {
        pub base: Addr,
        pub bytes: Vec<u8>,
        pub other_functions: Vec<Addr>,
        pub noreturn: Vec<Addr>,
    }

    impl CodeSource for Code {
        fn read(&self, addr: Addr, len: usize) -> Option<&[u8]> {
            let off = addr.checked_sub(self.base)? as usize;
            let b = self.bytes.get(off..)?;
            Some(&b[..len.min(b.len())])
        }
    }

    impl FunctionBounds for Code {
        fn leaves_function(&self, _func: Addr, target: Addr) -> bool {
            self.other_functions.contains(&target)
                || target < self.base
                || target >= self.base + self.bytes.len() as u64
        }
        fn never_returns(&self, callee: Addr) -> bool {
            self.noreturn.contains(&callee)
        }
    }

    /// A tiny function, assembled by `as` (x86-64, AT&T syntax):
    ///
    /// ```text
    /// 1000: 31 c0                 xor    %eax,%eax
    /// 1002: 85 ff                 test   %edi,%edi
    /// 1004: 7e 11                 jle    1017 <done>
    /// 1006: 01 f8            L:   add    %edi,%eax
    /// 1008: e8 f3 0f 00 00        call   2000 <g>
    /// 100d: ff cf                 dec    %edi
    /// 100f: 75 f5                 jne    1006 <L>
    /// 1011: 85 c0                 test   %eax,%eax
    /// 1013: 78 03                 js     1018 <fail>
    /// 1015: ff e2                 jmp    *%rdx
    /// 1017: c3              done: ret
    /// 1018: e8 e3 1f 00 00  fail: call   3000 <abort>
    /// 101d: 0f 0b                 ud2
    /// ```
    pub(crate) fn tiny() -> Code {
        Code {
            base: 0x1000,
            bytes: vec![
                0x31, 0xc0, 0x85, 0xff, 0x7e, 0x11, 0x01, 0xf8, 0xe8, 0xf3, 0x0f, 0x00, 0x00, 0xff,
                0xcf, 0x75, 0xf5, 0x85, 0xc0, 0x78, 0x03, 0xff, 0xe2, 0xc3, 0xe8, 0xe3, 0x1f, 0x00,
                0x00, 0x0f, 0x0b,
            ],
            other_functions: vec![0x2000, 0x3000],
            noreturn: vec![0x3000],
        }
    }

    fn kinds(cfg: &Cfg, b: BlockIx) -> Vec<(Option<Addr>, EdgeKind)> {
        cfg.block(b)
            .out()
            .iter()
            .map(|&e| {
                let edge = cfg.edge(e);
                let to = match edge.to() {
                    EdgeTarget::Block(t) => Some(cfg.block(t).start()),
                    EdgeTarget::Exit => None,
                };
                (to, edge.kind())
            })
            .collect()
    }

    #[test]
    fn discovers_a_tiny_function_from_bytes() {
        let code = tiny();
        let cfg = Cfg::discover(0x1000, &code).unwrap();
        let starts: Vec<Addr> = cfg.by_start.iter().map(|b| cfg.block(*b).start()).collect();
        assert_eq!(starts, vec![0x1000, 0x1006, 0x1011, 0x1015, 0x1017, 0x1018]);
        let at = |a| cfg.block_at(a).unwrap();
        assert_eq!(cfg.entry_block(), at(0x1000));
        assert_eq!(cfg.block(at(0x1000)).insn_count(), 3);
        // The call to g does not end the loop body; the one to abort ends its block.
        let addrs = |b| cfg.insn_addrs(b).collect::<Vec<_>>();
        assert_eq!(addrs(at(0x1006)), [0x1006, 0x1008, 0x100d, 0x100f]);
        assert_eq!(cfg.insn_offsets(at(0x1006)), [0, 2, 7, 9]);
        assert_eq!(addrs(at(0x1018)), [0x1018]);
        assert_eq!(cfg.block(at(0x1018)).end(), 0x101d);
        use EdgeKind::*;
        assert_eq!(
            kinds(&cfg, at(0x1000)),
            vec![(Some(0x1006), FallThrough), (Some(0x1017), Branch)]
        );
        assert_eq!(
            kinds(&cfg, at(0x1006)),
            vec![(Some(0x1011), FallThrough), (Some(0x1006), Branch)]
        );
        assert_eq!(
            kinds(&cfg, at(0x1011)),
            vec![(Some(0x1015), FallThrough), (Some(0x1018), Branch)]
        );
        assert_eq!(kinds(&cfg, at(0x1015)), vec![(None, IndirectExit)]);
        assert_eq!(kinds(&cfg, at(0x1017)), vec![(None, Return)]);
        assert_eq!(kinds(&cfg, at(0x1018)), vec![(None, NoReturn)]);
        assert_eq!(cfg.block(at(0x1015)).last(), BlockEnd::IndirectJump);
        assert_eq!(cfg.block(at(0x1018)).last(), BlockEnd::Call);
        // The self loop is the only back edge.
        let back: Vec<_> = cfg.edges().iter().filter(|e| e.is_back()).collect();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].from(), at(0x1006));
        assert_eq!(cfg.starts().len(), 2);
        // The call at 0x1008 returns and does not end its block (above);
        // the call to abort at 0x1018 ends its block at EXIT.
        assert_eq!(cfg.insn_offsets(at(0x1018)), [0]);
    }

    #[test]
    fn indirect_target_in_the_middle_of_a_block_splits_it() {
        let code = tiny();
        let mut cfg = Cfg::discover(0x1000, &code).unwrap();
        let jmp = cfg.block_at(0x1015).unwrap();
        let body = cfg.block_at(0x1006).unwrap();
        let ne = cfg.edges().len();
        // `jmp *%rdx` lands on the `dec` inside the loop body.
        let e = cfg.add_edge(jmp, 0x100d, &code).unwrap();
        assert_eq!(cfg.generation(), 1);
        let tail = cfg.block_at(0x100d).unwrap();
        assert_eq!(cfg.edge(e).to(), EdgeTarget::Block(tail));
        assert_eq!(cfg.edge(e).kind(), EdgeKind::Indirect);
        assert_eq!(cfg.block(body).end(), 0x100d);
        assert_eq!(cfg.block(body).insn_count(), 2);
        assert_eq!(cfg.insn_addrs(tail).collect::<Vec<_>>(), [0x100d, 0x100f]);
        assert_eq!(cfg.insn_addrs(body).collect::<Vec<_>>(), [0x1006, 0x1008]);
        assert_eq!(cfg.count_insns(tail, 0x100f, 0x1011), Some(1));
        assert_eq!(cfg.count_insns(body, 0x1008, 0x100d), Some(1));
        assert_eq!(cfg.count_insns(body, 0x1006, 0x1007), None);
        // The body's old edges moved to the tail; the old back edge stays one.
        assert_eq!(
            kinds(&cfg, body),
            vec![(Some(0x100d), EdgeKind::FallThrough)]
        );
        assert_eq!(
            kinds(&cfg, tail),
            vec![
                (Some(0x1011), EdgeKind::FallThrough),
                (Some(0x1006), EdgeKind::Branch)
            ]
        );
        let back: Vec<EdgeIx> = (0..cfg.edges().len() as u32)
            .map(EdgeIx)
            .filter(|&e| cfg.edge(e).is_back())
            .collect();
        assert_eq!(
            back.len(),
            2,
            "the new edge closes a cycle tail → 0x1011 → jmp → tail"
        );
        assert!(back
            .iter()
            .any(|&b| b.index() < ne && cfg.edge(b).from() == tail));
        assert!(cfg.edge(e).is_back());
        // Adding it again changes nothing.
        assert_eq!(cfg.add_edge(jmp, 0x100d, &code).unwrap(), e);
        assert_eq!(cfg.generation(), 1);
        // Inside an instruction: refused, graph unchanged.
        assert_eq!(
            cfg.add_edge(jmp, 0x100e, &code),
            Err(CfgError::MidInstruction { addr: 0x100e })
        );
        assert_eq!(cfg.generation(), 1);
    }

    #[test]
    fn noreturn_call_that_returns_gains_its_fall_through() {
        let code = tiny();
        let mut cfg = Cfg::discover(0x1000, &code).unwrap();
        let fail = cfg.block_at(0x1018).unwrap();
        let e = cfg.add_edge(fail, 0x101d, &code).unwrap();
        assert_eq!(cfg.edge(e).kind(), EdgeKind::FallThrough);
        let ud2 = cfg.block_at(0x101d).unwrap();
        assert_eq!(kinds(&cfg, ud2), vec![(None, EdgeKind::Trap)]);
    }

    #[test]
    fn fall_out_and_overlapping_code_end_at_exit() {
        // 1000: call 2000 (returns), and 1005 is another function's entry.
        let code = Code {
            base: 0x1000,
            bytes: vec![0xe8, 0xfb, 0x0f, 0x00, 0x00, 0xc3],
            other_functions: vec![0x1005, 0x2000],
            noreturn: vec![],
        };
        let cfg = Cfg::discover(0x1000, &code).unwrap();
        assert_eq!(cfg.blocks().len(), 1);
        assert_eq!(kinds(&cfg, BlockIx(0)), vec![(None, EdgeKind::FallOut)]);
        assert_eq!(cfg.block(BlockIx(0)).last(), BlockEnd::Call);
        // 1000: je 1005; 1002: mov $0x909090c3,%eax; 1007: ret. The branch
        // target is inside the `mov`: decoded first, it leaves the
        // fall-through no room.
        let code = Code {
            base: 0x1000,
            bytes: vec![0x74, 0x03, 0xb8, 0xc3, 0x90, 0x90, 0x90, 0xc3],
            other_functions: vec![],
            noreturn: vec![],
        };
        let mut cfg = Cfg::discover(0x1000, &code).unwrap();
        assert_eq!(
            kinds(&cfg, BlockIx(0)),
            vec![(None, EdgeKind::CodeEnd), (Some(0x1005), EdgeKind::Branch)]
        );
        assert_eq!(
            cfg.insn_addrs(cfg.block_at(0x1005).unwrap())
                .collect::<Vec<_>>(),
            [0x1005, 0x1006, 0x1007]
        );
        assert_eq!(
            cfg.add_edge(BlockIx(0), 0x1002, &code),
            Err(CfgError::Overlap { addr: 0x1002 })
        );
        assert_eq!(
            Cfg::discover(0x0fff, &code).unwrap_err(),
            CfgError::Unreadable { addr: 0x0fff }
        );
    }

    #[test]
    fn builder_rejects_malformed_graphs() {
        let mut b = CfgBuilder::new(0);
        let a = b.block(0, 2, BlockEnd::FallThrough);
        b.block(1, 2, BlockEnd::Return);
        b.exit(a, EdgeKind::Return);
        assert_eq!(
            b.build().unwrap_err(),
            CfgError::Malformed {
                what: "overlapping blocks"
            }
        );
        let mut b = CfgBuilder::new(0);
        b.block(0, 2, BlockEnd::FallThrough);
        assert!(b.build().is_err());
    }
}
