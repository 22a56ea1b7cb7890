#!/usr/bin/env bash
# The live dashboard end to end: a daemon on a small generic-R1CS circuit,
# its page in headless Chromium while a batch runs (dashboard_check.py), the
# TIMELINE buffer (GET /timeline) against the daemon's stderr. Screenshots
# land in OUT_DIR (dashboard-*.png). Exit 77 (CTest: skipped) when Chromium or
# python3 is missing: scripts/install-test-peers.sh installs them.
#
# usage: run.sh CUZK_DAEMON CUZK_BENCH [OUT_DIR]
set -euo pipefail
daemon_bin=$1
bench=$2
out=${3:-$PWD}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  echo "dashboard test skipped: chromium not found (scripts/install-test-peers.sh installs Debian's chromium)"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "dashboard test skipped: python3 not found"
  exit 77
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill -TERM "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# About a second per proof on one synthesis thread: long enough to be seen in flight.
rounds=12000
"$bench" gen-circuit --param-cache "$work/params" --rounds $rounds --extra-inputs 2 >/dev/null 2>&1
for p in 1 2; do
  "$bench" gen-witness --rounds $rounds --extra-inputs 2 --x $p -o "$work/w$p.cuzk-wtns" >/dev/null
done
cat > "$work/cuzk.toml" <<EOF
[daemon]
listen = "unix://$work/cuzk.sock"
status_listen = "127.0.0.1:0"
[memory]
total_budget = "2GiB"
[gpus]
gpu_workers_per_device = 2
[synthesis]
threads = 1
[pipeline]
max_parallel_synthesis = 2
[srs]
param_cache = "$work/params"
EOF
: > "$work/daemon.log"  # exists before the daemon's shell opens it: the poll below may read it first
"$daemon_bin" --config "$work/cuzk.toml" 2> "$work/daemon.log" &
daemon=$!
addr=""
for _ in $(seq 1 100); do
  addr=$(sed -n 's/.*HTTP status listening on \([0-9.:]*\) .*/\1/p' "$work/daemon.log" | head -1)
  [ -n "$addr" ] && [ -S "$work/cuzk.sock" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "daemon did not start:"; cat "$work/daemon.log"; exit 1; }
echo "dashboard: http://$addr/"

python3 "$here/dashboard_check.py" "http://$addr/" "$out" "$bench" -- \
  "$bench" -a "unix://$work/cuzk.sock" batch -t r1cs --circuit "cube-${rounds}r-2i" \
  --witness "$work/w1.cuzk-wtns" --witness "$work/w2.cuzk-wtns" -c 6 -j 2 --progress 0

# GET /timeline holds exactly the TIMELINE lines the daemon wrote to stderr.
python3 - "http://$addr/timeline" "$work/daemon.log" <<'EOF'
import sys, urllib.request
served = urllib.request.urlopen(sys.argv[1], timeout=10).read().decode().splitlines()
logged = [l for l in open(sys.argv[2], errors="replace").read().splitlines() if l.startswith("TIMELINE,")]
if sorted(served) != sorted(logged) or not served:
    sys.exit("dashboard: FAIL: /timeline has %d lines, the daemon's stderr %d" % (len(served), len(logged)))
print("dashboard: /timeline matches the daemon's stderr (%d lines)" % len(served))
EOF
echo "dashboard: ok"
