#!/usr/bin/env bash
# bench/roofline.sh — each Airfoil loop against the machine's limits, from
# one run: bench/limits.c measures STREAM's triad (1 and 2 threads) and the
# peak multiply-and-add rate three ways (scalar: -fno-tree-vectorize; SIMD:
# the same -O3 the samples use; and, on a CPU with AVX-512, as the AVX-512
# twins of generated code are compiled), then airfoil_seq and
# airfoil_openmp (2 threads) run with LOOM_DIAG=1, whose table gives each
# loop's GB/s and GFLOP/s (loomc's count of bytes and operations:
# runtime/src/core/profile.c).
#
# Usage: bench/roofline.sh MESH ITERS AIRFOIL_BIN_DIR
#
# For each loop: its arithmetic intensity (operations per byte), the roof
# that binds at that intensity — memory (intensity x triad) or compute
# (a peak times the threads) — and the share of it the loop reached.  The
# compute peak is the one of the code the loop ran: a loop whose tuner
# kept element by element (LOOM_DIAG's "loom: ...: element by element")
# the scalar one; one it ran staged, the AVX-512 one where LOOM_DIAG says
# the twins run, else the -O3 SIMD one; any other the -O3 SIMD one (the C
# compiler vectorizes what it can).  Triad streams arrays far larger than
# the caches; a loop whose data partly stays in the last-level cache
# (Airfoil's cells: about 75 MB) can pass 100% of it.  A measuring tool,
# not a test: it fails only when a program does.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: ${0##*/} MESH ITERS AIRFOIL_BIN_DIR" >&2; exit 2; }
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

$cc -std=c11 -O3 -fopenmp -fno-tree-vectorize -fno-tree-slp-vectorize \
  -o "$tmp/limits_scalar" "$here/limits.c"
$cc -std=c11 -O3 -fopenmp -o "$tmp/limits_simd" "$here/limits.c"
"$tmp/limits_scalar" triad 1 2 >"$tmp/limits"
echo "scalar $("$tmp/limits_scalar" peak | awk '{ print $2 }')" >>"$tmp/limits"
echo "simd $("$tmp/limits_simd" peak | awk '{ print $2 }')" >>"$tmp/limits"
# The twins' flags (compiler/emit/cpu_avx512.c: emit_twins_macros, cg_emit_twins).
if grep -qw avx512f /proc/cpuinfo 2>/dev/null &&
   $cc -std=c11 -O3 -fopenmp -DACC=64 -mavx512f -mavx512vl -mavx512bw -mavx512dq \
     -mavx512cd -mprefer-vector-width=512 -mtune=sapphirerapids -ffp-contract=off \
     -o "$tmp/limits_avx512" "$here/limits.c" 2>/dev/null; then
  echo "avx512 $("$tmp/limits_avx512" peak | awk '{ print $2 }')" >>"$tmp/limits"
fi
triad1=$(awk '$1 == "triad" && $2 == 1 { print $3 }' "$tmp/limits")
triad2=$(awk '$1 == "triad" && $2 == 2 { print $3 }' "$tmp/limits")
scalar=$(awk '$1 == "scalar" { print $2 }' "$tmp/limits")
simd=$(awk '$1 == "simd" { print $2 }' "$tmp/limits")
avx512=$(awk '$1 == "avx512" { print $2 }' "$tmp/limits")
echo "machine limits: STREAM triad $triad1 GB/s (1 thread), $triad2 GB/s (2 threads);" \
  "peak $scalar GFLOP/s scalar, $simd GFLOP/s SIMD (-O3)${avx512:+, $avx512 GFLOP/s AVX-512 (the twins)}"

# LOOM_DIAG's table: the loop's name, then calls, seconds, share, MB/call,
# GB/s, flop/elem, GFLOP/s; and its tuners' choices: "loom: NAME at
# FILE:LINE: staged ...: CHOICE".
table() { # TITLE TRIAD THREADS CMD...
  local title=$1 triad=$2 threads=$3
  shift 3
  echo "$title:"
  "$@" "$mesh" "$iters" 2>"$tmp/diag" >/dev/null
  sed -n '/^loop /,/^total /p' "$tmp/diag" >"$tmp/table"
  [ -s "$tmp/table" ] || { echo "${0##*/}: no LOOM_DIAG table from $*" >&2; exit 1; }
  local staged_peak=$simd
  grep -q '^loom: loops that time their turns run their AVX-512 twins' "$tmp/diag" &&
    [ -n "$avx512" ] && staged_peak=$avx512
  sed -n 's/^loom: \(.*\): staged [0-9.]* ms, element by element .*: \(staged\|element by element\)$/\1\t\2/p' \
    "$tmp/diag" >"$tmp/choices"
  awk -F'\t' -v triad="$triad" -v threads="$threads" -v scalar="$scalar" -v simd="$simd" \
      -v staged="$staged_peak" '
    FILENAME == ARGV[1] { choice[$1] = $2; next }
    FNR == 1 { printf "  %-52s %8s %8s %7s  %s\n", "loop", "GB/s", "GFLOP/s", "flop/B", "share of the binding roof"; next }
    { split($0, f, " "); n = 0; for (k in f) n++ }
    f[1] == "total" { next }
    { gbs = f[n - 2]; gfs = f[n]; name = f[1]
      for (i = 2; i <= n - 7; i++) name = name " " f[i]
      c = name in choice ? choice[name] : ""
      peak = threads * (c == "element by element" ? scalar : c == "staged" ? staged : simd)
      kind = c == "element by element" ? "scalar" : c == "staged" ? (staged == simd ? "SIMD" : "AVX-512") : "SIMD"
      ai = gbs > 0 ? gfs / gbs : 0
      if (ai * triad < peak) roof = sprintf("%3.0f%% of memory (%.2f GB/s)", 100 * gbs / triad, triad)
      else roof = sprintf("%3.0f%% of %s compute (%.2f GFLOP/s)", 100 * gfs / peak, kind, peak)
      printf "  %-52s %8.2f %8.2f %7.2f  %s\n", name, gbs, gfs, ai, roof }' "$tmp/choices" "$tmp/table"
}
table "airfoil_seq (1 thread)" "$triad1" 1 env LOOM_DIAG=1 "$bin/airfoil_seq"
table "airfoil_openmp (2 threads)" "$triad2" 2 env LOOM_DIAG=1 OMP_NUM_THREADS=2 \
  OMP_PROC_BIND=true "$bin/airfoil_openmp"
