/* Error: a dim that is not an integer. */
#include <loom.h>

static void total(const double *v, double *sum) { *sum += *v; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
  loom_dat w = loom_decl_dat(cells, 2.5, double, data, "w");
#pragma loom par_loop(total) over(cells) args(read: w, inc: sum)
  loom_exit();
  return 0;
}
