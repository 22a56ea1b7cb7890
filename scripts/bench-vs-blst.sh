#!/usr/bin/env bash
# cuzk's MSM against blst's, side by side in one process (bench/blst/msm_vs_blst.cpp).
#
#   scripts/bench-vs-blst.sh BLST_TARBALL [msm_vs_blst options]
#   e.g. scripts/bench-vs-blst.sh blst.tar.gz --group g1 --log-n 16 18 --scalars uniform filecoin --reps 5
#
# BLST_TARBALL: blst's public source (supranational/blst; build.sh, src/, build/,
# bindings/). It is unpacked and built (with its assembly) under
# $CUZK_BUILD_DIR/blst, outside the project's CMake build: the project builds
# and passes its tests without it. The harness links the project's static
# libraries (scripts/build.sh builds them). blst's C Pippenger runs on the
# calling thread; cuzk gets --threads (default 1). CUZK_BENCH_CPU=N pins the
# process to core N (taskset); CUZK_NO_IFMA=1 / CUZK_NO_ASM=1 time cuzk's
# other kernels against the same blst.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
tarball=$(realpath "$1")
shift
build=${CUZK_BUILD_DIR:-build}
CUZK_BUILD_TARGETS="cuzk_msm" bash scripts/build.sh
blst_dir=$build/blst
stamp=$blst_dir/.source
if [ ! -f "$blst_dir/libblst.a" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$(sha256sum < "$tarball")" ]; then
  rm -rf "$blst_dir"
  mkdir -p "$blst_dir"
  tar xzf "$tarball" -C "$blst_dir"
  if [ ! -f "$blst_dir/build.sh" ]; then  # a tarball with a top-level folder
    inner=$(dirname "$(find "$blst_dir" -maxdepth 2 -name build.sh | head -1)")
    cp -r "$inner"/. "$blst_dir"/
  fi
  (cd "$blst_dir" && ./build.sh > build.log 2>&1)
  sha256sum < "$tarball" > "$stamp"
fi
blst_inc=$(dirname "$(find "$blst_dir" -name blst.h -path '*bindings*' | head -1)")
exe=$build/msm_vs_blst
${CXX:-c++} -std=c++20 -O3 -DNDEBUG -march=native -o "$exe" bench/blst/msm_vs_blst.cpp \
  -Isrc -Iapps/cuzk-bench -I"$blst_inc" \
  "$build"/libcuzk_msm.a "$build"/libcuzk_ec.a "$build"/libcuzk_platform.a "$blst_dir"/libblst.a \
  -ltbb -ldl -lpthread
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${CUZK_BENCH_CPU:-}" ]; then
  exec taskset -c "$CUZK_BENCH_CPU" "$exe" "$@"
fi
exec "$exe" "$@"
