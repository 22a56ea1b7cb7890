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
#   bash scripts/gpu-check.sh --emulated the same sequence here, on the SIMT
#                                        emulator (gpus.backend = cuda-emulated)
#                                        at small sizes: proves the script, not
#                                        the GPU
#
# Sizes (environment): CUZK_GPU_NTT_MAX_LOG (27), CUZK_GPU_H_LOG (27),
# CUZK_GPU_MSM_G1_MAX_LOG (26), CUZK_GPU_MSM_G2_MAX_LOG (24),
# CUZK_GPU_PARTITION_SHAPE (porep-32g), CUZK_GPU_PROOFS (8);
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

fail() {
  emit "{\"gpu_check\":\"FAILED\",\"stage\":\"$1\",\"seconds\":$((SECONDS - t_start))}"
  exit 1
}

# JSON field of a one-object file: json_get FILE 'expr on d'
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# The main job: a batch through the daemon on one backend, then our
# analysis of its TIMELINE log. Prints one JSON line.
main_job() {
  local backend=$1 kind=$2 bin=$3 work=$4 proofs=$5
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
max_parallel_synthesis = 4
synthesis_concurrency = 2
[srs]
param_cache = "$work/params"
EOF
  "$bin/cuzk-daemon" --config "$work/$backend.toml" 2>"$log" &
  local daemon=$!
  for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
  local args
  if [ "$kind" = porep ]; then args=(-t porep --c1 "$work/c1.json"); else args=(-t r1cs --circuit cube-2000r-2i --witness "$work/w1.cuzk-wtns"); fi
  "$bin/cuzk-bench" -a "unix://$sock" preload -c "$([ "$kind" = porep ] && echo porep-2k || echo cube-2000r-2i)" >/dev/null
  "$bin/cuzk-bench" -a "unix://$sock" batch "${args[@]}" -c "$proofs" -j 4 --progress 0 >"$work/$backend-batch.txt" ||
    { kill -TERM $daemon; cat "$work/$backend-batch.txt"; fail "main job ($backend)"; }
  kill -TERM $daemon
  wait $daemon || true
  grep -E 'completed:|throughput' "$work/$backend-batch.txt"
  "$bin/cuzk-bench" timeline analyze --json "$log" >"$work/$backend-analysis.json"
  local util sperproof completed
  util=$(json_get "$work/$backend-analysis.json" "d['runs'][-1]['device_utilization']")
  sperproof=$(json_get "$work/$backend-analysis.json" "d['runs'][-1]['s_per_proof']")
  completed=$(grep -oE 'completed: +[0-9]+' "$work/$backend-batch.txt" | grep -oE '[0-9]+$')
  [ "$completed" = "$proofs" ] || fail "main job ($backend): $completed of $proofs completed"
  emit "{\"bench\":\"main_job\",\"kind\":\"$kind\",\"backend\":\"$backend\",\"proofs\":$proofs,\"completed\":$completed,\"device_utilization\":$util,\"s_per_proof\":$sperproof}"
}

check() {
  local bin=$1 tests=$2 backend=$3 emulated=$4
  : >"$jsonl"
  if [ "$emulated" = 0 ]; then
    echo "== nvidia-smi"
    command -v nvidia-smi >/dev/null || fail "nvidia-smi not found: not a GPU machine"
    nvidia-smi
  fi
  echo "== CUDA tests"
  local log
  log=$(mktemp)
  set +e
  "$tests" --gtest_filter='-CudaBench.*:*Slow' 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  ((rc == 0)) || fail tests
  # On a GPU machine a skipped test means the device was not found.
  if grep -qE '^\[  SKIPPED \]' "$log"; then fail "tests skipped"; fi
  emit "{\"gpu_check\":\"tests passed\",\"tests\":$(grep -oE '\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$')}"

  echo "== timings"
  local small=$emulated
  CUZK_CUDA_BENCH=1 \
    CUZK_CUDA_BENCH_MIN_LOG=$((small ? 10 : 20)) CUZK_CUDA_BENCH_MAX_LOG=$((small ? 11 : ${CUZK_GPU_NTT_MAX_LOG:-27})) \
    CUZK_CUDA_BENCH_H_LOG=$((small ? 11 : ${CUZK_GPU_H_LOG:-27})) \
    CUZK_CUDA_BENCH_MSM_G1_MIN_LOG=$((small ? 9 : 20)) \
    CUZK_CUDA_BENCH_MSM_G1_MAX_LOG=$((small ? 9 : ${CUZK_GPU_MSM_G1_MAX_LOG:-26})) \
    CUZK_CUDA_BENCH_MSM_G2_MIN_LOG=$((small ? 7 : 22)) \
    CUZK_CUDA_BENCH_MSM_G2_MAX_LOG=$((small ? 7 : ${CUZK_GPU_MSM_G2_MAX_LOG:-24})) \
    "$tests" --gtest_filter="CudaBench.*$( ((small)) && echo ':-CudaBench.FrMulThroughput')" 2>&1 | tee "$log"
  grep -qE '^\[  FAILED  \]' "$log" && fail timings
  grep -E '^\{' "$log" >>"$jsonl" || true
  rm -f "$log"

  echo "== device phase of one partition"
  local shape=${CUZK_GPU_PARTITION_SHAPE:-porep-32g}
  ((small)) && shape=log:12
  "$bin/cuzk-bench" micro device-phase --shape "$shape" --backend "$backend" --reps 3 | tee -a "$jsonl" ||
    fail "device phase ($shape)"
  local ratio_shape=log:22
  ((small)) && ratio_shape=log:10
  for b in "$backend" cpu; do
    "$bin/cuzk-bench" micro device-phase --shape "$ratio_shape" --backend "$b" --reps 3 | tee -a "$jsonl" ||
      fail "device phase ($ratio_shape, $b)"
  done

  echo "== main job: a batch through the daemon on the device and on the CPU"
  local work
  work=$(mktemp -d)
  local proofs=${CUZK_GPU_PROOFS:-8} kind=porep
  if ((small)); then
    kind=r1cs
    proofs=2
    "$bin/cuzk-bench" gen-circuit --param-cache "$work/params" --rounds 2000 --extra-inputs 2 >/dev/null 2>&1
    "$bin/cuzk-bench" gen-witness --rounds 2000 --extra-inputs 2 --x 3 -o "$work/w1.cuzk-wtns" >/dev/null
  else
    "$bin/cuzk" setup --circuit porep-2k --param-dir "$work/params" | tail -n 1
    "$bin/cuzk-bench" gen-vanilla porep --sector-size 2KiB --sector-num 1 -o "$work/c1.json" >/dev/null
  fi
  main_job "$backend" "$kind" "$bin" "$work" "$proofs"
  main_job cpu "$kind" "$bin" "$work" "$proofs"
  rm -rf "$work"
  emit "{\"gpu_check\":\"passed\",\"seconds\":$((SECONDS - t_start))}"
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
    [[ -f build-gpu/bundle.tar.xz ]] || { echo "gpu-check: no build-gpu/bundle.tar.xz (make it with --bundle)" >&2; exit 1; }
    rm -rf /tmp/cuzk-bundle
    mkdir -p /tmp/cuzk-bundle
    tar -C /tmp/cuzk-bundle -xJf build-gpu/bundle.tar.xz
    export LD_LIBRARY_PATH="/tmp/cuzk-bundle/bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    check /tmp/cuzk-bundle/bundle/bin /tmp/cuzk-bundle/bundle/bin/test_cuda cuda 0
    ;;
  --emulated)
    CUZK_BUILD_TARGETS="test_cuda_emu cuzk-daemon cuzk cuzk-bench" bash scripts/build.sh
    check build/apps build/tests/test_cuda_emu cuda-emulated 1
    ;;
  *)
    echo "usage: bash scripts/gpu-check.sh [--bundle | --bundled | --emulated]" >&2
    exit 2
    ;;
esac
