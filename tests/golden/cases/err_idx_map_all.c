/* Error: idx through all slots of a map; idx[map[i]] passes one int. */
#include <loom.h>

static void k(const int *n, double *x) { *x = *n; }

int main(int argc, char **argv) {
  static const int e2c[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat x = loom_decl_temp(edges, 1, double, "x");
#pragma loom par_loop(k) over(edges) args(read: idx[ecell[*]], write: x)
  loom_exit();
  return 0;
}
