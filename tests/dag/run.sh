#!/usr/bin/env bash
# DAG tests: for each tests/dag/NAME.c,
#   loomc --target=mpi --emit-dag=NAME.mpi.dot, loomc --report and
#   loomc --target=mpi --report
# are compared with NAME.mpi.dot, NAME.report.txt and NAME.mpi.report.txt
# (UPDATE=1 rewrites them: review by eye), and the orderings listed in
# NAME.order are checked by reachability in the emitted (mpi) graph:
#   A < B    a computation labelled A reaches one labelled B;
#   A !< B   no computation labelled A reaches one labelled B.
set -u
here=$(cd "$(dirname "$0")" && pwd)
loomc=$(cd "$(dirname "${1:-$here/../../build/bin/loomc}")" && pwd)/$(basename "${1:-loomc}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# reaches DOT A B: whether a node labelled A reaches a node labelled B (in
# the same cluster), through the edges of DOT.  Every node labelled A is
# tried (removed computations are drawn unconnected, so they reach nothing).
reaches() {
  awk -v from="$2" -v to="$3" '
    /\[label="/ { id = $1; l = $0; sub(/[^x]label="/, "\001", l); sub(/.*\001/, "", l); sub(/".*/, "", l); label[id] = l }
    / -> / { e[$1] = e[$1] " " $3; sub(/;$/, "", e[$1]) }
    END {
      for (s in label) {
        if (label[s] != from) continue
        split("", seen); n = 0; q[n++] = s; seen[s] = 1
        for (i = 0; i < n; i++) {
          k = split(e[q[i]], nx, " ")
          for (j = 1; j <= k; j++) { t = nx[j]; sub(/;$/, "", t)
            if (t != "" && !(t in seen)) { seen[t] = 1; q[n++] = t; if (label[t] == to) found = 1 } }
        }
      }
      exit found ? 0 : 1
    }' "$1"
}

for src in "$here"/*.c; do
  name=$(basename "$src" .c)
  cp "$src" "$tmp/"
  (cd "$tmp" && "$loomc" --target=mpi --emit-dag="$name.mpi.dot" "$name.c" 2>"$name.err" &&
    "$loomc" --report "$name.c" >"$name.report.txt" 2>>"$name.err" &&
    "$loomc" --target=mpi --report "$name.c" >"$name.mpi.report.txt" 2>>"$name.err") ||
    { bad "$name: loomc failed"; cat "$tmp/$name.err"; continue; }
  for out in mpi.dot report.txt mpi.report.txt; do
    [ "${UPDATE:-0}" = 1 ] && cp "$tmp/$name.$out" "$here/$name.$out"
    if diff -u "$here/$name.$out" "$tmp/$name.$out"; then pass=$((pass + 1)); else bad "$name.$out differs"; fi
  done
  [ -f "$here/$name.order" ] || continue
  while IFS= read -r line; do
    case $line in ''|'#'*) continue ;; esac
    case $line in
    *' !< '*)
      a=${line%% !< *} b=${line#* !< }
      if ! reaches "$tmp/$name.mpi.dot" "$a" "$b"; then pass=$((pass + 1)); else bad "$name: '$a' comes before '$b'"; fi ;;
    *)
      a=${line%% < *} b=${line#* < }
      if reaches "$tmp/$name.mpi.dot" "$a" "$b"; then pass=$((pass + 1)); else bad "$name: '$a' does not come before '$b'"; fi ;;
    esac
  done <"$here/$name.order"
done
echo "dag: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
