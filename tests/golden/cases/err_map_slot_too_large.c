/* Error: a map slot with more digits than any map has slots. */
#include <loom.h>

static void total(const double *v, double *sum) { *sum += *v; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  int c2c[4] = {1, 2, 3, 0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
  loom_map m = loom_decl_map(cells, cells, 1, c2c, "m");
#pragma loom par_loop(total) over(cells) args(read: v[m[12345678]], inc: data)
  loom_exit();
  return 0;
}
