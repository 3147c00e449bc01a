#!/bin/sh
# Builds every guest program in the variants the tests use, with the
# machine's gcc/g++, into $1 (default: ./build next to this script).
# Variants: NAME-O0 and NAME-O2 (dynamic PIE), NAME-static (static, -O2),
# NAME-spie (static-pie, -O2), for the avx programs NAME-v3 and
# NAME-v3static (-O3 -march=x86-64-v3), and for most NAME-v3O2 (-O2
# -march=x86-64-v3). All with -g for line tables.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build}
mkdir -p "$out"
CFLAGS="-g -fno-omit-frame-pointer -I$here/../include"
for src in "$here"/*.c "$here"/*.cpp; do
    name=$(basename "$src"); name=${name%.*}
    case "$src" in *.cpp) cc=g++ ;; *) cc=gcc ;; esac
    libs=""
    case "$name" in fpargs|fplibm|fpmf|avxdot) libs=-lm ;; esac
    $cc $CFLAGS -O0 -o "$out/$name-O0" "$src" $libs
    $cc $CFLAGS -O2 -o "$out/$name-O2" "$src" $libs
    $cc $CFLAGS -O2 -static -o "$out/$name-static" "$src" $libs
    $cc $CFLAGS -O2 -static-pie -o "$out/$name-spie" "$src" $libs
done
gcc -nostdlib -static -o "$out/count" "$here/count.S"
# The x86-64-v3 programs (AVX, AVX2, FMA, F16C, MOVBE, BMI): -O3 vectorizes
# with them; -ffast-math lets the reductions vectorize too.
for name in avxdot avxstr; do
    gcc $CFLAGS -O3 -march=x86-64-v3 -ffast-math -o "$out/$name-v3" "$here/$name.c" -lm
    gcc $CFLAGS -O3 -march=x86-64-v3 -ffast-math -static -o "$out/$name-v3static" "$here/$name.c" -lm
done
# The programs whose output is their own (not the clock's or the machine's)
# also the way a distribution built for x86-64-v3 compiles them: NAME-v3O2
# (-O2 -march=x86-64-v3: VEX encodings, FMA contraction, BMI).
for name in alloc allocxx avxdot avxstr cachetest deeprec diffwork except fig1 \
        fpargs fpmf fpsse fpx87 fpxm hello longjmp misc sigdeep sigfault ssemem \
        sweep tailcall work; do
    src="$here/$name.c"
    cc=gcc
    [ -f "$src" ] || { src="$here/$name.cpp"; cc=g++; }
    libs=""
    case "$name" in fpargs|fpmf|avxdot) libs=-lm ;; esac
    $cc $CFLAGS -O2 -march=x86-64-v3 -o "$out/$name-v3O2" "$src" $libs
done
# The second version of diffwork, in its own directory under the same name.
mkdir -p "$out/more"
gcc $CFLAGS -O2 -DMORE_WORK -o "$out/more/diffwork-O2" "$here/diffwork.c"
