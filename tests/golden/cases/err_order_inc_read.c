/* Error: increments through one slot of a map and reads through another,
 * of one dat: an edge could read a cell another edge already incremented. */
#include <loom.h>

static void flow(double *a, const double *b) { a[0] += b[0]; }

int main(int argc, char **argv) {
  static double ones[4] = {1, 1, 1, 1};
  static const int e2c[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat x = loom_decl_dat(cells, 1, double, ones, "x");
#pragma loom par_loop(flow) over(edges) args(inc: x[ecell[0]], read: x[ecell[1]])
  loom_exit();
  return 0;
}
