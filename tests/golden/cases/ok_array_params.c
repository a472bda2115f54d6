/* Kernel parameters declared as arrays are pointers, as in C. Comments inside a directive are ignored. */
#include <loom.h>

static void total_arr(const double v[1], double sum[1]) { sum[0] += v[0]; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
#pragma loom par_loop(total_arr) over(cells) /* one loop */ \
    args(read: v, /* the total: */ inc: sum) // done
  loom_exit();
  return 0;
}
