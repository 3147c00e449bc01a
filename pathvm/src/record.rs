//! `pathvm run`: run the guest under the VM with the analyses attached, and
//! turn what they measured into a [`Profile`].

use std::time::{Duration, Instant};

use cachemodel::{Counts, MachineConfig, MachineSim, Metric};
use cct::{CallTracker, FuncId, FunctionIndex, NodeId, TrackerConfig};
use events::{BlockEvent, BlockFacts, BlockId, Marker, MemEvent, ObjectMapped, Observer, Tid};
use reports::{ContextTable, FunctionRow, Meta, ObjectInfo, Phase, Profile};
use rustc_hash::FxHashMap;
use vm::{StopReason, VmConfig, VmError};

use crate::functions::FunctionTable;
use crate::markers::Markers;

/// Everything `run` needs besides the VM's own configuration.
pub struct RecordOptions {
    pub vm: VmConfig,
    pub tracker: TrackerConfig,
    /// Cache and branch simulation; `None`: instructions only.
    pub machine: Option<MachineConfig>,
}

/// A finished run.
pub struct Recording {
    pub profile: Profile,
    pub stop: StopReason,
    pub instructions: u64,
    pub wall: Duration,
    /// One line saying where a fatal signal hit, when one did.
    pub crash_site: Option<String>,
}

/// Raw counter columns of the calling context tree, in [`Counts`] order
/// (column 0, instructions, is counted by the tracker itself).
const RAW_COLUMNS: usize = 11;

fn from_raw(v: &[u64]) -> Counts {
    let g = |i: usize| v.get(i).copied().unwrap_or(0);
    Counts {
        instructions: g(0),
        loads: g(1),
        stores: g(2),
        l1i_miss: g(3),
        l1d_read_miss: g(4),
        l1d_write_miss: g(5),
        ll_miss: g(6),
        branches: g(7),
        branch_misses: g(8),
        indirect: g(9),
        indirect_misses: g(10),
    }
}

/// Where a block's cost goes in the function view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockOwner {
    /// Every instruction in one function.
    One(FuncId),
    /// The block runs across a function boundary: its instructions' functions
    /// are `Recorder::splits[n]`, resolved once.
    Split(u32),
    /// A PLT stub: charged to the function that called through it (as
    /// callgrind's default `--skip-plt=yes` does), the last one before it.
    Plt,
}

/// The observer of a run: the calling-context tracker and, when asked for,
/// the simulated caches and branch predictor. Every cost an event produces is
/// charged once to a node of the tree and once to a function.
struct Recorder {
    tracker: CallTracker<FunctionTable>,
    sim: Option<MachineSim>,
    owners: Vec<Option<BlockOwner>>,
    /// Per-instruction functions of the blocks that cross a function boundary.
    splits: Vec<Box<[FuncId]>>,
    /// The function the running block is charged to.
    cur_func: Option<FuncId>,
    func_self: Vec<Counts>,
    /// Phases and counting (`include/pathvm.h`), applied after the run.
    markers: Markers,
}

impl Recorder {
    fn owner(&mut self, id: BlockId, facts: &BlockFacts) -> BlockOwner {
        let i = id.index();
        if i >= self.owners.len() {
            self.owners.resize(i + 1, None);
        }
        if let Some(o) = self.owners[i] {
            return o;
        }
        let index = self.tracker.index();
        let func_of = |a: u64| {
            index
                .resolve(a)
                .map(|f| f.0)
                .unwrap_or_else(|| index.unnamed(facts.start))
        };
        let o = if index.is_plt(facts.start) {
            BlockOwner::Plt
        } else if func_of(facts.start) == func_of(facts.last_insn_addr()) {
            BlockOwner::One(func_of(facts.start))
        } else {
            let funcs = (0..facts.insns.len())
                .map(|k| func_of(facts.insn_addr(k)))
                .collect();
            self.splits.push(funcs);
            BlockOwner::Split(self.splits.len() as u32 - 1)
        };
        self.owners[i] = Some(o);
        o
    }

    fn func_counts(&mut self, f: FuncId) -> &mut Counts {
        let i = f.0 as usize;
        if i >= self.func_self.len() {
            self.func_self.resize(i + 1, Counts::default());
        }
        &mut self.func_self[i]
    }

    /// Charge `c` (instructions excepted: the tracker counts those) to a node.
    #[inline]
    fn charge_node(&mut self, node: NodeId, c: &Counts) {
        let m = self.tracker.node_metrics_mut(node);
        let m: &mut [u64; RAW_COLUMNS] = match m.try_into() {
            Ok(m) => m,
            Err(_) => return,
        };
        m[1] += c.loads;
        m[2] += c.stores;
        m[3] += c.l1i_miss;
        m[4] += c.l1d_read_miss;
        m[5] += c.l1d_write_miss;
        m[6] += c.ll_miss;
        m[7] += c.branches;
        m[8] += c.branch_misses;
        m[9] += c.indirect;
        m[10] += c.indirect_misses;
    }

    /// Feed one event to the simulator and charge what it counted to the
    /// running block's node and function.
    #[inline]
    fn simulate_here(&mut self, event: impl FnOnce(&mut MachineSim)) {
        if let Some(sim) = &mut self.sim {
            let before = *sim.totals();
            event(sim);
            let d = sim.totals().since(&before);
            let node = self.tracker.current_node();
            self.charge_node(node, &d);
            self.charge_func(self.cur_func, &d);
        }
    }

    fn charge_func(&mut self, f: Option<FuncId>, c: &Counts) {
        if let Some(f) = f {
            *self.func_counts(f) += c;
        }
    }
}

impl Observer for Recorder {
    fn wants_memory(&self) -> bool {
        self.sim.as_ref().is_some_and(|s| s.wants_memory())
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.tracker.block_decoded(id, facts);
        if let Some(sim) = &mut self.sim {
            sim.block_decoded(id, facts);
        }
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        let prev_node = self.tracker.current_node();
        let prev_func = self.cur_func;
        self.tracker.block(ev, facts);
        let node = self.tracker.current_node();
        let owner = self.owner(ev.id, facts);
        let n = facts.insns.len() as u64;
        match owner {
            BlockOwner::One(f) => self.cur_func = Some(f),
            BlockOwner::Plt => {}
            BlockOwner::Split(k) => {
                let funcs = std::mem::take(&mut self.splits[k as usize]);
                for f in funcs.iter() {
                    self.func_counts(*f).instructions += 1;
                }
                self.cur_func = funcs.last().copied();
                self.splits[k as usize] = funcs;
            }
        }
        match &mut self.sim {
            Some(sim) => {
                let before = *sim.totals();
                sim.block(ev, facts);
                let (terminator, mut body) = sim.totals().since(&before).split_terminator();
                self.charge_node(prev_node, &terminator);
                self.charge_func(prev_func, &terminator);
                self.charge_node(node, &body);
                if matches!(owner, BlockOwner::Split(_)) {
                    body.instructions = 0; // counted per instruction above
                }
                self.charge_func(self.cur_func, &body);
            }
            None => {
                if !matches!(owner, BlockOwner::Split(_)) {
                    if let Some(f) = self.cur_func {
                        self.func_counts(f).instructions += n;
                    }
                }
            }
        }
    }

    fn rep_iteration(&mut self, id: BlockId) {
        self.tracker.rep_iteration(id);
        self.simulate_here(|sim| sim.rep_iteration(id));
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        self.simulate_here(|sim| sim.mem(ev));
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.tracker.thread_switch(tid);
        if let Some(sim) = &mut self.sim {
            sim.thread_switch(tid);
        }
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.tracker.object_mapped(obj);
        self.owners.clear();
        self.splits.clear();
    }

    fn marker(&mut self, m: Marker<'_>) {
        self.markers
            .on_marker(m, self.tracker.cct(), &self.func_self);
    }
}

/// Run the guest and build its profile.
pub fn record(opts: &RecordOptions) -> Result<Recording, VmError> {
    let start = Instant::now();
    let sim = match &opts.machine {
        Some(cfg) => Some(
            MachineSim::new(cfg.clone())
                .map_err(|e| VmError::Emulator(format!("machine model: {e}")))?,
        ),
        None => None,
    };
    let mut tracker_cfg = opts.tracker;
    tracker_cfg.n_metrics = if sim.is_some() { RAW_COLUMNS } else { 1 };
    let mut rec = Recorder {
        tracker: CallTracker::new(FunctionTable::new(), tracker_cfg),
        sim,
        owners: Vec::new(),
        splits: Vec::new(),
        cur_func: None,
        func_self: Vec::new(),
        markers: Markers::default(),
    };
    let outcome = vm::run(&opts.vm, &mut rec)?;
    let wall = start.elapsed();
    rec.tracker.finish();
    let mut func_self = rec.func_self;
    let mut parts = rec.tracker.into_parts();
    let phases = rec.markers.finish(&mut parts.cct, &mut func_self);
    let table = parts.index;

    // The metrics this run measured, in the order of `Metric::ALL`.
    let machine_cfg = opts.machine.clone();
    let metrics: Vec<Metric> = match &machine_cfg {
        Some(cfg) => Metric::ALL
            .into_iter()
            .filter(|m| cfg.measures(*m))
            .collect(),
        None => vec![Metric::Instructions],
    };
    let cycles = machine_cfg.as_ref().map(|c| c.cycles).unwrap_or_default();
    let values = |c: &Counts| -> Vec<u64> { metrics.iter().map(|m| c.get(*m, &cycles)).collect() };

    let (rows, contexts, row_of) = function_rows(
        &table,
        &parts.cct,
        &parts.synthetic_entries,
        &func_self,
        &values,
    );
    let mut total = Counts::default();
    for c in &func_self {
        total += c;
    }

    let crash_site = match outcome.stop {
        StopReason::Signaled { pc, .. } => Some(describe_address(&table, pc)),
        _ => None,
    };
    let exit_status = exit_status_of(&outcome.stop);
    let mut config = vec![("seed".to_string(), opts.vm.seed.to_string())];
    if let Some(cfg) = &machine_cfg {
        if let Some(h) = &cfg.cache {
            config.push(("cache.l1d".into(), h.l1d.to_string()));
            config.push(("cache.l1i".into(), h.l1i.to_string()));
            config.push(("cache.ll".into(), h.ll.to_string()));
        }
        if let Some(b) = &cfg.branch {
            config.push(("branch".into(), format!("{b:?}")));
        }
        config.push(("cycles".into(), format!("{:?}", cfg.cycles)));
    }
    config.sort();
    let profile = Profile {
        meta: Meta {
            pathvm_version: env!("CARGO_PKG_VERSION").to_string(),
            command: opts
                .vm
                .argv
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            env: opts
                .vm
                .env
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            cpu_model: vm::CPU_MODEL.to_string(),
            config,
            objects: outcome
                .objects
                .iter()
                .map(|o| object_info(&o.path))
                .collect(),
            stop: describe_stop(&outcome.stop),
            exit_status,
        },
        totals: values(&total),
        metrics: metrics.iter().map(|m| m.name().to_string()).collect(),
        functions: rows,
        contexts,
        phases: phases
            .iter()
            .map(|(name, c, funcs)| Phase {
                name: name.clone(),
                totals: values(c),
                functions: crate::markers::phase_rows(funcs, &row_of, &values),
            })
            .collect(),
    };
    Ok(Recording {
        profile,
        stop: outcome.stop.clone(),
        instructions: outcome.instructions,
        wall,
        crash_site,
    })
}

/// The exit status `pathvm run` gives for a stop.
pub fn exit_status_of(stop: &StopReason) -> i32 {
    match stop {
        StopReason::Exited(c) => *c,
        StopReason::Signaled { signal, .. } => 128 + signal,
        StopReason::InstructionLimit => 0,
        StopReason::Interrupted { signal } => 128 + signal,
    }
}

pub fn signal_name(sig: i32) -> String {
    let names = [
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGTRAP, "SIGTRAP"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGPIPE, "SIGPIPE"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGTERM, "SIGTERM"),
    ];
    names
        .iter()
        .find(|n| n.0 == sig)
        .map(|n| n.1.to_string())
        .unwrap_or_else(|| format!("signal {sig}"))
}

fn describe_stop(stop: &StopReason) -> String {
    match stop {
        StopReason::Exited(c) => format!("exited with status {c}"),
        StopReason::Signaled {
            signal,
            pc,
            fault_addr,
        } => {
            let mut s = format!("killed by {} at pc {pc:#x}", signal_name(*signal));
            if let Some(a) = fault_addr {
                s.push_str(&format!(", fault address {a:#x}"));
            }
            s
        }
        StopReason::InstructionLimit => "stopped at the instruction limit".into(),
        StopReason::Interrupted { signal } => {
            format!("stopped by {} to pathvm", signal_name(*signal))
        }
    }
}

/// `function (file:line)` or `function` or the address.
pub fn describe_address(table: &FunctionTable, addr: u64) -> String {
    let name = table.symbolizer.lookup(addr).map(|s| s.name.to_string());
    let line = table.symbolizer.line(addr).map(|(f, l)| format!("{f}:{l}"));
    match (name, line) {
        (Some(n), Some(l)) => format!("{n} ({l})"),
        (Some(n), None) => n,
        (None, _) => format!("{addr:#x}"),
    }
}

fn object_info(path: &str) -> ObjectInfo {
    let bytes = std::fs::read(path).unwrap_or_default();
    let id = loader::symbols::ObjectSymbols::parse(path, bytes.clone())
        .ok()
        .and_then(|s| {
            s.build_id()
                .map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        })
        .unwrap_or_else(|| format!("fnv:{:016x}", fnv1a(&bytes)));
    ObjectInfo {
        path: path.to_string(),
        size: bytes.len() as u64,
        id,
    }
}

fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ x as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Function rows (self cost as charged during the run; calls and inclusive
/// cost from the calling context tree) and the context table.
fn function_rows(
    table: &FunctionTable,
    cct: &cct::Cct,
    synthetic_entries: &[u64],
    func_self: &[Counts],
    values: &dyn Fn(&Counts) -> Vec<u64>,
) -> (Vec<FunctionRow>, ContextTable, FxHashMap<FuncId, u32>) {
    // Map the tree's function ids (synthetic ones included) to table ids.
    let map_func = |f: FuncId| -> FuncId {
        if f.is_synthetic() {
            let entry = synthetic_entries[(f.0 - FuncId::FIRST_SYNTHETIC.0) as usize];
            table.unnamed(entry)
        } else {
            f
        }
    };
    let n = cct.n_metrics();
    let inclusive = cct.inclusive();
    let mut node_func = Vec::with_capacity(cct.node_count());
    let mut calls: FxHashMap<FuncId, u64> = FxHashMap::default();
    let mut incl: FxHashMap<FuncId, Counts> = FxHashMap::default();
    for node in cct.nodes() {
        if cct.parent(node).is_none() {
            node_func.push(None);
            continue;
        }
        let f = map_func(cct.function(node));
        node_func.push(Some(f));
        *calls.entry(f).or_default() += cct.calls(node);
        // A function's inclusive cost counts each activation once under
        // recursion: skip nodes with an ancestor of the same function.
        let mut a = cct.parent(node);
        let mut nested = false;
        while let Some(p) = a {
            if node_func[p.index()] == Some(f) {
                nested = true;
                break;
            }
            a = cct.parent(p);
        }
        if !nested {
            *incl.entry(f).or_default() +=
                &from_raw(&inclusive[node.index() * n..(node.index() + 1) * n]);
        }
    }

    let functions = table.functions();
    let zero = Counts::default();
    let mut row_of: FxHashMap<FuncId, u32> = FxHashMap::default();
    let mut rows = Vec::new();
    for i in 0..functions.len() {
        let f = FuncId(i as u32);
        let own = func_self.get(i).unwrap_or(&zero);
        if own.is_zero() && !calls.contains_key(&f) && !incl.contains_key(&f) {
            continue;
        }
        let func = &functions[i];
        let line = table.symbolizer.line(func.entry);
        row_of.insert(f, rows.len() as u32);
        // Code reached without a call (a thread's first function before the
        // tree knows it, a cold part) is at least its own cost.
        let mut inc = incl.get(&f).copied().unwrap_or_default();
        if inc.instructions < own.instructions {
            inc = *own;
        }
        rows.push(FunctionRow {
            name: func.name.clone(),
            object: func.object.clone(),
            file: line.as_ref().map(|l| l.0.to_string()),
            line: line.map(|l| l.1),
            calls: calls.get(&f).copied().unwrap_or(0),
            self_cost: values(own),
            inclusive: values(&inc),
        });
    }

    let mut ctx = ContextTable::default();
    for node in cct.nodes() {
        ctx.parent.push(cct.parent(node).map(|p| p.0).unwrap_or(0));
        ctx.function.push(
            node_func[node.index()]
                .and_then(|f| row_of.get(&f).copied())
                .unwrap_or(u32::MAX),
        );
        ctx.call_site.push(cct.call_site(node));
        ctx.flags.push(cct.flags(node).0);
        ctx.calls.push(cct.calls(node));
        ctx.self_cost
            .extend(values(&from_raw(cct.self_metrics(node))));
    }
    (rows, ctx, row_of)
}
