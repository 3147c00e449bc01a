//! Sparse block events: blocks counted in translated code.
//!
//! A callback per translation block costs more than the block itself on
//! most code (unicorn's block hook is about 8 ns; a block is 6 instructions
//! on average). When the observer does not need every block
//! ([`Observer::sparse`]: instructions and calling contexts only, no paths
//! and no simulation), pathvm's unicorn patch (`uc_pathvm_set_block_counter`)
//! makes each translation block, before its first instruction:
//!
//! ```text
//! *instret += insns; slot.count += 1;
//! old = g.due; g.due = old & slot.next_mask;
//! if *instret >= (old & slot.always_mask) { hook(slot) } else { g.last = &slot }
//! ```
//!
//! `due` is the retired-instruction count at which the VM must look
//! (a timer, the end of a thread's quantum, the instruction limit), or 0
//! when the next block must be reported: a block whose policy says `next`
//! clears it, and a block whose policy says `every` has `always_mask` 0.
//! The hook undoes the inline count of the block it runs for and handles it
//! exactly as the dense block hook does; the blocks that ran without it are
//! reported once, as their instruction total and the last of them
//! ([`Observer::skipped`]), and their execution counts at the end.

use events::{BlockExit, BlockId, Observer, SparsePolicy, Terminator};
use rustc_hash::FxHashMap;

/// Slots per chunk: slots never move, translated code holds their address.
const CHUNK: usize = 1024;

/// A block's counters, read and written by translated code (the layout is
/// the patch's: four `u64` first), and what the hook reads of the last block
/// run without it, all in the one cache line its count is in: the hook
/// reports the skipped blocks without reading their facts.
#[repr(C, align(64))]
pub(crate) struct Slot {
    pub(crate) count: u64,
    pub(crate) insns: u64,
    always_mask: u64,
    next_mask: u64,
    pub(crate) pc: u64,
    pub(crate) id: u32,
    /// Length in bytes (a translation block is at most a page and one
    /// instruction).
    size: u16,
    /// Offset of its last instruction.
    last: u16,
    pub(crate) terminator: Terminator,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 64);

/// What translated code shares with the hook (the patch's layout).
#[repr(C)]
pub(crate) struct Globals {
    pub(crate) due: u64,
    /// The last block that ran without the hook, or the last the hook
    /// reported.
    pub(crate) last: *mut Slot,
}

/// An id no block has: the slot of a block that failed to decode, whose
/// hook then reports the error.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

pub(crate) struct Sparse {
    pub(crate) globals: Box<Globals>,
    chunks: Vec<Box<[Slot]>>,
    /// Slots of blocks that did not decode (each runs the hook, which stops).
    failed: Vec<Box<Slot>>,
    /// Block ids by start address, to find the blocks of a new entry.
    by_start: FxHashMap<u64, Vec<u32>>,
    /// `instret` after the last reported block.
    pub(crate) reported: u64,
    /// How many of the observer's [`Observer::sparse_entries`] are applied.
    entries_seen: usize,
}

fn empty_slot() -> Slot {
    Slot {
        count: 0,
        insns: 0,
        always_mask: 0,
        next_mask: 0,
        pc: 0,
        id: NO_BLOCK,
        size: 0,
        last: 0,
        terminator: Terminator::FallThrough,
    }
}

impl Sparse {
    pub(crate) fn new() -> Sparse {
        Sparse {
            globals: Box::new(Globals {
                due: 0,
                last: std::ptr::null_mut(),
            }),
            chunks: Vec::new(),
            failed: Vec::new(),
            by_start: FxHashMap::default(),
            reported: 0,
            entries_seen: 0,
        }
    }

    /// The slot of block `id`, made if new.
    pub(crate) fn slot(&mut self, id: BlockId) -> &mut Slot {
        let i = id.index();
        while self.chunks.len() <= i / CHUNK {
            self.chunks.push(
                (0..CHUNK)
                    .map(|_| empty_slot())
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            );
        }
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }

    /// Set up the slot of a freshly translated block and return its address.
    pub(crate) fn translated(
        &mut self,
        id: BlockId,
        pc: u64,
        size: u32,
        insns: u32,
        exit: BlockExit,
        policy: SparsePolicy,
    ) -> *mut Slot {
        let known = self.slot(id).id == id.0;
        if !known {
            self.by_start.entry(pc).or_default().push(id.0);
        }
        let s = self.slot(id);
        s.id = id.0;
        s.pc = pc;
        s.set_size(size);
        s.last = (exit.last_insn - pc) as u16;
        s.terminator = exit.terminator;
        s.insns = insns as u64;
        s.set_policy(policy);
        s as *mut Slot
    }

    /// A slot for a block that failed to decode: its hook decodes it again
    /// and stops with the error.
    pub(crate) fn failed(&mut self, pc: u64, size: u32) -> *mut Slot {
        let mut s = Box::new(empty_slot());
        s.pc = pc;
        s.set_size(size);
        let p = &mut *s as *mut Slot;
        self.failed.push(s);
        p
    }

    /// Every block starting at one of the observer's new entries gets
    /// events from now on.
    pub(crate) fn apply_entries<O: Observer>(&mut self, observer: &O) {
        let entries = observer.sparse_entries();
        if entries.len() <= self.entries_seen {
            return;
        }
        for &a in &entries[self.entries_seen..] {
            if let Some(ids) = self.by_start.get(&a) {
                for &id in ids.clone().iter() {
                    self.slot(BlockId(id)).always_mask = 0;
                }
            }
        }
        self.entries_seen = entries.len();
    }

    /// Every decoded block, for asking the policies again.
    pub(crate) fn block_ids(&self) -> Vec<BlockId> {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .filter(|s| s.id != NO_BLOCK)
            .map(|s| BlockId(s.id))
            .collect()
    }

    /// Execution counts kept by translated code, per block.
    pub(crate) fn counts(&self) -> impl Iterator<Item = (BlockId, u64)> + '_ {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .filter(|s| s.id != NO_BLOCK && s.count > 0)
            .map(|s| (BlockId(s.id), s.count))
    }
}

impl Slot {
    fn set_size(&mut self, size: u32) {
        self.size =
            u16::try_from(size).expect("a translation block is at most a page and one instruction");
    }

    pub(crate) fn size(&self) -> u32 {
        self.size.into()
    }

    /// How the block ends.
    #[inline]
    pub(crate) fn exit(&self) -> BlockExit {
        BlockExit {
            last_insn: self.pc + u64::from(self.last),
            end: self.pc + u64::from(self.size),
            terminator: self.terminator,
        }
    }

    pub(crate) fn set_policy(&mut self, p: SparsePolicy) {
        self.always_mask = if p.every { 0 } else { u64::MAX };
        self.next_mask = if p.next { 0 } else { u64::MAX };
    }

    pub(crate) fn every(&self) -> bool {
        self.always_mask == 0
    }

    pub(crate) fn wants_next(&self) -> bool {
        self.next_mask == 0
    }
}

/// The VM's own needs added to an observer's policy.
pub(crate) fn vm_policy(p: SparsePolicy, t: Terminator, watched: bool) -> SparsePolicy {
    let mut p = p;
    if watched {
        p.every = true;
    }
    if t == Terminator::RepString {
        // Its iterations re-enter a block at the `rep`; the block after
        // them must reset the iteration tracking.
        p.every = true;
        p.next = true;
    }
    if t.needs_sp() {
        p.next = true;
    }
    p
}
