#!/usr/bin/env bash
# Lappy's diamond on affine loops end to end (samples/outer/):
#   - outer_seq (no hint), outer_pin (pin(k)), outer_pin_cse (pin_cse(k))
#     and outer_openmp (no hint, 1 and 2 threads) against outer_ref (plain
#     C), bitwise (the per-element operations are the same, in the same
#     order), at sizes 1, 7 and 64;
#   - the generated code: pin_cse's has the separate loop nest over the
#     duplicated domain (i_dup, j_dup) and pin's has not: it evaluates k
#     into locals inside the consumer's loop; no version keeps matvec's own
#     loop; openmp's marks the outermost loops parallel;
#   - --report says what loomc chose without a hint, and why;
#   - a bad command line exits with status 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/samples/outer
loomc=$root/build/bin/loomc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_WAIT_POLICY=passive
fail() { echo "FAIL outer: $*"; exit 1; }

for p in outer_seq outer_pin outer_pin_cse outer_openmp outer_ref; do
  [ -x "$bin/$p" ] || fail "$bin/$p not built (make outer)"
done

# ---- results: bitwise equal to the reference --------------------------------
for n in 1 7 64; do
  "$bin/outer_ref" $n "$tmp/ref.bin" >"$tmp/ref.out" || fail "outer_ref $n failed"
  [ "$(stat -c %s "$tmp/ref.bin")" -eq $((n * n * 8)) ] || fail "outer_ref $n: wrong output size"
  for p in outer_seq outer_pin outer_pin_cse outer_openmp; do
    for t in 1 2; do
      [ $t = 2 ] && [ $p != outer_openmp ] && continue
      OMP_NUM_THREADS=$t "$bin/$p" $n "$tmp/$p.bin" >"$tmp/$p.out" || fail "$p $n failed"
      cmp -s "$tmp/ref.bin" "$tmp/$p.bin" || fail "$p (n=$n, $t threads): c differs from outer_ref"
      diff -q "$tmp/ref.out" "$tmp/$p.out" >/dev/null || fail "$p (n=$n): printed sum differs"
    done
  done
done

# ---- the generated code -------------------------------------------------------
cse=$bin/outer_pin_cse.c pin=$bin/outer_pin.c seq=$bin/outer_seq.c omp=$bin/outer_openmp.c
grep -q 'for (int i_dup = 0; i_dup < n; i_dup += 1)' "$cse" || fail "pin_cse: no loop over the duplicated i_dup"
grep -q 'matvec(&A\[i_dup\]\[j_dup\], &x\[j_dup\], &k\[i_dup\]);' "$cse" || fail "pin_cse: matvec is not called over the duplicated domain"
grep -q 'outer(&k\[i\], &k\[j\], &c\[i\]\[j\]);' "$cse" || fail "pin_cse: outer does not read k from memory"
grep -q 'int [a-z]*_dup' "$pin" && fail "pin: has a duplicated loop"
grep -q 'double loom_k_1 = k\[i\];' "$pin" || fail "pin: no local for k[i]"
grep -q 'matvec(&A\[j\]\[j_k\], &x\[j_k\], &loom_k_2);' "$pin" || fail "pin: k[j] is not evaluated into a local"
grep -q 'outer(&loom_k_1, &loom_k_2, &c\[i\]\[j\]);' "$pin" || fail "pin: outer does not read the locals"
for f in "$cse" "$pin" "$seq"; do
  grep -q 'matvec(&A\[i\]\[j\], &x\[j\], &k\[i\]);' "$f" && fail "$(basename "$f"): matvec still has its own loop"
  grep -q '#pragma omp' "$f" && fail "$(basename "$f"): OpenMP in seq code"
done
[ "$(grep -c '#pragma omp parallel for' "$omp")" -eq 2 ] || fail "openmp: expected 2 parallel loops"

# ---- the report ----------------------------------------------------------------
"$loomc" --report -I"$root/samples/outer" -I"$root/samples/common" "$root/samples/outer/outer.c" >"$tmp/report.txt" ||
  fail "loomc --report failed"
grep -q 'temporary k: pin_cse (chosen): its consumer at line [0-9]* reads each element more than once (k\[i\], k\[j\] over \[i, j\])' "$tmp/report.txt" ||
  { cat "$tmp/report.txt"; fail "report: no reason for the choice of pin_cse"; }
"$loomc" --report -DOUTER_PIN -I"$root/samples/outer" -I"$root/samples/common" "$root/samples/outer/outer.c" >"$tmp/report.txt" ||
  fail "loomc --report -DOUTER_PIN failed"
grep -q 'temporary k: pin (hinted)' "$tmp/report.txt" || { cat "$tmp/report.txt"; fail "report: pin hint not shown"; }

# ---- errors ----------------------------------------------------------------------
"$bin/outer_seq" 0 "$tmp/x.bin" >/dev/null 2>"$tmp/err.txt"
[ $? -eq 2 ] && grep -q usage "$tmp/err.txt" || fail "outer_seq 0: expected usage and status 2"

echo "outer: PASS (no hint, pin, pin_cse, openmp 1-2 threads: bitwise equal to outer_ref at n = 1, 7, 64; pin_cse has the duplicated loop, pin has not)"
