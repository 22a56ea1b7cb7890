# Sourced by the large interop scripts.
# step LABEL COMMAND...: runs the command quietly, its output in $step_log,
# and prints its wall time; on failure prints that output and exits 1.
step() {
  local label=$1 s e
  shift
  s=$(date +%s%N)
  "$@" >"$step_log" 2>&1 || { cat "$step_log" >&2; echo "FAIL: $label" >&2; exit 1; }
  e=$(date +%s%N)
  printf '%-34s %7.1f s\n' "$label" "$(( (e - s) / 1000000 ))e-3"
}
