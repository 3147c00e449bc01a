//! Ball-Larus path profiles on control-flow graphs discovered from the
//! binary, with metrics per path and per context (Ammons, Ball, Larus 1997,
//! "Exploiting hardware performance counters with flow and context
//! sensitive profiling", sections 2 and 3).
//!
//! This crate owns:
//! - [`Cfg`]: one function's control-flow graph, discovered from its code
//!   bytes with iced-x86 from the entry ([`Cfg::discover`]) and grown while
//!   the program runs ([`Cfg::add_edge`], [`Cfg::add_entry`]);
//! - [`Numbering`]: the Ball-Larus numbering of a graph: `NP`, `Val`,
//!   decoding of path ids back to their blocks;
//! - [`PathTracker`]: path registers per active frame, fed with executed
//!   translation blocks, and per-function [`PathTable`]s of path counts,
//!   instructions and metric sums, per context.
//!
//! It never does I/O, never links the emulator and never reads ELF: code
//! bytes come through [`CodeSource`], what the code cannot say (where
//! functions start, which callees never return) through [`FunctionBounds`],
//! and frames from the owner's `enter`/`leave` calls (its calling-context
//! tracker decides what a call is). So everything here is tested on
//! hand-built graphs and hand-assembled bytes.
//!
//! # The graph
//!
//! Calls do not end blocks (a path's instructions are its own, exclusive of
//! callees, as in PP), except a call right before a block start or code
//! that cannot be followed, and one that never returns. `ret`, jumps and
//! branches to another function (tail calls), indirect jumps, calls that
//! never return, traps and code that cannot be followed end paths at EXIT.
//! An indirect jump keeps its EXIT edge (it may be a tail call) and gains an
//! edge per target seen. The executed translation blocks do not match basic
//! blocks: the tracker maps each onto the blocks it covers, fall-through by
//! fall-through, and a block executed in pieces (the VM cuts at every call)
//! is one block. See `cfg.rs` for the invariants every change keeps.
//!
//! # The numbering scheme
//!
//! ENTRY's successors are, in this order: the entry block, then the target
//! of each back edge (the START pseudo-edge, in edge order), then resume
//! points as they appear. Back edges are found by a depth-first search from
//! the entry, so irreducible graphs work; each is replaced by `v→EXIT` (END)
//! and `ENTRY→w` (START) and the graph is acyclic. Successors are ordered as
//! the block lists them: fall-through before taken branch, run-time targets
//! in the order seen; parallel edges (two switch cases to one target, two
//! back edges into one header, a branch to its own fall-through) are
//! distinct. `NP` and `Val` are computed in reverse topological order, so
//! the paths have the ids `0..NP(ENTRY)`, one each. At run time
//! `r += Val(e)` on each edge, `count[r + END]++; r = START` at a back edge,
//! `count[r + Val(exit edge)]++` when the frame leaves. If `NP(ENTRY)`
//! overflows `u64` or exceeds [`DEFAULT_MAX_PATHS`] (2^53: ids stay exact as
//! JSON numbers), the function falls back to interning: each path is its
//! edge sequence and its id the sequence's index ([`PathMode::Interned`],
//! which reports must show).
//!
//! # The generation rule
//!
//! A graph only grows: blocks split, edges and resume points are added,
//! nothing is removed, and an edge once classified back or forward stays so
//! (later edges are back edges iff they close a cycle of forward edges).
//! Hence every path of one generation is a path of the next, with the
//! fall-through edges of split blocks inserted ([`Cfg::respell`]). On each
//! change the function is renumbered at once and everything recorded so far
//! (table rows, and the registers of open frames, on every thread) is
//! decoded with the old numbering, respelled and encoded with the new one.
//! So at any moment all of a function's ids are in its current numbering,
//! and [`FunctionPaths::decode_path`] decodes any id in a report. Changes
//! are rare (the first run of each indirect-jump target), so their cost,
//! linear in the rows and open frames of that function, does not matter.
//!
//! # Tracking rules
//!
//! - A frame's first block starts the path at ENTRY if it is the entry;
//!   elsewhere (a call into the middle of a function) it is a resume point.
//! - After a call inside a block, the next block of the frame continues the
//!   block at the return address. Anywhere else (an exception's landing pad,
//!   a `setjmp` return) the open path ends truncated and a new one begins at
//!   a resume point there.
//! - At the end of a block, the edge to the next block's address is taken;
//!   if the graph has none, it is added ([`Cfg::add_edge`]): an indirect
//!   jump's target, or a call believed not to return that did.
//! - When a frame leaves, its path is complete if its last instruction ended
//!   a block with an edge to EXIT; otherwise it is truncated (a non-local
//!   exit, or the end of the run: [`PathTracker::finish`]). Truncated rows
//!   are kept apart ([`PathEnd::Truncated`]) and decode to the prefix run.
//! - Code that cannot be followed (a jump inside a known instruction,
//!   unreadable code) truncates the path and gives up the frame; its blocks
//!   are counted in [`FunctionCounters::lost_blocks`].
//!
//! Known limits: parallel edges are told apart in the numbering but not at
//! run time (the address reached is the same), so the first of them is
//! credited. A fall-through into another function's entry at run time is
//! followed as part of the function it left.

#![forbid(unsafe_code)]

mod cfg;
mod numbering;
mod table;
mod tracker;

pub use cfg::{
    Block, BlockEnd, BlockIx, Cfg, CfgBuilder, CfgError, CodeSource, Edge, EdgeIx, EdgeKind,
    EdgeTarget, FunctionBounds, Start, StartIx, Step,
};
pub use numbering::{EdgeVal, Numbering, NumberingError, DEFAULT_MAX_PATHS};
pub use table::{PathCost, PathEnd, PathId, PathRow, PathTable, ALL_METRICS, METRICS};
pub use tracker::{FunctionCounters, FunctionPaths, PathConfig, PathMode, PathTracker};
