#!/usr/bin/env bash
# Airfoil from an HDF5 mesh, distributed (after `make all mpi`).
#
#   tests/e2e/hdf5.sh small   generated 40x60 mesh converted by loom-mesh
#                             (and equal to loom-naca0012's own HDF5);
#                             airfoil_hdf5 (mpi) at 1-4 ranks (and 3 with
#                             the geom partitioner) and
#                             (mpi+openmp) 2 ranks x 2 threads: the seq
#                             build's rms lines, q within 1e-12; with the
#                             block partitioner, q bit-identical to the
#                             whole-mesh airfoil_mpi (the same partition on
#                             either path); q written with loom_write_xdmf
#                             equal to q fetched, its XDMF matching the
#                             HDF5 file (read back by pvpython when
#                             installed); checkpoint and restart; no
#                             rank allocates a global-size array (16 ranks,
#                             80x120 mesh, alloc_guard.c), while the
#                             whole-mesh build does; a missing mesh file is
#                             an error naming it
#   tests/e2e/hdf5.sh ref     the reference mesh (720,000 cells), 1000
#                             iterations from HDF5 at 1-4 ranks: OP2's rms
#                             table exactly; a checkpoint written at 500 on
#                             2 ranks, continued on 3: the same rms lines
#                             600-1000, q within 1e-12 of the 2-rank run
#   tests/e2e/hdf5.sh large [I J]  the I x J NACA0012 mesh (default 1600 x
#                             2400, 11.5M cells; loom-naca0012 writes its
#                             HDF5), 100 iterations on 4 ranks: the rms
#                             line of the seq build (text mesh), q within
#                             1e-12; prints the load + partition time
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/airfoil
tools=$root/build/bin
qdiff=$root/build/tests/qdiff
mode=${1:-small}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"

fail() { echo "FAIL hdf5 ($mode): $*"; exit 1; }

mesh_pair() { # I J: mesh.dat and mesh.h5 in $tmp
  "$bin/naca0012" -I "$1" -J "$2" "$tmp/mesh.dat" >/dev/null || fail "mesh generation"
  "$tools/loom-mesh" "$tmp/mesh.dat" "$tmp/mesh.h5" || fail "loom-mesh"
}

run_h5() { # NAME NP PROGRAM ITERS OUT: rms lines in $tmp/NAME.out
  timeout 300 $MPIRUN -np "$2" "$3" "$tmp/mesh.h5" "$4" "$5" \
    >"$tmp/$1.out" 2>"$tmp/$1.err" || { cat "$tmp/$1.err"; fail "$1 failed"; }
  diff -u "$tmp/seq.out" "$tmp/$1.out" || fail "$1: rms lines differ from seq"
}

small() {
  mesh_pair 40 60
  # the generator's own HDF5 equals the text mesh converted, byte for byte
  "$tools/loom-naca0012" -I 40 -J 60 "$tmp/direct.h5" >/dev/null || fail "loom-naca0012"
  cmp -s "$tmp/direct.h5" "$tmp/mesh.h5" ||
    fail "loom-naca0012's HDF5 differs from naca0012 + loom-mesh"
  "$bin/airfoil_seq" "$tmp/mesh.dat" 200 "$tmp/q_seq.bin" >"$tmp/seq.out" 2>/dev/null ||
    fail "airfoil_seq"
  for np in 1 2 3 4; do
    run_h5 "mpi$np" "$np" "$bin/airfoil_hdf5_mpi" 200 "$tmp/q_mpi$np.bin"
    "$qdiff" "$tmp/q_seq.bin" "$tmp/q_mpi$np.bin" 1e-12 >"$tmp/qd" ||
      { cat "$tmp/qd"; fail "q at $np ranks far from seq"; }
  done
  LOOM_DIAG=1 LOOM_PARTITIONER=geom run_h5 geom 3 "$bin/airfoil_hdf5_mpi" 200 "$tmp/q_geom.bin"
  "$qdiff" "$tmp/q_seq.bin" "$tmp/q_geom.bin" 1e-12 >"$tmp/qd" ||
    { cat "$tmp/qd"; fail "geom partition: q far from seq"; }
  # LOOM_DIAG=1: every rank's time and memory after every step
  for r in 0 1 2; do
    for step in "the slices" "the graph" "the primary's owners" "the other owners" \
                nodes edges bedges cells numbering "the new maps and dats" "the halos"; do
      grep -qE "^loom: partition: rank $r after $step \([0-9.]+ s\): resident [0-9.]+ MB, peak [0-9.]+ MB$" \
        "$tmp/geom.err" || fail "LOOM_DIAG=1: no line for rank $r after $step"
    done
  done
  OMP_NUM_THREADS=2 run_h5 hybrid 2 "$bin/airfoil_hdf5_mpi_openmp" 200 "$tmp/q_hyb.bin"
  "$qdiff" "$tmp/q_seq.bin" "$tmp/q_hyb.bin" 1e-12 >"$tmp/qd" ||
    { cat "$tmp/qd"; fail "mpi+openmp q far from seq"; }
  # the same partition either way: the same bits
  LOOM_PARTITIONER=block run_h5 block 3 "$bin/airfoil_hdf5_mpi" 200 "$tmp/q_blk.bin"
  LOOM_PARTITIONER=block timeout 300 $MPIRUN -np 3 "$bin/airfoil_mpi" "$tmp/mesh.dat" 200 \
    "$tmp/q_whole.bin" >/dev/null 2>&1 || fail "airfoil_mpi (block)"
  cmp -s "$tmp/q_blk.bin" "$tmp/q_whole.bin" ||
    fail "block partition: q differs between the HDF5 and whole-mesh paths"
  # q written collectively in declared order = q fetched
  run_h5 write 3 "$bin/airfoil_hdf5_mpi" 200 "$tmp/q.h5"
  "$tools/loom-mesh" --extract "$tmp/q.h5" p_q "$tmp/q_h5.bin" || fail "extract"
  cmp -s "$tmp/q_h5.bin" "$tmp/q_mpi3.bin" ||
    fail "q written by loom_write_xdmf differs from q fetched"
  # its XDMF describes the HDF5 file (and ParaView reads it, when present)
  "$tools/loom-mesh" --list "$tmp/q.h5" >"$tmp/q.list" || fail "loom-mesh --list"
  python3 "$root/tests/e2e/xdmf_check.py" "$tmp/q.xmf" "$tmp/q.list" \
    "$(awk 'NR == 1 { print $2 }' "$tmp/mesh.dat")" \
    "$(awk 'NR == 1 { print $1 }' "$tmp/mesh.dat")" >"$tmp/xc" ||
    { cat "$tmp/xc"; fail "the XDMF does not match its HDF5 file"; }
  cat "$tmp/xc"
  # a missing mesh: a named error, non-zero exit
  if timeout 60 $MPIRUN -np 2 "$bin/airfoil_hdf5_mpi" "$tmp/none.h5" 10 \
       >/dev/null 2>"$tmp/none.err"; then fail "a missing mesh file was accepted"; fi
  grep -q "cannot open HDF5 file '$tmp/none.h5'" "$tmp/none.err" ||
    { cat "$tmp/none.err"; fail "no message naming the missing file"; }
  restart
  guard
  echo "airfoil hdf5: PASS (1-4 ranks and 2x2 threads: seq's rms lines, q within 1e-12;" \
       "block partition bit-identical to the whole-mesh path; write = fetch;" \
       "checkpoint at 2 ranks, restart at 2 (bit-identical) and 3 (1e-12);" \
       "16 ranks under the global-size allocation guard)"
}

# A checkpoint written at 2 ranks, the run continued at 2 ranks (the same
# bits as the run that never stopped) and at 3 (within 1e-12); the
# checkpoint is itself a mesh file.
restart() {
  local p=$bin/airfoil_hdf5_mpi ck=$tmp/ck.h5
  timeout 300 $MPIRUN -np 2 "$p" "$tmp/mesh.h5" 300 "$tmp/q_full.bin" >"$tmp/full.out" 2>&1 ||
    fail "uninterrupted run"
  timeout 300 $MPIRUN -np 2 "$p" --checkpoint-every 100 --checkpoint "$ck" "$tmp/mesh.h5" 200 \
    >"$tmp/ck.out" 2>&1 || { cat "$tmp/ck.out"; fail "checkpointing run"; }
  [ -f "$ck" ] && [ ! -e "$ck.tmp" ] || fail "no checkpoint file (or a leftover .tmp)"
  for np in 2 3; do
    timeout 300 $MPIRUN -np $np "$p" --restart "$ck" "$tmp/mesh.h5" 300 "$tmp/q_r$np.bin" \
      >"$tmp/r$np.out" 2>&1 || { cat "$tmp/r$np.out"; fail "restart at $np ranks"; }
    diff <(grep '^ 300' "$tmp/full.out") <(grep '^ 300' "$tmp/r$np.out") ||
      fail "restart at $np ranks: rms at 300 differs"
  done
  cmp -s "$tmp/q_full.bin" "$tmp/q_r2.bin" || fail "restart at 2 ranks: q not bit-identical"
  "$qdiff" "$tmp/q_full.bin" "$tmp/q_r3.bin" 1e-12 >"$tmp/qd" ||
    { cat "$tmp/qd"; fail "restart at 3 ranks: q far from the uninterrupted run"; }
  timeout 300 $MPIRUN -np 2 "$p" "$ck" 1 >/dev/null 2>&1 || fail "the checkpoint as a mesh"
}

# 16 ranks on an 80x120 mesh: every single allocation of the program and
# libloom_mpi stays under a global int array over the largest set (edges),
# and the whole-mesh build, which holds global arrays, trips the guard.
guard() {
  if [ "${LOOM_E2E_SANITIZE:-0}" = 1 ]; then # ASan owns malloc there
    echo "hdf5: allocation guard skipped under SANITIZE=1"
    return
  fi
  mesh_pair 80 120
  local nedge limit
  nedge=$(awk 'NR == 1 { print $3 }' "$tmp/mesh.dat")
  limit=$((4 * nedge))
  for prog in airfoil_hdf5_mpi airfoil_mpi; do
    mpicc -O1 -I"$root/runtime/include" -I"$root/samples/airfoil" -o "$tmp/$prog.guarded" \
      "$bin/$prog.c" "$root/tests/e2e/alloc_guard.c" \
      -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=mmap \
      "$root/build/lib/libloom_mpi.a" $(make -s --no-print-directory -C "$root" print-mpi-libs) ||
      fail "building $prog with the allocation guard"
  done
  local mesh=$tmp/mesh.h5
  LOOM_ALLOC_LIMIT=$limit timeout 300 $MPIRUN -np 16 "$tmp/airfoil_hdf5_mpi.guarded" \
    "$mesh" 20 "$tmp/qg.h5" >"$tmp/g.out" 2>"$tmp/g.err" ||
    { grep -m3 "alloc-guard\|error" "$tmp/g.err"; fail "a rank allocated $limit bytes or more (16 ranks)"; }
  if LOOM_ALLOC_LIMIT=$limit timeout 300 $MPIRUN -np 16 "$tmp/airfoil_mpi.guarded" \
       "$tmp/mesh.dat" 20 >/dev/null 2>"$tmp/w.err"; then
    fail "the whole-mesh build passed the allocation guard: the guard checks nothing"
  fi
  grep -q "alloc-guard: an allocation of" "$tmp/w.err" || fail "whole-mesh build failed otherwise"
}

ref() {
  local mesh=$bin/new_grid.dat table=$root/tests/e2e/op2_airfoil_rms.txt
  local p=$bin/airfoil_hdf5_mpi ck=$tmp/ck.h5
  [ -f "$mesh" ] || "$bin/naca0012" -I 400 -J 600 "$mesh" >/dev/null || fail "mesh generation"
  "$tools/loom-mesh" "$mesh" "$tmp/mesh.h5" || fail "loom-mesh"
  for np in 1 2 3 4; do
    timeout 1800 $MPIRUN -np "$np" "$p" "$tmp/mesh.h5" 1000 "$tmp/q$np.bin" \
      >"$tmp/r$np.out" 2>"$tmp/r$np.err" || { cat "$tmp/r$np.err"; fail "$np ranks"; }
    diff -u "$table" "$tmp/r$np.out" || fail "rms table at $np ranks differs from OP2's"
  done
  # checkpoint at 500 on 2 ranks, continued to 1000 on 3
  timeout 1800 $MPIRUN -np 2 "$p" --checkpoint-every 500 --checkpoint "$ck" "$tmp/mesh.h5" 500 \
    >"$tmp/ck.out" 2>&1 || { cat "$tmp/ck.out"; fail "checkpointing run"; }
  timeout 1800 $MPIRUN -np 3 "$p" --restart "$ck" "$tmp/mesh.h5" 1000 "$tmp/q_r3.bin" \
    >"$tmp/r.out" 2>"$tmp/r.err" || { cat "$tmp/r.err"; fail "restart at 3 ranks"; }
  diff -u <(awk '$1 > 500' "$table") "$tmp/r.out" ||
    fail "restart at 3 ranks: rms lines 600-1000 differ from OP2's"
  "$qdiff" "$tmp/q2.bin" "$tmp/q_r3.bin" 1e-12 >"$tmp/qd" ||
    { cat "$tmp/qd"; fail "restart at 3 ranks: q far from the uninterrupted 2-rank run"; }
  echo "airfoil hdf5 ref: PASS (OP2's rms table exactly at 1-4 ranks, mesh from HDF5;" \
       "checkpoint at 500 on 2 ranks, continued on 3: the same rms lines, q within 1e-12)"
}

large() {
  local I=${1:-1600} J=${2:-2400} load
  "$tools/loom-naca0012" -I "$I" -J "$J" "$tmp/mesh.h5" >/dev/null || fail "loom-naca0012"
  "$bin/naca0012" -I "$I" -J "$J" "$tmp/mesh.dat" >/dev/null || fail "naca0012"
  "$bin/airfoil_seq" "$tmp/mesh.dat" 100 "$tmp/q_seq.bin" >"$tmp/seq.out" 2>/dev/null ||
    fail "airfoil_seq"
  rm -f "$tmp/mesh.dat"
  [ -s "$tmp/seq.out" ] || fail "seq printed no rms line"
  timeout 1800 $MPIRUN -np 4 "$bin/airfoil_hdf5_mpi" "$tmp/mesh.h5" 100 "$tmp/q4.bin" \
    >"$tmp/r4.out" 2>"$tmp/r4.err" || { cat "$tmp/r4.err"; fail "4 ranks"; }
  diff -u "$tmp/seq.out" "$tmp/r4.out" || fail "rms lines at 4 ranks differ from seq"
  "$qdiff" "$tmp/q_seq.bin" "$tmp/q4.bin" 1e-12 >"$tmp/qd" ||
    { cat "$tmp/qd"; fail "q at 4 ranks far from seq"; }
  load=$(awk '/load and partition/ { print $(NF - 1) }' "$tmp/r4.err")
  echo "airfoil hdf5 large: PASS (${I}x${J} mesh, 4 ranks from HDF5: seq's rms line," \
       "q within 1e-12; load + partition $load s)"
}

case $mode in
  small) small ;;
  ref) ref ;;
  large) large "${@:2}" ;;
  *) echo "usage: $0 small|ref|large [I J]" >&2; exit 2 ;;
esac
