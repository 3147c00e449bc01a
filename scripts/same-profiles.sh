#!/bin/sh
# Checks that two pathvm binaries write byte-identical profiles (`cmp`) for
# the guest programs and two distribution programs (gzip, sort) in every
# recording mode: full, --no-paths, instructions only, --single-thread,
# --toggle-collect, --focus, phases, --trace-children.
#
#   scripts/same-profiles.sh BASE_BIN NEW_BIN
#
# Used for restructurings that must not change a count. The profiles of
# BASE_BIN are kept under $SAME_PROFILES_DIR (default /tmp/same-profiles),
# by the binary's checksum, and reused. Exit status 1 when any differs.
set -eu
base=$(realpath "$1"); new=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${SAME_PROFILES_DIR:-/tmp/same-profiles}
mkdir -p "$dir"
guests=$dir/guests
[ -x "$guests/phases-O2" ] || sh "$here/guest-programs/build.sh" "$guests" >/dev/null
# Fixed inputs: 1 MB of text for gzip, 40,000 lines for sort.
[ -f "$dir/input.txt" ] || python3 -c '
import random
r = random.Random(1)
w = ["alpha","beta","gamma","delta","pathvm","profile","cache","branch","zeta","omega"]
out = []
n = 0
while n < 1 << 20:
    line = " ".join(r.choice(w) for _ in range(r.randint(1, 12))) + " %d\n" % r.randint(0, 99999)
    out.append(line); n += len(line)
open("'"$dir"'/input.txt","w").write("".join(out)[: 1 << 20])
'
[ -f "$dir/lines.txt" ] || head -n 40000 "$dir/input.txt" > "$dir/lines.txt"

# name|options|program and arguments
cases() {
    g=$guests
    for p in work-O2 alloc-O2 allocxx-O2 fig1-O0 tailcall-O2 except-O2 threads-O2 sigdeep-O2 longjmp-static sweep-O2; do
        echo "$p.full||$g/$p"
        echo "$p.nopaths|--no-paths|$g/$p"
        echo "$p.insns|--no-paths --no-cct --no-cache-sim --no-branch-sim|$g/$p"
        echo "$p.single|--single-thread|$g/$p"
    done
    echo "work.toggle|--toggle-collect=work*|$g/work-O2"
    echo "work.toggle-insns|--toggle-collect=work* --no-paths --no-cct --no-cache-sim --no-branch-sim|$g/work-O2"
    echo "alloc.toggle|--toggle-collect=main --single-thread|$g/alloc-O2"
    echo "work.focus|--focus=work*|$g/work-O2"
    echo "fig1.focus|--focus=f* --no-paths|$g/fig1-O0"
    echo "phases.full||$g/phases-O2"
    echo "phases.insns|--no-paths --no-cct --no-cache-sim --no-branch-sim|$g/phases-O2"
    echo "phases.single|--single-thread --no-cache-sim|$g/phases-O0"
    echo "forkwait.children|--trace-children|$g/forkwait-O2"
    echo "forkwait.children-insns|--trace-children --no-paths --no-cct --no-cache-sim --no-branch-sim|$g/forkwait-O2"
    echo "gzip.full||/bin/gzip -c $dir/input.txt"
    echo "gzip.insns|--no-paths --no-cct --no-cache-sim --no-branch-sim|/bin/gzip -c $dir/input.txt"
    echo "gzip.nopaths|--no-paths|/bin/gzip -c $dir/input.txt"
    echo "sort.full||/usr/bin/sort $dir/lines.txt"
    echo "sort.insns|--no-paths --no-cct --no-cache-sim --no-branch-sim|/usr/bin/sort $dir/lines.txt"
    echo "sort.single|--single-thread --no-paths|/usr/bin/sort $dir/lines.txt"
}

record() { # BIN OUTDIR
    mkdir -p "$2"
    cases | while IFS='|' read -r name opts cmd; do
        rm -f "$2/$name".prof*
        # shellcheck disable=SC2086
        "$1" run -q -o "$2/$name.prof" $opts -- $cmd >/dev/null 2>"$2/$name.err" </dev/null || true
    done
}

sum=$(cksum < "$base" | cut -d' ' -f1)
if [ ! -f "$dir/base-$sum/done" ]; then
    record "$base" "$dir/base-$sum"
    touch "$dir/base-$sum/done"
fi
rm -rf "$dir/new"
record "$new" "$dir/new"
status=0
n=0
for f in "$dir/base-$sum"/*.prof*; do
    b=$(basename "$f")
    n=$((n + 1))
    if ! cmp -s "$f" "$dir/new/$b"; then
        echo "DIFFERS: $b"
        status=1
    fi
done
for f in "$dir/new"/*.prof*; do
    [ -f "$dir/base-$sum/$(basename "$f")" ] || { echo "EXTRA: $(basename "$f")"; status=1; }
done
[ "$status" = 0 ] && echo "same-profiles: $n profiles byte-identical"
exit $status
