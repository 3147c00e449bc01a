//! Choosing metrics by name, and writing per-metric costs as JSON maps.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::error::ReportError;
use crate::profile::Profile;

/// The metrics a view shows, as columns of the profile's cost vectors.
#[derive(Clone, Debug)]
pub(crate) struct Selection {
    /// Names, in the order asked for (the profile's order when none were).
    pub names: Vec<String>,
    /// Column in the profile of each name.
    pub cols: Vec<usize>,
    /// Column in the profile of the metric rows are sorted and pruned by.
    pub sort: usize,
}

impl Selection {
    /// Picks `names` (all metrics when empty) and the sort metric (the
    /// first picked one when `None`) after validating the profile.
    pub fn new(
        profile: &Profile,
        names: &[String],
        sort_by: Option<&str>,
    ) -> Result<Selection, ReportError> {
        profile.validate().map_err(ReportError::InvalidProfile)?;
        if profile.metrics.is_empty() {
            return Err(ReportError::NoMetrics);
        }
        let unknown = |name: &str| ReportError::UnknownMetric {
            name: name.to_string(),
            available: profile.metrics.clone(),
        };
        let mut cols = Vec::new();
        for name in names {
            let col = profile.metric_index(name).ok_or_else(|| unknown(name))?;
            if !cols.contains(&col) {
                cols.push(col);
            }
        }
        if cols.is_empty() {
            cols = (0..profile.metrics.len()).collect();
        }
        let sort = match sort_by {
            Some(name) => profile.metric_index(name).ok_or_else(|| unknown(name))?,
            None => cols[0],
        };
        Ok(Selection {
            names: cols.iter().map(|&c| profile.metrics[c].clone()).collect(),
            cols,
            sort,
        })
    }

    /// The picked values of a full cost vector (one value per profile metric).
    pub fn pick(&self, costs: &[u64]) -> Vec<u64> {
        self.cols.iter().map(|&c| costs[c]).collect()
    }

    /// The picked values as a JSON object `{metric: n}` in selection order.
    pub fn map<'a>(&'a self, costs: &[u64]) -> CostMap<'a> {
        CostMap {
            names: &self.names,
            values: self.pick(costs),
        }
    }
}

/// `{metric: value}` serialized in metric order (not sorted by key).
#[derive(Clone, Debug)]
pub(crate) struct CostMap<'a> {
    pub names: &'a [String],
    pub values: Vec<u64>,
}

impl Serialize for CostMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.names.len()))?;
        for (name, value) in self.names.iter().zip(&self.values) {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// Any `(key, value)` list serialized as a JSON object in list order.
#[derive(Clone, Debug)]
pub(crate) struct OrderedMap<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for OrderedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Pretty JSON with a final newline.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("report values always serialize");
    s.push('\n');
    s
}

/// The text lines that open the text views: the CPU model when it is not
/// the default one (`CPU model: x86-64-v3`), then `Totals:
/// instructions 270, l1d-miss 33`.
pub(crate) fn totals_line(sel: &Selection, totals: &[u64], cpu_model: &str) -> String {
    let parts: Vec<String> = sel
        .names
        .iter()
        .zip(sel.pick(totals))
        .map(|(n, v)| format!("{n} {}", crate::table::count(v)))
        .collect();
    let model = crate::profile::cpu_model_name(cpu_model);
    // Only this pathvm's models are named (x86-64-v3); the default says
    // nothing, so that its reports read as they always did.
    let cpu = if model == crate::profile::DEFAULT_CPU_MODEL || !model.starts_with("x86-64-") {
        String::new()
    } else {
        format!("CPU model: {model}\n")
    };
    format!("{cpu}Totals: {}\n", parts.join(", "))
}

/// Estimated cycles of one event of each simulated metric, as the
/// recorder's default cycle model weighs them (`events::CycleModel`: 10 per
/// L1 miss, 100 more per last-level miss, 15 per misprediction; a test in
/// `recorder` keeps the two equal). Ties go to the earlier entry.
pub const SIMULATED_WEIGHTS: [(&str, u64); 5] = [
    ("l1d-miss", 10),
    ("branch-misses", 15),
    ("ll-miss", 100),
    ("l1i-miss", 10),
    ("indirect-misses", 15),
];

/// The metrics a text view shows when none is asked for: `instructions`
/// and the two simulated metrics that cost the most estimated cycles in
/// this profile (by [`SIMULATED_WEIGHTS`]), of those the profile has, in
/// that order. A profile without simulation shows its instructions.
pub fn default_text_metrics(profile: &Profile) -> Vec<String> {
    let total = |name: &str| profile.metric_index(name).map(|i| profile.totals[i]);
    let mut simulated: Vec<(u64, usize, &str)> = SIMULATED_WEIGHTS
        .iter()
        .enumerate()
        .filter_map(|(k, &(name, weight))| Some((total(name)?.saturating_mul(weight), k, name)))
        .collect();
    simulated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<String> = total("instructions")
        .map(|_| "instructions".to_string())
        .into_iter()
        .collect();
    out.extend(simulated.iter().take(2).map(|&(_, _, n)| n.to_string()));
    if out.is_empty() {
        out.extend(profile.metrics.first().cloned());
    }
    out
}
