#!/usr/bin/env bash
# Every diagnostic of dsl-spec/diagnostics.md has a golden case, and every
# golden error/warning case belongs to a diagnostic.
#
# The entries are read by the conventions of diagnostics.md:
#   - an entry is a `###`/`####` heading holding its message(s) in
#     backticks (`### warning: ...` for a warning); alternatives after
#     "(or" are not separate messages. Words in CAPITALS are the varying
#     parts, `...` stands for any text;
#   - its golden cases are the backticked names err_*/warn_* in its text,
#     up to the next heading (`Case: ...`, `Cases: ...`, a table's case
#     column);
#   - a heading without backticks groups entries (### Global arguments);
#     when its text holds a table with columns `message` and `case`, each
#     row is an entry (§7, clang's messages);
#   - a table with columns `message` and `case` under an entry pairs an
#     exact message with its cases, checked besides the entry's message;
#   - a `##` section whose title says "(no golden case)" is exempt (§8),
#     and the "Index of golden cases" is checked on its own.
# Checks:
#   1. each entry names at least one case; each case has NAME.c and NAME.err
#      in tests/golden/cases/;
#   2. each message of an entry is a whole line `FILE:L:C: error: MESSAGE`
#      (or `warning:`) of the .err of one of its cases;
#   3. each case's .err holds one of its entry's messages;
#   4. every err_*/warn_* case is named by an entry, and listed in the index
#      (which names no case that does not exist).
#   tests/e2e/diag_coverage.sh [DIAGNOSTICS.md [CASES_DIR]]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
spec=${1:-$root/dsl-spec/diagnostics.md}
cases=${2:-$root/tests/golden/cases}
for f in "$spec" "$cases"; do
  [ -e "$f" ] || { echo "diag_coverage: $f does not exist"; exit 1; }
done

# The err_*/warn_* cases: the names of the .c inputs (NAME.c, not NAME.seq.c).
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for f in "$cases"/err_*.c "$cases"/warn_*.c; do
  case $f in *.seq.c) continue ;; esac
  [ -e "$f" ] && basename "$f" .c
done >"$list"

awk -v dir="$cases" '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function bad(msg) { nbad++; print "FAIL: " msg }
# the backticked spans of s, into arr[1..n]; returns n
function spans(s, arr,   n) {
  n = 0
  while (match(s, /`[^`]+`/)) { arr[++n] = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
  return n
}
function is_case(s) { return s ~ /^(err|warn)_[a-z0-9_]+$/ }
# the regex for a message: CAPITALS (and N-1) match any text, ... too
function msg_regex(m,   re, c, w) {
  re = ""
  while (m != "") {
    if (substr(m, 1, 3) == "...") { re = re ".*"; m = substr(m, 4); continue }
    if (match(m, /^[A-Z][A-Z0-9_]*([-+][0-9]+)?/) && (substr(m, RLENGTH + 1, 1) !~ /[a-z]/) &&
        (prev !~ /[a-zA-Z]/)) {
      re = re ".+"; prev = "X"; m = substr(m, RLENGTH + 1); continue
    }
    c = substr(m, 1, 1); m = substr(m, 2); prev = c
    if (c == "^") re = re "\\^"
    else if (c == "\\") re = re "[\\\\]"
    else if (index(".[]$()*+?{}|", c)) re = re "[" c "]"
    else re = re c
  }
  prev = ""
  return re
}
# entry e: label, severity, messages msg[e, 1..nmsg[e]], cases cas[e, 1..ncas[e]]
function new_entry(label, sev) {
  ne++; elabel[ne] = label; esev[ne] = sev; nmsg[ne] = 0; ncas[ne] = 0; eline[ne] = FNR
  return ne
}
function add_msg(e, m) { msg[e, ++nmsg[e]] = m }
function add_case(e, c,   i) {
  for (i = 1; i <= ncas[e]; i++) if (cas[e, i] == c) return
  cas[e, ++ncas[e]] = c
}
# does NAME.err hold the message m with severity sev as a whole diagnostic?
function err_has(name, sev, m,   f, line, re, found) {
  f = dir "/" name ".err"; re = ": " sev ": " msg_regex(m) "$"; found = 0
  while ((getline line < f) > 0) if (line !~ /^ / && line ~ re) found = 1
  close(f)
  return found
}
function exists(f,   line, r) { r = (getline line < f); close(f); return r >= 0 }

FNR == NR { golden[$0] = 1; ngolden++; next }   # the list of cases

/^```/ { fence = !fence; next }
fence { next }

/^## / {
  section = $0; exempt = section ~ /\(no golden case\)/; index_sec = section ~ /Index of golden cases/
  cur = 0; group_table = 0; tbl = 0
  next
}
/^###/ {
  tbl = 0; cur = 0; group_table = 0
  if (exempt || index_sec) next
  h = $0; sub(/^#+[ \t]*/, "", h)
  sev = h ~ /^warning:/ ? "warning" : "error"
  hm = h; if ((p = index(hm, "(or ")) > 0) hm = substr(hm, 1, p - 1)
  n = spans(hm, hs)
  if (n == 0) { group = h; next }           # a group heading
  cur = new_entry(hs[1], sev)
  for (i = 1; i <= n; i++) add_msg(cur, hs[i])
  next
}
# tables: a header row, then |---|
/^\|/ {
  row = $0; sub(/^\|/, "", row); sub(/\|[ \t]*$/, "", row)
  nc = split(row, cell, "|")
  if (!tbl) { nh = nc; for (i = 1; i <= nc; i++) head[i] = trim(cell[i]); tbl = 1; next }
  if (row ~ /^[ \t:|-]+$/) next
  mcol = 0; ccol = 0
  for (i = 1; i <= nh; i++) { if (head[i] == "message") mcol = i; if (head[i] == "case" || head[i] == "cases") ccol = i }
  if (index_sec) {
    if (spans(cell[1], ix) && is_case(ix[1])) { indexed[ix[1]] = 1; nindexed++ }
    next
  }
  if (exempt) { if (mcol) nexempt++; next }
  if (mcol && ccol) {
    if (spans(cell[mcol], rm) == 0) next
    e = new_entry(rm[1], "error")
    add_msg(e, rm[1])
    k = spans(cell[ccol], rc)
    for (i = 1; i <= k; i++) if (is_case(rc[i])) { add_case(e, rc[i]); if (cur) add_case(cur, rc[i]) }
    if (cur) rowof[e] = cur
    next
  }
  if (cur) { k = spans($0, rc); for (i = 1; i <= k; i++) if (is_case(rc[i])) add_case(cur, rc[i]) }
  next
}
{ tbl = 0 }
cur {
  k = spans($0, bs)
  for (i = 1; i <= k; i++) if (is_case(bs[i])) add_case(cur, bs[i])
}

END {
  for (e = 1; e <= ne; e++) {
    where = "diagnostics.md:" eline[e] ": `" elabel[e] "`"
    if (ncas[e] == 0) { bad(where ": names no golden case"); continue }
    nentries++
    for (i = 1; i <= ncas[e]; i++) {
      c = cas[e, i]; named[c] = 1
      if (!exists(dir "/" c ".c")) bad(where ": case " c " does not exist (no " c ".c)")
      else if (!exists(dir "/" c ".err")) bad(where ": case " c " has no .err")
    }
    for (j = 1; j <= nmsg[e]; j++) {
      nmessages++; hit = 0
      for (i = 1; i <= ncas[e] && !hit; i++) hit = err_has(cas[e, i], esev[e], msg[e, j])
      if (!hit) {
        list = ""; for (i = 1; i <= ncas[e]; i++) list = list (i > 1 ? ", " : "") cas[e, i] ".err"
        bad(where ": no " esev[e] " \"" msg[e, j] "\" in " list)
      }
    }
    if (e in rowof) continue   # a row: its cases are checked with its entry
    for (i = 1; i <= ncas[e]; i++) {
      hit = 0
      for (j = 1; j <= nmsg[e] && !hit; j++) hit = err_has(cas[e, i], esev[e], msg[e, j])
      if (!hit && exists(dir "/" cas[e, i] ".err"))
        bad(where ": " cas[e, i] ".err holds none of the entry'"'"'s messages")
    }
  }
  for (c in golden) {
    if (!(c in named)) bad("case " c " is named by no entry of diagnostics.md")
    if (!(c in indexed)) bad("case " c " is not in the index of golden cases")
  }
  for (c in indexed) if (!(c in golden)) bad("the index names " c ", which is not a case")
  printf "diag_coverage: %d entries (%d messages) with golden cases, %d exempt (no golden case); %d err/warn cases, %d in the index; %d problems\n", \
    nentries, nmessages, nexempt, ngolden, nindexed, nbad
  exit (nbad > 0)
}' "$list" "$spec"
