#!/usr/bin/env bash
# Matrices end to end (PETSc; skipped, saying so, when pkg-config finds no
# PETSc):
#   - tests/golden/cases/ok_mat_facts.c (a matrix through a struct and a
#     parameter, LOOM_MAT_FACTS), run on seq, openmp and mpi at 1-3 ranks;
#   - tests/golden/cases/ok_mat_write.c (a loop writing element matrices,
#     mode write: every entry checked against plain C), run on seq,
#     renumbered, openmp 1-3 threads, mpi 1-4 ranks (METIS) and 3 ranks
#     (Scotch, PT-Scotch, block), mpi+openmp 2x2;
#   - tests/e2e/inputs/mat_checks.c through loomc for seq and openmp (1, 2
#     and 3 threads), and seq with LOOM_RENUMBER=1: PyOP2's mass matrix
#     entry by entry and M x = M f giving f, the Laplace patch test giving
#     u = 1 + y (the program checks, this script reads its verdicts);
#   - samples/poisson (P1, -laplace(u) + u = f, CG with GAMG): on 16, 32, 64
#     and 128 meshes, the L2 rates in [1.9, 2.1] and the H1 rates in
#     [0.9, 1.1], natural and Dirichlet conditions; openmp at 1-3 threads
#     and LOOM_RENUMBER=1 print the same errors as seq (the matrix is
#     assembled in element order whatever the target);
#   - poisson_mpi (when built), one mesh per run (16 to 128) at 1-4 ranks
#     with METIS and at 3 ranks with Scotch, PT-Scotch and block
#     partitions, and poisson_mpi_openmp at 2 ranks x 2 threads: the
#     matrix's norm within 1e-12 of seq's and the errors
#     within 1e-6 (relative), natural and Dirichlet conditions;
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
# mat_modular and mat_write: the golden cases ok_mat_facts and ok_mat_write, run
for src in mat_checks mat_modular mat_write; do
  path=$root/tests/e2e/inputs/$src.c
  [ $src = mat_modular ] && path=$root/tests/golden/cases/ok_mat_facts.c
  [ $src = mat_write ] && path=$root/tests/golden/cases/ok_mat_write.c
  for t in seq openmp; do
    "$root/build/bin/loomc" --target=$t "$path" -o "$tmp/$src.$t.c" ||
      fail "loomc --target=$t $src.c failed"
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -I"$root/runtime/include" \
      $([ $t = openmp ] && echo -fopenmp) -o "$tmp/$src.$t" "$tmp/$src.$t.c" \
      "$root/build/lib/libloom_petsc.a" "$root/build/lib/libloom.a" \
      $(pkg-config --libs petsc mpi-c) -lm ||
      fail "the $t build of $src.c failed"
  done
done
cp "$tmp/mat_checks.seq" "$tmp/mc_seq"
cp "$tmp/mat_checks.openmp" "$tmp/mc_openmp"
# a matrix through a struct and a parameter (LOOM_MAT_FACTS)
"$tmp/mat_modular.seq" >"$tmp/mod.out" 2>&1 && grep -q ": ok$" "$tmp/mod.out" ||
  { cat "$tmp/mod.out"; fail "mat_modular (seq)"; }
OMP_NUM_THREADS=2 "$tmp/mat_modular.openmp" >"$tmp/mod.out" 2>&1 && grep -q ": ok$" "$tmp/mod.out" ||
  { cat "$tmp/mod.out"; fail "mat_modular (openmp)"; }
# a loop writing element matrices (mode write): every entry checked
for run in "seq" "renumbered LOOM_RENUMBER=1" "omp1 OMP_NUM_THREADS=1" "omp2 OMP_NUM_THREADS=2" \
  "omp3 OMP_NUM_THREADS=3"; do
  set -- $run
  prog=$tmp/mat_write.seq
  case $1 in omp*) prog=$tmp/mat_write.openmp ;; esac
  env ${2:-} "$prog" >"$tmp/w.out" 2>&1 && grep -q ": ok$" "$tmp/w.out" ||
    { cat "$tmp/w.out"; fail "mat_write ($1)"; }
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

# ---- MPI: one mesh per run, at 1-4 ranks, every partitioner at 3 ------------------
mpi_ok=""
if [ -x "$bin/poisson_mpi" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for bc in natural dirichlet; do
    opt=$([ $bc = dirichlet ] && echo -d)
    for run in 1:metis 2:metis 3:metis 4:metis 3:scotch 3:ptscotch 3:block 2:metis:omp; do
      np=${run%%:*} part=${run#*:} prog=$bin/poisson_mpi
      case $part in *:omp) part=${part%:omp} prog=$bin/poisson_mpi_openmp ;; esac
      : >"$tmp/$bc.mpi"
      for n in 16 32 64 128; do
        OMP_NUM_THREADS=2 LOOM_PARTITIONER=$part timeout 120 mpirun --oversubscribe \
          --bind-to none --mca btl self,vader --mca pml ob1 -x LOOM_PARTITIONER \
          -x OMP_NUM_THREADS -np $np "$prog" $opt $n 1 $KSP >"$tmp/one" 2>"$tmp/one.err" ||
          { cat "$tmp/one" "$tmp/one.err"; fail "poisson_mpi $opt $n at $np ranks ($part) failed"; }
        tail -n 1 "$tmp/one" >>"$tmp/$bc.mpi"
      done
      # the same matrices (norm, 1e-12) and errors (1e-6) as seq, level by level
      awk 'NR == FNR { if ($1 ~ /^[0-9]+$/) { nm[$1] = $2; l2[$1] = $3; h1[$1] = $4 }; next }
           function rel(a, b) { d = a - b; if (d < 0) d = -d; return d / (b < 0 ? -b : b) }
           { n++; if (!($1 in nm) || rel($2, nm[$1]) > 1e-12 || rel($3, l2[$1]) > 1e-6 ||
                      rel($4, h1[$1]) > 1e-6) bad++ }
           END { exit !(n == 4 && !bad) }' "$tmp/$bc.out" "$tmp/$bc.mpi" ||
        { cat "$tmp/$bc.out" "$tmp/$bc.mpi"; fail "$bc: mpi at $np ranks ($part) differs from seq"; }
    done
  done
  for case in facts write; do
    for t in mpi mpi+openmp; do
      "$root/build/bin/loomc" --target=$t "$root/tests/golden/cases/ok_mat_$case.c" \
        -o "$tmp/m${case}_$t.c" &&
        mpicc -std=c11 -Wall -Wextra -Werror -O2 -I"$root/runtime/include" \
          $([ $t = mpi+openmp ] && echo -fopenmp) -o "$tmp/m${case}_$t" "$tmp/m${case}_$t.c" \
          "$root/build/lib/libloom_mpi_petsc.a" "$root/build/lib/libloom_mpi.a" \
          -lmetis -lptscotch -lscotch -lptscotcherr \
          $(pkg-config --libs petsc mpi-c) -lm || fail "the $t build of ok_mat_$case.c failed"
    done
  done
  # ok_mat_facts at 1-3 ranks; ok_mat_write (every entry checked on every
  # rank) at 1-4 ranks with METIS, 3 with the others, 2 ranks x 2 threads
  for run in facts:1:metis facts:2:metis facts:3:metis write:1:metis write:2:metis \
    write:3:metis write:4:metis write:3:scotch write:3:ptscotch write:3:block write:2:metis:omp; do
    IFS=: read -r case np part omp <<<"$run"
    prog=$tmp/m${case}_mpi
    [ -n "$omp" ] && prog=$tmp/m${case}_mpi+openmp
    OMP_NUM_THREADS=2 LOOM_PARTITIONER=$part timeout 120 mpirun --oversubscribe --bind-to none \
      --mca btl self,vader --mca pml ob1 -x LOOM_PARTITIONER -x OMP_NUM_THREADS -np $np \
      "$prog" >"$tmp/mod.out" 2>&1 && grep -q ": ok$" "$tmp/mod.out" && ! grep -q FAIL "$tmp/mod.out" ||
      { cat "$tmp/mod.out"; fail "ok_mat_$case at $np ranks ($part${omp:+, 2 threads})"; }
  done
  mpi_ok=", mpi 1-4 ranks (metis) and 3 ranks (scotch, ptscotch, block), mpi+openmp 2x2 matching seq"
fi

"$bin/poisson_seq" --help >"$tmp/help" 2>&1 && grep -q "^usage: .*poisson_seq \[-d\] \[N \[LEVELS\]\]" "$tmp/help" ||
  fail "--help"
"$bin/poisson_seq" 0 >/dev/null 2>"$tmp/bad"
[ $? -eq 2 ] && grep -q "N must be an integer from 1 to 2048, not '0'" "$tmp/bad" || fail "a bad size was not refused with status 2"
echo "poisson: mass matrix, M x = M f, patch test, write mode (seq, openmp 1-3 threads, renumbered);" \
  "L2 rates $(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { printf "%s ", $5 }' "$tmp/natural.out")" \
  "(natural) and $(awk 'NF == 6 && $1 ~ /^[0-9]+$/ { printf "%s ", $5 }' "$tmp/dirichlet.out")" \
  "(Dirichlet), openmp alike$mpi_ok: PASS"
