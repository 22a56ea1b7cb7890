#!/usr/bin/env bash
# `cmake --install` of a build tree into a temporary prefix, checked against
# the layout of contrib/packaging.cmake; the installed unit (ExecStart now the
# installed daemon) through contrib/systemd/verify-unit.sh. CTest
# packaging_install. Usage: check-install.sh CMAKE BUILD_DIR
set -euo pipefail
cmake=$1
build=$2
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

"$cmake" --install "$build" --prefix "$prefix" >/dev/null
fail=0
for f in bin/cuzk-daemon bin/cuzk bin/cuzk-bench; do
  [ -x "$prefix/$f" ] || { echo "FAIL: $f missing or not executable"; fail=1; }
done
for f in lib/systemd/system/cuzk-daemon.service share/cuzk/cuzk.toml.example \
         share/doc/cuzk/README.md share/doc/cuzk/PROTOCOL.md share/doc/cuzk/cuzk.toml.example; do
  [ -f "$prefix/$f" ] || { echo "FAIL: $f missing"; fail=1; }
done
# Only the apps: no test or benchmark programs, no libraries, no headers.
allowed='^\./(bin/cuzk(-daemon|-bench)?|lib/systemd/system/cuzk-daemon\.service|share/cuzk/cuzk\.toml\.example|share/doc/cuzk/[^/]+)$'
extra=$(cd "$prefix" && find . -type f | { grep -v -E "$allowed" || true; })
[ -z "$extra" ] || { echo "FAIL: unexpected files installed:"; echo "$extra"; fail=1; }
unit=$prefix/lib/systemd/system/cuzk-daemon.service
grep -qx "ExecStart=$prefix/bin/cuzk-daemon --config /etc/cuzk/cuzk.toml" "$unit" ||
  { echo "FAIL: ExecStart of the installed unit:"; grep '^ExecStart' "$unit"; fail=1; }
"$prefix/bin/cuzk-daemon" --help >/dev/null || { echo "FAIL: installed cuzk-daemon --help"; fail=1; }
[ "$fail" -eq 0 ] || exit 1
echo "OK: cmake --install layout ($(cd "$prefix" && find . -type f | wc -l) files)"
set +e
bash "$here/systemd/verify-unit.sh" "$unit"
rc=$?
set -e
[ "$rc" -eq 77 ] && exit 0  # no systemd-analyze: the layout check stands alone
exit "$rc"
