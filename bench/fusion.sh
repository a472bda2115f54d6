#!/usr/bin/env bash
# Airfoil seq with loomc's transformations against the same program with
# them turned off and the hand-written reference, from one run of
# bench/airfoil.sh (baseline: airfoil_ref):
#   airfoil_plain    loomc --no-fuse --no-vectorize: each loop on its own,
#                    each element reading the mesh through its maps
#   airfoil_nofuse   loomc --no-fuse: vectorized (strips and gathers) only
#   airfoil_novec    loomc --no-vectorize: fused only
#   airfoil_unrolled the default, on the sample with OP2's k loop written
#                    out (bench/unroll_k.py): loomc's rotation of the k
#                    loop against the form the sample had before
#   airfoil_seq      both (the default)
# then the per-loop time tables (LOOM_DIAG=1) of airfoil_plain and
# airfoil_seq, which show where the time goes and what each group costs
# against its loops on their own.
#
#   bench/fusion.sh MESH ITERS BINDIR      (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)

"$here/airfoil.sh" "$mesh" "$iters" "$bin/airfoil_ref" "$bin/airfoil_plain" \
  "$bin/airfoil_nofuse" "$bin/airfoil_novec" "$bin/airfoil_unrolled" "$bin/airfoil_seq"

echo
echo "per-loop times, airfoil_plain (loomc --no-fuse --no-vectorize):"
LOOM_DIAG=1 "$bin/airfoil_plain" "$mesh" "$iters" 2>&1 >/dev/null | sed -n '/^loop /,$p'
echo "per-loop times, airfoil_seq (fused and vectorized):"
LOOM_DIAG=1 "$bin/airfoil_seq" "$mesh" "$iters" 2>&1 >/dev/null | sed -n '/^loop /,$p'
