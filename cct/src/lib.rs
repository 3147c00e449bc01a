//! Calling contexts: shadow stacks per guest thread and the calling context
//! tree (CCT) they build.
//!
//! This crate owns the call-path side of a profile: [`CallTracker`] consumes
//! the VM's block stream (an [`events::Observer`]), keeps one [`ShadowStack`]
//! per guest thread, and charges every block to a node of one shared [`Cct`]
//! (Ammons, Ball, Larus 1997): flat columns indexed by [`NodeId`], parents
//! before children, self metrics `n_metrics` `u64`s per node, inclusive
//! metrics by one reverse pass.
//!
//! It never does I/O and never links the emulator or reads ELF: functions come
//! from a [`FunctionIndex`] its owner implements (from symbols, on the VM
//! side), so every rule here is tested on hand-made event sequences.
//!
//! # The frame-popping rule
//!
//! A frame records the stack pointer at its function's entry, which points at
//! the return address the `call` pushed. The frame is over exactly when the
//! stack pointer rises above that value: the return address has been
//! consumed. So after any block whose terminator can move frames
//! ([`events::Terminator::moves_frames`]), every frame whose `sp` is below the
//! new block's `sp` is popped, *before* the new block is charged. One rule then
//! covers a normal `ret`, a `ret` to an unexpected place (C++ unwinding
//! installs the handler's context with its stack pointer), `longjmp` and
//! `siglongjmp` (an indirect jump whose stack pointer lands above several
//! frames), and leaving a signal handler by a non-local exit: no phantom
//! frames survive, and no frame is popped early. This is csprof's rule for
//! non-local exits (Froyd et al., 2.5.3), applied at every transfer instead of
//! at intercepted library calls. The return address itself decides nothing:
//! programs do overwrite it.
//!
//! Other transfers:
//! - `call`/indirect call: push a frame for the function at the new block
//!   (call site = the call instruction, `sp` = the new block's). A `call` to
//!   the next instruction (reading the program counter) is not a call.
//! - a jump (or taken conditional branch) to another function's entry is a
//!   tail call: the callee becomes a child of the tail-caller's node, flagged
//!   [`NodeFlags::TAIL_CALL`], in a frame with the tail-caller's `sp`, so the
//!   one `ret` ends both. Jumps within a function, to its own entry, or into
//!   the middle of another function are not calls; a tail call back to a
//!   function whose frame shares the `sp` returns to that frame (a loop of
//!   tail calls), which keeps the stack bounded.
//! - a call to a PLT stub shows as one level (caller → real function): the
//!   stub, and the dynamic linker's lazy resolver it may jump to, run in a
//!   hidden frame charged to the caller until the jump out names the callee;
//!   [`TrackerConfig::show_plt`] shows them as functions instead.
//! - signal handlers ([`CallTracker::signal_enter`], `signal_return`) are
//!   children of the interrupted context, flagged [`NodeFlags::SIGNAL`]. The
//!   interrupted block's terminator is kept with the signal and applies again
//!   after `rt_sigreturn` (a signal between a `call` and its target's first
//!   block must not lose the call); a non-local exit out of the handler pops
//!   the signal frame like any other.
//!
//! Every block's instructions go to [`INSTRUCTIONS`] of the node on top of the
//! current thread's stack, after the transfer into it was applied; each
//! further iteration of a `rep` string instruction counts one more (as
//! valgrind's `Ir`). So the root's inclusive is the run's instruction count.
//! Other metric sources add to [`CallTracker::current_node`] through
//! [`CallTracker::add_metric`].
//!
//! Recursion ([`RecursionPolicy`]): `Full` keeps a node per level, and a
//! recursive call enters its caller's one child for the callee whatever the
//! call site, so recursion with several call sites (merge sort, `fib`) grows
//! the tree by its depth, not by its number of calls; `Collapse` folds it
//! onto the first level (Ammons et al., 4.2).
//!
//! All threads share one tree: the root's children are the functions threads
//! started in (`_start`, and `clone` for the threads it makes), one per
//! thread: its key's call site is the tid ([`NodeFlags::THREAD_ROOT`]), so a
//! thread's costs are its root's inclusive costs. Calls into
//! code without a symbol get a synthetic function per entry address
//! ([`FuncId::FIRST_SYNTHETIC`] and up), kept by the tracker.
//!
//! The tracker is the one owner of frames. Consumers that keep state per
//! frame (the path tracker, `--toggle-collect`) do not compare stacks:
//! they replay the [`FrameEvent`]s the tracker records when asked
//! ([`CallTracker::set_frame_events`]): each push with its frame (function,
//! node, whether it is hidden) and each pop with why ([`LeaveReason`]). What
//! a block's start is to the frames is one rule, [`BlockStart::of`], which
//! the tracker applies, and a consumer without the frames (the VM's thread
//! of a sparse run, finding the blocks to report) applies with
//! [`may_start_function`].
//!
//! Known limits: the rule assumes one downward-growing stack per thread, so
//! a signal handler on an alternate stack placed *above* the interrupted
//! stack, or user-level stack switching (coroutines), looks like a non-local
//! exit. A call made as `push ret; jmp f` shows as a tail call whose frame
//! lasts until the enclosing `ret`.

#![forbid(unsafe_code)]

mod index;
mod threads;
mod tracker;
mod tree;

pub use index::{may_start_function, BlockStart, FunctionIndex};
pub use threads::PerThread;
pub use tracker::{
    CallTracker, Frame, FrameEvent, FrameKind, LeaveReason, RecursionPolicy, ShadowStack,
    TrackerConfig, TrackerCounters, TrackerParts, DEFAULT_MAX_CONTEXTS, DEFAULT_MAX_DEPTH,
};
pub use tree::{Cct, CctStats, FuncId, NodeFlags, NodeId, INSTRUCTIONS, NO_CALL_SITE};
