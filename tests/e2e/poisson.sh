#!/usr/bin/env bash
# Matrices end to end (PETSc; skipped, saying so, when pkg-config finds no
# PETSc):
#   - tests/e2e/inputs/mat_checks.c through loomc for seq and openmp (1, 2
#     and 3 threads), and seq with LOOM_RENUMBER=1: PyOP2's mass matrix
#     entry by entry and M x = M f giving f, the Laplace patch test giving
#     u = 1 + y (the program checks, this script reads its verdicts);
#   - samples/poisson (P1, -laplace(u) + u = f, CG with GAMG): on 16, 32, 64
#     and 128 meshes, the L2 rates in [1.9, 2.1] and the H1 rates in
#     [0.9, 1.1], natural and Dirichlet conditions; openmp at 1-3 threads
#     and LOOM_RENUMBER=1 print the same errors as seq (the matrix is
#     assembled in element order whatever the target);
#   - its --help exits 0, a bad size exits 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/poisson
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL poisson: $*"; exit 1; }
export OMP_WAIT_POLICY=passive
# PETSc starts MPI, whose allocations are not ours to check (SANITIZE=1
# builds; the unit tests check the runtime's matrices for leaks).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
if ! pkg-config --exists petsc mpi-c; then
  echo "poisson: PETSc not found (pkg-config petsc): skipped (make deps installs petsc-dev)"
  exit 0
fi
for p in poisson_seq poisson_openmp; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make poisson)"
done
KSP="-ksp_type cg -pc_type gamg -ksp_rtol 1e-12"

# ---- the hand-checked matrices ---------------------------------------------------
src=$root/tests/e2e/inputs/mat_checks.c
for t in seq openmp; do
  "$root/build/bin/loomc" --target=$t "$src" -o "$tmp/mc_$t.c" || fail "loomc --target=$t failed"
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -I"$root/runtime/include" \
    $([ $t = openmp ] && echo -fopenmp) -o "$tmp/mc_$t" "$tmp/mc_$t.c" \
    "$root/build/lib/libloom.a" $(pkg-config --libs petsc mpi-c) -lm ||
    fail "the $t build of mat_checks.c failed"
done
checks() { # NAME CMD...
  local name=$1
  shift
  "$@" $KSP >"$tmp/$name.out" 2>"$tmp/$name.err" || { cat "$tmp/$name.out" "$tmp/$name.err"; fail "mat_checks $name failed"; }
  [ "$(grep -c ': ok$' "$tmp/$name.out")" -eq 3 ] || { cat "$tmp/$name.out"; fail "mat_checks $name: not 3 checks ok"; }
}
checks seq "$tmp/mc_seq"
checks renumbered env LOOM_RENUMBER=1 "$tmp/mc_seq"
for t in 1 2 3; do
  checks omp$t env OMP_NUM_THREADS=$t "$tmp/mc_openmp"
done

# ---- the sample: convergence rates --------------------------------------------------
rates() { # OUT: every rate line's L2 rate in [1.9, 2.1] and H1 rate in [0.9, 1.1]
  awk 'NF == 6 && $1 ~ /^[0-9]+$/ { n++; if ($5 < 1.9 || $5 > 2.1 || $6 < 0.9 || $6 > 1.1) bad++ }
       END { exit !(n == 3 && !bad) }' "$1"
}
for bc in natural dirichlet; do
  opt=$([ $bc = dirichlet ] && echo -d)
  "$bin/poisson_seq" $opt 16 4 $KSP >"$tmp/$bc.out" 2>"$tmp/$bc.err" ||
    { cat "$tmp/$bc.err"; fail "poisson_seq $opt failed"; }
  rates "$tmp/$bc.out" || { cat "$tmp/$bc.out"; fail "$bc: rates out of range"; }
  for t in 1 2 3; do
    OMP_NUM_THREADS=$t "$bin/poisson_openmp" $opt 16 4 $KSP >"$tmp/$bc.omp$t" 2>&1 ||
      fail "poisson_openmp $opt ($t threads) failed"
    diff -u "$tmp/$bc.out" "$tmp/$bc.omp$t" || fail "$bc: openmp ($t threads) differs from seq"
  done
  LOOM_RENUMBER=1 "$bin/poisson_seq" $opt 16 4 $KSP >"$tmp/$bc.ren" 2>&1 || fail "renumbered run failed"
  diff -u "$tmp/$bc.out" "$tmp/$bc.ren" || fail "$bc: LOOM_RENUMBER=1 differs from seq"
done

"$bin/poisson_seq" --help >"$tmp/help" 2>&1 && grep -q "^usage: .*poisson_seq \[-d\] \[N \[LEVELS\]\]" "$tmp/help" ||
  fail "--help"
"$bin/poisson_seq" 0 >/dev/null 2>"$tmp/bad"
[ $? -eq 2 ] && grep -q "N must be an integer from 1 to 2048, not '0'" "$tmp/bad" || fail "a bad size was not refused with status 2"
echo "poisson: mass matrix, M x = M f, patch test (seq, openmp 1-3 threads, renumbered);" \
  "L2 rates $(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { printf "%s ", $5 }' "$tmp/natural.out")" \
  "(natural) and $(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { printf "%s ", $5 }' "$tmp/dirichlet.out")" \
  "(Dirichlet), every target alike: PASS"
