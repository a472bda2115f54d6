#!/usr/bin/env bash
# Airfoil end to end: Loom's seq build against the hand-written reference.
#
#   tests/e2e/airfoil.sh small   generated 40x60 mesh, 300 iterations:
#                                rms lines and final q bit-identical, for
#                                the default build and the builds with
#                                fusion or vectorization off, and with
#                                staged loops forced staged or element by
#                                element (LOOM_VECTOR=1, 0; openmp: q the
#                                same both ways); an unwritable OUT fails at
#                                once (seq and ref)
#   tests/e2e/airfoil.sh openmp  generated 40x60 mesh: the OpenMP build with
#                                1-4 threads and several block sizes; q
#                                bit-identical across thread counts, close
#                                to seq (colour order changes the order of
#                                increments), same rms lines; every plan
#                                verified on the mesh (LOOM_CHECK_PLANS=1)
#   tests/e2e/airfoil.sh ref     the reference mesh (generated, 720,000
#                                cells), 1000 iterations: OP2's published rms
#                                table exactly, and q bit-identical to ref;
#                                OpenMP with 1 and 2 threads: the same
#                                table, q bit-identical between them
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/airfoil
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL airfoil ($mode): $*"; exit 1; }

run_pair() { # MESH ITERS: both programs at once, one core each
  "$bin/airfoil_seq" "$1" "$2" "$tmp/q_seq.bin" >"$tmp/seq.out" 2>"$tmp/seq.err" &
  local seq_pid=$!
  "$bin/airfoil_ref" "$1" "$2" "$tmp/q_ref.bin" >"$tmp/ref.out" 2>"$tmp/ref.err" ||
    { cat "$tmp/ref.err"; fail "airfoil_ref failed"; }
  wait "$seq_pid" || { cat "$tmp/seq.err"; fail "airfoil_seq failed"; }
  diff -u "$tmp/ref.out" "$tmp/seq.out" || fail "rms lines differ between ref and seq"
  cmp "$tmp/q_ref.bin" "$tmp/q_seq.bin" || fail "final q differs between ref and seq"
  [ -s "$tmp/q_seq.bin" ] || fail "no q written"
}

qdiff=$root/build/tests/qdiff

# openmp_runs MESH ITERS BLOCK: q of 1..4 threads identical; rms as seq.
openmp_runs() {
  local t
  for t in 1 2 3 4; do
    OMP_NUM_THREADS=$t LOOM_BLOCK_SIZE=$3 LOOM_CHECK_PLANS=1 "$bin/airfoil_openmp" "$1" "$2" "$tmp/q_omp$t.bin" \
      >"$tmp/omp$t.out" 2>"$tmp/omp$t.err" || { cat "$tmp/omp$t.err"; fail "airfoil_openmp failed"; }
    diff -u "$tmp/seq.out" "$tmp/omp$t.out" || fail "rms lines of openmp ($t threads, block $3) differ from seq"
    [ "$t" = 1 ] && continue
    "$qdiff" "$tmp/q_omp1.bin" "$tmp/q_omp$t.bin" >/dev/null ||
      fail "q of $t threads differs from 1 thread (block $3)"
  done
  "$qdiff" "$tmp/q_seq.bin" "$tmp/q_omp1.bin" 1e-10 >"$tmp/qdiff.out" ||
    { cat "$tmp/qdiff.out"; fail "openmp q far from seq (block $3)"; }
}

mode=${1:-small}
case $mode in
openmp)
  "$bin/naca0012" -I 40 -J 60 "$tmp/mesh.dat" || fail "mesh generation"
  "$bin/airfoil_seq" "$tmp/mesh.dat" 300 "$tmp/q_seq.bin" >"$tmp/seq.out" 2>/dev/null || fail "airfoil_seq failed"
  for block in 1 7 64 512; do
    openmp_runs "$tmp/mesh.dat" 300 "$block"
  done
  echo "airfoil openmp: PASS (1-4 threads x block sizes 1,7,64,512: q identical across threads; $(cut -d' ' -f2- "$tmp/qdiff.out"))"
  ;;
small)
  "$bin/naca0012" -I 40 -J 60 "$tmp/mesh.dat" || fail "mesh generation"
  run_pair "$tmp/mesh.dat" 300
  [ "$(wc -l <"$tmp/seq.out")" -eq 3 ] || fail "expected 3 rms lines"
  bytes=$(stat -c %s "$tmp/q_seq.bin")
  [ "$bytes" -eq $((3 * 40 * 60 * 4 * 8)) ] || fail "q has $bytes bytes"
  mkfifo "$tmp/pipe"
  cat "$tmp/pipe" >"$tmp/q_pipe.bin" &
  "$bin/airfoil_seq" "$tmp/mesh.dat" 300 "$tmp/pipe" >/dev/null 2>&1 || fail "airfoil_seq OUT=pipe failed"
  wait
  [ -p "$tmp/pipe" ] || fail "OUT=pipe was replaced by a file"
  cmp "$tmp/q_pipe.bin" "$tmp/q_seq.bin" || fail "q written into a pipe differs"
  # An output path that cannot be written fails at once (exit 2), before
  # the mesh is read or an iteration runs, and leaves nothing behind.
  for p in "$bin/airfoil_seq" "$bin/airfoil_ref"; do
    timeout 20 "$p" "$tmp/mesh.dat" 1000000000 "$tmp/no/such/dir/q.bin" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    [ $rc -eq 2 ] || fail "$(basename "$p") with an unwritable OUT exited $rc, not 2 at once"
    grep -q "q.bin.tmp.0: cannot create: No such file or directory" "$tmp/bad.err" ||
      { cat "$tmp/bad.err"; fail "$(basename "$p"): no message naming the unwritable OUT"; }
    [ ! -s "$tmp/bad.out" ] || fail "$(basename "$p") iterated before failing on OUT"
  done
  ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left by the OUT check"
  for v in nofuse novec plain; do
    "$bin/airfoil_$v" "$tmp/mesh.dat" 300 "$tmp/q_$v.bin" >"$tmp/$v.out" 2>/dev/null ||
      fail "airfoil_$v failed"
    diff -u "$tmp/ref.out" "$tmp/$v.out" || fail "rms lines differ between ref and $v"
    cmp "$tmp/q_ref.bin" "$tmp/q_$v.bin" || fail "final q differs between ref and $v"
  done
  # staged loops forced either way (LOOM_VECTOR), in their AVX-512 twins
  # or not (LOOM_AVX512), and the openmp build's
  for v in 0 1; do
    for w in 0 1; do
      LOOM_VECTOR=$v LOOM_AVX512=$w "$bin/airfoil_seq" "$tmp/mesh.dat" 300 "$tmp/q_vec$v$w.bin" \
        >"$tmp/vec$v$w.out" 2>/dev/null || fail "airfoil_seq LOOM_VECTOR=$v LOOM_AVX512=$w failed"
      diff -u "$tmp/ref.out" "$tmp/vec$v$w.out" ||
        fail "rms lines differ between ref and LOOM_VECTOR=$v LOOM_AVX512=$w"
      cmp "$tmp/q_ref.bin" "$tmp/q_vec$v$w.bin" ||
        fail "final q differs between ref and LOOM_VECTOR=$v LOOM_AVX512=$w"
    done
    OMP_NUM_THREADS=2 LOOM_VECTOR=$v "$bin/airfoil_openmp" "$tmp/mesh.dat" 300 "$tmp/q_ovec$v.bin" \
      >"$tmp/ovec$v.out" 2>/dev/null || fail "airfoil_openmp LOOM_VECTOR=$v failed"
    [ $v = 0 ] || cmp "$tmp/q_ovec0.bin" "$tmp/q_ovec1.bin" ||
      fail "openmp's final q differs between LOOM_VECTOR=0 and 1"
  done
  # compilers free to contract a * b + c (GNU C modes; clang always) for
  # this CPU (-march=native: FMA where it has it) still give airfoil_ref's q
  # staged and element by element: the generated file turns contraction
  # off.  (Under the sanitizers libloom is GCC's ASan build: GCC only.)
  ccs="${CC:-gcc} clang-14" san=
  [ "${LOOM_E2E_SANITIZE:-0}" = 1 ] && ccs=${CC:-gcc} san="-fsanitize=address,undefined"
  for cc in $ccs; do
    # shellcheck disable=SC2086
    $cc -std=gnu17 -O3 -march=native -fno-math-errno $san -I"$root/runtime/include" \
      -I"$root/samples/airfoil" -o "$tmp/fma" "$bin/airfoil_seq.c" "$root/build/lib/libloom.a" -lm ||
      fail "$cc -std=gnu17 -march=native could not build airfoil_seq.c"
    for v in 0 1; do
      LOOM_VECTOR=$v "$tmp/fma" "$tmp/mesh.dat" 300 "$tmp/q_fma$v.bin" >/dev/null 2>&1 ||
        fail "airfoil_seq.c built by $cc -march=native failed (LOOM_VECTOR=$v)"
      cmp "$tmp/q_ref.bin" "$tmp/q_fma$v.bin" ||
        fail "final q of airfoil_seq.c built by $cc -std=gnu17 -march=native (LOOM_VECTOR=$v) differs from ref"
    done
  done
  # where the CPU has what twins are compiled for, a GCC x86-64 build runs them
  twins=no
  if [ "$(uname -m)" = x86_64 ] && "${CC:-gcc}" -dM -E -x c /dev/null | grep -q '__GNUC__' &&
     ! "${CC:-gcc}" -dM -E -x c /dev/null | grep -q '__clang__' &&
     (for f in avx512f avx512vl avx512bw avx512dq avx512cd; do grep -qw $f /proc/cpuinfo || exit 1; done); then
    LOOM_DIAG=1 "$bin/airfoil_seq" "$tmp/mesh.dat" 2 >/dev/null 2>"$tmp/twins.err" || fail "airfoil_seq LOOM_DIAG=1 failed"
    grep -q '^loom: loops that time their turns run their AVX-512 twins' "$tmp/twins.err" ||
      fail "airfoil_seq does not run its AVX-512 twins on a CPU with AVX-512: $(grep twin "$tmp/twins.err")"
    twins=yes
  fi
  echo "airfoil small: PASS (rms lines and $bytes bytes of q identical; also without fusion, vectorization or both, and with LOOM_VECTOR=0 and 1, LOOM_AVX512=0 and 1, built by ${ccs/ / and } with -std=gnu17 -march=native (twins run: $twins; openmp: identical to each other))"
  ;;
ref)
  mesh=$bin/new_grid.dat
  [ -f "$mesh" ] || "$bin/naca0012" -I 400 -J 600 "$mesh" || fail "mesh generation"
  # OP2's published rms table (../shared/data/airfoil/README.md)
  cp "$root/tests/e2e/op2_airfoil_rms.txt" "$tmp/expected"
  run_pair "$mesh" 1000
  diff -u "$tmp/expected" "$tmp/seq.out" || fail "rms table differs from OP2's"
  for t in 1 2; do
    OMP_NUM_THREADS=$t LOOM_CHECK_PLANS=1 "$bin/airfoil_openmp" "$mesh" 1000 "$tmp/q_omp$t.bin" >"$tmp/omp$t.out" 2>"$tmp/omp$t.err" ||
      { cat "$tmp/omp$t.err"; fail "airfoil_openmp failed"; }
    diff -u "$tmp/expected" "$tmp/omp$t.out" || fail "openmp ($t threads) rms table differs from OP2's"
  done
  "$qdiff" "$tmp/q_omp1.bin" "$tmp/q_omp2.bin" >/dev/null || fail "openmp q differs between 1 and 2 threads"
  mpi_note=""
  if [ -x "$bin/airfoil_mpi" ] && command -v mpirun >/dev/null; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
      mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 -np 2 \
      "$bin/airfoil_mpi" "$mesh" 1000 "$tmp/q_mpi.bin" >"$tmp/mpi.out" 2>"$tmp/mpi.err" ||
      { cat "$tmp/mpi.err"; fail "airfoil_mpi at 2 ranks failed"; }
    diff -u "$tmp/expected" "$tmp/mpi.out" || fail "mpi (2 ranks) rms table differs from OP2's"
    d=$("$qdiff" "$tmp/q_seq.bin" "$tmp/q_mpi.bin" | tail -n 1)
    awk -v line="$d" 'BEGIN { n = split(line, w, " "); for (i = 1; i <= n; i++)
        if (w[i] == "difference") { exit !(w[i + 1] + 0 <= 1e-12) } exit 1 }' ||
      fail "mpi (2 ranks) q not within 1e-12 of seq: $d"
    mpi_note="; mpi 2 ranks: rms table exact, q within 1e-12 of seq (${d#*difference })"
  fi
  echo "airfoil ref: PASS (OP2's rms table exact for seq and openmp 1/2 threads; seq q bit-identical to the reference, openmp q identical for 1 and 2 threads$mpi_note)"
  ;;
*) echo "usage: $0 small|ref" >&2; exit 2 ;;
esac
