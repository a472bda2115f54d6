#!/usr/bin/env python3
"""Checks the wedges extruded.c wrote (tests/e2e/extruded.sh).

    wedge_check.py P2V.bin X.bin N

P2V.bin and X.bin are `loom-mesh --extract` dumps (doubles) of the
topology (six point numbers per prism) and the points' coordinates (three
per point).  Every wedge must be a right prism one layer high (1/N): its
bottom three points at one height, its top three 1/N above them, each top
point over its bottom one; every point number must be a point.
"""
import struct
import sys


def doubles(path):
    data = open(path, "rb").read()
    return struct.unpack("%dd" % (len(data) // 8), data)


def main():
    top, xyz, n = doubles(sys.argv[1]), doubles(sys.argv[2]), int(sys.argv[3])
    points = len(xyz) // 3
    bad = []
    for e in range(len(top) // 6):
        v = [int(x) for x in top[6 * e:6 * e + 6]]
        if min(v) < 0 or max(v) >= points:
            bad.append((e, "point number out of range"))
            continue
        p = [xyz[3 * i:3 * i + 3] for i in v]
        zb, zt = {q[2] for q in p[:3]}, {q[2] for q in p[3:]}
        if len(zb) != 1 or len(zt) != 1 or abs(min(zt) - min(zb) - 1.0 / n) > 1e-12:
            bad.append((e, "not one layer high"))
        elif any(p[j][:2] != p[j + 3][:2] for j in range(3)):
            bad.append((e, "top not over bottom"))
    if bad:
        print("wedge_check: %d of %d wedges wrong, e.g. %s" % (len(bad), len(top) // 6, bad[0]))
        return 1
    print("wedge_check: PASS (%d wedges over %d points)" % (len(top) // 6, points))
    return 0


sys.exit(main())
