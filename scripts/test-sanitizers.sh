#!/usr/bin/env bash
# Sanitizer stage of the test command (scripts/test.sh): two more builds, in
# build-tsan and build-asan (or $CUZK_TSAN_DIR / $CUZK_ASAN_DIR), both
# without -march=native (scripts/sanitizer-builds.sh):
#   ThreadSanitizer  — the engine's scheduler, admission and lifetime tests
#                      (threads, queues, locks, job table, budgets; the fake
#                      proof kind, as real proofs take minutes under TSan).
#                      Not the server suite: gRPC is not instrumented, and
#                      under TSan its suite ran > 13 min with only gRPC-internal
#                      reports;
#   Address+UB       — (clang) the unit suites of the arithmetic, curve, MSM,
#                      NTT, R1CS, gadget, Groth16, format, timeline and
#                      platform layers (every report fails the run);
#   fuzz             — every libFuzzer target of tests/fuzz in the Address+UB
#                      build, $CUZK_FUZZ_SECONDS (20) each from its committed
#                      corpus, two at a time (scripts/fuzz.sh runs one longer).
# Suppressions (with their reasons) are in tests/tsan.supp. CUZK_SANITIZERS
# picks the stages ("thread address fuzz"), empty or "none" skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-builds.sh
stages=${CUZK_SANITIZERS-thread address fuzz}
jobs=$(nproc)
run_one() {  # build dir, suite ("name" or "name:gtest_filter"): prints one line
  local dir=$1 spec=$2 s=${2%%:*} filter='*' t0=$SECONDS
  [ "$spec" != "$s" ] && filter=${spec#*:}
  if "$dir/tests/test_$s" --gtest_brief=1 --gtest_filter="$filter" > "$dir/test_$s.log" 2>&1; then
    echo "  test_$s: passed ($((SECONDS - t0)) s)"
  else
    echo "  test_$s: FAILED ($((SECONDS - t0)) s); the end of $dir/test_$s.log:"
    tail -n 60 "$dir/test_$s.log"
    return 1
  fi
}
run_suites() {  # build dir, suites...: $jobs at a time, reported in order
  local dir=$1 rc=0 i
  shift
  local specs=("$@")
  for ((i = 0; i < ${#specs[@]}; i++)); do
    run_one "$dir" "${specs[i]}" > "$dir/suite_$i.out" 2>&1 &
    if (((i + 1) % jobs == 0)); then wait; fi
  done
  wait
  for ((i = 0; i < ${#specs[@]}; i++)); do
    cat "$dir/suite_$i.out"
    grep -q ': FAILED (' "$dir/suite_$i.out" && rc=1
  done
  return $rc
}
rc=0
for stage in $stages; do
  case $stage in
    thread)
      dir=${CUZK_TSAN_DIR:-build-tsan}
      suites=("engine:Engine.*:Admission.*:Lifetime.*:LoadConfig.*:Parse*")
      echo "== ThreadSanitizer: ${suites[*]} =="
      t0=$SECONDS
      tsan_configure "$dir"
      cmake --build "$dir" -j "$jobs" --target test_engine > "$dir/build.log" 2>&1 ||
        { tail -n 40 "$dir/build.log"; exit 1; }
      echo "  built in $((SECONDS - t0)) s"
      TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp history_size=7 halt_on_error=0 exitcode=66" \
        run_suites "$dir" "${suites[@]}" || rc=1
      ;;
    address)
      dir=${CUZK_ASAN_DIR:-build-asan}
      suites=(platform arith ff ec pairing msm ntt r1cs gadgets groth16 formats timeline)
      echo "== AddressSanitizer + UndefinedBehaviorSanitizer: ${suites[*]} =="
      t0=$SECONDS
      asan_configure "$dir"
      cmake --build "$dir" -j "$jobs" --target "${suites[@]/#/test_}" fuzz_targets > "$dir/build.log" 2>&1 ||
        { tail -n 40 "$dir/build.log"; exit 1; }
      echo "  built in $((SECONDS - t0)) s"
      ASAN_OPTIONS="detect_leaks=1 abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1" \
        run_suites "$dir" "${suites[@]}" || rc=1
      ;;
    fuzz)
      dir=${CUZK_ASAN_DIR:-build-asan}
      seconds=${CUZK_FUZZ_SECONDS:-20}
      targets=$(bash scripts/fuzz.sh list)
      echo "== libFuzzer + Address/UB sanitizers, ${seconds} s per target: $targets =="
      t0=$SECONDS
      asan_configure "$dir"
      cmake --build "$dir" -j "$jobs" --target fuzz_targets > "$dir/fuzz-build.log" 2>&1 ||
        { tail -n 40 "$dir/fuzz-build.log"; exit 1; }
      echo "  built in $((SECONDS - t0)) s"
      # Two at a time (libFuzzer runs one thread); each prints its own line.
      set -- $targets
      while [ $# -gt 0 ]; do
        pids=()
        for _ in $(seq "$jobs"); do
          [ $# -gt 0 ] || break
          CUZK_FUZZ_NO_BUILD=1 bash scripts/fuzz.sh "$1" "$seconds" | sed 's/^/  /' &
          pids+=($!)
          shift
        done
        for p in "${pids[@]}"; do wait "$p" || rc=1; done
      done
      ;;
    none | "") ;;
    *) echo "unknown sanitizer stage '$stage' (thread, address, fuzz)" >&2; exit 2 ;;
  esac
done
exit $rc
