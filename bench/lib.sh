# Shared by the benchmark scripts (sourced).

# bench_best_us N COMMAND...: the best wall time of N runs of COMMAND, in
# microseconds (its output discarded; a failing run ends the benchmark).
bench_best_us() {
  local n=$1 b="" t0 t1 us
  shift
  for _ in $(seq "$n"); do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || { echo "bench: command failed: $*" >&2; exit 1; }
    t1=$(date +%s%N)
    us=$(((t1 - t0) / 1000))
    if [ -z "$b" ] || [ "$us" -lt "$b" ]; then b=$us; fi
  done
  echo "$b"
}
