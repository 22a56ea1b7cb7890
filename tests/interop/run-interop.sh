#!/usr/bin/env bash
# CTest: cuzk <-> snarkjs 0.7.6 on one fixture circuit (tests/interop/fixtures).
#   usage: run-interop.sh PATH/TO/cuzk CIRCUIT
# (a) snarkjs proves; `cuzk verify` accepts, and rejects a tampered proof and a
#     wrong public input;
# (b) `cuzk prove` with snarkjs's .zkey and circom's .wtns; `snarkjs groth16
#     verify` accepts the proof;
# (c) cuzk's own development setup on the .r1cs (bellperson .params/.vk):
#     binary proof verified by cuzk, JSON proof verified by snarkjs.
# Exit 77 (skipped) when the test peers are not installed.
set -euo pipefail
cuzk=$1
c=$2
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
snarkjs=$here/node/node_modules/.bin/snarkjs
if [[ ! -x $snarkjs ]] || ! command -v node >/dev/null; then
  echo "SKIP: snarkjs not installed (run scripts/install-test-peers.sh)"
  exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CUZK_KEY_RECORDS="$t/key-records"  # the record of fully checked keys stays in here
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_invalid() { if "$cuzk" -q verify "$@"; then fail "cuzk accepted: $*"; fi; }
snark_verify() {  # vk public proof
  local out
  out=$("$snarkjs" groth16 verify "$1" "$2" "$3" 2>&1) || true
  echo "$out" | tail -1
  grep -q "OK!" <<<"$out"
}

echo "== (a) snarkjs proves, cuzk verifies"
"$snarkjs" groth16 prove "$fx/$c.zkey" "$fx/$c.wtns" "$t/s.proof.json" "$t/s.public.json"
"$cuzk" verify --vk "$fx/$c.vk.json" --proof "$t/s.proof.json" --public "$t/s.public.json" || fail "snarkjs proof rejected"
node -e '
const fs = require("fs"); const [src, dstProof, pub, dstPub] = process.argv.slice(1);
const p = JSON.parse(fs.readFileSync(src)); p.pi_c = p.pi_a; fs.writeFileSync(dstProof, JSON.stringify(p));
const s = JSON.parse(fs.readFileSync(pub)); s[0] = (BigInt(s[0]) + 1n).toString(); fs.writeFileSync(dstPub, JSON.stringify(s));
' "$t/s.proof.json" "$t/tampered.json" "$t/s.public.json" "$t/wrong.public.json"
expect_invalid --vk "$fx/$c.vk.json" --proof "$t/tampered.json" --public "$t/s.public.json"
expect_invalid --vk "$fx/$c.vk.json" --proof "$t/s.proof.json" --public "$t/wrong.public.json"

echo "== (b) cuzk proves with the .zkey, snarkjs verifies"
"$cuzk" prove --zkey "$fx/$c.zkey" --wtns "$fx/$c.wtns" --proof "$t/c.proof.json" --public "$t/c.public.json"
snark_verify "$fx/$c.vk.json" "$t/c.public.json" "$t/c.proof.json" || fail "snarkjs rejected cuzk's proof"
# Second run with the same key: the record of its full check is used.
out=$("$cuzk" prove --zkey "$fx/$c.zkey" --wtns "$fx/$c.wtns" --proof "$t/c2.proof.json" 2>&1)
grep -q "checked in full on an earlier run" <<<"$out" || fail "the second prove did not use the key record: $out"
snark_verify "$fx/$c.vk.json" "$t/c.public.json" "$t/c2.proof.json" || fail "snarkjs rejected the second proof"
if snark_verify "$fx/$c.vk.json" "$t/wrong.public.json" "$t/c.proof.json"; then fail "snarkjs accepted a wrong input"; fi
"$cuzk" export --from "$fx/$c.zkey" --to "$t/exported.vk.json"
snark_verify "$t/exported.vk.json" "$t/c.public.json" "$t/c.proof.json" || fail "exported vk rejected by snarkjs"

echo "== (c) cuzk setup (development parameters) + bellperson-format proofs"
"$cuzk" info "$fx/$c.r1cs"
"$cuzk" setup --r1cs "$fx/$c.r1cs" --params "$t/d.params" --vk "$t/d.vk" --vk-json "$t/d.vk.json"
"$cuzk" prove --params "$t/d.params" --r1cs "$fx/$c.r1cs" --wtns "$fx/$c.wtns" --proof "$t/d.proof" --public "$t/d.public.json"
[[ $(stat -c %s "$t/d.proof") == 192 ]] || fail "binary proof is not 192 bytes"
"$cuzk" verify --vk "$t/d.vk" --proof "$t/d.proof" --public "$t/d.public.json" || fail "bellperson-format proof rejected"
expect_invalid --vk "$t/d.vk" --proof "$t/d.proof" --public "$t/wrong.public.json"
"$cuzk" prove --params "$t/d.params" --r1cs "$fx/$c.r1cs" --wtns "$fx/$c.wtns" --proof "$t/d.proof.json"
snark_verify "$t/d.vk.json" "$t/d.public.json" "$t/d.proof.json" || fail "snarkjs rejected a proof under cuzk's setup"
echo "PASS: $c"
