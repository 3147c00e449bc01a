//! The simulated micro-architecture of pathvm: L1 instruction, L1 data and last-level
//! caches, a branch predictor, and the PMU-style metrics they count.
//!
//! # What it owns
//! - [`Cache`] and [`CacheHierarchy`]: set-associative, true LRU,
//!   write-allocate caches on 64-bit addresses.
//! - [`BranchPredictor`]: gshare for conditional branches, a branch target
//!   buffer for indirect jumps and calls, a return-address stack for returns.
//! - [`Metric`], [`Costs`] and the linear [`CycleModel`] (defined in `events`, re-exported).
//! - [`Simulator`]: all of the above as an [`events::Observer`], with counters
//!   per block in a flat array indexed by [`events::BlockId`].
//!
//! # What it must never do
//! I/O of any kind, or link the emulator: its only input is the `events`
//! vocabulary, so every count can be reproduced from a hand-made event
//! sequence. The counts depend on the event stream alone, never on which
//! other analyses run beside it.
//!
//! # How accesses are counted (as cachegrind counts them)
//! - **Straddling:** an access of `size` bytes at `addr` touches every line
//!   from `addr` to `addr + size - 1` in address order, each updating LRU state,
//!   and counts as *one* access that misses if any line misses. On an L1 miss
//!   the whole access goes to LL the same way. (Cachegrind handles at most two
//!   lines; with lines of 16 bytes or more no x86 access spans more.)
//! - **Hierarchy:** an L1 miss accesses LL; LL evictions do not invalidate the
//!   L1s. LL is therefore not strictly inclusive: it is what cachegrind does,
//!   so the numbers are comparable with `valgrind --tool=cachegrind`.
//! - **Write-allocate:** a store is simulated exactly like a load; only the
//!   counter it lands in differs.
//! - **Instruction fetch:** one access per executed instruction, touching each
//!   L1I line the instruction spans. The fetches that cannot miss (the
//!   instruction lies in the line the previous one of the block ended in) are
//!   dropped once per block by [`CacheHierarchy::plan_fetches`], so the hot
//!   path walks a short precomputed list.
//! - **`rep` strings:** the VM reports each element of a `rep movs/stos/...`
//!   as its own [`events::MemEvent`], so each is a load or store of its own;
//!   each [`events::Observer::rep_iteration`] fetches the instruction once
//!   more (as cachegrind does) but does not count another instruction: a
//!   `rep` string instruction retires once, as hardware counts it (cachegrind's
//!   `Ir` counts every iteration).
//! - **Read-modify-write** (`add [m], r`): the VM reports a load and a store,
//!   both simulated (the store always hits). Cachegrind counts one write
//!   (`Dm`), so a miss of such an instruction is an `l1d-read-miss` here and
//!   a write miss there; `l1d-miss` is the same.
//!
//! # Branches from blocks
//! The VM reports blocks, not branches, so a block's terminator is resolved
//! by the next block of the same thread (`next` is its start address):
//! - `CondBranch { target }`: taken iff `next == target`.
//! - `IndirectJump`, `IndirectCall`: the target buffer predicts `next`.
//! - `Call`, `IndirectCall`: push the block's end on the return stack.
//! - `Return`: pop and compare with `next`.
//!
//! The outcome is charged to the block whose terminator it is. Each guest
//! thread has its own pending terminator and return stack (the VM should
//! announce the first thread with `thread_switch` before its first block);
//! counters and target buffer are shared, as in hardware.
//!
//! # Attribution by consumers
//! Per block: [`Simulator::per_block`]. Per function: sum the blocks of the
//! function ([`Costs`] add up; `cycles` is linear). A consumer attributing to
//! calling contexts or paths drives the simulator with
//! [`Simulator::run_block`], which returns the outcome of the thread's
//! previous terminator, and takes the running block's costs once with
//! [`Simulator::take_pending`] before its context moves on:
//!
//! ```
//! # use cachemodel::{SimConfig, Simulator};
//! # use events::{BlockEvent, BlockFacts, BlockId, Observer, Terminator, InsnFacts};
//! # let mut sim = Simulator::new(SimConfig::default()).unwrap();
//! # let insn = InsnFacts { offset: 0, len: 1, loads: 0, stores: 0, is_branch: false };
//! # let facts = BlockFacts::new(0x1000, 1, Box::new([insn]), Terminator::Trap);
//! # let ev = BlockEvent { id: BlockId(0), sp: 0 };
//! # sim.block_decoded(ev.id, &facts);
//! let body = sim.take_pending(); // the previous block's, for its context
//! let terminator = sim.run_block(ev, &facts);
//! // charge `terminator` to the context that ran the thread's previous block;
//! // the new block's costs (instructions, fetch misses, then its memory
//! // accesses) come out of the next `take_pending`, for its context.
//! # assert!(body.is_zero() && terminator.is_zero());
//! # assert_eq!(sim.take_pending()[cachemodel::Metric::Instructions], 1);
//! ```

#![forbid(unsafe_code)]

mod branch;
mod cache;
mod sim;

use std::fmt;

pub use branch::{BranchConfig, BranchPredictor, ReturnStack, MAX_RAS_DEPTH, MAX_TABLE_BITS};
pub use cache::{
    Cache, CacheConfig, CacheHierarchy, FetchMisses, HierarchyConfig, InsnFetch, ServedBy,
    MAX_LINES,
};
pub use events::{Costs, CycleModel, Metric, UnknownMetric};
pub use sim::{BlockCosts, BranchOutcome, InsnMisses, SimConfig, SimFront, Simulator};

/// What is wrong with a cache geometry or predictor size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// A cache size, associativity or line size is zero or not a power of two.
    NotPowerOfTwo,
    /// A cache line of 1 byte; lines are at least 2 bytes.
    LineTooSmall,
    /// A cache smaller than one set (`assoc * line` bytes).
    SmallerThanOneSet,
    /// A cache of more than [`MAX_LINES`] lines, a predictor table of more
    /// than `2^`[`MAX_TABLE_BITS`] entries, or a return stack deeper than
    /// [`MAX_RAS_DEPTH`].
    TooLarge,
    /// More history bits than counter-table index bits.
    HistoryTooLong,
    /// A cache geometry that is not `SIZE,ASSOC,LINE` in decimal.
    Syntax,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ConfigError::NotPowerOfTwo => {
                "cache size, associativity and line size must be powers of two"
            }
            ConfigError::LineTooSmall => "cache lines must be at least 2 bytes",
            ConfigError::SmallerThanOneSet => {
                "cache size must be at least associativity * line size"
            }
            ConfigError::TooLarge => "cache or predictor table too large",
            ConfigError::HistoryTooLong => {
                "branch history bits exceed the counter table index bits"
            }
            ConfigError::Syntax => "expected SIZE,ASSOC,LINE (e.g. 32768,8,64)",
        })
    }
}

impl std::error::Error for ConfigError {}
