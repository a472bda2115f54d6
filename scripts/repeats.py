#!/usr/bin/env python3
"""Runs of identical lines that a file repeats: generated code's readers
should not meet one block twice.

    scripts/repeats.py [--min N] [--numbers] [--quiet] FILE...

For each file, every maximal run of at least N (default 10) consecutive
lines that also occurs elsewhere in the same file, each pair of places
once: a run as long as it can be, not the shorter runs inside it.  Lines
are compared as written, but for trailing blanks; a run of blank lines
or of lines with only braces counts too.  --numbers compares lines with
every number (a run of digits) taken for one: it finds code repeated
under other loop numbers or `#line` lines.

Prints `FILE: LINES lines, K repeated runs, longest N lines` and, unless
--quiet, each run as `  LEN lines at A-B and C-D` with its first line;
exits 1 when a file has a repeated run.
"""
import re
import sys


def runs(lines, n):
    """Maximal repeated runs (length, start a, start b), a < b, 0-based."""
    # positions of each window of n lines, by content
    windows = {}
    for i in range(len(lines) - n + 1):
        windows.setdefault(tuple(lines[i:i + n]), []).append(i)
    found = []
    seen = set()
    for places in windows.values():
        for x in range(len(places)):
            for y in range(x + 1, len(places)):
                a, b = places[x], places[y]
                # start of the maximal run through (a, b): extend backwards
                while a > 0 and lines[a - 1] == lines[b - 1] and a - 1 != b - 1:
                    a, b = a - 1, b - 1
                if (a, b) in seen:
                    continue
                seen.add((a, b))
                k = 0
                while b + k < len(lines) and lines[a + k] == lines[b + k]:
                    k += 1
                found.append((k, a, b))
    # a run of one place against itself shifted (a block of blank lines):
    # the same lines, not a block written twice
    found = [r for r in found if r[1] + r[0] <= r[2]]
    found.sort(key=lambda r: (-r[0], r[1], r[2]))
    return found


def main(argv):
    n, numbers, quiet, files = 10, False, False, []
    args = iter(argv)
    for a in args:
        if a == "--min":
            n = int(next(args))
        elif a == "--numbers":
            numbers = True
        elif a == "--quiet":
            quiet = True
        else:
            files.append(a)
    status = 0
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = [line.rstrip() for line in fh.read().split("\n")]
        if text and text[-1] == "":
            text.pop()
        key = [re.sub(r"[0-9]+", "#", line) for line in text] if numbers else text
        found = runs(key, n)
        longest = f", longest {found[0][0]} lines" if found else ""
        print(f"{f}: {len(text)} lines, {len(found)} repeated runs{longest}")
        if found:
            status = 1
        if quiet:
            continue
        for k, a, b in found:
            print(f"  {k} lines at {a + 1}-{a + k} and {b + 1}-{b + k}: {text[a].strip()[:60]}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
