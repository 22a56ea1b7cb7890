#!/usr/bin/env bash
# Side-by-side prove timing: `snarkjs groth16 prove` vs `cuzk prove` on the
# same .zkey and .wtns (not a test). Prints the median of N runs each and the
# ratio snarkjs / cuzk.
#   usage: scripts/bench-vs-snarkjs.sh [CIRCUIT.zkey CIRCUIT.wtns] [RUNS]
# Defaults to the 2^16-constraint circuit of the large interop test
# (build/tests/interop-cache/chain16/, made by
#  `CUZK_SLOW_TESTS=1 ctest -R interop_snarkjs_chain16_slow`), else to the
# small chain fixture (243 rows, where process start dominates).
# CUZK=path/to/cuzk (default: build/apps/cuzk). `cuzk prove` validates every
# key point (curve and subgroup); snarkjs validates none. So the script also
# times bench_zkey_prove --check curve (BENCH_ZKEY, default
# build/bench/bench_zkey_prove): the same prover with on-curve checks only,
# the like-for-like figure. Prints the load average
# before and after: the machine is shared, compare only unloaded runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
big=${CUZK_INTEROP_CACHE:-$root/build/tests/interop-cache}/chain16/chain16
if [[ $# -lt 2 && -f $big.zkey ]]; then
  zkey=$big.zkey wtns=$big.wtns
else
  zkey=${1:-$root/tests/interop/fixtures/chain.zkey}
  wtns=${2:-$root/tests/interop/fixtures/chain.wtns}
fi
runs=${3:-5}
cuzk=${CUZK:-$root/build/apps/cuzk}
bench_zkey=${BENCH_ZKEY:-$(dirname "$cuzk")/../bench/bench_zkey_prove}
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
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
s_ms=$(median_ms "$snarkjs" groth16 prove "$zkey" "$wtns" "$t/s.json" "$t/s.pub.json")
c_ms=$(median_ms "$cuzk" -q prove --zkey "$zkey" --wtns "$wtns" --proof "$t/c.json" --public "$t/c.pub.json")
b_ms=
if [[ -x $bench_zkey ]]; then
  b_ms=$(median_ms "$bench_zkey" "$zkey" "$wtns" "$t/b.json" "$t/b.pub.json" --check curve)
fi
"$cuzk" -q export --from "$zkey" --to "$t/vk.json"
for p in c b; do
  [[ -f $t/$p.json ]] || continue
  "$snarkjs" groth16 verify "$t/vk.json" "$t/$p.pub.json" "$t/$p.json" >/dev/null 2>&1 ||
    echo "warning: snarkjs did not verify a cuzk proof ($p)" >&2
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "snarkjs groth16 prove: ${s_ms} ms"
echo "cuzk prove:            ${c_ms} ms"
awk -v s="$s_ms" -v c="$c_ms" 'BEGIN { printf "ratio snarkjs/cuzk:    %.1fx\n", s / (c > 0 ? c : 1) }'
if [[ -n $b_ms ]]; then
  echo "bench_zkey_prove --check curve: ${b_ms} ms"
  awk -v s="$s_ms" -v c="$b_ms" 'BEGIN { printf "ratio snarkjs/that:    %.1fx\n", s / (c > 0 ? c : 1) }'
fi
