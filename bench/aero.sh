#!/usr/bin/env bash
# bench/aero.sh — OP2's aero on its default mesh (720,000 cells, made by
# naca_fem), each program once, in one run:
#   - OP2's own check (rms within 0.02% of 5.644214176463586e-7 after 20
#     iterations) for aero_ref, aero_seq, aero_openmp (2 threads), aero_mpi
#     (2 ranks) and aero_mpi_openmp (1 rank x 2 threads), when built;
#   - each program's main-loop time against aero_ref's (below 1: faster);
#   - per loop (LOOM_DIAG), spMV and res_calc in aero_seq against aero_wide
#     (loomc --no-narrow: the element matrices stored whole) and aero_novec
#     (loomc --no-vectorize): what each transformation gains.
#
#   bench/aero.sh BINDIR [ITERS]   (default 20; OP2's check needs 20)
set -euo pipefail
bin=$1 iters=${2:-20}
mesh=$bin/FE_grid.dat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -s "$mesh" ] || "$bin/naca_fem" "$mesh"
export OMP_WAIT_POLICY=passive
mpi() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 "$@"
}

# one NAME COMMAND...: runs it with LOOM_DIAG=1; NAME.out, NAME.err
one() {
  local name=$1
  shift
  LOOM_DIAG=1 "$@" "$mesh" "$iters" >"$work/$name.out" 2>"$work/$name.err" ||
    { cat "$work/$name.err" >&2; echo "bench/aero: $name failed (see above)" >&2; return 1; }
}
seconds() { sed -n 's/.*main loop wall time \([0-9.]*\) s$/\1/p' "$work/$1.err" | head -n 1; }
loop_s() { awk -v k="$2" '$1 == k && $2 == "at" { print $5; exit }' "$work/$1.err"; }
verdict() { sed -n 's/^This test is considered \(.*\)$/\1/p' "$work/$1.out"; }

progs="ref seq wide novec"
one ref "$bin/aero_ref"
one seq "$bin/aero_seq"
one wide "$bin/aero_wide"
one novec "$bin/aero_novec"
one omp env OMP_NUM_THREADS=2 "$bin/aero_openmp" && progs="$progs omp"
if [ -x "$bin/aero_mpi" ] && command -v mpirun >/dev/null; then
  one mpi mpi -np 2 "$bin/aero_mpi" && progs="$progs mpi"
  one mpiomp mpi -np 1 env OMP_NUM_THREADS=2 "$bin/aero_mpi_openmp" && progs="$progs mpiomp"
fi

base=$(seconds ref)
echo "aero, $(awk 'NR == 1 { print $2 }' "$mesh") cells, $iters iterations (OP2's check needs 20):"
printf '  %-8s %10s %9s  %s\n' program main_s vs_ref "OP2's check"
for p in $progs; do
  s=$(seconds $p)
  printf '  %-8s %10.3f %9.3f  %s\n' "$p" "$s" "$(awk -v a="$s" -v b="$base" 'BEGIN { print a / b }')" \
    "$(verdict $p)"
done
for k in spMV res_calc; do
  for base in wide novec; do
    v=$(loop_s seq $k) s=$(loop_s $base $k)
    flag=$([ $base = wide ] && echo --no-narrow || echo --no-vectorize)
    echo "  $k: seq $v s, $flag $s s: RATIO $(awk -v a="$v" -v b="$s" 'BEGIN { printf "%.3f", a / b }')"
  done
done
