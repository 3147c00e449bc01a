//! The inline frames of a unit: its `DW_TAG_inlined_subroutine` entries, nested, with the
//! name of the function each one inlines (`DW_AT_abstract_origin`), its address ranges and
//! its call site (`DW_AT_call_file`, `DW_AT_call_line`).
//!
//! They are read while the unit's bytes of `.debug_info` are in memory, during the one
//! streaming pass of [`super::lines::LineIndex::new`], into a compact table per unit (a name
//! shared by every instance, a file index, a line and a parent per frame, 32 bytes; 32 per
//! range), so that `.debug_info` is never needed again. A frame whose origin lies in another
//! unit (`DW_FORM_ref_addr`, link-time optimization) or has no name is left out: its inner
//! frames hang from its parent.

use std::sync::Arc;

use gimli::Reader as _;
use rustc_hash::{FxHashMap, FxHashSet};

use super::DwarfReader;

/// One inlined instance.
pub(super) struct Frame {
    /// The inlined function's name (the demangled linkage name, or `DW_AT_name`).
    pub name: Arc<str>,
    /// `DW_AT_call_file`: a file index of the unit's line program (`u32::MAX`: none).
    pub call_file: u32,
    /// `DW_AT_call_line` (0: none).
    pub call_line: u32,
    /// The enclosing inline frame (an index into the unit's frames), `u32::MAX` when it is
    /// inlined directly into the physical function.
    pub parent: u32,
    /// Nesting depth, 0 for a frame directly in the physical function.
    depth: u32,
}

/// One address range of a frame.
struct Range {
    begin: u64,
    end: u64,
    frame: u32,
    /// The largest `end` of this and every earlier range (sorted by `begin`).
    max_end: u64,
}

/// A unit's inline frames.
#[derive(Default)]
pub(super) struct UnitInlines {
    frames: Box<[Frame]>,
    /// Sorted by `begin`.
    ranges: Box<[Range]>,
}

impl UnitInlines {
    /// Reads the inlined subroutines of `unit`; names are interned in `names`.
    pub(super) fn read(
        unit: gimli::UnitRef<'_, DwarfReader>,
        names: &mut FxHashSet<Arc<str>>,
    ) -> gimli::Result<UnitInlines> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut ranges: Vec<Range> = Vec::new();
        let mut origin_names: FxHashMap<gimli::UnitOffset, Option<Arc<str>>> = FxHashMap::default();
        // The open inline frames: (DIE depth, frame index).
        let mut open: Vec<(isize, u32)> = Vec::new();
        let mut depth = 0isize;
        let mut cursor = unit.entries();
        while let Some((delta, entry)) = cursor.next_dfs()? {
            depth += delta;
            while open.last().is_some_and(|&(d, _)| d >= depth) {
                open.pop();
            }
            if entry.tag() != gimli::DW_TAG_inlined_subroutine {
                continue;
            }
            let name = match entry.attr_value(gimli::DW_AT_abstract_origin)? {
                Some(gimli::AttributeValue::UnitRef(offset)) => origin_names
                    .entry(offset)
                    .or_insert_with(|| origin_name(unit, offset, 8, names))
                    .clone(),
                _ => None,
            };
            let Some(name) = name else {
                continue;
            };
            let call_file = match entry.attr_value(gimli::DW_AT_call_file)? {
                Some(gimli::AttributeValue::FileIndex(i)) => u32::try_from(i).unwrap_or(u32::MAX),
                Some(v) => v
                    .udata_value()
                    .and_then(|i| u32::try_from(i).ok())
                    .unwrap_or(u32::MAX),
                None => u32::MAX,
            };
            let call_line = entry
                .attr_value(gimli::DW_AT_call_line)?
                .and_then(|v| v.udata_value())
                .and_then(|l| u32::try_from(l).ok())
                .unwrap_or(0);
            let index = frames.len() as u32;
            let (parent, parent_depth) = match open.last() {
                Some(&(_, p)) => (p, frames[p as usize].depth + 1),
                None => (u32::MAX, 0),
            };
            let mut die_ranges = unit.die_ranges(entry)?;
            let mut any = false;
            while let Some(r) = die_ranges.next()? {
                if r.begin < r.end {
                    ranges.push(Range {
                        begin: r.begin,
                        end: r.end,
                        frame: index,
                        max_end: 0,
                    });
                    any = true;
                }
            }
            if !any {
                continue;
            }
            frames.push(Frame {
                name,
                call_file,
                call_line,
                parent,
                depth: parent_depth,
            });
            open.push((depth, index));
        }
        ranges.sort_by_key(|r| (r.begin, r.end));
        let mut max = 0;
        for r in ranges.iter_mut() {
            max = max.max(r.end);
            r.max_end = max;
        }
        Ok(UnitInlines {
            frames: frames.into_boxed_slice(),
            ranges: ranges.into_boxed_slice(),
        })
    }

    /// The frames whose ranges hold `probe`, innermost first (each then inlined into the
    /// next; the last one directly into the physical function); empty when none does.
    pub(super) fn find(&self, probe: u64) -> Vec<&Frame> {
        let mut j = self.ranges.partition_point(|r| r.begin <= probe);
        let mut innermost: Option<&Frame> = None;
        while j > 0 {
            j -= 1;
            let r = &self.ranges[j];
            if r.max_end <= probe {
                break;
            }
            if probe < r.end {
                let f = &self.frames[r.frame as usize];
                if innermost.is_none_or(|i| f.depth > i.depth) {
                    innermost = Some(f);
                }
            }
        }
        let mut out = Vec::new();
        let mut at = innermost;
        while let Some(f) = at {
            out.push(f);
            at = self.frames.get(f.parent as usize);
        }
        out
    }
}

/// The name of the function DIE at `offset`: its linkage name (demangled) or `DW_AT_name`,
/// followed through `DW_AT_abstract_origin` and `DW_AT_specification` within the unit, at
/// most `hops` times (addr2line's order).
fn origin_name(
    unit: gimli::UnitRef<'_, DwarfReader>,
    offset: gimli::UnitOffset,
    hops: u32,
    names: &mut FxHashSet<Arc<str>>,
) -> Option<Arc<str>> {
    let entry = unit.entry(offset).ok()?;
    let mut attrs = entry.attrs();
    let mut name = None;
    let mut next = None;
    while let Ok(Some(attr)) = attrs.next() {
        match attr.name() {
            gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                if let Ok(s) = unit.attr_string(attr.value()) {
                    let raw = s.to_string_lossy().ok()?.into_owned();
                    return Some(intern(names, &super::demangle(&raw)));
                }
            }
            gimli::DW_AT_name => {
                if let Ok(s) = unit.attr_string(attr.value()) {
                    name = Some(s.to_string_lossy().ok()?.into_owned());
                }
            }
            gimli::DW_AT_abstract_origin | gimli::DW_AT_specification => next = Some(attr.value()),
            _ => {}
        }
    }
    if let Some(name) = name {
        return Some(intern(names, &name));
    }
    match next {
        Some(gimli::AttributeValue::UnitRef(o)) if hops > 0 => {
            origin_name(unit, o, hops - 1, names)
        }
        _ => None,
    }
}

fn intern(names: &mut FxHashSet<Arc<str>>, name: &str) -> Arc<str> {
    match names.get(name) {
        Some(n) => n.clone(),
        None => {
            let n: Arc<str> = Arc::from(name);
            names.insert(n.clone());
            n
        }
    }
}
