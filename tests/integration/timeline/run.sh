#!/usr/bin/env bash
# End-to-end check of `cuzk-bench timeline ...` on generated and damaged logs:
# every subcommand runs, exits 0, and prints the numbers the log implies.
# Needs only the cuzk-bench binary (no browser, no Python).
#
# Usage: tests/integration/timeline/run.sh [CUZK_BENCH]   (default build/apps/cuzk-bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=${1:-$here/../../../build/apps/cuzk-bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() {  # check NAME COMMAND...: the command must succeed
  if "${@:2}" >/dev/null 2>&1; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi
}
has() { grep -q -- "$2" "$1"; }

# A simulated batch: 4 jobs of 10 partitions, one every 45 s, 2 workers.
"$bench" timeline gen-synthetic -o "$tmp/batch.log" --jobs 4 --job-interval-ms 45000 --seed 3
"$bench" timeline analyze "$tmp/batch.log" > "$tmp/analyze.txt"
"$bench" timeline analyze "$tmp/batch.log" --json > "$tmp/analyze.json"
"$bench" timeline table "$tmp/batch.log" > "$tmp/table.txt"
"$bench" timeline jobs "$tmp/batch.log" > "$tmp/jobs.txt"
"$bench" timeline svg "$tmp/batch.log" -o "$tmp/batch.svg"
"$bench" timeline html "$tmp/batch.log" -o "$tmp/batch.html"
check "analyze finds one run of 4 proofs" has "$tmp/analyze.txt" "proofs 4, partitions 40"
check "analyze gives a verdict" has "$tmp/analyze.txt" "verdict: SYNTHESIS-BOUND"
check "json has runs" has "$tmp/analyze.json" '"device_utilization"'
check "json has the verdict" has "$tmp/analyze.json" '"bottleneck": "synthesis"'
check "table lists every event" test "$(grep -c -E 'SYNTH_START|GPU_END' "$tmp/table.txt")" -eq 80
check "jobs has 4 rows" test "$(grep -c '^P[0-9]' "$tmp/jobs.txt")" -eq 4
check "svg has 40 bars" test "$(grep -o "class='bar'" "$tmp/batch.svg" | wc -l)" -eq 40
check "html embeds the svg" has "$tmp/batch.html" "<svg "

# The same log damaged: restart, duplicates, truncation, garbage, a lost END.
{
  head -n 200 "$tmp/batch.log"
  sed -n 150,160p "$tmp/batch.log" | grep '^TIMELINE,'     # duplicated lines
  echo "TIMELINE,12"                                        # truncated
  echo "TIMELINE,oops,GPU_START,x,worker=0"                 # bad offset
  printf 'TIMELINE,104300,GPU_END,\xff\xfe,worker=0\n'       # not UTF-8
  echo "random daemon output, no record here"
  echo "TIMELINE,500,SRS_LOAD_START,job-r,circuit=porep-32g" # restart, extra event
  echo "TIMELINE,600,SYNTH_START,job-r,kind=porep-c2"
  echo "TIMELINE,4000,SYNTH_END,job-r,synth_ms=3400"
  echo "TIMELINE,4001,CHAN_SEND,job-r,"
  echo "TIMELINE,4002,GPU_START,job-r,worker=1"
  echo "TIMELINE,9002,GPU_END,job-r,worker=1,gpu_ms=5000"
  echo "TIMELINE,9100,GPU_START,job-s,worker=0"
  printf 'TIMELINE,9200,GPU_END,job-s,worker=0,gpu_m'       # cut off, no newline: still an END
} > "$tmp/damaged.log"
"$bench" timeline analyze "$tmp/damaged.log" --json > "$tmp/damaged.json"
"$bench" timeline analyze "$tmp/damaged.log" > "$tmp/damaged.txt"
check "damaged: two epochs" has "$tmp/damaged.json" '"epochs": 2'
dups=$(sed -n 150,160p "$tmp/batch.log" | grep -c '^TIMELINE,')
check "damaged: duplicates counted" has "$tmp/damaged.json" "\"duplicates\": $dups"
check "damaged: restart warned" has "$tmp/damaged.txt" "the daemon restarted"
check "damaged: lost END warned" has "$tmp/damaged.txt" "has no GPU_END"  # cut at line 200
check "damaged: run after restart" has "$tmp/damaged.txt" "=== Run 2 (epoch 1): 4.002 s -> 9.200 s ==="
check "damaged: svg still drawn" "$bench" timeline svg "$tmp/damaged.log" -o "$tmp/damaged.svg"
check "damaged: html still drawn" "$bench" timeline html "$tmp/damaged.log" -o "$tmp/damaged.html"

# Following a growing file: three reads, the last one sees all jobs.
head -n 100 "$tmp/batch.log" > "$tmp/grow.log"
( sleep 0.4; tail -n +101 "$tmp/batch.log" >> "$tmp/grow.log" ) &
"$bench" timeline analyze "$tmp/grow.log" --follow --interval-s 0.3 --max-updates 4 --json > "$tmp/follow.jsonl"
wait
check "follow printed more than one update" test "$(wc -l < "$tmp/follow.jsonl")" -ge 2
check "follow saw every job at the end" has <(tail -n 1 "$tmp/follow.jsonl") '"jobs":4'

# Errors name the file.
if "$bench" timeline analyze "$tmp/missing.log" 2> "$tmp/err.txt"; then
  echo "FAIL: a missing log must fail" >&2; failed=$((failed + 1))
else
  check "missing file is named" has "$tmp/err.txt" "missing.log"
fi

echo "timeline: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
