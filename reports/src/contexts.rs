//! The context views of `pathvm report`, read from the profile's calling
//! context tree ([`ContextTable`]):
//!
//! - `--by context`: the tree top-down ([`ContextView::Tree`]);
//! - `--by caller`: bottom-up, who reaches each function and with what
//!   share ([`ContextView::Callers`]);
//! - `--by callpath --depth K`: TAU's k-level call paths
//!   ([`ContextView::CallPaths`]);
//! - `--stats`: the tree's shape, as Table 3 of Ammons, Ball and Larus
//!   (PLDI 1997) ([`cct_stats`]).
//!
//! The views name contexts by their stack of function names. The tree
//! distinguishes call sites (two calls from `a` to `c` are two nodes); the
//! views merge nodes whose stacks are equal, so each stack appears once
//! ([`CctStats::nodes`] and [`CctStats::call_paths`] give both counts).
//!
//! Cost under recursion is counted once: an aggregate over several contexts
//! (a function, a call path) takes the inclusive cost of a context only when
//! no ancestor context has the same key, as the function view does.

use rustc_hash::{FxHashMap, FxHashSet};

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::{source_position, FunctionJson, ReportFormat};
use crate::glob::glob_match;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{focus_keep, ContextTable, Profile};
use crate::table::{count, hidden_note, pct, per_call, percent_of, Align, Fit, Table};

/// Which context view [`report_contexts`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextView {
    /// `--by context`: the calling context tree top-down, one indented row
    /// per context with self, inclusive, calls and cost per call; children
    /// by inclusive cost, descending. Contexts whose inclusive cost of the
    /// sort metric is below the threshold are pruned with their subtrees.
    Tree,
    /// `--by caller`: bottom-up. Each function (by self cost, descending;
    /// hidden when its self cost is below the threshold), then who calls
    /// it, up to `levels` levels of callers (1: direct callers only); each
    /// caller row carries the function's cost reached through that chain
    /// and its share of the function's inclusive cost (caller rows below
    /// the threshold are hidden). Under recursion a function is its own
    /// caller, and the shares of its callers add up to more than 100%.
    Callers {
        /// Levels of callers shown under each function (at least 1).
        levels: usize,
    },
    /// `--by callpath --depth K`: TAU's k-level call paths, the last `depth`
    /// functions of each stack (the whole stack when shorter; `depth` 1 is
    /// the flat profile, 2 caller → callee pairs), aggregated over the
    /// tree, by inclusive cost descending, hidden below the threshold.
    CallPaths {
        /// Path length K (at least 1).
        depth: usize,
    },
}

/// Options of [`report_contexts`].
#[derive(Clone, Debug)]
pub struct ContextReportOptions {
    /// The view.
    pub view: ContextView,
    /// Metrics to show; empty shows every metric of the profile.
    pub metrics: Vec<String>,
    /// Metric that orders and prunes; `None` is the first shown metric.
    pub sort_by: Option<String>,
    /// Hide rows whose cost of the sort metric (see each [`ContextView`])
    /// is below this percentage of the total; 0 shows everything.
    pub threshold_pct: f64,
    /// `--focus GLOB` (any of them): only the contexts on call paths that
    /// reach a matching function. Tree: matching contexts, everything below
    /// them and their ancestors ([`crate::focus_keep`], the rule of `run
    /// --focus`); callers: only matching functions; call paths: only paths
    /// that end in a matching function.
    pub focus: Vec<String>,
    /// `--path-contains GLOB` (any of them): only contexts whose stack
    /// holds a matching function. Tree: matching contexts with their whole
    /// subtrees, and their ancestors to reach them; callers and call
    /// paths: aggregated over those contexts only.
    pub path_contains: Vec<String>,
    /// Callers and call paths: show this many functions (paths); the tree:
    /// its first this many rows in tree order (the costliest branch first).
    pub top: Option<usize>,
    /// Text: the widest a line may be (`None`: no limit), as in
    /// [`crate::FunctionReportOptions::width`].
    pub width: Option<usize>,
    /// Text or JSON. JSON is `{"metrics", "totals", "rows"}` as in the
    /// function view, each row with `"stack": [outermost, ..., function]`
    /// before the fields of a function row; rows in the order of the text.
    pub format: ReportFormat,
}

impl Default for ContextReportOptions {
    fn default() -> Self {
        ContextReportOptions {
            view: ContextView::Tree,
            metrics: Vec::new(),
            sort_by: None,
            threshold_pct: 0.0,
            focus: Vec::new(),
            path_contains: Vec::new(),
            top: None,
            width: None,
            format: ReportFormat::Text,
        }
    }
}

/// Label of a node whose function is unknown and that is not a thread root.
pub(crate) const UNKNOWN: u32 = u32::MAX - 1;
/// Label of a thread root.
pub(crate) const THREAD: u32 = u32::MAX;

/// The name a label stands for in stacks.
pub(crate) fn label_name(profile: &Profile, label: u32) -> &str {
    match label {
        THREAD => "<thread>",
        UNKNOWN => "<unknown>",
        f => &profile.functions[f as usize].name,
    }
}

/// The calling context tree with nodes of equal stacks merged. Path 0 is
/// the root (the empty stack); a path's prefix has a smaller index.
pub(crate) struct MergedTree<'a> {
    /// Metrics per cost vector.
    pub m: usize,
    /// The path without its last function.
    pub prefix: Vec<u32>,
    /// Its last function: an index into `Profile::functions`, or a sentinel.
    pub label: Vec<u32>,
    pub depth: Vec<u32>,
    pub calls: Vec<u64>,
    /// `m` values per path: the profile's own self costs when no two
    /// nodes merge (each path is the node of the same index), so a large
    /// tree's costs are not copied.
    self_cost: std::borrow::Cow<'a, [u64]>,
    /// `m` values per path (empty when built [`MergedTree::build_lean`]).
    incl: Vec<u64>,
    /// The path of every node of the profile's context table.
    pub path_of: Vec<u32>,
}

impl<'a> MergedTree<'a> {
    /// Merges the tree of a validated profile.
    pub fn build(profile: &'a Profile) -> MergedTree<'a> {
        Self::build_with(profile, true)
    }

    /// [`MergedTree::build`] without the table of inclusive costs (as large
    /// as the self costs): [`MergedTree::incl_column`] computes them one
    /// metric at a time, and [`MergedTree::incl_of`] must not be used.
    pub fn build_lean(profile: &'a Profile) -> MergedTree<'a> {
        Self::build_with(profile, false)
    }

    fn build_with(profile: &'a Profile, with_incl: bool) -> MergedTree<'a> {
        let c = &profile.contexts;
        let m = profile.metrics.len();
        let mut prefixes = vec![0u32];
        let mut label = vec![THREAD];
        let mut depth = vec![0u32];
        let mut calls = vec![0u64];
        let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut path_of = vec![0u32; c.len()];
        for node in 0..c.len() {
            let path = if node == 0 {
                0
            } else {
                let prefix = path_of[c.parent[node] as usize];
                let l = match c.function[node] {
                    ContextTable::NO_FUNCTION
                        if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 =>
                    {
                        THREAD
                    }
                    ContextTable::NO_FUNCTION => UNKNOWN,
                    f => f,
                };
                *index.entry((prefix, l)).or_insert_with(|| {
                    prefixes.push(prefix);
                    label.push(l);
                    depth.push(depth[prefix as usize] + 1);
                    calls.push(0);
                    (prefixes.len() - 1) as u32
                })
            };
            path_of[node] = path;
            let p = path as usize;
            calls[p] = calls[p].saturating_add(c.calls[node]);
        }
        drop(index);
        let n = prefixes.len();
        let unmerged = n == c.len() && c.self_cost.len() == n * m;
        let self_cost = if unmerged {
            std::borrow::Cow::Borrowed(&c.self_cost[..])
        } else {
            let mut v = vec![0u64; n * m];
            for (node, &p) in path_of.iter().enumerate() {
                let p = p as usize;
                for k in 0..m {
                    v[p * m + k] = v[p * m + k].saturating_add(c.self_cost[node * m + k]);
                }
            }
            std::borrow::Cow::Owned(v)
        };
        let mut incl = if with_incl {
            self_cost.to_vec()
        } else {
            Vec::new()
        };
        if with_incl {
            for p in (1..n).rev() {
                let q = prefixes[p] as usize;
                for k in 0..m {
                    incl[q * m + k] = incl[q * m + k].saturating_add(incl[p * m + k]);
                }
            }
        }
        MergedTree {
            m,
            prefix: prefixes,
            label,
            depth,
            calls,
            self_cost,
            incl,
            path_of,
        }
    }

    /// The path of every node of the profile's context table, the rest
    /// dropped.
    pub fn into_path_of(self) -> Vec<u32> {
        self.path_of
    }

    /// Number of paths, the root included.
    pub fn len(&self) -> usize {
        self.prefix.len()
    }

    pub fn self_of(&self, p: usize) -> &[u64] {
        &self.self_cost[p * self.m..(p + 1) * self.m]
    }

    pub fn incl_of(&self, p: usize) -> &[u64] {
        &self.incl[p * self.m..(p + 1) * self.m]
    }

    /// Every path's inclusive cost of metric `k` (what
    /// [`MergedTree::incl_of`] holds, summed the same way).
    pub fn incl_column(&self, k: usize) -> Vec<u64> {
        let m = self.m;
        let mut col: Vec<u64> = (0..self.len()).map(|p| self.self_cost[p * m + k]).collect();
        for p in (1..self.len()).rev() {
            let q = self.prefix[p] as usize;
            col[q] = col[q].saturating_add(col[p]);
        }
        col
    }

    /// Labels of path `p`, outermost first.
    pub fn stack(&self, mut p: usize) -> Vec<u32> {
        let mut labels = Vec::with_capacity(self.depth[p] as usize);
        while p != 0 {
            labels.push(self.label[p]);
            p = self.prefix[p] as usize;
        }
        labels.reverse();
        labels
    }

    /// Children of every path, in index order.
    pub fn children(&self) -> Vec<Vec<u32>> {
        let mut children = vec![Vec::new(); self.len()];
        for p in 1..self.len() {
            children[self.prefix[p] as usize].push(p as u32);
        }
        children
    }
}

/// Which labels match the globs of a filter (`None`: no filter).
struct LabelFilter {
    globs: Vec<String>,
    cache: FxHashMap<u32, bool>,
}

impl LabelFilter {
    fn new(globs: &[String]) -> Option<LabelFilter> {
        (!globs.is_empty()).then(|| LabelFilter {
            globs: globs.to_vec(),
            cache: FxHashMap::default(),
        })
    }

    fn matches(&mut self, profile: &Profile, label: u32) -> bool {
        let globs = &self.globs;
        *self.cache.entry(label).or_insert_with(|| {
            globs
                .iter()
                .any(|g| glob_match(g, label_name(profile, label)))
        })
    }
}

/// The filters of the options, evaluated on a merged tree.
struct PathFilters {
    /// Per path: the tree view keeps it for `--focus` ([`focus_keep`]:
    /// the path matches, or one of its ancestors or descendants does).
    focus: Option<Vec<bool>>,
    /// Per path: the path or one of its ancestors matches `--path-contains`.
    contains: Option<Vec<bool>>,
    /// Per path: the tree view keeps it for `--path-contains` (the rule of
    /// `--focus`).
    contains_tree: Option<Vec<bool>>,
}

impl PathFilters {
    fn new(profile: &Profile, tree: &MergedTree, opts: &ContextReportOptions) -> PathFilters {
        let n = tree.len();
        let here_of = |filter: &mut LabelFilter| {
            let mut here = vec![false; n];
            for (p, h) in here.iter_mut().enumerate().skip(1) {
                *h = filter.matches(profile, tree.label[p]);
            }
            here
        };
        let focus_here = LabelFilter::new(&opts.focus).map(|mut f| here_of(&mut f));
        let focus = focus_here.map(|here| focus_keep(&tree.prefix, &here));
        let contains_here = LabelFilter::new(&opts.path_contains).map(|mut f| here_of(&mut f));
        let contains_tree = contains_here
            .as_deref()
            .map(|here| focus_keep(&tree.prefix, here));
        let contains = contains_here.map(|mut c| {
            for p in 1..n {
                if c[tree.prefix[p] as usize] {
                    c[p] = true;
                }
            }
            c
        });
        PathFilters {
            focus,
            contains,
            contains_tree,
        }
    }

    /// The tree view shows `p`.
    fn tree_keeps(&self, p: usize) -> bool {
        let focus = self.focus.as_ref().is_none_or(|k| k[p]);
        let contains = self.contains_tree.as_ref().is_none_or(|k| k[p]);
        focus && contains
    }

    /// The aggregated views count `p`.
    fn aggregates(&self, p: usize) -> bool {
        self.contains.as_ref().is_none_or(|c| c[p])
    }
}

/// Stacks of function labels aggregated over merged paths: the functions of
/// the callers view, their caller chains, and the call paths.
struct Suffixes {
    m: usize,
    /// Interned stacks: id 0 is the empty stack; `(prefix, label)` as in
    /// [`MergedTree`].
    prefix: Vec<u32>,
    label: Vec<u32>,
    index: FxHashMap<(u32, u32), u32>,
    /// Per stack: the stack without its first function (its bottom-up parent).
    tail: Vec<u32>,
    /// Per stack: it received at least one path.
    used: Vec<bool>,
    calls: Vec<u64>,
    self_cost: Vec<u64>,
    incl: Vec<u64>,
}

impl Suffixes {
    fn intern(&mut self, prefix: u32, label: u32) -> u32 {
        if let Some(&id) = self.index.get(&(prefix, label)) {
            return id;
        }
        let id = self.prefix.len() as u32;
        self.index.insert((prefix, label), id);
        self.prefix.push(prefix);
        self.label.push(label);
        self.tail.push(0);
        self.used.push(false);
        self.calls.push(0);
        self.self_cost.extend(std::iter::repeat_n(0, self.m));
        self.incl.extend(std::iter::repeat_n(0, self.m));
        id
    }

    /// Aggregates every path `p` for which `include(p)` into its suffixes of
    /// lengths `1..=min(max_len, depth)` (`all_lengths`) or only into the
    /// longest of them.
    fn build(
        tree: &MergedTree,
        max_len: usize,
        all_lengths: bool,
        include: impl Fn(usize) -> bool,
    ) -> Suffixes {
        let m = tree.m;
        let mut s = Suffixes {
            m,
            prefix: vec![0],
            label: vec![THREAD],
            index: FxHashMap::default(),
            tail: vec![0],
            used: vec![false],
            calls: vec![0],
            self_cost: vec![0; m],
            incl: vec![0; m],
        };
        // keys[j][p]: the last j labels of path p (all of them when fewer).
        let mut keys: Vec<Vec<u32>> = vec![vec![0; tree.len()]];
        for j in 1..=max_len {
            let mut level = vec![0u32; tree.len()];
            for p in 1..tree.len() {
                level[p] = s.intern(keys[j - 1][tree.prefix[p] as usize], tree.label[p]);
            }
            keys.push(level);
        }
        let lengths = |p: usize| {
            let longest = max_len.min(tree.depth[p] as usize);
            let shortest = if all_lengths { 1 } else { longest };
            shortest..=longest
        };
        // Depth-first walk with the number of open paths per key, so that a
        // path's inclusive cost counts only when no ancestor has its key.
        let children = tree.children();
        let mut open = vec![0u32; s.prefix.len()];
        let mut walk: Vec<(u32, bool)> = children[0].iter().rev().map(|&c| (c, false)).collect();
        while let Some((p, leaving)) = walk.pop() {
            let p = p as usize;
            if !include(p) {
                // Its descendants may still be included (never with the
                // filters used here, which are closed downwards), so walk on.
                walk.extend(children[p].iter().rev().map(|&c| (c, false)));
                continue;
            }
            if leaving {
                for j in lengths(p) {
                    open[keys[j][p] as usize] -= 1;
                }
                continue;
            }
            for j in lengths(p) {
                let k = keys[j][p] as usize;
                s.used[k] = true;
                s.tail[k] = keys[j - 1][p];
                s.calls[k] = s.calls[k].saturating_add(tree.calls[p]);
                let outermost = open[k] == 0;
                for x in 0..m {
                    s.self_cost[k * m + x] =
                        s.self_cost[k * m + x].saturating_add(tree.self_of(p)[x]);
                    if outermost {
                        s.incl[k * m + x] = s.incl[k * m + x].saturating_add(tree.incl_of(p)[x]);
                    }
                }
            }
            for j in lengths(p) {
                open[keys[j][p] as usize] += 1;
            }
            walk.push((p as u32, true));
            walk.extend(children[p].iter().rev().map(|&c| (c, false)));
        }
        s
    }

    fn stack(&self, mut k: usize) -> Vec<u32> {
        let mut labels = Vec::new();
        while k != 0 {
            labels.push(self.label[k]);
            k = self.prefix[k] as usize;
        }
        labels.reverse();
        labels
    }

    fn self_of(&self, k: usize) -> &[u64] {
        &self.self_cost[k * self.m..(k + 1) * self.m]
    }

    fn incl_of(&self, k: usize) -> &[u64] {
        &self.incl[k * self.m..(k + 1) * self.m]
    }
}

/// One row of a context view, before rendering.
struct Row {
    /// Labels, outermost first.
    stack: Vec<u32>,
    /// Indentation level in the text.
    indent: usize,
    calls: u64,
    self_cost: Vec<u64>,
    incl: Vec<u64>,
    /// Callers view: the share of the function's inclusive cost (sort metric).
    share: Option<f64>,
}

/// A context view of the profile's calling context tree (see
/// [`ContextView`] for each view and [`ContextReportOptions`] for the
/// filters). A profile without a tree gives a report without rows.
pub fn report_contexts(
    profile: &Profile,
    opts: &ContextReportOptions,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    if !crate::table::is_share(opts.threshold_pct) {
        return Err(ReportError::InvalidOption(format!(
            "threshold {} is not a percentage from 0 to 100",
            opts.threshold_pct
        )));
    }
    let min_cost = opts.threshold_pct / 100.0 * profile.totals[sel.sort] as f64;
    let tree = MergedTree::build(profile);
    let filters = PathFilters::new(profile, &tree, opts);
    let mut cut = false;
    let (rows, title) = match opts.view {
        ContextView::Tree => {
            // One row more than asked tells whether rows were cut.
            let mut rows = tree_rows(
                profile,
                &tree,
                &filters,
                sel.sort,
                min_cost,
                opts.top.map(|t| t + 1),
            );
            if let Some(top) = opts.top.filter(|&t| rows.len() > t) {
                rows.truncate(top);
                cut = true;
            }
            (rows, "Calling contexts")
        }
        ContextView::Callers { levels } => {
            if levels == 0 {
                return Err(ReportError::InvalidOption(
                    "callers need at least 1 level".into(),
                ));
            }
            let rows = caller_rows(profile, &tree, &filters, opts, sel.sort, levels, min_cost);
            (rows, "Functions and their callers")
        }
        ContextView::CallPaths { depth } => {
            if depth == 0 {
                return Err(ReportError::InvalidOption(
                    "call paths need a depth of at least 1".into(),
                ));
            }
            let rows = callpath_rows(profile, &tree, &filters, opts, sel.sort, depth, min_cost);
            (rows, "Call paths")
        }
    };
    Ok(match opts.format {
        ReportFormat::Json => render_json(profile, &sel, &rows),
        ReportFormat::Text => {
            let mut out = totals_line(&sel, &profile.totals, &profile.meta.cpu_model);
            let sort_name = &profile.metrics[sel.sort];
            out.push_str(&format!("{title}: {} rows", rows.len()));
            if cut {
                out.push_str(", the first in tree order (--top 0 shows all)");
            }
            if opts.threshold_pct > 0.0 {
                out.push_str(&format!(
                    ", threshold {} of {sort_name}",
                    pct(opts.threshold_pct)
                ));
            }
            out.push('\n');
            if profile.contexts.is_empty() {
                out.push_str("This profile has no calling context tree.\n");
                return Ok(out);
            }
            out.push('\n');
            render_text(profile, &sel, &rows, opts.view, opts.width, &mut out);
            out
        }
    })
}

fn tree_rows(
    profile: &Profile,
    tree: &MergedTree,
    filters: &PathFilters,
    sort: usize,
    min_cost: f64,
    top: Option<usize>,
) -> Vec<Row> {
    let children = tree.children();
    let shown = |p: usize| filters.tree_keeps(p) && tree.incl_of(p)[sort] as f64 >= min_cost;
    let ordered = |p: usize| {
        let mut kids: Vec<usize> = children[p]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| shown(c))
            .collect();
        kids.sort_by(|&x, &y| {
            tree.incl_of(y)[sort]
                .cmp(&tree.incl_of(x)[sort])
                .then_with(|| {
                    label_name(profile, tree.label[x]).cmp(label_name(profile, tree.label[y]))
                })
                .then(x.cmp(&y))
        });
        kids
    };
    // The first `top` rows of the tree in its order: the costliest context
    // and the way to it first.
    let top = top.unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    let mut walk: Vec<usize> = ordered(0).into_iter().rev().collect();
    while let Some(p) = walk.pop().filter(|_| rows.len() < top) {
        rows.push(Row {
            stack: tree.stack(p),
            indent: tree.depth[p] as usize - 1,
            calls: tree.calls[p],
            self_cost: tree.self_of(p).to_vec(),
            incl: tree.incl_of(p).to_vec(),
            share: None,
        });
        walk.extend(ordered(p).into_iter().rev());
    }
    rows
}

fn by_cost_then_stack<'a>(
    profile: &'a Profile,
    s: &'a Suffixes,
    cost: impl Fn(usize) -> u64 + 'a,
) -> impl FnMut(&usize, &usize) -> std::cmp::Ordering + 'a {
    move |&x, &y| {
        cost(y).cmp(&cost(x)).then_with(|| {
            let names = |k| -> Vec<&str> {
                s.stack(k)
                    .into_iter()
                    .map(|l| label_name(profile, l))
                    .collect()
            };
            names(x).cmp(&names(y)).then(x.cmp(&y))
        })
    }
}

fn caller_rows(
    profile: &Profile,
    tree: &MergedTree,
    filters: &PathFilters,
    opts: &ContextReportOptions,
    sort: usize,
    levels: usize,
    min_cost: f64,
) -> Vec<Row> {
    let s = Suffixes::build(tree, levels + 1, true, |p| filters.aggregates(p));
    let mut focus = LabelFilter::new(&opts.focus);
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); s.prefix.len()];
    let mut functions = Vec::new();
    for k in 1..s.prefix.len() {
        if !s.used[k] {
            continue;
        }
        if s.prefix[k] == 0 {
            let wanted = focus
                .as_mut()
                .is_none_or(|f| f.matches(profile, s.label[k]));
            if wanted && s.self_of(k)[sort] as f64 >= min_cost {
                functions.push(k);
            }
        } else if s.incl_of(k)[sort] as f64 >= min_cost {
            callers[s.tail[k] as usize].push(k);
        }
    }
    functions.sort_by(by_cost_then_stack(profile, &s, |k| s.self_of(k)[sort]));
    if let Some(top) = opts.top {
        functions.truncate(top);
    }
    for list in &mut callers {
        list.sort_by(by_cost_then_stack(profile, &s, |k| s.incl_of(k)[sort]));
    }
    let mut rows = Vec::new();
    for f in functions {
        let whole = s.incl_of(f)[sort];
        let mut walk = vec![(f, 0usize)];
        while let Some((k, indent)) = walk.pop() {
            rows.push(Row {
                stack: s.stack(k),
                indent,
                calls: s.calls[k],
                self_cost: s.self_of(k).to_vec(),
                incl: s.incl_of(k).to_vec(),
                share: (indent > 0).then(|| percent_of(s.incl_of(k)[sort], whole)),
            });
            walk.extend(callers[k].iter().rev().map(|&c| (c, indent + 1)));
        }
    }
    rows
}

fn callpath_rows(
    profile: &Profile,
    tree: &MergedTree,
    filters: &PathFilters,
    opts: &ContextReportOptions,
    sort: usize,
    depth: usize,
    min_cost: f64,
) -> Vec<Row> {
    let s = Suffixes::build(tree, depth, false, |p| filters.aggregates(p));
    let mut focus = LabelFilter::new(&opts.focus);
    let mut paths: Vec<usize> = (1..s.prefix.len())
        .filter(|&k| s.used[k] && s.incl_of(k)[sort] as f64 >= min_cost)
        .filter(|&k| {
            focus
                .as_mut()
                .is_none_or(|f| f.matches(profile, s.label[k]))
        })
        .collect();
    paths.sort_by(by_cost_then_stack(profile, &s, |k| s.incl_of(k)[sort]));
    if let Some(top) = opts.top {
        paths.truncate(top);
    }
    paths
        .into_iter()
        .map(|k| Row {
            stack: s.stack(k),
            indent: 0,
            calls: s.calls[k],
            self_cost: s.self_of(k).to_vec(),
            incl: s.incl_of(k).to_vec(),
            share: None,
        })
        .collect()
}

#[derive(Serialize)]
struct ContextsJson<'a> {
    metrics: &'a [String],
    totals: CostMap<'a>,
    rows: Vec<FunctionJson<'a>>,
}

fn render_json(profile: &Profile, sel: &Selection, rows: &[Row]) -> String {
    let rows = rows
        .iter()
        .map(|r| {
            let last = *r.stack.last().expect("rows have a function");
            let f = profile.functions.get(last as usize);
            FunctionJson {
                stack: Some(r.stack.iter().map(|&l| label_name(profile, l)).collect()),
                function: label_name(profile, last),
                object: f.map_or("", |f| &f.object),
                file: f.and_then(|f| f.file.as_deref()),
                line: f.and_then(|f| f.line),
                calls: r.calls,
                self_cost: sel.map(&r.self_cost),
                inclusive: sel.map(&r.incl),
            }
        })
        .collect();
    to_json(&ContextsJson {
        metrics: &sel.names,
        totals: sel.map(&profile.totals),
        rows,
    })
}

fn render_text(
    profile: &Profile,
    sel: &Selection,
    rows: &[Row],
    view: ContextView,
    width: Option<usize>,
    out: &mut String,
) {
    let sort_name = &profile.metrics[sel.sort];
    let mut table = Table::new();
    let name_header = match view {
        ContextView::Tree => "context",
        ContextView::Callers { .. } => "function <- callers",
        ContextView::CallPaths { .. } => "call path",
    };
    table.column(name_header, Align::Left).fit(Fit::Shrink);
    table.metric_columns(&sel.names, ["incl", "%", "self"]);
    table.column("calls", Align::Right);
    table
        .column(format!("{sort_name}/call"), Align::Right)
        .fit(Fit::Drop(4));
    if let ContextView::Callers { .. } = view {
        table.column("share", Align::Right);
    }
    table.column("file:line", Align::Left).fit(Fit::Drop(5));
    for r in rows {
        let names: Vec<&str> = r.stack.iter().map(|&l| label_name(profile, l)).collect();
        let name = match view {
            ContextView::Tree => format!("{}{}", "  ".repeat(r.indent), names[names.len() - 1]),
            ContextView::Callers { .. } => {
                if r.indent == 0 {
                    names[0].to_string()
                } else {
                    format!("{}<- {}", "  ".repeat(r.indent), names[0])
                }
            }
            ContextView::CallPaths { .. } => names.join(" => "),
        };
        let mut cells = vec![name];
        for &c in &sel.cols {
            cells.push(count(r.incl[c]));
            cells.push(pct(percent_of(r.incl[c], profile.totals[c])));
            cells.push(count(r.self_cost[c]));
        }
        cells.push(count(r.calls));
        cells.push(per_call(r.incl[sel.sort], r.calls));
        if let ContextView::Callers { .. } = view {
            cells.push(r.share.map(pct).unwrap_or_default());
        }
        // The position of the row's own function (the first of the stack in
        // the callers view, the last elsewhere).
        let own = match view {
            ContextView::Callers { .. } => r.stack[0],
            _ => r.stack[r.stack.len() - 1],
        };
        let f = profile.functions.get(own as usize);
        cells.push(source_position(
            f.and_then(|f| f.file.as_deref()),
            f.and_then(|f| f.line),
        ));
        table.row(cells);
    }
    let hidden = table.render_text_fit(out, width);
    out.push_str(&hidden_note(&hidden, width));
}

/// The shape of a calling context tree, as Table 3 of Ammons, Ball and
/// Larus (PLDI 1997). Heights count edges from the root: a function called
/// from the root has height 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CctStats {
    /// Nodes without the root (call sites distinguished).
    pub nodes: u64,
    /// Distinct stacks of function names (call sites merged).
    pub call_paths: u64,
    /// Distinct functions in the tree.
    pub functions: u64,
    /// Nodes without children.
    pub leaves: u64,
    /// Average height of the nodes.
    pub average_height: f64,
    /// Height of the deepest node.
    pub max_height: u64,
    /// Average number of children of the nodes that have children (the
    /// root included).
    pub average_out_degree: f64,
    /// The largest number of nodes of one function.
    pub max_replication: u64,
    /// That function (the first by name on a tie; empty without nodes).
    pub max_replicated_function: String,
    /// Distinct call-site addresses of the nodes (0, for roots, excluded).
    pub call_sites: u64,
    /// Nodes reached by a tail call.
    pub tail_calls: u64,
    /// Signal handler frames.
    pub signal_frames: u64,
    /// Thread roots.
    pub thread_roots: u64,
}

/// Statistics of the profile's calling context tree (the whole tree: the
/// filters of the views do not apply).
pub fn cct_stats(profile: &Profile) -> Result<CctStats, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    let c = &profile.contexts;
    let n = c.len();
    let mut stats = CctStats::default();
    if n <= 1 {
        return Ok(stats);
    }
    let depth = c.depths();
    let mut children = vec![0u64; n];
    let mut per_label: FxHashMap<u32, u64> = FxHashMap::default();
    let mut sites = FxHashSet::default();
    for node in 1..n {
        children[c.parent[node] as usize] += 1;
        let label = match c.function[node] {
            ContextTable::NO_FUNCTION if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 => {
                THREAD
            }
            ContextTable::NO_FUNCTION => UNKNOWN,
            f => f,
        };
        *per_label.entry(label).or_default() += 1;
        if c.call_site[node] != 0 && c.thread_of_root(node).is_none() {
            sites.insert(c.call_site[node]);
        }
        let flags = c.flags[node];
        stats.tail_calls += u64::from(flags & ContextTable::FLAG_TAIL_CALL != 0);
        stats.signal_frames += u64::from(flags & ContextTable::FLAG_SIGNAL != 0);
        stats.thread_roots += u64::from(flags & ContextTable::FLAG_THREAD_ROOT != 0);
    }
    stats.nodes = (n - 1) as u64;
    stats.call_paths = (MergedTree::build(profile).len() - 1) as u64;
    stats.functions = per_label.len() as u64;
    stats.leaves = (1..n).filter(|&x| children[x] == 0).count() as u64;
    stats.average_height = depth[1..].iter().map(|&d| d as f64).sum::<f64>() / (n - 1) as f64;
    stats.max_height = depth.iter().copied().max().unwrap_or(0) as u64;
    let interior = children.iter().filter(|&&k| k > 0).count();
    stats.average_out_degree = (n - 1) as f64 / interior as f64;
    let (label, most) = per_label
        .iter()
        .map(|(&l, &k)| (l, k))
        .max_by(|x, y| {
            x.1.cmp(&y.1)
                .then_with(|| label_name(profile, y.0).cmp(label_name(profile, x.0)))
                .then(y.0.cmp(&x.0))
        })
        .expect("the tree has nodes");
    stats.max_replication = most;
    stats.max_replicated_function = label_name(profile, label).to_string();
    stats.call_sites = sites.len() as u64;
    Ok(stats)
}

/// `--stats`: [`cct_stats`] as a short text or as a JSON object with the
/// fields of [`CctStats`] (averages rounded to 4 decimals).
pub fn report_stats(profile: &Profile, format: ReportFormat) -> Result<String, ReportError> {
    let mut s = cct_stats(profile)?;
    s.average_height = crate::table::round_pct(s.average_height);
    s.average_out_degree = crate::table::round_pct(s.average_out_degree);
    Ok(match format {
        ReportFormat::Json => to_json(&s),
        ReportFormat::Text => {
            let mut t = Table::new();
            t.column("calling context tree", Align::Left)
                .column("", Align::Right);
            let rows: [(&str, String); 11] = [
                ("nodes", count(s.nodes)),
                ("call paths (call sites merged)", count(s.call_paths)),
                ("functions", count(s.functions)),
                ("leaves", count(s.leaves)),
                ("height, average", format!("{:.2}", s.average_height)),
                ("height, maximum", count(s.max_height)),
                (
                    "out-degree, average",
                    format!("{:.2}", s.average_out_degree),
                ),
                (
                    "replication, maximum",
                    if s.max_replication == 0 {
                        "0".into()
                    } else {
                        format!(
                            "{} ({})",
                            count(s.max_replication),
                            s.max_replicated_function
                        )
                    },
                ),
                ("call sites used", count(s.call_sites)),
                ("tail-call nodes", count(s.tail_calls)),
                (
                    "signal frames, thread roots",
                    format!("{}, {}", s.signal_frames, s.thread_roots),
                ),
            ];
            for (k, v) in rows {
                t.row(vec![k.to_string(), v]);
            }
            let mut out = String::new();
            t.render_text(&mut out);
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    fn opts(view: ContextView) -> ContextReportOptions {
        ContextReportOptions {
            view,
            metrics: vec!["instructions".into()],
            ..Default::default()
        }
    }

    fn json_stacks(profile: &Profile, o: &ContextReportOptions) -> Vec<String> {
        let o = ContextReportOptions {
            format: ReportFormat::Json,
            ..o.clone()
        };
        let v: serde_json::Value =
            serde_json::from_str(&report_contexts(profile, &o).unwrap()).unwrap();
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let stack: Vec<&str> = r["stack"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap())
                    .collect();
                format!(
                    "{} calls={} self={} incl={}",
                    stack.join(">"),
                    r["calls"],
                    r["self"]["instructions"],
                    r["inclusive"]["instructions"]
                )
            })
            .collect()
    }

    #[test]
    fn inclusive_from_self_in_one_reverse_pass() {
        let p = tiny_profile();
        let incl = p.contexts.inclusive(2);
        assert_eq!(incl, [270, 33, 270, 33, 120, 12, 100, 10, 140, 20, 100, 20]);
        let t = MergedTree::build(&p);
        assert_eq!(t.incl_of(0), &[270, 33]);
    }

    #[test]
    fn tree_text_in_a_narrow_terminal() {
        let o = ContextReportOptions {
            top: Some(3),
            width: Some(50),
            ..opts(ContextView::Tree)
        };
        let text = report_contexts(&tiny_profile(), &o).unwrap();
        assert_eq!(
            text,
            "\
Totals: instructions 270
Calling contexts: 3 rows, the first in tree order (--top 0 shows all)

         -- instructions ---
context  incl        %  self  calls
main      270  100.00%    10      1
  b       140   51.85%    40      4
    c     100   37.04%   100      4

Hidden to fit 50 columns: instructions/call,
file:line (--width 0 shows every column)
"
        );
    }

    #[test]
    fn tree_text() {
        let text = report_contexts(&tiny_profile(), &opts(ContextView::Tree)).unwrap();
        assert_eq!(
            text,
            "\
Totals: instructions 270
Calling contexts: 5 rows

         -- instructions ---
context  incl        %  self  calls  instructions/call  file:line
main      270  100.00%    10      1              270.0  tiny.c:3
  b       140   51.85%    40      4               35.0  tiny.c:20
    c     100   37.04%   100      4               25.0  tiny.c:30
  a       120   44.44%    20      2               60.0  tiny.c:10
    c     100   37.04%   100      2               50.0  tiny.c:30
"
        );
    }

    #[test]
    fn tree_json_golden() {
        let o = ContextReportOptions {
            format: ReportFormat::Json,
            focus: vec!["a".into()],
            ..Default::default()
        };
        let json = report_contexts(&tiny_profile(), &o).unwrap();
        assert_eq!(
            json,
            r#"{
  "metrics": [
    "instructions",
    "l1d-miss"
  ],
  "totals": {
    "instructions": 270,
    "l1d-miss": 33
  },
  "rows": [
    {
      "stack": [
        "main"
      ],
      "function": "main",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 3,
      "calls": 1,
      "self": {
        "instructions": 10,
        "l1d-miss": 1
      },
      "inclusive": {
        "instructions": 270,
        "l1d-miss": 33
      }
    },
    {
      "stack": [
        "main",
        "a"
      ],
      "function": "a",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 10,
      "calls": 2,
      "self": {
        "instructions": 20,
        "l1d-miss": 2
      },
      "inclusive": {
        "instructions": 120,
        "l1d-miss": 12
      }
    },
    {
      "stack": [
        "main",
        "a",
        "c"
      ],
      "function": "c",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 30,
      "calls": 2,
      "self": {
        "instructions": 100,
        "l1d-miss": 10
      },
      "inclusive": {
        "instructions": 100,
        "l1d-miss": 10
      }
    }
  ]
}
"#
        );
    }

    #[test]
    fn tree_threshold_prunes_subtrees() {
        let mut o = opts(ContextView::Tree);
        o.threshold_pct = 40.0; // 108 instructions
        assert_eq!(
            json_stacks(&tiny_profile(), &o),
            [
                "main calls=1 self=10 incl=270",
                "main>b calls=4 self=40 incl=140",
                "main>a calls=2 self=20 incl=120"
            ]
        );
        o.threshold_pct = -1.0;
        assert!(matches!(
            report_contexts(&tiny_profile(), &o),
            Err(ReportError::InvalidOption(_))
        ));
    }

    #[test]
    fn tree_top_keeps_the_first_rows_in_tree_order() {
        let mut o = opts(ContextView::Tree);
        o.top = Some(3);
        assert_eq!(
            json_stacks(&tiny_profile(), &o),
            [
                "main calls=1 self=10 incl=270",
                "main>b calls=4 self=40 incl=140",
                "main>b>c calls=4 self=100 incl=100"
            ]
        );
    }

    #[test]
    fn tree_filters() {
        let p = tiny_profile();
        let mut o = opts(ContextView::Tree);
        o.focus = vec!["c".into()];
        assert_eq!(json_stacks(&p, &o).len(), 5);
        o.focus = vec!["?".into()]; // every one-letter name: a, b, c
        assert_eq!(json_stacks(&p, &o).len(), 5);
        // b, what it calls and what reaches it (as `run --focus b` keeps).
        o.focus = vec!["b".into()];
        assert_eq!(
            json_stacks(&p, &o),
            [
                "main calls=1 self=10 incl=270",
                "main>b calls=4 self=40 incl=140",
                "main>b>c calls=4 self=100 incl=100"
            ]
        );
        o.focus.clear();
        o.path_contains = vec!["b".into()];
        assert_eq!(
            json_stacks(&p, &o),
            [
                "main calls=1 self=10 incl=270",
                "main>b calls=4 self=40 incl=140",
                "main>b>c calls=4 self=100 incl=100"
            ]
        );
        o.focus = vec!["a".into()];
        assert_eq!(json_stacks(&p, &o), ["main calls=1 self=10 incl=270"]);
    }

    #[test]
    fn call_sites_are_merged_by_stack() {
        // A second call site from a to c: one row, costs added.
        let mut p = tiny_profile();
        let c = &mut p.contexts;
        c.parent.push(2);
        c.function.push(3);
        c.call_site.push(0x401300);
        c.flags.push(0);
        c.calls.push(1);
        c.self_cost.extend([50, 0]);
        p.totals = vec![320, 33];
        let rows = json_stacks(&p, &opts(ContextView::Tree));
        assert_eq!(rows[1], "main>a calls=2 self=20 incl=170");
        assert_eq!(rows[2], "main>a>c calls=3 self=150 incl=150");
        let stats = cct_stats(&p).unwrap();
        assert_eq!((stats.nodes, stats.call_paths, stats.call_sites), (6, 5, 6));
    }

    #[test]
    fn callers_bottom_up() {
        let p = tiny_profile();
        let mut o = opts(ContextView::Callers { levels: 2 });
        o.top = Some(2);
        assert_eq!(
            json_stacks(&p, &o),
            [
                "c calls=6 self=200 incl=200",
                "a>c calls=2 self=100 incl=100",
                "main>a>c calls=2 self=100 incl=100",
                "b>c calls=4 self=100 incl=100",
                "main>b>c calls=4 self=100 incl=100",
                "b calls=4 self=40 incl=140",
                "main>b calls=4 self=40 incl=140",
            ]
        );
        let text = report_contexts(
            &p,
            &ContextReportOptions {
                view: ContextView::Callers { levels: 1 },
                focus: vec!["c".into()],
                ..opts(ContextView::Tree)
            },
        )
        .unwrap();
        assert_eq!(
            text,
            "\
Totals: instructions 270
Functions and their callers: 3 rows

                     -- instructions --
function <- callers  incl       %  self  calls  instructions/call   share  file:line
c                     200  74.07%   200      6               33.3          tiny.c:30
  <- a                100  37.04%   100      2               50.0  50.00%  tiny.c:10
  <- b                100  37.04%   100      4               25.0  50.00%  tiny.c:20
"
        );
        o.view = ContextView::Callers { levels: 0 };
        assert!(matches!(
            report_contexts(&p, &o),
            Err(ReportError::InvalidOption(_))
        ));
    }

    #[test]
    fn recursion_counts_inclusive_once() {
        // root → main → r → r → r, self 1, 2, 3, 4.
        let mut p = tiny_profile();
        p.paths = Default::default();
        p.metrics.truncate(1);
        p.totals = vec![10];
        for f in &mut p.functions {
            f.self_cost.truncate(1);
            f.inclusive.truncate(1);
        }
        p.contexts = ContextTable {
            parent: vec![0, 0, 1, 2, 3],
            function: vec![u32::MAX, 0, 1, 1, 1],
            call_site: vec![0, 1, 2, 3, 3],
            flags: vec![0; 5],
            calls: vec![0, 1, 1, 1, 1],
            self_cost: vec![0, 1, 2, 3, 4],
        };
        let o = opts(ContextView::Callers { levels: 1 });
        assert_eq!(
            json_stacks(&p, &o),
            [
                "a calls=3 self=9 incl=9",
                "main>a calls=1 self=2 incl=9",
                "a>a calls=2 self=7 incl=7",
                "main calls=1 self=1 incl=10",
            ]
        );
        let o = opts(ContextView::CallPaths { depth: 2 });
        assert_eq!(
            json_stacks(&p, &o),
            [
                "main calls=1 self=1 incl=10",
                "main>a calls=1 self=2 incl=9",
                "a>a calls=2 self=7 incl=7"
            ]
        );
        let stats = cct_stats(&p).unwrap();
        assert_eq!(
            (
                stats.max_replication,
                stats.max_replicated_function.as_str()
            ),
            (3, "a")
        );
        assert_eq!(stats.max_height, 4);
    }

    #[test]
    fn callpaths_of_depth_k() {
        let p = tiny_profile();
        let o = opts(ContextView::CallPaths { depth: 2 });
        assert_eq!(
            json_stacks(&p, &o),
            [
                "main calls=1 self=10 incl=270",
                "main>b calls=4 self=40 incl=140",
                "main>a calls=2 self=20 incl=120",
                "a>c calls=2 self=100 incl=100",
                "b>c calls=4 self=100 incl=100",
            ]
        );
        // Depth 1 is the flat profile, by inclusive cost.
        let o = opts(ContextView::CallPaths { depth: 1 });
        assert_eq!(
            json_stacks(&p, &o),
            [
                "main calls=1 self=10 incl=270",
                "c calls=6 self=200 incl=200",
                "b calls=4 self=40 incl=140",
                "a calls=2 self=20 incl=120",
            ]
        );
        let mut o = opts(ContextView::CallPaths { depth: 3 });
        o.focus = vec!["c".into()];
        o.path_contains = vec!["a".into()];
        assert_eq!(json_stacks(&p, &o), ["main>a>c calls=2 self=100 incl=100"]);
        let text = report_contexts(&p, &o).unwrap();
        assert!(
            text.ends_with(
                "\nmain => a => c   100  37.04%   100      2               50.0  tiny.c:30\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn stats() {
        let s = cct_stats(&tiny_profile()).unwrap();
        assert_eq!(
            s,
            CctStats {
                nodes: 5,
                call_paths: 5,
                functions: 4,
                leaves: 2,
                average_height: 2.2,
                max_height: 3,
                average_out_degree: 1.25,
                max_replication: 2,
                max_replicated_function: "c".into(),
                call_sites: 5,
                tail_calls: 0,
                signal_frames: 0,
                thread_roots: 0,
            }
        );
        assert_eq!(
            report_stats(&tiny_profile(), ReportFormat::Json).unwrap(),
            r#"{
  "nodes": 5,
  "call_paths": 5,
  "functions": 4,
  "leaves": 2,
  "average_height": 2.2,
  "max_height": 3,
  "average_out_degree": 1.25,
  "max_replication": 2,
  "max_replicated_function": "c",
  "call_sites": 5,
  "tail_calls": 0,
  "signal_frames": 0,
  "thread_roots": 0
}
"#
        );
        assert_eq!(cct_stats(&Profile::default()).unwrap(), CctStats::default());
        let text = report_stats(&tiny_profile(), ReportFormat::Text).unwrap();
        assert!(
            text.contains("replication, maximum            2 (c)\n"),
            "{text}"
        );
    }

    #[test]
    fn thread_roots_and_empty_trees() {
        let mut p = tiny_profile();
        let c = &mut p.contexts;
        c.parent.push(0);
        c.function.push(u32::MAX);
        c.call_site.push(0);
        c.flags.push(ContextTable::FLAG_THREAD_ROOT);
        c.calls.push(0);
        c.self_cost.extend([5, 0]);
        let rows = json_stacks(&p, &opts(ContextView::Tree));
        assert_eq!(rows.last().unwrap(), "<thread> calls=0 self=5 incl=5");
        assert_eq!(cct_stats(&p).unwrap().thread_roots, 1);

        p.contexts = ContextTable::default();
        let text = report_contexts(&p, &opts(ContextView::Tree)).unwrap();
        assert!(
            text.ends_with("Calling contexts: 0 rows\nThis profile has no calling context tree.\n")
        );
        assert!(json_stacks(&p, &opts(ContextView::CallPaths { depth: 2 })).is_empty());
    }
}
