#!/usr/bin/env bash
# Arithmetic-layer micro benchmarks (field latency, G1/G2 MSM, NTT) at sizes
# that finish in a few minutes on a 2-core machine. See docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build=${CUZK_BUILD_DIR:-build}
bench=$build/apps/cuzk-bench
"$bench" micro field --reps 5
"$bench" micro msm --group g1 --log-n 16 --threads 1 --scalars uniform --reps 3
"$bench" micro msm --group g1 --log-n 16 --threads 1 --scalars filecoin --reps 3
"$bench" micro msm --group g2 --log-n 14 --threads 1 --scalars uniform --reps 3
"$bench" micro ntt --log-n 18 --threads 1 --reps 3
"$bench" micro ntt --log-n 18 --threads "$(nproc)" --reps 3
