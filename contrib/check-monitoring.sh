#!/usr/bin/env bash
# The Prometheus side against the daemon (CTest monitoring_metrics):
#  1. every cuzk_* metric the Grafana dashboard (contrib/grafana) and the alert
#     rules (contrib/prometheus) name is a series of a live daemon's /metrics
#     (`up` is Prometheus's own). The cuzk_fleet_* names are checked against a
#     daemon in fleet mode on a throwaway PostgreSQL server when Debian's
#     postgresql binaries are installed; otherwise that part is skipped, said so.
#  2. `promtool check rules` on the alert rules, with promtool from PATH or
#     .cache/test-peers/bin (scripts/install-test-peers.sh unpacks it from
#     Debian's prometheus package); skipped, said so, without it.
# usage: contrib/check-monitoring.sh CUZK_DAEMON
set -euo pipefail
daemon_bin=$1
root=$(cd "$(dirname "$0")/.." && pwd)
files=("$root"/contrib/grafana/*.json "$root"/contrib/prometheus/*.yml)
work=$(mktemp -d)
pids=()
pg_stop=""
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  [ -n "$pg_stop" ] && eval "$pg_stop" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail=0

# GET path from host:port with bash's /dev/tcp (no curl needed).
http_get() {
  local host=${1%:*} port=${1##*:}
  exec 3<>"/dev/tcp/$host/$port"
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$2" "$1" >&3
  sed '1,/^\r$/d' <&3
  exec 3<&-
}

# Starts a daemon on config $1 (log $2); sets $addr to its status listener's host:port.
start_daemon() {
  : > "$2"  # the log exists before the daemon's shell opens it: the poll below may read it first
  "$daemon_bin" --config "$1" >/dev/null 2> "$2" &
  pids+=($!)
  addr=""
  for _ in $(seq 1 150); do
    addr=$(sed -n 's/.*HTTP status listening on \([0-9.:]*\) .*/\1/p' "$2" | head -1)
    [ -n "$addr" ] && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "check-monitoring: daemon did not start:" >&2
  cat "$2" >&2
  return 1
}

config() {  # config NAME [EXTRA TOML]
  mkdir -p "$work/$1/params"
  cat > "$work/$1/cuzk.toml" <<EOF
[daemon]
listen = "unix://$work/$1/cuzk.sock"
status_listen = "127.0.0.1:0"
[srs]
param_cache = "$work/$1/params"
${2:-}
EOF
}

# Metric names that appear in the files but not as series of the scraped text.
missing_from() {  # missing_from METRICS_FILE NAMES...
  local m=$1 n
  shift
  for n in "$@"; do grep -qE "^$n[ {]" "$m" || echo "$n"; done
}

mapfile -t names < <(grep -ho 'cuzk_[a-z0-9_]*' "${files[@]}" | sort -u)
mapfile -t plain < <(printf '%s\n' "${names[@]}" | grep -v '^cuzk_fleet_' || true)
mapfile -t fleet < <(printf '%s\n' "${names[@]}" | grep '^cuzk_fleet_' || true)
echo "check-monitoring: ${#names[@]} metric names in ${#files[@]} files (${#fleet[@]} of fleet mode)"

config plain
start_daemon "$work/plain/cuzk.toml" "$work/plain/daemon.log"
http_get "$addr" /metrics > "$work/plain.metrics"
miss=$(missing_from "$work/plain.metrics" "${plain[@]}")
if [ -n "$miss" ]; then
  echo "check-monitoring: FAIL: not in the daemon's /metrics:" $miss
  fail=1
else
  echo "check-monitoring: ${#plain[@]} names found in a daemon's /metrics"
fi

# Fleet mode: PostgreSQL in $work/pg, run as nobody when we are root (initdb refuses root).
pg_bin=""
for v in 17 16 15; do
  [ -x "/usr/lib/postgresql/$v/bin/initdb" ] && { pg_bin=/usr/lib/postgresql/$v/bin; break; }
done
runas=""
if [ "$(id -u)" = 0 ]; then
  if command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then runas="runuser -u nobody --"; else pg_bin=""; fi
fi
if [ -z "$pg_bin" ]; then
  echo "check-monitoring: SKIPPED the ${#fleet[@]} cuzk_fleet_* names: no PostgreSQL server binaries to run a fleet daemon (apt-get install postgresql)"
else
  mkdir -p "$work/pg"
  [ -n "$runas" ] && chown nobody "$work/pg" && chmod 755 "$work"
  port=$((20000 + RANDOM % 20000))
  $runas "$pg_bin/initdb" -D "$work/pg/data" -U cuzk --auth=trust -E UTF8 --no-sync >"$work/pg/initdb.log" 2>&1
  $runas "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w \
    -o "-k $work/pg -p $port -c listen_addresses='' -c fsync=off" start >/dev/null
  pg_stop="$runas $pg_bin/pg_ctl -D $work/pg/data -m immediate stop"
  config fleet "[fleet]
database = \"postgresql://cuzk@/postgres?host=$work/pg&port=$port\"
daemon_id = \"check-monitoring\""
  start_daemon "$work/fleet/cuzk.toml" "$work/fleet/daemon.log"
  for _ in $(seq 1 50); do  # the claim loop's first pass fills the queue gauges
    http_get "$addr" /metrics > "$work/fleet.metrics"
    grep -q '^cuzk_fleet_slots ' "$work/fleet.metrics" && break
    sleep 0.1
  done
  # The queue gauge has a series per (kind, priority, state) present: enqueue none, so name it by its HELP.
  miss=""
  for n in "${fleet[@]}"; do
    grep -qE "^$n[ {]|^# TYPE $n " "$work/fleet.metrics" || miss+=" $n"
  done
  if [ -n "$miss" ]; then
    echo "check-monitoring: FAIL: not in the fleet daemon's /metrics:$miss"
    fail=1
  else
    echo "check-monitoring: ${#fleet[@]} cuzk_fleet_* names found in a fleet daemon's /metrics"
  fi
fi

promtool=$(command -v promtool || true)
[ -z "$promtool" ] && [ -x "$root/.cache/test-peers/bin/promtool" ] && promtool=$root/.cache/test-peers/bin/promtool
if [ -z "$promtool" ]; then
  echo "check-monitoring: SKIPPED promtool check rules: promtool not found (scripts/install-test-peers.sh unpacks it from Debian's prometheus package)"
elif out=$("$promtool" check rules "$root"/contrib/prometheus/*.yml 2>&1); then
  echo "check-monitoring: promtool: $(echo "$out" | grep -c SUCCESS) rule file(s) valid"
else
  echo "check-monitoring: FAIL: promtool check rules:"
  echo "$out"
  fail=1
fi
[ "$fail" = 0 ] && echo "check-monitoring: ok"
exit "$fail"
