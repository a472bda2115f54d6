#!/usr/bin/env bash
# The wave sample (seed 001's example) with each of loomc's transformations
# across its time loop turned off in turn, from one run of bench/airfoil.sh
# each (baseline: wave_ref, the hand-written C):
#   wave_nofuse     loomc --no-fuse: each loop on its own (no fusion of the
#                   zeroing loops, no rotation, no unrolling)
#   wave_norotate   loomc --no-rotate: fused within a step only
#   wave_seq        everything (the next step's phi_expr + zero + zero fused
#                   into this step's expr + phi_expr)
# and with MPI at 2 ranks (baseline: wave_mpi_nohoist, x's exchange issued
# every step): wave_mpi, x's exchange hoisted out of the time loop.
#
#   bench/wave.sh BINDIR N STEPS     (the N x N mesh; BENCH_REPEAT as for
#                                    airfoil.sh)
set -euo pipefail
bin=$1 n=$2 steps=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mesh=$work/wave_$n.mesh
"$bin/wave_mesh" -n "$n" "$mesh"

echo "wave seq, ${n}x${n} mesh, $steps steps:"
"$here/airfoil.sh" "$mesh" "$steps" "$bin/wave_ref" "$bin/wave_nofuse" "$bin/wave_norotate" \
  "$bin/wave_seq"

if [ -x "$bin/wave_mpi" ] && [ -x "$bin/wave_mpi_nohoist" ]; then
  wrap=$work
  for p in wave_mpi_nohoist wave_mpi; do
    printf '#!/bin/sh\nexec mpirun --oversubscribe --bind-to none -np 2 %s "$@"\n' "$bin/$p" \
      >"$wrap/$p"
    chmod +x "$wrap/$p"
  done
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo
  echo "wave mpi, 2 ranks (x's exchange every step, then hoisted out of the loop):"
  "$here/airfoil.sh" "$mesh" "$steps" "$wrap/wave_mpi_nohoist" "$wrap/wave_mpi"
  echo "exchanges of x per run, rank 0 (LOOM_DIAG=1):"
  for p in wave_mpi_nohoist wave_mpi; do
    printf '  %-18s %s\n' "$p" "$(LOOM_DIAG=1 "$wrap/$p" "$mesh" "$steps" 2>&1 >/dev/null |
      sed -n "s/^loom: rank 0: halo of dat 'x': //p")"
  done
fi
