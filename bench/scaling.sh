#!/usr/bin/env bash
# loomc's translation time against the number of loops, per shape of
# program and per target: N = 125 ... 4000 loops (bench/many_loops.py: a
# block of main; a time loop of constant and of run-time trip count; a
# loop of 2 iterations in a time loop; functions of 8 loops called from a
# time loop; four sets with maps and reductions), the best of
# BENCH_REPEAT (3) runs each.  Prints milliseconds and milliseconds per
# loop, with that per-loop time as a ratio to the smallest N's: about 1.0
# or below everywhere (a fixed cost, parsing loom.h, weighs on the
# smallest N) means linear; a ratio that grows with N is a pass whose cost
# is not bounded per loop (transformations.md: every transformation has a
# budget).
#
#   bench/scaling.sh LOOMC [N...]      SHAPES="block time" TARGETS="seq mpi" to narrow
set -eu
loomc=$1
shift
sizes=${*:-125 500 1000 2000 4000}
n=${BENCH_REPEAT:-3}
shapes=${SHAPES:-block time timevar nested calls sets}
targets=${TARGETS:-seq openmp mpi mpi+openmp}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python=$(command -v python3)

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
best() { echo $(($(bench_best_us "$n" "$@") / 1000)); } # milliseconds

echo "loomc translation time vs loops (best of $n; per-loop ratio to N=${sizes%% *})"
for shape in $shapes; do
  printf '%-19s' "$shape"
  for s in $sizes; do printf '%18s' "N=$s"; done
  echo
  for target in $targets; do
    printf '  %-17s' "$target"
    base=""
    for s in $sizes; do
      [ -f "$tmp/$shape$s.c" ] || "$python" "$root/bench/many_loops.py" "$s" "$shape" >"$tmp/$shape$s.c"
      ms=$(best "$loomc" --target="$target" "$tmp/$shape$s.c" -o "$tmp/out.c")
      per=$(awk -v m="$ms" -v s="$s" 'BEGIN { printf "%.3f", m / s }')
      [ -n "$base" ] || base=$per
      printf '%18s' "$(awk -v m="$ms" -v p="$per" -v b="$base" 'BEGIN { printf "%d ms %.2fx", m, (b > 0 ? p / b : 0) }')"
    done
    echo
  done
done
