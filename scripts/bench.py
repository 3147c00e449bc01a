#!/usr/bin/env python3
"""Benchmark: pathvm against native, qemu-x86_64 and callgrind, side by side.

Each program of the suite runs natively, under qemu-x86_64, under pathvm, and
(with --callgrind) under valgrind's callgrind, alternating tools within each
round; the median wall time of the rounds and the peak memory (from
getrusage of the child) are printed with the ratios pathvm/qemu,
pathvm/native (and pathvm/callgrind) and their geometric means.

Usage: scripts/bench.py [--rounds N] [--callgrind] [--only NAME,...]
"""
import argparse, math, os, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHVM = os.path.join(ROOT, "target", "release", "pathvm")


def inputs(d):
    text = os.path.join(d, "text.txt")
    with open(text, "w") as f:
        for i in range(300000):
            f.write(f"{(i * 7919) % 100003} line {i} of the benchmark input\n")
    return text


def suite(d, text):
    return [
        ("xz", ["/usr/bin/xz", "-c", text]),
        ("gzip", ["/usr/bin/gzip", "-c", text]),
        ("bzip2", ["/usr/bin/bzip2", "-c", text]),
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--callgrind", action="store_true", help="also run callgrind (slow)")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    if not os.path.exists(PATHVM):
        subprocess.check_call(["cargo", "build", "--release", "-p", "pathvm"], cwd=ROOT)
    qemu = shutil.which("qemu-x86_64")
    d = tempfile.mkdtemp(prefix="pathvm-bench-")
    text = inputs(d)
    tools = [("native", lambda c: c)]
    if qemu:
        tools.append(("qemu", lambda c: [qemu] + c))
    tools.append(("pathvm", lambda c: [PATHVM, "run", "-q", "-o", os.path.join(d, "p.out")] + c))
    if args.callgrind:
        tools.append(("callgrind", lambda c: ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + c))
        tools.append(("callgrind+sim", lambda c: ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                                   "--cache-sim=yes", "--branch-sim=yes", "--I1=32768,8,64",
                                                   "--D1=32768,8,64", "--LL=8388608,16,64"] + c))
    only = set(filter(None, args.only.split(",")))
    rows = []
    for name, cmd in suite(d, text):
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
        print(f"# {name}: " + ", ".join(f"{t} {med[t]:.2f}s" for t, _ in tools), file=sys.stderr)
    names = [t for t, _ in tools]
    print("| program | " + " | ".join(f"{t} s" for t in names) + " | pathvm/native | pathvm/qemu |"
          + (" pathvm/callgrind+sim |" if args.callgrind else "") + " pathvm MiB |" + (" callgrind+sim MiB |" if args.callgrind else ""))
    print("|" + "---|" * (len(names) + 3 + (2 if args.callgrind else 0)))
    ratios = {"native": [], "qemu": [], "callgrind+sim": []}
    for name, med, mem in rows:
        cells = [f"{med[t]:.2f}" for t in names]
        rn = med["pathvm"] / med["native"]
        ratios["native"].append(rn)
        rq = med["pathvm"] / med["qemu"] if "qemu" in med else float("nan")
        ratios["qemu"].append(rq)
        line = f"| {name} | " + " | ".join(cells) + f" | {rn:.1f} | {rq:.2f} |"
        if args.callgrind:
            rc = med["pathvm"] / med["callgrind+sim"]
            ratios["callgrind+sim"].append(rc)
            line += f" {rc:.2f} |"
        line += f" {mem['pathvm'] / 1024:.0f} |"
        if args.callgrind:
            line += f" {mem['callgrind+sim'] / 1024:.0f} |"
        print(line)
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
    summary = f"geometric mean: pathvm/native {geo(ratios['native']):.1f}, pathvm/qemu {geo(ratios['qemu']):.2f}"
    if args.callgrind:
        summary += f", pathvm/callgrind+sim {geo(ratios['callgrind+sim']):.2f}"
    print("\n" + summary)


if __name__ == "__main__":
    main()
