//! `pathvm export --format pprof`: the profile as a gzipped
//! `perftools.profiles.Profile` protocol buffer, read by `go tool pprof`
//! and `pprof`.
//!
//! The messages are written by hand ([`proto`]) with `prost`'s derive, field
//! numbers and types as in pprof's `profile.proto`, so the build needs no
//! `protoc`.
//!
//! - Sample types: every metric of the profile, in metric order, with unit
//!   `bytes` for `alloc-bytes` and `count` for the others;
//!   `default_sample_type` is the metric asked for (`--metric`), the first
//!   metric otherwise. The period type is `instructions`/`count` with
//!   period 1.
//! - Functions: one per function row (id = row index + 1) with its name,
//!   source file (whole, as DWARF gives it) and entry line, then the
//!   pseudo-functions `<root>`, `<thread>`, `<unknown>` (as in the other
//!   exports); and one more per row and other source file its lines are
//!   in (a line of an inlined or included file), same name.
//! - Locations: one per function (same id, address 0) at its entry line,
//!   for what no instruction holds; then one per instruction and function
//!   row, at the instruction's address with its source line (from
//!   [`InsnIndex`], as `report --by line` places it): the leaves where a
//!   function's costs ran, and each caller's call instruction.
//! - Mappings: one per object of the run (id = index + 1, file name and
//!   build id, `has_functions`, no address range); a location points to the
//!   mapping of its function's object.
//! - Samples: per context of the calling context tree, its stack leaf
//!   first (as pprof wants) without the root of the tree, each caller at
//!   the location of its call instruction; the root context's own cost is
//!   the one-location stack `<root>`. A context's self cost is spread over
//!   its function's instructions: the profile has each instruction's cost
//!   over the whole run, not per context, so the contexts of a function
//!   take its instructions' costs in turn (context order, address order,
//!   each metric on its own), one sample per context and instruction. So
//!   the values of each type add up to the profile's total, a context's to
//!   its self cost, and an instruction's (a line's) over all contexts to
//!   its cost in `report --by instruction` (`go tool pprof -list` and
//!   `-lines` show the reports' numbers) whenever the function's contexts
//!   hold all of its instructions' costs (not so for what
//!   `--toggle-collect` or the region markers leave out, or code charged
//!   to another function's frame), while which
//!   context ran which of a function's instructions is not measured. What
//!   a context costs beyond its function's instructions (a PLT stub's
//!   cost, code run in its frame by another symbol) stays at the
//!   function's location. A profile without a tree spreads each function's
//!   self cost the same way, one-location stacks.
//! - Comments: the command line and how the run stopped.
//!
//! Counts above `i64::MAX` (pprof's values are signed) are written as
//! `i64::MAX`. The gzip header carries no time stamp, so equal profiles give
//! equal files.

use std::collections::BTreeMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use prost::Message;
use rustc_hash::FxHashMap;

use crate::blocks::InsnIndex;
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

/// The functions and locations of the export being built: one function
/// and location per function row and pseudo-function (same id), then a
/// location per instruction and function, and a function per row and
/// other source file (an inlined or included line).
struct Tables {
    st: Strings,
    function: Vec<proto::Function>,
    location: Vec<proto::Location>,
    /// `(address, function row)` → location id.
    at: FxHashMap<(u64, usize), u64>,
    /// `(function row, file)` → function id, for files not the row's own.
    in_file: FxHashMap<(usize, String), u64>,
}

impl Tables {
    /// The function and the location of function row (or pseudo-function)
    /// `id - 1`, at its entry line.
    fn add(&mut self, id: u64, name: &str, file: Option<&str>, line: Option<u32>, mapping_id: u64) {
        let line = line.map_or(0, i64::from);
        self.function.push(proto::Function {
            id,
            name: self.st.get(name),
            system_name: self.st.get(name),
            filename: self.st.get(file.unwrap_or("")),
            start_line: line,
        });
        self.location.push(proto::Location {
            id,
            mapping_id,
            line: vec![proto::Line {
                function_id: id,
                line,
                column: 0,
            }],
            ..Default::default()
        });
    }

    /// The function of row `f` in source file `file`: the row's own when
    /// it is the row's file, else one of the same name in that file.
    fn in_file(&mut self, profile: &Profile, f: usize, file: &str) -> u64 {
        let row = &profile.functions[f];
        if row.file.as_deref() == Some(file) {
            return f as u64 + 1;
        }
        self.named(&row.name.clone(), (f, file.to_string()))
    }

    /// The function `name` in `key.1` (made on first use).
    fn named(&mut self, name: &str, key: (usize, String)) -> u64 {
        let next = self.function.len() as u64 + 1;
        let fid = *self.in_file.entry(key.clone()).or_insert(next);
        if fid == next {
            self.function.push(proto::Function {
                id: fid,
                name: self.st.get(name),
                system_name: self.st.get(name),
                filename: self.st.get(&key.1),
                start_line: 0,
            });
        }
        fid
    }

    /// The location of the instruction at `addr` in function row `f`: its
    /// address and source line, in the mapping of the row's location; in
    /// inlined code, a line per inline frame, innermost first, then the
    /// row's function at the outermost call site.
    fn at(&mut self, profile: &Profile, insns: &Instructions, addr: u64, f: usize) -> u64 {
        if let Some(&id) = self.at.get(&(addr, f)) {
            return id;
        }
        let id = self.location.len() as u64 + 1;
        let file_name = |i: u32| -> String {
            profile
                .blocks
                .files
                .get(i as usize)
                .cloned()
                .unwrap_or_default()
        };
        let mut lines = Vec::new();
        let mut place = insns
            .line(addr)
            .map(|(file, line)| (file_name(file), i64::from(line)));
        if let Some(frame) = insns.inline_frame(addr) {
            for fr in profile.inlines.chain(frame) {
                let (file, line) = place.clone().unwrap_or_default();
                // Inline functions are keyed apart from rows by an index past them.
                let key = (usize::MAX, format!("{}\0{file}", fr.function));
                let fid = self.named(&fr.function, key);
                if let Some(func) = self.function.get_mut(fid as usize - 1) {
                    func.filename = self.st.get(&file);
                }
                lines.push(proto::Line {
                    function_id: fid,
                    line,
                    column: 0,
                });
                place = fr
                    .call_file
                    .map(|c| (file_name(c), i64::from(fr.call_line)));
            }
        }
        let (function_id, line) = match place {
            Some((file, line)) => (self.in_file(profile, f, &file), line),
            None => (f as u64 + 1, 0),
        };
        lines.push(proto::Line {
            function_id,
            line,
            column: 0,
        });
        let mapping_id = self.location[f].mapping_id;
        self.location.push(proto::Location {
            id,
            mapping_id,
            address: addr,
            line: lines,
            is_folded: false,
        });
        self.at.insert((addr, f), id);
        id
    }
}

/// The profile's costs per instruction by function row, placed by
/// [`InsnIndex`] (the rule of `report --by line`).
struct Instructions {
    index: InsnIndex,
    /// Per function row: its instructions with a cost, `(address, cost per
    /// metric)` in address order.
    rows: FxHashMap<usize, Vec<(u64, Vec<u64>)>>,
    /// Per instruction in inlined code, its innermost inline frame.
    inline: FxHashMap<u64, u32>,
}

impl Instructions {
    fn of(profile: &Profile) -> Instructions {
        let index = InsnIndex::new(profile);
        let rows = index
            .by_function()
            .into_iter()
            .filter(|(f, _)| (*f as usize) < profile.functions.len())
            .map(|(f, rows)| (f as usize, rows.into_iter().cloned().collect()))
            .collect();
        let inline = profile.inlines.by_address().collect();
        Instructions {
            index,
            rows,
            inline,
        }
    }

    fn of_function(&self, f: usize) -> &[(u64, Vec<u64>)] {
        self.rows.get(&f).map_or(&[], |r| &r[..])
    }

    fn line(&self, addr: u64) -> Option<(u32, u32)> {
        self.index.line(addr)
    }

    fn inline_frame(&self, addr: u64) -> Option<u32> {
        self.inline.get(&addr).copied()
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
    let mut sample_type = Vec::new();
    let mut sample = Vec::new();
    let mut message = pprof_message(profile, metric, &mut |part| {
        match part {
            Part::SampleTypes(t) => sample_type = t.to_vec(),
            Part::Sample(s) => sample.push(s),
        }
        Ok(())
    })?;
    message.sample_type = sample_type;
    message.sample = sample;
    Ok(message)
}

/// What [`pprof_message`] hands out as it makes it: the sample types
/// first, then each sample.
enum Part<'a> {
    SampleTypes(&'a [proto::ValueType]),
    Sample(proto::Sample),
}

/// [`pprof_profile`]'s message without its sample types and samples,
/// which go to `part` as they are made (the types first), so that
/// [`export_pprof`] writes them without holding every sample.
fn pprof_message(
    profile: &Profile,
    metric: Option<&str>,
    part: &mut dyn FnMut(Part<'_>) -> io::Result<()>,
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
            unit: if name == "alloc-bytes" {
                st.get("bytes")
            } else {
                count
            },
        })
        .collect();
    let default_sample_type = sample_type[default_col].r#type;
    part(Part::SampleTypes(&sample_type))?;

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

    let mut t = Tables {
        st,
        function: Vec::new(),
        location: Vec::new(),
        at: FxHashMap::default(),
        in_file: FxHashMap::default(),
    };
    for (i, f) in profile.functions.iter().enumerate() {
        t.add(
            i as u64 + 1,
            &f.name,
            f.file.as_deref(),
            f.line,
            mapping_of(&f.object),
        );
    }
    let n = profile.functions.len() as u64;
    for (k, name) in [ROOT_NAME, THREAD_NAME, UNKNOWN_NAME].iter().enumerate() {
        t.add(n + 1 + k as u64, name, None, None, 0);
    }
    let c = &profile.contexts;
    // The function row of a context, if it has one.
    let row_of = |node: usize| -> Option<usize> {
        match c.function[node] {
            ContextTable::NO_FUNCTION => None,
            f => Some(f as usize),
        }
    };
    let location_of = |node: usize| -> u64 {
        if node == 0 {
            return n + 1;
        }
        match row_of(node) {
            None if c.flags[node] & ContextTable::FLAG_THREAD_ROOT != 0 => n + 2,
            None => n + 3,
            Some(f) => f as u64 + 1,
        }
    };
    let insns = Instructions::of(profile);

    // Each function's cost, per context (or whole, without a tree), spread
    // over its instructions: a function's contexts, in order, take its
    // instructions' costs in order, metric by metric. The samples go out
    // context by context, each context's by location, as they are made:
    // they are never all in memory. A first pass makes the locations in
    // the order in which a function-by-function pass meets them (their
    // ids are in the message).
    let mut owners: Vec<Vec<usize>> = vec![Vec::new(); profile.functions.len()];
    if c.is_empty() {
        for (f, owner) in owners.iter_mut().enumerate() {
            owner.push(f);
        }
    } else {
        for node in 1..c.len() {
            if let Some(f) = row_of(node) {
                owners[f].push(node);
            }
        }
    }
    let own = |f: usize, node: usize| -> &[u64] {
        if c.is_empty() {
            &profile.functions[f].self_cost
        } else {
            c.self_of(node, m)
        }
    };
    // Where the remainder of a context's cost goes.
    let rest_at = |f: usize, node: usize| -> u64 {
        if c.is_empty() {
            f as u64 + 1
        } else {
            location_of(node)
        }
    };
    // Per function and metric: the instruction whose cost is being given
    // and what it has left.
    let start: Vec<Vec<(usize, u64)>> = (0..profile.functions.len())
        .map(|f| {
            let first = insns.of_function(f).first();
            (0..m)
                .map(|col| (0, first.map_or(0, |r| r.1[col])))
                .collect()
        })
        .collect();
    let mut cursor = start.clone();
    for (f, nodes) in owners.iter().enumerate() {
        for col in 0..m {
            let mut cur = start[f][col];
            for &node in nodes {
                let need = own(f, node)[col];
                spread(
                    &mut t,
                    profile,
                    &insns,
                    f,
                    col,
                    &mut cur,
                    need,
                    &mut |_, _| {},
                );
            }
        }
    }
    drop(owners);

    let mut stack = Vec::new();
    let mut here: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    let units = if c.is_empty() {
        profile.functions.len()
    } else {
        c.len()
    };
    for node in 0..units {
        here.clear();
        let f = if c.is_empty() {
            Some(node)
        } else {
            row_of(node).filter(|_| node != 0)
        };
        if let Some(f) = f {
            for col in 0..m {
                let need = own(f, node)[col];
                let cur = &mut cursor[f][col];
                let mut give = |loc: u64, v: u64| {
                    here.entry(loc).or_insert_with(|| vec![0; m])[col] += v;
                };
                let rest = spread(&mut t, profile, &insns, f, col, cur, need, &mut give);
                if rest > 0 {
                    give(rest_at(f, node), rest);
                }
            }
        } else {
            let own = c.self_of(node, m);
            if own.iter().any(|&v| v != 0) {
                here.insert(location_of(node), own.to_vec());
            }
        }
        for (&leaf, values) in &here {
            let mut location_id = vec![leaf];
            if !c.is_empty() {
                // Each caller at the instruction of its call, where known.
                context_stack(c, node, &mut stack);
                for k in (0..stack.len().saturating_sub(1)).rev() {
                    let (caller, callee) = (stack[k], stack[k + 1]);
                    let site = c.call_site[callee];
                    let called = c.flags[callee] & ContextTable::FLAG_THREAD_ROOT == 0 && site != 0;
                    location_id.push(match row_of(caller) {
                        Some(f) if called => t.at(profile, &insns, site, f),
                        _ => location_of(caller),
                    });
                }
            }
            part(Part::Sample(proto::Sample {
                location_id,
                value: values.iter().map(|&v| signed(v)).collect(),
                label: Vec::new(),
            }))?;
        }
    }
    let Tables {
        mut st,
        function,
        location,
        ..
    } = t;

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

/// Gives `need` of metric `col` of a context of function row `f` to the
/// function's instructions from `cur` on (the instruction being given
/// and what it has left), as `give(location, value)`, and returns what is
/// left when its instructions have nothing more.
#[allow(clippy::too_many_arguments)]
fn spread(
    t: &mut Tables,
    profile: &Profile,
    insns: &Instructions,
    f: usize,
    col: usize,
    cur: &mut (usize, u64),
    mut need: u64,
    give: &mut dyn FnMut(u64, u64),
) -> u64 {
    let rows = insns.of_function(f);
    let (mut i, mut left) = *cur;
    while need > 0 && i < rows.len() {
        if left == 0 {
            i += 1;
            left = rows.get(i).map_or(0, |r| r.1[col]);
            continue;
        }
        let take = need.min(left);
        give(t.at(profile, insns, rows[i].0, f), take);
        need -= take;
        left -= take;
    }
    *cur = (i, left);
    need
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
    // The message is written field by field, in the order `encode` writes
    // them (field 1, the sample types; field 2, the samples, each as it is
    // made; then fields 3 and up), so the bytes are those of the whole
    // message encoded at once, and the samples (one or more per context)
    // are never all in memory.
    let mut gz = GzEncoder::new(io::BufWriter::new(out), Compression::default());
    let mut buf = Vec::new();
    let rest = pprof_message(profile, metric, &mut |part| {
        buf.clear();
        match part {
            Part::SampleTypes(t) => proto::Profile {
                sample_type: t.to_vec(),
                ..Default::default()
            }
            .encode(&mut buf)
            .map_err(io::Error::other)?,
            Part::Sample(s) => prost::encoding::message::encode(2, &s, &mut buf),
        }
        gz.write_all(&buf)
    })?;
    gz.write_all(&rest.encode_to_vec())?;
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
    use std::collections::BTreeMap;
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

    /// The location of `id`.
    fn location(p: &proto::Profile, id: u64) -> &proto::Location {
        p.location.iter().find(|l| l.id == id).unwrap()
    }

    /// (address, line, function name, file) of a location.
    fn place(p: &proto::Profile, id: u64) -> (u64, i64, String, String) {
        let l = location(p, id);
        let f = p
            .function
            .iter()
            .find(|f| f.id == l.line[0].function_id)
            .unwrap();
        (
            l.address,
            l.line[0].line,
            string(p, f.name).to_string(),
            string(p, f.filename).to_string(),
        )
    }

    /// An instruction in inlined code has a line per inline frame,
    /// innermost first, then its physical function at the call site.
    #[test]
    fn inline_frames_are_lines_of_their_locations() {
        let t = crate::testdata::inlined_profile();
        let p = pprof(&t, None);
        let lines = |addr: u64| -> Vec<(String, String, i64)> {
            let l = p.location.iter().find(|l| l.address == addr).unwrap();
            l.line
                .iter()
                .map(|line| {
                    let f = p
                        .function
                        .iter()
                        .find(|f| f.id == line.function_id)
                        .unwrap();
                    (
                        string(&p, f.name).to_string(),
                        string(&p, f.filename).to_string(),
                        line.line,
                    )
                })
                .collect()
        };
        let s = |a: &str, b: &str, l: i64| (a.to_string(), b.to_string(), l);
        assert_eq!(
            lines(0x401020),
            [
                s("helper", "hdr.h", 7),
                s("outer", "hdr.h", 5),
                s("main", "tiny.c", 3)
            ]
        );
        assert_eq!(
            lines(0x401010),
            [s("outer", "tiny.c", 4), s("main", "tiny.c", 3)]
        );
        assert_eq!(lines(0x401000), [s("main", "tiny.c", 3)]);
        let mut plain = t.clone();
        crate::strip_inlines(&mut plain);
        let p = pprof(&plain, None);
        let l = p.location.iter().find(|l| l.address == 0x401020).unwrap();
        assert_eq!(l.line.len(), 1);
    }

    #[test]
    fn costs_at_their_instructions_and_calls_at_their_sites() {
        let t = crate::testdata::per_instruction_profile();
        let p = pprof(&t, None);
        for k in 0..2 {
            let sum: i64 = p.sample.iter().map(|s| s.value[k]).sum();
            assert_eq!(sum as u64, t.totals[k]);
        }
        // Leaf values per instruction address: the instructions' costs;
        // main's one instruction more (a PLT stub's) at its location, 0.
        let mut leaves: BTreeMap<u64, Vec<i64>> = BTreeMap::new();
        for s in &p.sample {
            let e = leaves
                .entry(location(&p, s.location_id[0]).address)
                .or_insert(vec![0, 0]);
            e[0] += s.value[0];
            e[1] += s.value[1];
        }
        assert_eq!(leaves[&0x401000], [6, 1]);
        assert_eq!(leaves[&0x401010], [2, 0]);
        assert_eq!(leaves[&0x401020], [1, 0]);
        assert_eq!(leaves[&0x402000], [20, 2]);
        // main's own 1 plus b's 40 and c's 200, which have no instructions.
        assert_eq!(leaves[&0], [241, 30]);
        let s = p
            .sample
            .iter()
            .find(|s| location(&p, s.location_id[0]).address == 0x402000)
            .unwrap();
        assert_eq!(
            place(&p, s.location_id[0]),
            (0x402000, 10, "a".into(), "tiny.c".into())
        );
        // a's caller at its call instruction and line.
        assert_eq!(
            place(&p, s.location_id[1]),
            (0x401010, 4, "main".into(), "tiny.c".into())
        );
        assert_eq!(s.location_id.len(), 2);
        // A line of another file: a function of that file, same name.
        let s = p
            .sample
            .iter()
            .find(|s| location(&p, s.location_id[0]).address == 0x401020)
            .unwrap();
        assert_eq!(
            place(&p, s.location_id[0]),
            (0x401020, 7, "main".into(), "hdr.h".into())
        );
        // Units: bytes for alloc-bytes.
        let mut t = t;
        t.metrics[1] = "alloc-bytes".into();
        let p = pprof(&t, None);
        assert_eq!(string(&p, p.sample_type[1].unit), "bytes");
        assert_eq!(string(&p, p.sample_type[0].unit), "count");
    }

    #[test]
    fn huge_counts_saturate() {
        let mut t = tiny_profile();
        t.contexts.self_cost[2] = u64::MAX;
        let p = pprof(&t, None);
        assert_eq!(p.sample[0].value[0], i64::MAX);
    }
}
