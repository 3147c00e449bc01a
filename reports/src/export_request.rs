//! `pathvm export`: the format a request asks for, with each format's
//! defaults (the metric drawn, the title), written to one output.

use std::io::Write;

use crate::{
    export_bmf, export_callgrind, export_callgrind_paths, export_flamegraph, export_folded,
    export_pprof, export_speedscope, ExportError, Profile,
};

/// The metric of a folded-stacks file or a flame graph when none is given.
pub const DEFAULT_EXPORT_METRIC: &str = "instructions";

/// The formats `pathvm export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportFormat {
    /// The callgrind format (callgrind_annotate, KCachegrind).
    Callgrind,
    /// Folded stacks, one line per calling context.
    Folded,
    /// An SVG flame graph.
    Flamegraph,
    /// speedscope's JSON: one sampled profile per metric.
    Speedscope,
    /// A gzipped pprof protocol buffer.
    Pprof,
    /// Bencher Metric Format JSON.
    Bmf,
}

/// What to export and how.
#[derive(Clone, Copy, Debug)]
pub struct ExportRequest<'a> {
    /// The format.
    pub format: ExportFormat,
    /// Folded and flame graph: the metric drawn (default
    /// [`DEFAULT_EXPORT_METRIC`]); speedscope: the only metric written
    /// (default all); pprof: the default sample type. BMF writes every
    /// metric and takes none.
    pub metric: Option<&'a str>,
    /// Callgrind only: each function's Ball-Larus paths as functions of
    /// their own (`name [path N]`).
    pub callgrind_paths: bool,
}

/// Writes `profile` as `req` asks. An option that does not apply to the
/// format is an error, never ignored.
pub fn export(
    profile: &Profile,
    req: &ExportRequest,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let invalid = |msg: &str| ExportError::NotApplicable(msg.into());
    if req.format == ExportFormat::Bmf && req.metric.is_some() {
        return Err(invalid("--metric: --format bmf writes every metric"));
    }
    if req.callgrind_paths && req.format != ExportFormat::Callgrind {
        return Err(invalid("--paths applies to --format callgrind only"));
    }
    let one_metric = req.metric.unwrap_or(DEFAULT_EXPORT_METRIC);
    match req.format {
        ExportFormat::Callgrind if req.callgrind_paths => export_callgrind_paths(profile, out),
        ExportFormat::Callgrind => export_callgrind(profile, out),
        ExportFormat::Folded => export_folded(profile, one_metric, out),
        ExportFormat::Flamegraph => {
            let title = format!("pathvm: {} ({one_metric})", profile.meta.command.join(" "));
            export_flamegraph(profile, one_metric, &title, out)
        }
        ExportFormat::Speedscope => export_speedscope(profile, req.metric, out),
        ExportFormat::Pprof => export_pprof(profile, req.metric, out),
        ExportFormat::Bmf => export_bmf(profile, out),
    }
}
