#!/usr/bin/env bash
# Installs the interop test peers (snarkjs 0.7.6, circom2) from the committed
# package-lock.json into tests/interop/node/node_modules. Needs Node.js >= 18
# and npm; without them it warns and exits 0 (the interop tests then skip).
set -euo pipefail
cd "$(dirname "$0")/../tests/interop/node"
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "install-test-peers: node/npm not found; snarkjs interop tests will be skipped" >&2
  exit 0
fi
if [[ -x node_modules/.bin/snarkjs && node_modules/.package-lock.json -nt package-lock.json ]]; then
  exit 0  # already installed from this lock file
fi
npm ci --no-audit --no-fund --loglevel=error
