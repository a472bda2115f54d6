#!/usr/bin/env bash
# Regenerates the seed corpora of the fuzzers from the test suite:
#
#   fuzz/corpus/pragma/    the text after `#pragma loom ` of every directive
#                          in tests/golden/cases/*.c (continuation lines
#                          kept) and in the string tables of tests/unit/compiler
#   fuzz/corpus/frontend/  the golden cases' .c files of at most 2 KB
#
# Files are named by a hash of their contents, so re-running adds nothing
# twice.  Review and commit the result; the fuzzers never write here
# (make fuzz works on a copy in build/fuzz/).  Needs python3.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
python3 - "$root" <<'PY'
import ast, glob, hashlib, os, re, sys

root = sys.argv[1]
out = os.path.join(root, "fuzz", "corpus")
counts = {}

def put(kind, data):
    d = os.path.join(out, kind)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha1(data).hexdigest()[:16])
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts[kind] = counts.get(kind, 0) + 1

pragma = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+loom\b[ \t]*")
cases = sorted(f for f in glob.glob(os.path.join(root, "tests/golden/cases/*.c"))
               if not f.endswith(".seq.c"))
for f in cases:
    lines = open(f, "rb").read().split(b"\n")
    i = 0
    while i < len(lines):
        m = pragma.match(lines[i])
        if not m:
            i += 1
            continue
        text = [lines[i][m.end():]]
        while text[-1].endswith(b"\\") and i + 1 < len(lines):
            i += 1
            text.append(lines[i])
        put("pragma", b"\n".join(text))
        i += 1
    if os.path.getsize(f) <= 2048:
        put("frontend", open(f, "rb").read())

lit = re.compile(r'"(?:[^"\\\n]|\\.)*"')
for name in sorted(glob.glob(os.path.join(root, "tests/unit/compiler/*/test_*.c"))):
    for line in open(name).read().splitlines():
        for m in lit.finditer(line):
            s = ast.literal_eval(m.group(0))
            k = s.find("#pragma loom")
            if k >= 0:
                s = s[k + len("#pragma loom"):].lstrip(" ")
            elif not s.startswith("par_loop"):
                continue
            put("pragma", s.encode())

for kind in ("pragma", "frontend"):
    n = len(os.listdir(os.path.join(out, kind)))
    print(f"corpus/{kind}: {n} seeds ({counts.get(kind, 0)} new)")
PY
