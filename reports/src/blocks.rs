//! `pathvm report --by block` and `--by line`: costs per executed block of
//! code and per source line.
//!
//! A block's costs are exact in every metric (everything its instructions
//! caused, a branch's outcome included). Per line, `instructions` is exact
//! (each instruction of a block runs as often as the block); the other
//! metrics are known per block, not per instruction, so a line gets a
//! block's other costs only when all of the block's instructions with a
//! known line are on that one line, and a block spread over several lines
//! puts them in the row `(several lines)` of its file's first line's
//! function. The totals line says how much of each metric that row holds.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::ReportFormat;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{file_name, BlockRow, ContextTable, Profile};
use crate::table::{count, pct, percent_of, Align, Table};

/// Options of [`report_blocks`] and [`report_lines`].
#[derive(Clone, Debug, Default)]
pub struct BlockReportOptions {
    /// Metrics to show; empty: all.
    pub metrics: Vec<String>,
    /// Sort metric; `None`: the first shown.
    pub sort_by: Option<String>,
    /// Only this many rows.
    pub top: Option<usize>,
    /// Text or JSON.
    pub format: ReportFormat,
}

fn check(profile: &Profile) -> Result<(), ReportError> {
    if profile.blocks.blocks.is_empty() {
        return Err(ReportError::InvalidOption(
            "the profile has no per-block costs (made by an older pathvm)".into(),
        ));
    }
    Ok(())
}

fn function_name(profile: &Profile, b: &BlockRow) -> String {
    if b.function == ContextTable::NO_FUNCTION {
        return String::new();
    }
    profile
        .functions
        .get(b.function as usize)
        .map(|f| f.name.clone())
        .unwrap_or_default()
}

/// `file:first-last` of a block's known lines, or empty.
fn block_source(profile: &Profile, b: &BlockRow) -> String {
    let known: Vec<_> = b.lines.iter().filter(|l| l.file != u32::MAX).collect();
    let Some(first) = known.first() else {
        return String::new();
    };
    let file = file_name(&profile.blocks.files[first.file as usize]);
    let same: Vec<u32> = known
        .iter()
        .filter(|l| l.file == first.file)
        .map(|l| l.line)
        .collect();
    let lo = same.iter().min().copied().unwrap_or(first.line);
    let hi = same.iter().max().copied().unwrap_or(first.line);
    if lo == hi {
        format!("{file}:{lo}")
    } else {
        format!("{file}:{lo}-{hi}")
    }
}

#[derive(Serialize)]
struct BlockJson<'a> {
    start: String,
    function: String,
    source: String,
    instructions: usize,
    executions: u64,
    cost: CostMap<'a>,
}

#[derive(Serialize)]
struct RowsJson<'a, T> {
    metrics: &'a [String],
    totals: CostMap<'a>,
    rows: Vec<T>,
}

/// The JSON document of both views.
fn rows_json<T: Serialize>(profile: &Profile, sel: &Selection, rows: Vec<T>) -> String {
    to_json(&RowsJson {
        metrics: &sel.names,
        totals: sel.map(&profile.totals),
        rows,
    })
}

/// The text views' opening: the totals line, `What: shown of all`, and a
/// table with a column per metric.
fn text_start(
    profile: &Profile,
    sel: &Selection,
    what: &str,
    shown: usize,
    all: usize,
) -> (String, Table) {
    let mut s = totals_line(sel, &profile.totals, &profile.meta.cpu_model);
    let _ = writeln!(s, "{what}: {shown} of {all}\n");
    let mut t = Table::new();
    for name in &sel.names {
        t.column(name.as_str(), Align::Right);
    }
    (s, t)
}

/// `--by block`: one row per block start (blocks of one start and
/// different lengths merged), by the sort metric descending, then address.
///
/// JSON: `{"metrics", "totals", "rows": [{"start" (hex), "function",
/// "source", "instructions" (of the longest), "executions", "cost":
/// {metric: n}}]}`.
pub fn report_blocks(profile: &Profile, opts: &BlockReportOptions) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    check(profile)?;
    let m = profile.metrics.len();
    // Merge rows by start.
    let mut by_start: BTreeMap<u64, (usize, u64, Vec<u64>)> = BTreeMap::new();
    for (i, b) in profile.blocks.blocks.iter().enumerate() {
        let e = by_start.entry(b.start).or_insert((i, 0, vec![0; m]));
        if b.insns.len() > profile.blocks.blocks[e.0].insns.len() {
            e.0 = i;
        }
        e.1 += b.executions;
        for (a, c) in e.2.iter_mut().zip(&b.cost) {
            *a += c;
        }
    }
    let mut rows: Vec<(u64, usize, u64, Vec<u64>)> = by_start
        .into_iter()
        .map(|(start, (i, x, c))| (start, i, x, c))
        .collect();
    let col = sel.sort;
    rows.sort_by(|a, b| b.3[col].cmp(&a.3[col]).then(a.0.cmp(&b.0)));
    let all = rows.len();
    if let Some(t) = opts.top {
        rows.truncate(t);
    }
    if opts.format == ReportFormat::Json {
        let out: Vec<BlockJson> = rows
            .iter()
            .map(|(start, i, x, c)| {
                let b = &profile.blocks.blocks[*i];
                BlockJson {
                    start: format!("{start:#x}"),
                    function: function_name(profile, b),
                    source: block_source(profile, b),
                    instructions: b.insns.len(),
                    executions: *x,
                    cost: sel.map(c),
                }
            })
            .collect();
        return Ok(rows_json(profile, &sel, out));
    }
    let (mut s, mut t) = text_start(profile, &sel, "Blocks", rows.len(), all);
    t.column("%", Align::Right)
        .column("executions", Align::Right)
        .column("block", Align::Left)
        .column("function", Align::Left)
        .column("source", Align::Left);
    for (start, i, x, c) in &rows {
        let b = &profile.blocks.blocks[*i];
        let mut cells: Vec<String> = sel.pick(c).into_iter().map(count).collect();
        cells.push(pct(percent_of(c[col], profile.totals[col])));
        cells.push(count(*x));
        cells.push(format!("{start:#x}"));
        cells.push(function_name(profile, b));
        cells.push(block_source(profile, b));
        t.row(cells);
    }
    t.render_text(&mut s);
    Ok(s)
}

#[derive(Serialize)]
struct LineJson<'a> {
    file: String,
    line: Option<u32>,
    cost: CostMap<'a>,
}

/// `--by line`: one row per source line (see the module documentation for
/// what is exact), by the sort metric descending, then file and line.
///
/// JSON: `{"metrics", "totals", "rows": [{"file", "line" (null for the
/// `(several lines)` and `(no line)` rows), "cost": {metric: n}}]}`.
pub fn report_lines(profile: &Profile, opts: &BlockReportOptions) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    check(profile)?;
    let m = profile.metrics.len();
    let insn_col = profile.metric_index("instructions");
    // (file, Some(line)) exact rows; (file, None) blocks over several lines.
    let mut rows: BTreeMap<(String, Option<u32>), Vec<u64>> = BTreeMap::new();
    for b in &profile.blocks.blocks {
        let file_of = |f: u32| {
            if f == u32::MAX {
                "(no line)".to_string()
            } else {
                profile.blocks.files[f as usize].clone()
            }
        };
        // Instructions, exactly, per line.
        if let Some(ic) = insn_col {
            for l in &b.lines {
                let key = (file_of(l.file), (l.file != u32::MAX).then_some(l.line));
                rows.entry(key).or_insert_with(|| vec![0; m])[ic] += b.executions;
            }
        }
        // Every other metric: to the block's one line, or to "several".
        let known: Vec<_> = b.lines.iter().filter(|l| l.file != u32::MAX).collect();
        let one = known.first().filter(|f| known.iter().all(|l| l == *f));
        let key = match (one, known.first()) {
            (Some(l), _) => (file_of(l.file), Some(l.line)),
            (None, Some(l)) => (file_of(l.file), None),
            (None, None) => ("(no line)".to_string(), None),
        };
        let e = rows.entry(key).or_insert_with(|| vec![0; m]);
        for (k, v) in b.cost.iter().enumerate() {
            if Some(k) != insn_col {
                e[k] += v;
            }
        }
    }
    let col = sel.sort;
    let mut rows: Vec<((String, Option<u32>), Vec<u64>)> = rows.into_iter().collect();
    rows.sort_by(|a, b| b.1[col].cmp(&a.1[col]).then(a.0.cmp(&b.0)));
    let all = rows.len();
    if let Some(t) = opts.top {
        rows.truncate(t);
    }
    if opts.format == ReportFormat::Json {
        let out: Vec<LineJson> = rows
            .iter()
            .map(|((file, line), c)| LineJson {
                file: file.clone(),
                line: *line,
                cost: sel.map(c),
            })
            .collect();
        return Ok(rows_json(profile, &sel, out));
    }
    let (mut s, mut t) = text_start(profile, &sel, "Lines", rows.len(), all);
    t.column("%", Align::Right).column("line", Align::Left);
    for ((file, line), c) in &rows {
        let mut cells: Vec<String> = sel.pick(c).into_iter().map(count).collect();
        cells.push(pct(percent_of(c[col], profile.totals[col])));
        cells.push(match line {
            Some(l) => format!("{}:{l}", file_name(file)),
            None => format!("{} (several lines)", file_name(file)),
        });
        t.row(cells);
    }
    t.render_text(&mut s);
    Ok(s)
}
