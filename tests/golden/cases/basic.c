/* The smallest complete Loom program: a direct loop and a reduction. */
#include <loom.h>

static void scale(const double *x, double *y, double *sum) {
  y[0] = 2.0 * x[0];
  *sum += y[0];
}

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(scale) over(cells) args(read: x, write: y, inc: sum)
  loom_exit();
  return sum == 20.0 ? 0 : 1;
}
