#!/usr/bin/env bash
# tidy.sh: clang-tidy with the checks in .clang-tidy over our sources.
#
#   scripts/tidy.sh                 every .cpp under src/ and apps/ (about 12 s a file on
#                                   one core here: ~30 min on 2 cores, so not in the test command)
#   scripts/tidy.sh --changed REV   only the .cpp files changed since REV (a quick pre-commit check)
#   scripts/tidy.sh FILE...         the named files
#
# Uses the compile commands of the build tree ($CUZK_BUILD_DIR, default build; scripts/build.sh
# makes it). Exit status 1 when any check fires (WarningsAsErrors in .clang-tidy).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUZK_BUILD_DIR:-build}
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json (run scripts/build.sh)" >&2; exit 2; }
command -v clang-tidy > /dev/null || { echo "tidy: clang-tidy not found (apt-get install clang-tidy)" >&2; exit 2; }
if [ "${1-}" = --changed ]; then
  mapfile -t files < <(git diff --name-only --diff-filter=d "${2:?--changed REV}" -- 'src/*.cpp' 'apps/*.cpp')
elif [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'src/*.cpp' 'apps/*.cpp')
fi
# CUDA sources are compiled by nvcc, not in the C++ compile commands.
mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^src/cuda/' | grep -v '^$' || true)
[ ${#files[@]} -gt 0 ] || { echo "tidy: no files"; exit 0; }
echo "tidy: ${#files[@]} file(s), $(nproc) at a time"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# GCC-only warning flags in the compile commands are not errors for clang.
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option > "$log" 2>&1 &&
  rc=0 || rc=$?
grep -E 'warning:|error:' "$log" | sort -u || true
if [ $rc -ne 0 ]; then echo "tidy: FAILED"; exit 1; fi
echo "tidy: clean"
