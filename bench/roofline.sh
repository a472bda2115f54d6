#!/usr/bin/env bash
# bench/roofline.sh — each Airfoil loop against the machine's limits, from
# one run, with the roof that binds at the loop's own working set.
#
# bench/limits.c measures, in this run: the peak multiply-and-add rate
# three ways (scalar: -fno-tree-vectorize; SIMD: the same -O3 the samples
# use; and, on a CPU with AVX-512, as the AVX-512 twins of generated code
# are compiled); the sizes of L2 and of the last-level cache as the
# machine reports them; and STREAM's triad over arrays held by each level
# (1 and 2 threads): half of L2 per thread; the best of 4, 16, 64, ...
# times that up to half of the last-level cache (what the cache delivers
# at its best: a bound for any working set it holds); four times the
# last-level cache (memory; at most a quarter of the machine's memory).
# Then airfoil_seq and airfoil_openmp (2 threads) run with LOOM_DIAG=1,
# whose table gives each loop's bytes per call, GB/s and GFLOP/s
# (loomc's count of bytes and operations: runtime/src/core/profile.c).
#
# Usage: bench/roofline.sh MESH ITERS AIRFOIL_BIN_DIR [SVG]
#
# For each loop: its arithmetic intensity (operations per byte), its
# working set (the bytes it moves per call), the triad over arrays of
# that very size (on as many threads: what a stream of its size gets,
# for comparison), and the roof that binds — the bandwidth of the level
# its working set fits in (L2 when it fits in the threads' L2, the
# last-level cache when it fits there, else memory) times the intensity,
# or compute (a peak times the threads), whichever is lower; and the
# share of it the loop reached.  The compute peak is the
# one of the code the loop ran: a loop whose tuner kept element by
# element (LOOM_DIAG's "loom: ...: element by element") the scalar one;
# one it ran staged, the AVX-512 one where LOOM_DIAG says the twins run,
# else the -O3 SIMD one; any other the -O3 SIMD one.  SVG (default
# roofline.svg in the current directory) gets the chart: the roofs of
# each level and each peak, and each loop as a point (seq and OpenMP).
# A measuring tool, not a test: it fails only when a program does.
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: ${0##*/} MESH ITERS AIRFOIL_BIN_DIR [SVG]" >&2; exit 2; }
mesh=$1 iters=$2 bin=$3 svg=${4:-roofline.svg}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

$cc -std=c11 -O3 -fopenmp -fno-tree-vectorize -fno-tree-slp-vectorize \
  -o "$tmp/limits_scalar" "$here/limits.c"
$cc -std=c11 -O3 -fopenmp -o "$tmp/limits_simd" "$here/limits.c"
lim=$tmp/limits_scalar
echo "scalar $("$tmp/limits_scalar" peak | awk '{ print $2 }')" >"$tmp/limits"
echo "simd $("$tmp/limits_simd" peak | awk '{ print $2 }')" >>"$tmp/limits"
# The twins' flags (compiler/emit/cpu_avx512.c: emit_twins_macros, cg_emit_twins).
if grep -qw avx512f /proc/cpuinfo 2>/dev/null &&
   $cc -std=c11 -O3 -fopenmp -DACC=64 -mavx512f -mavx512vl -mavx512bw -mavx512dq \
     -mavx512cd -mprefer-vector-width=512 -mtune=sapphirerapids -ffp-contract=off \
     -o "$tmp/limits_avx512" "$here/limits.c" 2>/dev/null; then
  echo "avx512 $("$tmp/limits_avx512" peak | awk '{ print $2 }')" >>"$tmp/limits"
fi
"$lim" caches >>"$tmp/limits"
val() { awk -v k="$1" -v l="${2:-}" '$1 == k && (l == "" || $2 == l) { print $NF }' "$tmp/limits"; }
scalar=$(val scalar) simd=$(val simd) avx512=$(val avx512)
l2=$(val cache l2) llc=$(val cache llc)
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0)
dram=$((4 * llc))
[ "$mem_kb" -gt 0 ] && [ "$dram" -gt $((mem_kb * 256)) ] && dram=$((mem_kb * 256))
[ "$dram" -gt $((3 * llc / 2)) ] || dram=$((3 * llc / 2))
for t in 1 2; do
  "$lim" at "$t" $((t * l2 / 2)) | awk -v t="$t" '{ print "level l2", t, $NF }'
  sizes= size=$((2 * t * l2))
  while [ "$size" -le $((llc / 2)) ]; do sizes="$sizes $size" size=$((4 * size)); done
  "$lim" at "$t" ${sizes:-$((llc / 2))} |
    awk -v t="$t" '$NF > best { best = $NF } END { print "level llc", t, best }'
  "$lim" at "$t" "$dram" | awk -v t="$t" '{ print "level memory", t, $NF }'
done >>"$tmp/limits"
lv() { awk -v k="$1" -v t="$2" '$1 == "level" && $2 == k && $3 == t { print $4 }' "$tmp/limits"; }
echo "machine limits: L2 $((l2 >> 10)) KiB, last-level cache $((llc >> 20)) MiB;" \
  "triad over L2 $(lv l2 1)/$(lv l2 2) GB/s, the last-level cache $(lv llc 1)/$(lv llc 2)," \
  "memory ($((dram >> 20)) MiB) $(lv memory 1)/$(lv memory 2) (1/2 threads);" \
  "peak $scalar GFLOP/s scalar, $simd SIMD (-O3)${avx512:+, $avx512 AVX-512 (the twins)}"

# LOOM_DIAG's table: the loop's name, then calls, seconds, share, MB/call,
# GB/s, flop/elem, GFLOP/s; and its tuners' choices: "loom: NAME at
# FILE:LINE: staged ...: CHOICE".  Each loop's row, with its choice and
# its working set's triad, into $tmp/rows.TAG: name, GB/s, GFLOP/s,
# MB/call, choice, level, roof GB/s.
rows() { # TAG THREADS CMD...
  local tag=$1 threads=$2
  shift 2
  "$@" "$mesh" "$iters" 2>"$tmp/diag.$tag" >/dev/null
  sed -n '/^loop /,/^total /p' "$tmp/diag.$tag" | sed '1d;$d' >"$tmp/table.$tag"
  [ -s "$tmp/table.$tag" ] || { echo "${0##*/}: no LOOM_DIAG table from $*" >&2; exit 1; }
  sed -n 's/^loom: \(.*\): staged [0-9.]* ms, element by element .*: \(staged\|element by element\)$/\1\t\2/p' \
    "$tmp/diag.$tag" >"$tmp/choices.$tag"
  awk '{ print $(NF - 3) }' "$tmp/table.$tag" | sort -u | while read -r mb; do
    bytes=$(awk -v m="$mb" 'BEGIN { printf "%.0f", m * 1e6 }')
    "$lim" at "$threads" "$bytes" | awk -v m="$mb" '{ print m, $NF }'
  done >"$tmp/at.$tag"
  awk -v l2="$l2" -v llc="$llc" -v threads="$threads" -v bl2="$(lv l2 "$threads")" \
      -v bllc="$(lv llc "$threads")" -v bmem="$(lv memory "$threads")" '
    FILENAME == ARGV[1] { split($0, c, "\t"); choice[c[1]] = c[2]; next }
    FILENAME == ARGV[2] { at[$1] = $2; next }
    { n = NF; name = $1; for (i = 2; i <= n - 7; i++) name = name " " $i
      mb = $(n - 3); w = mb * 1e6
      level = w <= threads * l2 ? "L2" : w <= llc ? "LLC" : "memory"
      bw = level == "L2" ? bl2 : level == "LLC" ? bllc : bmem
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, $(n - 2), $n, mb,
             name in choice ? choice[name] : "", level, bw, at[mb] }' \
    "$tmp/choices.$tag" "$tmp/at.$tag" "$tmp/table.$tag" >"$tmp/rows.$tag"
  grep -q '^loom: loops that time their turns run their AVX-512 twins' "$tmp/diag.$tag" &&
    echo yes >"$tmp/twins.$tag" || echo no >"$tmp/twins.$tag"
}

# The table of one run: each loop's roof and its share of it.
table() { # TAG TITLE THREADS
  local tag=$1 threads=$3 staged_peak=$simd
  [ "$(cat "$tmp/twins.$tag")" = yes ] && [ -n "$avx512" ] && staged_peak=$avx512
  echo "$2:"
  awk -F'\t' -v threads="$threads" -v scalar="$scalar" -v simd="$simd" -v staged="$staged_peak" '
    BEGIN { printf "  %-52s %7s %8s %7s %8s %9s  %s\n", "loop", "GB/s", "GFLOP/s", "flop/B",
                   "MB/call", "triad at", "share of the binding roof" }
    { name = $1; gbs = $2; gfs = $3; mb = $4; c = $5; level = $6; bw = $7; at = $8
      peak = threads * (c == "element by element" ? scalar : c == "staged" ? staged : simd)
      kind = c == "element by element" ? "scalar" : c == "staged" ? (staged == simd ? "SIMD" : "AVX-512") : "SIMD"
      ai = gbs > 0 ? gfs / gbs : 0
      if (ai * bw < peak) roof = sprintf("%3.0f%% of %s (%.2f GB/s)", 100 * gbs / bw, level, bw)
      else roof = sprintf("%3.0f%% of %s compute (%.2f GFLOP/s)", 100 * gfs / peak, kind, peak)
      printf "  %-52s %7.2f %8.2f %7.2f %8.1f %9.2f  %s\n", name, gbs, gfs, ai, mb, at, roof }' "$tmp/rows.$tag"
}

rows seq 1 env LOOM_DIAG=1 "$bin/airfoil_seq"
rows omp 2 env LOOM_DIAG=1 OMP_NUM_THREADS=2 OMP_PROC_BIND=true "$bin/airfoil_openmp"
table seq "airfoil_seq (1 thread)" 1
table omp "airfoil_openmp (2 threads)" 2

# The chart: log-log, intensity (flop/B) across, GFLOP/s up; a roof per
# level and thread count (bandwidth x intensity up to the SIMD peak), the
# peaks as horizontal lines, each loop a point (seq: circles, OpenMP:
# squares), numbered and listed under the chart.
peak_top=${avx512:-$simd}
{
  for t in 1 2; do
    for k in l2 llc memory; do echo "roof $k $t $(lv "$k" "$t")"; done
  done
  echo "peak scalar $scalar"
  echo "peak SIMD $simd"
  [ -z "$avx512" ] || echo "peak AVX-512 $avx512"
  awk -F'\t' '{ print "point seq\t" $1 "\t" $2 "\t" $3 }' "$tmp/rows.seq"
  awk -F'\t' '{ print "point omp\t" $1 "\t" $2 "\t" $3 }' "$tmp/rows.omp"
} | awk -v top="$((2 * ${peak_top%.*} + 2))" -v simd="$simd" '
  function X(ai) { return 70 + 560 * (log(ai) / log(10) + 2) / 4 }      # 0.01 .. 100 flop/B
  function Y(g) { return 420 - 380 * (log(g) / log(10) + 1) / (log(top) / log(10) + 1) } # 0.1 .. top
  function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
  $1 == "roof" { n_roof++; rk[n_roof] = $2; rt[n_roof] = $3; rb[n_roof] = $4; next }
  $1 == "peak" { n_peak++; pk[n_peak] = $2; pv[n_peak] = $3; next }
  { split($0, f, "\t"); n_pt++; pt[n_pt] = substr(f[1], 7); pn[n_pt] = f[2]; pb[n_pt] = f[3]; pf[n_pt] = f[4] }
  END {
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", 480 + 14 * n_pt
    print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
    print "<text x=\"350\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">Airfoil: roofline (seq: circles, OpenMP 2 threads: squares)</text>"
    for (e = -2; e <= 2; e++) { x = X(10 ^ e)
      printf "<line x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"420\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"436\" text-anchor=\"middle\">%g</text>\n", x, x, x, 10 ^ e }
    for (e = -1; 10 ^ e <= top; e++) { y = Y(10 ^ e)
      printf "<line x1=\"70\" y1=\"%.1f\" x2=\"630\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"64\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", y, y, y + 4, 10 ^ e }
    print "<text x=\"350\" y=\"452\" text-anchor=\"middle\">operations per byte</text>"
    print "<text x=\"16\" y=\"230\" transform=\"rotate(-90 16 230)\" text-anchor=\"middle\">GFLOP/s</text>"
    color["l2"] = "#1f77b4"; color["llc"] = "#2ca02c"; color["memory"] = "#d62728"
    for (i = 1; i <= n_roof; i++) {
      peak = rt[i] * simd; knee = peak / rb[i]; lo = 0.01
      printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
        color[rk[i]], rt[i] == 2 ? " stroke-dasharray=\"6,3\"" : "", X(lo), Y(rb[i] * lo), X(knee), Y(peak), X(100), Y(peak)
      ly = 52 + 14 * i   # the legend, top left
      printf "<line x1=\"80\" y1=\"%d\" x2=\"104\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"%s/>",
        ly - 4, ly - 4, color[rk[i]], rt[i] == 2 ? " stroke-dasharray=\"6,3\"" : ""
      printf "<text x=\"110\" y=\"%d\">%s, %d thread%s: %.1f GB/s</text>\n", ly,
        rk[i] == "llc" ? "last-level cache" : rk[i] == "l2" ? "L2" : "memory", rt[i], rt[i] == 1 ? "" : "s", rb[i] }
    for (i = 1; i <= n_peak; i++)
      printf "<line x1=\"70\" y1=\"%.1f\" x2=\"630\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"2,2\"/><text x=\"628\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s peak, 1 thread: %.1f GFLOP/s</text>\n", Y(pv[i]), Y(pv[i]), Y(pv[i]) - 3, pk[i], pv[i]
    for (i = 1; i <= n_pt; i++) {
      if (pb[i] <= 0 || pf[i] <= 0) continue
      x = X(pf[i] / pb[i]); y = Y(pf[i])
      if (pt[i] == "seq") printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"black\"/>", x, y
      else printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#ff7f0e\"/>", x - 4, y - 4
      printf "<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", x + 6, y - 4, i
      printf "<text x=\"70\" y=\"%d\">%d: %s, %s: %.2f GFLOP/s, %.2f GB/s</text>\n", 470 + 14 * i, i, pt[i] == "seq" ? "seq" : "OpenMP", esc(pn[i]), pf[i], pb[i] }
    print "</svg>" }' >"$svg"
echo "roofline chart: $svg"
