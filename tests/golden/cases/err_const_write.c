/* Error: an argument the kernel writes (inc) bound to a pointer to const. */
#include <loom.h>

static void accumulate(const double *x, const double *y) { (void)x; (void)y; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(accumulate) over(cells) args(read: x, inc: y)
  loom_exit();
  return 0;
}
