#!/usr/bin/env python3
"""Benchmark: pathvm against native, qemu-x86_64 and callgrind, side by side.

Each program of the suite runs natively, under qemu-x86_64, under pathvm in
four modes (instructions only; + calling context tree; + paths; + cache and
branch simulation, the default) and under valgrind's callgrind without and
with cache and branch simulation (same geometry as pathvm's defaults),
alternating tools within each round. It prints the median wall time of the
rounds, the peak memory (getrusage of the child), each pathvm mode against
its callgrind counterpart and against native, with geometric means and the
targets.

Usage: scripts/bench.py [--rounds N] [--no-callgrind] [--only NAME,...] [--tools TOOL,...] [--plain]
                          [--pathvm BIN] [--baseline BIN]

--baseline BIN runs each pathvm mode with BIN too, right after the measured
binary within each round (a paired before/after comparison in one session),
and prints the ratio of the two per program and mode.

pathvm is the profile-guided build of scripts/pgo.sh (made only when
missing: run the script again after changing the code); --plain measures
target/release/pathvm instead, --pathvm BIN the binary BIN.
"""
import argparse, math, os, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The binary measured: built with profile-guided optimization
# (scripts/pgo.sh), or a plain release build with --plain.
PATHVM_PGO = os.path.join(ROOT, "target", "pgo", "release", "pathvm")
PATHVM_PLAIN = os.path.join(ROOT, "target", "release", "pathvm")


def inputs(d):
    """A 12 MB text and its first 3 MB (for the slower compressors)."""
    text, small = os.path.join(d, "text.txt"), os.path.join(d, "small.txt")
    with open(text, "w") as f, open(small, "w") as g:
        for i in range(300000):
            line = f"{(i * 7919) % 100003} line {i} of the benchmark input\n"
            f.write(line)
            if i < 75000:
                g.write(line)
    return text, small


def programs(d):
    """The suite's own programs, built with gcc -O2: figure 1 of csprof
    (8 million calls of a tiny function; call-heavy) and an SSE2 matrix
    multiply (vector-heavy), that one also with -march=x86-64-v3 (its
    intrinsics become VEX instructions, the multiply and add FMA; run under
    pathvm's x86-64-v3 model). None is in scripts/pgo.sh's training set."""
    built = {}
    matmul = os.path.join(ROOT, "scripts", "bench", "matmul.c")
    for name, src, flags in [("fig1", os.path.join(ROOT, "guest-programs", "fig1.c"), []),
                             ("matmul", matmul, []),
                             ("matmul-v3", matmul, ["-march=x86-64-v3"])]:
        exe = os.path.join(d, name)
        subprocess.check_call(["gcc", "-O2"] + flags + ["-o", exe, src])
        built[name] = exe
    return built


def suite(d, texts):
    """(name, command, pathvm's own options) of each program."""
    text, small = texts
    own = programs(d)
    v3 = ["--cpu", "x86-64-v3"]
    return [
        ("fig1", [own["fig1"]], []),
        ("matmul", [own["matmul"]], []),
        ("matmul-v3", [own["matmul-v3"]], v3),
        ("python3", ["/usr/bin/python3", "-c", "pass"], []),
        ("xz", ["/usr/bin/xz", "-c", small], []),
        ("gzip", ["/usr/bin/gzip", "-c", text], []),
        ("bzip2", ["/usr/bin/bzip2", "-c", small], []),
        ("sort", ["/usr/bin/sort", "-n", text], []),
        ("sha256sum", ["/usr/bin/sha256sum", text], []),
        ("sqlite3", ["/usr/bin/sqlite3", ":memory:",
                     "create table t(x); insert into t select value from generate_series(1,300000);"
                     " select count(*), sum(x % 7) from t group by x % 10 limit 3;"], []),
        ("perl", ["/usr/bin/perl", "-e", "my %h; $h{$_ % 1000} .= 'x' for 1..400000; print scalar(keys %h), \"\\n\""], []),
    ]


def run(cmd):
    """Wall seconds and peak RSS (KiB) of one run, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    return wall, ru.ru_maxrss, status


PATHVM_MODES = [
    ("pathvm-insns", ["--no-cct", "--no-paths", "--no-cache-sim", "--no-branch-sim"]),
    ("pathvm-cct", ["--no-paths", "--no-cache-sim", "--no-branch-sim"]),
    ("pathvm-paths", ["--no-cache-sim", "--no-branch-sim"]),
    ("pathvm-full", []),
]

# Ratios: (label, numerator tool, denominator tool, target of the geometric
# mean, target of every program). Each pathvm mode against its callgrind
# counterpart (callgrind's default counts instructions and calls; with
# simulation, the same cache geometry and branch prediction), and against
# native.
RATIOS = [
    ("insns/callgrind", "pathvm-insns", "callgrind", 0.3, None),
    ("cct/callgrind", "pathvm-cct", "callgrind", None, None),
    ("paths/callgrind", "pathvm-paths", "callgrind", None, 0.5),
    ("full/callgrind+sim", "pathvm-full", "callgrind+sim", 0.4, 0.6),
    ("full MiB/callgrind+sim MiB", "pathvm-full", "callgrind+sim", None, 1.0),
    ("insns/qemu", "pathvm-insns", "qemu", None, None),
    ("insns/native", "pathvm-insns", "native", None, None),
    ("full/native", "pathvm-full", "native", None, None),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-callgrind", action="store_true", help="skip callgrind (the slowest tool)")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--tools", default="", help="comma-separated tools (native, qemu, pathvm-insns, "
                    "pathvm-cct, pathvm-paths, pathvm-full, callgrind, callgrind+sim); default: all")
    ap.add_argument("--plain", action="store_true",
                    help="measure a plain release build instead of the profile-guided one (scripts/pgo.sh)")
    ap.add_argument("--baseline", default="",
                    help="another pathvm binary, run after the measured one in each round (mode names get a "
                    "`base-` prefix); prints the ratios measured/baseline")
    ap.add_argument("--pathvm", default="", help="measure this pathvm binary (neither built nor checked)")
    args = ap.parse_args()
    PATHVM = args.pathvm or (PATHVM_PLAIN if args.plain else PATHVM_PGO)
    if not os.path.exists(PATHVM):
        if args.plain:
            subprocess.check_call(["cargo", "build", "--release", "-p", "pathvm"], cwd=ROOT)
        else:
            subprocess.check_call(["sh", "scripts/pgo.sh"], cwd=ROOT)
    print(f"# pathvm: {os.path.relpath(PATHVM, ROOT)}", file=sys.stderr)
    qemu = shutil.which("qemu-x86_64")
    d = tempfile.mkdtemp(prefix="pathvm-bench-")
    texts = inputs(d)
    out = os.path.join(d, "p.out")
    # Each tool: the command line of a program (c) with pathvm's own options (o).
    tools = [("native", lambda c, o: c)]
    if qemu:
        tools.append(("qemu", lambda c, o: [qemu] + c))
    for name, flags in PATHVM_MODES:
        tools.append((name, lambda c, o, f=flags: [PATHVM, "run", "-q", "-o", out] + o + f + ["--"] + c))
        if args.baseline:
            tools.append(("base-" + name,
                          lambda c, o, f=flags: [args.baseline, "run", "-q", "-o", out] + o + f + ["--"] + c))
    callgrind = not args.no_callgrind and shutil.which("valgrind")
    if callgrind:
        cg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        tools.append(("callgrind", lambda c, o: cg + c))
        tools.append(("callgrind+sim", lambda c, o: cg + ["--cache-sim=yes", "--branch-sim=yes", "--I1=32768,8,64",
                                                        "--D1=32768,8,64", "--LL=8388608,16,64"] + c))
    chosen = set(filter(None, args.tools.split(",")))
    if chosen:
        tools = [t for t in tools if t[0] in chosen or (t[0].startswith("base-") and t[0][5:] in chosen)]
    only = set(filter(None, args.only.split(",")))
    rows = []
    for name, cmd, popts in suite(d, texts):
        if only and name not in only:
            continue
        if not os.path.exists(cmd[0]):
            print(f"# skipped {name}: {cmd[0]} not installed", file=sys.stderr)
            continue
        times = {t: [] for t, _ in tools}
        mem = {t: 0 for t, _ in tools}
        for _ in range(args.rounds):
            for t, wrap in tools:
                wall, rss, _ = run(wrap(cmd, popts))
                times[t].append(wall)
                mem[t] = max(mem[t], rss)
        med = {t: statistics.median(v) for t, v in times.items()}
        rows.append((name, med, mem))
        print(f"# {name}: " + ", ".join(f"{t} {med[t]:.2f}s {mem[t] // 1024}MiB" for t, _ in tools), file=sys.stderr)
    names = [t for t, _ in tools]
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
    print("| program | " + " | ".join(f"{t} s" for t in names) + " | "
          + " | ".join(f"{t} MiB" for t in names) + " |")
    print("|" + "---|" * (1 + 2 * len(names)))
    for name, med, mem in rows:
        print(f"| {name} | " + " | ".join(f"{med[t]:.2f}" for t in names) + " | "
              + " | ".join(f"{mem[t] / 1024:.0f}" for t in names) + " |")
    ratios = [r for r in RATIOS if r[1] in names and r[2] in names]
    if ratios:
        print()
        print("| program | " + " | ".join(r[0] for r in ratios) + " |")
        print("|" + "---|" * (1 + len(ratios)))
        logs = {r[0]: [] for r in ratios}
        for name, med, mem in rows:
            cells = []
            for label, a, b, _, _ in ratios:
                v = mem[a] / mem[b] if "MiB" in label else med[a] / med[b]
                logs[label].append(v)
                cells.append(f"{v:.2f}")
            print(f"| {name} | " + " | ".join(cells) + " |")
        print("| geometric mean | " + " | ".join(f"{geo(logs[r[0]]):.2f}" for r in ratios) + " |")
        print()
        for label, _, _, geo_target, each_target in ratios:
            v = logs[label]
            targets = []
            if geo_target:
                targets.append(f"geometric mean at most {geo_target}: "
                               + ("met" if geo(v) <= geo_target else "not met"))
            if each_target:
                over = [n for (n, _, _), x in zip(rows, v) if x > each_target]
                targets.append(f"every program at most {each_target}: "
                               + ("met" if not over else "not met (" + ", ".join(over) + ")"))
            if targets:
                print(f"{label}: " + "; ".join(targets))
    if args.baseline:
        print()
        for mode, _ in PATHVM_MODES:
            if mode not in names:
                continue
            r = [med[mode] / med["base-" + mode] for _, med, _ in rows]
            cells = ", ".join(f"{name} {v:.3f}" for (name, _, _), v in zip(rows, r))
            print(f"{mode} / baseline: {cells}; geometric mean {geo(r):.3f}")

if __name__ == "__main__":
    main()
