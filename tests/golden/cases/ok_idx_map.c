/* idx[map[i]] (OP2's op_arg_idx(i, map)): the declared number of the
 * element reached through slot i, as idx is the element's own; both after
 * renumbering and partitioning too (loom__set_global of the map's target
 * set). */
#include <loom.h>

static void number(const int *e, const int *c0, const int *c1, double *x) {
  x[0] = *e;
  x[1] = *c0 + 0.5 * *c1;
}

int main(int argc, char **argv) {
  static const int e2c[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat x = loom_decl_temp(edges, 2, double, "x");
#pragma loom par_loop(number) over(edges) args(read: idx, idx[ecell[0]], idx[ecell[1]], write: x)
  loom_exit();
  return 0;
}
