//! `pathvm diff OLD NEW`: what changed between two profiles, and whether it
//! is a regression.

use std::collections::BTreeMap;
use std::str::FromStr;

use serde::Serialize;

use crate::contexts::{label_name, MergedTree};
use crate::error::ReportError;
use crate::metric::{to_json, OrderedMap};
use crate::profile::{file_name, Meta, ObjectInfo, Profile};
use crate::table::{
    count, is_percentage, markdown_escape, round_pct, signed, signed_pct, Align, Table,
};

/// What the rows of a diff are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffBy {
    /// Functions, matched by name and object file name (`libc.so.6`, not
    /// its directory); their self costs are compared.
    #[default]
    Function,
    /// Calling contexts, matched by their stack of function names (call
    /// sites merged); their self costs are compared.
    Context,
    /// Ball-Larus paths, matched by function, object file name and path id
    /// (`walk [path 10]`; ids are comparable when the function's code is the
    /// same in both), merged over contexts.
    Path,
}

/// Output format of a diff.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffFormat {
    /// Aligned tables for a terminal.
    #[default]
    Text,
    /// JSON for scripts (see [`diff`]).
    Json,
    /// GitHub-flavoured Markdown, for a CI job summary.
    Markdown,
}

/// `--fail-on METRIC[:PCT]`: the diff regresses when `metric` increases by
/// more than `pct` percent (0: by anything).
#[derive(Clone, Debug, PartialEq)]
pub struct FailOn {
    /// Metric name.
    pub metric: String,
    /// Allowed increase in percent.
    pub pct: f64,
}

impl FromStr for FailOn {
    type Err = ReportError;

    /// `instructions`, `instructions:0.5` or `instructions:0.5%`.
    fn from_str(s: &str) -> Result<FailOn, ReportError> {
        let bad = || {
            ReportError::InvalidOption(format!(
                "--fail-on `{s}`: expected METRIC or METRIC:PERCENT"
            ))
        };
        let (metric, pct) = match s.split_once(':') {
            None => (s, 0.0),
            Some((m, p)) => {
                let p: f64 = p.trim().trim_end_matches('%').parse().map_err(|_| bad())?;
                (m, p)
            }
        };
        if metric.is_empty() || !is_percentage(pct) {
            return Err(bad());
        }
        Ok(FailOn {
            metric: metric.to_string(),
            pct,
        })
    }
}

/// Which changes [`DiffOptions::fail_on`] judges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailScope {
    /// The totals only.
    Totals,
    /// The totals and every row (function or context, whether shown or
    /// not): a row regresses when its self cost rose by more than the
    /// percentage of its old cost; a row absent from OLD, when its cost is
    /// more than the percentage of OLD's total.
    #[default]
    TotalsAndRows,
}

/// Options of [`diff`].
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// Functions or contexts.
    pub by: DiffBy,
    /// Metrics compared, in this order; empty compares every metric the
    /// two profiles share. The first one orders the rows.
    pub metrics: Vec<String>,
    /// Hide rows whose relative change is below this percentage for every
    /// compared metric (a row absent from one side always counts as
    /// changed); 0 shows every row that changed at all.
    pub threshold_pct: f64,
    /// Show only this many rows (the regression check still sees all).
    pub top: Option<usize>,
    /// Limits that make [`DiffOutcome::regressed`] true.
    pub fail_on: Vec<FailOn>,
    /// What the limits apply to.
    pub fail_scope: FailScope,
    /// Text, JSON or Markdown.
    pub format: DiffFormat,
    /// How the output names the two profiles (their file names).
    pub old_name: String,
    /// See `old_name`.
    pub new_name: String,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            by: DiffBy::Function,
            metrics: Vec::new(),
            threshold_pct: 0.0,
            top: None,
            fail_on: Vec::new(),
            fail_scope: FailScope::TotalsAndRows,
            format: DiffFormat::Text,
            old_name: "OLD".into(),
            new_name: "NEW".into(),
        }
    }
}

/// One limit of [`DiffOptions::fail_on`] that a change passed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regression {
    /// The metric.
    pub metric: String,
    /// `total`, or the function (`c`) or context (`main => a => c`).
    pub what: String,
    /// Old value.
    pub old: u64,
    /// New value.
    pub new: u64,
    /// Relative change in percent; `None` when the old value was 0 (JSON
    /// rounds it to 4 decimals).
    #[serde(serialize_with = "serialize_rounded")]
    pub change_pct: Option<f64>,
    /// The limit in percent.
    pub limit_pct: f64,
}

fn serialize_rounded<S: serde::Serializer>(p: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    p.map(round_pct).serialize(s)
}

/// What [`diff`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffOutcome {
    /// The report in the format asked for.
    pub text: String,
    /// A `fail_on` limit was passed: the command exits with status 1.
    pub regressed: bool,
    /// Every passed limit, totals first.
    pub regressions: Vec<Regression>,
}

/// Differences between two runs that make their counts incomparable or
/// explain a change, in words, most important first: objects (build-id,
/// hash or size changed, only in one run; matched by build-id, else by
/// file name, never by directory), CPU model, configuration, command
/// line, guest environment, pathvm version.
pub fn run_differences(old: &Meta, new: &Meta) -> Vec<String> {
    let mut out = Vec::new();
    // Objects are matched by build-id (or content hash), then by file
    // name: a CI checkout and a laptop load the same files from other
    // directories.
    let mut unmatched: Vec<&ObjectInfo> = new.objects.iter().collect();
    let mut changed = Vec::new();
    let mut only_old = Vec::new();
    for o in &old.objects {
        let by_id = unmatched.iter().position(|n| n.id == o.id);
        let by_name = || {
            unmatched
                .iter()
                .position(|n| n.file_name() == o.file_name())
        };
        match by_id.or_else(by_name) {
            Some(k) => {
                let n = unmatched.remove(k);
                if n.id != o.id || n.size != o.size {
                    changed.push((o, n));
                }
            }
            None => only_old.push(o),
        }
    }
    for (o, n) in changed {
        let mut what = Vec::new();
        if n.id != o.id {
            what.push(format!("id {} -> {}", o.id, n.id));
        }
        if n.size != o.size {
            what.push(format!("size {} -> {}", count(o.size), count(n.size)));
        }
        let name = if o.path == n.path {
            o.path.as_str()
        } else {
            o.file_name()
        };
        out.push(format!("object changed: {name} ({})", what.join(", ")));
    }
    for o in only_old {
        out.push(format!("object only in the old run: {}", o.path));
    }
    for n in unmatched {
        out.push(format!("object only in the new run: {}", n.path));
    }
    let (old_cpu, new_cpu) = (
        crate::profile::cpu_model_name(&old.cpu_model),
        crate::profile::cpu_model_name(&new.cpu_model),
    );
    if old_cpu != new_cpu {
        out.push(format!("CPU model: {old_cpu} -> {new_cpu}"));
    }
    let old_config: BTreeMap<&str, &str> = old
        .config
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let new_config: BTreeMap<&str, &str> = new
        .config
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let keys: std::collections::BTreeSet<&str> = old_config
        .keys()
        .chain(new_config.keys())
        .copied()
        .collect();
    for key in keys {
        match (old_config.get(key), new_config.get(key)) {
            (Some(o), Some(n)) if o != n => out.push(format!("configuration {key}: {o} -> {n}")),
            (Some(o), None) => out.push(format!("configuration {key}: {o} -> (unset)")),
            (None, Some(n)) => out.push(format!("configuration {key}: (unset) -> {n}")),
            _ => {}
        }
    }
    if old.command != new.command {
        out.push(format!(
            "command line: `{}` -> `{}`",
            old.command.join(" "),
            new.command.join(" ")
        ));
    }
    if old.env != new.env {
        let added: Vec<&str> = new
            .env
            .iter()
            .filter(|e| !old.env.contains(e))
            .map(|s| s.as_str())
            .collect();
        let removed: Vec<&str> = old
            .env
            .iter()
            .filter(|e| !new.env.contains(e))
            .map(|s| s.as_str())
            .collect();
        let mut parts = Vec::new();
        if !removed.is_empty() {
            parts.push(format!("removed {}", removed.join(" ")));
        }
        if !added.is_empty() {
            parts.push(format!("added {}", added.join(" ")));
        }
        if parts.is_empty() {
            parts.push("reordered".into());
        }
        out.push(format!("guest environment: {}", parts.join("; ")));
    }
    if old.pathvm_version != new.pathvm_version {
        out.push(format!(
            "pathvm version: {} -> {}",
            old.pathvm_version, new.pathvm_version
        ));
    }
    out
}

/// The metrics two profiles share, and the ones asked for among them.
pub(crate) struct CommonMetrics {
    /// Names shared, in OLD's order.
    pub common: Vec<String>,
    /// Column of each shared metric in OLD and in NEW.
    pub old_col: Vec<usize>,
    pub new_col: Vec<usize>,
    /// Positions in `common` of the metrics asked for.
    pub shown: Vec<usize>,
}

impl CommonMetrics {
    pub fn new(
        old: &Profile,
        new: &Profile,
        asked: &[String],
    ) -> Result<CommonMetrics, ReportError> {
        old.validate()
            .map_err(|e| ReportError::InvalidProfile(format!("old profile: {e}")))?;
        new.validate()
            .map_err(|e| ReportError::InvalidProfile(format!("new profile: {e}")))?;
        let common: Vec<String> = old
            .metrics
            .iter()
            .filter(|m| new.metrics.contains(m))
            .cloned()
            .collect();
        if common.is_empty() {
            return Err(ReportError::NoMetrics);
        }
        let mut shown = Vec::new();
        for name in asked {
            let i = common.iter().position(|c| c == name).ok_or_else(|| {
                ReportError::UnknownMetric {
                    name: name.clone(),
                    available: common.clone(),
                }
            })?;
            if !shown.contains(&i) {
                shown.push(i);
            }
        }
        if shown.is_empty() {
            shown = (0..common.len()).collect();
        }
        Ok(CommonMetrics {
            old_col: common
                .iter()
                .map(|m| old.metric_index(m).expect("shared"))
                .collect(),
            new_col: common
                .iter()
                .map(|m| new.metric_index(m).expect("shared"))
                .collect(),
            common,
            shown,
        })
    }

    pub fn position(&self, name: &str) -> Result<usize, ReportError> {
        self.common
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| ReportError::UnknownMetric {
                name: name.to_string(),
                available: self.common.clone(),
            })
    }
}

/// Relative change in percent; `None` from 0 to something.
pub(crate) fn relative(old: u64, new: u64) -> Option<f64> {
    if old == 0 {
        (new == 0).then_some(0.0)
    } else {
        Some((new as f64 - old as f64) * 100.0 / old as f64)
    }
}

/// Whether an increase from `old` to `new` passes `limit_pct`; a rise from
/// 0 is judged against `base` (OLD's total) instead.
fn passes(old: u64, new: u64, base: u64, limit_pct: f64) -> bool {
    if new <= old {
        return false;
    }
    let reference = if old == 0 { base } else { old };
    reference == 0 || (new - old) as f64 * 100.0 / reference as f64 > limit_pct
}

/// A row of the diff: a function or a context with its costs on both sides
/// (one value per shared metric; absent sides are zeros).
struct DiffRow {
    /// Function name, or the stack of names.
    names: Vec<String>,
    /// Object file name (function rows only).
    object: String,
    in_old: bool,
    in_new: bool,
    old: Vec<u64>,
    new: Vec<u64>,
}

impl DiffRow {
    fn label(&self) -> String {
        self.names.join(" => ")
    }

    fn change(&self, i: usize) -> i128 {
        self.new[i] as i128 - self.old[i] as i128
    }
}

type RowKey = (Vec<String>, String);

fn rows_of(profile: &Profile, by: DiffBy, cols: &[usize]) -> BTreeMap<RowKey, Vec<u64>> {
    let mut rows: BTreeMap<RowKey, Vec<u64>> = BTreeMap::new();
    let mut add = |key: RowKey, costs: &[u64]| {
        let row = rows.entry(key).or_insert_with(|| vec![0; cols.len()]);
        for (v, &c) in row.iter_mut().zip(cols) {
            *v = v.saturating_add(costs[c]);
        }
    };
    match by {
        DiffBy::Function => {
            for f in &profile.functions {
                add(
                    (vec![f.name.clone()], file_name(&f.object).to_string()),
                    &f.self_cost,
                );
            }
        }
        DiffBy::Context => {
            let tree = MergedTree::build(profile);
            for p in 1..tree.len() {
                let names = tree
                    .stack(p)
                    .into_iter()
                    .map(|l| label_name(profile, l).to_string())
                    .collect();
                add((names, String::new()), tree.self_of(p));
            }
        }
        DiffBy::Path => {
            for f in &profile.paths.functions {
                let (name, object) = match profile.functions.get(f.function as usize) {
                    Some(r) => (r.name.clone(), file_name(&r.object).to_string()),
                    None => (format!("{:#x}", f.entry), String::new()),
                };
                for r in &f.rows {
                    let info = &f.paths[r.path as usize];
                    let end = if info.truncated { " truncated" } else { "" };
                    let label = format!("{name} [path {}{end}]", info.id);
                    add((vec![label], object.clone()), &r.cost);
                }
            }
        }
    }
    rows
}

/// One metric's change, as `diff` and `check` write it in JSON.
#[derive(Serialize)]
pub(crate) struct ChangeJson {
    old: u64,
    new: u64,
    change: i128,
    change_pct: Option<f64>,
}

pub(crate) fn change_json(old: u64, new: u64) -> ChangeJson {
    ChangeJson {
        old,
        new,
        change: new as i128 - old as i128,
        change_pct: relative(old, new).map(round_pct),
    }
}

#[derive(Serialize)]
struct RowJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    stack: Option<&'a [String]>,
    function: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<&'a str>,
    status: &'static str,
    changes: OrderedMap<&'a str, ChangeJson>,
}

#[derive(Serialize)]
struct DiffJson<'a> {
    old: &'a str,
    new: &'a str,
    by: &'static str,
    metrics: Vec<&'a str>,
    differences: &'a [String],
    totals: OrderedMap<&'a str, ChangeJson>,
    rows: Vec<RowJson<'a>>,
    regressions: &'a [Regression],
    regressed: bool,
}

/// Compares two profiles per function or per context, per metric, with
/// absolute and relative changes, rows sorted by impact (the absolute
/// change of the first compared metric, largest first; then the other
/// metrics; then by name). Rows that did not change, or changed less than
/// [`DiffOptions::threshold_pct`], are hidden. Differences between the runs
/// themselves ([`run_differences`]) come first.
///
/// [`DiffOutcome::regressed`] is true when a metric of
/// [`DiffOptions::fail_on`] increased by more than its percentage, in the
/// totals or (with [`FailScope::TotalsAndRows`]) in any row. The command
/// line exits with 1 then, 0 otherwise, and 2 on an error.
///
/// JSON: `{"old", "new", "by", "metrics", "differences": [...], "totals":
/// {metric: {"old", "new", "change", "change_pct"}}, "rows": [{"stack"
/// (contexts), "function", "object" (functions), "status":
/// "changed"|"added"|"removed", "changes": {metric: {...}}}],
/// "regressions": [{"metric", "what", "old", "new", "change_pct",
/// "limit_pct"}], "regressed"}`; `change_pct` is `null` when the old value
/// is 0.
pub fn diff(old: &Profile, new: &Profile, opts: &DiffOptions) -> Result<DiffOutcome, ReportError> {
    let cm = CommonMetrics::new(old, new, &opts.metrics)?;
    if !is_percentage(opts.threshold_pct) {
        return Err(ReportError::InvalidOption(format!(
            "threshold {} is not a percentage",
            opts.threshold_pct
        )));
    }
    if opts.by == DiffBy::Path && !(old.paths.recorded && new.paths.recorded) {
        return Err(ReportError::InvalidOption(
            "--by path: a profile has no paths (recorded with --no-paths)".into(),
        ));
    }
    let limits: Vec<(usize, f64)> = opts
        .fail_on
        .iter()
        .map(|f| Ok((cm.position(&f.metric)?, f.pct)))
        .collect::<Result<_, ReportError>>()?;

    let old_totals: Vec<u64> = cm.old_col.iter().map(|&c| old.totals[c]).collect();
    let new_totals: Vec<u64> = cm.new_col.iter().map(|&c| new.totals[c]).collect();
    let mut old_rows = rows_of(old, opts.by, &cm.old_col);
    let new_rows = rows_of(new, opts.by, &cm.new_col);
    let mut rows: Vec<DiffRow> = Vec::new();
    for ((names, object), n) in new_rows {
        let o = old_rows.remove(&(names.clone(), object.clone()));
        rows.push(DiffRow {
            names,
            object,
            in_old: o.is_some(),
            in_new: true,
            old: o.unwrap_or_else(|| vec![0; cm.common.len()]),
            new: n,
        });
    }
    for ((names, object), o) in old_rows {
        rows.push(DiffRow {
            names,
            object,
            in_old: true,
            in_new: false,
            old: o,
            new: vec![0; cm.common.len()],
        });
    }

    let mut regressions = Vec::new();
    for &(i, limit) in &limits {
        if passes(old_totals[i], new_totals[i], old_totals[i], limit) {
            regressions.push(Regression {
                metric: cm.common[i].clone(),
                what: "total".into(),
                old: old_totals[i],
                new: new_totals[i],
                change_pct: relative(old_totals[i], new_totals[i]),
                limit_pct: limit,
            });
        }
    }
    if opts.fail_scope == FailScope::TotalsAndRows {
        let mut by_row = Vec::new();
        for &(i, limit) in &limits {
            for r in &rows {
                if passes(r.old[i], r.new[i], old_totals[i], limit) {
                    by_row.push((
                        r.change(i),
                        Regression {
                            metric: cm.common[i].clone(),
                            what: r.label(),
                            old: r.old[i],
                            new: r.new[i],
                            change_pct: relative(r.old[i], r.new[i]),
                            limit_pct: limit,
                        },
                    ));
                }
            }
        }
        by_row.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.what.cmp(&y.1.what)));
        regressions.extend(by_row.into_iter().map(|(_, r)| r));
    }

    let shown_row = |r: &DiffRow| {
        cm.shown.iter().any(|&i| {
            r.change(i) != 0
                && (!r.in_old
                    || !r.in_new
                    || relative(r.old[i], r.new[i]).is_none_or(|p| p.abs() >= opts.threshold_pct))
        })
    };
    let mut shown: Vec<&DiffRow> = rows.iter().filter(|r| shown_row(r)).collect();
    shown.sort_by(|x, y| {
        for &i in &cm.shown {
            let o = y.change(i).abs().cmp(&x.change(i).abs());
            if o.is_ne() {
                return o;
            }
        }
        (&x.names, &x.object).cmp(&(&y.names, &y.object))
    });
    let changed = shown.len();
    if let Some(top) = opts.top {
        shown.truncate(top);
    }

    let differences = run_differences(&old.meta, &new.meta);
    let mut missing = Vec::new();
    for (profile, side) in [(old, "old"), (new, "new")] {
        let only: Vec<&str> = profile
            .metrics
            .iter()
            .filter(|m| !cm.common.contains(m))
            .map(|s| s.as_str())
            .collect();
        if !only.is_empty() {
            missing.push(format!(
                "metrics only in the {side} run: {}",
                only.join(", ")
            ));
        }
    }
    let differences: Vec<String> = differences.into_iter().chain(missing).collect();
    let regressed = !regressions.is_empty();
    let status = |r: &DiffRow| match (r.in_old, r.in_new) {
        (false, _) => "added",
        (_, false) => "removed",
        _ => "changed",
    };
    let by_name = match opts.by {
        DiffBy::Function => "function",
        DiffBy::Context => "context",
        DiffBy::Path => "path",
    };

    let text = match opts.format {
        DiffFormat::Json => to_json(&DiffJson {
            old: &opts.old_name,
            new: &opts.new_name,
            by: by_name,
            metrics: cm.shown.iter().map(|&i| cm.common[i].as_str()).collect(),
            differences: &differences,
            totals: OrderedMap(
                cm.shown
                    .iter()
                    .map(|&i| {
                        (
                            cm.common[i].as_str(),
                            change_json(old_totals[i], new_totals[i]),
                        )
                    })
                    .collect(),
            ),
            rows: shown
                .iter()
                .map(|r| RowJson {
                    stack: (opts.by == DiffBy::Context).then_some(r.names.as_slice()),
                    function: r.names.last().map_or("", |s| s.as_str()),
                    object: (opts.by != DiffBy::Context).then_some(r.object.as_str()),
                    status: status(r),
                    changes: OrderedMap(
                        cm.shown
                            .iter()
                            .map(|&i| (cm.common[i].as_str(), change_json(r.old[i], r.new[i])))
                            .collect(),
                    ),
                })
                .collect(),
            regressions: &regressions,
            regressed,
        }),
        DiffFormat::Markdown => markdown_diff(&MarkdownDiff {
            opts,
            cm: &cm,
            old_totals: &old_totals,
            new_totals: &new_totals,
            shown: &shown,
            changed,
            differences: &differences,
            regressions: &regressions,
            by_name,
        }),
        DiffFormat::Text => {
            let mut out = format!(
                "pathvm diff: {} -> {} (by {by_name})\n\n",
                opts.old_name, opts.new_name
            );
            if !differences.is_empty() {
                out.push_str("The runs differ:\n");
                for d in &differences {
                    out.push_str(&format!("  - {d}\n"));
                }
                out.push('\n');
            }
            totals_table(opts, &cm, &old_totals, &new_totals).render_text(&mut out);
            out.push('\n');
            if shown.is_empty() {
                out.push_str(&no_change_line(opts));
            } else {
                out.push_str(&changed_line(opts, &cm, shown.len(), changed));
                out.push('\n');
                let mut table = Table::new();
                for &i in &cm.shown {
                    let name = &cm.common[i];
                    table
                        .column(format!("change {name}"), Align::Right)
                        .column("change %", Align::Right)
                        .column(format!("old {name}"), Align::Right)
                        .column(format!("new {name}"), Align::Right);
                }
                match opts.by {
                    DiffBy::Function | DiffBy::Path => {
                        table
                            .column("function", Align::Left)
                            .column("object", Align::Left);
                    }
                    DiffBy::Context => {
                        table.column("context", Align::Left);
                    }
                }
                for r in &shown {
                    let mut cells = Vec::new();
                    for &i in &cm.shown {
                        cells.push(signed(r.change(i)));
                        cells.push(row_change_pct(r, i));
                        cells.push(count(r.old[i]));
                        cells.push(count(r.new[i]));
                    }
                    cells.push(r.label());
                    if opts.by != DiffBy::Context {
                        cells.push(r.object.clone());
                    }
                    table.row(cells);
                }
                table.render_text(&mut out);
            }
            if !opts.fail_on.is_empty() {
                out.push('\n');
                if regressions.is_empty() {
                    out.push_str(&format!(
                        "OK: within the limits ({}).\n",
                        limits_text(&opts.fail_on)
                    ));
                } else {
                    out.push_str("REGRESSED:\n");
                    for r in &regressions {
                        out.push_str(&format!(
                            "  - {}\n",
                            regression_line(r, &|t: &str| t.to_string())
                        ));
                    }
                }
            }
            out
        }
    };
    Ok(DiffOutcome {
        text,
        regressed,
        regressions,
    })
}

/// The totals of the shown metrics: old, new and their change, one row
/// per metric (text and Markdown alike).
fn totals_table(opts: &DiffOptions, cm: &CommonMetrics, old: &[u64], new: &[u64]) -> Table {
    let mut totals = Table::new();
    totals
        .column("total", Align::Left)
        .column(opts.old_name.clone(), Align::Right)
        .column(opts.new_name.clone(), Align::Right)
        .column("change", Align::Right)
        .column("change %", Align::Right);
    for &i in &cm.shown {
        totals.row(vec![
            cm.common[i].clone(),
            count(old[i]),
            count(new[i]),
            signed(new[i] as i128 - old[i] as i128),
            signed_pct(relative(old[i], new[i])),
        ]);
    }
    totals
}

/// `No functions changed[ by T% or more].` and its line end.
fn no_change_line(opts: &DiffOptions) -> String {
    let mut out = format!("No {} changed", rows_word(opts.by));
    if opts.threshold_pct > 0.0 {
        out.push_str(&format!(" by {:.2}% or more", opts.threshold_pct));
    }
    out.push_str(".\n");
    out
}

/// `Changed functions: SHOWN of CHANGED, by change of METRIC[, threshold T%]`.
fn changed_line(opts: &DiffOptions, cm: &CommonMetrics, shown: usize, changed: usize) -> String {
    let mut out = format!(
        "Changed {}: {shown} of {changed}, by change of {}",
        rows_word(opts.by),
        cm.common[cm.shown[0]]
    );
    if opts.threshold_pct > 0.0 {
        out.push_str(&format!(", threshold {:.2}%", opts.threshold_pct));
    }
    out
}

/// `METRIC of WHAT: OLD -> NEW (+X% > +LIMIT%)`, names through `esc`.
fn regression_line(r: &Regression, esc: &dyn Fn(&str) -> String) -> String {
    format!(
        "{} of {}: {} -> {} ({} > +{:.2}%)",
        esc(&r.metric),
        esc(&r.what),
        count(r.old),
        count(r.new),
        signed_pct(r.change_pct),
        r.limit_pct
    )
}

/// `functions`, `contexts`, `paths`.
fn rows_word(by: DiffBy) -> &'static str {
    match by {
        DiffBy::Function => "functions",
        DiffBy::Context => "contexts",
        DiffBy::Path => "paths",
    }
}

/// A row's relative change in metric `i`; `removed` when gone.
fn row_change_pct(r: &DiffRow, i: usize) -> String {
    if r.in_new {
        signed_pct(relative(r.old[i], r.new[i]))
    } else {
        "removed".into()
    }
}

/// `instructions +0.50%, l1d-miss +2.00%`.
fn limits_text(fail_on: &[FailOn]) -> String {
    fail_on
        .iter()
        .map(|f| format!("{} +{:.2}%", f.metric, f.pct))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the Markdown of a diff is made from.
struct MarkdownDiff<'a> {
    opts: &'a DiffOptions,
    cm: &'a CommonMetrics,
    old_totals: &'a [u64],
    new_totals: &'a [u64],
    shown: &'a [&'a DiffRow],
    changed: usize,
    differences: &'a [String],
    regressions: &'a [Regression],
    by_name: &'a str,
}

/// Regressions named on the first line of a Markdown diff.
const REGRESSIONS_NAMED: usize = 3;

/// Markdown for a pull request comment or a job summary: the verdict on
/// the first line (the limits passed, or the totals' changes without
/// limits), the totals one line per metric (name first), the changed rows
/// (name first) and how the runs differ in collapsible sections.
fn markdown_diff(m: &MarkdownDiff) -> String {
    let (opts, cm) = (m.opts, m.cm);
    let esc = markdown_escape;
    let change_of = |i: usize| {
        format!(
            "{} {}",
            cm.common[i],
            signed_pct(relative(m.old_totals[i], m.new_totals[i]))
        )
    };
    let mut out = if !m.regressions.is_empty() {
        let mut named: Vec<String> = m
            .regressions
            .iter()
            .take(REGRESSIONS_NAMED)
            .map(|r| {
                format!(
                    "{} {} {} > +{:.2}%",
                    r.what,
                    r.metric,
                    signed_pct(r.change_pct),
                    r.limit_pct
                )
            })
            .collect();
        if m.regressions.len() > REGRESSIONS_NAMED {
            named.push(format!(
                "and {} more",
                m.regressions.len() - REGRESSIONS_NAMED
            ));
        }
        format!("### pathvm diff REGRESSED: {}\n\n", esc(&named.join(", ")))
    } else if !opts.fail_on.is_empty() {
        let totals: Vec<String> = cm.shown.iter().map(|&i| change_of(i)).collect();
        format!(
            "### pathvm diff OK: {} (limits {})\n\n",
            esc(&totals.join(", ")),
            esc(&limits_text(&opts.fail_on))
        )
    } else {
        let totals: Vec<String> = cm.shown.iter().map(|&i| change_of(i)).collect();
        format!("### pathvm diff: {}\n\n", esc(&totals.join(", ")))
    };
    out.push_str(&format!(
        "{} -> {}, by {}\n\n",
        esc(&opts.old_name),
        esc(&opts.new_name),
        m.by_name
    ));
    totals_table(opts, cm, m.old_totals, m.new_totals).render_markdown(&mut out);
    out.push('\n');
    if m.shown.is_empty() {
        out.push_str(&no_change_line(opts));
    } else {
        let summary = changed_line(opts, cm, m.shown.len(), m.changed);
        out.push_str(&format!(
            "<details><summary>{}</summary>\n\n",
            html_escape(&summary)
        ));
        let mut table = Table::new();
        match opts.by {
            DiffBy::Function | DiffBy::Path => {
                table
                    .column("function", Align::Left)
                    .column("object", Align::Left);
            }
            DiffBy::Context => {
                table.column("context", Align::Left);
            }
        }
        for &i in &cm.shown {
            let name = &cm.common[i];
            table
                .column(format!("old {name}"), Align::Right)
                .column(format!("new {name}"), Align::Right)
                .column(format!("change {name}"), Align::Right)
                .column("change %", Align::Right);
        }
        for r in m.shown {
            let mut cells = vec![r.label()];
            if opts.by != DiffBy::Context {
                cells.push(r.object.clone());
            }
            for &i in &cm.shown {
                cells.push(count(r.old[i]));
                cells.push(count(r.new[i]));
                cells.push(signed(r.change(i)));
                cells.push(row_change_pct(r, i));
            }
            table.row(cells);
        }
        table.render_markdown(&mut out);
        out.push_str("\n</details>\n");
    }
    if m.regressions.len() > REGRESSIONS_NAMED {
        out.push_str(&format!(
            "\n<details><summary>Regressions ({})</summary>\n\n",
            m.regressions.len()
        ));
        for r in m.regressions {
            out.push_str(&format!("- {}\n", regression_line(r, &esc)));
        }
        out.push_str("\n</details>\n");
    }
    if !m.differences.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>The runs differ ({})</summary>\n\n",
            m.differences.len()
        ));
        for d in m.differences {
            out.push_str(&format!("- {}\n", esc(d)));
        }
        out.push_str("\n</details>\n");
    }
    out
}

/// Escapes text for HTML (a `<summary>`).
pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    /// NEW: `c` under `b` does 2% more instructions (100 → 102), `b` one
    /// more l1d miss, and a new function `d` appears under `a`.
    fn changed_profile() -> Profile {
        let mut p = tiny_profile();
        p.contexts.self_cost[5 * 2] = 102;
        p.contexts.self_cost[4 * 2 + 1] = 1;
        p.functions[3].self_cost = vec![202, 30];
        p.functions[3].inclusive = vec![202, 30];
        p.functions[2].self_cost = vec![40, 1];
        p.functions.push(crate::FunctionRow {
            name: "d".into(),
            object: "/other/dir/tiny".into(),
            calls: 1,
            self_cost: vec![3, 0],
            inclusive: vec![3, 0],
            ..Default::default()
        });
        let c = &mut p.contexts;
        c.parent.push(2);
        c.function.push(4);
        c.call_site.push(0x401400);
        c.flags.push(0);
        c.calls.push(1);
        c.self_cost.extend([3, 0]);
        p.totals = vec![275, 34];
        p
    }

    fn opts() -> DiffOptions {
        DiffOptions {
            metrics: vec!["instructions".into()],
            ..Default::default()
        }
    }

    #[test]
    fn same_profile_no_change_no_regression() {
        let mut o = opts();
        o.fail_on = vec!["instructions".parse().unwrap()];
        let d = diff(&tiny_profile(), &tiny_profile(), &o).unwrap();
        assert!(!d.regressed);
        assert_eq!(
            d.text,
            "\
pathvm diff: OLD -> NEW (by function)

total         OLD  NEW  change  change %
instructions  270  270       0     0.00%

No functions changed.

OK: within the limits (instructions +0.00%).
"
        );
    }

    #[test]
    fn function_diff_text() {
        let d = diff(&tiny_profile(), &changed_profile(), &opts()).unwrap();
        assert!(!d.regressed);
        assert_eq!(
            d.text,
            "\
pathvm diff: OLD -> NEW (by function)

total         OLD  NEW  change  change %
instructions  270  275      +5    +1.85%

Changed functions: 2 of 2, by change of instructions
change instructions  change %  old instructions  new instructions  function  object
                 +3       new                 0                 3  d         tiny
                 +2    +1.00%               200               202  c         tiny
"
        );
    }

    #[test]
    fn threshold_hides_small_relative_changes() {
        let mut o = opts();
        o.threshold_pct = 1.5;
        o.format = DiffFormat::Json;
        let d = diff(&tiny_profile(), &changed_profile(), &o).unwrap();
        let v: serde_json::Value = serde_json::from_str(&d.text).unwrap();
        // c changed by 1%: hidden; d is new: shown.
        assert_eq!(v["rows"].as_array().unwrap().len(), 1);
        assert_eq!(v["rows"][0]["function"], "d");
        o.threshold_pct = 0.5;
        let d = diff(&tiny_profile(), &changed_profile(), &o).unwrap();
        let v: serde_json::Value = serde_json::from_str(&d.text).unwrap();
        assert_eq!(v["rows"].as_array().unwrap().len(), 2);
        o.threshold_pct = f64::NAN;
        assert!(diff(&tiny_profile(), &changed_profile(), &o).is_err());
    }

    #[test]
    fn fail_on_totals_and_rows() {
        let (old, new) = (tiny_profile(), changed_profile());
        let run = |fail_on: &str, scope| {
            let o = DiffOptions {
                fail_on: vec![fail_on.parse().unwrap()],
                fail_scope: scope,
                ..opts()
            };
            diff(&old, &new, &o).unwrap()
        };
        // Totals +1.85%.
        assert!(run("instructions:1.8", FailScope::Totals).regressed);
        assert!(!run("instructions:1.9", FailScope::Totals).regressed);
        // Rows: c +1.00%, d new (3 of an old total of 270 = 1.11%).
        let d = run("instructions:1.9", FailScope::TotalsAndRows);
        assert!(!d.regressed);
        let d = run("instructions:1.05", FailScope::TotalsAndRows);
        assert_eq!(
            d.regressions
                .iter()
                .map(|r| r.what.as_str())
                .collect::<Vec<_>>(),
            ["total", "d"]
        );
        let d = run("instructions:0.5%", FailScope::TotalsAndRows);
        assert_eq!(
            d.regressions
                .iter()
                .map(|r| r.what.as_str())
                .collect::<Vec<_>>(),
            ["total", "d", "c"]
        );
        assert!(d.text.ends_with(
            "REGRESSED:\n  - instructions of total: 270 -> 275 (+1.85% > +0.50%)\n  - instructions of d: 0 -> 3 (new > +0.50%)\n  - instructions of c: 200 -> 202 (+1.00% > +0.50%)\n"
        ), "{}", d.text);
        // l1d-miss is judged even though only instructions are shown.
        let d = run("l1d-miss:2", FailScope::TotalsAndRows);
        assert_eq!(d.regressions[0].what, "total");
        assert_eq!(d.regressions[1].what, "b");
        assert_eq!(d.regressions[1].change_pct, None);
        // Decreases never regress.
        let d = diff(
            &new,
            &old,
            &DiffOptions {
                fail_on: vec!["instructions".parse().unwrap()],
                ..opts()
            },
        )
        .unwrap();
        assert!(!d.regressed);
    }

    #[test]
    fn fail_on_parsing() {
        assert_eq!(
            "instructions".parse::<FailOn>().unwrap(),
            FailOn {
                metric: "instructions".into(),
                pct: 0.0
            }
        );
        assert_eq!(
            "l1d-miss:2.5%".parse::<FailOn>().unwrap(),
            FailOn {
                metric: "l1d-miss".into(),
                pct: 2.5
            }
        );
        for bad in ["", ":1", "x:", "x:-1", "x:abc", "x:inf"] {
            assert!(bad.parse::<FailOn>().is_err(), "{bad}");
        }
        let o = DiffOptions {
            fail_on: vec!["cycles:1".parse().unwrap()],
            ..opts()
        };
        assert_eq!(
            diff(&tiny_profile(), &tiny_profile(), &o)
                .unwrap_err()
                .to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
    }

    #[test]
    fn context_diff_json_golden() {
        let o = DiffOptions {
            by: DiffBy::Context,
            format: DiffFormat::Json,
            fail_on: vec!["instructions:1".parse().unwrap()],
            fail_scope: FailScope::Totals,
            old_name: "base.pathvm".into(),
            new_name: "new.pathvm".into(),
            ..opts()
        };
        let mut new = changed_profile();
        new.meta.objects[0].id = "4567cdef".into();
        new.meta.config.push(("l1d".into(), "32k".into()));
        let d = diff(&tiny_profile(), &new, &o).unwrap();
        assert!(d.regressed);
        assert_eq!(
            d.text,
            r#"{
  "old": "base.pathvm",
  "new": "new.pathvm",
  "by": "context",
  "metrics": [
    "instructions"
  ],
  "differences": [
    "object changed: /work/tiny (id 0123abcd -> 4567cdef)",
    "configuration l1d: (unset) -> 32k"
  ],
  "totals": {
    "instructions": {
      "old": 270,
      "new": 275,
      "change": 5,
      "change_pct": 1.8519
    }
  },
  "rows": [
    {
      "stack": [
        "main",
        "a",
        "d"
      ],
      "function": "d",
      "status": "added",
      "changes": {
        "instructions": {
          "old": 0,
          "new": 3,
          "change": 3,
          "change_pct": null
        }
      }
    },
    {
      "stack": [
        "main",
        "b",
        "c"
      ],
      "function": "c",
      "status": "changed",
      "changes": {
        "instructions": {
          "old": 100,
          "new": 102,
          "change": 2,
          "change_pct": 2.0
        }
      }
    }
  ],
  "regressions": [
    {
      "metric": "instructions",
      "what": "total",
      "old": 270,
      "new": 275,
      "change_pct": 1.8519,
      "limit_pct": 1.0
    }
  ],
  "regressed": true
}
"#
        );
    }

    #[test]
    fn paths_are_compared_by_function_and_id() {
        let mut new = tiny_profile();
        // Path 0 of c runs 5 more times in context 3, each 4 instructions, 1 miss.
        let r = &mut new.paths.functions[0].rows[0];
        r.count += 5;
        r.cost[0] += 20;
        r.cost[1] += 5;
        let o = DiffOptions {
            by: DiffBy::Path,
            format: DiffFormat::Json,
            ..opts()
        };
        let d = diff(&tiny_profile(), &new, &o).unwrap();
        let j: serde_json::Value = serde_json::from_str(&d.text).unwrap();
        assert_eq!(j["by"], "path");
        let rows = j["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 1, "{j:#}");
        assert_eq!(rows[0]["function"], "c [path 0]");
        assert_eq!(rows[0]["changes"]["instructions"]["change"], 20);
        assert_eq!(rows[0]["status"], "changed");
        let mut none = tiny_profile();
        none.paths = Default::default();
        assert!(diff(&tiny_profile(), &none, &o).is_err());
    }

    #[test]
    fn markdown_and_run_differences() {
        let mut new = changed_profile();
        new.meta.cpu_model = "skylake".into();
        new.meta.command = vec!["./tiny".into(), "8".into()];
        new.meta.env.push("LANG=C".into());
        new.meta.objects.pop();
        new.meta.objects.push(crate::ObjectInfo {
            path: "/lib/libm.so.6".into(),
            size: 1,
            id: "aa".into(),
        });
        new.metrics.push("branch-miss".into());
        new.totals.push(0);
        for f in &mut new.functions {
            f.self_cost.push(0);
            f.inclusive.push(0);
        }
        let n = new.contexts.len();
        let mut costs = Vec::new();
        for node in 0..n {
            costs.extend_from_slice(&new.contexts.self_cost[node * 2..node * 2 + 2]);
            costs.push(0);
        }
        new.contexts.self_cost = costs;
        for r in new.paths.functions.iter_mut().flat_map(|f| &mut f.rows) {
            r.cost.push(0);
        }
        let o = DiffOptions {
            format: DiffFormat::Markdown,
            top: Some(1),
            ..opts()
        };
        let d = diff(&tiny_profile(), &new, &o).unwrap();
        assert_eq!(
            d.text,
            "\
### pathvm diff: instructions +1.85%

OLD -> NEW, by function

| total | OLD | NEW | change | change % |
| :--- | ---: | ---: | ---: | ---: |
| instructions | 270 | 275 | +5 | +1.85% |

<details><summary>Changed functions: 1 of 2, by change of instructions</summary>

| function | object | old instructions | new instructions | change instructions | change % |
| :--- | :--- | ---: | ---: | ---: | ---: |
| d | tiny | 0 | 3 | +3 | new |

</details>

<details><summary>The runs differ (6)</summary>

- object only in the old run: /usr/lib/x86\\_64-linux-gnu/libc.so.6
- object only in the new run: /lib/libm.so.6
- CPU model: haswell-noavx -> skylake
- command line: \\`./tiny 7\\` -> \\`./tiny 8\\`
- guest environment: added LANG=C
- metrics only in the new run: branch-miss

</details>
"
        );
    }

    #[test]
    fn markdown_leads_with_the_verdict() {
        let o = DiffOptions {
            format: DiffFormat::Markdown,
            fail_on: vec!["instructions:0.5".parse().unwrap()],
            ..opts()
        };
        let d = diff(&tiny_profile(), &changed_profile(), &o).unwrap();
        assert!(d.regressed);
        assert_eq!(
            d.text.lines().next().unwrap(),
            "### pathvm diff REGRESSED: total instructions +1.85% > +0.50%, d instructions new > +0.50%, c instructions +1.00% > +0.50%"
        );
        let o = DiffOptions {
            fail_on: vec!["instructions:5".parse().unwrap()],
            ..o
        };
        let d = diff(&tiny_profile(), &changed_profile(), &o).unwrap();
        assert_eq!(
            d.text.lines().next().unwrap(),
            "### pathvm diff OK: instructions +1.85% (limits instructions +5.00%)"
        );
    }

    #[test]
    fn objects_match_by_build_id_or_file_name() {
        let mut moved = tiny_profile();
        // The same files from other directories: no difference.
        moved.meta.objects[0].path = "/home/me/src/tiny".into();
        moved.meta.objects[1].path = "/lib64/libc.so.6".into();
        assert_eq!(
            run_differences(&tiny_profile().meta, &moved.meta),
            Vec::<String>::new()
        );
        // Rebuilt elsewhere: matched by file name, the id changed.
        moved.meta.objects[0].id = "99".into();
        assert_eq!(
            run_differences(&tiny_profile().meta, &moved.meta),
            ["object changed: tiny (id 0123abcd -> 99)"]
        );
        // Renamed, same build-id: the same object.
        let mut renamed = tiny_profile();
        renamed.meta.objects[0].path = "/ci/bench".into();
        assert_eq!(
            run_differences(&tiny_profile().meta, &renamed.meta),
            Vec::<String>::new()
        );
    }

    #[test]
    fn removed_rows() {
        let d = diff(&changed_profile(), &tiny_profile(), &opts()).unwrap();
        assert!(d.text.contains("                 -3   removed                 3                 0  d         tiny\n"), "{}", d.text);
    }
}

/// `pathvm diff` of two profile files.
#[derive(Clone, Debug)]
pub struct DiffFiles<'a> {
    /// The old profile.
    pub old: &'a std::path::Path,
    /// The new profile.
    pub new: &'a std::path::Path,
    /// Compare this phase only.
    pub phase: Option<&'a str>,
    /// Profiles made on different CPU models may be compared.
    pub allow_cpu_mismatch: bool,
    /// `METRIC[:PCT]` limits ([`FailOn`]), added to `options.fail_on`.
    pub fail_on: &'a [String],
    /// A differential flame graph of the first of `options.metrics`
    /// (default instructions) instead of a report; the limits are judged
    /// as for text.
    pub flamegraph: bool,
    /// What to compare and how to write it (`old_name` and `new_name` are
    /// the files').
    pub options: DiffOptions,
}

/// Why [`diff_files`] could not compare.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiffFilesError {
    /// A profile could not be read.
    #[error(transparent)]
    Profile(#[from] crate::ProfileError),
    /// The comparison refused the profiles or the options.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The flame graph could not be drawn.
    #[error(transparent)]
    Export(#[from] crate::ExportError),
    /// The options do not go together, or the CPU models differ.
    #[error("{0}")]
    Refused(String),
}

/// Reads both profiles and compares them: the report (or the SVG), and
/// whether a limit was passed.
pub fn diff_files(req: &DiffFiles) -> Result<(Vec<u8>, bool), DiffFilesError> {
    let refuse = |why: &str| Err(DiffFilesError::Refused(why.into()));
    if req.flamegraph && req.phase.is_some() {
        return refuse("--phase: --format flamegraph draws whole profiles");
    }
    if req.flamegraph && req.options.metrics.len() > 1 {
        return refuse("--metric: --format flamegraph draws one metric");
    }
    let mut old = crate::read_profile(req.old)?;
    let mut new = crate::read_profile(req.new)?;
    if let (Some(why), false) = (
        crate::cpu_mismatch(&old.meta, &new.meta),
        req.allow_cpu_mismatch,
    ) {
        return refuse(&why);
    }
    if let Some(phase) = req.phase {
        old = crate::phase_profile(&old, phase)?;
        new = crate::phase_profile(&new, phase)?;
    }
    let mut opts = req.options.clone();
    for f in req.fail_on {
        opts.fail_on.push(f.parse()?);
    }
    opts.old_name = req.old.display().to_string();
    opts.new_name = req.new.display().to_string();
    if req.flamegraph {
        opts.format = DiffFormat::Text;
    }
    let d = diff(&old, &new, &opts)?;
    if !req.flamegraph {
        return Ok((d.text.into_bytes(), d.regressed));
    }
    let metric = opts.metrics.first().map_or("instructions", String::as_str);
    let title = format!(
        "pathvm diff: {} -> {} ({metric})",
        opts.old_name, opts.new_name
    );
    let mut svg = Vec::new();
    crate::export_diff_flamegraph(&old, &new, metric, &title, &mut svg)?;
    Ok((svg, d.regressed))
}
