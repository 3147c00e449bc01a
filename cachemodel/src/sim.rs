//! [`Simulator`]: the simulated machine as an [`Observer`] of the VM.

use std::sync::atomic::{AtomicU64, Ordering};

use events::{
    Addr, BlockEvent, BlockFacts, BlockId, MemEvent, MemFilter, Observer, Terminator, Tid,
};
use rustc_hash::FxHashMap;

use crate::branch::{BranchConfig, BranchPredictor, ReturnStack};
use crate::cache::{CacheHierarchy, HierarchyConfig, InsnFetch, ServedBy};
use crate::ConfigError;
use events::{Costs, CycleModel, Metric};

/// What to simulate. `None` switches a part off (`--no-cache-sim`,
/// `--no-branch-sim`); instructions are always counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimConfig {
    /// Cache geometries; `None`: no cache simulation and no memory events
    /// (so no `loads`/`stores` either).
    pub cache: Option<HierarchyConfig>,
    /// Predictor sizes; `None`: no branch simulation.
    pub branch: Option<BranchConfig>,
    /// Constants of the `cycles` estimate.
    pub cycles: CycleModel,
}

impl Default for SimConfig {
    /// Both simulations on, default geometries and penalties.
    fn default() -> Self {
        SimConfig {
            cache: Some(HierarchyConfig::default()),
            branch: Some(BranchConfig::default()),
            cycles: CycleModel::default(),
        }
    }
}

impl SimConfig {
    /// Whether a run with this configuration counts `metric` (a report
    /// should show the others as unavailable, not as zero).
    pub fn measures(&self, metric: Metric) -> bool {
        (!metric.needs_cache_sim() || self.cache.is_some())
            && (!metric.needs_branch_sim() || self.branch.is_some())
    }
}

/// Where a block's instruction fetches are in [`Simulator`]'s flat plan list.
#[derive(Clone, Copy, Debug)]
struct BlockPlan {
    first: u32,
    /// 0 until planned (a block has at least one instruction).
    len: u32,
    /// The last instruction, fetched again on each `rep` iteration.
    rep: InsnFetch,
}

impl BlockPlan {
    const UNPLANNED: BlockPlan = BlockPlan {
        first: 0,
        len: 0,
        rep: InsnFetch { addr: 0, len: 0 },
    };

    /// Appends the fetches of `facts` that can miss to `fetches`.
    fn new(h: &CacheHierarchy, facts: &BlockFacts, fetches: &mut Vec<InsnFetch>) -> BlockPlan {
        let first = fetches.len();
        h.plan_fetches(facts, fetches);
        let last = facts.insns[facts.insns.len() - 1];
        BlockPlan {
            first: first as u32,
            len: (fetches.len() - first) as u32,
            rep: InsnFetch {
                addr: facts.start + last.offset as u64,
                len: last.len,
            },
        }
    }
}

/// What a [`SimFront`] counted for the running block since its last
/// note, in 14 bytes (a note travels with the next block's event). A note
/// is taken before every block and every `rep` iteration, so a count is
/// bounded by what one execution of a translation block does (at most 512
/// instructions); a count beyond a field's range is split over several
/// notes all the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockCosts {
    pub loads: u16,
    pub stores: u16,
    pub l1i_miss: u16,
    pub l1d_read_miss: u16,
    pub l1d_write_miss: u16,
    pub ll_miss: u16,
    /// The previous block's terminator: bit 0 a conditional branch, bit 1
    /// it was mispredicted, bit 2 an indirect transfer, bit 3 mispredicted.
    pub branch: u8,
}

/// The loads and stores the VM counts behind a [`MemFilter`]. The VM writes
/// them through a raw pointer while the front is borrowed elsewhere, so
/// they sit in cells of their own on the heap (atomics only for that: the
/// VM writes them on the front's thread, and they are read and reset with
/// plain loads and stores).
#[derive(Debug, Default)]
struct FilterCounts(Box<[AtomicU64; 2]>);

impl FilterCounts {
    /// The loads and stores counted since the last call.
    #[inline]
    fn take(&self) -> [u64; 2] {
        let [l, s] = &*self.0;
        let out = [l.load(Ordering::Relaxed), s.load(Ordering::Relaxed)];
        if (out[0] | out[1]) != 0 {
            l.store(0, Ordering::Relaxed);
            s.store(0, Ordering::Relaxed);
        }
        out
    }

    /// Whether an access was counted since the last [`FilterCounts::take`].
    #[inline]
    fn any(&self) -> bool {
        let [l, s] = &*self.0;
        (l.load(Ordering::Relaxed) | s.load(Ordering::Relaxed)) != 0
    }
}

impl Clone for FilterCounts {
    /// Cells of its own, with the same counts.
    fn clone(&self) -> FilterCounts {
        let [l, s] = &*self.0;
        FilterCounts(Box::new([
            AtomicU64::new(l.load(Ordering::Relaxed)),
            AtomicU64::new(s.load(Ordering::Relaxed)),
        ]))
    }
}

/// A [`SimFront`]'s counts before they are cut into notes.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    loads: u32,
    stores: u32,
    l1i_miss: u32,
    l1d_read_miss: u32,
    l1d_write_miss: u32,
    ll_miss: u32,
    branch: u8,
}

impl Tally {
    #[inline]
    fn add(&mut self, o: &Tally) {
        self.loads += o.loads;
        self.stores += o.stores;
        self.l1i_miss += o.l1i_miss;
        self.l1d_read_miss += o.l1d_read_miss;
        self.l1d_write_miss += o.l1d_write_miss;
        self.ll_miss += o.ll_miss;
        self.branch |= o.branch;
    }

    /// As much as one note holds, taken out.
    #[inline]
    fn take(&mut self) -> BlockCosts {
        fn part(x: &mut u32) -> u16 {
            let t = (*x).min(u16::MAX as u32);
            *x -= t;
            t as u16
        }
        BlockCosts {
            loads: part(&mut self.loads),
            stores: part(&mut self.stores),
            l1i_miss: part(&mut self.l1i_miss),
            l1d_read_miss: part(&mut self.l1d_read_miss),
            l1d_write_miss: part(&mut self.l1d_write_miss),
            ll_miss: part(&mut self.ll_miss),
            branch: std::mem::take(&mut self.branch),
        }
    }

    fn is_zero(&self) -> bool {
        (self.loads
            | self.stores
            | self.l1i_miss
            | self.l1d_read_miss
            | self.l1d_write_miss
            | self.ll_miss
            | self.branch as u32)
            == 0
    }
}

/// The common note (no miss, at most 1,023 loads and 1,023 stores) in 24
/// bits: loads, stores, then the terminator's four bits.
impl events::pipe::NoteWords for BlockCosts {
    #[inline]
    fn short(&self) -> Option<u32> {
        let misses = self.l1i_miss | self.l1d_read_miss | self.l1d_write_miss | self.ll_miss;
        if misses != 0 || (self.loads | self.stores) >= 1 << 10 {
            return None;
        }
        Some(u32::from(self.loads) | u32::from(self.stores) << 10 | u32::from(self.branch) << 20)
    }

    #[inline]
    fn from_short(bits: u32) -> BlockCosts {
        BlockCosts {
            loads: (bits & 0x3ff) as u16,
            stores: (bits >> 10 & 0x3ff) as u16,
            branch: (bits >> 20 & 0xf) as u8,
            ..BlockCosts::default()
        }
    }

    fn long(&self) -> [u64; 2] {
        let w = |a: u16, b: u16, c: u16, d: u16| {
            u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48
        };
        [
            w(self.loads, self.stores, self.l1i_miss, self.l1d_read_miss),
            w(self.l1d_write_miss, self.ll_miss, u16::from(self.branch), 0),
        ]
    }

    fn from_long(words: [u64; 2]) -> BlockCosts {
        let part = |w: u64, k: u32| (w >> (16 * k)) as u16;
        BlockCosts {
            loads: part(words[0], 0),
            stores: part(words[0], 1),
            l1i_miss: part(words[0], 2),
            l1d_read_miss: part(words[0], 3),
            l1d_write_miss: part(words[1], 0),
            ll_miss: part(words[1], 1),
            branch: part(words[1], 2) as u8,
        }
    }
}

impl BlockCosts {
    /// The note as costs (instructions and every column the front does not
    /// measure zero).
    #[inline(always)]
    pub fn costs(&self) -> Costs {
        let mut c = Costs::ZERO;
        c[Metric::Loads] = self.loads.into();
        c[Metric::Stores] = self.stores.into();
        c[Metric::L1iMiss] = self.l1i_miss.into();
        c[Metric::L1dReadMiss] = self.l1d_read_miss.into();
        c[Metric::L1dWriteMiss] = self.l1d_write_miss.into();
        c[Metric::LlMiss] = self.ll_miss.into();
        let b = u64::from(self.branch);
        c[Metric::Branches] = b & 1;
        c[Metric::BranchMisses] = (b >> 1) & 1;
        c[Metric::Indirect] = (b >> 2) & 1;
        c[Metric::IndirectMisses] = (b >> 3) & 1;
        c
    }
}

/// The simulators of [`Simulator`] on their own: caches and branch
/// predictor, with their per-block rows (every column but instructions).
/// It runs on the VM's thread, in front of a [`events::pipe::Pipe`] whose
/// back has a [`Simulator::external`], and tells it each block's counts as
/// [`BlockCosts`] notes: the back charges them to its contexts and paths
/// exactly as `Simulator` would count them itself.
#[derive(Clone, Debug)]
pub struct SimFront {
    caches: Option<CacheHierarchy>,
    predictor: Option<BranchPredictor>,
    plans: Vec<BlockPlan>,
    fetches: Vec<InsnFetch>,
    /// Indexed by [`BlockId::index`]; the running block's `tally` is not in yet.
    per_block: Vec<Costs>,
    orphan: Costs,
    /// Costs of the running block not in its row yet.
    tally: Tally,
    /// Costs already in a row (a terminator's outcome, a `rep` iteration
    /// of another block) still to be noted.
    placed: Tally,
    /// `tally` or `placed` may be nonzero.
    dirty: bool,
    /// Index of the running block; `usize::MAX` before the first.
    current: usize,
    threads: ThreadStates,
    /// Accesses of the running block the VM's L1D filter counted, once
    /// [`events::pipe::Front::mem_filter`] handed one out.
    filtered: Option<FilterCounts>,
    /// Misses per instruction.
    insn_misses: InsnMisses,
}

impl SimFront {
    /// Empties the simulated caches (see [`CacheHierarchy::clear`]); the
    /// branch predictor keeps its state.
    pub fn clear_caches(&mut self) {
        if let Some(c) = &mut self.caches {
            c.clear();
        }
    }

    /// The simulators `config` asks for.
    pub fn new(config: SimConfig) -> Result<SimFront, ConfigError> {
        Ok(SimFront {
            caches: config.cache.map(CacheHierarchy::new).transpose()?,
            predictor: config.branch.map(BranchPredictor::new).transpose()?,
            plans: Vec::new(),
            fetches: Vec::new(),
            per_block: Vec::new(),
            orphan: Costs::ZERO,
            tally: Tally::default(),
            placed: Tally::default(),
            dirty: false,
            current: usize::MAX,
            threads: ThreadStates::default(),
            filtered: None,
            insn_misses: InsnMisses::default(),
        })
    }

    pub fn caches(&self) -> Option<&CacheHierarchy> {
        self.caches.as_ref()
    }

    /// The per-block rows (instructions excepted), indexed by
    /// [`BlockId::index`], for [`Simulator::set_block_rows`]. Call after
    /// the last note is taken.
    pub fn into_block_rows(self) -> Vec<Costs> {
        self.per_block
    }

    /// The misses per instruction so far (for [`Simulator::set_insn_misses`]).
    pub fn take_insn_misses(&mut self) -> InsnMisses {
        std::mem::take(&mut self.insn_misses)
    }

    #[inline]
    fn row(&mut self, i: usize) -> &mut Costs {
        if i >= self.per_block.len() {
            return self.grow_row(i);
        }
        &mut self.per_block[i]
    }

    #[cold]
    fn grow_row(&mut self, i: usize) -> &mut Costs {
        if i == usize::MAX {
            return &mut self.orphan;
        }
        self.per_block.resize(i + 1, Costs::ZERO);
        &mut self.per_block[i]
    }

    fn plan(&mut self, i: usize, facts: &BlockFacts) {
        let Some(h) = &self.caches else { return };
        if self.plans.len() <= i {
            self.plans.resize(i + 1, BlockPlan::UNPLANNED);
        }
        if self.plans[i].len == 0 {
            self.plans[i] = BlockPlan::new(h, facts, &mut self.fetches);
        }
    }

    /// Adds `t` (the tally) to the running block's row.
    #[inline]
    fn fold_in(&mut self, t: &Tally) {
        let r = self.row(self.current);
        r[Metric::Loads] += t.loads as u64;
        r[Metric::Stores] += t.stores as u64;
        r[Metric::L1iMiss] += t.l1i_miss as u64;
        r[Metric::L1dReadMiss] += t.l1d_read_miss as u64;
        r[Metric::L1dWriteMiss] += t.l1d_write_miss as u64;
        r[Metric::LlMiss] += t.ll_miss as u64;
    }

    /// As much of `t` as one note holds; the rest waits for the next call
    /// (never in practice: a block's counts fit a note).
    #[cold]
    #[inline(never)]
    fn split_note(&mut self, mut t: Tally) -> BlockCosts {
        let note = t.take();
        self.dirty = !t.is_zero();
        self.placed = t;
        note
    }
}

impl events::pipe::Front for SimFront {
    type Note = BlockCosts;

    fn wants_memory(&self) -> bool {
        self.caches.is_some()
    }

    /// A hit in the most recently used way of its L1D set changes no state
    /// and costs only its load or store: the VM counts those itself.
    fn mem_filter(&mut self) -> Option<MemFilter> {
        let (ways, set_mask, line_bits, assoc_log2) = self.caches.as_ref()?.l1d_filter_parts()?;
        let counts = self.filtered.get_or_insert_with(FilterCounts::default);
        Some(MemFilter {
            ways,
            set_mask,
            line_bits,
            assoc_log2,
            // Both cells, through a pointer to the pair (the atomics' cells
            // allow writes through it).
            counts: std::ptr::from_ref::<[AtomicU64; 2]>(&counts.0)
                .cast_mut()
                .cast::<[u64; 2]>(),
        })
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.plan(id.index(), facts);
        let _ = self.row(id.index());
    }

    /// Resolves the previous block's terminator (as
    /// [`Simulator::run_block`] does): its outcome goes to that block's
    /// row and to the next note.
    #[inline]
    fn before_block(&mut self, _ev: BlockEvent, facts: &BlockFacts) {
        let Some(p) = self.threads.pending.take() else {
            return;
        };
        let Some(bp) = &mut self.predictor else {
            return;
        };
        let Some((cond, cond_miss, ind, ind_miss)) = p.predict(bp, facts.start) else {
            return;
        };
        let r = self.row(p.block);
        r[Metric::Branches] += cond;
        r[Metric::BranchMisses] += cond_miss as u64;
        r[Metric::Indirect] += ind;
        r[Metric::IndirectMisses] += ind_miss as u64;
        self.placed.branch |=
            cond as u8 | (cond_miss as u8) << 1 | (ind as u8) << 2 | (ind_miss as u8) << 3;
        self.dirty = true;
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        let i = ev.id.index();
        self.current = i;
        if self.caches.is_some() {
            if self.plans.get(i).is_none_or(|p| p.len == 0) {
                self.plan(i, facts);
            }
            let plan = self.plans[i];
            let h = self.caches.as_mut().expect("checked above");
            let misses = &mut self.insn_misses;
            let m = h.fetch_block_each(
                &self.fetches[plan.first as usize..][..plan.len as usize],
                |pc, ll| misses.fetch(pc, ll),
            );
            if (m.l1 | m.ll) != 0 {
                self.tally.l1i_miss += m.l1;
                self.tally.ll_miss += m.ll;
                self.dirty = true;
            }
        }
        if self.predictor.is_some() {
            self.threads.pending = Pending::of(i, facts);
        }
    }

    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        let i = id.index();
        let (Some(h), Some(plan)) = (&mut self.caches, self.plans.get(i)) else {
            return;
        };
        if plan.len == 0 {
            return;
        }
        let (l1, ll) = match h.fetch(plan.rep.addr, plan.rep.len) {
            ServedBy::L1 => return,
            ServedBy::Ll => (1, 0),
            ServedBy::Memory => (1, 1),
        };
        self.insn_misses.fetch(plan.rep.addr, ll != 0);
        if i == self.current {
            self.tally.l1i_miss += l1;
            self.tally.ll_miss += ll;
        } else {
            let r = self.row(i);
            r[Metric::L1iMiss] += l1 as u64;
            r[Metric::LlMiss] += ll as u64;
            self.placed.l1i_miss += l1;
            self.placed.ll_miss += ll;
        }
        self.dirty = true;
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        let Some(h) = &mut self.caches else { return };
        let served = h.data(ev.addr, ev.size);
        let l1 = (served != ServedBy::L1) as u32;
        let ll = (served == ServedBy::Memory) as u32;
        if l1 != 0 {
            self.insn_misses.data(ev.pc, ev.is_store, ll != 0);
        }
        let t = &mut self.tally;
        if ev.is_store {
            t.stores += 1;
            t.l1d_write_miss += l1;
        } else {
            t.loads += 1;
            t.l1d_read_miss += l1;
        }
        t.ll_miss += ll;
        self.dirty = true;
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.threads.switch(tid, self.predictor.as_mut());
    }

    #[inline(always)]
    fn take_note(&mut self) -> Option<BlockCosts> {
        // The filter's counts are added to the tally once it is read: added
        // in place, the tally's read (as vectors) waited on those two
        // stores, which cannot be forwarded to it (8.5% of the VM thread's
        // samples in full runs of gzip).
        let mut filtered = [0; 2];
        if let Some(f) = &self.filtered {
            let [loads, stores] = f.take();
            if (loads | stores) != 0 {
                // At most what one block execution does between two notes.
                filtered = [loads as u32, stores as u32];
                self.dirty = true;
            }
        }
        if !self.dirty {
            return None;
        }
        let mut t = std::mem::take(&mut self.tally);
        t.loads += filtered[0];
        t.stores += filtered[1];
        self.fold_in(&t);
        t.add(&std::mem::take(&mut self.placed));
        self.dirty = false;
        // The common case, field by field in registers: building the note
        // through memory made the loads wait on unforwardable stores.
        let wide = t.loads | t.stores | t.l1i_miss | t.l1d_read_miss | t.l1d_write_miss | t.ll_miss;
        if wide <= u16::MAX as u32 {
            return Some(BlockCosts {
                loads: t.loads as u16,
                stores: t.stores as u16,
                l1i_miss: t.l1i_miss as u16,
                l1d_read_miss: t.l1d_read_miss as u16,
                l1d_write_miss: t.l1d_write_miss as u16,
                ll_miss: t.ll_miss as u16,
                branch: t.branch,
            });
        }
        Some(self.split_note(t))
    }

    #[inline]
    fn has_note(&self) -> bool {
        self.dirty || self.filtered.as_ref().is_some_and(FilterCounts::any)
    }
}
/// The misses of each instruction (by address; 0 for accesses whose
/// instruction is not known): what the per-block rows count per block, per
/// instruction. Touched only on a miss.
#[derive(Clone, Debug, Default)]
pub struct InsnMisses(FxHashMap<Addr, [u64; 4]>);

impl InsnMisses {
    const L1I: usize = 0;
    const L1D_READ: usize = 1;
    const L1D_WRITE: usize = 2;
    const LL: usize = 3;

    /// An instruction fetch at `pc` missed L1I (`ll`: and the last level).
    #[cold]
    #[inline(never)]
    fn fetch(&mut self, pc: Addr, ll: bool) {
        let e = self.0.entry(pc).or_default();
        e[Self::L1I] += 1;
        e[Self::LL] += ll as u64;
    }

    /// A data access of the instruction at `pc` missed L1D (`ll`: and the
    /// last level).
    #[cold]
    #[inline(never)]
    fn data(&mut self, pc: Addr, is_store: bool, ll: bool) {
        let e = self.0.entry(pc).or_default();
        e[if is_store {
            Self::L1D_WRITE
        } else {
            Self::L1D_READ
        }] += 1;
        e[Self::LL] += ll as u64;
    }

    /// Every instruction with a miss and its miss columns (the others
    /// zero), by address.
    pub fn rows(&self) -> Vec<(Addr, Costs)> {
        let mut out: Vec<(Addr, Costs)> = self
            .0
            .iter()
            .map(|(&pc, m)| {
                let mut c = Costs::ZERO;
                c[Metric::L1iMiss] = m[Self::L1I];
                c[Metric::L1dReadMiss] = m[Self::L1D_READ];
                c[Metric::L1dWriteMiss] = m[Self::L1D_WRITE];
                c[Metric::LlMiss] = m[Self::LL];
                (pc, c)
            })
            .collect();
        out.sort_unstable_by_key(|r| r.0);
        out
    }
}

/// A block's control transfer whose outcome the next block of the thread tells.
#[derive(Clone, Copy, Debug)]
struct Pending {
    block: usize,
    terminator: Terminator,
    /// Address of the branch instruction.
    site: Addr,
    /// Fall-through and return address.
    end: Addr,
}

impl Pending {
    /// Predicts the transfer now that the thread went on at `next`: the
    /// branch columns it counts (conditional, mispredicted, indirect,
    /// mispredicted), `None` for a call (which only pushes its return).
    #[inline(always)]
    fn predict(&self, bp: &mut BranchPredictor, next: Addr) -> Option<(u64, bool, u64, bool)> {
        Some(match self.terminator {
            Terminator::CondBranch { target } => {
                (1, !bp.conditional(self.site, next == target), 0, false)
            }
            Terminator::IndirectJump => (0, false, 1, !bp.indirect(self.site, next)),
            Terminator::IndirectCall => {
                let miss = !bp.indirect(self.site, next);
                bp.call(self.end);
                (0, false, 1, miss)
            }
            Terminator::Call { .. } => {
                bp.call(self.end);
                return None;
            }
            Terminator::Return => (0, false, 1, !bp.ret(next)),
            _ => return None,
        })
    }

    /// The block's terminator, if the branch model predicts it.
    #[inline]
    fn of(i: usize, facts: &BlockFacts) -> Option<Pending> {
        matches!(
            facts.terminator,
            Terminator::CondBranch { .. }
                | Terminator::IndirectJump
                | Terminator::Call { .. }
                | Terminator::IndirectCall
                | Terminator::Return
        )
        .then(|| Pending {
            block: i,
            terminator: facts.terminator,
            site: facts.last_insn_addr(),
            end: facts.end(),
        })
    }
}

/// The branch model's state per guest thread: the running thread's
/// pending transfer and return stack, and the others' parked.
#[derive(Clone, Debug, Default)]
struct ThreadStates {
    pending: Option<Pending>,
    tid: Option<Tid>,
    parked: FxHashMap<Tid, ThreadState>,
}

impl ThreadStates {
    /// From now on the running thread is `tid`.
    fn switch(&mut self, tid: Tid, predictor: Option<&mut BranchPredictor>) {
        if self.tid == Some(tid) {
            return;
        }
        let mut incoming = self.parked.remove(&tid).unwrap_or_else(|| ThreadState {
            pending: None,
            ras: predictor
                .as_ref()
                .map_or(ReturnStack::new(0), |bp| bp.empty_return_stack()),
        });
        if let Some(bp) = predictor {
            bp.swap_return_stack(&mut incoming.ras);
        }
        // `incoming.ras` now holds the outgoing thread's stack.
        let outgoing = ThreadState {
            pending: self.pending.take(),
            ras: incoming.ras,
        };
        self.pending = incoming.pending;
        if let Some(old) = self.tid {
            self.parked.insert(old, outgoing);
        }
        self.tid = Some(tid);
    }
}

/// What a guest thread keeps while another one runs.
#[derive(Clone, Debug)]
struct ThreadState {
    pending: Option<Pending>,
    ras: ReturnStack,
}

/// The counts of a resolved terminator (the branch columns of [`Costs`]),
/// as [`Simulator::run_block`] returns them for the thread's previous block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BranchOutcome {
    pub branches: u64,
    pub branch_misses: u64,
    pub indirect: u64,
    pub indirect_misses: u64,
}

impl BranchOutcome {
    /// True if nothing was counted (no branch, or no branch simulation).
    #[inline]
    pub fn is_zero(&self) -> bool {
        (self.branches | self.indirect) == 0
    }

    /// Adds the outcome to `c`.
    #[inline]
    pub fn add_to(&self, c: &mut Costs) {
        c[Metric::Branches] += self.branches;
        c[Metric::BranchMisses] += self.branch_misses;
        c[Metric::Indirect] += self.indirect;
        c[Metric::IndirectMisses] += self.indirect_misses;
    }

    /// The outcome as [`Costs`] (every other counter zero).
    #[inline]
    pub fn counts(&self) -> Costs {
        let mut c = Costs::ZERO;
        c[Metric::Branches] = self.branches;
        c[Metric::BranchMisses] = self.branch_misses;
        c[Metric::Indirect] = self.indirect;
        c[Metric::IndirectMisses] = self.indirect_misses;
        c
    }
}

/// The simulated machine: caches, branch predictor and per-block counters,
/// driven by the VM's event stream.
///
/// The running block's costs (its instructions and fetch misses, then its
/// memory accesses and `rep` iterations) gather in one accumulator, added to
/// the block's row when the next block starts or when a consumer takes them
/// with [`Simulator::take_pending`] (to charge them to its own views once
/// per block). A terminator's outcome goes straight to its block's row and
/// is returned by [`Simulator::run_block`].
///
/// Charging rules:
/// - `block`: the block's instructions and L1I/LL fetch misses go to the
///   block; the outcome of the *previous* block's terminator (in this
///   thread) goes to the previous block.
/// - `rep_iteration`: one instruction and its fetch, to the block.
/// - `mem`: the access and its misses, to the current block.
#[derive(Clone, Debug)]
pub struct Simulator {
    config: SimConfig,
    caches: Option<CacheHierarchy>,
    /// The simulators run in a [`SimFront`] elsewhere, which sends its
    /// counts as notes ([`Simulator::external`]).
    external: bool,
    predictor: Option<BranchPredictor>,
    /// Indexed by [`BlockId::index`]; the running block's `acc` is not in yet.
    per_block: Vec<Costs>,
    /// Indexed by [`BlockId::index`]; spans of `fetches`.
    plans: Vec<BlockPlan>,
    fetches: Vec<InsnFetch>,
    /// Costs of `current` not yet added to its row.
    acc: Costs,
    /// `acc` may be nonzero.
    acc_dirty: bool,
    /// Costs already in a row (a `rep` iteration of another block than
    /// `current`) that [`Simulator::take_pending`] still has to hand out.
    placed: Costs,
    placed_dirty: bool,
    /// Costs of no block (accesses before the first block).
    orphan: Costs,
    /// Index of the block making the memory accesses; `usize::MAX` before the first.
    current: usize,
    threads: ThreadStates,
    /// Misses per instruction (a [`SimFront`]'s, when external).
    insn_misses: InsnMisses,
}

/// Adds `f`'s charges to block `block`, or to `orphan` when it does not exist.
#[inline]
fn charge(per_block: &mut [Costs], orphan: &mut Costs, block: usize, f: impl Fn(&mut Costs)) {
    match per_block.get_mut(block) {
        Some(c) => f(c),
        None => f(orphan),
    }
}

impl Simulator {
    /// Empties the simulated caches (see [`CacheHierarchy::clear`]; none
    /// in an [`Simulator::external`] machine); the branch predictor keeps
    /// its state.
    pub fn clear_caches(&mut self) {
        if let Some(c) = &mut self.caches {
            c.clear();
        }
    }

    pub fn new(config: SimConfig) -> Result<Simulator, ConfigError> {
        Ok(Simulator {
            caches: config.cache.map(CacheHierarchy::new).transpose()?,
            external: false,
            predictor: config.branch.map(BranchPredictor::new).transpose()?,
            config,
            per_block: Vec::new(),
            plans: Vec::new(),
            fetches: Vec::new(),
            acc: Costs::ZERO,
            acc_dirty: false,
            placed: Costs::ZERO,
            placed_dirty: false,
            orphan: Costs::ZERO,
            current: usize::MAX,
            threads: ThreadStates::default(),
            insn_misses: InsnMisses::default(),
        })
    }

    /// A machine whose simulators run in a [`SimFront`] of the same
    /// configuration, on another thread: their counts come through
    /// [`Simulator::note`], and their per-block rows at the end through
    /// [`Simulator::set_block_rows`]. It counts instructions and hands out
    /// pending costs as [`Simulator::new`]'s does. (pathvm's recorder
    /// charges the notes itself as they come, and keeps this machine for its
    /// configuration and, at the end, the front's rows.)
    pub fn external(config: SimConfig) -> Result<Simulator, ConfigError> {
        let mut sim = Simulator::new(SimConfig {
            cache: None,
            branch: None,
            ..config
        })?;
        sim.config = config;
        sim.external = true;
        Ok(sim)
    }

    /// A [`SimFront`]'s counts for the running block (see
    /// [`Simulator::external`]).
    #[inline]
    pub fn note(&mut self, note: BlockCosts) {
        self.acc += &note.costs();
        self.acc_dirty = true;
    }

    /// The per-block rows of the [`SimFront`] that fed this
    /// [`Simulator::external`] (instructions excepted: they are zero).
    pub fn set_block_rows(&mut self, rows: Vec<Costs>) {
        self.per_block = rows;
    }

    /// The misses per instruction of the [`SimFront`] that fed this
    /// [`Simulator::external`].
    pub fn set_insn_misses(&mut self, misses: InsnMisses) {
        self.insn_misses = misses;
    }

    /// The misses of each instruction: per instruction, what
    /// [`Simulator::block_counts`] counts per block in the L1I, L1D and LL
    /// miss columns.
    pub fn insn_misses(&self) -> &InsnMisses {
        &self.insn_misses
    }

    /// Whether the simulators run elsewhere ([`Simulator::external`]).
    pub fn is_external(&self) -> bool {
        self.external
    }

    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Counters of the whole run so far (a sum over the blocks: not for a
    /// hot path). Accesses made before the first block are in the totals only.
    pub fn totals(&self) -> Costs {
        let mut t = self.orphan;
        for c in &self.per_block {
            t += c;
        }
        t += &self.acc;
        t
    }

    /// Counters of every block seen, indexed by [`BlockId::index`].
    pub fn per_block(&mut self) -> &[Costs] {
        self.fold();
        &self.per_block
    }

    /// Counters of one block (zero for a block never seen).
    pub fn block_counts(&self, id: BlockId) -> Costs {
        let mut c = self.per_block.get(id.index()).copied().unwrap_or_default();
        if id.index() == self.current {
            c += &self.acc;
        }
        c
    }

    /// Adds the accumulated costs of the running block to its row.
    #[inline]
    fn fold(&mut self) {
        if !self.acc_dirty {
            return;
        }
        self.acc_dirty = false;
        if self.external {
            // The front keeps the rows; the costs only go to `take_pending`.
            self.acc = Costs::ZERO;
            return;
        }
        if self.caches.is_none() {
            // Without caches only instructions are accumulated.
            let n = std::mem::take(&mut self.acc[Metric::Instructions]);
            match self.per_block.get_mut(self.current) {
                Some(c) => c[Metric::Instructions] += n,
                None => self.orphan[Metric::Instructions] += n,
            }
            return;
        }
        let acc = std::mem::take(&mut self.acc);
        match self.per_block.get_mut(self.current) {
            Some(c) => *c += &acc,
            None => self.orphan += &acc,
        }
    }

    /// Whether the caches are simulated: if not, [`Simulator::take_pending`]
    /// only ever hands out instructions.
    #[inline]
    pub fn simulates_caches(&self) -> bool {
        self.caches.is_some() || self.external
    }

    /// True when [`Simulator::take_pending`] has something to hand out.
    #[inline]
    pub fn has_pending(&self) -> bool {
        self.acc_dirty | self.placed_dirty
    }

    /// The costs counted since the last call (or since the start): the
    /// running block's instructions and fetch misses when it started (if
    /// not taken yet), then its memory accesses and `rep` iterations;
    /// never a terminator's outcome (see [`Simulator::run_block`]). They
    /// are in the block's row from now on.
    #[inline]
    pub fn take_pending(&mut self) -> Costs {
        let mut out = self.acc;
        self.fold();
        if self.placed_dirty {
            self.placed_dirty = false;
            out += &std::mem::take(&mut self.placed);
        }
        out
    }

    /// The value of `metric` in `counts`, with this machine's cycle model.
    pub fn value(&self, counts: &Costs, metric: Metric) -> u64 {
        counts.get(metric, &self.config.cycles)
    }

    /// The caches, when simulated.
    pub fn caches(&self) -> Option<&CacheHierarchy> {
        self.caches.as_ref()
    }

    /// The branch predictor, when simulated.
    pub fn predictor(&self) -> Option<&BranchPredictor> {
        self.predictor.as_ref()
    }

    /// Charges the outcome of `p` to its block, now that the thread went on at `next`.
    #[inline]
    fn resolve(&mut self, p: Pending, next: Addr) -> BranchOutcome {
        let none = BranchOutcome::default();
        let Some(bp) = &mut self.predictor else {
            return none;
        };
        let Some((cond, cond_miss, ind, ind_miss)) = p.predict(bp, next) else {
            return none;
        };
        let out = BranchOutcome {
            branches: cond,
            branch_misses: cond_miss as u64,
            indirect: ind,
            indirect_misses: ind_miss as u64,
        };
        charge(&mut self.per_block, &mut self.orphan, p.block, |c| {
            out.add_to(c)
        });
        out
    }

    /// The outcome of the thread's previous block's terminator, now that
    /// the thread goes on at `next` (zero when there is none to count): as
    /// [`Simulator::run_block`] returns it, for a caller that wants it
    /// before the block's other events. `run_block` then returns zero.
    #[inline]
    pub fn resolve_pending(&mut self, next: Addr) -> BranchOutcome {
        match self.threads.pending.take() {
            Some(p) => self.resolve(p, next),
            None => BranchOutcome::default(),
        }
    }

    /// [`Observer::block`], returning the outcome of the thread's previous
    /// block's terminator (already in that block's row; zero when there is
    /// none to count). The new block's instructions and fetch misses start
    /// the accumulator of [`Simulator::take_pending`].
    #[inline]
    pub fn run_block(&mut self, ev: BlockEvent, facts: &BlockFacts) -> BranchOutcome {
        let i = ev.id.index();
        let unplanned = !self.external
            && match self.plans.get(i) {
                Some(p) => self.caches.is_some() && p.len == 0,
                None => true,
            };
        if unplanned {
            self.block_decoded(ev.id, facts);
        }
        let outcome = match self.threads.pending.take() {
            Some(p) => self.resolve(p, facts.start),
            None => BranchOutcome::default(),
        };
        self.fold();
        let insns = facts.insns.len() as u64;
        let (l1, ll) = match &mut self.caches {
            Some(h) => {
                let plan = self.plans[i];
                let misses = &mut self.insn_misses;
                let m = h.fetch_block_each(
                    &self.fetches[plan.first as usize..][..plan.len as usize],
                    |pc, ll| misses.fetch(pc, ll),
                );
                (m.l1 as u64, m.ll as u64)
            }
            None => (0, 0),
        };
        self.acc[Metric::Instructions] = insns;
        self.acc[Metric::L1iMiss] = l1;
        self.acc[Metric::LlMiss] = ll;
        self.acc_dirty = true;
        self.current = i;
        if self.predictor.is_some() {
            self.threads.pending = Pending::of(i, facts);
        }
        outcome
    }

    /// A `rep` iteration of a block that is not the running one: its row
    /// gets the fetch misses, [`Simulator::take_pending`] hands them out.
    #[cold]
    fn rep_elsewhere(&mut self, i: usize, l1: u64, ll: u64) {
        let f = |c: &mut Costs| {
            c[Metric::L1iMiss] += l1;
            c[Metric::LlMiss] += ll;
        };
        charge(&mut self.per_block, &mut self.orphan, i, f);
        f(&mut self.placed);
        self.placed_dirty = true;
    }
}

impl Observer for Simulator {
    fn wants_memory(&self) -> bool {
        self.caches.is_some()
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        if self.external {
            return;
        }
        let i = id.index();
        if self.per_block.len() <= i {
            self.per_block.resize(i + 1, Costs::ZERO);
            self.plans.resize(i + 1, BlockPlan::UNPLANNED);
        }
        let Some(h) = &self.caches else { return };
        if self.plans[i].len != 0 {
            return;
        }
        self.plans[i] = BlockPlan::new(h, facts, &mut self.fetches);
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        self.run_block(ev, facts);
    }

    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        let i = id.index();
        let (l1, ll) = match (&mut self.caches, self.plans.get(i)) {
            (Some(h), Some(plan)) if plan.len != 0 => match h.fetch(plan.rep.addr, plan.rep.len) {
                ServedBy::L1 => (0, 0),
                ServedBy::Ll => (1, 0),
                ServedBy::Memory => (1, 1),
            },
            _ => (0, 0),
        };
        if (l1 | ll) == 0 {
            return;
        }
        if let Some(plan) = self.plans.get(i) {
            self.insn_misses.fetch(plan.rep.addr, ll != 0);
        }
        if i == self.current {
            self.acc[Metric::L1iMiss] += l1;
            self.acc[Metric::LlMiss] += ll;
            self.acc_dirty = true;
        } else {
            self.rep_elsewhere(i, l1, ll);
        }
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        let Some(h) = &mut self.caches else { return };
        let served = h.data(ev.addr, ev.size);
        let l1 = (served != ServedBy::L1) as u64;
        let ll = (served == ServedBy::Memory) as u64;
        if l1 != 0 {
            self.insn_misses.data(ev.pc, ev.is_store, ll != 0);
        }
        let c = &mut self.acc;
        if ev.is_store {
            c[Metric::Stores] += 1;
            c[Metric::L1dWriteMiss] += l1;
        } else {
            c[Metric::Loads] += 1;
            c[Metric::L1dReadMiss] += l1;
        }
        c[Metric::LlMiss] += ll;
        self.acc_dirty = true;
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.threads.switch(tid, self.predictor.as_mut());
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use events::InsnFacts;

    /// A block of instructions of the given lengths (shared with `cache.rs`).
    pub(crate) fn facts(start: Addr, lens: &[u8], terminator: Terminator) -> BlockFacts {
        let mut offset = 0;
        let insns = lens
            .iter()
            .map(|&len| {
                let i = InsnFacts {
                    offset,
                    len,
                    loads: 0,
                    stores: 0,
                    is_branch: false,
                };
                offset += len as u32;
                i
            })
            .collect();
        BlockFacts::new(start, offset, insns, terminator)
    }

    /// Feeds events to `sim`; blocks are decoded on first use.
    struct Driver<'a> {
        sim: &'a mut Simulator,
        blocks: &'a [BlockFacts],
        decoded: Vec<bool>,
    }

    impl Driver<'_> {
        fn new<'a>(sim: &'a mut Simulator, blocks: &'a [BlockFacts]) -> Driver<'a> {
            Driver {
                sim,
                blocks,
                decoded: vec![false; blocks.len()],
            }
        }
        fn run(&mut self, id: u32) {
            let f = &self.blocks[id as usize];
            if !std::mem::replace(&mut self.decoded[id as usize], true) {
                self.sim.block_decoded(BlockId(id), f);
            }
            self.sim.block(
                BlockEvent {
                    id: BlockId(id),
                    sp: 0x7ff0,
                },
                f,
            );
        }
        fn load(&mut self, addr: Addr, size: u8) {
            self.sim.mem(MemEvent {
                addr,
                size,
                is_store: false,
                pc: 0,
            });
        }
        fn store(&mut self, addr: Addr, size: u8) {
            self.sim.mem(MemEvent {
                addr,
                size,
                is_store: true,
                pc: 0,
            });
        }
    }

    /// C calls A, A loops three times over an array, B returns to D.
    fn program() -> Vec<BlockFacts> {
        vec![
            facts(0x2000, &[5], Terminator::Call { target: 0x1000 }), // 0: C
            facts(0x1000, &[3, 2], Terminator::CondBranch { target: 0x1000 }), // 1: A
            facts(0x1005, &[1], Terminator::Return),                  // 2: B
            facts(0x2005, &[1], Terminator::Trap),                    // 3: D
        ]
    }

    #[test]
    fn hand_made_run() {
        let blocks = program();
        let mut sim = Simulator::new(SimConfig::default()).unwrap();
        assert!(sim.wants_memory());
        let mut d = Driver::new(&mut sim, &blocks);
        d.sim.thread_switch(100);
        d.run(0);
        d.store(0x7ff8, 8); // the call's push: L1D and LL miss
        for addr in [0x8000, 0x8008, 0x8010] {
            d.run(1);
            d.load(addr, 8); // line 0x200: miss, then two hits
        }
        let before = d.sim.totals();
        d.run(2); // A's branch resolves not taken
        let (terminator, body) = d.sim.totals().since(&before).split_terminator();
        assert_eq!(
            (
                terminator[Metric::Branches],
                terminator[Metric::BranchMisses]
            ),
            (1, 0)
        );
        assert_eq!((body[Metric::Instructions], body[Metric::Branches]), (1, 0));
        d.load(0x7ff8, 8); // the ret's pop: hit
        d.run(3); // the ret goes to 0x2005, as the return stack predicts

        let c = sim.block_counts(BlockId(0));
        let want = Costs::from_iter([
            (Metric::Instructions, 1),
            (Metric::Stores, 1),
            (Metric::L1iMiss, 1),
            (Metric::L1dWriteMiss, 1),
            (Metric::LlMiss, 2),
        ]);
        assert_eq!(c, want);
        // A: fetches of line 0x40 miss once; gshare sees histories 0, 1, 0b11
        // for taken, taken, not taken: two misses, then weakly-not-taken is right.
        let a = sim.block_counts(BlockId(1));
        let want = Costs::from_iter([
            (Metric::Instructions, 6),
            (Metric::Loads, 3),
            (Metric::L1iMiss, 1),
            (Metric::L1dReadMiss, 1),
            (Metric::LlMiss, 2),
            (Metric::Branches, 3),
            (Metric::BranchMisses, 2),
        ]);
        assert_eq!(a, want);
        let b = sim.block_counts(BlockId(2));
        assert_eq!(
            b,
            Costs::from_iter([
                (Metric::Instructions, 1),
                (Metric::Loads, 1),
                (Metric::Indirect, 1)
            ])
        );
        assert_eq!(
            sim.block_counts(BlockId(3)),
            Costs::from_iter([(Metric::Instructions, 1)])
        );
        assert_eq!(sim.block_counts(BlockId(9)), Costs::ZERO);

        let mut sum = Costs::ZERO;
        for c in sim.per_block() {
            sum += c;
        }
        assert_eq!(sum, sim.totals());
        let t = sim.totals();
        let values: Vec<u64> = Metric::ALL.iter().map(|&m| sim.value(&t, m)).collect();
        // instructions .. indirect-misses, cycles = 9 + 10*4 + 100*4 + 15*2,
        // alloc-bytes (not simulated).
        assert_eq!(values, [9, 4, 1, 2, 1, 1, 2, 4, 3, 2, 1, 0, 479, 0]);
    }

    #[test]
    fn simulations_switched_off() {
        let config = SimConfig {
            cache: None,
            branch: None,
            ..SimConfig::default()
        };
        assert!(config.measures(Metric::Instructions) && config.measures(Metric::Cycles));
        assert!(!config.measures(Metric::Loads) && !config.measures(Metric::BranchMisses));
        let blocks = program();
        let mut sim = Simulator::new(config).unwrap();
        assert!(!sim.wants_memory());
        let mut d = Driver::new(&mut sim, &blocks);
        for id in [0, 1, 1, 2, 3] {
            d.run(id);
        }
        d.load(0x8000, 8); // ignored
        let want = Costs::from_iter([(Metric::Instructions, 7)]);
        assert_eq!(sim.totals(), want);
        assert_eq!(sim.value(&sim.totals(), Metric::Cycles), 7);
    }

    #[test]
    fn rep_iterations_fetch_again_but_retire_once() {
        // `rep movsb` (2 bytes) straddling lines 0x40 and 0x41.
        let blocks = [facts(0x103f, &[2], Terminator::RepString)];
        let mut sim = Simulator::new(SimConfig::default()).unwrap();
        let mut d = Driver::new(&mut sim, &blocks);
        d.run(0);
        for i in 0..3 {
            d.load(0x9000 + i, 1);
            d.store(0xa000 + i, 1);
            d.sim.rep_iteration(BlockId(0));
        }
        d.load(0x9003, 1);
        d.store(0xa003, 1);
        let c = sim.block_counts(BlockId(0));
        let want = Costs::from_iter([
            (Metric::Instructions, 1),
            (Metric::Loads, 4),
            (Metric::Stores, 4),
            (Metric::L1iMiss, 1),
            (Metric::L1dReadMiss, 1),
            (Metric::L1dWriteMiss, 1),
            (Metric::LlMiss, 3),
        ]);
        assert_eq!(c, want);
    }

    #[test]
    fn pending_branch_and_return_stack_follow_the_thread() {
        let blocks = program();
        let mut sim = Simulator::new(SimConfig::default()).unwrap();
        let mut d = Driver::new(&mut sim, &blocks);
        d.sim.thread_switch(1);
        d.run(0); // thread 1 calls: return stack of thread 1 gets 0x2005
        d.run(1);
        d.sim.thread_switch(2);
        d.run(3); // thread 2 at 0x2005 resolves nothing of thread 1
        d.sim.thread_switch(1);
        d.run(1); // A's branch: taken (mispredicted at weakly not taken)
        d.run(2);
        d.run(3); // returns to 0x2005, predicted by thread 1's stack
        let a = sim.block_counts(BlockId(1));
        assert_eq!((a[Metric::Branches], a[Metric::BranchMisses]), (2, 1));
        let b = sim.block_counts(BlockId(2));
        assert_eq!((b[Metric::Indirect], b[Metric::IndirectMisses]), (1, 0));
    }

    #[test]
    fn block_without_decode_event() {
        let blocks = program();
        let mut sim = Simulator::new(SimConfig::default()).unwrap();
        sim.block(
            BlockEvent {
                id: BlockId(3),
                sp: 0,
            },
            &blocks[3],
        );
        assert_eq!(sim.block_counts(BlockId(3))[Metric::L1iMiss], 1);
        assert_eq!(sim.per_block().len(), 4);
    }

    #[test]
    fn notes_travel_whole() {
        use events::pipe::NoteWords;
        let short = BlockCosts {
            loads: 1023,
            stores: 7,
            branch: 0b1011,
            ..BlockCosts::default()
        };
        let bits = short.short().expect("fits");
        assert!(bits < 1 << 24);
        assert_eq!(BlockCosts::from_short(bits), short);
        let long = [
            BlockCosts {
                loads: 1024,
                ..short
            },
            BlockCosts {
                ll_miss: 1,
                ..short
            },
            BlockCosts {
                loads: u16::MAX,
                stores: 2,
                l1i_miss: 3,
                l1d_read_miss: 4,
                l1d_write_miss: 5,
                ll_miss: u16::MAX,
                branch: 0xf,
            },
        ];
        for n in long {
            assert_eq!(n.short(), None);
            assert_eq!(BlockCosts::from_long(n.long()), n);
        }
    }

    #[test]
    fn bad_config_is_an_error() {
        let mut config = SimConfig::default();
        config.cache.as_mut().unwrap().ll.assoc = 3;
        assert_eq!(
            Simulator::new(config).err(),
            Some(ConfigError::NotPowerOfTwo)
        );
    }

    /// A [`SimFront`] feeding a [`Simulator::external`] by notes
    /// counts what one [`Simulator`] counts: per block, in total, and in
    /// what `take_pending` hands out at every block.
    #[test]
    fn machine_front_and_external_machine_count_as_one_machine() {
        use events::pipe::Front;
        let config = SimConfig {
            cache: Some(HierarchyConfig {
                l1i: crate::CacheConfig::new(1024, 2, 64).unwrap(),
                l1d: crate::CacheConfig::new(1024, 2, 64).unwrap(),
                ll: crate::CacheConfig::new(4096, 4, 64).unwrap(),
            }),
            ..SimConfig::default()
        };
        let blocks: Vec<BlockFacts> = (0..40u64)
            .map(|k| {
                let t = match k % 6 {
                    0 => Terminator::CondBranch { target: 0x1000 },
                    1 => Terminator::Call { target: 0x1000 },
                    2 => Terminator::Return,
                    3 => Terminator::RepString,
                    4 => Terminator::IndirectCall,
                    _ => Terminator::IndirectJump,
                };
                facts(0x1000 + k * 0x97, &[3, 7, 2], t)
            })
            .collect();
        let mut one = Simulator::new(config).unwrap();
        let mut front = SimFront::new(config).unwrap();
        let mut back = Simulator::external(config).unwrap();
        assert!(one.wants_memory() && front.wants_memory() && !back.wants_memory());
        let notes = |front: &mut SimFront, back: &mut Simulator| {
            while let Some(n) = front.take_note() {
                back.note(n);
            }
        };
        let mut x = 12345u64;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut handed_one, mut handed_two) = (Costs::ZERO, Costs::ZERO);
        let mut execs = [0u64; 40];
        for step in 0..20_000 {
            let r = rand();
            let id = BlockId((r % 40) as u32);
            let f = &blocks[id.index()];
            if step < 40 {
                one.block_decoded(BlockId(step), &blocks[step as usize]);
                front.block_decoded(BlockId(step), &blocks[step as usize]);
                back.block_decoded(BlockId(step), &blocks[step as usize]);
                continue;
            }
            match r >> 60 {
                0 => {
                    notes(&mut front, &mut back);
                    one.rep_iteration(id);
                    front.rep_iteration(id);
                    back.rep_iteration(id);
                }
                1 => {
                    notes(&mut front, &mut back);
                    let tid = (r >> 40) as u32 % 3;
                    one.thread_switch(tid);
                    front.thread_switch(tid);
                    back.thread_switch(tid);
                }
                _ => {
                    // As the pipe does: the outcome first, then the notes.
                    let ev = BlockEvent { id, sp: 0 };
                    front.before_block(ev, f);
                    notes(&mut front, &mut back);
                    let expected = one.resolve_pending(f.start);
                    handed_one += &one.take_pending();
                    handed_one += &expected.counts();
                    handed_two += &back.take_pending();
                    one.run_block(ev, f);
                    back.run_block(ev, f);
                    front.block(ev, f);
                    execs[id.index()] += 1;
                }
            }
            for a in 0..(r >> 8) % 4 {
                let ev = MemEvent {
                    addr: (r >> 16) % 20_000 + a * 24,
                    size: [1, 4, 8, 16][a as usize],
                    is_store: (r >> a) & 1 == 1,
                    pc: 0x1000 + a,
                };
                one.mem(ev);
                front.mem(ev);
            }
        }
        notes(&mut front, &mut back);
        handed_one += &one.take_pending();
        handed_two += &back.take_pending();
        assert!(handed_one[Metric::L1dReadMiss] > 100 && handed_one[Metric::L1iMiss] > 100);
        assert!(
            handed_one[Metric::BranchMisses] > 0 && handed_one[Metric::IndirectMisses] > 0,
            "{handed_one:?}"
        );
        assert_eq!(handed_one, handed_two);
        back.set_block_rows(front.into_block_rows());
        for (i, &n) in execs.iter().enumerate() {
            let mut row = back.block_counts(BlockId(i as u32));
            row[Metric::Instructions] = n * 3;
            assert_eq!(row, one.block_counts(BlockId(i as u32)), "block {i}");
        }
    }
}
