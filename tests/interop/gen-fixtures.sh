#!/usr/bin/env bash
# Regenerates the committed snarkjs fixtures under tests/interop/fixtures/:
# for every circuits/NAME.circom: NAME.r1cs, NAME.wtns (from NAME.input.json),
# NAME.zkey, NAME.vk.json, and a snarkjs proof NAME.proof.json + NAME.public.json.
#
# Reproducible: one BLS12-381 powers of tau of 2^8 built with beacons only
# (no random contributions), the phase-2 key finished by a beacon. Only the
# snarkjs proof (random r, s) differs between runs. Needs the test peers
# (scripts/install-test-peers.sh). Takes a few minutes: snarkjs is slow on
# BLS12-381.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
node_dir=$here/node
snarkjs=$node_dir/node_modules/.bin/snarkjs
circom=$node_dir/node_modules/.bin/circom2
[[ -x $snarkjs && -x $circom ]] || { echo "run scripts/install-test-peers.sh first" >&2; exit 1; }
out=$here/fixtures
mkdir -p "$out"
# circom2 (WASM) only sees files below its working directory.
work=$(mktemp -d "$node_dir/gen.XXXXXX")
trap 'rm -rf "$work"' EXIT
power=8
beacon=0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

cd "$work"
echo "== powers of tau 2^$power (bls12381)"
"$snarkjs" powersoftau new bls12381 $power pot_0.ptau
"$snarkjs" powersoftau beacon pot_0.ptau pot_1.ptau "$beacon" 10 -n="cuzk fixtures"
"$snarkjs" powersoftau prepare phase2 pot_1.ptau pot_final.ptau

for src in "$here"/circuits/*.circom; do
  name=$(basename "$src" .circom)
  echo "== $name"
  cp "$src" .
  "$circom" "$name.circom" --r1cs --wasm --prime bls12381 -o .
  node "${name}_js/generate_witness.js" "${name}_js/$name.wasm" "$here/circuits/$name.input.json" "$name.wtns"
  "$snarkjs" groth16 setup "$name.r1cs" pot_final.ptau "${name}_0.zkey"
  "$snarkjs" zkey beacon "${name}_0.zkey" "$name.zkey" "$beacon" 10 -n="cuzk fixtures"
  "$snarkjs" zkey export verificationkey "$name.zkey" "$name.vk.json"
  "$snarkjs" groth16 prove "$name.zkey" "$name.wtns" "$name.proof.json" "$name.public.json"
  "$snarkjs" groth16 verify "$name.vk.json" "$name.public.json" "$name.proof.json"
  cp "$name.r1cs" "$name.wtns" "$name.zkey" "$name.vk.json" "$name.proof.json" "$name.public.json" "$out/"
done
du -ch "$out"/* | tail -1
