#!/usr/bin/env bash
# Sanitizer stage of the test command (scripts/test.sh): two more builds, in
# build-tsan and build-asan (or $CUZK_TSAN_DIR / $CUZK_ASAN_DIR), both
# without -march=native (scripts/sanitizer-builds.sh):
#   ThreadSanitizer  — the engine's scheduler, admission and lifetime tests
#                      (threads, queues, locks, job table, budgets; the fake
#                      proof kind, as real proofs take minutes under TSan),
#                      the pre-compiled-constraint store's background thread,
#                      pre-compiled synthesis running a circuit's parts in
#                      parallel (r1cs: PrecompiledCircuit, WitnessCS; not the
#                      two recycled-buffer ones, 20 to 110 s each under TSan
#                      for a parallel_for and parts the others cover: TSan
#                      does not see oneTBB's hand-offs, and each suppressed
#                      report over their 4 MiB buffers costs a range scan),
#                      the fleet bridge's claim loop and leases (two engines
#                      on a throwaway PostgreSQL; libpq is not instrumented
#                      but each connection stays on one thread),
#                      the server suite (gRPC and HTTP front ends, TLS and
#                      tokens, health, shutdown against a fake engine) and
#                      the daemon integration tests (the real daemon, built
#                      with TSan, under concurrent gRPC clients; all but the
#                      112-job load test, which the retries/cancels/evictions
#                      test covers in a third of the time). Debian's gRPC is
#                      not instrumented: the server and integration suites run
#                      with ignore_noninstrumented_modules=1 (without it:
#                      1,396 reports, gRPC frames on one side), tests/tsan.supp
#                      names the few gRPC frames whose hand-offs TSan cannot
#                      see; every report fails the run (exit code 66);
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
run_one() {  # suite ("name" or "name:gtest_filter") in $dir: prints one line
  local spec=$1 s=${1%%:*} filter='*' t0=$SECONDS
  [ "$spec" != "$s" ] && filter=${spec#*:}
  if "$dir/tests/test_$s" --gtest_brief=1 --gtest_filter="$filter" > "$dir/test_$s.log" 2>&1; then
    echo "  test_$s: passed ($((SECONDS - t0)) s)"
  else
    echo "  test_$s: FAILED ($((SECONDS - t0)) s); the end of $dir/test_$s.log:"
    tail -n 60 "$dir/test_$s.log"
    return 1
  fi
}
in_order() {  # out dir, function, items...: `function item`, $jobs at a time; outputs in item order
  local out=$1 fn=$2 rc=0 i
  shift 2
  local items=("$@")
  # A pool, not batches: the next item starts as soon as any one ends, so a
  # long suite does not leave the other core idle until it finishes.
  for ((i = 0; i < ${#items[@]}; i++)); do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
    (if "$fn" "${items[i]}" > "$out/job_$i.out" 2>&1; then echo 0; else echo 1; fi > "$out/job_$i.rc") &
  done
  wait
  for ((i = 0; i < ${#items[@]}; i++)); do
    cat "$out/job_$i.out"
    [ "$(cat "$out/job_$i.rc")" = 0 ] || rc=1
  done
  return $rc
}
rc=0
for stage in $stages; do
  case $stage in
    thread)
      dir=${CUZK_TSAN_DIR:-build-tsan}
      # The longest first: in_order runs them $jobs at a time. The daemon's
      # 112-job load test is left out here (about a minute under TSan; the
      # retries/cancels/evictions test runs the same paths with 40 jobs).
      suites=("integration:-DaemonLoad.HundredJobsEightClientsMixedPrioritiesAndCancels" "fleet:FleetBridgeTest.*"
              "engine:Engine.*:EndCallbacks.*:EndNotifier.*:Admission.*:Lifetime.*:BoardFixture.*:DeviceStageFixture.*:LoadConfig.*:Parse*:PceStore*:FleetPayload*"
              "r1cs:PrecompiledCircuit.*:WitnessCS.*:PceFileTest.*:-PrecompiledCircuit.WritesEveryRowOverRecycledBuffers:PrecompiledCircuit.WitnessOverARecycledBuffer"
              server)
      echo "== ThreadSanitizer: ${suites[*]} =="
      t0=$SECONDS
      tsan_configure "$dir"
      cmake --build "$dir" -j "$jobs" --target test_integration test_server test_engine test_fleet test_r1cs > "$dir/build.log" 2>&1 ||
        { tail -n 40 "$dir/build.log"; exit 1; }
      echo "  built in $((SECONDS - t0)) s"
      tsan_one() {  # run_one under TSan; gRPC's suites ignore what gRPC itself does
        local o="suppressions=$PWD/tests/tsan.supp history_size=7 halt_on_error=0 exitcode=66"
        case $1 in server* | integration*) o+=" ignore_noninstrumented_modules=1" ;; esac
        TSAN_OPTIONS=$o run_one "$1"
      }
      in_order "$dir" tsan_one "${suites[@]}" || rc=1
      ;;
    address)
      dir=${CUZK_ASAN_DIR:-build-asan}
      suites=(msm gadgets groth16 ec ntt r1cs formats arith pairing ff timeline platform)  # the longest first
      echo "== AddressSanitizer + UndefinedBehaviorSanitizer: ${suites[*]} =="
      t0=$SECONDS
      asan_configure "$dir"
      cmake --build "$dir" -j "$jobs" --target "${suites[@]/#/test_}" fuzz_targets > "$dir/build.log" 2>&1 ||
        { tail -n 40 "$dir/build.log"; exit 1; }
      echo "  built in $((SECONDS - t0)) s"
      ASAN_OPTIONS="detect_leaks=1 abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1" \
        in_order "$dir" run_one "${suites[@]}" || rc=1
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
      # libFuzzer runs one thread: $jobs targets at a time.
      fuzz_one() { CUZK_FUZZ_NO_BUILD=1 bash scripts/fuzz.sh "$1" "$seconds" | sed 's/^/  /'; }
      mkdir -p "$dir/fuzz"
      in_order "$dir/fuzz" fuzz_one $targets || rc=1
      ;;
    none | "") ;;
    *) echo "unknown sanitizer stage '$stage' (thread, address, fuzz)" >&2; exit 2 ;;
  esac
done
exit $rc
