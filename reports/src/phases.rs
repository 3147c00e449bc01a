//! `pathvm report --phases`, `report --phase NAME` and `diff --phase NAME`:
//! the totals of the phases a run marked with `PATHVM_PHASE`
//! (`include/pathvm.h`; see [`crate::Phase`]).
//!
//! Phases have totals only: the function view, the contexts and the exports
//! are of the whole run.

use serde::Serialize;

use crate::error::ReportError;
use crate::functions::ReportFormat;
use crate::metric::{to_json, totals_line, CostMap, Selection};
use crate::profile::{Phase, Profile};
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

/// The phases of a profile with their totals and share of the run's total,
/// in order of first appearance; only `phase` when given.
///
/// JSON is a contract: `{"metrics": [...], "totals": {metric: n},
/// "phases": [{"phase": name, "totals": {metric: n}}]}` with the metric maps
/// in the order of `"metrics"`.
///
/// Fails with [`ReportError::UnknownPhase`] when the profile has no phase
/// `phase`, and as the other views on unknown metrics.
pub fn report_phases(
    profile: &Profile,
    phase: Option<&str>,
    metrics: &[String],
    format: ReportFormat,
) -> Result<String, ReportError> {
    let sel = Selection::new(profile, metrics, None)?;
    let phases: Vec<&Phase> = match phase {
        Some(name) => vec![find_phase(profile, name)?],
        None => profile.phases.iter().collect(),
    };
    match format {
        ReportFormat::Json => Ok(to_json(&PhasesJson {
            metrics: &sel.names,
            totals: sel.map(&profile.totals),
            phases: phases
                .iter()
                .map(|p| PhaseJson {
                    phase: &p.name,
                    totals: sel.map(&p.totals),
                })
                .collect(),
        })),
        ReportFormat::Text => {
            let mut out = totals_line(&sel, &profile.totals);
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
            Ok(out)
        }
    }
}

/// The profile of one phase, for `diff --phase` and `check`: its totals,
/// no function rows, no contexts, that phase alone.
pub fn phase_profile(profile: &Profile, name: &str) -> Result<Profile, ReportError> {
    profile.validate().map_err(ReportError::InvalidProfile)?;
    let phase = find_phase(profile, name)?;
    Ok(Profile {
        meta: profile.meta.clone(),
        metrics: profile.metrics.clone(),
        totals: phase.totals.clone(),
        functions: Vec::new(),
        contexts: Default::default(),
        phases: vec![phase.clone()],
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
            report_phases(&p, None, &[], ReportFormat::Text).unwrap(),
            "Totals: instructions 270, l1d-miss 33
Phases: 2 of 2

instructions       %  l1d-miss       %  phase
          70  25.93%         3   9.09%  main
         200  74.07%        30  90.91%  work
"
        );
        assert_eq!(
            report_phases(&p, Some("work"), &["l1d-miss".into()], ReportFormat::Json).unwrap(),
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
      }
    }
  ]
}
"#
        );
    }

    #[test]
    fn unknown_phase() {
        let p = phased_profile();
        let err = report_phases(&p, Some("parse"), &[], ReportFormat::Text).unwrap_err();
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
        let main = crate::diff(
            &phase_profile(&old, "main").unwrap(),
            &phase_profile(&new, "main").unwrap(),
            &opts,
        )
        .unwrap();
        assert!(!main.regressed, "{}", main.text);
    }
}
