#!/usr/bin/env bash
# Airfoil seq with fusion against the same program without it (loomc
# --no-fuse) and the hand-written reference, from one run of
# bench/airfoil.sh (baseline: airfoil_ref), then the per-loop time tables
# (LOOM_DIAG=1) of both Loom builds, which show where the time goes and
# what the fused groups cost against their loops on their own.
#
#   bench/fusion.sh MESH ITERS BINDIR      (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)

"$here/airfoil.sh" "$mesh" "$iters" "$bin/airfoil_ref" "$bin/airfoil_nofuse" \
  "$bin/airfoil_seq"

echo
echo "per-loop times, airfoil_nofuse (loomc --no-fuse):"
LOOM_DIAG=1 "$bin/airfoil_nofuse" "$mesh" "$iters" 2>/dev/null | sed -n '/^loop /,$p'
echo "per-loop times, airfoil_seq (fused):"
LOOM_DIAG=1 "$bin/airfoil_seq" "$mesh" "$iters" 2>/dev/null | sed -n '/^loop /,$p'
