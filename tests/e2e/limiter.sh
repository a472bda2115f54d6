#!/usr/bin/env bash
# The vertex-based slope limiter end to end (samples/limiter/): min and
# max on dats through a map, on the 48 x 48 perturbed triangle mesh.
#   - limiter_seq prints what limiter_ref (plain C, the same kernels)
#     prints, bit for bit: the sums of the nodes' bounds, the least limiter
#     value, how many cells are limited, the largest excess over the bounds
#     (the program exits 1 when a limited reconstruction leaves them);
#   - the same lines, bit for bit, from limiter_openmp at 1, 2 and 3
#     threads (plans checked, block sizes default and 7), seq with
#     LOOM_RENUMBER=1, limiter_mpi at 1-4 ranks with each partitioner, and
#     limiter_mpi_openmp at 2 ranks x 2 threads: a minimum or maximum does
#     not depend on the order of its contributions;
#   - loomc --report: the bounds loop fused with the loop producing u, and
#     no unseen function (HUGE_VAL is a compiler builtin);
#   - a bad size is refused with status 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/limiter
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL limiter: $*"; exit 1; }
N=48
export OMP_WAIT_POLICY=passive

for p in limiter_ref limiter_seq limiter_openmp; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make limiter)"
done

"$bin/limiter_ref" $N >"$tmp/ref.out" || fail "limiter_ref failed"
[ "$(wc -l <"$tmp/ref.out")" -eq 3 ] || fail "limiter_ref printed $(wc -l <"$tmp/ref.out") lines, not 3"
grep -q "^largest excess over the bounds: " "$tmp/ref.out" || fail "no excess line"
grep -q "of $((2 * N * N)) cells limited" "$tmp/ref.out" || fail "wrong cell count"
# the jump is limited: some cells, not all
limited=$(sed -n 's/.*, \([0-9]*\) of .*/\1/p' "$tmp/ref.out")
[ "$limited" -gt 0 ] && [ "$limited" -lt $((2 * N * N)) ] || fail "$limited cells limited"

same() { # NAME CMD...: CMD prints ref's lines
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: $* failed"; }
  diff -u "$tmp/ref.out" "$tmp/$name.out" || fail "$name differs from limiter_ref"
}
same seq "$bin/limiter_seq" $N
same renumbered env LOOM_RENUMBER=1 "$bin/limiter_seq" $N
for t in 1 2 3; do
  same omp$t env OMP_NUM_THREADS=$t LOOM_CHECK_PLANS=1 "$bin/limiter_openmp" $N
  same omp${t}b7 env OMP_NUM_THREADS=$t LOOM_BLOCK_SIZE=7 LOOM_CHECK_PLANS=1 \
    "$bin/limiter_openmp" $N
done
ok="seq, renumbered, openmp 1-3 threads"

if command -v mpirun >/dev/null && [ -x "$bin/limiter_mpi" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  mpi() { # NP PROG ARGS...
    local np=$1
    shift
    timeout 120 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 \
      -x LOOM_PARTITIONER -x OMP_NUM_THREADS -np "$np" "$@"
  }
  for np in 1 2 3 4; do
    for part in metis scotch ptscotch block; do
      LOOM_PARTITIONER=$part same mpi$np$part mpi $np "$bin/limiter_mpi" $N
    done
  done
  OMP_NUM_THREADS=2 LOOM_PARTITIONER=metis same mpiomp mpi 2 "$bin/limiter_mpi_openmp" $N
  ok="$ok, mpi 1-4 ranks x 4 partitioners, mpi+openmp 2 x 2"
fi

"$root/build/bin/loomc" --target=seq --report -I"$root/samples/limiter" \
  "$root/samples/limiter/limiter.c" -o "$tmp/gen.c" >"$tmp/report" || fail "loomc failed"
grep -q "fused bounds into centroid over cells" "$tmp/report" || fail "bounds not fused"
! grep -q "whose body loomc does not see" "$tmp/report" || fail "an unseen function in the report"

"$bin/limiter_seq" 0 >/dev/null 2>"$tmp/bad.err"
[ $? -eq 2 ] && grep -q "N must be an integer from 1 to 4000, not '0'" "$tmp/bad.err" ||
  fail "a bad size was not refused with status 2"
echo "limiter: $ok: identical to limiter_ref; report and options checked, PASS"
