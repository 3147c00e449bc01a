//! The vocabulary between the VM and the analyses.
//!
//! The VM (`vm/`) decodes every translation block it meets once into
//! [`BlockFacts`] and then reports execution as a stream of small `Copy`
//! events to an [`Observer`] (static dispatch: the VM is generic over it).
//! The analysis crates (`cct/`, `pathprof/`, `cachemodel/`) depend on this
//! crate only: they never link the emulator and never do I/O, so they can be
//! driven by hand-made event sequences in unit tests.
//!
//! Invariants the VM guarantees:
//! - a [`BlockId`] is dense (0, 1, 2, ...) and names one `(start, len)` pair
//!   of guest code for the whole run; the facts of an id never change. If the
//!   guest rewrites or unmaps code, new blocks get new ids.
//! - [`Observer::block_decoded`] is called for an id before the first
//!   [`Observer::block`] that names it.
//! - blocks of one guest thread are reported in execution order; a
//!   [`Observer::thread_switch`] comes before the first block of another thread.
//! - a `rep`-prefixed string instruction is reported once per execution (the
//!   block that reaches it), and each further iteration of it as
//!   [`Observer::rep_iteration`].
//! - a signal delivered to a guest handler is reported as
//!   [`Observer::signal_delivered`] between the last block before it and the
//!   handler's first block; `rt_sigreturn` as [`Observer::signal_returned`]
//!   after the block that called it.

#![forbid(unsafe_code)]

pub mod metric;
pub mod pipe;

pub use metric::{Costs, CycleModel, Metric, UnknownMetric};

use std::sync::Arc;

/// A guest virtual address.
pub type Addr = u64;

/// Dense index of a decoded block (see the crate invariants).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// The index as `usize`, for flat per-block arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A guest thread id as the guest sees it (the main thread has the pid).
pub type Tid = u32;

/// How a block ends: the control transfer of its last instruction.
///
/// Targets are absolute guest addresses. The fall-through address of a block
/// is `start + len` ([`BlockFacts::end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terminator {
    /// The block ended without a control transfer (the translator's size
    /// limit, a page boundary, or the next instruction is a jump target).
    FallThrough,
    /// Conditional direct branch (`jcc`, `loop`, `jrcxz`); not taken falls through.
    CondBranch { target: Addr },
    /// Direct unconditional jump.
    Jump { target: Addr },
    /// Jump through a register or memory (switch tables, `longjmp`, PLT stubs).
    IndirectJump,
    /// Direct call; returns to `end`.
    Call { target: Addr },
    /// Call through a register or memory; returns to `end`.
    IndirectCall,
    /// `ret` / `ret imm16`.
    Return,
    /// `syscall`; execution continues at `end` unless the call does not return
    /// (exit, execve, rt_sigreturn).
    Syscall,
    /// A `rep`-prefixed string instruction ends the block; it may run again
    /// (see [`Observer::rep_iteration`]) before execution goes on at `end`.
    RepString,
    /// An instruction that stops or traps (`hlt`, `ud2`, `int3`, `int n`).
    Trap,
}

/// How a block ends: what a call tracker needs of the block before the next
/// one. The VM keeps it beside each block's sparse counters, so that the
/// blocks run without events are reported without reading their facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockExit {
    /// Address of its last instruction (a call's call site).
    pub last_insn: Addr,
    /// Address just past it (a call's return address, the fall-through).
    pub end: Addr,
    pub terminator: Terminator,
}

impl Terminator {
    /// True for the terminators after which the stack of frames may differ.
    #[inline]
    pub fn moves_frames(self) -> bool {
        matches!(
            self,
            Terminator::Call { .. }
                | Terminator::IndirectCall
                | Terminator::Return
                | Terminator::IndirectJump
                | Terminator::Jump { .. }
                | Terminator::Syscall
                | Terminator::Trap
        )
    }
}

impl Terminator {
    /// True for the terminators after which the next block's stack pointer
    /// is read (see [`BlockEvent::sp`]): the transfers that can push, pop or
    /// discard frames. A direct jump cannot pop a frame (its stack pointer is
    /// the one the block ends with), so it is not among them.
    #[inline]
    pub fn needs_sp(self) -> bool {
        matches!(
            self,
            Terminator::Call { .. }
                | Terminator::IndirectCall
                | Terminator::Return
                | Terminator::IndirectJump
                | Terminator::Syscall
                | Terminator::Trap
        )
    }
}

/// What kind of memory access an instruction makes through one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    Load,
    Store,
    /// Read-modify-write of the same location (`add [m], r`, `inc [m]`, `xchg`).
    Modify,
}

/// One instruction of a block, as decoded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsnFacts {
    /// Offset of the instruction from the block start.
    pub offset: u32,
    /// Encoded length in bytes (1..=15; 19 for valgrind's client request,
    /// one instruction as valgrind counts it: see [`BlockFacts::client_request`]).
    pub len: u8,
    /// Number of explicit memory operands that load (including `Modify`).
    pub loads: u8,
    /// Number of explicit memory operands that store (including `Modify`).
    pub stores: u8,
    /// True for conditional branches, jumps, calls and returns.
    pub is_branch: bool,
}

/// Everything about a block that depends only on its code, computed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockFacts {
    /// Address of the first instruction.
    pub start: Addr,
    /// Length in bytes.
    pub len: u32,
    /// Offset of the last instruction (kept here, beside `len`, so that
    /// the call site of a block is known without reading `insns`).
    last: u32,
    /// The instructions, in order; never empty.
    pub insns: Box<[InsnFacts]>,
    /// How the block ends.
    pub terminator: Terminator,
    /// The block ends with a valgrind client request (`valgrind.h`'s
    /// preamble and `xchg rbx, rbx`, one instruction of 19 bytes): the VM
    /// answers it after the block and may report a [`Marker::Callgrind`]
    /// then, which applies from the start of this block (see
    /// [`CallgrindRequest`]).
    pub client_request: bool,
}

impl BlockFacts {
    /// A block of `len` bytes at `start`.
    pub fn new(
        start: Addr,
        len: u32,
        insns: Box<[InsnFacts]>,
        terminator: Terminator,
    ) -> BlockFacts {
        let last = insns.last().map_or(0, |i| i.offset);
        BlockFacts {
            start,
            len,
            last,
            insns,
            terminator,
            client_request: false,
        }
    }

    /// The same block, ending with a valgrind client request or not.
    pub fn with_client_request(mut self, yes: bool) -> BlockFacts {
        self.client_request = yes;
        self
    }

    /// Address just past the last instruction: the fall-through and return address.
    #[inline]
    pub fn end(&self) -> Addr {
        self.start + self.len as u64
    }

    /// Number of instructions.
    #[inline]
    pub fn insn_count(&self) -> u32 {
        self.insns.len() as u32
    }

    /// Address of the last instruction (the call site of a call block).
    #[inline]
    pub fn last_insn_addr(&self) -> Addr {
        self.start + self.last as u64
    }

    /// How the block ends.
    #[inline]
    pub fn exit(&self) -> BlockExit {
        BlockExit {
            last_insn: self.last_insn_addr(),
            end: self.end(),
            terminator: self.terminator,
        }
    }

    /// Guest address of instruction `i`.
    #[inline]
    pub fn insn_addr(&self, i: usize) -> Addr {
        self.start + self.insns[i].offset as u64
    }
}

/// A block began executing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEvent {
    pub id: BlockId,
    /// The guest stack pointer at block entry: exact at a thread's first
    /// block and after every block whose terminator [`Terminator::needs_sp`];
    /// elsewhere the last value read (reading it costs more than the rest of
    /// the event).
    pub sp: Addr,
}

/// One guest data access (only when [`Observer::wants_memory`] is true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemEvent {
    pub addr: Addr,
    pub size: u8,
    pub is_store: bool,
    /// The address of the instruction that made the access (0 when not
    /// known: an access by a helper given no return address).
    pub pc: Addr,
}

/// An object (executable, interpreter, library) mapped executable into the guest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectMapped {
    /// Host path of the file.
    pub path: String,
    /// Lowest mapped guest address of the object.
    pub base: Addr,
    /// Load bias: guest address minus the ELF virtual address.
    pub bias: Addr,
}

/// A region marker the guest set with `include/pathvm.h` (callgrind's
/// client requests, as system calls).
///
/// A marker is a `syscall` instruction with `rax` = [`marker::SYSCALL_BASE`]
/// plus an operation number (and, for a phase, `rdi` = the address of its
/// NUL-terminated name). Linux implements no such number, so natively the
/// call returns `-ENOSYS` and does nothing; the VM reports it instead and
/// returns `-ENOSYS` too, so the guest sees the same result either way.
/// Since the block that ends in the `syscall` was reported before the
/// marker, every cost of the instructions up to and including the marker's
/// `syscall` comes before it, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker<'a> {
    /// `PATHVM_START()`: count again after a stop.
    Start,
    /// `PATHVM_STOP()`: stop counting costs.
    Stop,
    /// `PATHVM_ZERO()`: discard every cost counted so far.
    Zero,
    /// `PATHVM_PHASE(name)`: from here on, costs belong to the phase `name`.
    Phase(&'a str),
    /// A callgrind client request (`valgrind/callgrind.h`), reported after
    /// the block that ends with it ([`BlockFacts::client_request`]).
    Callgrind(CallgrindRequest<'a>),
}

/// The client requests of callgrind (`valgrind/callgrind.h`), as the VM
/// reads them from the guest. What each does to the counts is the
/// recorder's to decide; as in callgrind, every one but
/// `StartInstrumentation` applies from the start of the block that ends
/// with it (callgrind adds a block's costs when the next block starts, so
/// the request sees them as not yet counted), and `StartInstrumentation`
/// from the next block on (its own block ran uninstrumented).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallgrindRequest<'a> {
    /// `CALLGRIND_DUMP_STATS`: the costs since the last dump are a part.
    DumpStats,
    /// `CALLGRIND_ZERO_STATS`: discard the costs since the last dump.
    ZeroStats,
    /// `CALLGRIND_TOGGLE_COLLECT`: collect costs or stop collecting.
    ToggleCollect,
    /// `CALLGRIND_DUMP_STATS_AT(name)`: as `DumpStats`, the part named.
    DumpStatsAt(&'a str),
    /// `CALLGRIND_START_INSTRUMENTATION`.
    StartInstrumentation,
    /// `CALLGRIND_STOP_INSTRUMENTATION`.
    StopInstrumentation,
}

/// The system call numbers of [`Marker`]s (`include/pathvm.h` repeats them).
pub mod marker {
    /// `rax` of the first marker (bytes `0x50 0x41`: "PA"), far above any
    /// Linux system call number, without the x32 bit (`0x4000_0000`).
    pub const SYSCALL_BASE: u64 = 0x0050_4100;
    /// `rax` = base + 0: [`super::Marker::Start`].
    pub const START: u64 = 0;
    /// `rax` = base + 1: [`super::Marker::Stop`].
    pub const STOP: u64 = 1;
    /// `rax` = base + 2: [`super::Marker::Zero`].
    pub const ZERO: u64 = 2;
    /// `rax` = base + 3, `rdi` = name: [`super::Marker::Phase`].
    pub const PHASE: u64 = 3;
    /// The longest phase name read from the guest, in bytes.
    pub const MAX_NAME: usize = 256;

    /// valgrind's client requests (`valgrind.h`): the request block's first
    /// word for `RUNNING_ON_VALGRIND`.
    pub const VALGRIND_RUNNING: u64 = 0x1001;
    /// The first of callgrind's requests (`'C' << 24 | 'T' << 16`), in the
    /// order of [`super::CallgrindRequest`]'s variants.
    pub const CALLGRIND_BASE: u64 = 0x4354_0000;

    /// The operation of a system call number, if it is a marker.
    pub fn op(nr: u64) -> Option<u64> {
        nr.checked_sub(SYSCALL_BASE).filter(|&op| op <= PHASE)
    }
}

/// A filter the VM may put in front of [`Observer::mem`], in translated
/// code, for an observer that simulates an L1 data cache: an access within
/// one line whose line is the most recently used way of its set is a hit
/// that changes nothing in the model. Such an access is not reported; the
/// VM adds one to `counts[0]` (a load) or `counts[1]` (a store) instead,
/// and the observer takes those counts as its own.
///
/// The observer that hands out a filter promises that both pointers stay
/// valid, and `ways` at the same address, until the run ends; that `ways`
/// holds line numbers (`address >> line_bits`, never `u64::MAX` for a valid
/// one), `1 << assoc_log2` per set and the most recently used first, so
/// set `s` starts at `ways[s << assoc_log2]`; and that `counts` are cells
/// (atomics, say) that allow writes through that pointer while the
/// observer is borrowed elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemFilter {
    pub ways: *const u64,
    pub set_mask: u64,
    pub line_bits: u32,
    pub assoc_log2: u32,
    pub counts: *mut [u64; 2],
}

/// The consumer of the event stream. Every method has an empty default, so
/// an analysis implements only what it needs.
pub trait Observer {
    /// Whether the VM must install memory hooks and call [`Observer::mem`].
    /// Asked once, before the run starts.
    fn wants_memory(&self) -> bool {
        false
    }
    /// A filter for the VM to put in front of [`Observer::mem`] (see
    /// [`MemFilter`]); asked once, before the run starts, when
    /// [`Observer::wants_memory`] is true.
    fn mem_filter(&mut self) -> Option<MemFilter> {
        None
    }
    /// A block was decoded for the first time.
    fn block_decoded(&mut self, _id: BlockId, _facts: &BlockFacts) {}
    /// [`Observer::block_decoded`], with the facts as the VM keeps them (an
    /// observer that hands them to another thread keeps the `Arc`).
    fn block_decoded_shared(&mut self, id: BlockId, facts: &Arc<BlockFacts>) {
        self.block_decoded(id, facts);
    }
    /// Whether the VM must read the first three integer arguments (`rdi`,
    /// `rsi`, `rdx`) each time block `id` starts and report them with
    /// [`Observer::entry_args`]. Asked once per decoded block, after
    /// [`Observer::block_decoded`]; a function's entry block is the usual
    /// answer (an allocator, to read its size argument). Other blocks cost
    /// nothing more.
    fn watch_entry(&mut self, _id: BlockId, _facts: &BlockFacts) -> bool {
        false
    }
    /// The argument registers `[rdi, rsi, rdx]` as block `id`, a watched one,
    /// starts: reported just before its [`Observer::block`].
    fn entry_args(&mut self, _id: BlockId, _args: [u64; 3]) {}
    /// A block started executing.
    fn block(&mut self, _ev: BlockEvent, _facts: &BlockFacts) {}
    /// A further iteration of the `rep` string instruction that ends `id`.
    fn rep_iteration(&mut self, _id: BlockId) {}
    /// A guest data access, in program order, after the `block` that makes it.
    fn mem(&mut self, _ev: MemEvent) {}
    /// From now on, blocks belong to guest thread `tid`.
    fn thread_switch(&mut self, _tid: Tid) {}
    /// An object was mapped executable.
    fn object_mapped(&mut self, _obj: &ObjectMapped) {}
    /// The VM delivered `signal` to the guest handler at `handler` on the
    /// current thread, between two blocks and before the handler's first
    /// block. `sp` is the stack pointer at handler entry: it points at the
    /// return address (the signal frame's restorer).
    fn signal_delivered(&mut self, _signal: i32, _handler: Addr, _sp: Addr) {}
    /// `rt_sigreturn` restored the interrupted state of the current thread;
    /// `sp` is the restored stack pointer. Comes after the block that made the
    /// call and before the next one.
    fn signal_returned(&mut self, _sp: Addr) {}
    /// The guest set a region marker (see [`Marker`]), after the block that
    /// ends in its `syscall`.
    fn marker(&mut self, _m: Marker<'_>) {}
    /// The VM is about to fork the host process (the guest called `fork`,
    /// `vfork` or a `clone` that copies the process): only the calling
    /// thread goes on in the child, so an observer that runs threads of its
    /// own stops them here.
    fn fork_prepare(&mut self) {}
    /// The fork of [`Observer::fork_prepare`] is done (or failed); called
    /// in the parent and in the child.
    fn fork_done(&mut self) {}

    /// Whether sparse block events will do (see [`SparsePolicy`]): the VM
    /// then counts blocks in translated code and calls [`Observer::block`]
    /// only for the blocks the observer asks for, reporting the others with
    /// [`Observer::skipped`] and [`Observer::uncounted_execs`]. Asked once,
    /// before the run starts.
    fn sparse(&self) -> bool {
        false
    }
    /// In sparse mode, which executions of the decoded block `id` need a
    /// [`Observer::block`] event. Asked when the block is translated (again
    /// after each [`Observer::object_mapped`]).
    fn sparse_policy(&mut self, _id: BlockId, _facts: &BlockFacts) -> SparsePolicy {
        SparsePolicy::EVERY
    }
    /// In sparse mode: blocks ran since the last event without one of their
    /// own, `insns` instructions in all; `last` is the last of them and
    /// `exit` how it ended. They ran in the context the last event left (the
    /// policy makes sure of it).
    fn skipped(&mut self, _insns: u64, _last: BlockId, _exit: BlockExit) {}
    /// In sparse mode, the block starts that became function entries during
    /// the run, in the order found (the slice only grows): every block that
    /// starts at one of them gets events from then on, as if its policy said
    /// `every`.
    fn sparse_entries(&self) -> &[Addr] {
        &[]
    }
    /// In sparse mode, at the end of the run: block `id` also started `n`
    /// times without a [`Observer::block`] event.
    fn uncounted_execs(&mut self, _id: BlockId, _n: u64) {}
    /// In sparse mode, whether the observer takes the reports that
    /// translated code logged as [`Observer::logged`] (an observer that
    /// hands them to another thread), rather than as the
    /// [`Observer::skipped`] and [`Observer::block`] calls the VM would
    /// make of each. Asked once, before the run starts.
    fn takes_logged(&self) -> bool {
        false
    }
    /// In sparse mode, with [`Observer::takes_logged`]: a block that needed
    /// an event ran, reported from the log without the VM looking at it.
    /// It stands for `skipped(e.skipped, e.last, ..)` when `e.skipped` is
    /// not 0, then `block(BlockEvent { id: e.id, sp: e.sp }, ..)`; `e.exit`
    /// is how the block ends.
    fn logged(&mut self, _e: Logged) {}
}

/// A report that translated code logged in sparse mode
/// ([`Observer::logged`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logged {
    pub id: BlockId,
    /// Instructions run without events since the last report, and the last
    /// block of them (any block when `skipped` is 0).
    pub skipped: u64,
    pub last: BlockId,
    /// As in [`BlockEvent::sp`].
    pub sp: Addr,
    pub exit: BlockExit,
}

/// Which executions of a block need a [`Observer::block`] event in sparse
/// mode. The VM adds its own needs (`rep` string blocks, watched entries,
/// the block after a frame-moving terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparsePolicy {
    /// Every execution of the block.
    pub every: bool,
    /// The block that runs after each execution of this one.
    pub next: bool,
}

impl SparsePolicy {
    pub const EVERY: SparsePolicy = SparsePolicy {
        every: true,
        next: true,
    };
    pub const NONE: SparsePolicy = SparsePolicy {
        every: false,
        next: false,
    };
}

/// Fan the stream out to two observers (each may be a pair in turn).
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn wants_memory(&self) -> bool {
        self.0.wants_memory() || self.1.wants_memory()
    }
    /// A filter only when one side alone wants memory: the other would
    /// miss the accesses it lets through.
    fn mem_filter(&mut self) -> Option<MemFilter> {
        match (self.0.wants_memory(), self.1.wants_memory()) {
            (true, false) => self.0.mem_filter(),
            (false, true) => self.1.mem_filter(),
            _ => None,
        }
    }
    #[inline]
    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.0.block_decoded(id, facts);
        self.1.block_decoded(id, facts);
    }
    fn watch_entry(&mut self, id: BlockId, facts: &BlockFacts) -> bool {
        // Both are asked: each may keep its own answer.
        let a = self.0.watch_entry(id, facts);
        let b = self.1.watch_entry(id, facts);
        a || b
    }
    fn entry_args(&mut self, id: BlockId, args: [u64; 3]) {
        self.0.entry_args(id, args);
        self.1.entry_args(id, args);
    }
    fn block_decoded_shared(&mut self, id: BlockId, facts: &Arc<BlockFacts>) {
        self.0.block_decoded_shared(id, facts);
        self.1.block_decoded_shared(id, facts);
    }
    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        self.0.block(ev, facts);
        self.1.block(ev, facts);
    }
    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        self.0.rep_iteration(id);
        self.1.rep_iteration(id);
    }
    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        self.0.mem(ev);
        self.1.mem(ev);
    }
    fn thread_switch(&mut self, tid: Tid) {
        self.0.thread_switch(tid);
        self.1.thread_switch(tid);
    }
    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.0.object_mapped(obj);
        self.1.object_mapped(obj);
    }
    fn signal_delivered(&mut self, signal: i32, handler: Addr, sp: Addr) {
        self.0.signal_delivered(signal, handler, sp);
        self.1.signal_delivered(signal, handler, sp);
    }
    fn signal_returned(&mut self, sp: Addr) {
        self.0.signal_returned(sp);
        self.1.signal_returned(sp);
    }
    fn marker(&mut self, m: Marker<'_>) {
        self.0.marker(m);
        self.1.marker(m);
    }
    fn fork_prepare(&mut self) {
        self.0.fork_prepare();
        self.1.fork_prepare();
    }
    fn fork_done(&mut self) {
        self.0.fork_done();
        self.1.fork_done();
    }
}

/// An observer that ignores everything.
impl Observer for () {}
