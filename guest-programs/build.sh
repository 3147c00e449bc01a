#!/bin/sh
# Builds every guest program in the variants the tests use, with the
# machine's gcc/g++, into $1 (default: ./build next to this script).
# Variants: NAME-O0 and NAME-O2 (dynamic PIE), NAME-static (static, -O2),
# NAME-spie (static-pie, -O2). All with -g for line tables.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build}
mkdir -p "$out"
CFLAGS="-g -fno-omit-frame-pointer -I$here/../include"
for src in "$here"/*.c "$here"/*.cpp; do
    name=$(basename "$src"); name=${name%.*}
    case "$src" in *.cpp) cc=g++ ;; *) cc=gcc ;; esac
    libs=""
    case "$name" in fpargs|fplibm|fpmf) libs=-lm ;; esac
    $cc $CFLAGS -O0 -o "$out/$name-O0" "$src" $libs
    $cc $CFLAGS -O2 -o "$out/$name-O2" "$src" $libs
    $cc $CFLAGS -O2 -static -o "$out/$name-static" "$src" $libs
    $cc $CFLAGS -O2 -static-pie -o "$out/$name-spie" "$src" $libs
done
gcc -nostdlib -static -o "$out/count" "$here/count.S"
# The second version of diffwork, in its own directory under the same name.
mkdir -p "$out/more"
gcc $CFLAGS -O2 -DMORE_WORK -o "$out/more/diffwork-O2" "$here/diffwork.c"
