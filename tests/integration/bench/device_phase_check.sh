#!/usr/bin/env bash
# `cuzk-bench micro device-phase` (what scripts/gpu-check.sh measures a
# partition's device phase with) on a generic shape of 2^8 rows: on the CPU
# backend and, when the build has it, on the emulated CUDA device. Each run
# prints one JSON object with the shape, the repetitions and positive
# timings; both backends see the same shape. Also checks that the GPU check
# script parses (bash -n): it runs only where a GPU is lent.
set -euo pipefail
bench=$1 root=$2
command -v python3 >/dev/null || exit 77
bash -n "$root/scripts/gpu-check.sh"
check() {  # backend -> checks its JSON line
  "$bench" micro device-phase --shape log:8 --backend "$1" --reps 2 | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
backend = sys.argv[1]
assert d["bench"] == "device_phase" and d["backend"] == backend, d
assert d["rows"] == 255 and d["log_domain"] == 8 and d["aux"] == 255 and d["reps"] == 2, d
assert d["device_phase_ms"] > 0 and d["device_phase_min_ms"] <= d["device_phase_ms"], d
assert d["g2_tail_ms"] > 0 and d["last_msm_g1_ms"] > 0 and d["last_h_ms"] > 0, d
print(backend, "device phase", round(d["device_phase_ms"], 2), "ms")
' "$1"
}
check cpu
if "$bench" micro device-phase --shape log:4 --backend cuda-emulated --reps 1 >/dev/null 2>&1; then
  check cuda-emulated
else
  echo "cuda-emulated: not in this build"
fi
