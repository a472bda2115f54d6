#!/usr/bin/env bash
# Airfoil OpenMP against Loom seq and the hand-written reference, from one
# run: bench/airfoil.sh on
#   airfoil_ref, airfoil_seq, airfoil_openmp at 2 threads, and the same
#   with LOOM_RENUMBER=1 (RCM renumbering of the mesh before the plans),
# then one run each of seq and openmp (2 threads) with LOOM_DIAG=1, whose
# per-loop time tables show where the time goes.
#
#   bench/openmp.sh MESH ITERS BINDIR      (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/openmp-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

variant() { # NAME ENV... : a wrapper running airfoil_openmp with ENV
  local name=$1
  shift
  printf '#!/bin/sh\nexec env %s %s "$@"\n' "$*" "$bin/airfoil_openmp" >"$tmp/$name"
  chmod +x "$tmp/$name"
}
variant openmp_2t OMP_NUM_THREADS=2 OMP_PROC_BIND=true
variant openmp_2t_rcm OMP_NUM_THREADS=2 OMP_PROC_BIND=true LOOM_RENUMBER=1

"$here/airfoil.sh" "$mesh" "$iters" "$bin/airfoil_ref" "$bin/airfoil_seq" \
  "$tmp/openmp_2t" "$tmp/openmp_2t_rcm"

echo
echo "per-loop times, airfoil_seq:"
LOOM_DIAG=1 "$bin/airfoil_seq" "$mesh" "$iters" 2>&1 >/dev/null | sed -n '/^loop /,$p'
echo "per-loop times, airfoil_openmp, 2 threads:"
LOOM_DIAG=1 OMP_NUM_THREADS=2 OMP_PROC_BIND=true "$bin/airfoil_openmp" "$mesh" "$iters" 2>&1 >/dev/null |
  sed -n '/^loop /,$p'
