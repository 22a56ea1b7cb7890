#!/usr/bin/env bash
# The main job: set up, start the proving daemon on a local socket with the
# embedded default configuration (config/cuzk-demo.toml) and parameter
# directory (a cube-chain circuit with development parameters, generated on
# first use and cached in .cache/cuzk-demo), prove a batch of real
# multi-partition Groth16 proofs with cuzk-bench (each verified by the
# daemon's self-check before it is returned), stop the daemon, and print the
# batch summary and the TIMELINE analysis. Pictures land in .cache/cuzk-demo.
#
# Knobs (environment): CUZK_DEMO_ROUNDS (circuit size, 2 constraints each),
# CUZK_DEMO_PARTITIONS, CUZK_DEMO_PROOFS, CUZK_DEMO_CONCURRENCY.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh

rounds=${CUZK_DEMO_ROUNDS:-4000}
partitions=${CUZK_DEMO_PARTITIONS:-4}
proofs=${CUZK_DEMO_PROOFS:-4}
concurrency=${CUZK_DEMO_CONCURRENCY:-2}
work=.cache/cuzk-demo
params=$work/params
sock=$work/cuzk.sock
build=${CUZK_BUILD_DIR:-build}
bench=$build/apps/cuzk-bench
mkdir -p "$work"

echo "== parameters (cached in $params) =="
"$bench" gen-circuit --param-cache "$params" --rounds "$rounds" --extra-inputs 2
circuit="cube-${rounds}r-2i"
witness_args=()
for ((p = 1; p <= partitions; p++)); do
  "$bench" gen-witness --rounds "$rounds" --extra-inputs 2 --x "$p" -o "$work/w$p.cuzk-wtns" >/dev/null
  witness_args+=(--witness "$work/w$p.cuzk-wtns")
done

sed -e "s|@SOCKET@|$PWD/$sock|" -e "s|@PARAMS@|$PWD/$params|" config/cuzk-demo.toml > "$work/cuzk.toml"
log=$work/daemon.log
echo "== starting cuzk-daemon (log: $log) =="
"$build/apps/cuzk-daemon" --config "$work/cuzk.toml" 2> "$log" &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "daemon did not start:"; cat "$log"; exit 1; }

echo "== batch: $proofs proofs x $partitions partitions of $circuit, concurrency $concurrency =="
"$bench" -a "unix://$PWD/$sock" preload -c "$circuit"
"$bench" -a "unix://$PWD/$sock" batch -t r1cs --circuit "$circuit" "${witness_args[@]}" \
  -c "$proofs" -j "$concurrency" --progress 10
"$bench" -a "unix://$PWD/$sock" status

kill -TERM "$daemon"
wait "$daemon" || true
trap - EXIT

echo "== timeline analysis =="
"$bench" timeline jobs "$log"
"$bench" timeline analyze "$log"
"$bench" timeline svg "$log" -o "$work/waterfall.svg"
"$bench" timeline html "$log" -o "$work/report.html"
echo "pictures: $work/waterfall.svg, $work/report.html"
