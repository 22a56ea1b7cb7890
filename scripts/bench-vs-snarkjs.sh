#!/usr/bin/env bash
# Side-by-side prove timing: `snarkjs groth16 prove` vs `cuzk prove --zkey` on
# the same .zkey and .wtns (not a test). snarkjs and cuzk runs alternate, so
# both see the same load; prints every run, the medians of RUNS (default 5)
# and the ratios snarkjs / cuzk.
#   usage: scripts/bench-vs-snarkjs.sh [CIRCUIT.zkey CIRCUIT.wtns] [RUNS]
#          scripts/bench-vs-snarkjs.sh "" "" RUNS       (the default circuit)
#          scripts/bench-vs-snarkjs.sh chainN "" RUNS   (tests/interop/large/chainN.circom:
#                                                        2^N constraints, set up on first use;
#                                                        chain5k: 5,000 constraints)
# Defaults to the 2^16-constraint circuit of the large interop test
# ($CUZK_INTEROP_CACHE, default build/tests/interop-cache, chain16/; made by
# `ctest -R interop_snarkjs_chain16`), else to the
# small chain fixture (243 rows, where process start dominates).
# CUZK=path/to/cuzk (default: build/apps/cuzk).
#
# Each pair is one snarkjs run and then CUZK_REPS (default 5) consecutive
# cuzk runs, of which the median counts: snarkjs's run (15-25 s) averages
# over the shared VM's speed swings, while a single 0.6 s cuzk run lands on
# whatever the VM does at that moment (runs of 533 and 805 ms in one pair
# set). CUZK_REPS=1 gives one cuzk run per pair, as the script did before 2026-11-29.
#
# Key validation: snarkjs checks no key point. `cuzk prove --check curve`
# checks that every point is on its curve: the like-for-like row. The default
# `--check full` adds the prime-order-subgroup checks (~400,000 points at
# 2^16, tens of seconds on 2 cores) once per key file: its first run is timed
# once, then each pair also times default runs, which find the key's record
# (a private CUZK_KEY_RECORDS folder) and check the curve only.
# `--check full-every-run` (no record) is timed FULL_RUNS times (default 1;
# 0 skips it). Every wall time includes process start and reading the key.
# Prints the load average before and after: the machine is shared, compare
# only unloaded runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${CUZK_INTEROP_CACHE:-$root/build/tests/interop-cache}
big=$cache/chain16/chain16
if [[ ${1:-} =~ ^chain[0-9]+k?$ && -f $root/tests/interop/large/$1.circom ]]; then
  # The .ptau's power: a "// ptau power: P" line of the circuit, else for
  # chainN 2^(N+1) (snarkjs adds a row per public signal to the 2^N).
  power=$(sed -n 's|^// ptau power: \([0-9][0-9]*\)$|\1|p' "$root/tests/interop/large/$1.circom")
  [[ -n $power ]] || power=$((${1#chain} + 1))
  bash "$root/tests/interop/setup-large.sh" "$1" "$power" "$root/build/tests/cuzk-ptau-dev" "$cache" >&2
  zkey=$cache/$1/$1.zkey wtns=$cache/$1/$1.wtns
elif [[ -z ${1:-} && -f $big.zkey ]]; then  # no key given (or ""): the big circuit
  zkey=$big.zkey wtns=$big.wtns
else
  zkey=${1:-$root/tests/interop/fixtures/chain.zkey}
  wtns=${2:-$root/tests/interop/fixtures/chain.wtns}
fi
runs=${3:-5}
full_runs=${FULL_RUNS:-1}
cuzk_reps=${CUZK_REPS:-5}
cuzk=${CUZK:-$root/build/apps/cuzk}
snarkjs=$root/tests/interop/node/node_modules/.bin/snarkjs
[[ -x $snarkjs ]] || { echo "run scripts/install-test-peers.sh first" >&2; exit 1; }
[[ -x $cuzk ]] || { echo "build cuzk first (or set CUZK=)" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CUZK_KEY_RECORDS=$t/key-records  # starts empty: the first default run checks in full

time_ms() {  # command...: wall time of one run, ms
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>"$t/err" || { cat "$t/err" >&2; echo "failed: $*" >&2; exit 1; }
  e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
}
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

echo "zkey: $zkey"
echo "wtns: $wtns"
echo "runs: $runs pairs of 1 snarkjs run + the median of $cuzk_reps cuzk runs (wall clock, process start included; they alternate, so both see the same load)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
first_ms=$(time_ms "$cuzk" -q prove --zkey "$zkey" --wtns "$wtns" --proof "$t/d.json" --public "$t/d.pub.json")
echo "  cuzk prove (default --check full), first run with this key: $first_ms ms (checks every point, records the key)"
s_all=() c_all=() r_all=() d_all=() rd_all=()
for ((i = 0; i < runs; i++)); do
  s=$(time_ms "$snarkjs" groth16 prove "$zkey" "$wtns" "$t/s.json" "$t/s.pub.json")
  cs=() ds=()
  for ((j = 0; j < cuzk_reps; j++)); do
    cs+=("$(time_ms "$cuzk" -q prove --check curve --zkey "$zkey" --wtns "$wtns" --proof "$t/c.json" --public "$t/c.pub.json")")
    ds+=("$(time_ms "$cuzk" -q prove --zkey "$zkey" --wtns "$wtns" --proof "$t/d.json" --public "$t/d.pub.json")")
  done
  c=$(median "${cs[@]}") d=$(median "${ds[@]}")
  s_all+=("$s") c_all+=("$c") r_all+=("$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.1f", s / (c > 0 ? c : 1) }')")
  d_all+=("$d") rd_all+=("$(awk -v s="$s" -v c="$d" 'BEGIN { printf "%.1f", s / (c > 0 ? c : 1) }')")
  echo "  run $((i + 1)): snarkjs $s ms, cuzk --check curve $c ms (median of ${cs[*]}), ratio ${r_all[-1]}x;" \
       "default (recorded key) $d ms (median of ${ds[*]}), ratio ${rd_all[-1]}x (load $(cut -d' ' -f1 /proc/loadavg))"
done
d_ms=$(median "${d_all[@]}") rd_med=$(median "${rd_all[@]}")
s_ms=$(median "${s_all[@]}") c_ms=$(median "${c_all[@]}") r_med=$(median "${r_all[@]}")
f_all=()
for ((i = 0; i < full_runs; i++)); do
  f_all+=("$(time_ms "$cuzk" -q prove --check full-every-run --zkey "$zkey" --wtns "$wtns" --proof "$t/f.json" --public "$t/f.pub.json")")
done
f_ms=
((full_runs > 0)) && f_ms=$(median "${f_all[@]}")
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
"$cuzk" -q export --from "$zkey" --to "$t/vk.json"
for p in c d f; do
  [[ -f $t/$p.json ]] || continue
  "$snarkjs" groth16 verify "$t/vk.json" "$t/$p.pub.json" "$t/$p.json" >/dev/null 2>&1 ||
    echo "warning: snarkjs did not verify a cuzk proof ($p)" >&2
done
ratio() { awk -v s="$1" -v c="$2" 'BEGIN { printf "%.1fx", s / (c > 0 ? c : 1) }'; }
echo "snarkjs groth16 prove (median):         ${s_ms} ms"
echo "cuzk prove --check curve (median):      ${c_ms} ms   snarkjs/cuzk $(ratio "$s_ms" "$c_ms") (median of the per-run ratios ${r_med}x; like for like)"
echo "cuzk prove (default, key recorded):     ${d_ms} ms   snarkjs/cuzk $(ratio "$s_ms" "$d_ms") (median of the per-run ratios ${rd_med}x; first run ${first_ms} ms)"
if [[ -n $f_ms ]]; then
  echo "cuzk prove --check full-every-run:      ${f_ms} ms   snarkjs/cuzk $(ratio "$s_ms" "$f_ms")"
fi
