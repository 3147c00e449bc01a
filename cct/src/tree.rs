//! The calling context tree as flat columns (parents before children).

use std::mem::size_of;

use events::Addr;
use rustc_hash::{FxHashMap, FxHashSet};

/// A function as the owner's [`FunctionIndex`](crate::FunctionIndex) names it.
///
/// Ids below [`FuncId::FIRST_SYNTHETIC`] belong to the index; ids from it
/// upward are handed out by the [`CallTracker`](crate::CallTracker) for code
/// the index knows no function for (one per entry address, see
/// [`CallTracker::synthetic_entry`](crate::CallTracker::synthetic_entry)).
/// [`FuncId::ROOT`] labels the root node only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

impl FuncId {
    /// The function of the root node, which stands for no function.
    pub const ROOT: FuncId = FuncId(u32::MAX);
    /// The first id the tracker hands out for code without a symbol.
    pub const FIRST_SYNTHETIC: FuncId = FuncId(0x8000_0000);

    /// True for ids the tracker made up for code without a symbol.
    #[inline]
    pub fn is_synthetic(self) -> bool {
        self.0 >= Self::FIRST_SYNTHETIC.0 && self != Self::ROOT
    }
}

/// Index of a node of a [`Cct`]. Every node's parent has a smaller index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root: no function, no call site; its children are the bottom
    /// functions of the guest threads.
    pub const ROOT: NodeId = NodeId(0);

    /// The index as `usize`, for the flat per-node arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a context was entered, as bits (a node has a fixed set of them
/// because its key fixes the kind of transfer: a `call`, a `jmp` or a signal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeFlags(pub u8);

impl NodeFlags {
    /// No flag: entered by a `call` (or as a thread's bottom function).
    pub const NONE: NodeFlags = NodeFlags(0);
    /// Entered by a tail call (a `jmp` to another function's entry); the
    /// context ends at the tail-caller's `ret`.
    pub const TAIL_CALL: NodeFlags = NodeFlags(1);
    /// A signal handler entered while the parent context was running.
    pub const SIGNAL: NodeFlags = NodeFlags(2);
    /// The depth cap of [`RecursionPolicy::Full`](crate::RecursionPolicy::Full)
    /// was hit below this node: deeper calls were folded into it.
    pub const DEPTH_CAPPED: NodeFlags = NodeFlags(4);
    /// The bottom function of a guest thread: a child of the root whose call
    /// site is the thread's tid, so each thread has a subtree of its own.
    pub const THREAD_ROOT: NodeFlags = NodeFlags(8);
    /// The tree had reached its size cap
    /// ([`TrackerConfig::max_contexts`](crate::TrackerConfig::max_contexts))
    /// when this node called a function it had not called before: the call
    /// was folded into this node.
    pub const CONTEXTS_CAPPED: NodeFlags = NodeFlags(16);

    /// True if every bit of `other` is set in `self`.
    #[inline]
    pub fn contains(self, other: NodeFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The bits of both.
    #[inline]
    pub fn union(self, other: NodeFlags) -> NodeFlags {
        NodeFlags(self.0 | other.0)
    }
}

/// Index of the `instructions` metric (executed instructions, each further
/// iteration of a `rep` string instruction counted as one, as valgrind does).
/// Later metrics (alloc-bytes, cache misses) take the indices after it.
pub const INSTRUCTIONS: usize = 0;

/// The call site of the root and of contexts not entered by an instruction
/// of the parent (thread bottoms, signal handlers).
pub const NO_CALL_SITE: Addr = 0;

/// Key of an edge: who calls (`parent`), from where (`site`), whom (`func`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct EdgeKey {
    parent: NodeId,
    site: Addr,
    func: FuncId,
}

/// One slot of the direct-mapped cache in front of the edge map.
#[derive(Clone, Copy, Debug)]
struct CacheSlot {
    site: Addr,
    parent: u32,
    func: u32,
    /// `u32::MAX` for an empty slot.
    node: u32,
}

const _: () = assert!(size_of::<CacheSlot>() == 24);

const CACHE_BITS: u32 = 10;
const EMPTY_SLOT: CacheSlot = CacheSlot {
    site: 0,
    parent: 0,
    func: 0,
    node: u32::MAX,
};

/// A calling context tree (Ammons, Ball, Larus 1997, section 4): one node per
/// distinct chain of (call site, callee) from the root, with call sites
/// distinguished and one child per target of an indirect call.
///
/// Nodes live in flat columns indexed by [`NodeId`]; a parent always has a
/// smaller index than its children, so inclusive metrics are one reverse pass
/// ([`Cct::inclusive`]). Metrics are *self* costs, `n_metrics` `u64`s per node.
///
/// Besides the tree edges the edge map may hold *folded* edges: under
/// [`RecursionPolicy::Collapse`](crate::RecursionPolicy::Collapse) a call to a
/// function that is already an ancestor leads back to that ancestor (the
/// paper's backedges), and under `Full { max_depth }` a call from a node at
/// the cap leads to the node itself. Folded edges never change the tree.
#[derive(Clone, Debug)]
pub struct Cct {
    parent: Vec<NodeId>,
    func: Vec<FuncId>,
    call_site: Vec<Addr>,
    flags: Vec<NodeFlags>,
    depth: Vec<u32>,
    calls: Vec<u64>,
    metrics: Vec<u64>,
    n_metrics: usize,
    edges: FxHashMap<EdgeKey, NodeId>,
    cache: Box<[CacheSlot]>,
    folded_edges: usize,
    depth_cap_hits: u64,
    /// Per callee, the calls folded into a node at the depth cap: such a
    /// call enters no node of its own, so its count lives here.
    capped_calls: FxHashMap<FuncId, u64>,
    context_cap_hits: u64,
    recursion_folds: u64,
}

impl Cct {
    /// An empty tree (only the root) with `n_metrics` self metrics per node.
    ///
    /// # Panics
    /// If `n_metrics` is 0 ([`INSTRUCTIONS`] is always there).
    pub fn new(n_metrics: usize) -> Cct {
        assert!(n_metrics > 0, "a CCT has at least the instructions metric");
        Cct {
            parent: vec![NodeId::ROOT],
            func: vec![FuncId::ROOT],
            call_site: vec![NO_CALL_SITE],
            flags: vec![NodeFlags::NONE],
            depth: vec![0],
            calls: vec![0],
            metrics: vec![0; n_metrics],
            n_metrics,
            edges: FxHashMap::default(),
            cache: vec![EMPTY_SLOT; 1 << CACHE_BITS].into_boxed_slice(),
            folded_edges: 0,
            depth_cap_hits: 0,
            capped_calls: FxHashMap::default(),
            context_cap_hits: 0,
            recursion_folds: 0,
        }
    }

    /// Number of nodes, the root included (so never 0).
    #[inline]
    pub fn node_count(&self) -> usize {
        self.parent.len()
    }

    /// All nodes in index order (parents before children).
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> {
        (0..self.node_count() as u32).map(NodeId)
    }

    /// Number of `u64` metrics per node.
    #[inline]
    pub fn n_metrics(&self) -> usize {
        self.n_metrics
    }

    /// The tree parent; `None` for the root.
    #[inline]
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        (node != NodeId::ROOT).then(|| self.parent[node.index()])
    }

    /// The function of the node ([`FuncId::ROOT`] for the root).
    #[inline]
    pub fn function(&self, node: NodeId) -> FuncId {
        self.func[node.index()]
    }

    /// Address of the instruction in the parent's function that entered this
    /// context (`call` or tail `jmp`); [`NO_CALL_SITE`] for the root, thread
    /// bottoms and signal handlers.
    #[inline]
    pub fn call_site(&self, node: NodeId) -> Addr {
        self.call_site[node.index()]
    }

    /// How the context was entered.
    #[inline]
    pub fn flags(&self, node: NodeId) -> NodeFlags {
        self.flags[node.index()]
    }

    /// Number of edges from the root (the root has depth 0).
    #[inline]
    pub fn depth(&self, node: NodeId) -> u32 {
        self.depth[node.index()]
    }

    /// How many times the context was entered (calls, tail calls, signal
    /// deliveries, thread starts, and under `Collapse` the recursive calls
    /// folded onto it; not the calls folded by the depth cap).
    #[inline]
    pub fn calls(&self, node: NodeId) -> u64 {
        self.calls[node.index()]
    }

    /// The self metrics of a node.
    #[inline]
    pub fn self_metrics(&self, node: NodeId) -> &[u64] {
        let at = node.index() * self.n_metrics;
        &self.metrics[at..at + self.n_metrics]
    }

    /// One self metric of a node.
    #[inline]
    pub fn self_metric(&self, node: NodeId, metric: usize) -> u64 {
        debug_assert!(metric < self.n_metrics);
        self.metrics[node.index() * self.n_metrics + metric]
    }

    /// The self metrics of `node`, to add several at once.
    #[inline]
    pub fn self_metrics_mut(&mut self, node: NodeId) -> &mut [u64] {
        let n = self.n_metrics;
        &mut self.metrics[node.index() * n..(node.index() + 1) * n]
    }

    /// Add `value` to one self metric of `node`.
    pub fn add_metric(&mut self, node: NodeId, metric: usize, value: u64) {
        debug_assert!(metric < self.n_metrics);
        self.metrics[node.index() * self.n_metrics + metric] += value;
    }

    /// Count `n` more entries into `node`.
    #[inline]
    pub fn add_calls(&mut self, node: NodeId, n: u64) {
        self.calls[node.index()] += n;
    }

    /// Sum of one self metric over all nodes (equals the root's inclusive).
    pub fn total(&self, metric: usize) -> u64 {
        self.metrics
            .iter()
            .skip(metric)
            .step_by(self.n_metrics)
            .sum()
    }

    /// Inclusive metrics of every node, `n_metrics` per node in node order:
    /// self plus the inclusive of the children, by one reverse pass.
    pub fn inclusive(&self) -> Vec<u64> {
        let m = self.n_metrics;
        let mut incl = self.metrics.clone();
        for i in (1..self.node_count()).rev() {
            let p = self.parent[i].index();
            for k in 0..m {
                incl[p * m + k] += incl[i * m + k];
            }
        }
        incl
    }

    /// Calls that `Full { max_depth }` folded into a node at the cap.
    #[inline]
    pub fn depth_cap_hits(&self) -> u64 {
        self.depth_cap_hits
    }

    /// Calls folded into their caller's node because the tree had reached
    /// its size cap.
    #[inline]
    pub fn context_cap_hits(&self) -> u64 {
        self.context_cap_hits
    }

    /// The calls folded at the depth cap or the size cap, per callee (in no
    /// order). A
    /// function's calls are the calls of its nodes plus these, so a call
    /// count stays exact however deep the recursion goes.
    pub fn capped_calls(&self) -> impl Iterator<Item = (FuncId, u64)> + '_ {
        self.capped_calls.iter().map(|(&f, &n)| (f, n))
    }

    /// Recursive calls that `Collapse` folded back onto an ancestor.
    #[inline]
    pub fn recursion_folds(&self) -> u64 {
        self.recursion_folds
    }

    /// Where a call from `parent` at `site` to `func` goes, if it was seen
    /// before: a child, or the target of a folded edge. Looks in the
    /// direct-mapped cache first and fills it on a map hit.
    #[inline]
    pub fn edge(&mut self, parent: NodeId, site: Addr, func: FuncId) -> Option<NodeId> {
        let slot = &mut self.cache[cache_slot(parent, site, func)];
        if slot.node != u32::MAX
            && slot.site == site
            && slot.parent == parent.0
            && slot.func == func.0
        {
            return Some(NodeId(slot.node));
        }
        let node = *self.edges.get(&EdgeKey { parent, site, func })?;
        *slot = CacheSlot {
            site,
            parent: parent.0,
            func: func.0,
            node: node.0,
        };
        Some(node)
    }

    /// [`Cct::edge`] without touching the cache.
    pub fn find_edge(&self, parent: NodeId, site: Addr, func: FuncId) -> Option<NodeId> {
        self.edges.get(&EdgeKey { parent, site, func }).copied()
    }

    /// Add a child of `parent` for a call at `site` to `func`.
    ///
    /// # Panics
    /// If the edge already exists (debug builds), or the tree outgrows `u32`.
    pub fn add_child(
        &mut self,
        parent: NodeId,
        site: Addr,
        func: FuncId,
        flags: NodeFlags,
    ) -> NodeId {
        let id = u32::try_from(self.node_count())
            .ok()
            .filter(|&i| i != u32::MAX)
            .expect("CCT outgrew u32 node ids");
        let node = NodeId(id);
        self.parent.push(parent);
        self.func.push(func);
        self.call_site.push(site);
        self.flags.push(flags);
        self.depth.push(self.depth[parent.index()] + 1);
        self.calls.push(0);
        self.metrics.resize(self.metrics.len() + self.n_metrics, 0);
        self.insert_edge(parent, site, func, node);
        node
    }

    /// Record that a call from `parent` at `site` to `func` enters the
    /// existing node `target` (an ancestor of `parent` or `parent` itself).
    pub fn add_folded_edge(&mut self, parent: NodeId, site: Addr, func: FuncId, target: NodeId) {
        debug_assert!(target <= parent);
        self.folded_edges += 1;
        self.insert_edge(parent, site, func, target);
    }

    /// Record that a call from `parent` at `site` to `func` enters `parent`'s
    /// existing child `child` of that function, made for another call site.
    pub fn add_sibling_edge(&mut self, parent: NodeId, site: Addr, func: FuncId, child: NodeId) {
        debug_assert_eq!(self.parent(child), Some(parent));
        debug_assert!(self.function(child) == func);
        self.insert_edge(parent, site, func, child);
    }

    fn insert_edge(&mut self, parent: NodeId, site: Addr, func: FuncId, node: NodeId) {
        let old = self.edges.insert(EdgeKey { parent, site, func }, node);
        debug_assert!(old.is_none(), "edge inserted twice");
        self.cache[cache_slot(parent, site, func)] = CacheSlot {
            site,
            parent: parent.0,
            func: func.0,
            node: node.0,
        };
    }

    pub(crate) fn set_flags(&mut self, node: NodeId, flags: NodeFlags) {
        let f = &mut self.flags[node.index()];
        *f = f.union(flags);
    }

    /// A call to `func` folded into a node at the depth cap.
    pub(crate) fn count_depth_cap_hit(&mut self, func: FuncId) {
        self.depth_cap_hits += 1;
        *self.capped_calls.entry(func).or_default() += 1;
    }

    /// A call to `func` folded into its caller's node at the size cap.
    pub(crate) fn count_context_cap_hit(&mut self, func: FuncId) {
        self.context_cap_hits += 1;
        *self.capped_calls.entry(func).or_default() += 1;
    }

    pub(crate) fn count_recursion_fold(&mut self) {
        self.recursion_folds += 1;
    }

    /// Statistics of the tree as Table 3 of Ammons et al.
    pub fn stats(&self) -> CctStats {
        let n = self.node_count();
        let mut children = vec![0u32; n];
        for i in 1..n {
            children[self.parent[i].index()] += 1;
        }
        let (mut leaves, mut leaf_depth_sum, mut interior, mut child_sum) =
            (0u64, 0u64, 0u64, 0u64);
        let mut max_height = 0;
        let mut tail_call_nodes = 0;
        let mut signal_nodes = 0;
        let mut per_func: FxHashMap<FuncId, usize> = FxHashMap::default();
        let columns = children
            .iter()
            .zip(&self.depth)
            .zip(&self.flags)
            .zip(&self.func);
        for (((&kids, &d), &flags), &func) in columns.skip(1) {
            max_height = max_height.max(d);
            if kids == 0 {
                leaves += 1;
                leaf_depth_sum += d as u64;
            } else {
                interior += 1;
                child_sum += kids as u64;
            }
            tail_call_nodes += flags.contains(NodeFlags::TAIL_CALL) as usize;
            signal_nodes += flags.contains(NodeFlags::SIGNAL) as usize;
            *per_func.entry(func).or_default() += 1;
        }
        // Ties go to the smallest id so the answer never depends on hash order.
        let (max_replicated_function, max_replication) = per_func
            .iter()
            .map(|(&f, &c)| (f, c))
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map_or((None, 0), |(f, c)| (Some(f), c));
        let call_sites_used = self
            .edges
            .keys()
            .filter(|k| k.site != NO_CALL_SITE && k.parent != NodeId::ROOT)
            .map(|k| (k.parent, k.site))
            .collect::<FxHashSet<_>>()
            .len();
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        CctStats {
            nodes: n - 1,
            functions: per_func.len(),
            avg_height: ratio(leaf_depth_sum, leaves),
            max_height,
            avg_out_degree: ratio(child_sum, interior),
            max_replication,
            max_replicated_function,
            call_sites_used,
            folded_edges: self.folded_edges,
            tail_call_nodes,
            signal_nodes,
            depth_cap_hits: self.depth_cap_hits,
            recursion_folds: self.recursion_folds,
        }
    }
}

/// Size and shape of a [`Cct`], the columns of Table 3 of Ammons et al. that
/// a dynamic tree can know (it never sees call sites that did not execute).
/// The root stands for no function and is left out of every figure.
#[derive(Clone, Debug, PartialEq)]
pub struct CctStats {
    /// Nodes other than the root.
    pub nodes: usize,
    /// Distinct functions among the nodes.
    pub functions: usize,
    /// Mean depth of the leaves (a child of the root has depth 1).
    pub avg_height: f64,
    /// Largest depth of any node.
    pub max_height: u32,
    /// Mean number of children of the non-root nodes that have children.
    pub avg_out_degree: f64,
    /// Largest number of nodes of one function.
    pub max_replication: usize,
    /// That function (the smallest id on a tie); `None` for an empty tree.
    pub max_replicated_function: Option<FuncId>,
    /// Distinct (node, call site) pairs that made a call (tree or folded edge).
    pub call_sites_used: usize,
    /// Edges that lead back to an ancestor or into a node at the depth cap.
    pub folded_edges: usize,
    /// Nodes entered by a tail call.
    pub tail_call_nodes: usize,
    /// Signal handler nodes.
    pub signal_nodes: usize,
    /// See [`Cct::depth_cap_hits`].
    pub depth_cap_hits: u64,
    /// See [`Cct::recursion_folds`].
    pub recursion_folds: u64,
}

#[inline]
fn cache_slot(parent: NodeId, site: Addr, func: FuncId) -> usize {
    let h = (site ^ ((parent.0 as u64) << 32) ^ (func.0 as u64).rotate_left(17))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - CACHE_BITS)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inclusive_is_one_reverse_pass() {
        let mut t = Cct::new(2);
        let a = t.add_child(NodeId::ROOT, NO_CALL_SITE, FuncId(1), NodeFlags::NONE);
        let b = t.add_child(a, 0x10, FuncId(2), NodeFlags::NONE);
        let c = t.add_child(a, 0x20, FuncId(3), NodeFlags::TAIL_CALL);
        let d = t.add_child(b, 0x30, FuncId(3), NodeFlags::NONE);
        for (n, v) in [(a, 1), (b, 10), (c, 100), (d, 1000)] {
            t.add_metric(n, INSTRUCTIONS, v);
            t.add_metric(n, 1, 2 * v);
        }
        let incl = t.inclusive();
        assert_eq!(&incl[..2], &[1111, 2222]);
        assert_eq!(incl[a.index() * 2], 1111);
        assert_eq!(incl[b.index() * 2], 1010);
        assert_eq!(incl[c.index() * 2 + 1], 200);
        assert_eq!(t.total(INSTRUCTIONS), 1111);
        assert_eq!(t.total(1), 2222);
        assert_eq!(t.depth(d), 3);
        assert_eq!(t.parent(d), Some(b));
        assert_eq!(t.parent(NodeId::ROOT), None);
        assert!(t.flags(c).contains(NodeFlags::TAIL_CALL));
    }

    #[test]
    fn edge_lookup_survives_cache_collisions() {
        let mut t = Cct::new(1);
        let mut made = Vec::new();
        // Far more edges than cache slots, so slots are overwritten many times.
        for i in 0..5000u64 {
            let parent = if i < 10 {
                NodeId::ROOT
            } else {
                made[(i % 10) as usize]
            };
            let n = t.add_child(
                parent,
                0x1000 + i * 5,
                FuncId((i % 7) as u32),
                NodeFlags::NONE,
            );
            made.push(n);
        }
        for i in (0..5000u64).rev() {
            let parent = if i < 10 {
                NodeId::ROOT
            } else {
                made[(i % 10) as usize]
            };
            let key = (parent, 0x1000 + i * 5, FuncId((i % 7) as u32));
            assert_eq!(t.edge(key.0, key.1, key.2), Some(made[i as usize]));
            assert_eq!(t.edge(key.0, key.1, key.2), Some(made[i as usize]));
            assert_eq!(t.find_edge(key.0, key.1, key.2), Some(made[i as usize]));
            assert_eq!(t.edge(key.0, key.1, FuncId(99)), None);
        }
        t.add_folded_edge(made[20], 0x77, FuncId(1), made[0]);
        assert_eq!(t.edge(made[20], 0x77, FuncId(1)), Some(made[0]));
        assert_eq!(t.stats().folded_edges, 1);
    }

    #[test]
    fn stats_of_a_small_tree() {
        // root - m(1) -+- a(2) - c(4)
        //              +- b(3) -+- c(4)
        //                       +- c(4)   (second call site)
        let mut t = Cct::new(1);
        let m = t.add_child(NodeId::ROOT, NO_CALL_SITE, FuncId(1), NodeFlags::NONE);
        let a = t.add_child(m, 0x10, FuncId(2), NodeFlags::NONE);
        let b = t.add_child(m, 0x14, FuncId(3), NodeFlags::NONE);
        t.add_child(a, 0x20, FuncId(4), NodeFlags::NONE);
        t.add_child(b, 0x30, FuncId(4), NodeFlags::NONE);
        t.add_child(b, 0x34, FuncId(4), NodeFlags::SIGNAL);
        let s = t.stats();
        assert_eq!(s.nodes, 6);
        assert_eq!(s.functions, 4);
        assert_eq!(s.max_height, 3);
        assert_eq!(s.avg_height, 3.0);
        // interior: m (2 children), a (1), b (2)
        assert!((s.avg_out_degree - 5.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.max_replication, 3);
        assert_eq!(s.max_replicated_function, Some(FuncId(4)));
        assert_eq!(s.call_sites_used, 5);
        assert_eq!(s.signal_nodes, 1);
        assert_eq!(s.tail_call_nodes, 0);
    }

    #[test]
    fn synthetic_ids() {
        assert!(FuncId(0x8000_0003).is_synthetic());
        assert!(!FuncId(12).is_synthetic());
        assert!(!FuncId::ROOT.is_synthetic());
    }
}
