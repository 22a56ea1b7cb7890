#!/usr/bin/env bash
# Runs every benchmark behind docs/PERFORMANCE.md, side by side in one run,
# and prints the raw output (JSON lines / tables). Takes ~15-25 minutes on a
# 2-core machine; run it on a quiet machine. CUZK_BUILD_DIR picks the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUZK_BUILD_DIR:-build}
[ -x "$build/apps/cuzk-bench" ] || bash scripts/build.sh
b=$build/apps/cuzk-bench
echo "## field"
"$b" micro field --reps 9 --json
"$b" micro field --reps 9 --json --portable
echo "## msm (one thread, uniform; filecoin-like; G2; two threads)"
"$b" micro msm --group g1 --log-n 16 18 20 --threads 1 --scalars uniform --reps 3 --json
"$b" micro msm --group g1 --log-n 18 --threads 1 --scalars filecoin --reps 3 --json
"$b" micro msm --group g2 --log-n 16 18 --threads 1 --scalars uniform --reps 3 --json
"$b" micro msm --group g1 --log-n 18 --threads 2 --scalars uniform --reps 3 --json
echo "## msm: AVX-512 IFMA kernels against the scalar ones, alternating (where the CPU has IFMA)"
"$b" micro msm --group g1 g2 --log-n 16 18 --threads 1 2 --scalars uniform --reps 3 --compare-scalar --json
echo "## msm: the batch-affine addition kernels alone (where the CPU has IFMA)"
"$b" micro kernel --group g1 g2 --reps 21 --json
echo "## ntt"
for t in 1 2; do
  "$b" micro ntt --log-n 18 --threads $t --reps 5 --json
  "$b" micro ntt --log-n 20 --threads $t --reps 3 --json
done
"$b" micro ntt --log-n 20 --threads 1 --reps 3 --coset --json
echo "## ntt: AVX-512 IFMA butterflies against the scalar ones, alternating"
for n in 17 20 22; do
  for t in 1 2; do "$b" micro ntt --log-n $n --threads $t --reps 5 --compare-scalar --json; done
done
echo "## engine overhead"
"$build/bench/bench_engine"
echo "## timeline: 1M-line log"
"$b" timeline bench --lines 1000000 --reps 3
