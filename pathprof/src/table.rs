//! Path tables: per function, one row per (context, path, how it ended),
//! with its frequency, its instructions and a fixed array of metric sums.

use events::Addr;
use rustc_hash::FxHashMap;

use crate::cfg::BlockIx;

/// Number of metric sums a path row carries (columns are the owner's:
/// `pathvm` puts its cache and branch counters there).
pub const METRICS: usize = 12;

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
    /// The owner's metric sums, by column.
    pub metrics: [u64; METRICS],
}

impl PathCost {
    #[inline]
    fn add(&mut self, o: &PathCost) {
        self.insns += o.insns;
        for (a, b) in self.metrics.iter_mut().zip(o.metrics) {
            *a += b;
        }
    }
}

/// One row of a [`PathTable`].
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

/// The paths of one function, in the order they were first taken.
#[derive(Clone, Debug, Default)]
pub struct PathTable {
    rows: Vec<PathRow>,
    index: FxHashMap<(u32, PathId, PathEnd), u32>,
    /// Rows [`PathTable::add`] found lately, direct-mapped by context and
    /// path (`1 + row`, 0 for none): a frame that loops takes the same few
    /// paths, a function called again from the same place the same one.
    memo: Vec<u32>,
}

/// Slots of [`PathTable::memo`] (a power of two).
const MEMO: usize = 64;

#[inline]
fn memo_slot(ctx: u32, path: PathId) -> usize {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = path
        .0
        .wrapping_add(u64::from(ctx).wrapping_mul(K))
        .wrapping_mul(K);
    (h >> (64 - MEMO.trailing_zeros())) as usize
}

impl PathTable {
    /// The rows, in the order they were first taken.
    #[inline]
    pub fn rows(&self) -> &[PathRow] {
        &self.rows
    }

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True if no path was taken.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row of a (context, path, end), if taken.
    pub fn get(&self, ctx: u32, path: PathId, end: PathEnd) -> Option<&PathRow> {
        self.index
            .get(&(ctx, path, end))
            .map(|&i| &self.rows[i as usize])
    }

    /// The flow-sensitive view: rows summed over contexts (the `ctx` of
    /// each is 0), sorted by path and end.
    pub fn by_path(&self) -> Vec<PathRow> {
        let mut m: FxHashMap<(PathId, PathEnd), PathRow> = FxHashMap::default();
        for r in &self.rows {
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

    /// Count one more run of a path with its cost; returns the row index.
    #[inline]
    pub(crate) fn add(&mut self, ctx: u32, path: PathId, end: PathEnd, cost: &PathCost) -> u32 {
        let slot = memo_slot(ctx, path);
        if let Some(&m) = self.memo.get(slot) {
            if let Some(row) = self.rows.get_mut((m as usize).wrapping_sub(1)) {
                if row.ctx == ctx && row.path == path && row.end == end {
                    row.count += 1;
                    row.cost.add(cost);
                    return m - 1;
                }
            }
        }
        self.add_slow(slot, ctx, path, end, cost)
    }

    #[inline(never)]
    fn add_slow(
        &mut self,
        slot: usize,
        ctx: u32,
        path: PathId,
        end: PathEnd,
        cost: &PathCost,
    ) -> u32 {
        let i = *self.index.entry((ctx, path, end)).or_insert_with(|| {
            self.rows.push(PathRow {
                ctx,
                path,
                end,
                count: 0,
                cost: PathCost::default(),
            });
            self.rows.len() as u32 - 1
        });
        let row = &mut self.rows[i as usize];
        row.count += 1;
        row.cost.add(cost);
        if self.memo.is_empty() {
            self.memo = vec![0; MEMO];
        }
        self.memo[slot] = i + 1;
        i
    }

    /// Add to one metric of a row.
    #[inline]
    pub(crate) fn add_metric(&mut self, row: u32, metric: usize, v: u64) {
        self.rows[row as usize].cost.metrics[metric] += v;
    }

    /// Add `v[m]` to metric `m` of a row, for each `m`.
    #[inline]
    pub(crate) fn add_metrics(&mut self, row: u32, v: &[u64]) {
        let sums = &mut self.rows[row as usize].cost.metrics;
        for (a, b) in sums.iter_mut().zip(v) {
            *a += b;
        }
    }

    /// Give every row a new key (when the function is renumbered). Row
    /// indices stay; keys must stay distinct, which renumbering guarantees.
    pub(crate) fn rekey(&mut self, mut f: impl FnMut(&PathRow) -> (PathId, PathEnd)) {
        self.index.clear();
        self.memo.fill(0);
        for (i, r) in self.rows.iter_mut().enumerate() {
            (r.path, r.end) = f(r);
            let old = self.index.insert((r.ctx, r.path, r.end), i as u32);
            debug_assert!(old.is_none(), "renumbering merged two paths");
        }
    }
}
