#!/usr/bin/env bash
# `cuzk-bench micro stream` (the bandwidth behind micro synth's bound) on
# small arrays: one JSON line per kernel, every kernel present once, each
# with a positive best figure no lower than its median.
set -euo pipefail
bench=$1
command -v python3 >/dev/null || exit 77
"$bench" micro stream --mib 16 --threads 1 --reps 2 --json | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin if line.strip()]
want = ["copy", "scale", "add", "triad", "read", "write", "write_nt", "write_nt_bits", "write_nt_random"]
assert [r["kernel"] for r in rows] == want, [r["kernel"] for r in rows]
for r in rows:
    assert r["bench"] == "stream" and r["threads"] == 1 and r["array_mib"] == 16 and r["reps"] == 2, r
    assert r["best_gb_s"] > 0 and r["median_gb_s"] <= r["best_gb_s"], r
print(" ".join("%s %.1f" % (r["kernel"], r["best_gb_s"]) for r in rows), "GB/s")
'
