//! The tracker on hand-made event sequences.
//!
//! Blocks are made of 4-byte instructions, so a block at `s` with `n`
//! instructions has its last instruction (the call site) at `s + 4(n-1)` and
//! returns to `s + 4n`. [`Guest`] feeds blocks with a simulated stack pointer:
//! a `call` lowers it by 8 for the next block, a `ret` raises it by 8, and a
//! test sets it by hand where a program would move it otherwise.

use super::*;
use events::InsnFacts;

const S0: Addr = 0x7fff_0000;

/// Functions of the test programs: (name, start, end).
const FUNCS: &[(&str, Addr, Addr)] = &[
    ("_start", 0x1000, 0x1100),
    ("main", 0x2000, 0x2400),
    ("a", 0x3000, 0x3100),
    ("b", 0x4000, 0x4100),
    ("c", 0x5000, 0x5100),
    ("d", 0x6000, 0x6100),
    ("f", 0x7000, 0x7400),
    ("g", 0x7800, 0x7900),
    ("_dl_runtime_resolve", 0xa000, 0xa100),
    ("_dl_fixup", 0xb000, 0xb100),
    ("puts", 0xc000, 0xc100),
    ("handler", 0xd000, 0xd100),
    ("__restore_rt", 0xd800, 0xd810),
    ("longjmp", 0xe000, 0xe100),
    ("clone", 0x1800, 0x1900),
];
const PLT: (Addr, Addr) = (0x9000, 0x9100);
const UNMAPPED_LATE: (&str, Addr, Addr) = ("late", 0xf800, 0xf900);

/// An index over [`FUNCS`]; the PLT has no symbols, as in real binaries.
struct Index {
    funcs: Vec<(&'static str, Addr, Addr)>,
    mapped_calls: u32,
}

impl Index {
    fn new() -> Index {
        Index {
            funcs: FUNCS.to_vec(),
            mapped_calls: 0,
        }
    }
}

impl FunctionIndex for Index {
    fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        self.funcs
            .iter()
            .position(|&(_, s, e)| s <= addr && addr < e)
            .map(|i| (FuncId(i as u32), self.funcs[i].1))
    }
    fn is_plt(&self, addr: Addr) -> bool {
        PLT.0 <= addr && addr < PLT.1
    }
    fn is_lazy_resolver(&self, addr: Addr) -> bool {
        self.function_at(addr)
            .is_some_and(|(f, _)| self.funcs[f.index()].0 == "_dl_runtime_resolve")
    }
    fn object_mapped(&mut self, _obj: &ObjectMapped) {
        self.mapped_calls += 1;
        self.funcs.push(UNMAPPED_LATE);
    }
}

trait FuncIndexExt {
    fn index(self) -> usize;
}
impl FuncIndexExt for FuncId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A block of `n` 4-byte instructions at `start`.
fn b(start: Addr, n: u32, terminator: Terminator) -> BlockFacts {
    let insns = (0..n)
        .map(|i| InsnFacts {
            offset: 4 * i,
            len: 4,
            loads: 0,
            stores: 0,
            is_branch: i + 1 == n && terminator != Terminator::FallThrough,
        })
        .collect();
    BlockFacts::new(start, 4 * n, insns, terminator)
}

fn call(target: Addr) -> Terminator {
    Terminator::Call { target }
}

fn jump(target: Addr) -> Terminator {
    Terminator::Jump { target }
}

fn cond(target: Addr) -> Terminator {
    Terminator::CondBranch { target }
}

const RET: Terminator = Terminator::Return;

/// Feeds blocks to a tracker the way the VM would.
struct Guest {
    t: CallTracker<Index>,
    ids: FxHashMap<(Addr, u32), BlockId>,
    sp: Addr,
    total: u64,
    /// The frames rebuilt from the tracker's frame events alone, per
    /// thread: after every block they must equal the shadow stack.
    replica: Vec<Frame>,
    replica_tid: Tid,
    parked: FxHashMap<Tid, Vec<Frame>>,
    /// Every event taken, with the thread it came from.
    events: Vec<(Tid, FrameEvent)>,
}

impl Guest {
    fn new(config: TrackerConfig) -> Guest {
        let mut t = CallTracker::new(Index::new(), config);
        t.set_frame_events(true);
        Guest {
            t,
            ids: FxHashMap::default(),
            sp: S0,
            total: 0,
            replica: Vec::new(),
            replica_tid: 0,
            parked: FxHashMap::default(),
            events: Vec::new(),
        }
    }

    /// Replay the tracker's frame events on the replica of the current
    /// thread's stack and check it against the stack.
    fn replay(&mut self) {
        let tid = self.t.shadow_stack().tid();
        if tid != self.replica_tid {
            let old = std::mem::take(&mut self.replica);
            self.parked.insert(self.replica_tid, old);
            self.replica = self.parked.remove(&tid).unwrap_or_default();
            self.replica_tid = tid;
        }
        let mut moves = Vec::new();
        self.t.swap_frame_events(&mut moves);
        for &e in &moves {
            match e {
                FrameEvent::Enter { index, frame } => {
                    assert_eq!(index as usize, self.replica.len(), "{e:?}");
                    self.replica.push(frame);
                }
                FrameEvent::Leave { depth, .. } => {
                    assert!((depth as usize) < self.replica.len(), "{e:?}");
                    self.replica.truncate(depth as usize);
                }
            }
            self.events.push((tid, e));
        }
        assert_eq!(self.replica, self.t.shadow_stack().frames());
    }

    /// The events taken so far, as `+function@index` and `-depth reason`.
    fn event_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
            .into_iter()
            .map(|(_, e)| match e {
                FrameEvent::Enter { index, frame } => {
                    let hidden = if frame.is_hidden() { " hidden" } else { "" };
                    format!("+{}@{index}{hidden}", self.name_of(frame.function()))
                }
                FrameEvent::Leave { depth, why } => format!("-{depth} {why:?}"),
            })
            .collect()
    }

    fn name_of(&self, f: FuncId) -> String {
        self.name(f)
    }

    fn full() -> Guest {
        Guest::new(TrackerConfig::default())
    }

    /// Run `facts` with the current simulated stack pointer.
    fn run(&mut self, facts: &BlockFacts) {
        let next = self.ids.len() as u32;
        let id = *self
            .ids
            .entry((facts.start, facts.len))
            .or_insert(BlockId(next));
        if id.0 == next {
            self.t.block_decoded(id, facts);
        }
        self.t.block(BlockEvent { id, sp: self.sp }, facts);
        self.replay();
        self.total += facts.insn_count() as u64;
        match facts.terminator {
            Terminator::Call { .. } | Terminator::IndirectCall => self.sp -= 8,
            Terminator::Return => self.sp += 8,
            _ => {}
        }
    }

    /// Run `facts` with stack pointer `sp`.
    fn run_at(&mut self, facts: &BlockFacts, sp: Addr) {
        self.sp = sp;
        self.run(facts);
    }

    fn runs(&mut self, blocks: &[&BlockFacts]) {
        for f in blocks {
            self.run(f);
        }
    }

    fn cct(&self) -> &Cct {
        self.t.cct()
    }

    fn name(&self, f: FuncId) -> String {
        if let Some(e) = self.t.synthetic_entry(f) {
            format!("{e:#x}")
        } else {
            self.t.index().funcs[f.index()].0.to_string()
        }
    }

    /// `main/a/c` for a node.
    fn path(&self, mut n: NodeId) -> String {
        let mut parts = Vec::new();
        while n != NodeId::ROOT {
            parts.push(self.name(self.cct().function(n)));
            n = self.cct().parent(n).unwrap();
        }
        parts.reverse();
        parts.join("/")
    }

    /// All nodes with this path.
    fn nodes(&self, path: &str) -> Vec<NodeId> {
        self.cct()
            .nodes()
            .filter(|&n| self.path(n) == path)
            .collect()
    }

    /// The one node with this path.
    fn node(&self, path: &str) -> NodeId {
        let v = self.nodes(path);
        assert_eq!(v.len(), 1, "nodes for {path}: {:?}", self.all_paths());
        v[0]
    }

    fn all_paths(&self) -> Vec<String> {
        self.cct().nodes().skip(1).map(|n| self.path(n)).collect()
    }

    fn self_insns(&self, path: &str) -> u64 {
        self.cct().self_metric(self.node(path), INSTRUCTIONS)
    }

    fn incl_insns(&self, path: &str) -> u64 {
        let n = self.node(path);
        self.cct().inclusive()[n.index() * self.cct().n_metrics()]
    }

    fn current(&self) -> String {
        self.path(self.t.current_node())
    }

    fn depth(&self) -> usize {
        self.t.shadow_stack().depth()
    }

    /// The invariants every sequence keeps.
    fn check(&self) {
        let cct = self.cct();
        assert_eq!(
            cct.inclusive()[0],
            self.total,
            "root inclusive = all instructions"
        );
        assert_eq!(cct.total(INSTRUCTIONS), self.total);
        assert_eq!(cct.self_metric(NodeId::ROOT, INSTRUCTIONS), 0);
        for n in cct.nodes().skip(1) {
            let p = cct.parent(n).unwrap();
            assert!(p < n, "parents precede children");
            assert_eq!(cct.depth(n), cct.depth(p) + 1);
        }
        let frames = self.t.shadow_stack().frames();
        for w in frames.windows(2) {
            assert!(w[1].sp() <= w[0].sp(), "frames sorted by sp");
        }
    }
}

/// `_start` calls main; main's body runs at `S0 - 8`.
fn start_main(g: &mut Guest) {
    g.run_at(&b(0x1000, 2, call(0x2000)), S0);
}

#[test]
fn nested_calls_exact_self_and_inclusive() {
    let mut g = Guest::full();
    start_main(&mut g);
    let main0 = b(0x2000, 3, call(0x3000));
    let a0 = b(0x3000, 4, call(0x5000));
    let c0 = b(0x5000, 5, RET);
    let a1 = b(0x3010, 1, RET);
    let main1 = b(0x200c, 2, call(0x4000));
    let b0 = b(0x4000, 2, call(0x5000));
    let b1 = b(0x4008, 3, call(0x5000)); // a second call site of c in b
    let b2 = b(0x4014, 1, RET);
    let main2 = b(0x2014, 1, Terminator::Syscall);
    g.runs(&[
        &main0, &a0, &c0, &a1, &main1, &b0, &c0, &b1, &c0, &b2, &main2,
    ]);
    g.check();

    assert_eq!(g.sp, S0 - 8, "the simulated stack is back in main");
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2);
    assert_eq!(
        g.all_paths(),
        [
            "_start",
            "_start/main",
            "_start/main/a",
            "_start/main/a/c",
            "_start/main/b",
            "_start/main/b/c",
            "_start/main/b/c"
        ]
    );
    assert_eq!(g.self_insns("_start"), 2);
    assert_eq!(g.self_insns("_start/main"), 3 + 2 + 1);
    assert_eq!(g.self_insns("_start/main/a"), 5);
    assert_eq!(g.self_insns("_start/main/a/c"), 5);
    assert_eq!(g.self_insns("_start/main/b"), 6);
    assert_eq!(g.incl_insns("_start/main/a"), 10);
    assert_eq!(g.incl_insns("_start/main/b"), 16);
    assert_eq!(g.incl_insns("_start/main"), 32);
    assert_eq!(g.incl_insns("_start"), 34);
    let bc = g.nodes("_start/main/b/c");
    assert_eq!(g.cct().call_site(bc[0]), 0x4004);
    assert_eq!(g.cct().call_site(bc[1]), 0x4010);
    assert_eq!(g.cct().call_site(g.node("_start/main/a")), 0x2008);
    for n in g.cct().nodes().skip(1) {
        assert_eq!(g.cct().calls(n), 1);
        let root = g.cct().parent(n) == Some(NodeId::ROOT);
        let want = if root {
            NodeFlags::THREAD_ROOT
        } else {
            NodeFlags::NONE
        };
        assert_eq!(g.cct().flags(n), want);
    }
    assert_eq!(g.t.counters().unexpected_returns, 0);
    assert_eq!(g.t.counters().nonlocal_exits, 0);
    assert_eq!(g.t.max_stack_depth(), 4);

    let s = g.cct().stats();
    assert_eq!(s.nodes, 7);
    assert_eq!(s.max_height, 4);
    assert_eq!(s.max_replication, 3);
    assert_eq!(s.max_replicated_function, Some(FuncId(4)));
    assert_eq!(s.call_sites_used, 6);
}

#[test]
fn call_counts_and_loops_to_own_entry() {
    // b calls c, then loops back to its own entry (not a call) four times.
    let mut g = Guest::full();
    start_main(&mut g);
    let main0 = b(0x2000, 1, call(0x4000));
    let b0 = b(0x4000, 2, call(0x5000));
    let c0 = b(0x5000, 3, RET);
    let b1 = b(0x4008, 2, cond(0x4000)); // taken: to b's own entry
    let b2 = b(0x4010, 1, cond(0x4018));
    let b3 = b(0x4014, 1, jump(0x4000)); // to b's own entry
    let b_out = b(0x4018, 1, RET);
    let main1 = b(0x2004, 1, Terminator::Trap);
    g.run(&main0);
    for i in 0..5 {
        g.runs(&[&b0, &c0, &b1]);
        if i % 2 == 1 {
            g.runs(&[&b2, &b3]);
        }
    }
    g.runs(&[&b0, &c0, &b1, &b2, &b_out, &main1]);
    g.check();
    assert_eq!(g.cct().calls(g.node("_start/main/b")), 1);
    assert_eq!(g.cct().calls(g.node("_start/main/b/c")), 6);
    assert_eq!(g.cct().calls(g.node("_start")), 1);
    assert_eq!(g.self_insns("_start/main/b/c"), 18);
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.t.max_stack_depth(), 4);
}

/// main calls f, which recurses until 4 activations are live.
fn recurse_four(g: &mut Guest) {
    start_main(g);
    let main0 = b(0x2000, 1, call(0x7000));
    let f0 = b(0x7000, 2, cond(0x7010));
    let f_rec = b(0x7008, 2, call(0x7000));
    let f_ret = b(0x7010, 1, RET);
    let main1 = b(0x2004, 1, Terminator::Syscall);
    g.run(&main0);
    for _ in 0..3 {
        g.runs(&[&f0, &f_rec]);
    }
    g.runs(&[&f0, &f_ret, &f_ret, &f_ret, &f_ret, &main1]);
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.t.max_stack_depth(), 2 + 4);
}

#[test]
fn recursion_full_keeps_every_level() {
    let mut g = Guest::full();
    recurse_four(&mut g);
    let paths = [
        "_start/main/f",
        "_start/main/f/f",
        "_start/main/f/f/f",
        "_start/main/f/f/f/f",
    ];
    for p in &paths[..3] {
        assert_eq!(g.self_insns(p), 5);
    }
    assert_eq!(g.self_insns(paths[3]), 3);
    assert_eq!(g.incl_insns(paths[0]), 18);
    assert_eq!(g.incl_insns(paths[2]), 8);
    for p in paths {
        assert_eq!(g.cct().calls(g.node(p)), 1);
    }
    assert_eq!(g.cct().depth_cap_hits(), 0);
    assert_eq!(g.cct().stats().max_height, 6);
}

#[test]
fn recursion_full_has_one_node_per_level_whatever_the_call_site() {
    // f(d) calls f(d - 1) twice, from two call sites, down to d = 0.
    let f0 = b(0x7000, 1, cond(0x7020));
    let f_a = b(0x7004, 1, call(0x7000));
    let f_b = b(0x7008, 1, call(0x7000));
    let f_end = b(0x700c, 1, RET);
    let leaf = b(0x7020, 1, RET);
    fn activation(g: &mut Guest, d: u32, blocks: [&BlockFacts; 5]) {
        let [f0, f_a, f_b, f_end, leaf] = blocks;
        g.run(f0);
        if d == 0 {
            g.run(leaf);
            return;
        }
        g.run(f_a);
        activation(g, d - 1, blocks);
        g.run(f_b);
        activation(g, d - 1, blocks);
        g.run(f_end);
    }
    let mut g = Guest::full();
    start_main(&mut g);
    g.run(&b(0x2000, 1, call(0x7000)));
    activation(&mut g, 3, [&f0, &f_a, &f_b, &f_end, &leaf]);
    g.run(&b(0x2004, 1, Terminator::Syscall));
    g.check();
    let levels = [
        "_start/main/f",
        "_start/main/f/f",
        "_start/main/f/f/f",
        "_start/main/f/f/f/f",
    ];
    assert_eq!(g.all_paths()[2..], levels);
    for (k, p) in levels.iter().enumerate() {
        assert_eq!(g.cct().calls(g.node(p)), 1 << k, "{p}");
        let per_call = if k == 3 { 2 } else { 4 };
        assert_eq!(g.self_insns(p), per_call << k, "{p}");
    }
    assert_eq!(g.incl_insns(levels[0]), 4 + 8 + 16 + 16);
    assert_eq!(g.cct().recursion_folds(), 0);
}

#[test]
fn recursion_full_folds_at_the_depth_cap() {
    let mut g = Guest::new(TrackerConfig {
        recursion: RecursionPolicy::Full { max_depth: 4 },
        ..TrackerConfig::default()
    });
    recurse_four(&mut g);
    // _start (1), main (2), f (3), f (4 = cap): the 3rd and 4th f fold into it.
    assert_eq!(
        g.all_paths(),
        ["_start", "_start/main", "_start/main/f", "_start/main/f/f"]
    );
    let capped = g.node("_start/main/f/f");
    assert!(g.cct().flags(capped).contains(NodeFlags::DEPTH_CAPPED));
    assert_eq!(g.cct().calls(capped), 1);
    assert_eq!(g.cct().depth_cap_hits(), 2);
    // The two folded calls still count, as calls of f.
    let capped: Vec<_> = g.cct().capped_calls().collect();
    assert_eq!(capped, [(g.cct().function(capped_node_of(&g)), 2)]);
    assert_eq!(g.self_insns("_start/main/f/f"), 5 + 5 + 3);
    assert_eq!(g.incl_insns("_start/main/f"), 18);
    assert_eq!(g.cct().stats().max_height, 4);
}

#[test]
fn recursion_collapse_folds_onto_the_ancestor() {
    let mut g = Guest::new(TrackerConfig {
        recursion: RecursionPolicy::Collapse,
        ..TrackerConfig::default()
    });
    recurse_four(&mut g);
    assert_eq!(g.all_paths(), ["_start", "_start/main", "_start/main/f"]);
    let f = g.node("_start/main/f");
    assert_eq!(g.cct().calls(f), 4);
    assert_eq!(g.cct().recursion_folds(), 3);
    assert_eq!(g.self_insns("_start/main/f"), 18);
    assert_eq!(g.cct().stats().folded_edges, 1);
}

#[test]
fn mutual_recursion_collapse() {
    // f -> g -> f -> g -> (return all the way)
    let mut g = Guest::new(TrackerConfig {
        recursion: RecursionPolicy::Collapse,
        ..TrackerConfig::default()
    });
    start_main(&mut g);
    let main0 = b(0x2000, 1, call(0x7000));
    let f0 = b(0x7000, 1, call(0x7800));
    let f1 = b(0x7004, 1, RET);
    let g0 = b(0x7800, 1, cond(0x7808));
    let g1 = b(0x7804, 1, call(0x7000));
    let g2 = b(0x7808, 1, RET);
    g.runs(&[&main0, &f0, &g0, &g1, &f0, &g0, &g2, &f1, &g2, &f1]);
    g.run(&b(0x2004, 1, Terminator::Syscall));
    g.check();
    assert_eq!(
        g.all_paths(),
        ["_start", "_start/main", "_start/main/f", "_start/main/f/g"]
    );
    assert_eq!(g.cct().calls(g.node("_start/main/f")), 2);
    assert_eq!(g.cct().calls(g.node("_start/main/f/g")), 2);
    assert_eq!(g.self_insns("_start/main/f"), 4);
    assert_eq!(g.self_insns("_start/main/f/g"), 5);
    assert_eq!(g.cct().recursion_folds(), 1);
    assert_eq!(g.current(), "_start/main");
}

#[test]
fn longjmp_pops_every_frame_it_skips() {
    let mut g = Guest::full();
    start_main(&mut g);
    // main's body runs below its entry sp; main -> a -> b -> c -> longjmp,
    // which jumps back into main with main's body sp.
    let body = S0 - 8 - 0x40;
    g.run_at(&b(0x2000, 2, FallThrough()), S0 - 8);
    g.run_at(&b(0x2008, 1, call(0x3000)), body);
    g.runs(&[
        &b(0x3000, 2, call(0x4000)),
        &b(0x4000, 2, call(0x5000)),
        &b(0x5000, 2, call(0xe000)),
        &b(0xe000, 6, Terminator::IndirectJump),
    ]);
    assert_eq!(g.depth(), 6);
    assert_eq!(g.current(), "_start/main/a/b/c/longjmp");
    // setjmp's second return: in main, at main's sp.
    g.run_at(&b(0x2100, 3, call(0x6000)), body);
    assert_eq!(g.self_insns("_start/main"), 2 + 1 + 3);
    assert_eq!(g.depth(), 2);
    assert_eq!(g.current(), "_start/main");
    g.run(&b(0x6000, 4, RET));
    assert_eq!(g.current(), "_start/main/d");
    g.run(&b(0x210c, 1, Terminator::Syscall));
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2, "no phantom frames");
    assert_eq!(g.self_insns("_start/main"), 2 + 1 + 3 + 1);
    assert_eq!(g.incl_insns("_start/main/a"), 2 + 2 + 2 + 6);
    assert_eq!(g.cct().calls(g.node("_start/main/d")), 1);
    assert_eq!(g.t.counters().nonlocal_exits, 1);
    assert_eq!(g.t.counters().unexpected_returns, 0);
    assert_eq!(g.t.max_stack_depth(), 6);
}

#[allow(non_snake_case)]
fn FallThrough() -> Terminator {
    Terminator::FallThrough
}

#[test]
fn longjmp_landing_between_frames() {
    // The landing sp lies above two frames and below the third: only two go.
    let mut g = Guest::full();
    start_main(&mut g);
    g.run(&b(0x2000, 1, call(0x3000)));
    let a_body = S0 - 16 - 0x30;
    g.run_at(&b(0x3000, 1, FallThrough()), S0 - 16);
    g.run_at(&b(0x3004, 1, call(0x4000)), a_body);
    g.runs(&[
        &b(0x4000, 1, call(0x5000)),
        &b(0x5000, 2, Terminator::IndirectJump),
    ]);
    g.run_at(&b(0x3040, 2, RET), a_body);
    assert_eq!(g.current(), "_start/main/a");
    assert_eq!(g.depth(), 3);
    g.run_at(&b(0x2004, 1, Terminator::Syscall), S0 - 8);
    assert_eq!(g.current(), "_start/main");
    g.check();
    assert_eq!(g.self_insns("_start/main/a"), 1 + 1 + 2);
    assert_eq!(g.t.counters().nonlocal_exits, 1);
    assert_eq!(
        g.t.counters().unexpected_returns,
        0,
        "a's ret was a normal one"
    );
}

#[test]
fn exception_like_return_to_a_landing_pad() {
    // main -> a -> b -> _Unwind-like code whose `ret` lands in main's landing
    // pad with main's sp: not the return address of any frame it pops.
    let mut g = Guest::full();
    start_main(&mut g);
    let body = S0 - 8 - 0x20;
    g.run_at(&b(0x2000, 1, call(0x3000)), body);
    g.runs(&[&b(0x3000, 2, call(0x4000)), &b(0x4000, 3, RET)]);
    assert_eq!(g.current(), "_start/main/a/b");
    g.run_at(&b(0x2200, 4, FallThrough()), body);
    assert_eq!(g.current(), "_start/main");
    g.run(&b(0x2210, 1, Terminator::Syscall));
    g.check();
    assert_eq!(g.depth(), 2);
    assert_eq!(g.self_insns("_start/main"), 1 + 4 + 1);
    assert_eq!(g.incl_insns("_start/main/a"), 5);
    assert_eq!(g.t.counters().unexpected_returns, 1);
    assert_eq!(g.t.counters().nonlocal_exits, 0);
}

#[test]
fn ret_that_pops_nothing_is_unexpected_but_harmless() {
    // A `ret` used as a jump (push target; ret) inside main pops no frame.
    let mut g = Guest::full();
    start_main(&mut g);
    g.run_at(&b(0x2000, 1, FallThrough()), S0 - 8);
    g.run_at(&b(0x2004, 2, RET), S0 - 8 - 0x10);
    g.run_at(&b(0x2100, 1, Terminator::Syscall), S0 - 8 - 0x8);
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.t.counters().unexpected_returns, 1);
}

/// main calls mid twice; mid tail-jumps to leaf, leaf's `ret` ends both.
#[test]
fn tail_call_ends_with_one_ret() {
    let mut g = Guest::full();
    start_main(&mut g);
    let main0 = b(0x2000, 2, call(0x3000));
    let mid0 = b(0x3000, 2, jump(0x3010)); // within mid: not a call
    let mid1 = b(0x3010, 3, jump(0x5000)); // tail call to leaf
    let leaf = b(0x5000, 4, RET);
    let main1 = b(0x2008, 1, call(0x3000));
    let main2 = b(0x200c, 1, Terminator::Syscall);
    g.runs(&[&main0, &mid0, &mid1]);
    assert_eq!(g.current(), "_start/main/a");
    g.run(&leaf);
    assert_eq!(g.current(), "_start/main/a/c");
    assert_eq!(g.depth(), 4);
    g.run(&main1);
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2);
    g.run(&mid0);
    assert_eq!(g.current(), "_start/main/a");
    g.runs(&[&mid1, &leaf, &main2]);
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2);
    // "a" is mid, "c" is leaf; two call sites of mid in main.
    let mids = g.nodes("_start/main/a");
    assert_eq!(mids.len(), 2);
    let leaf_nodes = g.nodes("_start/main/a/c");
    assert_eq!(leaf_nodes.len(), 2);
    for (&m, &l) in mids.iter().zip(&leaf_nodes) {
        assert_eq!(g.cct().parent(l), Some(m));
        assert!(g.cct().flags(l).contains(NodeFlags::TAIL_CALL));
        assert!(!g.cct().flags(m).contains(NodeFlags::TAIL_CALL));
        assert_eq!(g.cct().call_site(l), 0x3018);
        assert_eq!(g.cct().calls(l), 1);
        assert_eq!(g.cct().self_metric(m, INSTRUCTIONS), 5);
        assert_eq!(g.cct().inclusive()[m.index()], 5 + 4);
    }
    assert_eq!(g.t.counters().unexpected_returns, 0);
    assert_eq!(g.cct().stats().tail_call_nodes, 2);
}

#[test]
fn tail_call_counts_on_one_site() {
    let mut g = Guest::full();
    start_main(&mut g);
    let main0 = b(0x2000, 1, call(0x3000));
    let main_loop = b(0x2004, 1, jump(0x2000));
    let mid = b(0x3000, 2, jump(0x5000));
    let leaf = b(0x5000, 4, RET);
    for _ in 0..3 {
        g.runs(&[&main0, &mid, &leaf, &main_loop]);
    }
    g.check();
    assert_eq!(g.cct().calls(g.node("_start/main/a")), 3);
    assert_eq!(g.cct().calls(g.node("_start/main/a/c")), 3);
    assert_eq!(g.incl_insns("_start/main/a"), 3 * 6);
    assert_eq!(g.current(), "_start/main");
}

#[test]
fn conditional_tail_call() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.runs(&[
        &b(0x2000, 1, call(0x7000)),
        &b(0x7000, 2, cond(0x7800)),
        &b(0x7800, 3, RET),
        &b(0x2004, 1, Terminator::Syscall),
    ]);
    g.check();
    let gn = g.node("_start/main/f/g");
    assert!(g.cct().flags(gn).contains(NodeFlags::TAIL_CALL));
    assert_eq!(g.current(), "_start/main");
}

#[test]
fn tail_call_cycles_stay_bounded() {
    // f and g jump to each other's entry 100 times, then f returns.
    let mut g = Guest::full();
    start_main(&mut g);
    let f0 = b(0x7000, 2, cond(0x7100));
    let f1 = b(0x7008, 1, jump(0x7800));
    let g0 = b(0x7800, 2, jump(0x7000));
    g.run(&b(0x2000, 1, call(0x7000)));
    for _ in 0..100 {
        g.runs(&[&f0, &f1, &g0]);
    }
    g.runs(&[&f0, &b(0x7100, 1, RET), &b(0x2004, 1, Terminator::Syscall)]);
    g.check();
    assert_eq!(g.t.max_stack_depth(), 4);
    assert_eq!(
        g.all_paths(),
        ["_start", "_start/main", "_start/main/f", "_start/main/f/g"]
    );
    assert_eq!(g.cct().calls(g.node("_start/main/f/g")), 100);
    assert_eq!(g.self_insns("_start/main/f"), 101 * 2 + 100 + 1);
    assert_eq!(g.current(), "_start/main");
}

/// PLT: stub at 0x9010 (`jmp *GOT`); on the first call the GOT leads to
/// 0x9014 (`push n; jmp plt0`), plt0 at 0x9000 (`push; jmp *GOT+16`) goes
/// to the resolver, which calls `_dl_fixup` and jumps to `puts`.
fn plt_calls(g: &mut Guest) {
    start_main(g);
    let frame_sp = S0 - 16;
    g.run(&b(0x2000, 2, call(0x9010)));
    g.run(&b(0x9010, 1, Terminator::IndirectJump));
    g.run_at(&b(0x9014, 2, jump(0x9000)), frame_sp);
    g.run_at(&b(0x9000, 2, Terminator::IndirectJump), frame_sp - 8);
    g.run_at(&b(0xa000, 3, call(0xb000)), frame_sp - 16);
    g.runs(&[&b(0xb000, 10, RET), &b(0xa00c, 3, Terminator::IndirectJump)]);
    g.run_at(&b(0xc000, 5, RET), frame_sp);
    // Second call: the GOT now holds puts.
    g.run(&b(0x2008, 1, call(0x9010)));
    g.runs(&[&b(0x9010, 1, Terminator::IndirectJump), &b(0xc000, 5, RET)]);
    g.run(&b(0x200c, 1, Terminator::Syscall));
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2);
}

#[test]
fn plt_call_shows_as_one_level() {
    let mut g = Guest::full();
    plt_calls(&mut g);
    assert_eq!(
        g.all_paths(),
        [
            "_start",
            "_start/main",
            "_start/main/puts",
            "_start/main/puts"
        ]
    );
    let puts = g.nodes("_start/main/puts");
    assert_eq!(g.cct().call_site(puts[0]), 0x2004);
    assert_eq!(g.cct().call_site(puts[1]), 0x2008);
    for n in puts {
        assert_eq!(g.cct().calls(n), 1);
        assert_eq!(g.cct().self_metric(n, INSTRUCTIONS), 5);
        assert_eq!(g.cct().flags(n), NodeFlags::NONE);
    }
    // Stub, plt0, resolver and _dl_fixup are charged to the caller.
    assert_eq!(
        g.self_insns("_start/main"),
        2 + (1 + 2 + 2 + 3 + 10 + 3) + 1 + 1 + 1
    );
    assert_eq!(g.t.counters().unexpected_returns, 0);
}

#[test]
fn plt_shown_with_show_plt() {
    let mut g = Guest::new(TrackerConfig {
        show_plt: true,
        ..TrackerConfig::default()
    });
    plt_calls(&mut g);
    let stub = "_start/main/0x9010";
    assert_eq!(g.nodes(stub).len(), 2);
    let lazy = g.node("_start/main/0x9010/_dl_runtime_resolve");
    assert!(g.cct().flags(lazy).contains(NodeFlags::TAIL_CALL));
    g.node("_start/main/0x9010/_dl_runtime_resolve/_dl_fixup");
    let late = g.node("_start/main/0x9010/_dl_runtime_resolve/puts");
    assert!(g.cct().flags(late).contains(NodeFlags::TAIL_CALL));
    let direct = g.node("_start/main/0x9010/puts");
    assert!(g.cct().flags(direct).contains(NodeFlags::TAIL_CALL));
    // The stub's own jump to 0x9014 and to plt0 are not calls.
    assert_eq!(g.self_insns("_start/main"), 2 + 1 + 1);
    assert!(g.cct().function(g.nodes(stub)[0]).is_synthetic());
    assert_eq!(g.t.counters().nonlocal_exits, 0);
}

#[test]
fn tail_call_through_the_plt() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.runs(&[
        &b(0x2000, 1, call(0x3000)),
        &b(0x3000, 2, jump(0x9010)),
        &b(0x9010, 1, Terminator::IndirectJump),
    ]);
    assert_eq!(
        g.current(),
        "_start/main/a",
        "the stub is charged to the tail-caller"
    );
    g.runs(&[&b(0xc000, 5, RET), &b(0x2004, 1, Terminator::Syscall)]);
    g.check();
    let puts = g.node("_start/main/a/puts");
    assert!(g.cct().flags(puts).contains(NodeFlags::TAIL_CALL));
    assert_eq!(g.cct().call_site(puts), 0x3004);
    assert_eq!(g.self_insns("_start/main/a"), 3);
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.t.counters().unexpected_returns, 0);
}

#[test]
fn indirect_calls_make_one_child_per_target() {
    let mut g = Guest::full();
    start_main(&mut g);
    let site = b(0x2000, 1, Terminator::IndirectCall);
    for target in [0x3000, 0x4000, 0x3000] {
        g.run(&site);
        g.run(&b(target, 1, RET));
    }
    g.run(&b(0x2004, 1, Terminator::Syscall));
    g.check();
    assert_eq!(g.cct().calls(g.node("_start/main/a")), 2);
    assert_eq!(g.cct().calls(g.node("_start/main/b")), 1);
    assert_eq!(g.cct().call_site(g.node("_start/main/b")), 0x2000);
}

#[test]
fn calls_without_symbols_get_synthetic_functions() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.runs(&[
        &b(0x2000, 1, call(0xf000)),
        &b(0xf000, 2, RET),
        &b(0x2004, 1, call(0xf000)),
        &b(0xf000, 2, RET),
        // a jumps to the known entry 0xf000: a tail call; to 0xf100: nothing.
        &b(0x2008, 1, call(0x3000)),
        &b(0x3000, 1, jump(0xf100)),
        &b(0xf100, 1, jump(0xf000)),
        &b(0xf000, 2, RET),
        &b(0x200c, 1, Terminator::Syscall),
    ]);
    g.check();
    let nodes = g.nodes("_start/main/0xf000");
    assert_eq!(nodes.len(), 2);
    let f = g.cct().function(nodes[0]);
    assert!(f.is_synthetic());
    assert_eq!(f, g.cct().function(nodes[1]));
    assert_eq!(g.t.synthetic_entry(f), Some(0xf000));
    assert_eq!(g.t.synthetic_entry(FuncId(1)), None);
    let tail = g.node("_start/main/a/0xf000");
    assert!(g.cct().flags(tail).contains(NodeFlags::TAIL_CALL));
    assert_eq!(g.self_insns("_start/main/a"), 2);
}

#[test]
fn call_to_next_instruction_is_not_a_call() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.run(&b(0x2000, 2, call(0x2008)));
    g.run(&b(0x2008, 2, FallThrough())); // pop %rbx
    g.run_at(&b(0x2010, 1, call(0x3000)), S0 - 8);
    g.runs(&[&b(0x3000, 1, RET), &b(0x2014, 1, Terminator::Syscall)]);
    g.check();
    assert_eq!(g.all_paths(), ["_start", "_start/main", "_start/main/a"]);
    assert_eq!(g.self_insns("_start/main"), 5 + 1);
}

#[test]
fn signal_handler_is_a_child_of_the_interrupted_context() {
    let mut g = Guest::full();
    start_main(&mut g);
    let body = S0 - 8 - 0x20;
    // The signal arrives after main's `call a`, before a's first block.
    g.run_at(&b(0x2000, 3, call(0x3000)), body);
    let resume_sp = g.sp;
    let handler_sp = body - 0x400;
    g.t.signal_enter(0xd000, handler_sp);
    assert_eq!(g.current(), "_start/main/handler");
    g.run_at(&b(0xd000, 4, call(0x5000)), handler_sp);
    g.runs(&[&b(0x5000, 5, RET), &b(0xd010, 2, RET)]);
    assert_eq!(g.current(), "_start/main/handler");
    g.run(&b(0xd800, 2, Terminator::Syscall));
    assert_eq!(g.current(), "_start/main", "the restorer runs in main");
    assert_eq!(g.t.shadow_stack().signals.len(), 1);
    g.t.signal_return(resume_sp);
    // Execution resumes at a's entry: the interrupted `call` applies.
    g.run_at(&b(0x3000, 2, RET), resume_sp);
    assert_eq!(g.t.shadow_stack().signals.len(), 0);
    g.run(&b(0x200c, 1, Terminator::Syscall));
    g.check();
    assert_eq!(
        g.all_paths(),
        [
            "_start",
            "_start/main",
            "_start/main/handler",
            "_start/main/handler/c",
            "_start/main/a"
        ]
    );
    let h = g.node("_start/main/handler");
    assert!(g.cct().flags(h).contains(NodeFlags::SIGNAL));
    assert_eq!(g.cct().call_site(h), NO_CALL_SITE);
    assert_eq!(g.cct().calls(h), 1);
    assert_eq!(g.incl_insns("_start/main/handler"), 4 + 5 + 2);
    assert_eq!(g.self_insns("_start/main"), 3 + 2 + 1);
    assert_eq!(g.cct().call_site(g.node("_start/main/a")), 0x2008);
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2);
    assert_eq!(g.t.counters().unexpected_returns, 0);
    assert_eq!(g.cct().stats().signal_nodes, 1);
}

#[test]
fn signal_return_without_a_handler_ret() {
    // The handler calls rt_sigreturn itself: signal_return pops its frames.
    let mut g = Guest::full();
    start_main(&mut g);
    g.run_at(&b(0x2000, 1, FallThrough()), S0 - 0x40);
    g.t.signal_enter(0xd000, S0 - 0x400);
    g.run_at(&b(0xd000, 1, call(0xd800)), S0 - 0x400);
    g.run(&b(0xd800, 2, Terminator::Syscall));
    assert_eq!(g.depth(), 4);
    g.t.signal_return(S0 - 0x40);
    assert_eq!(g.depth(), 2);
    g.run_at(&b(0x2004, 1, Terminator::Syscall), S0 - 0x40);
    g.check();
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.self_insns("_start/main"), 2);
    assert!(g.t.shadow_stack().signals.is_empty());
}

#[test]
fn siglongjmp_out_of_a_signal_handler() {
    let mut g = Guest::full();
    start_main(&mut g);
    let body = S0 - 8 - 0x20;
    g.run_at(&b(0x2000, 1, call(0x3000)), body);
    g.run(&b(0x3000, 1, FallThrough()));
    g.t.signal_enter(0xd000, body - 0x400);
    g.run_at(&b(0xd000, 2, call(0xe000)), body - 0x400);
    g.run(&b(0xe000, 3, Terminator::IndirectJump));
    g.run_at(&b(0x2100, 2, FallThrough()), body);
    assert_eq!(g.current(), "_start/main");
    assert_eq!(g.depth(), 2, "a, the signal frame and longjmp are gone");
    assert!(g.t.shadow_stack().signals.is_empty());
    // A later signal is delivered and returns normally.
    g.t.signal_enter(0xd000, body - 0x400);
    g.run_at(&b(0xd008, 1, RET), body - 0x400);
    g.run(&b(0xd800, 2, Terminator::Syscall));
    g.t.signal_return(body);
    g.run_at(&b(0x2108, 1, Terminator::Syscall), body);
    g.check();
    assert_eq!(g.cct().calls(g.node("_start/main/handler")), 1);
    assert_eq!(g.cct().calls(g.node("_start/main/a/handler")), 1);
    assert_eq!(g.self_insns("_start/main"), 1 + 2 + 2 + 1);
    assert_eq!(g.t.counters().nonlocal_exits, 1);
    assert!(g.t.shadow_stack().signals.is_empty());
}

#[test]
fn threads_have_their_own_stacks() {
    let mut g = Guest::full();
    g.t.thread_switch(100);
    start_main(&mut g);
    g.run(&b(0x2000, 1, call(0x7000)));
    let main_sp = g.sp;
    // Thread 101 starts in the middle of clone and calls f.
    g.t.thread_switch(101);
    g.run_at(&b(0x1840, 2, call(0x7000)), 0x5000_0000);
    g.run(&b(0x7000, 3, FallThrough()));
    assert_eq!(g.current(), "clone/f");
    assert_eq!(g.t.shadow_stack().tid(), 101);
    // Back to 100: its pending `call f` applies to this block.
    g.t.thread_switch(100);
    g.run_at(&b(0x7000, 3, FallThrough()), main_sp);
    assert_eq!(g.current(), "_start/main/f");
    g.run(&b(0x700c, 1, RET));
    g.t.thread_switch(101);
    g.run_at(&b(0x700c, 1, RET), 0x5000_0000 - 8);
    g.run(&b(0x1848, 1, Terminator::Syscall));
    assert_eq!(g.current(), "clone");
    g.t.thread_switch(100);
    g.run_at(&b(0x2004, 1, Terminator::Syscall), main_sp + 8);
    assert_eq!(g.current(), "_start/main");
    g.check();
    assert_eq!(g.t.counters().threads, 2);
    assert_eq!(g.self_insns("clone/f"), 4);
    assert_eq!(g.self_insns("_start/main/f"), 4);
    // One root per thread, keyed by its tid, flagged.
    let roots: Vec<(Addr, NodeFlags)> = g
        .cct()
        .nodes()
        .filter(|&n| g.cct().parent(n) == Some(NodeId::ROOT))
        .map(|n| (g.cct().call_site(n), g.cct().flags(n)))
        .collect();
    assert_eq!(
        roots,
        [(100, NodeFlags::THREAD_ROOT), (101, NodeFlags::THREAD_ROOT)]
    );
    assert_eq!(
        g.cct().stats().call_sites_used,
        3,
        "tids are not call sites"
    );
    g.t.finish();
    assert_eq!(g.depth(), 0);
    assert!(g.t.stack.parked_mut().all(|s| s.depth() == 0));
}

#[test]
fn rep_iterations_retire_once_and_other_metrics() {
    let mut g = Guest::new(TrackerConfig {
        n_metrics: 2,
        ..TrackerConfig::default()
    });
    start_main(&mut g);
    g.run(&b(0x2000, 1, call(0x3000)));
    g.run(&b(0x3000, 3, Terminator::RepString));
    for _ in 0..5 {
        g.t.rep_iteration(BlockId(2));
    }
    // A `rep` string instruction retires once, however often it iterates.
    let node = g.t.current_node();
    g.t.add_metric(node, 1, 64);
    g.runs(&[&b(0x300c, 1, RET), &b(0x2004, 1, Terminator::Syscall)]);
    g.check();
    let a = g.node("_start/main/a");
    assert_eq!(g.cct().self_metrics(a), &[4, 64]);
    let incl = g.cct().inclusive();
    assert_eq!(&incl[..2], &[g.total, 64]);
}

#[test]
fn finish_closes_all_frames() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.runs(&[&b(0x2000, 1, call(0x3000)), &b(0x3000, 1, call(0x4000))]);
    g.run(&b(0x4000, 1, FallThrough()));
    assert_eq!(g.depth(), 4);
    g.t.finish();
    assert_eq!(g.depth(), 0);
    assert_eq!(g.t.current_node(), NodeId::ROOT);
    g.check();
    let parts = g.t.into_parts();
    assert_eq!(parts.cct.inclusive()[0], g.total);
}

#[test]
fn object_mapped_refreshes_function_answers() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.runs(&[&b(0x2000, 1, call(0xf800)), &b(0xf800, 1, RET)]);
    assert_eq!(g.all_paths()[2], "_start/main/0xf800");
    g.t.object_mapped(&ObjectMapped {
        path: "late.so".into(),
        base: 0xf000,
        bias: 0xf000,
    });
    assert_eq!(g.t.index().mapped_calls, 1);
    g.runs(&[&b(0x2004, 1, call(0xf800)), &b(0xf800, 1, RET)]);
    g.run(&b(0x2008, 1, Terminator::Syscall));
    g.check();
    g.node("_start/main/late");
}

#[test]
fn instructions_left_to_the_consumer() {
    let mut g = Guest::full();
    g.t.set_count_instructions(false);
    start_main(&mut g);
    g.run(&b(0x2000, 3, call(0x3000)));
    g.run(&b(0x3000, 4, RET));
    // Calls and contexts as usual; no instructions charged by the tracker.
    assert_eq!(g.all_paths(), ["_start", "_start/main", "_start/main/a"]);
    assert_eq!(g.cct().calls(g.node("_start/main/a")), 1);
    assert_eq!(g.cct().total(INSTRUCTIONS), 0);
    g.t.add_metric(g.t.current_node(), INSTRUCTIONS, 4);
    assert_eq!(g.self_insns("_start/main/a"), 4);
}

fn capped_node_of(g: &Guest) -> NodeId {
    g.node("_start/main/f/f")
}

#[test]
fn the_size_cap_folds_new_contexts_into_their_caller() {
    // Root, _start and main fill a cap of 3 nodes: the four calls of f
    // (one from main, three recursive) fold into main, and still count.
    let mut g = Guest::new(TrackerConfig {
        max_contexts: 3,
        ..TrackerConfig::default()
    });
    recurse_four(&mut g);
    assert_eq!(g.all_paths(), ["_start", "_start/main"]);
    let main = g.node("_start/main");
    assert!(g.cct().flags(main).contains(NodeFlags::CONTEXTS_CAPPED));
    assert_eq!(g.cct().context_cap_hits(), 4);
    assert_eq!(g.cct().depth_cap_hits(), 0);
    let capped: Vec<_> = g.cct().capped_calls().map(|(_, n)| n).collect();
    assert_eq!(capped, [4]);
    // f's 18 instructions are main's own now (main has 2): nothing is lost.
    assert_eq!(g.self_insns("_start/main"), 2 + 18);
    assert_eq!(g.incl_insns("_start/main"), 2 + 18);
}

/// The tracker reports each push and pop, with the frame's function and
/// node and why frames went: replayed, the events rebuild every thread's
/// stack (checked after every block of every test by `Guest::replay`).
#[test]
fn frame_events_name_calls_returns_and_unwinds() {
    let mut g = Guest::full();
    start_main(&mut g);
    assert_eq!(g.event_log(), ["+_start@0"]);
    // longjmp from c back into main.
    let body = S0 - 8 - 0x40;
    g.run_at(&b(0x2008, 1, call(0x3000)), body);
    g.runs(&[&b(0x3000, 2, call(0x4000)), &b(0x4000, 2, call(0x5000))]);
    g.run(&b(0x5000, 2, Terminator::IndirectJump));
    g.run_at(&b(0x2100, 3, call(0x6000)), body);
    g.run(&b(0x6000, 4, RET));
    g.run(&b(0x210c, 1, Terminator::Syscall));
    assert_eq!(
        g.event_log(),
        [
            "+main@1",
            "+a@2",
            "+b@3",
            "+c@4",
            "-2 Unwind",
            "+d@2",
            "-2 Return"
        ]
    );
    // A tail call, a tail call back to the first function (a loop), and
    // the one `ret` that ends the frame left.
    g.run(&b(0x2110, 1, call(0x3000)));
    g.run(&b(0x3000, 2, jump(0x4000)));
    g.run(&b(0x4000, 2, jump(0x3000)));
    g.run(&b(0x3000, 2, RET));
    g.run(&b(0x2114, 1, Terminator::Syscall));
    assert_eq!(
        g.event_log(),
        ["+a@2", "+b@3", "-3 TailCallLoop", "-2 Return"]
    );
    g.check();
}

/// A call through a PLT stub pushes a hidden frame, which the stub's jump
/// to the real function replaces with the callee's (`Resolved`).
#[test]
fn frame_events_of_a_plt_call() {
    let mut g = Guest::full();
    plt_calls(&mut g);
    let log = g.event_log();
    assert_eq!(
        log,
        [
            "+_start@0",
            "+main@1",
            "+0x9010@2 hidden",
            "+_dl_fixup@3 hidden",
            "-3 Return",
            "-2 Resolved",
            "+puts@2",
            "-2 Return",
            "+0x9010@2 hidden",
            "-2 Resolved",
            "+puts@2",
            "-2 Return",
        ]
    );
}

/// A signal handler's frame is entered and left by `rt_sigreturn`; each
/// thread's events rebuild its own stack.
#[test]
fn frame_events_of_signals_and_threads() {
    let mut g = Guest::full();
    start_main(&mut g);
    g.run(&b(0x2000, 2, call(0x3000)));
    g.t.signal_enter(0xd000, S0 - 0x400);
    g.run_at(&b(0xd000, 3, Terminator::Syscall), S0 - 0x400);
    g.t.signal_return(S0 - 16);
    g.run_at(&b(0x3000, 2, RET), S0 - 16);
    g.run(&b(0x2008, 1, Terminator::Syscall));
    assert_eq!(
        g.event_log(),
        [
            "+_start@0",
            "+main@1",
            "+handler@2",
            "-2 SignalReturn",
            "+a@2",
            "-2 Return"
        ]
    );
    g.t.thread_switch(7);
    g.run_at(&b(0x1000, 2, call(0x2000)), S0 - 0x10000);
    g.run(&b(0x2000, 2, Terminator::Syscall));
    g.t.thread_switch(0);
    g.run(&b(0x2010, 1, Terminator::Syscall));
    assert_eq!(g.events.iter().filter(|(t, _)| *t == 7).count(), 2);
    assert_eq!(g.event_log(), ["+_start@0", "+main@1"]);
    g.check();
}
