//! The metrics and the one cost vector every crate charges: [`Metric`],
//! [`Costs`] and the linear [`CycleModel`].
//!
//! A metric is *counted* (a producer adds to it: the tracker, the cache and
//! branch models, the recorder's allocator watch) or *derived* from counted
//! ones when a report asks (`l1d-miss`, `cycles`). [`Costs`] holds the
//! counted ones, [`Metric::COUNT`] of them, indexed by the metric; the
//! derived ones come from [`Costs::get`]. Adding a counted metric is one
//! variant before [`Metric::L1dMiss`], its name and its place in
//! [`Metric::ALL`], and the code that measures it.

use std::fmt;
use std::ops::{Add, AddAssign, Index, IndexMut, Sub};
use std::str::FromStr;

/// A metric a report can show, named as in `perf` where `perf` has one.
///
/// The counted metrics come first, in the column order of [`Costs`] (and of
/// every per-node and per-path cost array); the derived ones after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Metric {
    /// Guest instructions executed; each iteration of a `rep` string
    /// instruction counts as one (cachegrind's `Ir`).
    Instructions,
    /// Data reads: one per [`crate::MemEvent`] that is not a store.
    Loads,
    /// Data writes: one per store [`crate::MemEvent`].
    Stores,
    /// L1 instruction cache misses.
    L1iMiss,
    /// L1 data cache misses of loads.
    L1dReadMiss,
    /// L1 data cache misses of stores.
    L1dWriteMiss,
    /// Last-level cache misses, instruction and data.
    LlMiss,
    /// Conditional branches executed.
    Branches,
    /// Conditional branches mispredicted.
    BranchMisses,
    /// Indirect jumps, indirect calls and returns executed (the branches
    /// cachegrind counts as `Bi`).
    Indirect,
    /// Indirect jumps, indirect calls and returns mispredicted.
    IndirectMisses,
    /// Bytes requested from the allocator (`malloc`, `calloc`, `realloc`,
    /// `aligned_alloc`, `operator new`, ...), charged to the call of the
    /// outermost allocator; measured in every run, simulation or not.
    AllocBytes,
    /// Derived: `l1d-read-miss + l1d-write-miss`.
    L1dMiss,
    /// Derived: the estimate of [`CycleModel`].
    Cycles,
}

impl Metric {
    /// The number of counted metrics: the length of [`Costs`].
    pub const COUNT: usize = Metric::L1dMiss as usize;

    /// The counted metrics, in column order (`COUNTED[i].index() == i`).
    pub const COUNTED: [Metric; Metric::COUNT] = [
        Metric::Instructions,
        Metric::Loads,
        Metric::Stores,
        Metric::L1iMiss,
        Metric::L1dReadMiss,
        Metric::L1dWriteMiss,
        Metric::LlMiss,
        Metric::Branches,
        Metric::BranchMisses,
        Metric::Indirect,
        Metric::IndirectMisses,
        Metric::AllocBytes,
    ];

    /// Every metric, in report order (the column order of a profile).
    pub const ALL: [Metric; 14] = [
        Metric::Instructions,
        Metric::Loads,
        Metric::Stores,
        Metric::L1iMiss,
        Metric::L1dReadMiss,
        Metric::L1dWriteMiss,
        Metric::L1dMiss,
        Metric::LlMiss,
        Metric::Branches,
        Metric::BranchMisses,
        Metric::Indirect,
        Metric::IndirectMisses,
        Metric::Cycles,
        Metric::AllocBytes,
    ];

    /// The column of a counted metric in [`Costs`] (at or above
    /// [`Metric::COUNT`] for a derived one).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// True if the metric is a column of [`Costs`], not derived.
    #[inline]
    pub const fn is_counted(self) -> bool {
        self.index() < Metric::COUNT
    }

    /// The name used on the command line, in reports and in profiles.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Instructions => "instructions",
            Metric::Loads => "loads",
            Metric::Stores => "stores",
            Metric::L1iMiss => "l1i-miss",
            Metric::L1dReadMiss => "l1d-read-miss",
            Metric::L1dWriteMiss => "l1d-write-miss",
            Metric::L1dMiss => "l1d-miss",
            Metric::LlMiss => "ll-miss",
            Metric::Branches => "branches",
            Metric::BranchMisses => "branch-misses",
            Metric::Indirect => "indirect",
            Metric::IndirectMisses => "indirect-misses",
            Metric::Cycles => "cycles",
            Metric::AllocBytes => "alloc-bytes",
        }
    }

    /// The metric called `name` (exact, lower case).
    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// True if the metric is counted only with the cache simulation on
    /// (loads and stores too: they come from the memory events it asks for).
    pub fn needs_cache_sim(self) -> bool {
        matches!(
            self,
            Metric::Loads
                | Metric::Stores
                | Metric::L1iMiss
                | Metric::L1dReadMiss
                | Metric::L1dWriteMiss
                | Metric::L1dMiss
                | Metric::LlMiss
        )
    }

    /// True if the metric is counted only with the branch simulation on.
    pub fn needs_branch_sim(self) -> bool {
        matches!(
            self,
            Metric::Branches | Metric::BranchMisses | Metric::Indirect | Metric::IndirectMisses
        )
    }

    /// True if the metric describes a block's terminator: at a block event
    /// its increments belong to the *previous* block of the thread (see
    /// [`Costs::split_terminator`]).
    pub fn of_terminator(self) -> bool {
        self.needs_branch_sim()
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is not one of [`Metric::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownMetric;

impl fmt::Display for UnknownMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown metric")
    }
}

impl std::error::Error for UnknownMetric {}

impl FromStr for Metric {
    type Err = UnknownMetric;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Metric::from_name(s).ok_or(UnknownMetric)
    }
}

/// The counted metrics of a block, a function, a context, a path or the
/// run, indexed by [`Metric`] (a counted one: indexing with a derived
/// metric panics). The derived metrics (`l1d-miss`, `cycles`) are computed
/// by [`Costs::get`], so costs add up: the costs of a function are the sum
/// of its blocks'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Costs(pub [u64; Metric::COUNT]);

impl Costs {
    /// Every counter zero.
    pub const ZERO: Costs = Costs([0; Metric::COUNT]);

    /// `v` of metric `m` (a counted one), every other counter zero.
    #[inline]
    pub fn of(m: Metric, v: u64) -> Costs {
        let mut c = Costs::ZERO;
        c[m] = v;
        c
    }

    /// The costs in a row of columns (a calling-context node's or a path's
    /// sums), column `i` being `Metric::COUNTED[i]`; missing columns are zero.
    #[inline]
    pub fn from_columns(v: &[u64]) -> Costs {
        let mut c = Costs::ZERO;
        for (a, b) in c.0.iter_mut().zip(v) {
            *a = *b;
        }
        c
    }

    /// The value of `metric`; `model` is used by [`Metric::Cycles`] only.
    pub fn get(&self, metric: Metric, model: &CycleModel) -> u64 {
        match metric {
            Metric::L1dMiss => self[Metric::L1dReadMiss] + self[Metric::L1dWriteMiss],
            Metric::Cycles => model.cycles(self),
            m => self[m],
        }
    }

    /// The counters as `(metric, value)`, in column order.
    pub fn iter(&self) -> impl Iterator<Item = (Metric, u64)> + '_ {
        Metric::COUNTED.into_iter().zip(self.0)
    }

    /// The increments since `earlier`, a copy of the same counters taken before.
    #[inline]
    pub fn since(&self, earlier: &Costs) -> Costs {
        let mut d = *self;
        for (a, b) in d.0.iter_mut().zip(earlier.0) {
            *a = a.wrapping_sub(b);
        }
        d
    }

    /// Splits the increments of one block event into `(terminator, body)`:
    /// the counters of [`Metric::of_terminator`], which belong to the
    /// previous block of the thread (whose terminator was resolved), and the
    /// rest, which belong to the block that started.
    pub fn split_terminator(&self) -> (Costs, Costs) {
        let (mut terminator, mut body) = (Costs::ZERO, Costs::ZERO);
        for (m, v) in self.iter() {
            if m.of_terminator() {
                terminator[m] = v;
            } else {
                body[m] = v;
            }
        }
        (terminator, body)
    }

    /// True if every counter is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        *self == Costs::ZERO
    }
}

impl Index<Metric> for Costs {
    type Output = u64;
    #[inline(always)]
    fn index(&self, m: Metric) -> &u64 {
        &self.0[m.index()]
    }
}

impl IndexMut<Metric> for Costs {
    #[inline(always)]
    fn index_mut(&mut self, m: Metric) -> &mut u64 {
        &mut self.0[m.index()]
    }
}

impl AddAssign<&Costs> for Costs {
    #[inline]
    fn add_assign(&mut self, o: &Costs) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

impl AddAssign for Costs {
    #[inline]
    fn add_assign(&mut self, o: Costs) {
        *self += &o;
    }
}

impl Add for Costs {
    type Output = Costs;
    #[inline]
    fn add(mut self, o: Costs) -> Costs {
        self += &o;
        self
    }
}

/// `self - o`, counter by counter (wrapping, as [`Costs::since`]).
impl Sub for Costs {
    type Output = Costs;
    #[inline]
    fn sub(self, o: Costs) -> Costs {
        self.since(&o)
    }
}

impl FromIterator<(Metric, u64)> for Costs {
    /// The sum of the given counters (counted metrics only).
    fn from_iter<I: IntoIterator<Item = (Metric, u64)>>(it: I) -> Costs {
        let mut c = Costs::ZERO;
        for (m, v) in it {
            c[m] += v;
        }
        c
    }
}

/// A linear estimate of cycles, not a pipeline model:
///
/// `cycles = instructions + l1_miss * (l1i-miss + l1d-miss) + ll_miss * ll-miss
///           + mispredict * (branch-misses + indirect-misses)`
///
/// An access that misses both levels pays `l1_miss + ll_miss`. Because the
/// model is linear, the cycles of a sum of costs are the sum of the cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CycleModel {
    /// Extra cycles of an L1 miss (default 10).
    pub l1_miss: u64,
    /// Further cycles of a last-level miss (default 100).
    pub ll_miss: u64,
    /// Cycles of a mispredicted branch (default 15).
    pub mispredict: u64,
}

impl Default for CycleModel {
    fn default() -> Self {
        CycleModel {
            l1_miss: 10,
            ll_miss: 100,
            mispredict: 15,
        }
    }
}

impl CycleModel {
    /// The estimate for `c`.
    pub fn cycles(&self, c: &Costs) -> u64 {
        c[Metric::Instructions]
            + self.l1_miss * (c[Metric::L1iMiss] + c[Metric::L1dReadMiss] + c[Metric::L1dWriteMiss])
            + self.ll_miss * c[Metric::LlMiss]
            + self.mispredict * (c[Metric::BranchMisses] + c[Metric::IndirectMisses])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(Metric::from_name(m.name()), Some(m));
            assert_eq!(m.to_string().parse::<Metric>(), Ok(m));
        }
        assert_eq!(Metric::from_name("l1d-miss"), Some(Metric::L1dMiss));
        assert_eq!(Metric::from_name("cache-misses"), None);
        assert_eq!("Cycles".parse::<Metric>(), Err(UnknownMetric));
        let names: Vec<_> = Metric::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names.join(","),
            "instructions,loads,stores,l1i-miss,l1d-read-miss,l1d-write-miss,l1d-miss,\
             ll-miss,branches,branch-misses,indirect,indirect-misses,cycles,alloc-bytes"
        );
    }

    #[test]
    fn counted_columns_are_the_first_variants() {
        assert_eq!(Metric::COUNT, 12);
        for (i, m) in Metric::COUNTED.into_iter().enumerate() {
            assert_eq!(m.index(), i);
            assert!(m.is_counted());
            assert!(Metric::ALL.contains(&m));
        }
        let derived: Vec<_> = Metric::ALL
            .into_iter()
            .filter(|m| !m.is_counted())
            .collect();
        assert_eq!(derived, [Metric::L1dMiss, Metric::Cycles]);
    }

    #[test]
    fn derived_metrics_and_split() {
        let c: Costs = [
            (Metric::Instructions, 1000),
            (Metric::L1iMiss, 2),
            (Metric::L1dReadMiss, 3),
            (Metric::L1dWriteMiss, 4),
            (Metric::LlMiss, 5),
            (Metric::Branches, 50),
            (Metric::BranchMisses, 6),
            (Metric::Indirect, 7),
            (Metric::IndirectMisses, 1),
        ]
        .into_iter()
        .collect();
        let model = CycleModel::default();
        assert_eq!(c.get(Metric::L1dMiss, &model), 7);
        // 1000 + 10*(2+7) + 100*5 + 15*(6+1)
        assert_eq!(c.get(Metric::Cycles, &model), 1000 + 90 + 500 + 105);
        let (t, b) = c.split_terminator();
        assert_eq!(
            (
                t[Metric::Branches],
                t[Metric::IndirectMisses],
                t[Metric::Instructions]
            ),
            (50, 1, 0)
        );
        assert_eq!(
            (
                b[Metric::Branches],
                b[Metric::Instructions],
                b[Metric::LlMiss]
            ),
            (0, 1000, 5)
        );
        assert_eq!(t + b, c);
        assert_eq!(c - t, b);
        assert_eq!((t + b).since(&t), b);
        for m in Metric::ALL {
            assert_eq!(
                m.of_terminator(),
                t.get(m, &model) != 0 && b.get(m, &model) == 0
            );
        }
        let pairs: Vec<_> = Costs::of(Metric::AllocBytes, 9)
            .iter()
            .filter(|p| p.1 != 0)
            .collect();
        assert_eq!(pairs, [(Metric::AllocBytes, 9)]);
    }
}
