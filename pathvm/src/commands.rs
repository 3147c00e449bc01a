//! `report`, `export`, `diff`, `check` and `view`: a profile read, a view
//! of it from `reports`, written out.

use std::io::Write;
use std::path::Path;
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

/// The width of a text report written to something that is not a terminal.
const DEFAULT_WIDTH: usize = 100;

/// The columns of the terminal on stdout, if stdout is one.
fn terminal_width() -> Option<usize> {
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one `winsize` to the pointer it is given.
    let rc = unsafe { libc::ioctl(1, libc::TIOCGWINSZ, &mut size) };
    (rc == 0 && size.ws_col > 0).then_some(size.ws_col as usize)
}

pub(crate) fn report(a: ReportArgs) -> Outcome {
    a.check_options_apply()?;
    let profile = reports::read_profiles(&a.file)?;
    let view = match a.by.unwrap_or(By::Function) {
        By::Function => reports::View::Function,
        By::Context => reports::View::Context,
        By::Caller => reports::View::Caller {
            levels: a.depth.unwrap_or(2),
        },
        By::Callpath => reports::View::CallPath {
            depth: a.depth.unwrap_or(2),
        },
        By::Path => reports::View::Path,
        By::Thread => reports::View::Thread,
        By::Block => reports::View::Block,
        By::Line => reports::View::Line,
        By::Instruction => reports::View::Instruction,
    };
    let out = reports::report(
        profile,
        reports::ReportRequest {
            view,
            format: match a.format {
                Format::Text => reports::ReportFormat::Text,
                Format::Json => reports::ReportFormat::Json,
            },
            metrics: a.metric,
            sort: a.sort,
            top: a.top,
            width: match a.width {
                Some(0) => None,
                Some(w) => Some(w),
                None => Some(terminal_width().unwrap_or(DEFAULT_WIDTH)),
            },
            threshold: a.threshold,
            context: a.context,
            functions: a.function,
            hot_summary: a.hot_summary,
            annotate: a.path,
            focus: a.focus,
            path_contains: a.path_contains,
            stats: a.stats,
            thread: a.thread,
            phases: a.phases,
            phase: a.phase,
            no_inline: a.no_inline,
        },
    )?;
    emit(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn export(a: ExportArgs) -> Outcome {
    let mut profile = reports::read_profiles(&a.file)?;
    if a.no_inline {
        reports::strip_inlines(&mut profile);
    }
    let req = reports::ExportRequest {
        format: match a.format {
            ExportFormat::Callgrind => reports::ExportFormat::Callgrind,
            ExportFormat::Folded => reports::ExportFormat::Folded,
            ExportFormat::Flamegraph => reports::ExportFormat::Flamegraph,
            ExportFormat::Speedscope => reports::ExportFormat::Speedscope,
            ExportFormat::Pprof => reports::ExportFormat::Pprof,
            ExportFormat::Bmf => reports::ExportFormat::Bmf,
        },
        metric: a.metric.as_deref(),
        callgrind_paths: a.paths,
    };
    write_out_with(a.output.as_deref(), |out| {
        Ok(reports::export(&profile, &req, out)?)
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
    let flamegraph = matches!(a.format, DiffFormat::Flamegraph);
    let (out, regressed) = reports::diff_files(&reports::DiffFiles {
        old: &a.old,
        new: &a.new,
        phase: a.phase.as_deref(),
        allow_cpu_mismatch: a.allow_cpu_mismatch,
        fail_on: &a.fail_on,
        flamegraph,
        options: reports::DiffOptions {
            by: match a.by {
                DiffBy::Function => reports::DiffBy::Function,
                DiffBy::Context => reports::DiffBy::Context,
                DiffBy::Path => reports::DiffBy::Path,
            },
            metrics: a.metric,
            threshold_pct: a.threshold,
            top: a.top,
            format: match a.format {
                DiffFormat::Json => reports::DiffFormat::Json,
                DiffFormat::Text | DiffFormat::Flamegraph => reports::DiffFormat::Text,
                DiffFormat::Markdown => reports::DiffFormat::Markdown,
            },
            ..Default::default()
        },
    })?;
    write_out(a.output.as_deref(), &out)?;
    Ok(ExitCode::from(u8::from(regressed)))
}

pub(crate) fn check(a: CheckArgs) -> Outcome {
    let done = reports::check_files(&reports::CheckFiles {
        profiles: &a.profiles,
        baseline: &a.baseline,
        limits_file: a.limits.as_deref(),
        limits: &a.limit,
        options: reports::CheckOptions {
            phases: a.phase.clone(),
            format: match a.format {
                CheckFormat::Text => reports::CheckFormat::Text,
                CheckFormat::Markdown => reports::CheckFormat::Markdown,
                CheckFormat::Json => reports::CheckFormat::Json,
            },
        },
        save_baseline: a.save_baseline,
        update_baseline: a.update_baseline,
        allow_cpu_mismatch: a.allow_cpu_mismatch,
    })?;
    match done {
        reports::CheckFilesOutcome::Updated(text) => {
            emit(text.as_bytes());
            Ok(ExitCode::SUCCESS)
        }
        reports::CheckFilesOutcome::Checked(c) => {
            emit(c.verdict_text.as_bytes());
            Ok(ExitCode::from(u8::from(c.failed)))
        }
    }
}

pub(crate) fn view(a: ViewArgs) -> Outcome {
    let (mut new, mut old) = match a.files.as_slice() {
        [one] => (reports::read_profile(one)?, None),
        [old, new] => (
            reports::read_profile(new)?,
            Some(reports::read_profile(old)?),
        ),
        _ => return Err("view takes one profile, or two (OLD NEW)".into()),
    };
    if a.no_inline {
        reports::strip_inlines(&mut new);
        old.iter_mut().for_each(reports::strip_inlines);
    }
    let sources = reports::SourceDirs::new(&a.source_dir);
    let mut read_source = |name: &str| sources.read(name);
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
