//! The recorder's rules on hand-made event sequences, with exact expected
//! values: charging, `--toggle-collect`, alloc-bytes, markers and phases,
//! `--focus`; on one thread and through the pipe (two threads).
//!
//! The functions are those of a small object assembled with gcc (symbols
//! only: no instruction of it runs). Blocks are made of 4-byte
//! instructions, so a block at `s` with `n` instructions has its last
//! instruction at `s + 4(n-1)` and ends at `s + 4n`; a `call` lowers the
//! stack pointer by 8 for the next block and a `ret` raises it by 8, as the
//! VM would report.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use events::{
    Addr, BlockEvent, BlockFacts, BlockId, InsnFacts, Marker, ObjectMapped, Observer, Terminator,
};
use recorder::{Driver, Options, RunFacts, Session};
use reports::Profile;

/// Functions of the object, each 256 bytes.
const FUNCS: &[&str] = &["main", "work", "inner", "other", "malloc"];

/// The object and each function's start, or `None` (with the reason
/// printed) when gcc is missing.
fn object() -> Option<&'static (PathBuf, Vec<Addr>)> {
    static OBJ: OnceLock<Option<(PathBuf, Vec<Addr>)>> = OnceLock::new();
    OBJ.get_or_init(|| {
        if Command::new("gcc").arg("--version").output().is_err() {
            eprintln!("skipped: gcc not found (needed to make the symbols of the test object)");
            return None;
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("recorder-rules");
        std::fs::create_dir_all(&dir).unwrap();
        let mut asm = String::from(".text\n");
        for f in FUNCS {
            asm += &format!(
                ".globl {f}\n.type {f},@function\n{f}:\n.skip 256, 0x90\n.size {f}, 256\n"
            );
        }
        let src = dir.join("funcs.S");
        std::fs::write(&src, asm).unwrap();
        let exe = dir.join("funcs");
        let out = Command::new("gcc")
            .args(["-nostdlib", "-static", "-no-pie", "-Wl,-e,main", "-o"])
            .arg(&exe)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "gcc: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let syms = loader::symbols::ObjectSymbols::load(&exe).unwrap();
        let starts = FUNCS
            .iter()
            .map(|name| {
                syms.functions()
                    .find(|s| &*s.raw_name == *name)
                    .map(|s| s.start)
                    .unwrap()
            })
            .collect();
        Some((exe, starts))
    })
    .as_ref()
}

fn addr(name: &str) -> Addr {
    let (_, starts) = object().unwrap();
    starts[FUNCS.iter().position(|f| *f == name).unwrap()]
}

/// One event of a hand-made run.
enum Ev {
    /// A block: start, instructions, terminator, stack pointer, and the
    /// argument registers when its entry is watched.
    Block(Addr, u32, Terminator, Addr, [u64; 3]),
    Marker(&'static str),
    /// The VM runs another guest thread from here.
    Thread(events::Tid),
}

/// A hand-made run: the object mapped, then the events in order. Blocks
/// get ids by (start, instructions) in order of first sight, are decoded
/// once, and asked `watch_entry` once, as the VM does.
struct Run(Vec<Ev>);

impl Driver for Run {
    type Outcome = ();
    fn run<O: Observer>(&mut self, o: &mut O) {
        let (path, _) = object().unwrap();
        o.object_mapped(&ObjectMapped {
            path: path.display().to_string(),
            base: addr("main") & !0xfff,
            bias: 0,
        });
        let mut ids: Vec<(Addr, u32, bool)> = Vec::new();
        for ev in &self.0 {
            match *ev {
                Ev::Block(start, n, t, sp, args) => {
                    let f = facts(start, n, t);
                    let id = match ids.iter().position(|&(s, k, _)| s == start && k == n) {
                        Some(i) => i,
                        None => {
                            o.block_decoded(BlockId(ids.len() as u32), &f);
                            let watched = o.watch_entry(BlockId(ids.len() as u32), &f);
                            ids.push((start, n, watched));
                            ids.len() - 1
                        }
                    };
                    let id = BlockId(id as u32);
                    if ids[id.index()].2 {
                        o.entry_args(id, args);
                    }
                    o.block(BlockEvent { id, sp }, &f);
                }
                Ev::Thread(tid) => o.thread_switch(tid),
                Ev::Marker(name) => o.marker(match name {
                    "START" => Marker::Start,
                    "STOP" => Marker::Stop,
                    "ZERO" => Marker::Zero,
                    phase => Marker::Phase(phase),
                }),
            }
        }
    }
}

fn facts(start: Addr, n: u32, t: Terminator) -> BlockFacts {
    let insns = (0..n)
        .map(|i| InsnFacts {
            offset: 4 * i,
            len: 4,
            loads: 0,
            stores: 0,
            is_branch: i + 1 == n && t != Terminator::FallThrough,
        })
        .collect();
    BlockFacts::new(start, 4 * n, insns, t)
}

/// A run being written: blocks follow one another with the stack pointer
/// a call or a return leaves.
struct Guest {
    evs: Vec<Ev>,
    sp: Addr,
    /// The terminator of the last block, to move `sp` for the next.
    last: Option<Terminator>,
}

const S0: Addr = 0x7fff_0000;
const NONE: [u64; 3] = [0; 3];

impl Guest {
    fn new() -> Guest {
        Guest {
            evs: Vec::new(),
            sp: S0,
            last: None,
        }
    }
    fn step(&mut self, start: Addr, n: u32, t: Terminator, args: [u64; 3]) -> &mut Guest {
        match self.last {
            Some(Terminator::Call { .. }) => self.sp -= 8,
            Some(Terminator::Return) => self.sp += 8,
            _ => {}
        }
        self.evs.push(Ev::Block(start, n, t, self.sp, args));
        self.last = Some(t);
        self
    }
    /// A block of `n` instructions at `start` that calls `to`.
    fn call(&mut self, start: Addr, n: u32, to: Addr) -> &mut Guest {
        self.step(start, n, Terminator::Call { target: to }, NONE)
    }
    /// A block of `n` instructions at `start` that returns.
    fn ret(&mut self, start: Addr, n: u32) -> &mut Guest {
        self.step(start, n, Terminator::Return, NONE)
    }
    /// A block of `n` instructions at `start` that falls through.
    fn plain(&mut self, start: Addr, n: u32) -> &mut Guest {
        self.step(start, n, Terminator::FallThrough, NONE)
    }
    /// Thread `tid` runs from here, its next block at `sp`.
    fn thread(&mut self, tid: events::Tid, sp: Addr) -> &mut Guest {
        self.evs.push(Ev::Thread(tid));
        self.sp = sp;
        self.last = None;
        self
    }
    fn marker(&mut self, name: &'static str) -> &mut Guest {
        self.evs.push(Ev::Marker(name));
        self
    }
    fn take(&mut self) -> Run {
        Run(std::mem::take(&mut self.evs))
    }
}

/// Instructions only, with alloc-bytes (no simulation), on one thread or two.
fn opts(threaded: bool) -> Options {
    Options {
        machine: None,
        paths: false,
        threaded,
        ..Options::default()
    }
}

fn record(opts: &Options, run: &mut Run) -> Profile {
    let ((), finished) = Session::new(opts).unwrap().record(run);
    finished.build_profile(&RunFacts::default()).profile
}

/// `(self, inclusive, calls)` of a function's row, in the first metric.
fn row(p: &Profile, name: &str) -> (u64, u64, u64) {
    let r = p.functions.iter().find(|r| r.name == name).unwrap();
    (r.self_cost[0], r.inclusive[0], r.calls)
}

/// `(self, inclusive, calls)` in metric `m`.
fn row_in(p: &Profile, name: &str, m: &str) -> (u64, u64, u64) {
    let k = p.metrics.iter().position(|x| x == m).unwrap();
    let r = p.functions.iter().find(|r| r.name == name).unwrap();
    (r.self_cost[k], r.inclusive[k], r.calls)
}

/// main (3; a thread's first function counts one call) calls work; work runs 5 + 2 and calls inner (4 + 1) in
/// between; back in main 2, then main calls other (1 + 1) and ends (1).
fn nested() -> Run {
    let (m, w, i, o) = (addr("main"), addr("work"), addr("inner"), addr("other"));
    Guest::new()
        .call(m, 3, w)
        .call(w, 5, i)
        .plain(i, 4)
        .ret(i + 16, 1)
        .ret(w + 20, 2)
        .call(m + 12, 2, o)
        .plain(o, 1)
        .ret(o + 4, 1)
        .plain(m + 20, 1)
        .take()
}

#[test]
fn each_block_is_charged_once_to_its_function_and_context() {
    if object().is_none() {
        return;
    }
    for threaded in [false, true] {
        let p = record(&opts(threaded), &mut nested());
        assert_eq!(p.metrics, ["instructions", "alloc-bytes"]);
        assert_eq!(p.totals, [20, 0], "threaded: {threaded}");
        assert_eq!(row(&p, "main"), (6, 20, 1));
        assert_eq!(row(&p, "work"), (7, 12, 1));
        assert_eq!(row(&p, "inner"), (5, 5, 1));
        assert_eq!(row(&p, "other"), (2, 2, 1));
        // Root, main, main>work, main>work>inner, main>other.
        let c = &p.contexts;
        assert_eq!(c.parent.len(), 5);
        let self_of = |name: &str| -> Vec<u64> {
            let f = p.functions.iter().position(|r| r.name == name).unwrap() as u32;
            (0..c.parent.len())
                .filter(|&n| c.function[n] == f)
                .map(|n| c.self_cost[2 * n])
                .collect()
        };
        assert_eq!(self_of("work"), [7]);
        assert_eq!(self_of("inner"), [5]);
        assert_eq!(c.self_cost.iter().step_by(2).sum::<u64>(), 20);
    }
}

/// Under `--toggle-collect`, only what runs while a matching function is
/// on the stack counts: work and inner below it, not main or other; calls
/// are still recorded.
#[test]
fn toggle_collect_counts_only_below_a_matching_function() {
    if object().is_none() {
        return;
    }
    for threaded in [false, true] {
        let o = Options {
            toggle_collect: vec!["wor*".into()],
            ..opts(threaded)
        };
        let p = record(&o, &mut nested());
        assert_eq!(p.totals, [12, 0], "threaded: {threaded}");
        assert_eq!(row(&p, "main"), (0, 12, 1));
        assert_eq!(row(&p, "work"), (7, 12, 1));
        assert_eq!(row(&p, "inner"), (5, 5, 1));
        assert_eq!(row(&p, "other"), (0, 0, 1));
    }
}

/// `--toggle-collect` follows each thread's own frames: a thread switched
/// out inside a matching function counts again when it is back, and the
/// other thread, outside one meanwhile, does not count.
#[test]
fn toggle_collect_follows_each_threads_frames() {
    if object().is_none() {
        return;
    }
    let (m, w, o) = (addr("main"), addr("work"), addr("other"));
    let run = || {
        Guest::new()
            .thread(1, S0)
            .call(m, 3, w)
            .plain(w, 2)
            .thread(2, S0 - 0x10000)
            .call(m, 1, o)
            .plain(o, 4)
            .thread(1, S0 - 8)
            .ret(w + 8, 1)
            .plain(m + 12, 2)
            .take()
    };
    for threaded in [false, true] {
        let o = Options {
            toggle_collect: vec!["work".into()],
            ..opts(threaded)
        };
        let p = record(&o, &mut run());
        assert_eq!(p.totals, [3, 0], "threaded: {threaded}");
        assert_eq!(row(&p, "work"), (3, 3, 1));
        assert_eq!(row(&p, "main"), (0, 3, 2));
        assert_eq!(row(&p, "other"), (0, 0, 1));
    }
}

/// The size an allocator is asked for is charged to its caller's function
/// and context once per outermost allocator frame: not to the allocator,
/// and not again for a call from inside it.
#[test]
fn alloc_bytes_go_to_the_allocators_caller() {
    if object().is_none() {
        return;
    }
    let (m, w, a) = (addr("main"), addr("work"), addr("malloc"));
    let run = || {
        let mut g = Guest::new();
        g.call(m, 2, w)
            .call(w, 1, a)
            .step(a, 1, Terminator::FallThrough, [100, 0, 0])
            // malloc calling itself (a nested request): not counted.
            .call(a + 4, 2, a)
            .step(a, 1, Terminator::FallThrough, [7, 0, 0])
            .ret(a + 16, 1)
            .ret(a + 12, 1)
            .ret(w + 4, 1)
            .call(m + 8, 1, a)
            .step(a, 1, Terminator::FallThrough, [24, 0, 0])
            .ret(a + 16, 1)
            .plain(m + 12, 1);
        g.take()
    };
    for threaded in [false, true] {
        let p = record(&opts(threaded), &mut run());
        assert_eq!(p.totals, [14, 124], "threaded: {threaded}");
        assert_eq!(row_in(&p, "work", "alloc-bytes"), (100, 100, 1));
        assert_eq!(row_in(&p, "main", "alloc-bytes"), (24, 124, 1));
        assert_eq!(row_in(&p, "malloc", "alloc-bytes"), (0, 0, 3));
        assert_eq!(row_in(&p, "malloc", "instructions"), (8, 8, 3));
    }
}

/// Phases split the run at their markers; STOP excludes what runs until
/// START, ZERO discards what ran before it.
#[test]
fn markers_split_phases_and_stop_start_zero_exclude() {
    if object().is_none() {
        return;
    }
    let (m, w) = (addr("main"), addr("work"));
    let run = || {
        let mut g = Guest::new();
        g.plain(m, 5) // discarded by ZERO
            .marker("ZERO")
            .plain(m + 20, 3)
            .marker("load")
            .call(m + 32, 2, w)
            .ret(w, 4)
            .marker("STOP")
            .plain(m + 40, 6) // not counted
            .marker("START")
            .marker("save")
            .plain(m + 64, 1);
        g.take()
    };
    for threaded in [false, true] {
        let p = record(&opts(threaded), &mut run());
        assert_eq!(p.totals, [10, 0], "threaded: {threaded}");
        assert_eq!(row(&p, "main"), (6, 10, 1));
        assert_eq!(row(&p, "work"), (4, 4, 1));
        let phases: Vec<(&str, u64)> = p
            .phases
            .iter()
            .map(|ph| (ph.name.as_str(), ph.totals[0]))
            .collect();
        assert_eq!(phases, [("main", 3), ("load", 6), ("save", 1)]);
    }
}

/// `--focus` keeps the contexts on the call paths that reach a matching
/// function and everything below them; function rows stay whole-run.
#[test]
fn focus_keeps_the_call_paths_to_a_function() {
    if object().is_none() {
        return;
    }
    let o = Options {
        focus: vec!["inner".into()],
        ..opts(false)
    };
    let p = record(&o, &mut nested());
    assert_eq!(p.totals, [20, 0]);
    assert_eq!(row(&p, "other"), (2, 2, 1));
    let c = &p.contexts;
    let names: Vec<&str> = c
        .function
        .iter()
        .map(|&f| p.functions.get(f as usize).map_or("(root)", |r| &r.name))
        .collect();
    assert_eq!(names, ["(root)", "main", "work", "inner"]);
    assert_eq!(
        c.self_cost.iter().step_by(2).copied().collect::<Vec<_>>(),
        [0, 6, 7, 5]
    );
}

/// The weights `reports` ranks the default text metrics by are those of
/// the default cycle model.
#[test]
fn report_weights_are_the_cycle_model() {
    let model = events::CycleModel::default();
    for (name, weight) in reports::SIMULATED_WEIGHTS {
        let expected = match name {
            "l1d-miss" | "l1i-miss" => model.l1_miss,
            "ll-miss" => model.ll_miss,
            "branch-misses" | "indirect-misses" => model.mispredict,
            other => panic!("unexpected metric {other}"),
        };
        assert_eq!(weight, expected, "{name}");
    }
}
