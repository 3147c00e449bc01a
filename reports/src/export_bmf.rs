//! `pathvm export --format bmf`: the Bencher Metric Format, the JSON that
//! Bencher's `json` adapter reads (`bencher run --adapter json --file F`).
//!
//! The format is an object of benchmarks, each an object of measures, each
//! `{"value": number}` (`lower_value` and `upper_value` are optional and
//! meaningless for deterministic counts, so never written). Here every
//! phase of the profile (`PATHVM_PHASE`, a harness's benchmarks) is a
//! benchmark, with every metric as a measure named as pathvm names it
//! (`instructions`, `l1d-miss`, ...: lower-case with hyphens, as Bencher's
//! slugs). A profile without markers has only its implicit phase `main`:
//! the benchmark is then named after the program (its file name).

use std::io::Write;

use serde::Serialize;

use crate::error::ReportError;
use crate::export::ExportError;
use crate::metric::OrderedMap;
use crate::profile::{file_name, Profile};

/// The longest benchmark name Bencher accepts.
pub const BMF_MAX_BENCHMARK_NAME: usize = 1024;
/// The longest measure name Bencher accepts.
pub const BMF_MAX_MEASURE_NAME: usize = 64;

#[derive(Serialize)]
struct Value {
    value: u64,
}

/// The benchmark names of a profile and their totals (one per phase; see
/// the module documentation).
pub fn bmf_benchmarks(profile: &Profile) -> Vec<(String, &[u64])> {
    match profile.phases.as_slice() {
        [only] if only.name == "main" => {
            let program = profile
                .meta
                .command
                .first()
                .map_or("main", |c| file_name(c));
            vec![(program.to_string(), profile.totals.as_slice())]
        }
        [] => vec![("main".to_string(), profile.totals.as_slice())],
        phases => phases
            .iter()
            .map(|p| (p.name.clone(), p.totals.as_slice()))
            .collect(),
    }
}

/// Writes the profile as Bencher Metric Format JSON: one benchmark per
/// phase, every metric a measure, in the profile's order.
///
/// Fails with [`ReportError::InvalidProfile`] on an inconsistent profile,
/// [`ReportError::InvalidOption`] when a name is longer than Bencher takes,
/// and [`ExportError::Io`] when writing fails.
pub fn export_bmf(profile: &Profile, out: &mut dyn Write) -> Result<(), ExportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    if let Some(m) = profile
        .metrics
        .iter()
        .find(|m| m.len() > BMF_MAX_MEASURE_NAME)
    {
        return Err(ReportError::InvalidOption(format!(
            "metric `{m}` is longer than a Bencher measure name ({BMF_MAX_MEASURE_NAME} bytes)"
        ))
        .into());
    }
    let benchmarks = bmf_benchmarks(profile);
    if let Some((name, _)) = benchmarks
        .iter()
        .find(|(n, _)| n.is_empty() || n.len() > BMF_MAX_BENCHMARK_NAME)
    {
        return Err(ReportError::InvalidOption(format!(
            "phase `{name}` cannot be a Bencher benchmark name (1 to {BMF_MAX_BENCHMARK_NAME} bytes)"
        ))
        .into());
    }
    let doc = OrderedMap(
        benchmarks
            .into_iter()
            .map(|(name, totals)| {
                let measures = OrderedMap(
                    profile
                        .metrics
                        .iter()
                        .zip(totals)
                        .map(|(m, &v)| (m.as_str(), Value { value: v }))
                        .collect(),
                );
                (name, measures)
            })
            .collect(),
    );
    let mut text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::other)?;
    text.push('\n');
    out.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::{phased_profile, tiny_profile};

    #[test]
    fn one_benchmark_per_phase_every_metric() {
        let mut buf = Vec::new();
        export_bmf(&phased_profile(), &mut buf).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            r#"{
  "main": {
    "instructions": {
      "value": 70
    },
    "l1d-miss": {
      "value": 3
    }
  },
  "work": {
    "instructions": {
      "value": 200
    },
    "l1d-miss": {
      "value": 30
    }
  }
}
"#
        );
    }

    #[test]
    fn without_markers_the_program_names_it() {
        let mut p = tiny_profile();
        p.phases = vec![crate::Phase {
            name: "main".into(),
            totals: p.totals.clone(),
            functions: Vec::new(),
        }];
        let mut buf = Vec::new();
        export_bmf(&p, &mut buf).unwrap();
        let j: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(j["tiny"]["instructions"]["value"], 270);
        let mut long = phased_profile();
        long.phases[1].name = "x".repeat(1025);
        let err = export_bmf(&long, &mut Vec::new()).unwrap_err().to_string();
        assert!(err.contains("cannot be a Bencher benchmark name"), "{err}");
    }
}
