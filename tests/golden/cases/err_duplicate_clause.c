/* Error: the over clause is given twice. */
#include <loom.h>

static void copy(const double *x, double *y) { y[0] = x[0]; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(copy) over(cells) over(cells) args(read: x, write: y)
#pragma loom par_loop(copy) over(cells) args(read: x, write: y) args(read: x, write: y)
  loom_exit();
  return 0;
}
