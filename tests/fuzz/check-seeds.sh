#!/usr/bin/env bash
# Regenerates the fuzz seed corpus into a temporary folder and compares it
# with the committed tests/fuzz/corpus: they must be identical.
#   check-seeds.sh CUZK_FUZZ_SEEDS REPO_ROOT [--update]
set -euo pipefail
gen=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp" "$root"
if [ "${3:-}" = "--update" ]; then
  rm -rf "$root/tests/fuzz/corpus"
  cp -r "$tmp" "$root/tests/fuzz/corpus"
  echo "corpus updated: $(find "$root/tests/fuzz/corpus" -type f | wc -l) files"
  exit 0
fi
if diff -r "$tmp" "$root/tests/fuzz/corpus"; then
  echo "seed corpus reproduced: $(find "$tmp" -type f | wc -l) files identical"
else
  echo "the committed seed corpus differs from the generator's output" \
       "(tests/fuzz/check-seeds.sh <cuzk-fuzz-seeds> <repo> --update rewrites it)" >&2
  exit 1
fi
