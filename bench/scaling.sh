#!/usr/bin/env bash
# loomc's translation time against the number of loops in one block, per
# target: N = 125 ... 4000 loops (bench/many_loops.py), the best of
# BENCH_REPEAT (3) runs each.  Prints milliseconds, milliseconds per loop,
# and that per-loop time as a ratio to the smallest N's (1.0 everywhere:
# linear; the DAG's pairwise dependences and their transitive reduction
# used to make it grow with N).
#
#   bench/scaling.sh LOOMC [N...]
set -eu
loomc=$1
shift
sizes=${*:-125 250 500 1000 2000 4000}
n=${BENCH_REPEAT:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python=$(command -v python3)

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
best() { echo $(($(bench_best_us "$n" "$@") / 1000)); } # milliseconds

echo "loomc translation time vs loops in one block (best of $n; per-loop ratio to N=${sizes%% *})"
printf '%-11s' "target"
for s in $sizes; do printf '%16s' "N=$s"; done
echo
for target in seq openmp mpi mpi+openmp; do
  printf '%-11s' "$target"
  base=""
  for s in $sizes; do
    [ -f "$tmp/p$s.c" ] || "$python" "$root/bench/many_loops.py" "$s" >"$tmp/p$s.c"
    ms=$(best "$loomc" --target="$target" "$tmp/p$s.c" -o "$tmp/out.c")
    per=$(awk -v m="$ms" -v s="$s" 'BEGIN { printf "%.3f", m / s }')
    [ -n "$base" ] || base=$per
    printf '%16s' "$(awk -v m="$ms" -v p="$per" -v b="$base" 'BEGIN { printf "%d ms %.2fx", m, (b > 0 ? p / b : 0) }')"
  done
  echo
done
