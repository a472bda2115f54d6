#!/usr/bin/env bash
# The first hour's mistakes (after `make all mpi`): the tools and the HDF5
# Airfoil sample answer --help with their own usage (status 0) and refuse
# bad options and inputs with a message saying why (status 2, or 1 for a
# bad file), within seconds, at 1-4 ranks, writing no output file.
#
#   - every sample's --help; loom-naca0012 and loom-mesh: --help names the
#     program as invoked; a bad -I value;
#   - airfoil_hdf5_mpi: --help lists the checkpoint options;
#     --checkpoint-every abc; --checkpoint without --checkpoint-every and
#     the other way round; a mesh file that does not exist, is empty, is
#     not HDF5, or is an HDF5 file cut short (each said); a restart from
#     a checkpoint at step 10 with ITERS 5 (nothing left to run: no OUT).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/airfoil
tools=$root/build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
fail() { echo "FAIL bad_inputs: $*"; exit 1; }
n=0

# expect STATUS PATTERN -- CMD...: the exit status, the pattern in the
# output (stdout and stderr), within 30 s
expect() {
  local want=$1 pattern=$2
  shift 3
  timeout 30 "$@" >"$tmp/out" 2>&1
  local rc=$?
  [ $rc -ne 124 ] || fail "$*: still running after 30 s"
  [ $rc -eq "$want" ] || { cat "$tmp/out"; fail "$*: exit status $rc, expected $want"; }
  grep -q -- "$pattern" "$tmp/out" || { cat "$tmp/out"; fail "$*: no '$pattern'"; }
  n=$((n + 1))
}

[ -x "$tools/loom-naca0012" ] && [ -x "$bin/airfoil_hdf5_mpi" ] ||
  { echo "bad_inputs: the MPI/HDF5 programs are not built (make mpi): skipped"; exit 0; }

# every sample's --help: its usage on stdout, status 0
for p in airfoil/airfoil_seq airfoil/airfoil_openmp airfoil/airfoil_ref airfoil/airfoil_mpi \
  airfoil/naca0012 wave/wave_seq limiter/limiter_seq outer/outer_seq \
  airfoil-modular/airfoil_modular_seq; do
  [ -x "$root/build/samples/$p" ] || continue
  expect 0 "^usage: .*${p##*/}" -- "$root/build/samples/$p" --help
done
[ -x "$root/build/samples/poisson/poisson_seq" ] &&
  expect 0 "^usage: .*poisson_seq" -- "$root/build/samples/poisson/poisson_seq" --help
expect 0 "^usage: loom-naca0012 \[-I N\] \[-J N\] OUT.dat" -- "$tools/loom-naca0012" --help
expect 2 "^loom-naca0012: invalid value 'x' for -I: expected an integer from 2" -- \
  "$tools/loom-naca0012" -I x "$tmp/m.dat"
expect 0 "^usage: .*loom-mesh IN.dat OUT.h5" -- "$tools/loom-mesh" --help
expect 2 "^usage: .*loom-mesh IN.dat OUT.h5" -- "$tools/loom-mesh" only-one-argument

h5=$bin/airfoil_hdf5_mpi
expect 0 "--checkpoint-every N  after every N-th step" -- "$h5" --help
expect 2 "error: --checkpoint-every takes a positive integer, not 'abc'" -- \
  "$h5" --checkpoint-every abc --checkpoint "$tmp/c.h5" "$tmp/mesh.h5" 10
expect 2 "error: --checkpoint $tmp/c.h5 needs --checkpoint-every N" -- \
  "$h5" --checkpoint "$tmp/c.h5" "$tmp/mesh.h5" 10
expect 2 "error: --checkpoint-every 5 needs --checkpoint FILE.h5" -- \
  "$h5" --checkpoint-every 5 "$tmp/mesh.h5" 10
[ ! -e "$tmp/c.h5" ] || fail "a refused option left $tmp/c.h5 behind"

"$tools/loom-naca0012" -I 10 -J 12 "$tmp/mesh.h5" >/dev/null || fail "loom-naca0012 -I 10 -J 12"
: >"$tmp/empty.h5"
echo "a mesh, honest" >"$tmp/text.h5"
head -c 5000 "$tmp/mesh.h5" >"$tmp/cut.h5"
for np in 1 2 3 4; do
  expect 1 "cannot open HDF5 file '$tmp/none.h5': it does not exist" -- \
    $MPIRUN -np $np "$h5" "$tmp/none.h5" 10
  expect 1 "cannot open HDF5 file '$tmp/empty.h5': it is empty (0 bytes)" -- \
    $MPIRUN -np $np "$h5" "$tmp/empty.h5" 10
  expect 1 "cannot open HDF5 file '$tmp/text.h5': it is not an HDF5 file" -- \
    $MPIRUN -np $np "$h5" "$tmp/text.h5" 10
  expect 1 "cannot open HDF5 file '$tmp/cut.h5': it is truncated or corrupt" -- \
    $MPIRUN -np $np "$h5" "$tmp/cut.h5" 10
  rm -f "$tmp/c.h5"
  timeout 60 $MPIRUN -np $np "$h5" --checkpoint-every 10 --checkpoint "$tmp/c.h5" \
    "$tmp/mesh.h5" 10 >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "checkpoint at $np ranks"; }
  expect 2 "error: checkpoint '$tmp/c.h5' is at step 10 and ITERS is 5: nothing is left to run" -- \
    $MPIRUN -np $np "$h5" --restart "$tmp/c.h5" "$tmp/mesh.h5" 5 "$tmp/q.h5"
  [ ! -e "$tmp/q.h5" ] && [ ! -e "$tmp/q.xmf" ] || fail "a refused restart wrote its output"
done
echo "bad_inputs: $n cases (tools' --help and options, airfoil_hdf5's options; missing, empty," \
  "not HDF5 and truncated meshes and a restart past ITERS at 1-4 ranks): PASS"
