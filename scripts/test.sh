#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through CTest,
# then the sanitizer stage (scripts/test-sanitizers.sh: ThreadSanitizer on the
# engine's concurrency tests and the server and daemon integration suites,
# Address+UndefinedBehavior sanitizers on the unit suites;
# CUZK_SANITIZERS=none skips it). The last line sums both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/install-test-peers.sh  # snarkjs/circom2 for the interop tests
t0=$SECONDS
bash scripts/build.sh
echo "build: $((SECONDS - t0)) s"
t0=$SECONDS
set +e
(cd build && ctest --output-on-failure -j "$(nproc)" -LE slow) | tee build/ctest-last.log
ctest_rc=${PIPESTATUS[0]}
set -e
echo "ctest: $((SECONDS - t0)) s"
t0=$SECONDS
set +e
bash scripts/test-sanitizers.sh | tee build/sanitizers-last.log
san_rc=${PIPESTATUS[0]}
set -e
echo "sanitizers: $((SECONDS - t0)) s"
total=$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' build/ctest-last.log | tail -n 1)
failed=$(sed -n 's/.* \([0-9]*\) tests failed out of .*/\1/p' build/ctest-last.log | tail -n 1)
san_passed=$(grep -c ': passed (' build/sanitizers-last.log || true)
san_failed=$(grep -c ': FAILED (' build/sanitizers-last.log || true)
echo "tests: $(( ${total:-0} - ${failed:-0} + san_passed )) passed, $(( ${failed:-0} + san_failed )) failed"
[ "$ctest_rc" -eq 0 ] && [ "$san_rc" -eq 0 ]
