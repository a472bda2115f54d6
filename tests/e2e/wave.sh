#!/usr/bin/env bash
# The explicit wave example end to end (samples/wave/), on the 16 x 16
# unit-square mesh, 300 steps:
#   - wave_mesh writes the mesh; wave_ref and wave_seq read it: norm lines
#     and final p/phi bit-identical; the mesh generated in memory (MESH = 16
#     and -n 16) gives the same bits as the file;
#   - wave_openmp with 1, 2 and 3 threads, at the default block size and at
#     block sizes 7 and 64 (several blocks and colours): final p/phi bit-
#     identical across thread counts, within 1e-12 of seq (qdiff, norm-wise:
#     colouring changes the order of the increments of t1 and t2), norm
#     lines equal to seq's up to the last printed digit;
#   - with LOOM_RENUMBER=1, seq and openmp within 1e-12 of seq;
#   - the norm of p stays finite and bounded (the initial pulse has norm
#     ~0.2; an unstable step would grow without bound);
#   - mesh files with errors are rejected with a message; bad command lines
#     exit with status 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/wave
qdiff=$root/build/tests/qdiff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

N=16 ITERS=300
# Idle OpenMP threads sleep instead of spinning: on a loaded machine (fewer
# free cores than threads) spinning makes these tiny runs take seconds.
export OMP_WAIT_POLICY=passive
fail() { echo "FAIL wave: $*"; exit 1; }

for p in wave_mesh wave_seq wave_openmp wave_ref; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make wave)"
done
[ -x "$qdiff" ] || fail "$qdiff not built (make $qdiff)"

# run NAME PROG ARGS...: stdout to NAME.out, stderr to NAME.err
run() {
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: $* failed"; }
  grep -q '^wave: main loop wall time [0-9.]* s$' "$tmp/$name.err" || fail "$name: no wall time line"
}

# ---- the mesh file ----------------------------------------------------------
"$bin/wave_mesh" -n $N "$tmp/mesh.dat" || fail "wave_mesh failed"
nnode=$(((N + 1) * (N + 1))) ncell=$((2 * N * N))
[ "$(head -n 1 "$tmp/mesh.dat")" = "$nnode $ncell" ] || fail "mesh header is not '$nnode $ncell'"
[ "$(wc -l <"$tmp/mesh.dat")" -eq $((1 + nnode + ncell)) ] || fail "mesh has the wrong number of lines"
ls "$tmp"/mesh.dat.tmp.* >/dev/null 2>&1 && fail "wave_mesh left a temporary file"

# ---- seq against ref, bitwise -----------------------------------------------
run ref "$bin/wave_ref" "$tmp/mesh.dat" $ITERS "$tmp/ref.bin"
run seq "$bin/wave_seq" "$tmp/mesh.dat" $ITERS "$tmp/seq.bin"
diff -u "$tmp/ref.out" "$tmp/seq.out" || fail "norm lines differ between ref and seq"
cmp "$tmp/ref.bin" "$tmp/seq.bin" || fail "final p/phi differ between ref and seq"
bytes=$(stat -c %s "$tmp/seq.bin")
[ "$bytes" -eq $((2 * nnode * 8)) ] || fail "final state has $bytes bytes, expected $((2 * nnode * 8))"
[ "$(wc -l <"$tmp/seq.out")" -eq $((ITERS / 100)) ] || fail "expected $((ITERS / 100)) norm lines"

# the mesh generated in memory is the mesh of the file
run gen "$bin/wave_seq" $N $ITERS "$tmp/gen.bin"
cmp "$tmp/seq.bin" "$tmp/gen.bin" || fail "generated mesh (MESH = $N) differs from the file"
run genref "$bin/wave_ref" -n $N $ITERS "$tmp/genref.bin"
cmp "$tmp/seq.bin" "$tmp/genref.bin" || fail "generated mesh (-n $N) differs from the file"
diff -q "$tmp/seq.out" "$tmp/gen.out" >/dev/null || fail "norm lines differ for the generated mesh"

# the last step reports too when ITERS is not a multiple of 100
run odd "$bin/wave_seq" $N 150
[ "$(cut -c1-6 "$tmp/odd.out" | tr -d ' ' | tr '\n' ,)" = "100,150," ] || fail "expected norm lines for steps 100 and 150"

# ---- the norm stays finite and bounded ----------------------------------------
awk '{ if ($2 + 0 != $2 + 0 || !($2 > 0.01 && $2 < 1.0)) { print "bad norm at step " $1 ": " $2; exit 1 } }' \
  "$tmp/seq.out" || fail "norm of p not finite or outside (0.01, 1)"

# ---- openmp: bitwise across threads, close to seq ------------------------------
# close NORMS_A NORMS_B: same steps, norms equal up to one unit of the last
# printed digit (the states are within 1e-12, but a printed rounding may flip)
close() {
  paste "$1" "$2" | awk '{ d = $2 - $4; if (d < 0) d = -d;
    if ($1 != $3 || d > 1.01e-5 * $2) { print "step " $1 ": " $2 " vs " $3 " " $4; bad = 1 } }
    END { exit bad }'
}
worst=0
for block in default 7 64; do
  for t in 1 2 3; do
    if [ $block = default ]; then
      env -u LOOM_BLOCK_SIZE OMP_NUM_THREADS=$t "$bin/wave_openmp" "$tmp/mesh.dat" $ITERS "$tmp/omp$t.bin" \
        >"$tmp/omp$t.out" 2>"$tmp/omp$t.err" || { cat "$tmp/omp$t.err"; fail "wave_openmp ($t threads) failed"; }
    else
      OMP_NUM_THREADS=$t LOOM_BLOCK_SIZE=$block "$bin/wave_openmp" "$tmp/mesh.dat" $ITERS "$tmp/omp$t.bin" \
        >"$tmp/omp$t.out" 2>"$tmp/omp$t.err" || { cat "$tmp/omp$t.err"; fail "wave_openmp ($t threads, block $block) failed"; }
    fi
    close "$tmp/seq.out" "$tmp/omp$t.out" || fail "norm lines of openmp ($t threads, block $block) far from seq"
    [ $t = 1 ] && continue
    cmp -s "$tmp/omp1.bin" "$tmp/omp$t.bin" || fail "openmp p/phi of $t threads differ from 1 thread (block $block)"
    diff -q "$tmp/omp1.out" "$tmp/omp$t.out" >/dev/null || fail "openmp norm lines of $t threads differ from 1 thread (block $block)"
  done
  "$qdiff" "$tmp/seq.bin" "$tmp/omp1.bin" 1e-12 >"$tmp/qdiff.out" ||
    { cat "$tmp/qdiff.out"; fail "openmp p/phi far from seq (block $block)"; }
  d=$(sed -n 's/.*max relative difference \([^ ]*\).*/\1/p' "$tmp/qdiff.out")
  worst=$(awk -v a="$worst" -v b="$d" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
done

# renumbered (LOOM_RENUMBER=1: another element order, results fetched in the
# declared order): seq and openmp within 1e-12 of seq
LOOM_RENUMBER=1 "$bin/wave_seq" "$tmp/mesh.dat" $ITERS "$tmp/ren_seq.bin" >/dev/null 2>"$tmp/ren.err" ||
  { cat "$tmp/ren.err"; fail "wave_seq with LOOM_RENUMBER=1 failed"; }
LOOM_RENUMBER=1 OMP_NUM_THREADS=2 LOOM_BLOCK_SIZE=16 "$bin/wave_openmp" "$tmp/mesh.dat" $ITERS "$tmp/ren_omp.bin" \
  >/dev/null 2>"$tmp/ren.err" || { cat "$tmp/ren.err"; fail "wave_openmp with LOOM_RENUMBER=1 failed"; }
for f in ren_seq ren_omp; do
  "$qdiff" "$tmp/seq.bin" "$tmp/$f.bin" 1e-12 >"$tmp/qdiff.out" ||
    { cat "$tmp/qdiff.out"; fail "$f (LOOM_RENUMBER=1) p/phi far from seq"; }
done

# ---- errors -------------------------------------------------------------------
expect_status() { # STATUS PATTERN PROG ARGS...: exit status and a stderr line
  local want=$1 pattern=$2
  shift 2
  "$@" >/dev/null 2>"$tmp/err.txt"
  local got=$?
  [ "$got" -eq "$want" ] || { cat "$tmp/err.txt"; fail "'$*' exited with $got, expected $want"; }
  grep -q -- "$pattern" "$tmp/err.txt" || { cat "$tmp/err.txt"; fail "'$*': no '$pattern' on stderr"; }
}
expect_status 2 "expected -n N OUT" "$bin/wave_mesh" 16 "$tmp/x.dat"
expect_status 2 "N must be an integer" "$bin/wave_mesh" -n 0 "$tmp/x.dat"
expect_status 2 "N must be an integer" "$bin/wave_mesh" -n 1x "$tmp/x.dat"
expect_status 1 "cannot create" "$bin/wave_mesh" -n 4 "$tmp/no/such/dir/x.dat"
expect_status 2 "expected MESH ITERS" "$bin/wave_seq" "$tmp/mesh.dat"
expect_status 2 "ITERS must be a positive integer" "$bin/wave_seq" "$tmp/mesh.dat" 0
expect_status 2 "mesh size N must be" "$bin/wave_ref" -n 0 10
expect_status 1 "cannot open" "$bin/wave_seq" "$tmp/none.dat" 10
# a cell listed clockwise
{ echo "3 1"; echo "0 0"; echo "1 0"; echo "0 1"; echo "0 2 1"; } >"$tmp/cw.dat"
expect_status 1 "cw.dat:5: cells section, cell 0 (0 2 1): expected a counter-clockwise" "$bin/wave_seq" "$tmp/cw.dat" 10
# a node index out of range, a truncated file, trailing data
{ echo "3 1"; echo "0 0"; echo "1 0"; echo "0 1"; echo "0 1 3"; } >"$tmp/idx.dat"
expect_status 1 "idx.dat:5: cells section, cell 0, n3: expected a node index in \[0, 3), found '3'" "$bin/wave_ref" "$tmp/idx.dat" 10
head -n 20 "$tmp/mesh.dat" >"$tmp/short.dat"
expect_status 1 "short.dat:21: nodes section, node 19, x: expected a finite real number, found end of file" "$bin/wave_seq" "$tmp/short.dat" 10
{ cat "$tmp/mesh.dat"; echo 7; } >"$tmp/long.dat"
expect_status 1 "after the last cell: expected end of file" "$bin/wave_seq" "$tmp/long.dat" 10

echo "wave: PASS (N=$N, $ITERS steps: seq and ref norm lines and p/phi bit-identical, file and generated mesh identical; openmp 1-3 threads x block default,7,64 identical across threads, max relative difference to seq $worst; norms $(awk '{ printf "%s%s", sep, $2; sep = "," }' "$tmp/seq.out"))"
