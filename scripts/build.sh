#!/usr/bin/env bash
# Configures and builds cuzk into ./build (or $CUZK_BUILD_DIR), Release.
# Extra args go to cmake.
#
# Quiet by default: the configure and compiler output goes to
# <build>/build.log and the terminal gets one progress line (updated in place
# on a terminal, every 10% otherwise) and a summary with the number of
# compiler warnings. On failure the first compiler error and the end of the
# log are printed. CUZK_VERBOSE_BUILD=1 prints everything as it comes.
# CUZK_BUILD_TARGETS="a b" builds only those targets (default: all).
# Warnings are errors (CUZK_WERROR=ON, the project's compilers build clean);
# CUZK_WERROR=OFF relaxes that for another compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cmake-generator.sh
build=${CUZK_BUILD_DIR:-build}
read -r -a targets <<< "${CUZK_BUILD_TARGETS:-}"
jobs=$(nproc)

if [ "${CUZK_VERBOSE_BUILD:-0}" = 1 ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_WERROR="${CUZK_WERROR:-ON}" "$@" >/dev/null
  exec cmake --build "$build" -j "$jobs" ${targets[0]+--target "${targets[@]}"}
fi

mkdir -p "$build"
log=$build/build.log
t0=$SECONDS
what=${CUZK_BUILD_TARGETS:-everything}

show_failure() {  # step: the first compiler error with some context, then the end of the log
  echo "build: $1 failed; the full log is $log" >&2
  if (($(wc -l < "$log") <= 40)); then
    cat "$log" >&2
    return
  fi
  local first
  first=$(grep -n -m 1 -E '(: (fatal )?error:|^CMake Error)' "$log" | cut -d: -f1 || true)
  if [ -n "$first" ]; then
    echo "---- first error (line $first of the log) ----" >&2
    sed -n "$((first > 3 ? first - 3 : 1)),$((first + 12))p" "$log" >&2
  fi
  echo "---- end of the log ----" >&2
  tail -n 20 "$log" >&2
}

if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_WERROR="${CUZK_WERROR:-ON}" "$@" > "$log" 2>&1; then
  show_failure "cmake configure"
  exit 1
fi

elapsed() { printf '%dm%02ds' $(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60)); }
# Reads the build output: appends it to the log and reports progress from the
# "[ 42%]" (make) or "[12/345]" (ninja) prefixes.
progress() {
  local line pct=-1 shown=-1 tty=0
  [ -t 1 ] && tty=1
  while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    if [[ $line =~ ^\[\ *([0-9]+)%\] ]]; then
      pct=${BASH_REMATCH[1]}
    elif [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
      pct=$((100 * BASH_REMATCH[1] / BASH_REMATCH[2]))
    else
      continue
    fi
    # Parallel jobs print slightly out of order: only forward.
    ((pct < shown)) && continue
    if ((tty)); then
      ((pct != shown)) && printf '\rbuild: %s %3d%% (%s)   ' "$label" "$pct" "$(elapsed)"
      shown=$pct
    elif ((pct / 10 != shown / 10 || shown < 0)); then
      printf 'build: %s %3d%% (%s)\n' "$label" "$pct" "$(elapsed)"
      shown=$pct
    fi
  done
  ((tty && shown >= 0)) && printf '\n'
  return 0
}

echo "build: $what in $build (-j $jobs; log: $log, CUZK_VERBOSE_BUILD=1 prints it)"
# One target at a time (make counts each requested target from 0% again),
# so that the progress line can say which one it is counting.
((${#targets[@]})) || targets=(all)
for target in "${targets[@]}"; do
  label=$target
  [ "$target" = all ] && label=everything
  set +e
  cmake --build "$build" -j "$jobs" --target "$target" 2>&1 | progress
  rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" -ne 0 ]; then
    show_failure "cmake --build --target $target (exit $rc)"
    exit "$rc"
  fi
done
warnings=$(grep -c -E ': warning:' "$log" || true)
echo "build: done in $(elapsed), ${warnings} compiler warning(s)$( ((warnings)) && echo " (grep -n 'warning:' $log)")"
