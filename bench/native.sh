#!/usr/bin/env bash
# bench/native.sh — Airfoil built as HPC users build it (-march=native)
# against Loom's default build, in each mode, in one run: the same
# generated C compiled both ways (the Makefile's airfoil_native,
# airfoil_openmp_native and airfoil_mpi_native), timed by bench/airfoil.sh
# with the default build as the baseline (RATIO below 1: the native build
# is faster; the rms lines of both must agree):
#   seq      airfoil_seq against airfoil_native
#   OpenMP   airfoil_openmp against airfoil_openmp_native, 2 threads
#   MPI      airfoil_mpi against airfoil_mpi_native, 2 ranks (when built)
#
#   bench/native.sh MESH ITERS BINDIR      (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/native-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# wrap NAME COMMAND...: $tmp/NAME runs COMMAND with the program's arguments
wrap() {
  local name=$1
  shift
  printf '#!/bin/sh\nexec %s "$@"\n' "$*" >"$tmp/$name"
  chmod +x "$tmp/$name"
}

echo "seq: the default build against -march=native"
"$here/airfoil.sh" "$mesh" "$iters" "$bin/airfoil_seq" "$bin/airfoil_native"

echo
echo "OpenMP, 2 threads: the default build against -march=native"
for b in airfoil_openmp airfoil_openmp_native; do
  wrap "$b" env OMP_NUM_THREADS=2 OMP_PROC_BIND=true "$bin/$b"
done
"$here/airfoil.sh" "$mesh" "$iters" "$tmp/airfoil_openmp" "$tmp/airfoil_openmp_native"

if [ -x "$bin/airfoil_mpi_native" ]; then
  echo
  echo "MPI, 2 ranks: the default build against -march=native"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for b in airfoil_mpi airfoil_mpi_native; do
    wrap "$b" env OMP_NUM_THREADS=1 mpirun --oversubscribe --bind-to core \
      --mca btl self,vader --mca pml ob1 -np 2 "$bin/$b"
  done
  "$here/airfoil.sh" "$mesh" "$iters" "$tmp/airfoil_mpi" "$tmp/airfoil_mpi_native"
fi
