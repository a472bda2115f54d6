#!/usr/bin/env python3
"""unroll_k.py IN OUT — Airfoil with OP2's `for (int k = 0; k < 2; k++)`
loop written out as its two stages (the body twice), for make bench: the
form of the sample before loomc rotated loops, measured beside it.  The
body must not use k and holds no braces but the loop's own."""
import re
import sys

src = open(sys.argv[1]).read().split('\n')
out, i = [], 0
head = re.compile(r'^(\s*)for \(int k = 0; k < 2; k\+\+\) \{\s*$')
while i < len(src):
    m = head.match(src[i])
    if not m:
        out.append(src[i])
        i += 1
        continue
    j = i + 1
    while src[j].strip() != '}':
        j += 1
    body = src[i + 1:j]
    for stage in ('predictor', 'corrector'):
        out.append('%s/* k = %d: the %s (unrolled by bench/unroll_k.py) */' %
                   (m.group(1), 0 if stage == 'predictor' else 1, stage))
        out.extend(body)
    i = j + 1
open(sys.argv[2], 'w').write('\n'.join(out))
