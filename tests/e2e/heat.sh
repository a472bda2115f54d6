#!/usr/bin/env bash
# The heat-equation sample, samples/heat (PETSc; skipped, saying so, when
# pkg-config finds no PETSc): backward Euler with P1 elements, the
# right-hand side M u^n by loom_mat_mult, the norm |u_h|_M through the
# dats' PETSc Vec views (loom_dat_vec), CG with GAMG at rtol 1e-12:
#   - heat_seq on the 8, 16, 32 and 64 meshes (dt <= h^2 / 4): the three
#     L2 rates in [1.85, 2.15];
#   - heat_openmp at 2 threads prints the same table as seq (the matrices
#     are assembled in element order whatever the target);
#   - heat_mpi at 1, 2 and 3 ranks (METIS) and heat_mpi_openmp at 2 ranks x
#     2 threads, on the 16 mesh (one mesh per run): the L2 error and the
#     norm within 1e-10 (relative) of seq's;
#   - its --help exits 0, a bad size exits 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/heat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL heat: $*"; exit 1; }
export OMP_WAIT_POLICY=passive
# PETSc starts MPI, whose allocations are not ours to check (SANITIZE=1
# builds; the unit tests check the runtime's matrices for leaks).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
if ! pkg-config --exists petsc mpi-c; then
  echo "heat: PETSc not found (pkg-config petsc): skipped (make deps installs petsc-dev)"
  exit 0
fi
for p in heat_seq heat_openmp; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make heat)"
done
KSP="-ksp_type cg -pc_type gamg -ksp_rtol 1e-12"

# ---- convergence: the L2 rates --------------------------------------------------
"$bin/heat_seq" 8 4 $KSP >"$tmp/seq" 2>"$tmp/seq.err" || { cat "$tmp/seq.err"; fail "heat_seq failed"; }
awk 'NF == 6 && $1 ~ /^[0-9]+$/ { n++; if ($5 < 1.85 || $5 > 2.15) bad++ }
     END { exit !(n == 3 && !bad) }' "$tmp/seq" || { cat "$tmp/seq"; fail "L2 rates out of range"; }

# ---- every target: the same results ------------------------------------------------
OMP_NUM_THREADS=2 "$bin/heat_openmp" 8 4 $KSP >"$tmp/omp" 2>&1 || { cat "$tmp/omp"; fail "heat_openmp failed"; }
diff -u "$tmp/seq" "$tmp/omp" || fail "openmp (2 threads) differs from seq"

mpi_ok=""
if [ -x "$bin/heat_mpi" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for run in 1 2 3 2:omp; do
    np=${run%%:*} prog=$bin/heat_mpi
    [ "$run" = 2:omp ] && prog=$bin/heat_mpi_openmp
    OMP_NUM_THREADS=2 LOOM_PARTITIONER=metis timeout 120 mpirun --oversubscribe --bind-to none \
      --mca btl self,vader --mca pml ob1 -x LOOM_PARTITIONER -x OMP_NUM_THREADS -np "$np" \
      "$prog" 16 1 $KSP >"$tmp/mpi" 2>"$tmp/mpi.err" ||
      { cat "$tmp/mpi" "$tmp/mpi.err"; fail "$(basename "$prog") at $np ranks failed"; }
    # the 16 mesh's L2 error ($4) and norm (the last field) against seq's
    awk 'function rel(a, b) { d = a - b; if (d < 0) d = -d; return d / (b < 0 ? -b : b) }
         NR == FNR { if ($1 == 16) { e = $4; nm = $NF }; next }
         $1 == 16 { n++; if (rel($4, e) > 1e-10 || rel($NF, nm) > 1e-10) bad++ }
         END { exit !(n == 1 && e != "" && !bad) }' "$tmp/seq" "$tmp/mpi" ||
      { cat "$tmp/seq" "$tmp/mpi"; fail "$(basename "$prog") at $np ranks differs from seq"; }
  done
  mpi_ok=", mpi 1-3 ranks and mpi+openmp 2x2 within 1e-10 of seq"
fi

"$bin/heat_seq" --help >"$tmp/help" 2>&1 && grep -q "^usage: .*heat_seq \[N \[LEVELS\]\]" "$tmp/help" ||
  fail "--help"
"$bin/heat_seq" 0 >/dev/null 2>"$tmp/bad"
[ $? -eq 2 ] && grep -q "N must be an integer from 1 to 512, not '0'" "$tmp/bad" ||
  fail "a bad size was not refused with status 2"
echo "heat: L2 rates $(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { printf "%s ", $5 }' "$tmp/seq")" \
  "(8 to 64), openmp alike$mpi_ok: PASS"
