//! `pathvm export --format speedscope`: the profile as a speedscope file
//! (<https://www.speedscope.app/file-format-schema.json>).
//!
//! One `"sampled"` profile per metric (or only the metric asked for), in
//! metric order, named after the metric, with unit `"none"` (counts, not
//! time). Frames are shared by all profiles: one per function row, in
//! profile order, with its name, source file and line when known, then the
//! pseudo-frames `<root>`, `<thread>` and `<unknown>` (as in the folded
//! export). Each context of the calling context tree with a nonzero self
//! cost of the metric is one sample: its stack of frames from the outermost
//! to the context itself, without the root of the tree (which every stack
//! would share), and its self cost as the weight; the root context's own
//! cost (code that ran before any call was seen) is the one-frame stack
//! `<root>`. So the weights of a profile add up to the self costs of all
//! contexts, the profile's total, and `endValue` is that sum. Samples come
//! in context order. A profile without a calling context tree has one
//! one-frame sample per function with a self cost.

use std::io::{self, Write};

use serde::Serialize;

use crate::export::{
    context_stack, export_columns, ExportError, ROOT_NAME, THREAD_NAME, UNKNOWN_NAME,
};
use crate::profile::{ContextTable, Profile};

/// The `$schema` of every speedscope file.
pub const SPEEDSCOPE_SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

#[derive(Serialize)]
struct File<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    shared: Shared<'a>,
    profiles: Vec<SampledProfile>,
    name: String,
    #[serde(rename = "activeProfileIndex")]
    active_profile_index: usize,
    exporter: String,
}

#[derive(Serialize)]
struct Shared<'a> {
    frames: Vec<Frame<'a>>,
}

#[derive(Serialize)]
struct Frame<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
}

#[derive(Serialize)]
struct SampledProfile {
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    unit: &'static str,
    #[serde(rename = "startValue")]
    start_value: u64,
    #[serde(rename = "endValue")]
    end_value: u64,
    samples: Vec<Vec<usize>>,
    weights: Vec<u64>,
}

/// The shared frame index of a context: its function row, or a pseudo-frame
/// after the rows (`<root>`, `<thread>`, `<unknown>`).
fn frame_of(profile: &Profile, node: usize) -> usize {
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

/// Writes `profile` as a speedscope file: one sampled profile per metric,
/// or only `metric`'s when given (see the [module documentation](self)).
///
/// Fails with [`crate::ReportError::UnknownMetric`],
/// [`crate::ReportError::NoMetrics`] or [`crate::ReportError::InvalidProfile`], and [`ExportError::Io`] when writing
/// fails.
pub fn export_speedscope(
    profile: &Profile,
    metric: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let cols = export_columns(profile, metric)?;
    let m = profile.metrics.len();
    let c = &profile.contexts;
    let mut frames: Vec<Frame> = profile
        .functions
        .iter()
        .map(|f| Frame {
            name: &f.name,
            file: f.file.as_deref(),
            line: f.line,
        })
        .collect();
    for name in [ROOT_NAME, THREAD_NAME, UNKNOWN_NAME] {
        frames.push(Frame {
            name,
            file: None,
            line: None,
        });
    }
    let mut stack = Vec::new();
    let profiles = cols
        .iter()
        .map(|&col| {
            let mut samples = Vec::new();
            let mut weights = Vec::new();
            if c.is_empty() {
                for (i, f) in profile.functions.iter().enumerate() {
                    if f.self_cost[col] != 0 {
                        samples.push(vec![i]);
                        weights.push(f.self_cost[col]);
                    }
                }
            } else {
                for node in 0..c.len() {
                    let w = c.self_cost[node * m + col];
                    if w == 0 {
                        continue;
                    }
                    context_stack(c, node, &mut stack);
                    samples.push(stack.iter().map(|&n| frame_of(profile, n)).collect());
                    weights.push(w);
                }
            }
            let end_value = weights.iter().fold(0u64, |s, &w| s.saturating_add(w));
            SampledProfile {
                kind: "sampled",
                name: profile.metrics[col].clone(),
                unit: "none",
                start_value: 0,
                end_value,
                samples,
                weights,
            }
        })
        .collect();
    let command = profile.meta.command.join(" ");
    let file = File {
        schema: SPEEDSCOPE_SCHEMA,
        shared: Shared { frames },
        profiles,
        name: if command.is_empty() {
            "pathvm".into()
        } else {
            format!("pathvm: {command}")
        },
        active_profile_index: 0,
        exporter: if profile.meta.pathvm_version.is_empty() {
            "pathvm".into()
        } else {
            format!("pathvm {}", profile.meta.pathvm_version)
        },
    };
    let mut w = io::BufWriter::new(out);
    serde_json::to_writer(&mut w, &file).map_err(io::Error::from)?;
    writeln!(w)?;
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::testdata::tiny_profile;

    fn speedscope(p: &Profile, metric: Option<&str>) -> Value {
        let mut out = Vec::new();
        export_speedscope(p, metric, &mut out).unwrap();
        assert!(out.ends_with(b"}\n"));
        serde_json::from_slice(&out).unwrap()
    }

    /// The fields the speedscope schema requires, with their types.
    fn check_schema(v: &Value) {
        assert_eq!(v["$schema"], SPEEDSCOPE_SCHEMA);
        let frames = v["shared"]["frames"].as_array().unwrap();
        for f in frames {
            assert!(f["name"].is_string(), "{f}");
        }
        for p in v["profiles"].as_array().unwrap() {
            assert_eq!(p["type"], "sampled");
            assert!(p["name"].is_string());
            assert_eq!(p["unit"], "none");
            assert_eq!(p["startValue"], 0);
            let samples = p["samples"].as_array().unwrap();
            let weights = p["weights"].as_array().unwrap();
            assert_eq!(samples.len(), weights.len());
            for s in samples {
                for i in s.as_array().unwrap() {
                    assert!((i.as_u64().unwrap() as usize) < frames.len());
                }
            }
            let sum: u64 = weights.iter().map(|w| w.as_u64().unwrap()).sum();
            assert_eq!(p["endValue"].as_u64().unwrap(), sum);
        }
    }

    fn stack_names(v: &Value, profile: usize, sample: usize) -> Vec<String> {
        let frames = v["shared"]["frames"].as_array().unwrap();
        v["profiles"][profile]["samples"][sample]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                frames[i.as_u64().unwrap() as usize]["name"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn one_profile_per_metric_weights_add_up_to_the_totals() {
        let p = tiny_profile();
        let v = speedscope(&p, None);
        check_schema(&v);
        let profiles = v["profiles"].as_array().unwrap();
        assert_eq!(profiles.len(), 2);
        for (k, prof) in profiles.iter().enumerate() {
            assert_eq!(prof["name"], p.metrics[k].as_str());
            assert_eq!(prof["endValue"].as_u64(), Some(p.totals[k]));
        }
        // Frames: functions with file and line, then the pseudo-frames.
        assert_eq!(
            v["shared"]["frames"][3],
            serde_json::json!({"name": "c", "file": "tiny.c", "line": 30})
        );
        assert_eq!(
            v["shared"]["frames"][4],
            serde_json::json!({"name": "<root>"})
        );
        // instructions: every context but the root, in context order.
        assert_eq!(
            profiles[0]["weights"],
            serde_json::json!([10, 20, 100, 40, 100])
        );
        assert_eq!(stack_names(&v, 0, 2), ["main", "a", "c"]);
        assert_eq!(stack_names(&v, 0, 4), ["main", "b", "c"]);
        // l1d-miss: b has none, so its sample is left out.
        assert_eq!(profiles[1]["weights"], serde_json::json!([1, 2, 10, 20]));
        assert_eq!(stack_names(&v, 1, 3), ["main", "b", "c"]);
        assert_eq!(v["name"], "pathvm: ./tiny 7");
        assert_eq!(v["exporter"], "pathvm 0.1.0");
    }

    #[test]
    fn chosen_metric_and_root_cost() {
        let mut p = tiny_profile();
        p.contexts.self_cost[0] = 5; // code run in the root context
        p.totals[0] += 5;
        let v = speedscope(&p, Some("instructions"));
        check_schema(&v);
        assert_eq!(v["profiles"].as_array().unwrap().len(), 1);
        assert_eq!(v["profiles"][0]["endValue"], 275);
        assert_eq!(stack_names(&v, 0, 0), ["<root>"]);
        let err = export_speedscope(&p, Some("cycles"), &mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
        let err = export_speedscope(&Profile::default(), None, &mut Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "the profile has no metrics");
    }

    #[test]
    fn without_contexts_one_frame_per_function() {
        let mut p = tiny_profile();
        p.contexts = ContextTable::default();
        let v = speedscope(&p, None);
        check_schema(&v);
        assert_eq!(
            v["profiles"][0]["weights"],
            serde_json::json!([10, 20, 40, 200])
        );
        assert_eq!(stack_names(&v, 0, 3), ["c"]);
        assert_eq!(v["profiles"][0]["endValue"], 270);
    }
}
