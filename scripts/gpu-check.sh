#!/usr/bin/env bash
# gpu-check.sh: validates and measures the CUDA backend on a machine with an
# NVIDIA GPU, in one command, in well under 8 minutes on an H200:
#   1. every CUDA test (test_cuda, the CudaBench timings excepted), none
#      skipped for want of a device;
#   2. timings as JSON lines: NTT 2^20..2^27, the H step at 2^27, G1 MSM
#      2^20..2^26 and G2 MSM 2^22..2^24 (uniform and Filecoin-like scalars),
#      Fr multiplication throughput;
#   3. the device phase of one partition of the 32 GiB PoRep shape (its real
#      counts; parameters of that size repeated from random points, a
#      Filecoin-like witness: cuzk-bench micro device-phase), and of a 2^22
#      shape on the GPU and on the CPU backend of the same machine (ratio);
#   4. the main job's 2 KiB PoRep batch through the daemon on the GPU and on
#      the CPU backend, each with its device utilization from our analysis.
# Everything is printed, and the JSON lines are also collected in
# gpu-check.jsonl (in $OUT when set, else the working directory).
#
#   bash scripts/gpu-check.sh            configure build-gpu (CUZK_CUDA=ON),
#                                        build, check (a GPU machine with the
#                                        build dependencies: scripts/install-deps.sh)
#   bash scripts/gpu-check.sh --bundle   build here (portable: CUZK_NATIVE=OFF)
#                                        and pack build-gpu/bundle.tar.xz: the
#                                        programs and the shared libraries a
#                                        CUDA-only image lacks (carry it there)
#   bash scripts/gpu-check.sh --bundled  unpack build-gpu/bundle.tar.xz and
#                                        check with it (the lent H200, which has
#                                        CUDA but none of our dependencies)
#   bash scripts/gpu-check.sh --profile  with the bundle, for tuning: Nsight
#                                        Compute on the MSM's and the NTT's
#                                        kernels, a sweep of the MSM's window
#                                        and work per thread (ncu-*.txt, *.csv
#                                        and gpu-check.jsonl in $OUT)
#   bash scripts/gpu-check.sh --recheck  with the bundle, after a kernel change:
#                                        tests, MSM timings, one 32 GiB
#                                        partition, the GPU main job
#   bash scripts/gpu-check.sh --emulated the same sequence here, on the SIMT
#                                        emulator (gpus.backend = cuda-emulated)
#                                        at small sizes: proves the script, not
#                                        the GPU
#
# Sizes (environment): CUZK_GPU_NTT_MAX_LOG (27), CUZK_GPU_H_LOG (27),
# CUZK_GPU_MSM_G1_MAX_LOG (26), CUZK_GPU_MSM_G2_MAX_LOG (24),
# CUZK_GPU_PARTITION_SHAPE (porep-32g), CUZK_GPU_PROOFS (32 on the GPU, a
# quarter of that on the CPU backend);
# CUZK_GPU_JOBS (nproc) the build's parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cmake-generator.sh

mode=${1:-full}
t_start=$SECONDS
out_dir=${OUT:-$PWD}
jsonl=$out_dir/gpu-check.jsonl
programs=(tests/test_cuda apps/cuzk-daemon apps/cuzk apps/cuzk-bench)

build() {
  local native=$1
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_NATIVE="$native" \
    -DCUZK_BUILD_BENCH=OFF >/dev/null
  cmake --build build-gpu -j"${CUZK_GPU_JOBS:-$(nproc)}" --target test_cuda cuzk-daemon cuzk cuzk-bench
}

make_bundle() {
  build OFF
  local dir=build-gpu/bundle
  rm -rf "$dir" build-gpu/bundle.tar.xz
  mkdir -p "$dir/bin" "$dir/lib"
  for p in "${programs[@]}"; do cp "build-gpu/$p" "$dir/bin/"; done
  # Every shared library outside glibc (the image has its own, newer one).
  for p in "${programs[@]}"; do ldd "build-gpu/$p"; done | awk '/=> \// {print $3}' | sort -u |
    grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[^/]*)\.so' | while read -r lib; do
      cp -L "$lib" "$dir/lib/"
    done
  tar -C build-gpu -cJf build-gpu/bundle.tar.xz bundle
  echo "gpu-check: build-gpu/bundle.tar.xz ($(du -h build-gpu/bundle.tar.xz | cut -f1)); carry it and run:" \
    "bash scripts/gpu-check.sh --bundled"
}

emit() {  # a JSON line: printed and collected
  echo "$1"
  echo "$1" >>"$jsonl"
}

# JSON field of a one-object file: json_get FILE 'expr on d'
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# One stage under a time limit. A stage that fails or runs out of time is
# recorded and the next one still runs: a lent GPU's minutes are few, and one
# call should bring back every figure it can.
failed=()
stage() {
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS rc=0
  echo "== $name (at most ${limit} s)"
  timeout -k 5 "$limit" bash -c '"$@"' stage "$@" || rc=$?
  if ((rc == 0)); then
    emit "{\"stage\":\"$name\",\"ok\":true,\"seconds\":$((SECONDS - t0))}"
  else
    failed+=("$name")
    local timed_out=false
    ((rc == 124 || rc == 137)) && timed_out=true
    emit "{\"stage\":\"$name\",\"ok\":false,\"rc\":$rc,\"timed_out\":$timed_out,\"seconds\":$((SECONDS - t0))}"
  fi
}

stage_tests() {
  local tests=$1 emulated=$2 log=$out_dir/gpu-check-tests.log
  set -o pipefail
  "$tests" --gtest_filter='-CudaBench.*:*Slow' 2>&1 | tee "$log" || return 1
  # On a GPU machine a skipped test means the device was not found.
  if ((emulated == 0)) && grep -qE '^\[  SKIPPED \]' "$log"; then
    echo "gpu-check: tests were skipped on a GPU machine" >&2
    return 1
  fi
  emit "{\"gpu_check\":\"tests passed\",\"tests\":$(grep -oE '\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$')}"
}

stage_timings() {
  local tests=$1 small=$2 filter=$3 log rc=0
  log=$(mktemp)
  set -o pipefail
  CUZK_CUDA_BENCH=1 \
    CUZK_CUDA_BENCH_MIN_LOG=$((small ? 10 : 20)) CUZK_CUDA_BENCH_MAX_LOG=$((small ? 11 : ${CUZK_GPU_NTT_MAX_LOG:-27})) \
    CUZK_CUDA_BENCH_H_LOG=$((small ? 11 : ${CUZK_GPU_H_LOG:-27})) \
    CUZK_CUDA_BENCH_MSM_G1_MIN_LOG=$((small ? 9 : 20)) \
    CUZK_CUDA_BENCH_MSM_G1_MAX_LOG=$((small ? 9 : ${CUZK_GPU_MSM_G1_MAX_LOG:-26})) \
    CUZK_CUDA_BENCH_MSM_G2_MIN_LOG=$((small ? 7 : 22)) \
    CUZK_CUDA_BENCH_MSM_G2_MAX_LOG=$((small ? 7 : ${CUZK_GPU_MSM_G2_MAX_LOG:-24})) \
    "$tests" --gtest_filter="$filter" 2>&1 | tee "$log" || rc=1
  grep -E '^\{' "$log" >>"$jsonl" || true
  grep -qE '^\[  FAILED  \]' "$log" && rc=1
  return $rc
}

stage_device_phase() {
  local bin=$1 backend=$2 shape=$3
  set -o pipefail
  "$bin/cuzk-bench" micro device-phase --shape "$shape" --backend "$backend" --reps 3 | tee -a "$jsonl"
}

stage_main_inputs() {
  local bin=$1 small=$2 work=$3
  set -o pipefail
  if ((small)); then
    "$bin/cuzk-bench" gen-circuit --param-cache "$work/params" --rounds 2000 --extra-inputs 2 >/dev/null 2>&1 &&
      "$bin/cuzk-bench" gen-witness --rounds 2000 --extra-inputs 2 --x 3 -o "$work/w1.cuzk-wtns" >/dev/null
  else
    "$bin/cuzk" setup --circuit porep-2k --param-dir "$work/params" | tail -n 1 &&
      "$bin/cuzk-bench" gen-vanilla porep --sector-size 2KiB --sector-num 1 -o "$work/c1.json" >/dev/null
  fi
}

# The main job: a batch through the daemon on one backend, then our
# analysis of its TIMELINE log (one JSON line; the log is kept in $OUT).
stage_main_job() {
  local backend=$1 kind=$2 bin=$3 work=$4 proofs=$5 clients=$6 synth=$7
  local sock=$work/$backend.sock log=$work/$backend-daemon.log
  cat >"$work/$backend.toml" <<EOF
[daemon]
listen = "unix://$sock"
[memory]
total_budget = "32GiB"
[gpus]
backend = "$backend"
gpu_workers_per_device = 2
[pipeline]
max_parallel_synthesis = $synth
synthesis_concurrency = 2
[srs]
param_cache = "$work/params"
EOF
  "$bin/cuzk-daemon" --config "$work/$backend.toml" 2>"$log" &
  local daemon=$!
  # shellcheck disable=SC2064 # expand now: the trap runs after the locals are gone
  trap "kill -TERM $daemon 2>/dev/null; cp '$log' '$out_dir/gpu-check-$backend-daemon.log' 2>/dev/null" EXIT
  for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
  local args circuit=cube-2000r-2i rc=0
  if [ "$kind" = porep ]; then
    args=(-t porep --c1 "$work/c1.json")
    circuit=porep-2k
  else
    args=(-t r1cs --circuit cube-2000r-2i --witness "$work/w1.cuzk-wtns")
  fi
  "$bin/cuzk-bench" -a "unix://$sock" preload -c "$circuit" >/dev/null || return 1
  "$bin/cuzk-bench" -a "unix://$sock" batch "${args[@]}" -c "$proofs" -j "$clients" --progress 0 >"$work/$backend-batch.txt" || rc=1
  cat "$work/$backend-batch.txt"
  kill -TERM $daemon
  wait $daemon || true
  ((rc == 0)) || return 1
  "$bin/cuzk-bench" timeline analyze --json "$log" >"$work/$backend-analysis.json" || return 1
  "$bin/cuzk-bench" timeline analyze "$log" | head -n 40 || true
  local util sperproof completed
  util=$(json_get "$work/$backend-analysis.json" "d['runs'][-1]['device_utilization']")
  sperproof=$(json_get "$work/$backend-analysis.json" "d['runs'][-1]['s_per_proof']")
  completed=$(grep -oE 'completed: +[0-9]+' "$work/$backend-batch.txt" | grep -oE '[0-9]+$')
  emit "{\"bench\":\"main_job\",\"kind\":\"$kind\",\"backend\":\"$backend\",\"proofs\":$proofs,\"completed\":$completed,\"device_utilization\":$util,\"s_per_proof\":$sperproof}"
  [ "$completed" = "$proofs" ]
}

export out_dir jsonl
export -f emit json_get stage_tests stage_timings stage_device_phase stage_main_inputs stage_main_job

# Stages in the order of their worth: correctness, the headline timings, one
# partition's device phase, the main job. The limits are sized for an H200,
# where the whole sequence should take about 5 minutes if nothing hangs.
check() {
  local bin=$1 tests=$2 backend=$3 emulated=$4
  local small=$emulated
  : >"$jsonl"
  if [ "$emulated" = 0 ]; then
    echo "== nvidia-smi"
    command -v nvidia-smi >/dev/null || { emit '{"gpu_check":"FAILED","stage":"nvidia-smi not found"}'; exit 1; }
    nvidia-smi || true
    emit "{\"gpu\":\"$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | head -n 1)\"}"
  fi
  local x=$((emulated ? 20 : 1))  # the emulator is slow: its limits are wider
  stage tests $((x * 150)) stage_tests "$tests" "$emulated"
  local filter="CudaBench.*$( ((small)) && echo ':-CudaBench.FrMulThroughput')"
  stage timings $((x * 150)) stage_timings "$tests" "$small" "$filter"

  local shape=${CUZK_GPU_PARTITION_SHAPE:-porep-32g} ratio_shape=log:22
  ((small)) && shape=log:12 && ratio_shape=log:10
  stage "device phase $shape" $((x * 120)) stage_device_phase "$bin" "$backend" "$shape"
  for b in "$backend" cpu; do
    stage "device phase $ratio_shape $b" $((x * 45)) stage_device_phase "$bin" "$b" "$ratio_shape"
  done

  local work
  work=$(mktemp -d)
  # A 2 KiB PoRep proof is one partition whose synthesis takes a core for
  # about a third of a second: the GPU needs most of the cores synthesizing
  # (and as many jobs in flight) to be kept busy; the CPU backend needs its
  # cores for the MSMs.
  local proofs=${CUZK_GPU_PROOFS:-32} kind=porep cores
  cores=$(nproc)
  local synth=$((cores > 4 ? cores - 2 : 2))
  ((small)) && kind=r1cs && proofs=2 && synth=2
  stage "main job inputs" $((x * 120)) stage_main_inputs "$bin" "$small" "$work"
  # nvidia-smi's own view of the GPU's load, beside our TIMELINE analysis.
  local dmon=
  if [ "$emulated" = 0 ]; then
    nvidia-smi dmon -s u -o T >"$out_dir/gpu-check-dmon.txt" 2>&1 &
    dmon=$!
  fi
  stage "main job $backend" $((x * 60)) stage_main_job "$backend" "$kind" "$bin" "$work" "$proofs" "$synth" "$synth"
  [ -n "$dmon" ] && kill "$dmon" 2>/dev/null
  stage "main job cpu" $((x * 90)) stage_main_job cpu "$kind" "$bin" "$work" $((proofs / 4 > 2 ? proofs / 4 : 2)) 4 4
  rm -rf "$work"
  if ((${#failed[@]} == 0)); then
    emit "{\"gpu_check\":\"passed\",\"seconds\":$((SECONDS - t_start))}"
  else
    emit "{\"gpu_check\":\"FAILED\",\"failed\":\"${failed[*]}\",\"seconds\":$((SECONDS - t_start))}"
    exit 1
  fi
}

# The profile: where the device time goes, for tuning. Nsight Compute's
# per-kernel durations of one G1 MSM of 2^24 and its detailed sections for
# the MSM's bucket sums and the NTT's passes, a sweep of the MSM's window and
# work per thread, and (CUZK_GPU_PROFILE_PARTITION=1) the device phase of
# one 32 GiB PoRep partition.
stage_ncu() {
  local what=$1 file=$2
  shift 2
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
  [ -n "$ncu" ] || { echo "gpu-check: no ncu" >&2; return 1; }
  echo "ncu: $what"
  "$ncu" --clock-control none "$@" >"$out_dir/$file" 2>&1
  local rc=$?
  tail -n 60 "$out_dir/$file"
  return $rc
}
export -f stage_ncu

profile() {
  local bin=$1 tests=$2
  : >"$jsonl"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader || true
  local bench_env=(env CUZK_CUDA_BENCH=1 CUZK_CUDA_BENCH_MSM_SWEEP_LOG=24)
  local sections=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
    --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis)
  stage "ncu msm kernels" 60 stage_ncu "kernel durations of G1 MSMs of 2^24" ncu-msm-kernels.csv \
    --metrics gpu__time_duration.sum --csv --print-units base \
    "${bench_env[@]}" "$tests" --gtest_filter=CudaBench.MsmSweep
  stage "ncu msm sections" 60 stage_ncu "sections of the first bucket-sum kernel" ncu-msm-sections.txt \
    -k regex:k_segmented_sum --launch-count 1 "${sections[@]}" \
    "${bench_env[@]}" "$tests" --gtest_filter=CudaBench.MsmSweep
  stage "ncu ntt sections" 45 stage_ncu "sections of the NTT's first passes at 2^24" ncu-ntt-sections.txt \
    -k regex:k_ntt_pass --launch-count 3 "${sections[@]}" \
    env CUZK_CUDA_BENCH=1 CUZK_CUDA_BENCH_MIN_LOG=24 CUZK_CUDA_BENCH_MAX_LOG=24 "$tests" --gtest_filter=CudaBench.Ntt
  stage "msm sweep" 60 stage_timings_sweep "$tests"
  [ -n "${CUZK_GPU_PROFILE_PARTITION:-}" ] &&
    stage "device phase porep-32g" 240 stage_device_phase_reps "$bin" cuda porep-32g 1
  emit "{\"gpu_profile\":\"done\",\"failed\":\"${failed[*]}\",\"seconds\":$((SECONDS - t_start))}"
}

stage_timings_sweep() {
  local tests=$1
  set -o pipefail
  CUZK_CUDA_BENCH=1 CUZK_CUDA_BENCH_MSM_SWEEP_LOG=${CUZK_GPU_SWEEP_LOG:-24} \
    CUZK_CUDA_BENCH_MSM_WINDOWS=${CUZK_GPU_SWEEP_WINDOWS:-0,13,16,18} \
    CUZK_CUDA_BENCH_MSM_PAIRS=${CUZK_GPU_SWEEP_PAIRS:-0,32,256} \
    CUZK_CUDA_BENCH_MSM_BLOCKS=${CUZK_GPU_SWEEP_BLOCKS:-0} \
    "$tests" --gtest_filter=CudaBench.MsmSweep | tee /dev/stderr | { grep -E '^\{' >>"$jsonl" || true; }
}

stage_device_phase_reps() {
  local bin=$1 backend=$2 shape=$3 reps=$4
  set -o pipefail
  "$bin/cuzk-bench" micro device-phase --shape "$shape" --backend "$backend" --reps "$reps" | tee -a "$jsonl"
}
export -f stage_timings_sweep stage_device_phase_reps

# A shorter check after a kernel change: the CUDA tests (the MSM's also with
# the other occupancy of its bucket-sum kernel), the MSM timings and the
# occupancy sweep, one 32 GiB PoRep partition's device phase, the GPU main
# job.
recheck() {
  local bin=$1 tests=$2
  : >"$jsonl"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader || true
  stage tests 90 stage_tests "$tests" 0
  stage "msm tests, 1 block per SM" 60 env CUZK_CUDA_MSM_BLOCKS_PER_SM=1 "$tests" --gtest_filter='CudaMsm*:*Conformance*Msm*'
  CUZK_GPU_SWEEP_WINDOWS=0 CUZK_GPU_SWEEP_PAIRS=0 CUZK_GPU_SWEEP_BLOCKS=1,4 \
    stage "msm occupancy sweep" 45 stage_timings_sweep "$tests"
  stage timings 90 stage_timings "$tests" 0 "CudaBench.Msm"
  stage "ncu msm sections" 40 stage_ncu "sections of the first bucket-sum kernel" ncu-msm-sections.txt \
    -k regex:k_segmented_sum --launch-count 1 --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    env CUZK_CUDA_BENCH=1 CUZK_CUDA_BENCH_MSM_SWEEP_LOG=24 "$tests" --gtest_filter=CudaBench.MsmSweep
  stage "device phase porep-32g" 150 stage_device_phase_reps "$bin" cuda porep-32g 1
  local work
  work=$(mktemp -d)
  stage "main job inputs" 60 stage_main_inputs "$bin" 0 "$work"
  local synth=$(($(nproc) > 4 ? $(nproc) - 2 : 2))
  stage "main job cuda" 45 stage_main_job cuda porep "$bin" "$work" 32 "$synth" "$synth"
  emit "{\"gpu_recheck\":\"done\",\"failed\":\"${failed[*]}\",\"seconds\":$((SECONDS - t_start))}"
}

unpack_bundle() {
  [[ -f build-gpu/bundle.tar.xz ]] || { echo "gpu-check: no build-gpu/bundle.tar.xz (make it with --bundle)" >&2; exit 1; }
  rm -rf /tmp/cuzk-bundle
  mkdir -p /tmp/cuzk-bundle
  tar -C /tmp/cuzk-bundle -xJf build-gpu/bundle.tar.xz
  export LD_LIBRARY_PATH="/tmp/cuzk-bundle/bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

case "$mode" in
  full)
    build "${CUZK_NATIVE:-ON}"
    check build-gpu/apps build-gpu/tests/test_cuda cuda 0
    ;;
  --bundle)
    make_bundle
    ;;
  --bundled)
    unpack_bundle
    check /tmp/cuzk-bundle/bundle/bin /tmp/cuzk-bundle/bundle/bin/test_cuda cuda 0
    ;;
  --recheck)
    unpack_bundle
    recheck /tmp/cuzk-bundle/bundle/bin /tmp/cuzk-bundle/bundle/bin/test_cuda
    ;;
  --profile)
    unpack_bundle
    profile /tmp/cuzk-bundle/bundle/bin /tmp/cuzk-bundle/bundle/bin/test_cuda
    ;;
  --emulated)
    CUZK_BUILD_TARGETS="test_cuda_emu cuzk-daemon cuzk cuzk-bench" bash scripts/build.sh
    check build/apps build/tests/test_cuda_emu cuda-emulated 1
    ;;
  *)
    echo "usage: bash scripts/gpu-check.sh [--bundle | --bundled | --profile | --recheck | --emulated]" >&2
    exit 2
    ;;
esac
