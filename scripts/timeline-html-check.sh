#!/usr/bin/env bash
# Checks the timeline pictures the way a person sees them: renders the HTML
# report and the SVG waterfall, loads them in headless Chromium, checks that
# the browser's DOM holds the waterfall (one bar per partition) and the
# tables, and takes screenshots to look at.
#
# Not part of CI: it needs Debian's chromium (apt-get install -y chromium).
#
# Usage: scripts/timeline-html-check.sh [CUZK_BENCH] [LOG] [OUT_DIR]
#   CUZK_BENCH  default build/apps/cuzk-bench
#   LOG         default: a simulated log (cuzk-bench timeline gen-synthetic)
#   OUT_DIR     default build/timeline-check; gets report.html, waterfall.svg,
#               report.png, waterfall.png, dom.html
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-build/apps/cuzk-bench}
log=${2:-}
out=${3:-build/timeline-check}

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "timeline-html-check: chromium not found (apt-get install -y chromium)" >&2
  exit 2
fi
[ -x "$bench" ] || { echo "timeline-html-check: $bench not built" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "$log" ]; then
  log="$out/sample.log"
  "$bench" timeline gen-synthetic -o "$log" --jobs 4 --job-interval-ms 45000 --seed 3
fi

"$bench" timeline html "$log" -o "$out/report.html"
"$bench" timeline svg "$log" -o "$out/waterfall.svg"
partitions=$("$bench" timeline jobs "$log" --json | grep -o '"partitions": [0-9]*' | awk '{s += $2} END {print s}')

flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --disable-dev-shm-usage)
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$out/report.html" > "$out/dom.html" 2>/dev/null

fail() { echo "timeline-html-check: FAIL: $*" >&2; exit 1; }
grep -q "<svg" "$out/dom.html" || fail "no <svg> in the browser's DOM"
for h in Runs Verdicts "Idle gaps and workers" "Transitions between jobs" Jobs; do
  grep -q "<h2>$h</h2>" "$out/dom.html" || fail "section '$h' missing"
done
bars=$(grep -o 'class="bar"' "$out/dom.html" | wc -l)
[ "$bars" -eq "$partitions" ] || fail "$bars bars in the picture, $partitions partitions in the log"

height=$(grep -o "height='[0-9]*'" "$out/waterfall.svg" | head -1 | tr -dc 0-9)
width=$(grep -o "width='[0-9]*'" "$out/waterfall.svg" | head -1 | tr -dc 0-9)
timeout 120 "$browser" "${flags[@]}" --window-size="$width,$height" \
  --screenshot="$out/waterfall.png" "file://$out/waterfall.svg" >/dev/null 2>&1
timeout 120 "$browser" "${flags[@]}" --window-size=1500,2200 \
  --screenshot="$out/report.png" "file://$out/report.html" >/dev/null 2>&1
for png in waterfall report; do
  size=$(stat -c %s "$out/$png.png" 2>/dev/null || echo 0)
  [ "$size" -gt 20000 ] || fail "$png.png missing or blank ($size bytes)"
done
echo "timeline-html-check: ok: $bars bars; screenshots in $out/waterfall.png and $out/report.png"
