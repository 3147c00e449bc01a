#!/usr/bin/env python3
"""Benchmark: pathvm against native, qemu-x86_64 and callgrind, side by side.

Each program of the suite runs natively, under qemu-x86_64, under pathvm in
three modes (instructions only; + calling context tree and paths; + cache and
branch simulation, the default) and under valgrind's callgrind without and
with cache and branch simulation (same geometry as pathvm's defaults),
alternating tools within each round. It prints the median wall time of the
rounds, the peak memory (getrusage of the child) and the ratios the
performance targets are stated in, with their geometric means.

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


def suite(d, texts):
    text, small = texts
    return [
        ("xz", ["/usr/bin/xz", "-c", small]),
        ("gzip", ["/usr/bin/gzip", "-c", text]),
        ("bzip2", ["/usr/bin/bzip2", "-c", small]),
        ("sort", ["/usr/bin/sort", "-n", text]),
        ("sha256sum", ["/usr/bin/sha256sum", text]),
        ("sqlite3", ["/usr/bin/sqlite3", ":memory:",
                     "create table t(x); insert into t select value from generate_series(1,300000);"
                     " select count(*), sum(x % 7) from t group by x % 10 limit 3;"]),
        ("perl", ["/usr/bin/perl", "-e", "my %h; $h{$_ % 1000} .= 'x' for 1..400000; print scalar(keys %h), \"\\n\""]),
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
    ("pathvm-cct", ["--no-cache-sim", "--no-branch-sim"]),
    ("pathvm-full", []),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-callgrind", action="store_true", help="skip callgrind (the slowest tool)")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--tools", default="", help="comma-separated tools (native, qemu, pathvm-insns, "
                    "pathvm-cct, pathvm-full, callgrind, callgrind+sim); default: all")
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
    tools = [("native", lambda c: c)]
    if qemu:
        tools.append(("qemu", lambda c: [qemu] + c))
    for name, flags in PATHVM_MODES:
        tools.append((name, lambda c, f=flags: [PATHVM, "run", "-q", "-o", out] + f + ["--"] + c))
        if args.baseline:
            tools.append(("base-" + name,
                          lambda c, f=flags: [args.baseline, "run", "-q", "-o", out] + f + ["--"] + c))
    callgrind = not args.no_callgrind and shutil.which("valgrind")
    if callgrind:
        cg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        tools.append(("callgrind", lambda c: cg + c))
        tools.append(("callgrind+sim", lambda c: cg + ["--cache-sim=yes", "--branch-sim=yes", "--I1=32768,8,64",
                                                        "--D1=32768,8,64", "--LL=8388608,16,64"] + c))
    chosen = set(filter(None, args.tools.split(",")))
    if chosen:
        tools = [t for t in tools if t[0] in chosen or (t[0].startswith("base-") and t[0][5:] in chosen)]
        callgrind = callgrind and "callgrind+sim" in chosen
    only = set(filter(None, args.only.split(",")))
    rows = []
    for name, cmd in suite(d, texts):
        if only and name not in only:
            continue
        if not os.path.exists(cmd[0]):
            print(f"# skipped {name}: {cmd[0]} not installed", file=sys.stderr)
            continue
        times = {t: [] for t, _ in tools}
        mem = {t: 0 for t, _ in tools}
        for _ in range(args.rounds):
            for t, wrap in tools:
                wall, rss, _ = run(wrap(cmd))
                times[t].append(wall)
                mem[t] = max(mem[t], rss)
        med = {t: statistics.median(v) for t, v in times.items()}
        rows.append((name, med, mem))
        print(f"# {name}: " + ", ".join(f"{t} {med[t]:.2f}s {mem[t] // 1024}MiB" for t, _ in tools), file=sys.stderr)
    names = [t for t, _ in tools]
    # Ratios: (label, numerator tool, denominator tool, target).
    ratios = [("insns/qemu", "pathvm-insns", "qemu", 2.0),
              ("full/native", "pathvm-full", "native", None),
              ("full/callgrind+sim", "pathvm-full", "callgrind+sim", 0.5),
              ("full MiB/callgrind+sim MiB", "pathvm-full", "callgrind+sim", 1.0)]
    ratios = [r for r in ratios if r[1] in names and r[2] in names]
    full = "pathvm-full" in names
    print("| program | " + " | ".join(f"{t} s" for t in names) + " | "
          + " | ".join(r[0] for r in ratios) + (" | pathvm-full MiB" if full else "") + " |"
          + (" callgrind+sim MiB |" if callgrind else ""))
    print("|" + "---|" * (1 + len(names) + len(ratios) + (1 if full else 0) + (1 if callgrind else 0)))
    logs = {r[0]: [] for r in ratios}
    for name, med, mem in rows:
        cells = [f"{med[t]:.2f}" for t in names]
        rcells = []
        for label, a, b, _ in ratios:
            v = mem[a] / mem[b] if "MiB" in label else med[a] / med[b]
            logs[label].append(v)
            rcells.append(f"{v:.2f}")
        line = f"| {name} | " + " | ".join(cells) + " | " + " | ".join(rcells) + " |"
        if full:
            line += f" {mem['pathvm-full'] / 1024:.0f} |"
        if callgrind:
            line += f" {mem['callgrind+sim'] / 1024:.0f} |"
        print(line)
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
    if args.baseline:
        print()
        for mode, _ in PATHVM_MODES:
            if mode not in names:
                continue
            r = [med[mode] / med["base-" + mode] for _, med, _ in rows]
            cells = ", ".join(f"{name} {v:.3f}" for (name, _, _), v in zip(rows, r))
            print(f"{mode} / baseline: {cells}; geometric mean {geo(r):.3f}")
    print()
    for label, _, _, target in ratios:
        t = f" (target at most {target})" if target else ""
        print(f"geometric mean {label}: {geo(logs[label]):.2f}{t}")


if __name__ == "__main__":
    main()
