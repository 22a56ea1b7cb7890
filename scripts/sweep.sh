#!/usr/bin/env bash
# Throughput sweep of the daemon (as the seeds' phase sweeps): for each
# configuration — pipeline on/off, gpu_workers_per_device, max_parallel_synthesis,
# client concurrency -j — start a daemon, prove a batch, stop it, and record
# throughput plus the TIMELINE device utilization and verdict. Prints a table.
#
# Usage: scripts/sweep.sh [CONFIGS...] where a config is
#   "pipeline:workers:max_synth:j[:throttle]"  e.g. "true:2:2:2" or "true:2:2:2:true"
#   (throttle = pipeline.throttle_synthesis_during_tail; default list below).
# Environment: CUZK_SWEEP_ROUNDS, CUZK_SWEEP_PARTITIONS, CUZK_SWEEP_PROOFS, CUZK_BUILD_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUZK_BUILD_DIR:-build}
bench=$build/apps/cuzk-bench
daemon_bin=$build/apps/cuzk-daemon
[ -x "$daemon_bin" ] || bash scripts/build.sh
rounds=${CUZK_SWEEP_ROUNDS:-4000}
partitions=${CUZK_SWEEP_PARTITIONS:-4}
proofs=${CUZK_SWEEP_PROOFS:-6}
work=.cache/cuzk-sweep
params=$work/params
mkdir -p "$work"
"$bench" gen-circuit --param-cache "$params" --rounds "$rounds" --extra-inputs 2 >/dev/null
circuit="cube-${rounds}r-2i"
wargs=()
for ((p = 1; p <= partitions; p++)); do
  "$bench" gen-witness --rounds "$rounds" --extra-inputs 2 --x "$p" -o "$work/w$p.cuzk-wtns" >/dev/null
  wargs+=(--witness "$work/w$p.cuzk-wtns")
done

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=("false:1:1:1" "true:1:1:2" "true:2:1:2" "true:2:2:2" "true:2:2:2:true" "true:2:2:4" "true:3:2:4")

printf '%-9s %-8s %-10s %-3s %-9s %-11s %-9s %-12s %s\n' pipeline workers max_synth j throttle "proofs/min" "s/proof" "device util" verdict
for cfg in "${configs[@]}"; do
  IFS=: read -r pipe workers msynth j throttle <<<"$cfg"
  throttle=${throttle:-false}
  sock=$PWD/$work/sweep.sock
  log=$work/sweep-$pipe-$workers-$msynth-$j-$throttle.log
  cat > "$work/sweep.toml" <<TOML
[daemon]
listen = "unix://$sock"
[gpus]
gpu_workers_per_device = $workers
[synthesis]
threads = 1
[pipeline]
enabled = $pipe
max_parallel_synthesis = $msynth
throttle_synthesis_during_tail = $throttle
[srs]
param_cache = "$PWD/$params"
TOML
  "$daemon_bin" --config "$work/sweep.toml" --log-level warn 2> "$log" &
  pid=$!
  for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
  "$bench" -a "unix://$sock" preload -c "$circuit" >/dev/null
  out=$("$bench" -a "unix://$sock" batch -t r1cs --circuit "$circuit" "${wargs[@]}" -c "$proofs" -j "$j" --progress 0)
  kill -TERM "$pid"; wait "$pid" || true
  tput=$(grep -o 'throughput: *[0-9.]* proofs/min ([0-9.]*s/proof)' <<<"$out" | sed 's/throughput: *//')
  analysis=$("$bench" timeline analyze "$log")
  util=$(grep -o 'device utilization [0-9.]*%' <<<"$analysis" | head -1 | awk '{print $3}')
  verdict=$(grep -o 'verdict: [A-Z-]*' <<<"$analysis" | head -1 | awk '{print $2}')
  ppm=$(awk '{print $1}' <<<"$tput"); spp=$(grep -o '([0-9.]*s' <<<"$tput" | tr -d '(s')
  printf '%-9s %-8s %-10s %-3s %-9s %-11s %-9s %-12s %s\n' "$pipe" "$workers" "$msynth" "$j" "$throttle" "$ppm" "$spp" "$util" "$verdict"
done
