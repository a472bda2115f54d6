#!/usr/bin/env bash
# The include and call rules (scripts/check-layers.py): the project's own
# trees pass, and small trees that break each rule fail with the error
# that names the rule.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/scripts/check-layers.py
fail=0
python3 "$check" || fail=1

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# tree NAME: a tree of layers low < high with a.c/a.h in low, b.c/b.h in
# high; b_fn (high) calls a_fn (low)
tree() {
  local t=$scratch/$1
  mkdir -p "$t/scripts" "$t/src/low" "$t/src/high"
  printf 'tree src low high\n' >"$t/scripts/layers.conf"
  printf '#include "low/a.h"\nint a_fn(void) { return 0; }\n' >"$t/src/low/a.c"
  : >"$t/src/low/a.h"
  printf '#include "high/b.h"\n#include "low/a.h"\nint b_fn(void) {\n  return a_fn();\n}\n' \
    >"$t/src/high/b.c"
  : >"$t/src/high/b.h"
  echo "$t"
}
# expect NAME PATTERN: checking tree NAME fails and prints PATTERN
expect() {
  local out
  if out=$(python3 "$check" --root "$scratch/$1" 2>&1); then
    echo "FAIL layers: tree '$1' passed"; fail=1
  elif ! grep -q -- "$2" <<<"$out"; then
    echo "FAIL layers: tree '$1' lacks '$2':"; echo "$out"; fail=1
  fi
}
t=$(tree good)
python3 "$check" --root "$t" >/dev/null || { echo "FAIL layers: a good tree fails"; fail=1; }
t=$(tree up); printf '#include "high/b.h"\n' >>"$t/src/low/a.c"
expect up 'src/low/a.c:3: error: .* includes "high/b.h" of the higher layer high'
t=$(tree circle); printf '#include "low/c.h"\n' >"$t/src/low/a.h"; printf '#include "low/a.h"\n' >"$t/src/low/c.h"; : >"$t/src/low/c.c"
expect circle 'include circle between modules low/a <-> low/c'
t=$(tree stray); mkdir -p "$t/src/other"; : >"$t/src/other/x.c"
expect stray 'folder src/other is not a layer'
t=$(tree allowed); printf '#include "low/c.h"\n' >"$t/src/low/a.h"; printf '#include "low/a.h"\n' >"$t/src/low/c.h"
printf 'allow-cycle low/a low/c\n' >>"$t/scripts/layers.conf"
python3 "$check" --root "$t" >/dev/null || { echo "FAIL layers: an allowed circle fails"; fail=1; }
t=$(tree upcall); printf 'int b_fn(void);\nint a_up(void) { /* b_fn( in a comment */\n  return b_fn();\n}\n' >>"$t/src/low/a.c"
expect upcall 'src/low/a.c:5: error: .* calls b_fn, defined in src/high/b.c of the higher layer high'
t=$(tree allowedcall); printf 'int b_fn(void);\nint a_up(void) { return b_fn(); }\n' >>"$t/src/low/a.c"
printf 'allow-call src/low/a.c b_fn\n' >>"$t/scripts/layers.conf"
python3 "$check" --root "$t" >/dev/null || { echo "FAIL layers: an allowed call fails"; fail=1; }
[ $fail = 0 ] && echo "layers: passed (the trees and 7 rule cases)"
exit $fail
