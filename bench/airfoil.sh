#!/usr/bin/env bash
# bench/airfoil.sh — time Airfoil programs against a baseline.
#
# Usage: bench/airfoil.sh MESH ITERS PROG_BASELINE PROG_A [PROG_B ...]
#
# Runs every program as `PROG MESH ITERS`, BENCH_REPEAT times each
# (default 3), interleaved (baseline, A, B, baseline, A, B, ...) so that
# drifts in machine load hit all programs alike.  Each program must print
#   airfoil: main loop wall time X s
# on stderr; the best (minimum) X per program is reported, with its ratio
# to the baseline's best (below 1 = faster than the baseline):
#
#   program        best_s  ratio_vs_baseline
#   airfoil_ref    61.234  1.000
#   airfoil_seq    60.432  0.987
#   RATIO airfoil_seq/airfoil_ref = 0.987
#   PAIRED airfoil_seq/airfoil_ref: median 0.991 over 3 rounds (0.987 to 0.998)
#
# The PAIRED line divides each run by the baseline's run of the same round
# (slow phases of a shared machine then hit both) and gives the median.
#
# Every run's rms lines (stdout lines "ITER  RMS") must equal the
# baseline's first run's, byte for byte; a failing run, a missing time or
# different rms lines stop the benchmark with exit status 1.  Exit status 2
# is for bad usage.  This is a measuring tool, not a test.
set -euo pipefail

prog_self=${0##*/}

usage() {
  echo "usage: $prog_self MESH ITERS PROG_BASELINE PROG_A [PROG_B ...]" >&2
  echo "  env BENCH_REPEAT: runs per program (default 3)" >&2
  exit 2
}

die() {
  echo "$prog_self: $*" >&2
  exit 1
}

(($# >= 4)) || usage
mesh=$1
iters=$2
shift 2
progs=("$@")
repeat=${BENCH_REPEAT:-3}

[[ $iters =~ ^[1-9][0-9]*$ ]] || { echo "$prog_self: ITERS must be a positive integer, got '$iters'" >&2; usage; }
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "$prog_self: BENCH_REPEAT must be a positive integer, got '$repeat'" >&2; usage; }
[[ -r $mesh ]] || die "cannot read mesh '$mesh'"
for p in "${progs[@]}"; do
  [[ -x $p ]] || die "'$p' is not an executable file"
done

# Display names: the basename, or the path as given when basenames clash.
names=()
for p in "${progs[@]}"; do
  base=${p##*/}
  clash=0
  for q in "${progs[@]}"; do
    [[ $q != "$p" && ${q##*/} == "$base" ]] && clash=1
  done
  ((clash)) && names+=("$p") || names+=("$base")
done

workdir=$(mktemp -d "${TMPDIR:-/tmp}/airfoil-bench.XXXXXX")
trap 'rm -rf "$workdir"' EXIT

# The rms lines of a run's stdout: " ITER  RMS".
rms_lines() {
  grep -E '^[[:space:]]*[0-9]+[[:space:]]+[-+]?([0-9][0-9.]*([eE][-+]?[0-9]+)?|nan|inf)[[:space:]]*$' "$1" || true
}

# Runs program i once (run r); appends its wall time to $workdir/times.i.
run_once() {
  local i=$1 r=$2 prog=${progs[$1]} name=${names[$1]}
  local out="$workdir/out.$i.$r" err="$workdir/err.$i.$r" status=0
  "$prog" "$mesh" "$iters" >"$out" 2>"$err" || status=$?
  if ((status != 0)); then
    echo "$prog_self: $name (run $r) failed with exit status $status; its stderr ends:" >&2
    tail -n 5 "$err" | sed 's/^/  /' >&2
    exit 1
  fi
  local t
  t=$(sed -n 's/.*main loop wall time \([0-9.eE+-]*\) s.*/\1/p' "$err" | tail -n 1)
  [[ -n $t ]] || die "$name (run $r) printed no 'main loop wall time X s' on stderr"
  rms_lines "$out" >"$out.rms"
  if [[ $i -eq 0 && $r -eq 1 ]]; then
    cp "$out.rms" "$workdir/expected.rms"
    [[ -s $workdir/expected.rms ]] ||
      echo "$prog_self: warning: the baseline printed no rms lines (ITERS < 100?); nothing to compare" >&2
  elif ! cmp -s "$out.rms" "$workdir/expected.rms"; then
    echo "$prog_self: $name (run $r) printed different rms lines from ${names[0]} (run 1):" >&2
    diff "$workdir/expected.rms" "$out.rms" | sed 's/^/  /' >&2 || true
    exit 1
  fi
  echo "$t" >>"$workdir/times.$i"
  printf '%s: run %d/%d of %s: %s s\n' "$prog_self" "$r" "$repeat" "$name" "$t" >&2
}

for ((r = 1; r <= repeat; r++)); do
  for i in "${!progs[@]}"; do
    run_once "$i" "$r"
  done
done

best() { sort -g "$workdir/times.$1" | head -n 1; }

base_best=$(best 0)
width=7
for n in "${names[@]}"; do ((${#n} > width)) && width=${#n}; done

printf "%-${width}s  %10s  %s\n" program best_s ratio_vs_baseline
for i in "${!progs[@]}"; do
  b=$(best "$i")
  ratio=$(awk -v a="$b" -v z="$base_best" 'BEGIN { if (z > 0) printf "%.3f", a / z; else print "nan" }')
  printf "%-${width}s  %10.3f  %s\n" "${names[$i]}" "$b" "$ratio"
done
for i in "${!progs[@]}"; do
  ((i == 0)) && continue
  b=$(best "$i")
  ratio=$(awk -v a="$b" -v z="$base_best" 'BEGIN { if (z > 0) printf "%.3f", a / z; else print "nan" }')
  echo "RATIO ${names[$i]}/${names[0]} = $ratio"
done
# The same ratios round by round (each run against the baseline's run of
# the same round, so slow phases of the machine hit both): the median, and
# the range, over the rounds.
for i in "${!progs[@]}"; do
  ((i == 0)) && continue
  paste "$workdir/times.$i" "$workdir/times.0" |
    awk -v name="${names[$i]}/${names[0]}" '
      { r[NR] = $1 / $2 }
      END {
        n = NR
        for (a = 2; a <= n; a++) # insertion sort: POSIX awk has no asort
          for (b = a; b > 1 && r[b - 1] > r[b]; b--) { t = r[b]; r[b] = r[b - 1]; r[b - 1] = t }
        med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
        printf "PAIRED %s: median %.3f over %d rounds (%.3f to %.3f)\n", name, med, n, r[1], r[n]
      }'
done
