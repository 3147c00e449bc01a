//! Inlined functions as rows of their own ([`Profile::inlines`]).
//!
//! An inlined function is a row named `NAME [inlined]` (perf's marker) in
//! the object of the code it was inlined into, one row per name and object
//! however many places it was inlined into. Its self cost is the cost of
//! the instructions whose innermost inline frame it is, summed from the
//! costs per instruction (every metric is per instruction, so the split is
//! exact); its inclusive cost, of the instructions with it anywhere in
//! their inline chain (each once). The physical function each instruction
//! belongs to gives up as much of its self cost. Calls and the calling
//! context tree stay with physical functions: an inlined function has no
//! calls. Its file and line are those of its first instruction (by
//! address).
//!
//! The costs per instruction are whole-run (as the blocks'): a profile
//! made with `--toggle-collect` or the region markers has function rows
//! that leave part of the run out, and the physical rows lose no more than
//! they have (their self cost saturates at zero).
//!
//! `--no-inline` ([`strip_inlines`]) gives the views of the physical
//! functions alone, as profiles without inline frames have them.

use std::collections::BTreeMap;
use std::collections::HashMap;

use crate::blocks::InsnIndex;
use crate::profile::{FunctionRow, Profile};

/// The suffix of an inlined function's row name.
pub const INLINE_SUFFIX: &str = " [inlined]";

/// Removes the inline frames of `profile`: every view then shows the
/// physical functions only (`--no-inline`).
pub fn strip_inlines(profile: &mut Profile) {
    profile.inlines = Default::default();
}

/// The name of the row of inlined function `name`.
pub fn inline_row_name(name: &str) -> String {
    format!("{name}{INLINE_SUFFIX}")
}

/// How the costs per instruction split among inlined functions: per
/// instruction in inlined code, its innermost frame's row and the rows of
/// its whole chain.
pub(crate) struct InlineRows {
    /// The rows to append to [`Profile::functions`], in order.
    pub rows: Vec<FunctionRow>,
    /// Per address in inlined code: the index (into `rows`) of its
    /// innermost frame's row, then those of the frames around it
    /// (distinct, innermost first).
    pub of_insn: HashMap<u64, Vec<u32>>,
}

impl InlineRows {
    /// The inline rows of `profile`: none when it has no costs per
    /// instruction or no inline frames. `index` places instructions on
    /// their physical functions.
    pub(crate) fn build(profile: &Profile, index: &InsnIndex) -> InlineRows {
        let mut out = InlineRows {
            rows: Vec::new(),
            of_insn: HashMap::new(),
        };
        if profile.insns.is_empty() || profile.inlines.is_empty() {
            return out;
        }
        let m = profile.metrics.len();
        let object_of = |addr: u64| -> String {
            index
                .function_of(addr)
                .and_then(|f| profile.functions.get(f as usize))
                .map(|f| f.object.clone())
                .unwrap_or_default()
        };
        // Rows by (object, name), numbered in that order.
        let mut keys: BTreeMap<(String, String), u32> = BTreeMap::new();
        let mut chains: Vec<(u64, Vec<(String, String)>)> = Vec::new();
        for (addr, frame) in profile.inlines.by_address() {
            let object = object_of(addr);
            let mut chain: Vec<(String, String)> = Vec::new();
            for f in profile.inlines.chain(frame) {
                let key = (object.clone(), f.function.clone());
                if !chain.contains(&key) {
                    chain.push(key.clone());
                }
                keys.insert(key, 0);
            }
            chains.push((addr, chain));
        }
        for (i, ((object, name), slot)) in keys.iter_mut().enumerate() {
            *slot = i as u32;
            out.rows.push(FunctionRow {
                name: inline_row_name(name),
                object: object.clone(),
                file: None,
                line: None,
                calls: 0,
                self_cost: vec![0; m],
                inclusive: vec![0; m],
            });
        }
        for (addr, chain) in chains {
            let ids: Vec<u32> = chain.iter().map(|k| keys[k]).collect();
            if let (Some(&first), Some((f, l))) = (ids.first(), index.line(addr)) {
                let row = &mut out.rows[first as usize];
                if row.file.is_none() {
                    row.file = profile.blocks.files.get(f as usize).cloned();
                    row.line = Some(l);
                }
            }
            out.of_insn.insert(addr, ids);
        }
        for (addr, cost) in index.rows() {
            let Some(ids) = out.of_insn.get(addr) else {
                continue;
            };
            for (k, &id) in ids.iter().enumerate() {
                let row = &mut out.rows[id as usize];
                if k == 0 {
                    add(&mut row.self_cost, cost);
                }
                add(&mut row.inclusive, cost);
            }
        }
        out
    }
}

fn add(into: &mut [u64], from: &[u64]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = a.saturating_add(*b);
    }
}

fn sub(from: &mut [u64], what: &[u64]) {
    for (a, b) in from.iter_mut().zip(what) {
        *a = a.saturating_sub(*b);
    }
}

/// `profile` with a row per inlined function appended to its functions,
/// the physical rows' self costs reduced by theirs (see the [module
/// documentation](self)); unchanged without inline frames.
pub fn with_inline_rows(profile: &Profile) -> Profile {
    let mut out = profile.clone();
    add_inline_rows(&mut out);
    out
}

/// [`with_inline_rows`] in place.
pub fn add_inline_rows(profile: &mut Profile) {
    let split = InlineSplit::of(profile);
    for (f, moved) in &split.moved {
        if let Some(row) = profile.functions.get_mut(*f as usize) {
            sub(&mut row.self_cost, moved);
        }
    }
    profile.functions.extend(split.rows);
}

/// What the inline rows change in a profile's function rows.
#[derive(Default)]
pub(crate) struct InlineSplit {
    /// Per physical function row, the self cost its inline rows take.
    pub moved: HashMap<u32, Vec<u64>>,
    /// The inline rows, to follow the profile's rows.
    pub rows: Vec<FunctionRow>,
}

impl InlineSplit {
    pub(crate) fn of(profile: &Profile) -> InlineSplit {
        let mut out = InlineSplit::default();
        if profile.inlines.is_empty() || profile.insns.is_empty() {
            return out;
        }
        let m = profile.metrics.len();
        let index = InsnIndex::new(profile);
        let inline = InlineRows::build(profile, &index);
        for (addr, cost) in index.rows() {
            if !inline.of_insn.contains_key(addr) {
                continue;
            }
            if let Some(f) = index.function_of(*addr) {
                add(out.moved.entry(f).or_insert_with(|| vec![0; m]), cost);
            }
        }
        out.rows = inline.rows;
        out
    }

    /// Row `f`'s self cost less what its inline rows take.
    pub(crate) fn self_cost(&self, f: u32, own: &[u64]) -> Vec<u64> {
        let mut out = own.to_vec();
        if let Some(moved) = self.moved.get(&f) {
            sub(&mut out, moved);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::{inlined_profile, per_instruction_profile};

    #[test]
    fn inlined_functions_get_rows_of_their_own() {
        let p = with_inline_rows(&inlined_profile());
        let row = |name: &str| p.functions.iter().find(|f| f.name == name).unwrap();
        let main = row("main");
        let before = per_instruction_profile();
        // main gives up its second and third instructions (2 + 1).
        assert_eq!(main.self_cost[0], before.functions[0].self_cost[0] - 3);
        assert_eq!(main.inclusive, before.functions[0].inclusive);
        let outer = row("outer [inlined]");
        assert_eq!(
            (outer.self_cost.clone(), outer.inclusive.clone()),
            (vec![2, 0], vec![3, 0])
        );
        assert_eq!(outer.calls, 0);
        assert_eq!(
            (outer.file.as_deref(), outer.line),
            (Some("tiny.c"), Some(4))
        );
        let helper = row("helper [inlined]");
        assert_eq!(
            (helper.self_cost.clone(), helper.inclusive.clone()),
            (vec![1, 0], vec![1, 0])
        );
        assert_eq!(
            (helper.file.as_deref(), helper.line),
            (Some("hdr.h"), Some(7))
        );
        assert_eq!(p.functions.len(), before.functions.len() + 2);
        p.validate().unwrap();
    }

    #[test]
    fn without_inline_frames_nothing_changes() {
        let mut p = inlined_profile();
        strip_inlines(&mut p);
        assert_eq!(with_inline_rows(&p), per_instruction_profile());
    }

    #[test]
    fn chains_are_interned_parents_first() {
        let p = inlined_profile();
        let names: Vec<&str> = p
            .inlines
            .frames
            .iter()
            .map(|f| f.function.as_str())
            .collect();
        assert_eq!(names, ["outer", "helper"]);
        assert_eq!(p.inlines.frames[1].parent, Some(0));
        let at: Vec<(u64, u32)> = p.inlines.by_address().collect();
        assert_eq!(at, [(0x401010, 0), (0x401020, 1)]);
        let chain: Vec<&str> = p.inlines.chain(1).map(|f| f.function.as_str()).collect();
        assert_eq!(chain, ["helper", "outer"]);
        let mut bad = p.clone();
        bad.inlines.frames[0].parent = Some(1);
        assert!(bad.validate().is_err());
        let mut bad = p.clone();
        bad.inlines.frames[0].call_file = Some(9);
        assert!(bad.validate().is_err());
        let mut bad = p;
        bad.inlines.insns[1].frame = 7;
        assert!(bad.validate().is_err());
    }
}
