#!/usr/bin/env bash
# gpu-check.sh: validates the CUDA layer (src/cuda, issue 20) on a machine
# with an NVIDIA GPU: prints nvidia-smi, runs every test of test_cuda (none
# may skip for want of a device), then times the NTT at 2^20..2^27 and Fr
# multiplication, one JSON line per figure. Under 8 minutes on an H200.
#
#   bash scripts/gpu-check.sh            configure build-gpu (CUZK_CUDA=ON),
#                                        build test_cuda, check. Needs the
#                                        build dependencies (scripts/install-deps.sh).
#   bash scripts/gpu-check.sh --bundle   build only (portable: CUZK_NATIVE=OFF)
#                                        and pack build-gpu/bundle: test_cuda
#                                        and the shared libraries it needs that
#                                        a CUDA-only image lacks (oneTBB, GMP).
#   bash scripts/gpu-check.sh --bundled  check with build-gpu/bundle, no build:
#                                        for a GPU machine that has CUDA but
#                                        not the dependencies (the lent H200;
#                                        carry build-gpu/bundle there).
#
# Environment: CUZK_GPU_NTT_MAX_LOG (27) bounds the NTT timings; CUZK_GPU_JOBS
# (nproc) the build's parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cmake-generator.sh

mode=${1:-full}
bundle=build-gpu/bundle
t_start=$SECONDS

build() {
  local native=$1
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_NATIVE="$native" \
    -DCUZK_BUILD_BENCH=OFF >/dev/null
  cmake --build build-gpu -j"${CUZK_GPU_JOBS:-$(nproc)}" --target test_cuda
}

make_bundle() {
  build OFF
  rm -rf "$bundle"
  mkdir -p "$bundle/lib"
  cp build-gpu/tests/test_cuda "$bundle/"
  # Libraries outside the base system and CUDA (libcudart travels too: small,
  # and it pins the runtime version the binary was built against).
  ldd build-gpu/tests/test_cuda | awk '/=> \// {print $3}' |
    grep -E 'libtbb|libgmp|libcudart|libgtest' | while read -r lib; do
      cp -L "$lib" "$bundle/lib/"
    done
  echo "gpu-check: bundle in $bundle ($(du -sh "$bundle" | cut -f1)); carry it and run: bash scripts/gpu-check.sh --bundled"
}

check() {
  local bin=$1
  echo "== nvidia-smi"
  if ! command -v nvidia-smi >/dev/null; then
    echo "gpu-check: nvidia-smi not found: not a GPU machine" >&2
    exit 1
  fi
  nvidia-smi
  echo "== GPU tests"
  local log
  log=$(mktemp)
  set +e
  "$bin" --gtest_filter='-CudaBench.*' 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  if ((rc != 0)); then
    echo '{"gpu_check":"FAILED","stage":"tests"}'
    exit 1
  fi
  # On a GPU machine a skip means the device was not found: that is a failure.
  if grep -q 'no CUDA device' "$log"; then
    echo '{"gpu_check":"FAILED","stage":"tests","why":"tests skipped: cuda::device_count() == 0"}'
    exit 1
  fi
  echo "== timings"
  CUZK_CUDA_BENCH=1 CUZK_CUDA_BENCH_MAX_LOG="${CUZK_GPU_NTT_MAX_LOG:-27}" \
    "$bin" --gtest_filter='CudaBench.*' 2>&1 | tee "$log"
  if grep -qE '^\[  FAILED  \]' "$log"; then
    echo '{"gpu_check":"FAILED","stage":"timings"}'
    exit 1
  fi
  rm -f "$log"
  echo "{\"gpu_check\":\"passed\",\"seconds\":$((SECONDS - t_start))}"
}

case "$mode" in
  full)
    build "${CUZK_NATIVE:-ON}"
    check build-gpu/tests/test_cuda
    ;;
  --bundle)
    make_bundle
    ;;
  --bundled)
    [[ -x "$bundle/test_cuda" ]] || { echo "gpu-check: no $bundle/test_cuda (make it with --bundle)" >&2; exit 1; }
    export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    check "$bundle/test_cuda"
    ;;
  *)
    echo "usage: bash scripts/gpu-check.sh [--bundle | --bundled]" >&2
    exit 2
    ;;
esac
