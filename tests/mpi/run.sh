#!/bin/sh
# MPI tests of libloom_mpi (make mpi-test): tests/unit/runtime/test_mpi.c at
# 1, 2, 3 and 4 ranks with each partitioner, $LOOM_PARTITIONER overriding the
# method, failing ranks that must end the whole job (no hang) with a
# message naming the rank and the cause, and, with a user handler that
# returns, a failing rank that must not leave the others waiting; meshes
# declared from slices; an HDF5 round trip and its errors; with a second
# program, matrices (tests/mpi/test_mat_mpi.c) at 1-4 ranks with each
# partitioner, renumbered, on the distributed path and with OpenMP threads;
# collective calls made by some ranks only (--skip-fetch, --absent), their
# messages naming each rank's source line, and one call made from two
# lines (--fetch-apart).
#
#   tests/mpi/run.sh build/tests/test_mpi [build/tests/test_mat_mpi]
#
# Runs as root too (OpenMPI's opt-in variables); shared-memory transport
# only, no binding (the machine's cores are shared).  Every mpirun runs
# under `timeout -k 5`: on a loaded machine an mpirun whose ranks had all
# ended once ignored timeout's TERM and hung the suite; KILL ends it.
set -u
prog=${1:?usage: run.sh TEST_MPI [TEST_MAT_MPI]}
mat=${2:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
# OpenMPI's own allocations are not ours to check (SANITIZE=1 builds).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
fail=0
out=$(mktemp) err=$(mktemp) h5dir=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$h5dir"' EXIT

for n in 1 2 3 4; do
  if timeout -k 5 60 $MPIRUN -np $n "$prog" >"$out" 2>"$err"; then
    echo "mpi-test: $n rank(s): $(grep -E "^(PASS|FAIL):" "$out")"
  else
    cat "$out" "$err"
    echo "mpi-test: $n rank(s): FAILED"
    fail=1
  fi
done

# A whole mesh's large dat gives back its pages past the local rows.
for n in 1 3; do
  if timeout -k 5 60 $MPIRUN -np $n "$prog" --trim >"$out" 2>"$err" && grep -q "^PASS: trim" "$out"; then
    echo "mpi-test: --trim at $n rank(s): PASS"
  else
    cat "$out" "$err"; echo "mpi-test: --trim at $n rank(s): FAILED"; fail=1
  fi
done

# A global RCM renumbering before partitioning (declared order everywhere
# the program can see it).
if LOOM_RENUMBER=1 timeout -k 5 60 $MPIRUN -np 3 -x LOOM_RENUMBER "$prog" >"$out" 2>"$err"; then
  echo "mpi-test: LOOM_RENUMBER=1: $(grep -E "^(PASS|FAIL):" "$out")"
else
  cat "$out" "$err"; echo "mpi-test: LOOM_RENUMBER=1: FAILED"; fail=1
fi

# $LOOM_PARTITIONER overrides the method the program asks for.
# ($LOOM_DIAG=1 prints the method used and the partition's quality.)
if LOOM_DIAG=1 LOOM_PARTITIONER=block timeout -k 5 60 $MPIRUN -np 3 -x LOOM_DIAG -x LOOM_PARTITIONER \
     "$prog" metis >"$out" 2>"$err" &&
   grep -q "loom: partition: block over 3 ranks, primary set 'cells', edge cut 2" "$err" &&
   ! grep -q "loom: partition: metis" "$err"; then
  echo "mpi-test: LOOM_PARTITIONER=block: $(grep -E "^(PASS|FAIL):" "$out")"
else
  cat "$out" "$err"; echo "mpi-test: LOOM_PARTITIONER=block: FAILED"; fail=1
fi
if LOOM_PARTITIONER=nonsense timeout -k 5 60 $MPIRUN -np 2 -x LOOM_PARTITIONER "$prog" block >"$out" 2>"$err"; then
  echo "mpi-test: LOOM_PARTITIONER=nonsense: accepted (FAILED)"; fail=1
elif grep -q "LOOM_PARTITIONER is 'nonsense'" "$err"; then
  echo "mpi-test: LOOM_PARTITIONER=nonsense: rejected, PASS"
else
  cat "$err"; echo "mpi-test: LOOM_PARTITIONER=nonsense: FAILED"; fail=1
fi

# A failing rank ends the job, naming itself and the cause.
# A run that times out is run once more before it counts as hung: now and
# then mpirun itself does not end after a rank failed (seen for --absent:
# 1 run in 6-8 on a 2-core machine, with the old runtime too; another
# time mpirun crashed, rc 139, after rank 0's message).
expect_abort() { # mode np pattern
  timeout -k 5 60 $MPIRUN -np "$2" "$prog" "$1" >"$out" 2>"$err"
  rc=$?
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "mpi-test: $1 at $2 ranks: timed out once; again"
    timeout -k 5 60 $MPIRUN -np "$2" "$prog" "$1" >"$out" 2>"$err"
    rc=$?
  fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then # timeout: TERM, or KILL 5 s later
    echo "mpi-test: $1 at $2 ranks: hung (FAILED)"; fail=1
  elif [ $rc -eq 0 ]; then
    echo "mpi-test: $1 at $2 ranks: exit status 0 (FAILED)"; fail=1
  elif grep -q "$3" "$err"; then
    echo "mpi-test: $1 at $2 ranks: aborted with \"$(grep -m1 "$3" "$err")\", PASS"
  else
    cat "$err"; echo "mpi-test: $1 at $2 ranks: no message matching '$3' (FAILED)"; fail=1
  fi
}
expect_abort --fail 3 "loom: rank 1: error: map 'pecell': entry 5 (element 2, slot 1) is 99"
# An error one rank finds alone (with the default handler) ends every rank
# within seconds with that rank's one message and no MPI_Abort: before
# partitioning (--fail, the others in an agreement) and after it
# (--fail-after, the others in a halo exchange with it).
expect_one_message() { # mode
  if [ "$(grep -c "^loom:" "$err")" -ne 1 ] || grep -q "MPI_ABORT" "$err"; then
    cat "$err"; echo "mpi-test: $1: not one message without MPI_Abort (FAILED)"; fail=1
  else
    echo "mpi-test: $1: one loom: line, no MPI_Abort, PASS"
  fi
}
expect_one_message --fail
for np in 2 3; do
  expect_abort --fail-after $np "loom: rank 1: error: set 'late': declared after the mesh was partitioned"
  expect_one_message "--fail-after at $np ranks"
done
expect_abort --mismatch 2 "loom: rank [01]: error: .*different"
expect_abort --bad-slices 3 "loom: rank [012]: error: [^ ]*test_mpi\.c:[0-9]*: set 'cells': rank 1's slice is \\[11, 20) of 30 elements, but the ranks' slices must tile \\[0, 30)"

# Collective calls made by some ranks only never hang: ranks at different
# calls (rank 0 fetches, the others leave) end at once, rank 0 naming where
# each rank is, with the source lines of the calls (the program's, found
# by their comments; the file as the program was compiled, any directory);
# a rank that makes no collective call is named by rank 0 after
# LOOM_COLLECTIVE_TIMEOUT (2 s here), the job ending within 20 s.
src=$(cd "$(dirname "$0")/../unit/runtime" && pwd)/test_mpi.c
line_of() { grep -n "$1" "$src" | cut -d: -f1; }
fetch_at="[^ ]*test_mpi\.c:$(line_of '/\* misuse: fetch \*/')"
exit_at="[^ ]*test_mpi\.c:$(line_of '/\* misuse: exit \*/')"
expect_abort --skip-fetch 3 "loom: rank 0: error: $fetch_at: loom_dat_fetch: the ranks are not all making this call (rank 0 is at it; rank 1 is at loom_exit, $exit_at; rank 2 is at loom_exit, $exit_at)"
expect_abort --skip-fetch 2 "loom: rank 0: error: $fetch_at: loom_dat_fetch: the ranks are not all making this call (rank 0 is at it; rank 1 is at loom_exit, $exit_at)"
# ... and, every rank knowing it at once, the job ends cleanly: one loom:
# line, no MPI_Abort banner
if [ "$(grep -c "^loom:" "$err")" -ne 1 ] || grep -q "MPI_ABORT" "$err"; then
  cat "$err"; echo "mpi-test: --skip-fetch: not one clean failure (FAILED)"; fail=1
else
  echo "mpi-test: --skip-fetch: one loom: line, no MPI_Abort, PASS"
fi
# A loop partitions the mesh the program did not: rank 0 names the loop's
# directive line, from the label generated code gives it.
exit_loop_at="[^ ]*test_mpi\.c:$(line_of '/\* misuse: exit after a loop \*/')"
expect_abort --skip-first-loop 2 "loom: rank 0: error: prog\.c:12: loom_partition (loading the mesh): the ranks are not all making this call (rank 0 is at it; rank 1 is at loom_exit, $exit_loop_at)"
# A call through a function pointer records no line: rank 0's message has
# none (not the line of the call before it, loom_partition).
expect_abort --skip-fetch-pointer 2 "loom: rank 0: error: loom_dat_fetch: the ranks are not all making this call (rank 0 is at it; rank 1 is at loom_exit, $exit_at)"
# One collective call from different lines on different ranks is one call.
if timeout -k 5 60 $MPIRUN -np 3 "$prog" --fetch-apart >"$out" 2>"$err" && grep -q "^PASS" "$out"; then
  echo "mpi-test: --fetch-apart at 3 ranks: $(cat "$out")"
else
  cat "$out" "$err"; echo "mpi-test: --fetch-apart at 3 ranks: FAILED"; fail=1
fi
export LOOM_COLLECTIVE_TIMEOUT=2
MPIRUN_SAVED=$MPIRUN
MPIRUN="timeout -k 5 20 $MPIRUN -x LOOM_COLLECTIVE_TIMEOUT"
expect_abort --absent 3 "loom: rank 0: error: $fetch_at: loom_dat_fetch: rank(s) 1 did not make this call within 2 s"
expect_abort --skip-loop 2 "loom: rank 0: error: the halo exchange of dat 'x' did not complete within 2 s: nothing came from rank(s) 1"
MPIRUN=$MPIRUN_SAVED
unset LOOM_COLLECTIVE_TIMEOUT

# With a user handler that returns, an error on rank 1 alone (before
# partitioning: its map; after: its fetch) does not leave the other ranks
# waiting: every rank ends normally, each of the others having seen an
# error naming rank 1.
expect_handled() { # mode np
  timeout -k 5 60 $MPIRUN -np "$2" "$prog" "$1" >"$out" 2>"$err"
  rc=$?
  others=$(grep -c "^rank [^1]: [1-9][0-9]* error(s), last: .*rank 1 failed: " "$out")
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then # timeout: TERM, or KILL 5 s later
    echo "mpi-test: $1 at $2 ranks: hung (FAILED)"; fail=1
  elif [ $rc -ne 0 ] || [ "$others" -ne $(($2 - 1)) ] || ! grep -q "^rank 1: [1-9]" "$out"; then
    cat "$out" "$err"; echo "mpi-test: $1 at $2 ranks: exit status $rc (FAILED)"; fail=1
  else
    echo "mpi-test: $1 at $2 ranks: no hang, \"$(grep -m1 "^rank 0" "$out")\", PASS"
  fi
}
expect_handled --handler-before 3
expect_handled --handler-after 3
expect_handled --handler-after 2

# HDF5: a dat written from a partitioned mesh reads back in declared order
# from uneven slices; reading it wrongly is an error on every rank.
for n in 1 3; do
  if timeout -k 5 60 $MPIRUN -np $n "$prog" --hdf5 "$h5dir/t$n.h5" >"$out" 2>"$err" &&
     grep -q "^PASS" "$out"; then
    echo "mpi-test: --hdf5 at $n ranks: $(cat "$out")"
  else
    cat "$out" "$err"; echo "mpi-test: --hdf5 at $n ranks: FAILED"; fail=1
  fi
done

# Matrices (PETSc): at 1-4 ranks with each partitioner, and renumbered
# (LOOM_RENUMBER=1: RCM on the global mesh before partitioning) with the
# default and the block partitioner; on the distributed path
# (LOOM_DISTRIBUTE=1); as an mpi+openmp program (its assembly loops on 3
# threads per rank).  Each run compares every result with a dense
# reference on every rank (the program's header).
mat_run() { # np VAR=VALUE...
  np=$1; shift
  xs=""
  for kv in "$@"; do xs="$xs -x ${kv%%=*}"; done
  if env "$@" timeout 120 $MPIRUN -np "$np" $xs "$mat" >"$out" 2>"$err" &&
     grep -q "^PASS" "$out"; then
    echo "mpi-test: matrices at $np rank(s), $*: $(cat "$out")"
  else
    cat "$out" "$err"; echo "mpi-test: matrices at $np rank(s), $*: FAILED"; fail=1
  fi
}
if [ -n "$mat" ]; then
  for n in 1 2 3 4; do
    for method in metis scotch ptscotch block geom; do
      mat_run $n LOOM_PARTITIONER=$method
    done
    mat_run $n LOOM_RENUMBER=1
    mat_run $n LOOM_RENUMBER=1 LOOM_PARTITIONER=block
  done
  mat_run 3 LOOM_DISTRIBUTE=1
  mat_run 2 OMP_NUM_THREADS=3
  mat_run 3 OMP_NUM_THREADS=3 LOOM_PARTITIONER=ptscotch
fi

[ $fail -eq 0 ] && echo "mpi-test: all passed"
exit $fail
