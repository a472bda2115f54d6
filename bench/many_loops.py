#!/usr/bin/env python3
"""A program with N par_loops of one shape, for bench/scaling.sh.

   bench/many_loops.py N [SHAPE] > prog.c

Shapes (each a chain of dependences, so every loop's DAG node has edges
and fusion, rotation and the schedule are tried on each):

  block    N loops in one block of main, cycling through a direct copy
           (cells), an edge loop reading and incrementing through a map (a
           halo exchange and an indirect increment under MPI) and a
           reduction into a global
  time     the loops alternate between an edge loop and a cell loop that
           reduces a global, in a time loop of 3 iterations (a constant
           trip count: rotated)
  timevar  the same in a time loop whose trip count is read at run time
           (rotated, its exchanges hoisted, never unrolled)
  nested   the block's loops in a loop of 2 iterations (unrolled when small)
           inside a time loop
  calls    the time shape's loops in functions of 8 loops each, on handles
           at file scope, called in turn from the time loop (seen through)
  sets     loops over four sets (nodes, edges, cells, faces) and the maps
           between them, reductions among them, in a time loop
"""
import sys

n = int(sys.argv[1])
shape = sys.argv[2] if len(sys.argv) > 2 else 'block'
ND = 8

KERNELS = '''#include <loom.h>
#include <stdio.h>
#include <stdlib.h>
static void copy(const double *a, double *b) { b[0] = a[0] + 1.0; }
static void flux(const double *xa, const double *xb, double *ra, double *rb) {
  double f = 0.5 * (xb[0] - xa[0]);
  ra[0] += f;
  rb[0] -= f;
}
static void total(const double *a, double *s) { s[0] += a[0]; }
static void scale(const double *a, double *b, double *s) { b[0] = 0.5 * a[0]; s[0] += b[0]; }
static void gather(const double *a, const double *b, double *c) { c[0] = a[0] - b[0]; }
'''

MESH = '''  int edge_cells[4] = {0, 1, 1, 2};
  int cell_nodes[6] = {0, 1, 1, 2, 2, 3};
  int face_cells[2] = {0, 2};
  double v[4] = {0.0, 1.0, 4.0, 9.0};
  double s = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set edges = loom_decl_set(2, "edges");
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set faces = loom_decl_set(2, "faces");
  loom_map ecell = loom_decl_map(edges, cells, 2, edge_cells, "ecell");
  loom_map cnode = loom_decl_map(cells, nodes, 2, cell_nodes, "cnode");
  loom_map fcell = loom_decl_map(faces, cells, 1, face_cells, "fcell");
  (void)nodes, (void)faces, (void)cnode, (void)fcell;'''


def block_loop(k, ind=''):
    a, b = k % ND, (k + 1) % ND
    if k % 3 == 0:
        return '%s#pragma loom par_loop(copy) over(cells) args(read: d%d, write: d%d)' % (ind, a, b)
    if k % 3 == 1:
        return ('%s#pragma loom par_loop(flux) over(edges) args(read: d%d[ecell[0]], '
                'd%d[ecell[1]], inc: d%d[ecell[0]], d%d[ecell[1]])' % (ind, a, a, b, b))
    return '%s#pragma loom par_loop(total) over(cells) args(read: d%d, inc: s)' % (ind, a)


def time_loop(k, names=None):
    a, b = k % ND, (k + 1) % ND
    d = names or (lambda i: 'd%d' % i)
    if k % 2 == 0:
        return ('#pragma loom par_loop(flux) over(edges) args(read: %s[ecell[0]], %s[ecell[1]], '
                'inc: %s[ecell[0]], %s[ecell[1]])' % (d(a), d(a), d(b), d(b)))
    return '#pragma loom par_loop(scale) over(cells) args(read: %s, write: %s, inc: s)' % (
        d(a), d(b))


def sets_loop(k):
    a, b = k % ND, (k + 1) % ND
    kind = k % 4
    if kind == 0:
        return ('#pragma loom par_loop(flux) over(edges) args(read: c%d[ecell[0]], c%d[ecell[1]], '
                'inc: c%d[ecell[0]], c%d[ecell[1]])' % (a, a, b, b))
    if kind == 1:
        return ('#pragma loom par_loop(gather) over(cells) args(read: n%d[cnode[0]], '
                'n%d[cnode[1]], write: c%d)' % (a, a, b))
    if kind == 2:
        return ('#pragma loom par_loop(flux) over(cells) args(read: n%d[cnode[0]], n%d[cnode[1]], '
                'inc: n%d[cnode[0]], n%d[cnode[1]])' % (a, a, b, b))
    return '#pragma loom par_loop(scale) over(faces) args(read: f%d, write: f%d, inc: s)' % (a, b)


def dats(prefix='d', set_='cells'):
    return ['  loom_dat %s%d = loom_decl_dat(%s, 1, double, v, "%s%d");' % (prefix, d, set_, prefix, d)
            for d in range(ND)]


out = [KERNELS]
if shape == 'calls':
    out.append('static double s;')
    out.append('static loom_set cells, edges;')
    out += ['static loom_dat d%d LOOM_DAT_FACTS(cells, 1, double);' % d for d in range(ND)]
    out.append('static loom_map ecell LOOM_MAP_FACTS(edges, cells, 2);')
    nstage = (n + 7) // 8
    for j in range(nstage):
        out.append('static void stage%d(void) {' % j)
        out += [time_loop(k) for k in range(8 * j, min(n, 8 * j + 8))]
        out.append('}')
    out.append('int main(int argc, char **argv) {')
    out.append('''  int edge_cells[4] = {0, 1, 1, 2};
  double v[3] = {0.0, 1.0, 4.0};
  loom_init(&argc, &argv);
  cells = loom_decl_set(3, "cells");
  edges = loom_decl_set(2, "edges");
  ecell = loom_decl_map(edges, cells, 2, edge_cells, "ecell");''')
    out += ['  d%d = loom_decl_dat(cells, 1, double, v, "d%d");' % (d, d) for d in range(ND)]
    out.append('  for (int it = 0; it < 3; it++) {')
    out += ['    stage%d();' % j for j in range(nstage)]
    out.append('  }')
else:
    out.append('int main(int argc, char **argv) {')
    out.append(MESH)
    if shape == 'sets':
        out += dats('c', 'cells') + dats('n', 'nodes') + dats('f', 'faces')
    else:
        out += dats()
    if shape == 'block':
        out += [block_loop(k) for k in range(n)]
    elif shape in ('time', 'timevar', 'sets'):
        trip = 'nit' if shape == 'timevar' else '3'
        if shape == 'timevar':
            out.append('  int nit = argc > 1 ? atoi(argv[1]) : 3;')
        out.append('  for (int it = 0; it < %s; it++) {' % trip)
        out += [(sets_loop(k) if shape == 'sets' else time_loop(k)) for k in range(n)]
        out.append('  }')
    elif shape == 'nested':
        out.append('  for (int it = 0; it < 3; it++) {')
        out.append('    for (int k = 0; k < 2; k++) {')
        out += [block_loop(k) for k in range(n)]
        out.append('    }')
        out.append('  }')
    else:
        sys.exit('many_loops.py: unknown shape %s' % shape)
out.append('  printf("%g\\n", s);')
out.append('  loom_exit();\n  return 0;\n}')
print('\n'.join(out))
