//! The one error type of the views, `diff` and `check`.

/// Why a report, diff or check could not be made. The messages are one
/// line each, fit to print after `pathvm: `.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A metric named in the options is not in the profile (or, for
    /// `diff` and `check`, not in both profiles).
    #[error("unknown metric `{name}`; available: {}", list(available))]
    UnknownMetric {
        /// The name asked for.
        name: String,
        /// The metrics that can be asked for.
        available: Vec<String>,
    },
    /// A phase named in the options is not in the profile.
    #[error("unknown phase `{name}`; available: {}", list(available))]
    UnknownPhase {
        /// The name asked for.
        name: String,
        /// The phases of the profile.
        available: Vec<String>,
    },
    /// The profile (or one of the two) has no metric at all.
    #[error("the profile has no metrics")]
    NoMetrics,
    /// The profile's columns disagree (see [`crate::Profile::validate`]).
    #[error("inconsistent profile: {0}")]
    InvalidProfile(String),
    /// Profiles to merge do not have the same metrics in the same order.
    #[error("cannot merge: profile {index} has metric {found} where profile 0 has {expected} (column {position})")]
    MetricsDiffer {
        /// Position of the profile in the list given (0 is the first).
        index: usize,
        /// The first column where its metrics differ from the first profile's.
        position: usize,
        /// Its metric there, quoted (`none` when it has fewer).
        found: String,
        /// The first profile's metric there, quoted (`none` when it has fewer).
        expected: String,
    },
    /// An option is out of its range (a negative threshold, a depth of 0, ...).
    #[error("invalid option: {0}")]
    InvalidOption(String),
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
