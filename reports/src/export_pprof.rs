//! `pathvm export --format pprof`: the profile as a gzipped
//! `perftools.profiles.Profile` protocol buffer, read by `go tool pprof`
//! and `pprof`.
//!
//! The messages are written by hand ([`proto`]) with `prost`'s derive, field
//! numbers and types as in pprof's `profile.proto`, so the build needs no
//! `protoc`.
//!
//! - Sample types: every metric of the profile, in metric order, each with
//!   unit `count`; `default_sample_type` is the metric asked for
//!   (`--metric`), the first metric otherwise. The period type is
//!   `instructions`/`count` with period 1.
//! - Functions: one per function row (id = row index + 1) with its name,
//!   source file and entry line, then the pseudo-functions `<root>`,
//!   `<thread>`, `<unknown>` (as in the other exports).
//! - Locations: one per function (same id), address 0, one line: the
//!   function at its entry line. The profile has no per-line costs, so a
//!   location stands for the whole function.
//! - Mappings: one per object of the run (id = index + 1, file name and
//!   build id, `has_functions`, no address range); a location points to the
//!   mapping of its function's object.
//! - Samples: one per context of the calling context tree with a nonzero
//!   self cost in some metric, in context order: its stack leaf first (as
//!   pprof wants) without the root of the tree, and its self cost of every
//!   metric as values; the root context's own cost is the one-location
//!   stack `<root>`. So the values of each type add up to the profile's
//!   total. A profile without a tree has one one-location sample per
//!   function with a self cost.
//! - Comments: the command line and how the run stopped.
//!
//! Counts above `i64::MAX` (pprof's values are signed) are written as
//! `i64::MAX`. The gzip header carries no time stamp, so equal profiles give
//! equal files.

use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use prost::Message;
use rustc_hash::FxHashMap;

use crate::export::{
    context_stack, export_columns, ExportError, ROOT_NAME, THREAD_NAME, UNKNOWN_NAME,
};
use crate::profile::{ContextTable, Profile};

/// The messages of pprof's `profile.proto` (package `perftools.profiles`),
/// field for field.
pub mod proto {
    #![allow(missing_docs)]

    /// `perftools.profiles.Profile`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Profile {
        #[prost(message, repeated, tag = "1")]
        pub sample_type: Vec<ValueType>,
        #[prost(message, repeated, tag = "2")]
        pub sample: Vec<Sample>,
        #[prost(message, repeated, tag = "3")]
        pub mapping: Vec<Mapping>,
        #[prost(message, repeated, tag = "4")]
        pub location: Vec<Location>,
        #[prost(message, repeated, tag = "5")]
        pub function: Vec<Function>,
        #[prost(string, repeated, tag = "6")]
        pub string_table: Vec<String>,
        #[prost(int64, tag = "7")]
        pub drop_frames: i64,
        #[prost(int64, tag = "8")]
        pub keep_frames: i64,
        #[prost(int64, tag = "9")]
        pub time_nanos: i64,
        #[prost(int64, tag = "10")]
        pub duration_nanos: i64,
        #[prost(message, optional, tag = "11")]
        pub period_type: Option<ValueType>,
        #[prost(int64, tag = "12")]
        pub period: i64,
        #[prost(int64, repeated, tag = "13")]
        pub comment: Vec<i64>,
        #[prost(int64, tag = "14")]
        pub default_sample_type: i64,
    }

    /// `perftools.profiles.ValueType`: string table indices.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ValueType {
        #[prost(int64, tag = "1")]
        pub r#type: i64,
        #[prost(int64, tag = "2")]
        pub unit: i64,
    }

    /// `perftools.profiles.Sample`: locations leaf first.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sample {
        #[prost(uint64, repeated, tag = "1")]
        pub location_id: Vec<u64>,
        #[prost(int64, repeated, tag = "2")]
        pub value: Vec<i64>,
        #[prost(message, repeated, tag = "3")]
        pub label: Vec<Label>,
    }

    /// `perftools.profiles.Label`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Label {
        #[prost(int64, tag = "1")]
        pub key: i64,
        #[prost(int64, tag = "2")]
        pub str: i64,
        #[prost(int64, tag = "3")]
        pub num: i64,
        #[prost(int64, tag = "4")]
        pub num_unit: i64,
    }

    /// `perftools.profiles.Mapping`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Mapping {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub memory_start: u64,
        #[prost(uint64, tag = "3")]
        pub memory_limit: u64,
        #[prost(uint64, tag = "4")]
        pub file_offset: u64,
        #[prost(int64, tag = "5")]
        pub filename: i64,
        #[prost(int64, tag = "6")]
        pub build_id: i64,
        #[prost(bool, tag = "7")]
        pub has_functions: bool,
        #[prost(bool, tag = "8")]
        pub has_filenames: bool,
        #[prost(bool, tag = "9")]
        pub has_line_numbers: bool,
        #[prost(bool, tag = "10")]
        pub has_inline_frames: bool,
    }

    /// `perftools.profiles.Location`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Location {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub mapping_id: u64,
        #[prost(uint64, tag = "3")]
        pub address: u64,
        #[prost(message, repeated, tag = "4")]
        pub line: Vec<Line>,
        #[prost(bool, tag = "5")]
        pub is_folded: bool,
    }

    /// `perftools.profiles.Line`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Line {
        #[prost(uint64, tag = "1")]
        pub function_id: u64,
        #[prost(int64, tag = "2")]
        pub line: i64,
        #[prost(int64, tag = "3")]
        pub column: i64,
    }

    /// `perftools.profiles.Function`.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Function {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(int64, tag = "2")]
        pub name: i64,
        #[prost(int64, tag = "3")]
        pub system_name: i64,
        #[prost(int64, tag = "4")]
        pub filename: i64,
        #[prost(int64, tag = "5")]
        pub start_line: i64,
    }
}

/// pprof's string table: index 0 is the empty string.
struct Strings {
    table: Vec<String>,
    index: FxHashMap<String, i64>,
}

impl Strings {
    fn new() -> Strings {
        let mut s = Strings {
            table: Vec::new(),
            index: FxHashMap::default(),
        };
        s.get("");
        s
    }

    fn get(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.table.len() as i64;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }
}

fn signed(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The pprof message of `profile` (not yet encoded), with `metric` (when
/// given) as the default sample type. See the [module documentation](self).
pub fn pprof_profile(
    profile: &Profile,
    metric: Option<&str>,
) -> Result<proto::Profile, ExportError> {
    let cols = export_columns(profile, metric)?;
    let default_col = if metric.is_some() { cols[0] } else { 0 };
    let m = profile.metrics.len();
    let mut st = Strings::new();
    let count = st.get("count");
    let sample_type: Vec<proto::ValueType> = profile
        .metrics
        .iter()
        .map(|name| proto::ValueType {
            r#type: st.get(name),
            unit: count,
        })
        .collect();
    let default_sample_type = sample_type[default_col].r#type;

    let mapping: Vec<proto::Mapping> = profile
        .meta
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| proto::Mapping {
            id: i as u64 + 1,
            filename: st.get(&o.path),
            build_id: st.get(&o.id),
            has_functions: true,
            has_filenames: true,
            has_line_numbers: true,
            ..Default::default()
        })
        .collect();
    let mapping_of = |object: &str| -> u64 {
        profile
            .meta
            .objects
            .iter()
            .position(|o| o.path == object)
            .map_or(0, |i| i as u64 + 1)
    };

    let mut function = Vec::new();
    let mut location = Vec::new();
    let mut add = |id: u64, name: &str, file: Option<&str>, line: Option<u32>, mapping_id: u64| {
        let line = line.map_or(0, i64::from);
        function.push(proto::Function {
            id,
            name: st.get(name),
            system_name: st.get(name),
            filename: st.get(file.unwrap_or("")),
            start_line: line,
        });
        location.push(proto::Location {
            id,
            mapping_id,
            line: vec![proto::Line {
                function_id: id,
                line,
                column: 0,
            }],
            ..Default::default()
        });
    };
    for (i, f) in profile.functions.iter().enumerate() {
        add(
            i as u64 + 1,
            &f.name,
            f.file.as_deref(),
            f.line,
            mapping_of(&f.object),
        );
    }
    let n = profile.functions.len() as u64;
    for (k, name) in [ROOT_NAME, THREAD_NAME, UNKNOWN_NAME].iter().enumerate() {
        add(n + 1 + k as u64, name, None, None, 0);
    }
    let location_of = |node: usize| -> u64 {
        let c = &profile.contexts;
        if node == 0 {
            return n + 1;
        }
        match c.function[node] {
            ContextTable::NO_FUNCTION if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 => {
                n + 2
            }
            ContextTable::NO_FUNCTION => n + 3,
            f => f as u64 + 1,
        }
    };

    let c = &profile.contexts;
    let mut sample = Vec::new();
    if c.is_empty() {
        for (i, f) in profile.functions.iter().enumerate() {
            if f.self_cost.iter().any(|&v| v != 0) {
                sample.push(proto::Sample {
                    location_id: vec![i as u64 + 1],
                    value: f.self_cost.iter().map(|&v| signed(v)).collect(),
                    label: Vec::new(),
                });
            }
        }
    } else {
        let mut stack = Vec::new();
        for node in 0..c.len() {
            let values = c.self_of(node, m);
            if values.iter().all(|&v| v == 0) {
                continue;
            }
            context_stack(c, node, &mut stack);
            sample.push(proto::Sample {
                location_id: stack.iter().rev().map(|&s| location_of(s)).collect(),
                value: values.iter().map(|&v| signed(v)).collect(),
                label: Vec::new(),
            });
        }
    }

    let mut comment = Vec::new();
    if !profile.meta.command.is_empty() {
        comment.push(st.get(&format!("command: {}", profile.meta.command.join(" "))));
    }
    if !profile.meta.stop.is_empty() {
        comment.push(st.get(&format!("stop: {}", profile.meta.stop)));
    }
    let period_type = Some(proto::ValueType {
        r#type: st.get("instructions"),
        unit: count,
    });
    Ok(proto::Profile {
        sample_type,
        sample,
        mapping,
        location,
        function,
        string_table: st.table,
        period_type,
        period: 1,
        comment,
        default_sample_type,
        ..Default::default()
    })
}

/// Writes `profile` as a gzipped pprof protocol buffer (see the [module
/// documentation](self)), with `metric`, when given, as the default sample
/// type.
///
/// Fails with [`crate::ReportError::UnknownMetric`],
/// [`crate::ReportError::NoMetrics`] or [`crate::ReportError::InvalidProfile`],
/// and [`ExportError::Io`] when writing fails.
pub fn export_pprof(
    profile: &Profile,
    metric: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let message = pprof_profile(profile, metric)?;
    let bytes = message.encode_to_vec();
    let mut gz = GzEncoder::new(io::BufWriter::new(out), Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()?.flush()?;
    Ok(())
}

/// Reads back what [`export_pprof`] writes (gzipped or not): for tests and
/// tools that check an export.
pub fn read_pprof(bytes: &[u8]) -> io::Result<proto::Profile> {
    let mut raw = Vec::new();
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut raw)?;
        &raw[..]
    } else {
        bytes
    };
    proto::Profile::decode(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;
    use crate::testdata::tiny_profile;

    /// Gunzip and decode, as pprof reads the file.
    pub(crate) fn decode(bytes: &[u8]) -> proto::Profile {
        assert_eq!(&bytes[..2], &[0x1f, 0x8b], "gzip magic");
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut raw)
            .unwrap();
        let p = proto::Profile::decode(&raw[..]).unwrap();
        assert_eq!(read_pprof(bytes).unwrap(), p);
        p
    }

    fn pprof(p: &Profile, metric: Option<&str>) -> proto::Profile {
        let mut out = Vec::new();
        export_pprof(p, metric, &mut out).unwrap();
        decode(&out)
    }

    fn string(p: &proto::Profile, i: i64) -> &str {
        &p.string_table[i as usize]
    }

    /// Function names of a sample's stack, leaf first.
    fn stack(p: &proto::Profile, s: &proto::Sample) -> Vec<String> {
        s.location_id
            .iter()
            .map(|&id| {
                let loc = p.location.iter().find(|l| l.id == id).unwrap();
                let f = p
                    .function
                    .iter()
                    .find(|f| f.id == loc.line[0].function_id)
                    .unwrap();
                string(p, f.name).to_string()
            })
            .collect()
    }

    #[test]
    fn sample_sums_equal_the_totals_and_stacks_are_leaf_first() {
        let t = tiny_profile();
        let p = pprof(&t, None);
        assert_eq!(p.string_table[0], "");
        let types: Vec<(&str, &str)> = p
            .sample_type
            .iter()
            .map(|v| (string(&p, v.r#type), string(&p, v.unit)))
            .collect();
        assert_eq!(types, [("instructions", "count"), ("l1d-miss", "count")]);
        assert_eq!(string(&p, p.default_sample_type), "instructions");
        for k in 0..2 {
            let sum: i64 = p.sample.iter().map(|s| s.value[k]).sum();
            assert_eq!(sum as u64, t.totals[k]);
        }
        // One sample per context with a cost: all but the root.
        assert_eq!(p.sample.len(), 5);
        // Context 5: c called from b called from main.
        assert_eq!(stack(&p, &p.sample[4]), ["c", "b", "main"]);
        assert_eq!(p.sample[4].value, [100, 20]);
        let c = p
            .function
            .iter()
            .find(|f| string(&p, f.name) == "c")
            .unwrap();
        assert_eq!(string(&p, c.filename), "tiny.c");
        assert_eq!(c.start_line, 30);
        // Locations point to the mapping of their object.
        let loc = p.location.iter().find(|l| l.id == c.id).unwrap();
        assert_eq!(loc.mapping_id, 1);
        assert_eq!(string(&p, p.mapping[0].filename), "/work/tiny");
        assert_eq!(string(&p, p.mapping[0].build_id), "0123abcd");
        let comments: Vec<&str> = p.comment.iter().map(|&i| string(&p, i)).collect();
        assert_eq!(
            comments,
            ["command: ./tiny 7", "stop: exited with status 0"]
        );
    }

    #[test]
    fn chosen_metric_is_the_default_and_output_is_deterministic() {
        let t = tiny_profile();
        let p = pprof(&t, Some("l1d-miss"));
        assert_eq!(string(&p, p.default_sample_type), "l1d-miss");
        assert_eq!(p.sample_type.len(), 2);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        export_pprof(&t, None, &mut a).unwrap();
        export_pprof(&t, None, &mut b).unwrap();
        assert_eq!(a, b);
        let err = export_pprof(&t, Some("cycles"), &mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown metric `cycles`; available: instructions, l1d-miss"
        );
    }

    #[test]
    fn root_cost_and_no_tree() {
        let mut t = tiny_profile();
        t.contexts.self_cost[0] = 5;
        let p = pprof(&t, None);
        assert_eq!(stack(&p, &p.sample[0]), ["<root>"]);
        assert_eq!(p.sample[0].value, [5, 0]);
        t.contexts = ContextTable::default();
        let p = pprof(&t, None);
        assert_eq!(p.sample.len(), 4);
        assert_eq!(stack(&p, &p.sample[3]), ["c"]);
        let sum: i64 = p.sample.iter().map(|s| s.value[0]).sum();
        assert_eq!(sum, 270);
    }

    #[test]
    fn huge_counts_saturate() {
        let mut t = tiny_profile();
        t.contexts.self_cost[2] = u64::MAX;
        let p = pprof(&t, None);
        assert_eq!(p.sample[0].value[0], i64::MAX);
    }
}
