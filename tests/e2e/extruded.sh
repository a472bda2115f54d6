#!/usr/bin/env bash
# The extruded-mesh sample end to end (samples/extruded/): the heat
# equation in the unit cube on prisms over the perturbed triangle mesh,
# columns of N layers.
#   - extruded_ref (plain C, the same kernels) converges: the L2 error's
#     observed rate is 2 (within 1.8 .. 2.3) over N = 4, 8, 16;
#   - extruded_seq prints its lines bit for bit, and so does
#     extruded_openmp at 1, 2 and 3 threads (plans checked, block sizes
#     default and 7): columns of one colour run in parallel, each column's
#     layers in order;
#   - extruded_mpi at 1-4 ranks with each partitioner, and
#     extruded_mpi_openmp at 2 ranks x 2 threads, on N = 8: the errors of
#     extruded_ref's N = 8 line within 1e-9 (sums in another order);
#   - with OUT, extruded_mpi writes u.h5 and u.xmf: the XDMF matches the
#     file (xdmf_check.py), 128 wedges one layer high over 125 points
#     (wedge_check.py); read back on 2 ranks (loom_decl_dat_hdf5,
#     loom_dat_read_hdf5: inputs/xread.c), u is the file's;
#   - loomc --report: the loops over the lines' bottom and top layers
#     fused; the generated code loops over the layers of each column;
#   - a bad size is refused with status 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/extruded
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL extruded: $*"; exit 1; }
export OMP_WAIT_POLICY=passive

for p in extruded_ref extruded_seq extruded_openmp; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make extruded)"
done

"$bin/extruded_ref" 4 3 >"$tmp/ref.out" || fail "extruded_ref failed"
[ "$(wc -l <"$tmp/ref.out")" -eq 3 ] || fail "extruded_ref printed $(wc -l <"$tmp/ref.out") lines, not 3"
rates=$(sed -n 's/.*, rate \([0-9.]*\),.*/\1/p' "$tmp/ref.out" | tr '\n' ' ')
[ "$(echo "$rates" | wc -w)" -eq 2 ] || fail "no rates in: $(cat "$tmp/ref.out")"
for r in $rates; do
  awk -v r="$r" 'BEGIN { exit !(r >= 1.8 && r <= 2.3) }' || fail "observed rate $r, not 2"
done

same() { # NAME CMD...: CMD prints ref's lines
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: $* failed"; }
  diff -u "$tmp/ref.out" "$tmp/$name.out" || fail "$name differs from extruded_ref"
}
same seq "$bin/extruded_seq" 4 3
for t in 1 2 3; do
  same omp$t env OMP_NUM_THREADS=$t LOOM_CHECK_PLANS=1 "$bin/extruded_openmp" 4 3
  same omp${t}b7 env OMP_NUM_THREADS=$t LOOM_BLOCK_SIZE=7 LOOM_CHECK_PLANS=1 \
    "$bin/extruded_openmp" 4 3
done
ok="rates $rates; seq and openmp 1-3 threads identical to extruded_ref"

# L2 and largest errors of a line of N = 8
errors() { sed -n 's/.*L2 error \([^,]*\),.*largest error \(.*\)$/\1 \2/p' "$1"; }
close() { # A B: each error within 1e-9 relative
  paste <(errors "$1") <(errors "$2") |
    awk 'NF != 4 { exit 1 }
         { for (i = 1; i <= 2; i++) { a = $i; b = $(i + 2); d = a - b; if (d < 0) d = -d;
             if (d > 1e-9 * (a < 0 ? -a : a)) exit 1 } }'
}
if command -v mpirun >/dev/null && [ -x "$bin/extruded_mpi" ]; then
  "$bin/extruded_ref" 8 1 >"$tmp/ref8.out" || fail "extruded_ref 8 1 failed"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  mpi() { # NAME NP PROG ARGS...
    local name=$1 np=$2
    shift 2
    timeout -k 5 120 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 \
      -x LOOM_PARTITIONER -x OMP_NUM_THREADS -np "$np" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
      { cat "$tmp/$name.err"; fail "$name: mpirun -np $np $* failed"; }
    [ "$(wc -l <"$tmp/$name.out")" -eq 1 ] || fail "$name printed $(wc -l <"$tmp/$name.out") lines"
    close "$tmp/ref8.out" "$tmp/$name.out" ||
      fail "$name: $(cat "$tmp/$name.out") against extruded_ref's $(cat "$tmp/ref8.out")"
  }
  for np in 1 2 3 4; do
    for part in metis scotch ptscotch block geom; do
      LOOM_PARTITIONER=$part mpi mpi$np$part "$np" "$bin/extruded_mpi" 8 1
    done
  done
  OMP_NUM_THREADS=2 LOOM_PARTITIONER=metis mpi mpiomp 2 "$bin/extruded_mpi_openmp" 8 1
  ok="$ok; mpi 1-4 ranks x 5 partitioners and mpi+openmp 2 x 2 within 1e-9 of it"
  # the mesh and u for ParaView: wedges one layer high, u on their points
  tools=$root/build/bin
  LOOM_PARTITIONER=metis timeout -k 5 120 mpirun --oversubscribe --bind-to none -np 3 \
    "$bin/extruded_mpi" 4 1 "$tmp/u" >"$tmp/xdmf.out" 2>&1 || { cat "$tmp/xdmf.out"; fail "OUT"; }
  "$tools/loom-mesh" --list "$tmp/u.h5" >"$tmp/u.list" || fail "loom-mesh --list"
  python3 "$root/tests/e2e/xdmf_check.py" "$tmp/u.xmf" "$tmp/u.list" 128 125 >"$tmp/xc" ||
    { cat "$tmp/xc"; fail "the XDMF does not match its HDF5 file"; }
  grep -q 'TopologyType="Wedge" NumberOfElements="128"' "$tmp/u.xmf" || fail "no 128 wedges"
  "$tools/loom-mesh" --extract "$tmp/u.h5" p2v "$tmp/p2v.bin" &&
    "$tools/loom-mesh" --extract "$tmp/u.h5" p_x "$tmp/x.bin" || fail "extract"
  python3 "$root/tests/e2e/wedge_check.py" "$tmp/p2v.bin" "$tmp/x.bin" 4 >"$tmp/wc" ||
    { cat "$tmp/wc"; fail "the wedges are wrong"; }
  ok="$ok; XDMF of 128 wedges checked"
  # u read back, on 2 ranks, by loom_decl_dat_hdf5 and loom_dat_read_hdf5:
  # the values the file holds (loom-mesh --extract), in declared order
  san=""
  [ "${LOOM_E2E_SANITIZE:-0}" = 1 ] && san="-fsanitize=address,undefined"
  mpicc $san -std=c11 -Wall -Werror -I"$root/runtime/include" "$root/tests/e2e/inputs/xread.c" \
    -o "$tmp/xread" "$root/build/lib/libloom_mpi.a" $(pkg-config --libs hdf5-openmpi) \
    -lmetis -lptscotch -lscotch -lptscotcherr -lm || fail "xread does not build"
  timeout -k 5 120 mpirun --oversubscribe --bind-to none -np 2 "$tmp/xread" "$tmp/u.h5" 25 5 \
    >"$tmp/xread.out" 2>&1 || { cat "$tmp/xread.out"; fail "xread failed"; }
  "$tools/loom-mesh" --extract "$tmp/u.h5" p_u "$tmp/u.bin" || fail "extract p_u"
  python3 - "$tmp/u.bin" "$tmp/xread.out" <<'PY' || fail "u read back differs from the file"
import struct, sys
data = open(sys.argv[1], "rb").read()
want = struct.unpack("%dd" % (len(data) // 8), data)
rows = [line.split() for line in open(sys.argv[2])]
sys.exit(not (len(rows) == len(want) == 125 and
              all(float(a) == w and float(b) == w for (a, b), w in zip(rows, want))))
PY
  ok="$ok; read back by both HDF5 calls"
fi

"$root/build/bin/loomc" --target=seq --report -I"$root/samples/extruded" \
  "$root/samples/extruded/extruded.c" -o "$tmp/gen.c" >"$tmp/report" || fail "loomc failed"
grep -q "fused prism_mark into prism_mark over lines" "$tmp/report" ||
  fail "the bottom and top loops not fused"
grep -q "for (int loom_k = 0; loom_k < loom_L_prism; loom_k++)" "$tmp/gen.c" ||
  fail "no loop over the layers in the generated code"

"$bin/extruded_seq" 0 >/dev/null 2>"$tmp/bad.err"
[ $? -eq 2 ] && grep -q "N must be an integer from 1 to 512, not '0'" "$tmp/bad.err" ||
  fail "a bad size was not refused with status 2"
echo "extruded: $ok; report checked, PASS"
