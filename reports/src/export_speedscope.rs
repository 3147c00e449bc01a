//! `pathvm export --format speedscope`: the profile as a speedscope file
//! (<https://www.speedscope.app/file-format-schema.json>).
//!
//! One `"sampled"` profile per metric (or only the metric asked for), in
//! metric order, named after the metric, with unit `"bytes"` for
//! `alloc-bytes` and `"none"` for the others (counts, not time). Frames are shared by all profiles: one per function row, in
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
//!
//! The samples and weights are written as they are walked, never gathered:
//! the export of a profile of a million contexts and twelve metrics needs
//! no more memory than the profile itself.

use std::io::{self, Write};

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use crate::export::{
    context_stack, export_columns, frame_of, ExportError, ROOT_NAME, THREAD_NAME, UNKNOWN_NAME,
};
use crate::profile::Profile;

/// The `$schema` of every speedscope file.
pub const SPEEDSCOPE_SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

#[derive(Serialize)]
struct File<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    shared: Shared<'a>,
    profiles: Vec<SampledProfile<'a>>,
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
struct SampledProfile<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    unit: &'static str,
    #[serde(rename = "startValue")]
    start_value: u64,
    #[serde(rename = "endValue")]
    end_value: u64,
    samples: Column<'a, true>,
    weights: Column<'a, false>,
}

/// One metric's samples (`STACKS`) or weights, serialized as the profile
/// is walked: a sample per context (or per function, without contexts)
/// with a nonzero self cost of the metric.
struct Column<'a, const STACKS: bool> {
    profile: &'a Profile,
    col: usize,
}

impl<const STACKS: bool> Column<'_, STACKS> {
    /// The sample's frame indices, or its weight, for each sample in order.
    fn each(&self, mut emit: impl FnMut(&[usize], u64)) {
        let p = self.profile;
        let c = &p.contexts;
        let m = p.metrics.len();
        if c.is_empty() {
            for (i, f) in p.functions.iter().enumerate() {
                if f.self_cost[self.col] != 0 {
                    emit(&[i], f.self_cost[self.col]);
                }
            }
            return;
        }
        let mut stack = Vec::new();
        let mut frames = Vec::new();
        for node in 0..c.len() {
            let w = c.self_cost[node * m + self.col];
            if w == 0 {
                continue;
            }
            if STACKS {
                context_stack(c, node, &mut stack);
                frames.clear();
                frames.extend(stack.iter().map(|&n| frame_of(p, n)));
            }
            emit(&frames, w);
        }
    }
}

impl<const STACKS: bool> Serialize for Column<'_, STACKS> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        self.each(|frames, weight| {
            if failed.is_some() {
                return;
            }
            let r = if STACKS {
                seq.serialize_element(frames)
            } else {
                seq.serialize_element(&weight)
            };
            if let Err(e) = r {
                failed = Some(e);
            }
        });
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
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
    let profiles = cols
        .iter()
        .map(|&col| {
            let weights = Column::<false> { profile, col };
            let mut end_value = 0u64;
            weights.each(|_, w| end_value = end_value.saturating_add(w));
            SampledProfile {
                kind: "sampled",
                name: profile.metrics[col].clone(),
                unit: if profile.metrics[col] == "alloc-bytes" {
                    "bytes"
                } else {
                    "none"
                },
                start_value: 0,
                end_value,
                samples: Column { profile, col },
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
    use crate::profile::ContextTable;
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
            let unit = if p["name"] == "alloc-bytes" {
                "bytes"
            } else {
                "none"
            };
            assert_eq!(p["unit"], unit);
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
    fn allocated_bytes_have_the_unit_bytes() {
        let mut p = tiny_profile();
        p.metrics[1] = "alloc-bytes".into();
        let v = speedscope(&p, None);
        check_schema(&v);
        assert_eq!(v["profiles"][0]["unit"], "none");
        assert_eq!(v["profiles"][1]["unit"], "bytes");
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
