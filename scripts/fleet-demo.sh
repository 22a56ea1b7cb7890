#!/usr/bin/env bash
# Fleet mode demo (docs/FLEET.md): a PostgreSQL server in a temporary
# directory, three cuzk-daemon processes on 127.0.0.1 sharing its job queue,
# a batch of generic-R1CS proofs submitted through two of them, and daemon d1
# killed with SIGKILL while it holds a job. Its lease runs out and the other
# daemons prove its work. The summary comes from the queue table:
# submitted, completed, retried, failed, lost (must be 0), per-daemon work.
#
# `scripts/fleet-demo.sh --overhead` measures the queue's cost instead: the
# same batch through one daemon without [fleet], then through one daemon in
# fleet mode on the same database (docs/PERFORMANCE.md).
#
# Environment: CUZK_BUILD_DIR (default build), FLEET_DEMO_PROOFS (60),
# FLEET_DEMO_ROUNDS (4000: 8k constraints per proof), FLEET_DEMO_PORT (first
# of three TCP ports, 29181), FLEET_DEMO_LEASE (5s), CUZK_PG_BIN (the
# PostgreSQL server binaries; default /usr/lib/postgresql/{17,16,15}/bin),
# FLEET_DEMO_BUILD=0 (use the binaries already built), FLEET_OVERHEAD_ROUNDS (3),
# FLEET_DEMO_PG_OPTS (extra server options, e.g. "-c autovacuum=off"),
# FLEET_DEMO_KEEP=1 (keep the work directory).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-demo}
case $mode in demo | --overhead) ;; *) echo "usage: $0 [--overhead]" >&2; exit 2 ;; esac
build=${CUZK_BUILD_DIR:-build}
proofs=${FLEET_DEMO_PROOFS:-60}
rounds=${FLEET_DEMO_ROUNDS:-4000}
port0=${FLEET_DEMO_PORT:-29181}
lease=${FLEET_DEMO_LEASE:-5s}
[ "${FLEET_DEMO_BUILD:-1}" = 0 ] || CUZK_BUILD_TARGETS="cuzk-daemon cuzk-bench" bash scripts/build.sh
bench=$build/apps/cuzk-bench
daemon_bin=$build/apps/cuzk-daemon

pg_bin=${CUZK_PG_BIN:-}
if [ -z "$pg_bin" ]; then
  for v in 17 16 15; do [ -x /usr/lib/postgresql/$v/bin/pg_ctl ] && { pg_bin=/usr/lib/postgresql/$v/bin; break; }; done
fi
[ -n "$pg_bin" ] || { echo "PostgreSQL server binaries not found (install postgresql or set CUZK_PG_BIN)" >&2; exit 1; }

work=$(mktemp -d /tmp/cuzk-fleet-demo-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then  # initdb refuses root: the server runs as nobody
  chown nobody: "$work"
  as_pg=(runuser -u nobody --)
fi
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
  if [ "${FLEET_DEMO_KEEP:-0}" = 1 ]; then echo "kept $work (logs, configs, the stopped cluster)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "== PostgreSQL in $work/pg (unix socket only) =="
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -U cuzk --auth=trust >/dev/null
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-k $work -c listen_addresses='' -c fsync=off ${FLEET_DEMO_PG_OPTS:-}" start >/dev/null
uri="postgresql://cuzk@/postgres?host=$work"
psql_q() { psql -X -A -t -h "$work" -U cuzk -d postgres -c "$1"; }

echo "== a cube-chain circuit ($rounds rounds) and its development parameters =="
params=$work/params
mkdir -p "$params"
"$bench" gen-circuit --param-cache "$params" --rounds "$rounds" --extra-inputs 2 2>&1 | tail -1
circuit="cube-${rounds}r-2i"
"$bench" gen-witness --rounds "$rounds" --extra-inputs 2 --x 7 -o "$work/w.cuzk-wtns" >/dev/null

# write_config I [fleet]: the config of daemon dI (with the [fleet] section when asked).
write_config() {
  cat > "$work/d$1.toml" <<EOF
[daemon]
listen = "127.0.0.1:$((port0 + $1))"
allow_insecure_tcp = true
[srs]
param_cache = "$params"
[memory]
total_budget = "2GiB"
[gpus]
gpu_workers_per_device = 1
gpu_threads = 1
[synthesis]
threads = 1
[pipeline]
max_parallel_synthesis = 1
EOF
  if [ "${2:-}" = fleet ]; then
    cat >> "$work/d$1.toml" <<EOF
[fleet]
database = "$uri"
daemon_id = "d$1"
lease = "$lease"
poll_interval = "100ms"
EOF
  fi
}
start_daemon() {  # I: starts dI, waits until it serves
  "$daemon_bin" --config "$work/d$1.toml" 2> "$work/d$1.log" &
  pids+=($!)
  for _ in $(seq 1 100); do grep -q "ready: gRPC" "$work/d$1.log" && break; sleep 0.1; done
  grep -q "ready: gRPC" "$work/d$1.log" || { echo "daemon d$1 did not start:"; cat "$work/d$1.log"; exit 1; }
}
stop_daemons() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
batch() {  # PORT COUNT OUT
  "$bench" -a "127.0.0.1:$1" batch -t r1cs --circuit "$circuit" --witness "$work/w.cuzk-wtns" -c "$2" -j 4 > "$3"
}
throughput() { awk '/^throughput:/ { print $2 }' "$1"; }

# CPU seconds (user + system) of a process and its reaped children.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15 + $16 + $17) / hz }' "/proc/$1/stat"; }
pg_pid() { head -1 "$work/pg/postmaster.pid"; }

if [ "$mode" = --overhead ]; then
  echo "== overhead: $proofs proofs through one daemon, without and with [fleet] (${FLEET_OVERHEAD_ROUNDS:-3} rounds each) =="
  for round in $(seq 1 "${FLEET_OVERHEAD_ROUNDS:-3}"); do
    write_config 0
    start_daemon 0
    batch "$port0" "$proofs" "$work/single$round.txt"
    single_cpu=$(cpu_s "${pids[0]}")
    stop_daemons
    write_config 0 fleet
    start_daemon 0
    pg0=$(cpu_s "$(pg_pid)")
    batch "$port0" "$proofs" "$work/fleet$round.txt"
    fleet_cpu=$(cpu_s "${pids[0]}")
    stop_daemons
    pg1=$(cpu_s "$(pg_pid)")
    printf 'round %d: single %s proofs/min (daemon %.1f CPU s), fleet %s proofs/min (daemon %.1f CPU s, PostgreSQL %.1f CPU s)\n' \
      "$round" "$(throughput "$work/single$round.txt")" "$single_cpu" "$(throughput "$work/fleet$round.txt")" \
      "$fleet_cpu" "$(echo "$pg1 - $pg0" | bc)"
  done
  cat "$work"/single*.txt | awk '/^throughput:/ { s += $2; n++ } END { printf "single daemon: %.2f proofs/min (mean of %d)\n", s / n, n }'
  cat "$work"/fleet*.txt | awk '/^throughput:/ { s += $2; n++ } END { printf "fleet mode:    %.2f proofs/min (mean of %d)\n", s / n, n }'
  psql_q "SELECT 'queue rows: ' || count(*) || ' done, ' || count(*) FILTER (WHERE attempts > 1) || ' retried' FROM cuzk_jobs"
  exit 0
fi

echo "== three daemons on 127.0.0.1:$port0-$((port0 + 2)) =="
for i in 0 1 2; do
  write_config "$i" fleet
  start_daemon "$i"
done
d1_pid=${pids[1]}

echo "== batch: $proofs proofs through d0 and d2; d1 is killed mid-way =="
t0=$(date +%s.%N)
half=$((proofs / 2))
batch "$port0" "$half" "$work/batch0.txt" &
b0=$!
batch "$((port0 + 2))" "$((proofs - half))" "$work/batch2.txt" &
b2=$!
# Wait until a third of the work is done and d1 holds a job, then kill it.
killed_job=""
for _ in $(seq 1 3000); do
  done_n=$(psql_q "SELECT count(*) FROM cuzk_jobs WHERE state = 'done'" 2>/dev/null || echo 0)
  if [ "${done_n:-0}" -ge $((proofs / 3)) ]; then
    killed_job=$(psql_q "SELECT job_id FROM cuzk_jobs WHERE state = 'claimed' AND claimed_by = 'd1' LIMIT 1")
    [ -n "$killed_job" ] && break
  fi
  sleep 0.05
done
kill -KILL "$d1_pid"
wait "$d1_pid" 2>/dev/null || true
t_kill=$(date +%s.%N)
echo "killed d1 (pid $d1_pid) holding job ${killed_job:-<none>} after $(printf '%.1f' "$(echo "$t_kill - $t0" | bc)") s"
rc=0
wait "$b0" || rc=1
wait "$b2" || rc=1
t1=$(date +%s.%N)
recovered=""
if [ -n "$killed_job" ]; then
  recovered=$(psql_q "SELECT round(extract(epoch FROM updated_at)::numeric, 3) FROM cuzk_jobs WHERE job_id = '$killed_job'")
fi

echo "== summary (from the queue table) =="
read -r submitted completed retried failed < <(psql_q "SELECT count(*), count(*) FILTER (WHERE state = 'done'),
  count(*) FILTER (WHERE attempts > 1), count(*) FILTER (WHERE state IN ('failed', 'cancelled')) FROM cuzk_jobs" | tr '|' ' ')
lost=$((proofs - completed - failed))
echo "submitted: $submitted (asked for $proofs)"
echo "completed: $completed"
echo "retried:   $retried"
echo "failed:    $failed"
echo "lost:      $lost"
printf 'wall time: %.1f s (%.2f proofs/s)\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$completed / ($t1 - $t0)" | bc -l)"
if [ -n "$killed_job" ]; then
  echo "job $killed_job (held by d1 when it died):"
  psql_q "SELECT '  state ' || state || ', proved by ' || coalesce(claimed_by, '-') || ', attempts ' || attempts
          FROM cuzk_jobs WHERE job_id = '$killed_job'"
  [ -n "$recovered" ] && printf '  done %.1f s after the kill (lease %s)\n' "$(echo "$recovered - $t_kill" | bc)" "$lease"
fi
echo "per-daemon work (jobs whose result each stored; d1's are those finished before the kill):"
psql_q "SELECT '  ' || claimed_by || ': ' || count(*) FROM cuzk_jobs WHERE state = 'done' GROUP BY claimed_by ORDER BY claimed_by"
echo "batch clients: $(grep -h -E '^(completed|failed|throughput)' "$work/batch0.txt" "$work/batch2.txt" | tr '\n' ' ')"
[ "$lost" = 0 ] && [ "$submitted" = "$proofs" ] && [ "$rc" = 0 ] || { echo "FLEET DEMO FAILED" >&2; exit 1; }
echo "fleet demo: ok"
