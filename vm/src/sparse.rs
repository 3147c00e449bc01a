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
//! if *instret < (old & slot.always_mask) { g.last = &slot }
//! else if (g.sync && !slot.no_sync) || !slot.loggable || *instret >= g.deadline || log full { hook(slot) }
//! else { log (slot, g.last, *instret, rsp); g.last = &slot; g.due = g.deadline & slot.next_mask; g.sync = 0 }
//! ```
//!
//! `deadline` is the retired-instruction count at which the VM must look
//! (a timer, the end of a thread's quantum, the instruction limit), and
//! `due` is the deadline, or 0 when the next block must be reported: a
//! block whose policy says `next` clears it, and a block whose policy says
//! `every` has `always_mask` 0. Most reports (function entries, the blocks
//! after calls and returns) go to a log that the hook replays before
//! anything else reaches the observer, so they cost a few stores instead
//! of a call; the hook itself runs for deadlines, `rep` strings, watched
//! entries, a full log, and the block after an indirect call or jump, a
//! system call or a trap (`g.sync`, set by those blocks), where the
//! observer may make a new function entry that must be reported at once.
//! A direct call's target is reported on every execution from the start
//! for the same reason, and a block reported on every execution that ends
//! in a direct jump (a PLT stub's) sets `g.sync` too.
//!
//! An observer that hands the analyses to another thread
//! ([`Observer::takes_logged`]) takes the log as it is: one
//! [`Observer::logged`] per entry, made from the slots, with no other work
//! on the VM's thread. It looks at a block reached by an indirect call or
//! jump as a possible entry once, and answers the same for every later
//! arrival, so the hook marks such a block `no_sync` after its first
//! report ([`Slot::NO_SYNC`]): without it, sqlite3 called the hook after
//! every PLT stub's jump.
//!
//! The hook undoes the inline count of the block it runs for and handles it
//! exactly as the dense block hook does; the blocks that ran without a
//! report are reported once, as their instruction total and the last of
//! them ([`Observer::skipped`]), and their execution counts at the end.

use events::{BlockExit, BlockFacts, BlockId, Observer, SparsePolicy, Terminator};
use rustc_hash::{FxHashMap, FxHashSet};

/// Slots per chunk: slots never move, translated code holds their address.
const CHUNK: usize = 1024;

/// A block's counters, read and written by translated code (the layout is
/// the patch's: the first 24 bytes), and what the hook reads of the last
/// block run without it, all in the one cache line its count is in: the hook
/// reports the skipped blocks without reading their facts. The masks are 0
/// or all ones in 32 bits, which translated code loads sign-extended to 64
/// bits; the last 8 bytes of the line are free (for data translated code
/// reads at the block's exits: the path register's increments of issue 29).
#[repr(C, align(64))]
pub(crate) struct Slot {
    pub(crate) count: u64,
    pub(crate) insns: u32,
    /// [`Slot::LOG`], [`Slot::SYNC_NEXT`].
    flags: u32,
    always_mask: u32,
    next_mask: u32,
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
const _: () =
    assert!(std::mem::offset_of!(Slot, terminator) + std::mem::size_of::<Terminator>() <= 56);

/// What translated code shares with the hook (the patch's layout).
#[repr(C)]
pub(crate) struct Globals {
    pub(crate) due: u64,
    /// The last block that ran without the hook, or the last one reported.
    pub(crate) last: *mut Slot,
    /// Nonzero when the next report must reach the hook: set by the blocks
    /// after which frames may change in ways only the observer can tell
    /// (`Slot::SYNC_NEXT`), and by the VM when it starts the CPU.
    pub(crate) sync: u64,
    /// The retired-instruction count at which the VM must look; `due` is
    /// this or 0.
    pub(crate) deadline: u64,
    /// Where translated code writes the next logged report, and the end of
    /// the log (which has one spare entry past it).
    pub(crate) log: *mut LogEntry,
    pub(crate) log_end: *mut LogEntry,
}

/// A report that translated code logged instead of calling the hook (the
/// patch's layout): the block's slot, the block run before it, the
/// retired-instruction count after its inline count, and the stack pointer
/// before its first instruction.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct LogEntry {
    pub(crate) slot: *mut Slot,
    pub(crate) last: *mut Slot,
    pub(crate) instret: u64,
    pub(crate) rsp: u64,
}

const _: () = assert!(std::mem::size_of::<LogEntry>() == 32);

// The patch's offsets and flags (`PV_G_*`, `PV_S_*`, `PV_ENTRY`,
// `PV_FLAG_*` in `third_party/unicorn-engine-2.1.1-pathvm.patch`, and the
// log entry's 0, 8, 16, 24) are these fields' and constants': a field moved
// here without the patch fails to compile.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(offset_of!(Globals, due) == 0); // PV_G_DUE
    assert!(offset_of!(Globals, last) == 8); // PV_G_LAST
    assert!(offset_of!(Globals, sync) == 16); // PV_G_SYNC
    assert!(offset_of!(Globals, deadline) == 24); // PV_G_DEADLINE
    assert!(offset_of!(Globals, log) == 32); // PV_G_LOG
    assert!(offset_of!(Globals, log_end) == 40); // PV_G_LOG_END
    assert!(offset_of!(Slot, count) == 0); // PV_S_COUNT
    assert!(offset_of!(Slot, insns) == 8); // PV_S_INSNS
    assert!(offset_of!(Slot, flags) == 12); // PV_S_FLAGS
    assert!(offset_of!(Slot, always_mask) == 16); // PV_S_ALWAYS
    assert!(offset_of!(Slot, next_mask) == 20); // PV_S_NEXT
    assert!(size_of::<LogEntry>() == 32); // PV_ENTRY
    assert!(offset_of!(LogEntry, slot) == 0);
    assert!(offset_of!(LogEntry, last) == 8);
    assert!(offset_of!(LogEntry, instret) == 16);
    assert!(offset_of!(LogEntry, rsp) == 24);
    assert!(Slot::LOG == 1); // PV_FLAG_LOG
    assert!(Slot::SYNC_NEXT == 2); // PV_FLAG_SYNC_NEXT
    assert!(Slot::NO_SYNC == 4); // PV_FLAG_NO_SYNC
};

/// Reports logged before the hook replays them.
const LOG_LEN: usize = 1024;

/// An id no block has: the slot of a block that failed to decode, whose
/// hook then reports the error.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

pub(crate) struct Sparse {
    pub(crate) globals: Box<Globals>,
    log: Box<[LogEntry]>,
    chunks: Vec<Box<[Slot]>>,
    /// Slots of blocks that did not decode (each runs the hook, which stops).
    failed: Vec<Box<Slot>>,
    /// Block ids by start address, to find the blocks of a new entry.
    by_start: FxHashMap<u64, Vec<u32>>,
    /// `instret` after the last reported block.
    pub(crate) reported: u64,
    /// How many of the observer's [`Observer::sparse_entries`] are applied.
    entries_seen: usize,
    /// Targets of direct calls: reported on every execution, so that an
    /// entry the observer makes of one when a logged call reaches it is
    /// never skipped before the log is replayed.
    call_targets: FxHashSet<u64>,
}

fn empty_slot() -> Slot {
    Slot {
        count: 0,
        insns: 0,
        flags: 0,
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
        let empty = LogEntry {
            slot: std::ptr::null_mut(),
            last: std::ptr::null_mut(),
            instret: 0,
            rsp: 0,
        };
        let mut log = vec![empty; LOG_LEN + 1].into_boxed_slice();
        let start = log.as_mut_ptr();
        Sparse {
            globals: Box::new(Globals {
                due: 0,
                last: std::ptr::null_mut(),
                sync: 1,
                deadline: 0,
                log: start,
                // SAFETY: within the allocation (its last entry is spare).
                log_end: unsafe { start.add(LOG_LEN) },
            }),
            log,
            chunks: Vec::new(),
            failed: Vec::new(),
            by_start: FxHashMap::default(),
            reported: 0,
            entries_seen: 0,
            call_targets: FxHashSet::default(),
        }
    }

    /// The reports logged since the last replay (valid until translated
    /// code runs again), and an empty log after.
    pub(crate) fn take_log(&mut self) -> (*const LogEntry, usize) {
        let start = self.log.as_mut_ptr();
        // SAFETY: translated code writes entries from the start and moves
        // `log` past each; it stays within the allocation.
        let n = unsafe { self.globals.log.offset_from(start) } as usize;
        self.globals.log = start;
        (start, n)
    }

    /// Reports are waiting in the log.
    #[inline]
    pub(crate) fn logged(&self) -> bool {
        !std::ptr::eq(self.globals.log, self.log.as_ptr())
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
        facts: &BlockFacts,
        policy: SparsePolicy,
        loggable: bool,
    ) -> *mut Slot {
        let (insns, exit) = (facts.insn_count(), facts.exit());
        let known = self.slot(id).id == id.0;
        if !known {
            self.by_start.entry(pc).or_default().push(id.0);
        }
        if let Terminator::Call { target } = exit.terminator {
            // A call to the next instruction reads the program counter.
            if target != exit.end && self.call_targets.insert(target) {
                self.every_from(target);
            }
        }
        let target = self.call_targets.contains(&pc);
        let s = self.slot(id);
        s.id = id.0;
        s.pc = pc;
        s.set_size(size);
        s.last = (exit.last_insn - pc) as u16;
        s.terminator = exit.terminator;
        s.insns = insns;
        s.flags = if loggable { Slot::LOG } else { 0 };
        s.set_policy(policy);
        if target {
            s.set_every();
        }
        // Read once, by the patch, as the block is translated: besides
        // `sync_next`, a block reported on every execution (an entry, a PLT
        // stub, the lazy resolver) that ends in a jump, which may leave a
        // PLT stub for a function the observer has not seen.
        let jump = matches!(exit.terminator, Terminator::Jump { .. });
        if sync_next(exit.terminator) || (s.every() && jump) {
            s.flags |= Slot::SYNC_NEXT;
        }
        s as *mut Slot
    }

    /// Block `id`'s policy, asked again.
    pub(crate) fn set_policy(&mut self, id: BlockId, p: SparsePolicy) {
        let pc = self.slot(id).pc;
        let target = self.call_targets.contains(&pc);
        let s = self.slot(id);
        s.set_policy(p);
        if target {
            s.set_every();
        }
    }

    /// Every block starting at `a` gets events from now on.
    fn every_from(&mut self, a: u64) {
        if let Some(ids) = self.by_start.get(&a) {
            for &id in ids.clone().iter() {
                self.slot(BlockId(id)).set_every();
            }
        }
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
            self.every_from(a);
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
    /// Its reports may be logged (it is not a `rep` string, a watched
    /// entry, or a block that failed to decode, which the hook handles).
    const LOG: u32 = 1;
    /// The report of the block after it must reach the hook (translated
    /// code sets [`Globals::sync`]).
    const SYNC_NEXT: u32 = 2;
    /// Its report may be logged even after a block with
    /// [`Slot::SYNC_NEXT`]: the observer has looked at it as a possible
    /// entry already, and answers the same for every later arrival.
    const NO_SYNC: u32 = 4;

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

    /// See [`Slot::NO_SYNC`].
    pub(crate) fn waive_sync(&mut self) {
        self.flags |= Slot::NO_SYNC;
    }

    /// Every execution is reported from now on.
    fn set_every(&mut self) {
        self.always_mask = 0;
    }

    fn set_policy(&mut self, p: SparsePolicy) {
        self.always_mask = if p.every { 0 } else { u32::MAX };
        self.next_mask = if p.next { 0 } else { u32::MAX };
    }

    pub(crate) fn every(&self) -> bool {
        self.always_mask == 0
    }

    pub(crate) fn wants_next(&self) -> bool {
        self.next_mask == 0
    }
}

/// The block after one ending so is reported through the hook: an indirect
/// call or jump may reach a block the observer then makes an entry of (a
/// function without a symbol, the target of a PLT stub), which must be
/// reported from then on; after a system call, a trap or a `rep` string the
/// VM itself looks.
fn sync_next(t: Terminator) -> bool {
    matches!(
        t,
        Terminator::IndirectCall
            | Terminator::IndirectJump
            | Terminator::Syscall
            | Terminator::Trap
            | Terminator::RepString
    )
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
