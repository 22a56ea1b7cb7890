#!/usr/bin/env bash
# The first synthesis of a fresh process, 2 KiB PoRep partition, one core:
# by the gadgets (a process without the circuit's .pce file) against the PCE
# mapped from its file (a daemon restarted with it, engine/pce_store.hpp),
# alternating, one measurement per process; prints each and the medians.
#
#   scripts/bench-first-synth.sh [RUNS=5] [CIRCUIT=porep-2k]
#
# The .pce file goes to ${TMPDIR:-/tmp}/cuzk-first-synth/<circuit>.pce
# (extracted when missing or stale by a first PCE run, untimed and not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
circuit=${2:-porep-2k}
bench=${CUZK_BUILD_DIR:-build}/apps/cuzk-bench
dir=${TMPDIR:-/tmp}/cuzk-first-synth
mkdir -p "$dir"
pce=$dir/$circuit.pce
one() { "$bench" micro synth --circuit "$circuit" --mode "$1" --first --threads 1 --pce-file "$pce" --json 2>/dev/null; }
one pce > /dev/null  # extracts the file when missing or stale; not counted
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A ms
rows=0
for ((r = 0; r < runs; r++)); do
  for mode in gadgets pce; do
    line=$(one "$mode")
    echo "$line"
    ms[$mode]+="$(sed -E 's/.*"ms":([0-9.e+-]+).*/\1/' <<< "$line") "
    rows=$(sed -E 's/.*"constraints":([0-9]+).*/\1/' <<< "$line")
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'; }
for mode in gadgets pce; do
  m=$(median <<< "${ms[$mode]}")
  awk -v m="$m" -v r="$rows" -v mode="$mode" \
    'BEGIN {printf "first synthesis, %s: median %.1f ms = %.2f M constraints/s\n", mode, m, r / m / 1e3}'
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
