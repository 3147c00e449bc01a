//! `pathvm report --by block` and `--by line`: costs per executed block of
//! code and per source line.
//!
//! A block's costs are exact in every metric (everything its instructions
//! caused, a branch's outcome included), and so are an instruction's
//! ([`crate::InsnProfile`]); a line's are the sum of its instructions'.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::ReportFormat;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{file_name, BlockRow, ContextTable, Profile};
use crate::table::{count, pct, percent_of, Align, Table};

/// Options of [`report_blocks`], [`report_lines`] and [`report_instructions`].
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

/// Every instruction's source line (`None` when unknown), from the blocks.
fn insn_lines(profile: &Profile) -> HashMap<u64, Option<(u32, u32)>> {
    let mut out = HashMap::new();
    for b in &profile.blocks.blocks {
        for (o, l) in b.insns.iter().zip(&b.lines) {
            out.insert(
                b.start + *o as u64,
                (l.file != u32::MAX).then_some((l.file, l.line)),
            );
        }
    }
    out
}

/// Every instruction's function row (from the block that starts closest
/// before it).
fn insn_functions(profile: &Profile) -> HashMap<u64, u32> {
    let mut out = HashMap::new();
    for b in &profile.blocks.blocks {
        for o in &b.insns {
            out.entry(b.start + *o as u64).or_insert(b.function);
        }
    }
    out
}

/// The name of the file `f` of the blocks' table, whole.
fn file_of(profile: &Profile, f: u32) -> String {
    profile
        .blocks
        .files
        .get(f as usize)
        .cloned()
        .unwrap_or_else(|| "(no line)".to_string())
}

/// `--by line`: one row per source line, by the sort metric descending,
/// then file and line. Every metric is summed over the line's
/// instructions (profiles older than format version 4 have no costs per
/// instruction: their lines get instructions exactly and the other metrics
/// of a block only when the block lies on one line, the rest in a row
/// `(several lines)`). What no instruction is known for is the row
/// `(unknown instruction)`; instructions without a line, `(no line)`.
///
/// JSON: `{"metrics", "totals", "rows": [{"file", "line" (null for the
/// rows that are no line), "cost": {metric: n}}]}`.
pub fn report_lines(profile: &Profile, opts: &BlockReportOptions) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    check(profile)?;
    let m = profile.metrics.len();
    let mut rows: BTreeMap<(String, Option<u32>), Vec<u64>> = BTreeMap::new();
    for ((file, line), c) in InsnIndex::new(profile).line_sums(profile, None) {
        let key = match file {
            Some(f) => (file_of(profile, f), line),
            None => ("(no line)".to_string(), None),
        };
        add(rows.entry(key).or_insert_with(|| vec![0; m]), &c);
    }
    if profile.insns.unknown.iter().any(|&v| v != 0) {
        add(
            rows.entry(("(unknown instruction)".to_string(), None))
                .or_insert_with(|| vec![0; m]),
            &profile.insns.unknown,
        );
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
    let several = profile.insns.is_empty();
    let (mut s, mut t) = text_start(profile, &sel, "Lines", rows.len(), all);
    t.column("%", Align::Right).column("line", Align::Left);
    for ((file, line), c) in &rows {
        let mut cells: Vec<String> = sel.pick(c).into_iter().map(count).collect();
        cells.push(pct(percent_of(c[col], profile.totals[col])));
        cells.push(match line {
            Some(l) => format!("{file}:{l}"),
            None if several && !file.starts_with('(') => format!("{file} (several lines)"),
            None => file.clone(),
        });
        t.row(cells);
    }
    t.render_text(&mut s);
    Ok(s)
}

fn add(into: &mut [u64], from: &[u64]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = a.saturating_add(*b);
    }
}

/// A source line as the blocks' table names it: the file (an index into
/// [`crate::BlockProfile::files`]) and the line. `(None, None)`: no line
/// known; `(Some(file), None)`, only in profiles without costs per
/// instruction: code of several lines of that file.
pub(crate) type LineKey = (Option<u32>, Option<u32>);

/// The costs per instruction of a profile with what the views need to
/// place them: each instruction's line and function row.
pub(crate) struct InsnIndex {
    lines: HashMap<u64, Option<(u32, u32)>>,
    functions: HashMap<u64, u32>,
    /// `(address, cost per metric)`, in address order.
    rows: Vec<(u64, Vec<u64>)>,
}

impl InsnIndex {
    pub(crate) fn new(profile: &Profile) -> InsnIndex {
        InsnIndex {
            lines: insn_lines(profile),
            functions: insn_functions(profile),
            rows: profile.insns.dense(profile.metrics.len()).collect(),
        }
    }

    /// The instructions of function row `function` that have a cost, in
    /// address order (none for profiles without costs per instruction).
    pub(crate) fn of_function(&self, function: u32) -> impl Iterator<Item = &(u64, Vec<u64>)> {
        self.rows
            .iter()
            .filter(move |(a, _)| self.functions.get(a) == Some(&function))
    }

    /// The function row of the instruction at `addr` (its block's).
    pub(crate) fn function_of(&self, addr: u64) -> Option<u32> {
        self.functions.get(&addr).copied()
    }

    /// The instructions with a cost, as (address, cost per metric), in
    /// address order.
    pub(crate) fn rows(&self) -> &[(u64, Vec<u64>)] {
        &self.rows
    }

    /// The source line of the instruction at `addr` (an index into the
    /// blocks' files, and the line), when known.
    pub(crate) fn line(&self, addr: u64) -> Option<(u32, u32)> {
        self.lines.get(&addr).copied().flatten()
    }

    /// The instructions that have a cost grouped by function row (the
    /// block's; [`ContextTable::NO_FUNCTION`](crate::ContextTable::NO_FUNCTION)
    /// for code of none, a PLT stub's), each group in address order.
    pub(crate) fn by_function(&self) -> HashMap<u32, Vec<&(u64, Vec<u64>)>> {
        let mut out: HashMap<u32, Vec<&(u64, Vec<u64>)>> = HashMap::new();
        for row in &self.rows {
            let f = self.functions.get(&row.0).copied().unwrap_or(u32::MAX);
            out.entry(f).or_default().push(row);
        }
        out
    }

    /// Costs per source line of the whole run, or of the instructions of
    /// one function row: every metric summed over the line's instructions
    /// ([`crate::InsnProfile`]). In a profile without costs per
    /// instruction (format versions before 4), instructions exactly and
    /// the other metrics of a block on its one line, or on its first
    /// file's `(file, None)` when it spans several. What no instruction is
    /// known for ([`crate::InsnProfile::unknown`]) is left out.
    /// `report --by line` and the HTML page's source view share this rule.
    pub(crate) fn line_sums(
        &self,
        profile: &Profile,
        function: Option<u32>,
    ) -> BTreeMap<LineKey, Vec<u64>> {
        let m = profile.metrics.len();
        let mut rows: BTreeMap<LineKey, Vec<u64>> = BTreeMap::new();
        if profile.insns.is_empty() {
            for b in &profile.blocks.blocks {
                if function.is_none() || function == Some(b.function) {
                    block_line_sums(profile, b, &mut rows);
                }
            }
            return rows;
        }
        for (addr, c) in &self.rows {
            if function.is_some_and(|f| self.functions.get(addr) != Some(&f)) {
                continue;
            }
            let key = match self.lines.get(addr).copied().flatten() {
                Some((f, l)) => (Some(f), Some(l)),
                None => (None, None),
            };
            add(rows.entry(key).or_insert_with(|| vec![0; m]), c);
        }
        rows
    }
}

/// One block's share of [`line_sums`] in a profile without costs per
/// instruction.
fn block_line_sums(profile: &Profile, b: &BlockRow, rows: &mut BTreeMap<LineKey, Vec<u64>>) {
    let m = profile.metrics.len();
    let insn_col = profile.metric_index("instructions");
    let known = |f: u32| (f != u32::MAX).then_some(f);
    if let Some(ic) = insn_col {
        for l in &b.lines {
            let key = (known(l.file), known(l.file).map(|_| l.line));
            let e = rows.entry(key).or_insert_with(|| vec![0; m]);
            e[ic] = e[ic].saturating_add(b.executions);
        }
    }
    let lines: Vec<_> = b.lines.iter().filter(|l| l.file != u32::MAX).collect();
    let one = lines.first().filter(|f| lines.iter().all(|l| l == *f));
    let key = match (one, lines.first()) {
        (Some(l), _) => (Some(l.file), Some(l.line)),
        (None, Some(l)) => (Some(l.file), None),
        (None, None) => (None, None),
    };
    let e = rows.entry(key).or_insert_with(|| vec![0; m]);
    for (k, v) in b.cost.iter().enumerate() {
        if Some(k) != insn_col {
            e[k] = e[k].saturating_add(*v);
        }
    }
}

#[derive(Serialize)]
struct InsnJson<'a> {
    address: String,
    function: String,
    file: Option<String>,
    line: Option<u32>,
    cost: CostMap<'a>,
}

/// `--by instruction`: one row per instruction with a cost, by the sort
/// metric descending, then address: its address, function, source line
/// and costs (see [`crate::InsnProfile`] for what each instruction is
/// charged).
///
/// JSON: `{"metrics", "totals", "rows": [{"address" (hex), "function",
/// "file", "line", "cost": {metric: n}}]}`.
pub fn report_instructions(
    profile: &Profile,
    opts: &BlockReportOptions,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    check(profile)?;
    if profile.insns.is_empty() {
        return Err(ReportError::InvalidOption(
            "the profile has no costs per instruction (made by an older pathvm)".into(),
        ));
    }
    let InsnIndex {
        lines,
        functions: funcs,
        mut rows,
    } = InsnIndex::new(profile);
    let col = sel.sort;
    rows.sort_by(|a, b| b.1[col].cmp(&a.1[col]).then(a.0.cmp(&b.0)));
    let all = rows.len();
    if let Some(t) = opts.top {
        rows.truncate(t);
    }
    let function = |addr: u64| -> String {
        funcs
            .get(&addr)
            .and_then(|&f| profile.functions.get(f as usize))
            .map(|f| f.name.clone())
            .unwrap_or_default()
    };
    let line = |addr: u64| lines.get(&addr).copied().flatten();
    if opts.format == ReportFormat::Json {
        let out: Vec<InsnJson> = rows
            .iter()
            .map(|(addr, c)| InsnJson {
                address: format!("{addr:#x}"),
                function: function(*addr),
                file: line(*addr).map(|(f, _)| file_of(profile, f)),
                line: line(*addr).map(|(_, l)| l),
                cost: sel.map(c),
            })
            .collect();
        return Ok(rows_json(profile, &sel, out));
    }
    let (mut s, mut t) = text_start(profile, &sel, "Instructions", rows.len(), all);
    t.column("%", Align::Right)
        .column("address", Align::Left)
        .column("function", Align::Left)
        .column("line", Align::Left);
    for (addr, c) in &rows {
        let mut cells: Vec<String> = sel.pick(c).into_iter().map(count).collect();
        cells.push(pct(percent_of(c[col], profile.totals[col])));
        cells.push(format!("{addr:#x}"));
        cells.push(function(*addr));
        cells.push(match line(*addr) {
            Some((f, l)) => format!("{}:{l}", file_of(profile, f)),
            None => String::new(),
        });
        t.row(cells);
    }
    t.render_text(&mut s);
    Ok(s)
}
