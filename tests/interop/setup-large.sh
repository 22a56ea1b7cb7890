#!/usr/bin/env bash
# Builds (or finds cached) a large interop circuit's setup with snarkjs:
# large/NAME.circom compiled by circom2 --O2, its witness for
# large/NAME.input.json, `snarkjs groth16 setup` on a prepared .ptau of
# 2^POWER from cuzk-ptau-dev (known τ: a development file, NOT a ceremony),
# `zkey beacon`, and the verification key. Writes NAME.{r1cs,wtns,zkey,vk.json}
# and a stamp to CACHE/NAME/; a stamp that matches the circuit, its input
# and the ptau tool skips the work (CUZK_INTEROP_FRESH=1 redoes it).
#   usage: setup-large.sh NAME POWER PATH/TO/cuzk-ptau-dev CACHE
# Needs the test peers (scripts/install-test-peers.sh).
set -euo pipefail
name=$1 power=$2
ptau_dev=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
cache=$(realpath -m "$4")/$name
node_dir=$here/node
snarkjs=$node_dir/node_modules/.bin/snarkjs
circom=$node_dir/node_modules/.bin/circom2
[[ -x $snarkjs && -x $circom ]] || { echo "snarkjs not installed (run scripts/install-test-peers.sh)" >&2; exit 77; }
mkdir -p "$cache"
stamp=$( (cat "$here/large/$name.circom" "$here/large/chain_rounds.circom" "$here/large/$name.input.json"
  sha256sum <"$ptau_dev") | sha256sum | cut -c1-16)
if [[ ${CUZK_INTEROP_FRESH:-0} != 1 && $(cat "$cache/stamp" 2>/dev/null) == "$stamp" ]]; then
  echo "== setup: cached in $cache"
  exit 0
fi
echo "== setup (cache: $cache)"
rm -f "$cache/stamp"
# circom2 (WASM) only sees files below its working directory.
w=$(mktemp -d "$node_dir/gen.XXXXXX")
trap 'rm -rf "$w"' EXIT
step_log=$w/step.log
. "$here/step.sh"
cp "$here/large/$name.circom" "$here/large/chain_rounds.circom" "$w/"
cd "$w"
step "cuzk-ptau-dev --power $power" "$ptau_dev" --power "$power" --out pot.ptau
step "circom2 --O2" "$circom" "$name.circom" --r1cs --wasm --O2 --prime bls12381 -o .
step "witness (wasm)" node "${name}_js/generate_witness.js" "${name}_js/$name.wasm" \
  "$here/large/$name.input.json" "$name.wtns"
step "snarkjs groth16 setup" "$snarkjs" groth16 setup "$name.r1cs" pot.ptau "${name}_0.zkey"
rm pot.ptau
step "snarkjs zkey beacon" "$snarkjs" zkey beacon "${name}_0.zkey" "$name.zkey" \
  0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 10 -n="cuzk large interop"
step "snarkjs zkey export verificationkey" "$snarkjs" zkey export verificationkey "$name.zkey" "$name.vk.json"
cp "$name.r1cs" "$name.wtns" "$name.zkey" "$name.vk.json" "$cache/"
echo "$stamp" >"$cache/stamp"
