/* A dat incremented directly and through a map in one loop: increments
 * commute, so it is allowed; the OpenMP plan colours the element's own
 * values with the targets of the map ({NULL, 0} in its write list), so no
 * two elements of one colour increment one cell. */
#include <loom.h>

static void bump(double *mine, double *succ) { mine[0] += 1.0; succ[0] += 1.0; }

int main(int argc, char **argv) {
  static const int ring[4] = {1, 2, 3, 0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_map next = loom_decl_map(cells, cells, 1, ring, "next");
  loom_dat x = loom_decl_temp(cells, 1, double, "x");
#pragma loom par_loop(bump) over(cells) args(inc: x, x[next[0]])
  loom_exit();
  return 0;
}
