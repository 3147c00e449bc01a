//! `pathvm report --by path`: hot Ball-Larus paths by a metric, classified
//! as Ammons, Ball and Larus do (section 5 of "Exploiting hardware
//! performance counters with flow and context sensitive profiling"): a path
//! is *hot* when its share of the metric's program total reaches the
//! threshold; a hot path is *dense* when its ratio (metric per instruction)
//! is above the program's and *sparse* otherwise; every other path is *cold*.
//! `--hot-summary` gives their table of the three classes and the hot
//! procedures.

use std::fmt::Write;

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::ReportFormat;
use crate::glob::glob_match;
use crate::metric::{to_json, CostMap, Selection};
use crate::profile::{ContextTable, PathFunction, PathNumbering, Profile};
use crate::table::{count, pct, percent_of, round_pct, Align, Table};

/// Options of [`report_paths`].
#[derive(Clone, Debug)]
pub struct PathReportOptions {
    /// The metric paths are ranked and classified by (default: `instructions`).
    pub metric: Option<String>,
    /// Show only this many paths.
    pub top: Option<usize>,
    /// Percent of the metric's program total that makes a path hot.
    pub threshold: f64,
    /// Only functions whose name matches one of these globs.
    pub functions: Vec<String>,
    /// One row per path and calling context instead of per path.
    pub context: bool,
    /// The table of path classes and hot procedures instead of the paths.
    pub hot_summary: bool,
    /// Text or JSON.
    pub format: ReportFormat,
}

impl Default for PathReportOptions {
    fn default() -> PathReportOptions {
        PathReportOptions {
            metric: None,
            top: None,
            threshold: 1.0,
            functions: Vec::new(),
            context: false,
            hot_summary: false,
            format: ReportFormat::Text,
        }
    }
}

/// A path's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathClass {
    /// Hot, with a ratio above the program's.
    Dense,
    /// Hot, with a ratio at or below the program's.
    Sparse,
    /// Below the threshold.
    Cold,
}

impl PathClass {
    fn name(self) -> &'static str {
        match self {
            PathClass::Dense => "dense",
            PathClass::Sparse => "sparse",
            PathClass::Cold => "cold",
        }
    }
}

/// One aggregated row: a path of a function, in one context or in all.
struct Row<'a> {
    func: &'a PathFunction,
    path: u32,
    /// `Some(node)` for per-context rows.
    context: Option<u32>,
    count: u64,
    cost: Vec<u64>,
    insns: u64,
}

/// Path rows of the profile, merged over contexts unless `context`.
fn rows<'a>(profile: &'a Profile, opts: &PathReportOptions) -> Vec<Row<'a>> {
    let m = profile.metrics.len();
    let mut out: Vec<Row<'a>> = Vec::new();
    for f in &profile.paths.functions {
        if !opts.functions.is_empty() {
            let name = function_name(profile, f);
            if !opts.functions.iter().any(|g| glob_match(g, &name)) {
                continue;
            }
        }
        let first = out.len();
        let mut slot: std::collections::BTreeMap<(u32, u32), usize> = Default::default();
        for r in &f.rows {
            let ctx = if opts.context { r.context } else { 0 };
            let i = *slot.entry((r.path, ctx)).or_insert_with(|| {
                out.push(Row {
                    func: f,
                    path: r.path,
                    context: opts.context.then_some(ctx),
                    count: 0,
                    cost: vec![0; m],
                    insns: 0,
                });
                out.len() - 1
            });
            let row = &mut out[i];
            row.count += r.count;
            row.insns += r.insns;
            for (a, b) in row.cost.iter_mut().zip(&r.cost) {
                *a += b;
            }
        }
        debug_assert!(out.len() >= first);
    }
    out
}

fn function_name(profile: &Profile, f: &PathFunction) -> String {
    match profile.functions.get(f.function as usize) {
        Some(row) => row.name.clone(),
        None => format!("{:#x}", f.entry),
    }
}

/// `file:line` ranges of a path's blocks: `work.c:12-14`, one per block.
fn block_lines(profile: &Profile, f: &PathFunction, path: u32) -> (Vec<u64>, Vec<String>) {
    let p = &f.paths[path as usize];
    let mut addrs = Vec::with_capacity(p.blocks.len());
    let mut lines = Vec::with_capacity(p.blocks.len());
    for &b in &p.blocks {
        let blk = &f.blocks[b as usize];
        addrs.push(blk.start);
        let text = match (blk.lines.first(), blk.lines.last()) {
            (Some(a), Some(z)) => {
                let file = crate::profile::file_name(&profile.paths.files[a.file as usize]);
                let lo = blk
                    .lines
                    .iter()
                    .filter(|l| l.file == a.file)
                    .map(|l| l.line)
                    .min();
                let hi = blk
                    .lines
                    .iter()
                    .filter(|l| l.file == a.file)
                    .map(|l| l.line)
                    .max();
                match (lo, hi) {
                    (Some(lo), Some(hi)) if lo != hi => format!("{file}:{lo}-{hi}"),
                    _ if a.file == z.file => format!("{file}:{}", a.line),
                    _ => format!("{file}:{}", a.line),
                }
            }
            _ => String::new(),
        };
        lines.push(text);
    }
    (addrs, lines)
}

/// The context's call stack as function names, outermost first.
fn context_stack(profile: &Profile, node: u32) -> Vec<String> {
    let c = &profile.contexts;
    let mut names = Vec::new();
    let mut n = node as usize;
    while n != 0 && n < c.len() {
        let f = c.function[n];
        names.push(if f == ContextTable::NO_FUNCTION {
            "?".to_string()
        } else {
            profile.functions[f as usize].name.clone()
        });
        n = c.parent[n] as usize;
    }
    names.reverse();
    names
}

/// How rows are classified: the one statement of the Ammons-Ball-Larus
/// classes, also used by [`crate::view`].
pub(crate) struct Classifier {
    col: usize,
    insn_col: Option<usize>,
    total: u64,
    /// The metric's program total per instruction.
    average: f64,
    threshold: f64,
    /// The metric is instructions: classes are hot or cold only.
    is_instructions: bool,
}

impl Classifier {
    pub(crate) fn new(profile: &Profile, col: usize, threshold: f64) -> Classifier {
        let insn_col = profile.metric_index("instructions");
        let total = profile.totals[col];
        let insns = insn_col.map_or(0, |c| profile.totals[c]);
        Classifier {
            col,
            insn_col,
            total,
            average: if insns == 0 {
                0.0
            } else {
                total as f64 / insns as f64
            },
            threshold,
            is_instructions: Some(col) == insn_col,
        }
    }

    fn insns(&self, r: &Row) -> u64 {
        self.insn_col.map_or(r.insns, |c| r.cost[c])
    }

    fn ratio(&self, r: &Row) -> f64 {
        ratio_of(r.cost[self.col], self.insns(r))
    }

    fn class(&self, r: &Row) -> PathClass {
        self.class_of(&r.cost, r.insns)
    }

    /// The class of a path (or any row) with these costs (one per metric
    /// of the profile) and these instructions (used when the profile has
    /// no `instructions` metric).
    pub(crate) fn class_of(&self, cost: &[u64], insns: u64) -> PathClass {
        let insns = self.insn_col.map_or(insns, |c| cost[c]);
        let share = percent_of(cost[self.col], self.total);
        if cost[self.col] == 0 || share < self.threshold {
            PathClass::Cold
        } else if !self.is_instructions && ratio_of(cost[self.col], insns) > self.average {
            PathClass::Dense
        } else {
            PathClass::Sparse
        }
    }
}

fn ratio_of(cost: u64, insns: u64) -> f64 {
    if insns == 0 {
        0.0
    } else {
        cost as f64 / insns as f64
    }
}

#[derive(Serialize)]
struct PathJson<'a> {
    function: String,
    object: &'a str,
    path: u64,
    truncated: bool,
    numbering: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<Vec<String>>,
    count: u64,
    length: u64,
    cost: CostMap<'a>,
    share: f64,
    ratio: f64,
    class: PathClass,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<String>,
    blocks: Vec<String>,
    lines: Vec<String>,
}

#[derive(Serialize)]
struct PathsJson<'a> {
    metric: &'a str,
    total: u64,
    threshold: f64,
    paths_executed: usize,
    rows: Vec<PathJson<'a>>,
}

/// `--by path`: the paths of the profile ranked by a metric (descending;
/// ties by function, then path id), with their class.
///
/// JSON is a contract: `{"metric", "total", "threshold", "paths_executed",
/// "rows": [{"function", "object", "path", "truncated", "numbering"
/// ("numbered" or "interned"), "context" (outermost first, only with
/// `context`), "count", "length" (instructions per traversal), "cost":
/// {metric: n}, "share" (percent of the metric's total), "ratio" (metric
/// per instruction), "class" ("dense", "sparse", "cold"), "after" (for a
/// path begun at a loop header: hex start of the block its back edge
/// left; absent otherwise), "blocks" (hex
/// start addresses), "lines" (`file:line` or `file:first-last` per block)}]}`.
pub fn report_paths(profile: &Profile, opts: &PathReportOptions) -> Result<String, ReportError> {
    let metric = opts.metric.as_deref().unwrap_or("instructions");
    let sel = Selection::new(profile, &[], Some(metric))?;
    if !crate::table::is_share(opts.threshold) {
        return Err(ReportError::InvalidOption(format!(
            "--threshold {}: not a percentage from 0 to 100",
            opts.threshold
        )));
    }
    if !profile.paths.recorded {
        return Err(ReportError::InvalidOption(
            "the profile has no paths (recorded with --no-paths)".into(),
        ));
    }
    if opts.context && profile.contexts.is_empty() {
        return Err(ReportError::InvalidOption(
            "the profile has no calling contexts (recorded with --no-cct)".into(),
        ));
    }
    let cls = Classifier::new(profile, sel.sort, opts.threshold);
    let mut rows = rows(profile, opts);
    let col = sel.sort;
    rows.sort_by(|a, b| {
        b.cost[col]
            .cmp(&a.cost[col])
            .then_with(|| b.count.cmp(&a.count))
            .then_with(|| a.func.entry.cmp(&b.func.entry))
            .then_with(|| {
                a.func.paths[a.path as usize]
                    .id
                    .cmp(&b.func.paths[b.path as usize].id)
            })
            .then_with(|| a.context.cmp(&b.context))
    });
    if opts.hot_summary {
        return Ok(hot_summary(profile, &sel, &cls, &rows, opts));
    }
    let executed = rows.len();
    if let Some(top) = opts.top {
        rows.truncate(top);
    }
    match opts.format {
        ReportFormat::Json => {
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                let p = &r.func.paths[r.path as usize];
                let (addrs, lines) = block_lines(profile, r.func, r.path);
                out.push(PathJson {
                    function: function_name(profile, r.func),
                    object: profile
                        .functions
                        .get(r.func.function as usize)
                        .map_or("", |f| f.object.as_str()),
                    path: p.id,
                    truncated: p.truncated,
                    numbering: match r.func.numbering {
                        PathNumbering::Interned { .. } => "interned",
                        _ => "numbered",
                    },
                    context: r.context.map(|c| context_stack(profile, c)),
                    count: r.count,
                    length: p.length,
                    cost: sel.map(&r.cost),
                    share: round_pct(percent_of(r.cost[col], cls.total)),
                    ratio: (cls.ratio(r) * 1e6).round() / 1e6,
                    class: cls.class(r),
                    after: p.after.map(|a| format!("{a:#x}")),
                    blocks: addrs.iter().map(|a| format!("{a:#x}")).collect(),
                    lines,
                });
            }
            Ok(to_json(&PathsJson {
                metric,
                total: cls.total,
                threshold: opts.threshold,
                paths_executed: executed,
                rows: out,
            }))
        }
        ReportFormat::Text => {
            let mut s = String::new();
            let _ = writeln!(
                s,
                "Paths by {metric}: {} executed, total {} ({} per instruction); hot: at least {}",
                count(executed as u64),
                count(cls.total),
                fmt_ratio(cls.average),
                pct(opts.threshold)
            );
            let mut t = Table::new();
            t.column(metric, Align::Right)
                .column("share", Align::Right)
                .column("ratio", Align::Right)
                .column("count", Align::Right)
                .column("length", Align::Right)
                .column("class", Align::Left)
                .column("function", Align::Left)
                .column("path", Align::Left);
            for r in &rows {
                let p = &r.func.paths[r.path as usize];
                let mut id = format!("#{}", p.id);
                if p.truncated {
                    id.push_str(" (truncated)");
                }
                if let PathNumbering::Interned { .. } = r.func.numbering {
                    id.push_str(" (interned)");
                }
                let mut name = function_name(profile, r.func);
                if let Some(c) = r.context {
                    name = context_stack(profile, c).join(" > ");
                }
                t.row(vec![
                    count(r.cost[col]),
                    pct(percent_of(r.cost[col], cls.total)),
                    fmt_ratio(cls.ratio(r)),
                    count(r.count),
                    count(p.length),
                    cls.class(r).name().into(),
                    name,
                    id,
                ]);
            }
            let mut table = String::new();
            t.render_text(&mut table);
            // Each path row is followed by its blocks.
            let mut lines = table.lines();
            if let Some(h) = lines.next() {
                s.push_str(h);
                s.push('\n');
            }
            for (line, r) in lines.zip(&rows) {
                s.push_str(line);
                s.push('\n');
                let (addrs, src) = block_lines(profile, r.func, r.path);
                let blocks: Vec<String> = addrs
                    .iter()
                    .zip(&src)
                    .map(|(a, l)| {
                        if l.is_empty() {
                            format!("{a:#x}")
                        } else {
                            format!("{a:#x} {l}")
                        }
                    })
                    .collect();
                let from = match r.func.paths[r.path as usize].after {
                    Some(a) => format!("(loop from {a:#x}) "),
                    None => String::new(),
                };
                let _ = writeln!(s, "    {from}{}", blocks.join(" -> "));
            }
            Ok(s)
        }
    }
}

fn fmt_ratio(r: f64) -> String {
    format!("{r:.4}")
}

#[derive(Serialize)]
struct ClassJson {
    class: PathClass,
    paths: usize,
    instructions_share: f64,
    metric_share: f64,
}

#[derive(Serialize)]
struct ProcJson {
    function: String,
    paths: usize,
    hot_paths: usize,
    instructions_share: f64,
    metric_share: f64,
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    metric: &'a str,
    threshold: f64,
    paths_executed: usize,
    classes: Vec<ClassJson>,
    hot_procedures: Vec<ProcJson>,
}

/// The table of Ammons et al.: paths executed; per class the number of
/// paths and their shares of instructions and of the metric; then the
/// functions with hot paths.
fn hot_summary(
    profile: &Profile,
    sel: &Selection,
    cls: &Classifier,
    rows: &[Row],
    opts: &PathReportOptions,
) -> String {
    let metric = &profile.metrics[sel.sort];
    let insn_total = cls
        .insn_col
        .map_or_else(|| rows.iter().map(|r| r.insns).sum(), |c| profile.totals[c]);
    let mut classes = Vec::new();
    for c in [PathClass::Dense, PathClass::Sparse, PathClass::Cold] {
        let members: Vec<&Row> = rows.iter().filter(|r| cls.class(r) == c).collect();
        classes.push(ClassJson {
            class: c,
            paths: members.len(),
            instructions_share: round_pct(percent_of(
                members.iter().map(|r| cls.insns(r)).sum(),
                insn_total,
            )),
            metric_share: round_pct(percent_of(
                members.iter().map(|r| r.cost[cls.col]).sum(),
                cls.total,
            )),
        });
    }
    // Hot procedures: functions with at least one hot path, by metric.
    let mut procs: Vec<(String, usize, usize, u64, u64)> = Vec::new();
    let mut index: std::collections::BTreeMap<u64, usize> = Default::default();
    for r in rows {
        let i = *index.entry(r.func.entry).or_insert_with(|| {
            procs.push((function_name(profile, r.func), 0, 0, 0, 0));
            procs.len() - 1
        });
        let p = &mut procs[i];
        p.1 += 1;
        if cls.class(r) != PathClass::Cold {
            p.2 += 1;
        }
        p.3 += cls.insns(r);
        p.4 += r.cost[cls.col];
    }
    procs.retain(|p| p.2 > 0);
    procs.sort_by(|a, b| b.4.cmp(&a.4).then_with(|| a.0.cmp(&b.0)));
    let hot_procedures: Vec<ProcJson> = procs
        .into_iter()
        .map(|(function, paths, hot_paths, i, m)| ProcJson {
            function,
            paths,
            hot_paths,
            instructions_share: round_pct(percent_of(i, insn_total)),
            metric_share: round_pct(percent_of(m, cls.total)),
        })
        .collect();
    let doc = SummaryJson {
        metric,
        threshold: opts.threshold,
        paths_executed: rows.len(),
        classes,
        hot_procedures,
    };
    if opts.format == ReportFormat::Json {
        return to_json(&doc);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Paths executed: {}; hot: at least {} of {metric}",
        count(doc.paths_executed as u64),
        pct(opts.threshold)
    );
    // Ranked by instructions, every hot path has the program's rate.
    let by_insns = metric == "instructions";
    let mut t = Table::new();
    t.column("class", Align::Left)
        .column("paths", Align::Right)
        .column("instructions", Align::Right);
    if !by_insns {
        t.column(metric.as_str(), Align::Right);
    }
    for c in &doc.classes {
        let mut row = vec![
            c.class.name().into(),
            count(c.paths as u64),
            pct(c.instructions_share),
        ];
        if !by_insns {
            row.push(pct(c.metric_share));
        }
        t.row(row);
    }
    t.render_text(&mut s);
    if by_insns {
        s.push_str(
            "(no path is dense by instructions: give a simulated metric with --metric \
             to tell dense from sparse paths)\n",
        );
    }
    s.push_str("\nHot procedures:\n");
    let mut t = Table::new();
    t.column("function", Align::Left)
        .column("paths", Align::Right)
        .column("hot", Align::Right)
        .column("instructions", Align::Right);
    if !by_insns {
        t.column(metric.as_str(), Align::Right);
    }
    for p in &doc.hot_procedures {
        let mut row = vec![
            p.function.clone(),
            count(p.paths as u64),
            count(p.hot_paths as u64),
            pct(p.instructions_share),
        ];
        if !by_insns {
            row.push(pct(p.metric_share));
        }
        t.row(row);
    }
    t.render_text(&mut s);
    s
}

#[derive(Serialize)]
struct PathStatsJson<'a> {
    functions: usize,
    numbered: usize,
    interned: usize,
    untracked: usize,
    paths: usize,
    frames: u64,
    resumes: u64,
    lost_blocks: u64,
    cfg_changes: u64,
    unattributed_instructions: u64,
    lost_instructions: u64,
    /// Functions that lost blocks, most first: (name, lost blocks).
    losing: Vec<(String, u64)>,
    #[serde(skip)]
    _p: std::marker::PhantomData<&'a ()>,
}

/// `report --by path --stats`: how path tracking went: functions numbered,
/// interned and untracked, paths, resumes, graph changes, and the blocks no
/// path could follow (by function).
pub fn report_path_stats(profile: &Profile, format: ReportFormat) -> Result<String, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    if !profile.paths.recorded {
        return Err(ReportError::InvalidOption(
            "the profile has no paths (recorded with --no-paths)".into(),
        ));
    }
    let fs = &profile.paths.functions;
    let mut losing: Vec<(String, u64)> = fs
        .iter()
        .filter(|f| f.lost_blocks > 0)
        .map(|f| (function_name(profile, f), f.lost_blocks))
        .collect();
    losing.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let s = PathStatsJson {
        functions: fs.len(),
        numbered: fs
            .iter()
            .filter(|f| matches!(f.numbering, PathNumbering::Numbered { .. }))
            .count(),
        interned: fs
            .iter()
            .filter(|f| matches!(f.numbering, PathNumbering::Interned { .. }))
            .count(),
        untracked: fs
            .iter()
            .filter(|f| matches!(f.numbering, PathNumbering::Untracked))
            .count(),
        paths: fs.iter().map(|f| f.paths.len()).sum(),
        frames: fs.iter().map(|f| f.frames).sum(),
        resumes: fs.iter().map(|f| f.resumes).sum(),
        lost_blocks: fs.iter().map(|f| f.lost_blocks).sum(),
        cfg_changes: fs.iter().map(|f| f.cfg_changes).sum(),
        unattributed_instructions: profile.paths.unattributed_instructions,
        lost_instructions: fs.iter().map(|f| f.lost_instructions).sum(),
        losing,
        _p: std::marker::PhantomData,
    };
    if format == ReportFormat::Json {
        return Ok(to_json(&s));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Functions with paths: {} ({} numbered, {} interned, {} untracked)",
        count(s.functions as u64),
        count(s.numbered as u64),
        count(s.interned as u64),
        count(s.untracked as u64)
    );
    let _ = writeln!(out, "Distinct paths (path, end): {}", count(s.paths as u64));
    let _ = writeln!(
        out,
        "Frames: {}; resumed paths: {}",
        count(s.frames),
        count(s.resumes)
    );
    let _ = writeln!(
        out,
        "Graph changes during the run: {}",
        count(s.cfg_changes)
    );
    let _ = writeln!(
        out,
        "On no path: {} blocks ({} instructions) lost, {} instructions outside any path frame",
        count(s.lost_blocks),
        count(s.lost_instructions),
        count(s.unattributed_instructions)
    );
    for (name, n) in s.losing.iter().take(10) {
        let _ = writeln!(out, "  {n:>10}  {name}");
    }
    Ok(out)
}

/// Options of [`report_path_annotate`].
#[derive(Clone, Debug, Default)]
pub struct AnnotateOptions {
    /// The path's id (see [`crate::PathInfo::id`]).
    pub path: u64,
    /// The function (a glob); needed when several functions have the id.
    pub function: Option<String>,
    /// Text or JSON.
    pub format: ReportFormat,
}

#[derive(Serialize)]
struct InsnJson {
    address: String,
    text: String,
    line: Option<String>,
    executions: u64,
}

#[derive(Serialize)]
struct AnnotatedJson<'a> {
    function: String,
    path: u64,
    truncated: bool,
    count: u64,
    cost: CostMap<'a>,
    instructions: Vec<InsnJson>,
}

/// `report --path ID --annotate`: a path's instructions in order with their
/// disassembly, source line and executions on the path (its count: every
/// instruction of an acyclic path runs once per traversal), after the
/// path's count and its cost per metric, merged over contexts.
///
/// JSON: `[{"function", "path", "truncated", "count", "cost": {metric: n},
/// "instructions": [{"address", "text", "line", "executions"}]}]`, one
/// element per matching path (a complete and a truncated path may share an
/// id).
pub fn report_path_annotate(
    profile: &Profile,
    opts: &AnnotateOptions,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &[], None)?;
    if !profile.paths.recorded {
        return Err(ReportError::InvalidOption(
            "the profile has no paths (recorded with --no-paths)".into(),
        ));
    }
    let mut found: Vec<(&PathFunction, u32)> = Vec::new();
    for f in &profile.paths.functions {
        if let Some(g) = &opts.function {
            if !glob_match(g, &function_name(profile, f)) {
                continue;
            }
        }
        for (i, p) in f.paths.iter().enumerate() {
            if p.id == opts.path {
                found.push((f, i as u32));
            }
        }
    }
    let mut names: Vec<String> = found
        .iter()
        .map(|(f, _)| function_name(profile, f))
        .collect();
    names.dedup();
    if names.is_empty() {
        return Err(ReportError::InvalidOption(format!(
            "no path {} in {}",
            opts.path,
            opts.function.as_deref().unwrap_or("the profile")
        )));
    }
    if names.len() > 1 {
        return Err(ReportError::InvalidOption(format!(
            "path {} is in {} functions ({}); name one with --function",
            opts.path,
            names.len(),
            names.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        )));
    }
    let m = profile.metrics.len();
    let mut docs = Vec::new();
    for (f, p) in found {
        let info = &f.paths[p as usize];
        let mut count = 0;
        let mut cost = vec![0u64; m];
        for r in f.rows.iter().filter(|r| r.path == p) {
            count += r.count;
            for (a, b) in cost.iter_mut().zip(&r.cost) {
                *a += b;
            }
        }
        let mut insns = Vec::new();
        'blocks: for &b in &info.blocks {
            let blk = &f.blocks[b as usize];
            for (k, off) in blk.insns.iter().enumerate() {
                if insns.len() as u64 >= info.length {
                    break 'blocks;
                }
                let line = blk
                    .insn_lines
                    .get(k)
                    .and_then(|&l| blk.lines.get(l as usize))
                    .map(|l| {
                        format!(
                            "{}:{}",
                            crate::profile::file_name(&profile.paths.files[l.file as usize]),
                            l.line
                        )
                    });
                insns.push(InsnJson {
                    address: format!("{:#x}", blk.start + *off as u64),
                    text: blk.text.get(k).cloned().unwrap_or_default(),
                    line,
                    executions: count,
                });
            }
        }
        docs.push(AnnotatedJson {
            function: function_name(profile, f),
            path: info.id,
            truncated: info.truncated,
            count,
            cost: sel.map(&cost),
            instructions: insns,
        });
    }
    if opts.format == ReportFormat::Json {
        return Ok(to_json(&docs));
    }
    let mut out = String::new();
    for d in &docs {
        let _ = writeln!(
            out,
            "Path #{}{} of {}: taken {} times",
            d.path,
            if d.truncated { " (truncated)" } else { "" },
            d.function,
            count(d.count)
        );
        let costs: Vec<String> = d
            .cost
            .names
            .iter()
            .zip(&d.cost.values)
            .map(|(n, v)| format!("{n} {}", count(*v)))
            .collect();
        let _ = writeln!(out, "Cost: {}", costs.join(", "));
        let mut t = Table::new();
        t.column("executions", Align::Right)
            .column("address", Align::Left)
            .column("instruction", Align::Left)
            .column("source", Align::Left);
        for i in &d.instructions {
            t.row(vec![
                count(i.executions),
                i.address.clone(),
                i.text.clone(),
                i.line.clone().unwrap_or_default(),
            ]);
        }
        t.render_text(&mut out);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    fn json(opts: &PathReportOptions) -> serde_json::Value {
        let o = PathReportOptions {
            format: ReportFormat::Json,
            ..opts.clone()
        };
        serde_json::from_str(&report_paths(&tiny_profile(), &o).unwrap()).unwrap()
    }

    #[test]
    fn paths_merge_contexts_and_rank_by_the_metric() {
        let j = json(&PathReportOptions {
            metric: Some("l1d-miss".into()),
            ..Default::default()
        });
        assert_eq!(j["total"], 33);
        assert_eq!(j["paths_executed"], 2);
        let r = &j["rows"][0];
        assert_eq!(r["function"], "c");
        assert_eq!(r["path"], 0);
        assert_eq!(r["count"], 30);
        assert_eq!(r["cost"]["instructions"], 120);
        assert_eq!(r["cost"]["l1d-miss"], 30);
        // 30 of 33 misses; 30 misses per 120 instructions against 33/270.
        assert_eq!(r["share"], 90.9091);
        assert_eq!(r["ratio"], 0.25);
        assert_eq!(r["class"], "dense");
        assert_eq!(r["blocks"], serde_json::json!(["0x402000", "0x402001"]));
        assert_eq!(r["lines"], serde_json::json!(["c.c:5", "c.c:6"]));
        let r = &j["rows"][1];
        assert_eq!(
            (r["path"].as_u64(), r["count"].as_u64()),
            (Some(1), Some(40))
        );
        assert_eq!(r["class"], "cold");
    }

    #[test]
    fn per_context_rows_name_the_call_path() {
        let j = json(&PathReportOptions {
            metric: Some("l1d-miss".into()),
            context: true,
            ..Default::default()
        });
        let rows = j["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0]["context"], serde_json::json!(["main", "b", "c"]));
        assert_eq!(rows[0]["cost"]["l1d-miss"], 20);
        assert_eq!(rows[1]["context"], serde_json::json!(["main", "a", "c"]));
        assert_eq!(rows[1]["cost"]["l1d-miss"], 10);
    }

    #[test]
    fn instructions_make_hot_paths_sparse_never_dense() {
        let j = json(&PathReportOptions::default());
        assert_eq!(j["metric"], "instructions");
        for r in j["rows"].as_array().unwrap() {
            assert_eq!(r["class"], "sparse");
        }
    }

    #[test]
    fn hot_summary_by_instructions_has_one_column_of_it_and_says_why() {
        let o = PathReportOptions {
            hot_summary: true,
            ..Default::default()
        };
        let t = report_paths(&tiny_profile(), &o).unwrap();
        let header = t.lines().nth(1).unwrap();
        assert_eq!(
            header.split_whitespace().collect::<Vec<_>>(),
            ["class", "paths", "instructions"]
        );
        assert!(t.contains("no path is dense by instructions"), "{t}");
        let o = PathReportOptions {
            metric: Some("l1d-miss".into()),
            ..o
        };
        let t = report_paths(&tiny_profile(), &o).unwrap();
        let header = t.lines().nth(1).unwrap();
        assert_eq!(
            header.split_whitespace().collect::<Vec<_>>(),
            ["class", "paths", "instructions", "l1d-miss"]
        );
        assert!(!t.contains("no path is dense"), "{t}");
    }

    #[test]
    fn hot_summary_counts_each_class() {
        let j = json(&PathReportOptions {
            metric: Some("l1d-miss".into()),
            hot_summary: true,
            ..Default::default()
        });
        assert_eq!(j["classes"][0]["class"], "dense");
        assert_eq!(j["classes"][0]["paths"], 1);
        assert_eq!(j["classes"][0]["metric_share"], 90.9091);
        assert_eq!(j["classes"][0]["instructions_share"], 44.4444);
        assert_eq!(j["classes"][2]["paths"], 1);
        assert_eq!(j["hot_procedures"][0]["function"], "c");
        assert_eq!(j["hot_procedures"][0]["hot_paths"], 1);
    }

    #[test]
    fn a_function_filter_and_top_cut_rows() {
        let j = json(&PathReportOptions {
            functions: vec!["a*".into()],
            ..Default::default()
        });
        assert_eq!(j["rows"].as_array().unwrap().len(), 0);
        let j = json(&PathReportOptions {
            top: Some(1),
            ..Default::default()
        });
        assert_eq!(j["rows"].as_array().unwrap().len(), 1);
        assert_eq!(j["paths_executed"], 2);
    }

    #[test]
    fn text_lists_each_path_with_its_blocks() {
        let t = report_paths(
            &tiny_profile(),
            &PathReportOptions {
                metric: Some("l1d-miss".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(t.contains("dense  c         #0"), "{t}");
        assert!(t.contains("    0x402000 c.c:5 -> 0x402001 c.c:6\n"), "{t}");
    }

    #[test]
    fn annotate_lists_the_path_instructions_with_their_executions() {
        let o = AnnotateOptions {
            path: 0,
            function: Some("c".into()),
            format: ReportFormat::Json,
        };
        let j: serde_json::Value =
            serde_json::from_str(&report_path_annotate(&tiny_profile(), &o).unwrap()).unwrap();
        let p = &j[0];
        assert_eq!(p["count"], 30);
        assert_eq!(p["cost"]["l1d-miss"], 30);
        let insns = p["instructions"].as_array().unwrap();
        assert_eq!(insns.len(), 4);
        assert_eq!(insns[0]["address"], "0x402000");
        assert_eq!(insns[1]["address"], "0x402001");
        assert_eq!(insns[3]["address"], "0x402003");
        assert_eq!(insns[2]["text"], "insn1");
        assert_eq!(insns[2]["line"], "c.c:6");
        assert!(insns.iter().all(|i| i["executions"] == 30));
        let e =
            report_path_annotate(&tiny_profile(), &AnnotateOptions { path: 9, ..o }).unwrap_err();
        assert_eq!(e.to_string(), "invalid option: no path 9 in c");
    }

    #[test]
    fn a_profile_without_paths_is_a_clear_error() {
        let mut p = tiny_profile();
        p.paths = crate::profile::PathProfile::default();
        let e = report_paths(&p, &PathReportOptions::default()).unwrap_err();
        assert!(e.to_string().contains("--no-paths"), "{e}");
    }
}
