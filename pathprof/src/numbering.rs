//! Ball-Larus path numbering of one generation of a [`Cfg`] (Ball and Larus,
//! "Efficient path profiling", MICRO 1996; summarised in Ammons, Ball, Larus
//! 1997, section 2).
//!
//! The graph numbered is the CFG with a unique ENTRY (whose successors are
//! the graph's [`Start`](crate::Start)s: the entry block, the target of every
//! back edge, every resume point) and a unique EXIT, each back edge `v→w`
//! replaced by the pseudo-edges `v→EXIT` (END) and `ENTRY→w` (START). That
//! graph is acyclic. In reverse topological order, `NP(EXIT) = 1` and
//! `NP(v)` is the sum of `NP` over `v`'s successors in successor order, and
//! the i-th out-edge of `v` gets `Val = NP(w_1) + ... + NP(w_{i-1})`. Then
//! the sums of `Val` along the paths ENTRY→EXIT are exactly `0..NP(ENTRY)`,
//! one each. Parallel edges are distinct edges and get distinct values.
//!
//! A [`Numbering`] is a snapshot: it keeps what it needs to decode its own
//! ids after the graph has grown, which is what lets the tracker re-express
//! recorded paths in the next generation.

use std::fmt;

use crate::cfg::{BlockIx, Cfg, EdgeIx, EdgeTarget, StartIx, Step};

/// The largest `NP(ENTRY)` numbered by default: 2^53, so that every path
/// id is exact where reports carry it as a JSON number (an IEEE double).
/// Functions above it, or whose count overflows `u64`, fall back to
/// interned edge sequences.
pub const DEFAULT_MAX_PATHS: u64 = 1 << 53;

/// What taking an edge does to the path register `r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeVal {
    /// `r += Val(e)`.
    Add(u64),
    /// A back edge: the path ends with its END pseudo-edge
    /// (`count[r + end]++`) and the next begins with its START pseudo-edge
    /// (`r = start`).
    Back { end: u64, start: u64 },
}

/// Why a function's paths are not numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberingError {
    /// Counting the paths overflows `u64`.
    Overflow,
    /// More paths than the limit (see [`DEFAULT_MAX_PATHS`]).
    TooManyPaths { paths: u64, limit: u64 },
}

impl fmt::Display for NumberingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberingError::Overflow => write!(f, "more than 2^64 paths"),
            NumberingError::TooManyPaths { paths, limit } => {
                write!(f, "{paths} paths, above the limit of {limit}")
            }
        }
    }
}

impl std::error::Error for NumberingError {}

/// The DAG vertex an edge leads to when it is EXIT.
const EXIT: u32 = u32::MAX;

/// [`Numbering::back_start`] of an edge that is not a back edge.
const NOT_BACK: u32 = u32::MAX;
/// [`Numbering::back_start`] of a back edge without an ENTRY successor
/// (a hand-built graph): its START value is 0.
const NO_START: u32 = u32::MAX - 1;

/// The Ball-Larus numbering of one generation of a graph.
#[derive(Clone, Debug)]
///
/// Per edge it keeps 24 bytes (a numbering is kept for every function a run
/// enters): its value, which back edge start it has, its source and target;
/// [`Numbering::val`] puts an [`EdgeVal`] together from them.
pub struct Numbering {
    generation: u32,
    paths: u64,
    np: Vec<u64>,
    /// Per edge: `Val(e)`, or for a back edge the value of its END
    /// pseudo-edge; the sum of `NP` over the source's out-edges before it.
    sums: Vec<u64>,
    /// Per edge: a back edge's ENTRY successor ([`NOT_BACK`], [`NO_START`]).
    back_start: Vec<u32>,
    /// Per edge: source block, and DAG target (EXIT for exits and back edges).
    edge_from: Vec<u32>,
    edge_to: Vec<u32>,
    start_vals: Vec<u64>,
    start_to: Vec<u32>,
    /// Per block, its out-edges, in successor order (so their sums are
    /// ascending), at `out[out_at[b]..out_at[b + 1]]`.
    out_at: Vec<u32>,
    out: Vec<EdgeIx>,
}

impl Numbering {
    /// Number the paths of `cfg` as it is now. Fails when `NP(ENTRY)`
    /// overflows or exceeds `max_paths`.
    pub fn compute(cfg: &Cfg, max_paths: u64) -> Result<Numbering, NumberingError> {
        let blocks = cfg.blocks();
        let edges = cfg.edges();
        let n = blocks.len();
        let dag_to = |e: EdgeIx| -> u32 {
            let edge = cfg.edge(e);
            match edge.to() {
                EdgeTarget::Block(b) if !edge.is_back() => b.0,
                _ => EXIT,
            }
        };

        // Reverse topological order: depth-first post-order of the DAG, from
        // every block in index order.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for root in 0..n as u32 {
            if seen[root as usize] {
                continue;
            }
            seen[root as usize] = true;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                let out = blocks[v as usize].out();
                if *i == out.len() {
                    order.push(v);
                    stack.pop();
                    continue;
                }
                let w = dag_to(out[*i]);
                *i += 1;
                if w != EXIT && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push((w, 0));
                }
            }
        }

        let mut np = vec![0u64; n];
        let mut sums = vec![0u64; edges.len()];
        for &v in &order {
            let mut sum = 0u64;
            for &e in blocks[v as usize].out() {
                let w = dag_to(e);
                let np_w = if w == EXIT { 1 } else { np[w as usize] };
                sums[e.index()] = sum;
                sum = sum.checked_add(np_w).ok_or(NumberingError::Overflow)?;
            }
            np[v as usize] = sum;
        }

        let mut start_vals = Vec::with_capacity(cfg.starts().len());
        let mut start_to = Vec::with_capacity(cfg.starts().len());
        let mut paths = 0u64;
        for k in 0..cfg.starts().len() as u32 {
            let to = cfg.start_target(StartIx(k));
            start_vals.push(paths);
            start_to.push(to.0);
            paths = paths
                .checked_add(np[to.index()])
                .ok_or(NumberingError::Overflow)?;
        }
        if paths > max_paths {
            return Err(NumberingError::TooManyPaths {
                paths,
                limit: max_paths,
            });
        }
        let back_start = edges
            .iter()
            .map(|edge| match (edge.is_back(), edge.start_slot()) {
                (false, _) => NOT_BACK,
                (true, Some(k)) => k.0,
                (true, None) => NO_START,
            })
            .collect();

        let mut out_at = Vec::with_capacity(n + 1);
        let mut out = Vec::with_capacity(edges.len());
        for b in blocks {
            out_at.push(out.len() as u32);
            out.extend_from_slice(b.out());
        }
        out_at.push(out.len() as u32);

        Ok(Numbering {
            generation: cfg.generation(),
            paths,
            np,
            sums,
            back_start,
            edge_from: edges.iter().map(|e| e.from().0).collect(),
            edge_to: (0..edges.len() as u32).map(|e| dag_to(EdgeIx(e))).collect(),
            start_vals,
            start_to,
            out_at,
            out,
        })
    }

    /// The graph generation this numbers.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// True if this numbers `cfg` as it is (same generation, same blocks
    /// and edges): then [`Numbering::val`] and [`Numbering::start_val`]
    /// answer for every edge and start of it.
    #[inline]
    pub(crate) fn fits(&self, cfg: &Cfg) -> bool {
        self.generation == cfg.generation()
            && self.sums.len() == cfg.edges().len()
            && self.np.len() == cfg.blocks().len()
            && self.start_vals.len() == cfg.starts().len()
    }

    /// `NP(ENTRY)`: the number of paths; ids are `0..paths()`.
    #[inline]
    pub fn paths(&self) -> u64 {
        self.paths
    }

    /// `NP(b)`: the number of paths from `b` to EXIT.
    #[inline]
    pub fn np(&self, b: BlockIx) -> u64 {
        self.np[b.index()]
    }

    /// What taking `e` does to the path register.
    #[inline]
    pub fn val(&self, e: EdgeIx) -> EdgeVal {
        let sum = self.sums[e.index()];
        match self.back_start[e.index()] {
            NOT_BACK => EdgeVal::Add(sum),
            NO_START => EdgeVal::Back { end: sum, start: 0 },
            k => EdgeVal::Back {
                end: sum,
                start: self.start_vals[k as usize],
            },
        }
    }

    /// `Val(ENTRY→s)`: the register's value when a path begins at `s`.
    #[inline]
    pub fn start_val(&self, s: StartIx) -> u64 {
        self.start_vals[s.index()]
    }

    /// The path with sum `id`, or `None` if `id >= paths()`.
    pub fn decode(&self, id: u64) -> Option<Vec<Step>> {
        if id >= self.paths {
            return None;
        }
        let k = self.start_vals.partition_point(|&v| v <= id) - 1;
        let mut r = id - self.start_vals[k];
        let mut steps = vec![Step::Start(StartIx(k as u32))];
        let mut v = self.start_to[k];
        while v != EXIT {
            let out =
                &self.out[self.out_at[v as usize] as usize..self.out_at[v as usize + 1] as usize];
            let e = out[out.partition_point(|&e| self.sums[e.index()] <= r) - 1];
            r -= self.sums[e.index()];
            steps.push(Step::Edge(e));
            v = self.edge_to[e.index()];
        }
        debug_assert_eq!(r, 0);
        Some(steps)
    }

    /// The prefix, ending on entering `at`, of a path that has reached `at`
    /// with register `r`. The partial sum alone names the prefix: completing
    /// it by the value-0 edge at every vertex gives the path with sum `r`,
    /// which goes through `at` once.
    pub fn decode_prefix(&self, r: u64, at: BlockIx) -> Option<Vec<Step>> {
        let mut steps = self.decode(r)?;
        let cut = steps.iter().position(|s| match *s {
            Step::Start(k) => self.start_to[k.index()] == at.0,
            Step::Edge(e) => self.edge_to[e.index()] == at.0,
        })?;
        steps.truncate(cut + 1);
        Some(steps)
    }

    /// The register value after `steps` (a path, or a prefix of one), or
    /// `None` if they are not a path of this generation.
    pub fn encode(&self, steps: &[Step]) -> Option<u64> {
        let (&Step::Start(k), rest) = steps.split_first()? else {
            return None;
        };
        let mut r = *self.start_vals.get(k.index())?;
        let mut v = self.start_to[k.index()];
        for &s in rest {
            let Step::Edge(e) = s else { return None };
            if v == EXIT || *self.edge_from.get(e.index())? != v {
                return None;
            }
            r += self.sums[e.index()];
            v = self.edge_to[e.index()];
        }
        Some(r)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cfg::{BlockEnd, CfgBuilder, EdgeKind};
    use std::collections::HashSet;

    /// Every id decodes to a distinct path, which encodes back to the id.
    fn check_bijection(cfg: &Cfg, num: &Numbering) -> Vec<Vec<u64>> {
        let mut seen = HashSet::new();
        let mut all = Vec::new();
        for id in 0..num.paths() {
            let steps = num.decode(id).unwrap();
            assert_eq!(num.encode(&steps), Some(id));
            let blocks = cfg.path_blocks(&steps);
            assert!(seen.insert(steps.clone()), "id {id} repeats a path");
            all.push(blocks);
        }
        assert!(num.decode(num.paths()).is_none());
        all
    }

    /// Blocks at 0x10, 0x20, ... with one instruction each.
    fn blocks(b: &mut CfgBuilder, n: u32) -> Vec<BlockIx> {
        (0..n)
            .map(|i| b.block(0x10 * (i as u64 + 1), 1, BlockEnd::FallThrough))
            .collect()
    }

    #[test]
    fn paper_figure_1_six_paths() {
        // A→B, A→C, B→C, B→D, C→D, D→E, D→F, E→F, F→EXIT.
        let mut b = CfgBuilder::new(0x10);
        let v = blocks(&mut b, 6);
        let (a, bb, c, d, e, f) = (v[0], v[1], v[2], v[3], v[4], v[5]);
        let ab = b.edge(a, bb, EdgeKind::FallThrough);
        let ac = b.edge(a, c, EdgeKind::Branch);
        let bc = b.edge(bb, c, EdgeKind::FallThrough);
        let bd = b.edge(bb, d, EdgeKind::Branch);
        let cd = b.edge(c, d, EdgeKind::FallThrough);
        let de = b.edge(d, e, EdgeKind::FallThrough);
        let df = b.edge(d, f, EdgeKind::Branch);
        let ef = b.edge(e, f, EdgeKind::FallThrough);
        let fx = b.exit(f, EdgeKind::Return);
        let cfg = b.build().unwrap();
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        assert_eq!(num.paths(), 6);
        let nps: Vec<u64> = v.iter().map(|&x| num.np(x)).collect();
        assert_eq!(nps, vec![6, 4, 2, 2, 1, 1]);
        let add = EdgeVal::Add;
        assert_eq!(num.val(ab), add(0));
        assert_eq!(num.val(ac), add(4));
        assert_eq!(num.val(bc), add(0));
        assert_eq!(num.val(bd), add(2));
        assert_eq!(num.val(cd), add(0));
        assert_eq!(num.val(de), add(0));
        assert_eq!(num.val(df), add(1));
        assert_eq!(num.val(ef), add(0));
        assert_eq!(num.val(fx), add(0));
        let paths = check_bijection(&cfg, &num);
        let name = |p: &Vec<u64>| -> String {
            p.iter()
                .map(|a| (b'A' + (*a / 0x10 - 1) as u8) as char)
                .collect()
        };
        let names: Vec<String> = paths.iter().map(name).collect();
        assert_eq!(
            names,
            vec!["ABCDEF", "ABCDF", "ABDEF", "ABDF", "ACDEF", "ACDF"]
        );
    }

    #[test]
    fn loop_with_two_back_edges_to_one_header() {
        // E → H; H → L1 | X; L1 → H (back) | L2; L2 → H (back); X → EXIT.
        let mut b = CfgBuilder::new(0x10);
        let v = blocks(&mut b, 5);
        let (e, h, l1, l2, x) = (v[0], v[1], v[2], v[3], v[4]);
        let eh = b.edge(e, h, EdgeKind::FallThrough);
        let hl1 = b.edge(h, l1, EdgeKind::FallThrough);
        let hx = b.edge(h, x, EdgeKind::Branch);
        let l1h = b.edge(l1, h, EdgeKind::Branch);
        let l1l2 = b.edge(l1, l2, EdgeKind::FallThrough);
        let l2h = b.edge(l2, h, EdgeKind::Jump);
        let xx = b.exit(x, EdgeKind::Return);
        let cfg = b.build().unwrap();
        assert!(cfg.edge(l1h).is_back() && cfg.edge(l2h).is_back());
        assert_eq!(cfg.edges().iter().filter(|e| e.is_back()).count(), 2);
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        // NP: X=1, L2=1 (END), L1 = 1 (END) + 1 = 2, H = NP(L1) + NP(X) = 3, E = 3.
        assert_eq!(num.np(x), 1);
        assert_eq!(num.np(l2), 1);
        assert_eq!(num.np(l1), 2);
        assert_eq!(num.np(h), 3);
        assert_eq!(num.np(e), 3);
        // ENTRY: E (0), START(l1h) → H (3), START(l2h) → H (6): parallel, distinct.
        assert_eq!(num.paths(), 9);
        assert_eq!(num.val(eh), EdgeVal::Add(0));
        assert_eq!(num.val(hl1), EdgeVal::Add(0));
        assert_eq!(num.val(hx), EdgeVal::Add(2));
        assert_eq!(num.val(l1h), EdgeVal::Back { end: 0, start: 3 });
        assert_eq!(num.val(l1l2), EdgeVal::Add(1));
        assert_eq!(num.val(l2h), EdgeVal::Back { end: 0, start: 6 });
        assert_eq!(num.val(xx), EdgeVal::Add(0));
        let paths = check_bijection(&cfg, &num);
        // Paths 3..6 and 6..9 visit the same blocks but start after different back edges.
        assert_eq!(paths[3], paths[6]);
        assert_ne!(num.decode(3), num.decode(6));
    }

    #[test]
    fn parallel_back_edges_from_one_block() {
        // H: `jne H` directly followed by H again would be a self loop; here
        // L ends with `jcc H` and a fall-through that is also H's block
        // (two parallel back edges L→H).
        let mut b = CfgBuilder::new(0x10);
        let v = blocks(&mut b, 4);
        let (e, h, l, x) = (v[0], v[1], v[2], v[3]);
        b.edge(e, h, EdgeKind::FallThrough);
        b.edge(h, l, EdgeKind::FallThrough);
        b.edge(h, x, EdgeKind::Branch);
        let p1 = b.edge(l, h, EdgeKind::FallThrough);
        let p2 = b.edge(l, h, EdgeKind::Branch);
        b.exit(x, EdgeKind::Return);
        let cfg = b.build().unwrap();
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        assert_eq!(num.np(l), 2);
        assert_eq!(num.np(h), 3);
        assert_eq!(num.paths(), 9);
        assert_eq!(num.val(p1), EdgeVal::Back { end: 0, start: 3 });
        assert_eq!(num.val(p2), EdgeVal::Back { end: 1, start: 6 });
        check_bijection(&cfg, &num);
    }

    #[test]
    fn nested_loops() {
        // E → O; O → I | X; I → I2; I2 → I (back) | O2; O2 → O (back); X → EXIT.
        let mut b = CfgBuilder::new(0x10);
        let v = blocks(&mut b, 6);
        let (e, o, i, i2, o2, x) = (v[0], v[1], v[2], v[3], v[4], v[5]);
        b.edge(e, o, EdgeKind::FallThrough);
        let oi = b.edge(o, i, EdgeKind::FallThrough);
        let ox = b.edge(o, x, EdgeKind::Branch);
        b.edge(i, i2, EdgeKind::FallThrough);
        let inner = b.edge(i2, i, EdgeKind::Branch);
        let i2o2 = b.edge(i2, o2, EdgeKind::FallThrough);
        let outer = b.edge(o2, o, EdgeKind::Jump);
        b.exit(x, EdgeKind::Return);
        let cfg = b.build().unwrap();
        let back: Vec<bool> = cfg.edges().iter().map(|e| e.is_back()).collect();
        assert_eq!(back.iter().filter(|&&b| b).count(), 2);
        assert!(cfg.edge(inner).is_back() && cfg.edge(outer).is_back());
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        // O2 = 1; I2 = END(inner) 1 + O2 1 = 2; I = 2; O = I + X = 3; E = 3.
        assert_eq!(
            [num.np(o2), num.np(i2), num.np(i), num.np(o), num.np(e)],
            [1, 2, 2, 3, 3]
        );
        // ENTRY: E (0..3), START(inner) → I (3..5), START(outer) → O (5..8).
        assert_eq!(num.paths(), 8);
        assert_eq!(num.val(oi), EdgeVal::Add(0));
        assert_eq!(num.val(ox), EdgeVal::Add(2));
        assert_eq!(num.val(inner), EdgeVal::Back { end: 0, start: 3 });
        assert_eq!(num.val(i2o2), EdgeVal::Add(1));
        assert_eq!(num.val(outer), EdgeVal::Back { end: 0, start: 5 });
        check_bijection(&cfg, &num);
    }

    #[test]
    fn irreducible_loop() {
        // E → A | B; A → B | X; B → A | X: a cycle A⇄B with two entries.
        let mut b = CfgBuilder::new(0x10);
        let v = blocks(&mut b, 4);
        let (e, a, bb, x) = (v[0], v[1], v[2], v[3]);
        let ea = b.edge(e, a, EdgeKind::FallThrough);
        let eb = b.edge(e, bb, EdgeKind::Branch);
        let ab = b.edge(a, bb, EdgeKind::FallThrough);
        let ax = b.edge(a, x, EdgeKind::Branch);
        let ba = b.edge(bb, a, EdgeKind::Branch);
        let bx = b.edge(bb, x, EdgeKind::FallThrough);
        b.exit(x, EdgeKind::Return);
        let cfg = b.build().unwrap();
        // DFS E, A, B: B→A closes the cycle; E→B is a forward edge.
        let back: Vec<EdgeIx> = (0..cfg.edges().len() as u32)
            .map(EdgeIx)
            .filter(|&e| cfg.edge(e).is_back())
            .collect();
        assert_eq!(back, vec![ba]);
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        // X = 1; B = END(ba) 1 + X 1 = 2; A = B 2 + X 1 = 3; E = A 3 + B 2 = 5.
        assert_eq!([num.np(x), num.np(bb), num.np(a), num.np(e)], [1, 2, 3, 5]);
        // ENTRY: E (0..5), START(ba) → A (5..8).
        assert_eq!(num.paths(), 8);
        assert_eq!(num.val(ea), EdgeVal::Add(0));
        assert_eq!(num.val(eb), EdgeVal::Add(3));
        assert_eq!(num.val(ab), EdgeVal::Add(0));
        assert_eq!(num.val(ax), EdgeVal::Add(2));
        assert_eq!(num.val(ba), EdgeVal::Back { end: 0, start: 5 });
        assert_eq!(num.val(bx), EdgeVal::Add(1));
        check_bijection(&cfg, &num);
    }

    #[test]
    fn switch_with_parallel_edges_and_several_exits() {
        // S → A, B, A, C (cases 0 and 2 share A), IndirectExit; A, B → J;
        // C → EXIT (noreturn call); J → EXIT (ret) and EXIT (tail call).
        let mut b = CfgBuilder::new(0x10);
        let s = b.block(0x10, 1, BlockEnd::IndirectJump);
        let a = b.block(0x20, 1, BlockEnd::Jump);
        let bb = b.block(0x30, 1, BlockEnd::FallThrough);
        let c = b.block(0x40, 1, BlockEnd::Call);
        let j = b.block(0x50, 1, BlockEnd::Branch);
        let sa0 = b.edge(s, a, EdgeKind::Indirect);
        let sb = b.edge(s, bb, EdgeKind::Indirect);
        let sa2 = b.edge(s, a, EdgeKind::Indirect);
        let sc = b.edge(s, c, EdgeKind::Indirect);
        let sx = b.exit(s, EdgeKind::IndirectExit);
        b.edge(a, j, EdgeKind::Jump);
        b.edge(bb, j, EdgeKind::FallThrough);
        b.exit(c, EdgeKind::NoReturn);
        let jr = b.exit(j, EdgeKind::Return);
        let jt = b.exit(j, EdgeKind::TailCall);
        let cfg = b.build().unwrap();
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        assert_eq!([num.np(j), num.np(a), num.np(bb), num.np(c)], [2, 2, 2, 1]);
        assert_eq!(num.np(s), 8);
        assert_eq!(num.paths(), 8);
        assert_eq!(
            [sa0, sb, sa2, sc, sx].map(|e| num.val(e)),
            [0, 2, 4, 6, 7].map(EdgeVal::Add)
        );
        assert_eq!(
            [num.val(jr), num.val(jt)],
            [EdgeVal::Add(0), EdgeVal::Add(1)]
        );
        let paths = check_bijection(&cfg, &num);
        // The two cases through A are different ids with the same blocks.
        assert_eq!(paths[0], paths[4]);
    }

    /// A chain of `n` diamonds: 2^n paths.
    pub(crate) fn diamonds(n: u32) -> Cfg {
        let mut b = CfgBuilder::new(0x1000);
        let mut top = b.block(0x1000, 1, BlockEnd::Branch);
        for i in 0..n as u64 {
            let base = 0x1000 + 0x10 * (i + 1);
            let l = b.block(base, 1, BlockEnd::Jump);
            let r = b.block(base + 4, 1, BlockEnd::FallThrough);
            let join = b.block(base + 8, 1, BlockEnd::Branch);
            b.edge(top, l, EdgeKind::FallThrough);
            b.edge(top, r, EdgeKind::Branch);
            b.edge(l, join, EdgeKind::Jump);
            b.edge(r, join, EdgeKind::FallThrough);
            top = join;
        }
        b.exit(top, EdgeKind::Return);
        b.build().unwrap()
    }

    #[test]
    fn overflow_and_limit() {
        let num = Numbering::compute(&diamonds(63), DEFAULT_MAX_PATHS);
        assert_eq!(
            num.unwrap_err(),
            NumberingError::TooManyPaths {
                paths: 1 << 63,
                limit: DEFAULT_MAX_PATHS
            }
        );
        let num = Numbering::compute(&diamonds(63), u64::MAX).unwrap();
        assert_eq!(num.paths(), 1 << 63);
        let last = num.decode((1 << 63) - 1).unwrap();
        assert_eq!(num.encode(&last), Some((1 << 63) - 1));
        assert_eq!(
            Numbering::compute(&diamonds(64), u64::MAX).unwrap_err(),
            NumberingError::Overflow
        );
        assert_eq!(Numbering::compute(&diamonds(3), 8).unwrap().paths(), 8);
        assert!(Numbering::compute(&diamonds(3), 7).is_err());
    }

    #[test]
    fn encode_rejects_foreign_steps() {
        let cfg = diamonds(2);
        let num = Numbering::compute(&cfg, DEFAULT_MAX_PATHS).unwrap();
        assert_eq!(num.encode(&[]), None);
        assert_eq!(num.encode(&[Step::Edge(EdgeIx(0))]), None);
        // Starts at the entry, then takes an edge of another block.
        assert_eq!(
            num.encode(&[Step::Start(StartIx::ENTRY), Step::Edge(EdgeIx(2))]),
            None
        );
        // Prefixes encode to their partial sum and decode back.
        let p = num.decode(3).unwrap();
        let r = num.encode(&p[..3]).unwrap();
        let at = match p[2] {
            Step::Edge(e) => match cfg.edge(e).to() {
                EdgeTarget::Block(b) => b,
                EdgeTarget::Exit => unreachable!(),
            },
            Step::Start(_) => unreachable!(),
        };
        assert_eq!(num.decode_prefix(r, at).unwrap(), p[..3].to_vec());
    }
}
