/* Error: the same global passed twice to one loop. */
#include <loom.h>

static void total2(const double *v, const double *s, double *sum) { *sum += *v + *s; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
#pragma loom par_loop(total2) over(cells) args(read: v, sum, inc: sum)
  loom_exit();
  return 0;
}
