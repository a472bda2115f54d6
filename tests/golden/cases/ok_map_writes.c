/* Writes through maps.  `write`: where several edges reach one cell, the
 * value left is that of the edge with the highest declared number, as in
 * plain C (loom__write_winners; the others write to a scratch local).
 * `rw`: the value left would depend on the order of the edges, so the
 * run time rejects a map that reaches one cell from two edges
 * (loom__check_unique). */
#include <loom.h>

static void mark(const int *e, double *a, double **both) { *a = *e; both[0][0] = both[1][0] = *e; }
static void twice(double *c) { c[0] *= 2.0; }

int main(int argc, char **argv) {
  static const int e2c[6] = {0, 1, 1, 2, 2, 3}, e2d[3] = {2, 0, 1};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_map edual = loom_decl_map(edges, cells, 1, e2d, "edual");
  loom_dat x = loom_decl_temp(cells, 1, double, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(mark) over(edges) args(idx, write: x[ecell[0]], y[ecell[*]])
#pragma loom par_loop(twice) over(edges) args(rw: x[edual[0]])
  loom_exit();
  return 0;
}
