/* Error: a volatile global cannot be passed to a kernel. */
#include <loom.h>

static void total(const double *v, double *sum) { *sum += *v; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  volatile double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
#pragma loom par_loop(total) over(cells) args(read: v, inc: sum)
  loom_exit();
  return 0;
}
