#!/usr/bin/env bash
# Fuzzes one target (tests/fuzz/<TARGET>_fuzz.cpp) with libFuzzer under
# AddressSanitizer + UBSan, starting from its committed seed corpus.
#   scripts/fuzz.sh TARGET [SECONDS=60]      TARGET "list" prints the targets
# Builds into build-asan (or $CUZK_ASAN_DIR) with clang, the build the
# sanitizer stage of scripts/test.sh shares. Inputs libFuzzer finds go to
# $dir/fuzz/<TARGET>/corpus, not into the repository. A failing input is
# written to $dir/fuzz/<TARGET>/ and the script exits 1: copy it into
# tests/fuzz/regressions/<TARGET>/ (CTest replays it on every run), then fix.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-builds.sh
targets=$(sed -n 's/^set(CUZK_FUZZ_TARGETS \(.*\))$/\1/p' tests/fuzz/CMakeLists.txt)
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] (targets: $targets)}
seconds=${2:-60}
if [ "$target" = list ]; then echo "$targets"; exit 0; fi
case " $targets " in *" $target "*) ;; *) echo "unknown target '$target' (targets: $targets)" >&2; exit 2 ;; esac
dir=${CUZK_ASAN_DIR:-build-asan}
if [ "${CUZK_FUZZ_NO_BUILD:-0}" != 1 ]; then
  asan_configure "$dir"
  cmake --build "$dir" -j "$(nproc)" --target "fuzz_$target" > "$dir/fuzz-build.log" 2>&1 ||
    { tail -n 40 "$dir/fuzz-build.log"; exit 1; }
fi
work=$dir/fuzz/$target
mkdir -p "$work/corpus"
# -rss_limit_mb/-malloc_limit_mb: an input that makes a parser allocate more
# than 2 GiB is a finding (lengths must be checked against the bytes present).
set +e
ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1" \
  "$dir/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" \
  "$work/corpus" "tests/fuzz/corpus/$target" > "$work/fuzz.log" 2>&1
rc=$?
set -e
stats=$(grep -E '^stat::number_of_executed_units' "$work/fuzz.log" | awk '{print $2}')
cov=$(grep -oE 'cov: [0-9]+' "$work/fuzz.log" | tail -n 1)
if [ $rc -eq 0 ]; then
  echo "fuzz_$target: passed (${seconds} s, ${stats:-?} inputs, ${cov:-cov: ?})"
else
  echo "fuzz_$target: FAILED (exit $rc); the end of $work/fuzz.log:"
  tail -n 60 "$work/fuzz.log"
  ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null || true
fi
exit $rc
