#!/usr/bin/env bash
# `cuzk-bench micro synth` on its large-circuit path (the one that times the
# 32 GiB partition) at the 512 MiB PoRep's size: PCE extracted into a
# temporary file and mapped, w recycled, the bandwidth measured and both
# bounds reported. Checks the JSON's figures against each other.
set -euo pipefail
bench=$1
command -v python3 >/dev/null || exit 77
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" micro synth --circuit porep-512m --mode pce --threads 1 --reps 2 --stream-mib 8 \
  --pce-file "$dir/porep-512m.pce" --json 2>"$dir/err" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
assert d["bench"] == "synth_large" and d["circuit"] == "porep-512m" and d["reps"] == 2, d
assert d["constraints"] > 4_000_000 and 0 <= d["w_reused"] <= 2, d
assert d["witness_s"] > 0 and d["abc_s"] > 0 and d["synth_s"] >= d["synth_s_min"] > 0, d
for k in ["read_gb_s", "write_gb_s", "write_nt_gb_s", "write_nt_bits_gb_s"]:
    assert d[k] > 0, (k, d)
# Below 2^23 rows a/b/c take plain stores: the two bounds are one.
assert 0 < d["bandwidth_bound_bits_s"] <= d["bandwidth_bound_s"], d
assert abs(d["synth_over_bound"] * d["bandwidth_bound_s"] - d["synth_s"]) < 1e-9, d
assert abs(d["synth_over_bound_bits"] * d["bandwidth_bound_bits_s"] - d["synth_s"]) < 1e-9, d
print("porep-512m: synthesis %.3f s, bound %.4f s, ratio %.2f" % (d["synth_s"], d["bandwidth_bound_s"], d["synth_over_bound"]))
'
grep -q "extracted" "$dir/err"  # the file was made here, then mapped
