#!/usr/bin/env bash
# Matrix assembly (samples/poisson/assembly.c, the P1 -laplace + 1 matrix
# of the Poisson sample) through Loom against the same assembly written
# against PETSc by hand (assembly_petsc.c: exact preallocation, one
# MatSetValues(ADD_VALUES) per cell, MatAssemblyBegin/End), from one run:
# the best of REPS assemblies each (from a zeroed matrix), per cell and per
# nonzero, and the ratio to the hand-written one.  The matrices' Frobenius
# norms must agree to 1e-12 (relative).
#
#   bench/assembly.sh BINDIR [N [REPS]]    (the N x N mesh: 2 N^2 cells)
set -euo pipefail
bin=$1 n=${2:-512} reps=${3:-5}
for p in assembly_petsc assembly_seq assembly_openmp; do
  [ -x "$bin/$p" ] || { echo "assembly: $bin/$p not built (PETSc: make deps)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # NAME PROG...: the program's line in $work/NAME
  local name=$1
  shift
  "$@" "$n" "$reps" >"$work/$name"
}
run petsc "$bin/assembly_petsc"
run seq "$bin/assembly_seq"
OMP_NUM_THREADS=1 run omp1 "$bin/assembly_openmp"
OMP_NUM_THREADS=2 run omp2 "$bin/assembly_openmp"
best() { sed -n 's/.*best \([0-9.]*\) s.*/\1/p' "$work/$1"; }
norm() { sed -n 's/.*norm \([0-9.e+-]*\)$/\1/p' "$work/$1"; }
echo "matrix assembly, ${n}x${n} mesh ($(sed -n 's/assembly: \([0-9]*\) cells, \([0-9]*\) nonzeros.*/\1 cells, \2 nonzeros/p' "$work/petsc")), best of $reps:"
for name in petsc seq omp1 omp2; do
  label=$(case $name in petsc) echo "PETSc by hand (MatSetValues)" ;; seq) echo "Loom seq" ;;
          omp1) echo "Loom openmp, 1 thread" ;; omp2) echo "Loom openmp, 2 threads" ;; esac)
  line=$(sed -n 's/.*s: \(.*\); norm.*/\1/p' "$work/$name")
  printf '  %-30s %s  %.3fx\n' "$label" "$line" \
    "$(awk -v a="$(best "$name")" -v b="$(best petsc)" 'BEGIN { print a / b }')"
  awk -v a="$(norm "$name")" -v b="$(norm petsc)" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-12 * b) }' ||
    { echo "assembly: $label: norm $(norm "$name") differs from $(norm petsc)"; exit 1; }
done
