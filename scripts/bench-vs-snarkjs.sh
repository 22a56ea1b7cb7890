#!/usr/bin/env bash
# Side-by-side prove timing: `snarkjs groth16 prove` vs `cuzk prove` on the
# same .zkey and .wtns (not a test). Prints the median of N runs each and the
# ratio snarkjs / cuzk.
#   usage: scripts/bench-vs-snarkjs.sh [CIRCUIT.zkey CIRCUIT.wtns] [RUNS]
# Defaults to the largest interop fixture (tests/interop/fixtures/chain.*).
# CUZK=path/to/cuzk (default: build/apps/cuzk).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
zkey=${1:-$root/tests/interop/fixtures/chain.zkey}
wtns=${2:-$root/tests/interop/fixtures/chain.wtns}
runs=${3:-5}
cuzk=${CUZK:-$root/build/apps/cuzk}
snarkjs=$root/tests/interop/node/node_modules/.bin/snarkjs
[[ -x $snarkjs ]] || { echo "run scripts/install-test-peers.sh first" >&2; exit 1; }
[[ -x $cuzk ]] || { echo "build cuzk first (or set CUZK=)" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

median_ms() {  # command...
  local times=()
  for ((i = 0; i < runs; i++)); do
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s%N)
    times+=($(( (e - s) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

echo "zkey: $zkey"
echo "wtns: $wtns"
echo "runs: $runs (median, wall clock, process start included)"
s_ms=$(median_ms "$snarkjs" groth16 prove "$zkey" "$wtns" "$t/s.json" "$t/s.pub.json")
c_ms=$(median_ms "$cuzk" -q prove --zkey "$zkey" --wtns "$wtns" --proof "$t/c.json" --public "$t/c.pub.json")
"$cuzk" -q export --from "$zkey" --to "$t/vk.json"
"$snarkjs" groth16 verify "$t/vk.json" "$t/c.pub.json" "$t/c.json" >/dev/null 2>&1 ||
  echo "warning: snarkjs did not verify cuzk's proof" >&2
echo "snarkjs groth16 prove: ${s_ms} ms"
echo "cuzk prove:            ${c_ms} ms"
awk -v s="$s_ms" -v c="$c_ms" 'BEGIN { printf "ratio snarkjs/cuzk:    %.1fx\n", s / (c > 0 ? c : 1) }'
