#!/usr/bin/env bash
# The multi-file Airfoil (samples/airfoil-modular/: handles in a struct,
# loops in functions taking `airfoil_mesh *m`) end to end, on every target.
#
#   tests/e2e/airfoil_modular.sh small  generated 40x60 mesh, 300 iterations:
#                                       seq's rms lines and final q
#                                       bit-identical to the hand-written
#                                       airfoil_ref; openmp (2 threads, plans
#                                       checked), mpi (2 ranks) and
#                                       mpi+openmp (2 ranks x 2 threads):
#                                       seq's rms lines, q close to seq's
#   tests/e2e/airfoil_modular.sh ref    the reference mesh (generated,
#                                       720,000 cells), 1000 iterations:
#                                       OP2's published rms table exactly
#                                       for seq, openmp (2 threads), mpi
#                                       (2 ranks) and mpi+openmp (2 x 2);
#                                       q close to seq's
#   tests/e2e/airfoil_modular.sh ref-mpi  the same for seq and mpi (2 ranks)
#                                       only: what make test runs
#
# q close: within 1e-10 (openmp) or 1e-12 (mpi, mpi+openmp) of seq's,
# relative (qdiff), as tests/e2e/airfoil.sh and mpi.sh require of the
# single-file sample.  The MPI builds are required when mpicc and mpirun
# exist (mk/modular.mk builds them then), skipped otherwise.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/airfoil-modular
air=$root/build/samples/airfoil
qdiff=$root/build/tests/qdiff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mode=${1:-small}
fail() { echo "FAIL airfoil_modular ($mode): $*"; exit 1; }

for p in "$bin/airfoil_modular_seq" "$bin/airfoil_modular_openmp" "$air/naca0012" \
         "$air/airfoil_ref" "$qdiff"; do
  [ -x "$p" ] || fail "$p not built (make)"
done
with_mpi=0
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  with_mpi=1
  for p in "$bin/airfoil_modular_mpi" "$bin/airfoil_modular_mpi_openmp"; do
    [ -x "$p" ] || fail "$p not built (make)"
  done
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# OpenMPI's own allocations are not ours to check (SANITIZE=1 builds).
mpi_asan="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
# mpi SECONDS NP THREADS PROG ARGS...: under mpirun as tests/e2e/mpi.sh runs
# its programs, OMP_NUM_THREADS=THREADS in every rank.  OpenMP threads wait
# passively (unless OMP_WAIT_POLICY says otherwise): with more threads than
# cores (2 ranks x 2 threads on a 2-core machine) spinning threads take the
# cores from the ones with work: 90 s instead of 0.15 s for 300 iterations
# on the 40x60 mesh, for this program and for the single-file
# airfoil_mpi_openmp alike.
mpi() {
  local secs=$1 np=$2 threads=$3
  shift 3
  ASAN_OPTIONS=$mpi_asan timeout "$secs" mpirun --oversubscribe --bind-to none \
    --mca btl self,vader --mca pml ob1 -x OMP_NUM_THREADS="$threads" \
    -x OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}" -np "$np" "$@"
}
# the largest relative difference qdiff printed
maxdiff() { sed -n 's/.*max relative difference \([^ ]*\).*/\1/p' <<<"$1"; }

# run NAME PROG... MESH ITERS: PROG MESH ITERS $tmp/q_NAME.bin, output in
# $tmp/NAME.out (stdout) and NAME.err
run() {
  local name=$1
  shift
  "$@" "$tmp/q_$name.bin" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
    { tail -n 20 "$tmp/$name.err"; fail "$name failed"; }
  [ -s "$tmp/q_$name.bin" ] || fail "$name wrote no q"
}

# the other targets against seq: rms lines equal to EXPECTED, q close to seq's
# others MESH ITERS EXPECTED SECONDS
others() {
  local mesh=$1 iters=$2 expected=$3 secs=$4 name d
  OMP_NUM_THREADS=2 LOOM_CHECK_PLANS=1 run openmp timeout "$secs" "$bin/airfoil_modular_openmp" "$mesh" "$iters"
  diff -u "$expected" "$tmp/openmp.out" || fail "openmp (2 threads): rms lines differ"
  d=$("$qdiff" "$tmp/q_seq.bin" "$tmp/q_openmp.bin" 1e-10) || fail "openmp (2 threads) q far from seq: $d"
  note="openmp 2 threads (q within $(maxdiff "$d") of seq's)"
  [ "$with_mpi" = 1 ] || { note="$note; mpi: skipped (no mpicc or mpirun)"; return; }
  run mpi mpi "$secs" 2 1 "$bin/airfoil_modular_mpi" "$mesh" "$iters"
  run mpi_openmp mpi "$secs" 2 2 "$bin/airfoil_modular_mpi_openmp" "$mesh" "$iters"
  for name in mpi mpi_openmp; do
    diff -u "$expected" "$tmp/$name.out" || fail "$name (2 ranks): rms lines differ"
    d=$("$qdiff" "$tmp/q_seq.bin" "$tmp/q_$name.bin" 1e-12) || fail "$name (2 ranks) q not within 1e-12 of seq: $d"
    note="$note, $name 2 ranks$([ $name = mpi_openmp ] && echo ' x 2 threads') (q within $(maxdiff "$d") of seq's)"
  done
}

case $mode in
small)
  "$air/naca0012" -I 40 -J 60 "$tmp/mesh.dat" >/dev/null || fail "mesh generation"
  run ref "$air/airfoil_ref" "$tmp/mesh.dat" 300
  run seq "$bin/airfoil_modular_seq" "$tmp/mesh.dat" 300
  [ "$(wc -l <"$tmp/seq.out")" -eq 3 ] || fail "expected 3 rms lines"
  diff -u "$tmp/ref.out" "$tmp/seq.out" || fail "rms lines differ between airfoil_ref and seq"
  cmp "$tmp/q_ref.bin" "$tmp/q_seq.bin" || fail "final q differs between airfoil_ref and seq"
  others "$tmp/mesh.dat" 300 "$tmp/seq.out" 120
  echo "airfoil_modular small: PASS (seq: rms lines and q bit-identical to airfoil_ref; rms lines as seq's for $note)"
  ;;
ref | ref-mpi)
  mesh=$air/new_grid.dat
  [ -f "$mesh" ] || "$air/naca0012" -I 400 -J 600 "$mesh" || fail "mesh generation"
  # OP2's published rms table (../shared/data/airfoil/README.md)
  cp "$root/tests/e2e/op2_airfoil_rms.txt" "$tmp/expected"
  run seq "$bin/airfoil_modular_seq" "$mesh" 1000
  diff -u "$tmp/expected" "$tmp/seq.out" || fail "seq: rms table differs from OP2's"
  if [ "$mode" = ref-mpi ]; then # make test: the declarations of one file, the loops of another, at 2 ranks
    [ "$with_mpi" = 1 ] || { echo "airfoil_modular ref-mpi: PASS (seq; mpi skipped: no mpicc or mpirun)"; exit 0; }
    run mpi mpi 3600 2 1 "$bin/airfoil_modular_mpi" "$mesh" 1000
    diff -u "$tmp/expected" "$tmp/mpi.out" || fail "mpi (2 ranks): rms table differs from OP2's"
    d=$("$qdiff" "$tmp/q_seq.bin" "$tmp/q_mpi.bin" 1e-12) || fail "mpi (2 ranks) q not within 1e-12 of seq: $d"
    echo "airfoil_modular ref-mpi: PASS (OP2's rms table exact for seq and mpi 2 ranks, q within $(maxdiff "$d") of seq's)"
    exit 0
  fi
  others "$mesh" 1000 "$tmp/expected" 3600
  echo "airfoil_modular ref: PASS (OP2's rms table exact for seq, $note)"
  ;;
*) echo "usage: $0 small|ref|ref-mpi" >&2; exit 2 ;;
esac
