//! `pathvm run`: run the guest under the VM with the analyses attached, and
//! turn what they measured into a [`Profile`].

use std::time::{Duration, Instant};

use cct::{CallTracker, FuncId, FunctionIndex, TrackerConfig};
use events::{BlockEvent, BlockFacts, BlockId, ObjectMapped, Observer, Tid};
use reports::{ContextTable, FunctionRow, Meta, ObjectInfo, Profile};
use rustc_hash::FxHashMap;
use vm::{RunOutcome, StopReason, VmConfig, VmError};

use crate::functions::FunctionTable;

/// Everything `run` needs besides the VM's own configuration.
pub struct RecordOptions {
    pub vm: VmConfig,
    pub tracker: TrackerConfig,
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

/// The observer of a run: the calling-context tracker, plus where the
/// instructions of PLT stubs go.
///
/// A PLT stub only forwards a call, so its instructions are charged to the
/// function that called through it (as callgrind's default `--skip-plt=yes`
/// does): the last function executed before the stub that is not a stub.
struct Recorder {
    tracker: CallTracker<FunctionTable>,
    /// Per block: `Some(func)` for ordinary code, `None` for PLT stubs.
    block_func: Vec<Option<Option<FuncId>>>,
    last_func: Option<FuncId>,
    plt_self: FxHashMap<FuncId, u64>,
}

impl Observer for Recorder {
    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.tracker.block_decoded(id, facts);
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        self.tracker.block(ev, facts);
        let i = ev.id.index();
        if i >= self.block_func.len() {
            self.block_func.resize(i + 1, None);
        }
        let f = *self.block_func[i].get_or_insert_with(|| {
            let index = self.tracker.index();
            if index.is_plt(facts.start) {
                None
            } else {
                Some(
                    index
                        .resolve(facts.start)
                        .map(|f| f.0)
                        .unwrap_or_else(|| index.unnamed(facts.start)),
                )
            }
        });
        match f {
            Some(f) => self.last_func = Some(f),
            None => {
                if let Some(caller) = self.last_func {
                    *self.plt_self.entry(caller).or_default() += facts.insns.len() as u64;
                }
            }
        }
    }

    fn rep_iteration(&mut self, id: BlockId) {
        self.tracker.rep_iteration(id);
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.tracker.thread_switch(tid);
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.tracker.object_mapped(obj);
        self.block_func.clear();
    }
}

/// Run the guest and build its profile.
pub fn record(opts: &RecordOptions) -> Result<Recording, VmError> {
    let start = Instant::now();
    let mut rec = Recorder {
        tracker: CallTracker::new(FunctionTable::new(), opts.tracker),
        block_func: Vec::new(),
        last_func: None,
        plt_self: FxHashMap::default(),
    };
    let outcome = vm::run(&opts.vm, &mut rec)?;
    let wall = start.elapsed();
    rec.tracker.finish();
    let plt_self = rec.plt_self;
    let parts = rec.tracker.into_parts();
    let table = parts.index;

    let metrics = vec!["instructions".to_string()];
    let nm = metrics.len();
    let profile_functions = function_rows(
        &table,
        &outcome,
        &parts.cct,
        &parts.synthetic_entries,
        &plt_self,
        nm,
    );
    let (rows, contexts) = profile_functions;

    let crash_site = match outcome.stop {
        StopReason::Signaled { pc, .. } => Some(describe_address(&table, pc)),
        _ => None,
    };
    let exit_status = exit_status_of(&outcome.stop);
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
            config: vec![("seed".into(), opts.vm.seed.to_string())],
            objects: outcome
                .objects
                .iter()
                .map(|o| object_info(&o.path))
                .collect(),
            stop: describe_stop(&outcome.stop),
            exit_status,
        },
        totals: vec![outcome.instructions],
        metrics,
        functions: rows,
        contexts,
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

/// Function rows (self cost by instruction address, as callgrind counts it;
/// calls and inclusive cost from the calling context tree) and the context table.
fn function_rows(
    table: &FunctionTable,
    outcome: &RunOutcome,
    cct: &cct::Cct,
    synthetic_entries: &[u64],
    plt_self: &FxHashMap<FuncId, u64>,
    nm: usize,
) -> (Vec<FunctionRow>, ContextTable) {
    // Self cost: each executed instruction to the function that holds it,
    // and PLT stubs to the functions that called through them.
    let mut self_cost: FxHashMap<FuncId, u64> = plt_self.clone();
    for (facts, &count) in outcome.blocks.iter().zip(&outcome.block_counts) {
        if count == 0 || table.is_plt(facts.start) {
            continue;
        }
        let func_of = |a: u64| {
            table
                .resolve(a)
                .map(|f| f.0)
                .unwrap_or_else(|| table.unnamed(facts.start))
        };
        let first = func_of(facts.start);
        let last = func_of(facts.last_insn_addr());
        if first == last {
            *self_cost.entry(first).or_default() += count * facts.insns.len() as u64;
        } else {
            for i in 0..facts.insns.len() {
                *self_cost.entry(func_of(facts.insn_addr(i))).or_default() += count;
            }
        }
    }
    // Map the tree's function ids (synthetic ones included) to table ids.
    let map_func = |f: FuncId| -> FuncId {
        if f.is_synthetic() {
            let entry = synthetic_entries[(f.0 - FuncId::FIRST_SYNTHETIC.0) as usize];
            table.unnamed(entry)
        } else {
            f
        }
    };
    let n = cct.node_count();
    let inclusive = cct.inclusive();
    let mut node_func = Vec::with_capacity(n);
    let mut calls: FxHashMap<FuncId, u64> = FxHashMap::default();
    let mut incl: FxHashMap<FuncId, u64> = FxHashMap::default();
    for node in cct.nodes() {
        let Some(parent) = cct.parent(node) else {
            node_func.push(None);
            continue;
        };
        let _ = parent;
        let f = map_func(cct.function(node));
        node_func.push(Some(f));
        *calls.entry(f).or_default() += cct.calls(node);
        // Count a function's inclusive cost once under recursion: skip nodes
        // with an ancestor of the same function.
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
            *incl.entry(f).or_default() += inclusive[node.index() * nm];
        }
    }

    let functions = table.functions();
    let mut used: Vec<FuncId> = (0..functions.len() as u32)
        .map(FuncId)
        .filter(|f| self_cost.contains_key(f) || calls.contains_key(f) || incl.contains_key(f))
        .collect();
    used.sort_by_key(|f| f.0);
    let mut row_of: FxHashMap<FuncId, u32> = FxHashMap::default();
    let mut rows = Vec::with_capacity(used.len());
    for f in used {
        let func = &functions[f.0 as usize];
        let line = table.symbolizer.line(func.entry);
        row_of.insert(f, rows.len() as u32);
        let s = self_cost.get(&f).copied().unwrap_or(0);
        rows.push(FunctionRow {
            name: func.name.clone(),
            object: func.object.clone(),
            file: line.as_ref().map(|l| l.0.to_string()),
            line: line.map(|l| l.1),
            calls: calls.get(&f).copied().unwrap_or(0),
            self_cost: vec![s],
            inclusive: vec![incl.get(&f).copied().unwrap_or(0).max(s)],
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
        ctx.self_cost.extend_from_slice(cct.self_metrics(node));
    }
    (rows, ctx)
}
