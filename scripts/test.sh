#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/install-test-peers.sh  # snarkjs/circom2 for the interop tests
bash scripts/build.sh
cd build && ctest --output-on-failure -j "$(nproc)"
