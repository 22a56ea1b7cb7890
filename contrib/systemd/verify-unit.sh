#!/usr/bin/env bash
# Checks a cuzk-daemon unit file with `systemd-analyze verify` (CTest
# packaging_systemd_unit). Usage: verify-unit.sh UNIT_FILE [DAEMON_BINARY]
#
# verify refuses an ExecStart binary that does not exist, so with
# DAEMON_BINARY the check runs on a temporary copy whose ExecStart points
# there (the rest of the file unchanged). verify exits 0 even on unknown
# keys and bad values (it only warns), so any message about our unit fails
# the check too. Exit 77 (skipped) when systemd-analyze is not installed.
set -euo pipefail
unit=$1
daemon=${2:-}
command -v systemd-analyze >/dev/null || { echo "SKIP: systemd-analyze not installed (Debian: apt-get install systemd)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$unit")
if [ -n "$daemon" ]; then
  [ -x "$daemon" ] || { echo "FAIL: $daemon is not an executable"; exit 1; }
  daemon=$(readlink -f "$daemon")  # ExecStart needs an absolute path
  grep -q '^ExecStart=[^ ]*/cuzk-daemon ' "$unit" || { echo "FAIL: no ExecStart=.../cuzk-daemon line in $unit"; exit 1; }
  sed "s|^ExecStart=[^ ]*/cuzk-daemon |ExecStart=$daemon |" "$unit" > "$tmp/$name"
else
  cp "$unit" "$tmp/$name"
fi

set +e
out=$(cd "$tmp" && SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$tmp/$name" 2>&1)
rc=$?
set -e
[ -z "$out" ] || printf '%s\n' "$out"
ours=$(printf '%s\n' "$out" | grep -F "$name" || true)
if [ "$rc" -ne 0 ] || [ -n "$ours" ]; then
  echo "FAIL: systemd-analyze verify $name (exit $rc)"
  exit 1
fi
echo "OK: systemd-analyze verify $name ($(systemd-analyze --version | head -n 1))"
