//! Reports: the profile file and everything read from it.
//!
//! It owns the profile format (written by `pathvm run`, read by every other
//! command), the report views, `diff`, `check` and the exports. It never
//! runs a guest and never links the emulator: apart from [`read_profile`],
//! [`write_profile`] and [`Limits::read`], every function takes
//! [`Profile`]s and options and returns text (or a typed outcome), or, for
//! the exports, writes to a writer it is given, so each is testable on
//! hand-built profiles and the command line stays thin.
//!
//! - [`file`](mod@file): the versioned, checksummed, atomically written profile file.
//! - [`functions`]: `report --by function`, whose JSON is a contract.
//! - [`contexts`]: `report --by context|caller|callpath`, `--focus`,
//!   `--path-contains`, `--stats`, from the calling context tree.
//! - [`diff`](mod@diff): `diff OLD NEW` with thresholds and `--fail-on` limits.
//! - [`check`](mod@check): `check --baseline` with limits from TOML or `--limit`.
//! - [`paths`](mod@paths): `report --by path`, hot paths and `--hot-summary`.
//! - [`threads`]: `report --by thread` and `--thread N`.
//! - [`phases`]: `report --phases`, `report --phase NAME`, `diff --phase NAME`.
//! - [`merge`](mod@merge): `report FILE...`, several profiles (the processes
//!   of a `--trace-children` run) merged into one.
//! - [`summary`]: `run --json-summary`.
//! - [`view`](mod@view): `pathvm view`, one self-contained HTML page of a
//!   profile or a comparison of two (its code in `src/view/`).
//! - [`export`](mod@export): `export --format callgrind|folded|flamegraph`;
//!   [`export_speedscope`](mod@export_speedscope) and
//!   [`export_pprof`](mod@export_pprof): `--format speedscope|pprof`.
//!
//! Output never depends on hash order: every row order is a sort with a
//! total tie-break (cost, then name). Errors are one line each:
//! [`ProfileError`] names the file, [`ReportError`] the option or metric.
//! The command line maps them to exit status 2; [`DiffOutcome::regressed`]
//! and [`CheckOutcome::failed`] to 1.

#![warn(missing_docs)]

pub mod baselines;
pub mod blocks;
pub mod check;
pub mod contexts;
pub mod diff;
pub mod error;
pub mod export;
pub mod export_bmf;
pub mod export_diff;
pub mod export_pprof;
pub mod export_request;
pub mod export_speedscope;
pub mod file;
pub mod functions;
pub mod glob;
pub mod inline;
pub mod merge;
mod metric;
pub mod paths;
pub mod phases;
pub mod profile;
pub mod report;
pub mod sources;
pub mod summary;
mod table;
pub mod threads;
pub mod view;

#[cfg(test)]
mod testdata;

pub use baselines::{check_files, CheckFiles, CheckFilesError, CheckFilesOutcome};
pub use blocks::{report_blocks, report_instructions, report_lines, BlockReportOptions};
pub use check::{
    check, check_profiles, CheckFormat, CheckInput, CheckOptions, CheckOutcome, Limit, Limits,
    LimitsError, MetricVerdict, Presence,
};
pub use contexts::{
    cct_stats, report_contexts, report_stats, CctStats, ContextReportOptions, ContextView,
};
pub use diff::{
    diff, diff_files, run_differences, DiffBy, DiffFiles, DiffFilesError, DiffFormat, DiffOptions,
    DiffOutcome, FailOn, FailScope, Regression,
};
pub use error::ReportError;
pub use export::{
    callgrind_event_names, export_callgrind, export_callgrind_paths, export_flamegraph,
    export_folded, ExportError,
};
pub use export_bmf::{bmf_benchmarks, export_bmf};
pub use export_diff::export_diff_flamegraph;
pub use export_pprof::export_pprof;
pub use export_request::{export, ExportFormat, ExportRequest, DEFAULT_EXPORT_METRIC};
pub use export_speedscope::export_speedscope;
pub use file::{
    check_writable, decode_profile, encode_profile, read_profile, write_profile, DecodeError,
    OutputFile, ProfileError,
};
pub use functions::{report_functions, FunctionReportOptions, ReportFormat};
pub use inline::{add_inline_rows, strip_inlines, with_inline_rows, INLINE_SUFFIX};
pub use merge::{merge_profiles, read_profiles, ReadProfilesError};
pub use metric::{default_text_metrics, SIMULATED_WEIGHTS};
pub use paths::{
    report_path_annotate, report_path_stats, report_paths, AnnotateOptions, PathClass,
    PathReportOptions,
};
pub use phases::{phase_profile, report_phases, PhaseReportOptions};
pub use profile::{
    cpu_mismatch, cpu_model_name, focus_keep, outermost_activations, BlockProfile, BlockRow,
    ContextTable, FunctionCosts, FunctionRow, InlineFrame, InlineInsn, InlineProfile, InsnProfile,
    InsnRow, Meta, ObjectInfo, PathBlock, PathFunction, PathInfo, PathLine, PathNumbering,
    PathProfile, PathRow, Phase, PhaseFunction, Profile, DEFAULT_CPU_MODEL, VALGRIND_EVENTS,
};
pub use report::{report, ReportRequest, View, DEFAULT_TOP};
pub use sources::SourceDirs;
pub use summary::{json_summary, top_functions};
pub use threads::{report_threads, restrict_to_thread, thread_totals, ThreadTotals};
pub use view::{view_data, view_html, ViewData, ViewOptions};
