#!/usr/bin/env bash
# Columns of their own heights (loom_decl_extruded_set_columns) end to end:
# tests/e2e/inputs/xcolumns.c, which checks its loops' results against the
# same computation in plain C and prints "xcolumns: ok", through loomc for
#   - seq, and seq with LOOM_RENUMBER=1;
#   - openmp at 1, 2 and 3 threads (plans checked; block size 7 too);
#   - mpi at 1-4 ranks (METIS) and 3 ranks with each other partitioner,
#     and mpi+openmp at 2 ranks x 2 threads (when mpicc is there);
#   - with OUT, on 3 ranks: an XDMF of 2 * 6 * 6 * 5 wedges (every column
#     as high as the highest, the cells above a column's top collapsed to
#     a point) that matches its HDF5 file (xdmf_check.py).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL columns: $*"; exit 1; }
export OMP_WAIT_POLICY=passive OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
src=$root/tests/e2e/inputs/xcolumns.c
inc=(-I"$root/samples/common" -I"$root/runtime/include")
san=""
[ "${LOOM_E2E_SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined"

build() { # TARGET CC EXTRA...
  local t=$1 cc=$2
  shift 2
  "$root/build/bin/loomc" --target="${t/_/+}" -I"$root/samples/common" "$src" -o "$tmp/x_$t.c" ||
    fail "loomc --target=$t failed"
  $cc $san -std=c11 -Wall -Wextra -Werror -O2 "${inc[@]}" -o "$tmp/x_$t" "$tmp/x_$t.c" "$@" ||
    fail "the $t build failed"
}
ok() { # NAME CMD...: CMD prints "xcolumns: ok"
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>&1 || { cat "$tmp/$name.out"; fail "$name: $* failed"; }
  grep -q "^xcolumns: ok" "$tmp/$name.out" || { cat "$tmp/$name.out"; fail "$name: not ok"; }
}

build seq "${CC:-cc}" "$root/build/lib/libloom.a" -lm
build openmp "${CC:-cc}" -fopenmp "$root/build/lib/libloom.a" -lm
ok seq "$tmp/x_seq" 6 3
ok seq8 "$tmp/x_seq" 8 2
ok renumbered env LOOM_RENUMBER=1 "$tmp/x_seq" 6 3
for t in 1 2 3; do
  ok omp$t env OMP_NUM_THREADS=$t LOOM_CHECK_PLANS=1 "$tmp/x_openmp" 6 3
  ok omp${t}b7 env OMP_NUM_THREADS=$t LOOM_BLOCK_SIZE=7 LOOM_CHECK_PLANS=1 "$tmp/x_openmp" 6 3
done
said="seq, renumbered, openmp 1-3 threads"

if command -v mpicc >/dev/null && [ -f "$root/build/lib/libloom_mpi.a" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  libs=("$root/build/lib/libloom_mpi.a" $(pkg-config --libs hdf5-openmpi) -lmetis -lptscotch
        -lscotch -lptscotcherr -lm)
  build mpi mpicc "${libs[@]}"
  build mpi_openmp "mpicc -fopenmp" "${libs[@]}"
  run() { # NAME NP PROG ARGS...
    local name=$1 np=$2
    shift 2
    ok "$name" timeout -k 5 120 mpirun --oversubscribe --bind-to none --mca btl self,vader \
      --mca pml ob1 -x LOOM_PARTITIONER -x OMP_NUM_THREADS -np "$np" "$@"
  }
  for np in 1 2 3 4; do
    LOOM_PARTITIONER=metis run mpi$np "$np" "$tmp/x_mpi" 6 3
  done
  for part in scotch ptscotch block geom; do
    LOOM_PARTITIONER=$part run mpi3$part 3 "$tmp/x_mpi" 6 3
  done
  OMP_NUM_THREADS=2 LOOM_PARTITIONER=metis run mpiomp 2 "$tmp/x_mpi_openmp" 6 3
  said="$said, mpi 1-4 ranks (METIS) and 3 ranks x 4 partitioners, mpi+openmp 2 x 2"
  LOOM_PARTITIONER=metis run xdmf 3 "$tmp/x_mpi" 6 3 "$tmp/q"
  "$root/build/bin/loom-mesh" --list "$tmp/q.h5" >"$tmp/q.list" || fail "loom-mesh --list"
  python3 "$root/tests/e2e/xdmf_check.py" "$tmp/q.xmf" "$tmp/q.list" 360 >"$tmp/xc" ||
    { cat "$tmp/xc"; fail "the XDMF does not match its HDF5 file"; }
  grep -q 'TopologyType="Wedge" NumberOfElements="360"' "$tmp/q.xmf" || fail "no 360 wedges"
  "$root/build/bin/loom-mesh" --extract "$tmp/q.h5" p2v "$tmp/p2v.bin" || fail "extract p2v"
  python3 - "$tmp/p2v.bin" <<'PY' || fail "the cells above a column's top are not collapsed"
import struct, sys
data = open(sys.argv[1], "rb").read()
rows = [struct.unpack_from("6d", data, 48 * i) for i in range(len(data) // 48)]  # as doubles
flat = [r for r in rows if len(set(r)) == 1]
real = [r for r in rows if len(set(r)) == 6]
# columns of 1 + hash % 5 prisms over 72 triangles: some shorter than 5
sys.exit(not (len(rows) == 360 and flat and len(flat) + len(real) == 360))
PY
  said="$said; XDMF of 360 wedges, those above a column's top collapsed"
fi
echo "columns: $said: each as plain C says"
