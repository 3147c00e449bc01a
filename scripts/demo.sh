#!/bin/sh
# The main job on a bundled guest program: build it, run it under pathvm,
# and show where its instructions went.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
sh guest-programs/build.sh target/guest-programs
cargo build --release -p pathvm
./target/release/pathvm run -o target/fig1.out target/guest-programs/fig1-O2
./target/release/pathvm report target/fig1.out --top 10
