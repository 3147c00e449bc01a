//! Exports read by the tools they are for.

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::*;

#[test]
fn callgrind_annotate_reads_every_export_and_agrees() {
    if !have("callgrind_annotate") {
        eprintln!("skipped: callgrind_annotate not installed");
        return;
    }
    let dir = scratch("export");
    for prog in [
        "hello-O2",
        "work-O2",
        "fig1-O2",
        "longjmp-O2",
        "except-O2",
        "tailcall-O2",
        "files-O2",
        "count",
    ] {
        let profile = dir.join(format!("{prog}.out"));
        run_pathvm(&profile, &guest(prog), &[]);
        let cg = dir.join(format!("{prog}.callgrind"));
        export(
            &profile,
            &["--format", "callgrind", "-o", cg.to_str().unwrap()],
        );
        let ann = Command::new("callgrind_annotate")
            .args(["--inclusive=no", "--threshold=100", "--auto=no"])
            .arg(&cg)
            .output()
            .unwrap();
        assert!(ann.status.success());
        let stderr = String::from_utf8_lossy(&ann.stderr);
        assert!(
            !stderr.to_lowercase().contains("warning"),
            "{prog}: {stderr}"
        );
        let text = String::from_utf8_lossy(&ann.stdout);
        // The program total equals pathvm's total instructions.
        let total = report_json(&profile, &[])["totals"]["instructions"]
            .as_u64()
            .unwrap();
        let line = text
            .lines()
            .find(|l| l.contains("PROGRAM TOTALS"))
            .expect("totals line");
        let first: u64 = line
            .split_whitespace()
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert_eq!(first, total, "{prog}");
    }
}

#[test]
fn folded_and_flamegraph() {
    let dir = scratch("flame");
    let profile = dir.join("fig1.out");
    run_pathvm(&profile, &guest("fig1-O2"), &[]);
    let folded = export(&profile, &["--format", "folded"]);
    let folded = String::from_utf8_lossy(&folded);
    let c_under_a: u64 = folded
        .lines()
        .filter(|l| l.contains(";main;a;f;c ") || l.contains(";main;a;f;c;d "))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert!(c_under_a > 30_000_000, "{folded}");
    let total: u64 = folded
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(
        total,
        report_json(&profile, &[])["totals"]["instructions"]
            .as_u64()
            .unwrap()
    );
    let svg = dir.join("fig1.svg");
    export(
        &profile,
        &[
            "--format",
            "flamegraph",
            "--metric",
            "l1d-miss",
            "-o",
            svg.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("main"));
    // The title names the metric drawn.
    assert!(text.contains("(l1d-miss)</text>"), "no metric in the title");
}

/// Folded stacks of one metric without the `<root>;` prefix (the root
/// context's own cost stays `<root>`), summed per stack.
fn folded_map(profile: &std::path::Path, metric: &str) -> std::collections::BTreeMap<String, u64> {
    let folded = export(profile, &["--format", "folded", "--metric", metric]);
    let mut map = std::collections::BTreeMap::new();
    for line in String::from_utf8_lossy(&folded).lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        let stack = stack.strip_prefix("<root>;").unwrap_or(stack).to_string();
        *map.entry(stack).or_insert(0) += n.parse::<u64>().unwrap();
    }
    map
}

/// `;`-joined and escaped as the folded export names frames.
fn folded_frame(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == ';' || c.is_whitespace() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn speedscope_and_pprof_agree_with_the_profile() {
    let dir = scratch("speedscope-pprof");
    let profile = dir.join("fig1.out");
    let out = run_pathvm(&profile, &guest("fig1-O2"), &[]);
    assert!(out.status.success());
    let prof = reports::read_profile(&profile).unwrap();
    let metrics = prof.metrics.clone();
    let total_of = |m: &str| prof.totals[prof.metric_index(m).unwrap()];
    assert!(metrics.len() > 5, "{metrics:?}");

    // speedscope: one sampled profile per metric whose weights add up to
    // the total and whose stacks are the folded stacks.
    let ss: serde_json::Value =
        serde_json::from_slice(&export(&profile, &["--format", "speedscope"])).unwrap();
    assert_eq!(
        ss["$schema"],
        "https://www.speedscope.app/file-format-schema.json"
    );
    let frames = ss["shared"]["frames"].as_array().unwrap();
    assert!(frames.iter().all(|f| f["name"].is_string()));
    let profiles = ss["profiles"].as_array().unwrap();
    assert_eq!(profiles.len(), metrics.len());
    for p in profiles {
        let metric = p["name"].as_str().unwrap();
        assert_eq!(p["type"], "sampled");
        let unit = if metric == "alloc-bytes" {
            "bytes"
        } else {
            "none"
        };
        assert_eq!(p["unit"], unit, "{metric}");
        assert_eq!(p["startValue"], 0);
        let weights = p["weights"].as_array().unwrap();
        let samples = p["samples"].as_array().unwrap();
        assert_eq!(weights.len(), samples.len());
        let sum: u64 = weights.iter().map(|w| w.as_u64().unwrap()).sum();
        assert_eq!(sum, total_of(metric), "{metric}");
        assert_eq!(p["endValue"].as_u64().unwrap(), sum);
        let mut stacks = std::collections::BTreeMap::new();
        for (s, w) in samples.iter().zip(weights) {
            let names: Vec<String> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    folded_frame(
                        frames[i.as_u64().unwrap() as usize]["name"]
                            .as_str()
                            .unwrap(),
                    )
                })
                .collect();
            *stacks.entry(names.join(";")).or_insert(0) += w.as_u64().unwrap();
        }
        assert_eq!(stacks, folded_map(&profile, metric), "{metric}");
    }
    let one: serde_json::Value = serde_json::from_slice(&export(
        &profile,
        &["--format", "speedscope", "--metric", "l1d-miss"],
    ))
    .unwrap();
    assert_eq!(one["profiles"].as_array().unwrap().len(), 1);
    assert_eq!(one["profiles"][0]["name"], "l1d-miss");

    // pprof: every metric a sample type, sums equal the totals, and the
    // stacks (leaf first) are the folded stacks reversed.
    let path = dir.join("fig1.pb.gz");
    let bytes = export(&profile, &["--format", "pprof", "--metric", "l1d-miss"]);
    std::fs::write(&path, &bytes).unwrap();
    let pp = reports::export_pprof::read_pprof(&bytes).unwrap();
    let s = |i: i64| pp.string_table[i as usize].as_str();
    let types: Vec<&str> = pp.sample_type.iter().map(|t| s(t.r#type)).collect();
    assert_eq!(
        types,
        metrics.iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(s(pp.default_sample_type), "l1d-miss");
    let name_of = |loc: u64| -> String {
        let l = pp.location.iter().find(|l| l.id == loc).unwrap();
        let f = pp
            .function
            .iter()
            .find(|f| f.id == l.line[0].function_id)
            .unwrap();
        folded_frame(s(f.name))
    };
    for (k, metric) in metrics.iter().enumerate() {
        let sum: i64 = pp.sample.iter().map(|x| x.value[k]).sum();
        assert_eq!(sum as u64, total_of(metric), "{metric}");
        let mut stacks = std::collections::BTreeMap::new();
        for x in pp.sample.iter().filter(|x| x.value[k] != 0) {
            let mut names: Vec<String> = x.location_id.iter().map(|&l| name_of(l)).collect();
            names.reverse();
            *stacks.entry(names.join(";")).or_insert(0u64) += x.value[k] as u64;
        }
        assert_eq!(stacks, folded_map(&profile, metric), "{metric}");
    }
    // A known context: c called by f called by a called by main (figure 1
    // of the csprof paper), leaf first; its cost is spread over c's
    // instructions, one sample each.
    let known: Vec<&reports::export_pprof::proto::Sample> = pp
        .sample
        .iter()
        .filter(|x| {
            let names: Vec<String> = x.location_id.iter().take(4).map(|&l| name_of(l)).collect();
            names == ["c", "f", "a", "main"]
        })
        .collect();
    assert!(!known.is_empty(), "a sample for main → a → f → c");
    // One call of c(1): 2,000,000 iterations of a loop of at least 4
    // instructions (the call of d, the increment, compare, branch).
    let known_instructions: i64 = known.iter().map(|x| x.value[0]).sum();
    assert!(known_instructions >= 8_000_000, "{known_instructions}");
    let c = pp.function.iter().find(|f| s(f.name) == "c").unwrap();
    assert!(s(c.filename).ends_with("fig1.c"), "{}", s(c.filename));
    assert!(c.start_line > 0);

    if !have("go") {
        println!("skipped go tool pprof: go is not installed");
        return;
    }
    let top = Command::new("go")
        .args(["tool", "pprof", "-top", "-sample_index=instructions"])
        .arg(&path)
        .env("HOME", &dir)
        .env("PPROF_TMPDIR", &dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&top.stdout);
    assert!(
        top.status.success(),
        "{}{text}",
        String::from_utf8_lossy(&top.stderr)
    );
    let total = total_of("instructions");
    assert!(
        text.contains(&format!(" of {total} total")),
        "go tool pprof -top:\n{text}"
    );
    // c's flat cost: the self cost of its contexts.
    let c_row = prof.functions.iter().position(|f| f.name == "c").unwrap() as u32;
    let c_flat: u64 = (0..prof.contexts.len())
        .filter(|&n| prof.contexts.function[n] == c_row)
        .map(|n| prof.contexts.self_of(n, metrics.len())[0])
        .sum();
    let line = text
        .lines()
        .find(|l| l.trim_end().ends_with(" c"))
        .unwrap_or_else(|| panic!("no row for c:\n{text}"));
    assert_eq!(
        line.split_whitespace()
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap(),
        c_flat,
        "{text}"
    );
}

/// Validates the JSON file `doc` against the draft-07 JSON schema `schema`
/// with python3's `jsonschema` module: the messages of its errors (none
/// when valid), or `None` when python3 or the module is missing.
fn schema_errors(schema: &std::path::Path, doc: &std::path::Path) -> Option<Vec<String>> {
    const SCRIPT: &str = "import json, sys
try:
    import jsonschema
except ImportError:
    sys.exit(3)
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
for e in jsonschema.Draft7Validator(schema).iter_errors(json.load(open(sys.argv[2]))):
    print(e.message)
";
    let out = Command::new("python3")
        .args(["-c", SCRIPT])
        .args([schema, doc])
        .output()
        .ok()?;
    if out.status.code() == Some(3) {
        return None;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect(),
    )
}

/// `pathvm export --format bmf FILE` into `dir/NAME.json`, parsed.
fn bmf_of(profile: &std::path::Path, json: &std::path::Path) -> serde_json::Value {
    export(profile, &["--format", "bmf", "-o", json.to_str().unwrap()]);
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

#[test]
fn bmf_is_valid_bencher_json_with_one_benchmark_per_phase() {
    let dir = scratch("bmf");
    let schema = repo().join("tests/data/bmf.schema.json");
    // Phases `main`, `work`, `stopped` and `tail`, every metric of each.
    let phased = dir.join("phases.out");
    let out = run_pathvm(&phased, &guest("phases-O2"), &["1000", "1000"]);
    assert_eq!(out.status.code(), Some(3));
    let bmf = bmf_of(&phased, &dir.join("phases.json"));
    let report = report_json(&phased, &["--phases"]);
    let expected: serde_json::Map<String, serde_json::Value> = report["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let measures: serde_json::Map<String, serde_json::Value> = p["totals"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(m, v)| (m.clone(), serde_json::json!({ "value": v })))
                .collect();
            (p["phase"].as_str().unwrap().to_string(), measures.into())
        })
        .collect();
    assert_eq!(bmf, serde_json::Value::Object(expected));
    // In the order the phases ran.
    let text = std::fs::read_to_string(dir.join("phases.json")).unwrap();
    let at: Vec<usize> = ["main", "work", "stopped", "tail"]
        .iter()
        .map(|n| text.find(&format!("\n  \"{n}\": {{")).expect(n))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(bmf["work"]["l1d-miss"]["value"].is_u64(), "{bmf}");
    // Without markers: one benchmark named after the program.
    let plain = dir.join("diffwork.out");
    assert!(run_pathvm(&plain, &guest("diffwork-O2"), &[])
        .status
        .success());
    let whole = bmf_of(&plain, &dir.join("diffwork.json"));
    assert_eq!(
        whole.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["diffwork-O2"]
    );
    assert_eq!(
        whole["diffwork-O2"]["instructions"]["value"],
        report_json(&plain, &[])["totals"]["instructions"]
    );
    // `--metric` has no meaning here: a one-line error.
    let out = Command::new(pathvm())
        .arg("export")
        .arg(&plain)
        .args(["--format", "bmf", "--metric", "instructions"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pathvm: --metric: --format bmf writes every metric\n"
    );
    // Nor has `--paths` outside the callgrind format.
    let out = Command::new(pathvm())
        .arg("export")
        .arg(&plain)
        .args(["--format", "folded", "--paths"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pathvm: --paths applies to --format callgrind only\n"
    );

    // Bencher's schema accepts both, and rejects what it should (so that
    // a validator that accepts anything cannot pass this test).
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        format!(
            r#"{{"b": {{"instructions": {{"value": "7"}}}}, "c": {{"{}": {{"value": 1}}}}}}"#,
            "m".repeat(65)
        ),
    )
    .unwrap();
    let Some(errors) = schema_errors(&schema, &bad) else {
        eprintln!("skipped: python3's jsonschema module is not installed");
        return;
    };
    assert_eq!(errors.len(), 2, "{errors:?}");
    for json in ["phases.json", "diffwork.json"] {
        assert_eq!(
            schema_errors(&schema, &dir.join(json)),
            Some(vec![]),
            "{json}"
        );
    }
}

/// Self cost per source line of the files whose name ends with `file`, in a
/// callgrind profile (`positions: instr line` or `line`, compressed or
/// not, as callgrind and pathvm write them): per line, event name → count.
/// The cost line after `calls=` is a call's inclusive cost, not the line's
/// own, and is left out.
fn callgrind_self_lines(text: &str, file: &str) -> BTreeMap<u64, BTreeMap<String, u64>> {
    let mut events: Vec<String> = Vec::new();
    let mut positions = 1;
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut current = String::new();
    let mut prev = [0i64; 2];
    let mut after_calls = false;
    let mut out: BTreeMap<u64, BTreeMap<String, u64>> = BTreeMap::new();
    // `(id) name` defines a file name, `(id)` refers to one.
    let mut file_name = |spec: &str| -> String {
        match spec
            .trim()
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
        {
            Some((id, rest)) if !rest.trim().is_empty() => {
                files.insert(id.to_string(), rest.trim().to_string());
                rest.trim().to_string()
            }
            Some((id, _)) => files[id].clone(),
            None => spec.trim().to_string(),
        }
    };
    for l in text.lines() {
        if let Some(e) = l.strip_prefix("events:") {
            events = e.split_whitespace().map(str::to_string).collect();
        } else if let Some(p) = l.strip_prefix("positions:") {
            positions = p.split_whitespace().count();
        } else if let Some(f) = ["fl=", "fi=", "fe="].iter().find_map(|k| l.strip_prefix(k)) {
            current = file_name(f);
        } else if let Some(f) = l.strip_prefix("cfi=").or_else(|| l.strip_prefix("cfl=")) {
            file_name(f);
        } else if l.starts_with("calls=") {
            after_calls = true;
        } else if l.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            let tokens: Vec<&str> = l.split_whitespace().collect();
            for (k, t) in tokens[..positions].iter().enumerate() {
                prev[k] = match t.as_bytes()[0] {
                    b'*' => prev[k],
                    b'+' => prev[k] + t[1..].parse::<i64>().unwrap(),
                    b'-' => prev[k] - t[1..].parse::<i64>().unwrap(),
                    _ => match t.strip_prefix("0x") {
                        Some(hex) => i64::from_str_radix(hex, 16).unwrap(),
                        None => t.parse().unwrap(),
                    },
                };
            }
            if std::mem::take(&mut after_calls) || !current.ends_with(file) {
                continue;
            }
            let line = out.entry(prev[positions - 1] as u64).or_default();
            for (e, v) in events.iter().zip(&tokens[positions..]) {
                *line.entry(e.clone()).or_default() += v.parse::<u64>().unwrap();
            }
        }
    }
    out
}

/// Runs `program args` under `valgrind` (the command given, with its
/// environment) as callgrind with costs per instruction and pathvm's cache
/// geometry, writing `out`; PLT stubs' costs stay on the stubs.
fn callgrind_per_instruction(
    mut valgrind: Command,
    program: &std::path::Path,
    args: &[&str],
    out: &std::path::Path,
) {
    let vg = valgrind
        .args([
            "--tool=callgrind",
            "--dump-instr=yes",
            "--cache-sim=yes",
            "--skip-plt=no",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            "--LL=8388608,16,64",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(program)
        .args(args)
        .output()
        .unwrap();
    assert!(
        vg.status.success(),
        "{}",
        String::from_utf8_lossy(&vg.stderr)
    );
}

/// The callgrind export puts every cost on its instruction and line: per
/// line of cachetest.c, its self `Ir` equals callgrind's
/// (`--dump-instr=yes --cache-sim=yes`, pathvm's cache geometry) on every
/// line and its `D1mr` and `D1mw` on every line where either tool counts at
/// least 100 (the kernels'; the few cold misses of the other lines depend
/// on where each tool puts the stack, as in `lines.rs`).
///
/// Callgrind runs with `--skip-plt=no`: by default it charges a PLT stub's
/// instructions (and the lazy binder's jumps) to the call's line, which the
/// profile cannot place (a stub's cost is its caller's, but not per call
/// site); the export writes that part of a function's cost at its entry
/// with no line (line 0), so every line with a number compares like with
/// like. `callgrind_annotate --auto=yes` then prints each kernel line's
/// count beside its source text.
#[test]
fn callgrind_export_costs_lines_as_callgrind() {
    if !have("valgrind") || !have("callgrind_annotate") {
        eprintln!("skipped: valgrind or callgrind_annotate is not installed");
        return;
    }
    let dir = scratch("export-lines");
    let prog = guest("cachetest-O2");
    let source = std::fs::read_to_string(repo().join("guest-programs/cachetest.c")).unwrap();
    for mode in ["naive", "list"] {
        let profile = dir.join(format!("{mode}.out"));
        run_ok(&profile, &prog, &[mode]);
        let ours = dir.join(format!("{mode}.callgrind"));
        let st = Command::new(pathvm())
            .arg("export")
            .arg(&profile)
            .args(["--format", "callgrind", "-o"])
            .arg(&ours)
            .status()
            .unwrap();
        assert!(st.success());
        let theirs = dir.join(format!("{mode}.valgrind"));
        callgrind_per_instruction(Command::new("valgrind"), &prog, &[mode], &theirs);
        let ours_text = std::fs::read_to_string(&ours).unwrap();
        assert!(ours_text.contains("\npositions: instr line\n"));
        let ours = callgrind_self_lines(&ours_text, "cachetest.c");
        let theirs =
            callgrind_self_lines(&std::fs::read_to_string(&theirs).unwrap(), "cachetest.c");
        let get = |m: &BTreeMap<u64, BTreeMap<String, u64>>, line: u64, e: &str| {
            m.get(&line).and_then(|c| c.get(e)).copied().unwrap_or(0)
        };
        let lines: std::collections::BTreeSet<u64> = ours
            .keys()
            .chain(theirs.keys())
            .copied()
            .filter(|&l| l > 0)
            .collect();
        let (mut hot, mut missed) = ((0, 0), 0);
        for &line in &lines {
            let ir = get(&ours, line, "Ir");
            assert_eq!(ir, get(&theirs, line, "Ir"), "{mode}: Ir of line {line}");
            for e in ["D1mr", "D1mw"] {
                let (o, t) = (get(&ours, line, e), get(&theirs, line, e));
                if o >= 100 || t >= 100 {
                    assert_eq!(o, t, "{mode}: {e} of line {line}");
                    missed += 1;
                }
            }
            if ir > hot.1 {
                hot = (line, ir);
            }
        }
        assert!(lines.len() >= 10 && missed >= 1, "{mode}: {lines:?}");
        // callgrind_annotate shows the hottest line's count beside its text.
        let ann = Command::new("callgrind_annotate")
            .args(["--auto=yes", "--show=Ir", "--threshold=100"])
            .arg(dir.join(format!("{mode}.callgrind")))
            .output()
            .unwrap();
        assert!(ann.status.success());
        let text = String::from_utf8_lossy(&ann.stdout);
        let src_line = source.lines().nth(hot.0 as usize - 1).unwrap().trim();
        let count = hot.1.to_string();
        let mut grouped = String::new();
        for (i, c) in count.chars().enumerate() {
            if i > 0 && (count.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&grouped) && l.trim_end().ends_with(src_line)),
            "{mode}: no annotated line `{grouped} ... {src_line}`:\n{text}"
        );
    }
}

/// A real program with debug information: coreutils' `seq` printing
/// 20,001 fractions spends most of its instructions in glibc's
/// `printf_fp.c`, `strtod_l.c`, `vfprintf-internal.c` and libio, whose
/// lines come from Debian's debug symbols (libc6-dbg). Per line of those
/// files, the callgrind export's self `Ir` equals callgrind's
/// (`--dump-instr=yes --skip-plt=no`, the guest's fixed environment), and
/// its `D1mr` and `D1mw` on every line where either counts at least 100
/// (none here: seq's data stays in the L1D; cachetest's test above
/// compares the misses of kernels that miss).
/// The dynamic loader's and the string functions' lines are left out: under
/// valgrind the loader also maps valgrind's preloaded objects, and glibc
/// chooses its string functions by the CPU it sees.
#[test]
fn callgrind_export_costs_a_real_programs_lines_as_callgrind() {
    if !have("valgrind") || !have("seq") {
        eprintln!("skipped: valgrind or seq is not installed");
        return;
    }
    if !std::path::Path::new("/usr/share/doc/libc6-dbg").is_dir() {
        eprintln!("skipped: libc6-dbg (glibc's debug symbols) is not installed");
        return;
    }
    let dir = scratch("export-real-lines");
    let seq = which("seq").unwrap();
    let args = ["0", "0.25", "5000"];
    let profile = dir.join("seq.out");
    run_ok(&profile, &seq, &args);
    let ours = dir.join("seq.callgrind");
    let st = Command::new(pathvm())
        .arg("export")
        .arg(&profile)
        .args(["--format", "callgrind", "-o"])
        .arg(&ours)
        .status()
        .unwrap();
    assert!(st.success());
    let theirs = dir.join("seq.valgrind");
    let mut vg = Command::new("valgrind");
    vg.env_clear().envs(GUEST_ENV.iter().copied());
    callgrind_per_instruction(vg, &seq, &args, &theirs);
    let (ours, theirs) = (
        std::fs::read_to_string(&ours).unwrap(),
        std::fs::read_to_string(&theirs).unwrap(),
    );
    let get = |m: &BTreeMap<u64, BTreeMap<String, u64>>, line: u64, e: &str| {
        m.get(&line).and_then(|c| c.get(e)).copied().unwrap_or(0)
    };
    let (mut lines, mut instructions, mut missed) = (0, 0, 0);
    for file in [
        "stdio-common/printf_fp.c",
        "stdio-common/vfprintf-internal.c",
        "stdlib/strtod_l.c",
        "libio/genops.c",
        "libio/fileops.c",
    ] {
        let (o, t) = (
            callgrind_self_lines(&ours, file),
            callgrind_self_lines(&theirs, file),
        );
        let numbered: std::collections::BTreeSet<u64> = o
            .keys()
            .chain(t.keys())
            .copied()
            .filter(|&l| l > 0)
            .collect();
        for &line in &numbered {
            let ir = get(&o, line, "Ir");
            assert_eq!(ir, get(&t, line, "Ir"), "Ir of {file}:{line}");
            for e in ["D1mr", "D1mw"] {
                let (a, b) = (get(&o, line, e), get(&t, line, e));
                if a >= 100 || b >= 100 {
                    assert_eq!(a, b, "{e} of {file}:{line}");
                    missed += 1;
                }
            }
            instructions += ir;
        }
        lines += numbered.len();
    }
    eprintln!("{lines} lines, {instructions} instructions, {missed} lines with 100 misses or more");
    assert!(
        lines >= 300 && instructions >= 10_000_000,
        "{lines} lines, {instructions}"
    );
}

/// pprof's locations are instructions at their source lines: per line of
/// cachetest.c, the samples' leaf values add up to `report --by line`'s
/// (instructions and L1D read misses, which `lines.rs` compares with
/// cachegrind), and `go tool pprof -list mm_naive` prints the hottest
/// line's count beside its source text (when go is installed).
#[test]
fn pprof_costs_lines_as_the_line_view() {
    let dir = scratch("pprof-lines");
    let profile = dir.join("naive.out");
    let out = run_pathvm(&profile, &guest("cachetest-O2"), &["naive"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = export(&profile, &["--format", "pprof"]);
    let pp = reports::export_pprof::read_pprof(&bytes).unwrap();
    let s = |i: i64| pp.string_table[i as usize].as_str();
    let col = |name: &str| {
        pp.sample_type
            .iter()
            .position(|t| s(t.r#type) == name)
            .unwrap()
    };
    let (ir, d1mr) = (col("instructions"), col("l1d-read-miss"));
    let mut ours: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    for sample in &pp.sample {
        let loc = pp
            .location
            .iter()
            .find(|l| l.id == sample.location_id[0])
            .unwrap();
        let f = pp
            .function
            .iter()
            .find(|f| f.id == loc.line[0].function_id)
            .unwrap();
        if loc.address != 0 && s(f.filename).ends_with("/cachetest.c") {
            let e = ours.entry(loc.line[0].line as u64).or_default();
            e.0 += sample.value[ir] as u64;
            e.1 += sample.value[d1mr] as u64;
        }
    }
    let report = report_json(&profile, &["--by", "line", "--top", "0"]);
    let mut theirs: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    for r in report["rows"].as_array().unwrap() {
        if r["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("/cachetest.c"))
        {
            let c = &r["cost"];
            theirs.insert(
                r["line"].as_u64().unwrap(),
                (
                    c["instructions"].as_u64().unwrap(),
                    c["l1d-read-miss"].as_u64().unwrap(),
                ),
            );
        }
    }
    assert!(theirs.len() >= 10, "{theirs:?}");
    assert_eq!(ours, theirs);
    if !have("go") {
        println!("skipped go tool pprof -list: go is not installed");
        return;
    }
    let file = dir.join("naive.pb.gz");
    std::fs::write(&file, &bytes).unwrap();
    let list = Command::new("go")
        .args([
            "tool",
            "pprof",
            "-list",
            "mm_naive",
            "-sample_index=instructions",
        ])
        .arg(&file)
        .env("HOME", &dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let (line, (count, _)) = theirs.iter().max_by_key(|(_, c)| c.0).unwrap();
    assert!(
        text.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() > 2 && w[0] == count.to_string() && w[2].starts_with(&format!("{line}:"))
        }),
        "no line {line} with {count} in go tool pprof -list:\n{text}"
    );
}
