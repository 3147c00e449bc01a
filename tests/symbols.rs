//! Symbols that never lie, on stripped programs of the machine (xz,
//! python3, sqlite3 and their libraries, installed by `scripts/setup.sh`
//! without debug files): every instruction the profile's block section
//! charges to a named function lies inside a symbol of that name (or its
//! `.cold` part) as `readelf` lists the object's symbol tables and its
//! separate debug file's; PLT stubs lie in the PLT sections; code outside
//! every symbol is a function `OBJECT+0xOFFSET` that `addr2line` takes,
//! starting where `readelf --debug-dump=frames` says an FDE starts (or at a
//! call target outside every FDE). The loader's code is not used to read
//! the objects.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// What `readelf` says about one object.
#[derive(Default)]
struct Facts {
    /// Symbol name (version suffix cut) -> its ranges: `st_size` bytes, or
    /// for an unsized symbol up to the next symbol or its section's end.
    by_name: BTreeMap<String, Vec<Range<u64>>>,
    /// Sized symbols' ranges.
    sized: Vec<Range<u64>>,
    /// Every symbol's start.
    starts: Vec<u64>,
    /// `.plt`, `.plt.sec`, `.plt.got`.
    plt: Vec<Range<u64>>,
    /// FDE ranges by start.
    fdes: BTreeMap<u64, u64>,
}

fn tool(args: &[&str], file: &Path) -> String {
    let out = Command::new(args[0])
        .args(&args[1..])
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", args[0]));
    // readelf exits with 1 after dumping frames whose debug file it follows
    // has none; what it printed stands.
    assert!(
        out.status.success() || !out.stdout.is_empty(),
        "{args:?} {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn hex(s: &str) -> Option<u64> {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).ok()
}

/// Sections by index: (name, address range, executable).
fn sections(file: &Path) -> BTreeMap<usize, (String, Range<u64>, bool)> {
    let mut out = BTreeMap::new();
    for line in tool(&["readelf", "-SW"], file).lines() {
        let Some(rest) = line.trim_start().strip_prefix('[') else {
            continue;
        };
        let Some((nr, rest)) = rest.split_once(']') else {
            continue;
        };
        let Ok(nr) = nr.trim().parse::<usize>() else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        // Name Type Address Off Size ES Flg Lk Inf Al (Flg may be empty).
        if f.len() < 9 {
            continue;
        }
        let (Some(addr), Some(size)) = (hex(f[2]), hex(f[4])) else {
            continue;
        };
        let exec = f.len() == 10 && f[6].contains('X');
        out.insert(nr, (f[0].to_string(), addr..addr + size, exec));
    }
    out
}

/// Symbols of the executable sections: (start, size, name).
fn symbols(
    file: &Path,
    secs: &BTreeMap<usize, (String, Range<u64>, bool)>,
) -> Vec<(u64, u64, String, usize)> {
    let mut out = Vec::new();
    for line in tool(&["readelf", "-sW"], file).lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 8 || !f[0].ends_with(':') {
            continue;
        }
        if !matches!(f[3], "FUNC" | "IFUNC" | "NOTYPE") {
            continue;
        }
        let (Some(value), Ok(ndx)) = (hex(f[1]), f[6].parse::<usize>()) else {
            continue;
        };
        let size = if let Some(h) = f[2].strip_prefix("0x") {
            hex(h).unwrap()
        } else {
            f[2].parse().unwrap()
        };
        if value == 0 || !secs.get(&ndx).is_some_and(|s| s.2) {
            continue;
        }
        let name = f[7].split('@').next().unwrap().to_string();
        out.push((value, size, name, ndx));
    }
    out
}

/// The separate debug file of `file` by build-id, if installed.
fn debug_file(file: &Path) -> Option<PathBuf> {
    let notes = tool(&["readelf", "-n"], file);
    let id = notes
        .lines()
        .find_map(|l| l.trim().strip_prefix("Build ID: "))?
        .trim()
        .to_string();
    let p = PathBuf::from(format!(
        "/usr/lib/debug/.build-id/{}/{}.debug",
        &id[..2],
        &id[2..]
    ));
    p.exists().then_some(p)
}

fn facts(file: &Path) -> Facts {
    let secs = sections(file);
    let mut syms = symbols(file, &secs);
    if let Some(debug) = debug_file(file) {
        // A debug file's sections are numbered as the object's.
        syms.extend(symbols(&debug, &secs));
    }
    syms.sort();
    syms.dedup();
    let mut facts = Facts::default();
    for (i, (start, size, name, ndx)) in syms.iter().enumerate() {
        let range = if *size > 0 {
            facts.sized.push(*start..start + size);
            *start..start + size
        } else {
            let next = syms[i + 1..]
                .iter()
                .map(|s| s.0)
                .find(|&s| s > *start)
                .unwrap_or(u64::MAX);
            *start..next.min(secs[ndx].1.end)
        };
        facts.starts.push(*start);
        facts.by_name.entry(name.clone()).or_default().push(range);
    }
    facts.plt = secs
        .values()
        .filter(|s| matches!(s.0.as_str(), ".plt" | ".plt.sec" | ".plt.got"))
        .map(|s| s.1.clone())
        .collect();
    for line in tool(&["readelf", "--debug-dump=frames"], file).lines() {
        // `... FDE cie=... pc=0000000000001020..0000000000001060`
        let Some(pc) = line.split_once(" pc=").map(|(_, pc)| pc) else {
            continue;
        };
        let Some((a, b)) = pc.trim().split_once("..") else {
            continue;
        };
        if let (Some(a), Some(b)) = (hex(a), hex(b)) {
            facts.fdes.insert(a, b);
        }
    }
    facts
}

impl Facts {
    /// The ranges a function of this name may have instructions in.
    fn ranges_of(&self, name: &str) -> Vec<Range<u64>> {
        if name == ".plt" || name.ends_with("@plt") {
            return self.plt.clone();
        }
        let base = name.split('@').next().unwrap();
        self.by_name
            .iter()
            .filter(|(n, _)| {
                n.as_str() == base
                    || n.split_once(".cold")
                        .is_some_and(|(parent, _)| parent == base)
            })
            .flat_map(|(_, r)| r.iter().cloned())
            .collect()
    }

    fn in_sized(&self, a: u64) -> bool {
        self.sized.iter().any(|r| r.contains(&a))
    }
}

/// `OBJECT+0xOFFSET` split, when `name` has that form for `object`.
fn offset_of(name: &str, object: &str) -> Option<u64> {
    let (base, off) = name.rsplit_once("+0x")?;
    let file = Path::new(object).file_name()?.to_str()?;
    (base == file).then(|| u64::from_str_radix(off, 16).ok())?
}

/// Runs `program` under pathvm, compares its output with a native run's,
/// and checks the profile as the module's comment says.
fn check(name: &str, program: &str, args: &[&str]) {
    let program = Path::new(program);
    if !program.exists() {
        eprintln!(
            "skipped {name}: {} not installed (scripts/setup.sh)",
            program.display()
        );
        return;
    }
    for t in ["readelf", "addr2line"] {
        if !have(t) {
            eprintln!("skipped {name}: {t} not installed");
            return;
        }
    }
    let dir = scratch(&format!("symbols_{name}"));
    let out = dir.join("p.out");
    let o = run_with(&out, &["--no-paths"], program, args);
    let native = run_native(program, args);
    assert_eq!(
        o.status.code(),
        native.status.code(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.stdout, native.stdout);
    let p = reports::read_profile(&out).unwrap();

    let mut objects: BTreeMap<&str, Facts> = BTreeMap::new();
    for f in &p.functions {
        if !objects.contains_key(f.object.as_str()) && Path::new(&f.object).exists() {
            objects.insert(&f.object, facts(Path::new(&f.object)));
        }
    }
    // Blocks per function row.
    let mut blocks: BTreeMap<u32, Vec<&reports::BlockRow>> = BTreeMap::new();
    for b in &p.blocks.blocks {
        blocks.entry(b.function).or_default().push(b);
    }
    // Each object's load bias: the one that puts named functions' entry
    // blocks at their symbols' starts (and unnamed ones' at their offsets).
    let mut votes: BTreeMap<&str, BTreeMap<u64, u32>> = BTreeMap::new();
    for (i, f) in p.functions.iter().enumerate() {
        let Some(facts) = objects.get(f.object.as_str()) else {
            continue;
        };
        let starts: Vec<u64> = match offset_of(&f.name, &f.object) {
            Some(off) => vec![off],
            None => facts.ranges_of(&f.name).iter().map(|r| r.start).collect(),
        };
        for b in blocks.get(&(i as u32)).into_iter().flatten() {
            for s in &starts {
                let bias = b.start.wrapping_sub(*s);
                if bias % 4096 == 0 {
                    *votes.entry(&f.object).or_default().entry(bias).or_default() += 1;
                }
            }
        }
    }
    let bias: BTreeMap<&str, u64> = votes
        .iter()
        .map(|(o, v)| (*o, *v.iter().max_by_key(|(_, n)| **n).unwrap().0))
        .collect();

    let (mut named, mut by_fde, mut by_call, mut insns) = (0, 0, 0, 0u64);
    let mut fallen = 0u64;
    for (i, f) in p.functions.iter().enumerate() {
        assert!(
            !f.name.starts_with("0x"),
            "{} in {} named by address",
            f.name,
            f.object
        );
        let Some(facts) = objects.get(f.object.as_str()) else {
            panic!("{}: object {} not found", f.name, f.object);
        };
        let rows = blocks.get(&(i as u32)).map(Vec::as_slice).unwrap_or(&[]);
        let bias = bias.get(f.object.as_str()).copied();
        let addrs = || {
            rows.iter()
                .flat_map(|b| b.insns.iter().map(|&o| b.start + o as u64))
                .map(|a| a.wrapping_sub(bias.expect("a bias for an object with blocks")))
        };
        if let Some(off) = offset_of(&f.name, &f.object) {
            // Code outside every symbol, named by its file offset.
            assert!(
                !facts.in_sized(off) && !facts.starts.contains(&off),
                "{} is inside a symbol",
                f.name
            );
            let a2l = Command::new("addr2line")
                .args(["-f", "-e", &f.object, &format!("{off:#x}")])
                .output()
                .unwrap();
            assert!(
                a2l.status.success() && a2l.stderr.is_empty(),
                "addr2line {}",
                f.name
            );
            assert_eq!(String::from_utf8_lossy(&a2l.stdout).lines().count(), 2);
            let fde = facts
                .fdes
                .range(..=off)
                .next_back()
                .filter(|(_, &e)| off < e);
            match fde {
                Some((&s, &e)) => {
                    // Its FDE's start, or where a symbol inside the FDE ends.
                    assert!(
                        s == off || facts.sized.iter().any(|r| r.end == off),
                        "{}: FDE {s:#x}..{e:#x}",
                        f.name
                    );
                    for a in addrs() {
                        assert!(
                            (off..e).contains(&a) && !facts.in_sized(a),
                            "{} at {a:#x}",
                            f.name
                        );
                        insns += 1;
                    }
                    by_fde += 1;
                }
                None => {
                    // A call target: a function of the tracker, without blocks of its own.
                    assert!(rows.is_empty(), "{}", f.name);
                    by_call += 1;
                }
            }
            continue;
        }
        let ranges = facts.ranges_of(&f.name);
        assert!(
            !ranges.is_empty(),
            "{} has no symbol in {}",
            f.name,
            f.object
        );
        for a in addrs() {
            // A block that falls through the end of its function into the
            // next symbol (glibc's `__strncasecmp_sse42` runs on into
            // `__strncasecmp_l_sse42`) is one block, named by its first
            // instruction; the function view charges the instructions past
            // the end to the next function. Anything else outside is wrong.
            let inside = ranges.iter().any(|r| r.contains(&a));
            let fell_through = ranges
                .iter()
                .any(|r| a >= r.end && facts.starts.iter().any(|&s| (r.end..=a).contains(&s)));
            assert!(
                inside || fell_through,
                "{} ({}): instruction at {a:#x} outside {ranges:x?}",
                f.name,
                f.object
            );
            fallen += u64::from(!inside);
            insns += 1;
        }
        named += 1;
    }
    eprintln!(
        "{name}: {named} named functions, {by_fde} unnamed by FDE, {by_call} unnamed call targets; \
         {insns} instructions of {} blocks checked in {} objects \
         ({fallen} past their function's end in a block falling into the next symbol)",
        p.blocks.blocks.len(),
        objects.len()
    );
    assert!(by_fde > 0, "no stripped function found");
}

#[test]
fn stripped_xz_functions_lie_inside_their_symbols() {
    let dir = scratch("symbols_xz_input");
    let input = dir.join("in.txt");
    let text: String = (0..4000)
        .map(|i| format!("line {i} of {}\n", i * 7919 % 1000))
        .collect();
    std::fs::write(&input, text).unwrap();
    check("xz", "/usr/bin/xz", &["-9", "-c", input.to_str().unwrap()]);
}

#[test]
fn stripped_python3_functions_lie_inside_their_symbols() {
    check(
        "python3",
        "/usr/bin/python3",
        &["-S", "-c", "print(sum(i * i for i in range(3000)))"],
    );
}

#[test]
fn stripped_sqlite3_functions_lie_inside_their_symbols() {
    check(
        "sqlite3",
        "/usr/bin/sqlite3",
        &[
            ":memory:",
            "create table t(a, b); \
             with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000) \
             insert into t select x, x * x from c; \
             select count(*), sum(b) from t where a % 3 = 0;",
        ],
    );
}
