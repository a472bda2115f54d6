/* Error: the kernel is declared but never defined in this file. */
#include <loom.h>

void copy(const double *x, double *y); /* defined in another file */

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(copy) over(cells) args(read: x, write: y)
  loom_exit();
  return 0;
}
