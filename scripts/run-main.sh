#!/usr/bin/env bash
# The main job: set up, start the proving daemon on a local socket with the
# embedded default configuration (config/cuzk-demo.toml; it prints the
# address of the daemon's live dashboard), prove a batch of
# real proofs with cuzk-bench (each verified by the daemon's self-check
# before it is returned), check one of them independently, stop the daemon,
# and print the batch summary and the TIMELINE analysis. Pictures land in
# .cache/cuzk-demo.
#
# Default (CUZK_DEMO_KIND=porep): Filecoin PoRep C2 for a 2 KiB sector. The
# script seals a 2 KiB test sector (cuzk-bench gen-vanilla porep), makes
# DEVELOPMENT parameters for the real 2 KiB StackedDRG circuit under the
# official file name (cuzk setup --circuit porep-2k; minutes, first run
# only, cached in .cache/cuzk-demo/params), proves CUZK_DEMO_PROOFS C2 jobs
# through the daemon and checks one proof with `cuzk verify-seal`.
#
# CUZK_DEMO_KIND=winning-post / window-post: 2 KiB WinningPoSt (one sector,
# 66 challenges, CRITICAL) or WindowPoSt (a partition of 2 sectors, V1_1)
# from vanilla proofs of sealed test sectors (cuzk-bench gen-vanilla), with
# development parameters (seconds); one proof is checked with cuzk verify-post.
#
# CUZK_DEMO_KIND=snap: 2 KiB SnapDeals (EmptySectorUpdate) proofs of a
# sealed CC sector updated with random data (cuzk-bench gen-vanilla snap),
# with development parameters (about two minutes, first run only); one proof
# is checked with cuzk verify-update.
#
# CUZK_DEMO_KIND=r1cs: a cube-chain GENERIC_R1CS circuit instead
# (CUZK_DEMO_ROUNDS, 2 constraints each; CUZK_DEMO_PARTITIONS).
# Both: CUZK_DEMO_PROOFS, CUZK_DEMO_CONCURRENCY. CUZK_DEMO_DEVICE picks the
# device (gpus.backend): auto, cpu, cuda, or cuda-emulated, the CUDA code on
# the CPU under the SIMT emulator (with CUZK_DEMO_KIND=r1cs, whose circuit
# is small enough for it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only the three programs this job runs; scripts/test.sh builds everything.
CUZK_BUILD_TARGETS="cuzk-daemon cuzk cuzk-bench" bash scripts/build.sh

kind=${CUZK_DEMO_KIND:-porep}
rounds=${CUZK_DEMO_ROUNDS:-4000}
partitions=${CUZK_DEMO_PARTITIONS:-4}
proofs=${CUZK_DEMO_PROOFS:-4}
concurrency=${CUZK_DEMO_CONCURRENCY:-2}
# The device: auto (a CUDA GPU when this build has CUDA and finds one, else
# the CPU), cpu, cuda, or cuda-emulated (the CUDA code path on the CPU under
# the SIMT emulator: slow, for checking that path end to end).
device=${CUZK_DEMO_DEVICE:-auto}
work=.cache/cuzk-demo
params=$work/params
sock=$work/cuzk.sock
build=${CUZK_BUILD_DIR:-build}
bench=$build/apps/cuzk-bench
cli=$build/apps/cuzk
mkdir -p "$work"

echo "== parameters (cached in $params) =="
case $kind in
  porep)
    circuit=porep-2k
    if ! ls "$params"/v28-stacked-proof-of-replication-*-8-0-0-sha256_hasher-032d3138*.params >/dev/null 2>&1; then
      echo "generating development parameters for the 2 KiB PoRep circuit (first run only, several minutes)"
      "$cli" setup --circuit porep-2k --param-dir "$params"
    fi
    ls -l "$params"/v28-stacked-proof-of-replication-*-032d3138*
    echo "== sealing a 2 KiB test sector (commit phase 1) =="
    "$bench" gen-vanilla porep --sector-size 2KiB --sector-num 1 -o "$work/c1.json"
    job_args=(-t porep --c1 "$work/c1.json")
    ;;
  winning-post | window-post)
    circuit=$kind-2k
    randomness=${CUZK_DEMO_RANDOMNESS:-5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a}
    if [ "$kind" = winning-post ]; then rp=0 t=winning; else rp=10 t=wpost; fi
    "$cli" setup --circuit "$circuit" --param-dir "$params" 2>&1 | tail -1
    echo "== sealing test sectors and writing their vanilla proofs =="
    "$bench" gen-vanilla "$kind" --sector-size 2KiB --registered-proof "$rp" --randomness "$randomness" \
      -o "$work/$kind-vanilla.json"
    job_args=(-t "$t" --vanilla "$work/$kind-vanilla.json" --randomness "$randomness" --registered-proof "$rp")
    ;;
  snap)
    circuit=snap-2k
    if ! ls "$params"/v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095b*.params >/dev/null 2>&1; then
      echo "generating development parameters for the 2 KiB update circuit (first run only, about two minutes)"
      "$cli" setup --circuit snap-2k --param-dir "$params"
    fi
    echo "== sealing a 2 KiB CC sector and updating it with new data =="
    "$bench" gen-vanilla snap --sector-size 2KiB -o "$work/snap-vanilla.json" | tee "$work/snap-update.txt"
    commitment() { awk -F': ' -v k="$1" '$1 == k { print $2 }' "$work/snap-update.txt"; }
    snap_args=(--registered-proof 0 --comm-r-old "$(commitment comm_r_old)" --comm-r-new "$(commitment comm_r_new)"
      --comm-d-new "$(commitment comm_d_new)")
    job_args=(-t snap --vanilla "$work/snap-vanilla.json" "${snap_args[@]}")
    ;;
  r1cs)
    "$bench" gen-circuit --param-cache "$params" --rounds "$rounds" --extra-inputs 2
    circuit="cube-${rounds}r-2i"
    job_args=(-t r1cs --circuit "$circuit")
    for ((p = 1; p <= partitions; p++)); do
      "$bench" gen-witness --rounds "$rounds" --extra-inputs 2 --x "$p" -o "$work/w$p.cuzk-wtns" >/dev/null
      job_args+=(--witness "$work/w$p.cuzk-wtns")
    done
    ;;
  *) echo "CUZK_DEMO_KIND must be porep, winning-post, window-post, snap or r1cs" >&2; exit 2 ;;
esac

sed -e "s|@SOCKET@|$PWD/$sock|" -e "s|@PARAMS@|$PWD/$params|" -e "s|@BACKEND@|$device|" config/cuzk-demo.toml \
  > "$work/cuzk.toml"
log=$work/daemon.log
echo "== starting cuzk-daemon (log: $log) =="
"$build/apps/cuzk-daemon" --config "$work/cuzk.toml" 2> "$log" &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "daemon did not start:"; cat "$log"; exit 1; }
# status_listen = 127.0.0.1:0: the kernel picks a free port, so nothing can clash.
status_addr=""
for _ in $(seq 1 50); do
  status_addr=$(sed -n 's/.*HTTP status listening on \([0-9.:]*\) .*/\1/p' "$log" | head -1)
  [ -n "$status_addr" ] && break
  sleep 0.1
done
if [ -n "$status_addr" ]; then
  echo "dashboard: http://$status_addr/ (live while the daemon runs; /status and /metrics beside it)"
fi

echo "== batch: $proofs proofs of $circuit, concurrency $concurrency =="
"$bench" -a "unix://$PWD/$sock" preload -c "$circuit"
"$bench" -a "unix://$PWD/$sock" batch "${job_args[@]}" -c "$proofs" -j "$concurrency" --progress 10
if [ "$kind" = porep ]; then
  echo "== one more proof, checked outside the daemon with cuzk verify-seal =="
  "$bench" -a "unix://$PWD/$sock" single "${job_args[@]}" --out "$work/proof.bin" | grep -E "status|proof:"
  "$cli" verify-seal --c1 "$work/c1.json" --proof "$work/proof.bin" --param-dir "$params"
elif [ "$kind" = snap ]; then
  echo "== one more proof, checked outside the daemon with cuzk verify-update =="
  "$bench" -a "unix://$PWD/$sock" single "${job_args[@]}" --out "$work/proof.bin" | grep -E "status|proof:"
  "$cli" verify-update "${snap_args[@]}" --param-dir "$params" --proof "$work/proof.bin"
elif [ "$kind" != r1cs ]; then
  echo "== one more proof, checked outside the daemon with cuzk verify-post =="
  "$bench" -a "unix://$PWD/$sock" single "${job_args[@]}" --out "$work/proof.bin" | grep -E "status|proof:"
  "$cli" verify-post --registered-proof "$rp" --randomness "$randomness" --vanilla "$work/$kind-vanilla.json" \
    --param-dir "$params" --proof "$work/proof.bin"
fi
"$bench" -a "unix://$PWD/$sock" status

kill -TERM "$daemon"
wait "$daemon" || true
trap - EXIT

echo "== timeline analysis =="
"$bench" timeline jobs "$log"
"$bench" timeline analyze "$log"
"$bench" timeline svg "$log" -o "$work/waterfall.svg"
"$bench" timeline html "$log" -o "$work/report.html"
echo "pictures: $work/waterfall.svg, $work/report.html"
