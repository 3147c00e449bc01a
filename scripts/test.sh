#!/bin/sh
# The test command: installs what is missing, then runs every test of the
# workspace (unit tests and the integration tests in tests/).
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cargo test --workspace --release "$@"
