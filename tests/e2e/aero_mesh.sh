#!/usr/bin/env bash
# End-to-end test of the Aero FE mesh generator (samples/aero/naca_fem.c).
#
# usage: tests/e2e/aero_mesh.sh [GENERATOR]
#   GENERATOR defaults to build/samples/aero/naca_fem under the repo root.
#
# 1. Small mesh (-I 20 -J 30): the header counts are the closed forms
#    nnode = (3I+1)(J+1) - (I+1), ncell = 3IJ, nbnode = 3I + 2J; the file
#    has exactly 1 + nnode + ncell + nbnode lines, each in its %f / %d
#    layout; every id is in [0, nnode), every node is in some cell, and no
#    far-field node is listed twice.
# 2. Options: --help prints the usage (status 0); -I abc, -I 0, a -J too
#    large for int counts and a missing OUT are refused with status 2 and
#    a one-line "error:" naming what was wrong; a write that fails (file
#    size limit) gives status 1.  None of them leaves a file behind.
# 3. Reference mesh: the default 400 x 600 mesh must be byte-identical to
#    the FE_grid.dat OP2's naca_fem.m wrote under Octave 7.3
#    (../shared/data/aero/FE_grid.dat.xz next to the repo).  Skipped with
#    LOOM_E2E_QUICK=1, or with a SKIP line if the reference is absent.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GEN=${1:-$ROOT/build/samples/aero/naca_fem}
REF_XZ=$ROOT/../shared/data/aero/FE_grid.dat.xz

fail() { echo "FAIL aero_mesh: $*" >&2; exit 1; }

[ -x "$GEN" ] || fail "generator not found or not executable: $GEN"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/aero_mesh.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- small mesh
I=20
J=30
"$GEN" -I "$I" -J "$J" "$TMP/small.dat" || fail "-I $I -J $J failed"
awk -v I="$I" -v J="$J" '
    function fail(msg) {
        print "FAIL aero_mesh: small mesh line " NR ": " msg > "/dev/stderr"
        bad = 1; exit 1
    }
    function check_id(v) {
        if (v !~ /^[0-9]+$/ || v + 0 >= nn) fail("node id " v " not in [0," nn ")")
    }
    NR == 1 {
        want_n = (3*I + 1) * (J + 1) - (I + 1); want_c = 3*I*J; want_b = 3*I + 2*J
        if ($0 != " " want_n " " want_c " " want_b " ")
            fail("header \"" $0 "\" is not \" " want_n " " want_c " " want_b " \"")
        nn = want_n; end_n = 1 + nn; end_c = end_n + want_c; end_b = end_c + want_b
        next
    }
    NR <= end_n {
        if ($0 !~ /^ -?[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9] -?[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9] $/)
            fail("node line \"" $0 "\" is not \" %f %f \"")
        next
    }
    NR <= end_c {
        if ($0 !~ /^ [0-9]+ [0-9]+ [0-9]+ [0-9]+ $/) fail("cell line \"" $0 "\" is not \" %d %d %d %d \"")
        for (k = 1; k <= 4; k++) { check_id($k); used[$k + 0] = 1 }
        next
    }
    NR <= end_b {
        if ($0 !~ /^ [0-9]+ $/) fail("far-field line \"" $0 "\" is not \" %d \"")
        check_id($1)
        if ($1 in ff) fail("far-field node " $1 " listed twice")
        ff[$1] = 1
        next
    }
    { fail("a line after the far-field nodes") }
    END {
        if (bad) exit 1
        if (NR != end_b) {
            print "FAIL aero_mesh: small mesh has " NR " lines, want " end_b > "/dev/stderr"
            exit 1
        }
        for (n = 0; n < nn; n++)
            if (!(n in used)) {
                print "FAIL aero_mesh: small mesh: node " n " is in no cell" > "/dev/stderr"
                exit 1
            }
        printf "aero_mesh small: PASS (%dx%d: %d nodes, %d cells, %d far-field nodes)\n", \
            I, J, nn, want_c, want_b
    }
' "$TMP/small.dat"

# -------------------------------------------------------------------- options
mkdir "$TMP/opt"
OUT=$TMP/opt/m.dat

# refused STATUS PATTERN ARGS...: status and one-line message, no file left
refused() {
    local want=$1 pattern=$2 rc=0
    shift 2
    "$GEN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "$*: status $rc, want $want"; }
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err" >&2; fail "$*: not a one-line message"; }
    grep -q -- "$pattern" "$TMP/err" || { cat "$TMP/err" >&2; fail "$*: no '$pattern'"; }
    [ -z "$(ls -A "$TMP/opt")" ] || fail "$*: left $(ls -A "$TMP/opt" | tr '\n' ' ')"
}

"$GEN" --help >"$TMP/out" || fail "--help: status $?"
grep -q '^usage: .*\[-I N\] \[-J N\] OUT.dat' "$TMP/out" || fail "--help prints no usage"
refused 2 "error: -I takes a whole number, not 'abc'" -I abc "$OUT"
refused 2 "error: -I must be at least 1, not '0'" -I 0 "$OUT"
refused 2 "error: -J 99999999999 is too large" -J 99999999999 "$OUT"
refused 2 "error: -I 30000 -J 30000 is too large" -I 30000 -J 30000 "$OUT"
refused 2 "error: -J needs a value" "$OUT" -J
refused 2 "error: no output file given" -I 20 -J 30
refused 2 "error: unknown option '-K'" -K 3 "$OUT"
# a write error (the file size limit: 10 KiB against about 80 KB)
rc=0
(ulimit -f 20; exec "$GEN" -I "$I" -J "$J" "$OUT") 2>"$TMP/err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$TMP/err" >&2; fail "write error: status $rc, want 1"; }
grep -q "cannot write" "$TMP/err" || { cat "$TMP/err" >&2; fail "write error not reported"; }
[ -z "$(ls -A "$TMP/opt")" ] || fail "write error: left $(ls -A "$TMP/opt" | tr '\n' ' ')"
echo "aero_mesh options: PASS (--help, 7 refused, a write error; no file left)"

# ------------------------------------------------------------ reference mesh
if [ "${LOOM_E2E_QUICK:-0}" = 1 ]; then
    echo "aero_mesh reference: skipped (LOOM_E2E_QUICK=1)"
    exit 0
fi
if [ ! -f "$REF_XZ" ]; then
    echo "SKIP: aero reference mesh not found at $REF_XZ"
    exit 0
fi

"$GEN" "$TMP/gen.dat" || fail "the default mesh failed"
xz -dc "$REF_XZ" >"$TMP/ref.dat"

if ! cmp -s "$TMP/ref.dat" "$TMP/gen.dat"; then
    echo "FAIL aero_mesh: generated 400x600 mesh differs from $REF_XZ" >&2
    cmp "$TMP/ref.dat" "$TMP/gen.dat" >&2 || true
    echo "sizes: reference $(wc -c <"$TMP/ref.dat"), generated $(wc -c <"$TMP/gen.dat") bytes" >&2
    echo "first differing lines (line: reference | generated):" >&2
    paste -d '|' "$TMP/ref.dat" "$TMP/gen.dat" |
        awk -F'|' '$1 != $2 { print NR ":" $1 "|" $2; if (++n == 10) exit }' >&2
    exit 1
fi
echo "aero_mesh reference: PASS ($(wc -c <"$TMP/gen.dat" | tr -d ' ') bytes identical)"
