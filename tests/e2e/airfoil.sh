#!/usr/bin/env bash
# Airfoil end to end: Loom's seq build against the hand-written reference.
#
#   tests/e2e/airfoil.sh small   generated 40x60 mesh, 300 iterations:
#                                rms lines and final q bit-identical
#   tests/e2e/airfoil.sh ref     the reference mesh (generated, 720,000
#                                cells), 1000 iterations: OP2's published rms
#                                table exactly, and q bit-identical to ref
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

mode=${1:-small}
case $mode in
small)
  "$bin/naca0012" -I 40 -J 60 "$tmp/mesh.dat" || fail "mesh generation"
  run_pair "$tmp/mesh.dat" 300
  [ "$(wc -l <"$tmp/seq.out")" -eq 3 ] || fail "expected 3 rms lines"
  bytes=$(stat -c %s "$tmp/q_seq.bin")
  [ "$bytes" -eq $((3 * 40 * 60 * 4 * 8)) ] || fail "q has $bytes bytes"
  echo "airfoil small: PASS (rms lines and $bytes bytes of q identical)"
  ;;
ref)
  mesh=$bin/new_grid.dat
  [ -f "$mesh" ] || "$bin/naca0012" -I 400 -J 600 "$mesh" || fail "mesh generation"
  cat >"$tmp/expected" <<'TABLE'
 100  5.02186e-04
 200  3.41746e-04
 300  2.63430e-04
 400  2.16288e-04
 500  1.84659e-04
 600  1.60866e-04
 700  1.42253e-04
 800  1.27627e-04
 900  1.15810e-04
 1000  1.06011e-04
TABLE
  run_pair "$mesh" 1000
  diff -u "$tmp/expected" "$tmp/seq.out" || fail "rms table differs from OP2's"
  echo "airfoil ref: PASS (OP2's rms table exact; q bit-identical to the reference)"
  ;;
*) echo "usage: $0 small|ref" >&2; exit 2 ;;
esac
