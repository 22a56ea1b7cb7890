#!/usr/bin/env bash
# format.sh: the code style of .clang-format over every tracked C++/CUDA source.
#
#   scripts/format.sh            reformat in place
#   scripts/format.sh --check    change nothing; list the files that differ, exit 1 if any
#                                (CTest check_format runs this)
#   scripts/format.sh FILE...    reformat the named files
#
# clang-format comes from Debian's clang-format package (scripts/install-deps.sh). Lines the
# formatter must not touch sit between `// clang-format off` and `// clang-format on`
# (the hand-laid asm text of src/arith/mont_x86_64.hpp).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format > /dev/null ||
  { echo "format: clang-format not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
check=0
if [ "${1-}" = --check ]; then check=1; shift; fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
fi
if [ $check = 0 ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
# One clang-format run for all files; each difference is reported as "FILE:LINE:COL: error: ...".
out=$(clang-format --style=file --dry-run --Werror "${files[@]}" 2>&1) && rc=0 || rc=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<< "$out" | sort -u)
if [ $rc -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  echo "format: clang-format failed:" >&2; echo "$out" | tail -n 20 >&2; exit 2
fi
if [ ${#bad[@]} -gt 0 ]; then
  echo "format: ${#bad[@]} file(s) differ from .clang-format (run scripts/format.sh):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format: ${#files[@]} files follow .clang-format"
