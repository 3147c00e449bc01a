#!/bin/sh
# Builds pathvm with profile-guided optimization (PGO): an instrumented
# build runs a training set, then the final build is optimized with what it
# measured. The training set is the bundled guest programs and distribution
# programs that are not in the benchmark's suite (scripts/bench.py), on
# inputs made here, in every analysis mode. The result, a binary that
# writes the same profiles as a plain release build, is
#
#     target/pgo/release/pathvm
#
# It needs rustup's llvm-tools component (added here when missing) for
# llvm-profdata of the compiler's own LLVM version.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
sh scripts/setup.sh
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools >&2 || true
fi
if [ ! -x "$profdata" ]; then
    echo "pgo.sh: llvm-profdata not found; install it with: rustup component add llvm-tools" >&2
    exit 1
fi
work=$root/target/pgo-train
rm -rf "$work"
mkdir -p "$work/raw" "$work/in"

# The flags add to the workspace's own (.cargo/config.toml): cargo joins
# the arrays.
cargo build --release -p pathvm --target-dir target/pgo-gen \
    --config "target.$host.rustflags=[\"-Cprofile-generate=$work/raw\"]"
pathvm=$root/target/pgo-gen/release/pathvm

sh guest-programs/build.sh "$work/guests" >/dev/null
python3 - "$work/in" <<'EOF'
import random, sys
d = sys.argv[1]
r = random.Random(7)
words = ["".join(r.choice("etaoinshrdlucmfwyp") for _ in range(r.randint(2, 9))) for _ in range(3000)]
with open(d + "/words.txt", "w") as f:
    for _ in range(40000):
        f.write(" ".join(r.choice(words) for _ in range(r.randint(3, 12))) + "\n")
with open(d + "/nums.txt", "w") as f:
    for _ in range(30000):
        f.write(f"{r.randint(0, 10**6)}\n")
with open(d + "/work.tcl", "w") as f:
    f.write("set d [dict create]\n"
            "for {set i 0} {$i < 60000} {incr i} { dict incr d [expr {$i * 7 % 997}] }\n"
            "puts [dict size $d]\n")
EOF

run() {
    # Guest programs that crash or exit non-zero on purpose are part of it.
    "$pathvm" run -q -o "$work/p.out" "$@" >/dev/null 2>&1 || true
}
cd "$work/in"
for mode in "" "--no-cache-sim --no-branch-sim" "--no-paths --no-cache-sim --no-branch-sim" \
    "--no-cct --no-paths --no-cache-sim --no-branch-sim"; do
    for g in "$work"/guests/*-O2 "$work"/guests/*-O0 "$work"/guests/*-static; do
        case "$g" in */spin-*) continue ;; esac # it runs until stopped
        case "$g" in */fig1-*) continue ;; esac # the benchmark's call-heavy program
        # shellcheck disable=SC2086
        run $mode "$g"
    done
    for cmd in "/usr/bin/zstd -c words.txt" "/usr/bin/lz4 -c words.txt" "/usr/bin/b2sum words.txt" \
        "/usr/bin/md5sum words.txt" "/usr/bin/tac words.txt" "/usr/bin/grep -c ee words.txt" \
        "/usr/bin/mawk {n+=NF}END{print(n)} words.txt" "/usr/bin/tclsh8.6 work.tcl" \
        "/usr/bin/cksum nums.txt"; do
        [ -x "${cmd%% *}" ] || continue
        # shellcheck disable=SC2086
        run $mode $cmd
    done
done
run --trace-children "$work/guests/forkwait-O2"
for view in function path line context; do
    "$pathvm" report "$work/p.out" --by $view >/dev/null 2>&1 || true
done
cd "$root"

"$profdata" merge -o "$work/pathvm.profdata" "$work/raw"
cargo build --release -p pathvm --target-dir target/pgo \
    --config "target.$host.rustflags=[\"-Cprofile-use=$work/pathvm.profdata\"]"
echo "pgo.sh: target/pgo/release/pathvm" >&2
