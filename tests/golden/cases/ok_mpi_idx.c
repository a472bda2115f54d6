/* --target=mpi: idx is the declared number of the element (loom__set_global), as in seq. */
#include <loom.h>

static void number(const int *i, double *y) { y[0] = (double)*i; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(number) over(cells) args(idx, write: y)
  loom_exit();
  return 0;
}
