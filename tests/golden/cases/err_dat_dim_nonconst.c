/* Error: the dim of a dat is a run-time variable; loomc must read it at
 * compile time. */
#include <loom.h>

static void norm(const double *v, double *n) { *n = v[0] * v[0] + v[1] * v[1]; }

int main(int argc, char **argv) {
  double vel[4] = {1, 0, 0, 1};
  int ncomp = 2;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_dat v = loom_decl_dat(cells, ncomp, double, vel, "v");
  loom_dat n = loom_decl_temp(cells, 1, double, "n");
#pragma loom par_loop(norm) over(cells) args(read: v, write: n)
  loom_exit();
  return 0;
}
