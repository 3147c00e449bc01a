//! Set-associative true-LRU caches and the L1I / L1D / LL hierarchy.

use std::fmt;
use std::str::FromStr;

use events::{Addr, BlockFacts};

use crate::ConfigError;

/// Geometry of one cache in bytes: `size = sets * assoc * line`, each a power
/// of two. Written `SIZE,ASSOC,LINE` on the command line, as valgrind's
/// `--I1/--D1/--LL` flags are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheConfig {
    /// Total capacity in bytes.
    pub size: u64,
    /// Ways per set.
    pub assoc: u32,
    /// Line size in bytes.
    pub line: u32,
}

/// Most lines a cache may have (so a typo in a flag cannot ask for terabytes
/// of tag memory): 2^24 lines, a 1 GiB cache of 64-byte lines.
pub const MAX_LINES: u64 = 1 << 24;

impl CacheConfig {
    /// Default L1 instruction cache: 32 KiB, 8-way, 64-byte lines.
    pub const L1I: CacheConfig = CacheConfig {
        size: 32 << 10,
        assoc: 8,
        line: 64,
    };
    /// Default L1 data cache: 32 KiB, 8-way, 64-byte lines.
    pub const L1D: CacheConfig = CacheConfig {
        size: 32 << 10,
        assoc: 8,
        line: 64,
    };
    /// Default last-level cache: 8 MiB, 16-way, 64-byte lines.
    pub const LL: CacheConfig = CacheConfig {
        size: 8 << 20,
        assoc: 16,
        line: 64,
    };

    /// A validated geometry.
    pub fn new(size: u64, assoc: u32, line: u32) -> Result<CacheConfig, ConfigError> {
        let config = CacheConfig { size, assoc, line };
        config.validate()?;
        Ok(config)
    }

    /// Parses valgrind's `SIZE,ASSOC,LINE` (for example `32768,8,64`) and validates it.
    pub fn parse(s: &str) -> Result<CacheConfig, ConfigError> {
        let mut parts = s.split(',').map(str::trim);
        let mut next = || parts.next().ok_or(ConfigError::Syntax);
        let size = next()?.parse().map_err(|_| ConfigError::Syntax)?;
        let assoc = next()?.parse().map_err(|_| ConfigError::Syntax)?;
        let line = next()?.parse().map_err(|_| ConfigError::Syntax)?;
        if parts.next().is_some() {
            return Err(ConfigError::Syntax);
        }
        CacheConfig::new(size, assoc, line)
    }

    /// Checks the geometry (see [`ConfigError`] for what can be wrong).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.size.is_power_of_two()
            || !self.assoc.is_power_of_two()
            || !self.line.is_power_of_two()
        {
            return Err(ConfigError::NotPowerOfTwo);
        }
        if self.line < 2 {
            return Err(ConfigError::LineTooSmall);
        }
        if self.size < self.assoc as u64 * self.line as u64 {
            return Err(ConfigError::SmallerThanOneSet);
        }
        if self.size / self.line as u64 > MAX_LINES {
            return Err(ConfigError::TooLarge);
        }
        Ok(())
    }

    /// Number of sets (meaningful for a valid geometry).
    pub fn sets(&self) -> u64 {
        self.size / (self.assoc as u64 * self.line as u64)
    }
}

impl fmt::Display for CacheConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.size, self.assoc, self.line)
    }
}

impl FromStr for CacheConfig {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CacheConfig::parse(s)
    }
}

/// Tag of an invalid way. Line numbers are `addr >> line_bits` with at least
/// one bit shifted out, so no line number equals it.
const EMPTY: u64 = u64::MAX;

/// An invalid way of [`Ways::Narrow`].
const NARROW_EMPTY: u32 = u32::MAX;

/// The ways of every set, `sets * assoc` of them; set `s` is
/// `[s*assoc..][..assoc]`, most recently used first.
#[derive(Clone, Debug)]
enum Ways {
    /// Tags (`line >> set_bits`, the line without its set index), while
    /// every line seen has one below `u32::MAX`. A cache whose lines and
    /// sets take 16 address bits or more (the LL: 19) starts so: every
    /// user-space address fits, and its 131,072 ways take 0.5 MB, not 1 MB.
    Narrow(Box<[u32]>),
    /// Full line numbers: from the first line whose tag does not fit, and
    /// for the small caches from the start.
    Wide(Box<[u64]>),
}

/// Touches `x` in `set` (most recently used first); true on a hit. Either
/// way `x` ends first; a miss drops the last way.
#[inline]
fn touch<T: Copy + PartialEq>(set: &mut [T], x: T) -> bool {
    if set[0] == x {
        return true;
    }
    let (hit, shift) = match set[1..].iter().position(|&t| t == x) {
        Some(i) => (true, i + 1),
        None => (false, set.len() - 1),
    };
    set.copy_within(0..shift, 1);
    set[0] = x;
    hit
}

/// One set-associative cache with true LRU replacement, write-allocate, and
/// 64-bit addresses. Lookups and fills are the same operation: [`Cache::access_line`].
#[derive(Clone, Debug)]
pub struct Cache {
    ways: Ways,
    /// The line touched last (`EMPTY` before the first access): the most
    /// recently used line of its set, so touching it again is a hit that
    /// changes nothing, and needs no lookup.
    last: u64,
    assoc: usize,
    set_mask: u64,
    set_bits: u32,
    line_bits: u32,
    config: CacheConfig,
}

impl Cache {
    /// An empty (cold) cache.
    pub fn new(config: CacheConfig) -> Result<Cache, ConfigError> {
        config.validate()?;
        let n = (config.size / config.line as u64) as usize;
        let (line_bits, set_bits) = (config.line.trailing_zeros(), config.sets().trailing_zeros());
        let ways = if line_bits + set_bits >= 16 {
            Ways::Narrow(vec![NARROW_EMPTY; n].into_boxed_slice())
        } else {
            Ways::Wide(vec![EMPTY; n].into_boxed_slice())
        };
        Ok(Cache {
            ways,
            last: EMPTY,
            assoc: config.assoc as usize,
            set_mask: config.sets() - 1,
            set_bits,
            line_bits,
            config,
        })
    }

    /// The geometry.
    pub fn config(&self) -> CacheConfig {
        self.config
    }

    /// The line number (`addr / line`) holding `addr`.
    #[inline]
    pub fn line_of(&self, addr: Addr) -> u64 {
        addr >> self.line_bits
    }

    /// Touches line number `line`; returns true on a hit. Either way the line
    /// ends most recently used in its set; a miss evicts the least recently used way.
    #[inline]
    pub fn access_line(&mut self, line: u64) -> bool {
        if line == self.last {
            return true;
        }
        self.last = line;
        let base = (line & self.set_mask) as usize * self.assoc;
        if let Ways::Narrow(tags) = &mut self.ways {
            let tag = line >> self.set_bits;
            if tag < u64::from(NARROW_EMPTY) {
                return touch(&mut tags[base..base + self.assoc], tag as u32);
            }
            self.widen();
        }
        let Ways::Wide(lines) = &mut self.ways else {
            unreachable!("widened above")
        };
        touch(&mut lines[base..base + self.assoc], line)
    }

    /// Empties the cache, as when it was made; the ways stay where they
    /// are (see [`Cache::filter_parts`]).
    pub fn clear(&mut self) {
        match &mut self.ways {
            Ways::Wide(lines) => lines.fill(EMPTY),
            Ways::Narrow(tags) => tags.fill(NARROW_EMPTY),
        }
        self.last = EMPTY;
    }

    /// What an [`events::MemFilter`] needs of this cache: its ways as line
    /// numbers, the set mask, the line's bits and log2 of the
    /// associativity. `None` while the ways hold narrow tags (a cache whose
    /// lines and sets take 16 address bits or more). The ways stay where
    /// they are from then on: only narrow ones are ever replaced.
    pub fn filter_parts(&self) -> Option<(*const u64, u64, u32, u32)> {
        match &self.ways {
            Ways::Wide(lines) => Some((
                lines.as_ptr(),
                self.set_mask,
                self.line_bits,
                self.assoc.trailing_zeros(),
            )),
            Ways::Narrow(_) => None,
        }
    }

    /// Switches to full line numbers, keeping every set as it is.
    #[cold]
    #[inline(never)]
    fn widen(&mut self) {
        let lines = (0..self.way_count()).map(|i| self.way_line(i)).collect();
        self.ways = Ways::Wide(lines);
    }

    fn way_count(&self) -> usize {
        match &self.ways {
            Ways::Narrow(t) => t.len(),
            Ways::Wide(t) => t.len(),
        }
    }

    /// The line in way `i` (of set `i / assoc`), `EMPTY` if invalid.
    fn way_line(&self, i: usize) -> u64 {
        match &self.ways {
            Ways::Narrow(t) if t[i] == NARROW_EMPTY => EMPTY,
            Ways::Narrow(t) => (u64::from(t[i]) << self.set_bits) | (i / self.assoc) as u64,
            Ways::Wide(t) => t[i],
        }
    }

    /// One access of `size` bytes at `addr` (a `size` of 0 counts as 1). An
    /// access that straddles lines touches every line in address order and is
    /// a hit only if all of them hit (cachegrind's rule).
    #[inline]
    pub fn access(&mut self, addr: Addr, size: u8) -> bool {
        let first = addr >> self.line_bits;
        let last = addr.saturating_add(size.max(1) as u64 - 1) >> self.line_bits;
        if first == last {
            return self.access_line(first);
        }
        let mut hit = true;
        for line in first..=last {
            hit &= self.access_line(line);
        }
        hit
    }

    /// Whether line number `line` is present, without touching LRU state.
    pub fn contains_line(&self, line: u64) -> bool {
        self.set_lines(line).any(|l| l == line)
    }

    /// The valid line numbers of the set that `line` maps to, most recently used first.
    pub fn set_lines(&self, line: u64) -> impl Iterator<Item = u64> + '_ {
        let base = (line & self.set_mask) as usize * self.assoc;
        (base..base + self.assoc)
            .map(|i| self.way_line(i))
            .take_while(|&l| l != EMPTY)
    }
}

/// Geometries of the three caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HierarchyConfig {
    pub l1i: CacheConfig,
    pub l1d: CacheConfig,
    pub ll: CacheConfig,
}

impl Default for HierarchyConfig {
    /// L1I 32 KiB 8-way, L1D 32 KiB 8-way, LL 8 MiB 16-way, all 64-byte lines.
    fn default() -> Self {
        HierarchyConfig {
            l1i: CacheConfig::L1I,
            l1d: CacheConfig::L1D,
            ll: CacheConfig::LL,
        }
    }
}

/// Which level served an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServedBy {
    /// Hit in the L1 cache.
    L1,
    /// Missed L1, hit in the last-level cache.
    Ll,
    /// Missed both.
    Memory,
}

/// The misses of a run of instruction fetches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchMisses {
    pub l1: u32,
    pub ll: u32,
}

/// One instruction fetch that may miss: the instruction's address and length.
/// Built once per block by [`CacheHierarchy::plan_fetches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsnFetch {
    pub addr: Addr,
    pub len: u8,
}

/// L1 instruction, L1 data and a unified last-level cache.
///
/// Policy, as cachegrind's: an L1 miss accesses LL (which fills LL); an LL
/// eviction does not invalidate L1 copies, so LL is not strictly inclusive.
/// This keeps the counts comparable to `valgrind --tool=cachegrind --cache-sim=yes`.
#[derive(Clone, Debug)]
pub struct CacheHierarchy {
    l1i: Cache,
    l1d: Cache,
    ll: Cache,
}

impl CacheHierarchy {
    /// The L1 data cache's [`Cache::filter_parts`].
    pub fn l1d_filter_parts(&self) -> Option<(*const u64, u64, u32, u32)> {
        self.l1d.filter_parts()
    }

    /// Cold caches of the given geometries.
    pub fn new(config: HierarchyConfig) -> Result<CacheHierarchy, ConfigError> {
        Ok(CacheHierarchy {
            l1i: Cache::new(config.l1i)?,
            l1d: Cache::new(config.l1d)?,
            ll: Cache::new(config.ll)?,
        })
    }

    /// Empties the three caches (callgrind does at each switch of its
    /// instrumentation).
    pub fn clear(&mut self) {
        self.l1i.clear();
        self.l1d.clear();
        self.ll.clear();
    }

    /// One data load or store of `size` bytes at `addr` (write-allocate: a
    /// store is simulated exactly like a load).
    #[inline]
    pub fn data(&mut self, addr: Addr, size: u8) -> ServedBy {
        if self.l1d.access(addr, size) {
            ServedBy::L1
        } else if self.ll.access(addr, size) {
            ServedBy::Ll
        } else {
            ServedBy::Memory
        }
    }

    /// The fetch of one instruction of `len` bytes at `addr`.
    #[inline]
    pub fn fetch(&mut self, addr: Addr, len: u8) -> ServedBy {
        if self.l1i.access(addr, len) {
            ServedBy::L1
        } else if self.ll.access(addr, len) {
            ServedBy::Ll
        } else {
            ServedBy::Memory
        }
    }

    /// Appends to `out` the fetches of `facts` that can miss, in order.
    ///
    /// An instruction that lies entirely in the L1I line where the previous
    /// instruction of the block ended is left out: that line is the most
    /// recently used of its set, so the fetch would hit and change nothing.
    /// Running the plan with [`CacheHierarchy::fetch_block`] therefore gives
    /// exactly the misses of fetching every instruction, as cachegrind does
    /// (one access per instruction, touching each line it spans).
    pub fn plan_fetches(&self, facts: &BlockFacts, out: &mut Vec<InsnFetch>) {
        let mut open_line = None;
        for insn in facts.insns.iter() {
            let addr = facts.start + insn.offset as u64;
            let first = self.l1i.line_of(addr);
            let last = self.l1i.line_of(addr + insn.len.max(1) as u64 - 1);
            if !(first == last && open_line == Some(first)) {
                out.push(InsnFetch {
                    addr,
                    len: insn.len,
                });
            }
            open_line = Some(last);
        }
    }

    /// Runs a plan from [`CacheHierarchy::plan_fetches`].
    #[inline]
    pub fn fetch_block(&mut self, plan: &[InsnFetch]) -> FetchMisses {
        self.fetch_block_each(plan, |_, _| {})
    }

    /// [`CacheHierarchy::fetch_block`], calling `on_miss(address, ll)` for
    /// each instruction whose fetch missed L1I (`ll`: the last level too).
    #[inline]
    pub fn fetch_block_each(
        &mut self,
        plan: &[InsnFetch],
        mut on_miss: impl FnMut(Addr, bool),
    ) -> FetchMisses {
        let mut misses = FetchMisses::default();
        for f in plan {
            if !self.l1i.access(f.addr, f.len) {
                misses.l1 += 1;
                let ll = !self.ll.access(f.addr, f.len);
                misses.ll += ll as u32;
                on_miss(f.addr, ll);
            }
        }
        misses
    }

    pub fn l1i(&self) -> &Cache {
        &self.l1i
    }
    pub fn l1d(&self) -> &Cache {
        &self.l1d
    }
    pub fn ll(&self) -> &Cache {
        &self.ll
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::Terminator;

    fn cache(size: u64, assoc: u32, line: u32) -> Cache {
        Cache::new(CacheConfig::new(size, assoc, line).unwrap()).unwrap()
    }

    /// Hit (true) or miss (false) of each address, one byte each.
    fn trace(c: &mut Cache, addrs: &[Addr]) -> Vec<bool> {
        addrs.iter().map(|&a| c.access(a, 1)).collect()
    }

    #[test]
    fn a_cleared_cache_is_cold_again() {
        // Narrow tags (16 address bits of lines and sets) and wide lines.
        for mut c in [cache(1 << 22, 4, 64), cache(1024, 2, 64)] {
            let addrs = [0x1000, 0x1040, 0x1000];
            assert_eq!(trace(&mut c, &addrs), [false, false, true]);
            assert_eq!(trace(&mut c, &addrs), [true, true, true]);
            let ways = c.filter_parts();
            c.clear();
            assert_eq!(c.filter_parts(), ways, "the ways stay in place");
            assert_eq!(trace(&mut c, &addrs), [false, false, true]);
        }
    }

    #[test]
    fn parse_and_validate() {
        assert_eq!(CacheConfig::parse("32768,8,64"), Ok(CacheConfig::L1D));
        assert_eq!(CacheConfig::parse(" 8388608, 16 ,64"), Ok(CacheConfig::LL));
        assert_eq!("32768,8,64".parse::<CacheConfig>(), Ok(CacheConfig::L1I));
        assert_eq!(CacheConfig::LL.to_string(), "8388608,16,64");
        assert_eq!(CacheConfig::LL.sets(), 8192);
        assert_eq!(CacheConfig::parse("32768,8"), Err(ConfigError::Syntax));
        assert_eq!(CacheConfig::parse("32768,8,64,1"), Err(ConfigError::Syntax));
        assert_eq!(CacheConfig::parse("32k,8,64"), Err(ConfigError::Syntax));
        assert_eq!(
            CacheConfig::parse("32768,6,64"),
            Err(ConfigError::NotPowerOfTwo)
        );
        assert_eq!(
            CacheConfig::parse("0,8,64"),
            Err(ConfigError::NotPowerOfTwo)
        );
        assert_eq!(
            CacheConfig::parse("256,8,64"),
            Err(ConfigError::SmallerThanOneSet)
        );
        assert_eq!(
            CacheConfig::parse("256,8,1"),
            Err(ConfigError::LineTooSmall)
        );
        assert_eq!(
            CacheConfig::parse("2147483648,8,64"),
            Err(ConfigError::TooLarge)
        );
    }

    #[test]
    fn compulsory_misses() {
        // 2 sets of 2 ways, 64-byte lines.
        let mut c = cache(256, 2, 64);
        assert_eq!(
            trace(&mut c, &[0, 8, 63, 64, 100, 0]),
            [false, true, true, false, true, true]
        );
    }

    #[test]
    fn lru_order_and_eviction() {
        // Lines 0, 2, 4 (addresses 0, 128, 256) all map to set 0 of a 2-way cache.
        let mut c = cache(256, 2, 64);
        assert_eq!(trace(&mut c, &[0, 128]), [false, false]);
        assert_eq!(c.set_lines(0).collect::<Vec<_>>(), [2, 0]);
        assert!(c.access(0, 1));
        assert_eq!(c.set_lines(0).collect::<Vec<_>>(), [0, 2]);
        // 256 evicts the LRU line 2 (128), not 0.
        assert_eq!(
            trace(&mut c, &[256, 0, 128, 256]),
            [false, true, false, false]
        );
        assert_eq!(c.set_lines(0).collect::<Vec<_>>(), [4, 2]);
        assert!(!c.contains_line(0));
        // Set 1 was never touched.
        assert_eq!(c.set_lines(1).count(), 0);
    }

    #[test]
    fn conflict_misses() {
        // Three lines of one set thrash a 2-way set while the other set is
        // empty: 4 lines of capacity, 3 lines in use, every access misses.
        let mut c = cache(256, 2, 64);
        let t = trace(&mut c, &[0, 128, 256, 0, 128, 256]);
        assert_eq!(t.iter().filter(|&&h| !h).count(), 6);
        // Direct-mapped: two lines 256 bytes apart share set 0.
        let mut d = cache(256, 1, 64);
        assert_eq!(
            trace(&mut d, &[0, 256, 0, 64, 64]),
            [false, false, false, false, true]
        );
    }

    #[test]
    fn capacity_misses() {
        // Fully associative, 4 lines.
        let mut c = cache(256, 4, 64);
        let four = [0, 64, 128, 192, 0, 64, 128, 192];
        assert_eq!(
            trace(&mut c, &four),
            [false, false, false, false, true, true, true, true]
        );
        // Cycling 5 lines through 4 LRU ways misses every time.
        let mut c = cache(256, 4, 64);
        let five = [0, 64, 128, 192, 256, 0, 64, 128, 192, 256];
        assert!(trace(&mut c, &five).iter().all(|&h| !h));
    }

    #[test]
    fn straddling_access_is_one_access() {
        let mut c = cache(256, 2, 64);
        // Bytes 60..68 span lines 0 and 1: both miss, one miss reported.
        assert!(!c.access(60, 8));
        assert!(c.contains_line(0) && c.contains_line(1));
        assert!(c.access(0, 1));
        assert!(c.access(64, 1));
        // Bytes 120..136 span line 1 (present) and line 2 (absent): a miss.
        assert!(!c.access(120, 16));
        assert!(c.access(120, 16));
        // The end of the address space does not wrap.
        assert!(!c.access(u64::MAX - 3, 8));
        assert!(c.access(u64::MAX, 1));
    }

    #[test]
    fn narrow_ways_widen_on_a_line_whose_tag_does_not_fit() {
        // 16 sets of 2 ways, 4 KiB lines: 16 address bits, narrow.
        let mut n = cache(128 << 10, 2, 4096);
        assert!(matches!(n.ways, Ways::Narrow(_)));
        // The same trace on a cache that starts wide: the same answers.
        let mut w = n.clone();
        w.ways = Ways::Wide(vec![EMPTY; 32].into_boxed_slice());
        let high = u64::MAX - 4095; // its tag does not fit in 32 bits
        let addrs = [
            0x1000, 0x11000, 0x21000, 0x1000, high, 0x11000, 0x1000, high, 0x21000,
        ];
        for a in addrs {
            assert_eq!(n.access(a, 1), w.access(a, 1), "{a:#x}");
        }
        assert!(matches!(n.ways, Ways::Wide(_)));
        for a in addrs {
            let line = n.line_of(a);
            assert_eq!(
                n.set_lines(line).collect::<Vec<_>>(),
                w.set_lines(line).collect::<Vec<_>>()
            );
        }
        // Set 1 kept its lines, most recent first, across the switch.
        let mut m = cache(128 << 10, 2, 4096);
        m.access(0x1000, 1);
        m.access(0x11000, 1);
        m.access(high, 1);
        assert_eq!(m.set_lines(1).collect::<Vec<_>>(), [0x11, 0x1]);
        // The default LL starts narrow, the L1s wide.
        assert!(matches!(cache(8 << 20, 16, 64).ways, Ways::Narrow(_)));
        assert!(matches!(cache(32 << 10, 8, 64).ways, Ways::Wide(_)));
    }

    #[test]
    fn hierarchy_write_allocate_and_ll() {
        let config = HierarchyConfig {
            l1i: CacheConfig::new(128, 1, 64).unwrap(),
            l1d: CacheConfig::new(128, 1, 64).unwrap(),
            ll: CacheConfig::new(1024, 4, 64).unwrap(),
        };
        let mut h = CacheHierarchy::new(config).unwrap();
        // A store miss allocates the line: the next load of it hits L1.
        assert_eq!(h.data(0x1000, 8), ServedBy::Memory);
        assert_eq!(h.data(0x1008, 8), ServedBy::L1);
        // 0x1080 evicts 0x1000 from the direct-mapped L1 (same set), LL keeps it.
        assert_eq!(h.data(0x1080, 4), ServedBy::Memory);
        assert_eq!(h.data(0x1000, 4), ServedBy::Ll);
        // Instruction fetches share LL: a line brought in by data hits LL.
        assert_eq!(h.fetch(0x1080, 4), ServedBy::Ll);
        assert_eq!(h.fetch(0x1084, 4), ServedBy::L1);
        // A straddling data access missing L1 on one line only is one LL
        // access touching both lines; it misses LL only if one of them does.
        assert_eq!(h.data(0x1040, 1), ServedBy::Memory); // line 0x41 into both levels
        assert_eq!(h.data(0x10c0, 1), ServedBy::Memory); // line 0x43 evicts 0x41 from L1
        assert_eq!(h.data(0x1000, 1), ServedBy::L1);
        // Bytes 0x103c..0x1044: line 0x40 hits L1, 0x41 misses it; LL holds both.
        assert_eq!(h.data(0x103c, 8), ServedBy::Ll);
        assert_eq!(h.data(0x103c, 8), ServedBy::L1);
    }

    fn facts(start: Addr, lens: &[u8]) -> BlockFacts {
        crate::sim::tests::facts(start, lens, Terminator::FallThrough)
    }

    #[test]
    fn instruction_fetch_crossing_a_line() {
        let mut h = CacheHierarchy::new(HierarchyConfig::default()).unwrap();
        // 0x1038 (4 bytes, line 0x40), 0x103c (6 bytes, lines 0x40-0x41),
        // 0x1042 (2 bytes, line 0x41, where the previous one ended: left out).
        let mut plan = Vec::new();
        h.plan_fetches(&facts(0x1038, &[4, 6, 2]), &mut plan);
        assert_eq!(
            plan,
            [
                InsnFetch {
                    addr: 0x1038,
                    len: 4
                },
                InsnFetch {
                    addr: 0x103c,
                    len: 6
                }
            ]
        );
        // Line 0x40 misses for the first; the second hits 0x40 and misses 0x41.
        assert_eq!(h.fetch_block(&plan), FetchMisses { l1: 2, ll: 2 });
        assert_eq!(h.fetch_block(&plan), FetchMisses { l1: 0, ll: 0 });

        // A block starting with a straddling instruction: both lines miss,
        // one miss counted.
        let mut plan = Vec::new();
        h.plan_fetches(&facts(0x20fe, &[5, 1, 1]), &mut plan);
        assert_eq!(
            plan,
            [InsnFetch {
                addr: 0x20fe,
                len: 5
            }]
        );
        assert_eq!(h.fetch_block(&plan), FetchMisses { l1: 1, ll: 1 });
        assert!(h.l1i().contains_line(0x83) && h.l1i().contains_line(0x84));
    }
}
