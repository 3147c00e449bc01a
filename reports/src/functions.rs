//! `pathvm report --by function`: the flat profile.

use serde::Serialize;

use crate::error::ReportError;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{file_name, FunctionRow, Profile};
use crate::table::{count, hidden_note, more_rows, pct, percent_of, Align, Fit, Table};

/// Output format of the report views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// An aligned table for people.
    #[default]
    Text,
    /// JSON for scripts (a contract: see each view).
    Json,
}

/// Options of [`report_functions`].
#[derive(Clone, Debug, Default)]
pub struct FunctionReportOptions {
    /// Metrics to show, in this order; empty shows every metric of the profile.
    pub metrics: Vec<String>,
    /// Metric whose self cost orders the rows; `None` is the first shown metric.
    pub sort_by: Option<String>,
    /// Show only this many rows; `None` shows every function.
    pub top: Option<usize>,
    /// Text or JSON.
    pub format: ReportFormat,
    /// Text: the widest a line may be (`None`: no limit). Names are
    /// shortened in the middle and the least telling columns hidden, with a
    /// note saying which.
    pub width: Option<usize>,
}

/// The fields of a function in every JSON view (the context views add
/// `stack`). Field order is part of the contract.
#[derive(Serialize)]
pub(crate) struct FunctionJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<Vec<&'a str>>,
    pub function: &'a str,
    pub object: &'a str,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    pub calls: u64,
    #[serde(rename = "self")]
    pub self_cost: CostMap<'a>,
    pub inclusive: CostMap<'a>,
}

impl<'a> FunctionJson<'a> {
    pub(crate) fn of(sel: &'a Selection, f: &'a FunctionRow) -> FunctionJson<'a> {
        FunctionJson {
            stack: None,
            function: &f.name,
            object: &f.object,
            file: f.file.as_deref(),
            line: f.line,
            calls: f.calls,
            self_cost: sel.map(&f.self_cost),
            inclusive: sel.map(&f.inclusive),
        }
    }
}

/// The JSON document of the function view.
#[derive(Serialize)]
pub(crate) struct FunctionsJson<'a> {
    pub metrics: &'a [String],
    pub totals: CostMap<'a>,
    pub rows: Vec<FunctionJson<'a>>,
}

/// Indices of `profile.functions` by self cost of column `sort`
/// descending, then name, then object: the same order on every run.
pub(crate) fn functions_by_self(profile: &Profile, sort: usize) -> Vec<usize> {
    let f = &profile.functions;
    let mut order: Vec<usize> = (0..f.len()).collect();
    order.sort_by(|&x, &y| {
        f[y].self_cost[sort]
            .cmp(&f[x].self_cost[sort])
            .then_with(|| f[x].name.cmp(&f[y].name))
            .then_with(|| f[x].object.cmp(&f[y].object))
            .then(x.cmp(&y))
    });
    order
}

/// `file:line`, `file`, or empty.
pub(crate) fn source_position(file: Option<&str>, line: Option<u32>) -> String {
    match (file, line) {
        (Some(f), Some(l)) => format!("{f}:{l}"),
        (Some(f), None) => f.to_string(),
        _ => String::new(),
    }
}

/// The flat profile: one row per function with self cost, its share of the
/// total, inclusive cost and calls, sorted by the self cost of the sort
/// metric (descending), ties by name.
///
/// JSON (`format: Json`) is a contract:
/// `{"metrics": [...], "totals": {metric: n}, "rows": [{"function",
/// "object", "file", "line", "calls", "self": {metric: n}, "inclusive":
/// {metric: n}}]}` with the metric maps in the order of `"metrics"`,
/// `file` and `line` `null` when unknown, and every function when `top` is
/// `None`.
///
/// Fails with [`ReportError::UnknownMetric`] (listing the available ones)
/// when a metric named in the options is not in the profile.
pub fn report_functions(
    profile: &Profile,
    opts: &FunctionReportOptions,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &opts.metrics, opts.sort_by.as_deref())?;
    let mut order = functions_by_self(profile, sel.sort);
    let all = order.len();
    if let Some(top) = opts.top {
        order.truncate(top);
    }
    match opts.format {
        ReportFormat::Json => Ok(to_json(&FunctionsJson {
            metrics: &sel.names,
            totals: sel.map(&profile.totals),
            rows: order
                .iter()
                .map(|&i| FunctionJson::of(&sel, &profile.functions[i]))
                .collect(),
        })),
        ReportFormat::Text => {
            let mut out = totals_line(&sel, &profile.totals, &profile.meta.cpu_model);
            out.push_str(&format!(
                "Functions: {} of {all}, by self {}{}\n\n",
                order.len(),
                profile.metrics[sel.sort],
                more_rows(order.len(), all)
            ));
            let mut table = Table::new();
            table.column("function", Align::Left).fit(Fit::Shrink);
            table.metric_columns(&sel.names, ["self", "%", "incl"]);
            table
                .column("calls", Align::Right)
                .column("file:line", Align::Left)
                .fit(Fit::Drop(4))
                .column("object", Align::Left)
                .fit(Fit::Drop(5));
            for &i in &order {
                let f = &profile.functions[i];
                let mut cells = vec![f.name.clone()];
                for &c in &sel.cols {
                    cells.push(count(f.self_cost[c]));
                    cells.push(pct(percent_of(f.self_cost[c], profile.totals[c])));
                    cells.push(count(f.inclusive[c]));
                }
                cells.push(count(f.calls));
                cells.push(source_position(f.file.as_deref(), f.line));
                cells.push(file_name(&f.object).to_string());
                table.row(cells);
            }
            let hidden = table.render_text_fit(&mut out, opts.width);
            out.push_str(&hidden_note(&hidden, opts.width));
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    #[test]
    fn json_is_the_contract() {
        let opts = FunctionReportOptions {
            metrics: vec!["l1d-miss".into()],
            sort_by: Some("instructions".into()),
            top: Some(2),
            format: ReportFormat::Json,
            width: None,
        };
        let json = report_functions(&tiny_profile(), &opts).unwrap();
        assert_eq!(
            json,
            r#"{
  "metrics": [
    "l1d-miss"
  ],
  "totals": {
    "l1d-miss": 33
  },
  "rows": [
    {
      "function": "c",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 30,
      "calls": 6,
      "self": {
        "l1d-miss": 30
      },
      "inclusive": {
        "l1d-miss": 30
      }
    },
    {
      "function": "b",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 20,
      "calls": 4,
      "self": {
        "l1d-miss": 0
      },
      "inclusive": {
        "l1d-miss": 20
      }
    }
  ]
}
"#
        );
    }

    #[test]
    fn json_has_every_function_without_top_and_metrics_in_order() {
        let mut p = tiny_profile();
        p.functions[0].file = None;
        p.functions[0].line = None;
        let opts = FunctionReportOptions {
            format: ReportFormat::Json,
            ..Default::default()
        };
        let v: serde_json::Value =
            serde_json::from_str(&report_functions(&p, &opts).unwrap()).unwrap();
        let names: Vec<&str> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["function"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["c", "b", "a", "main"]);
        assert_eq!(
            v["metrics"],
            serde_json::json!(["instructions", "l1d-miss"])
        );
        assert_eq!(
            v["totals"],
            serde_json::json!({"instructions": 270, "l1d-miss": 33})
        );
        assert_eq!(v["rows"][3]["file"], serde_json::Value::Null);
        assert_eq!(v["rows"][3]["line"], serde_json::Value::Null);
    }

    #[test]
    fn ties_are_broken_by_name() {
        let mut p = tiny_profile();
        p.functions[1].self_cost[0] = 40; // a ties with b
        let order: Vec<&str> = functions_by_self(&p, 0)
            .iter()
            .map(|&i| p.functions[i].name.as_str())
            .collect();
        assert_eq!(order, ["c", "a", "b", "main"]);
    }

    #[test]
    fn text_table() {
        let opts = FunctionReportOptions {
            metrics: vec!["instructions".into()],
            ..Default::default()
        };
        let text = report_functions(&tiny_profile(), &opts).unwrap();
        assert_eq!(
            text,
            "\
Totals: instructions 270
Functions: 4 of 4, by self instructions

          -- instructions --
function  self       %  incl  calls  file:line  object
c          200  74.07%   200      6  tiny.c:30  tiny
b           40  14.81%   140      4  tiny.c:20  tiny
a           20   7.41%   120      2  tiny.c:10  tiny
main        10   3.70%   270      1  tiny.c:3   tiny
"
        );
        // In 40 columns, with a second metric and the first two rows.
        let opts = FunctionReportOptions {
            metrics: vec!["instructions".into(), "l1d-miss".into()],
            top: Some(2),
            width: Some(40),
            ..Default::default()
        };
        let text = report_functions(&tiny_profile(), &opts).unwrap();
        assert_eq!(
            text,
            "\
Totals: instructions 270, l1d-miss 33
Functions: 2 of 4, by self instructions (--top 0 shows all)

          -- instructions --
function  self       %  incl  calls
c          200  74.07%   200      6
b           40  14.81%   140      4

Hidden to fit 40 columns: self l1d-miss,
% l1d-miss, incl l1d-miss, file:line,
object (--width 0 shows every column)
"
        );
    }

    #[test]
    fn unknown_metric_lists_the_available_ones() {
        let opts = FunctionReportOptions {
            metrics: vec!["cycles".into()],
            ..Default::default()
        };
        let err = report_functions(&tiny_profile(), &opts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
        let opts = FunctionReportOptions {
            sort_by: Some("ILmr".into()),
            ..Default::default()
        };
        assert!(matches!(
            report_functions(&tiny_profile(), &opts),
            Err(ReportError::UnknownMetric { .. })
        ));
    }

    #[test]
    fn inconsistent_profiles_are_errors_not_panics() {
        let mut p = tiny_profile();
        p.functions[2].inclusive.pop();
        assert!(matches!(
            report_functions(&p, &FunctionReportOptions::default()),
            Err(ReportError::InvalidProfile(_))
        ));
        assert_eq!(
            report_functions(&Profile::default(), &FunctionReportOptions::default()),
            Err(ReportError::NoMetrics)
        );
    }
}
