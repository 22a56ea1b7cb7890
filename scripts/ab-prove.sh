#!/usr/bin/env bash
# A/B timing of two cuzk binaries on the same proof (not a test): runs
# `cuzk -q prove --check curve` N times each, alternating A and B so both see
# the same load, and prints the median wall and CPU (user + sys) time of each
# and the mean of the pairs' wall-time differences with its standard error.
# The development VM drifts by +-10% within minutes: use N >= 20.
# usage: scripts/ab-prove.sh CUZK_A CUZK_B [N] [CIRCUIT.zkey CIRCUIT.wtns]
# Defaults to the chain16 circuit of the large interop test (see
# scripts/bench-vs-snarkjs.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 2 ]] || { sed -n '2,9p' "$0" >&2; exit 2; }
a=$1
b=$2
n=${3:-20}
big=${CUZK_INTEROP_CACHE:-$root/build/tests/interop-cache}/chain16/chain16
zkey=${4:-$big.zkey}
wtns=${5:-$big.wtns}
[[ -f $zkey && -f $wtns ]] || { echo "no $zkey / $wtns (ctest -R interop_snarkjs_chain16 makes them)" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

run() {  # binary -> "wall_us cpu_ms" (wall from the clock in ns: time's %e counts 10 ms steps)
  local s e
  s=$(date +%s%N)
  /usr/bin/time -o "$t/time" -f "%U %S" "$1" -q prove --check curve --zkey "$zkey" --wtns "$wtns" \
    --proof "$t/p.json" --public "$t/pub.json" >/dev/null
  e=$(date +%s%N)
  awk -v w=$(((e - s) / 1000)) '{ printf "%d %d\n", w, ($1 + $2) * 1000 }' "$t/time"
}

median() {
  printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}

wa=() ca=() wb=() cb=()
for ((i = 0; i < n; i++)); do
  # Pairs alternate which binary runs first, so neither gains from the other's warm caches.
  if ((i % 2)); then
    read -r w c < <(run "$b"); wb+=("$w"); cb+=("$c")
    read -r w c < <(run "$a"); wa+=("$w"); ca+=("$c")
  else
    read -r w c < <(run "$a"); wa+=("$w"); ca+=("$c")
    read -r w c < <(run "$b"); wb+=("$w"); cb+=("$c")
  fi
done

ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
echo "A $a: wall $(ms "$(median "${wa[@]}")") ms, cpu $(median "${ca[@]}") ms (median of $n)"
echo "B $b: wall $(ms "$(median "${wb[@]}")") ms, cpu $(median "${cb[@]}") ms (median of $n)"
# The pairs' differences: their mean and its standard error (the VM's drift
# cancels within a pair).
paste <(printf '%s\n' "${wa[@]}") <(printf '%s\n' "${wb[@]}") | awk '
  { d = ($2 - $1) / 1000; sum += d; sq += d * d; k++ }
  END {
    m = sum / k
    se = k > 1 ? sqrt((sq - k * m * m) / (k - 1) / k) : 0
    printf "B - A: %+.2f +- %.2f ms wall (mean of %d paired differences +- its standard error)\n", m, se, k
  }'
