//! Region markers: `include/pathvm.h`'s (phases, and the start, stop and
//! zero of counting) and callgrind's client requests
//! (`valgrind/callgrind.h`: instrumentation, collection, zero, dumps).
//!
//! The recorder charges every cost as it always does; markers only take
//! snapshots, and the costs they exclude are subtracted once, after the
//! run. So the charging path does not know about markers, and a marker
//! costs time in proportion to the contexts and functions seen so far:
//! markers are meant for phase boundaries, not for inner loops.
//!
//! Costs are counted while two switches are on: instrumentation
//! (`PATHVM_START`/`PATHVM_STOP`, callgrind's `START_INSTRUMENTATION` and
//! `STOP_INSTRUMENTATION`; `--instr-atstart`) and collection (callgrind's
//! `TOGGLE_COLLECT`; `--collect-atstart`). What each marker does (a
//! `pathvm.h` marker exactly at its `syscall`: the costs of every
//! instruction up to and including it come before it; a callgrind request
//! from the start of the block that ends with it, see
//! [`events::CallgrindRequest`]):
//! - stop (instrumentation or collection off): costs (every metric, in the
//!   function view, the calling context tree, the totals and the phases)
//!   are no longer counted. The simulated caches and predictors go on
//!   running (they stay warm, as with callgrind's `--toggle-collect`), and
//!   calls, contexts and call counts are still recorded. A second stop
//!   does nothing. callgrind's instrumentation requests also empty the
//!   caches when they switch, as callgrind does ([`CacheResets`]).
//! - start: costs are counted again when both switches are on.
//! - zero (`PATHVM_ZERO`, `CALLGRIND_ZERO_STATS`): every cost counted since
//!   the last dump (the whole run before the first) is discarded; phases
//!   keep their names; call counts are kept. Counting stays as it was.
//! - `PATHVM_PHASE(name)`: from here on costs belong to phase `name`; a
//!   name used again continues its phase (phases are summed per name). The
//!   phase before any phase marker is `main`.
//! - a dump (`CALLGRIND_DUMP_STATS_AT(name)`, or `DUMP_STATS`, named
//!   `part-N` after callgrind's N-th dump file): the costs counted since the
//!   last phase marker or dump belong to phase `name`, as callgrind writes
//!   them in a part of that name; the current phase does not change, so
//!   what follows the last dump is that phase's (`main`), as callgrind's
//!   last part.
//!
//! So the phases always add up to the profile's totals, and a function's
//! costs in the phases to its self cost.

use std::borrow::Cow;

use cct::{Cct, FuncId, NodeId};
use events::{CallgrindRequest, Costs, Marker};
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

    /// `self - other`, entry by entry.
    fn minus(&self, other: &Snapshot) -> Snapshot {
        let mut out = Snapshot::default();
        out.add_since(self, other);
        out
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

/// `into[i] += add[i]` for every `i`.
fn add_all(into: &mut Vec<Costs>, add: &[Costs]) {
    grow(into, add.len(), Costs::ZERO);
    for (a, b) in into.iter_mut().zip(add) {
        *a += b;
    }
}

/// What the block that ended with a callgrind request was charged (to
/// its node and its function), which the request applies before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockShift {
    pub node: NodeId,
    /// One entry per node metric.
    pub node_costs: Vec<u64>,
    pub func: Option<FuncId>,
    pub func_costs: Costs,
}

/// The counters a marker sees: as charged, or as charged before the block
/// a [`BlockShift`] names.
struct Now<'a> {
    cct: &'a Cct,
    funcs: Cow<'a, [Costs]>,
    shift: Option<&'a BlockShift>,
}

impl<'a> Now<'a> {
    fn new(cct: &'a Cct, funcs: &'a [Costs], shift: Option<&'a BlockShift>) -> Now<'a> {
        let funcs = match shift.and_then(|s| Some((s.func?, &s.func_costs))) {
            Some((f, c)) if (f.0 as usize) < funcs.len() => {
                let mut v = funcs.to_vec();
                v[f.0 as usize] = v[f.0 as usize].since(c);
                Cow::Owned(v)
            }
            _ => Cow::Borrowed(funcs),
        };
        Now { cct, funcs, shift }
    }

    fn snapshot(&self) -> Snapshot {
        let mut s = Snapshot::take(self.cct, &self.funcs);
        if let Some(shift) = self.shift {
            let n = self.cct.n_metrics();
            let at = shift.node.0 as usize * n;
            if let Some(row) = s.nodes.get_mut(at..at + n) {
                for (v, d) in row.iter_mut().zip(&shift.node_costs) {
                    *v = v.wrapping_sub(*d);
                }
            }
        }
        s
    }
}

/// What a marker does, whichever interface set it.
#[derive(Clone, Copy, Debug)]
enum Op<'a> {
    Instrument(bool),
    ToggleCollect,
    Zero,
    Phase(&'a str),
    Dump(Option<&'a str>),
}

/// The state of the markers during a run.
pub struct Markers {
    /// Costs charged but not counted (stopped stretches, zeroed costs).
    excluded: Snapshot,
    excluded_total: Costs,
    /// Counters at the last stop, while stopped.
    stopped_at: Option<(Snapshot, Costs)>,
    instrumented: bool,
    collecting: bool,
    /// Phases in order of first appearance, with their counted totals.
    phases: Vec<(String, Costs)>,
    /// Per phase, the counted self cost of each function (by `FuncId`).
    phase_funcs: Vec<Vec<Costs>>,
    current: usize,
    /// The counted total at the last marker.
    mark: Costs,
    /// The counted self cost of each function then.
    mark_funcs: Vec<Costs>,
    /// Counted since the last phase marker or dump, not yet in a phase.
    open: Costs,
    open_funcs: Vec<Costs>,
    /// Dumps so far.
    dumps: u32,
    /// At the last dump: what was counted, per node and function, and in
    /// total (`None` before the first dump).
    at_dump: Option<(Snapshot, Costs)>,
    /// What went into phases since the last dump, which a zero takes back.
    since_dump: Vec<(usize, Costs, Vec<Costs>)>,
}

/// What [`Markers::finish`] returns per phase: its name, its total, and
/// the self cost of each function in it (by `FuncId`).
pub type PhaseCosts = (String, Costs, Vec<Costs>);

impl Default for Markers {
    fn default() -> Markers {
        Markers::new(true, true)
    }
}

impl Markers {
    /// Markers with instrumentation and collection on or off at the start
    /// (`--instr-atstart`, `--collect-atstart`).
    pub fn new(instrumented: bool, collecting: bool) -> Markers {
        Markers {
            excluded: Snapshot::default(),
            excluded_total: Costs::ZERO,
            stopped_at: (!(instrumented && collecting)).then(|| (Snapshot::default(), Costs::ZERO)),
            instrumented,
            collecting,
            phases: vec![("main".to_string(), Costs::ZERO)],
            phase_funcs: vec![Vec::new()],
            current: 0,
            mark: Costs::ZERO,
            mark_funcs: Vec::new(),
            open: Costs::ZERO,
            open_funcs: Vec::new(),
            dumps: 0,
            at_dump: None,
            since_dump: Vec::new(),
        }
    }

    fn counting(&self) -> bool {
        self.instrumented && self.collecting
    }

    /// Total counted so far: charged, less excluded, less the stretch
    /// since the stop when stopped.
    fn counted(&self, now: &Now) -> Costs {
        let charged = match &self.stopped_at {
            Some((_, total)) => *total,
            None => sum(&now.funcs),
        };
        charged.since(&self.excluded_total)
    }

    /// The counted self cost of each function.
    fn counted_funcs(&self, now: &Now) -> Vec<Costs> {
        let charged = match &self.stopped_at {
            Some((then, _)) => &then.funcs[..],
            None => &now.funcs[..],
        };
        let zero = Costs::ZERO;
        charged
            .iter()
            .enumerate()
            .map(|(i, c)| c.since(self.excluded.funcs.get(i).unwrap_or(&zero)))
            .collect()
    }

    /// What was counted per node and function, and in total.
    fn counted_snapshot(&self, now: &Now) -> (Snapshot, Costs) {
        let charged = match &self.stopped_at {
            Some((then, _)) => then.clone(),
            None => now.snapshot(),
        };
        (charged.minus(&self.excluded), self.counted(now))
    }

    /// Adds what was counted since the last marker to the open stretch.
    fn close(&mut self, now: &Now) {
        let counted = self.counted(now);
        self.open += counted.since(&self.mark);
        self.mark = counted;
        let now_funcs = self.counted_funcs(now);
        grow(&mut self.open_funcs, now_funcs.len(), Costs::ZERO);
        let zero = Costs::ZERO;
        for (i, (o, c)) in self.open_funcs.iter_mut().zip(&now_funcs).enumerate() {
            *o += c.since(self.mark_funcs.get(i).unwrap_or(&zero));
        }
        self.mark_funcs = now_funcs;
    }

    /// The open stretch belongs to `phase`.
    fn assign_open(&mut self, phase: usize) {
        let open = std::mem::replace(&mut self.open, Costs::ZERO);
        let funcs = std::mem::take(&mut self.open_funcs);
        self.phases[phase].1 += open;
        add_all(&mut self.phase_funcs[phase], &funcs);
        if self.at_dump.is_some() {
            self.since_dump.push((phase, open, funcs));
        }
    }

    fn phase_index(&mut self, name: &str) -> usize {
        match self.phases.iter().position(|p| p.0 == name) {
            Some(i) => i,
            None => {
                self.phases.push((name.to_string(), Costs::ZERO));
                self.phase_funcs.push(Vec::new());
                self.phases.len() - 1
            }
        }
    }

    /// Ends a stopped stretch: what it charged becomes excluded.
    fn resume(&mut self, now: &Now) {
        if let Some((then, then_total)) = self.stopped_at.take() {
            let snap = now.snapshot();
            self.excluded.add_since(&snap, &then);
            self.excluded_total += sum(&now.funcs).since(&then_total);
        }
    }

    /// Counting was `was`: stop or resume as the switches say now.
    fn switched(&mut self, was: bool, now: &Now) {
        match (was, self.counting()) {
            (true, false) => self.stopped_at = Some((now.snapshot(), sum(&now.funcs))),
            (false, true) => self.resume(now),
            _ => {}
        }
    }

    /// One marker, with the counters as charged so far. A callgrind
    /// request other than `StartInstrumentation` applies before the costs
    /// `shift` names (those of the block that ended with it).
    pub fn on_marker(
        &mut self,
        m: Marker<'_>,
        cct: &Cct,
        funcs: &[Costs],
        shift: Option<&BlockShift>,
    ) {
        let (op, shift) = match m {
            Marker::Start => (Op::Instrument(true), None),
            Marker::Stop => (Op::Instrument(false), None),
            Marker::Zero => (Op::Zero, None),
            Marker::Phase(name) => (Op::Phase(name), None),
            Marker::Callgrind(r) => match r {
                CallgrindRequest::StartInstrumentation => (Op::Instrument(true), None),
                CallgrindRequest::StopInstrumentation => (Op::Instrument(false), shift),
                CallgrindRequest::ToggleCollect => (Op::ToggleCollect, shift),
                CallgrindRequest::ZeroStats => (Op::Zero, shift),
                CallgrindRequest::DumpStats => (Op::Dump(None), shift),
                CallgrindRequest::DumpStatsAt(name) => (Op::Dump(Some(name)), shift),
            },
        };
        let now = Now::new(cct, funcs, shift);
        self.close(&now);
        match op {
            Op::Instrument(on) => {
                let was = self.counting();
                self.instrumented = on;
                self.switched(was, &now);
            }
            Op::ToggleCollect => {
                let was = self.counting();
                self.collecting = !self.collecting;
                self.switched(was, &now);
            }
            Op::Zero => self.zero(&now),
            Op::Phase(name) => {
                self.assign_open(self.current);
                self.current = self.phase_index(name);
            }
            Op::Dump(name) => {
                self.dumps += 1;
                let name = match name {
                    Some(n) => n.to_string(),
                    None => format!("part-{}", self.dumps),
                };
                let phase = self.phase_index(&name);
                self.assign_open(phase);
                self.at_dump = Some(self.counted_snapshot(&now));
                self.since_dump.clear();
            }
        }
    }

    /// Discards what was counted since the last dump (everything before
    /// the first).
    fn zero(&mut self, now: &Now) {
        let snap = now.snapshot();
        let total = sum(&now.funcs);
        if self.stopped_at.is_some() {
            self.stopped_at = Some((snap.clone(), total));
        }
        match &self.at_dump {
            None => {
                self.excluded = snap;
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
            Some((counted, counted_total)) => {
                self.excluded = snap.minus(counted);
                self.excluded_total = total.since(counted_total);
                self.mark = *counted_total;
                self.mark_funcs = counted.funcs.clone();
                for (i, c, funcs) in self.since_dump.drain(..) {
                    self.phases[i].1 = self.phases[i].1.since(&c);
                    let zero = Costs::ZERO;
                    for (k, p) in self.phase_funcs[i].iter_mut().enumerate() {
                        *p = p.since(funcs.get(k).unwrap_or(&zero));
                    }
                }
            }
        }
        self.open = Costs::ZERO;
        self.open_funcs.clear();
    }

    /// At the end of the run: closes the last phase and a stop still in
    /// force, subtracts every excluded cost from the tree and the function
    /// counters, and returns the phases with their totals and function costs.
    pub fn finish(mut self, cct: &mut Cct, funcs: &mut [Costs]) -> Vec<PhaseCosts> {
        {
            let now = Now::new(cct, funcs, None);
            self.close(&now);
            self.assign_open(self.current);
            self.resume(&now);
        }
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

/// When the simulated caches are emptied: at each callgrind request that
/// switches instrumentation on or off, as callgrind empties its caches at
/// each switch (its `set_instrument_state`), so that the costs after a
/// `CALLGRIND_START_INSTRUMENTATION` start from cold caches as callgrind's
/// do. A request that does not change the switch (a start while on)
/// empties nothing, as in callgrind. `PATHVM_START`/`PATHVM_STOP` move the
/// same switch but leave the caches as they are (warm: they keep running
/// while stopped). The VM's thread and the recorder each keep one, fed the
/// same markers, for the caches each may simulate.
#[derive(Clone, Copy, Debug)]
pub struct CacheResets {
    instrumented: bool,
}

impl CacheResets {
    pub fn new(instrumented: bool) -> CacheResets {
        CacheResets { instrumented }
    }

    /// Whether the caches are emptied at marker `m`.
    pub fn on_marker(&mut self, m: Marker<'_>) -> bool {
        let (on, callgrind) = match m {
            Marker::Start => (true, false),
            Marker::Stop => (false, false),
            Marker::Callgrind(CallgrindRequest::StartInstrumentation) => (true, true),
            Marker::Callgrind(CallgrindRequest::StopInstrumentation) => (false, true),
            _ => return false,
        };
        let switched = self.instrumented != on;
        self.instrumented = on;
        switched && callgrind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callgrind_switches_empty_the_caches() {
        let cg = Marker::Callgrind;
        let mut r = CacheResets::new(false);
        // A first start switches on; a second does nothing.
        assert!(r.on_marker(cg(CallgrindRequest::StartInstrumentation)));
        assert!(!r.on_marker(cg(CallgrindRequest::StartInstrumentation)));
        assert!(!r.on_marker(Marker::Phase("p")));
        assert!(r.on_marker(cg(CallgrindRequest::StopInstrumentation)));
        // pathvm's own markers switch without emptying.
        assert!(!r.on_marker(Marker::Start));
        assert!(!r.on_marker(cg(CallgrindRequest::StartInstrumentation)));
        assert!(!r.on_marker(Marker::Stop));
        assert!(r.on_marker(cg(CallgrindRequest::StartInstrumentation)));
    }
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
        mk.on_marker(Marker::Phase("work"), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 100); // work: 100
        mk.on_marker(Marker::Stop, &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 1000); // not counted
        mk.on_marker(Marker::Stop, &cct, &funcs, None); // no effect
        charge(&mut cct, &mut funcs, 2, 1000); // not counted
        mk.on_marker(Marker::Start, &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 2, 7); // work: 7
        mk.on_marker(Marker::Phase("main"), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 0, 3); // main again: 3
        mk.on_marker(Marker::Stop, &cct, &funcs, None);
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
        mk.on_marker(Marker::Phase("a"), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 20);
        mk.on_marker(Marker::Stop, &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 30); // stopped
        mk.on_marker(Marker::Zero, &cct, &funcs, None); // stays stopped
        charge(&mut cct, &mut funcs, 1, 40); // stopped
        mk.on_marker(Marker::Start, &cct, &funcs, None);
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

    fn cg(r: CallgrindRequest<'_>) -> Marker<'_> {
        Marker::Callgrind(r)
    }

    fn instructions_of(phases: &[PhaseCosts]) -> Vec<(&str, u64)> {
        phases
            .iter()
            .map(|p| (p.0.as_str(), p.1[Metric::Instructions]))
            .collect()
    }

    /// callgrind's requests: instrumentation off at the start, collection
    /// toggled, dumps naming what came before them, a zero that keeps the
    /// dumps before it.
    #[test]
    fn callgrind_requests() {
        let mut cct = Cct::new(1);
        let mut funcs = Vec::new();
        let mut mk = Markers::new(false, true);
        charge(&mut cct, &mut funcs, 0, 10); // not instrumented
        mk.on_marker(
            cg(CallgrindRequest::StartInstrumentation),
            &cct,
            &funcs,
            None,
        );
        charge(&mut cct, &mut funcs, 1, 100);
        mk.on_marker(
            cg(CallgrindRequest::DumpStatsAt("first")),
            &cct,
            &funcs,
            None,
        );
        charge(&mut cct, &mut funcs, 1, 200);
        mk.on_marker(cg(CallgrindRequest::ToggleCollect), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 5000); // not collected
        mk.on_marker(cg(CallgrindRequest::ToggleCollect), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 1, 300);
        mk.on_marker(
            cg(CallgrindRequest::DumpStatsAt("second")),
            &cct,
            &funcs,
            None,
        );
        charge(&mut cct, &mut funcs, 0, 7);
        mk.on_marker(cg(CallgrindRequest::ZeroStats), &cct, &funcs, None); // drops the 7
        charge(&mut cct, &mut funcs, 1, 700);
        mk.on_marker(
            cg(CallgrindRequest::StopInstrumentation),
            &cct,
            &funcs,
            None,
        );
        charge(&mut cct, &mut funcs, 1, 1100); // not instrumented
        mk.on_marker(
            cg(CallgrindRequest::StartInstrumentation),
            &cct,
            &funcs,
            None,
        );
        charge(&mut cct, &mut funcs, 1, 400);
        mk.on_marker(cg(CallgrindRequest::DumpStats), &cct, &funcs, None);
        charge(&mut cct, &mut funcs, 0, 9);
        let phases = mk.finish(&mut cct, &mut funcs);
        check_functions_add_up(&phases, &funcs);
        assert_eq!(
            instructions_of(&phases),
            [
                ("main", 9),
                ("first", 100),
                ("second", 500),
                ("part-3", 1100)
            ]
        );
        assert_eq!(cct.self_metrics(NodeId(0))[0], 9 + 100 + 500 + 1100);
    }

    /// A request applies from the start of its block: the block's costs
    /// (`BlockShift`) come after it, except for a start of instrumentation.
    #[test]
    fn requests_apply_before_their_block() {
        let mut cct = Cct::new(1);
        let mut funcs = Vec::new();
        let shift = |n: u64| BlockShift {
            node: NodeId(0),
            node_costs: vec![n],
            func: Some(FuncId(0)),
            func_costs: counts(n),
        };
        let mut mk = Markers::new(false, true);
        charge(&mut cct, &mut funcs, 0, 10); // the start's block: not counted
        mk.on_marker(
            cg(CallgrindRequest::StartInstrumentation),
            &cct,
            &funcs,
            Some(&shift(4)),
        );
        charge(&mut cct, &mut funcs, 0, 100);
        charge(&mut cct, &mut funcs, 0, 4); // the dump's block: after it
        mk.on_marker(
            cg(CallgrindRequest::DumpStatsAt("a")),
            &cct,
            &funcs,
            Some(&shift(4)),
        );
        charge(&mut cct, &mut funcs, 0, 50);
        charge(&mut cct, &mut funcs, 0, 3); // the zero's block: kept
        mk.on_marker(
            cg(CallgrindRequest::ZeroStats),
            &cct,
            &funcs,
            Some(&shift(3)),
        );
        charge(&mut cct, &mut funcs, 0, 20);
        charge(&mut cct, &mut funcs, 0, 6); // the stop's block: not counted
        mk.on_marker(
            cg(CallgrindRequest::StopInstrumentation),
            &cct,
            &funcs,
            Some(&shift(6)),
        );
        let phases = mk.finish(&mut cct, &mut funcs);
        check_functions_add_up(&phases, &funcs);
        // The dump's block and the 50 after it were zeroed; the zero's own
        // block counts.
        assert_eq!(instructions_of(&phases), [("main", 3 + 20), ("a", 100)]);
        assert_eq!(cct.self_metrics(NodeId(0))[0], 123);
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
