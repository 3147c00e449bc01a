//! The profile reader on arbitrary bytes: it must return a profile or a
//! one-line error, never panic, whatever the file holds.
//!
//! Each input is tried twice: as a whole file (magic, version, length,
//! checksum all under the fuzzer's control), and as a body framed with a
//! right header and checksum, so that the fuzzer also reaches the body's
//! decoding and the validation behind the checksum. A profile that decodes
//! goes through the views and exports, which must not panic on anything
//! the reader accepts.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reports::file::{FORMAT_VERSION, MAGIC};

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = reports::decode_profile(data) {
        exercise(&p);
    }
    // The body framed as `pathvm run` frames it; the first byte picks the
    // version (so older formats are reached too).
    let (version, body) = match data.split_first() {
        Some((v, rest)) => (1 + u32::from(*v) % FORMAT_VERSION, rest),
        None => (FORMAT_VERSION, data),
    };
    let mut framed = Vec::with_capacity(body.len() + 24);
    framed.extend_from_slice(&MAGIC);
    framed.extend_from_slice(&version.to_le_bytes());
    framed.extend_from_slice(&(body.len() as u64).to_le_bytes());
    framed.extend_from_slice(body);
    let crc = crc32fast::hash(&framed);
    framed.extend_from_slice(&crc.to_le_bytes());
    if let Ok(p) = reports::decode_profile(&framed) {
        exercise(&p);
    }
});

/// Every view and export of a decoded profile; results are discarded, only
/// panics matter.
fn exercise(p: &reports::Profile) {
    use reports::*;
    for format in [ReportFormat::Text, ReportFormat::Json] {
        let _ = report_functions(
            p,
            &FunctionReportOptions {
                format,
                ..Default::default()
            },
        );
        for view in [
            ContextView::Tree,
            ContextView::Callers { levels: 2 },
            ContextView::CallPaths { depth: 2 },
        ] {
            let _ = report_contexts(
                p,
                &ContextReportOptions {
                    view,
                    format,
                    ..Default::default()
                },
            );
        }
        let _ = report_stats(p, format);
    }
    let _ = json_summary(p, 3);
    let _ = report_phases(p, &PhaseReportOptions::default());
    for phase in &p.phases {
        for format in [ReportFormat::Text, ReportFormat::Json] {
            let _ = report_phases(
                p,
                &PhaseReportOptions {
                    phase: Some(phase.name.clone()),
                    format,
                    ..Default::default()
                },
            );
        }
        if let Ok(q) = phase_profile(p, &phase.name) {
            let _ = diff(&q, p, &DiffOptions::default());
        }
    }
    let _ = diff(p, p, &DiffOptions::default());
    let _ = check(p, p, &Limits::default());
    let mut sink = Vec::new();
    let _ = export_callgrind(p, &mut sink);
    let first = p.metrics.first().map(String::as_str).unwrap_or("instructions");
    let _ = export_folded(p, first, &mut sink);
    let _ = export_speedscope(p, None, &mut sink);
    let _ = export_pprof(p, None, &mut sink);
}
