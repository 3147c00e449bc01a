#!/bin/sh
# The differential tester's full run: 10,000 seeded cases of every class the
# VM advertises, compared with this machine's CPU (docs/cpu.md). Extra
# arguments go to cputest (e.g. --seed 7, --class bmi2).
set -e
cd "$(dirname "$0")/.."
cargo build --release -p cputest
exec target/release/cputest --cases 10000 "$@"
