#!/usr/bin/env bash
# check-layers.sh: the include graph of src/ must follow the layer table below.
#
# Every directory under src/ is a layer. A line `#include "L/..."` in a file
# under src/K/ is an edge K -> L when L is also a directory under src/ (other
# quoted includes, e.g. the generated "cuzk/v1/proving.pb.h", are not layers).
# An edge is allowed when K == L or L is listed for K in ALLOWED. Anything
# else is a violation: reported as file:line and the edge, exit status 1,
# unless it is listed in KNOWN_VIOLATIONS. A layer directory without a row in
# ALLOWED is also an error, so a new layer has to be placed deliberately.
#
# A layer with a row in SUBLAYERS is checked inside too: its sub-folders are
# listed lowest first, and an include of src/K/a/ from src/K/b/ is allowed
# only when a == b or a comes before b in the list (a file directly under
# src/K/, or a sub-folder missing from the list, is an error).
#
# Not checked: apps/, bench/ and tests/ may include any layer.
#
# Usage: scripts/check-layers.sh [-v]   (-v also prints every cross-layer edge)
# Plain bash + grep/awk; runs in well under a second.
set -euo pipefail

# --- The intended layer graph ------------------------------------------------
# layer -> layers it may include (its own layer is always allowed). Each row
# lists the whole set, not only the layer directly below, so that a layer may
# use any layer under it (e.g. engine -> platform).
#
#   bottom:   platform < arith < ff (the field kernels)
#   curves:   ec over ff; pairing and msm (siblings) over ec; ntt over ff
#   R1CS:     r1cs over ff
#   device:   the device seam (device/backend.hpp) and the CPU backend, over
#             msm, ntt and r1cs
#   gadgets over r1cs; groth16 over device (and r1cs, msm, ntt, pairing);
#             cuda over device (a backend); the three are siblings
#   formats, circuits, filecoin: siblings over groth16 (circuits and filecoin
#             also over gadgets); none of them includes another
#   engine:   over all of the above; server and fleet talk to the engine
#             (fleet also to its own queue), never to each other
#   timeline: depends on nothing (it parses TIMELINE logs); engine and server
#             may use it
#   fleet:    fleet mode: the PostgreSQL job queue (plain structs, libpq) and
#             the daemon's service over it (fleet/bridge.hpp), beside server,
#             over engine and platform
#   simt:     the SIMT emulator (CUDA's execution model on host threads);
#             over platform only
#   cuda:     the CUDA kernels, their host wrappers and the CUDA backend
#             (built by nvcc with CUZK_CUDA, and on simt with CUZK_CUDA_EMU);
#             over device and simt, under engine (engine/devices.cpp)
# Allowed but unused today: engine -> formats/circuits/gadgets/msm/ntt/
# pairing/ec/ff/arith/timeline, server -> platform/timeline, circuits ->
# gadgets (scripts/check-layers.sh -v lists the edges in use).
declare -A ALLOWED=(
  [platform]=""
  [timeline]=""
  [arith]="platform"
  [ff]="arith platform"
  [ec]="ff arith platform"
  [pairing]="ec ff arith platform"
  [msm]="ec ff arith platform"
  [ntt]="ff arith platform"
  [r1cs]="ff arith platform"
  [gadgets]="r1cs ff arith platform"
  [device]="r1cs msm ntt ec ff arith platform"
  [groth16]="device r1cs msm ntt pairing ec ff arith platform"
  [formats]="groth16 device r1cs msm ntt pairing ec ff arith platform"
  [circuits]="groth16 device gadgets r1cs msm ntt pairing ec ff arith platform"
  [filecoin]="groth16 device gadgets r1cs msm ntt pairing ec ff arith platform"
  [engine]="filecoin formats circuits groth16 device gadgets r1cs msm ntt pairing ec ff arith platform timeline cuda"
  [server]="engine platform timeline"
  [fleet]="engine platform"
  [simt]="platform"
  [cuda]="device simt r1cs msm ntt ec ff arith platform"
)

# --- Sub-layers ------------------------------------------------------------------
# layer -> its sub-folders, lowest first; each may include only itself and the
# ones before it (and, as the whole layer, the layers of its ALLOWED row).
#
#   filecoin:  hash (SHA-256, Poseidon) < common (Domain, MerkleProof, the
#              registered-proof table, TreeShape, ApiVersion, parameter file
#              names) < bincode < tree (TreeD, Poseidon trees) < sdr (labels,
#              parents) < circuit (circuit pieces the three circuits share)
#              < porep (vanilla proofs, c1.json, sealing, the PoRep circuit)
#              < post < snap (both build on porep's test sectors; snap is
#              listed last, neither includes the other)
declare -A SUBLAYERS=(
  [filecoin]="hash common bincode tree sdr circuit porep post snap"
)

# --- Known violations ----------------------------------------------------------
# Edges that go against the table today and are tolerated until fixed: one per
# line, `FILE INCLUDED-PATH` (no line numbers, so edits elsewhere in the file
# do not matter); blank lines and `#` comments are ignored. Each stays
# visible: the summary counts them and -v prints them. A violation not listed
# here fails the check; an entry whose include is gone is reported for removal.
#
# Empty today. An earlier review named `gadgets -> filecoin/hash` (Poseidon constants,
# SHA-256); that edge is already gone: gadgets/poseidon_constants.hpp holds the
# constant types and filecoin/hash includes it, not the other way round. Had
# it remained, its entry would read:
#   src/gadgets/poseidon.hpp filecoin/hash/poseidon_constants.hpp
KNOWN_VIOLATIONS='
'
# -------------------------------------------------------------------------------

cd "$(dirname "$0")/.."
verbose=0
[[ "${1:-}" == "-v" ]] && verbose=1

layers=()
for d in src/*/; do layers+=("$(basename "$d")"); done

status=0
for l in "${layers[@]}"; do
  if [[ -z "${ALLOWED[$l]+set}" ]]; then
    echo "layers: src/$l has no row in ALLOWED (scripts/check-layers.sh); place it in the graph" >&2
    status=1
  fi
done
for l in "${!ALLOWED[@]}"; do
  for t in ${ALLOWED[$l]}; do
    [[ " ${layers[*]} " == *" $t "* ]] || echo "layers: note: ALLOWED[$l] names $t, which is not a directory under src/" >&2
  done
done

subtable=""
for l in "${!SUBLAYERS[@]}"; do
  if [[ ! -d "src/$l" ]]; then
    echo "layers: note: SUBLAYERS names $l, which is not a directory under src/" >&2
    continue
  fi
  for d in "src/$l"/*/; do
    [[ -d "$d" ]] || continue
    sub=$(basename "$d")
    if [[ " ${SUBLAYERS[$l]} " != *" $sub "* ]]; then
      echo "layers: src/$l/$sub is not in SUBLAYERS[$l] (scripts/check-layers.sh); place it in the order" >&2
      status=1
    fi
  done
  for f in "src/$l"/*.hpp "src/$l"/*.cpp "src/$l"/*.h "src/$l"/*.cc "src/$l"/*.cu "src/$l"/*.cuh; do
    [[ -e "$f" ]] || continue
    echo "layers: $f is directly under src/$l; put it in one of SUBLAYERS[$l]" >&2
    status=1
  done
  for sub in ${SUBLAYERS[$l]}; do
    [[ -d "src/$l/$sub" ]] || echo "layers: note: SUBLAYERS[$l] names $sub, which is not a directory under src/$l/" >&2
  done
  subtable+="$l:${SUBLAYERS[$l]};"
done

table=""
for l in "${!ALLOWED[@]}"; do table+="$l:${ALLOWED[$l]};"; done
known=""
while read -r kf ki _; do
  [[ -z "$kf" || "$kf" == \#* ]] && continue
  known+="$kf $ki;"
done <<< "$KNOWN_VIOLATIONS"

# file:line:text of every quoted include whose path has a directory part.
set +e
grep -rnE --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.cc' \
  --include='*.cu' --include='*.cuh' \
  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[A-Za-z0-9_.-]+/' src |
awk -v layers="${layers[*]}" -v table="$table" -v subtable="$subtable" -v known="$known" \
    -v verbose="$verbose" '
BEGIN {
  n = split(layers, ls, " "); for (i = 1; i <= n; i++) is_layer[ls[i]] = 1
  m = split(table, rows, ";")
  for (i = 1; i <= m; i++) {
    if (rows[i] == "") continue
    split(rows[i], kv, ":"); k = split(kv[2], ts, " ")
    for (j = 1; j <= k; j++) ok[kv[1] SUBSEP ts[j]] = 1
  }
  m = split(subtable, rows, ";")
  for (i = 1; i <= m; i++) {
    if (rows[i] == "") continue
    split(rows[i], kv, ":"); k = split(kv[2], ts, " ")
    has_subs[kv[1]] = 1
    for (j = 1; j <= k; j++) rank[kv[1] SUBSEP ts[j]] = j
  }
  m = split(known, ks, ";")
  for (i = 1; i <= m; i++) if (ks[i] != "") { is_known[ks[i]] = 1; seen[ks[i]] = 0 }
  checked = 0; bad = 0; kn = 0
}
{
  # $0 = src/<layer>/...:<line>:<text>
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
  text = substr(rest, length(line) + 2)
  inc = text; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
  to = inc; sub(/\/.*/, "", to)
  if (!(to in is_layer)) next
  from = file; sub(/^src\//, "", from); sub(/\/.*/, "", from)
  checked++
  if (from == to) {
    if (!(from in has_subs)) next
    # Inside a layer with sub-layers: src/<layer>/<sub>/... -> <layer>/<sub>/...
    fsub = file; sub(/^src\/[^\/]*\//, "", fsub)
    tsub = inc; sub(/^[^\/]*\//, "", tsub)
    if (fsub !~ /\// || tsub !~ /\//) next  # not in a sub-folder: reported above
    sub(/\/.*/, "", fsub); sub(/\/.*/, "", tsub)
    if (fsub == tsub) next
    fr = rank[from SUBSEP fsub]; tr = rank[from SUBSEP tsub]
    if (fr && tr && tr < fr) {
      if (verbose) printf "  %s/%s -> %s/%s  %s:%s\n", from, fsub, to, tsub, file, line
      next
    }
    from = from "/" fsub; to = to "/" tsub
  } else if ((from SUBSEP to) in ok) {
    if (verbose) printf "  %s -> %s  %s:%s\n", from, to, file, line
    next
  }
  key = file " " inc
  if (key in is_known) {
    kn++; seen[key] = 1
    if (verbose) printf "  %s -> %s  %s:%s  (KNOWN VIOLATION)\n", from, to, file, line
    next
  }
  bad++
  printf "%s:%s: layer violation %s -> %s (#include \"%s\")\n", file, line, from, to, inc > "/dev/stderr"
}
END {
  for (k in seen) if (!seen[k]) printf "layers: note: known violation \"%s\" no longer occurs; remove it from KNOWN_VIOLATIONS\n", k > "/dev/stderr"
  printf "layers: %d includes checked, %d violations (%d known)\n", checked, bad, kn
  exit (bad > 0) ? 1 : 0
}'
rc=("${PIPESTATUS[@]}")
set -e
# grep: 0 = matches, 1 = none (fine), 2 = error.
if (( rc[0] > 1 )); then echo "layers: grep failed" >&2; exit 2; fi
(( rc[1] != 0 )) && status=1
exit "$status"
