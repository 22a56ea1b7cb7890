#!/usr/bin/env bash
# Installs the test peers, programs the tests talk to but the build does not need:
#  - Debian's chromium and python3 (as root, via apt-get): the dashboard test
#    drives the daemon's live page in headless Chromium (tests/integration/dashboard);
#  - promtool, unpacked from Debian's prometheus package into
#    .cache/test-peers/bin (apt-get download + dpkg-deb: no service installed),
#    for `promtool check rules` on contrib/prometheus (contrib/check-monitoring.sh);
#  - the interop test peers (snarkjs 0.7.6, circom2) from the committed
#    package-lock.json into tests/interop/node/node_modules (Node.js >= 18 and npm).
# Whatever cannot be installed is reported and skipped, never an error: the
# tests that need it skip themselves (exit 77) and say why.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
missing=()
for p in chromium python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-test-peers: installing ${missing[*]}"
  { $sudo_cmd apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" \
      >/dev/null; } || echo "install-test-peers: could not install ${missing[*]}; the dashboard test will be skipped" >&2
fi
promtool=$repo/.cache/test-peers/bin/promtool
if ! command -v promtool >/dev/null && [ ! -x "$promtool" ]; then
  tmp=$(mktemp -d)
  if (cd "$tmp" && { apt-get download prometheus >/dev/null 2>&1 ||
                     { $sudo_cmd apt-get update -qq && apt-get download prometheus >/dev/null; }; } &&
      dpkg-deb -x prometheus_*.deb x && [ -x x/usr/bin/promtool ]); then
    mkdir -p "$(dirname "$promtool")"
    cp "$tmp/x/usr/bin/promtool" "$promtool"
    echo "install-test-peers: promtool from Debian's prometheus package in $promtool"
  else
    echo "install-test-peers: could not fetch Debian's prometheus package; promtool checks will be skipped" >&2
  fi
  rm -rf "$tmp"
fi

cd tests/interop/node
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "install-test-peers: node/npm not found; snarkjs interop tests will be skipped" >&2
  exit 0
fi
if [[ -x node_modules/.bin/snarkjs && node_modules/.package-lock.json -nt package-lock.json ]]; then
  exit 0  # already installed from this lock file
fi
npm ci --no-audit --no-fund --loglevel=error
