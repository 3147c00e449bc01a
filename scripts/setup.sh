#!/bin/sh
# Installs what building pathvm needs and a fresh machine may lack: cmake
# (unicorn's C core is built with it) and pkg-config (unicorn probes it).
# valgrind is used by tests as a reference when present; qemu-user by the
# benchmark. Idempotent: does nothing when everything is there.
set -eu
missing=""
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v make >/dev/null 2>&1 || missing="$missing make"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing$missing"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# The corpus of real programs (scripts/corpus.py, docs/corpus.md): each
# command and the Debian package that has it. A package that cannot be
# installed is reported here and its cases skip with the reason.
corpus="
gawk:gawk bzip2:bzip2 xz:xz-utils zstd:zstd lz4:lz4 brotli:brotli
sqlite3:sqlite3 perl:perl python3:python3 tclsh:tcl lua5.4:lua5.4 jq:jq bc:bc
openssl:openssl git:git gcc:gcc as:binutils make:make file:file patch:patch
diff:diffutils find:findutils tar:tar gzip:gzip xxhsum:xxhash
"
missing=""
for pair in $corpus; do
    cmd=${pair%%:*}
    pkg=${pair#*:}
    PATH=/usr/bin:/bin command -v "$cmd" >/dev/null 2>&1 || missing="$missing $pkg"
done
# perl's Digest::MD5 lives in the perl package, not perl-base.
perl -MDigest::MD5 -e 1 >/dev/null 2>&1 || missing="$missing perl"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing for the corpus:$missing"
    $SUDO apt-get update -qq || true
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null; then
        for pkg in $missing; do
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$pkg" >/dev/null ||
                echo "setup: could not install $pkg: its corpus cases will be skipped"
        done
    fi
fi

# Headless Chromium for the browser test of `pathvm view` (tests/view.rs,
# docs/view.md); the test skips with the reason when it is missing.
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing chromium (for tests/view.rs)"
    $SUDO apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null ||
        echo "setup: could not install chromium: the browser test of pathvm view will be skipped"
fi

# Packages the tests use as references: PyYAML reads the CI recipes
# of docs/ci.md (tests/ci_recipe.rs), jsonschema validates the Bencher
# export against its schema (tests/export.rs); each test skips with the
# reason when its module is missing.
missing=""
python3 -c "import yaml" >/dev/null 2>&1 || missing="$missing python3-yaml"
python3 -c "import jsonschema" >/dev/null 2>&1 || missing="$missing python3-jsonschema"
# glibc's debug symbols: the lines of a real program's libc code, compared
# with callgrind's in tests/export.rs.
[ -d /usr/share/doc/libc6-dbg ] || missing="$missing libc6-dbg"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing for the tests:$missing"
    $SUDO apt-get update -qq || true
    for pkg in $missing; do
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$pkg" >/dev/null ||
            echo "setup: could not install $pkg: the tests that need it will be skipped"
    done
fi

# Go's pprof (`go tool pprof`) reads the pprof export in tests/export.rs;
# the tests that need it skip with the reason when it is missing.
if ! command -v go >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing golang-go (for go tool pprof in tests/export.rs)"
    $SUDO apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq golang-go >/dev/null ||
        echo "setup: could not install golang-go: the go tool pprof checks will be skipped"
fi
