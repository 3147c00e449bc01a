//! Region markers of `include/pathvm.h`: phases, and the start, stop and
//! zero of counting.
//!
//! The recorder charges every cost as it always does; markers only take
//! snapshots, and the costs they exclude are subtracted once, after the
//! run. So the charging path does not know about markers, and a marker
//! costs time in proportion to the contexts and functions seen so far:
//! markers are meant for phase boundaries, not for inner loops.
//!
//! What each marker does (exactly at its `syscall`: the costs of every
//! instruction up to and including the marker's `syscall` come before it):
//! - `PATHVM_STOP()`: costs (every metric, in the function view, the
//!   calling context tree, the totals and the phases) are no longer counted.
//!   The simulated caches and predictors go on running (they stay warm, as
//!   with callgrind's `--toggle-collect`), and calls, contexts and call
//!   counts are still recorded. A second stop does nothing.
//! - `PATHVM_START()`: costs are counted again; nothing when counting.
//! - `PATHVM_ZERO()`: every cost counted so far is discarded (phases keep
//!   their names with zero totals and no function costs); call counts are
//!   kept. Whether costs are
//!   being counted does not change.
//! - `PATHVM_PHASE(name)`: from here on costs belong to phase `name`; a
//!   name used again continues its phase (phases are summed per name). The
//!   phase before any phase marker is `main`. Each phase keeps its total
//!   and the self cost of each function in it.
//!
//! So the phases always add up to the profile's totals, and a function's
//! costs in the phases to its self cost.

use cct::{Cct, FuncId, NodeId};
use events::{Costs, Marker};
use reports::PhaseFunction;
use rustc_hash::FxHashMap;

/// Cost counters at one moment: per context (`n_metrics` per node, the
/// nodes that existed then) and per function (by `FuncId`).
#[derive(Clone, Default)]
struct Snapshot {
    nodes: Vec<u64>,
    funcs: Vec<Costs>,
}

impl Snapshot {
    fn take(cct: &Cct, funcs: &[Costs]) -> Snapshot {
        let mut nodes = Vec::with_capacity(cct.node_count() * cct.n_metrics());
        for node in cct.nodes() {
            nodes.extend_from_slice(cct.self_metrics(node));
        }
        Snapshot {
            nodes,
            funcs: funcs.to_vec(),
        }
    }

    /// `self += now - then` (counters only grow, so every difference is
    /// what was charged in between).
    fn add_since(&mut self, now: &Snapshot, then: &Snapshot) {
        grow(&mut self.nodes, now.nodes.len(), 0);
        for (i, (e, v)) in self.nodes.iter_mut().zip(&now.nodes).enumerate() {
            *e = e.wrapping_add(v.wrapping_sub(then.nodes.get(i).copied().unwrap_or(0)));
        }
        grow(&mut self.funcs, now.funcs.len(), Costs::ZERO);
        let zero = Costs::ZERO;
        for (i, (e, v)) in self.funcs.iter_mut().zip(&now.funcs).enumerate() {
            *e += v.since(then.funcs.get(i).unwrap_or(&zero));
        }
    }
}

fn grow<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) {
    if v.len() < len {
        v.resize(len, fill);
    }
}

fn sum(funcs: &[Costs]) -> Costs {
    let mut total = Costs::ZERO;
    for c in funcs {
        total += c;
    }
    total
}

/// The state of the markers during a run.
pub struct Markers {
    /// Costs charged but not counted (stopped stretches, zeroed costs).
    excluded: Snapshot,
    excluded_total: Costs,
    /// Counters at the last stop, while stopped.
    stopped_at: Option<(Snapshot, Costs)>,
    /// Phases in order of first appearance, with their counted totals.
    phases: Vec<(String, Costs)>,
    /// Per phase, the counted self cost of each function (by `FuncId`).
    phase_funcs: Vec<Vec<Costs>>,
    current: usize,
    /// The counted total when the current phase last became current.
    mark: Costs,
    /// The counted self cost of each function then.
    mark_funcs: Vec<Costs>,
}

/// What [`Markers::finish`] returns per phase: its name, its total, and
/// the self cost of each function in it (by `FuncId`).
pub type PhaseCosts = (String, Costs, Vec<Costs>);

impl Default for Markers {
    fn default() -> Markers {
        Markers {
            excluded: Snapshot::default(),
            excluded_total: Costs::ZERO,
            stopped_at: None,
            phases: vec![("main".to_string(), Costs::ZERO)],
            phase_funcs: vec![Vec::new()],
            current: 0,
            mark: Costs::ZERO,
            mark_funcs: Vec::new(),
        }
    }
}

impl Markers {
    /// Total counted so far: charged, less excluded, less the stretch
    /// since the stop when stopped.
    fn counted(&self, funcs: &[Costs]) -> Costs {
        let charged = match &self.stopped_at {
            Some((_, total)) => *total,
            None => sum(funcs),
        };
        charged.since(&self.excluded_total)
    }

    /// The counted self cost of each function.
    fn counted_funcs(&self, funcs: &[Costs]) -> Vec<Costs> {
        let charged = match &self.stopped_at {
            Some((then, _)) => &then.funcs[..],
            None => funcs,
        };
        let zero = Costs::ZERO;
        charged
            .iter()
            .enumerate()
            .map(|(i, c)| c.since(self.excluded.funcs.get(i).unwrap_or(&zero)))
            .collect()
    }

    /// Adds what the current phase counted since it became current.
    fn close_phase(&mut self, funcs: &[Costs]) {
        let now = self.counted(funcs);
        self.phases[self.current].1 += now.since(&self.mark);
        self.mark = now;
        let now_funcs = self.counted_funcs(funcs);
        let phase = &mut self.phase_funcs[self.current];
        grow(phase, now_funcs.len(), Costs::ZERO);
        let zero = Costs::ZERO;
        for (i, (p, c)) in phase.iter_mut().zip(&now_funcs).enumerate() {
            *p += c.since(self.mark_funcs.get(i).unwrap_or(&zero));
        }
        self.mark_funcs = now_funcs;
    }

    /// Ends a stopped stretch: what it charged becomes excluded.
    fn resume(&mut self, cct: &Cct, funcs: &[Costs]) {
        if let Some((then, then_total)) = self.stopped_at.take() {
            let now = Snapshot::take(cct, funcs);
            self.excluded.add_since(&now, &then);
            self.excluded_total += sum(funcs).since(&then_total);
        }
    }

    /// One marker, with the counters as charged so far.
    pub fn on_marker(&mut self, m: Marker<'_>, cct: &Cct, funcs: &[Costs]) {
        self.close_phase(funcs);
        match m {
            Marker::Start => self.resume(cct, funcs),
            Marker::Stop => {
                if self.stopped_at.is_none() {
                    self.stopped_at = Some((Snapshot::take(cct, funcs), sum(funcs)));
                }
            }
            Marker::Zero => {
                let now = Snapshot::take(cct, funcs);
                let total = sum(funcs);
                if self.stopped_at.is_some() {
                    self.stopped_at = Some((now.clone(), total));
                }
                self.excluded = now;
                self.excluded_total = total;
                for p in &mut self.phases {
                    p.1 = Costs::ZERO;
                }
                for f in &mut self.phase_funcs {
                    f.clear();
                }
                self.mark = Costs::ZERO;
                self.mark_funcs.clear();
            }
            Marker::Phase(name) => {
                self.current = match self.phases.iter().position(|p| p.0 == name) {
                    Some(i) => i,
                    None => {
                        self.phases.push((name.to_string(), Costs::ZERO));
                        self.phase_funcs.push(Vec::new());
                        self.phases.len() - 1
                    }
                };
            }
        }
    }

    /// At the end of the run: closes the last phase and a stop still in
    /// force, subtracts every excluded cost from the tree and the function
    /// counters, and returns the phases with their totals and function costs.
    pub fn finish(mut self, cct: &mut Cct, funcs: &mut [Costs]) -> Vec<PhaseCosts> {
        self.close_phase(funcs);
        self.resume(cct, funcs);
        let n = cct.n_metrics();
        if n > 0 {
            for (k, chunk) in self.excluded.nodes.chunks(n).enumerate() {
                let node = NodeId(k as u32);
                for (v, e) in cct.self_metrics_mut(node).iter_mut().zip(chunk) {
                    *v = v.wrapping_sub(*e);
                }
            }
        }
        for (f, e) in funcs.iter_mut().zip(&self.excluded.funcs) {
            *f = f.since(e);
        }
        self.phases
            .into_iter()
            .zip(self.phase_funcs)
            .map(|((name, total), funcs)| (name, total, funcs))
            .collect()
    }
}

/// A phase's function costs as profile rows (`row_of`: `FuncId` → row),
/// in row order, leaving out functions with no cost in the phase.
pub fn phase_rows(
    funcs: &[Costs],
    row_of: &FxHashMap<FuncId, u32>,
    values: &dyn Fn(&Costs) -> Vec<u64>,
) -> Vec<PhaseFunction> {
    let mut rows: Vec<PhaseFunction> = funcs
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_zero())
        .filter_map(|(i, c)| {
            let function = *row_of.get(&FuncId(i as u32))?;
            let self_cost = values(c);
            self_cost.iter().any(|&v| v != 0).then_some(PhaseFunction {
                function,
                self_cost,
            })
        })
        .collect();
    rows.sort_by_key(|r| r.function);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::Metric;

    fn counts(instructions: u64) -> Costs {
        Costs::from_iter([
            (Metric::Instructions, instructions),
            (Metric::Loads, instructions / 2),
        ])
    }

    /// Charges `n` instructions to function `f` and to the root node.
    fn charge(cct: &mut Cct, funcs: &mut Vec<Costs>, f: usize, n: u64) {
        grow(funcs, f + 1, Costs::ZERO);
        funcs[f] += counts(n);
        cct.self_metrics_mut(NodeId(0))[0] += n;
    }

    /// A phase's functions add up to its total, and each function's phases
    /// to its self cost.
    fn check_functions_add_up(phases: &[PhaseCosts], funcs: &[Costs]) {
        for (name, total, by_func) in phases {
            assert_eq!(sum(by_func), *total, "{name}");
        }
        for (i, f) in funcs.iter().enumerate() {
            let mut s = Costs::ZERO;
            for p in phases {
                if let Some(c) = p.2.get(i) {
                    s += c;
                }
            }
            assert_eq!(s, *f, "function {i}");
        }
    }

    #[test]
    fn stop_start_zero_and_phases() {
        let mut cct = Cct::new(1);
        let mut funcs = Vec::new();
        let mut mk = Markers::default();
        charge(&mut cct, &mut funcs, 0, 10); // main: 10
        mk.on_marker(Marker::Phase("work"), &cct, &funcs);
        charge(&mut cct, &mut funcs, 1, 100); // work: 100
        mk.on_marker(Marker::Stop, &cct, &funcs);
        charge(&mut cct, &mut funcs, 1, 1000); // not counted
        mk.on_marker(Marker::Stop, &cct, &funcs); // no effect
        charge(&mut cct, &mut funcs, 2, 1000); // not counted
        mk.on_marker(Marker::Start, &cct, &funcs);
        charge(&mut cct, &mut funcs, 2, 7); // work: 7
        mk.on_marker(Marker::Phase("main"), &cct, &funcs);
        charge(&mut cct, &mut funcs, 0, 3); // main again: 3
        mk.on_marker(Marker::Stop, &cct, &funcs);
        charge(&mut cct, &mut funcs, 0, 50); // stopped until the end
        let phases = mk.finish(&mut cct, &mut funcs);
        check_functions_add_up(&phases, &funcs);
        let names: Vec<&str> = phases.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(names, ["main", "work"]);
        let instr = |v: &[Costs]| {
            v.iter()
                .map(|c| c[Metric::Instructions])
                .collect::<Vec<_>>()
        };
        assert_eq!(instr(&phases[0].2), [13, 0, 0]);
        assert_eq!(instr(&phases[1].2), [0, 100, 7]);
        let mut main = counts(10);
        main += counts(3);
        assert_eq!(phases[0].1, main);
        assert_eq!(phases[1].1[Metric::Instructions], 107);
        assert_eq!(funcs[0][Metric::Instructions], 13);
        assert_eq!(funcs[1][Metric::Instructions], 100);
        assert_eq!(funcs[2][Metric::Instructions], 7);
        assert_eq!(cct.self_metrics(NodeId(0))[0], 120);
    }

    #[test]
    fn zero_discards_everything_before() {
        let mut cct = Cct::new(1);
        let mut funcs = Vec::new();
        let mut mk = Markers::default();
        charge(&mut cct, &mut funcs, 0, 10);
        mk.on_marker(Marker::Phase("a"), &cct, &funcs);
        charge(&mut cct, &mut funcs, 1, 20);
        mk.on_marker(Marker::Stop, &cct, &funcs);
        charge(&mut cct, &mut funcs, 1, 30); // stopped
        mk.on_marker(Marker::Zero, &cct, &funcs); // stays stopped
        charge(&mut cct, &mut funcs, 1, 40); // stopped
        mk.on_marker(Marker::Start, &cct, &funcs);
        charge(&mut cct, &mut funcs, 2, 5);
        let phases = mk.finish(&mut cct, &mut funcs);
        check_functions_add_up(&phases, &funcs);
        assert_eq!(phases[0].1, Costs::ZERO);
        assert!(phases[0].2.iter().all(Costs::is_zero));
        assert_eq!(phases[1].1[Metric::Instructions], 5);
        assert_eq!(
            funcs
                .iter()
                .map(|c| c[Metric::Instructions])
                .collect::<Vec<_>>(),
            [0, 0, 5]
        );
        assert_eq!(cct.self_metrics(NodeId(0))[0], 5);
    }

    #[test]
    fn no_markers_one_phase_main() {
        let mut cct = Cct::new(1);
        let mut funcs = Vec::new();
        charge(&mut cct, &mut funcs, 0, 10);
        let phases = Markers::default().finish(&mut cct, &mut funcs);
        assert_eq!(phases, [("main".to_string(), counts(10), vec![counts(10)])]);
        assert_eq!(funcs[0], counts(10));
    }
}
