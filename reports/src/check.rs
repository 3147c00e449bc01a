//! `pathvm check --baseline FILE`: a fresh profile against a committed
//! baseline, with limits per metric, for CI scripts.
//!
//! # Limits
//!
//! Each metric can have three limits; a metric fails when it passes any
//! limit that is set (gungraun's soft limit is `relative`, its hard limit
//! `max`), and the check fails when any metric fails. A decrease never
//! fails.
//!
//! - `relative`: the largest increase allowed, in percent of the baseline
//!   (a rise from a baseline of 0 always passes it);
//! - `absolute`: the largest increase allowed, in counts;
//! - `max`: the largest value allowed, whatever the baseline.
//!
//! In a TOML file ([`Limits::parse`]), one table per metric:
//!
//! ```toml
//! [limits.instructions]
//! relative = 2.0    # percent
//! absolute = 1000   # optional
//!
//! [limits.l1d-miss]
//! max = 50000
//! ```
//!
//! On the command line ([`Limits::from_cli`]), `--limit METRIC:SPEC[,SPEC]`
//! where a SPEC is `N%` (relative), `+N` or `N` (absolute) or `max=N`:
//! `--limit instructions:2%`, `--limit instructions:2%,+1000`,
//! `--limit l1d-miss:max=50000`. A metric named again replaces the limits
//! it names and keeps the others; [`Limits::merge`] lets the command line
//! override a file the same way.
//!
//! Without any limit, every metric the two profiles share must not
//! increase at all (`relative = 0`).

use std::path::Path;

use crate::diff::{relative, run_differences, CommonMetrics};
use crate::error::ReportError;
use crate::profile::Profile;
use crate::table::{count, is_percentage, pct, signed, signed_pct, Align, Table};

/// The limits of one metric (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limit {
    /// Largest increase in percent of the baseline.
    pub relative_pct: Option<f64>,
    /// Largest increase in counts.
    pub absolute: Option<u64>,
    /// Largest value.
    pub max: Option<u64>,
}

impl Limit {
    fn is_empty(&self) -> bool {
        self.relative_pct.is_none() && self.absolute.is_none() && self.max.is_none()
    }

    /// `other`'s limits where set, this one's elsewhere.
    fn overridden_by(&self, other: &Limit) -> Limit {
        Limit {
            relative_pct: other.relative_pct.or(self.relative_pct),
            absolute: other.absolute.or(self.absolute),
            max: other.max.or(self.max),
        }
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(r) = self.relative_pct {
            parts.push(format!("+{}", pct(r)));
        }
        if let Some(a) = self.absolute {
            parts.push(format!("+{}", count(a)));
        }
        if let Some(m) = self.max {
            parts.push(format!("max {}", count(m)));
        }
        parts.join(", ")
    }
}

/// Limits per metric, in the order given (a TOML file's tables come sorted
/// by name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// `(metric, limit)`, each metric once.
    pub metrics: Vec<(String, Limit)>,
}

/// Why limits could not be read. One line each.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitsError {
    /// The limits file could not be read.
    #[error("{origin}: cannot read: {message}")]
    Read {
        /// The file.
        origin: String,
        /// What the system said.
        message: String,
    },
    /// The TOML is malformed or names something unknown.
    #[error("{origin}, line {line}: {message}")]
    File {
        /// The file (or `limits` for text without a file).
        origin: String,
        /// 1-based line of the error (1 when unknown).
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// A `--limit` argument is malformed.
    #[error("--limit `{arg}`: {message} (expected METRIC:SPEC[,SPEC], SPEC one of N%, +N, max=N)")]
    Cli {
        /// The argument.
        arg: String,
        /// What was wrong.
        message: String,
    },
}

impl Limits {
    /// Parses the TOML limits format of the module documentation. Unknown
    /// tables and keys are errors (a typo must not disable a limit).
    pub fn parse(text: &str) -> Result<Limits, LimitsError> {
        Limits::parse_from(text, "limits")
    }

    /// Reads and parses a limits file; errors name the file.
    pub fn read(path: impl AsRef<Path>) -> Result<Limits, LimitsError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| LimitsError::Read {
            origin: origin.clone(),
            message: e.to_string(),
        })?;
        Limits::parse_from(&text, &origin)
    }

    fn parse_from(text: &str, origin: &str) -> Result<Limits, LimitsError> {
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        // Where a key is, for errors about its value (the parsed table has
        // no spans): its first line.
        let find = |needle: &str| text.find(needle).map_or(1, line_of);
        let err = |line: usize, message: String| LimitsError::File {
            origin: origin.to_string(),
            line,
            message,
        };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let line = e.span().map_or(1, |s| line_of(s.start));
            err(line, e.message().trim().replace('\n', " "))
        })?;
        let mut limits = Limits::default();
        for (key, value) in &table {
            if key != "limits" {
                return Err(err(
                    find(key),
                    format!("unknown table `{key}` (expected `limits`)"),
                ));
            }
            let Some(per_metric) = value.as_table() else {
                return Err(err(find(key), "`limits` must be a table of metrics".into()));
            };
            for (metric, value) in per_metric {
                let Some(keys) = value.as_table() else {
                    return Err(err(
                        find(metric),
                        format!("`limits.{metric}` must be a table"),
                    ));
                };
                let mut limit = Limit::default();
                for (k, v) in keys {
                    let line = find(k);
                    match k.as_str() {
                        "relative" => {
                            let r = v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
                            match r {
                                Some(r) if is_percentage(r) => limit.relative_pct = Some(r),
                                _ => {
                                    return Err(err(
                                        line,
                                        format!("`limits.{metric}.relative` must be a percentage of 0 or more"),
                                    ))
                                }
                            }
                        }
                        "absolute" | "max" => {
                            let Some(n) = v.as_integer().and_then(|i| u64::try_from(i).ok()) else {
                                return Err(err(line, format!("`limits.{metric}.{k}` must be a count of 0 or more")));
                            };
                            if k == "absolute" {
                                limit.absolute = Some(n);
                            } else {
                                limit.max = Some(n);
                            }
                        }
                        _ => {
                            return Err(err(
                                line,
                                format!("unknown key `{k}` in `limits.{metric}` (expected relative, absolute, max)"),
                            ))
                        }
                    }
                }
                if limit.is_empty() {
                    return Err(err(
                        find(metric),
                        format!("`limits.{metric}` sets no limit"),
                    ));
                }
                limits.set(metric, limit);
            }
        }
        Ok(limits)
    }

    /// Parses `--limit` arguments (syntax in the module documentation).
    pub fn from_cli(args: &[String]) -> Result<Limits, LimitsError> {
        let mut limits = Limits::default();
        for arg in args {
            let bad = |message: &str| LimitsError::Cli {
                arg: arg.clone(),
                message: message.to_string(),
            };
            let (metric, specs) = arg.split_once(':').ok_or_else(|| bad("no `:`"))?;
            if metric.is_empty() {
                return Err(bad("no metric"));
            }
            let mut limit = Limit::default();
            for spec in specs.split(',').map(str::trim) {
                if let Some(p) = spec.strip_suffix('%') {
                    let p: f64 = p.trim().parse().map_err(|_| bad("bad percentage"))?;
                    if !is_percentage(p) {
                        return Err(bad("bad percentage"));
                    }
                    limit.relative_pct = Some(p);
                } else if let Some(m) = spec.strip_prefix("max=") {
                    limit.max = Some(m.trim().parse().map_err(|_| bad("bad maximum"))?);
                } else {
                    let n = spec.strip_prefix('+').unwrap_or(spec);
                    limit.absolute = Some(n.parse().map_err(|_| bad("bad count"))?);
                }
            }
            limits.set(metric, limit);
        }
        Ok(limits)
    }

    /// Adds the limits of `other`, which override these metric by metric
    /// and limit by limit (command line over file).
    pub fn merge(&mut self, other: Limits) {
        for (metric, limit) in other.metrics {
            self.set(&metric, limit);
        }
    }

    fn set(&mut self, metric: &str, limit: Limit) {
        match self.metrics.iter_mut().find(|(m, _)| m == metric) {
            Some((_, old)) => *old = old.overridden_by(&limit),
            None => self.metrics.push((metric.to_string(), limit)),
        }
    }
}

/// The verdict on one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricVerdict {
    /// The metric.
    pub metric: String,
    /// Its total in the baseline.
    pub baseline: u64,
    /// Its total in the current profile.
    pub current: u64,
    /// Relative change in percent (`None` from a baseline of 0).
    pub change_pct: Option<f64>,
    /// The limits applied.
    pub limit: Limit,
    /// The limits passed, in words (`+3.70% > +2.00%`); empty when OK.
    pub failures: Vec<String>,
}

/// What [`check`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOutcome {
    /// A short verdict: notes on how the runs differ, one line per metric
    /// (OK or REGRESSED with the numbers), and a closing line.
    pub verdict_text: String,
    /// Some metric passed a limit: the command exits with status 1.
    pub failed: bool,
    /// One verdict per checked metric, in the order of the limits.
    pub verdicts: Vec<MetricVerdict>,
}

/// Compares the totals of `current` to those of `baseline` under `limits`
/// (see the module documentation). A metric of the limits that is not in
/// both profiles is an error.
pub fn check(
    baseline: &Profile,
    current: &Profile,
    limits: &Limits,
) -> Result<CheckOutcome, ReportError> {
    let cm = CommonMetrics::new(baseline, current, &[])?;
    let checked: Vec<(String, Limit)> = if limits.metrics.is_empty() {
        cm.common
            .iter()
            .map(|m| {
                (
                    m.clone(),
                    Limit {
                        relative_pct: Some(0.0),
                        ..Limit::default()
                    },
                )
            })
            .collect()
    } else {
        limits.metrics.clone()
    };
    let mut verdicts = Vec::new();
    for (metric, limit) in checked {
        let i = cm.position(&metric)?;
        let (old, new) = (
            baseline.totals[cm.old_col[i]],
            current.totals[cm.new_col[i]],
        );
        let change_pct = relative(old, new);
        let mut failures = Vec::new();
        if let (Some(r), Some(p)) = (limit.relative_pct, change_pct) {
            if p > r {
                failures.push(format!("{} > +{}", signed_pct(Some(p)), pct(r)));
            }
        }
        if let Some(a) = limit.absolute {
            if new > old && new - old > a {
                failures.push(format!(
                    "{} > +{}",
                    signed(new as i128 - old as i128),
                    count(a)
                ));
            }
        }
        if let Some(m) = limit.max {
            if new > m {
                failures.push(format!("{} > max {}", count(new), count(m)));
            }
        }
        verdicts.push(MetricVerdict {
            metric,
            baseline: old,
            current: new,
            change_pct,
            limit,
            failures,
        });
    }
    let failed_count = verdicts.iter().filter(|v| !v.failures.is_empty()).count();
    let mut text = String::new();
    for d in run_differences(&baseline.meta, &current.meta) {
        text.push_str(&format!("note: the runs differ: {d}\n"));
    }
    let mut table = Table::new();
    table
        .column("metric", Align::Left)
        .column("baseline", Align::Right)
        .column("current", Align::Right)
        .column("change", Align::Right)
        .column("change %", Align::Right)
        .column("verdict", Align::Left);
    for v in &verdicts {
        let verdict = if !v.failures.is_empty() {
            format!("REGRESSED ({})", v.failures.join("; "))
        } else if v.current < v.baseline {
            format!("OK, improved (limits {})", v.limit.describe())
        } else {
            format!("OK (limits {})", v.limit.describe())
        };
        table.row(vec![
            v.metric.clone(),
            count(v.baseline),
            count(v.current),
            signed(v.current as i128 - v.baseline as i128),
            signed_pct(v.change_pct),
            verdict,
        ]);
    }
    table.render_text(&mut text);
    if failed_count > 0 {
        text.push_str(&format!(
            "FAILED: {failed_count} of {} metrics over their limits\n",
            verdicts.len()
        ));
    } else {
        text.push_str(&format!(
            "PASSED: {} metrics within their limits\n",
            verdicts.len()
        ));
    }
    Ok(CheckOutcome {
        verdict_text: text,
        failed: failed_count > 0,
        verdicts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    fn current(instructions: u64, misses: u64) -> Profile {
        let mut p = tiny_profile();
        p.totals = vec![instructions, misses];
        p
    }

    fn cli(args: &[&str]) -> Limits {
        Limits::from_cli(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn toml_limits() {
        let limits = Limits::parse(
            "# CI limits\n[limits.instructions]\nrelative = 2.0   # percent\nabsolute = 1000\n\n[limits.l1d-miss]\nmax = 50\nrelative = 1\n",
        )
        .unwrap();
        assert_eq!(
            limits.metrics,
            [
                (
                    "instructions".to_string(),
                    Limit {
                        relative_pct: Some(2.0),
                        absolute: Some(1000),
                        max: None
                    }
                ),
                (
                    "l1d-miss".to_string(),
                    Limit {
                        relative_pct: Some(1.0),
                        absolute: None,
                        max: Some(50)
                    }
                ),
            ]
        );
    }

    #[test]
    fn toml_errors_are_one_line_with_a_line_number() {
        let cases = [
            ("[limits.instructions]\nrelativ = 2\n", "limits, line 2: unknown key `relativ` in `limits.instructions` (expected relative, absolute, max)"),
            ("[limit.instructions]\nrelative = 2\n", "limits, line 1: unknown table `limit` (expected `limits`)"),
            ("[limits.instructions]\nrelative = -2\n", "limits, line 2: `limits.instructions.relative` must be a percentage of 0 or more"),
            ("[limits.instructions]\nabsolute = 1.5\n", "limits, line 2: `limits.instructions.absolute` must be a count of 0 or more"),
            ("[limits.instructions]\n", "limits, line 1: `limits.instructions` sets no limit"),
            ("[limits]\ninstructions = 2\n", "limits, line 2: `limits.instructions` must be a table"),
        ];
        for (text, message) in cases {
            assert_eq!(Limits::parse(text).unwrap_err().to_string(), message);
        }
        let err = Limits::parse("[limits.instructions]\nrelative = = 2\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("limits, line 2: "), "{err}");
        assert!(!err.contains('\n'));
        let err = Limits::read("/nonexistent/limits.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("/nonexistent/limits.toml: cannot read: "),
            "{err}"
        );
    }

    #[test]
    fn cli_limits_and_merge() {
        let limits = cli(&["instructions:2%", "l1d-miss:+10,max=40", "instructions:500"]);
        assert_eq!(
            limits.metrics,
            [
                (
                    "instructions".to_string(),
                    Limit {
                        relative_pct: Some(2.0),
                        absolute: Some(500),
                        max: None
                    }
                ),
                (
                    "l1d-miss".to_string(),
                    Limit {
                        relative_pct: None,
                        absolute: Some(10),
                        max: Some(40)
                    }
                ),
            ]
        );
        let mut file = Limits::parse("[limits.instructions]\nrelative = 5\nmax = 9\n").unwrap();
        file.merge(cli(&["instructions:1%"]));
        assert_eq!(
            file.metrics[0].1,
            Limit {
                relative_pct: Some(1.0),
                absolute: None,
                max: Some(9)
            }
        );
        for bad in [
            "instructions",
            ":2%",
            "instructions:x%",
            "instructions:-1%",
            "instructions:max=",
            "instructions:-5",
        ] {
            let err = Limits::from_cli(&[bad.to_string()]).unwrap_err();
            assert!(
                err.to_string().starts_with(&format!("--limit `{bad}`: ")),
                "{err}"
            );
        }
    }

    #[test]
    fn pass_and_fail() {
        let base = tiny_profile(); // 270 instructions, 33 misses
        let limits = cli(&["instructions:2%", "l1d-miss:+3"]);
        // +5 instructions is +1.85%, +3 misses.
        let ok = check(&base, &current(275, 36), &limits).unwrap();
        assert!(!ok.failed);
        assert_eq!(
            ok.verdict_text,
            "\
metric        baseline  current  change  change %  verdict
instructions       270      275      +5    +1.85%  OK (limits +2.00%)
l1d-miss            33       36      +3    +9.09%  OK (limits +3)
PASSED: 2 metrics within their limits
"
        );
        // +6 instructions is +2.22%.
        let bad = check(&base, &current(276, 37), &limits).unwrap();
        assert!(bad.failed);
        assert_eq!(
            bad.verdict_text,
            "\
metric        baseline  current  change  change %  verdict
instructions       270      276      +6    +2.22%  REGRESSED (+2.22% > +2.00%)
l1d-miss            33       37      +4   +12.12%  REGRESSED (+4 > +3)
FAILED: 2 of 2 metrics over their limits
"
        );
        // Failing either limit fails; a maximum applies whatever the baseline.
        let both = cli(&["instructions:50%,+5"]);
        assert!(check(&base, &current(276, 33), &both).unwrap().failed);
        assert!(!check(&base, &current(275, 33), &both).unwrap().failed);
        let max = cli(&["instructions:max=260"]);
        let v = check(&base, &current(261, 33), &max).unwrap();
        assert_eq!(v.verdicts[0].failures, ["261 > max 260"]);
        // Improvements pass.
        let better = check(&base, &current(200, 33), &limits).unwrap();
        assert!(!better.failed);
        assert!(better.verdict_text.contains("OK, improved (limits +2.00%)"));
    }

    #[test]
    fn defaults_and_errors() {
        let base = tiny_profile();
        // No limits: no increase of any shared metric.
        let v = check(&base, &current(270, 34), &Limits::default()).unwrap();
        assert!(v.failed);
        assert_eq!(v.verdicts.len(), 2);
        assert!(!check(&base, &base, &Limits::default()).unwrap().failed);
        let err = check(&base, &base, &cli(&["cycles:1%"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
        // How the runs differ comes first.
        let mut changed = current(270, 33);
        changed.meta.cpu_model = "other".into();
        let v = check(&base, &changed, &Limits::default()).unwrap();
        assert!(v
            .verdict_text
            .starts_with("note: the runs differ: CPU model: haswell-noavx -> other\nmetric"));
    }
}
