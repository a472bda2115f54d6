#!/usr/bin/env python3
"""A program with N par_loops in one block, for bench/scaling.sh.

   bench/many_loops.py N > prog.c

Loops cycle through three kinds over a small mesh and eight dats: a direct
copy (cells), an edge loop reading and incrementing through a map (a halo
exchange and an indirect increment under MPI) and a reduction into a
global, each reading what an earlier one wrote: a chain of dependences, so
every loop's DAG node has edges, and fusion is tried on each pair.
"""
import sys
n=int(sys.argv[1]); nd=8
print('''#include <loom.h>
#include <stdio.h>
static void copy(const double *a, double *b) { b[0] = a[0] + 1.0; }
static void flux(const double *xa, const double *xb, double *ra, double *rb) {
  double f = 0.5 * (xb[0] - xa[0]);
  ra[0] += f;
  rb[0] -= f;
}
static void total(const double *a, double *s) { s[0] += a[0]; }
int main(int argc, char **argv) {
  int edge_cells[4] = {0, 1, 1, 2};
  double v[3] = {0.0, 1.0, 4.0};
  double s = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, edge_cells, "ecell");''')
for d in range(nd):
    print('  loom_dat d%d = loom_decl_dat(cells, 1, double, v, "d%d");' % (d, d))
for k in range(n):
    a, b = k % nd, (k + 1) % nd
    if k % 3 == 0:
        print('#pragma loom par_loop(copy) over(cells) args(read: d%d, write: d%d)' % (a, b))
    elif k % 3 == 1:
        print('#pragma loom par_loop(flux) over(edges) args(read: d%d[ecell[0]], d%d[ecell[1]], inc: d%d[ecell[0]], d%d[ecell[1]])' % (a, a, b, b))
    else:
        print('#pragma loom par_loop(total) over(cells) args(read: d%d, inc: s)' % a)
print('  printf("%g\\n", s);')
print('  loom_exit();\n  return 0;\n}')
