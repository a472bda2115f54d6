#!/usr/bin/env bash
# The --target=mpi builds of Airfoil and wave under mpirun, against their
# seq builds, on small meshes:
#   - at 1, 2, 3 and 4 ranks (--oversubscribe), with each partitioner
#     (LOOM_PARTITIONER=metis, scotch, ptscotch, block):
#       - the printed rms / norm lines equal seq's (rank 0 prints them),
#       - the final state written by rank 0 (gathered in the declared
#         numbering) is within 1e-12 relative of seq's (qdiff, per value);
#   - at 1 rank the state is bit-identical to seq;
#   - Scotch and PT-Scotch partition the same on a second run;
#   - the --target=mpi+openmp builds the same way, at 1-3 ranks x 1-3
#     threads (OMP_NUM_THREADS);
#   - every halo exchange was begun by a send the region's schedule placed
#     (LOOM_DIAG=1: "0 without a scheduled begin" on every rank).
#   tests/e2e/mpi.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
air=$root/build/samples/airfoil wave=$root/build/samples/wave
qdiff=$root/build/tests/qdiff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL mpi: $*"; exit 1; }

command -v mpirun >/dev/null || fail "mpirun not found (make deps)"
for p in "$air/airfoil_mpi" "$air/airfoil_seq" "$air/naca0012" "$wave/wave_mpi" \
         "$wave/wave_seq" "$wave/wave_mesh" "$qdiff" "$air/airfoil_mpi_openmp" \
         "$wave/wave_mpi_openmp"; do
  [ -x "$p" ] || fail "$p not built (make)"
done

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# OpenMPI's own allocations are not ours to check (SANITIZE=1 builds).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
# what the ranks printed, without mpirun's own framed notice (the cause
# is in the ranks' lines: a runtime error, a sanitizer report)
ranks_said() { awk '/^--------------------/ { inside = !inside; next } !inside' "$1" | tail -n 40; }
mpi() { # NP PROG ARGS...
  local np=$1
  shift
  timeout 120 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 \
    -np "$np" "$@"
}

# check NAME SEQ_OUT SEQ_STATE NP PARTITIONER PROG ARGS... (the state path last)
check() {
  local name=$1 seq_out=$2 seq_state=$3 np=$4 part=$5
  shift 5
  local out=$tmp/$name.$np.$part
  LOOM_DIAG=1 LOOM_PARTITIONER=$part mpi "$np" "$@" "$out.state" >"$out.out" 2>"$out.err" ||
    { ranks_said "$out.err"; fail "$name at $np ranks ($part) failed"; }
  # every exchange began where the region's schedule placed its send
  if [ "$np" -gt 1 ]; then
    [ "$(grep -c 'halo: [0-9]* exchanges (0 without a scheduled begin)' "$out.err")" = "$np" ] ||
      { grep 'halo:' "$out.err"; fail "$name at $np ranks ($part): exchanges without a scheduled begin"; }
  fi
  # LOOM_DIAG=1 writes only to stderr: the output compares as it is
  diff -q "$seq_out" "$out.out" >/dev/null ||
    { diff "$seq_out" "$out.out" | head -5; fail "$name at $np ranks ($part): printed lines differ from seq"; }
  local d
  d=$("$qdiff" "$seq_state" "$out.state" 2>&1 | tail -n 1)
  awk -v line="$d" 'BEGIN { n = split(line, w, " "); for (i = 1; i <= n; i++)
      if (w[i] == "difference") { exit !(w[i + 1] + 0 <= 1e-12) } exit 1 }' ||
    fail "$name at $np ranks ($part): $d"
  if [ "$np" = 1 ]; then
    cmp -s "$seq_state" "$out.state" || fail "$name at 1 rank ($part): state differs from seq"
  fi
}

"$air/naca0012" -I 30 -J 40 "$tmp/air.dat" >/dev/null || fail "naca0012 failed"
"$air/airfoil_seq" "$tmp/air.dat" 200 "$tmp/air_seq.state" >"$tmp/air_seq.out" 2>/dev/null ||
  fail "airfoil_seq failed"
"$wave/wave_mesh" -n 16 "$tmp/wave.dat" || fail "wave_mesh failed"
"$wave/wave_seq" "$tmp/wave.dat" 300 "$tmp/wave_seq.state" >"$tmp/wave_seq.out" 2>/dev/null ||
  fail "wave_seq failed"

summary=""
for np in 1 2 3 4; do
  for part in metis scotch ptscotch block; do
    check airfoil "$tmp/air_seq.out" "$tmp/air_seq.state" $np $part \
      "$air/airfoil_mpi" "$tmp/air.dat" 200
    check wave "$tmp/wave_seq.out" "$tmp/wave_seq.state" $np $part \
      "$wave/wave_mpi" "$tmp/wave.dat" 300
    summary="$summary $np/$part"
  done
done
# wave: x is never written in the time loop, so its exchange is hoisted out
# of it (begun once per run on every rank); phi's is begun every step
for np in 2 3; do
  err=$tmp/wave.$np.metis.err
  [ "$(grep -c "halo of dat 'x': 1 begun" "$err")" = "$np" ] &&
    [ "$(grep -c "halo of dat 'phi': 300 begun" "$err")" = "$np" ] ||
    { grep "halo of dat" "$err"; fail "wave at $np ranks: x's exchange not hoisted out of the time loop"; }
done
# Scotch and PT-Scotch (distributed) are deterministic: a second run at 3
# ranks partitions the same (the LOOM_DIAG partition lines, edge cut and
# section sizes, equal; the time is cut off)
parts() { grep '^loom: partition:' "$1" | sed 's/, [0-9.]* ms$//'; }
for part in scotch ptscotch; do
  check airfoil_again "$tmp/air_seq.out" "$tmp/air_seq.state" 3 $part \
    "$air/airfoil_mpi" "$tmp/air.dat" 200
  [ -n "$(parts "$tmp/airfoil.3.$part.err")" ] &&
    diff <(parts "$tmp/airfoil.3.$part.err") <(parts "$tmp/airfoil_again.3.$part.err") ||
    fail "$part gave another partition on a second run at 3 ranks"
done
# mpi+openmp: ranks of threads, on range plans (the same checks; every
# plan built is checked exhaustively, LOOM_CHECK_PLANS=1)
threaded=""
for np in 1 2 3; do
  for t in 1 2 3; do
    LOOM_CHECK_PLANS=1 OMP_NUM_THREADS=$t \
      check airfoil_omp$t "$tmp/air_seq.out" "$tmp/air_seq.state" $np metis \
      "$air/airfoil_mpi_openmp" "$tmp/air.dat" 200
    LOOM_CHECK_PLANS=1 OMP_NUM_THREADS=$t \
      check wave_omp$t "$tmp/wave_seq.out" "$tmp/wave_seq.state" $np metis \
      "$wave/wave_mpi_openmp" "$tmp/wave.dat" 300
    threaded="$threaded ${np}x$t"
  done
done
# idx is the declared element number on every rank; a loop incrementing
# through a map and reducing counts each element once (mpi and mpi+openmp)
san=""
[ "${LOOM_E2E_SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined"
for target in mpi mpi+openmp; do
  "$root/build/bin/loomc" --target=$target "$root/tests/e2e/inputs/mpi_idx.c" -o "$tmp/idx.c" ||
    fail "loomc --target=$target mpi_idx.c failed"
  mpicc $san -std=c11 -fopenmp -Wall -Werror -I"$root/runtime/include" "$tmp/idx.c" \
    -o "$tmp/idx" "$root/build/lib/libloom_mpi.a" -lmetis -lptscotch -lscotch -lptscotcherr -lm ||
    fail "mpi_idx ($target) does not build"
  for np in 1 3 4; do
    [ "$(OMP_NUM_THREADS=2 mpi $np "$tmp/idx" 2>&1)" = OK ] ||
      fail "mpi_idx ($target) at $np ranks: idx or the reduction over the executed halo is wrong"
  done
done

# Code generated for mpi linked with the serial libloom: the linker warns,
# and under mpirun with 2 processes the first loop fails (its name and line
# first) naming libloom_mpi
# (not two unpartitioned copies).
cc -std=c11 -I"$root/runtime/include" -I"$root/samples/airfoil" "$air/airfoil_mpi.c" \
  -o "$tmp/air_serial" "$root/build/lib/libloom.a" -lm >"$tmp/serial.log" 2>&1 ||
  { cat "$tmp/serial.log"; fail "airfoil_mpi.c does not link with libloom.a"; }
grep -q "warning: code generated by loomc --target=mpi (or mpi+openmp) is linked with the serial libloom: link libloom_mpi" \
  "$tmp/serial.log" || { cat "$tmp/serial.log"; fail "no linker warning for mpi code on the serial libloom"; }
if mpi 2 "$tmp/air_serial" "$tmp/air.dat" 2 >"$tmp/serial.out" 2>&1; then
  fail "mpi code on the serial libloom ran at 2 processes"
fi
grep -q "loom: error: save_soln at .*airfoil.c:[0-9]*: code generated for --target=mpi runs on the serial libloom in each of 2 processes" \
  "$tmp/serial.out" || { ranks_said "$tmp/serial.out"; fail "mpi code on the serial libloom: no error"; }

echo "mpi: PASS (mpi code on the serial libloom: link warning, error at 2 processes; mpi_idx: idx = declared number, reductions in loops running the executed halo, mpi and mpi+openmp at 1, 3, 4 ranks; airfoil 30x40 200 iterations and wave N=16 300 steps at ranks/partitioner:$summary; mpi+openmp (metis) at ranks x threads:$threaded; printed lines equal to seq, state within 1e-12, bit-identical at 1 rank; Scotch's and PT-Scotch's partitions the same on a second run)"
