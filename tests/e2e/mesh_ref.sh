#!/usr/bin/env bash
# End-to-end test of the NACA0012 mesh generator (samples/airfoil/naca0012.c).
#
# usage: tests/e2e/mesh_ref.sh [GENERATOR]
#   GENERATOR defaults to build/samples/airfoil/naca0012 under the repo root.
#
# 1. Small mesh (-I 20 -J 30): the header counts must match the closed-form
#    formulas and every cell/edge/boundary-edge index must be in range.
# 2. Reference mesh: the default 400 x 600 mesh must be byte-identical to
#    OP2's new_grid.dat (../shared/data/airfoil/new_grid.dat.xz next to the
#    repo).  If that file is absent this part prints SKIP and the script
#    exits 0.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GEN=${1:-$ROOT/build/samples/airfoil/naca0012}
REF_XZ=$ROOT/../shared/data/airfoil/new_grid.dat.xz

if [ ! -x "$GEN" ]; then
    echo "FAIL: generator not found or not executable: $GEN" >&2
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mesh_ref.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- small mesh
I=20
J=30
"$GEN" -I "$I" -J "$J" "$TMP/small.dat"
awk -v I="$I" -v J="$J" '
    function fail(msg) { print "FAIL: small mesh line " NR ": " msg > "/dev/stderr"; bad = 1; exit 1 }
    function check_range(v, hi, what) {
        if (v !~ /^[0-9]+$/ || v + 0 >= hi) fail(what " index " v " not in [0," hi ")")
    }
    NR == 1 {
        want_n = (3*I + 1) * (J + 1); want_c = 3*I*J
        want_e = (3*I - 1) * J + 3*I*(J - 1) + I; want_b = I + 3*I + 2*J
        if (NF != 4 || $1 != want_n || $2 != want_c || $3 != want_e || $4 != want_b)
            fail("header \"" $0 "\" != " want_n " " want_c " " want_e " " want_b)
        nn = $1; nc = $2; ne = $3; nb = $4
        end_n = 1 + nn; end_c = end_n + nc; end_e = end_c + ne; end_b = end_e + nb
        next
    }
    NR <= end_n { if (NF != 2) fail("node line needs 2 fields"); next }
    NR <= end_c {
        if (NF != 4) fail("cell line needs 4 fields")
        for (k = 1; k <= 4; k++) check_range($k, nn, "cell node")
        next
    }
    NR <= end_e {
        if (NF != 4) fail("edge line needs 4 fields")
        check_range($1, nn, "edge node"); check_range($2, nn, "edge node")
        check_range($3, nc, "edge cell"); check_range($4, nc, "edge cell")
        next
    }
    NR <= end_b {
        if (NF != 4) fail("boundary edge line needs 4 fields")
        check_range($1, nn, "bedge node"); check_range($2, nn, "bedge node")
        check_range($3, nc, "bedge cell")
        if ($4 != 1 && $4 != 2) fail("bedge flag " $4 " not 1 or 2")
        next
    }
    { fail("unexpected extra line") }
    END {
        if (bad) exit 1
        if (NR != end_b) { print "FAIL: small mesh has " NR " lines, want " end_b > "/dev/stderr"; exit 1 }
        printf "mesh_small: PASS (%dx%d: %d nodes, %d cells, %d edges, %d bedges)\n", I, J, nn, nc, ne, nb
    }
' "$TMP/small.dat"

# ------------------------------------------------------------ reference mesh
if [ ! -f "$REF_XZ" ]; then
    echo "SKIP: reference mesh not found at $REF_XZ"
    exit 0
fi

"$GEN" "$TMP/gen.dat"
xz -dc "$REF_XZ" > "$TMP/ref.dat"

if ! cmp -s "$TMP/ref.dat" "$TMP/gen.dat"; then
    echo "FAIL: generated 400x600 mesh differs from $REF_XZ" >&2
    cmp "$TMP/ref.dat" "$TMP/gen.dat" >&2 || true
    echo "sizes: reference $(wc -c < "$TMP/ref.dat"), generated $(wc -c < "$TMP/gen.dat") bytes" >&2
    echo "first differing lines (line: reference | generated):" >&2
    paste -d '|' "$TMP/ref.dat" "$TMP/gen.dat" |
        awk -F'|' '$1 != $2 { print NR ":" $1 "|" $2; if (++n == 10) exit }' >&2
    exit 1
fi

echo "mesh_ref: PASS ($(wc -c < "$TMP/gen.dat" | tr -d ' ') bytes identical)"
