//! `pathvm run --json-summary FILE`: the totals and top functions as JSON,
//! for scripts that do not want to read profiles.

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::{functions_by_self, FunctionJson};
use crate::metric::{to_json, CostMap, Selection};
use crate::profile::Profile;

#[derive(Serialize)]
struct SummaryJson<'a> {
    pathvm_version: &'a str,
    command: &'a [String],
    cpu_model: &'a str,
    stop: &'a str,
    exit_status: i32,
    metrics: &'a [String],
    totals: CostMap<'a>,
    top: Vec<FunctionJson<'a>>,
}

/// The run in brief: `{"pathvm_version", "command", "cpu_model", "stop",
/// "exit_status", "metrics", "totals": {metric: n}, "top": [rows]}` where
/// `top` holds the `top` functions of highest self cost of the first metric
/// as rows of the function view ([`crate::report_functions`]), every metric
/// included.
pub fn json_summary(profile: &Profile, top: usize) -> Result<String, ReportError> {
    let sel = Selection::new(profile, &[], None)?;
    let mut order = functions_by_self(profile, sel.sort);
    order.truncate(top);
    Ok(to_json(&SummaryJson {
        pathvm_version: &profile.meta.pathvm_version,
        command: &profile.meta.command,
        cpu_model: &profile.meta.cpu_model,
        stop: &profile.meta.stop,
        exit_status: profile.meta.exit_status,
        metrics: &sel.names,
        totals: sel.map(&profile.totals),
        top: order
            .iter()
            .map(|&i| FunctionJson::of(&sel, &profile.functions[i]))
            .collect(),
    }))
}

/// The run in one line: the `n` functions of highest self instructions,
/// as `name 12.3%` (of `total` instructions), in the order of the function
/// view (ties by name).
pub fn top_functions(profile: &Profile, n: usize, total: u64) -> String {
    let total = total.max(1) as f64;
    let order = functions_by_self(profile, 0);
    let tops: Vec<String> = order
        .iter()
        .take(n)
        .map(|&i| {
            let r = &profile.functions[i];
            format!("{} {:.1}%", r.name, r.self_cost[0] as f64 * 100.0 / total)
        })
        .collect();
    tops.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    #[test]
    fn golden() {
        assert_eq!(
            json_summary(&tiny_profile(), 1).unwrap(),
            r#"{
  "pathvm_version": "0.1.0",
  "command": [
    "./tiny",
    "7"
  ],
  "cpu_model": "haswell-noavx",
  "stop": "exited with status 0",
  "exit_status": 0,
  "metrics": [
    "instructions",
    "l1d-miss"
  ],
  "totals": {
    "instructions": 270,
    "l1d-miss": 33
  },
  "top": [
    {
      "function": "c",
      "object": "/work/tiny",
      "file": "tiny.c",
      "line": 30,
      "calls": 6,
      "self": {
        "instructions": 200,
        "l1d-miss": 30
      },
      "inclusive": {
        "instructions": 200,
        "l1d-miss": 30
      }
    }
  ]
}
"#
        );
        let all: serde_json::Value =
            serde_json::from_str(&json_summary(&tiny_profile(), 10).unwrap()).unwrap();
        assert_eq!(all["top"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn top_functions_line() {
        // c: 200 of 270 instructions self, b: 40.
        assert_eq!(top_functions(&tiny_profile(), 2, 270), "c 74.1%, b 14.8%");
    }
}
