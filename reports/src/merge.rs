//! `pathvm report FILE...`: several profiles (the processes of one
//! `--trace-children` run) merged into one, so every view and export sees
//! the whole process tree.
//!
//! Every cost of the profiles adds up: totals, function rows (self and
//! inclusive: each profile's are its own process's), phases. Each profile's
//! calling context tree goes under the merged root as it was (its root's
//! children become the merged root's children, in file order); its path
//! functions are kept as they are, one entry per profile, with function and
//! context indices renumbered.
//!
//! The sum is the sum of the files: a forked child's profile starts with
//! its parent's part before the fork (the child is a copy of the recording
//! process), so the merge counts that part once per forked child. The files
//! do not say where the fork was, so it cannot be taken out here.

use rustc_hash::FxHashMap;

use crate::error::ReportError;
use crate::profile::{
    ContextTable, FunctionRow, ObjectInfo, PathProfile, Phase, PhaseFunction, Profile,
};

/// What makes two function rows one: name, object, source file and line.
type FunctionKey<'a> = (&'a str, &'a str, Option<&'a str>, Option<u32>);

/// The key of [`Meta::config`](crate::Meta::config) that says how many
/// profiles a merged profile was made from.
pub const MERGED_KEY: &str = "merged";

/// Why [`read_profiles`] made no profile; each message names the file it
/// is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadProfilesError {
    /// A file is not a readable profile.
    #[error(transparent)]
    Read(#[from] crate::file::ProfileError),
    /// The profile of `path` cannot be merged with the first one.
    #[error("{path}: {source}")]
    Merge {
        /// The file.
        path: String,
        /// Why it cannot be merged.
        source: ReportError,
    },
    /// The profiles cannot be merged (none was given).
    #[error(transparent)]
    Other(ReportError),
}

/// The profile of the files of `pathvm report FILE...`: the one file's, or
/// the merge of all ([`merge_profiles`]).
pub fn read_profiles<P: AsRef<std::path::Path>>(files: &[P]) -> Result<Profile, ReadProfilesError> {
    let mut profiles = files
        .iter()
        .map(crate::file::read_profile)
        .collect::<Result<Vec<_>, _>>()?;
    if profiles.len() == 1 {
        return Ok(profiles.remove(0));
    }
    merge_profiles(&profiles).map_err(|e| match e {
        ReportError::MetricsDiffer { index, .. } => ReadProfilesError::Merge {
            path: files[index].as_ref().display().to_string(),
            source: e,
        },
        e => ReadProfilesError::Other(e),
    })
}

/// One profile made of `profiles` (at least one), in their order.
///
/// All must have the same metrics in the same order
/// ([`ReportError::MetricsDiffer`] names the first that does not). Function
/// rows are merged by name, object, source file and line, in order of first
/// appearance; phases by name, in order of first appearance (a profile
/// without phases counts to `main`, as a version 1 file reads). The meta is
/// the first profile's, with the union of the objects and `merged=N` in the
/// config. A profile without a calling context tree adds no context (its
/// path rows go to the root).
pub fn merge_profiles(profiles: &[Profile]) -> Result<Profile, ReportError> {
    let first = profiles
        .first()
        .ok_or_else(|| ReportError::InvalidOption("no profiles to merge".into()))?;
    for (index, p) in profiles.iter().enumerate() {
        p.validate()
            .map_err(|e| ReportError::InvalidProfile(format!("profile {index}: {e}")))?;
        if p.metrics != first.metrics {
            let at = (0..)
                .find(|&i| p.metrics.get(i) != first.metrics.get(i))
                .expect("the lists differ");
            let name = |m: &[String]| m.get(at).map_or("none".into(), |s| format!("`{s}`"));
            return Err(ReportError::MetricsDiffer {
                index,
                position: at,
                found: name(&p.metrics),
                expected: name(&first.metrics),
            });
        }
    }
    let m = first.metrics.len();
    let mut merged = Profile {
        meta: first.meta.clone(),
        metrics: first.metrics.clone(),
        totals: vec![0; m],
        ..Profile::default()
    };

    // Merged row of each profile's functions.
    let mut function_of: Vec<Vec<u32>> = Vec::with_capacity(profiles.len());
    let mut slot: FxHashMap<FunctionKey, u32> = FxHashMap::default();
    for p in profiles {
        add(&mut merged.totals, &p.totals);
        let mut map = Vec::with_capacity(p.functions.len());
        for f in &p.functions {
            let key = (
                f.name.as_str(),
                f.object.as_str(),
                f.file.as_deref(),
                f.line,
            );
            let i = *slot.entry(key).or_insert_with(|| {
                merged.functions.push(FunctionRow {
                    calls: 0,
                    self_cost: vec![0; m],
                    inclusive: vec![0; m],
                    ..f.clone()
                });
                (merged.functions.len() - 1) as u32
            });
            let row = &mut merged.functions[i as usize];
            row.calls = row.calls.saturating_add(f.calls);
            add(&mut row.self_cost, &f.self_cost);
            add(&mut row.inclusive, &f.inclusive);
            map.push(i);
        }
        function_of.push(map);
    }
    let remap = |map: &[u32], f: u32| match f {
        ContextTable::NO_FUNCTION => f,
        f => map[f as usize],
    };

    // Context trees under one root; first new index of each profile's node 1.
    let any_tree = profiles.iter().any(|p| !p.contexts.is_empty());
    let mut base = vec![0u32; profiles.len()];
    if any_tree {
        let c = &mut merged.contexts;
        c.parent.push(0);
        c.function.push(ContextTable::NO_FUNCTION);
        c.call_site.push(0);
        c.flags.push(0);
        c.calls.push(0);
        c.self_cost.resize(m, 0);
        for (k, p) in profiles.iter().enumerate() {
            let from = &p.contexts;
            if from.is_empty() {
                continue;
            }
            base[k] = c.len() as u32;
            let node_of = |n: u32| if n == 0 { 0 } else { base[k] + n - 1 };
            add(&mut c.self_cost[..m], from.self_of(0, m));
            for node in 1..from.len() {
                c.parent.push(node_of(from.parent[node]));
                c.function.push(remap(&function_of[k], from.function[node]));
                c.call_site.push(from.call_site[node]);
                c.flags.push(from.flags[node]);
                c.calls.push(from.calls[node]);
                c.self_cost.extend_from_slice(from.self_of(node, m));
            }
        }
    }

    // Paths: functions concatenated, source files merged.
    let mut paths = PathProfile::default();
    let mut file_slot: FxHashMap<&str, u32> = FxHashMap::default();
    for (k, p) in profiles.iter().enumerate() {
        paths.recorded |= p.paths.recorded;
        paths.unattributed_instructions = paths
            .unattributed_instructions
            .saturating_add(p.paths.unattributed_instructions);
        let files: Vec<u32> = p
            .paths
            .files
            .iter()
            .map(|name| {
                *file_slot.entry(name).or_insert_with(|| {
                    paths.files.push(name.clone());
                    (paths.files.len() - 1) as u32
                })
            })
            .collect();
        let tree = !p.contexts.is_empty();
        for f in &p.paths.functions {
            let mut f = f.clone();
            f.function = remap(&function_of[k], f.function);
            for line in f.blocks.iter_mut().flat_map(|b| b.lines.iter_mut()) {
                line.file = files[line.file as usize];
            }
            for r in &mut f.rows {
                r.context = if tree && r.context != 0 {
                    base[k] + r.context - 1
                } else {
                    0
                };
            }
            paths.functions.push(f);
        }
    }
    merged.paths = paths;

    // Blocks: every process's rows, functions and files renumbered.
    let mut file_slot: FxHashMap<&str, u32> = FxHashMap::default();
    for (k, p) in profiles.iter().enumerate() {
        let files: Vec<u32> = p
            .blocks
            .files
            .iter()
            .map(|name| {
                *file_slot.entry(name).or_insert_with(|| {
                    merged.blocks.files.push(name.clone());
                    (merged.blocks.files.len() - 1) as u32
                })
            })
            .collect();
        for b in &p.blocks.blocks {
            let mut b = b.clone();
            b.function = remap(&function_of[k], b.function);
            for l in b.lines.iter_mut().filter(|l| l.file != u32::MAX) {
                l.file = files[l.file as usize];
            }
            merged.blocks.blocks.push(b);
        }
    }

    // Inline frames by address (the first process's where several ran the
    // same address), call-site files renumbered as the blocks'.
    if profiles.iter().any(|p| !p.inlines.is_empty()) {
        let slot: FxHashMap<&str, u32> = merged
            .blocks
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.as_str(), i as u32))
            .collect();
        type Chain = Vec<(String, Option<u32>, u32)>;
        let mut by_addr: std::collections::BTreeMap<u64, Chain> = Default::default();
        for p in profiles {
            for (addr, frame) in p.inlines.by_address() {
                by_addr.entry(addr).or_insert_with(|| {
                    p.inlines
                        .chain(frame)
                        .map(|f| {
                            let file = f
                                .call_file
                                .and_then(|i| p.blocks.files.get(i as usize))
                                .and_then(|name| slot.get(name.as_str()).copied());
                            (f.function.clone(), file, f.call_line)
                        })
                        .collect()
                });
            }
        }
        merged.inlines = crate::profile::InlineProfile::from_chains(
            by_addr.iter().map(|(a, c)| (*a, c.as_slice())),
        );
    }

    // Instructions: summed by address (processes that ran the same code
    // at the same address add up, as their blocks' lines do).
    if profiles.iter().any(|p| !p.insns.is_empty()) {
        let mut by_addr: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
        let mut unknown = vec![0u64; m];
        for p in profiles {
            for (addr, c) in p.insns.dense(m) {
                add(by_addr.entry(addr).or_insert_with(|| vec![0; m]), &c);
            }
            add(&mut unknown, &p.insns.unknown);
        }
        merged.insns = crate::profile::InsnProfile::from_dense(
            by_addr.iter().map(|(a, c)| (*a, c.as_slice())),
            unknown,
        );
    }

    // Phases by name, the function rows of each in merged order.
    if profiles.iter().any(|p| !p.phases.is_empty()) {
        let mut phases: Vec<(Phase, FxHashMap<u32, Vec<u64>>)> = Vec::new();
        for (k, p) in profiles.iter().enumerate() {
            let main;
            let own: &[Phase] = if p.phases.is_empty() {
                main = [whole_run_phase(p)];
                &main
            } else {
                &p.phases
            };
            for ph in own {
                let at = match phases.iter().position(|(q, _)| q.name == ph.name) {
                    Some(at) => at,
                    None => {
                        let empty = Phase {
                            name: ph.name.clone(),
                            totals: vec![0; m],
                            functions: Vec::new(),
                        };
                        phases.push((empty, FxHashMap::default()));
                        phases.len() - 1
                    }
                };
                let (into, rows) = &mut phases[at];
                add(&mut into.totals, &ph.totals);
                for f in &ph.functions {
                    let i = remap(&function_of[k], f.function);
                    add(rows.entry(i).or_insert_with(|| vec![0; m]), &f.self_cost);
                }
            }
        }
        merged.phases = phases
            .into_iter()
            .map(|(mut phase, rows)| {
                let mut rows: Vec<(u32, Vec<u64>)> = rows.into_iter().collect();
                rows.sort_unstable_by_key(|r| r.0);
                phase.functions = rows
                    .into_iter()
                    .map(|(function, self_cost)| PhaseFunction {
                        function,
                        self_cost,
                    })
                    .collect();
                phase
            })
            .collect();
    }

    let meta = &mut merged.meta;
    for o in profiles.iter().flat_map(|p| &p.meta.objects) {
        if !meta
            .objects
            .iter()
            .any(|x: &ObjectInfo| x.path == o.path && x.id == o.id)
        {
            meta.objects.push(o.clone());
        }
    }
    meta.config.retain(|(k, _)| k != MERGED_KEY);
    let at = meta
        .config
        .partition_point(|(k, _)| k.as_str() < MERGED_KEY);
    meta.config
        .insert(at, (MERGED_KEY.into(), profiles.len().to_string()));

    merged.validate().map_err(ReportError::InvalidProfile)?;
    Ok(merged)
}

/// A profile without phases as one phase, `main`, with the run's totals.
fn whole_run_phase(p: &Profile) -> Phase {
    Phase {
        name: "main".into(),
        totals: p.totals.clone(),
        functions: p
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.self_cost.iter().any(|&v| v != 0))
            .map(|(i, f)| PhaseFunction {
                function: i as u32,
                self_cost: f.self_cost.clone(),
            })
            .collect(),
    }
}

fn add(into: &mut [u64], from: &[u64]) {
    for (a, &b) in into.iter_mut().zip(from) {
        *a = a.saturating_add(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::{phased_profile, tiny_profile};

    #[test]
    fn two_copies_double_everything() {
        let one = tiny_profile();
        let two = merge_profiles(&[one.clone(), one.clone()]).unwrap();
        two.validate().unwrap();
        let doubled = |v: &[u64]| v.iter().map(|x| 2 * x).collect::<Vec<u64>>();
        assert_eq!(two.totals, doubled(&one.totals));
        assert_eq!(two.functions.len(), one.functions.len());
        for (a, b) in two.functions.iter().zip(&one.functions) {
            assert_eq!(
                (&a.name, a.calls, &a.self_cost, &a.inclusive),
                (
                    &b.name,
                    2 * b.calls,
                    &doubled(&b.self_cost),
                    &doubled(&b.inclusive)
                )
            );
        }
        let n = one.contexts.len();
        assert_eq!(two.contexts.len(), 2 * (n - 1) + 1);
        // The second copy's tree follows the first's, under the same root.
        assert_eq!(two.contexts.parent, [0, 0, 1, 2, 1, 4, 0, 6, 7, 6, 9]);
        assert_eq!(&two.contexts.function[6..], &one.contexts.function[1..]);
        assert_eq!(two.contexts.inclusive(2)[..2], two.totals[..]);
        assert_eq!(two.paths.files, one.paths.files);
        assert_eq!(two.paths.functions.len(), 2);
        let rows: Vec<_> = two.paths.functions.iter().flat_map(|f| &f.rows).collect();
        assert_eq!(rows.len(), 2 * one.paths.functions[0].rows.len());
        let contexts: Vec<u32> = rows.iter().map(|r| r.context).collect();
        assert_eq!(contexts, [3, 3, 5, 5, 8, 8, 10, 10]);
        // Every path row of c sits in a context of c.
        for r in rows {
            assert_eq!(two.contexts.function[r.context as usize], 3);
        }
        assert_eq!(two.meta.objects, one.meta.objects);
        assert_eq!(
            two.meta.config,
            [("merged".into(), "2".into()), ("seed".into(), "0".into())]
        );
        assert_eq!(two.meta.command, one.meta.command);
    }

    #[test]
    fn distinct_functions_and_files_are_kept_apart() {
        let one = tiny_profile();
        let mut other = tiny_profile();
        other.functions[3].object = "/usr/bin/other".into();
        other.paths.files = vec!["/src/other.c".into()];
        other.meta.objects[0].id = "99".into();
        let two = merge_profiles(&[one.clone(), other]).unwrap();
        assert_eq!(two.functions.len(), 5);
        assert_eq!(two.functions[3].calls, one.functions[3].calls);
        assert_eq!(two.functions[4].object, "/usr/bin/other");
        assert_eq!(two.contexts.function[8], 4);
        assert_eq!(two.paths.functions[1].function, 4);
        assert_eq!(two.paths.files, ["/src/c.c", "/src/other.c"]);
        assert_eq!(two.paths.functions[1].blocks[0].lines[0].file, 1);
        assert_eq!(two.meta.objects.len(), 3);
    }

    #[test]
    fn phases_merge_by_name() {
        let mut only_work = phased_profile();
        only_work.phases.remove(0);
        only_work.phases[0].totals = only_work.totals.clone();
        only_work.phases[0].functions = vec![PhaseFunction {
            function: 0,
            self_cost: only_work.totals.clone(),
        }];
        let merged = merge_profiles(&[phased_profile(), tiny_profile(), only_work]).unwrap();
        let names: Vec<&str> = merged.phases.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["main", "work"]);
        // main: phased 70, 3 and the whole of tiny; work: 200, 30 and the third.
        assert_eq!(merged.phases[0].totals, [70 + 270, 3 + 33]);
        assert_eq!(merged.phases[1].totals, [200 + 270, 30 + 33]);
        let work: Vec<(u32, Vec<u64>)> = merged.phases[1]
            .functions
            .iter()
            .map(|f| (f.function, f.self_cost.clone()))
            .collect();
        assert_eq!(work, [(0, vec![270, 33]), (3, vec![200, 30])]);
        assert_eq!(merged.totals, [3 * 270, 3 * 33]);
    }

    #[test]
    fn different_metrics_are_refused() {
        let mut other = tiny_profile();
        other.metrics[1] = "ll-miss".into();
        let e = merge_profiles(&[tiny_profile(), tiny_profile(), other]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot merge: profile 2 has metric `ll-miss` where profile 0 has `l1d-miss` (column 1)"
        );
        let mut short = tiny_profile();
        short.metrics.pop();
        short.totals.pop();
        for f in &mut short.functions {
            f.self_cost.pop();
            f.inclusive.pop();
        }
        short.contexts = ContextTable::default();
        short.paths = PathProfile::default();
        let e = merge_profiles(&[tiny_profile(), short]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot merge: profile 1 has metric none where profile 0 has `l1d-miss` (column 1)"
        );
        assert!(merge_profiles(&[]).is_err());
    }

    #[test]
    fn one_profile_without_a_tree() {
        let mut flat = tiny_profile();
        flat.contexts = ContextTable::default();
        for r in &mut flat.paths.functions[0].rows {
            r.context = 0;
        }
        let merged = merge_profiles(&[flat, tiny_profile()]).unwrap();
        assert_eq!(merged.contexts.len(), 6);
        let contexts: Vec<u32> = merged
            .paths
            .functions
            .iter()
            .flat_map(|f| &f.rows)
            .map(|r| r.context)
            .collect();
        assert_eq!(contexts, [0, 0, 0, 0, 3, 3, 5, 5]);
    }
}
