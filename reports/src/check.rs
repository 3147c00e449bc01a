//! `pathvm check --baseline FILE`: fresh profiles against committed
//! baselines, with limits per metric, for CI scripts.
//!
//! # What is checked
//!
//! Each profile is checked against its baseline, as a whole or, with
//! phases asked for ([`CheckOptions::phases`], globs), phase by phase: each
//! phase is a benchmark of its own. A phase of the baseline that the
//! profile lacks fails (a benchmark that stopped running must not pass
//! unnoticed); a phase only in the profile is new and passes (only its
//! `max` limits apply). Per-function limits judge each function's self
//! cost in the profile or the phase; functions are matched by name and
//! object file name (`libc.so.6`, not its directory).
//!
//! # Limits
//!
//! Each metric can have three limits; a decrease never fails.
//!
//! - `relative`: the largest increase allowed, in percent of the baseline
//!   (a rise from a baseline of 0 never exceeds it);
//! - `absolute`: the largest increase allowed, in counts;
//! - `max`: the largest value allowed, whatever the baseline.
//!
//! They combine so that an absolute limit is a noise floor for the
//! relative one: **a metric fails when it exceeds `max`, or when it
//! exceeds every one of `relative` and `absolute` that is set** (both,
//! when both are set: `2%,+1000` fails on +3% only if that is more than
//! 1000 counts, and on +5000 counts only if that is more than 2%). The
//! check fails when any metric fails (gungraun's soft limit is
//! `relative`, its hard limit `max`).
//!
//! In a TOML file ([`Limits::parse`]), one table per metric for the totals
//! of each profile or phase, optional overrides per phase (by name or
//! glob), and per-function limits (by name or glob):
//!
//! ```toml
//! [limits.instructions]
//! relative = 2.0    # percent
//! absolute = 1000   # optional
//!
//! [limits.l1d-miss]
//! max = 50000
//!
//! [phases.parse.instructions]   # phase `parse`: replaces what it names
//! relative = 0.5
//!
//! [functions."hash_*".instructions]  # each function's self cost
//! relative = 5.0
//! absolute = 200
//! ```
//!
//! On the command line ([`Limits::from_cli`]), `--limit METRIC:SPEC[,SPEC]`
//! where a SPEC is `N%` (relative), `+N` or `N` (absolute) or `max=N`:
//! `--limit instructions:2%`, `--limit instructions:2%,+1000`,
//! `--limit l1d-miss:max=50000`. A metric named again replaces the limits
//! it names and keeps the others; [`Limits::merge`] lets the command line
//! override a file the same way.
//!
//! Without any limit on the totals, every metric the two profiles share
//! must not increase at all (`relative = 0`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::diff::{change_json, html_escape, relative, run_differences, ChangeJson, CommonMetrics};
use crate::error::ReportError;
use crate::glob::glob_match;
use crate::metric::{to_json, OrderedMap};
use crate::profile::{file_name, Profile};
use crate::table::{count, is_percentage, pct, round_pct, signed, signed_pct, Align, Table};

/// The limits of one metric (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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

    /// `+2.00%, +1,000` (both must be exceeded), `max 5`.
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

    /// What a change from `old` to `new` exceeds, in words; empty when it
    /// passes (the rule of the module documentation). `old` is `None` for
    /// a benchmark new in the profile: only `max` applies.
    pub fn judge(&self, old: Option<u64>, new: u64) -> Vec<String> {
        let mut failures = Vec::new();
        if let Some(old) = old {
            let rise = new.saturating_sub(old);
            let rel = self.relative_pct.map(|r| {
                let over = relative(old, new).is_some_and(|p| p > r);
                (
                    over,
                    format!("{} > +{}", signed_pct(relative(old, new)), pct(r)),
                )
            });
            let abs = self.absolute.map(|a| {
                (
                    rise > a,
                    format!("{} > +{}", signed(new as i128 - old as i128), count(a)),
                )
            });
            let set: Vec<(bool, String)> = rel.into_iter().chain(abs).collect();
            if !set.is_empty() && set.iter().all(|(over, _)| *over) {
                failures.push(
                    set.into_iter()
                        .map(|(_, why)| why)
                        .collect::<Vec<_>>()
                        .join(" and "),
                );
            }
        }
        if let Some(m) = self.max {
            if new > m {
                failures.push(format!("{} > max {}", count(new), count(m)));
            }
        }
        failures
    }
}

/// Limits per metric, in the order given (a TOML file's tables come sorted
/// by name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// `(metric, limit)` on the totals of every profile or phase checked,
    /// each metric once.
    pub metrics: Vec<(String, Limit)>,
    /// `(phase name or glob, limits)`: for the phases it matches, these
    /// replace the limits of [`Limits::metrics`] they name.
    pub phases: Vec<(String, Vec<(String, Limit)>)>,
    /// `(function name or glob, limits)` on the self cost of each function
    /// it matches, in every profile or phase checked.
    pub functions: Vec<(String, Vec<(String, Limit)>)>,
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

/// Sets `limit` for `metric` in `list`: a metric named again keeps the
/// limits the new one does not name.
fn set_limit(list: &mut Vec<(String, Limit)>, metric: &str, limit: Limit) {
    match list.iter_mut().find(|(m, _)| m == metric) {
        Some((_, old)) => *old = old.overridden_by(&limit),
        None => list.push((metric.to_string(), limit)),
    }
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
        // `[PREFIX.METRIC]` tables, each with relative, absolute, max.
        let metric_tables = |prefix: &str,
                             value: &toml::Value|
         -> Result<Vec<(String, Limit)>, LimitsError> {
            let Some(per_metric) = value.as_table() else {
                return Err(err(
                    find(prefix),
                    format!("`{prefix}` must be a table of metrics"),
                ));
            };
            let mut out = Vec::new();
            for (metric, value) in per_metric {
                let Some(keys) = value.as_table() else {
                    return Err(err(
                        find(metric),
                        format!("`{prefix}.{metric}` must be a table"),
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
                                            format!("`{prefix}.{metric}.relative` must be a percentage of 0 or more"),
                                        ))
                                    }
                                }
                            }
                            "absolute" | "max" => {
                                let Some(n) = v.as_integer().and_then(|i| u64::try_from(i).ok())
                                else {
                                    return Err(err(
                                        line,
                                        format!("`{prefix}.{metric}.{k}` must be a count of 0 or more"),
                                    ));
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
                                    format!("unknown key `{k}` in `{prefix}.{metric}` (expected relative, absolute, max)"),
                                ))
                            }
                        }
                }
                if limit.is_empty() {
                    return Err(err(
                        find(metric),
                        format!("`{prefix}.{metric}` sets no limit"),
                    ));
                }
                set_limit(&mut out, metric, limit);
            }
            Ok(out)
        };
        let mut limits = Limits::default();
        for (key, value) in &table {
            match key.as_str() {
                "limits" => {
                    for (metric, limit) in metric_tables("limits", value)? {
                        set_limit(&mut limits.metrics, &metric, limit);
                    }
                }
                "phases" | "functions" => {
                    let Some(named) = value.as_table() else {
                        return Err(err(find(key), format!("`{key}` must be a table of names")));
                    };
                    for (name, value) in named {
                        let per_metric = metric_tables(&format!("{key}.{name}"), value)?;
                        let list = if key == "phases" {
                            &mut limits.phases
                        } else {
                            &mut limits.functions
                        };
                        list.push((name.clone(), per_metric));
                    }
                }
                _ => {
                    return Err(err(
                        find(key),
                        format!(
                            "unknown table `{key}` (expected `limits`, `phases` or `functions`)"
                        ),
                    ))
                }
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
            set_limit(&mut limits.metrics, metric, limit);
        }
        Ok(limits)
    }

    /// Adds the limits of `other`, which override these metric by metric
    /// and limit by limit (command line over file); its phase and function
    /// tables come after these.
    pub fn merge(&mut self, other: Limits) {
        for (metric, limit) in other.metrics {
            set_limit(&mut self.metrics, &metric, limit);
        }
        self.phases.extend(other.phases);
        self.functions.extend(other.functions);
    }

    /// The limits on the totals of phase `phase` (`None`: a whole
    /// profile): [`Limits::metrics`] with every matching phase table over it.
    fn for_phase(&self, phase: Option<&str>) -> Vec<(String, Limit)> {
        let mut out = self.metrics.clone();
        if let Some(phase) = phase {
            for (glob, per_metric) in &self.phases {
                if glob_match(glob, phase) {
                    for (metric, limit) in per_metric {
                        set_limit(&mut out, metric, limit.clone());
                    }
                }
            }
        }
        out
    }
}

/// Where a checked benchmark was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Presence {
    /// In the baseline and in the profile.
    Both,
    /// In the profile only: new, nothing to compare (only `max` applies).
    New,
    /// In the baseline only: it fails.
    Missing,
    /// The baseline did not exist and was made from the profile.
    Created,
}

/// The verdict on one metric of one benchmark (a profile or a phase), or
/// of one function in it.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricVerdict {
    /// The benchmark: empty for a single profile checked whole; the phase
    /// for phases of one profile; the profile's name (and ` / PHASE`) when
    /// several profiles are checked.
    pub benchmark: String,
    /// The function (per-function limits), with its object's file name.
    pub function: Option<(String, String)>,
    /// The metric.
    pub metric: String,
    /// Its value in the baseline (0 when missing there).
    pub baseline: u64,
    /// Its value in the current profile (0 when missing there).
    pub current: u64,
    /// Relative change in percent (`None` from a baseline of 0).
    pub change_pct: Option<f64>,
    /// Where the benchmark was found.
    pub presence: Presence,
    /// The limits applied.
    pub limit: Limit,
    /// The limits passed, in words (`+3.70% > +2.00%`); empty when OK.
    pub failures: Vec<String>,
}

impl MetricVerdict {
    /// The benchmark and function, as the first column shows them.
    pub fn name(&self) -> String {
        match (&self.function, self.benchmark.is_empty()) {
            (None, true) => "total".into(),
            (None, false) => self.benchmark.clone(),
            (Some((f, _)), true) => f.clone(),
            (Some((f, _)), false) => format!("{}: {f}", self.benchmark),
        }
    }

    /// `OK (limits +2.00%)`, `REGRESSED (+3.00% > +2.00%)`, ...
    fn verdict(&self) -> String {
        let limits = self.limit.describe();
        match self.presence {
            _ if !self.failures.is_empty() => {
                format!("REGRESSED ({})", self.failures.join("; "))
            }
            Presence::Created => "OK, baseline created".into(),
            Presence::New => format!("OK, new (limits {limits})"),
            _ if self.current < self.baseline => format!("OK, improved (limits {limits})"),
            _ => format!("OK (limits {limits})"),
        }
    }

    fn status(&self) -> &'static str {
        match self.presence {
            _ if !self.failures.is_empty() => "regressed",
            Presence::Created => "created",
            Presence::New => "new",
            _ if self.current < self.baseline => "improved",
            _ => "ok",
        }
    }
}

/// One profile to check against its baseline.
#[derive(Clone, Copy, Debug)]
pub struct CheckInput<'a> {
    /// How the output names it when several are checked (its file name).
    pub name: &'a str,
    /// The baseline.
    pub baseline: &'a Profile,
    /// The fresh profile.
    pub current: &'a Profile,
    /// The baseline was just made from the profile (`--save-baseline`).
    pub created: bool,
}

/// Output format of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckFormat {
    /// Aligned tables for a terminal.
    #[default]
    Text,
    /// GitHub-flavoured Markdown (a pull request comment, a job summary):
    /// the verdict on the first line.
    Markdown,
    /// JSON for scripts (see [`check_profiles`]).
    Json,
}

/// Options of [`check_profiles`].
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Check these phases (names or globs, `*` for all), each as a
    /// benchmark; empty checks each profile whole.
    pub phases: Vec<String>,
    /// Text, Markdown or JSON.
    pub format: CheckFormat,
}

/// What [`check`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOutcome {
    /// The report in the format asked for (text: notes on how the runs
    /// differ, one line per metric, a closing line).
    pub verdict_text: String,
    /// Some metric passed a limit: the command exits with status 1.
    pub failed: bool,
    /// One verdict per checked metric and benchmark, benchmarks in order,
    /// totals before functions.
    pub verdicts: Vec<MetricVerdict>,
}

/// Function self costs by (name, object file name), over the shared
/// metrics (columns `cols` of the profile).
type FunctionCosts = BTreeMap<(String, String), Vec<u64>>;

/// A benchmark: one profile, or one phase of it, on both sides.
struct Bench {
    name: String,
    presence: Presence,
    phase: Option<String>,
    profile: String,
    old_totals: Vec<u64>,
    new_totals: Vec<u64>,
    old_functions: FunctionCosts,
    new_functions: FunctionCosts,
    /// The metrics its limits name (positions in the shared metrics).
    checked: Vec<usize>,
}

fn function_costs(profile: &Profile, phase: Option<&str>, cols: &[usize]) -> FunctionCosts {
    let mut out = FunctionCosts::new();
    let mut add = |index: usize, costs: &[u64]| {
        let f = &profile.functions[index];
        let row = out
            .entry((f.name.clone(), file_name(&f.object).to_string()))
            .or_insert_with(|| vec![0; cols.len()]);
        for (v, &c) in row.iter_mut().zip(cols) {
            *v = v.saturating_add(costs[c]);
        }
    };
    match phase.and_then(|name| profile.phase(name)) {
        Some(p) => {
            for r in &p.functions {
                add(r.function as usize, &r.self_cost);
            }
        }
        None if phase.is_none() => {
            for (i, f) in profile.functions.iter().enumerate() {
                add(i, &f.self_cost);
            }
        }
        None => {}
    }
    out
}

/// Compares the totals of `current` to those of `baseline` under `limits`
/// (see the module documentation): [`check_profiles`] on one profile,
/// checked whole, as text.
pub fn check(
    baseline: &Profile,
    current: &Profile,
    limits: &Limits,
) -> Result<CheckOutcome, ReportError> {
    check_profiles(
        &[CheckInput {
            name: "",
            baseline,
            current,
            created: false,
        }],
        limits,
        &CheckOptions::default(),
    )
}

/// Checks each profile against its baseline under `limits`, whole or per
/// phase (see the module documentation). A metric of the limits that is
/// not in both profiles, a phase pattern that matches no phase, or a
/// profile that is not consistent is an error.
///
/// Markdown leads with the verdict (`### pathvm check FAILED: work
/// instructions +1.00% (1 of 6 checks over their limits)`), then one line
/// per benchmark and metric (name first, baseline, current, change,
/// limit, verdict), then a collapsible `<details>` per benchmark with its
/// functions' changes, and how the runs differ.
///
/// JSON: `{"failed", "summary" (markdown's first line as text), "notes":
/// [...], "checks": [{"benchmark", "profile", "phase", "function",
/// "object", "metric", "status": "ok"|"improved"|"regressed"|"new"|
/// "created", "presence": "both"|"new"|"missing"|"created", "baseline",
/// "current", "change", "change_pct", "limits": {"relative_pct",
/// "absolute", "max"}, "failures": [...]}], "benchmarks": [{"benchmark",
/// "profile", "phase", "presence", "functions": [{"function", "object",
/// "changes": {metric: {"old", "new", "change", "change_pct"}}}]}]}`.
pub fn check_profiles(
    inputs: &[CheckInput],
    limits: &Limits,
    opts: &CheckOptions,
) -> Result<CheckOutcome, ReportError> {
    let several = inputs.len() > 1;
    let mut benches: Vec<Bench> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut verdicts: Vec<MetricVerdict> = Vec::new();
    let mut common_names: Vec<Vec<String>> = Vec::new();
    for input in inputs {
        let cm = CommonMetrics::new(input.baseline, input.current, &[])?;
        let who = if several {
            format!("{}: ", input.name)
        } else {
            String::new()
        };
        if input.created {
            notes.push(format!("{who}baseline created from the profile"));
        }
        for d in run_differences(&input.baseline.meta, &input.current.meta) {
            notes.push(format!("{who}the runs differ: {d}"));
        }
        // The phases checked: (name, presence), baseline order first.
        let phases: Vec<(Option<String>, Presence)> = if opts.phases.is_empty() {
            vec![(
                None,
                if input.created {
                    Presence::Created
                } else {
                    Presence::Both
                },
            )]
        } else {
            let mut names: Vec<&str> = input
                .baseline
                .phases
                .iter()
                .map(|p| p.name.as_str())
                .collect();
            for p in &input.current.phases {
                if !names.contains(&p.name.as_str()) {
                    names.push(&p.name);
                }
            }
            for glob in &opts.phases {
                if !names.iter().any(|n| glob_match(glob, n)) {
                    return Err(ReportError::UnknownPhase {
                        name: glob.clone(),
                        available: names.iter().map(|s| s.to_string()).collect(),
                    });
                }
            }
            names
                .into_iter()
                .filter(|n| opts.phases.iter().any(|g| glob_match(g, n)))
                .map(|n| {
                    let presence = match (
                        input.baseline.phase(n).is_some(),
                        input.current.phase(n).is_some(),
                    ) {
                        _ if input.created => Presence::Created,
                        (true, true) => Presence::Both,
                        (true, false) => Presence::Missing,
                        _ => Presence::New,
                    };
                    (Some(n.to_string()), presence)
                })
                .collect()
        };
        for (phase, presence) in phases {
            let totals = |p: &Profile, cols: &[usize]| -> Vec<u64> {
                let t = match &phase {
                    None => Some(&p.totals),
                    Some(name) => p.phase(name).map(|ph| &ph.totals),
                };
                cols.iter()
                    .map(|&c| t.map_or(0, |t| t[c]))
                    .collect::<Vec<u64>>()
            };
            let name = match (&phase, several) {
                (None, false) => String::new(),
                (None, true) => input.name.to_string(),
                (Some(p), false) => p.clone(),
                (Some(p), true) => format!("{} / {p}", input.name),
            };
            let mut checked_limits = limits.for_phase(phase.as_deref());
            if checked_limits.is_empty() {
                checked_limits = cm
                    .common
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
                    .collect();
            }
            let bench = Bench {
                name,
                presence,
                profile: input.name.to_string(),
                old_totals: totals(input.baseline, &cm.old_col),
                new_totals: totals(input.current, &cm.new_col),
                old_functions: function_costs(input.baseline, phase.as_deref(), &cm.old_col),
                new_functions: function_costs(input.current, phase.as_deref(), &cm.new_col),
                phase,
                checked: Vec::new(),
            };
            let mut checked = Vec::new();
            let mut judge = |metric: &str,
                             limit: &Limit,
                             function: Option<(String, String)>,
                             old: u64,
                             new: u64|
             -> Result<(), ReportError> {
                let i = cm.position(metric)?;
                if !checked.contains(&i) {
                    checked.push(i);
                }
                let known_old = matches!(presence, Presence::Both | Presence::Created);
                let mut failures = limit.judge(known_old.then_some(old), new);
                if presence == Presence::Missing && function.is_none() {
                    failures.insert(0, "missing from the profile".into());
                }
                verdicts.push(MetricVerdict {
                    benchmark: bench.name.clone(),
                    function,
                    metric: metric.to_string(),
                    baseline: old,
                    current: new,
                    change_pct: relative(old, new),
                    presence,
                    limit: limit.clone(),
                    failures,
                });
                Ok(())
            };
            for (metric, limit) in &checked_limits {
                let i = cm.position(metric)?;
                judge(
                    metric,
                    limit,
                    None,
                    bench.old_totals[i],
                    bench.new_totals[i],
                )?;
            }
            if presence != Presence::Missing {
                for (glob, per_metric) in &limits.functions {
                    let keys: std::collections::BTreeSet<&(String, String)> = bench
                        .old_functions
                        .keys()
                        .chain(bench.new_functions.keys())
                        .filter(|(f, _)| glob_match(glob, f))
                        .collect();
                    for key in keys {
                        for (metric, limit) in per_metric {
                            let i = cm.position(metric)?;
                            let at = |m: &FunctionCosts| m.get(key).map_or(0, |v| v[i]);
                            judge(
                                metric,
                                limit,
                                Some(key.clone()),
                                at(&bench.old_functions),
                                at(&bench.new_functions),
                            )?;
                        }
                    }
                }
            }
            benches.push(Bench { checked, ..bench });
            common_names.push(cm.common.clone());
        }
    }

    let failed: Vec<&MetricVerdict> = verdicts.iter().filter(|v| !v.failures.is_empty()).collect();
    let summary = summary_line(&verdicts, &failed);
    let text = match opts.format {
        CheckFormat::Text => text_report(&verdicts, &notes, &failed),
        CheckFormat::Markdown => {
            markdown_report(&summary, &verdicts, &notes, &benches, &common_names)
        }
        CheckFormat::Json => json_report(&summary, &verdicts, &notes, &benches, &common_names),
    };
    Ok(CheckOutcome {
        verdict_text: text,
        failed: !failed.is_empty(),
        verdicts,
    })
}

/// The verdict in one line: `FAILED: work instructions +1.00% (1 of 6
/// checks over their limits)` or `passed: 6 checks within their limits`.
fn summary_line(verdicts: &[MetricVerdict], failed: &[&MetricVerdict]) -> String {
    const NAMED: usize = 3;
    if failed.is_empty() {
        return format!(
            "passed: {} {} within their limits",
            verdicts.len(),
            plural(verdicts.len(), "check", "checks")
        );
    }
    let mut named: Vec<String> = failed
        .iter()
        .take(NAMED)
        .map(|v| {
            let change = match v.presence {
                Presence::Missing => "missing".to_string(),
                Presence::New => count(v.current),
                _ => signed_pct(v.change_pct),
            };
            if v.benchmark.is_empty() && v.function.is_none() {
                format!("{} {change}", v.metric)
            } else {
                format!("{} {} {change}", v.name(), v.metric)
            }
        })
        .collect();
    if failed.len() > NAMED {
        named.push(format!("and {} more", failed.len() - NAMED));
    }
    format!(
        "FAILED: {} ({} of {} {} over their limits)",
        named.join(", "),
        failed.len(),
        verdicts.len(),
        plural(verdicts.len(), "check", "checks")
    )
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// A number of a side that may lack the benchmark.
fn side(v: &MetricVerdict, value: u64, absent: Presence) -> String {
    if v.presence == absent {
        "-".into()
    } else {
        count(value)
    }
}

fn text_report(verdicts: &[MetricVerdict], notes: &[String], failed: &[&MetricVerdict]) -> String {
    let mut text = String::new();
    for n in notes {
        text.push_str(&format!("note: {n}\n"));
    }
    let named = verdicts
        .iter()
        .any(|v| !v.benchmark.is_empty() || v.function.is_some());
    let mut table = Table::new();
    if named {
        table.column("benchmark", Align::Left);
    }
    table
        .column("metric", Align::Left)
        .column("baseline", Align::Right)
        .column("current", Align::Right)
        .column("change", Align::Right)
        .column("change %", Align::Right)
        .column("verdict", Align::Left);
    for v in verdicts {
        let mut cells = Vec::new();
        if named {
            cells.push(v.name());
        }
        cells.extend([
            v.metric.clone(),
            side(v, v.baseline, Presence::New),
            side(v, v.current, Presence::Missing),
            signed(v.current as i128 - v.baseline as i128),
            signed_pct(v.change_pct),
            v.verdict(),
        ]);
        table.row(cells);
    }
    table.render_text(&mut text);
    let what = if named { "checks" } else { "metrics" };
    if failed.is_empty() {
        text.push_str(&format!(
            "PASSED: {} {what} within their limits\n",
            verdicts.len()
        ));
    } else {
        text.push_str(&format!(
            "FAILED: {} of {} {what} over their limits\n",
            failed.len(),
            verdicts.len()
        ));
    }
    text
}

/// Function rows shown per benchmark.
const FUNCTIONS_SHOWN: usize = 20;

/// A function (name, object file name) with its baseline and current costs.
type FunctionChange<'a> = (&'a (String, String), Vec<u64>, Vec<u64>);

/// The functions of a benchmark whose checked metrics changed, by the
/// absolute change of the first checked metric, then name.
fn changed_functions(b: &Bench) -> Vec<FunctionChange<'_>> {
    let keys: std::collections::BTreeSet<&(String, String)> = b
        .old_functions
        .keys()
        .chain(b.new_functions.keys())
        .collect();
    let n = b.old_totals.len();
    let mut rows: Vec<_> = keys
        .into_iter()
        .map(|k| {
            let old = b
                .old_functions
                .get(k)
                .cloned()
                .unwrap_or_else(|| vec![0; n]);
            let new = b
                .new_functions
                .get(k)
                .cloned()
                .unwrap_or_else(|| vec![0; n]);
            (k, old, new)
        })
        .filter(|(_, old, new)| b.checked.iter().any(|&i| old[i] != new[i]))
        .collect();
    let first = b.checked.first().copied().unwrap_or(0);
    rows.sort_by(|x, y| {
        let d = |r: &FunctionChange| r.2[first].abs_diff(r.1[first]);
        d(y).cmp(&d(x)).then_with(|| x.0.cmp(y.0))
    });
    rows
}

fn markdown_report(
    summary: &str,
    verdicts: &[MetricVerdict],
    notes: &[String],
    benches: &[Bench],
    common: &[Vec<String>],
) -> String {
    let mut out = format!("### pathvm check {summary}\n\n");
    let mut table = Table::new();
    table
        .column("benchmark", Align::Left)
        .column("metric", Align::Left)
        .column("baseline", Align::Right)
        .column("current", Align::Right)
        .column("change", Align::Right)
        .column("limit", Align::Left)
        .column("verdict", Align::Left);
    for v in verdicts {
        let change = match v.presence {
            Presence::New | Presence::Missing => "-".to_string(),
            _ => format!(
                "{} ({})",
                signed(v.current as i128 - v.baseline as i128),
                signed_pct(v.change_pct)
            ),
        };
        let verdict = if v.failures.is_empty() {
            v.status().to_uppercase()
        } else {
            format!("REGRESSED: {}", v.failures.join("; "))
        };
        table.row(vec![
            v.name(),
            v.metric.clone(),
            side(v, v.baseline, Presence::New),
            side(v, v.current, Presence::Missing),
            change,
            v.limit.describe(),
            verdict,
        ]);
    }
    table.render_markdown(&mut out);
    for (b, names) in benches.iter().zip(common) {
        let rows = changed_functions(b);
        if rows.is_empty() {
            continue;
        }
        let label = if b.name.is_empty() { "total" } else { &b.name };
        out.push_str(&format!(
            "\n<details><summary>{}: {} {} changed</summary>\n\n",
            html_escape(label),
            rows.len(),
            plural(rows.len(), "function", "functions")
        ));
        let mut t = Table::new();
        t.column("function", Align::Left)
            .column("object", Align::Left);
        for &i in &b.checked {
            t.column(format!("baseline {}", names[i]), Align::Right)
                .column(format!("current {}", names[i]), Align::Right)
                .column("change", Align::Right)
                .column("change %", Align::Right);
        }
        for ((name, object), old, new) in rows.iter().take(FUNCTIONS_SHOWN) {
            let mut cells = vec![name.clone(), object.clone()];
            for &i in &b.checked {
                cells.extend([
                    count(old[i]),
                    count(new[i]),
                    signed(new[i] as i128 - old[i] as i128),
                    signed_pct(relative(old[i], new[i])),
                ]);
            }
            t.row(cells);
        }
        t.render_markdown(&mut out);
        if rows.len() > FUNCTIONS_SHOWN {
            out.push_str(&format!(
                "\n{} more not shown (`pathvm diff` lists all).\n",
                rows.len() - FUNCTIONS_SHOWN
            ));
        }
        out.push_str("\n</details>\n");
    }
    if !notes.is_empty() {
        out.push_str(&format!(
            "\n<details><summary>Notes ({})</summary>\n\n",
            notes.len()
        ));
        for n in notes {
            out.push_str(&format!("- {}\n", crate::table::markdown_escape(n)));
        }
        out.push_str("\n</details>\n");
    }
    out
}

#[derive(Serialize)]
struct CheckJson<'a> {
    benchmark: String,
    profile: &'a str,
    phase: Option<&'a str>,
    function: Option<&'a str>,
    object: Option<&'a str>,
    metric: &'a str,
    status: &'static str,
    presence: Presence,
    baseline: Option<u64>,
    current: Option<u64>,
    change: i128,
    change_pct: Option<f64>,
    limits: &'a Limit,
    failures: &'a [String],
}

#[derive(Serialize)]
struct FunctionJson<'a> {
    function: &'a str,
    object: &'a str,
    changes: OrderedMap<&'a str, ChangeJson>,
}

#[derive(Serialize)]
struct BenchJson<'a> {
    benchmark: String,
    profile: &'a str,
    phase: Option<&'a str>,
    presence: Presence,
    functions: Vec<FunctionJson<'a>>,
}

#[derive(Serialize)]
struct ReportJson<'a> {
    failed: bool,
    summary: &'a str,
    notes: &'a [String],
    checks: Vec<CheckJson<'a>>,
    benchmarks: Vec<BenchJson<'a>>,
}

fn json_report(
    summary: &str,
    verdicts: &[MetricVerdict],
    notes: &[String],
    benches: &[Bench],
    common: &[Vec<String>],
) -> String {
    let bench_of = |name: &str| benches.iter().find(|b| b.name == name);
    let checks = verdicts
        .iter()
        .map(|v| {
            let b = bench_of(&v.benchmark);
            CheckJson {
                benchmark: v.name(),
                profile: b.map_or("", |b| b.profile.as_str()),
                phase: b.and_then(|b| b.phase.as_deref()),
                function: v.function.as_ref().map(|f| f.0.as_str()),
                object: v.function.as_ref().map(|f| f.1.as_str()),
                metric: &v.metric,
                status: v.status(),
                presence: v.presence,
                baseline: (v.presence != Presence::New).then_some(v.baseline),
                current: (v.presence != Presence::Missing).then_some(v.current),
                change: v.current as i128 - v.baseline as i128,
                change_pct: v.change_pct.map(round_pct),
                limits: &v.limit,
                failures: &v.failures,
            }
        })
        .collect();
    let benchmarks = benches
        .iter()
        .zip(common)
        .map(|(b, names)| BenchJson {
            benchmark: if b.name.is_empty() {
                "total".into()
            } else {
                b.name.clone()
            },
            profile: &b.profile,
            phase: b.phase.as_deref(),
            presence: b.presence,
            functions: changed_functions(b)
                .into_iter()
                .map(|((function, object), old, new)| FunctionJson {
                    function,
                    object,
                    changes: OrderedMap(
                        b.checked
                            .iter()
                            .map(|&i| (names[i].as_str(), change_json(old[i], new[i])))
                            .collect(),
                    ),
                })
                .collect(),
        })
        .collect();
    to_json(&ReportJson {
        failed: verdicts.iter().any(|v| !v.failures.is_empty()),
        summary,
        notes,
        checks,
        benchmarks,
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
            ("[limit.instructions]\nrelative = 2\n", "limits, line 1: unknown table `limit` (expected `limits`, `phases` or `functions`)"),
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
        // A relative limit with an absolute one fails only when both are
        // exceeded; a maximum applies whatever the baseline.
        let both = cli(&["instructions:2%,+5"]);
        assert!(!check(&base, &current(275, 33), &both).unwrap().failed);
        let v = check(&base, &current(276, 33), &both).unwrap();
        assert_eq!(v.verdicts[0].failures, ["+2.22% > +2.00% and +6 > +5"]);
        let floor = cli(&["instructions:1%,+10"]);
        assert!(!check(&base, &current(280, 33), &floor).unwrap().failed);
        assert!(check(&base, &current(281, 33), &floor).unwrap().failed);
        let loose = cli(&["instructions:50%,+5"]);
        assert!(!check(&base, &current(276, 33), &loose).unwrap().failed);
        let max = cli(&["instructions:max=260"]);
        let v = check(&base, &current(261, 33), &max).unwrap();
        assert_eq!(v.verdicts[0].failures, ["261 > max 260"]);
        // Improvements pass.
        let better = check(&base, &current(200, 33), &limits).unwrap();
        assert!(!better.failed);
        assert!(better.verdict_text.contains("OK, improved (limits +2.00%)"));
    }

    fn phased(work: u64, heavy_extra: u64) -> Profile {
        // phased_profile: main 70, 3; work 200, 30 (c 200, 30).
        let mut p = crate::testdata::phased_profile();
        p.phases[1].totals[0] = work;
        p.phases[1].functions[0].self_cost[0] = work;
        p.functions[3].self_cost[0] = work;
        p.phases[0].totals[0] += heavy_extra;
        p.phases[0].functions[2].self_cost[0] += heavy_extra;
        p.functions[2].self_cost[0] += heavy_extra;
        p.totals[0] = p.phases[0].totals[0] + work;
        p
    }

    fn phase_opts(format: CheckFormat) -> CheckOptions {
        CheckOptions {
            phases: vec!["*".into()],
            format,
        }
    }

    fn one<'a>(baseline: &'a Profile, current: &'a Profile) -> [CheckInput<'a>; 1] {
        [CheckInput {
            name: "bench.out",
            baseline,
            current,
            created: false,
        }]
    }

    #[test]
    fn phases_are_benchmarks_and_markdown_names_the_failure_first() {
        let (base, new) = (phased(200, 0), phased(202, 0));
        let limits = cli(&["instructions:0.5%"]);
        let c = check_profiles(
            &one(&base, &new),
            &limits,
            &phase_opts(CheckFormat::Markdown),
        )
        .unwrap();
        assert!(c.failed);
        let names: Vec<(String, bool)> = c
            .verdicts
            .iter()
            .map(|v| (v.name(), v.failures.is_empty()))
            .collect();
        assert_eq!(names, [("main".into(), true), ("work".into(), false)]);
        assert_eq!(
            c.verdict_text,
            "\
### pathvm check FAILED: work instructions +1.00% (1 of 2 checks over their limits)

| benchmark | metric | baseline | current | change | limit | verdict |
| :--- | :--- | ---: | ---: | ---: | :--- | :--- |
| main | instructions | 70 | 70 | 0 (0.00%) | +0.50% | OK |
| work | instructions | 200 | 202 | +2 (+1.00%) | +0.50% | REGRESSED: +1.00% > +0.50% |

<details><summary>work: 1 function changed</summary>

| function | object | baseline instructions | current instructions | change | change % |
| :--- | :--- | ---: | ---: | ---: | ---: |
| c | tiny | 200 | 202 | +2 | +1.00% |

</details>
"
        );
        // Text: a benchmark column; one phase by name; JSON.
        let c = check_profiles(&one(&base, &new), &limits, &phase_opts(CheckFormat::Text)).unwrap();
        assert_eq!(
            c.verdict_text,
            "\
benchmark  metric        baseline  current  change  change %  verdict
main       instructions        70       70       0     0.00%  OK (limits +0.50%)
work       instructions       200      202      +2    +1.00%  REGRESSED (+1.00% > +0.50%)
FAILED: 1 of 2 checks over their limits
"
        );
        let only_main = CheckOptions {
            phases: vec!["main".into()],
            format: CheckFormat::Json,
        };
        let c = check_profiles(&one(&base, &new), &limits, &only_main).unwrap();
        assert!(!c.failed);
        let j: serde_json::Value = serde_json::from_str(&c.verdict_text).unwrap();
        assert_eq!(j["summary"], "passed: 1 check within their limits");
        assert_eq!(j["checks"][0]["benchmark"], "main");
        assert_eq!(j["checks"][0]["phase"], "main");
        assert_eq!(j["checks"][0]["status"], "ok");
        assert_eq!(j["checks"][0]["limits"]["relative_pct"], 0.5);
        let bad = CheckOptions {
            phases: vec!["parse".into()],
            ..Default::default()
        };
        assert_eq!(
            check_profiles(&one(&base, &new), &limits, &bad)
                .unwrap_err()
                .to_string(),
            "unknown phase `parse`; available: main, work"
        );
    }

    #[test]
    fn phase_overrides_missing_and_new_phases() {
        let (base, mut new) = (phased(200, 0), phased(202, 0));
        let limits = Limits::parse(
            "[limits.instructions]\nrelative = 0.5\n[phases.\"w*\".instructions]\nrelative = 2\n",
        )
        .unwrap();
        let c = check_profiles(&one(&base, &new), &limits, &phase_opts(CheckFormat::Text)).unwrap();
        assert!(!c.failed, "{}", c.verdict_text);
        assert_eq!(c.verdicts[1].limit.relative_pct, Some(2.0));
        // `work` renamed: the baseline's fails as missing, the new passes.
        new.phases[1].name = "work2".into();
        let c = check_profiles(&one(&base, &new), &limits, &phase_opts(CheckFormat::Json)).unwrap();
        assert!(c.failed);
        let j: serde_json::Value = serde_json::from_str(&c.verdict_text).unwrap();
        let row = |k: usize, key: &str| j["checks"][k][key].clone();
        assert_eq!(row(1, "benchmark"), "work");
        assert_eq!(row(1, "presence"), "missing");
        assert_eq!(row(1, "current"), serde_json::Value::Null);
        assert_eq!(row(1, "failures")[0], "missing from the profile");
        assert_eq!(row(2, "benchmark"), "work2");
        assert_eq!(row(2, "status"), "new");
        assert_eq!(row(2, "baseline"), serde_json::Value::Null);
        assert_eq!(
            j["summary"],
            "FAILED: work instructions missing (1 of 3 checks over their limits)"
        );
    }

    #[test]
    fn function_limits() {
        // b (in phase main) does 10 more; totals within 5%.
        let (base, new) = (phased(200, 0), phased(200, 10));
        let mut limits = cli(&["instructions:5%"]);
        limits.merge(
            Limits::parse("[functions.\"b*\".instructions]\nrelative = 10\nabsolute = 5\n")
                .unwrap(),
        );
        // Whole profile: b 40 -> 50 is +25% and +10: fails.
        let c = check(&base, &new, &limits).unwrap();
        assert!(c.failed);
        assert_eq!(c.verdicts.len(), 2);
        assert_eq!(c.verdicts[1].name(), "b");
        assert_eq!(c.verdicts[1].failures, ["+25.00% > +10.00% and +10 > +5"]);
        assert!(
            c.verdict_text.contains(
                "\nb          instructions        40       50     +10   +25.00%  REGRESSED"
            ),
            "{}",
            c.verdict_text
        );
        // Per phase: b is only in main.
        let c = check_profiles(&one(&base, &new), &limits, &phase_opts(CheckFormat::Text)).unwrap();
        let names: Vec<String> = c.verdicts.iter().map(|v| v.name()).collect();
        assert_eq!(names, ["main", "main: b", "work"]);
        // A floor of 20 counts: +10 passes.
        let mut floor = cli(&["instructions:5%"]);
        floor.merge(
            Limits::parse("[functions.b.instructions]\nrelative = 10\nabsolute = 20\n").unwrap(),
        );
        assert!(!check(&base, &new, &floor).unwrap().failed);
        let err = Limits::parse("[functions.b.instructions]\nrelativ = 1\n").unwrap_err();
        assert_eq!(err.to_string(), "limits, line 2: unknown key `relativ` in `functions.b.instructions` (expected relative, absolute, max)");
        let mut unknown = Limits::default();
        unknown.merge(Limits::parse("[functions.b.cycles]\nmax = 1\n").unwrap());
        assert!(check(&base, &new, &unknown).is_err());
    }

    #[test]
    fn several_profiles_in_one_call() {
        let (a, b) = (phased(200, 0), phased(210, 0));
        let inputs = [
            CheckInput {
                name: "a.out",
                baseline: &a,
                current: &a,
                created: true,
            },
            CheckInput {
                name: "b.out",
                baseline: &a,
                current: &b,
                created: false,
            },
        ];
        let limits = cli(&["instructions:1%"]);
        let c = check_profiles(
            &inputs,
            &limits,
            &CheckOptions {
                phases: vec!["work".into()],
                format: CheckFormat::Markdown,
            },
        )
        .unwrap();
        assert!(c.failed);
        assert!(c.verdict_text.starts_with("### pathvm check FAILED: b.out / work instructions +5.00% (1 of 2 checks over their limits)\n"), "{}", c.verdict_text);
        assert!(
            c.verdict_text.contains(
                "| a.out / work | instructions | 200 | 200 | 0 (0.00%) | +1.00% | CREATED |\n"
            ),
            "{}",
            c.verdict_text
        );
        assert!(
            c.verdict_text
                .contains("- a.out: baseline created from the profile\n"),
            "{}",
            c.verdict_text
        );
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
