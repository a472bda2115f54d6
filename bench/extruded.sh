#!/usr/bin/env bash
# bench/extruded.sh — a loop over an extruded set against the same loop
# written by hand in plain C, in one run: each prism gets the mean of its
# six vertices (bench/extruded/xcol_kernel.h), the prisms standing in
# columns of 1, 4, 16, 64 and 128 layers over the perturbed triangle mesh,
# about XCOL_PRISMS prisms in all (default 32,000,000: some 400 MB moved
# per pass, more than the last-level cache holds).  xcol is the Loom
# program (loomc --target=seq), xcol_hand the hand-written one (columns
# contiguous, the map's row read once per column), xcol_columns the Loom
# program with both sets declared by columns, every column as high (its
# layer loops bounded by each column's own count); BENCH_REPEAT rounds
# (default 3), the three in turn, each the best of XCOL_ITERS passes
# (default 5).  Prints, per number of layers: the columns, the data a pass
# moves at least (the lines' values read once, the prisms' written once,
# the map's rows), ns per prism of both and their ratio, Loom's GB/s and
# its share of STREAM's triad on one thread (bench/limits.c, this run),
# and the columns program's time against Loom's;
# then time per prism at 16 layers against 128 (the map's cost
# amortized).  A line goes to BUILD_DIR/bench/summary.txt.
#
#   bench/extruded.sh BUILD_DIR
#
# A measuring tool, not a test: it fails only when a program does, or when
# the two programs' results differ.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: ${0##*/} BUILD_DIR" >&2; exit 2; }
build=$1
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bench/extruded
rounds=${BENCH_REPEAT:-3} iters=${XCOL_ITERS:-5} total=${XCOL_PRISMS:-32000000}
for p in xcol xcol_hand xcol_columns; do
  [ -x "$bin/$p" ] || { echo "${0##*/}: $bin/$p not built (make bench)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -O3 -fopenmp -o "$tmp/limits" "$here/limits.c"
triad=$(OMP_NUM_THREADS=1 "$tmp/limits" triad 1 | awk '{ print $3 }')

printf "extruded: xcol_mean over %s prisms, best of %s passes, %s rounds; STREAM triad %.1f GB/s (1 thread)\n" \
  "$total" "$iters" "$rounds" "$triad"
printf "%7s %9s %11s %8s %11s %11s %10s %7s %8s %10s\n" layers columns prisms "MB/pass" \
  "Loom ns/p" "hand ns/p" "Loom/hand" "GB/s" "% triad" "by cols"
declare -A at
for L in 1 4 16 64 128; do
  n=$(awk -v t="$total" -v L="$L" 'BEGIN { printf "%d", sqrt(t / (2 * L)) + 0.5 }')
  best_l=1e30 best_h=1e30 best_c=1e30
  for r in $(seq 1 "$rounds"); do
    "$bin/xcol" "$n" "$L" "$iters" >"$tmp/l.out"
    "$bin/xcol_hand" "$n" "$L" "$iters" >"$tmp/h.out"
    read -r tl prisms bytes sum_l <"$tmp/l.out"
    "$bin/xcol_columns" "$n" "$L" "$iters" >"$tmp/c.out"
    read -r th _ _ sum_h <"$tmp/h.out"
    read -r tc _ _ sum_c <"$tmp/c.out"
    [ "$sum_l" = "$sum_h" ] && [ "$sum_l" = "$sum_c" ] ||
      { echo "${0##*/}: $L layers: Loom's result $sum_l, the hand-written $sum_h, by columns" \
          "$sum_c" >&2; exit 1; }
    best_c=$(awk -v a="$best_c" -v b="$tc" 'BEGIN { print (b < a ? b : a) }')
    best_l=$(awk -v a="$best_l" -v b="$tl" 'BEGIN { print (b < a ? b : a) }')
    best_h=$(awk -v a="$best_h" -v b="$th" 'BEGIN { print (b < a ? b : a) }')
  done
  at[$L]=$(awk -v t="$best_l" -v p="$prisms" 'BEGIN { print 1e9 * t / p }')
  awk -v L="$L" -v c="$((2 * n * n))" -v p="$prisms" -v b="$bytes" -v tl="$best_l" \
    -v th="$best_h" -v tc="$best_c" -v tr="$triad" 'BEGIN {
      gbs = b / tl / 1e9
      printf "%7d %9d %11d %8.0f %11.2f %11.2f %10.3f %7.1f %7.0f%% %9.3fx\n", L, c, p, b / 1e6,
             1e9 * tl / p, 1e9 * th / p, tl / th, gbs, 100 * gbs / tr, tc / tl }' |
    tee -a "$tmp/table"
done
amort=$(awk -v a="${at[16]}" -v b="${at[128]}" 'BEGIN { printf "%.2f", a / b }')
echo "extruded: time per prism at 16 layers / at 128: ${amort}x (the map's row read per column)"
row64=$(awk '$1 == 64' "$tmp/table")
mkdir -p "$build/bench"
echo "extruded: 64 layers, Loom/hand $(echo "$row64" | awk '{ print $7 }'), $(echo "$row64" |
  awk '{ print $9 }') of the triad; 16/128 layers ${amort}x" >>"$build/bench/summary.txt"
