//! `report`, `export`, `diff`, `check` and `view`: a profile read, a view
//! of it from `reports`, written out.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::options::{
    By, CheckArgs, CheckFormat, DiffArgs, DiffBy, DiffFormat, ExportArgs, ExportFormat, Format,
    ReportArgs, ViewArgs,
};

/// Exit status of `report`, `export`, `diff` and `check` on an error.
pub(crate) const EXIT_ERROR: u8 = 2;

/// What `report`, `export`, `diff` and `check` return: their exit status, or
/// the one-line error that gives [`EXIT_ERROR`].
pub(crate) type Outcome = Result<ExitCode, Box<dyn std::error::Error>>;

pub(crate) fn finish(outcome: Outcome) -> ExitCode {
    outcome.unwrap_or_else(|e| {
        eprintln!("pathvm: {e}");
        ExitCode::from(EXIT_ERROR)
    })
}

fn report_format(f: Format) -> reports::ReportFormat {
    match f {
        Format::Text => reports::ReportFormat::Text,
        Format::Json => reports::ReportFormat::Json,
    }
}

/// Rows of a text report when `--top` is not given.
const DEFAULT_TOP: usize = 20;
/// The width of a text report written to something that is not a terminal.
const DEFAULT_WIDTH: usize = 100;

/// The columns of the terminal on stdout, if stdout is one.
fn terminal_width() -> Option<usize> {
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one `winsize` to the pointer it is given.
    let rc = unsafe { libc::ioctl(1, libc::TIOCGWINSZ, &mut size) };
    (rc == 0 && size.ws_col > 0).then_some(size.ws_col as usize)
}

pub(crate) fn report(mut a: ReportArgs) -> Outcome {
    a.check_options_apply()?;
    let mut profile = reports::read_profiles(&a.file)?;
    if let Some(tid) = a.thread {
        profile = reports::restrict_to_thread(&profile, tid)?;
    }
    if matches!(a.by, By::Context | By::Caller | By::Callpath) && !a.stats && !a.hot_summary {
        // Not read by these views: the memory is the tree's.
        profile.paths = Default::default();
        profile.blocks = Default::default();
    }
    let format = report_format(a.format);
    if a.hot_summary {
        a.by = By::Path;
    }
    if let Some(path) = a.path {
        let out = reports::report_path_annotate(
            &profile,
            &reports::AnnotateOptions {
                path,
                function: a.function.first().cloned(),
                format,
            },
        )?;
        emit(out.as_bytes());
        return Ok(ExitCode::SUCCESS);
    }
    let path_metric = a.sort.clone().or_else(|| a.metric.first().cloned());
    let text = matches!(a.format, Format::Text);
    if a.metric.is_empty() && text {
        // A readable default for the terminal; JSON carries every metric.
        a.metric = reports::default_text_metrics(&profile);
    }
    a.top = match a.top {
        Some(0) => None,
        None if text => Some(DEFAULT_TOP),
        top => top,
    };
    let width = match a.width {
        Some(0) => None,
        Some(w) => Some(w),
        None => Some(terminal_width().unwrap_or(DEFAULT_WIDTH)),
    };
    let out = if a.stats && matches!(a.by, By::Path) {
        reports::report_path_stats(&profile, format)?
    } else if a.phases || a.phase.is_some() {
        reports::report_phases(
            &profile,
            &reports::PhaseReportOptions {
                phase: a.phase.clone(),
                metrics: a.metric.clone(),
                sort_by: a.sort.clone(),
                top: a.top,
                format,
            },
        )?
    } else if a.stats {
        reports::report_stats(&profile, format)?
    } else {
        match a.by {
            By::Path => reports::report_paths(
                &profile,
                &reports::PathReportOptions {
                    metric: path_metric,
                    top: a.top,
                    threshold: a.threshold.unwrap_or(1.0),
                    functions: a.function,
                    context: a.context,
                    hot_summary: a.hot_summary,
                    format,
                },
            )?,
            By::Function | By::Thread => {
                let o = reports::FunctionReportOptions {
                    metrics: a.metric,
                    sort_by: a.sort,
                    top: a.top,
                    format,
                    width,
                };
                if matches!(a.by, By::Function) {
                    reports::report_functions(&profile, &o)?
                } else {
                    reports::report_threads(&profile, &o)?
                }
            }
            By::Block | By::Line | By::Instruction => {
                let o = reports::BlockReportOptions {
                    metrics: a.metric,
                    sort_by: a.sort,
                    top: a.top,
                    format,
                };
                match a.by {
                    By::Block => reports::report_blocks(&profile, &o)?,
                    By::Line => reports::report_lines(&profile, &o)?,
                    _ => reports::report_instructions(&profile, &o)?,
                }
            }
            By::Context | By::Caller | By::Callpath => reports::report_contexts(
                &profile,
                &reports::ContextReportOptions {
                    view: match a.by {
                        By::Caller => reports::ContextView::Callers {
                            levels: a.depth.unwrap_or(2).max(1),
                        },
                        By::Callpath => reports::ContextView::CallPaths {
                            depth: a.depth.unwrap_or(2).max(1),
                        },
                        _ => reports::ContextView::Tree,
                    },
                    metrics: a.metric,
                    sort_by: a.sort,
                    threshold_pct: a.threshold.unwrap_or(0.0),
                    focus: a.focus,
                    path_contains: a.path_contains,
                    top: a.top,
                    width,
                    format,
                },
            )?,
        }
    };
    emit(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn export(a: ExportArgs) -> Outcome {
    let profile = reports::read_profiles(&a.file)?;
    let metric = a.metric.as_deref();
    let one_metric = metric.unwrap_or("instructions");
    let title = format!("pathvm: {} ({one_metric})", profile.meta.command.join(" "));
    if matches!(a.format, ExportFormat::Bmf) && metric.is_some() {
        return Err("--metric: --format bmf writes every metric".into());
    }
    write_out_with(a.output.as_deref(), |out| {
        match a.format {
            ExportFormat::Callgrind if a.paths => reports::export_callgrind_paths(&profile, out)?,
            ExportFormat::Callgrind => reports::export_callgrind(&profile, out)?,
            ExportFormat::Folded => reports::export_folded(&profile, one_metric, out)?,
            ExportFormat::Flamegraph => {
                reports::export_flamegraph(&profile, one_metric, &title, out)?
            }
            ExportFormat::Speedscope => reports::export_speedscope(&profile, metric, out)?,
            ExportFormat::Pprof => reports::export_pprof(&profile, metric, out)?,
            ExportFormat::Bmf => reports::export_bmf(&profile, out)?,
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Writes a command's output to `path`, or to standard output.
pub(crate) fn write_out(
    path: Option<&Path>,
    bytes: &[u8],
) -> Result<(), Box<dyn std::error::Error>> {
    write_out_with(path, |out| Ok(out.write_all(bytes)?))
}

/// Writes what `fill` writes to `path`, streamed through a temporary file
/// renamed into place once `fill` succeeds (nothing is left on an error),
/// or to standard output, gathered first so that an error prints no half
/// output.
fn write_out_with(
    path: Option<&Path>,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    match path {
        Some(path) => {
            let fail = |e: &std::io::Error| format!("{}: {e}", path.display());
            let mut out = reports::OutputFile::create(path).map_err(|e| fail(&e))?;
            fill(&mut out).map_err(|e| -> Box<dyn std::error::Error> {
                if let Some(io) = e.downcast_ref::<std::io::Error>() {
                    return fail(io).into();
                }
                if let Some(reports::ExportError::Io(io)) = e.downcast_ref() {
                    return fail(io).into();
                }
                e
            })?;
            out.commit().map_err(|e| fail(&e))?;
        }
        None => {
            let mut buf = Vec::new();
            fill(&mut buf)?;
            emit(&buf);
        }
    }
    Ok(())
}

pub(crate) fn diff(a: DiffArgs) -> Outcome {
    if matches!(a.format, DiffFormat::Flamegraph) {
        if a.phase.is_some() {
            return Err("--phase: --format flamegraph draws whole profiles".into());
        }
        if a.metric.len() > 1 {
            return Err("--metric: --format flamegraph draws one metric".into());
        }
    }
    let mut old = reports::read_profile(&a.old)?;
    let mut new = reports::read_profile(&a.new)?;
    if let (Some(why), false) = (
        reports::cpu_mismatch(&old.meta, &new.meta),
        a.allow_cpu_mismatch,
    ) {
        return Err(why.into());
    }
    if let Some(phase) = &a.phase {
        old = reports::phase_profile(&old, phase)?;
        new = reports::phase_profile(&new, phase)?;
    }
    let fail_on = a
        .fail_on
        .iter()
        .map(|f| f.parse::<reports::FailOn>())
        .collect::<Result<Vec<_>, _>>()?;
    let opts = reports::DiffOptions {
        by: match a.by {
            DiffBy::Function => reports::DiffBy::Function,
            DiffBy::Context => reports::DiffBy::Context,
            DiffBy::Path => reports::DiffBy::Path,
        },
        metrics: a.metric,
        threshold_pct: a.threshold,
        top: a.top,
        fail_on,
        format: match a.format {
            DiffFormat::Json => reports::DiffFormat::Json,
            // The limits are judged as for text; the graph is drawn below.
            DiffFormat::Text | DiffFormat::Flamegraph => reports::DiffFormat::Text,
            DiffFormat::Markdown => reports::DiffFormat::Markdown,
        },
        old_name: a.old.display().to_string(),
        new_name: a.new.display().to_string(),
        ..Default::default()
    };
    let d = reports::diff(&old, &new, &opts)?;
    if matches!(a.format, DiffFormat::Flamegraph) {
        let metric = opts.metrics.first().map_or("instructions", String::as_str);
        let title = format!(
            "pathvm diff: {} -> {} ({metric})",
            a.old.display(),
            a.new.display()
        );
        let mut svg = Vec::new();
        reports::export_diff_flamegraph(&old, &new, metric, &title, &mut svg)?;
        write_out(a.output.as_deref(), &svg)?;
    } else {
        write_out(a.output.as_deref(), d.text.as_bytes())?;
    }
    Ok(ExitCode::from(u8::from(d.regressed)))
}

/// The baseline of each profile: `--baseline` itself for one profile,
/// unless it is a directory (or ends in `/`); in a directory, the
/// profile's file name.
fn baselines_of(a: &CheckArgs) -> Result<Vec<PathBuf>, String> {
    let base = &a.baseline;
    let is_dir = base.is_dir() || base.as_os_str().as_encoded_bytes().ends_with(b"/");
    if a.profiles.len() == 1 && !is_dir {
        return Ok(vec![base.clone()]);
    }
    if base.exists() && !base.is_dir() {
        return Err(format!(
            "--baseline {}: several profiles need a directory of baselines",
            base.display()
        ));
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for p in &a.profiles {
        let name = p
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", p.display()))?;
        let b = base.join(name);
        if out.contains(&b) {
            return Err(format!(
                "two profiles are named {}: their baselines would be one file",
                name.to_string_lossy()
            ));
        }
        out.push(b);
    }
    Ok(out)
}

pub(crate) fn check(a: CheckArgs) -> Outcome {
    let baselines = baselines_of(&a)?;
    let currents = a
        .profiles
        .iter()
        .map(reports::read_profile)
        .collect::<Result<Vec<_>, _>>()?;
    if a.update_baseline {
        for ((base, path), current) in baselines.iter().zip(&a.profiles).zip(&currents) {
            write_baseline(base, current)?;
            println!(
                "baseline {} updated from {}",
                base.display(),
                path.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut bases = Vec::new();
    let mut created = Vec::new();
    for ((base, current), path) in baselines.iter().zip(&currents).zip(&a.profiles) {
        if a.save_baseline && !base.exists() {
            write_baseline(base, current)?;
            bases.push(current.clone());
            created.push(true);
        } else {
            let baseline = reports::read_profile(base)?;
            if let (Some(why), false) = (
                reports::cpu_mismatch(&baseline.meta, &current.meta),
                a.allow_cpu_mismatch,
            ) {
                return Err(format!("{} against {}: {why}", path.display(), base.display()).into());
            }
            bases.push(baseline);
            created.push(false);
        }
    }
    let mut limits = match &a.limits {
        Some(path) => reports::Limits::read(path)?,
        None => reports::Limits::default(),
    };
    limits.merge(reports::Limits::from_cli(&a.limit)?);
    let names: Vec<String> = a
        .profiles
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    let inputs: Vec<reports::CheckInput> = (0..currents.len())
        .map(|i| reports::CheckInput {
            name: &names[i],
            baseline: &bases[i],
            current: &currents[i],
            created: created[i],
        })
        .collect();
    let opts = reports::CheckOptions {
        phases: a.phase.clone(),
        format: match a.format {
            CheckFormat::Text => reports::CheckFormat::Text,
            CheckFormat::Markdown => reports::CheckFormat::Markdown,
            CheckFormat::Json => reports::CheckFormat::Json,
        },
    };
    let c = reports::check_profiles(&inputs, &limits, &opts)?;
    emit(c.verdict_text.as_bytes());
    Ok(ExitCode::from(u8::from(c.failed)))
}

/// Writes a baseline, making its directory when missing.
fn write_baseline(
    path: &Path,
    profile: &reports::Profile,
) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    reports::write_profile(path, profile)?;
    Ok(())
}

/// Source files larger than this are not put in a page.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

pub(crate) fn view(a: ViewArgs) -> Outcome {
    let (new, old) = match a.files.as_slice() {
        [one] => (reports::read_profile(one)?, None),
        [old, new] => (
            reports::read_profile(new)?,
            Some(reports::read_profile(old)?),
        ),
        _ => return Err("view takes one profile, or two (OLD NEW)".into()),
    };
    let mut dirs = vec![PathBuf::from(".")];
    dirs.extend(a.source_dir.iter().cloned());
    let mut read_source = |name: &str| -> Option<String> {
        let path = std::path::Path::new(name);
        let candidates: Vec<PathBuf> = if path.is_absolute() {
            std::iter::once(path.to_path_buf())
                .chain(
                    a.source_dir
                        .iter()
                        .filter_map(|d| path.file_name().map(|f| d.join(f))),
                )
                .collect()
        } else {
            dirs.iter().map(|d| d.join(path)).collect()
        };
        candidates.into_iter().find_map(|p| {
            let meta = std::fs::metadata(&p).ok()?;
            if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
                return None;
            }
            let bytes = std::fs::read(&p).ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        })
    };
    let opts = reports::ViewOptions {
        threshold: a.threshold,
        max_contexts: a.max_contexts,
        ..Default::default()
    };
    let data = reports::view_data(&new, old.as_ref(), &mut read_source, &opts)?;
    let title = match a.files.as_slice() {
        [old, new] => format!("{} vs {}", old.display(), new.display()),
        _ => new.meta.command.join(" "),
    };
    let html = reports::view_html(&data, &title);
    write_out(Some(&a.output), html.as_bytes())?;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pathvm: wrote {} ({:.1} MB)",
        a.output.display(),
        html.len() as f64 / 1e6
    );
    for note in &data.notes {
        let _ = writeln!(err, "pathvm: {note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Write a report to standard output. A reader that went away (`| head`)
/// is not an error: the rest is not wanted. Other write errors are
/// reported on stderr; the exit status stays the command's.
fn emit(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("pathvm: standard output: {e}");
        }
    }
}
