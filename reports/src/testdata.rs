//! Hand-built profiles the tests share.

use crate::profile::{ContextTable, FunctionRow, Meta, ObjectInfo, Phase, PhaseFunction, Profile};

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
        phases: Vec::new(),
    }
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
