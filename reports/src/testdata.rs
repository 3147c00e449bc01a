//! Hand-built profiles the tests share.

use crate::profile::{
    BlockRow, ContextTable, FunctionRow, InsnProfile, Meta, ObjectInfo, PathBlock, PathFunction,
    PathInfo, PathLine, PathNumbering, PathProfile, PathRow, Phase, PhaseFunction, Profile,
};

fn function(
    name: &str,
    line: u32,
    calls: u64,
    self_cost: [u64; 2],
    inclusive: [u64; 2],
) -> FunctionRow {
    FunctionRow {
        name: name.into(),
        object: "/work/tiny".into(),
        file: Some("tiny.c".into()),
        line: Some(line),
        calls,
        self_cost: self_cost.to_vec(),
        inclusive: inclusive.to_vec(),
    }
}

/// root → main → {a → c, b → c}, two metrics.
///
/// | node | function | parent | calls | self instructions, l1d-miss |
/// |------|----------|--------|-------|-----------------------------|
/// | 0    | (root)   | 0      | 0     | 0, 0                        |
/// | 1    | main     | 0      | 1     | 10, 1                       |
/// | 2    | a        | 1      | 2     | 20, 2                       |
/// | 3    | c        | 2      | 2     | 100, 10                     |
/// | 4    | b        | 1      | 4     | 40, 0                       |
/// | 5    | c        | 4      | 4     | 100, 20                     |
pub fn tiny_profile() -> Profile {
    Profile {
        meta: Meta {
            pathvm_version: "0.1.0".into(),
            command: vec!["./tiny".into(), "7".into()],
            env: vec!["PATH=/usr/bin:/bin".into()],
            cpu_model: "haswell-noavx".into(),
            config: vec![("seed".into(), "0".into())],
            objects: vec![
                ObjectInfo {
                    path: "/work/tiny".into(),
                    size: 16000,
                    id: "0123abcd".into(),
                },
                ObjectInfo {
                    path: "/usr/lib/x86_64-linux-gnu/libc.so.6".into(),
                    size: 2000000,
                    id: "feedbeef".into(),
                },
            ],
            stop: "exited with status 0".into(),
            exit_status: 0,
        },
        metrics: vec!["instructions".into(), "l1d-miss".into()],
        totals: vec![270, 33],
        functions: vec![
            function("main", 3, 1, [10, 1], [270, 33]),
            function("a", 10, 2, [20, 2], [120, 12]),
            function("b", 20, 4, [40, 0], [140, 20]),
            function("c", 30, 6, [200, 30], [200, 30]),
        ],
        contexts: ContextTable {
            parent: vec![0, 0, 1, 2, 1, 4],
            function: vec![u32::MAX, 0, 1, 3, 2, 3],
            call_site: vec![0, 0x401000, 0x401010, 0x401100, 0x401020, 0x401200],
            flags: vec![0; 6],
            calls: vec![0, 1, 2, 2, 4, 4],
            self_cost: vec![0, 0, 10, 1, 20, 2, 100, 10, 40, 0, 100, 20],
        },
        paths: tiny_paths(),
        phases: Vec::new(),
        blocks: Default::default(),
        insns: Default::default(),
        inlines: Default::default(),
    }
}

/// [`tiny_profile`] with costs per instruction for `main` and `a`:
/// main's at three instructions (the third, its call of `b`, on a
/// line of `hdr.h`) and one more instruction in main's view than its
/// instructions hold (a PLT stub's), a's at one.
pub fn per_instruction_profile() -> Profile {
    let mut p = tiny_profile();
    p.blocks.files = vec!["tiny.c".into(), "hdr.h".into()];
    let line = |file, line| PathLine { file, line };
    p.blocks.blocks = vec![
        BlockRow {
            start: 0x401000,
            function: 0,
            executions: 1,
            insns: vec![0, 0x10, 0x20],
            lines: vec![line(0, 3), line(0, 4), line(1, 7)],
            cost: vec![9, 1],
        },
        BlockRow {
            start: 0x402000,
            function: 1,
            executions: 2,
            insns: vec![0],
            lines: vec![line(0, 10)],
            cost: vec![20, 2],
        },
    ];
    let rows: [(u64, &[u64]); 4] = [
        (0x401000, &[6, 1]),
        (0x401010, &[2, 0]),
        (0x401020, &[1, 0]),
        (0x402000, &[20, 2]),
    ];
    p.insns = InsnProfile::from_dense(rows, vec![0, 0]);
    p
}

/// [`per_instruction_profile`] with inline frames: main's second
/// instruction in `outer`, inlined at tiny.c:3, and its third in
/// `helper`, inlined into `outer` at hdr.h:5.
pub fn inlined_profile() -> Profile {
    let mut p = per_instruction_profile();
    let outer = ("outer".to_string(), Some(0), 3);
    let helper = ("helper".to_string(), Some(1), 5);
    let chains = [
        (0x401010, vec![outer.clone()]),
        (0x401020, vec![helper, outer]),
    ];
    p.inlines = crate::InlineProfile::from_chains(chains.iter().map(|(a, c)| (*a, c.as_slice())));
    p
}

/// [`tiny_profile`] with two phases: `main` (70, 3: main 10, 1; a 20, 2;
/// b 40, 0) and `work` (200, 30: c 200, 30).
pub fn phased_profile() -> Profile {
    let row = |function: u32, self_cost: [u64; 2]| PhaseFunction {
        function,
        self_cost: self_cost.to_vec(),
    };
    Profile {
        phases: vec![
            Phase {
                name: "main".into(),
                totals: vec![70, 3],
                functions: vec![row(0, [10, 1]), row(1, [20, 2]), row(2, [40, 0])],
            },
            Phase {
                name: "work".into(),
                totals: vec![200, 30],
                functions: vec![row(3, [200, 30])],
            },
        ],
        ..tiny_profile()
    }
}

/// Paths of `c` (function 3) in its two contexts (nodes 3 and 5), which
/// carry all of c's cost: path 0 (blocks 0 -> 1, 4 instructions) sweeps
/// memory and takes all 30 misses; path 1 (blocks 0 -> 2, 2 instructions)
/// misses never.
///
/// | path | ctx | count | instructions | l1d-miss |
/// |------|-----|-------|--------------|----------|
/// | 0    | 3   | 10    | 40           | 10       |
/// | 1    | 3   | 30    | 60           | 0        |
/// | 0    | 5   | 20    | 80           | 20       |
/// | 1    | 5   | 10    | 20           | 0        |
fn tiny_paths() -> PathProfile {
    let block = |start: u64, n: u32, line: u32| PathBlock {
        start,
        insns: (0..n).collect(),
        lines: vec![PathLine { file: 0, line }],
        text: (0..n).map(|i| format!("insn{i}")).collect(),
        insn_lines: vec![0; n as usize],
    };
    let path = |id: u64, blocks: Vec<u32>, length: u64| PathInfo {
        id,
        truncated: false,
        exit: true,
        after: None,
        blocks,
        length,
    };
    let row = |path: u32, context: u32, count: u64, insns: u64, miss: u64| PathRow {
        path,
        context,
        count,
        insns,
        cost: vec![insns, miss],
    };
    PathProfile {
        recorded: true,
        files: vec!["/src/c.c".into()],
        functions: vec![PathFunction {
            function: 3,
            entry: 0x402000,
            numbering: PathNumbering::Numbered { paths: 2 },
            frames: 70,
            blocks: vec![
                block(0x402000, 1, 5),
                block(0x402001, 3, 6),
                block(0x402004, 1, 8),
            ],
            paths: vec![path(0, vec![0, 1], 4), path(1, vec![0, 2], 2)],
            rows: vec![
                row(0, 3, 10, 40, 10),
                row(1, 3, 30, 60, 0),
                row(0, 5, 20, 80, 20),
                row(1, 5, 10, 20, 0),
            ],
            ..PathFunction::default()
        }],
        unattributed_instructions: 0,
    }
}
