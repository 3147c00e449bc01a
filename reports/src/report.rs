//! `pathvm report`: the view a request asks for, with the defaults of a
//! text report (the metrics shown, the rows kept).

use crate::{
    default_text_metrics, report_blocks, report_contexts, report_functions, report_instructions,
    report_lines, report_path_annotate, report_path_stats, report_paths, report_phases,
    report_stats, report_threads, restrict_to_thread, AnnotateOptions, BlockReportOptions,
    ContextReportOptions, ContextView, FunctionReportOptions, PathReportOptions,
    PhaseReportOptions, Profile, ReportError, ReportFormat,
};

/// Rows of a text report when no `top` is given.
pub const DEFAULT_TOP: usize = 20;

/// The rows of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Per function, flat.
    Function,
    /// The calling context tree, top-down.
    Context,
    /// Per function, who calls it, `levels` up (at least 1).
    Caller {
        /// Levels of callers.
        levels: usize,
    },
    /// Call paths of `depth` functions (at least 1), as TAU aggregates them.
    CallPath {
        /// Functions per path.
        depth: usize,
    },
    /// Ball-Larus paths.
    Path,
    /// Per guest thread.
    Thread,
    /// Per executed block.
    Block,
    /// Per source line.
    Line,
    /// Per instruction.
    Instruction,
}

/// What `pathvm report` is asked for.
#[derive(Clone, Debug)]
pub struct ReportRequest {
    /// The rows (`hot_summary` makes it [`View::Path`]).
    pub view: View,
    /// Text or JSON.
    pub format: ReportFormat,
    /// Metrics shown (text default: [`default_text_metrics`]; JSON: all).
    pub metrics: Vec<String>,
    /// Sort by this metric (default: the first shown).
    pub sort: Option<String>,
    /// The costliest rows kept: `Some(0)` all; `None` [`DEFAULT_TOP`] in
    /// text, all in JSON.
    pub top: Option<usize>,
    /// Text: the widest a line may be.
    pub width: Option<usize>,
    /// Context views: the percent of the total below which contexts are
    /// hidden (default 0); paths: the share that makes a path hot
    /// (default 1).
    pub threshold: Option<f64>,
    /// Paths: one row per path and calling context.
    pub context: bool,
    /// Paths: only these functions (globs).
    pub functions: Vec<String>,
    /// Paths: the table of path classes and hot procedures.
    pub hot_summary: bool,
    /// Instead of a view: this path's instructions (in the first of
    /// `functions`).
    pub annotate: Option<u64>,
    /// Context views: only the call paths reaching these functions.
    pub focus: Vec<String>,
    /// Context views: only the subtrees under these functions.
    pub path_contains: Vec<String>,
    /// Instead of a view: statistics of the tree (of the paths with
    /// [`View::Path`]).
    pub stats: bool,
    /// Every view as if guest thread `tid` alone had run.
    pub thread: Option<u32>,
    /// Instead of a view: the totals of every phase.
    pub phases: bool,
    /// Instead of a view: this phase's totals and functions.
    pub phase: Option<String>,
    /// Physical functions only: inlined functions get no rows of their
    /// own (`--no-inline`).
    pub no_inline: bool,
}

/// The report `req` asks for of `profile`.
pub fn report(mut profile: Profile, req: ReportRequest) -> Result<String, ReportError> {
    let mut req = req;
    if req.no_inline {
        crate::strip_inlines(&mut profile);
    }
    if let Some(tid) = req.thread {
        profile = restrict_to_thread(&profile, tid)?;
    }
    let context_view = matches!(
        req.view,
        View::Context | View::Caller { .. } | View::CallPath { .. }
    );
    if context_view && !req.stats && !req.hot_summary {
        // Not read by these views: the memory is the tree's.
        profile.paths = Default::default();
        profile.blocks = Default::default();
        // Their call sites' files are the blocks'.
        profile.inlines = Default::default();
    }
    let format = req.format;
    if req.hot_summary {
        req.view = View::Path;
    }
    if let Some(path) = req.annotate {
        let function = req.functions.first().cloned();
        return report_path_annotate(
            &profile,
            &AnnotateOptions {
                path,
                function,
                format,
            },
        );
    }
    let path_metric = req
        .sort
        .clone()
        .or_else(|| req.metrics.first().cloned())
        .or_else(|| {
            // Dense and sparse compare a path's rate of the metric per
            // instruction with the program's: the hot summary's default is
            // the costliest simulated metric, when the profile has one.
            let simulated = default_text_metrics(&profile).into_iter();
            req.hot_summary
                .then(|| simulated.into_iter().find(|m| m != "instructions"))
                .flatten()
        });
    let text = format == ReportFormat::Text;
    if req.metrics.is_empty() && text {
        // A readable default for the terminal; JSON carries every metric.
        req.metrics = default_text_metrics(&profile);
    }
    let top = match req.top {
        Some(0) => None,
        None if text => Some(DEFAULT_TOP),
        top => top,
    };
    if req.stats && req.view == View::Path {
        return report_path_stats(&profile, format);
    }
    if req.phases || req.phase.is_some() {
        let o = PhaseReportOptions {
            phase: req.phase,
            metrics: req.metrics,
            sort_by: req.sort,
            top,
            format,
        };
        return report_phases(&profile, &o);
    }
    if req.stats {
        return report_stats(&profile, format);
    }
    let functions = FunctionReportOptions {
        metrics: req.metrics.clone(),
        sort_by: req.sort.clone(),
        top,
        format,
        width: req.width,
    };
    let blocks = BlockReportOptions {
        metrics: req.metrics.clone(),
        sort_by: req.sort.clone(),
        top,
        format,
    };
    match req.view {
        View::Path => report_paths(
            &profile,
            &PathReportOptions {
                metric: path_metric,
                top,
                threshold: req.threshold.unwrap_or(1.0),
                functions: req.functions,
                context: req.context,
                hot_summary: req.hot_summary,
                format,
            },
        ),
        View::Function => {
            crate::add_inline_rows(&mut profile);
            report_functions(&profile, &functions)
        }
        View::Thread => report_threads(&profile, &functions),
        View::Block => report_blocks(&profile, &blocks),
        View::Line => report_lines(&profile, &blocks),
        View::Instruction => report_instructions(&profile, &blocks),
        View::Context | View::Caller { .. } | View::CallPath { .. } => report_contexts(
            &profile,
            &ContextReportOptions {
                view: match req.view {
                    View::Caller { levels } => ContextView::Callers {
                        levels: levels.max(1),
                    },
                    View::CallPath { depth } => ContextView::CallPaths {
                        depth: depth.max(1),
                    },
                    _ => ContextView::Tree,
                },
                metrics: req.metrics,
                sort_by: req.sort,
                threshold_pct: req.threshold.unwrap_or(0.0),
                focus: req.focus,
                path_contains: req.path_contains,
                top,
                width: req.width,
                format,
            },
        ),
    }
}
