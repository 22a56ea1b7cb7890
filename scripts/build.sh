#!/usr/bin/env bash
# Configures and builds cuzk into ./build (or $CUZK_BUILD_DIR), Release.
# Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUZK_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
