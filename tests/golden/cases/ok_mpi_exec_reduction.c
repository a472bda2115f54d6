/* OK: a loop that increments through a map and reduces a global.  With
 * --target=mpi it runs its executed halo (the increments to owned cells
 * are this rank's to compute) in a part of its own, whose contributions
 * to `total` are discarded: the owners of those edges count them. */
#include <loom.h>

static void spread(const double *w, double *a, double *b, double *total) {
  a[0] += *w;
  b[0] -= *w;
  *total += *w;
}

int main(int argc, char **argv) {
  static const int e2c[6] = {0, 1, 1, 2, 2, 3};
  static double data[4] = {1, 2, 3, 4};
  double total = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat w = loom_decl_dat(edges, 1, double, data, "w");
  loom_dat acc = loom_decl_temp(cells, 1, double, "acc");
#pragma loom par_loop(spread) over(edges) \
    args(read: w, inc: acc[ecell[0]], acc[ecell[1]], total)
  loom_exit();
  return (int)total;
}
