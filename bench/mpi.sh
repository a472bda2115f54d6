#!/usr/bin/env bash
# Airfoil on MPI ranks against Loom seq and the hand-written reference, from
# one run of bench/airfoil.sh (baseline: airfoil_ref):
#   airfoil_ref, airfoil_seq, airfoil_mpi under mpirun -np 2, and
#   airfoil_mpi_openmp as 1 rank of 2 threads (when built),
# then one run of airfoil_mpi at 2 ranks with LOOM_DIAG=1: the partition
# and, per rank, the time spent waiting in halo ends (loom__halo_end); and
# one with LOOM_HALO_SYNC=1, where each exchange completes in its begin:
# its wait is the message time without overlap.
#
#   bench/mpi.sh MESH ITERS BINDIR      (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
launch="mpirun --oversubscribe --bind-to core --mca btl self,vader --mca pml ob1 -np 2"
printf '#!/bin/sh\nexec %s %s "$@"\n' "$launch" "$bin/airfoil_mpi" >"$tmp/airfoil_mpi_2r"
chmod +x "$tmp/airfoil_mpi_2r"
runs=("$bin/airfoil_ref" "$bin/airfoil_seq" "$tmp/airfoil_mpi_2r")
if [ -x "$bin/airfoil_mpi_openmp" ]; then
  printf '#!/bin/sh\nOMP_NUM_THREADS=2 exec %s %s "$@"\n' \
    "${launch/--bind-to core/--bind-to none}" "$bin/airfoil_mpi_openmp" |
    sed 's/-np 2/-np 1/' >"$tmp/airfoil_mpi_openmp_1r2t"
  chmod +x "$tmp/airfoil_mpi_openmp_1r2t"
  runs+=("$tmp/airfoil_mpi_openmp_1r2t")
fi

"$here/airfoil.sh" "$mesh" "$iters" "${runs[@]}"

echo
echo "airfoil_mpi, 2 ranks, LOOM_DIAG=1: the partition, and the time waiting in halo ends:"
LOOM_DIAG=1 $launch "$bin/airfoil_mpi" "$mesh" "$iters" 2>&1 >/dev/null |
  grep -E 'partition|halo:|main loop' || true
echo "the same with LOOM_HALO_SYNC=1 (each exchange completed in its begin: no overlap;"
echo "the wait is the message time the overlap hides):"
LOOM_HALO_SYNC=1 LOOM_DIAG=1 $launch "$bin/airfoil_mpi" "$mesh" "$iters" 2>&1 >/dev/null |
  grep -E 'halo:|main loop' || true
