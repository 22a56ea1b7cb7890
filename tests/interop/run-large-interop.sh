#!/usr/bin/env bash
# cuzk <-> snarkjs 0.7.6 on a circuit of 2^16 constraints (large/chain16.circom,
# snarkjs domain 2^17). ~5 min on 2 idle cores for the first run (mostly
# snarkjs's setup), ~1.5 min with the cache; skipped (exit 77) without the
# test peers.
#   usage: run-large-interop.sh PATH/TO/cuzk PATH/TO/cuzk-ptau-dev
#
# snarkjs's own `powersoftau new/beacon/prepare phase2` at 2^17 on BLS12-381
# takes far beyond a CI budget on 2 cores, so the prepared .ptau comes from
# cuzk-ptau-dev (known τ: a development file, NOT a ceremony). Step (0) checks
# that tool against snarkjs: `snarkjs powersoftau prepare phase2` on its
# unprepared output must give its prepared output byte for byte.
# Then snarkjs does everything else: circom2 --O2, witness, `groth16 setup`,
# `zkey beacon` (setup-large.sh), `groth16 prove`, `groth16 verify`:
#  (a) snarkjs proves; `cuzk verify` accepts, rejects a tampered proof and a
#      wrong public input;
#  (b) `cuzk prove` with snarkjs's .zkey and .wtns; `snarkjs groth16 verify`
#      accepts, and rejects it with a wrong public input.
# The setup outputs (.r1cs, .wtns, .zkey, .vk.json) are cached in
# $CUZK_INTEROP_CACHE (default ./interop-cache, i.e. the build's tests/ folder
# under CTest), keyed by the circuit, input and tool; CUZK_INTEROP_FRESH=1
# redoes them.
set -euo pipefail
cuzk=$(realpath "$1")
ptau_dev=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
name=chain16
node_dir=$here/node
snarkjs=$node_dir/node_modules/.bin/snarkjs
circom=$node_dir/node_modules/.bin/circom2  # used by setup-large.sh
if [[ ! -x $snarkjs || ! -x $circom ]] || ! command -v node >/dev/null; then
  echo "SKIP: snarkjs not installed (run scripts/install-test-peers.sh)"
  exit 77
fi
cache=$(realpath -m "${CUZK_INTEROP_CACHE:-interop-cache}")/$name
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CUZK_KEY_RECORDS="$t/key-records"  # the record of fully checked keys stays in here
fail() { echo "FAIL: $*" >&2; exit 1; }
step_log=$t/step.log
. "$here/step.sh"
snark_verify() {  # vk public proof
  "$snarkjs" groth16 verify "$1" "$2" "$3" >"$t/v.log" 2>&1 || true
  grep -q "OK!" "$t/v.log"
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== (0) cuzk-ptau-dev vs snarkjs prepare phase2 (power 6)"
"$ptau_dev" --power 6 --out "$t/u6.ptau" --unprepared 2>/dev/null
"$ptau_dev" --power 6 --out "$t/p6.ptau" 2>/dev/null
step "snarkjs powersoftau prepare phase2" "$snarkjs" powersoftau prepare phase2 "$t/u6.ptau" "$t/s6.ptau"
cmp -s "$t/p6.ptau" "$t/s6.ptau" || fail "cuzk-ptau-dev's prepared sections differ from snarkjs's"

bash "$here/setup-large.sh" "$name" 17 "$ptau_dev" "$(dirname "$cache")" || fail "setup"
c=$cache/$name
rows=$("$cuzk" info "$c.r1cs" | awk -F: '/^constraints/ { gsub(/[ ,]/, "", $2); print $2 }')
echo "constraints: $rows"
[[ -n $rows && $rows -ge 65536 ]] || fail "the circuit has fewer than 2^16 constraints"

echo "== (a) snarkjs proves, cuzk verifies"
step "snarkjs groth16 prove" "$snarkjs" groth16 prove "$c.zkey" "$c.wtns" "$t/s.proof.json" "$t/s.public.json"
step "cuzk verify" "$cuzk" verify --vk "$c.vk.json" --proof "$t/s.proof.json" --public "$t/s.public.json"
node -e '
const fs = require("fs"); const [src, dstProof, pub, dstPub] = process.argv.slice(1);
const p = JSON.parse(fs.readFileSync(src)); p.pi_c = p.pi_a; fs.writeFileSync(dstProof, JSON.stringify(p));
const s = JSON.parse(fs.readFileSync(pub)); s[0] = (BigInt(s[0]) + 1n).toString(); fs.writeFileSync(dstPub, JSON.stringify(s));
' "$t/s.proof.json" "$t/tampered.json" "$t/s.public.json" "$t/wrong.public.json"
if "$cuzk" -q verify --vk "$c.vk.json" --proof "$t/tampered.json" --public "$t/s.public.json"; then
  fail "cuzk accepted a tampered proof"
fi
if "$cuzk" -q verify --vk "$c.vk.json" --proof "$t/s.proof.json" --public "$t/wrong.public.json"; then
  fail "cuzk accepted a wrong public input"
fi

echo "== (b) cuzk proves with the .zkey, snarkjs verifies"
step "cuzk prove --zkey" "$cuzk" prove --zkey "$c.zkey" --wtns "$c.wtns" --proof "$t/c.proof.json" \
  --public "$t/c.public.json"
node -e 'const fs = require("fs"); const [a, b] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f)));
  process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1)' "$t/c.public.json" "$t/s.public.json" ||
  fail "public signals differ between cuzk and snarkjs"
step "snarkjs groth16 verify" snark_verify "$c.vk.json" "$t/c.public.json" "$t/c.proof.json"
if snark_verify "$c.vk.json" "$t/wrong.public.json" "$t/c.proof.json"; then fail "snarkjs accepted a wrong input"; fi
echo "PASS: $name"
