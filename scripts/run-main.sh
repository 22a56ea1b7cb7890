#!/usr/bin/env bash
# The main job (for now): install dependencies, build, and run the
# arithmetic-layer benchmark demo — field latency, G1/G2 MSM, NTT — at sizes
# that finish in a few minutes on a 2-core machine. The proving daemon, a real
# proof batch and the timeline report replace this once the engine lands.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bench=build/apps/cuzk-bench
echo "== field arithmetic (dependent-chain latency) =="
"$bench" micro field --reps 5
echo "== MSM, one thread, uniform and Filecoin-like scalars =="
"$bench" micro msm --group g1 --log-n 16 --threads 1 --scalars uniform --reps 3
"$bench" micro msm --group g1 --log-n 16 --threads 1 --scalars filecoin --reps 3
"$bench" micro msm --group g2 --log-n 14 --threads 1 --scalars uniform --reps 3
echo "== NTT =="
"$bench" micro ntt --log-n 18 --threads 1 --reps 3
"$bench" micro ntt --log-n 18 --threads "$(nproc)" --reps 3
