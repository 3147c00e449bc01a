//! `pathvm report --by thread` (one row per guest thread) and `--thread N`
//! (every other view restricted to one thread), from the calling context
//! tree: each guest thread has its own root context, a child of the tree's
//! root flagged [`ContextTable::FLAG_THREAD_ROOT`] whose call site is the
//! tid, so a thread's costs are its root's inclusive costs.

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::{FunctionReportOptions, ReportFormat};
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{ContextTable, FunctionCosts, FunctionRow, Profile};
use crate::table::{count, pct, percent_of, Align, Table};

/// One guest thread's totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadTotals {
    /// Its tid as the guest saw it (the main thread has the pid).
    pub tid: u32,
    /// The function it started in (`_start`, or glibc's `clone3`/`clone`).
    pub root: String,
    /// Its costs, one per metric of the profile.
    pub cost: Vec<u64>,
}

/// The threads of a profile in tid order (none when it has no tree).
pub fn thread_totals(profile: &Profile) -> Vec<ThreadTotals> {
    let c = &profile.contexts;
    let m = profile.metrics.len();
    // A thread root is a child of the tree's root: its inclusive cost is
    // the self cost of every node below that child (summed here without a
    // table of every node's inclusive cost, which a large tree makes big).
    let mut top_of = vec![0u32; c.len()];
    let mut incl: rustc_hash::FxHashMap<u32, Vec<u64>> = rustc_hash::FxHashMap::default();
    for node in 1..c.len() {
        let parent = c.parent[node] as usize;
        let top = if parent == 0 {
            node as u32
        } else {
            top_of[parent]
        };
        top_of[node] = top;
        if c.thread_of_root(top as usize).is_some() {
            let sum = incl.entry(top).or_insert_with(|| vec![0; m]);
            for (a, &b) in sum.iter_mut().zip(c.self_of(node, m)) {
                *a = a.saturating_add(b);
            }
        }
    }
    drop(top_of);
    let mut rows: Vec<ThreadTotals> = Vec::new();
    for node in 1..c.len() {
        let Some(tid) = c.thread_of_root(node) else {
            continue;
        };
        let cost = &incl[&(node as u32)][..];
        match rows.iter_mut().find(|r| r.tid == tid) {
            Some(r) => r.cost.iter_mut().zip(cost).for_each(|(a, b)| *a += b),
            None => rows.push(ThreadTotals {
                tid,
                root: match c.function[node] {
                    ContextTable::NO_FUNCTION => "?".into(),
                    f => profile.functions[f as usize].name.clone(),
                },
                cost: cost.to_vec(),
            }),
        }
    }
    rows.sort_by_key(|r| r.tid);
    rows
}

#[derive(Serialize)]
struct ThreadJson<'a> {
    tid: u32,
    root: &'a str,
    cost: CostMap<'a>,
}

#[derive(Serialize)]
struct ThreadsJson<'a> {
    metrics: &'a [String],
    totals: CostMap<'a>,
    rows: Vec<ThreadJson<'a>>,
}

/// One row per guest thread, in tid order: its tid, the function it
/// started in, and its costs (with their share of the total in text).
///
/// JSON is a contract: `{"metrics": [...], "totals": {metric: n}, "rows":
/// [{"tid", "root", "cost": {metric: n}}]}`. `sort_by` orders the rows by
/// that metric (descending, then tid) when given; `top` keeps the first rows.
pub fn report_threads(
    profile: &Profile,
    opts: &FunctionReportOptions,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    let mut rows = thread_totals(profile);
    if opts.sort_by.is_some() {
        rows.sort_by(|a, b| {
            b.cost[sel.sort]
                .cmp(&a.cost[sel.sort])
                .then(a.tid.cmp(&b.tid))
        });
    }
    let all = rows.len();
    if let Some(top) = opts.top {
        rows.truncate(top);
    }
    match opts.format {
        ReportFormat::Json => Ok(to_json(&ThreadsJson {
            metrics: &sel.names,
            totals: sel.map(&profile.totals),
            rows: rows
                .iter()
                .map(|r| ThreadJson {
                    tid: r.tid,
                    root: &r.root,
                    cost: sel.map(&r.cost),
                })
                .collect(),
        })),
        ReportFormat::Text => {
            let mut out = totals_line(&sel, &profile.totals, &profile.meta.cpu_model);
            out.push_str(&format!("Threads: {} of {all}\n\n", rows.len()));
            let mut table = Table::new();
            table.column("tid", Align::Right);
            for name in &sel.names {
                table
                    .column(name.clone(), Align::Right)
                    .column("%", Align::Right);
            }
            table.column("started in", Align::Left);
            for r in &rows {
                let mut cells = vec![r.tid.to_string()];
                for &c in &sel.cols {
                    cells.push(count(r.cost[c]));
                    cells.push(pct(percent_of(r.cost[c], profile.totals[c])));
                }
                cells.push(r.root.clone());
                table.row(cells);
            }
            table.render_text(&mut out);
            Ok(out)
        }
    }
}

/// The profile as if only thread `tid` had run: its contexts alone, and
/// function rows recomputed from them (self cost from the contexts; calls
/// and inclusive cost as `run` computes them, each activation once under
/// recursion). Fails when the profile has no such thread.
pub fn restrict_to_thread(profile: &Profile, tid: u32) -> Result<Profile, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    let c = &profile.contexts;
    let m = profile.metrics.len();
    // The root, and the thread's subtrees.
    let mut keep = vec![false; c.len()];
    for node in 0..c.len() {
        let p = c.parent[node] as usize;
        keep[node] = node == 0 || c.thread_of_root(node) == Some(tid) || (p != 0 && keep[p]);
    }
    if keep.iter().filter(|&&k| k).count() <= 1 {
        let tids: Vec<String> = thread_totals(profile)
            .iter()
            .map(|t| t.tid.to_string())
            .collect();
        return Err(ReportError::InvalidOption(format!(
            "--thread {tid}: no such thread in the profile (threads: {})",
            if tids.is_empty() {
                "none".into()
            } else {
                tids.join(", ")
            }
        )));
    }
    let (mut ctx, new_of) = c.retain(&keep, m);
    ctx.self_cost[..m].fill(0);

    // Function rows from the kept contexts.
    let nf = profile.functions.len();
    let FunctionCosts {
        calls,
        self_cost,
        inclusive: incl_cost,
        used,
    } = ctx.function_costs(nf, m);
    let mut row_of = vec![ContextTable::NO_FUNCTION; nf];
    let mut functions = Vec::new();
    for (i, f) in profile.functions.iter().enumerate() {
        if !used[i] {
            continue;
        }
        row_of[i] = functions.len() as u32;
        functions.push(FunctionRow {
            calls: calls[i],
            self_cost: self_cost[i * m..(i + 1) * m].to_vec(),
            inclusive: incl_cost[i * m..(i + 1) * m].to_vec(),
            ..f.clone()
        });
    }
    for f in ctx.function.iter_mut() {
        if *f != ContextTable::NO_FUNCTION {
            *f = row_of[*f as usize];
        }
    }
    let totals = ctx.inclusive(m)[..m].to_vec();
    // Path rows of the thread's contexts, with contexts and functions renumbered.
    let mut paths = profile.paths.clone();
    paths.renumber_contexts(&new_of);
    for f in &mut paths.functions {
        f.function = row_of
            .get(f.function as usize)
            .copied()
            .unwrap_or(ContextTable::NO_FUNCTION);
    }
    paths.functions.retain(|f| !f.rows.is_empty());
    Ok(Profile {
        meta: profile.meta.clone(),
        metrics: profile.metrics.clone(),
        totals,
        functions,
        contexts: ctx,
        paths,
        // Phases are whole-run totals; a thread's share is not recorded.
        phases: Vec::new(),
        // Blocks are whole-run costs.
        blocks: Default::default(),
        insns: Default::default(),
        inlines: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Meta;

    /// Root; thread 1000 `_start` → `main` → `work`; thread 1001 `clone` →
    /// `work` → `work` (recursion).
    fn two_threads() -> Profile {
        let mut c = ContextTable::default();
        let nodes: [(u32, u32, u64, u8, u64); 7] = [
            (0, u32::MAX, 0, 0, 0),
            (0, 0, 1000, ContextTable::FLAG_THREAD_ROOT, 5),
            (1, 1, 0x10, 0, 7),
            (2, 2, 0x20, 0, 100),
            (0, 3, 1001, ContextTable::FLAG_THREAD_ROOT, 3),
            (4, 2, 0x30, 0, 40),
            (5, 2, 0x40, 0, 20),
        ];
        for (parent, function, site, flags, insns) in nodes {
            c.parent.push(parent);
            c.function.push(function);
            c.call_site.push(site);
            c.flags.push(flags);
            c.calls.push(u64::from(parent != 0 || site != 0));
            c.self_cost.push(insns);
        }
        let f = |name: &str, s: u64, i: u64, calls: u64| FunctionRow {
            name: name.into(),
            object: "/t".into(),
            calls,
            self_cost: vec![s],
            inclusive: vec![i],
            ..FunctionRow::default()
        };
        Profile {
            meta: Meta::default(),
            metrics: vec!["instructions".into()],
            totals: vec![175],
            functions: vec![
                f("_start", 5, 112, 1),
                f("main", 7, 107, 1),
                f("work", 160, 160, 3),
                f("clone", 3, 63, 1),
            ],
            contexts: c,
            ..Profile::default()
        }
    }

    #[test]
    fn one_row_per_thread_summing_to_the_total() {
        let p = two_threads();
        let t = thread_totals(&p);
        assert_eq!(
            t.iter()
                .map(|r| (r.tid, r.root.as_str(), r.cost[0]))
                .collect::<Vec<_>>(),
            [(1000, "_start", 112), (1001, "clone", 63)]
        );
        assert_eq!(t.iter().map(|r| r.cost[0]).sum::<u64>(), p.totals[0]);
        let text = report_threads(&p, &FunctionReportOptions::default()).unwrap();
        assert!(text.contains("Threads: 2 of 2"), "{text}");
        let json = report_threads(
            &p,
            &FunctionReportOptions {
                format: ReportFormat::Json,
                sort_by: Some("instructions".into()),
                top: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["rows"][0]["tid"], 1000);
        assert_eq!(v["rows"][0]["cost"]["instructions"], 112);
        assert_eq!(v["rows"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn restricting_keeps_one_thread_and_recomputes_functions() {
        let p = restrict_to_thread(&two_threads(), 1001).unwrap();
        p.validate().unwrap();
        assert_eq!(p.totals, [63]);
        assert_eq!(p.contexts.len(), 4);
        let rows: Vec<(&str, u64, u64, u64)> = p
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.calls, f.self_cost[0], f.inclusive[0]))
            .collect();
        // work is counted once under its own recursion.
        assert_eq!(rows, [("work", 2, 60, 60), ("clone", 1, 3, 63)]);
        let e = restrict_to_thread(&two_threads(), 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid option: --thread 7: no such thread in the profile (threads: 1000, 1001)"
        );
    }
}
