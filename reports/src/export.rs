//! `pathvm export`: the profile in other tools' formats.
//!
//! - [`export_callgrind`]: the callgrind profile format, read by
//!   `callgrind_annotate` and KCachegrind;
//! - [`export_folded`]: folded stacks (`<root>;main;a;c 1234`), read by
//!   inferno, `flamegraph.pl`, speedscope;
//! - [`export_flamegraph`]: an SVG flame graph drawn by inferno from those
//!   folded stacks.
//!
//! Every export writes bytes that depend on the profile alone: rows come in
//! profile order or sorted, never in hash order.
//!
//! # Callgrind
//!
//! Functions are `ob=`/`fl=`/`fn=` blocks with name compression, in the
//! order of [`Profile::functions`]. With costs per instruction (profile
//! format 4) positions are instructions and lines (`positions: instr
//! line`): a function's self cost ([`FunctionRow::self_cost`], the numbers
//! of `report --by function`) is one cost line per instruction, at its
//! address and source line, `fi=`/`fe=` naming the file when it is not the
//! function's (an inlined or included line). What the function view
//! charges beyond its instructions (the PLT stubs it called through, whose
//! instructions belong to no function) is one cost line at its entry
//! instruction with no line (line 0): the profile does not say which call
//! went through which stub, so it cannot be put on the call's line as
//! callgrind's default `--skip-plt=yes` does; every numbered line then has
//! the costs of callgrind `--skip-plt=no` (tested). Where its instructions
//! add up to more than the function view (`--toggle-collect`, the region
//! markers), the function keeps one cost line at its entry's line.
//! Addresses are the guest's (run-time) addresses. Older profiles have `positions: line`
//! and one cost line per function, at its entry's line. Each function has
//! a `cfn=`/`calls=` association per callee and call site, at the call
//! instruction and its line, aggregated from the calling context tree over
//! every context: the calls of all nodes of the callee under nodes of the
//! caller from that site, and their inclusive cost; `cob=`/`cfi=` only
//! when the callee's object or file is not the caller's.
//!
//! Events are the profile's metrics under valgrind's names where valgrind
//! has the event ([`callgrind_event_names`]: `Ir`, `Dr`, `Dw`, `I1mr`,
//! `D1mr`, `D1mw`, `Bc`, `Bcm`, `Bi`, `Bim`), and the others in CamelCase
//! (`ll-miss` → `LlMiss`, the sum of valgrind's `ILmr`, `DLmr` and `DLmw`;
//! `alloc-bytes` → `AllocBytes`). `Ir` differs from valgrind's for `rep`
//! string instructions (valgrind counts each iteration), `Dr`/`Dw` for
//! accesses the emulator splits (a 16-byte SSE access is two). An `event:`
//! line gives each the profile's name as long name.
//!
//! Callers that are not functions are written as pseudo-functions with no
//! self cost: `<root>` (the root of the tree, which calls the first
//! function of the run), `<thread>` (thread roots) and `<unknown>` (nodes
//! with no function row). Thanks to `<root>`, every function that ran in a
//! context is called by someone, which the next point relies on.
//!
//! ## Inclusive cost and recursion
//!
//! `callgrind_annotate --inclusive=yes` takes a called function's inclusive
//! cost to be the sum of the inclusive costs on all call edges into it.
//! Callgrind itself writes the true inclusive cost of every call, so a
//! recursive function counts the cost of the inner activations once per
//! level (a known overcount of callgrind_annotate; KCachegrind instead
//! detects cycles). This export writes on each edge only the cost of the
//! calls that *enter* the callee, the contexts with no ancestor of the same
//! function: a recursive call (direct, or through other functions) keeps its
//! call count but carries no inclusive cost, since that cost is already in
//! the outer call's. So `callgrind_annotate --inclusive=yes` prints for
//! every function the inclusive cost of the function view (counted once
//! under recursion); in exchange the edges out of a recursive function add
//! up to less than its inclusive cost minus its self cost, by the recursive
//! part.
//!
//! The function view charges a function's own cost by symbol, the tree by
//! the frame on top of the stack; where they disagree (code reached by a
//! jump rather than a call), `pathvm run` raises a function's inclusive cost
//! to at least its self cost. The part of a function's inclusive cost that
//! its entering contexts do not account for is put on its heaviest incoming
//! edge, so that the edges into it still add up to the function view's
//! number (a function view below its contexts, which raising by the
//! instruction count can leave in another metric, is not corrected). What
//! remains different: a function the tree never saw called
//! (code charged to the root context) is called by no edge, and
//! callgrind_annotate shows its self cost as inclusive, as the function view
//! does; `<root>` shows the sum of its edges, the total less the cost
//! charged to the root context itself.
//!
//! A call edge that the tree counts zero times (a thread's first function,
//! entered without a call instruction) but that has a cost is written with
//! `calls=1`: callgrind_annotate would read the cost line of a zero count
//! as self cost of the caller.
//!
//! Functions whose source file and name are equal (the `_init` of every
//! shared object has no file) would be merged by callgrind_annotate, which
//! keys functions by `file:name`; their names get the object's file name
//! (`_init [libc.so.6]`) and, when that is still not enough, `#2`, `#3`, ...
//! in profile order.
//!
//! A profile without a calling context tree exports self costs only.
//!
//! # Folded stacks
//!
//! One line per distinct stack of a context with a nonzero self cost of the
//! metric, outermost frame first, starting with the root (`<root>`; thread
//! roots are `<thread>`, nodes with no function `<unknown>`), contexts with
//! equal stacks (different call sites) summed, lines sorted by stack. In
//! names, `;` and white space are replaced by `_`, since `;` separates
//! frames and tools split the count off at white space. A profile without a
//! calling context tree exports one single-frame line per function.

use std::collections::BTreeMap;
use std::io::{self, Write};

use rustc_hash::FxHashMap;

use crate::blocks::InsnIndex;
use crate::error::ReportError;
use crate::profile::{file_name, ContextTable, FunctionRow, Profile};

/// Why an export could not be written. One line each, fit to print after
/// `pathvm: `.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The profile or the options are not usable (an unknown metric, an
    /// inconsistent profile, no metric at all).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// Writing the output failed.
    #[error("cannot write the export: {0}")]
    Io(#[from] io::Error),
    /// An option given does not apply to the format.
    #[error("{0}")]
    NotApplicable(String),
    /// The flame graph would be empty: no context has a cost of the metric.
    #[error("nothing to draw: no cost of metric `{metric}` in the profile")]
    NothingToDraw {
        /// The metric asked for.
        metric: String,
    },
}

/// Name of the root of the calling context tree in exports.
pub(crate) const ROOT_NAME: &str = "<root>";
/// Name of a thread root in exports.
pub(crate) const THREAD_NAME: &str = "<thread>";
/// Name of a context with no function row in exports.
pub(crate) const UNKNOWN_NAME: &str = "<unknown>";

/// The callgrind event name of each metric, in metric order: valgrind's
/// name when the metric counts what valgrind's event counts
/// ([`crate::VALGRIND_EVENTS`]: `instructions` → `Ir`, `l1d-read-miss` →
/// `D1mr`, ...); any other name in CamelCase with everything but
/// ASCII letters and digits dropped (`l1d-miss` → `L1dMiss`,
/// `branch-misses` → `BranchMisses`), prefixed with `E` when it would not
/// start with a letter, and suffixed with a number when it would repeat an
/// earlier one.
pub fn callgrind_event_names(metrics: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(metrics.len());
    for metric in metrics {
        let valgrind = crate::profile::VALGRIND_EVENTS
            .iter()
            .find(|(_, m)| m == metric);
        let mut name = match valgrind {
            Some((event, _)) => event.to_string(),
            None => camel_case(metric),
        };
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            name.insert(0, 'E');
        }
        if names.contains(&name) {
            let mut k = 2;
            while names.contains(&format!("{name}{k}")) {
                k += 1;
            }
            name = format!("{name}{k}");
        }
        names.push(name);
    }
    names
}

/// `l1d-read-miss` → `L1dReadMiss`.
fn camel_case(metric: &str) -> String {
    let mut out = String::with_capacity(metric.len());
    for word in metric.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

/// Writes `profile` in the callgrind profile format (version 1,
/// `positions: line`): header, one block per function with its self cost
/// and its calls, `totals:`. See the [module documentation](self) for what
/// the numbers mean, under recursion in particular.
///
/// Fails with [`ReportError::InvalidProfile`] on an inconsistent profile,
/// [`ReportError::NoMetrics`] on a profile without metrics, and
/// [`ExportError::Io`] when writing fails.
pub fn export_callgrind(profile: &Profile, out: &mut dyn Write) -> Result<(), ExportError> {
    callgrind(profile, false, out)
}

/// [`export_callgrind`] with each function's Ball-Larus paths as functions
/// of their own, `name [path N]`, called by the function once per
/// traversal and carrying their cost as self cost, so that KCachegrind and
/// `callgrind_annotate` list paths beside functions. The function keeps the
/// rest of its self cost (none when its paths cover it, as they do unless
/// part of it ran in a split-off `.cold` part or in another function's
/// frame: then its paths are left out, so that every total stays exact).
/// Paths merge their calling contexts; a truncated path is `name [path N
/// truncated]`.
pub fn export_callgrind_paths(profile: &Profile, out: &mut dyn Write) -> Result<(), ExportError> {
    callgrind(profile, true, out)
}

/// The paths of function row `f` as (name, first line, count, cost), merged
/// over contexts, in path order; `None` unless they add up to its self cost.
fn callgrind_paths(
    profile: &Profile,
    f: usize,
    name: &str,
) -> Option<Vec<(String, u32, u64, Vec<u64>)>> {
    let m = profile.metrics.len();
    let row = profile.functions.get(f)?;
    let mut out = Vec::new();
    let mut sum = vec![0u64; m];
    for pf in profile
        .paths
        .functions
        .iter()
        .filter(|p| p.function as usize == f)
    {
        let mut merged: BTreeMap<u32, (u64, Vec<u64>)> = BTreeMap::new();
        for r in &pf.rows {
            let e = merged.entry(r.path).or_insert_with(|| (0, vec![0; m]));
            e.0 += r.count;
            for (a, b) in e.1.iter_mut().zip(&r.cost) {
                *a += b;
            }
        }
        for (p, (count, cost)) in merged {
            let info = &pf.paths[p as usize];
            let line = info
                .blocks
                .first()
                .and_then(|&b| pf.blocks[b as usize].lines.first())
                .map_or(row.line.unwrap_or(0), |l| l.line);
            let what = if info.truncated { " truncated" } else { "" };
            for (a, b) in sum.iter_mut().zip(&cost) {
                *a += b;
            }
            out.push((
                format!("{name} [path {}{what}]", info.id),
                line,
                count,
                cost,
            ));
        }
    }
    (!out.is_empty() && sum == row.self_cost).then_some(out)
}

fn callgrind(profile: &Profile, with_paths: bool, out: &mut dyn Write) -> Result<(), ExportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    if profile.metrics.is_empty() {
        return Err(ReportError::NoMetrics.into());
    }
    let m = profile.metrics.len();
    let calls = CallEdges::build(profile);
    let names = callgrind_function_names(profile);
    let mut w = io::BufWriter::new(out);

    writeln!(w, "# callgrind format")?;
    writeln!(w, "version: 1")?;
    let version = &profile.meta.pathvm_version;
    if version.is_empty() {
        writeln!(w, "creator: pathvm")?;
    } else {
        writeln!(w, "creator: pathvm {}", one_line(version))?;
    }
    if !profile.meta.command.is_empty() {
        writeln!(w, "cmd: {}", one_line(&profile.meta.command.join(" ")))?;
    }
    if !profile.meta.cpu_model.is_empty() {
        writeln!(w, "desc: Cpu: {}", one_line(&profile.meta.cpu_model))?;
    }
    for (key, value) in &profile.meta.config {
        writeln!(w, "desc: Config: {}={}", one_line(key), one_line(value))?;
    }
    if !profile.meta.stop.is_empty() {
        writeln!(w, "desc: Stop: {}", one_line(&profile.meta.stop))?;
    }
    let detail = InsnDetail::build(profile);
    writeln!(w, "positions: {}", detail.positions())?;
    let events = callgrind_event_names(&profile.metrics);
    for (event, metric) in events.iter().zip(&profile.metrics) {
        writeln!(w, "event: {event} : {}", one_line(metric))?;
    }
    writeln!(w, "events: {}", events.join(" "))?;
    writeln!(w, "summary: {}", costs(&profile.totals))?;

    let mut ob = Compression::default();
    let mut fl = Compression::default();
    let mut fname = Compression::default();
    let n_functions = profile.functions.len();
    let zero = vec![0u64; m];
    let mut edges = calls.edges.iter().peekable();
    let mut path_blocks: Vec<(usize, Vec<(String, u32, u64, Vec<u64>)>)> = Vec::new();
    for caller in 0..n_functions + PSEUDO.len() {
        let has_edges = edges
            .peek()
            .is_some_and(|((from, _, _), _)| *from == caller);
        if caller >= n_functions && !has_edges && !calls.appears[caller] {
            continue;
        }
        let caller_line = names.line(profile, caller);
        let caller_pos = detail.position(detail.entry(caller), caller_line);
        let caller_ob = names.object(profile, caller);
        let caller_fl = names.file(profile, caller);
        writeln!(w)?;
        writeln!(w, "ob={}", ob.spec(caller_ob))?;
        writeln!(w, "fl={}", fl.spec(&caller_fl))?;
        writeln!(w, "fn={}", fname.spec(names.function(caller)))?;
        // The file the cost lines are in now (`fi=` changes it).
        let mut current_file = caller_fl.clone();
        let own = profile
            .functions
            .get(caller)
            .map_or(&zero[..], |f: &FunctionRow| &f.self_cost[..]);
        let paths = if with_paths && caller < n_functions {
            callgrind_paths(profile, caller, names.function(caller))
        } else {
            None
        };
        if let Some(paths) = &paths {
            for (name, line, count, cost) in paths {
                writeln!(w, "cfn={}", fname.spec(name))?;
                writeln!(w, "calls={count} {}", detail.position(0, *line))?;
                writeln!(w, "{caller_pos} {}", costs(cost))?;
            }
            path_blocks.push((caller, paths.clone()));
        } else {
            // Per instruction where the instructions add up to the
            // function's self cost (or less: the rest at its entry).
            let rows = detail.rows_of(caller, own);
            for (addr, file, line, cost) in &rows {
                let file = detail.file(*file).unwrap_or(&caller_fl);
                if *file != current_file {
                    writeln!(w, "fi={}", fl.spec(file))?;
                    current_file = file.clone();
                }
                writeln!(w, "{} {}", detail.position(*addr, *line), costs(cost))?;
            }
            let mut rest = own.to_vec();
            for (_, _, _, cost) in &rows {
                for (r, c) in rest.iter_mut().zip(cost) {
                    *r -= c;
                }
            }
            if rest.iter().any(|&c| c != 0) {
                if current_file != caller_fl {
                    writeln!(w, "fe={}", fl.spec(&caller_fl))?;
                    current_file = caller_fl.clone();
                }
                // No source line: the PLT stubs it called through are
                // nobody's lines (callgrind --skip-plt=no agrees).
                let at = if rows.is_empty() { caller_line } else { 0 };
                writeln!(
                    w,
                    "{} {}",
                    detail.position(detail.entry(caller), at),
                    costs(&rest)
                )?;
            }
        }
        while let Some(((_, callee, site), edge)) =
            edges.next_if(|((from, _, _), _)| *from == caller)
        {
            let callee = *callee;
            let cost = &edge.cost[..];
            let count = match edge.calls {
                0 if cost.iter().all(|&c| c == 0) => continue,
                0 => 1,
                n => n,
            };
            // The call at its instruction and line (in its file).
            let (site_file, site_pos) = match detail.line_of(*site) {
                Some((f, line)) if *site != 0 => (
                    detail.file(f).cloned().unwrap_or_else(|| caller_fl.clone()),
                    detail.position(*site, line),
                ),
                _ => (caller_fl.clone(), detail.position(*site, caller_line)),
            };
            if site_file != current_file {
                writeln!(w, "fi={}", fl.spec(&site_file))?;
                current_file = site_file;
            }
            let callee_ob = names.object(profile, callee);
            if callee_ob != caller_ob {
                writeln!(w, "cob={}", ob.spec(callee_ob))?;
            }
            let callee_fl = names.file(profile, callee);
            if callee_fl != current_file || callee_ob != caller_ob {
                writeln!(w, "cfi={}", fl.spec(&callee_fl))?;
            }
            writeln!(w, "cfn={}", fname.spec(names.function(callee)))?;
            let target = detail.position(detail.entry(callee), names.line(profile, callee));
            writeln!(w, "calls={count} {target}")?;
            writeln!(w, "{site_pos} {}", costs(cost))?;
        }
    }
    for (f, paths) in &path_blocks {
        for (name, line, _, cost) in paths {
            writeln!(w)?;
            writeln!(w, "ob={}", ob.spec(names.object(profile, *f)))?;
            writeln!(w, "fl={}", fl.spec(&names.file(profile, *f)))?;
            writeln!(w, "fn={}", fname.spec(name))?;
            writeln!(w, "{} {}", detail.position(0, *line), costs(cost))?;
        }
    }
    writeln!(w)?;
    writeln!(w, "totals: {}", costs(&profile.totals))?;
    w.flush()?;
    Ok(())
}

/// An instruction's address, source line (file index into the blocks'
/// files, line) and cost per metric.
type InsnCost = (u64, Option<(u32, u32)>, Vec<u64>);

/// What the callgrind export knows per instruction (the profile's costs
/// per instruction placed by [`InsnIndex`], the rule of `report --by line`),
/// for `positions: instr line`; empty (`positions: line`) for a profile
/// without costs per instruction.
struct InsnDetail {
    /// Per function row: its instructions with a cost, as (address, line,
    /// cost) in address order (the line: file index into the blocks'
    /// files, line).
    rows: FxHashMap<u32, Vec<InsnCost>>,
    index: Option<InsnIndex>,
    /// Per function row: its entry (the lowest executed address, or the
    /// address its paths were discovered from).
    entries: FxHashMap<u32, u64>,
    files: Vec<String>,
    on: bool,
}

impl InsnDetail {
    fn build(profile: &Profile) -> InsnDetail {
        let mut d = InsnDetail {
            rows: FxHashMap::default(),
            index: None,
            entries: FxHashMap::default(),
            files: profile.blocks.files.iter().map(|f| one_line(f)).collect(),
            on: !profile.insns.is_empty(),
        };
        if !d.on {
            return d;
        }
        for b in &profile.blocks.blocks {
            if b.function != ContextTable::NO_FUNCTION {
                let e = d.entries.entry(b.function).or_insert(b.start);
                *e = (*e).min(b.start);
            }
        }
        for f in &profile.paths.functions {
            if f.function != ContextTable::NO_FUNCTION {
                d.entries.insert(f.function, f.entry);
            }
        }
        let index = InsnIndex::new(profile);
        for (f, rows) in index.by_function() {
            let rows = rows
                .into_iter()
                .map(|(addr, cost)| (*addr, index.line(*addr), cost.clone()))
                .collect();
            d.rows.insert(f, rows);
        }
        d.index = Some(index);
        d
    }

    fn positions(&self) -> &'static str {
        if self.on {
            "instr line"
        } else {
            "line"
        }
    }

    /// A position: `0xADDR LINE`, or `LINE` without instructions.
    fn position(&self, addr: u64, line: u32) -> String {
        if self.on {
            format!("{addr:#x} {line}")
        } else {
            line.to_string()
        }
    }

    /// The lowest executed address of function slot `slot` (0 if none).
    fn entry(&self, slot: usize) -> u64 {
        u32::try_from(slot)
            .ok()
            .and_then(|f| self.entries.get(&f))
            .copied()
            .unwrap_or(0)
    }

    fn line_of(&self, addr: u64) -> Option<(u32, u32)> {
        self.index.as_ref()?.line(addr)
    }

    fn file(&self, f: u32) -> Option<&String> {
        self.files.get(f as usize)
    }

    /// The instructions of function slot `slot` as (address, file, line,
    /// cost), when they add up to no more than its self cost `own` in every
    /// metric (the function view charges a PLT stub's cost to its caller and
    /// leaves out what `--toggle-collect` and the markers exclude, which
    /// instructions, whole-run, do not): else none, and the function's cost
    /// stays at its entry.
    fn rows_of(&self, slot: usize, own: &[u64]) -> Vec<(u64, u32, u32, Vec<u64>)> {
        let Some(rows) = u32::try_from(slot).ok().and_then(|f| self.rows.get(&f)) else {
            return Vec::new();
        };
        let mut sum = vec![0u64; own.len()];
        let mut out = Vec::with_capacity(rows.len());
        for (addr, line, cost) in rows {
            for (s, c) in sum.iter_mut().zip(cost) {
                *s += c;
            }
            let (file, line) = line.unwrap_or((u32::MAX, 0));
            out.push((*addr, file, line, cost.clone()));
        }
        if sum.iter().zip(own).any(|(s, o)| s > o) {
            return Vec::new();
        }
        out
    }
}

/// Pseudo-functions after the profile's functions, in this order.
const PSEUDO: [&str; 3] = [ROOT_NAME, THREAD_NAME, UNKNOWN_NAME];

/// Costs separated by spaces.
fn costs(values: &[u64]) -> String {
    let parts: Vec<String> = values.iter().map(u64::to_string).collect();
    parts.join(" ")
}

/// `s` with line breaks turned into spaces, for a one-line header or name.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Callgrind's name compression: `(id) name` the first time, `(id)` after.
#[derive(Default)]
struct Compression {
    ids: FxHashMap<String, usize>,
}

impl Compression {
    fn spec(&mut self, name: &str) -> String {
        let next = self.ids.len() + 1;
        match self.ids.get(name) {
            Some(id) => format!("({id})"),
            None => {
                self.ids.insert(name.to_string(), next);
                format!("({next}) {name}")
            }
        }
    }
}

/// The names a callgrind export gives to functions ("slots": the
/// profile's functions, then [`PSEUDO`]).
struct CallgrindNames {
    functions: Vec<String>,
}

/// Function names unique per source file, so that callgrind_annotate (which
/// keys functions by `file:name`) keeps every function apart.
fn callgrind_function_names(profile: &Profile) -> CallgrindNames {
    let file = |f: &FunctionRow| one_line(f.file.as_deref().unwrap_or("???"));
    let mut names: Vec<String> = profile
        .functions
        .iter()
        .map(|f| one_line(&f.name))
        .collect();
    // First by object, then by ordinal, whatever still collides.
    for pass in 0..2 {
        let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
        for (i, f) in profile.functions.iter().enumerate() {
            groups
                .entry((file(f), names[i].clone()))
                .or_default()
                .push(i);
        }
        for members in groups.values().filter(|g| g.len() > 1) {
            for (k, &i) in members.iter().enumerate() {
                if pass == 0 {
                    let object = file_name(&profile.functions[i].object);
                    if !object.is_empty() {
                        names[i] = format!("{} [{}]", names[i], one_line(object));
                    }
                } else if k > 0 {
                    names[i] = format!("{} #{}", names[i], k + 1);
                }
            }
        }
    }
    names.extend(PSEUDO.iter().map(|s| s.to_string()));
    CallgrindNames { functions: names }
}

impl CallgrindNames {
    fn function(&self, slot: usize) -> &str {
        &self.functions[slot]
    }

    fn object<'a>(&self, profile: &'a Profile, slot: usize) -> &'a str {
        match profile.functions.get(slot) {
            Some(f) if !f.object.is_empty() => &f.object,
            _ => "???",
        }
    }

    fn file(&self, profile: &Profile, slot: usize) -> String {
        match profile.functions.get(slot).and_then(|f| f.file.as_deref()) {
            Some(file) => one_line(file),
            None => "???".into(),
        }
    }

    fn line(&self, profile: &Profile, slot: usize) -> u32 {
        profile
            .functions
            .get(slot)
            .and_then(|f| f.line)
            .unwrap_or(0)
    }
}

/// One caller → callee edge of the function-level call graph.
struct Edge {
    /// Calls summed over the contexts of the callee under the caller.
    calls: u64,
    /// Inclusive cost of the contexts that enter the callee (no ancestor of
    /// the same function), `metrics.len()` values.
    cost: Vec<u64>,
}

/// The calling context tree aggregated to function-level call edges.
struct CallEdges {
    /// `(caller slot, callee slot, call site)` → edge, sorted (the call
    /// site: the address of the call instruction, 0 when none).
    edges: BTreeMap<(usize, usize, u64), Edge>,
    /// Per slot: whether some context has it.
    appears: Vec<bool>,
}

impl CallEdges {
    /// Aggregates the tree of a validated profile.
    fn build(profile: &Profile) -> CallEdges {
        let c = &profile.contexts;
        let m = profile.metrics.len();
        let n_functions = profile.functions.len();
        let slots = n_functions + PSEUDO.len();
        let slot = |node: usize| -> usize {
            if node == 0 {
                return n_functions;
            }
            match c.function[node] {
                ContextTable::NO_FUNCTION
                    if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 =>
                {
                    n_functions + 1
                }
                ContextTable::NO_FUNCTION => n_functions + 2,
                f => f as usize,
            }
        };
        let mut calls = CallEdges {
            edges: BTreeMap::new(),
            appears: vec![false; slots],
        };
        if c.is_empty() {
            return calls;
        }
        // Calls at their call sites only when the export has instructions.
        let per_site = !profile.insns.is_empty();
        let entering = entering_contexts(c, &slot, slots);
        let incl = c.inclusive(m);
        calls.appears[slot(0)] = true;
        for node in 1..c.len() {
            let (from, to) = (slot(c.parent[node] as usize), slot(node));
            let site = if !per_site
                || c.parent[node] == 0
                || c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0
            {
                0
            } else {
                c.call_site[node]
            };
            calls.appears[to] = true;
            let edge = calls.edges.entry((from, to, site)).or_insert_with(|| Edge {
                calls: 0,
                cost: vec![0; m],
            });
            edge.calls = edge.calls.saturating_add(c.calls[node]);
            if entering[node] {
                for (sum, &v) in edge.cost.iter_mut().zip(&incl[node * m..(node + 1) * m]) {
                    *sum = sum.saturating_add(v);
                }
            }
        }
        calls.add_function_view_excess(profile);
        calls
    }

    /// Where the function view's inclusive cost of a function exceeds what
    /// its entering contexts add up to (the run charges a function's own
    /// instructions by symbol, the tree by the frame on top of the stack, so
    /// code reached without a call counts for the function but not for its
    /// contexts), puts the excess on the function's heaviest incoming edge
    /// (by cost of the first metric, then lowest caller), so that the edges
    /// into it add up to the function view's number.
    fn add_function_view_excess(&mut self, profile: &Profile) {
        let m = profile.metrics.len();
        let n_functions = profile.functions.len();
        let mut into: Vec<Vec<u64>> = vec![vec![0; m]; n_functions];
        let mut heaviest: Vec<Option<(usize, usize, u64)>> = vec![None; n_functions];
        for (&(from, to, site), edge) in &self.edges {
            if to >= n_functions {
                continue;
            }
            for (sum, &v) in into[to].iter_mut().zip(&edge.cost) {
                *sum = sum.saturating_add(v);
            }
            let heavier = match heaviest[to] {
                None => true,
                Some(key) => edge.cost.first() > self.edges[&key].cost.first(),
            };
            if heavier {
                heaviest[to] = Some((from, to, site));
            }
        }
        for (f, row) in profile.functions.iter().enumerate() {
            let Some(key) = heaviest[f] else { continue };
            let edge = self.edges.get_mut(&key).expect("a heaviest edge exists");
            for ((cost, &want), &have) in edge.cost.iter_mut().zip(&row.inclusive).zip(&into[f]) {
                *cost = cost.saturating_add(want.saturating_sub(have));
            }
        }
    }
}

/// Per node: true when no proper ancestor has the same slot (the node
/// enters its function rather than recursing into it). One depth-first walk
/// counting, per slot, the nodes of that slot on the current path.
fn entering_contexts(c: &ContextTable, slot: &dyn Fn(usize) -> usize, slots: usize) -> Vec<bool> {
    let n = c.len();
    // Children lists as one array (parents come before children, so node
    // order within a list is ascending).
    let mut first = vec![0usize; n + 1];
    for node in 1..n {
        first[c.parent[node] as usize + 1] += 1;
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut children = vec![0u32; n.saturating_sub(1)];
    for node in 1..n {
        let p = c.parent[node] as usize;
        children[fill[p]] = node as u32;
        fill[p] += 1;
    }

    let mut on_path = vec![0u32; slots];
    let mut entering = vec![false; n];
    // (node, index of its next child to visit)
    let mut stack: Vec<(usize, usize)> = vec![(0, first[0])];
    entering[0] = true;
    on_path[slot(0)] += 1;
    while let Some(top) = stack.last_mut() {
        let (node, next) = *top;
        if next < first[node + 1] {
            top.1 += 1;
            let child = children[next] as usize;
            let s = slot(child);
            entering[child] = on_path[s] == 0;
            on_path[s] += 1;
            stack.push((child, first[child]));
        } else {
            on_path[slot(node)] -= 1;
            stack.pop();
        }
    }
    entering
}

/// Writes the folded stacks of `metric`: one line `frame;frame;... COUNT`
/// per distinct stack with a nonzero self cost, outermost frame first (the
/// root, `<root>`, included), sorted by stack. See the [module
/// documentation](self) for names.
///
/// Fails with [`ReportError::UnknownMetric`] when the profile has no such
/// metric, [`ReportError::InvalidProfile`] on an inconsistent profile and
/// [`ExportError::Io`] when writing fails.
pub fn export_folded(
    profile: &Profile,
    metric: &str,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let mut w = io::BufWriter::new(out);
    write_folded(profile, metric, &mut w)?;
    w.flush()?;
    Ok(())
}

/// Draws the folded stacks of `metric` as an SVG flame graph (inferno,
/// colours by a hash of the function name so that equal profiles give equal
/// files), with `title` above it and the metric's name as the unit.
///
/// Fails as [`export_folded`] does, and with [`ExportError::NothingToDraw`]
/// when no context has a cost of the metric.
pub fn export_flamegraph(
    profile: &Profile,
    metric: &str,
    title: &str,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let mut folded = Vec::new();
    write_folded(profile, metric, &mut folded)?;
    let folded = String::from_utf8_lossy(&folded);
    if folded.is_empty() {
        return Err(ExportError::NothingToDraw {
            metric: metric.to_string(),
        });
    }
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_string();
    options.count_name = metric.to_string();
    options.hash = true;
    inferno::flamegraph::from_lines(&mut options, folded.lines(), out)?;
    Ok(())
}

/// Writes the folded lines of `metric` (`stack COUNT\n`), sorted by stack
/// as byte strings, equal stacks merged.
///
/// The lines are written as they are found, never gathered: contexts with
/// the same names from the root (the same functions through different call
/// sites, or equal names of different functions) are merged into one tree
/// of integers, whose children are visited in the order that keeps the
/// output sorted. A child `x`'s own line sorts by `x` and its descendants
/// as a block by `x;` (no frame name holds `;`), so sorting these two keys
/// per child among its siblings orders the whole file, even when one
/// sibling's name is a prefix of another's (`f` and `f.cold`: `f.cold`
/// comes between `f` and `f;…`).
fn write_folded(profile: &Profile, metric: &str, out: &mut dyn Write) -> Result<(), ExportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    let col = profile
        .metric_index(metric)
        .ok_or_else(|| ReportError::UnknownMetric {
            name: metric.to_string(),
            available: profile.metrics.clone(),
        })?;
    let m = profile.metrics.len();
    let c = &profile.contexts;
    if c.is_empty() {
        let mut flat: BTreeMap<String, u64> = BTreeMap::new();
        for f in &profile.functions {
            if f.self_cost[col] != 0 {
                let sum = flat.entry(frame_name(&f.name)).or_default();
                *sum = sum.saturating_add(f.self_cost[col]);
            }
        }
        for (stack, count) in flat {
            writeln!(out, "{stack} {count}")?;
        }
        return Ok(());
    }
    // Distinct frame names, and the name of each frame index (`frame_of`).
    let mut name_ids: FxHashMap<String, u32> = FxHashMap::default();
    let mut names: Vec<String> = Vec::new();
    let name_of_frame: Vec<u32> = profile
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .chain([ROOT_NAME, THREAD_NAME, UNKNOWN_NAME])
        .map(|n| {
            let n = frame_name(n);
            *name_ids.entry(n.clone()).or_insert_with(|| {
                names.push(n);
                names.len() as u32 - 1
            })
        })
        .collect();
    // The merged tree: node 0 is the root; children keyed by name.
    const NONE: u32 = u32::MAX;
    let mut name: Vec<u32> = vec![name_of_frame[frame_of(profile, 0)]];
    let mut cost: Vec<u64> = vec![c.self_cost[col]];
    let mut first_child: Vec<u32> = vec![NONE];
    let mut next_sibling: Vec<u32> = vec![NONE];
    let mut merged_of: Vec<u32> = vec![0; c.len()];
    let mut child_of: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for node in 1..c.len() {
        let parent = merged_of[c.parent[node] as usize];
        let n = name_of_frame[frame_of(profile, node)];
        let id = *child_of.entry((parent, n)).or_insert_with(|| {
            let id = name.len() as u32;
            name.push(n);
            cost.push(0);
            first_child.push(NONE);
            next_sibling.push(first_child[parent as usize]);
            first_child[parent as usize] = id;
            id
        });
        cost[id as usize] = cost[id as usize].saturating_add(c.self_cost[node * m + col]);
        merged_of[node] = id;
    }
    drop(child_of);
    drop(merged_of);
    // Depth-first, siblings' items in key order (see above).
    enum Item {
        Own(u32),
        Down(u32),
        Up(usize),
    }
    let key = |item: &Item| -> (&[u8], bool) {
        match *item {
            Item::Own(x) => (names[name[x as usize] as usize].as_bytes(), false),
            Item::Down(x) => (names[name[x as usize] as usize].as_bytes(), true),
            Item::Up(_) => (&[], false),
        }
    };
    // `x` against `y;`-style keys: the name's bytes, then `;` for Down.
    let cmp = |a: &Item, b: &Item| {
        let ((an, ad), (bn, bd)) = (key(a), key(b));
        let semi: &[u8] = b";";
        let a_bytes = an.iter().chain(if ad { semi } else { &[] });
        let b_bytes = bn.iter().chain(if bd { semi } else { &[] });
        a_bytes.cmp(b_bytes)
    };
    let group = |first: u32, work: &mut Vec<Item>| {
        let start = work.len();
        let mut x = first;
        while x != NONE {
            if cost[x as usize] != 0 {
                work.push(Item::Own(x));
            }
            if first_child[x as usize] != NONE {
                work.push(Item::Down(x));
            }
            x = next_sibling[x as usize];
        }
        // The stack pops from the end: largest key first in the vector.
        work[start..].sort_unstable_by(|a, b| cmp(b, a));
    };
    let mut prefix = String::new();
    let mut work: Vec<Item> = Vec::new();
    // The root is the one child of an empty stack.
    if cost[0] != 0 {
        work.push(Item::Own(0));
    }
    if first_child[0] != NONE {
        work.push(Item::Down(0));
    }
    work.sort_unstable_by(|a, b| cmp(b, a));
    while let Some(item) = work.pop() {
        match item {
            Item::Own(x) => {
                let n = &names[name[x as usize] as usize];
                if prefix.is_empty() {
                    writeln!(out, "{n} {}", cost[x as usize])?;
                } else {
                    writeln!(out, "{prefix};{n} {}", cost[x as usize])?;
                }
            }
            Item::Down(x) => {
                work.push(Item::Up(prefix.len()));
                if !prefix.is_empty() {
                    prefix.push(';');
                }
                prefix.push_str(&names[name[x as usize] as usize]);
                group(first_child[x as usize], &mut work);
            }
            Item::Up(len) => prefix.truncate(len),
        }
    }
    Ok(())
}

/// The frame of a context, as an index into the profile's function rows
/// followed by three pseudo-frames: `<root>` (row count), `<thread>` (+1),
/// `<unknown>` (+2). Node indices of a validated profile.
pub(crate) fn frame_of(profile: &Profile, node: usize) -> usize {
    let c = &profile.contexts;
    let n = profile.functions.len();
    if node == 0 {
        return n;
    }
    match c.function[node] {
        ContextTable::NO_FUNCTION if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 => n + 1,
        ContextTable::NO_FUNCTION => n + 2,
        f => f as usize,
    }
}

/// The metric columns an export writes: the one named, or every metric of
/// the profile when `None`, after validating the profile.
pub(crate) fn export_columns(
    profile: &Profile,
    metric: Option<&str>,
) -> Result<Vec<usize>, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    if profile.metrics.is_empty() {
        return Err(ReportError::NoMetrics);
    }
    match metric {
        None => Ok((0..profile.metrics.len()).collect()),
        Some(name) => match profile.metric_index(name) {
            Some(col) => Ok(vec![col]),
            None => Err(ReportError::UnknownMetric {
                name: name.to_string(),
                available: profile.metrics.clone(),
            }),
        },
    }
}

/// The frames of a context, outermost first, without the root of the tree
/// (which every stack would share); the root context itself is the
/// one-frame stack `[0]`. Node indices of a validated profile.
pub(crate) fn context_stack(c: &ContextTable, node: usize, out: &mut Vec<usize>) {
    out.clear();
    if node == 0 {
        out.push(0);
        return;
    }
    let mut n = node;
    while n != 0 {
        out.push(n);
        n = c.parent[n] as usize;
    }
    out.reverse();
}

/// A name fit to be one frame of a folded stack: `;` and white space
/// replaced by `_` (`operator new(unsigned long)` →
/// `operator_new(unsigned_long)`).
fn frame_name(name: &str) -> String {
    name.chars()
        .map(|ch| {
            if ch == ';' || ch.is_whitespace() {
                '_'
            } else {
                ch
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::process::Command;

    use super::*;
    use crate::profile::{FunctionRow, Meta};
    use crate::testdata::{per_instruction_profile, tiny_profile};

    fn callgrind(profile: &Profile) -> String {
        let mut out = Vec::new();
        export_callgrind(profile, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn folded(profile: &Profile, metric: &str) -> String {
        let mut out = Vec::new();
        export_folded(profile, metric, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn flamegraph(profile: &Profile, metric: &str) -> String {
        let mut out = Vec::new();
        export_flamegraph(profile, metric, "pathvm test", &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn row(name: &str, object: &str, file: Option<&str>, line: Option<u32>) -> FunctionRow {
        FunctionRow {
            name: name.into(),
            object: object.into(),
            file: file.map(Into::into),
            line,
            ..FunctionRow::default()
        }
    }

    /// A tree with every case the callgrind export must get right:
    ///
    /// ```text
    /// 0 <root> (self 5: `_start`'s code, charged to the root context)
    /// ├─ 1 main
    /// │  ├─ 2 f ─ 3 f ─ 4 f ─ 5 g       direct recursion, g below it
    /// │  │  └─ 15 f                     a second recursive call site
    /// │  ├─ 6 g ─ 7 h ─ 8 g ─ 9 h      recursion through another function
    /// │  ├─ 10 _init (/work/rec)       same name and no file...
    /// │  └─ 11 _init (libc.so.6)       ...in two objects
    /// └─ 12 <thread> ─ 13 worker ─ 14 f  thread root; worker entered by no call
    /// ```
    ///
    /// The function rows are computed from the tree, as `pathvm run`
    /// computes them (inclusive counted once under recursion,
    /// [`crate::outermost_activations`]); `_start` has no context.
    fn recursive_profile() -> Profile {
        let functions = vec![
            row("main", "/work/rec", Some("rec.c"), Some(1)),
            row("f", "/work/rec", Some("rec.c"), Some(10)),
            row("g", "/work/rec", Some("rec.c"), Some(20)),
            row("h", "/work/rec", Some("other.c"), Some(30)),
            row("_start", "/work/rec", None, None),
            row("_init", "/work/rec", None, None),
            row("_init", "/usr/lib/libc.so.6", None, None),
            row("worker", "/work/rec", Some("rec.c"), Some(40)),
        ];
        // (parent, function, calls, self instructions)
        let nodes: [(u32, u32, u64, u64); 16] = [
            (0, u32::MAX, 0, 5),
            (0, 0, 1, 10),
            (1, 1, 1, 3),
            (2, 1, 1, 3),
            (3, 1, 1, 3),
            (4, 2, 2, 7),
            (1, 2, 1, 7),
            (6, 3, 1, 4),
            (7, 2, 1, 7),
            (8, 3, 1, 4),
            (1, 5, 1, 2),
            (1, 6, 1, 2),
            (0, u32::MAX, 0, 0),
            (12, 7, 0, 50),
            (13, 1, 3, 6),
            (2, 1, 2, 1),
        ];
        let mut contexts = ContextTable::default();
        for (i, &(parent, function, calls, instructions)) in nodes.iter().enumerate() {
            contexts.parent.push(parent);
            contexts.function.push(function);
            contexts
                .call_site
                .push(if i == 0 { 0 } else { 0x1000 + i as u64 });
            contexts.flags.push(if i == 12 {
                ContextTable::FLAG_THREAD_ROOT
            } else {
                0
            });
            contexts.calls.push(calls);
            // A second metric with other proportions.
            contexts
                .self_cost
                .extend([instructions, (i as u64 * 7) % 5 * 100]);
        }
        let mut profile = Profile {
            meta: Meta {
                pathvm_version: "0.1.0".into(),
                command: vec!["./rec".into()],
                ..Meta::default()
            },
            metrics: vec!["instructions".into(), "alloc-bytes".into()],
            totals: vec![0, 0],
            functions,
            contexts,
            paths: Default::default(),
            phases: Vec::new(),
            blocks: Default::default(),
            insns: Default::default(),
            inlines: Default::default(),
        };
        fill_function_rows(&mut profile);
        // `_start` ran in the root context.
        profile.functions[4].self_cost = profile.contexts.self_of(0, 2).to_vec();
        profile.functions[4].inclusive = profile.functions[4].self_cost.clone();
        profile.totals = profile.contexts.inclusive(2)[..2].to_vec();
        profile.validate().unwrap();
        profile
    }

    /// Self, inclusive (once under recursion) and calls of every function
    /// from the tree ([`ContextTable::function_costs`]).
    fn fill_function_rows(profile: &mut Profile) {
        let m = profile.metrics.len();
        let costs = profile.contexts.function_costs(profile.functions.len(), m);
        for (i, f) in profile.functions.iter_mut().enumerate() {
            f.calls = costs.calls[i];
            f.self_cost = costs.self_cost[i * m..(i + 1) * m].to_vec();
            f.inclusive = costs.inclusive[i * m..(i + 1) * m].to_vec();
        }
    }

    #[test]
    fn event_names() {
        let metrics: Vec<String> = [
            "instructions",
            "l1d-read-miss",
            "ll-miss",
            "alloc-bytes",
            "calls",
            "ir",
            "Ir",
            "2x",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            callgrind_event_names(&metrics),
            [
                "Ir",
                "D1mr",
                "LlMiss",
                "AllocBytes",
                "Calls",
                "Ir2",
                "Ir3",
                "E2x"
            ]
        );
    }

    #[test]
    fn callgrind_golden() {
        assert_eq!(
            callgrind(&tiny_profile()),
            "# callgrind format
version: 1
creator: pathvm 0.1.0
cmd: ./tiny 7
desc: Cpu: haswell-noavx
desc: Config: seed=0
desc: Stop: exited with status 0
positions: line
event: Ir : instructions
event: L1dMiss : l1d-miss
events: Ir L1dMiss
summary: 270 33

ob=(1) /work/tiny
fl=(1) tiny.c
fn=(1) main
3 10 1
cfn=(2) a
calls=2 10
3 120 12
cfn=(3) b
calls=4 20
3 140 20

ob=(1)
fl=(1)
fn=(2)
10 20 2
cfn=(4) c
calls=2 30
10 100 10

ob=(1)
fl=(1)
fn=(3)
20 40 0
cfn=(4)
calls=4 30
20 100 20

ob=(1)
fl=(1)
fn=(4)
30 200 30

ob=(2) ???
fl=(2) ???
fn=(5) <root>
cob=(1)
cfi=(1)
cfn=(1)
calls=1 3
0 270 33

totals: 270 33
"
        );
    }

    #[test]
    fn callgrind_edges_under_recursion() {
        let text = callgrind(&recursive_profile());
        // f → f: three recursive calls (nodes 3, 4 and 15, two of them at
        // one call site) with no cost of their own on the edge.
        assert!(
            text.contains("fn=(2)\n10 16 1100\ncfn=(2)\ncalls=4 10\n10 0 0\n"),
            "{text}"
        );
        // The thread's first function was entered by no call.
        assert!(
            text.contains("fn=(10)\ncob=(1)\ncfi=(1)\ncfn=(8)\ncalls=1 40\n0 56 400\n"),
            "{text}"
        );
        // Same name, no file, two objects.
        assert!(text.contains("cfn=(4) _init [rec]\n"), "{text}");
        assert!(text.contains("cfn=(5) _init [libc.so.6]\n"), "{text}");
    }

    #[test]
    fn callgrind_names_are_unique_per_file() {
        let mut p = tiny_profile();
        for name in ["c", "c"] {
            let mut f = p.functions[3].clone();
            f.name = name.into();
            f.calls = 0;
            f.self_cost = vec![0, 0];
            f.inclusive = vec![0, 0];
            p.functions.push(f);
        }
        let names = callgrind_function_names(&p);
        assert_eq!(
            &names.functions[3..],
            [
                "c [tiny]",
                "c [tiny] #2",
                "c [tiny] #3",
                "<root>",
                "<thread>",
                "<unknown>"
            ]
        );
    }

    #[test]
    fn callgrind_costs_per_instruction_and_calls_at_their_sites() {
        let text = callgrind(&per_instruction_profile());
        assert!(text.contains("\npositions: instr line\n"), "{text}");
        // main: its instructions at their lines (hdr.h's through fi=), the
        // PLT stub's instruction at its entry with no line, each call at
        // its call instruction; `cfi=` only where the callee's file is not
        // the current one, `cob=` never (one object).
        let main = "fn=(1) main
0x401000 3 6 1
0x401010 4 2 0
fi=(2) hdr.h
0x401020 7 1 0
fe=(1)
0x401000 0 1 0
cfn=(2) a
calls=2 0x402000 10
0x401010 4 120 12
fi=(2)
cfi=(1)
cfn=(3) b
calls=4 0x0 20
0x401020 7 140 20
";
        assert!(text.contains(main), "{text}");
        // Only `<root>` (no object) calls into another object.
        assert_eq!(text.matches("cob=").count(), 1, "{text}");
        // a's one instruction; its call of c has a site with no known
        // line: at a's entry line (c's entry: where its paths begin).
        assert!(
            text.contains(
                "fn=(2)\n0x402000 10 20 2\ncfn=(4) c\ncalls=2 0x402000 30\n0x401100 10 100 10\n"
            ),
            "{text}"
        );
        // Functions without instructions keep one line at their entry.
        assert!(text.contains("fn=(3)\n0x0 20 40 0\n"), "{text}");
    }

    #[test]
    fn callgrind_without_contexts_has_self_costs_only() {
        let mut p = tiny_profile();
        p.contexts = ContextTable::default();
        let text = callgrind(&p);
        assert!(!text.contains("calls="), "{text}");
        assert!(!text.contains("<root>"), "{text}");
        assert!(text.contains("fn=(4) c\n30 200 30\n"), "{text}");
    }

    #[test]
    fn callgrind_errors() {
        let mut p = tiny_profile();
        p.totals.pop();
        let err = export_callgrind(&p, &mut Vec::new()).unwrap_err();
        assert!(matches!(
            err,
            ExportError::Report(ReportError::InvalidProfile(_))
        ));
        let empty = Profile::default();
        let err = export_callgrind(&empty, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, ExportError::Report(ReportError::NoMetrics)));
        assert_eq!(err.to_string(), "the profile has no metrics");
    }

    /// Per-function totals printed by `callgrind_annotate`, keyed by
    /// `file:function`, or the reason it could not run.
    fn annotate(
        text: &str,
        name: &str,
        inclusive: bool,
    ) -> Result<Vec<(String, Vec<u64>)>, String> {
        let path: PathBuf = std::env::temp_dir().join(format!(
            "pathvm-export-{}-{name}-{inclusive}.callgrind",
            std::process::id()
        ));
        std::fs::write(&path, text).unwrap();
        let output = Command::new("callgrind_annotate")
            .arg("--threshold=100")
            .arg("--auto=no")
            .arg(format!(
                "--inclusive={}",
                if inclusive { "yes" } else { "no" }
            ))
            .arg(&path)
            .output();
        std::fs::remove_file(&path).unwrap();
        let output = match output {
            Ok(o) => o,
            Err(e) => return Err(format!("cannot run callgrind_annotate: {e}")),
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        assert!(
            stderr.trim().is_empty() && !stdout.contains("WARNING"),
            "callgrind_annotate warned:\n{stderr}{stdout}"
        );
        let table = stdout
            .split_once(" file:function\n")
            .expect("a function table")
            .1;
        let mut rows = Vec::new();
        for line in table.lines().skip(1) {
            if line.trim().is_empty() {
                break;
            }
            let mut values = Vec::new();
            let mut rest = line.trim_start();
            loop {
                let (token, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                if token.starts_with('(') {
                    // A percentage, possibly padded: `( 7.41%)`.
                    let close = rest.find(')').unwrap();
                    rest = rest[close + 1..].trim_start();
                } else if token == "." {
                    values.push(0);
                    rest = tail.trim_start();
                } else if let Ok(v) = token.replace(',', "").parse::<u64>() {
                    values.push(v);
                    rest = tail.trim_start();
                } else {
                    break;
                }
            }
            let key = rest.rsplit_once(" [").expect("an object").0;
            rows.push((key.to_string(), values));
        }
        Ok(rows)
    }

    /// `file:function` as callgrind_annotate names each function of `p`.
    fn annotate_keys(p: &Profile) -> Vec<String> {
        let names = callgrind_function_names(p);
        p.functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                format!(
                    "{}:{}",
                    f.file.as_deref().unwrap_or("???"),
                    names.functions[i]
                )
            })
            .collect()
    }

    /// Runs the real callgrind_annotate on the export of `p` and checks that
    /// it reads it without a warning and prints, for every function, the
    /// self cost (`--inclusive=no`) and inclusive cost (`--inclusive=yes`)
    /// of the profile. Returns false (after saying why) when
    /// callgrind_annotate cannot run here.
    fn check_with_callgrind_annotate(p: &Profile, name: &str) -> bool {
        let text = callgrind(p);
        let keys = annotate_keys(p);
        for inclusive in [false, true] {
            let rows = match annotate(&text, name, inclusive) {
                Ok(rows) => rows,
                Err(reason) => {
                    println!("skipped: {reason}");
                    return false;
                }
            };
            for (f, key) in p.functions.iter().zip(&keys) {
                let expected = if inclusive {
                    &f.inclusive
                } else {
                    &f.self_cost
                };
                let got = rows
                    .iter()
                    .find(|(k, _)| k == key)
                    .unwrap_or_else(|| panic!("no row for {key} in {rows:?}"));
                assert_eq!(&got.1, expected, "{key}, inclusive={inclusive}\n{text}");
            }
        }
        true
    }

    #[test]
    fn callgrind_annotate_reads_tiny() {
        check_with_callgrind_annotate(&tiny_profile(), "tiny");
    }

    #[test]
    fn callgrind_annotate_reads_recursion() {
        let p = recursive_profile();
        // The test profile does recurse, directly and indirectly.
        assert_eq!(p.functions[1].inclusive[0], 3 + 3 + 3 + 7 + 1 + 6);
        if check_with_callgrind_annotate(&p, "recursion") {
            // `<root>`: every context below the root, i.e. the total less
            // what the root context itself ran (`_start`'s 5).
            let rows = annotate(&callgrind(&p), "recursion-root", true).unwrap();
            let root = rows.iter().find(|(k, _)| k == "???:<root>").unwrap();
            assert_eq!(root.1[0], p.totals[0] - 5);
        }
    }

    #[test]
    fn folded_golden() {
        assert_eq!(
            folded(&tiny_profile(), "instructions"),
            "<root>;main 10
<root>;main;a 20
<root>;main;a;c 100
<root>;main;b 40
<root>;main;b;c 100
"
        );
        // Zero-cost stacks (b for l1d-miss) are left out.
        assert_eq!(
            folded(&tiny_profile(), "l1d-miss"),
            "<root>;main 1\n<root>;main;a 2\n<root>;main;a;c 10\n<root>;main;b;c 20\n"
        );
    }

    #[test]
    fn folded_merges_call_sites_and_escapes_names() {
        let mut p = tiny_profile();
        // A second call site of c in a, and names that need escaping.
        p.contexts.parent.push(2);
        p.contexts.function.push(3);
        p.contexts.call_site.push(0x401104);
        p.contexts.flags.push(0);
        p.contexts.calls.push(1);
        p.contexts.self_cost.extend([5, 0]);
        p.functions[3].name = "operator new(unsigned long)".into();
        p.functions[2].name = "b;x\tq".into();
        p.totals = vec![275, 33];
        let text = folded(&p, "instructions");
        assert_eq!(
            text,
            "<root>;main 10
<root>;main;a 20
<root>;main;a;operator_new(unsigned_long) 105
<root>;main;b_x_q 40
<root>;main;b_x_q;operator_new(unsigned_long) 100
"
        );
        // Every line's count adds up to the total.
        let sum: u64 = text
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 275);
    }

    #[test]
    fn folded_stays_sorted_when_one_name_prefixes_another() {
        // main's children: f, f.cold, f1, f!x and g, each calling c, plus a
        // second f (another function of the same name) calling a.
        let mut p = tiny_profile();
        let names = ["f", "f.cold", "f1", "f!x", "g", "f"];
        let c = &mut p.contexts;
        c.parent.truncate(2);
        c.function.truncate(2);
        c.call_site.truncate(2);
        c.flags.truncate(2);
        c.calls.truncate(2);
        c.self_cost.truncate(4);
        let mut total = 10;
        for (i, name) in names.iter().enumerate() {
            let f = p.functions.len() as u32;
            p.functions.push(FunctionRow {
                name: (*name).into(),
                ..p.functions[1].clone()
            });
            let node = c.parent.len() as u32;
            for (parent, function, cost) in
                [(1, f, 1 + i as u64), (node, 3 - (i as u32 / 5) * 2, 100)]
            {
                c.parent.push(parent);
                c.function.push(function);
                c.call_site.push(0x402000 + c.parent.len() as u64);
                c.flags.push(0);
                c.calls.push(1);
                c.self_cost.extend([cost, 0]);
                total += cost;
            }
        }
        p.totals = vec![total, 1];
        let text = folded(&p, "instructions");
        let lines: Vec<&str> = text.lines().collect();
        let mut sorted = lines.clone();
        sorted.sort_unstable();
        assert_eq!(lines, sorted);
        assert_eq!(
            text,
            "<root>;main 10
<root>;main;f 7
<root>;main;f!x 4
<root>;main;f!x;c 100
<root>;main;f.cold 2
<root>;main;f.cold;c 100
<root>;main;f1 3
<root>;main;f1;c 100
<root>;main;f;a 100
<root>;main;f;c 100
<root>;main;g 5
<root>;main;g;c 100
"
        );
    }

    #[test]
    fn folded_threads_and_recursion() {
        let text = folded(&recursive_profile(), "instructions");
        assert!(text.starts_with("<root> 5\n"), "{text}");
        assert!(text.contains("\n<root>;<thread>;worker;f 6\n"), "{text}");
        assert!(text.contains("\n<root>;main;f;f 4\n"), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
    }

    #[test]
    fn folded_without_contexts_is_flat() {
        let mut p = tiny_profile();
        p.contexts = ContextTable::default();
        assert_eq!(folded(&p, "instructions"), "a 20\nb 40\nc 200\nmain 10\n");
    }

    #[test]
    fn unknown_metric() {
        let p = tiny_profile();
        let err = export_folded(&p, "cycles", &mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
        assert!(matches!(
            err,
            ExportError::Report(ReportError::UnknownMetric { .. })
        ));
        let err = export_flamegraph(&p, "cycles", "t", &mut Vec::new()).unwrap_err();
        assert!(matches!(
            err,
            ExportError::Report(ReportError::UnknownMetric { .. })
        ));
    }

    #[test]
    fn flamegraph_svg() {
        let p = tiny_profile();
        let svg = flamegraph(&p, "instructions");
        assert!(svg.starts_with("<?xml"), "{}", &svg[..100]);
        assert!(svg.contains("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("pathvm test"));
        for name in ["main", "a", "b", "c", "&lt;root&gt;"] {
            assert!(svg.contains(&format!("<title>{name} (")), "no frame {name}");
        }
        assert!(svg.contains("instructions"));
        // Equal profiles, equal files (colours come from name hashes).
        assert_eq!(svg, flamegraph(&p, "instructions"));
        assert_ne!(svg, flamegraph(&p, "l1d-miss"));
        let rec = recursive_profile();
        assert_eq!(
            flamegraph(&rec, "alloc-bytes"),
            flamegraph(&rec, "alloc-bytes")
        );
    }

    #[test]
    fn flamegraph_of_nothing() {
        let mut p = tiny_profile();
        for v in p.contexts.self_cost.iter_mut().skip(1).step_by(2) {
            *v = 0;
        }
        let err = export_flamegraph(&p, "l1d-miss", "t", &mut Vec::new()).unwrap_err();
        assert!(matches!(err, ExportError::NothingToDraw { .. }));
        assert_eq!(
            err.to_string(),
            "nothing to draw: no cost of metric `l1d-miss` in the profile"
        );
    }

    /// The run charges a function's own cost by symbol and the tree by
    /// frame: here 10 instructions of `c` ran in contexts of `a` (as code
    /// reached by a jump, not a call), so `c`'s function view exceeds its
    /// contexts and the excess goes on its heaviest incoming edge.
    fn split_attribution_profile() -> Profile {
        let mut p = tiny_profile();
        p.functions[1].self_cost = vec![10, 2];
        p.functions[3].self_cost = vec![210, 30];
        p.functions[3].inclusive = vec![210, 30];
        p
    }

    #[test]
    fn function_view_excess_goes_on_the_heaviest_edge() {
        let text = callgrind(&split_attribution_profile());
        // a → c and b → c carry 100 each; b → c is heavier in l1d-miss but
        // they tie in instructions, so the lower caller (a) takes the 10.
        assert!(
            text.contains("cfn=(4) c\ncalls=2 30\n10 110 10\n"),
            "{text}"
        );
        assert!(text.contains("cfn=(4)\ncalls=4 30\n20 100 20\n"), "{text}");
        check_with_callgrind_annotate(&split_attribution_profile(), "split");
    }

    #[test]
    fn entering_contexts_of_recursion() {
        let p = recursive_profile();
        let c = &p.contexts;
        let n = p.functions.len();
        let slot = |node: usize| -> usize {
            if node == 0 {
                n
            } else if c.function[node] == ContextTable::NO_FUNCTION {
                n + 1
            } else {
                c.function[node] as usize
            }
        };
        let entering = entering_contexts(c, &slot, n + 3);
        let expected: Vec<usize> = (0..c.len()).filter(|&i| entering[i]).collect();
        assert_eq!(expected, [0, 1, 2, 5, 6, 7, 10, 11, 12, 13, 14]);
    }
}
