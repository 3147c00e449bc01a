//! A compact index of a file's DWARF line tables, answering address → (file, line).
//!
//! It gives exactly the answers of `addr2line::Context::find_location` (the units covering
//! an address are found the same way, from `DW_AT_ranges`, `.debug_aranges` or
//! `DW_AT_low_pc`/`DW_AT_high_pc`, or else the line program's sequences; the first unit whose
//! line table has a row for the address answers), but holds far less memory:
//!
//! * `.debug_info`, `.debug_abbrev`, `.debug_aranges`, `.debug_addr` and the range lists are
//!   read once, unit by unit, to find each unit's address ranges, and then dropped; each
//!   unit's abbreviations are parsed only while that unit is being read, and `.debug_info`
//!   is never whole in memory: it is streamed (and inflated) one unit at a time
//!   ([`UnitStream`]);
//! * only the sections the line programs need are kept (`.debug_line`, `.debug_line_str`,
//!   `.debug_str`, `.debug_str_offsets`), each in its own buffer, so the file's bytes can go;
//! * a unit's line program is parsed only when an address in it is first looked up, into
//!   16-byte rows (no columns) and file names shared across units.

use std::cmp::Ordering;
use std::io::Read;
use std::sync::Arc;

use gimli::{Endianity as _, Reader as _};
use rustc_hash::FxHashSet;

use super::inlines::UnitInlines;
use super::DwarfReader;

/// The sections needed to read a line program and its file names after indexing.
pub(super) struct LineSections {
    pub debug_line: gimli::DebugLine<DwarfReader>,
    pub debug_line_str: gimli::DebugLineStr<DwarfReader>,
    pub debug_str: gimli::DebugStr<DwarfReader>,
    pub debug_str_offsets: gimli::DebugStrOffsets<DwarfReader>,
}

/// The units of a `.debug_info` section, read one at a time from a stream of its bytes
/// (inflated on the fly when compressed). The index is built when a line is first asked for,
/// at the end of a run, on top of everything the run holds: Debian's libc debug file has
/// 8.6 MB of `.debug_info` (2.3 MB compressed), of which this holds one unit at a time.
pub(super) struct UnitStream<'a> {
    bytes: Box<dyn Read + 'a>,
    /// Where the next unit starts in the section.
    offset: usize,
    /// The section's size, when its compression header gives it: the stream must end there.
    size: Option<u64>,
    endian: gimli::RunTimeEndian,
}

impl<'a> UnitStream<'a> {
    pub(super) fn new(
        bytes: Box<dyn Read + 'a>,
        size: Option<u64>,
        endian: gimli::RunTimeEndian,
    ) -> UnitStream<'a> {
        UnitStream {
            bytes,
            offset: 0,
            size,
            endian,
        }
    }

    /// The next unit's offset in the section and its header; `None` at the end. Fails
    /// where gimli's iterator over the whole section fails, and when the stream cannot be
    /// read or does not end at the size its compression header gives.
    fn next(
        &mut self,
    ) -> gimli::Result<Option<(gimli::DebugInfoOffset, gimli::UnitHeader<DwarfReader>)>> {
        let mut unit = vec![0u8; 4];
        if !read_or_end(&mut self.bytes, &mut unit)? {
            return match self.size {
                Some(size) if size != self.offset as u64 => Err(gimli::Error::Io),
                _ => Ok(None),
            };
        }
        let length = match self.endian.read_u32(&unit) {
            0xffff_ffff => {
                unit.resize(12, 0);
                if !read_or_end(&mut self.bytes, &mut unit[4..])? {
                    return Err(gimli::Error::Io);
                }
                self.endian.read_u64(&unit[4..])
            }
            length => u64::from(length),
        };
        // Reserved lengths are left for gimli to refuse; no body is read for them.
        let body = if unit.len() == 4 && length >= 0xffff_fff0 {
            0
        } else {
            length
        };
        let head = unit.len();
        (&mut self.bytes)
            .take(body)
            .read_to_end(&mut unit)
            .map_err(|_| gimli::Error::Io)?;
        if (unit.len() - head) as u64 != body {
            return Err(gimli::Error::Io);
        }
        let offset = gimli::DebugInfoOffset(self.offset);
        self.offset += unit.len();
        let section = gimli::DebugInfo::from(DwarfReader::new(Arc::from(unit), self.endian));
        match section.units().next()? {
            Some(header) => Ok(Some((offset, header))),
            None => Err(gimli::Error::Io),
        }
    }
}

/// Fills `buf` from `bytes`: false if the stream ended before its first byte, an error if it
/// ended after.
fn read_or_end(bytes: &mut dyn Read, buf: &mut [u8]) -> gimli::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match bytes.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(gimli::Error::Io),
        }
    }
    match got {
        0 => Ok(false),
        n if n == buf.len() => Ok(true),
        _ => Err(gimli::Error::Io),
    }
}

/// What one unit needs to parse its line program later.
struct LineUnit {
    /// `DW_AT_stmt_list`; `None` when the unit has no line program.
    program: Option<gimli::DebugLineOffset<usize>>,
    address_size: u8,
    format: gimli::Format,
    str_offsets_base: gimli::DebugStrOffsetsBase<usize>,
    /// The unit's `DW_AT_comp_dir` and `DW_AT_name` strings, copied out of `.debug_info`/
    /// `.debug_str` so those buffers can be dropped.
    comp_dir: Option<DwarfReader>,
    name: Option<DwarfReader>,
    /// The parsed line table: `None` until first needed; `Some(Err)` when it failed to parse.
    lines: Option<Result<Lines, ()>>,
    /// Its inline frames, read with its ranges (empty when they failed to parse).
    inlines: UnitInlines,
}

/// One address range of a unit, as addr2line keeps them: sorted by `end`, with the smallest
/// `begin` of this and all later entries.
struct UnitRange {
    unit: usize,
    min_begin: u64,
    begin: u64,
    end: u64,
}

/// One row of a line sequence.
struct LineRow {
    address: u64,
    /// Index into [`Lines::files`]; `u32::MAX` for indexes too large to name a file.
    file: u32,
    /// 0 when the row has no line.
    line: u32,
}

struct LineSequence {
    start: u64,
    end: u64,
    rows: Box<[LineRow]>,
}

/// A unit's parsed line table.
struct Lines {
    /// Rendered file names by file index (`comp_dir` / directory / name).
    files: Box<[Arc<str>]>,
    /// Sorted by `start`.
    sequences: Box<[LineSequence]>,
}

/// The line index of one file.
pub(super) struct LineIndex {
    sections: LineSections,
    units: Vec<LineUnit>,
    ranges: Box<[UnitRange]>,
}

/// Copies a reader's bytes into a buffer of their own, so the section it points into can be
/// freed.
fn owned(reader: &DwarfReader) -> gimli::Result<DwarfReader> {
    let bytes = reader.to_slice()?;
    Ok(DwarfReader::new(Arc::from(&*bytes), reader.endian()))
}

/// `gimli::RangeAttributes`-like holder of a unit DIE's address attributes (as addr2line).
#[derive(Default)]
struct RangeAttributes {
    low_pc: Option<u64>,
    high_pc: Option<u64>,
    size: Option<u64>,
    ranges_offset: Option<gimli::RangeListsOffset<usize>>,
}

impl RangeAttributes {
    fn for_each_range<F: FnMut(gimli::Range)>(
        &self,
        unit: gimli::UnitRef<'_, DwarfReader>,
        mut f: F,
    ) -> gimli::Result<bool> {
        let mut added_any = false;
        let mut add_range = |range: gimli::Range| {
            if range.begin < range.end {
                f(range);
                added_any = true
            }
        };
        if let Some(ranges_offset) = self.ranges_offset {
            let mut range_list = unit.ranges(ranges_offset)?;
            while let Some(range) = range_list.next()? {
                add_range(range);
            }
        } else if let (Some(begin), Some(end)) = (self.low_pc, self.high_pc) {
            add_range(gimli::Range { begin, end });
        } else if let (Some(begin), Some(size)) = (self.low_pc, self.size) {
            // A -1 tombstone overflows here and is then ignored by `add_range`.
            let end = begin.wrapping_add(size);
            add_range(gimli::Range { begin, end });
        }
        Ok(added_any)
    }
}

impl LineIndex {
    /// Indexes the units `units` reads from `.debug_info`, with the other sections of
    /// `dwarf` (which is consumed: everything but `sections` is dropped on return; its
    /// `debug_info` is not read). `sections` must hold the same line and string sections as
    /// `dwarf`. Fails where `addr2line::Context::from_dwarf` fails.
    pub(super) fn new(
        dwarf: gimli::Dwarf<DwarfReader>,
        mut units: UnitStream<'_>,
        sections: LineSections,
        files: &mut FxHashSet<Arc<str>>,
    ) -> gimli::Result<LineIndex> {
        // Find all the references to compilation units in .debug_aranges. All of
        // .debug_info is walked too, because .debug_aranges may be missing some.
        let mut aranges = Vec::new();
        let mut headers = dwarf.debug_aranges.headers();
        while let Some(header) = headers.next()? {
            aranges.push((header.debug_info_offset(), header.offset()));
        }
        aranges.sort_by_key(|i| i.0);

        let mut index = LineIndex {
            sections,
            units: Vec::new(),
            ranges: Box::new([]),
        };
        let mut unit_ranges = Vec::new();
        while let Some((offset, header)) = units.next()? {
            let unit_id = index.units.len();
            let mut need_unit_range = match header.type_() {
                gimli::UnitType::Type { .. } | gimli::UnitType::SplitType { .. } => continue,
                // Partial units are only needed for references from other units.
                gimli::UnitType::Partial => false,
                _ => true,
            };
            let Ok(dw_unit) = dwarf.unit(header) else {
                continue;
            };
            let unit_ref = gimli::UnitRef::new(&dwarf, &dw_unit);

            if need_unit_range {
                let mut entries = unit_ref.entries_raw(None)?;
                let Some(abbrev) = entries.read_abbreviation()? else {
                    continue;
                };
                let mut ranges = RangeAttributes::default();
                for spec in abbrev.attributes() {
                    let attr = entries.read_attribute(*spec)?;
                    match attr.name() {
                        gimli::DW_AT_low_pc => match attr.value() {
                            gimli::AttributeValue::Addr(val) => ranges.low_pc = Some(val),
                            gimli::AttributeValue::DebugAddrIndex(index) => {
                                ranges.low_pc = Some(unit_ref.address(index)?);
                            }
                            _ => {}
                        },
                        gimli::DW_AT_high_pc => match attr.value() {
                            gimli::AttributeValue::Addr(val) => ranges.high_pc = Some(val),
                            gimli::AttributeValue::DebugAddrIndex(index) => {
                                ranges.high_pc = Some(unit_ref.address(index)?);
                            }
                            gimli::AttributeValue::Udata(val) => ranges.size = Some(val),
                            _ => {}
                        },
                        gimli::DW_AT_ranges => {
                            ranges.ranges_offset = unit_ref.attr_ranges_offset(attr.value())?;
                        }
                        _ => {}
                    }
                }

                // The unit's ranges, in order of preference: DW_AT_ranges, .debug_aranges,
                // DW_AT_low_pc/DW_AT_high_pc (addr2line's order).
                let i = match ranges.ranges_offset {
                    Some(_) => None,
                    None => aranges.binary_search_by_key(&offset, |x| x.0).ok(),
                };
                if let Some(mut i) = i {
                    // Several sets for one unit have been seen in the wild.
                    while i > 0 && aranges[i - 1].0 == offset {
                        i -= 1;
                    }
                    for (_, aranges_offset) in aranges[i..].iter().take_while(|x| x.0 == offset) {
                        let aranges_header = dwarf.debug_aranges.header(*aranges_offset)?;
                        let mut entries = aranges_header.entries();
                        while let Some(arange) = entries.next()? {
                            if arange.length() != 0 {
                                let range = arange.range();
                                unit_ranges.push(UnitRange {
                                    unit: unit_id,
                                    min_begin: 0,
                                    begin: range.begin,
                                    end: range.end,
                                });
                                need_unit_range = false;
                            }
                        }
                    }
                } else {
                    need_unit_range &= !ranges.for_each_range(unit_ref, |range| {
                        unit_ranges.push(UnitRange {
                            unit: unit_id,
                            min_begin: 0,
                            begin: range.begin,
                            end: range.end,
                        });
                    })?;
                }
            }

            let inlines = UnitInlines::read(unit_ref, files).unwrap_or_default();
            let mut unit = LineUnit {
                program: dw_unit.line_program.as_ref().map(|p| p.header().offset()),
                address_size: dw_unit.header.address_size(),
                format: dw_unit.header.format(),
                str_offsets_base: dw_unit.str_offsets_base,
                comp_dir: dw_unit.comp_dir.as_ref().map(owned).transpose()?,
                name: dw_unit.name.as_ref().map(owned).transpose()?,
                lines: None,
                inlines,
            };
            drop(dw_unit);
            if need_unit_range {
                // The unit declares no ranges: take them from its line program's sequences.
                if let Some(Ok(lines)) = unit_lines(&index.sections, &mut unit, files) {
                    for sequence in lines.sequences.iter() {
                        unit_ranges.push(UnitRange {
                            unit: unit_id,
                            min_begin: 0,
                            begin: sequence.start,
                            end: sequence.end,
                        });
                    }
                }
            }
            index.units.push(unit);
        }

        // Sorted by end (stably) for lookups, as addr2line does.
        unit_ranges.sort_by_key(|i| i.end);
        let mut min = !0;
        for i in unit_ranges.iter_mut().rev() {
            min = min.min(i.begin);
            i.min_begin = min;
        }
        index.ranges = unit_ranges.into_boxed_slice();
        Ok(index)
    }

    /// The file and line of the instruction at `probe`: `None` when no unit has a row for
    /// it, or the first unit that has one gives no file or no line, or a line table on the
    /// way failed to parse.
    pub(super) fn find(
        &mut self,
        probe: u64,
        files: &mut FxHashSet<Arc<str>>,
    ) -> Option<(Arc<str>, u32)> {
        let (_, (file, line)) = self.locate(probe, files)?;
        Some((file?, (line != 0).then_some(line)?))
    }

    /// The inline frames at `probe`, innermost first, from the unit whose line table
    /// answers [`LineIndex::find`]: each inlined function's name and its call site (file
    /// and line, when the unit says) in the next frame out (the last: in the physical
    /// function). Empty when `probe` is in no inlined code.
    pub(super) fn inline_frames(
        &mut self,
        probe: u64,
        files: &mut FxHashSet<Arc<str>>,
    ) -> Vec<super::InlineFrame> {
        let Some((unit, _)) = self.locate(probe, files) else {
            return Vec::new();
        };
        let unit = &self.units[unit];
        let names = match &unit.lines {
            Some(Ok(lines)) => &lines.files[..],
            _ => &[],
        };
        unit.inlines
            .find(probe)
            .into_iter()
            .map(|f| super::InlineFrame {
                function: f.name.clone(),
                call_file: names.get(f.call_file as usize).cloned(),
                call_line: f.call_line,
            })
            .collect()
    }

    /// The first unit whose line table has a row for `probe`, and that row's file (if the
    /// index names one) and line (0: none); `None` when no unit has one or a line table on
    /// the way failed to parse.
    fn locate(
        &mut self,
        probe: u64,
        files: &mut FxHashSet<Arc<str>>,
    ) -> Option<(usize, (Option<Arc<str>>, u32))> {
        let probe_high = probe.wrapping_add(1);
        let mut pos = match self.ranges.binary_search_by_key(&probe, |i| i.end) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        while let Some(range) = self.ranges.get(pos) {
            pos += 1;
            if probe_high <= range.min_begin {
                break;
            }
            if probe >= range.end || probe_high <= range.begin {
                continue;
            }
            let found = match unit_lines(&self.sections, &mut self.units[range.unit], files) {
                None => Ok(None),
                Some(Err(())) => Err(()),
                Some(Ok(lines)) => Ok(lines.find(probe)),
            };
            match found {
                Err(()) => return None,
                Ok(None) => continue,
                Ok(Some(row)) => return Some((range.unit, row)),
            }
        }
        None
    }
}

/// The line table of `unit`, parsed on first use; `None` when it has no line program.
fn unit_lines<'u>(
    sections: &LineSections,
    unit: &'u mut LineUnit,
    files: &mut FxHashSet<Arc<str>>,
) -> Option<&'u Result<Lines, ()>> {
    let offset = unit.program?;
    if unit.lines.is_none() {
        unit.lines = Some(parse_lines(sections, unit, offset, files).map_err(|_| ()));
    }
    unit.lines.as_ref()
}

fn parse_lines(
    sections: &LineSections,
    unit: &LineUnit,
    offset: gimli::DebugLineOffset<usize>,
    files: &mut FxHashSet<Arc<str>>,
) -> gimli::Result<Lines> {
    let program = sections.debug_line.program(
        offset,
        unit.address_size,
        unit.comp_dir.clone(),
        unit.name.clone(),
    )?;
    let mut sequences = Vec::new();
    let mut sequence_rows = Vec::<LineRow>::new();
    let mut rows = program.rows();
    while let Some((_, row)) = rows.next_row()? {
        if row.end_sequence() {
            if let Some(start) = sequence_rows.first().map(|x| x.address) {
                sequences.push(LineSequence {
                    start,
                    end: row.address(),
                    rows: std::mem::take(&mut sequence_rows).into_boxed_slice(),
                });
            }
            continue;
        }
        let address = row.address();
        let file = u32::try_from(row.file_index()).unwrap_or(u32::MAX);
        let line = row.line().map(std::num::NonZeroU64::get).unwrap_or(0) as u32;
        if let Some(last) = sequence_rows.last_mut() {
            if last.address == address {
                last.file = file;
                last.line = line;
                continue;
            }
        }
        sequence_rows.push(LineRow {
            address,
            file,
            line,
        });
    }
    sequences.sort_by_key(|x| x.start);

    let header = rows.header();
    let mut names = Vec::new();
    let mut intern = |name: String| match files.get(name.as_str()) {
        Some(interned) => interned.clone(),
        None => {
            let interned: Arc<str> = Arc::from(name);
            files.insert(interned.clone());
            interned
        }
    };
    match header.file(0) {
        Some(file) => names.push(intern(render_file(sections, unit, file, header)?)),
        // DWARF 4 and earlier may have no file 0.
        None => names.push(intern(String::new())),
    }
    let mut i = 1;
    while let Some(file) = header.file(i) {
        names.push(intern(render_file(sections, unit, file, header)?));
        i += 1;
    }
    Ok(Lines {
        files: names.into_boxed_slice(),
        sequences: sequences.into_boxed_slice(),
    })
}

/// `Dwarf::attr_string` for a unit of this file (no supplementary file).
fn attr_string(
    sections: &LineSections,
    unit: &LineUnit,
    attr: gimli::AttributeValue<DwarfReader>,
) -> gimli::Result<DwarfReader> {
    match attr {
        gimli::AttributeValue::String(string) => Ok(string),
        gimli::AttributeValue::DebugStrRef(offset) => sections.debug_str.get_str(offset),
        gimli::AttributeValue::DebugLineStrRef(offset) => sections.debug_line_str.get_str(offset),
        gimli::AttributeValue::DebugStrOffsetsIndex(index) => {
            let offset = sections.debug_str_offsets.get_str_offset(
                unit.format,
                unit.str_offsets_base,
                index,
            )?;
            sections.debug_str.get_str(offset)
        }
        _ => Err(gimli::Error::ExpectedStringAttributeValue),
    }
}

/// A file's path as addr2line renders it: comp_dir, then the directory unless it is
/// index 0, then the name; an absolute part replaces what came before.
fn render_file(
    sections: &LineSections,
    unit: &LineUnit,
    file: &gimli::FileEntry<DwarfReader, usize>,
    header: &gimli::LineProgramHeader<DwarfReader, usize>,
) -> gimli::Result<String> {
    let mut path = match &unit.comp_dir {
        Some(comp_dir) => comp_dir.to_string_lossy()?.into_owned(),
        None => String::new(),
    };
    if file.directory_index() != 0 {
        if let Some(directory) = file.directory(header) {
            path_push(
                &mut path,
                attr_string(sections, unit, directory)?
                    .to_string_lossy()?
                    .as_ref(),
            );
        }
    }
    path_push(
        &mut path,
        attr_string(sections, unit, file.path_name())?
            .to_string_lossy()?
            .as_ref(),
    );
    Ok(path)
}

impl Lines {
    /// The row for `probe`: its file (if the index names one) and line (0: none).
    fn find(&self, probe: u64) -> Option<(Option<Arc<str>>, u32)> {
        let seq = self
            .sequences
            .binary_search_by(|sequence| {
                if probe < sequence.start {
                    Ordering::Greater
                } else if probe >= sequence.end {
                    Ordering::Less
                } else {
                    Ordering::Equal
                }
            })
            .ok()?;
        let rows = &self.sequences[seq].rows;
        let row = match rows.binary_search_by(|row| row.address.cmp(&probe)) {
            Ok(x) => x,
            Err(0) => return None,
            Err(x) => x - 1,
        };
        let row = &rows[row];
        Some((self.files.get(row.file as usize).cloned(), row.line))
    }
}

fn path_push(path: &mut String, p: &str) {
    if has_unix_root(p) || has_windows_root(p) {
        *path = p.to_string();
    } else {
        let dir_separator = if has_windows_root(path.as_str()) {
            '\\'
        } else {
            '/'
        };
        if !path.is_empty() && !path.ends_with(dir_separator) {
            path.push(dir_separator);
        }
        *path += p;
    }
}

fn has_unix_root(p: &str) -> bool {
    p.starts_with('/')
}

fn has_windows_root(p: &str) -> bool {
    p.starts_with('\\') || p.get(1..3) == Some(":\\")
}
