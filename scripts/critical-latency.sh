#!/usr/bin/env bash
# How long a CRITICAL WinningPoSt waits while the daemon is saturated with
# PoRep C2 work (issue 16's latency figure). Uses the main job's cached 2 KiB
# PoRep parameters (.cache/cuzk-demo/params; made on first use, minutes),
# starts a daemon, keeps CUZK_LAT_POREP (6) PoRep jobs in flight with
# concurrency 3, submits CUZK_LAT_WINNING (3) WinningPoSt jobs a few seconds
# apart once the device is busy, and prints each one's timings next to the
# device time of one PoRep partition, from the TIMELINE log.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUZK_BUILD_DIR:-build}
bench=$build/apps/cuzk-bench
cli=$build/apps/cuzk
work=.cache/cuzk-latency
params=.cache/cuzk-demo/params
mkdir -p "$work" "$params"
randomness=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a
if ! ls "$params"/v28-stacked-proof-of-replication-*-032d3138*.params >/dev/null 2>&1; then
  echo "generating development parameters for the 2 KiB PoRep circuit (first run only, minutes)"
  "$cli" setup --circuit porep-2k --param-dir "$params"
fi
ls "$params"/v28-proof-of-spacetime-fallback-*-3ea05428*.params >/dev/null 2>&1 ||
  "$cli" setup --circuit winning-post-2k --param-dir "$params" 2>&1 | tail -1
"$bench" gen-vanilla porep --sector-size 2KiB -o "$work/c1.json" >/dev/null
"$bench" gen-vanilla winning-post --sector-size 2KiB --randomness "$randomness" -o "$work/win.json" >/dev/null
sock=$PWD/$work/cuzk.sock
sed -e "s|@SOCKET@|$sock|" -e "s|@PARAMS@|$PWD/$params|" -e "s|@BACKEND@|auto|" config/cuzk-demo.toml > "$work/cuzk.toml"
"$build/apps/cuzk-daemon" --config "$work/cuzk.toml" 2> "$work/daemon.log" &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
"$bench" -a "unix://$sock" preload -c porep-2k >/dev/null
"$bench" -a "unix://$sock" preload -c winning-post-2k >/dev/null
"$bench" -a "unix://$sock" batch -t porep --c1 "$work/c1.json" -c "${CUZK_LAT_POREP:-6}" -j 3 --progress 0 \
  > "$work/porep-batch.txt" &
batch=$!
for i in $(seq 1 "${CUZK_LAT_WINNING:-3}"); do
  sleep 8
  "$bench" -a "unix://$sock" single -t winning --vanilla "$work/win.json" --randomness "$randomness" \
    --registered-proof 0 | grep -E "timings|status"
done
wait "$batch"
kill -TERM "$daemon"; wait "$daemon" || true; trap - EXIT
# Device time per PoRep partition (GPU_LOCK..GPU_UNLOCK), and each WinningPoSt's wait for the device.
awk -F, '
  /,PARSE_START,/ { kind[$4] = $5; sub_t[$4] = $2 }
  /,GPU_LOCK,/    { lock[$4] = $2 }
  /,GPU_UNLOCK,/  { if (kind[$4] == "kind=porep-c2") { d = $2 - lock[$4]; n++; s += d; if (d > mx) mx = d } }
  /,GPU_LOCK,/    { if (kind[$4] == "kind=winning-post")
                      printf "winning %s: submitted -> device (interlock) %d ms\n", substr($4, 1, 8), $2 - sub_t[$4] }
  END { if (n) printf "PoRep device time per partition: avg %d ms, max %d ms (%d partitions)\n", s / n, mx, n }
' "$work/daemon.log"
grep -E "throughput|completed" "$work/porep-batch.txt" | head -3
