//! `pathvm view`: one self-contained HTML file of a profile (or of two, as
//! a comparison), for a browser, with no network.
//!
//! [`view_data`] prepares what the page shows as one compact JSON document
//! (the profile's metrics, totals, phases and threads; the functions; the
//! calling context tree with equal stacks merged; the caller/callee edges;
//! per function its hot Ball-Larus paths with their blocks, instructions,
//! source lines, Ammons-Ball-Larus class per metric and calling contexts;
//! the source lines those paths cover). Large profiles are cut to bounded
//! sizes ([`ViewOptions`]): the coldest contexts are folded into one
//! `(cut)` node per parent that keeps their cost, so every total and every
//! inclusive cost on the page stays exact; [`ViewData::notes`] says what
//! was cut. [`view_html`] puts the document into the page, whose code
//! (`view/view.js`, `view/view.css`, `view/view.html`) is embedded in the
//! binary. Nothing here reads a file: the source text comes through the
//! `read_source` callback of [`view_data`].

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::blocks::InsnIndex;
use crate::contexts::{MergedTree, THREAD, UNKNOWN};
use crate::error::ReportError;
use crate::paths::{Classifier, PathClass};
use crate::profile::{file_name, PathLine, PathNumbering, Profile};
use crate::threads::thread_totals;

/// Bounds on what the page carries.
#[derive(Clone, Debug)]
pub struct ViewOptions {
    /// Contexts of the merged tree kept (the costliest, by their largest
    /// share of any metric's total); the others are folded into `(cut)`
    /// nodes.
    pub max_contexts: usize,
    /// Function rows kept (the costliest by any metric's share).
    pub max_functions: usize,
    /// Functions whose paths are kept (the costliest by their paths' cost).
    pub max_path_functions: usize,
    /// Paths kept per function (the costliest).
    pub max_paths: usize,
    /// The share of some metric's total (in [0, 1]) a function's paths
    /// must reach for them to be kept (the startup code's many cold paths
    /// would otherwise make most of the file).
    pub min_path_share: f64,
    /// Calling contexts kept per path (the most frequent).
    pub max_path_contexts: usize,
    /// Percent of a metric's total that makes a path hot (the Ammons,
    /// Ball and Larus threshold of `report --by path`).
    pub threshold: f64,
}

impl Default for ViewOptions {
    fn default() -> ViewOptions {
        ViewOptions {
            max_contexts: 40_000,
            max_functions: 20_000,
            max_path_functions: 400,
            max_paths: 40,
            min_path_share: 0.001,
            max_path_contexts: 16,
            threshold: 1.0,
        }
    }
}

/// The page's data, ready to embed.
#[derive(Clone, Debug)]
pub struct ViewData {
    /// The JSON document the page reads.
    pub json: String,
    /// What was cut to keep the file small, in words, one line each.
    pub notes: Vec<String>,
}

/// Label of a `(cut)` node in [`TreeJson::function`].
const CUT: i64 = -3;

#[derive(Serialize)]
struct MetaJson<'a> {
    command: &'a [String],
    cpu_model: &'a str,
    config: &'a [(String, String)],
    stop: &'a str,
    exit_status: i32,
    pathvm_version: &'a str,
    /// `[path, size, id]` per object.
    objects: Vec<(&'a str, u64, &'a str)>,
}

/// Function rows as columns; costs `metrics.len()` per row.
#[derive(Default, Serialize)]
struct FunctionsJson<'a> {
    /// Inlined functions (`NAME [inlined]`) follow the profile's rows.
    name: Vec<std::borrow::Cow<'a, str>>,
    /// File name of the object (`libc.so.6`).
    object: Vec<std::borrow::Cow<'a, str>>,
    file: Vec<Option<std::borrow::Cow<'a, str>>>,
    line: Vec<Option<u32>>,
    calls: Vec<u64>,
    #[serde(rename = "self")]
    self_cost: Vec<u64>,
    incl: Vec<u64>,
}

/// The merged calling context tree as columns, parents first; node 0 the
/// root. `function`: an index into the functions, -1 unknown code, -2 a
/// thread root, -3 `(cut)` (whose `calls` is the number of contexts
/// folded into it, and whose self cost is their inclusive cost).
#[derive(Default, Serialize)]
struct TreeJson {
    parent: Vec<u32>,
    function: Vec<i64>,
    calls: Vec<u64>,
    #[serde(rename = "self")]
    self_cost: Vec<u64>,
}

/// A source file: its name and the lines of it the page shows, as
/// `[first line number, [text...]]` ranges; `found` false when it could
/// not be read (the page shows disassembly instead).
#[derive(Serialize)]
struct FileJson {
    name: String,
    found: bool,
    ranges: Vec<(u32, Vec<String>)>,
}

#[derive(Serialize)]
struct BlockJson<'a> {
    start: u64,
    insns: &'a [u32],
    text: &'a [String],
    /// Per instruction: `[file, line]` (file an index into `files`; -1
    /// when unknown).
    lines: Vec<(i64, u32)>,
}

#[derive(Serialize)]
struct PathJson {
    id: u64,
    blocks: Vec<u32>,
    length: u64,
    truncated: bool,
    exit: bool,
    after: Option<u64>,
    count: u64,
    cost: Vec<u64>,
    /// One letter per metric: `d`ense, `s`parse or `c`old.
    class: String,
    /// `[tree node, times taken there]`, most frequent first (contexts
    /// that were cut from the tree are left out).
    contexts: Vec<(u32, u64)>,
}

#[derive(Serialize)]
struct PathFunctionJson<'a> {
    /// Index into the functions (-1 when the function has no row).
    function: i64,
    entry: u64,
    numbering: &'static str,
    frames: u64,
    paths_taken: usize,
    blocks: Vec<BlockJson<'a>>,
    paths: Vec<PathJson>,
    /// `[file, line, costs...]` per source line of the function's
    /// instructions (`report --by line`'s rule).
    line_costs: Vec<(i64, u32, Vec<u64>)>,
    /// `[start, executions, costs...]` per executed block (translation
    /// block) of the function, exact in every metric, by start address.
    block_costs: Vec<(u64, u64, Vec<u64>)>,
    /// `[address, costs...]` per instruction of the function with a cost,
    /// by address (empty for profiles without costs per instruction).
    insn_costs: Vec<(u64, Vec<u64>)>,
}

#[derive(Serialize)]
struct ViewJson<'a> {
    format: u32,
    meta: MetaJson<'a>,
    metrics: &'a [String],
    totals: &'a [u64],
    phases: Vec<(&'a str, &'a [u64])>,
    /// `[tid, function it started in, costs]`.
    threads: Vec<(u32, String, Vec<u64>)>,
    functions: FunctionsJson<'a>,
    tree: TreeJson,
    /// `[caller, callee, calls, inclusive costs...]` between function rows.
    edges: Vec<(u32, u32, u64, Vec<u64>)>,
    files: Vec<FileJson>,
    paths: Vec<PathFunctionJson<'a>>,
    threshold: f64,
    notes: Vec<String>,
    /// Differences between the runs that explain changes (comparison only).
    differences: Vec<String>,
    /// The paths of both runs matched by function and route (comparison
    /// only): see [`path_changes`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    path_changes: Vec<PathChangesJson>,
    /// The old profile of a comparison (`pathvm view OLD NEW`).
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<Box<ViewJson<'a>>>,
}

/// The largest share any metric of `cost` has of its total, in [0, 1].
fn max_share(cost: &[u64], totals: &[u64]) -> f64 {
    cost.iter()
        .zip(totals)
        .filter(|(_, &t)| t > 0)
        .map(|(&c, &t)| c as f64 / t as f64)
        .fold(0.0, f64::max)
}

/// Indices `0..n` by score descending, then index.
fn ranked(n: usize, score: impl Fn(usize) -> f64) -> Vec<usize> {
    let s: Vec<f64> = (0..n).map(score).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
    order
}

/// The profile's page data; with `base`, a comparison of `base` (old) and
/// `profile` (new). `read_source` is asked for the text of each source
/// file the kept paths cover (by the name DWARF gave) and answers `None`
/// when it cannot be read.
pub fn view_data(
    profile: &Profile,
    base: Option<&Profile>,
    read_source: &mut dyn FnMut(&str) -> Option<String>,
    opts: &ViewOptions,
) -> Result<ViewData, ReportError> {
    for p in std::iter::once(profile).chain(base) {
        p.validate().map_err(ReportError::InvalidProfile)?;
        if p.metrics.is_empty() {
            return Err(ReportError::NoMetrics);
        }
    }
    if !crate::table::is_share(opts.threshold) {
        return Err(ReportError::InvalidOption(format!(
            "--threshold {}: not a percentage from 0 to 100",
            opts.threshold
        )));
    }
    let mut notes = Vec::new();
    let mut doc = one_view(profile, read_source, opts, &mut notes);
    if let Some(old) = base {
        let mut old_notes = Vec::new();
        let old_doc = one_view(old, read_source, opts, &mut old_notes);
        notes.extend(old_notes.into_iter().map(|n| format!("old profile: {n}")));
        doc.differences = crate::diff::run_differences(&old.meta, &profile.meta);
        doc.path_changes = path_changes(old, profile, opts, &mut notes);
        doc.base = Some(Box::new(old_doc));
    }
    doc.notes = notes.clone();
    let json = serde_json::to_string(&doc)
        .map_err(|e| ReportError::InvalidProfile(format!("cannot write the page's data: {e}")))?;
    Ok(ViewData { json, notes })
}

fn one_view<'a>(
    profile: &'a Profile,
    read_source: &mut dyn FnMut(&str) -> Option<String>,
    opts: &ViewOptions,
    notes: &mut Vec<String>,
) -> ViewJson<'a> {
    // Inclusive costs are computed a metric at a time where needed: their
    // table is as large as the profile's self costs.
    let tree = MergedTree::build_lean(profile);
    let (tree_json, new_node) = cut_tree(profile, &tree, opts.max_contexts, notes);
    let (functions, kept_fn) = functions_json(profile, opts.max_functions, notes);
    let edges = edges_json(&tree, &kept_fn);
    // The paths need only each context's merged path: the tree's costs go
    // first (on a 1M-context profile they are as large as the profile's).
    let path_of = tree.into_path_of();
    let mut files = FileTable::default();
    let paths = paths_json(
        profile, &path_of, &new_node, &kept_fn, &mut files, opts, notes,
    );
    let files = files.finish(read_source);
    ViewJson {
        format: 1,
        meta: MetaJson {
            command: &profile.meta.command,
            cpu_model: &profile.meta.cpu_model,
            config: &profile.meta.config,
            stop: &profile.meta.stop,
            exit_status: profile.meta.exit_status,
            pathvm_version: &profile.meta.pathvm_version,
            objects: profile
                .meta
                .objects
                .iter()
                .map(|o| (o.path.as_str(), o.size, o.id.as_str()))
                .collect(),
        },
        metrics: &profile.metrics,
        totals: &profile.totals,
        phases: profile
            .phases
            .iter()
            .map(|p| (p.name.as_str(), p.totals.as_slice()))
            .collect(),
        threads: thread_totals(profile)
            .into_iter()
            .map(|t| (t.tid, t.root, t.cost))
            .collect(),
        functions,
        tree: tree_json,
        edges: edges
            .into_iter()
            .map(|((a, b), (calls, cost))| (a, b, calls, cost))
            .collect(),
        files,
        paths,
        threshold: opts.threshold,
        notes: Vec::new(),
        differences: Vec::new(),
        path_changes: Vec::new(),
        base: None,
    }
}

/// The merged tree with at most `max` nodes (the root and `(cut)` nodes
/// not counted), and the new index of every merged node (`u32::MAX` when
/// cut). A node's inclusive cost is never below a descendant's, so the
/// costliest nodes by share include their ancestors.
fn cut_tree(
    profile: &Profile,
    tree: &MergedTree,
    max: usize,
    notes: &mut Vec<String>,
) -> (TreeJson, Vec<u32>) {
    let m = tree.m;
    let n = tree.len();
    let mut keep = vec![true; n];
    if n > max + 1 {
        // Each path's largest share of a total (`max_share` of its
        // inclusive costs), a metric at a time.
        let mut share = vec![0.0f64; n];
        for (k, &t) in profile.totals.iter().enumerate().take(m) {
            if t == 0 {
                continue;
            }
            for (s, &v) in share.iter_mut().zip(&tree.incl_column(k)) {
                *s = s.max(v as f64 / t as f64);
            }
        }
        let order = ranked(n, |p| if p == 0 { f64::INFINITY } else { share[p] });
        drop(share);
        keep = vec![false; n];
        for &p in order.iter().take(max + 1) {
            keep[p] = true;
        }
        // A tie could leave an ancestor out; keep the set closed upwards.
        for p in (1..n).rev() {
            if keep[p] {
                keep[tree.prefix[p] as usize] = true;
            }
        }
    }
    let mut out = TreeJson::default();
    let mut new_of = vec![u32::MAX; n];
    // Per cut node: the (cut) node it is folded into.
    let mut slot_of = vec![usize::MAX; n];
    // Per kept parent: its (cut) node's index, once it has one.
    let mut cut_of: FxHashMap<u32, usize> = FxHashMap::default();
    // The tops of cut subtrees and their (cut) nodes.
    let mut tops: Vec<(u32, u32)> = Vec::new();
    for p in 0..n {
        let q = tree.prefix[p] as usize;
        if keep[p] {
            new_of[p] = out.parent.len() as u32;
            out.parent.push(if p == 0 { 0 } else { new_of[q] });
            out.function.push(match tree.label[p] {
                _ if p == 0 => -1,
                THREAD => -2,
                UNKNOWN => -1,
                f => f as i64,
            });
            out.calls.push(tree.calls[p]);
            out.self_cost.extend_from_slice(tree.self_of(p));
            continue;
        }
        let slot = if keep[q] {
            // The top of a cut subtree: its inclusive cost goes to the
            // parent's (cut) node.
            let slot = *cut_of.entry(new_of[q]).or_insert_with(|| {
                out.parent.push(new_of[q]);
                out.function.push(CUT);
                out.calls.push(0);
                out.self_cost.extend(std::iter::repeat_n(0, m));
                out.parent.len() - 1
            });
            tops.push((p as u32, slot as u32));
            slot
        } else {
            slot_of[q]
        };
        slot_of[p] = slot;
        out.calls[slot] += 1;
    }
    if !tops.is_empty() {
        for k in 0..m {
            let incl = tree.incl_column(k);
            for &(p, slot) in &tops {
                let v = &mut out.self_cost[slot as usize * m + k];
                *v = v.saturating_add(incl[p as usize]);
            }
        }
    }
    let kept = keep.iter().filter(|&&k| k).count() - 1;
    if kept < n - 1 {
        notes.push(format!(
            "calling contexts: the {} costliest of {} shown; {} colder ones folded into \
             `(cut)` nodes that keep their cost",
            count_text(kept),
            count_text(n - 1),
            count_text(n - 1 - kept),
        ));
    }
    (out, new_of)
}

fn count_text(n: usize) -> String {
    crate::table::count(n as u64)
}

/// Function rows (the costliest `max`), and the new index of every row
/// (`u32::MAX` when left out).
fn functions_json<'a>(
    profile: &'a Profile,
    max: usize,
    notes: &mut Vec<String>,
) -> (FunctionsJson<'a>, Vec<u32>) {
    use std::borrow::Cow;
    let inline = crate::inline::InlineSplit::of(profile);
    let physical = profile.functions.len();
    let n = physical + inline.rows.len();
    let own_self = |i: usize| -> Cow<'_, [u64]> {
        match profile.functions.get(i) {
            Some(f) if inline.moved.contains_key(&(i as u32)) => {
                Cow::Owned(inline.self_cost(i as u32, &f.self_cost))
            }
            Some(f) => Cow::Borrowed(&f.self_cost[..]),
            None => Cow::Borrowed(&inline.rows[i - physical].self_cost[..]),
        }
    };
    let row = |i: usize| -> &crate::FunctionRow {
        profile
            .functions
            .get(i)
            .unwrap_or_else(|| &inline.rows[i - physical])
    };
    let mut kept: Vec<usize> = (0..n).collect();
    if n > max {
        kept = ranked(n, |i| {
            max_share(&row(i).inclusive, &profile.totals)
                .max(max_share(&own_self(i), &profile.totals))
        });
        kept.truncate(max);
        kept.sort_unstable();
        notes.push(format!(
            "functions: the {} costliest of {} shown",
            count_text(max),
            count_text(n)
        ));
    }
    let mut new_of = vec![u32::MAX; physical];
    let mut out = FunctionsJson::default();
    for (new, &i) in kept.iter().enumerate() {
        if i < physical {
            new_of[i] = new as u32;
            let f = &profile.functions[i];
            out.name.push(Cow::Borrowed(&f.name));
            out.object.push(Cow::Borrowed(file_name(&f.object)));
            out.file.push(f.file.as_deref().map(Cow::Borrowed));
        } else {
            let f = &inline.rows[i - physical];
            out.name.push(Cow::Owned(f.name.clone()));
            out.object
                .push(Cow::Owned(file_name(&f.object).to_string()));
            out.file.push(f.file.clone().map(Cow::Owned));
        }
        let f = row(i);
        out.line.push(f.line);
        out.calls.push(f.calls);
        out.self_cost.extend_from_slice(&own_self(i));
        out.incl.extend_from_slice(&f.inclusive);
    }
    (out, new_of)
}

type Edges = BTreeMap<(u32, u32), (u64, Vec<u64>)>;

/// Caller → callee edges between function rows, from the merged tree: the
/// calls of every context of the callee under a context of the caller, and
/// their inclusive cost counted once per outermost activation of the pair
/// (`a → b → a → b` counts the outer `a → b` only).
fn edges_json(tree: &MergedTree, kept_fn: &[u32]) -> Edges {
    let m = tree.m;
    let is_fn = |l: u32| l != THREAD && l != UNKNOWN;
    let mut pair_id: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut pair_of = vec![u32::MAX; tree.len()];
    for p in 1..tree.len() {
        let q = tree.prefix[p] as usize;
        if q != 0 && is_fn(tree.label[q]) && is_fn(tree.label[p]) {
            let key = (tree.label[q], tree.label[p]);
            let next = pair_id.len() as u32;
            pair_of[p] = *pair_id.entry(key).or_insert(next);
        }
    }
    let outer = crate::profile::outermost_activations(&tree.prefix, &pair_of);
    let mut edges: Vec<((u32, u32), (u64, Vec<u64>))> = Vec::new();
    let mut edge_of: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    // The outermost activations and their edges, whose inclusive costs are
    // added a metric at a time below.
    let mut outermost: Vec<(u32, u32)> = Vec::new();
    for p in 1..tree.len() {
        if pair_of[p] == u32::MAX {
            continue;
        }
        let (a, b) = (
            kept_fn[tree.label[tree.prefix[p] as usize] as usize],
            kept_fn[tree.label[p] as usize],
        );
        if a == u32::MAX || b == u32::MAX {
            continue;
        }
        let e = *edge_of.entry((a, b)).or_insert_with(|| {
            edges.push(((a, b), (0, vec![0; m])));
            (edges.len() - 1) as u32
        });
        let calls = &mut edges[e as usize].1 .0;
        *calls = calls.saturating_add(tree.calls[p]);
        if outer[p] {
            outermost.push((p as u32, e));
        }
    }
    drop((pair_of, outer, edge_of));
    if !outermost.is_empty() {
        for k in 0..m {
            let incl = tree.incl_column(k);
            for &(p, e) in &outermost {
                let v = &mut edges[e as usize].1 .1[k];
                *v = v.saturating_add(incl[p as usize]);
            }
        }
    }
    edges.into_iter().collect()
}

/// Source files the page names, and the lines of each it shows.
#[derive(Default)]
struct FileTable {
    index: BTreeMap<String, usize>,
    names: Vec<String>,
    /// Per file: the line ranges wanted (inclusive).
    wanted: Vec<Vec<(u32, u32)>>,
}

impl FileTable {
    fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.index.insert(name.to_string(), i);
        self.names.push(name.to_string());
        self.wanted.push(Vec::new());
        i
    }

    fn want(&mut self, file: usize, lo: u32, hi: u32) {
        self.wanted[file].push((lo.saturating_sub(2).max(1), hi.saturating_add(2)));
    }

    fn finish(self, read_source: &mut dyn FnMut(&str) -> Option<String>) -> Vec<FileJson> {
        let mut out = Vec::new();
        for (name, mut wanted) in self.names.into_iter().zip(self.wanted) {
            let text = if wanted.is_empty() {
                None
            } else {
                read_source(&name)
            };
            let Some(text) = text else {
                out.push(FileJson {
                    name,
                    found: false,
                    ranges: Vec::new(),
                });
                continue;
            };
            let lines: Vec<&str> = text.lines().collect();
            wanted.sort_unstable();
            let mut merged: Vec<(u32, u32)> = Vec::new();
            for (lo, hi) in wanted {
                match merged.last_mut() {
                    Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                    _ => merged.push((lo, hi)),
                }
            }
            let ranges = merged
                .into_iter()
                .filter(|&(lo, _)| (lo as usize) <= lines.len())
                .map(|(lo, hi)| {
                    let hi = (hi as usize).min(lines.len());
                    let text = lines[lo as usize - 1..hi]
                        .iter()
                        .map(|l| l.to_string())
                        .collect();
                    (lo, text)
                })
                .collect();
            out.push(FileJson {
                name,
                found: true,
                ranges,
            });
        }
        out
    }
}

/// Lines of one function: all of them from its first to its last when
/// they are close, else each with two lines around.
const SPAN_LINES: u32 = 400;

#[allow(clippy::too_many_arguments)]
fn paths_json<'a>(
    profile: &'a Profile,
    path_of: &[u32],
    new_node: &[u32],
    kept_fn: &[u32],
    files: &mut FileTable,
    opts: &ViewOptions,
    notes: &mut Vec<String>,
) -> Vec<PathFunctionJson<'a>> {
    let m = profile.metrics.len();
    let pp = &profile.paths;
    let classifiers: Vec<Classifier> = (0..m)
        .map(|k| Classifier::new(profile, k, opts.threshold))
        .collect();
    // Per function: per path, count, instructions, cost and contexts.
    struct Agg {
        count: u64,
        insns: u64,
        cost: Vec<u64>,
        contexts: BTreeMap<u32, u64>,
    }
    let mut per_fn: Vec<(usize, Vec<Agg>, f64)> = Vec::new();
    for (fi, f) in pp.functions.iter().enumerate() {
        if f.rows.is_empty() {
            continue;
        }
        let mut aggs: Vec<Agg> = (0..f.paths.len())
            .map(|_| Agg {
                count: 0,
                insns: 0,
                cost: vec![0; m],
                contexts: BTreeMap::new(),
            })
            .collect();
        for r in &f.rows {
            let a = &mut aggs[r.path as usize];
            a.count = a.count.saturating_add(r.count);
            a.insns = a.insns.saturating_add(r.insns);
            for (x, &v) in a.cost.iter_mut().zip(&r.cost) {
                *x = x.saturating_add(v);
            }
            let node = path_of
                .get(r.context as usize)
                .and_then(|&p| new_node.get(p as usize).copied())
                .unwrap_or(u32::MAX);
            if node != u32::MAX && node != 0 {
                *a.contexts.entry(node).or_insert(0) += r.count;
            }
        }
        let score: f64 = aggs
            .iter()
            .map(|a| max_share(&a.cost, &profile.totals))
            .sum();
        per_fn.push((fi, aggs, score));
    }
    let taken = per_fn.len();
    let order = ranked(per_fn.len(), |i| per_fn[i].2);
    let mut keep_fn: Vec<usize> = order
        .into_iter()
        .filter(|&i| per_fn[i].2 >= opts.min_path_share)
        .take(opts.max_path_functions)
        .collect();
    keep_fn.sort_unstable();
    if taken > keep_fn.len() {
        notes.push(format!(
            "paths: those of the {} costliest of {} functions with paths (at least {}% \
             of a metric's total)",
            count_text(keep_fn.len()),
            count_text(taken),
            opts.min_path_share * 100.0
        ));
    }
    let mut cut_paths = 0usize;
    let mut out = Vec::new();
    let insns = InsnIndex::new(profile);
    for i in keep_fn {
        let (fi, aggs, _) = &per_fn[i];
        let f = &pp.functions[*fi];
        let taken: Vec<usize> = (0..aggs.len()).filter(|&p| aggs[p].count > 0).collect();
        let mut kept: Vec<usize> = ranked(taken.len(), |j| {
            max_share(&aggs[taken[j]].cost, &profile.totals)
        })
        .into_iter()
        .map(|j| taken[j])
        .collect();
        if kept.len() > opts.max_paths {
            cut_paths += kept.len() - opts.max_paths;
            kept.truncate(opts.max_paths);
        }
        // Blocks of the kept paths, renumbered in address order.
        let mut used: Vec<u32> = kept
            .iter()
            .flat_map(|&p| f.paths[p].blocks.iter().copied())
            .collect();
        used.sort_by_key(|&b| (f.blocks[b as usize].start, b));
        used.dedup();
        let mut block_new: FxHashMap<u32, u32> = FxHashMap::default();
        let mut blocks = Vec::new();
        let mut span: BTreeMap<usize, (u32, u32)> = BTreeMap::new();
        let mut seen_lines: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
        for (new, &b) in used.iter().enumerate() {
            block_new.insert(b, new as u32);
            let blk = &f.blocks[b as usize];
            let lines = (0..blk.insns.len())
                .map(|k| {
                    let l = blk
                        .insn_lines
                        .get(k)
                        .and_then(|&i| blk.lines.get(i as usize))
                        .copied();
                    match l.and_then(|l| pp.files.get(l.file as usize).map(|n| (n, l))) {
                        Some((name, PathLine { line, .. })) => {
                            let id = files.id(name);
                            let s = span.entry(id).or_insert((line, line));
                            s.0 = s.0.min(line);
                            s.1 = s.1.max(line);
                            seen_lines.entry(id).or_default().push(line);
                            (id as i64, line)
                        }
                        None => (-1, 0),
                    }
                })
                .collect();
            blocks.push(BlockJson {
                start: blk.start,
                insns: &blk.insns,
                text: &blk.text,
                lines,
            });
        }
        for (&id, &(lo, hi)) in &span {
            if hi - lo <= SPAN_LINES {
                files.want(id, lo, hi);
            } else {
                for &l in &seen_lines[&id] {
                    files.want(id, l, l);
                }
            }
        }
        let paths = kept
            .iter()
            .map(|&p| {
                let info = &f.paths[p];
                let a = &aggs[p];
                let mut contexts: Vec<(u32, u64)> =
                    a.contexts.iter().map(|(&n, &c)| (n, c)).collect();
                contexts.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
                contexts.truncate(opts.max_path_contexts);
                PathJson {
                    id: info.id,
                    blocks: info.blocks.iter().map(|b| block_new[b]).collect(),
                    length: info.length,
                    truncated: info.truncated,
                    exit: info.exit,
                    after: info.after,
                    count: a.count,
                    cost: a.cost.clone(),
                    class: classifiers
                        .iter()
                        .map(|c| match c.class_of(&a.cost, a.insns) {
                            PathClass::Dense => 'd',
                            PathClass::Sparse => 's',
                            PathClass::Cold => 'c',
                        })
                        .collect(),
                    contexts,
                }
            })
            .collect();
        let line_costs = line_costs(profile, &insns, f.function, files);
        let block_costs = block_costs(profile, f.function);
        let insn_costs = insns
            .of_function(f.function)
            .map(|(a, c)| (*a, c.clone()))
            .collect();
        out.push(PathFunctionJson {
            function: match kept_fn.get(f.function as usize) {
                Some(&n) if n != u32::MAX => n as i64,
                _ => -1,
            },
            entry: f.entry,
            numbering: match f.numbering {
                PathNumbering::Numbered { .. } => "numbered",
                PathNumbering::Interned { .. } => "interned",
                PathNumbering::Untracked => "untracked",
            },
            frames: f.frames,
            paths_taken: taken.len(),
            blocks,
            paths,
            line_costs,
            block_costs,
            insn_costs,
        });
    }
    if cut_paths > 0 {
        notes.push(format!(
            "paths: the {} costliest of each function shown; {} colder ones left out",
            opts.max_paths,
            count_text(cut_paths)
        ));
    }
    out
}

/// Per source line of function `function`'s instructions, its costs
/// (`report --by line`'s rule, [`InsnIndex::line_sums`]), as `[file, line,
/// costs]`: file -1 for no line, line 0 for a block over several lines in
/// a profile without costs per instruction.
fn line_costs(
    profile: &Profile,
    insns: &InsnIndex,
    function: u32,
    files: &mut FileTable,
) -> Vec<(i64, u32, Vec<u64>)> {
    let mut rows: BTreeMap<(i64, u32), Vec<u64>> = BTreeMap::new();
    for ((file, line), c) in insns.line_sums(profile, Some(function)) {
        let key = match file.and_then(|f| profile.blocks.files.get(f as usize)) {
            Some(name) => (files.id(name) as i64, line.unwrap_or(0)),
            None => (-1, 0),
        };
        let e = rows.entry(key).or_insert_with(|| vec![0; c.len()]);
        for (x, v) in e.iter_mut().zip(&c) {
            *x = x.saturating_add(*v);
        }
    }
    rows.into_iter().map(|((f, l), c)| (f, l, c)).collect()
}

/// The executed blocks of `function` (`report --by block`'s rows: blocks
/// of one start merged), by start.
fn block_costs(profile: &Profile, function: u32) -> Vec<(u64, u64, Vec<u64>)> {
    let m = profile.metrics.len();
    let mut rows: BTreeMap<u64, (u64, Vec<u64>)> = BTreeMap::new();
    for b in profile
        .blocks
        .blocks
        .iter()
        .filter(|r| r.function == function)
    {
        let e = rows.entry(b.start).or_insert_with(|| (0, vec![0; m]));
        e.0 = e.0.saturating_add(b.executions);
        for (x, &v) in e.1.iter_mut().zip(&b.cost) {
            *x = x.saturating_add(v);
        }
    }
    rows.into_iter().map(|(s, (n, c))| (s, n, c)).collect()
}

/// A path of one run in a comparison: its id there, times taken, costs
/// (in that run's metric order).
#[derive(Clone, Debug, PartialEq, Serialize)]
struct PathSideJson {
    id: u64,
    count: u64,
    cost: Vec<u64>,
}

/// One route of a function in either run of a comparison.
#[derive(Debug, Serialize)]
struct PathChangeJson {
    /// Its blocks' starts as offsets from the function's entry.
    route: Vec<i64>,
    /// For a path begun after a back edge: the offset of the block the
    /// back edge left.
    after: Option<i64>,
    truncated: bool,
    /// Absent when the route was not taken in that run.
    old: Option<PathSideJson>,
    new: Option<PathSideJson>,
}

#[derive(Debug, Serialize)]
struct PathChangesJson {
    name: String,
    paths: Vec<PathChangeJson>,
}

/// A path's identity across two builds of a program: the function's name
/// and the route as offsets from its entry (path ids are not stable: they
/// depend on the numbering of the whole graph, which grows as the run
/// discovers it).
type RouteKey = (Vec<i64>, Option<i64>, bool);

/// Per function name with paths, per route: the path's id, count and
/// costs summed over its contexts.
fn routes(profile: &Profile) -> BTreeMap<&str, BTreeMap<RouteKey, PathSideJson>> {
    let mut out: BTreeMap<&str, BTreeMap<RouteKey, PathSideJson>> = BTreeMap::new();
    for f in &profile.paths.functions {
        let Some(func) = profile.functions.get(f.function as usize) else {
            continue;
        };
        let off = |a: u64| a.wrapping_sub(f.entry) as i64;
        let by_route = out.entry(func.name.as_str()).or_default();
        for r in &f.rows {
            let Some(info) = f.paths.get(r.path as usize) else {
                continue;
            };
            let route = info
                .blocks
                .iter()
                .filter_map(|&b| f.blocks.get(b as usize).map(|b| off(b.start)))
                .collect();
            let side = by_route
                .entry((route, info.after.map(off), info.truncated))
                .or_insert_with(|| PathSideJson {
                    id: info.id,
                    count: 0,
                    cost: vec![0; profile.metrics.len()],
                });
            side.count = side.count.saturating_add(r.count);
            for (x, &v) in side.cost.iter_mut().zip(&r.cost) {
                *x = x.saturating_add(v);
            }
        }
    }
    out
}

/// The paths of `old` and `new` matched by function name and route (block
/// offsets from the function's entry: exact, one route per path, and
/// there without debug information; source lines would survive code
/// moving inside the function but let two paths over one line share a
/// key). Only functions with a changed path are kept, the most changed
/// first (by the largest share of a metric's total that a path's change
/// is, in NEW's totals), each with its most changed `max_paths` routes.
fn path_changes(
    old: &Profile,
    new: &Profile,
    opts: &ViewOptions,
    notes: &mut Vec<String>,
) -> Vec<PathChangesJson> {
    let (mut old_r, new_r) = (routes(old), routes(new));
    // The change of a route, per metric of NEW, as a share of its total.
    let change = |o: Option<&PathSideJson>, n: Option<&PathSideJson>| -> f64 {
        let mut best: f64 = 0.0;
        for (k, name) in new.metrics.iter().enumerate() {
            let nv = n.map_or(0, |n| n.cost[k]);
            let ov = match (o, old.metric_index(name)) {
                (Some(o), Some(j)) => o.cost[j],
                _ => 0,
            };
            let total = new.totals.get(k).copied().unwrap_or(0).max(1);
            best = best.max(nv.abs_diff(ov) as f64 / total as f64);
        }
        if best == 0.0 && o.map(|o| o.count) != n.map(|n| n.count) {
            best = f64::MIN_POSITIVE;
        }
        best
    };
    let mut funcs: Vec<(f64, PathChangesJson)> = Vec::new();
    let mut names: Vec<&str> = new_r.keys().chain(old_r.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    let empty = BTreeMap::new();
    for name in names {
        let mut olds = old_r.remove(name).unwrap_or_default();
        let news = new_r.get(name).unwrap_or(&empty);
        let mut rows: Vec<(f64, PathChangeJson)> = Vec::new();
        for (key, n) in news {
            let o = olds.remove(key);
            rows.push((change(o.as_ref(), Some(n)), row(key, o, Some(n.clone()))));
        }
        for (key, o) in olds {
            rows.push((change(Some(&o), None), row(&key, Some(o), None)));
        }
        rows.retain(|(c, _)| *c > 0.0);
        if rows.is_empty() {
            continue;
        }
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        let score = rows.iter().map(|r| r.0).sum();
        rows.truncate(opts.max_paths);
        let paths = rows.into_iter().map(|r| r.1).collect();
        funcs.push((
            score,
            PathChangesJson {
                name: name.to_string(),
                paths,
            },
        ));
    }
    funcs.sort_by(|a, b| b.0.total_cmp(&a.0));
    if funcs.len() > opts.max_path_functions {
        notes.push(format!(
            "changed paths: those of the {} most changed of {} functions",
            count_text(opts.max_path_functions),
            count_text(funcs.len())
        ));
        funcs.truncate(opts.max_path_functions);
    }
    funcs.into_iter().map(|f| f.1).collect()
}

fn row(key: &RouteKey, old: Option<PathSideJson>, new: Option<PathSideJson>) -> PathChangeJson {
    PathChangeJson {
        route: key.0.clone(),
        after: key.1,
        truncated: key.2,
        old,
        new,
    }
}

/// The page's HTML.
const PAGE: &str = include_str!("view/view.html");
/// The page's code.
const SCRIPT: &str = include_str!("view/view.js");
/// The page's style.
const STYLE: &str = include_str!("view/view.css");

/// The whole HTML file: the page with its style, its code and `data`
/// inside, titled `title`.
pub fn view_html(data: &ViewData, title: &str) -> String {
    // `<` only occurs inside JSON strings, where `\u003c` means the same and
    // cannot close the script element.
    let json = data.json.replace('<', "\\u003c");
    let title = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut out = String::with_capacity(PAGE.len() + SCRIPT.len() + STYLE.len() + json.len());
    // The page's placeholders, each once, in this order.
    let mut rest = PAGE;
    for (mark, text) in [
        ("{{TITLE}}", title.as_str()),
        ("{{STYLE}}", STYLE),
        ("{{DATA}}", json.as_str()),
        ("{{SCRIPT}}", SCRIPT),
    ] {
        let (head, tail) = rest.split_once(mark).unwrap_or((rest, ""));
        out.push_str(head);
        out.push_str(text);
        rest = tail;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;
    use serde_json::Value;

    fn data(p: &Profile, base: Option<&Profile>, opts: &ViewOptions) -> (Value, Vec<String>) {
        let mut asked = Vec::new();
        let d = view_data(
            p,
            base,
            &mut |name| {
                asked.push(name.to_string());
                (name == "/src/c.c").then(|| (1..=12).map(|i| format!("line {i}\n")).collect())
            },
            opts,
        )
        .unwrap();
        (serde_json::from_str(&d.json).unwrap(), d.notes)
    }

    #[test]
    fn the_tree_is_merged_and_kept_whole_when_small() {
        let (v, notes) = data(&tiny_profile(), None, &ViewOptions::default());
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            v["metrics"],
            serde_json::json!(["instructions", "l1d-miss"])
        );
        assert_eq!(v["totals"], serde_json::json!([270, 33]));
        // root, main, a, c (under a), b, c (under b): no equal stacks.
        assert_eq!(v["tree"]["parent"], serde_json::json!([0, 0, 1, 2, 1, 4]));
        assert_eq!(
            v["tree"]["function"],
            serde_json::json!([-1, 0, 1, 3, 2, 3])
        );
        assert_eq!(
            v["tree"]["self"],
            serde_json::json!([0, 0, 10, 1, 20, 2, 100, 10, 40, 0, 100, 20])
        );
        assert_eq!(
            v["functions"]["name"],
            serde_json::json!(["main", "a", "b", "c"])
        );
        assert_eq!(v["functions"]["object"][0], "tiny");
        // Edges: main→a (2 calls, incl 120, 12), main→b, a→c, b→c.
        assert_eq!(
            v["edges"],
            serde_json::json!([
                [0, 1, 2, [120, 12]],
                [0, 2, 4, [140, 20]],
                [1, 3, 2, [100, 10]],
                [2, 3, 4, [100, 20]]
            ])
        );
    }

    #[test]
    fn cold_contexts_fold_into_cut_nodes_that_keep_their_cost() {
        let opts = ViewOptions {
            max_contexts: 3,
            ..ViewOptions::default()
        };
        let (v, notes) = data(&tiny_profile(), None, &opts);
        // Shares (max over metrics): main 1, b 140/270 and 20/33, c under
        // b 20/33, a 120/270 and 12/33 = 0.444, c under a 0.37. Kept: main,
        // b, c under b; a's subtree (a, c) becomes one (cut) under main.
        assert_eq!(v["tree"]["parent"], serde_json::json!([0, 0, 1, 1, 3]));
        assert_eq!(v["tree"]["function"], serde_json::json!([-1, 0, -3, 2, 3]));
        assert_eq!(v["tree"]["calls"], serde_json::json!([0, 1, 2, 4, 4]));
        assert_eq!(
            v["tree"]["self"],
            serde_json::json!([0, 0, 10, 1, 120, 12, 40, 0, 100, 20])
        );
        let sum: u64 = v["tree"]["self"]
            .as_array()
            .unwrap()
            .iter()
            .step_by(2)
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(sum, 270);
        assert_eq!(
            notes,
            [
                "calling contexts: the 3 costliest of 5 shown; 2 colder ones folded into \
              `(cut)` nodes that keep their cost"
            ]
        );
    }

    #[test]
    fn paths_carry_their_classes_contexts_blocks_and_source() {
        let (v, _) = data(&tiny_profile(), None, &ViewOptions::default());
        let f = &v["paths"][0];
        assert_eq!(f["function"], 3);
        assert_eq!(f["paths_taken"], 2);
        // Path 0: 30 times, 120 instructions, 30 misses: the costliest by
        // l1d-miss share (30/33). Hot in instructions (sparse: instructions
        // are hot or cold only) and dense in l1d-miss (0.25 per
        // instruction, above 33/270).
        let p0 = &f["paths"][0];
        assert_eq!(p0["id"], 0);
        assert_eq!(p0["count"], 30);
        assert_eq!(p0["cost"], serde_json::json!([120, 30]));
        assert_eq!(p0["class"], "sd");
        // Its contexts: c under b (tree node 5) 20 times, under a (3) 10.
        assert_eq!(p0["contexts"], serde_json::json!([[5, 20], [3, 10]]));
        // Path 1: 40 times, 80 instructions, no misses: cold in l1d-miss.
        let p1 = &f["paths"][1];
        assert_eq!(p1["class"], "sc");
        // Blocks in address order; path 0 goes through 0 and 1, path 1
        // through 0 and 2.
        assert_eq!(p0["blocks"], serde_json::json!([0, 1]));
        assert_eq!(p1["blocks"], serde_json::json!([0, 2]));
        assert_eq!(f["blocks"][1]["start"], 0x402001);
        assert_eq!(
            f["blocks"][1]["lines"],
            serde_json::json!([[0, 6], [0, 6], [0, 6]])
        );
        assert_eq!(f["blocks"][1]["text"][2], "insn2");
        // The tiny profile has no per-block costs.
        assert_eq!(f["block_costs"], serde_json::json!([]));
        // The source around lines 5-8: 3 to 10.
        assert_eq!(v["files"][0]["name"], "/src/c.c");
        assert_eq!(v["files"][0]["found"], true);
        assert_eq!(v["files"][0]["ranges"][0][0], 3);
        assert_eq!(v["files"][0]["ranges"][0][1].as_array().unwrap().len(), 8);
        assert_eq!(v["files"][0]["ranges"][0][1][0], "line 3");
    }

    #[test]
    fn block_and_line_costs_follow_report_by_block_and_line() {
        use crate::profile::{BlockProfile, BlockRow};
        let mut p = tiny_profile();
        let row = |start: u64, function: u32, lines: &[u32], executions: u64, miss: u64| BlockRow {
            start,
            function,
            executions,
            insns: (0..lines.len() as u32).collect(),
            lines: lines
                .iter()
                .map(|&line| PathLine { file: 0, line })
                .collect(),
            cost: vec![executions * lines.len() as u64, miss],
        };
        p.blocks = BlockProfile {
            files: vec!["/src/c.c".into()],
            blocks: vec![
                row(0x402000, 3, &[5], 70, 0),
                // One start, two lengths: one row of the page.
                row(0x402001, 3, &[6, 6], 20, 10),
                row(0x402001, 3, &[6, 6, 6], 10, 20),
                // Over two lines: its misses go to line 0.
                row(0x402004, 3, &[8, 9], 40, 3),
                row(0x401000, 0, &[1], 1, 0),
            ],
        };
        let (v, _) = data(&p, None, &ViewOptions::default());
        let f = &v["paths"][0];
        assert_eq!(
            f["block_costs"],
            serde_json::json!([
                [0x402000, 70, [70, 0]],
                [0x402001, 30, [70, 30]],
                [0x402004, 40, [80, 3]]
            ])
        );
        assert_eq!(
            f["line_costs"],
            serde_json::json!([
                [0, 0, [0, 3]],
                [0, 5, [70, 0]],
                [0, 6, [70, 30]],
                [0, 8, [40, 0]],
                [0, 9, [40, 0]]
            ])
        );
        assert_eq!(f["insn_costs"], serde_json::json!([]));
        // With costs per instruction, every metric lands on its line.
        let insns: [(u64, [u64; 2]); 7] = [
            (0x401000, [1, 0]),
            (0x402000, [70, 0]),
            (0x402001, [30, 10]),
            (0x402002, [30, 20]),
            (0x402003, [10, 0]),
            (0x402004, [40, 1]),
            (0x402005, [40, 2]),
        ];
        p.insns =
            crate::InsnProfile::from_dense(insns.iter().map(|(a, c)| (*a, &c[..])), vec![0, 0]);
        let (v, _) = data(&p, None, &ViewOptions::default());
        let f = &v["paths"][0];
        assert_eq!(
            f["line_costs"],
            serde_json::json!([
                [0, 5, [70, 0]],
                [0, 6, [70, 30]],
                [0, 8, [40, 1]],
                [0, 9, [40, 2]]
            ])
        );
        assert_eq!(
            f["insn_costs"],
            serde_json::json!(insns[1..].iter().map(|(a, c)| (a, c)).collect::<Vec<_>>())
        );
    }

    #[test]
    fn a_missing_source_file_is_marked_not_found() {
        let mut p = tiny_profile();
        p.paths.files[0] = "/nowhere/c.c".into();
        let (v, _) = data(&p, None, &ViewOptions::default());
        assert_eq!(v["files"][0]["found"], false);
        assert_eq!(v["files"][0]["ranges"], serde_json::json!([]));
    }

    #[test]
    fn paths_beyond_the_bound_are_left_out_with_a_note() {
        let opts = ViewOptions {
            max_paths: 1,
            ..ViewOptions::default()
        };
        let (v, notes) = data(&tiny_profile(), None, &opts);
        assert_eq!(v["paths"][0]["paths"].as_array().unwrap().len(), 1);
        assert_eq!(v["paths"][0]["blocks"].as_array().unwrap().len(), 2);
        assert_eq!(
            notes,
            ["paths: the 1 costliest of each function shown; 1 colder ones left out"]
        );
    }

    #[test]
    fn a_comparison_carries_the_old_profile_and_the_run_differences() {
        let old = tiny_profile();
        let mut new = tiny_profile();
        new.meta.cpu_model = "skylake".into();
        let (v, _) = data(&new, Some(&old), &ViewOptions::default());
        assert_eq!(v["base"]["totals"], serde_json::json!([270, 33]));
        assert!(v["base"]["base"].is_null());
        let diffs = v["differences"].as_array().unwrap();
        assert!(
            diffs
                .iter()
                .any(|d| d.as_str().unwrap().contains("skylake")),
            "{diffs:?}"
        );
    }

    #[test]
    fn paths_are_matched_by_function_name_and_route_across_runs() {
        let old = tiny_profile();
        let mut new = tiny_profile();
        let c = &mut new.paths.functions[0];
        // Path 0 (blocks at +0, +1) taken 5 times more in context 3.
        c.rows[0].count = 15;
        c.rows[0].insns = 60;
        c.rows[0].cost = vec![60, 15];
        // Path 1's second block moved (+4 -> +5), and the ids swapped: a
        // route of its own, not the old path 1, though the id is.
        c.blocks[2].start = 0x402005;
        c.paths[0].id = 1;
        c.paths[1].id = 0;
        let mut notes = Vec::new();
        let v = serde_json::to_value(path_changes(
            &old,
            &new,
            &ViewOptions::default(),
            &mut notes,
        ))
        .unwrap();
        assert!(notes.is_empty());
        assert_eq!(
            v,
            serde_json::json!([{"name": "c", "paths": [
                {"route": [0, 5], "after": null, "truncated": false, "old": null,
                 "new": {"id": 0, "count": 40, "cost": [80, 0]}},
                {"route": [0, 4], "after": null, "truncated": false,
                 "old": {"id": 1, "count": 40, "cost": [80, 0]}, "new": null},
                {"route": [0, 1], "after": null, "truncated": false,
                 "old": {"id": 0, "count": 30, "cost": [120, 30]},
                 "new": {"id": 1, "count": 35, "cost": [140, 35]}}
            ]}])
        );
        // Unchanged runs: nothing to show.
        let same = path_changes(&old, &old, &ViewOptions::default(), &mut notes);
        assert!(same.is_empty());
        // The page's document carries them.
        let (v, _) = data(&new, Some(&old), &ViewOptions::default());
        assert_eq!(v["path_changes"][0]["paths"].as_array().unwrap().len(), 3);
        let (v, _) = data(&old, None, &ViewOptions::default());
        assert!(v.get("path_changes").is_none());
    }

    #[test]
    fn the_page_embeds_the_data_so_that_no_string_closes_the_script() {
        let mut p = tiny_profile();
        p.functions[0].name = "</script><b>".into();
        let d = view_data(&p, None, &mut |_| None, &ViewOptions::default()).unwrap();
        let html = view_html(&d, "a <title>");
        assert_eq!(html.matches("</script>").count(), 2, "data and code");
        assert!(html.contains("\\u003c/script>\\u003cb>"));
        assert!(html.contains("<title>pathvm: a &lt;title&gt;</title>"));
        assert!(!html.contains("http://") && !html.contains("https://"));
    }

    #[test]
    fn bad_options_and_profiles_are_errors() {
        let opts = ViewOptions {
            threshold: -1.0,
            ..ViewOptions::default()
        };
        assert!(view_data(&tiny_profile(), None, &mut |_| None, &opts).is_err());
        let opts = ViewOptions {
            threshold: 100.5,
            ..ViewOptions::default()
        };
        assert!(view_data(&tiny_profile(), None, &mut |_| None, &opts).is_err());
        let mut p = tiny_profile();
        p.totals.pop();
        assert!(matches!(
            view_data(&p, None, &mut |_| None, &ViewOptions::default()),
            Err(ReportError::InvalidProfile(_))
        ));
    }
}
