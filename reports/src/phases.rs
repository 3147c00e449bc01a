//! `pathvm report --phases`, `report --phase NAME` and `diff --phase NAME`:
//! the totals of the phases a run marked with `PATHVM_PHASE`
//! (`include/pathvm.h`; see [`crate::Phase`]).
//!
//! Phases have totals and the self cost of each function; calls, inclusive
//! costs, the contexts and the exports are of the whole run.

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::source_position;
use crate::functions::ReportFormat;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{file_name, FunctionRow, Phase, PhaseFunction, Profile};
use crate::table::{count, pct, percent_of, Align, Table};

#[derive(Serialize)]
struct PhasesJson<'a> {
    metrics: &'a [String],
    totals: CostMap<'a>,
    phases: Vec<PhaseJson<'a>>,
}

#[derive(Serialize)]
struct PhaseJson<'a> {
    phase: &'a str,
    totals: CostMap<'a>,
    functions: Vec<PhaseFunctionJson<'a>>,
}

#[derive(Serialize)]
struct PhaseFunctionJson<'a> {
    function: &'a str,
    object: &'a str,
    file: Option<&'a str>,
    line: Option<u32>,
    #[serde(rename = "self")]
    self_cost: CostMap<'a>,
}

/// Options of [`report_phases`].
#[derive(Clone, Debug, Default)]
pub struct PhaseReportOptions {
    /// One phase (with its functions in text), or every phase (totals only
    /// in text) when `None`.
    pub phase: Option<String>,
    /// Metrics to show, in this order; empty shows every metric.
    pub metrics: Vec<String>,
    /// Metric whose self cost orders the function rows; `None` is the first shown.
    pub sort_by: Option<String>,
    /// Only this many function rows per phase.
    pub top: Option<usize>,
    /// Text or JSON.
    pub format: ReportFormat,
}

/// The phase named `name`, or [`ReportError::UnknownPhase`] listing them.
pub fn find_phase<'a>(profile: &'a Profile, name: &str) -> Result<&'a Phase, ReportError> {
    profile
        .phase(name)
        .ok_or_else(|| ReportError::UnknownPhase {
            name: name.to_string(),
            available: profile.phases.iter().map(|p| p.name.clone()).collect(),
        })
}

/// The function rows of a phase by self cost of column `sort` descending,
/// then name, then object, then profile order.
fn rows_by_self<'a>(profile: &Profile, phase: &'a Phase, sort: usize) -> Vec<&'a PhaseFunction> {
    let mut rows: Vec<&PhaseFunction> = phase.functions.iter().collect();
    let f = &profile.functions;
    rows.sort_by(|x, y| {
        let (fx, fy) = (&f[x.function as usize], &f[y.function as usize]);
        y.self_cost[sort]
            .cmp(&x.self_cost[sort])
            .then_with(|| fx.name.cmp(&fy.name))
            .then_with(|| fx.object.cmp(&fy.object))
            .then(x.function.cmp(&y.function))
    });
    rows
}

/// The phases of a profile with their totals and their share of the run's
/// total, in order of first appearance, or only `opts.phase`; the text of
/// one phase also lists the self cost of its functions (and their share of
/// the phase's total).
///
/// JSON is a contract: `{"metrics": [...], "totals": {metric: n},
/// "phases": [{"phase": name, "totals": {metric: n}, "functions":
/// [{"function", "object", "file", "line", "self": {metric: n}}]}]}` with
/// the metric maps in the order of `"metrics"` and the functions by self
/// cost (at most `top` of them).
///
/// Fails with [`ReportError::UnknownPhase`] when the profile has no phase
/// `opts.phase`, and as the other views on unknown metrics.
pub fn report_phases(profile: &Profile, opts: &PhaseReportOptions) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    let phases: Vec<&Phase> = match &opts.phase {
        Some(name) => vec![find_phase(profile, name)?],
        None => profile.phases.iter().collect(),
    };
    let rows = |p: &'_ Phase| -> Vec<usize> {
        let mut order: Vec<usize> = rows_by_self(profile, p, sel.sort)
            .iter()
            .map(|r| r.function as usize)
            .collect();
        if let Some(top) = opts.top {
            order.truncate(top);
        }
        order
    };
    match opts.format {
        ReportFormat::Json => Ok(to_json(&PhasesJson {
            metrics: &sel.names,
            totals: sel.map(&profile.totals),
            phases: phases
                .iter()
                .map(|p| PhaseJson {
                    phase: &p.name,
                    totals: sel.map(&p.totals),
                    functions: rows_by_self(profile, p, sel.sort)
                        .into_iter()
                        .take(opts.top.unwrap_or(usize::MAX))
                        .map(|r| {
                            let f = &profile.functions[r.function as usize];
                            PhaseFunctionJson {
                                function: &f.name,
                                object: &f.object,
                                file: f.file.as_deref(),
                                line: f.line,
                                self_cost: sel.map(&r.self_cost),
                            }
                        })
                        .collect(),
                })
                .collect(),
        })),
        ReportFormat::Text => {
            let mut out = totals_line(&sel, &profile.totals, &profile.meta.cpu_model);
            out.push_str(&format!(
                "Phases: {} of {}\n\n",
                phases.len(),
                profile.phases.len()
            ));
            let mut table = Table::new();
            for name in &sel.names {
                table
                    .column(name.clone(), Align::Right)
                    .column("%", Align::Right);
            }
            table.column("phase", Align::Left);
            for p in &phases {
                let mut cells = Vec::new();
                for &c in &sel.cols {
                    cells.push(count(p.totals[c]));
                    cells.push(pct(percent_of(p.totals[c], profile.totals[c])));
                }
                cells.push(p.name.clone());
                table.row(cells);
            }
            table.render_text(&mut out);
            if let [p] = phases[..] {
                if opts.phase.is_some() {
                    let order = rows(p);
                    out.push_str(&format!(
                        "\nFunctions of phase {}: {} of {}, by self {}\n\n",
                        p.name,
                        order.len(),
                        p.functions.len(),
                        profile.metrics[sel.sort]
                    ));
                    let by_function: Vec<Option<&PhaseFunction>> = {
                        let mut v = vec![None; profile.functions.len()];
                        for r in &p.functions {
                            v[r.function as usize] = Some(r);
                        }
                        v
                    };
                    let mut table = Table::new();
                    for name in &sel.names {
                        table
                            .column(format!("self {name}"), Align::Right)
                            .column("self %", Align::Right);
                    }
                    table
                        .column("function", Align::Left)
                        .column("file:line", Align::Left)
                        .column("object", Align::Left);
                    for i in order {
                        let (f, r) = (&profile.functions[i], by_function[i].expect("a row"));
                        let mut cells = Vec::new();
                        for &c in &sel.cols {
                            cells.push(count(r.self_cost[c]));
                            cells.push(pct(percent_of(r.self_cost[c], p.totals[c])));
                        }
                        cells.push(f.name.clone());
                        cells.push(source_position(f.file.as_deref(), f.line));
                        cells.push(file_name(&f.object).to_string());
                        table.row(cells);
                    }
                    table.render_text(&mut out);
                }
            }
            Ok(out)
        }
    }
}

/// The profile of one phase, for `diff --phase`: its totals, each
/// function with its self cost in the phase (no inclusive cost, no calls:
/// zero), no contexts, that phase alone.
pub fn phase_profile(profile: &Profile, name: &str) -> Result<Profile, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    let phase = find_phase(profile, name)?;
    let m = profile.metrics.len();
    let mut functions: Vec<FunctionRow> = profile
        .functions
        .iter()
        .map(|f| FunctionRow {
            calls: 0,
            self_cost: vec![0; m],
            inclusive: vec![0; m],
            ..f.clone()
        })
        .collect();
    for r in &phase.functions {
        functions[r.function as usize].self_cost = r.self_cost.clone();
    }
    Ok(Profile {
        meta: profile.meta.clone(),
        metrics: profile.metrics.clone(),
        totals: phase.totals.clone(),
        functions,
        contexts: Default::default(),
        paths: Default::default(),
        phases: vec![phase.clone()],
        blocks: Default::default(),
        insns: Default::default(),
        inlines: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::phased_profile;

    #[test]
    fn text_and_json() {
        let p = phased_profile();
        assert_eq!(
            report_phases(&p, &PhaseReportOptions::default()).unwrap(),
            "Totals: instructions 270, l1d-miss 33
Phases: 2 of 2

instructions       %  l1d-miss       %  phase
          70  25.93%         3   9.09%  main
         200  74.07%        30  90.91%  work
"
        );
        assert_eq!(
            report_phases(
                &p,
                &PhaseReportOptions {
                    phase: Some("work".into()),
                    metrics: vec!["l1d-miss".into()],
                    format: ReportFormat::Json,
                    ..Default::default()
                }
            )
            .unwrap(),
            r#"{
  "metrics": [
    "l1d-miss"
  ],
  "totals": {
    "l1d-miss": 33
  },
  "phases": [
    {
      "phase": "work",
      "totals": {
        "l1d-miss": 30
      },
      "functions": [
        {
          "function": "c",
          "object": "/work/tiny",
          "file": "tiny.c",
          "line": 30,
          "self": {
            "l1d-miss": 30
          }
        }
      ]
    }
  ]
}
"#
        );
    }

    #[test]
    fn one_phase_lists_its_functions() {
        let p = phased_profile();
        let opts = PhaseReportOptions {
            phase: Some("main".into()),
            top: Some(2),
            ..Default::default()
        };
        assert_eq!(
            report_phases(&p, &opts).unwrap(),
            "Totals: instructions 270, l1d-miss 33
Phases: 1 of 2

instructions       %  l1d-miss      %  phase
          70  25.93%         3  9.09%  main

Functions of phase main: 2 of 3, by self instructions

self instructions  self %  self l1d-miss  self %  function  file:line  object
               40  57.14%              0   0.00%  b         tiny.c:20  tiny
               20  28.57%              2  66.67%  a         tiny.c:10  tiny
"
        );
    }

    #[test]
    fn unknown_phase() {
        let p = phased_profile();
        let opts = PhaseReportOptions {
            phase: Some("parse".into()),
            ..Default::default()
        };
        let err = report_phases(&p, &opts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown phase `parse`; available: main, work"
        );
        let err = phase_profile(&crate::testdata::tiny_profile(), "main").unwrap_err();
        assert_eq!(err.to_string(), "unknown phase `main`; available: none");
    }

    #[test]
    fn diff_of_phases() {
        let old = phased_profile();
        let mut new = phased_profile();
        new.phases[1].totals = vec![220, 30];
        new.phases[1].functions[0].self_cost = vec![220, 30];
        new.totals = vec![290, 33];
        let opts = crate::DiffOptions {
            fail_on: vec!["instructions:5".parse().unwrap()],
            ..Default::default()
        };
        let work = crate::diff(
            &phase_profile(&old, "work").unwrap(),
            &phase_profile(&new, "work").unwrap(),
            &opts,
        )
        .unwrap();
        assert!(work.regressed, "{}", work.text);
        assert!(work.text.contains("200"), "{}", work.text);
        assert!(work.text.contains("220"), "{}", work.text);
        // Rows are the phase's functions: c grew in "work".
        assert!(work.text.contains(" c "), "{}", work.text);
        let main = crate::diff(
            &phase_profile(&old, "main").unwrap(),
            &phase_profile(&new, "main").unwrap(),
            &opts,
        )
        .unwrap();
        assert!(!main.regressed, "{}", main.text);
    }
}
