//! Path tables: per function, one row per (context, path, how it ended),
//! with its frequency, its instructions and the metric sums the owner keeps.
//!
//! Rows are stored compactly: a 40-byte key-and-counts record per row, the
//! metric sums of all rows in one flat array with as many columns as the
//! owner keeps (see [`PathConfig::metrics`](crate::PathConfig::metrics)),
//! and an index that holds row numbers only (keys are not stored twice),
//! built once a table has more than a handful of rows.

use std::hash::{Hash, Hasher};

use events::{Addr, Costs, Metric};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};

use crate::cfg::BlockIx;

/// Number of metric columns: one per counted [`events::Metric`], in
/// [`events::Costs`] order.
pub const METRICS: usize = events::Metric::COUNT;

/// Every metric column (the default of
/// [`PathConfig::metrics`](crate::PathConfig::metrics)).
pub const ALL_METRICS: u16 = (1 << METRICS) - 1;

/// A path of one function: its Ball-Larus number while the function is
/// numbered, or its index among the function's interned edge sequences
/// (see [`PathMode`](crate::PathMode)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PathId(pub u64);

/// How a path ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathEnd {
    /// At EXIT or at a back edge: a whole path.
    Complete,
    /// Abandoned: the frame ended (non-local exit, end of the run) or the
    /// path could not be followed, with `at` just past the last instruction
    /// executed, in `block`. The [`PathId`] is the register's partial sum:
    /// with the block it names the prefix (see
    /// [`Numbering::decode_prefix`](crate::Numbering::decode_prefix)).
    Truncated { block: BlockIx, at: Addr },
}

/// The cost of a path while it is open: instructions and metric sums.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCost {
    /// Instructions executed on the path (a `rep` string instruction once).
    pub insns: u64,
    /// The metric sums (0 in the columns a table does not keep).
    pub metrics: Costs,
}

impl PathCost {
    #[inline]
    fn add(&mut self, o: &PathCost) {
        self.insns += o.insns;
        self.metrics += &o.metrics;
    }
}

/// One row of a [`PathTable`] (a copy: tables store rows compactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRow {
    /// The context the owner named when the frame was entered (a CCT node);
    /// 0 for all rows when contexts are not tracked.
    pub ctx: u32,
    /// The path, in the function's current numbering.
    pub path: PathId,
    /// Whether it ran to its end.
    pub end: PathEnd,
    /// Times the path was taken.
    pub count: u64,
    /// Summed over those times.
    pub cost: PathCost,
}

/// `Key::block` of a complete path.
const COMPLETE: u32 = u32::MAX;

/// A row's key, flattened: `block` is [`COMPLETE`] (and `at` 0) for a
/// complete path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    path: u64,
    at: Addr,
    ctx: u32,
    block: u32,
}

impl Key {
    #[inline]
    fn new(ctx: u32, path: PathId, end: PathEnd) -> Key {
        let (block, at) = match end {
            PathEnd::Complete => (COMPLETE, 0),
            PathEnd::Truncated { block, at } => {
                debug_assert_ne!(block.0, COMPLETE);
                (block.0, at)
            }
        };
        Key {
            path: path.0,
            at,
            ctx,
            block,
        }
    }

    #[inline]
    fn end(&self) -> PathEnd {
        if self.block == COMPLETE {
            PathEnd::Complete
        } else {
            PathEnd::Truncated {
                block: BlockIx(self.block),
                at: self.at,
            }
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        let mut h = FxHasher::default();
        self.path.hash(&mut h);
        self.at.hash(&mut h);
        self.ctx.hash(&mut h);
        self.block.hash(&mut h);
        h.finish()
    }
}

/// A row as stored: key, count and instructions (its metric sums are in
/// [`PathTable::metrics`]).
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    count: u64,
    insns: u64,
}

/// The paths of one function, in the order they were first taken.
#[derive(Clone, Debug)]
pub struct PathTable {
    /// Metric columns kept (bit `m`: column `m`).
    mask: u16,
    /// Number of columns kept (`mask.count_ones()`).
    cols: u8,
    slots: Vec<Slot>,
    /// Metric sums, `cols` per row, in row order.
    metrics: Vec<u64>,
    /// Row numbers by key; empty while the table has at most [`SMALL`] rows
    /// (they are searched in order).
    index: HashTable<u32>,
    /// Rows [`PathTable::add`] found lately, direct-mapped by context and
    /// path (`1 + row`, 0 for none): a frame that loops takes the same few
    /// paths, a function called again from the same place the same one.
    /// Allocated with the index.
    memo: Vec<u32>,
}

impl Default for PathTable {
    fn default() -> PathTable {
        PathTable::new(ALL_METRICS)
    }
}

/// Slots of [`PathTable::memo`] (a power of two).
const MEMO: usize = 64;

/// Tables with at most this many rows have no index and no memo.
const SMALL: usize = 8;

#[inline]
fn memo_slot(ctx: u32, path: u64) -> usize {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = path
        .wrapping_add(u64::from(ctx).wrapping_mul(K))
        .wrapping_mul(K);
    (h >> (64 - MEMO.trailing_zeros())) as usize
}

impl PathTable {
    /// An empty table keeping the metric columns of `mask` (bit `m`:
    /// column `m`, below [`METRICS`]).
    pub fn new(mask: u16) -> PathTable {
        let mask = mask & ALL_METRICS;
        PathTable {
            mask,
            cols: mask.count_ones() as u8,
            slots: Vec::new(),
            metrics: Vec::new(),
            index: HashTable::new(),
            memo: Vec::new(),
        }
    }

    /// The metric columns kept (bit `m`: column `m`).
    #[inline]
    pub fn metric_mask(&self) -> u16 {
        self.mask
    }

    /// Row `i` (`i` below [`PathTable::len`]), in the order first taken.
    pub fn row(&self, i: usize) -> PathRow {
        let s = &self.slots[i];
        let n = self.cols as usize;
        let mut metrics = Costs::ZERO;
        let sums = &self.metrics[i * n..(i + 1) * n];
        if n == METRICS {
            metrics.0.copy_from_slice(sums);
        } else {
            let mut m = self.mask;
            for &v in sums {
                metrics.0[m.trailing_zeros() as usize] = v;
                m &= m - 1;
            }
        }
        PathRow {
            ctx: s.key.ctx,
            path: PathId(s.key.path),
            end: s.key.end(),
            count: s.count,
            cost: PathCost {
                insns: s.insns,
                metrics,
            },
        }
    }

    /// The rows, in the order they were first taken.
    pub fn rows(&self) -> Vec<PathRow> {
        (0..self.len()).map(|i| self.row(i)).collect()
    }

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True if no path was taken.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    #[inline]
    fn find(&self, key: &Key) -> Option<u32> {
        if self.index.is_empty() {
            self.slots
                .iter()
                .position(|s| s.key == *key)
                .map(|i| i as u32)
        } else {
            let slots = &self.slots;
            self.index
                .find(key.hash(), |&i| slots[i as usize].key == *key)
                .copied()
        }
    }

    /// The row of a (context, path, end), if taken.
    pub fn get(&self, ctx: u32, path: PathId, end: PathEnd) -> Option<PathRow> {
        self.find(&Key::new(ctx, path, end))
            .map(|i| self.row(i as usize))
    }

    /// The flow-sensitive view: rows summed over contexts (the `ctx` of
    /// each is 0), sorted by path and end.
    pub fn by_path(&self) -> Vec<PathRow> {
        let mut m: FxHashMap<(PathId, PathEnd), PathRow> = FxHashMap::default();
        for i in 0..self.len() {
            let r = self.row(i);
            let e = m.entry((r.path, r.end)).or_insert(PathRow {
                ctx: 0,
                path: r.path,
                end: r.end,
                count: 0,
                cost: PathCost::default(),
            });
            e.count += r.count;
            e.cost.add(&r.cost);
        }
        let mut v: Vec<PathRow> = m.into_values().collect();
        v.sort_by_key(|r| (r.path, r.end));
        v
    }

    /// Add a cost to row `i`.
    #[inline]
    fn bump(&mut self, i: usize, cost: &PathCost) {
        let s = &mut self.slots[i];
        s.count += 1;
        s.insns += cost.insns;
        self.add_metrics(i as u32, &cost.metrics);
    }

    /// Count one more run of a path with its cost; returns the row index.
    #[inline]
    pub(crate) fn add(&mut self, ctx: u32, path: PathId, end: PathEnd, cost: &PathCost) -> u32 {
        let key = Key::new(ctx, path, end);
        if self.memo.is_empty() {
            if let Some(i) = self.slots.iter().position(|s| s.key == key) {
                self.bump(i, cost);
                return i as u32;
            }
        } else {
            let m = self.memo[memo_slot(ctx, path.0)];
            let i = (m as usize).wrapping_sub(1);
            if self.slots.get(i).is_some_and(|s| s.key == key) {
                self.bump(i, cost);
                return i as u32;
            }
        }
        self.add_slow(key, cost)
    }

    #[inline(never)]
    fn add_slow(&mut self, key: Key, cost: &PathCost) -> u32 {
        let i = match self.find(&key) {
            Some(i) => i,
            None => {
                let i = self.slots.len() as u32;
                self.slots.push(Slot {
                    key,
                    count: 0,
                    insns: 0,
                });
                self.metrics
                    .resize(self.metrics.len() + self.cols as usize, 0);
                if !self.index.is_empty() {
                    let slots = &self.slots;
                    self.index
                        .insert_unique(key.hash(), i, |&j| slots[j as usize].key.hash());
                } else if self.slots.len() > SMALL {
                    self.build_index();
                }
                i
            }
        };
        self.bump(i as usize, cost);
        if !self.memo.is_empty() {
            self.memo[memo_slot(key.ctx, key.path)] = i + 1;
        }
        i
    }

    /// Index every row (and allocate the memo) once the table outgrows
    /// [`SMALL`]; nothing for a small table.
    fn build_index(&mut self) {
        self.index.clear();
        if self.slots.len() <= SMALL {
            return;
        }
        let slots = &self.slots;
        self.index
            .reserve(slots.len(), |&j| slots[j as usize].key.hash());
        for (i, s) in slots.iter().enumerate() {
            self.index
                .insert_unique(s.key.hash(), i as u32, |&j| slots[j as usize].key.hash());
        }
        if self.memo.is_empty() {
            self.memo = vec![0; MEMO];
        }
    }

    /// Release spare capacity (when no more rows come).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
        self.metrics.shrink_to_fit();
        let slots = &self.slots;
        self.index.shrink_to_fit(|&j| slots[j as usize].key.hash());
    }

    /// Add to one metric of a row (nothing if the table does not keep
    /// that column).
    #[inline]
    pub(crate) fn add_metric(&mut self, row: u32, metric: Metric, v: u64) {
        let bit = 1u16 << metric.index();
        if self.mask & bit != 0 {
            let k = (self.mask & (bit - 1)).count_ones() as usize;
            self.metrics[row as usize * self.cols as usize + k] += v;
        }
    }

    /// Add `v` to a row, in the columns the table keeps.
    #[inline]
    pub(crate) fn add_metrics(&mut self, row: u32, v: &Costs) {
        let n = self.cols as usize;
        if n == 0 {
            return;
        }
        let sums = &mut self.metrics[row as usize * n..(row as usize + 1) * n];
        if n == METRICS {
            for (a, b) in sums.iter_mut().zip(v.0) {
                *a += b;
            }
        } else {
            let mut m = self.mask;
            for a in sums {
                *a += v.0.get(m.trailing_zeros() as usize).copied().unwrap_or(0);
                m &= m - 1;
            }
        }
    }

    /// Give every row a new key (when the function is renumbered). Row
    /// indices stay; keys must stay distinct, which renumbering guarantees.
    pub(crate) fn rekey(&mut self, mut f: impl FnMut(&PathRow) -> (PathId, PathEnd)) {
        for i in 0..self.slots.len() {
            let r = self.row(i);
            let (path, end) = f(&r);
            self.slots[i].key = Key::new(r.ctx, path, end);
        }
        self.memo.fill(0);
        self.build_index();
        #[cfg(debug_assertions)]
        {
            let mut seen = rustc_hash::FxHashSet::default();
            for s in &self.slots {
                let k = (s.key.ctx, s.key.path, s.key.block, s.key.at);
                debug_assert!(seen.insert(k), "renumbering merged two paths");
            }
        }
    }
}
