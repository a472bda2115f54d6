#!/usr/bin/env bash
# loomc's translation time on a file, against clang parsing the same file
# (-fsyntax-only, same include paths): the floor loomc's libclang parse
# cannot go below.  Prints the best of N runs of each and their ratio; the
# runs alternate (loomc, clang, loomc, ...), so that a change in the
# machine's load falls on both.
#
#   bench/translate.sh LOOMC INPUT.c [clang args...]      (N: BENCH_REPEAT, 10)
set -eu
loomc=$1 input=$2
shift 2
n=${BENCH_REPEAT:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

clang_bin=$(command -v clang-14 || command -v clang)
t_loomc="" t_clang="" # microseconds
for _ in $(seq "$n"); do
  t_loomc=$(min "$t_loomc" "$(bench_best_us 1 "$loomc" "$@" "$input" -o "$tmp/out.c")")
  t_clang=$(min "$t_clang" "$(bench_best_us 1 "$clang_bin" -fsyntax-only -Wno-unknown-pragmas \
                                -I"$root/runtime/include" "$@" "$input")")
done
awk -v l="$t_loomc" -v c="$t_clang" -v f="$input" 'BEGIN {
  printf "translate %s: loomc %.1f ms, clang -fsyntax-only %.1f ms\n", f, l / 1000, c / 1000
  printf "RATIO loomc/clang-parse = %.2f\n", l / c
}'
