//! Metric names, raw counters and the cycle estimate.

use std::fmt;
use std::ops::AddAssign;
use std::str::FromStr;

/// A metric a report can show, named as in `perf` where `perf` has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// Guest instructions executed; each iteration of a `rep` string
    /// instruction counts as one (cachegrind's `Ir`).
    Instructions,
    /// Data reads: one per [`events::MemEvent`] that is not a store.
    Loads,
    /// Data writes: one per store [`events::MemEvent`].
    Stores,
    /// L1 instruction cache misses.
    L1iMiss,
    /// L1 data cache misses of loads.
    L1dReadMiss,
    /// L1 data cache misses of stores.
    L1dWriteMiss,
    /// `l1d-read-miss + l1d-write-miss`.
    L1dMiss,
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
    /// The estimate of [`CycleModel`].
    Cycles,
    /// Bytes requested from the allocator (`malloc`, `calloc`, `realloc`,
    /// `aligned_alloc`, `operator new`, ...), charged to the call of the
    /// outermost allocator; measured in every run, simulation or not.
    AllocBytes,
}

impl Metric {
    /// Every metric, in report order.
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

    /// The name used on the command line and in reports.
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
    /// [`Counts::split_terminator`]).
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

/// Raw event counters of a block, a function, a context or the run. The
/// derived metrics (`l1d-miss`, `cycles`) are computed by [`Counts::get`], so
/// `Counts` add up: the counts of a function are the sum of its blocks'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    pub instructions: u64,
    pub loads: u64,
    pub stores: u64,
    pub l1i_miss: u64,
    pub l1d_read_miss: u64,
    pub l1d_write_miss: u64,
    pub ll_miss: u64,
    pub branches: u64,
    pub branch_misses: u64,
    pub indirect: u64,
    pub indirect_misses: u64,
    /// Bytes requested from the allocator (not a simulator counter).
    pub alloc_bytes: u64,
}

const _: () = assert!(std::mem::size_of::<Counts>() == 96);

impl Counts {
    /// The value of `metric`; `model` is used by [`Metric::Cycles`] only.
    pub fn get(&self, metric: Metric, model: &CycleModel) -> u64 {
        match metric {
            Metric::Instructions => self.instructions,
            Metric::Loads => self.loads,
            Metric::Stores => self.stores,
            Metric::L1iMiss => self.l1i_miss,
            Metric::L1dReadMiss => self.l1d_read_miss,
            Metric::L1dWriteMiss => self.l1d_write_miss,
            Metric::L1dMiss => self.l1d_read_miss + self.l1d_write_miss,
            Metric::LlMiss => self.ll_miss,
            Metric::Branches => self.branches,
            Metric::BranchMisses => self.branch_misses,
            Metric::Indirect => self.indirect,
            Metric::IndirectMisses => self.indirect_misses,
            Metric::Cycles => model.cycles(self),
            Metric::AllocBytes => self.alloc_bytes,
        }
    }

    /// The increments since `earlier`, a copy of the same counters taken before.
    pub fn since(&self, earlier: &Counts) -> Counts {
        Counts {
            instructions: self.instructions.wrapping_sub(earlier.instructions),
            loads: self.loads.wrapping_sub(earlier.loads),
            stores: self.stores.wrapping_sub(earlier.stores),
            l1i_miss: self.l1i_miss.wrapping_sub(earlier.l1i_miss),
            l1d_read_miss: self.l1d_read_miss.wrapping_sub(earlier.l1d_read_miss),
            l1d_write_miss: self.l1d_write_miss.wrapping_sub(earlier.l1d_write_miss),
            ll_miss: self.ll_miss.wrapping_sub(earlier.ll_miss),
            branches: self.branches.wrapping_sub(earlier.branches),
            branch_misses: self.branch_misses.wrapping_sub(earlier.branch_misses),
            indirect: self.indirect.wrapping_sub(earlier.indirect),
            indirect_misses: self.indirect_misses.wrapping_sub(earlier.indirect_misses),
            alloc_bytes: self.alloc_bytes.wrapping_sub(earlier.alloc_bytes),
        }
    }

    /// Splits the increments of one block event into `(terminator, body)`:
    /// the branch counters, which belong to the previous block of the thread
    /// (whose terminator was resolved), and the rest, which belong to the
    /// block that started.
    pub fn split_terminator(&self) -> (Counts, Counts) {
        let terminator = Counts {
            branches: self.branches,
            branch_misses: self.branch_misses,
            indirect: self.indirect,
            indirect_misses: self.indirect_misses,
            ..Counts::default()
        };
        let body = Counts {
            branches: 0,
            branch_misses: 0,
            indirect: 0,
            indirect_misses: 0,
            ..*self
        };
        (terminator, body)
    }

    /// True if every counter is zero.
    pub fn is_zero(&self) -> bool {
        *self == Counts::default()
    }
}

impl AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, o: &Counts) {
        self.instructions += o.instructions;
        self.loads += o.loads;
        self.stores += o.stores;
        self.l1i_miss += o.l1i_miss;
        self.l1d_read_miss += o.l1d_read_miss;
        self.l1d_write_miss += o.l1d_write_miss;
        self.ll_miss += o.ll_miss;
        self.branches += o.branches;
        self.branch_misses += o.branch_misses;
        self.indirect += o.indirect;
        self.indirect_misses += o.indirect_misses;
        self.alloc_bytes += o.alloc_bytes;
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        *self += &o;
    }
}

/// A linear estimate of cycles, not a pipeline model:
///
/// `cycles = instructions + l1_miss * (l1i-miss + l1d-miss) + ll_miss * ll-miss
///           + mispredict * (branch-misses + indirect-misses)`
///
/// An access that misses both levels pays `l1_miss + ll_miss`. Because the
/// model is linear, the cycles of a sum of counts are the sum of the cycles.
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
    pub fn cycles(&self, c: &Counts) -> u64 {
        c.instructions
            + self.l1_miss * (c.l1i_miss + c.l1d_read_miss + c.l1d_write_miss)
            + self.ll_miss * c.ll_miss
            + self.mispredict * (c.branch_misses + c.indirect_misses)
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
    fn derived_metrics_and_split() {
        let c = Counts {
            instructions: 1000,
            l1i_miss: 2,
            l1d_read_miss: 3,
            l1d_write_miss: 4,
            ll_miss: 5,
            branches: 50,
            branch_misses: 6,
            indirect: 7,
            indirect_misses: 1,
            ..Counts::default()
        };
        let model = CycleModel::default();
        assert_eq!(c.get(Metric::L1dMiss, &model), 7);
        // 1000 + 10*(2+7) + 100*5 + 15*(6+1)
        assert_eq!(c.get(Metric::Cycles, &model), 1000 + 90 + 500 + 105);
        let (t, b) = c.split_terminator();
        assert_eq!((t.branches, t.indirect_misses, t.instructions), (50, 1, 0));
        assert_eq!((b.branches, b.instructions, b.ll_miss), (0, 1000, 5));
        let mut sum = t;
        sum += b;
        assert_eq!(sum, c);
        assert_eq!(sum.since(&t), b);
        for m in Metric::ALL {
            assert_eq!(
                m.of_terminator(),
                t.get(m, &model) != 0 && b.get(m, &model) == 0
            );
        }
    }
}
